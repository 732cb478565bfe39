//! `arbiter perft`: node counts for one position or a whole EPD suite, with divide for debugging, for chess
//! (the default), Xiangqi (`--game xiangqi`) or checkers (`--game russian|english`, `--board 4|6|8`). The
//! driver is written once over [`Game`].
//!
//! Ctrl-C or SIGTERM ends a run at once with exit 130 (`install_perft_interrupt`): an external engine is sent
//! `stop` and `quit`, and its process group is killed and reaped; a count of Arbiter's own generator is dropped.

use super::{Classify as _, Failure};
use anyhow::Context;
use arbiter::game::Game;
pub use arbiter::game::perft::MAX_PERFT_DEPTH;
use arbiter::game::perft::{PerftTable, perft_split};
pub use arbiter::games::GameKind;
use arbiter::player::spec::parse_engine_for;
use arbiter::player::{EachArgs, EngineKind};
use arbiter::suite::compare::{PerftTimeouts, compare_spec};
use arbiter::suite::perft::sorted_divide;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, LazyLock};
use std::time::{Duration, Instant};
use suite::{compare_fens, compare_suite, run_suite};

mod suite;

/// Flags of `arbiter perft`.
#[derive(clap::Args, Debug)]
pub struct PerftArgs {
    /// The game: `chess` (the default), `xiangqi` (Xiangqi FEN as Fairy-Stockfish writes it, moves as `h2e2`),
    /// `russian` (Russian draughts, PDN FEN `W:Wa1,c1:Bb6`, moves `c3-d4`, `c3:e5:g3`) or `english` (English
    /// checkers, PDN FEN `B:W21,22:B1,2`, moves `9-13`, `9x18x27`).
    #[arg(long, value_parser = crate::cli::args::game(), default_value = "chess")]
    pub game: GameKind,
    /// Checkers board size, squares a side: 8 (the default), or 4 and 6 for Russian rules on small boards.
    #[arg(long, default_value_t = 8)]
    pub board: u8,
    /// Position to count from (FEN); the start position when neither --fen nor --suite is given.
    #[arg(long, conflicts_with = "suite")]
    pub fen: Option<String>,
    /// Depth in plies: for --fen and --compare-with (default 5); with --suite, check only the `;Dn` counts of
    /// this depth, every line at this depth (without it, every depth up to --max-nodes/--max-depth).
    #[arg(long)]
    pub depth: Option<u32>,
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
    /// nodes, seconds, engine) on stdout.
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    pub format: ReportFormat,
    /// The engine whose perft is checked against the suite's counts (--suite) or against Arbiter's generator
    /// (--fen), as `arbiter match` takes it: a built-in build (`seed`, `config=FILE`: Arbiter's own
    /// generator) or an external UCI engine with `go perft` (`cmd=/usr/games/stockfish,option.Threads=1`).
    /// On a difference, the descent to the first differing position, with Arbiter's generator as the
    /// reference.
    #[arg(long, value_name = "SPEC", conflicts_with = "compare_with")]
    pub engine: Option<String>,
    /// Compare Arbiter's generator with a UCI engine that supports `go perft` at --depth: a command line with
    /// quoted arguments ("/usr/games/fairy-stockfish --foo 'a b'") or an engine spec as --engine takes it
    /// (name=sf,cmd=/usr/games/stockfish,option.Threads=1: an `=` before any space reads as a spec). On a
    /// difference, descend into the first differing move until the position and move list where the
    /// generators first disagree. Works with --fen and with --suite (every line at --depth). For --game
    /// xiangqi, /usr/games/fairy-stockfish (set to UCI_Variant xiangqi).
    #[arg(long, value_name = "CMD|SPEC")]
    pub compare_with: Option<String>,
    /// Seconds to wait for each count of the --engine or --compare-with engine.
    #[arg(value_parser = crate::cli::args::int_in(1u64, 86_400), long, default_value_t = 120)]
    pub compare_timeout_s: u64,
    /// Seconds the --engine or --compare-with engine has to answer the probe (`position startpos`, `go perft
    /// 1`) with a count; an engine that does not is named as not supporting `go perft` (exit 2).
    #[arg(value_parser = crate::cli::args::int_in(1u64, 3600), long, default_value_t = 5)]
    pub probe_timeout_s: u64,
    /// Send the --engine or --compare-with engine an option.NAME it does not list; without it such an option
    /// (often a typo) is refused before any count (exit 2), with the closest names the engine lists.
    #[arg(long)]
    pub allow_unknown_options: bool,
}

/// How `arbiter perft --suite` reports.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReportFormat {
    /// Human-readable lines and a summary.
    Text,
    /// CSV rows: fen, depth, expected, actual, nodes, seconds, engine.
    Csv,
}

/// Set by Ctrl-C or SIGTERM: the engine's wait ends at once ([`arbiter::uci::EngineProcess::set_cancel`]).
static INTERRUPTED: LazyLock<Arc<AtomicBool>> = LazyLock::new(|| Arc::new(AtomicBool::new(false)));

/// How long after Ctrl-C the run may take to end its engine (`stop`, `quit`, the group killed and reaped)
/// before the handler kills every engine's group and exits itself.
const INTERRUPT_GRACE: Duration = Duration::from_secs(2);

/// Installs the Ctrl-C/SIGTERM handler of `arbiter perft`: it sets [`INTERRUPTED`], so that an external engine's
/// wait ends (the engine sent `stop`) and the run returns [`super::EXIT_INTERRUPTED`] with the engine sent `quit`,
/// killed and reaped; once no engine runs (at once for Arbiter's own generator, whose count cannot be stopped
/// midway), or after [`INTERRUPT_GRACE`] (every engine's process group then killed), the handler exits with
/// [`super::EXIT_INTERRUPTED`] itself. Without a handler (the system refused it) a warning is printed.
fn install_perft_interrupt() {
    let installed = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            return;
        }
        super::stderr_line(format_args!("\narbiter perft: interrupted"));
        let deadline = Instant::now() + INTERRUPT_GRACE;
        while !arbiter::uci::group::engine_groups().is_empty() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
        arbiter::uci::group::kill_all_engines();
        std::process::exit(super::EXIT_INTERRUPTED);
    });
    if let Err(error) = installed {
        super::stderr_line(format_args!("warning: cannot catch Ctrl-C ({error})"));
    }
}

/// The depth of `--fen` and `--compare-with` when `--depth` is not given.
pub const DEFAULT_DEPTH: u32 = 5;

/// The most worker threads `--threads` accepts.
pub const MAX_THREADS: usize = super::args::MAX_THREADS;

/// Runs `arbiter perft`: 0 when all counts match (or a single count was printed), 1 on a mismatch, 2 on
/// unreadable input.
///
/// # Errors
/// Only for failures to set up the thread pool; bad input is reported and turned into exit code 2.
pub fn run(args: PerftArgs) -> Result<i32, Failure> {
    let depth = args.depth.unwrap_or(DEFAULT_DEPTH);
    if depth > MAX_PERFT_DEPTH {
        eprintln!("error: --depth {depth}: at most {MAX_PERFT_DEPTH} plies");
        return Ok(2);
    }
    if args.divide && depth == 0 {
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
    if args.game.is_checkers() && (args.compare_with.is_some() || args.engine.is_some()) {
        let flag = if args.engine.is_some() { "--engine" } else { "--compare-with" };
        eprintln!("error: {flag}: no UCI engine for checkers (--game {})", args.game.name());
        return Ok(2);
    }
    if let Some(n) = args.threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n.max(1))
            .build_global()
            .context("building the thread pool")
            .system()?;
    }
    let table = table.as_ref();
    install_perft_interrupt();
    match args.game {
        GameKind::Chess => run_game::<arbiter::chess::ChessGame>(&args, table),
        GameKind::Xiangqi => run_game::<arbiter::xiangqi::XiangqiGame>(&args, table),
        GameKind::Russian => match args.board {
            4 => run_game::<arbiter::checkers::CheckersGame<false, 4>>(&args, table),
            6 => run_game::<arbiter::checkers::CheckersGame<false, 6>>(&args, table),
            _ => run_game::<arbiter::checkers::Russian>(&args, table),
        },
        GameKind::English => run_game::<arbiter::checkers::English>(&args, table),
    }
}

/// How long an engine may take, from the flags.
fn timeouts(args: &PerftArgs) -> PerftTimeouts {
    PerftTimeouts {
        probe: Duration::from_secs(args.probe_timeout_s.max(1)),
        reply: Duration::from_secs(args.compare_timeout_s.max(1)),
    }
}

/// The depth of `--fen` and `--compare-with`.
fn depth(args: &PerftArgs) -> u32 {
    args.depth.unwrap_or(DEFAULT_DEPTH)
}

/// `arbiter perft` for game `G`, once the flags are checked; `table` is the `--hash-mb` table, if any.
fn run_game<G: Game>(args: &PerftArgs, table: Option<&PerftTable>) -> Result<i32, Failure> {
    let engine = match &args.engine {
        None => None,
        Some(text) => match parse_engine_for(text, &EachArgs::default(), args.game) {
            Ok(mut spec) => {
                if args.allow_unknown_options {
                    spec.allow_unknown_options();
                }
                Some(spec)
            }
            Err(e) => return Err(Failure::Input(e.into())),
        },
    };
    let compared = match &args.compare_with {
        None => None,
        Some(text) => match compare_spec(text, args.game) {
            Ok(mut spec) => {
                if args.allow_unknown_options {
                    spec.allow_unknown_options();
                }
                Some((spec, text.clone()))
            }
            Err(e) => return Err(Failure::Input(e.into())),
        },
    };
    for spec in engine.iter().chain(compared.as_ref().map(|(spec, _)| spec)) {
        let code = super::exit_code(super::epd_cmd::check_bench(spec).map(|()| 0));
        if code != 0 {
            return Ok(code);
        }
    }
    let external = engine.as_ref().filter(|spec| matches!(spec.kind, EngineKind::Uci(_)));
    match (&args.suite, compared) {
        (Some(path), Some((spec, label))) => compare_suite::<G>(args, path, &spec, &label),
        (Some(path), None) => run_suite::<G>(args, path, table, engine.as_ref()),
        (None, compared) => {
            let Some((spec, label)) = compared.or_else(|| external.map(|spec| (spec.clone(), spec.name.clone())))
            else {
                return run_single::<G>(args, table);
            };
            let fen = args.fen.clone().unwrap_or_else(G::initial_fen);
            if let Err(e) = G::read_fen(&fen, args.chess960) {
                eprintln!("error: --fen {}: {e}", arbiter::notation::quote::shown(&fen));
                return Ok(2);
            }
            compare_fens::<G>(args, &[(None, fen)], &spec, &label)
        }
    }
}

fn run_single<G: Game>(args: &PerftArgs, table: Option<&PerftTable>) -> Result<i32, Failure> {
    let fen = args.fen.clone().unwrap_or_else(G::initial_fen);
    let mut pos = match G::read_fen(&fen, args.chess960) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: --fen {}: {e}", arbiter::notation::quote::shown(&fen));
            return Ok(2);
        }
    };
    let depth = depth(args);
    let start = Instant::now();
    let nodes = if args.divide {
        let rows = sorted_divide::<G>(&mut pos, depth.max(1));
        print_divide(&rows);
        rows.iter().map(|r| r.1).sum()
    } else {
        perft_split::<G>(&pos, depth, table)
    };
    let secs = start.elapsed().as_secs_f64();
    println!("nodes {nodes}");
    eprintln!("depth {depth} nodes {nodes} time {secs:.3}s {:.1} Mnps", nodes as f64 / secs.max(1e-9) / 1e6);
    Ok(0)
}

fn print_divide(rows: &[(String, u64)]) {
    let width = rows.iter().map(|r| r.1.to_string().len()).max().unwrap_or(1);
    for (m, n) in rows {
        println!("{m:<6} {n:>width$}");
    }
    println!("moves {}", rows.len());
}
