//! Text formats: FEN, EPD, SAN, PGN and UCI move text. Each parser has its own error type.

pub mod epd;
pub mod fen;
pub mod kv;
pub mod pgn;
pub mod quote;
pub mod san;
pub(crate) mod wide;

pub use epd::{Epd, EpdError};
pub use fen::FenError;
pub use kv::{KeyValueError, KeyValues};
pub use san::{MoveTextError, parse_san, parse_uci, to_san};
