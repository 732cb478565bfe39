//! Helpers shared by integration tests.

use arbiter::chess::Position;
use arbiter::engine::chess::{NUM_WEIGHTS, Weights};

/// A deterministic random weight vector (xorshift64 from `seed`), every weight in -1000..=1000.
pub fn random_weights(seed: u64) -> Weights {
    let mut x = seed;
    let v: Vec<i32> = (0..NUM_WEIGHTS)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % 2001) as i32 - 1000
        })
        .collect();
    Weights::from_vec(&v).expect("NUM_WEIGHTS values")
}

/// The shared perft suite, read in place.
pub const PERFT_SUITE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/suites/perft/perftsuite.epd");

/// The lines of the perft suite whose position Arbiter accepts, as `(FEN, whole line)`: the FEN is the text
/// before the first `;`. Line 51, `B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1`, is a double check no single move can give
/// and is refused (issue 15, docs/positions.md); this asserts that it is the only line refused, and why.
pub fn perft_lines() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(PERFT_SUITE).expect("the shared perft suite is readable");
    let mut kept = Vec::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let fen = line.split(';').next().unwrap_or("").trim().to_string();
        match Position::from_fen(&fen) {
            Ok(_) => kept.push((fen, line.to_string())),
            Err(e) => {
                assert_eq!(i + 1, 51, "only line 51 of perftsuite.epd is refused, not {}: {fen}: {e}", i + 1);
                assert!(e.to_string().contains("impossible check"), "line 51: {e}");
            }
        }
    }
    assert_eq!(kept.len(), 125, "perftsuite.epd: 126 lines, one refused");
    kept
}

/// The FENs of [`perft_lines`].
pub fn perft_fens() -> Vec<String> {
    perft_lines().into_iter().map(|(fen, _)| fen).collect()
}

/// Calls `visit` on every position reached from `pos` within `depth` plies (the root included, with repeats).
pub fn walk(pos: &mut Position, depth: u32, visit: &mut impl FnMut(&Position)) {
    visit(pos);
    if depth == 0 {
        return;
    }
    for &m in pos.legal_moves().iter() {
        let undo = pos.make_move(m);
        walk(pos, depth - 1, visit);
        pos.unmake_move(m, &undo);
    }
}
