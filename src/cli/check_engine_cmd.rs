//! `arbiter check-engine --engine SPEC`: the UCI compliance checklist of an external engine
//! ([`arbiter::player::check`]), printed one item per line, with exit 0 when every item holds and 1 otherwise.

use super::Classify as _;
use super::Failure;
use arbiter::games::GameKind;
use arbiter::player::engine_arg::{EachArgs, parse_engine_plan};
use arbiter::player::{EngineBuild, UciEngine};
use std::time::Duration;

/// Flags of `arbiter check-engine`.
#[derive(clap::Args, Debug)]
pub struct CheckEngineArgs {
    /// The engine, as `arbiter match --engine` takes it: `name=NAME,cmd=PROGRAM[,args=...][,dir=...]
    /// [,option.NAME=VALUE]...` (its options are set after the defaults are set back); `proto=xboard` for an
    /// xboard engine.
    #[arg(long = "engine", value_name = "SPEC")]
    pub engine: String,

    /// Longest wait for each reply (`uciok`, `readyok`, `bestmove`), in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    pub timeout_ms: u64,
}

/// Runs the checklist; exit 0 when every item holds, 1 when one fails, 2 for a bad `--engine`.
///
/// # Errors
/// A [`Failure::Input`] for an engine spec that is not an external UCI engine.
pub fn run(args: CheckEngineArgs) -> Result<i32, Failure> {
    let cwd = arbiter::runner::plan::working_directory().system()?;
    let plan = parse_engine_plan(&args.engine, &EachArgs::default(), GameKind::Chess, &cwd).input()?;
    let EngineBuild::Uci(uci) = &plan.build else {
        return Err(Failure::Input(anyhow::anyhow!(
            "--engine: {} is a built-in build; give cmd= of an external engine",
            plan.name
        )));
    };
    let engine = UciEngine::from(uci);
    super::stdout_text(format_args!("check-engine: {} ({})\n", plan.name, plan.source));
    let items = arbiter::player::check::check_engine(&plan.name, &engine, Duration::from_millis(args.timeout_ms));
    let failed = items.iter().filter(|i| i.failure.is_some()).count();
    for item in &items {
        match &item.failure {
            None => super::stdout_text(format_args!("[ok]   {}: {}\n", item.what, item.detail)),
            Some(reason) => super::stdout_text(format_args!("[FAIL] {}: {reason}\n", item.what)),
        }
    }
    super::stdout_text(format_args!("{} of {} items hold\n", items.len() - failed, items.len()));
    Ok(if failed == 0 { 0 } else { 1 })
}
