//! `arbiter uci`: the built-in engine as a UCI program on stdin/stdout.

use crate::engine::chess::EngineConfig;
use anyhow::Context;
use std::path::PathBuf;

/// Flags of `arbiter uci`.
#[derive(clap::Args, Debug, Default)]
pub struct UciArgs {
    /// Engine build (TOML config) to start from; the seed build when absent. UCI options change it later.
    #[arg(long)]
    pub config: Option<PathBuf>,
}

/// Runs `arbiter uci` until `quit` or the end of stdin; returns the exit code (0).
///
/// # Errors
/// Unreadable configs.
pub fn run(args: UciArgs) -> anyhow::Result<i32> {
    let config = match &args.config {
        Some(p) => EngineConfig::load(p).with_context(|| format!("loading {}", p.display()))?,
        None => EngineConfig::seed(),
    };
    crate::uci::server::run_stdio(config);
    Ok(0)
}
