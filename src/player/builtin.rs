//! A built-in engine ([`crate::engine`]) as a [`Player`]: [`BuiltinPlayer`] searches in the worker's thread
//! through [`BuiltinEngine`], and [`builtin_player`] makes the player of a registry [`Build`] for a game.

use super::error::panic_text;
use super::{EngineScore, GoRequest, Player, PlayerError, PlayerMove};
use crate::engine::chess::Engine;
use crate::engine::xiangqi::XiangqiEngine;
use crate::engine::{Build, BuiltinEngine, EngineGame};
use crate::game::Game;
use std::any::{Any, TypeId};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// A built-in engine (chess's [`Engine`] by default, or [`XiangqiEngine`]) as a [`Player`], searching in the
/// worker's thread.
///
/// A panic inside the engine is caught and reported as [`PlayerError::Crashed`]; the engine is then rebuilt
/// from its config before the next game.
pub struct BuiltinPlayer<E: BuiltinEngine = Engine> {
    config: E::Config,
    engine: Option<E>,
    /// Set when the match is interrupted: the search in progress ends ([`Player::set_cancel`]).
    cancel: Arc<AtomicBool>,
    /// The principal variation of the last search ([`Player::last_pv`]).
    last_pv: Vec<E::Move>,
}

impl<E: BuiltinEngine> BuiltinPlayer<E> {
    /// A player for the engine built from `config` (allocates its transposition table).
    pub fn new(config: E::Config) -> BuiltinPlayer<E> {
        let engine = E::build(config.clone());
        BuiltinPlayer { config, engine: Some(engine), cancel: Arc::new(AtomicBool::new(false)), last_pv: Vec::new() }
    }

    fn name_text(&self) -> String {
        E::config_name(&self.config).to_string()
    }

    fn crashed(&self, payload: Box<dyn std::any::Any + Send>) -> PlayerError {
        let reason = panic_text(payload.as_ref()).unwrap_or_else(|| "panic".to_string());
        PlayerError::Crashed { player: self.name_text(), reason: format!("engine panicked: {reason}") }
    }
}

impl<E> Player<E::Game> for BuiltinPlayer<E>
where
    E: BuiltinEngine + Send,
    E::Game: Game<Move = E::Move>,
{
    fn name(&self) -> &str {
        E::config_name(&self.config)
    }

    fn set_cancel(&mut self, flag: Arc<AtomicBool>) {
        self.cancel = flag;
    }

    fn last_pv(&self) -> Vec<E::Move> {
        self.last_pv.clone()
    }

    fn new_game(&mut self) -> Result<(), PlayerError> {
        let mut engine = match self.engine.take() {
            Some(engine) => engine,
            None => {
                let config = self.config.clone();
                catch_unwind(move || E::build(config)).map_err(|p| self.crashed(p))?
            }
        };
        catch_unwind(AssertUnwindSafe(|| engine.clear())).map_err(|p| self.crashed(p))?;
        self.engine = Some(engine);
        Ok(())
    }

    fn go(&mut self, game: &E::Game, request: &GoRequest) -> Result<PlayerMove<E::Move>, PlayerError> {
        let Some(engine) = self.engine.as_mut() else {
            return Err(PlayerError::Start {
                player: self.name_text(),
                reason: "the engine was not rebuilt after a crash".to_string(),
            });
        };
        let limits = request.limits.for_mover(game.mover());
        let stop = &self.cancel;
        self.last_pv.clear();
        match catch_unwind(AssertUnwindSafe(|| engine.think(game, &limits, stop))) {
            Ok(Some(mut thought)) => {
                if thought.pv.first() == Some(&thought.best_move) {
                    thought.pv.truncate(super::MAX_PV_PLIES);
                    self.last_pv = std::mem::take(&mut thought.pv);
                }
                Ok(PlayerMove {
                    mv: thought.best_move,
                    score: Some(thought.mate_moves.map_or(EngineScore::Cp(thought.score), EngineScore::Mate)),
                    depth: thought.depth,
                    nodes: thought.nodes,
                    time_ms: 0,
                })
            }
            Ok(None) => Err(PlayerError::BadMove {
                player: self.name_text(),
                text: "0000".to_string(),
                reason: "the engine found no legal move".to_string(),
            }),
            Err(payload) => {
                // The engine's state is unknown after a panic: rebuild it before the next game.
                self.engine = None;
                Err(self.crashed(payload))
            }
        }
    }
}

/// The player of the built-in `build` for the game `G`, named `name`.
///
/// # Errors
/// [`PlayerError::Start`] when `build` is an engine of another game than `G` (a Xiangqi build in a chess
/// match, or the reverse).
pub fn builtin_player<G: Game>(name: &str, build: Build) -> Result<Box<dyn Player<G>>, PlayerError> {
    let start_error = |reason: String| PlayerError::Start { player: name.to_string(), reason };
    let plays = |game: TypeId| TypeId::of::<G>() == game;
    let player: Box<dyn Any> = match build {
        Build::Chess(config) if plays(TypeId::of::<<Engine as BuiltinEngine>::Game>()) => {
            let player: Box<dyn Player<crate::chess::ChessGame>> = Box::new(BuiltinPlayer::<Engine>::new(*config));
            Box::new(player)
        }
        Build::Xiangqi(config) if plays(TypeId::of::<<XiangqiEngine as BuiltinEngine>::Game>()) => {
            let player: Box<dyn Player<crate::xiangqi::XiangqiGame>> =
                Box::new(BuiltinPlayer::<XiangqiEngine>::new(*config));
            Box::new(player)
        }
        build => {
            return Err(start_error(match build.game() {
                EngineGame::Chess => {
                    format!("{} is a chess build; it cannot play Xiangqi (give a Xiangqi config)", build.name())
                }
                EngineGame::Xiangqi => {
                    format!("{} is a Xiangqi build; it cannot play chess (play it in a Xiangqi match)", build.name())
                }
            }));
        }
    };
    let player = player.downcast::<Box<dyn Player<G>>>().expect("the build's game is G (checked above)");
    Ok(*player)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess;
    use crate::player::{EngineSpec, GoLimits};

    #[test]
    fn the_builtin_engine_plays_a_legal_move() {
        let spec = EngineSpec::builtin("seed").unwrap();
        let mut player = spec.create::<chess::ChessGame>().unwrap();
        player.new_game().unwrap();
        let game = chess::ChessGame::new(crate::chess::Position::startpos());
        let request = GoRequest { limits: GoLimits { nodes: Some(300), ..GoLimits::default() }, allowed_ms: None };
        let answer = player.go(&game, &request).unwrap();
        assert!(game.position().legal_moves().contains(answer.mv));
        assert!(answer.score.is_some());
    }

    #[test]
    fn a_build_of_another_game_does_not_start() {
        let build = Build::named(EngineGame::Xiangqi, "seed").unwrap();
        let err = builtin_player::<crate::chess::ChessGame>("seed", build).err().unwrap();
        assert!(err.to_string().contains("is a Xiangqi build; it cannot play chess"), "{err}");
        let build = Build::named(EngineGame::Chess, "seed").unwrap();
        assert!(builtin_player::<crate::xiangqi::XiangqiGame>("seed", build).is_err());
    }
}
