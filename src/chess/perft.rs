//! Perft: counting the leaf nodes of the legal move tree, the standard test of a move generator
//! (chessprogramming wiki, "Perft").

use super::moves::Move;
use super::position::Position;

/// The number of leaf nodes at `depth` plies below `pos`, counting the legal moves at the last ply instead of
/// making them (bulk counting). `perft(pos, 0)` is 1.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return pos.count_legal_moves();
    }
    let moves = pos.legal_moves();
    let mut nodes = 0;
    for &m in &moves {
        let undo = pos.make_move(m);
        nodes += perft(pos, depth - 1);
        pos.unmake_move(m, &undo);
    }
    nodes
}

/// Perft split by root move: each legal move with the leaf count below it at `depth - 1`, in generation order.
/// `depth` must be at least 1.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    let moves = pos.legal_moves();
    let mut out = Vec::with_capacity(moves.len());
    for &m in &moves {
        let undo = pos.make_move(m);
        out.push((m, perft(pos, depth.saturating_sub(1))));
        pos.unmake_move(m, &undo);
    }
    out
}

/// Perft split over root moves with rayon (each root move's subtree on its own task); equals [`perft`].
pub fn perft_parallel(pos: &Position, depth: u32) -> u64 {
    perft_split(pos, depth, None)
}

/// A shared transposition table for perft: (key, depth) -> leaf count, lockless (each entry stores the key
/// xor-ed with its data, so a torn write from another thread reads as a miss; Hyatt and Mann, "A lockless
/// transposition table implementation for parallel search", ICGA Journal 2002).
pub struct PerftTable {
    entries: Vec<[std::sync::atomic::AtomicU64; 2]>,
    mask: usize,
}

impl PerftTable {
    /// A table of about `mb` mebibytes (rounded down to a power of two entries of 16 bytes; at least 1024).
    pub fn new(mb: usize) -> PerftTable {
        let wanted = (mb.max(1) << 20) / 16;
        let n = (wanted.next_power_of_two() / if wanted.is_power_of_two() { 1 } else { 2 }).max(1024);
        let entries =
            (0..n).map(|_| [std::sync::atomic::AtomicU64::new(0), std::sync::atomic::AtomicU64::new(0)]).collect();
        PerftTable { entries, mask: n - 1 }
    }

    fn probe(&self, key: u64, depth: u32) -> Option<u64> {
        use std::sync::atomic::Ordering::Relaxed;
        let e = &self.entries[key as usize & self.mask];
        let (check, data) = (e[0].load(Relaxed), e[1].load(Relaxed));
        (check ^ data == key && data & 0xFF == u64::from(depth)).then_some(data >> 8)
    }

    fn store(&self, key: u64, depth: u32, count: u64) {
        use std::sync::atomic::Ordering::Relaxed;
        let data = count << 8 | u64::from(depth & 0xFF);
        let e = &self.entries[key as usize & self.mask];
        e[0].store(key ^ data, Relaxed);
        e[1].store(data, Relaxed);
    }
}

/// [`perft`] with a shared [`PerftTable`]: subtrees already counted at the same depth are looked up.
/// Counts up to 2^56 per entry.
pub fn perft_hashed(pos: &mut Position, depth: u32, table: &PerftTable) -> u64 {
    if depth <= 1 {
        return perft(pos, depth);
    }
    if let Some(n) = table.probe(pos.key(), depth) {
        return n;
    }
    let mut nodes = 0;
    for &m in &pos.legal_moves() {
        let undo = pos.make_move(m);
        nodes += perft_hashed(pos, depth - 1, table);
        pos.unmake_move(m, &undo);
    }
    table.store(pos.key(), depth, nodes);
    nodes
}

/// Perft split over root moves with rayon, optionally with a shared table; equals [`perft`].
pub fn perft_split(pos: &Position, depth: u32, table: Option<&PerftTable>) -> u64 {
    use rayon::prelude::*;
    let count = |p: &mut Position, d: u32| match table {
        Some(t) => perft_hashed(p, d, t),
        None => perft(p, d),
    };
    if depth <= 2 {
        return count(&mut pos.clone(), depth);
    }
    pos.legal_moves()
        .as_slice()
        .par_iter()
        .map(|&m| {
            let mut p = pos.clone();
            p.make_move(m);
            count(&mut p, depth - 1)
        })
        .sum()
}

/// Perft that checks [`Position::is_consistent`] and exact restoration after every make and unmake, and
/// returns the leaf count; panics with the position on the first inconsistency (a test helper, slow).
pub fn perft_checked(pos: &mut Position, depth: u32) -> u64 {
    assert!(pos.is_consistent(), "inconsistent position {pos:?}");
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    for &m in &pos.legal_moves() {
        let before = pos.clone();
        let undo = pos.make_move(m);
        nodes += perft_checked(pos, depth - 1);
        pos.unmake_move(m, &undo);
        assert!(*pos == before, "unmake of {m:?} did not restore the position");
    }
    nodes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(fen: &str, depth: u32) -> u64 {
        perft(&mut Position::from_fen(fen).expect("valid test FEN"), depth)
    }

    #[test]
    fn known_counts() {
        // Source: chessprogramming wiki, "Perft Results".
        assert_eq!(count("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 4), 197_281);
        assert_eq!(count("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3), 97_862);
        assert_eq!(count("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5), 674_624);
        assert_eq!(count("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 4), 422_333);
        assert_eq!(count("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 3), 62_379);
        assert_eq!(count("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 3), 89_890);
    }

    #[test]
    fn hashed_and_split_perft_equal_plain() {
        let table = PerftTable::new(4);
        for (fen, depth, expected) in [
            ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 4, 4_085_603),
            ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5, 674_624),
        ] {
            let pos = Position::from_fen(fen).unwrap();
            assert_eq!(perft_hashed(&mut pos.clone(), depth, &table), expected);
            assert_eq!(perft_split(&pos, depth, Some(&table)), expected);
            assert_eq!(perft_split(&pos, depth, None), expected);
        }
    }

    #[test]
    fn checked_perft_restores_everything() {
        let mut pos = Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .expect("Kiwipete");
        assert_eq!(perft_checked(&mut pos, 3), 97_862);
    }
}
