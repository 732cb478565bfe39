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

use std::io::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};

/// The default opening book, relative to the project root: the project's own balanced book.
pub const DEFAULT_BOOK: &str = "suites/openings/arbiter-book.epd";

/// The default opening book of `--game xiangqi`, relative to the project root: Arbiter's balanced Xiangqi book
/// (`arbiter book --game xiangqi`).
pub const DEFAULT_XIANGQI_BOOK: &str = "suites/openings/xiangqi-book.epd";

/// The exit code of a command (`match`, `datagen`) stopped by Ctrl-C or SIGTERM: 130, as shells report a process ended by SIGINT.
pub const EXIT_INTERRUPTED: i32 = 130;

/// A failure of the command, split by exit code.
pub(crate) enum Failure {
    /// Bad input: exit 2.
    Input(anyhow::Error),
    /// Internal failure: exit 1.
    Internal(anyhow::Error),
}

impl<E: Into<anyhow::Error>> From<E> for Failure {
    fn from(error: E) -> Failure {
        Failure::Input(error.into())
    }
}

/// Installs the Ctrl-C/SIGTERM handler of `arbiter COMMAND` (`match`, `datagen`): the first signal sets
/// `flag` (the command then winds down: no new game starts, the games in play are written), a second one kills
/// every engine's process group and exits at once with [`EXIT_INTERRUPTED`]. Without a handler (the system refused it) a warning is printed.
pub(crate) fn install_interrupt_handler(command: &'static str, flag: &'static AtomicBool) {
    let installed = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            crate::uci::group::kill_all_engines();
            let _ = writeln!(
                std::io::stderr(),
                "\narbiter {command}: interrupted again; quitting at once (games written so far stay, no summary)"
            );
            std::process::exit(EXIT_INTERRUPTED);
        }
    });
    if let Err(error) = installed {
        stderr_line(format_args!("warning: cannot catch Ctrl-C ({error}); an interrupted {command} leaves no summary"));
    }
}

/// The exit code of a command's outcome, printing its error to stderr: 2 for bad input, 1 for an internal
/// failure.
pub(crate) fn exit_code(outcome: Result<i32, Failure>) -> i32 {
    match outcome {
        Ok(code) => code,
        Err(Failure::Input(error)) => {
            stderr_line(format_args!("error: {}", error_text(&error)));
            2
        }
        Err(Failure::Internal(error)) => {
            stderr_line(format_args!("error: {}", error_text(&error)));
            1
        }
    }
}

/// An error and its causes on one line, each text once: a cause whose text the message already holds (a
/// `thiserror` message that quotes its source) is not repeated.
pub fn error_text(error: &anyhow::Error) -> String {
    let mut text = error.to_string();
    for cause in error.chain().skip(1) {
        let cause = cause.to_string();
        if !text.contains(&cause) {
            text.push_str(": ");
            text.push_str(&cause);
        }
    }
    text
}

/// The book Arbiter makes for `game` (`arbiter book --game`) and plays by default (`arbiter match --game`),
/// relative to the project root: [`DEFAULT_XIANGQI_BOOK`] for Xiangqi, [`DEFAULT_BOOK`] otherwise (the
/// commands refuse checkers before asking).
pub(crate) fn book_of(game: crate::game::GameKind) -> &'static str {
    if game == crate::game::GameKind::Xiangqi { DEFAULT_XIANGQI_BOOK } else { DEFAULT_BOOK }
}

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
