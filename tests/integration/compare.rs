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

/// `--compare-with` takes a command line with quoted arguments (split as a POSIX shell would) or an engine spec.
#[test]
fn compare_with_takes_a_quoted_command_line_or_a_spec() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    // A shell runs the engine only when each quoted argument arrives whole: the script, and `a b` as its $0.
    let command = format!("sh -c 'test \"$0\" = \"a b\" && exec {}' 'a b'", stockfish());
    let spec = format!("name=sf,cmd={},option.Threads=1,option.Hash=16", stockfish());
    for engine in [command.as_str(), spec.as_str(), stockfish()] {
        let (code, out, err) = arbiter(&["perft", "--fen", fen, "--compare-with", engine, "--depth", "2"]);
        assert_eq!(code, 0, "{engine}: {out}{err}");
        assert!(out.contains(&format!("1 positions compared with {engine} at depth 2: 1 agree, 0 differ")), "{out}");
    }
    // An unclosed quote, an empty command and a bad spec are bad input, named.
    for (engine, expected) in [
        ("sh -c 'exec", "an unclosed quote"),
        ("   ", "no program given"),
        ("name=sf,cmd=/usr/games/stockfish,nodes=0", "nodes=\"0\""),
    ] {
        let (code, _, err) = arbiter(&["perft", "--compare-with", engine, "--depth", "2"]);
        assert_eq!(code, 2, "{engine}: {err}");
        assert!(err.contains(expected), "{engine}: {err}");
    }
}

/// An engine without `go perft` is named after the probe's few seconds, not waited on for --compare-timeout-s.
#[test]
fn compare_with_an_engine_without_perft_is_named() {
    let (code, _, err) = arbiter(&["perft", "--compare-with", "/usr/games/ethereal-chess", "--depth", "2"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("ethereal-chess does not support `go perft`: it searched instead"), "{err}");
}
