//! The built-in engines, one folder per game, behind one trait ([`BuiltinEngine`]) and one registry of the
//! builds known by name ([`registry`]):
//!
//! - [`chess`]: named evaluation weights and their TOML configs, an evaluation that is a dot product of
//!   weights and integer features, and an alpha-beta search with a transposition table.
//! - [`xiangqi`]: material and piece-square tables from TOML and an alpha-beta search with quiescence.
//!
//! A player ([`crate::player::BuiltinPlayer`]) drives any of them through [`BuiltinEngine`]: a game so far and
//! a [`SearchLimits`] in, a [`Thought`] (move, score, depth, nodes, principal variation) out, with a stop flag.
//!
//! ```
//! use arbiter::chess::ChessGame;
//! use arbiter::engine::chess::{Engine, EngineConfig};
//! use arbiter::engine::{BuiltinEngine, SearchLimits};
//! use std::sync::atomic::AtomicBool;
//!
//! let mut engine = Engine::build(EngineConfig::seed());
//! let game = ChessGame::new(arbiter::chess::Position::startpos());
//! let limits = SearchLimits { depth: Some(2), ..SearchLimits::default() };
//! let thought = engine.think(&game, &limits, &AtomicBool::new(false)).unwrap();
//! assert!(game.position().is_legal(thought.best_move));
//! ```

pub mod chess;
pub mod registry;
pub mod xiangqi;

pub use registry::{Build, BuildError, EngineGame};

use std::panic::UnwindSafe;
use std::sync::atomic::AtomicBool;

/// The clock of the side to move, as a built-in engine sees it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoverClock {
    /// Time left on the mover's clock, in milliseconds.
    pub time_ms: u64,
    /// The mover's increment per move, in milliseconds.
    pub inc_ms: Option<u64>,
    /// Moves to the next time control (`None`: the rest of the game is sudden death).
    pub movestogo: Option<u32>,
}

/// The limits of one move as UCI `go` sends them, for every engine (the runner's request of any player, and the
/// built-in chess engine's own `go` in [`chess::Limits`]): the clocks of both sides as they stand and the search limits
/// of the mover. With none set the player searches until it decides (UCI `go infinite`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GoLimits {
    /// Maximum search depth in plies (`go depth`).
    pub depth: Option<u32>,
    /// Maximum nodes searched (`go nodes`).
    pub nodes: Option<u64>,
    /// Thinking time for this move in milliseconds (`go movetime`).
    pub movetime_ms: Option<u64>,
    /// The first mover's (White's, Red's in Xiangqi) time left in milliseconds (`go wtime`).
    pub wtime_ms: Option<u64>,
    /// The second mover's time left in milliseconds (`go btime`).
    pub btime_ms: Option<u64>,
    /// The first mover's increment per move in milliseconds (`go winc`).
    pub winc_ms: Option<u64>,
    /// The second mover's increment per move in milliseconds (`go binc`).
    pub binc_ms: Option<u64>,
    /// Moves to the next time control (`go movestogo`; `None`: sudden death).
    pub movestogo: Option<u32>,
}

impl GoLimits {
    /// The limits as a built-in engine takes them, with `mover`'s clock as its own (`Color::White` is the first
    /// mover).
    pub fn for_mover(&self, mover: crate::chess::Color) -> SearchLimits {
        let (time, inc) = match mover {
            crate::chess::Color::White => (self.wtime_ms, self.winc_ms),
            crate::chess::Color::Black => (self.btime_ms, self.binc_ms),
        };
        SearchLimits {
            depth: self.depth,
            nodes: self.nodes,
            movetime_ms: self.movetime_ms,
            clock: time.map(|time_ms| MoverClock { time_ms, inc_ms: inc, movestogo: self.movestogo }),
        }
    }
}

/// How long a built-in engine may search one move: every limit that is set applies and the first one reached
/// stops the search; with none set the engine searches to its maximum depth.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchLimits {
    /// The deepest iteration, in plies.
    pub depth: Option<u32>,
    /// Stop when the node counter reaches this many nodes.
    pub nodes: Option<u64>,
    /// Think for this many milliseconds of wall time.
    pub movetime_ms: Option<u64>,
    /// The mover's clock, when the game is played under a time control.
    pub clock: Option<MoverClock>,
}

/// What one search of a built-in engine found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thought<M> {
    /// The move to play.
    pub best_move: M,
    /// The score in centipawns from the mover's view (mates are the engine's `±(MATE - plies)`).
    pub score: i32,
    /// The score as a mate in moves (not plies) when it announces one: positive when the mover mates, zero or
    /// negative when it is mated (the UCI `score mate` convention).
    pub mate_moves: Option<i32>,
    /// The depth of the last completed iteration, in plies.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// The principal variation, starting with `best_move` (may be short).
    pub pv: Vec<M>,
}

/// The mate distance in moves of a search score `score` where a mate in `p` plies is `±(mate - p)`, when
/// `is_mate` says the score announces a mate; `None` otherwise.
///
/// # Examples
/// ```
/// assert_eq!(arbiter::engine::mate_moves(29_997, 30_000, true), Some(2));
/// assert_eq!(arbiter::engine::mate_moves(-29_998, 30_000, true), Some(-1));
/// assert_eq!(arbiter::engine::mate_moves(35, 30_000, false), None);
/// ```
pub fn mate_moves(score: i32, mate: i32, is_mate: bool) -> Option<i32> {
    is_mate.then(|| {
        let moves = (mate - score.abs() + 1) / 2;
        if score > 0 { moves } else { -moves }
    })
}

/// A built-in engine: built from a config, cleared per game, searching the side to move's move in a game under
/// [`SearchLimits`], ending early where it can once a stop flag is set.
pub trait BuiltinEngine: Sized + 'static {
    /// The rules' game record it searches (start position, moves so far, key history).
    type Game;
    /// The move it returns.
    type Move: Copy + Eq + Send;
    /// Its build: name, hash size, weights.
    type Config: Clone + Send + UnwindSafe;

    /// The engine of `config` (allocates its transposition table).
    fn build(config: Self::Config) -> Self;

    /// The build's name.
    fn config_name(config: &Self::Config) -> &str;

    /// The build's transposition table size in MiB.
    fn config_hash_mb(config: &Self::Config) -> usize;

    /// Forgets the previous game (transposition table, histories).
    fn clear(&mut self);

    /// Searches the side to move's move in `game` under `limits`, ending early (with the best move found so far)
    /// once `stop` is set where the engine can; `None` when it has no move to give.
    fn think(&mut self, game: &Self::Game, limits: &SearchLimits, stop: &AtomicBool) -> Option<Thought<Self::Move>>;
}
