//! Engine failures become results: the real `arbiter match` binary plays the built-in `seed` against
//! `faulty-engine` (tests/engines/faulty_engine.rs, a real UCI process) told to crash, hang, send an illegal or
//! unparsable move, overrun its clock, never finish its handshake, flood its output or print bytes that are not
//! UTF-8. Each failure must be a loss for the faulty side with the right termination in games.csv and the PGN
//! `Termination` tag, logged with the engine's last lines; with `--recover` the match goes on (until an engine
//! fails to start 3 games in a row), without it the match stops after the games in play (exit 1), and nothing
//! already played is lost. The engines and their children never outlive a match, a SIGTERM or (after a resume)
//! a `kill -9`; texts an engine would misread are refused before it starts (docs/engines.md).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::support;
use support::faulty_engine;

/// A fresh folder for one test's results (not created: the match creates it).
fn out_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("failure-tests").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.parent().expect("a parent")).expect("create the parent folder");
    dir
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Plays `seed` against the faulty engine run with `faulty_args`, with the extra match flags `flags`.
fn play(name: &str, faulty_args: &str, flags: &[&str]) -> (Output, PathBuf) {
    let dir = out_dir(name);
    let engine = format!("name=faulty,cmd={},args={faulty_args}", faulty_engine().display());
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["match", "--engine", "name=seed", "--engine", &engine, "--concurrency", "1", "--out"])
        .arg(&dir)
        .args(flags)
        .output()
        .expect("run arbiter");
    (out, dir)
}

/// The rows of games.csv: (white, black, result, termination).
fn rows(dir: &Path) -> Vec<(String, String, String, String)> {
    let mut reader = csv::Reader::from_path(dir.join("games.csv")).expect("games.csv");
    let headers = reader.headers().expect("a header").clone();
    let col = |name: &str| headers.iter().position(|h| h == name).unwrap_or_else(|| panic!("no column {name}"));
    let (w, b, r, t) = (col("white"), col("black"), col("result"), col("termination"));
    reader
        .records()
        .map(|rec| {
            let rec = rec.expect("a complete CSV row");
            (rec[w].to_string(), rec[b].to_string(), rec[r].to_string(), rec[t].to_string())
        })
        .collect()
}

/// Checks that every game was lost by `faulty` with `termination`, in the CSV and the PGN alike, and that
/// there were `games` of them.
fn all_lost_by_faulty(dir: &Path, termination: &str, games: usize) {
    let rows = rows(dir);
    assert_eq!(rows.len(), games, "{rows:?}");
    for (white, black, result, end) in &rows {
        assert_eq!(end, termination, "{rows:?}");
        let expected = if white == "faulty" { "0-1" } else { "1-0" };
        assert!(white == "faulty" || black == "faulty");
        assert_eq!(result, expected, "{rows:?}");
    }
    let pgn = std::fs::read_to_string(dir.join("games.pgn")).expect("games.pgn");
    assert_eq!(pgn.matches(&format!("[Termination \"{termination}\"]")).count(), games, "{pgn}");
    let faulty_lost = pgn
        .split("[Event ")
        .skip(1)
        .filter(|game| {
            let white_faulty = game.contains("[White \"faulty\"]");
            game.contains(if white_faulty { "[Result \"0-1\"]" } else { "[Result \"1-0\"]" })
        })
        .count();
    assert_eq!(faulty_lost, games, "{pgn}");
}

fn assert_exit(out: &Output, code: i32) {
    assert_eq!(
        out.status.code(),
        Some(code),
        "exit code\nstdout:\n{}\nstderr:\n{}",
        text(&out.stdout),
        text(&out.stderr)
    );
}

#[test]
fn a_crash_with_recover_loses_and_the_match_goes_on() {
    let (out, dir) = play("crash-recover", "--mode crash --after 2", &["--games", "4", "--nodes", "300", "--recover"]);
    assert_exit(&out, 0);
    all_lost_by_faulty(&dir, "disconnect", 4);
    // The engine's last lines, its stderr included, are in the log and on stderr.
    let log = std::fs::read_to_string(dir.join("match.log")).expect("match.log");
    assert_eq!(log.matches("crashing as told after 2 moves").count(), 4, "{log}");
    assert!(text(&out.stderr).contains("stderr: faulty-engine: crashing as told"));
}

#[test]
fn a_crash_without_recover_stops_the_match_and_keeps_its_games() {
    let (out, dir) = play("crash-stop", "--mode crash --after 2", &["--games", "20", "--nodes", "300"]);
    assert_exit(&out, 1);
    assert!(text(&out.stderr).contains("pass --recover"), "{}", text(&out.stderr));
    // The pair in play when the engine crashed is finished, and no other starts.
    all_lost_by_faulty(&dir, "disconnect", 2);
    let summary = std::fs::read_to_string(dir.join("summary.txt")).expect("summary.txt");
    assert!(summary.contains("Stopped by an engine failure"), "{summary}");
}

#[test]
fn a_hang_is_a_stall() {
    let flags = ["--games", "2", "--tc", "1+0.1", "--ping-timeout-ms", "500", "--recover"];
    let (out, dir) = play("hang", "--mode hang --after 2", &flags);
    assert_exit(&out, 0);
    all_lost_by_faulty(&dir, "stall", 2);
}

#[test]
fn no_readyok_is_a_stall() {
    let flags = ["--games", "2", "--nodes", "300", "--ping-timeout-ms", "500", "--recover"];
    let (out, dir) = play("no-readyok", "--mode no-readyok", &flags);
    assert_exit(&out, 0);
    all_lost_by_faulty(&dir, "stall", 2);
}

#[test]
fn illegal_and_unparsable_moves_lose() {
    for mode in ["illegal", "garbage"] {
        let (out, dir) = play(mode, &format!("--mode {mode} --after 3"), &["--games", "2", "--nodes", "300"]);
        assert_exit(&out, 0);
        all_lost_by_faulty(&dir, "illegal move", 2);
        let log = std::fs::read_to_string(dir.join("match.log")).expect("match.log");
        let sent = if mode == "illegal" { "\"a1a1\"" } else { "\"xyzzy\"" };
        assert!(log.matches(sent).count() >= 2, "{log}");
    }
}

#[test]
fn the_engine_log_holds_every_line_of_every_game_and_is_bounded() {
    let log = out_dir("io").with_extension("log");
    let flags = ["--games", "2", "--nodes", "300", "--log", log.to_str().unwrap()];
    let (out, dir) = play("io", "--mode illegal --after 3", &flags);
    assert_exit(&out, 0);
    let lines = std::fs::read_to_string(&log).unwrap();
    for game in ["game 1", "game 2"] {
        for (engine, sent) in [("faulty", "< bestmove a1a1"), ("faulty", "> go "), ("seed", "> position startpos")] {
            let found = lines.lines().any(|l| l.contains(&format!("{game} {engine} pid ")) && l.contains(sent));
            assert!(found || engine == "seed", "{game} {engine} {sent}: {lines}");
        }
    }
    // The game's record holds the engine's last lines, the illegal move's among them.
    let record = std::fs::read_to_string(dir.join("match.log")).unwrap();
    assert!(record.contains("illegal move") && record.contains("\"bestmove a1a1\"]"), "{record}");
    // Bounded: a last line says so.
    let (out, _) = play("io-bounded", "--mode illegal --after 3", &[&flags[..], &["--log-limit", "1000"]].concat());
    assert_exit(&out, 0);
    let bounded = std::fs::read_to_string(&log).unwrap();
    assert!(bounded.len() <= 1000 + 200 && bounded.trim_end().ends_with("later lines are not written]"), "{bounded}");
}

#[test]
fn overrunning_the_clock_is_a_time_forfeit() {
    // 1 s + 0.1 s: the third move takes 1.5 s. The runner sends `stop` when the clock runs out; the move that
    // comes (within the ping timeout) is late.
    let flags = ["--games", "2", "--tc", "1+0.1", "--ping-timeout-ms", "3000"];
    let (out, dir) = play("slow", "--mode slow --sleep-ms 1500 --after 2", &flags);
    assert_exit(&out, 0);
    all_lost_by_faulty(&dir, "time forfeit", 2);
    let log = std::fs::read_to_string(dir.join("match.log")).expect("match.log");
    assert!(log.contains("faulty lost on time: the move took "), "{log}");
    // Per-move time (st=) is kept too.
    let (out, dir) = play("slow-st", "--mode slow --sleep-ms 800 --after 1", &["--games", "2", "--each", "st=0.2"]);
    assert_exit(&out, 0);
    all_lost_by_faulty(&dir, "time forfeit", 2);
}

#[test]
fn no_handshake_is_an_input_error_before_anything_is_written() {
    let dir = out_dir("no-uciok");
    let engine = format!("name=faulty,cmd={},args=--mode no-uciok", faulty_engine().display());
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["match", "--engine", "name=seed", "--engine", &engine, "--nodes", "300"])
        .args(["--handshake-timeout-ms", "500", "--out"])
        .arg(&dir)
        .output()
        .expect("run arbiter");
    assert_exit(&out, 2);
    let err = text(&out.stderr);
    assert!(err.contains("faulty: cannot start") && err.contains("uciok"), "{err}");
    assert!(!dir.exists(), "no run folder for a match that never started");
    // A program that does not exist names itself.
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["match", "--engine", "name=seed", "--engine", "name=ghost,cmd=/no/such/engine,nodes=300", "--out"])
        .arg(&dir)
        .output()
        .expect("run arbiter");
    assert_exit(&out, 2);
    assert!(text(&out.stderr).contains("/no/such/engine"));
}

/// Runs `arbiter` with `args`, sampling its peak resident memory (`VmHWM` of /proc/PID/status) until it
/// exits; returns its output and the last peak read, in kB.
fn run_measured(args: &[String]) -> (Output, u64) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run arbiter");
    let status_path = format!("/proc/{}/status", child.id());
    let mut peak_kb = 0;
    // The pipes are read by threads so that a full pipe never blocks the arbiter while it is measured.
    let mut stdout = child.stdout.take().expect("piped");
    let mut stderr = child.stderr.take().expect("piped");
    let out_reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stdout, &mut bytes);
        bytes
    });
    let err_reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stderr, &mut bytes);
        bytes
    });
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for arbiter") {
            break status;
        }
        let hwm = std::fs::read_to_string(&status_path).ok().and_then(|text| {
            let line = text.lines().find(|l| l.starts_with("VmHWM:"))?.to_string();
            line.split_whitespace().nth(1)?.parse::<u64>().ok()
        });
        peak_kb = peak_kb.max(hwm.unwrap_or(0));
        std::thread::sleep(std::time::Duration::from_millis(10));
    };
    let stdout = out_reader.join().expect("stdout reader");
    let stderr = err_reader.join().expect("stderr reader");
    (Output { status, stdout, stderr }, peak_kb)
}

/// The largest peak resident memory an arbiter playing the flooding engine may reach, in kB: the flood limits
/// (a 64 KiB line, 16 MiB per reply read and dropped) keep it near a normal match's, far below the gigabytes
/// an unbounded reader would take.
const FLOOD_PEAK_KB: u64 = 200 * 1024;

#[test]
fn an_output_flood_loses_and_memory_stays_flat() {
    for mode in ["flood-line", "flood-lines", "flood-stderr"] {
        let dir = out_dir(mode);
        let engine = format!("name=faulty,cmd={},args=--mode {mode} --after 2", faulty_engine().display());
        let args: Vec<String> = ["match", "--engine", "name=seed", "--engine", &engine, "--concurrency", "1"]
            .into_iter()
            .map(String::from)
            .chain(["--games", "2", "--nodes", "300", "--recover", "--out"].map(String::from))
            .chain([dir.display().to_string()])
            .collect();
        let (out, peak_kb) = run_measured(&args);
        assert_exit(&out, 0);
        all_lost_by_faulty(&dir, "output flood", 2);
        assert!(peak_kb > 0 && peak_kb < FLOOD_PEAK_KB, "{mode}: peak resident memory {peak_kb} kB");
        let log = std::fs::read_to_string(dir.join("match.log")).expect("match.log");
        let why = if mode == "flood-line" { "a line longer than 65536 bytes" } else { "bytes of output, more than" };
        assert_eq!(log.matches(why).count(), 2, "{mode}: {log}");
    }
}

#[test]
fn bytes_that_are_not_utf8_are_read_escaped() {
    // In a match: the engine's moves count, nothing is a crash.
    let (out, dir) = play("bad-utf8", "--mode bad-utf8 --after 1", &["--games", "2", "--nodes", "300"]);
    assert_exit(&out, 0);
    let rows = rows(&dir);
    assert_eq!(rows.len(), 2, "{rows:?}");
    for (_, _, _, end) in &rows {
        assert!(!["disconnect", "stall", "illegal move", "output flood", "engine failure"].contains(&end.as_str()));
    }
    // The lines as read: every byte that is not UTF-8 escaped, the move read.
    let args = vec!["--mode".to_string(), "bad-utf8".to_string()];
    let mut engine = arbiter::uci::EngineProcess::spawn(&faulty_engine().display().to_string(), &args, None)
        .expect("start the faulty engine");
    let second = std::time::Duration::from_secs(10);
    engine.send("uci").unwrap();
    engine.wait_for(|l| l == "uciok", "uciok", second).unwrap();
    engine.send("position startpos").unwrap();
    engine.send("go nodes 1").unwrap();
    let lines = engine.wait_for(|l| l.starts_with("bestmove"), "bestmove", second).unwrap();
    assert_eq!(
        lines,
        ["info depth 1 score cp 0 nodes 1 string caf\\xc3 \\xff\\xfe", "\\xc0\\xaf\\xff", "bestmove b1a3 \\xff\\xfe"],
        "{lines:?}"
    );
    let last = engine.last_lines();
    assert_eq!(last[last.len() - 3..], lines[..], "{last:?}");
}

#[test]
fn an_engine_that_cannot_be_restarted_stops_the_match() {
    // Start 1 checks the engine before the match, start 2 plays and crashes after 3 moves; every later start
    // fails at once, so --recover cannot bring it back.
    let counter = Path::new(env!("CARGO_TARGET_TMPDIR")).join("failure-tests").join("restart-counter");
    let _ = std::fs::remove_file(&counter);
    std::fs::create_dir_all(counter.parent().expect("a parent")).expect("create the folder");
    let faulty = format!("--mode crash --after 3 --counter {} --starts 2", counter.display());
    let (out, dir) = play("no-restart", &faulty, &["--games", "40", "--nodes", "300", "--recover"]);
    assert_exit(&out, 1);
    let err = text(&out.stderr);
    assert!(err.contains("the engine faulty failed to start for 3 games in a row"), "{err}");
    assert!(err.contains("--resume"), "{err}");
    let ends: Vec<String> = rows(&dir).into_iter().map(|row| row.3).collect();
    assert_eq!(ends, ["disconnect", "engine failure", "engine failure", "engine failure"], "{err}");
    let summary = std::fs::read_to_string(dir.join("summary.txt")).expect("summary.txt");
    assert!(summary.contains("Games: 4 (40 planned)"), "{summary}");
    // The run is resumable: with the engine working again (a fresh counter), it goes on where it stopped.
    std::fs::remove_file(&counter).expect("reset the counter");
    let resumed = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["match", "--resume"])
        .arg(&dir)
        .output()
        .expect("run arbiter");
    assert_exit(&resumed, 1);
    let ends: Vec<String> = rows(&dir).into_iter().map(|row| row.3).collect();
    assert_eq!(ends.len(), 8, "{ends:?}");
    assert_eq!(ends[4..], ["disconnect", "engine failure", "engine failure", "engine failure"]);
}

#[test]
fn control_characters_in_texts_for_an_engine_are_refused() {
    let dir = out_dir("control-characters");
    let cmd = faulty_engine().display().to_string();
    let cases = [
        (format!("name=faulty,cmd={cmd},option.Hash=16\nquit"), "faulty: value of option Hash \"16\\nquit\""),
        (format!("name=faulty,cmd={cmd},option.Ha\rsh=16"), "faulty: option name \"Ha\\rsh\""),
        (format!("name=faulty,cmd={cmd},option.Skill value=3"), "faulty: option name \"Skill value\""),
        (format!("name=fau\u{1b}lty,cmd={cmd}"), "name=: an engine name must not hold control characters"),
    ];
    for (engine, expected) in cases {
        let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(["match", "--engine", "name=seed", "--engine", &engine, "--games", "2", "--out"])
            .arg(&dir)
            .output()
            .expect("run arbiter");
        assert_exit(&out, 2);
        assert!(text(&out.stderr).contains(expected), "{expected}: {}", text(&out.stderr));
        assert!(!dir.exists(), "nothing written for a refused engine");
    }
    // Through --each too.
    let engine = format!("name=faulty,cmd={cmd}");
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["match", "--engine", &format!("name=other,cmd={cmd}"), "--engine", &engine])
        .args(["--each", "option.Threads=1\r2", "--games", "2", "--out"])
        .arg(&dir)
        .output()
        .expect("run arbiter");
    assert_exit(&out, 2);
    assert!(text(&out.stderr).contains("other: value of option Threads"), "{}", text(&out.stderr));
}

/// The process ids of running processes whose command line holds the word `marker` (zombies excluded).
fn processes_with(marker: &str) -> Vec<u32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").expect("read /proc").flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else { continue };
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else { continue };
        let zombie = std::fs::read_to_string(entry.path().join("stat"))
            .is_ok_and(|stat| stat.rsplit(')').next().is_some_and(|rest| rest.trim_start().starts_with('Z')));
        if !zombie && cmdline.split(|&b| b == 0).any(|word| word == marker.as_bytes()) {
            found.push(pid);
        }
    }
    found
}

/// Waits up to 10 s for the processes holding `marker` to be gone; the ones left.
fn left_after_a_while(marker: &str) -> Vec<u32> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let left = processes_with(marker);
        if left.is_empty() || std::time::Instant::now() > deadline {
            return left;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

#[test]
fn an_engines_children_end_with_the_match() {
    // Every engine process (the check before the match, the players, restarts) starts `sleep MARKER`, a number
    // of this test run's own.
    let marker = format!("9871{}", std::process::id());
    let faulty = format!("--mode crash --after 3 --child-sleep {marker}");
    let (out, dir) = play("children", &faulty, &["--games", "4", "--nodes", "300", "--recover"]);
    assert_exit(&out, 0);
    all_lost_by_faulty(&dir, "disconnect", 4);
    assert_eq!(left_after_a_while(&marker), Vec::<u32>::new(), "the engines' children outlived the match");
}

#[test]
fn sigterm_stops_a_match_promptly_and_ends_every_engine() {
    let dir = out_dir("sigterm");
    // The engine hangs (ignoring stop and quit) at its third move, under a long time control.
    let marker = format!("9872{}", std::process::id());
    let engine =
        format!("name=faulty,cmd={},args=--mode hang --after 2 --child-sleep {marker}", faulty_engine().display());
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["match", "--engine", "name=seed", "--engine", &engine, "--games", "20", "--tc", "600+1", "--out"])
        .arg(&dir)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("start arbiter");
    let started = std::time::Instant::now();
    // The engine of the first game is thinking (hanging) once its child is there and a moment has passed.
    while processes_with(&marker).len() < 2 {
        assert!(started.elapsed().as_secs() < 60, "the engines never started");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::thread::sleep(std::time::Duration::from_millis(500));
    let kill = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().expect("run kill");
    assert!(kill.success());
    let signalled = std::time::Instant::now();
    // Bounded wait: 2 s for the games in play, 0.5 s for quit, and a generous margin for a loaded machine.
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for arbiter") {
            break status;
        }
        if signalled.elapsed().as_secs() > 20 {
            let _ = child.kill();
            panic!("arbiter did not stop within 20 s of SIGTERM");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let mut stderr = String::new();
    let _ = std::io::Read::read_to_string(&mut child.stderr.take().expect("piped"), &mut stderr);
    assert_eq!(status.code(), Some(130), "{stderr}");
    assert!(dir.join("summary.txt").exists() && dir.join("summary.csv").exists(), "{stderr}");
    // Every row of games.csv is complete (the game in play was abandoned, not written half).
    let _ = rows(&dir);
    assert_eq!(left_after_a_while(&marker), Vec::<u32>::new(), "engines or their children outlived arbiter");
}

#[test]
fn a_closed_stdout_and_stderr_still_leave_a_summary() {
    let dir = out_dir("closed-outputs");
    let engine = format!("name=faulty,cmd={}", faulty_engine().display());
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["match", "--engine", "name=seed", "--engine", &engine, "--games", "4", "--nodes", "300"])
        .args(["--concurrency", "1", "--ratinginterval", "1", "--out"])
        .arg(&dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("start arbiter");
    // Both readers gone: every write to stdout or stderr fails with EPIPE (SIGPIPE is ignored by Rust programs).
    drop(child.stdout.take());
    drop(child.stderr.take());
    let status = child.wait().expect("wait for arbiter");
    assert_eq!(status.code(), Some(0));
    assert_eq!(rows(&dir).len(), 4);
    let summary = std::fs::read_to_string(dir.join("summary.txt")).expect("summary.txt");
    assert!(summary.contains("Games: 4"), "{summary}");
    assert!(dir.join("summary.csv").exists());
}

#[test]
fn a_resume_ends_the_engines_a_killed_session_left() {
    let dir = out_dir("kill-9");
    let marker = format!("9873{}", std::process::id());
    let engine =
        format!("name=faulty,cmd={},args=--mode hang --after 2 --child-sleep {marker}", faulty_engine().display());
    let start = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(args)
            .arg(&dir)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("start arbiter")
    };
    let flags = ["--games", "20", "--tc", "600+1", "--concurrency", "1", "--out"];
    let mut first = start(&[&["match", "--engine", "name=seed", "--engine", &engine][..], &flags[..]].concat());
    let started = std::time::Instant::now();
    while processes_with(&marker).len() < 2 || !dir.join("engines.pgid").exists() {
        assert!(started.elapsed().as_secs() < 60, "the engines never started");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    first.kill().expect("kill -9 arbiter");
    first.wait().expect("reap arbiter");
    let orphans = processes_with(&marker);
    // The engine's child outlives a kill -9 (and the engine too, when it hangs; otherwise it exits on the end of
    // its input and its group lives on without its leader).
    assert!(!orphans.is_empty(), "nothing outlived the kill -9");
    // The resume ends them (and then plays on with its own engines, which SIGTERM ends).
    let mut second = start(&["match", "--resume"]);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while orphans.iter().any(|pid| processes_with(&marker).contains(pid)) {
        assert!(std::time::Instant::now() < deadline, "the resume left the orphans {orphans:?}");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let kill = Command::new("kill").args(["-TERM", &second.id().to_string()]).status().expect("run kill");
    assert!(kill.success());
    let status = second.wait().expect("wait for arbiter");
    assert_eq!(status.code(), Some(130));
    assert_eq!(left_after_a_while(&marker), Vec::<u32>::new());
}

#[test]
fn check_engine_passes_stockfish_and_names_each_fault() {
    let check = |spec: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(["check-engine", "--engine", spec, "--timeout-ms", "2000"])
            .output()
            .expect("run arbiter");
        (out.status.code(), text(&out.stdout))
    };
    let (code, stdout) = check("name=sf,cmd=/usr/games/stockfish,option.Hash=16");
    assert_eq!(code, Some(0), "{stdout}");
    assert!(stdout.contains("15 of 15 items hold") && stdout.contains("bestmove (none)"), "{stdout}");
    let faulty = faulty_engine().display().to_string();
    let (code, stdout) = check(&format!("name=f,cmd={faulty},args=--mode illegal --after 0"));
    assert_eq!(code, Some(1), "{stdout}");
    assert!(
        stdout.contains("[FAIL] position fen ..., go nodes 5000") && stdout.contains("\"a1a1\" is not legal"),
        "{stdout}"
    );
    assert!(stdout.contains("[FAIL] a checkmated root: bestmove (none) or 0000: bestmove a1a1 where no move is legal"));
    assert!(stdout.contains("[ok]   quit ends the process"), "the checks go on after a wrong answer: {stdout}");
    let (code, stdout) = check(&format!("name=f,cmd={faulty},args=--mode crash --after 1"));
    assert_eq!(code, Some(1), "{stdout}");
    assert!(stdout.contains("exited or closed its output") && stdout.contains("items not checked"), "{stdout}");
    // xboard engines: Fairy-Max passes; the faulty xboard engine's illegal move is named.
    let (code, stdout) = check("name=fm,cmd=/usr/games/fairymax,proto=xboard");
    assert_eq!(code, Some(0), "{stdout}");
    assert!(stdout.contains("[ok]   a move from a FEN (setboard)") && stdout.contains("6 of 6 items hold"), "{stdout}");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/engines/faulty_xboard.py");
    let (code, stdout) = check(&format!("name=fx,cmd=python3,args={script} illegal 1,proto=xboard"));
    assert_eq!(code, Some(1), "{stdout}");
    assert!(stdout.contains("[FAIL] a move after moves (usermove)"), "{stdout}");
}
