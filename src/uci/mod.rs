//! UCI: driving external engines as processes (and, later, our engine as a UCI program).

pub mod group;
pub mod log;
pub mod process;
pub mod server;
pub mod stdout;

pub use process::{EngineProcess, UciError};
