//! Polyglot books made from games, as Debian's `polyglot make-book -pgn FILE -bin BOOK [-max-ply N]
//! [-min-game N] [-uniform]` makes them (Fabien Letouzey's PolyGlot, `book_make.cpp`: `book_insert`,
//! `halve_stats`, `keep_entry`, `entry_score`, `key_compare`; docs/books.md lists the differences):
//!
//! - every move of every game up to `max_ply` plies counts for its position: `n += 1` and `sum += 2` for a
//!   move of the side that won the game, `1` for a draw (or an unfinished game, `*`), `0` for the loser;
//!   once a move's `n` reaches 16,384 every move of that position has `n` and `sum` halved (rounded up);
//! - a move is kept when `n >= min_game` and `sum > 0`; its weight is `sum` (1 with `uniform`);
//! - entries are sorted by key, then by weight, highest first.

use crate::chess::Position;
use crate::chess::polyglot::{Book, Entry, encode_move, key};
use crate::chess::{ChessGame, Move};
use std::collections::HashMap;

/// `polyglot make-book`'s default `-max-ply`.
pub const DEFAULT_MAX_PLY: usize = 1024;
/// `polyglot make-book`'s default `-min-game`.
pub const DEFAULT_MIN_GAME: u32 = 3;
/// The count at which a position's statistics are halved (`COUNT_MAX` in `book_make.cpp`).
const COUNT_MAX: u32 = 16_384;

/// What `polyglot make-book` takes besides the files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PolyglotOptions {
    /// Plies of each game counted (`-max-ply`).
    pub max_ply: usize,
    /// Games a move needs to be kept (`-min-game`).
    pub min_game: u32,
    /// Every kept move gets weight 1 (`-uniform`).
    pub uniform: bool,
}

impl Default for PolyglotOptions {
    fn default() -> PolyglotOptions {
        PolyglotOptions { max_ply: DEFAULT_MAX_PLY, min_game: DEFAULT_MIN_GAME, uniform: false }
    }
}

/// The moves of one position: `(move, n, sum)` in the order first seen.
type Stats = Vec<(u16, u32, u32)>;

/// A book being made.
#[derive(Debug, Default)]
pub struct PolyglotMaker {
    positions: HashMap<u64, Stats>,
    games: u64,
}

impl PolyglotMaker {
    /// An empty book.
    pub fn new() -> PolyglotMaker {
        PolyglotMaker::default()
    }

    /// Counts one game from `start` with `moves` (legal, as read) and its `result` (`1-0`, `0-1`, anything
    /// else a draw), up to `max_ply` plies.
    pub fn add_game(&mut self, start: &Position, moves: &[Move], result: &str, max_ply: usize) {
        let mut score: i32 = match result {
            "1-0" => 1,
            "0-1" => -1,
            _ => 0,
        };
        // The score of the side to move at the start: White's result flipped when Black moves first.
        if start.side_to_move() == crate::chess::Color::Black {
            score = -score;
        }
        let mut game = ChessGame::new(start.clone());
        for &m in moves.iter().take(max_ply) {
            let stats = self.positions.entry(key(game.position())).or_default();
            let raw = encode_move(m);
            let at = match stats.iter().position(|s| s.0 == raw) {
                Some(at) => at,
                None => {
                    stats.push((raw, 0, 0));
                    stats.len() - 1
                }
            };
            stats[at].1 += 1;
            stats[at].2 += (score + 1) as u32;
            if stats[at].1 >= COUNT_MAX {
                for s in stats.iter_mut() {
                    s.1 = s.1.div_ceil(2);
                    s.2 = s.2.div_ceil(2);
                }
            }
            if !game.play(m) {
                break;
            }
            score = -score;
        }
        self.games += 1;
    }

    /// The games counted.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// The book: the kept moves, sorted.
    pub fn book(&self, options: PolyglotOptions) -> Book {
        let mut entries = Vec::new();
        for (&key, stats) in &self.positions {
            for &(raw_move, n, sum) in stats {
                if n >= options.min_game && sum > 0 {
                    let weight = if options.uniform { 1 } else { u16::try_from(sum).unwrap_or(u16::MAX) };
                    entries.push(Entry { key, raw_move, weight, learn: 0 });
                }
            }
        }
        Book::from_entries(entries)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::parse_uci;

    fn line(texts: &str) -> Vec<Move> {
        let mut pos = Position::startpos();
        texts
            .split_whitespace()
            .map(|t| {
                let m = parse_uci(&pos, t).unwrap();
                pos.make_move(m);
                m
            })
            .collect()
    }

    #[test]
    fn weights_count_wins_twice_draws_once_and_losses_not() {
        let mut maker = PolyglotMaker::new();
        let start = Position::startpos();
        maker.add_game(&start, &line("e2e4 e7e5"), "1-0", 1024);
        maker.add_game(&start, &line("e2e4 c7c5"), "1/2-1/2", 1024);
        maker.add_game(&start, &line("d2d4 d7d5"), "0-1", 1024);
        let book = maker.book(PolyglotOptions { min_game: 1, ..PolyglotOptions::default() });
        let moves = book.moves(&start).unwrap();
        // e4: 2 (win) + 1 (draw); d4 lost: sum 0, left out. Black's e5 lost (0, out), c5 drew (1), d5 won (2).
        assert_eq!(moves.len(), 1);
        assert_eq!((moves[0].0, moves[0].1), (line("e2e4")[0], 3));
        let after_e4 = {
            let mut p = start.clone();
            p.make_move(line("e2e4")[0]);
            p
        };
        assert_eq!(book.moves(&after_e4).unwrap().len(), 1);
        // -min-game 2 keeps only e4 (two games).
        let book = maker.book(PolyglotOptions { min_game: 2, ..PolyglotOptions::default() });
        assert_eq!(book.entries().len(), 1);
        // -max-ply 1 counts only White's first moves.
        let mut maker = PolyglotMaker::new();
        maker.add_game(&start, &line("e2e4 e7e5"), "0-1", 1);
        maker.add_game(&start, &line("d2d4 d7d5"), "1/2-1/2", 1);
        assert_eq!(maker.book(PolyglotOptions { min_game: 1, ..PolyglotOptions::default() }).entries().len(), 1);
    }
}
