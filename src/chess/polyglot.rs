//! The Polyglot opening-book format, as its documentation defines it (<http://hgm.nubati.net/book_format.html>,
//! read with the readers of cutechess-cli, `projects/lib/src/polyglotbook.cpp`, and python-chess,
//! `chess/polyglot.py`): the position key, the move encoding and the 16-byte entries. No files here: the
//! runner reads and writes them.
//!
//! - Key: the XOR of `RANDOM64[64 * kind + 8 * rank + file]` for every piece (kind: black pawn 0, white pawn
//!   1, black knight 2, ... white king 11), `RANDOM64[768 + i]` for each castling right (White h-side,
//!   White a-side, Black h-side, Black a-side), `RANDOM64[772 + file]` for an en-passant square only when a
//!   pawn of the side to move stands beside the pawn that just advanced two squares, and `RANDOM64[780]` when
//!   White is to move.
//! - Entry: key (8 bytes), move (2), weight (2), learn (4), all big-endian; a book is sorted by key.
//! - Move: to-file bits 0-2, to-rank 3-5, from-file 6-8, from-rank 9-11, promotion 12-14 (none, knight,
//!   bishop, rook, queen); castling is written as the king taking its own rook (`e1h1`), as Arbiter's own
//!   castling moves are.

use super::polyglot_keys::RANDOM64;
use super::{Color, Move, MoveKind, PieceType, Position, Square, attacks};

/// The Polyglot key of `pos`.
pub fn key(pos: &Position) -> u64 {
    let mut key = 0u64;
    for index in 0..64u8 {
        let sq = Square::new(index);
        if let Some(piece) = pos.piece_on(sq) {
            let kind = 2 * piece.kind.index() + usize::from(piece.color == Color::White);
            key ^= RANDOM64[64 * kind + usize::from(index)];
        }
    }
    let rights = pos.castling_rights();
    for (bit, offset) in [(0, 0), (1, 1), (2, 2), (3, 3)] {
        if rights & (1 << bit) != 0 {
            key ^= RANDOM64[768 + offset];
        }
    }
    if let Some(ep) = pos.ep_square() {
        let us = pos.side_to_move();
        // A pawn of the side to move that attacks the en-passant square stands beside the pawn that advanced.
        let capturers = attacks::pawn(us.flip(), ep) & pos.pieces_of(us, PieceType::Pawn);
        if capturers.0 != 0 {
            key ^= RANDOM64[772 + ep.index() % 8];
        }
    }
    if pos.side_to_move() == Color::White {
        key ^= RANDOM64[780];
    }
    key
}

/// The size of one book entry in bytes.
pub const ENTRY_BYTES: usize = 16;

/// One book entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Entry {
    /// The position's key.
    pub key: u64,
    /// The move, Polyglot-encoded ([`encode_move`]).
    pub raw_move: u16,
    /// The weight.
    pub weight: u16,
    /// The learn field (unused by readers; written as 0).
    pub learn: u32,
}

impl Entry {
    /// The entry of 16 big-endian bytes.
    pub fn from_bytes(bytes: &[u8; ENTRY_BYTES]) -> Entry {
        let be = |range: std::ops::Range<usize>| bytes[range].iter().fold(0u64, |acc, &b| acc << 8 | u64::from(b));
        Entry { key: be(0..8), raw_move: be(8..10) as u16, weight: be(10..12) as u16, learn: be(12..16) as u32 }
    }

    /// The 16 big-endian bytes of the entry.
    pub fn to_bytes(self) -> [u8; ENTRY_BYTES] {
        let mut out = [0u8; ENTRY_BYTES];
        out[0..8].copy_from_slice(&self.key.to_be_bytes());
        out[8..10].copy_from_slice(&self.raw_move.to_be_bytes());
        out[10..12].copy_from_slice(&self.weight.to_be_bytes());
        out[12..16].copy_from_slice(&self.learn.to_be_bytes());
        out
    }
}

/// The Polyglot encoding of `m` (castling as the king taking its rook, as Arbiter stores it).
pub fn encode_move(m: Move) -> u16 {
    let (from, to) = (m.from().index() as u16, m.to().index() as u16);
    let promotion = match m.promotion_piece() {
        Some(PieceType::Knight) => 1,
        Some(PieceType::Bishop) => 2,
        Some(PieceType::Rook) => 3,
        Some(PieceType::Queen) => 4,
        _ => 0,
    };
    (to % 8) | (to / 8) << 3 | (from % 8) << 6 | (from / 8) << 9 | promotion << 12
}

/// The legal move of `pos` that `raw` encodes; `None` when no legal move has that encoding (a corrupt entry,
/// or a key that belongs to another position).
pub fn decode_move(pos: &Position, raw: u16) -> Option<Move> {
    pos.legal_moves().as_slice().iter().copied().find(|&m| encode_move(m) == raw)
}

/// A move's text in the Polyglot encoding, for messages: `e2e4`, `e7e8q`, `e1h1` (castling).
pub fn raw_move_text(raw: u16) -> String {
    let square = |file: u16, rank: u16| format!("{}{}", char::from(b'a' + file as u8), rank + 1);
    let to = square(raw & 7, (raw >> 3) & 7);
    let from = square((raw >> 6) & 7, (raw >> 9) & 7);
    let promotion = ["", "n", "b", "r", "q", "?", "?", "?"][usize::from((raw >> 12) & 7)];
    format!("{from}{to}{promotion}")
}

/// Whether `m` is a castling move (for a reader that shows it as `e1g1`).
pub fn is_castling(m: Move) -> bool {
    m.kind() == MoveKind::Castling
}

/// Why bytes are not a Polyglot book.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BookError {
    /// The size is not a whole number of entries.
    #[error("{size} bytes, not a whole number of 16-byte Polyglot entries (truncated, or not a Polyglot book)")]
    Size {
        /// The size in bytes.
        size: usize,
    },
    /// An entry's key is smaller than the one before it: readers find moves by binary search over sorted keys.
    #[error(
        "entry {index} (byte {}) has the key {key:016x}, smaller than the key {previous:016x} before it: the \
         entries are not sorted by key (not a Polyglot book, or a damaged one)",
        index * ENTRY_BYTES
    )]
    Unsorted {
        /// The 0-based entry.
        index: usize,
        /// Its key.
        key: u64,
        /// The key before it.
        previous: u64,
    },
    /// No entries.
    #[error("no entries")]
    Empty,
    /// A book move that is not legal in the position of its key.
    #[error(
        "the book move {} (entry {index}) is not legal in {fen}: a damaged book, or a key of another position",
        raw_move_text(*.raw_move)
    )]
    IllegalMove {
        /// The position, as FEN.
        fen: String,
        /// The move as stored.
        raw_move: u16,
        /// The 0-based entry.
        index: usize,
    },
}

/// A Polyglot book read from its bytes: every entry, checked to be sorted by key.
#[derive(Clone, Debug)]
pub struct Book {
    entries: Vec<Entry>,
}

impl Book {
    /// Reads a book.
    ///
    /// # Errors
    /// A size that is not a multiple of 16, keys out of order, or no entry.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        if !bytes.len().is_multiple_of(ENTRY_BYTES) {
            return Err(BookError::Size { size: bytes.len() });
        }
        let entries: Vec<Entry> = bytes
            .chunks_exact(ENTRY_BYTES)
            .map(|chunk| Entry::from_bytes(chunk.try_into().expect("16-byte chunks")))
            .collect();
        if entries.is_empty() {
            return Err(BookError::Empty);
        }
        for (index, pair) in entries.windows(2).enumerate() {
            if pair[1].key < pair[0].key {
                return Err(BookError::Unsorted { index: index + 1, key: pair[1].key, previous: pair[0].key });
            }
        }
        Ok(Book { entries })
    }

    /// The book of `entries` (sorted by key, then by weight, highest first, as `polyglot make-book` writes).
    pub fn from_entries(mut entries: Vec<Entry>) -> Book {
        entries.sort_by(|a, b| a.key.cmp(&b.key).then(b.weight.cmp(&a.weight)));
        Book { entries }
    }

    /// The bytes of the book.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.entries.iter().flat_map(|e| e.to_bytes()).collect()
    }

    /// Every entry, in file order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The entries of `key`, in file order, with the index of the first.
    pub fn find(&self, key: u64) -> (usize, &[Entry]) {
        let first = self.entries.partition_point(|e| e.key < key);
        let end = first + self.entries[first..].partition_point(|e| e.key == key);
        (first, &self.entries[first..end])
    }

    /// The book moves of `pos` with their weights, in file order.
    ///
    /// # Errors
    /// [`BookError::IllegalMove`] for an entry whose move is not legal there.
    pub fn moves(&self, pos: &Position) -> Result<Vec<(Move, u16)>, BookError> {
        let (first, entries) = self.find(key(pos));
        entries
            .iter()
            .enumerate()
            .map(|(i, e)| match decode_move(pos, e.raw_move) {
                Some(m) => Ok((m, e.weight)),
                None => Err(BookError::IllegalMove { fen: pos.to_fen(), raw_move: e.raw_move, index: first + i }),
            })
            .collect()
    }

    /// The move cutechess-cli's weighted choice takes among `moves` (`OpeningBook::move` in
    /// `projects/lib/src/openingbook.cpp`): with `total` the sum of the weights and `pick = random % total`,
    /// the first move whose running sum of weights exceeds `pick`; `None` when the weights sum to 0. The moves
    /// may be decoded ([`Move`]) or raw ([`Entry::raw_move`]).
    pub fn choose<M: Copy>(moves: &[(M, u16)], random: u64) -> Option<M> {
        let total: u64 = moves.iter().map(|&(_, w)| u64::from(w)).sum();
        if total == 0 {
            return None;
        }
        let pick = random % total;
        let mut sum = 0;
        moves
            .iter()
            .find(|&&(_, w)| {
                sum += u64::from(w);
                sum > pick
            })
            .map(|&(m, _)| m)
    }
}

/// One opening line drawn from `book` from `start`: at each position cutechess-cli's weighted choice
/// ([`Book::choose`]) with the random number of (`seed`, `line`, ply), for at most `depth` plies. The line ends
/// at a position without book moves (or whose weights sum to 0), and before a book move that would repeat a
/// position of the line or end the game (cutechess-cli leaves a repeating book move out, `ChessGame::bookMove`
/// in `projects/lib/src/chessgame.cpp`; a game must have a move left to play).
///
/// # Errors
/// [`BookError::IllegalMove`] for a book move that is not legal where the book gives it.
pub fn book_line(book: &Book, start: &Position, depth: usize, seed: u64, line: u64) -> Result<Vec<Move>, BookError> {
    let mut game = super::ChessGame::new(start.clone());
    let mut seen = vec![start.key()];
    for ply in 0..depth {
        let moves = book.moves(game.position())?;
        let random = splitmix(splitmix(splitmix(seed) ^ line) ^ ply as u64);
        let Some(m) = Book::choose(&moves, random) else { break };
        let mut next = game.clone();
        next.play(m);
        if seen.contains(&next.position().key()) || next.outcome().is_some() {
            break;
        }
        seen.push(next.position().key());
        game = next;
    }
    Ok(game.moves().to_vec())
}

/// SplitMix64 (Vigna): the random numbers of [`book_line`], the same on every platform and version.
pub fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::parse_uci;

    /// The key test vectors of the format's documentation (the section "Test"): positions after the moves.
    #[test]
    fn keys_match_the_documentation_test_vectors() {
        let vectors: [(&str, u64); 9] = [
            ("", 0x463b96181691fc9c),
            ("e2e4", 0x823c9b50fd114196),
            ("e2e4 d7d5", 0x0756b94461c50fb0),
            ("e2e4 d7d5 e4e5", 0x662fafb965db29d4),
            ("e2e4 d7d5 e4e5 f7f5", 0x22a48b5a8e47ff78),
            ("e2e4 d7d5 e4e5 f7f5 e1e2", 0x652a607ca3f242c1),
            ("e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", 0x00fdd303c946bdd9),
            ("a2a4 b7b5 h2h4 b5b4 c2c4", 0x3c8123ea7b067637),
            ("a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3", 0x5c3f9b829b279560),
        ];
        for (moves, want) in vectors {
            let mut pos = Position::startpos();
            for text in moves.split_whitespace() {
                let m = parse_uci(&pos, text).unwrap();
                pos.make_move(m);
            }
            assert_eq!(key(&pos), want, "after {moves:?}");
        }
    }

    #[test]
    fn moves_and_entries_round_trip() {
        let pos = Position::from_fen("r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        for m in pos.legal_moves().as_slice() {
            assert_eq!(decode_move(&pos, encode_move(*m)), Some(*m));
        }
        let castle = pos.legal_moves().as_slice().iter().copied().find(|&m| is_castling(m) && m.to().index() == 7);
        assert_eq!(raw_move_text(encode_move(castle.unwrap())), "e1h1");
        let entry = Entry { key: 0x0123_4567_89ab_cdef, raw_move: 0x0f1e, weight: 513, learn: 7 };
        assert_eq!(Entry::from_bytes(&entry.to_bytes()), entry);
        assert_eq!(decode_move(&pos, 0x0fff), None);
    }
}
