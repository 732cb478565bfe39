//! Every position Arbiter is given from the shared suites, books and tuning data passes the position rules
//! (`docs/positions.md`), except the one position in them that no game reaches: `perftsuite.epd` line 51,
//! `B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1`, a double check by two bishops (each reached f3 along its own diagonal;
//! no single move uncovers one and gives the other).

use arbiter::chess::Variant;
use arbiter::chess::epd::parse_epd;
use arbiter::runner::openings::load_openings_as;
use arbiter::tune::data::read_labelled_file;
use std::path::{Path, PathBuf};

fn shared(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared").join(rel)
}

/// The files of a shared folder with extension `ext`, sorted.
fn files(dir: &str, ext: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(shared(dir))
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    out.sort();
    out
}

/// The shared perft-suite lines that no game reaches, as `(file, line)`.
const IMPOSSIBLE_SUITE_LINES: &[(&str, usize)] = &[("perftsuite.epd", 51)];

#[test]
fn every_shared_suite_and_book_loads() {
    let mut count = 0;
    let mut refused = Vec::new();
    for dir in ["suites/perft", "suites/tactics"] {
        for path in files(dir, "epd") {
            let chess960 = path.ends_with("fischer.epd");
            let name = path.file_name().expect("a file name").to_string_lossy().to_string();
            let text = std::fs::read_to_string(&path).expect("a shared suite is UTF-8 text");
            for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
                match parse_epd(line, i + 1, chess960) {
                    Ok(_) => count += 1,
                    Err(e) => {
                        assert!(e.to_string().contains("impossible check"), "{name}:{}: {e}", i + 1);
                        refused.push((name.clone(), i + 1));
                    }
                }
            }
        }
    }
    let expected: Vec<(String, usize)> = IMPOSSIBLE_SUITE_LINES.iter().map(|&(f, l)| (f.to_string(), l)).collect();
    assert_eq!(refused, expected);
    for ext in ["epd", "pgn"] {
        for path in files("suites/openings", ext) {
            let variant = if path.ends_with("FRC_openings.epd") { Variant::Chess960 } else { Variant::Standard };
            count += load_openings_as(&path, None, None, variant).unwrap_or_else(|e| panic!("{e}")).len();
        }
    }
    assert!(count > 100_000, "{count} positions");
}

#[test]
fn shared_tuning_data_has_no_bad_line() {
    let set = read_labelled_file(&shared("data/tuning/selfplay-sf15-n1500-quiet.book")).expect("readable");
    assert!(set.bad.is_empty(), "{:?}", &set.bad_messages()[..set.bad.len().min(5)]);
    assert!(set.positions.len() > 300_000);
}

/// Runs `arbiter ARGS`; returns the exit code, stdout and stderr.
fn arbiter(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter")).args(args).output().expect("arbiter runs");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

/// A fresh folder under the target's temporary folder.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("positions-tests").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create the scratch folder");
    dir
}

/// A book line's clock fields before its operations reach the game: with the halfmove clock at 99, Black's
/// first move (a king move: no capture, no pawn) ends the game by the fifty-move rule, and the PGN `FEN` tag
/// and the CSV start FEN carry `99 60`.
#[test]
fn book_clocks_reach_the_game() {
    let dir = scratch("book-clocks");
    let book = dir.join("one.epd");
    std::fs::write(&book, "4k3/8/8/8/8/8/8/R3K2R b KQ - 99 60 bm Kd7; id \"clocks\";\n").expect("write the book");
    let out = dir.join("run");
    let (code, stdout, stderr) = arbiter(&[
        "match",
        "--openings",
        book.to_str().expect("UTF-8 path"),
        "--engine",
        "name=seed",
        "--engine",
        "name=nomob",
        "--games",
        "2",
        "--nodes",
        "200",
        "--out",
        out.to_str().expect("UTF-8 path"),
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let fen = "4k3/8/8/8/8/8/8/R3K2R b KQ - 99 60";
    let pgn = std::fs::read_to_string(out.join("games.pgn")).expect("games.pgn");
    assert_eq!(pgn.matches(&format!("[FEN \"{fen}\"]")).count(), 2, "{pgn}");
    let csv = std::fs::read_to_string(out.join("games.csv")).expect("games.csv");
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(rows.len(), 2, "{csv}");
    for row in rows {
        assert!(row.contains(",1/2-1/2,fifty-move rule,1,") && row.ends_with(fen), "{row}");
    }
}

/// Each acceptance policy of docs/positions.md not tested elsewhere, one FEN each: `Ok(FEN Arbiter writes)` or
/// `Err(text of the error)`.
#[test]
fn acceptance_policies() {
    use arbiter::chess::Position;
    let cases: &[(&str, Result<&str, &str>)] = &[
        // En passant: possible but no legal capture: accepted and dropped.
        ("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1", Ok("4k3/8/8/8/4P3/8/8/4K3 b - - 0 1")),
        // With a capture: kept.
        ("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1", Ok("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1")),
        // No pawn that could have just made the double step, or a square behind it occupied: refused.
        ("4k3/8/8/8/8/8/8/4K3 b - e3 0 1", Err("no pawn in front of it")),
        ("4k3/8/8/8/3pP3/8/4N3/4K3 b - e3 0 1", Err("occupied")),
        ("4k3/8/8/8/3pP3/8/8/4K3 w - e3 0 1", Err("rank 6")),
        // Castling letters in any order are read and written back in KQkq order; repeated ones are refused.
        ("r3k2r/8/8/8/8/8/8/R3K2R w qkQK - 0 1", Ok("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")),
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkqK - 0 1", Err("repeated")),
        // A right without its king and rook on their squares is refused, not cleared.
        ("r3k2r/8/8/8/8/8/8/R4K1R w K - 0 1", Err("castling right K needs the king")),
        ("r3k3/8/8/8/8/8/8/R3K2R w Kk - 0 1", Err("castling")),
        // Shredder-FEN letters name the same rights in standard chess when they name the corner rooks.
        ("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1", Ok("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")),
        // Clocks: fullmove 0 is refused, halfmove 100 and more is accepted (the game is then over).
        ("4k3/8/8/8/8/8/8/4K2R w K - 0 0", Err("fullmove")),
        ("4k3/8/8/8/8/8/8/4K2R w K - 100 80", Ok("4k3/8/8/8/8/8/8/4K2R w K - 100 80")),
    ];
    for &(fen, expected) in cases {
        match (Position::from_fen(fen), expected) {
            (Ok(pos), Ok(written)) => assert_eq!(pos.to_fen(), written, "{fen}"),
            (Err(e), Err(needle)) => assert!(e.to_string().contains(needle), "{fen}: {e} lacks {needle:?}"),
            (got, _) => panic!("{fen}: got {got:?}, expected {expected:?}"),
        }
    }
}

/// A book line whose position already ends the game (checkmate, stalemate, insufficient material, the
/// fifty-move rule) is refused when the book is read, naming the line: no game is played from it.
#[test]
fn book_lines_that_end_the_game_are_refused() {
    use arbiter::runner::openings::load_openings;
    let dir = scratch("finished-books");
    for (line, termination) in [
        ("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", "checkmate"),
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "stalemate"),
        ("4k3/8/8/8/8/8/8/4KB2 w - - 0 1", "insufficient material"),
        ("4k3/8/8/8/8/8/8/4K2R w K - 100 80", "fifty-move rule"),
    ] {
        let book = dir.join("book.epd");
        std::fs::write(&book, format!("4k3/8/8/8/8/8/8/4K2R w K - 0 1\n{line}\n")).expect("write the book");
        let err = load_openings(&book, None).expect_err(line).to_string();
        assert!(err.contains("book.epd:2: the game is over after book ply 0"), "{err}");
        assert!(err.contains(termination), "{line}: {err}");
    }
}
