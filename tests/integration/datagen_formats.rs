//! The training-data formats of `arbiter datagen --format`, written for hand-made games of real positions and
//! read back by each format's own reader, position for position: the text format by python-chess
//! (`tests/read_text_format.py`) and by bulletformat's text parser, bulletformat by the crate's `DataLoader`,
//! viriformat by the crate's `Game::deserialise_from` and its own filter.

use arbiter::chess::{Color, Move, Position, parse_uci};
use arbiter::engine::GoLimits;
use arbiter::engine::chess::EngineConfig;
use arbiter::engine::chess::search::{Engine, Limits, is_mate_score};
use arbiter::game::GameResult;
use arbiter::selfplay::datagen::format::{
    BULLETFORMAT_RECORD_BYTES, TrainingFormat, TrainingGame, TrainingPly, TrainingPosition, VIRIFORMAT_SKIPPED,
    bulletformat_board, text_line, write_game,
};
use arbiter::selfplay::datagen::{SelectMode, Selection, select};
use bulletformat::{BulletFormat, ChessBoard, DataLoader};
use std::path::PathBuf;
use std::process::Command;
use viriformat::dataformat::{Filter, Game, WDL};

/// A hand-made game: its start, the searched moves with the mover's scores, the plies (indices into the
/// moves) kept, and extra kept positions that are not the game's (quiescence leaves).
struct Spec {
    start: &'static str,
    start_ply: usize,
    moves: &'static [(&'static str, i32)],
    keep: &'static [usize],
    leaves: &'static [(&'static str, i32, usize)],
    result: GameResult,
}

/// Three games: castling on both sides and captures, a mate-range and an out-of-i16 score (White's game);
/// a double push with en passant, a promotion, a check and a quiescence leaf (from move 40, Black wins); Black
/// to move first, castling long and short, a mate-range score for Black (a draw).
const SPECS: [Spec; 3] = [
    Spec {
        start: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        start_ply: 0,
        moves: &[
            ("e2e4", 20),
            ("e7e5", -25),
            ("g1f3", 30),
            ("b8c6", -15),
            ("f1c4", 35),
            ("g8f6", -30),
            ("e1g1", 32000),
            ("f8c5", -20),
            ("d2d3", 25),
            ("e8g8", -40000),
            ("c1g5", 50),
            ("h7h6", -60),
            ("g5f6", 80),
            ("d8f6", -75),
        ],
        keep: &[2, 3, 6, 7, 9, 12, 13],
        leaves: &[],
        result: GameResult::WhiteWins,
    },
    Spec {
        start: "4k3/1P6/8/8/5p2/8/4P3/4K3 w - - 0 40",
        start_ply: 30,
        moves: &[
            ("e2e4", 10),
            ("f4e3", -5),
            ("b7b8q", 700),
            ("e8d7", -900),
            ("b8b5", 880),
            ("d7e6", -870),
            ("e1f1", 860),
            ("e3e2", -850),
            ("f1e2", 900),
        ],
        keep: &[0, 1, 2, 3, 7, 8],
        leaves: &[("4k3/8/8/8/8/8/8/4K2R w K - 0 1", 510, 33)],
        result: GameResult::BlackWins,
    },
    Spec {
        start: "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 3 20",
        start_ply: 5,
        moves: &[("e8c8", -31500), ("e1g1", 0), ("d8d1", -12), ("f1d1", 3)],
        keep: &[0, 1, 2, 3],
        leaves: &[],
        result: GameResult::Draw,
    },
];

/// The game of `spec`, its moves parsed and played on Arbiter's board; kept positions in game order, each
/// leaf after the game position it was reached from (the one at its ply).
fn build(spec: &Spec, number: u64) -> TrainingGame {
    let start = Position::from_fen(spec.start).expect("a legal FEN");
    let mut position = start.clone();
    let (mut plies, mut kept) = (Vec::new(), Vec::new());
    for (index, &(uci, score)) in spec.moves.iter().enumerate() {
        let mv = parse_uci(&position, uci).unwrap_or_else(|e| panic!("{uci} in {}: {e}", position.to_fen()));
        assert!(position.is_legal(mv), "{uci} is legal in {}", position.to_fen());
        plies.push(TrainingPly { mv, score });
        let ply = spec.start_ply + index;
        if spec.keep.contains(&index) {
            kept.push(TrainingPosition { position: position.clone(), score, ply, best: Some(mv) });
        }
        for &(fen, score, _) in spec.leaves.iter().filter(|leaf| leaf.2 == ply) {
            let leaf = Position::from_fen(fen).expect("a legal FEN");
            kept.push(TrainingPosition { position: leaf, score, ply, best: None });
        }
        position.make_move(mv);
    }
    TrainingGame { number, result: spec.result, start, start_ply: spec.start_ply, plies, kept }
}

fn games() -> Vec<TrainingGame> {
    SPECS.iter().zip(1..).map(|(spec, number)| build(spec, number)).collect()
}

/// `games` written in `format` to a file of its own in the test scratch folder.
fn write_file(name: &str, format: TrainingFormat, games: &[TrainingGame]) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("datagen_formats_{name}"));
    let mut bytes = Vec::new();
    for game in games {
        write_game(format, game, &mut bytes).unwrap_or_else(|e| panic!("game {}: {e}", game.number));
    }
    std::fs::write(&path, bytes).expect("the scratch folder is writable");
    path
}

fn white_view(position: &Position, score: i32) -> i32 {
    if position.side_to_move() == Color::White { score } else { -score }
}

/// A FEN as Arbiter writes it (en passant only when a legal capture exists), for comparing other writers'.
fn normalized(fen: &str) -> String {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}")).to_fen()
}

fn result_for_mover(result: GameResult, mover: Color) -> u8 {
    match (result, mover) {
        (GameResult::Draw, _) => 1,
        (GameResult::WhiteWins, Color::White) | (GameResult::BlackWins, Color::Black) => 2,
        _ => 0,
    }
}

/// The pieces of a bulletformat record as the crate lists them, `(piece, square)`: square and colour from
/// the side to move's view (the board flipped for Black; colour 0 the side to move), piece type pawn = 0 to
/// king = 5 plus 8 for the other side, by square.
fn expected_pieces(position: &Position) -> Vec<(u8, u8)> {
    let mover = position.side_to_move();
    let mut pieces: Vec<(u8, u8)> = arbiter::chess::Square::all()
        .filter_map(|sq| {
            let piece = position.piece_on(sq)?;
            let (square, theirs) = match mover {
                Color::White => (sq.index(), piece.color != mover),
                Color::Black => (sq.index() ^ 56, piece.color != mover),
            };
            Some((u8::from(theirs) << 3 | piece.kind.index() as u8, square as u8))
        })
        .collect();
    pieces.sort_by_key(|&(_, square)| square);
    pieces
}

/// Text: python-chess parses every line to a valid position with the FEN, score (White's view, clamped to
/// ±32767) and result (White's) written; bulletformat's own text parser reads each line into the same record
/// as the bulletformat writer.
#[test]
fn text_reads_back_in_python_chess_and_bulletformat() {
    let games = games();
    let path = write_file("text.txt", TrainingFormat::Text, &games);
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/read_text_format.py");
    let out = Command::new("python3").arg(script).arg(&path).output().expect("python3 must be installed");
    assert_ne!(out.status.code(), Some(3), "python-chess is missing: run `pip install chess` (see README)");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let read = String::from_utf8(out.stdout).expect("the script prints UTF-8");
    let written = std::fs::read_to_string(&path).expect("written");

    let expected: Vec<(&TrainingGame, &TrainingPosition)> =
        games.iter().flat_map(|g| g.kept.iter().map(move |k| (g, k))).collect();
    assert_eq!(read.lines().count(), expected.len(), "one line per kept position:\n{written}");
    assert_eq!(written.lines().count(), expected.len());
    for (((game, kept), line), written) in expected.iter().zip(read.lines()).zip(written.lines()) {
        let fields: Vec<&str> = line.split('\t').collect();
        let [fen, score, result, status] = fields[..] else { panic!("four fields: {line}") };
        assert_eq!(fen, kept.position.to_fen(), "{written}");
        let score_white = white_view(&kept.position, kept.score).clamp(-32767, 32767);
        assert_eq!(score.parse::<i32>().expect("an integer"), score_white, "{written}");
        let result_white = match game.result {
            GameResult::WhiteWins => "1.0",
            GameResult::Draw => "0.5",
            GameResult::BlackWins => "0.0",
        };
        assert_eq!(result, result_white, "{written}");
        assert_eq!(status, "valid", "{written}");
        assert_eq!(written, text_line(kept, game.result));
        let parsed: ChessBoard = written.parse().unwrap_or_else(|e| panic!("bulletformat refuses {written}: {e}"));
        assert_eq!(parsed, bulletformat_board(kept, game.result), "{written}");
    }
    // The mate-range, clamped, en-passant and Black-to-move lines, spelled out.
    for line in [
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4 | 32000 | 1.0",
        "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQ1RK1 b kq - 0 5 | 32767 | 1.0",
        "4k3/1P6/8/8/4Pp2/8/8/4K3 b - e3 0 40 | 5 | 0.0",
        "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 3 20 | 31500 | 0.5",
    ] {
        assert!(written.lines().any(|l| l == line), "{line} in\n{written}");
    }
}

/// bulletformat: the crate's `DataLoader` reads one 32-byte record per kept position, with the board, score
/// and result from the side to move's view.
#[test]
fn bulletformat_reads_back_with_its_data_loader() {
    let games = games();
    let path = write_file("bullet.bin", TrainingFormat::Bulletformat, &games);
    let expected: Vec<(&TrainingGame, &TrainingPosition)> =
        games.iter().flat_map(|g| g.kept.iter().map(move |k| (g, k))).collect();
    let size = std::fs::metadata(&path).expect("written").len() as usize;
    assert_eq!(BULLETFORMAT_RECORD_BYTES, 32);
    assert_eq!(size, 32 * expected.len());

    let mut read = Vec::new();
    DataLoader::<ChessBoard>::new(&path, 1).expect("opens").map_positions(|board| read.push(*board));
    assert_eq!(read.len(), expected.len());
    for ((game, kept), board) in expected.iter().zip(&read) {
        let fen = kept.position.to_fen();
        let mover = kept.position.side_to_move();
        assert_eq!(board.into_iter().collect::<Vec<_>>(), expected_pieces(&kept.position), "{fen}");
        assert_eq!(i32::from(board.score()), kept.score.clamp(-32767, 32767), "score, mover's view: {fen}");
        assert_eq!(board.result_idx(), usize::from(result_for_mover(game.result, mover)), "result: {fen}");
        let us = kept.position.king_square(mover).index();
        let them = kept.position.king_square(mover.flip()).index();
        // Our king from our view; theirs from their own view (the crate flips it once more).
        let (us, them) = if mover == Color::White { (us, them ^ 56) } else { (us ^ 56, them) };
        assert_eq!((board.our_ksq() as usize, board.opp_ksq() as usize), (us, them), "king squares: {fen}");
    }
}

/// viriformat: the crate reads each game back: its start position and result, every searched position in
/// order with its score (White's view; [`VIRIFORMAT_SKIPPED`] where datagen did not keep it), and the final
/// position after the last move; its own filter, set to drop only the skip score, yields exactly the kept
/// game positions (the quiescence leaf is not in the game and is not written).
#[test]
fn viriformat_reads_back_with_its_own_reader_and_filter() {
    let games = games();
    let path = write_file("games.viri", TrainingFormat::Viriformat, &games);
    let bytes = std::fs::read(&path).expect("written");
    let plies: usize = games.iter().map(|g| g.plies.len()).sum();
    assert_eq!(bytes.len(), games.len() * (32 + 4) + 4 * plies, "32-byte start, 4 bytes per move, terminator");

    let mut reader = bytes.as_slice();
    for game in &games {
        let record = Game::deserialise_from(&mut reader, Vec::new()).expect("the crate reads the game");
        let start = record.initial_position();
        assert_eq!(normalized(&start.to_string()), game.start.to_fen(), "game {}", game.number);
        let wdl = match game.result {
            GameResult::WhiteWins => WDL::Win,
            GameResult::Draw => WDL::Draw,
            GameResult::BlackWins => WDL::Loss,
        };
        assert_eq!(record.outcome(), wdl, "game {}", game.number);
        assert_eq!(record.len(), game.plies.len());

        let mut position = game.start.clone();
        let mut expected = Vec::new();
        for (index, ply) in game.plies.iter().enumerate() {
            let kept = game.kept.iter().find(|k| k.best.is_some() && k.ply == game.start_ply + index);
            let score = match kept {
                Some(kept) => white_view(&position, kept.score).clamp(-32766, 32766),
                None => i32::from(VIRIFORMAT_SKIPPED),
            };
            expected.push((position.to_fen(), score));
            position.make_move(ply.mv);
        }
        let mut read = Vec::new();
        record.visit_positions(|board, eval| read.push((normalized(&board.to_string()), eval)));
        assert_eq!(read, expected, "game {}: positions and scores", game.number);
        let mut end = record.initial_position();
        for mv in record.moves() {
            assert!(end.make_move_simple(mv), "game {}: {mv:?} is legal", game.number);
        }
        assert_eq!(normalized(&end.to_string()), position.to_fen(), "game {}: the last move", game.number);

        let filter = Filter { max_eval: VIRIFORMAT_SKIPPED as u32, ..Filter::UNRESTRICTED };
        let mut splat = Vec::new();
        record
            .splat_to_bulletformat(
                |board| {
                    splat.push(board);
                    Ok(())
                },
                &filter,
            )
            .expect("splats");
        let kept: Vec<&TrainingPosition> = game.kept.iter().filter(|k| k.best.is_some()).collect();
        assert_eq!(splat.len(), kept.len(), "game {}: the crate's filter keeps exactly the kept", game.number);
        for (board, kept) in splat.iter().zip(&kept) {
            let mut expected = bulletformat_board(kept, game.result);
            expected.score = expected.score.clamp(-32766, 32766);
            assert_eq!(*board, expected, "game {}: {}", game.number, kept.position.to_fen());
        }
        let mut default_filtered = 0;
        record
            .splat_to_bulletformat(
                |_| {
                    default_filtered += 1;
                    Ok(())
                },
                &Filter { min_ply: 0, min_pieces: 0, filter_tactical: false, filter_check: false, ..Filter::default() },
            )
            .expect("splats");
        let beyond_default = game.kept.iter().filter(|k| k.best.is_some() && k.score.abs() >= 31339).count();
        assert_eq!(default_filtered, kept.len() - beyond_default, "game {}: default max_eval", game.number);
    }
    assert!(reader.is_empty(), "nothing after the last game");
}

/// Epd is datagen's own writer's, not `write_game`'s: asking for it is an error, not a silent empty file.
#[test]
fn write_game_refuses_epd() {
    let mut out = Vec::new();
    let err = write_game(TrainingFormat::Epd, &games()[0], &mut out).expect_err("EPD is datagen's");
    assert_eq!(err.kind(), std::io::ErrorKind::Unsupported);
    assert!(err.to_string().contains("EPD"), "{err}");
    assert!(out.is_empty());
}

/// A game whose kept position is not the game's position at its ply, or whose move is illegal, is refused by
/// the viriformat writer (its record would name the wrong positions) with the game and the position.
#[test]
fn viriformat_refuses_an_inconsistent_game() {
    let mut game = games().remove(0);
    game.kept[0].ply += 1;
    let err = write_game(TrainingFormat::Viriformat, &game, &mut Vec::new()).expect_err("inconsistent");
    assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput);
    assert!(err.to_string().contains("game 1: kept position at ply 3"), "{err}");

    let mut game = games().remove(0);
    game.plies[1].mv = game.plies[0].mv;
    let err = write_game(TrainingFormat::Viriformat, &game, &mut Vec::new()).expect_err("illegal");
    assert!(err.to_string().contains("game 1: searched move 1 (e2e4) is not legal"), "{err}");
}

/// Sizes on a real game: the built-in engine against itself at 1000 nodes a move from a four-ply book, its
/// positions selected as `--select quiet` does (not in check, quiet best move, before the first mate score).
/// Prints the bytes per kept position of each format (quoted in docs/datagen.md).
#[test]
fn sizes_per_kept_position_on_a_real_game() {
    let mut engine = Engine::new(EngineConfig::seed());
    let limits = Limits { go: GoLimits { nodes: Some(1000), ..GoLimits::default() }, ..Limits::default() };
    let mut game = arbiter::chess::ChessGame::new(Position::startpos());
    for uci in ["e2e4", "c7c5", "g1f3", "d7d6"] {
        let mv: Move = parse_uci(game.position(), uci).expect("a legal move");
        assert!(game.play(mv));
    }
    let start = game.position().clone();
    let (mut plies, mut kept, mut decided) = (Vec::new(), Vec::new(), false);
    let result = loop {
        if let Some(outcome) = game.outcome() {
            break outcome.result;
        }
        if plies.len() == 300 {
            break GameResult::Draw;
        }
        let position = game.position().clone();
        let searched = engine.search(&position, game.keys(), &limits);
        decided |= is_mate_score(searched.score);
        if !decided
            && let Selection::Keep { position, .. } =
                select(&position, searched.best_move, &searched.pv, false, SelectMode::Quiet)
        {
            let ply = game.moves().len();
            let best = Some(searched.best_move);
            kept.push(TrainingPosition { position: *position, score: searched.score, ply, best });
        }
        plies.push(TrainingPly { mv: searched.best_move, score: searched.score });
        assert!(game.play(searched.best_move));
    };
    let game = TrainingGame { number: 1, result, start, start_ply: 4, plies, kept };
    assert!(game.kept.len() >= 10, "a real game keeps positions: {}", game.kept.len());
    let size = |format| {
        let mut out = Vec::new();
        write_game(format, &game, &mut out).expect("writes");
        out.len()
    };
    let (text, bullet, viri) =
        (size(TrainingFormat::Text), size(TrainingFormat::Bulletformat), size(TrainingFormat::Viriformat));
    assert_eq!(bullet, 32 * game.kept.len());
    assert_eq!(viri, 32 + 4 * (game.plies.len() + 1));
    let per = |bytes: usize| bytes as f64 / game.kept.len() as f64;
    println!(
        "real game: {} plies searched, {} kept; bytes per kept position: text {:.1}, bulletformat {:.1}, \
         viriformat {:.1}",
        game.plies.len(),
        game.kept.len(),
        per(text),
        per(bullet),
        per(viri)
    );
}

/// Chess960: castling at once on both sides (king takes its own rook, the rook on the king's destination),
/// written in viriformat from a Shredder-FEN start and read back by the crate: the positions (placement, side
/// to move, castling rooks) and scores, the final position after the last move, and the bulletformat records.
#[test]
fn chess960_castling_reads_back_in_viriformat_and_bulletformat() {
    let start = Position::from_fen_variant("bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1", true)
        .expect("a Chess960 start");
    let mut position = start.clone();
    let (mut plies, mut kept) = (Vec::new(), Vec::new());
    for (index, (uci, score)) in [("f1g1", 15), ("f8g8", -10), ("e2e4", 20), ("e7e5", -20)].into_iter().enumerate() {
        let mv = parse_uci(&position, uci).unwrap_or_else(|e| panic!("{uci}: {e}"));
        assert!(position.is_legal(mv), "{uci} in {}", position.to_fen());
        plies.push(TrainingPly { mv, score });
        if index != 2 {
            kept.push(TrainingPosition { position: position.clone(), score, ply: index, best: Some(mv) });
        }
        position.make_move(mv);
    }
    assert!(position.to_fen().starts_with("bqnbrrkn/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/BQNBRRKN w - - 0 3"));
    let game = TrainingGame { number: 4, result: GameResult::Draw, start, start_ply: 0, plies, kept };

    let mut bytes = Vec::new();
    write_game(TrainingFormat::Viriformat, &game, &mut bytes).expect("writes");
    let record = Game::deserialise_from(&mut bytes.as_slice(), Vec::new()).expect("the crate reads the game");
    let placement = |fen: &str| fen.split(' ').take(2).collect::<Vec<_>>().join(" ");
    let mut read = Vec::new();
    record.visit_positions(|board, eval| read.push((placement(&board.to_string()), eval)));
    let mut position = game.start.clone();
    let mut expected = Vec::new();
    for (index, ply) in game.plies.iter().enumerate() {
        let score = if index == 2 { i32::from(VIRIFORMAT_SKIPPED) } else { white_view(&position, ply.score) };
        expected.push((placement(&position.to_fen()), score));
        position.make_move(ply.mv);
    }
    assert_eq!(read, expected);
    let start_board = record.initial_position();
    let rights = start_board.castling_rights();
    assert_eq!(
        [
            rights.kingside(viriformat::chess::piece::Colour::White),
            rights.queenside(viriformat::chess::piece::Colour::White)
        ]
        .map(|sq| sq.map(|sq| sq.to_string())),
        [Some("g1".to_string()), Some("e1".to_string())],
        "the castling rooks of the start"
    );
    let mut end = record.initial_position();
    for mv in record.moves() {
        assert!(end.make_move_simple(mv), "{mv:?} is legal");
    }
    assert_eq!(placement(&end.to_string()), placement(&position.to_fen()));

    let mut bytes = Vec::new();
    write_game(TrainingFormat::Bulletformat, &game, &mut bytes).expect("writes");
    assert_eq!(bytes.len(), 32 * game.kept.len());
    let boards: Vec<ChessBoard> = game.kept.iter().map(|kept| bulletformat_board(kept, game.result)).collect();
    assert_eq!(ChessBoard::as_bytes_slice(&boards), bytes.as_slice());
    for (board, kept) in boards.iter().zip(&game.kept) {
        assert_eq!(board.into_iter().collect::<Vec<_>>(), expected_pieces(&kept.position));
    }
}
