//! Engine specs: [`EngineSpec`], one entrant of a match as a job runs it (a built-in build from the
//! [`crate::engine`] registry or an external UCI engine, with its [`MoveLimit`]), which creates fresh players for
//! the worker threads. The `--engine` grammar that reads one is [`super::engine_arg`]; the form a run folder
//! stores is [`super::plan::EnginePlan`].

use super::builtin::builtin_player;
pub use super::engine_arg::{
    EACH_KEYS, ENGINE_KEYS, EachArgs, EngineArgError, QUOTED_KEYS, bad_engine_name, parse_engine, parse_engine_for,
    parse_engine_with,
};
use super::error::panic_text;
use super::timecontrol::TimeControl;
use super::uci::{UciEngine, UciPlayer};
use super::{Player, PlayerError};
use crate::engine::chess::EngineConfig;
use crate::engine::chess::tt::TranspositionTable;
use crate::engine::{Build, EngineGame};
use crate::game::Game;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::panic::catch_unwind;

/// How long one engine may think, set per engine (`--engine ...,tc=10+0.1`) or for all (`--each`, `--nodes`).
/// Every limit that is set applies; the player stops at the first one reached. With none set a player searches
/// until it decides itself (the built-in engine to its maximum depth), so a match always sets at least one.
///
/// This is also the form `run.toml` stores (the `limit` table of each engine).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveLimit {
    /// Maximum search depth in plies (UCI `go depth`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// Maximum nodes searched (UCI `go nodes`).
    #[serde(with = "crate::notation::wide::option", default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// Thinking time per move in milliseconds (`st=`, UCI `go movetime`): a move that takes longer than this
    /// plus `timemargin_ms` loses on time.
    #[serde(with = "crate::notation::wide::option", default, skip_serializing_if = "Option::is_none")]
    pub movetime_ms: Option<u64>,
    /// A clock kept by the runner (`tc=`, UCI `go wtime btime winc binc movestogo`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tc: Option<TimeControl>,
    /// How far a move may overrun the clock or `movetime_ms` before it loses on time, in milliseconds
    /// (`timemargin=`, as in cutechess-cli; default 0).
    #[serde(with = "crate::notation::wide", default, skip_serializing_if = "is_zero")]
    pub timemargin_ms: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
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
    /// A built-in engine build of the game played, from the registry ([`crate::engine::registry`]).
    Builtin(Build),
    /// An external engine process spoken to over UCI.
    Uci(UciEngine),
}

/// Where an entrant's build came from, for the summary and the advice of messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A build compiled in, named like the entrant (`seed`, `nomob`).
    Named,
    /// A built-in engine build read from this config file, as given.
    Config(String),
    /// An external engine started with this command line, as given.
    Command(String),
}

impl fmt::Display for Origin {
    /// `built-in`, the config file, or the command line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Named => f.write_str("built-in"),
            Origin::Config(text) | Origin::Command(text) => f.write_str(text),
        }
    }
}

/// One entrant of a match: its display name, its kind, its move limits and where it came from (for the summary).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The unique name used in PGN tags, the CSV and the summary.
    pub name: String,
    /// What to run.
    pub kind: EngineKind,
    /// Where the build came from: a build compiled in, a config file, or the command of an external engine.
    pub origin: Origin,
    /// How long this engine may think per move (its own `tc=`/`nodes=`/... over `--each` and the global flags).
    pub limit: MoveLimit,
    /// The bench signature the engine must show before a match (`bench=N`, see
    /// [`EngineSpec::check_bench`](super::bench)); `None`: not checked.
    pub bench: Option<u64>,
    /// Check `bench` again at each worker's first start of this engine (`arbiter match --bench-check`), not only
    /// once before the match.
    pub bench_check: bool,
    /// The engine's own Polyglot book (`book=`), read once and shared by every game slot.
    pub book: Option<std::sync::Arc<super::book::EngineBook>>,
}

impl EngineSpec {
    /// The built-in chess builds known by name, `seed` and `nomob` ([`Build::named`]); `None` for other names.
    /// The move limit is left unset.
    pub fn builtin(name: &str) -> Option<EngineSpec> {
        Build::named(EngineGame::Chess, name).map(|build| EngineSpec::from_build(name, build, Origin::Named))
    }

    /// An entrant running the built-in `build` (of either game), renamed `name`, from `origin`; the move limit
    /// is left unset.
    pub fn from_build(name: &str, mut build: Build, origin: Origin) -> EngineSpec {
        build.set_name(name);
        EngineSpec {
            name: name.to_string(),
            kind: EngineKind::Builtin(build),
            origin,
            limit: MoveLimit::default(),
            bench: None,
            bench_check: false,
            book: None,
        }
    }

    /// An entrant running the built-in chess engine with `config`, named `name`, read from the config file
    /// `source`; the move limit is left unset.
    pub fn from_config(name: &str, config: EngineConfig, source: &str) -> EngineSpec {
        EngineSpec::from_build(name, Build::Chess(Box::new(config)), Origin::Config(source.to_string()))
    }

    /// An entrant running the external UCI engine `engine`, named `name`; the move limit is left unset.
    pub fn uci(name: &str, engine: UciEngine) -> EngineSpec {
        let origin = Origin::Command(engine.command_line());
        EngineSpec {
            name: name.to_string(),
            kind: EngineKind::Uci(engine),
            origin,
            limit: MoveLimit::default(),
            bench: None,
            bench_check: false,
            book: None,
        }
    }

    /// Where the build came from, in words: `built-in`, the config file, or the command line ([`Origin`]).
    pub fn source(&self) -> String {
        self.origin.to_string()
    }

    /// The memory one player of this entrant holds for its transposition table, in MiB (for an external
    /// engine: its `Hash` option when given, else 16, the usual UCI default).
    pub fn hash_mb(&self) -> usize {
        match &self.kind {
            EngineKind::Builtin(build) => build.hash_mb(),
            EngineKind::Uci(engine) => engine.hash_mb(),
        }
    }

    /// The search threads one player of this entrant uses: 1 for the built-in engine; an external engine's
    /// `Threads` option when given as a number, else 1.
    pub fn threads(&self) -> usize {
        match &self.kind {
            EngineKind::Builtin(_) => 1,
            EngineKind::Uci(engine) => engine.numeric_option("threads").unwrap_or(1),
        }
    }

    /// Refuses an external engine that would search without a limit: with `limit` (the limit the job will
    /// give it: its own keys, `--each` and the job's flags together) unlimited, an external engine would be
    /// sent `go infinite` and never answer, as cutechess-cli refuses a match without a time control
    /// (`projects/cli/src/main.cpp`, "Invalid or missing time control"). Built-in engines pass: each job gives
    /// them its documented default. The command line adds what sets a limit in its own flags.
    ///
    /// # Errors
    /// [`EngineArgError::NoLimit`] naming the engine and its command.
    ///
    /// # Examples
    /// ```
    /// use arbiter::player::{MoveLimit, spec::parse_engine};
    /// let sf = parse_engine("name=sf,cmd=/usr/games/stockfish").unwrap();
    /// let err = sf.require_limit(&MoveLimit::default()).unwrap_err();
    /// assert!(err.to_string().contains("sf"), "{err}");
    /// assert!(sf.require_limit(&MoveLimit { nodes: Some(5000), ..MoveLimit::default() }).is_ok());
    /// assert!(parse_engine("name=seed").unwrap().require_limit(&MoveLimit::default()).is_ok());
    /// ```
    pub fn require_limit(&self, limit: &MoveLimit) -> Result<(), EngineArgError> {
        match &self.kind {
            EngineKind::Uci(engine) => EngineArgError::require_limit(&self.name, engine, limit),
            EngineKind::Builtin(_) => Ok(()),
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
        let build = match &self.kind {
            EngineKind::Uci(engine) if engine.xboard => {
                return Ok(Box::new(super::xboard::XboardPlayer::<G>::start(&self.name, engine.clone())?));
            }
            EngineKind::Uci(engine) => return Ok(Box::new(UciPlayer::<G>::start(&self.name, engine.clone())?)),
            EngineKind::Builtin(build) => build.clone(),
        };
        TranspositionTable::check_allocation(self.hash_mb()).map_err(|e| start_error(e.to_string()))?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess;

    #[test]
    fn an_impossible_hash_is_a_start_error() {
        let mut spec = EngineSpec::builtin("seed").unwrap();
        assert_eq!(spec.hash_mb(), 16);
        let EngineKind::Builtin(Build::Chess(config)) = &mut spec.kind else { panic!("seed is built in") };
        config.hash_mb = usize::MAX >> 20;
        let err = spec.create::<chess::ChessGame>().err().unwrap();
        assert!(matches!(&err, PlayerError::Start { player, .. } if player == "seed"), "{err}");
        assert!(err.to_string().contains("cannot allocate"), "{err}");
    }
}
