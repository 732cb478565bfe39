//! Real opponents: the built-in engine plays engines from Debian packages through the UCI path of the runner,
//! and every game is replayed by python-chess (`../shared/tools/check_pgn.py`).
//!
//! Needs `stockfish`, `fairy-stockfish`, `ethereal-chess` and `toga2` in /usr/games (the README's test command
//! installs them with apt-get) and python-chess.

use std::path::{Path, PathBuf};
use std::process::Command;

const CHECK_PGN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/tools/check_pgn.py");

/// The path of a Debian engine, or a panic that says how to install it.
fn engine(program: &str, package: &str) -> String {
    let path = format!("/usr/games/{program}");
    assert!(
        Path::new(&path).exists(),
        "{path} is missing: install it with `apt-get install {package}` (scripts/test.sh does)"
    );
    path
}

fn out_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("opponent-tests").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.parent().expect("a parent")).expect("create the parent folder");
    dir
}

/// Runs `arbiter match` with `args` into `dir`; asserts exit 0 and returns stdout.
fn play(dir: &Path, args: &[String]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .arg("match")
        .args(args)
        .arg("--out")
        .arg(dir)
        .output()
        .expect("run arbiter");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(0), "stdout:\n{stdout}\nstderr:\n{}", String::from_utf8_lossy(&out.stderr));
    stdout
}

/// Replays games.pgn with python-chess: every move legal, every result consistent, `games` games.
fn check_pgn(dir: &Path, games: usize) {
    let out = Command::new("python3")
        .arg(CHECK_PGN)
        .arg(dir.join("games.pgn"))
        .args(["--expect-games", &games.to_string()])
        .output()
        .expect("python3 must be installed (with python-chess) to check the PGN");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "check_pgn.py:\n{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains(&format!("{games} games checked, 0 problems")), "{stdout}");
}

/// The termination column of games.csv.
fn terminations(dir: &Path) -> Vec<String> {
    let mut reader = csv::Reader::from_path(dir.join("games.csv")).expect("games.csv");
    let col = reader.headers().expect("a header").iter().position(|h| h == "termination").expect("termination");
    reader.records().map(|r| r.expect("a row")[col].to_string()).collect()
}

#[test]
fn gauntlet_against_stockfish_and_fairy_stockfish_at_fixed_nodes() {
    let dir = out_dir("gauntlet-nodes");
    let sf = engine("stockfish", "stockfish");
    let fsf = engine("fairy-stockfish", "fairy-stockfish");
    let args: Vec<String> = [
        "--engine",
        "name=seed",
        "--engine",
        &format!("name=stockfish,cmd={sf},option.Threads=1,option.Hash=16,option.Skill Level=0"),
        "--engine",
        &format!("name=fairy-stockfish,cmd={fsf},option.Threads=1,option.Hash=16,option.Skill Level=0"),
        "--tournament",
        "gauntlet",
        "--each",
        "nodes=2000",
        "--rounds",
        "2",
        "--concurrency",
        "2",
        "--maxmoves",
        "150",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let stdout = play(&dir, &args);
    assert!(stdout.contains("seed vs stockfish") && stdout.contains("seed vs fairy-stockfish"), "{stdout}");
    assert!(!stdout.contains("stockfish vs fairy-stockfish"), "a gauntlet: {stdout}");
    check_pgn(&dir, 8);
    // Engines that obey `go nodes` never fail: every game ends by the rules or the move cap.
    for end in terminations(&dir) {
        assert!(
            ["checkmate", "stalemate", "threefold repetition", "fifty-move rule", "insufficient material", "max moves"]
                .contains(&end.as_str()),
            "{end}"
        );
    }
}

#[test]
fn ethereal_and_toga2_under_a_clock() {
    // These two ignore `go nodes`; under a clock kept by the runner they play normally.
    let dir = out_dir("clock");
    let ethereal = engine("ethereal-chess", "ethereal-chess");
    let toga = engine("toga2", "toga2");
    let args: Vec<String> = [
        "--engine",
        &format!("name=ethereal,cmd={ethereal},option.Threads=1,option.Hash=16"),
        "--engine",
        &format!("name=toga2,cmd={toga},option.Hash=16"),
        "--each",
        "tc=1+0.05,timemargin=200",
        "--games",
        "2",
        "--concurrency",
        "1",
        "--maxmoves",
        "100",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    play(&dir, &args);
    check_pgn(&dir, 2);
    for end in terminations(&dir) {
        assert!(!["disconnect", "stall", "illegal move", "engine failure"].contains(&end.as_str()), "{end}");
    }
}
