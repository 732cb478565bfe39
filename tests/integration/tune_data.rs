//! The tuning data readers over the shared self-play file (`../shared/data/tuning/`): the dataset evaluation
//! equals the engine's [`evaluate`] on real positions, and (ignored by default, `cargo test --release --
//! --ignored`) the whole 319,823-position file loads with its game-wise split.

use arbiter::chess::Color;
use arbiter::engine::chess::evaluate;
use arbiter::engine::chess::weights::Weights;
use arbiter::tune::{Dataset, LabelledFormat, read_game_ids, read_labelled_file, read_labelled_text, split_by_game};
use std::path::Path;
use std::time::Instant;

const BOOK: &str = "../shared/data/tuning/selfplay-sf15-n1500-quiet.book";
const META: &str = "../shared/data/tuning/selfplay-sf15-n1500-quiet.meta.tsv";

#[test]
fn dataset_eval_equals_evaluate_on_400_real_positions() {
    let text = std::fs::read_to_string(BOOK).expect("the shared tuning file");
    let head: String = text.lines().take(400).flat_map(|l| [l, "\n"]).collect();
    let set = read_labelled_text(&head, BOOK);
    assert_eq!(set.format, LabelledFormat::Lines);
    assert_eq!(set.bad, vec![]);
    assert_eq!(set.positions.len(), 400);
    let data = Dataset::build(&set.positions).unwrap();
    let w = Weights::seed();
    let (mg, eg) = (w.mg_vec(), w.eg_vec());
    let mut black = 0;
    for (i, p) in set.positions.iter().enumerate() {
        let white = match p.position.side_to_move() {
            Color::White => evaluate(&p.position, &w),
            Color::Black => {
                black += 1;
                -evaluate(&p.position, &w)
            }
        };
        assert_eq!(data.eval_of(i, &mg, &eg), white, "line {}", p.line);
        assert_eq!(data.label(i), p.label);
    }
    assert!(black > 100, "both sides to move are covered: {black} with Black");
}

#[test]
#[ignore = "loads the whole 18 MB tuning file; run with --release -- --ignored"]
fn load_the_real_selfplay_file() {
    let started = Instant::now();
    let set = read_labelled_file(Path::new(BOOK)).unwrap();
    let read = started.elapsed();
    let data = Dataset::build(&set.positions).unwrap();
    let built = started.elapsed();
    eprintln!(
        "{BOOK}: {} positions, {} bad lines, {:.1} bytes/position, read {:.2} s, features {:.2} s",
        set.positions.len(),
        set.bad.len(),
        data.bytes_per_position(),
        read.as_secs_f64(),
        (built - read).as_secs_f64()
    );
    for message in set.bad_messages().iter().take(10) {
        eprintln!("{message}");
    }
    assert_eq!(set.positions.len(), 319_823);
    assert_eq!(set.bad.len(), 0);
    assert_eq!(data.len(), 319_823);

    let games = read_game_ids(Path::new(META)).unwrap();
    assert_eq!(games.ids.len(), 319_823);
    let split = split_by_game(set.positions, &games).unwrap();
    eprintln!(
        "split: train {} positions of {} games, validation {} positions of {} games",
        split.train.len(),
        split.train_games,
        split.validation.len(),
        split.validation_games
    );
    // 4,806 of the 4,840 games kept a position; 485 of them are validation games (Python's zlib.crc32 agrees).
    assert_eq!((split.train_games, split.validation_games), (4_321, 485));
    assert_eq!((split.train.len(), split.validation.len()), (287_003, 32_820));
    assert_eq!(split.train.len() + split.validation.len(), 319_823);

    // Cross-check the split against PROVENANCE.md: Stockfish's score through 1/(1+10^(-1.078*cp/400)) has MSE
    // 0.0689 against the result on the validation games.
    let meta = std::fs::read_to_string(META).unwrap();
    let rows: Vec<(f64, f64)> = meta
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[0].parse().unwrap(), f[1].parse().unwrap())
        })
        .collect();
    let mse = split
        .validation
        .iter()
        .map(|p| {
            let (result, cp) = rows[p.line - 1];
            assert_eq!(result, p.label.score(), "line {}", p.line);
            let predicted = 1.0 / (1.0 + 10f64.powf(-1.078 * cp / 400.0));
            (result - predicted).powi(2)
        })
        .sum::<f64>()
        / split.validation.len() as f64;
    eprintln!("validation MSE of Stockfish's score at K = 1.078: {mse:.5}");
    assert_eq!((mse * 10_000.0).round(), 689.0);
}
