//! The checkers endgame base: the perfect index, the retrograde analysis and its proofs of correctness.
//!
//! - The index numbers every placement of a signature once: `index(position(i)) == i` for every index, and the
//!   count equals a brute-force enumeration of the placements (4x4 and 6x6 boards).
//! - Every position of the whole 4x4 base (Russian rules, all signatures up to 8 pieces) and a large random
//!   sample of the 8x8 Russian bases up to 4 pieces: the stored value equals the best child value with its sign
//!   flipped (terminal positions: minus the opponent's pieces), and the stored ranks satisfy the retrograde
//!   equations (a win: 1 + the least rank of a child lost at that threshold; a loss: 1 + the largest rank of
//!   its children).
//! - A forward alpha-beta search of the small positions (4x4, up to 4 pieces) of exactly the stored distance
//!   returns the stored value, and one ply less does not (for decided positions).
//! - The parent generator agrees with the move generator over the base: the parents in a signature are
//!   exactly the reversed moves that stay in it.

use crate::checkers_common;
use arbiter::checkers::base::{self, Bases, Indexer, NOT_RESOLVED, Signature, Solved};
use arbiter::checkers::{Position, Ruleset};
use checkers_common::every_4x4_position;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::collections::HashMap;

/// Builds the bases of `rules` on `size` up to `pieces` into a temporary folder.
fn build(rules: Ruleset, size: u8, pieces: u8, name: &str) -> (Bases, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("arbiter-ckbase-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let bases = base::build(rules, size, pieces, &dir, |_, _, _| {}).unwrap();
    (bases, dir)
}

/// Checks the negamax equation and the rank equations for position `i` of a signature
/// ([`base::verify_position`]).
fn check_position(bases: &Bases, indexer: &Indexer, solved: &Solved, i: usize) {
    if let Err(e) = base::verify_position(bases, indexer, solved, i) {
        panic!("{e}");
    }
}

#[test]
fn the_index_is_perfect_on_small_boards() {
    let every_4x4 = every_4x4_position();
    for (size, max) in [(4u8, 8u8), (6, 4)] {
        for sig in Signature::all(size, max) {
            let indexer = Indexer::new(Ruleset::Russian, size, sig);
            let count = indexer.count();
            for i in 0..count {
                let pos = indexer.position(i);
                assert_eq!(Signature::of(&pos), sig);
                assert_eq!(indexer.index(&pos), i, "{sig} on {size}x{size}: {}", pos.to_fen());
            }
            // Brute force on 4x4: every valid placement, both sides to move.
            if size == 4 {
                let brute = every_4x4.iter().filter(|p| Signature::of(p) == sig).count() as u64;
                assert_eq!(count, brute, "{sig}");
            }
        }
    }
}

#[test]
fn the_whole_4x4_base_is_consistent_and_a_forward_search_agrees() {
    let (bases, dir) = build(Ruleset::Russian, 4, 8, "4x4");
    let mut positions = 0;
    for sig in Signature::all(4, 8) {
        let (indexer, solved) = bases.get(sig).unwrap();
        for i in 0..solved.values.len() {
            check_position(&bases, indexer, solved, i);
        }
        positions += solved.values.len();
        // The files read back to the same solution.
        let read = base::read_base(&base::base_path(&dir, sig), indexer).unwrap();
        assert_eq!(&read, solved, "{sig}");
    }
    // Exact figures of the whole 4x4 base (a regression guard: any change of rules or index shows here).
    assert_eq!(positions, 308_338, "positions of the 4x4 base");
    // The forward search on positions of up to 4 pieces.
    let mut searched = 0;
    for sig in Signature::all(4, 4) {
        let (indexer, solved) = bases.get(sig).unwrap();
        for i in 0..solved.values.len() {
            let pos = indexer.position(i as u64);
            let (v, d) = (solved.values[i], solved.distance(i));
            let mut memo = HashMap::new();
            assert_eq!(alphabeta(&pos, u32::from(d), -100, 100, &mut memo), v, "{} at depth {d}", pos.to_fen());
            if v != 0 && d > 0 {
                let shorter = alphabeta(&pos, u32::from(d) - 1, -100, 100, &mut memo);
                assert_ne!(shorter, v, "{}: depth {} already gives {v}", pos.to_fen(), d - 1);
            }
            searched += 1;
        }
    }
    assert!(searched > 1000, "{searched}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A forward negamax search with alpha-beta, `depth` plies, leaves at the horizon scored 0, a lost terminal
/// minus the opponent's pieces; memoized by `(key, depth)` for exact (full-window) results.
fn alphabeta(pos: &Position, depth: u32, mut alpha: i8, beta: i8, memo: &mut HashMap<(u64, u32), i8>) -> i8 {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return -(base::pieces(pos, pos.side_to_move().flip()) as i8);
    }
    if depth == 0 {
        return 0;
    }
    let full = alpha == -100 && beta == 100;
    if full && let Some(&v) = memo.get(&(pos.key(), depth)) {
        return v;
    }
    let mut best = -100;
    for m in moves.iter() {
        let v = -alphabeta(&pos.apply(m), depth - 1, -beta, -alpha, memo);
        best = best.max(v);
        alpha = alpha.max(v);
        if alpha >= beta {
            break;
        }
    }
    if full {
        memo.insert((pos.key(), depth), best);
    }
    best
}

#[test]
fn parents_in_a_signature_are_the_reversed_moves() {
    for (size, pieces) in [(4u8, 5u8), (6, 3)] {
        for sig in Signature::all(size, pieces) {
            let indexer = Indexer::new(Ruleset::Russian, size, sig);
            let mut forward = Vec::new();
            let mut backward = Vec::new();
            for i in 0..indexer.count() {
                let pos = indexer.position(i);
                for m in pos.legal_moves().iter() {
                    let child = pos.apply(m);
                    if Signature::of(&child) == sig {
                        forward.push((i, indexer.index(&child)));
                    }
                }
                for q in pos.parents_restoring(0) {
                    if Signature::of(&q) == sig {
                        backward.push((indexer.index(&q), i));
                    }
                }
            }
            forward.sort_unstable();
            forward.dedup();
            backward.sort_unstable();
            backward.dedup();
            assert_eq!(forward, backward, "{sig} on {size}x{size}");
        }
    }
}

#[test]
fn a_random_sample_of_the_8x8_bases_is_consistent() {
    let (bases, dir) = build(Ruleset::Russian, 8, 3, "8x8");
    let mut rng = StdRng::seed_from_u64(9);
    for sig in Signature::all(8, 3) {
        let (indexer, solved) = bases.get(sig).unwrap();
        for _ in 0..2000 {
            let i = rng.random_range(0..solved.values.len());
            check_position(&bases, indexer, solved, i);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
#[ignore = "builds the 8x8 Russian bases up to 4 pieces (minutes on two cores)"]
fn a_random_sample_of_the_8x8_four_piece_bases_is_consistent() {
    let (bases, dir) = build(Ruleset::Russian, 8, 4, "8x8-4");
    let mut rng = StdRng::seed_from_u64(10);
    for sig in Signature::all(8, 4) {
        let (indexer, solved) = bases.get(sig).unwrap();
        for _ in 0..5000 {
            let i = rng.random_range(0..solved.values.len());
            check_position(&bases, indexer, solved, i);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ranks_are_resolved_exactly_where_the_value_says() {
    let (bases, dir) = build(Ruleset::Russian, 4, 4, "4x4-ranks");
    for sig in Signature::all(4, 4) {
        let (_, solved) = bases.get(sig).unwrap();
        for i in 0..solved.values.len() {
            let v = solved.values[i].unsigned_abs();
            for t in 1..=solved.ranks.len() as u8 {
                assert_eq!(solved.rank(i, t) != NOT_RESOLVED, t <= v, "{sig} index {i} threshold {t}");
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn arbiter(args: &[&str]) -> (Option<i32>, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter")).args(args).output().expect("arbiter runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn build_and_probe_from_the_command_line() {
    let dir = std::env::temp_dir().join(format!("arbiter-ckcli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let (code, out, err) =
        arbiter(&["checkers", "build", "--variant", "russian", "--board", "4", "--pieces", "3", "--dir", d]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("Russian 4x4, up to 3 pieces: 16 signatures"), "{out}");
    let csv = std::fs::read_to_string(dir.join("build.csv")).unwrap();
    assert_eq!(csv.lines().count(), 17, "{csv}");
    // A white king on the long diagonal against a black man: a1-b2 forces the man onto c3, where it is taken.
    let (code, out, err) = arbiter(&["checkers", "probe", "--board", "4", "--fen", "W:WKa1:Bd4", "--dir", d]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("value    +1\ndistance 3 plies\n"), "{out}");
    assert!(out.contains("best     a1-b2\n"), "{out}");
    assert!(out.contains("  a1-c3          value  -1  distance 2"), "{out}");
    // Bad input: exit 2 with the reason.
    let file = dir.join("build.csv");
    let f = file.to_str().unwrap();
    let not_a_folder = format!("--dir {f}: not a folder");
    let cases: [(&[&str], &str); 10] = [
        (
            &["probe", "--fen", "W:Wa1,c1,e1,g1,b2,d2,f2:Bb6,d6,f6,h6,a7,c7", "--dir", d],
            "--fen: 13 pieces; a base holds at most 12 (`arbiter checkers build --pieces 2..12`)",
        ),
        (&["probe", "--board", "4", "--fen", "W:WKa1:Bz9", "--dir", d], "square \"z9\""),
        // The position's own signature is named, with the --pieces that builds it.
        (&["probe", "--board", "4", "--fen", "W:WKa1,c1,b2:Bd4", "--dir", d], "no base for 3x1-2m1k-1m0k ("),
        (
            &["probe", "--board", "4", "--fen", "W:WKa1,c1,b2:Bd4", "--dir", d],
            "build it with `arbiter checkers build --pieces 4`",
        ),
        (&["probe", "--board", "4", "--fen", "W:WKa1:Bd4", "--dir", f], &not_a_folder),
        (&["build", "--board", "4", "--pieces", "2", "--dir", f], &not_a_folder),
        // A base of another board (the 4x4 files probed as 8x8).
        (
            &["probe", "--fen", "W:WKa1:Bh8", "--dir", d],
            "1x1-0m1k-0m1k.cdb: not an Arbiter checkers base of Russian 8x8 1x1-0m1k-0m1k: header [0, 4, 0, 0, 1, 1], \
             expected [0, 8, 0, 0, 1, 1]",
        ),
        (&["probe", "--board", "4", "--fen", "W:WKa1:B", "--dir", d], "one side has no pieces"),
        (
            &["build", "--variant", "english", "--board", "4", "--pieces", "3", "--dir", d],
            "the small boards play Russian rules",
        ),
        (&["build", "--pieces", "1", "--dir", d], "--pieces 1: expected 2 to 12"),
    ];
    for (args, reason) in cases {
        let (code, _, err) = arbiter(&[&["checkers"][..], args].concat());
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains(reason), "{args:?}: {err}");
    }
    // verify: every position against its children; a changed value is found.
    let (code, out, _) = arbiter(&["checkers", "verify", "--board", "4", "--pieces", "3", "--sample", "0", "--dir", d]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("verified 3936 positions of 16 signatures (Russian 4x4, up to 3 pieces)"), "{out}");
    assert!(out.contains(": 0 inconsistent"), "{out}");
    let file = dir.join("2x1-0m2k-0m1k.cdb");
    let mut bytes = std::fs::read(&file).unwrap();
    bytes[23 + 5] = if bytes[23 + 5] == 0 { 1 } else { 0 };
    std::fs::write(&file, &bytes).unwrap();
    let (code, out, _) = arbiter(&["checkers", "verify", "--board", "4", "--pieces", "3", "--sample", "0", "--dir", d]);
    assert_eq!(code, Some(1), "{out}");
    assert!(!out.contains(": 0 inconsistent"), "{out}");
    // A damaged file is refused, not read.
    let file = dir.join("1x1-0m1k-1m0k.cdb");
    let bytes = std::fs::read(&file).unwrap();
    std::fs::write(&file, &bytes[..bytes.len() - 1]).unwrap();
    let (code, _, err) = arbiter(&["checkers", "probe", "--board", "4", "--fen", "W:WKa1:Bd4", "--dir", d]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("not an Arbiter checkers base of Russian 4x4 1x1-0m1k-1m0k"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
