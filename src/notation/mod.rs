//! Text formats: FEN, EPD, SAN, PGN and UCI move text. Each parser has its own error type.

pub mod fen;

pub use fen::FenError;
