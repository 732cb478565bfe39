//! Moves packed in 16 bits and a fixed-capacity move list.

use super::types::{PieceType, Square};
use std::fmt;

/// What kind of move a [`Move`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveKind {
    /// A quiet move or an ordinary capture (including double pawn pushes).
    Normal,
    /// A pawn reaching the last rank; the piece is given by [`Move::promotion`].
    Promotion,
    /// A pawn capturing en passant; `to` is the en-passant square.
    EnPassant,
    /// Castling, encoded as the king's square to its own rook's square (as in Chess960).
    Castling,
}

/// A move in 16 bits: from (bits 0-5), to (6-11), promotion piece (12-13: N, B, R, Q), kind (14-15).
///
/// Castling is stored as "king takes own rook" so that standard chess and Chess960 share one encoding;
/// [`Move::to_uci`] writes the king's destination (`e1g1`) unless Chess960 notation is asked for.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

impl Move {
    /// The null move (a1a1), used as "no move" in tables; never legal.
    pub const NULL: Move = Move(0);

    /// A normal move or capture.
    #[inline]
    pub const fn normal(from: Square, to: Square) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6)
    }

    /// A promotion to `piece` (knight, bishop, rook or queen).
    #[inline]
    pub const fn promotion(from: Square, to: Square, piece: PieceType) -> Move {
        let p = (piece.index() as u16).wrapping_sub(1) & 3;
        Move(from.index() as u16 | (to.index() as u16) << 6 | p << 12 | 1 << 14)
    }

    /// An en-passant capture landing on the en-passant square `to`.
    #[inline]
    pub const fn en_passant(from: Square, to: Square) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6 | 2 << 14)
    }

    /// Castling: the king on `king` with its own rook on `rook`.
    #[inline]
    pub const fn castling(king: Square, rook: Square) -> Move {
        Move(king.index() as u16 | (rook.index() as u16) << 6 | 3 << 14)
    }

    /// The origin square.
    #[inline]
    pub const fn from(self) -> Square {
        Square::new((self.0 & 63) as u8)
    }

    /// The target square (the castling rook's square for castling).
    #[inline]
    pub const fn to(self) -> Square {
        Square::new((self.0 >> 6 & 63) as u8)
    }

    /// The kind of move.
    #[inline]
    pub const fn kind(self) -> MoveKind {
        match self.0 >> 14 {
            0 => MoveKind::Normal,
            1 => MoveKind::Promotion,
            2 => MoveKind::EnPassant,
            _ => MoveKind::Castling,
        }
    }

    /// The promotion piece, if this is a promotion.
    #[inline]
    pub const fn promotion_piece(self) -> Option<PieceType> {
        if self.0 >> 14 == 1 { Some(PieceType::from_index(((self.0 >> 12) & 3) as usize + 1)) } else { None }
    }

    /// The raw 16-bit encoding (for hash tables).
    #[inline]
    pub const fn raw(self) -> u16 {
        self.0
    }

    /// The move from its raw 16-bit encoding (as returned by [`Move::raw`]).
    #[inline]
    pub const fn from_raw(raw: u16) -> Move {
        Move(raw)
    }

    /// The destination of the king for castling, given which side the rook stands: g-file for the h-side,
    /// c-file for the a-side; for other moves, `to`.
    #[inline]
    pub fn king_destination(self) -> Square {
        if self.kind() != MoveKind::Castling {
            return self.to();
        }
        let rank = self.from().rank();
        if self.to() > self.from() { Square::from_file_rank(6, rank) } else { Square::from_file_rank(2, rank) }
    }

    /// UCI long algebraic text: `e2e4`, `e7e8q`; castling as `e1g1`, or as king-takes-rook (`e1h1`) when
    /// `chess960` is true (the UCI_Chess960 convention).
    pub fn to_uci(self, chess960: bool) -> String {
        if self == Move::NULL {
            return "0000".to_string();
        }
        let to = if chess960 { self.to() } else { self.king_destination() };
        match self.promotion_piece() {
            Some(p) => format!("{}{}{}", self.from(), to, p.char()),
            None => format!("{}{}", self.from(), to),
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_uci(true))
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_uci(false))
    }
}

/// The most legal moves any chess position has is 218; 256 leaves room.
pub const MAX_MOVES: usize = 256;

/// A fixed-capacity list of chess moves on the stack ([`crate::game::MoveList`]): no allocation in move
/// generation.
pub type MoveList = crate::game::MoveList<Move, MAX_MOVES>;
