//! An engine's stdout read by the thread that waits for it: `ppoll(2)` for the wait, one `read(2)` of what the
//! pipe holds, the bytes split into lines of at most [`MAX_LINE_BYTES`].
//!
//! There is no reader thread between the pipe and the runner: a reader thread hands each line over a channel,
//! which costs two thread wake-ups per line (the reader's when the engine writes, the waiter's when the line
//! is sent), and the runner's clock of a move then also waits for the reader to be scheduled. Here the
//! waiting thread wakes once when the pipe is readable and takes every line that arrived.

use super::process::{MAX_LINE_BYTES, decode_line};
use std::io::Read;
use std::os::fd::AsFd;
use std::process::ChildStdout;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Room read at once after the unread bytes of a line of [`MAX_LINE_BYTES`].
const READ_CHUNK: usize = 16 * 1024;

/// What the next read of the engine's output gave.
#[derive(Debug, PartialEq, Eq)]
pub enum Next {
    /// A line (its newline and a `\r` before it removed; the last bytes before the end of output without one),
    /// decoded with [`decode_line`].
    Line(String),
    /// A line longer than [`MAX_LINE_BYTES`]: its first 80 characters. The rest of it is dropped unread.
    TooLong(String),
    /// Nothing within the timeout.
    Timeout,
    /// The output ended (the engine closed it or exited) and every line was taken.
    Closed,
}

/// The stdout of an engine process, with the bytes read but not yet taken as lines.
pub struct StdoutLines<R = ChildStdout> {
    pipe: R,
    /// `MAX_LINE_BYTES + READ_CHUNK` bytes, allocated at the first read.
    buf: Vec<u8>,
    /// The unread bytes are `buf[start..end]`.
    start: usize,
    end: usize,
    /// `buf[start..searched]` holds no newline.
    searched: usize,
    /// The rest of a line longer than [`MAX_LINE_BYTES`] is being dropped, up to its newline.
    skipping: bool,
    closed: bool,
}

/// The first 80 characters of the start of a line that is too long.
fn start_of(bytes: &[u8]) -> String {
    decode_line(&bytes[..bytes.len().min(MAX_LINE_BYTES)]).chars().take(80).collect()
}

impl<R: Read + AsFd> StdoutLines<R> {
    /// Reads `pipe`.
    pub fn new(pipe: R) -> StdoutLines<R> {
        StdoutLines { pipe, buf: Vec::new(), start: 0, end: 0, searched: 0, skipping: false, closed: false }
    }

    /// The next line, waiting at most `timeout` for it; every byte read is added to `counted`.
    ///
    /// # Errors
    /// A failed `ppoll` or `read` other than an interruption.
    pub fn next(&mut self, timeout: Duration, counted: &AtomicU64) -> std::io::Result<Next> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(next) = self.take_line() {
                return Ok(next);
            }
            if self.closed {
                if self.start < self.end && !self.skipping {
                    let rest = &self.buf[self.start..self.end];
                    let line = decode_line(rest.strip_suffix(b"\r").unwrap_or(rest));
                    self.start = self.end;
                    return Ok(Next::Line(line));
                }
                return Ok(Next::Closed);
            }
            if !self.readable(deadline)? {
                return Ok(Next::Timeout);
            }
            self.fill(counted)?;
        }
    }

    /// A whole line of the bytes read, or the start of one that is too long.
    fn take_line(&mut self) -> Option<Next> {
        loop {
            let newline = self.buf[self.searched..self.end].iter().position(|&b| b == b'\n');
            let Some(at) = newline.map(|at| self.searched + at) else {
                self.searched = self.end;
                let pending = self.end - self.start;
                if self.skipping {
                    (self.start, self.searched) = (self.end, self.end);
                } else if pending > MAX_LINE_BYTES {
                    let start = start_of(&self.buf[self.start..self.end]);
                    (self.start, self.searched, self.skipping) = (self.end, self.end, true);
                    return Some(Next::TooLong(start));
                }
                return None;
            };
            let line = &self.buf[self.start..at];
            (self.start, self.searched) = (at + 1, at + 1);
            if self.skipping {
                self.skipping = false;
                continue;
            }
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            if line.len() > MAX_LINE_BYTES {
                return Some(Next::TooLong(start_of(line)));
            }
            return Some(Next::Line(decode_line(line)));
        }
    }

    /// Waits until `deadline` for the pipe to be readable (or closed); false when the time passed first. A
    /// signal that interrupts the wait does not end it.
    fn readable(&self, deadline: Instant) -> std::io::Result<bool> {
        use nix::poll::{PollFd, PollFlags, ppoll};
        use nix::sys::time::TimeSpec;
        loop {
            let left = TimeSpec::from_duration(deadline.saturating_duration_since(Instant::now()));
            let mut fds = [PollFd::new(self.pipe.as_fd(), PollFlags::POLLIN)];
            match ppoll(&mut fds, Some(left), None) {
                Ok(ready) => return Ok(ready > 0),
                Err(nix::errno::Errno::EINTR) => continue,
                Err(errno) => return Err(errno.into()),
            }
        }
    }

    /// One `read` into the room after the unread bytes (moved to the front first when the room is short).
    fn fill(&mut self, counted: &AtomicU64) -> std::io::Result<()> {
        if self.buf.is_empty() {
            self.buf = vec![0; MAX_LINE_BYTES + READ_CHUNK];
        }
        if self.start == self.end {
            (self.start, self.end, self.searched) = (0, 0, 0);
        } else if self.buf.len() - self.end < READ_CHUNK {
            self.buf.copy_within(self.start..self.end, 0);
            (self.end, self.searched, self.start) = (self.end - self.start, self.searched - self.start, 0);
        }
        match self.pipe.read(&mut self.buf[self.end..]) {
            Ok(0) => self.closed = true,
            Ok(n) => {
                self.end += n;
                counted.fetch_add(n as u64, Ordering::Relaxed);
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::os::unix::net::UnixStream;

    fn next(lines: &mut StdoutLines<UnixStream>, counted: &AtomicU64) -> Next {
        lines.next(Duration::from_millis(200), counted).unwrap()
    }

    #[test]
    fn lines_are_split_bounded_and_the_end_is_seen() {
        let (mut engine, ours) = UnixStream::pair().unwrap();
        let mut lines = StdoutLines::new(ours);
        let counted = AtomicU64::new(0);
        assert_eq!(next(&mut lines, &counted), Next::Timeout);
        engine.write_all(b"short\r\nsecond\nhalf").unwrap();
        assert_eq!(next(&mut lines, &counted), Next::Line("short".into()));
        assert_eq!(next(&mut lines, &counted), Next::Line("second".into()));
        assert_eq!(next(&mut lines, &counted), Next::Timeout);
        engine.write_all(b" line\n").unwrap();
        assert_eq!(next(&mut lines, &counted), Next::Line("half line".into()));

        // Exactly the limit is a line; one byte more is too long, and the rest is dropped to the newline.
        let mut long = vec![b'a'; MAX_LINE_BYTES];
        long.push(b'\n');
        long.extend(vec![b'b'; 3 * MAX_LINE_BYTES]);
        long.extend_from_slice(b"\nnext\nlast");
        let writer = std::thread::spawn(move || {
            engine.write_all(&long).unwrap();
            drop(engine);
        });
        assert_eq!(next(&mut lines, &counted), Next::Line("a".repeat(MAX_LINE_BYTES)));
        assert_eq!(next(&mut lines, &counted), Next::TooLong("b".repeat(80)));
        assert_eq!(next(&mut lines, &counted), Next::Line("next".into()));
        assert_eq!(next(&mut lines, &counted), Next::Line("last".into()));
        assert_eq!(next(&mut lines, &counted), Next::Closed);
        writer.join().unwrap();
        let written = b"short\r\nsecond\nhalf line\n".len() + 4 * MAX_LINE_BYTES + b"\n\nnext\nlast".len();
        assert_eq!(counted.load(Ordering::Relaxed), written as u64);
    }

    #[test]
    fn a_long_line_in_one_read_is_too_long() {
        let (mut engine, ours) = UnixStream::pair().unwrap();
        let mut lines = StdoutLines::new(ours);
        let counted = AtomicU64::new(0);
        let mut text = vec![b'c'; MAX_LINE_BYTES + 1];
        text.extend_from_slice(b"\nok\n");
        let writer = std::thread::spawn(move || engine.write_all(&text).unwrap());
        assert_eq!(next(&mut lines, &counted), Next::TooLong("c".repeat(80)));
        assert_eq!(next(&mut lines, &counted), Next::Line("ok".into()));
        writer.join().unwrap();
    }
}
