//! `arbiter tune` end to end, with the real binary on the first 20,000 positions of the shared Stockfish
//! self-play set: the tuned build, the loss curve files, the game-wise split, `--validate` playing a real
//! match; on its first 3,000 positions, the kept best epoch, early stopping and the small-set warning, and a
//! tuned build that does not lose heavily to its start build; bad input (a bad data line, bad flags) reported
//! with exit codes.

use arbiter::engine::chess::EngineConfig;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BOOK: &str = "../shared/data/tuning/selfplay-sf15-n1500-quiet.book";
const META: &str = "../shared/data/tuning/selfplay-sf15-n1500-quiet.meta.tsv";

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-tune-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The first `n` lines of the shared set and of its meta file, written into `dir`.
fn head_of_the_set(dir: &Path, n: usize) -> (PathBuf, PathBuf) {
    let head = |path: &str| -> String {
        std::fs::read_to_string(path).expect("the shared tuning file").lines().take(n).flat_map(|l| [l, "\n"]).collect()
    };
    let (book, meta) = (dir.join("head.book"), dir.join("head.meta.tsv"));
    std::fs::write(&book, head(BOOK)).unwrap();
    std::fs::write(&meta, head(META)).unwrap();
    (book, meta)
}

fn arbiter(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arbiter")).args(args).current_dir(env!("CARGO_MANIFEST_DIR")).output().unwrap()
}

fn text(output: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr))
}

#[test]
fn tune_writes_a_better_build_and_validates_it_by_a_match() {
    let dir = temp_dir("run");
    let (book, meta) = head_of_the_set(&dir, 20_000);
    let out = dir.join("small.toml");
    let output = arbiter(&[
        "tune",
        "--data",
        book.to_str().unwrap(),
        "--games",
        meta.to_str().unwrap(),
        "--config",
        "seed",
        "--out",
        out.to_str().unwrap(),
        "--epochs",
        "30",
        "--threads",
        "2",
        "--validate",
        &format!("nodes=300,games=4,out={}", dir.join("match").display()),
    ]);
    let all = text(&output);
    assert!(output.status.success(), "{all}");
    assert!(all.contains("20000 positions, 0 bad lines"), "{all}");
    assert!(all.contains("split by game: train"), "{all}");
    // The tuned build loads, keeps every name and shape, and fits the training set better than the seed.
    let config = EngineConfig::load(&out).unwrap();
    assert_eq!(config.name, "small");
    let line = all.lines().find(|l| l.starts_with("MSE of the build written (epoch ")).expect("the MSE line");
    let number_after = |key: &str| -> f64 {
        let at = line.find(key).unwrap() + key.len();
        line[at..].split([' ', ',', ')']).next().unwrap().parse().unwrap()
    };
    assert!(number_after("train ") < number_after("(start "), "{line}");
    // One CSV row per epoch after the header, and the chart.
    let csv = std::fs::read_to_string(out.with_extension("loss.csv")).unwrap();
    assert_eq!(csv.lines().count(), 31);
    assert!(csv.starts_with("epoch,train_mse,validation_mse,lr,ns_per_position\n"));
    assert!(std::fs::read_to_string(out.with_extension("loss.svg")).unwrap().starts_with("<svg"));
    // --validate played the tuned build against the start build.
    assert!(all.contains("validating: arbiter match --engine name=tuned,config="), "{all}");
    assert!(all.contains("Score of tuned vs seed"), "{all}");
    assert_eq!(std::fs::read_to_string(dir.join("match/games.csv")).unwrap().lines().count(), 5);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// On 3,000 positions (2,701 training, 460 free weights) the validation MSE is lowest after 4 epochs and then
/// rises while the training MSE keeps falling. Before the tuner kept the best epoch, the 400th epoch's build
/// scored 13.3% against the seed in this very match (7 - 51 - 2 at 300 nodes, -325 Elo); the build of the epoch
/// with the lowest validation MSE scores 53.3%. The bound, 35%, is 2.6 standard errors of a 60-game score
/// (about 0.058 here) below an even match, and three times as far above the old build's score.
#[test]
fn tuning_a_small_set_keeps_the_best_epoch_and_does_not_lose_to_the_start_build() {
    let dir = temp_dir("small");
    let (book, meta) = head_of_the_set(&dir, 3_000);
    let out = dir.join("small.toml");
    let output = arbiter(&[
        "tune",
        "--data",
        book.to_str().unwrap(),
        "--games",
        meta.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--epochs",
        "400",
        "--threads",
        "2",
        "--validate",
        &format!("nodes=300,games=60,out={}", dir.join("match").display()),
    ]);
    let all = text(&output);
    assert!(output.status.success(), "{all}");
    // Too few positions for the free weights: warned on stderr and in the report on stdout.
    let warning = "warning: 2701 training positions for 460 free weights (5.9 per weight): the rule of thumb asks \
                   for at least 4600";
    assert!(String::from_utf8_lossy(&output.stderr).contains(warning), "{all}");
    assert!(String::from_utf8_lossy(&output.stdout).contains(warning), "{all}");
    // The run overfits: the last epoch's validation MSE is above the lowest, which is the epoch kept, and the
    // run stopped 50 epochs (the default patience) after it.
    let csv = std::fs::read_to_string(out.with_extension("loss.csv")).unwrap();
    let validation: Vec<f64> = csv.lines().skip(1).map(|l| l.split(',').nth(2).unwrap().parse().unwrap()).collect();
    let (best_at, best) =
        validation.iter().enumerate().fold((0, f64::INFINITY), |a, (i, &v)| if v < a.1 { (i, v) } else { a });
    assert!(*validation.last().unwrap() > best + 0.005, "{validation:?}");
    let epochs_run = validation.len();
    assert_eq!(epochs_run, best_at + 1 + 50, "{all}");
    assert!(
        all.contains(&format!("kept epoch {} of {epochs_run}: the lowest validation MSE {best:.6}", best_at + 1)),
        "{all}"
    );
    assert!(
        all.contains(&format!("stopped early after epoch {epochs_run} of 400: no lower validation MSE for 50 epochs")),
        "{all}"
    );
    // The tuned build holds its own against the start build.
    let games = all.lines().rfind(|l| l.starts_with("Games: 60,")).expect("the match's summary");
    let percent: f64 = games.rsplit('(').next().unwrap().trim_end_matches(" %)").parse().unwrap();
    assert!(percent >= 35.0, "{games}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_input_is_reported() {
    let dir = temp_dir("bad");
    let data = dir.join("bad.epd");
    std::fs::write(
        &data,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - c9 \"1/2-1/2\";\nnot a fen c9 \"1-0\";\n\
         rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - c9 \"1-0\";\n",
    )
    .unwrap();
    let out = dir.join("out.toml");
    let (data, out) = (data.to_str().unwrap(), out.to_str().unwrap());
    // A bad line is reported with file:line and counted; the good lines are tuned.
    let output = arbiter(&["tune", "--data", data, "--out", out, "--epochs", "2"]);
    let all = text(&output);
    assert!(output.status.success(), "{all}");
    assert!(all.contains(&format!("bad line: {data}:2:")), "{all}");
    assert!(all.contains("2 positions, 1 bad lines"), "{all}");
    // Bad flags and a missing file: exit 2 with the reason.
    for (args, expected) in [
        (vec!["--optimizer", "sgd"], "--optimizer \"sgd\": expected adam or local"),
        (vec!["--only", "materiel"], "--only: unknown weight group \"materiel\""),
        (vec!["--validate", "nodes=0,games=2"], "--validate: nodes=\"0\" is not a positive whole number"),
        (vec!["--threads", "0"], "for '--threads <N>': expected an integer from 1 to 1024"),
        (vec!["--patience", "soon"], "for '--patience <N>'"),
        (vec!["--config", "configs/none.toml"], "--config"),
    ] {
        let mut all_args = vec!["tune", "--data", data, "--out", out];
        all_args.extend(args);
        let output = arbiter(&all_args);
        assert_eq!(output.status.code(), Some(2), "{all_args:?}: {}", text(&output));
        assert!(text(&output).contains(expected), "{all_args:?}: {}", text(&output));
    }
    let output = arbiter(&["tune", "--data", "/nonexistent/data.epd", "--out", out]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output).contains("/nonexistent/data.epd"), "{}", text(&output));
    let output = arbiter(&["tune", "--data", data, "--out", out, "--psqt", "both"]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    std::fs::remove_dir_all(&dir).unwrap();
}
