//! Arbiter's own balanced opening books (`arbiter book` prints and writes them): [`BookRequest`] in, a
//! [`Book`] out, written as EPD by [`write_book`].
//!
//! Method: from the start position play `plies` uniformly random legal moves (seeded, so the book is
//! reproducible), then search the position with the seed engine at `nodes`; keep it when the score stays
//! within `window` centipawns of equality, the side to move is not in check, the game is not over, and its
//! key was not kept before. Each kept position is one EPD line with `id` and a `c0` comment holding the score.
//!
//! The Xiangqi book is made the same way ([`generate_xiangqi`]): random plies from the Xiangqi
//! start position, kept when the side to move is not in check and the built-in Xiangqi `seed` build scores the
//! position within the window.

use crate::chess::{ChessGame, Color, Position};
use crate::engine::EngineGame;
use crate::engine::SearchLimits;
use crate::engine::chess::config::EngineConfig;
use crate::engine::chess::search::{Engine, Limits};
use crate::engine::xiangqi::{XiangqiConfig, XiangqiEngine};
use crate::game::opening::random_openings;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::collections::HashSet;
use std::io::Write;
use thiserror::Error;

/// The most positions one book may hold.
pub const MAX_POSITIONS: usize = 1_000_000;
/// The most random plies per opening.
pub const MAX_PLIES: usize = 200;
/// How many random candidates `generate` tries per wanted position before giving up.
pub const CANDIDATES_PER_POSITION: usize = 200;

/// A book as asked for: the game, how many positions, how they are drawn and checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookRequest {
    /// The game of the book (checked by its built-in `seed` build).
    pub game: EngineGame,
    /// How many positions to keep, 1 to [`MAX_POSITIONS`].
    pub positions: usize,
    /// Random plies from the start position, 1 to [`MAX_PLIES`].
    pub plies: usize,
    /// Keep a position when the engine's score is within this many centipawns of 0.
    pub window: i32,
    /// Nodes for the engine's check of each candidate position.
    pub nodes: u64,
    /// Random seed.
    pub seed: u64,
}

/// Why a [`BookRequest`] cannot be made; each message starts with the field at fault ([`BookError::field`]).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BookError {
    /// A position count outside 1..=[`MAX_POSITIONS`].
    #[error("positions {0}: expected 1 to {MAX_POSITIONS}")]
    Positions(usize),
    /// Random plies outside 1..=[`MAX_PLIES`].
    #[error("plies {0}: expected 1 to {MAX_PLIES}")]
    Plies(usize),
    /// A negative window.
    #[error("window {0}: expected a non-negative number of centipawns")]
    Window(i32),
    /// No node for the check.
    #[error("nodes 0: expected at least 1 node")]
    NoNodes,
}

impl BookError {
    /// The [`BookRequest`] field at fault, as the message starts.
    pub fn field(&self) -> &'static str {
        match self {
            BookError::Positions(_) => "positions",
            BookError::Plies(_) => "plies",
            BookError::Window(_) => "window",
            BookError::NoNodes => "nodes",
        }
    }
}

impl BookRequest {
    /// Checks the request's numbers.
    ///
    /// # Errors
    /// The first [`BookError`], in the order of the fields.
    pub fn validate(&self) -> Result<(), BookError> {
        if !(1..=MAX_POSITIONS).contains(&self.positions) {
            return Err(BookError::Positions(self.positions));
        }
        if !(1..=MAX_PLIES).contains(&self.plies) {
            return Err(BookError::Plies(self.plies));
        }
        if self.window < 0 {
            return Err(BookError::Window(self.window));
        }
        if self.nodes == 0 {
            return Err(BookError::NoNodes);
        }
        Ok(())
    }
}

/// A generated book: its id (`arbiter-book`, `xiangqi-book`) and its positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    /// The id of the book, the prefix of each line's `id` opcode.
    pub id: &'static str,
    /// The kept positions, in order.
    pub entries: Vec<BookEntry>,
}

/// Makes the book of `request` with its game's built-in `seed` build ([`generate`] for chess,
/// [`generate_xiangqi`] for Xiangqi); it may hold fewer positions than asked (see [`CANDIDATES_PER_POSITION`]).
pub fn make_book(request: &BookRequest) -> Book {
    match request.game {
        EngineGame::Chess => Book { id: "arbiter-book", entries: generate(request, EngineConfig::seed()) },
        EngineGame::Xiangqi => {
            let seed = XiangqiConfig::builtin("seed").expect("the seed build is built in");
            Book { id: "xiangqi-book", entries: generate_xiangqi(request, seed) }
        }
    }
}

/// Writes `book` as EPD: per position the first four FEN fields, `id "BOOK N"` and `c0 "seed SCORE cp"`.
///
/// # Errors
/// The writer's error.
pub fn write_book(book: &Book, out: &mut dyn Write) -> std::io::Result<()> {
    for (i, e) in book.entries.iter().enumerate() {
        let four: Vec<&str> = e.fen.split(' ').take(4).collect();
        writeln!(out, "{} id \"{} {}\"; c0 \"seed {} cp\";", four.join(" "), book.id, i + 1, e.score_white)?;
    }
    out.flush()
}

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
    pub game: ChessGame,
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
    let mut game = ChessGame::new(Position::startpos());
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

/// Generates `request.positions` balanced chess openings (see the module doc) with [`candidate_opening`]; deterministic
/// for the same arguments. Gives up after [`CANDIDATES_PER_POSITION`] candidates per wanted position and
/// returns what it has.
pub fn generate(request: &BookRequest, config: EngineConfig) -> Vec<BookEntry> {
    let mut rng = StdRng::seed_from_u64(request.seed);
    let mut engine = Engine::new(config);
    let mut seen = HashSet::new();
    let mut out = Vec::with_capacity(request.positions.min(4096));
    let limits = Limits::nodes(request.nodes);
    let mut tries = 0usize;
    while out.len() < request.positions && tries < request.positions.saturating_mul(CANDIDATES_PER_POSITION) {
        tries += 1;
        let Some(opening) =
            candidate_opening(&mut rng, request.plies, request.window, &mut engine, &limits, |key| seen.insert(key))
        else {
            continue;
        };
        let pos = opening.game.position();
        let score_white = if pos.side_to_move() == Color::White { opening.score } else { -opening.score };
        out.push(BookEntry { fen: pos.to_fen(), score_white });
    }
    out
}

/// Generates `request.positions` balanced Xiangqi openings: [`random_openings`] of `request.plies` random
/// plies from the Xiangqi start position, seeded by `request.seed`, kept when the side to move is not in check and a search
/// of `request.nodes` nodes by the built-in Xiangqi build `config`, cleared first, scores the position within
/// `request.window` centipawns of 0 (distinct positions only). Deterministic for the same arguments; gives up
/// after 100 candidates per wanted position and returns what it has.
pub fn generate_xiangqi(request: &BookRequest, config: XiangqiConfig) -> Vec<BookEntry> {
    let mut engine = XiangqiEngine::new(config);
    let limits = SearchLimits { nodes: Some(request.nodes), ..SearchLimits::default() };
    let mut scores = Vec::new();
    let start = crate::xiangqi::XiangqiGame::new(crate::xiangqi::Position::startpos());
    let openings = random_openings(&start, request.positions, request.plies, request.seed, |game| {
        let pos = game.position();
        if pos.in_check(pos.side_to_move()) {
            return false;
        }
        engine.new_game();
        let score = engine.search(pos, &game.history_keys(), limits).score;
        let keep = score.abs() <= request.window;
        if keep {
            scores.push(if pos.side_to_move() == crate::xiangqi::Color::RED { score } else { -score });
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
