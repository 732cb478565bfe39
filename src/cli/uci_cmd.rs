//! `arbiter uci`: placeholder.

/// Flags of `arbiter uci`.
#[derive(clap::Args, Debug)]
pub struct UciArgs {}

/// Runs `arbiter uci`; returns the exit code.
///
/// # Errors
/// Unreadable configs.
pub fn run(_args: UciArgs) -> anyhow::Result<i32> {
    Ok(2)
}
