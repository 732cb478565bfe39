//! An external engine process spoken to over UCI: start, handshake, send lines, read lines with a timeout.
//!
//! Engine output is untrusted: every read has a timeout, a closed pipe is an error, and nothing here panics on
//! what the engine prints. Protocol: the UCI specification (Stefan Meyer-Kahlen, 2004).

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How many of an engine's last output lines (stdout and stderr together) are kept for error reports.
pub const LAST_LINES: usize = 10;
use thiserror::Error;

/// A failure talking to an engine process.
#[derive(Debug, Error)]
pub enum UciError {
    /// The program could not be started.
    #[error("cannot start engine {cmd:?}: {source}")]
    Start {
        /// The command.
        cmd: String,
        /// The OS error.
        source: std::io::Error,
    },
    /// The engine closed its output (it exited or crashed).
    #[error("engine {cmd:?} exited or closed its output while we waited for {waiting_for:?}")]
    Disconnected {
        /// The command.
        cmd: String,
        /// What we were waiting for.
        waiting_for: String,
    },
    /// No expected reply within the timeout.
    #[error("engine {cmd:?} sent no {waiting_for:?} within {timeout_ms} ms; last lines: {last:?}")]
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
    #[error("cannot write to engine {cmd:?}: {source}")]
    Write {
        /// The command.
        cmd: String,
        /// The OS error.
        source: std::io::Error,
    },
    /// The engine replied with something we cannot use.
    #[error("engine {cmd:?}: unexpected reply {line:?}: {reason}")]
    BadReply {
        /// The command.
        cmd: String,
        /// The line.
        line: String,
        /// What was expected.
        reason: String,
    },
}

/// A running engine process with a reader thread feeding its output lines into a channel, and another keeping
/// its last stderr lines.
pub struct EngineProcess {
    cmd: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The last [`LAST_LINES`] lines of both streams, stderr lines prefixed `stderr: `, oldest first.
    last: Arc<Mutex<VecDeque<String>>>,
    /// The thread reading stderr; it ends when the process closes its stderr.
    stderr_reader: Option<std::thread::JoinHandle<()>>,
}

/// Appends `line` to the ring of last lines.
fn remember(last: &Mutex<VecDeque<String>>, line: String) {
    let Ok(mut last) = last.lock() else { return };
    if last.len() == LAST_LINES {
        last.pop_front();
    }
    last.push_back(line);
}

impl EngineProcess {
    /// Starts `cmd` (a path or a program on `PATH`) with `args` and performs the `uci`/`uciok` handshake within
    /// `timeout`.
    ///
    /// # Errors
    /// [`UciError::Start`] when the program cannot be run; [`UciError::Timeout`] or
    /// [`UciError::Disconnected`] when it does not answer `uciok`.
    pub fn start(cmd: &str, args: &[String], timeout: Duration) -> Result<EngineProcess, UciError> {
        let mut engine = EngineProcess::spawn(cmd, args, None)?;
        engine.send("uci")?;
        engine.wait_for(|l| l.trim() == "uciok", "uciok", timeout)?;
        Ok(engine)
    }

    /// Starts `cmd` with `args` in the working directory `dir` (the current one when `None`), with its stdout
    /// read line by line and its stderr kept for error reports; sends nothing.
    ///
    /// # Errors
    /// [`UciError::Start`] when the program cannot be run.
    pub fn spawn(cmd: &str, args: &[String], dir: Option<&Path>) -> Result<EngineProcess, UciError> {
        let mut command = Command::new(cmd);
        command.args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        if let Some(dir) = dir {
            command.current_dir(dir);
        }
        let mut child = command.spawn().map_err(|source| UciError::Start { cmd: cmd.to_string(), source })?;
        let stdin = child.stdin.take().expect("stdin was piped");
        let stdout = child.stdout.take().expect("stdout was piped");
        let stderr = child.stderr.take().expect("stderr was piped");
        let last = Arc::new(Mutex::new(VecDeque::with_capacity(LAST_LINES)));
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr_last = Arc::clone(&last);
        let stderr_reader = std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                remember(&stderr_last, format!("stderr: {line}"));
            }
        });
        Ok(EngineProcess { cmd: cmd.to_string(), child, stdin, lines: rx, last, stderr_reader: Some(stderr_reader) })
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

    /// Whether the process is still running.
    pub fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Sends one line.
    ///
    /// # Errors
    /// [`UciError::Write`] when the pipe is closed.
    pub fn send(&mut self, line: &str) -> Result<(), UciError> {
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
    /// [`UciError::Timeout`] or [`UciError::Disconnected`].
    pub fn sync(&mut self, timeout: Duration) -> Result<(), UciError> {
        self.send("isready")?;
        self.wait_for(|l| l.trim() == "readyok", "readyok", timeout).map(|_| ())
    }

    /// Reads lines until one satisfies `done`, returning every line read (the matching one last).
    ///
    /// # Errors
    /// [`UciError::Timeout`] when `timeout` passes first; [`UciError::Disconnected`] when the engine's output
    /// closes.
    pub fn wait_for(
        &mut self,
        done: impl Fn(&str) -> bool,
        waiting_for: &str,
        timeout: Duration,
    ) -> Result<Vec<String>, UciError> {
        let deadline = Instant::now() + timeout;
        let mut out = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    remember(&self.last, line.clone());
                    let finished = done(&line);
                    out.push(line);
                    if finished {
                        return Ok(out);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(UciError::Timeout {
                        cmd: self.cmd.clone(),
                        waiting_for: waiting_for.to_string(),
                        timeout_ms: timeout.as_millis() as u64,
                        last: self.last_lines(),
                    });
                }
                Err(RecvTimeoutError::Disconnected) => {
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
    /// Asks the engine to quit, then kills it if it is still running.
    fn drop(&mut self) {
        let _ = self.send("quit");
        std::thread::sleep(Duration::from_millis(20));
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}
