//! `arbiter eval`: placeholder.

/// Flags of `arbiter eval`.
#[derive(clap::Args, Debug)]
pub struct EvalArgs {}

/// Runs `arbiter eval`; returns the exit code.
///
/// # Errors
/// Unreadable configs.
pub fn run(_args: EvalArgs) -> anyhow::Result<i32> {
    Ok(2)
}
