//! The plain text format of bullet's text input: one line `FEN | score | result` per kept position.
//!
//! The views are those of bulletformat's text parser (`impl FromStr for ChessBoard` in `src/chess.rs` of
//! jw1912/bulletformat, the crate bullet's `convert` reads text with): the score is an `i16` in centipawns from
//! White's view, and the result is White's, `1.0`, `0.5` or `0.0` (the parser negates both for a Black-to-move
//! FEN). The parser reads only the first two FEN fields; the line carries all six so that other readers
//! (python-chess, Arbiter) get the whole position.

use super::{TrainingGame, TrainingPosition, clamp_i16, result_white, score_white};
use crate::game::GameResult;
use std::io::{self, Write};

/// The text line of one kept position (no newline): its full FEN, its score from White's view clamped to
/// ±32767 (bulletformat parses an `i16` and negates it for Black to move, so -32768 is never written), and
/// `result` from White's view as `1.0`, `0.5` or `0.0`.
///
/// ```
/// use arbiter::chess::Position;
/// use arbiter::game::GameResult;
/// use arbiter::selfplay::datagen::format::{TrainingPosition, text_line};
/// let position = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1").unwrap();
/// let kept = TrainingPosition { position, score: -150, ply: 12, best: None };
/// assert_eq!(text_line(&kept, GameResult::WhiteWins), "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1 | 150 | 1.0");
/// ```
pub fn text_line(kept: &TrainingPosition, result: GameResult) -> String {
    let score = clamp_i16(score_white(&kept.position, kept.score), i16::MAX);
    format!("{} | {} | {:.1}", kept.position.to_fen(), score, result_white(result))
}

/// Writes one line per kept position of `game`, in game order ([`text_line`]).
pub fn write_text(game: &TrainingGame, out: &mut dyn Write) -> io::Result<()> {
    for kept in &game.kept {
        writeln!(out, "{}", text_line(kept, game.result))?;
    }
    Ok(())
}
