//! `arbiter perft`: node counts for one position or a whole EPD suite, with divide for debugging, for chess
//! (the default), Xiangqi (`--game xiangqi`) or checkers (`--game russian|english`, `--board 4|6|8`). The
//! driver is written once over [`Game`].

use crate::game::Game;
pub use crate::game::GameKind;
use crate::game::perft::{PerftTable, perft_split};
use crate::notation::epd::Epd;
use crate::suite::compare::{ArbiterOracle, Divergence, UciPerftOracle, find_divergence};
pub use crate::suite::perft::MAX_PERFT_DEPTH;
use crate::suite::perft::{Check, plan_checks, read_suite, run_checks, sorted_divide, suite_position};
use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use std::path::PathBuf;
use std::time::Instant;

/// Flags of `arbiter perft`.
#[derive(clap::Args, Debug)]
pub struct PerftArgs {
    /// The game: `chess` (the default), `xiangqi` (Xiangqi FEN as Fairy-Stockfish writes it, moves as `h2e2`),
    /// `russian` (Russian draughts, PDN FEN `W:Wa1,c1:Bb6`, moves `c3-d4`, `c3:e5:g3`) or `english` (English
    /// checkers, PDN FEN `B:W21,22:B1,2`, moves `9-13`, `9x18x27`).
    #[arg(long, value_enum, default_value_t = GameKind::Chess)]
    pub game: GameKind,
    /// Checkers board size, squares a side: 8 (the default), or 4 and 6 for Russian rules on small boards.
    #[arg(long, default_value_t = 8)]
    pub board: u8,
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
    /// Go on past suite lines that cannot be read (a malformed line, or a position that no legal game can reach,
    /// such as line 51 of the common perftsuite.epd): each is named on stderr with its reason, the rest of the
    /// suite is checked, and the exit code is that of the lines checked. Without it such a line stops the run
    /// (exit 2) before anything is counted.
    #[arg(long)]
    pub skip_bad_lines: bool,
    /// Skip suite entries whose expected count exceeds this many nodes.
    #[arg(long, default_value_t = 100_000_000)]
    pub max_nodes: u64,
    /// Skip suite entries deeper than this many plies.
    #[arg(value_parser = crate::cli::args::int_in(0u32, 64), long)]
    pub max_depth: Option<u32>,
    /// Worker threads (default: all cores).
    #[arg(value_parser = crate::cli::args::threads, long)]
    pub threads: Option<usize>,
    /// Read FENs as Chess960 (Shredder-FEN or X-FEN castling letters; castling as king takes rook in UCI).
    #[arg(long)]
    pub chess960: bool,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
    /// Transposition table for perft, in MiB (0: none, the default). Shared by all threads.
    #[arg(long, default_value_t = 0)]
    pub hash_mb: usize,
    /// Suite report format: `text`, or `csv` (one row per position and depth: fen, depth, expected, actual,
    /// nodes, seconds) on stdout.
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    pub format: ReportFormat,
    /// Compare with an external UCI engine that supports `go perft` (e.g. /usr/games/stockfish; for
    /// --game xiangqi /usr/games/fairy-stockfish, set to UCI_Variant xiangqi) at --depth: on a difference,
    /// descend into the first differing move until the position and move list where the generators first
    /// disagree. Works with --fen and with --suite (every line at --depth).
    #[arg(long, value_name = "CMD")]
    pub compare_with: Option<String>,
    /// Seconds to wait for each reply of the --compare-with engine.
    #[arg(value_parser = crate::cli::args::int_in(1u64, 86_400), long, default_value_t = 120)]
    pub compare_timeout_s: u64,
}

/// How `arbiter perft --suite` reports.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReportFormat {
    /// Human-readable lines and a summary.
    Text,
    /// CSV rows: fen, depth, expected, actual, nodes, seconds.
    Csv,
}

/// The most worker threads `--threads` accepts.
pub const MAX_THREADS: usize = super::args::MAX_THREADS;

/// Runs `arbiter perft`: 0 when all counts match (or a single count was printed), 1 on a mismatch, 2 on
/// unreadable input.
///
/// # Errors
/// Only for failures to set up the thread pool; bad input is reported and turned into exit code 2.
pub fn run(args: PerftArgs) -> anyhow::Result<i32> {
    if args.depth > MAX_PERFT_DEPTH {
        eprintln!("error: --depth {}: at most {MAX_PERFT_DEPTH} plies", args.depth);
        return Ok(2);
    }
    if args.divide && args.depth == 0 {
        eprintln!("error: --divide needs --depth of at least 1");
        return Ok(2);
    }
    if let Some(n) = args.threads
        && !(1..=MAX_THREADS).contains(&n)
    {
        eprintln!("error: --threads {n}: expected 1 to {MAX_THREADS}");
        return Ok(2);
    }
    // Allocated once, here, so that a size the machine cannot give is a clear error, not an abort.
    let table = match args.hash_mb {
        0 => None,
        mb => match PerftTable::try_new(mb) {
            Some(table) => Some(table),
            None => {
                eprintln!("error: --hash-mb {mb}: cannot allocate that much memory");
                return Ok(2);
            }
        },
    };
    if args.suite.is_some() && args.divide {
        eprintln!("error: --divide works with --fen, not --suite (a failing suite line prints its divide)");
        return Ok(2);
    }
    if args.chess960 && args.game != GameKind::Chess {
        eprintln!("error: --chess960 applies to --game chess only");
        return Ok(2);
    }
    if args.board != 8 && args.game != GameKind::Russian {
        eprintln!("error: --board {}: only --game russian is played on 4x4 and 6x6 (the default is 8)", args.board);
        return Ok(2);
    }
    if ![4, 6, 8].contains(&args.board) {
        eprintln!("error: --board {}: expected 4, 6 or 8", args.board);
        return Ok(2);
    }
    if args.game.is_checkers() && args.compare_with.is_some() {
        eprintln!("error: --compare-with: no UCI engine for checkers (--game {})", args.game.name());
        return Ok(2);
    }
    if let Some(n) = args.threads {
        rayon::ThreadPoolBuilder::new().num_threads(n.max(1)).build_global().context("building the thread pool")?;
    }
    let table = table.as_ref();
    match args.game {
        GameKind::Chess => run_game::<crate::chess::Game>(&args, table),
        GameKind::Xiangqi => run_game::<crate::xiangqi::Game>(&args, table),
        GameKind::Russian => match args.board {
            4 => run_game::<crate::checkers::Game<false, 4>>(&args, table),
            6 => run_game::<crate::checkers::Game<false, 6>>(&args, table),
            _ => run_game::<crate::checkers::Russian>(&args, table),
        },
        GameKind::English => run_game::<crate::checkers::English>(&args, table),
    }
}

/// `arbiter perft` for game `G`, once the flags are checked; `table` is the `--hash-mb` table, if any.
fn run_game<G: Game>(args: &PerftArgs, table: Option<&PerftTable>) -> anyhow::Result<i32> {
    match (&args.suite, &args.compare_with) {
        (Some(path), Some(cmd)) => compare_suite::<G>(args, path, cmd),
        (Some(path), None) => run_suite::<G>(args, path, table),
        (None, Some(cmd)) => {
            let fen = args.fen.clone().unwrap_or_else(G::initial_fen);
            if let Err(e) = G::read_fen(&fen, args.chess960) {
                eprintln!("error: --fen {}: {e}", crate::notation::quote::shown(&fen));
                return Ok(2);
            }
            compare_fens::<G>(args, &[(None, fen)], cmd)
        }
        (None, None) => run_single::<G>(args, table),
    }
}

/// Compares Arbiter with `cmd` on each FEN at `args.depth`; prints each divergence; 0 when all agree, 1 on a
/// divergence, 2 when the engine cannot be used.
fn compare_fens<G: Game>(args: &PerftArgs, fens: &[(Option<String>, String)], cmd: &str) -> anyhow::Result<i32> {
    let timeout = std::time::Duration::from_secs(args.compare_timeout_s.max(1));
    let mut theirs = match UciPerftOracle::start::<G>(cmd, args.chess960, timeout) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: --compare-with {cmd}: {e}");
            return Ok(2);
        }
    };
    let mut ours = ArbiterOracle::<G>::new(args.chess960);
    let mut differ = 0;
    for (place, fen) in fens {
        match find_divergence::<G>(&mut ours, &mut theirs, fen, args.depth, args.chess960) {
            Ok(None) => {}
            Ok(Some(d)) => {
                differ += 1;
                print_divergence(place.as_deref(), fen, args.depth, &d, cmd);
            }
            Err(e) => {
                eprintln!("error: {}{fen}: {e}", place.as_deref().map(|p| format!("{p}: ")).unwrap_or_default());
                return Ok(2);
            }
        }
    }
    println!(
        "{} positions compared with {cmd} at depth {}: {} agree, {differ} differ",
        fens.len(),
        args.depth,
        fens.len() - differ
    );
    Ok(if differ == 0 { 0 } else { 1 })
}

fn print_divergence(place: Option<&str>, fen: &str, depth: u32, d: &Divergence, cmd: &str) {
    let at = place.map(|p| format!("{p}: ")).unwrap_or_default();
    println!("DIFFER {at}{fen} depth {depth}: arbiter {} vs {cmd} {}", d.root_counts.0, d.root_counts.1);
    println!("  after moves: {}", if d.moves.is_empty() { "(root)".to_string() } else { d.moves.join(" ") });
    println!("  position:    {} (depth {} left)", d.fen, d.depth);
    println!(
        "  only arbiter generates: {}",
        if d.only_first.is_empty() { "-".to_string() } else { d.only_first.join(" ") }
    );
    println!(
        "  only {cmd} generates: {}",
        if d.only_second.is_empty() { "-".to_string() } else { d.only_second.join(" ") }
    );
}

/// Reads a suite of game `G` ([`read_suite`]); with `--skip-bad-lines`, lines that cannot be read are named on
/// stderr and left out.
fn read_suite_lines<G: Game>(
    path: &std::path::Path,
    args: &PerftArgs,
) -> Result<Vec<Epd>, crate::notation::epd::EpdError> {
    let lines = read_suite::<G>(path, args.chess960, args.skip_bad_lines)?;
    for bad in &lines.bad {
        eprintln!("skipped (--skip-bad-lines): {bad}");
    }
    if !lines.bad.is_empty() {
        eprintln!(
            "{} of {} lines of {} skipped by --skip-bad-lines",
            lines.bad.len(),
            lines.bad.len() + lines.epds.len(),
            path.display()
        );
    }
    Ok(lines.epds)
}

fn compare_suite<G: Game>(args: &PerftArgs, path: &std::path::Path, cmd: &str) -> anyhow::Result<i32> {
    let epds = match read_suite_lines::<G>(path, args) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(2);
        }
    };
    let fens: Vec<(Option<String>, String)> =
        epds.iter().map(|e| (Some(format!("{}:{}", path.display(), e.line)), e.fen.clone())).collect();
    compare_fens::<G>(args, &fens, cmd)
}

fn run_single<G: Game>(args: &PerftArgs, table: Option<&PerftTable>) -> anyhow::Result<i32> {
    let fen = args.fen.clone().unwrap_or_else(G::initial_fen);
    let mut pos = match G::read_fen(&fen, args.chess960) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: --fen {}: {e}", crate::notation::quote::shown(&fen));
            return Ok(2);
        }
    };
    let start = Instant::now();
    let nodes = if args.divide {
        let rows = sorted_divide::<G>(&mut pos, args.depth.max(1));
        print_divide(&rows);
        rows.iter().map(|r| r.1).sum()
    } else {
        perft_split::<G>(&pos, args.depth, table)
    };
    let secs = start.elapsed().as_secs_f64();
    println!("nodes {nodes}");
    eprintln!("depth {} nodes {nodes} time {secs:.3}s {:.1} Mnps", args.depth, nodes as f64 / secs.max(1e-9) / 1e6);
    Ok(0)
}

fn print_divide(rows: &[(String, u64)]) {
    let width = rows.iter().map(|r| r.1.to_string().len()).max().unwrap_or(1);
    for (m, n) in rows {
        println!("{m:<6} {n:>width$}");
    }
    println!("moves {}", rows.len());
}

fn run_suite<G: Game>(args: &PerftArgs, path: &std::path::Path, table: Option<&PerftTable>) -> anyhow::Result<i32> {
    let epds = match read_suite_lines::<G>(path, args) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(2);
        }
    };
    let plan = match plan_checks(path, &epds, args.max_nodes, args.max_depth) {
        Ok(plan) => plan,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(2);
        }
    };
    let (checks, skipped, opcodes) = (plan.checks, plan.skipped, plan.opcodes);
    if skipped > 0 {
        eprintln!("{skipped} of {opcodes} counts skipped by --max-nodes {} / --max-depth", args.max_nodes);
    }
    let total_expected: u64 = checks.iter().map(|c| c.expected).sum();
    let bar = if args.quiet { ProgressBar::hidden() } else { ProgressBar::new(total_expected) };
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {percent}% {msg}")
            .expect("static template")
            .progress_chars("=> "),
    );
    let start = Instant::now();
    let counted = run_checks::<G>(&epds, &checks, args.chess960, table, |expected| bar.inc(expected));
    bar.finish_and_clear();
    let secs = start.elapsed().as_secs_f64();
    let actual: Vec<u64> = counted.iter().map(|c| c.nodes).collect();
    let seconds: Vec<f64> = counted.iter().map(|c| c.seconds).collect();
    let mut failures = 0;
    let mut csv = (args.format == ReportFormat::Csv).then(|| csv::Writer::from_writer(std::io::stdout()));
    if let Some(w) = csv.as_mut() {
        w.write_record(["fen", "depth", "expected", "actual", "nodes", "seconds"])?;
    }
    for ((c, &n), &t) in checks.iter().zip(&actual).zip(&seconds) {
        if let Some(w) = csv.as_mut() {
            let row = [
                epds[c.epd].fen.clone(),
                c.depth.to_string(),
                c.expected.to_string(),
                n.to_string(),
                n.to_string(),
                format!("{t:.6}"),
            ];
            w.write_record(&row)?;
        }
        if n != c.expected {
            failures += 1;
            if csv.is_none() {
                report_failure::<G>(path, &epds[c.epd], c, n, args.chess960);
            } else {
                eprintln!(
                    "FAIL {}:{}: {} depth {} expected {} actual {n}",
                    path.display(),
                    epds[c.epd].line,
                    epds[c.epd].fen,
                    c.depth,
                    c.expected
                );
            }
        }
    }
    if let Some(mut w) = csv {
        w.flush()?;
        let nodes: u64 = actual.iter().sum();
        eprintln!(
            "{} checks, {failures} failed, {nodes} nodes, {secs:.2} s, {:.1} Mnps",
            checks.len(),
            nodes as f64 / secs.max(1e-9) / 1e6
        );
        return Ok(if failures == 0 { 0 } else { 1 });
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

fn report_failure<G: Game>(path: &std::path::Path, epd: &Epd, c: &Check, actual: u64, chess960: bool) {
    println!("FAIL {}:{}: {}", path.display(), epd.line, epd.fen);
    println!(
        "  depth {} expected {} actual {} (difference {})",
        c.depth,
        c.expected,
        actual,
        actual as i128 - c.expected as i128
    );
    let mut pos = suite_position::<G>(epd, chess960);
    if c.depth >= 1 {
        println!("  divide at depth {}:", c.depth);
        for (m, n) in sorted_divide::<G>(&mut pos, c.depth) {
            println!("    {m:<6} {n}");
        }
    }
}
