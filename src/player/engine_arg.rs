//! The `--engine` and `--each` grammar of every job, in the cutechess-cli/fastchess style, read into an
//! [`EnginePlan`] once ([`parse_engine_plan`]); [`parse_engine`] and its siblings load that plan into the
//! [`EngineSpec`] a job runs ([`EnginePlan::load`]):
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
//! (its working directory), `proto` (`uci`, or `xboard` for a CECP engine),
//! `option.NAME` (a UCI option), `restart` (`on`: a fresh process every game; `off`, the default), and the move
//! limits `tc` (time control, [`TimeControl`]), `st` (seconds per move), `nodes`, `depth` and `timemargin`
//! (milliseconds a move may overrun). `--each` takes every key but `name`, `config` and `cmd`, and applies to
//! every engine; an engine's own key wins over `--each`.
//!
//! The values of `config`, `cmd`, `args`, `dir` and `option.NAME` ([`QUOTED_KEYS`]) may be quoted in POSIX
//! shell syntax to hold commas: `option.SyzygyPath="/a,/b"`, `cmd="/opt/my engine/bin"`,
//! `args="--threads 1 'a b'"` ([`KeyValues::parse_quoted`]).

use super::plan::{BookPlan, EngineBuild, EnginePlan, UciPlan, absolute};
use super::spec::{EngineSpec, MoveLimit, Origin};
use super::timecontrol::TimeControl;
use super::uci::UciEngine;
use crate::engine::{Build, BuildError, EngineGame};
use crate::games::GameKind;
use crate::notation::kv::{KeyValueError, KeyValues};
use std::path::{Path, PathBuf};

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
pub const ENGINE_KEYS: [&str; 19] = [
    "name",
    "bench",
    "config",
    "cmd",
    "args",
    "dir",
    "proto",
    "restart",
    "ponder",
    "whitepov",
    "initstr",
    "tc",
    "st",
    "nodes",
    "depth",
    "timemargin",
    "book",
    "bookdepth",
    "option.*",
];

/// The keys of `--engine` and `--each` whose values may be quoted in shell syntax, so that they can hold `,`
/// (`option.SyzygyPath="/a,/b"`, `cmd="/opt/my engine/bin"`, `args="--threads 1 'a b'"`); the other values
/// (the name, the limits) are taken as written.
pub const QUOTED_KEYS: [&str; 7] = ["config", "cmd", "args", "dir", "book", "initstr", "option.*"];

/// The keys of `--each`: those of `--engine` but `name`, `config` and `cmd`.
pub const EACH_KEYS: [&str; 15] = [
    "args",
    "dir",
    "proto",
    "restart",
    "ponder",
    "whitepov",
    "initstr",
    "tc",
    "st",
    "nodes",
    "depth",
    "timemargin",
    "book",
    "bookdepth",
    "option.*",
];

/// Why an `--engine` (or `--each`) value cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum EngineArgError {
    /// A built-in engine asked for in a game that has none (checkers).
    #[error("{}: Arbiter has no built-in engine for this game", game.name())]
    NoBuiltinEngine {
        /// The game of the match.
        game: GameKind,
    },
    /// The key=value text is malformed, or a value is bad.
    #[error(transparent)]
    KeyValue(#[from] KeyValueError),
    /// The config file is missing or bad.
    #[error("{0}")]
    Config(crate::engine::chess::ConfigError),
    /// The Xiangqi config file is missing or bad.
    #[error("{0}")]
    XiangqiConfig(crate::engine::xiangqi::XiangqiConfigError),
    /// A `config=` file that is a build of the other game (a chess build with `--game xiangqi`, or the reverse).
    #[error("{path}: a {is} build, but this match plays {plays}; {hint}")]
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
    #[error("{name}: option.{option}= cannot be given in a {game} match: Arbiter sets UCI_Variant to {game}")]
    VariantOption {
        /// The engine's name.
        name: String,
        /// The option as given.
        option: String,
        /// The game of the match.
        game: &'static str,
    },
    /// No `config=` or `cmd=` and the name is not built in.
    #[error("`{name}` has no config= or cmd= and is not a built-in build ({builtins})")]
    NotBuiltin {
        /// The name given.
        name: String,
        /// The built-in builds of the game played.
        builtins: &'static str,
    },
    /// Neither `name=` nor `config=` nor `cmd=`.
    #[error("give name= with a built-in build, config=, or cmd=")]
    Nameless,
    /// Both `config=` and `cmd=`.
    #[error("config= (a built-in build) and cmd= (an external engine) exclude each other")]
    ConfigAndCmd,
    /// A key that only external engines take, given for a built-in build.
    #[error("{key}= applies to external engines (cmd=) only, not to the built-in build `{name}`")]
    UciOnly {
        /// The key.
        key: String,
        /// The engine's name.
        name: String,
    },
    /// A text Arbiter would send to the engine (a UCI option's name or value) that holds a line break or
    /// another control character, which the engine would read as a second command, or an option name that
    /// `setoption name NAME value VALUE` cannot carry.
    #[error("{name}: {field} {}: {reason}", crate::notation::quote::shown(.text))]
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
    #[error("{name} ({cmd}) has no move limit: an external engine would search until told to stop")]
    NoLimit {
        /// The engine's name.
        name: String,
        /// Its command line.
        cmd: String,
    },
    /// `book=` in a game without Polyglot books.
    #[error("{name}: book=: Polyglot books are for chess, not {}", game.name())]
    BookGame {
        /// The engine's name.
        name: String,
        /// The game of the match.
        game: GameKind,
    },
    /// A `book=` file that cannot be read or is not a Polyglot book.
    #[error("{name}: book={reason}")]
    Book {
        /// The engine's name.
        name: String,
        /// The file and what is wrong.
        reason: String,
    },
    /// A name that would break PGN tags or the CSV (see [`bad_engine_name`]).
    #[error("{origin}: {reason}, got {}", crate::notation::quote::shown(.name))]
    BadName {
        /// Where the name came from: `name=` or the config file's `name` key.
        origin: String,
        /// The name given.
        name: String,
        /// What is wrong with it.
        reason: &'static str,
    },
}

impl EngineArgError {
    /// [`EngineArgError::NoLimit`] for the external engine `name` run as `engine` when `limit` is unlimited:
    /// the one check behind [`EngineSpec::require_limit`] and [`EnginePlan::require_limit`].
    ///
    /// # Errors
    /// [`EngineArgError::NoLimit`].
    pub(crate) fn require_limit(name: &str, engine: &UciEngine, limit: &MoveLimit) -> Result<(), EngineArgError> {
        if limit.is_unlimited() {
            Err(EngineArgError::NoLimit { name: name.to_string(), cmd: engine.command_line() })
        } else {
            Ok(())
        }
    }
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
        let kv = text.map(|t| KeyValues::parse_quoted("each", t, &EACH_KEYS, &QUOTED_KEYS)).transpose()?;
        if let Some(kv) = &kv {
            // Check the values now, so that an error names --each.
            limit_from(kv, MoveLimit::default())?;
            if let Some(proto) = kv.text("proto")
                && proto != "uci"
                && proto != "xboard"
            {
                return Err(kv.bad_value("proto", "uci or xboard").into());
            }
            on_off(kv, "restart")?;
            on_off(kv, "ponder")?;
            on_off(kv, "whitepov")?;
            kv.words("args")?;
            book_from(kv, None, Path::new(""))?;
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
        // `tc=inf` (cutechess-cli's, and what OpenBench workers send with `nodes=` or `depth=`): no clock.
        limit.tc = if text == "inf" {
            None
        } else {
            Some(TimeControl::parse(text).map_err(|_| {
                kv.bad_value("tc", "a time control [MOVES/]SECONDS[+INCREMENT] such as 10+0.1 or 40/60+0.6, or inf")
            })?)
        };
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

/// Parses one chess `--engine` value over the shared `each` settings and loads it ([`parse_engine_plan`],
/// [`EnginePlan::load`]); paths stay as given.
///
/// # Errors
/// As [`parse_engine_plan`].
pub fn parse_engine_with(text: &str, each: &EachArgs) -> Result<EngineSpec, EngineArgError> {
    parse_engine_for(text, each, GameKind::Chess)
}

/// [`parse_engine_with`] for the game `game`.
///
/// # Errors
/// As [`parse_engine_plan`].
pub fn parse_engine_for(text: &str, each: &EachArgs, game: GameKind) -> Result<EngineSpec, EngineArgError> {
    let (plan, read) = parse_plan(text, each, game, Path::new(""))?;
    match read {
        // The config file was read while parsing: its build is used rather than reading the file again.
        Some(build) if plan.book.is_none() => Ok(EngineSpec {
            limit: plan.limit,
            bench: plan.bench,
            ..EngineSpec::from_build(&plan.name, build, Origin::Config(plan.source))
        }),
        _ => plan.load(game),
    }
}

/// Parses one `--engine` value of a `game` match over the shared `each` settings into its plan, paths made
/// absolute against `cwd`. With `config=` the build is read from the file (checked now; `name=` then
/// overrides its name; without `name=` the config's own name is used); with `cmd=` it is an external UCI
/// engine (named by `name=`, else by the program's file name); with neither the name must be a built-in build
/// of the game ([`Build::named`]). The move limit holds the engine's `tc`/`st`/`nodes`/`depth`/`timemargin`
/// over those of `each`; the caller adds the global flags' limits where neither sets one.
///
/// # Errors
/// [`EngineArgError`] naming the key or the config file and key.
pub fn parse_engine_plan(
    text: &str,
    each: &EachArgs,
    game: GameKind,
    cwd: &Path,
) -> Result<EnginePlan, EngineArgError> {
    Ok(parse_plan(text, each, game, cwd)?.0)
}

/// [`parse_engine_plan`], with the build of a `config=` file as read to check it.
fn parse_plan(
    text: &str,
    each: &EachArgs,
    game: GameKind,
    cwd: &Path,
) -> Result<(EnginePlan, Option<Build>), EngineArgError> {
    let mut read = None;
    let kv = KeyValues::parse_quoted("engine", text, &ENGINE_KEYS, &QUOTED_KEYS)?;
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
        && proto != "xboard"
    {
        return Err(kv.bad_value("proto", "uci or xboard").into());
    }
    let (name, build, source) = match (name, kv.text("config"), kv.text("cmd")) {
        (_, Some(_), Some(_)) => return Err(EngineArgError::ConfigAndCmd),
        (_, Some(path), None) => {
            let build = Build::load(engine_game(game)?, path)?;
            let name = config_build_name(build.name())?;
            read = Some(build);
            (name, EngineBuild::Config { path: absolute(Path::new(path), cwd) }, path.to_string())
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
            if let Some(variant) = game.uci_variant()
                && let Some((option, _)) = engine.options.iter().find(|(n, _)| n.eq_ignore_ascii_case("UCI_Variant"))
            {
                return Err(EngineArgError::VariantOption { name, option: option.clone(), game: variant });
            }
            (name, EngineBuild::Uci(UciPlan::absolute(&engine, cwd)), engine.command_line())
        }
        (Some(name), None, None) => {
            let engine_game = engine_game(game)?;
            if Build::named(engine_game, name).is_none() {
                let builtins = engine_game.builtin_names();
                return Err(EngineArgError::NotBuiltin { name: name.to_string(), builtins });
            }
            (name.to_string(), EngineBuild::Builtin { build: None }, "built-in".to_string())
        }
        (None, None, None) => return Err(EngineArgError::Nameless),
    };
    if kv.text("cmd").is_none() {
        for key in kv.keys() {
            if matches!(key, "args" | "dir" | "restart" | "ponder" | "whitepov" | "initstr")
                || key.starts_with("option.")
            {
                return Err(EngineArgError::UciOnly { key: key.to_string(), name });
            }
        }
    }
    let shared = match &each.kv {
        Some(each) => limit_from(each, MoveLimit::default())?,
        None => MoveLimit::default(),
    };
    let limit = limit_from(&kv, shared)?;
    let bench = bench_signature(&kv)?;
    let book = book_from(&kv, each.kv.as_ref(), cwd)?;
    Ok((EnginePlan { name, build, source, limit, bench, book }, read))
}

/// The book of `book=` and `bookdepth=` (full moves, at least 1; cutechess-cli's 1000 by default), the engine's
/// own keys over `each`'s; the file made absolute against `cwd`.
fn book_from(kv: &KeyValues, each: Option<&KeyValues>, cwd: &Path) -> Result<Option<BookPlan>, KeyValueError> {
    let file = kv.text("book").or_else(|| each.and_then(|e| e.text("book")));
    let depth_of = |kv: &KeyValues| -> Result<Option<usize>, KeyValueError> {
        let mut kv = kv.clone();
        let expected = "full moves played from the book, at least 1";
        match kv.take::<usize>("bookdepth", expected)? {
            Some(0) => Err(kv.bad_value("bookdepth", expected)),
            depth => Ok(depth),
        }
    };
    let depth = match depth_of(kv)? {
        Some(depth) => Some(depth),
        None => each.map(depth_of).transpose()?.flatten(),
    };
    match file {
        Some("") => Err(kv.bad_value("book", "a Polyglot book file")),
        Some(file) => Ok(Some(BookPlan {
            file: absolute(Path::new(file), cwd),
            depth_moves: depth.unwrap_or(super::book::DEFAULT_BOOK_DEPTH_MOVES),
        })),
        None if depth.is_some() => Err(kv.bad_value("bookdepth", "given with book=FILE")),
        None => Ok(None),
    }
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
    if let Some(line) = engine.init.iter().find(|l| l.chars().any(char::is_control)) {
        return Err(error("initstr".to_string(), line, "holds a control character (separate lines with \\n)"));
    }
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
        if let Some(ponder) = on_off(layer, "ponder")? {
            engine.ponder = ponder;
        }
        if let Some(white_pov) = on_off(layer, "whitepov")? {
            engine.white_pov = white_pov;
        }
        if let Some(text) = layer.text("initstr") {
            // cutechess-cli's initstr: lines separated by a written `\n`.
            engine.init = text.split("\\n").map(String::from).collect();
        }
        if let Some(proto) = layer.text("proto") {
            engine.xboard = proto == "xboard";
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
    use crate::engine::chess::EngineConfig;
    use crate::player::EngineKind;

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
        assert_eq!(spec.source(), "/usr/games/stockfish -a b");

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
        assert_eq!(spec.source(), "'/opt/my engine/bin' --threads 1 'a b'");
        // --each's args apply where the engine gives none.
        let spec = parse_engine_with("cmd=/usr/games/stockfish", &each).unwrap();
        let EngineKind::Uci(engine) = &spec.kind else { panic!("an external engine") };
        assert_eq!(engine.args, ["-v"]);

        let err = |text: &str| parse_engine(text).unwrap_err().to_string();
        assert_eq!(
            err(r#"name=sf,cmd=sf,option.SyzygyPath="/a,/b"#),
            r#"engine: the quote " is never closed at character 34 of "name=sf,cmd=sf,option.SyzygyPath=\"/a,/b""#
        );
        assert_eq!(
            err(r#"name=sf,cmd=sf,args="-x 'a b""#),
            r#"engine args=: the quote ' is never closed at character 4 of "-x 'a b""#
        );
        let err = EachArgs::parse(Some("args=it's")).unwrap_err().to_string();
        assert!(err.starts_with("each args=: the quote ' is never closed at character 3"), "{err}");
    }

    #[test]
    fn errors_name_the_key() {
        let err = |text: &str| parse_engine(text).unwrap_err().to_string();
        assert_eq!(
            err("name=seed,option.Hash=16"),
            "option.Hash= applies to external engines (cmd=) only, not to the built-in build `seed`"
        );
        assert!(err("name=x,cmd=a,config=b.toml").contains("exclude each other"));
        assert!(err("name=sf,cmd=sf,tc=fast").contains("tc=\"fast\""));
        assert!(err("name=sf,cmd=sf,st=0").contains("st=\"0\""));
        assert!(err("name=sf,cmd=sf,nodes=0").contains("nodes=\"0\""));
        assert!(err("name=sf,cmd=sf,restart=maybe").contains("restart=\"maybe\""));
        assert!(err("name=sf,cmd=sf,proto=cecp").contains("proto=\"cecp\""));
        assert!(parse_engine("name=fm,cmd=fairymax,proto=xboard,tc=1+0.1").is_ok());
        assert!(err("name=sf,cmd=").contains("cmd=\"\""));
        assert!(err("name=sf,cmd=sf,option.=1").contains("unknown key `option.`"));
        // A build of the other game is named as such.
        assert_eq!(
            err("name=x,config=configs/xiangqi/seed.toml"),
            "configs/xiangqi/seed.toml: a xiangqi build, but this match plays chess; play it in a xiangqi match, or \
             give a chess build (the layout of configs/seed.toml)"
        );
        let err = EachArgs::parse(Some("name=x")).unwrap_err().to_string();
        assert!(err.starts_with("each: unknown key `name`"), "{err}");
        let err = EachArgs::parse(Some("tc=0")).unwrap_err().to_string();
        assert!(err.starts_with("each: tc=\"0\""), "{err}");
    }

    #[test]
    fn external_engines_need_a_limit() {
        let sf = parse_engine("name=sf,cmd=/usr/games/stockfish,args=-x").unwrap();
        let err = sf.require_limit(&MoveLimit::default()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "sf (/usr/games/stockfish -x) has no move limit: an external engine would search until told to stop"
        );
        // A time margin alone is no limit; any of the others is.
        let margin = MoveLimit { timemargin_ms: 50, ..MoveLimit::default() };
        assert!(matches!(sf.require_limit(&margin), Err(EngineArgError::NoLimit { .. })));
        for text in ["tc=10+0.1", "st=0.5", "nodes=100", "depth=3"] {
            let spec = parse_engine(&format!("name=sf,cmd=/usr/games/stockfish,{text}")).unwrap();
            assert!(spec.require_limit(&spec.limit).is_ok(), "{text}");
        }
        let seed = parse_engine("name=seed").unwrap();
        assert!(seed.require_limit(&seed.limit).is_ok());
    }

    #[test]
    fn builtin_builds() {
        let seed = EngineSpec::builtin("seed").unwrap();
        let nomob = EngineSpec::builtin("nomob").unwrap();
        let (EngineKind::Builtin(Build::Chess(a)), EngineKind::Builtin(Build::Chess(b))) = (&seed.kind, &nomob.kind)
        else {
            panic!("built-in builds are built in")
        };
        assert_eq!(**a, EngineConfig::seed());
        assert_eq!(b.weights.mobility, [0; 4]);
        assert_eq!(b.weights.material, a.weights.material);
        assert!(EngineSpec::builtin("stockfish").is_none());
    }

    /// A folder for the config files of a test.
    fn config_dir() -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("arbiter-engine-arg-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn engines_from_builtins_and_configs() {
        let seed = parse_engine("name=seed").unwrap();
        assert_eq!(seed.name, "seed");
        assert_eq!(seed.source(), "built-in");
        let nomob = parse_engine("name=nomob").unwrap();
        let EngineKind::Builtin(crate::engine::Build::Chess(config)) = &nomob.kind else { panic!("nomob is built in") };
        assert_eq!(config.weights.mobility, [0; 4]);

        let path = config_dir().join("mine.toml");
        let mut config = EngineConfig::seed();
        config.name = "mine".into();
        config.weights.bishop_pair = 7;
        std::fs::write(&path, config.to_toml()).unwrap();
        let text = format!("config={}", path.display());
        let spec = parse_engine(&text).unwrap();
        assert_eq!(spec.name, "mine");
        let spec = parse_engine(&format!("name=other,{text}")).unwrap();
        assert_eq!(spec.name, "other");
        let EngineKind::Builtin(crate::engine::Build::Chess(loaded)) = &spec.kind else { panic!("a config build") };
        assert_eq!(loaded.weights.bishop_pair, 7);
        assert_eq!(loaded.name, "other");
    }

    #[test]
    fn engine_errors_name_the_key_or_file() {
        let err = parse_engine("name=seed,hash=16").unwrap_err().to_string();
        assert_eq!(
            err,
            "engine: unknown key `hash`, expected one of: name, bench, config, cmd, args, dir, proto, restart, ponder, whitepov, initstr, tc, st, \
             nodes, depth, timemargin, book, bookdepth, option.*"
        );
        let err = parse_engine("name=x").unwrap_err().to_string();
        assert!(err.contains("`x` has no config="), "{err}");
        let err = parse_engine("name=x,config=/no/such/file.toml").unwrap_err().to_string();
        assert!(err.contains("/no/such/file.toml"), "{err}");
        let path = config_dir().join("bad.toml");
        std::fs::write(&path, EngineConfig::seed().to_toml().replace("bishop_pair", "bishop_pear")).unwrap();
        let err = parse_engine(&format!("name=x,config={}", path.display())).unwrap_err().to_string();
        assert!(err.contains("bad.toml") && err.contains("bishop_pear"), "{err}");
        assert!(matches!(parse_engine("config="), Err(EngineArgError::Config(_))));
        assert!(matches!(parse_engine("name="), Err(EngineArgError::BadName { .. })));
        assert!(matches!(parse_engine("config=x.toml,name=,"), Err(EngineArgError::KeyValue(_))));
    }

    #[test]
    fn engine_names_that_break_pgn_tags_are_refused() {
        for (file, name) in
            [("empty.toml", ""), ("newline.toml", "a\nb"), ("quote.toml", "a\"b"), ("slash.toml", "a\\b")]
        {
            let path = config_dir().join(file);
            let mut config = EngineConfig::seed();
            config.name = name.to_string();
            std::fs::write(&path, config.to_toml()).unwrap();
            let err = parse_engine(&format!("config={}", path.display())).unwrap_err();
            assert!(matches!(err, EngineArgError::BadName { .. }), "{err}");
            let text = err.to_string();
            assert!(text.starts_with(&format!("{}: key `name`: ", path.display())), "{text}");
            // name= overrides the config's name.
            let spec = parse_engine(&format!("name=fine,config={}", path.display())).unwrap();
            assert_eq!(spec.name, "fine");
        }
        let err = parse_engine("name=a\tb").unwrap_err().to_string();
        assert!(err.starts_with("name=: an engine name must not hold control characters"), "{err}");
        assert!(parse_engine("name=\"seed\"").is_err());
    }
}
