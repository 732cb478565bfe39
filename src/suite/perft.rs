//! What perft needs from a game, and the parts of the perft driver that are the same for every game: the split
//! over root moves with rayon and the shared transposition table.
//!
//! [`PerftGame`] is implemented for [`crate::chess::Position`], [`crate::xiangqi::Position`] and
//! [`Checkers`] (a [`crate::checkers::Position`] whose rules and board size are fixed by the type). Each game
//! keeps its own perft (`chess::perft::perft`, `xiangqi::perft::perft`, `checkers::perft::perft`, with bulk
//! counting at the last ply) and the
//! trait calls it, so a game's hot path is compiled exactly as without the trait; the driver (`arbiter perft`,
//! [`super::compare`]) is written once over the trait.

use crate::checkers;
use crate::chess;
use crate::xiangqi;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// A game position that `arbiter perft` can count, divide, set up from FEN and compare with a UCI engine.
pub trait PerftGame: Clone + Send + Sync + 'static {
    /// A move.
    type Move: Copy + Send + Sync;
    /// What unmaking a move needs.
    type Undo;
    /// A list of legal moves.
    type Moves: AsRef<[Self::Move]>;

    /// The game's name as `--game` spells it.
    const NAME: &'static str;

    /// Whether a suite line's position is one whitespace-free field (the PDN FEN of checkers) rather than the
    /// four EPD fields of chess and Xiangqi FEN.
    const ONE_FIELD_FEN: bool = false;

    /// The start position's FEN.
    fn start_fen() -> String;

    /// Reads a FEN; `chess960` reads chess castling rights as Chess960 (games without castling ignore it).
    ///
    /// # Errors
    /// The reason the FEN cannot be read, as text.
    fn from_fen(fen: &str, chess960: bool) -> Result<Self, String>;

    /// The position as FEN.
    fn to_fen(&self) -> String;

    /// The Zobrist key (for the perft transposition table).
    fn key(&self) -> u64;

    /// The legal moves.
    fn legal_moves(&self) -> Self::Moves;

    /// Plays a legal move (no checks: the hot path).
    fn make_move(&mut self, m: Self::Move) -> Self::Undo;

    /// Takes back the last move made.
    fn unmake_move(&mut self, m: Self::Move, undo: &Self::Undo);

    /// The game's own perft: leaf nodes at `depth` plies (1 at depth 0); the position is restored.
    fn perft(&mut self, depth: u32) -> u64;

    /// Perft split by root move: each legal move with the leaf count below it at `depth - 1`, in generation
    /// order (`depth` at least 1; at 0 every move counts 1). The position is restored.
    fn divide(&mut self, depth: u32) -> Vec<(Self::Move, u64)> {
        let moves = self.legal_moves();
        moves
            .as_ref()
            .iter()
            .map(|&m| {
                let undo = self.make_move(m);
                let nodes = self.perft(depth.saturating_sub(1));
                self.unmake_move(m, &undo);
                (m, nodes)
            })
            .collect()
    }

    /// A move as the game's move text (UCI for chess, `h2e2` for Xiangqi).
    fn move_text(&self, m: Self::Move) -> String;

    /// The legal move written as move text.
    ///
    /// # Errors
    /// Why the text is not a legal move here.
    fn parse_move(&self, text: &str) -> Result<Self::Move, String>;

    /// The UCI options a `go perft` engine needs for this game (`UCI_Chess960`, `UCI_Variant`).
    fn uci_options(chess960: bool) -> Vec<(&'static str, &'static str)>;

    /// Our move text as a UCI engine for this game writes it (the same text unless the notations differ).
    fn engine_move_text(ours: &str) -> String {
        ours.to_string()
    }

    /// A UCI engine's move text as ours; `None` when it is not a move in the engine's notation.
    fn move_text_from_engine(theirs: &str) -> Option<String> {
        Some(theirs.to_string())
    }
}

impl PerftGame for chess::Position {
    type Move = chess::Move;
    type Undo = chess::Undo;
    type Moves = chess::MoveList;
    const NAME: &'static str = "chess";

    fn start_fen() -> String {
        chess::Position::startpos().to_fen()
    }

    fn from_fen(fen: &str, chess960: bool) -> Result<Self, String> {
        chess::Position::from_fen_variant(fen, chess960).map_err(|e| e.to_string())
    }

    fn to_fen(&self) -> String {
        chess::Position::to_fen(self)
    }

    fn key(&self) -> u64 {
        chess::Position::key(self)
    }

    fn legal_moves(&self) -> chess::MoveList {
        chess::Position::legal_moves(self)
    }

    #[inline]
    fn make_move(&mut self, m: chess::Move) -> chess::Undo {
        chess::Position::make_move(self, m)
    }

    #[inline]
    fn unmake_move(&mut self, m: chess::Move, undo: &chess::Undo) {
        chess::Position::unmake_move(self, m, undo)
    }

    fn perft(&mut self, depth: u32) -> u64 {
        chess::perft::perft(self, depth)
    }

    fn move_text(&self, m: chess::Move) -> String {
        m.to_uci(self.is_chess960())
    }

    fn parse_move(&self, text: &str) -> Result<chess::Move, String> {
        crate::notation::san::parse_uci(self, text).map_err(|e| e.to_string())
    }

    fn uci_options(chess960: bool) -> Vec<(&'static str, &'static str)> {
        if chess960 { vec![("UCI_Chess960", "true")] } else { Vec::new() }
    }
}

impl PerftGame for xiangqi::Position {
    type Move = xiangqi::Move;
    type Undo = xiangqi::Undo;
    type Moves = xiangqi::MoveList;
    const NAME: &'static str = "xiangqi";

    fn start_fen() -> String {
        xiangqi::START_FEN.to_string()
    }

    fn from_fen(fen: &str, _chess960: bool) -> Result<Self, String> {
        xiangqi::Position::from_fen(fen).map_err(|e| e.to_string())
    }

    fn to_fen(&self) -> String {
        xiangqi::Position::to_fen(self)
    }

    fn key(&self) -> u64 {
        xiangqi::Position::key(self)
    }

    fn legal_moves(&self) -> xiangqi::MoveList {
        xiangqi::Position::legal_moves(self)
    }

    #[inline]
    fn make_move(&mut self, m: xiangqi::Move) -> xiangqi::Undo {
        xiangqi::Position::make_move(self, m)
    }

    #[inline]
    fn unmake_move(&mut self, m: xiangqi::Move, undo: &xiangqi::Undo) {
        xiangqi::Position::unmake_move(self, m, undo)
    }

    fn perft(&mut self, depth: u32) -> u64 {
        xiangqi::perft::perft(self, depth)
    }

    fn move_text(&self, m: xiangqi::Move) -> String {
        m.to_text()
    }

    fn parse_move(&self, text: &str) -> Result<xiangqi::Move, String> {
        xiangqi::Position::parse_move(self, text).map_err(|e| e.to_string())
    }

    /// Fairy-Stockfish plays Xiangqi after `setoption name UCI_Variant value xiangqi`.
    fn uci_options(_chess960: bool) -> Vec<(&'static str, &'static str)> {
        vec![("UCI_Variant", "xiangqi")]
    }

    /// Fairy-Stockfish numbers the ranks 1..10 (`h3e3`), we 0..9 (`h2e2`).
    fn engine_move_text(ours: &str) -> String {
        xiangqi::to_ranks_1_to_10(ours).unwrap_or_else(|| ours.to_string())
    }

    fn move_text_from_engine(theirs: &str) -> Option<String> {
        xiangqi::to_ranks_0_to_9(theirs)
    }
}

/// A checkers position for the perft driver: English checkers when `ENGLISH`, else Russian draughts, on the
/// `SIZE` x `SIZE` board (4, 6 or 8; English 8 only), so that [`PerftGame::from_fen`] and
/// [`PerftGame::start_fen`] know the rules and the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checkers<const ENGLISH: bool, const SIZE: u8>(pub checkers::Position);

impl<const ENGLISH: bool, const SIZE: u8> Checkers<ENGLISH, SIZE> {
    const RULES: checkers::Rules = if ENGLISH { checkers::Rules::English } else { checkers::Rules::Russian };
}

impl<const ENGLISH: bool, const SIZE: u8> PerftGame for Checkers<ENGLISH, SIZE> {
    type Move = checkers::Move;
    type Undo = checkers::Position;
    type Moves = Vec<checkers::Move>;
    const NAME: &'static str = if ENGLISH { "english" } else { "russian" };
    const ONE_FIELD_FEN: bool = true;

    fn start_fen() -> String {
        checkers::Position::start(Self::RULES, SIZE).map(|p| p.to_fen()).unwrap_or_default()
    }

    fn from_fen(fen: &str, _chess960: bool) -> Result<Self, String> {
        checkers::Position::from_fen(Self::RULES, SIZE, fen).map(Checkers).map_err(|e| e.to_string())
    }

    fn to_fen(&self) -> String {
        self.0.to_fen()
    }

    fn key(&self) -> u64 {
        self.0.key()
    }

    fn legal_moves(&self) -> Vec<checkers::Move> {
        self.0.legal_moves()
    }

    #[inline]
    fn make_move(&mut self, m: checkers::Move) -> checkers::Position {
        self.0.make_move(&m)
    }

    #[inline]
    fn unmake_move(&mut self, _m: checkers::Move, undo: &checkers::Position) {
        self.0.unmake_move(undo)
    }

    fn perft(&mut self, depth: u32) -> u64 {
        checkers::perft::perft(&self.0, depth)
    }

    fn move_text(&self, m: checkers::Move) -> String {
        self.0.move_text(&m)
    }

    fn parse_move(&self, text: &str) -> Result<checkers::Move, String> {
        self.0.parse_move(text).map_err(|e| e.to_string())
    }

    /// No UCI engine plays checkers (`arbiter perft --compare-with` refuses checkers).
    fn uci_options(_chess960: bool) -> Vec<(&'static str, &'static str)> {
        Vec::new()
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
pub fn perft_hashed<G: PerftGame>(pos: &mut G, depth: u32, table: &PerftTable) -> u64 {
    if depth <= 1 {
        return pos.perft(depth);
    }
    if let Some(n) = table.probe(pos.key(), depth) {
        return n;
    }
    let mut nodes = 0;
    for &m in pos.legal_moves().as_ref() {
        let undo = pos.make_move(m);
        nodes += perft_hashed(pos, depth - 1, table);
        pos.unmake_move(m, &undo);
    }
    table.store(pos.key(), depth, nodes);
    nodes
}

/// Perft split over root moves with rayon (each root move's subtree on its own task), optionally with a shared
/// table; equals the game's perft.
pub fn perft_split<G: PerftGame>(pos: &G, depth: u32, table: Option<&PerftTable>) -> u64 {
    let count = |p: &mut G, d: u32| match table {
        Some(t) => perft_hashed(p, d, t),
        None => p.perft(d),
    };
    if depth <= 2 {
        return count(&mut pos.clone(), depth);
    }
    pos.legal_moves()
        .as_ref()
        .par_iter()
        .map(|&m| {
            let mut p = pos.clone();
            p.make_move(m);
            count(&mut p, depth - 1)
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashed_and_split_perft_equal_plain() {
        let table = PerftTable::new(4);
        for (fen, depth, expected) in [
            ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 4, 4_085_603),
            ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5, 674_624),
        ] {
            let pos = chess::Position::from_fen(fen).unwrap();
            assert_eq!(perft_hashed(&mut pos.clone(), depth, &table), expected);
            assert_eq!(perft_split(&pos, depth, Some(&table)), expected);
            assert_eq!(perft_split(&pos, depth, None), expected);
        }
        // Source: ../shared/suites/xiangqi/xiangqi_perft.epd lines 1 and 3.
        let table = PerftTable::new(4);
        for (fen, depth, expected) in [
            (xiangqi::START_FEN, 4, 3_290_240),
            ("1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1", 4, 326_201),
        ] {
            let pos = xiangqi::Position::from_fen(fen).unwrap();
            assert_eq!(perft_hashed(&mut pos.clone(), depth, &table), expected);
            assert_eq!(perft_split(&pos, depth, Some(&table)), expected);
            assert_eq!(perft_split(&pos, depth, None), expected);
        }
        // Source: ../shared/suites/draughts/russian_draughts_initial.keep_duplicates.epd, english_... (dctl).
        let table = PerftTable::new(4);
        let russian = Checkers::<false, 8>::from_fen(&Checkers::<false, 8>::start_fen(), false).unwrap();
        assert_eq!(perft_hashed(&mut russian.clone(), 7, &table), 190_146);
        assert_eq!(perft_split(&russian, 7, None), 190_146);
        let english = Checkers::<true, 8>::from_fen(&Checkers::<true, 8>::start_fen(), false).unwrap();
        assert_eq!(perft_split(&english, 7, Some(&PerftTable::new(4))), 179_740);
    }
}
