//! Integration tests of the built-in engine: configs, the evaluation as a dot product over real positions, mate
//! finding, draws, determinism and limits.

use crate::common;
use arbiter::chess::{Move, Position};
use arbiter::engine::GoLimits;
use arbiter::engine::chess::weights::NUM_FEATURES;
use arbiter::engine::chess::{
    ConfigError, Engine, EngineConfig, Limits, MATE, SearchResult, Weights, evaluate, features, is_mate_score,
};
use common::{perft_fens, perft_lines, random_weights, walk};

const SEED_TOML: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/configs/seed.toml");
const NOMOB_TOML: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/configs/nomob.toml");

fn fen(text: &str) -> Position {
    Position::from_fen(text).unwrap_or_else(|e| panic!("bad FEN {text}: {e}"))
}

fn search(pos: &Position, limits: Limits) -> SearchResult {
    let mut engine = Engine::new(EngineConfig::seed());
    engine.search(pos, &[pos.key()], &limits)
}

fn depth(d: u32) -> Limits {
    Limits::depth(d)
}

/// The reference tapered evaluation, written independently of the engine: the middlegame and endgame sums of
/// weight times feature over the dense vectors, blended as `(phase * mg + (24 - phase) * eg) / 24` (truncated
/// toward zero), White's view, negated for Black to move.
fn reference_eval(pos: &Position, w: &Weights) -> i64 {
    let f = features(pos);
    let (mg, eg) = (w.mg_vec(), w.eg_vec());
    let m: i64 = (0..NUM_FEATURES).map(|i| i64::from(mg[i]) * i64::from(f.values[i])).sum();
    let e: i64 = (0..NUM_FEATURES).map(|i| i64::from(eg[i]) * i64::from(f.values[i])).sum();
    let phase = i64::from(f.phase);
    let white = (phase * m + (24 - phase) * e) / 24;
    if pos.side_to_move() == arbiter::chess::Color::White { white } else { -white }
}

/// The colour-mirrored FEN: ranks reversed, case swapped, side and castling swapped, en passant mirrored.
fn mirror_fen(fen: &str) -> String {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let swap = |s: &str| -> String {
        s.chars()
            .map(|c| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() })
            .collect()
    };
    let board: Vec<String> = fields[0].split('/').rev().map(swap).collect();
    let side = if fields[1] == "w" { "b" } else { "w" };
    let castling = if fields[2] == "-" { "-".to_string() } else { swap(fields[2]) };
    let ep = if fields[3] == "-" {
        "-".to_string()
    } else {
        let b = fields[3].as_bytes();
        format!("{}{}", b[0] as char, (b'1' + b'8' - b[1]) as char)
    };
    let rest = fields[4..].join(" ");
    format!("{} {side} {castling} {ep} {rest}", board.join("/"))
}

// ---- configs ----

#[test]
fn seed_config_file_equals_built_in_seed() {
    let config = EngineConfig::load(SEED_TOML).unwrap();
    assert_eq!(config.weights, Weights::seed());
    assert_eq!(config, EngineConfig::seed());
    assert_eq!(config.name, "seed");
    assert_eq!(config.hash_mb, 16);
}

#[test]
fn seed_config_file_is_written_by_to_toml() {
    // The file is the writer's output under a header comment, so tuned configs look the same.
    let text = std::fs::read_to_string(SEED_TOML).unwrap();
    let body: String = text.lines().skip_while(|l| l.starts_with('#')).map(|l| format!("{l}\n")).collect();
    assert_eq!(body, EngineConfig::seed().to_toml());
}

#[test]
fn nomob_config_is_seed_without_mobility() {
    let config = EngineConfig::load(NOMOB_TOML).unwrap();
    assert_eq!(config.name, "nomob");
    let mut expected = Weights::seed();
    expected.mobility = [0; 4];
    assert_eq!(config.weights, expected);
}

#[test]
fn config_round_trips_through_toml() {
    let mut config = EngineConfig::seed();
    config.name = "tuned \"v2\"".to_string();
    config.hash_mb = 64;
    config.weights = random_weights(7);
    let text = config.to_toml();
    assert_eq!(EngineConfig::from_toml_str(&text, "round trip").unwrap(), config);
}

/// The seed file with one line replaced (`key = ...` found by its key) or removed.
fn seed_with(key: &str, replacement: Option<&str>) -> String {
    let text = std::fs::read_to_string(SEED_TOML).unwrap();
    let mut found = false;
    let lines: Vec<String> = text
        .lines()
        .filter_map(|l| {
            // Only the first line of the key: the `[weights]` one, not those of `[weights.mg]`/`[weights.eg]`.
            if !found && l.starts_with(&format!("{key} =")) {
                found = true;
                replacement.map(str::to_string)
            } else {
                Some(l.to_string())
            }
        })
        .collect();
    assert!(found, "seed.toml has a line for {key}");
    lines.join("\n")
}

#[test]
fn unknown_weight_is_rejected_by_name() {
    let text = seed_with("mobility", Some("mobilty = [9, 4, 3, 3]"));
    let err = EngineConfig::from_toml_str(&text, "typo.toml").unwrap_err();
    assert!(
        matches!(&err, ConfigError::UnknownKey { file, key } if file == "typo.toml" && key == "weights.mobilty"),
        "{err:?}"
    );
    assert!(err.to_string().contains("weights.mobilty"), "{err}");
}

#[test]
fn missing_weight_is_named() {
    let text = seed_with("bishop_pair", None);
    let err = EngineConfig::from_toml_str(&text, "short.toml").unwrap_err();
    assert!(matches!(&err, ConfigError::MissingKey { key, .. } if key == "weights.bishop_pair"), "{err:?}");
    assert_eq!(err.to_string(), "short.toml: missing key `weights.bishop_pair`");
}

#[test]
fn wrong_array_length_is_named() {
    let text = seed_with("material", Some("material = [100, 305, 333, 563]"));
    let err = EngineConfig::from_toml_str(&text, "len.toml").unwrap_err();
    assert!(
        matches!(&err, ConfigError::WrongLength { key, expected: 5, found: 4, .. } if key == "weights.material"),
        "{err:?}"
    );
}

#[test]
fn wrong_types_are_named() {
    let text = seed_with("doubled_pawn", Some("doubled_pawn = -2.5"));
    let err = EngineConfig::from_toml_str(&text, "type.toml").unwrap_err();
    assert!(
        matches!(&err, ConfigError::WrongType { key, found: "float", .. } if key == "weights.doubled_pawn"),
        "{err:?}"
    );

    let text = seed_with("passed_pawn", Some("passed_pawn = [0, 50, 50, \"x\", 70, 90, 110, 0]"));
    let err = EngineConfig::from_toml_str(&text, "type.toml").unwrap_err();
    assert!(matches!(&err, ConfigError::WrongType { key, .. } if key == "weights.passed_pawn[3]"), "{err:?}");

    let text = seed_with("mobility", Some("mobility = 3"));
    let err = EngineConfig::from_toml_str(&text, "type.toml").unwrap_err();
    assert!(matches!(&err, ConfigError::WrongType { key, .. } if key == "weights.mobility"), "{err:?}");
}

#[test]
fn out_of_range_values_are_named() {
    let text = seed_with("hash_mb", Some("hash_mb = 0"));
    let err = EngineConfig::from_toml_str(&text, "hash.toml").unwrap_err();
    assert!(matches!(&err, ConfigError::OutOfRange { key, value: 0, .. } if key == "search.hash_mb"), "{err:?}");

    let text = seed_with("bishop_pair", Some("bishop_pair = 3000000000"));
    let err = EngineConfig::from_toml_str(&text, "big.toml").unwrap_err();
    assert!(matches!(&err, ConfigError::OutOfRange { key, .. } if key == "weights.bishop_pair"), "{err:?}");
}

#[test]
fn syntax_errors_give_the_line() {
    let text = seed_with("bishop_pair", Some("bishop_pair = = 50"));
    let line = text.lines().position(|l| l.starts_with("bishop_pair")).unwrap() + 1;
    let err = EngineConfig::from_toml_str(&text, "syntax.toml").unwrap_err();
    assert!(
        matches!(&err, ConfigError::Syntax { file, line: l, .. } if file == "syntax.toml" && *l == line),
        "{err:?}"
    );
    assert!(err.to_string().starts_with(&format!("syntax.toml:{line}: TOML syntax error")), "{err}");
}

#[test]
fn unknown_section_and_missing_file_are_errors() {
    let text = format!("{}\n[time]\nmoves = 40\n", std::fs::read_to_string(SEED_TOML).unwrap());
    let err = EngineConfig::from_toml_str(&text, "extra.toml").unwrap_err();
    assert!(matches!(&err, ConfigError::UnknownKey { key, .. } if key == "time"), "{err:?}");

    let err = EngineConfig::load("/nonexistent/arbiter.toml").unwrap_err();
    assert!(matches!(&err, ConfigError::Io { file, .. } if file == "/nonexistent/arbiter.toml"), "{err:?}");
}

#[test]
fn search_switches_are_read_and_written() {
    let text = seed_with("null_move", Some("null_move = false"));
    let config = EngineConfig::from_toml_str(&text, "switch.toml").unwrap();
    assert!(!config.search.null_move);
    assert!(config.search.lmr);
    assert_eq!(EngineConfig::from_toml_str(&config.to_toml(), "again").unwrap(), config);

    // Switches are optional: a config with hash_mb alone has every switch on.
    let short: String = std::fs::read_to_string(SEED_TOML)
        .unwrap()
        .lines()
        .filter(|l| !arbiter::engine::chess::SearchOptions::KEYS.iter().any(|k| l.starts_with(&format!("{k} ="))))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(EngineConfig::from_toml_str(&short, "short.toml").unwrap(), EngineConfig::seed());

    let text = seed_with("lmr", Some("lmrr = true"));
    let err = EngineConfig::from_toml_str(&text, "switch.toml").unwrap_err();
    assert!(matches!(&err, ConfigError::UnknownKey { key, .. } if key == "search.lmrr"), "{err:?}");
    let text = seed_with("lmr", Some("lmr = 1"));
    let err = EngineConfig::from_toml_str(&text, "switch.toml").unwrap_err();
    assert!(matches!(&err, ConfigError::WrongType { key, .. } if key == "search.lmr"), "{err:?}");
}

#[test]
fn phase_tables_are_optional_and_checked_by_name() {
    // A config of the untapered format (no [weights.mg] / [weights.eg]) loads with every added value zero.
    let text = std::fs::read_to_string(SEED_TOML).unwrap();
    let old = format!("{}\n", text.split("\n[weights.mg]\n").next().unwrap());
    assert_eq!(EngineConfig::from_toml_str(&old, "old.toml").unwrap(), EngineConfig::seed());

    // Keys of a phase table may be left out; the ones present are read by name.
    let text = format!("{old}[weights.eg]\ntempo = 7\npsqt_knight = [{}]\n", vec!["1"; 64].join(", "));
    let config = EngineConfig::from_toml_str(&text, "eg.toml").unwrap();
    let at = arbiter::engine::chess::weights::feature_offset;
    assert_eq!(config.weights.eg[at("tempo").unwrap()], 7);
    assert_eq!(config.weights.eg[at("psqt_knight").unwrap() + 63], 1);
    assert_eq!(config.weights.mg, [0; NUM_FEATURES]);

    let err = EngineConfig::from_toml_str(&format!("{old}[weights.mg]\ntempoo = 1\n"), "x.toml").unwrap_err();
    assert!(matches!(&err, ConfigError::UnknownKey { key, .. } if key == "weights.mg.tempoo"), "{err:?}");
    let err = EngineConfig::from_toml_str(&format!("{old}[weights.eg]\npsqt_king = [1, 2]\n"), "x.toml").unwrap_err();
    assert!(
        matches!(&err, ConfigError::WrongLength { key, expected: 64, found: 2, .. } if key == "weights.eg.psqt_king"),
        "{err:?}"
    );
    let err = EngineConfig::from_toml_str(&format!("{old}[weights.eg]\ntempo = \"x\"\n"), "x.toml").unwrap_err();
    assert!(matches!(&err, ConfigError::WrongType { key, .. } if key == "weights.eg.tempo"), "{err:?}");
    // The seed terms stay required.
    let err =
        EngineConfig::from_toml_str(&old.replace("tempo", "x").replace("bishop_pair = 50", ""), "x.toml").unwrap_err();
    assert!(matches!(&err, ConfigError::MissingKey { key, .. } if key == "weights.bishop_pair"), "{err:?}");
}

// ---- evaluation ----

#[test]
fn evaluate_is_the_dot_product_of_weights_and_features() {
    let weight_sets = [Weights::seed(), random_weights(0x9E37_79B9_7F4A_7C15), random_weights(12345)];
    let mut checked = 0usize;
    for text in perft_fens() {
        let mut root = fen(&text);
        let mut positions = Vec::new();
        walk(&mut root, 2, &mut |p| positions.push(p.clone()));
        for pos in &positions {
            for w in &weight_sets {
                let expected = reference_eval(pos, w);
                assert_eq!(i64::from(evaluate(pos, w)), expected, "FEN {}", pos.to_fen());
            }
            checked += 1;
        }
    }
    // Every position of perft depth 0, 1 and 2 was checked: 1 + D1 + D2 per suite line Arbiter accepts.
    let opcode = |line: &str, name: &str| -> usize {
        line.split(';')
            .find_map(|f| f.trim().strip_prefix(name).map(|n| n.trim().parse::<usize>().expect("a perft count")))
            .expect("every suite line has D1 and D2")
    };
    let expected: usize = perft_lines().iter().map(|(_, l)| 1 + opcode(l, "D1 ") + opcode(l, "D2 ")).sum();
    assert_eq!(checked, expected);
}

#[test]
fn evaluation_is_colour_symmetric() {
    let w = random_weights(99);
    for text in perft_fens() {
        let mut root = fen(&text);
        let mut positions = Vec::new();
        walk(&mut root, 1, &mut |p| positions.push(p.clone()));
        for pos in &positions {
            let text = pos.to_fen();
            let mirrored = fen(&mirror_fen(&text));
            assert_eq!(evaluate(pos, &w), evaluate(&mirrored, &w), "FEN {text}");
            let (f, g) = (features(pos).to_vec(), features(&mirrored).to_vec());
            let negated: Vec<i32> = g.iter().map(|x| -x).collect();
            assert_eq!(f.to_vec(), negated, "FEN {text}");
        }
    }
}

// ---- search: mates, draws, results ----

/// Asserts that `fen` has the unique best move `uci`, scored as mate in `plies`.
fn assert_mate(fen_text: &str, uci: &str, plies: i32, d: u32) {
    let pos = fen(fen_text);
    let r = search(&pos, depth(d));
    assert_eq!(r.best_move.to_string(), uci, "FEN {fen_text}: {r:?}");
    assert_eq!(r.score, MATE - plies, "FEN {fen_text}: {r:?}");
    assert!(is_mate_score(r.score));
    assert_eq!(r.pv.first(), Some(&r.best_move));
    assert_eq!(r.pv.len(), plies as usize, "FEN {fen_text}: the pv runs to the mate: {r:?}");
}

#[test]
fn finds_mate_in_one() {
    // Back-rank mate.
    assert_mate("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8", 1, 3);
    // Scholar's mate.
    assert_mate("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", "h5f7", 1, 3);
}

#[test]
fn finds_mate_in_two() {
    // Each first move is the only one that mates in 2 (checked move by move, depth 6 after each). Depth 5, not
    // 4: at depth 4 null-move pruning (R = 2) hides the quiet mate threat of Win at Chess 001 behind a pass.
    // Nf6+ gxf6 Bxf7# (the knight on e5 guards f7).
    assert_mate("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", "d5f6", 3, 5);
    // Win at Chess 001: Qg6, mating next move whatever Black plays (for example gxf6 Qh7#).
    assert_mate("2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1", "g3g6", 3, 5);
    // Win at Chess 005, Black to move: Qc4+ Nxc4 bxc4#.
    assert_mate("5k2/6pp/p1qN4/1p1p4/3P4/2PKP2Q/PP3r2/3R4 b - - 0 1", "c6c4", 3, 5);
    // Win at Chess 054, Black to move: Qh1+ Kxh1 Rf1#.
    assert_mate("r3kr2/1pp4p/1p1p4/7q/4P1n1/2PP2Q1/PP4P1/R1BB2K1 b q - 0 1", "h5h1", 3, 5);
}

#[test]
fn mated_side_sees_the_mate() {
    // After Nf6+ in the mate-in-2 position Black is mated in 2 more plies whatever it does.
    let mut pos = fen("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1");
    let m = pos.legal_moves().iter().copied().find(|m| m.to_string() == "d5f6").unwrap();
    pos.make_move(m);
    let r = search(&pos, depth(4));
    assert_eq!(r.score, -(MATE - 2));
}

#[test]
fn checkmate_and_stalemate_return_null() {
    let mate = search(&fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"), depth(3));
    assert_eq!((mate.best_move, mate.score, mate.pv.len()), (Move::NULL, -MATE, 0));
    let stalemate = search(&fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"), depth(3));
    assert_eq!((stalemate.best_move, stalemate.score), (Move::NULL, 0));
}

#[test]
fn fifty_move_rule_is_a_draw_inside_the_search() {
    // A queen up, but every move (none captures, none mates) reaches the 100th ply without progress.
    let pos = fen("4k3/8/8/8/8/8/8/4K2Q w - - 99 80");
    let r = search(&pos, depth(4));
    assert!(pos.is_legal(r.best_move));
    assert_eq!(r.score, 0, "{r:?}");
    // The same position with a fresh clock is simply winning.
    let r = search(&fen("4k3/8/8/8/8/8/8/4K2Q w - - 0 80"), depth(4));
    assert!(r.score > 500, "{r:?}");
}

#[test]
fn repetition_of_the_game_history_is_a_draw() {
    // A queen up, but every reply has occurred before in the game: each one repeats, so the search sees a draw.
    let pos = fen("4k3/8/8/8/8/8/8/4K2Q w - - 60 80");
    let children: Vec<u64> = pos
        .legal_moves()
        .iter()
        .map(|&m| {
            let mut p = pos.clone();
            p.make_move(m);
            p.key()
        })
        .collect();
    // Each child key sits an odd number of plies (3, 5, ...) before the root: same side to move as the child.
    let mut history = Vec::new();
    for &k in children.iter().rev() {
        history.push(k);
        history.push(0);
    }
    history.push(0);
    history.push(pos.key());
    let mut engine = Engine::new(EngineConfig::seed());
    let r = engine.search(&pos, &history, &depth(4));
    assert!(pos.is_legal(r.best_move));
    assert_eq!(r.score, 0, "{r:?}");
    let r = engine.search(&pos, &[pos.key()], &depth(4));
    assert!(r.score > 500, "without the history the queen counts: {r:?}");
}

#[test]
fn insufficient_material_scores_zero_below_the_root() {
    // Kxb2 leaves king against king: the only sensible move, and a dead draw.
    let pos = fen("8/8/8/8/8/8/1n6/K6k w - - 0 1");
    let r = search(&pos, depth(3));
    assert_eq!(r.best_move.to_string(), "a1b2");
    assert_eq!(r.score, 0);
}

#[test]
fn depth_four_from_the_start_position() {
    let pos = Position::startpos();
    let r = search(&pos, depth(4));
    assert!(pos.is_legal(r.best_move));
    assert_eq!(r.depth, 4);
    assert!(r.nodes > 0);
    assert!(!is_mate_score(r.score));
    // The pv is a legal line starting with the best move.
    assert_eq!(r.pv.first(), Some(&r.best_move));
    let mut p = pos.clone();
    for &m in &r.pv {
        assert!(p.is_legal(m), "pv {:?}", r.pv);
        p.make_move(m);
    }
}

#[test]
fn search_is_deterministic_under_node_and_depth_limits() {
    let positions = [
        Position::startpos(),
        fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
        fen("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
    ];
    for pos in &positions {
        for limits in
            [Limits { go: GoLimits { nodes: Some(20_000), ..GoLimits::default() }, ..Limits::default() }, depth(4)]
        {
            let a = search(pos, limits);
            let b = search(pos, limits);
            assert_eq!(a, b);
            let mut engine = Engine::new(EngineConfig::seed());
            let first = engine.search(pos, &[pos.key()], &limits);
            // A second search reuses the table, which may change the result; after new_game it may not.
            let _ = engine.search(pos, &[pos.key()], &limits);
            engine.new_game();
            let again = engine.search(pos, &[pos.key()], &limits);
            assert_eq!(first, again);
            assert_eq!(first, a);
            assert!(pos.is_legal(a.best_move));
        }
        let capped =
            search(pos, Limits { go: GoLimits { nodes: Some(20_000), ..GoLimits::default() }, ..Limits::default() });
        assert!(capped.nodes <= 20_000);
    }
}

#[test]
fn limits_hit_at_once_still_give_a_legal_move() {
    for text in perft_fens() {
        let pos = fen(&text);
        let has_moves = !pos.legal_moves().is_empty();
        for nodes in [0, 1, 10, 500] {
            let r = search(
                &pos,
                Limits { go: GoLimits { nodes: Some(nodes), ..GoLimits::default() }, ..Limits::default() },
            );
            assert_eq!(pos.is_legal(r.best_move), has_moves, "FEN {text}, nodes {nodes}: {r:?}");
            assert!(r.nodes <= nodes);
        }
    }
}

#[test]
fn default_limits_stop_at_a_found_mate_and_movetime_is_obeyed() {
    let pos = fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    let r = search(&pos, Limits::default());
    assert_eq!((r.best_move.to_string(), r.score), ("a1a8".to_string(), MATE - 1));
    let pos = Position::startpos();
    let r = search(&pos, Limits { go: GoLimits { movetime_ms: Some(30), ..GoLimits::default() }, ..Limits::default() });
    assert!(pos.is_legal(r.best_move));
    let r = search(
        &pos,
        Limits {
            go: GoLimits { depth: Some(2), movetime_ms: Some(u64::MAX), ..GoLimits::default() },
            ..Limits::default()
        },
    );
    assert_eq!(r.depth, 2);
}

#[test]
fn engine_keeps_its_config() {
    let mut config = EngineConfig::seed();
    config.name = "small".to_string();
    config.hash_mb = 1;
    let engine = Engine::new(config.clone());
    assert_eq!(engine.config(), &config);
}

#[test]
fn every_search_switch_off_still_finds_the_mates() {
    let pos = fen("2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1");
    for key in arbiter::engine::chess::SearchOptions::KEYS {
        let mut config = EngineConfig::seed();
        *config.search.switch_mut(key).expect("a listed key") = false;
        let mut engine = Engine::new(config);
        let r = engine.search(&pos, &[pos.key()], &depth(5));
        assert_eq!((r.best_move.to_string(), r.score), ("g3g6".to_string(), MATE - 3), "{key} off: {r:?}");
        let again = Engine::new(engine.config().clone()).search(&pos, &[pos.key()], &depth(5));
        assert_eq!(r, again, "{key} off: deterministic");
    }
}

#[test]
fn search_with_reports_iterations_and_obeys_stop() {
    use std::sync::atomic::AtomicBool;
    let pos = Position::startpos();
    let mut engine = Engine::new(EngineConfig::seed());
    let stop = AtomicBool::new(false);
    let mut depths = Vec::new();
    let r = engine.search_with(&pos, &[pos.key()], &depth(4), &stop, &mut |info| {
        assert_eq!(info.pv.first().map(|m| pos.is_legal(*m)), Some(true));
        assert!(info.hashfull <= 1000 && info.seldepth >= info.depth);
        depths.push(info.depth);
    });
    assert_eq!(depths, [1, 2, 3, 4]);
    assert_eq!(r.depth, 4);
    // A stop set before the search: still a legal move, at once, even for an infinite search.
    let stop = AtomicBool::new(true);
    let infinite = Limits { infinite: true, ..Limits::default() };
    let r = engine.search_with(&pos, &[pos.key()], &infinite, &stop, &mut |_| {});
    assert!(pos.is_legal(r.best_move));
    // An infinite search runs until another thread stops it.
    let stop = AtomicBool::new(false);
    std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(std::time::Duration::from_millis(50));
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        });
        let r = engine.search_with(&pos, &[pos.key()], &infinite, &stop, &mut |_| {});
        assert!(pos.is_legal(r.best_move));
    });
    fn assert_send<T: Send>() {}
    assert_send::<Engine>();
}

#[test]
fn clock_limits_give_a_legal_move_and_set_hash_mb_resizes() {
    let pos = Position::startpos();
    let mut engine = Engine::new(EngineConfig::seed());
    engine.set_hash_mb(1);
    assert_eq!(engine.config().hash_mb, 1);
    let limits = Limits {
        go: GoLimits { wtime_ms: Some(100), btime_ms: Some(100), winc_ms: Some(10), ..GoLimits::default() },
        ..Limits::default()
    };
    let r = engine.search(&pos, &[pos.key()], &limits);
    assert!(pos.is_legal(r.best_move));
    engine.config_mut().search.null_move = false;
    assert!(!engine.config().search.null_move);
}

#[test]
fn bench_node_count_is_reproducible() {
    let a = arbiter::engine::chess::bench::bench_nodes(3);
    let b = arbiter::engine::chess::bench::bench_nodes(3);
    assert_eq!(a, b);
    assert!(a > 0);
}
