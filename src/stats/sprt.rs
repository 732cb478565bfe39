//! The sequential probability ratio test (SPRT) as fishtest runs it: a generalized
//! SPRT whose log-likelihood ratio compares the maximum-likelihood score
//! distributions under H0 (`elo0`) and H1 (`elo1`).
//!
//! Source: fishtest `LLRcalc.py` (`LLR_logistic`, `LLR_normalized`) and
//! `stat_util.py` (`SPRT`, `update_SPRT`, without the overshoot correction);
//! Michel Van den Bergh, "A practical introduction to the GSPRT" and
//! "Normalized Elo" (fishtest support notes).

use super::elo::{EloModel, NELO_PER_T, score_from_elo};
use super::error::StatsError;
use super::mle::{Pdf, mle_expected, mle_t_value};
use super::pentanomial::Counts;

/// Returns the SPRT stopping bounds `(lower, upper)` =
/// `(ln(beta / (1 - alpha)), ln((1 - beta) / alpha))`, in natural-log LLR units.
///
/// `alpha` is the false-positive rate (accepting H1 when `elo0` holds), `beta` the
/// false-negative rate (accepting H0 when `elo1` holds). Source: Wald (1945);
/// fishtest `stat_util.SPRT`.
///
/// # Panics
/// If `alpha` or `beta` is not strictly between 0 and 1. [`SprtSpec::new`]
/// checks these for input from users.
///
/// # Examples
/// ```
/// use arbiter::stats::sprt_bounds;
/// let (lower, upper) = sprt_bounds(0.05, 0.05);
/// assert!((upper - 2.9444389791664403).abs() < 1e-15);
/// assert_eq!(lower, -upper);
/// ```
pub fn sprt_bounds(alpha: f64, beta: f64) -> (f64, f64) {
    assert!(
        is_probability(alpha) && is_probability(beta),
        "sprt_bounds: alpha ({alpha}) and beta ({beta}) must lie strictly between 0 and 1"
    );
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}

/// The largest `|elo0|` and `|elo1|` an SPRT accepts, in the units of its model (nElo or logistic Elo). Far
/// beyond any engine test, and wide enough for the extreme case fishtest and fastchess fail on (nElo
/// [-1500, -500], `../shared/NOTES.md`); a logistic hypothesis of 2000 Elo is the score 0.99999, still apart
/// from 1 in `f64`.
pub const MAX_SPRT_ELO: f64 = 2000.0;

/// Whether `p` lies in the open interval (0, 1).
fn is_probability(p: f64) -> bool {
    p > 0.0 && p < 1.0
}

/// Returns the log-likelihood ratio of H1 (`elo1`) against H0 (`elo0`) for game
/// counts ([`Wdl`](super::Wdl)) or game-pair counts
/// ([`Pentanomial`](super::Pentanomial)), under the Elo model `model`.
///
/// `elo0`/`elo1` are in logistic Elo for [`EloModel::Logistic`] and
/// [`EloModel::BayesElo`] (cutechess-cli's SPRT, defined for every count) and in nElo
/// for [`EloModel::Normalized`]. The result is in natural-log units, to be compared
/// with the bounds of [`sprt_bounds`]; it is positive when the data favour H1.
///
/// Method: empty bins count as 0.001; for each hypothesis the score
/// distribution of maximum likelihood is found whose expected score is
/// `1 / (1 + 10^(-elo/400))` (logistic) or whose t-value `(mu - 0.5) / sigma` is
/// `nelo / (800 / ln 10)`, times √2 for pairs (normalized); the LLR is the sample
/// count times `sum_i p_i ln(p1_i / p0_i)`. The root finders stop after a fixed
/// number of steps, so this never hangs.
///
/// # Errors
/// [`StatsError::InvalidElo`] for a non-finite `elo0`/`elo1`, and
/// [`StatsError::NoSolution`] when no distribution fits a hypothesis (fishtest
/// fails there too, e.g. nElo [-1500, -500] against 1 win, 3 draws, 292 losses).
/// The result is never NaN; it may be infinite.
///
/// Source: fishtest `LLRcalc.LLR_logistic` and `LLRcalc.LLR_normalized`.
///
/// # Examples
/// ```
/// use arbiter::stats::{llr, EloModel, Pentanomial};
/// let penta = Pentanomial { ll: 64, ld: 2119, wl: 1903, dd: 15034, wd: 2226, ww: 54 };
/// let value = llr(&penta, 0.0, 2.0, EloModel::Normalized).unwrap();
/// assert!((value - 0.7835794665255769).abs() < 1e-9);
/// ```
pub fn llr<C: Counts>(counts: &C, elo0: f64, elo1: f64, model: EloModel) -> Result<f64, StatsError> {
    check_elo("elo0", elo0)?;
    check_elo("elo1", elo1)?;
    if model == EloModel::BayesElo {
        return Ok(super::bayeselo::bayeselo_llr(&counts.wdl(), elo0, elo1));
    }
    // Defined for every count, none and one included: fishtest regularizes the empty bins (1e-3) and answers
    // at 0 and 1 samples too (LLRcalc.regularize, results_to_pdf).
    let (samples, pdf) = Pdf::from_counts(&counts.frequencies());
    let pair_scale = if counts.is_pentanomial() { std::f64::consts::SQRT_2 } else { 1.0 };
    let fit = |elo: f64| {
        match model {
            EloModel::Logistic => mle_expected(&pdf, score_from_elo(elo)),
            EloModel::Normalized => mle_t_value(&pdf, 0.5, elo / NELO_PER_T * pair_scale),
            EloModel::BayesElo => unreachable!("handled above"),
        }
        .map_err(|reason| StatsError::NoSolution { elo, model, reason })
    };
    let h0 = fit(elo0)?;
    let h1 = fit(elo1)?;
    let per_sample: f64 =
        pdf.probs.iter().zip(h0.probs.iter().zip(&h1.probs)).map(|(p, (p0, p1))| p * (p1.ln() - p0.ln())).sum();
    let llr = samples * per_sample;
    if llr.is_nan() {
        return Err(StatsError::NoSolution { elo: elo1, model, reason: "the log-likelihood ratio is undefined" });
    }
    Ok(llr)
}

/// Returns an error unless `value` is finite.
fn check_elo(name: &'static str, value: f64) -> Result<(), StatsError> {
    if value.is_finite() { Ok(()) } else { Err(StatsError::InvalidElo { name, value }) }
}

/// What an SPRT concludes after the current counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SprtDecision {
    /// The LLR lies within the bounds: play on.
    Continue,
    /// The LLR fell below the lower bound: accept H0 (`elo0`); the test fails.
    AcceptH0,
    /// The LLR rose above the upper bound: accept H1 (`elo1`); the test passes.
    AcceptH1,
}

impl SprtDecision {
    /// The decision as one word, for machine-readable output: `accept_h1`, `accept_h0` or `continue`.
    pub const fn word(self) -> &'static str {
        match self {
            Self::AcceptH1 => "accept_h1",
            Self::AcceptH0 => "accept_h0",
            Self::Continue => "continue",
        }
    }
}

/// Compares a log-likelihood ratio with the SPRT bounds: below `lower` accepts
/// H0, above `upper` accepts H1, otherwise the test continues (fishtest
/// `update_SPRT`, without the overshoot correction).
///
/// # Examples
/// ```
/// use arbiter::stats::{sprt_decision, SprtDecision};
/// assert_eq!(sprt_decision(3.0, -2.94, 2.94), SprtDecision::AcceptH1);
/// assert_eq!(sprt_decision(0.0, -2.94, 2.94), SprtDecision::Continue);
/// ```
pub fn sprt_decision(llr: f64, lower: f64, upper: f64) -> SprtDecision {
    if llr < lower {
        SprtDecision::AcceptH0
    } else if llr > upper {
        SprtDecision::AcceptH1
    } else {
        SprtDecision::Continue
    }
}

/// The parameters of one SPRT: hypotheses `elo0` (H0) and `elo1` (H1) in the
/// units of `model`, and the error rates `alpha` and `beta`.
///
/// Built with [`SprtSpec::new`], which checks every field, or with the fishtest
/// presets [`SprtSpec::stc`] and [`SprtSpec::ltc`]. The default is the STC preset.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SprtSpec {
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
    model: EloModel,
}

/// An SPRT's state after some counts: the LLR, the bounds and the decision.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SprtOutcome {
    /// The log-likelihood ratio of H1 against H0, in natural-log units.
    pub llr: f64,
    /// The lower bound `ln(beta / (1 - alpha))`.
    pub lower: f64,
    /// The upper bound `ln((1 - beta) / alpha)`.
    pub upper: f64,
    /// What the test concludes.
    pub decision: SprtDecision,
    /// Whether `llr` is fishtest's closed-form approximation (`LLR_normalized_alt`, `LLR_alt2`), used where the
    /// exact maximum-likelihood fit has no numerical solution (hypotheses far from the data), so that a match
    /// can always decide.
    pub approximate: bool,
}

impl SprtSpec {
    /// Builds an SPRT specification from hypotheses in the units of `model` and error rates, checking every
    /// field. This is the one check of SPRT parameters: `arbiter match --sprt`, `arbiter sprt`, `arbiter sprt
    /// simulate` and `tune --validate` all build their SPRT here, so they accept the same ranges.
    ///
    /// The ranges: `elo0` and `elo1` finite, within ±[`MAX_SPRT_ELO`], and `elo0 < elo1`; `alpha` and `beta`
    /// strictly between 0 and 1 with `alpha + beta < 1` (so that the lower bound `ln(beta / (1 - alpha))` is
    /// below 0 and the upper bound `ln((1 - beta) / alpha)` above it: otherwise the test decides before any
    /// game).
    ///
    /// # Errors
    /// [`StatsError::InvalidElo`] when `elo0` or `elo1` is not finite, [`StatsError::EloOutOfRange`] beyond
    /// ±[`MAX_SPRT_ELO`],
    /// [`StatsError::InvalidHypotheses`] unless `elo0 < elo1`, [`StatsError::InvalidProbability`] when `alpha` or
    /// `beta` is not strictly between 0 and 1, [`StatsError::InvalidErrorRates`] when `alpha + beta >= 1`.
    ///
    /// # Examples
    /// ```
    /// use arbiter::stats::{EloModel, SprtSpec, StatsError};
    /// assert!(SprtSpec::new(0.0, 2.0, 0.05, 0.05, EloModel::Normalized).is_ok());
    /// let error = SprtSpec::new(2.0, 0.0, 0.05, 0.05, EloModel::Normalized).unwrap_err();
    /// assert_eq!(error.to_string(), "elo1 (0) must be greater than elo0 (2)");
    /// ```
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64, model: EloModel) -> Result<Self, StatsError> {
        for (name, value) in [("elo0", elo0), ("elo1", elo1)] {
            Self::check_hypothesis(name, value)?;
        }
        if elo0 >= elo1 {
            return Err(StatsError::InvalidHypotheses { elo0, elo1 });
        }
        for (name, value) in [("alpha", alpha), ("beta", beta)] {
            Self::check_error_rate(name, value)?;
        }
        if alpha + beta >= 1.0 {
            return Err(StatsError::InvalidErrorRates { alpha, beta });
        }
        Ok(Self { elo0, elo1, alpha, beta, model })
    }

    /// Checks one hypothesis (`elo0` or `elo1`) on its own, as [`SprtSpec::new`] does: finite and within
    /// ±[`MAX_SPRT_ELO`]. The command-line parsers of `arbiter sprt` and `sprt simulate` call it, so that every
    /// command refuses the same values with the same reason as `match --sprt`.
    ///
    /// # Errors
    /// [`StatsError::InvalidElo`] for NaN or an infinity, [`StatsError::EloOutOfRange`] beyond the range.
    pub fn check_hypothesis(name: &'static str, value: f64) -> Result<f64, StatsError> {
        check_elo(name, value)?;
        if value.abs() > MAX_SPRT_ELO {
            return Err(StatsError::EloOutOfRange { name, value, max: MAX_SPRT_ELO });
        }
        Ok(value)
    }

    /// Checks one error rate (`alpha` or `beta`) on its own, as [`SprtSpec::new`] does: strictly between 0 and
    /// 1 (NaN refused).
    ///
    /// # Errors
    /// [`StatsError::InvalidProbability`].
    pub fn check_error_rate(name: &'static str, value: f64) -> Result<f64, StatsError> {
        if !is_probability(value) {
            return Err(StatsError::InvalidProbability { name, value });
        }
        Ok(value)
    }

    /// fishtest's short-time-control bounds: nElo [0, 2], alpha = beta = 0.05.
    pub const fn stc() -> Self {
        Self { elo0: 0.0, elo1: 2.0, alpha: 0.05, beta: 0.05, model: EloModel::Normalized }
    }

    /// fishtest's long-time-control bounds: nElo [0.5, 2.5], alpha = beta = 0.05.
    pub const fn ltc() -> Self {
        Self { elo0: 0.5, elo1: 2.5, alpha: 0.05, beta: 0.05, model: EloModel::Normalized }
    }

    /// The H0 hypothesis, in the units of [`Self::model`].
    #[inline]
    pub const fn elo0(&self) -> f64 {
        self.elo0
    }

    /// The H1 hypothesis, in the units of [`Self::model`].
    #[inline]
    pub const fn elo1(&self) -> f64 {
        self.elo1
    }

    /// The false-positive rate: the chance of accepting H1 when H0 holds.
    #[inline]
    pub const fn alpha(&self) -> f64 {
        self.alpha
    }

    /// The false-negative rate: the chance of accepting H0 when H1 holds.
    #[inline]
    pub const fn beta(&self) -> f64 {
        self.beta
    }

    /// The Elo scale of `elo0` and `elo1`.
    #[inline]
    pub const fn model(&self) -> EloModel {
        self.model
    }

    /// Returns the stopping bounds `(lower, upper)` in natural-log LLR units
    /// (see [`sprt_bounds`]).
    pub fn bounds(&self) -> (f64, f64) {
        sprt_bounds(self.alpha, self.beta)
    }

    /// Returns the log-likelihood ratio of H1 against H0 for `counts` (see [`llr`]).
    ///
    /// # Errors
    /// As [`llr`].
    pub fn llr<C: Counts>(&self, counts: &C) -> Result<f64, StatsError> {
        llr(counts, self.elo0, self.elo1, self.model)
    }

    /// Returns what the test concludes at log-likelihood ratio `llr`.
    pub fn decide(&self, llr: f64) -> SprtDecision {
        let (lower, upper) = self.bounds();
        sprt_decision(llr, lower, upper)
    }

    /// Returns the LLR, the bounds and the decision for `counts`: the one SPRT evaluation that a match, its
    /// summary, `arbiter sprt` and `arbiter merge` all use, so that they give the same LLR on the same counts.
    ///
    /// The LLR is the exact one of [`llr`] where the maximum-likelihood fit has a solution. Where it has none
    /// (hypotheses far from the data, such as nElo [-1500, -500] against pairs [144, 3, 1, 0, 0], where
    /// fishtest and fastchess fail), it is fishtest's closed-form approximation (`LLR_normalized_alt`,
    /// `LLR_alt2`), marked [`SprtOutcome::approximate`]; see docs/statistics.md for why this is sound.
    ///
    /// # Errors
    /// As [`llr`] less [`StatsError::NoSolution`]. Under 2 samples the LLR is given (fishtest's regularized
    /// value) and the decision is [`SprtDecision::Continue`] for every model. A runner may treat an error as
    /// [`SprtDecision::Continue`].
    ///
    /// # Examples
    /// ```
    /// use arbiter::stats::{SprtDecision, SprtSpec, Wdl};
    /// let outcome = SprtSpec::stc().evaluate(&Wdl::new(36433, 68692, 36027)).unwrap();
    /// assert_eq!(outcome.decision, SprtDecision::Continue);
    /// assert!((outcome.llr - 0.9232934509457336).abs() < 1e-6);
    /// ```
    pub fn evaluate<C: Counts>(&self, counts: &C) -> Result<SprtOutcome, StatsError> {
        let (llr, approximate) = match self.llr(counts) {
            Ok(llr) => (llr, false),
            Err(StatsError::NoSolution { .. }) => (approximate_llr(counts, self.elo0, self.elo1, self.model), true),
            Err(error) => return Err(error),
        };
        let (lower, upper) = self.bounds();
        // The LLR is given at every count, as fishtest gives it (its regularized value at 0 and 1 samples), but a
        // decision needs 2 samples: cutechess's BayesElo LLR could otherwise pass a test on a single pair.
        let decision =
            if counts.check_enough().is_ok() { sprt_decision(llr, lower, upper) } else { SprtDecision::Continue };
        Ok(SprtOutcome { llr, lower, upper, decision, approximate })
    }
}

/// fishtest's closed-form LLR approximations, defined for every count with a spread (the regularized
/// distribution always has one): `LLR_normalized_alt` (Van den Bergh, "Normalized Elo", section 4.2) for the
/// normalized model, `LLR_alt2` ("GSPRT approximation") for the logistic one, in natural-log units.
fn approximate_llr<C: Counts>(counts: &C, elo0: f64, elo1: f64, model: EloModel) -> f64 {
    let (n, pdf) = Pdf::from_counts(&counts.frequencies());
    let (mu, var) = pdf.mean_variance();
    match model {
        EloModel::Normalized => {
            let (sigma_pg, games) =
                if counts.is_pentanomial() { ((2.0 * var).sqrt(), 2.0 * n) } else { (var.sqrt(), n) };
            let (nt0, nt1) = (elo0 / NELO_PER_T, elo1 / NELO_PER_T);
            let nt = (mu - 0.5) / sigma_pg;
            games / 2.0 * ((1.0 + (nt - nt0).powi(2)) / (1.0 + (nt - nt1).powi(2))).ln()
        }
        EloModel::Logistic | EloModel::BayesElo => {
            let (s0, s1) = (score_from_elo(elo0), score_from_elo(elo1));
            n * (s1 - s0) * (2.0 * mu - s0 - s1) / var / 2.0
        }
    }
}

impl Default for SprtSpec {
    fn default() -> Self {
        Self::stc()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::{Pentanomial, Wdl};

    #[test]
    fn bounds_follow_wald() {
        let (lower, upper) = sprt_bounds(0.1, 0.05);
        assert!((lower - -2.8903717578961645).abs() < 1e-15);
        assert!((upper - 2.251291798606495).abs() < 1e-15);
    }

    #[test]
    #[should_panic(expected = "strictly between 0 and 1")]
    fn bounds_reject_alpha_zero() {
        let _ = sprt_bounds(0.0, 0.05);
    }

    #[test]
    fn spec_new_checks_its_fields() {
        assert!(SprtSpec::new(0.0, 2.0, 0.05, 0.05, EloModel::Normalized).is_ok());
        assert_eq!(
            SprtSpec::new(0.0, 2.0, 1.0, 0.05, EloModel::Normalized),
            Err(StatsError::InvalidProbability { name: "alpha", value: 1.0 })
        );
        assert!(matches!(
            SprtSpec::new(f64::NAN, 2.0, 0.05, 0.05, EloModel::Logistic),
            Err(StatsError::InvalidElo { name: "elo0", .. })
        ));
        assert_eq!(SprtSpec::default(), SprtSpec::stc());
    }

    #[test]
    fn llr_of_equal_hypotheses_is_zero() {
        let wdl = Wdl::new(120, 200, 100);
        for model in [EloModel::Logistic, EloModel::Normalized] {
            assert!(llr(&wdl, 1.0, 1.0, model).unwrap().abs() < 1e-12);
        }
    }

    #[test]
    fn llr_swaps_sign_with_the_hypotheses() {
        let penta = Pentanomial { ll: 30, ld: 200, wl: 150, dd: 400, wd: 230, ww: 25 };
        for model in [EloModel::Logistic, EloModel::Normalized] {
            let forward = llr(&penta, 0.0, 5.0, model).unwrap();
            let backward = llr(&penta, 5.0, 0.0, model).unwrap();
            assert!((forward + backward).abs() < 1e-9, "{model}");
        }
    }

    #[test]
    fn hopeless_hypotheses_are_errors_not_nan() {
        // Reference row T31: fishtest raises ValueError.
        let wdl = Wdl::new(1, 3, 292);
        assert!(matches!(llr(&wdl, -1500.0, -500.0, EloModel::Normalized), Err(StatsError::NoSolution { .. })));
        // 144 LL, 3 LD, 1 WL pairs against nElo [-1500, -500].
        let penta = Pentanomial { ll: 144, ld: 3, wl: 1, ..Pentanomial::default() };
        match llr(&penta, -1500.0, -500.0, EloModel::Normalized) {
            Ok(value) => assert!(!value.is_nan()),
            Err(error) => assert!(matches!(error, StatsError::NoSolution { .. })),
        }
    }

    #[test]
    fn all_wins_and_all_losses_give_numbers_or_errors() {
        let cases = [Wdl::new(500, 0, 0), Wdl::new(0, 0, 500), Wdl::new(0, 500, 0)];
        for wdl in cases {
            for model in [EloModel::Logistic, EloModel::Normalized] {
                if let Ok(value) = llr(&wdl, 0.0, 5.0, model) {
                    assert!(!value.is_nan(), "{wdl:?} {model}");
                }
            }
        }
        let wins = llr(&Wdl::new(500, 0, 0), 0.0, 5.0, EloModel::Logistic).unwrap();
        assert!(wins > 0.0);
        let losses = llr(&Wdl::new(0, 0, 500), 0.0, 5.0, EloModel::Logistic).unwrap();
        assert!(losses < 0.0);
    }

    /// At 0 and 1 samples the LLR is fishtest's regularized value: the numbers are those of fishtest's
    /// `LLRcalc.LLR_normalized` / `LLR_logistic` (official-stockfish/fishtest, commit b8eecff, the commit of
    /// `../shared/reference/sprt_reference.csv`), run on the same counts.
    #[test]
    fn zero_and_one_sample_llrs_are_fishtests() {
        let penta =
            |bins: [u64; 5]| Pentanomial { ll: bins[0], ld: bins[1], wl: bins[2], dd: 0, wd: bins[3], ww: bins[4] };
        let cases: [(Result<f64, StatsError>, f64); 12] = [
            (llr(&penta([0, 0, 0, 0, 0]), 0.0, 2.0, EloModel::Normalized), -1.656807473997572e-07),
            (llr(&penta([0, 0, 1, 0, 0]), 0.0, 2.0, EloModel::Normalized), -3.34559000477605e-05),
            (llr(&penta([0, 0, 0, 0, 1]), 0.0, 2.0, EloModel::Normalized), 0.00811156447337613),
            (llr(&penta([1, 0, 0, 0, 0]), 0.0, 2.0, EloModel::Normalized), -0.008178043453493206),
            (llr(&penta([0, 0, 0, 0, 0]), 0.0, 5.0, EloModel::Logistic), -1.0354483502281707e-06),
            (llr(&penta([0, 0, 0, 0, 1]), 0.0, 5.0, EloModel::Logistic), 0.014315849412829656),
            (llr(&penta([0, 1, 0, 0, 0]), 0.0, 5.0, EloModel::Logistic), -0.014509627732470153),
            (llr(&Wdl::new(0, 0, 0), 0.0, 2.0, EloModel::Normalized), -4.9704677143048036e-08),
            (llr(&Wdl::new(1, 0, 0), 0.0, 2.0, EloModel::Normalized), 0.005736949113742105),
            (llr(&Wdl::new(0, 0, 0), 0.0, 5.0, EloModel::Logistic), -4.659589953688289e-07),
            (llr(&Wdl::new(0, 1, 0), 0.0, 5.0, EloModel::Logistic), -0.01150010629610193),
            (llr(&Wdl::new(0, 0, 1), 0.0, 5.0, EloModel::Logistic), -0.014494884709035021),
        ];
        for (i, (ours, fishtest)) in cases.iter().enumerate() {
            let ours = ours.as_ref().unwrap_or_else(|e| panic!("case {i}: {e}"));
            assert!((ours - fishtest).abs() <= 1e-9 * fishtest.abs().max(1e-6), "case {i}: {ours} against {fishtest}");
        }
    }

    #[test]
    fn bad_elo_is_an_error() {
        assert!(matches!(
            llr(&Wdl::new(5, 5, 5), 0.0, f64::INFINITY, EloModel::Logistic),
            Err(StatsError::InvalidElo { name: "elo1", .. })
        ));
        // A logistic hypothesis so large that its score rounds to 1 has no MLE.
        assert!(matches!(llr(&Wdl::new(5, 5, 5), 0.0, 1e6, EloModel::Logistic), Err(StatsError::NoSolution { .. })));
    }

    #[test]
    fn decisions_follow_the_bounds() {
        let spec = SprtSpec::stc();
        let (lower, upper) = spec.bounds();
        assert_eq!(spec.decide(lower - 0.01), SprtDecision::AcceptH0);
        assert_eq!(spec.decide(upper + 0.01), SprtDecision::AcceptH1);
        assert_eq!(spec.decide(f64::INFINITY), SprtDecision::AcceptH1);
        assert_eq!(spec.decide(f64::NEG_INFINITY), SprtDecision::AcceptH0);
        assert_eq!(spec.decide(upper), SprtDecision::Continue);
    }

    /// Hypotheses the small-count sweeps try, with their model.
    const SWEEP_BOUNDS: [(f64, f64, EloModel); 6] = [
        (0.0, 2.0, EloModel::Normalized),
        (0.5, 2.5, EloModel::Normalized),
        (-1500.0, -500.0, EloModel::Normalized),
        (0.0, 5.0, EloModel::Logistic),
        (-3.0, 1.0, EloModel::Logistic),
        (-1500.0, -500.0, EloModel::Logistic),
    ];

    fn assert_not_nan(result: Result<f64, StatsError>, what: &str) {
        if let Ok(value) = result {
            assert!(!value.is_nan(), "{what}: NaN");
        }
    }

    #[test]
    fn every_small_wdl_gives_a_number_or_an_error() {
        for wins in 0..=6 {
            for draws in 0..=6 {
                for losses in 0..=6 {
                    let wdl = Wdl::new(wins, draws, losses);
                    for (elo0, elo1, model) in SWEEP_BOUNDS {
                        assert_not_nan(llr(&wdl, elo0, elo1, model), &format!("{wdl:?} {model}"));
                    }
                }
            }
        }
    }

    #[test]
    fn every_small_pentanomial_gives_a_number_or_an_error() {
        let mut counts = [0u64; 6];
        loop {
            let [ll, ld, wl, dd, wd, ww] = counts;
            let penta = Pentanomial { ll, ld, wl, dd, wd, ww };
            for (elo0, elo1, model) in SWEEP_BOUNDS {
                assert_not_nan(llr(&penta, elo0, elo1, model), &format!("{penta:?} {model}"));
            }
            // Odometer over 0..=3 in each of the six bins.
            let Some(bin) = counts.iter().position(|&c| c < 3) else {
                break;
            };
            counts[..bin].fill(0);
            counts[bin] += 1;
        }
    }

    proptest::proptest! {
        #[test]
        fn small_wdl_llr_is_never_nan(
            wins in 0u64..=6,
            draws in 0u64..=6,
            losses in 0u64..=6,
            elo0 in -2000.0f64..2000.0,
            width in 0.0f64..1000.0,
            normalized: bool,
        ) {
            let model = if normalized { EloModel::Normalized } else { EloModel::Logistic };
            let result = llr(&Wdl::new(wins, draws, losses), elo0, elo0 + width, model);
            proptest::prop_assert!(!matches!(result, Ok(value) if value.is_nan()));
        }

        #[test]
        fn small_pentanomial_llr_is_never_nan(
            bins in proptest::array::uniform6(0u64..=3),
            elo0 in -2000.0f64..2000.0,
            width in 0.0f64..1000.0,
            normalized: bool,
        ) {
            let [ll, ld, wl, dd, wd, ww] = bins;
            let penta = Pentanomial { ll, ld, wl, dd, wd, ww };
            let model = if normalized { EloModel::Normalized } else { EloModel::Logistic };
            let result = llr(&penta, elo0, elo0 + width, model);
            proptest::prop_assert!(!matches!(result, Ok(value) if value.is_nan()));
        }

        #[test]
        fn large_pentanomial_llr_is_never_nan(
            bins in proptest::array::uniform6(0u64..=10_000_000),
            elo0 in -20.0f64..20.0,
            width in 0.0f64..20.0,
            normalized: bool,
        ) {
            let [ll, ld, wl, dd, wd, ww] = bins;
            let penta = Pentanomial { ll, ld, wl, dd, wd, ww };
            let model = if normalized { EloModel::Normalized } else { EloModel::Logistic };
            let result = llr(&penta, elo0, elo0 + width, model);
            proptest::prop_assert!(!matches!(result, Ok(value) if value.is_nan()));
            if let Ok(estimate) = crate::stats::elo_estimate(&penta) {
                proptest::prop_assert!(!estimate.elo.is_nan() && !estimate.nelo.is_nan());
            }
        }
    }

    /// The NOTES case (../shared/NOTES.md, "Statistics"): pairs [144, 3, 1, 0, 0] against nElo [-1500, -500],
    /// where fishtest and fastchess fail. The exact fit has no solution; `evaluate`, the one function a match,
    /// `arbiter sprt` and `arbiter merge` use, falls back to fishtest's `LLR_normalized_alt` and decides H0
    /// (the data's nElo, about -2244, is nearer -1500 than -500).
    #[test]
    fn extreme_pentanomial_counts_decide_by_the_one_fallback() {
        let penta = Pentanomial { ll: 144, ld: 3, dd: 1, ..Pentanomial::default() };
        let spec = SprtSpec::new(-1500.0, -500.0, 0.05, 0.05, EloModel::Normalized).unwrap();
        assert!(matches!(spec.llr(&penta), Err(StatsError::NoSolution { .. })));
        let outcome = spec.evaluate(&penta).unwrap();
        assert!(outcome.approximate);
        assert_eq!(outcome.llr.to_bits(), approximate_llr(&penta, -1500.0, -500.0, EloModel::Normalized).to_bits());
        // LLR_normalized_alt by hand: 296 games, t = (mu - 1/2) / sqrt(2 var) over the regularized pair scores.
        let counts = [144.0, 3.0, 1.0, 1e-3, 1e-3];
        let n: f64 = counts.iter().sum();
        let mu: f64 = counts.iter().enumerate().map(|(i, c)| c / n * i as f64 / 4.0).sum();
        let var: f64 = counts.iter().enumerate().map(|(i, c)| c / n * (i as f64 / 4.0 - mu).powi(2)).sum();
        let t = (mu - 0.5) / (2.0 * var).sqrt();
        let (t0, t1) = (-1500.0 / NELO_PER_T, -500.0 / NELO_PER_T);
        let by_hand = n * ((1.0 + (t - t0).powi(2)) / (1.0 + (t - t1).powi(2))).ln();
        assert!((outcome.llr - by_hand).abs() < 1e-9 * by_hand.abs(), "{} against {by_hand}", outcome.llr);
        assert_eq!(outcome.decision, SprtDecision::AcceptH0);
        assert!((outcome.llr - -228.670874066065).abs() < 1e-9, "{}", outcome.llr);
    }

    /// No model decides on fewer than 2 samples: cutechess's BayesElo LLR exists for any count, and a
    /// `model=bayeselo` match used to pass on its first pair.
    #[test]
    fn no_model_decides_under_two_samples() {
        let one_pair = Pentanomial { ww: 1, ..Pentanomial::default() };
        for model in [EloModel::Normalized, EloModel::Logistic, EloModel::BayesElo] {
            let spec = SprtSpec::new(-1500.0, -500.0, 0.05, 0.05, model).unwrap();
            for outcome in [spec.evaluate(&one_pair), spec.evaluate(&Wdl::new(1, 0, 0)), spec.evaluate(&Wdl::default())]
            {
                let outcome = outcome.unwrap();
                assert_eq!(outcome.decision, SprtDecision::Continue, "{model}: {outcome:?}");
                assert!(outcome.llr.is_finite(), "{model}: {outcome:?}");
            }
        }
    }

    #[test]
    fn spec_new_is_the_one_check_of_sprt_ranges() {
        let new = |e0, e1, a, b| SprtSpec::new(e0, e1, a, b, EloModel::Logistic);
        assert_eq!(new(5.0, 5.0, 0.05, 0.05), Err(StatsError::InvalidHypotheses { elo0: 5.0, elo1: 5.0 }));
        assert_eq!(
            new(-2001.0, 0.0, 0.05, 0.05),
            Err(StatsError::EloOutOfRange { name: "elo0", value: -2001.0, max: MAX_SPRT_ELO })
        );
        assert_eq!(new(0.0, 5.0, 0.6, 0.4), Err(StatsError::InvalidErrorRates { alpha: 0.6, beta: 0.4 }));
        assert!(new(-2000.0, 2000.0, 0.49, 0.5).is_ok());
        for error in [new(5.0, 5.0, 0.05, 0.05), new(0.0, 5.0, 0.6, 0.4), new(0.0, 5.0, 0.0, 0.05)] {
            assert!(error.unwrap_err().parameter().is_some());
        }
    }

    /// Hypotheses so far from the data that the exact fit fails still give an LLR (fishtest's approximation),
    /// so that no match is left unable to stop: every small count vector decides or continues, never errs.
    #[test]
    fn hopeless_hypotheses_still_decide() {
        let spec = SprtSpec::new(-1500.0, -500.0, 0.05, 0.05, EloModel::Normalized).unwrap();
        let outcome = spec.evaluate(&Wdl::new(1, 3, 292)).unwrap();
        assert!(outcome.approximate && outcome.llr.is_finite(), "{outcome:?}");
        let penta = Pentanomial { ll: 144, ld: 3, wl: 1, ..Pentanomial::default() };
        assert!(spec.evaluate(&penta).unwrap().llr.is_finite());
        for (e0, e1, model) in [
            (-1500.0, -500.0, EloModel::Normalized),
            (-300.0, 0.0, EloModel::Normalized),
            (0.0, 300.0, EloModel::Logistic),
            (-1500.0, -500.0, EloModel::Logistic),
        ] {
            let spec = SprtSpec::new(e0, e1, 0.05, 0.05, model).unwrap();
            for ll in 0..4 {
                for ld in 0..4 {
                    for mid in 0..4 {
                        for wd in 0..4 {
                            for ww in 0..4 {
                                let penta = Pentanomial { ll, ld, wl: 0, dd: mid, wd, ww };
                                match spec.evaluate(&penta) {
                                    Ok(o) => assert!(!o.llr.is_nan(), "{penta:?} {model}: {o:?}"),
                                    Err(e) => assert!(matches!(e, StatsError::TooFewPairs { .. }), "{penta:?}: {e}"),
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
