//! xboard (CECP 2) engines through `proto=xboard`: Debian's fairymax and phalanx against the built-in engine and
//! Stockfish at a time control (games replayed legal by `check_pgn.py`), positions set up by `setboard` and by
//! `edit` mode, and a scripted xboard engine that crashes, stalls, plays an illegal move or answers nonsense.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::{self, arbiter, text};
const CHECK_PGN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/tools/check_pgn.py");
const TWO_MOVES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/suites/openings/2moves_v2.pgn");
const FAULTY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/engines/faulty_xboard.py");
const FAIRYMAX: &str = "name=fairymax,cmd=/usr/games/fairymax,proto=xboard,tc=2+0.05";
const PHALANX: &str = "name=phalanx,cmd=/usr/games/phalanx,args=-l- -b- -r0,proto=xboard,tc=2+0.05";

fn scratch(name: &str) -> PathBuf {
    support::scratch_in("xboard-tests", name)
}

/// Plays `games` games between the two specs from `openings` into `dir/run`; returns the `(result,
/// termination)` of every game after checking the PGN with check_pgn.py.
fn play(dir: &Path, openings: &str, a: &str, b: &str, games: &str, extra: &[&str]) -> Vec<(String, String)> {
    for engine in ["/usr/games/fairymax", "/usr/games/phalanx"] {
        assert!(Path::new(engine).exists(), "{engine} is missing: run the test command of README.md");
    }
    let run = dir.join("run");
    let mut args = vec![
        "match",
        "--openings",
        openings,
        "--engine",
        a,
        "--engine",
        b,
        "--games",
        games,
        "--concurrency",
        "2",
        "--out",
        run.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let out = arbiter(&args);
    assert!(out.status.success(), "{}{}", text(&out.stdout), text(&out.stderr));
    let check = Command::new("python3").arg(CHECK_PGN).arg(run.join("games.pgn")).output().unwrap();
    assert!(check.status.success(), "{}{}", text(&check.stdout), text(&check.stderr));
    let csv = std::fs::read_to_string(run.join("games.csv")).unwrap();
    csv.lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[5].to_string(), f[6].to_string())
        })
        .collect()
}

/// Terminations a game between working engines may end with.
fn played_out(ends: &[(String, String)]) {
    let fine =
        ["checkmate", "stalemate", "threefold repetition", "fifty-move rule", "insufficient material", "max moves"];
    for (result, end) in ends {
        assert!(fine.contains(&end.as_str()), "{result} by {end}: {ends:?}");
    }
}

#[test]
fn fairymax_and_phalanx_play_the_builtin_engine_and_stockfish() {
    let dir = scratch("fairymax-seed");
    let ends = play(&dir, TWO_MOVES, FAIRYMAX, "name=seed,tc=2+0.05", "4", &["--maxmoves", "150"]);
    assert_eq!(ends.len(), 4);
    played_out(&ends);
    // Thinking output is read into the PGN comments like UCI info lines.
    let pgn = std::fs::read_to_string(dir.join("run/games.pgn")).unwrap();
    let scored = pgn.split_whitespace().filter(|w| w.starts_with("{+") || w.starts_with("{-")).count();
    assert!(pgn.contains("[White \"fairymax\"]") && scored > 40, "{scored} scored moves: {pgn}");

    let dir = scratch("phalanx-stockfish");
    let ends = play(
        &dir,
        TWO_MOVES,
        PHALANX,
        "name=stockfish,cmd=/usr/games/stockfish,tc=2+0.05",
        "4",
        &["--maxmoves", "150"],
    );
    assert_eq!(ends.len(), 4);
    played_out(&ends);

    let dir = scratch("fairymax-phalanx");
    let ends = play(&dir, TWO_MOVES, FAIRYMAX, PHALANX, "2", &["--maxmoves", "150"]);
    played_out(&ends);
}

#[test]
fn positions_are_set_up_by_setboard_or_edit_mode() {
    let dir = scratch("setup");
    // White to move: phalanx takes setboard, fairymax (setboard=0) edit mode.
    let white = dir.join("white.epd");
    std::fs::write(&white, "rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR w KQkq - 2 3\n").unwrap();
    let ends = play(&dir, white.to_str().unwrap(), FAIRYMAX, PHALANX, "2", &["--maxmoves", "150"]);
    played_out(&ends);
    // Black to move: phalanx by setboard; fairymax cannot be given it and says so.
    let black = dir.join("black.epd");
    std::fs::write(&black, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n").unwrap();
    let ends =
        play(&scratch("black"), black.to_str().unwrap(), PHALANX, "name=seed,tc=2+0.05", "2", &["--maxmoves", "150"]);
    played_out(&ends);
    let run = scratch("black-fairymax").join("run");
    let out = arbiter(&[
        "match",
        "--openings",
        black.to_str().unwrap(),
        "--engine",
        FAIRYMAX,
        "--engine",
        "name=seed",
        "--games",
        "2",
        "--out",
        run.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let log = std::fs::read_to_string(run.join("match.log")).unwrap();
    assert!(log.contains("edit mode (setboard=0)") && log.contains("PGN openings"), "{log}");
}

#[test]
fn a_faulty_xboard_engine_loses_its_games_and_is_restarted_with_recover() {
    for (mode, termination) in
        [("crash", "disconnect"), ("stall", "stall"), ("illegal", "illegal move"), ("garbage", "illegal move")]
    {
        let dir = scratch(&format!("faulty-{mode}"));
        let faulty = format!("name=faulty,cmd={FAULTY},args={mode} 2,proto=xboard,st=1");
        let ends = play(&dir, TWO_MOVES, &faulty, "name=seed,nodes=300", "4", &["--recover"]);
        assert_eq!(ends.len(), 4, "{mode}");
        for (result, end) in &ends {
            assert_eq!(end, termination, "{mode}: {ends:?}");
            assert_ne!(result, "1/2-1/2", "{mode}");
        }
        let log = std::fs::read_to_string(dir.join("run/match.log")).unwrap();
        assert!(log.contains("faulty"), "{mode}: {log}");
    }
    // A good run of the same script plays whole games; without --recover a crash stops the match.
    let dir = scratch("faulty-good");
    let transcript = dir.join("transcript.txt");
    let good = format!("name=faulty,cmd={FAULTY},args=good 0 {},proto=xboard,st=1", transcript.display());
    let ends = play(&dir, TWO_MOVES, &good, "name=seed,nodes=300", "2", &["--maxmoves", "40"]);
    played_out(&ends);
    // What the protocol asks of the GUI: the handshake, features answered, a ping between games, the
    // position by usermove, the clock and the result.
    let sent = std::fs::read_to_string(&transcript).unwrap();
    for line in [
        "xboard\n",
        "protover 2\n",
        "accepted setboard\n",
        "accepted usermove\n",
        "new\n",
        "force\n",
        "ping 1\n",
        "usermove ",
        "st 1\n",
        "go\n",
        "result ",
        "quit\n",
    ] {
        assert!(sent.contains(line), "{line:?} not sent:\n{sent}");
    }
    let run = scratch("faulty-stop").join("run");
    let out = arbiter(&[
        "match",
        "--openings",
        TWO_MOVES,
        "--engine",
        &format!("name=faulty,cmd={FAULTY},args=crash 1,proto=xboard,st=1"),
        "--engine",
        "name=seed,nodes=300",
        "--games",
        "6",
        "--concurrency",
        "1",
        "--out",
        run.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("--recover"), "{}", text(&out.stderr));
}
