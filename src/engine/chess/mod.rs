//! The built-in engine: named evaluation weights and their TOML configs, an evaluation that is a dot product
//! of weights and integer features, and an alpha-beta search with a transposition table.
//!
//! ```
//! use arbiter::chess::Position;
//! use arbiter::engine::chess::{Engine, EngineConfig, Limits};
//!
//! let pos = Position::startpos();
//! let mut engine = Engine::new(EngineConfig::seed());
//! let result = engine.search(&pos, &[pos.key()], &Limits::depth(2));
//! assert!(pos.is_legal(result.best_move));
//! ```

pub mod bench;
pub mod config;
pub mod eval;
pub mod eval_table;
pub mod options;
pub mod search;
pub mod see;
pub mod time;
pub mod tt;
pub mod weights;

pub use config::{ConfigError, EngineConfig};
pub use eval::{Features, dot, evaluate, features};
pub use options::SearchOptions;
pub use search::{Engine, Limits, MATE, SearchInfo, SearchResult, is_mate_score};
pub use weights::{NUM_WEIGHTS, Weights};

impl super::BuiltinEngine for Engine {
    type Game = crate::chess::ChessGame;
    type Move = crate::chess::Move;
    type Config = EngineConfig;

    fn build(config: EngineConfig) -> Engine {
        Engine::new(config)
    }
    fn config_name(config: &EngineConfig) -> &str {
        &config.name
    }
    fn config_hash_mb(config: &EngineConfig) -> usize {
        config.hash_mb
    }
    fn clear(&mut self) {
        self.new_game();
    }
    /// Searches with the mover's clock as its own (`wtime`/`btime` by the side to move); always gives a move
    /// ([`crate::chess::Move::NULL`] when there is none).
    fn think(
        &mut self,
        game: &crate::chess::ChessGame,
        limits: &super::SearchLimits,
        stop: &std::sync::atomic::AtomicBool,
    ) -> Option<super::Thought<crate::chess::Move>> {
        let go = super::GoLimits {
            depth: limits.depth,
            nodes: limits.nodes,
            movetime_ms: limits.movetime_ms,
            ..super::GoLimits::default()
        };
        let mut engine_limits = Limits { go, ..Limits::default() };
        if let Some(clock) = limits.clock {
            if game.position().side_to_move() == crate::chess::Color::White {
                (engine_limits.go.wtime_ms, engine_limits.go.winc_ms) = (Some(clock.time_ms), clock.inc_ms);
            } else {
                (engine_limits.go.btime_ms, engine_limits.go.binc_ms) = (Some(clock.time_ms), clock.inc_ms);
            }
            engine_limits.go.movestogo = clock.movestogo;
        }
        let result = self.search_with(game.position(), game.keys(), &engine_limits, stop, &mut |_| {});
        Some(super::Thought {
            best_move: result.best_move,
            score: result.score,
            mate_moves: super::mate_moves(result.score, MATE, is_mate_score(result.score)),
            depth: result.depth,
            nodes: result.nodes,
            pv: result.pv,
        })
    }
}
