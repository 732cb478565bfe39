//! `arbiter match`: placeholder until the runner lands.

/// Flags of `arbiter match`.
#[derive(clap::Args, Debug)]
pub struct MatchArgs {}

/// Runs a match; returns the exit code.
///
/// # Errors
/// Bad input files or flags.
pub fn run(_args: MatchArgs) -> anyhow::Result<i32> {
    Ok(0)
}
