//! The match scheduler: game pairs handed to `concurrency` worker threads, results recorded as they come, and
//! the SPRT that stops launching pairs once it decides.
//!
//! The pairings come from the [`Tournament`]: a round robin (every engine against every other) or a gauntlet
//! (the first engine against each of the others). Pair `k` belongs to round `k / P` (P pairings) and plays
//! pairing `k % P` on opening `order[round % n]`: every pairing of a round plays the same opening, and the
//! openings are cycled when the rounds outnumber them. In game 0 of a pair the pairing's first engine has
//! White; in game 1 the colours are swapped, unless the match is played without swapping ([`MatchSpec::swap`]
//! false, `--noswap`), where the first engine has White in both. Every game starts with [`Player::new_game`],
//! so a game depends only on its engines, opening and limits: with node or depth limits a match replays
//! exactly, whatever the concurrency (only the order of the rows in the output files differs).
//!
//! That is what lets a match be resumed ([`run_match_from`] skips the games already recorded) and split into
//! [`Shard`]s, each playing a disjoint set of whole pairs on its own machine.

use super::game::EndReason;
use super::game::{GameRecord, GameSettings, play_game_unless};
use super::openings::{OpeningOrder, opening_order_from};
use super::tally::MatchTally;
use crate::chess::Color;
use crate::chess::Variant;
use crate::game::Game;
use crate::game::GameResult;
use crate::game::opening::Opening;
use crate::player::bench::DEFAULT_BENCH_TIMEOUT_S;
use crate::player::{EngineSpec, Player};
use crate::stats::{SprtDecision, SprtOutcome, SprtSpec};
use std::collections::HashSet;
use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

/// The most games a match plays when its length is not given: under an SPRT that has not decided by then, or
/// when every opening is played once per pairing.
pub const MAX_GAMES: u64 = 100_000;

/// How many games in a row an engine may fail to start (its process cannot be started or answers no `uciok`
/// or `readyok` in time: a recorded loss, `engine failure`) before the match stops, even with `--recover`: an
/// engine that cannot be restarted would otherwise forfeit every remaining game and decide the SPRT.
pub const MAX_FAILED_STARTS: u32 = 3;

/// How long games in play may still run after an interrupt before they are abandoned (unrecorded): then an
/// external engine still searching is sent `stop` and its process is ended (`quit`, then its process group is
/// killed after [`QUIT_GRACE`](crate::uci::process::QUIT_GRACE)).
pub const ABANDON_AFTER: Duration = Duration::from_secs(2);

/// The most worker threads a match may use.
pub const MAX_CONCURRENCY: usize = 1024;

/// How many game pairs a match plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MatchLength {
    /// This many games in all, rounded up to whole pairs.
    Games(#[serde(with = "super::plan::wide")] u64),
    /// This many pairs per pairing.
    Rounds(#[serde(with = "super::plan::wide")] u64),
    /// Every opening once per pairing, at most [`MAX_GAMES`] games.
    EachOpening,
    /// Until the SPRT decides, at most [`MAX_GAMES`] games (the openings are cycled).
    UntilDecided,
}

impl MatchLength {
    /// The number of game pairs for `pairings` pairings and `openings` openings.
    ///
    /// # Examples
    /// ```
    /// use arbiter::runner::MatchLength;
    /// assert_eq!(MatchLength::Games(7).pairs(1, 100), 4);
    /// assert_eq!(MatchLength::Rounds(5).pairs(3, 100), 15);
    /// assert_eq!(MatchLength::EachOpening.pairs(3, 100), 300);
    /// assert_eq!(MatchLength::UntilDecided.pairs(1, 100), 50_000);
    /// ```
    pub fn pairs(self, pairings: usize, openings: usize) -> u64 {
        let pairings = pairings as u64;
        match self {
            MatchLength::Games(games) => games.div_ceil(2),
            MatchLength::Rounds(rounds) => rounds.saturating_mul(pairings),
            MatchLength::EachOpening => (openings as u64).saturating_mul(pairings).min(MAX_GAMES / 2),
            MatchLength::UntilDecided => MAX_GAMES / 2,
        }
    }
}

/// Every pairing of `engines` entrants in round-robin order: `(0, 1), (0, 2), ..., (1, 2), ...`.
pub fn round_robin(engines: usize) -> Vec<(usize, usize)> {
    (0..engines).flat_map(|a| (a + 1..engines).map(move |b| (a, b))).collect()
}

/// The pairings of a gauntlet of `engines` entrants: the first engine against every other, `(0, 1), (0, 2),
/// ..., (0, engines - 1)`.
///
/// # Examples
/// ```
/// use arbiter::runner::gauntlet;
/// assert_eq!(gauntlet(4), vec![(0, 1), (0, 2), (0, 3)]);
/// ```
pub fn gauntlet(engines: usize) -> Vec<(usize, usize)> {
    (1..engines).map(|b| (0, b)).collect()
}

/// The pairings of a gauntlet whose first `seeds` entrants each play every other entrant, `(0, seeds), ...,
/// (0, engines - 1), (1, seeds), ...` (cutechess-cli's `-seeds N`, `GauntletTournament::nextPair`); with `meet`
/// the seeds also play one another, each the entrants after it (fastchess's `-seeds N`,
/// `app/src/matchmaking/tournament/gauntlet/scheduler.hpp`). `seeds` is clamped to `1..engines`.
///
/// # Examples
/// ```
/// use arbiter::runner::seeded_gauntlet;
/// assert_eq!(seeded_gauntlet(4, 2, false), vec![(0, 2), (0, 3), (1, 2), (1, 3)]);
/// assert_eq!(seeded_gauntlet(4, 2, true), vec![(0, 1), (0, 2), (0, 3), (1, 2), (1, 3)]);
/// assert_eq!(seeded_gauntlet(4, 1, false), vec![(0, 1), (0, 2), (0, 3)]);
/// ```
pub fn seeded_gauntlet(engines: usize, seeds: usize, meet: bool) -> Vec<(usize, usize)> {
    let seeds = seeds.clamp(1, engines.saturating_sub(1).max(1));
    (0..seeds).flat_map(|a| (if meet { a + 1 } else { seeds }..engines).map(move |b| (a, b))).collect()
}

/// The pairings of cutechess-cli's pyramid tournament: every engine plays all its predecessors, each
/// encounter with the later engine first (White in its first game), `(1, 0), (2, 0), (2, 1), (3, 0), ...`
/// (`PyramidTournament::nextPair`, `projects/lib/src/pyramidtournament.cpp`).
///
/// # Examples
/// ```
/// use arbiter::runner::pyramid;
/// assert_eq!(pyramid(4), vec![(1, 0), (2, 0), (2, 1), (3, 0), (3, 1), (3, 2)]);
/// ```
pub fn pyramid(engines: usize) -> Vec<(usize, usize)> {
    (1..engines).flat_map(|a| (0..a).map(move |b| (a, b))).collect()
}

/// How the entrants of a match are paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Tournament {
    /// Every engine plays every other ([`round_robin`]).
    #[default]
    RoundRobin,
    /// The first engine (or the first `--seeds N`) plays every other; the others do not meet
    /// ([`seeded_gauntlet`]).
    Gauntlet,
    /// Every engine plays all engines before it ([`pyramid`]): the pairs of a round robin in cutechess-cli's
    /// pyramid order and colours.
    Pyramid,
    /// The engines meet in twos, in the order given: the first against the second, the third against the
    /// fourth, ... (an odd last engine sits out); a round of a knockout.
    Pairs,
    /// cutechess-cli's single-elimination tournament, played round by round by [`crate::runner::knockout`];
    /// its schedule is that of its first round's encounters ([`Tournament::Pairs`] of the bracket order).
    Knockout,
}

impl Tournament {
    /// The pairings of `engines` entrants, first engine first, a gauntlet with one seed.
    pub fn pairings(self, engines: usize) -> Vec<(usize, usize)> {
        self.seeded_pairings(engines, 1, false)
    }

    /// The pairings of `engines` entrants with `seeds` seeds (used by a gauntlet, see [`seeded_gauntlet`]).
    pub fn seeded_pairings(self, engines: usize, seeds: usize, meet: bool) -> Vec<(usize, usize)> {
        match self {
            Tournament::RoundRobin => round_robin(engines),
            Tournament::Gauntlet => seeded_gauntlet(engines, seeds, meet),
            Tournament::Pyramid => pyramid(engines),
            Tournament::Pairs | Tournament::Knockout => (0..engines / 2).map(|k| (2 * k, 2 * k + 1)).collect(),
        }
    }

    /// The name on the command line and in the summary: `round-robin`, `gauntlet`, `pyramid`, `pairs` or
    /// `knockout`.
    pub fn name(self) -> &'static str {
        match self {
            Tournament::RoundRobin => "round-robin",
            Tournament::Gauntlet => "gauntlet",
            Tournament::Pyramid => "pyramid",
            Tournament::Pairs => "pairs",
            Tournament::Knockout => "knockout",
        }
    }
}

/// One game pair of the schedule: which pairing, which opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GamePair {
    /// 0-based pair number in the match; its games are numbered `2 * index` and `2 * index + 1`.
    pub index: u64,
    /// Index into the match's pairings.
    pub pairing: usize,
    /// The engine with White in game 0.
    pub first: usize,
    /// The engine with White in game 1.
    pub second: usize,
    /// Index into the opening file's openings (0-based, file order).
    pub opening: usize,
    /// Whether the colours are swapped in game 1 (false under `--noswap`: `first` has White in both games).
    pub swap: bool,
    /// Whether the pair is played with reversed sides (`--reverse`, cutechess-cli's and fastchess's `-reverse`):
    /// `second` has White in game 0 (and, under `--noswap`, in both games).
    pub reverse: bool,
}

impl GamePair {
    /// The engines (White, Black) of game `game` (0 or 1) of this pair.
    pub fn colours(&self, game: u8) -> (usize, usize) {
        let (a, b) = if self.reverse { (self.second, self.first) } else { (self.first, self.second) };
        if game == 0 || !self.swap { (a, b) } else { (b, a) }
    }

    /// The colour of the pairing's first engine in game `game` (0 or 1) of this pair.
    pub fn first_color(&self, game: u8) -> Color {
        if self.colours(game).0 == self.first { Color::White } else { Color::Black }
    }

    /// The match-wide 0-based number of game `game` of this pair.
    pub fn game_number(&self, game: u8) -> u64 {
        2 * self.index + u64::from(game)
    }
}

/// One part of a match split over several processes or machines: shard `index` of `count` (1-based, as in
/// `--shard 3/8`) plays the game pairs whose 0-based number `k` has `k % count == index - 1`. Shards are
/// disjoint, together cover the schedule, and hold whole pairs only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    index: u32,
    count: u32,
}

/// A `--shard` value that is not `I/N` with `1 <= I <= N`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected I/N with 1 <= I <= N (shard I of N, 1-based, e.g. 3/8), got {}", crate::notation::quote::shown(.text))]
pub struct ShardError {
    /// The text given.
    pub text: String,
}

impl Shard {
    /// Shard `index` of `count`.
    ///
    /// # Errors
    /// [`ShardError`] unless `1 <= index <= count`.
    pub fn new(index: u32, count: u32) -> Result<Shard, ShardError> {
        if index == 0 || index > count {
            return Err(ShardError { text: format!("{index}/{count}") });
        }
        Ok(Shard { index, count })
    }

    /// The 1-based shard number `I` of `I/N`.
    #[inline]
    pub fn index(self) -> u32 {
        self.index
    }

    /// The number of shards `N` of `I/N`.
    #[inline]
    pub fn count(self) -> u32 {
        self.count
    }

    /// Whether pair number `pair` (0-based) belongs to this shard.
    #[inline]
    pub fn owns(self, pair: u64) -> bool {
        pair % u64::from(self.count) == u64::from(self.index - 1)
    }

    /// How many of the pairs `0..total_pairs` belong to this shard.
    ///
    /// # Examples
    /// ```
    /// use arbiter::runner::Shard;
    /// let shards: Vec<u64> = (1..=4).map(|i| Shard::new(i, 4).unwrap().pairs(10)).collect();
    /// assert_eq!(shards, [3, 3, 2, 2]);
    /// ```
    pub fn pairs(self, total_pairs: u64) -> u64 {
        total_pairs.saturating_sub(u64::from(self.index - 1)).div_ceil(u64::from(self.count))
    }

    /// The match-wide number of this shard's `k`-th pair (both 0-based).
    #[inline]
    pub fn pair_number(self, k: u64) -> u64 {
        k * u64::from(self.count) + u64::from(self.index - 1)
    }
}

impl FromStr for Shard {
    type Err = ShardError;

    /// Parses `I/N` (decimal, 1-based `I`).
    fn from_str(text: &str) -> Result<Shard, ShardError> {
        let error = || ShardError { text: text.to_string() };
        let (index, count) = text.split_once('/').ok_or_else(error)?;
        let number = |t: &str| t.parse::<u32>().ok().filter(|_| t.bytes().all(|b| b.is_ascii_digit()));
        Shard::new(number(index).ok_or_else(error)?, number(count).ok_or_else(error)?).map_err(|_| error())
    }
}

impl fmt::Display for Shard {
    /// Writes `I/N`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// The pairs of a match, computed on demand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    /// The pairings, first engine first.
    pub pairings: Vec<(usize, usize)>,
    /// Opening indices in playing order (see [`opening_order_from`]).
    pub order: Vec<usize>,
    /// How many pairs the whole match plays at most (all shards together).
    pub total_pairs: u64,
    /// Whether game 1 of every pair swaps the colours of game 0 ([`GamePair::swap`]).
    pub swap: bool,
    /// Whether every pair is played with reversed sides ([`GamePair::reverse`]).
    pub reverse: bool,
    /// The part of the schedule this process plays; `None` for all of it.
    pub shard: Option<Shard>,
}

impl Schedule {
    /// How many pairs this process plays at most: [`Schedule::total_pairs`], or the shard's part of them.
    pub fn planned_pairs(&self) -> u64 {
        self.shard.map_or(self.total_pairs, |shard| shard.pairs(self.total_pairs))
    }

    /// The `k`-th pair (0-based) that this process plays: pair `k` of the match, or of the shard's part.
    ///
    /// # Panics
    /// As [`Schedule::pair`].
    pub fn planned_pair(&self, k: u64) -> GamePair {
        self.pair(self.shard.map_or(k, |shard| shard.pair_number(k)))
    }

    /// Pair number `index` (see the module docs).
    ///
    /// # Panics
    /// If the schedule has no pairing or no opening.
    pub fn pair(&self, index: u64) -> GamePair {
        let per_round = self.pairings.len() as u64;
        let round = index / per_round;
        let pairing = (index % per_round) as usize;
        let (first, second) = self.pairings[pairing];
        let opening = self.order[(round % self.order.len() as u64) as usize];
        GamePair { index, pairing, first, second, opening, swap: self.swap, reverse: self.reverse }
    }
}

/// Everything a match of the game `G` (chess by default) needs.
#[derive(Clone, Debug)]
pub struct MatchSpec<G: Game> {
    /// The entrants (two or more, unique names).
    pub engines: Vec<EngineSpec>,
    /// The openings, in file order.
    pub openings: Vec<Opening<G>>,
    /// Where the openings came from (for the summary).
    pub openings_source: String,
    /// The order in which openings are taken.
    pub order: OpeningOrder,
    /// The seed of the random opening order.
    pub seed: u64,
    /// The 1-based number, in playing order, of the first opening played (`start=` of `--openings`; 1 for the
    /// first): see [`opening_order_from`].
    pub start: usize,
    /// The variant: Chess960 openings, `UCI_Chess960` for external engines, `[Variant "chess960"]` in the PGN.
    pub variant: Variant,
    /// How the entrants are paired.
    pub tournament: Tournament,
    /// How many of the first engines are a gauntlet's seeds (1 unless `--seeds N`).
    pub seeds: usize,
    /// Whether a gauntlet's seeds also play one another (fastchess's `-seeds`).
    pub seeds_meet: bool,
    /// Whether game 1 of each pair swaps colours (the default, `--repeat`); false under `--noswap`, where the
    /// pairing's first engine has White in both games and the pentanomial still counts the two games as a pair.
    pub swap: bool,
    /// Whether each pair starts with the pairing's second engine as White (`--reverse`).
    pub reverse: bool,
    /// Milliseconds each worker waits after a game before it starts the next (`--wait`, 0: none).
    pub wait_ms: u64,
    /// The CPUs the workers share out and pin themselves to before they start engines (`--affinity`; empty:
    /// no pinning): see [`crate::runner::affinity`].
    pub affinity: Vec<usize>,
    /// How many games: [`MatchLength::Games`] counts games over all pairings together, [`MatchLength::Rounds`]
    /// pairs per pairing, whatever the tournament.
    pub length: MatchLength,
    /// Games played at once, at least 1: the match runs `min(concurrency, pairs)` worker threads
    /// ([`MatchSpec::workers`]).
    pub concurrency: usize,
    /// Adjudication (its `limits` are not used: each game takes its players' limits from
    /// [`EngineSpec::limit`], see [`MatchSpec::game_settings`]).
    pub settings: GameSettings,
    /// Restart a player whose process failed (crashed, stalled, could not start) and go on (`--recover`); without
    /// it such a failure, recorded as a lost game, stops the match.
    pub recover: bool,
    /// The SPRT that may stop the match early (two engines only), counted over game pairs from the first
    /// engine's view. A shard's own pairs never decide it: the run's shards take it together over all their
    /// pairs ([`crate::runner::rundir::cluster`], through [`MatchObserver::poll_verdict`]).
    pub sprt: Option<SprtSpec>,
    /// The part of the schedule to play (`--shard I/N`); `None` for the whole match.
    pub shard: Option<Shard>,
}

impl<G: Game> MatchSpec<G> {
    /// The schedule of this spec: the tournament's pairings, the opening order from `start`, the number of
    /// pairs and the shard.
    pub fn schedule(&self) -> Schedule {
        let pairings = self.tournament.seeded_pairings(self.engines.len(), self.seeds, self.seeds_meet);
        let total_pairs = self.length.pairs(pairings.len(), self.openings.len());
        let order = opening_order_from(self.openings.len(), self.order, self.seed, self.start);
        Schedule { pairings, order, total_pairs, swap: self.swap, reverse: self.reverse, shard: self.shard }
    }

    /// The settings of a game between engines `white` and `black` (indices into `engines`): their own move
    /// limits and the match's adjudication.
    pub fn game_settings(&self, white: usize, black: usize) -> GameSettings {
        GameSettings {
            limits: [self.engines[white].limit, self.engines[black].limit],
            books: [self.engines[white].book.clone(), self.engines[black].book.clone()],
            ..self.settings.clone()
        }
    }

    /// The number of worker threads: `concurrency`, but no more than the pairs to play (and at least 1).
    pub fn workers(&self) -> usize {
        let pairs = usize::try_from(self.schedule().planned_pairs()).unwrap_or(usize::MAX);
        self.concurrency.min(pairs).max(1)
    }
}

/// An SPRT decision and when it was taken.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtVerdict {
    /// H0 or H1 accepted.
    pub decision: SprtDecision,
    /// The LLR and bounds when the decision was taken.
    pub outcome: SprtOutcome,
    /// Pairs complete when the decision was taken (pairs already running were still recorded after it).
    pub pairs: u64,
}

/// Where a match stands: counts, the SPRT and any failure. Passed to the [`MatchObserver`] after every game and
/// returned at the end.
#[derive(Clone, Debug)]
pub struct MatchState {
    /// The schedule being played.
    pub schedule: Schedule,
    /// The counts so far.
    pub tally: MatchTally,
    /// The SPRT's latest state over the complete pairs (`None` without an SPRT; before 2 pairs its LLR is fishtest's regularized value and it never decides).
    pub sprt: Option<SprtOutcome>,
    /// The SPRT decision, once taken.
    pub verdict: Option<SprtVerdict>,
    /// An internal failure that stopped the match (an output file that cannot be written, a player that cannot
    /// be created, a bench signature that changed: see `failure_is_input`).
    pub failure: Option<String>,
    /// Whether `failure` is the user's input rather than a failure of the run: a `--bench-check` that found a
    /// wrong bench signature at a worker's start (exit 2).
    pub failure_is_input: bool,
    /// Why an engine failure stopped the match (without `--recover`, or an engine that failed to start
    /// [`MAX_FAILED_STARTS`] games in a row): the pairs in play were still played and recorded.
    pub halted: Option<String>,
    /// Per engine (by index in the spec), the games it failed to start in a row, up to now.
    pub failed_starts: Vec<u32>,
    /// Whether an interrupt (Ctrl-C, SIGTERM) stopped the match before its schedule ended.
    pub interrupted: bool,
    /// Games abandoned unrecorded because they were still in play [`ABANDON_AFTER`] an interrupt.
    pub abandoned: u64,
    /// Games counted from the result files of an earlier session (a resumed match, merged shards) rather than
    /// played by this one.
    pub resumed: u64,
    /// Time since this session of the match started.
    pub elapsed: Duration,
}

impl MatchState {
    /// The state of a match of `schedule` before any game.
    pub fn new(schedule: Schedule) -> MatchState {
        MatchState {
            tally: MatchTally::new(&schedule.pairings),
            schedule,
            sprt: None,
            verdict: None,
            failure: None,
            failure_is_input: false,
            halted: None,
            failed_starts: Vec::new(),
            interrupted: false,
            abandoned: 0,
            resumed: 0,
            elapsed: Duration::ZERO,
        }
    }

    /// The number of games planned for this process: `2 * planned_pairs` (the shard's part under a shard).
    pub fn games_total(&self) -> u64 {
        2 * self.schedule.planned_pairs()
    }

    /// Counts game `game` (0 or 1) of `pair` with its result, and once the pair is complete updates the SPRT
    /// of `spec` (over the first pairing's pentanomial counts). Returns the verdict when this game made the
    /// SPRT decide; it is then kept in [`MatchState::verdict`]. Under a shard no verdict is taken here (the LLR
    /// of its own pairs is still updated): the shards' combined SPRT decides for all of them.
    ///
    /// Replaying a run's games in the order they were recorded gives the same counts, LLR and verdict as when
    /// they were played.
    ///
    /// # Panics
    /// If the pair's pairing is out of range or `game` is not 0 or 1 (internal invariants).
    pub fn count<G: Game>(
        &mut self,
        spec: &MatchSpec<G>,
        pair: &GamePair,
        game: u8,
        result: GameResult,
        end: EndReason,
    ) -> Option<SprtVerdict> {
        let pair_done = self.tally.add_game_as(pair.pairing, pair.index, pair.first_color(game), result, end);
        let sprt = spec.sprt.as_ref().filter(|_| pair_done)?;
        self.sprt = sprt.evaluate(&self.tally.pairings[0].penta).ok();
        let outcome = self.sprt.filter(|o| o.decision != SprtDecision::Continue)?;
        if self.verdict.is_some() || spec.shard.is_some() {
            return None;
        }
        let pairs = self.tally.pairings[0].penta.pairs();
        self.verdict = Some(SprtVerdict { decision: outcome.decision, outcome, pairs });
        self.verdict
    }
}

/// Receives a match's progress (of the game `G`, chess by default): a progress bar, a log.
pub trait MatchObserver<G: Game> {
    /// Called when a worker is about to play game `game` of `pair` (its players are started). Default: nothing.
    fn game_started(&mut self, _pair: &GamePair, _game: u8, _state: &MatchState) {}

    /// Called after each game is written and counted.
    fn game_finished(&mut self, record: &GameRecord<G>, pair: &GamePair, game: u8, state: &MatchState);

    /// A line for the log (a player failure, an SPRT decision).
    fn message(&mut self, text: &str);

    /// Polled after each game (`game_recorded` true) and about every 100 ms: a verdict taken outside this
    /// process (the combined SPRT of a sharded run, [`crate::runner::rundir::cluster`]) stops the match as its
    /// own SPRT would: no new pair starts, the pairs in play finish. Default: never.
    fn poll_verdict(&mut self, _state: &MatchState, _game_recorded: bool) -> Option<SprtVerdict> {
        None
    }
}

/// An observer that ignores everything.
pub struct Silent;

impl<G: Game> MatchObserver<G> for Silent {
    fn game_finished(&mut self, _record: &GameRecord<G>, _pair: &GamePair, _game: u8, _state: &MatchState) {}
    fn message(&mut self, _text: &str) {}
}

/// What a worker tells the recording thread.
enum Event<G: Game> {
    /// A game is about to be played.
    Started { pair: GamePair, game: u8 },
    /// A game ended. The recording thread answers on `recorded` once it is written and counted.
    Game { pair: GamePair, game: u8, record: Box<GameRecord<G>>, recorded: mpsc::Sender<()> },
    /// A game was abandoned after an interrupt.
    Abandoned,
    /// The worker cannot go on.
    Fatal(String),
    /// The worker cannot go on because of the user's input (a wrong bench signature).
    Refused(String),
}

/// Where the scheduler records each game as it ends, before counting it: the run folder's result files
/// ([`ResultSink`](crate::runner::ResultSink)) in `arbiter match`.
pub trait GameSink<G: Game> {
    /// Why a game cannot be recorded (shown to the user; the match stops).
    type Error: fmt::Display;

    /// Records game `game` (0 or 1) of `pair`, played as `record`.
    ///
    /// # Errors
    /// [`GameSink::Error`] when the game cannot be recorded: the match stops and the error is its failure.
    fn write_game(&mut self, pair: &GamePair, game: u8, record: &GameRecord<G>) -> Result<(), Self::Error>;
}

/// Plays the match of `spec` with [`MatchSpec::workers`] worker threads, writing every game to `sink` as it
/// ends and reporting to `observer`; returns the final state.
///
/// Workers take pairs in schedule order and play both games of a pair; a worker takes its next pair only once
/// its last game is recorded. With an SPRT, each complete pair updates the LLR of the first pairing; when it
/// crosses a bound, no new pair starts, and pairs other workers are playing finish and are recorded (with one
/// worker, the match ends exactly at the deciding pair). A failure to write the output or to create a player also stops new pairs and is reported
/// in [`MatchState::failure`]; every game already finished stays written.
///
/// `interrupt` is polled every 100 ms: once set (by a Ctrl-C handler), no new pair starts, the pairs in play
/// finish and are recorded, and games still in play [`ABANDON_AFTER`] later are abandoned unrecorded (an
/// external engine's move in progress is cut short with `stop`, as is a built-in chess engine's search);
/// [`MatchState::interrupted`] is then set.
pub fn run_match<G: Game>(
    spec: &MatchSpec<G>,
    sink: &mut impl GameSink<G>,
    observer: &mut dyn MatchObserver<G>,
    interrupt: &AtomicBool,
) -> MatchState {
    run_match_from(spec, MatchState::new(spec.schedule()), &HashSet::new(), sink, observer, interrupt)
}

/// Plays what is left of a match, as [`run_match`]: `state` holds the counts of the games already recorded
/// (see [`MatchState::count`]) and `done` their match-wide game numbers ([`GamePair::game_number`]). Pairs
/// whose two games are done are skipped, a pair with one done game plays only the other, and a match whose
/// SPRT had already decided starts nothing. [`MatchState::resumed`] is set to the games counted in `state`.
pub fn run_match_from<G: Game>(
    spec: &MatchSpec<G>,
    mut state: MatchState,
    done: &HashSet<u64>,
    sink: &mut impl GameSink<G>,
    observer: &mut dyn MatchObserver<G>,
    interrupt: &AtomicBool,
) -> MatchState {
    let started = Instant::now();
    state.resumed = state.tally.games;
    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let abandon = Arc::new(AtomicBool::new(false));
    let (sender, receiver) = mpsc::channel::<Event<G>>();
    let schedule = state.schedule.clone();
    if interrupt.load(Ordering::SeqCst) || state.verdict.is_some() {
        // Interrupted while the match was being prepared, or decided before a resume: start nothing.
        stop.store(true, Ordering::Relaxed);
    }
    std::thread::scope(|scope| {
        for index in 0..spec.workers() {
            let sender = sender.clone();
            let flags = Flags { next: &next, stop: &stop, abandon: &abandon };
            let schedule = &schedule;
            scope.spawn(move || {
                let outcome = catch_unwind(AssertUnwindSafe(|| worker(spec, schedule, done, flags, &sender, index)));
                if let Err(payload) = outcome {
                    let reason = crate::player::error::panic_text(payload.as_ref()).unwrap_or_default();
                    let _ = sender.send(Event::Fatal(format!("a worker thread panicked: {reason}")));
                }
            });
        }
        drop(sender);
        let mut interrupted_at: Option<Instant> = None;
        loop {
            if interrupted_at.is_none() && interrupt.load(Ordering::SeqCst) {
                interrupted_at = Some(Instant::now());
                state.interrupted = true;
                stop.store(true, Ordering::Relaxed);
                observer.message(&format!(
                    "interrupted: no new pair starts; the pairs in play finish (games still running after {} s are \
                     abandoned); interrupt again to quit at once",
                    ABANDON_AFTER.as_secs()
                ));
            }
            if let Some(at) = interrupted_at
                && at.elapsed() >= ABANDON_AFTER
                && !abandon.swap(true, Ordering::Relaxed)
            {
                observer.message("interrupted: abandoning the games still in play");
            }
            let event = receiver.recv_timeout(Duration::from_millis(100));
            let game_recorded = matches!(event, Ok(Event::Game { .. }));
            match event {
                Ok(Event::Started { pair, game }) => observer.game_started(&pair, game, &state),
                Ok(Event::Game { pair, game, record, recorded }) => {
                    record_game(spec, &mut state, sink, observer, &stop, &pair, game, &record, started);
                    let _ = recorded.send(());
                }
                Ok(Event::Abandoned) => state.abandoned += 1,
                Ok(Event::Fatal(reason)) => {
                    stop.store(true, Ordering::Relaxed);
                    observer.message(&format!("error: {reason}"));
                    state.failure.get_or_insert(reason);
                }
                Ok(Event::Refused(reason)) => {
                    stop.store(true, Ordering::Relaxed);
                    observer.message(&format!("error: {reason}"));
                    if state.failure.is_none() {
                        state.failure = Some(reason);
                        state.failure_is_input = true;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
            if state.verdict.is_none()
                && state.failure.is_none()
                && let Some(verdict) = observer.poll_verdict(&state, game_recorded)
            {
                stop.store(true, Ordering::Relaxed);
                state.verdict = Some(verdict);
                observer.message(&format!(
                    "SPRT (all shards): {} after {} pairs of the run (LLR {:.2}, bounds [{:.2}, {:.2}]); no new pair \
                     starts, the pairs in play finish",
                    decision_text(verdict.decision),
                    verdict.pairs,
                    verdict.outcome.llr,
                    verdict.outcome.lower,
                    verdict.outcome.upper
                ));
            }
        }
    });
    state.elapsed = started.elapsed();
    state
}

/// The flags the workers share.
#[derive(Clone, Copy)]
struct Flags<'a> {
    /// The next pair to play.
    next: &'a AtomicU64,
    /// Start no new pair.
    stop: &'a AtomicBool,
    /// Give up the games in play (external engines watch it while they search).
    abandon: &'a Arc<AtomicBool>,
}

/// Writes and counts one game, updates the SPRT and tells the observer.
#[allow(clippy::too_many_arguments)]
fn record_game<G: Game>(
    spec: &MatchSpec<G>,
    state: &mut MatchState,
    sink: &mut impl GameSink<G>,
    observer: &mut dyn MatchObserver<G>,
    stop: &AtomicBool,
    pair: &GamePair,
    game: u8,
    record: &GameRecord<G>,
    started: Instant,
) {
    if state.failure.is_some() {
        // The output failed earlier: nothing more can be written.
        return;
    }
    if let Err(error) = sink.write_game(pair, game, record) {
        stop.store(true, Ordering::Relaxed);
        observer.message(&format!("error: {error}"));
        state.failure = Some(error.to_string());
        return;
    }
    if let Some(note) = &record.note {
        observer.message(&format!("game {}: {}: {note}", pair.game_number(game) + 1, record.end.text()));
    }
    count_failed_starts(spec, state, observer, stop, pair, game, record);
    if record.end.is_engine_failure() {
        if spec.recover {
            observer.message("--recover: the failed engine is restarted before its next game");
        } else if state.halted.is_none() {
            stop.store(true, Ordering::Relaxed);
            let text = format!(
                "game {} ended by an engine failure ({}); no new pair starts (pass --recover to restart failed \
                 engines and go on)",
                pair.game_number(game) + 1,
                record.end.text()
            );
            observer.message(&text);
            state.halted = Some(text);
        }
    }
    if let Some(verdict) = state.count(spec, pair, game, record.result, record.end) {
        stop.store(true, Ordering::Relaxed);
        let outcome = verdict.outcome;
        observer.message(&format!(
            "SPRT: {} after {} pairs (LLR {:.2}, bounds [{:.2}, {:.2}]); finishing the pairs in play",
            decision_text(verdict.decision),
            verdict.pairs,
            outcome.llr,
            outcome.lower,
            outcome.upper
        ));
    }
    state.elapsed = started.elapsed();
    observer.game_finished(record, pair, game, state);
}

/// Counts the games in a row each engine of `pair`'s game `game` failed to start, and stops the match (even
/// with `--recover`) once one of them reaches [`MAX_FAILED_STARTS`].
fn count_failed_starts<G: Game>(
    spec: &MatchSpec<G>,
    state: &mut MatchState,
    observer: &mut dyn MatchObserver<G>,
    stop: &AtomicBool,
    pair: &GamePair,
    game: u8,
    record: &GameRecord<G>,
) {
    let (white, black) = pair.colours(game);
    if state.failed_starts.len() < spec.engines.len() {
        state.failed_starts.resize(spec.engines.len(), 0);
    }
    if record.end != EndReason::PlayerFailure {
        state.failed_starts[white] = 0;
        state.failed_starts[black] = 0;
        return;
    }
    let loser = if record.result == GameResult::WhiteWins { black } else { white };
    state.failed_starts[loser] += 1;
    if state.failed_starts[loser] >= MAX_FAILED_STARTS && state.halted.is_none() {
        stop.store(true, Ordering::Relaxed);
        let text = format!(
            "the engine {} failed to start for {MAX_FAILED_STARTS} games in a row (the last: game {}); no new pair \
             starts: fix the engine, then resume",
            spec.engines[loser].name,
            pair.game_number(game) + 1
        );
        observer.message(&text);
        state.halted = Some(text);
    }
}

/// `H0 accepted`, `H1 accepted` or `continue`.
pub fn decision_text(decision: SprtDecision) -> &'static str {
    match decision {
        SprtDecision::AcceptH0 => "H0 accepted",
        SprtDecision::AcceptH1 => "H1 accepted",
        SprtDecision::Continue => "continue",
    }
}

/// One worker: takes pairs until the schedule (or the shard's part of it) ends or the match stops, playing the
/// games of each that are not `done` with its own players (created once per engine, on first use).
fn worker<G: Game>(
    spec: &MatchSpec<G>,
    schedule: &Schedule,
    done: &HashSet<u64>,
    flags: Flags<'_>,
    sender: &mpsc::Sender<Event<G>>,
    index: usize,
) {
    if !spec.affinity.is_empty() {
        let cpus = crate::runner::affinity::cpus_of_worker(&spec.affinity, spec.workers(), index);
        if let Err(reason) = crate::runner::affinity::pin_current_thread(&cpus) {
            let _ = sender.send(Event::Fatal(format!("--affinity: {reason}")));
            return;
        }
    }
    let mut players: Vec<Option<Box<dyn Player<G>>>> = spec.engines.iter().map(|_| None).collect();
    let mut started = vec![false; spec.engines.len()];
    let (recorded_sender, recorded) = mpsc::channel::<()>();
    while !flags.stop.load(Ordering::Relaxed) {
        let k = flags.next.fetch_add(1, Ordering::Relaxed);
        if k >= schedule.planned_pairs() {
            return;
        }
        let pair = schedule.planned_pair(k);
        for game in (0..2u8).filter(|&game| !done.contains(&pair.game_number(game))) {
            if flags.abandon.load(Ordering::Relaxed) {
                return;
            }
            let (white, black) = pair.colours(game);
            for engine in [white, black] {
                if players[engine].is_none() {
                    // --bench-check: the signature again at this worker's first start of the engine.
                    let entrant = &spec.engines[engine];
                    if entrant.bench_check && !started[engine] {
                        started[engine] = true;
                        if let Err(error) = entrant.check_bench(Duration::from_secs(DEFAULT_BENCH_TIMEOUT_S)) {
                            let text = format!("the bench check at a worker's start: {error}");
                            let _ =
                                sender.send(if error.is_input() { Event::Refused(text) } else { Event::Fatal(text) });
                            return;
                        }
                    }
                    match spec.engines[engine].create() {
                        Ok(mut player) => {
                            player.set_cancel(Arc::clone(flags.abandon));
                            players[engine] = Some(player);
                        }
                        Err(error) => {
                            let _ = sender.send(Event::Fatal(error.to_string()));
                            return;
                        }
                    }
                }
            }
            let (white_player, black_player) = two_mut(&mut players, white, black);
            let opening = &spec.openings[pair.opening];
            let mut settings = spec.game_settings(white, black);
            settings.book_seed = crate::chess::polyglot::splitmix(spec.seed ^ pair.game_number(game));
            let _ = sender.send(Event::Started { pair, game });
            crate::uci::log::set_game(pair.game_number(game) + 1);
            let Some(record) = play_game_unless(white_player, black_player, opening, &settings, flags.abandon) else {
                let _ = sender.send(Event::Abandoned);
                return;
            };
            let event = Event::Game { pair, game, record: Box::new(record), recorded: recorded_sender.clone() };
            // Wait until the game is counted: a pair that completes the SPRT (or an output failure) then stops
            // this worker before it takes another pair, so one worker plays exactly the pairs up to the
            // decision, however the threads are scheduled.
            if sender.send(event).is_err() || recorded.recv().is_err() {
                return;
            }
            if spec.wait_ms > 0 {
                std::thread::sleep(Duration::from_millis(spec.wait_ms));
            }
        }
    }
}

/// Mutable references to two distinct created players.
fn two_mut<G: Game>(
    players: &mut [Option<Box<dyn Player<G>>>],
    a: usize,
    b: usize,
) -> (&mut dyn Player<G>, &mut dyn Player<G>) {
    assert_ne!(a, b, "a pairing has two different engines");
    let (low, high) = players.split_at_mut(a.max(b));
    let (pa, pb) = if a < b { (&mut low[a], &mut high[0]) } else { (&mut high[0], &mut low[b]) };
    (
        pa.as_deref_mut().expect("players are created before the game"),
        pb.as_deref_mut().expect("players are created before the game"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::rundir::output::ResultSink;

    #[test]
    fn round_robin_pairings() {
        assert_eq!(round_robin(2), vec![(0, 1)]);
        assert_eq!(round_robin(4), vec![(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]);
    }

    #[test]
    fn pairs_share_openings_per_round_and_cycle() {
        let schedule = Schedule {
            pairings: round_robin(3),
            order: vec![2, 0, 1],
            total_pairs: 12,
            swap: true,
            reverse: false,
            shard: None,
        };
        let openings: Vec<usize> = (0..12).map(|k| schedule.pair(k).opening).collect();
        assert_eq!(openings, vec![2, 2, 2, 0, 0, 0, 1, 1, 1, 2, 2, 2]);
        let pair = schedule.pair(4);
        assert_eq!((pair.pairing, pair.first, pair.second), (1, 0, 2));
        assert_eq!(pair.colours(0), (0, 2));
        assert_eq!(pair.colours(1), (2, 0));
        assert_eq!((pair.game_number(0), pair.game_number(1)), (8, 9));
    }

    #[test]
    fn gauntlet_pairs_the_first_engine_with_each_other() {
        assert_eq!(gauntlet(2), vec![(0, 1)]);
        assert_eq!(gauntlet(4), vec![(0, 1), (0, 2), (0, 3)]);
        assert_eq!(Tournament::Gauntlet.pairings(3), gauntlet(3));
        assert_eq!(Tournament::RoundRobin.pairings(3), round_robin(3));
        let mut spec = spec(6, 1);
        spec.engines.push(EngineSpec::builtin("seed").unwrap());
        spec.engines[2].name = "third".into();
        spec.tournament = Tournament::Gauntlet;
        spec.length = MatchLength::Rounds(2);
        let schedule = spec.schedule();
        assert_eq!(schedule.total_pairs, 4, "two pairs for each of the two pairings");
        let pairs: Vec<(usize, usize, usize)> =
            (0..4).map(|k| schedule.pair(k)).map(|p| (p.pairing, p.first, p.second)).collect();
        assert_eq!(pairs, [(0, 0, 1), (1, 0, 2), (0, 0, 1), (1, 0, 2)]);
        // --games counts games over all pairings: 6 games are 3 pairs, handed out pairing by pairing.
        spec.length = MatchLength::Games(6);
        assert_eq!(spec.schedule().total_pairs, 3);
        spec.tournament = Tournament::RoundRobin;
        spec.length = MatchLength::Rounds(2);
        assert_eq!(spec.schedule().total_pairs, 6);
    }

    #[test]
    fn noswap_keeps_the_first_engine_white() {
        let schedule = Schedule {
            pairings: round_robin(3),
            order: vec![0],
            total_pairs: 6,
            swap: false,
            reverse: false,
            shard: None,
        };
        let pair = schedule.pair(4);
        assert!(!pair.swap);
        assert_eq!((pair.colours(0), pair.colours(1)), ((0, 2), (0, 2)));
        assert_eq!((pair.first_color(0), pair.first_color(1)), (Color::White, Color::White));
        let swapped = GamePair { swap: true, ..pair };
        assert_eq!((swapped.colours(0), swapped.colours(1)), ((0, 2), (2, 0)));
        assert_eq!((swapped.first_color(0), swapped.first_color(1)), (Color::White, Color::Black));
        // --reverse: the second engine has White first; the pair still counts from the first engine's view.
        let reversed = GamePair { reverse: true, ..swapped };
        assert_eq!((reversed.colours(0), reversed.colours(1)), ((2, 0), (0, 2)));
        assert_eq!((reversed.first_color(0), reversed.first_color(1)), (Color::Black, Color::White));
        let both = GamePair { reverse: true, ..pair };
        assert_eq!((both.colours(0), both.colours(1)), ((2, 0), (2, 0)));
    }

    #[test]
    fn start_and_order_make_the_schedule() {
        let mut spec = spec(8, 1);
        let start = spec.openings[0].clone();
        spec.openings = vec![start; 5];
        spec.start = 4;
        let openings: Vec<usize> = (0..4).map(|k| spec.schedule().pair(k).opening).collect();
        assert_eq!(openings, [3, 4, 0, 1]);
        spec.order = OpeningOrder::Random;
        spec.seed = 11;
        assert_eq!(spec.schedule().order, opening_order_from(5, OpeningOrder::Random, 11, 4));
    }

    #[test]
    fn noswap_matches_count_pairs_with_the_first_engine_white() {
        let dir = std::env::temp_dir().join(format!("arbiter-scheduler-noswap-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let mut sink = ResultSink::create(&dir, "test").unwrap();
        let mut spec = spec(4, 1);
        spec.swap = false;
        let state = run_match(&spec, &mut sink, &mut Silent, &AtomicBool::new(false));
        let tally = &state.tally.pairings[0];
        assert_eq!((tally.wdl.games(), tally.white.games(), tally.penta.pairs()), (4, 4, 2));
        let csv = std::fs::read_to_string(dir.join("games.csv")).unwrap();
        assert_eq!(csv.lines().skip(1).filter(|row| row.contains(",seed,nomob,")).count(), 4, "{csv}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn shards_split_the_schedule_into_disjoint_whole_pairs() {
        for total in [0u64, 1, 7, 8, 9, 100] {
            for count in 1..=9u32 {
                let mut seen = vec![0u32; total as usize];
                for index in 1..=count {
                    let shard = Shard::new(index, count).unwrap();
                    let schedule = Schedule {
                        pairings: vec![(0, 1)],
                        order: vec![0],
                        total_pairs: total,
                        swap: true,
                        reverse: false,
                        shard: Some(shard),
                    };
                    assert_eq!(schedule.planned_pairs(), shard.pairs(total));
                    for k in 0..schedule.planned_pairs() {
                        let pair = schedule.planned_pair(k);
                        assert!(shard.owns(pair.index) && pair.index < total, "{shard} {k}");
                        seen[pair.index as usize] += 1;
                    }
                }
                assert!(seen.iter().all(|&n| n == 1), "{total} pairs, {count} shards: {seen:?}");
            }
        }
        let shard: Shard = "3/8".parse().unwrap();
        assert_eq!((shard.index(), shard.count(), shard.to_string()), (3, 8, "3/8".to_string()));
        assert_eq!((shard.pair_number(0), shard.pair_number(2)), (2, 18));
        for bad in ["0/8", "9/8", "1/0", "3", "3/", "/8", "a/8", "+3/8", "3/8/1", " 3/8", "-1/8", ""] {
            let err = bad.parse::<Shard>().unwrap_err();
            assert_eq!(err.text, bad);
            assert!(err.to_string().starts_with("expected I/N with 1 <= I <= N"), "{err}");
        }
    }

    #[test]
    fn a_shard_is_never_stopped_by_its_sprt() {
        let mut whole = spec(80, 1);
        whole.sprt = Some(SprtSpec::new(-200.0, 0.0, 0.05, 0.05, crate::stats::EloModel::Normalized).unwrap());
        let mut sharded = whole.clone();
        sharded.shard = Some(Shard::new(1, 1).unwrap());
        let mut states = [MatchState::new(whole.schedule()), MatchState::new(sharded.schedule())];
        for (state, spec) in states.iter_mut().zip([&whole, &sharded]) {
            // The first engine scores WW, WD, WW, WD, ...: far above elo0 = -200.
            for index in 0..40 {
                let pair = spec.schedule().pair(index);
                let second = if index % 2 == 0 { GameResult::BlackWins } else { GameResult::Draw };
                state.count(spec, &pair, 0, GameResult::WhiteWins, EndReason::ResignAdjudication);
                state.count(spec, &pair, 1, second, EndReason::ResignAdjudication);
            }
        }
        let [whole_state, shard_state] = states;
        assert_eq!(whole_state.verdict.map(|v| (v.decision, v.pairs)), Some((SprtDecision::AcceptH1, 4)));
        assert!(shard_state.verdict.is_none());
        assert_eq!(shard_state.sprt.map(|o| o.decision), Some(SprtDecision::AcceptH1), "the LLR is still kept");
    }

    #[test]
    fn lengths() {
        assert_eq!(MatchLength::Games(8).pairs(1, 3), 4);
        assert_eq!(MatchLength::Games(1).pairs(1, 3), 1);
        assert_eq!(MatchLength::Rounds(2).pairs(6, 3), 12);
        assert_eq!(MatchLength::EachOpening.pairs(1, 1_000_000), MAX_GAMES / 2);
    }

    fn spec(games: u64, concurrency: usize) -> MatchSpec<crate::chess::ChessGame> {
        let seed = EngineSpec::builtin("seed").unwrap();
        let nomob = EngineSpec::builtin("nomob").unwrap();
        let mut settings = GameSettings::default();
        settings.adjudication.maxmoves = Some(20);
        let limit = crate::player::MoveLimit { nodes: Some(200), ..Default::default() };
        MatchSpec {
            engines: vec![EngineSpec { limit, ..seed }, EngineSpec { limit, ..nomob }],
            openings: vec![Opening { start: crate::chess::Position::startpos(), moves: Vec::new(), line: 1 }],
            openings_source: "startpos".into(),
            order: OpeningOrder::Sequential,
            seed: 1,
            start: 1,
            variant: Variant::Standard,
            tournament: Tournament::RoundRobin,
            seeds: 1,
            seeds_meet: false,
            swap: true,
            reverse: false,
            wait_ms: 0,
            affinity: Vec::new(),
            length: MatchLength::Games(games),
            concurrency,
            settings,
            recover: false,
            sprt: None,
            shard: None,
        }
    }

    #[test]
    fn workers_never_outnumber_the_pairs() {
        assert_eq!(spec(4, 16).workers(), 2);
        assert_eq!(spec(3, 16).workers(), 2);
        assert_eq!(spec(100, 3).workers(), 3);
        assert_eq!(spec(1, 1).workers(), 1);
    }

    #[test]
    fn an_interrupt_stops_the_match_and_keeps_its_games() {
        let dir = std::env::temp_dir().join(format!("arbiter-scheduler-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for run in ["before", "none"] {
            std::fs::create_dir_all(dir.join(run)).unwrap();
        }
        let mut sink = ResultSink::create(&dir.join("before"), "test").unwrap();
        let state = run_match(&spec(40, 2), &mut sink, &mut Silent, &AtomicBool::new(true));
        assert!(state.interrupted && state.failure.is_none());
        assert_eq!((state.tally.games, state.abandoned), (0, 0));

        let mut sink = ResultSink::create(&dir.join("none"), "test").unwrap();
        let state = run_match(&spec(4, 2), &mut sink, &mut Silent, &AtomicBool::new(false));
        assert!(!state.interrupted && state.failure.is_none());
        assert_eq!(state.tally.games, 4);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
