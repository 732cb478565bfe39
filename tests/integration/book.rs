//! The committed default opening book is what `arbiter book` makes with the documented arguments.

use arbiter::chess::epd::{ChessEpd, read_epd_file};
use arbiter::engine::chess::config::EngineConfig;
use arbiter::selfplay::book::{BookRequest, generate};
use std::path::PathBuf;

#[test]
fn committed_book_matches_generator() {
    let path = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/suites/openings/arbiter-book.epd"));
    let book = read_epd_file(&path, false).expect("the committed book parses");
    assert_eq!(book.len(), 2000);
    let args = BookRequest {
        game: arbiter::engine::EngineGame::Chess,
        positions: 30,
        plies: 8,
        window: 50,
        nodes: 5000,
        seed: 1,
    };
    let fresh = generate(&args, EngineConfig::seed());
    assert_eq!(fresh.len(), 30);
    for (i, (entry, line)) in fresh.iter().zip(&book).enumerate() {
        let four = |f: &str| f.split(' ').take(4).collect::<Vec<_>>().join(" ");
        assert_eq!(four(&entry.fen), four(&line.fen), "book line {}", i + 1);
        assert_eq!(line.get("c0"), Some(format!("seed {} cp", entry.score_white).as_str()), "book line {}", i + 1);
        let pos = line.position(false);
        assert!(!pos.in_check() && !pos.legal_moves().is_empty());
    }
}
