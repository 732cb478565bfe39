//! Colours, rules, the board geometry (dark squares `0..n`, neighbour tables built at compile time) and moves.
//!
//! Squares are the dark squares of a `size` x `size` board, numbered row-major from White's side: row
//! `r = s / (size/2)`, row 0 is White's back row, dark squares left to right within a row, and a1 is dark. On
//! 8x8:
//!
//! ```text
//!  row 7   . 28  . 29  . 30  . 31     b8 d8 f8 h8
//!  row 6  24  . 25  . 26  . 27  .     a7 c7 e7 g7
//!   ...
//!  row 1   .  4  .  5  .  6  .  7     b2 d2 f2 h2
//!  row 0   0  .  1  .  2  .  3  .     a1 c1 e1 g1
//! ```
//!
//! A set of squares is a `u32` mask, bit `s` for square `s`.

/// "No square": the neighbour of an edge square off the board.
pub const NO_SQUARE: u8 = 255;

/// The most landing squares a capture can have: every captured piece stands on an inner square (18 on 8x8) and
/// is captured once (the Turkish strike rule).
pub const MAX_LANDINGS: usize = 18;

/// The direction towards higher rows and files (White's forward right).
pub const NE: usize = 0;
/// Towards higher rows, lower files.
pub const NW: usize = 1;
/// Towards lower rows, higher files.
pub const SE: usize = 2;
/// Towards lower rows and files.
pub const SW: usize = 3;

/// The opposite direction (`NE` <-> `SW`, `NW` <-> `SE`).
#[inline]
pub const fn reverse(dir: usize) -> usize {
    3 - dir
}

/// The colour of a side's pieces: White (men move to higher rows) or Black. Not the move order, which the
/// shared [`crate::game::Color`] names (its `White` moves first): in English checkers Black moves first, so the
/// two differ, and `CheckersGame` maps one to the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceColor {
    /// Starts on rows 0.. and promotes on row `size - 1`.
    White,
    /// Starts on the top rows and promotes on row 0.
    Black,
}

impl PieceColor {
    /// The other side.
    #[inline]
    pub const fn flip(self) -> PieceColor {
        match self {
            PieceColor::White => PieceColor::Black,
            PieceColor::Black => PieceColor::White,
        }
    }

    /// 0 for White, 1 for Black (the index of per-colour arrays).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The two directions a man of this colour moves in (White `NE`, `NW`; Black `SE`, `SW`).
    #[inline]
    pub const fn forward(self) -> [usize; 2] {
        match self {
            PieceColor::White => [NE, NW],
            PieceColor::Black => [SE, SW],
        }
    }
}

/// The rules played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Ruleset {
    /// Russian draughts (shashki; FMJD/Russian Draughts Federation rules): men capture forwards and backwards,
    /// flying kings, a man promoted during a capture continues as a king, free choice among captures, White
    /// moves first. Also the rules of the 4x4 and 6x6 boards.
    Russian,
    /// English checkers (American checkers; the World Checkers/Draughts Federation rules): men capture forwards
    /// only, kings move and jump one square, a capture ends on promotion, Black moves first. 8x8 only.
    English,
}

/// Neighbour tables `[board][square][direction]` for the boards 4x4, 6x6, 8x8 ([`Board::index`]).
static NEIGHBOR: [[[u8; 4]; 32]; 3] = build_neighbors();

const fn build_neighbors() -> [[[u8; 4]; 32]; 3] {
    let mut t = [[[NO_SQUARE; 4]; 32]; 3];
    let mut k = 0;
    while k < 3 {
        let size = 4 + 2 * k as i32;
        let half = size / 2;
        let mut s = 0;
        while s < size * half {
            let r = s / half;
            let c = 2 * (s % half) + (r & 1);
            let mut d = 0;
            while d < 4 {
                let r2 = if d < 2 { r + 1 } else { r - 1 };
                let c2 = if d == NE || d == SE { c + 1 } else { c - 1 };
                if r2 >= 0 && r2 < size && c2 >= 0 && c2 < size {
                    t[k][s as usize][d] = (r2 * half + c2 / 2) as u8;
                }
                d += 1;
            }
            s += 1;
        }
        k += 1;
    }
    t
}

/// One direction's step as two shifts: squares on even rows move by `even_shift`, on odd rows by `odd_shift`
/// (only the sources with a neighbour that way are kept).
#[derive(Clone, Copy)]
struct Step {
    even_src: u32,
    even_shift: i8,
    odd_src: u32,
    odd_shift: i8,
}

static STEPS: [[Step; 4]; 3] = build_steps();

const fn build_steps() -> [[Step; 4]; 3] {
    let empty = Step { even_src: 0, even_shift: 0, odd_src: 0, odd_shift: 0 };
    let mut t = [[empty; 4]; 3];
    let mut k = 0;
    while k < 3 {
        let half = 2 + k;
        let mut d = 0;
        while d < 4 {
            let mut s = 0;
            while s < 2 * half * half {
                let nb = NEIGHBOR[k][s][d];
                if nb != NO_SQUARE {
                    let shift = nb as i8 - s as i8;
                    if (s / half) % 2 == 0 {
                        t[k][d].even_src |= 1 << s;
                        t[k][d].even_shift = shift;
                    } else {
                        t[k][d].odd_src |= 1 << s;
                        t[k][d].odd_shift = shift;
                    }
                }
                s += 1;
            }
            d += 1;
        }
        k += 1;
    }
    t
}

#[inline]
fn shift(mask: u32, by: i8) -> u32 {
    if by >= 0 { mask << by } else { mask >> -by }
}

/// Why pieces, a board size and rules do not form a position ([`Board::new`],
/// [`Position::new`](super::Position::new)).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// A board size other than 4, 6 or 8.
    #[error("board size {size}: expected 4, 6 or 8")]
    Size {
        /// The size asked for.
        size: u8,
    },
    /// English rules off the 8x8 board.
    #[error("English checkers is played on 8x8, not {size}x{size}")]
    EnglishSize {
        /// The size asked for.
        size: u8,
    },
    /// A piece beyond the last dark square.
    #[error("square {square} is beyond the {squares} squares of the board")]
    Beyond {
        /// The square index.
        square: u32,
        /// The dark squares of the board.
        squares: u8,
    },
    /// Two pieces on one square.
    #[error("square {square} holds two pieces")]
    Doubled {
        /// The square's name.
        square: String,
    },
    /// A man on its own promotion row.
    #[error("a {color:?} man on {square}, its own promotion row (it would be a king)")]
    ManOnPromotionRow {
        /// The man's colour.
        color: PieceColor,
        /// The square's name.
        square: String,
    },
}

/// A board size with its geometry: 4, 6 or 8 squares a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    size: u8,
}

impl Board {
    /// The 8x8 board.
    pub const EIGHT: Board = Board { size: 8 };

    /// The board of `size` squares a side.
    ///
    /// # Errors
    /// [`SetupError::Size`] when `size` is not 4, 6 or 8.
    pub fn new(size: u8) -> Result<Board, SetupError> {
        match size {
            4 | 6 | 8 => Ok(Board { size }),
            _ => Err(SetupError::Size { size }),
        }
    }

    /// Squares a side (4, 6 or 8).
    #[inline]
    pub const fn size(self) -> u8 {
        self.size
    }

    /// The index of the board in per-board tables: 0 for 4x4, 1 for 6x6, 2 for 8x8.
    #[inline]
    pub const fn index(self) -> usize {
        (self.size / 2 - 2) as usize
    }

    /// The number of dark squares, `size * size / 2` (8, 18 or 32).
    #[inline]
    pub const fn squares(self) -> u8 {
        self.size * self.size / 2
    }

    /// The mask of every square.
    #[inline]
    pub const fn all(self) -> u32 {
        if self.size == 8 { u32::MAX } else { (1 << self.squares()) - 1 }
    }

    /// The row of square `s` (0 = White's back row).
    #[inline]
    pub const fn row(self, s: u8) -> u8 {
        s / (self.size / 2)
    }

    /// The file (column) of square `s`, 0 = `a`.
    #[inline]
    pub const fn col(self, s: u8) -> u8 {
        let r = self.row(s);
        2 * (s % (self.size / 2)) + (r & 1)
    }

    /// The dark square at `row`, `col`; `None` off the board or on a light square.
    pub fn square_at(self, row: u8, col: u8) -> Option<u8> {
        (row < self.size && col < self.size && (row + col).is_multiple_of(2)).then(|| row * (self.size / 2) + col / 2)
    }

    /// The mask of the squares of `row`.
    #[inline]
    pub const fn row_mask(self, row: u8) -> u32 {
        let half = self.size / 2;
        ((1u32 << half) - 1) << (row * half)
    }

    /// The mask of the row where the men of `color` promote (White: row `size - 1`, Black: row 0).
    #[inline]
    pub const fn promotion_row(self, color: PieceColor) -> u32 {
        match color {
            PieceColor::White => self.row_mask(self.size - 1),
            PieceColor::Black => self.row_mask(0),
        }
    }

    /// The neighbour of `s` in direction `dir` ([`NE`], [`NW`], [`SE`], [`SW`]), or [`NO_SQUARE`].
    #[inline]
    pub fn neighbor(self, s: u8, dir: usize) -> u8 {
        NEIGHBOR[self.index()][s as usize][dir]
    }

    /// Every square of `mask` moved one step in direction `dir` (squares that would leave the board vanish).
    #[inline]
    pub fn step(self, mask: u32, dir: usize) -> u32 {
        let st = &STEPS[self.index()][dir];
        shift(mask & st.even_src, st.even_shift) | shift(mask & st.odd_src, st.odd_shift)
    }

    /// The algebraic name of square `s`: file letter and rank number, `a1`..`h8`.
    pub fn name(self, s: u8) -> String {
        format!("{}{}", (b'a' + self.col(s)) as char, self.row(s) + 1)
    }

    /// The square named `text` in algebraic notation (`c3`); `None` when it is not a dark square of this board.
    pub fn parse_name(self, text: &str) -> Option<u8> {
        let mut chars = text.chars();
        let file = chars.next()?;
        if !file.is_ascii_lowercase() {
            return None;
        }
        let rank: u8 = chars.as_str().parse().ok()?;
        let col = file as u8 - b'a';
        self.square_at(rank.checked_sub(1)?, col)
    }

    /// The English checkers (PDN) number of square `s` on 8x8: 1..4 on Black's back row (b8, d8, f8, h8), 29..32
    /// on White's (a1, c1, e1, g1), left to right as White sees the board; the double corners are 1-5 and
    /// 28-32.
    #[inline]
    pub const fn english_number(s: u8) -> u8 {
        (7 - s / 4) * 4 + s % 4 + 1
    }

    /// The square of English checkers number `n` (1..32); `None` out of range.
    pub fn from_english_number(n: u8) -> Option<u8> {
        (1..=32).contains(&n).then(|| (7 - (n - 1) / 4) * 4 + (n - 1) % 4)
    }
}

/// A move: a step, or a capture along its landing squares.
///
/// Two capture paths with the same start, end and captured pieces (a king going round a square either way)
/// are two moves: Arbiter keeps every capture path (dctl's "keep duplicates" convention, see [`super`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The square the piece leaves.
    pub from: u8,
    /// The square the piece ends on.
    pub to: u8,
    /// The mask of the captured pieces (0 for a step).
    pub captured: u32,
    /// Whether a man becomes a king with this move.
    pub promotes: bool,
    landings: [u8; MAX_LANDINGS],
    len: u8,
}

impl Move {
    /// A step (non-capture) from `from` to `to`.
    pub const fn step(from: u8, to: u8, promotes: bool) -> Move {
        let mut landings = [0; MAX_LANDINGS];
        landings[0] = to;
        Move { from, to, captured: 0, promotes, landings, len: 1 }
    }

    /// A capture from `from` over `captured`, landing on each of `landings` in turn (the last is `to`).
    ///
    /// # Panics
    /// When `landings` is empty or longer than [`MAX_LANDINGS`] (callers build captures from the rules, which
    /// cannot exceed it).
    pub fn capture(from: u8, landings: &[u8], captured: u32, promotes: bool) -> Move {
        assert!(!landings.is_empty() && landings.len() <= MAX_LANDINGS, "a capture has 1 to 18 landing squares");
        let mut l = [0; MAX_LANDINGS];
        l[..landings.len()].copy_from_slice(landings);
        Move { from, to: landings[landings.len() - 1], captured, promotes, landings: l, len: landings.len() as u8 }
    }

    /// The landing squares in order: `[to]` for a step, every square where a capture lands for a capture.
    #[inline]
    pub fn landings(&self) -> &[u8] {
        &self.landings[..self.len as usize]
    }

    /// Whether the move captures.
    #[inline]
    pub const fn is_capture(&self) -> bool {
        self.captured != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometry_of_the_three_boards() {
        let b = Board::EIGHT;
        assert_eq!((b.name(0), b.name(3), b.name(4), b.name(31)), ("a1".into(), "g1".into(), "b2".into(), "h8".into()));
        assert_eq!(b.parse_name("c3"), Some(9));
        assert_eq!(b.parse_name("b3"), None);
        assert_eq!(b.neighbor(0, NE), 4);
        assert_eq!(b.neighbor(0, NW), NO_SQUARE);
        assert_eq!(b.neighbor(7, NE), NO_SQUARE);
        assert_eq!(b.neighbor(4, SW), 0);
        // English numbers: 1 = b8, 4 = h8, 5 = a7, 29 = a1, 32 = g1.
        assert_eq!(Board::from_english_number(1), Some(28));
        assert_eq!(Board::from_english_number(5), Some(24));
        assert_eq!(Board::from_english_number(29), Some(0));
        assert_eq!(Board::from_english_number(32), Some(3));
        for s in 0..32 {
            assert_eq!(Board::from_english_number(Board::english_number(s)), Some(s));
        }
        let small = Board::new(4).unwrap();
        assert_eq!((small.squares(), small.all(), small.name(7)), (8, 0xFF, "d4".into()));
        assert!(Board::new(10).is_err());
    }

    #[test]
    fn steps_equal_the_neighbour_table() {
        for size in [4, 6, 8] {
            let b = Board::new(size).unwrap();
            for s in 0..b.squares() {
                for d in 0..4 {
                    let nb = b.neighbor(s, d);
                    let expected = if nb == NO_SQUARE { 0 } else { 1 << nb };
                    assert_eq!(b.step(1 << s, d), expected, "size {size} square {s} dir {d}");
                    if nb != NO_SQUARE {
                        assert_eq!(b.neighbor(nb, reverse(d)), s);
                    }
                }
            }
        }
    }
}
