//! `arbiter book`: makes Arbiter's own balanced opening book.
//!
//! Method: from the start position play `--plies` uniformly random legal moves (seeded, so the book is
//! reproducible), then search the position with the seed engine at `--nodes`; keep it when the score stays
//! within `--window` centipawns of equality, the side to move is not in check, the game is not over, and its
//! key was not kept before. Each kept position is one EPD line with `id` and a `c0` comment holding the score.
//!
//! `--game xiangqi` makes the Xiangqi book the same way ([`generate_xiangqi`]): random plies from the Xiangqi
//! start position, kept when the side to move is not in check and the built-in Xiangqi `seed` build scores the
//! position within the window; written to `suites/openings/xiangqi-book.epd` by default.

use crate::chess::{Color, Game, Position};
use crate::engine::config::EngineConfig;
use crate::engine::search::{Engine, Limits};
use crate::runner::GameKind;
use crate::runner::variant::random_openings;
use crate::xiangqi::engine::{XiangqiConfig, XiangqiEngine, XiangqiLimits};
use anyhow::Context;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::collections::HashSet;
use std::io::Write;
use std::path::PathBuf;

/// Flags of `arbiter book`.
#[derive(clap::Args, Debug)]
pub struct BookArgs {
    /// The game of the book: chess, or Xiangqi (checked by the built-in Xiangqi seed build).
    #[arg(long, value_enum, default_value_t = GameKind::Chess)]
    pub game: GameKind,
    /// Where to write the EPD book (default: suites/openings/arbiter-book.epd, for Xiangqi
    /// suites/openings/xiangqi-book.epd).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// How many positions to keep.
    #[arg(value_parser = crate::cli::args::int_in(1usize, MAX_POSITIONS), long, default_value_t = 2000)]
    pub positions: usize,
    /// Random plies from the start position.
    #[arg(value_parser = crate::cli::args::int_in(0usize, MAX_PLIES), long, default_value_t = 8)]
    pub plies: usize,
    /// Keep a position when the engine's score is within this many centipawns of 0.
    #[arg(value_parser = crate::cli::args::int_in(0i32, 100_000), long, default_value_t = 50)]
    pub window: i32,
    /// Nodes for the engine's check of each candidate position.
    #[arg(value_parser = crate::cli::args::nodes, long, default_value_t = 5000)]
    pub nodes: u64,
    /// Random seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Replace the output file if it exists (the default output is the committed book).
    #[arg(long)]
    pub force: bool,
}

/// The most positions one book may hold.
pub const MAX_POSITIONS: usize = 1_000_000;
/// The most random plies per opening.
pub const MAX_PLIES: usize = 200;
/// How many random candidates `generate` tries per wanted position before giving up.
pub const CANDIDATES_PER_POSITION: usize = 200;

/// One kept opening: its FEN and the engine's score in centipawns from White's view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookEntry {
    /// The position, six-field FEN.
    pub fen: String,
    /// The seed engine's score, centipawns, White's view.
    pub score_white: i32,
}

/// A balanced opening found by [`candidate_opening`]: the game of its random plies and the engine's verdict.
#[derive(Clone, Debug)]
pub struct Opening {
    /// The start position and the random plies; its current position is the opening.
    pub game: Game,
    /// The engine's score of the opening, centipawns, from the side to move's view.
    pub score: i32,
}

/// Tries one candidate opening: plays `plies` uniformly random legal moves from the start position (one
/// `random_range` draw from `rng` per ply), then keeps the position when the side to move is not in check,
/// the game is not over, `fresh` accepts its Zobrist key, and a search within `limits` by `engine`, cleared
/// first ([`Engine::new_game`]), scores it within `window` centipawns of 0. `fresh` is asked before the search
/// (the book passes a set of keys kept so far; a caller without one passes `|_| true`). Returns `None` for a
/// rejected candidate; deterministic for the same `rng` state, arguments and engine config under node or
/// depth limits.
pub fn candidate_opening(
    rng: &mut StdRng,
    plies: usize,
    window: i32,
    engine: &mut Engine,
    limits: &Limits,
    mut fresh: impl FnMut(u64) -> bool,
) -> Option<Opening> {
    let mut game = Game::new(Position::startpos());
    for _ in 0..plies {
        let moves = game.position().legal_moves();
        if moves.is_empty() {
            return None;
        }
        let m = moves.as_slice()[rng.random_range(0..moves.len())];
        game.play(m);
    }
    let pos = game.position();
    if pos.in_check() || game.outcome().is_some() || !fresh(pos.key()) {
        return None;
    }
    engine.new_game();
    let result = engine.search(pos, game.keys(), limits);
    if result.score.abs() > window {
        return None;
    }
    Some(Opening { game, score: result.score })
}

/// Generates `args.positions` balanced openings (see the module doc) with [`candidate_opening`]; deterministic
/// for the same arguments. Gives up after [`CANDIDATES_PER_POSITION`] candidates per wanted position and
/// returns what it has.
pub fn generate(args: &BookArgs, config: EngineConfig) -> Vec<BookEntry> {
    let mut rng = StdRng::seed_from_u64(args.seed);
    let mut engine = Engine::new(config);
    let mut seen = HashSet::new();
    let mut out = Vec::with_capacity(args.positions.min(4096));
    let limits = Limits { nodes: Some(args.nodes), ..Limits::default() };
    let mut tries = 0usize;
    while out.len() < args.positions && tries < args.positions.saturating_mul(CANDIDATES_PER_POSITION) {
        tries += 1;
        let Some(opening) =
            candidate_opening(&mut rng, args.plies, args.window, &mut engine, &limits, |key| seen.insert(key))
        else {
            continue;
        };
        let pos = opening.game.position();
        let score_white = if pos.side_to_move() == Color::White { opening.score } else { -opening.score };
        out.push(BookEntry { fen: pos.to_fen(), score_white });
    }
    out
}

/// Generates `args.positions` balanced Xiangqi openings: [`random_openings`] of `args.plies` random plies from
/// the Xiangqi start position, seeded by `args.seed`, kept when the side to move is not in check and a search
/// of `args.nodes` nodes by the built-in Xiangqi build `config`, cleared first, scores the position within
/// `args.window` centipawns of 0 (distinct positions only). Deterministic for the same arguments; gives up
/// after 100 candidates per wanted position and returns what it has.
pub fn generate_xiangqi(args: &BookArgs, config: XiangqiConfig) -> Vec<BookEntry> {
    let mut engine = XiangqiEngine::new(config);
    let limits = XiangqiLimits { nodes: Some(args.nodes), ..XiangqiLimits::default() };
    let mut scores = Vec::new();
    let start = crate::xiangqi::Game::new(crate::xiangqi::Position::startpos());
    let openings = random_openings(&start, args.positions, args.plies, args.seed, |game| {
        let pos = game.position();
        if pos.in_check(pos.side_to_move()) {
            return false;
        }
        engine.new_game();
        let score = engine.search(pos, &game.history_keys(), limits).score;
        let keep = score.abs() <= args.window;
        if keep {
            scores.push(if pos.side_to_move() == crate::xiangqi::Color::Red { score } else { -score });
        }
        keep
    });
    // `random_openings` asks `keep` only for new positions, in order: the scores are those of the openings.
    openings
        .iter()
        .zip(scores)
        .map(|(game, score_white)| BookEntry { fen: game.position().to_fen(), score_white })
        .collect()
}

/// Runs `arbiter book`: writes the book and prints how many positions it holds.
///
/// # Errors
/// When the output file cannot be written.
pub fn run(args: BookArgs) -> anyhow::Result<i32> {
    let bad = |msg: String| {
        eprintln!("error: {msg}");
        Ok(2)
    };
    if let Err(e) = args.game.refuse_checkers("book") {
        return bad(e);
    }
    if !(1..=MAX_POSITIONS).contains(&args.positions) {
        return bad(format!("--positions {}: expected 1 to {MAX_POSITIONS}", args.positions));
    }
    if !(1..=MAX_PLIES).contains(&args.plies) {
        return bad(format!("--plies {}: expected 1 to {MAX_PLIES}", args.plies));
    }
    if args.window < 0 {
        return bad(format!("--window {}: expected a non-negative number of centipawns", args.window));
    }
    if args.nodes == 0 {
        return bad("--nodes 0: expected at least 1 node".to_string());
    }
    let out = args.out.clone().unwrap_or_else(|| PathBuf::from(crate::runner::plan::book_of(args.game)));
    if out.is_dir() {
        return bad(format!(
            "--out {}: a folder; expected a file (such as {})",
            out.display(),
            out.join("book.epd").display()
        ));
    }
    if out.exists() && !args.force {
        return bad(format!("{}: already exists; pass --force to replace it", out.display()));
    }
    let (entries, id) = match args.game {
        GameKind::Chess => (generate(&args, EngineConfig::seed()), "arbiter-book"),
        GameKind::Xiangqi => {
            let seed = XiangqiConfig::builtin("seed").expect("the seed build is built in");
            (generate_xiangqi(&args, seed), "xiangqi-book")
        }
        GameKind::Russian | GameKind::English => unreachable!("checkers refused above"),
    };
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let mut f =
        std::io::BufWriter::new(std::fs::File::create(&out).with_context(|| format!("creating {}", out.display()))?);
    for (i, e) in entries.iter().enumerate() {
        let four: Vec<&str> = e.fen.split(' ').take(4).collect();
        writeln!(f, "{} id \"{id} {}\"; c0 \"seed {} cp\";", four.join(" "), i + 1, e.score_white)
            .with_context(|| format!("writing {}", out.display()))?;
    }
    f.flush().with_context(|| format!("writing {}", out.display()))?;
    println!(
        "{} positions ({} random plies, |score| <= {} cp at {} nodes, seed {}) written to {}",
        entries.len(),
        args.plies,
        args.window,
        args.nodes,
        args.seed,
        out.display()
    );
    if entries.len() < args.positions {
        eprintln!(
            "error: only {} of {} positions found within {} cp after {} candidates each; widen --window or change --plies",
            entries.len(),
            args.positions,
            args.window,
            CANDIDATES_PER_POSITION
        );
        return Ok(1);
    }
    Ok(0)
}
