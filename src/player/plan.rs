//! The plan of one entrant, as a run folder's `run.toml` stores it: [`EnginePlan`] (its name, its
//! [`EngineBuild`] and its [`MoveLimit`]), and its resolution into the entrant a match plays
//! ([`EnginePlan::load`], an [`EngineSpec`]). The `--engine` grammar
//! ([`parse_engine_plan`](super::engine_arg::parse_engine_plan)) produces this plan, once; every job then loads it.

use super::spec::{EngineArgError, EngineSpec, MoveLimit, Origin};
use super::uci::UciEngine;
use crate::engine::{Build, EngineGame};
use crate::games::GameKind;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

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
    /// How long the engine may think per move (scaled already when the match plan scales time controls).
    pub limit: MoveLimit,
    /// The bench signature checked before the match (`bench=N`).
    #[serde(with = "crate::notation::wide::option", default, skip_serializing_if = "Option::is_none")]
    pub bench: Option<u64>,
    /// The engine's own Polyglot book (`book=`, `bookdepth=`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub book: Option<BookPlan>,
}

/// An engine's own Polyglot book as planned ([`super::book::EngineBook`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BookPlan {
    /// The book file (absolute).
    pub file: PathBuf,
    /// The most full moves of a game played from the book (`bookdepth=`).
    pub depth_moves: usize,
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
    #[serde(with = "crate::notation::wide")]
    pub handshake_timeout_ms: u64,
    /// Time for `readyok` before a game and for `bestmove` after `stop`, in ms.
    #[serde(with = "crate::notation::wide")]
    pub ping_timeout_ms: u64,
    /// Longest untimed search before the engine counts as stalled, in ms.
    #[serde(with = "crate::notation::wide")]
    pub stall_timeout_ms: u64,
    /// Send options the engine does not list instead of refusing it (`--allow-unknown-options`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub allow_unknown_options: bool,
    /// The xboard protocol (`proto=xboard`) instead of UCI.
    #[serde(default, skip_serializing_if = "is_false")]
    pub xboard: bool,
    /// Think on the opponent's time (`ponder=on`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub ponder: bool,
    /// The engine reports scores from White's view (`whitepov=on`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub white_pov: bool,
    /// Lines sent to the engine at its start, before the protocol's first command (`initstr=`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub init: Vec<String>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// The plan of an engine as given (its paths as they are).
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
            xboard: engine.xboard,
            ponder: engine.ponder,
            white_pov: engine.white_pov,
            init: engine.init.clone(),
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
            xboard: plan.xboard,
            ponder: plan.ponder,
            white_pov: plan.white_pov,
            init: plan.init.clone(),
        }
    }
}

/// `path` made absolute against `cwd` (not resolved through links: the file may not exist yet).
pub fn absolute(path: &Path, cwd: &Path) -> PathBuf {
    if path.is_absolute() { path.to_path_buf() } else { cwd.join(path) }
}

impl UciPlan {
    /// The plan of `engine` with its paths made absolute against `cwd`: its folder, and its program when that
    /// is a path (a relative program path is relative to the engine's own folder when it has one, else to
    /// `cwd`; a bare name is looked up on `PATH`).
    pub fn absolute(engine: &UciEngine, cwd: &Path) -> UciPlan {
        let dir = engine.dir.as_deref().map(|dir| absolute(dir, cwd));
        let cmd = if dir.is_none() && engine.cmd.contains('/') {
            absolute(Path::new(&engine.cmd), cwd).display().to_string()
        } else {
            engine.cmd.clone()
        };
        UciPlan { cmd, dir, ..UciPlan::from(engine) }
    }
}

impl EnginePlan {
    /// Refuses an external engine without a move limit, as [`EngineSpec::require_limit`] does at run time.
    ///
    /// # Errors
    /// [`EngineArgError::NoLimit`].
    pub fn require_limit(&self) -> Result<(), EngineArgError> {
        match &self.build {
            EngineBuild::Uci(uci) => EngineArgError::require_limit(&self.name, &UciEngine::from(uci), &self.limit),
            EngineBuild::Builtin { .. } | EngineBuild::Config { .. } => Ok(()),
        }
    }

    /// The entrant of this plan in `game`: a built-in build, a config file read now, or an external engine.
    ///
    /// # Errors
    /// [`EngineArgError::NoBuiltinEngine`] for a built-in entrant of checkers, [`EngineArgError::NotBuiltin`]
    /// for a build name the game does not have, and the config file's errors.
    pub fn load(&self, game: GameKind) -> Result<EngineSpec, EngineArgError> {
        let builtin_game = || EngineGame::of(game).ok_or(EngineArgError::NoBuiltinEngine { game });
        let mut spec = match &self.build {
            EngineBuild::Builtin { build } => {
                let engine_game = builtin_game()?;
                let named = build.as_deref().unwrap_or(&self.name);
                let build = Build::named(engine_game, named).ok_or_else(|| EngineArgError::NotBuiltin {
                    name: named.to_string(),
                    builtins: engine_game.builtin_names(),
                })?;
                EngineSpec::from_build(&self.name, build, Origin::Named)
            }
            EngineBuild::Config { path } => {
                let build = Build::load(builtin_game()?, &path.display().to_string())?;
                EngineSpec::from_build(&self.name, build, Origin::Config(self.source.clone()))
            }
            EngineBuild::Uci(uci) => EngineSpec {
                origin: Origin::Command(self.source.clone()),
                ..EngineSpec::uci(&self.name, UciEngine::from(uci))
            },
        };
        spec.limit = self.limit;
        spec.bench = self.bench;
        if let Some(book) = &self.book {
            if game != GameKind::Chess {
                return Err(EngineArgError::BookGame { name: self.name.clone(), game });
            }
            let book = super::book::EngineBook::open(&book.file, book.depth_moves)
                .map_err(|reason| EngineArgError::Book { name: self.name.clone(), reason })?;
            spec.book = Some(std::sync::Arc::new(book));
        }
        Ok(spec)
    }
}
