//! `arbiter sprt`: the SPRT and Elo report of given counts or of a match's results, under fishtest's models
//! (normalized, logistic) and cutechess-cli's BayesElo model, each named; and `arbiter sprt simulate`.
//!
//! ```text
//! arbiter sprt --wdl 145,57,50 --elo0 0 --elo1 10 --model normalized
//! arbiter sprt --penta 1,14,40,31,40 --elo0 0 --elo1 10        (LL,LD,WL+DD,DW,WW)
//! arbiter sprt --penta 1,14,34,6,31,40 --elo0 0 --elo1 10      (LL,LD,WL,DD,DW,WW)
//! arbiter sprt --results results/<run>                          (the run's own --sprt, or --elo0/--elo1)
//! ```
//!
//! Every number printed is finite or an explicit `+inf`/`-inf` with its reason; a statistic that cannot be
//! computed (too few games, a split that five counts do not give) is printed as `-` with the reason
//! ([`Figure`]). The LLR is [`SprtSpec::evaluate`]'s, the one the match and `arbiter merge` use. `--format json`
//! prints the same figures as one JSON object at full precision (docs/statistics.md). Exit codes: 0, or 2 for
//! bad input.

use super::{Failure, exit_code};
use arbiter::runner::RUN_TOML;
use arbiter::runner::rundir::counts::{RunCounts, counts_of_run};
use arbiter::runner::rundir::runfile::RunFile;
use arbiter::stats::sprt_report::{MERGED, Sample, SprtReport, parse_penta, parse_wdl, sprt_report};
use arbiter::stats::{EloModel, SprtSpec};
use std::path::{Path, PathBuf};

/// Flags of `arbiter sprt`.
#[derive(clap::Args, Debug, Clone)]
#[command(args_conflicts_with_subcommands = true)]
pub struct SprtArgs {
    /// Simulate SPRTs with a known true Elo (`arbiter sprt simulate --help`).
    #[command(subcommand)]
    pub command: Option<SprtCommand>,

    /// Game counts from the tested engine's view: wins, draws, losses.
    #[arg(long, value_name = "W,D,L", conflicts_with_all = ["penta", "results"])]
    pub wdl: Option<String>,

    /// Game-pair counts: LL,LD,WL+DD,DW,WW (fishtest's five) or LL,LD,WL,DD,DW,WW (WL and DD apart).
    #[arg(long, value_name = "COUNTS", conflicts_with = "results")]
    pub penta: Option<String>,

    /// A match's run folder (or its games.csv): the counts of its two engines, from the first engine's view;
    /// the SPRT is the run's own `--sprt` unless --elo0/--elo1 are given.
    #[arg(long, value_name = "DIR")]
    pub results: Option<PathBuf>,

    /// H0, in the units of --model (nElo for normalized, logistic Elo otherwise).
    #[arg(value_parser = crate::cli::args::sprt_elo0, long, value_name = "ELO", allow_hyphen_values = true)]
    pub elo0: Option<f64>,

    /// H1, in the units of --model.
    #[arg(value_parser = crate::cli::args::sprt_elo1, long, value_name = "ELO", allow_hyphen_values = true)]
    pub elo1: Option<f64>,

    /// False-positive rate.
    #[arg(value_parser = crate::cli::args::sprt_alpha, long, default_value_t = 0.05)]
    pub alpha: f64,

    /// False-negative rate.
    #[arg(value_parser = crate::cli::args::sprt_beta, long, default_value_t = 0.05)]
    pub beta: f64,

    /// The model of the decision: normalized (fishtest's default), logistic, or bayeselo (cutechess-cli).
    #[arg(long, default_value = "normalized")]
    pub model: String,

    /// Output format: text, or json (one object, every figure at full precision; see docs/statistics.md).
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    pub format: OutputFormat,
}

/// Subcommands of `arbiter sprt`.
#[derive(clap::Subcommand, Debug, Clone)]
pub enum SprtCommand {
    /// Simulate matches with a known true Elo: pass rate and games to a decision.
    Simulate(super::simulate_cmd::SimulateArgs),
}

/// The `--sprt` of a run, from its `run.toml`; `None` when it had none.
fn run_sprt(dir: &Path) -> anyhow::Result<Option<SprtSpec>> {
    let path = dir.join(RUN_TOML);
    let run = RunFile::read(&path)?;
    run.plan.sprt.map(|sprt| sprt.spec()).transpose().map_err(|e| anyhow::anyhow!("{}: plan: {e}", path.display()))
}

pub use super::args::OutputFormat;

/// Runs `arbiter sprt`; returns the exit code.
///
/// # Errors
/// None in practice: errors are printed, with exit code 2.
pub fn run(args: SprtArgs) -> Result<i32, super::Failure> {
    if let Some(SprtCommand::Simulate(sim)) = args.command {
        return super::simulate_cmd::run(sim);
    }
    Ok(exit_code(run_report(&args)))
}

fn run_report(args: &SprtArgs) -> Result<i32, Failure> {
    let input = |text: String| Failure::Input(anyhow::anyhow!(text));
    let model: EloModel = args
        .model
        .parse()
        .map_err(|_| input(format!("--model {:?}: expected normalized, logistic or bayeselo", args.model)))?;
    let (sample, header, recorded) = match (&args.wdl, &args.penta, &args.results) {
        (Some(text), None, None) => {
            (Sample::Games(parse_wdl(text).map_err(|e| input(format!("--wdl {e}")))?), String::new(), None)
        }
        (None, Some(text), None) => {
            (parse_penta(text).map_err(|e| input(format!("--penta {e}")))?, String::new(), None)
        }
        (None, None, Some(path)) => {
            let dir = if path.is_file() { path.parent().unwrap_or(Path::new(".")).to_path_buf() } else { path.clone() };
            let RunCounts { first, second, penta, .. } = counts_of_run(&dir).map_err(|e| Failure::Input(e.into()))?;
            // The run's own SPRT, read only when the bounds are not given (so that a run folder of an older
            // arbiter, whose run.toml this one refuses, can still be reported on with --elo0/--elo1).
            let needed = args.elo0.is_none() && args.elo1.is_none();
            let recorded =
                if needed && dir.join(RUN_TOML).exists() { run_sprt(&dir).map_err(Failure::Input)? } else { None };
            let header = format!("Results     {} ({first} vs {second}, from {first}'s view)\n", dir.display());
            (Sample::Pairs { penta, merged: false }, header, Some((dir, first, recorded)))
        }
        _ => return Err(input("give one of --wdl W,D,L, --penta COUNTS or --results DIR".to_string())),
    };
    let run = recorded.as_ref().map(|(dir, first, _)| (dir.clone(), first.clone()));
    let recorded = recorded.and_then(|(_, _, sprt)| sprt);
    let spec = match (args.elo0, args.elo1, recorded) {
        // The one check of SPRT parameters, shared with `match --sprt` (SprtSpec::new).
        (Some(elo0), Some(elo1), _) => SprtSpec::new(elo0, elo1, args.alpha, args.beta, model)
            .map_err(|e| input(format!("--{}: {e}", e.parameter().unwrap_or("elo0"))))?,
        (None, None, Some(spec)) => spec,
        (None, None, None) if args.results.is_some() => {
            return Err(input("the run had no --sprt: give --elo0 and --elo1".to_string()));
        }
        _ => return Err(input("give both --elo0 and --elo1".to_string())),
    };
    if spec.model() == EloModel::BayesElo && matches!(sample, Sample::Pairs { merged: true, .. }) {
        return Err(input(format!("--model bayeselo counts single games: {MERGED}")));
    }
    let SprtReport { text, mut json } = sprt_report(&spec, &sample);
    let mut charts = Vec::new();
    if let Some((dir, first)) = &run {
        let files = arbiter::runner::report::charts::write_run_charts(dir, first, Some(&spec))
            .map_err(|e| input(e.to_string()))?;
        charts = files.iter().map(|f| f.display().to_string()).collect();
    }
    match args.format {
        OutputFormat::Text => {
            print!("{header}{text}");
            if !charts.is_empty() {
                println!("Charts      {}", charts.join(", "));
            }
        }
        OutputFormat::Json => {
            if let Some((dir, first)) = &run {
                json.insert("results".into(), serde_json::json!({ "dir": dir.display().to_string(), "first": first }));
                json.insert("charts".into(), charts.into());
            }
            println!("{}", serde_json::Value::Object(json));
        }
    }
    Ok(0)
}
