//! Squares, colours, pieces and moves of Xiangqi, and the fixed-capacity move list.
//!
//! The board has 9 files `a`..`i` (left to right from Red's side) and 10 ranks `0`..`9` (Red's back rank is
//! rank 0, Black's rank 9), as in the coordinate notation of UCCI programs (`h2e2`):
//!
//! ```text
//!   9  r n b a k a b n r   <- Black
//!   8  . . . . . . . . .
//!   7  . c . . . . . c .
//!   6  p . p . p . p . p
//!   5  . . . . . . . . .   river between ranks 4 and 5
//!   4  . . . . . . . . .
//!   3  P . P . P . P . P
//!   2  . C . . . . . C .
//!   1  . . . . . . . . .
//!   0  R N B A K A B N R   <- Red
//!      a b c d e f g h i
//! ```
//!
//! Square index = rank * 9 + file, so `a0` = 0, `i0` = 8, `a1` = 9, `i9` = 89.

use std::fmt;

/// The number of files, `a`..`i`.
pub const FILES: usize = 9;
/// The number of ranks, `0`..`9`.
pub const RANKS: usize = 10;
/// The number of squares, 90.
pub const SQUARES: usize = FILES * RANKS;

/// One of the 90 points of the board; index = rank * 9 + file (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square on `file` (0 = a .. 8 = i) and `rank` (0 .. 9).
    ///
    /// # Panics
    /// When `file > 8` or `rank > 9`; [`Square::try_new`] is the checked twin.
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Square {
        assert!(file < 9 && rank < 10, "Xiangqi square out of range");
        Square(rank * 9 + file)
    }

    /// The square on `file` and `rank`, or `None` when either is off the board.
    #[inline]
    pub const fn try_new(file: i32, rank: i32) -> Option<Square> {
        if file >= 0 && file < 9 && rank >= 0 && rank < 10 { Some(Square((rank * 9 + file) as u8)) } else { None }
    }

    /// The square with this index (0 = a0 .. 89 = i9).
    ///
    /// # Panics
    /// When `index >= 90`.
    #[inline]
    pub const fn from_index(index: usize) -> Square {
        assert!(index < SQUARES, "Xiangqi square index out of range");
        Square(index as u8)
    }

    /// The index, 0..90.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file, 0 (a) .. 8 (i).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % 9
    }

    /// The rank, 0 (Red's back rank) .. 9 (Black's).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / 9
    }

    /// The single-bit board mask of this square (bit index = square index).
    #[inline]
    pub const fn bit(self) -> u128 {
        1u128 << self.0
    }

    /// Parses `a0`..`i9`; `None` for anything else.
    pub fn parse(text: &str) -> Option<Square> {
        let b = text.as_bytes();
        if b.len() != 2 || !(b'a'..=b'i').contains(&b[0]) || !b[1].is_ascii_digit() {
            return None;
        }
        Some(Square::new(b[0] - b'a', b[1] - b'0'))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

pub use crate::game::Color;

/// Xiangqi's names for the shared [`Color`]: Red moves first (`w` in FEN, the bottom of the board, ranks 0..4 at
/// the start), so Red is [`Color::White`]; Black moves second.
impl Color {
    /// Red, the side that moves first: [`Color::White`].
    pub const RED: Color = Color::White;

    /// The Xiangqi name of the side, `Red` or `Black`.
    pub const fn xiangqi_name(self) -> &'static str {
        match self {
            Color::White => "Red",
            Color::Black => "Black",
        }
    }
}

/// The seven kinds of Xiangqi pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceType {
    /// The general (king): one step orthogonally inside its palace.
    General = 0,
    /// The advisor: one step diagonally inside its palace.
    Advisor = 1,
    /// The elephant: two steps diagonally, not over an occupied eye and not across the river.
    Elephant = 2,
    /// The horse: one step orthogonally then one diagonally outward, not over an occupied leg.
    Horse = 3,
    /// The chariot (rook): any distance along a rank or file.
    Chariot = 4,
    /// The cannon: moves as a chariot, captures by jumping exactly one screen.
    Cannon = 5,
    /// The soldier: one step forward; also sideways once across the river.
    Soldier = 6,
}

impl PieceType {
    /// All kinds in index order.
    pub const ALL: [PieceType; 7] = [
        PieceType::General,
        PieceType::Advisor,
        PieceType::Elephant,
        PieceType::Horse,
        PieceType::Chariot,
        PieceType::Cannon,
        PieceType::Soldier,
    ];

    /// 0 (general) .. 6 (soldier).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The FEN letter in lower case (Fairy-Stockfish and UCCI letters): `k a b n r c p`.
    pub const fn letter(self) -> char {
        match self {
            PieceType::General => 'k',
            PieceType::Advisor => 'a',
            PieceType::Elephant => 'b',
            PieceType::Horse => 'n',
            PieceType::Chariot => 'r',
            PieceType::Cannon => 'c',
            PieceType::Soldier => 'p',
        }
    }

    /// The English name.
    pub const fn name(self) -> &'static str {
        match self {
            PieceType::General => "general",
            PieceType::Advisor => "advisor",
            PieceType::Elephant => "elephant",
            PieceType::Horse => "horse",
            PieceType::Chariot => "chariot",
            PieceType::Cannon => "cannon",
            PieceType::Soldier => "soldier",
        }
    }

    /// How many of this kind each side has at the start (and so at most): 1 general, 5 soldiers, 2 of the others.
    pub const fn start_count(self) -> u32 {
        match self {
            PieceType::General => 1,
            PieceType::Soldier => 5,
            _ => 2,
        }
    }
}

/// A coloured piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece.
    pub color: Color,
    /// What piece.
    pub kind: PieceType,
}

impl Piece {
    /// The piece of `color` and `kind`.
    pub const fn new(color: Color, kind: PieceType) -> Piece {
        Piece { color, kind }
    }

    /// The FEN letter: upper case for Red, lower case for Black.
    pub const fn letter(self) -> char {
        let c = self.kind.letter();
        match self.color {
            Color::RED => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    }

    /// The piece of a FEN letter (`K A B N R C P` Red, `k a b n r c p` Black), or `None`.
    pub fn from_letter(c: char) -> Option<Piece> {
        let kind = PieceType::ALL.into_iter().find(|k| k.letter() == c.to_ascii_lowercase())?;
        Some(Piece::new(if c.is_ascii_uppercase() { Color::RED } else { Color::Black }, kind))
    }

    /// The compact code the board stores: `color * 8 + kind`, so `code >> 3` is the colour.
    #[inline]
    pub(crate) const fn code(self) -> u8 {
        (self.color as u8) << 3 | self.kind as u8
    }

    /// The piece of a board code (see [`Piece::code`]); `None` for [`EMPTY`].
    #[inline]
    pub(crate) const fn from_code(code: u8) -> Option<Piece> {
        if code == EMPTY {
            return None;
        }
        let color = if code >> 3 == 0 { Color::RED } else { Color::Black };
        Some(Piece::new(color, PieceType::ALL[(code & 7) as usize]))
    }
}

/// The board code of an empty square: `EMPTY >> 3` (31) equals neither colour, so one comparison
/// `code >> 3 != us` accepts a target that is empty or holds an enemy piece.
pub(crate) const EMPTY: u8 = 0xFF;

/// A move from one square to another (Xiangqi has no promotion, castling or drops), packed as
/// `from | to << 7`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Move(u16);

impl Move {
    /// The move from `from` to `to`.
    #[inline]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(from.0 as u16 | (to.0 as u16) << 7)
    }

    /// The square the piece leaves.
    #[inline]
    pub const fn from(self) -> Square {
        Square((self.0 & 0x7F) as u8)
    }

    /// The square the piece reaches (and captures on, if occupied).
    #[inline]
    pub const fn to(self) -> Square {
        Square((self.0 >> 7) as u8)
    }

    /// The coordinate text with ranks 0..9, as UCCI programs write it: `h2e2`.
    pub fn to_text(self) -> String {
        format!("{}{}", self.from(), self.to())
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())
    }
}

/// The capacity of a [`MoveList`]. With at most the starting material (which the FEN reader enforces) a side
/// has at most 2 x 17 chariot, 2 x 17 cannon, 2 x 8 horse, 5 x 3 soldier, 4 general, 4 + 1 advisor and 4 + 2
/// elephant pseudo-legal moves: 114 < 128.
pub const MAX_MOVES: usize = 128;

/// A fixed-capacity list of Xiangqi moves on the stack ([`crate::game::MoveList`]): no allocation in move
/// generation.
pub type MoveList = crate::game::MoveList<Move, MAX_MOVES>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_and_moves() {
        assert_eq!(Square::new(0, 0).index(), 0);
        assert_eq!(Square::new(8, 9).index(), 89);
        assert_eq!(Square::parse("h2"), Some(Square::new(7, 2)));
        assert_eq!(Square::parse("j2"), None);
        assert_eq!(Square::parse("a10"), None);
        let m = Move::new(Square::parse("h2").unwrap(), Square::parse("e2").unwrap());
        assert_eq!(m.to_text(), "h2e2");
        assert_eq!((m.from().to_string(), m.to().to_string()), ("h2".into(), "e2".into()));
        for c in ['K', 'a', 'B', 'n', 'R', 'c', 'P'] {
            let p = Piece::from_letter(c).unwrap();
            assert_eq!(p.letter(), c);
            assert_eq!(Piece::from_code(p.code()), Some(p));
        }
        assert_eq!(Piece::from_letter('q'), None);
        assert_eq!(Piece::from_code(EMPTY), None);
    }
}
