//! `arbiter sprt simulate`: simulates SPRT runs on game pairs drawn with a known true Elo and reports the pass
//! rate with its 95% interval and the mean and 95th percentile of the games to a decision.
//!
//! The pair model is BayesElo games with a draw ratio and an opening bias, as in vdbergh's pentanomial
//! simulator; see [`arbiter::stats::PairDistribution::bayeselo`]. `--elo` is read in the units of `--model`, the
//! SPRT's own: nElo for `normalized`, logistic Elo for `logistic`.
//!
//! With `--shards N` it simulates a run split into shards that share one decision
//! ([`arbiter::stats::simulate_shards`]) and also reports the games recorded when the last shard stopped.
//!
//! Exit codes: 0 after the simulation, 2 for a bad flag (the message names it).

use super::Classify as _;
use arbiter::runner::MAX_GAMES;
use arbiter::stats::{
    EloModel, ReadCut, ShardModel, ShardModelError, SimulationPlan, SimulationPlanError, SimulationRequest, simulate,
    simulate_shards,
};
use std::time::Instant;

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

    /// The sharded mode's flags (--shards and the flags that need it).
    #[command(flatten)]
    pub shards: ShardFlags,
}

/// Flags of the sharded mode of `arbiter sprt simulate`: a run split into shards that share one decision.
/// Time is counted in mean pair durations of the slowest shard.
#[derive(clap::Args, Debug, Clone, PartialEq)]
pub struct ShardFlags {
    /// Simulate a run split into N shards that share one SPRT decision: each shard plays its own pairs and,
    /// when it finishes a pair, computes the SPRT over the pairs that all shards finished; the first such read
    /// beyond a bound decides, and every shard then stops after the pairs it is playing. Reports the games at
    /// the decision and the games recorded in the end.
    #[arg(long, value_name = "N")]
    pub shards: Option<u64>,

    /// Pairs in flight per shard (with --shards).
    #[arg(long, value_name = "C", default_value_t = 1, requires = "shards")]
    pub concurrency: u64,

    /// A shard reads after every K of its own pairs, and after its last (with --shards).
    #[arg(long, value_name = "K", default_value_t = 1, requires = "shards")]
    pub read_every_pairs: u64,

    /// A shard also reads every T mean pair durations (with --shards; default: only after pairs).
    #[arg(value_parser = crate::cli::args::finite, long, value_name = "T", requires = "shards", allow_hyphen_values = true)]
    pub read_period: Option<f64>,

    /// Stale reads: another shard's pair is seen only D mean pair durations after it finished, and the decision
    /// D after it was written (with --shards).
    #[arg(value_parser = crate::cli::args::finite, long, value_name = "D", default_value_t = 0.0, requires = "shards", allow_hyphen_values = true)]
    pub read_delay: f64,

    /// The fastest shard's speed over the slowest's; the shards' speeds are spread geometrically between them
    /// (with --shards).
    #[arg(value_parser = crate::cli::args::finite, long, value_name = "R", default_value_t = 1.0, requires = "shards", allow_hyphen_values = true)]
    pub speed_ratio: f64,

    /// Which of its own pairs a stale read counts (with --shards): own-fresh, all of them (the others' being
    /// seen --read-delay late); common, those up to the same time as the others'.
    #[arg(long, value_enum, default_value_t = ReadCutArg::OwnFresh, requires = "shards")]
    pub read_cut: ReadCutArg,
}

/// The `--read-cut` values.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadCutArg {
    /// A shard counts every pair it has finished.
    OwnFresh,
    /// A shard counts its own pairs up to the same time as the others'.
    Common,
}

impl From<ReadCutArg> for ReadCut {
    fn from(cut: ReadCutArg) -> Self {
        match cut {
            ReadCutArg::OwnFresh => ReadCut::OwnFresh,
            ReadCutArg::Common => ReadCut::Common,
        }
    }
}

impl ShardFlags {
    /// The flags of a run without --shards (the single-process simulation).
    #[cfg(test)]
    pub const NONE: Self = Self {
        shards: None,
        concurrency: 1,
        read_every_pairs: 1,
        read_period: None,
        read_delay: 0.0,
        speed_ratio: 1.0,
        read_cut: ReadCutArg::OwnFresh,
    };

    /// The shard model of these flags, checked; `None` without --shards.
    ///
    /// # Errors
    /// A [`ShardModelError`] naming the flag.
    pub fn model(&self) -> Result<Option<ShardModel>, ShardModelError> {
        let Some(shards) = self.shards else { return Ok(None) };
        let model = ShardModel {
            shards,
            concurrency: self.concurrency,
            read_every_pairs: self.read_every_pairs,
            read_period: self.read_period,
            read_delay: self.read_delay,
            speed_ratio: self.speed_ratio,
            read_cut: ReadCut::from(self.read_cut),
        };
        model.check()?;
        Ok(Some(model))
    }
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
/// and runs per second go to stderr. With --shards, the line of the shard model comes first and the games
/// recorded when the last shard stopped last.
///
/// # Errors
/// Bad flags (see [`plan`] and [`ShardFlags::model`]); the caller exits with code 2.
pub fn run(args: SimulateArgs) -> Result<i32, super::Failure> {
    let plan = plan(&args).input()?;
    let shard_model = args.shards.model().input()?;
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
    if let Some(shards) = &shard_model {
        println!("{}", describe_shards(shards));
    }
    let start = Instant::now();
    let simulate_all = || match &shard_model {
        None => (simulate(&plan.spec, &plan.dist, plan.runs, plan.max_pairs, args.seed), None),
        Some(shards) => {
            let report = simulate_shards(&plan.spec, &plan.dist, shards, plan.runs, plan.max_pairs, args.seed);
            (report.decisions, Some(report))
        }
    };
    let (report, sharded) = match args.threads {
        Some(threads) => rayon::ThreadPoolBuilder::new().num_threads(threads).build().system()?.install(simulate_all),
        None => simulate_all(),
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
    let at_decision = if sharded.is_some() { "Games at the decision" } else { "Games to a decision" };
    match (report.mean_games, report.p95_games) {
        (Some(mean), Some(p95)) => println!("{at_decision}: mean {mean:.1}, 95th percentile {p95}"),
        _ => println!("{at_decision}: none decided"),
    }
    if let Some(sharded) = sharded
        && let (Some(mean), Some(p95), Some(decided)) =
            (sharded.mean_recorded_games, sharded.p95_recorded_games, report.mean_games)
    {
        println!(
            "Games recorded when the last shard stopped: mean {mean:.1}, 95th percentile {p95} (overshoot: mean {:.1})",
            mean - decided
        );
    }
    if report.undecided > 0 {
        eprintln!("note: the games figures leave out the {} undecided runs; raise --max-games", report.undecided);
    }
    eprintln!("{} runs in {seconds:.2} s ({:.0} runs/s)", report.runs, report.runs as f64 / seconds.max(1e-9));
    Ok(0)
}

/// One line describing a shard model, for the report.
fn describe_shards(model: &ShardModel) -> String {
    let period = match model.read_period {
        Some(period) => format!(" and every {period} pair times"),
        None => String::new(),
    };
    let own = match model.read_cut {
        ReadCut::OwnFresh => "its own at once",
        ReadCut::Common => "its own as late",
    };
    format!(
        "Shards: {}, {} pairs in flight each, speeds 1 to {}; a read every {} own pairs{period}, seeing other \
         shards' pairs {} pair times late and {own}",
        model.shards, model.concurrency, model.speed_ratio, model.read_every_pairs, model.read_delay
    )
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
            shards: ShardFlags::NONE,
        }
    }

    fn error_of(change: impl FnOnce(&mut SimulateArgs)) -> String {
        let mut args = args();
        change(&mut args);
        super::super::error_text(&plan(&args).expect_err("bad flags").into())
    }

    #[test]
    fn good_flags_make_a_plan() {
        let plan = plan(&SimulateArgs { max_games: 7, ..args() }).unwrap();
        assert_eq!(plan.max_pairs, 4);
        assert_eq!(plan.runs, 10);
        assert_eq!(plan.spec, arbiter::stats::SprtSpec::new(0.0, 10.0, 0.05, 0.05, EloModel::Normalized).unwrap());
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

    #[test]
    fn sharded_mode_runs_and_names_its_bad_flags() {
        let shards = |change: fn(&mut ShardFlags)| {
            let mut flags = ShardFlags { shards: Some(4), ..ShardFlags::NONE };
            change(&mut flags);
            SimulateArgs { elo: 50.0, elo1: 50.0, max_games: 400, threads: Some(1), shards: flags, ..args() }
        };
        assert_eq!(run(shards(|f| (f.concurrency, f.read_period, f.read_delay) = (2, Some(0.5), 1.0))).unwrap(), 0);
        let error = |change| match run(shards(change)) {
            Err(failure @ crate::cli::Failure::Input(_)) => failure.to_string(),
            other => panic!("expected bad input, got {other:?}"),
        };
        assert_eq!(error(|f| f.shards = Some(0)), "--shards: expected a number from 1 to 1024, got 0");
        assert_eq!(error(|f| f.read_every_pairs = 0), "--read-every-pairs: expected at least 1 pair, got 0");
        assert_eq!(error(|f| f.speed_ratio = 0.0), "--speed-ratio: expected a number from 1 to 1000, got 0");
        assert_eq!(ShardFlags::NONE.model(), Ok(None));
    }
}
