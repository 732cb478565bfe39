//! Engine specs: [`EngineSpec`], one entrant of a match (a built-in build from the [`crate::engine`] registry
//! or an external UCI engine, with its [`MoveLimit`]), and the parser of the `--engine` and `--each` values of
//! `arbiter match`, in the cutechess-cli/fastchess style:
//!
//! ```text
//! --engine name=seed,config=configs/seed.toml,tc=10+0.1
//! --engine name=sf,cmd=/usr/games/stockfish,option.Hash=16,option.Threads=1,option.Skill Level=5,nodes=20000
//! --each tc=40/60+0.6,timemargin=50
//! ```
//!
//! Keys: `name`, `bench` (the bench signature checked before the match: [`super::bench`](mod@super::bench)),
//! `config` (a built-in build from a TOML file), `cmd` (an external UCI engine), `args`
//! (its arguments, split into words as a shell splits them: `args=--threads 1 'a b'` is three words), `dir`
//! (its working directory), `proto` (`uci`, the only protocol),
//! `option.NAME` (a UCI option), `restart` (`on`: a fresh process every game; `off`, the default), and the move
//! limits `tc` (time control, [`TimeControl`]), `st` (seconds per move), `nodes`, `depth` and `timemargin`
//! (milliseconds a move may overrun). `--each` takes every key but `name`, `config` and `cmd`, and applies to
//! every engine; an engine's own key wins over `--each`.
//!
//! The values of `config`, `cmd`, `args`, `dir` and `option.NAME` ([`QUOTED_KEYS`]) may be quoted in POSIX
//! shell syntax to hold commas: `option.SyzygyPath="/a,/b"`, `cmd="/opt/my engine/bin"`,
//! `args="--threads 1 'a b'"` ([`KeyValues::parse_quoted`]).

use super::builtin::builtin_player;
use super::error::panic_text;
use super::timecontrol::TimeControl;
use super::uci::{UciEngine, UciPlayer};
use super::{Player, PlayerError};
use crate::engine::chess::EngineConfig;
use crate::engine::chess::tt::TranspositionTable;
use crate::engine::xiangqi::XiangqiConfig;
use crate::engine::{Build, BuildError, EngineGame};
use crate::game::Game;
use crate::games::GameKind;
use crate::notation::kv::{KeyValueError, KeyValues};
use std::fmt;
use std::panic::catch_unwind;
use std::path::PathBuf;

/// How long one engine may think, set per engine (`--engine ...,tc=10+0.1`) or for all (`--each`, `--nodes`).
/// Every limit that is set applies; the player stops at the first one reached. With none set a player searches
/// until it decides itself (the built-in engine to its maximum depth), so a match always sets at least one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MoveLimit {
    /// Maximum search depth in plies (UCI `go depth`).
    pub depth: Option<u32>,
    /// Maximum nodes searched (UCI `go nodes`).
    pub nodes: Option<u64>,
    /// Thinking time per move in milliseconds (`st=`, UCI `go movetime`): a move that takes longer than this
    /// plus `timemargin_ms` loses on time.
    pub movetime_ms: Option<u64>,
    /// A clock kept by the runner (`tc=`, UCI `go wtime btime winc binc movestogo`).
    pub tc: Option<TimeControl>,
    /// How far a move may overrun the clock or `movetime_ms` before it loses on time, in milliseconds
    /// (`timemargin=`, as in cutechess-cli; default 0).
    pub timemargin_ms: u64,
}

impl MoveLimit {
    /// Whether no limit is set.
    pub fn is_unlimited(&self) -> bool {
        self.depth.is_none() && self.nodes.is_none() && self.movetime_ms.is_none() && self.tc.is_none()
    }

    /// Whether the limit involves wall time (a clock or a time per move), so that games are not reproducible.
    pub fn is_timed(&self) -> bool {
        self.tc.is_some() || self.movetime_ms.is_some()
    }
}

impl fmt::Display for MoveLimit {
    /// Writes the limits as `tc 10+0.1, nodes 5000, depth 8, movetime 100 ms, timemargin 50 ms` (or `none`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(tc) = self.tc {
            parts.push(format!("tc {tc}"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes {n}"));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth {d}"));
        }
        if let Some(t) = self.movetime_ms {
            parts.push(format!("movetime {t} ms"));
        }
        if self.timemargin_ms > 0 {
            parts.push(format!("timemargin {} ms", self.timemargin_ms));
        }
        if parts.is_empty() { f.write_str("none") } else { f.write_str(&parts.join(", ")) }
    }
}

/// What kind of program an entrant is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineKind {
    /// The built-in chess engine with this configuration (boxed: a config holds every weight).
    Builtin(Box<EngineConfig>),
    /// The built-in Xiangqi engine with this configuration.
    XiangqiBuiltin(Box<XiangqiConfig>),
    /// An external engine process spoken to over UCI.
    Uci(UciEngine),
}

/// One entrant of a match: its display name, its kind, its move limits and where it came from (for the summary).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The unique name used in PGN tags, the CSV and the summary.
    pub name: String,
    /// What to run.
    pub kind: EngineKind,
    /// Where the build came from, in words: a config file path, `built-in`, or the command of an external
    /// engine.
    pub source: String,
    /// How long this engine may think per move (its own `tc=`/`nodes=`/... over `--each` and the global flags).
    pub limit: MoveLimit,
    /// The bench signature the engine must show before a match (`bench=N`, see
    /// [`EngineSpec::check_bench`](super::bench)); `None`: not checked.
    pub bench: Option<u64>,
    /// Check `bench` again at each worker's first start of this engine (`arbiter match --bench-check`), not only
    /// once before the match.
    pub bench_check: bool,
}

impl EngineSpec {
    /// The built-in chess builds known by name, `seed` and `nomob` ([`Build::named`]); `None` for other names.
    /// The move limit is left unset.
    pub fn builtin(name: &str) -> Option<EngineSpec> {
        Build::named(EngineGame::Chess, name).map(|build| EngineSpec::from_build(name, build, "built-in"))
    }

    /// An entrant running the built-in `build` (of either game), named `name`, read from `source`; the move
    /// limit is left unset.
    pub fn from_build(name: &str, build: Build, source: &str) -> EngineSpec {
        match build {
            Build::Chess(config) => EngineSpec::from_config(name, *config, source),
            Build::Xiangqi(config) => EngineSpec::xiangqi(name, *config, source),
        }
    }

    /// An entrant running the built-in engine with `config`, named `name`, read from `source`; the move limit
    /// is left unset.
    pub fn from_config(name: &str, mut config: EngineConfig, source: &str) -> EngineSpec {
        config.name = name.to_string();
        EngineSpec {
            name: name.to_string(),
            kind: EngineKind::Builtin(Box::new(config)),
            source: source.to_string(),
            limit: MoveLimit::default(),
            bench: None,
            bench_check: false,
        }
    }

    /// An entrant running the built-in Xiangqi engine with `config`, named `name`, read from `source`; the move
    /// limit is left unset.
    pub fn xiangqi(name: &str, mut config: XiangqiConfig, source: &str) -> EngineSpec {
        config.name = name.to_string();
        EngineSpec {
            name: name.to_string(),
            kind: EngineKind::XiangqiBuiltin(Box::new(config)),
            source: source.to_string(),
            limit: MoveLimit::default(),
            bench: None,
            bench_check: false,
        }
    }

    /// An entrant running the external UCI engine `engine`, named `name`; the move limit is left unset.
    pub fn uci(name: &str, engine: UciEngine) -> EngineSpec {
        let source = engine.command_line();
        EngineSpec {
            name: name.to_string(),
            kind: EngineKind::Uci(engine),
            source,
            limit: MoveLimit::default(),
            bench: None,
            bench_check: false,
        }
    }

    /// The memory one player of this entrant holds for its transposition table, in MiB (for an external
    /// engine: its `Hash` option when given, else 16, the usual UCI default).
    pub fn hash_mb(&self) -> usize {
        match &self.kind {
            EngineKind::Builtin(config) => config.hash_mb,
            EngineKind::XiangqiBuiltin(config) => config.hash_mb,
            EngineKind::Uci(engine) => engine.hash_mb(),
        }
    }

    /// The search threads one player of this entrant uses: 1 for the built-in engine; an external engine's
    /// `Threads` option when given as a number, else 1.
    pub fn threads(&self) -> usize {
        match &self.kind {
            EngineKind::Builtin(_) | EngineKind::XiangqiBuiltin(_) => 1,
            EngineKind::Uci(engine) => engine.numeric_option("threads").unwrap_or(1),
        }
    }

    /// Refuses an external engine that would search without a limit: with `limit` (the limit the job will
    /// give it: its own keys, `--each` and the job's flags together) unlimited, an external engine would be
    /// sent `go infinite` and never answer, as cutechess-cli refuses a match without a time control
    /// (`projects/cli/src/main.cpp`, "Invalid or missing time control"). Built-in engines pass: each job gives
    /// them its documented default. `flags` names, for the message, what the user may give (for `arbiter
    /// match`: `--tc, --nodes, --depth or --movetime-ms, or tc=, st=, nodes= or depth= in --engine or --each`).
    ///
    /// # Errors
    /// [`EngineArgError::NoLimit`] naming the engine and `flags`.
    ///
    /// # Examples
    /// ```
    /// use arbiter::player::{MoveLimit, spec::parse_engine};
    /// let sf = parse_engine("name=sf,cmd=/usr/games/stockfish").unwrap();
    /// let err = sf.require_limit(&MoveLimit::default(), "--nodes or --depth").unwrap_err();
    /// assert!(err.to_string().contains("sf"), "{err}");
    /// assert!(sf.require_limit(&MoveLimit { nodes: Some(5000), ..MoveLimit::default() }, "--nodes").is_ok());
    /// assert!(parse_engine("name=seed").unwrap().require_limit(&MoveLimit::default(), "--nodes").is_ok());
    /// ```
    pub fn require_limit(&self, limit: &MoveLimit, flags: &str) -> Result<(), EngineArgError> {
        match &self.kind {
            EngineKind::Uci(engine) if limit.is_unlimited() => Err(EngineArgError::NoLimit {
                name: self.name.clone(),
                cmd: engine.command_line(),
                flags: flags.to_string(),
            }),
            _ => Ok(()),
        }
    }

    /// Lets an external engine be sent `option.NAME` values it does not list, with a warning, instead of
    /// refusing to start it (`--allow-unknown-options`); nothing for a built-in engine.
    pub fn allow_unknown_options(&mut self) {
        if let EngineKind::Uci(engine) = &mut self.kind {
            engine.allow_unknown_options = true;
        }
    }

    /// Creates a fresh player for one worker thread: for an external engine, starts its process and performs
    /// the UCI handshake.
    ///
    /// # Errors
    /// [`PlayerError::Start`] when the player cannot be created: its transposition table cannot be allocated
    /// (checked before the engine is built, so that the failure is an error and never an abort), the
    /// built-in engine panics while it is built, or an external engine cannot be started or does not answer
    /// `uciok`/`readyok` in time.
    pub fn create<G: Game>(&self) -> Result<Box<dyn Player<G>>, PlayerError> {
        let start_error = |reason: String| PlayerError::Start { player: self.name.clone(), reason };
        if let EngineKind::Uci(engine) = &self.kind {
            let player = UciPlayer::<G>::start(&self.name, engine.clone())?;
            return Ok(Box::new(player));
        }
        TranspositionTable::check_allocation(self.hash_mb()).map_err(|e| start_error(e.to_string()))?;
        let build = match &self.kind {
            EngineKind::Builtin(config) => Build::Chess(config.clone()),
            EngineKind::XiangqiBuiltin(config) => Build::Xiangqi(config.clone()),
            EngineKind::Uci(_) => unreachable!("an external engine was started above"),
        };
        let name = self.name.clone();
        match catch_unwind(move || builtin_player::<G>(&name, build)) {
            Ok(player) => player,
            Err(payload) => {
                let reason = panic_text(payload.as_ref()).unwrap_or_else(|| "panic".to_string());
                Err(start_error(format!("the engine panicked: {reason}")))
            }
        }
    }
}

/// Why a name cannot be an engine's name: `None` for a good name; otherwise the reason, in words. Names go into
/// PGN tags and CSV cells, so they must be non-empty and free of control characters, `"` and `\`.
///
/// # Examples
/// ```
/// use arbiter::player::bad_engine_name;
/// assert_eq!(bad_engine_name("seed-2"), None);
/// assert!(bad_engine_name("").is_some());
/// assert!(bad_engine_name("a\nb").is_some());
/// assert!(bad_engine_name("say \"hi\"").is_some());
/// ```
pub fn bad_engine_name(name: &str) -> Option<&'static str> {
    if name.trim().is_empty() {
        Some("an engine name must not be empty")
    } else if name.chars().any(char::is_control) {
        Some("an engine name must not hold control characters (they would break PGN tags)")
    } else if name.contains(['"', '\\']) {
        Some("an engine name must not hold '\"' or '\\' (they would break PGN tags)")
    } else {
        None
    }
}

/// The keys of `--engine`.
pub const ENGINE_KEYS: [&str; 14] = [
    "name",
    "bench",
    "config",
    "cmd",
    "args",
    "dir",
    "proto",
    "restart",
    "tc",
    "st",
    "nodes",
    "depth",
    "timemargin",
    "option.*",
];

/// The keys of `--engine` and `--each` whose values may be quoted in shell syntax, so that they can hold `,`
/// (`option.SyzygyPath="/a,/b"`, `cmd="/opt/my engine/bin"`, `args="--threads 1 'a b'"`); the other values
/// (the name, the limits) are taken as written.
pub const QUOTED_KEYS: [&str; 5] = ["config", "cmd", "args", "dir", "option.*"];

/// The keys of `--each`: those of `--engine` but `name`, `config` and `cmd`.
pub const EACH_KEYS: [&str; 10] =
    ["args", "dir", "proto", "restart", "tc", "st", "nodes", "depth", "timemargin", "option.*"];

/// Why an `--engine` (or `--each`) value cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum EngineArgError {
    /// A built-in engine asked for in a game that has none (checkers).
    #[error("--game {}: Arbiter has no built-in engine for this game", game.name())]
    NoBuiltinEngine {
        /// The game of the match.
        game: GameKind,
    },
    /// The key=value text is malformed, or a value is bad.
    #[error(transparent)]
    KeyValue(#[from] KeyValueError),
    /// The config file is missing or bad.
    #[error("--engine: {0}")]
    Config(crate::engine::chess::ConfigError),
    /// The Xiangqi config file is missing or bad.
    #[error("--engine: {0}")]
    XiangqiConfig(crate::engine::xiangqi::XiangqiConfigError),
    /// A `config=` file that is a build of the other game (a chess build with `--game xiangqi`, or the reverse).
    #[error("--engine: {path}: a {is} build, but this match plays {plays}; {hint}")]
    WrongGame {
        /// The config file.
        path: String,
        /// The game the file is a build of.
        is: &'static str,
        /// The game of the match.
        plays: &'static str,
        /// What to give instead.
        hint: &'static str,
    },
    /// `option.UCI_Variant=` in a game that sets `UCI_Variant` itself (it would make the engine play another game).
    #[error(
        "--engine: {name}: option.{option}= cannot be given with --game {game}: Arbiter sets UCI_Variant to {game}"
    )]
    VariantOption {
        /// The engine's name.
        name: String,
        /// The option as given.
        option: String,
        /// The game of the match.
        game: &'static str,
    },
    /// No `config=` or `cmd=` and the name is not built in.
    #[error("--engine: `{name}` has no config= or cmd= and is not a built-in build ({builtins})")]
    NotBuiltin {
        /// The name given.
        name: String,
        /// The built-in builds of the game played.
        builtins: &'static str,
    },
    /// Neither `name=` nor `config=` nor `cmd=`.
    #[error("--engine: give name= with a built-in build, config=, or cmd=")]
    Nameless,
    /// Both `config=` and `cmd=`.
    #[error("--engine: config= (a built-in build) and cmd= (an external engine) exclude each other")]
    ConfigAndCmd,
    /// A key that only external engines take, given for a built-in build.
    #[error("--engine: {key}= applies to external engines (cmd=) only, not to the built-in build `{name}`")]
    UciOnly {
        /// The key.
        key: String,
        /// The engine's name.
        name: String,
    },
    /// A text Arbiter would send to the engine (a UCI option's name or value) that holds a line break or
    /// another control character, which the engine would read as a second command, or an option name that
    /// `setoption name NAME value VALUE` cannot carry.
    #[error("--engine: {name}: {field} {}: {reason}", crate::notation::quote::shown(.text))]
    UnsendableText {
        /// The engine's name.
        name: String,
        /// The field: `option name` or `value of option NAME`.
        field: String,
        /// The text given.
        text: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// An external engine with no move limit ([`EngineSpec::require_limit`]).
    #[error(
        "--engine: {name} ({cmd}) has no move limit: an external engine would search until told to stop; give {flags}"
    )]
    NoLimit {
        /// The engine's name.
        name: String,
        /// Its command line.
        cmd: String,
        /// The flags and keys that set a limit, in words.
        flags: String,
    },
    /// A name that would break PGN tags or the CSV (see [`bad_engine_name`]).
    #[error("--engine: {origin}: {reason}, got {}", crate::notation::quote::shown(.name))]
    BadName {
        /// Where the name came from: `name=` or the config file's `name` key.
        origin: String,
        /// The name given.
        name: String,
        /// What is wrong with it.
        reason: &'static str,
    },
}

impl From<BuildError> for EngineArgError {
    fn from(error: BuildError) -> EngineArgError {
        match error {
            BuildError::Config(e) => EngineArgError::Config(e),
            BuildError::XiangqiConfig(e) => EngineArgError::XiangqiConfig(e),
            BuildError::WrongGame { path, is, plays, hint } => EngineArgError::WrongGame { path, is, plays, hint },
        }
    }
}

/// Settings shared by every engine (`--each`), parsed once.
#[derive(Clone, Debug, Default)]
pub struct EachArgs {
    kv: Option<KeyValues>,
}

impl EachArgs {
    /// Parses an `--each` value (`None`: no shared settings).
    ///
    /// # Errors
    /// [`EngineArgError::KeyValue`] naming `--each` and the key.
    pub fn parse(text: Option<&str>) -> Result<EachArgs, EngineArgError> {
        let kv = text.map(|t| KeyValues::parse_quoted("--each", t, &EACH_KEYS, &QUOTED_KEYS)).transpose()?;
        if let Some(kv) = &kv {
            // Check the values now, so that an error names --each.
            limit_from(kv, MoveLimit::default())?;
            if let Some(proto) = kv.text("proto")
                && proto != "uci"
            {
                return Err(kv.bad_value("proto", "uci").into());
            }
            on_off(kv, "restart")?;
            kv.words("args")?;
        }
        Ok(EachArgs { kv })
    }
}

/// `on`/`off` (also `true`/`false`, `yes`/`no`) of `key`, if given.
fn on_off(kv: &KeyValues, key: &str) -> Result<Option<bool>, KeyValueError> {
    match kv.text(key) {
        None => Ok(None),
        Some("on" | "true" | "yes") => Ok(Some(true)),
        Some("off" | "false" | "no") => Ok(Some(false)),
        Some(_) => Err(kv.bad_value(key, "on or off")),
    }
}

/// `base` with the limits that `kv` sets (`tc`, `st`, `nodes`, `depth`, `timemargin`).
fn limit_from(kv: &KeyValues, base: MoveLimit) -> Result<MoveLimit, KeyValueError> {
    let mut limit = base;
    if let Some(text) = kv.text("tc") {
        limit.tc = Some(TimeControl::parse(text).map_err(|_| {
            kv.bad_value("tc", "a time control [MOVES/]SECONDS[+INCREMENT] such as 10+0.1 or 40/60+0.6")
        })?);
    }
    if let Some(text) = kv.text("st") {
        let seconds: f64 = text.parse().map_err(|_| kv.bad_value("st", "seconds per move, such as 0.5"))?;
        if !(seconds > 0.0 && seconds <= 1e6) {
            return Err(kv.bad_value("st", "seconds per move, more than 0"));
        }
        limit.movetime_ms = Some(((seconds * 1000.0).round() as u64).max(1));
    }
    let mut kv = kv.clone();
    if let Some(nodes) = kv.take::<u64>("nodes", "a whole number of nodes, at least 1")? {
        if nodes == 0 {
            return Err(kv.bad_value("nodes", "a whole number of nodes, at least 1"));
        }
        limit.nodes = Some(nodes);
    }
    if let Some(depth) = kv.take::<u32>("depth", "a depth in plies, at least 1")? {
        if depth == 0 {
            return Err(kv.bad_value("depth", "a depth in plies, at least 1"));
        }
        limit.depth = Some(depth);
    }
    if let Some(margin) = kv.take::<u64>("timemargin", "milliseconds")? {
        limit.timemargin_ms = margin;
    }
    Ok(limit)
}

/// Parses one `--engine` value with no `--each` (see [`parse_engine_with`]).
///
/// # Errors
/// As [`parse_engine_with`].
pub fn parse_engine(text: &str) -> Result<EngineSpec, EngineArgError> {
    parse_engine_with(text, &EachArgs::default())
}

/// Parses one `--engine` value over the shared `each` settings. With `config=` the build is read from the
/// file (`name=` then overrides its name; without `name=` the config's own name is used); with `cmd=` it is an
/// external UCI engine (named by `name=`, else by the program's file name); with neither the name must be built
/// in ([`EngineSpec::builtin`]). The move limit holds the engine's `tc`/`st`/`nodes`/`depth`/`timemargin`
/// over those of `each`; the caller adds the global flags' limits where neither sets one.
///
/// # Errors
/// [`EngineArgError`] naming the key or the config file and key.
pub fn parse_engine_with(text: &str, each: &EachArgs) -> Result<EngineSpec, EngineArgError> {
    parse_engine_for(text, each, GameKind::Chess)
}

/// [`parse_engine_with`] for the game `game`: for Xiangqi, `config=` reads a Xiangqi config
/// ([`XiangqiConfig::load`]) and the built-in builds are `seed` and `nopsqt` ([`XiangqiConfig::builtin`]).
///
/// # Errors
/// As [`parse_engine_with`].
pub fn parse_engine_for(text: &str, each: &EachArgs, game: GameKind) -> Result<EngineSpec, EngineArgError> {
    let kv = KeyValues::parse_quoted("--engine", text, &ENGINE_KEYS, &QUOTED_KEYS)?;
    let name = kv.text("name");
    let bad_name = |origin: String, name: &str| {
        bad_engine_name(name).map(|reason| EngineArgError::BadName { origin, name: name.to_string(), reason })
    };
    // The name of a `config=` build: `name=` when given, else the file's own `name` key (which must then make
    // a good engine name).
    let config_build_name = |own: &str| match name {
        Some(name) => Ok(name.to_string()),
        None => {
            let path = kv.text("config").unwrap_or_default();
            bad_name(format!("{path}: key `name`"), own).map_or_else(|| Ok(own.to_string()), Err)
        }
    };
    if let Some(error) = name.and_then(|name| bad_name("name=".to_string(), name)) {
        return Err(error);
    }
    if let Some(proto) = kv.text("proto")
        && proto != "uci"
    {
        return Err(kv.bad_value("proto", "uci").into());
    }
    let mut spec = match (name, kv.text("config"), kv.text("cmd")) {
        (_, Some(_), Some(_)) => return Err(EngineArgError::ConfigAndCmd),
        (_, Some(path), None) => {
            let mut build = Build::load(engine_game(game)?, path)?;
            let name = config_build_name(build.name())?;
            build.set_name(&name);
            EngineSpec::from_build(&name, build, path)
        }
        (_, None, Some(cmd)) => {
            if cmd.is_empty() {
                return Err(kv.bad_value("cmd", "a program: a path or a name on PATH").into());
            }
            let name = match name {
                Some(name) => name.to_string(),
                None => {
                    let file = std::path::Path::new(cmd).file_name().map(|f| f.to_string_lossy().into_owned());
                    let file = file.unwrap_or_else(|| cmd.to_string());
                    if let Some(error) = bad_name(format!("cmd={cmd}"), &file) {
                        return Err(error);
                    }
                    file
                }
            };
            let engine = uci_engine(cmd, &kv, each)?;
            check_sent_texts(&name, &engine)?;
            if game == GameKind::Xiangqi
                && let Some((option, _)) = engine.options.iter().find(|(n, _)| n.eq_ignore_ascii_case("UCI_Variant"))
            {
                return Err(EngineArgError::VariantOption { name, option: option.clone(), game: "xiangqi" });
            }
            EngineSpec::uci(&name, engine)
        }
        (Some(name), None, None) => {
            let engine_game = engine_game(game)?;
            let builtin = Build::named(engine_game, name);
            let builtins = engine_game.builtin_names();
            let build = builtin.ok_or(EngineArgError::NotBuiltin { name: name.to_string(), builtins })?;
            EngineSpec::from_build(name, build, "built-in")
        }
        (None, None, None) => return Err(EngineArgError::Nameless),
    };
    if kv.text("cmd").is_none() {
        for key in kv.keys() {
            if matches!(key, "args" | "dir" | "restart") || key.starts_with("option.") {
                return Err(EngineArgError::UciOnly { key: key.to_string(), name: spec.name.clone() });
            }
        }
    }
    let shared = match &each.kv {
        Some(each) => limit_from(each, MoveLimit::default())?,
        None => MoveLimit::default(),
    };
    spec.limit = limit_from(&kv, shared)?;
    spec.bench = bench_signature(&kv)?;
    Ok(spec)
}

/// The bench signature of `bench=N` (a whole number of nodes, at least 1), if given.
fn bench_signature(kv: &KeyValues) -> Result<Option<u64>, KeyValueError> {
    let mut kv = kv.clone();
    let expected = "the engine's bench signature: a whole number of nodes, at least 1";
    match kv.take::<u64>("bench", expected)? {
        Some(0) => Err(kv.bad_value("bench", expected)),
        bench => Ok(bench),
    }
}

/// The game whose built-in engine an entrant of a `game` match runs; checkers has none (`arbiter match` refuses
/// checkers before reading engines).
fn engine_game(game: GameKind) -> Result<EngineGame, EngineArgError> {
    EngineGame::of(game).ok_or(EngineArgError::NoBuiltinEngine { game })
}

/// Refuses an external engine whose UCI options cannot be sent as one `setoption name NAME value VALUE` line:
/// a name or value holding a control character (a line break would start a second command; the UCI
/// specification reads commands line by line), an empty name, or a name holding the word `value` (where the
/// engine would take the value to start).
fn check_sent_texts(name: &str, engine: &UciEngine) -> Result<(), EngineArgError> {
    let error = |field: String, text: &str, reason| EngineArgError::UnsendableText {
        name: name.to_string(),
        field,
        text: text.to_string(),
        reason,
    };
    let control = "holds a line break or another control character, which the engine would read as another command";
    for (option, value) in &engine.options {
        if option.chars().any(char::is_control) {
            return Err(error("option name".to_string(), option, control));
        }
        if option.trim().is_empty() {
            return Err(error("option name".to_string(), option, "an option name must not be empty"));
        }
        if option.split_whitespace().any(|word| word == "value" || word == "name") {
            return Err(error(
                "option name".to_string(),
                option,
                "an option name cannot hold the word `value` or `name` (setoption name NAME value VALUE)",
            ));
        }
        if value.chars().any(char::is_control) {
            return Err(error(format!("value of option {option}"), value, control));
        }
    }
    Ok(())
}

/// The external engine of `cmd` with the keys of the engine (`kv`) over those of `each`.
fn uci_engine(cmd: &str, kv: &KeyValues, each: &EachArgs) -> Result<UciEngine, KeyValueError> {
    let mut engine = UciEngine::new(cmd);
    let layers: Vec<&KeyValues> = each.kv.iter().chain(std::iter::once(kv)).collect();
    for layer in layers {
        if let Some(args) = layer.words("args")? {
            engine.args = args;
        }
        if let Some(dir) = layer.text("dir") {
            engine.dir = Some(PathBuf::from(dir));
        }
        if let Some(restart) = on_off(layer, "restart")? {
            engine.restart = restart;
        }
        for (name, value) in layer.with_prefix("option.") {
            // An engine's own option replaces the same option from --each.
            engine.options.retain(|(n, _)| !n.eq_ignore_ascii_case(&name));
            engine.options.push((name, value));
        }
    }
    Ok(engine)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess;

    #[test]
    fn external_engines() {
        let each = EachArgs::parse(Some("tc=10+0.1,option.Hash=32,timemargin=50")).unwrap();
        let spec = parse_engine_with(
            "name=sf,cmd=/usr/games/stockfish,option.Hash=16,option.Threads=1,option.Skill Level=5,args=-a b,\
             dir=/tmp,restart=on",
            &each,
        )
        .unwrap();
        assert_eq!(spec.name, "sf");
        let EngineKind::Uci(engine) = &spec.kind else { panic!("an external engine") };
        assert_eq!(engine.cmd, "/usr/games/stockfish");
        assert_eq!(engine.args, ["-a", "b"]);
        assert_eq!(engine.dir, Some(PathBuf::from("/tmp")));
        assert!(engine.restart);
        let options: Vec<(&str, &str)> = engine.options.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
        assert_eq!(options, [("Hash", "16"), ("Threads", "1"), ("Skill Level", "5")]);
        assert_eq!(spec.limit.tc, Some(TimeControl::parse("10+0.1").unwrap()));
        assert_eq!(spec.limit.timemargin_ms, 50);
        assert_eq!(spec.source, "/usr/games/stockfish -a b");

        // The program's file name is the default name; the engine's own limit wins over --each.
        let spec = parse_engine_with("cmd=/usr/games/glaurung,tc=40/60+0.6,nodes=1000", &each).unwrap();
        assert_eq!(spec.name, "glaurung");
        assert_eq!(spec.limit.tc, Some(TimeControl::parse("40/60+0.6").unwrap()));
        assert_eq!(spec.limit.nodes, Some(1000));
        let spec = parse_engine("name=seed,st=0.25,depth=3").unwrap();
        assert_eq!((spec.limit.movetime_ms, spec.limit.depth), (Some(250), Some(3)));
    }

    #[test]
    fn quoted_values() {
        let each = EachArgs::parse(Some(r#"option.SyzygyPath="/tb/a,/tb/b",args='-v'"#)).unwrap();
        let spec = parse_engine_with(
            r#"name=my engine,cmd="/opt/my engine/bin",args="--threads 1 'a b'",dir='/x, y',option.Book File="a,b.bin""#,
            &each,
        )
        .unwrap();
        let EngineKind::Uci(engine) = &spec.kind else { panic!("an external engine") };
        assert_eq!(spec.name, "my engine");
        assert_eq!(engine.cmd, "/opt/my engine/bin");
        assert_eq!(engine.args, ["--threads", "1", "a b"]);
        assert_eq!(engine.dir, Some(PathBuf::from("/x, y")));
        let options: Vec<(&str, &str)> = engine.options.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
        assert_eq!(options, [("SyzygyPath", "/tb/a,/tb/b"), ("Book File", "a,b.bin")]);
        assert_eq!(spec.source, "'/opt/my engine/bin' --threads 1 'a b'");
        // --each's args apply where the engine gives none.
        let spec = parse_engine_with("cmd=/usr/games/stockfish", &each).unwrap();
        let EngineKind::Uci(engine) = &spec.kind else { panic!("an external engine") };
        assert_eq!(engine.args, ["-v"]);

        let err = |text: &str| parse_engine(text).unwrap_err().to_string();
        assert_eq!(
            err(r#"name=sf,cmd=sf,option.SyzygyPath="/a,/b"#),
            r#"--engine: the quote " is never closed at character 34 of "name=sf,cmd=sf,option.SyzygyPath=\"/a,/b""#
        );
        assert_eq!(
            err(r#"name=sf,cmd=sf,args="-x 'a b""#),
            r#"--engine args=: the quote ' is never closed at character 4 of "-x 'a b""#
        );
        let err = EachArgs::parse(Some("args=it's")).unwrap_err().to_string();
        assert!(err.starts_with("--each args=: the quote ' is never closed at character 3"), "{err}");
    }

    #[test]
    fn errors_name_the_key() {
        let err = |text: &str| parse_engine(text).unwrap_err().to_string();
        assert_eq!(
            err("name=seed,option.Hash=16"),
            "--engine: option.Hash= applies to external engines (cmd=) only, not to the built-in build `seed`"
        );
        assert!(err("name=x,cmd=a,config=b.toml").contains("exclude each other"));
        assert!(err("name=sf,cmd=sf,tc=fast").contains("tc=\"fast\""));
        assert!(err("name=sf,cmd=sf,st=0").contains("st=\"0\""));
        assert!(err("name=sf,cmd=sf,nodes=0").contains("nodes=\"0\""));
        assert!(err("name=sf,cmd=sf,restart=maybe").contains("restart=\"maybe\""));
        assert!(err("name=sf,cmd=sf,proto=xboard").contains("proto=\"xboard\""));
        assert!(err("name=sf,cmd=").contains("cmd=\"\""));
        assert!(err("name=sf,cmd=sf,option.=1").contains("unknown key `option.`"));
        // A build of the other game is named as such.
        assert_eq!(
            err("name=x,config=configs/xiangqi/seed.toml"),
            "--engine: configs/xiangqi/seed.toml: a xiangqi build, but this match plays chess; add --game xiangqi, \
             or give a chess build (the layout of configs/seed.toml)"
        );
        let err = EachArgs::parse(Some("name=x")).unwrap_err().to_string();
        assert!(err.starts_with("--each: unknown key `name`"), "{err}");
        let err = EachArgs::parse(Some("tc=0")).unwrap_err().to_string();
        assert!(err.starts_with("--each: tc=\"0\""), "{err}");
    }

    #[test]
    fn external_engines_need_a_limit() {
        let sf = parse_engine("name=sf,cmd=/usr/games/stockfish,args=-x").unwrap();
        let err = sf.require_limit(&MoveLimit::default(), "--nodes").unwrap_err();
        assert_eq!(
            err.to_string(),
            "--engine: sf (/usr/games/stockfish -x) has no move limit: an external engine would search until told \
             to stop; give --nodes"
        );
        // A time margin alone is no limit; any of the others is.
        let margin = MoveLimit { timemargin_ms: 50, ..MoveLimit::default() };
        assert!(matches!(sf.require_limit(&margin, "--nodes"), Err(EngineArgError::NoLimit { .. })));
        for text in ["tc=10+0.1", "st=0.5", "nodes=100", "depth=3"] {
            let spec = parse_engine(&format!("name=sf,cmd=/usr/games/stockfish,{text}")).unwrap();
            assert!(spec.require_limit(&spec.limit, "--nodes").is_ok(), "{text}");
        }
        let seed = parse_engine("name=seed").unwrap();
        assert!(seed.require_limit(&seed.limit, "--nodes").is_ok());
    }

    #[test]
    fn builtin_builds() {
        let seed = EngineSpec::builtin("seed").unwrap();
        let nomob = EngineSpec::builtin("nomob").unwrap();
        let (EngineKind::Builtin(a), EngineKind::Builtin(b)) = (&seed.kind, &nomob.kind) else {
            panic!("built-in builds are built in")
        };
        assert_eq!(**a, EngineConfig::seed());
        assert_eq!(b.weights.mobility, [0; 4]);
        assert_eq!(b.weights.material, a.weights.material);
        assert!(EngineSpec::builtin("stockfish").is_none());
    }

    #[test]
    fn an_impossible_hash_is_a_start_error() {
        let mut spec = EngineSpec::builtin("seed").unwrap();
        assert_eq!(spec.hash_mb(), 16);
        let EngineKind::Builtin(config) = &mut spec.kind else { panic!("seed is built in") };
        config.hash_mb = usize::MAX >> 20;
        let err = spec.create::<chess::ChessGame>().err().unwrap();
        assert!(matches!(&err, PlayerError::Start { player, .. } if player == "seed"), "{err}");
        assert!(err.to_string().contains("cannot allocate"), "{err}");
    }
}
