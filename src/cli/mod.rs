//! Subcommands of the `arbiter` binary: one file each. Each exposes a clap `Args` struct and a `run` function
//! that returns the process exit code.

pub mod args;
pub mod bench;
pub mod book;
pub mod checkers_cmd;
pub mod config_cmd;
pub mod datagen;
pub mod elo_cmd;
pub mod engine_arg;
pub mod epd_cmd;
pub mod eval_cmd;
pub mod match_cmd;
pub mod merge;
pub mod perft;
pub mod simulate_cmd;
pub mod sprt_cmd;
pub mod tune_cmd;
pub mod uci_cmd;
