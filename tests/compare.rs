//! `arbiter perft --compare-with` against a real Stockfish (Debian package `stockfish`, installed by the
//! README test command).

use std::process::Command;

const STOCKFISH: &str = "/usr/games/stockfish";

fn stockfish() -> &'static str {
    assert!(
        std::path::Path::new(STOCKFISH).exists(),
        "{STOCKFISH} is missing: run the README test command (bash scripts/test.sh), which installs it with apt-get"
    );
    STOCKFISH
}

fn arbiter(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter")).args(args).output().expect("arbiter runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn agrees_with_stockfish_on_perftsuite_depth_4() {
    let suite = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/suites/perft/perftsuite.epd");
    let (code, out, err) = arbiter(&["perft", "--suite", suite, "--compare-with", stockfish(), "--depth", "4"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("126 positions compared with /usr/games/stockfish at depth 4: 126 agree, 0 differ"), "{out}");
}

#[test]
fn agrees_with_stockfish_on_chess960_sample() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/suites/perft/fischer.epd"))
        .expect("fischer.epd");
    for line in text.lines().step_by(97) {
        let fen = line.split(';').next().unwrap().trim();
        let (code, out, err) =
            arbiter(&["perft", "--chess960", "--fen", fen, "--compare-with", stockfish(), "--depth", "3"]);
        assert_eq!(code, 0, "{fen}: {out}{err}");
    }
}

#[test]
fn unusable_engine_is_exit_2() {
    let (code, _, err) = arbiter(&["perft", "--compare-with", "/nonexistent/engine", "--depth", "2"]);
    assert_eq!(code, 2);
    assert!(err.contains("/nonexistent/engine"), "{err}");
    let (code, _, err) = arbiter(&["perft", "--compare-with", "/bin/true", "--depth", "2", "--compare-timeout-s", "2"]);
    assert_eq!(code, 2, "{err}");
}
