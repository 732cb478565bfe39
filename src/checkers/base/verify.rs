//! The proof of a base: every position's value and rank against its children ([`verify_position`]), over a
//! random sample of every signature ([`verify_sample`], `arbiter checkers verify`).

use super::{Bases, Indexer, Signature, Solved, pieces};
use rayon::prelude::*;
use thiserror::Error;

/// A position of a base that does not satisfy its equations.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum VerifyError {
    /// The value is not the best child value negated.
    #[error("{fen} ({signature} index {index}): value {value:+}, best child value {best:+}")]
    Value {
        /// The position's FEN.
        fen: String,
        /// Its signature.
        signature: Signature,
        /// Its index in the signature.
        index: usize,
        /// The stored value.
        value: i8,
        /// The best child value, negated.
        best: i8,
    },
    /// The rank does not satisfy the retrograde equation at the value's threshold.
    #[error("{fen} ({signature} index {index}): rank {rank} at threshold {threshold}, the children give {expected:?}")]
    Rank {
        /// The position's FEN.
        fen: String,
        /// Its signature.
        signature: Signature,
        /// Its index in the signature.
        index: usize,
        /// The stored rank.
        rank: u16,
        /// The threshold `|value|`.
        threshold: u8,
        /// The rank the children give.
        expected: Option<u16>,
    },
}

/// Checks position `i` of a solved signature against its children (the proof of a base, used by the tests and
/// `arbiter checkers verify`): its value must equal the best child value with the sign flipped (a position
/// without a legal move: minus the opponent's pieces), and its rank at `t = |v|` the retrograde equation: a
/// win 1 + the least rank of a child lost at `t` for its side, a loss 1 + the largest rank of its children
/// (every child won at `t` for its side), a terminal 0.
///
/// # Errors
/// [`VerifyError`]: the position's FEN and which equation fails, with both sides of it.
///
/// # Panics
/// If a child's signature is not in `bases` (load every signature up to the position's piece count).
pub fn verify_position(bases: &Bases, indexer: &Indexer, solved: &Solved, i: usize) -> Result<(), VerifyError> {
    let pos = indexer.position(i as u64);
    let v = solved.values[i];
    let t = v.unsigned_abs();
    // Each child's value and its rank at this position's threshold (unused for a draw), read once.
    let children: Vec<(i8, u16)> =
        pos.legal_moves().iter().map(|m| bases.value_and_rank(&pos.apply(m), t.max(1))).collect();
    let best = match children.iter().map(|&(cv, _)| -cv).max() {
        Some(best) => best,
        None => -(pieces(&pos, pos.side_to_move().flip()) as i8),
    };
    if v != best {
        return Err(VerifyError::Value { fen: pos.to_fen(), signature: indexer.signature, index: i, value: v, best });
    }
    if t == 0 {
        return Ok(());
    }
    let rank = solved.rank(i, t);
    let expected = if children.is_empty() {
        Some(0)
    } else if v > 0 {
        children.iter().filter(|(cv, _)| -i16::from(*cv) >= i16::from(t)).map(|(_, r)| r.saturating_add(1)).min()
    } else {
        children.iter().map(|(_, r)| r.saturating_add(1)).max()
    };
    if Some(rank) != expected {
        return Err(VerifyError::Rank {
            fen: pos.to_fen(),
            signature: indexer.signature,
            index: i,
            rank,
            threshold: t,
            expected,
        });
    }
    Ok(())
}

/// What [`verify_sample`] found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VerifyReport {
    /// Positions checked.
    pub checked: u64,
    /// Signatures checked.
    pub signatures: usize,
    /// The positions that fail, in signature order.
    pub failures: Vec<VerifyError>,
}

/// Checks `sample` positions of every signature of at most `pieces` pieces on the `board` x `board` board
/// (every position when `sample` is 0 or at least the signature's size), drawn with a `StdRng` seeded by
/// `seed` xor the FNV-1a hash of the signature's name, on the current rayon pool.
///
/// # Panics
/// If a signature is not in `bases` (load every signature up to `pieces`).
pub fn verify_sample(bases: &Bases, board: u8, pieces: u8, sample: u64, seed: u64) -> VerifyReport {
    use rand::{RngExt, SeedableRng};
    let signatures = Signature::all(board, pieces);
    let mut report = VerifyReport { signatures: signatures.len(), ..VerifyReport::default() };
    for &sig in &signatures {
        let (indexer, solved) = bases.get(sig).expect("every signature is loaded");
        let count = solved.values.len() as u64;
        let picks: Vec<usize> = if sample == 0 || sample >= count {
            (0..solved.values.len()).collect()
        } else {
            let mut rng = rand::rngs::StdRng::seed_from_u64(seed ^ crate::game::keys::fnv1a(sig.name().as_bytes()));
            (0..sample).map(|_| rng.random_range(0..count) as usize).collect()
        };
        let failures: Vec<VerifyError> =
            picks.par_iter().filter_map(|&i| verify_position(bases, indexer, solved, i).err()).collect();
        report.checked += picks.len() as u64;
        report.failures.extend(failures);
    }
    report
}
