//! `arbiter epd`: solve an EPD test suite (`bm`/`am` positions, STS point lists in `c0`) with the built-in
//! engine, in parallel over positions.

use crate::chess::{Move, Position};
use crate::engine::chess::{Engine, EngineConfig, Limits};
use crate::notation::epd::{Epd, read_epd_file};
use crate::notation::{parse_san, parse_uci, to_san};
use anyhow::Context;
use rayon::prelude::*;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// Flags of `arbiter epd`.
#[derive(clap::Args, Debug)]
pub struct EpdArgs {
    /// The EPD file (`bm`/`am` opcodes in SAN or UCI; STS files score by the `c0` point list).
    pub file: PathBuf,
    /// Node budget per position (the default when no limit is given: 100000).
    #[arg(value_parser = crate::cli::args::nodes, long)]
    pub nodes: Option<u64>,
    /// Depth limit per position, in plies.
    #[arg(value_parser = crate::cli::args::depth, long)]
    pub depth: Option<u32>,
    /// Time per position, in milliseconds.
    #[arg(value_parser = crate::cli::args::timeout_ms, long)]
    pub movetime_ms: Option<u64>,
    /// Engine build (TOML config); the seed build when absent.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Positions searched at once (default: all cores).
    #[arg(value_parser = crate::cli::args::threads, long)]
    pub threads: Option<usize>,
    /// Write the per-position CSV here instead of stdout (the summary then goes to stdout).
    #[arg(long)]
    pub csv: Option<PathBuf>,
}

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

/// Parses one move in SAN, falling back to UCI text.
fn parse_move(pos: &Position, text: &str) -> Result<Move, String> {
    parse_san(pos, text).or_else(|_| parse_uci(pos, text)).map_err(|e| e.to_string())
}

/// Parses an STS `c0` point list (`"f5=10, Be5+=2, Bf2=3"`) into moves and points; `Ok(None)` when `c0` is
/// not a point list (no `=`).
///
/// # Errors
/// A message for an entry whose move does not parse or whose points are not a non-negative integer.
pub fn parse_points(pos: &Position, c0: &str) -> Result<Option<Vec<(Move, u32)>>, String> {
    if !c0.contains('=') {
        return Ok(None);
    }
    let mut points = Vec::new();
    for entry in c0.split(',').map(str::trim).filter(|e| !e.is_empty()) {
        let (text, value) = entry.split_once('=').ok_or_else(|| format!("c0 entry {entry:?}: expected MOVE=POINTS"))?;
        let m = parse_move(pos, text.trim()).map_err(|e| format!("c0 entry {entry:?}: {e}"))?;
        let v = value.trim().parse().map_err(|_| format!("c0 entry {entry:?}: points are not an integer"))?;
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
/// A message for a `bm`/`am`/`c0` move that does not parse, or a record with neither `bm` nor `am`.
pub fn task(epd: &Epd) -> Result<Task, String> {
    let pos = epd.position(false);
    let moves = |opcode: &str| -> Result<Vec<Move>, String> {
        epd.get(opcode)
            .map(|ops| {
                ops.split_whitespace().map(|t| parse_move(&pos, t).map_err(|e| format!("{opcode}: {e}"))).collect()
            })
            .unwrap_or(Ok(Vec::new()))
    };
    let best = moves("bm")?;
    let avoid = moves("am")?;
    if best.is_empty() && avoid.is_empty() {
        return Err("expected a bm or am opcode".to_string());
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

/// Runs `arbiter epd`; returns the exit code: 0 after a run, 2 for an unreadable or malformed EPD (naming
/// file:line).
///
/// # Errors
/// Unreadable configs, an unwritable CSV.
pub fn run(args: EpdArgs) -> anyhow::Result<i32> {
    let config = match &args.config {
        Some(p) => EngineConfig::load(p).with_context(|| format!("loading {}", p.display()))?,
        None => EngineConfig::seed(),
    };
    let records = match read_epd_file(&args.file, false) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(2);
        }
    };
    let mut tasks = Vec::with_capacity(records.len());
    for epd in &records {
        match task(epd) {
            Ok(t) => tasks.push(t),
            Err(e) => {
                eprintln!("error: {}:{}: {e}", args.file.display(), epd.line);
                return Ok(2);
            }
        }
    }
    let mut limits =
        Limits { depth: args.depth, nodes: args.nodes, movetime_ms: args.movetime_ms, ..Limits::default() };
    if limits.depth.is_none() && limits.nodes.is_none() && limits.movetime_ms.is_none() {
        limits.nodes = Some(100_000);
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
        .context("building the thread pool")?;
    let outcomes: Vec<Outcome> = pool.install(|| tasks.par_iter().map(|t| solve(t, &config, &limits)).collect());

    let sink: Box<dyn Write> = match &args.csv {
        Some(p) => Box::new(std::fs::File::create(p).with_context(|| format!("creating {}", p.display()))?),
        None => Box::new(std::io::stdout()),
    };
    let mut csv = csv::Writer::from_writer(sink);
    csv.write_record(["id", "expected", "found", "solved", "points", "depth", "nodes", "ms"])?;
    for o in &outcomes {
        csv.write_record([
            o.id.clone(),
            o.expected.clone(),
            o.found.clone(),
            o.solved.to_string(),
            o.points.to_string(),
            o.depth.to_string(),
            o.nodes.to_string(),
            o.ms.to_string(),
        ])?;
    }
    csv.flush()?;
    let solved = outcomes.iter().filter(|o| o.solved).count();
    let mut summary = format!("solved {solved} / {}", outcomes.len());
    if tasks.iter().any(|t| !t.points.is_empty()) {
        let total: u32 = outcomes.iter().map(|o| o.points).sum();
        let max: u32 = tasks.iter().map(|t| t.points.iter().map(|p| p.1).max().unwrap_or(0)).sum();
        summary.push_str(&format!(", points {total} / {max}"));
    }
    let nodes: u64 = outcomes.iter().map(|o| o.nodes).sum();
    summary.push_str(&format!(", nodes {nodes}"));
    if args.csv.is_some() {
        println!("{summary}");
    } else {
        eprintln!("{summary}");
    }
    Ok(0)
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
