//! bulletformat: one 32-byte `bulletformat::ChessBoard` per kept position, raw records without a header, as
//! bulletformat's `DataLoader` reads them.
//!
//! The record is built by the crate's own `ChessBoard::from_raw` from the position's bitboards with the score
//! and result from White's view (its documented inputs); the crate then stores the board, the score and the
//! result from the side to move's view (`src/chess.rs` of jw1912/bulletformat). The record has no
//! side-to-move, castling, en-passant or clock fields.

use super::{TrainingGame, TrainingPosition, clamp_i16, result_white, score_white};
use crate::chess::{Color, PieceType};
use crate::game::GameResult;
use bulletformat::{BulletFormat, ChessBoard};
use std::io::{self, Write};

/// Bytes per record (per kept position): `size_of::<bulletformat::ChessBoard>()`.
pub const BULLETFORMAT_RECORD_BYTES: usize = std::mem::size_of::<ChessBoard>();

/// The bulletformat record of one kept position: score from White's view clamped to ±32767 (the crate negates
/// it for Black to move), `result` from White's view.
pub fn bulletformat_board(kept: &TrainingPosition, result: GameResult) -> ChessBoard {
    let position = &kept.position;
    // from_raw's order: White, Black, Pawn, Knight, Bishop, Rook, Queen, King (its doc comment).
    let mut bbs = [0u64; 8];
    bbs[0] = position.color_bb(Color::White).0;
    bbs[1] = position.color_bb(Color::Black).0;
    for (i, kind) in PieceType::ALL.into_iter().enumerate() {
        bbs[2 + i] = position.pieces_kind(kind).0;
    }
    let stm = match position.side_to_move() {
        Color::White => 0,
        Color::Black => 1,
    };
    let score = clamp_i16(score_white(position, kept.score), i16::MAX);
    ChessBoard::from_raw(bbs, stm, score, result_white(result))
        .expect("every occupied square of a consistent Position holds one of the six piece types")
}

/// Writes one record per kept position of `game`, in game order ([`bulletformat_board`]), in the crate's own
/// byte layout (`BulletFormat::as_bytes_slice`).
pub fn write_bulletformat(game: &TrainingGame, out: &mut dyn Write) -> io::Result<()> {
    let boards: Vec<ChessBoard> = game.kept.iter().map(|kept| bulletformat_board(kept, game.result)).collect();
    out.write_all(ChessBoard::as_bytes_slice(&boards))
}
