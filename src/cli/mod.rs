//! Subcommands of the `arbiter` binary: one file each. Each exposes a clap `Args` struct and a `run` function
//! that returns the process exit code.

pub mod args;
pub mod bench;
pub mod book;
pub mod checkers_cmd;
pub mod config_cmd;
pub mod datagen;
pub mod elo_cmd;
pub mod epd_cmd;
pub mod eval_cmd;
pub mod match_cmd;
pub mod merge;
pub mod perft;
pub mod simulate_cmd;
pub mod sprt_cmd;
pub mod tune_cmd;
pub mod uci_cmd;

/// Writes `text` to stdout and flushes it, ignoring a failure: a closed stdout (`arbiter match ... | head -1`,
/// which gives EPIPE because SIGPIPE is ignored) must not stop a command before its result files are written,
/// as `print!` would by panicking.
pub(crate) fn stdout_text(text: std::fmt::Arguments<'_>) {
    use std::io::Write as _;
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_fmt(text).and_then(|()| stdout.flush());
}

/// Writes `text` and a newline to stderr, ignoring a failure (a closed stderr), unlike `eprintln!`, which panics.
pub(crate) fn stderr_line(text: std::fmt::Arguments<'_>) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr().lock(), "{text}");
}
