//! FEN errors: one typed error per malformed line, never a panic; FEN round trip over the tactics suites.

use arbiter::chess::Position;
use arbiter::notation::epd::read_epd_file;
use proptest::prelude::*;

/// Malformed FENs, each with the text its error must contain.
const BAD: &[(&str, &str)] = &[
    ("", "fields"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "ranks"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w KQkq - 0 1", "ranks"),
    ("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "files"),
    ("rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "digits"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1", "files"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN0 w KQkq - 0 1", "piece letter"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "piece letter"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR W KQkq - 0 1", "side"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR white KQkq - 0 1", "side"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkZ - 0 1", "castling"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqq - 0 1", "repeated"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KkQk - 0 1", "repeated"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e5 0 1", "en-passant"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1", "en-passant"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq i6 0 1", "en-passant"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1", "halfmove"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 x", "fullmove"),
    ("Pnbqkbnr/pppppppp/8/8/8/8/1PPPPPPP/RNBQKBNR w KQk - 0 1", "pawn"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNp w kq - 0 1", "pawn"),
    ("rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "kings"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBKR w kq - 0 1", "kings"),
    ("4k3/8/8/8/8/8/8/R3K3 b - - 0 1 extra", "fields"),
    ("4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1", "not to move is in check"),
    ("4k3/8/8/8/8/8/8/4K3 w Q - 0 1", "castling"),
    ("4k3/8/8/8/8/8/8/3K3R w K - 0 1", "castling right"),
];

#[test]
fn bad_fen_table() {
    for (fen, needle) in BAD {
        let err = Position::from_fen(fen).expect_err(fen).to_string();
        assert!(err.contains(needle), "{fen:?}: error {err:?} should mention {needle:?}");
    }
}

#[test]
fn fen_round_trip_over_tactics_suites() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/suites/tactics");
    for name in ["wac.epd", "bratko_kopec.epd", "arasan2024.epd", "eet.epd"] {
        let path = std::path::Path::new(dir).join(name);
        for epd in read_epd_file(&path, false).unwrap_or_else(|e| panic!("{e}")) {
            let pos = epd.position(false);
            let again = Position::from_fen(&pos.to_fen()).unwrap();
            assert_eq!(again, pos, "{name}:{}", epd.line);
            assert_eq!(again.to_fen(), pos.to_fen());
        }
    }
}

proptest! {
    #[test]
    fn no_input_panics(s in "\\PC{0,80}") {
        let _ = Position::from_fen(&s);
    }

    #[test]
    fn fen_like_input_never_panics(board in "[rnbqkpRNBQKP1-8/]{1,70}", side in "[wbx]", castle in "[KQkqA-Ha-h-]{1,5}", ep in "(-|[a-i][0-9])", hm in "[0-9-]{1,4}", fm in "[0-9]{1,6}") {
        let _ = Position::from_fen(&format!("{board} {side} {castle} {ep} {hm} {fm}"));
        let _ = Position::from_fen_variant(&format!("{board} {side} {castle} {ep}"), true);
    }
}

#[test]
fn more_bad_fens() {
    for (fen, needle) in [
        ("4k3/pppppppp/pppppppp/8/8/8/8/4K3 w - - 0 1", "17 pieces, at most 16"),
        ("4k3/pppppppp/ppp5/8/8/8/8/4K3 w - - 0 1", "11 pawns, at most 8"),
        ("qqqqkqqq/qqq5/8/8/8/8/8/4K3 w - - 0 1", "promoted"),
        ("4k3/8/8/8/8/8/8/4K2R w K - +5 1", "halfmove"),
        ("4k3/8/8/8/8/8/8/4K2R w K - 65536 1", "0 to 65535"),
        ("4k3/8/8/8/8/8/8/4K2R w K e3 0 1", "rank 6"),
        ("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", "Chess960"),
    ] {
        let err = Position::from_fen(fen).expect_err(fen).to_string();
        assert!(err.contains(needle), "{fen:?}: error {err:?} should mention {needle:?}");
    }
}

/// A FEN from a random board: each square empty or one of the 12 pieces, then side, castling and en passant.
fn board_fen(cells: &[u8], side: bool, castling: &str, ep: &str) -> String {
    const LETTERS: &[u8] = b"PNBRQKpnbrqk";
    let mut board = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            let c = cells[rank * 8 + file];
            if (c as usize) < LETTERS.len() {
                if empty > 0 {
                    board.push(char::from(b'0' + empty));
                    empty = 0;
                }
                board.push(LETTERS[c as usize] as char);
            } else {
                empty += 1;
            }
        }
        if empty > 0 {
            board.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            board.push('/');
        }
    }
    format!("{board} {} {castling} {ep} 0 1", if side { 'w' } else { 'b' })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    /// Every FEN the parser accepts writes back to a FEN that parses to the same position.
    #[test]
    fn accepted_fens_round_trip(
        cells in proptest::collection::vec(0u8..40, 64),
        wk in 0usize..64, bk in 0usize..64,
        side: bool,
        castling in "(-|K?Q?k?q?)",
        ep in "(-|[a-h][36])",
        chess960: bool,
    ) {
        let mut cells = cells;
        cells[wk] = 5;
        cells[bk] = 11;
        let castling = if castling.is_empty() { "-".to_string() } else { castling };
        let fen = board_fen(&cells, side, &castling, &ep);
        if let Ok(pos) = Position::from_fen_variant(&fen, chess960) {
            let again = Position::from_fen_variant(&pos.to_fen(), chess960).expect("written FEN parses");
            prop_assert_eq!(&again, &pos);
            prop_assert_eq!(again.to_fen(), pos.to_fen());
        }
    }
}

#[test]
fn chess960_castling_edge_cases() {
    use arbiter::chess::perft::perft;
    use arbiter::notation::san::parse_uci;
    // King on g1 and rook on h1: castling h-side moves only the rook (king already on g1): f1 must be free.
    let pos = Position::from_fen_variant("1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1", true).unwrap();
    let m = parse_uci(&pos, "g1h1").unwrap();
    let mut after = pos.clone();
    after.make_move(m);
    assert!(after.to_fen().starts_with("1r4kr/8/8/8/8/8/8/1R3RK1 b hb"), "{}", after.to_fen());
    // King on b1 and rook on a1: the king moves one square to c1, the rook jumps over it to d1.
    let pos = Position::from_fen_variant("1k5r/8/8/8/8/8/8/RK6 w A - 0 1", true).unwrap();
    let m = parse_uci(&pos, "b1a1").unwrap();
    let mut after = pos.clone();
    after.make_move(m);
    assert!(after.to_fen().starts_with("1k5r/8/8/8/8/8/8/2KR4 b"), "{}", after.to_fen());
    // King on f1, rook on d1: a-side castling where the rook stays on d1 and the king crosses its square.
    let pos = Position::from_fen_variant("4k3/8/8/8/8/8/8/3R1K2 w D - 0 1", true).unwrap();
    let m = parse_uci(&pos, "f1d1").unwrap();
    let mut after = pos.clone();
    after.make_move(m);
    assert!(after.to_fen().starts_with("4k3/8/8/8/8/8/8/2KR4 b -"), "{}", after.to_fen());
    // The same castling is illegal when a black rook on c8 attacks c1, the king's destination.
    let pos = Position::from_fen_variant("2r1k3/8/8/8/8/8/8/3R1K2 w D - 0 1", true).unwrap();
    assert!(parse_uci(&pos, "f1d1").is_err());
    // In standard notation the same engine writes e1g1; in Chess960 notation king takes rook.
    let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    let castle = parse_uci(&pos, "e1g1").unwrap();
    assert_eq!(castle.to_uci(false), "e1g1");
    assert_eq!(castle.to_uci(true), "e1h1");
    assert_eq!(perft(&mut pos.clone(), 3), 13_744);
}
