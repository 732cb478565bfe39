//! The integration tests, gathered into one test binary so the crate is linked once: each module is what was
//! one `tests/*.rs` binary before (run one with `cargo test --release --test integration -- perft::`).
//! The shared suites are read in place from `../shared`; real engines and python-chess are installed by
//! `scripts/test.sh`.

mod adjudication;
mod bench;
mod book;
mod checkers;
mod checkers_base;
mod compare;
mod compat;
mod dashboard;
mod datagen;
mod datagen_formats;
mod differential;
mod elo;
mod engine;
mod engine_spec;
mod epd;
mod eval;
mod failures;
mod fen;
mod flags;
mod layers;
mod matches;
mod opponents;
mod perft;
mod polyglot;
mod positions;
mod resume;
mod run_folders;
mod shared_sprt;
mod simulate;
mod spsa;
mod stats_output;
mod stats_reference;
mod tablebase;
mod tune;
mod tune_data;
mod uci;
mod xboard;
mod xiangqi;
mod xiangqi_match;
mod your_engine;

mod checkers_common;
mod common;
mod support;
