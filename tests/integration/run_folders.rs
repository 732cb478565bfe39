//! Run folders under stress, end to end with the real binary: two matches started on one folder at once, files
//! of a run folder replaced by symbolic links, and damaged records that `arbiter match --resume` drops (keeping
//! a copy) and plays again. See `docs/run-folders.md`.

use arbiter::runner::RunFile;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const UHO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/suites/openings/UHO_4060_v4.part1of5.epd");

/// A short match of the built-in `seed` against `nomob`.
const MATCH: [&str; 11] =
    ["match", "--openings", UHO, "--engine", "name=seed", "--engine", "name=nomob", "--games", "4", "--nodes", "200"];

/// A fresh, empty folder for one test under `target/tmp`.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("run-folder-tests").join(name);
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

/// `arbiter ARGS` run to its end.
fn arbiter(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .current_dir(env!("CARGO_TARGET_TMPDIR"))
        .output()
        .expect("run the arbiter binary")
}

/// `arbiter ARGS`, which must exit with `code`; returns its stderr.
fn arbiter_exits(code: i32, args: &[&str]) -> String {
    let out = arbiter(args);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "arbiter {args:?}\nstdout:\n{}\nstderr:\n{stderr}", text(&out.stdout));
    stderr
}

/// `MATCH` into `out`.
fn match_into(out: &Path) -> Vec<&str> {
    MATCH.iter().copied().chain(["--out", path_str(out)]).collect()
}

/// The names in `dir` that look like temporary files.
fn temporary_files(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".tmp"))
        .collect()
}

#[test]
fn two_matches_started_on_one_folder_leave_one_run_and_one_refusal() {
    let base = scratch("race");
    for i in 0..20 {
        let out = base.join(format!("run-{i}"));
        let args = match_into(&out);
        let spawn = || {
            Command::new(env!("CARGO_BIN_EXE_arbiter"))
                .args(&args)
                .current_dir(env!("CARGO_TARGET_TMPDIR"))
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("start the arbiter binary")
        };
        let (a, b) = (spawn(), spawn());
        let outputs = [a.wait_with_output().unwrap(), b.wait_with_output().unwrap()];
        let codes: Vec<Option<i32>> = outputs.iter().map(|o| o.status.code()).collect();
        let stderrs: Vec<String> = outputs.iter().map(|o| text(&o.stderr)).collect();
        assert!(codes.contains(&Some(0)) && codes.contains(&Some(2)), "iteration {i}: {codes:?}\n{stderrs:#?}");
        let refused = &stderrs[codes.iter().position(|c| *c == Some(2)).unwrap()];
        let in_use = format!("{}: the run is in use by another arbiter process", out.display());
        // Or the second found the first one's files, under the lock, once the first had finished.
        let exists = refused.contains(&format!("{}/", out.display()))
            && refused.contains(": already exists; refusing to overwrite an earlier run");
        assert!(refused.contains(&in_use) || exists, "iteration {i}: {refused}");
        let run = RunFile::read(&out.join("run.toml")).expect("run.toml parses");
        // The plan of the run that won: its folder, its engines, its length.
        assert_eq!(run.plan.output.out.as_deref(), Some(out.as_path()));
        assert_eq!(run.plan.engines.iter().map(|e| e.name.as_str()).collect::<Vec<_>>(), ["seed", "nomob"]);
        assert_eq!(run.plan.length, arbiter::runner::MatchLength::Games(4));
        assert!(temporary_files(&out).is_empty(), "iteration {i}: {:?}", temporary_files(&out));
        let csv = std::fs::read_to_string(out.join("games.csv")).unwrap();
        assert_eq!(csv.lines().count(), 5, "iteration {i}: one run's 4 games:\n{csv}");
    }
}

#[test]
fn no_file_of_a_run_folder_is_written_through_a_symbolic_link() {
    let base = scratch("links");
    let target = base.join("precious.txt");
    std::fs::write(&target, "keep me\n").unwrap();
    let names = [
        "games.csv",
        "games.pgn",
        "summary.txt",
        "summary.csv",
        "run.toml",
        "run.lock",
        "match.log",
        "llr.svg",
        "elo.svg",
    ];
    // A new match refuses a folder holding a link by any of the names it writes.
    for name in names {
        let out = base.join(format!("new-{name}"));
        std::fs::create_dir_all(&out).unwrap();
        std::os::unix::fs::symlink(&target, out.join(name)).unwrap();
        let stderr = arbiter_exits(2, &match_into(&out));
        let link = out.join(name);
        assert!(stderr.contains(&format!("{}: is a symbolic link", link.display())), "{name}: {stderr}");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep me\n", "{name}");
    }
    // A link planted in a finished run is refused on resume, before anything is written.
    let run = base.join("finished");
    arbiter_exits(0, &match_into(&run));
    for name in names {
        let link = run.join(name);
        let moved = run.join(format!("{name}.away"));
        std::fs::rename(&link, &moved).ok();
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let stderr = arbiter_exits(2, &["match", "--resume", path_str(&run)]);
        assert!(stderr.contains(&format!("{}: is a symbolic link", link.display())), "{name}: {stderr}");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep me\n", "{name}");
        std::fs::remove_file(&link).unwrap();
        std::fs::rename(&moved, &link).ok();
    }
    arbiter_exits(0, &["match", "--resume", path_str(&run)]);
    // The folder itself may be a link (results on another disk): only the files inside are checked.
    let real = base.join("real-folder");
    std::fs::create_dir_all(&real).unwrap();
    let linked = base.join("linked-folder");
    std::os::unix::fs::symlink(&real, &linked).unwrap();
    arbiter_exits(0, &match_into(&linked));
    assert!(real.join("games.csv").is_file() && real.join("run.toml").is_file());
}

/// The rows of `dir/games.csv` without the header, sorted by game number.
fn sorted_rows(dir: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(dir.join("games.csv")).unwrap();
    let mut rows: Vec<String> = text.lines().skip(1).map(str::to_string).collect();
    rows.sort_by_key(|row| row.split(',').nth(1).unwrap().parse::<u64>().unwrap());
    rows
}

/// The files in `dir` whose name starts with `prefix`.
fn files_starting(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with(prefix))
        .collect()
}

#[test]
fn resume_drops_damaged_games_keeps_a_copy_and_plays_them_again() {
    let base = scratch("damaged");
    let run = base.join("run");
    let args: Vec<&str> = MATCH.iter().copied().map(|a| if a == "4" { "10" } else { a }).collect();
    arbiter_exits(0, &[&args[..], &["--out", path_str(&run)]].concat());
    let original = sorted_rows(&run);
    assert_eq!(original.len(), 10);

    // Five kinds of damage, one game each (the rows in file order 1 to 5).
    let csv = std::fs::read_to_string(run.join("games.csv")).unwrap();
    let mut lines: Vec<String> = csv.lines().map(str::to_string).collect();
    let game_of = |line: &str| line.split(',').nth(1).unwrap().parse::<u64>().unwrap();
    let round = |game: u64| format!("[Round \"{}.{}\"]", game / 2 + 1, game % 2 + 1);
    let damaged: Vec<u64> = (1..=5).map(|i| game_of(&lines[i])).collect();
    // 1: a row cut short.
    lines[1] = lines[1].split(',').take(5).collect::<Vec<_>>().join(",");
    // 3: the wrong result.
    let mut fields: Vec<String> = lines[3].split(',').map(str::to_string).collect();
    fields[5] = if fields[5] == "1-0" { "0-1".into() } else { "1-0".into() };
    lines[3] = fields.join(",");
    // 4: the wrong ply count.
    let mut fields: Vec<String> = lines[4].split(',').map(str::to_string).collect();
    fields[7] = (fields[7].parse::<u64>().unwrap() + 2).to_string();
    lines[4] = fields.join(",");
    std::fs::write(run.join("games.csv"), lines.join("\n") + "\n").unwrap();
    let pgn = std::fs::read_to_string(run.join("games.pgn")).unwrap();
    let mut games: Vec<String> = pgn.split_inclusive("[Event ").map(str::to_string).collect();
    // split_inclusive keeps "[Event " at the end of each piece: move it to the front of the next one.
    let mut chunks: Vec<String> = Vec::new();
    let mut carry = String::new();
    for piece in games.drain(..) {
        let text = format!("{carry}{piece}");
        carry.clear();
        match text.strip_suffix("[Event ") {
            Some(rest) => {
                if !rest.is_empty() {
                    chunks.push(rest.to_string());
                }
                carry.push_str("[Event ");
            }
            None => chunks.push(text),
        }
    }
    let index = |chunks: &[String], game: u64| chunks.iter().position(|c| c.contains(&round(game))).unwrap();
    // 2: an illegal move (a king capturing on e8 after the book moves).
    let k = index(&chunks, damaged[1]);
    let body = chunks[k].find("\n\n").unwrap() + 2;
    let first_move = chunks[k][body..].find(". ").unwrap() + body + 2;
    chunks[k].insert_str(first_move, "Kxe8 ");
    // 5: a row whose PGN game is gone.
    let gone = index(&chunks, damaged[4]);
    chunks.remove(gone);
    std::fs::write(run.join("games.pgn"), chunks.concat()).unwrap();

    let stderr = arbiter_exits(0, &["match", "--resume", path_str(&run)]);
    let dropped: Vec<&str> = stderr.lines().filter(|l| l.contains("the game is played again")).collect();
    assert_eq!(dropped.len(), 5, "{stderr}");
    for (line, what) in
        dropped.iter().zip(["fields, expected 9", "does not replay", "result", "plies", "is not in games.pgn"])
    {
        assert!(line.contains(what), "{what}: {line}");
    }
    assert!(stderr.contains("5 of 10 games recorded, 5 games to play"), "{stderr}");
    // The copies keep what was dropped, as it was.
    let csv_copies = files_starting(&run, "games.csv.dropped-");
    let pgn_copies = files_starting(&run, "games.pgn.dropped-");
    assert_eq!((csv_copies.len(), pgn_copies.len()), (1, 1), "{stderr}");
    for copy in csv_copies.iter().chain(&pgn_copies) {
        assert!(stderr.contains(&format!("a copy of what was dropped is kept in {}", copy.display())), "{stderr}");
    }
    let csv_copy = std::fs::read_to_string(&csv_copies[0]).unwrap();
    assert_eq!(csv_copy.lines().count(), 6, "the header and the five rows:\n{csv_copy}");
    for line in &lines[1..=5] {
        assert!(csv_copy.contains(&format!("{line}\n")), "{line}");
    }
    let pgn_copy = std::fs::read_to_string(&pgn_copies[0]).unwrap();
    for &game in &damaged[..4] {
        assert!(pgn_copy.contains(&round(game)), "game {game}");
    }
    assert!(pgn_copy.contains("Kxe8"));
    // The damaged games were played again, to the same games (a node limit is deterministic).
    assert_eq!(sorted_rows(&run), original);
    // And the run is sound: merge replays every game.
    let merged = base.join("merged");
    arbiter_exits(0, &["merge", path_str(&run), "--out", path_str(&merged)]);
    assert_eq!(sorted_rows(&merged), original);
}

#[test]
fn damaged_files_are_quoted_with_invisible_characters_escaped_and_cut_short() {
    let base = scratch("quoted");
    let run = base.join("run");
    arbiter_exits(0, &match_into(&run));
    let csv = std::fs::read_to_string(run.join("games.csv")).unwrap();
    let toml = std::fs::read_to_string(run.join("run.toml")).unwrap();
    let resume = ["match", "--resume", path_str(&run)];
    // A byte order mark, then CRLF line ends: the header differs invisibly, and the message shows how.
    std::fs::write(run.join("games.csv"), format!("\u{feff}{csv}")).unwrap();
    let stderr = arbiter_exits(2, &resume);
    assert!(stderr.contains(r#"got "\u{feff}pair,game,opening,"#), "{stderr}");
    std::fs::write(run.join("games.csv"), csv.replace('\n', "\r\n")).unwrap();
    let stderr = arbiter_exits(2, &resume);
    assert!(stderr.contains(r#"plies,start_fen\r""#), "{stderr}");
    std::fs::write(run.join("games.csv"), &csv).unwrap();
    // A 1 MB line in run.toml is quoted cut short.
    std::fs::write(run.join("run.toml"), format!("{toml}junk = \"{}\u{1b}\n", "x".repeat(1 << 20))).unwrap();
    let stderr = arbiter_exits(2, &resume);
    assert!(
        stderr.contains("run.toml: not a run file arbiter can read: line "),
        "{}",
        &stderr[..stderr.len().min(2000)]
    );
    assert!(stderr.contains(" more bytes)"), "{}", &stderr[..stderr.len().min(2000)]);
    assert!(stderr.len() < 2000, "{} bytes of stderr", stderr.len());
    std::fs::write(run.join("run.toml"), &toml).unwrap();
    arbiter_exits(0, &resume);
    // The same for an opening file (EPD) and a PGN book with a 1 MB line.
    let epd = base.join("big.epd");
    std::fs::write(&epd, format!("{}\r\n", "x".repeat(1 << 20))).unwrap();
    let pgn = base.join("big.pgn");
    std::fs::write(&pgn, format!("[Event \"{}\t\n\n1. e4 *\n", "x".repeat(1 << 20))).unwrap();
    for book in [&epd, &pgn] {
        let out = base.join("new");
        let stderr = arbiter_exits(2, &["match", "--openings", path_str(book), "--out", path_str(&out)]);
        assert!(stderr.contains(" more bytes)") && stderr.len() < 2000, "{}", &stderr[..stderr.len().min(2000)]);
    }
}

#[test]
fn a_run_is_repeated_and_edited_from_its_plan_file() {
    let dir = scratch("config");
    let first = dir.join("first");
    arbiter_exits(0, &match_into(&first));
    // The run folder's run.toml as it is: the same games again, in a new folder.
    let again = dir.join("again");
    arbiter_exits(0, &["match", "--config", path_str(&first.join("run.toml")), "--out", path_str(&again)]);
    assert_eq!(sorted_rows(&again), sorted_rows(&first), "the plan plays the same games");
    // Its [plan] keys alone at the top level, edited by hand: two more games.
    let run = std::fs::read_to_string(first.join("run.toml")).unwrap();
    let plan = run.split_once("[plan]\n").unwrap().1.replace("[plan.", "[").replace("[[plan.", "[[");
    let games = RunFile::read(&first.join("run.toml")).unwrap().plan.length;
    let arbiter::runner::MatchLength::Games(n) = games else { panic!("{games:?}") };
    let edited = dir.join("edited.toml");
    std::fs::write(&edited, plan.replace(&format!("games = {n}\n"), &format!("games = {}\n", n + 2))).unwrap();
    let out = dir.join("edited");
    arbiter_exits(0, &["match", "--config", path_str(&edited), "--out", path_str(&out), "--concurrency", "1"]);
    assert_eq!(sorted_rows(&out).len(), sorted_rows(&first).len() + 2);
    // The plan is the file's: other flags are refused, a bad key is named with its line.
    let stderr = arbiter_exits(2, &["match", "--config", path_str(&edited), "--games", "4"]);
    assert!(stderr.contains("--games cannot be given with --config"), "{stderr}");
    std::fs::write(&edited, format!("{plan}colour = 1\n")).unwrap();
    let stderr = arbiter_exits(2, &["match", "--config", path_str(&edited)]);
    assert!(stderr.contains("edited.toml") && stderr.contains("unknown field `colour`"), "{stderr}");
}
