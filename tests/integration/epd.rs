//! `arbiter epd` over the first lines of real suites: CSV shape, summary line, STS points, bad input; with
//! external engines (Stockfish, `arbiter uci` itself, the faulty test engine) through the same `--engine` spec.

use std::path::PathBuf;
use std::process::Command;

use crate::support;
use support::faulty_engine;

const WAC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/suites/tactics/wac.epd");
const STS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/suites/tactics/STS1-STS15_LAN_v3.epd");

/// Writes the first `n` lines of `suite` to a temp file named after `tag`.
fn head(suite: &str, n: usize, tag: &str) -> PathBuf {
    let text = std::fs::read_to_string(suite).unwrap_or_else(|e| panic!("{suite}: {e}"));
    let lines: Vec<&str> = text.lines().take(n).collect();
    let path = std::env::temp_dir().join(format!("arbiter-epd-{}-{tag}.epd", std::process::id()));
    std::fs::write(&path, lines.join("\n") + "\n").expect("temp file");
    path
}

/// Runs `arbiter epd` with `args`; returns (exit code, stdout, stderr).
fn epd(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter")).arg("epd").args(args).output().expect("run arbiter");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Checks the CSV shape and returns its rows (header excluded).
fn rows(csv: &str, n: usize) -> Vec<Vec<String>> {
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let header: Vec<String> = reader.headers().expect("header").iter().map(str::to_string).collect();
    assert_eq!(header, ["id", "expected", "found", "solved", "points", "depth", "nodes", "ms", "status", "error"]);
    let rows: Vec<Vec<String>> =
        reader.records().map(|r| r.expect("csv row").iter().map(str::to_string).collect()).collect();
    assert_eq!(rows.len(), n, "{csv}");
    for r in &rows {
        assert_eq!(r.len(), 10);
        assert!(r[3] == "true" || r[3] == "false");
        for col in [4, 5, 6, 7] {
            assert!(r[col].parse::<u64>().is_ok(), "column {col} of {r:?}");
        }
        match r[8].as_str() {
            "error" => assert!(!r[9].is_empty() && r[3] == "false" && r[2] == "-", "{r:?}"),
            status => {
                assert_eq!(status, if r[3] == "true" { "solved" } else { "unsolved" }, "{r:?}");
                assert!(r[9].is_empty(), "{r:?}");
                assert!(r[6].parse::<u64>().expect("nodes") > 0, "{r:?}");
            }
        }
    }
    rows
}

/// The columns of `rows` that do not depend on the machine's speed (all but `ms`).
fn without_time(rows: &[Vec<String>]) -> Vec<Vec<String>> {
    rows.iter().map(|r| r.iter().enumerate().filter(|(i, _)| *i != 7).map(|(_, c)| c.clone()).collect()).collect()
}

/// `arbiter uci` (this very binary) as an external engine.
fn arbiter_uci() -> String {
    format!("name=arbiter-uci,cmd={},args=uci", env!("CARGO_BIN_EXE_arbiter"))
}

const STOCKFISH: &str = "name=sf,cmd=/usr/games/stockfish,option.Threads=1,option.Hash=16";

#[test]
fn wac_first_ten() {
    let file = head(WAC, 10, "wac");
    let (code, stdout, stderr) = epd(&[file.to_str().expect("utf-8 path"), "--nodes", "3000", "--threads", "2"]);
    assert_eq!(code, 0, "{stderr}");
    let rows = rows(&stdout, 10);
    assert_eq!(rows[0][0], "WAC.001");
    assert_eq!(rows[0][1], "bm Qg6");
    let solved = rows.iter().filter(|r| r[3] == "true").count();
    assert!(stderr.contains(&format!("solved {solved} / 10")), "{stderr}");
    let _ = std::fs::remove_file(file);
}

#[test]
fn sts_points_and_csv_file() {
    let file = head(STS, 10, "sts");
    let csv_path = file.with_extension("csv");
    let (code, stdout, stderr) =
        epd(&[file.to_str().expect("utf-8 path"), "--nodes", "2000", "--csv", csv_path.to_str().expect("utf-8 path")]);
    assert_eq!(code, 0, "{stderr}");
    let csv = std::fs::read_to_string(&csv_path).expect("csv written");
    let rows = rows(&csv, 10);
    let total: u64 = rows.iter().map(|r| r[4].parse::<u64>().expect("points")).sum();
    // The first ten STS lines each have a best move worth 10 points.
    assert!(stdout.contains(&format!("points {total} / 100")), "{stdout}");
    for r in &rows {
        let points: u32 = r[4].parse().expect("points");
        assert_eq!(r[3] == "true", points == 10, "{r:?}");
    }
    let _ = std::fs::remove_file(file);
    let _ = std::fs::remove_file(csv_path);
}

#[test]
fn bad_epd_names_file_and_line() {
    let path = std::env::temp_dir().join(format!("arbiter-epd-{}-bad.epd", std::process::id()));
    std::fs::write(&path, "6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#;\n6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Qh8;\n")
        .expect("temp file");
    let (code, _, stderr) = epd(&[path.to_str().expect("utf-8 path"), "--depth", "2"]);
    assert_eq!(code, 2);
    assert!(stderr.contains(&format!("{}:2:", path.display())), "{stderr}");
    let _ = std::fs::remove_file(path);
}

#[test]
fn stockfish_solves_wac_and_concurrency_keeps_the_rows() {
    let file = head(WAC, 20, "wac-sf");
    let path = file.to_str().expect("utf-8 path");
    let run = |concurrency: &str| {
        let (code, stdout, stderr) =
            epd(&[path, "--engine", STOCKFISH, "--nodes", "20000", "--concurrency", concurrency]);
        assert_eq!(code, 0, "{stderr}");
        (rows(&stdout, 20), stderr)
    };
    let (one, stderr) = run("1");
    let solved = one.iter().filter(|r| r[8] == "solved").count();
    // Stockfish 15.1 solves 15 of the first 20 at 20000 nodes; a tactics suite's easy start.
    assert!(solved >= 12, "{one:?}");
    assert!(stderr.contains(&format!("solved {solved} / 20")) && stderr.contains("errors 0"), "{stderr}");
    assert!(one.iter().all(|r| r[5].parse::<u32>().expect("depth") > 0), "{one:?}");
    assert_eq!(one[0][0], "WAC.001");
    // Two processes searching at once give the same rows, in file order.
    let (two, _) = run("2");
    assert_eq!(without_time(&one), without_time(&two));
    let _ = std::fs::remove_file(file);
}

#[test]
fn arbiter_uci_finds_what_the_builtin_engine_finds() {
    let file = head(WAC, 20, "wac-uci");
    let path = file.to_str().expect("utf-8 path");
    let (code, builtin, stderr) = epd(&[path, "--nodes", "3000", "--threads", "2"]);
    assert_eq!(code, 0, "{stderr}");
    let external = arbiter_uci();
    let (code, uci, stderr) = epd(&[path, "--engine", &external, "--nodes", "3000", "--concurrency", "2"]);
    assert_eq!(code, 0, "{stderr}");
    let found = |csv: &str| rows(csv, 20).into_iter().map(|r| (r[0].clone(), r[2].clone(), r[8].clone())).collect();
    let builtin: Vec<(String, String, String)> = found(&builtin);
    assert_eq!(builtin, found(&uci));
    // The old flag --config is --engine config=.
    let config = concat!(env!("CARGO_MANIFEST_DIR"), "/configs/seed.toml");
    let (code, by_config, stderr) = epd(&[path, "--nodes", "3000", "--config", config, "--concurrency", "2"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(builtin, found(&by_config));
    let _ = std::fs::remove_file(file);
}

#[test]
fn sts_points_with_an_external_engine() {
    // STS(v1.0) Undermine.001 with its point list: f5 scores 10, the other listed moves 2 or 3.
    let path = std::env::temp_dir().join(format!("arbiter-epd-{}-sts1.epd", std::process::id()));
    std::fs::write(
        &path,
        "1kr5/3n4/q3p2p/p2n2p1/PppB1P2/5BP1/1P2Q2P/3R2K1 w - - bm f5; id \"STS(v1.0) Undermine.001\"; \
         c0 \"f5=10, Be5+=2, Bf2=3, Bg4=2\";\n",
    )
    .expect("temp file");
    let (code, stdout, stderr) = epd(&[path.to_str().expect("utf-8 path"), "--engine", STOCKFISH, "--nodes", "5000"]);
    assert_eq!(code, 0, "{stderr}");
    let row = &rows(&stdout, 1)[0];
    let points = match row[2].as_str() {
        "f5" => 10,
        "Bf2" => 3,
        "Be5+" | "Bg4" => 2,
        _ => 0,
    };
    assert_eq!(row[4], points.to_string(), "{row:?}");
    assert!(stderr.contains(&format!("points {points} / 10")), "{stderr}");
    let _ = std::fs::remove_file(path);
}

#[test]
fn a_crash_on_one_position_is_an_error_row_and_the_run_goes_on() {
    use arbiter::chess::Position;
    // Four positions whose best move is the faulty engine's move (the first legal one); it crashes on the third.
    let fens = [
        "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "8/8/8/4k3/8/8/3QK3/8 w - - 0 1",
        "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1",
    ];
    let mut text = String::new();
    for (i, fen) in fens.iter().enumerate() {
        let pos = Position::from_fen(fen).expect("fen");
        let first = pos.legal_moves().iter().next().copied().expect("a legal move");
        let epd = fen.split(' ').take(4).collect::<Vec<_>>().join(" ");
        text.push_str(&format!("{epd} bm {}; id \"p{i}\";\n", first.to_uci(false)));
    }
    let path = std::env::temp_dir().join(format!("arbiter-epd-{}-crash.epd", std::process::id()));
    std::fs::write(&path, text).expect("temp file");
    let engine = format!("name=faulty,cmd={},args=--crash-fen 8/8/8/4k3", faulty_engine().display());
    for concurrency in ["1", "2"] {
        let (code, stdout, stderr) = epd(&[
            path.to_str().expect("utf-8 path"),
            "--engine",
            &engine,
            "--depth",
            "1",
            "--concurrency",
            concurrency,
        ]);
        assert_eq!(code, 0, "{stderr}");
        let rows = rows(&stdout, 4);
        let status: Vec<&str> = rows.iter().map(|r| r[8].as_str()).collect();
        assert_eq!(status, ["solved", "solved", "error", "solved"], "{rows:?}");
        assert!(rows[2][9].starts_with("faulty: crashed"), "{:?}", rows[2]);
        assert!(stderr.contains("solved 3 / 4") && stderr.contains("errors 1"), "{stderr}");
    }
    let _ = std::fs::remove_file(path);
}

#[test]
fn an_external_engine_without_a_limit_is_refused() {
    let file = head(WAC, 2, "nolimit");
    let (code, stdout, stderr) = epd(&[file.to_str().expect("utf-8 path"), "--engine", STOCKFISH]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stdout.is_empty(), "{stdout}");
    assert!(stderr.contains("has no move limit"), "{stderr}");
    assert!(stderr.contains("sf (/usr/games/stockfish)"), "{stderr}");
    assert!(stderr.contains("give --nodes N, --depth N or --movetime-ms N"), "{stderr}");
    let (code, _, stderr) = epd(&[file.to_str().expect("utf-8 path"), "--engine", "seed", "--config", "x.toml"]);
    assert_eq!(code, 2, "{stderr}");
    let _ = std::fs::remove_file(file);
}

#[test]
fn illegal_and_late_moves_are_error_rows() {
    let file = head(WAC, 2, "faulty");
    let path = file.to_str().expect("utf-8 path");
    let faulty = faulty_engine();
    // An illegal move on the second position of the process's life: the first row is a result, the second an
    // error; the fresh process then plays the first legal move of each position.
    let engine = format!("name=faulty,cmd={},args=--mode illegal --after 1", faulty.display());
    let (code, stdout, stderr) = epd(&[path, "--engine", &engine, "--depth", "1", "--concurrency", "1"]);
    assert_eq!(code, 0, "{stderr}");
    let first = rows(&stdout, 2);
    assert_ne!(first[0][8], "error", "{first:?}");
    assert_eq!(first[1][8], "error", "{first:?}");
    assert!(first[1][9].contains("\"a1a1\""), "{:?}", first[1]);
    assert!(stderr.contains("errors 1"), "{stderr}");
    // A move that comes only after `stop` (the engine sleeps 1 s, ignoring it) is past the stall timeout.
    let engine = format!("name=faulty,cmd={},args=--mode slow --sleep-ms 1000", faulty.display());
    let (code, stdout, stderr) =
        epd(&[path, "--engine", &engine, "--depth", "1", "--concurrency", "2", "--stall-timeout-ms", "200"]);
    assert_eq!(code, 0, "{stderr}");
    let rows = rows(&stdout, 2);
    for r in &rows {
        assert_eq!(r[8], "error", "{r:?}");
        assert!(r[9].starts_with("faulty: stalled: no move within 200 ms (it came after stop"), "{r:?}");
    }
    assert!(stderr.contains("solved 0 / 2") && stderr.contains("errors 2"), "{stderr}");
    let _ = std::fs::remove_file(file);
}

/// QA finding 6: a `bench=` signature is checked before the first search, as before a match; a wrong one is
/// exit 2 with both numbers.
#[test]
fn a_wrong_bench_signature_refuses_the_run() {
    let file = head(WAC, 1, "bench");
    let (code, out, err) =
        epd(&[file.to_str().unwrap(), "--engine", &format!("{STOCKFISH},bench=1"), "--nodes", "1000"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("expected 1") && err.contains("measured 3467381"), "{err}");
    assert!(!out.contains("solved"), "{out}");
}

/// QA finding 14: an illegal SAN move is named as neither SAN nor UCI (not "not a UCI move"); an empty suite is
/// exit 2 "no positions in FILE".
#[test]
fn an_illegal_bm_and_an_empty_suite_are_refused() {
    let dir = std::env::temp_dir();
    let bad = dir.join(format!("arbiter-epd-{}-illegal.epd", std::process::id()));
    std::fs::write(&bad, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1 bm e6; id \"x\";\n").unwrap();
    let (code, _, err) = epd(&[bad.to_str().unwrap(), "--nodes", "100"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("bm: \"e6\" is neither a legal SAN nor a legal UCI move in this position"), "{err}");
    let empty = dir.join(format!("arbiter-epd-{}-empty.epd", std::process::id()));
    std::fs::write(&empty, "").unwrap();
    let (code, out, err) = epd(&[empty.to_str().unwrap(), "--nodes", "100"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains(&format!("no positions in {}", empty.display())), "{err}");
}
