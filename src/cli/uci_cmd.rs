//! `arbiter uci`: the built-in engine as a UCI program on stdin/stdout; `arbiter uci bench [DEPTH]` prints its
//! bench as OpenBench expects of an engine binary (`ENGINE bench`): `Bench: <nodes> nodes <nps> nps`.

use super::Classify as _;
use anyhow::Context;
use arbiter::engine::chess::EngineConfig;
use std::path::PathBuf;

/// Flags of `arbiter uci`.
#[derive(clap::Args, Debug, Default)]
pub struct UciArgs {
    /// Engine build (TOML config) to start from; the seed build when absent. UCI options change it later.
    #[arg(long)]
    pub config: Option<PathBuf>,

    /// A command run instead of the UCI loop: `bench [DEPTH]` prints the bench of the build (default depth 7)
    /// as `Bench: <nodes> nodes <nps> nps`, as OpenBench runs `ENGINE bench`, and exits.
    #[arg(value_name = "COMMAND")]
    pub command: Vec<String>,
}

/// Runs `arbiter uci` until `quit` or the end of stdin, or its `bench` command; returns the exit code (0).
///
/// # Errors
/// Unreadable configs; a command other than `bench [DEPTH]` (exit 2).
pub fn run(args: UciArgs) -> Result<i32, super::Failure> {
    let config = match &args.config {
        Some(p) => EngineConfig::load(p).with_context(|| format!("loading {}", p.display())).input()?,
        None => EngineConfig::seed(),
    };
    let words: Vec<&str> = args.command.iter().map(String::as_str).collect();
    match words.as_slice() {
        [] => arbiter::uci::server::run_stdio(config),
        ["bench", rest @ ..] => {
            let line = arbiter::uci::server::bench_line(&config, rest)
                .map_err(|e| anyhow::anyhow!("arbiter uci: {e}"))
                .input()?;
            println!("{line}");
        }
        [other, ..] => {
            let text = anyhow::anyhow!("arbiter uci: unknown command {other:?} (expected `bench [DEPTH]`)");
            return Err(super::Failure::Input(text));
        }
    }
    Ok(0)
}
