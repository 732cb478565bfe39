//! Attack tables built at compile time with `const fn` loops, and sliding attacks along rays.
//!
//! Sliders use fancy magic bitboards (chessprogramming wiki, "Magic Bitboards"): the relevant blockers of a
//! square (its rays without the board edge) are multiplied by a magic factor, the top bits index that square's
//! slice of one shared table. The tables are filled at compile time from [`slow_rook`]/[`slow_bishop`], the
//! square-by-square ray walk, and a test checks every square and every blocker subset against that walk.
//! The rays kept for `between`/`line` use the same walk.

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

// Magic factors found by `tests::find_magics` (random sparse candidates from xorshift64*, seed
// 0x1234_5678_9ABC_DEF1, first factor without destructive collisions per square); reproducible with
// `cargo test --release find_magics -- --ignored --nocapture`.
const ROOK_MAGICS: [u64; 64] = [
    0x0080008040002018,
    0x0040100040002001,
    0x09000D0010200040,
    0x8080080010008004,
    0xA280080002340080,
    0x2500050024000208,
    0x0280010000800200,
    0x1100144380220100,
    0xA92080048C204002,
    0x0802804003200080,
    0x0108802000100089,
    0x8060800800801002,
    0xA002000822000410,
    0x950A001002000824,
    0x1202000408010200,
    0x02950008408A0100,
    0x40A0A18000814000,
    0x0080848020004011,
    0x0800828010002000,
    0x0500420010200A00,
    0x0008818004000802,
    0x0000808004000200,
    0x0000040001020810,
    0x0081120000442081,
    0x0522400180002090,
    0x2800200040401000,
    0x402004A180100481,
    0x0880420200200810,
    0x000A040080800800,
    0x080A000404001020,
    0x0000010400820810,
    0x4000D08200004C09,
    0x0100804000800020,
    0xCC01028026004200,
    0x0081002001004010,
    0x0000800800801000,
    0x0009800401802800,
    0x0002000902000410,
    0x0000180144001022,
    0x00008100C6002884,
    0x1200800040008024,
    0x2000200050044000,
    0x0090882200420010,
    0x6A1810200A020040,
    0x0480040008008080,
    0x0206001108160014,
    0xC010040200010100,
    0x000001018046000C,
    0x00B0400880042080,
    0x0040002010080220,
    0x0020004228110100,
    0x0150000804004140,
    0x0028008004000980,
    0x0801000804000300,
    0x2C80210208900400,
    0x0000040130408200,
    0x4001409100258001,
    0x0005004002883021,
    0x019041E003001019,
    0x8000200900041001,
    0x4021001002040801,
    0x0011000400080201,
    0x1600010210408804,
    0x2010810084003042,
];
const BISHOP_MAGICS: [u64; 64] = [
    0x0032482800818200,
    0x0819022820450000,
    0x4242108204880008,
    0x8044404080410224,
    0x1407104000080100,
    0x1B01100210004000,
    0x0B0C0888841010C1,
    0x08A0108201104020,
    0x00003888654C0410,
    0x0010220202520A00,
    0x4003048400820001,
    0x1007022082000002,
    0x3C22040420040A18,
    0x3440508820080030,
    0x1204208090082100,
    0x0000930501012000,
    0x0010842002D00100,
    0x0202000404484208,
    0x0008000100410602,
    0x0088000404200800,
    0xA004100202020232,
    0x0004200100A01002,
    0x0201000208020200,
    0x2022010022020200,
    0x80100410100410B0,
    0x3010704848011100,
    0x2000380010048320,
    0x8068080000202120,
    0x0001010080104000,
    0x4808004120806000,
    0x5000821000823008,
    0x0004010000504224,
    0x0088044010040808,
    0x0812022000032814,
    0xA000280800110202,
    0x2882200802010105,
    0x0508082400024100,
    0x8001010200030800,
    0x4001260E00019820,
    0x0C02040308507180,
    0x0880884441009000,
    0x20A84202A0011000,
    0x00010410820C1000,
    0x4000002018000108,
    0x0080091124004A00,
    0x0409010302010700,
    0x0088128802040040,
    0x1801010408801100,
    0x0184010190110800,
    0x0000404208210000,
    0x0000120908880000,
    0x9006180020884020,
    0x900000400488410A,
    0x0410218401020100,
    0x0004D00428008100,
    0x0002021404008400,
    0x0911410150222026,
    0x0300202088041040,
    0x0100A06124122800,
    0x001C042000420200,
    0x0004018208030400,
    0x0044040405080200,
    0x040820200402B680,
    0x0204200411020410,
];

const ROOK_DIRS: [(i8, i8); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// The squares a slider on `sq` reaches along `dirs`, stopping at (and including) the first blocker in `occ`:
/// the slow reference the magic tables are built from.
const fn ray_walk(sq: usize, occ: u64, dirs: &[(i8, i8); 4]) -> u64 {
    let mut out = 0u64;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let mut f = (sq % 8) as i8 + df;
        let mut r = (sq / 8) as i8 + dr;
        while f >= 0 && f < 8 && r >= 0 && r < 8 {
            let s = (r * 8 + f) as u32;
            out |= 1u64 << s;
            if occ >> s & 1 != 0 {
                break;
            }
            f += df;
            r += dr;
        }
        d += 1;
    }
    out
}

/// The relevant blockers of a slider on `sq`: its rays without the last square before the edge.
const fn relevant_mask(sq: usize, dirs: &[(i8, i8); 4]) -> u64 {
    let mut out = 0u64;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let mut f = (sq % 8) as i8 + df;
        let mut r = (sq / 8) as i8 + dr;
        while f + df >= 0 && f + df < 8 && r + dr >= 0 && r + dr < 8 {
            out |= 1u64 << (r * 8 + f);
            f += df;
            r += dr;
        }
        d += 1;
    }
    out
}

/// One square's magic entry: relevant-blocker mask, factor, shift (64 - bits) and offset into the table.
#[derive(Clone, Copy)]
struct Magic {
    mask: u64,
    factor: u64,
    shift: u32,
    offset: u32,
}

const fn build_magic<const N: usize>(dirs: &[(i8, i8); 4], factors: &[u64; 64]) -> ([Magic; 64], [u64; N]) {
    let mut entries = [Magic { mask: 0, factor: 0, shift: 0, offset: 0 }; 64];
    let mut table = [0u64; N];
    let mut offset = 0usize;
    let mut sq = 0;
    while sq < 64 {
        let mask = relevant_mask(sq, dirs);
        let bits = mask.count_ones();
        entries[sq] = Magic { mask, factor: factors[sq], shift: 64 - bits, offset: offset as u32 };
        // Carry-Rippler enumeration of every subset of the mask.
        let mut sub = 0u64;
        loop {
            let idx = (sub.wrapping_mul(factors[sq]) >> (64 - bits)) as usize;
            table[offset + idx] = ray_walk(sq, sub, dirs);
            sub = sub.wrapping_sub(mask) & mask;
            if sub == 0 {
                break;
            }
        }
        offset += 1 << bits;
        sq += 1;
    }
    assert!(offset == N, "magic table size");
    (entries, table)
}

/// Rook table size: the sum over squares of 2^(relevant bits) (chessprogramming wiki: 102,400).
const ROOK_TABLE: usize = 102_400;
/// Bishop table size: 5,248.
const BISHOP_TABLE: usize = 5_248;
static ROOK_MAGIC: ([Magic; 64], [u64; ROOK_TABLE]) = build_magic(&ROOK_DIRS, &ROOK_MAGICS);
static BISHOP_MAGIC: ([Magic; 64], [u64; BISHOP_TABLE]) = build_magic(&BISHOP_DIRS, &BISHOP_MAGICS);

/// The slow reference for [`rook`]: a square-by-square walk along the four rook rays.
pub const fn slow_rook(sq: Square, occ: Bitboard) -> Bitboard {
    Bitboard(ray_walk(sq.index(), occ.0, &ROOK_DIRS))
}

/// The slow reference for [`bishop`]: a square-by-square walk along the four diagonals.
pub const fn slow_bishop(sq: Square, occ: Bitboard) -> Bitboard {
    Bitboard(ray_walk(sq.index(), occ.0, &BISHOP_DIRS))
}
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

/// Squares a rook on `sq` attacks given the occupied squares `occ` (blockers included).
#[inline]
pub fn rook(sq: Square, occ: Bitboard) -> Bitboard {
    let m = &ROOK_MAGIC.0[sq.index()];
    Bitboard(ROOK_MAGIC.1[m.offset as usize + ((occ.0 & m.mask).wrapping_mul(m.factor) >> m.shift) as usize])
}

/// Squares a bishop on `sq` attacks given the occupied squares `occ` (blockers included).
#[inline]
pub fn bishop(sq: Square, occ: Bitboard) -> Bitboard {
    let m = &BISHOP_MAGIC.0[sq.index()];
    Bitboard(BISHOP_MAGIC.1[m.offset as usize + ((occ.0 & m.mask).wrapping_mul(m.factor) >> m.shift) as usize])
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
    fn magics_match_ray_walk_for_every_blocker_subset() {
        for s in Square::all() {
            for (mask, fast, slow) in [
                (
                    relevant_mask(s.index(), &ROOK_DIRS),
                    rook as fn(Square, Bitboard) -> Bitboard,
                    slow_rook as fn(Square, Bitboard) -> Bitboard,
                ),
                (relevant_mask(s.index(), &BISHOP_DIRS), bishop, slow_bishop),
            ] {
                let mut sub = 0u64;
                loop {
                    // Blockers outside the mask (edges) must not matter.
                    for extra in [0, !mask & 0x8100_0000_0000_0081, !mask] {
                        let occ = Bitboard(sub | extra);
                        assert_eq!(fast(s, occ), slow(s, occ), "square {s} occupancy {:#x}", occ.0);
                    }
                    sub = sub.wrapping_sub(mask) & mask;
                    if sub == 0 {
                        break;
                    }
                }
            }
        }
    }

    /// Reproduces the magic factors above (see their comment).
    #[test]
    #[ignore = "prints the magic factors; run with --ignored --nocapture"]
    fn find_magics() {
        let mut state: u64 = 0x1234_5678_9ABC_DEF1;
        let mut rnd = || {
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            state.wrapping_mul(0x2545_F491_4F6C_DD1D)
        };
        for (name, dirs, known) in [("ROOK", &ROOK_DIRS, &ROOK_MAGICS), ("BISHOP", &BISHOP_DIRS, &BISHOP_MAGICS)] {
            for (sq, &expected) in known.iter().enumerate() {
                let mask = relevant_mask(sq, dirs);
                let bits = mask.count_ones();
                let mut subsets = Vec::new();
                let mut sub = 0u64;
                loop {
                    subsets.push((sub, ray_walk(sq, sub, dirs)));
                    sub = sub.wrapping_sub(mask) & mask;
                    if sub == 0 {
                        break;
                    }
                }
                let found = loop {
                    let magic = rnd() & rnd() & rnd();
                    if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
                        continue;
                    }
                    let mut table = vec![None; 1 << bits];
                    let ok = subsets.iter().all(|&(o, a)| {
                        let slot = &mut table[(o.wrapping_mul(magic) >> (64 - bits)) as usize];
                        *slot.get_or_insert(a) == a
                    });
                    if ok {
                        break magic;
                    }
                };
                assert_eq!(found, expected, "{name} square {sq}");
                println!("{name} {sq} {found:#018X}");
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
