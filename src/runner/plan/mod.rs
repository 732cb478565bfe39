//! The match plan: everything that defines a match, typed and serializable, so that a run folder's `run.toml`
//! holds the match itself (not the command line that asked for it).
//!
//! A [`MatchPlan`] names its engines ([`EnginePlan`]: a built-in build, a config file or an external UCI engine,
//! with its move limits), its openings ([`OpeningsPlan`]: the file, its format, order, plies and first opening),
//! the game and variant, the schedule (seed, tournament, colours, length, shard), adjudication, the SPRT and
//! the output options. Paths in a plan are absolute (resolved against the working directory when the plan was
//! made), so nothing that reads it later needs a working directory.
//!
//! [`MatchPlan::with_defaults`] (in `defaults.rs`) fills in what a caller leaves out as `arbiter match` does;
//! the text grammar of `--sprt`, `--draw` and `--resign` is in `grammar.rs`, the memory check in `memory.rs`,
//! and an entrant's plan with its resolution into the running engine in [`crate::player::plan`].
//!
//! [`MatchPlan::validate`] checks what can be checked without reading a file; [`MatchPlan::spec`] reads the
//! engines' config files and the openings and builds the [`MatchSpec`] the scheduler plays. Both return a
//! [`PlanError`].
//!
//! The schedule fingerprint ([`super::rundir::runfile::Fingerprint`]) hashes a canonical encoding of the parts of the
//! plan that decide the games ([`canonical_json`]): see `results/README.md`.

use super::adjudication::AdjudicationRules;
use super::comments::CommentFields;
use super::openings::{MAX_BOOK_LINES, OpeningOrder, load_match_openings};
use super::scheduler::{MAX_CONCURRENCY, MatchLength, MatchSpec, Shard, Tournament};
use crate::chess::Variant;
use crate::game::Game;
use crate::game::opening::{OpeningError, OpeningFormat};
use crate::games::GameKind;
use crate::notation::kv::KeyValueError;
use crate::player::EngineArgError;
pub use crate::player::plan::{EngineBuild, EnginePlan, UciPlan, absolute};
use crate::runner::report::formats::ReportFormat;
use crate::stats::{EloModel, SprtSpec};
use crate::tablebase::adjudicate::TablebasePlan;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
pub use tc_scale::{ScaleBy, TcScaleError};
use thiserror::Error;

mod defaults;
mod grammar;
mod memory;
mod serde_names;
mod tc_scale;

pub use defaults::{MatchRequest, book_of, default_book, default_engines, working_directory};
pub use grammar::{parse_adjudication, parse_sprt};
pub use memory::{check_hash_memory, parse_mem_total, physical_memory_mib};

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

/// A value of a [`MatchPlan`] that [`PlanError::Invalid`] names: the error's text begins with its
/// [`PlanField::key`] (the name in `run.toml`), which the command line replaces by its flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlanField {
    /// `format`: the plan's format number.
    Format,
    /// `output.name`: the run's name.
    Name,
    /// `game`: the game played.
    Game,
    /// `variant`: the chess variant.
    Variant,
    /// The engines' `depth`, `nodes` and `movetime_ms` limits.
    Limits,
    /// `engines`: the entrants.
    Engines,
    /// `sprt`: the SPRT.
    Sprt,
    /// `length` in games.
    Games,
    /// `length` in rounds.
    Rounds,
    /// `openings.plies`: the plies of each opening played.
    Plies,
    /// `openings.start`: the first opening played.
    OpeningsStart,
    /// `concurrency`: games at once.
    Concurrency,
    /// `adjudication.maxmoves`: the move limit of a game.
    Maxmoves,
    /// `openings.depth`: the plies taken from a Polyglot book.
    OpeningsDepth,
    /// `tablebase`: Syzygy adjudication.
    Tablebase,
    /// `tablebase.pieces`: the most pieces adjudicated.
    TablebasePieces,
    /// `seeds`: a gauntlet's (or knockout's) seeded engines.
    Seeds,
}

impl PlanField {
    /// The value's name as the plan writes it in `run.toml` (`openings.start`).
    pub fn key(self) -> &'static str {
        match self {
            PlanField::Format => "plan format",
            PlanField::Name => "output.name",
            PlanField::Game => "game",
            PlanField::Variant => "variant",
            PlanField::Limits => "depth, nodes and movetime_ms",
            PlanField::Engines => "engines",
            PlanField::Sprt => "sprt",
            PlanField::Games => "games",
            PlanField::Rounds => "rounds",
            PlanField::Plies => "openings.plies",
            PlanField::OpeningsStart => "openings.start",
            PlanField::Concurrency => "concurrency",
            PlanField::Maxmoves => "adjudication.maxmoves",
            PlanField::OpeningsDepth => "openings.depth",
            PlanField::Tablebase => "tablebase",
            PlanField::TablebasePieces => "tablebase.pieces",
            PlanField::Seeds => "seeds",
        }
    }
}

/// What [`PlanError::HashMemory`] advises to lower: the concurrency, and the table of the largest engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HashAdvice {
    /// A built-in build: only the concurrency.
    Concurrency,
    /// A config file's `search.hash_mb`.
    Config(String),
    /// An external engine's `option.Hash` (its name).
    Option(String),
}

/// Why a plan cannot be played: a value out of range, a conflict, or an engine, config or opening file that
/// cannot be read. Every variant is the user's input (exit 2 in the command line). The messages name the
/// values by their keys in `run.toml` ([`PlanField::key`]); the command line names its flags instead.
#[derive(Debug, Error)]
pub enum PlanError {
    /// A value out of its range, or two values that do not go together: the value, then what is wrong
    /// (`problem` begins right after the value's name, with its separator).
    #[error("{}{problem}", .field.key())]
    Invalid {
        /// The value.
        field: PlanField,
        /// What is wrong, after the value's name (` must be at least 1`, `: ...`).
        problem: String,
    },
    /// The transposition tables of every worker would take more than half of the physical memory.
    #[error(
        "hash: {workers} workers x ({tables}) = {total} MiB of transposition tables, more than half of the {memory} \
         MiB of physical memory; lower {}",
        match .advice {
            HashAdvice::Concurrency => "the concurrency".to_string(),
            HashAdvice::Config(path) => format!("search.hash_mb in {path} or the concurrency"),
            HashAdvice::Option(name) => format!("{name}'s option.Hash or the concurrency"),
        }
    )]
    HashMemory {
        /// The workers.
        workers: u64,
        /// Each engine's table, in words.
        tables: String,
        /// MiB in all.
        total: u64,
        /// MiB of physical memory.
        memory: u64,
        /// What to lower.
        advice: HashAdvice,
    },
    /// A shard of a match without a length: a shard plays a fixed part of the schedule.
    #[error(
        "shard {shard}: a shard plays a fixed part of the schedule: give it a number of games or rounds (an SPRT \
         cannot stop a shard early; merge the shards for its verdict)"
    )]
    UnendingShard {
        /// The shard, as `i/n`.
        shard: String,
    },
    /// A match until the SPRT decides, without an SPRT.
    #[error("a match until the SPRT decides needs an SPRT")]
    NoSprt,
    /// The run name is not a folder name and PGN tag value.
    #[error("name {shown}: {problem}")]
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
    /// An engine cannot be loaded: a config file that cannot be read, a build the game does not have.
    #[error(transparent)]
    Engine(#[from] EngineArgError),
    /// The opening file cannot be read or holds a bad opening.
    #[error(transparent)]
    Openings(#[from] OpeningError),
    /// The default opening book is not where it should be.
    #[error("the default opening book {book} was not found")]
    NoDefaultBook {
        /// The book's path relative to the project root.
        book: &'static str,
    },
    /// The Syzygy tables cannot be used.
    #[error(transparent)]
    Tablebase(#[from] crate::tablebase::TablebaseError),
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
    #[serde(with = "serde_names::game_name")]
    pub game: GameKind,
    /// The chess variant (standard for Xiangqi).
    #[serde(with = "serde_names::variant_name", default, skip_serializing_if = "is_standard")]
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
    /// How many of the first engines are a gauntlet's seeds (`--seeds N`; 1 by default).
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub seeds: u32,
    /// Whether a gauntlet's seeds play one another too (fastchess's `-seeds N`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub seeds_meet: bool,
    /// Whether game 1 of each pair swaps colours (false under `--noswap`).
    pub swap: bool,
    /// Whether each pair starts with the pairing's second engine as White (`--reverse`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub reverse: bool,
    /// Milliseconds each worker waits between games (`--wait`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub wait_ms: u64,
    /// Pin each game slot to its share of these CPUs (`--affinity`; empty: every CPU this process may use);
    /// `None`: no pinning.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub affinity: Option<Vec<usize>>,
    /// How many games.
    pub length: MatchLength,
    /// Adjudication.
    #[serde(default, skip_serializing_if = "is_default")]
    pub adjudication: AdjudicationRules,
    /// Syzygy tablebase adjudication (`--tb`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tablebase: Option<TablebasePlan>,
    /// The SPRT that may stop the match early (two engines only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<SprtPlan>,
    /// The part of the schedule to play; `None` for all of it.
    #[serde(with = "serde_names::shard_text", default, skip_serializing_if = "Option::is_none")]
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
    /// Whose bench: the first engine's (`measured_nps`), the second's, or both (the mean of the two factors).
    #[serde(default, skip_serializing_if = "ScaleBy::is_first")]
    pub by: ScaleBy,
    /// Under [`ScaleBy::Both`], the second engine's speed.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "crate::notation::wide::option")]
    pub second_nps: Option<u64>,
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
    #[serde(with = "serde_names::format_name", default, skip_serializing_if = "Option::is_none")]
    pub format: Option<OpeningFormat>,
    /// The opening order.
    #[serde(with = "serde_names::order_name")]
    pub order: OpeningOrder,
    /// Book plies of PGN openings (the whole game when `None`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plies: Option<usize>,
    /// The 1-based number, in playing order, of the first opening played.
    pub start: usize,
    /// The most plies taken from a Polyglot book (`depth=`; cutechess-cli's default when `None`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<usize>,
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
    #[serde(with = "serde_names::model_name")]
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
            .map_err(|e| PlanError::Invalid { field: PlanField::Sprt, problem: format!(": {e}") })
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
    /// What the comment after an engine's move holds (`--pgn-fields`; default score, depth and time).
    #[serde(default, skip_serializing_if = "CommentFields::is_default")]
    pub pgn_fields: CommentFields,
    /// Print the reports every N games (0: only at the end).
    #[serde(with = "wide")]
    pub rating_interval: u64,
    /// The PGN `Event` tag, when not the run name (`--event`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    /// The PGN `Site` tag (`--site`; default `arbiter`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub site: Option<String>,
    /// A PGN file outside the run folder that gets every game too (`--pgnout`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pgnout: Option<PgnOutPlan>,
    /// A file that gets the final position of every game, one FEN per line (`--epdout`; absolute).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub epdout: Option<PathBuf>,
    /// Which tool's lines the periodic reports print (`--report-format`).
    #[serde(default, skip_serializing_if = "ReportFormat::is_both")]
    pub reports: ReportFormat,
}

/// `--pgnout FILE[,min]`: a copy of every game, appended to a file of the user's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PgnOutPlan {
    /// The file (absolute).
    pub file: PathBuf,
    /// cutechess-cli's minimal PGN: the seven tags, no comments.
    #[serde(default, skip_serializing_if = "is_false")]
    pub min: bool,
}

impl OutputPlan {
    /// The PGN `Event` tag of a run: `--event`, else its name, else `arbiter match`.
    pub fn event(&self) -> String {
        self.event.clone().or_else(|| self.name.clone()).unwrap_or_else(|| "arbiter match".to_string())
    }
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

fn one() -> u32 {
    1
}

fn is_one(n: &u32) -> bool {
    *n == 1
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_standard(v: &Variant) -> bool {
    *v == Variant::Standard
}

fn is_default<T: Default + PartialEq>(t: &T) -> bool {
    *t == T::default()
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

impl MatchPlan {
    /// Checks what can be checked without reading a file: the run name, the game, two or more engines with
    /// unique names, counts at least 1, an SPRT only for two engines, a shard only of a fixed length, the
    /// concurrency's range.
    ///
    /// # Errors
    /// The first [`PlanError`] found.
    pub fn validate(&self) -> Result<(), PlanError> {
        let invalid = |field: PlanField, problem: String| Err(PlanError::Invalid { field, problem });
        if self.format != PLAN_FORMAT {
            return invalid(PlanField::Format, format!(" {} (this arbiter reads format {PLAN_FORMAT})", self.format));
        }
        if let Some(name) = &self.output.name {
            check_run_name(name)?;
        }
        self.game.refuse_checkers("match").map_err(PlanError::Game)?;
        if self.game == GameKind::Xiangqi && self.variant != Variant::Standard {
            return invalid(
                PlanField::Variant,
                format!(" {} is a chess variant; a Xiangqi match cannot play it", self.variant.name()),
            );
        }
        for engine in &self.engines {
            let limit = &engine.limit;
            if limit.depth == Some(0) || limit.nodes == Some(0) || limit.movetime_ms == Some(0) {
                return invalid(PlanField::Limits, " must be at least 1".to_string());
            }
        }
        if self.engines.len() < 2 {
            return invalid(
                PlanField::Engines,
                format!(": a match needs two or more engines, got {}", self.engines.len()),
            );
        }
        let most_seeds =
            if self.tournament == Tournament::Knockout { self.engines.len() } else { self.engines.len() - 1 };
        if self.seeds == 0 || self.seeds as usize > most_seeds && self.seeds > 1 {
            return invalid(PlanField::Seeds, format!(" {}: expected 1 to {most_seeds}", self.seeds));
        }
        let seeded = matches!(self.tournament, Tournament::Gauntlet | Tournament::Knockout);
        if self.seeds > 1 && !seeded || self.seeds_meet && self.tournament != Tournament::Gauntlet {
            let problem = format!(" {}: seeds are a gauntlet's or a knockout's", self.seeds);
            return invalid(PlanField::Seeds, problem);
        }
        for (i, engine) in self.engines.iter().enumerate() {
            if self.engines[..i].iter().any(|other| other.name == engine.name) {
                return invalid(
                    PlanField::Engines,
                    format!(": the name `{}` is used twice; give each build a name=", engine.name),
                );
            }
        }
        if let Some(sprt) = &self.sprt {
            sprt.spec()?;
            if self.engines.len() != 2 {
                return invalid(PlanField::Sprt, format!(" needs exactly two engines, got {}", self.engines.len()));
            }
        }
        match self.length {
            MatchLength::Games(0) => return invalid(PlanField::Games, " must be at least 1".to_string()),
            MatchLength::Rounds(0) => return invalid(PlanField::Rounds, " must be at least 1".to_string()),
            _ => {}
        }
        if let Some(shard) = self.shard
            && self.length == MatchLength::UntilDecided
        {
            return Err(PlanError::UnendingShard { shard: shard.to_string() });
        }
        if self.length == MatchLength::UntilDecided && self.sprt.is_none() {
            return Err(PlanError::NoSprt);
        }
        if self.openings.plies == Some(0) {
            return invalid(PlanField::Plies, " must be at least 1".to_string());
        }
        let polyglot = self.openings.format == Some(OpeningFormat::Polyglot)
            || (self.openings.format.is_none()
                && OpeningFormat::detect(&self.openings.file, "") == OpeningFormat::Polyglot);
        if self.openings.depth.is_some() && !polyglot {
            return invalid(PlanField::OpeningsDepth, " applies to Polyglot books only (format=polyglot)".to_string());
        }
        if polyglot && self.openings.plies.is_some() {
            return invalid(PlanField::Plies, ": a Polyglot book's plies are its depth=".to_string());
        }
        if polyglot && self.length == MatchLength::EachOpening {
            return invalid(
                PlanField::Games,
                ": a Polyglot book has no fixed list of openings to play each once; give a number of games or rounds"
                    .to_string(),
            );
        }
        if self.openings.start == 0 {
            return invalid(PlanField::OpeningsStart, "=0: the first opening is number 1".to_string());
        }
        match self.concurrency {
            Some(0) => return invalid(PlanField::Concurrency, " must be at least 1".to_string()),
            Some(n) if n as usize > MAX_CONCURRENCY => {
                return invalid(PlanField::Concurrency, format!(" {n}: at most {MAX_CONCURRENCY} games at once"));
            }
            _ => {}
        }
        if self.adjudication.maxmoves == Some(0) {
            return invalid(PlanField::Maxmoves, " must be at least 1".to_string());
        }
        if let Some(tb) = &self.tablebase {
            if self.game != GameKind::Chess {
                return invalid(
                    PlanField::Tablebase,
                    format!(": Syzygy tables are for chess, not {}", self.game.name()),
                );
            }
            if tb.paths.is_empty() {
                return invalid(PlanField::Tablebase, ": no table folder given".to_string());
            }
            if let Some(pieces) = tb.pieces
                && pieces < 3
            {
                return invalid(PlanField::TablebasePieces, format!(" {pieces}: at least 3 (two kings and a piece)"));
            }
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
            let problem = format!(" {} built as {}", self.game.name(), G::NAME);
            return Err(PlanError::Invalid { field: PlanField::Game, problem });
        }
        let mut engines = self.engines.iter().map(|e| e.load(self.game)).collect::<Result<Vec<_>, _>>()?;
        for engine in &mut engines {
            engine.bench_check = self.bench_check;
        }
        let book = &self.openings;
        let pairings = self.tournament.seeded_pairings(self.engines.len(), self.seeds as usize, self.seeds_meet);
        let lines = self.length.pairs(pairings.len(), MAX_BOOK_LINES);
        let lines = usize::try_from(lines).unwrap_or(MAX_BOOK_LINES).clamp(1, MAX_BOOK_LINES);
        let openings =
            load_match_openings::<G>(&book.file, book.format, book.plies, book.depth, self.variant, self.seed, lines)?;
        if book.start > openings.len() {
            let problem = format!("={}: {} holds only {} openings", book.start, book.shown, openings.len());
            return Err(PlanError::Invalid { field: PlanField::OpeningsStart, problem });
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
            seeds: self.seeds as usize,
            seeds_meet: self.seeds_meet,
            swap: self.swap,
            reverse: self.reverse,
            wait_ms: self.wait_ms,
            affinity: match &self.affinity {
                None => Vec::new(),
                Some(cpus) if cpus.is_empty() => crate::runner::affinity::available_cpus(),
                Some(cpus) => cpus.clone(),
            },
            length: self.length,
            concurrency,
            settings: super::GameSettings {
                limits: Default::default(),
                adjudication: self.adjudication,
                tablebase: self.tablebase.as_ref().map(TablebasePlan::open).transpose()?,
                comment_fields: self.output.pgn_fields,
                ..Default::default()
            },
            recover: self.recover,
            sprt: self.sprt.as_ref().map(SprtPlan::spec).transpose()?,
            shard: self.shard,
        };
        spec.concurrency = spec.workers();
        Ok(spec)
    }
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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::player::{MoveLimit, TimeControl};

    #[test]
    fn run_names() {
        assert!(check_run_name("nightly-2").is_ok());
        assert!(check_run_name(&"x".repeat(MAX_NAME_CHARS)).is_ok());
        for bad in ["", ".hidden", "a/b", "a\\b", "a\nb", "tab\there", &"x".repeat(MAX_NAME_CHARS + 1)] {
            let Err(err) = check_run_name(bad) else { panic!("{bad:?} was accepted") };
            assert!(err.to_string().starts_with("name "), "{err}");
        }
    }

    /// A plan of `seed` against `nomob` on the start position book of the shared suites.
    pub(crate) fn plan() -> MatchPlan {
        let limit = MoveLimit { nodes: Some(300), ..MoveLimit::default() };
        let engine = |name: &str| EnginePlan {
            name: name.to_string(),
            build: EngineBuild::Builtin { build: None },
            source: "built-in".into(),
            limit,
            bench: None,
            book: None,
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
                depth: None,
            },
            seed: 1,
            tournament: Tournament::RoundRobin,
            seeds: 1,
            seeds_meet: false,
            swap: true,
            reverse: false,
            wait_ms: 0,
            affinity: None,
            length: MatchLength::Games(16),
            adjudication: AdjudicationRules::default(),
            tablebase: None,
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
                pgn_fields: CommentFields::default(),
                rating_interval: 10,
                event: None,
                site: None,
                pgnout: None,
                epdout: None,
                reports: Default::default(),
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
            xboard: false,
            ponder: false,
            white_pov: false,
            init: Vec::new(),
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
            by: ScaleBy::Both,
            second_nps: Some(500_000),
        });
        let text = toml::to_string(&plan).unwrap();
        assert!(text.contains("bench = 1467420") && text.contains("bench_check = true"), "{text}");
        assert_eq!(toml::from_str::<MatchPlan>(&text).unwrap(), plan);
        // The entrant loaded from the plan keeps its signature.
        let engine = plan.engines[0].load(GameKind::Chess).unwrap();
        assert_eq!(engine.bench, Some(1_467_420));
    }

    #[test]
    fn validation_names_the_value() {
        let refused = |change: &dyn Fn(&mut MatchPlan)| {
            let mut p = plan();
            change(&mut p);
            p.validate().unwrap_err().to_string()
        };
        assert_eq!(refused(&|p| p.engines.truncate(1)), "engines: a match needs two or more engines, got 1");
        assert!(refused(&|p| p.engines[1].name = "seed".into()).contains("used twice"));
        assert_eq!(refused(&|p| p.concurrency = Some(1025)), "concurrency 1025: at most 1024 games at once");
        assert_eq!(refused(&|p| p.length = MatchLength::Games(0)), "games must be at least 1");
        assert!(refused(&|p| p.output.name = Some("a/b".into())).starts_with("name \"a/b\": "));
        let mut p = plan();
        p.length = MatchLength::Games(0);
        assert!(matches!(p.validate(), Err(PlanError::Invalid { field: PlanField::Games, .. })));
        assert!(refused(&|p| p.game = GameKind::Russian).contains("checkers"));
        assert!(plan().validate().is_ok());
    }
}
