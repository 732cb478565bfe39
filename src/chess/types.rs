//! Squares, files, ranks, colours and pieces.
//!
//! Squares are numbered 0..64 with a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63 (little-endian
//! rank-file mapping, as on the chessprogramming wiki).

use std::fmt;

pub use crate::game::Color;

/// A kind of piece, without colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceType {
    /// Pawn.
    Pawn = 0,
    /// Knight.
    Knight = 1,
    /// Bishop.
    Bishop = 2,
    /// Rook.
    Rook = 3,
    /// Queen.
    Queen = 4,
    /// King.
    King = 5,
}

impl PieceType {
    /// All six piece types, pawn first.
    pub const ALL: [PieceType; 6] =
        [PieceType::Pawn, PieceType::Knight, PieceType::Bishop, PieceType::Rook, PieceType::Queen, PieceType::King];

    /// 0..6, pawn first: an index into per-type arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The piece type with this index; panics if `i >= 6`.
    #[inline]
    pub const fn from_index(i: usize) -> PieceType {
        PieceType::ALL[i]
    }

    /// The lower-case letter used in FEN, SAN (upper-cased) and UCI promotions: `p n b r q k`.
    pub const fn char(self) -> char {
        match self {
            PieceType::Pawn => 'p',
            PieceType::Knight => 'n',
            PieceType::Bishop => 'b',
            PieceType::Rook => 'r',
            PieceType::Queen => 'q',
            PieceType::King => 'k',
        }
    }

    /// The piece type for a letter of either case, or `None`.
    pub fn from_char(c: char) -> Option<PieceType> {
        Some(match c.to_ascii_lowercase() {
            'p' => PieceType::Pawn,
            'n' => PieceType::Knight,
            'b' => PieceType::Bishop,
            'r' => PieceType::Rook,
            'q' => PieceType::Queen,
            'k' => PieceType::King,
            _ => return None,
        })
    }
}

/// A coloured piece; index `color * 6 + type` (0..12) selects one of the 12 piece bitboards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// The owner.
    pub color: Color,
    /// The kind.
    pub kind: PieceType,
}

impl Piece {
    /// A piece of the given colour and kind.
    #[inline]
    pub const fn new(color: Color, kind: PieceType) -> Piece {
        Piece { color, kind }
    }

    /// `color * 6 + kind`, in 0..12.
    #[inline]
    pub const fn index(self) -> usize {
        self.color.index() * 6 + self.kind.index()
    }

    /// The piece with this index (0..12); panics if `i >= 12`.
    #[inline]
    pub const fn from_index(i: usize) -> Piece {
        let color = if i < 6 { Color::White } else { Color::Black };
        Piece::new(color, PieceType::from_index(i % 6))
    }

    /// The FEN letter: upper case for White, lower case for Black.
    pub fn fen_char(self) -> char {
        let c = self.kind.char();
        match self.color {
            Color::White => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    }

    /// The piece for a FEN letter (`PNBRQK` White, `pnbrqk` Black), or `None`.
    pub fn from_fen_char(c: char) -> Option<Piece> {
        let kind = PieceType::from_char(c)?;
        let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
        Some(Piece::new(color, kind))
    }
}

/// A file, a (0) to h (7).
pub type File = u8;
/// A rank, 1 (0) to 8 (7).
pub type Rank = u8;

/// A square, 0..64, with a1 = 0 and h8 = 63.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square with this index.
    ///
    /// # Panics
    /// If `index >= 64`. Use [`Square::try_from`] for unchecked input.
    #[inline]
    pub const fn new(index: u8) -> Square {
        assert!(index < 64, "square index out of range");
        Square(index)
    }

    /// The square on `file` (0 = a) and `rank` (0 = rank 1); panics if either is above 7.
    #[inline]
    pub const fn from_file_rank(file: File, rank: Rank) -> Square {
        assert!(file < 8 && rank < 8, "file or rank out of range");
        Square(rank * 8 + file)
    }

    /// The index 0..64 as `usize`, for table lookups.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file, 0 (a) to 7 (h).
    #[inline]
    pub const fn file(self) -> File {
        self.0 & 7
    }

    /// The rank, 0 (rank 1) to 7 (rank 8).
    #[inline]
    pub const fn rank(self) -> Rank {
        self.0 >> 3
    }

    /// The same file on the opposite side of the board (a1 <-> a8).
    #[inline]
    pub const fn flip_rank(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// The rank as seen by `color`: 0 is that side's first rank.
    #[inline]
    pub const fn relative_rank(self, color: Color) -> Rank {
        match color {
            Color::White => self.rank(),
            Color::Black => 7 - self.rank(),
        }
    }

    /// The square `delta` steps away in index (8 = one rank up); the caller ensures it stays on the board.
    #[inline]
    pub const fn offset(self, delta: i8) -> Square {
        Square::new((self.0 as i8 + delta) as u8)
    }

    /// Parses algebraic text such as `e4`; `None` if it is not a square.
    pub fn parse(text: &str) -> Option<Square> {
        let b = text.as_bytes();
        if b.len() != 2 || !(b'a'..=b'h').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
            return None;
        }
        Some(Square::from_file_rank(b[0] - b'a', b[1] - b'1'))
    }

    /// All 64 squares, a1 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }
}

impl TryFrom<u8> for Square {
    type Error = u8;
    /// The square with this index, or the index back if it is 64 or more.
    fn try_from(index: u8) -> Result<Square, u8> {
        if index < 64 { Ok(Square(index)) } else { Err(index) }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, (b'1' + self.rank()) as char)
    }
}
