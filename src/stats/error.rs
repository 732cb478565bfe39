//! The one error type of the statistics layer.

use super::elo::EloModel;

/// Why a statistic could not be computed from the given counts or parameters.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum StatsError {
    /// Fewer single games than the statistic needs.
    #[error("too few games: {games} played, at least {min} needed")]
    TooFewGames {
        /// Games counted.
        games: u64,
        /// Games needed.
        min: u64,
    },
    /// Fewer game pairs than the statistic needs.
    #[error("too few game pairs: {pairs} played, at least {min} needed")]
    TooFewPairs {
        /// Pairs counted.
        pairs: u64,
        /// Pairs needed.
        min: u64,
    },
    /// No maximum-likelihood distribution matches a hypothesis (fishtest raises
    /// an assertion or `ValueError` here); typical of hypotheses far from the data,
    /// such as nElo -1500 against a nearly all-loss result.
    #[error("no maximum-likelihood distribution for {model} Elo {elo}: {reason}")]
    NoSolution {
        /// The hypothesis, in the units of `model`.
        elo: f64,
        /// The Elo model of the hypothesis.
        model: EloModel,
        /// What went wrong, in words.
        reason: &'static str,
    },
    /// A probability parameter (`alpha` or `beta`) outside the open interval (0, 1).
    #[error("{name} must lie strictly between 0 and 1, got {value}")]
    InvalidProbability {
        /// The parameter's name.
        name: &'static str,
        /// The value given.
        value: f64,
    },
    /// An Elo parameter (`elo0` or `elo1`) that is not a finite number.
    #[error("{name} must be a finite number, got {value}")]
    InvalidElo {
        /// The parameter's name.
        name: &'static str,
        /// The value given.
        value: f64,
    },
    /// An Elo model name that is neither `logistic` nor `normalized`.
    #[error("unknown Elo model {text:?}: expected \"logistic\" or \"normalized\"")]
    UnknownEloModel {
        /// The text given.
        text: String,
    },
}
