//! `arbiter config show|diff`: print an engine build's weights and search settings, or the ones that differ
//! between two builds.

use crate::engine::chess::{EngineConfig, Weights};

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
pub fn run(args: ConfigArgs) -> anyhow::Result<i32> {
    match args.action {
        ConfigAction::Show { name } => match resolve(&name) {
            Ok(config) => {
                print!("{}", config.to_toml());
                Ok(0)
            }
            Err(e) => fail(&e),
        },
        ConfigAction::Diff { a, b } => {
            let (a, b) = match (resolve(&a), resolve(&b)) {
                (Ok(a), Ok(b)) => (a, b),
                (Err(e), _) | (_, Err(e)) => return fail(&e),
            };
            for line in diff(&a, &b) {
                println!("{line}");
            }
            Ok(0)
        }
    }
}

/// Prints an error and returns exit code 2.
fn fail(message: &str) -> anyhow::Result<i32> {
    eprintln!("arbiter config: {message}");
    Ok(2)
}

/// The config of a built-in build name (`seed`, `nomob`) or of a TOML file; the error is a printable message.
pub fn resolve(name: &str) -> Result<EngineConfig, String> {
    crate::engine::registry::chess_config(name).map_err(|e| e.to_string())
}

/// One `key: a -> b` line per setting or weight that differs, in config order (`name`, `search.*`,
/// `weights.*`).
pub fn diff(a: &EngineConfig, b: &EngineConfig) -> Vec<String> {
    let mut lines = Vec::new();
    if a.name != b.name {
        lines.push(format!("name: {:?} -> {:?}", a.name, b.name));
    }
    if a.hash_mb != b.hash_mb {
        lines.push(format!("search.hash_mb: {} -> {}", a.hash_mb, b.hash_mb));
    }
    for key in crate::engine::chess::SearchOptions::KEYS {
        let (x, y) = (a.search.switch(key), b.search.switch(key));
        if x != y {
            let show = |v: Option<bool>| v.map_or("?".to_string(), |v| v.to_string());
            lines.push(format!("search.{key}: {} -> {}", show(x), show(y)));
        }
    }
    let (va, vb) = (a.weights.to_vec(), b.weights.to_vec());
    for ((name, x), y) in Weights::names().iter().zip(va).zip(vb) {
        if x != y {
            lines.push(format!("weights.{name}: {x} -> {y}"));
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diff_lists_changed_keys_only() {
        let (seed, nomob) = (resolve("seed").unwrap(), resolve("nomob").unwrap());
        assert!(diff(&seed, &seed).is_empty());
        let lines = diff(&seed, &nomob);
        assert_eq!(lines[0], "name: \"seed\" -> \"nomob\"");
        assert_eq!(lines[1], "weights.mobility[0]: 9 -> 0");
        assert_eq!(lines.len(), 5);
        let mut other = seed.clone();
        other.hash_mb = 32;
        other.search.lmr = false;
        other.weights.eg[crate::engine::chess::weights::index::TEMPO] = 5;
        assert_eq!(
            diff(&seed, &other),
            ["search.hash_mb: 16 -> 32", "search.lmr: true -> false", "weights.eg.tempo: 0 -> 5"]
        );
        assert!(resolve("/nonexistent/x.toml").unwrap_err().contains("/nonexistent/x.toml"));
    }
}
