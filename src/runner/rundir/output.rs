//! Result files of a run folder: `games.csv` and `games.pgn`, appended and flushed as each game ends, and the
//! folder itself, which never replaces an earlier run's files.
//!
//! Every file of a run folder is opened here, and never through a symbolic link: a file opened for writing is
//! opened with `O_NOFOLLOW` (and created with `O_EXCL` where it must be new), so a link planted where a run file
//! goes is refused with [`OutputError::Symlink`] naming it, and the file it points to is left untouched. The
//! folder itself may be a link (a results folder on another disk is a common setup); only the files inside are
//! checked. See `docs/run-folders.md`.

use crate::game::Game;
use crate::runner::game::GameRecord;
use crate::runner::scheduler::{GamePair, GameSink};
use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::os::unix::fs::OpenOptionsExt as _;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};
use thiserror::Error;

/// The header of `games.csv`.
pub const CSV_HEADER: [&str; 9] =
    ["pair", "game", "opening", "white", "black", "result", "termination", "plies", "start_fen"];

/// The result files of a run folder. A folder holding any of them (or [`RUN_TOML`]) holds an earlier run and is
/// refused.
pub const RUN_FILES: [&str; 5] = ["games.csv", "games.pgn", "summary.txt", "summary.csv", "summary.json"];

/// The run file of a run folder: the match's arguments and schedule fingerprint, written before the first game
/// (see [`crate::runner::rundir::runfile`]).
pub const RUN_TOML: &str = "run.toml";

/// The lock file of a run folder: `arbiter match` holds an exclusive lock on it from before `run.toml` is
/// written until the match ends, `arbiter merge` a shared one while it reads a shard. It is created empty and
/// never removed (removing a lock file while another process waits on it would let two processes hold "the"
/// lock).
pub const LOCK_FILE: &str = "run.lock";

/// The log of a run folder: every message of the match (engine failures, SPRT decisions), appended.
pub const LOG_FILE: &str = "match.log";

/// Every file name `arbiter match` writes in a run folder (the copies of dropped records aside, which get
/// fresh names): none of them may be a symbolic link ([`refuse_links`]).
pub const WRITTEN_FILES: [&str; 9] =
    ["games.csv", "games.pgn", "summary.txt", "summary.csv", RUN_TOML, LOCK_FILE, LOG_FILE, LLR_CHART, ELO_CHART];

/// The chart of the SPRT's log-likelihood ratio by games played (drawn by [`crate::runner::report::charts`]).
pub const LLR_CHART: &str = "llr.svg";

/// The chart of the Elo estimate and its error band by games played (drawn by
/// [`crate::runner::report::charts`]).
pub const ELO_CHART: &str = "elo.svg";

/// A result file or folder that cannot be created or written.
#[derive(Debug, Error)]
pub enum OutputError {
    /// A result file exists already: an earlier run's results are never overwritten.
    #[error("{path}: already exists; refusing to overwrite an earlier run (choose another output folder)")]
    Exists {
        /// The path.
        path: String,
    },
    /// A plain file (or other non-folder) stands where a folder is needed.
    #[error("{path}: is a file, not a folder; move it away or choose another output folder")]
    NotAFolder {
        /// The path of the file in the way.
        path: String,
    },
    /// The folder cannot be created (permission, a name too long, a read-only file system).
    #[error("{path}: cannot create the folder: {reason}")]
    CreateFolder {
        /// The folder.
        path: String,
        /// The operating-system error (its text is in the message, so it is not a `source`).
        reason: io::Error,
    },
    /// Any other I/O failure.
    #[error("{path}: {reason}")]
    Io {
        /// The path.
        path: String,
        /// The operating-system error (its text is in the message).
        reason: io::Error,
    },
    /// A file of the run folder is a symbolic link: arbiter never writes a run's files through a link.
    #[error(
        "{path}: is a symbolic link; arbiter does not write a run's files through links (remove the link, or \
         choose another output folder)"
    )]
    Symlink {
        /// The path of the link.
        path: String,
    },
    /// A CSV write failure.
    #[error("{path}: {reason}")]
    Csv {
        /// The path.
        path: String,
        /// The CSV error (its text is in the message).
        reason: csv::Error,
    },
}

impl OutputError {
    /// Whether the error is the user's input rather than a failure of the system: an earlier run's file, a file
    /// or link in the way, or a folder the system refuses to create for its name or permissions are input (the
    /// command line exits 2); a disk that fails, is full or read-only, and any other I/O error, are not.
    pub fn is_input(&self) -> bool {
        match self {
            OutputError::Exists { .. } | OutputError::NotAFolder { .. } | OutputError::Symlink { .. } => true,
            OutputError::CreateFolder { reason, .. } => {
                !matches!(reason.raw_os_error(), Some(libc::EIO | libc::ENOSPC | libc::EROFS | libc::EDQUOT))
            }
            OutputError::Io { .. } | OutputError::Csv { .. } => false,
        }
    }

    /// Whether the error is [`OutputError::Exists`].
    pub fn is_exists(&self) -> bool {
        matches!(self, OutputError::Exists { .. })
    }
}

fn io_error(path: &Path, reason: io::Error) -> OutputError {
    if is_link(path) || reason.raw_os_error() == Some(libc::ELOOP) {
        OutputError::Symlink { path: path.display().to_string() }
    } else if reason.kind() == io::ErrorKind::AlreadyExists {
        OutputError::Exists { path: path.display().to_string() }
    } else {
        OutputError::Io { path: path.display().to_string(), reason }
    }
}

/// Whether `path` itself (not what it points to) is a symbolic link.
fn is_link(path: &Path) -> bool {
    path.symlink_metadata().is_ok_and(|m| m.file_type().is_symlink())
}

/// Options that never follow a symbolic link in the last component (`O_NOFOLLOW`: opening a link fails with
/// `ELOOP`, mapped to [`OutputError::Symlink`]).
fn no_follow() -> OpenOptions {
    let mut options = OpenOptions::new();
    options.custom_flags(libc::O_NOFOLLOW);
    options
}

/// Refuses the first of `names` in `dir` that is a symbolic link.
///
/// # Errors
/// [`OutputError::Symlink`] naming it.
pub fn refuse_links(dir: &Path, names: &[&str]) -> Result<(), OutputError> {
    match names.iter().map(|name| dir.join(name)).find(|path| is_link(path)) {
        Some(path) => Err(OutputError::Symlink { path: path.display().to_string() }),
        None => Ok(()),
    }
}

/// The nearest existing path among `path` and its parents when it is not a folder: the file that stops
/// `path` from being created as a folder; `None` when the nearest existing one is a folder (or none exists).
pub fn file_in_the_way(path: &Path) -> Option<PathBuf> {
    let existing = path.ancestors().filter(|p| !p.as_os_str().is_empty()).find(|p| p.symlink_metadata().is_ok())?;
    (!existing.is_dir()).then(|| existing.to_path_buf())
}

/// Creates the folder `dir` and its parents, naming a file in the way or the system's reason.
fn create_folder(dir: &Path) -> Result<(), OutputError> {
    if let Some(file) = file_in_the_way(dir) {
        return Err(OutputError::NotAFolder { path: file.display().to_string() });
    }
    std::fs::create_dir_all(dir).map_err(|reason| match file_in_the_way(dir) {
        Some(file) => OutputError::NotAFolder { path: file.display().to_string() },
        None => OutputError::CreateFolder { path: dir.display().to_string(), reason },
    })
}

/// Creates a new file that must not exist yet (`O_EXCL`, so not a link either).
///
/// # Errors
/// [`OutputError::Symlink`] when it is a symbolic link, [`OutputError::Exists`] when it exists,
/// [`OutputError::Io`] otherwise.
pub fn create_new_file(path: &Path) -> Result<File, OutputError> {
    no_follow().write(true).create_new(true).open(path).map_err(|e| io_error(path, e))
}

/// Opens `path` to append to it, creating it when `create` is true, never through a symbolic link.
///
/// # Errors
/// [`OutputError::Symlink`] when it is a symbolic link, [`OutputError::Io`] otherwise (a missing file
/// included, when `create` is false).
pub fn append_file(path: &Path, create: bool) -> Result<File, OutputError> {
    no_follow().append(true).create(create).open(path).map_err(|e| io_error(path, e))
}

/// Opens (creating it empty when missing) the lock file [`LOCK_FILE`] of `dir`, never through a symbolic link.
/// The caller locks it ([`File::try_lock`]) and holds the file open for as long as it needs the lock.
///
/// # Errors
/// [`OutputError::Symlink`] when it is a symbolic link, [`OutputError::Io`] otherwise.
pub fn open_lock_file(dir: &Path) -> Result<File, OutputError> {
    let path = dir.join(LOCK_FILE);
    no_follow().read(true).write(true).create(true).truncate(false).open(&path).map_err(|e| io_error(&path, e))
}

/// Checks that `dir` holds no file of an earlier run ([`RUN_FILES`], [`RUN_TOML`]); a folder that does not
/// exist yet passes.
///
/// # Errors
/// [`OutputError::NotAFolder`] when `dir` (or a parent) is a file, [`OutputError::Exists`] naming the first
/// result file found.
pub fn check_out_dir(dir: &Path) -> Result<(), OutputError> {
    if let Some(file) = file_in_the_way(dir) {
        return Err(OutputError::NotAFolder { path: file.display().to_string() });
    }
    refuse_links(dir, &WRITTEN_FILES)?;
    match RUN_FILES.iter().chain([&RUN_TOML]).map(|name| dir.join(name)).find(|path| path.symlink_metadata().is_ok()) {
        Some(path) => Err(OutputError::Exists { path: path.display().to_string() }),
        None => Ok(()),
    }
}

/// The name of the temporary file that [`replace_file`] writes for `path`: `.NAME.PID-RANDOM.tmp` in the same
/// folder (so that the rename stays on one file system), unique to the process and the call, so that two
/// processes replacing the same file never write into one temporary file.
pub fn temporary_path(path: &Path) -> PathBuf {
    let name = path.file_name().map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    let random: u64 = rand::random();
    path.with_file_name(format!(".{name}.{}-{random:016x}.tmp", std::process::id()))
}

/// Replaces the file `path` with `contents` atomically: writes a temporary file beside it
/// ([`temporary_path`], created new and never through a link), syncs it to disk and renames it over `path`, so
/// that a crash leaves either the old file or the new one, never a mix. A symbolic link at `path` is refused,
/// not replaced.
///
/// # Errors
/// [`OutputError::Symlink`] when `path` is a symbolic link, [`OutputError::Io`] naming the file that cannot be
/// written or renamed (the temporary file is removed).
pub fn replace_file(path: &Path, contents: &[u8]) -> Result<(), OutputError> {
    if is_link(path) {
        return Err(OutputError::Symlink { path: path.display().to_string() });
    }
    let tmp = temporary_path(path);
    let written = (|| {
        let mut file = no_follow().write(true).create_new(true).open(&tmp)?;
        file.write_all(contents)?;
        file.sync_all()
    })();
    if let Err(reason) = written {
        // Remove only a file this call created: an existing one (a name clash) is not ours.
        if reason.kind() != io::ErrorKind::AlreadyExists {
            let _ = std::fs::remove_file(&tmp);
        }
        return Err(OutputError::Io { path: tmp.display().to_string(), reason });
    }
    std::fs::rename(&tmp, path).map_err(|reason| {
        let _ = std::fs::remove_file(&tmp);
        OutputError::Io { path: path.display().to_string(), reason }
    })
}

/// Creates a fresh run folder `<base>/<stem>-<n>` with the smallest `n` from 1 whose folder does not exist
/// yet (creating `base` first if needed), and returns its path.
///
/// # Errors
/// [`OutputError::NotAFolder`] when `base` (or a parent) is a file, [`OutputError::CreateFolder`] when a
/// folder cannot be created.
pub fn create_run_dir(base: &Path, stem: &str) -> Result<PathBuf, OutputError> {
    create_folder(base)?;
    for n in 1u32.. {
        let dir = base.join(format!("{stem}-{n}"));
        match std::fs::create_dir(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(reason) => return Err(OutputError::CreateFolder { path: dir.display().to_string(), reason }),
        }
    }
    unreachable!("some run number below u32::MAX is free")
}

/// Creates the folder `dir` given by the user (and its parents); an existing folder is accepted if it holds
/// no result file ([`check_out_dir`]).
///
/// # Errors
/// As [`check_out_dir`], and [`OutputError::CreateFolder`] when it cannot be created.
pub fn create_out_dir(dir: &Path) -> Result<(), OutputError> {
    check_out_dir(dir)?;
    create_folder(dir)
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
    comments: bool,
    /// The PGN `Site` tag.
    site: String,
    /// A copy of every game, outside the run folder (`--pgnout`): the file and whether it is minimal.
    pgnout: Option<(PathBuf, BufWriter<File>, bool)>,
    /// The final position of every game, one FEN per line (`--epdout`).
    epdout: Option<(PathBuf, BufWriter<File>)>,
    /// Each engine's time control as the PGN `TimeControl` tag gives it ([`pgn_time_control`]), by name.
    time_controls: Vec<(String, String)>,
}

/// A move limit as cutechess-cli writes it in the PGN `TimeControl` tag (`TimeControl::toString` in
/// `projects/lib/src/timecontrol.cpp`): the time control (`40/60+0.6`, `hg60`), `N/move` for a time per move,
/// `inf` for a limit of nodes or depth only.
pub fn pgn_time_control(limit: &crate::player::MoveLimit) -> String {
    match (limit.tc, limit.movetime_ms) {
        (Some(tc), _) => tc.to_string(),
        (None, Some(ms)) => format!("{}/move", ms as f64 / 1000.0),
        (None, None) => "inf".to_string(),
    }
}

/// The PGN `Site` tag when `--site` is not given.
pub const DEFAULT_SITE: &str = "arbiter";

impl ResultSink {
    /// Creates `games.csv` (with its header) and `games.pgn` in `dir`; `event` is the PGN `Event` tag.
    ///
    /// # Errors
    /// [`OutputError::Exists`] when any of [`RUN_FILES`] exists already ([`RUN_TOML`] may: it is written
    /// first), [`OutputError::NotAFolder`] when `dir` is a file, [`OutputError::Io`]/[`OutputError::Csv`]
    /// otherwise.
    pub fn create(dir: &Path, event: &str) -> Result<ResultSink, OutputError> {
        if let Some(file) = file_in_the_way(dir) {
            return Err(OutputError::NotAFolder { path: file.display().to_string() });
        }
        refuse_links(dir, &RUN_FILES)?;
        if let Some(path) = RUN_FILES.iter().map(|name| dir.join(name)).find(|path| path.symlink_metadata().is_ok()) {
            return Err(OutputError::Exists { path: path.display().to_string() });
        }
        let csv_path = dir.join("games.csv");
        let pgn_path = dir.join("games.pgn");
        let pgn = BufWriter::new(create_new_file(&pgn_path)?);
        let mut csv = csv::Writer::from_writer(create_new_file(&csv_path)?);
        let csv_error = |reason| OutputError::Csv { path: csv_path.display().to_string(), reason };
        csv.write_record(CSV_HEADER).map_err(csv_error)?;
        csv.flush().map_err(|e| io_error(&csv_path, e))?;
        Ok(ResultSink::over(dir, csv_path, csv, pgn_path, pgn, event))
    }

    /// A sink writing to the opened files, with move comments on.
    fn over(
        dir: &Path,
        csv_path: PathBuf,
        csv: csv::Writer<File>,
        pgn_path: PathBuf,
        pgn: BufWriter<File>,
        event: &str,
    ) -> ResultSink {
        ResultSink {
            dir: dir.to_path_buf(),
            csv_path,
            csv,
            pgn_path,
            pgn,
            event: event.to_string(),
            comments: true,
            site: DEFAULT_SITE.to_string(),
            pgnout: None,
            epdout: None,
            time_controls: Vec::new(),
        }
    }

    /// Writes the `TimeControl` tag of each game from its engines' limits (`WhiteTimeControl` and
    /// `BlackTimeControl` when they differ, as cutechess-cli does); `engines` are (name, limit).
    pub fn set_time_controls(&mut self, engines: &[crate::player::EnginePlan]) {
        self.time_controls = engines.iter().map(|e| (e.name.clone(), pgn_time_control(&e.limit))).collect();
    }

    /// Applies the output settings of a plan: move comments, the `Site` tag, and the extra files `--pgnout`
    /// and `--epdout`, opened to append (created when missing; a resumed run appends to them as well).
    ///
    /// # Errors
    /// [`OutputError::Io`] naming an extra file that cannot be opened.
    pub fn configure(&mut self, output: &crate::runner::plan::OutputPlan) -> Result<(), OutputError> {
        self.comments = output.pgn_comments;
        self.site = output.site.clone().unwrap_or_else(|| DEFAULT_SITE.to_string());
        let open = |path: &Path| {
            OpenOptions::new().append(true).create(true).open(path).map(BufWriter::new).map_err(|e| io_error(path, e))
        };
        if let Some(out) = &output.pgnout {
            self.pgnout = Some((out.file.clone(), open(&out.file)?, out.min));
        }
        if let Some(path) = &output.epdout {
            self.epdout = Some((path.clone(), open(path)?));
        }
        Ok(())
    }

    /// Opens the `games.csv` and `games.pgn` of `dir` to append more games (a resumed match); `event` is the
    /// PGN `Event` tag. The files must end with whole records (see [`crate::runner::rundir::read::read_run`]).
    ///
    /// # Errors
    /// [`OutputError::Symlink`] when either is a symbolic link, [`OutputError::Io`] when either file is missing
    /// or cannot be opened for writing.
    pub fn append(dir: &Path, event: &str) -> Result<ResultSink, OutputError> {
        let csv_path = dir.join("games.csv");
        let pgn_path = dir.join("games.pgn");
        let pgn = BufWriter::new(append_file(&pgn_path, false)?);
        let csv = csv::Writer::from_writer(append_file(&csv_path, false)?);
        Ok(ResultSink::over(dir, csv_path, csv, pgn_path, pgn, event))
    }

    /// The run folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Whether `games.pgn` gets a comment after each move (`book`, or score/depth and time); on unless
    /// switched off here (`--pgn-comments off`, cutechess's minimal PGN).
    pub fn set_pgn_comments(&mut self, on: bool) {
        self.comments = on;
    }

    /// Appends game `game` of `pair` to `games.pgn`, flushes it, then appends its row to `games.csv` and
    /// flushes that: `games.csv` never lists a game that `games.pgn` lacks.
    ///
    /// # Errors
    /// [`OutputError`] naming the file that cannot be written.
    pub fn write_game<G: Game>(
        &mut self,
        pair: &GamePair,
        game: u8,
        record: &GameRecord<G>,
    ) -> Result<(), OutputError> {
        let now = SystemTime::now();
        let header = PgnHeader { event: &self.event, site: &self.site, time_controls: &self.time_controls };
        let text = pgn_game_text(&header, pair, game, record, now, self.comments);
        self.pgn.write_all(text.as_bytes()).map_err(|e| io_error(&self.pgn_path, e))?;
        self.pgn.flush().map_err(|e| io_error(&self.pgn_path, e))?;
        if let Some((path, file, min)) = &mut self.pgnout {
            let copy = if *min { pgn_minimal_text(&header, pair, game, record, now) } else { text.clone() };
            file.write_all(copy.as_bytes()).and_then(|()| file.flush()).map_err(|e| io_error(path, e))?;
        }
        if let Some((path, file)) = &mut self.epdout {
            let mut end = G::new_game(record.start.clone());
            for &m in &record.moves {
                end.play(m);
            }
            writeln!(file, "{}", end.fen()).and_then(|()| file.flush()).map_err(|e| io_error(path, e))?;
        }

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
                G::position_fen(&record.start),
            ])
            .map_err(|reason| OutputError::Csv { path: self.csv_path.display().to_string(), reason })?;
        self.csv.flush().map_err(|e| io_error(&self.csv_path, e))
    }
}

/// One game as PGN: the seven-tag roster (`Round` is `pair.game`, both 1-based), `Termination` and
/// `PlyCount`, then `SetUp`/`FEN` for a start other than the standard one (and `Variant "chess960"` for a
/// Chess960 game), and SAN movetext with a comment per move (`book` or `score/depth`).
///
/// The `Result` tag and the movetext's result are both `record.result`, which [`play_game`] sets from the
/// [`EndReason`] in `Termination`: they always agree.
///
/// [`play_game`]: crate::runner::game::play_game
/// [`EndReason`]: crate::runner::game::EndReason
pub fn pgn_text<G: Game>(event: &str, pair: &GamePair, game: u8, record: &GameRecord<G>, date: SystemTime) -> String {
    pgn_game_text(&PgnHeader { event, site: DEFAULT_SITE, time_controls: &[] }, pair, game, record, date, true)
}

/// The tags of a run's games that are the same in every game: `Event` and `Site`.
#[derive(Clone, Copy, Debug)]
pub struct PgnHeader<'a> {
    /// The `Event` tag (`--event`, else the run name).
    pub event: &'a str,
    /// The `Site` tag (`--site`, else [`DEFAULT_SITE`]).
    pub site: &'a str,
    /// Each engine's `TimeControl` tag text by name; no tag for a game whose engines are not listed.
    pub time_controls: &'a [(String, String)],
}

/// cutechess-cli's minimal PGN (`-pgnout FILE min`): the seven-tag roster (and `SetUp`/`FEN` for a start other
/// than the standard one), the moves and the result, no comments.
pub fn pgn_minimal_text<G: Game>(
    header: &PgnHeader<'_>,
    pair: &GamePair,
    game: u8,
    record: &GameRecord<G>,
    date: SystemTime,
) -> String {
    let tags: Vec<(String, String)> = pgn_tags(header, pair, game, record, date).into_iter().take(7).collect();
    G::pgn_text(&tags, &record.start, &record.moves, None, record.result.pgn())
}

/// [`pgn_text`] with the given `Event` and `Site` and the move comments written only when `comments` is true.
pub fn pgn_game_text<G: Game>(
    header: &PgnHeader<'_>,
    pair: &GamePair,
    game: u8,
    record: &GameRecord<G>,
    date: SystemTime,
    comments: bool,
) -> String {
    let tags = pgn_tags(header, pair, game, record, date);
    let comments = comments.then_some(record.comments.as_slice());
    G::pgn_text(&tags, &record.start, &record.moves, comments, record.result.pgn())
}

/// The tags of one game, the seven-tag roster first.
fn pgn_tags<G: Game>(
    header: &PgnHeader<'_>,
    pair: &GamePair,
    game: u8,
    record: &GameRecord<G>,
    date: SystemTime,
) -> Vec<(String, String)> {
    let (y, m, d, ..) = utc(date);
    let control = |name: &str| header.time_controls.iter().find(|(n, _)| n == name).map(|(_, tc)| tc.clone());
    let time_controls = match (control(&record.white), control(&record.black)) {
        (Some(white), Some(black)) if white == black => vec![("TimeControl", white)],
        (Some(white), Some(black)) => vec![("WhiteTimeControl", white), ("BlackTimeControl", black)],
        _ => Vec::new(),
    };
    [
        ("Event", header.event.to_string()),
        ("Site", header.site.to_string()),
        ("Date", format!("{y:04}.{m:02}.{d:02}")),
        ("Round", format!("{}.{}", pair.index + 1, game + 1)),
        ("White", record.white.clone()),
        ("Black", record.black.clone()),
        ("Result", record.result.pgn().to_string()),
        ("Termination", record.end.text().to_string()),
        ("PlyCount", record.moves.len().to_string()),
    ]
    .into_iter()
    .chain(time_controls)
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

impl<G: Game> GameSink<G> for ResultSink {
    type Error = OutputError;

    fn write_game(&mut self, pair: &GamePair, game: u8, record: &GameRecord<G>) -> Result<(), OutputError> {
        ResultSink::write_game(self, pair, game, record)
    }
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
        assert!(err.to_string().contains("games.csv"), "{err}");
        let header = std::fs::read_to_string(a.join("games.csv")).unwrap();
        assert_eq!(header, "pair,game,opening,white,black,result,termination,plies,start_fen\n");

        // A folder holding only a summary is an earlier run too.
        for name in ["summary.txt", "summary.csv"] {
            std::fs::write(b.join(name), "").unwrap();
            let err = create_out_dir(&b).err().unwrap();
            assert!(err.is_exists() && err.to_string().contains(name), "{err}");
            assert!(ResultSink::create(&b, "test").err().unwrap().is_exists());
            std::fs::remove_file(b.join(name)).unwrap();
        }
        assert!(!b.join("games.csv").exists());
        std::fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    fn files_are_never_written_through_links() {
        let base = std::env::temp_dir().join(format!("arbiter-output-links-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        std::fs::create_dir_all(&base).unwrap();
        let target = base.join("target.txt");
        std::fs::write(&target, "keep").unwrap();
        let link = base.join("games.csv");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let is_link_error =
            |e: OutputError| matches!(&e, OutputError::Symlink { path } if *path == link.display().to_string());
        assert!(is_link_error(create_new_file(&link).unwrap_err()));
        assert!(is_link_error(append_file(&link, true).unwrap_err()));
        assert!(is_link_error(append_file(&link, false).unwrap_err()));
        assert!(is_link_error(replace_file(&link, b"new").unwrap_err()));
        assert!(is_link_error(refuse_links(&base, &["games.pgn", "games.csv"]).unwrap_err()));
        assert!(is_link_error(check_out_dir(&base).unwrap_err()));
        assert!(is_link_error(ResultSink::create(&base, "x").err().unwrap()));
        std::fs::write(base.join("games.pgn"), "").unwrap();
        assert!(is_link_error(ResultSink::append(&base, "x").err().unwrap()));
        std::fs::remove_file(base.join("games.pgn")).unwrap();
        std::fs::remove_file(&link).unwrap();
        // A dangling link too (O_CREAT would create its target).
        let lock = base.join(LOCK_FILE);
        std::os::unix::fs::symlink(base.join("nowhere"), &lock).unwrap();
        let err = open_lock_file(&base).unwrap_err();
        assert!(err.to_string().ends_with("run.lock: is a symbolic link; arbiter does not write a run's files through links (remove the link, or choose another output folder)"), "{err}");
        assert!(!base.join("nowhere").exists());
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep");
        std::fs::remove_file(&lock).unwrap();
        open_lock_file(&base).unwrap();
        std::fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    fn temporary_files_are_unique_and_cleaned_up() {
        let base = std::env::temp_dir().join(format!("arbiter-output-tmp-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        std::fs::create_dir_all(&base).unwrap();
        let path = base.join("run.toml");
        let (a, b) = (temporary_path(&path), temporary_path(&path));
        assert_ne!(a, b);
        let name = a.file_name().unwrap().to_string_lossy().into_owned();
        assert!(name.starts_with(&format!(".run.toml.{}-", std::process::id())) && name.ends_with(".tmp"), "{name}");
        assert_eq!(a.parent(), Some(base.as_path()));
        replace_file(&path, b"one").unwrap();
        replace_file(&path, b"two").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "two");
        assert_eq!(std::fs::read_dir(&base).unwrap().count(), 1, "no temporary file is left");
        std::fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    fn a_file_in_the_way_is_named() {
        let base = std::env::temp_dir().join(format!("arbiter-output-file-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        std::fs::create_dir_all(&base).unwrap();
        let file = base.join("results");
        std::fs::write(&file, "").unwrap();
        assert_eq!(file_in_the_way(&file.join("a/b")), Some(file.clone()));
        assert_eq!(file_in_the_way(&base.join("new/folder")), None);
        let err = create_run_dir(&file, "run").unwrap_err();
        assert!(matches!(&err, OutputError::NotAFolder { path } if *path == file.display().to_string()), "{err}");
        assert!(
            err.to_string().ends_with("results: is a file, not a folder; move it away or choose another output folder")
        );
        let err = create_out_dir(&file.join("sub")).unwrap_err();
        assert!(matches!(err, OutputError::NotAFolder { .. }), "{err}");
        let long = base.join("x".repeat(300));
        let err = create_out_dir(&long).unwrap_err();
        assert!(matches!(err, OutputError::CreateFolder { .. }), "{err}");
        assert!(err.to_string().contains("cannot create the folder"), "{err}");
        std::fs::remove_dir_all(&base).unwrap();
    }
}
