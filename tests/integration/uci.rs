//! UCI conformance of `arbiter uci`: checked by python-chess (`tests/uci_conformance.py`), and driven as a real
//! process over many positions and limits: `bestmove` is always the first move of the last `multipv 1` pv,
//! `time` and `nps` are present and consistent, and `MultiPV` gives distinct legal lines.

use std::process::Command;

#[test]
fn python_chess_conformance() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/uci_conformance.py");
    let output = Command::new("python3")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_arbiter"))
        .output()
        .expect("python3 must be installed to run the UCI conformance test");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.code() != Some(3),
        "python-chess is missing: run `pip install chess`, then `cargo test --test integration uci::` (see README)\n{stderr}"
    );
    assert!(output.status.success(), "UCI conformance failed\nstdout:\n{stdout}\nstderr:\n{stderr}");
    assert!(stdout.contains("uci conformance: ok"), "{stdout}");
}

/// `arbiter uci` as a real process, read line by line with a bounded wait.
struct Uci {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    lines: std::sync::mpsc::Receiver<String>,
}

impl Uci {
    fn start() -> Uci {
        use std::io::BufRead;
        use std::process::Stdio;
        let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .arg("uci")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start arbiter uci");
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (send, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        let mut uci = Uci { child, stdin, lines };
        uci.send("uci");
        uci.until("uciok");
        uci
    }

    fn send(&mut self, line: &str) {
        use std::io::Write;
        writeln!(self.stdin, "{line}").expect("write to arbiter uci");
        self.stdin.flush().expect("flush");
    }

    /// The lines up to and including the first that starts with `prefix`.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(std::time::Duration::from_secs(120))
                .unwrap_or_else(|_| panic!("no `{prefix}` from arbiter uci after:\n{}", seen.join("\n")));
            let done = line.starts_with(prefix);
            seen.push(line);
            if done {
                return seen;
            }
        }
    }
}

impl Drop for Uci {
    fn drop(&mut self) {
        self.send("quit");
        let _ = self.child.wait();
    }
}

/// The value after `key` in an info line.
fn field<'a>(words: &[&'a str], key: &str) -> Option<&'a str> {
    words.iter().position(|&w| w == key).and_then(|i| words.get(i + 1).copied())
}

/// Checks one search's output: every info line has `time` and `nps` consistent with its nodes and the time
/// never goes back; `bestmove` is the first pv move of the last `multipv 1` line, which it returns.
fn check_search(lines: &[String], what: &str) -> String {
    let mut last_pv_move: Option<String> = None;
    let mut last_time = 0u64;
    for line in lines.iter().filter(|l| l.starts_with("info ") && !l.starts_with("info string")) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let number = |key: &str| -> u64 {
            field(&words, key).and_then(|v| v.parse().ok()).unwrap_or_else(|| panic!("{what}: no {key} in {line}"))
        };
        let (time, nps, nodes) = (number("time"), number("nps"), number("nodes"));
        assert!(time >= last_time, "{what}: time went back in {line}");
        last_time = time;
        // nps is nodes over the elapsed time, which lies in [time, time + 1) ms.
        let (low, high) = (nodes * 1000 / (time + 1), (nodes * 1000).checked_div(time).map_or(u64::MAX, |n| n + 1));
        assert!(nps >= low && nps <= high, "{what}: nps {nps} not within {low}..={high} in {line}");
        if field(&words, "multipv").is_none_or(|k| k == "1") {
            last_pv_move = field(&words, "pv").map(str::to_string);
        }
    }
    let best = lines.last().expect("a bestmove line").split_whitespace().nth(1).expect("a move").to_string();
    assert_eq!(
        last_pv_move.as_deref(),
        Some(best.as_str()),
        "{what}: bestmove is not the last pv's move:\n{}",
        lines.join("\n")
    );
    best
}

/// Positions from random games (a fixed seed), each with at least three legal moves.
fn positions(count: usize) -> Vec<arbiter::chess::Position> {
    use arbiter::chess::Position;
    let mut seed = 0x853c_49e6_748f_ea9bu64;
    let mut out = Vec::new();
    while out.len() < count {
        let mut pos = Position::startpos();
        let plies = 2 + (seed % 40) as usize;
        for _ in 0..plies {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves.as_slice()[(seed % moves.len() as u64) as usize];
            pos.make_move(m);
        }
        if pos.legal_moves().len() >= 3 {
            out.push(pos);
        }
    }
    out
}

#[test]
fn bestmove_is_the_first_move_of_the_last_pv_under_node_and_time_limits() {
    let mut uci = Uci::start();
    let mut searches = 0;
    for (i, pos) in positions(40).iter().enumerate() {
        let fen = pos.to_fen();
        uci.send(&format!("position fen {fen}"));
        for nodes in [1, 2, 3, 7, 20, 55, 150, 400, 1100, 3000] {
            uci.send(&format!("go nodes {nodes}"));
            let lines = uci.until("bestmove");
            check_search(&lines, &format!("{fen} go nodes {nodes}"));
            searches += 1;
        }
        if i % 4 == 0 {
            uci.send("go movetime 15");
            let lines = uci.until("bestmove");
            check_search(&lines, &format!("{fen} go movetime 15"));
            searches += 1;
        }
    }
    assert_eq!(searches, 410);
}

#[test]
fn multipv_reports_distinct_legal_lines_best_first() {
    let mut uci = Uci::start();
    uci.send("setoption name MultiPV value 3");
    for pos in positions(15) {
        let fen = pos.to_fen();
        uci.send(&format!("position fen {fen}"));
        uci.send("go depth 3");
        let lines = uci.until("bestmove");
        let best = check_search(&lines, &format!("{fen} MultiPV 3 go depth 3"));
        // The depth-3 iteration completes: three lines, numbered 1 to 3, distinct legal first moves, best first.
        let last: Vec<Vec<&str>> = lines
            .iter()
            .map(|l| l.split_whitespace().collect::<Vec<&str>>())
            .filter(|w| w.first() == Some(&"info") && field(w, "depth") == Some("3"))
            .collect();
        assert_eq!(last.iter().map(|w| field(w, "multipv").unwrap()).collect::<Vec<_>>(), ["1", "2", "3"], "{fen}");
        let firsts: Vec<&str> = last.iter().map(|w| field(w, "pv").unwrap()).collect();
        assert_eq!(firsts[0], best, "{fen}");
        assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2], "{fen}: {firsts:?}");
        for m in &firsts {
            assert!(arbiter::chess::parse_uci(&pos, m).is_ok(), "{fen}: {m} is not legal");
        }
        // Under node limits the invariant holds for line 1 as well.
        for nodes in [5, 60, 700] {
            uci.send(&format!("go nodes {nodes}"));
            check_search(&uci.until("bestmove"), &format!("{fen} MultiPV 3 go nodes {nodes}"));
        }
    }
    // A position with fewer legal moves than MultiPV reports only as many lines (here one: Kh7).
    uci.send("position fen 7k/8/8/8/8/8/8/6RK b - - 0 1");
    uci.send("go depth 2");
    let lines = uci.until("bestmove");
    assert!(lines.iter().all(|l| !l.contains(" multipv 3 ")), "{}", lines.join("\n"));
}
