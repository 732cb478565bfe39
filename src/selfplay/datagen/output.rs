//! The files of a datagen run and what makes it resumable ([`Output`]): `--out FILE` (and `FILE.meta.tsv` for
//! EPD), `FILE.keys` (the Zobrist keys of the positions written, 8 little-endian bytes each, for the
//! duplicate filter) and `FILE.progress`, a JSON record of the run's settings, its totals and every file's
//! length after the last complete game, replaced atomically (written aside, then renamed) after each game.
//!
//! `--resume` reads the record, refuses a run whose settings differ (naming the first difference), cuts
//! every file back to its recorded length (dropping a game written only in part when the run was killed),
//! reads the keys back and continues with the next game, so the files end as an uninterrupted run's.

use super::{DatagenError, DatagenSpec, Sink, Start, Totals, TrainingFormat, generate, meta_path};
use std::collections::{BTreeMap, HashSet};
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use thiserror::Error;

/// The version of the `.progress` record's layout.
pub const PROGRESS_FORMAT: u32 = 1;

/// The largest `.progress` record read back (it holds a few settings and counts).
const MAX_PROGRESS_BYTES: u64 = 1 << 20;

/// Why a run's files cannot be created or resumed.
#[derive(Debug, Error)]
pub enum ResumeError {
    /// An output file exists and neither `--force` nor `--resume` was given.
    #[error("{0} already exists; replace it or resume the run")]
    Exists(PathBuf),
    /// `--resume` without a progress record.
    #[error("{0} does not exist, so there is no run to continue")]
    NoProgress(PathBuf),
    /// A progress record that cannot be read as one.
    #[error("{path}: not a datagen progress record: {reason}")]
    BadProgress {
        /// The record.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// A setting differs from the run being resumed.
    #[error("{name} differs from the run being resumed (was: {was}; now: {now}); resume with the same settings")]
    Settings {
        /// The setting.
        name: String,
        /// Its value in the record.
        was: String,
        /// Its value now.
        now: String,
    },
    /// An output file shorter than recorded (changed since).
    #[error("{path} has {actual} bytes, fewer than the {recorded} recorded after the last game; it was changed")]
    Short {
        /// The file.
        path: PathBuf,
        /// Bytes recorded.
        recorded: u64,
        /// Bytes found.
        actual: u64,
    },
    /// An output file of the run being resumed is gone.
    #[error("{0} does not exist, so the run cannot continue; start it again")]
    Missing(PathBuf),
    /// A file cannot be created, read or written.
    #[error("{path}: {error}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The system's error.
        error: std::io::Error,
    },
}

impl ResumeError {
    /// Whether the error is the system's (a file that cannot be read or written), not the user's input.
    pub fn is_system(&self) -> bool {
        matches!(self, ResumeError::Io { .. })
    }
}

/// Why the totals of a progress record do not agree with each other or with the run.
#[derive(Debug, thiserror::Error)]
enum TotalsError {
    #[error("{games} games but {white} White wins, {draws} draws and {black} Black wins")]
    Results { games: u64, white: u64, draws: u64, black: u64 },
    #[error("{games} games but the game ends do not add up to them")]
    Ends { games: u64 },
    #[error("the skipped counts add up past the largest count")]
    Skipped,
    #[error("{games} games recorded, more than the {planned} games of this run")]
    TooMany { games: u64, planned: u64 },
}

/// Checks that the totals of a progress record agree with each other and with `spec`: the results and the
/// ends each add up to the games, the skipped counts add up (no sum past `u64`), and no more games than
/// the run plays.
fn check_totals(t: &Totals, spec: &DatagenSpec) -> Result<(), TotalsError> {
    let sum = |counts: &[u64]| counts.iter().try_fold(0u64, |sum, &n| sum.checked_add(n));
    let results = sum(&[t.white_wins, t.draws, t.black_wins]);
    if results != Some(t.games) {
        return Err(TotalsError::Results { games: t.games, white: t.white_wins, draws: t.draws, black: t.black_wins });
    }
    if t.ends.checked_total() != Some(t.games) {
        return Err(TotalsError::Ends { games: t.games });
    }
    if t.skipped.checked_total().is_none() {
        return Err(TotalsError::Skipped);
    }
    if t.games > spec.games {
        return Err(TotalsError::TooMany { games: t.games, planned: spec.games });
    }
    Ok(())
}

/// The `.progress` record.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Progress {
    format: u32,
    settings: BTreeMap<String, String>,
    totals: Totals,
    /// Bytes of each file (`out`, `meta`, `keys`) after the last complete game.
    lengths: BTreeMap<String, u64>,
}

/// `path` with `suffix` appended to its name.
fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// The progress record of a run writing `out`: `out` with `.progress` appended.
pub fn progress_path(out: &Path) -> PathBuf {
    with_suffix(out, ".progress")
}

/// The keys file of a run writing `out`: `out` with `.keys` appended.
pub fn keys_path(out: &Path) -> PathBuf {
    with_suffix(out, ".keys")
}

/// One output file, buffered.
struct OutFile {
    path: PathBuf,
    file: BufWriter<File>,
}

impl OutFile {
    fn create(path: &Path) -> Result<OutFile, ResumeError> {
        let file = File::create(path).map_err(|error| ResumeError::Io { path: path.to_path_buf(), error })?;
        Ok(OutFile { path: path.to_path_buf(), file: BufWriter::new(file) })
    }

    /// Opens `path` for appending after cutting it to `length` bytes.
    fn reopen(path: &Path, length: u64) -> Result<OutFile, ResumeError> {
        let io = |error| ResumeError::Io { path: path.to_path_buf(), error };
        let file = match OpenOptions::new().append(true).open(path) {
            Ok(file) => file,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(ResumeError::Missing(path.to_path_buf())),
            Err(error) => return Err(io(error)),
        };
        let actual = file.metadata().map_err(io)?.len();
        if actual < length {
            return Err(ResumeError::Short { path: path.to_path_buf(), recorded: length, actual });
        }
        file.set_len(length).map_err(io)?;
        Ok(OutFile { path: path.to_path_buf(), file: BufWriter::new(file) })
    }

    fn length(&mut self) -> Result<u64, ResumeError> {
        let io = |error| ResumeError::Io { path: self.path.clone(), error };
        self.file.flush().map_err(io)?;
        Ok(self.file.get_ref().metadata().map_err(io)?.len())
    }
}

/// The files of a datagen run, created fresh ([`Output::create`]) or reopened ([`Output::resume`]).
pub struct Output {
    format: TrainingFormat,
    settings: BTreeMap<String, String>,
    out: OutFile,
    /// `.meta.tsv`, for EPD.
    meta: Option<OutFile>,
    keys: OutFile,
    progress: PathBuf,
}

impl Output {
    /// Creates the files of a run of `spec` writing `out` (its folder too), replacing existing ones only with
    /// `force`, and records the run as started.
    ///
    /// # Errors
    /// [`ResumeError::Exists`] for an existing file without `force`; [`ResumeError::Io`].
    pub fn create(out: &Path, spec: &DatagenSpec, force: bool) -> Result<Output, ResumeError> {
        let epd = spec.format == TrainingFormat::Epd;
        let paths = [out.to_path_buf(), meta_path(out), keys_path(out), progress_path(out)];
        if !force && let Some(path) = paths.iter().find(|p| p.exists()) {
            return Err(ResumeError::Exists(path.clone()));
        }
        if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|error| ResumeError::Io { path: dir.to_path_buf(), error })?;
        }
        let progress = progress_path(out);
        if progress.exists() {
            std::fs::remove_file(&progress).map_err(|error| ResumeError::Io { path: progress.clone(), error })?;
        }
        let mut output = Output {
            format: spec.format,
            settings: spec.settings(),
            out: OutFile::create(out)?,
            meta: if epd { Some(OutFile::create(&meta_path(out))?) } else { None },
            keys: OutFile::create(&keys_path(out))?,
            progress,
        };
        output.record(&Totals::default())?;
        Ok(output)
    }

    /// Reopens the files of an interrupted run of `spec` writing `out`: checks its settings against the
    /// record, cuts every file to its recorded length, and returns where to start.
    ///
    /// # Errors
    /// [`ResumeError::NoProgress`], [`ResumeError::BadProgress`], [`ResumeError::Settings`],
    /// [`ResumeError::Missing`], [`ResumeError::Short`], [`ResumeError::Io`].
    pub fn resume(out: &Path, spec: &DatagenSpec) -> Result<(Output, Start), ResumeError> {
        let path = progress_path(out);
        let bad = |reason: String| ResumeError::BadProgress { path: path.clone(), reason };
        let file = match File::open(&path) {
            Ok(file) => file,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(ResumeError::NoProgress(path)),
            Err(error) => return Err(ResumeError::Io { path, error }),
        };
        let mut bytes = Vec::new();
        file.take(MAX_PROGRESS_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|error| ResumeError::Io { path: path.clone(), error })?;
        if bytes.len() as u64 > MAX_PROGRESS_BYTES {
            return Err(bad(format!("longer than {MAX_PROGRESS_BYTES} bytes")));
        }
        let text = String::from_utf8(bytes).map_err(|_| bad("not UTF-8 text".to_string()))?;
        let record: Progress = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
        if record.format != PROGRESS_FORMAT {
            return Err(bad(format!("format {}, expected {PROGRESS_FORMAT}", record.format)));
        }
        check_totals(&record.totals, spec).map_err(|e| bad(e.to_string()))?;
        let settings = spec.settings();
        for name in settings.keys().chain(record.settings.keys()) {
            let (was, now) = (record.settings.get(name), settings.get(name));
            if was != now {
                let shown = |v: Option<&String>| v.map_or_else(|| "(none)".to_string(), Clone::clone);
                return Err(ResumeError::Settings { name: name.clone(), was: shown(was), now: shown(now) });
            }
        }
        let length = |role: &str| record.lengths.get(role).copied().ok_or_else(|| bad(format!("no length of {role}")));
        let epd = spec.format == TrainingFormat::Epd;
        let keys_len = length("keys")?;
        if keys_len % 8 != 0 || keys_len / 8 != record.totals.positions {
            return Err(bad(format!("{keys_len} bytes of keys for {} positions", record.totals.positions)));
        }
        let output = Output {
            format: spec.format,
            settings,
            out: OutFile::reopen(out, length("out")?)?,
            meta: if epd { Some(OutFile::reopen(&meta_path(out), length("meta")?)?) } else { None },
            keys: OutFile::reopen(&keys_path(out), keys_len)?,
            progress: path,
        };
        let keys_file = keys_path(out);
        let mut bytes = Vec::new();
        File::open(&keys_file)
            .and_then(|f| f.take(keys_len).read_to_end(&mut bytes))
            .map_err(|error| ResumeError::Io { path: keys_file.clone(), error })?;
        let seen: HashSet<u64> =
            bytes.chunks_exact(8).map(|b| u64::from_le_bytes(b.try_into().expect("chunks of 8"))).collect();
        Ok((output, Start { totals: record.totals, seen }))
    }

    /// Replaces the progress record with the files' lengths now and `totals`.
    fn record(&mut self, totals: &Totals) -> Result<(), ResumeError> {
        let mut lengths = BTreeMap::new();
        lengths.insert("out".to_string(), self.out.length()?);
        if let Some(meta) = self.meta.as_mut() {
            lengths.insert("meta".to_string(), meta.length()?);
        }
        lengths.insert("keys".to_string(), self.keys.length()?);
        let mut recorder =
            Recorder { keys: &mut self.keys, progress: &self.progress, settings: &self.settings, lengths };
        recorder.write_record(totals)
    }

    /// Plays and writes the games of `spec` from `start` into these files ([`generate`]), recording the
    /// progress after each game.
    ///
    /// # Errors
    /// As [`generate`], and [`DatagenError::Resume`] when the keys or the record cannot be written.
    pub fn generate(
        &mut self,
        spec: &DatagenSpec,
        start: Start,
        stop: &AtomicBool,
        on_game: &mut dyn FnMut(&Totals),
    ) -> Result<Totals, DatagenError> {
        let mut lengths = BTreeMap::new();
        lengths.insert("out".to_string(), self.out.length()?);
        if let Some(meta) = self.meta.as_mut() {
            lengths.insert("meta".to_string(), meta.length()?);
        }
        lengths.insert("keys".to_string(), self.keys.length()?);
        let mut no_meta = std::io::sink();
        let Output { format, settings, out, meta, keys, progress } = self;
        let meta: &mut dyn Write = match meta.as_mut() {
            Some(file) => &mut file.file,
            None => &mut no_meta,
        };
        let mut recorder = Recorder { keys, progress, settings, lengths };
        let mut checkpoint = |totals: &Totals, new_keys: &[u64], written: Written| {
            recorder.add(totals, new_keys, written).map_err(DatagenError::Resume)
        };
        let mut sink = Sink { format: *format, out: &mut out.file, meta, checkpoint: &mut checkpoint };
        generate(spec, &mut sink, start, stop, on_game)
    }
}

/// Bytes one game added to the `--out` file and to `.meta.tsv`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Written {
    /// Bytes added to `--out`.
    pub out: u64,
    /// Bytes added to `.meta.tsv`.
    pub meta: u64,
}

/// Appends the keys of each game written and replaces the progress record.
struct Recorder<'a> {
    keys: &'a mut OutFile,
    progress: &'a Path,
    settings: &'a BTreeMap<String, String>,
    lengths: BTreeMap<String, u64>,
}

impl Recorder<'_> {
    fn add(&mut self, totals: &Totals, new_keys: &[u64], written: Written) -> Result<(), ResumeError> {
        let bytes: Vec<u8> = new_keys.iter().flat_map(|k| k.to_le_bytes()).collect();
        let path = self.keys.path.clone();
        let io = |error| ResumeError::Io { path: path.clone(), error };
        self.keys.file.write_all(&bytes).and_then(|()| self.keys.file.flush()).map_err(io)?;
        for (role, added) in [("out", written.out), ("meta", written.meta), ("keys", bytes.len() as u64)] {
            if let Some(length) = self.lengths.get_mut(role) {
                *length += added;
            }
        }
        self.write_record(totals)
    }

    /// Replaces the progress record: written aside, then renamed over it.
    fn write_record(&mut self, totals: &Totals) -> Result<(), ResumeError> {
        let record = Progress {
            format: PROGRESS_FORMAT,
            settings: self.settings.clone(),
            totals: *totals,
            lengths: self.lengths.clone(),
        };
        let text = serde_json::to_string_pretty(&record).expect("the record serializes");
        let aside = with_suffix(self.progress, ".tmp");
        let written = std::fs::write(&aside, text + "\n").and_then(|()| std::fs::rename(&aside, self.progress));
        written.map_err(|error| {
            // A record that could not be written whole (a full disk) is not left behind.
            let _ = std::fs::remove_file(&aside);
            ResumeError::Io { path: aside.clone(), error }
        })
    }
}
