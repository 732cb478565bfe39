//! The files of an SPSA run folder:
//!
//! | file | what |
//! |---|---|
//! | `spsa.toml` | the plan ([`SpsaPlan`]), written before the first game |
//! | `spsa.csv` | one row per finished iteration: `iteration,games,result,` then every parameter's value (row 0: the start values) |
//! | `games.csv` | one row per game: `iteration,pair,game,opening,white,black,result,termination,plies` |
//! | `values.txt` | the current values as UCI `setoption` lines and as OpenBench's `name, value` lines |
//! | `tuned.toml` | for the built-in engine, the current values as a build (`--engine name=X,config=tuned.toml`) |
//! | `spsa.svg` | each parameter's trajectory, normalised to its `[min, max]` |
//! | `spsa.log` | the run's events (engine failures, interrupts) |
//!
//! Rows are appended and flushed as they are complete; a resume cuts a partial last line (a kill while it was
//! being written) and goes on after the last complete row.

use super::gains::{Perturbation, shown_value};
use super::run::{SPSA_FORMAT, SpsaObserver, SpsaPlan};
use crate::engine::Build;
use crate::game::GameResult;
use crate::player::EngineKind;
use crate::runner::rundir::output::{OutputError, append_file, create_new_file, replace_file, timestamp};
use crate::svg_chart::{Line, LineChart};
use plotters::prelude::{Palette, Palette99, RGBColor, SeriesLabelPosition};
use std::fs::File;
use std::io::{Read as _, Seek as _, SeekFrom, Write as _};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// The plan of the run.
pub const SPSA_TOML: &str = "spsa.toml";
/// The trajectory: one row per finished iteration.
pub const SPSA_CSV: &str = "spsa.csv";
/// Every game.
pub const GAMES_CSV: &str = "games.csv";
/// The current values, ready to paste.
pub const VALUES_TXT: &str = "values.txt";
/// The current values as a built-in build.
pub const TUNED_TOML: &str = "tuned.toml";
/// The trajectory chart.
pub const SPSA_SVG: &str = "spsa.svg";
/// The run's events.
pub const SPSA_LOG: &str = "spsa.log";

/// The header of `games.csv`.
pub const GAMES_HEADER: [&str; 9] =
    ["iteration", "pair", "game", "opening", "white", "black", "result", "termination", "plies"];

/// The first columns of `spsa.csv`, before one column per parameter.
pub const SPSA_COLUMNS: [&str; 3] = ["iteration", "games", "result"];

/// One finished iteration, as `spsa.csv` records it.
#[derive(Clone, Debug, PartialEq)]
pub struct IterationRow {
    /// The iteration (1-based; 0 is the start row).
    pub iteration: u64,
    /// Games recorded in the run after it.
    pub games: u64,
    /// Its result: the plus side's wins minus losses (see [`crate::spsa::gains::update`]).
    pub result: f64,
    /// The values after its update.
    pub theta: Vec<f64>,
    /// Its perturbation (gains, flips, the values each side played).
    pub step: Perturbation,
}

/// One game, as `games.csv` records it.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRow {
    /// The iteration it belongs to.
    pub iteration: u64,
    /// The pair within the iteration's match (0-based).
    pub pair: u64,
    /// The game of the pair (0 or 1).
    pub game: u8,
    /// The opening, 1-based in file order.
    pub opening: u64,
    /// White's name (`NAME+`, `NAME-` or the opponent's).
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The result.
    pub result: GameResult,
    /// Why the game ended.
    pub termination: String,
    /// Plies played, book included.
    pub plies: u64,
}

impl GameRow {
    /// The game's number in its iteration's match: `2 * pair + game`.
    pub fn game_number(&self) -> u64 {
        2 * self.pair + u64::from(self.game)
    }
}

/// What a resume finds in a run folder.
#[derive(Debug)]
pub struct Recorded {
    /// The rows of `spsa.csv`, row 0 (the start values) first: for each, the games after it, its result (none
    /// for row 0) and the values.
    pub rows: Vec<(u64, Option<f64>, Vec<f64>)>,
    /// Every game of `games.csv`, in file order.
    pub games: Vec<GameRow>,
}

impl Recorded {
    /// Iterations finished.
    pub fn done(&self) -> u64 {
        self.rows.len().saturating_sub(1) as u64
    }
}

/// The open files of a run folder.
pub struct SpsaFiles {
    dir: PathBuf,
    games: File,
    iterations: File,
    log: Option<File>,
}

/// Why the record of an SPSA run folder cannot be read back (a resume, `arbiter status`): each names the file
/// and, for a row, its line.
#[derive(Debug, thiserror::Error)]
pub enum SpsaRecordError {
    /// `spsa.toml` cannot be read: most often the folder is not an SPSA run's.
    #[error("{path}: cannot read: {reason} (is this the folder of an `arbiter spsa` run?)")]
    NoPlan {
        /// The file.
        path: String,
        /// The operating-system error.
        reason: std::io::Error,
    },
    /// `spsa.toml` is not TOML of a plan.
    #[error("{path}: {reason}")]
    PlanToml {
        /// The file.
        path: String,
        /// The TOML reader's error.
        reason: toml::de::Error,
    },
    /// `spsa.toml` of another format.
    #[error("{path}: format {found} (this arbiter reads format {SPSA_FORMAT})")]
    Format {
        /// The file.
        path: String,
        /// The format it gives.
        found: u32,
    },
    /// The plan's fingerprint is not the plan's: it was edited.
    #[error(
        "{path}: the plan was changed since the run started (fingerprint {recorded} recorded, {now} now); an SPSA \
         run's engines, limits, openings and schedule cannot change mid-run: restore it, or start a new run"
    )]
    Changed {
        /// The file.
        path: String,
        /// The fingerprint recorded (`none` when missing).
        recorded: String,
        /// The plan's fingerprint now.
        now: String,
    },
    /// A file or a row of it that is not what the run wrote, or rows that disagree with each other.
    #[error("{place}: {problem}")]
    Bad {
        /// The file, with `:LINE` for a row.
        place: String,
        /// What is wrong.
        problem: String,
    },
    /// A record file cannot be opened, read, cut or positioned.
    #[error("{path}: {reason}")]
    Io {
        /// The file.
        path: String,
        /// The operating-system error.
        reason: std::io::Error,
    },
    /// The CSV reader's error.
    #[error("{place}: {reason}")]
    Csv {
        /// The file, with `:LINE` for a row.
        place: String,
        /// The reader's error.
        reason: csv::Error,
    },
    /// A view of the run (`values.txt`, `tuned.toml`, `spsa.svg`) cannot be written.
    #[error(transparent)]
    Output(#[from] OutputError),
    /// The trajectory chart cannot be drawn.
    #[error("{path}: cannot draw the chart: {reason}")]
    Chart {
        /// The chart file.
        path: String,
        /// plotters' error.
        reason: crate::svg_chart::ChartError,
    },
}

impl SpsaRecordError {
    /// Whether the system failed (a file that exists cannot be read, cut or written) rather than the folder's
    /// content being wrong or missing.
    pub fn is_system(&self) -> bool {
        match self {
            SpsaRecordError::Io { .. } => true,
            SpsaRecordError::Output(error) => !error.is_input(),
            _ => false,
        }
    }
}

/// A [`SpsaRecordError::Bad`] of `place`.
fn bad(place: impl std::fmt::Display, problem: impl Into<String>) -> SpsaRecordError {
    SpsaRecordError::Bad { place: place.to_string(), problem: problem.into() }
}

/// Checks that `dir` holds no SPSA run already.
///
/// # Errors
/// [`OutputError::Exists`] naming `spsa.toml` or `spsa.csv`.
pub fn check_spsa_dir(dir: &Path) -> Result<(), OutputError> {
    match [SPSA_TOML, SPSA_CSV, GAMES_CSV]
        .iter()
        .map(|name| dir.join(name))
        .find(|path| path.symlink_metadata().is_ok())
    {
        Some(path) => Err(OutputError::Exists { path: path.display().to_string() }),
        None => Ok(()),
    }
}

/// Reads the plan of the run in `dir`.
///
/// # Errors
/// [`SpsaRecordError`]: no `spsa.toml`, or one that does not read.
pub fn read_plan(dir: &Path) -> Result<SpsaPlan, SpsaRecordError> {
    let path = dir.join(SPSA_TOML);
    let shown = path.display().to_string();
    let text =
        std::fs::read_to_string(&path).map_err(|reason| SpsaRecordError::NoPlan { path: shown.clone(), reason })?;
    let plan: SpsaPlan =
        toml::from_str(&text).map_err(|reason| SpsaRecordError::PlanToml { path: shown.clone(), reason })?;
    if plan.format != SPSA_FORMAT {
        return Err(SpsaRecordError::Format { path: shown, found: plan.format });
    }
    let now = plan.fingerprint();
    if plan.fingerprint.as_deref() != Some(now.as_str()) {
        let recorded = plan.fingerprint.clone().unwrap_or_else(|| "none".to_string());
        return Err(SpsaRecordError::Changed { path: shown, recorded, now });
    }
    if plan.params.len() != plan.names.len() || plan.params.is_empty() {
        return Err(bad(shown, "the parameters and their engine names do not match"));
    }
    Ok(plan)
}

/// A CSV line of `fields`.
fn csv_line<I: IntoIterator<Item = S>, S: AsRef<[u8]>>(fields: I) -> Result<Vec<u8>, csv::Error> {
    let mut writer = csv::WriterBuilder::new().terminator(csv::Terminator::Any(b'\n')).from_writer(vec![]);
    writer.write_record(fields)?;
    writer.into_inner().map_err(|e| csv::Error::from(e.into_error()))
}

/// The `spsa.csv` row of the values `theta` after `iteration` (with `games` and the `result`; empty at row 0).
fn iteration_line(iteration: u64, games: u64, result: Option<f64>, theta: &[f64]) -> Result<Vec<u8>, csv::Error> {
    let mut fields = vec![iteration.to_string(), games.to_string(), result.map(|r| r.to_string()).unwrap_or_default()];
    fields.extend(theta.iter().map(|v| v.to_string()));
    csv_line(fields)
}

impl SpsaFiles {
    /// Creates the files of a new run in `dir`: `spsa.toml` first (a run killed after it can be resumed),
    /// then `spsa.csv` with its header and the start row, `games.csv` with its header, and `values.txt`.
    ///
    /// # Errors
    /// [`OutputError`] when a file exists already or cannot be written.
    pub fn create(dir: &Path, plan: &SpsaPlan) -> Result<SpsaFiles, OutputError> {
        let io = |path: &Path| {
            let path = path.display().to_string();
            move |reason: std::io::Error| OutputError::Io { path: path.clone(), reason }
        };
        let csv_error = |path: &Path| {
            let path = path.display().to_string();
            move |reason: csv::Error| OutputError::Csv { path: path.clone(), reason }
        };
        let toml_path = dir.join(SPSA_TOML);
        let text = toml::to_string(plan).map_err(|e| OutputError::Io {
            path: toml_path.display().to_string(),
            reason: std::io::Error::other(e.to_string()),
        })?;
        let header = format!(
            "# arbiter spsa: the run's plan (read by `arbiter spsa --resume`; do not edit)\n# written {}\n",
            timestamp(SystemTime::now())
        );
        replace_file(&toml_path, format!("{header}{text}").as_bytes())?;
        let spsa_path = dir.join(SPSA_CSV);
        let mut iterations = create_new_file(&spsa_path)?;
        let mut names: Vec<&str> = SPSA_COLUMNS.to_vec();
        names.extend(plan.params.iter().map(|p| p.name.as_str()));
        let mut head = csv_line(&names).map_err(csv_error(&spsa_path))?;
        head.extend(iteration_line(0, 0, None, &plan.start_values()).map_err(csv_error(&spsa_path))?);
        iterations.write_all(&head).and_then(|()| iterations.flush()).map_err(io(&spsa_path))?;
        let games_path = dir.join(GAMES_CSV);
        let mut games = create_new_file(&games_path)?;
        let line = csv_line(GAMES_HEADER).map_err(csv_error(&games_path))?;
        games.write_all(&line).and_then(|()| games.flush()).map_err(io(&games_path))?;
        let log = append_file(&dir.join(SPSA_LOG), true).ok();
        let files = SpsaFiles { dir: dir.to_path_buf(), games, iterations, log };
        files.write_values(plan, &plan.start_values(), 0, 0)?;
        Ok(files)
    }

    /// Opens the files of the run in `dir` for a resume and reads where it stands.
    ///
    /// # Errors
    /// [`SpsaRecordError`]: a file missing or unreadable, a header that is not this plan's, a row that does not
    /// read (file and line named).
    pub fn reopen(dir: &Path, plan: &SpsaPlan) -> Result<(SpsaFiles, Recorded), SpsaRecordError> {
        let spsa_path = dir.join(SPSA_CSV);
        let (iterations, spsa_text) = open_cut(&spsa_path)?;
        let (games_file, games_text) = open_cut(&dir.join(GAMES_CSV))?;
        let shown = spsa_path.display().to_string();
        let mut reader = csv::ReaderBuilder::new().has_headers(true).from_reader(spsa_text.as_bytes());
        let header = reader.headers().map_err(|reason| SpsaRecordError::Csv { place: shown.clone(), reason })?.clone();
        let mut expected: Vec<&str> = SPSA_COLUMNS.to_vec();
        expected.extend(plan.params.iter().map(|p| p.name.as_str()));
        if header.iter().collect::<Vec<_>>() != expected {
            return Err(bad(&shown, format!("the header is not this run's (expected {})", expected.join(","))));
        }
        let mut rows = Vec::new();
        for (index, record) in reader.records().enumerate() {
            let line = index + 2;
            let place = format!("{shown}:{line}");
            let record = record.map_err(|reason| SpsaRecordError::Csv { place: place.clone(), reason })?;
            let number = |i: usize| -> Result<f64, SpsaRecordError> {
                let text = record.get(i).unwrap_or("");
                text.parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite())
                    .ok_or_else(|| bad(&place, format!("column {}: {text:?} is not a number", i + 1)))
            };
            let iteration = record.get(0).and_then(|t| t.parse::<u64>().ok());
            if iteration != Some(index as u64) {
                return Err(bad(&place, format!("iteration {:?}, expected {index}", record.get(0).unwrap_or(""))));
            }
            if record.len() != expected.len() {
                return Err(bad(&place, format!("{} fields, expected {}", record.len(), expected.len())));
            }
            let games_after =
                record.get(1).and_then(|t| t.parse::<u64>().ok()).ok_or_else(|| bad(&place, "games is not a count"))?;
            let result = if index == 0 { None } else { Some(number(2)?) };
            let theta = (0..plan.params.len()).map(|i| number(SPSA_COLUMNS.len() + i)).collect::<Result<_, _>>()?;
            rows.push((games_after, result, theta));
        }
        if rows.is_empty() {
            return Err(bad(&shown, "no start row (iteration 0)"));
        }
        let done = rows.len() as u64 - 1;
        if done > plan.schedule.iterations {
            return Err(bad(&shown, format!("{done} iterations recorded, the plan has {}", plan.schedule.iterations)));
        }
        let games_shown = dir.join(GAMES_CSV).display().to_string();
        let mut reader = csv::ReaderBuilder::new().has_headers(true).from_reader(games_text.as_bytes());
        let header =
            reader.headers().map_err(|reason| SpsaRecordError::Csv { place: games_shown.clone(), reason })?.clone();
        if header.iter().collect::<Vec<_>>() != GAMES_HEADER {
            return Err(bad(&games_shown, format!("the header is not {}", GAMES_HEADER.join(","))));
        }
        let mut games = Vec::new();
        for (index, record) in reader.records().enumerate() {
            let line = index + 2;
            let place = format!("{games_shown}:{line}");
            let record = record.map_err(|reason| SpsaRecordError::Csv { place: place.clone(), reason })?;
            let row = game_row(&record).map_err(|problem| bad(&place, problem.0))?;
            if row.iteration == 0 || row.iteration > done + 1 {
                return Err(bad(&place, format!("iteration {} (spsa.csv has {done} finished)", row.iteration)));
            }
            if row.pair >= plan.games_per_iteration() / 2 {
                return Err(bad(&place, format!("pair {} is beyond the iteration's", row.pair)));
            }
            if games.iter().any(|g: &GameRow| g.iteration == row.iteration && g.game_number() == row.game_number()) {
                let problem =
                    format!("game {} of pair {} of iteration {} is recorded twice", row.game, row.pair, row.iteration);
                return Err(bad(&place, problem));
            }
            games.push(row);
        }
        let log = append_file(&dir.join(SPSA_LOG), true).ok();
        let games_file = games_file;
        Ok((SpsaFiles { dir: dir.to_path_buf(), games: games_file, iterations, log }, Recorded { rows, games }))
    }

    /// Appends one game to `games.csv` and flushes it.
    ///
    /// # Errors
    /// [`OutputError`] when it cannot be written.
    pub fn append_game(&mut self, row: &GameRow) -> Result<(), OutputError> {
        let path = self.dir.join(GAMES_CSV);
        let line = csv_line([
            row.iteration.to_string(),
            row.pair.to_string(),
            row.game.to_string(),
            row.opening.to_string(),
            row.white.clone(),
            row.black.clone(),
            row.result.pgn().to_string(),
            row.termination.clone(),
            row.plies.to_string(),
        ])
        .map_err(|reason| OutputError::Csv { path: path.display().to_string(), reason })?;
        self.games
            .write_all(&line)
            .and_then(|()| self.games.flush())
            .map_err(|reason| OutputError::Io { path: path.display().to_string(), reason })
    }

    /// Appends an iteration's row to `spsa.csv` (flushed), then rewrites `values.txt` and `tuned.toml`, and
    /// every 50 iterations the chart.
    ///
    /// # Errors
    /// [`OutputError`] when `spsa.csv` cannot be written (the other files only warn: they are views of it).
    pub fn append_iteration(&mut self, plan: &SpsaPlan, row: &IterationRow) -> Result<(), OutputError> {
        let path = self.dir.join(SPSA_CSV);
        let line = iteration_line(row.iteration, row.games, Some(row.result), &row.theta)
            .map_err(|reason| OutputError::Csv { path: path.display().to_string(), reason })?;
        self.iterations
            .write_all(&line)
            .and_then(|()| self.iterations.flush())
            .map_err(|reason| OutputError::Io { path: path.display().to_string(), reason })?;
        self.write_values(plan, &row.theta, row.iteration, row.games)?;
        if row.iteration.is_multiple_of(50) {
            let _ = self.write_chart(plan);
        }
        Ok(())
    }

    /// Appends `text` to `spsa.log` (with the time) and tells `observer`.
    pub fn log(&mut self, observer: &mut dyn SpsaObserver, text: &str) {
        observer.message(text);
        self.log_only(text);
    }

    /// Appends `text` to `spsa.log`, with the time.
    pub fn log_only(&mut self, text: &str) {
        if let Some(log) = &mut self.log {
            let _ = writeln!(log, "{} {text}", timestamp(SystemTime::now())).and_then(|()| log.flush());
        }
    }

    /// Writes `values.txt` (and `tuned.toml` for the built-in engine) for `theta` after `iteration`.
    ///
    /// # Errors
    /// [`OutputError`] when a file cannot be written.
    pub fn write_values(&self, plan: &SpsaPlan, theta: &[f64], iteration: u64, games: u64) -> Result<(), OutputError> {
        replace_file(&self.dir.join(VALUES_TXT), values_text(plan, theta, iteration, games).as_bytes())?;
        if let Some(toml) = tuned_toml(plan, theta) {
            replace_file(&self.dir.join(TUNED_TOML), toml.as_bytes())?;
        }
        Ok(())
    }

    /// Writes every view of the run after its last iteration: `values.txt`, `tuned.toml` and `spsa.svg`.
    ///
    /// # Errors
    /// The first file that cannot be written ([`SpsaRecordError`]).
    pub fn write_views(
        &self,
        plan: &SpsaPlan,
        theta: &[f64],
        iteration: u64,
        games: u64,
    ) -> Result<(), SpsaRecordError> {
        self.write_values(plan, theta, iteration, games)?;
        self.write_chart(plan)
    }

    /// Draws `spsa.svg` from `spsa.csv`.
    fn write_chart(&self, plan: &SpsaPlan) -> Result<(), SpsaRecordError> {
        let path = self.dir.join(SPSA_SVG);
        let csv_path = self.dir.join(SPSA_CSV);
        let text = std::fs::read_to_string(&csv_path)
            .map_err(|reason| SpsaRecordError::Io { path: csv_path.display().to_string(), reason })?;
        let svg = trajectory_svg(plan, &text).map_err(|error| match error {
            TrajectoryError::Chart(reason) => SpsaRecordError::Chart { path: path.display().to_string(), reason },
            TrajectoryError::Row(problem) => bad(csv_path.display(), problem),
        })?;
        Ok(replace_file(&path, svg.as_bytes())?)
    }
}

/// Opens `path` for appending after cutting a partial last line (no final newline: the process was killed
/// while writing it), and returns the file and its text up to there.
fn open_cut(path: &Path) -> Result<(File, String), SpsaRecordError> {
    let shown = path.display().to_string();
    let io = |reason: std::io::Error| SpsaRecordError::Io { path: shown.clone(), reason };
    let mut file = crate::runner::rundir::output::append_file(path, false)?;
    let mut read = std::fs::OpenOptions::new().read(true).open(path).map_err(io)?;
    let mut bytes = Vec::new();
    read.read_to_end(&mut bytes).map_err(io)?;
    let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    if keep < bytes.len() {
        let cut = std::fs::OpenOptions::new().write(true).open(path).map_err(io)?;
        cut.set_len(keep as u64)
            .map_err(|e| io(std::io::Error::new(e.kind(), format!("cannot cut the partial last line: {e}"))))?;
        bytes.truncate(keep);
    }
    file.seek(SeekFrom::End(0)).map_err(io)?;
    let text = String::from_utf8(bytes).map_err(|_| bad(&shown, "not UTF-8 text"))?;
    Ok((file, text))
}

/// The games of a `games.csv` (another shard's, maybe being written): complete lines that read, others skipped.
pub fn read_games_lenient(path: &Path) -> Vec<GameRow> {
    let Ok(bytes) = std::fs::read(path) else { return Vec::new() };
    let end = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let mut reader = csv::ReaderBuilder::new().has_headers(true).from_reader(&bytes[..end]);
    reader.records().flatten().filter_map(|record| game_row(&record).ok()).collect()
}

/// Reads a `games.csv` record; the error is what is wrong with it (the caller names the file and line).
fn game_row(record: &csv::StringRecord) -> Result<GameRow, RowProblem> {
    if record.len() != GAMES_HEADER.len() {
        return Err(RowProblem(format!("{} fields, expected {}", record.len(), GAMES_HEADER.len())));
    }
    let count = |i: usize| {
        record[i]
            .parse::<u64>()
            .map_err(|_| RowProblem(format!("{}: {:?} is not a count", GAMES_HEADER[i], &record[i])))
    };
    let game = match &record[2] {
        "0" => 0,
        "1" => 1,
        other => return Err(RowProblem(format!("game: {other:?} is not 0 or 1"))),
    };
    let result = GameResult::from_pgn(&record[6])
        .ok_or_else(|| RowProblem(format!("result: {:?} is not 1-0, 0-1 or 1/2-1/2", &record[6])))?;
    Ok(GameRow {
        iteration: count(0)?,
        pair: count(1)?,
        game,
        opening: count(3)?,
        white: record[4].to_string(),
        black: record[5].to_string(),
        result,
        termination: record[7].to_string(),
        plies: count(8)?,
    })
}

/// `values.txt`: the values after `iteration` as UCI `setoption` lines, then as OpenBench's `name, value` lines
/// (its `spsa_optimal_values` paste-back form), `int` parameters rounded.
pub fn values_text(plan: &SpsaPlan, theta: &[f64], iteration: u64, games: u64) -> String {
    let mut out = format!(
        "# arbiter spsa: values after iteration {iteration} of {} ({games} games)\n# UCI\n",
        plan.schedule.iterations
    );
    for ((param, name), &value) in plan.params.iter().zip(&plan.names).zip(theta) {
        out.push_str(&format!("setoption name {name} value {}\n", shown_value(param, value)));
    }
    out.push_str("# OpenBench (name, value)\n");
    for (param, &value) in plan.params.iter().zip(theta) {
        out.push_str(&format!("{}, {}\n", param.name, shown_value(param, value)));
    }
    out
}

/// `tuned.toml` for a built-in tuned engine: its build with the values (rounded); `None` for an external one.
pub fn tuned_toml(plan: &SpsaPlan, theta: &[f64]) -> Option<String> {
    let (plus, _) = plan.sides();
    let engine = plan.plan.engines.get(plus)?.load(plan.plan.game).ok()?;
    if !matches!(engine.kind, EngineKind::Builtin(Build::Chess(_))) {
        return None;
    }
    let base = engine.name.trim_end_matches('+').to_string();
    let tuned = super::run::with_values(&engine, &format!("{base}-spsa"), &plan.params, &plan.names, theta).ok()?;
    match tuned.kind {
        EngineKind::Builtin(Build::Chess(config)) => Some(format!(
            "# arbiter spsa: {base} with the values of {} (values.txt)\n{}",
            plan.params_file,
            config.to_toml()
        )),
        _ => None,
    }
}

/// What is wrong with a `games.csv` row, in words.
#[derive(Debug)]
struct RowProblem(String);

/// Why the trajectory chart cannot be drawn.
#[derive(Debug, thiserror::Error)]
pub enum TrajectoryError {
    /// A row of `spsa.csv` that does not read.
    #[error("{0}")]
    Row(String),
    /// plotters' error.
    #[error(transparent)]
    Chart(#[from] crate::svg_chart::ChartError),
}

/// The chart of each parameter's value after each iteration, normalised to `(value - min) / (max - min)`,
/// from `spsa.csv` text.
///
/// # Errors
/// [`TrajectoryError`]: plotters' error, or a row that does not read.
pub fn trajectory_svg(plan: &SpsaPlan, csv_text: &str) -> Result<String, TrajectoryError> {
    let mut reader = csv::ReaderBuilder::new().has_headers(true).from_reader(csv_text.as_bytes());
    let mut lines: Vec<Vec<(f64, f64)>> = vec![Vec::new(); plan.params.len()];
    let mut last = 1.0f64;
    for record in reader.records() {
        let record = record.map_err(|e| TrajectoryError::Row(e.to_string()))?;
        let iteration: f64 = record
            .get(0)
            .and_then(|t| t.parse().ok())
            .ok_or_else(|| TrajectoryError::Row("a row without its iteration".to_string()))?;
        last = last.max(iteration);
        for (i, param) in plan.params.iter().enumerate() {
            if let Some(value) = record.get(SPSA_COLUMNS.len() + i).and_then(|t| t.parse::<f64>().ok()) {
                lines[i].push((iteration, (value - param.min) / (param.max - param.min)));
            }
        }
    }
    let lines = lines
        .into_iter()
        .zip(&plan.params)
        .enumerate()
        .map(|(i, (points, param))| {
            let color = Palette99::COLORS[i % Palette99::COLORS.len()];
            Line::new(points, RGBColor(color.0, color.1, color.2), param.name.clone())
        })
        .collect();
    LineChart {
        size: (900, 500),
        caption: format!("SPSA: {} parameters, {} iterations", plan.params.len(), plan.schedule.iterations),
        x: 0.0..last,
        y: 0.0..1.0,
        x_desc: "iteration".into(),
        y_desc: "(value - min) / (max - min)".into(),
        y_decimals: Some(2),
        y_label_area: 60,
        legend: SeriesLabelPosition::UpperRight,
        band: None,
        lines,
    }
    .svg()
    .map_err(TrajectoryError::from)
}

/// One SPSA run folder (or shard) as `arbiter status` shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaFolderStatus {
    /// The folder's name.
    pub folder: String,
    /// Iterations finished (rows of `spsa.csv` after the start row).
    pub done: u64,
    /// Games in its `games.csv`.
    pub games: u64,
    /// The values after its last finished iteration, as `spsa.csv` holds them.
    pub theta: Vec<f64>,
}

/// The status of the SPSA run in `dir`: one run folder, or the folder holding its shard folders. Returns the plan
/// (of the first folder found) and each folder's progress; `None` when `dir` holds no SPSA run.
pub fn spsa_status(dir: &Path) -> Option<(SpsaPlan, Vec<SpsaFolderStatus>)> {
    let mut folders: Vec<PathBuf> = if dir.join(SPSA_TOML).is_file() {
        vec![dir.to_path_buf()]
    } else {
        std::fs::read_dir(dir).ok()?.flatten().map(|e| e.path()).filter(|p| p.join(SPSA_TOML).is_file()).collect()
    };
    folders.sort();
    let plan = read_plan(folders.first()?).ok()?;
    let statuses = folders
        .iter()
        .map(|folder| {
            let text = std::fs::read_to_string(folder.join(SPSA_CSV)).unwrap_or_default();
            let complete = &text[..text.rfind('\n').map_or(0, |i| i + 1)];
            let last: Vec<f64> = complete
                .lines()
                .last()
                .map(|line| line.split(',').skip(SPSA_COLUMNS.len()).filter_map(|v| v.parse().ok()).collect())
                .unwrap_or_default();
            SpsaFolderStatus {
                folder: folder.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
                done: complete.lines().count().saturating_sub(2) as u64,
                games: read_games_lenient(&folder.join(GAMES_CSV)).len() as u64,
                theta: last,
            }
        })
        .collect();
    Some((plan, statuses))
}
