//! A UCI engine that misbehaves on purpose, for the runner's failure tests (built as the example
//! `faulty-engine`; `cargo test` builds it).
//!
//! ```text
//! faulty-engine [--mode normal|crash|hang|illegal|garbage|slow|no-uciok|no-readyok] [--after N] [--sleep-ms MS]
//!               [--score cp:V|mate:V]
//! ```
//!
//! It answers the handshake and `isready`, and plays the first legal move of each position for its first `N`
//! moves (default 0) of the process's life; from then on, at each `go`: `crash` exits with status 3 (after a
//! line on stderr), `hang` stops reading and answering, `illegal` sends `bestmove a1a1`, `garbage` sends
//! `bestmove xyzzy`, `slow` sleeps `MS` milliseconds (default 2000, ignoring `stop`) before its move.
//! `no-uciok` never finishes the handshake; `no-readyok` never answers `isready` after the handshake.
//! `--score` sets the score of its `info` line before each move, written as given (default `cp:0`, sent as
//! `score cp 0`; `cp:-2147483648` tests scores at the integer limit).

use arbiter::uci::server::parse_position;
use std::io::{BufRead, Write};
use std::time::Duration;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |flag: &str| args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1)).cloned();
    let mode = value("--mode").unwrap_or_else(|| "normal".to_string());
    let after: u64 = value("--after").and_then(|v| v.parse().ok()).unwrap_or(0);
    let sleep_ms: u64 = value("--sleep-ms").and_then(|v| v.parse().ok()).unwrap_or(2000);
    let score = value("--score").unwrap_or_else(|| "cp:0".to_string()).replacen(':', " ", 1);

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
            Some("go") => {
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
                        _ => {}
                    }
                }
                let best = game.as_ref().and_then(|g| g.position().legal_moves().iter().next().copied());
                match best {
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
