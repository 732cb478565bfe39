//! `arbiter datagen` as a user runs it: any engine through `--engine` (the built-in build, `arbiter uci` as an
//! external process, Stockfish), two engines, the limit check, and resuming a run killed with SIGKILL, whose
//! files must end byte for byte as an uninterrupted run's.
//!
//! Needs `stockfish` in /usr/games (the README's test command installs it).

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const ARBITER: &str = env!("CARGO_BIN_EXE_arbiter");

/// The formats the resume test checks; each is run, killed, resumed and compared with an uninterrupted run.
const RESUME_FORMATS: &[&str] = &["epd", "text", "bulletformat", "viriformat"];

fn dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("datagen-tests").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create the test folder");
    dir
}

fn stockfish() -> String {
    let path = "/usr/games/stockfish";
    assert!(Path::new(path).exists(), "{path} is missing: install it with `apt-get install stockfish`");
    path.to_string()
}

/// `arbiter uci` as an external engine spec.
fn arbiter_uci() -> String {
    format!("name=arbiter-uci,cmd={ARBITER},args=uci")
}

fn datagen(args: &[&str]) -> Output {
    Command::new(ARBITER).arg("datagen").args(args).output().expect("run arbiter datagen")
}

fn text(out: &Output) -> String {
    format!("stdout:\n{}\nstderr:\n{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

/// The files a run writes into `out`, as bytes, by suffix (the resume record apart, which holds totals only).
fn files(out: &Path) -> Vec<(String, Vec<u8>)> {
    ["", ".meta.tsv", ".keys"]
        .iter()
        .filter_map(|suffix| {
            let path = PathBuf::from(format!("{}{suffix}", out.display()));
            std::fs::read(&path).ok().map(|bytes| (suffix.to_string(), bytes))
        })
        .collect()
}

/// The games written according to the resume record, read as text.
fn games_recorded(out: &Path) -> u64 {
    let Ok(text) = std::fs::read_to_string(format!("{}.progress", out.display())) else { return 0 };
    let games = text.split("\"games\":").nth(1).unwrap_or("");
    games.trim_start().split(',').next().unwrap_or("").trim().parse().unwrap_or(0)
}

/// Runs `args` into `out` uninterrupted, then again into `killed` killed with SIGKILL once at least one game is
/// recorded, resumes it, and checks that every file equals the uninterrupted run's.
fn kill_and_resume(base: &[&str], out: &Path, killed: &Path) {
    let run = |path: &Path, extra: &[&str]| {
        let mut args = base.to_vec();
        let path = path.display().to_string();
        args.extend(["--out", &path]);
        args.extend(extra);
        datagen(&args)
    };
    let reference = run(out, &[]);
    assert_eq!(reference.status.code(), Some(0), "{}", text(&reference));
    let mut args = base.to_vec();
    let killed_text = killed.display().to_string();
    args.extend(["--out", &killed_text]);
    let mut child = Command::new(ARBITER)
        .arg("datagen")
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start arbiter datagen");
    let started = Instant::now();
    while games_recorded(killed) < 1 && started.elapsed() < Duration::from_secs(120) {
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().expect("SIGKILL the run");
    child.wait().expect("reap the run");
    let at_kill = games_recorded(killed);
    assert!(at_kill >= 1, "no game was recorded before the kill");
    let resumed = run(killed, &["--resume"]);
    assert_eq!(resumed.status.code(), Some(0), "{}", text(&resumed));
    assert!(String::from_utf8_lossy(&resumed.stderr).contains(&format!("resuming after game {at_kill}")));
    let (want, got) = (files(out), files(killed));
    assert_eq!(want.len(), got.len());
    for ((suffix, a), (_, b)) in want.iter().zip(&got) {
        assert!(a == b, "{suffix}: the resumed run differs from the uninterrupted one (killed after game {at_kill})");
    }
}

#[test]
fn a_killed_builtin_run_resumes_to_the_same_files() {
    for format in RESUME_FORMATS {
        let d = dir(&format!("resume-builtin-{format}"));
        let base = ["--games", "6", "--nodes", "300", "--concurrency", "2", "--format", format];
        kill_and_resume(&base, &d.join("ref.data"), &d.join("killed.data"));
    }
}

#[test]
fn a_killed_external_run_resumes_to_the_same_files() {
    let engine = arbiter_uci();
    for format in RESUME_FORMATS {
        let d = dir(&format!("resume-uci-{format}"));
        let base = ["--engine", &engine, "--games", "4", "--nodes", "300", "--concurrency", "2", "--format", format];
        kill_and_resume(&base, &d.join("ref.data"), &d.join("killed.data"));
    }
}

#[test]
fn resume_refuses_other_settings_and_a_missing_record() {
    let d = dir("resume-settings");
    let out = d.join("dg.epd").display().to_string();
    let first = datagen(&["--games", "1", "--nodes", "200", "--out", &out]);
    assert_eq!(first.status.code(), Some(0), "{}", text(&first));
    let other = datagen(&["--games", "2", "--nodes", "200", "--seed", "7", "--out", &out, "--resume"]);
    assert_eq!(other.status.code(), Some(2), "{}", text(&other));
    assert!(
        text(&other).contains("--resume: seed differs from the run being resumed (was: 1; now: 7)"),
        "{}",
        text(&other)
    );
    assert!(text(&first).contains("select quiet, format epd, into"), "{}", text(&first));
    let nodes = datagen(&["--games", "2", "--nodes", "300", "--out", &out, "--resume"]);
    assert_eq!(nodes.status.code(), Some(2), "{}", text(&nodes));
    assert!(
        text(&nodes).contains("--resume: engine 1 limit differs from the run being resumed (was: "),
        "{}",
        text(&nodes)
    );
    let max = datagen(&["--games", "2", "--nodes", "200", "--max-score", "500", "--out", &out, "--resume"]);
    assert!(
        text(&max).contains("max-score differs from the run being resumed (was: (none); now: 500)"),
        "{}",
        text(&max)
    );
    let again = datagen(&["--games", "1", "--nodes", "200", "--out", &out]);
    assert_eq!(again.status.code(), Some(2), "{}", text(&again));
    assert!(text(&again).contains("pass --force to replace it or --resume to continue the run"));
    let missing = d.join("none.epd").display().to_string();
    let none = datagen(&["--games", "1", "--nodes", "200", "--out", &missing, "--resume"]);
    assert_eq!(none.status.code(), Some(2), "{}", text(&none));
    assert!(text(&none).contains("there is no run to continue"), "{}", text(&none));
}

/// Replaces `"name": N` in the resume record of `out` with `"name": value`.
fn edit_progress(out: &str, name: &str, value: &str) {
    let path = format!("{out}.progress");
    let record = std::fs::read_to_string(&path).expect("read the record");
    let key = format!("\"{name}\": ");
    let at = record.find(&key).expect("the field") + key.len();
    let end = at + record[at..].find([',', '\n']).expect("the value's end");
    std::fs::write(&path, format!("{}{value}{}", &record[..at], &record[end..])).expect("write the record");
}

#[test]
fn resume_refuses_a_damaged_record_without_a_panic() {
    let d = dir("resume-damaged");
    let out = d.join("dg.epd").display().to_string();
    let first = datagen(&["--games", "1", "--nodes", "200", "--out", &out]);
    assert_eq!(first.status.code(), Some(0), "{}", text(&first));
    let record = std::fs::read_to_string(format!("{out}.progress")).unwrap();
    let cases = [
        ("games", "18446744073709551615"),
        ("games", "3"),
        ("plies", "18446744073709551615"),
        ("book", "18446744073709551615"),
    ];
    for (name, value) in cases {
        std::fs::write(format!("{out}.progress"), &record).unwrap();
        edit_progress(&out, name, value);
        let resumed = datagen(&["--games", "2", "--nodes", "200", "--out", &out, "--resume"]);
        let code = if name == "plies" { 0 } else { 2 };
        assert_eq!(resumed.status.code(), Some(code), "{name} {value}: {}", text(&resumed));
        if code == 2 {
            let expected = format!("--resume: {out}.progress: not a datagen progress record");
            assert!(text(&resumed).contains(&expected), "{name} {value}: {}", text(&resumed));
        }
    }
    std::fs::write(format!("{out}.progress"), b"{\xff\xfe}").unwrap();
    let binary = datagen(&["--games", "2", "--nodes", "200", "--out", &out, "--resume"]);
    assert_eq!(binary.status.code(), Some(2), "{}", text(&binary));
    assert!(text(&binary).contains(&format!("{out}.progress: not a datagen progress record")), "{}", text(&binary));
    std::fs::write(format!("{out}.progress"), &record).unwrap();
    std::fs::remove_file(format!("{out}.keys")).unwrap();
    let no_keys = datagen(&["--games", "2", "--nodes", "200", "--out", &out, "--resume"]);
    assert_eq!(no_keys.status.code(), Some(2), "{}", text(&no_keys));
    assert!(text(&no_keys).contains(&format!("--resume: {out}.keys does not exist")), "{}", text(&no_keys));
}

#[test]
fn a_wrong_bench_signature_is_refused_before_any_game() {
    let d = dir("bench-signature");
    let out = d.join("dg.epd");
    let engine = format!("name=sf,cmd={},bench=1", stockfish());
    let run = datagen(&["--engine", &engine, "--nodes", "200", "--games", "1", "--out", &out.display().to_string()]);
    assert_eq!(run.status.code(), Some(2), "{}", text(&run));
    assert!(text(&run).contains("engine sf: wrong bench: expected 1 (bench=1), measured "), "{}", text(&run));
    assert!(!out.exists(), "no file is written before the check");
}

/// The `score_white` column of a `.meta.tsv`.
fn scores(meta: &Path) -> Vec<i32> {
    std::fs::read_to_string(meta)
        .expect("the .meta.tsv")
        .lines()
        .map(|l| l.split('\t').nth(1).expect("a score column").parse().expect("a score"))
        .collect()
}

#[test]
fn stockfish_self_play_writes_scored_positions_and_an_unlimited_engine_is_refused() {
    let sf = format!("name=sf,cmd={},option.Threads=1,option.Hash=16", stockfish());
    let d = dir("stockfish");
    let out = d.join("sf.epd");
    let out_text = out.display().to_string();
    let run = datagen(&["--engine", &sf, "--games", "2", "--nodes", "1000", "--concurrency", "2", "--out", &out_text]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run));
    let epd = std::fs::read_to_string(&out).expect("the EPD file");
    let scores = scores(&d.join("sf.epd.meta.tsv"));
    assert_eq!(epd.lines().count(), scores.len());
    assert!(scores.len() > 20, "{}", text(&run));
    // Scores are Stockfish's: centipawns, not all zero, never a mate (decided positions are skipped).
    assert!(scores.iter().any(|&s| s != 0) && scores.iter().all(|s| s.abs() < 31_000), "{scores:?}");
    assert!(epd.lines().all(|l| l.contains(" c9 \"") && l.contains("; id \"g")));
    // --max-score drops what lies outside the window.
    let narrow = d.join("narrow.epd").display().to_string();
    let run = datagen(&["--engine", &sf, "--games", "2", "--nodes", "1000", "--max-score", "30", "--out", &narrow]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run));
    assert!(scores_within(&d.join("narrow.epd.meta.tsv"), 30));
    // No limit for an external engine: exit 2 naming it and the flags.
    let refused = datagen(&["--engine", &sf, "--games", "1", "--out", &d.join("x.epd").display().to_string()]);
    assert_eq!(refused.status.code(), Some(2), "{}", text(&refused));
    let message = text(&refused);
    assert!(message.contains("sf (/usr/games/stockfish) has no move limit"), "{message}");
    assert!(message.contains("give --nodes N, --depth N, --movetime-ms MS or --tc TC"), "{message}");
    assert!(!d.join("x.epd").exists());
}

fn scores_within(meta: &Path, max: i32) -> bool {
    scores(meta).iter().all(|s| s.abs() <= max)
}

#[test]
fn two_engines_take_turns_with_white() {
    let sf = format!("name=sf,cmd={},option.Threads=1,option.Hash=16,nodes=800", stockfish());
    let ours = format!("{},nodes=300", arbiter_uci());
    let d = dir("two-engines");
    let out = d.join("two.epd");
    let run = datagen(&[
        "--engine",
        &sf,
        "--engine",
        &ours,
        "--games",
        "2",
        "--concurrency",
        "1",
        "--out",
        &out.display().to_string(),
    ]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("2 games of sf (nodes 800) against arbiter-uci (nodes 300)"), "{stderr}");
    let epd = std::fs::read_to_string(&out).expect("the EPD file");
    assert!(epd.contains("id \"g1p") && epd.contains("id \"g2p"), "{epd}");
}

#[test]
fn an_external_engine_plays_on_a_clock() {
    let d = dir("clock");
    let out = d.join("tc.epd").display().to_string();
    let engine = arbiter_uci();
    let run = datagen(&["--engine", &engine, "--tc", "2+0.05", "--games", "1", "--maxplies", "24", "--out", &out]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("arbiter-uci plays on time (tc 2+0.05): games are not reproducible"), "{stderr}");
    assert!(String::from_utf8_lossy(&run.stdout).contains("games: 1 "), "{}", text(&run));
}

/// The same run written in every format holds the same positions, scores and results, read back by each
/// format's own reader: the EPD lines with their `.meta.tsv` (Arbiter's), the text lines (split here as bullet's
/// parser splits them), bulletformat by the crate's `DataLoader`, viriformat by the crate's reader and its
/// filter set to drop only the score of the positions datagen did not keep.
#[test]
fn every_format_holds_the_same_positions() {
    use bulletformat::{BulletFormat, ChessBoard, DataLoader};
    use viriformat::dataformat::{Filter, Game};
    let d = dir("every-format");
    let run = |format: &str, file: &str| {
        let out = d.join(file);
        let args = ["--games", "3", "--nodes", "300", "--concurrency", "2", "--format", format];
        let done = datagen(&[&args[..], &["--out", &out.display().to_string()]].concat());
        assert_eq!(done.status.code(), Some(0), "{format}: {}", text(&done));
        out
    };
    // (first four FEN fields, score from White's view, result for White) of every position written, in order.
    let epd = std::fs::read_to_string(run("epd", "dg.epd")).expect("epd written");
    let meta = std::fs::read_to_string(d.join("dg.epd.meta.tsv")).expect("meta written");
    let expected: Vec<(String, i32, f32)> = epd
        .lines()
        .zip(meta.lines())
        .map(|(line, row)| {
            let fen = line.split_whitespace().take(4).collect::<Vec<_>>().join(" ");
            let cols: Vec<&str> = row.split('\t').collect();
            (fen, cols[1].parse().expect("score"), cols[0].parse().expect("result"))
        })
        .collect();
    assert!(expected.len() > 20, "a few dozen positions: {}", expected.len());
    let white_to_move = |fen: &str| fen.split_whitespace().nth(1) == Some("w");

    let text_out = std::fs::read_to_string(run("text", "dg.txt")).expect("text written");
    let from_text: Vec<(String, i32, f32)> = text_out
        .lines()
        .map(|line| {
            let parts: Vec<&str> = line.split(" | ").collect();
            assert_eq!(parts.len(), 3, "{line}");
            let fen = parts[0].split_whitespace().take(4).collect::<Vec<_>>().join(" ");
            (fen, parts[1].parse().expect("score"), parts[2].parse().expect("result"))
        })
        .collect();
    assert_eq!(from_text, expected, "text format");

    let mut boards = Vec::new();
    DataLoader::<ChessBoard>::new(run("bulletformat", "dg.bullet"), 1)
        .expect("bulletformat opens")
        .map_positions(|board| boards.push(*board));
    assert_eq!(boards.len(), expected.len(), "bulletformat records");
    for (board, (fen, score, result)) in boards.iter().zip(&expected) {
        // bulletformat stores the score and result from the side to move's view.
        let (score, result) = if white_to_move(fen) { (*score, *result) } else { (-score, 1.0 - result) };
        assert_eq!(i32::from(board.score()), score, "bulletformat score: {fen}");
        assert_eq!(board.result_idx(), (result * 2.0) as usize, "bulletformat result: {fen}");
    }

    let bytes = std::fs::read(run("viriformat", "dg.viri")).expect("viriformat written");
    let mut reader = bytes.as_slice();
    let filter = Filter { max_eval: 32767, ..Filter::UNRESTRICTED };
    let mut kept = Vec::new();
    for _ in 0..3 {
        let game = Game::deserialise_from(&mut reader, Vec::new()).expect("the crate reads a game");
        game.splat_to_bulletformat(
            |board| {
                kept.push(board);
                Ok(())
            },
            &filter,
        )
        .expect("splats");
    }
    assert!(reader.is_empty(), "three games and nothing after them");
    assert_eq!(kept.len(), expected.len(), "viriformat positions kept by its filter");
    for (board, (fen, score, _)) in kept.iter().zip(&expected) {
        let score = if white_to_move(fen) { *score } else { -score };
        assert_eq!(i32::from(board.score()), score, "viriformat score: {fen}");
    }
}
