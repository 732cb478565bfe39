//! `arbiter epd`: placeholder.

/// Flags of `arbiter epd`.
#[derive(clap::Args, Debug)]
pub struct EpdArgs {}

/// Runs `arbiter epd`; returns the exit code.
///
/// # Errors
/// Unreadable configs.
pub fn run(_args: EpdArgs) -> anyhow::Result<i32> {
    Ok(2)
}
