//! Datagen: training positions from self-play of any engine, built-in or external UCI, one or two of them
//! (`arbiter datagen` runs it: [`DatagenRequest`] in, [`generate`] writes the games, [`output`] keeps the
//! files resumable, the caller prints). The method is documented for users in `docs/datagen.md`.
//!
//! ```text
//! arbiter datagen --config seed --games 10000 --nodes 5000 --concurrency 16 --out data/seed.epd
//! arbiter datagen --engine cmd=/usr/games/stockfish,option.Threads=1 --nodes 5000 --games 1000 --out sf.epd
//! arbiter tune --data data/seed.epd --games data/seed.epd.meta.tsv --config seed --out configs/tuned.toml
//! ```
//!
//! # Games
//! Game `g` (numbered 1 to `--games`) is played by the `--engine` (or `--config`) against itself, or with two
//! `--engine`s by the first as White in odd games and as Black in even ones, each through the [`Player`]
//! trait ([`EngineSpec::create`]) within its move limit (`--nodes`, `--depth`, `--movetime-ms`, `--tc`, or the
//! spec's own `nodes=`/`depth=`/`st=`/`tc=`; a built-in engine without one searches 5000 nodes, an external
//! one is refused). The game starts from a fresh random balanced opening made as `arbiter book` makes its
//! positions: `--plies` uniformly random legal moves from the start position, kept when the first engine's
//! search scores the position within `--window` centipawns of 0 (candidates are drawn until one is kept, at
//! most [`CANDIDATES_PER_POSITION`]), or from opening `(g - 1) mod N + 1` of the `--book` file's `N` (EPD or
//! PGN, as `arbiter match --openings` reads them; `--book-plies` keeps the first plies of a PGN game). The
//! random moves of game `g` come from ChaCha12 (rand's `StdRng`) keyed with the bytes of `--seed` and `g`
//! ([`game_rng`]), and the players are cleared ([`Player::new_game`]) before each check and each game, so a
//! game depends only on the seed, its number and the engines, whatever `--concurrency` is (under node or
//! depth limits).
//!
//! Each move is the engine's search of the position with the whole game sent (repetitions count across the
//! opening). A game ends by the rules (checkmate, stalemate, threefold repetition, the fifty-move rule,
//! insufficient material), as a draw when `--maxplies` half-moves from the start position have been played,
//! on time (`--tc`), or by resign adjudication: when the searches of [`RESIGN_PLIES`] (4) consecutive plies,
//! two of each side, all report a score of at least `--resign-score` centipawns for the same side (mate
//! scores included), that side wins. `--resign-score 0` turns adjudication off.
//!
//! # Scores
//! Every score is the engine's score of the searched position from its side to move, in centipawns
//! ([`play::score_cp`]): centipawns as reported (clamped to ±[`play::MAX_CP`]), a mate in `p` plies as
//! `±(32000 - p)` ([`play::MATE_CP`]; UCI's `score mate n` is `p = 2n - 1` for the side mating and `p = 2|n|`
//! for the side mated), which is the built-in engine's own scale. A move without a score is an error.
//!
//! # Positions
//! Every searched position is a candidate; its label is the game's result from White's view. A candidate is
//! skipped, for the first of these reasons that applies:
//! 1. `book`: it is the opening's last position (the random or book plies before it are never searched);
//! 2. `decided`: its search, or that of an earlier position of the game, returned a mate score;
//! 3. `in check`: the side to move is in check;
//! 4. `capture/promotion` (`--select quiet`, the default): the searched best move captures or promotes;
//!    with `--select qleaf` such a position is replaced by its *quiescence leaf*: the position reached by
//!    playing the search's principal variation ([`Player::last_pv`]) from it for as long as its moves are
//!    captures or promotions (the PV as the engine reports it: transposition-table hits can cut it short, and
//!    the leaf is not searched again); the leaf is written when its side to move is not in check, and skipped
//!    as `leaf in check` otherwise ([`select()`]);
//! 5. `score window` (`--max-score CP`): the absolute score exceeds `CP`;
//! 6. `duplicate`: a position with the same Zobrist key was written before in this run.
//!
//! # Output
//! `--format epd` (the default) writes to `--out FILE` one EPD line per position: the first four FEN fields,
//! then the label and an id,
//!
//! ```text
//! 6k1/3p4/p3p3/4P1B1/1P2b3/8/8/K7 b - - c9 "1/2-1/2"; id "g9p129";
//! ```
//!
//! with `c9` one of `"1-0"`, `"1/2-1/2"`, `"0-1"` (the form of zurichess's `quiet-labeled.epd`, read by
//! `arbiter tune --data`) and `id` the game number and the position's ply (half-moves from the start
//! position). `FILE.meta.tsv` (the output path with `.meta.tsv` appended) is aligned with it line by line, in
//! the columns of `../shared/data/tuning/selfplay-sf15-n1500-quiet.meta.tsv`, tab-separated, no header:
//! `result_white` (`1.0`, `0.5`, `0.0`), `score_white` (the search's score of the searched position in
//! centipawns, White's view; for a quiescence leaf the score of the position it was reached from), `game`,
//! `ply`; `arbiter tune --games FILE.meta.tsv` splits train and validation by its `game` column. The row of the
//! line above is `0.5`, `-102`, `9`, `129`. The other formats get each game as a [`TrainingGame`]
//! ([`write_training_game`]).
//!
//! Games are written in game order as they end (a game that ends early waits for the games before it), each
//! game's lines flushed at once, so the files are the same for any `--concurrency` and a killed run keeps
//! every game written; [`output`] records the files' lengths after each game so that `--resume` continues
//! exactly there. Setting the stop flag of [`generate`] stops handing out games; the games in play end and
//! are written.

pub mod format;
pub mod output;
pub mod play;
pub mod select;

pub use format::{TrainingFormat, TrainingGame, TrainingPly, TrainingPosition};
pub use play::{Players, play_game};
pub use select::{SelectMode, Selection, SkipReason, Skipped, select};

use super::book::CANDIDATES_PER_POSITION;
use crate::chess::Variant;
use crate::chess::{Move, Position, Termination};
use crate::engine::chess::ConfigError;
use crate::game::GameResult;
use crate::game::opening::{Opening, OpeningError};
use crate::player::{EngineKind, EngineSpec, MoveLimit, Player, PlayerError, TimeControl};
use crate::runner::openings::load_openings_as;
use crate::runner::scheduler::MAX_CONCURRENCY;
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::collections::{BTreeMap, HashSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use thiserror::Error;

/// Consecutive plies whose searches must agree on a decisive score for resign adjudication.
pub const RESIGN_PLIES: u32 = 4;

/// The most random plies of an opening (as `arbiter book`).
pub const MAX_PLIES: usize = super::book::MAX_PLIES;

/// Nodes per move of a built-in engine given no move limit.
pub const DEFAULT_NODES: u64 = 5000;

/// Where the games' openings come from.
#[derive(Clone, Debug)]
pub enum OpeningSource {
    /// Random balanced openings of this many random plies (`--plies`).
    Random {
        /// Random plies, 1 to [`MAX_PLIES`].
        plies: usize,
    },
    /// The openings of a book file (`--book`), game `g` taking opening `(g - 1) mod N`.
    Book {
        /// The file as given.
        file: PathBuf,
        /// `--book-plies`: the plies kept of each PGN game.
        plies: Option<usize>,
        /// Its openings, in file order (at least one).
        openings: Vec<Opening<crate::chess::ChessGame>>,
    },
}

/// Validated settings of a datagen run ([`DatagenRequest::validate`]).
#[derive(Clone, Debug)]
pub struct DatagenSpec {
    /// One engine (self-play) or two (the first White in odd games), each with its move limit set.
    pub engines: Vec<EngineSpec>,
    /// Games to play, numbered 1 to `games`.
    pub games: u64,
    /// Worker threads (at most `games`), each with its own players.
    pub concurrency: usize,
    /// The openings.
    pub opening: OpeningSource,
    /// The random opening's score window, centipawns.
    pub window: i32,
    /// The run's seed.
    pub seed: u64,
    /// Half-moves from the start position after which a game is a draw.
    pub max_plies: usize,
    /// Resign adjudication threshold, centipawns; 0 for none.
    pub resign_score: i32,
    /// The selection of positions whose best move is a capture or promotion.
    pub select: SelectMode,
    /// Positions whose absolute score exceeds this many centipawns are skipped; `None`: no bound.
    pub max_score: Option<i32>,
    /// The output format.
    pub format: TrainingFormat,
}

impl DatagenSpec {
    /// The settings that decide the games and what is written, by name (`--games` and `--concurrency`
    /// apart, which change neither): a resumed run must have the same ([`output`]).
    pub fn settings(&self) -> BTreeMap<String, String> {
        let mut settings = BTreeMap::new();
        for (i, engine) in self.engines.iter().enumerate() {
            let name = format!("engine {}", i + 1);
            match &engine.kind {
                EngineKind::Uci(uci) => {
                    settings.insert(format!("{name} command"), uci.command_line());
                    let options = uci.options.iter().map(|(n, v)| format!("{n}={v}")).collect::<Vec<_>>();
                    let options = if options.is_empty() { "(none)".to_string() } else { options.join(", ") };
                    settings.insert(format!("{name} options"), options);
                    let dir =
                        uci.dir.as_ref().map_or_else(|| "(the current one)".to_string(), |d| d.display().to_string());
                    settings.insert(format!("{name} dir"), dir);
                    settings.insert(format!("{name} restart"), if uci.restart { "on" } else { "off" }.to_string());
                }
                EngineKind::Builtin(build) => {
                    // The Debug text of the build's config, as this hash has always been taken (so that a run
                    // folder made by an earlier version resumes).
                    let text = match build {
                        crate::engine::Build::Chess(config) => format!("Builtin({config:?})"),
                        crate::engine::Build::Xiangqi(config) => format!("XiangqiBuiltin({config:?})"),
                    };
                    let weights = crate::game::keys::fnv1a(text.as_bytes());
                    settings.insert(
                        name.clone(),
                        format!("{} from {}, weights {weights:016x}", engine.name, engine.origin),
                    );
                }
            }
            settings.insert(format!("{name} limit"), engine.limit.to_string());
        }
        let opening = match &self.opening {
            OpeningSource::Random { plies } => format!("random, {plies} plies, window {}", self.window),
            OpeningSource::Book { file, plies, openings } => format!(
                "book {}, plies {plies:?}, {} openings, first line {}",
                file.display(),
                openings.len(),
                openings.first().map_or(0, |o| o.line)
            ),
        };
        settings.insert("opening".to_string(), opening);
        settings.insert("seed".to_string(), self.seed.to_string());
        settings.insert("maxplies".to_string(), self.max_plies.to_string());
        settings.insert("resign-score".to_string(), self.resign_score.to_string());
        settings.insert("select".to_string(), self.select.name().to_string());
        settings
            .insert("max-score".to_string(), self.max_score.map_or_else(|| "(none)".to_string(), |m| m.to_string()));
        settings.insert("format".to_string(), self.format.name().to_string());
        settings
    }
}

/// A datagen run as asked for (the flags of `arbiter datagen` less the output paths), before
/// [`DatagenRequest::validate`] checks it, fills the move limits and reads the book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DatagenRequest {
    /// One or two engines (`--engine`, or `--config` as `--engine config=X`), their limits as their specs set them.
    pub engines: Vec<EngineSpec>,
    /// Games to play.
    pub games: u64,
    /// Nodes per search, for an engine whose spec sets no limit.
    pub nodes: Option<u64>,
    /// Depth per search, plies, for an engine whose spec sets no limit.
    pub depth: Option<u32>,
    /// Time per search, milliseconds, for an engine whose spec sets no limit.
    pub movetime_ms: Option<u64>,
    /// A clock per side, for an engine whose spec sets no limit.
    pub tc: Option<TimeControl>,
    /// Worker threads; `None`: all cores.
    pub concurrency: Option<usize>,
    /// Random plies per opening.
    pub plies: usize,
    /// An opening file (EPD or PGN) instead of random openings.
    pub book: Option<PathBuf>,
    /// Plies kept of each PGN game of the book.
    pub book_plies: Option<usize>,
    /// The opening's score window, centipawns.
    pub window: i32,
    /// The run's seed.
    pub seed: u64,
    /// Half-moves from the start position after which a game is a draw.
    pub max_plies: usize,
    /// Resign adjudication threshold, centipawns; 0 for none.
    pub resign_score: i32,
    /// The selection of positions whose best move is a capture or promotion.
    pub select: SelectMode,
    /// The score window of the positions written, centipawns.
    pub max_score: Option<i32>,
    /// The output format.
    pub format: TrainingFormat,
}

impl DatagenRequest {
    /// Checks the request, gives every engine its move limit (its spec's own, else the flags', else
    /// [`DEFAULT_NODES`] for a built-in engine) and reads the book, in the order of the fields.
    ///
    /// # Errors
    /// A [`DatagenError`] naming the flag and what is wrong ([`DatagenError::Engines`] to
    /// [`DatagenError::MaxScore`]), [`DatagenError::NoLimit`] naming an external engine without a limit, or
    /// [`DatagenError::Book`].
    pub fn validate(&self) -> Result<DatagenSpec, DatagenError> {
        if !(1..=2).contains(&self.engines.len()) {
            return Err(DatagenError::Engines(self.engines.len()));
        }
        if self.games == 0 {
            return Err(DatagenError::NoGames);
        }
        if self.nodes == Some(0) {
            return Err(DatagenError::NoNodes);
        }
        if self.depth == Some(0) || self.movetime_ms == Some(0) {
            return Err(DatagenError::ZeroLimit);
        }
        let concurrency = match self.concurrency {
            Some(0) => return Err(DatagenError::NoConcurrency),
            Some(n) if n > MAX_CONCURRENCY => return Err(DatagenError::Concurrency(n)),
            Some(n) => n,
            None => std::thread::available_parallelism().map_or(1, |n| n.get()).min(MAX_CONCURRENCY),
        };
        let opening = match &self.book {
            None => {
                if !(1..=MAX_PLIES).contains(&self.plies) {
                    return Err(DatagenError::Plies(self.plies));
                }
                if self.max_plies <= self.plies {
                    return Err(DatagenError::MaxPlies { max_plies: self.max_plies, plies: self.plies });
                }
                OpeningSource::Random { plies: self.plies }
            }
            Some(file) => {
                let openings = load_openings_as(file, None, self.book_plies, Variant::Standard)?;
                OpeningSource::Book { file: file.clone(), plies: self.book_plies, openings }
            }
        };
        if self.window < 0 {
            return Err(DatagenError::Window(self.window));
        }
        if self.resign_score < 0 {
            return Err(DatagenError::ResignScore(self.resign_score));
        }
        if let Some(max) = self.max_score.filter(|&max| max < 0) {
            return Err(DatagenError::MaxScore(max));
        }
        let mut engines = self.engines.clone();
        for engine in &mut engines {
            // The flags fill what the engine's own spec does not set.
            let limit = &mut engine.limit;
            limit.nodes = limit.nodes.or(self.nodes);
            limit.depth = limit.depth.or(self.depth);
            limit.movetime_ms = limit.movetime_ms.or(self.movetime_ms);
            limit.tc = limit.tc.or(self.tc);
            if engine.limit.is_unlimited() {
                engine.require_limit(&engine.limit).map_err(DatagenError::NoLimit)?;
                engine.limit.nodes = Some(DEFAULT_NODES);
            }
        }
        let concurrency = concurrency.min(usize::try_from(self.games).unwrap_or(usize::MAX));
        Ok(DatagenSpec {
            engines,
            games: self.games,
            concurrency,
            opening,
            window: self.window,
            seed: self.seed,
            max_plies: self.max_plies,
            resign_score: self.resign_score,
            select: self.select,
            max_score: self.max_score,
            format: self.format,
        })
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameEnd {
    /// By the rules of chess.
    Rules(Termination),
    /// Resign adjudication (`--resign-score`).
    Resign,
    /// `--maxplies` reached: a draw.
    MaxPlies,
    /// A side's clock ran out (`--tc`): a loss for it.
    TimeForfeit,
}

/// How many games ended each way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Ends {
    /// Checkmate.
    pub checkmate: u64,
    /// Stalemate.
    pub stalemate: u64,
    /// Threefold repetition.
    pub repetition: u64,
    /// The fifty-move rule.
    pub fifty_moves: u64,
    /// Insufficient material.
    pub insufficient_material: u64,
    /// Resign adjudication.
    pub resign: u64,
    /// `--maxplies`.
    pub max_plies: u64,
    /// A clock ran out.
    #[serde(default)]
    pub time_forfeit: u64,
}

impl Ends {
    /// Counts one game ended by `end`.
    pub fn add(&mut self, end: GameEnd) {
        let count = match end {
            GameEnd::Rules(Termination::Checkmate) => &mut self.checkmate,
            GameEnd::Rules(Termination::Stalemate) => &mut self.stalemate,
            GameEnd::Rules(Termination::ThreefoldRepetition) => &mut self.repetition,
            GameEnd::Rules(Termination::FiftyMoveRule) => &mut self.fifty_moves,
            GameEnd::Rules(Termination::InsufficientMaterial) => &mut self.insufficient_material,
            GameEnd::Resign => &mut self.resign,
            GameEnd::MaxPlies => &mut self.max_plies,
            GameEnd::TimeForfeit => &mut self.time_forfeit,
        };
        *count = count.saturating_add(1);
    }

    /// All games counted, or `None` when the counts add up past `u64::MAX` (a damaged resume record).
    pub fn checked_total(&self) -> Option<u64> {
        [
            self.checkmate,
            self.stalemate,
            self.repetition,
            self.fifty_moves,
            self.insufficient_material,
            self.resign,
            self.max_plies,
            self.time_forfeit,
        ]
        .iter()
        .try_fold(0u64, |sum, &n| sum.checked_add(n))
    }
}

/// A selected position of a game, before deduplication.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The position (the searched one, or its quiescence leaf).
    pub position: Position,
    /// Half-moves from the start position to `position`.
    pub ply: usize,
    /// Half-moves from the start position to the searched position.
    pub searched_ply: usize,
    /// The search's score in centipawns from White's view (for a quiescence leaf, of the searched position).
    pub score_white: i32,
    /// The same score from the view of `position`'s side to move.
    pub score: i32,
    /// The move the search chose, when `position` is the searched position.
    pub best: Option<Move>,
}

/// One finished game: its result, how it ended, its searched moves and the positions selected from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The game number, 1 to `--games`.
    pub number: u64,
    /// The result.
    pub result: GameResult,
    /// How it ended.
    pub end: GameEnd,
    /// Half-moves played, opening plies included.
    pub plies: usize,
    /// The opening's last position, where the searched moves start.
    pub start: Position,
    /// Half-moves from the start position to `start`.
    pub start_ply: usize,
    /// Every searched move from `start`, with its score.
    pub searched: Vec<TrainingPly>,
    /// The selected positions, in game order.
    pub samples: Vec<Sample>,
    /// The candidates skipped (every reason but `duplicate`, which the writer decides).
    pub skipped: Skipped,
}

/// A datagen request that cannot run, or a run that could not finish.
#[derive(Debug, Error)]
pub enum DatagenError {
    /// Not one or two engines.
    #[error("{0} engines: datagen plays one engine against itself or two against each other")]
    Engines(usize),
    /// No game to play.
    #[error("games 0: expected at least 1 game")]
    NoGames,
    /// No node per search.
    #[error("nodes 0: expected at least 1 node")]
    NoNodes,
    /// A zero depth or time per move.
    #[error("a depth or time per move of 0: expected at least 1")]
    ZeroLimit,
    /// No worker thread.
    #[error("concurrency 0: expected at least 1")]
    NoConcurrency,
    /// More worker threads than [`MAX_CONCURRENCY`].
    #[error("concurrency {0}: at most {MAX_CONCURRENCY}")]
    Concurrency(usize),
    /// Random plies outside 1..=[`MAX_PLIES`].
    #[error("plies {0}: expected 1 to {MAX_PLIES}")]
    Plies(usize),
    /// A game length not above the random plies.
    #[error("a game length of {max_plies} plies: expected more than the {plies} random plies")]
    MaxPlies {
        /// The game length asked for.
        max_plies: usize,
        /// The random plies.
        plies: usize,
    },
    /// The book cannot be read.
    #[error("book: {0}")]
    Book(#[from] OpeningError),
    /// A negative window.
    #[error("window {0}: expected a non-negative number of centipawns")]
    Window(i32),
    /// A negative resign threshold.
    #[error("resign_score {0}: expected centipawns >= 0 (0 turns adjudication off)")]
    ResignScore(i32),
    /// A negative score window.
    #[error("max_score {0}: expected centipawns >= 0")]
    MaxScore(i32),
    /// An external engine without a move limit ([`EngineSpec::require_limit`], as `arbiter match` and
    /// `arbiter epd` refuse it).
    #[error(transparent)]
    NoLimit(crate::player::EngineArgError),
    /// The build is neither built in nor a readable config.
    #[error("config: {0}")]
    Config(ConfigError),
    /// No candidate opening of a game was kept.
    #[error(
        "game {game}: no balanced opening in {candidates} candidates ({plies} random plies, |score| <= {window} cp \
         at {limit}); widen the window or change the random plies"
    )]
    NoOpening {
        /// The game number.
        game: u64,
        /// Candidates tried.
        candidates: usize,
        /// `--plies`.
        plies: usize,
        /// `--window`.
        window: i32,
        /// The first engine's move limit.
        limit: String,
    },
    /// An engine could not be started before the first game (no such program, no `uciok`, an option it does
    /// not list): the input's fault, as before a match.
    #[error("{0}")]
    Start(PlayerError),
    /// An engine crashed, stalled or sent a bad move.
    #[error("game {game}: {error}")]
    Engine {
        /// The game number.
        game: u64,
        /// What the player reported.
        error: PlayerError,
    },
    /// An engine's move is not legal.
    #[error("game {game}: engine {engine} played {mv}, not a legal move in {fen}")]
    IllegalMove {
        /// The game number.
        game: u64,
        /// The engine's name.
        engine: String,
        /// The move.
        mv: String,
        /// The position.
        fen: String,
    },
    /// An engine gave no score with its move.
    #[error("game {game}: engine {engine} gave no score (no `info ... score`) for its move in {fen}")]
    NoScore {
        /// The game number.
        game: u64,
        /// The engine's name.
        engine: String,
        /// The position.
        fen: String,
    },
    /// A game the output format cannot hold (for example a book position whose halfmove clock is over
    /// viriformat's 255).
    #[error("format: {0}")]
    Format(format::FormatError),
    /// The main output file cannot be written.
    #[error("writing the output file: {0}")]
    WriteOut(std::io::Error),
    /// The `.meta.tsv` output cannot be written.
    #[error("writing the .meta.tsv file: {0}")]
    WriteMeta(std::io::Error),
    /// The resume files cannot be read or written, or do not fit the run ([`output`]).
    #[error(transparent)]
    Resume(#[from] output::ResumeError),
}

impl DatagenError {
    /// The [`DatagenRequest`] field at fault where the message starts with it (`games 0: ...`).
    pub fn field(&self) -> Option<&'static str> {
        Some(match self {
            DatagenError::NoGames => "games",
            DatagenError::NoNodes => "nodes",
            DatagenError::NoConcurrency | DatagenError::Concurrency(_) => "concurrency",
            DatagenError::Plies(_) => "plies",
            DatagenError::Book(_) => "book",
            DatagenError::Window(_) => "window",
            DatagenError::ResignScore(_) => "resign_score",
            DatagenError::MaxScore(_) => "max_score",
            DatagenError::Config(_) => "config",
            DatagenError::Format(_) => "format",
            _ => return None,
        })
    }

    /// Whether the error is an engine's failure (exit 1) rather than the user's input (exit 2) or the system's.
    pub fn is_engine_failure(&self) -> bool {
        matches!(self, DatagenError::Engine { .. } | DatagenError::IllegalMove { .. } | DatagenError::NoScore { .. })
    }
}

/// The random generator of game `game` of a run with `seed`: ChaCha12 (`StdRng`) keyed with the 8
/// little-endian bytes of `seed`, then those of `game`, then 16 zero bytes, so distinct (seed, game) pairs
/// never share a stream.
pub fn game_rng(seed: u64, game: u64) -> StdRng {
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&seed.to_le_bytes());
    key[8..16].copy_from_slice(&game.to_le_bytes());
    StdRng::from_seed(key)
}

/// Writes one game in a format other than EPD to `out` ([`format::write_game`]; EPD, with its `.meta.tsv`,
/// is written by [`generate`] itself).
///
/// # Errors
/// [`DatagenError::Format`] for a game the format cannot hold, else [`DatagenError::WriteOut`].
pub fn write_training_game(
    format: TrainingFormat,
    game: &TrainingGame,
    out: &mut dyn Write,
) -> Result<(), DatagenError> {
    format::write_game(format, game, out).map_err(|error| {
        if error.get_ref().is_some_and(|inner| inner.is::<format::FormatError>()) {
            let inner = error.into_inner().expect("checked above").downcast::<format::FormatError>();
            DatagenError::Format(*inner.expect("checked above"))
        } else {
            DatagenError::WriteOut(error)
        }
    })
}

/// Counts of a datagen run so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Totals {
    /// Games written.
    pub games: u64,
    /// Games White won.
    pub white_wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games Black won.
    pub black_wins: u64,
    /// Half-moves played, opening plies included.
    pub plies: u64,
    /// Positions written.
    pub positions: u64,
    /// Candidates skipped, by reason.
    pub skipped: Skipped,
    /// How the games ended.
    pub ends: Ends,
}

/// What [`Sink::checkpoint`] is: called with the totals, the keys written and the bytes added by a game.
pub type Checkpoint<'a> = dyn FnMut(&Totals, &[u64], output::Written) -> Result<(), DatagenError> + 'a;

/// Where [`generate`] writes: the `--out` file, the EPD format's `.meta.tsv`, and the keys of the positions
/// written (8 little-endian bytes each, for the duplicate filter of a resumed run).
pub struct Sink<'a> {
    /// The format of `out`.
    pub format: TrainingFormat,
    /// The `--out` file.
    pub out: &'a mut dyn Write,
    /// `.meta.tsv` lines (EPD only; nothing is written here in other formats).
    pub meta: &'a mut dyn Write,
    /// Called after each game is written and flushed, with the totals, the keys of its positions written and
    /// the bytes it added; an error stops the run ([`output::Output`] records the files' lengths here).
    pub checkpoint: &'a mut Checkpoint<'a>,
}

/// Where a run starts: the first game and what the games before it wrote.
#[derive(Clone, Debug, Default)]
pub struct Start {
    /// The totals of the games already written.
    pub totals: Totals,
    /// The keys of the positions already written.
    pub seen: HashSet<u64>,
}

/// A writer that counts the bytes written through it.
struct Counted<'a> {
    inner: &'a mut dyn Write,
    bytes: u64,
}

impl Write for Counted<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// Writes finished games in game order: deduplicates by key over the run, writes each game's output, flushes.
struct GameWriter<'s, 'a> {
    sink: &'s mut Sink<'a>,
    seen: HashSet<u64>,
    totals: Totals,
}

impl GameWriter<'_, '_> {
    fn write(&mut self, record: &GameRecord) -> Result<(), DatagenError> {
        let (label, result_white) = match record.result {
            GameResult::WhiteWins => ("1-0", "1.0"),
            GameResult::Draw => ("1/2-1/2", "0.5"),
            GameResult::BlackWins => ("0-1", "0.0"),
        };
        let mut skipped = record.skipped;
        let mut keys = Vec::new();
        let mut kept = Vec::new();
        for s in &record.samples {
            if !self.seen.insert(s.position.key()) {
                skipped.add(SkipReason::Duplicate);
                continue;
            }
            keys.push(s.position.key());
            kept.push(s);
        }
        let written = if self.sink.format == TrainingFormat::Epd {
            let (mut epd, mut meta) = (String::new(), String::new());
            for s in &kept {
                let fen = s.position.to_fen().split(' ').take(4).collect::<Vec<_>>().join(" ");
                epd.push_str(&format!("{fen} c9 \"{label}\"; id \"g{}p{}\";\n", record.number, s.ply));
                meta.push_str(&format!("{result_white}\t{}\t{}\t{}\n", s.score_white, record.number, s.ply));
            }
            let out = &mut self.sink.out;
            out.write_all(epd.as_bytes()).and_then(|()| out.flush()).map_err(DatagenError::WriteOut)?;
            let meta_out = &mut self.sink.meta;
            meta_out.write_all(meta.as_bytes()).and_then(|()| meta_out.flush()).map_err(DatagenError::WriteMeta)?;
            output::Written { out: epd.len() as u64, meta: meta.len() as u64 }
        } else {
            let game = TrainingGame {
                number: record.number,
                result: record.result,
                start: record.start.clone(),
                start_ply: record.start_ply,
                plies: record.searched.clone(),
                kept: kept
                    .iter()
                    .map(|s| TrainingPosition {
                        position: s.position.clone(),
                        score: s.score,
                        ply: s.searched_ply,
                        best: s.best,
                    })
                    .collect(),
            };
            let mut counted = Counted { inner: &mut *self.sink.out, bytes: 0 };
            write_training_game(self.sink.format, &game, &mut counted)?;
            counted.flush().map_err(DatagenError::WriteOut)?;
            output::Written { out: counted.bytes, meta: 0 }
        };
        let t = &mut self.totals;
        t.games = t.games.saturating_add(1);
        t.positions = t.positions.saturating_add(kept.len() as u64);
        let wins = match record.result {
            GameResult::WhiteWins => &mut t.white_wins,
            GameResult::Draw => &mut t.draws,
            GameResult::BlackWins => &mut t.black_wins,
        };
        *wins = wins.saturating_add(1);
        t.plies = t.plies.saturating_add(record.plies as u64);
        t.skipped.merge(&skipped);
        t.ends.add(record.end);
        (self.sink.checkpoint)(&self.totals, &keys, written)
    }
}

/// The players of one worker: one per engine of `spec`, created through [`EngineSpec::create`].
///
/// # Errors
/// [`DatagenError::Start`] when a player cannot start.
pub fn create_players(spec: &DatagenSpec) -> Result<Players, DatagenError> {
    let players = spec
        .engines
        .iter()
        .map(|engine| engine.create::<crate::chess::ChessGame>())
        .collect::<Result<Vec<Box<dyn Player>>, _>>()
        .map_err(DatagenError::Start)?;
    Ok(Players { players, limits: spec.engines.iter().map(|e| e.limit).collect::<Vec<MoveLimit>>() })
}

/// Plays games `start.totals.games + 1` to `spec.games` of `spec` on `spec.concurrency` threads, each with its
/// own players, and writes them in game order to `sink` (the formats of the module docs), flushing after
/// each game; `on_game` sees the totals after each game written. Once `stop` is set no new game starts; the
/// games in play end and are written. Returns the totals (those of `start` included); the output is the same
/// for any concurrency.
///
/// # Errors
/// The first [`DatagenError`]: no new game starts after it, and every game that ended before the failed one
/// is still written (the games after it are not, so that a resumed run replays them in order).
pub fn generate(
    spec: &DatagenSpec,
    sink: &mut Sink<'_>,
    start: Start,
    stop: &AtomicBool,
    on_game: &mut dyn FnMut(&Totals),
) -> Result<Totals, DatagenError> {
    let first = start.totals.games.saturating_add(1);
    let next_game = AtomicU64::new(first);
    let abort = AtomicBool::new(false);
    let mut writer = GameWriter { sink, seen: start.seen, totals: start.totals };
    let mut error = None;
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<(u64, Result<GameRecord, DatagenError>)>();
        for _ in 0..spec.concurrency {
            let tx = tx.clone();
            let (next_game, abort) = (&next_game, &abort);
            scope.spawn(move || {
                let mut players = match create_players(spec) {
                    Ok(players) => players,
                    Err(e) => {
                        let _ = tx.send((0, Err(e)));
                        return;
                    }
                };
                while !stop.load(Ordering::SeqCst) && !abort.load(Ordering::SeqCst) {
                    let number = next_game.fetch_add(1, Ordering::SeqCst);
                    if number > spec.games {
                        break;
                    }
                    let record = play_game(&mut players, spec, number);
                    let failed = record.is_err();
                    if tx.send((number, record)).is_err() || failed {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut pending = BTreeMap::new();
        let mut next_write = first;
        let mut failed_at = u64::MAX;
        for (number, record) in rx {
            match record {
                Ok(record) => {
                    pending.insert(number, record);
                }
                Err(e) => {
                    abort.store(true, Ordering::SeqCst);
                    if number < failed_at {
                        failed_at = number;
                        error = Some(e);
                    }
                }
            }
            while next_write < failed_at
                && let Some(record) = pending.remove(&next_write)
            {
                if let Err(e) = writer.write(&record) {
                    abort.store(true, Ordering::SeqCst);
                    failed_at = 0;
                    error = Some(e);
                    break;
                }
                on_game(&writer.totals);
                next_write += 1;
            }
        }
    });
    match error {
        Some(e) => Err(e),
        None => Ok(writer.totals),
    }
}

/// The `.meta.tsv` path of an output file: the path with `.meta.tsv` appended.
pub fn meta_path(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".meta.tsv");
    PathBuf::from(name)
}

/// The end-of-run report: games with W/D/L, positions written and skipped by reason, how games ended, and
/// the time with games/s and positions/s of this session (`seconds` of wall time, in which the games after
/// `before`, the totals of a resumed run's earlier sessions, were played).
pub fn summary_text(t: &Totals, before: &Totals, seconds: f64) -> String {
    let per = |n: u64| if t.games == 0 { 0.0 } else { n as f64 / t.games as f64 };
    let rate = |n: u64, was: u64| if seconds > 0.0 { n.saturating_sub(was) as f64 / seconds } else { 0.0 };
    let s = &t.skipped;
    let e = &t.ends;
    format!(
        "games: {} (White wins {}, draws {}, Black wins {}), {:.1} plies per game\n\
         positions: {} written ({:.1} per game); skipped {}: book {}, decided (mate score) {}, in check {}, \
         capture/promotion {}, leaf in check {}, score window {}, duplicate {}\n\
         game ends: checkmate {}, stalemate {}, repetition {}, fifty moves {}, insufficient material {}, \
         resign {}, max plies {}, time forfeit {}\n\
         time: {seconds:.1} s, {:.2} games/s, {:.1} positions/s\n",
        t.games,
        t.white_wins,
        t.draws,
        t.black_wins,
        per(t.plies),
        t.positions,
        per(t.positions),
        s.total(),
        s.book,
        s.decided,
        s.in_check,
        s.tactical,
        s.leaf_in_check,
        s.score_window,
        s.duplicate,
        e.checkmate,
        e.stalemate,
        e.repetition,
        e.fifty_moves,
        e.insufficient_material,
        e.resign,
        e.max_plies,
        e.time_forfeit,
        rate(t.games, before.games),
        rate(t.positions, before.positions),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tune::{Label, read_game_ids, read_labelled_file, split_by_game};

    fn args(games: u64, nodes: u64, concurrency: usize, _out: &Path) -> DatagenRequest {
        DatagenRequest {
            engines: vec![EngineSpec::builtin("seed").unwrap()],
            games,
            nodes: Some(nodes),
            depth: None,
            movetime_ms: None,
            tc: None,
            concurrency: Some(concurrency),
            plies: 8,
            book: None,
            book_plies: None,
            window: 50,
            seed: 1,
            max_plies: 400,
            resign_score: 1000,
            select: SelectMode::Quiet,
            max_score: None,
            format: TrainingFormat::Epd,
        }
    }

    /// Runs `spec` into memory: the totals, the `--out` bytes and the `.meta.tsv` bytes.
    fn generate_to_memory(
        spec: &DatagenSpec,
        stop: bool,
        on_game: &mut dyn FnMut(&Totals),
    ) -> (Totals, Vec<u8>, Vec<u8>) {
        let (mut out, mut meta) = (Vec::new(), Vec::new());
        let mut checkpoint = |_: &Totals, _: &[u64], _: output::Written| Ok(());
        let mut sink = Sink { format: spec.format, out: &mut out, meta: &mut meta, checkpoint: &mut checkpoint };
        let totals = generate(spec, &mut sink, Start::default(), &AtomicBool::new(stop), on_game).unwrap();
        (totals, out, meta)
    }

    #[test]
    fn output_is_the_same_for_any_concurrency_and_reads_back() {
        let dir = std::env::temp_dir().join(format!("arbiter-datagen-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("dg.epd");
        let run = |concurrency| {
            let spec = DatagenRequest::validate(&args(4, 300, concurrency, &out)).unwrap();
            let mut seen = Vec::new();
            let run = generate_to_memory(&spec, false, &mut |t| seen.push(t.games));
            assert_eq!(seen, vec![1, 2, 3, 4]);
            run
        };
        let (totals, epd, meta) = run(1);
        assert_eq!(run(2), (totals, epd.clone(), meta.clone()));
        std::fs::write(&out, &epd).unwrap();
        std::fs::write(meta_path(&out), &meta).unwrap();
        let set = read_labelled_file(&out).unwrap();
        assert_eq!(set.bad, vec![]);
        assert_eq!(set.positions.len() as u64, totals.positions);
        let mut keys = HashSet::new();
        for p in &set.positions {
            assert!(!p.position.in_check(), "{}", p.position.to_fen());
            assert!(keys.insert(p.position.key()), "duplicate {}", p.position.to_fen());
        }
        let labels = |l| set.positions.iter().filter(|p| p.label == l).count();
        let counts = (labels(Label::WhiteWin), labels(Label::Draw), labels(Label::BlackWin));
        let ids = read_game_ids(&meta_path(&out)).unwrap();
        assert_eq!(ids.ids.len(), set.positions.len());
        let split = split_by_game(set.positions, &ids).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(
            totals,
            Totals {
                games: 4,
                white_wins: 2,
                draws: 0,
                black_wins: 2,
                plies: 364,
                positions: 237,
                skipped: Skipped {
                    book: 4,
                    decided: 8,
                    in_check: 18,
                    tactical: 66,
                    leaf_in_check: 0,
                    score_window: 0,
                    duplicate: 3
                },
                ends: Ends { resign: 4, ..Ends::default() }
            }
        );
        assert_eq!(counts, (116, 0, 121));
        // Game 4 is a validation game: crc32("4") % 1000 < 100.
        assert_eq!((split.train_games, split.validation_games), (3, 1));
        let first = |bytes: Vec<u8>| String::from_utf8(bytes).unwrap().lines().next().unwrap().to_string();
        assert_eq!(
            first(epd),
            "rnbqkbnr/1pp1p2p/p4pp1/3p4/P3P3/R1N3P1/1PPP1P1P/2BQKBNR b Kkq - c9 \"0-1\"; id \"g1p9\";"
        );
        assert_eq!(first(meta), "0.0\t-43\t1\t9");
    }

    #[test]
    fn book_openings_are_taken_in_turn_and_their_last_position_is_not_written() {
        let dir = std::env::temp_dir().join(format!("arbiter-datagen-book-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let book = dir.join("two.epd");
        let fens = ["r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq -", "8/5k2/8/8/3K4/8/3P4/8 b - -"];
        std::fs::write(&book, format!("{}\n{}\n", fens[0], fens[1])).unwrap();
        let mut a = args(3, 200, 1, &book);
        (a.book, a.max_plies) = (Some(book.clone()), 12);
        let spec = DatagenRequest::validate(&a).unwrap();
        let mut players = create_players(&spec).unwrap();
        for (number, fen) in [(1, fens[0]), (2, fens[1]), (3, fens[0])] {
            let record = play_game(&mut players, &spec, number).unwrap();
            assert_eq!((record.start.to_fen().starts_with(fen), record.start_ply), (true, 0), "game {number}");
            assert_eq!(record.skipped.book, 1);
            assert!(record.samples.iter().all(|s| s.ply > 0));
        }
        a.book = Some(dir.join("missing.epd"));
        assert!(DatagenRequest::validate(&a).unwrap_err().to_string().starts_with("book: "));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn max_plies_draws_and_stop_starts_no_game() {
        let mut a = args(1, 300, 1, Path::new("unused.epd"));
        (a.max_plies, a.resign_score) = (20, 0);
        let spec = DatagenRequest::validate(&a).unwrap();
        let record = play_game(&mut create_players(&spec).unwrap(), &spec, 1).unwrap();
        assert_eq!((record.result, record.end, record.plies), (GameResult::Draw, GameEnd::MaxPlies, 20));
        // Plies 9 to 19 are searched and written or skipped; ply 8 is the opening.
        assert_eq!(record.skipped.book, 1);
        assert_eq!(record.samples.len() as u64 + record.skipped.total(), 12);
        let (totals, epd, meta) = generate_to_memory(&spec, true, &mut |_| {});
        assert_eq!((totals, epd.len(), meta.len()), (Totals::default(), 0, 0));
    }

    #[test]
    fn bad_requests_are_refused() {
        let out = Path::new("x.epd");
        let error = |a: DatagenRequest| DatagenRequest::validate(&a).unwrap_err().to_string();
        assert_eq!(error(args(0, 300, 1, out)), "games 0: expected at least 1 game");
        assert_eq!(error(args(1, 0, 1, out)), "nodes 0: expected at least 1 node");
        assert_eq!(error(args(1, 300, 0, out)), "concurrency 0: expected at least 1");
        let mut a = args(1, 300, 1, out);
        a.max_plies = 8;
        assert_eq!(error(a.clone()), "a game length of 8 plies: expected more than the 8 random plies");
        a.plies = 0;
        assert_eq!(error(a.clone()), "plies 0: expected 1 to 200");
        a = args(1, 300, 1, out);
        a.window = -1;
        assert_eq!(error(a), "window -1: expected a non-negative number of centipawns");
        a = args(1, 300, 1, out);
        a.resign_score = -5;
        assert_eq!(error(a), "resign_score -5: expected centipawns >= 0 (0 turns adjudication off)");
        a = args(1, 300, 1, out);
        a.max_score = Some(-1);
        assert_eq!(error(a), "max_score -1: expected centipawns >= 0");
        a = args(1, 300, 1, out);
        a.engines = vec![];
        assert_eq!(error(a), "0 engines: datagen plays one engine against itself or two against each other");
        // An external engine without a limit is refused, naming it; a built-in one gets the default nodes.
        a = args(1, 300, 1, out);
        a.nodes = None;
        assert_eq!(DatagenRequest::validate(&a).unwrap().engines[0].limit.nodes, Some(DEFAULT_NODES));
        a.engines = vec![crate::player::spec::parse_engine("name=sf,cmd=/usr/games/stockfish").unwrap()];
        assert_eq!(
            error(a.clone()),
            "sf (/usr/games/stockfish) has no move limit: an external engine would search until told to stop"
        );
        a.engines = vec![crate::player::spec::parse_engine("name=sf,cmd=/usr/games/stockfish,depth=3").unwrap()];
        assert_eq!(DatagenRequest::validate(&a).unwrap().engines[0].limit.depth, Some(3));
        assert_eq!(DatagenRequest::validate(&args(3, 300, 8, out)).unwrap().concurrency, 3);
    }

    #[test]
    fn the_rates_are_those_of_this_session() {
        let before = Totals { games: 10, positions: 100, ..Totals::default() };
        let after = Totals { games: 12, positions: 120, ..before };
        let text = summary_text(&after, &before, 2.0);
        assert!(text.contains("time: 2.0 s, 1.00 games/s, 10.0 positions/s"), "{text}");
    }
}
