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
}

/// Serves until the process is stopped.
///
/// # Errors
/// A [`Failure::Input`] when the address cannot be bound.
pub fn run(args: ServeArgs) -> Result<i32, Failure> {
    let dirs = if args.dirs.is_empty() { vec![PathBuf::from("results")] } else { args.dirs };
    let site = arbiter::serve::Site::new(dirs);
    arbiter::serve::serve(site, &args.bind, |addr| {
        super::stdout_text(format_args!("arbiter serve: http://{addr}/\n"));
    })
    .map_err(|e| Failure::Input(anyhow::anyhow!("--bind {e}")))?;
    Ok(0)
}
