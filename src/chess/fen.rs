//! FEN (Forsyth-Edwards Notation) parse and write, all six fields, with X-FEN and Shredder-FEN castling.
//!
//! Source: the PGN standard, section 16.1 (FEN), and the chessprogramming wiki ("Forsyth-Edwards Notation",
//! "X-FEN", "Shredder-FEN").

use crate::chess::position::castling_bit;
use crate::chess::{Color, Piece, PieceType, Position, Setup, SetupError, Square};
use thiserror::Error;

/// What is wrong with a FEN string. Each variant names the field and the offending text.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FenError {
    /// The string has more than six fields.
    #[error("expected 4 to 6 fields (board, side, castling, en passant[, halfmove, fullmove]), found {found}")]
    FieldCount {
        /// How many fields there were.
        found: usize,
    },
    /// One of the four fields a FEN cannot do without is missing (the two clocks may be left out).
    #[error(
        "missing the {field} field: found {found} fields, expected board, side, castling and en passant (the \
         halfmove and fullmove fields may be left out: they default to 0 and 1)"
    )]
    MissingField {
        /// The first missing field: `board`, `side`, `castling` or `en passant`.
        field: &'static str,
        /// How many fields there were.
        found: usize,
    },
    /// A whitespace or control character other than ASCII space and tab (a no-break space, a form feed...).
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
    /// The board field does not have 8 ranks separated by `/`.
    #[error("board field {}: expected 8 ranks, found {found}", crate::notation::quote::shown(.board))]
    RankCount {
        /// The board field.
        board: String,
        /// The number of ranks found.
        found: usize,
    },
    /// A rank does not add up to 8 files.
    #[error("board field: rank {rank} {} covers {files} files, expected 8", crate::notation::quote::shown(.text))]
    FileCount {
        /// The rank number (8 = first in the FEN).
        rank: u8,
        /// The rank text.
        text: String,
        /// The files it covers.
        files: u32,
    },
    /// Two digits stand next to each other in a rank (`44` instead of `8`).
    #[error("board field: rank {rank} {} has two digits in a row", crate::notation::quote::shown(.text))]
    AdjacentDigits {
        /// The rank number (8 = first in the FEN).
        rank: u8,
        /// The rank text.
        text: String,
    },
    /// A character in the board field is neither a piece letter nor a digit 1-8.
    #[error("board field: bad piece letter {letter:?} in rank {rank}")]
    BadPiece {
        /// The character.
        letter: char,
        /// The rank number.
        rank: u8,
    },
    /// The side field is not `w` or `b`.
    #[error("side field {}: expected w or b", crate::notation::quote::shown(.text))]
    BadSide {
        /// The field.
        text: String,
    },
    /// A castling letter is not one of `KQkq`, `A`-`H`, `a`-`h`, or the field is otherwise malformed.
    #[error("castling field {}: bad letter {letter:?}", crate::notation::quote::shown(.text))]
    BadCastling {
        /// The field.
        text: String,
        /// The letter.
        letter: char,
    },
    /// A castling right whose king is not on its back rank, so no rook can be found for it.
    #[error("castling field {}: right {letter:?} needs the {color} king on its back rank", crate::notation::quote::shown(.text))]
    CastlingWithoutKing {
        /// The field.
        text: String,
        /// The letter.
        letter: char,
        /// `White` or `Black`.
        color: &'static str,
    },
    /// A `K`/`Q`/`k`/`q` right without a rook of its colour on its back rank, on that side of the king.
    #[error(
        "castling field {}: right {letter:?} needs a {color} rook on its back rank on the {side} of the king", crate::notation::quote::shown(.text)
    )]
    CastlingWithoutRook {
        /// The field.
        text: String,
        /// The letter.
        letter: char,
        /// `white` or `black`.
        color: &'static str,
        /// `king side` or `queen side`.
        side: &'static str,
    },
    /// A castling right is given twice.
    #[error("castling field {}: right {letter:?} repeated", crate::notation::quote::shown(.text))]
    RepeatedCastling {
        /// The field.
        text: String,
        /// The repeated letter.
        letter: char,
    },
    /// The en-passant field is neither `-` nor a square.
    #[error("en-passant field {}: expected - or a square such as e3", crate::notation::quote::shown(.text))]
    BadEnPassant {
        /// The field.
        text: String,
    },
    /// A clock field is not a number in range.
    #[error("{field} field {}: expected an integer from {min} to 65535", crate::notation::quote::shown(.text))]
    BadClock {
        /// `halfmove` or `fullmove`.
        field: &'static str,
        /// The smallest value: 0 for the halfmove clock, 1 for the fullmove number.
        min: u16,
        /// The text.
        text: String,
    },
    /// The fields parse, but the position is illegal.
    #[error("illegal position: {0}")]
    Illegal(#[from] SetupError),
}

/// Parses a FEN into a [`Setup`] without checking the position's legality. Fields are separated by runs of
/// ASCII spaces and tabs; missing clock fields default to `0 1` (as python-chess's `Board.set_fen` does); the
/// first four fields are required. `chess960` makes `KQkq` letters and castling moves use Chess960 conventions.
/// The policies are in `docs/positions.md`.
///
/// # Errors
/// [`FenError`] naming the field and the text; [`FenError::BadWhitespace`] for any other whitespace or control
/// character, [`FenError::MissingField`] naming the first missing field.
pub fn parse_setup(fen: &str, chess960: bool) -> Result<Setup, FenError> {
    if let Some((i, character)) =
        fen.chars().enumerate().find(|&(_, c)| (c.is_whitespace() || c.is_control()) && c != ' ' && c != '\t')
    {
        return Err(FenError::BadWhitespace { character, column: i + 1 });
    }
    let fields: Vec<&str> = fen.split([' ', '\t']).filter(|f| !f.is_empty()).collect();
    if fields.len() < 4 {
        let field = ["board", "side", "castling", "en passant"][fields.len()];
        return Err(FenError::MissingField { field, found: fields.len() });
    }
    if fields.len() > 6 {
        return Err(FenError::FieldCount { found: fields.len() });
    }
    let ranks: Vec<&str> = fields[0].split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::RankCount { board: fields[0].to_string(), found: ranks.len() });
    }
    let mut board = [None; 64];
    for (i, text) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file: u32 = 0;
        let mut last_digit = false;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10) {
                if !(1..=8).contains(&d) {
                    return Err(FenError::BadPiece { letter: c, rank: rank + 1 });
                }
                if last_digit {
                    return Err(FenError::AdjacentDigits { rank: rank + 1, text: text.to_string() });
                }
                last_digit = true;
                file += d;
            } else if let Some(p) = Piece::from_fen_char(c) {
                last_digit = false;
                if file < 8 {
                    board[(rank as usize) * 8 + file as usize] = Some(p);
                }
                file += 1;
            } else {
                return Err(FenError::BadPiece { letter: c, rank: rank + 1 });
            }
        }
        if file != 8 {
            return Err(FenError::FileCount { rank: rank + 1, text: text.to_string(), files: file });
        }
    }
    let side = match fields[1] {
        "w" => Color::White,
        "b" => Color::Black,
        other => return Err(FenError::BadSide { text: other.to_string() }),
    };
    let castle_rooks = parse_castling(fields[2], &board)?;
    let ep = match fields[3] {
        "-" => None,
        text => Some(Square::parse(text).ok_or_else(|| FenError::BadEnPassant { text: text.to_string() })?),
    };
    let clock = |i: usize, field: &'static str, min: u16, default: u16| -> Result<u16, FenError> {
        let bad = |t: &str| FenError::BadClock { field, min, text: t.to_string() };
        match fields.get(i) {
            None => Ok(default),
            Some(t) if t.bytes().all(|b| b.is_ascii_digit()) => {
                t.parse::<u16>().ok().filter(|&n| n >= min).ok_or_else(|| bad(t))
            }
            Some(t) => Err(bad(t)),
        }
    };
    let halfmove = clock(4, "halfmove", 0, 0)?;
    let fullmove = clock(5, "fullmove", 1, 1)?;
    Ok(Setup { board, side, castle_rooks, ep, halfmove, fullmove, chess960 })
}

fn parse_castling(text: &str, board: &[Option<Piece>; 64]) -> Result<[Option<Square>; 4], FenError> {
    let mut rooks = [None; 4];
    if text == "-" {
        return Ok(rooks);
    }
    for letter in text.chars() {
        let color = if letter.is_ascii_uppercase() { Color::White } else { Color::Black };
        let back = if color == Color::White { 0u8 } else { 7 };
        let rook = Piece::new(color, PieceType::Rook);
        let king_file = (0..8u8).find(|&f| board[(back * 8 + f) as usize] == Some(Piece::new(color, PieceType::King)));
        let bad = || FenError::BadCastling { text: text.to_string(), letter };
        let no_king = || FenError::CastlingWithoutKing {
            text: text.to_string(),
            letter,
            color: if color == Color::White { "White" } else { "Black" },
        };
        let (king_side, file) = match letter.to_ascii_lowercase() {
            'k' | 'q' => {
                let king_side = letter.eq_ignore_ascii_case(&'k');
                // X-FEN: the outermost rook on that side of the king.
                let kf = king_file.ok_or_else(no_king)?;
                let files: Vec<u8> = if king_side { (kf + 1..8).rev().collect() } else { (0..kf).collect() };
                let no_rook = || FenError::CastlingWithoutRook {
                    text: text.to_string(),
                    letter,
                    color: if color == Color::White { "white" } else { "black" },
                    side: if king_side { "king side" } else { "queen side" },
                };
                let f =
                    files.into_iter().find(|&f| board[(back * 8 + f) as usize] == Some(rook)).ok_or_else(no_rook)?;
                (king_side, f)
            }
            c @ 'a'..='h' => {
                let f = c as u8 - b'a';
                let kf = king_file.ok_or_else(no_king)?;
                if f == kf {
                    return Err(bad());
                }
                (f > kf, f)
            }
            _ => return Err(bad()),
        };
        let bit = castling_bit(color, king_side).trailing_zeros() as usize;
        if rooks[bit].is_some() {
            return Err(FenError::RepeatedCastling { text: text.to_string(), letter });
        }
        rooks[bit] = Some(Square::from_file_rank(file, back));
    }
    Ok(rooks)
}

impl Position {
    /// Parses a FEN (standard chess; X-FEN and Shredder-FEN castling letters are accepted too).
    ///
    /// # Errors
    /// [`FenError`] naming the field and the text, including [`FenError::Illegal`] for positions that fail
    /// validation (king count, pawns on rank 1 or 8, side not to move in check, impossible en passant).
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Self::from_fen_variant(fen, false)
    }

    /// Parses a FEN; `chess960` selects Chess960 castling notation for moves.
    ///
    /// # Errors
    /// As [`Position::from_fen`].
    pub fn from_fen_variant(fen: &str, chess960: bool) -> Result<Position, FenError> {
        let setup = parse_setup(fen, chess960)?;
        Ok(Position::from_setup(&setup)?)
    }

    /// Writes the position as FEN, all six fields. Castling is `KQkq` where the rooks are the outermost ones
    /// and the game is not Chess960, otherwise Shredder-FEN file letters. The en-passant field shows the
    /// square only when a legal en-passant capture exists.
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(90);
        for rank in (0..8u8).rev() {
            let mut empty = 0;
            for file in 0..8u8 {
                match self.piece_on(Square::from_file_rank(file, rank)) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(p.fen_char());
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
        s.push(' ');
        s.push(self.side_to_move().fen_char());
        s.push(' ');
        let rights = self.castling_rights();
        if rights == 0 {
            s.push('-');
        }
        for bit in 0..4 {
            if rights & (1 << bit) == 0 {
                continue;
            }
            let rook = self.castling_rook(bit);
            let color = if bit < 2 { Color::White } else { Color::Black };
            let standard = !self.is_chess960() && self.is_outermost_rook(color, rook);
            let c = if standard {
                ['K', 'Q', 'k', 'q'][bit]
            } else {
                let f = (b'a' + rook.file()) as char;
                if color == Color::White { f.to_ascii_uppercase() } else { f }
            };
            s.push(c);
        }
        s.push(' ');
        match self.ep_square() {
            Some(ep) => s.push_str(&ep.to_string()),
            None => s.push('-'),
        }
        s.push_str(&format!(" {} {}", self.halfmove_clock(), self.fullmove_number()));
        s
    }

    fn is_outermost_rook(&self, color: Color, rook: Square) -> bool {
        let king = self.king_square(color);
        let rook_piece = Piece::new(color, PieceType::Rook);
        let beyond: Vec<u8> = if rook > king { (rook.file() + 1..8).collect() } else { (0..rook.file()).collect() };
        beyond.into_iter().all(|f| self.piece_on(Square::from_file_rank(f, rook.rank())) != Some(rook_piece))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_defaults() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(Position::from_fen(start).unwrap().to_fen(), start);
        assert_eq!(Position::startpos().to_fen(), start);
        let short = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
        assert_eq!(Position::from_fen(short).unwrap().to_fen(), start);
    }

    #[test]
    fn bad_fens_are_typed_errors() {
        let cases = [
            ("8/8/8/8/8/8/8 w - - 0 1", "ranks"),
            ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "piece letter"),
            ("rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "files"),
            ("rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "piece letter"),
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side"),
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1", "castling"),
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKkq - 0 1", "repeated"),
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e4 0 1", "en-passant"),
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1", "en-passant"),
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1", "en-passant"),
            ("rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w Q - 0 1", "pawn"),
            ("rnbqqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "kings"),
            ("4k3/8/8/8/8/8/8/4K2R w - - 0 1 x", "fields"),
            ("4k3/8/8/8/8/8/8/R3K3 w - - x 1", "halfmove"),
            ("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", "not to move is in check"),
            ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", "castling"),
        ];
        for (fen, needle) in cases {
            let err = Position::from_fen(fen).expect_err(fen).to_string();
            assert!(err.contains(needle), "{fen}: {err} lacks {needle:?}");
        }
    }

    #[test]
    fn equality_ignores_rook_squares_of_lost_rights() {
        let mut p = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let m = crate::chess::san::parse_uci(&p, "a1b1").unwrap();
        p.make_move(m);
        assert_eq!(Position::from_fen(&p.to_fen()).unwrap(), p);
    }

    #[test]
    fn shredder_and_xfen_castling() {
        let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
        let pos = Position::from_fen_variant(fen, true).unwrap();
        assert_eq!(pos.to_fen(), fen);
        assert_eq!(pos.castling_rights(), 15);
    }

    #[test]
    fn missing_fields_name_the_field_and_clocks_default_to_0_1() {
        let board = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
        for (fen, field) in [
            (String::new(), "board"),
            (board.to_string(), "side"),
            (format!("{board} w"), "castling"),
            (format!("{board} w KQkq"), "en passant"),
        ] {
            let err = Position::from_fen(&fen).expect_err(&fen);
            assert!(matches!(err, FenError::MissingField { field: f, .. } if f == field), "{fen:?}: {err}");
            assert!(err.to_string().contains(&format!("missing the {field} field")), "{err}");
        }
        let start = Position::startpos().to_fen();
        assert_eq!(Position::from_fen(&format!("{board} w KQkq -")).unwrap().to_fen(), start);
        let five = Position::from_fen(&format!("{board} w KQkq - 7")).unwrap();
        assert_eq!((five.halfmove_clock(), five.fullmove_number()), (7, 1));
    }

    #[test]
    fn castling_and_clock_errors_name_what_is_missing() {
        let message = |fen: &str| Position::from_fen(fen).expect_err(fen).to_string();
        // No black rook for 'k': the letter itself is fine, the rook is missing.
        assert_eq!(
            message("4k3/8/8/8/8/8/8/4K2R w Kk - 0 1"),
            "castling field \"Kk\": right 'k' needs a black rook on its back rank on the king side of the king"
        );
        assert_eq!(
            message("4k3/8/8/8/8/8/4K3/7R w K - 0 1"),
            "castling field \"K\": right 'K' needs the White king on its back rank"
        );
        // A rook on g1 is not the corner rook the K right needs in standard chess: name h1, not g1.
        for fen in ["4k3/8/8/8/8/8/8/4K1R1 w K - 0 1", "4k3/8/8/8/8/8/8/4K1R1 w G - 0 1"] {
            let m = message(fen);
            assert!(m.contains("castling right K needs the king on its start square and a rook on h1"), "{m}");
        }
        assert!(
            message("4k3/8/8/8/8/8/8/4KR2 w Q - 0 1").contains("needs a white rook on its back rank on the queen side")
        );
        // Each clock names its own range.
        let board = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
        assert_eq!(message(&format!("{board} 0 0")), "fullmove field \"0\": expected an integer from 1 to 65535");
        assert_eq!(message(&format!("{board} -1 1")), "halfmove field \"-1\": expected an integer from 0 to 65535");
        assert_eq!(
            message(&format!("{board} 0 65536")),
            "fullmove field \"65536\": expected an integer from 1 to 65535"
        );
    }

    #[test]
    fn whitespace_other_than_ascii_space_and_tab_is_an_error() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        for bad in ['\u{a0}', '\u{b}', '\u{c}', '\u{3000}', '\r', '\n', '\u{2009}', '\u{0}'] {
            let fen = start.replacen(' ', &bad.to_string(), 1);
            let err = Position::from_fen(&fen).expect_err(&fen);
            assert_eq!(err, FenError::BadWhitespace { character: bad, column: 44 }, "{fen:?}");
            assert!(err.to_string().contains(&format!("U+{:04X}", u32::from(bad))), "{err}");
        }
        // Runs of ASCII spaces and tabs, leading and trailing ones included, separate fields.
        let spaced = "  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR \t w  KQkq\t-   0 1 ";
        assert_eq!(Position::from_fen(spaced).unwrap().to_fen(), start);
    }
}
