//! Xiangqi FEN as Fairy-Stockfish and most Xiangqi programs (UCCI) write it:
//! `rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1`.
//!
//! Fields: the board as 10 ranks from Black's back rank (rank 9) down to Red's (rank 0), separated by `/`, each
//! with 9 files given as piece letters (`k` general, `a` advisor, `b` elephant, `n` horse, `r` chariot, `c`
//! cannon, `p` soldier; upper case Red, lower case Black) and digits 1-9 for empty points; the side to move
//! (`w` Red, `b` Black; `r` is accepted for Red as some programs write it); two `-` fields (no castling or
//! en passant in Xiangqi); the halfmove clock; the move number. The fields after the side may be left out
//! (`- - 0 1` is assumed); the writer always writes all six. Fields are separated by ASCII spaces and tabs only;
//! any other whitespace or control character is an error (`docs/positions.md`).
//!
//! The reader also refuses positions the rules cannot reach, so that move generation may rely on them: each
//! side has one general, inside its palace; no more of a kind than the starting set; advisors on their five
//! palace points, elephants on their seven points on their own side, soldiers not behind their starting rank;
//! and the side not to move not in check (its general could be captured, or the generals face each other).

use super::position::Position;
use super::tables::in_palace_square;
use super::types::{Color, Piece, PieceType, SQUARES, Square};
use thiserror::Error;

/// The Xiangqi start position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Why a Xiangqi FEN cannot be read; each variant names the offending text and what was expected.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum FenError {
    /// Wrong number of space-separated fields.
    #[error("expected 2 to 6 fields (board, side to move, -, -, halfmove clock, move number), found {found}")]
    Fields {
        /// How many fields there were.
        found: usize,
    },
    /// A whitespace or control character other than ASCII space and tab (as in chess FENs, `docs/positions.md`).
    #[error(
        "character {column} is {character:?} (U+{:04X}); FEN fields are separated by ASCII spaces or tabs only",
        u32::from(*character)
    )]
    BadWhitespace {
        /// The character.
        character: char,
        /// Its 1-based position in the FEN, in characters.
        column: usize,
    },
    /// The board does not have 10 ranks.
    #[error("board {}: expected 10 ranks separated by '/', found {found}", crate::notation::quote::shown(.board))]
    Ranks {
        /// The board field.
        board: String,
        /// How many ranks there were.
        found: usize,
    },
    /// A rank does not cover 9 files.
    #[error("board rank {rank} {}: expected 9 files, found {width}", crate::notation::quote::shown(.text))]
    RankWidth {
        /// The board rank (9 = first in the FEN, Black's back rank).
        rank: u8,
        /// The rank's text.
        text: String,
        /// The number of files it covers.
        width: usize,
    },
    /// A character that is neither a piece letter nor a digit 1-9.
    #[error("board rank {rank}: {letter:?} is not a piece letter (K A B N R C P, lower case for Black) or a digit 1-9")]
    PieceLetter {
        /// The board rank.
        rank: u8,
        /// The character.
        letter: char,
    },
    /// The side-to-move field is not `w`, `r` or `b`.
    #[error("side to move {}: expected w (Red; r is accepted too) or b (Black)", crate::notation::quote::shown(.text))]
    Side {
        /// The field.
        text: String,
    },
    /// The third or fourth field is not `-`.
    #[error("{name} field {}: expected '-' (Xiangqi has no castling or en passant)", crate::notation::quote::shown(.text))]
    Dash {
        /// `castling` or `en passant`.
        name: &'static str,
        /// The field.
        text: String,
    },
    /// A clock field is not a number.
    #[error("{name} {}: expected a whole number from {min} to 65535", crate::notation::quote::shown(.text))]
    Clock {
        /// `halfmove clock` or `move number`.
        name: &'static str,
        /// The field.
        text: String,
        /// The smallest value allowed.
        min: u16,
    },
    /// A side does not have exactly one general.
    #[error("{color} has {found} generals: expected exactly one")]
    GeneralCount {
        /// The side (`Red` or `Black`).
        color: &'static str,
        /// How many it has.
        found: u32,
    },
    /// More pieces of a kind than a side starts with.
    #[error("{color} has {found} {kind}s: at most {max}")]
    TooMany {
        /// The side.
        color: &'static str,
        /// The kind's name.
        kind: &'static str,
        /// How many.
        found: u32,
        /// The starting count.
        max: u32,
    },
    /// A piece on a point its kind can never reach.
    #[error("{color} {kind} on {square}: {reason}")]
    Placement {
        /// The side.
        color: &'static str,
        /// The kind's name.
        kind: &'static str,
        /// The square, as `e0`.
        square: String,
        /// Why it cannot be there.
        reason: &'static str,
    },
    /// The side that is not to move is in check: the side to move could capture its general.
    #[error("{color}, not to move, is in check (its general could be captured or faces the other general)")]
    OpponentInCheck {
        /// The side not to move.
        color: &'static str,
    },
}

/// Whether `sq` is one of the five advisor points of `color` (the palace corners and centre).
fn advisor_point(color: Color, sq: Square) -> bool {
    let parity = if color == Color::RED { 1 } else { 0 };
    in_palace_square(color, sq) && (sq.file() + sq.rank()) % 2 == parity
}

/// Whether `sq` is one of the seven elephant points of `color` (c0 g0 a2 e2 i2 c4 g4 for Red, mirrored for
/// Black).
fn elephant_point(color: Color, sq: Square) -> bool {
    let rank = if color == Color::RED { sq.rank() } else { 9 - sq.rank() };
    let file = sq.file();
    rank <= 4 && file.is_multiple_of(2) && rank.is_multiple_of(2) && !(file / 2 + rank / 2).is_multiple_of(2)
}

impl Position {
    /// The start position.
    pub fn startpos() -> Position {
        Position::from_fen(START_FEN).expect("the start FEN is valid")
    }

    /// Reads a FEN (see the module docs for the form and the checks).
    ///
    /// # Errors
    /// A [`FenError`] naming the offending field or piece and what was expected.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        if let Some((i, character)) =
            fen.chars().enumerate().find(|&(_, c)| (c.is_whitespace() || c.is_control()) && c != ' ' && c != '\t')
        {
            return Err(FenError::BadWhitespace { character, column: i + 1 });
        }
        let fields: Vec<&str> = fen.split([' ', '\t']).filter(|f| !f.is_empty()).collect();
        if !(2..=6).contains(&fields.len()) {
            return Err(FenError::Fields { found: fields.len() });
        }
        let mut pos = Position::empty();
        let rows: Vec<&str> = fields[0].split('/').collect();
        if rows.len() != 10 {
            return Err(FenError::Ranks { board: fields[0].to_string(), found: rows.len() });
        }
        for (i, row) in rows.iter().enumerate() {
            let rank = 9 - i as u8;
            let mut file = 0usize;
            let mut placed: Vec<(Piece, usize)> = Vec::new();
            for c in row.chars() {
                if let Some(d) = c.to_digit(10).filter(|d| (1..=9).contains(d)) {
                    file += d as usize;
                } else if let Some(p) = Piece::from_letter(c) {
                    placed.push((p, file));
                    file += 1;
                } else {
                    return Err(FenError::PieceLetter { rank, letter: c });
                }
            }
            if file != 9 {
                return Err(FenError::RankWidth { rank, text: row.to_string(), width: file });
            }
            for (p, f) in placed {
                pos.put(p, Square::new(f as u8, rank));
            }
        }
        let side = match fields[1] {
            "w" | "r" => Color::RED,
            "b" => Color::Black,
            other => return Err(FenError::Side { text: other.to_string() }),
        };
        for (i, name) in [(2, "castling"), (3, "en passant")] {
            if let Some(&f) = fields.get(i)
                && f != "-"
            {
                return Err(FenError::Dash { name, text: f.to_string() });
            }
        }
        let clock = |i: usize, name: &'static str, min: u16, default: u16| -> Result<u16, FenError> {
            match fields.get(i) {
                None => Ok(default),
                Some(t) => t.parse::<u16>().ok().filter(|&n| n >= min).ok_or_else(|| FenError::Clock {
                    name,
                    text: t.to_string(),
                    min,
                }),
            }
        };
        pos.halfmove = clock(4, "halfmove clock", 0, 0)?;
        pos.fullmove = clock(5, "move number", 1, 1)?;
        pos.set_side(side);
        validate(&pos)?;
        Ok(pos)
    }

    /// The position as a six-field FEN (the form [`Position::from_fen`] reads; `w` for Red).
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(90);
        for rank in (0..10u8).rev() {
            let mut empty = 0;
            for file in 0..9u8 {
                match self.piece_on(Square::new(file, rank)) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(p.letter());
                    }
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                s.push('/');
            }
        }
        let side = if self.side_to_move() == Color::RED { 'w' } else { 'b' };
        format!("{s} {side} - - {} {}", self.halfmove_clock(), self.fullmove_number())
    }
}

/// The placement and check rules of the module docs.
fn validate(pos: &Position) -> Result<(), FenError> {
    for color in [Color::RED, Color::Black] {
        let generals = pos.pieces(color, PieceType::General).count_ones();
        if generals != 1 {
            return Err(FenError::GeneralCount { color: color.xiangqi_name(), found: generals });
        }
        for kind in PieceType::ALL {
            let found = pos.pieces(color, kind).count_ones();
            if found > kind.start_count() {
                return Err(FenError::TooMany {
                    color: color.xiangqi_name(),
                    kind: kind.name(),
                    found,
                    max: kind.start_count(),
                });
            }
        }
    }
    for i in 0..SQUARES {
        let sq = Square::from_index(i);
        let Some(p) = pos.piece_on(sq) else { continue };
        let reason = match p.kind {
            PieceType::General if !in_palace_square(p.color, sq) => "outside its palace",
            PieceType::Advisor if !advisor_point(p.color, sq) => {
                "not on one of its five palace points (advisors move diagonally inside the palace)"
            }
            PieceType::Elephant if !elephant_point(p.color, sq) => {
                "not on one of its seven points (elephants move two points diagonally and never cross the river)"
            }
            PieceType::Soldier
                if (p.color == Color::RED && sq.rank() < 3) || (p.color == Color::Black && sq.rank() > 6) =>
            {
                "behind its starting rank (soldiers never move back)"
            }
            _ => continue,
        };
        return Err(FenError::Placement {
            color: p.color.xiangqi_name(),
            kind: p.kind.name(),
            square: sq.to_string(),
            reason,
        });
    }
    let waiting = pos.side_to_move().flip();
    if pos.in_check(waiting) {
        return Err(FenError::OpponentInCheck { color: waiting.xiangqi_name() });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_round_trip() {
        let pos = Position::startpos();
        assert_eq!(pos.to_fen(), START_FEN);
        assert!(pos.is_consistent());
        assert_eq!(Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w").unwrap(), pos);
        assert_eq!(pos.rank_word(0), 0b1_1111_1111);
        assert_eq!(pos.file_word(0), 1 << 0 | 1 << 3 | 1 << 6 | 1 << 9);
        assert_eq!(pos.general(Color::Black).to_string(), "e9");
    }

    #[test]
    fn elephant_and_advisor_points() {
        let red: Vec<String> =
            (0..90).map(Square::from_index).filter(|&s| elephant_point(Color::RED, s)).map(|s| s.to_string()).collect();
        assert_eq!(red, ["c0", "g0", "a2", "e2", "i2", "c4", "g4"]);
        let black: Vec<String> = (0..90)
            .map(Square::from_index)
            .filter(|&s| elephant_point(Color::Black, s))
            .map(|s| s.to_string())
            .collect();
        assert_eq!(black, ["c5", "g5", "a7", "e7", "i7", "c9", "g9"]);
        let red: Vec<String> =
            (0..90).map(Square::from_index).filter(|&s| advisor_point(Color::RED, s)).map(|s| s.to_string()).collect();
        assert_eq!(red, ["d0", "f0", "e1", "d2", "f2"]);
        let black: Vec<String> = (0..90)
            .map(Square::from_index)
            .filter(|&s| advisor_point(Color::Black, s))
            .map(|s| s.to_string())
            .collect();
        assert_eq!(black, ["d7", "f7", "e8", "d9", "f9"]);
    }

    #[test]
    fn whitespace_other_than_ascii_space_and_tab_is_an_error() {
        let fen = START_FEN.replacen(' ', "\u{a0}", 1);
        let err = Position::from_fen(&fen).unwrap_err();
        assert_eq!(err, FenError::BadWhitespace { character: '\u{a0}', column: 60 });
        let spaced = START_FEN.replace(' ', " \t ");
        assert_eq!(Position::from_fen(&spaced).unwrap().to_fen(), START_FEN);
    }
}
