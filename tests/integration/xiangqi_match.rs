//! Xiangqi matches through the runner: the built-in Xiangqi engine against the real Fairy-Stockfish
//! (`apt-get install fairy-stockfish`, `UCI_Variant` xiangqi set by the runner, one thread, fixed nodes), and
//! `arbiter match --game xiangqi` end to end: self-play from Arbiter's Xiangqi book, the record files read back,
//! a resumed run that replays to the same games, and bad input refused with exit code 2.

use arbiter::engine::{Build, EngineGame};
use arbiter::game::GameResult;
use arbiter::game::RuleEnd;
use arbiter::game::opening::read_rules_pgn;
use arbiter::player::{EngineSpec, MoveLimit, Origin, UciEngine};
use arbiter::runner::Opening;
use arbiter::runner::game::{EndReason, GameSettings, play_game};
use arbiter::xiangqi::{self, XiangqiGame};
use std::path::{Path, PathBuf};
use std::process::Command;

const FSF: &str = "/usr/games/fairy-stockfish";

fn fsf_spec() -> EngineSpec {
    assert!(Path::new(FSF).exists(), "{FSF} is missing: apt-get install --no-install-recommends fairy-stockfish");
    let mut engine = UciEngine::new(FSF);
    engine.options.push(("Threads".to_string(), "1".to_string()));
    EngineSpec::uci("fsf", engine)
}

#[test]
fn two_games_against_fairy_stockfish_are_legal_to_the_end() {
    let seed = Build::named(EngineGame::Xiangqi, "seed").unwrap();
    let ours = EngineSpec::from_build("seed", seed, Origin::Named);
    let mut ours = ours.create::<XiangqiGame>().unwrap();
    let mut fsf = fsf_spec().create::<XiangqiGame>().unwrap();
    let opening = Opening::<XiangqiGame> { start: xiangqi::Position::startpos(), moves: Vec::new(), line: 1 };
    let settings = GameSettings::with_limit(MoveLimit { nodes: Some(500), ..MoveLimit::default() });
    let mut results = Vec::new();
    for ours_red in [true, false] {
        let record = if ours_red {
            play_game(ours.as_mut(), fsf.as_mut(), &opening, &settings)
        } else {
            play_game(fsf.as_mut(), ours.as_mut(), &opening, &settings)
        };
        assert!(record.note.is_none(), "{record:?}");
        results.push((record.result, record.end, record.moves.len()));
    }
    // One thread at fixed nodes replays exactly: Fairy-Stockfish 11.1 mates the seed build with either colour.
    let mate = EndReason::Rules(RuleEnd::Checkmate);
    let expected = [(GameResult::BlackWins, mate, 54), (GameResult::WhiteWins, mate, 41)];
    assert_eq!(results, expected);
}

fn arbiter(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("arbiter runs")
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-xiangqi-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The games of PGN text, sorted (games are written in the order they end), each without the blank lines
/// around it: the last game of a file has none after it, and which game comes last depends on which of the
/// games played at the same time ends last.
fn games_of(pgn: &str) -> Vec<String> {
    let mut games: Vec<String> =
        pgn.split("[Event ").map(str::trim).filter(|g| !g.is_empty()).map(String::from).collect();
    games.sort();
    games
}

/// The games of a run folder's `games.pgn`, without the `Date` tag (the day it was played).
fn undated_pgn(dir: &Path) -> String {
    let text = std::fs::read_to_string(dir.join("games.pgn")).unwrap();
    text.lines().filter(|l| !l.starts_with("[Date ")).collect::<Vec<_>>().join("\n")
}

#[test]
fn match_game_xiangqi_self_play_writes_records_that_read_back_and_resume() {
    let dir = temp_dir("selfplay");
    let out = dir.to_str().unwrap();
    let args = ["match", "--game", "xiangqi", "--games", "4", "--nodes", "300", "--concurrency", "2", "--out", out];
    let run = arbiter(&args);
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&run.stderr));
    assert!(stdout.contains("  game       xiangqi\n"), "{stdout}");
    assert!(stdout.contains("suites/openings/xiangqi-book.epd"), "{stdout}");
    let csv = std::fs::read_to_string(dir.join("games.csv")).unwrap();
    assert_eq!(csv.lines().count(), 5, "{csv}");
    let pgn = std::fs::read_to_string(dir.join("games.pgn")).unwrap();
    let games = read_rules_pgn::<XiangqiGame>(&pgn, "games.pgn").unwrap();
    assert_eq!(games.len(), 4);
    for game in &games {
        let tag = |name: &str| game.tags.iter().find(|t| t.0 == name).map(|t| t.1.clone()).unwrap();
        assert_eq!(tag("Variant"), "xiangqi");
        assert_eq!(game.result.map(|r| r.pgn().to_string()), Some(tag("Result")));
        assert_eq!(game.game.moves().len().to_string(), tag("PlyCount"));
        // The first ply is the book's: the start is the book position, not the Xiangqi start.
        assert_ne!(tag("FEN"), xiangqi::START_FEN);
    }

    // Drop the last two games from games.csv: the resume drops them from games.pgn and plays them again, to
    // the same moves (fixed nodes).
    let before = undated_pgn(&dir);
    let kept: Vec<&str> = csv.lines().take(3).collect();
    std::fs::write(dir.join("games.csv"), format!("{}\n", kept.join("\n"))).unwrap();
    let resumed = arbiter(&["match", "--resume", out]);
    assert!(resumed.status.success(), "{}", String::from_utf8_lossy(&resumed.stderr));
    let stderr = String::from_utf8_lossy(&resumed.stderr);
    assert!(stderr.contains("resuming") && stderr.contains("2 of 4 games recorded"), "{stderr}");
    let mut rows: Vec<String> =
        std::fs::read_to_string(dir.join("games.csv")).unwrap().lines().map(String::from).collect();
    let mut expected: Vec<String> = csv.lines().map(String::from).collect();
    rows.sort();
    expected.sort();
    assert_eq!(rows, expected);
    assert_eq!(games_of(&undated_pgn(&dir)), games_of(&before));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn match_game_xiangqi_against_fairy_stockfish_from_the_command_line() {
    let dir = temp_dir("fsf");
    let out = dir.to_str().unwrap();
    let fsf = format!("name=fsf,cmd={FSF},option.Threads=1");
    let args = ["match", "--game", "xiangqi", "--engine", "name=seed", "--engine", &fsf, "--games", "2"];
    let run = arbiter(&[&args[..], &["--nodes", "400", "--concurrency", "1", "--out", out]].concat());
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&run.stderr));
    let csv = std::fs::read_to_string(dir.join("games.csv")).unwrap();
    assert_eq!(csv.lines().count(), 3, "{csv}");
    for row in csv.lines().skip(1) {
        let termination = row.split(',').nth(6).unwrap();
        assert!(
            ["checkmate", "stalemate", "threefold repetition", "perpetual check", "sixty-move rule"]
                .contains(&termination),
            "{row}"
        );
    }
    let pgn = std::fs::read_to_string(dir.join("games.pgn")).unwrap();
    assert_eq!(read_rules_pgn::<XiangqiGame>(&pgn, "games.pgn").unwrap().len(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_xiangqi_match_input_exits_2_with_the_reason() {
    let dir = temp_dir("bad");
    std::fs::create_dir_all(&dir).unwrap();
    let book = dir.join("book.epd");
    std::fs::write(&book, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - -\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\n").unwrap();
    let out = dir.join("run");
    let cases: [(&[&str], &str); 6] = [
        (
            &["--engine", "name=seed", "--engine", "name=f,cmd=/usr/games/fairy-stockfish,option.UCI_Variant=chess"],
            "--engine: f: option.UCI_Variant= cannot be given with --game xiangqi: Arbiter sets UCI_Variant to xiangqi",
        ),
        (
            &["--engine", "name=seed", "--engine", "name=nomob"],
            "`nomob` has no config= or cmd= and is not a built-in build (seed, nopsqt)",
        ),
        (
            &["--engine", "name=seed", "--engine", "name=c,config=configs/seed.toml"],
            "--engine: configs/seed.toml: a chess build, but this match plays xiangqi; give a Xiangqi build (the \
             layout of configs/xiangqi/seed.toml)",
        ),
        (&["--variant", "chess960"], "--variant chess960 is a chess variant"),
        (&["--openings", book.to_str().unwrap()], "book.epd:2:"),
        (
            &["--engine", "name=seed", "--engine", "name=sf,cmd=/usr/games/stockfish,nodes=300"],
            "does not offer \"xiangqi\"",
        ),
    ];
    for (extra, reason) in cases {
        let args = [&["match", "--game", "xiangqi", "--games", "2", "--out", out.to_str().unwrap()], extra].concat();
        let run = arbiter(&args);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(reason), "{args:?}: {stderr}");
        assert!(!out.join("games.csv").exists(), "{args:?} wrote results");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn book_out_folder_is_refused_even_with_force() {
    let dir = temp_dir("bookdir");
    std::fs::create_dir_all(&dir).unwrap();
    let d = dir.to_str().unwrap();
    for force in [&[][..], &["--force"][..]] {
        let args =
            [&["book", "--game", "xiangqi", "--positions", "2", "--nodes", "100", "--out", d][..], force].concat();
        let run = arbiter(&args);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr, format!("error: --out {d}: a folder; expected a file (such as {d}/book.epd)\n"), "{args:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
