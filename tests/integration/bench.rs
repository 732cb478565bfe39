//! `arbiter bench --engine SPEC` with real processes: Stockfish from Debian, `arbiter uci` itself as an external
//! engine, and `faulty-engine` (tests/engines/faulty_engine.rs) as an engine whose bench prints no count or never
//! ends; the `bench=` check before a match and `--tc-scale-nps`.
//!
//! Needs `stockfish` in /usr/games (the README's test command installs it).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::support;
use support::faulty_engine;

const ARBITER: &str = env!("CARGO_BIN_EXE_arbiter");

/// The path of a Debian engine, or a panic that says how to install it.
fn engine(program: &str, package: &str) -> String {
    let path = format!("/usr/games/{program}");
    assert!(Path::new(&path).exists(), "{path} is missing: install it with `apt-get install {package}`");
    path
}

/// Runs `arbiter ARGS`.
fn arbiter(args: &[&str]) -> Output {
    Command::new(ARBITER).args(args).output().expect("run arbiter")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The node count of a bench line `<nodes> nodes <nps> nps`, checking its form.
fn signature(out: &Output) -> u64 {
    assert_eq!(out.status.code(), Some(0), "stdout:\n{}\nstderr:\n{}", stdout(out), stderr(out));
    let text = stdout(out);
    let words: Vec<&str> = text.split_whitespace().collect();
    assert!(
        words.len() == 4 && words[1] == "nodes" && words[3] == "nps" && words[2].parse::<u64>().is_ok(),
        "not a bench line: {text:?}"
    );
    words[0].parse().expect("a node count")
}

#[test]
fn stockfish_bench_signature() {
    // Stockfish 15.1 (Debian) at depth 4 over its 48 default positions (`bench 16 1 4 default depth`: hash MiB,
    // threads, depth, positions, limit type) prints `Nodes searched  : 9982` on stderr.
    let stockfish = engine("stockfish", "stockfish");
    let spec = format!("cmd={stockfish}");
    let out = arbiter(&["bench", "--engine", &spec, "--bench-args", "16 1 4 default depth", "--runs", "2"]);
    assert_eq!(signature(&out), 9982);
    // --depth does not apply to an external engine: the error says what to give instead.
    let out = arbiter(&["bench", "--engine", &spec, "--depth", "4"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--bench-args"), "{}", stderr(&out));
}

#[test]
fn arbiter_uci_as_an_external_engine_has_the_builtin_signature() {
    let builtin = signature(&arbiter(&["bench", "--depth", "3"]));
    let spec = format!("cmd={ARBITER},args=uci");
    let external = signature(&arbiter(&["bench", "--engine", &spec, "--bench-args", "3"]));
    assert_eq!(external, builtin);
    // The same through --engine for the built-in build, and `arbiter uci bench 3` in OpenBench's format.
    assert_eq!(signature(&arbiter(&["bench", "--engine", "name=seed", "--depth", "3"])), builtin);
    let out = arbiter(&["uci", "bench", "3"]);
    assert!(stdout(&out).starts_with(&format!("Bench: {builtin} nodes ")), "{}", stdout(&out));
}

#[test]
fn an_engine_without_a_bench_count_is_named() {
    // faulty-engine knows no `bench`: on the command line it waits for UCI commands and ends with its input;
    // over UCI it ignores `bench` and answers `isready`.
    let faulty = faulty_engine();
    let spec = format!("name=nobench,cmd={}", faulty.display());
    let out = arbiter(&["bench", "--engine", &spec, "--bench-timeout", "20"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let text = stderr(&out);
    assert!(text.contains("engine nobench: no bench node count found"), "{text}");
    assert!(text.contains("bench` exited with status 0"), "{text}");
    assert!(stdout(&out).is_empty());
}

#[test]
fn a_bench_that_never_ends_is_killed_at_the_time_limit() {
    let faulty = faulty_engine();
    let spec = format!("name=slow,cmd={},args=--bench-hang", faulty.display());
    let out = arbiter(&["bench", "--engine", &spec, "--bench-timeout", "2"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stderr(&out);
    assert!(text.contains("engine slow: bench did not finish within 2 s"), "{text}");
    assert!(text.contains("benching forever"), "{text}");
}

/// A fresh output folder for a match test.
fn out_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bench-tests").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.parent().expect("a parent")).expect("create the parent folder");
    dir
}

#[test]
fn a_wrong_bench_signature_refuses_the_match() {
    let dir = out_dir("wrong-bench");
    let out = arbiter(&[
        "match",
        "--engine",
        "name=seed,bench=123",
        "--engine",
        "name=nomob",
        "--games",
        "2",
        "--nodes",
        "100",
        "--out",
        dir.to_str().expect("a UTF-8 path"),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let text = stderr(&out);
    assert!(text.contains("engine seed: wrong bench: expected 123 (bench=123), measured 1467420 nodes"), "{text}");
    assert!(!dir.join("games.csv").exists(), "a refused match writes no results");
    // bench= must be a count of nodes.
    let out = arbiter(&["match", "--engine", "name=seed,bench=0", "--engine", "name=nomob", "--games", "2"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("bench=\"0\""), "{}", stderr(&out));
}

#[test]
fn a_right_bench_signature_plays_and_is_recorded() {
    let dir = out_dir("right-bench");
    let out = arbiter(&[
        "match",
        "--engine",
        "name=seed,bench=1467420",
        "--engine",
        "name=nomob",
        "--games",
        "2",
        "--nodes",
        "200",
        "--concurrency",
        "1",
        "--bench-check",
        "--out",
        dir.to_str().expect("a UTF-8 path"),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("bench: seed: signature 1467420 as expected"), "{}", stderr(&out));
    let run = std::fs::read_to_string(dir.join("run.toml")).expect("run.toml");
    assert!(run.contains("bench = 1467420"), "{run}");
    assert!(run.contains("bench_check = true"), "{run}");
}

/// `--bench-check`: an engine whose bench changes after the check before the match (here a shell wrapper around
/// Stockfish whose `bench` prints 1000 nodes the first time and 1001 after) stops the match at a worker's
/// start with exit 2, naming both numbers.
#[test]
fn bench_check_stops_a_match_when_a_worker_measures_another_signature() {
    let dir = out_dir("bench-check-changes");
    std::fs::create_dir_all(&dir).expect("create the folder");
    let counter = dir.join("benches");
    let stockfish = engine("stockfish", "stockfish");
    let script = dir.join("engine.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nif [ \"$1\" = bench ]; then\n  n=$(cat '{c}' 2>/dev/null || echo 0)\n  echo $((n + 1)) > '{c}'\n  \
             echo \"Nodes searched  : $((1000 + n))\"\n  echo \"Nodes/second    : 100000\"\n  exit 0\nfi\nexec {stockfish}\n",
            c = counter.display()
        ),
    )
    .expect("write the wrapper");
    let status = Command::new("chmod").arg("+x").arg(&script).status().expect("chmod");
    assert!(status.success());
    let spec = format!("name=changing,cmd={},bench=1000,option.Threads=1", script.display());
    let out = arbiter(&[
        "match",
        "--engine",
        &spec,
        "--engine",
        "name=seed",
        "--games",
        "2",
        "--nodes",
        "200",
        "--concurrency",
        "1",
        "--bench-check",
        "--out",
        dir.join("run").to_str().expect("a UTF-8 path"),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let text = stderr(&out);
    assert!(text.contains("changing: signature 1000 as expected"), "the check before the match passes: {text}");
    assert!(text.contains("expected 1000") && text.contains("1001"), "both numbers at the worker's start: {text}");
}

#[test]
fn tc_scale_nps_prints_the_factor_and_records_the_scaled_clock() {
    let dir = out_dir("tc-scale");
    let out = arbiter(&[
        "match",
        "--engine",
        "name=seed",
        "--engine",
        "name=nomob",
        "--games",
        "2",
        "--tc",
        "1+0.01",
        "--maxmoves",
        "4",
        "--tc-scale-nps",
        "1000000",
        "--out",
        dir.to_str().expect("a UTF-8 path"),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stderr(&out);
    assert!(text.contains("--tc-scale-nps 1000000: seed benches"), "{text}");
    assert!(text.contains("factor "), "{text}");
    let run = std::fs::read_to_string(dir.join("run.toml")).expect("run.toml");
    assert!(run.contains("[plan.tc_scale]") && run.contains("reference_nps = 1000000"), "{run}");
    assert!(run.contains("unscaled = [\"tc 1+0.01\", \"tc 1+0.01\"]"), "{run}");
}

/// The process ids but `except` whose command line holds `tag` (read from /proc; a zombie's command line is
/// empty).
fn processes_tagged(tag: &str, except: u32) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    entries
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().chars().all(|c| c.is_ascii_digit()))
        .filter(|e| std::fs::read(e.path().join("cmdline")).is_ok_and(|c| String::from_utf8_lossy(&c).contains(tag)))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|pid| *pid != except.to_string())
        .collect()
}

/// Ctrl-C or SIGTERM during a bench that never ends: exit 130 at once, the engine killed with Arbiter.
#[test]
fn an_interrupted_bench_exits_130_and_kills_the_engine() {
    let faulty = faulty_engine();
    for signal in ["-INT", "-TERM"] {
        let tag = format!("bench-interrupt-{}{signal}", std::process::id());
        let spec = format!("name=hang,cmd={},args=--bench-hang --tag {tag}", faulty.display());
        let mut child = Command::new(ARBITER)
            .args(["bench", "--engine", &spec, "--bench-timeout", "60"])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("start the arbiter binary");
        let started = std::time::Instant::now();
        while processes_tagged(&tag, child.id()).is_empty() {
            assert!(child.try_wait().expect("poll arbiter").is_none(), "the bench ended before the engine started");
            assert!(started.elapsed().as_secs() < 20, "the engine did not start");
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        std::thread::sleep(std::time::Duration::from_millis(200));
        let kill = Command::new("kill").args([signal, &child.id().to_string()]).status().expect("run kill");
        assert!(kill.success());
        let signalled = std::time::Instant::now();
        while child.try_wait().expect("poll arbiter").is_none() {
            assert!(signalled.elapsed().as_secs() < 10, "arbiter bench did not stop at {signal}");
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let arbiter_pid = child.id();
        let out = child.wait_with_output().expect("wait for the arbiter binary");
        assert_eq!(out.status.code(), Some(130), "{signal}: {}", stderr(&out));
        assert!(stderr(&out).contains("arbiter bench: interrupted"), "{}", stderr(&out));
        let until = std::time::Instant::now() + std::time::Duration::from_secs(2);
        while !processes_tagged(&tag, arbiter_pid).is_empty() && std::time::Instant::now() < until {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        assert!(processes_tagged(&tag, arbiter_pid).is_empty(), "the engine outlived arbiter bench ({signal})");
    }
}

/// An engine with no bench count that never finishes the UCI handshake is given up on after the handshake
/// timeout (10 s), as in every other job, not the whole --bench-timeout: exit 2, "sent no uciok".
#[test]
fn a_bench_without_uciok_gives_up_at_the_handshake_timeout() {
    let faulty = faulty_engine();
    let spec = format!("name=mute,cmd={},args=--mode no-uciok", faulty.display());
    let started = std::time::Instant::now();
    let out = arbiter(&["bench", "--engine", &spec, "--bench-timeout", "100"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("engine mute: no bench node count found"), "{}", stderr(&out));
    assert!(stderr(&out).contains("sent no uciok within 10000 ms"), "{}", stderr(&out));
    assert!(started.elapsed().as_secs() < 60, "waited {:?}", started.elapsed());
}

/// --bench-args is split as a shell splits it: an unclosed quote is bad input (exit 2), before any engine runs.
#[test]
fn bench_args_with_an_unclosed_quote_are_refused() {
    let stockfish = engine("stockfish", "stockfish");
    let spec = format!("cmd={stockfish}");
    let out = arbiter(&["bench", "--engine", &spec, "--bench-args", "16 1 'unbalanced"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--bench-args") && stderr(&out).contains("unclosed quote"), "{}", stderr(&out));
}

/// `arbiter bench --engine SPEC,bench=N` checks the signature: exit 1 on another one, naming both numbers.
#[test]
fn bench_checks_the_spec_signature() {
    let out = arbiter(&["bench", "--engine", "name=seed,bench=1", "--depth", "3"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("wrong bench: expected 1 (bench=1), measured"), "{}", stderr(&out));
    let nodes = signature(&arbiter(&["bench", "--depth", "3"]));
    let spec = format!("name=seed,bench={nodes}");
    assert_eq!(signature(&arbiter(&["bench", "--engine", &spec, "--depth", "3"])), nodes);
}

/// --tc-scale-nps with node limits only has nothing to scale: refused with exit 2 before any bench.
#[test]
fn tc_scale_nps_without_a_time_limit_is_refused() {
    let out = arbiter(&[
        "match",
        "--engine",
        "name=seed",
        "--engine",
        "name=nomob",
        "--games",
        "2",
        "--nodes",
        "100",
        "--tc-scale-nps",
        "1000000",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--tc-scale-nps: no engine has a time limit"), "{}", stderr(&out));
}

#[test]
fn tc_scale_by_both_engines_and_a_least_speed() {
    let dir = support::scratch_in("bench", "tc-scale-by");
    let out_dir = dir.join("both");
    let base = ["match", "--engine", "name=seed", "--engine", "name=nomob", "--each", "tc=1+0.01", "--games", "2"];
    let mut args: Vec<&str> = base.to_vec();
    args.extend(["--tc-scale-nps", "1000000", "--tc-scale-by", "both", "--out", out_dir.to_str().unwrap()]);
    let out = arbiter(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let run: toml::Value = toml::from_str(&std::fs::read_to_string(out_dir.join("run.toml")).unwrap()).unwrap();
    let scale = &run["plan"]["tc_scale"];
    let (first, second) = (scale["measured_nps"].as_integer().unwrap(), scale["second_nps"].as_integer().unwrap());
    // OpenBench's BOTH: the mean of the two engines' factors.
    let mean = (1e6 / first as f64 + 1e6 / second as f64) / 2.0;
    assert!((scale["factor"].as_float().unwrap() - mean).abs() < 1e-12, "{scale}");
    assert_eq!(scale["by"].as_str(), Some("both"));
    // fishtest refuses a machine slower than it needs: exit 2, nothing played.
    let slow_dir = dir.join("slow");
    let mut args: Vec<&str> = base.to_vec();
    args.extend(["--tc-scale-nps", "1000000", "--min-nps", "1000000000000", "--out", slow_dir.to_str().unwrap()]);
    let out = arbiter(&args);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("this machine is too slow for the run: seed benches"), "{}", stderr(&out));
    assert!(!slow_dir.join("games.csv").exists());
    let out = arbiter(&["match", "--tc-scale-by", "second", "--games", "2"]);
    assert_eq!(out.status.code(), Some(2), "--tc-scale-by needs --tc-scale-nps");
}

/// `arbiter` with `ARBITER_CPU` set.
fn arbiter_on(path: &str, args: &[&str]) -> Output {
    Command::new(ARBITER).env("ARBITER_CPU", path).args(args).output().expect("run arbiter")
}

/// The code paths (docs/benchmarks.md, "Code paths"): the one this CPU picks and the generic one give the same
/// bench signature and perft counts, `--version` and `bench` name the path, and a wrong `ARBITER_CPU` is refused
/// with exit 2 before anything runs.
#[test]
fn every_code_path_counts_the_same() {
    let auto = arbiter_on("auto", &["bench", "--depth", "5"]);
    let generic = arbiter_on("generic", &["bench", "--depth", "5"]);
    assert_eq!(signature(&auto), signature(&generic));
    assert!(stderr(&generic).contains("code path generic"), "{}", stderr(&generic));
    let best = stdout(&arbiter_on("auto", &["--version"]));
    assert!(best.contains("code path x86-64-v3") || best.contains("code path generic"), "{best}");
    assert!(stdout(&arbiter_on("generic", &["--version"])).contains("code path generic"));
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    for path in ["auto", "generic"] {
        for (fen, depth, nodes) in [(kiwipete, "4", "4085603"), ("startpos", "5", "4865609")] {
            let mut args = vec!["perft", "--depth", depth, "--threads", "1"];
            if fen != "startpos" {
                args.extend(["--fen", fen]);
            }
            let out = arbiter_on(path, &args);
            assert!(stdout(&out).contains(nodes), "{path} {fen}: {}{}", stdout(&out), stderr(&out));
        }
        let xiangqi = arbiter_on(path, &["perft", "--game", "xiangqi", "--depth", "4"]);
        assert!(stdout(&xiangqi).contains("3290240"), "{path}: {}", stdout(&xiangqi));
    }
    let wrong = arbiter_on("avx9", &["perft", "--depth", "1"]);
    assert_eq!(wrong.status.code(), Some(2));
    assert!(stderr(&wrong).contains("ARBITER_CPU=\"avx9\": expected auto, generic or x86-64-v3"), "{}", stderr(&wrong));
}
