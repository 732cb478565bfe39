//! The `--engine` and `--each` values of `arbiter match`, in the cutechess-cli/fastchess style:
//!
//! ```text
//! --engine name=seed,config=configs/seed.toml,tc=10+0.1
//! --engine name=sf,cmd=/usr/games/stockfish,option.Hash=16,option.Threads=1,option.Skill Level=5,nodes=20000
//! --each tc=40/60+0.6,timemargin=50
//! ```
//!
//! Keys: `name`, `config` (a built-in build from a TOML file), `cmd` (an external UCI engine), `args`
//! (its arguments, separated by spaces), `dir` (its working directory), `proto` (`uci`, the only protocol),
//! `option.NAME` (a UCI option), `restart` (`on`: a fresh process every game; `off`, the default), and the move
//! limits `tc` (time control, [`TimeControl`]), `st` (seconds per move), `nodes`, `depth` and `timemargin`
//! (milliseconds a move may overrun). `--each` takes every key but `name`, `config` and `cmd`, and applies to
//! every engine; an engine's own key wins over `--each`.

use crate::engine::EngineConfig;
use crate::game::GameKind;
use crate::runner::player::bad_engine_name;
use crate::runner::timecontrol::TimeControl;
use crate::runner::uci_player::UciEngine;
use crate::runner::{EngineSpec, KeyValueError, KeyValues, MoveLimit};
use crate::xiangqi::engine::XiangqiConfig;
use std::path::PathBuf;

/// The keys of `--engine`.
pub const ENGINE_KEYS: [&str; 13] = [
    "name",
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

/// The keys of `--each`: those of `--engine` but `name`, `config` and `cmd`.
pub const EACH_KEYS: [&str; 10] =
    ["args", "dir", "proto", "restart", "tc", "st", "nodes", "depth", "timemargin", "option.*"];

/// Why an `--engine` (or `--each`) value cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum EngineArgError {
    /// The key=value text is malformed, or a value is bad.
    #[error(transparent)]
    KeyValue(#[from] KeyValueError),
    /// The config file is missing or bad.
    #[error("--engine: {0}")]
    Config(#[from] crate::engine::config::ConfigError),
    /// The Xiangqi config file is missing or bad.
    #[error("--engine: {0}")]
    XiangqiConfig(#[from] crate::xiangqi::engine::XiangqiConfigError),
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
        let kv = text.map(|t| KeyValues::parse("--each", t, &EACH_KEYS)).transpose()?;
        if let Some(kv) = &kv {
            // Check the values now, so that an error names --each.
            limit_from(kv, MoveLimit::default())?;
            if let Some(proto) = kv.text("proto")
                && proto != "uci"
            {
                return Err(kv.bad_value("proto", "uci").into());
            }
            on_off(kv, "restart")?;
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
    let kv = KeyValues::parse("--engine", text, &ENGINE_KEYS)?;
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
        (_, Some(path), None) if game == GameKind::Xiangqi => {
            let config = XiangqiConfig::load(std::path::Path::new(path)).map_err(|e| {
                if EngineConfig::load(path).is_ok() {
                    EngineArgError::WrongGame {
                        path: path.to_string(),
                        is: "chess",
                        plays: "xiangqi",
                        hint: "give a Xiangqi build (the layout of configs/xiangqi/seed.toml)",
                    }
                } else {
                    e.into()
                }
            })?;
            let name = config_build_name(&config.name)?;
            EngineSpec::xiangqi(&name, config, path)
        }
        (_, Some(path), None) => {
            let config = EngineConfig::load(path).map_err(|e| {
                if XiangqiConfig::load(std::path::Path::new(path)).is_ok() {
                    EngineArgError::WrongGame {
                        path: path.to_string(),
                        is: "xiangqi",
                        plays: "chess",
                        hint: "add --game xiangqi, or give a chess build (the layout of configs/seed.toml)",
                    }
                } else {
                    e.into()
                }
            })?;
            let name = config_build_name(&config.name)?;
            EngineSpec::from_config(&name, config, path)
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
            let builtin = match game {
                GameKind::Chess => EngineSpec::builtin(name),
                GameKind::Xiangqi => {
                    XiangqiConfig::builtin(name).map(|config| EngineSpec::xiangqi(name, config, "built-in"))
                }
                // No built-in checkers engine: `arbiter match` refuses checkers before reading engines.
                GameKind::Russian | GameKind::English => None,
            };
            let builtins = if game == GameKind::Chess { "seed, nomob" } else { "seed, nopsqt" };
            builtin.ok_or(EngineArgError::NotBuiltin { name: name.to_string(), builtins })?
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
    Ok(spec)
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
        if let Some(args) = layer.text("args") {
            engine.args = args.split_whitespace().map(str::to_string).collect();
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
    use crate::runner::EngineKind;

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
}
