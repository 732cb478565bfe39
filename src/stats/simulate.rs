//! SPRT simulation: matches drawn at random from a known game-pair distribution, each run until the SPRT
//! decides, to measure a test's pass rate and length.
//!
//! # The model
//! A run plays game pairs; the two games of a pair are independent BayesElo games, the tested engine having
//! White in the first and Black in the second. A BayesElo game between the tested engine and its opponent,
//! `x` Elo apart from the tested engine's view, is won with probability `f(x - draw_elo)`, lost with
//! `f(-x - draw_elo)` and drawn otherwise, with `f(x) = 1 / (1 + 10^(-x/400))` (Rémi Coulom, BayesElo).
//! White's game is played at `x = belo + advantage`, Black's at `x = belo - advantage`.
//!
//! The three parameters come from the user's three numbers, as in Michel Van den Bergh's pentanomial
//! simulator (`simul.c` in github.com/vdbergh/simul, functions `be_data`, `pent_calc` and `elo_to_belo`):
//! - `draw_elo` and `advantage` from the draw ratio `D` and the opening bias `B` (logistic Elo of White's
//!   expected score between equal engines): between equal engines White wins with `f(B) - D/2`, draws with
//!   `D` and loses with `1 - f(B) - D/2`. So `D` is the draw ratio of equal engines; an engine stronger or
//!   weaker than its opponent draws a little less. With `B = 0` (the default) the two games of a pair are
//!   identically distributed.
//! - `belo` by bisection, so that the pair distribution has the true strength asked for, in the SPRT
//!   model's units: for [`EloModel::Logistic`], the expected score `1 / (1 + 10^(-elo/400))`; for
//!   [`EloModel::Normalized`], the pair t-value `(mu - 1/2) / sigma = nelo * sqrt(2) / (800 / ln 10)`, with
//!   `mu` and `sigma` the mean and standard deviation of the pair score (the mean of its two games) — the
//!   very quantity the normalized SPRT's hypotheses fix (fishtest `LLR_normalized`).
//!
//! So a simulation at `elo = elo0` samples a distribution that lies exactly on the SPRT's null hypothesis,
//! and one at `elo = elo1` exactly on its alternative: the pass rates must come out near `alpha` and
//! `1 - beta` (a little under `alpha` and over `1 - beta` because the LLR overshoots its bounds).
//!
//! # The test
//! Each run adds pairs one at a time and evaluates the LLR with [`SprtSpec::evaluate`] after every pair, as
//! `arbiter match` does (the exact LLR, or its documented approximation where the exact fit has no solution);
//! under 2 pairs the run continues.
//! No overshoot correction is applied (nor does the match runner apply one).

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;

use super::elo::{EloModel, NELO_PER_T, Z_975, score_from_elo};
use super::error::StatsError;
use super::pentanomial::Pentanomial;
use super::sprt::{SprtDecision, SprtSpec};

/// The largest `|elo|` and `|bias|` a [`PairDistribution`] accepts, in Elo (logistic or normalized).
pub const MAX_SIMULATED_ELO: f64 = 1000.0;

/// The BayesElo strengths the bisection for `belo` searches, in Elo: `[-BELO_RANGE, BELO_RANGE]`.
const BELO_RANGE: f64 = 5000.0;

/// Bisection steps for `belo`: 200 halvings of a 10,000 Elo interval reach the resolution of an f64.
const BISECTION_STEPS: usize = 200;

/// Why a pair distribution cannot be built from the given parameters.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SimulationError {
    /// The true Elo is not a finite number within ±[`MAX_SIMULATED_ELO`].
    #[error("elo must be a number from -1000 to 1000, got {value}")]
    InvalidElo {
        /// The value given.
        value: f64,
    },
    /// The opening bias is not a finite number within ±[`MAX_SIMULATED_ELO`].
    #[error("bias must be a number from -1000 to 1000 (Elo), got {value}")]
    InvalidBias {
        /// The value given.
        value: f64,
    },
    /// The draw ratio is not in `[0, 1)`.
    #[error("the draw ratio must lie in [0, 1), got {value}")]
    InvalidDrawRatio {
        /// The value given.
        value: f64,
    },
    /// The draw ratio leaves no room for White's wins or losses under the bias: it must be below
    /// `2 min(f(bias), 1 - f(bias))`.
    #[error(
        "draw ratio {draw_ratio} is too high for bias {bias}: it must be below {max:.6} (twice the lesser of \
         White's and Black's expected score between equal engines)"
    )]
    IncompatibleBias {
        /// The draw ratio given.
        draw_ratio: f64,
        /// The bias given.
        bias: f64,
        /// The upper limit of the draw ratio at this bias.
        max: f64,
    },
    /// No BayesElo strength within ±5000 reaches the asked Elo (an Elo too extreme for the model).
    #[error("no BayesElo strength gives {model} Elo {elo}")]
    Unreachable {
        /// The Elo asked for.
        elo: f64,
        /// Its model.
        model: EloModel,
    },
}

/// The probability of each game-pair outcome, from the tested engine's point of view, with the named bins
/// of [`Pentanomial`] (`wl` and `dd` apart).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairProbabilities {
    /// Two losses.
    pub ll: f64,
    /// A loss and a draw.
    pub ld: f64,
    /// A win and a loss.
    pub wl: f64,
    /// Two draws.
    pub dd: f64,
    /// A win and a draw.
    pub wd: f64,
    /// Two wins.
    pub ww: f64,
}

impl PairProbabilities {
    /// The probabilities in the bin order of [`Pentanomial`]: `[ll, ld, wl, dd, wd, ww]`.
    pub const fn to_array(&self) -> [f64; 6] {
        [self.ll, self.ld, self.wl, self.dd, self.wd, self.ww]
    }

    /// The probabilities of the pair scores 0, 1/4, 1/2, 3/4 and 1 (the pair score being the mean of its two
    /// games): `[ll, ld, wl + dd, wd, ww]`, fishtest's pentanomial order.
    pub fn bins(&self) -> [f64; 5] {
        [self.ll, self.ld, self.wl + self.dd, self.wd, self.ww]
    }

    /// The expected score per game, in `[0, 1]`.
    pub fn score(&self) -> f64 {
        self.bins().iter().enumerate().map(|(i, p)| p * i as f64 / 4.0).sum()
    }

    /// The t-value `(mu - 1/2) / sigma` of the pair score, whose mean is `mu` and standard deviation `sigma`
    /// (infinite when `sigma` is 0).
    pub fn pair_t_value(&self) -> f64 {
        let mu = self.score();
        let variance: f64 = self.bins().iter().enumerate().map(|(i, p)| p * (i as f64 / 4.0 - mu).powi(2)).sum();
        (mu - 0.5) / variance.sqrt()
    }

    /// The normalized Elo of this distribution: the pair t-value divided by √2, times `800 / ln 10`
    /// (the nElo of [`elo_estimate`](super::elo_estimate) for pentanomial counts).
    pub fn nelo(&self) -> f64 {
        self.pair_t_value() / std::f64::consts::SQRT_2 * NELO_PER_T
    }

    /// The logistic Elo of the expected score.
    pub fn elo(&self) -> f64 {
        super::elo::elo_from_score(self.score())
    }

    /// The expected fraction of games drawn, in `[0, 1]`.
    pub fn draw_ratio(&self) -> f64 {
        // Each pair has two games: ld and wd hold one draw, dd two.
        (self.ld + self.wd) / 2.0 + self.dd
    }
}

/// A game-pair outcome distribution that simulated matches are drawn from (see the module documentation for
/// the model).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairDistribution {
    probabilities: PairProbabilities,
    /// Upper ends of the cumulative probabilities of the six outcomes, in [`Pentanomial`] bin order.
    cumulative: [f64; 6],
}

/// Win, draw and loss probabilities of one BayesElo game at Elo difference `x` with draw Elo `draw_elo`:
/// `[loss, draw, win]` (vdbergh `ldw_calc`).
fn bayeselo_game(x: f64, draw_elo: f64) -> [f64; 3] {
    let win = score_from_elo(x - draw_elo);
    let loss = score_from_elo(-x - draw_elo);
    // With a draw Elo of 0 (no draws) the difference is 0 up to rounding, which must not turn negative.
    [loss, (1.0 - win - loss).max(0.0), win]
}

/// The pair probabilities of two independent BayesElo games at `belo + advantage` (White) and
/// `belo - advantage` (Black) (vdbergh `pent_calc`, with WL and DD kept apart).
fn bayeselo_pair(belo: f64, draw_elo: f64, advantage: f64) -> PairProbabilities {
    let [l1, d1, w1] = bayeselo_game(belo + advantage, draw_elo);
    let [l2, d2, w2] = bayeselo_game(belo - advantage, draw_elo);
    PairProbabilities {
        ll: l1 * l2,
        ld: l1 * d2 + d1 * l2,
        wl: w1 * l2 + l1 * w2,
        dd: d1 * d2,
        wd: w1 * d2 + d1 * w2,
        ww: w1 * w2,
    }
}

impl PairDistribution {
    /// Builds the distribution of BayesElo game pairs whose true strength is `elo` in the units of `model`,
    /// between engines that draw `draw_ratio` of their games when equal, with opening bias `bias` (logistic
    /// Elo of White's expected score between equal engines; 0 for none).
    ///
    /// For [`EloModel::Normalized`], `elo` is the nElo of the pair distribution
    /// ([`PairProbabilities::nelo`]); for [`EloModel::Logistic`], the logistic Elo of its expected score.
    /// Source: vdbergh's `simul.c` (`be_data`, `pent_calc`, `elo_to_belo`), which does the same for logistic
    /// Elo; see the module documentation.
    ///
    /// # Errors
    /// [`SimulationError::InvalidElo`] or [`SimulationError::InvalidBias`] for a value that is not finite or
    /// beyond ±1000; [`SimulationError::InvalidDrawRatio`] outside `[0, 1)`;
    /// [`SimulationError::IncompatibleBias`] when the draw ratio leaves White no wins or no losses;
    /// [`SimulationError::Unreachable`] when no BayesElo strength gives `elo`.
    ///
    /// # Examples
    /// ```
    /// use arbiter::stats::{EloModel, PairDistribution};
    /// let dist = PairDistribution::bayeselo(5.0, EloModel::Normalized, 0.5, 0.0).unwrap();
    /// assert!((dist.probabilities().nelo() - 5.0).abs() < 1e-9);
    /// let even = PairDistribution::bayeselo(0.0, EloModel::Logistic, 0.5, 0.0).unwrap();
    /// assert!((even.probabilities().draw_ratio() - 0.5).abs() < 1e-12);
    /// ```
    pub fn bayeselo(elo: f64, model: EloModel, draw_ratio: f64, bias: f64) -> Result<Self, SimulationError> {
        if !elo.is_finite() || elo.abs() > MAX_SIMULATED_ELO {
            return Err(SimulationError::InvalidElo { value: elo });
        }
        if !bias.is_finite() || bias.abs() > MAX_SIMULATED_ELO {
            return Err(SimulationError::InvalidBias { value: bias });
        }
        if !(0.0..1.0).contains(&draw_ratio) {
            return Err(SimulationError::InvalidDrawRatio { value: draw_ratio });
        }
        let white_score = score_from_elo(bias);
        let max = 2.0 * white_score.min(1.0 - white_score);
        if draw_ratio >= max {
            return Err(SimulationError::IncompatibleBias { draw_ratio, bias, max });
        }
        // White's win and loss probabilities between equal engines, then BayesElo's draw Elo and White
        // advantage that give them (vdbergh `be_data` and `proba_to_bayeselo`).
        let win = white_score - draw_ratio / 2.0;
        let loss = 1.0 - white_score - draw_ratio / 2.0;
        let advantage = 200.0 * (win / loss * (1.0 - loss) / (1.0 - win)).log10();
        let draw_elo = 200.0 * ((1.0 - loss) / loss * (1.0 - win) / win).log10();

        let target = match model {
            EloModel::Logistic | EloModel::BayesElo => score_from_elo(elo),
            EloModel::Normalized => elo * std::f64::consts::SQRT_2 / NELO_PER_T,
        };
        let strength = |belo: f64| {
            let pair = bayeselo_pair(belo, draw_elo, advantage);
            match model {
                EloModel::Logistic | EloModel::BayesElo => pair.score(),
                EloModel::Normalized => pair.pair_t_value(),
            }
        };
        // The strength grows with belo: bisect for the crossing of the target.
        let (mut lo, mut hi) = (-BELO_RANGE, BELO_RANGE);
        if !(strength(lo) <= target && target <= strength(hi)) {
            return Err(SimulationError::Unreachable { elo, model });
        }
        for _ in 0..BISECTION_STEPS {
            let mid = 0.5 * (lo + hi);
            if mid <= lo || mid >= hi {
                break;
            }
            if strength(mid) < target {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        Ok(Self::from_probabilities(bayeselo_pair(0.5 * (lo + hi), draw_elo, advantage)))
    }

    /// Wraps given pair probabilities (for example a pentanomial measured in real matches), normalizing them
    /// to sum to 1.
    ///
    /// # Panics
    /// If a probability is negative or not finite, or all are 0.
    pub fn from_probabilities(probabilities: PairProbabilities) -> Self {
        let probs = probabilities.to_array();
        assert!(
            probs.iter().all(|p| p.is_finite() && *p >= 0.0) && probs.iter().sum::<f64>() > 0.0,
            "PairDistribution::from_probabilities: {probabilities:?} is not a distribution"
        );
        let total: f64 = probs.iter().sum();
        let [ll, ld, wl, dd, wd, ww] = probs.map(|p| p / total);
        let probabilities = PairProbabilities { ll, ld, wl, dd, wd, ww };
        let mut cumulative = [0.0; 6];
        let mut sum = 0.0;
        for (c, p) in cumulative.iter_mut().zip(probabilities.to_array()) {
            sum += p;
            *c = sum;
        }
        Self { probabilities, cumulative }
    }

    /// The probability of each pair outcome.
    #[inline]
    pub const fn probabilities(&self) -> &PairProbabilities {
        &self.probabilities
    }

    /// Counts one pair drawn by the uniform number `u` in `[0, 1)` into `penta`: the first outcome, in
    /// [`Pentanomial`] bin order, whose cumulative probability exceeds `u` (the last one if rounding leaves
    /// none).
    pub fn add_pair(&self, penta: &mut Pentanomial, u: f64) {
        let bin = self.cumulative.iter().position(|&c| u < c).unwrap_or(5);
        let count = match bin {
            0 => &mut penta.ll,
            1 => &mut penta.ld,
            2 => &mut penta.wl,
            3 => &mut penta.dd,
            4 => &mut penta.wd,
            _ => &mut penta.ww,
        };
        *count += 1;
    }
}

/// How one simulated run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunResult {
    /// The SPRT's decision; [`SprtDecision::Continue`] when the run reached its pair limit undecided.
    pub decision: SprtDecision,
    /// Game pairs played.
    pub pairs: u64,
}

impl RunResult {
    /// Games played: twice the pairs.
    #[inline]
    pub const fn games(&self) -> u64 {
        2 * self.pairs
    }
}

/// Plays one simulated run: pairs drawn from `dist` with `rng`, the LLR of `spec` evaluated after every pair,
/// until a bound is crossed or `max_pairs` pairs were played.
pub fn simulate_run(spec: &SprtSpec, dist: &PairDistribution, max_pairs: u64, rng: &mut StdRng) -> RunResult {
    let mut penta = Pentanomial::default();
    for pairs in 1..=max_pairs {
        dist.add_pair(&mut penta, rng.random::<f64>());
        // The match's own evaluation (SprtSpec::evaluate, with its fallback where the exact fit has no
        // solution); under 2 pairs the test goes on, as in a match.
        if let Ok(outcome) = spec.evaluate(&penta)
            && outcome.decision != SprtDecision::Continue
        {
            return RunResult { decision: outcome.decision, pairs };
        }
    }
    RunResult { decision: SprtDecision::Continue, pairs: max_pairs }
}

/// The random number generator of run `run` of a simulation seeded with `seed`: ChaCha12 ([`StdRng`]) keyed
/// with the 32 bytes `seed` (little-endian), `run` (little-endian), then 16 zero bytes, so every run has its
/// own stream whatever the thread that plays it.
pub fn run_rng(seed: u64, run: u64) -> StdRng {
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&seed.to_le_bytes());
    key[8..16].copy_from_slice(&run.to_le_bytes());
    StdRng::from_seed(key)
}

/// What a simulation measured.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SimulationReport {
    /// Runs played.
    pub runs: u64,
    /// Runs that accepted H1 (the test passed).
    pub passed: u64,
    /// Runs that accepted H0 (the test failed).
    pub failed: u64,
    /// Runs that reached the pair limit undecided.
    pub undecided: u64,
    /// Mean games to a decision, over the decided runs (`None` when none decided).
    pub mean_games: Option<f64>,
    /// 95th percentile of the games to a decision, over the decided runs, by the nearest-rank method: the
    /// smallest count that at least 95% of decided runs do not exceed (`None` when none decided).
    pub p95_games: Option<u64>,
}

impl SimulationReport {
    /// Builds the report of the given runs.
    pub fn from_runs(results: &[RunResult]) -> Self {
        let count = |decision| results.iter().filter(|r| r.decision == decision).count() as u64;
        let mut games: Vec<u64> =
            results.iter().filter(|r| r.decision != SprtDecision::Continue).map(RunResult::games).collect();
        games.sort_unstable();
        let decided = games.len();
        let mean_games = (decided > 0).then(|| games.iter().sum::<u64>() as f64 / decided as f64);
        // Nearest rank: the ceil(0.95 n)-th smallest value, computed in integers.
        let p95_games = (decided > 0).then(|| games[(95 * decided).div_ceil(100) - 1]);
        Self {
            runs: results.len() as u64,
            passed: count(SprtDecision::AcceptH1),
            failed: count(SprtDecision::AcceptH0),
            undecided: count(SprtDecision::Continue),
            mean_games,
            p95_games,
        }
    }

    /// The fraction of runs that passed (`None` without runs).
    pub fn pass_rate(&self) -> Option<f64> {
        (self.runs > 0).then(|| self.passed as f64 / self.runs as f64)
    }

    /// The Wilson score 95% interval `(low, high)` of the pass probability (`None` without runs).
    ///
    /// Source: E. B. Wilson, "Probable inference, the law of succession, and statistical inference" (1927):
    /// `(p + z²/2n ± z sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)` with `z` = 1.95996.
    pub fn pass_rate_interval(&self) -> Option<(f64, f64)> {
        let p = self.pass_rate()?;
        let n = self.runs as f64;
        let z2 = Z_975 * Z_975;
        let centre = p + z2 / (2.0 * n);
        let half = Z_975 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
        let scale = 1.0 + z2 / n;
        Some(((centre - half) / scale, (centre + half) / scale))
    }
}

/// Simulates `runs` SPRT runs of `spec` on pairs drawn from `dist`, each stopped undecided after `max_pairs`
/// pairs, and reports the pass rate and the games to a decision.
///
/// The runs are spread over rayon's threads; run `i` draws from [`run_rng`]`(seed, i)`, so the report
/// depends only on the arguments, not on the number of threads.
///
/// # Examples
/// ```
/// use arbiter::stats::{simulate, EloModel, PairDistribution, SprtSpec};
/// let spec = SprtSpec::new(0.0, 50.0, 0.05, 0.05, EloModel::Normalized).unwrap();
/// let dist = PairDistribution::bayeselo(100.0, EloModel::Normalized, 0.5, 0.0).unwrap();
/// let report = simulate(&spec, &dist, 20, 10_000, 1);
/// assert_eq!(report.runs, 20);
/// assert_eq!(report.passed + report.failed + report.undecided, 20);
/// assert!(report.passed >= 19);
/// ```
pub fn simulate(spec: &SprtSpec, dist: &PairDistribution, runs: u64, max_pairs: u64, seed: u64) -> SimulationReport {
    let results: Vec<RunResult> =
        (0..runs).into_par_iter().map(|run| simulate_run(spec, dist, max_pairs, &mut run_rng(seed, run))).collect();
    SimulationReport::from_runs(&results)
}

/// The most runs a [`SimulationRequest`] accepts.
pub const MAX_SIMULATION_RUNS: u64 = 100_000_000;

/// A simulation as asked for (the flags of `arbiter sprt simulate`), before [`SimulationRequest::plan`] checks
/// it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SimulationRequest {
    /// The true strength of the tested engine, in the units of `model`.
    pub elo: f64,
    /// The draw ratio between equal engines, in [0, 1).
    pub draw_ratio: f64,
    /// The SPRT's H0, in the units of `model`.
    pub elo0: f64,
    /// The SPRT's H1, in the units of `model`.
    pub elo1: f64,
    /// The false-positive rate.
    pub alpha: f64,
    /// The false-negative rate.
    pub beta: f64,
    /// The Elo model of the SPRT and of the Elo values.
    pub model: EloModel,
    /// Simulated matches.
    pub runs: u64,
    /// The most games a run plays before it is counted undecided.
    pub max_games: u64,
    /// Opening bias: White's expected score between equal engines, in logistic Elo.
    pub bias: f64,
    /// Worker threads (`None`: all cores).
    pub threads: Option<usize>,
}

/// What a checked [`SimulationRequest`] simulates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SimulationPlan {
    /// The SPRT.
    pub spec: SprtSpec,
    /// The pair distribution of the true Elo.
    pub dist: PairDistribution,
    /// Runs.
    pub runs: u64,
    /// The pair limit of a run.
    pub max_pairs: u64,
}

/// Why a [`SimulationRequest`] cannot be simulated; each message starts with the field at fault
/// ([`SimulationPlanError::field`]).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SimulationPlanError {
    /// `elo` or `bias` not finite within ±[`MAX_SIMULATED_ELO`].
    #[error("{field}: expected a number from -1000 to 1000 (Elo), got {value}")]
    Elo {
        /// `elo` or `bias`.
        field: &'static str,
        /// The value given.
        value: f64,
    },
    /// An SPRT parameter that [`SprtSpec::new`] refuses.
    #[error("{parameter}: {error}")]
    Sprt {
        /// `elo0`, `elo1`, `alpha` or `beta`.
        parameter: &'static str,
        /// Why.
        error: StatsError,
    },
    /// Runs outside 1..=[`MAX_SIMULATION_RUNS`].
    #[error("runs: expected a number of runs from 1 to {MAX_SIMULATION_RUNS}, got {0}")]
    Runs(u64),
    /// A game limit below one pair.
    #[error("max_games: expected at least 2 games (one pair), got {0}")]
    MaxGames(u64),
    /// No worker thread.
    #[error("threads: expected at least 1 thread, got 0")]
    NoThreads,
    /// A pair distribution that cannot be built.
    #[error("{field}: {error}")]
    Distribution {
        /// `elo`, `bias` or `draw_ratio`.
        field: &'static str,
        /// Why.
        error: SimulationError,
    },
}

impl SimulationPlanError {
    /// The [`SimulationRequest`] field at fault, as the message starts.
    pub fn field(&self) -> &'static str {
        match self {
            SimulationPlanError::Elo { field, .. } | SimulationPlanError::Distribution { field, .. } => field,
            SimulationPlanError::Sprt { parameter, .. } => parameter,
            SimulationPlanError::Runs(_) => "runs",
            SimulationPlanError::MaxGames(_) => "max_games",
            SimulationPlanError::NoThreads => "threads",
        }
    }
}

impl SimulationRequest {
    /// Checks the request and builds the SPRT and the pair distribution.
    ///
    /// # Errors
    /// A [`SimulationPlanError`]: `elo` and `bias` finite within ±1000; `elo0`, `elo1`, `alpha` and `beta` as
    /// [`SprtSpec::new`] checks them for every command; `draw_ratio` in [0, 1) and below twice the lesser side's
    /// expected score under `bias`; `runs` from 1 to 100,000,000; `max_games` at least 2; `threads` at least 1.
    pub fn plan(&self) -> Result<SimulationPlan, SimulationPlanError> {
        for (field, value) in [("elo", self.elo), ("bias", self.bias)] {
            if !value.is_finite() || value.abs() > MAX_SIMULATED_ELO {
                return Err(SimulationPlanError::Elo { field, value });
            }
        }
        // The SPRT's ranges are the one check every command shares (SprtSpec::new).
        let spec = SprtSpec::new(self.elo0, self.elo1, self.alpha, self.beta, self.model)
            .map_err(|error| SimulationPlanError::Sprt { parameter: error.parameter().unwrap_or("elo0"), error })?;
        if self.runs == 0 || self.runs > MAX_SIMULATION_RUNS {
            return Err(SimulationPlanError::Runs(self.runs));
        }
        if self.max_games < 2 {
            return Err(SimulationPlanError::MaxGames(self.max_games));
        }
        if self.threads == Some(0) {
            return Err(SimulationPlanError::NoThreads);
        }
        let dist = PairDistribution::bayeselo(self.elo, self.model, self.draw_ratio, self.bias).map_err(|error| {
            let field = match error {
                SimulationError::InvalidElo { .. } | SimulationError::Unreachable { .. } => "elo",
                SimulationError::InvalidBias { .. } => "bias",
                SimulationError::InvalidDrawRatio { .. } | SimulationError::IncompatibleBias { .. } => "draw_ratio",
            };
            SimulationPlanError::Distribution { field, error }
        })?;
        Ok(SimulationPlan { spec, dist, runs: self.runs, max_pairs: self.max_games.div_ceil(2) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn equal_engines_without_bias_draw_exactly_the_draw_ratio() {
        let dist = PairDistribution::bayeselo(0.0, EloModel::Normalized, 0.6, 0.0).unwrap();
        let p = dist.probabilities();
        // Each game: win 0.2, draw 0.6, loss 0.2, independent.
        let expected = PairProbabilities { ll: 0.04, ld: 0.24, wl: 0.08, dd: 0.36, wd: 0.24, ww: 0.04 };
        for (a, b) in p.to_array().iter().zip(expected.to_array()) {
            assert!(close(*a, b, 1e-12), "{p:?}");
        }
        assert!(close(p.score(), 0.5, 1e-12));
        assert!(close(p.draw_ratio(), 0.6, 1e-12));
    }

    #[test]
    fn the_true_elo_is_met_in_either_model() {
        for (elo, draw_ratio, bias) in [(10.0, 0.5, 0.0), (-35.0, 0.2, 0.0), (3.0, 0.6, 60.0), (250.0, 0.0, 0.0)] {
            let normalized = PairDistribution::bayeselo(elo, EloModel::Normalized, draw_ratio, bias).unwrap();
            assert!(close(normalized.probabilities().nelo(), elo, 1e-9), "nElo {elo}");
            let logistic = PairDistribution::bayeselo(elo, EloModel::Logistic, draw_ratio, bias).unwrap();
            assert!(close(logistic.probabilities().elo(), elo, 1e-9), "Elo {elo}");
            assert!(close(logistic.probabilities().to_array().iter().sum(), 1.0, 1e-12));
        }
    }

    #[test]
    fn bias_keeps_the_draw_ratio_of_equal_engines_and_correlates_the_pair() {
        let dist = PairDistribution::bayeselo(0.0, EloModel::Logistic, 0.5, 100.0).unwrap();
        let p = dist.probabilities();
        assert!(close(p.draw_ratio(), 0.5, 1e-9));
        // White scores f(100) = 0.640065 in each game: wins 0.390065, losses 0.109935; independent games
        // with colours reversed give WL = 0.390065² + 0.109935².
        let white = score_from_elo(100.0);
        let (win, loss) = (white - 0.25, 1.0 - white - 0.25);
        assert!(close(p.wl, win * win + loss * loss, 1e-9), "{p:?}");
        assert!(close(p.ww, win * loss, 1e-9));
    }

    #[test]
    fn bad_parameters_are_errors() {
        let normalized = EloModel::Normalized;
        assert_eq!(
            PairDistribution::bayeselo(f64::NAN, normalized, 0.5, 0.0).unwrap_err().to_string(),
            "elo must be a number from -1000 to 1000, got NaN"
        );
        assert_eq!(
            PairDistribution::bayeselo(0.0, normalized, 1.0, 0.0),
            Err(SimulationError::InvalidDrawRatio { value: 1.0 })
        );
        assert_eq!(
            PairDistribution::bayeselo(0.0, normalized, -0.1, 0.0),
            Err(SimulationError::InvalidDrawRatio { value: -0.1 })
        );
        assert!(matches!(
            PairDistribution::bayeselo(0.0, normalized, 0.9, 400.0),
            Err(SimulationError::IncompatibleBias { .. })
        ));
        assert_eq!(
            PairDistribution::bayeselo(0.0, normalized, 0.5, 2000.0),
            Err(SimulationError::InvalidBias { value: 2000.0 })
        );
    }

    #[test]
    fn sampling_follows_the_cumulative_probabilities() {
        let probabilities = PairProbabilities { ll: 0.1, ld: 0.2, wl: 0.1, dd: 0.2, wd: 0.3, ww: 0.1 };
        let dist = PairDistribution::from_probabilities(probabilities);
        let mut penta = Pentanomial::default();
        for u in [0.0, 0.05, 0.1, 0.25, 0.35, 0.45, 0.65, 0.85, 0.95, 0.999_999] {
            dist.add_pair(&mut penta, u);
        }
        assert_eq!(penta, Pentanomial { ll: 2, ld: 2, wl: 1, dd: 1, wd: 2, ww: 2 });
    }

    #[test]
    fn report_counts_and_percentile() {
        let run = |decision, pairs| RunResult { decision, pairs };
        let mut results: Vec<RunResult> = (1..=19).map(|i| run(SprtDecision::AcceptH0, i)).collect();
        results.push(run(SprtDecision::AcceptH1, 100));
        results.push(run(SprtDecision::Continue, 1000));
        let report = SimulationReport::from_runs(&results);
        assert_eq!((report.runs, report.passed, report.failed, report.undecided), (21, 1, 19, 1));
        // Decided games: 2, 4, ..., 38 and 200; mean (380 + 200) / 20 = 29; the 19th smallest is 38.
        assert_eq!(report.mean_games, Some(29.0));
        assert_eq!(report.p95_games, Some(38));
        let (low, high) = report.pass_rate_interval().unwrap();
        assert!(low < 1.0 / 21.0 && 1.0 / 21.0 < high);
        let empty = SimulationReport::from_runs(&[]);
        assert_eq!((empty.mean_games, empty.p95_games, empty.pass_rate()), (None, None, None));
    }

    #[test]
    fn wilson_interval_matches_a_worked_value() {
        // 50 passes in 1000 runs: Wilson 95% interval [0.038130, 0.065314]
        // (the formula evaluated in Python; statsmodels' proportion_confint(50, 1000, method="wilson") agrees).
        let report =
            SimulationReport { runs: 1000, passed: 50, failed: 950, undecided: 0, mean_games: None, p95_games: None };
        let (low, high) = report.pass_rate_interval().unwrap();
        assert!(close(low, 0.038130, 1e-6) && close(high, 0.065314, 1e-6), "{low} {high}");
    }

    #[test]
    fn a_simulation_depends_on_its_seed_only() {
        let spec = SprtSpec::new(0.0, 40.0, 0.05, 0.05, EloModel::Normalized).unwrap();
        let dist = PairDistribution::bayeselo(20.0, EloModel::Normalized, 0.5, 0.0).unwrap();
        let a = simulate(&spec, &dist, 64, 5_000, 7);
        let b = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap().install(|| {
            simulate(&spec, &dist, 64, 5_000, 7) //
        });
        assert_eq!(a, b);
        let single = simulate_run(&spec, &dist, 5_000, &mut run_rng(7, 3));
        let again = simulate_run(&spec, &dist, 5_000, &mut run_rng(7, 3));
        assert_eq!(single, again);
        assert_ne!(simulate(&spec, &dist, 64, 5_000, 8), a);
    }

    #[test]
    fn a_pair_limit_leaves_runs_undecided() {
        let spec = SprtSpec::stc();
        let dist = PairDistribution::bayeselo(1.0, EloModel::Normalized, 0.5, 0.0).unwrap();
        let report = simulate(&spec, &dist, 8, 3, 1);
        assert_eq!((report.undecided, report.mean_games, report.p95_games), (8, None, None));
    }
}
