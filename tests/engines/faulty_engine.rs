//! A UCI engine that misbehaves on purpose, for the runner's failure tests (built as the example
//! `faulty-engine`; `cargo test` builds it).
//!
//! ```text
//! faulty-engine [--mode normal|crash|hang|illegal|garbage|slow|no-uciok|no-readyok|flood-line|flood-lines|
//!                flood-stderr|bad-utf8] [--after N] [--sleep-ms MS] [--child-sleep S]
//!               [--counter FILE --starts N] [--score cp:V|mate:V]
//! ```
//!
//! It answers the handshake and `isready`, and plays the first legal move of each position for its first `N`
//! moves (default 0) of the process's life; from then on, at each `go`: `crash` exits with status 3 (after a
//! line on stderr), `hang` stops reading and answering, `illegal` sends `bestmove a1a1`, `garbage` sends
//! `bestmove xyzzy`, `slow` sleeps `MS` milliseconds (default 2000, ignoring `stop`) before its move,
//! `flood-line` prints one endless line on stdout, `flood-lines` prints short `info string` lines on stdout
//! without end, `flood-stderr` prints an endless line on stderr, `bad-utf8` plays its move with bytes that are
//! not UTF-8 in an `info` line, on a line of their own before `bestmove` and after the move on the `bestmove`
//! line. `no-uciok` never finishes the handshake; `no-readyok` never answers `isready` after the handshake.
//!
//! `--child-sleep S` starts `sleep S` as a child at startup (in the engine's process group, sharing its
//! output pipes), to check that an engine's children end with it. `--counter FILE --starts N` counts the
//! starts of the engine in FILE and exits with status 4 at once (before `uciok`) from the (N+1)-th start on.
//!
//! `--crash-fen TEXT` (for suite tests) exits with status 3 at a `go` whose position's FEN starts with `TEXT`,
//! whatever the mode: an engine that crashes on one position of a suite and plays the others.
//! `--bench-hang` (bench cues, for tests/integration/bench.rs): run as `faulty-engine --bench-hang bench`, it prints a line
//! and then hangs without printing a node count (an engine whose bench never ends).
//!
//! `--score` sets the score of its `info` line before each move, written as given (default `cp:0`, sent as
//! `score cp 0`; `cp:-2147483648` tests scores at the integer limit).
//!
//! Perft cues (`arbiter perft --engine` tests): every mode but these answers `go perft N` as a search, with a
//! `bestmove` (an engine without `go perft`). `--mode perft-no-ep` answers `go perft N` with a divide
//! (`e2e4: 20` lines) and a total (`Nodes: N`) counted by Arbiter's generator leaving out every en-passant
//! capture, at every node: a wrong count wherever an en-passant capture lies within the depth.
//! `--mode perft-total-only` prints only a total, one more than the true count (`12 nodes`), and no divide.

use arbiter::uci::server::parse_position;
use std::io::{BufRead, Write};
use std::time::Duration;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |flag: &str| args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1)).cloned();
    let mode = value("--mode").unwrap_or_else(|| "normal".to_string());
    let after: u64 = value("--after").and_then(|v| v.parse().ok()).unwrap_or(0);
    let sleep_ms: u64 = value("--sleep-ms").and_then(|v| v.parse().ok()).unwrap_or(2000);
    let crash_fen = value("--crash-fen");
    let score = value("--score").unwrap_or_else(|| "cp:0".to_string()).replacen(':', " ", 1);
    if let (Some(counter), Some(starts)) = (value("--counter"), value("--starts")) {
        let count: u64 = std::fs::read_to_string(&counter).ok().and_then(|t| t.trim().parse().ok()).unwrap_or(0);
        let _ = std::fs::write(&counter, (count + 1).to_string());
        if count >= starts.parse::<u64>().unwrap_or(0) {
            eprintln!("faulty-engine: refusing to start after {count} starts, as told");
            std::process::exit(4);
        }
    }
    // --- bench cues (tests/integration/bench.rs) ---
    if args.iter().any(|a| a == "--bench-hang") && args.iter().any(|a| a == "bench") {
        println!("faulty-engine: benching forever");
        loop {
            std::thread::sleep(Duration::from_secs(3600));
        }
    }
    // --- end of bench cues ---

    // The child is left running on purpose: its parent's process group must end it.
    let _child = value("--child-sleep").map(|secs| std::process::Command::new("sleep").arg(secs).spawn());

    let stdout = std::io::stdout();
    let say = |line: &str| {
        let mut out = stdout.lock();
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    };
    let hang = || loop {
        std::thread::sleep(Duration::from_secs(3600));
    };
    let mut game = None;
    let mut moves_played = 0u64;
    let mut handshake_done = false;
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("uci") => {
                say("id name faulty-engine");
                say("id author arbiter tests");
                say("option name Hash type spin default 16 min 1 max 1024");
                if mode == "no-uciok" {
                    hang();
                }
                say("uciok");
            }
            Some("isready") => {
                if mode == "no-readyok" && handshake_done {
                    hang();
                }
                handshake_done = true;
                say("readyok");
            }
            Some("position") => game = parse_position(&words[1..], false).ok(),
            Some("go") if words.get(1) == Some(&"perft") && mode.starts_with("perft-") => {
                perft_cue(&mode, &words, game.as_ref(), &say);
            }
            Some("go") => {
                // --crash-fen: crash on one position, whatever the mode.
                if let (Some(text), Some(g)) = (crash_fen.as_deref(), game.as_ref())
                    && g.position().to_fen().starts_with(text)
                {
                    eprintln!("faulty-engine: crashing on {text} as told");
                    std::process::exit(3);
                }
                if moves_played >= after {
                    match mode.as_str() {
                        "crash" => {
                            eprintln!("faulty-engine: crashing as told after {moves_played} moves");
                            std::process::exit(3);
                        }
                        "hang" => hang(),
                        "illegal" => {
                            say("bestmove a1a1");
                            continue;
                        }
                        "garbage" => {
                            say("bestmove xyzzy");
                            continue;
                        }
                        "slow" => std::thread::sleep(Duration::from_millis(sleep_ms)),
                        "flood-line" => flood(std::io::stdout(), b"info string ", b"x"),
                        "flood-lines" => flood(std::io::stdout(), b"", b"info string flood\n"),
                        "flood-stderr" => flood(std::io::stderr(), b"", b"y"),
                        _ => {}
                    }
                }
                let best = game.as_ref().and_then(|g| g.position().legal_moves().iter().next().copied());
                match best {
                    Some(m) if mode == "bad-utf8" && moves_played >= after => {
                        let mut out = stdout.lock();
                        let _ = out.write_all(b"info depth 1 score cp 0 nodes 1 string caf\xc3 \xff\xfe\n");
                        let _ = out.write_all(b"\xc0\xaf\xff\n");
                        let _ = write!(out, "bestmove {} ", m.to_uci(false));
                        let _ = out.write_all(b"\xff\xfe\n");
                        let _ = out.flush();
                        moves_played += 1;
                    }
                    Some(m) => {
                        say(&format!("info depth 1 score {score} nodes 1"));
                        say(&format!("bestmove {}", m.to_uci(false)));
                        moves_played += 1;
                    }
                    None => say("bestmove 0000"),
                }
            }
            Some("quit") => break,
            _ => {}
        }
    }
}

/// Writes `head`, then `body` again and again until the output is closed (the runner ended the engine).
fn flood(mut out: impl Write, head: &[u8], body: &[u8]) -> ! {
    let chunk: Vec<u8> = body.iter().copied().cycle().take(body.len() * (65_536 / body.len()).max(1)).collect();
    let _ = out.write_all(head);
    while out.write_all(&chunk).is_ok() {}
    std::process::exit(5);
}

// ---- Perft cues: `go perft N` answered wrongly on purpose (tests/integration/perft.rs, `arbiter perft --engine`) ----

/// Answers `go perft N` (`words`) in the perft `mode`: for `perft-no-ep`, the divide and total of Arbiter's
/// generator without en-passant captures, in the `move: count` and `Nodes: N` forms.
fn perft_cue(mode: &str, words: &[&str], game: Option<&arbiter::chess::ChessGame>, say: &dyn Fn(&str)) {
    use arbiter::chess::{Move, MoveKind, Position};
    use arbiter::game::Rules as _;
    use arbiter::suite::compare::{ArbiterOracle, PerftOracle};
    fn no_en_passant(_: &Position, m: Move) -> bool {
        m.kind() != MoveKind::EnPassant
    }
    let depth: u32 = words.get(2).and_then(|d| d.parse().ok()).unwrap_or(1);
    let fen = match game {
        Some(game) => arbiter::chess::ChessGame::position_fen(game.position()),
        None => arbiter::chess::ChessGame::initial_fen(),
    };
    if mode == "perft-no-ep" {
        let divide = ArbiterOracle::<arbiter::chess::ChessGame>::filtered(false, no_en_passant)
            .divide(&fen, &[], depth)
            .unwrap_or_default();
        for (m, n) in &divide {
            say(&format!("{m}: {n}"));
        }
        say("");
        say(&format!("Nodes: {}", divide.values().sum::<u64>()));
    } else if mode == "perft-total-only" {
        let divide =
            ArbiterOracle::<arbiter::chess::ChessGame>::new(false).divide(&fen, &[], depth).unwrap_or_default();
        say(&format!("{} nodes", divide.values().sum::<u64>() + 1));
    }
}
