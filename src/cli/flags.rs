//! The flag names of the command line, added to the library's errors: the library names a value (the
//! `games` of a plan, the engine that failed, the folder to resume), and the command line says which of its
//! flags gave it (`--games`, `--engine`, `--resume`). [`flagged`] is the error line of every command.

use arbiter::game::opening::OpeningError;
use arbiter::games::Unplayable;
use arbiter::notation::kv::KeyValueError;
use arbiter::player::bench::BenchError;
use arbiter::player::{EngineArgError, PlayerError};
use arbiter::runner::plan::{HashAdvice, PlanError, PlanField, TcScaleError};
use arbiter::runner::run::RunError;
use arbiter::runner::rundir::merge::MergeError;
use arbiter::selfplay::book::BookError;
use arbiter::selfplay::datagen::DatagenError;
use arbiter::selfplay::datagen::output::ResumeError;
use arbiter::spsa::plan::SpsaPlanError;
use arbiter::spsa::run::SpsaError;
use arbiter::spsa::validate::ValidationError;
use arbiter::stats::{ShardModelError, SimulationPlanError};
use arbiter::suite::compare::CompareError;
use arbiter::suite::epd::EpdError;

/// What sets a move limit in `arbiter match`, for the refusal of an external engine without one
/// ([`arbiter::player::EngineSpec::require_limit`]).
pub const MATCH_LIMIT_FLAGS: &str =
    "tc=, st=, nodes= or depth= in its --engine or in --each, or --tc, --nodes, --depth or --movetime-ms";

/// The flags and spec keys that give `arbiter datagen` a move limit, as the no-limit refusal names them.
pub const DATAGEN_LIMIT_FLAGS: &str =
    "--nodes N, --depth N, --movetime-ms MS or --tc TC, or nodes=/depth=/st=/tc= in its --engine spec";

/// The flags and spec keys that give `arbiter epd` a search limit, as the no-limit refusal names them.
pub const EPD_LIMIT_FLAGS: &str = "--nodes N, --depth N or --movetime-ms N (or nodes=, depth= or st= in its spec)";

/// A library error whose message starts with the request field `field` (`max_games`), with the flag of that
/// field (`--max-games`) in its place.
fn field_text(error: &dyn std::fmt::Display, field: &str) -> String {
    let text = error.to_string();
    let rest = text.strip_prefix(field).unwrap_or(&text);
    format!("--{}{rest}", field.replace('_', "-"))
}

/// [`OpeningError::PliesForEpd`] as the command line says it, naming its flag of plies.
fn plies_for_epd(file: &str, flag: &str) -> String {
    format!("{file}: {flag} applies to PGN openings only; this is an EPD file")
}

/// A [`KeyValueError`] as the command line says it: the library names the value (`engine`, `sprt`,
/// `openings`), which is the flag's long name.
fn key_value_text(error: &KeyValueError) -> String {
    format!("--{error}")
}

/// An [`EngineArgError`] as the command line says it; `limits` names the command's flags that set a move
/// limit, for the refusal of an external engine without one.
pub(crate) fn engine_text(error: &EngineArgError, limits: &str) -> String {
    match error {
        EngineArgError::KeyValue(error) => key_value_text(error),
        EngineArgError::NoBuiltinEngine { .. } => format!("--game {error}"),
        EngineArgError::NoLimit { .. } => format!("--engine: {error}; give {limits}"),
        EngineArgError::WrongGame { path, is: "xiangqi", plays, .. } => format!(
            "--engine: {path}: a xiangqi build, but this match plays {plays}; add --game xiangqi, or give a chess \
             build (the layout of configs/seed.toml)"
        ),
        EngineArgError::VariantOption { name, option, game } => format!(
            "--engine: {name}: option.{option}= cannot be given with --game {game}: Arbiter sets UCI_Variant to {game}"
        ),
        _ => format!("--engine: {error}"),
    }
}

/// A [`PlayerError`] as the command line says it: an option the engine does not list names the flag that
/// sends it anyway.
fn player_text(error: &PlayerError) -> String {
    match error {
        PlayerError::UnknownOption { .. } => {
            format!("{error}; check the name, or give --allow-unknown-options to send it anyway")
        }
        other => other.to_string(),
    }
}

/// A [`BenchError`] as the command line says it.
fn bench_text(error: &BenchError) -> String {
    match error {
        BenchError::ArgsForBuiltin { engine } => format!(
            "engine {engine}: bench arguments (--bench-args) apply to external engines; give --depth for the \
             built-in engine"
        ),
        BenchError::DepthForExternal { engine } => format!(
            "engine {engine}: --depth applies to the built-in engine: engines read `bench` arguments differently; \
             pass them with --bench-args (Stockfish: \"16 1 DEPTH default depth\", Ethereal: \"DEPTH\")"
        ),
        BenchError::Timeout { seconds, .. } => {
            let limit = format!("within {seconds} s");
            error.to_string().replacen(&limit, &format!("{limit} (--bench-timeout)"), 1)
        }
        other => other.to_string(),
    }
}

/// A [`ResumeError`] of `arbiter datagen` as the command line says it.
fn datagen_resume_text(error: &ResumeError) -> String {
    match error {
        ResumeError::Exists(path) => format!(
            "--out: {} already exists; pass --force to replace it or --resume to continue the run",
            path.display()
        ),
        ResumeError::NoProgress(path) => format!(
            "--resume: {} does not exist, so there is no run to continue; start it without --resume",
            path.display()
        ),
        ResumeError::Missing(path) => format!(
            "--resume: {} does not exist, so the run cannot continue; start it again with --force",
            path.display()
        ),
        ResumeError::Io { .. } => error.to_string(),
        _ => format!("--resume: {error}"),
    }
}

/// A [`DatagenError`] as the command line says it.
fn datagen_text(error: &DatagenError) -> String {
    match error {
        DatagenError::Engines(n) => {
            format!("--engine given {n} times: datagen plays one engine against itself or two against each other")
        }
        DatagenError::ZeroLimit => "--depth and --movetime-ms must be at least 1".to_string(),
        DatagenError::MaxPlies { max_plies, plies } => {
            format!("--maxplies {max_plies}: expected more than --plies ({plies})")
        }
        DatagenError::NoLimit(error) => engine_text(error, DATAGEN_LIMIT_FLAGS),
        DatagenError::NoOpening { .. } => {
            error.to_string().replace("widen the window or change the random plies", "widen --window or change --plies")
        }
        DatagenError::Resume(error) => datagen_resume_text(error),
        DatagenError::Book(OpeningError::PliesForEpd { file }) => {
            format!("--book: {}", plies_for_epd(file, "--book-plies"))
        }
        DatagenError::Start(error) => player_text(error),
        other => match other.field() {
            Some(field) => field_text(other, field),
            None => other.to_string(),
        },
    }
}

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
        PlanField::OpeningsDepth => "--openings depth",
        PlanField::Tablebase => "--tb",
        PlanField::TablebasePieces => "--tbpieces",
        PlanField::Seeds => "--seeds",
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
        PlanError::Game(_) => format!("--game {error}"),
        PlanError::Openings(OpeningError::PliesForEpd { file }) => plies_for_epd(file, "--plies"),
        PlanError::KeyValue(error) => key_value_text(error),
        PlanError::Engine(error) => engine_text(error, MATCH_LIMIT_FLAGS),
        PlanError::Tablebase(error) => format!("--tb: {error}"),
        other => other.to_string(),
    }
}

/// A [`RunError`] as the command line says it.
pub(crate) fn run_text(error: &RunError) -> String {
    match error {
        RunError::Plan(error) => plan_text(error),
        RunError::Engine(error) => format!("--engine: {}", player_text(error)),
        RunError::Bench(error) => format!("--engine: {}; the match is refused", bench_text(error)),
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
        SpsaError::Engine(_) => format!("--engine {error}"),
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
            SpsaPlanError::Engine(error) => engine_text(error, MATCH_LIMIT_FLAGS),
            other => other.to_string(),
        });
    }
    if let Some(error) = error.downcast_ref::<ValidationError>() {
        return Some(match error {
            ValidationError::Run(error) => run_text(error),
            ValidationError::Values(error) => spsa_text(error),
            ValidationError::Engine(error) => engine_text(error, MATCH_LIMIT_FLAGS),
            ValidationError::Sprt(error) => format!("the validation's SPRT: {}", key_value_text(error)),
            other => other.to_string(),
        });
    }
    match error.downcast_ref::<MergeError>() {
        Some(MergeError::Plan(error)) => return Some(plan_text(error)),
        Some(MergeError::Unfinished { dir, .. }) => {
            return Some(format!("{error} with `arbiter match --resume {dir}`"));
        }
        Some(MergeError::NoCommonFolder) => {
            return Some("the shard folders lie in different folders: give --out DIR".to_string());
        }
        _ => {}
    }
    if let Some(error) = error.downcast_ref::<SimulationPlanError>() {
        return Some(field_text(error, error.field()));
    }
    if let Some(error) = error.downcast_ref::<ShardModelError>() {
        return Some(field_text(error, error.field()));
    }
    if let Some(error) = error.downcast_ref::<PlayerError>() {
        return Some(player_text(error));
    }
    if let Some(error) = error.downcast_ref::<BenchError>() {
        return Some(bench_text(error));
    }
    if let Some(error) = error.downcast_ref::<BookError>() {
        return Some(field_text(error, error.field()));
    }
    if let Some(error) = error.downcast_ref::<DatagenError>() {
        return Some(datagen_text(error));
    }
    if let Some(error) = error.downcast_ref::<EngineArgError>() {
        return Some(engine_text(error, MATCH_LIMIT_FLAGS));
    }
    if let Some(error) = error.downcast_ref::<KeyValueError>() {
        return Some(key_value_text(error));
    }
    if let Some(error) = error.downcast_ref::<Unplayable>() {
        return Some(format!("--game {error}"));
    }
    if let Some(TcScaleError::Engine(error)) = error.downcast_ref::<TcScaleError>() {
        return Some(engine_text(error, MATCH_LIMIT_FLAGS));
    }
    match error.downcast_ref::<EpdError>() {
        Some(EpdError::NoLimit(error)) => return Some(engine_text(error, EPD_LIMIT_FLAGS)),
        Some(EpdError::Start(error)) => return Some(player_text(error)),
        _ => {}
    }
    match error.downcast_ref::<CompareError>() {
        Some(CompareError::Spec(error)) => return Some(engine_text(error, MATCH_LIMIT_FLAGS)),
        Some(CompareError::Option(error)) => return Some(player_text(error)),
        Some(CompareError::Command { text, reason }) => {
            return Some(format!("--compare-with {}: {reason}", arbiter::notation::quote::shown(text)));
        }
        _ => {}
    }
    None
}
