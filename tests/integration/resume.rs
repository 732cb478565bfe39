//! `arbiter match --resume`, `--shard I/N` and `arbiter merge` end to end: the real binary is killed with SIGKILL
//! at seeded pseudo-random moments and resumed until it finishes, and four shards run as separate processes
//! are merged; both must give exactly the games of an uninterrupted single run at a fixed node limit.

use arbiter::chess::pgn::read_games;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::OnceLock;

const UHO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/suites/openings/UHO_4060_v4.part1of5.epd");

/// The match every test plays: 16 games of the built-in `seed` against `nomob` at 300 nodes per move.
const MATCH: [&str; 10] =
    ["--openings", UHO, "--engine", "name=seed", "--engine", "name=nomob", "--games", "16", "--nodes", "300"];

/// The games of `MATCH`.
const GAMES: u64 = 16;

/// A fresh, empty folder for one test under `target/tmp`.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("resume-tests").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create the scratch folder");
    dir
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn path_str(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

/// `arbiter ARGS` run to its end in the folder `cwd`.
fn arbiter_in(cwd: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arbiter")).args(args).current_dir(cwd).output().expect("run the arbiter binary")
}

/// `arbiter ARGS`, which must exit with `code`; returns its stdout and stderr.
fn arbiter_exits(code: i32, args: &[&str]) -> (String, String) {
    let out = arbiter_in(Path::new(env!("CARGO_TARGET_TMPDIR")), args);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(code), "arbiter {args:?}\nstdout:\n{stdout}\nstderr:\n{stderr}");
    (stdout, stderr)
}

/// `MATCH` followed by `extra`.
fn match_args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    ["match"].iter().chain(MATCH.iter()).chain(extra).copied().collect()
}

/// The rows of `dir/games.csv` (header checked, then dropped), sorted by game number.
fn csv_rows(dir: &Path) -> Vec<Vec<String>> {
    let mut reader = csv::Reader::from_path(dir.join("games.csv")).expect("games.csv exists");
    let header: Vec<String> = reader.headers().unwrap().iter().map(str::to_string).collect();
    assert_eq!(header, ["pair", "game", "opening", "white", "black", "result", "termination", "plies", "start_fen"]);
    let mut rows: Vec<Vec<String>> =
        reader.records().map(|r| r.expect("a CSV record").iter().map(str::to_string).collect()).collect();
    rows.sort_by_key(|row| row[1].parse::<u64>().expect("a game number"));
    rows
}

/// The game numbers (0-based) of `dir/games.csv` in file order.
fn csv_games(dir: &Path) -> Vec<u64> {
    let mut reader = csv::Reader::from_path(dir.join("games.csv")).expect("games.csv exists");
    reader.records().map(|r| r.unwrap()[1].parse().unwrap()).collect()
}

/// The games of `dir/games.pgn` by 0-based game number (from the `Round` tag `pair.game`), each as its text
/// without the `Date` tag (the day it was played). Every game must parse, and each number appear once.
fn pgn_games(dir: &Path) -> BTreeMap<u64, String> {
    let pgn = std::fs::read_to_string(dir.join("games.pgn")).expect("games.pgn exists");
    let parsed = read_games(&pgn, "games.pgn").expect("games.pgn parses");
    let mut games = BTreeMap::new();
    let mut chunks: Vec<String> = Vec::new();
    for line in pgn.lines() {
        if line.starts_with("[Event ") {
            chunks.push(String::new());
        }
        if !line.starts_with("[Date ") {
            let chunk = chunks.last_mut().expect("games.pgn starts with a game's [Event tag");
            chunk.push_str(line);
            chunk.push('\n');
        }
    }
    assert_eq!(parsed.len(), chunks.len(), "one [Event tag per game");
    for (game, chunk) in parsed.iter().zip(chunks) {
        let round = game.tag("Round").expect("a Round tag");
        let (pair, g) = round.split_once('.').expect("Round is pair.game");
        let number = 2 * (pair.parse::<u64>().unwrap() - 1) + g.parse::<u64>().unwrap() - 1;
        assert_eq!(game.result, game.tag("Result").unwrap(), "game {number}: the movetext ends with its result");
        assert_eq!(game.moves.len().to_string(), game.tag("PlyCount").unwrap());
        assert!(games.insert(number, chunk).is_none(), "game {number} is in games.pgn twice");
    }
    games
}

/// One run's results: CSV rows by game number, PGN games by number, and `summary.csv`.
#[derive(Debug, PartialEq)]
struct Results {
    rows: Vec<Vec<String>>,
    pgn: BTreeMap<u64, String>,
    summary_csv: String,
}

fn results(dir: &Path) -> Results {
    Results {
        rows: csv_rows(dir),
        pgn: pgn_games(dir),
        summary_csv: std::fs::read_to_string(dir.join("summary.csv")).expect("summary.csv exists"),
    }
}

/// Checks that `r` holds every game of the 16-game schedule exactly once, in the CSV and in the PGN.
fn check_complete(r: &Results) {
    let numbers: Vec<u64> = r.rows.iter().map(|row| row[1].parse().unwrap()).collect();
    assert_eq!(numbers, (0..GAMES).collect::<Vec<_>>(), "every game once in games.csv");
    assert_eq!(r.pgn.keys().copied().collect::<Vec<_>>(), numbers, "every game once in games.pgn");
}

/// The uninterrupted single-process run of `MATCH`, played once for all tests.
fn reference() -> &'static Results {
    static REFERENCE: OnceLock<Results> = OnceLock::new();
    REFERENCE.get_or_init(|| {
        let dir = scratch("reference");
        arbiter_exits(0, &match_args(&["--concurrency", "2", "--out", path_str(&dir)]));
        let r = results(&dir);
        check_complete(&r);
        r
    })
}

/// A small seeded generator (xorshift64, Marsaglia 2003) for the kill moments.
struct Xorshift(u64);

impl Xorshift {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// The number of complete rows in `dir/games.csv` (0 while it does not exist).
fn rows_written(dir: &Path) -> u64 {
    std::fs::read_to_string(dir.join("games.csv")).map_or(0, |t| t.matches('\n').count().saturating_sub(1) as u64)
}

/// Starts `arbiter ARGS` with stdout and stderr to files in `logs` (named by `session`).
fn spawn(args: &[&str], logs: &Path, session: usize) -> Child {
    let file = |name: &str| std::fs::File::create(logs.join(format!("{session}-{name}.txt"))).unwrap();
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .stdout(Stdio::from(file("stdout")))
        .stderr(Stdio::from(file("stderr")))
        .spawn()
        .expect("start the arbiter binary")
}

/// Lets `child` run until `dir/games.csv` holds `rows` rows, plus `extra_ms` milliseconds (to land the kill at
/// any point of a game, write included), then kills it with SIGKILL. Returns false when it ended on its own
/// first (it must have succeeded).
fn kill_after(child: &mut Child, dir: &Path, rows: u64, extra_ms: u64, log: &Path) -> bool {
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let stderr = std::fs::read_to_string(log).unwrap_or_default();
            assert!(status.success(), "the match failed: {status}\n{stderr}");
            return false;
        }
        if rows_written(dir) >= rows {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    std::thread::sleep(std::time::Duration::from_millis(extra_ms));
    child.kill().expect("SIGKILL the match");
    child.wait().expect("reap the killed match");
    true
}

/// Plays `MATCH` plus `extra` into `dir`, killing it with SIGKILL after seeded pseudo-random numbers of games
/// and resuming it (`arbiter match --resume DIR`) until it finishes. Returns the number of kills.
fn play_with_kills(dir: &Path, extra: &[&str], seed: u64, max_kills: usize) -> usize {
    let logs = dir.with_extension("logs");
    let _ = std::fs::remove_dir_all(&logs);
    std::fs::create_dir_all(&logs).unwrap();
    let mut rng = Xorshift(seed);
    let first: Vec<&str> = match_args(extra).into_iter().chain(["--out", path_str(dir)]).collect();
    let resume = ["match", "--resume", path_str(dir)];
    let mut kills = 0;
    for session in 0.. {
        assert!(session < 40, "the match did not finish after {session} sessions");
        let args: &[&str] = if session == 0 { &first } else { &resume };
        let mut child = spawn(args, &logs, session);
        let log = logs.join(format!("{session}-stderr.txt"));
        if kills == max_kills {
            let status = child.wait().unwrap();
            assert!(status.success(), "{}", std::fs::read_to_string(&log).unwrap_or_default());
            break;
        }
        // The first session runs until its first game at least (so that it has written run.toml); later ones
        // may die at once, even while they repair the files.
        let recorded = rows_written(dir);
        let more = if session == 0 { 1 + rng.below(3) } else { rng.below(4) };
        if !kill_after(&mut child, dir, recorded + more, rng.below(15), &log) {
            break;
        }
        kills += 1;
        if kills == 2 {
            tear_tail(dir);
        }
    }
    kills
}

/// Leaves the tail a kill in the middle of writing leaves: a partial PGN game and a partial CSV row, neither
/// of a game the CSV lists.
fn tear_tail(dir: &Path) {
    use std::io::Write as _;
    let append = |name: &str, text: &str| {
        let mut file = std::fs::OpenOptions::new().append(true).open(dir.join(name)).unwrap();
        file.write_all(text.as_bytes()).unwrap();
    };
    append("games.pgn", "[Event \"arbiter match\"]\n[Site \"arbiter\"]\n[Date \"2026.01.01\"]\n[Round \"8.2\"]\n");
    append("games.pgn", "[White \"nomob\"]\n[Black \"seed\"]\n[Result \"1-0\"]\n\n1. e4 {+0.30/4} e5 {-0.2");
    append("games.csv", "7,15,0,nomob,seed,1-0,checkm");
}

/// The lines of the stderr logs of `play_with_kills` for `dir` that hold `needle`.
fn logged(dir: &Path, needle: &str) -> Vec<String> {
    let logs = dir.with_extension("logs");
    let mut lines = Vec::new();
    for entry in std::fs::read_dir(&logs).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        lines.extend(text.lines().filter(|l| l.contains(needle)).map(str::to_string));
    }
    lines
}

#[test]
fn a_match_killed_at_random_moments_resumes_to_the_uninterrupted_games() {
    let dir = scratch("killed");
    let kills = play_with_kills(&dir, &["--concurrency", "2"], 0x5eed_2024, 5);
    assert!(kills >= 3, "only {kills} kills: the match ended first");
    let repaired = logged(&dir, "repaired");
    assert_eq!(repaired.len(), 2, "{repaired:?}");
    assert!(repaired[0].ends_with("dropped games.csv: a partial last line (28 bytes)"), "{repaired:?}");
    // 1 game, or 2 should the kill have fallen between a game's PGN and its CSV row.
    assert!(repaired[1].contains("dropped games.pgn: ") && repaired[1].ends_with("that games.csv does not list"));
    let r = results(&dir);
    check_complete(&r);
    assert_eq!(r.rows, reference().rows, "the same games, game for game");
    assert_eq!(r.pgn, reference().pgn, "the same PGN games, moves and comments");
    assert_eq!(r.summary_csv, reference().summary_csv, "the same W/D/L, pentanomial and Elo");
    let summary = std::fs::read_to_string(dir.join("summary.txt")).unwrap();
    assert!(summary.contains("Games: 16 (16 planned"), "{summary}");

    // Resuming a finished run plays nothing and writes the same summary again.
    let before = (std::fs::read(dir.join("games.csv")).unwrap(), std::fs::read(dir.join("games.pgn")).unwrap());
    let (stdout, stderr) = arbiter_exits(0, &["match", "--resume", path_str(&dir), "--concurrency", "1"]);
    assert!(stderr.contains("16 of 16 games recorded, complete; rewriting the summary"), "{stderr}");
    assert!(stdout.contains("Games: 16 (16 planned), read back from the result files"), "{stdout}");
    let after = (std::fs::read(dir.join("games.csv")).unwrap(), std::fs::read(dir.join("games.pgn")).unwrap());
    assert!(before == after, "a finished run's games are not touched");
    assert_eq!(std::fs::read_to_string(dir.join("summary.csv")).unwrap(), reference().summary_csv);
}

#[test]
fn an_sprt_match_killed_and_resumed_decides_as_if_never_interrupted() {
    // seed beats nomob by far at 300 nodes: this SPRT accepts H1 after 18 pairs. At concurrency 1 the pairs end
    // in schedule order, so the uninterrupted run and the resumed one see the same sequence of pairs.
    let sprt = ["--sprt", "elo0=-200,elo1=0", "--concurrency", "1"];
    let args = |dir: &Path| -> Vec<String> {
        let mut args: Vec<String> = ["match", "--openings", UHO, "--nodes", "300"].map(String::from).to_vec();
        args.extend(sprt.map(String::from));
        args.extend(["--out".to_string(), path_str(dir).to_string()]);
        args
    };
    let whole = scratch("sprt-whole");
    let whole_args = args(&whole);
    arbiter_exits(0, &whole_args.iter().map(String::as_str).collect::<Vec<_>>());
    let dir = scratch("sprt-killed");
    let logs = scratch("sprt-logs");
    let mut rng = Xorshift(77);
    let first = args(&dir);
    let mut child = spawn(&first.iter().map(String::as_str).collect::<Vec<_>>(), &logs, 0);
    assert!(kill_after(&mut child, &dir, 9 + rng.below(6), rng.below(15), &logs.join("0-stderr.txt")));
    let (_, stderr) = arbiter_exits(0, &["match", "--resume", path_str(&dir)]);
    assert!(stderr.contains("SPRT: H1 accepted"), "{stderr}");

    assert_eq!(csv_rows(&dir), csv_rows(&whole));
    assert_eq!(pgn_games(&dir), pgn_games(&whole));
    let summary_csv = |d: &Path| std::fs::read_to_string(d.join("summary.csv")).unwrap();
    assert_eq!(summary_csv(&dir), summary_csv(&whole), "the same counts, LLR and decision");
    let summary = std::fs::read_to_string(dir.join("summary.txt")).unwrap();
    assert!(summary.contains("decision    H1 accepted (LLR"), "{summary}");
    // A decided match resumes to its summary only.
    let (_, stderr) = arbiter_exits(0, &["match", "--resume", path_str(&dir)]);
    assert!(stderr.contains("the SPRT had decided; rewriting the summary"), "{stderr}");
    assert_eq!(summary_csv(&dir), summary_csv(&whole));
}

#[test]
fn four_shards_merge_into_the_single_run_game_for_game() {
    let base = scratch("shards");
    let shard_dir = |i: u32| base.join(format!("shard-{i}"));
    let mut children: Vec<Child> = (1..=4)
        .map(|i| {
            let shard = format!("{i}/4");
            let out = shard_dir(i);
            let args = match_args(&["--shard", &shard, "--concurrency", "1", "--out", path_str(&out)]);
            Command::new(env!("CARGO_BIN_EXE_arbiter"))
                .args(&args)
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .expect("start a shard")
        })
        .collect();
    for (i, child) in children.drain(..).enumerate() {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "shard {}: {}", i + 1, text(&out.stderr));
    }
    for i in 1..=4u64 {
        // Shard i plays the pairs k with k mod 4 = i - 1: games 2k and 2k + 1.
        let mut games = csv_games(&shard_dir(i as u32));
        games.sort();
        let expected: Vec<u64> = (0..GAMES).filter(|g| (g / 2) % 4 == i - 1).collect();
        assert_eq!(games, expected, "shard {i}/4");
        let summary = std::fs::read_to_string(shard_dir(i as u32).join("summary.txt")).unwrap();
        assert!(summary.contains(&format!("shard      {i}/4: 2 of the 8 pairs")), "{summary}");
    }

    // In any order, into the folder that holds the shards.
    let dirs: Vec<String> = [3, 1, 4, 2].map(|i| path_str(&shard_dir(i)).to_string()).to_vec();
    let merge: Vec<&str> = ["merge"].into_iter().chain(dirs.iter().map(String::as_str)).collect();
    let (stdout, _) = arbiter_exits(0, &merge);
    assert!(stdout.contains(&format!("Merged 4 shards: {}", base.display())), "{stdout}");
    let merged = results(&base);
    check_complete(&merged);
    assert_eq!(merged.rows, reference().rows, "the same games, game for game");
    assert_eq!(merged.pgn, reference().pgn, "the same PGN games, moves and comments");
    assert_eq!(merged.summary_csv, reference().summary_csv, "the same W/D/L, pentanomial and Elo");
    assert_eq!(csv_games(&base), (0..GAMES).collect::<Vec<_>>(), "the merged CSV is in game order");

    // Refusals, each exit 2, naming the problem.
    let refused = |dirs: &[&Path], out: &Path| {
        let mut args = vec!["merge".to_string()];
        args.extend(dirs.iter().map(|d| path_str(d).to_string()));
        args.extend(["--out".to_string(), path_str(out).to_string()]);
        let (_, stderr) = arbiter_exits(2, &args.iter().map(String::as_str).collect::<Vec<_>>());
        stderr
    };
    let (s1, s2, s3, s4) = (shard_dir(1), shard_dir(2), shard_dir(3), shard_dir(4));
    let out = base.join("refused");
    let err = refused(&[&s1, &s2, &s4], &out);
    assert!(err.contains("3 of 4 shards given; missing: 3/4"), "{err}");
    let err = refused(&[&s1, &s2, &s2, &s3, &s4], &out);
    assert!(err.contains(&format!("shard 2/4 is given twice: {} and {}", s2.display(), s2.display())), "{err}");
    let err = refused(&[&s1, &s2, &s3, &s4], &base);
    assert!(err.contains("games.csv: already exists"), "{err}");
    assert_eq!(results(&base), merged, "the merged results stay");

    // A shard of another schedule (another seed: other openings).
    let other = base.join("other-shard-4");
    arbiter_exits(0, &match_args(&["--seed", "2", "--shard", "4/4", "--out", path_str(&other)]));
    let err = refused(&[&s1, &s2, &s3, &other], &out);
    assert!(
        err.contains(&format!("{} (shard 4/4) is a shard of another schedule than {}", other.display(), s1.display())),
        "{err}"
    );
    assert!(err.contains("differing: the schedule (order, seed, length or shard count)"), "{err}");

    // An unfinished shard: its last game lost.
    let cut = base.join("cut-shard-3");
    std::fs::create_dir_all(&cut).unwrap();
    for name in ["run.toml", "games.pgn", "summary.txt", "summary.csv"] {
        std::fs::copy(s3.join(name), cut.join(name)).unwrap();
    }
    let csv = std::fs::read_to_string(s3.join("games.csv")).unwrap();
    let kept = csv.trim_end().rsplit_once('\n').unwrap().0;
    std::fs::write(cut.join("games.csv"), format!("{kept}\n")).unwrap();
    let err = refused(&[&s1, &s2, &cut, &s4], &out);
    assert!(
        err.contains("(shard 3/4): 3 of its 4 games recorded; finish it first with `arbiter match --resume"),
        "{err}"
    );

    // A shard whose games.pgn was edited: every game is replayed, and the first that fails is named with its
    // file and line. The shard's first game's second move replaced by a king move that is not legal there,
    // then its result tag changed.
    let edited = base.join("edited-shard-2");
    std::fs::create_dir_all(&edited).unwrap();
    for name in ["run.toml", "games.csv", "summary.txt", "summary.csv"] {
        std::fs::copy(s2.join(name), edited.join(name)).unwrap();
    }
    let pgn = std::fs::read_to_string(s2.join("games.pgn")).unwrap();
    let moves_line = pgn.lines().position(|l| !l.is_empty() && !l.starts_with('[')).unwrap();
    let mut lines: Vec<String> = pgn.lines().map(String::from).collect();
    let original = lines[moves_line].clone();
    let mut words: Vec<String> = original.split(' ').map(String::from).collect();
    let is_move = |w: &String| !w.ends_with('.') && !w.starts_with('{') && !w.ends_with('}');
    let second = words.iter().enumerate().filter(|(_, w)| is_move(w)).nth(1).unwrap().0;
    words[second] = "Ke6".to_string();
    lines[moves_line] = words.join(" ");
    std::fs::write(edited.join("games.pgn"), lines.join("\n") + "\n").unwrap();
    let err = refused(&[&s1, &edited, &s3, &s4], &out);
    let at = format!("{}:{}", edited.join("games.pgn").display(), moves_line + 1);
    assert!(err.contains("does not replay") && err.contains(&at) && err.contains("\"Ke6\" is not legal"), "{err}");
    lines[moves_line] = original;
    let result_line = lines.iter().position(|l| l.starts_with("[Result ")).unwrap();
    let result = lines[result_line].clone();
    lines[result_line] = if result.contains("\"1-0\"") { "[Result \"0-1\"]" } else { "[Result \"1-0\"]" }.into();
    std::fs::write(edited.join("games.pgn"), lines.join("\n") + "\n").unwrap();
    let err = refused(&[&s1, &edited, &s3, &s4], &out);
    assert!(err.contains(&format!("{}:1: game ", edited.join("games.pgn").display())), "{err}");
    assert!(err.contains("games.csv says"), "{err}");
    assert!(!out.exists(), "nothing is written for a refused merge");
}

#[test]
fn resume_keeps_the_recorded_flags_and_refuses_a_changed_schedule() {
    let base = scratch("refusals");
    // Relative paths, resolved in the folder the run started in, even when resumed from elsewhere.
    let mut config = arbiter::engine::chess::EngineConfig::seed();
    config.name = "mine".into();
    std::fs::write(base.join("mine.toml"), config.to_toml()).unwrap();
    let args = ["match", "--openings", UHO, "--engine", "config=mine.toml", "--engine", "name=nomob"];
    let out = arbiter_in(&base, &[&args[..], &["--games", "2", "--nodes", "200", "--out", "run"]].concat());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let run = base.join("run");
    let toml = std::fs::read_to_string(run.join("run.toml")).unwrap();
    // run.toml holds the plan, its paths absolute (resolved in the folder the run started in), not argv.
    let run_file = arbiter::runner::RunFile::read(&run.join("run.toml")).unwrap();
    let mine = &run_file.plan.engines[0];
    assert_eq!(mine.build, arbiter::runner::EngineBuild::Config { path: base.join("mine.toml") }, "{toml}");
    assert_eq!(mine.source, "mine.toml", "the summary shows the path as given");
    assert!(toml.contains("version = 2") && !toml.contains("args = ") && !toml.contains("cwd = "), "{toml}");
    let (_, stderr) = arbiter_exits(0, &["match", "--resume", path_str(&run)]);
    assert!(stderr.contains("2 of 2 games recorded, complete"), "{stderr}");

    let (_, stderr) = arbiter_exits(2, &["match", "--resume", path_str(&run), "--games", "4", "--nodes=9"]);
    assert!(stderr.contains("--games, --nodes cannot be given with --resume"), "{stderr}");
    let missing = base.join("no-such-run");
    let (_, stderr) = arbiter_exits(2, &["match", "--resume", path_str(&missing)]);
    assert!(stderr.contains("(expected the folder of an earlier run, holding run.toml)"), "{stderr}");

    config.weights.bishop_pair += 5;
    std::fs::write(base.join("mine.toml"), config.to_toml()).unwrap();
    let (_, stderr) = arbiter_exits(2, &["match", "--resume", path_str(&run)]);
    assert!(stderr.contains("the engine mine changed since the run started"), "{stderr}");
    assert!(stderr.contains("refusing to resume a different schedule"), "{stderr}");
    assert!(run.join("summary.txt").exists(), "a refused resume changes nothing");

    let (_, stderr) = arbiter_exits(2, &["match", "--resume", path_str(&base)]);
    assert!(stderr.contains("run.toml: cannot read"), "{stderr}");
    // A run folder is never reused by a fresh match, run.toml alone included.
    std::fs::remove_file(run.join("games.csv")).unwrap();
    for name in ["games.pgn", "summary.txt", "summary.csv", "summary.json"] {
        std::fs::remove_file(run.join(name)).unwrap();
    }
    let out = arbiter_in(&base, &[&args[..], &["--games", "2", "--out", "run"]].concat());
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("run/run.toml: already exists"), "{}", text(&out.stderr));

    // --shard needs a fixed length and a valid I/N.
    let (_, stderr) = arbiter_exits(2, &["match", "--openings", UHO, "--shard", "1/2"]);
    assert!(
        stderr.contains("--shard 1/2: a shard plays a fixed part of the schedule: give --games or --rounds"),
        "{stderr}"
    );
    for bad in ["0/4", "5/4", "1/0", "2", "a/b", "+1/2"] {
        let (_, stderr) = arbiter_exits(2, &["match", "--openings", UHO, "--games", "4", "--shard", bad]);
        assert!(stderr.contains("expected I/N with 1 <= I <= N"), "{bad}: {stderr}");
    }
}
