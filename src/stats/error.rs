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
    /// An SPRT hypothesis beyond ±[`MAX_SPRT_ELO`](super::MAX_SPRT_ELO).
    #[error("{name} must lie from -{max} to {max}, got {}", shown_number(*value))]
    EloOutOfRange {
        /// The parameter's name.
        name: &'static str,
        /// The value given.
        value: f64,
        /// The largest magnitude accepted.
        max: f64,
    },
    /// SPRT hypotheses with `elo0 >= elo1`.
    #[error("elo1 ({elo1}) must be greater than elo0 ({elo0})")]
    InvalidHypotheses {
        /// The H0 hypothesis given.
        elo0: f64,
        /// The H1 hypothesis given.
        elo1: f64,
    },
    /// SPRT error rates with `alpha + beta >= 1`: the stopping bounds would not enclose 0.
    #[error("alpha + beta must be below 1 (so that the bounds enclose LLR 0), got {alpha} + {beta}")]
    InvalidErrorRates {
        /// The false-positive rate given.
        alpha: f64,
        /// The false-negative rate given.
        beta: f64,
    },
    /// An Elo model name that is neither `logistic` nor `normalized`.
    #[error("unknown Elo model {text:?}: expected \"logistic\" or \"normalized\"")]
    UnknownEloModel {
        /// The text given, cut to its first 40 characters (the rest of a long word shows nothing new).
        text: String,
    },
    /// A rating list asked of no games.
    #[error("no games to rate")]
    NoGames,
    /// A game or an anchor names a player index outside `0..players`.
    #[error("player {player} does not exist: there are {players} players")]
    UnknownPlayer {
        /// The index given.
        player: usize,
        /// The number of players.
        players: usize,
    },
    /// A game of a player against itself.
    #[error("player {player} plays itself")]
    SelfPlay {
        /// The player's index.
        player: usize,
    },
    /// Players that never met the first player's group, directly or through common opponents: their ratings
    /// cannot be compared with the others'.
    #[error("players {players:?} never met player 0 or anyone who met them: their ratings cannot be compared")]
    Disconnected {
        /// The players outside player 0's group, ascending.
        players: Vec<usize>,
    },
    /// The maximum-likelihood iterations did not converge (not expected once the data pass the existence check).
    #[error("the rating fit did not converge in {iterations} Newton iterations")]
    NotConverged {
        /// Iterations run.
        iterations: usize,
    },
}

impl StatsError {
    /// The SPRT parameter an error of [`SprtSpec::new`](super::SprtSpec::new) is about (`elo0`, `elo1`,
    /// `alpha`, `beta`), so that a command can name its own flag; `None` for other errors.
    pub fn parameter(&self) -> Option<&'static str> {
        match self {
            Self::InvalidElo { name, .. }
            | Self::EloOutOfRange { name, .. }
            | Self::InvalidProbability { name, .. } => Some(name),
            Self::InvalidHypotheses { .. } => Some("elo1"),
            Self::InvalidErrorRates { .. } => Some("beta"),
            _ => None,
        }
    }
}

/// A number as a message shows it: in full up to 1e15, in scientific notation beyond (`1e300`, not three
/// hundred digits).
fn shown_number(value: f64) -> String {
    if value.is_finite() && value.abs() >= 1e15 { format!("{value:e}") } else { value.to_string() }
}
