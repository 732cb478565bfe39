//! FEN errors: one typed error per malformed line, never a panic; FEN round trip over the tactics suites.

use arbiter::chess::Position;
use arbiter::chess::epd::{ChessEpd, read_epd_file};
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
    use arbiter::chess::san::parse_uci;
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

/// The check-state rule against python-chess (`tests/check_states.py`): every position in check reached by
/// legal play (standard and Chess960) is accepted, every placement python-chess's `Board.status()` refuses for
/// its check state (`STATUS_TOO_MANY_CHECKERS`, `STATUS_IMPOSSIBLE_CHECK`) is refused, and of the placements
/// python-chess finds valid, Arbiter refuses only checks that no move can give (counted, and checked in
/// `impossible_checks_by_hand` by kind).
#[test]
fn impossible_checks_match_python_chess() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/check_states.py");
    let out = std::process::Command::new("python3").arg(script).output().expect("python3 must be installed");
    assert_ne!(out.status.code(), Some(3), "python-chess is missing: run `pip install chess` (see README)");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).expect("the script prints UTF-8");
    let (mut reached, mut impossible, mut valid, mut stricter) = (0, 0, 0, 0);
    for line in text.lines() {
        let (kind, fen) = line.split_once('\t').expect("KIND<TAB>FEN");
        let parsed = Position::from_fen_variant(fen, kind == "reached960");
        match kind {
            "reached" | "reached960" => {
                let pos = parsed.unwrap_or_else(|e| panic!("{fen}: reached by legal play, refused: {e}"));
                assert!(pos.in_check(), "{fen}");
                reached += 1;
            }
            "impossible" => {
                let err = parsed.expect_err(fen).to_string();
                assert!(err.contains("impossible check"), "{fen}: {err}");
                impossible += 1;
            }
            _ => {
                valid += 1;
                if let Err(e) = parsed {
                    assert!(e.to_string().contains("double check from"), "{fen}: {e}");
                    stricter += 1;
                }
            }
        }
    }
    eprintln!("reached {reached}, impossible {impossible}, valid for python-chess {valid} of which refused {stricter}");
    assert!(reached > 3000 && impossible > 20 && valid > 2000, "too few positions: {reached} {impossible} {valid}");
}

/// Hand-made checks by kind: each refused one names its reason; each accepted one is a position a single move
/// reaches (the move in the comment).
#[test]
fn impossible_checks_by_hand() {
    let refused = [
        // Two knights: a knight move uncovers no line, and only one knight moved.
        ("4k3/8/3N1N2/8/8/8/8/4K3 b - - 0 1", "double check from"),
        // Two pawns.
        ("8/8/8/4k3/3P1P2/8/8/4K3 b - - 0 1", "double check from"),
        // A pawn and a knight.
        ("8/8/2N5/4k3/3P4/8/8/4K3 b - - 0 1", "double check from"),
        // Two rooks on lines no single move uncovers (rank and file, both open).
        ("4k2R/8/8/8/8/8/8/K3R3 b - - 0 1", "double check from"),
        // Two bishops.
        ("8/8/8/4k3/8/2B3B1/8/K7 b - - 0 1", "double check from"),
        // Queen and rook on one line through the king (python-chess's collinear case).
        ("8/8/8/R3k2Q/8/8/8/K7 b - - 0 1", "double check from"),
        // Three checkers.
        ("4k3/8/3N1N2/8/8/8/8/K3R3 b - - 0 1", "3 pieces give check"),
        // The en-passant square says e2-e4 was the last move, which cannot give a rook check on the h-file.
        ("4k2R/8/8/8/4P3/8/8/K7 b - e3 0 1", "en-passant square e3"),
        // The side not to move in check stays its own reason.
        ("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", "not to move is in check"),
    ];
    for (fen, needle) in refused {
        let err = Position::from_fen(fen).expect_err(fen).to_string();
        assert!(err.contains(needle), "{fen}: {err} lacks {needle:?}");
    }
    // Double and discovered checks that one move gives: (the position before, the move); the position after
    // must be accepted, and be in the check the comment names.
    let reached = [
        // Nf6+ uncovering the rook on e1: knight and rook.
        ("4k3/8/8/8/4N3/8/8/K3R3 w - - 0 1", "e4f6", 2),
        // Rc8+ uncovering the bishop on a4: rook and bishop.
        ("4k3/8/2R5/8/B7/8/8/K7 w - - 0 1", "c6c8", 2),
        // dxe6 e.p.: the pawn on e6 checks and the rook on d1 is uncovered through d5.
        ("8/3k4/8/3Pp3/8/8/8/K2R4 w - e6 0 1", "d5e6", 2),
        // e8=N+ uncovering the bishop on d8: a promoted knight and a bishop.
        ("3B4/4P3/5k2/8/8/8/8/K7 w - - 0 1", "e7e8n", 2),
        // O-O-O+: the rook on d1 checks.
        ("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1", 1),
    ];
    // A single check whose checker has no way in (b7's origins b6, a6 and c6 are all occupied) is accepted, as
    // is the chessprogramming wiki's perft position 4 (the bishop on b6 checks; its origins are occupied and the
    // queen on a3 cannot have come from e3, where it would have checked too).
    for fen in ["k7/1P6/ppp5/8/8/8/8/K7 b - - 0 1", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"]
    {
        assert!(Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}")).in_check(), "{fen}");
    }
    for (before, uci, checkers) in reached {
        let mut pos = Position::from_fen(before).unwrap_or_else(|e| panic!("{before}: {e}"));
        let m = arbiter::chess::san::parse_uci(&pos, uci).unwrap_or_else(|e| panic!("{before} {uci}: {e}"));
        pos.make_move(m);
        let after = Position::from_fen(&pos.to_fen()).unwrap_or_else(|e| panic!("{before} {uci}: {e}"));
        assert_eq!(after.checkers().count(), checkers, "{before} {uci}");
    }
}
