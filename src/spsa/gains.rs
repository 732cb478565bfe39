//! The SPSA algorithm itself, without games: the gain schedule, the perturbation of one iteration, the rounding
//! of `int` parameters and the update. Pure functions of the parameters, the iteration number, the seed and the
//! result, so that a test checks them against values worked out by hand.
//!
//! The formulas are OpenBench's (AndyGrant/OpenBench, `OpenBench/spsa_utils.py`: `create_spsa_run` and
//! `spsa_workload_assignment_dict`; `Client/worker.py`: the delta; `OpenBench/utils.py`, `update_test`: the
//! clipped update), after Spall (1998). With `K` iterations and `A = a_ratio * K`:
//!
//! - `c_i = c_end_i * K^gamma` and `a_i = r_end_i * c_end_i^2 * (A + K)^alpha` (fixed at the start);
//! - at iteration `k = 1..=K`: `c_k,i = max(c_i / k^gamma, 0.5 if int else 0)` and
//!   `r_k,i = a_i / (A + k)^alpha / c_k,i^2`; at `k = K` they are `c_end_i` and `r_end_i`;
//! - a flip `delta_i` of +1 or -1 per parameter; the plus side plays `theta + delta * c_k`, the minus side
//!   `theta - delta * c_k`, `int` parameters rounded as `floor(x + u)` with one uniform `u` in [0, 1) shared by
//!   both sides (OpenBench's probabilistic rounding), then clipped to `[min, max]`;
//! - after the iteration's games, with `result` = the plus side's wins minus losses:
//!   `theta_i = clip(theta_i + r_k,i * c_k,i * result * delta_i, min_i, max_i)`.
//!
//! The flips and the rounding draws of iteration `k` come from the run's seed and `k` only ([`Draws::of`]), so
//! that a resumed run plays what the uninterrupted run would have.

use super::params::{Param, ParamKind};
use crate::game::keys::splitmix64;
use serde::{Deserialize, Serialize};

/// OpenBench's default learning-rate exponent (Spall's 0.602).
pub const DEFAULT_ALPHA: f64 = 0.602;
/// OpenBench's default perturbation exponent (Spall's 0.101).
pub const DEFAULT_GAMMA: f64 = 0.101;
/// OpenBench's default ratio of the stability constant `A` to the iterations (Spall: `A` about 10% of them).
pub const DEFAULT_A_RATIO: f64 = 0.1;

/// The smallest perturbation of an `int` parameter (OpenBench's floor: below it both sides would mostly
/// play the same whole number).
pub const MIN_INT_C: f64 = 0.5;

/// The schedule's constants: the exponents, the stability ratio and the run's length.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Schedule {
    /// The learning rate's decay exponent (`alpha`).
    pub alpha: f64,
    /// The perturbation's decay exponent (`gamma`).
    pub gamma: f64,
    /// `A` as a share of the iterations (`A = a_ratio * iterations`).
    pub a_ratio: f64,
    /// The iterations of the run (`K`).
    pub iterations: u64,
}

/// The perturbation and learning rate of one parameter at one iteration.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gain {
    /// The perturbation `c_k`.
    pub c: f64,
    /// The learning rate `r_k`.
    pub r: f64,
}

/// Why a schedule cannot run a parameter: its gains are not finite numbers, or its perturbation is wider than its
/// range.
#[derive(Debug, thiserror::Error, PartialEq)]
#[error("{param}: {reason}")]
pub struct ScheduleError {
    /// The parameter's name.
    pub param: String,
    /// What is wrong, in words.
    pub reason: String,
}

impl Schedule {
    /// Checks that every parameter's gains are finite over the whole run (a `c_end` or `r_end` near the largest
    /// float, or exponents that overflow, would make the values NaN) and that `c_end` is no wider than the
    /// parameter's range `max - min` (both sides would sit on the bounds).
    ///
    /// # Errors
    /// [`ScheduleError`] naming the first parameter at fault.
    pub fn check(&self, params: &[Param]) -> Result<(), ScheduleError> {
        for param in params {
            let error = |reason: String| ScheduleError { param: param.name.clone(), reason };
            if param.c_end > param.max - param.min {
                return Err(error(format!(
                    "c_end {} is wider than the range max - min = {}",
                    super::params::num(param.c_end),
                    super::params::num(param.max - param.min)
                )));
            }
            for k in [1, self.iterations] {
                let gain = self.gain(param, k);
                let step = gain.r * gain.c * (param.max - param.min);
                if !(gain.c.is_finite() && gain.r.is_finite() && step.is_finite()) || gain.c <= 0.0 {
                    return Err(error(format!(
                        "the gains at iteration {k} are not finite numbers (c = {}, r = {}): c_end, r_end, alpha or \
                         gamma are too large",
                        super::params::num(gain.c),
                        super::params::num(gain.r)
                    )));
                }
            }
        }
        Ok(())
    }

    /// The stability constant `A = a_ratio * K`.
    pub fn big_a(&self) -> f64 {
        self.a_ratio * self.iterations as f64
    }

    /// The gain of `param` at iteration `k` (1-based).
    ///
    /// # Examples
    /// ```
    /// use arbiter::spsa::gains::Schedule;
    /// use arbiter::spsa::params::parse_params;
    /// let p = &parse_params("x, float, 0, -10, 10, 2, 0.002", "p").unwrap()[0];
    /// let s = Schedule { alpha: 0.602, gamma: 0.101, a_ratio: 0.1, iterations: 100 };
    /// let last = s.gain(p, 100);
    /// assert!((last.c - 2.0).abs() < 1e-12 && (last.r - 0.002).abs() < 1e-12);
    /// ```
    pub fn gain(&self, param: &Param, k: u64) -> Gain {
        let iterations = self.iterations as f64;
        let k = k as f64;
        let c_value = param.c_end * iterations.powf(self.gamma);
        let a_value = param.r_end * param.c_end * param.c_end * (self.big_a() + iterations).powf(self.alpha);
        let floor = match param.kind {
            ParamKind::Int => MIN_INT_C,
            ParamKind::Float => 0.0,
        };
        let c = (c_value / k.powf(self.gamma)).max(floor);
        let r = a_value / (self.big_a() + k).powf(self.alpha) / (c * c);
        Gain { c, r }
    }
}

/// The random draws of one iteration: a flip (+1 or -1) and a rounding draw in [0, 1) per parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Draws {
    /// `delta_i`: +1 or -1.
    pub flips: Vec<i8>,
    /// `u_i` for the probabilistic rounding of `int` parameters (drawn for every parameter).
    pub uniforms: Vec<f64>,
}

impl Draws {
    /// The draws of iteration `k` of a run with `seed`, for `count` parameters: a SplitMix64 stream started
    /// from the seed and `k`, two numbers per parameter (the flip from the top bit of the first, the uniform
    /// from the top 53 bits of the second). The same seed and `k` always give the same draws.
    pub fn of(seed: u64, k: u64, count: usize) -> Draws {
        let (mut state, _) = splitmix64(seed ^ k.wrapping_mul(0xA076_1D64_78BD_642F));
        let mut flips = Vec::with_capacity(count);
        let mut uniforms = Vec::with_capacity(count);
        for _ in 0..count {
            let (next, bits) = splitmix64(state);
            let (next, more) = splitmix64(next);
            state = next;
            flips.push(if bits >> 63 == 1 { 1 } else { -1 });
            uniforms.push((more >> 11) as f64 / (1u64 << 53) as f64);
        }
        Draws { flips, uniforms }
    }
}

/// What the two sides of one iteration play: the values sent to each engine.
#[derive(Clone, Debug, PartialEq)]
pub struct Perturbation {
    /// The gain of each parameter at this iteration.
    pub gains: Vec<Gain>,
    /// The flips.
    pub flips: Vec<i8>,
    /// The plus side's values (`theta + delta * c`, rounded for `int`, clipped).
    pub plus: Vec<f64>,
    /// The minus side's values (`theta - delta * c`, rounded for `int`, clipped).
    pub minus: Vec<f64>,
}

/// The values of iteration `k` around `theta`, with `draws` (see [`Draws::of`]).
pub fn perturb(params: &[Param], schedule: &Schedule, theta: &[f64], k: u64, draws: &Draws) -> Perturbation {
    let mut out = Perturbation { gains: vec![], flips: draws.flips.clone(), plus: vec![], minus: vec![] };
    for (i, param) in params.iter().enumerate() {
        let gain = schedule.gain(param, k);
        let shift = f64::from(draws.flips[i]) * gain.c;
        let send = |x: f64| {
            let x = match param.kind {
                ParamKind::Int => (x + draws.uniforms[i]).floor(),
                ParamKind::Float => x,
            };
            x.clamp(param.min, param.max)
        };
        out.plus.push(send(theta[i] + shift));
        out.minus.push(send(theta[i] - shift));
        out.gains.push(gain);
    }
    out
}

/// The new `theta` after an iteration whose plus side scored `result` (wins minus losses, or half the
/// difference of the two sides' wins minus losses against a fixed opponent):
/// `clip(theta_i + r_i * c_i * result * delta_i, min_i, max_i)`.
pub fn update(params: &[Param], theta: &[f64], step: &Perturbation, result: f64) -> Vec<f64> {
    params
        .iter()
        .enumerate()
        .map(|(i, param)| {
            let gain = step.gains[i];
            let moved = theta[i] + gain.r * gain.c * result * f64::from(step.flips[i]);
            moved.clamp(param.min, param.max)
        })
        .collect()
}

/// A value as sent to the engine and written for the user: an `int` parameter rounded to the nearest whole
/// number (halves away from zero, as OpenBench's `spsa_optimal_values` rounds with Python's `round` only on
/// exact halves differently), a `float` as is.
pub fn shown_value(param: &Param, value: f64) -> String {
    match param.kind {
        ParamKind::Int => format!("{}", value.round() as i64),
        ParamKind::Float => format!("{value}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spsa::params::parse_params;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-12 * b.abs().max(1.0)
    }

    /// The gain schedule against values worked out by hand from the formulas: K = 100, A = 10, alpha = 0.602,
    /// gamma = 0.101, c_end = 4, r_end = 0.002.
    #[test]
    fn the_schedule_matches_the_formulas() {
        let params = parse_params("x, float, 0, -100, 100, 4, 0.002\nn, int, 0, -100, 100, 0.25, 0.002", "p").unwrap();
        let s = Schedule { alpha: 0.602, gamma: 0.101, a_ratio: 0.1, iterations: 100 };
        // c = 4 * 100^0.101 = 4 * 10^0.202 = 6.3684..., a = 0.002 * 16 * 110^0.602.
        let c_value = 4.0 * 10f64.powf(0.202);
        let a_value = 0.032 * 110f64.powf(0.602);
        let first = s.gain(&params[0], 1);
        assert!(close(first.c, c_value), "{first:?}");
        assert!(close(first.r, a_value / 11f64.powf(0.602) / (c_value * c_value)), "{first:?}");
        let tenth = s.gain(&params[0], 10);
        assert!(close(tenth.c, c_value / 10f64.powf(0.101)));
        assert!(close(tenth.r, a_value / 20f64.powf(0.602) / (tenth.c * tenth.c)));
        let last = s.gain(&params[0], 100);
        assert!(close(last.c, 4.0) && close(last.r, 0.002), "{last:?}");
        // An int parameter's perturbation never falls below 0.5: c_end 0.25 gives 0.5 at the end, and r then
        // shrinks by (0.25 / 0.5)^2.
        let int_last = s.gain(&params[1], 100);
        assert!(close(int_last.c, 0.5) && close(int_last.r, 0.002 * 0.25), "{int_last:?}");
    }

    /// One iteration by hand: flips, probabilistic rounding with a shared draw, clipping of the values sent,
    /// and the clipped update.
    #[test]
    fn perturbation_rounding_clipping_and_update_by_hand() {
        let params = parse_params("a, int, 10, 0, 12, 2, 0.5\nb, float, 1.5, 0, 2, 1, 0.25", "p").unwrap();
        // K = 1: c = c_end, r = r_end at k = 1 whatever alpha, gamma and A.
        let s = Schedule { alpha: 0.602, gamma: 0.101, a_ratio: 0.1, iterations: 1 };
        let theta = [10.3, 1.5];
        let draws = Draws { flips: vec![1, -1], uniforms: vec![0.75, 0.0] };
        let step = perturb(&params, &s, &theta, 1, &draws);
        assert!(close(step.gains[0].c, 2.0) && close(step.gains[0].r, 0.5));
        // a: plus floor(12.3 + 0.75) = 13 -> clipped to 12; minus floor(8.3 + 0.75) = 9.
        // b: plus 1.5 - 1 = 0.5; minus 1.5 + 1 = 2.5 -> clipped to 2.
        assert_eq!(step.plus, [12.0, 0.5]);
        assert_eq!(step.minus, [9.0, 2.0]);
        // result +3: a += 0.5 * 2 * 3 * 1 = 3 -> 13.3 clipped to 12; b += 0.25 * 1 * 3 * -1 = -0.75 -> 0.75.
        assert_eq!(update(&params, &theta, &step, 3.0), [12.0, 0.75]);
        // result -2: a += 0.5 * 2 * -2 = -2 -> 8.3 (theta stays real); b += 0.5 -> 2.0 (clipped exactly at max).
        let back = update(&params, &theta, &step, -2.0);
        assert!(close(back[0], 8.3) && close(back[1], 2.0), "{back:?}");
        assert_eq!(shown_value(&params[0], back[0]), "8");
        assert_eq!(shown_value(&params[1], 0.75), "0.75");
    }

    #[test]
    fn draws_depend_on_seed_and_iteration_only() {
        let a = Draws::of(7, 3, 50);
        assert_eq!(a, Draws::of(7, 3, 50));
        assert_ne!(a, Draws::of(7, 4, 50));
        assert_ne!(a, Draws::of(8, 3, 50));
        assert!(a.flips.iter().all(|&f| f == 1 || f == -1));
        assert!(a.flips.contains(&1) && a.flips.contains(&-1));
        assert!(a.uniforms.iter().all(|&u| (0.0..1.0).contains(&u)));
        // A prefix: more parameters do not change the draws of the first ones.
        assert_eq!(Draws::of(7, 3, 10).flips, a.flips[..10]);
    }

    /// The probabilistic rounding is unbiased: over many draws the mean value sent equals the real value.
    #[test]
    fn rounding_is_unbiased() {
        let params = parse_params("a, int, 10, 0, 100, 1, 0.5", "p").unwrap();
        let s = Schedule { alpha: 0.602, gamma: 0.101, a_ratio: 0.1, iterations: 1 };
        let n = 20_000;
        let mut sum = 0.0;
        for k in 0..n {
            let mut draws = Draws::of(1, k, 1);
            draws.flips[0] = 1;
            sum += perturb(&params, &s, &[10.3], 1, &draws).plus[0];
        }
        // theta + c = 11.3: values 11 and 12 with probabilities 0.7 and 0.3.
        let mean = sum / n as f64;
        assert!((mean - 11.3).abs() < 0.02, "{mean}");
    }

    /// A synthetic objective with a known optimum (no chess): each game pair is won by the side nearer the
    /// optimum with a probability growing with the difference, the rest drawn. From far off, the run ends near
    /// the optimum, inside its bounds.
    #[test]
    fn a_noisy_synthetic_objective_converges_to_its_optimum() {
        let params = parse_params("x, int, 20, 0, 200, 8, 0.02\ny, float, 180, 0, 200, 8, 0.02", "p").unwrap();
        let optimum = [120.0, 60.0];
        let s = Schedule { alpha: 0.602, gamma: 0.101, a_ratio: 0.1, iterations: 400 };
        let mut theta: Vec<f64> = params.iter().map(|p| p.start).collect();
        let (mut noise, _) = splitmix64(42);
        for k in 1..=s.iterations {
            let step = perturb(&params, &s, &theta, k, &Draws::of(9, k, 2));
            let loss = |v: &[f64]| -> f64 { v.iter().zip(&optimum).map(|(a, b)| (a - b).abs()).sum() };
            let edge = ((loss(&step.minus) - loss(&step.plus)) / 40.0).clamp(-0.9, 0.9);
            let mut result = 0.0;
            for _ in 0..8 {
                let (next, bits) = splitmix64(noise);
                noise = next;
                let u = (bits >> 11) as f64 / (1u64 << 53) as f64;
                // Plus wins with probability (1 + edge) / 4, loses with (1 - edge) / 4, else a draw.
                result += if u < (1.0 + edge) / 4.0 {
                    1.0
                } else if u < 0.5 {
                    -1.0
                } else {
                    0.0
                };
            }
            theta = update(&params, &theta, &step, result);
            assert!(theta.iter().zip(&params).all(|(v, p)| (p.min..=p.max).contains(v)));
        }
        assert!((theta[0] - optimum[0]).abs() < 15.0 && (theta[1] - optimum[1]).abs() < 15.0, "{theta:?}");
    }
}
