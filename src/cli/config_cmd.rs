//! `arbiter config show|diff`: print an engine build's weights and search settings, or the ones that differ
//! between two builds.

use arbiter::engine::chess::config::diff;
use arbiter::engine::registry::chess_config;

/// Flags of `arbiter config`.
#[derive(clap::Args, Debug)]
pub struct ConfigArgs {
    /// What to do.
    #[command(subcommand)]
    pub action: ConfigAction,
}

/// The `arbiter config` actions.
#[derive(clap::Subcommand, Debug)]
pub enum ConfigAction {
    /// Print every setting and weight of a build, as a config file (TOML) that `--config` reads back.
    Show {
        /// A config file (`.toml`) or a built-in build: `seed`, `nomob`.
        name: String,
    },
    /// Print the settings and weights that differ between two builds, one `key: a -> b` line each.
    Diff {
        /// The first build: a config file or `seed`/`nomob`.
        a: String,
        /// The second build: a config file or `seed`/`nomob`.
        b: String,
    },
}

/// Runs `arbiter config`; returns the exit code: 0 done, 2 an unreadable or invalid config.
///
/// # Errors
/// None beyond the exit code: problems are printed to stderr.
pub fn run(args: ConfigArgs) -> Result<i32, super::Failure> {
    match args.action {
        ConfigAction::Show { name } => match chess_config(&name) {
            Ok(config) => {
                print!("{}", config.to_toml());
                Ok(0)
            }
            Err(e) => fail(&e.to_string()),
        },
        ConfigAction::Diff { a, b } => {
            let (a, b) = match (chess_config(&a), chess_config(&b)) {
                (Ok(a), Ok(b)) => (a, b),
                (Err(e), _) | (_, Err(e)) => return fail(&e.to_string()),
            };
            for line in diff(&a, &b) {
                println!("{line}");
            }
            Ok(0)
        }
    }
}

/// Prints an error and returns exit code 2.
fn fail(message: &str) -> Result<i32, super::Failure> {
    eprintln!("arbiter config: {message}");
    Ok(2)
}
