//! `arbiter config show|diff`: placeholder.

/// Flags of `arbiter config`.
#[derive(clap::Args, Debug)]
pub struct ConfigArgs {}

/// Runs `arbiter config`; returns the exit code.
///
/// # Errors
/// Unreadable configs.
pub fn run(_args: ConfigArgs) -> anyhow::Result<i32> {
    Ok(2)
}
