//! Players: what the runner asks for a move. A [`Player`] of a game `G` (chess by default, or Xiangqi: see
//! [`Game`]) gets the game so far and a [`GoRequest`] and returns a [`PlayerMove`] or a [`PlayerError`]:
//!
//! - [`builtin`]: a built-in engine ([`crate::engine`]) searching in the worker's thread ([`BuiltinPlayer`]);
//! - [`uci`]: an external UCI engine process ([`UciPlayer`]);
//! - [`engine_arg`]: the `--engine name=...,cmd=...,option.X=...` grammar, read into an [`EnginePlan`] once;
//! - [`plan`]: [`EnginePlan`], an entrant as `run.toml` stores it, and its resolution into an [`EngineSpec`];
//! - [`spec`]: [`EngineSpec`], one entrant of a match as it runs, which creates fresh players for the worker
//!   threads;
//! - [`bench`](mod@bench): the bench signature and speed of any engine ([`BenchResult`]), and the `bench=` check;
//! - [`error`]: [`PlayerError`], why a player gave no move.

pub mod bench;
pub mod book;
pub mod builtin;
pub mod check;
pub mod engine_arg;
pub mod error;
pub mod plan;
pub mod spec;
pub mod timecontrol;
pub mod uci;
pub mod xboard;

pub use crate::engine::GoLimits;
pub use bench::{BenchError, BenchOptions, BenchResult};
pub use builtin::BuiltinPlayer;
pub use engine_arg::{EachArgs, EngineArgError, bad_engine_name};
pub use error::PlayerError;
pub use plan::{EngineBuild, EnginePlan, UciPlan};
pub use spec::{EngineKind, EngineSpec, MoveLimit, Origin};
pub use timecontrol::{Clock, TimeControl};
pub use uci::{UciEngine, UciPlayer};

use crate::chess::{self, Move};
use crate::game::Game;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// One move request from the runner: the UCI `go` limits (the clocks as they stand) and how long the runner
/// waits before the move counts as late.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GoRequest {
    /// The limits of the search, as UCI `go` sends them.
    pub limits: GoLimits,
    /// The time the mover has for this move in milliseconds (clock left or movetime, plus the time margin);
    /// `None` when the search is not timed (nodes, depth). An external engine still thinking then is sent
    /// `stop`.
    pub allowed_ms: Option<u64>,
}

/// A player's evaluation of the position it moved from, from its own (the mover's) point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineScore {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (not plies): positive when the mover mates, zero or negative when it is mated
    /// (the UCI `score mate` convention).
    Mate(i32),
}

impl EngineScore {
    /// The score from the other side's view: `Cp(-cp)`, `Mate(-n)` (for an engine that reports from White's
    /// view, `whitepov`).
    #[must_use]
    pub fn negated(self) -> EngineScore {
        match self {
            EngineScore::Cp(cp) => EngineScore::Cp(cp.saturating_neg()),
            EngineScore::Mate(n) => EngineScore::Mate(n.saturating_neg()),
        }
    }

    /// The centipawn value of a mate score in [`EngineScore::as_cp`]: larger than any real evaluation.
    pub const MATE_CP: i32 = 100_000;

    /// The largest centipawn score kept as reported ([`EngineScore::clamped_cp`]): beyond any real evaluation
    /// and well below the mate scores of [`EngineScore::as_cp`].
    pub const CP_LIMIT: i32 = 50_000;

    /// The largest mate distance in moves kept as reported ([`EngineScore::clamped_mate`]).
    pub const MATE_LIMIT: i32 = 1_000;

    /// An engine's `score cp VALUE`, clamped to ±[`EngineScore::CP_LIMIT`] so that no later negation, absolute
    /// value or sum can overflow (`cp -2147483648` reads as `Cp(-50000)`: still a lost position for the
    /// mover, never a draw score).
    pub fn clamped_cp(value: i64) -> EngineScore {
        let limit = i64::from(Self::CP_LIMIT);
        EngineScore::Cp(i32::try_from(value.clamp(-limit, limit)).expect("clamped to a small range"))
    }

    /// An engine's `score mate MOVES`, clamped to ±[`EngineScore::MATE_LIMIT`] moves, keeping the sign.
    pub fn clamped_mate(moves: i64) -> EngineScore {
        let limit = i64::from(Self::MATE_LIMIT);
        EngineScore::Mate(i32::try_from(moves.clamp(-limit, limit)).expect("clamped to a small range"))
    }

    /// The score of a built-in engine's search, `score` centipawns from the mover's view where a mate in `p`
    /// plies is `±(mate - p)`: [`EngineScore::Mate`] in moves when `is_mate` says so, else centipawns.
    pub fn from_search(score: i32, mate: i32, is_mate: bool) -> EngineScore {
        if is_mate {
            let moves = (mate - score.abs() + 1) / 2;
            EngineScore::Mate(if score > 0 { moves } else { -moves })
        } else {
            EngineScore::Cp(score)
        }
    }

    /// The score as centipawns for adjudication: a mate counts as ±[`EngineScore::MATE_CP`] (less the moves
    /// to mate), so it passes every resign threshold. Centipawns are clamped to ±[`EngineScore::CP_LIMIT`] here
    /// too, so a score built without the clamping constructors cannot overflow a negation either.
    pub fn as_cp(self) -> i32 {
        match self {
            EngineScore::Cp(cp) => cp.clamp(-Self::CP_LIMIT, Self::CP_LIMIT),
            EngineScore::Mate(n) if n > 0 => Self::MATE_CP - n.min(Self::MATE_LIMIT),
            EngineScore::Mate(n) => -Self::MATE_CP - n.max(-Self::MATE_LIMIT),
        }
    }
}

impl fmt::Display for EngineScore {
    /// Writes the score as cutechess does in PGN comments: `+0.35`, `-1.20`, `+M3`, `-M2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            EngineScore::Cp(cp) => {
                let sign = if cp < 0 { '-' } else { '+' };
                let abs = cp.unsigned_abs();
                write!(f, "{sign}{}.{:02}", abs / 100, abs % 100)
            }
            EngineScore::Mate(n) if n > 0 => write!(f, "+M{n}"),
            EngineScore::Mate(n) => write!(f, "-M{}", n.unsigned_abs()),
        }
    }
}

/// A player's answer: the move (a chess [`Move`] by default, or the move type of another game) and what it
/// reported about its search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayerMove<M = Move> {
    /// The move chosen. The runner checks it; an illegal move loses the game.
    pub mv: M,
    /// The evaluation of the position before the move, from the mover's view, if the player gave one.
    pub score: Option<EngineScore>,
    /// The depth reached in plies (0 if unknown).
    pub depth: u32,
    /// Nodes searched (0 if unknown).
    pub nodes: u64,
    /// Wall time the move took in milliseconds, measured by the runner from the request to the answer (the
    /// player leaves it 0).
    pub time_ms: u64,
}

/// Something that plays moves of the game `G` (chess by default): a built-in engine in-process or an external
/// UCI engine.
///
/// A player is used by one worker thread at a time (hence `Send`), for many games in turn: the runner calls
/// [`Player::new_game`] before each game and then [`Player::go`] for every move of its side.
pub trait Player<G: Game = chess::ChessGame>: Send {
    /// The player's name, as in PGN tags and the CSV.
    fn name(&self) -> &str;

    /// Forgets everything learnt in the previous game (transposition table, histories), so that a game's moves
    /// depend only on its opening, the opponent's moves and the limits.
    ///
    /// # Errors
    /// A [`PlayerError`] when the player cannot be prepared; the runner counts that as a loss.
    fn new_game(&mut self) -> Result<(), PlayerError>;

    /// Chooses a move for the side to move in `game` (its start position, moves so far and key history are
    /// all there: book moves included) within `request`.
    ///
    /// # Errors
    /// A [`PlayerError`] when no move comes back; the runner counts that as a loss.
    fn go(&mut self, game: &G, request: &GoRequest) -> Result<PlayerMove<G::Move>, PlayerError>;

    /// Warnings gathered while starting the player (options the engine does not list), for the log.
    fn warnings(&self) -> Vec<String> {
        Vec::new()
    }

    /// Makes the player watch `flag` while it searches or waits for an external engine: once set (the match is
    /// being interrupted), an external engine is sent `stop` and the move in progress fails at once, a built-in
    /// chess engine ends its search (the Xiangqi one finishes it); the runner then abandons the game.
    fn set_cancel(&mut self, _flag: Arc<AtomicBool>) {}

    /// An external engine's last output lines (stdout and stderr), oldest first, for the record of a game it
    /// lost by an illegal move; empty for a built-in engine (the default).
    fn last_lines(&self) -> Vec<String> {
        Vec::new()
    }

    /// The principal variation of the last [`Player::go`], starting with the move it returned: the built-in
    /// engine's PV, or the moves of an external engine's last `info ... pv` line (of `multipv 1`), read up to
    /// the first move that is not legal and at most [`MAX_PV_PLIES`] long. Empty when the player gave none
    /// (the default), or when the PV does not start with the move played.
    fn last_pv(&self) -> Vec<G::Move> {
        Vec::new()
    }

    /// What the last [`Player::go`] reported besides its score, depth and nodes (an external engine's last
    /// `info` fields: `seldepth`, `nps`, `hashfull`, `tbhits`, `time`), for the PGN comment fields of
    /// `--pgn-fields`. All unknown by default.
    fn last_detail(&self) -> SearchDetail {
        SearchDetail::default()
    }

    /// Told when a game it played has ended, with the PGN result (`1-0`) and why (`checkmate`): an xboard
    /// engine gets `result`. Nothing by default.
    fn game_over(&mut self, _result: &str, _why: &str) {}
}

/// What a player reported about its last search besides [`PlayerMove`]'s fields; `None` where it said nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchDetail {
    /// The selective depth (`seldepth`).
    pub seldepth: Option<u32>,
    /// Nodes per second as the engine gave them (`nps`).
    pub nps: Option<u64>,
    /// The hash table's fill in permille (`hashfull`).
    pub hashfull: Option<u32>,
    /// Tablebase hits (`tbhits`).
    pub tbhits: Option<u64>,
    /// The search time the engine reported in milliseconds (`time`), against which the runner's own measure
    /// gives the latency.
    pub time_ms: Option<u64>,
}

/// The most moves of a principal variation [`Player::last_pv`] keeps (engine output is untrusted).
pub const MAX_PV_PLIES: usize = 128;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_print_as_in_cutechess() {
        assert_eq!(EngineScore::Cp(35).to_string(), "+0.35");
        assert_eq!(EngineScore::Cp(-120).to_string(), "-1.20");
        assert_eq!(EngineScore::Cp(-5).to_string(), "-0.05");
        assert_eq!(EngineScore::Cp(0).to_string(), "+0.00");
        assert_eq!(EngineScore::Mate(3).to_string(), "+M3");
        assert_eq!(EngineScore::Mate(-2).to_string(), "-M2");
        assert_eq!(EngineScore::Mate(0).to_string(), "-M0");
    }

    #[test]
    fn mate_scores_pass_every_threshold() {
        assert!(EngineScore::Mate(1).as_cp() > 10_000);
        assert!(EngineScore::Mate(0).as_cp() < -10_000);
        assert!(EngineScore::Mate(-3).as_cp() < -10_000);
        assert!(EngineScore::Mate(2).as_cp() > EngineScore::Mate(5).as_cp());
        // Scores at the integer limit are clamped when read and never overflow.
        assert_eq!(EngineScore::clamped_cp(i64::from(i32::MIN)), EngineScore::Cp(-50_000));
        assert_eq!(EngineScore::clamped_cp(i64::from(i32::MAX)), EngineScore::Cp(50_000));
        assert_eq!(EngineScore::clamped_cp(-35), EngineScore::Cp(-35));
        assert_eq!(EngineScore::clamped_mate(i64::from(i32::MIN)), EngineScore::Mate(-1000));
        assert_eq!(EngineScore::clamped_mate(i64::MAX), EngineScore::Mate(1000));
        assert_eq!(EngineScore::Cp(i32::MIN).as_cp(), -50_000);
        assert_eq!(EngineScore::Mate(i32::MIN).as_cp(), -EngineScore::MATE_CP + 1000);
        assert_eq!(EngineScore::Mate(i32::MIN).to_string(), "-M2147483648");
        assert_eq!(EngineScore::clamped_cp(i64::from(i32::MIN)).to_string(), "-500.00");
    }
}
