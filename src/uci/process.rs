//! An external engine process spoken to over UCI: start, handshake, send lines, read lines with a timeout.
//!
//! Engine output is untrusted: every read has a timeout, a closed pipe is an error, and nothing here panics on
//! what the engine prints. Protocol: the UCI specification (Stefan Meyer-Kahlen, 2004).

use super::group;
use super::log::LogTag;
use super::stdout::{Next, StdoutLines};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use thiserror::Error;

/// How many of an engine's last output lines (stdout and stderr together) are kept for error reports.
pub const LAST_LINES: usize = 10;

/// The longest line an engine may print, in bytes (64 KiB, newline excluded). A longer line on stdout is a
/// protocol failure ([`UciError::Flood`]); a longer line on stderr is cut to this length.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// The most output an engine may print (stdout and stderr together) while Arbiter waits for one reply (a
/// `bestmove`, `uciok` or `readyok`), in bytes (16 MiB); more is an output flood ([`UciError::Flood`]).
pub const MAX_REPLY_BYTES: u64 = 16 * 1024 * 1024;

/// The most lines of one reply kept for reading it (the `info` lines before a `bestmove`, the `option` lines
/// before `uciok`); older lines are dropped and a note stands in their place.
pub const KEPT_REPLY_LINES: usize = 256;

/// How many lines of the reply to `uci` are kept, so that the options of an engine that lists each of its
/// evaluation weights (`arbiter uci` lists about 1,500) can be checked whole.
pub const KEPT_UCI_LINES: usize = 20_000;

/// How long an engine has to exit after `quit` before its process group is killed.
pub const QUIT_GRACE: Duration = Duration::from_millis(500);

/// How long a wait goes on reading after the engine's process ended, for the lines still in the pipe.
const EXIT_GRACE: Duration = Duration::from_millis(200);

/// How often a wait for an engine's reply checks whether it was cancelled or the engine ended.
const POLL: Duration = Duration::from_millis(50);

/// `bytes` as text: valid UTF-8 as it is, every byte that is not valid UTF-8 escaped as `\xNN` (lower-case
/// hex), so that a line from an engine is never refused for its encoding and the log shows what came.
pub fn decode_line(bytes: &[u8]) -> String {
    let mut text = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        text.push_str(chunk.valid());
        for byte in chunk.invalid() {
            text.push_str(&format!("\\x{byte:02x}"));
        }
    }
    text
}

/// One line read with [`read_line_bounded`].
#[derive(Debug, PartialEq, Eq)]
enum LineRead {
    /// A whole line (its newline and a `\r` before it removed), or the last bytes before the end of output.
    Line,
    /// [`MAX_LINE_BYTES`] bytes without a newline: the rest of the line is still unread.
    TooLong,
}

/// Reads one line of at most [`MAX_LINE_BYTES`] bytes into `buf` (cleared first), counting every byte taken
/// in `counted`; `None` at the end of output. Never holds more than [`MAX_LINE_BYTES`] bytes of one line.
fn read_line_bounded(
    reader: &mut impl BufRead,
    buf: &mut Vec<u8>,
    counted: &AtomicU64,
) -> std::io::Result<Option<LineRead>> {
    buf.clear();
    loop {
        let available = reader.fill_buf()?;
        if available.is_empty() {
            return Ok((!buf.is_empty()).then_some(LineRead::Line));
        }
        let room = MAX_LINE_BYTES - buf.len();
        let newline = available.iter().take(room + 1).position(|&b| b == b'\n');
        let (take, done) = match newline {
            Some(at) => (at + 1, Some(LineRead::Line)),
            None if available.len() > room => (room, Some(LineRead::TooLong)),
            None => (available.len(), None),
        };
        buf.extend_from_slice(&available[..take]);
        reader.consume(take);
        counted.fetch_add(take as u64, Ordering::Relaxed);
        match done {
            Some(LineRead::Line) => {
                buf.pop();
                if buf.last() == Some(&b'\r') {
                    buf.pop();
                }
                return Ok(Some(LineRead::Line));
            }
            Some(LineRead::TooLong) => return Ok(Some(LineRead::TooLong)),
            None => {}
        }
    }
}

/// Reads and drops the rest of a line that was too long, up to and including its newline, counting the bytes.
fn skip_line(reader: &mut impl BufRead, counted: &AtomicU64) -> std::io::Result<()> {
    loop {
        let available = reader.fill_buf()?;
        if available.is_empty() {
            return Ok(());
        }
        let (take, done) = match available.iter().position(|&b| b == b'\n') {
            Some(at) => (at + 1, true),
            None => (available.len(), false),
        };
        reader.consume(take);
        counted.fetch_add(take as u64, Ordering::Relaxed);
        if done {
            return Ok(());
        }
    }
}

/// The stderr reader: every line into the ring of last lines (cut at [`MAX_LINE_BYTES`]), until the output
/// ends; stderr is always drained, so an engine never blocks on it.
fn read_stderr(
    stderr: impl std::io::Read,
    last: Arc<Mutex<VecDeque<String>>>,
    counted: Arc<AtomicU64>,
    log: Option<Arc<LogTag>>,
) {
    let mut reader = BufReader::new(stderr);
    let mut buf = Vec::new();
    while let Ok(Some(read)) = read_line_bounded(&mut reader, &mut buf, &counted) {
        let line = decode_line(&buf);
        if let Some(log) = &log {
            log.read('!', &line);
        }
        let mut text = format!("stderr: {line}");
        if read == LineRead::TooLong {
            text.push_str(&format!(" [cut at {MAX_LINE_BYTES} bytes]"));
            if skip_line(&mut reader, &counted).is_err() {
                break;
            }
        }
        remember(&last, text);
    }
}

/// A failure talking to an engine process.
#[derive(Debug, Error)]
pub enum UciError {
    /// The program could not be started.
    #[error("cannot start engine {}: {source}", crate::notation::quote::shown(.cmd))]
    Start {
        /// The command.
        cmd: String,
        /// The OS error.
        source: std::io::Error,
    },
    /// The engine closed its output (it exited or crashed).
    #[error("engine {} exited or closed its output while we waited for {waiting_for:?}", crate::notation::quote::shown(.cmd))]
    Disconnected {
        /// The command.
        cmd: String,
        /// What we were waiting for.
        waiting_for: String,
    },
    /// No expected reply within the timeout.
    #[error("engine {} sent no {waiting_for:?} within {timeout_ms} ms; last lines: {}", crate::notation::quote::shown(.cmd), shown_lines(.last))]
    Timeout {
        /// The command.
        cmd: String,
        /// What we were waiting for.
        waiting_for: String,
        /// The timeout in milliseconds.
        timeout_ms: u64,
        /// The engine's last lines.
        last: Vec<String>,
    },
    /// Writing to the engine failed.
    #[error("cannot write to engine {}: {source}", crate::notation::quote::shown(.cmd))]
    Write {
        /// The command.
        cmd: String,
        /// The OS error.
        source: std::io::Error,
    },
    /// The engine printed more than Arbiter reads: a stdout line over [`MAX_LINE_BYTES`], or over
    /// [`MAX_REPLY_BYTES`] while one reply was awaited.
    #[error("engine {} flooded its output while we waited for {waiting_for:?}: {what}; last lines: {}", crate::notation::quote::shown(.cmd), shown_lines(.last))]
    Flood {
        /// The command.
        cmd: String,
        /// What we were waiting for.
        waiting_for: String,
        /// What was too much.
        what: String,
        /// The engine's last lines.
        last: Vec<String>,
    },
    /// The wait was cancelled (the match is being interrupted); the engine was sent `stop`.
    #[error("engine {}: cancelled while we waited for {waiting_for:?}", crate::notation::quote::shown(.cmd))]
    Cancelled {
        /// The command.
        cmd: String,
        /// What we were waiting for.
        waiting_for: String,
    },
    /// Arbiter refused to send a line holding a line break or another control character.
    #[error("engine {}: refusing to send {}: it holds a control character", crate::notation::quote::shown(.cmd), crate::notation::quote::shown(.line))]
    BadCommand {
        /// The command.
        cmd: String,
        /// The line.
        line: String,
    },
    /// The engine replied with something we cannot use.
    #[error("engine {}: unexpected reply {}: {reason}", crate::notation::quote::shown(.cmd), crate::notation::quote::shown(.line))]
    BadReply {
        /// The command.
        cmd: String,
        /// The line.
        line: String,
        /// What was expected.
        reason: String,
    },
}

/// A running engine process in its own process group: its stdout read by the thread that waits for a reply
/// ([`StdoutLines`]), its stderr drained by a thread into the ring of last lines. Dropping it sends `quit`, waits
/// up to [`QUIT_GRACE`] and kills the whole group ([`group`]), so that the engine's own children end with it.
pub struct EngineProcess {
    cmd: String,
    child: Child,
    /// The process group, whose id is the engine's process id.
    pgid: i32,
    stdin: ChildStdin,
    lines: StdoutLines,
    /// The last [`LAST_LINES`] lines of both streams, stderr lines prefixed `stderr: `, oldest first.
    last: Arc<Mutex<VecDeque<String>>>,
    /// Bytes read so far from stdout and stderr together.
    bytes_read: Arc<AtomicU64>,
    /// The thread reading stderr; it ends when the process closes its stderr.
    stderr_reader: Option<std::thread::JoinHandle<()>>,
    /// When set, a wait for a reply sends `stop` and returns [`UciError::Cancelled`].
    cancel: Option<Arc<AtomicBool>>,
    /// The tag of this process's lines in the engine I/O log, when one is open ([`super::log`]).
    log: Option<Arc<LogTag>>,
}

/// Appends `line` to the ring of last lines.
fn remember(last: &Mutex<VecDeque<String>>, line: String) {
    let Ok(mut last) = last.lock() else { return };
    if last.len() == LAST_LINES {
        last.pop_front();
    }
    last.push_back(line);
}

/// An engine's last lines for an error message: each quoted and cut by [`shown`](crate::notation::quote::shown)
/// (a line may hold up to [`MAX_LINE_BYTES`] bytes), in brackets.
pub fn shown_lines(lines: &[String]) -> String {
    let quoted: Vec<String> = lines.iter().map(|l| crate::notation::quote::shown(l)).collect();
    format!("[{}]", quoted.join(", "))
}

/// Whether `line` may be sent to an engine: no line break or other control character (a tab is allowed).
pub fn is_sendable(line: &str) -> bool {
    !line.chars().any(|c| c.is_control() && c != '\t')
}

impl EngineProcess {
    /// Starts `cmd` (a path or a program on `PATH`) with `args` and performs the `uci`/`uciok` handshake within
    /// `timeout`.
    ///
    /// # Errors
    /// [`UciError::Start`] when the program cannot be run; [`UciError::Timeout`],
    /// [`UciError::Disconnected`] or [`UciError::Flood`] when it does not answer `uciok`.
    pub fn start(cmd: &str, args: &[String], timeout: Duration) -> Result<EngineProcess, UciError> {
        let mut engine = EngineProcess::spawn(cmd, args, None)?;
        engine.send("uci")?;
        engine.wait_for(|l| l.trim() == "uciok", "uciok", timeout)?;
        Ok(engine)
    }

    /// Starts `cmd` with `args` in the working directory `dir` (the current one when `None`), in a process
    /// group of its own (so that a Ctrl-C at the terminal reaches Arbiter, not the engine, and the engine's
    /// children can be ended with it), with its stdout read line by line and its stderr drained into the last
    /// lines; sends nothing.
    ///
    /// # Errors
    /// [`UciError::Start`] when the program cannot be run.
    pub fn spawn(cmd: &str, args: &[String], dir: Option<&Path>) -> Result<EngineProcess, UciError> {
        let mut command = Command::new(cmd);
        command.args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).process_group(0);
        if let Some(dir) = dir {
            if !dir.is_dir() {
                // The OS blames the program for a missing working folder; name the folder instead.
                let reason = format!(
                    "its working folder {} is not a folder",
                    crate::notation::quote::shown(&dir.display().to_string())
                );
                let source = std::io::Error::new(std::io::ErrorKind::NotFound, reason);
                return Err(UciError::Start { cmd: cmd.to_string(), source });
            }
            command.current_dir(dir);
        }
        let (mut child, pgid) =
            group::spawn_registered(&mut command).map_err(|source| UciError::Start { cmd: cmd.to_string(), source })?;
        let stdin = child.stdin.take().expect("stdin was piped");
        let stdout = child.stdout.take().expect("stdout was piped");
        let stderr = child.stderr.take().expect("stderr was piped");
        let last = Arc::new(Mutex::new(VecDeque::with_capacity(LAST_LINES)));
        let bytes_read = Arc::new(AtomicU64::new(0));
        let log = LogTag::new(cmd, child.id());
        let (stderr_last, counted, stderr_log) = (Arc::clone(&last), Arc::clone(&bytes_read), log.clone());
        let stderr_reader = std::thread::spawn(move || read_stderr(stderr, stderr_last, counted, stderr_log));
        Ok(EngineProcess {
            cmd: cmd.to_string(),
            child,
            pgid,
            stdin,
            lines: StdoutLines::new(stdout),
            last,
            bytes_read,
            stderr_reader: Some(stderr_reader),
            cancel: None,
            log,
        })
    }

    /// Names the engine in the engine I/O log (the player's name rather than its program's).
    pub fn set_log_name(&self, name: &str) {
        if let Some(log) = &self.log {
            log.set_name(name);
        }
    }

    /// Makes every later wait for a reply watch `flag`: once it is set, the engine is sent `stop` and the wait
    /// ends with [`UciError::Cancelled`] (within 50 ms).
    pub fn set_cancel(&mut self, flag: Arc<AtomicBool>) {
        self.cancel = Some(flag);
    }

    /// The engine's process group id (its process id).
    pub fn pgid(&self) -> i32 {
        self.pgid
    }

    /// The engine's last output lines (stdout and stderr, stderr lines prefixed `stderr: `), oldest first.
    pub fn last_lines(&self) -> Vec<String> {
        self.last.lock().map(|l| l.iter().cloned().collect()).unwrap_or_default()
    }

    /// After the engine's output closed: waits up to `timeout` for the process to end and its stderr to be
    /// read to the end, so that [`EngineProcess::last_lines`] holds its last words (a crash message).
    pub fn settle(&mut self, timeout: Duration) {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            let exited = !self.is_running();
            let drained = self.stderr_reader.as_ref().is_none_or(|h| h.is_finished());
            if exited && drained {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        if self.stderr_reader.as_ref().is_some_and(|h| h.is_finished()) {
            let _ = self.stderr_reader.take().map(std::thread::JoinHandle::join);
        }
    }

    /// Whether the process is still running. An ended process is not reaped here (it stays a zombie until
    /// dropped), so its process group id cannot be reused by another process before the group is killed.
    pub fn is_running(&mut self) -> bool {
        use nix::sys::wait::{Id, WaitPidFlag, WaitStatus, waitid};
        let flags = WaitPidFlag::WEXITED | WaitPidFlag::WNOHANG | WaitPidFlag::WNOWAIT;
        matches!(waitid(Id::Pid(nix::unistd::Pid::from_raw(self.pgid)), flags), Ok(WaitStatus::StillAlive))
    }

    /// Sends one line.
    ///
    /// # Errors
    /// [`UciError::BadCommand`] when the line holds a line break or another control character (it would be
    /// read as two commands); [`UciError::Write`] when the pipe is closed.
    pub fn send(&mut self, line: &str) -> Result<(), UciError> {
        if !is_sendable(line) {
            return Err(UciError::BadCommand { cmd: self.cmd.clone(), line: line.to_string() });
        }
        if let Some(log) = &self.log {
            log.sent(line);
        }
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|source| UciError::Write { cmd: self.cmd.clone(), source })
    }

    /// Sets an option with `setoption name NAME value VALUE`.
    ///
    /// # Errors
    /// As [`EngineProcess::send`].
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), UciError> {
        self.send(&format!("setoption name {name} value {value}"))
    }

    /// Sends `isready` and waits for `readyok`.
    ///
    /// # Errors
    /// As [`EngineProcess::wait_for`].
    pub fn sync(&mut self, timeout: Duration) -> Result<(), UciError> {
        self.send("isready")?;
        self.wait_for(|l| l.trim() == "readyok", "readyok", timeout).map(|_| ())
    }

    /// Reads lines until one satisfies `done`, returning the lines read (the matching one last): at most
    /// [`KEPT_REPLY_LINES`] of them, older ones replaced by one note `[arbiter: N earlier lines dropped]` first.
    ///
    /// # Errors
    /// [`UciError::Timeout`] when `timeout` passes first; [`UciError::Disconnected`] when the engine's output
    /// closes or its process ends (even if a child of its own keeps the output open); [`UciError::Flood`] for a stdout line over [`MAX_LINE_BYTES`] or more than [`MAX_REPLY_BYTES`]
    /// of output during the wait; [`UciError::Cancelled`] when the flag of [`EngineProcess::set_cancel`] is set
    /// (the engine is sent `stop`).
    pub fn wait_for(
        &mut self,
        done: impl Fn(&str) -> bool,
        waiting_for: &str,
        timeout: Duration,
    ) -> Result<Vec<String>, UciError> {
        self.wait_for_keeping(done, waiting_for, timeout, KEPT_REPLY_LINES)
    }

    /// [`EngineProcess::wait_for`] keeping up to `keep` lines (at least 1) instead of [`KEPT_REPLY_LINES`]: for
    /// the reply to `uci`, whose option list an engine with every evaluation weight as an option makes long
    /// ([`KEPT_UCI_LINES`]). The output is still bounded by [`MAX_REPLY_BYTES`].
    ///
    /// # Errors
    /// As [`EngineProcess::wait_for`].
    pub fn wait_for_keeping(
        &mut self,
        done: impl Fn(&str) -> bool,
        waiting_for: &str,
        timeout: Duration,
        keep: usize,
    ) -> Result<Vec<String>, UciError> {
        let keep = keep.max(1);
        let deadline = Instant::now() + timeout;
        let bytes_before = self.bytes_read.load(Ordering::Relaxed);
        let mut out = VecDeque::new();
        let mut dropped = 0u64;
        let mut exited_at: Option<Instant> = None;
        let flood = |process: &EngineProcess, what: String| UciError::Flood {
            cmd: process.cmd.clone(),
            waiting_for: waiting_for.to_string(),
            what,
            last: process.last_lines(),
        };
        loop {
            if self.cancel.as_ref().is_some_and(|flag| flag.load(Ordering::Relaxed)) {
                let _ = self.send("stop");
                return Err(UciError::Cancelled { cmd: self.cmd.clone(), waiting_for: waiting_for.to_string() });
            }
            let read = self.bytes_read.load(Ordering::Relaxed).saturating_sub(bytes_before);
            if read > MAX_REPLY_BYTES {
                return Err(flood(self, format!("{read} bytes of output, more than the {MAX_REPLY_BYTES} allowed")));
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.next(left.min(POLL), &self.bytes_read) {
                Ok(Next::Line(line)) => {
                    if let Some(log) = &self.log {
                        log.read('<', &line);
                    }
                    remember(&self.last, line.clone());
                    let finished = done(&line);
                    if out.len() == keep {
                        out.pop_front();
                        dropped += 1;
                    }
                    out.push_back(line);
                    if finished {
                        if dropped > 0 {
                            let note = format!("[arbiter: {dropped} earlier lines dropped]");
                            remember(&self.last, note.clone());
                            out.push_front(note);
                        }
                        return Ok(out.into());
                    }
                }
                Ok(Next::TooLong(start)) => {
                    let shown = format!("{start}... [over {MAX_LINE_BYTES} bytes]");
                    if let Some(log) = &self.log {
                        log.read('<', &shown);
                    }
                    remember(&self.last, shown);
                    return Err(flood(self, format!("a line longer than {MAX_LINE_BYTES} bytes")));
                }
                Ok(Next::Timeout) if Instant::now() < deadline => {
                    // An engine that exited while a child of its own keeps its output open: the output does not
                    // close, so its end is seen here (after a moment for the lines still in the pipe).
                    if exited_at.is_none() && !self.is_running() {
                        exited_at = Some(Instant::now());
                    }
                    if exited_at.is_some_and(|at| at.elapsed() >= EXIT_GRACE) {
                        return Err(UciError::Disconnected {
                            cmd: self.cmd.clone(),
                            waiting_for: waiting_for.to_string(),
                        });
                    }
                }
                Ok(Next::Timeout) => {
                    return Err(UciError::Timeout {
                        cmd: self.cmd.clone(),
                        waiting_for: waiting_for.to_string(),
                        timeout_ms: timeout.as_millis() as u64,
                        last: self.last_lines(),
                    });
                }
                Ok(Next::Closed) | Err(_) => {
                    return Err(UciError::Disconnected { cmd: self.cmd.clone(), waiting_for: waiting_for.to_string() });
                }
            }
        }
    }

    /// The command this process was started with.
    pub fn cmd(&self) -> &str {
        &self.cmd
    }
}

impl Drop for EngineProcess {
    /// Asks the engine to quit, waits up to [`QUIT_GRACE`] for it to exit, then kills its process group (the
    /// engine if it is still running, and any children it left) and reaps it.
    fn drop(&mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + QUIT_GRACE;
        while self.is_running() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        // The engine is not reaped yet, so the group id is still its own.
        group::kill_group(self.pgid);
        let _ = self.child.wait();
        group::unregister(self.pgid);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_working_folder_is_named_not_the_program() {
        let error = EngineProcess::spawn("/bin/sh", &[], Some(Path::new("/no/such/folder"))).err().expect("refused");
        assert!(error.to_string().contains("its working folder \"/no/such/folder\" is not a folder"), "{error}");
    }

    #[test]
    fn invalid_utf8_is_escaped() {
        assert_eq!(decode_line(b"info string caf\xc3\xa9"), "info string caf\u{e9}");
        assert_eq!(decode_line(b"bestmove e2e4 \xff\xfe"), "bestmove e2e4 \\xff\\xfe");
        assert_eq!(decode_line(b"\xc3("), "\\xc3(");
    }

    #[test]
    fn lines_are_bounded() {
        let counted = AtomicU64::new(0);
        let mut text = b"short\r\nlast".to_vec();
        let mut buf = Vec::new();
        let mut reader = &text[..];
        assert_eq!(read_line_bounded(&mut reader, &mut buf, &counted).unwrap(), Some(LineRead::Line));
        assert_eq!(buf, b"short");
        assert_eq!(read_line_bounded(&mut reader, &mut buf, &counted).unwrap(), Some(LineRead::Line));
        assert_eq!(buf, b"last");
        assert_eq!(read_line_bounded(&mut reader, &mut buf, &counted).unwrap(), None);
        assert_eq!(counted.load(Ordering::Relaxed), 11);

        // Exactly the limit is a line; one byte more is too long, and the rest is skipped to the newline.
        text = vec![b'a'; MAX_LINE_BYTES];
        text.extend_from_slice(b"\n");
        text.extend(vec![b'b'; MAX_LINE_BYTES + 1]);
        text.extend_from_slice(b"\nnext\n");
        let mut reader = BufReader::with_capacity(1000, &text[..]);
        assert_eq!(read_line_bounded(&mut reader, &mut buf, &counted).unwrap(), Some(LineRead::Line));
        assert_eq!(buf.len(), MAX_LINE_BYTES);
        assert_eq!(read_line_bounded(&mut reader, &mut buf, &counted).unwrap(), Some(LineRead::TooLong));
        assert_eq!(buf.len(), MAX_LINE_BYTES);
        skip_line(&mut reader, &counted).unwrap();
        assert_eq!(read_line_bounded(&mut reader, &mut buf, &counted).unwrap(), Some(LineRead::Line));
        assert_eq!(buf, b"next");
    }

    #[test]
    fn a_long_reply_keeps_its_last_lines_and_a_note() {
        let script = "seq 1 300 | sed 's/^/info string /'; echo bestmove e2e4; sleep 5".to_string();
        let mut process = EngineProcess::spawn("sh", &["-c".to_string(), script], None).expect("start sh");
        let lines = process.wait_for(|l| l.starts_with("bestmove"), "bestmove", Duration::from_secs(10)).unwrap();
        assert_eq!(lines.len(), KEPT_REPLY_LINES + 1);
        assert_eq!(lines[0], "[arbiter: 45 earlier lines dropped]");
        assert_eq!(lines[1], "info string 46");
        assert_eq!(lines[KEPT_REPLY_LINES], "bestmove e2e4");
        assert!(process.last_lines().contains(&lines[0]));
    }

    #[test]
    fn control_characters_are_not_sent() {
        assert!(is_sendable("setoption name Hash value 16"));
        assert!(is_sendable("go\tinfinite"));
        assert!(!is_sendable("setoption name X value 1\nquit"));
        assert!(!is_sendable("position startpos\r"));
        assert!(!is_sendable("isready\u{0}"));
    }
}
