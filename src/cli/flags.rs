//! The flag names of the command line, added to the library's errors: the library names a value (the
//! `games` of a plan, the engine that failed, the folder to resume), and the command line says which of its
//! flags gave it (`--games`, `--engine`, `--resume`). [`flagged`] is the error line of every command.

use arbiter::runner::plan::{HashAdvice, PlanError, PlanField};
use arbiter::runner::run::RunError;
use arbiter::runner::rundir::merge::MergeError;
use arbiter::spsa::plan::SpsaPlanError;
use arbiter::spsa::run::SpsaError;
use arbiter::spsa::validate::ValidationError;

/// The flag of `arbiter match` that sets a plan value.
fn plan_flag(field: PlanField) -> &'static str {
    match field {
        PlanField::Format => "plan format",
        PlanField::Name => "--name",
        PlanField::Game => "--game",
        PlanField::Variant => "--variant",
        PlanField::Limits => "--depth, --nodes and --movetime-ms",
        PlanField::Engines => "--engine",
        PlanField::Sprt => "--sprt",
        PlanField::Games => "--games",
        PlanField::Rounds => "--rounds",
        PlanField::Plies => "--plies",
        PlanField::OpeningsStart => "--openings start",
        PlanField::Concurrency => "--concurrency",
        PlanField::Maxmoves => "--maxmoves",
    }
}

/// A [`PlanError`] as the command line says it.
pub(crate) fn plan_text(error: &PlanError) -> String {
    match error {
        PlanError::UnendingShard { shard } => format!(
            "--shard {shard}: a shard plays a fixed part of the schedule: give --games or --rounds (an SPRT cannot \
             stop a shard early; merge the shards for its verdict)"
        ),
        PlanError::Invalid { field, problem } => format!("{}{problem}", plan_flag(*field)),
        PlanError::HashMemory { workers, tables, total, memory, advice } => {
            let advice = match advice {
                HashAdvice::Concurrency => "--concurrency".to_string(),
                HashAdvice::Config(path) => format!("search.hash_mb in {path} or --concurrency"),
                HashAdvice::Option(name) => format!("{name}'s option.Hash or --concurrency"),
            };
            format!(
                "hash: {workers} workers x ({tables}) = {total} MiB of transposition tables, more than half of the \
                 {memory} MiB of physical memory; lower {advice}"
            )
        }
        PlanError::BadName { shown, problem } => format!("--name {shown}: {problem}"),
        PlanError::NoDefaultBook { .. } => format!("{error}; pass --openings FILE"),
        other => other.to_string(),
    }
}

/// A [`RunError`] as the command line says it.
pub(crate) fn run_text(error: &RunError) -> String {
    match error {
        RunError::Plan(error) => plan_text(error),
        RunError::Engine(_) | RunError::Bench(_) => format!("--engine: {error}"),
        RunError::NotARun { .. } | RunError::Resume { .. } | RunError::Changed { .. } => format!("--resume {error}"),
        other => other.to_string(),
    }
}

/// An [`SpsaError`] as the command line says it.
fn spsa_text(error: &SpsaError) -> String {
    match error {
        SpsaError::Run(error) => run_text(error),
        SpsaError::Plan(error) => plan_text(error),
        SpsaError::NotAFolder { .. } | SpsaError::Resume { .. } => format!("--resume {error}"),
        other => other.to_string(),
    }
}

/// The error line of a library error that names a value a flag gave, with the flag; `None` for any other
/// error (its own text is the line).
pub(crate) fn flagged(error: &anyhow::Error) -> Option<String> {
    if let Some(error) = error.downcast_ref::<PlanError>() {
        return Some(plan_text(error));
    }
    if let Some(error) = error.downcast_ref::<RunError>() {
        return Some(run_text(error));
    }
    if let Some(error) = error.downcast_ref::<SpsaError>() {
        return Some(spsa_text(error));
    }
    if let Some(error) = error.downcast_ref::<SpsaPlanError>() {
        return Some(match error {
            SpsaPlanError::Plan(error) => plan_text(error),
            SpsaPlanError::Options(error) => spsa_text(error),
            SpsaPlanError::Engines { .. } => format!("--engine: {error}"),
            other => other.to_string(),
        });
    }
    if let Some(error) = error.downcast_ref::<ValidationError>() {
        return Some(match error {
            ValidationError::Run(error) => run_text(error),
            ValidationError::Values(error) => spsa_text(error),
            other => other.to_string(),
        });
    }
    if let Some(MergeError::Plan(error)) = error.downcast_ref::<MergeError>() {
        return Some(plan_text(error));
    }
    None
}
