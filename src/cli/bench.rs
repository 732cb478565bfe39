//! `arbiter bench`: placeholder.

/// Flags of `arbiter bench`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {}

/// Runs `arbiter bench`; returns the exit code.
///
/// # Errors
/// Unreadable configs.
pub fn run(_args: BenchArgs) -> anyhow::Result<i32> {
    Ok(2)
}
