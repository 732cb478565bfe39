//! Polyglot books against Debian's `polyglot make-book` and python-chess's own reader (`chess.polyglot`): the
//! key on random positions, books made by polyglot read the same by Arbiter and python-chess, books made by
//! `arbiter book --from-pgn` byte for byte as polyglot's, damaged books refused, and matches from a book
//! (reproducible by `--seed`, resumable, book moves legal). Also opening files with CRLF line ends, a
//! byte-order mark, trailing spaces and Latin-1 comments.

use arbiter::chess::Position;
use arbiter::chess::polyglot::{Book, key};
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::{self, arbiter, python, text};
const POLYGLOT: &str = "/usr/games/polyglot";
const REFERENCE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/polyglot_reference.py");
const CHECK_PGN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/tools/check_pgn.py");
const GAMES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/suites/openings/8moves_v3.part2of3.pgn");

fn scratch(name: &str) -> PathBuf {
    support::scratch_in("polyglot-tests", name)
}

fn arbiter_ok(args: &[&str]) -> String {
    let out = arbiter(args);
    assert!(out.status.success(), "arbiter {args:?}:\n{}{}", text(&out.stdout), text(&out.stderr));
    text(&out.stdout)
}

/// Debian's `polyglot make-book` (package polyglot, installed by the test command).
fn make_book(pgn: &str, bin: &Path, options: &[&str]) {
    let out = Command::new(POLYGLOT)
        .args(["make-book", "-pgn", pgn, "-bin", bin.to_str().unwrap()])
        .args(options)
        .output()
        .expect("Debian's polyglot must be installed: run the test command of README.md");
    assert!(out.status.success() && bin.exists(), "polyglot make-book {options:?}: {}", text(&out.stderr));
}

#[test]
fn keys_agree_with_python_chess_on_random_positions() {
    let dir = scratch("keys");
    let fens = dir.join("fens.txt");
    std::fs::write(&fens, python(&[REFERENCE, "positions", "3000", "11"])).unwrap();
    let lines = python(&[REFERENCE, "keys", fens.to_str().unwrap()]);
    let (mut compared, mut en_passant) = (0, 0);
    for line in lines.lines() {
        let (fen, want) = line.split_once('\t').unwrap();
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(format!("{:016x}", key(&pos)), want, "{fen}");
        compared += 1;
        en_passant += usize::from(!fen.contains(" - 0") && fen.split(' ').nth(3) != Some("-"));
    }
    assert!(compared == 3000 && en_passant >= 100, "{compared} positions, {en_passant} with an en-passant square");
}

#[test]
fn books_of_debian_polyglot_read_the_same_by_arbiter_and_python_chess_and_arbiter_writes_them_byte_for_byte() {
    let dir = scratch("books");
    let positions = dir.join("positions.txt");
    std::fs::write(&positions, python(&[REFERENCE, "book-positions", GAMES, "12"])).unwrap();
    let fens: Vec<String> = std::fs::read_to_string(&positions).unwrap().lines().map(String::from).collect();
    assert!(fens.len() > 10_000, "{}", fens.len());
    for (name, options) in [
        ("default", vec![]),
        ("short", vec!["-max-ply", "10", "-min-game", "1"]),
        ("uniform", vec!["-min-game", "5", "-uniform"]),
    ] {
        let theirs = dir.join(format!("{name}-polyglot.bin"));
        make_book(GAMES, &theirs, &options);
        // Arbiter's reader and python-chess's on every position of the games' first 12 plies.
        let reference = python(&[REFERENCE, "entries", theirs.to_str().unwrap(), positions.to_str().unwrap()]);
        let book = Book::from_bytes(&std::fs::read(&theirs).unwrap()).unwrap();
        let mut with_moves = 0;
        for (fen, want) in fens.iter().zip(reference.lines()) {
            let pos = Position::from_fen(fen).unwrap();
            let ours: Vec<(String, u16)> =
                book.moves(&pos).unwrap().into_iter().map(|(m, w)| (m.to_uci(false), w)).collect();
            let want: Vec<(String, u16)> = serde_json::from_str(want).unwrap();
            assert_eq!(ours, want, "{name}: {fen}");
            with_moves += usize::from(!ours.is_empty());
        }
        assert!(with_moves > 100, "{name}: {with_moves} positions with book moves");
        // The same book written by Arbiter, byte for byte, and read back by python-chess.
        let ours = dir.join(format!("{name}-arbiter.bin"));
        let flags: Vec<String> = options.iter().map(|o| o.replacen('-', "--", 1)).collect();
        let mut args = vec!["book", "--from-pgn", GAMES, "--format", "polyglot", "--out", ours.to_str().unwrap()];
        args.extend(flags.iter().map(String::as_str));
        let said = arbiter_ok(&args);
        assert!(said.contains("entries from"), "{said}");
        let (a, b) = (std::fs::read(&ours).unwrap(), std::fs::read(&theirs).unwrap());
        assert!(a == b, "{name}: {} bytes from arbiter, {} from polyglot", a.len(), b.len());
        let again = python(&[REFERENCE, "entries", ours.to_str().unwrap(), positions.to_str().unwrap()]);
        assert_eq!(again, reference, "{name}");
    }
    // `arbiter book probe` lists the start position's moves with the key.
    let probe = arbiter_ok(&["book", "probe", "--book", dir.join("default-arbiter.bin").to_str().unwrap()]);
    assert!(probe.contains("key      463b96181691fc9c") && probe.contains("e2e4"), "{probe}");
    let json =
        arbiter_ok(&["book", "probe", "--book", dir.join("default-arbiter.bin").to_str().unwrap(), "--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    assert_eq!(json["key"], "463b96181691fc9c");
    assert!(json["moves"].as_array().unwrap().iter().any(|m| m["san"] == "e4"), "{json}");
}

#[test]
fn damaged_books_are_refused_naming_the_file_and_the_problem() {
    let dir = scratch("damaged");
    let good = dir.join("good.bin");
    make_book(GAMES, &good, &["-max-ply", "8"]);
    let bytes = std::fs::read(&good).unwrap();
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("cut.bin", bytes[..bytes.len() - 5].to_vec(), "not a whole number of 16-byte Polyglot entries"),
        ("unsorted.bin", [&bytes[16..], &bytes[..16]].concat(), "not sorted by key"),
        ("empty.bin", Vec::new(), "no entries"),
    ];
    for (name, content, problem) in cases {
        let path = dir.join(name);
        std::fs::write(&path, content).unwrap();
        let path = path.to_str().unwrap();
        let out = arbiter(&["book", "probe", "--book", path]);
        assert_eq!(out.status.code(), Some(2), "{name}");
        assert!(text(&out.stderr).contains(name) && text(&out.stderr).contains(problem), "{}", text(&out.stderr));
        let openings = format!("file={path},format=polyglot");
        let out = arbiter(&[
            "match",
            "--openings",
            &openings,
            "--engine",
            "name=seed",
            "--engine",
            "name=nomob",
            "--games",
            "2",
        ]);
        assert_eq!(out.status.code(), Some(2), "{name}: {}", text(&out.stderr));
        assert!(text(&out.stderr).contains(problem), "{name}: {}", text(&out.stderr));
    }
    // A book whose start position's move is not legal there: refused with the position, never played.
    let mut illegal = bytes.clone();
    let first = illegal.chunks(16).position(|e| e[..8] == 0x463b96181691fc9c_u64.to_be_bytes()).unwrap();
    // e2e5: from e2 (file 4, rank 1) to e5 (file 4, rank 4).
    let raw: u16 = 4 | 4 << 3 | 4 << 6 | 1 << 9;
    illegal[first * 16 + 8..first * 16 + 10].copy_from_slice(&raw.to_be_bytes());
    let path = dir.join("illegal.bin");
    std::fs::write(&path, illegal).unwrap();
    let openings = format!("file={},format=polyglot", path.display());
    let out =
        arbiter(&["match", "--openings", &openings, "--engine", "name=seed", "--engine", "name=nomob", "--games", "2"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("the book move e2e5")
            && stderr.contains("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        "{stderr}"
    );
    // depth= applies to Polyglot books only, plies= to EPD and PGN files.
    let out = arbiter(&[
        "match",
        "--openings",
        &format!("file={GAMES},depth=4"),
        "--engine",
        "name=seed",
        "--engine",
        "name=nomob",
        "--games",
        "2",
    ]);
    assert!(text(&out.stderr).contains("--openings depth applies to Polyglot books only"), "{}", text(&out.stderr));
}

/// The book part of every game of a run: `(round, book moves)`.
fn book_lines(run: &Path) -> Vec<String> {
    let pgn = std::fs::read_to_string(run.join("games.pgn")).unwrap();
    pgn.split("[Event ")
        .skip(1)
        .map(|game| {
            let movetext = game.split("\n\n").nth(1).unwrap_or("");
            let words: Vec<&str> = movetext.split_whitespace().collect();
            let mut line = Vec::new();
            for pair in words.windows(2) {
                if pair[1] == "{book}" {
                    line.push(pair[0].to_string());
                }
            }
            line.join(" ")
        })
        .collect()
}

#[test]
fn matches_from_a_book_are_reproducible_by_seed_resumable_and_legal() {
    let dir = scratch("match");
    let book = dir.join("book.bin");
    make_book(GAMES, &book, &["-max-ply", "16", "-min-game", "2"]);
    let openings = format!("file={},format=polyglot,depth=10", book.display());
    let play = |name: &str, seed: &str| {
        let out = dir.join(name);
        let args = [
            "match",
            "--openings",
            &openings,
            "--engine",
            "name=seed",
            "--engine",
            "name=nomob",
            "--games",
            "12",
            "--nodes",
            "300",
            "--seed",
            seed,
            "--concurrency",
            "1",
            "--out",
            out.to_str().unwrap(),
        ];
        arbiter_ok(&args);
        python(&[CHECK_PGN, out.join("games.pgn").to_str().unwrap()]);
        out
    };
    let a = play("a", "5");
    let b = play("b", "5");
    let c = play("c", "6");
    let (la, lb, lc) = (book_lines(&a), book_lines(&b), book_lines(&c));
    assert_eq!(la.len(), 12);
    assert_eq!(la, lb, "the same seed draws the same lines");
    assert_ne!(la, lc, "another seed draws other lines");
    // Both games of a pair play the same line; every line has book moves and at most depth=10 of them.
    for pair in la.chunks(2) {
        assert_eq!(pair[0], pair[1]);
        let plies = pair[0].split_whitespace().filter(|w| !w.ends_with('.')).count();
        assert!((1..=10).contains(&plies), "{}", pair[0]);
    }
    assert!(la.iter().collect::<std::collections::HashSet<_>>().len() >= 3, "{la:?}");
    // Resumed after its last pair was lost, the run plays it again with the same line.
    let pgn = std::fs::read_to_string(a.join("games.pgn")).unwrap();
    let cut = pgn.match_indices("[Event ").nth(10).unwrap().0;
    std::fs::write(a.join("games.pgn"), &pgn[..cut]).unwrap();
    let csv = std::fs::read_to_string(a.join("games.csv")).unwrap();
    let kept: Vec<&str> = csv.lines().take(11).collect();
    std::fs::write(a.join("games.csv"), kept.join("\n") + "\n").unwrap();
    let out = arbiter(&["match", "--resume", a.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(book_lines(&a), lb, "the resumed run's lines");
}

#[test]
fn opening_files_as_people_have_them_are_read() {
    let dir = scratch("text");
    let files: [(&str, &[u8]); 4] = [
        ("crlf.pgn", b"[Event \"a\"]\r\n[Site \"b\"]  \r\n[Result \"1-0\"]\r\n\r\n1. e4 e5 2. Nf3 1-0\r\n"),
        ("latin1.pgn", b"[Event \"J\xf6rg's games\"]\n[Result \"*\"]\n\n1. d4 {caf\xe9} d5 *\n"),
        ("bom.pgn", b"\xef\xbb\xbf[Event \"a\"]\n[Result \"*\"]\n\n1. c4 e5 *\n"),
        ("crlf.epd", b"\xef\xbb\xbfrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e5;  \r\n"),
    ];
    for (name, bytes) in files {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        let out = dir.join(format!("run-{name}"));
        let args = [
            "match",
            "--openings",
            path.to_str().unwrap(),
            "--engine",
            "name=seed",
            "--engine",
            "name=nomob",
            "--games",
            "2",
            "--nodes",
            "200",
            "--out",
            out.to_str().unwrap(),
        ];
        arbiter_ok(&args);
        let pgn = std::fs::read_to_string(out.join("games.pgn")).unwrap();
        assert_eq!(pgn.matches("[Event ").count(), 2, "{name}");
        if name.ends_with(".epd") {
            assert!(pgn.contains("[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\"]"), "{pgn}");
        } else {
            assert!(pgn.contains("{book}"), "{name}: {pgn}");
        }
    }
}

#[test]
fn an_engines_own_book_moves_for_it_up_to_its_depth_and_replays_by_seed() {
    let dir = scratch("engine-book");
    let bin = dir.join("own.bin");
    make_book(GAMES, &bin, &["-max-ply", "16", "-min-game", "2"]);
    let book = Book::from_bytes(&std::fs::read(&bin).unwrap()).unwrap();
    let play = |name: &str| {
        let out = dir.join(name);
        let seed_spec = format!("name=seed,book={},bookdepth=3", bin.display());
        let args = ["match", "--engine", &seed_spec, "--engine", "name=nomob", "--openings", "startpos"];
        let rest = ["--games", "6", "--nodes", "300", "--concurrency", "2", "--out", out.to_str().unwrap()];
        arbiter_ok(&[&args[..], &rest[..]].concat());
        python(&[CHECK_PGN, out.join("games.pgn").to_str().unwrap()]);
        std::fs::read_to_string(out.join("games.pgn")).unwrap()
    };
    let pgn = play("a");
    let sorted = |pgn: &str| {
        let mut games: Vec<String> = pgn.split("[Event ").map(String::from).collect();
        games.sort();
        games
    };
    assert!(sorted(&pgn) == sorted(&play("b")), "the same games again (the book moves are drawn by --seed)");
    let mut from_book = 0;
    for game in pgn.split("[Event ").skip(1) {
        let seed_white = game.contains("[White \"seed\"]");
        assert!(!game.contains("[FEN "), "from the start position: {game}");
        let movetext = game.split("\n\n").nth(1).unwrap();
        let words: Vec<&str> = movetext.split_whitespace().filter(|w| !w.ends_with('.')).collect();
        let mut position = Position::startpos();
        let mut ply = 0;
        let mut i = 0;
        while i + 1 < words.len() && !words[i].contains('-') && words[i] != "*" {
            let san = words[i];
            let comment = words[i + 1];
            let m = arbiter::chess::parse_san(&position, san).unwrap_or_else(|e| panic!("{san}: {e}"));
            let seed_moves = (ply % 2 == 0) == seed_white;
            let in_book = book.moves(&position).unwrap();
            if comment == "{book}" {
                assert!(seed_moves && ply < 6, "only seed's first 3 moves come from its book: ply {ply} {game}");
                assert!(in_book.iter().any(|&(b, w)| b == m && w > 0), "{san} is a book move");
                from_book += 1;
            } else if seed_moves && ply < 6 {
                assert!(in_book.iter().all(|&(_, w)| w == 0), "ply {ply}: the book had a move: {game}");
            }
            let mut game = arbiter::chess::ChessGame::new(position.clone());
            game.play(m);
            position = game.position().clone();
            ply += 1;
            // The comment may run over several words ({+0.31/7 0.01s}).
            i += 1;
            while !words[i].ends_with('}') {
                i += 1;
            }
            i += 1;
        }
    }
    assert!(from_book >= 3, "seed played its book's moves: {from_book}");
}
