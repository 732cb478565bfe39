//! What datagen hands to its output formats: one finished game at a time ([`TrainingGame`]), with every
//! searched move from the position where recording starts and the positions kept by the filters.
//!
//! Every score here is in centipawns from the view of the side to move in the position it belongs to, mate
//! scores already mapped to centipawns by datagen (see the module docs of [`super`]); a format that stores
//! another view or a narrower integer converts (and clamps) when it writes.
//!
//! The writers of the trainers' formats take one game and a `&mut dyn Write` ([`write_game`] picks one; the
//! caller flushes): [`write_text`] (bullet's `FEN | score | result` lines), [`write_bulletformat`] (32-byte
//! `bulletformat::ChessBoard` records) and [`write_viriformat`] (one `viriformat` game record, positions not
//! kept marked with the score [`VIRIFORMAT_SKIPPED`]). [`TrainingFormat::Epd`] is written by datagen's own EPD
//! writer. Layouts, views and sizes: docs/datagen.md, "Output formats".

use crate::chess::{Move, Position};
use crate::game::GameResult;

/// The training-data formats `arbiter datagen --format` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TrainingFormat {
    /// EPD lines with the result in `c9` and an `id`, plus the aligned `.meta.tsv` (read by `arbiter tune`).
    #[default]
    Epd,
    /// Plain text lines `FEN | score | result`, as bullet's text input reads them.
    Text,
    /// viriformat: one record per game (start position, then every move with its score).
    Viriformat,
    /// bulletformat: one fixed-size record per kept position.
    Bulletformat,
}

impl TrainingFormat {
    /// The format as `--format` spells it (`epd`, `text`, `viriformat`, `bulletformat`).
    pub fn name(self) -> &'static str {
        match self {
            TrainingFormat::Epd => "epd",
            TrainingFormat::Text => "text",
            TrainingFormat::Viriformat => "viriformat",
            TrainingFormat::Bulletformat => "bulletformat",
        }
    }
}

/// One searched move of a game: the move played and the search's score of the position it was played from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrainingPly {
    /// The move played.
    pub mv: Move,
    /// The score of the position before the move, centipawns, from the mover's view.
    pub score: i32,
}

/// A position kept by datagen's filters (and not a duplicate), to be written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrainingPosition {
    /// The position (for `--select qleaf`, the quiescence leaf, which need not occur in the game).
    pub position: Position,
    /// Its score, centipawns, from the view of its side to move (for a quiescence leaf: the score of the
    /// searched position it was reached from, turned to the leaf's side to move).
    pub score: i32,
    /// Half-moves from the game's start position to the searched position.
    pub ply: usize,
    /// The move the search chose there, when the position is one of the game's (not a quiescence leaf).
    pub best: Option<Move>,
}

/// One finished game, as the writers of every format see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrainingGame {
    /// The game number, 1 to `--games`.
    pub number: u64,
    /// The result, from White's view.
    pub result: GameResult,
    /// The position where the searched moves start (the opening's last position: random plies or book).
    pub start: Position,
    /// Half-moves from the game's start position to `start`.
    pub start_ply: usize,
    /// Every searched move from `start`, in order.
    pub plies: Vec<TrainingPly>,
    /// The positions kept, in game order.
    pub kept: Vec<TrainingPosition>,
}

mod bullet;
mod text;
mod viri;

pub use bullet::{BULLETFORMAT_RECORD_BYTES, bulletformat_board, write_bulletformat};
pub use text::{text_line, write_text};
pub use viri::{VIRIFORMAT_SKIPPED, viriformat_game, write_viriformat};

use crate::chess::Color;
use std::io::{self, Write};
use thiserror::Error;

/// Why a writer refused a game (returned inside an [`io::Error`] of kind `InvalidInput` or `Unsupported`, so
/// that callers handle one error type; `err.get_ref()` downcasts to this).
#[derive(Debug, Error)]
pub enum FormatError {
    /// [`write_game`] was asked for [`TrainingFormat::Epd`], which datagen writes itself (EPD lines plus the
    /// aligned `.meta.tsv`, both per position with their own ids).
    #[error("the EPD format is written by datagen's EPD writer (with its .meta.tsv), not by format::write_game")]
    EpdNotHere,
    /// viriformat's FEN parser refused the game's start position.
    #[error("game {game}: viriformat cannot read the start position {fen}: {reason}")]
    StartPosition {
        /// The game number.
        game: u64,
        /// The start position.
        fen: String,
        /// The crate's error text.
        reason: String,
    },
    /// A searched move of the game is not legal where it is played.
    #[error("game {game}: searched move {index} ({uci}) is not legal in {fen}")]
    IllegalMove {
        /// The game number.
        game: u64,
        /// Its index in [`TrainingGame::plies`].
        index: usize,
        /// The move in UCI notation.
        uci: String,
        /// The position it was played from.
        fen: String,
    },
    /// A kept position that names a best move (so is one of the game's positions) is not the game's position
    /// at its ply.
    #[error("game {game}: kept position at ply {ply} ({fen}) is not the game's position at that ply")]
    KeptNotInGame {
        /// The game number.
        game: u64,
        /// The kept position's ply.
        ply: usize,
        /// The kept position.
        fen: String,
    },
}

impl From<FormatError> for io::Error {
    fn from(err: FormatError) -> io::Error {
        let kind = match err {
            FormatError::EpdNotHere => io::ErrorKind::Unsupported,
            FormatError::StartPosition { .. } | FormatError::IllegalMove { .. } | FormatError::KeptNotInGame { .. } => {
                io::ErrorKind::InvalidInput
            }
        };
        io::Error::new(kind, err)
    }
}

/// Writes one finished game to `out` in `format`: [`write_text`], [`write_viriformat`] or
/// [`write_bulletformat`]. Flushing is the caller's job.
///
/// Errors: the writer's I/O errors; [`FormatError::EpdNotHere`] (kind `Unsupported`) for
/// [`TrainingFormat::Epd`], which datagen's own EPD writer writes; for viriformat, a game whose moves are not
/// legal or whose kept positions are not on it ([`FormatError`], kind `InvalidInput`).
pub fn write_game(format: TrainingFormat, game: &TrainingGame, out: &mut dyn Write) -> io::Result<()> {
    match format {
        TrainingFormat::Epd => Err(FormatError::EpdNotHere.into()),
        TrainingFormat::Text => write_text(game, out),
        TrainingFormat::Viriformat => write_viriformat(game, out),
        TrainingFormat::Bulletformat => write_bulletformat(game, out),
    }
}

/// `score` (centipawns from the view of `position`'s side to move) from White's view.
pub fn score_white(position: &Position, score: i32) -> i32 {
    match position.side_to_move() {
        Color::White => score,
        Color::Black => -score,
    }
}

/// `score` clamped to `-limit..=limit` and narrowed to `i16` (`limit` at most `i16::MAX`).
pub fn clamp_i16(score: i32, limit: i16) -> i16 {
    let limit = i32::from(limit);
    i16::try_from(score.clamp(-limit, limit)).expect("clamped into i16's range")
}

/// The game result as a score for White: 1.0 (White won), 0.5 (draw), 0.0 (Black won).
pub fn result_white(result: GameResult) -> f32 {
    match result {
        GameResult::WhiteWins => 1.0,
        GameResult::Draw => 0.5,
        GameResult::BlackWins => 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_turn_to_white_and_clamp_into_i16() {
        let white = Position::startpos();
        let black = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1").expect("a legal FEN");
        assert_eq!(score_white(&white, -35), -35);
        assert_eq!(score_white(&black, -35), 35);
        assert_eq!(clamp_i16(40_000, i16::MAX), 32767);
        assert_eq!(clamp_i16(-40_000, i16::MAX), -32767, "never -32768: readers negate it");
        assert_eq!(clamp_i16(-40_000, 32766), -32766);
        assert_eq!(clamp_i16(123, i16::MAX), 123);
        assert_eq!([GameResult::WhiteWins, GameResult::Draw, GameResult::BlackWins].map(result_white), [1.0, 0.5, 0.0]);
    }
}
