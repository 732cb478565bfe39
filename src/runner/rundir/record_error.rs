//! Why a run folder's games cannot be read back: the one error of the readers in [`crate::runner::rundir`].

use crate::runner::rundir::output::OutputError;
use thiserror::Error;

/// Why a run folder's games cannot be read back. Every variant names the file; row errors name the line.
#[derive(Debug, Error)]
pub enum RecordError {
    /// A file cannot be read.
    #[error("{path}: cannot read: {reason}")]
    Read {
        /// The path.
        path: String,
        /// The operating-system error (its text is in the message).
        reason: std::io::Error,
    },
    /// A complete `games.csv` line that is not a row arbiter writes.
    #[error("{path}:{line}: {reason}")]
    BadRow {
        /// The path.
        path: String,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// A game listed in `games.csv` has no game in `games.pgn`.
    #[error("{pgn}: game {number} (Round \"{round}\") is listed in games.csv but missing; the run folder is damaged")]
    MissingPgn {
        /// The PGN path.
        pgn: String,
        /// The 1-based game number.
        number: u64,
        /// Its PGN `Round` tag.
        round: String,
    },
    /// A row that does not belong to the match's schedule (another match's files, or a shard's rows in the
    /// wrong folder).
    #[error("{path}:{line}: game {number}: {reason}")]
    NotInSchedule {
        /// The path.
        path: String,
        /// 1-based line.
        line: usize,
        /// The 1-based game number.
        number: u64,
        /// What does not match.
        reason: String,
    },
    /// A game of `games.pgn` that does not replay to its `games.csv` row: a move that is not legal, a result or
    /// ply count other than the row's.
    #[error("{pgn}:{line}: game {number} (Round \"{round}\"): {reason}")]
    BadGame {
        /// The PGN path.
        pgn: String,
        /// The 1-based line where the game begins.
        line: usize,
        /// The 1-based game number.
        number: u64,
        /// Its PGN `Round` tag.
        round: String,
        /// What is wrong (a reader's error names its own line).
        reason: String,
    },
    /// A `games.csv` read for ratings whose header or contents cannot be read (no line to name).
    #[error("{path}: {reason}")]
    File {
        /// The path.
        path: String,
        /// What is wrong.
        reason: String,
    },
    /// A run of more or fewer than two engines where two are needed (`arbiter sprt --results`).
    #[error("{csv}: {} engines ({}); arbiter sprt reports on two engines (use `arbiter elo` for more)", .engines.len(), .engines.join(", "))]
    NotTwoEngines {
        /// The `games.csv` path.
        csv: String,
        /// The engines found, in order of first appearance.
        engines: Vec<String>,
    },
    /// A repaired file cannot be written.
    #[error(transparent)]
    Write(#[from] OutputError),
}
