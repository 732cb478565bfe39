//! Engine specs end to end, with real engines: quoted values reach the engine process as written, a typo in
//! `option.NAME` is refused before any game, and an external engine without a limit is refused.
//!
//! Needs `/usr/games/stockfish` (the README's test command installs it) and `/bin/sh`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const STOCKFISH: &str = "/usr/games/stockfish";

fn out_dir(name: &str) -> PathBuf {
    assert!(Path::new(STOCKFISH).exists(), "{STOCKFISH} is missing: install it with `apt-get install stockfish`");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("engine-spec-tests").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.parent().expect("a parent")).expect("create the parent folder");
    dir
}

/// Runs `arbiter match ARGS --out DIR` with a short schedule.
fn arbiter_match(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .arg("match")
        .args(args)
        .args(["--games", "2", "--maxmoves", "12", "--concurrency", "1"])
        .arg("--out")
        .arg(dir)
        .output()
        .expect("run arbiter")
}

fn text(out: &Output) -> String {
    format!("stdout:\n{}\nstderr:\n{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

#[test]
fn quoted_arguments_and_option_values_reach_the_engine() {
    let dir = out_dir("quoted");
    // Split at spaces, `-c 'exec ...'` would hand sh a broken script: the match plays only if the quoted words
    // arrive as two arguments.
    let spec = format!(
        "name=sf,cmd=/bin/sh,args=\"-c 'exec {STOCKFISH}'\",option.SyzygyPath=\"/no/such/a,/no/such/b\",\
         option.Threads=1,nodes=500"
    );
    let out = arbiter_match(&dir, &["--engine", "name=seed,nodes=500", "--engine", &spec]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let run = std::fs::read_to_string(dir.join("run.toml")).expect("run.toml");
    assert!(run.contains(&format!(r#"args = ["-c", "exec {STOCKFISH}"]"#)), "{run}");
    assert!(run.contains(r#"["SyzygyPath", "/no/such/a,/no/such/b"]"#), "{run}");
}

#[test]
fn an_option_the_engine_does_not_list_refuses_the_match_before_any_game() {
    let dir = out_dir("unknown-option");
    let spec = format!("name=sf,cmd={STOCKFISH},option.Hsah=16,option.Threads=1,nodes=500");
    let out = arbiter_match(&dir, &["--engine", "name=seed,nodes=500", "--engine", &spec]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("sf: the engine does not list the option \"Hsah\" (did you mean \"Hash\"?)"), "{stderr}");
    assert!(stderr.contains("--allow-unknown-options"), "{stderr}");
    assert!(!dir.exists(), "nothing is written before the engines start");

    // Names are compared without regard to case, as UCI says; with the flag the typo is sent with a warning.
    let spec = format!("name=sf,cmd={STOCKFISH},option.Hsah=16,option.threads=1,nodes=500");
    let out = arbiter_match(&dir, &["--engine", "name=seed,nodes=500", "--engine", &spec, "--allow-unknown-options"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("does not list the option \"Hsah\"; it is sent anyway"));
    let run = std::fs::read_to_string(dir.join("run.toml")).expect("run.toml");
    assert!(run.contains("allow_unknown_options = true"), "{run}");
}

#[test]
fn an_external_engine_without_a_limit_is_refused() {
    let dir = out_dir("no-limit");
    let spec = format!("name=sf,cmd={STOCKFISH},option.Threads=1");
    let out = arbiter_match(&dir, &["--engine", "name=seed", "--engine", &spec]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(&format!("--engine: sf ({STOCKFISH}) has no move limit")), "{stderr}");
    assert!(stderr.contains("--tc, --nodes, --depth or --movetime-ms"), "{stderr}");
    assert!(!dir.exists(), "nothing is written for a refused match");
    // A limit from the engine's own keys, --each or a global flag: it plays (the built-in seed keeps its
    // default of 5000 nodes).
    for limit in [
        &["--engine", "name=sf2,cmd=/usr/games/stockfish,nodes=500"][..],
        &["--each", "nodes=500"],
        &["--nodes", "500"],
    ] {
        let _ = std::fs::remove_dir_all(&dir);
        let engines = if limit[0] == "--engine" {
            vec!["--engine", "name=seed"]
        } else {
            vec!["--engine", "name=seed", "--engine", &spec]
        };
        let out = arbiter_match(&dir, &[&engines[..], limit].concat());
        assert_eq!(out.status.code(), Some(0), "{limit:?}: {}", text(&out));
    }
}

/// The other jobs that start an engine refuse an option it does not list the same way, before any search
/// (exit 2, the closest listed name suggested), and run with `--allow-unknown-options`.
#[test]
fn an_option_the_engine_does_not_list_refuses_epd_datagen_and_perft() {
    let dir = out_dir("unknown-option-jobs");
    std::fs::create_dir_all(&dir).expect("create the folder");
    let suites = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/suites");
    let epd = suites.join("tactics/bratko_kopec.epd").display().to_string();
    let perft = suites.join("perft/perftsuite.epd").display().to_string();
    let data = dir.join("dg.epd").display().to_string();
    let spec = format!("name=sf,cmd={STOCKFISH},option.Hsah=16,option.Threads=1");
    let jobs: [Vec<&str>; 3] = [
        vec!["epd", &epd, "--engine", &spec, "--nodes", "500", "--concurrency", "1"],
        vec!["datagen", "--engine", &spec, "--nodes", "500", "--games", "1", "--concurrency", "1", "--out", &data],
        vec!["perft", "--suite", &perft, "--skip-bad-lines", "--depth", "1", "--engine", &spec, "--quiet"],
    ];
    for job in &jobs {
        let out = Command::new(env!("CARGO_BIN_EXE_arbiter")).args(job).output().expect("run arbiter");
        assert_eq!(out.status.code(), Some(2), "{}: {}", job[0], text(&out));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("does not list the option \"Hsah\" (did you mean \"Hash\"?)"), "{}: {stderr}", job[0]);
        if job[0] == "datagen" {
            assert!(!Path::new(&data).exists(), "datagen writes nothing before its engines start");
        }
        let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(job)
            .arg("--allow-unknown-options")
            .output()
            .expect("run arbiter");
        assert_eq!(out.status.code(), Some(0), "{} --allow-unknown-options: {}", job[0], text(&out));
    }
}
