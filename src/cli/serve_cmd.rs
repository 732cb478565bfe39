//! `arbiter serve [DIR...] [--bind ADDR]`: the web view of run folders ([`arbiter::serve`]).

use super::Failure;
use std::path::PathBuf;

/// Flags of `arbiter serve`.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// Folders to serve: run folders, or folders of run folders (default: results).
    #[arg(value_name = "DIR")]
    pub dirs: Vec<PathBuf>,

    /// The address to listen on; localhost by default (the pages are read-only, but a run's plan names its
    /// engines' paths). Port 0 picks a free one.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8080")]
    pub bind: String,

    /// Write `report.html` into every run under the folders (the page of the run, self-contained) and exit,
    /// instead of serving. A match, `arbiter spsa` and `arbiter tune` write theirs at their end.
    #[arg(long)]
    pub report: bool,
}

/// Serves until the process is stopped.
///
/// # Errors
/// A [`Failure::Input`] when the address cannot be bound.
pub fn run(args: ServeArgs) -> Result<i32, Failure> {
    let dirs = if args.dirs.is_empty() { vec![PathBuf::from("results")] } else { args.dirs };
    let site = arbiter::serve::Site::new(dirs);
    if args.report {
        let runs = site.runs();
        if runs.is_empty() {
            return Err(Failure::Input(anyhow::anyhow!("--report: no run folder under the folders given")));
        }
        let mut failed = false;
        for run in runs {
            match arbiter::serve::report::write_report(&run.path) {
                Ok(path) => super::stdout_text(format_args!("{}\n", path.display())),
                Err(error) => {
                    super::stderr_line(format_args!("{error}"));
                    failed = true;
                }
            }
        }
        return if failed {
            Err(Failure::Input(anyhow::anyhow!("--report: some reports were not written")))
        } else {
            Ok(0)
        };
    }
    arbiter::serve::serve(site, &args.bind, |addr| {
        super::stdout_text(format_args!("arbiter serve: http://{addr}/\n"));
    })
    .map_err(|e| Failure::Input(anyhow::anyhow!("--bind {e}")))?;
    Ok(0)
}
