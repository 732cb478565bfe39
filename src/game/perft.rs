//! The perft driver, written once over [`Rules`]: the split over root moves with rayon, the shared
//! transposition table, and divide. Each game's [`Rules::perft`] (bulk counting at the last ply) is what the
//! driver calls at its leaves, so a game's hot path is compiled exactly as without the trait.

use super::Rules;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// The deepest perft Arbiter accepts, in plies (counts beyond about 15 plies are out of reach anyway; the cap
/// keeps a typo from exhausting the stack).
pub const MAX_PERFT_DEPTH: u32 = 32;

/// Perft without bulk counting that checks every node, the test helper of every game (slow): `check` runs on
/// each position reached (a game's own consistency checks), the bulk count [`Rules::count_moves`] must equal
/// the moves generated, and [`Rules::unmake_move`] must restore the position and its key exactly; returns the
/// leaf count.
///
/// # Panics
/// At the first difference, naming the position (FEN) and the move.
pub fn perft_checked<G: Rules>(pos: &mut G::Position, depth: u32, check: &impl Fn(&G::Position)) -> u64 {
    check(pos);
    if depth == 0 {
        return 1;
    }
    let moves = G::generate(pos);
    let moves = moves.as_ref();
    assert_eq!(moves.len() as u64, G::count_moves(pos), "bulk count differs at {}", G::position_fen(pos));
    let mut nodes = 0;
    for &m in moves {
        let before = pos.clone();
        let text = G::move_text_at(pos, m);
        let undo = G::make_move(pos, m);
        nodes += perft_checked::<G>(pos, depth - 1, check);
        G::unmake_move(pos, m, &undo);
        assert!(
            *pos == before && G::key(pos) == G::key(&before),
            "unmake of {text} did not restore {}",
            G::position_fen(&before)
        );
    }
    nodes
}

/// The number of leaf nodes at `depth` plies below `pos`, counting the legal moves at the last ply instead of
/// making them (bulk counting, [`Rules::count_moves`]); `perft(pos, 0)` is 1. The position is restored. This is
/// the loop every game's perft runs (chessprogramming wiki, "Perft"); monomorphised per game, it compiles to
/// the game's own make/unmake and move generator.
/// The loop runs on the CPU's fastest code path ([`crate::cpu`]): the same nodes on every path.
#[inline]
pub fn perft<G: Rules>(pos: &mut G::Position, depth: u32) -> u64 {
    crate::cpu::dispatch!(perft_v3::<G>, perft_generic::<G>, (pos, depth))
}

crate::cpu::versions! {
    fn perft_v3, perft_generic <G: Rules> (pos: &mut G::Position, depth: u32) -> u64 as recurse {
        if depth == 0 {
            return 1;
        }
        if depth == 1 {
            return G::count_moves(pos);
        }
        let moves = G::generate_in_place(pos);
        let mut nodes = 0;
        for &m in moves.as_ref() {
            let undo = G::make_move(pos, m);
            nodes += recurse::<G>(pos, depth - 1);
            G::unmake_move(pos, m, &undo);
        }
        nodes
    }
}

/// A shared transposition table for perft: (key, depth) -> leaf count, lockless (each entry stores the key
/// xor-ed with its data, so a torn write from another thread reads as a miss; Hyatt and Mann, "A lockless
/// transposition table implementation for parallel search", ICGA Journal 2002).
pub struct PerftTable {
    entries: Vec<[AtomicU64; 2]>,
    mask: usize,
}

impl PerftTable {
    /// A table of about `mb` mebibytes (rounded down to a power of two entries of 16 bytes; at least 1024).
    ///
    /// # Panics
    /// When the memory cannot be had (see [`PerftTable::try_new`]).
    pub fn new(mb: usize) -> PerftTable {
        PerftTable::try_new(mb).unwrap_or_else(|| panic!("cannot allocate a perft table of {mb} MiB"))
    }

    /// [`PerftTable::new`], or `None` when the memory cannot be had (instead of aborting the process).
    pub fn try_new(mb: usize) -> Option<PerftTable> {
        let wanted = mb.max(1).checked_mul(1 << 20)? / 16;
        let n = (wanted.next_power_of_two() / if wanted.is_power_of_two() { 1 } else { 2 }).max(1024);
        let mut entries = Vec::new();
        entries.try_reserve_exact(n).ok()?;
        entries.extend((0..n).map(|_| [AtomicU64::new(0), AtomicU64::new(0)]));
        Some(PerftTable { entries, mask: n - 1 })
    }

    fn probe(&self, key: u64, depth: u32) -> Option<u64> {
        let e = &self.entries[key as usize & self.mask];
        let (check, data) = (e[0].load(Relaxed), e[1].load(Relaxed));
        (check ^ data == key && data & 0xFF == u64::from(depth)).then_some(data >> 8)
    }

    fn store(&self, key: u64, depth: u32, count: u64) {
        let data = count << 8 | u64::from(depth & 0xFF);
        let e = &self.entries[key as usize & self.mask];
        e[0].store(key ^ data, Relaxed);
        e[1].store(data, Relaxed);
    }
}

/// The game's perft with a shared [`PerftTable`]: subtrees already counted at the same depth are looked up.
/// Counts up to 2^56 per entry.
pub fn perft_hashed<G: Rules>(pos: &mut G::Position, depth: u32, table: &PerftTable) -> u64 {
    if depth <= 1 {
        return G::perft(pos, depth);
    }
    if let Some(n) = table.probe(G::key(pos), depth) {
        return n;
    }
    let mut nodes = 0;
    for &m in G::generate(pos).as_ref() {
        let undo = G::make_move(pos, m);
        nodes += perft_hashed::<G>(pos, depth - 1, table);
        G::unmake_move(pos, m, &undo);
    }
    table.store(G::key(pos), depth, nodes);
    nodes
}

/// Perft split over root moves with rayon (each root move's subtree on its own task), optionally with a shared
/// table; equals the game's perft.
pub fn perft_split<G: Rules>(pos: &G::Position, depth: u32, table: Option<&PerftTable>) -> u64 {
    let count = |p: &mut G::Position, d: u32| match table {
        Some(t) => perft_hashed::<G>(p, d, t),
        None => G::perft(p, d),
    };
    if depth <= 2 {
        return count(&mut pos.clone(), depth);
    }
    G::generate(pos)
        .as_ref()
        .par_iter()
        .map(|&m| {
            let mut p = pos.clone();
            G::make_move(&mut p, m);
            count(&mut p, depth - 1)
        })
        .sum()
}

/// Perft split by root move: each legal move with the leaf count below it at `depth - 1`, in generation order
/// (`depth` at least 1; at 0 every move counts 1). The position is restored.
pub fn divide<G: Rules>(pos: &mut G::Position, depth: u32) -> Vec<(G::Move, u64)> {
    let moves = G::generate(pos);
    moves
        .as_ref()
        .iter()
        .map(|&m| {
            let undo = G::make_move(pos, m);
            let nodes = G::perft(pos, depth.saturating_sub(1));
            G::unmake_move(pos, m, &undo);
            (m, nodes)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{checkers, chess, xiangqi};

    #[test]
    fn hashed_and_split_perft_equal_plain() {
        let table = PerftTable::new(4);
        for (fen, depth, expected) in [
            ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 4, 4_085_603),
            ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5, 674_624),
        ] {
            type G = chess::ChessGame;
            let pos = chess::Position::from_fen(fen).unwrap();
            assert_eq!(perft_hashed::<G>(&mut pos.clone(), depth, &table), expected);
            assert_eq!(perft_split::<G>(&pos, depth, Some(&table)), expected);
            assert_eq!(perft_split::<G>(&pos, depth, None), expected);
        }
        // Source: ../shared/suites/xiangqi/xiangqi_perft.epd lines 1 and 3.
        let table = PerftTable::new(4);
        for (fen, depth, expected) in [
            (xiangqi::START_FEN, 4, 3_290_240),
            ("1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1", 4, 326_201),
        ] {
            type G = xiangqi::XiangqiGame;
            let pos = xiangqi::Position::from_fen(fen).unwrap();
            assert_eq!(perft_hashed::<G>(&mut pos.clone(), depth, &table), expected);
            assert_eq!(perft_split::<G>(&pos, depth, Some(&table)), expected);
            assert_eq!(perft_split::<G>(&pos, depth, None), expected);
        }
        // Source: ../shared/suites/draughts/russian_draughts_initial.keep_duplicates.epd, english_... (dctl).
        let table = PerftTable::new(4);
        let russian = checkers::Russian::read_fen(checkers::Russian::START_FEN, false).unwrap();
        assert_eq!(perft_hashed::<checkers::Russian>(&mut russian.clone(), 7, &table), 190_146);
        assert_eq!(perft_split::<checkers::Russian>(&russian, 7, None), 190_146);
        let english = checkers::English::read_fen(checkers::English::START_FEN, false).unwrap();
        assert_eq!(perft_split::<checkers::English>(&english, 7, Some(&PerftTable::new(4))), 179_740);
    }

    /// Both code paths' copies of the loop ([`crate::cpu`]) count the same, whatever path this CPU picks.
    #[test]
    fn both_code_paths_count_the_same() {
        let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        let mut pos = chess::Position::from_fen(kiwipete).unwrap();
        assert_eq!(perft_generic::<chess::ChessGame>(&mut pos, 3), 97_862);
        assert_eq!(perft::<chess::ChessGame>(&mut pos, 3), 97_862);
        #[cfg(target_arch = "x86_64")]
        if crate::cpu::path() == crate::cpu::Path::X86_64V3 {
            // SAFETY: the path is x86-64-v3 only where the CPU has each of its features.
            assert_eq!(unsafe { perft_v3::<chess::ChessGame>(&mut pos, 3) }, 97_862);
        }
        let mut pos = xiangqi::Position::from_fen(xiangqi::START_FEN).unwrap();
        assert_eq!(perft_generic::<xiangqi::XiangqiGame>(&mut pos, 3), 79_666);
        assert_eq!(perft::<xiangqi::XiangqiGame>(&mut pos, 3), 79_666);
    }
}
