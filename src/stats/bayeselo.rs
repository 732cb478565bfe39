//! cutechess-cli's statistics: its trinomial SPRT under the BayesElo model and its Elo estimate with error
//! margin, so that Arbiter prints the numbers cutechess users know beside fishtest's.
//!
//! The SPRT (cutechess `sprt.cpp`, after the change that added a Jeffreys prior): half a game is added to each
//! of wins, draws and losses (a Dirichlet(1/2, 1/2, 1/2) prior); the draw-elo is estimated from these counts
//! (Rémi Coulom's BayesElo model: `P(win) = 1 / (1 + 10^((drawelo - elo) / 400))`, `P(loss) = 1 / (1 +
//! 10^((drawelo + elo) / 400))`); the hypotheses `elo0`/`elo1` (logistic Elo) are turned into BayesElo by
//! dividing by the draw-dependent scale `4x / (1 + x)^2`, `x = 10^(-drawelo / 400)`; and the LLR sums the
//! regularized counts times the log ratio of the two trinomial laws.
//!
//! The Elo estimate (cutechess `elo.cpp`): the logistic Elo of the mean score, and as error margin half the Elo
//! width of the score interval `mu ± Phi^-1(0.975) sigma / sqrt(n)`, with cutechess's approximate inverse error
//! function (Winitzki's formula). Where cutechess produces NaN (a score interval reaching past 0 or 1) Arbiter
//! reports an infinite margin.

use super::pentanomial::Wdl;

/// Win, loss and draw probabilities of the BayesElo model for `elo` and `drawelo`.
fn bayeselo_probabilities(elo: f64, drawelo: f64) -> (f64, f64, f64) {
    let win = 1.0 / (1.0 + 10f64.powf((drawelo - elo) / 400.0));
    let loss = 1.0 / (1.0 + 10f64.powf((drawelo + elo) / 400.0));
    (win, loss, 1.0 - win - loss)
}

/// The log-likelihood ratio of H1 (`elo1`) against H0 (`elo0`), both in logistic Elo, of cutechess-cli's
/// SPRT for the game counts `wdl`, in natural-log units. Defined for every count, zero included (the prior
/// keeps every class positive); finite for finite `elo0`/`elo1`.
///
/// Source: cutechess `projects/lib/src/sprt.cpp`, `Sprt::status()`.
///
/// # Examples
/// ```
/// use arbiter::stats::{bayeselo_llr, Wdl};
/// let llr = bayeselo_llr(&Wdl::new(5, 4, 3), 0.0, 5.0);
/// assert!((llr - 0.041617483876322935).abs() < 1e-12);
/// assert!(bayeselo_llr(&Wdl::new(0, 0, 0), 0.0, 5.0).is_finite());
/// ```
pub fn bayeselo_llr(wdl: &Wdl, elo0: f64, elo1: f64) -> f64 {
    let wins = wdl.wins as f64 + 0.5;
    let losses = wdl.losses as f64 + 0.5;
    let draws = wdl.draws as f64 + 0.5;
    let n = wins + losses + draws;
    let (p_win, p_loss) = (wins / n, losses / n);
    let drawelo = 200.0 * ((1.0 - p_loss) / p_loss * (1.0 - p_win) / p_win).log10();
    let x = 10f64.powf(-drawelo / 400.0);
    let scale = 4.0 * x / ((1.0 + x) * (1.0 + x));
    let (w0, l0, d0) = bayeselo_probabilities(elo0 / scale, drawelo);
    let (w1, l1, d1) = bayeselo_probabilities(elo1 / scale, drawelo);
    wins * (w1 / w0).ln() + losses * (l1 / l0).ln() + draws * (d1 / d0).ln()
}

/// cutechess-cli's Elo line: `Elo difference: elo +/- margin, LOS: .., DrawRatio: ..`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CutechessElo {
    /// Mean score per game in `[0, 1]`.
    pub score: f64,
    /// Logistic Elo of the score; `±inf` for a score of 1 or 0.
    pub elo: f64,
    /// Half the Elo width of the 95% score interval; `inf` where the interval reaches past 0 or 1, or the score
    /// is 0 or 1 (cutechess prints `nan` there), 0 when every game was drawn.
    pub margin: f64,
    /// Fraction of games drawn.
    pub draw_ratio: f64,
}

/// cutechess's approximation of the inverse error function (Sergei Winitzki, "A handy approximation for the
/// error function and its inverse", 2008), as in its `elo.cpp`; `pi` as cutechess writes it.
#[allow(clippy::approx_constant)]
fn erf_inv(x: f64) -> f64 {
    // cutechess's own truncated pi; std's PI would move the margins in the 14th digit.
    let pi = 3.141_592_653_589_7;
    let a = 8.0 * (pi - 3.0) / (3.0 * pi * (4.0 - pi));
    let y = (1.0 - x * x).ln();
    let z = 2.0 / (pi * a) + y / 2.0;
    let r = ((z * z - y / a).sqrt() - z).sqrt();
    if x < 0.0 { -r } else { r }
}

/// The logistic Elo of a score, `-400 log10(1/p - 1)`: `±inf` at 1 and 0.
fn elo_of(p: f64) -> f64 {
    -400.0 * (1.0 / p - 1.0).log10()
}

/// cutechess-cli's Elo estimate of the game counts `wdl`; `None` without games.
///
/// Source: cutechess `projects/lib/src/elo.cpp` (`Elo::diff`, `Elo::errorMargin`).
///
/// # Examples
/// ```
/// use arbiter::stats::{cutechess_elo, Wdl};
/// let e = cutechess_elo(&Wdl::new(716, 2163, 591)).unwrap();
/// assert!((e.elo - 12.52110904602384).abs() < 1e-9);
/// assert!((e.margin - 7.0824625463298005).abs() < 1e-9);
/// assert_eq!(cutechess_elo(&Wdl::new(40, 1, 2)).unwrap().margin, f64::INFINITY);
/// ```
pub fn cutechess_elo(wdl: &Wdl) -> Option<CutechessElo> {
    let n = wdl.games() as f64;
    if n == 0.0 {
        return None;
    }
    let (w, l, d) = (wdl.wins as f64 / n, wdl.losses as f64 / n, wdl.draws as f64 / n);
    let mu = w + d / 2.0;
    let stdev = (w * (1.0 - mu).powi(2) + l * mu.powi(2) + d * (0.5 - mu).powi(2)).sqrt() / n.sqrt();
    let phi_inv = |p: f64| std::f64::consts::SQRT_2 * erf_inv(2.0 * p - 1.0);
    let (lo, hi) = (mu + phi_inv(0.025) * stdev, mu + phi_inv(0.975) * stdev);
    let margin = if mu <= 0.0 || mu >= 1.0 {
        f64::INFINITY
    } else if stdev == 0.0 {
        0.0
    } else if lo <= 0.0 || hi >= 1.0 {
        f64::INFINITY
    } else {
        (elo_of(hi) - elo_of(lo)) / 2.0
    };
    Some(CutechessElo { score: mu, elo: elo_of(mu), margin, draw_ratio: d })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extremes_are_finite_or_explicitly_infinite() {
        for wins in 0..6u64 {
            for draws in 0..6u64 {
                for losses in 0..6u64 {
                    let wdl = Wdl::new(wins, draws, losses);
                    for (e0, e1) in [(0.0, 5.0), (-3.0, 1.0), (-1500.0, -500.0), (0.0, 1000.0)] {
                        assert!(bayeselo_llr(&wdl, e0, e1).is_finite(), "{wdl:?} [{e0}, {e1}]");
                    }
                    match cutechess_elo(&wdl) {
                        None => assert_eq!(wdl.games(), 0),
                        Some(e) => {
                            assert!(!e.elo.is_nan() && !e.margin.is_nan() && e.margin >= 0.0, "{wdl:?}: {e:?}");
                            assert!(e.elo.is_finite() || wins == 0 || losses + draws == 0);
                        }
                    }
                }
            }
        }
        assert_eq!(cutechess_elo(&Wdl::new(0, 0, 6)).unwrap().elo, f64::NEG_INFINITY);
        assert_eq!(cutechess_elo(&Wdl::new(0, 20, 0)).unwrap().margin, 0.0);
    }
}
