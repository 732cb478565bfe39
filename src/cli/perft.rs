//! `arbiter perft`: node counts for one position or a whole EPD suite, with divide for debugging.

use crate::chess::Position;
use crate::chess::perft::{divide, perft, perft_parallel};
use crate::notation::epd::{Epd, read_epd_file};
use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use std::path::PathBuf;
use std::time::Instant;

/// Flags of `arbiter perft`.
#[derive(clap::Args, Debug)]
pub struct PerftArgs {
    /// Position to count from (FEN); the start position when neither --fen nor --suite is given.
    #[arg(long, conflicts_with = "suite")]
    pub fen: Option<String>,
    /// Depth in plies for --fen.
    #[arg(long, default_value_t = 5)]
    pub depth: u32,
    /// Print every root move (UCI) with its node count, sorted by move.
    #[arg(long)]
    pub divide: bool,
    /// EPD suite with `;D1 n ;D2 n ...` opcodes: check every depth of every line.
    #[arg(long)]
    pub suite: Option<PathBuf>,
    /// Skip suite entries whose expected count exceeds this many nodes.
    #[arg(long, default_value_t = 100_000_000)]
    pub max_nodes: u64,
    /// Skip suite entries deeper than this many plies.
    #[arg(long)]
    pub max_depth: Option<u32>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Read FENs as Chess960 (Shredder-FEN or X-FEN castling letters; castling as king takes rook in UCI).
    #[arg(long)]
    pub chess960: bool,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// One checked (position, depth) of a suite.
struct Check {
    epd: usize,
    depth: u32,
    expected: u64,
}

/// Runs `arbiter perft`: 0 when all counts match (or a single count was printed), 1 on a mismatch, 2 on
/// unreadable input.
///
/// # Errors
/// Only for failures to set up the thread pool; bad input is reported and turned into exit code 2.
pub fn run(args: PerftArgs) -> anyhow::Result<i32> {
    if let Some(n) = args.threads {
        rayon::ThreadPoolBuilder::new().num_threads(n.max(1)).build_global().context("building the thread pool")?;
    }
    match &args.suite {
        Some(path) => run_suite(&args, path),
        None => run_single(&args),
    }
}

fn run_single(args: &PerftArgs) -> anyhow::Result<i32> {
    let fen = args.fen.clone().unwrap_or_else(|| Position::startpos().to_fen());
    let mut pos = match Position::from_fen_variant(&fen, args.chess960) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: --fen {fen:?}: {e}");
            return Ok(2);
        }
    };
    let start = Instant::now();
    let nodes = if args.divide {
        let rows = divide(&mut pos, args.depth.max(1));
        print_divide(&rows, args.chess960);
        rows.iter().map(|r| r.1).sum()
    } else {
        perft_parallel(&pos, args.depth)
    };
    let secs = start.elapsed().as_secs_f64();
    println!("nodes {nodes}");
    eprintln!("depth {} nodes {nodes} time {secs:.3}s {:.1} Mnps", args.depth, nodes as f64 / secs.max(1e-9) / 1e6);
    Ok(0)
}

fn print_divide(rows: &[(crate::chess::Move, u64)], chess960: bool) {
    let mut rows: Vec<(String, u64)> = rows.iter().map(|(m, n)| (m.to_uci(chess960), *n)).collect();
    rows.sort();
    let width = rows.iter().map(|r| r.1.to_string().len()).max().unwrap_or(1);
    for (m, n) in &rows {
        println!("{m:<6} {n:>width$}");
    }
    println!("moves {}", rows.len());
}

fn run_suite(args: &PerftArgs, path: &std::path::Path) -> anyhow::Result<i32> {
    let epds = match read_epd_file(path, args.chess960) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(2);
        }
    };
    let mut checks = Vec::new();
    for (i, epd) in epds.iter().enumerate() {
        for (op, value) in &epd.ops {
            let Some(depth) = op.strip_prefix('D').and_then(|d| d.parse::<u32>().ok()) else { continue };
            let Ok(expected) = value.trim().parse::<u64>() else {
                eprintln!(
                    "error: {}:{}: opcode {op} has a count {value:?} that is not a number",
                    path.display(),
                    epd.line
                );
                return Ok(2);
            };
            if expected > args.max_nodes || args.max_depth.is_some_and(|d| depth > d) {
                continue;
            }
            checks.push(Check { epd: i, depth, expected });
        }
    }
    let total_expected: u64 = checks.iter().map(|c| c.expected).sum();
    let bar = if args.quiet { ProgressBar::hidden() } else { ProgressBar::new(total_expected) };
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {percent}% {msg}")
            .expect("static template")
            .progress_chars("=> "),
    );
    let start = Instant::now();
    // Largest first, so the long tasks start early and the pool stays busy to the end.
    let mut order: Vec<usize> = (0..checks.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(checks[i].expected));
    let results: Vec<(usize, u64)> = order
        .par_iter()
        .map(|&i| {
            let c = &checks[i];
            let mut pos = epds[c.epd].position(args.chess960);
            let n = perft(&mut pos, c.depth);
            bar.inc(c.expected);
            (i, n)
        })
        .collect();
    bar.finish_and_clear();
    let secs = start.elapsed().as_secs_f64();
    let mut actual = vec![0u64; checks.len()];
    for (i, n) in results {
        actual[i] = n;
    }
    let mut failures = 0;
    for (c, &n) in checks.iter().zip(&actual) {
        if n != c.expected {
            failures += 1;
            report_failure(path, &epds[c.epd], c, n, args.chess960);
        }
    }
    let nodes: u64 = actual.iter().sum();
    let positions = checks.iter().map(|c| c.epd).collect::<std::collections::BTreeSet<_>>().len();
    println!(
        "{} positions, {} checks, {} failed, {nodes} nodes, {secs:.2} s, {:.1} Mnps",
        positions,
        checks.len(),
        failures,
        nodes as f64 / secs.max(1e-9) / 1e6
    );
    Ok(if failures == 0 { 0 } else { 1 })
}

fn report_failure(path: &std::path::Path, epd: &Epd, c: &Check, actual: u64, chess960: bool) {
    println!("FAIL {}:{}: {}", path.display(), epd.line, epd.fen);
    println!(
        "  depth {} expected {} actual {} (difference {})",
        c.depth,
        c.expected,
        actual,
        actual as i128 - c.expected as i128
    );
    let mut pos = epd.position(chess960);
    if c.depth >= 1 {
        println!("  divide at depth {}:", c.depth);
        let rows = divide(&mut pos, c.depth);
        let mut rows: Vec<(String, u64)> = rows.iter().map(|(m, n)| (m.to_uci(chess960), *n)).collect();
        rows.sort();
        for (m, n) in rows {
            println!("    {m:<6} {n}");
        }
    }
}
