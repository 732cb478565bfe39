//! The validation of a finished SPSA run (`arbiter spsa --validate`): the tuned values against the start values
//! in a match that stops at an SPRT's decision, in the run's `validate/` folder (or another), resumed where an
//! earlier validation stopped ([`validate`]). The built-in engine plays each side as a config written beside the
//! run (`validate-tuned.toml`, `validate-start.toml`); an external engine gets the values as options.

use super::gains::shown_value;
use super::run::{SpsaError, SpsaPlan, SpsaRun, with_values};
use crate::engine::Build;
use crate::notation::kv::KeyValueError;
use crate::player::{EngineArgError, EngineKind};
use crate::runner::plan::{EngineBuild, EnginePlan, SprtPlan, UciPlan, parse_sprt};
use crate::runner::run::{ResumeOverrides, RunEnd, RunError, RunObserver};
use crate::runner::rundir::output::RUN_TOML;
use crate::runner::{MatchLength, Tournament};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use thiserror::Error;

/// The SPRT of a validation unless one is given.
pub const VALIDATE_SPRT: &str = "elo0=0,elo1=10";

/// The most games a validation plays unless told otherwise.
pub const VALIDATE_GAMES: u64 = 20_000;

/// What a validation plays: at most `games` games (default [`VALIDATE_GAMES`]) until the SPRT `sprt` decides
/// (the `--sprt` form, default [`VALIDATE_SPRT`]), into `out` (default the run's `validate/`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Validation {
    /// The most games.
    pub games: Option<u64>,
    /// The SPRT, `key=value` items separated by commas.
    pub sprt: Option<String>,
    /// The match's run folder.
    pub out: Option<PathBuf>,
}

/// Why a validation cannot start or did not finish.
#[derive(Debug, Error)]
pub enum ValidationError {
    /// The tuned engine's build does not load.
    #[error(transparent)]
    Engine(#[from] EngineArgError),
    /// The values cannot be given to the engine.
    #[error(transparent)]
    Values(#[from] SpsaError),
    /// The SPRT does not read.
    #[error("the validation's SPRT: {0}")]
    Sprt(#[from] KeyValueError),
    /// A side's config cannot be written.
    #[error("{path}: cannot write: {source}")]
    Write {
        /// The config file.
        path: String,
        /// The operating-system error.
        source: std::io::Error,
    },
    /// A built-in engine that is not the chess engine (which `with_values` refuses first).
    #[error("the validation tunes only the chess engine's weights")]
    NotChess,
    /// The match.
    #[error(transparent)]
    Run(#[from] RunError),
}

impl ValidationError {
    /// Whether the error is the user's input (exit 2), not the system's.
    pub fn is_input(&self) -> bool {
        match self {
            ValidationError::Run(error) => error.is_input(),
            ValidationError::Write { .. } | ValidationError::NotChess => false,
            _ => true,
        }
    }

    /// Whether the error is Arbiter's own fault.
    pub fn is_internal(&self) -> bool {
        matches!(self, ValidationError::NotChess)
    }
}

/// Whether `run`'s tuned values, as sent to the engine, are its start values (a validation would then play one
/// build against itself).
pub fn tuned_is_start(plan: &SpsaPlan, run: &SpsaRun) -> bool {
    let start = plan.start_values();
    plan.params.iter().zip(run.theta.iter().zip(start)).all(|(p, (&a, b))| shown_value(p, a) == shown_value(p, b))
}

/// The build of the tuned engine at `values`, named `name`: an external engine with the values as options, the
/// built-in engine as a config written to `file`.
fn build_at(plan: &SpsaPlan, values: &[f64], name: &str, file: &Path) -> Result<EnginePlan, ValidationError> {
    let (plus, _) = plan.sides();
    let side_plan = &plan.plan.engines[plus];
    let side = side_plan.load(plan.plan.game)?;
    let spec = with_values(&side, name, &plan.params, &plan.names, values)?;
    let mut engine = EnginePlan { name: name.to_string(), ..side_plan.clone() };
    match &spec.kind {
        EngineKind::Builtin(build) => {
            let Build::Chess(config) = build else { return Err(ValidationError::NotChess) };
            std::fs::write(file, config.to_toml())
                .map_err(|source| ValidationError::Write { path: file.display().to_string(), source })?;
            engine.build = EngineBuild::Config { path: file.to_path_buf() };
            engine.source = file.display().to_string();
        }
        // The side's plan is absolute already: only its options change.
        EngineKind::Uci(uci) => engine.build = EngineBuild::Uci(UciPlan::from(uci)),
    }
    Ok(engine)
}

/// Plays `run`'s tuned values against `plan`'s start values until the SPRT decides (or goes on with the
/// validation in the folder, when an earlier one was interrupted), telling `observer` as a match does.
///
/// # Errors
/// [`ValidationError`]: the builds, the SPRT, the match.
pub fn validate(
    plan: &SpsaPlan,
    run: &SpsaRun,
    validation: &Validation,
    observer: &mut dyn RunObserver,
    interrupt: &AtomicBool,
) -> Result<RunEnd, ValidationError> {
    let out = validation.out.clone().unwrap_or_else(|| run.dir.join("validate"));
    if out.join(RUN_TOML).exists() {
        observer.note(&format!("arbiter spsa: validating: resuming the match in {}", out.display()));
        return Ok(crate::runner::rundir::resume::resume(&out, ResumeOverrides::default(), observer, interrupt)?);
    }
    if tuned_is_start(plan, run) {
        observer.note(
            "warning: the tuned values, as sent to the engine, are the start values: the validation plays one build \
             against itself",
        );
    }
    let tuned = build_at(plan, &run.theta, "tuned", &run.dir.join("validate-tuned.toml"))?;
    let start = build_at(plan, &plan.start_values(), "start", &run.dir.join("validate-start.toml"))?;
    let sprt = validation.sprt.as_deref().unwrap_or(VALIDATE_SPRT);
    let games = validation.games.unwrap_or(VALIDATE_GAMES);
    let mut match_plan = plan.plan.clone();
    match_plan.engines = vec![tuned, start];
    match_plan.tournament = Tournament::RoundRobin;
    match_plan.sprt = Some(SprtPlan::of(&parse_sprt(sprt)?));
    match_plan.length = MatchLength::Games(games);
    match_plan.output.out = Some(out.clone());
    match_plan.output.rating_interval = 0;
    observer.note(&format!(
        "arbiter spsa: validating: tuned against start values, SPRT {sprt}, at most {games} games, in {}",
        out.display()
    ));
    Ok(crate::runner::run::run(&match_plan, observer, interrupt)?)
}
