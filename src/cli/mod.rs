//! Subcommands of the `arbiter` binary: one file each. Each exposes a clap `Args` struct and a `run` function
//! that returns the process exit code; a file parses flags, builds a typed request, calls the library and
//! prints. No subcommand imports another: what they share (the exit codes, the error line, the Ctrl-C handler)
//! is here or in [`args`].
//!
//! Exit codes, the same for every subcommand:
//!
//! | code | meaning |
//! |---|---|
//! | 0 | done |
//! | 1 | a check failed (a perft count, an SPRT verdict where asked), or the work stopped on a failure it reports (an engine failure that stopped a match) |
//! | 2 | the user's input is wrong (flags, files given, an output folder that holds results) |
//! | 3 | a failure of the system (a disk error: a file that cannot be written); never 2 |
//! | 130 | interrupted (Ctrl-C or SIGTERM) |

pub mod args;
pub mod bench;
pub mod book;
pub mod check_engine_cmd;
pub mod checkers_cmd;
pub mod compat;
pub mod config_cmd;
pub mod datagen;
pub mod elo_cmd;
pub mod epd_cmd;
pub mod eval_cmd;
pub mod flags;
pub mod match_args;
pub mod match_cmd;
pub mod match_extras;
pub mod match_plan;
pub mod merge;
pub mod perft;
pub mod progress;
pub mod serve_cmd;
pub mod simulate_cmd;
pub mod sprt_cmd;
pub mod spsa_cmd;
pub mod status_cmd;
pub mod tb_cmd;
pub mod tune_cmd;
pub mod uci_cmd;

use std::io::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};

/// Writes `text` to stdout and flushes it, ignoring a failure: a closed stdout (`arbiter match ... | head -1`,
/// which gives EPIPE because SIGPIPE is ignored) must not stop a command before its result files are written,
/// as `print!` would by panicking.
/// A failure other than a closed pipe (a full disk) is remembered in [`stdout_failed`], so that the command,
/// once its files are written, still ends with [`EXIT_SYSTEM`] instead of claiming success.
pub(crate) fn stdout_text(text: std::fmt::Arguments<'_>) {
    let mut stdout = std::io::stdout().lock();
    if let Err(error) = stdout.write_fmt(text).and_then(|()| stdout.flush())
        && error.kind() != std::io::ErrorKind::BrokenPipe
    {
        STDOUT_FAILED.store(true, Ordering::SeqCst);
    }
}

/// Set when [`stdout_text`] failed to write for a reason other than a closed pipe.
static STDOUT_FAILED: AtomicBool = AtomicBool::new(false);

/// Whether a write to stdout failed for a reason other than a closed pipe (a full disk): the command's output is
/// incomplete, which `main` reports with [`EXIT_SYSTEM`].
pub fn stdout_failed() -> bool {
    STDOUT_FAILED.load(Ordering::SeqCst)
}

/// Writes the run's `report.html` (the dashboard's page of it, self-contained: [`arbiter::serve::report`]) and
/// names it on stderr; a report that cannot be written is a warning (it is a view of files already written).
pub(crate) fn write_report(tool: &str, dir: &std::path::Path) {
    match arbiter::serve::report::write_report(dir) {
        Ok(path) => stderr_line(format_args!("arbiter {tool}: report {}", path.display())),
        Err(error) => stderr_line(format_args!("warning: report not written: {error}")),
    }
}
/// Writes `text` and a newline to stderr, ignoring a failure (a closed stderr), unlike `eprintln!`, which panics.
pub(crate) fn stderr_line(text: std::fmt::Arguments<'_>) {
    let _ = writeln!(std::io::stderr().lock(), "{text}");
}

/// The exit code of a command stopped by Ctrl-C or SIGTERM: 130, as shells report a process ended by SIGINT.
pub const EXIT_INTERRUPTED: i32 = 130;

/// The exit code of wrong input (flags, files, `ARBITER_CPU`): 2.
pub const EXIT_USAGE: i32 = 2;

/// The exit code of a failure of the system (a disk error): 3.
pub const EXIT_SYSTEM: i32 = 3;

/// A failure of the command, split by exit code.
#[derive(Debug)]
pub(crate) enum Failure {
    /// Bad input: exit 2.
    Input(anyhow::Error),
    /// A check failed, or the work stopped on a failure it reports (an engine that stopped a match): exit 1.
    Internal(anyhow::Error),
    /// A failure of the system (a disk error): exit 3, never 2.
    System(anyhow::Error),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (Failure::Input(error) | Failure::Internal(error) | Failure::System(error)) = self;
        f.write_str(&error_text(error))
    }
}

/// Files an error as a [`Failure`] of one kind: every `?` in a command says which (there is no blanket `From`
/// that would make every failure bad input). A failed check is [`Failure::Internal`], built where it is found.
pub(crate) trait Classify<T> {
    /// Bad input (the flags, the files given): exit 2.
    fn input(self) -> Result<T, Failure>;
    /// A failure of the system (a disk, a thread that cannot start): exit 3.
    fn system(self) -> Result<T, Failure>;
}

impl<T, E: Into<anyhow::Error>> Classify<T> for Result<T, E> {
    fn input(self) -> Result<T, Failure> {
        self.map_err(|e| Failure::Input(e.into()))
    }
    fn system(self) -> Result<T, Failure> {
        self.map_err(|e| Failure::System(e.into()))
    }
}

/// Installs the Ctrl-C/SIGTERM handler of `arbiter COMMAND` (`match`, `datagen`): the first signal sets
/// `flag` (the command then winds down: no new game starts, the games in play are written), a second one kills
/// every engine's process group and exits at once with [`EXIT_INTERRUPTED`]. Without a handler (the system refused it) a warning is printed.
pub(crate) fn install_interrupt_handler(command: &'static str, flag: &'static AtomicBool) {
    let installed = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            arbiter::uci::group::kill_all_engines();
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

/// The exit code of a command's outcome, printing its error to stderr: 2 for bad input, 1 for a failed check
/// or a reported failure, [`EXIT_SYSTEM`] for a failure of the system. Whatever the failure was filed as, an
/// error caused by a failing disk or a closed stdout keeps its own code ([`io_exit_code`]): a full disk is never
/// reported as bad input.
pub(crate) fn exit_code(outcome: Result<i32, Failure>) -> i32 {
    let (error, filed) = match outcome {
        Ok(code) => return code,
        Err(Failure::Input(error)) => (error, EXIT_USAGE),
        Err(Failure::Internal(error)) => (error, 1),
        Err(Failure::System(error)) => (error, EXIT_SYSTEM),
    };
    let code = io_exit_code(&error).unwrap_or(filed);
    if code != EXIT_CLOSED_STDOUT {
        stderr_line(format_args!("error: {}", error_text(&error)));
    }
    code
}

/// The exit code of a command whose stdout was closed by its reader (`arbiter perft ... | head -1`): 141, as
/// shells report a process ended by SIGPIPE.
pub const EXIT_CLOSED_STDOUT: i32 = 141;

/// The exit code an I/O failure in `error`'s chain of causes decides, if any: [`EXIT_CLOSED_STDOUT`] for a
/// broken pipe, [`EXIT_SYSTEM`] for a failure of the system (a full or read-only disk, a quota, a file too
/// large, a short write, no memory). Other I/O errors (a missing input file, a permission) are left to the
/// command's own filing.
pub fn io_exit_code(error: &anyhow::Error) -> Option<i32> {
    use std::io::ErrorKind;
    // The csv crate's error holds its I/O error without exposing it as a source.
    fn io_of<'a>(cause: &'a (dyn std::error::Error + 'static)) -> Option<&'a std::io::Error> {
        cause.downcast_ref::<std::io::Error>().or_else(|| match cause.downcast_ref::<csv::Error>()?.kind() {
            csv::ErrorKind::Io(io) => Some(io),
            _ => None,
        })
    }
    error.chain().filter_map(io_of).find_map(|io| match io.kind() {
        ErrorKind::BrokenPipe => Some(EXIT_CLOSED_STDOUT),
        ErrorKind::StorageFull
        | ErrorKind::ReadOnlyFilesystem
        | ErrorKind::QuotaExceeded
        | ErrorKind::FileTooLarge
        | ErrorKind::WriteZero
        | ErrorKind::OutOfMemory => Some(EXIT_SYSTEM),
        _ => None,
    })
}

/// An error and its causes on one line, each text once: a cause whose text the message already holds (a
/// `thiserror` message that quotes its source) is not repeated.
pub fn error_text(error: &anyhow::Error) -> String {
    let mut text = flags::flagged(error).unwrap_or_else(|| error.to_string());
    for cause in error.chain().skip(1) {
        let cause = cause.to_string();
        if !text.contains(&cause) {
            text.push_str(": ");
            text.push_str(&cause);
        }
    }
    text
}

/// The flags that clap's record `matches` of `command`'s arguments says the command line gave (by long name,
/// as `--name`), except those of `allowed` (long names without dashes): what `--resume` refuses.
pub fn flags_given_except(matches: &clap::ArgMatches, command: &clap::Command, allowed: &[&str]) -> Vec<String> {
    matches
        .ids()
        .filter(|id| matches.value_source(id.as_str()) == Some(clap::parser::ValueSource::CommandLine))
        .filter_map(|id| command.get_arguments().find(|arg| arg.get_id() == id))
        .map(|arg| arg.get_long().map_or_else(|| arg.get_id().to_string(), str::to_string))
        .filter(|long| !allowed.contains(&long.as_str()))
        .map(|long| format!("--{long}"))
        .collect()
}
