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

/// The classic suite is refused as a whole (exit 2 naming line 51, a double check by two bishops that no move
/// gives); its other 125 positions agree with Stockfish.
#[test]
fn agrees_with_stockfish_on_perftsuite_depth_4() {
    let suite = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/suites/perft/perftsuite.epd");
    let (code, out, err) = arbiter(&["perft", "--suite", suite, "--compare-with", stockfish(), "--depth", "4"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("perftsuite.epd:51: bad FEN: illegal position: impossible check: double check"), "{err}");
    let text = std::fs::read_to_string(suite).expect("perftsuite.epd");
    let kept: Vec<&str> = text.lines().enumerate().map(|(i, l)| if i == 50 { "" } else { l }).collect();
    let dir = std::env::temp_dir().join(format!("arbiter-compare-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let copy = dir.join("perftsuite-125.epd");
    std::fs::write(&copy, kept.join("\n")).expect("write the copy");
    let (code, out, err) = arbiter(&[
        "perft",
        "--suite",
        copy.to_str().expect("UTF-8 path"),
        "--compare-with",
        stockfish(),
        "--depth",
        "4",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("125 positions compared with /usr/games/stockfish at depth 4: 125 agree, 0 differ"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
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
