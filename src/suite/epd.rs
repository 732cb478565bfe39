//! EPD suite solving: read the task of each record (`bm`/`am` moves, STS point lists in `c0`), search each with
//! the built-in chess engine in parallel over positions, and score the moves found (`arbiter epd` prints them).

use crate::chess::san::MoveTextError;
use crate::chess::{Move, Position};
use crate::chess::{parse_san, parse_uci, to_san};
use crate::engine::chess::{Engine, EngineConfig, Limits};
use crate::notation::epd::Epd;
use rayon::prelude::*;
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

/// One solved (or not) position, a CSV row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The position's id.
    pub id: String,
    /// The expected moves as written.
    pub expected: String,
    /// The engine's move in SAN (`-` when there was none).
    pub found: String,
    /// Whether the found move is a `bm` move and no `am` move.
    pub solved: bool,
    /// STS points for the found move (0 unless the line has a point list).
    pub points: u32,
    /// The deepest completed iteration, in plies.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Wall time, in ms.
    pub ms: u64,
}

/// Why an EPD record is no suite task.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SuiteError {
    /// A `bm` or `am` move that is neither SAN nor UCI text of a legal move.
    #[error("{opcode}: {error}")]
    Move {
        /// The opcode.
        opcode: &'static str,
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
    let pos = epd.position(false);
    let moves = |opcode: &'static str| -> Result<Vec<Move>, SuiteError> {
        epd.get(opcode)
            .map(|ops| {
                ops.split_whitespace()
                    .map(|t| parse_move(&pos, t).map_err(|error| SuiteError::Move { opcode, error }))
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

/// Searches one task with a fresh engine and scores the move.
pub fn solve(task: &Task, config: &EngineConfig, limits: &Limits) -> Outcome {
    let mut engine = Engine::new(config.clone());
    let start = Instant::now();
    let r = engine.search(&task.pos, &[task.pos.key()], limits);
    let ms = start.elapsed().as_millis() as u64;
    let found = if r.best_move == Move::NULL { "-".to_string() } else { to_san(&task.pos, r.best_move) };
    let solved = (task.best.is_empty() || task.best.contains(&r.best_move)) && !task.avoid.contains(&r.best_move);
    Outcome {
        id: task.id.clone(),
        expected: task.expected.clone(),
        found,
        solved,
        points: points_for(&task.points, r.best_move),
        depth: r.depth,
        nodes: r.nodes,
        ms,
    }
}

/// An EPD suite run as asked for: the engine build and the search limit of every position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpdRequest {
    /// The engine build that searches.
    pub config: EngineConfig,
    /// Depth limit per position, in plies.
    pub depth: Option<u32>,
    /// Node budget per position ([`DEFAULT_NODES`] when no limit is given).
    pub nodes: Option<u64>,
    /// Time per position, in milliseconds.
    pub movetime_ms: Option<u64>,
}

/// The node budget per position when a request gives no limit.
pub const DEFAULT_NODES: u64 = 100_000;

impl EpdRequest {
    /// The engine limits of each search: the request's, or [`DEFAULT_NODES`] nodes when it sets none.
    pub fn limits(&self) -> Limits {
        let mut limits =
            Limits { depth: self.depth, nodes: self.nodes, movetime_ms: self.movetime_ms, ..Limits::default() };
        if limits.depth.is_none() && limits.nodes.is_none() && limits.movetime_ms.is_none() {
            limits.nodes = Some(DEFAULT_NODES);
        }
        limits
    }
}

/// The totals of a suite run, for its summary line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EpdTotals {
    /// Positions solved.
    pub solved: usize,
    /// Positions searched.
    pub positions: usize,
    /// STS points scored and the most possible, when some position has a point list.
    pub points: Option<(u32, u32)>,
    /// Nodes searched in all.
    pub nodes: u64,
}

impl std::fmt::Display for EpdTotals {
    /// Writes `solved S / N, points P / MAX, nodes X` (points only for STS suites).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "solved {} / {}", self.solved, self.positions)?;
        if let Some((total, max)) = self.points {
            write!(f, ", points {total} / {max}")?;
        }
        write!(f, ", nodes {}", self.nodes)
    }
}

/// Reads the tasks of every record of an EPD suite.
///
/// # Errors
/// The first record that is no task, with its line ([`SuiteError::Record`]).
pub fn tasks(records: &[Epd]) -> Result<Vec<Task>, SuiteError> {
    records.iter().map(|epd| task(epd).map_err(|e| SuiteError::Record { line: epd.line, error: Box::new(e) })).collect()
}

/// Searches every task of `tasks` under `request` on the current rayon pool (each with a fresh engine) and
/// returns the outcomes in the tasks' order.
pub fn solve_all(tasks: &[Task], request: &EpdRequest) -> Vec<Outcome> {
    let limits = request.limits();
    tasks.par_iter().map(|t| solve(t, &request.config, &limits)).collect()
}

/// The totals of `outcomes` of `tasks` (the same order).
pub fn totals(tasks: &[Task], outcomes: &[Outcome]) -> EpdTotals {
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
            Epd::parse("6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8# a1a7; am Kf1; id \"m; 1\";", 7, false).expect("epd");
        let t = task(&epd).expect("task");
        assert_eq!(t.id, "m; 1");
        assert_eq!(t.best.len(), 2);
        assert_eq!(t.avoid.len(), 1);
        assert_eq!(t.expected, "bm Ra8# a1a7; am Kf1");
        let o = solve(&t, &EngineConfig::seed(), &Limits { depth: Some(3), ..Limits::default() });
        assert!(o.solved && o.found == "Ra8#", "{o:?}");
    }
}
