//! Self-play: positions made by the built-in engines playing themselves, for every game that has one.
//!
//! - [`book`]: Arbiter's balanced opening books (chess and Xiangqi), random plies checked by a built-in build.
//! - [`datagen`]: labelled training positions for Texel tuning from self-play of one chess build.
//!
//! The library prints nothing: requests come in typed ([`book::BookRequest`], [`datagen::DatagenRequest`]),
//! progress goes to a callback, and the commands in `cli/` print.

pub mod book;
pub mod datagen;
pub mod polyglot;
