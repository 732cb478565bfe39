//! `arbiter elo` end to end: the rating list of a real three-engine round robin played by `arbiter match`, the
//! exact list of a hand-written `games.csv`, and bad input (exit code 2, the file and line named).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A fresh, empty folder for one test under `target/tmp`.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("elo-tests").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create the scratch folder");
    dir
}

fn arbiter(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run the arbiter binary")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs a command that must succeed; returns its stdout.
fn arbiter_ok(args: &[&str]) -> String {
    let out = arbiter(args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "arbiter {args:?} failed\nstdout:\n{}\nstderr:\n{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    text(&out.stdout)
}

/// Runs a command that must fail with exit code 2; returns its stderr.
fn arbiter_bad_input(args: &[&str]) -> String {
    let out = arbiter(args);
    assert_eq!(out.status.code(), Some(2), "arbiter {args:?}: expected exit 2\nstderr:\n{}", text(&out.stderr));
    text(&out.stderr)
}

fn path_str(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

/// The table rows of `arbiter elo`'s stdout: the lines after the `Rank  Name ...` header, split on whitespace.
fn table_rows(stdout: &str) -> Vec<Vec<String>> {
    let mut lines = stdout.lines().skip_while(|l| !l.starts_with("Rank  Name"));
    assert!(lines.next().is_some(), "no table in:\n{stdout}");
    lines.map(|l| l.split_whitespace().map(str::to_string).collect()).collect()
}

#[test]
fn round_robin_of_three_engines() {
    let dir = scratch("round-robin");
    let out = dir.join("run");
    arbiter_ok(&[
        "match",
        "--engine",
        "name=seed",
        "--engine",
        "name=nomob",
        "--engine",
        "name=s2,config=configs/seedv0.toml",
        "--nodes",
        "300",
        "--rounds",
        "4",
        "--concurrency",
        "2",
        "--out",
        path_str(&out),
    ]);
    let games_csv = out.join("games.csv");
    let ratings_csv = dir.join("ratings.csv");
    let stdout = arbiter_ok(&["elo", path_str(&games_csv), "--csv", path_str(&ratings_csv)]);
    assert!(stdout.starts_with("3 players, 24 games (12 game pairs) from 1 file\n"), "{stdout}");

    // Points and games per player, counted here from games.csv.
    let mut expected: HashMap<String, (u64, f64, u64)> = HashMap::new();
    let mut reader = csv::Reader::from_path(&games_csv).expect("games.csv");
    for record in reader.records() {
        let record = record.expect("a games.csv row");
        let (white, black, result) = (&record[3], &record[4], &record[5]);
        let white_points = match result {
            "1-0" => 1.0,
            "0-1" => 0.0,
            "1/2-1/2" => 0.5,
            other => panic!("result {other}"),
        };
        for (name, points) in [(white, white_points), (black, 1.0 - white_points)] {
            let entry = expected.entry(name.to_string()).or_default();
            entry.0 += 1;
            entry.1 += points;
            entry.2 += u64::from(result == "1/2-1/2");
        }
    }

    let rows = table_rows(&stdout);
    assert_eq!(rows.len(), 3, "{stdout}");
    let elos: Vec<f64> = rows.iter().map(|r| r[2].parse().expect("an Elo")).collect();
    assert!(elos.windows(2).all(|w| w[0] >= w[1]), "ranks not ordered by Elo:\n{stdout}");
    for (k, row) in rows.iter().enumerate() {
        assert_eq!(row[0], (k + 1).to_string());
        assert_eq!(row[4], "16", "{stdout}");
        assert!(expected.contains_key(&row[1]), "{stdout}");
    }
    assert_eq!(rows[2][7], "-");

    let mut reader = csv::Reader::from_path(&ratings_csv).expect("the ratings CSV");
    let header: Vec<String> = reader.headers().expect("a header").iter().map(str::to_string).collect();
    assert_eq!(
        header,
        ["rank", "name", "elo", "lower", "upper", "games", "points", "score_pct", "draws", "draws_pct", "los_pct"]
    );
    let records: Vec<csv::StringRecord> = reader.records().map(|r| r.expect("a ratings row")).collect();
    assert_eq!(records.len(), 3);
    let mut mean = 0.0;
    for (k, (record, row)) in records.iter().zip(&rows).enumerate() {
        assert_eq!(&record[0], (k + 1).to_string());
        assert_eq!(&record[1], row[1]);
        let elo: f64 = record[2].parse().expect("elo");
        mean += elo / 3.0;
        assert_eq!(format!("{elo:.1}"), row[2].replace("-0.0", "0.0"));
        let (lower, upper): (f64, f64) = (record[3].parse().expect("lower"), record[4].parse().expect("upper"));
        assert!(lower <= elo + 0.01 && elo <= upper + 0.01, "{record:?}");
        let (games, points, draws) = expected[&record[1]];
        assert_eq!(record[5].parse::<u64>().unwrap(), games);
        assert_eq!(record[6].parse::<f64>().unwrap(), points);
        assert_eq!(&record[7], format!("{:.2}", 100.0 * points / games as f64));
        assert_eq!(record[8].parse::<u64>().unwrap(), draws);
        let los = &record[10];
        assert_eq!(los.is_empty(), k == 2);
    }
    assert!(mean.abs() < 0.01, "the mean rating is {mean}");

    // A folder stands for its games.csv, and the same seed gives the same list.
    let again = arbiter_ok(&["elo", path_str(&out)]);
    assert_eq!(again, stdout);
}

/// A hand-written games.csv: `a` scores 1.5 of 2 in each of 3 pairs against `b` (a win with White, a draw with
/// Black), so every bootstrap resample is the same and the list is exact.
fn write_two_player_file(dir: &Path) -> PathBuf {
    let path = dir.join("games.csv");
    let mut text = String::from("pair,game,opening,white,black,result,termination,plies,start_fen\n");
    for pair in 0..3 {
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        text.push_str(&format!("{pair},{},0,a,b,1-0,checkmate,40,{fen}\n", 2 * pair));
        text.push_str(&format!("{pair},{},0,b,a,1/2-1/2,threefold repetition,60,{fen}\n", 2 * pair + 1));
    }
    std::fs::write(&path, text).expect("write games.csv");
    path
}

#[test]
fn two_players_give_the_match_elo_exactly() {
    let dir = scratch("two-players");
    let games = write_two_player_file(&dir);
    // A 75% score is elo_from_score(0.75) = 190.85 Elo, split around the mean 0.
    assert_eq!(
        arbiter_ok(&["elo", path_str(&games)]),
        "2 players, 6 games (3 game pairs) from 1 file\n\
         Elo: maximum likelihood over all games (logistic, a draw is half a win and half a loss), mean 0\n\
         -/+ (95%): the 2.5% and 97.5% percentiles of 1000 bootstrap resamples of game pairs (seed 1)\n\
         LOS: the share of those resamples that rate the player above the next one\n\
         \n\
         Rank  Name    Elo  -/+ (95%)  Games  Score  Draws     LOS\n\
         \x20  1  a      95.4  +0.0/+0.0      6  75.0%  50.0%  100.0%\n\
         \x20  2  b     -95.4  +0.0/+0.0      6  25.0%  50.0%       -\n"
    );
    let csv = dir.join("ratings.csv");
    let stdout =
        arbiter_ok(&["elo", path_str(&games), "--anchor", "b=1000", "--bootstrap", "0", "--csv", path_str(&csv)]);
    assert!(stdout.contains("anchored at b = 1000.0\n"), "{stdout}");
    assert!(stdout.contains("   1  a     1190.8          -      6  75.0%  50.0%    -\n"), "{stdout}");
    assert_eq!(
        std::fs::read_to_string(&csv).unwrap(),
        "rank,name,elo,lower,upper,games,points,score_pct,draws,draws_pct,los_pct\n\
         1,a,1190.85,,,6,4.5,75.00,3,50.00,\n\
         2,b,1000.00,,,6,1.5,25.00,3,50.00,\n"
    );
}

#[test]
fn a_perfect_score_is_rated_with_a_note() {
    let dir = scratch("perfect");
    let path = dir.join("games.csv");
    std::fs::write(
        &path,
        "pair,game,opening,white,black,result,termination,plies,start_fen\n\
         0,0,0,a,b,1-0,checkmate,40,x\n\
         0,1,0,b,a,0-1,checkmate,40,x\n",
    )
    .unwrap();
    let stdout = arbiter_ok(&["elo", path_str(&path)]);
    assert!(
        stdout.contains(
            "note: the maximum-likelihood ratings do not exist (perfect score: a (100.0%), b (0.0%)); \
             1 virtual draw added between every two players that met\n"
        ),
        "{stdout}"
    );
    // 2.5 points of 3 with the virtual draw: elo_from_score(5/6) = 279.6 Elo apart.
    assert!(stdout.contains("   1  a      139.8  +0.0/+0.0      2  100.0%   0.0%  100.0%\n"), "{stdout}");
}

#[test]
fn bad_input_names_the_file_and_line() {
    let dir = scratch("bad-input");
    let good = write_two_player_file(&dir);
    let header = "pair,game,opening,white,black,result,termination,plies,start_fen\n";
    let cases = [
        (
            "result.csv",
            format!("{header}0,0,0,a,b,1-0,checkmate,40,x\n0,1,0,b,a,*,abort,3,x\n"),
            ":3: result \"*\": expected 1-0, 0-1 or 1/2-1/2",
        ),
        ("pair.csv", format!("{header}x,0,0,a,b,1-0,checkmate,40,x\n"), ":2: pair \"x\" is not a non-negative integer"),
        ("fields.csv", format!("{header}0,0,0,a,b,1-0\n"), ":2: 6 fields, expected 9"),
        ("self.csv", format!("{header}0,0,0,a,a,1-0,checkmate,40,x\n"), ":2: \"a\" plays itself"),
        ("columns.csv", "pair,white,black\n0,a,b\n".to_string(), ": no \"result\" column in the header"),
    ];
    for (name, content, message) in cases {
        let path = dir.join(name);
        std::fs::write(&path, content).unwrap();
        let stderr = arbiter_bad_input(&["elo", path_str(&path)]);
        assert!(stderr.contains(&format!("{}{message}", path.display())), "{name}: {stderr}");
    }

    let empty = dir.join("empty.csv");
    std::fs::write(&empty, header).unwrap();
    let stderr = arbiter_bad_input(&["elo", path_str(&empty)]);
    assert!(stderr.contains(&format!("no games in {}", empty.display())), "{stderr}");

    let missing = dir.join("missing.csv");
    let stderr = arbiter_bad_input(&["elo", path_str(&missing)]);
    assert!(stderr.contains(&format!("{}: cannot read", missing.display())), "{stderr}");

    let stderr = arbiter_bad_input(&["elo", path_str(&good), "--anchor", "c=2000"]);
    assert!(stderr.contains("--anchor c=2000: no player named \"c\" (players: a, b)"), "{stderr}");
    let stderr = arbiter_bad_input(&["elo", path_str(&good), "--anchor", "a"]);
    assert!(stderr.contains("--anchor \"a\": expected NAME=ELO"), "{stderr}");

    // Two files with no common player: the groups cannot be compared.
    let other = dir.join("other.csv");
    std::fs::write(&other, format!("{header}0,0,0,c,d,1-0,checkmate,40,x\n0,1,0,d,c,1-0,checkmate,40,x\n")).unwrap();
    let stderr = arbiter_bad_input(&["elo", path_str(&good), path_str(&other)]);
    assert!(stderr.contains("c, d never met a or anyone who met them"), "{stderr}");
}
