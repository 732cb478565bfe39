//! `arbiter match` end to end: the real binary plays short matches with the built-in engine on the shared
//! opening books; the CSV is read back and the PGN replayed by python-chess (`../shared/tools/check_pgn.py`).
//!
//! Needs python-chess: `pip install chess`.

use arbiter::engine::chess::EngineConfig;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const UHO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/suites/openings/UHO_4060_v4.part1of5.epd");
const TWO_MOVES_PGN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/suites/openings/2moves_v2.pgn");
const CHECK_PGN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/tools/check_pgn.py");

/// A fresh, empty folder for one test under `target/tmp`.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("match-tests").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create the scratch folder");
    dir
}

fn arbiter(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arbiter")).arg("match").args(args).output().expect("run the arbiter binary")
}

/// Runs a match in the folder `dir` (for the default `results/` folder) that must fail with exit code 2;
/// returns its stderr.
fn arbiter_bad_input_in(dir: &Path, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .arg("match")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run the arbiter binary");
    assert_eq!(out.status.code(), Some(2), "arbiter match {args:?}: expected exit 2\nstderr:\n{}", text(&out.stderr));
    text(&out.stderr)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs a match that must succeed; returns its stdout.
fn arbiter_ok(args: &[&str]) -> String {
    let out = arbiter(args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "arbiter match {args:?} failed\nstdout:\n{}\nstderr:\n{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    text(&out.stdout)
}

/// Runs a match that must fail with exit code 2; returns its stderr.
fn arbiter_bad_input(args: &[&str]) -> String {
    let out = arbiter(args);
    assert_eq!(out.status.code(), Some(2), "arbiter match {args:?}: expected exit 2\nstderr:\n{}", text(&out.stderr));
    text(&out.stderr)
}

/// One `games.csv` row.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Row {
    pair: u64,
    game: u64,
    opening: usize,
    white: String,
    black: String,
    result: String,
    termination: String,
    plies: usize,
    start_fen: String,
}

fn read_csv(dir: &Path) -> Vec<Row> {
    let mut reader = csv::Reader::from_path(dir.join("games.csv")).expect("games.csv exists");
    let header: Vec<String> = reader.headers().unwrap().iter().map(str::to_string).collect();
    assert_eq!(header, ["pair", "game", "opening", "white", "black", "result", "termination", "plies", "start_fen"]);
    let mut rows: Vec<Row> = reader
        .records()
        .map(|r| {
            let r = r.expect("a CSV record");
            Row {
                pair: r[0].parse().unwrap(),
                game: r[1].parse().unwrap(),
                opening: r[2].parse().unwrap(),
                white: r[3].to_string(),
                black: r[4].to_string(),
                result: r[5].to_string(),
                termination: r[6].to_string(),
                plies: r[7].parse().unwrap(),
                start_fen: r[8].to_string(),
            }
        })
        .collect();
    rows.sort();
    rows
}

/// Checks what every complete match's CSV must satisfy: games numbered 0.. in pairs, both games of a pair on
/// the same opening with colours swapped, and results that agree with their terminations.
fn check_rows(rows: &[Row], games: usize) {
    assert_eq!(rows.len(), games, "{rows:#?}");
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row.game, i as u64);
        assert_eq!(row.pair, i as u64 / 2);
        let decisive = matches!(row.result.as_str(), "1-0" | "0-1");
        match row.termination.as_str() {
            "checkmate" | "adjudication: resign" | "illegal move" | "engine failure" => assert!(decisive, "{row:?}"),
            "stalemate"
            | "threefold repetition"
            | "fifty-move rule"
            | "insufficient material"
            | "adjudication: draw"
            | "max moves" => assert_eq!(row.result, "1/2-1/2", "{row:?}"),
            other => panic!("unknown termination {other:?}"),
        }
        assert!(row.plies > 0, "{row:?}");
    }
    for pair in rows.chunks(2) {
        if let [a, b] = pair {
            assert_eq!((a.opening, &a.start_fen), (b.opening, &b.start_fen));
            assert_eq!((&a.white, &a.black), (&b.black, &b.white));
        }
    }
}

/// Replays the PGN with python-chess; fails (never skips) when python-chess is missing.
fn check_pgn(dir: &Path, games: usize) {
    let probe = Command::new("python3").args(["-c", "import chess"]).output();
    let ok = probe.as_ref().is_ok_and(|o| o.status.success());
    assert!(
        ok,
        "python-chess is not installed: run the test command of README.md (`pip install chess`, then `cargo test`); \
         probe said: {:?}",
        probe.map(|o| text(&o.stderr))
    );
    let pgn = dir.join("games.pgn");
    let out = Command::new("python3")
        .arg(CHECK_PGN)
        .arg(&pgn)
        .args(["--expect-games", &games.to_string()])
        .output()
        .expect("run check_pgn.py");
    assert!(out.status.success(), "check_pgn.py {}:\n{}{}", pgn.display(), text(&out.stdout), text(&out.stderr));
}

/// `a` then `b`.
fn joined<'a>(a: &[&'a str], b: &[&'a str]) -> Vec<&'a str> {
    [a, b].concat()
}

fn path_str(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

#[test]
fn short_match_writes_csv_pgn_and_summary() {
    let dir = scratch("short");
    let stdout = arbiter_ok(&[
        "--openings",
        UHO,
        "--engine",
        "name=seed",
        "--engine",
        "name=nomob",
        "--games",
        "8",
        "--nodes",
        "500",
        "--concurrency",
        "2",
        "--out",
        path_str(&dir),
    ]);
    let rows = read_csv(&dir);
    check_rows(&rows, 8);
    check_pgn(&dir, 8);
    let summary = std::fs::read_to_string(dir.join("summary.txt")).unwrap();
    assert_eq!(stdout.split("\nResults:").next().unwrap(), summary);
    assert!(summary.contains("seed vs nomob"), "{summary}");
    assert!(summary.contains("Games: 8 (8 planned)"), "{summary}");
    assert!(summary.contains("pentanomial LL"), "{summary}");
    let csv = std::fs::read_to_string(dir.join("summary.csv")).unwrap();
    assert_eq!(csv.lines().count(), 2, "{csv}");
    assert!(csv.lines().nth(1).unwrap().starts_with("seed,nomob,8,"), "{csv}");
    // The score column is the plain score, points per game, as in summary.txt.
    let mut reader = csv::Reader::from_path(dir.join("summary.csv")).unwrap();
    let header = reader.headers().unwrap().clone();
    let row = reader.records().next().unwrap().unwrap();
    let column = |name: &str| row[header.iter().position(|h| h == name).unwrap()].to_string();
    let (wins, draws, games): (f64, f64, f64) =
        (column("wins").parse().unwrap(), column("draws").parse().unwrap(), column("games").parse().unwrap());
    assert_eq!(column("score"), format!("{:.4}", (wins + draws / 2.0) / games));
    assert!(summary.contains(&format!("score {:.1}%", 100.0 * (wins + draws / 2.0) / games)), "{summary}");

    // The folder holds a run now: a second run into it is refused and changes nothing.
    let before = std::fs::read_to_string(dir.join("games.csv")).unwrap();
    let err = arbiter_bad_input(&["--openings", UHO, "--games", "2", "--nodes", "100", "--out", path_str(&dir)]);
    assert!(err.contains("already exists"), "{err}");
    assert_eq!(std::fs::read_to_string(dir.join("games.csv")).unwrap(), before);
}

#[test]
fn same_seed_and_nodes_replay_the_same_games() {
    let run = |name: &str, concurrency: &str| {
        let dir = scratch(name);
        arbiter_ok(&[
            "--openings",
            UHO,
            "--order",
            "random",
            "--seed",
            "7",
            "--games",
            "6",
            "--nodes",
            "400",
            "--concurrency",
            concurrency,
            "--out",
            path_str(&dir),
        ]);
        read_csv(&dir)
    };
    let a = run("replay-a", "2");
    let b = run("replay-b", "3");
    check_rows(&a, 6);
    assert_eq!(a, b, "same seed and node limit, different concurrency: the games must be the same");
    let sequential = {
        let dir = scratch("replay-sequential");
        arbiter_ok(&[
            "--openings",
            UHO,
            "--order",
            "sequential",
            "--games",
            "2",
            "--nodes",
            "100",
            "--concurrency",
            "1",
            "--out",
            path_str(&dir),
        ]);
        read_csv(&dir)
    };
    assert_eq!(sequential[0].opening, 0);
    assert!(a.iter().any(|r| r.opening != 0), "a random order starts elsewhere than the first opening");
}

#[test]
fn pgn_openings_play_their_book_moves() {
    let dir = scratch("pgn-book");
    arbiter_ok(&[
        "--openings",
        TWO_MOVES_PGN,
        "--plies",
        "4",
        "--order",
        "sequential",
        "--games",
        "4",
        "--nodes",
        "300",
        "--concurrency",
        "2",
        "--maxmoves",
        "30",
        "--out",
        path_str(&dir),
    ]);
    let rows = read_csv(&dir);
    check_rows(&rows, 4);
    assert!(rows.iter().all(|r| r.plies >= 4 && r.plies <= 60), "{rows:#?}");
    check_pgn(&dir, 4);
    let pgn = std::fs::read_to_string(dir.join("games.pgn")).unwrap();
    assert_eq!(pgn.matches("{book}").count(), 16, "four book plies per game");
}

#[test]
fn round_robin_of_three_builds() {
    let dir = scratch("round-robin");
    let config = dir.join("bishops.toml");
    let mut build = EngineConfig::seed();
    build.name = "bishops".into();
    build.weights.bishop_pair = 150;
    std::fs::write(&config, build.to_toml()).unwrap();
    let engine = format!("config={}", config.display());
    let out = dir.join("run");
    arbiter_ok(&[
        "--openings",
        UHO,
        "--engine",
        "name=seed",
        "--engine",
        "name=nomob",
        "--engine",
        &engine,
        "--rounds",
        "1",
        "--nodes",
        "200",
        "--concurrency",
        "2",
        "--draw",
        "movenumber=20,movecount=6,score=15",
        "--resign",
        "movecount=3,score=700",
        "--out",
        path_str(&out),
    ]);
    let rows = read_csv(&out);
    check_rows(&rows, 6);
    let pairings: Vec<(&str, &str)> = rows.iter().step_by(2).map(|r| (r.white.as_str(), r.black.as_str())).collect();
    assert_eq!(pairings, [("seed", "nomob"), ("seed", "bishops"), ("nomob", "bishops")]);
    check_pgn(&out, 6);
    let summary = std::fs::read_to_string(out.join("summary.txt")).unwrap();
    for line in ["seed vs nomob", "seed vs bishops", "nomob vs bishops"] {
        assert!(summary.contains(line), "{summary}");
    }
    let err = arbiter_bad_input(&[
        "--openings",
        UHO,
        "--engine",
        "name=seed",
        "--engine",
        "name=nomob",
        "--engine",
        &engine,
        "--sprt",
        "elo0=0,elo1=5",
        "--out",
        path_str(&dir.join("sprt")),
    ]);
    assert!(err.contains("--sprt needs exactly two engines"), "{err}");
}

#[test]
fn sprt_stops_when_it_decides() {
    let dir = scratch("sprt");
    // A build that values rooks and queens like pawns loses nearly every pair: H1 (the seed is 50 nElo better)
    // is accepted after a few dozen pairs, H0 when the weak build comes first.
    let config = dir.join("cheapqueen.toml");
    let mut build = EngineConfig::seed();
    build.name = "cheapqueen".into();
    build.weights.material[4] = 100;
    build.weights.material[3] = 100;
    std::fs::write(&config, build.to_toml()).unwrap();
    let weak = format!("config={}", config.display());
    let out = dir.join("run");
    let stdout = arbiter_ok(&[
        "--openings",
        UHO,
        "--engine",
        "name=seed",
        "--engine",
        &weak,
        "--sprt",
        "elo0=0,elo1=50",
        "--nodes",
        "300",
        "--concurrency",
        "2",
        "--resign",
        "movecount=2,score=600",
        "--out",
        path_str(&out),
    ]);
    assert!(stdout.contains("decision    H1 accepted"), "{stdout}");
    let rows = read_csv(&out);
    assert!(rows.len() < 100, "the SPRT should decide within a few dozen pairs, played {}", rows.len());
    check_rows(&rows, rows.len());
    assert_eq!(rows.len() % 2, 0, "pairs in play finish");
    assert!(stdout.contains(&format!("Games: {} (until the SPRT decides", rows.len())), "{stdout}");
    check_pgn(&out, rows.len());

    let out = dir.join("reversed");
    let stdout = arbiter_ok(&[
        "--openings",
        UHO,
        "--engine",
        &weak,
        "--engine",
        "name=seed",
        "--sprt",
        "elo0=0,elo1=50",
        "--nodes",
        "300",
        "--concurrency",
        "2",
        "--resign",
        "movecount=2,score=600",
        "--out",
        path_str(&out),
    ]);
    assert!(stdout.contains("decision    H0 accepted"), "{stdout}");
}

#[test]
fn bad_input_exits_2_and_names_the_problem() {
    let dir = scratch("bad-input");
    let out = dir.join("run");
    let out = path_str(&out);
    let err = arbiter_bad_input(&[
        "--openings",
        UHO,
        "--engine",
        "name=seed,hash=16",
        "--engine",
        "name=nomob",
        "--out",
        out,
    ]);
    assert!(err.contains("--engine: unknown key `hash`"), "{err}");
    let err = arbiter_bad_input(&[
        "--openings",
        UHO,
        "--engine",
        "name=seed",
        "--engine",
        "name=x,config=no/such.toml",
        "--out",
        out,
    ]);
    assert!(err.contains("no/such.toml"), "{err}");
    let err =
        arbiter_bad_input(&["--openings", UHO, "--engine", "name=seed", "--engine", "name=mystery", "--out", out]);
    assert!(err.contains("`mystery` has no config="), "{err}");
    let bad_config = dir.join("bad.toml");
    std::fs::write(&bad_config, EngineConfig::seed().to_toml().replace("mobility", "mobilty")).unwrap();
    let engine = format!("name=x,config={}", bad_config.display());
    let err = arbiter_bad_input(&["--openings", UHO, "--engine", "name=seed", "--engine", &engine, "--out", out]);
    assert!(err.contains("bad.toml") && err.contains("mobilty"), "{err}");

    let book = dir.join("book.epd");
    std::fs::write(&book, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\nrnbqkbnr/pppppppp/8/8 w\n").unwrap();
    let err = arbiter_bad_input(&["--openings", path_str(&book), "--out", out]);
    assert!(err.contains("book.epd:2"), "{err}");
    let err = arbiter_bad_input(&["--openings", path_str(&dir.join("missing.epd")), "--out", out]);
    assert!(err.contains("missing.epd"), "{err}");
    let err = arbiter_bad_input(&["--openings", UHO, "--draw", "movenumber=3", "--out", out]);
    assert!(err.contains("--draw: missing key `movecount`"), "{err}");
    let err = arbiter_bad_input(&["--openings", UHO, "--sprt", "elo0=0,elo1=5,alpha=2", "--out", out]);
    assert!(err.contains("--sprt: alpha="), "{err}");
    let err = arbiter_bad_input(&["--openings", UHO, "--games", "4", "--rounds", "2", "--out", out]);
    assert!(err.contains("--rounds"), "{err}");
    assert!(!Path::new(out).join("games.csv").exists(), "bad input writes no results");
}

#[test]
fn an_interrupt_keeps_the_games_and_writes_a_summary() {
    let dir = scratch("interrupt");
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["match", "--openings", UHO, "--games", "1000", "--nodes", "2000", "--concurrency", "2", "--out"])
        .arg(&dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("start the arbiter binary");
    let rows = || std::fs::read_to_string(dir.join("games.csv")).map_or(0, |t| t.lines().count().saturating_sub(1));
    let started = std::time::Instant::now();
    while rows() < 4 {
        assert!(child.try_wait().unwrap().is_none(), "the match ended before it was interrupted");
        assert!(started.elapsed().as_secs() < 120, "no games after two minutes");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let pid = child.id().to_string();
    let kill = Command::new("kill").args(["-INT", &pid]).status().expect("run kill");
    assert!(kill.success());
    let out = child.wait_with_output().expect("wait for the arbiter binary");
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(130), "stdout:\n{stdout}\nstderr:\n{stderr}");
    assert!(stderr.contains("interrupted"), "{stderr}");
    let summary = std::fs::read_to_string(dir.join("summary.txt")).expect("an interrupted run has a summary");
    assert!(summary.contains("Interrupted: the run was stopped after"), "{summary}");
    assert!(dir.join("summary.csv").exists());
    let games = read_csv(&dir).len();
    assert!((4..1000).contains(&games), "{games} games");
    assert!(summary.contains(&format!("Games: {games} (1000 planned)")), "{summary}");
    check_pgn(&dir, games);
}

#[test]
fn output_folders_that_cannot_take_a_run_are_bad_input() {
    let dir = scratch("bad-output");
    let base = ["--openings", UHO, "--games", "2", "--nodes", "100"];

    // A folder holding only an earlier run's summary.
    for name in ["summary.txt", "summary.csv", "summary.json"] {
        let out = dir.join(name.replace('.', "-"));
        std::fs::create_dir_all(&out).unwrap();
        std::fs::write(out.join(name), "earlier run").unwrap();
        let err = arbiter_bad_input(&joined(&base, &["--out", path_str(&out)]));
        assert!(err.contains(name) && err.contains("already exists"), "{err}");
        assert!(!out.join("games.csv").exists());
    }

    // A plain file where a folder is needed: named as a file, not as an earlier run.
    let file = dir.join("plain");
    std::fs::write(&file, "").unwrap();
    for out in [file.clone(), file.join("sub")] {
        let err = arbiter_bad_input(&joined(&base, &["--out", path_str(&out)]));
        assert!(err.contains(&format!("{}: is a file, not a folder", file.display())), "{err}");
        assert!(!err.contains("already exists"), "{err}");
    }
    let cwd = dir.join("cwd");
    std::fs::create_dir_all(&cwd).unwrap();
    std::fs::write(cwd.join("results"), "").unwrap();
    let err = arbiter_bad_input_in(&cwd, &base);
    assert!(err.contains("results: is a file, not a folder"), "{err}");

    // A folder name the system refuses.
    let long = dir.join("x".repeat(300));
    let err = arbiter_bad_input(&joined(&base, &["--out", path_str(&long)]));
    assert!(err.contains("cannot create the folder"), "{err}");
    assert_eq!(err.matches("too long").count(), 1, "{err}");

    // Run names that make bad folders or PGN tags.
    let long_name = "n".repeat(101);
    for name in [long_name.as_str(), "tab\there", "line\nbreak"] {
        let err = arbiter_bad_input_in(&cwd, &joined(&base, &["--name", name]));
        assert!(err.contains("--name"), "{err}");
    }
}

#[test]
fn limits_on_concurrency_hash_and_sprt() {
    let dir = scratch("limits");
    let base = ["--openings", UHO, "--games", "2", "--nodes", "100"];
    let err = arbiter_bad_input_in(&dir, &joined(&base, &["--concurrency", "1025"]));
    assert!(err.contains("--concurrency 1025: at most 1024"), "{err}");

    let config = dir.join("big.toml");
    let mut build = EngineConfig::seed();
    build.name = "big".into();
    build.hash_mb = 4097;
    std::fs::write(&config, build.to_toml()).unwrap();
    let engine = format!("config={}", config.display());
    let err = arbiter_bad_input_in(&dir, &joined(&base, &["--engine", "name=seed", "--engine", &engine]));
    assert!(err.contains("big.toml: key `search.hash_mb` = 4097 is out of range, expected 1 to 4096 (MiB)"), "{err}");

    // 1024 workers x 4 GiB: more than half of any test machine's memory; refused before anything is allocated
    // or created.
    build.hash_mb = 4096;
    std::fs::write(&config, build.to_toml()).unwrap();
    let err = arbiter_bad_input_in(
        &dir,
        &["--openings", UHO, "--engine", "name=seed", "--engine", &engine, "--games", "2048", "--concurrency", "1024"],
    );
    assert!(err.contains("1024 workers x (seed 16 MiB (built-in) + big 4096 MiB"), "{err}");
    assert!(err.contains("lower search.hash_mb in") && err.contains("big.toml or --concurrency"), "{err}");
    assert!(!dir.join("results").exists(), "a refused match leaves no results folder");

    for (sprt, key) in
        [("elo0=5,elo1=0", "elo1"), ("elo0=0,elo1=5,alpha=0.5,beta=0.5", "beta"), ("elo0=0,elo1=1e6", "elo1")]
    {
        let err = arbiter_bad_input_in(&dir, &["--openings", UHO, "--sprt", sprt]);
        assert!(err.contains(&format!("--sprt: {key}=")), "{sprt}: {err}");
    }
    assert!(!dir.join("results").exists());
}

#[test]
fn config_and_opening_errors_print_once() {
    let dir = scratch("errors-once");
    let out = dir.join("run");
    let out = path_str(&out);
    let missing = dir.join("missing.toml");
    let engine = format!("config={}", missing.display());
    let err = arbiter_bad_input(&["--openings", UHO, "--engine", "name=seed", "--engine", &engine, "--out", out]);
    assert_eq!(err.matches("missing.toml").count(), 1, "{err}");
    assert_eq!(err.matches("No such file").count(), 1, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let err = arbiter_bad_input(&["--openings", path_str(&dir.join("none.epd")), "--out", out]);
    assert_eq!(err.matches("No such file").count(), 1, "{err}");

    for (file, name) in [("empty.toml", ""), ("newline.toml", "a\nb")] {
        let config = dir.join(file);
        let mut build = EngineConfig::seed();
        build.name = name.into();
        std::fs::write(&config, build.to_toml()).unwrap();
        let engine = format!("config={}", config.display());
        let err = arbiter_bad_input(&["--openings", UHO, "--engine", "name=seed", "--engine", &engine, "--out", out]);
        assert!(err.contains(&format!("--engine: {}: key `name`: ", config.display())), "{err}");
    }

    let err = arbiter_bad_input(&["--openings", TWO_MOVES_PGN, "--plies", "0", "--out", out]);
    assert!(err.contains("--plies must be at least 1"), "{err}");
    let untagged = dir.join("untagged.pgn");
    std::fs::write(&untagged, "1. e4 e5 *\n\n1. f3 e5 2. g4 Qh4# 0-1\n").unwrap();
    let err = arbiter_bad_input(&["--openings", path_str(&untagged), "--out", out]);
    assert!(err.contains("untagged.pgn") && err.contains("checkmate"), "{err}");
    assert!(!err.contains(":0:"), "{err}");
    assert!(!Path::new(out).exists(), "bad input creates no run folder");
}

/// The number after `label` in `text` (the first occurrence), such as the Elo of `Elo: 12.34 +/- ...`.
fn number_after(text: &str, label: &str) -> f64 {
    let at = text.find(label).unwrap_or_else(|| panic!("no {label:?} in:\n{text}")) + label.len();
    let number: String =
        text[at..].trim_start().chars().take_while(|c| c.is_ascii_digit() || matches!(c, '-' | '+' | '.')).collect();
    number.parse().unwrap_or_else(|_| panic!("no number after {label:?} in:\n{text}"))
}

#[test]
fn gauntlet_of_three_without_colour_swap_prints_reports() {
    let dir = scratch("gauntlet");
    let config = dir.join("bishops.toml");
    let mut build = EngineConfig::seed();
    build.name = "bishops".into();
    build.weights.bishop_pair = 150;
    std::fs::write(&config, build.to_toml()).unwrap();
    let engine = format!("config={}", config.display());
    let out = dir.join("run");
    let stdout = arbiter_ok(&[
        "--openings",
        UHO,
        "--engine",
        "name=seed",
        "--engine",
        "name=nomob",
        "--engine",
        &engine,
        "--tournament",
        "gauntlet",
        "--noswap",
        "--rounds",
        "1",
        "--nodes",
        "300",
        "--concurrency",
        "2",
        "--ratinginterval",
        "2",
        "--out",
        path_str(&out),
    ]);
    let rows = read_csv(&out);
    assert_eq!(rows.len(), 4, "{rows:#?}");
    let games: Vec<(u64, &str, &str)> = rows.iter().map(|r| (r.pair, r.white.as_str(), r.black.as_str())).collect();
    // The first engine plays each other once (one pair each), with White in both games of its pairs.
    assert_eq!(games, [(0, "seed", "nomob"), (0, "seed", "nomob"), (1, "seed", "bishops"), (1, "seed", "bishops")]);
    check_pgn(&out, 4);

    // Reports after games 2 and 4 (both pairings each time), then once more in the summary.
    assert_eq!(stdout.matches("Score of seed vs nomob: ").count(), 3, "{stdout}");
    assert_eq!(stdout.matches("Score of seed vs bishops: ").count(), 3, "{stdout}");
    assert!(!stdout.contains("nomob vs bishops"), "{stdout}");
    assert_eq!(
        stdout.matches("Results of seed vs nomob (300 nodes, 1t, 16MB, UHO_4060_v4.part1of5.epd):\n").count(),
        3
    );
    let summary = std::fs::read_to_string(out.join("summary.txt")).unwrap();
    assert!(summary.contains("  tournament gauntlet, no colour swap\n"), "{summary}");
    // The final report is the summary's: its counts are the CSV's and its Elo the summary's own.
    let block = &summary[summary.find("Score of seed vs nomob: ").unwrap()..];
    let first_pair = &rows[..2];
    let wins = first_pair.iter().filter(|r| r.result == "1-0").count();
    let losses = first_pair.iter().filter(|r| r.result == "0-1").count();
    let draws = 2 - wins - losses;
    let score = (wins as f64 + draws as f64 / 2.0) / 2.0;
    assert!(
        block.starts_with(&format!("Score of seed vs nomob: {wins} - {losses} - {draws}  [{score:.3}] 2\n")),
        "{block}"
    );
    assert!(block.contains(&format!("...      seed playing White: {wins} - {losses} - {draws}  [{score:.3}] 2\n")));
    assert!(!block[..block.find("Elo difference").unwrap()].contains("playing Black"), "{block}");
    let fast = &block[block.find("Results of seed vs nomob").unwrap()..];
    assert!(fast.contains(&format!("Games: 2, Wins: {wins}, Losses: {losses}, Draws: {draws}, ")), "{fast}");
    let pairing = &summary[summary.find("\nseed vs nomob\n").unwrap()..];
    let (ours, theirs) = (number_after(pairing, "Elo"), number_after(fast, "Elo:"));
    assert!((ours - theirs).abs() <= 0.05 + 1e-9, "summary Elo {ours} vs report Elo {theirs}");
    assert!(stdout.ends_with(&format!("\nResults: {}\n", out.display())), "{stdout}");
}

#[test]
fn chess960_games_from_a_pgn_book() {
    let dir = scratch("chess960");
    // A Chess960 start (knight, rook, bishop, king, queen, bishop, rook, knight) with X-FEN castling letters
    // and no Variant tag: --variant chess960 reads it as Chess960. The books castle on both wings.
    let book = dir.join("960.pgn");
    let fen = "nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN w KQkq - 0 1";
    std::fs::write(
        &book,
        format!(
            "[FEN \"{fen}\"]\n\n1. e4 e5 2. g3 g6 3. Bg2 Bg7 4. Qe2 Qe7 5. O-O O-O *\n\n\
             [FEN \"{fen}\"]\n\n1. d4 d5 2. b3 b6 3. Bb2 Bb7 4. O-O-O O-O-O *\n"
        ),
    )
    .unwrap();
    let out = dir.join("run");
    let stdout = arbiter_ok(&[
        "--openings",
        &format!("file={},format=pgn,order=sequential", book.display()),
        "--variant",
        "chess960",
        "--games",
        "4",
        "--nodes",
        "300",
        "--concurrency",
        "2",
        "--maxmoves",
        "40",
        "--out",
        path_str(&out),
    ]);
    let rows = read_csv(&out);
    check_rows(&rows, 4);
    assert!(
        rows.iter().all(|r| r.start_fen == "nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN w GBgb - 0 1"),
        "{rows:#?}"
    );
    assert_eq!(rows.iter().map(|r| r.opening).collect::<Vec<_>>(), [0, 0, 1, 1]);
    // python-chess replays every game as Chess960 from the Variant tag, castling included.
    check_pgn(&out, 4);
    let pgn = std::fs::read_to_string(out.join("games.pgn")).unwrap();
    assert_eq!(pgn.matches("[Variant \"chess960\"]\n").count(), 4, "{pgn}");
    let words = pgn.split_whitespace().collect::<Vec<_>>().join(" ");
    assert_eq!(words.matches("5. O-O {book} O-O {book} 6.").count(), 2, "{pgn}");
    assert_eq!(words.matches("4. O-O-O {book} O-O-O {book} 5.").count(), 2, "{pgn}");
    assert!(stdout.contains("  variant    chess960\n"), "{stdout}");
}
