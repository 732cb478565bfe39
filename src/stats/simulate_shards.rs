//! SPRT simulation of a run split into shards that share one decision: N shards play their own game pairs,
//! each shard reads the pairs finished by all shards and computes the SPRT over them, and the first read whose
//! LLR is beyond a bound decides for the whole run.
//!
//! # The model
//! Pair outcomes are drawn from a [`PairDistribution`] as in [`simulate`](super::simulate); what is added is
//! time. The unit of time is the mean duration of a game pair on the slowest shard.
//! - Shard `i` (0-based) of `N` runs at speed `r^(i / (N - 1))`, `r` being [`ShardModel::speed_ratio`] (all
//!   at speed 1 for one shard): the fastest shard plays `r` times as many pairs per unit of time as the
//!   slowest, as on a cluster of mixed nodes.
//! - A shard keeps [`ShardModel::concurrency`] pairs in flight. A pair's duration is exponential with mean
//!   `1 / speed`: `-ln(1 - u) / speed` for a uniform `u` in `[0, 1)`.
//! - Shard `i` plays the pairs `k < max_pairs` with `k mod N = i` (the `--shard I/N` split), so its part holds
//!   [`shard_quota`] pairs; a shard that has played its part stops.
//! - A shard reads (checks the SPRT) when it finishes a pair, on every [`ShardModel::read_every_pairs`]-th
//!   pair and always on the last of its part, and, with [`ShardModel::read_period`], also every that many units
//!   of time (from a random phase). A read sees the other shards' pairs that finished at least
//!   [`ShardModel::read_delay`] before it (a stale read, as on a shared filesystem whose clients cache what they
//!   read), and its own pairs either all ([`ReadCut::OwnFresh`]) or up to the same time
//!   ([`ReadCut::Common`]); see [`visible_pairs`].
//! - The first read whose LLR ([`SprtSpec::evaluate`]) is beyond a bound writes the decision: its counts are the
//!   decision's. A shard learns of the decision at its first read that sees it (at once for the shard that
//!   wrote it; `read_delay` after it for the others); it then starts no new pair and finishes those in flight.
//!   Pairs finished after the decision are recorded but do not change it.
//!
//! The outcome of the `n`-th pair to finish (in the run's time order) is drawn with the `n`-th number of
//! [`run_rng`]`(seed, run)`, and time with [`timing_rng`]`(seed, run)`; so one shard with one pair at a time,
//! reading after every pair, plays exactly the run of [`simulate_run`](super::simulate_run) with the same
//! seed.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;

use super::pentanomial::Pentanomial;
use super::simulate::{PairDistribution, RunResult, SimulationReport, run_rng};
use super::sprt::{SprtDecision, SprtSpec};

/// The most shards, and the most pairs in flight per shard, a [`ShardModel`] accepts.
pub const MAX_SIMULATED_SHARDS: u64 = 1024;

/// The largest [`ShardModel::speed_ratio`], [`ShardModel::read_period`] and [`ShardModel::read_delay`]
/// accepted.
pub const MAX_SHARD_TIME: f64 = 1000.0;

/// How the shards of a simulated run play and read each other's pairs (see the module documentation); the
/// flags `--shards`, `--concurrency`, `--read-every-pairs`, `--read-period`, `--read-delay` and
/// `--speed-ratio` of `arbiter sprt simulate`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ShardModel {
    /// Shards of the run, from 1 to [`MAX_SIMULATED_SHARDS`].
    pub shards: u64,
    /// Pairs in flight per shard, from 1 to [`MAX_SIMULATED_SHARDS`].
    pub concurrency: u64,
    /// A shard reads after every this many of its own finished pairs (and after its last), at least 1.
    pub read_every_pairs: u64,
    /// A shard also reads every this many units of time (mean pair durations of the slowest shard); `None`
    /// for no periodic read. Above 0, at most [`MAX_SHARD_TIME`].
    pub read_period: Option<f64>,
    /// How long another shard's finished pair takes to become visible to a read, in units of time; 0 for
    /// reads that see every finished pair. From 0 to [`MAX_SHARD_TIME`].
    pub read_delay: f64,
    /// The speed of the fastest shard over that of the slowest, from 1 to [`MAX_SHARD_TIME`].
    pub speed_ratio: f64,
    /// Which of its own pairs a stale read counts.
    pub read_cut: ReadCut,
}

/// Which of its own pairs a shard's read counts when the other shards' pairs are seen late
/// ([`ShardModel::read_delay`] above 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ReadCut {
    /// Every pair the shard has finished (its own records are always fresh), with the others' as far as it
    /// sees them: reads by different shards count different sets, none a prefix of the run's pairs in time.
    #[default]
    OwnFresh,
    /// Every shard's pairs, its own included, up to one time, `read_delay` before the read: every read counts
    /// the pairs that finished before some moment, a prefix of the run's pairs in time.
    Common,
}

impl ShardModel {
    /// `shards` shards, one pair at a time each, reading after every pair, with fresh reads and equal speeds.
    pub const fn new(shards: u64) -> Self {
        Self {
            shards,
            concurrency: 1,
            read_every_pairs: 1,
            read_period: None,
            read_delay: 0.0,
            speed_ratio: 1.0,
            read_cut: ReadCut::OwnFresh,
        }
    }

    /// Checks every field against its range.
    ///
    /// # Errors
    /// A [`ShardModelError`] naming the field and its range.
    pub fn check(&self) -> Result<(), ShardModelError> {
        if !(1..=MAX_SIMULATED_SHARDS).contains(&self.shards) {
            return Err(ShardModelError::Count { field: "shards", value: self.shards });
        }
        if !(1..=MAX_SIMULATED_SHARDS).contains(&self.concurrency) {
            return Err(ShardModelError::Count { field: "concurrency", value: self.concurrency });
        }
        if self.read_every_pairs == 0 {
            return Err(ShardModelError::ReadEveryPairs);
        }
        let in_range = |value: f64, min: f64, min_included: bool| {
            value.is_finite() && value <= MAX_SHARD_TIME && (value > min || (min_included && value == min))
        };
        if let Some(period) = self.read_period
            && !in_range(period, 0.0, false)
        {
            return Err(ShardModelError::Time { field: "read_period", range: "above 0", value: period });
        }
        if !in_range(self.read_delay, 0.0, true) {
            return Err(ShardModelError::Time { field: "read_delay", range: "from 0", value: self.read_delay });
        }
        if !in_range(self.speed_ratio, 1.0, true) {
            return Err(ShardModelError::Time { field: "speed_ratio", range: "from 1", value: self.speed_ratio });
        }
        Ok(())
    }

    /// The speed of shard `shard` (0-based): `speed_ratio^(shard / (shards - 1))`, 1 for a single shard.
    pub fn speed(&self, shard: u64) -> f64 {
        if self.shards < 2 {
            return 1.0;
        }
        self.speed_ratio.powf(shard as f64 / (self.shards - 1) as f64)
    }
}

/// Why a [`ShardModel`] cannot be simulated; each message starts with the field at fault
/// ([`ShardModelError::field`]).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ShardModelError {
    /// `shards` or `concurrency` outside 1..=[`MAX_SIMULATED_SHARDS`].
    #[error("{field}: expected a number from 1 to {MAX_SIMULATED_SHARDS}, got {value}")]
    Count {
        /// `shards` or `concurrency`.
        field: &'static str,
        /// The value given.
        value: u64,
    },
    /// `read_every_pairs` is 0.
    #[error("read_every_pairs: expected at least 1 pair, got 0")]
    ReadEveryPairs,
    /// A time or ratio outside its range.
    #[error("{field}: expected a number {range} to {MAX_SHARD_TIME}, got {value}")]
    Time {
        /// `read_period`, `read_delay` or `speed_ratio`.
        field: &'static str,
        /// The lower end of the range, in words.
        range: &'static str,
        /// The value given.
        value: f64,
    },
}

impl ShardModelError {
    /// The [`ShardModel`] field at fault, as the message starts.
    pub fn field(&self) -> &'static str {
        match self {
            ShardModelError::Count { field, .. } | ShardModelError::Time { field, .. } => field,
            ShardModelError::ReadEveryPairs => "read_every_pairs",
        }
    }
}

/// The pairs of shard `shard` (0-based) of `shards` in a run of `max_pairs` pairs: the `k < max_pairs` with
/// `k mod shards = shard`, that is `ceil((max_pairs - shard) / shards)` (0 when `shard >= max_pairs`).
///
/// # Panics
/// If `shards` is 0.
pub fn shard_quota(max_pairs: u64, shards: u64, shard: u64) -> u64 {
    max_pairs.saturating_sub(shard).div_ceil(shards)
}

/// The duration of a pair drawn by the uniform number `u` in `[0, 1)` on a shard of speed `speed`: the
/// exponential quantile `-ln(1 - u) / speed` (mean `1 / speed`).
pub fn pair_duration(u: f64, speed: f64) -> f64 {
    -(1.0 - u).ln() / speed
}

/// The random number generator of the times of run `run` of a shard simulation seeded with `seed`:
/// ChaCha12 ([`StdRng`]) keyed with `seed` and `run` (little-endian) as [`run_rng`], then the byte 1, then 15
/// zero bytes: a stream apart from the outcomes'.
pub fn timing_rng(seed: u64, run: u64) -> StdRng {
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&seed.to_le_bytes());
    key[8..16].copy_from_slice(&run.to_le_bytes());
    key[16] = 1;
    StdRng::from_seed(key)
}

/// The finished pairs of one shard: after its `n`-th finished pair, the time and the shard's counts so far.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ShardRecord {
    /// `(finish time, counts of the shard's pairs up to this one)`, in time order.
    finished: Vec<(f64, Pentanomial)>,
}

impl ShardRecord {
    /// Records a pair with outcome `pair` (a pentanomial of one pair) finished at `time`, not before the last.
    pub fn push(&mut self, time: f64, pair: &Pentanomial) {
        debug_assert!(self.finished.last().is_none_or(|(last, _)| *last <= time), "pairs recorded in time order");
        let mut counts = self.counts();
        counts += *pair;
        self.finished.push((time, counts));
    }

    /// The counts of every pair recorded.
    pub fn counts(&self) -> Pentanomial {
        self.finished.last().map(|(_, counts)| *counts).unwrap_or_default()
    }

    /// The counts of the pairs finished at or before `time`.
    pub fn counts_at(&self, time: f64) -> Pentanomial {
        let seen = self.finished.partition_point(|(finish, _)| *finish <= time);
        seen.checked_sub(1).map(|last| self.finished[last].1).unwrap_or_default()
    }

    /// The number of pairs recorded.
    pub fn pairs(&self) -> u64 {
        self.finished.len() as u64
    }
}

/// What a read by shard `reader` at time `now` sees: the pairs of every other shard that finished at or before
/// `now - delay`, and its own pairs, all of them for [`ReadCut::OwnFresh`] or up to the same time for
/// [`ReadCut::Common`].
pub fn visible_pairs(records: &[ShardRecord], reader: usize, now: f64, delay: f64, cut: ReadCut) -> Pentanomial {
    let mut seen = Pentanomial::default();
    for (shard, record) in records.iter().enumerate() {
        let fresh = delay == 0.0 || (shard == reader && cut == ReadCut::OwnFresh);
        seen += if fresh { record.counts() } else { record.counts_at(now - delay) };
    }
    seen
}

/// How one simulated sharded run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShardRunResult {
    /// The decision and the pairs its LLR counted (for an undecided run, every pair recorded).
    pub decision: RunResult,
    /// Every pair recorded when the last shard stopped: the decision's, those finished but not yet seen by the
    /// deciding read, and those finished after it.
    pub recorded_pairs: u64,
}

/// What happens at a moment of a simulated run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum EventKind {
    /// A pair of the shard finishes.
    PairFinished,
    /// The shard's periodic read.
    PeriodicRead,
}

/// An event at a time; the sequence number orders events at equal times by their scheduling.
#[derive(Debug, Clone, Copy)]
struct Event {
    time: f64,
    sequence: u64,
    shard: usize,
    kind: EventKind,
}

impl PartialEq for Event {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Event {}

impl PartialOrd for Event {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Event {
    /// Reversed, so that [`BinaryHeap`] pops the earliest event first.
    fn cmp(&self, other: &Self) -> Ordering {
        other.time.total_cmp(&self.time).then(other.sequence.cmp(&self.sequence))
    }
}

/// A shard's state in a simulated run.
#[derive(Debug, Clone)]
struct ShardState {
    speed: f64,
    quota: u64,
    started: u64,
    in_flight: u64,
    /// The shard has seen the decision: it starts no new pair and reads no more.
    knows_decision: bool,
}

impl ShardState {
    /// Whether the shard still plays (and so still reads).
    fn active(&self) -> bool {
        !self.knows_decision && (self.in_flight > 0 || self.started < self.quota)
    }
}

/// The decision of a run, once written.
#[derive(Debug, Clone, Copy)]
struct Written {
    decision: SprtDecision,
    pairs: u64,
    time: f64,
    shard: usize,
}

/// One simulated sharded run (see the module documentation).
struct ShardRun<'a> {
    spec: &'a SprtSpec,
    dist: &'a PairDistribution,
    model: &'a ShardModel,
    outcomes: StdRng,
    timing: StdRng,
    events: BinaryHeap<Event>,
    sequence: u64,
    shards: Vec<ShardState>,
    records: Vec<ShardRecord>,
    written: Option<Written>,
}

impl ShardRun<'_> {
    fn schedule(&mut self, time: f64, shard: usize, kind: EventKind) {
        self.sequence += 1;
        self.events.push(Event { time, sequence: self.sequence, shard, kind });
    }

    fn start_pair(&mut self, now: f64, shard: usize) {
        let duration = pair_duration(self.timing.random::<f64>(), self.shards[shard].speed);
        self.shards[shard].started += 1;
        self.shards[shard].in_flight += 1;
        self.schedule(now + duration, shard, EventKind::PairFinished);
    }

    /// Shard `shard` reads at `now`: it learns of a written decision it can see, or computes the SPRT over the
    /// pairs it sees and writes the decision if the LLR is beyond a bound.
    fn read(&mut self, now: f64, shard: usize) {
        if let Some(written) = self.written {
            if written.shard == shard || written.time + self.model.read_delay <= now {
                self.shards[shard].knows_decision = true;
            }
            return;
        }
        let seen = visible_pairs(&self.records, shard, now, self.model.read_delay, self.model.read_cut);
        // Under 2 pairs the test goes on, as in a match.
        if let Ok(outcome) = self.spec.evaluate(&seen)
            && outcome.decision != SprtDecision::Continue
        {
            self.written = Some(Written { decision: outcome.decision, pairs: seen.pairs(), time: now, shard });
            self.shards[shard].knows_decision = true;
        }
    }

    fn pair_finished(&mut self, now: f64, shard: usize) {
        let mut pair = Pentanomial::default();
        self.dist.add_pair(&mut pair, self.outcomes.random::<f64>());
        self.records[shard].push(now, &pair);
        let state = &mut self.shards[shard];
        state.in_flight -= 1;
        if state.knows_decision {
            return;
        }
        let last = state.started == state.quota && state.in_flight == 0;
        if last || self.records[shard].pairs().is_multiple_of(self.model.read_every_pairs) {
            self.read(now, shard);
        }
        let state = &self.shards[shard];
        if !state.knows_decision && state.started < state.quota {
            self.start_pair(now, shard);
        }
    }

    fn periodic_read(&mut self, now: f64, shard: usize) {
        if !self.shards[shard].active() {
            return;
        }
        self.read(now, shard);
        if let Some(period) = self.model.read_period
            && self.shards[shard].active()
        {
            self.schedule(now + period, shard, EventKind::PeriodicRead);
        }
    }

    fn play(mut self) -> ShardRunResult {
        for shard in 0..self.shards.len() {
            let concurrency = self.model.concurrency.min(self.shards[shard].quota);
            for _ in 0..concurrency {
                self.start_pair(0.0, shard);
            }
            if let Some(period) = self.model.read_period {
                let phase = self.timing.random::<f64>() * period;
                self.schedule(phase, shard, EventKind::PeriodicRead);
            }
        }
        while let Some(event) = self.events.pop() {
            match event.kind {
                EventKind::PairFinished => self.pair_finished(event.time, event.shard),
                EventKind::PeriodicRead => self.periodic_read(event.time, event.shard),
            }
        }
        let recorded_pairs = self.records.iter().map(ShardRecord::pairs).sum();
        let decision = match self.written {
            Some(written) => RunResult { decision: written.decision, pairs: written.pairs },
            None => RunResult { decision: SprtDecision::Continue, pairs: recorded_pairs },
        };
        ShardRunResult { decision, recorded_pairs }
    }
}

/// Plays one simulated sharded run of at most `max_pairs` pairs (see the module documentation), its outcomes
/// drawn with `outcomes` and its times with `timing`.
///
/// # Panics
/// If `model` fails [`ShardModel::check`].
pub fn simulate_shard_run(
    spec: &SprtSpec,
    dist: &PairDistribution,
    model: &ShardModel,
    max_pairs: u64,
    outcomes: StdRng,
    timing: StdRng,
) -> ShardRunResult {
    assert!(model.check().is_ok(), "simulate_shard_run: {model:?} fails ShardModel::check");
    let shards = (0..model.shards)
        .map(|shard| ShardState {
            speed: model.speed(shard),
            quota: shard_quota(max_pairs, model.shards, shard),
            started: 0,
            in_flight: 0,
            knows_decision: false,
        })
        .collect();
    let run = ShardRun {
        spec,
        dist,
        model,
        outcomes,
        timing,
        events: BinaryHeap::new(),
        sequence: 0,
        shards,
        records: vec![ShardRecord::default(); model.shards as usize],
        written: None,
    };
    run.play()
}

/// What a sharded simulation measured.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ShardSimulationReport {
    /// The decisions, with the games counted by the deciding LLR.
    pub decisions: SimulationReport,
    /// Mean games recorded when the last shard stopped, over the decided runs (`None` when none decided).
    pub mean_recorded_games: Option<f64>,
    /// 95th percentile (nearest rank) of the games recorded, over the decided runs (`None` when none decided).
    pub p95_recorded_games: Option<u64>,
}

impl ShardSimulationReport {
    /// Builds the report of the given runs.
    pub fn from_runs(results: &[ShardRunResult]) -> Self {
        let decisions: Vec<RunResult> = results.iter().map(|r| r.decision).collect();
        let mut recorded: Vec<u64> = results
            .iter()
            .filter(|r| r.decision.decision != SprtDecision::Continue)
            .map(|r| 2 * r.recorded_pairs)
            .collect();
        recorded.sort_unstable();
        let decided = recorded.len();
        Self {
            decisions: SimulationReport::from_runs(&decisions),
            mean_recorded_games: (decided > 0).then(|| recorded.iter().sum::<u64>() as f64 / decided as f64),
            p95_recorded_games: (decided > 0).then(|| recorded[(95 * decided).div_ceil(100) - 1]),
        }
    }
}

/// Simulates `runs` sharded SPRT runs of `spec` on pairs drawn from `dist`, each of at most `max_pairs` pairs,
/// and reports the pass rate, the games at the decision and the games recorded in the end.
///
/// Run `i` draws its outcomes from [`run_rng`]`(seed, i)` and its times from [`timing_rng`]`(seed, i)`, so the
/// report depends only on the arguments, not on the number of threads.
///
/// # Panics
/// If `model` fails [`ShardModel::check`].
///
/// # Examples
/// ```
/// use arbiter::stats::{simulate_shards, EloModel, PairDistribution, ShardModel, SprtSpec};
/// let spec = SprtSpec::new(0.0, 50.0, 0.05, 0.05, EloModel::Normalized).unwrap();
/// let dist = PairDistribution::bayeselo(100.0, EloModel::Normalized, 0.5, 0.0).unwrap();
/// let report = simulate_shards(&spec, &dist, &ShardModel::new(8), 20, 10_000, 1);
/// assert!(report.decisions.passed >= 19);
/// assert!(report.mean_recorded_games >= report.decisions.mean_games);
/// ```
pub fn simulate_shards(
    spec: &SprtSpec,
    dist: &PairDistribution,
    model: &ShardModel,
    runs: u64,
    max_pairs: u64,
    seed: u64,
) -> ShardSimulationReport {
    let results: Vec<ShardRunResult> = (0..runs)
        .into_par_iter()
        .map(|run| simulate_shard_run(spec, dist, model, max_pairs, run_rng(seed, run), timing_rng(seed, run)))
        .collect();
    ShardSimulationReport::from_runs(&results)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::{EloModel, simulate_run};

    fn spec() -> SprtSpec {
        SprtSpec::new(0.0, 40.0, 0.05, 0.05, EloModel::Normalized).unwrap()
    }

    fn dist(nelo: f64) -> PairDistribution {
        PairDistribution::bayeselo(nelo, EloModel::Normalized, 0.5, 0.0).unwrap()
    }

    fn run(model: &ShardModel, nelo: f64, max_pairs: u64, seed: u64, run: u64) -> ShardRunResult {
        simulate_shard_run(&spec(), &dist(nelo), model, max_pairs, run_rng(seed, run), timing_rng(seed, run))
    }

    fn pair(ww: u64, ll: u64) -> Pentanomial {
        Pentanomial { ww, ll, ..Pentanomial::default() }
    }

    #[test]
    fn quotas_split_the_schedule_as_shard_i_of_n() {
        // 10 pairs over 4 shards: k = 0,4,8 | 1,5,9 | 2,6 | 3,7.
        assert_eq!((0..4).map(|i| shard_quota(10, 4, i)).collect::<Vec<_>>(), [3, 3, 2, 2]);
        assert_eq!((0..5).map(|i| shard_quota(3, 5, i)).collect::<Vec<_>>(), [1, 1, 1, 0, 0]);
        for (max_pairs, shards) in [(1, 1), (100_000, 64), (7, 3), (64, 64)] {
            assert_eq!((0..shards).map(|i| shard_quota(max_pairs, shards, i)).sum::<u64>(), max_pairs);
        }
    }

    #[test]
    fn speeds_spread_geometrically_and_durations_are_exponential_quantiles() {
        let model = ShardModel { speed_ratio: 8.0, ..ShardModel::new(4) };
        for (shard, speed) in [1.0, 2.0, 4.0, 8.0].into_iter().enumerate() {
            assert!((model.speed(shard as u64) - speed).abs() < 1e-12, "shard {shard}");
        }
        assert_eq!(ShardModel { speed_ratio: 8.0, ..ShardModel::new(1) }.speed(0), 1.0);
        assert_eq!(pair_duration(0.0, 2.0), 0.0);
        // The median of an exponential of mean 1/2 is ln(2)/2.
        assert!((pair_duration(0.5, 2.0) - std::f64::consts::LN_2 / 2.0).abs() < 1e-15);
        assert!((pair_duration(1.0 - (-3.0f64).exp(), 1.0) - 3.0).abs() < 1e-12);
    }

    #[test]
    fn a_stale_read_sees_its_own_pairs_and_the_others_older_ones() {
        let mut records = vec![ShardRecord::default(); 3];
        records[0].push(1.0, &pair(1, 0));
        records[0].push(3.0, &pair(1, 0));
        records[1].push(2.0, &pair(0, 1));
        records[1].push(2.5, &pair(0, 1));
        records[2].push(0.5, &pair(1, 0));
        assert_eq!(records[1].counts_at(2.0), pair(0, 1));
        assert_eq!(records[1].counts_at(1.9), Pentanomial::default());
        // Shard 2 reads at 3.0 with a delay of 1: shard 0 up to 2.0 (one WW), shard 1 up to 2.0 (one LL),
        // itself fully (one WW).
        let own = ReadCut::OwnFresh;
        assert_eq!(visible_pairs(&records, 2, 3.0, 1.0, own), pair(2, 1));
        // Shard 0 at the same moment sees both its own pairs, or only the first with a common cut.
        assert_eq!(visible_pairs(&records, 0, 3.0, 1.0, own), pair(3, 1));
        assert_eq!(visible_pairs(&records, 0, 3.0, 1.0, ReadCut::Common), pair(2, 1));
        assert_eq!(visible_pairs(&records, 2, 3.0, 0.0, own), pair(3, 2));
        assert_eq!(visible_pairs(&records, 2, 3.0, 0.0, ReadCut::Common), pair(3, 2));
    }

    #[test]
    fn one_shard_one_pair_at_a_time_is_the_single_process_run() {
        let model = ShardModel::new(1);
        for (nelo, max_pairs) in [(0.0, 50_000), (40.0, 50_000), (20.0, 60)] {
            for r in 0..20 {
                let single = simulate_run(&spec(), &dist(nelo), max_pairs, &mut run_rng(5, r));
                let sharded = run(&model, nelo, max_pairs, 5, r);
                assert_eq!(sharded.decision, single, "nElo {nelo}, run {r}");
                assert_eq!(sharded.recorded_pairs, single.pairs);
            }
        }
    }

    #[test]
    fn fresh_reads_overshoot_by_at_most_the_pairs_in_flight() {
        // With fresh reads after every pair, the decision counts every pair finished; afterwards the deciding
        // shard finishes its other c - 1 pairs and every other shard at most c (the one whose end it reads
        // the decision at, and c - 1 more).
        for (shards, concurrency) in [(4, 1), (4, 3), (16, 2)] {
            let model = ShardModel { concurrency, speed_ratio: 3.0, ..ShardModel::new(shards) };
            for r in 0..20 {
                let result = run(&model, 20.0, 50_000, 9, r);
                assert_ne!(result.decision.decision, SprtDecision::Continue);
                let overshoot = result.recorded_pairs - result.decision.pairs;
                assert!(overshoot < shards * concurrency, "{shards}x{concurrency}: {result:?}");
            }
        }
    }

    #[test]
    fn a_run_plays_at_most_its_pairs_and_depends_on_its_seed_only() {
        let model = ShardModel {
            concurrency: 2,
            read_every_pairs: 3,
            read_period: Some(0.5),
            read_delay: 2.0,
            speed_ratio: 4.0,
            ..ShardModel::new(8)
        };
        let capped: Vec<ShardRunResult> = (0..20).map(|r| run(&model, 1.0, 30, 3, r)).collect();
        for result in &capped {
            assert!(result.decision.pairs <= result.recorded_pairs && result.recorded_pairs <= 30, "{result:?}");
            if result.decision.decision == SprtDecision::Continue {
                assert_eq!(result.recorded_pairs, 30, "an undecided run plays its whole schedule");
            }
        }
        assert!(capped.iter().any(|r| r.decision.decision == SprtDecision::Continue));
        assert_eq!(run(&model, 20.0, 50_000, 3, 1), run(&model, 20.0, 50_000, 3, 1));
        let a = simulate_shards(&spec(), &dist(20.0), &model, 32, 50_000, 4);
        let b = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap().install(|| {
            simulate_shards(&spec(), &dist(20.0), &model, 32, 50_000, 4) //
        });
        assert_eq!(a, b);
        assert!(a.mean_recorded_games.unwrap() > a.decisions.mean_games.unwrap());
    }

    #[test]
    fn bad_models_name_the_field() {
        let error = |model: ShardModel| model.check().unwrap_err().to_string();
        assert_eq!(error(ShardModel::new(0)), "shards: expected a number from 1 to 1024, got 0");
        assert_eq!(
            error(ShardModel { concurrency: 2000, ..ShardModel::new(2) }),
            "concurrency: expected a number from 1 to 1024, got 2000"
        );
        assert_eq!(
            error(ShardModel { read_every_pairs: 0, ..ShardModel::new(2) }),
            "read_every_pairs: expected at least 1 pair, got 0"
        );
        assert_eq!(
            error(ShardModel { read_period: Some(0.0), ..ShardModel::new(2) }),
            "read_period: expected a number above 0 to 1000, got 0"
        );
        assert_eq!(
            error(ShardModel { read_delay: -1.0, ..ShardModel::new(2) }),
            "read_delay: expected a number from 0 to 1000, got -1"
        );
        assert_eq!(
            error(ShardModel { speed_ratio: 0.5, ..ShardModel::new(2) }),
            "speed_ratio: expected a number from 1 to 1000, got 0.5"
        );
        assert!(ShardModel { read_period: Some(2.0), read_delay: 0.0, ..ShardModel::new(1024) }.check().is_ok());
    }

    #[test]
    fn a_common_cut_counts_a_time_prefix_of_the_runs_pairs() {
        // With a common cut, a decision's counts are every pair finished before one moment, so no later read
        // (had it been made) could count fewer pairs: the counts at the decision never exceed the pairs
        // recorded, and the shard that decides has seen no pair of its own that others could not.
        let model = ShardModel { read_delay: 0.5, read_cut: ReadCut::Common, concurrency: 2, ..ShardModel::new(16) };
        for r in 0..20 {
            let result = run(&model, 20.0, 50_000, 6, r);
            assert!(result.decision.pairs < result.recorded_pairs, "{result:?}");
        }
    }
}
