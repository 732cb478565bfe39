//! Proof by simulation: the normalized pentanomial SPRT keeps its error rates.
//!
//! A test with nElo bounds [0, 40], alpha = beta = 0.05, is simulated on BayesElo game pairs with a draw ratio
//! of 0.5 (no opening bias), 20,000 runs with the true nElo at elo0 and 20,000 at elo1. The pass rate must lie
//! within 0.01 of alpha at elo0 and of 1 - beta at elo1.
//!
//! Why these numbers: the binomial standard error of a rate near 0.05 over 20,000 runs is
//! sqrt(0.05 * 0.95 / 20,000) = 0.0015, so the 0.01 band is 6.5 standard errors wide on each side: a real
//! check of the test's calibration (an SPRT whose true rate is off by 0.01 fails it about half the time, one
//! off by 0.015 almost always), which an exactly calibrated SPRT passes with certainty for practical purposes.
//! The wide bounds keep runs short (about 420 games on average, against about 6,500 for [0, 10] and 1,600 for
//! [0, 20]), so the 40,000 runs take about half a minute on two cores in release mode. The draw ratio of 0.5 is typical of engine self-play at short
//! time controls.
//!
//! What was measured (seeds 1 and 2, `cargo test --release --test simulate -- --nocapture` prints it): at
//! elo0, 938 of 20,000 runs passed (0.0469, Wilson 95% interval 0.0441 to 0.0499); at elo1, 19,041 passed
//! (0.9520); runs took 414 and 420 games on average, 1006 and 1010 at the 95th percentile. Both rates lie a
//! little inside alpha and beta, as expected of a GSPRT whose LLR overshoots the bounds when it crosses them
//! (no overshoot correction is applied).

use arbiter::stats::{EloModel, PairDistribution, SprtSpec, simulate};

/// Runs per hypothesis.
const RUNS: u64 = 20_000;

/// The pair cap of a run: far beyond any run of this test (the longest take a few thousand games).
const MAX_PAIRS: u64 = 50_000;

fn spec() -> SprtSpec {
    SprtSpec::new(0.0, 40.0, 0.05, 0.05, EloModel::Normalized).expect("valid SPRT")
}

fn pass_rate_at(nelo: f64, seed: u64) -> (f64, arbiter::stats::SimulationReport) {
    let dist = PairDistribution::bayeselo(nelo, EloModel::Normalized, 0.5, 0.0).expect("valid pair model");
    let report = simulate(&spec(), &dist, RUNS, MAX_PAIRS, seed);
    assert_eq!(report.undecided, 0, "{report:?}");
    (report.pass_rate().expect("runs were played"), report)
}

#[test]
fn normalized_pentanomial_sprt_keeps_alpha_at_elo0() {
    let spec = spec();
    let (rate, report) = pass_rate_at(spec.elo0(), 1);
    eprintln!("true nElo = elo0: pass rate {rate:.4} ({report:?})");
    assert!((rate - spec.alpha()).abs() <= 0.01, "pass rate {rate} at elo0, alpha {}: {report:?}", spec.alpha());
}

#[test]
fn normalized_pentanomial_sprt_keeps_beta_at_elo1() {
    let spec = spec();
    let (rate, report) = pass_rate_at(spec.elo1(), 2);
    eprintln!("true nElo = elo1: pass rate {rate:.4} ({report:?})");
    let power = 1.0 - spec.beta();
    assert!((rate - power).abs() <= 0.01, "pass rate {rate} at elo1, 1 - beta {power}: {report:?}");
}
