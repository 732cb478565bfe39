//! `arbiter spsa`: tunes an engine's parameters (UCI options, or the built-in engine's weights by their config
//! names) by SPSA over game pairs, as OpenBench and fishtest do, on one machine: `spsa.csv`, `games.csv`,
//! `values.txt` (UCI `setoption` lines and OpenBench's paste-back form), `tuned.toml` for the built-in engine,
//! `spsa.svg`; resumable; `--validate` then plays the tuned values against the start values in an SPRT.
//!
//! The flags become an [`SpsaPlan`]: the iterations' match is planned by `match_plan::plan_of` as `arbiter match` plans
//! its match (engines, limits, openings, adjudication); the library ([`arbiter::spsa`]) plays it.
//!
//! Exit codes (see [`arbiter::cli`]): 0 done (whatever `--validate` decided), 1 an engine failure stopped the run
//! (continue with `--resume DIR --recover`), 2 bad input (flags, the parameter file, an engine that does not
//! list a parameter), 3 a failure of the system, 130 interrupted (Ctrl-C or SIGTERM: the pairs in play finish
//! and are recorded; `--resume` goes on).

use super::Classify as _;
use super::match_plan::{AdjudicationArgs, LimitArgs, MatchArgs, plan_of};
use super::progress::{MatchProgress, SpsaProgress};
use super::{EXIT_INTERRUPTED, Failure, exit_code, install_interrupt_handler};
use arbiter::notation::quote::shown;
use arbiter::runner::plan::parse_sprt;
use arbiter::runner::run::{RunEnd, RunObserver};
use arbiter::spsa::gains::{DEFAULT_A_RATIO, DEFAULT_ALPHA, DEFAULT_GAMMA, Schedule};
use arbiter::spsa::output::values_text;
use arbiter::spsa::plan::{SpsaRequest, plan_run};
use arbiter::spsa::run::{SpsaOverrides, SpsaPlan, SpsaRun};
use arbiter::spsa::validate::Validation;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

/// Flags of `arbiter spsa`.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct SpsaArgs {
    /// The engine to tune, as `arbiter match` takes it (`name=NAME,cmd=PROGRAM[,args=..][,option.X=..]` or a
    /// built-in build `name=seed` / `name=NAME,config=FILE.toml`); a second --engine is a fixed opponent that
    /// both sides play instead of each other.
    #[arg(long = "engine", value_name = "SPEC")]
    pub engines: Vec<String>,

    /// The parameters, one a line in OpenBench's form `name, int|float, start, min, max, c_end, r_end`
    /// (`#` comments and blank lines skipped); for the built-in engine the names are its weights' config
    /// names (`material[1]` is the knight).
    #[arg(long, value_name = "FILE")]
    pub params: Option<PathBuf>,

    /// Iterations of the run (K): the gain schedule ends at c_end and r_end at the last one.
    #[arg(value_parser = crate::cli::args::int_in(1u64, 100_000_000), long, value_name = "N")]
    pub iterations: Option<u64>,

    /// Game pairs per iteration (per side against a fixed opponent); the update sums their result.
    #[arg(value_parser = crate::cli::args::int_in(1u64, 1_000_000), long, value_name = "P")]
    pub pairs_per_iteration: Option<u64>,

    /// The learning rate's decay exponent, above 0 and at most 10 (OpenBench's and Spall's default 0.602).
    #[arg(value_parser = crate::cli::args::exponent, long, value_name = "X", default_value_t = DEFAULT_ALPHA)]
    pub alpha: f64,

    /// The perturbation's decay exponent, above 0 and at most 10 (default 0.101).
    #[arg(value_parser = crate::cli::args::exponent, long, value_name = "X", default_value_t = DEFAULT_GAMMA)]
    pub gamma: f64,

    /// The stability constant A as a share of the iterations (A = ratio * iterations; 0 or more, default 0.1).
    #[arg(value_parser = crate::cli::args::non_negative, long, value_name = "X", default_value_t = DEFAULT_A_RATIO)]
    pub a_ratio: f64,

    /// Settings for every engine, as in `arbiter match --each` (`tc=10+0.1,option.Threads=1`).
    #[arg(long, value_name = "SPEC")]
    pub each: Option<String>,

    /// Time control for every engine (`10+0.1`, `40/60+0.6`).
    #[arg(long, value_name = "TC")]
    pub tc: Option<String>,

    /// The move limits every engine gets where its spec sets none.
    #[command(flatten)]
    pub limits: LimitArgs,

    /// Opening file or spec, as `arbiter match --openings` (default: suites/openings/arbiter-book.epd); the
    /// iterations take the openings in turn, P pairs each.
    #[arg(long, value_name = "FILE|SPEC")]
    pub openings: Option<PathBuf>,

    /// For PGN openings: the first N plies of each game as the book.
    #[arg(value_parser = crate::cli::args::int_in(0u32, 10_000), long, value_name = "N")]
    pub plies: Option<u32>,

    /// Opening order (default: random by --seed).
    #[arg(long, value_parser = crate::cli::args::opening_order())]
    pub order: Option<arbiter::runner::OpeningOrder>,

    /// Seed of the opening order and of every iteration's flips and rounding draws.
    #[arg(long, value_name = "S", default_value_t = arbiter::runner::plan::DEFAULT_SEED)]
    pub seed: u64,

    /// Adjudication, as in `arbiter match`.
    #[command(flatten)]
    pub adjudication: AdjudicationArgs,

    /// Games played at once (default: the number of cores; never more than an iteration's pairs: a worker plays
    /// both games of a pair).
    #[arg(long, value_name = "N")]
    pub concurrency: Option<u32>,

    /// Output folder (default `results/NAME-N`).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,

    /// Name of the run (the stem of the default output folder).
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,

    /// Play shard I of N of the run (1-based): each iteration's pairs are split between the shards (pair k to
    /// shard k mod N + 1), each shard waits for the others' games of the iteration (read from the sibling
    /// folders `RUN/shard-J`, on a shared file system) and applies the same update, so every shard's spsa.csv is
    /// the run's one trajectory. Give each shard `--out RUN/shard-I`.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<arbiter::runner::Shard>,

    /// Continue the run in DIR where it stopped (only --concurrency, --recover and --validate may be given too).
    #[arg(long, value_name = "DIR")]
    pub resume: Option<PathBuf>,

    /// After an engine crashes, stalls or cannot start (the game is lost), restart it and go on.
    #[arg(long)]
    pub recover: bool,

    /// Send an external engine an option.NAME it does not list (with a warning).
    #[arg(long)]
    pub allow_unknown_options: bool,

    /// After the last iteration, play the tuned values against the start values at the run's limits and
    /// openings until an SPRT decides: `[games=N][,sprt=elo0=0 elo1=10 alpha=0.05 beta=0.05][,out=DIR]` (the
    /// SPRT's keys separated by spaces; default elo0=0 elo1=10, at most 20000 games, `DIR/validate`).
    #[arg(long, value_name = "SPEC", num_args = 0..=1, default_missing_value = "")]
    pub validate: Option<String>,
}

/// Set by the Ctrl-C/SIGTERM handler of `arbiter spsa`.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Runs `arbiter spsa`; returns the exit code.
///
/// # Errors
/// None in practice: errors are printed here.
pub fn run(args: SpsaArgs, given: &clap::ArgMatches) -> Result<i32, super::Failure> {
    install_interrupt_handler("spsa", &INTERRUPTED);
    Ok(exit_code(run_inner(&args, given, &INTERRUPTED)))
}

/// The flags (long names) that may be given with `--resume`.
const RESUME_FLAGS: [&str; 4] = ["resume", "concurrency", "recover", "validate"];

fn run_inner(args: &SpsaArgs, given: &clap::ArgMatches, interrupt: &AtomicBool) -> Result<i32, Failure> {
    let validate = args.validate.as_deref().map(parse_validate).transpose().input()?;
    let mut progress = SpsaProgress::default();
    let ended = match &args.resume {
        Some(dir) => {
            let command = <SpsaArgs as clap::Args>::augment_args(clap::Command::new("spsa"));
            let refused = super::flags_given_except(given, &command, &RESUME_FLAGS);
            if !refused.is_empty() {
                let list = &refused;
                return Err(Failure::Input(anyhow::anyhow!(
                    "--resume: {} cannot be given with --resume: the run keeps the settings in its spsa.toml (only \
                     --concurrency, --recover and --validate may be given)",
                    list.join(", ")
                )));
            }
            let overrides = SpsaOverrides { concurrency: args.concurrency, recover: args.recover };
            arbiter::spsa::resume(dir, overrides, &mut progress, interrupt)
        }
        None => {
            let plan = plan_spsa(args)?;
            arbiter::spsa::start(&plan, &mut progress, interrupt)
        }
    };
    let ended = ended.map_err(|e| if e.is_input() { Failure::Input(e.into()) } else { Failure::System(e.into()) })?;
    progress.finish();
    let Some(run) = ended else {
        super::stderr_line(format_args!("arbiter spsa: interrupted before the run started; nothing was written"));
        return Ok(EXIT_INTERRUPTED);
    };
    let plan = arbiter::spsa::output::read_plan(&run.dir).system()?;
    report(&plan, &run);
    let dir = run.dir.display();
    if let Some(failure) = &run.failure {
        let text = anyhow::anyhow!("the run stopped: {failure} (continue it with `arbiter spsa --resume {dir}`)");
        return Err(if run.failure_is_input { Failure::Input(text) } else { Failure::System(text) });
    }
    if let Some(halted) = &run.halted {
        return Err(Failure::Internal(anyhow::anyhow!(
            "the run stopped: {halted} (continue it with `arbiter spsa --resume {dir} --recover`)"
        )));
    }
    if run.interrupted || interrupt.load(Ordering::SeqCst) {
        super::stderr_line(format_args!(
            "arbiter spsa: interrupted after {} of {} iterations ({} games, all recorded); continue with `arbiter \
             spsa --resume {dir}`",
            run.iterations_done, plan.schedule.iterations, run.games
        ));
        return Ok(EXIT_INTERRUPTED);
    }
    if let Some(validate) = validate {
        return run_validation(&plan, &run, &validate, interrupt);
    }
    Ok(0)
}

/// Prints the values and the session's figures.
fn report(plan: &SpsaPlan, run: &SpsaRun) {
    super::stdout_text(format_args!("{}", values_text(plan, &run.theta, run.iterations_done, run.games)));
    let rate = if run.elapsed_s > 0.0 { run.session_iterations as f64 / run.elapsed_s } else { 0.0 };
    super::stdout_text(format_args!(
        "\n{} of {} iterations, {} games ({} this session in {:.1} s: {:.3} iterations/s; arbiter's own CPU \
         {:.1} s)\nResults: {}\n",
        run.iterations_done,
        plan.schedule.iterations,
        run.games,
        run.session_games,
        run.elapsed_s,
        rate,
        run.cpu_s,
        run.dir.display()
    ));
    super::write_report("spsa", &run.dir);
}

/// Turns the flags into the plan of a new run: the match planned as `arbiter match` plans it, the parameter
/// file read and checked against the tuned engine's options.
fn plan_spsa(args: &SpsaArgs) -> Result<SpsaPlan, Failure> {
    let Some(params_path) = &args.params else {
        return Err(Failure::Input(anyhow::anyhow!("--params FILE is required (or --resume DIR)")));
    };
    let Some(iterations) = args.iterations else {
        return Err(Failure::Input(anyhow::anyhow!("--iterations N is required (or --resume DIR)")));
    };
    let Some(pairs) = args.pairs_per_iteration else {
        return Err(Failure::Input(anyhow::anyhow!("--pairs-per-iteration P is required (or --resume DIR)")));
    };
    match args.engines.len() {
        1 | 2 => {}
        n => {
            return Err(Failure::Input(anyhow::anyhow!(
                "--engine: give the engine to tune, and optionally a fixed opponent (got {n} --engine)"
            )));
        }
    }
    let match_args = MatchArgs {
        engines: args.engines.clone(),
        each: args.each.clone(),
        tc: args.tc.clone(),
        recover: args.recover,
        allow_unknown_options: args.allow_unknown_options,
        handshake_timeout_ms: arbiter::player::uci::DEFAULT_HANDSHAKE_TIMEOUT_MS,
        ping_timeout_ms: arbiter::player::uci::DEFAULT_PING_TIMEOUT_MS,
        stall_timeout_ms: arbiter::player::uci::DEFAULT_STALL_TIMEOUT_MS,
        openings: args.openings.clone(),
        plies: args.plies,
        order: args.order,
        seed: args.seed,
        rounds: Some(pairs),
        shard: args.shard,
        concurrency: args.concurrency,
        limits: args.limits.clone(),
        adjudication: args.adjudication.clone(),
        out: args.out.clone(),
        name: args.name.clone(),
        rating_interval: 0,
        ..MatchArgs::default()
    };
    let request = SpsaRequest {
        plan: plan_of(&match_args)?,
        params_file: params_path.clone(),
        schedule: Schedule { alpha: args.alpha, gamma: args.gamma, a_ratio: args.a_ratio, iterations },
        pairs_per_iteration: pairs,
    };
    let plan = plan_run(request, &mut |warning| super::stderr_line(format_args!("{warning}")))
        .map_err(|e| Failure::Input(e.into()))?;
    Ok(plan)
}

/// Parses `--validate [games=N][,sprt=elo0=0 elo1=10 ...][,out=DIR]`.
fn parse_validate(text: &str) -> anyhow::Result<Validation> {
    let mut validate = Validation::default();
    let mut seen: Vec<String> = Vec::new();
    for item in text.split(',').filter(|item| !item.trim().is_empty()) {
        let Some((key, value)) = item.split_once('=') else {
            anyhow::bail!("--validate {}: {} is not key=value (keys: games, sprt, out)", shown(text), shown(item));
        };
        let key = key.trim();
        let first = !seen.iter().any(|k| k == key);
        match key {
            key if !first => anyhow::bail!("--validate {}: {key} is given twice", shown(text)),
            "out" if value.trim().is_empty() => anyhow::bail!("--validate: out= is empty (give a folder)"),
            "games" => match value.trim().parse::<u64>() {
                Ok(n) if n > 0 => validate.games = Some(n),
                _ => anyhow::bail!("--validate: games={} is not a positive whole number", shown(value)),
            },
            "sprt" => {
                let sprt = value.split_whitespace().collect::<Vec<_>>().join(",");
                parse_sprt(&sprt).map_err(|e| anyhow::anyhow!("--validate: sprt={}: {e}", shown(value)))?;
                validate.sprt = Some(sprt);
            }
            "out" => validate.out = Some(PathBuf::from(value.trim())),
            other => anyhow::bail!("--validate: unknown key {} (keys: games, sprt, out)", shown(other)),
        }
        seen.push(key.to_string());
    }
    Ok(validate)
}

/// Plays the tuned values against the start values until the SPRT decides, and prints the result.
fn run_validation(
    plan: &SpsaPlan,
    run: &SpsaRun,
    validate: &Validation,
    interrupt: &AtomicBool,
) -> Result<i32, Failure> {
    let mut progress = MatchProgress::default();
    let ended = arbiter::spsa::validate::validate(plan, run, validate, &mut progress, interrupt).map_err(|e| {
        if e.is_internal() {
            Failure::Internal(e.into())
        } else if e.is_input() {
            Failure::Input(e.into())
        } else {
            Failure::System(e.into())
        }
    })?;
    validation_outcome(ended, &mut progress)
}

/// Prints the validation match's summary and decision; its exit code.
fn validation_outcome(ended: RunEnd, progress: &mut MatchProgress) -> Result<i32, Failure> {
    progress.finished();
    match ended {
        RunEnd::NotStarted => Ok(EXIT_INTERRUPTED),
        RunEnd::Played(played) => {
            super::stdout_text(format_args!("\n{}", played.summary));
            let state = &played.state;
            let dir = played.dir.display();
            if state.interrupted {
                super::stderr_line(format_args!(
                    "arbiter spsa: the validation was interrupted; continue it with `arbiter spsa --resume RUN \
                     --validate` (or `arbiter match --resume {dir}`)"
                ));
                return Ok(EXIT_INTERRUPTED);
            }
            if let Some(failure) = &state.failure {
                return Err(Failure::System(anyhow::anyhow!("--validate: the match stopped: {failure}")));
            }
            if let Some(halted) = &state.halted {
                return Err(Failure::Internal(anyhow::anyhow!(
                    "--validate: the match stopped: {halted} (continue it with `arbiter match --resume {dir} --recover`)"
                )));
            }
            let decision = match state.verdict {
                Some(v) => arbiter::runner::scheduler::decision_text(v.decision).to_string(),
                None => "no decision within the games allowed".to_string(),
            };
            super::stdout_text(format_args!("\nValidation (tuned against start values): {decision}\n"));
            Ok(0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validate_specs() {
        assert_eq!(parse_validate("").unwrap(), Validation::default());
        let v = parse_validate("games=400,sprt=elo0=0 elo1=20 alpha=0.1,out=v").unwrap();
        assert_eq!(v.games, Some(400));
        assert_eq!(v.sprt.as_deref(), Some("elo0=0,elo1=20,alpha=0.1"));
        assert_eq!(v.out, Some(PathBuf::from("v")));
        assert!(parse_validate("games=0").is_err());
        assert!(parse_validate("nodes=5").unwrap_err().to_string().contains("unknown key"));
        assert!(parse_validate("sprt=elo0=5 elo1=1").is_err());
        assert!(parse_validate("games=4,games=6").unwrap_err().to_string().contains("games is given twice"));
        assert!(parse_validate("out=").unwrap_err().to_string().contains("out= is empty"));
    }
}
