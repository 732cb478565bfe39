//! The steps of docs/your-engine.md as an engine author runs them, with Stockfish from Debian as "your engine"
//! and `arbiter uci` (a real process) as the base build, at small sizes: each step is one command and its exit
//! code is the one the page says CI acts on. The failing cases of each step (a wrong perft count, a wrong bench,
//! a crash on a suite position, a killed datagen run) are in tests/integration/perft.rs, tests/integration/bench.rs, tests/integration/epd.rs and
//! tests/integration/datagen.rs.
//!
//! Needs `stockfish` in /usr/games (the README's test command installs it) and `../shared/suites`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const ARBITER: &str = env!("CARGO_BIN_EXE_arbiter");
const STOCKFISH: &str = "/usr/games/stockfish";

fn suite(path: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/suites").join(path);
    assert!(path.exists(), "{} is missing: the tests read ../shared/suites", path.display());
    path.display().to_string()
}

fn dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("your-engine").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create the test folder");
    dir
}

fn arbiter(args: &[&str]) -> Output {
    assert!(Path::new(STOCKFISH).exists(), "{STOCKFISH} is missing: install it with `apt-get install stockfish`");
    Command::new(ARBITER).args(args).output().expect("run arbiter")
}

fn text(out: &Output) -> String {
    format!("stdout:\n{}\nstderr:\n{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

fn mine() -> String {
    format!("name=mine,cmd={STOCKFISH},option.Threads=1,option.Hash=16")
}

fn base() -> String {
    format!("name=base,cmd={ARBITER},args=uci")
}

/// Step 1: the perft gate against the engine's `go perft` passes (exit 0) on the classic suite.
#[test]
fn step_1_perft_gate() {
    let out = arbiter(&[
        "perft",
        "--suite",
        &suite("perft/perftsuite.epd"),
        "--skip-bad-lines",
        "--depth",
        "3",
        "--engine",
        &format!("cmd={STOCKFISH}"),
        "--quiet",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
}

/// Step 2: the bench signature, then a match that checks it before it starts; a wrong one refuses the match
/// with exit 2 and both numbers.
#[test]
fn step_2_bench_then_bench_checked_match() {
    let bench = arbiter(&["bench", "--engine", &format!("cmd={STOCKFISH}")]);
    assert_eq!(bench.status.code(), Some(0), "{}", text(&bench));
    let line = String::from_utf8_lossy(&bench.stdout).to_string();
    let nodes: u64 = line.split_whitespace().next().and_then(|n| n.parse().ok()).expect("`<nodes> nodes <nps> nps`");
    assert!(line.contains(" nodes ") && line.trim_end().ends_with(" nps"), "{line}");

    let d = dir("bench-match");
    let right = format!("{},bench={nodes}", mine());
    let wrong = format!("{},bench={}", mine(), nodes + 1);
    let play = |spec: &str, out: &str| {
        arbiter(&[
            "match",
            "--engine",
            spec,
            "--engine",
            &base(),
            "--each",
            "nodes=500",
            "--games",
            "2",
            "--concurrency",
            "2",
            "--out",
            &d.join(out).display().to_string(),
        ])
    };
    let refused = play(&wrong, "wrong");
    assert_eq!(refused.status.code(), Some(2), "{}", text(&refused));
    assert!(text(&refused).contains(&nodes.to_string()), "names the measured count: {}", text(&refused));
    let played = play(&right, "right");
    assert_eq!(played.status.code(), Some(0), "{}", text(&played));
}

/// Step 3: dev against base at a time control until the SPRT decides or the games run out: exit 0 whatever the
/// decision, with the `LLR:` line in the summary.
#[test]
fn step_3_sprt_at_a_time_control() {
    let d = dir("sprt");
    let out = arbiter(&[
        "match",
        "--engine",
        &mine(),
        "--engine",
        &base(),
        "--each",
        "tc=1+0.02",
        "--sprt",
        "elo0=0,elo1=5",
        "--games",
        "4",
        "--concurrency",
        "2",
        "--recover",
        "--out",
        &d.join("run").display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(text(&out).contains("LLR:"), "{}", text(&out));
}

/// Step 4: a suite solved by the engine, rows in file order, exit 0.
#[test]
fn step_4_solve_a_suite() {
    let d = dir("epd");
    let csv = d.join("wac.csv");
    let out = arbiter(&[
        "epd",
        &suite("tactics/bratko_kopec.epd"),
        "--engine",
        &mine(),
        "--nodes",
        "20000",
        "--concurrency",
        "2",
        "--csv",
        &csv.display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("solved"), "{}", text(&out));
    let rows = std::fs::read_to_string(&csv).expect("the CSV is written");
    assert_eq!(rows.lines().count(), 25, "a header and the 24 Bratko-Kopec positions:\n{rows}");
}

/// Step 5: training data from the engine's self-play, in a binary format, exit 0.
#[test]
fn step_5_training_data() {
    let d = dir("datagen");
    let out_file = d.join("mine.bullet");
    let out = arbiter(&[
        "datagen",
        "--engine",
        &mine(),
        "--nodes",
        "2000",
        "--games",
        "2",
        "--concurrency",
        "2",
        "--format",
        "bulletformat",
        "--out",
        &out_file.display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let size = std::fs::metadata(&out_file).expect("written").len();
    assert!(size > 0 && size.is_multiple_of(32), "32-byte records: {size} bytes");
}
