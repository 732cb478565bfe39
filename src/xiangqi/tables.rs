//! Move tables built at compile time: the rank and file tables of chariots and cannons, and the step tables
//! of the other pieces.
//!
//! # Line tables
//!
//! The position keeps one occupancy word per line: for each of the 10 ranks a 9-bit word (bit `f` set when
//! file `f` of that rank is occupied) and for each of the 9 files a 10-bit word (bit `r` set when rank `r`
//! of that file is occupied). A chariot or cannon at point `p` of a line whose occupancy word is `occ` looks
//! up [`RANK_MOVES`]`[p][occ]` (on its rank, `p` = its file) and [`FILE_MOVES`]`[p][occ]` (on its file,
//! `p` = its rank). Each entry holds three masks of points of that same line:
//!
//! - `quiet`: the empty points walking away from `p` in both directions up to the first occupied point.
//!   These are the non-captures of the chariot and, identically, of the cannon.
//! - `chariot_captures`: the first occupied point in each direction (at most two bits): the chariot's
//!   capture targets, and the pieces that see `p` along the line.
//! - `cannon_captures`: the second occupied point in each direction, the piece behind the first (the
//!   screen) (at most two bits): the cannon's capture targets, and the cannons that attack `p`.
//!
//! Why this is exact: along one line, a chariot's or a cannon's moves depend on its point and on which
//! points are occupied, nothing else, and the table holds an entry for every point and every occupancy word
//! (2^9 for a rank, 2^10 for a file). Whether bit `p` itself is set does not matter: the walk starts next to
//! `p`. Colours are not in the word, so a capture target holding one's own piece is dropped after the lookup.
//! The unit tests compare every entry with a naive walk over a board. Sizes: 9 x 512 + 10 x 1024 entries of
//! 6 bytes, 88 KiB. This is the scheme of bit-rank/bit-file move generation for Xiangqi (precomputed
//! sliding moves indexed by the occupancy of a rank or file).
//!
//! # Step tables
//!
//! [`Leaps`] lists, per square, each target together with the square that must be empty for the step (the
//! horse's leg, the elephant's eye). The palace is files d..f on ranks 0..2 (Red) and 7..9 (Black); the river
//! lies between ranks 4 and 5.

use super::types::{Color, SQUARES, Square};

/// The moves of a chariot or cannon along one line for one occupancy word: masks over the points of the line
/// (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineMoves {
    /// Empty points reachable without capturing (chariot and cannon alike).
    pub quiet: u16,
    /// The first occupied point in each direction: the chariot's capture targets.
    pub chariot_captures: u16,
    /// The first occupied point behind the first occupied point (the screen) in each direction: the
    /// cannon's capture targets.
    pub cannon_captures: u16,
}

/// The entry of a piece at point `pos` of a line of `len` points with occupancy word `occ`, by walking.
const fn line_entry(pos: usize, occ: usize, len: usize) -> LineMoves {
    let mut quiet = 0u16;
    let mut chariot = 0u16;
    let mut cannon = 0u16;
    let mut dir = 0;
    while dir < 2 {
        let step: i32 = if dir == 0 { 1 } else { -1 };
        let mut i = pos as i32 + step;
        let mut screened = false;
        while i >= 0 && i < len as i32 {
            if occ >> i & 1 == 0 {
                if !screened {
                    quiet |= 1 << i;
                }
            } else if !screened {
                chariot |= 1 << i;
                screened = true;
            } else {
                cannon |= 1 << i;
                break;
            }
            i += step;
        }
        dir += 1;
    }
    LineMoves { quiet, chariot_captures: chariot, cannon_captures: cannon }
}

const fn build_lines<const POINTS: usize, const WORDS: usize>() -> [[LineMoves; WORDS]; POINTS] {
    let mut t = [[LineMoves { quiet: 0, chariot_captures: 0, cannon_captures: 0 }; WORDS]; POINTS];
    let mut p = 0;
    while p < POINTS {
        let mut occ = 0;
        while occ < WORDS {
            t[p][occ] = line_entry(p, occ, POINTS);
            occ += 1;
        }
        p += 1;
    }
    t
}

/// Moves along a rank: `RANK_MOVES[file][rank_word]`, where `rank_word` is the 9-bit occupancy of the rank
/// (bit = file) and the masks are over files (see the module docs).
pub static RANK_MOVES: [[LineMoves; 512]; 9] = build_lines::<9, 512>();

/// Moves along a file: `FILE_MOVES[rank][file_word]`, where `file_word` is the 10-bit occupancy of the file
/// (bit = rank) and the masks are over ranks (see the module docs).
pub static FILE_MOVES: [[LineMoves; 1024]; 10] = build_lines::<10, 1024>();

/// Up to eight steps from one square: `to[i]` is reachable when `via[i]` is empty (for the steps of the
/// general, advisor and soldier, which nothing can block, `via[i]` is `to[i]` and is not read). Squares are
/// indices 0..90.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Leaps {
    /// The number of entries in use.
    pub len: u8,
    /// Target squares.
    pub to: [u8; 8],
    /// The square that must be empty for the step to `to[i]` (leg or eye).
    pub via: [u8; 8],
}

impl Leaps {
    const NONE: Leaps = Leaps { len: 0, to: [0; 8], via: [0; 8] };

    const fn with(mut self, to: i32, via: i32) -> Leaps {
        self.to[self.len as usize] = to as u8;
        self.via[self.len as usize] = via as u8;
        self.len += 1;
        self
    }

    /// The (target, blocking square) pairs.
    pub fn iter(&self) -> impl Iterator<Item = (Square, Square)> + '_ {
        (0..self.len as usize)
            .map(|i| (Square::from_index(self.to[i] as usize), Square::from_index(self.via[i] as usize)))
    }
}

/// The index of (file, rank), or -1 off the board.
const fn at(file: i32, rank: i32) -> i32 {
    if file >= 0 && file < 9 && rank >= 0 && rank < 10 { rank * 9 + file } else { -1 }
}

/// Whether (file, rank) is in the palace of `color` (0 Red, 1 Black).
const fn in_palace(color: usize, file: i32, rank: i32) -> bool {
    file >= 3 && file <= 5 && if color == 0 { rank >= 0 && rank <= 2 } else { rank >= 7 && rank <= 9 }
}

/// Whether `rank` is on `color`'s own side of the river.
const fn own_half(color: usize, rank: i32) -> bool {
    if color == 0 { rank >= 0 && rank <= 4 } else { rank >= 5 && rank <= 9 }
}

/// Whether `square` is in `color`'s palace.
pub const fn in_palace_square(color: Color, square: Square) -> bool {
    in_palace(color as usize, square.file() as i32, square.rank() as i32)
}

/// Whether `square` is on `color`'s side of the river (ranks 0..4 for Red, 5..9 for Black).
pub const fn on_own_half(color: Color, square: Square) -> bool {
    own_half(color as usize, square.rank() as i32)
}

const DIAGONALS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const ORTHOGONALS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

const fn build_horse() -> [Leaps; SQUARES] {
    let mut t = [Leaps::NONE; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let mut d = 0;
        while d < 4 {
            let (a, b) = DIAGONALS[d];
            // The two targets over the orthogonal leg (f + a, r) and (f, r + b).
            let to = at(f + 2 * a, r + b);
            if to >= 0 {
                t[s] = t[s].with(to, at(f + a, r));
            }
            let to = at(f + a, r + 2 * b);
            if to >= 0 {
                t[s] = t[s].with(to, at(f, r + b));
            }
            d += 1;
        }
        s += 1;
    }
    t
}

const fn build_horse_checks() -> [Leaps; SQUARES] {
    let mut t = [Leaps::NONE; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let mut d = 0;
        while d < 4 {
            let (a, b) = DIAGONALS[d];
            let leg = at(f + a, r + b);
            if leg >= 0 {
                let h = at(f + 2 * a, r + b);
                if h >= 0 {
                    t[s] = t[s].with(h, leg);
                }
                let h = at(f + a, r + 2 * b);
                if h >= 0 {
                    t[s] = t[s].with(h, leg);
                }
            }
            d += 1;
        }
        s += 1;
    }
    t
}

const fn build_elephant() -> [[Leaps; SQUARES]; 2] {
    let mut t = [[Leaps::NONE; SQUARES]; 2];
    let mut c = 0;
    while c < 2 {
        let mut s = 0;
        while s < SQUARES {
            let (f, r) = ((s % 9) as i32, (s / 9) as i32);
            let mut d = 0;
            while d < 4 {
                let (a, b) = DIAGONALS[d];
                let to = at(f + 2 * a, r + 2 * b);
                if to >= 0 && own_half(c, r + 2 * b) {
                    t[c][s] = t[c][s].with(to, at(f + a, r + b));
                }
                d += 1;
            }
            s += 1;
        }
        c += 1;
    }
    t
}

/// One-square steps of a general (`kind` 0: orthogonal, inside the palace), an advisor (1: diagonal, inside
/// the palace) or a soldier (2: forward, and sideways once across the river).
const fn build_steps(kind: u8) -> [[Leaps; SQUARES]; 2] {
    let mut t = [[Leaps::NONE; SQUARES]; 2];
    let mut c = 0;
    while c < 2 {
        let mut s = 0;
        while s < SQUARES {
            let (f, r) = ((s % 9) as i32, (s / 9) as i32);
            let mut d = 0;
            while d < 4 {
                let (a, b) = if kind == 1 { DIAGONALS[d] } else { ORTHOGONALS[d] };
                let to = at(f + a, r + b);
                let ok = match kind {
                    // advisor, general: inside the palace (both ends)
                    0 | 1 => in_palace(c, f, r) && in_palace(c, f + a, r + b),
                    // soldier: forward always, sideways once across the river, never backward
                    _ => {
                        let forward = if c == 0 { 1 } else { -1 };
                        (a == 0 && b == forward) || (b == 0 && !own_half(c, r))
                    }
                };
                if to >= 0 && ok {
                    t[c][s] = t[c][s].with(to, to);
                }
                d += 1;
            }
            s += 1;
        }
        c += 1;
    }
    t
}

/// For each square, the squares that attack it through the steps of `steps`: bit `s` of `[c][sq]` is set when
/// `sq` is among `steps[c][s]`'s targets.
const fn attackers(steps: &[[Leaps; SQUARES]; 2]) -> [[u128; SQUARES]; 2] {
    let mut t = [[0u128; SQUARES]; 2];
    let mut c = 0;
    while c < 2 {
        let mut s = 0;
        while s < SQUARES {
            let mut i = 0;
            while i < steps[c][s].len as usize {
                t[c][steps[c][s].to[i] as usize] |= 1u128 << s;
                i += 1;
            }
            s += 1;
        }
        c += 1;
    }
    t
}

/// Horse moves: `HORSE_MOVES[sq]` lists each target with its leg, the orthogonal neighbour of `sq` on the way.
pub static HORSE_MOVES: [Leaps; SQUARES] = build_horse();

/// Horses that would attack a square, seen from it: `HORSE_CHECKS[sq]` lists each square a horse must stand on
/// to reach `sq`, with that horse's leg, which is the diagonal neighbour of `sq` between them.
pub static HORSE_CHECKS: [Leaps; SQUARES] = build_horse_checks();

/// Elephant moves: `ELEPHANT_MOVES[color][sq]` lists each two-step diagonal target on `color`'s side of the
/// river with its eye (the point between).
pub static ELEPHANT_MOVES: [[Leaps; SQUARES]; 2] = build_elephant();

/// General moves: `GENERAL_MOVES[color][sq]`, orthogonal steps inside `color`'s palace.
pub static GENERAL_MOVES: [[Leaps; SQUARES]; 2] = build_steps(0);

/// Advisor moves: `ADVISOR_MOVES[color][sq]`, diagonal steps inside `color`'s palace.
pub static ADVISOR_MOVES: [[Leaps; SQUARES]; 2] = build_steps(1);

/// Soldier moves: `SOLDIER_MOVES[color][sq]`, one step forward, and sideways once across the river.
pub static SOLDIER_MOVES: [[Leaps; SQUARES]; 2] = build_steps(2);

/// `SOLDIER_ATTACKERS[color][sq]`: the squares (bit = index) from which a soldier of `color` attacks `sq`.
pub static SOLDIER_ATTACKERS: [[u128; SQUARES]; 2] = attackers(&SOLDIER_MOVES);

/// `ADVISOR_ATTACKERS[color][sq]`: the squares from which an advisor of `color` attacks `sq`.
pub static ADVISOR_ATTACKERS: [[u128; SQUARES]; 2] = attackers(&ADVISOR_MOVES);

/// `GENERAL_ATTACKERS[color][sq]`: the squares from which the general of `color` attacks `sq` by a step (the
/// flying-general rule is checked along the file, not here).
pub static GENERAL_ATTACKERS: [[u128; SQUARES]; 2] = attackers(&GENERAL_MOVES);

const fn build_general_lines() -> [u128; SQUARES] {
    let mut t = [0u128; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let mut o = 0;
        while o < SQUARES {
            if o % 9 == s % 9 || o / 9 == s / 9 {
                t[s] |= 1u128 << o;
            }
            o += 1;
        }
        s += 1;
    }
    t
}

const fn build_diagonal_neighbours() -> [u128; SQUARES] {
    let mut t = [0u128; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let mut d = 0;
        while d < 4 {
            let (a, b) = DIAGONALS[d];
            let n = at((s % 9) as i32 + a, (s / 9) as i32 + b);
            if n >= 0 {
                t[s] |= 1u128 << n;
            }
            d += 1;
        }
        s += 1;
    }
    t
}

/// `GENERAL_LINES[sq]`: every square on the rank and the file of `sq`, `sq` included (the squares a move must
/// leave or enter to change a line attack on a general standing on `sq`).
pub static GENERAL_LINES: [u128; SQUARES] = build_general_lines();

/// `DIAGONAL_NEIGHBOURS[sq]`: the up to four squares diagonally next to `sq` (the legs of the horses that attack
/// `sq`).
pub static DIAGONAL_NEIGHBOURS: [u128; SQUARES] = build_diagonal_neighbours();

#[cfg(test)]
mod tests {
    use super::*;

    /// The naive walk: for a piece at `pos` on a line of `len` points, step outward and classify each point.
    fn walk(pos: usize, occ: usize, len: usize) -> LineMoves {
        let mut e = LineMoves { quiet: 0, chariot_captures: 0, cannon_captures: 0 };
        for dir in [1i64, -1] {
            let mut seen = 0;
            let mut i = pos as i64 + dir;
            while (0..len as i64).contains(&i) {
                let occupied = occ & 1 << i != 0;
                match (occupied, seen) {
                    (false, 0) => e.quiet |= 1 << i,
                    (true, 0) => e.chariot_captures |= 1 << i,
                    (true, 1) => e.cannon_captures |= 1 << i,
                    _ => {}
                }
                seen += usize::from(occupied);
                i += dir;
            }
        }
        e
    }

    #[test]
    fn line_tables_equal_a_naive_walk_for_every_occupancy() {
        for (pos, entries) in RANK_MOVES.iter().enumerate() {
            for (occ, entry) in entries.iter().enumerate() {
                assert_eq!(*entry, walk(pos, occ, 9), "rank point {pos} occ {occ:09b}");
            }
        }
        for (pos, entries) in FILE_MOVES.iter().enumerate() {
            for (occ, entry) in entries.iter().enumerate() {
                assert_eq!(*entry, walk(pos, occ, 10), "file point {pos} occ {occ:010b}");
            }
        }
    }

    #[test]
    fn line_tables_on_a_board_equal_ray_walks() {
        // Cross-check through the board geometry: for every square and a spread of occupancies of its rank and
        // file, the targets read from the tables equal a ray walk over 90 squares.
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..2000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let occ: u128 = (seed as u128 | (seed.rotate_left(29) as u128) << 64) & ((1u128 << 90) - 1);
            for s in 0..90usize {
                let (f, r) = (s % 9, s / 9);
                let rank_word = (0..9).filter(|&x| occ >> (r * 9 + x) & 1 != 0).fold(0usize, |w, x| w | 1 << x);
                let file_word = (0..10).filter(|&y| occ >> (y * 9 + f) & 1 != 0).fold(0usize, |w, y| w | 1 << y);
                let re = RANK_MOVES[f][rank_word];
                let fe = FILE_MOVES[r][file_word];
                let mut from_tables = [0u128; 3];
                for x in 0..9 {
                    for (k, m) in [re.quiet, re.chariot_captures, re.cannon_captures].into_iter().enumerate() {
                        if m >> x & 1 != 0 {
                            from_tables[k] |= 1 << (r * 9 + x);
                        }
                    }
                }
                for y in 0..10 {
                    for (k, m) in [fe.quiet, fe.chariot_captures, fe.cannon_captures].into_iter().enumerate() {
                        if m >> y & 1 != 0 {
                            from_tables[k] |= 1 << (y * 9 + f);
                        }
                    }
                }
                let mut rays = [0u128; 3];
                for (df, dr) in ORTHOGONALS {
                    let (mut x, mut y) = (f as i32 + df, r as i32 + dr);
                    let mut seen = 0;
                    while let Some(t) = Square::try_new(x, y) {
                        let occupied = occ & t.bit() != 0;
                        let kind = match (occupied, seen) {
                            (false, 0) => Some(0),
                            (true, 0) => Some(1),
                            (true, 1) => Some(2),
                            _ => None,
                        };
                        if let Some(k) = kind {
                            rays[k] |= t.bit();
                        }
                        seen += usize::from(occupied);
                        x += df;
                        y += dr;
                    }
                }
                assert_eq!(from_tables, rays, "square {s} occupancy {occ:#x}");
            }
        }
    }

    fn targets(l: &Leaps) -> Vec<String> {
        let mut v: Vec<String> = l.iter().map(|(t, _)| t.to_string()).collect();
        v.sort();
        v
    }

    fn sq(s: &str) -> usize {
        Square::parse(s).unwrap().index()
    }

    #[test]
    fn step_tables() {
        assert_eq!(targets(&GENERAL_MOVES[0][sq("e1")]), ["d1", "e0", "e2", "f1"]);
        assert_eq!(targets(&GENERAL_MOVES[0][sq("d0")]), ["d1", "e0"]);
        assert_eq!(targets(&GENERAL_MOVES[1][sq("e9")]), ["d9", "e8", "f9"]);
        assert_eq!(targets(&ADVISOR_MOVES[0][sq("e1")]), ["d0", "d2", "f0", "f2"]);
        assert_eq!(targets(&ADVISOR_MOVES[1][sq("d9")]), ["e8"]);
        // Elephants stay on their own side: from c4 Red reaches a2 and e2, not a6 or e6.
        assert_eq!(targets(&ELEPHANT_MOVES[0][sq("c4")]), ["a2", "e2"]);
        assert_eq!(targets(&ELEPHANT_MOVES[1][sq("c5")]), ["a7", "e7"]);
        let eye = ELEPHANT_MOVES[0][sq("c4")].iter().find(|(t, _)| t.to_string() == "e2").unwrap().1;
        assert_eq!(eye.to_string(), "d3");
        // Horse legs: from b0 to c2 over b1, to a2 over b1, to d1 over c0.
        let legs: Vec<(String, String)> =
            HORSE_MOVES[sq("b0")].iter().map(|(t, l)| (t.to_string(), l.to_string())).collect();
        assert_eq!(legs.len(), 3);
        for (t, l) in [("c2", "b1"), ("a2", "b1"), ("d1", "c0")] {
            assert!(legs.contains(&(t.to_string(), l.to_string())), "{legs:?}");
        }
        // Soldiers: forward only before the river, sideways too after it; never backward.
        assert_eq!(targets(&SOLDIER_MOVES[0][sq("c3")]), ["c4"]);
        assert_eq!(targets(&SOLDIER_MOVES[0][sq("c5")]), ["b5", "c6", "d5"]);
        assert_eq!(targets(&SOLDIER_MOVES[0][sq("c9")]), ["b9", "d9"]);
        assert_eq!(targets(&SOLDIER_MOVES[1][sq("c6")]), ["c5"]);
        assert_eq!(targets(&SOLDIER_MOVES[1][sq("c4")]), ["b4", "c3", "d4"]);
    }

    #[test]
    fn horse_checks_invert_horse_moves() {
        for (g, checks) in HORSE_CHECKS.iter().enumerate() {
            let mut seen: Vec<(u8, u8)> = checks.iter().map(|(h, l)| (h.index() as u8, l.index() as u8)).collect();
            let mut expected: Vec<(u8, u8)> = (0..90)
                .flat_map(|h| {
                    HORSE_MOVES[h].iter().filter(|(t, _)| t.index() == g).map(move |(_, l)| (h as u8, l.index() as u8))
                })
                .collect();
            seen.sort();
            expected.sort();
            assert_eq!(seen, expected, "square {g}");
        }
    }
}
