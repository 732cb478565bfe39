//! Integration tests of the tapered evaluation over every position of perft depth 3 from each line of the
//! shared perft suite: the fast [`evaluate`] equals the tapered dot product of [`sparse_features`], for the
//! seed and for random weights, and the seed evaluation is unchanged from the untapered one.

use crate::common;
use arbiter::chess::{Color, Position};
use arbiter::engine::chess::eval::{SparseFeatures, sparse_features};
use arbiter::engine::chess::{Weights, evaluate};
use common::{perft_fens, random_weights, walk};
use rayon::prelude::*;

/// The tapered dot product of the sparse features, written out here: `(phase * mg + (24 - phase) * eg) / 24`
/// with Rust's truncating division, White's view, negated for Black to move.
fn tapered_dot(sparse: &SparseFeatures, w: &Weights, side: Color) -> i64 {
    let (mg, eg) = (w.mg_vec(), w.eg_vec());
    let m: i64 = sparse.entries.iter().map(|&(i, v)| i64::from(mg[usize::from(i)]) * i64::from(v)).sum();
    let e: i64 = sparse.entries.iter().map(|&(i, v)| i64::from(eg[usize::from(i)]) * i64::from(v)).sum();
    let p = i64::from(sparse.phase);
    assert!((0..=24).contains(&p));
    let white = (p * m + (24 - p) * e) / 24;
    if side == Color::White { white } else { -white }
}

#[test]
fn evaluate_equals_the_tapered_dot_of_sparse_features_at_perft_depth_3() {
    let weight_sets = [Weights::seed(), random_weights(0x9E37_79B9_7F4A_7C15), random_weights(12345)];
    let counts: Vec<u64> = perft_fens()
        .par_iter()
        .map(|fen| {
            let mut pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("bad suite FEN {fen}: {e}"));
            let mut n = 0u64;
            walk(&mut pos, 3, &mut |p| {
                let sparse = sparse_features(p);
                assert!(sparse.entries.windows(2).all(|w| w[0].0 < w[1].0), "sorted, unique indices");
                assert!(sparse.entries.iter().all(|&(_, v)| v != 0), "zero values left out");
                for w in &weight_sets {
                    let fast = i64::from(evaluate(p, w));
                    assert_eq!(fast, tapered_dot(&sparse, w, p.side_to_move()), "FEN {}", p.to_fen());
                    let white = i64::from(sparse.white_eval(&w.mg_vec(), &w.eg_vec()));
                    assert_eq!(if p.side_to_move() == Color::White { white } else { -white }, fast);
                }
                n += 1;
            });
            n
        })
        .collect();
    // Every position of perft depth 0 to 3 from every suite line Arbiter accepts: 1 + D1 + D2 + D3 per line
    // (508,843 over all 126 lines, less line 51's 1 + 6 + 106 + 1,829 = 1,942: that position is refused).
    assert_eq!(counts.iter().sum::<u64>(), 506_901);
}

/// The seed evaluation over the same positions, recorded with the untapered evaluation before the tapered one
/// replaced it: the number of positions, the sum of the scores and an order-dependent hash of them.
#[test]
fn seed_evaluation_is_unchanged_by_tapering() {
    let w = Weights::seed();
    let per_line: Vec<(u64, i64, u64)> = perft_fens()
        .par_iter()
        .map(|fen| {
            let mut pos = Position::from_fen(fen).expect("suite FEN");
            let (mut n, mut sum, mut hash) = (0u64, 0i64, 0u64);
            walk(&mut pos, 3, &mut |p| {
                let e = evaluate(p, &w);
                n += 1;
                sum += i64::from(e);
                hash = hash.wrapping_mul(0x100_0000_01B3).wrapping_add(u64::from(e as u32));
            });
            (n, sum, hash)
        })
        .collect();
    let n: u64 = per_line.iter().map(|x| x.0).sum();
    let sum: i64 = per_line.iter().map(|x| x.1).sum();
    let hash = per_line.iter().fold(0u64, |h, x| h.wrapping_mul(31).wrapping_add(x.2));
    // Recorded over all 126 lines as (508_843, -35_480_730, 0x0826_e9c3_83a3_7526); line 51 is refused since
    // issue 15 (an impossible double check), so the figures were taken again over the other 125 lines with the
    // same evaluation code (src/engine/eval.rs and weights.rs unchanged since): 1,942 positions fewer, exactly
    // line 51's perft count to depth 3.
    assert_eq!((n, sum, hash), (506_901, -35_477_470, 0x4a97_2d7e_4b40_e300));

    // A few single values of the untapered seed evaluation (the first suite lines).
    let recorded = [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0),
        ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", -8),
        ("4k3/8/8/8/8/8/8/4K2R w K - 0 1", 740),
        ("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", 743),
        ("4k2r/8/8/8/8/8/8/4K3 w k - 0 1", -740),
        ("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", 1383),
        ("r3k2r/8/8/8/8/8/8/4K3 w kq - 0 1", -1383),
    ];
    for (fen, score) in recorded {
        assert_eq!(evaluate(&Position::from_fen(fen).unwrap(), &w), score, "FEN {fen}");
    }
}

#[test]
fn tapering_blends_by_phase() {
    // Only an endgame tempo bonus: worth nothing at phase 24, all of it with bare kings and pawns.
    let mut w = Weights::zero();
    let tempo = arbiter::engine::chess::weights::feature_offset("tempo").unwrap();
    w.eg[tempo] = 24;
    assert_eq!(evaluate(&Position::startpos(), &w), 0);
    let pawns = Position::from_fen("4k3/pppp4/8/8/8/8/PPPP4/4K3 b - - 0 1").unwrap();
    assert_eq!(evaluate(&pawns, &w), 24);
    // A rook each: phase 4, so 20/24 of the endgame value.
    let rooks = Position::from_fen("r3k3/8/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
    assert_eq!(evaluate(&rooks, &w), 20);
    w.mg[tempo] = 48;
    assert_eq!(evaluate(&rooks, &w), (4 * 48 + 20 * 24) / 24);
}
