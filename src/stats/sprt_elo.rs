//! The Elo estimate of a finished SPRT that accounts for its stopping rule: fishtest's median-unbiased
//! estimate with a confidence interval and LOS (Michel Van den Bergh, "GSPRT approximation" and "The
//! computation of elo estimates for an SPRT", fishtest support notes).
//!
//! An SPRT stops when its LLR crosses a bound, which biases the plain Elo estimate of its counts (a test that
//! passed early looks stronger than it is). The LLR is modelled as a Brownian motion with drift between the
//! bounds; for a candidate true Elo the probability of an outcome "worse" than the one seen (a faster fail, a
//! slower pass) follows from the first-passage law; the estimate is the Elo at which that probability is 1/2,
//! and the interval ends where it is `p/2` and `1 - p/2`.
//!
//! Source: fishtest `server/fishtest/stats/sprt.py` (`sprt.set_state`, `outcome_prob`, `lower_cb`,
//! `analytics`), `brownian.py` (`Brownian.outcome_cdf` and its two forms) and `LLRcalc.py`
//! (`LLR_drift_variance_alt2`), commit f0509ab; checked against that code in the tests below.

use super::elo::{EloModel, NELO_PER_T, score_from_elo};
use super::error::StatsError;
use super::mle::{Pdf, brent};
use super::pentanomial::Counts;
use super::sprt::SprtSpec;
use statrs::distribution::{ContinuousCDF, Normal};
use std::f64::consts::PI;

/// A stopping-rule-aware Elo estimate of an SPRT, in logistic Elo.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SprtElo {
    /// The median-unbiased Elo estimate (logistic Elo).
    pub elo: f64,
    /// Lower end of the confidence interval (logistic Elo; -1000 when it lies beyond the search range).
    pub elo_lo: f64,
    /// Upper end of the confidence interval (logistic Elo; 1000 when it lies beyond the search range).
    pub elo_hi: f64,
    /// Likelihood of superiority: the probability of an outcome worse than the one seen at Elo 0.
    pub los: f64,
    /// The LLR of the Brownian approximation, clamped to the bounds (natural-log units).
    pub llr: f64,
    /// Whether the approximate LLR lay more than 3% beyond a bound (fishtest's `clamped`).
    pub clamped: bool,
}

/// Standard normal CDF.
fn phi(x: f64) -> f64 {
    Normal::standard().cdf(x)
}

/// A Brownian motion with drift `mu` and variance `sigma2` per unit time, started at 0 between `a < 0 < b`.
struct Brownian {
    a: f64,
    b: f64,
    mu: f64,
    sigma2: f64,
}

impl Brownian {
    /// The probability that the particle passes to the right of `(t, y)` (fishtest `outcome_cdf`): the exact
    /// series, or Siegmund's approximation where the series converges slowly.
    fn outcome_cdf(&self, t: f64, y: f64) -> f64 {
        let gamma = self.mu / self.sigma2;
        let width = self.b - self.a;
        if self.sigma2 * t / (width * width) < 1e-2 || (gamma * width).abs() > 15.0 {
            self.siegmund(t, y)
        } else {
            self.series(t, y)
        }
    }

    fn series(&self, t: f64, y: f64) -> f64 {
        let (mu, sigma2) = (self.mu, self.sigma2);
        let width = self.b - self.a;
        let x = -self.a;
        let y = y - self.a;
        let gamma = mu / sigma2;
        let u = |n: f64| {
            (2.0 * width * gamma * (PI * n * y / width).sin() - 2.0 * PI * n * (PI * n * y / width).cos())
                / (width * width * gamma * gamma + PI * PI * n * n)
        };
        let lambda = |n: f64| (n * PI / width).powi(2) * sigma2 / 2.0 + (mu * mu / sigma2) / 2.0;
        let lambda_1 = lambda(1.0);
        let t0 = (-lambda_1 * t - x * gamma + y * gamma).exp();
        let mut sum = 0.0;
        // The terms fall off like exp(-n^2); 10 000 terms is far beyond any convergence seen.
        for n in 1..10_000u32 {
            let n = f64::from(n);
            let t1 = (-(lambda(n) - lambda_1) * t).exp();
            let t3 = u(n);
            sum += t1 * t3 * (n * PI * x / width).sin();
            if (t0 * t1 * t3).abs() <= 1e-9 {
                break;
            }
        }
        let pre = if gamma * width > 30.0 {
            (-2.0 * gamma * x).exp()
        } else if (gamma * width).abs() < 1e-8 {
            (width - x) / width
        } else {
            (1.0 - (2.0 * gamma * (width - x)).exp()) / (1.0 - (2.0 * gamma * width).exp())
        };
        pre + t0 * sum
    }

    fn siegmund(&self, t: f64, y: f64) -> f64 {
        let denom = (t * self.sigma2).sqrt();
        let offset = self.mu * t;
        let gamma = self.mu / self.sigma2;
        let (a, b) = (self.a, self.b);
        let z = (y - offset) / denom;
        let za = (-y + offset + 2.0 * a) / denom;
        let zb = (y - offset - 2.0 * b) / denom;
        let tail = |zz: f64, bound: f64| {
            if gamma * bound >= 5.0 {
                -(-(zz * zz) / 2.0 + 2.0 * gamma * bound).exp() / (2.0 * PI).sqrt() * (1.0 / zz - 1.0 / zz.powi(3))
            } else {
                (2.0 * gamma * bound).exp() * phi(zz)
            }
        };
        phi(z) + tail(za, a) - tail(zb, b)
    }
}

/// The state of a finished (or running) SPRT as fishtest's `sprt.set_state` leaves it.
struct State {
    a: f64,
    b: f64,
    s0: f64,
    s1: f64,
    mean: f64,
    var: f64,
    t: f64,
    llr: f64,
    clamped: bool,
    elo0: f64,
    elo1: f64,
}

impl State {
    /// fishtest `LLR_drift_variance_alt2` with the true score `s`.
    fn drift_variance(&self, s: f64) -> (f64, f64) {
        let v = self.var + (s - self.mean).powi(2);
        ((s - (self.s0 + self.s1) / 2.0) * (self.s1 - self.s0) / v, (self.s1 - self.s0).powi(2) / v)
    }

    /// fishtest `outcome_prob`: the probability, at logistic Elo `elo`, of an outcome worse than the one seen.
    fn outcome_prob(&self, elo: f64) -> f64 {
        let (mu, var) = self.drift_variance(score_from_elo(elo));
        Brownian { a: self.a, b: self.b, mu, sigma2: var }.outcome_cdf(self.t, self.llr)
    }

    /// fishtest `lower_cb`: the Elo at which the outcome probability is `1 - p`, searched in a window around
    /// the hypotheses that widens up to [-1000, 1000].
    fn lower_cb(&self, p: f64) -> f64 {
        let avg = (self.elo0 + self.elo1) / 2.0;
        let delta = self.elo1 - self.elo0;
        let f = |elo: f64| self.outcome_prob(elo) - (1.0 - p);
        let mut n = 30.0;
        loop {
            let lo = (avg - n * delta).max(-1000.0);
            let hi = (avg + n * delta).min(1000.0);
            let (flo, fhi) = (f(lo), f(hi));
            if flo.is_finite() && fhi.is_finite() && (flo <= 0.0) != (fhi <= 0.0) {
                return brent(f, lo, hi, flo, fhi).unwrap_or((lo + hi) / 2.0);
            }
            if lo > -1000.0 || hi < 1000.0 {
                n *= 2.0;
                continue;
            }
            return if flo > 0.0 { hi } else { lo };
        }
    }
}

/// The stopping-rule-aware Elo estimate of the SPRT `spec` after `counts`, with a `1 - p` confidence interval
/// (fishtest uses p = 0.05). For [`EloModel::BayesElo`] the hypotheses are read as logistic Elo.
///
/// # Errors
/// [`StatsError::TooFewGames`]/[`StatsError::TooFewPairs`] under 2 games or pairs;
/// [`StatsError::NoSolution`] when the counts have no spread (every sample scored the same), where the
/// Brownian model has no variance.
///
/// # Examples
/// ```
/// use arbiter::stats::{sprt_elo, Pentanomial, SprtSpec};
/// let penta = Pentanomial { ll: 34, ld: 54, wl: 31, dd: 32, wd: 64, ww: 75 };
/// let spec = SprtSpec::new(0.0, 10.0, 0.05, 0.05, arbiter::stats::EloModel::Normalized).unwrap();
/// let e = sprt_elo(&spec, &penta, 0.05).unwrap();
/// assert!((e.elo - 55.56778394916634).abs() < 1e-6);
/// ```
pub fn sprt_elo<C: Counts>(spec: &SprtSpec, counts: &C, p: f64) -> Result<SprtElo, StatsError> {
    counts.check_enough()?;
    let (n, pdf) = Pdf::from_counts(&counts.frequencies());
    let (mean, var) = pdf.mean_variance();
    if var <= 0.0 || !var.is_finite() {
        return Err(StatsError::NoSolution {
            elo: spec.elo1(),
            model: spec.model(),
            reason: "the counts have no spread",
        });
    }
    let (a, b) = spec.bounds();
    let to_score = |elo: f64| match spec.model() {
        EloModel::Normalized => {
            let sigma_pg = if counts.is_pentanomial() { (2.0 * var).sqrt() } else { var.sqrt() };
            elo / NELO_PER_T * sigma_pg + 0.5
        }
        EloModel::Logistic | EloModel::BayesElo => score_from_elo(elo),
    };
    let (s0, s1) = (to_score(spec.elo0()), to_score(spec.elo1()));
    let mut state =
        State { a, b, s0, s1, mean, var, t: n, llr: 0.0, clamped: false, elo0: spec.elo0(), elo1: spec.elo1() };
    let (mu, _) = state.drift_variance(mean);
    let llr = n * mu;
    state.llr = llr;
    state.clamped = llr > 1.03 * b || llr < 1.03 * a;
    if llr < a {
        state.t = a / mu;
        state.llr = a;
    } else if llr > b {
        state.t = b / mu;
        state.llr = b;
    }
    Ok(SprtElo {
        elo: state.lower_cb(0.5),
        elo_lo: state.lower_cb(p / 2.0),
        elo_hi: state.lower_cb(1.0 - p / 2.0),
        los: state.outcome_prob(0.0),
        llr: state.llr,
        clamped: state.clamped,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::{Pentanomial, Wdl};

    /// Reference values from fishtest's `sprt.py` (`set_state`, `analytics(0.05)`) at commit f0509ab, run with
    /// scipy 1.17: (elo, ci lower, ci upper, LOS, LLR, clamped).
    #[test]
    fn fishtest_reference_values() {
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-6 * b.abs().max(1.0);
        let penta = |ll, ld, wl, dd, wd, ww| Pentanomial { ll, ld, wl, dd, wd, ww };
        type Case<'a> = (Box<dyn Fn() -> Result<SprtElo, StatsError> + 'a>, [f64; 5], bool);
        let cases: [Case<'_>; 6] = [
            (
                Box::new(|| {
                    let s = SprtSpec::new(0.0, 2.0, 0.05, 0.05, EloModel::Normalized).unwrap();
                    sprt_elo(&s, &penta(64, 2119, 1903, 15034, 2226, 54), 0.05)
                }),
                [0.706222945025318, -0.3980269448090605, 1.8106161541310168, 0.894994485620139, 0.7837496023269679],
                false,
            ),
            (
                Box::new(|| {
                    let s = SprtSpec::new(0.0, 10.0, 0.05, 0.05, EloModel::Normalized).unwrap();
                    sprt_elo(&s, &penta(34, 54, 31, 32, 64, 75), 0.05)
                }),
                [55.56778394916634, 28.738016824461777, 84.52887884060429, 0.9999798857473826, 2.5434736129314035],
                false,
            ),
            (
                Box::new(|| {
                    let s = SprtSpec::new(0.0, 2.0, 0.05, 0.05, EloModel::Logistic).unwrap();
                    sprt_elo(&s, &penta(871, 26175, 55003, 980, 26678, 821), 0.05)
                }),
                [0.9003146239169499, -0.3260781893089889, 2.241455194629476, 0.9298293689556082, -2.9444389791664403],
                true,
            ),
            (
                Box::new(|| {
                    let s = SprtSpec::new(0.0, 6.0, 0.05, 0.05, EloModel::Logistic).unwrap();
                    sprt_elo(&s, &Wdl::new(716, 2163, 591), 0.05)
                }),
                [11.517342892073646, 2.60051626734069, 20.355938451699135, 0.9941574716310643, 2.9444389791664403],
                true,
            ),
            (
                Box::new(|| {
                    let s = SprtSpec::new(0.0, 10.0, 0.05, 0.05, EloModel::Logistic).unwrap();
                    sprt_elo(&s, &Wdl::new(34, 0, 356), 0.05)
                }),
                [-402.7897366826713, -1000.0, -293.16502104932897, 4.8297513589638645e-60, -2.9444389791664403],
                true,
            ),
            (
                Box::new(|| {
                    let s = SprtSpec::new(0.0, 10.0, 0.05, 0.05, EloModel::Normalized).unwrap();
                    sprt_elo(&s, &penta(1, 14, 34, 6, 31, 40), 0.05)
                }),
                [136.32220512553104, 100.95433589904515, 189.00749998219072, 1.0, 2.9444389791664403],
                true,
            ),
        ];
        for (i, (compute, expected, clamped)) in cases.iter().enumerate() {
            let e = compute().unwrap();
            let got = [e.elo, e.elo_lo, e.elo_hi, e.los, e.llr];
            for (g, x) in got.iter().zip(expected) {
                assert!(close(*g, *x), "case {i}: got {got:?}, expected {expected:?}");
            }
            assert_eq!(e.clamped, *clamped, "case {i}");
        }
    }

    #[test]
    fn no_spread_is_an_error_not_nan() {
        let spec = SprtSpec::stc();
        assert!(matches!(sprt_elo(&spec, &Wdl::new(0, 0, 0), 0.05), Err(StatsError::TooFewGames { .. })));
        let all_draws = Pentanomial { dd: 10, ..Pentanomial::default() };
        if let Ok(e) = sprt_elo(&spec, &all_draws, 0.05) {
            assert!(!e.elo.is_nan() && !e.elo_lo.is_nan() && !e.elo_hi.is_nan() && !e.los.is_nan());
        }
    }
}
