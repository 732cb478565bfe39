//! Zobrist hashing keys, generated at compile time.
//!
//! The keys come from xorshift64* (Vigna, "An experimental exploration of Marsaglia's xorshift generators")
//! seeded with a fixed constant, so every build and every run hashes positions identically.

use super::types::{Piece, Square};

/// All keys ([`crate::game::keys::xorshift_keys`]): 12 x 64 piece-square keys, then side, 16 castling-rights
/// combinations and 8 en-passant files.
static KEYS: [u64; 12 * 64 + 1 + 16 + 8] = crate::game::keys::xorshift_keys(0x7A6F_6272_6973_7421); // arbitrary fixed seed
const SIDE: usize = 12 * 64;
const CASTLE: usize = SIDE + 1;
const EP: usize = CASTLE + 16;

/// The key of `piece` standing on `sq`.
#[inline]
pub fn piece(piece: Piece, sq: Square) -> u64 {
    KEYS[piece.index() * 64 + sq.index()]
}

/// The key toggled when Black is to move.
#[inline]
pub fn side() -> u64 {
    KEYS[SIDE]
}

/// The key of a castling-rights set (a 4-bit mask, see `CastlingRights`).
#[inline]
pub fn castling(rights: u8) -> u64 {
    KEYS[CASTLE + (rights & 15) as usize]
}

/// The key of an en-passant file (0 = a), included only when a legal en-passant capture exists.
#[inline]
pub fn en_passant(file: u8) -> u64 {
    KEYS[EP + (file & 7) as usize]
}
