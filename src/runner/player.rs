//! Players: what the runner asks for a move. A [`Player`] of a game `G` (chess by default, or Xiangqi: see
//! [`MatchGame`]) gets the game so far and a [`MoveLimit`] and returns a [`PlayerMove`] or a [`PlayerError`];
//! the built-in engines ([`BuiltinPlayer`]: chess's [`Engine`], Xiangqi's [`XiangqiEngine`]) are one
//! implementation, an external UCI engine process ([`super::UciPlayer`]) is another.
//!
//! An [`EngineSpec`] describes one entrant of a match and creates fresh players for the worker threads.

use super::timecontrol::TimeControl;
use super::uci_player::UciEngine;
use crate::chess::{Game, Move};
use crate::engine::tt::TranspositionTable;
use crate::engine::{Engine, EngineConfig, Limits};
use crate::game::Game as MatchGame;
use crate::xiangqi::engine::{XiangqiConfig, XiangqiEngine, XiangqiLimits};
use std::fmt;
use std::panic::{AssertUnwindSafe, UnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use thiserror::Error;

/// How long one engine may think, set per engine (`--engine ...,tc=10+0.1`) or for all (`--each`, `--nodes`).
/// Every limit that is set applies; the player stops at the first one reached. With none set a player searches
/// until it decides itself (the built-in engine to its maximum depth), so a match always sets at least one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MoveLimit {
    /// Maximum search depth in plies (UCI `go depth`).
    pub depth: Option<u32>,
    /// Maximum nodes searched (UCI `go nodes`).
    pub nodes: Option<u64>,
    /// Thinking time per move in milliseconds (`st=`, UCI `go movetime`): a move that takes longer than this
    /// plus `timemargin_ms` loses on time.
    pub movetime_ms: Option<u64>,
    /// A clock kept by the runner (`tc=`, UCI `go wtime btime winc binc movestogo`).
    pub tc: Option<TimeControl>,
    /// How far a move may overrun the clock or `movetime_ms` before it loses on time, in milliseconds
    /// (`timemargin=`, as in cutechess-cli; default 0).
    pub timemargin_ms: u64,
}

impl MoveLimit {
    /// Whether no limit is set.
    pub fn is_unlimited(&self) -> bool {
        self.depth.is_none() && self.nodes.is_none() && self.movetime_ms.is_none() && self.tc.is_none()
    }

    /// Whether the limit involves wall time (a clock or a time per move), so that games are not reproducible.
    pub fn is_timed(&self) -> bool {
        self.tc.is_some() || self.movetime_ms.is_some()
    }
}

impl fmt::Display for MoveLimit {
    /// Writes the limits as `tc 10+0.1, nodes 5000, depth 8, movetime 100 ms, timemargin 50 ms` (or `none`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(tc) = self.tc {
            parts.push(format!("tc {tc}"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes {n}"));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth {d}"));
        }
        if let Some(t) = self.movetime_ms {
            parts.push(format!("movetime {t} ms"));
        }
        if self.timemargin_ms > 0 {
            parts.push(format!("timemargin {} ms", self.timemargin_ms));
        }
        if parts.is_empty() { f.write_str("none") } else { f.write_str(&parts.join(", ")) }
    }
}

/// One move request from the runner: the UCI `go` limits (the clocks as they stand) and how long the runner
/// waits before the move counts as late.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GoRequest {
    /// The limits of the search, as UCI `go` sends them.
    pub limits: Limits,
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

impl<M> PlayerMove<M> {
    /// The PGN comment for this move in the cutechess style: `+0.35/12` (score/depth) and, when the thinking time
    /// `time_ms` (milliseconds) is given, ` 0.123s` after it: `+0.35/12 0.123s`. Without a score the comment is
    /// the time alone (`0.123s`), or empty.
    ///
    /// # Examples
    /// ```
    /// use arbiter::chess::Move;
    /// use arbiter::runner::{EngineScore, PlayerMove};
    /// let answer = PlayerMove { mv: Move::NULL, score: Some(EngineScore::Cp(35)), depth: 12, nodes: 0, time_ms: 0 };
    /// assert_eq!(answer.comment(None), "+0.35/12");
    /// assert_eq!(answer.comment(Some(123)), "+0.35/12 0.123s");
    /// ```
    pub fn comment(&self, time_ms: Option<u64>) -> String {
        let time = time_ms.map(|ms| format!("{}.{:03}s", ms / 1000, ms % 1000));
        match (self.score, time) {
            (Some(score), Some(time)) => format!("{score}/{} {time}", self.depth),
            (Some(score), None) => format!("{score}/{}", self.depth),
            (None, Some(time)) => time,
            (None, None) => String::new(),
        }
    }
}

/// Why a player gave no move. The side whose player fails loses the game; the match goes on.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PlayerError {
    /// The player crashed (the built-in engine panicked; an external engine process died).
    #[error("{player}: crashed: {reason}")]
    Crashed {
        /// The player's name.
        player: String,
        /// What happened.
        reason: String,
    },
    /// The player did not answer in time: no `bestmove` after `stop`, or no `readyok` to `isready`.
    #[error("{player}: stalled: {reason}")]
    Stalled {
        /// The player's name.
        player: String,
        /// What happened, with the engine's last lines.
        reason: String,
    },
    /// The player's move text is not a move of the position (not UCI move text, or `0000`/`(none)` where
    /// moves exist).
    #[error("{player}: unparsable move {}: {reason}", crate::notation::quote::shown(.text))]
    BadMove {
        /// The player's name.
        player: String,
        /// The text sent.
        text: String,
        /// Why it is not a move.
        reason: String,
    },
    /// The player printed more than the runner reads: a line over
    /// [`MAX_LINE_BYTES`](crate::uci::process::MAX_LINE_BYTES), or over
    /// [`MAX_REPLY_BYTES`](crate::uci::process::MAX_REPLY_BYTES) for one reply.
    #[error("{player}: output flood: {reason}")]
    Flooded {
        /// The player's name.
        player: String,
        /// What was too much, with the engine's last lines.
        reason: String,
    },
    /// The player could not be started or prepared for a game.
    #[error("{player}: cannot start: {reason}")]
    Start {
        /// The player's name.
        player: String,
        /// What happened.
        reason: String,
    },
}

/// Something that plays moves of the game `G` (chess by default): a built-in engine in-process or an external
/// UCI engine.
///
/// A player is used by one worker thread at a time (hence `Send`), for many games in turn: the runner calls
/// [`Player::new_game`] before each game and then [`Player::go`] for every move of its side.
pub trait Player<G: MatchGame = Game>: Send {
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
}

/// The message of a caught panic (`panic!` with a literal or a formatted message); `None` for other payloads.
pub(crate) fn panic_text(payload: &(dyn std::any::Any + Send)) -> Option<String> {
    payload.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| payload.downcast_ref::<String>().cloned())
}

/// A built-in engine as [`BuiltinPlayer`] drives it: built from a config, cleared per game, searching a game
/// under UCI-style limits.
pub trait BuiltinEngine: Sized + 'static {
    /// The game it plays.
    type Game: MatchGame;
    /// Its build: name, hash size, weights.
    type Config: Clone + Send + UnwindSafe;

    /// The engine of `config` (allocates its transposition table).
    fn build(config: Self::Config) -> Self;

    /// The build's name.
    fn config_name(config: &Self::Config) -> &str;

    /// Forgets the previous game.
    fn clear(&mut self);

    /// Searches the side to move's move in `game` under `limits`, ending early (with the best move found so far)
    /// once `stop` is set where the engine can; `None` when it has no legal move.
    fn think(
        &mut self,
        game: &Self::Game,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> Option<PlayerMove<<Self::Game as MatchGame>::Move>>;
}

impl BuiltinEngine for Engine {
    type Game = Game;
    type Config = EngineConfig;

    fn build(config: EngineConfig) -> Engine {
        Engine::new(config)
    }
    fn config_name(config: &EngineConfig) -> &str {
        &config.name
    }
    fn clear(&mut self) {
        self.new_game();
    }
    fn think(&mut self, game: &Game, limits: &Limits, stop: &AtomicBool) -> Option<PlayerMove> {
        let limits = Limits { infinite: false, ..*limits };
        let result = self.search_with(game.position(), game.keys(), &limits, stop, &mut |_| {});
        let score =
            EngineScore::from_search(result.score, crate::engine::MATE, crate::engine::is_mate_score(result.score));
        Some(PlayerMove {
            mv: result.best_move,
            score: Some(score),
            depth: result.depth,
            nodes: result.nodes,
            time_ms: 0,
        })
    }
}

impl BuiltinEngine for XiangqiEngine {
    type Game = crate::xiangqi::Game;
    type Config = XiangqiConfig;

    fn build(config: XiangqiConfig) -> XiangqiEngine {
        XiangqiEngine::new(config)
    }
    fn config_name(config: &XiangqiConfig) -> &str {
        &config.name
    }
    fn clear(&mut self) {
        self.new_game();
    }
    /// The Xiangqi engine has no clock management: under a clock it gets a fixed share of the time left as its
    /// move time, `left / 30 + inc / 2` (at most `left / 2`), besides any depth, nodes or movetime limit. It
    /// has no stop flag: `_stop` is not watched.
    fn think(
        &mut self,
        game: &crate::xiangqi::Game,
        limits: &Limits,
        _stop: &AtomicBool,
    ) -> Option<PlayerMove<crate::xiangqi::Move>> {
        let red = game.position().side_to_move() == crate::xiangqi::Color::Red;
        let (left, inc) = if red { (limits.wtime_ms, limits.winc_ms) } else { (limits.btime_ms, limits.binc_ms) };
        let by_clock = left.map(|left| (left / 30 + inc.unwrap_or(0) / 2).min(left / 2).max(1));
        let movetime_ms = match (limits.movetime_ms, by_clock) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let limits = XiangqiLimits { depth: limits.depth, nodes: limits.nodes, movetime_ms };
        let result = self.search(game.position(), &game.history_keys(), limits);
        let score = EngineScore::from_search(
            result.score,
            crate::xiangqi::engine::MATE,
            crate::xiangqi::engine::is_mate_score(result.score),
        );
        let depth = result.depth;
        result.best_move.map(|mv| PlayerMove { mv, score: Some(score), depth, nodes: result.nodes, time_ms: 0 })
    }
}

/// A built-in engine (chess's [`Engine`] by default, or [`XiangqiEngine`]) as a [`Player`], searching in the
/// worker's thread.
///
/// A panic inside the engine is caught and reported as [`PlayerError::Crashed`]; the engine is then rebuilt
/// from its config before the next game.
pub struct BuiltinPlayer<E: BuiltinEngine = Engine> {
    config: E::Config,
    engine: Option<E>,
    /// Set when the match is interrupted: the search in progress ends ([`Player::set_cancel`]).
    cancel: Arc<AtomicBool>,
}

impl<E: BuiltinEngine> BuiltinPlayer<E> {
    /// A player for the engine built from `config` (allocates its transposition table).
    pub fn new(config: E::Config) -> BuiltinPlayer<E> {
        let engine = E::build(config.clone());
        BuiltinPlayer { config, engine: Some(engine), cancel: Arc::new(AtomicBool::new(false)) }
    }

    fn name_text(&self) -> String {
        E::config_name(&self.config).to_string()
    }

    fn crashed(&self, payload: Box<dyn std::any::Any + Send>) -> PlayerError {
        let reason = panic_text(payload.as_ref()).unwrap_or_else(|| "panic".to_string());
        PlayerError::Crashed { player: self.name_text(), reason: format!("engine panicked: {reason}") }
    }
}

impl<E: BuiltinEngine + Send> Player<E::Game> for BuiltinPlayer<E> {
    fn name(&self) -> &str {
        E::config_name(&self.config)
    }

    fn set_cancel(&mut self, flag: Arc<AtomicBool>) {
        self.cancel = flag;
    }

    fn new_game(&mut self) -> Result<(), PlayerError> {
        let mut engine = match self.engine.take() {
            Some(engine) => engine,
            None => {
                let config = self.config.clone();
                catch_unwind(move || E::build(config)).map_err(|p| self.crashed(p))?
            }
        };
        catch_unwind(AssertUnwindSafe(|| engine.clear())).map_err(|p| self.crashed(p))?;
        self.engine = Some(engine);
        Ok(())
    }

    fn go(
        &mut self,
        game: &E::Game,
        request: &GoRequest,
    ) -> Result<PlayerMove<<E::Game as MatchGame>::Move>, PlayerError> {
        let Some(engine) = self.engine.as_mut() else {
            return Err(PlayerError::Start {
                player: self.name_text(),
                reason: "the engine was not rebuilt after a crash".to_string(),
            });
        };
        let limits = &request.limits;
        let stop = &self.cancel;
        match catch_unwind(AssertUnwindSafe(|| engine.think(game, limits, stop))) {
            Ok(Some(answer)) => Ok(answer),
            Ok(None) => Err(PlayerError::BadMove {
                player: self.name_text(),
                text: "0000".to_string(),
                reason: "the engine found no legal move".to_string(),
            }),
            Err(payload) => {
                // The engine's state is unknown after a panic: rebuild it before the next game.
                self.engine = None;
                Err(self.crashed(payload))
            }
        }
    }
}

/// What kind of program an entrant is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineKind {
    /// The built-in chess engine with this configuration (boxed: a config holds every weight).
    Builtin(Box<EngineConfig>),
    /// The built-in Xiangqi engine with this configuration.
    XiangqiBuiltin(Box<XiangqiConfig>),
    /// An external engine process spoken to over UCI.
    Uci(UciEngine),
}

/// One entrant of a match: its display name, its kind, its move limits and where it came from (for the summary).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The unique name used in PGN tags, the CSV and the summary.
    pub name: String,
    /// What to run.
    pub kind: EngineKind,
    /// Where the build came from, in words: a config file path, `built-in`, or the command of an external
    /// engine.
    pub source: String,
    /// How long this engine may think per move (its own `tc=`/`nodes=`/... over `--each` and the global flags).
    pub limit: MoveLimit,
}

impl EngineSpec {
    /// The built-in engine builds known by name: `seed` ([`EngineConfig::seed`]) and `nomob` (the seed with
    /// every mobility weight zero, a variant that differs in one weight group); `None` for other names. The
    /// move limit is left unset.
    pub fn builtin(name: &str) -> Option<EngineSpec> {
        let mut config = EngineConfig::seed();
        match name {
            "seed" => {}
            "nomob" => {
                config.name = "nomob".to_string();
                config.weights.mobility = [0; 4];
            }
            _ => return None,
        }
        Some(EngineSpec {
            name: name.to_string(),
            kind: EngineKind::Builtin(Box::new(config)),
            source: "built-in".into(),
            limit: MoveLimit::default(),
        })
    }

    /// An entrant running the built-in engine with `config`, named `name`, read from `source`; the move limit
    /// is left unset.
    pub fn from_config(name: &str, mut config: EngineConfig, source: &str) -> EngineSpec {
        config.name = name.to_string();
        EngineSpec {
            name: name.to_string(),
            kind: EngineKind::Builtin(Box::new(config)),
            source: source.to_string(),
            limit: MoveLimit::default(),
        }
    }

    /// An entrant running the built-in Xiangqi engine with `config`, named `name`, read from `source`; the move
    /// limit is left unset.
    pub fn xiangqi(name: &str, mut config: XiangqiConfig, source: &str) -> EngineSpec {
        config.name = name.to_string();
        EngineSpec {
            name: name.to_string(),
            kind: EngineKind::XiangqiBuiltin(Box::new(config)),
            source: source.to_string(),
            limit: MoveLimit::default(),
        }
    }

    /// An entrant running the external UCI engine `engine`, named `name`; the move limit is left unset.
    pub fn uci(name: &str, engine: UciEngine) -> EngineSpec {
        let source = engine.command_line();
        EngineSpec { name: name.to_string(), kind: EngineKind::Uci(engine), source, limit: MoveLimit::default() }
    }

    /// The memory one player of this entrant holds for its transposition table, in MiB (for an external
    /// engine: its `Hash` option when given, else 16, the usual UCI default).
    pub fn hash_mb(&self) -> usize {
        match &self.kind {
            EngineKind::Builtin(config) => config.hash_mb,
            EngineKind::XiangqiBuiltin(config) => config.hash_mb,
            EngineKind::Uci(engine) => engine.hash_mb(),
        }
    }

    /// The search threads one player of this entrant uses: 1 for the built-in engine; an external engine's
    /// `Threads` option when given as a number, else 1.
    pub fn threads(&self) -> usize {
        match &self.kind {
            EngineKind::Builtin(_) | EngineKind::XiangqiBuiltin(_) => 1,
            EngineKind::Uci(engine) => engine.numeric_option("threads").unwrap_or(1),
        }
    }

    /// Creates a fresh player for one worker thread: for an external engine, starts its process and performs
    /// the UCI handshake.
    ///
    /// # Errors
    /// [`PlayerError::Start`] when the player cannot be created: its transposition table cannot be allocated
    /// (checked before the engine is built, so that the failure is an error and never an abort), the
    /// built-in engine panics while it is built, or an external engine cannot be started or does not answer
    /// `uciok`/`readyok` in time.
    pub fn create<G: MatchGame>(&self) -> Result<Box<dyn Player<G>>, PlayerError> {
        let start_error = |reason: String| PlayerError::Start { player: self.name.clone(), reason };
        if let EngineKind::Uci(engine) = &self.kind {
            let player = super::uci_player::UciPlayer::<G>::start(&self.name, engine.clone())?;
            return Ok(Box::new(player));
        }
        TranspositionTable::check_allocation(self.hash_mb()).map_err(|e| start_error(e.to_string()))?;
        let kind = self.kind.clone();
        match catch_unwind(move || G::builtin_player(&kind)) {
            Ok(player) => player.map_err(start_error),
            Err(payload) => {
                let reason = panic_text(payload.as_ref()).unwrap_or_else(|| "panic".to_string());
                Err(start_error(format!("the engine panicked: {reason}")))
            }
        }
    }
}

/// Why a name cannot be an engine's name: `None` for a good name; otherwise the reason, in words. Names go into
/// PGN tags and CSV cells, so they must be non-empty and free of control characters, `"` and `\`.
///
/// # Examples
/// ```
/// use arbiter::runner::player::bad_engine_name;
/// assert_eq!(bad_engine_name("seed-2"), None);
/// assert!(bad_engine_name("").is_some());
/// assert!(bad_engine_name("a\nb").is_some());
/// assert!(bad_engine_name("say \"hi\"").is_some());
/// ```
pub fn bad_engine_name(name: &str) -> Option<&'static str> {
    if name.trim().is_empty() {
        Some("an engine name must not be empty")
    } else if name.chars().any(char::is_control) {
        Some("an engine name must not hold control characters (they would break PGN tags)")
    } else if name.contains(['"', '\\']) {
        Some("an engine name must not hold '\"' or '\\' (they would break PGN tags)")
    } else {
        None
    }
}

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

    #[test]
    fn builtin_builds() {
        let seed = EngineSpec::builtin("seed").unwrap();
        let nomob = EngineSpec::builtin("nomob").unwrap();
        let (EngineKind::Builtin(a), EngineKind::Builtin(b)) = (&seed.kind, &nomob.kind) else {
            panic!("built-in builds are built in")
        };
        assert_eq!(**a, EngineConfig::seed());
        assert_eq!(b.weights.mobility, [0; 4]);
        assert_eq!(b.weights.material, a.weights.material);
        assert!(EngineSpec::builtin("stockfish").is_none());
    }

    #[test]
    fn an_impossible_hash_is_a_start_error() {
        let mut spec = EngineSpec::builtin("seed").unwrap();
        assert_eq!(spec.hash_mb(), 16);
        let EngineKind::Builtin(config) = &mut spec.kind else { panic!("seed is built in") };
        config.hash_mb = usize::MAX >> 20;
        let err = spec.create::<Game>().err().unwrap();
        assert!(matches!(&err, PlayerError::Start { player, .. } if player == "seed"), "{err}");
        assert!(err.to_string().contains("cannot allocate"), "{err}");
    }

    #[test]
    fn the_builtin_engine_plays_a_legal_move() {
        let spec = EngineSpec::builtin("seed").unwrap();
        let mut player = spec.create::<Game>().unwrap();
        player.new_game().unwrap();
        let game = Game::new(crate::chess::Position::startpos());
        let request = GoRequest { limits: Limits { nodes: Some(300), ..Limits::default() }, allowed_ms: None };
        let answer = player.go(&game, &request).unwrap();
        assert!(game.position().legal_moves().contains(answer.mv));
        assert!(answer.score.is_some());
    }
}
