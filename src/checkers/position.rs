//! The position (men and kings masks per colour, side to move, board, rules), copy-make and the Zobrist key.

use super::types::{Board, Move, PieceColor, Ruleset, SetupError};
use crate::game::keys::splitmix64;

/// A checkers position: 20 bytes, `Copy`; moves are played by copy-make ([`Position::apply`]).
///
/// Invariants (checked by [`Position::new`]): no square holds two pieces, every piece is on the board, and no
/// man stands on its own promotion row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    pub(crate) men: [u32; 2],
    pub(crate) kings: [u32; 2],
    pub(crate) side: PieceColor,
    pub(crate) board: Board,
    pub(crate) rules: Ruleset,
}

impl Position {
    /// The position with `men` and `kings` masks (indexed by [`PieceColor::index`]) and `side` to move, on the
    /// `size` x `size` board under `rules`.
    ///
    /// # Errors
    /// [`SetupError`] naming the problem: a size other than 4, 6 or 8; English rules off 8x8; a piece beyond
    /// the last square; two pieces on one square; a man on its own promotion row.
    pub fn new(
        rules: Ruleset,
        size: u8,
        men: [u32; 2],
        kings: [u32; 2],
        side: PieceColor,
    ) -> Result<Position, SetupError> {
        let board = Board::new(size)?;
        if rules == Ruleset::English && size != 8 {
            return Err(SetupError::EnglishSize { size });
        }
        let all = [men[0], men[1], kings[0], kings[1]];
        let outside = all.iter().fold(0, |acc, m| acc | m) & !board.all();
        if outside != 0 {
            return Err(SetupError::Beyond { square: outside.trailing_zeros(), squares: board.squares() });
        }
        for i in 0..4 {
            for j in i + 1..4 {
                let both = all[i] & all[j];
                if both != 0 {
                    return Err(SetupError::Doubled { square: board.name(both.trailing_zeros() as u8) });
                }
            }
        }
        for color in [PieceColor::White, PieceColor::Black] {
            let wrong = men[color.index()] & board.promotion_row(color);
            if wrong != 0 {
                return Err(SetupError::ManOnPromotionRow { color, square: board.name(wrong.trailing_zeros() as u8) });
            }
        }
        Ok(Position { men, kings, side, board, rules })
    }

    /// The start position: each side's men on its first 3 rows (8x8), 2 rows (6x6) or 1 row (4x4); White moves
    /// first under Russian rules, Black under English rules.
    ///
    /// # Errors
    /// As [`Position::new`]: a bad size, or English rules off 8x8.
    pub fn start(rules: Ruleset, size: u8) -> Result<Position, SetupError> {
        let board = Board::new(size)?;
        let rows = (size as u32 - 2) / 2;
        let half = size as u32 / 2;
        let white = (1u32 << (rows * half)) - 1;
        let black = white << ((size as u32 - rows) * half);
        let side = if rules == Ruleset::English { PieceColor::Black } else { PieceColor::White };
        Position::new(rules, board.size(), [white, black], [0, 0], side)
    }

    /// The men of `color`.
    #[inline]
    pub fn men(&self, color: PieceColor) -> u32 {
        self.men[color.index()]
    }

    /// The kings of `color`.
    #[inline]
    pub fn kings(&self, color: PieceColor) -> u32 {
        self.kings[color.index()]
    }

    /// The pieces (men and kings) of `color`.
    #[inline]
    pub fn pieces(&self, color: PieceColor) -> u32 {
        self.men[color.index()] | self.kings[color.index()]
    }

    /// The mask of the empty squares.
    #[inline]
    pub fn empty(&self) -> u32 {
        !(self.pieces(PieceColor::White) | self.pieces(PieceColor::Black)) & self.board.all()
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> PieceColor {
        self.side
    }

    /// Squares a side: 4, 6 or 8.
    #[inline]
    pub fn size(&self) -> u8 {
        self.board.size()
    }

    /// The board geometry.
    #[inline]
    pub fn board(&self) -> Board {
        self.board
    }

    /// The rules.
    #[inline]
    pub fn rules(&self) -> Ruleset {
        self.rules
    }

    /// The Zobrist key: an xor of a random 64-bit number per (colour, man or king, square), one for Black to
    /// move, one per board size and one for English rules; equal positions have equal keys. Computed from
    /// scratch (the position is small), so it cannot drift.
    pub fn key(&self) -> u64 {
        let mut key =
            ZOBRIST_BOARD[self.board.index()] ^ if self.rules == Ruleset::English { ZOBRIST_ENGLISH } else { 0 };
        if self.side == PieceColor::Black {
            key ^= ZOBRIST_BLACK;
        }
        for (i, mask) in [self.men[0], self.kings[0], self.men[1], self.kings[1]].into_iter().enumerate() {
            let mut m = mask;
            while m != 0 {
                key ^= ZOBRIST[i][m.trailing_zeros() as usize];
                m &= m - 1;
            }
        }
        key
    }

    /// The position after move `m` (copy-make), with the other side to move. The captured pieces are removed
    /// and a promoted man becomes a king.
    ///
    /// `m` must be a legal move of this position (from [`Position::legal_moves`] or
    /// [`Position::parse_move`]); otherwise the result is unspecified (but no panic).
    #[inline]
    pub fn apply(&self, m: &Move) -> Position {
        let us = self.side.index();
        let them = us ^ 1;
        let (from, to) = (1u32 << m.from, 1u32 << m.to);
        let mut p = *self;
        let was_king = p.kings[us] & from != 0;
        p.men[us] &= !from;
        p.kings[us] &= !from;
        if was_king || m.promotes {
            p.kings[us] |= to;
        } else {
            p.men[us] |= to;
        }
        p.men[them] &= !m.captured;
        p.kings[them] &= !m.captured;
        p.side = self.side.flip();
        p
    }

    /// Plays `m` in place and returns the position before it (the undo for [`Position::unmake_move`]); the hot
    /// path of the perft driver. `m` must be legal here, as for [`Position::apply`].
    #[inline]
    pub fn make_move(&mut self, m: &Move) -> Position {
        let before = *self;
        *self = self.apply(m);
        before
    }

    /// Takes back a move made by [`Position::make_move`], restoring `before`.
    #[inline]
    pub fn unmake_move(&mut self, before: &Position) {
        *self = *before;
    }
}

/// Arbiter's seed for the checkers Zobrist numbers ([`splitmix64`] outputs) (arbitrary; "checkers" in ASCII).
const ZOBRIST_SEED: u64 = 0x636865636b657273;

const fn zobrist_numbers() -> ([[u64; 32]; 4], u64, u64, [u64; 3]) {
    let mut table = [[0; 32]; 4];
    let mut state = ZOBRIST_SEED;
    let mut i = 0;
    while i < 4 {
        let mut s = 0;
        while s < 32 {
            let (next, z) = splitmix64(state);
            state = next;
            table[i][s] = z;
            s += 1;
        }
        i += 1;
    }
    let (state, black) = splitmix64(state);
    let (state, english) = splitmix64(state);
    let (state, b4) = splitmix64(state);
    let (state, b6) = splitmix64(state);
    let (_, b8) = splitmix64(state);
    (table, black, english, [b4, b6, b8])
}

const NUMBERS: ([[u64; 32]; 4], u64, u64, [u64; 3]) = zobrist_numbers();
/// `[white men, white kings, black men, black kings][square]`.
static ZOBRIST: [[u64; 32]; 4] = NUMBERS.0;
const ZOBRIST_BLACK: u64 = NUMBERS.1;
const ZOBRIST_ENGLISH: u64 = NUMBERS.2;
const ZOBRIST_BOARD: [u64; 3] = NUMBERS.3;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_rejects_bad_pieces() {
        assert!(Position::new(Ruleset::Russian, 8, [1, 1 << 20], [0, 0], PieceColor::White).is_ok());
        let overlap = Position::new(Ruleset::Russian, 8, [1, 1], [0, 0], PieceColor::White).unwrap_err();
        assert_eq!(overlap.to_string(), "square a1 holds two pieces");
        let outside = Position::new(Ruleset::Russian, 4, [1 << 8, 0], [0, 0], PieceColor::White).unwrap_err();
        assert_eq!(outside.to_string(), "square 8 is beyond the 8 squares of the board");
        let promo = Position::new(Ruleset::Russian, 8, [1 << 28, 0], [0, 0], PieceColor::White).unwrap_err();
        assert_eq!(promo.to_string(), "a White man on b8, its own promotion row (it would be a king)");
        assert!(Position::new(Ruleset::Russian, 8, [0, 1], [0, 0], PieceColor::White).is_err());
        assert!(Position::new(Ruleset::English, 6, [0, 0], [0, 0], PieceColor::White).is_err());
        assert!(Position::new(Ruleset::Russian, 5, [0, 0], [0, 0], PieceColor::White).is_err());
    }

    #[test]
    fn start_positions() {
        let p = Position::start(Ruleset::Russian, 8).unwrap();
        assert_eq!(
            (p.men(PieceColor::White), p.men(PieceColor::Black), p.side_to_move()),
            (0xFFF, 0xFFF0_0000, PieceColor::White)
        );
        assert_eq!(Position::start(Ruleset::English, 8).unwrap().side_to_move(), PieceColor::Black);
        let p6 = Position::start(Ruleset::Russian, 6).unwrap();
        assert_eq!((p6.men(PieceColor::White), p6.men(PieceColor::Black)), (0b111_111, 0b111_111 << 12));
        let p4 = Position::start(Ruleset::Russian, 4).unwrap();
        assert_eq!((p4.men(PieceColor::White), p4.men(PieceColor::Black)), (0b11, 0b11 << 6));
    }

    #[test]
    fn keys_tell_side_board_and_rules_apart() {
        let r = Position::start(Ruleset::Russian, 8).unwrap();
        let e = Position { rules: Ruleset::English, ..r };
        let b = Position { side: PieceColor::Black, ..r };
        assert_ne!(r.key(), e.key());
        assert_ne!(r.key(), b.key());
        assert_ne!(e.key(), Position::start(Ruleset::English, 8).unwrap().key());
        assert_eq!(r.key(), Position::start(Ruleset::Russian, 8).unwrap().key());
    }
}
