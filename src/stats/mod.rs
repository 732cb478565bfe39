//! Match statistics: Elo estimates and the SPRT, as pure functions over counts, and rating lists of many
//! players ([`rating_list`]) as pure functions over game results.
//!
//! The inputs are [`Wdl`] (single games) or [`Pentanomial`] (game pairs) counts
//! from the tested engine's point of view; this module never sees a game. The
//! formulas follow fishtest (`LLRcalc.py`, `stat_util.py`) exactly and are checked
//! against its output in `tests/integration/stats_reference.rs`.
//!
//! Units: Elo is logistic Elo, nElo is normalized Elo (see [`EloModel`]), LLRs are
//! natural logarithms.
//!
//! # Examples
//! ```
//! use arbiter::stats::{elo_estimate, GameScore, Pentanomial, SprtSpec};
//! let mut penta = Pentanomial::default();
//! for _ in 0..40 {
//!     penta.add_pair(GameScore::Win, GameScore::Draw);
//!     penta.add_pair(GameScore::Draw, GameScore::Draw);
//!     penta.add_pair(GameScore::Loss, GameScore::Draw);
//! }
//! let estimate = elo_estimate(&penta).unwrap();
//! assert!(estimate.elo.abs() < 1e-9);
//! let outcome = SprtSpec::stc().evaluate(&penta).unwrap();
//! assert!(outcome.llr < 0.0);
//! ```

mod bayeselo;
mod elo;
mod error;
mod figure;
mod mle;
mod pentanomial;
mod rating;
mod simulate;
mod simulate_shards;
mod sprt;
mod sprt_elo;
pub mod sprt_report;

pub use bayeselo::{CutechessElo, bayeselo_llr, cutechess_elo};
pub use elo::{EloEstimate, EloModel, NELO_PER_T, Z_975, elo_estimate, elo_from_score, los, score_from_elo};
pub use error::StatsError;
pub use figure::{Figure, figures_json};
pub use pentanomial::{Counts, GameScore, Pentanomial, Wdl};
pub use rating::{
    DEFAULT_BOOTSTRAP, DEFAULT_SEED, LOS_TIE_ELO, PRIOR_DRAWS, PlayerRating, RatedGame, RatingFit, RatingList,
    RatingOptions, fit_ratings, rating_list,
};
pub use simulate::{
    MAX_SIMULATED_ELO, MAX_SIMULATION_RUNS, PairDistribution, PairProbabilities, RunResult, SimulationError,
    SimulationPlan, SimulationPlanError, SimulationReport, SimulationRequest, run_rng, simulate, simulate_run,
};
pub use simulate_shards::{
    MAX_SHARD_TIME, MAX_SIMULATED_SHARDS, ReadCut, ShardModel, ShardModelError, ShardRecord, ShardRunResult,
    ShardSimulationReport, pair_duration, shard_quota, simulate_shard_run, simulate_shards, timing_rng, visible_pairs,
};
pub use sprt::{MAX_SPRT_ELO, SprtDecision, SprtOutcome, SprtSpec, llr, sprt_bounds, sprt_decision};
pub use sprt_elo::{SprtElo, sprt_elo};

/// The fewest games a trinomial statistic is computed from.
pub const MIN_GAMES: u64 = 2;

/// The fewest game pairs a pentanomial statistic is computed from.
pub const MIN_PAIRS: u64 = 2;
