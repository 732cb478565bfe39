//! The engine I/O log (`arbiter match --log FILE`, cutechess-cli's `-debug`, fastchess's `-log`): every line
//! sent to and read from every engine process, stamped with the seconds since the log was opened, the game
//! and the engine, and bounded in size.
//!
//! One line per engine line:
//!
//! ```text
//! 12.345678 game 17 sf pid 4242 > go wtime 9800 btime 9750 winc 100 binc 100
//! 12.391022 game 17 sf pid 4242 < bestmove e2e4 ponder e7e5
//! 12.391100 game 17 sf pid 4242 ! stderr text
//! ```
//!
//! `>` is a line Arbiter sent, `<` one the engine printed on stdout (stamped when it was read, by the reader
//! thread), `!` one it printed on stderr; `game 0` is outside a game (the handshake, a bench). The log is
//! process-wide: [`install`] opens it once, and every engine started afterwards writes to it. A line is
//! written (and flushed) at once, so that the log holds the last words before a crash of Arbiter itself.

use std::cell::Cell;
use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

/// The default bound of the log, in bytes (1 GiB).
pub const DEFAULT_MAX_BYTES: u64 = 1 << 30;

/// The log file and how much of it is written.
struct Sink {
    out: Box<dyn Write + Send>,
    written: u64,
    full: bool,
}

/// The engine I/O log.
pub struct EngineLog {
    sink: Mutex<Sink>,
    opened: Instant,
    max_bytes: u64,
}

static LOG: OnceLock<EngineLog> = OnceLock::new();

thread_local! {
    /// The game the current thread plays (0: none), for the lines it sends.
    static GAME: Cell<u64> = const { Cell::new(0) };
}

/// Opens the log at `path` (created or truncated; `-` is standard output) with a bound of `max_bytes`, for the
/// rest of the process. A second call is refused.
///
/// # Errors
/// The file cannot be created, or a log is open already.
pub fn install(path: &Path, max_bytes: u64) -> std::io::Result<()> {
    let out: Box<dyn Write + Send> =
        if path == Path::new("-") { Box::new(std::io::stdout()) } else { Box::new(File::create(path)?) };
    let log = EngineLog { sink: Mutex::new(Sink { out, written: 0, full: false }), opened: Instant::now(), max_bytes };
    LOG.set(log).map_err(|_| std::io::Error::other("the engine log is open already"))
}

/// Sets the game the current thread plays (its 1-based number; 0 between games), for the lines it sends.
pub fn set_game(game: u64) {
    GAME.with(|g| g.set(game));
}

/// The tag of one engine process's lines: its name, process id and the game of its last sent line.
pub struct LogTag {
    name: Mutex<String>,
    pid: u32,
    game: AtomicU64,
}

impl LogTag {
    /// The tag of a process `pid` started as `cmd`, when a log is open.
    pub fn new(cmd: &str, pid: u32) -> Option<Arc<LogTag>> {
        LOG.get()?;
        let name = Path::new(cmd).file_name().map_or(cmd.to_string(), |f| f.to_string_lossy().into_owned());
        Some(Arc::new(LogTag { name: Mutex::new(name), pid, game: AtomicU64::new(0) }))
    }

    /// Names the engine (the player's name rather than its program's).
    pub fn set_name(&self, name: &str) {
        if let Ok(mut own) = self.name.lock() {
            *own = name.to_string();
        }
    }

    /// Logs a line sent to the engine, in the current thread's game.
    pub fn sent(&self, line: &str) {
        self.game.store(GAME.with(Cell::get), Ordering::Relaxed);
        self.write('>', line);
    }

    /// Logs a line the engine printed on stdout (`'<'`) or stderr (`'!'`).
    pub fn read(&self, stream: char, line: &str) {
        self.write(stream, line);
    }

    fn write(&self, direction: char, line: &str) {
        let Some(log) = LOG.get() else { return };
        let seconds = log.opened.elapsed().as_secs_f64();
        let name = self.name.lock().map(|n| n.clone()).unwrap_or_default();
        let game = self.game.load(Ordering::Relaxed);
        let text = format!("{seconds:.6} game {game} {name} pid {} {direction} {line}\n", self.pid);
        let Ok(mut sink) = log.sink.lock() else { return };
        if sink.full {
            return;
        }
        let text = if sink.written + text.len() as u64 > log.max_bytes {
            sink.full = true;
            format!(
                "{seconds:.6} [arbiter: the log reached its bound of {} bytes; later lines are not written]\n",
                log.max_bytes
            )
        } else {
            text
        };
        sink.written += text.len() as u64;
        let _ = sink.out.write_all(text.as_bytes()).and_then(|()| sink.out.flush());
    }
}
