//! Helpers shared by integration tests.

use arbiter::chess::Position;
use arbiter::engine::{NUM_WEIGHTS, Weights};

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

/// The FENs of the perft suite: the text before the first `;` of each line.
pub fn perft_fens() -> Vec<String> {
    let text = std::fs::read_to_string(PERFT_SUITE).expect("the shared perft suite is readable");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split(';').next().unwrap_or("").trim().to_string())
        .collect()
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
