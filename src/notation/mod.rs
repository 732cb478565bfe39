//! Game-independent text formats: EPD operations, the PGN tokenizer and tag roster, the `key=value` lists of
//! the command line, and quoting of untrusted text. Each game's own notation (chess FEN and SAN, Xiangqi FEN,
//! checkers PDN) lives in its folder. Each parser has its own error type.

pub mod epd;
pub mod kv;
pub mod pgn;
pub mod quote;
pub mod text;
pub(crate) mod wide;

pub use epd::{Epd, EpdError};
pub use kv::{KeyValueError, KeyValues};
