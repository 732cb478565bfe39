//! Result files of a run folder: `games.csv` and `games.pgn`, appended and flushed as each game ends, and the
//! folder itself, which never replaces an earlier run's files.

use super::game::GameRecord;
use super::scheduler::GamePair;
use crate::notation::pgn::write_game;
use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};
use thiserror::Error;

/// The header of `games.csv`.
pub const CSV_HEADER: [&str; 9] =
    ["pair", "game", "opening", "white", "black", "result", "termination", "plies", "start_fen"];

/// A result file that cannot be created or written.
#[derive(Debug, Error)]
pub enum OutputError {
    /// The file (or folder) already exists: an earlier run's results are never overwritten.
    #[error("{path}: already exists; refusing to overwrite an earlier run (choose another --out)")]
    Exists {
        /// The path.
        path: String,
    },
    /// Any other I/O failure.
    #[error("{path}: {source}")]
    Io {
        /// The path.
        path: String,
        /// The operating-system error.
        source: io::Error,
    },
    /// A CSV write failure.
    #[error("{path}: {source}")]
    Csv {
        /// The path.
        path: String,
        /// The CSV error.
        source: csv::Error,
    },
}

impl OutputError {
    /// Whether the error is [`OutputError::Exists`] (bad input rather than a failure).
    pub fn is_exists(&self) -> bool {
        matches!(self, OutputError::Exists { .. })
    }
}

fn io_error(path: &Path, source: io::Error) -> OutputError {
    if source.kind() == io::ErrorKind::AlreadyExists {
        OutputError::Exists { path: path.display().to_string() }
    } else {
        OutputError::Io { path: path.display().to_string(), source }
    }
}

/// Creates a new file that must not exist yet.
///
/// # Errors
/// [`OutputError::Exists`] when it exists, [`OutputError::Io`] otherwise.
pub fn create_new_file(path: &Path) -> Result<File, OutputError> {
    OpenOptions::new().write(true).create_new(true).open(path).map_err(|e| io_error(path, e))
}

/// Creates a fresh run folder `<base>/<stem>-<n>` with the smallest `n` from 1 whose folder does not exist
/// yet (creating `base` first if needed), and returns its path.
///
/// # Errors
/// [`OutputError::Io`] when `base` or the folder cannot be created.
pub fn create_run_dir(base: &Path, stem: &str) -> Result<PathBuf, OutputError> {
    std::fs::create_dir_all(base).map_err(|e| io_error(base, e))?;
    for n in 1u32.. {
        let dir = base.join(format!("{stem}-{n}"));
        match std::fs::create_dir(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(io_error(&dir, e)),
        }
    }
    unreachable!("some run number below u32::MAX is free")
}

/// Creates the folder `dir` given by the user (and its parents); an existing folder is accepted, its result
/// files are not (see [`ResultSink::create`]).
///
/// # Errors
/// [`OutputError::Io`] when it cannot be created.
pub fn create_out_dir(dir: &Path) -> Result<(), OutputError> {
    std::fs::create_dir_all(dir).map_err(|e| io_error(dir, e))
}

/// The UTC date and time of `time` as `(year, month, day, hour, minute, second)`.
pub fn utc(time: SystemTime) -> (i64, u32, u32, u32, u32, u32) {
    let secs = time.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs()) as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Howard Hinnant's civil_from_days (http://howardhinnant.github.io/date_algorithms.html).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day, (rem / 3600) as u32, (rem % 3600 / 60) as u32, (rem % 60) as u32)
}

/// A timestamp for folder names: `YYYYMMDD-HHMMSS` (UTC).
pub fn timestamp(time: SystemTime) -> String {
    let (y, mo, d, h, mi, s) = utc(time);
    format!("{y:04}{mo:02}{d:02}-{h:02}{mi:02}{s:02}")
}

/// The run's game files: `games.csv` and `games.pgn` in its folder, each record appended and flushed as a game
/// ends.
pub struct ResultSink {
    dir: PathBuf,
    csv_path: PathBuf,
    csv: csv::Writer<File>,
    pgn_path: PathBuf,
    pgn: BufWriter<File>,
    event: String,
}

impl ResultSink {
    /// Creates `games.csv` (with its header) and `games.pgn` in `dir`; `event` is the PGN `Event` tag.
    ///
    /// # Errors
    /// [`OutputError::Exists`] when either file exists already, [`OutputError::Io`]/[`OutputError::Csv`]
    /// otherwise.
    pub fn create(dir: &Path, event: &str) -> Result<ResultSink, OutputError> {
        let csv_path = dir.join("games.csv");
        let pgn_path = dir.join("games.pgn");
        if pgn_path.exists() {
            return Err(OutputError::Exists { path: pgn_path.display().to_string() });
        }
        let mut csv = csv::Writer::from_writer(create_new_file(&csv_path)?);
        let pgn = BufWriter::new(create_new_file(&pgn_path)?);
        let csv_error = |source| OutputError::Csv { path: csv_path.display().to_string(), source };
        csv.write_record(CSV_HEADER).map_err(csv_error)?;
        csv.flush().map_err(|e| io_error(&csv_path, e))?;
        Ok(ResultSink { dir: dir.to_path_buf(), csv_path, csv, pgn_path, pgn, event: event.to_string() })
    }

    /// The run folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Appends game `game` of `pair` to both files and flushes them.
    ///
    /// # Errors
    /// [`OutputError`] naming the file that cannot be written.
    pub fn write_game(&mut self, pair: &GamePair, game: u8, record: &GameRecord) -> Result<(), OutputError> {
        let number = pair.game_number(game);
        self.csv
            .write_record([
                pair.index.to_string(),
                number.to_string(),
                pair.opening.to_string(),
                record.white.clone(),
                record.black.clone(),
                record.result.pgn().to_string(),
                record.end.text().to_string(),
                record.moves.len().to_string(),
                record.start.to_fen(),
            ])
            .map_err(|source| OutputError::Csv { path: self.csv_path.display().to_string(), source })?;
        self.csv.flush().map_err(|e| io_error(&self.csv_path, e))?;

        let text = pgn_text(&self.event, pair, game, record, SystemTime::now());
        self.pgn.write_all(text.as_bytes()).map_err(|e| io_error(&self.pgn_path, e))?;
        self.pgn.flush().map_err(|e| io_error(&self.pgn_path, e))
    }
}

/// One game as PGN: the seven-tag roster (`Round` is `pair.game`, both 1-based), `Termination` and
/// `PlyCount`, then `SetUp`/`FEN` for a start other than the standard one, and SAN movetext with a comment per
/// move (`book` or `score/depth`).
pub fn pgn_text(event: &str, pair: &GamePair, game: u8, record: &GameRecord, date: SystemTime) -> String {
    let (y, m, d, ..) = utc(date);
    let tags: Vec<(String, String)> = [
        ("Event", event.to_string()),
        ("Site", "arbiter".to_string()),
        ("Date", format!("{y:04}.{m:02}.{d:02}")),
        ("Round", format!("{}.{}", pair.index + 1, game + 1)),
        ("White", record.white.clone()),
        ("Black", record.black.clone()),
        ("Result", record.result.pgn().to_string()),
        ("Termination", record.end.text().to_string()),
        ("PlyCount", record.moves.len().to_string()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    write_game(&tags, &record.start, &record.moves, Some(&record.comments), record.result.pgn())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_dates() {
        assert_eq!(utc(UNIX_EPOCH), (1970, 1, 1, 0, 0, 0));
        let t = UNIX_EPOCH + std::time::Duration::from_secs(951_782_400 + 3661); // 2000-02-29 01:01:01
        assert_eq!(utc(t), (2000, 2, 29, 1, 1, 1));
        let t = UNIX_EPOCH + std::time::Duration::from_secs(1_735_689_599); // 2024-12-31 23:59:59
        assert_eq!(utc(t), (2024, 12, 31, 23, 59, 59));
        assert_eq!(timestamp(t), "20241231-235959");
    }

    #[test]
    fn run_folders_are_never_reused() {
        let base = std::env::temp_dir().join(format!("arbiter-output-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let a = create_run_dir(&base, "run").unwrap();
        let b = create_run_dir(&base, "run").unwrap();
        assert_eq!(a, base.join("run-1"));
        assert_eq!(b, base.join("run-2"));
        let sink = ResultSink::create(&a, "test").unwrap();
        drop(sink);
        let err = ResultSink::create(&a, "test").err().unwrap();
        assert!(err.is_exists(), "{err}");
        assert!(err.to_string().contains("games.pgn"), "{err}");
        let header = std::fs::read_to_string(a.join("games.csv")).unwrap();
        assert_eq!(header, "pair,game,opening,white,black,result,termination,plies,start_fen\n");
        std::fs::remove_dir_all(&base).unwrap();
    }
}
