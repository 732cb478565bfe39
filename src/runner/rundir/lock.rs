//! The lock of a run folder (`run.lock`): a match holds it exclusively while it plays (so that a second match
//! can neither start in the same folder nor append to the same run), a merge holds the shards' locks shared
//! while it reads (so that a shard still playing is refused). The lock dies with the process, even on SIGKILL.

use super::output::{LOCK_FILE, OutputError, open_lock_file};
use std::fs::{File, TryLockError};
use std::path::Path;
use thiserror::Error;

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
    #[error("{dir}: the run is in use by another arbiter process (still playing?); wait for it or stop it first")]
    InUse {
        /// The run folder.
        dir: String,
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
    let file = open_lock_file(dir).map_err(LockError::Open)?;
    match file.try_lock() {
        Ok(()) => Ok(Some(file)),
        Err(TryLockError::WouldBlock) => Err(LockError::InUse { dir: dir.display().to_string() }),
        Err(TryLockError::Error(error)) => {
            warn(&format!(
                "warning: {}: cannot lock ({error}); make sure no other arbiter plays this run",
                dir.join(LOCK_FILE).display()
            ));
            Ok(None)
        }
    }
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
