//! Datagen: labelled training positions for Texel tuning from self-play of one built-in chess engine build
//! (`arbiter datagen` runs it: [`DatagenRequest`] in, [`generate`] writes the games, the caller prints).
//!
//! ```text
//! arbiter datagen --config seed --games 10000 --nodes 5000 --concurrency 16 --out data/seed.epd
//! arbiter tune --data data/seed.epd --games data/seed.epd.meta.tsv --config seed --out configs/tuned.toml
//! ```
//!
//! # Games
//! Game `g` (numbered 1 to `--games`) is the `--config` build against itself at `--nodes` nodes per move, from
//! a fresh random balanced opening made as `arbiter book` makes its positions ([`candidate_opening`]):
//! `--plies` uniformly random legal moves from the start position, kept when a search at `--nodes` scores the
//! position within `--window` centipawns of 0 (candidates are drawn until one is kept, at most
//! [`CANDIDATES_PER_POSITION`]). The random moves of game `g` come from ChaCha12 (rand's `StdRng`) keyed with
//! the bytes of `--seed` and `g` ([`game_rng`]), and the engine is cleared ([`Engine::new_game`]) before each
//! game, so a game depends only on the seed, its number and the build, whatever `--concurrency` is.
//!
//! Each move is the engine's search of the position with the keys of the whole game, random plies included
//! (repetitions count across them). A game ends by the rules (checkmate, stalemate, threefold repetition, the
//! fifty-move rule, insufficient material), as a draw when `--maxplies` half-moves from the start position have
//! been played, or by resign adjudication: when the searches of [`RESIGN_PLIES`] (4) consecutive plies, two of
//! each side, all report a score of at least `--resign-score` centipawns for the same side (mate scores
//! included), that side wins. `--resign-score 0` turns adjudication off.
//!
//! # Positions
//! Every searched position is a candidate; its label is the game's result from White's view. A candidate is
//! skipped, for the first of these reasons that applies:
//! 1. `book`: it is the opening itself (ply `--plies`; the random plies before it are never searched);
//! 2. `decided`: its search, or that of an earlier position of the game, returned a mate score
//!    ([`is_mate_score`]);
//! 3. `in check`: the side to move is in check;
//! 4. `capture/promotion` (`--select quiet`, the default): the searched best move captures or promotes;
//!    with `--select qleaf` such a position is replaced by its *quiescence leaf*: the position reached by
//!    playing the search's principal variation from it for as long as its moves are captures or promotions
//!    (the PV as the search reports it: transposition-table hits can cut it short, and the leaf is not
//!    searched again); the leaf is written when its side to move is not in check, and skipped as
//!    `leaf in check` otherwise ([`select()`]);
//! 5. `duplicate`: a position with the same Zobrist key was written before in this run.
//!
//! # Output
//! `--out FILE` gets one EPD line per position: the first four FEN fields, then the label and an id,
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
//! line above is `0.5`, `-102`, `9`, `129`.
//!
//! Games are written in game order as they end (a game that ends early waits for the games before it), each
//! game's lines flushed at once, so the files are the same for any `--concurrency` and a killed run keeps
//! every game written. Setting the stop flag of [`generate`] stops handing out games; the games in play end and
//! are written.

pub mod format;
pub mod select;

pub use select::{SelectMode, Selection, SkipReason, Skipped, select};

use super::book::{CANDIDATES_PER_POSITION, candidate_opening};
use crate::chess::game::GameResult;
use crate::chess::{Color, Game, Position, Termination};
use crate::engine::chess::search::{Engine, Limits, is_mate_score};
use crate::engine::chess::{ConfigError, EngineConfig};
use crate::engine::registry::chess_config;
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

/// Validated settings of a datagen run ([`DatagenRequest::validate`]).
#[derive(Clone, Debug)]
pub struct DatagenSpec {
    /// The build playing both sides.
    pub config: EngineConfig,
    /// Games to play, numbered 1 to `games`.
    pub games: u64,
    /// Nodes per search.
    pub nodes: u64,
    /// Worker threads (at most `games`).
    pub concurrency: usize,
    /// Random plies per opening, 1 to [`MAX_PLIES`].
    pub plies: usize,
    /// The opening's score window, centipawns.
    pub window: i32,
    /// The run's seed.
    pub seed: u64,
    /// Half-moves from the start position after which a game is a draw; above `plies`.
    pub max_plies: usize,
    /// Resign adjudication threshold, centipawns; 0 for none.
    pub resign_score: i32,
    /// The selection of positions whose best move is a capture or promotion.
    pub select: SelectMode,
}

/// A datagen run as asked for (the flags of `arbiter datagen` less the output paths), before
/// [`DatagenRequest::validate`] checks it and loads the build.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DatagenRequest {
    /// The build playing both sides: a built-in build name (`seed`, `nomob`) or a config file.
    pub config: String,
    /// Games to play.
    pub games: u64,
    /// Nodes per search.
    pub nodes: u64,
    /// Worker threads; `None`: all cores.
    pub concurrency: Option<usize>,
    /// Random plies per opening.
    pub plies: usize,
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
}

impl DatagenRequest {
    /// Checks the request and loads the build, in the order of the fields.
    ///
    /// # Errors
    /// A [`DatagenError`] naming the flag and what is wrong ([`DatagenError::NoGames`] to
    /// [`DatagenError::ResignScore`]), or [`DatagenError::Config`].
    pub fn validate(&self) -> Result<DatagenSpec, DatagenError> {
        if self.games == 0 {
            return Err(DatagenError::NoGames);
        }
        if self.nodes == 0 {
            return Err(DatagenError::NoNodes);
        }
        let concurrency = match self.concurrency {
            Some(0) => return Err(DatagenError::NoConcurrency),
            Some(n) if n > MAX_CONCURRENCY => return Err(DatagenError::Concurrency(n)),
            Some(n) => n,
            None => std::thread::available_parallelism().map_or(1, |n| n.get()).min(MAX_CONCURRENCY),
        };
        if !(1..=MAX_PLIES).contains(&self.plies) {
            return Err(DatagenError::Plies(self.plies));
        }
        if self.window < 0 {
            return Err(DatagenError::Window(self.window));
        }
        if self.max_plies <= self.plies {
            return Err(DatagenError::MaxPlies { max_plies: self.max_plies, plies: self.plies });
        }
        if self.resign_score < 0 {
            return Err(DatagenError::ResignScore(self.resign_score));
        }
        let config = chess_config(&self.config).map_err(DatagenError::Config)?;
        let concurrency = concurrency.min(usize::try_from(self.games).unwrap_or(usize::MAX));
        Ok(DatagenSpec {
            config,
            games: self.games,
            nodes: self.nodes,
            concurrency,
            plies: self.plies,
            window: self.window,
            seed: self.seed,
            max_plies: self.max_plies,
            resign_score: self.resign_score,
            select: self.select,
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
}

/// How many games ended each way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
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
}

impl Ends {
    /// Counts one game ended by `end`.
    pub fn add(&mut self, end: GameEnd) {
        match end {
            GameEnd::Rules(Termination::Checkmate) => self.checkmate += 1,
            GameEnd::Rules(Termination::Stalemate) => self.stalemate += 1,
            GameEnd::Rules(Termination::ThreefoldRepetition) => self.repetition += 1,
            GameEnd::Rules(Termination::FiftyMoveRule) => self.fifty_moves += 1,
            GameEnd::Rules(Termination::InsufficientMaterial) => self.insufficient_material += 1,
            GameEnd::Resign => self.resign += 1,
            GameEnd::MaxPlies => self.max_plies += 1,
        }
    }
}

/// A selected position of a game, before deduplication.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The position's Zobrist key.
    pub key: u64,
    /// The first four FEN fields (EPD's position).
    pub fen: String,
    /// Half-moves from the start position.
    pub ply: usize,
    /// The search's score in centipawns from White's view (for a quiescence leaf, of the searched position).
    pub score_white: i32,
}

/// One finished game: its result, how it ended and the positions selected from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The game number, 1 to `--games`.
    pub number: u64,
    /// The result.
    pub result: GameResult,
    /// How it ended.
    pub end: GameEnd,
    /// Half-moves played, random plies included.
    pub plies: usize,
    /// The selected positions, in game order.
    pub samples: Vec<Sample>,
    /// The candidates skipped (every reason but `duplicate`, which the writer decides).
    pub skipped: Skipped,
}

/// A datagen request that cannot run, or a run that could not finish.
#[derive(Debug, Error)]
pub enum DatagenError {
    /// No game to play.
    #[error("--games 0: expected at least 1 game")]
    NoGames,
    /// No node per search.
    #[error("--nodes 0: expected at least 1 node")]
    NoNodes,
    /// No worker thread.
    #[error("--concurrency 0: expected at least 1")]
    NoConcurrency,
    /// More worker threads than [`MAX_CONCURRENCY`].
    #[error("--concurrency {0}: at most {MAX_CONCURRENCY}")]
    Concurrency(usize),
    /// Random plies outside 1..=[`MAX_PLIES`].
    #[error("--plies {0}: expected 1 to {MAX_PLIES}")]
    Plies(usize),
    /// A negative window.
    #[error("--window {0}: expected a non-negative number of centipawns")]
    Window(i32),
    /// A game length not above the random plies.
    #[error("--maxplies {max_plies}: expected more than --plies ({plies})")]
    MaxPlies {
        /// The game length asked for.
        max_plies: usize,
        /// The random plies.
        plies: usize,
    },
    /// A negative resign threshold.
    #[error("--resign-score {0}: expected centipawns >= 0 (0 turns adjudication off)")]
    ResignScore(i32),
    /// The build is neither built in nor a readable config.
    #[error("--config: {0}")]
    Config(ConfigError),
    /// No candidate opening of a game was kept.
    #[error(
        "game {game}: no balanced opening in {candidates} candidates ({plies} random plies, |score| <= {window} cp \
         at {nodes} nodes); widen --window or change --plies"
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
        /// `--nodes`.
        nodes: u64,
    },
    /// The EPD output cannot be written.
    #[error("writing the EPD file: {0}")]
    WriteEpd(std::io::Error),
    /// The `.meta.tsv` output cannot be written.
    #[error("writing the .meta.tsv file: {0}")]
    WriteMeta(std::io::Error),
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

/// A score from the side to move's view turned to White's view.
fn white_view(pos: &Position, score: i32) -> i32 {
    if pos.side_to_move() == Color::White { score } else { -score }
}

/// Plays game `number` of `spec` with `engine` (see the module docs) and returns it with its selected
/// positions; deterministic for the same spec and number.
///
/// # Errors
/// [`DatagenError::NoOpening`] when no candidate opening is kept.
pub fn play_game(engine: &mut Engine, spec: &DatagenSpec, number: u64) -> Result<GameRecord, DatagenError> {
    let mut rng = game_rng(spec.seed, number);
    let limits = Limits { nodes: Some(spec.nodes), ..Limits::default() };
    let opening = (0..CANDIDATES_PER_POSITION)
        .find_map(|_| candidate_opening(&mut rng, spec.plies, spec.window, engine, &limits, |_| true))
        .ok_or(DatagenError::NoOpening {
            game: number,
            candidates: CANDIDATES_PER_POSITION,
            plies: spec.plies,
            window: spec.window,
            nodes: spec.nodes,
        })?;
    engine.new_game();
    let mut game: Game = opening.game;
    let mut samples = Vec::new();
    let mut skipped = Skipped::default();
    let mut decided = false;
    // Consecutive plies whose search scored White (1) or Black (-1) at least `resign_score` ahead.
    let (mut streak, mut streak_side) = (0u32, 0i32);
    let (result, end) = loop {
        if let Some(outcome) = game.outcome() {
            break (outcome.result, GameEnd::Rules(outcome.termination));
        }
        let ply = game.moves().len();
        if ply >= spec.max_plies {
            break (GameResult::Draw, GameEnd::MaxPlies);
        }
        let pos = game.position().clone();
        let searched = engine.search(&pos, game.keys(), &limits);
        let score_white = white_view(&pos, searched.score);
        let selection = if ply <= spec.plies {
            Selection::Skip(SkipReason::Book)
        } else if decided {
            Selection::Skip(SkipReason::Decided)
        } else {
            select(&pos, &searched, spec.select)
        };
        match selection {
            Selection::Keep { position, pv_plies } => {
                let fen = position.to_fen().split(' ').take(4).collect::<Vec<_>>().join(" ");
                samples.push(Sample { key: position.key(), fen, ply: ply + pv_plies, score_white });
            }
            Selection::Skip(reason) => skipped.add(reason),
        }
        decided |= is_mate_score(searched.score);
        if spec.resign_score > 0 && score_white.abs() >= spec.resign_score {
            let side = score_white.signum();
            streak = if side == streak_side { streak + 1 } else { 1 };
            streak_side = side;
        } else {
            streak = 0;
            streak_side = 0;
        }
        if streak >= RESIGN_PLIES {
            let winner = if streak_side > 0 { Color::White } else { Color::Black };
            break (GameResult::win_for(winner), GameEnd::Resign);
        }
        let played = game.play(searched.best_move);
        assert!(played, "the search returns a legal move when the game is not over");
    };
    Ok(GameRecord { number, result, end, plies: game.moves().len(), samples, skipped })
}

/// Counts of a datagen run so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Games written.
    pub games: u64,
    /// Games White won.
    pub white_wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games Black won.
    pub black_wins: u64,
    /// Half-moves played, random plies included.
    pub plies: u64,
    /// Positions written.
    pub positions: u64,
    /// Candidates skipped, by reason.
    pub skipped: Skipped,
    /// How the games ended.
    pub ends: Ends,
}

/// Writes finished games in game order: deduplicates by key over the run, writes the EPD and meta lines of
/// each game and flushes both.
struct GameWriter<'a> {
    epd: &'a mut dyn Write,
    meta: &'a mut dyn Write,
    seen: HashSet<u64>,
    totals: Totals,
}

impl GameWriter<'_> {
    fn write(&mut self, record: &GameRecord) -> Result<(), DatagenError> {
        let (label, result_white) = match record.result {
            GameResult::WhiteWins => ("1-0", "1.0"),
            GameResult::Draw => ("1/2-1/2", "0.5"),
            GameResult::BlackWins => ("0-1", "0.0"),
        };
        let mut skipped = record.skipped;
        let (mut epd, mut meta) = (String::new(), String::new());
        for s in &record.samples {
            if !self.seen.insert(s.key) {
                skipped.add(SkipReason::Duplicate);
                continue;
            }
            epd.push_str(&format!("{} c9 \"{label}\"; id \"g{}p{}\";\n", s.fen, record.number, s.ply));
            meta.push_str(&format!("{result_white}\t{}\t{}\t{}\n", s.score_white, record.number, s.ply));
            self.totals.positions += 1;
        }
        self.epd.write_all(epd.as_bytes()).and_then(|()| self.epd.flush()).map_err(DatagenError::WriteEpd)?;
        self.meta.write_all(meta.as_bytes()).and_then(|()| self.meta.flush()).map_err(DatagenError::WriteMeta)?;
        let t = &mut self.totals;
        t.games += 1;
        match record.result {
            GameResult::WhiteWins => t.white_wins += 1,
            GameResult::Draw => t.draws += 1,
            GameResult::BlackWins => t.black_wins += 1,
        }
        t.plies += record.plies as u64;
        t.skipped.merge(&skipped);
        t.ends.add(record.end);
        Ok(())
    }
}

/// Plays the games of `spec` on `spec.concurrency` threads and writes them, in game order, to `epd` and
/// `meta` (the formats of the module docs), flushing both after each game; `on_game` sees the totals after
/// each game written. Once `stop` is set no new game starts; the games in play end and are written.
/// Returns the totals; the output is the same for any concurrency.
///
/// # Errors
/// The first [`DatagenError`]: no new game starts after it, and every game that ended is still written (in
/// game order, a failed game's number left out) unless the output itself failed.
pub fn generate(
    spec: &DatagenSpec,
    epd: &mut dyn Write,
    meta: &mut dyn Write,
    stop: &AtomicBool,
    on_game: &mut dyn FnMut(&Totals),
) -> Result<Totals, DatagenError> {
    let next_game = AtomicU64::new(1);
    let abort = AtomicBool::new(false);
    let mut writer = GameWriter { epd, meta, seen: HashSet::new(), totals: Totals::default() };
    let mut error = None;
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<(u64, Result<GameRecord, DatagenError>)>();
        for _ in 0..spec.concurrency {
            let tx = tx.clone();
            let (next_game, abort) = (&next_game, &abort);
            scope.spawn(move || {
                let mut engine = Engine::new(spec.config.clone());
                while !stop.load(Ordering::SeqCst) && !abort.load(Ordering::SeqCst) {
                    let number = next_game.fetch_add(1, Ordering::SeqCst);
                    if number > spec.games {
                        break;
                    }
                    let record = play_game(&mut engine, spec, number);
                    if tx.send((number, record)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut pending = BTreeMap::new();
        let mut next_write = 1;
        let mut write = |writer: &mut GameWriter, record: &GameRecord, error: &mut Option<DatagenError>| {
            if error.as_ref().is_some_and(|e| !matches!(e, DatagenError::NoOpening { .. })) {
                return;
            }
            if let Err(e) = writer.write(record) {
                abort.store(true, Ordering::SeqCst);
                *error = Some(e);
            } else {
                on_game(&writer.totals);
            }
        };
        for (number, record) in rx {
            match record {
                Ok(record) => {
                    pending.insert(number, record);
                }
                Err(e) => {
                    abort.store(true, Ordering::SeqCst);
                    error.get_or_insert(e);
                }
            }
            while let Some(record) = pending.remove(&next_write) {
                write(&mut writer, &record, &mut error);
                next_write += 1;
            }
        }
        // After a failed game, the games that ended after it are still written, in order.
        for record in std::mem::take(&mut pending).into_values() {
            write(&mut writer, &record, &mut error);
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
/// the time with games/s and positions/s (`seconds` of wall time).
pub fn summary_text(t: &Totals, seconds: f64) -> String {
    let per = |n: u64| if t.games == 0 { 0.0 } else { n as f64 / t.games as f64 };
    let rate = |n: u64| if seconds > 0.0 { n as f64 / seconds } else { 0.0 };
    let s = &t.skipped;
    let e = &t.ends;
    format!(
        "games: {} (White wins {}, draws {}, Black wins {}), {:.1} plies per game\n\
         positions: {} written ({:.1} per game); skipped {}: book {}, decided (mate score) {}, in check {}, \
         capture/promotion {}, leaf in check {}, duplicate {}\n\
         game ends: checkmate {}, stalemate {}, repetition {}, fifty moves {}, insufficient material {}, \
         resign {}, max plies {}\n\
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
        s.duplicate,
        e.checkmate,
        e.stalemate,
        e.repetition,
        e.fifty_moves,
        e.insufficient_material,
        e.resign,
        e.max_plies,
        rate(t.games),
        rate(t.positions),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tune::{Label, read_game_ids, read_labelled_file, split_by_game};

    fn args(games: u64, nodes: u64, concurrency: usize, _out: &Path) -> DatagenRequest {
        DatagenRequest {
            config: "seed".to_string(),
            games,
            nodes,
            concurrency: Some(concurrency),
            plies: 8,
            window: 50,
            seed: 1,
            max_plies: 400,
            resign_score: 1000,
            select: SelectMode::Quiet,
        }
    }

    #[test]
    fn output_is_the_same_for_any_concurrency_and_reads_back() {
        let dir = std::env::temp_dir().join(format!("arbiter-datagen-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("dg.epd");
        let run = |concurrency| {
            let spec = DatagenRequest::validate(&args(4, 300, concurrency, &out)).unwrap();
            let (mut epd, mut meta) = (Vec::new(), Vec::new());
            let mut seen = Vec::new();
            let totals =
                generate(&spec, &mut epd, &mut meta, &AtomicBool::new(false), &mut |t| seen.push(t.games)).unwrap();
            assert_eq!(seen, vec![1, 2, 3, 4]);
            (totals, epd, meta)
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
                skipped: Skipped { book: 4, decided: 8, in_check: 18, tactical: 66, leaf_in_check: 0, duplicate: 3 },
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
    fn max_plies_draws_and_stop_starts_no_game() {
        let mut a = args(1, 300, 1, Path::new("unused.epd"));
        (a.max_plies, a.resign_score) = (20, 0);
        let spec = DatagenRequest::validate(&a).unwrap();
        let record = play_game(&mut Engine::new(EngineConfig::seed()), &spec, 1).unwrap();
        assert_eq!((record.result, record.end, record.plies), (GameResult::Draw, GameEnd::MaxPlies, 20));
        // Plies 9 to 19 are searched and written or skipped; ply 8 is the opening.
        assert_eq!(record.skipped.book, 1);
        assert_eq!(record.samples.len() as u64 + record.skipped.total(), 12);
        let (mut epd, mut meta) = (Vec::new(), Vec::new());
        let totals = generate(&spec, &mut epd, &mut meta, &AtomicBool::new(true), &mut |_| {}).unwrap();
        assert_eq!((totals, epd.len(), meta.len()), (Totals::default(), 0, 0));
    }

    #[test]
    fn bad_requests_are_refused() {
        let out = Path::new("x.epd");
        let error = |a: DatagenRequest| DatagenRequest::validate(&a).unwrap_err().to_string();
        assert_eq!(error(args(0, 300, 1, out)), "--games 0: expected at least 1 game");
        assert_eq!(error(args(1, 0, 1, out)), "--nodes 0: expected at least 1 node");
        assert_eq!(error(args(1, 300, 0, out)), "--concurrency 0: expected at least 1");
        let mut a = args(1, 300, 1, out);
        a.max_plies = 8;
        assert_eq!(error(a.clone()), "--maxplies 8: expected more than --plies (8)");
        a.plies = 0;
        assert_eq!(error(a.clone()), "--plies 0: expected 1 to 200");
        a = args(1, 300, 1, out);
        a.window = -1;
        assert_eq!(error(a), "--window -1: expected a non-negative number of centipawns");
        a = args(1, 300, 1, out);
        a.resign_score = -5;
        assert_eq!(error(a), "--resign-score -5: expected centipawns >= 0 (0 turns adjudication off)");
        a = args(1, 300, 1, out);
        a.config = "/nonexistent/x.toml".to_string();
        assert!(error(a).starts_with("--config: "));
        assert_eq!(DatagenRequest::validate(&args(3, 300, 8, out)).unwrap().concurrency, 3);
    }
}
