//! The built-in Xiangqi engine: evaluation by material and piece-square tables whose weights come by name from
//! a TOML config ([`config`]), and an alpha-beta search with quiescence, a transposition table and check
//! extension under node, depth and time limits ([`search`]).
//!
//! ```
//! use arbiter::xiangqi::Position;
//! use arbiter::xiangqi::engine::{XiangqiConfig, XiangqiEngine, XiangqiLimits};
//! let config = XiangqiConfig::load(std::path::Path::new("configs/xiangqi/seed.toml")).unwrap();
//! let mut engine = XiangqiEngine::new(config);
//! let r = engine.search(&Position::startpos(), &[], XiangqiLimits { nodes: Some(500), ..Default::default() });
//! assert!(r.best_move.is_some());
//! ```

pub mod config;
pub mod eval;
pub mod search;

pub use config::{XiangqiConfig, XiangqiConfigError, XiangqiWeights};
pub use eval::evaluate;
pub use search::{MATE, XiangqiEngine, XiangqiLimits, XiangqiSearchResult, is_mate_score};
