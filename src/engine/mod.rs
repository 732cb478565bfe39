//! The built-in engine: named evaluation weights and their TOML configs, an evaluation that is a dot product
//! of weights and integer features, and an alpha-beta search with a transposition table.
//!
//! ```
//! use arbiter::chess::Position;
//! use arbiter::engine::{Engine, EngineConfig, Limits};
//!
//! let pos = Position::startpos();
//! let mut engine = Engine::new(EngineConfig::seed());
//! let result = engine.search(&pos, &[pos.key()], &Limits { depth: Some(2), ..Limits::default() });
//! assert!(pos.is_legal(result.best_move));
//! ```

pub mod config;
pub mod eval;
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
