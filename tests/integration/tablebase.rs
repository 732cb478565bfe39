//! Syzygy tablebases against python-chess's own prober (`chess.syzygy`), read in place from
//! `../shared/data/syzygy/` (every 3- and 4-piece table): `arbiter tb` on random positions of every material,
//! matches that end by tablebase adjudication (their final positions probed again by python-chess), the
//! 50-move rule with clocks chosen so that it changes the result, and damaged or missing table files.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Output;

use crate::support::{self, arbiter, python, text};
const TABLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data/syzygy");
const REFERENCE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/syzygy_reference.py");
const GAMES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/syzygy_games.py");
const CHECK_PGN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/tools/check_pgn.py");

fn scratch(name: &str) -> PathBuf {
    support::scratch_in("tablebase-tests", name)
}

/// The JSON lines of `arbiter tb --fens FILE --format json` on `folder`.
fn probe_all(folder: &str, fens: &Path) -> (Output, Vec<Value>) {
    let out = arbiter(&["tb", "--path", folder, "--fens", fens.to_str().unwrap(), "--format", "json"]);
    let rows = text(&out.stdout).lines().map(|l| serde_json::from_str(l).expect("a JSON line")).collect();
    (out, rows)
}

/// python-chess's answers for random positions of every 3- and 4-piece material, and the file of their FENs.
fn reference(dir: &Path) -> (Vec<Value>, PathBuf) {
    let lines = python(&[REFERENCE, TABLES, "32", "7"]);
    let reference: Vec<Value> = lines.lines().map(|l| serde_json::from_str(l).expect("a JSON line")).collect();
    let fens = dir.join("fens.txt");
    let list: Vec<&str> = reference.iter().map(|r| r["fen"].as_str().unwrap()).collect();
    std::fs::write(&fens, list.join("\n") + "\n").unwrap();
    (reference, fens)
}

/// Positions where `ours` and python-chess disagree on WDL or (outside mate and stalemate) DTZ; positions
/// `ours` does not cover are left out when `skip_uncovered`.
fn disagreements(reference: &[Value], ours: &[Value], skip_uncovered: bool) -> Vec<String> {
    assert_eq!(reference.len(), ours.len());
    let mut bad = Vec::new();
    for (want, got) in reference.iter().zip(ours) {
        assert_eq!(want["fen"], got["fen"]);
        if skip_uncovered && got["covered"] == false {
            continue;
        }
        let dtz_differs = want["terminal"] == false && want["dtz"] != got["dtz"];
        if want["wdl"] != got["wdl"] || dtz_differs {
            bad.push(format!(
                "{}: python-chess {} {}, arbiter {} {}",
                want["fen"], want["wdl"], want["dtz"], got["wdl"], got["dtz"]
            ));
        }
    }
    bad
}

#[test]
fn wdl_and_dtz_agree_with_python_chess_on_random_positions_of_every_material() {
    let dir = scratch("random");
    let (reference, fens) = reference(&dir);
    let ep = reference.iter().filter(|r| r["ep"] == true).count();
    let black = reference.iter().filter(|r| r["fen"].as_str().unwrap().contains(" b ")).count();
    assert!(
        reference.len() >= 1000 && ep >= 100 && black >= 400,
        "{} positions, {ep} e.p., {black} Black",
        reference.len()
    );
    let (out, ours) = probe_all(TABLES, &fens);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(ours.iter().all(|r| r["covered"] == true));
    let bad = disagreements(&reference, &ours, false);
    assert!(bad.is_empty(), "{} of {} positions differ:\n{}", bad.len(), reference.len(), bad.join("\n"));
}

/// `arbiter tb` on one FEN, as JSON.
fn tb(fen: &str) -> Value {
    let out = arbiter(&["tb", "--path", TABLES, "--fen", fen, "--format", "json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    serde_json::from_str(text(&out.stdout).trim()).unwrap()
}

#[test]
fn the_halfmove_clock_decides_a_win_only_where_the_dtz_makes_it_exact() {
    // KQvK, White to move: a win with DTZ n.
    let board = "8/8/8/4k3/8/8/8/KQ6 w - -";
    let n = tb(&format!("{board} 0 1"))["dtz"].as_i64().unwrap();
    assert!(n > 0 && n < 40, "{n}");
    let at = |clock: i64| tb(&format!("{board} {clock} 1"));
    assert_eq!(at(0)["result"], "1-0");
    assert_eq!(at(99 - n)["result"], "1-0");
    // The stored DTZ may be one ply short, so at clock + DTZ = 100 the game plays on...
    assert_eq!(at(100 - n)["result"], Value::Null);
    assert!(at(100 - n)["reason"].as_str().unwrap().contains("plays on"));
    // ... and one ply later the 50-move rule comes first: a draw, a win only with --tbignore50.
    let late = at(101 - n);
    assert_eq!(late["result"], "1/2-1/2", "{late}");
    assert_eq!(late["result_ignoring_50"], "1-0");
    assert_eq!(late["wdl"], 2);
}

/// Plays seed against nomob from `openings` with the tables; returns the run folder.
fn tb_match(dir: &Path, openings: &str, extra: &[&str]) -> PathBuf {
    let out_dir = dir.join("run");
    let mut args = vec![
        "match",
        "--openings",
        openings,
        "--engine",
        "name=seed",
        "--engine",
        "name=nomob",
        "--nodes",
        "1000",
        "--concurrency",
        "2",
        "--tb",
        TABLES,
        "--out",
        out_dir.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let out = arbiter(&args);
    assert!(out.status.success(), "{}{}", text(&out.stdout), text(&out.stderr));
    assert!(text(&out.stderr).contains("tablebase adjudication up to 4 pieces"), "{}", text(&out.stderr));
    python(&[CHECK_PGN, out_dir.join("games.pgn").to_str().unwrap()]);
    out_dir
}

/// The terminations of a run's games.csv.
fn terminations(run: &Path) -> Vec<String> {
    let csv = std::fs::read_to_string(run.join("games.csv")).unwrap();
    csv.lines().skip(1).map(|l| l.split(',').nth(6).unwrap().to_string()).collect()
}

#[test]
fn matches_end_by_the_tables_with_results_python_chess_confirms() {
    let dir = scratch("match");
    // Five-piece openings: the games play until a capture brings them into the four-piece tables.
    let openings = dir.join("five.epd");
    std::fs::write(
        &openings,
        "4k3/8/7P/8/7r/4K3/6R1/8 w - -\n8/8/8/5r2/2RP4/5k2/8/K7 w - -\n8/3k1r2/5Qp1/8/8/8/8/2K5 w - -\n\
         3R4/8/4Bk2/r7/7K/8/8/8 b - -\n8/8/P7/7B/8/6k1/2nK4/8 b - -\n8/4P3/8/8/2K5/Q4q2/5k2/8 w - -\n\
         8/8/5NK1/7p/8/8/R7/4k3 w - -\n6R1/8/3p4/1N1K1k2/8/8/8/8 b - -\n",
    )
    .unwrap();
    let run = tb_match(&dir, openings.to_str().unwrap(), &["--games", "16"]);
    let ends = terminations(&run);
    let by_tables = ends.iter().filter(|t| *t == "adjudication: tablebase").count();
    assert!(by_tables >= 12, "{ends:?}");
    let checked = python(&[GAMES, TABLES, run.join("games.pgn").to_str().unwrap()]);
    assert!(checked.contains(&format!("{by_tables} adjudicated games agree")), "{checked}");

    // --tbadjudicate: only decisive results, or only draws; the others play on to an end by the rules or the
    // move cap.
    for (mode, allowed) in [("win-loss", ["1-0", "0-1"]), ("draw", ["1/2-1/2", "1/2-1/2"])] {
        let dir = scratch(&format!("match-{mode}"));
        let run =
            tb_match(&dir, openings.to_str().unwrap(), &["--games", "16", "--tbadjudicate", mode, "--maxmoves", "60"]);
        let pgn = std::fs::read_to_string(run.join("games.pgn")).unwrap();
        let mut adjudicated = 0;
        for game in pgn.split("[Event ").skip(1) {
            if game.contains("[Termination \"adjudication: tablebase\"]") {
                adjudicated += 1;
                assert!(allowed.iter().any(|r| game.contains(&format!("[Result \"{r}\"]"))), "{mode}: {game}");
            }
        }
        assert!(adjudicated > 0, "{mode}: {pgn}");
        python(&[GAMES, TABLES, run.join("games.pgn").to_str().unwrap()]);
    }
}

#[test]
fn the_fifty_move_rule_turns_late_wins_into_draws_unless_ignored() {
    let dir = scratch("clock");
    let openings = dir.join("late.epd");
    std::fs::write(&openings, python(&[REFERENCE, TABLES, "--clock-openings", "8", "3"])).unwrap();
    // Without --tbignore50: won positions at a clock the win cannot beat are drawn by the tables.
    let run = tb_match(&dir, openings.to_str().unwrap(), &["--games", "16"]);
    let checked = python(&[GAMES, TABLES, run.join("games.pgn").to_str().unwrap()]);
    let pgn = std::fs::read_to_string(run.join("games.pgn")).unwrap();
    let fifty = pgn.matches("the 50-move rule comes first").count();
    assert!(fifty >= 8, "{fifty} games drawn by the 50-move rule:\n{checked}");

    // With it, the same positions are wins for the side that has them.
    let dir = scratch("clock-ignored");
    let run = tb_match(&dir, openings.to_str().unwrap(), &["--games", "16", "--tbignore50"]);
    let checked = python(&[GAMES, TABLES, run.join("games.pgn").to_str().unwrap(), "--ignore50"]);
    let pgn = std::fs::read_to_string(run.join("games.pgn")).unwrap();
    let decisive = pgn.matches("[Result \"1-0\"]").count() + pgn.matches("[Result \"0-1\"]").count();
    assert!(decisive >= 8, "{decisive} decisive games:\n{checked}");
    assert!(pgn.contains("50-move rule ignored"), "{pgn}");
}

/// A folder of links to every shared table except the `damaged` ones, which are copied and changed by `change`.
fn table_copy(dir: &Path, damaged: &[&str], change: impl Fn(&mut Vec<u8>)) -> PathBuf {
    let folder = dir.join("tables");
    std::fs::create_dir_all(&folder).unwrap();
    for entry in std::fs::read_dir(TABLES).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        if !(name.ends_with(".rtbw") || name.ends_with(".rtbz") || name == "SHA256SUMS") {
            continue;
        }
        if damaged.contains(&name.as_str()) {
            let mut bytes = std::fs::read(&path).unwrap();
            change(&mut bytes);
            std::fs::write(folder.join(&name), bytes).unwrap();
        } else {
            std::os::unix::fs::symlink(&path, folder.join(&name)).unwrap();
        }
    }
    folder
}

#[test]
fn damaged_or_missing_tables_are_refused_or_skipped_never_wrong() {
    let dir = scratch("damaged");
    let (reference, fens) = reference(&dir);

    // A truncated file and one with a foreign header are refused by name, by `arbiter tb` and `arbiter match`.
    for (case, change) in [
        ("truncated", Box::new(|b: &mut Vec<u8>| b.truncate(b.len() - 1000)) as Box<dyn Fn(&mut Vec<u8>)>),
        ("header", Box::new(|b: &mut Vec<u8>| b[..4].copy_from_slice(b"PK\x03\x04"))),
    ] {
        let folder = table_copy(&scratch(&format!("damaged-{case}")), &["KRvKB.rtbz"], change);
        let folder = folder.to_str().unwrap();
        let out = arbiter(&["tb", "--path", folder, "--fen", "8/8/8/4k3/8/8/8/KQ6 w - - 0 1"]);
        assert_eq!(out.status.code(), Some(2), "{case}: {}", text(&out.stderr));
        let stderr = text(&out.stderr);
        assert!(stderr.contains("KRvKB.rtbz: not a usable Syzygy table"), "{case}: {stderr}");
        let out =
            arbiter(&["match", "--engine", "name=seed", "--engine", "name=nomob", "--games", "2", "--tb", folder]);
        assert_eq!(out.status.code(), Some(2), "{case}: {}", text(&out.stderr));
        assert!(
            text(&out.stderr).contains("--tb: ") && text(&out.stderr).contains("KRvKB.rtbz"),
            "{}",
            text(&out.stderr)
        );
    }

    // A body damaged behind a whole header: the prober may crash on it, in its own process; those probes are
    // skipped (exit 1, named), every other answer is still python-chess's, and --verify names the files.
    let folder = table_copy(&scratch("damaged-body"), &["KQvKR.rtbw", "KQvKR.rtbz"], |bytes| {
        let mut x = 0x9e37_79b9_u64;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let at = 64 + (x as usize) % (bytes.len() - 64);
            bytes[at] = (x >> 32) as u8;
        }
    });
    let folder = folder.to_str().unwrap();
    let (out, ours) = probe_all(folder, &fens);
    let bad = disagreements(&reference, &ours, true);
    assert!(bad.is_empty(), "wrong answers from damaged tables:\n{}", bad.join("\n"));
    let covered = ours.iter().filter(|r| r["covered"] == true).count();
    assert!(covered >= reference.len() - 80, "{covered} of {} covered", reference.len());
    if covered < reference.len() {
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
        assert!(text(&out.stderr).contains("probes failed") && text(&out.stderr).contains("--verify"));
    }
    let out = arbiter(&["tb", "--path", folder, "--verify"]);
    assert_eq!(out.status.code(), Some(1));
    let report = text(&out.stdout);
    assert!(
        report.contains("KQvKR.rtbw: checksum differs") && report.contains("68 of 70 listed table files match"),
        "{report}"
    );
    let out = arbiter(&["tb", "--path", TABLES, "--verify"]);
    assert!(out.status.success() && text(&out.stdout).contains("70 of 70"), "{}", text(&out.stdout));

    // Missing tables: without KQvKR's DTZ file its WDL is still read and the DTZ left out; without its WDL file
    // the position is not covered.
    let no_dtz = scratch("missing-dtz");
    let folder = table_copy(&no_dtz, &[], |_| {});
    std::fs::remove_file(folder.join("KQvKR.rtbz")).unwrap();
    let kqkr = "8/8/8/3k4/8/8/2Q5/K5r1 w - - 3 1";
    let out = arbiter(&["tb", "--path", folder.to_str().unwrap(), "--fen", kqkr, "--format", "json"]);
    let answer: Value = serde_json::from_str(text(&out.stdout).trim()).unwrap();
    let full = tb(kqkr);
    assert_eq!((answer["wdl"].clone(), answer["dtz"].clone()), (full["wdl"].clone(), Value::Null), "{answer}");
    std::fs::remove_file(folder.join("KQvKR.rtbw")).unwrap();
    let out = arbiter(&["tb", "--path", folder.to_str().unwrap(), "--fen", kqkr, "--format", "json"]);
    let answer: Value = serde_json::from_str(text(&out.stdout).trim()).unwrap();
    assert_eq!(answer["covered"], false, "{answer}");
    assert!(answer["reason"].as_str().unwrap().contains("no table for this material"), "{answer}");

    // A folder with no table at all, and one that does not exist.
    let empty = scratch("empty");
    let out = arbiter(&["tb", "--path", empty.to_str().unwrap(), "--fen", kqkr]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no Syzygy WDL table"), "{}", text(&out.stderr));
    let out = arbiter(&["tb", "--path", "/no/such/folder", "--fen", kqkr]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("/no/such/folder: cannot read the folder"), "{}", text(&out.stderr));
}
