//! Attack tables built at compile time with `const fn` loops, and sliding attacks along rays.
//!
//! Sliders use the classical approach (chessprogramming wiki, "Classical Approach"): for each of the eight
//! directions a precomputed ray from every square; the nearest blocker on the ray is found with a forward bit
//! scan (directions that increase the square index) or a reverse bit scan (directions that decrease it), and the
//! ray behind the blocker is removed.

use super::bitboard::Bitboard;
use super::types::{Color, Square};

/// Direction steps as (file delta, rank delta): N, E, NE, NW (increasing index), S, W, SW, SE (decreasing).
const DIRS: [(i8, i8); 8] = [(0, 1), (1, 0), (1, 1), (-1, 1), (0, -1), (-1, 0), (-1, -1), (1, -1)];

const fn step_set(sq: usize, steps: &[(i8, i8)]) -> u64 {
    let f = (sq % 8) as i8;
    let r = (sq / 8) as i8;
    let mut out = 0u64;
    let mut i = 0;
    while i < steps.len() {
        let nf = f + steps[i].0;
        let nr = r + steps[i].1;
        if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
            out |= 1u64 << (nr * 8 + nf);
        }
        i += 1;
    }
    out
}

const KNIGHT_STEPS: [(i8, i8); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
const KING_STEPS: [(i8, i8); 8] = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)];

const fn build_steps(steps: &[(i8, i8)]) -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        t[sq] = step_set(sq, steps);
        sq += 1;
    }
    t
}

const fn build_pawn() -> [[u64; 64]; 2] {
    let mut t = [[0u64; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        t[0][sq] = step_set(sq, &[(-1, 1), (1, 1)]);
        t[1][sq] = step_set(sq, &[(-1, -1), (1, -1)]);
        sq += 1;
    }
    t
}

const fn ray_from(sq: usize, dir: (i8, i8)) -> u64 {
    let mut f = (sq % 8) as i8 + dir.0;
    let mut r = (sq / 8) as i8 + dir.1;
    let mut out = 0u64;
    while f >= 0 && f < 8 && r >= 0 && r < 8 {
        out |= 1u64 << (r * 8 + f);
        f += dir.0;
        r += dir.1;
    }
    out
}

const fn build_rays() -> [[u64; 64]; 8] {
    let mut t = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 64 {
            t[d][sq] = ray_from(sq, DIRS[d]);
            sq += 1;
        }
        d += 1;
    }
    t
}

static KNIGHT: [u64; 64] = build_steps(&KNIGHT_STEPS);
static KING: [u64; 64] = build_steps(&KING_STEPS);
static PAWN: [[u64; 64]; 2] = build_pawn();
static RAYS: [[u64; 64]; 8] = build_rays();

/// For two squares on a common rank, file or diagonal: the squares strictly between them and the full line
/// through both, edge to edge. Zero when they share no line.
const fn build_between_line() -> ([[u64; 64]; 64], [[u64; 64]; 64]) {
    let mut between = [[0u64; 64]; 64];
    let mut line = [[0u64; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut d = 0;
        while d < 8 {
            let ray = RAYS_C[d][a];
            let mut b = 0;
            while b < 64 {
                if ray >> b & 1 != 0 {
                    between[a][b] = ray & !RAYS_C[d][b] & !(1u64 << b);
                    let opp = (d + 4) % 8;
                    line[a][b] = ray | RAYS_C[opp][a] | (1u64 << a);
                }
                b += 1;
            }
            d += 1;
        }
        a += 1;
    }
    (between, line)
}

const RAYS_C: [[u64; 64]; 8] = build_rays();
static BETWEEN_LINE: ([[u64; 64]; 64], [[u64; 64]; 64]) = build_between_line();

/// Squares a knight on `sq` attacks.
#[inline]
pub fn knight(sq: Square) -> Bitboard {
    Bitboard(KNIGHT[sq.index()])
}

/// Squares a king on `sq` attacks.
#[inline]
pub fn king(sq: Square) -> Bitboard {
    Bitboard(KING[sq.index()])
}

/// Squares a pawn of `color` on `sq` attacks (diagonally forward).
#[inline]
pub fn pawn(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN[color.index()][sq.index()])
}

#[inline]
fn slide(dir: usize, sq: usize, occ: u64) -> u64 {
    let ray = RAYS[dir][sq];
    let blockers = ray & occ;
    if blockers == 0 {
        return ray;
    }
    let b = if dir < 4 { blockers.trailing_zeros() } else { 63 - blockers.leading_zeros() };
    ray ^ RAYS[dir][b as usize]
}

/// Squares a rook on `sq` attacks given the occupied squares `occ` (blockers included).
#[inline]
pub fn rook(sq: Square, occ: Bitboard) -> Bitboard {
    let s = sq.index();
    Bitboard(slide(0, s, occ.0) | slide(1, s, occ.0) | slide(4, s, occ.0) | slide(5, s, occ.0))
}

/// Squares a bishop on `sq` attacks given the occupied squares `occ` (blockers included).
#[inline]
pub fn bishop(sq: Square, occ: Bitboard) -> Bitboard {
    let s = sq.index();
    Bitboard(slide(2, s, occ.0) | slide(3, s, occ.0) | slide(6, s, occ.0) | slide(7, s, occ.0))
}

/// Squares a queen on `sq` attacks given the occupied squares `occ`.
#[inline]
pub fn queen(sq: Square, occ: Bitboard) -> Bitboard {
    rook(sq, occ) | bishop(sq, occ)
}

/// Squares strictly between `a` and `b` when they share a rank, file or diagonal; empty otherwise.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN_LINE.0[a.index()][b.index()])
}

/// The whole line (edge to edge) through `a` and `b` when they share a rank, file or diagonal; empty otherwise.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN_LINE.1[a.index()][b.index()])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    /// A square-by-square walk, the slow reference for the sliders.
    fn walk(from: Square, occ: Bitboard, dirs: &[(i8, i8)]) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        for &(df, dr) in dirs {
            let (mut f, mut r) = (from.file() as i8 + df, from.rank() as i8 + dr);
            while (0..8).contains(&f) && (0..8).contains(&r) {
                let s = Square::from_file_rank(f as u8, r as u8);
                out = out.with(s);
                if occ.has(s) {
                    break;
                }
                f += df;
                r += dr;
            }
        }
        out
    }

    #[test]
    fn sliders_match_ray_walk() {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let occ = Bitboard(x & x.rotate_left(17));
            for s in Square::all() {
                assert_eq!(rook(s, occ), walk(s, occ, &DIRS[..2]) | walk(s, occ, &DIRS[4..6]));
                assert_eq!(bishop(s, occ), walk(s, occ, &DIRS[2..4]) | walk(s, occ, &DIRS[6..]));
            }
        }
    }

    #[test]
    fn leapers_and_lines() {
        assert_eq!(knight(sq("a1")).count(), 2);
        assert_eq!(king(sq("e4")).count(), 8);
        assert_eq!(pawn(Color::White, sq("e4")), Bitboard::from_square(sq("d5")).with(sq("f5")));
        assert_eq!(between(sq("a1"), sq("d4")).count(), 2);
        assert_eq!(line(sq("b2"), sq("c3")).count(), 8);
        assert!(between(sq("a1"), sq("b3")).is_empty());
    }
}
