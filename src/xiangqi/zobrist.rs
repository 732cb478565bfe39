//! Zobrist keys for Xiangqi positions, generated at compile time.
//!
//! The keys come from xorshift64* (Vigna, "An experimental exploration of Marsaglia's xorshift generators"),
//! as the chess keys do, from a different fixed seed, so every build and every run hashes positions
//! identically. A position's key is the xor of the keys of its pieces on their squares, and [`side`] when
//! Black is to move.

use super::types::{Piece, SQUARES, Square};

/// Piece codes run to 15 (`color * 8 + kind`), so 16 x 90 piece-square keys, then the side key.
const COUNT: usize = 16 * SQUARES + 1;

/// The keys ([`crate::game::keys::xorshift_keys`]); "Xiangqi!": an arbitrary fixed seed.
static KEYS: [u64; COUNT] = crate::game::keys::xorshift_keys(0x5869_616E_6771_6921);

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
