//! The one registry of built-in engine builds: the builds compiled in by name (chess `seed` and `nomob`,
//! Xiangqi `seed` and `nopsqt`) and builds read from a TOML config file (`config=FILE`), for either game.
//!
//! ```
//! use arbiter::engine::{Build, EngineGame};
//! let nomob = Build::named(EngineGame::Chess, "nomob").unwrap();
//! assert_eq!(nomob.name(), "nomob");
//! assert!(Build::named(EngineGame::Xiangqi, "nopsqt").is_some());
//! assert!(Build::named(EngineGame::Chess, "stockfish").is_none());
//! ```

use super::chess::{ConfigError, EngineConfig};
use super::xiangqi::{XiangqiConfig, XiangqiConfigError};
use std::path::Path;
use thiserror::Error;

/// The game a built-in engine plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EngineGame {
    /// Chess: [`super::chess::Engine`].
    Chess,
    /// Xiangqi: [`super::xiangqi::XiangqiEngine`].
    Xiangqi,
}

impl EngineGame {
    /// The built-in engine's game for `game`: chess and Xiangqi have one, checkers none.
    pub fn of(game: crate::games::GameKind) -> Option<EngineGame> {
        use crate::games::GameKind;
        match game {
            GameKind::Chess => Some(EngineGame::Chess),
            GameKind::Xiangqi => Some(EngineGame::Xiangqi),
            GameKind::Russian | GameKind::English => None,
        }
    }

    /// The game's name as `--game` spells it: `chess` or `xiangqi`.
    pub fn name(self) -> &'static str {
        match self {
            EngineGame::Chess => "chess",
            EngineGame::Xiangqi => "xiangqi",
        }
    }

    /// The names of the builds compiled in, for messages: `seed, nomob` (chess) or `seed, nopsqt` (Xiangqi).
    pub fn builtin_names(self) -> &'static str {
        match self {
            EngineGame::Chess => "seed, nomob",
            EngineGame::Xiangqi => "seed, nopsqt",
        }
    }
}

/// Why a build cannot be read from a config file.
#[derive(Debug, Error)]
pub enum BuildError {
    /// The chess config file is missing or bad.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The Xiangqi config file is missing or bad.
    #[error(transparent)]
    XiangqiConfig(#[from] XiangqiConfigError),
    /// A config file that is a build of the other game (a chess build where Xiangqi is played, or the reverse).
    #[error("{path}: a {is} build, but this match plays {plays}; {hint}")]
    WrongGame {
        /// The config file.
        path: String,
        /// The game the file is a build of.
        is: &'static str,
        /// The game played.
        plays: &'static str,
        /// What to give instead.
        hint: &'static str,
    },
}

/// One built-in engine build: the engine of its game with its config.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Build {
    /// The chess engine with this config (boxed: a config holds every weight).
    Chess(Box<EngineConfig>),
    /// The Xiangqi engine with this config.
    Xiangqi(Box<XiangqiConfig>),
}

impl Build {
    /// The build compiled in as `name` for `game`: chess `seed` ([`EngineConfig::seed`]) and `nomob` (the seed
    /// with every mobility weight zero, a variant that differs in one weight group); Xiangqi `seed` and
    /// `nopsqt` ([`XiangqiConfig::builtin`]); `None` for other names.
    pub fn named(game: EngineGame, name: &str) -> Option<Build> {
        match game {
            EngineGame::Chess => chess_builtin(name).map(|config| Build::Chess(Box::new(config))),
            EngineGame::Xiangqi => XiangqiConfig::builtin(name).map(|config| Build::Xiangqi(Box::new(config))),
        }
    }

    /// The build of `game` read from the TOML config at `path`.
    ///
    /// # Errors
    /// [`BuildError::WrongGame`] when the file is a valid build of the other game; otherwise the config's own
    /// error ([`BuildError::Config`], [`BuildError::XiangqiConfig`]).
    pub fn load(game: EngineGame, path: &str) -> Result<Build, BuildError> {
        match game {
            EngineGame::Xiangqi => match XiangqiConfig::load(Path::new(path)) {
                Ok(config) => Ok(Build::Xiangqi(Box::new(config))),
                Err(_) if EngineConfig::load(path).is_ok() => Err(BuildError::WrongGame {
                    path: path.to_string(),
                    is: "chess",
                    plays: "xiangqi",
                    hint: "give a Xiangqi build (the layout of configs/xiangqi/seed.toml)",
                }),
                Err(e) => Err(e.into()),
            },
            EngineGame::Chess => match EngineConfig::load(path) {
                Ok(config) => Ok(Build::Chess(Box::new(config))),
                Err(_) if XiangqiConfig::load(Path::new(path)).is_ok() => Err(BuildError::WrongGame {
                    path: path.to_string(),
                    is: "xiangqi",
                    plays: "chess",
                    hint: "play it in a xiangqi match, or give a chess build (the layout of configs/seed.toml)",
                }),
                Err(e) => Err(e.into()),
            },
        }
    }

    /// The game the build plays.
    pub fn game(&self) -> EngineGame {
        match self {
            Build::Chess(_) => EngineGame::Chess,
            Build::Xiangqi(_) => EngineGame::Xiangqi,
        }
    }

    /// The build's name (its config's `name`).
    pub fn name(&self) -> &str {
        match self {
            Build::Chess(config) => &config.name,
            Build::Xiangqi(config) => &config.name,
        }
    }

    /// Renames the build.
    pub fn set_name(&mut self, name: &str) {
        match self {
            Build::Chess(config) => config.name = name.to_string(),
            Build::Xiangqi(config) => config.name = name.to_string(),
        }
    }

    /// The build's transposition table size in MiB.
    pub fn hash_mb(&self) -> usize {
        match self {
            Build::Chess(config) => config.hash_mb,
            Build::Xiangqi(config) => config.hash_mb,
        }
    }
}

/// The chess build compiled in as `name` (`seed`, `nomob`); `None` for other names.
fn chess_builtin(name: &str) -> Option<EngineConfig> {
    let mut config = EngineConfig::seed();
    match name {
        "seed" => {}
        "nomob" => {
            config.name = "nomob".to_string();
            config.weights.mobility = [0; 4];
        }
        _ => return None,
    }
    Some(config)
}

/// The chess config of a built-in build name (`seed`, `nomob`) or else of the TOML file `name_or_path`.
///
/// # Errors
/// [`ConfigError`] when `name_or_path` is no built-in name and the file is missing or bad.
pub fn chess_config(name_or_path: &str) -> Result<EngineConfig, ConfigError> {
    match chess_builtin(name_or_path) {
        Some(config) => Ok(config),
        None => EngineConfig::load(name_or_path),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_builds() {
        let Some(Build::Chess(seed)) = Build::named(EngineGame::Chess, "seed") else { panic!("seed is built in") };
        let Some(Build::Chess(nomob)) = Build::named(EngineGame::Chess, "nomob") else { panic!("nomob too") };
        assert_eq!(*seed, EngineConfig::seed());
        assert_eq!(nomob.weights.mobility, [0; 4]);
        assert_eq!(nomob.weights.material, seed.weights.material);
        assert!(Build::named(EngineGame::Chess, "nopsqt").is_none());
        assert!(matches!(Build::named(EngineGame::Xiangqi, "seed"), Some(Build::Xiangqi(_))));
        assert!(Build::named(EngineGame::Xiangqi, "nomob").is_none());
        assert_eq!(chess_config("nomob").unwrap(), *nomob);
    }

    #[test]
    fn a_build_of_the_other_game_is_named() {
        let err = Build::load(EngineGame::Chess, "configs/xiangqi/seed.toml").unwrap_err();
        assert!(matches!(err, BuildError::WrongGame { is: "xiangqi", .. }), "{err}");
        let err = Build::load(EngineGame::Xiangqi, "configs/seed.toml").unwrap_err();
        assert!(matches!(err, BuildError::WrongGame { is: "chess", .. }), "{err}");
        assert!(matches!(Build::load(EngineGame::Chess, "configs/seed.toml"), Ok(Build::Chess(_))));
    }
}
