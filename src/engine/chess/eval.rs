//! The tapered evaluation: a middlegame and an endgame dot product of [`Weights`] and integer features,
//! blended by the game phase.
//!
//! Every feature is a count for White minus the same count for Black (the layout is
//! [`crate::engine::chess::weights::FEATURES`]). With `phase` from [`phase`] (24 = all minor pieces, rooks and
//! queens on the board, 0 = none) the evaluation from White's view is exactly
//!
//! ```text
//! (phase * dot(w_mg, f) + (24 - phase) * dot(w_eg, f)) / 24
//! ```
//!
//! over the effective weights `w_mg = Weights::mg_vec()`, `w_eg = Weights::eg_vec()`, in 64-bit arithmetic,
//! with the division truncating toward zero (Rust's `/`), and the result saturated to the `i32` range.
//! [`evaluate`] negates it for Black to move, so a colour-mirrored position scores the same for its side to
//! move. With the seed weights `w_mg = w_eg`, so the division is exact and the value is the untapered dot
//! product of the seed evaluation.
//!
//! Features never depend on weights (mop-up uses a fixed 1/3/3/5/9 material count to pick the winning side),
//! so a tuner can compute them once per position with [`sparse_features`].
//!
//! [`evaluate`] is a direct computation from the board on every call (there is no incremental update in
//! make/unmake): the same feature walk as [`sparse_features`] feeds a multiply-accumulate instead of a vector.
//!
//! Source of the phase scheme: the chessprogramming wiki, "Tapered Eval", and PeSTO (knight = bishop = 1,
//! rook = 2, queen = 4, 24 in the start position, capped at 24 after promotions).

use super::weights::{NUM_BASE, NUM_FEATURES, Weights, feature_offset, index};
use crate::chess::{Bitboard, Color, PieceType, Position, Square, attacks};

/// The phase of the start position, and the most [`phase`] returns.
pub const MAX_PHASE: i32 = 24;

/// The dense feature vector of a position, White minus Black, in [`crate::engine::chess::weights::FEATURES`] order,
/// with its game phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Features {
    /// One count per feature, White minus Black.
    pub values: [i32; NUM_FEATURES],
    /// The game phase, 0 (bare kings and pawns) to [`MAX_PHASE`].
    pub phase: i32,
}

impl Features {
    /// The feature counts as one flat vector in [`crate::engine::chess::weights::FEATURES`] order.
    pub fn to_vec(&self) -> [i32; NUM_FEATURES] {
        self.values
    }

    /// The counts of the feature `key` (one value for a scalar, one per element for an array).
    ///
    /// # Panics
    /// When `key` is not a key of [`crate::engine::chess::weights::FEATURES`].
    pub fn get(&self, key: &str) -> &[i32] {
        let at = feature_offset(key).expect("a feature key");
        let len = super::weights::FEATURES.iter().find(|f| f.0 == key).expect("a feature key").1;
        &self.values[at..at + len]
    }
}

/// The non-zero features of a position and its phase: what a tuner stores per position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SparseFeatures {
    /// `(feature index, value)` pairs, White minus Black, in increasing index order, zero values left out.
    pub entries: Vec<(u16, i32)>,
    /// The game phase, 0 to [`MAX_PHASE`].
    pub phase: i32,
}

impl SparseFeatures {
    /// The tapered evaluation from White's view, centipawns, for effective weight vectors `mg` and `eg`
    /// (as [`Weights::mg_vec`] / [`Weights::eg_vec`], indexed by feature).
    ///
    /// # Panics
    /// When an entry's index is outside `mg` or `eg`.
    pub fn white_eval(&self, mg: &[i32], eg: &[i32]) -> i32 {
        let (mut m, mut e) = (0i64, 0i64);
        for &(i, v) in &self.entries {
            m += i64::from(mg[usize::from(i)]) * i64::from(v);
            e += i64::from(eg[usize::from(i)]) * i64::from(v);
        }
        taper(self.phase, m, e)
    }
}

/// The blend of a middlegame and an endgame score, centipawns: `(phase * mg + (24 - phase) * eg) / 24`,
/// truncated toward zero and saturated to the `i32` range.
pub fn taper(phase: i32, mg: i64, eg: i64) -> i32 {
    let phase = i128::from(phase.clamp(0, MAX_PHASE));
    let sum = phase * i128::from(mg) + (i128::from(MAX_PHASE) - phase) * i128::from(eg);
    (sum / i128::from(MAX_PHASE)).clamp(i128::from(i32::MIN), i128::from(i32::MAX)) as i32
}

/// The dot product of a weight vector and a feature vector of the same length, in centipawns, accumulated in
/// 64 bits and saturated to the `i32` range (so extreme weights cannot overflow).
pub fn dot(weights: &[i32], features: &[i32]) -> i32 {
    let sum: i64 = weights.iter().zip(features).map(|(&w, &f)| i64::from(w) * i64::from(f)).sum();
    sum.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
}

/// The game phase of `pos`: knights and bishops count 1, rooks 2, queens 4 (both colours), capped at
/// [`MAX_PHASE`] = 24.
///
/// Source: the chessprogramming wiki, "Tapered Eval"; PeSTO.
pub fn phase(pos: &Position) -> i32 {
    let n = |k: PieceType| pos.pieces_kind(k).count() as i32;
    (n(PieceType::Knight) + n(PieceType::Bishop) + 2 * n(PieceType::Rook) + 4 * n(PieceType::Queen)).min(MAX_PHASE)
}

/// The static evaluation in centipawns from the side to move's view: the tapered evaluation of the module
/// docs, computed directly from the board on every call, negated for Black to move.
pub fn evaluate(pos: &Position, weights: &Weights) -> i32 {
    crate::cpu::dispatch!(evaluate_v3, evaluate_generic, (pos, weights))
}

crate::cpu::versions! {
    fn evaluate_v3, evaluate_generic (pos: &Position, weights: &Weights) -> i32 { evaluate_inline(pos, weights) }
}

#[inline(always)]
fn evaluate_inline(pos: &Position, weights: &Weights) -> i32 {
    let mut acc = Accumulate { base: weights.base_vec(), mg_layer: &weights.mg, eg_layer: &weights.eg, mg: 0, eg: 0 };
    walk(pos, &mut acc);
    let white = taper(phase(pos), acc.mg, acc.eg);
    match pos.side_to_move() {
        Color::White => white,
        Color::Black => white.saturating_neg(),
    }
}

/// Counts every feature of `pos`, White minus Black, as a dense vector with the phase.
pub fn features(pos: &Position) -> Features {
    let mut dense = Dense { values: [0; NUM_FEATURES] };
    walk(pos, &mut dense);
    Features { values: dense.values, phase: phase(pos) }
}

/// The non-zero features of `pos` (White minus Black) with its phase, for a tuner:
/// `sparse_features(pos).white_eval(&w.mg_vec(), &w.eg_vec())` is [`evaluate`] from White's view.
pub fn sparse_features(pos: &Position) -> SparseFeatures {
    let dense = features(pos);
    let entries = dense
        .values
        .iter()
        .enumerate()
        .filter(|&(_, &v)| v != 0)
        .map(|(i, &v)| (u16::try_from(i).expect("NUM_FEATURES fits u16"), v))
        .collect();
    SparseFeatures { entries, phase: dense.phase }
}

/// Where the feature walk sends each signed count: `add(index, value)` adds `value` to feature `index`.
trait Sink {
    fn add(&mut self, index: usize, value: i32);
}

/// Collects a dense feature vector.
struct Dense {
    values: [i32; NUM_FEATURES],
}

impl Sink for Dense {
    #[inline]
    fn add(&mut self, index: usize, value: i32) {
        self.values[index] += value;
    }
}

/// Accumulates the middlegame and endgame dot products directly (the fast path of [`evaluate`]).
struct Accumulate<'a> {
    base: [i32; NUM_BASE],
    mg_layer: &'a [i32; NUM_FEATURES],
    eg_layer: &'a [i32; NUM_FEATURES],
    mg: i64,
    eg: i64,
}

impl Sink for Accumulate<'_> {
    #[inline]
    fn add(&mut self, index: usize, value: i32) {
        let base = if index < NUM_BASE { self.base[index] } else { 0 };
        let v = i64::from(value);
        self.mg += i64::from(self.mg_layer[index].saturating_add(base)) * v;
        self.eg += i64::from(self.eg_layer[index].saturating_add(base)) * v;
    }
}

/// Walks every feature of `pos`, sending each side's counts (negated for Black) to `sink`.
#[inline(always)]
fn walk<S: Sink>(pos: &Position, sink: &mut S) {
    let occ = pos.occupied();
    let all_pawns = pos.pieces_kind(PieceType::Pawn);
    for color in Color::ALL {
        let sign = if color == Color::White { 1 } else { -1 };
        let ours = pos.color_bb(color);
        let pawns = pos.pieces_of(color, PieceType::Pawn);
        let their_pawns = pos.pieces_of(color.flip(), PieceType::Pawn);
        let their_pawn_attacks = pawn_attacks(color.flip(), their_pawns);

        for (i, kind) in PieceType::ALL.iter().enumerate() {
            let pieces = pos.pieces_of(color, *kind);
            if i < 5 {
                sink.add(index::MATERIAL + i, sign * pieces.count() as i32);
            }
            for sq in pieces {
                let white_sq = if color == Color::White { sq.index() } else { sq.index() ^ 56 };
                sink.add(index::PSQT + 64 * i + white_sq, sign);
            }
        }

        // Mobility and, from the same attack sets, this side's attacks on the enemy king zone (the enemy's
        // `king_zone_attacks`, so counted with the enemy's sign).
        let their_king = pos.king_square(color.flip());
        let zone = attacks::king(their_king).with(their_king);
        let (west, east) = (pawns.0 & !Bitboard::FILE_A.0, pawns.0 & !Bitboard::FILE_H.0);
        let (west, east) = match color {
            Color::White => (Bitboard(west << 7), Bitboard(east << 9)),
            Color::Black => (Bitboard(west >> 9), Bitboard(east >> 7)),
        };
        let mut zone_hits = (west & zone).count() + (east & zone).count();
        let mut mobility = [0i32; 4];
        for sq in pos.pieces_of(color, PieceType::Knight) {
            let a = attacks::knight(sq);
            mobility[0] += (a & !ours).count() as i32;
            zone_hits += (a & zone).count();
        }
        for sq in pos.pieces_of(color, PieceType::Bishop) {
            let a = attacks::bishop(sq, occ);
            mobility[1] += (a & !ours).count() as i32;
            zone_hits += (a & zone).count();
        }
        for sq in pos.pieces_of(color, PieceType::Rook) {
            let a = attacks::rook(sq, occ);
            mobility[2] += (a & !ours).count() as i32;
            zone_hits += (a & zone).count();
            let file = Bitboard::file(sq.file());
            if (file & all_pawns).is_empty() {
                sink.add(index::ROOK_OPEN_FILE, sign);
            } else if (file & pawns).is_empty() {
                sink.add(index::ROOK_SEMI_OPEN_FILE, sign);
            }
        }
        for sq in pos.pieces_of(color, PieceType::Queen) {
            let a = attacks::queen(sq, occ);
            mobility[3] += (a & !ours).count() as i32;
            zone_hits += (a & zone).count();
        }
        sink.add(index::KING_ZONE_ATTACKS, -sign * zone_hits as i32);
        for (i, m) in mobility.into_iter().enumerate() {
            sink.add(index::MOBILITY + i, sign * m);
        }

        let mut doubled = 0;
        for file in 0..8 {
            doubled += ((pawns & Bitboard::file(file)).count() as i32 - 1).max(0);
        }
        sink.add(index::DOUBLED_PAWN, sign * doubled);
        sink.add(index::CONNECTED_PAWN, sign * (pawns & pawn_attacks(color, pawns)).count() as i32);

        for sq in pawns {
            let rank = sq.relative_rank(color) as usize;
            sink.add(index::PAWN_ADVANCE + rank, sign);
            if (Bitboard(PASSED_SPAN[color.index()][sq.index()]) & their_pawns).is_empty() {
                sink.add(index::PASSED_PAWN + rank, sign);
            }
            if (Bitboard(ADJACENT_FILES[sq.file() as usize]) & pawns).is_empty() {
                sink.add(index::ISOLATED_PAWN, sign);
            } else if (Bitboard(SUPPORT_SPAN[color.index()][sq.index()]) & pawns).is_empty() {
                let stop = if color == Color::White { sq.index() + 8 } else { sq.index() - 8 };
                if their_pawn_attacks.0 & (1u64 << stop) != 0 {
                    sink.add(index::BACKWARD_PAWN, sign);
                }
            }
        }

        let king = pos.king_square(color);
        if has_castled(color, king) {
            sink.add(index::PAWN_SHIELD, sign * (Bitboard(SHIELD[color.index()][king.index()]) & pawns).count() as i32);
        } else {
            let held = [true, false]
                .iter()
                .filter(|&&king_side| {
                    pos.castling_rights() & crate::chess::position::castling_bit(color, king_side) != 0
                })
                .count() as i32;
            sink.add(index::CASTLING_LOST, sign * (2 - held));
        }

        if pos.pieces_of(color, PieceType::Bishop).more_than_one() {
            sink.add(index::BISHOP_PAIR, sign);
        }
    }

    sink.add(index::TEMPO, if pos.side_to_move() == Color::White { 1 } else { -1 });

    if occ.count() <= 8 {
        let count = |c: Color| -> i32 {
            [1, 3, 3, 5, 9].iter().zip(&PieceType::ALL[..5]).map(|(v, &k)| v * pos.pieces_of(c, k).count() as i32).sum()
        };
        let balance = count(Color::White) - count(Color::Black);
        if balance != 0 {
            let (sign, loser) = if balance > 0 { (1, Color::Black) } else { (-1, Color::White) };
            let (wk, bk) = (pos.king_square(Color::White), pos.king_square(Color::Black));
            sink.add(index::MOPUP_PROXIMITY, sign * (14 - manhattan(wk, bk)));
            sink.add(index::MOPUP_CENTRE, sign * centre_distance(pos.king_square(loser)));
        }
    }
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

/// For each file: the squares of the adjacent files (no own pawn there = isolated).
static ADJACENT_FILES: [u64; 8] = build_adjacent_files();
/// For each colour and square: the squares on the adjacent files on the same or a lower relative rank, where
/// an own pawn could support a pawn there (none there = the pawn may be backward).
static SUPPORT_SPAN: [[u64; 64]; 2] = build_support_spans();

/// Builds [`ADJACENT_FILES`].
const fn build_adjacent_files() -> [u64; 8] {
    let mut out = [0u64; 8];
    let mut f = 0;
    while f < 8 {
        if f > 0 {
            out[f] |= 0x0101_0101_0101_0101u64 << (f - 1);
        }
        if f < 7 {
            out[f] |= 0x0101_0101_0101_0101u64 << (f + 1);
        }
        f += 1;
    }
    out
}

/// Builds [`SUPPORT_SPAN`].
const fn build_support_spans() -> [[u64; 64]; 2] {
    let files = build_adjacent_files();
    let mut out = [[0u64; 64]; 2];
    let mut color = 0;
    while color < 2 {
        let mut sq = 0;
        while sq < 64 {
            let (file, rank) = (sq % 8, sq / 8);
            let mut ranks = 0u64;
            let mut r = 0;
            while r < 8 {
                if (color == 0 && r <= rank) || (color == 1 && r >= rank) {
                    ranks |= 0xFFu64 << (8 * r);
                }
                r += 1;
            }
            out[color][sq] = files[file] & ranks;
            sq += 1;
        }
        color += 1;
    }
    out
}

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
        let mut expected = [0; NUM_FEATURES];
        expected[index::TEMPO] = 1;
        assert_eq!(f.values, expected);
        assert_eq!(f.phase, MAX_PHASE);
        assert_eq!(evaluate(&pos, &Weights::seed()), 0);
        assert_eq!(sparse_features(&pos), SparseFeatures { entries: vec![(index::TEMPO as u16, 1)], phase: 24 });
    }

    #[test]
    fn pawn_structure_counts() {
        // White: doubled c-pawns (c2, c3), b2 defends c3, passed pawn on e5 (relative rank index 4).
        let pos = fen("4k3/8/8/4P3/8/2P5/1PP5/4K3 w - - 0 1");
        let f = features(&pos);
        assert_eq!(f.get("material")[0], 4);
        assert_eq!(f.get("doubled_pawn"), [1]);
        assert_eq!(f.get("connected_pawn"), [1]);
        assert_eq!(f.get("pawn_advance"), [0, 2, 1, 0, 1, 0, 0, 0]);
        assert_eq!(f.get("passed_pawn"), [0, 2, 1, 0, 1, 0, 0, 0]);
        // Neither king has castled and neither side holds a right: 2 - 2.
        assert_eq!(f.get("castling_lost"), [0]);
        // e5 has no neighbour on the d or f file.
        assert_eq!(f.get("isolated_pawn"), [1]);
        assert_eq!(f.get("psqt_pawn")[Square::new(36).index()], 1);
        assert_eq!(f.phase, 0);
    }

    #[test]
    fn backward_isolated_and_rook_files() {
        // White d3 is backward: c4 and e4 are ahead of it and Black's e5 guards d4. Black's e5 is isolated.
        // The a1 rook stands on a file without pawns.
        let pos = fen("4k3/8/8/4p3/2P1P3/3P4/8/R3K3 w - - 0 1");
        let f = features(&pos);
        assert_eq!(f.get("backward_pawn"), [1]);
        assert_eq!(f.get("isolated_pawn"), [-1]);
        assert_eq!(f.get("rook_open_file"), [1]);
        assert_eq!(f.get("rook_semi_open_file"), [0]);
        // Black rook on the d file facing White's d3 only: semi-open for Black.
        let f = features(&fen("3rk3/8/8/8/8/3P4/8/4K3 b - - 0 1"));
        assert_eq!(f.get("rook_semi_open_file"), [-1]);
        assert_eq!(f.get("tempo"), [-1]);
    }

    /// Test reference, one attack set per piece: the number of attacks by `color`'s enemy on `color`'s king zone (the king square and its neighbours):
    /// for each enemy pawn, knight, bishop, rook and queen, the zone squares it attacks (sliders through the
    /// current occupancy), summed.
    fn king_zone_attacks(pos: &Position, color: Color) -> i32 {
        let king = pos.king_square(color);
        let zone = attacks::king(king).with(king);
        let enemy = color.flip();
        let occ = pos.occupied();
        let mut n = 0;
        for sq in pos.pieces_of(enemy, PieceType::Pawn) {
            n += (attacks::pawn(enemy, sq) & zone).count();
        }
        for sq in pos.pieces_of(enemy, PieceType::Knight) {
            n += (attacks::knight(sq) & zone).count();
        }
        for sq in pos.pieces_of(enemy, PieceType::Bishop) {
            n += (attacks::bishop(sq, occ) & zone).count();
        }
        for sq in pos.pieces_of(enemy, PieceType::Rook) {
            n += (attacks::rook(sq, occ) & zone).count();
        }
        for sq in pos.pieces_of(enemy, PieceType::Queen) {
            n += (attacks::queen(sq, occ) & zone).count();
        }
        n as i32
    }

    #[test]
    fn king_zone_attacks_match_a_per_piece_count() {
        for text in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "4k3/3ppp2/8/8/8/8/3PPP2/4K3 w - - 0 1",
        ] {
            let pos = fen(text);
            let expected = king_zone_attacks(&pos, Color::White) - king_zone_attacks(&pos, Color::Black);
            assert_eq!(features(&pos).get("king_zone_attacks"), [expected], "{text}");
        }
    }

    #[test]
    fn king_zone_attacks_count_each_attacker() {
        // The zone of the g1 king is f1 g1 h1 f2 g2 h2; a Black knight on f3 attacks g1 and h2 of them.
        let f = features(&fen("4k3/8/8/8/8/5n2/8/6K1 w - - 0 1"));
        assert_eq!(f.get("king_zone_attacks"), [2]);
    }

    #[test]
    fn castling_shield_and_lost_rights() {
        // White castled short (king g1, pawns f2 g2 h3 = 3 shield pawns); Black king e8 without rights.
        let pos = fen("4k3/pppppppp/8/8/8/7P/PPPPPPP1/5RK1 w - - 0 1");
        let f = features(&pos);
        assert_eq!(f.get("pawn_shield"), [3]);
        assert_eq!(f.get("castling_lost"), [-2]);
    }

    #[test]
    fn mop_up_signs() {
        // K+R v K: White ahead; kings e1/e8 are 7 apart; the Black king on e8 is 3 from e5.
        let pos = fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        let f = features(&pos);
        assert_eq!(f.get("mopup_proximity"), [7]);
        assert_eq!(f.get("mopup_centre"), [3]);
        let pos = fen("4k3/8/8/8/8/8/8/r3K3 w - - 0 1");
        let f = features(&pos);
        assert_eq!(f.get("mopup_proximity"), [-7]);
        assert_eq!(f.get("mopup_centre"), [-3]);
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
        assert_eq!(f.get("mobility")[0], 2);
        assert_eq!(f.get("mobility")[2], 2);
    }

    #[test]
    fn taper_blends_and_truncates_toward_zero() {
        assert_eq!(taper(24, 100, -100), 100);
        assert_eq!(taper(0, 100, -100), -100);
        assert_eq!(taper(12, 101, 0), 50);
        assert_eq!(taper(12, -101, 0), -50);
        assert_eq!(taper(24, i64::MAX / 2, 0), i32::MAX);
    }

    #[test]
    fn phase_counts_minor_rook_queen() {
        assert_eq!(phase(&Position::startpos()), 24);
        assert_eq!(phase(&fen("4k3/8/8/8/8/8/8/R3K2Q w - - 0 1")), 6);
        // Promoted queens stay capped.
        assert_eq!(phase(&fen("qqqqk3/8/8/8/8/8/8/QQQQK3 w - - 0 1")), 24);
    }
}
