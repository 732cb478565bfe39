//! Running a planned match in its run folder: [`run`] starts the match of a [`MatchPlan`],
//! [`resume`](crate::runner::rundir::resume::resume) goes on with the run of a folder's `run.toml`. Both lock the folder, play through the scheduler with a
//! [`RunObserver`] told of each game (the caller shows progress), append every event to `match.log`, and write
//! the summary and the charts at the end; neither reads the command line nor changes the working directory.
//!
//! Before the first game the run folder gets `run.toml` ([`RunFile`]): the plan and the schedule fingerprint.
//! [`resume`](crate::runner::rundir::resume::resume) reads it back, rebuilds the match from the plan, refuses a changed schedule, checks every recorded
//! game as merge does and drops the damaged ones, keeping a copy ([`read_run`](crate::runner::rundir::read::read_run) with [`Strictness::Salvage`](crate::runner::rundir::read::Strictness::Salvage)), and plays the games of the
//! schedule not yet recorded.

use super::game::{EndReason, GameRecord};
use super::plan::{MatchPlan, PlanError, check_hash_memory, physical_memory_mib};
use super::report::charts::{ChartError, write_run_charts};
use super::report::formats::{ReportFormat, report_in, score_line};
use super::report::summary::{summary_text, write_summary};
use super::rundir::cluster::{CHECK_EVERY, DECISION_FILE, Decision, RunView, SharedSprt};
use super::rundir::lock::{LockError, lock_run};
use super::rundir::output::{
    OutputError, RUN_TOML, ResultSink, append_file, create_out_dir, create_run_dir, timestamp,
};
use super::rundir::record_error::RecordError;
use super::rundir::runfile::{Fingerprint, RunFile, RunFileError};
use super::scheduler::{GamePair, MatchLength, MatchObserver, MatchSpec, MatchState, SprtVerdict, run_match_from};
use crate::game::Game;
use crate::game::GameResult;
use crate::games::GameKind;
use crate::player::bench::DEFAULT_BENCH_TIMEOUT_S;
use crate::player::{BenchError, PlayerError};
use crate::stats::SprtOutcome;
use std::collections::HashSet;
use std::fs::File;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::SystemTime;
use thiserror::Error;

/// The file of a run folder that lists the process groups of the engines playing it, while the run plays
/// (see [`crate::uci::group::record_groups_in`]); a resume after a `kill -9` ends the groups it lists.
pub const ENGINE_GROUPS_FILE: &str = "engines.pgid";

/// What the caller of [`run`] or [`resume`](crate::runner::rundir::resume::resume) is told while the match plays.
pub trait RunObserver {
    /// A line for the user (the match's setup, a repair, a warning), not logged.
    fn note(&mut self, text: &str);
    /// Called once before the first game of this session.
    fn started(&mut self, start: &RunStart);
    /// Called after each game is written and counted; `report` holds the reports (cutechess-cli and
    /// fastchess lines, [`report_in`]) every `rating_interval` games of the plan.
    fn game_finished(&mut self, state: &MatchState, report: Option<&str>);
    /// An event of the match (a player failure, an SPRT decision), already appended to `match.log`.
    fn message(&mut self, text: &str);
    /// Called once after the last game, before the summary is written.
    fn finished(&mut self);
    /// A game is about to be played (`ended` is `None`): cutechess-cli's `Started game N of M (A vs B)`.
    /// Default: nothing.
    fn game_started(&mut self, _game: &GameLine) {}
    /// A game was written and counted (called just before [`RunObserver::game_finished`]): cutechess-cli's
    /// `Finished game N (A vs B): 1-0 {White mates}`. Default: nothing.
    fn game_ended(&mut self, _game: &GameLine) {}
}

/// One game of a run as the per-game lines of cutechess-cli and fastchess show it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameLine {
    /// The 1-based match-wide number: the games of the k-th pair (0-based) are 2k+1 and 2k+2.
    pub number: u64,
    /// The games the match plays at most.
    pub total: u64,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The result and why the game ended, once it ended.
    pub ended: Option<(GameResult, EndReason)>,
    /// Once it ended, in a two-engine match: cutechess-cli's score line after it (`Score of A vs B: ...`).
    pub score_line: Option<String>,
}

/// What a session of a match plays, for a progress display.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunStart {
    /// The games the match plays at most (this shard's part).
    pub games_total: u64,
    /// The games already recorded (by an earlier session).
    pub games_done: u64,
    /// Whether the match plays until its SPRT decides.
    pub until_decided: bool,
    /// Whether the match has two engines (one pairing).
    pub two_engines: bool,
}
/// How a resume may differ from the recorded plan: what does not change the schedule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ResumeOverrides {
    /// Games played at once, when given.
    pub concurrency: Option<u32>,
    /// Restart failed players and go on.
    pub recover: bool,
}

/// The end of a session of a match.
#[derive(Debug)]
pub enum RunEnd {
    /// Interrupted before the match started: nothing was written.
    NotStarted,
    /// The match played (to its end, its SPRT's decision, an interrupt or a failure: see the state).
    Played(Box<MatchRun>),
}

/// A match session that played: its folder, its final state and summary.
#[derive(Debug)]
pub struct MatchRun {
    /// The run folder.
    pub dir: PathBuf,
    /// The state at the end (`failure`, `halted` and `interrupted` say why it stopped early).
    pub state: MatchState,
    /// The summary text, as written to `summary.txt`.
    pub summary: String,
    /// The final report in the plan's report format ([`ReportFormat`]).
    pub report: String,
    /// The summary as `summary.json` holds it: every figure at full precision.
    pub json: serde_json::Value,
    /// The charts written (a failure to draw them loses nothing).
    pub charts: Result<Vec<PathBuf>, ChartError>,
}

/// Why a match cannot be run or resumed. The messages name values, not flags: the command line adds `--engine`
/// to an engine's failure and `--resume` to a folder's.
#[derive(Debug, Error)]
pub enum RunError {
    /// The plan is not playable.
    #[error(transparent)]
    Plan(#[from] PlanError),
    /// An engine cannot be started.
    #[error("{0}")]
    Engine(PlayerError),
    /// An engine's bench signature is not its `bench=` (or its bench gave none): the match is refused.
    #[error("{0}; the match is refused")]
    Bench(BenchError),
    /// A result file or the run folder cannot be created or written.
    #[error(transparent)]
    Output(#[from] OutputError),
    /// `run.toml` cannot be written.
    #[error(transparent)]
    RunFile(#[from] RunFileError),
    /// The run folder cannot be locked: another arbiter process plays it, or its lock file cannot be opened.
    #[error(transparent)]
    Lock(#[from] LockError),
    /// The folder given to resume does not exist.
    #[error("{shown}: {reason} (expected the folder of an earlier run, holding run.toml)")]
    NotARun {
        /// The folder as given.
        shown: String,
        /// The operating-system error.
        reason: std::io::Error,
    },
    /// The folder's `run.toml` cannot be read.
    #[error("{shown}: {source}{}", resume_hint(.source))]
    Resume {
        /// The folder as given.
        shown: String,
        /// Why.
        source: RunFileError,
    },
    /// The schedule changed since the run started.
    #[error(
        "{shown}: {changed} changed since the run started (fingerprint {recorded} in run.toml, {now} now); refusing to resume a different schedule: restore them, or start a new run"
    )]
    Changed {
        /// The folder as given.
        shown: String,
        /// What changed, in words.
        changed: String,
        /// The recorded fingerprint.
        recorded: String,
        /// The fingerprint now.
        now: String,
    },
    /// The recorded games cannot be read or repaired.
    #[error(transparent)]
    Records(#[from] RecordError),
    /// A summary of an earlier session cannot be removed.
    #[error("{path}: cannot remove: {reason}")]
    Remove {
        /// The file.
        path: String,
        /// The operating-system error.
        reason: std::io::Error,
    },
    /// The summary cannot be written.
    #[error(transparent)]
    Summary(OutputError),
}

/// The hint after an unreadable `run.toml` of a resume: none for one of an older arbiter (its message says what
/// to do).
pub(crate) fn resume_hint(error: &RunFileError) -> &'static str {
    match error {
        RunFileError::Old { .. } => "",
        _ => " (a run folder holds run.toml from its first moment; is this one?)",
    }
}

impl RunError {
    /// Whether the error is the user's input (a plan, a folder or files to fix) rather than a failure of the
    /// system (a disk error): the command line exits 2 for the first.
    pub fn is_input(&self) -> bool {
        match self {
            RunError::Output(error)
            | RunError::RunFile(RunFileError::Write(error))
            | RunError::Lock(LockError::Open(error)) => error.is_input(),
            RunError::Records(error) => !matches!(error, RecordError::Write(_)),
            RunError::Remove { .. } | RunError::Summary(_) => false,
            RunError::Bench(error) => error.is_input(),
            _ => true,
        }
    }
}

/// Plays the match of `plan` into a new run folder (its `out`, or a new `results/NAME-N`), telling `observer`
/// as it goes; `interrupt` (set by Ctrl-C) stops it: no new pair starts, the games in play are written, and
/// the summary is written from the games recorded.
///
/// # Errors
/// A [`RunError`] before the first game (a plan that is not playable, an engine that does not start, a
/// folder that holds results or cannot be created); after it, a summary that cannot be written.
pub fn run(plan: &MatchPlan, observer: &mut dyn RunObserver, interrupt: &AtomicBool) -> Result<RunEnd, RunError> {
    plan.validate()?;
    if plan.tournament == super::Tournament::Knockout {
        let problem = ": a knockout is played round by round (runner::knockout::run_knockout)".to_string();
        return Err(PlanError::Invalid { field: super::plan::PlanField::Engines, problem }.into());
    }
    match plan.game {
        GameKind::Xiangqi => start::<crate::xiangqi::XiangqiGame>(plan, observer, interrupt),
        GameKind::Chess => start::<crate::chess::ChessGame>(plan, observer, interrupt),
        game @ (GameKind::Russian | GameKind::English) => {
            Err(PlanError::Game(crate::games::Unplayable { game, command: "match" }).into())
        }
    }
}

/// Builds the match of `plan` in the game `G`: the spec, the hash budget, every `bench=` signature checked
/// ([`EngineSpec::check_bench`](crate::player::EngineSpec::check_bench)), and every engine started once (before
/// any file is written, so that a failing one leaves nothing behind).
pub(crate) fn prepare<G: Game>(plan: &MatchPlan, observer: &mut dyn RunObserver) -> Result<MatchSpec<G>, RunError> {
    let spec = plan.spec::<G>()?;
    check_hash_memory(&spec, physical_memory_mib())?;
    for engine in &spec.engines {
        if let Some(result) =
            engine.check_bench(std::time::Duration::from_secs(DEFAULT_BENCH_TIMEOUT_S)).map_err(RunError::Bench)?
        {
            observer
                .note(&format!("bench: {}: signature {} as expected ({} nps)", engine.name, result.nodes, result.nps));
        }
    }
    for engine in &spec.engines {
        let player = engine.create::<G>().map_err(RunError::Engine)?;
        for warning in player.warnings() {
            observer.note(&format!("warning: {warning}"));
        }
    }
    Ok(spec)
}

/// Creates the folder of a new run of `plan`: its `out` (which must not hold results), or a new
/// `results/NAME-N` (NAME the run's name, else the time).
///
/// # Errors
/// [`OutputError`] for a folder that holds results or cannot be created.
pub fn new_run_dir(plan: &MatchPlan) -> Result<PathBuf, OutputError> {
    match &plan.output.out {
        Some(dir) => {
            create_out_dir(dir)?;
            Ok(dir.clone())
        }
        None => {
            let stem = plan.output.name.clone().unwrap_or_else(|| timestamp(SystemTime::now()));
            create_run_dir(&plan.output.results, &stem)
        }
    }
}

/// Starts the new match of `plan` in the game `G`.
fn start<G: Game>(
    plan: &MatchPlan,
    observer: &mut dyn RunObserver,
    interrupt: &AtomicBool,
) -> Result<RunEnd, RunError> {
    let spec = prepare::<G>(plan, observer)?;
    if interrupt.load(Ordering::SeqCst) {
        return Ok(RunEnd::NotStarted);
    }
    let dir = new_run_dir(plan)?;
    // The lock first, then the folder checked again under it: of two matches started on one folder at once,
    // one holds the lock and the other is refused (in use), or finds the first one's run.toml (exists).
    let lock = lock_run(&dir, &mut |warning| observer.note(warning))?;
    create_out_dir(&dir)?;
    // run.toml next: a run killed at any moment after this can be resumed.
    let mut recorded = plan.clone();
    recorded.output.out = Some(dir.clone());
    RunFile::new(recorded, &Fingerprint::of(&spec)).write(&dir.join(RUN_TOML))?;
    let mut sink = ResultSink::create(&dir, &plan.output.event())?;
    sink.configure(&plan.output)?;
    sink.set_time_controls(&plan.engines);
    let state = MatchState::new(spec.schedule());
    play(&spec, plan, &dir, sink, state, &HashSet::new(), observer, interrupt, lock)
}

/// Plays what is left of the match of `spec` into `dir` (see [`run_match_from`]), then writes the summary and
/// the charts. `_lock` is held until the match ends.
#[allow(clippy::too_many_arguments)]
pub(crate) fn play<G: Game>(
    spec: &MatchSpec<G>,
    plan: &MatchPlan,
    dir: &Path,
    mut sink: ResultSink,
    state: MatchState,
    done: &HashSet<u64>,
    observer: &mut dyn RunObserver,
    interrupt: &AtomicBool,
    _lock: Option<File>,
) -> Result<RunEnd, RunError> {
    observer.note(&format!(
        "arbiter match: {} on {} openings from {}, concurrency {}, results in {}",
        spec.engines.iter().map(|e| format!("{} ({})", e.name, e.limit)).collect::<Vec<_>>().join(" vs "),
        spec.openings.len(),
        spec.openings_source,
        spec.concurrency,
        dir.display()
    ));
    if let Some(scale) = &plan.tc_scale {
        observer.note(&format!(
            "arbiter match: time controls scaled by {:.4} (reference {} nps / {} nps measured by the bench of {} \
             when the run started); limits before scaling: {}",
            scale.factor,
            scale.reference_nps,
            scale.measured_nps,
            scale.engine,
            scale.unscaled.join(" vs ")
        ));
    }
    if let Some(tb) = &spec.settings.tablebase {
        let (wdl, dtz) = tb.tables().counts();
        observer.note(&format!(
            "arbiter match: tablebase adjudication up to {} pieces from {} ({wdl} WDL and {dtz} DTZ tables)",
            tb.pieces(),
            tb.tables().shown()
        ));
    }
    if let Some(shard) = spec.shard {
        let sprt = if spec.sprt.is_some() { "; the SPRT is taken over all the shards together" } else { "" };
        observer.note(&format!(
            "arbiter match: shard {shard}: {} of the schedule's {} pairs{sprt}; merge the shards with `arbiter merge`",
            state.schedule.planned_pairs(),
            state.schedule.total_pairs
        ));
    }
    // Engines an earlier session of this run left running (it was killed with -9) are ended; this session's
    // are listed for the next one.
    let group_file = dir.join(ENGINE_GROUPS_FILE);
    let ended = crate::uci::group::end_recorded_groups(&group_file);
    if !ended.is_empty() {
        observer.note(&format!(
            "arbiter match: ended {} engine process group(s) an earlier session of this run left running: {ended:?}",
            ended.len()
        ));
    }
    if let Err(error) = crate::uci::group::record_groups_in(Some(&group_file)) {
        observer.note(&format!("warning: {}: cannot write: {error}", group_file.display()));
    }
    let mut state = state;
    let mut shared = shared_sprt(spec, dir);
    if let Some(watch) = &mut shared {
        let (found, warnings) = watch.poll(true);
        for warning in warnings {
            observer.note(&format!("warning: the shared SPRT: {warning}"));
        }
        match found {
            Some(decision) => {
                observer.note(&format!(
                    "arbiter match: the run's SPRT already decided ({}: {}); nothing to play",
                    dir.parent().unwrap_or(dir).join(DECISION_FILE).display(),
                    decision.line()
                ));
                state.verdict = Some(verdict_of(&decision));
            }
            None => observer.note(&format!(
                "arbiter match: shard {}: the SPRT is taken over every shard's pairs in {} (checked after each pair \
                 and every {} s); its decision stops every shard",
                spec.shard.map(|s| s.to_string()).unwrap_or_default(),
                dir.parent().unwrap_or(dir).display(),
                CHECK_EVERY.as_secs()
            )),
        }
    }
    let mut logged = Logged::new(observer, spec, &state, plan.output.rating_interval, dir);
    logged.shared = shared;
    let format = plan.output.reports;
    logged.format = format;
    let state = run_match_from(spec, state, done, &mut sink, &mut logged, interrupt);
    if let Some((failed, Some(first))) = spec.settings.tablebase.as_ref().map(|tb| tb.tables().failed_probes()) {
        logged.observer.note(&format!(
            "warning: {failed} tablebase probes failed and those games played on; the first: {first}; check the \
             tables with `arbiter tb --path {} --verify`",
            spec.settings.tablebase.as_ref().map_or("", |tb| tb.tables().shown())
        ));
    }
    logged.observer.finished();
    let _ = crate::uci::group::record_groups_in(None);

    write_summary(dir, spec, &state).map_err(RunError::Summary)?;
    let summary = summary_text(spec, &state);
    let report = report_in(format, spec, &state);
    let json = super::report::summary::summary_json(spec, &state);
    let charts = write_run_charts(dir, &spec.engines[0].name, spec.sprt.as_ref());
    Ok(RunEnd::Played(Box::new(MatchRun { dir: dir.to_path_buf(), state, summary, report, json, charts })))
}

/// The shared SPRT of a shard of a run with an SPRT (`--shard` and `--sprt`): the shards are the sibling folders
/// of `dir`; `None` for any other match.
fn shared_sprt<G: Game>(spec: &MatchSpec<G>, dir: &Path) -> Option<SharedSprt> {
    let (shard, sprt) = (spec.shard?, spec.sprt?);
    let parent = dir.parent()?;
    let fingerprint = super::rundir::runfile::hex(Fingerprint::of(spec).total());
    let own = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let view = RunView::new(parent, &fingerprint, shard.count(), &spec.engines[0].name).with_own(&own);
    Some(SharedSprt::new(view, sprt, shard.index()))
}

/// The scheduler's verdict of a run's shared decision.
pub fn verdict_of(decision: &Decision) -> SprtVerdict {
    let outcome = SprtOutcome {
        llr: decision.llr,
        lower: decision.lower,
        upper: decision.upper,
        decision: decision.sprt_decision(),
        approximate: false,
    };
    SprtVerdict { decision: decision.sprt_decision(), outcome, pairs: decision.pairs }
}

/// The scheduler's observer of a run: appends every message to `match.log` and hands the games and messages
/// on to the caller's [`RunObserver`], with the reports every `interval` games (0: never).
struct Logged<'a, 'o, G: Game> {
    observer: &'o mut dyn RunObserver,
    spec: &'a MatchSpec<G>,
    interval: u64,
    /// The format of the reports.
    format: ReportFormat,
    /// `match.log` in the run folder: every message (engine failures with their last lines, SPRT decisions),
    /// appended and flushed as it comes; `None` if it cannot be opened (messages still go to the observer).
    log: Option<File>,
    /// The shared SPRT of a shard of a run with an SPRT.
    shared: Option<SharedSprt>,
}

impl<'a, 'o, G: Game> Logged<'a, 'o, G> {
    /// Opens `dir/match.log` and tells `observer` what this session plays.
    fn new(
        observer: &'o mut dyn RunObserver,
        spec: &'a MatchSpec<G>,
        state: &MatchState,
        interval: u64,
        dir: &Path,
    ) -> Logged<'a, 'o, G> {
        let path = dir.join(super::rundir::output::LOG_FILE);
        let log = match append_file(&path, true) {
            Ok(file) => Some(file),
            Err(error) => {
                observer.note(&format!("warning: {}: cannot open the log: {error}", path.display()));
                None
            }
        };
        observer.started(&RunStart {
            games_total: state.games_total(),
            games_done: state.tally.games,
            until_decided: spec.length == MatchLength::UntilDecided,
            two_engines: spec.engines.len() == 2,
        });
        Logged { observer, spec, interval, format: ReportFormat::Both, log, shared: None }
    }
}

impl<G: Game> MatchObserver<G> for Logged<'_, '_, G> {
    fn game_started(&mut self, pair: &GamePair, game: u8, state: &MatchState) {
        let (white, black) = pair.colours(game);
        self.observer.game_started(&GameLine {
            number: pair.game_number(game) + 1,
            total: state.games_total(),
            white: self.spec.engines[white].name.clone(),
            black: self.spec.engines[black].name.clone(),
            ended: None,
            score_line: None,
        });
    }

    fn game_finished(&mut self, record: &GameRecord<G>, pair: &GamePair, game: u8, state: &MatchState) {
        self.observer.game_ended(&GameLine {
            number: pair.game_number(game) + 1,
            total: state.games_total(),
            white: record.white.clone(),
            black: record.black.clone(),
            ended: Some((record.result, record.end)),
            score_line: score_line(self.spec, state),
        });
        let report = (self.interval > 0 && state.tally.games.is_multiple_of(self.interval))
            .then(|| report_in(self.format, self.spec, state));
        self.observer.game_finished(state, report.as_deref());
    }

    fn poll_verdict(&mut self, _state: &MatchState, game_recorded: bool) -> Option<SprtVerdict> {
        let watch = self.shared.as_mut()?;
        let (decision, warnings) = watch.poll(game_recorded);
        for warning in warnings {
            self.message(&format!("warning: the shared SPRT: {warning}"));
        }
        decision.as_ref().map(verdict_of)
    }

    fn message(&mut self, text: &str) {
        self.observer.message(text);
        if let Some(log) = &mut self.log {
            let stamp = timestamp(SystemTime::now());
            let _ = writeln!(log, "{stamp} {text}").and_then(|()| log.flush());
        }
    }
}
