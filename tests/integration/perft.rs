//! Perft and FEN over the shared public suites, read in place from `../shared/suites/perft`.
//!
//! Every `Dn` opcode up to 10^7 nodes runs here (the test profile is optimised). Ignored tests go further:
//! `full_suites_to_1e8` (run by the README test command) and `full_suites_to_1e9` (about 420 billion nodes,
//! half an hour on two cores: `cargo test --release --test integration -- --ignored perft::full_suites_to_1e9`).

use arbiter::chess::Position;
use arbiter::chess::epd::{ChessEpd, parse_epd, read_epd_file};
use arbiter::chess::perft::{perft, perft_checked};
use arbiter::game::perft::divide;
use arbiter::notation::epd::Epd;
use rayon::prelude::*;
use std::path::PathBuf;
use std::process::Command;

use crate::support;
use support::faulty_engine;

fn suite(name: &str) -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/suites/perft")).join(name)
}

/// The suite's positions. `perftsuite.epd` line 51, `B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1`, is a double check by
/// two bishops that no move gives: Arbiter refuses it (docs/positions.md), so it is checked to be refused and
/// blanked.
fn load(name: &str, chess960: bool) -> Vec<Epd> {
    match read_epd_file(&suite(name), chess960) {
        Ok(epds) => epds,
        Err(e) if name == "perftsuite.epd" => {
            let text = std::fs::read_to_string(suite(name)).expect("shared suite readable");
            let err = parse_epd(text.lines().nth(50).expect("line 51"), 51, chess960).expect_err("line 51");
            assert!(e.to_string().contains(":51: bad FEN: illegal position: impossible check"), "{e}");
            assert!(err.to_string().contains("double check from Bh1 and Ba8"), "{err}");
            // Line 51 blanked, so that the other lines keep their numbers.
            let kept: Vec<&str> = text.lines().enumerate().map(|(i, l)| if i == 50 { "" } else { l }).collect();
            arbiter::chess::epd::parse_epd_text(&kept.join("\n"), name, chess960).expect("the other lines read")
        }
        Err(e) => panic!("{e}"),
    }
}

fn depths(epd: &Epd) -> Vec<(u32, u64)> {
    epd.ops.iter().filter_map(|(op, v)| Some((op.strip_prefix('D')?.parse().ok()?, v.parse().ok()?))).collect()
}

/// Checks every depth whose expected count is at most `cap`, printing FEN, depth, counts and divide on failure.
fn check_suite(name: &str, chess960: bool, cap: u64) {
    let epds = load(name, chess960);
    let failures: Vec<String> = epds
        .par_iter()
        .flat_map_iter(|epd| {
            depths(epd).into_iter().filter(|&(_, n)| n <= cap).filter_map(move |(d, expected)| {
                let mut pos = epd.position(chess960);
                let actual = perft(&mut pos, d);
                (actual != expected).then(|| {
                    let div: Vec<String> = divide::<arbiter::chess::ChessGame>(&mut pos, d)
                        .iter()
                        .map(|(m, n)| format!("{} {n}", m.to_uci(chess960)))
                        .collect();
                    format!(
                        "{name}:{} {} depth {d} expected {expected} actual {actual}\n  divide: {}",
                        epd.line,
                        epd.fen,
                        div.join(", ")
                    )
                })
            })
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn perftsuite_under_cap() {
    check_suite("perftsuite.epd", false, 10_000_000);
}

#[test]
fn cpw_positions_under_cap() {
    check_suite("cpw_perft_positions.epd", false, 10_000_000);
}

#[test]
fn fischer_under_cap() {
    check_suite("fischer.epd", true, 10_000_000);
}

#[test]
#[ignore = "full depth: run with cargo test --release -- --ignored"]
fn full_suites_to_1e8() {
    check_suite("perftsuite.epd", false, 100_000_000);
    check_suite("cpw_perft_positions.epd", false, 100_000_000);
    check_suite("fischer.epd", true, 100_000_000);
}

#[test]
#[ignore = "about 420 billion nodes: run with cargo test --release --test integration -- --ignored perft::full_suites_to_1e9"]
fn full_suites_to_1e9() {
    check_suite("perftsuite.epd", false, 1_000_000_000);
    check_suite("cpw_perft_positions.epd", false, 1_000_000_000);
    check_suite("fischer.epd", true, 1_000_000_000);
}

#[test]
fn seed_test_position_depth_4() {
    // The seed articles' test position; depth 5 (89,941,194) runs in the ignored full test and the CLI.
    let mut pos = Position::from_fen("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8").unwrap();
    assert_eq!(perft(&mut pos, 4), 2_103_487);
}

#[test]
#[ignore = "full depth: run with cargo test --release -- --ignored"]
fn seed_test_position_depth_5() {
    let mut pos = Position::from_fen("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8").unwrap();
    assert_eq!(perft(&mut pos, 5), 89_941_194);
}

#[test]
fn fen_round_trip_every_suite_position() {
    for (name, chess960) in [("perftsuite.epd", false), ("cpw_perft_positions.epd", false), ("fischer.epd", true)] {
        for epd in load(name, chess960) {
            let pos = epd.position(chess960);
            assert_eq!(pos.to_fen(), epd.fen, "{name}:{}", epd.line);
            assert_eq!(Position::from_fen_variant(&pos.to_fen(), chess960).unwrap(), pos);
        }
    }
}

#[test]
fn undo_and_key_exact_at_every_node_depth_3() {
    let mut all = load("perftsuite.epd", false);
    all.extend(load("cpw_perft_positions.epd", false));
    all.par_iter().for_each(|epd| {
        let mut pos = epd.position(false);
        let expected = depths(epd).into_iter().find(|&(d, _)| d == 3).map(|(_, n)| n);
        let n = perft_checked(&mut pos, 3);
        if let Some(e) = expected {
            assert_eq!(n, e, "{}", epd.fen);
        }
    });
    for epd in load("fischer.epd", true).iter().step_by(8) {
        perft_checked(&mut epd.position(true), 3);
    }
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
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("perft-cli");
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn cli_exit_codes() {
    let good = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400 ;D3 8902\n\
                4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66 ;D3 1197\n";
    let (code, out, _) = arbiter(&["perft", "--quiet", "--suite", temp_file("good.epd", good).to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("2 positions, 6 checks, 0 failed"), "{out}");

    let wrong = good.replace(";D2 66", ";D2 67");
    let path = temp_file("wrong.epd", &wrong);
    let (code, out, _) = arbiter(&["perft", "--quiet", "--suite", path.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("wrong.epd:2: 4k3/8/8/8/8/8/8/4K2R w K - 0 1"), "{out}");
    assert!(out.contains("depth 2 expected 67 actual 66"), "{out}");
    assert!(out.contains("e1d1"), "divide printed: {out}");

    let bad = format!("{good}4k3/8/8/8/8/8/8/4K2X w K - 0 1 ;D1 15\n");
    let path = temp_file("bad.epd", &bad);
    let (code, _, err) = arbiter(&["perft", "--quiet", "--suite", path.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("bad.epd:3:") && err.contains("piece letter"), "{err}");

    let (code, _, err) = arbiter(&["perft", "--quiet", "--suite", "/nonexistent/x.epd"]);
    assert_eq!(code, 2, "{err}");

    let (code, out, _) = arbiter(&["perft", "--depth", "3"]);
    assert_eq!((code, out.trim()), (0, "nodes 8902"));
    let (code, out, _) = arbiter(&["perft", "--depth", "2", "--divide", "--fen", "4k3/8/8/8/8/8/8/4K2R w K - 0 1"]);
    assert_eq!(code, 0);
    assert!(out.contains("e1g1") && out.contains("nodes 66"), "{out}");
}

#[test]
fn skip_bad_lines_checks_the_rest_of_the_suite() {
    // Without the flag, the impossible line 51 of perftsuite.epd stops the run before anything is counted.
    let path = suite("perftsuite.epd");
    let path = path.to_str().unwrap();
    let (code, out, err) = arbiter(&["perft", "--quiet", "--suite", path, "--max-nodes", "2000"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("perftsuite.epd:51:") && err.contains("impossible check"), "{err}");
    assert!(out.is_empty(), "nothing counted: {out}");
    // With it, line 51 is named with its reason and every other line is checked.
    let (code, out, err) = arbiter(&["perft", "--quiet", "--suite", path, "--max-nodes", "2000", "--skip-bad-lines"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(err.contains("skipped (--skip-bad-lines): ") && err.contains("perftsuite.epd:51:"), "{err}");
    assert!(err.contains("1 of 126 lines of") && err.contains("skipped by --skip-bad-lines"), "{err}");
    assert!(out.contains("125 positions"), "{out}");
    // A wrong count on a good line still fails the run: skipping bad lines never hides a miscount.
    let good = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 401\n\
                4k3/8/8/8/8/8/8/4K2X w K - 0 1 ;D1 15\n";
    let bad = temp_file("skip.epd", good);
    let bad = bad.to_str().unwrap();
    let (code, out, err) = arbiter(&["perft", "--quiet", "--suite", bad, "--skip-bad-lines"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("skip.epd:2:") && err.contains("piece letter"), "{err}");
    // A suite with nothing readable is still unreadable input.
    let none = temp_file("none.epd", "4k3/8/8/8/8/8/8/4K2X w K - 0 1 ;D1 15\n");
    let (code, _, err) = arbiter(&["perft", "--quiet", "--suite", none.to_str().unwrap(), "--skip-bad-lines"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn huge_fields_are_cut_in_error_messages() {
    // A FEN field, a rank or an EPD operand of hundreds of kilobytes is quoted cut short (notation::quote), in
    // whichever error names it: the EPD reader, the FEN reader, the SAN reader, and --fen.
    let rank = "1".repeat(500_000);
    let suite = temp_file("huge-rank.epd", &format!("8/8/8/8/8/8/8/{rank} w - - 0 1 ;D1 1\n"));
    let bm = "e4".repeat(300_000);
    let tactics =
        temp_file("huge-bm.epd", &format!("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 bm {bm};\n"));
    let board = format!("8/8/8/8/8/8/8/{}", "p".repeat(100_000));
    let fen = format!("{board} w - - 0 1");
    let side = format!("8/8/8/8/8/8/8/K6k {} - - 0 1", "w".repeat(100_000));
    let cases: Vec<Vec<&str>> = vec![
        vec!["perft", "--quiet", "--suite", suite.to_str().unwrap()],
        vec!["epd", tactics.to_str().unwrap(), "--nodes", "10"],
        vec!["perft", "--depth", "1", "--fen", &fen],
        vec!["perft", "--depth", "1", "--fen", &side],
        vec!["perft", "--game", "russian", "--depth", "1", "--fen", &side],
        vec!["perft", "--game", "xiangqi", "--depth", "1", "--fen", &side],
    ];
    for args in cases {
        let (code, out, err) = arbiter(&args);
        assert_eq!(code, 2, "{:?}: {out}", &args[..2]);
        assert!(err.len() < 2000, "{:?}: {} bytes of error: {}", &args[..2], err.len(), &err[..300.min(err.len())]);
        assert!(err.contains("more bytes)"), "{:?}: {err}", &args[..2]);
    }
}

// ---- `arbiter perft --suite FILE --engine SPEC`: the suite's counts checked against an engine's `go perft` ----

const STOCKFISH: &str = "/usr/games/stockfish";

/// The first four lines of perftsuite.epd, counts to D6.
fn first_lines(name: &str, replace: Option<(&str, &str)>) -> PathBuf {
    let text = std::fs::read_to_string(suite("perftsuite.epd")).expect("perftsuite.epd");
    let mut lines: String = text.lines().take(4).map(|l| format!("{l}\n")).collect();
    if let Some((from, to)) = replace {
        assert!(lines.contains(from), "{from} in {lines}");
        lines = lines.replacen(from, to, 1);
    }
    temp_file(name, &lines)
}

#[test]
fn engine_stockfish_checks_the_suites_counts_at_one_depth() {
    assert!(std::path::Path::new(STOCKFISH).exists(), "{STOCKFISH} is missing: run the README test command");
    let path = first_lines("sf4.epd", None);
    let engine = format!("cmd={STOCKFISH},option.Threads=1");
    let (code, out, err) =
        arbiter(&["perft", "--quiet", "--suite", path.to_str().unwrap(), "--depth", "3", "--engine", &engine]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("4 positions, 4 checks, 0 failed") && out.contains("engine stockfish"), "{out}");
    assert!(err.contains("checking the D3 count of each line: 4 of 23 counts"), "{err}");
    // CSV: today's columns and the engine's name.
    let (code, out, err) = arbiter(&[
        "perft",
        "--quiet",
        "--suite",
        path.to_str().unwrap(),
        "--depth",
        "2",
        "--engine",
        &format!("name=sf,{engine}"),
        "--format",
        "csv",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let mut rows = out.lines();
    assert_eq!(rows.next(), Some("fen,depth,expected,actual,nodes,seconds,engine"));
    let first: Vec<&str> = rows.next().expect("a row").split(',').collect();
    assert_eq!((first[1], first[2], first[3], first[6]), ("2", "400", "400", "sf"), "{out}");
    // A wrong count in the suite: Stockfish and Arbiter's generator agree, so the suite's line is named.
    let wrong = first_lines("sf4-wrong.epd", Some((";D2 2039", ";D2 2040")));
    let (code, out, err) =
        arbiter(&["perft", "--quiet", "--suite", wrong.to_str().unwrap(), "--depth", "2", "--engine", &engine]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("sf4-wrong.epd:2: r3k2r/p1ppqpb1/"), "{out}");
    assert!(out.contains("depth 2 expected 2040 actual 2039 (difference -1) from stockfish"), "{out}");
    assert!(out.contains("arbiter's generator agrees with stockfish at every root move"), "{out}");
}

#[test]
fn engine_builtin_is_arbiters_own_perft() {
    let path = first_lines("seed4.epd", None);
    let path = path.to_str().unwrap();
    for engine in ["name=seed", "config=configs/seed.toml"] {
        let (code, out, err) =
            arbiter(&["perft", "--quiet", "--suite", path, "--max-nodes", "100000", "--engine", engine]);
        assert_eq!(code, 0, "{engine}: {out}{err}");
        assert!(out.contains("4 positions, 14 checks, 0 failed"), "{engine}: {out}");
    }
    let (_, out, _) = arbiter(&["perft", "--quiet", "--suite", path, "--max-nodes", "100000"]);
    assert!(out.contains("4 positions, 14 checks, 0 failed") && out.contains("engine arbiter"), "{out}");
    // A depth no line has is bad input, named.
    let (code, _, err) = arbiter(&["perft", "--quiet", "--suite", path, "--depth", "9", "--engine", "name=seed"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("4 of 4 lines have no D9 count") && err.contains("no count left to check"), "{err}");
}

#[test]
fn engine_with_a_wrong_count_gives_exit_1_and_the_first_differing_position() {
    // The faulty engine leaves out en-passant captures: after d7d5 the capture e5d6 is missing.
    let path = temp_file("no-ep.epd", "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1 ;D1 6 ;D2 38 ;D3 258\n");
    let engine = format!("name=noep,cmd={},args=--mode perft-no-ep", faulty_engine().display());
    let (code, out, err) =
        arbiter(&["perft", "--quiet", "--suite", path.to_str().unwrap(), "--depth", "3", "--engine", &engine]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("FAIL ") && out.contains("no-ep.epd:1: 4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1"), "{out}");
    assert!(out.contains("depth 3 expected 258 actual "), "{out}");
    assert!(out.contains("arbiter counts 258 (the suite's count)"), "{out}");
    assert!(out.contains("after moves: d7d5"), "{out}");
    assert!(out.contains("only arbiter generates: e5d6") && out.contains("only noep generates: -"), "{out}");
    assert!(out.contains("1 positions, 1 checks, 1 failed"), "{out}");
    // An engine that prints a wrong total and no divide: the count is checked, the descent is not possible.
    let total_only = format!("name=totals,cmd={},args=--mode perft-total-only", faulty_engine().display());
    let (code, out, err) =
        arbiter(&["perft", "--quiet", "--suite", path.to_str().unwrap(), "--depth", "2", "--engine", &total_only]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("depth 2 expected 38 actual 39 (difference 1) from totals"), "{out}");
    assert!(out.contains("no descent: ") && out.contains("a total with no divide"), "{out}");
    // At depth 1 no en-passant capture is reached: the counts match.
    let (code, out, err) =
        arbiter(&["perft", "--quiet", "--suite", path.to_str().unwrap(), "--depth", "1", "--engine", &engine]);
    assert_eq!(code, 0, "{out}{err}");
}

#[test]
fn engine_without_go_perft_is_named_and_stopped() {
    let path = first_lines("noperft.epd", None);
    let path = path.to_str().unwrap();
    // Ethereal and the faulty engine answer `go perft 1` with a search (a `bestmove`); toga2 searches on until
    // `stop`, so the probe's timeout names it.
    let faulty = format!("name=faulty,cmd={}", faulty_engine().display());
    let cases = [
        ("cmd=/usr/games/ethereal-chess", "ethereal-chess does not support `go perft`: it searched instead"),
        (faulty.as_str(), "faulty does not support `go perft`: it searched instead"),
        ("cmd=/usr/games/toga2", "toga2 does not support `go perft`: no node count within 1.0 s of `go perft 1`"),
    ];
    for (engine, expected) in cases {
        let (code, out, err) = arbiter(&[
            "perft",
            "--quiet",
            "--suite",
            path,
            "--depth",
            "2",
            "--engine",
            engine,
            "--probe-timeout-s",
            "1",
        ]);
        assert_eq!(code, 2, "{engine}: {out}{err}");
        assert!(err.contains(expected), "{engine}: {err}");
        assert!(out.is_empty(), "nothing counted: {out}");
    }
}

#[test]
fn engine_arbiter_uci_answers_go_perft_as_stockfish_does() {
    // Arbiter's own UCI server as an external engine: `go perft N` in Stockfish's format.
    let path = first_lines("uci4.epd", None);
    let engine = format!("name=arbiter-uci,cmd={},args=uci", env!("CARGO_BIN_EXE_arbiter"));
    let (code, out, err) =
        arbiter(&["perft", "--quiet", "--suite", path.to_str().unwrap(), "--depth", "3", "--engine", &engine]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("4 positions, 4 checks, 0 failed") && out.contains("engine arbiter-uci"), "{out}");
}

/// The process ids of the children of process `pid` (Linux: `/proc/PID/task/*/children`).
fn children_of(pid: u32) -> Vec<u32> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else { return Vec::new() };
    tasks
        .filter_map(|task| std::fs::read_to_string(task.ok()?.path().join("children")).ok())
        .flat_map(|text| text.split_whitespace().filter_map(|w| w.parse().ok()).collect::<Vec<u32>>())
        .collect()
}

/// QA finding 3: Ctrl-C during `arbiter perft --suite --engine` (Stockfish counting kiwipete at depth 7, minutes
/// of work) ends the run with exit 130 at once, the engine ended and reaped, not left counting.
#[test]
fn sigint_stops_an_engine_perft_with_exit_130() {
    if !std::path::Path::new(STOCKFISH).exists() {
        eprintln!("skipped: no {STOCKFISH}");
        return;
    }
    let suite = temp_file(
        "interrupt.epd",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q2/PPPBBPPP/R3K2R w KQkq - 0 1 ;D7 374190009323\n",
    );
    let engine = format!("cmd={STOCKFISH},option.Threads=1");
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["perft", "--quiet", "--depth", "7", "--max-nodes", "1000000000000", "--engine", &engine, "--suite"])
        .arg(&suite)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("start arbiter");
    let started = std::time::Instant::now();
    let engine_pid = loop {
        if let Some(&pid) = children_of(child.id()).first() {
            break pid;
        }
        assert!(started.elapsed().as_secs() < 60, "the engine never started");
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    // Past the handshake and the probe: the engine is counting.
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let kill = Command::new("kill").args(["-INT", &child.id().to_string()]).status().expect("run kill");
    assert!(kill.success());
    let signalled = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for arbiter") {
            break status;
        }
        if signalled.elapsed().as_secs() > 20 {
            let _ = child.kill();
            panic!("arbiter perft did not stop within 20 s of SIGINT");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let mut stderr = String::new();
    let _ = std::io::Read::read_to_string(&mut child.stderr.take().expect("piped"), &mut stderr);
    assert_eq!(status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("arbiter perft: interrupted"), "{stderr}");
    // The engine is gone (reaped by arbiter, or by init once arbiter exited).
    let gone = std::time::Instant::now();
    while std::path::Path::new(&format!("/proc/{engine_pid}")).exists() {
        assert!(gone.elapsed().as_secs() < 10, "the engine (pid {engine_pid}) outlived arbiter perft");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// QA finding 6: `perft --engine` checks a `bench=` signature before the first count, as a match does; a wrong
/// one is exit 2 with both numbers.
#[test]
fn engine_with_a_wrong_bench_signature_is_refused() {
    if !std::path::Path::new(STOCKFISH).exists() {
        eprintln!("skipped: no {STOCKFISH}");
        return;
    }
    let engine = format!("cmd={STOCKFISH},option.Threads=1,bench=1");
    let (code, out, err) = arbiter(&["perft", "--depth", "2", "--engine", &engine]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("expected 1") && err.contains("measured 3467381"), "{err}");
}
