//! The lock of a run folder (`run.lock`): a match holds it exclusively while it plays (so that a second match
//! can neither start in the same folder nor append to the same run), a merge holds the shards' locks shared
//! while it reads (so that a shard still playing is refused). The lock dies with the process, even on SIGKILL.
//!
//! The lock (`flock`) belongs to the open file, and a child process holds its parent's open files from its
//! `fork` to its `exec` (where they close, being close-on-exec): an engine being started at the moment its
//! arbiter is killed keeps the lock for that moment after the arbiter is gone. So the holder writes its process
//! id and start time into the file; a resume that finds the lock taken by a process that no longer runs waits
//! for the moment to pass ([`ORPHAN_WAIT`]) instead of refusing the run.

use super::output::{LOCK_FILE, OutputError, open_lock_file};
use crate::uci::group::process_start;
use std::fs::{File, TryLockError};
use std::io::{Read, Seek, Write};
use std::path::Path;
use std::time::{Duration, Instant};
use thiserror::Error;

/// How long [`lock_run`] waits for a lock whose holder no longer runs: a child of that holder, between its
/// `fork` and its `exec`, still has the file open (an `exec` follows within milliseconds, or more on a loaded
/// machine).
pub const ORPHAN_WAIT: Duration = Duration::from_secs(10);

/// Why a run folder cannot be locked.
#[derive(Debug, Error)]
pub enum LockError {
    /// The lock file cannot be created or opened for a match.
    #[error(transparent)]
    Open(OutputError),
    /// A shard's lock file cannot be opened for a merge.
    #[error("{path}: cannot open: {reason}")]
    OpenShared {
        /// The lock file.
        path: String,
        /// The operating-system error.
        reason: std::io::Error,
    },
    /// Another arbiter process plays the run.
    #[error(
        "{dir}: the run is in use by another arbiter process{holder} (still playing?); wait for it or stop it first"
    )]
    InUse {
        /// The run folder.
        dir: String,
        /// ` (process ID)` when the lock file names its holder, else empty.
        holder: String,
    },
    /// A shard to merge still plays.
    #[error("{dir}: the shard is still playing (its {LOCK_FILE} is locked)")]
    StillPlaying {
        /// The shard's folder.
        dir: String,
    },
}

/// Locks the run folder `dir` ([`LOCK_FILE`], created when missing) for as long as the returned file is open.
/// A file system without locks gets a warning (`warn`) and no lock.
///
/// # Errors
/// [`LockError::InUse`] while another process holds it, [`LockError::Open`] when the file cannot be opened.
pub fn lock_run(dir: &Path, warn: &mut dyn FnMut(&str)) -> Result<Option<File>, LockError> {
    let mut file = open_lock_file(dir).map_err(LockError::Open)?;
    let started = Instant::now();
    loop {
        match file.try_lock() {
            Ok(()) => {
                write_holder(&mut file);
                return Ok(Some(file));
            }
            Err(TryLockError::WouldBlock) => {
                let holder = read_holder(&mut file);
                let gone = holder.is_some_and(|(pid, start)| process_start(pid) != Some(start));
                if !gone || started.elapsed() >= ORPHAN_WAIT {
                    let holder = holder.map(|(pid, _)| format!(" (process {pid})")).unwrap_or_default();
                    return Err(LockError::InUse { dir: dir.display().to_string(), holder });
                }
                std::thread::sleep(Duration::from_millis(10));
            }
            Err(TryLockError::Error(error)) => {
                warn(&format!(
                    "warning: {}: cannot lock ({error}); make sure no other arbiter plays this run",
                    dir.join(LOCK_FILE).display()
                ));
                return Ok(None);
            }
        }
    }
}

/// Writes `PID STARTTIME` of this process into the locked `file` (best effort: the lock holds without it).
fn write_holder(file: &mut File) {
    let Some(start) = process_start(std::process::id()) else { return };
    let _ =
        file.set_len(0).and_then(|()| file.rewind()).and_then(|()| writeln!(file, "{} {start}", std::process::id()));
}

/// The `PID STARTTIME` written by the lock's holder ([`write_holder`]), if the file holds one.
fn read_holder(file: &mut File) -> Option<(u32, u64)> {
    let mut text = String::new();
    file.rewind().ok()?;
    file.take(64).read_to_string(&mut text).ok()?;
    let mut words = text.split_whitespace();
    Some((words.next()?.parse().ok()?, words.next()?.parse().ok()?))
}

/// Opens and share-locks `dir/run.lock` for a merge: a shard still playing holds it locked, and is refused. A
/// folder without one has no match playing in it (a match creates it before anything else); a file system
/// without locks gives no lock.
///
/// # Errors
/// [`LockError::StillPlaying`], or [`LockError::OpenShared`] when the file exists but cannot be opened.
pub fn lock_shared(dir: &Path) -> Result<Option<File>, LockError> {
    let path = dir.join(LOCK_FILE);
    let file = match File::open(&path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(reason) => return Err(LockError::OpenShared { path: path.display().to_string(), reason }),
    };
    match file.try_lock_shared() {
        Ok(()) => Ok(Some(file)),
        Err(TryLockError::WouldBlock) => Err(LockError::StillPlaying { dir: dir.display().to_string() }),
        Err(TryLockError::Error(_)) => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Holds `dir/run.lock` through a second open file, as a child between `fork` and `exec` does, naming
    /// `holder` as the lock's owner.
    fn held_by(dir: &Path, holder: &str) -> File {
        std::fs::create_dir_all(dir).unwrap();
        let mut file = open_lock_file(dir).unwrap();
        file.try_lock().unwrap();
        file.set_len(0).unwrap();
        file.write_all(holder.as_bytes()).unwrap();
        file
    }

    #[test]
    fn a_lock_held_by_a_running_process_is_refused_at_once_naming_it() {
        let dir = std::env::temp_dir().join(format!("arbiter-lock-live-{}", std::process::id()));
        let me = std::process::id();
        let _held = held_by(&dir, &format!("{me} {}\n", process_start(me).unwrap()));
        let started = Instant::now();
        let err = lock_run(&dir, &mut |_| {}).unwrap_err();
        assert!(started.elapsed() < Duration::from_secs(1));
        assert!(err.to_string().contains(&format!("in use by another arbiter process (process {me})")), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_lock_left_by_a_process_that_is_gone_is_waited_for() {
        let dir = std::env::temp_dir().join(format!("arbiter-lock-gone-{}", std::process::id()));
        // A process that ran and was reaped: its id names no running process with that start time.
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        let held = held_by(&dir, &format!("{pid} 1\n"));
        let release = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            drop(held);
        });
        let mut file = lock_run(&dir, &mut |_| {}).unwrap().expect("a lock");
        release.join().unwrap();
        let mut text = String::new();
        file.rewind().unwrap();
        file.read_to_string(&mut text).unwrap();
        assert!(text.starts_with(&format!("{} ", std::process::id())), "the new holder is written: {text:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
