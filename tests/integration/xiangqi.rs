//! Xiangqi rules, FEN, make/undo, repetitions and perft: the shared suite `../shared/suites/xiangqi`, hand-made
//! positions for each rule, and agreement with the real Fairy-Stockfish (Debian package `fairy-stockfish`,
//! installed by the README test command) on positions from seeded random playouts.
//!
//! Every suite count up to 10^8 nodes runs here (131 million nodes, a few seconds in release mode);
//! `suite_above_1e8` (the two depth-5 counts of 133 and 141 million) and `start_position_depth_6` (5.4 billion)
//! are ignored: `cargo test --release --test integration -- xiangqi:: --ignored`.

use arbiter::game::perft::divide;
use arbiter::suite::compare::{ArbiterOracle, UciPerftOracle, find_divergence};
use arbiter::xiangqi::perft::{perft, perft_checked};
use arbiter::xiangqi::{Color, FenError, Move, Outcome, Position, START_FEN, Square, XiangqiGame};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

const FAIRY_STOCKFISH: &str = "/usr/games/fairy-stockfish";

fn suite_path() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/suites/xiangqi/xiangqi_perft.epd"))
}

/// One line of the suite.
struct SuiteLine {
    /// 1-based line number.
    line: usize,
    fen: String,
    /// (depth, expected count) per `;Dn count` opcode.
    counts: Vec<(u32, u64)>,
}

/// The suite's lines.
fn suite() -> Vec<SuiteLine> {
    let text = std::fs::read_to_string(suite_path()).expect("shared Xiangqi suite readable");
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            let mut parts = l.split(';');
            let fen = parts.next().expect("a FEN").trim().to_string();
            let counts = parts
                .map(|op| {
                    let (d, n) = op.trim().split_once(' ').expect("`Dn count`");
                    (d.trim_start_matches('D').parse().expect("depth"), n.trim().parse().expect("count"))
                })
                .collect();
            SuiteLine { line: i + 1, fen, counts }
        })
        .collect()
}

/// Checks every suite count in `low..=high` nodes, in parallel; a failure prints FEN, depth, counts and divide.
fn check_suite(low: u64, high: u64) -> u64 {
    let checks: Vec<(usize, String, u32, u64)> = suite()
        .into_iter()
        .flat_map(|l| l.counts.into_iter().map(move |(d, n)| (l.line, l.fen.clone(), d, n)))
        .filter(|c| (low..=high).contains(&c.3))
        .collect();
    assert!(!checks.is_empty());
    let failures: Vec<String> = checks
        .par_iter()
        .filter_map(|(line, fen, depth, expected)| {
            let mut pos = Position::from_fen(fen).expect("suite FEN");
            let actual = perft(&mut pos, *depth);
            (actual != *expected).then(|| {
                let rows: Vec<String> = divide::<arbiter::xiangqi::XiangqiGame>(&mut pos, *depth)
                    .iter()
                    .map(|(m, n)| format!("{m} {n}"))
                    .collect();
                format!(
                    "line {line}: {fen} depth {depth} expected {expected} actual {actual}\n  divide: {}",
                    rows.join(", ")
                )
            })
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    checks.iter().map(|c| c.3).sum()
}

#[test]
fn suite_to_1e8() {
    let nodes = check_suite(0, 100_000_000);
    assert_eq!(nodes, 130_500_452);
}

#[test]
#[ignore = "274 million nodes: cargo test --release --test integration -- --ignored xiangqi::suite_above_1e8"]
fn suite_above_1e8() {
    check_suite(100_000_001, 1_000_000_000);
}

#[test]
#[ignore = "5.4 billion nodes, about 90 s on two cores: cargo test --release --test integration -- --ignored xiangqi::start_position_depth_6"]
fn start_position_depth_6() {
    let pos = Position::startpos();
    let n: u64 = pos
        .legal_moves()
        .as_slice()
        .par_iter()
        .map(|&m| {
            let mut p = pos.clone();
            p.make_move(m);
            perft(&mut p, 5)
        })
        .sum();
    assert_eq!(n, 5_392_831_844);
}

/// The legal moves from `from` in the position, as sorted text.
fn moves_from(fen: &str, from: &str) -> Vec<String> {
    let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut v: Vec<String> =
        pos.legal_moves().iter().filter(|m| m.from().to_string() == from).map(|m| m.to_text()).collect();
    v.sort();
    v
}

fn all_moves(fen: &str) -> Vec<String> {
    let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut v: Vec<String> = pos.legal_moves().iter().map(|m| m.to_text()).collect();
    v.sort();
    v
}

#[test]
fn general_stays_in_its_palace() {
    // Red general on d2, the palace's top-left corner: not to d3 or c2.
    assert_eq!(moves_from("5k3/9/9/9/9/9/9/3K5/9/9 w - - 0 1", "d2"), ["d2d1", "d2e2"]);
    // Black general on f7: not to f6 or g7.
    assert_eq!(moves_from("9/9/5k3/9/9/9/9/9/9/3K5 b - - 0 1", "f7"), ["f7e7", "f7f8"]);
}

#[test]
fn advisor_moves_diagonally_in_its_palace() {
    // On e1 with its own general on d0: d2, f0, f2, not d0 (own piece).
    assert_eq!(moves_from("5k3/9/9/9/9/9/9/9/4A4/3K5 w - - 0 1", "e1"), ["e1d2", "e1f0", "e1f2"]);
    // On d2 (a corner): only back to the centre e1.
    assert_eq!(moves_from("5k3/9/9/9/9/9/9/3A5/9/4K4 w - - 0 1", "d2"), ["d2e1"]);
}

#[test]
fn elephant_is_blocked_at_the_eye_and_stays_behind_the_river() {
    // e2 with a piece on the eye d3: c4 is blocked; c0, g0 and g4 are open.
    assert_eq!(moves_from("3k5/9/9/9/9/9/3P5/4B4/9/4K4 w - - 0 1", "e2"), ["e2c0", "e2g0", "e2g4"]);
    // c4 on the river bank: a2 and e2, never a6 or e6 across the river.
    assert_eq!(moves_from("3k5/9/9/9/9/2B6/9/9/9/4K4 w - - 0 1", "c4"), ["c4a2", "c4e2"]);
    assert_eq!(moves_from("4k4/9/9/9/2b6/9/9/9/9/3K5 b - - 0 1", "c5"), ["c5a7", "c5e7"]);
}

#[test]
fn horse_is_blocked_at_the_leg() {
    // b0 with a piece on b1: a2 and c2 are blocked, d1 (over c0) is open.
    assert_eq!(moves_from("3k5/9/9/9/9/9/9/9/1r7/1N2K4 w - - 0 1", "b0"), ["b0d1"]);
    // A horse gives check only over an empty leg: the black horse on d2 checks e0 over d1 unless d1 is occupied.
    assert!(Position::from_fen("3k5/9/9/9/9/9/9/3n5/9/4K4 w - - 0 1").unwrap().in_check(Color::RED));
    assert!(!Position::from_fen("3k5/9/9/9/9/9/9/3n5/3R5/4K4 w - - 0 1").unwrap().in_check(Color::RED));
}

#[test]
fn cannon_captures_over_exactly_one_screen() {
    // Cannon b2; on its file a screen on b5 (black soldier), a black horse on b7 behind it, a black chariot on b8
    // behind that. It moves to b0, b1, b3, b4 and along rank 2, captures b7 only; never b5, b6 or b8.
    let fen = "3k5/1r7/1n7/9/1p7/9/9/1C7/9/4K4 w - - 0 1";
    assert_eq!(
        moves_from(fen, "b2"),
        ["b2a2", "b2b0", "b2b1", "b2b3", "b2b4", "b2b7", "b2c2", "b2d2", "b2e2", "b2f2", "b2g2", "b2h2", "b2i2"]
    );
    // A cannon checks over one screen and not over none or two.
    assert!(Position::from_fen("3k5/9/9/9/9/4c4/9/9/4A4/4K4 w - - 0 1").unwrap().in_check(Color::RED));
    assert!(!Position::from_fen("3k5/9/9/9/9/4c4/9/9/9/4K4 w - - 0 1").unwrap().in_check(Color::RED));
    assert!(!Position::from_fen("3k5/9/9/9/9/4c4/9/4B4/4A4/4K4 w - - 0 1").unwrap().in_check(Color::RED));
}

#[test]
fn soldier_moves_sideways_only_after_the_river() {
    let fen = "3k5/9/9/9/2P6/9/2P6/9/9/4K4 w - - 0 1";
    assert_eq!(moves_from(fen, "c3"), ["c3c4"]);
    assert_eq!(moves_from(fen, "c5"), ["c5b5", "c5c6", "c5d5"]);
    // On the last rank only sideways; Black's soldiers mirror Red's.
    assert_eq!(moves_from("2P1k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1", "c9"), ["c9b9", "c9d9"]);
    assert_eq!(moves_from("4k4/9/9/2p6/9/2p6/9/9/9/3K5 b - - 0 1", "c6"), ["c6c5"]);
    assert_eq!(moves_from("4k4/9/9/2p6/9/2p6/9/9/9/3K5 b - - 0 1", "c4"), ["c4b4", "c4c3", "c4d4"]);
}

#[test]
fn generals_may_not_face_each_other_on_an_open_file() {
    // The horse on e4 is the only piece between the generals: it may not leave the file.
    assert_eq!(all_moves("4k4/9/9/9/9/4N4/9/9/9/4K4 w - - 0 1"), ["e0d0", "e0e1", "e0f0"]);
    // The general on d0 may not step to e0 under the other general.
    assert_eq!(all_moves("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1"), ["d0d1"]);
    // A FEN where they already face each other is refused.
    assert!(matches!(
        Position::from_fen("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"),
        Err(FenError::OpponentInCheck { color: "Black" })
    ));
}

#[test]
fn no_legal_move_loses_in_checkmate_and_in_stalemate() {
    // Checkmate: the chariot on d5 checks d9; d8 stays on the file, e9 would face the red general.
    let mate = Position::from_fen("3k5/9/9/9/3R5/9/9/9/9/4K4 b - - 0 1").unwrap();
    assert!(mate.in_check(Color::Black));
    assert_eq!(mate.count_legal_moves(), 0);
    assert_eq!(mate.outcome(), Some(Outcome::Checkmate { winner: Color::RED }));
    // Stalemate: not in check, but d8 is covered by the chariot on a8 and e9 faces the red general: Black loses.
    let stale = Position::from_fen("3k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1").unwrap();
    assert!(!stale.in_check(Color::Black));
    assert_eq!(stale.count_legal_moves(), 0);
    assert_eq!(stale.outcome(), Some(Outcome::Stalemate { winner: Color::RED }));
    assert_eq!(stale.outcome().unwrap().winner(), Color::RED);
    assert_eq!(Position::startpos().outcome(), None);
    // The same through a game: the chariot delivers the mate.
    let mut game = XiangqiGame::new(Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1").unwrap());
    assert_eq!(game.outcome(), None);
    game.play(game.position().parse_move("a0a8").unwrap()).unwrap();
    assert_eq!(game.outcome(), Some(Outcome::Stalemate { winner: Color::RED }));
    game.undo();
    game.play(game.position().parse_move("a0d0").unwrap()).unwrap();
    assert_eq!(game.outcome(), Some(Outcome::Checkmate { winner: Color::RED }));
}

#[test]
fn fen_round_trip_on_the_suite_and_on_playouts() {
    for SuiteLine { line, fen, .. } in suite() {
        let pos = Position::from_fen(&fen).unwrap_or_else(|e| panic!("line {line}: {e}"));
        assert_eq!(pos.to_fen(), fen, "line {line}");
    }
    for pos in playouts(7, 40, 120) {
        let again = Position::from_fen(&pos.to_fen()).unwrap_or_else(|e| panic!("{pos:?}: {e}"));
        assert_eq!(again, pos);
        assert_eq!(again.key(), pos.key());
    }
    assert_eq!(Position::startpos().to_fen(), START_FEN);
    // `r` for Red and the short form without the last four fields are read too.
    let short = Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r").unwrap();
    assert_eq!(short, Position::startpos());
}

#[test]
fn fen_errors_name_what_is_wrong() {
    let cases = [
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9 w - - 0 1", "expected 10 ranks separated by '/', found 9"),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w - - 0 1",
            "board rank 0 \"RNBAKABN\": expected 9 files, found 8",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNQ w - - 0 1",
            "board rank 0: 'Q' is not a piece letter",
        ),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x - - 0 1", "side to move \"x\""),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w KQ - 0 1", "castling field \"KQ\""),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - x 1", "halfmove clock \"x\""),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 0", "move number \"0\""),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR", "expected 2 to 6 fields"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w - - 0 1", "Red has 0 generals"),
        ("3k5/9/9/9/9/9/9/9/9/K8 w - - 0 1", "Red general on a0: outside its palace"),
        ("3k5/9/9/9/9/9/9/9/9/A3K4 w - - 0 1", "Red advisor on a0: not on one of its five palace points"),
        ("3k5/9/9/9/2B6/9/9/9/9/4K4 w - - 0 1", "Red elephant on c5: not on one of its seven points"),
        ("3k5/9/9/9/9/9/9/9/P8/4K4 w - - 0 1", "Red soldier on a1: behind its starting rank"),
        ("3k5/9/9/9/9/9/9/9/9/RRR1K4 w - - 0 1", "Red has 3 chariots: at most 2"),
        ("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "Black, not to move, is in check"),
    ];
    for (fen, expected) in cases {
        match Position::from_fen(fen) {
            Ok(_) => panic!("{fen} was accepted"),
            Err(e) => assert!(e.to_string().contains(expected), "{fen}: {e} (expected {expected:?})"),
        }
    }
}

/// `count` positions along seeded random playouts from the start position, each `1..=max_plies` plies deep
/// (a playout that ends earlier gives its last position).
fn playouts(seed: u64, count: usize, max_plies: usize) -> Vec<Position> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..count)
        .map(|_| {
            let plies = rng.random_range(1..=max_plies);
            let mut pos = Position::startpos();
            for _ in 0..plies {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves.as_slice()[rng.random_range(0..moves.len())];
                pos.make_move(m);
            }
            pos
        })
        .collect()
}

#[test]
fn make_and_undo_restore_position_and_key_on_playouts() {
    let mut rng = StdRng::seed_from_u64(20_240_808);
    for _ in 0..60 {
        let mut pos = Position::startpos();
        for _ in 0..150 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            for &m in &moves {
                let before = pos.clone();
                let undo = pos.make_move(m);
                assert!(pos.is_consistent(), "after {m} from {before:?}");
                assert_eq!(pos.key(), pos.compute_key());
                pos.unmake_move(m, &undo);
                assert_eq!(pos, before, "undo of {m}");
                assert_eq!(pos.key(), before.key());
            }
            let m: Move = moves.as_slice()[rng.random_range(0..moves.len())];
            pos.make_move(m);
        }
    }
    // And at every node of a small tree, with the plain count (no bulk counting) equal to the suite's.
    assert_eq!(perft_checked(&mut Position::startpos(), 3), 79_666);
    for pos in playouts(11, 20, 60) {
        let expected = perft(&mut pos.clone(), 2);
        assert_eq!(perft_checked(&mut pos.clone(), 2), expected, "{pos:?}");
    }
}

#[test]
fn repetitions_are_detected_by_key_since_the_last_capture() {
    let mut game = XiangqiGame::new(Position::startpos());
    assert!(!game.is_repetition());
    let shuffle = ["h0g2", "h9g7", "g2h0", "g7h9"];
    for round in 1..=2 {
        for text in shuffle {
            let m = game.position().parse_move(text).unwrap();
            game.play(m).unwrap();
        }
        assert_eq!(game.repetitions(), round, "the start position again, round {round}");
    }
    assert_eq!(game.moves().len(), 8);
    assert_eq!(game.undo().map(|m| m.to_text()).as_deref(), Some("g7h9"));
    assert_eq!(game.repetitions(), 1, "the position after g2h0 was seen once before");
    // A capture starts afresh: cannon takes horse, then the horses shuffle back to the same position once.
    let mut game = XiangqiGame::new(Position::startpos());
    for text in ["b2b9", "a9b9", "h0g2", "h9g7", "g2h0", "g7h9"] {
        let m = game.position().parse_move(text).unwrap();
        game.play(m).unwrap();
    }
    assert_eq!(game.repetitions(), 1);
    assert_eq!(game.position().halfmove_clock(), 4);
    assert!(game.play(game.position().parse_move("h2e2").unwrap()).is_ok());
    let e2 = Square::parse("e2").unwrap();
    assert!(game.play(Move::new(e2, e2)).is_err());
    assert_eq!(game.moves().len(), 7);
}

fn fairy_stockfish() -> Option<&'static str> {
    if Path::new(FAIRY_STOCKFISH).exists() {
        Some(FAIRY_STOCKFISH)
    } else {
        eprintln!(
            "SKIPPED: {FAIRY_STOCKFISH} is missing; install the Debian package fairy-stockfish (the README test \
             command does) to compare with it"
        );
        None
    }
}

#[test]
fn agrees_with_fairy_stockfish_at_depth_4_on_100_playout_positions() {
    let Some(fsf) = fairy_stockfish() else { return };
    let playout_positions = playouts(8, 100, 80);
    // The seeded playouts are fixed: 100 positions, 2 of them in check, 5,872,838 leaves at depth 3 in all (and
    // 233,820,422 at depth 4, which Fairy-Stockfish confirms below).
    let at_depth_3: u64 = playout_positions.par_iter().map(|p| perft(&mut p.clone(), 3)).sum();
    assert_eq!(at_depth_3, 5_872_838);
    assert_eq!(playout_positions.iter().filter(|p| p.in_check(p.side_to_move())).count(), 2);
    let positions: Vec<String> = playout_positions.iter().map(|p| p.to_fen()).collect();
    // Two engine processes, each comparing half of the positions; each difference names where the generators
    // first disagree.
    let failures: Vec<String> = positions
        .par_chunks(50)
        .flat_map_iter(|chunk| {
            let mut theirs = UciPerftOracle::start::<arbiter::xiangqi::XiangqiGame>(fsf, false, Duration::from_secs(300))
                .expect("fairy-stockfish starts");
            let mut ours = ArbiterOracle::<arbiter::xiangqi::XiangqiGame>::new(false);
            chunk
                .iter()
                .filter_map(|fen| match find_divergence::<arbiter::xiangqi::XiangqiGame>(&mut ours, &mut theirs, fen, 4, false) {
                    Ok(None) => None,
                    Ok(Some(d)) => Some(format!(
                        "{fen}: arbiter {} vs fairy-stockfish {}; after {:?} at {}: only arbiter {:?}, only fairy-stockfish {:?}",
                        d.root_counts.0, d.root_counts.1, d.moves, d.fen, d.only_first, d.only_second
                    )),
                    Err(e) => Some(format!("{fen}: {e}")),
                })
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn comparison_descends_to_the_move_a_generator_misses() {
    // A deliberately wrong generator (no cannon captures) against the real Fairy-Stockfish: the descent ends at
    // the first position where a cannon capture exists, and names it, in our move notation.
    let Some(fsf) = fairy_stockfish() else { return };
    fn no_cannon_captures(pos: &Position, m: Move) -> bool {
        let cannon = pos.piece_on(m.from()).is_some_and(|p| p.kind == arbiter::xiangqi::PieceType::Cannon);
        !(cannon && pos.piece_on(m.to()).is_some())
    }
    let mut theirs =
        UciPerftOracle::start::<arbiter::xiangqi::XiangqiGame>(fsf, false, Duration::from_secs(60)).unwrap();
    let mut bad = ArbiterOracle::<arbiter::xiangqi::XiangqiGame>::filtered(false, no_cannon_captures);
    let d = find_divergence::<arbiter::xiangqi::XiangqiGame>(&mut bad, &mut theirs, START_FEN, 3, false)
        .unwrap()
        .expect("they differ");
    assert_eq!(d.moves, Vec::<String>::new());
    assert_eq!(d.only_first, Vec::<String>::new());
    assert_eq!(d.only_second, ["b2b9", "h2h9"]);
    assert_eq!(d.root_counts.1, 79_666);
}

fn arbiter(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter")).args(args).output().expect("arbiter runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("xiangqi-cli");
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn cli_perft_game_xiangqi() {
    let (code, out, _) = arbiter(&["perft", "--game", "xiangqi", "--depth", "3"]);
    assert_eq!((code, out.trim()), (0, "nodes 79666"));
    let (code, out, _) = arbiter(&["perft", "--game", "xiangqi", "--depth", "2", "--divide", "--threads", "2"]);
    assert_eq!(code, 0);
    assert!(out.contains("h2e2   45\n") && out.contains("moves 44\nnodes 1920"), "{out}");

    let good = format!("{START_FEN} ;D1 44 ;D2 1920 ;D3 79666\n3k5/9/9/9/3R5/9/9/9/9/4K4 b - - 0 1 ;D1 0 ;D2 0\n");
    let path = temp_file("good.epd", &good);
    let (code, out, _) = arbiter(&["perft", "--game", "xiangqi", "--quiet", "--suite", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("2 positions, 5 checks, 0 failed"), "{out}");

    let wrong = good.replace(";D2 1920", ";D2 1921");
    let path = temp_file("wrong.epd", &wrong);
    let (code, out, _) = arbiter(&["perft", "--game", "xiangqi", "--quiet", "--suite", path.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains(&format!("wrong.epd:1: {START_FEN}")), "{out}");
    assert!(out.contains("depth 2 expected 1921 actual 1920"), "{out}");
    assert!(out.contains("h2e2   45"), "divide printed: {out}");

    let bad = format!("{good}3k5/9/9/9/9/9/9/9/9/K8 w - - 0 1 ;D1 1\n");
    let path = temp_file("bad.epd", &bad);
    let (code, _, err) = arbiter(&["perft", "--game", "xiangqi", "--quiet", "--suite", path.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("bad.epd:3:") && err.contains("outside its palace"), "{err}");

    let (code, _, err) = arbiter(&["perft", "--game", "xiangqi", "--fen", "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"]);
    assert_eq!(code, 2);
    assert!(err.contains("--fen") && err.contains("Black, not to move, is in check"), "{err}");
    let (code, _, err) = arbiter(&["perft", "--game", "xiangqi", "--chess960"]);
    assert_eq!(code, 2);
    assert!(err.contains("--chess960 applies to --game chess only"), "{err}");
    let (code, _, err) = arbiter(&["perft", "--game", "shogi"]);
    assert_eq!(code, 2);
    assert!(err.contains("shogi"), "{err}");
    // The perft table gives the same count.
    let (code, out, _) = arbiter(&["perft", "--game", "xiangqi", "--depth", "4", "--hash-mb", "8"]);
    assert_eq!((code, out.trim()), (0, "nodes 3290240"));
}

#[test]
fn cli_compare_with_fairy_stockfish() {
    let Some(fsf) = fairy_stockfish() else { return };
    let (code, out, err) = arbiter(&[
        "perft",
        "--game",
        "xiangqi",
        "--suite",
        suite_path().to_str().unwrap(),
        "--depth",
        "3",
        "--compare-with",
        fsf,
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("14 positions compared with /usr/games/fairy-stockfish at depth 3: 14 agree, 0 differ"),
        "{out}"
    );
}

/// A FEN built from 90 proposals (square index = rank * 9 + file): `proposals[sq] % 24` below 14 proposes piece
/// `KABNRCPkabnrcp`[that] on `sq`, kept when its kind may stand there and the side has fewer than its starting
/// count; the generals stand on d0 and f9. The reader may still refuse it (a side not to move in check).
fn proposed_fen(proposals: &[u8], black_to_move: bool) -> String {
    const ADVISOR_POINTS: [&str; 10] = ["d0", "f0", "e1", "d2", "f2", "d9", "f9", "e8", "d7", "f7"];
    const ELEPHANT_POINTS: [&str; 14] =
        ["c0", "g0", "a2", "e2", "i2", "c4", "g4", "c9", "g9", "a7", "e7", "i7", "c5", "g5"];
    let letters: Vec<char> = "KABNRCPkabnrcp".chars().collect();
    let mut board = [None::<char>; 90];
    board[Square::parse("d0").unwrap().index()] = Some('K');
    board[Square::parse("f9").unwrap().index()] = Some('k');
    let mut counts = std::collections::HashMap::new();
    for (i, &p) in proposals.iter().enumerate().take(90) {
        let Some(&letter) = letters.get(usize::from(p % 24)) else { continue };
        let sq = Square::from_index(i);
        let name = sq.to_string();
        let red = letter.is_ascii_uppercase();
        let (points, max) = match letter.to_ascii_lowercase() {
            'a' => (ADVISOR_POINTS.contains(&name.as_str()) && (sq.rank() <= 2) == red, 2),
            'b' => (ELEPHANT_POINTS.contains(&name.as_str()) && (sq.rank() <= 4) == red, 2),
            'p' => (if red { sq.rank() >= 3 } else { sq.rank() <= 6 }, 5),
            'k' => (false, 1),
            _ => (true, 2),
        };
        let count = counts.entry(letter).or_insert(0);
        if board[i].is_none() && points && *count < max {
            board[i] = Some(letter);
            *count += 1;
        }
    }
    let rows: Vec<String> = (0..10)
        .rev()
        .map(|rank| {
            let mut s = String::new();
            let mut empty = 0;
            for file in 0..9 {
                match board[rank * 9 + file] {
                    Some(l) => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        s.push(l);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            s
        })
        .collect();
    format!("{} {} - - 0 1", rows.join("/"), if black_to_move { 'b' } else { 'w' })
}

proptest::proptest! {
    #[test]
    fn fen_and_move_readers_never_panic(text in "\\PC{0,120}") {
        let _ = Position::from_fen(&text);
        let _ = Position::startpos().parse_move(&text);
        let _ = arbiter::xiangqi::to_ranks_0_to_9(&text);
        let _ = arbiter::xiangqi::to_ranks_1_to_10(&text);
    }

    #[test]
    fn fen_reader_never_panics_on_near_fens(board in "[1-9kabnrcpKABNRCP/]{0,100}", tail in "[ wbr0-9-]{0,16}") {
        let _ = Position::from_fen(&format!("{board}{tail}"));
    }

    /// Any position the reader accepts can be played: move generation, make/unmake and the key stay exact.
    #[test]
    fn accepted_random_positions_generate_and_undo_exactly(
        proposals in proptest::collection::vec(proptest::num::u8::ANY, 90),
        black in proptest::bool::ANY,
    ) {
        let fen = proposed_fen(&proposals, black);
        if let Ok(pos) = Position::from_fen(&fen) {
            proptest::prop_assert_eq!(pos.to_fen(), fen.clone());
            let n = perft_checked(&mut pos.clone(), 2);
            proptest::prop_assert_eq!(n, perft(&mut pos.clone(), 2));
        }
    }
}

#[test]
fn random_placements_are_often_accepted() {
    // The property test above plays a position only when the reader accepts it: make sure many are.
    let mut rng = StdRng::seed_from_u64(3);
    let accepted = (0..200)
        .filter(|i| {
            let proposals: Vec<u8> = (0..90).map(|_| rng.random_range(0..=255)).collect();
            Position::from_fen(&proposed_fen(&proposals, i % 2 == 1)).is_ok()
        })
        .count();
    assert_eq!(accepted, 128, "of 200");
}
