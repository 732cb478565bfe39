//! Chess rules: bitboards, squares, attack tables, the position with make/unmake and Zobrist key, legal
//! move generation, perft, game-end detection, and chess notation (FEN, SAN and UCI move text). Knows nothing of
//! files, threads or printing.

pub mod attacks;
pub mod bitboard;
pub mod epd;
pub mod fen;
pub mod game;
pub mod movegen;
pub mod moves;
pub mod perft;
pub mod pgn;
pub mod polyglot;
mod polyglot_keys;
pub mod position;
mod retro;
pub mod rules;
pub mod san;
pub mod types;
pub mod variant;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use fen::FenError;
pub use game::{ChessGame, Outcome, Termination};
pub use moves::{Move, MoveKind, MoveList};
pub use position::{Position, Setup, SetupError, Undo};
pub use rules::{can_mate, piece_sets};
pub use san::{MoveTextError, parse_san, parse_uci, to_san};
pub use types::{Color, File, Piece, PieceType, Rank, Square};
pub use variant::Variant;
