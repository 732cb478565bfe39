//! Elo scales and Elo estimates from match counts.
//!
//! Logistic Elo maps an expected score `s` to `-400 log10(1/s - 1)`. Normalized
//! Elo (nElo) is the t-value `(s - 0.5) / sigma` of the per-game score times
//! `800 / ln 10`, so that it coincides with logistic Elo for small differences
//! when there are no draws. Source: fishtest `stat_util.py`, `LLRcalc.py`,
//! `tests_stats.mak`; chessprogramming wiki, "Match Statistics".

use std::fmt;
use std::str::FromStr;

use statrs::function::erf::{erf, erfc};

use super::error::StatsError;
use super::mle::{Pdf, REGULARIZATION};
use super::pentanomial::{Counts, Wdl};

/// nElo per unit of per-game t-value: `800 / ln 10` = 347.435…
/// (fishtest `LLRcalc.nelo_divided_by_nt`).
pub const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// The 97.5% quantile of the standard normal law, for two-sided 95% intervals
/// (scipy `norm.ppf(0.975)`).
pub const Z_975: f64 = 1.959963984540054;

/// The Elo scale in which SPRT hypotheses `elo0`/`elo1` are given.
///
/// The default is [`EloModel::Normalized`], fishtest's choice for new tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum EloModel {
    /// Logistic Elo: a hypothesis fixes the expected score `1 / (1 + 10^(-elo/400))`
    /// (fishtest `LLR_logistic`).
    Logistic,
    /// Normalized Elo: a hypothesis fixes the t-value `nelo / (800 / ln 10)` of the
    /// per-game score (fishtest `LLR_normalized`).
    #[default]
    Normalized,
    /// cutechess-cli's trinomial SPRT: hypotheses in logistic Elo, read through the
    /// BayesElo model with the draw-elo estimated from the counts and a Jeffreys
    /// prior of half a game per class ([`bayeselo_llr`](super::bayeselo_llr)).
    /// Pentanomial counts are reduced to their games.
    BayesElo,
}

impl EloModel {
    /// Returns the lower-case name used on the command line and in fishtest:
    /// `logistic`, `normalized` or `bayeselo`.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Logistic => "logistic",
            Self::Normalized => "normalized",
            Self::BayesElo => "bayeselo",
        }
    }
}

impl fmt::Display for EloModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for EloModel {
    type Err = StatsError;

    /// Parses `logistic`, `normalized` or `bayeselo` (ASCII case-insensitive).
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        if text.eq_ignore_ascii_case("logistic") {
            Ok(Self::Logistic)
        } else if text.eq_ignore_ascii_case("normalized") {
            Ok(Self::Normalized)
        } else if text.eq_ignore_ascii_case("bayeselo") {
            Ok(Self::BayesElo)
        } else {
            Err(StatsError::UnknownEloModel { text: text.chars().take(40).collect() })
        }
    }
}

/// Returns the logistic Elo difference that gives the expected score `score`:
/// `-400 log10(1/score - 1)`.
///
/// `score` is a fraction of the points in `[0, 1]`. A score of 0 or below gives
/// negative infinity, 1 or above positive infinity; only a NaN score gives NaN.
/// Source: chessprogramming wiki, "Match Statistics".
///
/// # Examples
/// ```
/// use arbiter::stats::elo_from_score;
/// assert_eq!(elo_from_score(0.5), 0.0);
/// assert!((elo_from_score(0.75) - 190.848).abs() < 1e-3);
/// assert_eq!(elo_from_score(1.0), f64::INFINITY);
/// ```
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// Returns the expected score in `[0, 1]` of a logistic Elo difference `elo`:
/// `1 / (1 + 10^(-elo/400))` (fishtest `LLRcalc.L_`).
///
/// # Examples
/// ```
/// use arbiter::stats::score_from_elo;
/// assert_eq!(score_from_elo(0.0), 0.5);
/// assert!((score_from_elo(-190.848) - 0.25).abs() < 1e-6);
/// ```
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Logistic Elo of a score clamped to `[0.001, 0.999]`, so that it stays finite
/// (fishtest `stat_util.elo`).
fn clamped_elo(score: f64) -> f64 {
    elo_from_score(score.clamp(REGULARIZATION, 1.0 - REGULARIZATION))
}

/// Returns the standard normal cumulative distribution function at `x`.
pub(crate) fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// Returns the likelihood of superiority of the tested engine: the probability,
/// in `[0, 1]`, that it is the stronger one, from wins and losses only
/// (draws carry no information here): `(1 + erf((W - L) / sqrt(2 (W + L)))) / 2`.
///
/// Returns 0.5 when there are no decisive games. This is the quick formula of the
/// chessprogramming wiki ("Match Statistics"); [`EloEstimate::los`] is fishtest's
/// normal approximation over the whole score distribution and differs slightly.
///
/// # Examples
/// ```
/// use arbiter::stats::{los, Wdl};
/// assert_eq!(los(&Wdl::new(3, 10, 3)), 0.5);
/// assert!(los(&Wdl::new(30, 10, 10)) > 0.99);
/// ```
pub fn los(wdl: &Wdl) -> f64 {
    let decisive = wdl.wins + wdl.losses;
    if decisive == 0 {
        return 0.5;
    }
    let diff = wdl.wins as f64 - wdl.losses as f64;
    0.5 * (1.0 + erf(diff / (2.0 * decisive as f64).sqrt()))
}

/// An Elo estimate with its 95% confidence interval, as fishtest reports it for a
/// finished or fixed-length test.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EloEstimate {
    /// Mean score per game in `[0, 1]` (empty bins regularized to 0.001).
    pub score: f64,
    /// Logistic Elo of the mean score, clamped to the score range `[0.001, 0.999]`
    /// (so within ±1199.8 Elo).
    pub elo: f64,
    /// Half-width of the 95% interval of `elo`, in Elo: half the Elo distance
    /// between the ends of the score interval `score ± 1.96 se`.
    pub elo95: f64,
    /// Likelihood of superiority in `[0, 1]`: `Phi((score - 0.5) / se)`.
    pub los: f64,
    /// Normalized Elo (nElo): the per-game t-value `(score - 0.5) / sigma` times
    /// `800 / ln 10`, with sigma the pair standard deviation divided by √2 for
    /// pentanomial counts.
    pub nelo: f64,
    /// Lower end of the 95% interval of `nelo`, in nElo.
    pub nelo_lo: f64,
    /// Upper end of the 95% interval of `nelo`, in nElo.
    pub nelo_hi: f64,
    /// Fraction of games drawn, in `[0, 1]`, from the raw (unregularized) counts.
    pub draw_ratio: f64,
}

/// Returns the Elo estimate, its 95% interval, the LOS and the normalized Elo of
/// game counts ([`Wdl`]) or game-pair counts ([`Pentanomial`](super::Pentanomial)).
///
/// Empty bins count as 0.001 (fishtest regularization). The score's standard
/// error `se` comes from the variance of the per-game score (trinomial) or of the
/// per-pair score (pentanomial, the right model for paired openings). The nElo
/// interval uses the variance of the t-value estimator, `1 - t skew + t² (kurt + 2) / 4`
/// per sample.
///
/// # Errors
/// [`StatsError::TooFewGames`] under 2 games, [`StatsError::TooFewPairs`] under
/// 2 pairs.
///
/// Source: fishtest `stat_util.get_elo` (Elo, interval, LOS) and
/// `tests_stats.mak` (nElo and its interval).
///
/// # Examples
/// ```
/// use arbiter::stats::{elo_estimate, Wdl};
/// let estimate = elo_estimate(&Wdl::new(5, 4, 3)).unwrap();
/// assert!((estimate.elo - 58.4512).abs() < 1e-4);
/// assert!((estimate.nelo - 72.4453).abs() < 1e-4);
/// ```
pub fn elo_estimate<C: Counts>(counts: &C) -> Result<EloEstimate, StatsError> {
    counts.check_enough()?;
    let (samples, pdf) = Pdf::from_counts(&counts.frequencies());
    let moments = pdf.moments();
    let score = moments.mean;
    let standard_error = (moments.variance / samples).sqrt();

    let elo = clamped_elo(score);
    let elo95 = (clamped_elo(score + Z_975 * standard_error) - clamped_elo(score - Z_975 * standard_error)) / 2.0;
    let los = normal_cdf((score - 0.5) / standard_error);

    let t = (score - 0.5) / moments.variance.sqrt();
    let t_variance = (1.0 - t * moments.skewness + 0.25 * t * t * (moments.excess_kurtosis + 2.0)).max(0.0);
    let t_half_width = Z_975 * (t_variance / samples).sqrt();
    let nelo_per_t = if counts.is_pentanomial() { NELO_PER_T / std::f64::consts::SQRT_2 } else { NELO_PER_T };

    let wdl = counts.wdl();
    Ok(EloEstimate {
        score,
        elo,
        elo95,
        los,
        nelo: t * nelo_per_t,
        nelo_lo: (t - t_half_width) * nelo_per_t,
        nelo_hi: (t + t_half_width) * nelo_per_t,
        draw_ratio: wdl.draws as f64 / wdl.games() as f64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::Pentanomial;

    #[test]
    fn elo_and_score_are_inverse() {
        for elo in [-800.0, -100.0, -1.5, 0.0, 3.0, 250.0, 700.0] {
            assert!((elo_from_score(score_from_elo(elo)) - elo).abs() < 1e-9);
        }
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
        assert_eq!(elo_from_score(-0.5), f64::NEG_INFINITY);
        assert_eq!(elo_from_score(2.0), f64::INFINITY);
    }

    #[test]
    fn model_names_round_trip() {
        for model in [EloModel::Logistic, EloModel::Normalized, EloModel::BayesElo] {
            assert_eq!(model.name().parse::<EloModel>(), Ok(model));
        }
        assert_eq!("Normalized".parse::<EloModel>(), Ok(EloModel::Normalized));
        assert_eq!("BayesElo".parse::<EloModel>(), Ok(EloModel::BayesElo));
        assert!(matches!("bayes".parse::<EloModel>(), Err(StatsError::UnknownEloModel { .. })));
    }

    #[test]
    fn even_match_is_zero_elo() {
        let estimate = elo_estimate(&Wdl::new(10, 20, 10)).unwrap();
        assert!(estimate.elo.abs() < 1e-9);
        assert!((estimate.los - 0.5).abs() < 1e-9);
        assert_eq!(estimate.draw_ratio, 0.5);
        assert!((estimate.nelo_lo + estimate.nelo_hi).abs() < 1e-9);
    }

    #[test]
    fn too_few_samples_are_errors() {
        assert_eq!(elo_estimate(&Wdl::new(1, 0, 0)), Err(StatsError::TooFewGames { games: 1, min: 2 }));
        assert_eq!(elo_estimate(&Pentanomial::default()), Err(StatsError::TooFewPairs { pairs: 0, min: 2 }));
    }

    #[test]
    fn extreme_results_stay_finite() {
        for wdl in [Wdl::new(1000, 0, 0), Wdl::new(0, 0, 1000), Wdl::new(0, 1000, 0)] {
            let e = elo_estimate(&wdl).unwrap();
            for x in [e.elo, e.elo95, e.los, e.nelo, e.nelo_lo, e.nelo_hi] {
                assert!(x.is_finite(), "{wdl:?}: {e:?}");
            }
        }
        let penta = Pentanomial { ww: 50, ..Pentanomial::default() };
        let e = elo_estimate(&penta).unwrap();
        assert!((e.elo - 1199.826195290393).abs() < 1e-9);
        assert!(e.nelo.is_finite());
    }

    #[test]
    fn quick_los_is_symmetric() {
        let a = los(&Wdl::new(12, 5, 8));
        let b = los(&Wdl::new(8, 5, 12));
        assert!((a + b - 1.0).abs() < 1e-12);
        assert_eq!(los(&Wdl::default()), 0.5);
    }
}
