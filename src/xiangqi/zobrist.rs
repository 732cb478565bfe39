//! Zobrist keys for Xiangqi positions, generated at compile time.
//!
//! The keys come from xorshift64* (Vigna, "An experimental exploration of Marsaglia's xorshift generators"),
//! as the chess keys do, from a different fixed seed, so every build and every run hashes positions
//! identically. A position's key is the xor of the keys of its pieces on their squares, and [`side`] when
//! Black is to move.

use super::types::{Piece, SQUARES, Square};

const fn xorshift(state: u64) -> (u64, u64) {
    let mut x = state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    (x, x.wrapping_mul(0x2545_F491_4F6C_DD1D))
}

/// Piece codes run to 15 (`color * 8 + kind`), so 16 x 90 piece-square keys, then the side key.
const COUNT: usize = 16 * SQUARES + 1;

const fn build() -> [u64; COUNT] {
    let mut keys = [0u64; COUNT];
    let mut state = 0x5869_616E_6771_6921; // "Xiangqi!": arbitrary fixed seed
    let mut i = 0;
    while i < COUNT {
        let (s, k) = xorshift(state);
        state = s;
        keys[i] = k;
        i += 1;
    }
    keys
}

static KEYS: [u64; COUNT] = build();

/// The key of a piece by its board code (`color * 8 + kind`) on square index `sq`.
#[inline]
pub(crate) fn code_key(code: u8, sq: usize) -> u64 {
    KEYS[code as usize * SQUARES + sq]
}

/// The key of `piece` standing on `sq`.
#[inline]
pub fn piece(piece: Piece, sq: Square) -> u64 {
    code_key(piece.code(), sq.index())
}

/// The key toggled when Black is to move.
#[inline]
pub fn side() -> u64 {
    KEYS[16 * SQUARES]
}
