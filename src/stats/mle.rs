//! Empirical score distributions and their maximum-likelihood neighbours under a
//! constraint on the expected score or on the t-value.
//!
//! Source: fishtest `LLRcalc.py` (`regularize`, `results_to_pdf`, `stats`,
//! `stats_ex`, `secular`, `MLE_expected`, `MLE_t_value`) and the notes it cites,
//! "support_MLE_multinomial.pdf" (Proposition 1.1) and
//! "normalized_elo_practical.pdf" (Section 4.1) by Michel Van den Bergh.

/// The count that replaces an empty bin before any statistic is taken
/// (fishtest `LLRcalc.regularize`).
pub(crate) const REGULARIZATION: f64 = 1e-3;

/// Distance kept from the poles of the secular equation when bracketing its
/// root (fishtest `LLRcalc.secular`).
const SECULAR_MARGIN: f64 = 1e-9;

/// Fixed-point iterations of the t-value MLE (fishtest `LLRcalc.MLE_t_value`).
const T_VALUE_ITERATIONS: usize = 10;

/// Convergence threshold on the largest probability change of the t-value MLE.
const T_VALUE_CONVERGED: f64 = 1e-9;

/// Tolerated error of the expected score of an expectation MLE (fishtest's check).
const EXPECTED_CHECK: f64 = 1e-6;

/// Tolerated error of the t-value of a t-value MLE (fishtest's check).
const T_VALUE_CHECK: f64 = 1e-5;

/// Iteration cap of the Brent root finder (scipy `brentq` default).
const BRENT_MAX_ITERATIONS: usize = 100;

/// Absolute root tolerance of the Brent root finder (scipy `brentq` default).
const BRENT_XTOL: f64 = 2e-12;

/// Relative root tolerance of the Brent root finder (scipy `brentq` default).
const BRENT_RTOL: f64 = 4.0 * f64::EPSILON;

/// A discrete distribution of scores: score values, ascending and evenly spaced
/// over `[0, 1]`, and their probabilities.
#[derive(Debug, Clone)]
pub(crate) struct Pdf {
    /// Score of each bin.
    pub values: Vec<f64>,
    /// Probability of each bin.
    pub probs: Vec<f64>,
}

impl Pdf {
    /// Builds the regularized empirical distribution of `counts` (bins lowest score
    /// first, scores `i / (len - 1)`) and returns it with the regularized total.
    pub fn from_counts(counts: &[u64]) -> (f64, Self) {
        let regularized: Vec<f64> = counts.iter().map(|&c| if c == 0 { REGULARIZATION } else { c as f64 }).collect();
        let total: f64 = regularized.iter().sum();
        let last = (counts.len() - 1) as f64;
        let values = (0..counts.len()).map(|i| i as f64 / last).collect();
        let probs = regularized.iter().map(|c| c / total).collect();
        (total, Self { values, probs })
    }

    /// Returns the mean and the variance.
    pub fn mean_variance(&self) -> (f64, f64) {
        let mean: f64 = self.pairs().map(|(a, p)| p * a).sum();
        let var: f64 = self.pairs().map(|(a, p)| p * (a - mean).powi(2)).sum();
        (mean, var)
    }

    /// Returns the mean, variance, skewness and excess kurtosis
    /// (fishtest `LLRcalc.stats_ex`).
    pub fn moments(&self) -> Moments {
        let (mean, variance) = self.mean_variance();
        let m3: f64 = self.pairs().map(|(a, p)| p * (a - mean).powi(3)).sum();
        let m4: f64 = self.pairs().map(|(a, p)| p * (a - mean).powi(4)).sum();
        Moments { mean, variance, skewness: m3 / variance.powf(1.5), excess_kurtosis: m4 / (variance * variance) - 3.0 }
    }

    fn pairs(&self) -> impl Iterator<Item = (f64, f64)> + '_ {
        self.values.iter().copied().zip(self.probs.iter().copied())
    }

    /// Whether the probabilities are valid and sum to one within `1e-6`
    /// (fishtest `LLRcalc.stats` asserts this).
    fn is_distribution(&self) -> bool {
        let eps = 1e-6;
        let sum: f64 = self.probs.iter().sum();
        self.probs.iter().all(|p| (-eps..=1.0 + eps).contains(p)) && (sum - 1.0).abs() < eps
    }
}

/// First four moments of a distribution.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Moments {
    pub mean: f64,
    pub variance: f64,
    pub skewness: f64,
    pub excess_kurtosis: f64,
}

/// Returns the maximum-likelihood distribution on the scores of `pdfhat` whose
/// expected score is `s`, given the empirical distribution `pdfhat`.
///
/// Source: fishtest `LLRcalc.MLE_expected`. The MLE is `p_i / (1 + x (a_i - s))`
/// where `x` solves the secular equation.
pub(crate) fn mle_expected(pdfhat: &Pdf, s: f64) -> Result<Pdf, &'static str> {
    let shifted: Vec<f64> = pdfhat.values.iter().map(|a| a - s).collect();
    let x = secular(&shifted, &pdfhat.probs)?;
    let mle = tilt(pdfhat, &shifted, x);
    let (mean, _) = mle.mean_variance();
    let on_target = (mean - s).abs() < EXPECTED_CHECK;
    if !mle.is_distribution() || !on_target {
        return Err("the constrained distribution misses the hypothesised score");
    }
    Ok(mle)
}

/// Returns the maximum-likelihood distribution on the scores of `pdfhat` whose
/// t-value `(mu - reference) / sigma` is `t`, given the empirical distribution
/// `pdfhat`.
///
/// Source: fishtest `LLRcalc.MLE_t_value`: a fixed-point iteration from the
/// uniform distribution, at most ten steps, each solving a secular equation.
pub(crate) fn mle_t_value(pdfhat: &Pdf, reference: f64, t: f64) -> Result<Pdf, &'static str> {
    let n = pdfhat.probs.len();
    let mut mle = Pdf { values: pdfhat.values.clone(), probs: vec![1.0 / n as f64; n] };
    for _ in 0..T_VALUE_ITERATIONS {
        let (mu, var) = mle.mean_variance();
        let sigma = var.sqrt();
        let shifted: Vec<f64> = pdfhat
            .values
            .iter()
            .map(|a| a - reference - t * sigma * (1.0 + ((mu - a) / sigma).powi(2)) / 2.0)
            .collect();
        let x = secular(&shifted, &pdfhat.probs)?;
        let next = tilt(pdfhat, &shifted, x);
        let change = mle.probs.iter().zip(&next.probs).map(|(p, q)| (p - q).abs()).fold(0.0, f64::max);
        mle = next;
        if change < T_VALUE_CONVERGED {
            break;
        }
    }
    let (mu, var) = mle.mean_variance();
    let reached = (mu - reference) / var.sqrt();
    let on_target = (t - reached).abs() < T_VALUE_CHECK;
    if !mle.is_distribution() || !on_target {
        return Err("the constrained distribution misses the hypothesised t-value");
    }
    Ok(mle)
}

/// Returns the distribution `p_i / (1 + x a_i)` with `a_i` the shifted scores.
fn tilt(pdfhat: &Pdf, shifted: &[f64], x: f64) -> Pdf {
    let probs = pdfhat.probs.iter().zip(shifted).map(|(p, a)| p / (1.0 + x * a)).collect();
    Pdf { values: pdfhat.values.clone(), probs }
}

/// Solves the secular equation `sum_i p_i a_i / (1 + x a_i) = 0` for `x` between
/// its poles `-1/max(a)` and `-1/min(a)`.
///
/// Source: fishtest `LLRcalc.secular`, which brackets the root `1e-9` inside the
/// poles. When that bracket fails (a tiny regularized probability sits next to a
/// pole) the margin is narrowed, down to `1e-15`, before giving up.
fn secular(a: &[f64], p: &[f64]) -> Result<f64, &'static str> {
    let v = a.iter().copied().fold(f64::INFINITY, f64::min);
    let w = a.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let changes_sign = v * w < 0.0;
    if !changes_sign {
        return Err("the shifted scores do not change sign, so the secular equation has no root");
    }
    let f = |x: f64| -> f64 { a.iter().zip(p).map(|(ai, pi)| pi * ai / (1.0 + x * ai)).sum() };
    let (lower_pole, upper_pole) = (-1.0 / w, -1.0 / v);
    for margin in [SECULAR_MARGIN, 1e-12, 1e-15] {
        let (lo, hi) = (lower_pole + margin, upper_pole - margin);
        let nonempty = lo < hi;
        if !nonempty {
            continue;
        }
        let (f_lo, f_hi) = (f(lo), f(hi));
        if !f_lo.is_finite() || !f_hi.is_finite() {
            continue;
        }
        if f_lo == 0.0 {
            return Ok(lo);
        }
        if f_hi == 0.0 {
            return Ok(hi);
        }
        if f_lo.is_sign_positive() != f_hi.is_sign_positive() {
            return brent(f, lo, hi, f_lo, f_hi).ok_or("the root finder did not converge on the secular equation");
        }
    }
    Err("the secular equation has no bracketed root")
}

/// Finds a root of `f` in `[a, b]`, where `f(a) = fa` and `f(b) = fb` differ in
/// sign, or `None` after `BRENT_MAX_ITERATIONS` steps.
///
/// Brent's method (R. P. Brent, "Algorithms for Minimization without
/// Derivatives", 1973, chapter 4) in the form of scipy's `brentq`: inverse
/// quadratic interpolation or secant steps, falling back to bisection.
pub(crate) fn brent(f: impl Fn(f64) -> f64, a: f64, b: f64, fa: f64, fb: f64) -> Option<f64> {
    let (mut x_pre, mut x_cur) = (a, b);
    let (mut f_pre, mut f_cur) = (fa, fb);
    let (mut x_blk, mut f_blk) = (0.0, 0.0);
    let (mut s_pre, mut s_cur) = (0.0, 0.0);
    for _ in 0..BRENT_MAX_ITERATIONS {
        if f_pre != 0.0 && f_cur != 0.0 && (f_pre.is_sign_negative() != f_cur.is_sign_negative()) {
            x_blk = x_pre;
            f_blk = f_pre;
            s_pre = x_cur - x_pre;
            s_cur = s_pre;
        }
        if f_blk.abs() < f_cur.abs() {
            x_pre = x_cur;
            x_cur = x_blk;
            x_blk = x_pre;
            f_pre = f_cur;
            f_cur = f_blk;
            f_blk = f_pre;
        }
        let delta = (BRENT_XTOL + BRENT_RTOL * x_cur.abs()) / 2.0;
        let s_bis = (x_blk - x_cur) / 2.0;
        if f_cur == 0.0 || s_bis.abs() < delta {
            return Some(x_cur);
        }
        if s_pre.abs() > delta && f_cur.abs() < f_pre.abs() {
            let s_try = if x_pre == x_blk {
                // Secant step.
                -f_cur * (x_cur - x_pre) / (f_cur - f_pre)
            } else {
                // Inverse quadratic interpolation.
                let d_pre = (f_pre - f_cur) / (x_pre - x_cur);
                let d_blk = (f_blk - f_cur) / (x_blk - x_cur);
                -f_cur * (f_blk * d_blk - f_pre * d_pre) / (d_blk * d_pre * (f_blk - f_pre))
            };
            if 2.0 * s_try.abs() < s_pre.abs().min(3.0 * s_bis.abs() - delta) {
                s_pre = s_cur;
                s_cur = s_try;
            } else {
                s_pre = s_bis;
                s_cur = s_bis;
            }
        } else {
            s_pre = s_bis;
            s_cur = s_bis;
        }
        x_pre = x_cur;
        f_pre = f_cur;
        if s_cur.abs() > delta {
            x_cur += s_cur;
        } else {
            x_cur += if s_bis > 0.0 { delta } else { -delta };
        }
        f_cur = f(x_cur);
        if !f_cur.is_finite() {
            return None;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brent_finds_a_cubic_root() {
        let f = |x: f64| x * x * x - 2.0;
        let root = brent(f, 0.0, 2.0, f(0.0), f(2.0)).expect("bracketed");
        assert!((root - 2f64.cbrt()).abs() < 1e-11);
    }

    #[test]
    fn regularization_replaces_empty_bins() {
        let (total, pdf) = Pdf::from_counts(&[0, 2, 0]);
        assert!((total - 2.002).abs() < 1e-12);
        assert_eq!(pdf.values, vec![0.0, 0.5, 1.0]);
        assert!((pdf.probs[0] - 1e-3 / 2.002).abs() < 1e-15);
    }

    #[test]
    fn mle_expected_hits_the_score() {
        let (_, pdf) = Pdf::from_counts(&[3, 4, 5]);
        let mle = mle_expected(&pdf, 0.5).expect("solvable");
        assert!((mle.mean_variance().0 - 0.5).abs() < 1e-9);
    }

    #[test]
    fn secular_without_sign_change_is_an_error() {
        assert!(secular(&[0.1, 0.2], &[0.5, 0.5]).is_err());
    }
}
