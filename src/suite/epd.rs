//! EPD suite solving: read the task of each record (`bm`/`am` moves, STS point lists in `c0`), search each with
//! any engine ([`EngineSpec`]: a built-in build or an external UCI engine), N positions at once with one player
//! each, and score the moves found (`arbiter epd` prints them). An engine that fails on a position gives that
//! position an error row and is replaced; the run goes on.

use crate::chess::san::MoveTextError;
use crate::chess::{self, Move, Position};
use crate::chess::{parse_san, parse_uci, to_san};
use crate::notation::epd::Epd;
use crate::player::{EngineKind, EngineSpec, GoLimits, GoRequest, Player, PlayerError};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};
use std::time::Instant;
use thiserror::Error;

/// What a suite position asks for: the moves to find (`bm`), the moves to avoid (`am`), and STS points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Task {
    /// The `id` operand, or `line N`.
    pub id: String,
    /// The position.
    pub pos: Position,
    /// Best moves (`bm`): found means solved.
    pub best: Vec<Move>,
    /// Avoid moves (`am`): found means not solved.
    pub avoid: Vec<Move>,
    /// The `c0` point list (STS): points per move; empty when the line has none.
    pub points: Vec<(Move, u32)>,
    /// The expected moves as written: `bm Qg6` or `am Rxb2`, `;`-separated when both.
    pub expected: String,
}

/// How one position went: solved, not solved, or no move because the engine failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// The engine's move is a `bm` move and no `am` move.
    Solved,
    /// The engine moved, but not as the position asks (or had no legal move).
    Unsolved,
    /// The engine gave no usable move: it crashed, stalled past the timeout, sent an illegal move or no move,
    /// or could not be started; the text says which, naming the engine.
    Error(String),
}

impl Status {
    /// The `status` column: `solved`, `unsolved` or `error`.
    pub fn word(&self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Unsolved => "unsolved",
            Status::Error(_) => "error",
        }
    }

    /// The `error` column: the failure's text, empty unless [`Status::Error`].
    pub fn error_text(&self) -> &str {
        match self {
            Status::Error(text) => text,
            Status::Solved | Status::Unsolved => "",
        }
    }
}

/// One solved (or not) position, a CSV row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The position's id.
    pub id: String,
    /// The expected moves as written.
    pub expected: String,
    /// The engine's move in SAN (`-` when there was none).
    pub found: String,
    /// Whether the found move is a `bm` move and no `am` move (false after an error).
    pub solved: bool,
    /// STS points for the found move (0 unless the line has a point list).
    pub points: u32,
    /// The depth the engine reported last, in plies (the built-in engine: its deepest completed iteration; 0
    /// when the engine reported none).
    pub depth: u32,
    /// The nodes the engine reported last (0 when it reported none).
    pub nodes: u64,
    /// Wall time from the `go` to the move (or the failure), measured by Arbiter, in ms.
    pub ms: u64,
    /// Solved, unsolved, or the failure.
    pub status: Status,
}

impl Outcome {
    /// The CSV header: the columns of [`Outcome::row`].
    pub const HEADER: [&'static str; 10] =
        ["id", "expected", "found", "solved", "points", "depth", "nodes", "ms", "status", "error"];

    /// The CSV row of this outcome, in the order of [`Outcome::HEADER`].
    pub fn row(&self) -> [String; 10] {
        [
            self.id.clone(),
            self.expected.clone(),
            self.found.clone(),
            self.solved.to_string(),
            self.points.to_string(),
            self.depth.to_string(),
            self.nodes.to_string(),
            self.ms.to_string(),
            self.status.word().to_string(),
            self.status.error_text().to_string(),
        ]
    }
}

/// Why an EPD record is no suite task.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SuiteError {
    /// A `bm` or `am` move that is neither SAN nor UCI text of a legal move.
    #[error("{opcode}: {} is neither a legal SAN nor a legal UCI move in this position", crate::notation::quote::shown(.text))]
    Move {
        /// The opcode.
        opcode: &'static str,
        /// The move text.
        text: String,
        /// Why the move (read as UCI text, the fallback) is not one.
        error: MoveTextError,
    },
    /// A `c0` point list entry without `=`.
    #[error("c0 entry {entry:?}: expected MOVE=POINTS")]
    PointEntry {
        /// The entry.
        entry: String,
    },
    /// A `c0` point list entry whose move does not parse.
    #[error("c0 entry {entry:?}: {error}")]
    PointMove {
        /// The entry.
        entry: String,
        /// Why its move is not one.
        error: MoveTextError,
    },
    /// A `c0` point list entry whose points are not a non-negative integer.
    #[error("c0 entry {entry:?}: points are not an integer")]
    Points {
        /// The entry.
        entry: String,
    },
    /// A record with neither `bm` nor `am`.
    #[error("expected a bm or am opcode")]
    NoTarget,
    /// A record of a suite that is no task, with its line.
    #[error("line {line}: {error}")]
    Record {
        /// The record's line in the file (1-based).
        line: usize,
        /// Why.
        error: Box<SuiteError>,
    },
}

/// Parses one move in SAN, falling back to UCI text.
fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveTextError> {
    parse_san(pos, text).or_else(|_| parse_uci(pos, text))
}

/// Parses an STS `c0` point list (`"f5=10, Be5+=2, Bf2=3"`) into moves and points; `Ok(None)` when `c0` is
/// not a point list (no `=`).
///
/// # Errors
/// [`SuiteError::PointEntry`], [`SuiteError::PointMove`] or [`SuiteError::Points`] for an entry whose move does
/// not parse or whose points are not a non-negative integer.
pub fn parse_points(pos: &Position, c0: &str) -> Result<Option<Vec<(Move, u32)>>, SuiteError> {
    if !c0.contains('=') {
        return Ok(None);
    }
    let mut points = Vec::new();
    for entry in c0.split(',').map(str::trim).filter(|e| !e.is_empty()) {
        let (text, value) = entry.split_once('=').ok_or_else(|| SuiteError::PointEntry { entry: entry.to_string() })?;
        let m =
            parse_move(pos, text.trim()).map_err(|error| SuiteError::PointMove { entry: entry.to_string(), error })?;
        let v = value.trim().parse().map_err(|_| SuiteError::Points { entry: entry.to_string() })?;
        points.push((m, v));
    }
    Ok(Some(points))
}

/// The points a found move scores under a point list (0 when it is not listed).
pub fn points_for(points: &[(Move, u32)], found: Move) -> u32 {
    points.iter().find(|(m, _)| *m == found).map_or(0, |(_, p)| *p)
}

/// Reads the task of one EPD record.
///
/// # Errors
/// A [`SuiteError`] for a `bm`/`am`/`c0` move that does not parse, or [`SuiteError::NoTarget`] for a record
/// with neither `bm` nor `am`.
pub fn task(epd: &Epd) -> Result<Task, SuiteError> {
    let pos = crate::chess::epd::ChessEpd::position(epd, false);
    let moves = |opcode: &'static str| -> Result<Vec<Move>, SuiteError> {
        epd.get(opcode)
            .map(|ops| {
                ops.split_whitespace()
                    .map(|t| {
                        parse_move(&pos, t).map_err(|error| SuiteError::Move { opcode, text: t.to_string(), error })
                    })
                    .collect()
            })
            .unwrap_or(Ok(Vec::new()))
    };
    let best = moves("bm")?;
    let avoid = moves("am")?;
    if best.is_empty() && avoid.is_empty() {
        return Err(SuiteError::NoTarget);
    }
    let points = match epd.get("c0") {
        Some(c0) => parse_points(&pos, c0)?.unwrap_or_default(),
        None => Vec::new(),
    };
    let expected = [("bm", epd.get("bm")), ("am", epd.get("am"))]
        .iter()
        .filter_map(|(op, v)| v.map(|v| format!("{op} {v}")))
        .collect::<Vec<_>>()
        .join("; ");
    let id = epd.get("id").map_or_else(|| format!("line {}", epd.line), str::to_string);
    Ok(Task { id, pos, best, avoid, points, expected })
}

/// Searches one task with `player` (after [`Player::new_game`], so that no position's search depends on the one
/// before) and scores the move; the time is measured here, from the `go` to the move.
///
/// A move later than `allowed_ms` (an engine that answered only after `stop`) is an error, like a crash or an
/// illegal move: the outcome's [`Status::Error`] names the engine and what it did.
///
/// # Errors
/// The [`PlayerError`] of a player that failed (crashed, stalled, flooded, sent no or an illegal move); the
/// caller records it ([`failed`]) and replaces the player.
pub fn solve(player: &mut dyn Player, task: &Task, limits: &GoLimits, allowed_ms: u64) -> Result<Outcome, PlayerError> {
    player.new_game()?;
    let game = chess::ChessGame::new(task.pos.clone());
    let request = GoRequest { limits: *limits, allowed_ms: Some(allowed_ms) };
    let start = Instant::now();
    let answer = player.go(&game, &request)?;
    let ms = u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX);
    if ms > allowed_ms {
        return Err(PlayerError::Stalled {
            player: player.name().to_string(),
            reason: format!("no move within {allowed_ms} ms (it came after stop, at {ms} ms)"),
        });
    }
    let mv = answer.mv;
    let legal = task.pos.legal_moves();
    if mv != Move::NULL && !legal.contains(mv) {
        return Err(PlayerError::BadMove {
            player: player.name().to_string(),
            text: mv.to_uci(false),
            reason: "not a legal move of the position".to_string(),
        });
    }
    if mv == Move::NULL && !legal.is_empty() {
        return Err(PlayerError::BadMove {
            player: player.name().to_string(),
            text: "0000".to_string(),
            reason: "no move, but the position has legal moves".to_string(),
        });
    }
    let found = if mv == Move::NULL { "-".to_string() } else { to_san(&task.pos, mv) };
    let solved = mv != Move::NULL && (task.best.is_empty() || task.best.contains(&mv)) && !task.avoid.contains(&mv);
    Ok(Outcome {
        id: task.id.clone(),
        expected: task.expected.clone(),
        found,
        solved,
        points: points_for(&task.points, mv),
        depth: answer.depth,
        nodes: answer.nodes,
        ms,
        status: if solved { Status::Solved } else { Status::Unsolved },
    })
}

/// The outcome of `task` when its engine failed with `error` after `ms` milliseconds: no move, not solved,
/// [`Status::Error`] with the error's text.
pub fn failed(task: &Task, error: &PlayerError, ms: u64) -> Outcome {
    Outcome {
        id: task.id.clone(),
        expected: task.expected.clone(),
        found: "-".to_string(),
        solved: false,
        points: 0,
        depth: 0,
        nodes: 0,
        ms,
        status: Status::Error(error.to_string()),
    }
}

/// The node budget per position of a built-in engine when no limit is given.
pub const DEFAULT_NODES: u64 = 100_000;

/// How long a search under node or depth limits only may take before the engine counts as stalled, by
/// default, in ms: generous, as a slow engine at a deep depth is no failure.
pub const DEFAULT_STALL_TIMEOUT_MS: u64 = 120_000;

/// How long past `--movetime-ms` a move may come before the engine counts as stalled, by default, in ms.
pub const DEFAULT_MOVETIME_MARGIN_MS: u64 = 1_000;

/// Why a suite run cannot be done.
#[derive(Debug, Error)]
pub enum EpdError {
    /// An external engine with no search limit: it would search each position until stopped
    /// ([`EngineSpec::require_limit`], as `arbiter match` and `arbiter datagen` refuse it).
    #[error(transparent)]
    NoLimit(crate::player::EngineArgError),
    /// An engine spec with a clock (`tc=`), which a single position has no use for.
    #[error("engine {engine}: tc= is a game clock; a suite searches single positions: give nodes=, depth= or st=")]
    Clock {
        /// The engine's name.
        engine: String,
    },
    /// A worker's engine could not be started before the run.
    #[error("{0}")]
    Start(PlayerError),
    /// A row could not be written.
    #[error("writing a row: {0}")]
    Write(#[source] std::io::Error),
}

/// An EPD suite run as asked for: the engine, the search limit of every position, the stall timeout and the
/// number of engines searching at once.
#[derive(Clone, Debug)]
pub struct EpdRequest {
    /// The engine that searches, created once per worker ([`EngineSpec::create`]) and again after a failure.
    pub spec: EngineSpec,
    /// The limits of each search (`go depth`, `go nodes`, `go movetime`); never all unset.
    pub limits: GoLimits,
    /// How long a search may take before the engine counts as stalled, in ms.
    pub allowed_ms: u64,
    /// Positions searched at once: one engine (process) each.
    pub concurrency: usize,
}

impl EpdRequest {
    /// The request for `spec` with the limits given on the command line over those of the spec (`nodes=`,
    /// `depth=`, `st=`): with none, a built-in engine searches [`DEFAULT_NODES`] nodes and an external engine
    /// is refused. `stall_timeout_ms` overrides the stall timeout: by default [`DEFAULT_STALL_TIMEOUT_MS`], or
    /// the movetime plus [`DEFAULT_MOVETIME_MARGIN_MS`] when a movetime is set.
    ///
    /// # Errors
    /// [`EpdError::NoLimit`] for an external engine without a limit, [`EpdError::Clock`] for a spec with `tc=`.
    pub fn new(
        spec: EngineSpec,
        depth: Option<u32>,
        nodes: Option<u64>,
        movetime_ms: Option<u64>,
        stall_timeout_ms: Option<u64>,
        concurrency: usize,
    ) -> Result<EpdRequest, EpdError> {
        if spec.limit.tc.is_some() {
            return Err(EpdError::Clock { engine: spec.name.clone() });
        }
        let mut limits = GoLimits {
            depth: depth.or(spec.limit.depth),
            nodes: nodes.or(spec.limit.nodes),
            movetime_ms: movetime_ms.or(spec.limit.movetime_ms),
            ..GoLimits::default()
        };
        if limits.depth.is_none() && limits.nodes.is_none() && limits.movetime_ms.is_none() {
            match spec.kind {
                EngineKind::Builtin(_) => limits.nodes = Some(DEFAULT_NODES),
                EngineKind::Uci(_) => {
                    spec.require_limit(&crate::player::MoveLimit::default()).map_err(EpdError::NoLimit)?
                }
            }
        }
        let allowed_ms = stall_timeout_ms.unwrap_or(match limits.movetime_ms {
            Some(t) => t.saturating_add(DEFAULT_MOVETIME_MARGIN_MS),
            None => DEFAULT_STALL_TIMEOUT_MS,
        });
        Ok(EpdRequest { spec, limits, allowed_ms, concurrency: concurrency.max(1) })
    }
}

/// The totals of a suite run, for its summary line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EpdTotals {
    /// Positions solved.
    pub solved: usize,
    /// Positions searched (errors included).
    pub positions: usize,
    /// STS points scored and the most possible, when some position has a point list.
    pub points: Option<(u32, u32)>,
    /// Nodes searched in all, as the engine reported them.
    pub nodes: u64,
    /// Positions where the engine failed ([`Status::Error`]).
    pub errors: usize,
}

impl std::fmt::Display for EpdTotals {
    /// Writes `solved S / N, points P / MAX, nodes X, errors E` (points only for STS suites).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "solved {} / {}", self.solved, self.positions)?;
        if let Some((total, max)) = self.points {
            write!(f, ", points {total} / {max}")?;
        }
        write!(f, ", nodes {}, errors {}", self.nodes, self.errors)
    }
}

/// Reads the tasks of every record of an EPD suite.
///
/// # Errors
/// The first record that is no task, with its line ([`SuiteError::Record`]).
pub fn tasks(records: &[Epd]) -> Result<Vec<Task>, SuiteError> {
    records.iter().map(|epd| task(epd).map_err(|e| SuiteError::Record { line: epd.line, error: Box::new(e) })).collect()
}

/// The outcomes of a suite run, in file order, and whether it was interrupted before the end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpdRun {
    /// The outcome of every position searched, in file order (a prefix of the tasks when interrupted).
    pub outcomes: Vec<Outcome>,
    /// Whether `cancel` stopped the run before every position was searched.
    pub interrupted: bool,
}

/// Searches every task under `request` with `request.concurrency` workers, each with its own player (one
/// engine process each for an external engine), handing out positions in file order; `on_row` gets every
/// outcome in file order as soon as those before it are in (so rows are written as produced).
///
/// A player that fails on a position (crash, stall, flood, no or an illegal move) gives that position a
/// [`Status::Error`] row and is replaced by a fresh one ([`EngineSpec::create`]) for the next position; a
/// replacement that cannot start is an error row of the next position, and so on. Once `cancel` is set no
/// new position is handed out, the searches in progress are stopped, and the rows before the first position
/// not finished are kept ([`EpdRun::interrupted`]).
///
/// # Errors
/// [`EpdError::Start`] when a worker's first player cannot be created (nothing is searched then), and
/// [`EpdError::Write`] when `on_row` fails.
pub fn run(
    tasks: &[Task],
    request: &EpdRequest,
    cancel: &Arc<AtomicBool>,
    mut on_row: impl FnMut(&Outcome) -> std::io::Result<()>,
) -> Result<EpdRun, EpdError> {
    let workers = request.concurrency.min(tasks.len()).max(1);
    let mut players = Vec::with_capacity(workers);
    for _ in 0..workers {
        let mut player = request.spec.create::<chess::ChessGame>().map_err(EpdError::Start)?;
        player.set_cancel(Arc::clone(cancel));
        players.push(player);
    }
    let next = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::channel::<(usize, Outcome)>();
    let mut outcomes = Vec::with_capacity(tasks.len());
    let mut write_error = None;
    std::thread::scope(|scope| {
        for player in players {
            let sender = sender.clone();
            let next = &next;
            scope.spawn(move || worker(player, tasks, request, next, cancel, &sender));
        }
        drop(sender);
        let mut pending = BTreeMap::new();
        for (index, outcome) in receiver {
            pending.insert(index, outcome);
            while let Some(outcome) = pending.remove(&outcomes.len()) {
                if write_error.is_none()
                    && let Err(e) = on_row(&outcome)
                {
                    // Stop the run: nothing more can be written.
                    write_error = Some(e);
                    cancel.store(true, Ordering::SeqCst);
                }
                outcomes.push(outcome);
            }
        }
    });
    if let Some(e) = write_error {
        return Err(EpdError::Write(e));
    }
    let interrupted = outcomes.len() < tasks.len();
    Ok(EpdRun { outcomes, interrupted })
}

/// One worker of [`run`]: takes the next position until none is left or `cancel` is set, sends its outcome.
fn worker(
    first: Box<dyn Player>,
    tasks: &[Task],
    request: &EpdRequest,
    next: &AtomicUsize,
    cancel: &Arc<AtomicBool>,
    sender: &mpsc::Sender<(usize, Outcome)>,
) {
    let mut player = Some(first);
    loop {
        if cancel.load(Ordering::SeqCst) {
            return;
        }
        let index = next.fetch_add(1, Ordering::SeqCst);
        let Some(task) = tasks.get(index) else { return };
        let start = Instant::now();
        let result = match player.as_mut() {
            Some(p) => solve(p.as_mut(), task, &request.limits, request.allowed_ms),
            None => request.spec.create::<chess::ChessGame>().and_then(|mut p| {
                p.set_cancel(Arc::clone(cancel));
                let result = solve(p.as_mut(), task, &request.limits, request.allowed_ms);
                player = Some(p);
                result
            }),
        };
        if cancel.load(Ordering::SeqCst) {
            // The search may have been cut short by the interruption: its outcome is not a result.
            return;
        }
        let outcome = result.unwrap_or_else(|error| {
            // A fresh player (a fresh process) for the next position.
            player = None;
            failed(task, &error, u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX))
        });
        if sender.send((index, outcome)).is_err() {
            return;
        }
    }
}

/// The totals of `outcomes` of `tasks` (the same order; `outcomes` may be a prefix of `tasks`).
pub fn totals(tasks: &[Task], outcomes: &[Outcome]) -> EpdTotals {
    let tasks = &tasks[..outcomes.len().min(tasks.len())];
    let points = tasks.iter().any(|t| !t.points.is_empty()).then(|| {
        let total: u32 = outcomes.iter().map(|o| o.points).sum();
        let max: u32 = tasks.iter().map(|t| t.points.iter().map(|p| p.1).max().unwrap_or(0)).sum();
        (total, max)
    });
    EpdTotals {
        solved: outcomes.iter().filter(|o| o.solved).count(),
        positions: outcomes.len(),
        points,
        nodes: outcomes.iter().map(|o| o.nodes).sum(),
        errors: outcomes.iter().filter(|o| matches!(o.status, Status::Error(_))).count(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sts_point_list() {
        let pos = Position::from_fen("1kr5/3n4/q3p2p/p2n2p1/PppB1P2/5BP1/1P2Q2P/3R2K1 w - - 0 1").expect("fen");
        let points = parse_points(&pos, "f5=10, Be5+=2, Bf2=3, Bg4=2").expect("parses").expect("a list");
        let uci = |t: &str| parse_uci(&pos, t).expect("legal");
        assert_eq!(points, vec![(uci("f4f5"), 10), (uci("d4e5"), 2), (uci("d4f2"), 3), (uci("f3g4"), 2)]);
        assert_eq!(points_for(&points, uci("d4f2")), 3);
        assert_eq!(points_for(&points, uci("e2e1")), 0);
        assert_eq!(parse_points(&pos, "a plain comment").expect("not a list"), None);
        assert!(parse_points(&pos, "f5=ten").is_err());
        assert!(parse_points(&pos, "Qh8=5").is_err());
    }

    #[test]
    fn bm_and_am_tasks() {
        let epd =
            crate::chess::epd::parse_epd("6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8# a1a7; am Kf1; id \"m; 1\";", 7, false)
                .expect("epd");
        let t = task(&epd).expect("task");
        assert_eq!(t.id, "m; 1");
        assert_eq!(t.best.len(), 2);
        assert_eq!(t.avoid.len(), 1);
        assert_eq!(t.expected, "bm Ra8# a1a7; am Kf1");
        let mut player = EngineSpec::builtin("seed").expect("built in").create::<chess::ChessGame>().expect("starts");
        let limits = GoLimits { depth: Some(3), ..GoLimits::default() };
        let o = solve(player.as_mut(), &t, &limits, 60_000).expect("a move");
        assert!(o.solved && o.found == "Ra8#", "{o:?}");
        assert_eq!(o.status, Status::Solved);
        assert_eq!(o.row()[8..], ["solved".to_string(), String::new()]);
    }

    #[test]
    fn an_external_engine_needs_a_limit() {
        let spec = crate::player::spec::parse_engine("name=sf,cmd=/usr/games/stockfish").expect("spec");
        let err = EpdRequest::new(spec.clone(), None, None, None, None, 1).expect_err("no limit");
        assert!(err.to_string().contains("sf (/usr/games/stockfish) has no move limit"), "{err}");
        assert!(err.to_string().ends_with("would search until told to stop"), "{err}");
        let request = EpdRequest::new(spec, None, Some(1000), None, None, 1).expect("a node limit");
        assert_eq!(request.allowed_ms, DEFAULT_STALL_TIMEOUT_MS);
        let spec = crate::player::spec::parse_engine("name=sf,cmd=sf,st=0.5").expect("spec");
        let request = EpdRequest::new(spec, None, None, None, None, 1).expect("st= is a limit");
        assert_eq!((request.limits.movetime_ms, request.allowed_ms), (Some(500), 1500));
        let spec = crate::player::spec::parse_engine("name=sf,cmd=sf,tc=10+0.1").expect("spec");
        assert!(matches!(EpdRequest::new(spec, None, Some(1), None, None, 1), Err(EpdError::Clock { .. })));
        // A built-in engine keeps its default.
        let request = EpdRequest::new(EngineSpec::builtin("seed").expect("built in"), None, None, None, None, 0)
            .expect("default");
        assert_eq!((request.limits.nodes, request.concurrency), (Some(DEFAULT_NODES), 1));
    }
}
