//! Running an SPSA plan in its run folder: [`start`] begins a run, [`resume`] goes on with the run of a folder's
//! `spsa.toml`. Each iteration is a small match played by the runner's scheduler
//! ([`run_match_from`]) between the plus and minus values of the tuned engine (or each of them against a fixed
//! opponent), with the match's openings, limits, adjudication and concurrency; its games are appended to
//! `games.csv` as they end, and once all of them are in, the update is applied and one row appended to
//! `spsa.csv`.
//!
//! Nothing is counted twice or lost: an iteration counts only once its last game is recorded, and a resume
//! keeps the games of the unfinished iteration already in `games.csv` and plays only the others (the flips and
//! the openings of an iteration depend on the seed and its number only, so they are the same as before).

use super::gains::{Draws, Schedule, perturb, shown_value, update};
use super::output::{self, GAMES_CSV, GameRow, IterationRow, Recorded, SPSA_CSV, SpsaFiles, SpsaRecordError};
use super::params::{OptionInfo, Param, uci_options};
use crate::chess;
use crate::engine::Build;
use crate::engine::chess::Weights;
use crate::game::GameResult;
use crate::player::{EngineKind, EngineSpec};
use crate::runner::game::GameRecord;
use crate::runner::plan::{EngineBuild, MatchPlan, PlanError};
use crate::runner::run::{ENGINE_GROUPS_FILE, RunError, RunObserver, RunStart, prepare};
use crate::runner::rundir::lock::{LockError, lock_run};
use crate::runner::rundir::output::{OutputError, create_out_dir, create_run_dir, timestamp};
use crate::runner::scheduler::{GamePair, GameSink, MatchObserver, MatchSpec, MatchState, run_match_from};
use crate::runner::{MatchLength, Tournament};
use crate::uci::process::EngineProcess;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashSet};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Instant, SystemTime};
use thiserror::Error;

/// The format version of `spsa.toml`.
pub const SPSA_FORMAT: u32 = 1;

/// Everything that defines an SPSA run: stored in `spsa.toml`, read back by [`resume`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpsaPlan {
    /// [`SPSA_FORMAT`].
    pub format: u32,
    /// The parameter file as the user named it.
    pub params_file: String,
    /// The parameters, as read from it.
    pub params: Vec<Param>,
    /// Each parameter's name as the engine spells it (the option it lists, or the built-in weight's name).
    pub names: Vec<String>,
    /// The gain schedule.
    pub schedule: Schedule,
    /// Game pairs per iteration (per side against a fixed opponent).
    pub pairs_per_iteration: u64,
    /// The match every iteration plays: its engines are the plus and minus sides (`NAME+`, `NAME-`) of the
    /// tuned engine at its start values, after the fixed opponent when there is one; its openings, limits,
    /// adjudication, seed (also the seed of the flips), concurrency and output.
    #[serde(rename = "match")]
    pub plan: MatchPlan,
    /// [`SpsaPlan::fingerprint`] of the plan as the run started, written into `spsa.toml`: a resume refuses a plan
    /// edited since (its limits or schedule would change in mid-run).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fingerprint: Option<String>,
}

impl SpsaPlan {
    /// A digest of the plan (without its `fingerprint` field): FNV-1a of its canonical JSON, as 16 hex digits.
    pub fn fingerprint(&self) -> String {
        let mut plan = self.clone();
        plan.fingerprint = None;
        let json = crate::runner::plan::canonical_json(&plan);
        format!("{:016x}", crate::game::keys::fnv1a(json.as_bytes()))
    }

    /// Whether the run plays against a fixed opponent (the match's first engine).
    pub fn has_opponent(&self) -> bool {
        self.plan.engines.len() == 3
    }

    /// The indices of the plus and minus sides in the match's engines.
    pub fn sides(&self) -> (usize, usize) {
        if self.has_opponent() { (1, 2) } else { (0, 1) }
    }

    /// The games of one iteration: two per pair, per side against an opponent.
    pub fn games_per_iteration(&self) -> u64 {
        let sides = if self.has_opponent() { 2 } else { 1 };
        2 * self.pairs_per_iteration * sides
    }

    /// The start values.
    pub fn start_values(&self) -> Vec<f64> {
        self.params.iter().map(|p| p.start).collect()
    }

    /// The match plan of an iteration's match, built from the tuned engine (`tuned`, already carrying its
    /// limits) and the optional `opponent`: the plus and minus sides named `NAME+` and `NAME-`, a round robin
    /// (of the two) or a gauntlet led by the opponent, `pairs` pairs per pairing.
    pub fn match_engines(
        tuned: &crate::runner::plan::EnginePlan,
        opponent: Option<&crate::runner::plan::EnginePlan>,
    ) -> (Vec<crate::runner::plan::EnginePlan>, Tournament) {
        let side = |suffix: &str| {
            let mut plan = tuned.clone();
            plan.name = format!("{}{suffix}", tuned.name);
            if plan.build == (EngineBuild::Builtin { build: None }) {
                plan.build = EngineBuild::Builtin { build: Some(tuned.name.clone()) };
            }
            plan
        };
        match opponent {
            Some(opponent) => (vec![opponent.clone(), side("+"), side("-")], Tournament::Gauntlet),
            None => (vec![side("+"), side("-")], Tournament::RoundRobin),
        }
    }
}

/// Why an SPSA run cannot be started, resumed or go on.
#[derive(Debug, Error)]
pub enum SpsaError {
    /// The match of the run is not playable, or an engine does not start.
    #[error(transparent)]
    Run(#[from] RunError),
    /// The plan is not playable.
    #[error(transparent)]
    Plan(#[from] PlanError),
    /// A file of the run folder cannot be created or written.
    #[error(transparent)]
    Output(#[from] OutputError),
    /// The run folder is locked by another process, or its lock file cannot be opened.
    #[error(transparent)]
    Lock(#[from] LockError),
    /// The folder given to resume is not a folder.
    #[error("{dir}: not a folder (expected the folder of an earlier `arbiter spsa` run)")]
    NotAFolder {
        /// The folder as given.
        dir: String,
    },
    /// The folder given to resume holds no readable SPSA run, or its record disagrees with itself.
    #[error("{dir}: {reason}")]
    Resume {
        /// The folder as given.
        dir: String,
        /// Why.
        reason: Box<SpsaRecordError>,
    },
    /// A parameter's value cannot be given to the engine.
    #[error("{0}")]
    Engine(String),
}

impl SpsaError {
    /// Whether the error is the user's input (exit 2) rather than a failure of the system.
    pub fn is_input(&self) -> bool {
        match self {
            SpsaError::Run(error) => error.is_input(),
            SpsaError::Output(error) => error.is_input(),
            SpsaError::Lock(LockError::Open(error)) => error.is_input(),
            SpsaError::Resume { reason, .. } => !reason.is_system(),
            _ => true,
        }
    }
}

/// What the caller of [`start`] or [`resume`] is told while the run plays.
pub trait SpsaObserver {
    /// A line for the user (the setup, a warning).
    fn note(&mut self, text: &str);
    /// Before the first game of this session: the iterations of the run, those already done, the games per
    /// iteration and the games of the current iteration already recorded.
    fn started(&mut self, plan: &SpsaPlan, done: u64, games_recorded: u64);
    /// After each game of the current iteration `iteration` is recorded.
    fn game_finished(&mut self, iteration: u64);
    /// After an iteration is counted: its row (the new values).
    fn iteration_finished(&mut self, plan: &SpsaPlan, row: &IterationRow);
    /// An event (a player failure, an interrupt), already appended to `spsa.log`.
    fn message(&mut self, text: &str);
}

/// How a session of a run ended.
#[derive(Debug)]
pub struct SpsaRun {
    /// The run folder.
    pub dir: PathBuf,
    /// The values after the last finished iteration.
    pub theta: Vec<f64>,
    /// The iterations finished (of the plan's).
    pub iterations_done: u64,
    /// Games recorded in the whole run.
    pub games: u64,
    /// An interrupt stopped the run before its last iteration.
    pub interrupted: bool,
    /// An engine failure stopped the run (without `--recover`): why.
    pub halted: Option<String>,
    /// A failure of the run itself (an output file that cannot be written, a player that cannot be created).
    pub failure: Option<String>,
    /// Whether `failure` is the user's input (a wrong bench signature found by `--bench-check`).
    pub failure_is_input: bool,
    /// Seconds this session played.
    pub elapsed_s: f64,
    /// Iterations this session finished.
    pub session_iterations: u64,
    /// Games this session played.
    pub session_games: u64,
    /// CPU seconds this process used in this session (user and system; the built-in engine's searches
    /// included, external engines' processes not).
    pub cpu_s: f64,
}

/// What a resume may change: nothing that changes the schedule.
#[derive(Clone, Copy, Debug, Default)]
pub struct SpsaOverrides {
    /// Games played at once.
    pub concurrency: Option<u32>,
    /// Restart failed engines and go on.
    pub recover: bool,
}

/// Starts the run of `plan` in a new folder (its `out`, or `results/NAME-N`), and plays it.
///
/// # Errors
/// [`SpsaError`] before the first game (an engine that does not start, a folder in the way).
pub fn start(
    plan: &SpsaPlan,
    observer: &mut dyn SpsaObserver,
    interrupt: &AtomicBool,
) -> Result<Option<SpsaRun>, SpsaError> {
    let spec = prepare_spec(plan, observer)?;
    if interrupt.load(Ordering::SeqCst) {
        return Ok(None);
    }
    let dir = match &plan.plan.output.out {
        Some(dir) => {
            create_out_dir(dir)?;
            output::check_spsa_dir(dir)?;
            dir.clone()
        }
        None => {
            let stem = plan.plan.output.name.clone().unwrap_or_else(|| timestamp(SystemTime::now()));
            create_run_dir(&plan.plan.output.results, &stem)?
        }
    };
    let lock = lock_run(&dir, &mut |warning| observer.note(warning))?;
    create_out_dir(&dir)?;
    output::check_spsa_dir(&dir)?;
    let mut recorded = plan.clone();
    recorded.plan.output.out = Some(dir.clone());
    recorded.fingerprint = Some(recorded.fingerprint());
    let files = SpsaFiles::create(&dir, &recorded)?;
    let theta = recorded.start_values();
    let state = RunState { done: 0, theta, games: 0, pending: BTreeMap::new() };
    Ok(Some(play(&recorded, spec, &dir, files, state, observer, interrupt, lock)))
}

/// Goes on with the run in `dir` where it stopped: the finished iterations of `spsa.csv` are kept, and so are
/// the games of the unfinished iteration in `games.csv`; a partial last line (the process was killed while
/// writing it) is cut.
///
/// # Errors
/// [`SpsaError::Resume`] when the folder holds no run or its files do not read; the errors of [`start`].
pub fn resume(
    dir: &Path,
    overrides: SpsaOverrides,
    observer: &mut dyn SpsaObserver,
    interrupt: &AtomicBool,
) -> Result<Option<SpsaRun>, SpsaError> {
    let shown = dir.display().to_string();
    let resume_error = |reason: SpsaRecordError| SpsaError::Resume { dir: shown.clone(), reason: Box::new(reason) };
    if !dir.is_dir() {
        return Err(SpsaError::NotAFolder { dir: shown });
    }
    let mut plan = output::read_plan(dir).map_err(resume_error)?;
    if let Some(n) = overrides.concurrency {
        plan.plan.concurrency = Some(n);
    }
    plan.plan.recover |= overrides.recover;
    let lock = lock_run(dir, &mut |warning| observer.note(warning))?;
    let spec = prepare_spec(&plan, observer)?;
    if interrupt.load(Ordering::SeqCst) {
        return Ok(None);
    }
    let (files, recorded) = SpsaFiles::reopen(dir, &plan).map_err(resume_error)?;
    let mut recorded = recorded;
    let done = recorded.done();
    // A shard's finished iterations hold the other shards' games too.
    recorded.games.extend(sibling_games(&plan, dir).into_iter().filter(|row| row.iteration <= done));
    let state = replay(&plan, &spec, &recorded).map_err(resume_error)?;
    if state.done == plan.schedule.iterations {
        observer.note(&format!("arbiter spsa: {}: the run is complete ({} iterations)", dir.display(), state.done));
    } else {
        observer.note(&format!(
            "arbiter spsa: resuming {}: {} of {} iterations done, {} games of iteration {} recorded",
            dir.display(),
            state.done,
            plan.schedule.iterations,
            state.pending.len(),
            state.done + 1
        ));
    }
    Ok(Some(play(&plan, spec, dir, files, state, observer, interrupt, lock)))
}

/// Recomputes the run from its record: every finished iteration's result from its games in `games.csv` and its
/// values from the update, which must be the values `spsa.csv` holds, bit for bit (the computation is the same
/// and a float is written in its shortest exact form); and the games of the unfinished iteration.
///
/// # Errors
/// The first disagreement, in words (an iteration without all its games, a row whose values or result do not
/// follow from its games, a game between engines the run does not have): one of the files was edited or damaged.
fn replay(
    plan: &SpsaPlan,
    spec: &MatchSpec<chess::ChessGame>,
    recorded: &Recorded,
) -> Result<RunState, SpsaRecordError> {
    let bad = |place: &str, problem: String| SpsaRecordError::Bad { place: place.to_string(), problem };
    let start = plan.start_values();
    let (_, _, first) = &recorded.rows[0];
    if first.iter().map(|v| v.to_bits()).ne(start.iter().map(|v| v.to_bits())) {
        return Err(bad(SPSA_CSV, format!("the start row is not the parameter file's start values {start:?}")));
    }
    let index = |name: &str| spec.engines.iter().position(|e| e.name == name);
    let mut by_iteration: BTreeMap<u64, BTreeMap<u64, f64>> = BTreeMap::new();
    for row in &recorded.games {
        let (Some(white), Some(black)) = (index(&row.white), index(&row.black)) else {
            return Err(bad(
                GAMES_CSV,
                format!(
                    "iteration {} pair {} game {}: {} vs {} are not this run's engines",
                    row.iteration, row.pair, row.game, row.white, row.black
                ),
            ));
        };
        by_iteration
            .entry(row.iteration)
            .or_default()
            .insert(row.game_number(), contribution(plan, white, black, row.result));
    }
    let mut theta = start;
    let mut games = 0;
    for (k, (games_after, result, values)) in recorded.rows.iter().enumerate().skip(1) {
        let k = k as u64;
        let scores = by_iteration.remove(&k).unwrap_or_default();
        if scores.len() as u64 != plan.games_per_iteration() {
            return Err(bad(
                GAMES_CSV,
                format!(
                    "{} games of iteration {k}, which spsa.csv counts as finished ({} expected)",
                    scores.len(),
                    plan.games_per_iteration()
                ),
            ));
        }
        games += scores.len() as u64;
        let sum: f64 = scores.values().sum();
        let step = perturb(&plan.params, &plan.schedule, &theta, k, &Draws::of(plan.plan.seed, k, plan.params.len()));
        theta = update(&plan.params, &theta, &step, sum);
        let same = theta.iter().map(|v| v.to_bits()).eq(values.iter().map(|v| v.to_bits()));
        if *games_after != games || *result != Some(sum) || !same {
            return Err(bad(
                SPSA_CSV,
                format!(
                    "iteration {k} (line {}) does not follow from its games in games.csv: recorded games \
                     {games_after}, result {result:?}, values {values:?}; recomputed {games}, {sum}, {theta:?} (was a \
                     file edited?)",
                    k + 2
                ),
            ));
        }
    }
    let done = recorded.done();
    let pending = by_iteration.remove(&(done + 1)).unwrap_or_default();
    games += pending.len() as u64;
    Ok(RunState { done, theta, games, pending })
}

/// Where a run stands between iterations.
struct RunState {
    /// Iterations finished.
    done: u64,
    /// The values after them.
    theta: Vec<f64>,
    /// Games recorded in the whole run.
    games: u64,
    /// The games of the current (unfinished) iteration already recorded: game number in the iteration's match
    /// to the plus side's contribution to the result.
    pending: BTreeMap<u64, f64>,
}

/// The match of the plan, checked: engines started once, bench signatures checked.
fn prepare_spec(plan: &SpsaPlan, observer: &mut dyn SpsaObserver) -> Result<MatchSpec<chess::ChessGame>, SpsaError> {
    let mut notes = Notes { observer };
    Ok(prepare::<chess::ChessGame>(&plan.plan, &mut notes)?)
}

/// Passes the notes of [`prepare`] on to an [`SpsaObserver`].
struct Notes<'a> {
    observer: &'a mut dyn SpsaObserver,
}

impl RunObserver for Notes<'_> {
    fn note(&mut self, text: &str) {
        self.observer.note(text);
    }
    fn started(&mut self, _start: &RunStart) {}
    fn game_finished(&mut self, _state: &MatchState, _report: Option<&str>) {}
    fn message(&mut self, text: &str) {
        self.observer.message(text);
    }
    fn finished(&mut self) {}
}

/// `engine` with the values of `values` for the parameters `names` (as the engine spells them), named `name`:
/// an external engine gets them as `option.NAME=VALUE` (replacing the same option given in its spec), the
/// built-in engine as its weights.
///
/// # Errors
/// [`SpsaError::Engine`] for a built-in Xiangqi engine (not tuned) or a weight name it does not have.
pub fn with_values(
    engine: &EngineSpec,
    name: &str,
    params: &[Param],
    names: &[String],
    values: &[f64],
) -> Result<EngineSpec, SpsaError> {
    let mut out = engine.clone();
    out.name = name.to_string();
    match &mut out.kind {
        EngineKind::Uci(uci) => {
            for ((param, option), &value) in params.iter().zip(names).zip(values) {
                let text = shown_value(param, value);
                match uci.options.iter_mut().find(|(n, _)| n.eq_ignore_ascii_case(option)) {
                    Some(slot) => slot.1 = text,
                    None => uci.options.push((option.clone(), text)),
                }
            }
        }
        EngineKind::Builtin(Build::Chess(config)) => {
            config.name = name.to_string();
            let all_names = Weights::names();
            let mut all = config.weights.to_vec();
            for (option, &value) in names.iter().zip(values) {
                let index = all_names.iter().position(|n| n.eq_ignore_ascii_case(option)).ok_or_else(|| {
                    SpsaError::Engine(format!("{}: the built-in engine has no weight {option:?}", engine.name))
                })?;
                all[index] = value.round() as i32;
            }
            config.weights = Weights::from_vec(&all).expect("to_vec gives every weight");
        }
        EngineKind::Builtin(Build::Xiangqi(_)) => {
            return Err(SpsaError::Engine(format!(
                "{}: the built-in Xiangqi engine cannot be tuned by SPSA",
                engine.name
            )));
        }
    }
    Ok(out)
}

/// The plus side's contribution to an iteration's result of a game between the engines `white` and `black`
/// (indices into the match's engines) that ended `result`: +1 for a win of plus over minus in self-play;
/// against an opponent, half the plus side's score (+1, 0, -1) and minus half the minus side's, so that a swing
/// of one game moves the values as much as in self-play.
pub fn contribution(plan: &SpsaPlan, white: usize, black: usize, result: GameResult) -> f64 {
    let white_score = match result {
        GameResult::WhiteWins => 1.0,
        GameResult::BlackWins => -1.0,
        GameResult::Draw => 0.0,
    };
    let of = |index: usize| {
        if index == white {
            white_score
        } else if index == black {
            -white_score
        } else {
            0.0
        }
    };
    let (plus, minus) = plan.sides();
    if plan.has_opponent() { (of(plus) - of(minus)) / 2.0 } else { of(plus) }
}

/// The first opening (1-based, in playing order) of iteration `k`: the iterations take the openings in turn,
/// `pairs` each, from the plan's `start`.
pub fn iteration_start(plan_start: usize, openings: usize, pairs: u64, k: u64) -> usize {
    let n = openings.max(1) as u64;
    let step = (k.saturating_sub(1) % n) * (pairs % n) % n;
    ((plan_start.max(1) as u64 - 1 + step) % n) as usize + 1
}

/// Plays the iterations left, from `state`.
#[allow(clippy::too_many_arguments)]
fn play(
    plan: &SpsaPlan,
    mut spec: MatchSpec<chess::ChessGame>,
    dir: &Path,
    mut files: SpsaFiles,
    mut state: RunState,
    observer: &mut dyn SpsaObserver,
    interrupt: &AtomicBool,
    _lock: Option<File>,
) -> SpsaRun {
    let started = Instant::now();
    let cpu_started = cpu_time::ProcessTime::try_now().ok();
    let group_file = dir.join(ENGINE_GROUPS_FILE);
    let ended = crate::uci::group::end_recorded_groups(&group_file);
    if !ended.is_empty() {
        files.log(observer, &format!("ended {} engine process group(s) an earlier session left running", ended.len()));
    }
    if let Err(error) = crate::uci::group::record_groups_in(Some(&group_file)) {
        observer.note(&format!("warning: {}: cannot write: {error}", group_file.display()));
    }
    let (plus, minus) = plan.sides();
    let base = [spec.engines[plus].clone(), spec.engines[minus].clone()];
    spec.length = MatchLength::Rounds(plan.pairs_per_iteration);
    spec.sprt = None;
    spec.shard = plan.plan.shard;
    let plan_start = spec.start;
    observer.started(plan, state.done, state.pending.len() as u64);
    let mut run = SpsaRun {
        dir: dir.to_path_buf(),
        theta: state.theta.clone(),
        iterations_done: state.done,
        games: state.games,
        interrupted: false,
        halted: None,
        failure: None,
        failure_is_input: false,
        elapsed_s: 0.0,
        session_iterations: 0,
        session_games: 0,
        cpu_s: 0.0,
    };
    while state.done < plan.schedule.iterations {
        if interrupt.load(Ordering::SeqCst) {
            run.interrupted = true;
            break;
        }
        let k = state.done + 1;
        let draws = Draws::of(plan.plan.seed, k, plan.params.len());
        let step = perturb(&plan.params, &plan.schedule, &state.theta, k, &draws);
        let sides = with_values(&base[0], &base[0].name, &plan.params, &plan.names, &step.plus)
            .and_then(|p| Ok((p, with_values(&base[1], &base[1].name, &plan.params, &plan.names, &step.minus)?)));
        match sides {
            Ok((p, m)) => {
                spec.engines[plus] = p;
                spec.engines[minus] = m;
            }
            Err(error) => {
                run.failure = Some(error.to_string());
                run.failure_is_input = true;
                break;
            }
        }
        spec.start = iteration_start(plan_start, spec.openings.len(), plan.pairs_per_iteration, k);
        let done: HashSet<u64> = state.pending.keys().copied().collect();
        let mut sink =
            IterationSink { plan, files: &mut files, scores: std::mem::take(&mut state.pending), k, written: 0 };
        let mut watcher = Watcher { observer: &mut *observer, k, messages: Vec::new() };
        let match_state =
            run_match_from(&spec, MatchState::new(spec.schedule()), &done, &mut sink, &mut watcher, interrupt);
        let (written, scores) = (sink.written, std::mem::take(&mut sink.scores));
        for text in std::mem::take(&mut watcher.messages) {
            files.log_only(&text);
        }
        state.games += written;
        run.games = state.games;
        run.session_games += written;
        if let Some(failure) = match_state.failure.clone() {
            run.failure = Some(failure);
            run.failure_is_input = match_state.failure_is_input;
            state.pending = scores;
            break;
        }
        let own_games = 2 * spec.schedule().planned_pairs();
        if scores.len() as u64 != own_games {
            state.pending = scores;
            if let Some(halted) = match_state.halted {
                run.halted = Some(halted);
            } else {
                run.interrupted = true;
            }
            break;
        }
        // A shard waits for the other shards' games of this iteration: every shard applies the same update.
        let all = match wait_for_shards(plan, dir, k, &scores, observer, &mut files, interrupt) {
            Some(all) => all,
            None => {
                state.pending = scores;
                run.interrupted = true;
                break;
            }
        };
        let result: f64 = all.values().sum();
        let theta = update(&plan.params, &state.theta, &step, result);
        let row =
            IterationRow { iteration: k, games: k * plan.games_per_iteration(), result, theta: theta.clone(), step };
        if let Err(error) = files.append_iteration(plan, &row) {
            run.failure = Some(error.to_string());
            break;
        }
        let values: Vec<String> =
            plan.params.iter().zip(&row.theta).map(|(p, v)| format!("{} {}", p.name, shown_value(p, *v))).collect();
        files.log_only(&format!(
            "iteration {k}: result {result:+}, games {}, values {}",
            state.games,
            values.join(", ")
        ));
        state.theta = theta;
        state.done = k;
        run.theta = state.theta.clone();
        run.iterations_done = k;
        run.session_iterations += 1;
        observer.iteration_finished(plan, &row);
        if let Some(halted) = match_state.halted {
            // The iteration's games were all recorded, but an engine failed in one of them.
            run.halted = Some(halted);
            break;
        }
    }
    let _ = crate::uci::group::record_groups_in(None);
    if let Err(error) = files.write_views(plan, &state.theta, state.done, state.games) {
        observer.note(&format!("warning: {error}"));
    }
    run.elapsed_s = started.elapsed().as_secs_f64();
    run.cpu_s = cpu_started.and_then(|t| t.try_elapsed().ok()).map_or(0.0, |d| d.as_secs_f64());
    run
}

/// The contributions of every game of iteration `k`: this shard's (`own`) and, for a shard, the other shards'
/// read from their folders, waited for (polled every 200 ms) until the iteration is complete; `None` when an
/// interrupt comes first.
fn wait_for_shards(
    plan: &SpsaPlan,
    dir: &Path,
    k: u64,
    own: &BTreeMap<u64, f64>,
    observer: &mut dyn SpsaObserver,
    files: &mut SpsaFiles,
    interrupt: &AtomicBool,
) -> Option<BTreeMap<u64, f64>> {
    let mut told: Option<std::time::Instant> = None;
    loop {
        let mut all = own.clone();
        for row in sibling_games(plan, dir).into_iter().filter(|row| row.iteration == k) {
            if let (Some(white), Some(black)) = (side_index(plan, &row.white), side_index(plan, &row.black)) {
                all.insert(row.game_number(), contribution(plan, white, black, row.result));
            }
        }
        if all.len() as u64 >= plan.games_per_iteration() {
            return Some(all);
        }
        if interrupt.load(Ordering::SeqCst) {
            return None;
        }
        if told.is_none_or(|at| at.elapsed() >= std::time::Duration::from_secs(30)) {
            told = Some(std::time::Instant::now());
            let count = plan.plan.shard.map_or(1, |s| u64::from(s.count()));
            let mut missing: Vec<u64> =
                (0..plan.games_per_iteration()).filter(|g| !all.contains_key(g)).map(|g| (g / 2) % count + 1).collect();
            missing.dedup();
            missing.sort_unstable();
            missing.dedup();
            let shards: Vec<String> = missing.iter().map(|i| format!("{i}/{count}")).collect();
            files.log(
                observer,
                &format!(
                    "iteration {k}: this shard's games are in; waiting for shard(s) {} ({} of {} games){}",
                    shards.join(", "),
                    all.len(),
                    plan.games_per_iteration(),
                    foreign_siblings(plan, dir)
                ),
            );
        }
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
}

/// A note naming the sibling folders that hold an SPSA run other than this one (another parameter file, other
/// settings or another shard count): their games never count here. Empty when there is none.
fn foreign_siblings(plan: &SpsaPlan, dir: &Path) -> String {
    let (Some(parent), identity) = (dir.parent(), plan.run_identity()) else { return String::new() };
    let Ok(entries) = std::fs::read_dir(parent) else { return String::new() };
    let mut foreign: Vec<String> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.file_name() != dir.file_name() && p.join(output::SPSA_TOML).is_file())
        .filter(|p| {
            output::read_plan(p).map_or(true, |other| {
                other.run_identity() != identity
                    || other.plan.shard.map(|s| s.count()) != plan.plan.shard.map(|s| s.count())
            })
        })
        .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .collect();
    foreign.sort();
    if foreign.is_empty() {
        String::new()
    } else {
        format!("; ignored, not of this run (other settings or parameters): {}", foreign.join(", "))
    }
}

/// The index in the iteration's match of the engine named `name` (`NAME+`, `NAME-` or the opponent).
fn side_index(plan: &SpsaPlan, name: &str) -> Option<usize> {
    plan.plan.engines.iter().position(|e| e.name == name)
}

/// Records the games of one iteration: `games.csv` and the plus side's contribution of each.
struct IterationSink<'a> {
    plan: &'a SpsaPlan,
    files: &'a mut SpsaFiles,
    k: u64,
    scores: BTreeMap<u64, f64>,
    written: u64,
}

impl GameSink<chess::ChessGame> for IterationSink<'_> {
    type Error = OutputError;

    fn write_game(
        &mut self,
        pair: &GamePair,
        game: u8,
        record: &GameRecord<chess::ChessGame>,
    ) -> Result<(), OutputError> {
        let row = GameRow {
            iteration: self.k,
            pair: pair.index,
            game,
            opening: pair.opening as u64 + 1,
            white: record.white.clone(),
            black: record.black.clone(),
            result: record.result,
            termination: record.end.text().to_string(),
            plies: record.moves.len() as u64,
        };
        self.files.append_game(&row)?;
        let (white, black) = pair.colours(game);
        let score = contribution(self.plan, white, black, record.result);
        self.scores.insert(pair.game_number(game), score);
        self.written += 1;
        Ok(())
    }
}

/// The scheduler's observer of an iteration: passes games and messages on, keeping the messages for
/// `spsa.log`.
struct Watcher<'o> {
    observer: &'o mut dyn SpsaObserver,
    k: u64,
    messages: Vec<String>,
}

impl MatchObserver<chess::ChessGame> for Watcher<'_> {
    fn game_finished(
        &mut self,
        _record: &GameRecord<chess::ChessGame>,
        _pair: &GamePair,
        _game: u8,
        _state: &MatchState,
    ) {
        self.observer.game_finished(self.k);
    }

    fn message(&mut self, text: &str) {
        let text = format!("iteration {}: {text}", self.k);
        self.observer.message(&text);
        self.messages.push(text);
    }
}

/// The options `engine` offers for tuning: an external engine's `uci` listing (the engine is started, asked
/// and quit), the built-in engine's weights (by config name, as `arbiter uci` lists them). The second value
/// is false when an external engine's listing was too long to read whole (its options then go unchecked).
///
/// # Errors
/// [`SpsaError::Engine`] when the engine does not start or answer `uciok` within its handshake time, or is the
/// built-in Xiangqi engine.
pub fn engine_options(engine: &EngineSpec) -> Result<(Vec<OptionInfo>, bool), SpsaError> {
    match &engine.kind {
        EngineKind::Builtin(Build::Chess(_)) => {
            let (min, max) = crate::uci::server::WEIGHT_RANGE;
            let options = Weights::names()
                .into_iter()
                .map(|name| OptionInfo {
                    name,
                    kind: "spin".into(),
                    min: Some(f64::from(min)),
                    max: Some(f64::from(max)),
                })
                .collect();
            Ok((options, true))
        }
        EngineKind::Builtin(Build::Xiangqi(_)) => {
            Err(SpsaError::Engine(format!("{}: the built-in Xiangqi engine cannot be tuned by SPSA", engine.name)))
        }
        EngineKind::Uci(uci) => {
            let failed = |reason: String| SpsaError::Engine(format!("{}: {reason}", engine.name));
            let mut process =
                EngineProcess::spawn(&uci.cmd, &uci.args, uci.dir.as_deref()).map_err(|e| failed(e.to_string()))?;
            process.send("uci").map_err(|e| failed(e.to_string()))?;
            let lines = process
                .wait_for_keeping(
                    |l| l.trim() == "uciok",
                    "uciok",
                    std::time::Duration::from_millis(uci.handshake_timeout_ms),
                    crate::uci::process::KEPT_UCI_LINES,
                )
                .map_err(|e| failed(e.to_string()))?;
            let _ = process.send("quit");
            let whole = crate::player::uci::listed_options(&lines).is_some();
            Ok((uci_options(&lines), whole))
        }
    }
}

impl SpsaPlan {
    /// The identity of the run this plan is a shard of: [`SpsaPlan::fingerprint`] without what differs between
    /// its shards (the shard, the output folder and name, the concurrency, `--recover`).
    pub fn run_identity(&self) -> String {
        let mut plan = self.clone();
        plan.plan.shard = None;
        plan.plan.output.out = None;
        plan.plan.output.name = None;
        plan.plan.output.results = PathBuf::new();
        plan.plan.concurrency = None;
        plan.plan.recover = false;
        plan.fingerprint()
    }
}

/// The games of the other shards of the run whose shard folder is `dir` (its sibling folders holding an
/// `spsa.toml` of the same run), complete lines only; empty for an unsharded run.
fn sibling_games(plan: &SpsaPlan, dir: &Path) -> Vec<GameRow> {
    let (Some(_), Some(parent)) = (plan.plan.shard, dir.parent()) else { return Vec::new() };
    let identity = plan.run_identity();
    let own = dir.file_name();
    let mut rows = Vec::new();
    let Ok(entries) = std::fs::read_dir(parent) else { return rows };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.file_name() == own || !path.join(output::SPSA_TOML).is_file() {
            continue;
        }
        let Ok(sibling) = output::read_plan(&path) else { continue };
        if sibling.run_identity() == identity
            && sibling.plan.shard.map(|s| s.count()) == plan.plan.shard.map(|s| s.count())
        {
            rows.extend(output::read_games_lenient(&path.join(output::GAMES_CSV)));
        }
    }
    rows
}
