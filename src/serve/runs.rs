//! The runs the dashboard finds under its folders, and each run's figures as JSON: the list row
//! ([`summary_json`]) and the run's page ([`detail_json`]: pairings, LLR and Elo history, games per second, the
//! time to a decision, the latest and the failed games; SPSA trajectories; tuning loss curves).
//!
//! Everything is read from the run's files on each request (only complete lines: a run writing its folder is
//! read safely, see [`crate::runner::rundir::csv::scan_rows`]); nothing is cached but the few game counts of
//! [`Watch`], so the server's memory does not grow with a run's games.

use crate::chess::Color;
use crate::runner::rundir::cluster::{RunStatus, run_status};
use crate::runner::rundir::csv::{RowRef, scan_rows};
use crate::runner::rundir::lock::lock_shared;
use crate::runner::tally::score_of;
use crate::runner::{EndReason, MatchLength, RUN_TOML, RunFile};
use crate::spsa::output::{SPSA_COLUMNS, SPSA_CSV, SPSA_TOML, read_plan};
use crate::stats::{GameScore, MIN_PAIRS, Pentanomial, SprtDecision, SprtSpec, Wdl, elo_estimate};
use serde_json::{Value, json};
use std::collections::{HashMap, VecDeque};
use std::io::BufRead as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime};

/// The most run folders listed.
pub const MAX_RUNS: usize = 1000;
/// The most points of a chart's history sent to a page (longer histories are thinned).
pub const MAX_HISTORY_POINTS: usize = 600;
/// The latest games a run's page lists.
pub const RECENT_GAMES: usize = 30;
/// The most failed games (stall, crash, illegal move, time forfeit...) a run's page lists.
pub const MAX_FAILED: usize = 200;
/// The file name ending of a tuning run's loss curve (`arbiter tune --out X.toml` writes `X.loss.csv`).
pub const LOSS_SUFFIX: &str = ".loss.csv";

/// What kind of run a folder (or file) holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum RunKind {
    /// `arbiter match`: a folder with `run.toml`.
    Match,
    /// `arbiter spsa`: a folder with `spsa.toml`.
    Spsa,
    /// `arbiter tune`: a `*.loss.csv` file.
    Tune,
}

impl RunKind {
    fn name(self) -> &'static str {
        match self {
            RunKind::Match => "match",
            RunKind::Spsa => "spsa",
            RunKind::Tune => "tune",
        }
    }
}

/// One run found under the served folders.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct RunEntry {
    /// Its folder (its loss file for a tuning run).
    pub path: PathBuf,
    /// Its name on the pages: the folder's name, with its knockout's folder in front for a knockout round.
    pub name: String,
    /// Its kind.
    pub kind: RunKind,
}

fn file_name(path: &Path) -> String {
    path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

/// The kind of run `path` holds, if any (a link is not followed: only what is really under a root is served).
pub(crate) fn kind_of(path: &Path, is_dir: bool) -> Option<RunKind> {
    if is_dir {
        if path.join(RUN_TOML).is_file() {
            Some(RunKind::Match)
        } else if path.join(SPSA_TOML).is_file() {
            Some(RunKind::Spsa)
        } else {
            None
        }
    } else {
        file_name(path).ends_with(LOSS_SUFFIX).then_some(RunKind::Tune)
    }
}

/// The runs under `roots`, sorted by path: a root that is a run itself, and the runs one level inside each root
/// (and a knockout's rounds, two levels down). Folders that cannot be read are skipped; at most [`MAX_RUNS`].
pub fn find_runs(roots: &[PathBuf]) -> Vec<RunEntry> {
    let mut runs = Vec::new();
    let mut push = |path: PathBuf, name: String, kind: RunKind| runs.push(RunEntry { path, name, kind });
    for root in roots {
        // A root is taken as given (a link the user names is followed); only what lies inside it is checked.
        if let Some(kind) = kind_of(root, root.is_dir()) {
            push(root.clone(), file_name(root), kind);
            continue;
        }
        let Ok(entries) = std::fs::read_dir(root) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
            let is_file = entry.file_type().is_ok_and(|t| t.is_file());
            if !is_dir && !is_file {
                continue;
            }
            if let Some(kind) = kind_of(&path, is_dir) {
                let name = file_name(&path);
                push(path, name, kind);
            } else if is_dir && path.join(crate::runner::knockout::KNOCKOUT_TOML).is_file() {
                let Ok(rounds) = std::fs::read_dir(&path) else { continue };
                for round in rounds.flatten() {
                    if round.file_type().is_ok_and(|t| t.is_dir()) && round.path().join(RUN_TOML).is_file() {
                        push(
                            round.path(),
                            format!("{}/{}", file_name(&path), file_name(&round.path())),
                            RunKind::Match,
                        );
                    }
                }
            }
        }
    }
    runs.sort();
    runs.dedup();
    runs.truncate(MAX_RUNS);
    runs
}

/// What the server keeps of the runs it reads: the game counts it saw for each run over the last two minutes, to
/// tell the current games per second (bounded: [`MAX_RUNS`] runs, 30 samples each); and whether it reads for a
/// report written by the run's own process at its end (which still holds the run's lock: the run is not
/// `running` for that).
#[derive(Debug, Default)]
pub struct Watch {
    samples: Mutex<HashMap<PathBuf, VecDeque<(Instant, u64)>>>,
    report: bool,
}

impl Watch {
    /// The watch of a report: no rates but over the whole run, and no run is playing.
    pub fn for_report() -> Watch {
        Watch { samples: Mutex::default(), report: true }
    }

    /// Whether a match process holds the run's lock now.
    fn playing(&self, dir: &Path) -> bool {
        !self.report && lock_shared(dir).is_err()
    }

    /// Notes `games` for the run at `path` now; returns the games per second between the oldest sample of the
    /// last two minutes and now, when they lie at least 5 seconds apart and games were added.
    pub fn note(&self, path: &Path, games: u64) -> Option<f64> {
        let now = Instant::now();
        let mut samples = self.samples.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if samples.len() >= MAX_RUNS && !samples.contains_key(path) {
            samples.clear();
        }
        let run = samples.entry(path.to_path_buf()).or_default();
        // A run started again from fewer games (a folder replaced) starts its samples again.
        if run.back().is_some_and(|&(_, g)| g > games) {
            run.clear();
        }
        while run.front().is_some_and(|&(t, _)| now.duration_since(t) > Duration::from_secs(120)) || run.len() >= 30 {
            run.pop_front();
        }
        run.push_back((now, games));
        let &(t0, g0) = run.front()?;
        let span = now.duration_since(t0).as_secs_f64();
        (span >= 5.0 && games > g0).then(|| (games - g0) as f64 / span)
    }
}

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// Games per second over a run's life, from its files' times: from `run.toml` (written before the first game) to
/// the last write of `games.csv`.
fn average_rate(dir: &Path, games: u64) -> Option<f64> {
    let start = modified(&dir.join(RUN_TOML))?;
    let end = modified(&dir.join("games.csv"))?;
    let span = end.duration_since(start).ok()?.as_secs_f64();
    (span > 0.0 && games > 0).then(|| games as f64 / span)
}

/// The games the plan schedules in all, where that is known without its openings (a fixed number of games or
/// rounds).
fn planned_games(run: &RunFile) -> Option<u64> {
    let pairings =
        run.plan.tournament.seeded_pairings(run.plan.engines.len(), run.plan.seeds as usize, run.plan.seeds_meet);
    match run.plan.length {
        MatchLength::Games(_) | MatchLength::Rounds(_) => Some(2 * run.plan.length.pairs(pairings.len(), 0)),
        _ => None,
    }
}

/// The state of a run: `H1`/`H0` (the SPRT decided), `finished` (its summary is written, no decision),
/// `running` (a process plays it), `stopped` (neither: interrupted or killed; `arbiter match --resume` goes on).
fn state(dir: &Path, decision: Option<SprtDecision>, watch: &Watch) -> &'static str {
    let playing = watch.playing(dir);
    match decision {
        Some(SprtDecision::AcceptH1) => "H1",
        Some(SprtDecision::AcceptH0) => "H0",
        _ if playing => "running",
        _ if dir.join("summary.json").is_file() => "finished",
        _ => "stopped",
    }
}

/// The files of a run folder the pages read.
const SERVED_FILES: [&str; 8] =
    [RUN_TOML, "games.csv", "games.pgn", "match.log", "summary.json", SPSA_TOML, SPSA_CSV, "run.lock"];

/// Why the run at `path` is not read: one of its files is a link (which could lead outside the served folders).
pub fn linked_file(path: &Path) -> Option<String> {
    let is_link = |p: &Path| std::fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_symlink());
    let found = if path.is_dir() {
        SERVED_FILES.iter().map(|f| path.join(f)).find(|p| is_link(p))
    } else {
        is_link(path).then(|| path.to_path_buf())
    };
    found
        .map(|p| format!("{} is a link: not served (only files really under the served folders are read)", p.display()))
}

/// A run's row of the list; a run that cannot be read is `"state": "unreadable"` with why.
pub fn summary_json(id: usize, entry: &RunEntry, watch: &Watch) -> Value {
    let base = json!({ "id": id, "name": entry.name, "dir": entry.path, "kind": entry.kind.name() });
    if let Some(why) = linked_file(&entry.path) {
        return merged(base, json!({ "state": "unreadable", "error": why }));
    }
    let figures = match entry.kind {
        RunKind::Match => match_summary(&entry.path, watch),
        RunKind::Spsa => spsa_summary(&entry.path, watch),
        RunKind::Tune => tune_summary(&entry.path),
    };
    merged(base, figures.unwrap_or_else(|error| json!({ "state": "unreadable", "error": error })))
}

/// A run's page: its row's figures and the rest (see the module documentation).
pub fn detail_json(id: usize, entry: &RunEntry, watch: &Watch) -> Value {
    let summary = summary_json(id, entry, watch);
    if summary["state"] == "unreadable" {
        return summary;
    }
    let more = match entry.kind {
        RunKind::Match => match_detail(&entry.path, &summary),
        RunKind::Spsa => spsa_detail(&entry.path),
        RunKind::Tune => tune_detail(&entry.path),
    };
    merged(summary, more.unwrap_or_else(|error| json!({ "state": "unreadable", "error": error })))
}

fn merged(mut base: Value, more: Value) -> Value {
    if let (Some(base), Value::Object(more)) = (base.as_object_mut(), more) {
        base.extend(more);
    }
    base
}

/// A run's games as the pages show them, gathered in one pass over `games.csv` (see [`scan_rows`]): what is
/// kept is bounded (the latest and the failed rows, a page of rows, two scores per game pair for the history), so a
/// long run's file costs the server no more memory than a short one's.
#[derive(Default)]
struct Scan {
    /// Rows read.
    rows: u64,
    /// Games by termination, in order of first appearance.
    terminations: Vec<(EndReason, u64)>,
    /// Games an engine's fault ended.
    failed_count: u64,
    /// The first [`MAX_FAILED`] of them, with their row index.
    failed: Vec<(u64, Row)>,
    /// The latest [`RECENT_GAMES`] rows.
    recent: VecDeque<(u64, Row)>,
    /// Rows `page.0..page.0 + page.1`, when asked for.
    page: (u64, u64),
    page_rows: Vec<(u64, Row)>,
    /// The engine whose view the history takes (the first of a two-engine run), and each complete pair's two
    /// scores for it, in the order the pairs ended.
    first: Option<String>,
    pair_scores: Vec<(GameScore, GameScore)>,
    open: HashMap<u64, GameScore>,
    /// Per pairing of a run of more than two engines (names in plan order).
    order: Vec<String>,
    pairings: Vec<((String, String), PairingCount)>,
}

/// A row as the pages list it.
#[derive(Clone)]
struct Row {
    pair: u64,
    game: u64,
    white: String,
    black: String,
    result: &'static str,
    end: EndReason,
}

impl Scan {
    fn add(&mut self, row: &RowRef<'_>) {
        let index = self.rows;
        self.rows += 1;
        match self.terminations.iter_mut().find(|(t, _)| *t == row.end) {
            Some((_, n)) => *n += 1,
            None => self.terminations.push((row.end, 1)),
        }
        let owned = || Row {
            pair: row.pair,
            game: row.game,
            white: row.white.to_string(),
            black: row.black.to_string(),
            result: row.result.pgn(),
            end: row.end,
        };
        if failed(row.end) {
            self.failed_count += 1;
            if self.failed.len() < MAX_FAILED {
                self.failed.push((index, owned()));
            }
        }
        if self.recent.len() == RECENT_GAMES {
            self.recent.pop_front();
        }
        self.recent.push_back((index, owned()));
        if index >= self.page.0 && index < self.page.0 + self.page.1 {
            self.page_rows.push((index, owned()));
        }
        if let Some(first) = &self.first {
            let score = if row.white == first {
                Some(score_of(row.result, Color::White))
            } else if row.black == first {
                Some(score_of(row.result, Color::Black))
            } else {
                None
            };
            if let Some(score) = score {
                match self.open.remove(&row.pair) {
                    Some(other) => self.pair_scores.push((other, score)),
                    None => {
                        self.open.insert(row.pair, score);
                    }
                }
            }
        }
        if !self.order.is_empty() {
            self.add_to_pairing(row);
        }
    }

    fn add_to_pairing(&mut self, row: &RowRef<'_>) {
        let place = |name: &str| self.order.iter().position(|n| n == name).unwrap_or(usize::MAX);
        let white_first = place(row.white) <= place(row.black);
        let (first, second) = if white_first { (row.white, row.black) } else { (row.black, row.white) };
        let at = match self.pairings.iter().position(|((a, b), _)| a == first && b == second) {
            Some(at) => at,
            None => {
                self.pairings.push(((first.to_string(), second.to_string()), PairingCount::default()));
                self.pairings.len() - 1
            }
        };
        let count = &mut self.pairings[at].1;
        let score = score_of(row.result, if white_first { Color::White } else { Color::Black });
        count.wdl.add(score);
        match count.open.remove(&row.pair) {
            Some(other) => count.penta.add_pair(other, score),
            None => {
                count.open.insert(row.pair, score);
            }
        }
    }
}

/// Scans a run's `games.csv` into `scan` (complete rows only); no file yet is no games.
fn scan(dir: &Path, mut scan: Scan) -> Result<Scan, String> {
    let path = dir.join("games.csv");
    let file = match std::fs::File::open(&path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(scan),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let reader = std::io::BufReader::with_capacity(1 << 16, file);
    scan_rows(reader, &path.display().to_string(), |row| scan.add(row)).map_err(|e| e.to_string())?;
    Ok(scan)
}

fn rate_json(dir: &Path, games: u64, watch: &Watch, state: &str) -> Value {
    let recent = if state == "running" { watch.note(dir, games) } else { None };
    let (rate, basis) = match recent {
        Some(rate) => (Some(rate), "the last two minutes"),
        None => (average_rate(dir, games), "the whole run"),
    };
    json!({ "games_per_second": rate, "rate_basis": basis })
}

fn match_summary(dir: &Path, watch: &Watch) -> Result<Value, String> {
    let run = RunFile::read(&dir.join(RUN_TOML)).map_err(|e| e.to_string())?;
    let planned = planned_games(&run);
    let tc = run.plan.engines.first().map(|e| e.limit.to_string());
    if run.plan.engines.len() == 2 {
        let status = run_status(dir).map_err(|e| e.to_string())?;
        let mut value = status_json(dir, &status, watch);
        let games = status.combined.wdl.games();
        let state = value["state"].as_str().unwrap_or("").to_string();
        value = merged(value, rate_json(dir, games, watch, &state));
        let rate = value["games_per_second"].as_f64();
        let to_decision = status.pairs_to_decision();
        value["seconds_to_decision"] = json!(rate.zip(to_decision).map(|(r, p)| 2.0 * p as f64 / r));
        value["seconds_to_end"] = json!(rate.zip(planned).map(|(r, p)| p.saturating_sub(games) as f64 / r));
        value["planned_games"] = json!(planned);
        value["tc"] = json!(tc);
        return Ok(value);
    }
    let engines: Vec<&str> = run.plan.engines.iter().map(|e| e.name.as_str()).collect();
    let games = scan(dir, Scan::default())?.rows;
    let state = state(dir, None, watch);
    let mut value = json!({ "state": state, "engines": engines, "games": games, "planned_games": planned,
                            "tournament": run.plan.tournament.name(), "tc": tc });
    value = merged(value, rate_json(dir, games, watch, state));
    let rate = value["games_per_second"].as_f64();
    value["seconds_to_end"] = json!(rate.zip(planned).map(|(r, p)| p.saturating_sub(games) as f64 / r));
    Ok(value)
}

fn status_json(dir: &Path, status: &RunStatus, watch: &Watch) -> Value {
    let c = &status.combined;
    let elo = elo_estimate(&c.wdl).ok();
    let nelo = elo_estimate(&c.penta).ok();
    let decision = status.decision.as_ref().map(|d| d.sprt_decision()).or(status.outcome.map(|o| o.decision));
    json!({
        "state": state(dir, decision, watch),
        "engines": [status.engines.0, status.engines.1],
        "games": c.wdl.games(),
        "wins": c.wdl.wins, "draws": c.wdl.draws, "losses": c.wdl.losses,
        // Pairs scoring 0, 0.5, 1 (WL and DD), 1.5 and 2, as fastchess's Ptnml(0-2).
        "penta": penta_row(&c.penta),
        "elo": elo.map(|e| e.elo), "elo95": elo.map(|e| e.elo95), "los": elo.map(|e| e.los),
        "nelo": nelo.map(|e| e.nelo), "nelo95": nelo.map(|e| (e.nelo_hi - e.nelo_lo) / 2.0),
        "llr": status.outcome.map(|o| o.llr),
        "lower": status.outcome.map(|o| o.lower),
        "upper": status.outcome.map(|o| o.upper),
        "pairs_to_decision": status.pairs_to_decision(),
        "warnings": status.warnings,
    })
}

fn penta_row(p: &Pentanomial) -> [u64; 5] {
    [p.ll, p.ld, p.wl + p.dd, p.wd, p.ww]
}

/// Whether a game ended by an engine's fault rather than on the board or by adjudication.
fn failed(end: EndReason) -> bool {
    end.is_engine_failure() || matches!(end, EndReason::IllegalMove | EndReason::TimeForfeit)
}

fn row_json(index: u64, row: &Row) -> Value {
    json!({ "index": index, "game": row.game + 1, "pair": row.pair + 1, "white": row.white, "black": row.black,
            "result": row.result, "termination": row.end.text(), "failed": failed(row.end) })
}

/// The lines of `match.log` about each game, by its 1-based number (`... game N: ...`), for the failed games.
fn log_lines(dir: &Path, games: &[u64]) -> HashMap<u64, Vec<String>> {
    let mut found: HashMap<u64, Vec<String>> = HashMap::new();
    let Ok(file) = std::fs::File::open(dir.join(crate::runner::rundir::output::LOG_FILE)) else { return found };
    for line in std::io::BufReader::new(file).lines().map_while(Result::ok) {
        let Some(rest) = line.split_once(" game ").map(|(_, rest)| rest) else { continue };
        let Some(number) = rest.split_once(':').and_then(|(n, _)| n.parse::<u64>().ok()) else { continue };
        if games.contains(&number) {
            found.entry(number).or_default().push(line.clone());
        }
    }
    found
}

/// The LLR and Elo after each complete pair, as the charts draw them ([`crate::runner::report::charts::history`]),
/// at about [`MAX_HISTORY_POINTS`] evenly spread pairs (and the last), from the 2nd pair on.
fn history_json(pairs: &[(GameScore, GameScore)], sprt: Option<&SprtSpec>) -> Value {
    let step = pairs.len().div_ceil(MAX_HISTORY_POINTS).max(1);
    let mut penta = Pentanomial::default();
    let (mut games, mut llr, mut elo, mut low, mut high) = (vec![], vec![], vec![], vec![], vec![]);
    for (i, &(a, b)) in pairs.iter().enumerate() {
        penta.add_pair(a, b);
        let n = i + 1;
        if penta.pairs() < MIN_PAIRS || (n % step != 0 && n != pairs.len()) {
            continue;
        }
        let Ok(estimate) = elo_estimate(&penta) else { continue };
        games.push(penta.games());
        llr.push(sprt.and_then(|spec| spec.evaluate(&penta).ok()).map(|o| o.llr));
        elo.push(estimate.elo);
        low.push(estimate.elo - estimate.elo95);
        high.push(estimate.elo + estimate.elo95);
    }
    json!({ "games": games, "llr": llr, "elo": elo, "low": low, "high": high })
}

/// One pairing's counts from the first engine's view.
#[derive(Default)]
struct PairingCount {
    wdl: Wdl,
    penta: Pentanomial,
    open: HashMap<u64, GameScore>,
}

fn pairings_json(pairings: &[((String, String), PairingCount)]) -> Value {
    let list: Vec<Value> = pairings
        .iter()
        .map(|((first, second), c)| {
            let elo = elo_estimate(&c.wdl).ok();
            let nelo = elo_estimate(&c.penta).ok();
            json!({ "first": first, "second": second, "games": c.wdl.games(), "wins": c.wdl.wins,
                    "draws": c.wdl.draws, "losses": c.wdl.losses, "penta": penta_row(&c.penta),
                    "elo": elo.map(|e| e.elo), "elo95": elo.map(|e| e.elo95), "los": elo.map(|e| e.los),
                    "nelo": nelo.map(|e| e.nelo), "nelo95": nelo.map(|e| (e.nelo_hi - e.nelo_lo) / 2.0) })
        })
        .collect();
    Value::Array(list)
}

fn match_detail(dir: &Path, summary: &Value) -> Result<Value, String> {
    let run = RunFile::read(&dir.join(RUN_TOML)).map_err(|e| e.to_string())?;
    let two = run.plan.engines.len() == 2;
    let mut start = Scan::default();
    if two {
        start.first = summary["engines"][0].as_str().map(str::to_string);
    } else {
        start.order = run.plan.engines.iter().map(|e| e.name.clone()).collect();
    }
    let mut scan = scan(dir, start)?;
    scan.terminations.sort_by_key(|t| std::cmp::Reverse(t.1));
    let numbers: Vec<u64> = scan.failed.iter().map(|(_, r)| r.game + 1).collect();
    let mut lines = log_lines(dir, &numbers);
    let failed_list: Vec<Value> = scan
        .failed
        .iter()
        .map(|(i, r)| {
            let mut row = row_json(*i, r);
            row["log"] = json!(lines.remove(&(r.game + 1)).unwrap_or_default());
            row
        })
        .collect();
    let recent: Vec<Value> = scan.recent.iter().rev().map(|(i, r)| row_json(*i, r)).collect();
    let sprt = run.plan.sprt.as_ref();
    let mut value = json!({
        "terminations": scan.terminations.iter().map(|(t, n)| json!([t.text(), n])).collect::<Vec<_>>(),
        "failed": failed_list,
        "failed_count": scan.failed_count,
        "recent": recent,
        "rows": scan.rows,
        "sprt": sprt.map(|s| json!({ "elo0": s.elo0, "elo1": s.elo1, "alpha": s.alpha, "beta": s.beta,
                                      "model": format!("{:?}", s.model).to_lowercase() })),
        "game_kind": format!("{:?}", run.plan.game).to_lowercase(),
    });
    if two {
        let spec = sprt.and_then(|s| s.spec().ok());
        value["history"] = history_json(&scan.pair_scores, spec.as_ref());
    } else {
        value["pairings"] = pairings_json(&scan.pairings);
    }
    Ok(value)
}

fn spsa_rows(dir: &Path) -> Result<(Vec<String>, Vec<Vec<f64>>), String> {
    let path = dir.join(SPSA_CSV);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let complete = &text[..text.rfind('\n').map_or(0, |i| i + 1)];
    let mut lines = complete.lines();
    let header: Vec<String> = lines.next().unwrap_or("").split(',').map(str::to_string).collect();
    let rows = lines
        .enumerate()
        .map(|(i, line)| {
            line.split(',')
                // Row 0 (the start values) has no result.
                .map(|v| if v.is_empty() { Ok(f64::NAN) } else { v.parse::<f64>() })
                .collect::<Result<Vec<f64>, _>>()
                .map_err(|_| format!("{}:{}: not a row of numbers", path.display(), i + 2))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((header, rows))
}

fn spsa_summary(dir: &Path, watch: &Watch) -> Result<Value, String> {
    let plan = read_plan(dir).map_err(|e| e.to_string())?;
    let (_, rows) = spsa_rows(dir)?;
    let done = rows.len().saturating_sub(1);
    let games = rows.last().and_then(|r| r.get(1)).copied().unwrap_or(0.0) as u64;
    let finished = done as u64 >= plan.schedule.iterations;
    let state = if watch.playing(dir) {
        "running"
    } else if finished {
        "finished"
    } else {
        "stopped"
    };
    let engines: Vec<&str> = plan.plan.engines.iter().map(|e| e.name.as_str()).collect();
    Ok(json!({ "state": state, "engines": engines, "games": games, "iterations": done,
               "planned_iterations": plan.schedule.iterations, "parameters": plan.params.len() }))
}

fn spsa_detail(dir: &Path) -> Result<Value, String> {
    let plan = read_plan(dir).map_err(|e| e.to_string())?;
    let (_, rows) = spsa_rows(dir)?;
    let step = rows.len().div_ceil(MAX_HISTORY_POINTS).max(1);
    let mut kept: Vec<&Vec<f64>> = rows.iter().step_by(step).collect();
    if let Some(last) = rows.last()
        && kept.last().is_none_or(|k| !std::ptr::eq(*k, last))
    {
        kept.push(last);
    }
    let params: Vec<Value> = plan
        .params
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let values: Vec<Option<f64>> = kept.iter().map(|r| r.get(SPSA_COLUMNS.len() + i).copied()).collect();
            json!({ "name": p.name, "min": p.min, "max": p.max, "start": p.start,
                    "value": rows.last().and_then(|r| r.get(SPSA_COLUMNS.len() + i)), "values": values })
        })
        .collect();
    Ok(json!({ "trajectory": { "iteration": kept.iter().map(|r| r[0]).collect::<Vec<_>>(), "params": params } }))
}

fn tune_rows(path: &Path) -> Result<Vec<Vec<Option<f64>>>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let complete = &text[..text.rfind('\n').map_or(0, |i| i + 1)];
    let mut lines = complete.lines();
    if lines.next() != Some("epoch,train_mse,validation_mse,lr,ns_per_position") {
        return Err(format!("{}:1: not the header of a tuning loss file", path.display()));
    }
    lines
        .enumerate()
        .map(|(i, line)| {
            let fields: Vec<Option<f64>> = line.split(',').map(|v| v.parse::<f64>().ok()).collect();
            if fields.len() == 5 && fields[0].is_some() && fields[1].is_some() {
                Ok(fields)
            } else {
                Err(format!("{}:{}: not a row of the loss file", path.display(), i + 2))
            }
        })
        .collect()
}

fn tune_summary(path: &Path) -> Result<Value, String> {
    let rows = tune_rows(path)?;
    let best = rows.iter().filter_map(|r| r[2].or(r[1])).fold(f64::INFINITY, f64::min);
    Ok(json!({ "state": "finished", "engines": [], "epochs": rows.len(),
               "best_loss": best.is_finite().then_some(best) }))
}

fn tune_detail(path: &Path) -> Result<Value, String> {
    let rows = tune_rows(path)?;
    let column = |i: usize| rows.iter().map(|r| r[i]).collect::<Vec<_>>();
    Ok(json!({ "loss": { "epoch": column(0), "train": column(1), "validation": column(2), "lr": column(3) } }))
}

/// Rows `from..from + count` of a run's `games.csv` (complete rows only): `{"total": N, "from": F, "rows": [...]}`.
///
/// # Errors
/// The file does not read.
pub fn rows_json(dir: &Path, from: usize, count: usize) -> Result<Value, String> {
    let scan = scan(dir, Scan { page: (from as u64, count as u64), ..Scan::default() })?;
    let page: Vec<Value> = scan.page_rows.iter().map(|(i, r)| row_json(*i, r)).collect();
    Ok(json!({ "total": scan.rows, "from": from, "rows": page }))
}
