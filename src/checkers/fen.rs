//! FEN in the PDN form and move text, read and written.
//!
//! - Russian draughts and the small boards: `W:Wa1,c1,e1:Bb6,Kd8` (side to move, then each colour's list of
//!   algebraic squares, `K` before a king), moves `c3-d4`, captures `c3:e5:g3` (every landing square).
//! - English checkers: `B:W21,22,K30:B1,2,3` with the squares numbered 1..32 ([`Board::english_number`]),
//!   ranges such as `1-12` accepted when read, moves `9-13`, captures `9x18x27`.
//!
//! Source: the Portable Draughts Notation standard (PDN 3.0, FEN tag; GameType 20 English, 25 Russian).

use super::position::Position;
use super::types::{Board, Move, PieceColor, Ruleset, SetupError};

/// Why a FEN cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// The side-to-move field is not `W` or `B`.
    #[error("FEN {}: side to move {}: expected W or B", crate::notation::quote::shown(.fen), crate::notation::quote::shown(.found))]
    Side {
        /// The FEN.
        fen: String,
        /// The first field.
        found: String,
    },
    /// A field does not start with the colour letter `W` or `B`, or a colour has two lists.
    #[error("FEN {}: field {}: {reason}", crate::notation::quote::shown(.fen), crate::notation::quote::shown(.field))]
    Field {
        /// The FEN.
        fen: String,
        /// The field.
        field: String,
        /// What is wrong.
        reason: &'static str,
    },
    /// A square of a piece list cannot be read.
    #[error("FEN {}: square {}: {reason}", crate::notation::quote::shown(.fen), crate::notation::quote::shown(.token))]
    Square {
        /// The FEN.
        fen: String,
        /// The list entry.
        token: String,
        /// What was expected.
        reason: String,
    },
    /// The pieces do not form a position ([`Position::new`]'s reason).
    #[error("FEN {}: {reason}", crate::notation::quote::shown(.fen))]
    Position {
        /// The FEN.
        fen: String,
        /// The reason.
        reason: SetupError,
    },
}

/// Why a move text is not a legal move of the position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// A square of the text cannot be read.
    #[error("move {}: {} is not a square of this board ({expected})", crate::notation::quote::shown(.text), crate::notation::quote::shown(.token))]
    Square {
        /// The move text.
        text: String,
        /// The bad part.
        token: String,
        /// The square notation expected.
        expected: &'static str,
    },
    /// The text names no legal move.
    #[error("move {} is not legal here (legal: {legal})", crate::notation::quote::shown(.text))]
    Illegal {
        /// The move text.
        text: String,
        /// The legal moves, space-separated.
        legal: String,
    },
    /// `from-to` or `from:to` shorthand fits captures over different pieces.
    #[error("move {} is ambiguous: {candidates}", crate::notation::quote::shown(.text))]
    Ambiguous {
        /// The move text.
        text: String,
        /// The fitting moves, space-separated.
        candidates: String,
    },
}

impl Position {
    /// Whether this position's notation numbers the squares (English checkers) rather than naming them.
    fn numeric(&self) -> bool {
        self.rules == Ruleset::English
    }

    /// The name of square `s` in this position's notation: `c3`, or `9` in English checkers.
    pub fn square_text(&self, s: u8) -> String {
        if self.numeric() { Board::english_number(s).to_string() } else { self.board.name(s) }
    }

    /// Reads a square in this position's notation.
    fn parse_square(&self, text: &str) -> Option<u8> {
        if self.numeric() {
            text.parse().ok().and_then(Board::from_english_number)
        } else {
            self.board.parse_name(text)
        }
    }

    /// The position as PDN FEN: `W:Wa1,c1:Bb6,Kd8` (English: `B:W21,K30:B1,2`), squares in increasing order
    /// of their names' numbering (English numbers; otherwise rows from White's side, files left to right).
    pub fn to_fen(&self) -> String {
        let list = |color: PieceColor| {
            let mut squares: Vec<(u8, bool)> = (0..self.board.squares())
                .filter(|&s| self.pieces(color) & 1 << s != 0)
                .map(|s| (s, self.kings(color) & 1 << s != 0))
                .collect();
            if self.numeric() {
                squares.sort_by_key(|&(s, _)| Board::english_number(s));
            }
            let texts: Vec<String> = squares
                .iter()
                .map(|&(s, king)| format!("{}{}", if king { "K" } else { "" }, self.square_text(s)))
                .collect();
            texts.join(",")
        };
        let side = if self.side == PieceColor::White { 'W' } else { 'B' };
        format!("{side}:W{}:B{}", list(PieceColor::White), list(PieceColor::Black))
    }

    /// Reads a PDN FEN for `rules` on the `size` x `size` board (see the module documentation). A colour
    /// without a list has no pieces; a trailing `.` is ignored.
    ///
    /// # Errors
    /// [`FenError`], naming the field or square that is wrong; never panics.
    pub fn from_fen(rules: Ruleset, size: u8, fen: &str) -> Result<Position, FenError> {
        let err_pos = |reason: SetupError| FenError::Position { fen: fen.to_string(), reason };
        let empty = Position::new(rules, size, [0, 0], [0, 0], PieceColor::White).map_err(err_pos)?;
        let text = fen.trim();
        let text = text.strip_suffix('.').unwrap_or(text);
        let mut fields = text.split(':');
        let side = match fields.next().map(str::trim) {
            Some("W") => PieceColor::White,
            Some("B") => PieceColor::Black,
            found => return Err(FenError::Side { fen: fen.to_string(), found: found.unwrap_or("").to_string() }),
        };
        let mut men = [0u32; 2];
        let mut kings = [0u32; 2];
        let mut seen = [false; 2];
        for field in fields {
            let field = field.trim();
            let bad_field = |reason| FenError::Field { fen: fen.to_string(), field: field.to_string(), reason };
            let (color, list) = match field.split_at_checked(1) {
                Some(("W", rest)) => (PieceColor::White, rest),
                Some(("B", rest)) => (PieceColor::Black, rest),
                _ => return Err(bad_field("expected a piece list starting with W or B")),
            };
            if std::mem::replace(&mut seen[color.index()], true) {
                return Err(bad_field("a second list for this colour"));
            }
            let list = list.trim();
            // An empty list is a side without pieces; inside a list every entry names a square.
            let tokens = if list.is_empty() { Vec::new() } else { list.split(',').map(str::trim).collect() };
            if tokens.iter().any(|t| t.is_empty()) {
                return Err(bad_field("an empty entry in the piece list (a comma too many)"));
            }
            for token in tokens {
                let bad_square =
                    |reason: String| FenError::Square { fen: fen.to_string(), token: token.to_string(), reason };
                let (king, name) = match token.strip_prefix('K') {
                    Some(rest) => (true, rest),
                    None => (false, token),
                };
                let squares = empty.parse_squares(name).ok_or_else(|| bad_square(empty.square_syntax()))?;
                for s in squares {
                    let bit = 1u32 << s;
                    if (men[0] | men[1] | kings[0] | kings[1]) & bit != 0 {
                        return Err(bad_square(format!("square {} is listed twice", empty.square_text(s))));
                    }
                    if king {
                        kings[color.index()] |= bit;
                    } else {
                        men[color.index()] |= bit;
                    }
                }
            }
        }
        Position::new(rules, size, men, kings, side).map_err(err_pos)
    }

    /// What a FEN list entry of this board must look like, for errors.
    fn square_syntax(&self) -> String {
        if self.numeric() {
            "expected a square number 1..32 or a range such as 1-12".to_string()
        } else {
            let last = (b'a' + self.size() - 1) as char;
            format!("expected a dark square a1..{last}{} such as c3", self.size())
        }
    }

    /// The squares of one FEN list entry: a square, or (English numbers) a range `a-b`; `None` when the entry
    /// is neither ([`Position::square_syntax`] says what is expected).
    fn parse_squares(&self, name: &str) -> Option<Vec<u8>> {
        if self.numeric()
            && let Some((a, b)) = name.split_once('-')
        {
            let (a, b) = (a.parse::<u8>().ok()?, b.parse::<u8>().ok()?);
            if !(1..=32).contains(&a) || !(a..=32).contains(&b) {
                return None;
            }
            return Some((a..=b).filter_map(Board::from_english_number).collect());
        }
        self.parse_square(name).map(|s| vec![s])
    }

    /// Move `m` as text: `c3-d4`, `c3:e5:g3` (every landing square); English `9-13`, `9x18x27`.
    pub fn move_text(&self, m: &Move) -> String {
        let sep = match (m.is_capture(), self.numeric()) {
            (false, _) => "-",
            (true, false) => ":",
            (true, true) => "x",
        };
        let mut text = self.square_text(m.from);
        for &l in m.landings() {
            text.push_str(sep);
            text.push_str(&self.square_text(l));
        }
        text
    }

    /// The legal move written as `text`: the full path as [`Position::move_text`] writes it, or the start and
    /// end squares alone when they fit captures of one set of pieces (`-`, `:` and `x` are all accepted as
    /// separators). Of duplicate capture paths (same start, end and captured pieces) the first is returned.
    ///
    /// # Errors
    /// [`MoveError`]: a square that is not on the board, a move that is not legal, an ambiguous shorthand.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let expected = if self.numeric() { "English numbers 1..32" } else { "algebraic such as c3" };
        let mut squares = Vec::new();
        for token in text.trim().split(['-', ':', 'x']) {
            match self.parse_square(token) {
                Some(s) => squares.push(s),
                None => return Err(MoveError::Square { text: text.to_string(), token: token.to_string(), expected }),
            }
        }
        let moves = self.legal_moves();
        if let Some(m) = moves.iter().find(|m| m.from == squares[0] && m.landings() == &squares[1..]) {
            return Ok(*m);
        }
        let fits: Vec<&Move> = if squares.len() == 2 {
            moves.iter().filter(|m| m.from == squares[0] && m.to == squares[1]).collect()
        } else {
            Vec::new()
        };
        let list = |ms: &mut dyn Iterator<Item = &Move>| ms.map(|m| self.move_text(m)).collect::<Vec<_>>().join(" ");
        match fits.first() {
            None => Err(MoveError::Illegal { text: text.to_string(), legal: list(&mut moves.iter()) }),
            Some(first) if fits.iter().all(|m| m.captured == first.captured) => Ok(**first),
            Some(_) => Err(MoveError::Ambiguous { text: text.to_string(), candidates: list(&mut fits.into_iter()) }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_fens_round_trip() {
        let r = Position::start(Ruleset::Russian, 8).unwrap();
        let fen = "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8";
        assert_eq!(r.to_fen(), fen);
        assert_eq!(Position::from_fen(Ruleset::Russian, 8, fen).unwrap(), r);
        let e = Position::start(Ruleset::English, 8).unwrap();
        let fen = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12";
        assert_eq!(e.to_fen(), fen);
        assert_eq!(Position::from_fen(Ruleset::English, 8, fen).unwrap(), e);
        assert_eq!(Position::from_fen(Ruleset::English, 8, "B:W21-32:B1-12").unwrap(), e);
        assert_eq!(Position::start(Ruleset::Russian, 4).unwrap().to_fen(), "W:Wa1,c1:Bb4,d4");
    }
}
