//! The match plan: everything that defines a match, typed and serializable, so that a run folder's `run.toml`
//! holds the match itself (not the command line that asked for it).
//!
//! A [`MatchPlan`] names its engines ([`EnginePlan`]: a built-in build, a config file or an external UCI engine,
//! with its move limits), its openings ([`OpeningsPlan`]: the file, its format, order, plies and first opening),
//! the game and variant, the schedule (seed, tournament, colours, length, shard), adjudication, the SPRT and
//! the output options. Paths in a plan are absolute (resolved against the working directory when the plan was
//! made), so nothing that reads it later needs a working directory.
//!
//! [`MatchPlan::validate`] checks what can be checked without reading a file; [`MatchPlan::spec`] reads the
//! engines' config files and the openings and builds the [`MatchSpec`] the scheduler plays. Both return a
//! [`PlanError`].
//!
//! The schedule fingerprint ([`super::rundir::runfile::Fingerprint`]) hashes a canonical encoding of the parts of the
//! plan that decide the games ([`canonical_json`]): see `results/README.md`.

use super::adjudication::{AdjudicationRules, DrawAdjudication, ResignAdjudication};
use super::openings::{OpeningOrder, load_game_openings};
use super::scheduler::{MAX_CONCURRENCY, MatchLength, MatchSpec, Shard, Tournament};
use crate::chess::Variant;
use crate::engine::chess::EngineConfig;
use crate::engine::chess::config::ConfigError;
use crate::engine::xiangqi::{XiangqiConfig, XiangqiConfigError};
use crate::game::Game;
use crate::game::opening::{OpeningError, OpeningFormat};
use crate::games::GameKind;
use crate::notation::kv::{KeyValueError, KeyValues};
use crate::player::UciEngine;
use crate::player::timecontrol::TimeControl;
use crate::player::{EngineKind, EngineSpec, MoveLimit};
use crate::stats::{EloModel, SprtSpec};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// The format version of [`MatchPlan`] that this build writes and reads.
pub const PLAN_FORMAT: u32 = 1;

/// The default opening book, relative to the project root: the project's own balanced book.
pub const DEFAULT_BOOK: &str = "suites/openings/arbiter-book.epd";

/// The default opening book of `--game xiangqi`, relative to the project root: Arbiter's balanced Xiangqi book
/// (`arbiter book --game xiangqi`).
pub const DEFAULT_XIANGQI_BOOK: &str = "suites/openings/xiangqi-book.epd";

/// The default node limit per move of a built-in engine when no limit is given (an external engine without a
/// limit is refused: [`EngineSpec::require_limit`](crate::player::EngineSpec::require_limit)).
pub const DEFAULT_NODES: u64 = 5000;

/// The default seed of the random opening order.
pub const DEFAULT_SEED: u64 = 1;

/// The SPRT a two-engine match runs when neither `--sprt` nor a length is given: nElo [0, 10], alpha = beta =
/// 0.05.
pub const DEFAULT_SPRT: &str = "elo0=0,elo1=10";

/// The longest run name, in characters.
pub const MAX_NAME_CHARS: usize = 100;

/// The default `--ratinginterval`: the reports are printed every 10 games (cutechess-cli's habit).
pub const DEFAULT_RATING_INTERVAL: u64 = 10;

/// Why a plan cannot be played: a value out of range, a conflict, or an engine, config or opening file that
/// cannot be read. Every variant is the user's input (exit 2 in the command line). The messages name the
/// flags of `arbiter match` that set the value.
#[derive(Debug, Error)]
pub enum PlanError {
    /// A value out of its range, or two values that do not go together; the message says which.
    #[error("{0}")]
    Invalid(String),
    /// The run name is not a folder name and PGN tag value.
    #[error("--name {shown}: {problem}")]
    BadName {
        /// The name, cut to 40 characters (with `...` when cut), quoted.
        shown: String,
        /// What is wrong.
        problem: &'static str,
    },
    /// The plan's game cannot be played by `arbiter match` (checkers).
    #[error("{0}")]
    Game(#[from] crate::games::Unplayable),
    /// A value of a key=value flag (`--sprt`, `--draw`, `--resign`, `--openings`).
    #[error(transparent)]
    KeyValue(#[from] KeyValueError),
    /// An engine's chess config file cannot be read.
    #[error("--engine: {0}")]
    Config(#[from] ConfigError),
    /// An engine's Xiangqi config file cannot be read.
    #[error("--engine: {0}")]
    XiangqiConfig(#[from] XiangqiConfigError),
    /// A built-in build that this game does not have.
    #[error("--engine: `{name}` is not a built-in build of {game}")]
    NotBuiltin {
        /// The build's name.
        name: String,
        /// The game.
        game: &'static str,
    },
    /// The opening file cannot be read or holds a bad opening.
    #[error(transparent)]
    Openings(#[from] OpeningError),
    /// The default opening book is not where it should be.
    #[error("the default opening book {book} was not found; pass --openings FILE")]
    NoDefaultBook {
        /// The book's path relative to the project root.
        book: &'static str,
    },
    /// The working directory cannot be read (to make a relative path absolute).
    #[error("the working directory: {0}")]
    WorkingDirectory(std::io::Error),
}

/// Everything that defines a match: the typed form of `arbiter match`'s flags, stored in `run.toml`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchPlan {
    /// The format version of the plan, [`PLAN_FORMAT`].
    pub format: u32,
    /// The game: chess or Xiangqi.
    #[serde(with = "game_name")]
    pub game: GameKind,
    /// The chess variant (standard for Xiangqi).
    #[serde(with = "variant_name", default, skip_serializing_if = "is_standard")]
    pub variant: Variant,
    /// The entrants, two or more, with unique names; the first is the one an SPRT tests.
    pub engines: Vec<EnginePlan>,
    /// The openings.
    pub openings: OpeningsPlan,
    /// The seed of the random opening order.
    #[serde(with = "wide")]
    pub seed: u64,
    /// How the entrants are paired.
    pub tournament: Tournament,
    /// Whether game 1 of each pair swaps colours (false under `--noswap`).
    pub swap: bool,
    /// How many games.
    pub length: MatchLength,
    /// Adjudication.
    #[serde(default, skip_serializing_if = "is_default")]
    pub adjudication: AdjudicationRules,
    /// The SPRT that may stop the match early (two engines only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<SprtPlan>,
    /// The part of the schedule to play; `None` for all of it.
    #[serde(with = "shard_text", default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    /// Games played at once (1 to [`MAX_CONCURRENCY`]); `None` for one per core. Not part of the schedule.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub concurrency: Option<u32>,
    /// Restart a player whose process failed and go on (`--recover`). Not part of the schedule.
    #[serde(default, skip_serializing_if = "is_false")]
    pub recover: bool,
    /// Check every `bench=` signature again at each worker's first start of the engine (`--bench-check`), not
    /// only once before the match. Not part of the schedule.
    #[serde(default, skip_serializing_if = "is_false")]
    pub bench_check: bool,
    /// How the time controls were scaled to the machine that started the run (`--tc-scale-nps`): the engines'
    /// limits in this plan are the scaled ones, and a resume keeps them, on any machine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tc_scale: Option<TcScalePlan>,
    /// Where and how the results are written. Not part of the schedule.
    pub output: OutputPlan,
}

/// The time scaling of a run (`--tc-scale-nps REF`): every time control multiplied by `factor` =
/// `reference_nps / measured_nps` ([`tc_scale_factor`](crate::player::bench::tc_scale_factor)).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TcScalePlan {
    /// The reference speed given, in nodes per second.
    #[serde(with = "wide")]
    pub reference_nps: u64,
    /// The speed measured by the bench of `engine` on the machine that started the run.
    #[serde(with = "wide")]
    pub measured_nps: u64,
    /// The engine whose bench was measured (the first engine).
    pub engine: String,
    /// The factor applied to every time: `reference_nps / measured_nps`.
    pub factor: f64,
    /// The limits before scaling, per engine in order, as `MoveLimit` shows them (`tc 10+0.1`), for the record.
    pub unscaled: Vec<String>,
}

/// One entrant of a match as planned: its name, its build and its move limits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnginePlan {
    /// The unique name used in PGN tags, the CSV and the summary.
    pub name: String,
    /// What to run.
    pub build: EngineBuild,
    /// Where the build came from, in words, as the summary shows it: the config file as given, `built-in`, or
    /// the command line of an external engine as given.
    pub source: String,
    /// How long the engine may think per move (scaled already when the plan has a [`TcScalePlan`]).
    pub limit: LimitPlan,
    /// The bench signature checked before the match (`bench=N`).
    #[serde(with = "wide_option", default, skip_serializing_if = "Option::is_none")]
    pub bench: Option<u64>,
}

/// What an entrant runs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum EngineBuild {
    /// The built-in build of the game named like the entrant (`seed`, `nomob`; Xiangqi `seed`, `nopsqt`), or
    /// named `build` when the entrant has a name of its own (the sides `seed+` and `seed-` of an SPSA run).
    Builtin {
        /// The build's name when it is not the entrant's.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        build: Option<String>,
    },
    /// The built-in engine with the config file at `path` (absolute), read when the match starts.
    Config {
        /// The config file.
        path: PathBuf,
    },
    /// An external engine process spoken to over UCI.
    Uci(UciPlan),
}

/// How to run an external UCI engine: [`UciEngine`]'s fields, with paths absolute.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UciPlan {
    /// The program: an absolute path, or a name looked up on `PATH` (or a path relative to `dir`).
    pub cmd: String,
    /// Its arguments.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
    /// Its working directory (absolute); the runner's when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dir: Option<PathBuf>,
    /// UCI options set after the handshake, in order: `[name, value]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<(String, String)>,
    /// Start a fresh process before every game.
    #[serde(default, skip_serializing_if = "is_false")]
    pub restart: bool,
    /// Time for `uciok` and the first `readyok`, in ms.
    #[serde(with = "wide")]
    pub handshake_timeout_ms: u64,
    /// Time for `readyok` before a game and for `bestmove` after `stop`, in ms.
    #[serde(with = "wide")]
    pub ping_timeout_ms: u64,
    /// Longest untimed search before the engine counts as stalled, in ms.
    #[serde(with = "wide")]
    pub stall_timeout_ms: u64,
    /// Send options the engine does not list instead of refusing it (`--allow-unknown-options`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub allow_unknown_options: bool,
}

/// The plan of an engine as given (its paths as they are; [`EnginePlan`] makes them absolute).
impl From<&UciEngine> for UciPlan {
    fn from(engine: &UciEngine) -> UciPlan {
        UciPlan {
            cmd: engine.cmd.clone(),
            args: engine.args.clone(),
            dir: engine.dir.clone(),
            options: engine.options.clone(),
            restart: engine.restart,
            handshake_timeout_ms: engine.handshake_timeout_ms,
            ping_timeout_ms: engine.ping_timeout_ms,
            stall_timeout_ms: engine.stall_timeout_ms,
            allow_unknown_options: engine.allow_unknown_options,
        }
    }
}

/// The engine a plan runs.
impl From<&UciPlan> for UciEngine {
    fn from(plan: &UciPlan) -> UciEngine {
        UciEngine {
            cmd: plan.cmd.clone(),
            args: plan.args.clone(),
            dir: plan.dir.clone(),
            options: plan.options.clone(),
            restart: plan.restart,
            handshake_timeout_ms: plan.handshake_timeout_ms,
            ping_timeout_ms: plan.ping_timeout_ms,
            stall_timeout_ms: plan.stall_timeout_ms,
            allow_unknown_options: plan.allow_unknown_options,
        }
    }
}

/// An entrant's move limits: [`MoveLimit`]'s fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitPlan {
    /// Maximum search depth in plies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// Maximum nodes searched.
    #[serde(with = "wide_option", default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// Thinking time per move in milliseconds.
    #[serde(with = "wide_option", default, skip_serializing_if = "Option::is_none")]
    pub movetime_ms: Option<u64>,
    /// A clock kept by the runner.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tc: Option<TimeControl>,
    /// How far a move may overrun, in milliseconds.
    #[serde(with = "wide", default, skip_serializing_if = "is_zero")]
    pub timemargin_ms: u64,
}

/// The openings of a match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpeningsPlan {
    /// The opening file (absolute).
    pub file: PathBuf,
    /// The file as the summary shows it (as given on the command line).
    pub shown: String,
    /// The file format; `None` to detect it.
    #[serde(with = "format_name", default, skip_serializing_if = "Option::is_none")]
    pub format: Option<OpeningFormat>,
    /// The opening order.
    #[serde(with = "order_name")]
    pub order: OpeningOrder,
    /// Book plies of PGN openings (the whole game when `None`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plies: Option<usize>,
    /// The 1-based number, in playing order, of the first opening played.
    pub start: usize,
}

/// An SPRT's bounds, error rates and model.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SprtPlan {
    /// H0, in the model's units.
    pub elo0: f64,
    /// H1.
    pub elo1: f64,
    /// False-positive rate.
    pub alpha: f64,
    /// False-negative rate.
    pub beta: f64,
    /// The Elo model.
    #[serde(with = "model_name")]
    pub model: EloModel,
}

impl SprtPlan {
    /// The plan of `sprt`.
    pub fn of(sprt: &SprtSpec) -> SprtPlan {
        SprtPlan { elo0: sprt.elo0(), elo1: sprt.elo1(), alpha: sprt.alpha(), beta: sprt.beta(), model: sprt.model() }
    }

    /// The SPRT of this plan.
    ///
    /// # Errors
    /// [`PlanError::Invalid`] for values [`SprtSpec::new`] refuses.
    pub fn spec(&self) -> Result<SprtSpec, PlanError> {
        SprtSpec::new(self.elo0, self.elo1, self.alpha, self.beta, self.model)
            .map_err(|e| PlanError::Invalid(format!("--sprt: {e}")))
    }
}

/// Where and how a match writes its results.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutputPlan {
    /// The run folder (absolute); `None` for `results/NAME-N` under `results` (below).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub out: Option<PathBuf>,
    /// The folder that holds the default run folders (absolute `results`), used when `out` is `None`.
    pub results: PathBuf,
    /// The run name: the stem of the default run folder and the PGN `Event` tag.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Whether `games.pgn` holds a comment after each move.
    pub pgn_comments: bool,
    /// Print the reports every N games (0: only at the end).
    #[serde(with = "wide")]
    pub rating_interval: u64,
}

impl OutputPlan {
    /// The PGN `Event` tag of a run: its name, else `arbiter match`.
    pub fn event(&self) -> String {
        self.name.clone().unwrap_or_else(|| "arbiter match".to_string())
    }
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

fn is_standard(v: &Variant) -> bool {
    *v == Variant::Standard
}

fn is_default<T: Default + PartialEq>(t: &T) -> bool {
    *t == T::default()
}

impl LimitPlan {
    /// The plan of `limit`.
    pub fn of(limit: &MoveLimit) -> LimitPlan {
        LimitPlan {
            depth: limit.depth,
            nodes: limit.nodes,
            movetime_ms: limit.movetime_ms,
            tc: limit.tc,
            timemargin_ms: limit.timemargin_ms,
        }
    }

    /// The move limit of this plan.
    pub fn limit(&self) -> MoveLimit {
        MoveLimit {
            depth: self.depth,
            nodes: self.nodes,
            movetime_ms: self.movetime_ms,
            tc: self.tc,
            timemargin_ms: self.timemargin_ms,
        }
    }
}

/// `path` made absolute against `cwd` (not resolved through links: the file may not exist yet).
pub fn absolute(path: &Path, cwd: &Path) -> PathBuf {
    if path.is_absolute() { path.to_path_buf() } else { cwd.join(path) }
}

/// The working directory, for [`absolute`].
///
/// # Errors
/// [`PlanError::WorkingDirectory`] when it cannot be read.
pub fn working_directory() -> Result<PathBuf, PlanError> {
    std::env::current_dir().map_err(PlanError::WorkingDirectory)
}

impl EnginePlan {
    /// The plan of the entrant `spec` (as the command line reads it), its paths made absolute against `cwd`.
    pub fn of(spec: &EngineSpec, cwd: &Path) -> EnginePlan {
        let build = match &spec.kind {
            EngineKind::Builtin(_) | EngineKind::XiangqiBuiltin(_) if spec.source == "built-in" => {
                EngineBuild::Builtin { build: None }
            }
            EngineKind::Builtin(_) | EngineKind::XiangqiBuiltin(_) => {
                EngineBuild::Config { path: absolute(Path::new(&spec.source), cwd) }
            }
            EngineKind::Uci(engine) => {
                let dir = engine.dir.as_deref().map(|dir| absolute(dir, cwd));
                // A relative program path is relative to the engine's own folder when it has one, else to the
                // working directory; a bare name is looked up on PATH.
                let cmd = if dir.is_none() && engine.cmd.contains('/') {
                    absolute(Path::new(&engine.cmd), cwd).display().to_string()
                } else {
                    engine.cmd.clone()
                };
                EngineBuild::Uci(UciPlan { cmd, dir, ..UciPlan::from(engine) })
            }
        };
        EnginePlan {
            name: spec.name.clone(),
            build,
            source: spec.source.clone(),
            limit: LimitPlan::of(&spec.limit),
            bench: spec.bench,
        }
    }

    /// The entrant of this plan in `game`: a built-in build, a config file read now, or an external engine.
    ///
    /// # Errors
    /// [`PlanError::NotBuiltin`], [`PlanError::Config`] or [`PlanError::XiangqiConfig`].
    pub fn load(&self, game: GameKind) -> Result<EngineSpec, PlanError> {
        let mut spec = match (&self.build, game) {
            (EngineBuild::Builtin { build }, GameKind::Xiangqi) => {
                let named = build.as_deref().unwrap_or(&self.name);
                XiangqiConfig::builtin(named)
                    .map(|config| EngineSpec::xiangqi(&self.name, config, &self.source))
                    .ok_or(PlanError::NotBuiltin { name: named.to_string(), game: "xiangqi" })?
            }
            (EngineBuild::Builtin { build }, _) => {
                let named = build.as_deref().unwrap_or(&self.name);
                EngineSpec::builtin(named)
                    .map(|spec| EngineSpec { name: self.name.clone(), ..spec })
                    .map(|mut spec| {
                        if let EngineKind::Builtin(config) = &mut spec.kind {
                            config.name = self.name.clone();
                        }
                        spec
                    })
                    .ok_or(PlanError::NotBuiltin { name: named.to_string(), game: "chess" })?
            }
            (EngineBuild::Config { path }, GameKind::Xiangqi) => {
                EngineSpec::xiangqi(&self.name, XiangqiConfig::load(path)?, &self.source)
            }
            (EngineBuild::Config { path }, _) => {
                EngineSpec::from_config(&self.name, EngineConfig::load(path)?, &self.source)
            }
            (EngineBuild::Uci(uci), _) => EngineSpec::uci(&self.name, UciEngine::from(uci)),
        };
        spec.source = self.source.clone();
        spec.limit = self.limit.limit();
        spec.bench = self.bench;
        Ok(spec)
    }
}

/// Checks a run name: a folder name and a PGN tag value.
///
/// # Errors
/// [`PlanError::BadName`] saying what is wrong.
pub fn check_run_name(name: &str) -> Result<(), PlanError> {
    let problem = if name.is_empty() || name.starts_with('.') || name.contains(['/', '\\']) {
        "a run name is a folder name, without '/', '\\' or a leading '.'"
    } else if name.chars().any(char::is_control) {
        "a run name must not hold control characters"
    } else if name.chars().count() > MAX_NAME_CHARS {
        "a run name has at most 100 characters"
    } else {
        return Ok(());
    };
    let cut: String = name.chars().take(40).collect();
    let more = if name.chars().count() > 40 { "..." } else { "" };
    Err(PlanError::BadName { shown: format!("{cut:?}{more}"), problem })
}

/// The book Arbiter makes for `game` (`arbiter book --game`) and plays by default (`arbiter match --game`),
/// relative to the project root: [`DEFAULT_BOOK`] for chess, [`DEFAULT_XIANGQI_BOOK`] for Xiangqi, none for checkers
/// (which Arbiter does not play).
pub fn book_of(game: GameKind) -> Option<&'static str> {
    match game {
        GameKind::Chess => Some(DEFAULT_BOOK),
        GameKind::Xiangqi => Some(DEFAULT_XIANGQI_BOOK),
        GameKind::Russian | GameKind::English => None,
    }
}

/// The default book of `game` ([`book_of`]) under `cwd`, else under the source tree the binary was built
/// from: the path to show (relative under `cwd`) and the absolute path.
///
/// # Errors
/// [`PlanError::NoDefaultBook`] when it is in neither place.
pub fn default_book(game: GameKind, cwd: &Path) -> Result<(String, PathBuf), PlanError> {
    let book = book_of(game).ok_or(PlanError::Game(crate::games::Unplayable { game, command: "match" }))?;
    let here = cwd.join(book);
    if here.exists() {
        return Ok((book.to_string(), here));
    }
    let built = Path::new(env!("CARGO_MANIFEST_DIR")).join(book);
    if built.exists() {
        return Ok((built.display().to_string(), built));
    }
    Err(PlanError::NoDefaultBook { book })
}

/// Parses an `--sprt` value: `elo0=E0,elo1=E1[,alpha=A][,beta=B][,model=normalized|logistic|bayeselo]`, with
/// alpha = beta = 0.05 and the normalized model by default. The ranges are [`SprtSpec::new`]'s, the one check
/// `arbiter sprt` shares.
///
/// # Errors
/// A [`KeyValueError`] naming `--sprt` and the key: a value that is not a number or a model, or
/// ([`KeyValueError::Invalid`]) one that [`SprtSpec::new`] refuses, with its reason.
pub fn parse_sprt(text: &str) -> Result<SprtSpec, KeyValueError> {
    const PROBABILITY: &str = "a probability strictly between 0 and 1";
    let mut kv = KeyValues::parse("--sprt", text, &["elo0", "elo1", "alpha", "beta", "model"])?;
    let elo0: f64 = kv.require("elo0", "a number (Elo)")?;
    let elo1: f64 = kv.require("elo1", "a number (Elo)")?;
    let alpha: f64 = kv.take("alpha", PROBABILITY)?.unwrap_or(0.05);
    let beta: f64 = kv.take("beta", PROBABILITY)?.unwrap_or(0.05);
    let model: EloModel = kv.take("model", "normalized, logistic or bayeselo")?.unwrap_or(EloModel::Normalized);
    SprtSpec::new(elo0, elo1, alpha, beta, model)
        .map_err(|error| kv.invalid(error.parameter().unwrap_or("elo0"), &error.to_string()))
}

/// Parses `--draw` and `--resign` values and a `--maxmoves` count into adjudication rules.
///
/// # Errors
/// A [`KeyValueError`] naming the flag and key.
pub fn parse_adjudication(
    draw: Option<&str>,
    resign: Option<&str>,
    maxmoves: Option<u32>,
) -> Result<AdjudicationRules, KeyValueError> {
    Ok(AdjudicationRules {
        draw: draw.map(DrawAdjudication::parse).transpose()?,
        resign: resign.map(ResignAdjudication::parse).transpose()?,
        maxmoves,
    })
}

impl MatchPlan {
    /// Checks what can be checked without reading a file: the run name, the game, two or more engines with
    /// unique names, counts at least 1, an SPRT only for two engines, a shard only of a fixed length, the
    /// concurrency's range.
    ///
    /// # Errors
    /// The first [`PlanError`] found.
    pub fn validate(&self) -> Result<(), PlanError> {
        let invalid = |text: String| Err(PlanError::Invalid(text));
        if self.format != PLAN_FORMAT {
            return invalid(format!("plan format {} (this arbiter reads format {PLAN_FORMAT})", self.format));
        }
        if let Some(name) = &self.output.name {
            check_run_name(name)?;
        }
        self.game.refuse_checkers("match").map_err(PlanError::Game)?;
        if self.game == GameKind::Xiangqi && self.variant != Variant::Standard {
            return invalid(format!(
                "--variant {} is a chess variant; it cannot be given with --game xiangqi",
                self.variant.name()
            ));
        }
        for engine in &self.engines {
            let limit = &engine.limit;
            if limit.depth == Some(0) || limit.nodes == Some(0) || limit.movetime_ms == Some(0) {
                return invalid("--depth, --nodes and --movetime-ms must be at least 1".to_string());
            }
        }
        if self.engines.len() < 2 {
            return invalid(format!("--engine: a match needs two or more engines, got {}", self.engines.len()));
        }
        for (i, engine) in self.engines.iter().enumerate() {
            if self.engines[..i].iter().any(|other| other.name == engine.name) {
                return invalid(format!("--engine: the name `{}` is used twice; give each build a name=", engine.name));
            }
        }
        if let Some(sprt) = &self.sprt {
            sprt.spec()?;
            if self.engines.len() != 2 {
                return invalid(format!("--sprt needs exactly two engines, got {}", self.engines.len()));
            }
        }
        match self.length {
            MatchLength::Games(0) => return invalid("--games must be at least 1".to_string()),
            MatchLength::Rounds(0) => return invalid("--rounds must be at least 1".to_string()),
            _ => {}
        }
        if let Some(shard) = self.shard
            && self.length == MatchLength::UntilDecided
        {
            return invalid(format!(
                "--shard {shard}: a shard plays a fixed part of the schedule: give --games or --rounds (an SPRT \
                 cannot stop a shard early; merge the shards for its verdict)"
            ));
        }
        if self.length == MatchLength::UntilDecided && self.sprt.is_none() {
            return invalid("a match until the SPRT decides needs an SPRT".to_string());
        }
        if self.openings.plies == Some(0) {
            return invalid("--plies must be at least 1".to_string());
        }
        if self.openings.start == 0 {
            return invalid("--openings start=0: the first opening is number 1".to_string());
        }
        match self.concurrency {
            Some(0) => return invalid("--concurrency must be at least 1".to_string()),
            Some(n) if n as usize > MAX_CONCURRENCY => {
                return invalid(format!("--concurrency {n}: at most {MAX_CONCURRENCY} games at once"));
            }
            _ => {}
        }
        if self.adjudication.maxmoves == Some(0) {
            return invalid("--maxmoves must be at least 1".to_string());
        }
        Ok(())
    }

    /// The match of this plan in the game `G` (which must be the plan's game): [`MatchPlan::validate`], then
    /// every engine loaded ([`EnginePlan::load`]) and the openings read.
    ///
    /// # Errors
    /// The first [`PlanError`] found.
    pub fn spec<G: Game>(&self) -> Result<MatchSpec<G>, PlanError> {
        self.validate()?;
        if self.game.name() != G::NAME {
            return Err(PlanError::Invalid(format!("--game {} built as {}", self.game.name(), G::NAME)));
        }
        let mut engines = self.engines.iter().map(|e| e.load(self.game)).collect::<Result<Vec<_>, _>>()?;
        for engine in &mut engines {
            engine.bench_check = self.bench_check;
        }
        let book = &self.openings;
        let openings = load_game_openings::<G>(&book.file, book.format, book.plies, self.variant)?;
        if book.start > openings.len() {
            return Err(PlanError::Invalid(format!(
                "--openings start={}: {} holds only {} openings",
                book.start,
                book.shown,
                openings.len()
            )));
        }
        let concurrency = match self.concurrency {
            Some(n) => n as usize,
            None => std::thread::available_parallelism().map_or(1, |n| n.get()).min(MAX_CONCURRENCY),
        };
        let mut spec = MatchSpec {
            engines,
            openings,
            openings_source: book.shown.clone(),
            order: book.order,
            seed: self.seed,
            start: book.start,
            variant: self.variant,
            tournament: self.tournament,
            swap: self.swap,
            length: self.length,
            concurrency,
            settings: super::GameSettings { limits: Default::default(), adjudication: self.adjudication },
            recover: self.recover,
            sprt: self.sprt.as_ref().map(SprtPlan::spec).transpose()?,
            shard: self.shard,
        };
        spec.concurrency = spec.workers();
        Ok(spec)
    }
}

/// Physical memory in MiB, from the `MemTotal` line of `/proc/meminfo`; `None` where that is not available.
pub fn physical_memory_mib() -> Option<u64> {
    parse_mem_total(&std::fs::read_to_string("/proc/meminfo").ok()?)
}

/// The `MemTotal:   16318480 kB` line of `/proc/meminfo` text, in MiB.
pub fn parse_mem_total(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find_map(|l| l.strip_prefix("MemTotal:"))?;
    let mut words = line.split_whitespace();
    let value: u64 = words.next()?.parse().ok()?;
    match words.next() {
        Some("kB") | None => Some(value / 1024),
        _ => None,
    }
}

/// Refuses a match whose transposition tables would take more than half of `memory_mib` (physical memory in
/// MiB; no check when unknown). Every worker holds one player, and so one table, per engine it plays: up to
/// every engine of the match.
///
/// # Errors
/// [`PlanError::Invalid`] naming the tables and what to lower.
pub fn check_hash_memory<G: Game>(spec: &MatchSpec<G>, memory_mib: Option<u64>) -> Result<(), PlanError> {
    let Some(memory) = memory_mib else {
        return Ok(());
    };
    let workers = spec.workers() as u64;
    let per_worker: u64 = spec.engines.iter().map(|e| e.hash_mb() as u64).sum();
    let total = per_worker.saturating_mul(workers);
    if total <= memory / 2 {
        return Ok(());
    }
    let tables: Vec<String> =
        spec.engines.iter().map(|e| format!("{} {} MiB ({})", e.name, e.hash_mb(), e.source)).collect();
    let largest = spec.engines.iter().max_by_key(|e| e.hash_mb()).expect("a match has two or more engines");
    let advice = if largest.source == "built-in" {
        "lower --concurrency".to_string()
    } else {
        format!("lower search.hash_mb in {} or --concurrency", largest.source)
    };
    Err(PlanError::Invalid(format!(
        "hash: {workers} workers x ({}) = {total} MiB of transposition tables, more than half of the {memory} MiB \
         of physical memory; {advice}",
        tables.join(" + ")
    )))
}

/// The canonical JSON text of `value`: object keys sorted, no white space, fields skipped by their
/// `skip_serializing_if` left out. Adding an optional field that is skipped when `None` or default keeps the
/// text, and so the fingerprint, of every plan that does not use it.
pub fn canonical_json<T: Serialize>(value: &T) -> String {
    // serde_json's maps are sorted (BTreeMap, the crate's default without `preserve_order`).
    let value = serde_json::to_value(value).expect("a plan serializes to JSON (no map with non-text keys)");
    value.to_string()
}

/// The `u64` TOML encoding, kept at its old path for the run file's fields.
pub(crate) use crate::notation::wide;

/// [`wide`] for an optional value.
mod wide_option {
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(value: &Option<u64>, serializer: S) -> Result<S::Ok, S::Error> {
        match value {
            Some(n) => super::wide::serialize(n, serializer),
            None => serializer.serialize_none(),
        }
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<u64>, D::Error> {
        Option::<super::wide::Wide>::deserialize(deserializer)?.map(super::wide::Wide::value).transpose()
    }
}

/// Writes an enum by its name and reads it back through `parse`.
fn named<E: serde::de::Error>(text: &str, names: &[&str], parse: impl Fn(&str) -> Option<usize>) -> Result<usize, E> {
    parse(text).ok_or_else(|| E::custom(format!("unknown value {text:?}, expected one of: {}", names.join(", "))))
}

/// [`GameKind`] by its name (`chess`, `xiangqi`, `russian`, `english`).
mod game_name {
    use super::GameKind;
    use serde::{Deserialize, Deserializer, Serializer};

    const ALL: [GameKind; 4] = [GameKind::Chess, GameKind::Xiangqi, GameKind::Russian, GameKind::English];

    pub(super) fn serialize<S: Serializer>(value: &GameKind, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(value.name())
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<GameKind, D::Error> {
        let text = String::deserialize(deserializer)?;
        let names = ALL.map(GameKind::name);
        Ok(ALL[super::named(&text, &names, |t| names.iter().position(|n| *n == t))?])
    }
}

/// [`Variant`] by its name (`standard`, `chess960`).
mod variant_name {
    use super::Variant;
    use serde::{Deserialize, Deserializer, Serializer};

    const ALL: [Variant; 2] = [Variant::Standard, Variant::Chess960];

    pub(super) fn serialize<S: Serializer>(value: &Variant, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(value.name())
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Variant, D::Error> {
        let text = String::deserialize(deserializer)?;
        let names = ALL.map(Variant::name);
        Ok(ALL[super::named(&text, &names, |t| names.iter().position(|n| *n == t))?])
    }
}

/// [`OpeningOrder`] by its name (`sequential`, `random`).
mod order_name {
    use super::OpeningOrder;
    use serde::{Deserialize, Deserializer, Serializer};

    const ALL: [OpeningOrder; 2] = [OpeningOrder::Sequential, OpeningOrder::Random];

    pub(super) fn serialize<S: Serializer>(value: &OpeningOrder, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(value.name())
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<OpeningOrder, D::Error> {
        let text = String::deserialize(deserializer)?;
        let names = ALL.map(OpeningOrder::name);
        Ok(ALL[super::named(&text, &names, |t| names.iter().position(|n| *n == t))?])
    }
}

/// An optional [`OpeningFormat`] by its name (`epd`, `pgn`).
mod format_name {
    use super::OpeningFormat;
    use serde::{Deserialize, Deserializer, Serializer};

    const ALL: [(OpeningFormat, &str); 2] = [(OpeningFormat::Epd, "epd"), (OpeningFormat::Pgn, "pgn")];

    pub(super) fn serialize<S: Serializer>(value: &Option<OpeningFormat>, serializer: S) -> Result<S::Ok, S::Error> {
        match value.and_then(|f| ALL.iter().find(|(g, _)| *g == f)) {
            Some((_, name)) => serializer.serialize_str(name),
            None => serializer.serialize_none(),
        }
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<OpeningFormat>, D::Error> {
        let Some(text) = Option::<String>::deserialize(deserializer)? else { return Ok(None) };
        let names = ALL.map(|(_, n)| n);
        Ok(Some(ALL[super::named(&text, &names, |t| names.iter().position(|n| *n == t))?].0))
    }
}

/// [`EloModel`] by its name (`normalized`, `logistic`, `bayeselo`).
mod model_name {
    use super::EloModel;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(value: &EloModel, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(value.name())
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<EloModel, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// An optional [`Shard`] as `I/N`.
mod shard_text {
    use super::Shard;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(value: &Option<Shard>, serializer: S) -> Result<S::Ok, S::Error> {
        match value {
            Some(shard) => serializer.serialize_str(&shard.to_string()),
            None => serializer.serialize_none(),
        }
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Shard>, D::Error> {
        let Some(text) = Option::<String>::deserialize(deserializer)? else { return Ok(None) };
        text.parse().map(Some).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A plan of `seed` against `nomob` on the start position book of the shared suites.
    pub(crate) fn plan() -> MatchPlan {
        let limit = LimitPlan { nodes: Some(300), ..LimitPlan::default() };
        let engine = |name: &str| EnginePlan {
            name: name.to_string(),
            build: EngineBuild::Builtin { build: None },
            source: "built-in".into(),
            limit,
            bench: None,
        };
        MatchPlan {
            format: PLAN_FORMAT,
            game: GameKind::Chess,
            variant: Variant::Standard,
            engines: vec![engine("seed"), engine("nomob")],
            openings: OpeningsPlan {
                file: PathBuf::from("/books/book.epd"),
                shown: "book.epd".into(),
                format: None,
                order: OpeningOrder::Random,
                plies: None,
                start: 1,
            },
            seed: 1,
            tournament: Tournament::RoundRobin,
            swap: true,
            length: MatchLength::Games(16),
            adjudication: AdjudicationRules::default(),
            sprt: None,
            shard: None,
            concurrency: Some(2),
            recover: false,
            bench_check: false,
            tc_scale: None,
            output: OutputPlan {
                out: Some(PathBuf::from("/runs/run")),
                results: PathBuf::from("/runs"),
                name: None,
                pgn_comments: true,
                rating_interval: 10,
            },
        }
    }

    #[test]
    fn plans_round_trip_through_toml_with_wide_numbers() {
        let mut plan = plan();
        plan.seed = u64::MAX;
        plan.sprt = Some(SprtPlan::of(&SprtSpec::stc()));
        plan.shard = Some(Shard::new(2, 4).unwrap());
        plan.length = MatchLength::Rounds(u64::MAX / 4);
        plan.adjudication.maxmoves = Some(80);
        plan.engines[1].build = EngineBuild::Uci(UciPlan {
            cmd: "/usr/games/stockfish".into(),
            args: vec!["a b".into()],
            dir: None,
            options: vec![("Hash".into(), "16".into())],
            restart: true,
            handshake_timeout_ms: 1,
            ping_timeout_ms: 2,
            stall_timeout_ms: u64::MAX,
            allow_unknown_options: true,
        });
        plan.engines[1].limit.tc = Some(TimeControl::parse("40/60+0.6").unwrap());
        let text = toml::to_string(&plan).unwrap();
        assert!(text.contains("seed = \"18446744073709551615\""), "{text}");
        assert!(text.contains("shard = \"2/4\""), "{text}");
        let back: MatchPlan = toml::from_str(&text).unwrap();
        assert_eq!(back, plan);
        assert_eq!(
            toml::from_str::<MatchPlan>(&toml::to_string(&super::tests::plan()).unwrap()).unwrap(),
            self::plan()
        );
    }

    #[test]
    fn bench_signatures_and_the_time_scaling_round_trip() {
        let mut plan = plan();
        plan.engines[0].bench = Some(1_467_420);
        plan.bench_check = true;
        plan.tc_scale = Some(TcScalePlan {
            reference_nps: 1_000_000,
            measured_nps: 400_000,
            engine: "seed".into(),
            factor: 2.5,
            unscaled: vec!["nodes 300".into(), "nodes 300".into()],
        });
        let text = toml::to_string(&plan).unwrap();
        assert!(text.contains("bench = 1467420") && text.contains("bench_check = true"), "{text}");
        assert_eq!(toml::from_str::<MatchPlan>(&text).unwrap(), plan);
        // The entrant loaded from the plan keeps its signature.
        let engine = plan.engines[0].load(GameKind::Chess).unwrap();
        assert_eq!(engine.bench, Some(1_467_420));
    }

    #[test]
    fn validation_names_the_flag() {
        let refused = |change: &dyn Fn(&mut MatchPlan)| {
            let mut p = plan();
            change(&mut p);
            p.validate().unwrap_err().to_string()
        };
        assert_eq!(refused(&|p| p.engines.truncate(1)), "--engine: a match needs two or more engines, got 1");
        assert!(refused(&|p| p.engines[1].name = "seed".into()).contains("used twice"));
        assert_eq!(refused(&|p| p.concurrency = Some(1025)), "--concurrency 1025: at most 1024 games at once");
        assert_eq!(refused(&|p| p.length = MatchLength::Games(0)), "--games must be at least 1");
        assert!(refused(&|p| p.output.name = Some("a/b".into())).starts_with("--name \"a/b\": "));
        assert!(refused(&|p| p.game = GameKind::Russian).contains("checkers"));
        assert!(plan().validate().is_ok());
    }
}
