//! Helpers shared by integration tests.

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
