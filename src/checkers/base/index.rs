//! Material signatures and the perfect index of their positions.
//!
//! A signature fixes how many men and kings each side has. Its positions are numbered `0..count` with no gap
//! and no collision (a perfect index), so that a base is a dense array of values:
//!
//! ```text
//! index = ((side * men_placements) + men_rank) * king_placements + king_rank
//! ```
//!
//! - `side` is 0 with White to move, 1 with Black to move.
//! - The men: the white men are a subset of the squares off White's promotion row (`A_w`, ranked by the
//!   combinatorial number system: the colex rank `sum C(p_i, i + 1)` of their positions `p_0 < p_1 < ...` in
//!   `A_w`); the black men are a subset of the squares off Black's promotion row that the white men leave free
//!   (`A_b \ WM`, ranked the same way in that list). Their count depends on how many white men stand on Black's
//!   promotion row (row 0, outside `A_b`), so `men_rank = offset[rank(WM)] + rank(BM)`, with `offset` the
//!   running sum of `C(|A_b \ WM'|, bm)` over the white-men sets `WM'` of lower rank (a table of
//!   `C(|A_w|, wm)` entries per signature).
//! - The kings: the white kings in the squares the men leave free, then the black kings in the squares left
//!   after that, each ranked in its list: `king_placements = C(n - men, wk) * C(n - men - wk, bk)`, the same
//!   for every placement of the men.
//!
//! Source: the combinatorial number system (D. H. Lehmer; Knuth, TAOCP 4A, 7.2.1.3); the scheme of ranking
//! each piece group among the squares the earlier groups leave is the usual one of endgame databases (for
//! checkers: J. Schaeffer et al., "Solving Checkers", IJCAI 2005, and the Chinook databases).

use super::super::{PieceColor, Position, Ruleset};
use std::fmt;

/// `C(n, k)`, the binomial coefficient (0 when `k > n`).
///
/// # Panics
/// On overflow of `u64` (not reached for boards of at most 32 squares).
pub fn binomial(n: u32, k: u32) -> u64 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    (0..k).fold(1u64, |acc, i| acc * u64::from(n - i) / u64::from(i + 1))
}

/// The colex rank of the squares of `set` among the squares of `universe` (both bit masks; `set` must lie in
/// `universe`): `sum C(p_i, i + 1)` over the positions `p_0 < p_1 < ...` of the set's squares in the universe.
pub fn rank(set: u32, universe: u32) -> u64 {
    let mut r = 0;
    let mut i = 0;
    let mut rest = set;
    while rest != 0 {
        let sq = rest.trailing_zeros();
        rest &= rest - 1;
        let position = (universe & ((1u32 << sq) - 1)).count_ones();
        i += 1;
        r += binomial(position, i);
    }
    r
}

/// The set of `k` squares of `universe` whose [`rank`] is `r` (`r < C(|universe|, k)`).
pub fn unrank(mut r: u64, k: u32, universe: u32) -> u32 {
    let squares: Vec<u32> = (0..32).filter(|&s| universe & (1 << s) != 0).collect();
    let mut set = 0u32;
    let mut top = squares.len() as u32;
    for i in (1..=k).rev() {
        // The largest position p < top with C(p, i) <= r.
        let mut p = top - 1;
        while binomial(p, i) > r {
            p -= 1;
        }
        r -= binomial(p, i);
        set |= 1 << squares[p as usize];
        top = p;
    }
    set
}

/// A material signature: men and kings of each side, indexed by [`PieceColor::index`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Signature {
    /// Men per side: `[white, black]`.
    pub men: [u8; 2],
    /// Kings per side: `[white, black]`.
    pub kings: [u8; 2],
}

impl Signature {
    /// The signature of `pos`.
    pub fn of(pos: &Position) -> Signature {
        let count = |m: u32| m.count_ones() as u8;
        Signature {
            men: [count(pos.men(PieceColor::White)), count(pos.men(PieceColor::Black))],
            kings: [count(pos.kings(PieceColor::White)), count(pos.kings(PieceColor::Black))],
        }
    }

    /// Pieces of `color`.
    pub fn pieces(self, color: PieceColor) -> u8 {
        self.men[color.index()] + self.kings[color.index()]
    }

    /// Pieces on the board.
    pub fn total(self) -> u8 {
        self.pieces(PieceColor::White) + self.pieces(PieceColor::Black)
    }

    /// The file name of its base: `3x2-2m1k-1m1k` for 3 white pieces (2 men, 1 king) against 2 black (1 man,
    /// 1 king).
    pub fn name(self) -> String {
        format!(
            "{}x{}-{}m{}k-{}m{}k",
            self.pieces(PieceColor::White),
            self.pieces(PieceColor::Black),
            self.men[0],
            self.kings[0],
            self.men[1],
            self.kings[1]
        )
    }

    /// Every signature with 1 to `max_per_side` pieces a side... with both sides on the board, at most
    /// `max_total` pieces in all, men that fit off their promotion rows, and all pieces on the `n` squares of a
    /// board of `size` files; in the order the bases are built: by total pieces, then by men (a promotion turns
    /// a man into a king, a capture removes a piece: both lead to signatures earlier in this order).
    pub fn all(size: u8, max_total: u8) -> Vec<Signature> {
        let n = u32::from(size) * u32::from(size) / 2;
        let off_row = n - u32::from(size) / 2;
        let mut out = Vec::new();
        for total in 2..=max_total {
            for wm in 0..=total {
                for wk in 0..=total - wm {
                    for bm in 0..=total - wm - wk {
                        let bk = total - wm - wk - bm;
                        let sig = Signature { men: [wm, bm], kings: [wk, bk] };
                        let fits = u32::from(wm) <= off_row
                            && u32::from(bm) <= off_row
                            && u32::from(total) <= n
                            && u32::from(wm + bm) <= n;
                        if sig.pieces(PieceColor::White) > 0 && sig.pieces(PieceColor::Black) > 0 && fits {
                            out.push(sig);
                        }
                    }
                }
            }
        }
        out.sort_by_key(|s| (s.total(), s.men[0] + s.men[1], *s));
        out
    }
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// The perfect index of one signature on one board (see the module docs).
#[derive(Clone, Debug)]
pub struct Indexer {
    /// The signature.
    pub signature: Signature,
    /// The rules (for [`Indexer::position`]).
    pub rules: Ruleset,
    /// Files of the board (4, 6 or 8).
    pub size: u8,
    /// All dark squares.
    all: u32,
    /// Squares a white man may stand on (off row `size - 1`).
    white_men_squares: u32,
    /// Squares a black man may stand on (off row 0).
    black_men_squares: u32,
    /// `offset[r]`: the men ranks before the white-men set of rank `r`; one more entry holds the total.
    offset: Vec<u64>,
    /// `C(n - men, wk) * C(n - men - wk, bk)`.
    king_placements: u64,
}

impl Indexer {
    /// The index of `signature` on a board of `size` files under `rules`.
    pub fn new(rules: Ruleset, size: u8, signature: Signature) -> Indexer {
        let n = u32::from(size) * u32::from(size) / 2;
        let row = u32::from(size) / 2;
        let all = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
        let first_row = (1u32 << row) - 1;
        let last_row = first_row << (n - row);
        let (white_men_squares, black_men_squares) = (all & !last_row, all & !first_row);
        let [wm, bm] = signature.men.map(u32::from);
        let [wk, bk] = signature.kings.map(u32::from);
        let white_sets = binomial(white_men_squares.count_ones(), wm);
        let mut offset = Vec::with_capacity(white_sets as usize + 1);
        let mut sum = 0;
        for r in 0..white_sets {
            offset.push(sum);
            let white = unrank(r, wm, white_men_squares);
            sum += binomial((black_men_squares & !white).count_ones(), bm);
        }
        offset.push(sum);
        let free = n - wm - bm;
        let king_placements = binomial(free, wk) * binomial(free - wk, bk);
        Indexer { signature, rules, size, all, white_men_squares, black_men_squares, offset, king_placements }
    }

    /// How many positions the signature has (both sides to move).
    pub fn count(&self) -> u64 {
        2 * self.men_placements() * self.king_placements
    }

    fn men_placements(&self) -> u64 {
        *self.offset.last().expect("the table ends with the total")
    }

    /// The index of `pos`, which must have this signature.
    ///
    /// # Panics
    /// If `pos` has another signature (a caller's bug).
    pub fn index(&self, pos: &Position) -> u64 {
        assert_eq!(Signature::of(pos), self.signature, "index: a position of another signature");
        let (wm, bm) = (pos.men(PieceColor::White), pos.men(PieceColor::Black));
        let (wk, bk) = (pos.kings(PieceColor::White), pos.kings(PieceColor::Black));
        let men = self.offset[rank(wm, self.white_men_squares) as usize] + rank(bm, self.black_men_squares & !wm);
        let free = self.all & !wm & !bm;
        let free_k = binomial((free & !wk).count_ones(), self.signature.kings[1].into());
        let kings = rank(wk, free) * free_k + rank(bk, free & !wk);
        let side = u64::from(pos.side_to_move() == PieceColor::Black);
        (side * self.men_placements() + men) * self.king_placements + kings
    }

    /// The position of index `i` (`i < count()`).
    ///
    /// # Panics
    /// If `i` is out of range.
    pub fn position(&self, i: u64) -> Position {
        assert!(i < self.count(), "index {i} out of range 0..{}", self.count());
        let (rest, kings) = (i / self.king_placements, i % self.king_placements);
        let (side, men) = (rest / self.men_placements(), rest % self.men_placements());
        // The white-men set: the last offset not above `men`.
        let r = self.offset.partition_point(|&o| o <= men) - 1;
        let [wm_n, bm_n] = self.signature.men.map(u32::from);
        let [wk_n, bk_n] = self.signature.kings.map(u32::from);
        let wm = unrank(r as u64, wm_n, self.white_men_squares);
        let bm = unrank(men - self.offset[r], bm_n, self.black_men_squares & !wm);
        let free = self.all & !wm & !bm;
        let free_k = binomial(free.count_ones() - wk_n, bk_n);
        let wk = unrank(kings / free_k, wk_n, free);
        let bk = unrank(kings % free_k, bk_n, free & !wk);
        let side = if side == 0 { PieceColor::White } else { PieceColor::Black };
        Position::new(self.rules, self.size, [wm, bm], [wk, bk], side).expect("an index names a valid placement")
    }
}
