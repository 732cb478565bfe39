//! `arbiter spsa` as a user runs it: the built-in engine in-process and `arbiter uci` as an external process,
//! Stockfish's `Skill Level` (a spin option with a known best value), a fixed opponent, bad parameter files,
//! a run killed with SIGKILL and resumed (its files must end as an uninterrupted run's), Ctrl-C, and
//! `--validate`.
//!
//! Needs `stockfish` in /usr/games (the README's test command installs it).

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const ARBITER: &str = env!("CARGO_BIN_EXE_arbiter");

fn dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("spsa-tests").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create the test folder");
    dir
}

fn stockfish() -> &'static str {
    let path = "/usr/games/stockfish";
    assert!(Path::new(path).exists(), "{path} is missing: install it with `apt-get install stockfish`");
    path
}

fn spsa(args: &[&str]) -> Output {
    Command::new(ARBITER).arg("spsa").args(args).output().expect("run arbiter spsa")
}

fn text(out: &Output) -> String {
    format!("stdout:\n{}\nstderr:\n{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

/// Writes a parameter file `p.txt` in `dir` and returns its path.
fn params(dir: &Path, lines: &str) -> String {
    let path = dir.join("p.txt");
    std::fs::write(&path, lines).expect("write the parameter file");
    path.display().to_string()
}

/// The knight and rook far below their values (the seed has 305 and 563).
const MATERIAL: &str = "material[1], int, 150, 50, 600, 20, 0.01\nmaterial[3], int, 300, 100, 900, 30, 0.01\n";

/// The rows of `spsa.csv` in `run` (header excluded).
fn rows(run: &Path) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(run.join("spsa.csv")).unwrap_or_default();
    text.lines().skip(1).map(|line| line.split(',').map(String::from).collect()).collect()
}

/// `games.csv` of `run`, its rows sorted (games of one iteration end in any order at concurrency 2).
fn games(run: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(run.join("games.csv")).expect("games.csv");
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    lines.sort();
    lines
}

/// Runs `base` into `reference`, then into `killed` killed with SIGKILL once `spsa.csv` holds `rows_at_kill`
/// iterations, resumes that, and checks that both runs end with the same `spsa.csv` and the same games (when
/// the engine is `deterministic`; otherwise that the resumed run kept the rows written before the kill and
/// recorded every game once).
fn kill_and_resume(base: &[&str], reference: &Path, killed: &Path, rows_at_kill: usize, deterministic: bool) {
    let with_out = |path: &Path| {
        let mut args: Vec<String> = base.iter().map(|s| s.to_string()).collect();
        args.extend(["--out".to_string(), path.display().to_string()]);
        args
    };
    let done = Command::new(ARBITER).arg("spsa").args(with_out(reference)).output().expect("run arbiter spsa");
    assert_eq!(done.status.code(), Some(0), "{}", text(&done));
    let mut child = Command::new(ARBITER)
        .arg("spsa")
        .args(with_out(killed))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start arbiter spsa");
    let started = Instant::now();
    // Iteration rows after the start row, and a game of the next iteration: the kill falls inside an iteration.
    while (rows(killed).len() < rows_at_kill + 1 || games(killed).len() < 2 + 2 * rows_at_kill)
        && started.elapsed() < Duration::from_secs(120)
    {
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().expect("SIGKILL the run");
    child.wait().expect("reap the run");
    let before = rows(killed);
    assert!(before.len() > rows_at_kill, "no iteration finished before the kill");
    let killed_text = killed.display().to_string();
    let resumed = spsa(&["--resume", &killed_text]);
    assert_eq!(resumed.status.code(), Some(0), "{}", text(&resumed));
    assert!(String::from_utf8_lossy(&resumed.stderr).contains("arbiter spsa: resuming"), "{}", text(&resumed));
    if !deterministic {
        let (want, got) = (rows(reference), rows(killed));
        assert_eq!(got[..before.len()], before[..], "the rows written before the kill are kept");
        assert_eq!(want.len(), got.len());
        assert_eq!(want.last().map(|r| r[1].clone()), got.last().map(|r| r[1].clone()), "as many games");
        assert_eq!(games(reference).len(), games(killed).len(), "every game recorded once");
        return;
    }
    assert_eq!(
        std::fs::read_to_string(reference.join("spsa.csv")).unwrap(),
        std::fs::read_to_string(killed.join("spsa.csv")).unwrap(),
        "spsa.csv of the resumed run differs from the uninterrupted one's"
    );
    assert_eq!(games(reference), games(killed), "games.csv of the resumed run differs from the uninterrupted one's");
}

#[test]
fn a_killed_builtin_run_resumes_to_the_same_values() {
    let d = dir("builtin-resume");
    let p = params(&d, MATERIAL);
    let base = [
        "--engine",
        "name=seed",
        "--params",
        &p,
        "--iterations",
        "6",
        "--pairs-per-iteration",
        "2",
        "--nodes",
        "300",
        "--concurrency",
        "2",
    ];
    kill_and_resume(&base, &d.join("reference"), &d.join("killed"), 1, true);
    let run = d.join("reference");
    let rows = rows(&run);
    assert_eq!(rows.len(), 7, "the start row and 6 iterations");
    assert_eq!(rows[0], ["0", "0", "", "150", "300"]);
    assert_eq!(rows[6][1], "24", "4 games an iteration");
    // The built-in engine's outputs: the values to paste, a build, the chart.
    let values = std::fs::read_to_string(run.join("values.txt")).unwrap();
    assert!(values.contains("setoption name material[1] value "), "{values}");
    assert!(values.contains("\nmaterial[3], "), "{values}");
    let tuned = std::fs::read_to_string(run.join("tuned.toml")).unwrap();
    assert!(tuned.contains("material = ["), "{tuned}");
    assert!(std::fs::read_to_string(run.join("spsa.svg")).unwrap().starts_with("<svg"));
    // The build reads back as an engine.
    let config = run.join("tuned.toml").display().to_string();
    let bench = Command::new(ARBITER)
        .args(["bench", "--engine", &format!("name=t,config={config}"), "--depth", "2"])
        .output()
        .unwrap();
    assert_eq!(bench.status.code(), Some(0), "{}", text(&bench));
}

#[test]
fn the_same_run_over_uci_is_played_by_the_external_process_and_resumes() {
    let d = dir("uci-resume");
    let p = params(&d, MATERIAL);
    let engine = format!("name=me,cmd={ARBITER},args=uci");
    let base = [
        "--engine",
        &engine,
        "--params",
        &p,
        "--iterations",
        "4",
        "--pairs-per-iteration",
        "2",
        "--nodes",
        "300",
        "--concurrency",
        "2",
    ];
    kill_and_resume(&base, &d.join("reference"), &d.join("killed"), 1, true);
    let games = games(&d.join("reference"));
    assert!(games.iter().any(|g| g.contains(",me+,me-,")), "{games:?}");
    assert!(!d.join("reference").join("tuned.toml").exists(), "no build file for an external engine");
}

/// Stockfish's `Skill Level` (0..20) is best at 20: SPSA moves it up, and a kill and resume loses nothing.
#[test]
fn an_external_debian_engine_is_tuned_through_its_spin_option() {
    let d = dir("stockfish");
    let p = params(&d, "Skill Level, int, 4, 0, 20, 2, 0.02\n");
    let engine = format!("name=sf,cmd={},option.Threads=1,option.Hash=16", stockfish());
    let base = [
        "--engine",
        &engine,
        "--params",
        &p,
        "--iterations",
        "5",
        "--pairs-per-iteration",
        "2",
        "--nodes",
        "1000",
        "--concurrency",
        "2",
    ];
    // Stockfish's Skill Level draws its weakening from the clock: the games differ from run to run.
    kill_and_resume(&base, &d.join("reference"), &d.join("killed"), 1, false);
    let run = d.join("killed");
    let rows = rows(&run);
    assert_eq!(rows.len(), 6);
    assert!(rows.iter().all(|r| r[3].parse::<f64>().is_ok_and(|v| (0.0..=20.0).contains(&v))), "{rows:?}");
    let values = std::fs::read_to_string(run.join("values.txt")).unwrap();
    assert!(values.contains("setoption name Skill Level value "), "{values}");
    assert!(run.join("spsa.svg").exists());
}

#[test]
fn a_fixed_opponent_plays_both_sides_on_the_same_openings() {
    let d = dir("opponent");
    let p = params(&d, MATERIAL);
    let out = d.join("run").display().to_string();
    let run = spsa(&[
        "--engine",
        "name=seed",
        "--engine",
        "name=nomob",
        "--params",
        &p,
        "--iterations",
        "2",
        "--pairs-per-iteration",
        "2",
        "--nodes",
        "300",
        "--out",
        &out,
    ]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run));
    let rows = rows(&d.join("run"));
    assert_eq!(rows[2][1], "16", "2 pairs per side per iteration: 8 games");
    let games = games(&d.join("run"));
    let plus: Vec<&String> = games.iter().filter(|g| g.contains("seed+")).collect();
    let minus: Vec<&String> = games.iter().filter(|g| g.contains("seed-")).collect();
    assert_eq!((plus.len(), minus.len()), (8, 8));
    assert!(games.iter().filter(|g| g.contains("seed")).all(|g| g.contains("nomob")), "{games:?}");
    // Each opening of an iteration is played by both sides.
    let opening_of = |g: &String| g.split(',').take(4).skip(3).collect::<String>();
    let mut a: Vec<String> = plus.iter().map(|g| opening_of(g)).collect();
    let mut b: Vec<String> = minus.iter().map(|g| opening_of(g)).collect();
    a.sort();
    b.sort();
    assert_eq!(a, b);
}

/// Runs `arbiter spsa` with `engine` and the parameter file holding `lines` (2 iterations of 1 pair, 100
/// nodes, into `dir/run`), and checks that it is refused with exit 2, `want` on stderr and nothing written.
fn refused(dir: &Path, engine: &str, lines: &str, extra: &[&str], want: &str) {
    let p = params(dir, lines);
    let out = dir.join("run").display().to_string();
    let mut args = vec!["--engine", engine, "--params", &p, "--iterations", "2", "--pairs-per-iteration", "1"];
    args.extend(["--nodes", "100", "--out", &out]);
    args.extend(extra);
    let run = spsa(&args);
    assert_eq!(run.status.code(), Some(2), "{}", text(&run));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains(want), "want {want:?} in:\n{stderr}");
    assert!(!dir.join("run").exists(), "nothing is written for refused input");
}

#[test]
fn bad_parameter_files_name_the_file_line_and_field() {
    let d = dir("bad-params");
    let cases = [
        ("knight, int, 300, 100, 600, 20, 0.002\n", "p.txt:1: name: seed does not list the option \"knight\""),
        ("# c\nmaterial[1], int, 700, 100, 600, 20, 0.002\n", "p.txt:2: start: 700 is outside [min, max] = [100, 600]"),
        ("material[1], int, 300, 100, 600, 0, 0.002\n", "p.txt:1: c_end: 0 is not above 0"),
        ("material[1], float, 300, 100, 600, 20, 0.002\n", "p.txt:1: type: float, but seed's option material[1]"),
        ("material[1], int, 300.5, 100, 600, 20, 0.002\n", "p.txt:1: start: 300.5 is not a whole number"),
        ("material[1], int, 300, 100, 600\n", "p.txt:1: line: 5 comma-separated fields, expected 7"),
    ];
    for (lines, want) in cases {
        refused(&d, "name=seed", lines, &[], want);
    }
    // An external engine's options are checked against its own listing, with the closest names.
    let sf = format!("name=sf,cmd={}", stockfish());
    let typo = "sf does not list the option \"Skil Level\" (did you mean \"Skill Level\"?)";
    refused(&d, &sf, "Skil Level, int, 4, 0, 20, 2, 0.02\n", &[], typo);
    let range = "reaches beyond sf's option Skill Level (type spin min 0 max 20)";
    refused(&d, &sf, "Skill Level, int, 4, -5, 20, 2, 0.02\n", &[], range);
    // `arbiter uci` lists every weight (about 1,500 options): the listing is read whole and checked too.
    let me = format!("name=me,cmd={ARBITER},args=uci");
    let close = "me does not list the option \"materal[1]\" (did you mean \"material[1]\"";
    refused(&d, &me, "materal[1], int, 300, 100, 600, 20, 0.002\n", &[], close);
    // Gains that are not finite numbers over the run, or a perturbation wider than the range.
    refused(
        &d,
        "name=seed",
        "material[1], int, 300, 100, 600, 20, 1e307\n",
        &[],
        "p.txt: material[1]: the gains at iteration 1 are not finite",
    );
    refused(
        &d,
        "name=seed",
        "material[1], int, 300, 100, 600, 1e300, 0.002\n",
        &[],
        "c_end 1e300 is wider than the range",
    );
    refused(&d, "name=seed", MATERIAL, &["--gamma", "20"], "--gamma");
    refused(&d, "name=seed", MATERIAL, &["--validate", "out="], "out= is empty");
    // A file without end is refused, not read into memory.
    let run =
        spsa(&["--engine", "name=seed", "--params", "/dev/zero", "--iterations", "2", "--pairs-per-iteration", "1"]);
    assert_eq!(run.status.code(), Some(2), "{}", text(&run));
    assert!(String::from_utf8_lossy(&run.stderr).contains("/dev/zero: larger than"), "{}", text(&run));
    // The other flags.
    refused(&d, "name=seed", MATERIAL, &["--iterations", "0"], "--iterations");
    let sf_alone = ["--engine", &sf, "--params", "p.txt", "--iterations", "2", "--pairs-per-iteration", "1"];
    let run = Command::new(ARBITER).arg("spsa").args(sf_alone).current_dir(&d).output().unwrap();
    assert_eq!(run.status.code(), Some(2), "{}", text(&run));
    assert!(String::from_utf8_lossy(&run.stderr).contains("has no move limit"), "{}", text(&run));
    let run = Command::new(ARBITER)
        .args(["spsa", "--engine", "name=seed", "--params", "p.txt"])
        .current_dir(&d)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2), "{}", text(&run));
    assert!(String::from_utf8_lossy(&run.stderr).contains("--iterations N is required"), "{}", text(&run));
}

#[test]
fn ctrl_c_writes_everything_and_resume_finishes_the_run() {
    let d = dir("ctrl-c");
    let p = params(&d, MATERIAL);
    let out = d.join("run");
    let out_text = out.display().to_string();
    let child = Command::new(ARBITER)
        .args([
            "spsa",
            "--engine",
            "name=seed",
            "--params",
            &p,
            "--iterations",
            "40",
            "--pairs-per-iteration",
            "2",
            "--nodes",
            "300",
            "--concurrency",
            "2",
            "--out",
            &out_text,
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start arbiter spsa");
    let started = Instant::now();
    while rows(&out).len() < 2 && started.elapsed() < Duration::from_secs(120) {
        std::thread::sleep(Duration::from_millis(5));
    }
    nix_kill(child.id(), "INT");
    let output = child.wait_with_output().expect("wait for arbiter spsa");
    assert_eq!(output.status.code(), Some(130), "{}", text(&output));
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("continue with `arbiter spsa --resume"),
        "{}",
        text(&output)
    );
    let at_stop = rows(&out).len();
    assert!(at_stop < 41, "stopped before the end");
    assert!(
        std::fs::read_to_string(out.join("values.txt")).unwrap().contains(&format!("after iteration {}", at_stop - 1))
    );
    let resumed = spsa(&["--resume", &out_text, "--concurrency", "1"]);
    assert_eq!(resumed.status.code(), Some(0), "{}", text(&resumed));
    assert_eq!(rows(&out).len(), 41);
    assert_eq!(games(&out).len(), 1 + 40 * 4, "every game once, none lost or doubled");
    // Flags that would change the run are refused on a resume.
    let again = spsa(&["--resume", &out_text, "--nodes", "500"]);
    assert_eq!(again.status.code(), Some(2), "{}", text(&again));
}

/// Sends `signal` (`INT`) to `pid` with kill(1).
fn nix_kill(pid: u32, signal: &str) {
    let status = Command::new("kill").args([&format!("-{signal}"), &pid.to_string()]).status().expect("run kill");
    assert!(status.success());
}

#[test]
fn validate_plays_the_tuned_values_against_the_start_values() {
    let d = dir("validate");
    let p = params(&d, MATERIAL);
    let out = d.join("run").display().to_string();
    let run = spsa(&[
        "--engine",
        "name=seed",
        "--params",
        &p,
        "--iterations",
        "3",
        "--pairs-per-iteration",
        "2",
        "--nodes",
        "300",
        "--out",
        &out,
        "--validate",
        "games=20,sprt=elo0=0 elo1=400 alpha=0.2 beta=0.2",
    ]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run));
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(stdout.contains("Validation (tuned against start values): "), "{}", text(&run));
    let games = std::fs::read_to_string(d.join("run").join("validate").join("games.csv")).unwrap();
    assert!(games.contains("tuned") && games.contains("start"), "{games}");
}

/// A resume recomputes the run from `games.csv` and refuses an edited plan or record (exit 2), touching nothing.
#[test]
fn resume_refuses_an_edited_plan_or_record() {
    let d = dir("edited");
    let p = params(&d, MATERIAL);
    let out = d.join("run");
    let out_text = out.display().to_string();
    let run = spsa(&[
        "--engine",
        "name=seed",
        "--params",
        &p,
        "--iterations",
        "3",
        "--pairs-per-iteration",
        "1",
        "--nodes",
        "300",
        "--out",
        &out_text,
    ]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run));
    let resume = || spsa(&["--resume", &out_text]);
    // A finished run resumes to nothing new: the record is consistent.
    assert_eq!(resume().status.code(), Some(0), "{}", text(&resume()));
    let edit = |file: &str, from: &str, to: &str, want: &str| {
        let path = out.join(file);
        let original = std::fs::read_to_string(&path).unwrap();
        assert!(original.contains(from), "{file} holds no {from:?}:\n{original}");
        std::fs::write(&path, original.replacen(from, to, 1)).unwrap();
        let run = resume();
        assert_eq!(run.status.code(), Some(2), "{file}: {}", text(&run));
        assert!(String::from_utf8_lossy(&run.stderr).contains(want), "want {want:?}: {}", text(&run));
        std::fs::write(&path, original).unwrap();
    };
    edit("spsa.toml", "nodes = 300", "nodes = 200", "the plan was changed since the run started");
    let csv = std::fs::read_to_string(out.join("spsa.csv")).unwrap();
    let line = csv.lines().nth(2).unwrap().to_string();
    let mut fields: Vec<&str> = line.split(',').collect();
    fields[3] = "600";
    let changed = format!("\n{}\n", fields.join(","));
    let want = "spsa.csv: iteration 1 (line 3) does not follow from its games";
    edit("spsa.csv", &format!("\n{line}\n"), &changed, want);
    let games = std::fs::read_to_string(out.join("games.csv")).unwrap();
    let first = games.lines().nth(1).unwrap().to_string();
    let flipped = if first.contains(",1-0,") {
        first.replace(",1-0,", ",0-1,")
    } else {
        first.replace(",0-1,", ",1-0,").replace(",1/2-1/2,", ",1-0,")
    };
    edit("games.csv", &first, &flipped, "does not follow from its games");
    assert_eq!(resume().status.code(), Some(0), "the restored files resume");
}

/// One run split over two shards played at once (`--shard I/2`, sibling folders): each shard plays half of
/// every iteration's pairs, waits for the other's, and applies the same update; a shard killed with SIGKILL and
/// resumed loses nothing; both shards end with the one-process run's trajectory, bit for bit.
#[test]
fn shards_of_one_run_share_its_trajectory() {
    let d = dir("shards");
    let p = params(&d, MATERIAL);
    let base = ["--engine", "name=seed", "--params", &p, "--iterations", "5", "--pairs-per-iteration", "4"];
    let base: Vec<&str> = base.iter().copied().chain(["--nodes", "300", "--concurrency", "1"]).collect();
    let one = d.join("one").display().to_string();
    let single = spsa(&[&base[..], &["--out", &one]].concat());
    assert_eq!(single.status.code(), Some(0), "{}", text(&single));
    let run = d.join("run");
    let start = |i: u32| {
        let out = run.join(format!("shard-{i}")).display().to_string();
        let shard = format!("{i}/2");
        Command::new(ARBITER)
            .arg("spsa")
            .args(&base)
            .args(["--shard", &shard, "--out", &out])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start a shard")
    };
    let first = start(1);
    let mut second = start(2);
    let started = Instant::now();
    while rows(&run.join("shard-2")).len() < 3 && started.elapsed() < Duration::from_secs(120) {
        std::thread::sleep(Duration::from_millis(5));
    }
    second.kill().expect("SIGKILL shard 2");
    second.wait().unwrap();
    let resumed = spsa(&["--resume", &run.join("shard-2").display().to_string()]);
    assert_eq!(resumed.status.code(), Some(0), "{}", text(&resumed));
    let first = first.wait_with_output().unwrap();
    assert_eq!(first.status.code(), Some(0), "{}", text(&first));
    let want = std::fs::read_to_string(d.join("one").join("spsa.csv")).unwrap();
    for i in 1..=2 {
        let got = std::fs::read_to_string(run.join(format!("shard-{i}")).join("spsa.csv")).unwrap();
        assert_eq!(got, want, "shard {i}'s trajectory differs from the one-process run's");
        assert_eq!(games(&run.join(format!("shard-{i}"))).len(), 1 + 5 * 4, "half of every iteration's games");
    }
    // `arbiter status` reads the run's trajectory from its shards.
    let status = Command::new(ARBITER).arg("status").arg(&run).output().unwrap();
    assert_eq!(status.status.code(), Some(0), "{}", text(&status));
    let shown = String::from_utf8_lossy(&status.stdout);
    assert!(shown.contains("shard-2") && shown.contains("values      after iteration 5: material[1] "), "{shown}");
}
