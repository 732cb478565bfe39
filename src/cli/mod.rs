//! Subcommands of the `arbiter` binary: one file each. Each exposes a clap `Args` struct and a `run` function
//! that returns the process exit code.

pub mod book;
pub mod match_cmd;
pub mod perft;
