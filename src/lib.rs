//! Arbiter: an engine-testing and tuning harness for chess engines.
//!
//! Layers (dependencies point down only): the binary's `cli` (`src/main.rs`) → `runner`/`selfplay`/`tune`/`suite` → `player` →
//! `uci`/`engine`/`stats`/`notation` → `game` → `chess`, `xiangqi`, `checkers`. The picture and the rules:
//! `docs/architecture.md`.
#![warn(missing_docs)]

pub mod checkers;
pub mod chess;
pub mod cpu;
pub mod engine;
pub mod game;
pub mod games;
pub mod notation;
pub mod player;
pub mod runner;
pub mod selfplay;
pub mod serve;
pub mod spsa;
pub mod stats;
pub mod suite;
pub mod svg_chart;
pub mod tablebase;
pub mod tune;
pub mod uci;
pub mod xiangqi;
