//! The command lines of cutechess-cli and fastchess (`arbiter cutechess`, `arbiter fastchess`, and the binary
//! called through a link of their name): command lines taken from fishtest's and OpenBench's workers and from
//! the tools' documentation, with our engines and books, checked for the games played (count, pairing,
//! colours, openings) and for the lines those workers read, with their own patterns (tests/worker_patterns.py).

use super::support::{faulty_engine, python, scratch_in, text};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const SHARED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared");

fn arbiter_bin() -> &'static str {
    env!("CARGO_BIN_EXE_arbiter")
}

/// A link to the arbiter binary named `name` in `dir`.
fn link(dir: &Path, name: &str) -> PathBuf {
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    std::os::unix::fs::symlink(arbiter_bin(), &path).expect("link the binary");
    path
}

/// Runs `program` with the words of `line` (split as a shell does) in `dir`.
fn run_in(dir: &Path, program: &Path, line: &str) -> Output {
    let words = shlex::split(line).expect("a balanced command line");
    Command::new(program).args(&words).current_dir(dir).output().expect("run the tool's command line")
}

/// The single run folder under `dir/results`.
fn run_folder(dir: &Path) -> PathBuf {
    let mut runs: Vec<PathBuf> =
        std::fs::read_dir(dir.join("results")).expect("a results folder").map(|e| e.unwrap().path()).collect();
    assert_eq!(runs.len(), 1, "{runs:?}");
    runs.remove(0)
}

/// `games.csv` rows as (game number, opening, white, black, result), by game number.
fn games(run: &Path) -> Vec<(u64, usize, String, String, String)> {
    let mut reader = csv::Reader::from_path(run.join("games.csv")).expect("games.csv");
    let mut rows: Vec<_> = reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            (r[1].parse().unwrap(), r[2].parse().unwrap(), r[3].to_string(), r[4].to_string(), r[5].to_string())
        })
        .collect();
    rows.sort();
    rows
}

/// What the fishtest and OpenBench workers read from `output` (stdout and stderr, as fishtest reads both).
fn workers(dir: &Path, output: &Output) -> serde_json::Value {
    let file = dir.join("out.txt");
    std::fs::write(&file, [output.stdout.as_slice(), output.stderr.as_slice()].concat()).unwrap();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/worker_patterns.py");
    serde_json::from_str(&python(&[script, file.to_str().unwrap()])).expect("JSON from worker_patterns.py")
}

fn summary(run: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(run.join("summary.json")).unwrap()).unwrap()
}

#[test]
fn fishtest_command_line_runs_and_its_worker_reads_the_same_counts() {
    let dir = scratch_in("compat", "fishtest");
    let fastchess = link(&dir, "fastchess");
    let a = arbiter_bin();
    // fishtest worker/games.py's command, engines and book ours, nodes instead of its scaled tc.
    let line = format!(
        "-testEnv -recover -repeat -games 2 -rounds 4 -ratinginterval 1 -scoreinterval 1 -autosaveinterval 0 \
         -report penta=true -pgnout file=results-x-5.pgn -crc32 pgn=true \
         -site https://tests.stockfishchess.org/tests/view/x -event 'Batch 5: New-1 vs Base-2' -srand 77 \
         -resign movecount=3 score=600 -draw movenumber=34 movecount=8 score=20 -variant standard -concurrency 2 \
         -openings file={SHARED}/suites/openings/2moves_v1.epd format=epd order=random plies=16 start=9 \
         -engine name=New-1 tc=inf nodes=400 cmd={a} dir=. option.Hash=16 \
         -engine name=Base-2 tc=inf nodes=300 cmd={a} dir=. -each proto=uci option.Threads=1"
    );
    let out = run_in(&dir, &fastchess, &line);
    assert!(out.status.success(), "{}{}", text(&out.stdout), text(&out.stderr));
    let stdout = text(&out.stdout);
    let run = run_folder(&dir);
    let rows = games(&run);
    assert_eq!(rows.len(), 8, "4 rounds of 2 games");
    for pair in rows.chunks(2) {
        let ((_, o1, w1, b1, _), (_, o2, w2, b2, _)) = (&pair[0], &pair[1]);
        assert_eq!(o1, o2, "a pair shares its opening");
        assert_eq!((w1.as_str(), b1.as_str(), w2.as_str(), b2.as_str()), ("New-1", "Base-2", "Base-2", "New-1"));
    }
    let worker = workers(&dir, &out);
    let fish = &worker["fishtest"];
    let ptnml = fish["blocks"].as_array().unwrap().last().unwrap()["ptnml"].clone();
    let summary = summary(&run);
    let penta = &summary["pairings"][0]["pentanomial"];
    let ours = [&penta["ll"], &penta["ld"], &penta["wl"], &penta["dd"], &penta["wd"], &penta["ww"]]
        .map(|v| v.as_u64().unwrap());
    assert_eq!(ptnml, serde_json::json!([ours[0], ours[1], ours[2] + ours[3], ours[4], ours[5]]), "{summary}");
    assert_eq!(fish["finished_match"], true);
    assert_eq!((fish["crashes"].as_u64(), fish["time_losses"].as_u64()), (Some(0), Some(0)));
    let pgn = std::fs::read(dir.join("results-x-5.pgn")).unwrap();
    assert_eq!(fish["crc"].as_str().unwrap(), format!("{:#x}", crc32fast::hash(&pgn)));
    let pgn = String::from_utf8(pgn).unwrap();
    assert_eq!(pgn.matches("[Site \"https://tests.stockfishchess.org/tests/view/x\"]").count(), 8);
    assert_eq!(pgn.matches("[Event \"Batch 5: New-1 vs Base-2\"]").count(), 8);
    assert!(stdout.contains("Started game 1 of 8 (New-1 vs Base-2)"), "{stdout}");
    // OpenBench's reading of the Finished lines gives the same pairs.
    assert_eq!(
        worker["openbench"]["pentanomial"],
        serde_json::json!([ours[0], ours[1], ours[2] + ours[3], ours[4], ours[5]])
    );
    assert_eq!(worker["openbench"]["unpaired"], 0);
    // The openings: start=9 of the shuffled order, the same as arbiter match's own --openings start=9.
    let text = std::fs::read_to_string(run.join("run.toml")).unwrap();
    assert!(text.contains("start = 9") && text.contains("order = \"random\""), "{text}");
}

#[test]
fn openbench_command_line_counts_crashes_once() {
    let dir = scratch_in("compat", "openbench");
    let faulty = faulty_engine();
    let a = arbiter_bin();
    // OpenBench Client/worker.py's command (build_runner_command), our engines, a dev that crashes mid-game.
    let line = format!(
        "-recover -variant standard -testEnv -concurrency 2 -rounds 4 -games 2 -resign movecount=3 score=400 \
         -draw movenumber=40 movecount=8 score=10 \
         -engine dir=. cmd={} args='--mode crash --after 3' proto=uci tc=inf nodes=500 name=Dev-dev \
         -engine dir=. cmd={a} proto=uci tc=inf nodes=500 option.Hash=8 name=Base-base \
         -openings file={SHARED}/suites/openings/2moves_v1.epd format=epd order=random start=3 -srand 11 \
         -pgnout file=ob.pgn seldepth=true nodes=true match_line='^info string pgncomment .*'",
        faulty.display()
    );
    let out = Command::new(arbiter_bin())
        .arg("fastchess")
        .args(shlex::split(&line).unwrap())
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}{}", text(&out.stdout), text(&out.stderr));
    let worker = workers(&dir, &out);
    let ob = &worker["openbench"];
    assert_eq!(ob["finished"], 8);
    assert_eq!(ob["crashes"], 8, "every game of the crashing engine, once: {worker}");
    assert_eq!(worker["fishtest"]["crashes"], 8, "no failure said twice: {worker}");
    assert_eq!(ob["pentanomial"], serde_json::json!([4, 0, 0, 0, 0]));
    // OpenBench's nodes= and seldepth= are written as fastchess writes them.
    let pgn = std::fs::read_to_string(dir.join("ob.pgn")).unwrap();
    assert!(pgn.contains(", n=") && pgn.contains(", sd="), "{pgn}");
}

#[test]
fn cutechess_round_robin_pairs_colours_openings_and_rank_table() {
    let dir = scratch_in("compat", "cutechess");
    let tool = link(&dir, "cutechess-cli");
    let a = arbiter_bin();
    let line = format!(
        "-engine cmd={a} name=A -engine cmd={a} name=B -engine cmd={a} name=C -each proto=uci nodes=300 \
         -games 2 -rounds 2 -repeat -concurrency 2 -openings file={SHARED}/suites/openings/2moves_v1.epd \
         format=epd -pgnout all.pgn min -epdout end.epd -wait 5"
    );
    let out = run_in(&dir, &tool, &line);
    assert!(out.status.success(), "{}{}", text(&out.stdout), text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(text(&out.stderr).contains("-openings policy=default: Arbiter plays one opening per round"));
    let rows = games(&run_folder(&dir));
    assert_eq!(rows.len(), 12, "3 encounters x 2 rounds x 2 games");
    // Sequential openings (cutechess's default order), one per round shared by its three encounters
    // (cutechess's policy=round; said on stderr); each pair swaps colours.
    for (k, pair) in rows.chunks(2).enumerate() {
        assert_eq!((pair[0].1, pair[1].1), (k / 3, k / 3));
        assert_eq!((&pair[0].2, &pair[0].3), (&pair[1].3, &pair[1].2));
    }
    let mut encounters: Vec<(String, String)> = rows.iter().step_by(2).map(|r| (r.2.clone(), r.3.clone())).collect();
    encounters.sort();
    encounters.dedup();
    assert_eq!(encounters.len(), 3, "{encounters:?}");
    assert!(stdout.contains("Rank Name                          Elo     +/-   Games   Score    Draw"), "{stdout}");
    assert_eq!(stdout.lines().filter(|l| l.starts_with("Finished game ")).count(), 12);
    assert!(stdout.trim_end().ends_with("Finished match"), "{stdout}");
    // cutechess-cli's outcome table at the end (Tournament::outcomes): each engine's 8 games by outcome.
    let table = &stdout[stdout.rfind("\nPlayer: A\n").expect("the outcome table")..];
    for (k, player) in table.split("Player: ").skip(1).enumerate() {
        assert!(player.starts_with(["A", "B", "C"][k]), "{table}");
        let counts: u64 = player.lines().skip(1).filter_map(|l| l.rsplit(": ").next()?.parse::<u64>().ok()).sum();
        assert_eq!(counts, 8, "{table}");
    }
    assert_eq!(std::fs::read_to_string(dir.join("end.epd")).unwrap().lines().count(), 12);
    let pgn = std::fs::read_to_string(dir.join("all.pgn")).unwrap();
    assert_eq!(pgn.matches("[Event ").count(), 12);
    assert!(!pgn.contains("Termination") && !pgn.contains('{'), "minimal PGN: seven tags, no comments");
}

#[test]
fn cutechess_knockout_pyramid_and_seeded_gauntlets() {
    let a = arbiter_bin();
    let book = format!("-openings file={SHARED}/suites/openings/2moves_v1.epd format=epd order=random");
    // A knockout of five engines, two seeded: a bracket of 8 with three byes (beside the top seeds), one
    // first-round game pair, tie-breaks by game pairs, the bracket printed as cutechess-cli prints it.
    let dir = scratch_in("compat", "knockout");
    let line = format!(
        "cutechess -engine cmd={a} name=S1 nodes=3000 -engine cmd={a} name=S2 nodes=2000 -engine cmd={a} name=U3 \
         nodes=100 -engine cmd={a} name=U4 nodes=150 -engine cmd={a} name=U5 nodes=200 -each proto=uci \
         -tournament knockout -seeds 2 -games 2 -concurrency 2 -srand 7 {book}"
    );
    let out = Command::new(a).args(shlex::split(&line).unwrap()).current_dir(&dir).output().unwrap();
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    let ko = run_folder(&dir);
    let bracket = std::fs::read_to_string(ko.join("knockout.txt")).unwrap();
    assert!(stdout.contains(&bracket), "{stdout}");
    let lines: Vec<&str> = bracket.lines().collect();
    // Slots of 8: S1, bye, (U), (U), S2, bye, (U), bye; round 1 on lines 1, 5, 9, 13, round 2 on 3 and 11.
    assert_eq!((lines[0], lines[2]), ("S1", "bye"), "{bracket}");
    assert_eq!(lines.iter().filter(|l| **l == "bye").count(), 3, "{bracket}");
    assert_eq!(lines[1], "\t\tS1", "{bracket}");
    let final_line = lines[7];
    assert!(final_line.starts_with("\t\t\t\t\t\t") && final_line.contains(" ("), "{bracket}");
    let round1 = games(&ko.join("round-1"));
    assert_eq!(round1.len(), 2, "one first-round encounter (two unseeded engines), one pair");
    assert!(round1.iter().all(|g| g.2.starts_with('U') && g.3.starts_with('U')), "{round1:?}");
    assert!(ko.join("round-2").join("summary.json").exists() && ko.join("round-3").join("summary.json").exists());
    for entry in std::fs::read_dir(&ko).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        assert!(name.starts_with("round-") || name.starts_with("knockout."), "{name}");
    }

    // A pyramid: every engine against all before it, the later one White first.
    let dir = scratch_in("compat", "pyramid");
    let engines =
        format!("-engine cmd={a} name=A -engine cmd={a} name=B -engine cmd={a} name=C -each proto=uci nodes=100");
    let line = format!("cutechess {engines} -tournament pyramid -games 2 {book}");
    let out = Command::new(a).args(shlex::split(&line).unwrap()).current_dir(&dir).output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let firsts: Vec<(String, String)> =
        games(&run_folder(&dir)).iter().step_by(2).map(|g| (g.2.clone(), g.3.clone())).collect();
    let pairs: Vec<(&str, &str)> = firsts.iter().map(|(w, b)| (w.as_str(), b.as_str())).collect();
    assert_eq!(pairs, [("B", "A"), ("C", "A"), ("C", "B")]);

    // Seeded gauntlets: cutechess-cli's seeds do not meet, fastchess's do.
    for (tool, expected) in
        [("cutechess", vec![("A", "C"), ("B", "C")]), ("fastchess", vec![("A", "B"), ("A", "C"), ("B", "C")])]
    {
        let dir = scratch_in("compat", &format!("seeds-{tool}"));
        let line = format!("{tool} {engines} -tournament gauntlet -seeds 2 -rounds 1 -games 2 {book}");
        let line = line.replace("-rounds 1 -games 2", if tool == "cutechess" { "-games 2" } else { "-rounds 1" });
        let out = Command::new(a).args(shlex::split(&line).unwrap()).current_dir(&dir).output().unwrap();
        assert!(out.status.success(), "{line}: {}", text(&out.stderr));
        let mut pairs: Vec<(String, String)> = games(&run_folder(&dir))
            .iter()
            .map(|g| {
                let mut two = [g.2.clone(), g.3.clone()];
                two.sort();
                (two[0].clone(), two[1].clone())
            })
            .collect();
        pairs.dedup();
        let expected: Vec<(String, String)> = expected.iter().map(|(x, y)| (x.to_string(), y.to_string())).collect();
        assert_eq!(pairs, expected, "{tool}");
    }
}

#[test]
fn fastchess_documentation_examples_run() {
    let dir = scratch_in("compat", "fastchess-doc");
    let a = arbiter_bin();
    // man.md's SPRT example (engines, book, limits and lengths ours): per-engine nodes, Threads options, -each tc.
    let line = format!(
        "fastchess -engine cmd={a} name=Engine1 option.Threads=1 nodes=400 -engine cmd={a} name=Engine2 \
         option.Threads=1 nodes=200 -openings file={SHARED}/suites/openings/2moves_v1.epd format=epd order=random \
         -each tc=inf -resign movecount=3 score=600 -draw movenumber=34 movecount=8 score=20 \
         -sprt elo0=0 elo1=2 alpha=0.05 beta=0.05 -rounds 3 -concurrency 2 -pgnout notation=san nodes=true \
         seldepth=true pv=true file=./games/sprt.pgn -output format=cutechess"
    );
    std::fs::create_dir_all(dir.join("games")).unwrap();
    let out = Command::new(a).args(shlex::split(&line).unwrap()).current_dir(&dir).output().unwrap();
    assert!(out.status.success(), "{}{}", text(&out.stdout), text(&out.stderr));
    let stdout = text(&out.stdout);
    assert_eq!(stdout.lines().filter(|l| l.starts_with("Score of Engine1 vs Engine2: ")).count(), 6 + 1, "{stdout}");
    assert!(stdout.contains("SPRT: llr "), "{stdout}");
    assert!(stdout.contains("Elo difference: "), "{stdout}");
    let pgn = std::fs::read_to_string(dir.join("games/sprt.pgn")).unwrap();
    assert_eq!(pgn.matches("[Event ").count(), 6);
    // fastchess's comment fields: `{+0.12/5, n=400, sd=9, pv="e2e4 e7e5"}` (no time at fixed nodes).
    let comments: Vec<&str> = pgn.split('{').skip(1).filter_map(|c| c.split('}').next()).collect();
    let nodes: Vec<u64> = comments
        .iter()
        .map(|c| {
            let parts: Vec<&str> = c.split(", ").collect();
            assert!(parts.len() == 4 && parts[0].contains('/') && parts[2].starts_with("sd="), "{c}");
            assert!(parts[3].starts_with("pv=\"") && parts[3].ends_with('"'), "{c}");
            parts[1].strip_prefix("n=").expect("n=").parse().unwrap()
        })
        .collect();
    assert!(nodes.len() > 50, "{pgn}");

    // -quick spelt out as fastchess's parseQuick (tc=10+0.1, random book order, cutechess output), later
    // options overriding it; -show-latency puts latency= into the move comments.
    let line = format!(
        "fastchess -quick cmd={a} cmd={a} book={SHARED}/suites/openings/2moves_v1.epd -rounds 1 -concurrency 1 \
         -each nodes=200 -show-latency -pgnout file=quick.pgn"
    );
    let out = Command::new(a).args(shlex::split(&line).unwrap()).current_dir(&dir).output().unwrap();
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("Score of arbiter1 vs arbiter2: "), "cutechess output, names made distinct: {stdout}");
    let pgn = std::fs::read_to_string(dir.join("quick.pgn")).unwrap();
    assert_eq!(pgn.matches("[Event ").count(), 2);
    assert!(pgn.contains("[TimeControl \"10+0.1\"]") && pgn.contains(", latency="), "{pgn}");
    assert!(nodes.iter().all(|&n| (1..=400).contains(&n)), "{nodes:?}");
}

#[test]
fn options_arbiter_cannot_carry_are_refused_by_name() {
    let dir = scratch_in("compat", "refused");
    let book = format!("-openings file={SHARED}/suites/openings/2moves_v1.epd format=epd");
    let base = format!("-engine cmd=x name=a -engine cmd=y name=b -each nodes=10 -games 2 {book}");
    for (tool, extra, message) in [
        ("cutechess", "-debug yes", "-debug: takes no value, got yes"),
        ("cutechess", "-frobnicate 3", "-frobnicate: unknown option of cutechess-cli"),
        ("cutechess", "-variant atomic", "-variant atomic: Arbiter plays standard chess and fischerandom"),
        ("fastchess", "-tournament knockout", "-tournament knockout: not supported by Arbiter"),
        ("cutechess", "-games 3", "3 games per encounter (-games x -rounds)"),
        ("cutechess", "-games 1 -rounds 5", "5 games per encounter"),
        ("cutechess", "-each book=b.bin", "/b.bin: cannot read"),
        ("fastchess", "-each proto=xboard", "expected uci (fastchess speaks UCI only)"),
        ("fastchess", "-log file=x.log compress=true", "compress=true: Arbiter writes the log uncompressed"),
        ("fastchess", "-pgnout file=x.pgn notation=lan", "notation=lan: Arbiter writes SAN only"),
        ("fastchess", "-report penta=false", "Arbiter reports pentanomial counts always"),
        ("fastchess", "-pgnout file=/", "--pgnout /: is a folder, not a file"),
        ("cutechess", "-epdout /no/such/dir/end.epd", "the folder /no/such/dir does not exist"),
        ("fastchess", "-pgnout file=", "-pgnout file=: the file name is missing"),
        ("cutechess", "-event", "-event: a value is missing"),
        ("cutechess", "-openings file=b.epd", "reads openings as PGN by default; add format=epd"),
        ("cutechess", "-tbpieces 5", "-tbpieces: give the tables with -tb PATHS"),
        ("cutechess", "-concurrency 2 -concurrency x", "-concurrency x: expected a whole number"),
    ] {
        let line = format!("{tool} {base} {extra}");
        let out = Command::new(arbiter_bin()).args(shlex::split(&line).unwrap()).current_dir(&dir).output().unwrap();
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{line}: {stderr}");
        assert!(stderr.contains(message), "{line}: {stderr}");
    }
    let out = Command::new(arbiter_bin()).args(["cutechess", "-engine", "cmd=x"]).current_dir(&dir).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("cutechess-cli needs at least two -engine options"), "{}", text(&out.stderr));
    let out = Command::new(arbiter_bin()).args(["fastchess", "-version"]).output().unwrap();
    assert!(text(&out.stdout).starts_with("fastchess command line of arbiter "), "{}", text(&out.stdout));
    assert!(!dir.join("results").exists(), "nothing was played");
}

#[test]
fn match_json_verdicts_and_exit_codes_for_scripts() {
    let dir = scratch_in("compat", "verdicts");
    let play = |name: &str, extra: &[&str]| {
        let out_dir = dir.join(name);
        let mut args = vec!["match", "--nodes", "300", "--format", "json", "--verdict-exit", "--out"];
        args.push(out_dir.to_str().unwrap());
        args.extend_from_slice(extra);
        Command::new(arbiter_bin()).args(&args).output().unwrap()
    };
    // seed is far better than nomob at -500 Elo, far worse than at +400: H1, then H0; a fixed length, undecided.
    for (name, extra, code, decision) in [
        ("h1", ["--sprt", "elo0=-500,elo1=-400"], 0, "accept_h1"),
        ("h0", ["--sprt", "elo0=400,elo1=500"], 10, "accept_h0"),
        ("none", ["--games", "4"], 11, ""),
    ] {
        let out = play(name, &extra);
        assert_eq!(out.status.code(), Some(code), "{name}: {}", text(&out.stderr));
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is one JSON object");
        assert_eq!(json, summary(&dir.join(name)), "the object is summary.json's");
        if !decision.is_empty() {
            assert!(json["sprt"].to_string().contains(decision), "{name}: {}", json["sprt"]);
        }
    }
    // The cutechess-cli command line with Arbiter's --format json and --verdict-exit in front: its lines, then
    // the JSON object as the last line.
    let a = arbiter_bin();
    let line = format!(
        "cutechess --format json --verdict-exit -engine cmd={a} name=A -engine cmd={a} name=B -each proto=uci \
         nodes=300 -sprt elo0=400 elo1=500 alpha=0.05 beta=0.05 -games 2 -rounds 50"
    );
    let out = Command::new(a).args(shlex::split(&line).unwrap()).current_dir(&dir).output().unwrap();
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(10), "identical engines: H0 of +400 Elo: {stdout}");
    let last = stdout.lines().last().unwrap();
    let json: serde_json::Value = serde_json::from_str(last).expect("the last line is one JSON object");
    assert!(json["sprt"].to_string().contains("accept_h0"), "{json}");
    assert!(stdout.contains("Finished match\n{"), "{stdout}");
}

#[test]
fn cutechess_engines_json_and_the_start_position_without_openings() {
    let dir = scratch_in("compat", "engines-json");
    let a = arbiter_bin();
    // cutechess-cli's engines.json as its GUI saves it (EngineConfiguration::toVariant): options with their
    // types, a timeoutScaleFactor of 1, an empty stderrFile.
    let json = serde_json::json!([
        {"name": "Fast", "command": format!("{a} uci"), "workingDirectory": dir, "protocol": "uci",
         "stderrFile": "", "timeoutScaleFactor": 1.0,
         "options": [{"name": "Hash", "type": "spin", "value": 16, "default": 16, "min": 1, "max": 1024}]},
        {"name": "Slow", "command": format!("{a} uci"), "protocol": "uci"},
        {"name": "Lies", "command": "x", "ponder": true, "stderrFile": "err.txt"}
    ]);
    std::fs::write(dir.join("engines.json"), serde_json::to_string_pretty(&json).unwrap()).unwrap();
    let tool = link(&dir, "cutechess-cli");
    let out = run_in(&dir, &tool, "-engines");
    assert_eq!(text(&out.stdout), "Fast\nSlow\nLies\n");
    let out = run_in(&dir, &tool, "-engine conf=Fast -engine conf=Slow nodes=200 -each nodes=300 -games 2 -rounds 2");
    assert!(out.status.success(), "{}{}", text(&out.stdout), text(&out.stderr));
    let run = run_folder(&dir);
    let rows = games(&run);
    assert_eq!(rows.len(), 4);
    assert!(rows.iter().all(|r| r.1 == 0), "one opening: the start position");
    let csv = std::fs::read_to_string(run.join("games.csv")).unwrap();
    assert_eq!(csv.matches(",rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").count(), 4, "{csv}");
    let plan = std::fs::read_to_string(run.join("run.toml")).unwrap();
    assert!(plan.contains("Hash") && plan.contains("nodes = 300"), "the entry's options, -each last: {plan}");
    for (line, message) in [
        (
            "-engine conf=Nope -engine conf=Slow -each nodes=1 -games 2",
            "has no engine of that name (it has: Fast, Slow, Lies)",
        ),
        ("-engine conf=Lies -engine conf=Slow -each nodes=1 -games 2", "stderrFile: not supported"),
    ] {
        let out = run_in(&dir, &tool, line);
        assert_eq!(out.status.code(), Some(2), "{line}");
        assert!(text(&out.stderr).contains(message), "{line}: {}", text(&out.stderr));
    }
}

#[test]
fn cutechess_ponder_whitepov_and_initstr_reach_stockfish() {
    const STOCKFISH: &str = "/usr/games/stockfish";
    assert!(std::path::Path::new(STOCKFISH).exists(), "{STOCKFISH} is missing: run the README test command");
    let dir = scratch_in("compat", "ponder");
    // cutechess-cli's engine keys ponder, whitepov and initstr (help.txt), with -debug showing every line.
    let line = format!(
        "cutechess -engine cmd={STOCKFISH} name=P ponder initstr='setoption name Hash value 8\\nisready' \
         -engine cmd={STOCKFISH} name=W whitepov -each proto=uci tc=1+0.03 -games 2 -debug"
    );
    let out = Command::new(arbiter_bin()).args(shlex::split(&line).unwrap()).current_dir(&dir).output().unwrap();
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    let sent = |engine: &str, what: &str| {
        stdout.lines().filter(|l| l.contains(&format!(" {engine} pid ")) && l.contains(what)).count()
    };
    assert!(sent("P", "> setoption name Ponder value true") >= 1, "{stdout}");
    assert!(sent("P", "> go ponder ") > 5 && sent("P", "> ponderhit") > 0, "P ponders, and hits: {stdout}");
    assert_eq!(sent("W", "> go ponder "), 0, "W does not ponder");
    // initstr goes first, before uci; its lines split at \n.
    let first: Vec<&str> = stdout.lines().filter(|l| l.contains(" P pid ") && l.contains(" > ")).take(3).collect();
    assert!(first[0].ends_with("> setoption name Hash value 8") && first[1].ends_with("> isready"), "{first:?}");
    assert!(first[2].ends_with("> uci"), "{first:?}");
    // whitepov is recorded for W (its negation as Black: player::uci's unit test).
    let run = run_folder(&dir);
    let plan = std::fs::read_to_string(run.join("run.toml")).unwrap();
    assert!(plan.contains("white_pov = true") && plan.contains("ponder = true"), "{plan}");
}
