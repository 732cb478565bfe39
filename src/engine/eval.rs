//! The evaluation: a dot product of [`Weights`] and integer [`Features`] counted from the board.
//!
//! Every feature is a count for White minus the same count for Black, so the dot product is White's score;
//! [`evaluate`] turns it to the side to move's view. Features never depend on weights (mop-up uses a fixed
//! 1/3/3/5/9 material count to pick the winning side), so a tuner can compute them once per position.

use super::weights::{NUM_WEIGHTS, Weights};
use crate::chess::{Bitboard, Color, PieceType, Position, Square, attacks};

/// The feature counts of a position, White minus Black, field by field matching [`Weights`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Features {
    /// Pieces of each kind: pawn, knight, bishop, rook, queen.
    pub material: [i32; 5],
    /// Pseudo-legal target squares (attacked, not occupied by an own piece) of knights, bishops, rooks, queens.
    pub mobility: [i32; 4],
    /// Pawns beyond the first on each file, summed over files.
    pub doubled_pawn: i32,
    /// Pawns defended by an own pawn.
    pub connected_pawn: i32,
    /// Pawns on each relative rank (index 0 = the own first rank).
    pub pawn_advance: [i32; 8],
    /// Passed pawns (no enemy pawn ahead on the same or an adjacent file) on each relative rank.
    pub passed_pawn: [i32; 8],
    /// Castling rights no longer held by a side that has not castled (0 to 2 per side).
    pub castling_lost: i32,
    /// Own pawns in front of a castled king (king's file and adjacent files, one or two ranks ahead).
    pub pawn_shield: i32,
    /// 1 for a side with two or more bishops.
    pub bishop_pair: i32,
    /// With 8 or fewer pieces on the board and unequal material: 14 - Manhattan distance between the kings,
    /// positive when White is ahead, negative when Black is.
    pub mopup_proximity: i32,
    /// With 8 or fewer pieces on the board and unequal material: the losing king's Manhattan distance to the
    /// nearest centre square (d4, e4, d5, e5), positive when White is ahead, negative when Black is.
    pub mopup_centre: i32,
}

impl Features {
    /// The features as one flat vector in the order of [`Weights::to_vec`].
    pub fn to_vec(&self) -> [i32; NUM_WEIGHTS] {
        let mut v = [0; NUM_WEIGHTS];
        let mut i = 0;
        let mut put = |xs: &[i32]| {
            v[i..i + xs.len()].copy_from_slice(xs);
            i += xs.len();
        };
        put(&self.material);
        put(&self.mobility);
        put(&[self.doubled_pawn, self.connected_pawn]);
        put(&self.pawn_advance);
        put(&self.passed_pawn);
        put(&[self.castling_lost, self.pawn_shield, self.bishop_pair, self.mopup_proximity, self.mopup_centre]);
        v
    }
}

/// The dot product of a weight vector and a feature vector, in centipawns, accumulated in 64 bits and
/// saturated to the `i32` range (so extreme weights cannot overflow).
pub fn dot(weights: &[i32; NUM_WEIGHTS], features: &[i32; NUM_WEIGHTS]) -> i32 {
    let sum: i64 = weights.iter().zip(features).map(|(&w, &f)| i64::from(w) * i64::from(f)).sum();
    sum.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
}

/// The static evaluation in centipawns from the side to move's view: `dot(weights, features(pos))` for White
/// to move, its negation for Black.
pub fn evaluate(pos: &Position, weights: &Weights) -> i32 {
    let white = dot(&weights.to_vec(), &features(pos).to_vec());
    match pos.side_to_move() {
        Color::White => white,
        Color::Black => white.saturating_neg(),
    }
}

/// Counts every feature of `pos`, White minus Black.
pub fn features(pos: &Position) -> Features {
    let mut f = Features::default();
    let occ = pos.occupied();
    for color in Color::ALL {
        let sign = if color == Color::White { 1 } else { -1 };
        let ours = pos.color_bb(color);
        let pawns = pos.pieces_of(color, PieceType::Pawn);
        let their_pawns = pos.pieces_of(color.flip(), PieceType::Pawn);

        for (i, kind) in PieceType::ALL[..5].iter().enumerate() {
            f.material[i] += sign * pos.pieces_of(color, *kind).count() as i32;
        }

        let mut mobility = [0i32; 4];
        for sq in pos.pieces_of(color, PieceType::Knight) {
            mobility[0] += (attacks::knight(sq) & !ours).count() as i32;
        }
        for sq in pos.pieces_of(color, PieceType::Bishop) {
            mobility[1] += (attacks::bishop(sq, occ) & !ours).count() as i32;
        }
        for sq in pos.pieces_of(color, PieceType::Rook) {
            mobility[2] += (attacks::rook(sq, occ) & !ours).count() as i32;
        }
        for sq in pos.pieces_of(color, PieceType::Queen) {
            mobility[3] += (attacks::queen(sq, occ) & !ours).count() as i32;
        }
        for (total, m) in f.mobility.iter_mut().zip(mobility) {
            *total += sign * m;
        }

        let mut doubled = 0;
        for file in 0..8 {
            doubled += ((pawns & Bitboard::file(file)).count() as i32 - 1).max(0);
        }
        f.doubled_pawn += sign * doubled;
        f.connected_pawn += sign * (pawns & pawn_attacks(color, pawns)).count() as i32;

        for sq in pawns {
            let rank = sq.relative_rank(color) as usize;
            f.pawn_advance[rank] += sign;
            if (Bitboard(PASSED_SPAN[color.index()][sq.index()]) & their_pawns).is_empty() {
                f.passed_pawn[rank] += sign;
            }
        }

        let king = pos.king_square(color);
        if has_castled(color, king) {
            f.pawn_shield += sign * (Bitboard(SHIELD[color.index()][king.index()]) & pawns).count() as i32;
        } else {
            let held = [true, false]
                .iter()
                .filter(|&&king_side| {
                    pos.castling_rights() & crate::chess::position::castling_bit(color, king_side) != 0
                })
                .count() as i32;
            f.castling_lost += sign * (2 - held);
        }

        if pos.pieces_of(color, PieceType::Bishop).more_than_one() {
            f.bishop_pair += sign;
        }
    }

    if occ.count() <= 8 {
        let count = |c: Color| -> i32 {
            [1, 3, 3, 5, 9].iter().zip(&PieceType::ALL[..5]).map(|(v, &k)| v * pos.pieces_of(c, k).count() as i32).sum()
        };
        let balance = count(Color::White) - count(Color::Black);
        if balance != 0 {
            let (sign, loser) = if balance > 0 { (1, Color::Black) } else { (-1, Color::White) };
            let (wk, bk) = (pos.king_square(Color::White), pos.king_square(Color::Black));
            f.mopup_proximity = sign * (14 - manhattan(wk, bk));
            f.mopup_centre = sign * centre_distance(pos.king_square(loser));
        }
    }
    f
}

/// True when `color`'s king on `king` counts as castled: on its back rank on the a, b, c, g or h file.
fn has_castled(color: Color, king: Square) -> bool {
    king.relative_rank(color) == 0 && matches!(king.file(), 0 | 1 | 2 | 6 | 7)
}

/// All squares attacked by `color`'s pawns on `pawns`.
fn pawn_attacks(color: Color, pawns: Bitboard) -> Bitboard {
    let west = pawns.0 & !Bitboard::FILE_A.0;
    let east = pawns.0 & !Bitboard::FILE_H.0;
    match color {
        Color::White => Bitboard((west << 7) | (east << 9)),
        Color::Black => Bitboard((west >> 9) | (east >> 7)),
    }
}

/// Manhattan distance between two squares (files plus ranks).
fn manhattan(a: Square, b: Square) -> i32 {
    (a.file() as i32 - b.file() as i32).abs() + (a.rank() as i32 - b.rank() as i32).abs()
}

/// Manhattan distance from `sq` to the nearest of d4, e4, d5, e5.
fn centre_distance(sq: Square) -> i32 {
    let d = |x: u8| (3 - x as i32).max(x as i32 - 4).max(0);
    d(sq.file()) + d(sq.rank())
}

/// For each colour and square: the squares ahead of a pawn there on its own and the adjacent files (no enemy
/// pawn there = passed).
static PASSED_SPAN: [[u64; 64]; 2] = build_spans(false);
/// For each colour and square: the pawn-shield squares of a king there (own and adjacent files, one or two
/// ranks ahead).
static SHIELD: [[u64; 64]; 2] = build_spans(true);

/// Builds the passed-pawn spans, or with `shield` the two ranks ahead only.
const fn build_spans(shield: bool) -> [[u64; 64]; 2] {
    let mut out = [[0u64; 64]; 2];
    let mut color = 0;
    while color < 2 {
        let mut sq = 0;
        while sq < 64 {
            let (file, rank) = ((sq % 8) as i32, (sq / 8) as i32);
            let mut mask = 0u64;
            let mut step = 1;
            while step < 8 && !(shield && step > 2) {
                let r = if color == 0 { rank + step } else { rank - step };
                if r >= 0 && r < 8 {
                    let mut f = file - 1;
                    while f <= file + 1 {
                        if f >= 0 && f < 8 {
                            mask |= 1u64 << (r * 8 + f);
                        }
                        f += 1;
                    }
                }
                step += 1;
            }
            out[color][sq] = mask;
            sq += 1;
        }
        color += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fen(text: &str) -> Position {
        Position::from_fen(text).unwrap()
    }

    #[test]
    fn start_position_is_balanced() {
        let pos = Position::startpos();
        let f = features(&pos);
        assert_eq!(f, Features::default());
        assert_eq!(evaluate(&pos, &Weights::seed()), 0);
    }

    #[test]
    fn pawn_structure_counts() {
        // White: doubled c-pawns (c2, c3), b2 defends c3, passed pawn on e5 (relative rank index 4).
        let pos = fen("4k3/8/8/4P3/8/2P5/1PP5/4K3 w - - 0 1");
        let f = features(&pos);
        assert_eq!(f.material[0], 4);
        assert_eq!(f.doubled_pawn, 1);
        assert_eq!(f.connected_pawn, 1);
        assert_eq!(f.pawn_advance, [0, 2, 1, 0, 1, 0, 0, 0]);
        assert_eq!(f.passed_pawn, [0, 2, 1, 0, 1, 0, 0, 0]);
        // Neither king has castled and neither side holds a right: 2 - 2.
        assert_eq!(f.castling_lost, 0);
    }

    #[test]
    fn castling_shield_and_lost_rights() {
        // White castled short (king g1, pawns f2 g2 h3 = 3 shield pawns); Black king e8 without rights.
        let pos = fen("4k3/pppppppp/8/8/8/7P/PPPPPPP1/5RK1 w - - 0 1");
        let f = features(&pos);
        assert_eq!(f.pawn_shield, 3);
        assert_eq!(f.castling_lost, -2);
    }

    #[test]
    fn mop_up_signs() {
        // K+R v K: White ahead; kings e1/e8 are 7 apart; the Black king on e8 is 3 from e5.
        let pos = fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        let f = features(&pos);
        assert_eq!(f.mopup_proximity, 7);
        assert_eq!(f.mopup_centre, 3);
        let pos = fen("4k3/8/8/8/8/8/8/r3K3 w - - 0 1");
        let f = features(&pos);
        assert_eq!(f.mopup_proximity, -7);
        assert_eq!(f.mopup_centre, -3);
        // Black to move sees the mirror score.
        let w = Weights::seed();
        let a = evaluate(&fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"), &w);
        let b = evaluate(&fen("r3k3/8/8/8/8/8/8/4K3 b - - 0 1"), &w);
        assert_eq!(a, b);
    }

    #[test]
    fn mobility_counts_targets() {
        // Knight on a1 reaches b3 and c2; rook on h1 with the h2 pawn of its own: g1 and f1 ... up to the king.
        let pos = fen("4k3/8/8/8/8/8/7P/N3K2R w - - 0 1");
        let f = features(&pos);
        assert_eq!(f.mobility[0], 2);
        assert_eq!(f.mobility[2], 2);
    }
}
