//! The built-in Xiangqi engine: evaluation by material and piece-square tables whose weights come by name from
//! a TOML config ([`config`]), and an alpha-beta search with quiescence, a transposition table and check
//! extension under node, depth and time limits ([`search`]).
//!
//! ```
//! use arbiter::xiangqi::Position;
//! use arbiter::engine::SearchLimits;
//! use arbiter::engine::xiangqi::{XiangqiConfig, XiangqiEngine};
//! let config = XiangqiConfig::load(std::path::Path::new("configs/xiangqi/seed.toml")).unwrap();
//! let mut engine = XiangqiEngine::new(config);
//! let r = engine.search(&Position::startpos(), &[], SearchLimits { nodes: Some(500), ..Default::default() });
//! assert!(r.best_move.is_some());
//! ```

pub mod config;
pub mod eval;
pub mod search;

pub use config::{XiangqiConfig, XiangqiConfigError, XiangqiWeights};
pub use eval::evaluate;
pub use search::{MATE, XiangqiEngine, XiangqiSearchResult, is_mate_score};

impl super::BuiltinEngine for XiangqiEngine {
    type Game = crate::xiangqi::XiangqiGame;
    type Move = crate::xiangqi::Move;
    type Config = XiangqiConfig;

    fn build(config: XiangqiConfig) -> XiangqiEngine {
        XiangqiEngine::new(config)
    }
    fn config_name(config: &XiangqiConfig) -> &str {
        &config.name
    }
    fn config_hash_mb(config: &XiangqiConfig) -> usize {
        config.hash_mb
    }
    fn clear(&mut self) {
        self.new_game();
    }
    /// The Xiangqi engine has no clock management: under a clock it gets a fixed share of the time left as its
    /// move time, `left / 30 + inc / 2` (at most `left / 2`), besides any depth, nodes or movetime limit. It
    /// has no stop flag: `_stop` is not watched.
    fn think(
        &mut self,
        game: &crate::xiangqi::XiangqiGame,
        limits: &super::SearchLimits,
        _stop: &std::sync::atomic::AtomicBool,
    ) -> Option<super::Thought<crate::xiangqi::Move>> {
        let by_clock = limits.clock.map(|c| (c.time_ms / 30 + c.inc_ms.unwrap_or(0) / 2).min(c.time_ms / 2).max(1));
        let movetime_ms = match (limits.movetime_ms, by_clock) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        // The clock is spent as a move time here; the search itself reads depth, nodes and move time.
        let limits = super::SearchLimits { movetime_ms, clock: None, ..*limits };
        let result = self.search(game.position(), &game.history_keys(), limits);
        let mate_moves = super::mate_moves(result.score, MATE, is_mate_score(result.score));
        result.best_move.map(|best_move| super::Thought {
            best_move,
            score: result.score,
            mate_moves,
            depth: result.depth,
            nodes: result.nodes,
            pv: result.pv,
        })
    }
}
