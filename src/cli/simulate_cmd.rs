//! `arbiter sprt simulate`: simulates SPRT runs on game pairs drawn with a known true Elo and reports the pass
//! rate with its 95% interval and the mean and 95th percentile of the games to a decision.
//!
//! The pair model is BayesElo games with a draw ratio and an opening bias, as in vdbergh's pentanomial
//! simulator; see [`crate::stats::PairDistribution::bayeselo`]. `--elo` is read in the units of `--model`, the
//! SPRT's own: nElo for `normalized`, logistic Elo for `logistic`.
//!
//! Exit codes: 0 after the simulation, 2 for a bad flag (the message names it).

use crate::runner::MAX_GAMES;
use crate::stats::{EloModel, SimulationPlan, SimulationPlanError, SimulationRequest, simulate};
use std::time::Instant;

pub use crate::stats::{MAX_SIMULATED_ELO as MAX_ELO, MAX_SIMULATION_RUNS as MAX_RUNS};

/// Flags of `arbiter sprt simulate`.
///
/// Example: `arbiter sprt simulate --elo 0 --draw-ratio 0.5 --elo0 0 --elo1 10 --model normalized --runs 2000`
/// measures the false-positive rate of an nElo [0, 10] test.
#[derive(clap::Args, Debug, Clone)]
pub struct SimulateArgs {
    /// The true strength of the tested engine, in the units of --model (nElo for normalized, logistic Elo for
    /// logistic), from -1000 to 1000.
    #[arg(value_parser = crate::cli::args::finite, long, allow_hyphen_values = true)]
    pub elo: f64,

    /// The draw ratio between equal engines, in [0, 1): BayesElo's draw Elo is chosen to give it.
    #[arg(value_parser = crate::cli::args::finite, long, value_name = "D")]
    pub draw_ratio: f64,

    /// The SPRT's H0 hypothesis, in the units of --model.
    #[arg(value_parser = crate::cli::args::sprt_elo0, long, allow_hyphen_values = true)]
    pub elo0: f64,

    /// The SPRT's H1 hypothesis, in the units of --model; above --elo0.
    #[arg(value_parser = crate::cli::args::sprt_elo1, long, allow_hyphen_values = true)]
    pub elo1: f64,

    /// The false-positive rate: the chance of passing when --elo0 holds.
    #[arg(value_parser = crate::cli::args::sprt_alpha, long, default_value_t = 0.05)]
    pub alpha: f64,

    /// The false-negative rate: the chance of failing when --elo1 holds.
    #[arg(value_parser = crate::cli::args::sprt_beta, long, default_value_t = 0.05)]
    pub beta: f64,

    /// The Elo model of the SPRT and of --elo, --elo0 and --elo1.
    #[arg(long, value_enum)]
    pub model: ModelArg,

    /// Simulated matches (SPRT runs).
    #[arg(long, value_name = "N")]
    pub runs: u64,

    /// Seed of the random numbers: the same flags and seed give the same report on any number of threads.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,

    /// The most games a run plays before it is counted undecided (rounded up to whole pairs); the default is
    /// the cap of an `arbiter match` under an SPRT.
    #[arg(long, value_name = "N", default_value_t = MAX_GAMES)]
    pub max_games: u64,

    /// Opening bias: White's expected score between equal engines, in logistic Elo (0: none). A bias favours
    /// White's game of each pair, which narrows the spread of pair scores, as unbalanced openings do.
    #[arg(value_parser = crate::cli::args::finite, long, value_name = "ELO", default_value_t = 0.0, allow_hyphen_values = true)]
    pub bias: f64,

    /// Worker threads (default: all cores).
    #[arg(value_parser = crate::cli::args::threads, long, value_name = "N")]
    pub threads: Option<usize>,
}

/// The `--model` values.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelArg {
    /// Normalized Elo (fishtest's default): hypotheses fix the t-value of the score.
    Normalized,
    /// Logistic Elo: hypotheses fix the expected score.
    Logistic,
}

impl From<ModelArg> for EloModel {
    fn from(model: ModelArg) -> Self {
        match model {
            ModelArg::Normalized => EloModel::Normalized,
            ModelArg::Logistic => EloModel::Logistic,
        }
    }
}

impl SimulateArgs {
    /// The library request of these flags.
    pub fn request(&self) -> SimulationRequest {
        SimulationRequest {
            elo: self.elo,
            draw_ratio: self.draw_ratio,
            elo0: self.elo0,
            elo1: self.elo1,
            alpha: self.alpha,
            beta: self.beta,
            model: EloModel::from(self.model),
            runs: self.runs,
            max_games: self.max_games,
            bias: self.bias,
            threads: self.threads,
        }
    }
}

/// Checks the flags and builds the SPRT and the pair distribution ([`SimulationRequest::plan`]).
///
/// # Errors
/// A [`SimulationPlanError`] naming the flag and what it must be.
pub fn plan(args: &SimulateArgs) -> Result<SimulationPlan, SimulationPlanError> {
    args.request().plan()
}

/// Runs `arbiter sprt simulate`: prints the pair model, then the pass rate with its Wilson 95% interval, the
/// failed and undecided runs, and the mean and 95th percentile of the games to a decision; the time taken
/// and runs per second go to stderr.
///
/// # Errors
/// Bad flags (see [`plan`]); the caller exits with code 2.
pub fn run(args: SimulateArgs) -> anyhow::Result<i32> {
    let plan = plan(&args)?;
    let p = plan.dist.probabilities();
    let model = plan.spec.model();
    println!(
        "SPRT [{}, {}] {model}, alpha {}, beta {}; true {model} Elo {}, draw ratio {}, bias {}",
        args.elo0, args.elo1, args.alpha, args.beta, args.elo, args.draw_ratio, args.bias
    );
    println!(
        "Pair model: LL {:.6}, LD {:.6}, WL {:.6}, DD {:.6}, WD {:.6}, WW {:.6} (Elo {:.3}, nElo {:.3}, draws {:.4})",
        p.ll,
        p.ld,
        p.wl,
        p.dd,
        p.wd,
        p.ww,
        p.elo(),
        p.nelo(),
        p.draw_ratio()
    );
    let start = Instant::now();
    let report = match args.threads {
        Some(threads) => rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()?
            .install(|| simulate(&plan.spec, &plan.dist, plan.runs, plan.max_pairs, args.seed)),
        None => simulate(&plan.spec, &plan.dist, plan.runs, plan.max_pairs, args.seed),
    };
    let seconds = start.elapsed().as_secs_f64();
    let rate = report.pass_rate().expect("at least one run was played");
    let (low, high) = report.pass_rate_interval().expect("at least one run was played");
    println!(
        "Runs: {}, passed (H1): {}, failed (H0): {}, undecided after {} games: {}",
        report.runs,
        report.passed,
        report.failed,
        2 * plan.max_pairs,
        report.undecided
    );
    println!("Pass rate: {rate:.4} (95% interval {low:.4} to {high:.4})");
    match (report.mean_games, report.p95_games) {
        (Some(mean), Some(p95)) => println!("Games to a decision: mean {mean:.1}, 95th percentile {p95}"),
        _ => println!("Games to a decision: none decided"),
    }
    if report.undecided > 0 {
        eprintln!("note: the games figures leave out the {} undecided runs; raise --max-games", report.undecided);
    }
    eprintln!("{} runs in {seconds:.2} s ({:.0} runs/s)", report.runs, report.runs as f64 / seconds.max(1e-9));
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args() -> SimulateArgs {
        SimulateArgs {
            elo: 0.0,
            draw_ratio: 0.5,
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
            model: ModelArg::Normalized,
            runs: 10,
            seed: 1,
            max_games: MAX_GAMES,
            bias: 0.0,
            threads: None,
        }
    }

    fn error_of(change: impl FnOnce(&mut SimulateArgs)) -> String {
        let mut args = args();
        change(&mut args);
        plan(&args).expect_err("bad flags").to_string()
    }

    #[test]
    fn good_flags_make_a_plan() {
        let plan = plan(&SimulateArgs { max_games: 7, ..args() }).unwrap();
        assert_eq!(plan.max_pairs, 4);
        assert_eq!(plan.runs, 10);
        assert_eq!(plan.spec, crate::stats::SprtSpec::new(0.0, 10.0, 0.05, 0.05, EloModel::Normalized).unwrap());
        assert!(plan.dist.probabilities().nelo().abs() < 1e-9);
    }

    #[test]
    fn bad_flags_name_the_flag() {
        assert_eq!(error_of(|a| a.elo = 1e4), "--elo: expected a number from -1000 to 1000 (Elo), got 10000");
        // The SPRT's own flags get the shared check's messages (SprtSpec::new), as match --sprt and sprt do.
        assert_eq!(error_of(|a| a.elo0 = f64::NAN), "--elo0: elo0 must be a finite number, got NaN");
        assert_eq!(error_of(|a| a.elo0 = -3000.0), "--elo0: elo0 must lie from -2000 to 2000, got -3000");
        assert_eq!(error_of(|a| a.elo1 = 0.0), "--elo1: elo1 (0) must be greater than elo0 (0)");
        assert_eq!(error_of(|a| a.alpha = 0.0), "--alpha: alpha must lie strictly between 0 and 1, got 0");
        assert_eq!(
            error_of(|a| (a.alpha, a.beta) = (0.5, 0.5)),
            "--beta: alpha + beta must be below 1 (so that the bounds enclose LLR 0), got 0.5 + 0.5"
        );
        assert_eq!(error_of(|a| a.runs = 0), "--runs: expected a number of runs from 1 to 100000000, got 0");
        assert_eq!(error_of(|a| a.max_games = 1), "--max-games: expected at least 2 games (one pair), got 1");
        assert_eq!(error_of(|a| a.threads = Some(0)), "--threads: expected at least 1 thread, got 0");
        assert_eq!(error_of(|a| a.draw_ratio = 1.0), "--draw-ratio: the draw ratio must lie in [0, 1), got 1");
        assert!(error_of(|a| a.bias = 300.0).starts_with("--draw-ratio: draw ratio 0.5 is too high for bias 300"));
        assert_eq!(error_of(|a| a.bias = -1e9), "--bias: expected a number from -1000 to 1000 (Elo), got -1000000000");
    }

    #[test]
    fn run_simulates_and_rejects_bad_flags() {
        assert_eq!(run(SimulateArgs { elo: 50.0, elo1: 50.0, max_games: 400, threads: Some(1), ..args() }).unwrap(), 0);
        assert!(run(SimulateArgs { runs: 0, ..args() }).is_err());
    }
}
