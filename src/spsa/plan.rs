//! The plan of a new SPSA run from its parts ([`plan_run`]): the iterations' match, planned as `arbiter match`
//! plans a match, the parameter file read and checked against the options the tuned engine lists, and the gain
//! schedule checked against the parameters.

use super::gains::{Schedule, ScheduleError};
use super::params::{EngineMismatch, ParamError, check_against, parse_params, read_params_file};
use super::run::{SPSA_FORMAT, SpsaError, SpsaPlan, engine_options};
use crate::player::{EngineArgError, EngineKind};
use crate::runner::MatchLength;
use crate::runner::plan::{MatchPlan, PlanError};
use std::path::PathBuf;
use thiserror::Error;

/// What a new SPSA run is made of.
#[derive(Clone, Debug)]
pub struct SpsaRequest {
    /// The match as planned from the engines and settings given: its engines are the engine to tune, then
    /// optionally a fixed opponent; its length and SPRT are replaced.
    pub plan: MatchPlan,
    /// The parameter file (OpenBench's format).
    pub params_file: PathBuf,
    /// The gain schedule.
    pub schedule: Schedule,
    /// Game pairs per iteration (per side against a fixed opponent).
    pub pairs_per_iteration: u64,
}

/// Why a new SPSA run cannot be planned.
#[derive(Debug, Error)]
pub enum SpsaPlanError {
    /// Not one engine to tune, with at most one opponent.
    #[error("give the engine to tune, and optionally a fixed opponent (got {count} engines)")]
    Engines {
        /// How many engines were given.
        count: usize,
    },
    /// The iterations' match is not playable.
    #[error(transparent)]
    Plan(#[from] PlanError),
    /// The parameter file does not read.
    #[error(transparent)]
    Params(#[from] ParamError),
    /// The tuned engine's build does not load.
    #[error(transparent)]
    Engine(#[from] EngineArgError),
    /// The engine's options cannot be listed.
    #[error(transparent)]
    Options(#[from] SpsaError),
    /// A parameter that the engine does not have, or whose range it does not take.
    #[error(transparent)]
    Mismatch(#[from] EngineMismatch),
    /// The schedule does not suit a parameter.
    #[error("{file}: {source}")]
    Schedule {
        /// The parameter file.
        file: String,
        /// What is wrong.
        source: ScheduleError,
    },
}

/// Plans a new run from `request`; `warn` gets a warning when the engine's option list was too long to read
/// whole (the parameters are then sent unchecked).
///
/// # Errors
/// [`SpsaPlanError`]: the match, the parameter file, the engine, the schedule.
pub fn plan_run(request: SpsaRequest, warn: &mut dyn FnMut(&str)) -> Result<SpsaPlan, SpsaPlanError> {
    let SpsaRequest { mut plan, params_file, schedule, pairs_per_iteration: pairs } = request;
    if !matches!(plan.engines.len(), 1 | 2) {
        return Err(SpsaPlanError::Engines { count: plan.engines.len() });
    }
    let tuned = plan.engines[0].clone();
    let opponent = plan.engines.get(1).cloned();
    let (engines, tournament) = SpsaPlan::match_engines(&tuned, opponent.as_ref());
    plan.engines = engines;
    plan.tournament = tournament;
    plan.length = MatchLength::Rounds(pairs);
    plan.sprt = None;
    plan.validate()?;

    let text = read_params_file(&params_file)?;
    let shown_path = params_file.display().to_string();
    let params = parse_params(&text, &shown_path)?;
    let engine = tuned.load(plan.game)?;
    let (options, whole) = engine_options(&engine)?;
    let names = if whole || !matches!(engine.kind, EngineKind::Uci(_)) {
        check_against(&params, &text, &shown_path, &engine.name, &options)?
    } else {
        warn(&format!(
            "warning: {}: the engine's reply to `uci` was too long to read whole; the parameters are sent unchecked",
            engine.name
        ));
        params.iter().map(|p| p.name.clone()).collect()
    };
    schedule.check(&params).map_err(|source| SpsaPlanError::Schedule { file: shown_path.clone(), source })?;
    Ok(SpsaPlan {
        format: SPSA_FORMAT,
        params_file: shown_path,
        params,
        names,
        schedule,
        pairs_per_iteration: pairs,
        plan,
        fingerprint: None,
    })
}
