//! Checkers rules, FEN, move text, copy-make, key, perft and parents: the shared suites
//! `../shared/suites/draughts` (dctl's counts, the *keep duplicates* convention: every capture path is a move),
//! hand-made positions for each rule, and consistency checks on seeded random playouts on 4x4, 6x6 and 8x8
//! under both rules.
//!
//! Suite counts up to depth 10 run here; deeper ones (depths 11..14, up to 13 billion nodes) are ignored:
//! `cargo test --release --test integration -- checkers:: --ignored`.

use crate::checkers_common;
use arbiter::checkers::perft::{perft, perft_checked};
use arbiter::checkers::{Move, PieceColor, Position, Ruleset};
use arbiter::game::perft::{PerftTable, perft_split};
use checkers_common::every_4x4_position;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::path::PathBuf;
use std::process::Command;

fn suite_path(name: &str) -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/suites/draughts/")).join(name)
}

/// The FEN and (depth, count) pairs of a one-line suite file, read by the library's EPD reader (the `Dn`
/// opcodes in file order).
fn suite(name: &str) -> (String, Vec<(u32, u64)>) {
    let epd = arbiter::notation::epd::read_one_field_file_with::<String>(&suite_path(name), &|_| Ok(()))
        .expect("the suite reads");
    let counts = epd[0]
        .ops
        .iter()
        .map(|(op, n)| (op.trim_start_matches('D').parse().expect("depth"), n.parse().expect("count")))
        .collect();
    (epd[0].fen.clone(), counts)
}

/// Checks the suite's counts at depths `depths` (in parallel over root moves, no table); a failure prints the
/// FEN, depth, counts and the divide.
fn check_suite(name: &str, rules: Ruleset, depths: std::ops::RangeInclusive<u32>) {
    let (fen, counts) = suite(name);
    let pos = Position::from_fen(rules, 8, &fen).expect("suite FEN");
    let mut checked = 0;
    for (depth, expected) in counts.into_iter().filter(|c| depths.contains(&c.0)) {
        let actual = if depth >= 3 {
            use rayon::prelude::*;
            pos.legal_moves().par_iter().map(|m| perft(&pos.apply(m), depth - 1)).sum()
        } else {
            perft(&pos, depth)
        };
        if actual != expected {
            let divide: Vec<String> = pos
                .legal_moves()
                .iter()
                .map(|m| format!("{} {}", pos.move_text(m), perft(&pos.apply(m), depth - 1)))
                .collect();
            panic!("{name}: {fen} depth {depth}: expected {expected}, actual {actual}; divide: {divide:?}");
        }
        checked += 1;
    }
    assert_eq!(checked, depths.count(), "{name}: every depth in range present");
}

#[test]
fn russian_keep_duplicates_to_depth_10() {
    // Source: dctl, board_08x08.cpp (see PROVENANCE.md); D1..D10 = 7 .. 22,450,628.
    check_suite("russian_draughts_initial.keep_duplicates.epd", Ruleset::Russian, 1..=10);
}

#[test]
fn english_keep_duplicates_to_depth_10() {
    // Source: dctl, board_08x08.cpp; D1..D10 = 7 .. 18,391,564.
    check_suite("english_checkers_initial.keep_duplicates.epd", Ruleset::English, 1..=10);
}

#[test]
fn conventions_first_differ_at_russian_depth_8() {
    // Below depth 8 the drop-duplicates file agrees with ours; at depth 8 we count 929,905 (keep), not 929,899.
    check_suite("russian_draughts_initial.drop_duplicates.epd", Ruleset::Russian, 1..=7);
    let (fen, counts) = suite("russian_draughts_initial.drop_duplicates.epd");
    assert_eq!(counts[7], (8, 929_899));
    assert_eq!(perft(&Position::from_fen(Ruleset::Russian, 8, &fen).unwrap(), 8), 929_905);
}

#[test]
#[ignore = "depths 11..14: about 16 billion nodes"]
fn russian_keep_duplicates_deep() {
    check_suite("russian_draughts_initial.keep_duplicates.epd", Ruleset::Russian, 11..=14);
}

#[test]
#[ignore = "depths 11..14: about 10 billion nodes"]
fn english_keep_duplicates_deep() {
    // Depth 12: 388,623,673, the number on Aart Bik's checkers page.
    check_suite("english_checkers_initial.keep_duplicates.epd", Ruleset::English, 11..=14);
}

#[test]
fn hashed_and_split_perft_equal_plain_on_small_boards() {
    // No published counts for 4x4 and 6x6: these are Arbiter's, checked three ways (plain perft, hashed and
    // split driver, and perft_checked's generated lists against the bulk count at every node).
    let table = PerftTable::new(4);
    for (size, depth, expected) in [(4, 12, SMALL_4_D12), (6, 10, SMALL_6_D10)] {
        let pos = Position::start(Ruleset::Russian, size).unwrap();
        assert_eq!(perft(&pos, depth), expected, "{size}x{size} depth {depth}");
    }
    let pos4 = Position::start(Ruleset::Russian, 4).unwrap();
    assert_eq!(perft_split::<arbiter::checkers::CheckersGame<false, 4>>(&pos4, 12, Some(&table)), SMALL_4_D12);
    let pos6 = Position::start(Ruleset::Russian, 6).unwrap();
    assert_eq!(
        perft_split::<arbiter::checkers::CheckersGame<false, 6>>(&pos6, 10, Some(&PerftTable::new(4))),
        SMALL_6_D10
    );
    assert_eq!(perft_checked(&pos6, 6), perft(&pos6, 6));
    assert_eq!(perft_checked(&pos4, 10), perft(&pos4, 10));
}

/// Arbiter's counts from the 4x4 and 6x6 start positions (Russian rules; no published reference).
const SMALL_4_D12: u64 = 1_459;
const SMALL_6_D10: u64 = 362_074;

// Hand-made positions, one per rule. Russian squares a1..h8; English squares 1..32 (1 = b8, 29 = a1).

fn moves(rules: Ruleset, fen: &str) -> Vec<String> {
    let pos = Position::from_fen(rules, 8, fen).unwrap_or_else(|e| panic!("{e}"));
    let mut texts: Vec<String> = pos.legal_moves().iter().map(|m| pos.move_text(m)).collect();
    texts.sort();
    texts
}

fn only(rules: Ruleset, fen: &str) -> Move {
    let pos = Position::from_fen(rules, 8, fen).unwrap();
    let moves = pos.legal_moves();
    assert_eq!(moves.len(), 1, "{fen}");
    moves[0]
}

#[test]
fn capture_is_mandatory() {
    // The man on g1 could step to f2 or h2, but c3 must take d4.
    assert_eq!(moves(Ruleset::Russian, "W:Wc3,g1:Bd4"), ["c3:e5"]);
    assert_eq!(moves(Ruleset::English, "W:W22,32:B18"), ["22x15"]);
}

#[test]
fn any_capture_may_be_chosen_no_majority_rule() {
    // One piece on the left, two on the right: both are legal in Russian draughts and English checkers.
    assert_eq!(moves(Ruleset::Russian, "W:Wc3:Bb4,d4,f6"), ["c3:a5", "c3:e5:g7"]);
    assert_eq!(moves(Ruleset::English, "W:W22:B17,18,11"), ["22x13", "22x15x8"]);
}

#[test]
fn a_multi_jump_goes_to_the_end() {
    // English: black 14 takes 18 and 26 and is crowned on 30 (c1).
    let m = only(Ruleset::English, "B:W18,26:B14");
    let pos = Position::from_fen(Ruleset::English, 8, "B:W18,26:B14").unwrap();
    assert_eq!((pos.move_text(&m), m.promotes, m.captured.count_ones()), ("14x23x30".to_string(), true, 2));
    assert_eq!(pos.apply(&m).to_fen(), "W:W:BK30");
    // Russian men also capture backwards: d4 takes c3.
    assert_eq!(moves(Ruleset::Russian, "W:Wd4:Bc3"), ["d4:b2"]);
}

#[test]
fn english_men_do_not_capture_backwards() {
    // White 18 (d4) with a black man behind it on 22 (c3): no capture, two steps forward.
    assert_eq!(moves(Ruleset::English, "W:W18:B22"), ["18-14", "18-15"]);
}

#[test]
fn a_man_crowned_during_a_capture_continues_as_a_flying_king_in_russian() {
    // b6 takes c7 and lands on d8, is crowned, and as a king takes f6 far down the d8-h4 diagonal.
    let fen = "W:Wb6:Bc7,f6";
    assert_eq!(moves(Ruleset::Russian, fen), ["b6:d8:g5", "b6:d8:h4"]);
    let pos = Position::from_fen(Ruleset::Russian, 8, fen).unwrap();
    let m = pos.parse_move("b6:d8:h4").unwrap();
    assert!(m.promotes);
    assert_eq!(pos.apply(&m).to_fen(), "B:WKh4:B");
    // With the next piece adjacent, the new king takes it and may land anywhere beyond.
    assert_eq!(moves(Ruleset::Russian, "W:Wb6:Bc7,e7"), ["b6:d8:f6", "b6:d8:g5", "b6:d8:h4"]);
}

#[test]
fn a_capture_ends_on_promotion_in_english() {
    // 9 (b6) takes 6 (c7) and is crowned on 2 (d8); a king could go on over 7 (e7), but the move ends.
    let fen = "W:W9:B6,7";
    assert_eq!(moves(Ruleset::English, fen), ["9x2"]);
    let pos = Position::from_fen(Ruleset::English, 8, fen).unwrap();
    assert_eq!(pos.apply(&only(Ruleset::English, fen)).to_fen(), "B:WK2:B7");
}

#[test]
fn a_flying_king_lands_on_any_square_beyond_unless_one_lets_it_capture_again() {
    assert_eq!(moves(Ruleset::Russian, "W:WKa1:Bc3"), ["a1:d4", "a1:e5", "a1:f6", "a1:g7", "a1:h8"]);
    // From e5 the king can go on over f4: it must land on e5, then anywhere beyond f4.
    assert_eq!(moves(Ruleset::Russian, "W:WKa1:Bc3,f4"), ["a1:e5:g3", "a1:e5:h2"]);
    // A short English king does not take a piece two squares away.
    assert_eq!(moves(Ruleset::English, "W:WK29:B22"), ["29-25"]);
}

#[test]
fn turkish_strike_captured_pieces_stay_until_the_move_ends() {
    // The king takes d4 landing on e5..h8; turning back it would meet d4 again (still on the board), so b2
    // behind its start is not reached: five separate captures, none going on.
    assert_eq!(moves(Ruleset::Russian, "W:WKc3:Bd4,b2"), ["c3:a1", "c3:e5", "c3:f6", "c3:g7", "c3:h8"]);
}

#[test]
fn turkish_strike_a_piece_is_jumped_once_and_duplicate_paths_are_kept() {
    // A diamond round e3: the king goes round either way, takes all four and stops on e1 (d2 and f2 beside it
    // are taken already, so it cannot jump them again). Both paths are moves (keep duplicates).
    let fen = "W:WKe1:Bd2,f2,d4,f4";
    assert_eq!(moves(Ruleset::Russian, fen), ["e1:c3:e5:g3:e1", "e1:g3:e5:c3:e1"]);
    let pos = Position::from_fen(Ruleset::Russian, 8, fen).unwrap();
    let children: Vec<Position> = pos.legal_moves().iter().map(|m| pos.apply(m)).collect();
    assert_eq!(children[0], children[1]);
    assert_eq!(children[0].to_fen(), "B:WKe1:B");
    // The from-to shorthand names both paths (same captured pieces): the first generated is taken.
    assert_eq!(pos.move_text(&pos.parse_move("e1:e1").unwrap()), "e1:g3:e5:c3:e1");
}

#[test]
fn english_kings_step_and_jump_one_square() {
    assert_eq!(moves(Ruleset::English, "W:WK18:B1"), ["18-14", "18-15", "18-22", "18-23"]);
    // A king captures backwards (over 22 to 25) where a man could not.
    assert_eq!(moves(Ruleset::English, "W:WK18:B22"), ["18x25"]);
    // Russian kings fly.
    assert_eq!(moves(Ruleset::Russian, "W:WKd4:Bb8").len(), 13);
}

#[test]
fn promotion_by_a_step_and_the_end_of_the_game() {
    let pos = Position::from_fen(Ruleset::Russian, 8, "W:Wc7:Bh2").unwrap();
    let all = pos.legal_moves();
    assert!(all.iter().all(|m| m.promotes) && all.len() == 2);
    assert_eq!(pos.apply(&all[0]).kings(PieceColor::White).count_ones(), 1);
    // No piece, or no move (a blocked man), loses.
    assert!(Position::from_fen(Ruleset::Russian, 8, "W:W:Bb6").unwrap().is_loss());
    assert!(Position::from_fen(Ruleset::Russian, 8, "W:Wa1:Bb2,c3").unwrap().is_loss());
    assert!(!Position::from_fen(Ruleset::Russian, 8, "W:Wa1:Bb2").unwrap().is_loss());
}

#[test]
fn move_text_is_read_back_and_errors_name_what_is_wrong() {
    let pos = Position::start(Ruleset::Russian, 8).unwrap();
    for m in pos.legal_moves() {
        assert_eq!(pos.parse_move(&pos.move_text(&m)).unwrap(), m);
    }
    assert_eq!(
        pos.parse_move("c3-c4").unwrap_err().to_string(),
        "move \"c3-c4\": \"c4\" is not a square of this board (algebraic such as c3)"
    );
    assert_eq!(
        pos.parse_move("c3-c5").unwrap_err().to_string(),
        "move \"c3-c5\" is not legal here (legal: a3-b4 c3-d4 c3-b4 e3-f4 e3-d4 g3-h4 g3-f4)"
    );
    let english = Position::start(Ruleset::English, 8).unwrap();
    assert_eq!(english.move_text(&english.parse_move("11-15").unwrap()), "11-15");
    assert!(english.parse_move("11-19").unwrap_err().to_string().contains("is not legal here"));
}

#[test]
fn fen_round_trip_with_kings_on_every_board() {
    for (rules, size, fen) in [
        (Ruleset::Russian, 8, "W:WKa1,c3,h6:Bb6,Kh8"),
        (Ruleset::Russian, 8, "B:W:Bb6"),
        (Ruleset::English, 8, "B:W21,K30:B1,K2,12"),
        (Ruleset::Russian, 6, "W:Wa1,Kf6:BKc1,b6"),
        (Ruleset::Russian, 4, "W:Wa1,Kd4:Bb4"),
    ] {
        let pos = Position::from_fen(rules, size, fen).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(pos.to_fen(), fen);
        assert_eq!(Position::from_fen(rules, size, &pos.to_fen()).unwrap(), pos);
    }
    // Ranges, spaces, a trailing dot and either list order are read.
    let e = Position::from_fen(Ruleset::English, 8, " B:B1-12:W21-32. ").unwrap();
    assert_eq!(e, Position::start(Ruleset::English, 8).unwrap());
}

#[test]
fn fen_errors_name_what_is_wrong() {
    let err = |rules, size, fen: &str| Position::from_fen(rules, size, fen).unwrap_err().to_string();
    assert_eq!(err(Ruleset::Russian, 8, "X:Wa1"), "FEN \"X:Wa1\": side to move \"X\": expected W or B");
    assert_eq!(err(Ruleset::Russian, 8, ""), "FEN \"\": side to move \"\": expected W or B");
    assert_eq!(
        err(Ruleset::Russian, 8, "W:Qa1"),
        "FEN \"W:Qa1\": field \"Qa1\": expected a piece list starting with W or B"
    );
    assert_eq!(
        err(Ruleset::Russian, 8, "W:Wa1:Wc3"),
        "FEN \"W:Wa1:Wc3\": field \"Wc3\": a second list for this colour"
    );
    assert_eq!(
        err(Ruleset::Russian, 8, "W:WKa1,:Bd4"),
        "FEN \"W:WKa1,:Bd4\": field \"WKa1,\": an empty entry in the piece list (a comma too many)"
    );
    assert_eq!(
        err(Ruleset::Russian, 8, "W:Wa1,,c3:Bd6"),
        "FEN \"W:Wa1,,c3:Bd6\": field \"Wa1,,c3\": an empty entry in the piece list (a comma too many)"
    );
    assert_eq!(
        err(Ruleset::Russian, 8, "W:Wb1"),
        "FEN \"W:Wb1\": square \"b1\": expected a dark square a1..h8 such as c3"
    );
    assert_eq!(
        err(Ruleset::Russian, 4, "W:We5"),
        "FEN \"W:We5\": square \"e5\": expected a dark square a1..d4 such as c3"
    );
    assert_eq!(err(Ruleset::Russian, 8, "W:Wa1:Ba1"), "FEN \"W:Wa1:Ba1\": square \"a1\": square a1 is listed twice");
    assert_eq!(
        err(Ruleset::Russian, 8, "W:Wb8"),
        "FEN \"W:Wb8\": a White man on b8, its own promotion row (it would be a king)"
    );
    assert_eq!(
        err(Ruleset::English, 8, "B:W33"),
        "FEN \"B:W33\": square \"33\": expected a square number 1..32 or a range such as 1-12"
    );
    assert_eq!(
        err(Ruleset::English, 8, "B:W12-1"),
        "FEN \"B:W12-1\": square \"12-1\": expected a square number 1..32 or a range such as 1-12"
    );
    assert_eq!(err(Ruleset::English, 6, "B:W1"), "FEN \"B:W1\": English checkers is played on 8x8, not 6x6");
    assert_eq!(err(Ruleset::Russian, 7, "W:"), "FEN \"W:\": board size 7: expected 4, 6 or 8");
}

proptest::proptest! {
    #[test]
    fn fen_and_move_readers_never_panic(text in "\\PC{0,60}", near in "[WBK:,0-9a-h. -]{0,40}") {
        for (rules, size) in [(Ruleset::Russian, 8), (Ruleset::English, 8), (Ruleset::Russian, 4), (Ruleset::Russian, 6)] {
            let _ = Position::from_fen(rules, size, &text);
            if let Ok(p) = Position::from_fen(rules, size, &near) {
                assert_eq!(Position::from_fen(rules, size, &p.to_fen()).unwrap(), p);
            }
            let start = Position::start(rules, size).unwrap();
            let _ = start.parse_move(&text);
            let _ = start.parse_move(&near);
        }
    }
}

/// Positions of seeded random playouts from the start of (`rules`, `size`): every position met, up to
/// `max_plies` per game.
fn playouts(rules: Ruleset, size: u8, seed: u64, games: usize, max_plies: usize) -> Vec<Position> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Position::start(rules, size).unwrap();
        for _ in 0..max_plies {
            out.push(pos);
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.apply(&moves[rng.random_range(0..moves.len())]);
        }
    }
    out
}

const BOARDS: [(Ruleset, u8); 4] =
    [(Ruleset::Russian, 8), (Ruleset::English, 8), (Ruleset::Russian, 6), (Ruleset::Russian, 4)];

#[test]
fn make_unmake_and_key_on_playouts() {
    for (rules, size) in BOARDS {
        for pos in playouts(rules, size, 7, 20, 120).iter().step_by(3) {
            // Bulk count = generated list, make/unmake restores position and key, FEN round trip keeps the key.
            perft_checked(pos, 2);
            let again = Position::from_fen(rules, size, &pos.to_fen()).unwrap();
            assert_eq!((again, again.key()), (*pos, pos.key()));
            // Transpositions: the same position reached by another path has the same key (here: the copy).
            let other = Position::new(
                rules,
                size,
                [pos.men(PieceColor::White), pos.men(PieceColor::Black)],
                [pos.kings(PieceColor::White), pos.kings(PieceColor::Black)],
                pos.side_to_move(),
            )
            .unwrap();
            assert_eq!(other.key(), pos.key());
        }
    }
}

#[test]
fn parents_and_children_agree_on_playouts() {
    for (rules, size) in BOARDS {
        let positions = playouts(rules, size, 11, 12, 100);
        for (i, pos) in positions.iter().enumerate().step_by(2) {
            for m in pos.legal_moves() {
                let child = pos.apply(&m);
                let parents = child.parents_restoring(m.captured.count_ones());
                assert!(
                    parents.contains(pos),
                    "{:?} {}: {} from {} missing",
                    rules,
                    size,
                    pos.move_text(&m),
                    pos.to_fen()
                );
            }
            // Every parent really leads here (all parents on the smaller boards; at most 3 pieces put back on 8x8).
            let max = if size == 8 && i % 4 != 0 { 3 } else { u32::MAX };
            for q in pos.parents_restoring(max) {
                assert!(
                    q.legal_moves().iter().any(|m| q.apply(m) == *pos),
                    "{} is listed as a parent of {} but no move leads there",
                    q.to_fen(),
                    pos.to_fen()
                );
                assert_eq!(q.side_to_move(), pos.side_to_move().flip());
            }
        }
    }
}

#[test]
fn parents_include_un_promotions_and_un_captures_with_men_or_kings() {
    // White king on d8 after d8 was reached: from c7 or e7 as a man (crowned), or as a king from anywhere on
    // its diagonals; Black (to move) has h2.
    let pos = Position::from_fen(Ruleset::Russian, 8, "B:WKd8:Bh2").unwrap();
    let parents: Vec<String> = pos.parents_restoring(0).iter().map(Position::to_fen).collect();
    assert!(parents.contains(&"W:Wc7:Bh2".to_string()) && parents.contains(&"W:We7:Bh2".to_string()));
    assert!(parents.contains(&"W:WKa5:Bh2".to_string()) && parents.contains(&"W:WKh4:Bh2".to_string()));
    // English: the white man on 14 (c5) took a black piece on 17 (b4) from 21 (a3) or on 18 (d4) from 23 (e3);
    // the captured piece is put back as a man or a king.
    let e = Position::from_fen(Ruleset::English, 8, "B:W14:B1").unwrap();
    let with_capture: Vec<String> = e
        .parents_restoring(1)
        .iter()
        .filter(|p| p.pieces(PieceColor::Black).count_ones() == 2)
        .map(Position::to_fen)
        .collect();
    assert_eq!(with_capture, ["W:W21:B1,K17", "W:W21:B1,17", "W:W23:B1,K18", "W:W23:B1,18"]);
    for fen in &with_capture {
        let q = Position::from_fen(Ruleset::English, 8, fen).unwrap();
        assert!(q.legal_moves().iter().any(|m| q.apply(m) == e));
    }
}

fn arbiter(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter")).args(args).output().expect("arbiter runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn cli_perft_game_russian_and_english() {
    let (code, out, _) = arbiter(&["perft", "--game", "russian", "--depth", "6", "--threads", "1"]);
    assert_eq!((code, out.as_str()), (0, "nodes 37986\n"));
    let (code, out, _) = arbiter(&["perft", "--game", "english", "--depth", "6"]);
    assert_eq!((code, out.as_str()), (0, "nodes 36768\n"));
    let (code, out, _) = arbiter(&["perft", "--game", "russian", "--board", "6", "--depth", "8", "--hash-mb", "4"]);
    assert_eq!((code, out.as_str()), (0, "nodes 41776\n"));
    let (code, out, _) = arbiter(&["perft", "--game", "russian", "--fen", "W:WKa1:Bc3,f4", "--depth", "1", "--divide"]);
    assert_eq!((code, out.as_str()), (0, "a1:e5:g3 1\na1:e5:h2 1\nmoves 2\nnodes 2\n"));
    let (code, out, _) = arbiter(&["perft", "--game", "english", "--depth", "2", "--divide"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("10-14  7\n10-15  7\n"), "{out}");
    let suite = suite_path("english_checkers_initial.keep_duplicates.epd");
    let (code, out, _) =
        arbiter(&["perft", "--game", "english", "--suite", suite.to_str().unwrap(), "--max-depth", "7", "--quiet"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("1 positions, 7 checks, 0 failed"), "{out}");
    // The drop-duplicates file differs from depth 8 on: exit 1 with the failing depth.
    let drop = suite_path("russian_draughts_initial.drop_duplicates.epd");
    let (code, out, _) =
        arbiter(&["perft", "--game", "russian", "--suite", drop.to_str().unwrap(), "--max-depth", "8", "--quiet"]);
    assert_eq!(code, 1);
    assert!(out.contains("depth 8 expected 929899 actual 929905 (difference 6)"), "{out}");
}

#[test]
fn cli_refuses_what_checkers_cannot_do() {
    for (args, message) in [
        (
            &["perft", "--game", "english", "--board", "6"][..],
            "--board 6: only --game russian is played on 4x4 and 6x6",
        ),
        (&["perft", "--game", "russian", "--board", "10"][..], "--board 10: expected 4, 6 or 8"),
        (&["perft", "--board", "4"][..], "--board 4: only --game russian"),
        // A table too large to allocate: exit 2, not an abort.
        (
            &["perft", "--game", "russian", "--depth", "3", "--hash-mb", "100000000000000"][..],
            "--hash-mb 100000000000000: cannot allocate that much memory",
        ),
        (&["perft", "--game", "russian", "--compare-with", "/bin/true"][..], "no UCI engine for checkers"),
        (&["perft", "--game", "russian", "--fen", "W:Wz9"][..], "square \"z9\""),
        (
            &["match", "--game", "russian"][..],
            "arbiter match plays chess and xiangqi; checkers has perft and the endgame base",
        ),
        (
            &["book", "--game", "english"][..],
            "arbiter book plays chess and xiangqi; checkers has perft and the endgame base",
        ),
    ] {
        let (code, _, err) = arbiter(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: {err}");
    }
}

#[test]
fn parents_equal_the_exhaustive_reverse_of_every_4x4_move() {
    // Independent of the un-move walk: the parents of every 4x4 position found by playing every legal move of
    // every position.
    let all = every_4x4_position();
    let mut reverse: std::collections::HashMap<Position, Vec<Position>> = std::collections::HashMap::new();
    for q in &all {
        for m in q.legal_moves() {
            reverse.entry(q.apply(&m)).or_default().push(*q);
        }
    }
    let mut with_parents = 0;
    for p in &all {
        let mut expected = reverse.remove(p).unwrap_or_default();
        expected.sort_unstable();
        expected.dedup();
        with_parents += usize::from(!expected.is_empty());
        assert_eq!(p.parents(), expected, "parents of {}", p.to_fen());
    }
    assert_eq!((all.len(), with_parents), (ALL_4X4, WITH_PARENTS_4X4));
}

/// Valid 4x4 positions: 2 sides x 5^4 (the middle rows) x 4^4 (the back rows, where a man of the colour
/// promoting there cannot stand).
const ALL_4X4: usize = 320_000;
/// Of those, the positions with at least one parent (Arbiter's count, by both methods of the test).
const WITH_PARENTS_4X4: usize = 158_904;
