//! viriformat: one record per game, the game's start position and every searched move with its score, as
//! `viriformat::dataformat::Game` serialises it (a 32-byte marlinformat start position holding the result,
//! then 4 bytes per move, then a 4-byte zero terminator).
//!
//! Views and encoding, from the crate's source (`src/dataformat.rs`, `src/chess/chessmove.rs`,
//! `src/chess/board/movegen.rs` of viriformat 3.0.0): a move's score is the score of the position it is
//! played from, in centipawns from White's view (`Filter::should_filter` reads it as White's, and
//! `Board::to_bulletformat` hands it to `ChessBoard::from_raw`, whose input is White's); the result is White's
//! (2 win, 1 draw, 0 loss); castling is the king's square to its own rook's square with the castle flag, as
//! Arbiter's own encoding.
//!
//! Positions datagen did not keep stay in the game (the format stores whole games) with the score
//! [`VIRIFORMAT_SKIPPED`]; kept positions have their score clamped to ±32766. The crate's `Filter` drops a
//! position whose absolute score is at least `max_eval` (31339 by default), so a trainer that reads the file
//! with viriformat's filter (bullet's `ViriBinpackLoader` does) never trains on a skipped position.

use super::{FormatError, TrainingGame, clamp_i16, score_white};
use crate::chess::Move;
use crate::chess::MoveKind;
use crate::game::GameResult;
use std::io::{self, Write};
use viriformat::chess::board::{Board, DrawType, GameOutcome, WinType};
use viriformat::chess::chessmove::{Move as ViriMove, MoveFlags};
use viriformat::chess::piece::PieceType as ViriPieceType;
use viriformat::chess::types::Square as ViriSquare;
use viriformat::dataformat::Game;

/// The score written for a searched position that datagen did not keep (or replaced by its quiescence
/// leaf, which the format cannot hold): `i16::MAX`, at or above the `max_eval` of viriformat's default
/// `Filter` (31339) and of any filter with `max_eval` up to 32767.
pub const VIRIFORMAT_SKIPPED: i16 = i16::MAX;

/// The largest absolute score written for a kept position: one below [`VIRIFORMAT_SKIPPED`].
const KEPT_LIMIT: i16 = VIRIFORMAT_SKIPPED - 1;

/// The viriformat record of `game`: its start position, then each searched move with the score of the
/// position it is played from, White's view: the kept position's score (clamped to ±32766) where datagen kept
/// that position, [`VIRIFORMAT_SKIPPED`] elsewhere; the result is the game's. The outcome's kind (mate,
/// adjudication, ...) is not stored by the format; it is set as adjudication.
///
/// Errors: [`FormatError::StartPosition`] when the crate's FEN parser refuses the start position,
/// [`FormatError::IllegalMove`] when a searched move is not legal where it is played,
/// [`FormatError::KeptNotInGame`] when a kept position with a best move is not the game's position at its
/// ply (both mean datagen built an inconsistent game).
pub fn viriformat_game(game: &TrainingGame) -> Result<Game, FormatError> {
    let mut kept_scores: Vec<Option<i32>> = vec![None; game.plies.len()];
    for kept in game.kept.iter().filter(|kept| kept.best.is_some()) {
        let index = kept.ply.checked_sub(game.start_ply).filter(|&i| i < game.plies.len());
        let Some(index) = index else {
            return Err(not_in_game(game, kept));
        };
        kept_scores[index] = Some(kept.score);
    }

    let mut board = Board::new();
    board.set_from_fen(&game.start.to_fen(), game.start.is_chess960()).map_err(|err| FormatError::StartPosition {
        game: game.number,
        fen: game.start.to_fen(),
        reason: format!("{err:#}"),
    })?;
    let mut record = Game::new(&board);
    let mut position = game.start.clone();
    let mut keys = Vec::with_capacity(game.plies.len());
    for (index, ply) in game.plies.iter().enumerate() {
        if !position.is_legal(ply.mv) {
            return Err(FormatError::IllegalMove {
                game: game.number,
                index,
                uci: ply.mv.to_uci(position.is_chess960()),
                fen: position.to_fen(),
            });
        }
        let score = match kept_scores[index] {
            Some(score) => clamp_i16(score_white(&position, score), KEPT_LIMIT),
            None => VIRIFORMAT_SKIPPED,
        };
        record.add_move(viri_move(ply.mv), score);
        keys.push(position.key());
        position.make_move(ply.mv);
    }
    // Every kept game position must be the game's position at its ply (same Zobrist key).
    for kept in game.kept.iter().filter(|kept| kept.best.is_some()) {
        if keys[kept.ply - game.start_ply] != kept.position.key() {
            return Err(not_in_game(game, kept));
        }
    }
    record.set_outcome(match game.result {
        GameResult::WhiteWins => GameOutcome::WhiteWin(WinType::Adjudication),
        GameResult::BlackWins => GameOutcome::BlackWin(WinType::Adjudication),
        GameResult::Draw => GameOutcome::Draw(DrawType::Adjudication),
    });
    Ok(record)
}

/// Writes `game` as one viriformat record ([`viriformat_game`]) with the crate's own serialiser.
pub fn write_viriformat(game: &TrainingGame, out: &mut dyn Write) -> io::Result<()> {
    let record = viriformat_game(game)?;
    let mut bytes = Vec::with_capacity(32 + 4 * (record.len() + 1));
    record.serialise_into(&mut bytes)?;
    out.write_all(&bytes)
}

fn not_in_game(game: &TrainingGame, kept: &super::TrainingPosition) -> FormatError {
    FormatError::KeptNotInGame { game: game.number, ply: kept.ply, fen: kept.position.to_fen() }
}

/// `mv` in viriformat's encoding: castling as king to own rook with the castle flag, en passant and
/// promotions flagged.
fn viri_move(mv: Move) -> ViriMove {
    let square = |sq: crate::chess::Square| {
        ViriSquare::new(u8::try_from(sq.index()).expect("square index < 64")).expect("square index < 64")
    };
    let (from, to) = (square(mv.from()), square(mv.to()));
    match mv.kind() {
        MoveKind::Normal => ViriMove::new(from, to),
        MoveKind::EnPassant => ViriMove::new_with_flags(from, to, MoveFlags::EnPassant),
        MoveKind::Castling => ViriMove::new_with_flags(from, to, MoveFlags::Castle),
        MoveKind::Promotion => {
            let piece = mv.promotion_piece().expect("a promotion names its piece");
            let piece =
                ViriPieceType::new(u8::try_from(piece.index()).expect("piece index < 6")).expect("piece index < 6");
            ViriMove::new_with_promo(from, to, piece)
        }
    }
}
