//! The transposition table: a fixed-size hash table of search results keyed by Zobrist key.
//!
//! Buckets of two 16-byte entries: the first slot keeps the deepest result (replaced only by an equal or deeper
//! search of any position, or by anything once its search generation is old), the second slot always takes the
//! newest result. Mate scores are stored relative to the node (distance to mate from there) and turned back
//! into distance from the root when loaded, so that a stored mate stays correct at any ply.

use super::search::{MATE, MAX_PLY};
use crate::chess::Move;

/// What a stored score means relative to the true value of the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is exact (a principal-variation node).
    Exact,
    /// The true score is at least this (a beta cut-off, fail high).
    Lower,
    /// The true score is at most this (no move raised alpha, fail low).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    key: u64,
    score: i32,
    best: u16,
    depth: u8,
    /// Bits 0-1: bound (0 = empty, 1 exact, 2 lower, 3 upper); bits 2-7: search generation.
    flags: u8,
}

/// A result read back from the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
    /// The best (or refutation) move found, `Move::NULL` if none was stored.
    pub best: Move,
    /// The score in centipawns from the side to move's view, mate scores counted from the root.
    pub score: i32,
    /// The depth in plies of the search that produced it.
    pub depth: u32,
    /// What the score means.
    pub bound: Bound,
}

const BUCKET: usize = 2;
const ENTRY_BYTES: usize = std::mem::size_of::<Entry>();

/// The number of buckets of a table of `mb` MiB (at least one).
fn buckets_for(mb: usize) -> usize {
    (mb.saturating_mul(1 << 20) / (ENTRY_BYTES * BUCKET)).max(1)
}

/// A transposition table that cannot be allocated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot allocate a {mb} MiB transposition table: {reason}")]
pub struct TtAllocError {
    /// The size asked for, in MiB.
    pub mb: usize,
    /// The allocator's refusal.
    pub reason: std::collections::TryReserveError,
}

/// A transposition table of fixed size.
pub struct TranspositionTable {
    entries: Vec<Entry>,
    buckets: usize,
    generation: u8,
}

impl TranspositionTable {
    /// A table of about `mb` MiB (at least one bucket), all entries empty.
    ///
    /// # Panics
    /// When the memory cannot be allocated (a panic, never an abort); [`TranspositionTable::try_new`] returns
    /// an error instead.
    pub fn new(mb: usize) -> TranspositionTable {
        TranspositionTable::try_new(mb).unwrap_or_else(|error| panic!("{error}"))
    }

    /// A table of about `mb` MiB (at least one bucket), all entries empty, or an error when the memory cannot
    /// be allocated.
    ///
    /// # Errors
    /// [`TtAllocError`] when the allocator refuses the memory.
    pub fn try_new(mb: usize) -> Result<TranspositionTable, TtAllocError> {
        let buckets = buckets_for(mb);
        let mut entries = Vec::new();
        entries.try_reserve_exact(buckets * BUCKET).map_err(|reason| TtAllocError { mb, reason })?;
        entries.resize(buckets * BUCKET, Entry::default());
        Ok(TranspositionTable { entries, buckets, generation: 0 })
    }

    /// Checks that a table of `mb` MiB can be allocated now, without building it: the memory is reserved and
    /// released at once, untouched.
    ///
    /// # Errors
    /// [`TtAllocError`] when the allocator refuses the memory.
    pub fn check_allocation(mb: usize) -> Result<(), TtAllocError> {
        let mut entries: Vec<Entry> = Vec::new();
        entries.try_reserve_exact(buckets_for(mb) * BUCKET).map_err(|reason| TtAllocError { mb, reason })
    }

    /// Empties every entry and resets the generation (for a new game).
    pub fn clear(&mut self) {
        self.entries.fill(Entry::default());
        self.generation = 0;
    }

    /// Starts a new search: entries of older searches become preferred for replacement.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 63;
    }

    /// The number of entries (two per bucket).
    pub fn capacity(&self) -> usize {
        self.entries.len()
    }

    /// The share of the table filled by the current search, in permille, sampled over the first 1000 entries
    /// (UCI's `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let sample = &self.entries[..self.entries.len().min(1000)];
        let used = sample.iter().filter(|e| e.flags & 3 != 0 && e.flags >> 2 == self.generation).count();
        (used * 1000 / sample.len().max(1)) as u32
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        (((key as u128) * (self.buckets as u128)) >> 64) as usize * BUCKET
    }

    /// Looks `key` up at `ply` plies from the root.
    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<Probe> {
        let at = self.bucket(key);
        let e = self.entries[at..at + BUCKET].iter().find(|e| e.key == key && e.flags & 3 != 0)?;
        let bound = match e.flags & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        };
        Some(Probe { best: Move::from_raw(e.best), score: score_from_tt(e.score, ply), depth: e.depth.into(), bound })
    }

    /// Stores a result for `key` found at `ply` plies from the root; `best` may be `Move::NULL` (then a move
    /// already stored for the same key is kept).
    #[inline]
    pub fn store(&mut self, key: u64, ply: usize, depth: u32, score: i32, bound: Bound, best: Move) {
        let at = self.bucket(key);
        let generation = self.generation;
        let depth = depth.min(255) as u8;
        let deep = self.entries[at];
        let slot = if deep.key == key || deep.flags & 3 == 0 || depth >= deep.depth || deep.flags >> 2 != generation {
            at
        } else {
            at + 1
        };
        let old = self.entries[slot];
        let best = if best == Move::NULL && old.key == key { old.best } else { best.raw() };
        let bound_bits = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        self.entries[slot] =
            Entry { key, score: score_to_tt(score, ply), best, depth, flags: bound_bits | generation << 2 };
        if slot == at && self.entries[at + 1].key == key {
            // Keep one entry per key: the always-replace slot's copy is now stale.
            self.entries[at + 1] = Entry::default();
        }
    }
}

/// A root-relative mate score turned node-relative for storing.
#[inline]
fn score_to_tt(score: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    if score >= MATE - MAX_PLY as i32 {
        score + ply
    } else if score <= -(MATE - MAX_PLY as i32) {
        score - ply
    } else {
        score
    }
}

/// A node-relative stored mate score turned root-relative at `ply`.
#[inline]
fn score_from_tt(score: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    if score >= MATE - MAX_PLY as i32 {
        score - ply
    } else if score <= -(MATE - MAX_PLY as i32) {
        score + ply
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Square;

    #[test]
    fn store_probe_and_mate_adjustment() {
        let mut tt = TranspositionTable::new(1);
        assert_eq!(tt.capacity(), (1 << 20) / 16);
        let m = Move::normal(Square::new(12), Square::new(28));
        // A mate in 5 plies from the root, found at ply 3 (mate in 2 from there).
        tt.store(42, 3, 4, MATE - 5, Bound::Exact, m);
        let p = tt.probe(42, 3).unwrap();
        assert_eq!((p.best, p.score, p.depth, p.bound), (m, MATE - 5, 4, Bound::Exact));
        // Reached at ply 1 instead, the same mate is 3 plies from the root.
        assert_eq!(tt.probe(42, 1).unwrap().score, MATE - 3);
        assert!(tt.probe(43, 0).is_none());
        tt.store(42, 0, 1, 17, Bound::Lower, Move::NULL);
        let p = tt.probe(42, 0).unwrap();
        assert_eq!((p.best, p.score, p.bound), (m, 17, Bound::Lower));
        assert!(tt.hashfull() <= 1000);
        tt.clear();
        assert!(tt.probe(42, 0).is_none());
        assert_eq!(tt.hashfull(), 0);
    }

    #[test]
    fn impossible_sizes_are_errors_not_aborts() {
        let err = TranspositionTable::try_new(usize::MAX).err().expect("no allocator gives usize::MAX bytes");
        assert_eq!(err.mb, usize::MAX);
        assert!(err.to_string().starts_with("cannot allocate a "), "{err}");
        assert!(TranspositionTable::check_allocation(usize::MAX >> 20).is_err());
        assert!(TranspositionTable::check_allocation(1).is_ok());
        assert_eq!(TranspositionTable::try_new(1).unwrap().capacity(), (1 << 20) / 16);
    }
}
