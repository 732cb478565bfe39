//! Xiangqi as a [`crate::game::Game`]: its FEN and coordinate move text (`h2e2`; Fairy-Stockfish's ranks 1..10
//! for a UCI engine), its PGN record and EPD openings, and the end rules of the runner.
//!
//! # The Xiangqi rules of the runner
//!
//! A side with no legal move loses (checkmate or stalemate). A position occurring for the third time since the
//! last capture ends the game: the side that gave check with every one of its moves in the cycle loses
//! (perpetual check), otherwise it is a draw ([`super::game`]). [`NO_CAPTURE_PLIES`] plies (60 moves each)
//! without a capture are a draw (Arbiter's choice, like chess's fifty-move rule). Perpetual chasing is not
//! judged: such a repetition is a draw.

use super::{FenError, Move, MoveError, MoveList, Outcome, Position, RepetitionVerdict, Undo, XiangqiGame};
use crate::game::opening::{Opening, OpeningError, OpeningFormat, read_rules_pgn};
use crate::game::{Color, GameResult, RuleEnd, RulesOutcome};
use std::path::Path;

/// Plies without a capture after which a Xiangqi game is drawn (60 moves each; see the module docs).
pub const NO_CAPTURE_PLIES: u16 = 120;

impl crate::game::Rules for XiangqiGame {
    type Move = Move;
    type Position = Position;
    type Undo = Undo;
    type Moves = MoveList;
    type FenError = FenError;
    type MoveError = MoveError;
    const NAME: &'static str = "xiangqi";
    const START_FEN: &'static str = super::START_FEN;

    fn read_fen(fen: &str, _chess960: bool) -> Result<Position, FenError> {
        Position::from_fen(fen)
    }
    fn position_fen(position: &Position) -> String {
        position.to_fen()
    }
    #[inline]
    fn key(position: &Position) -> u64 {
        position.key()
    }
    #[inline]
    fn generate(position: &Position) -> MoveList {
        position.legal_moves()
    }
    #[inline]
    fn make_move(position: &mut Position, m: Move) -> Undo {
        position.make_move(m)
    }
    #[inline]
    fn unmake_move(position: &mut Position, m: Move, undo: &Undo) {
        position.unmake_move(m, undo)
    }
    #[inline]
    fn generate_in_place(position: &mut Position) -> MoveList {
        position.legal_moves_in_place()
    }
    #[inline]
    fn count_moves(position: &mut Position) -> u64 {
        position.count_legal_in_place()
    }
    fn move_text_at(_position: &Position, m: Move) -> String {
        m.to_text()
    }
    fn parse_move_at(position: &Position, text: &str) -> Result<Move, MoveError> {
        position.parse_move(text)
    }
}

impl crate::game::Game for XiangqiGame {
    const PGN_VARIANT: Option<&'static str> = Some("xiangqi");
    const UCI_VARIANT: Option<&'static str> = Some("xiangqi");
    /// Fairy-Stockfish numbers the ranks 1..10 (`h3e3`), we 0..9 (`h2e2`).
    fn to_engine_text(ours: &str) -> String {
        super::to_ranks_1_to_10(ours).unwrap_or_else(|| ours.to_string())
    }
    fn from_engine_text(theirs: &str) -> Option<String> {
        super::to_ranks_0_to_9(theirs)
    }

    fn new_game(start: Position) -> Self {
        XiangqiGame::new(start)
    }
    fn start_position(&self) -> &Position {
        self.start()
    }
    fn position(&self) -> &Position {
        XiangqiGame::position(self)
    }
    fn mover(&self) -> Color {
        self.position().side_to_move()
    }
    fn play(&mut self, m: Move) -> bool {
        XiangqiGame::play(self, m).is_ok()
    }
    fn plies(&self) -> usize {
        self.ply_count()
    }
    fn halfmove_clock(&self) -> u32 {
        u32::from(self.position().halfmove_clock())
    }
    fn moves(&self) -> Vec<Move> {
        XiangqiGame::moves(self)
    }
    fn outcome(&self) -> Option<RulesOutcome> {
        let mover = crate::game::Game::mover(self);
        if let Some(outcome) = XiangqiGame::outcome(self) {
            let termination = match outcome {
                Outcome::Checkmate { .. } => RuleEnd::Checkmate,
                Outcome::Stalemate { .. } => RuleEnd::Stalemate,
            };
            return Some(RulesOutcome { result: GameResult::win_for(mover.flip()), termination });
        }
        if let Some(verdict) = self.repetition_verdict() {
            let result = match verdict {
                RepetitionVerdict::Draw => GameResult::Draw,
                RepetitionVerdict::MoverLoses => GameResult::win_for(mover),
                RepetitionVerdict::SideToMoveLoses => GameResult::win_for(mover.flip()),
            };
            let termination =
                if verdict == RepetitionVerdict::Draw { RuleEnd::ThreefoldRepetition } else { RuleEnd::PerpetualCheck };
            return Some(RulesOutcome { result, termination });
        }
        if self.position().halfmove_clock() >= NO_CAPTURE_PLIES {
            return Some(RulesOutcome { result: GameResult::Draw, termination: RuleEnd::SixtyMoveRule });
        }
        None
    }
    fn engine_move_text(&self, m: Move) -> String {
        super::to_ranks_1_to_10(&m.to_text()).expect("a move's own text converts")
    }
    fn parse_engine_move(&self, text: &str) -> Result<Move, MoveError> {
        let ours = super::to_ranks_0_to_9(text).ok_or_else(|| MoveError::EngineSyntax { text: text.to_string() })?;
        crate::game::Game::parse_move(self, &ours)
    }
    /// The runner's tags, then `Variant "xiangqi"`, `SetUp "1"` and `FEN` (always: the start is never chess's),
    /// and the moves as record text (`h2e2`), `1.` before each of Red's moves, comments in braces.
    fn pgn_text(
        tags: &[(String, String)],
        start: &Position,
        moves: &[Move],
        comments: Option<&[String]>,
        result: &str,
    ) -> String {
        let mut out = String::new();
        let variant = [("Variant", "xiangqi".to_string()), ("SetUp", "1".to_string()), ("FEN", start.to_fen())];
        for (key, value) in tags.iter().map(|(k, v)| (k.as_str(), v.clone())).chain(variant) {
            out.push_str(&format!("[{key} \"{}\"]\n", value.replace('\\', "\\\\").replace('"', "\\\"")));
        }
        out.push('\n');
        let mut words = Vec::with_capacity(moves.len() * 2 + 1);
        let mut game = XiangqiGame::new(start.clone());
        for (i, &m) in moves.iter().enumerate() {
            if game.position().side_to_move() == super::Color::RED {
                words.push(format!("{}.", i / 2 + 1));
            } else if i == 0 {
                words.push("1...".to_string());
            }
            words.push(m.to_text());
            if let Some(c) = comments.and_then(|c| c.get(i)).filter(|c| !c.is_empty()) {
                words.push(format!("{{{}}}", c.replace('}', ")")));
            }
            let legal = game.play(m).is_ok();
            debug_assert!(legal, "a record holds legal moves");
        }
        words.push(result.to_string());
        crate::notation::pgn::push_movetext(&mut out, &words);
        out
    }
    fn read_openings(
        path: &Path,
        text: &str,
        format: OpeningFormat,
        chess960: bool,
    ) -> Result<Vec<Opening<Self>>, OpeningError> {
        let file = path.display().to_string();
        if chess960 {
            return Err(OpeningError::Line {
                file,
                line: 0,
                reason: "chess960 is a chess variant; Xiangqi has none".into(),
            });
        }
        match format {
            OpeningFormat::Epd => read_epd_openings(text, &file),
            OpeningFormat::Pgn => Ok(read_rules_pgn::<XiangqiGame>(text, &file)?
                .into_iter()
                .map(|game| Opening { start: game.game.start().clone(), moves: game.game.moves(), line: game.line })
                .collect()),
            OpeningFormat::Polyglot => {
                Err(OpeningError::Book { file, reason: "Polyglot books are for chess, not xiangqi".to_string() })
            }
        }
    }
}

/// Reads Xiangqi EPD openings with the EPD reader of [`crate::notation::epd`] (FEN fields, then opcodes, which
/// are ignored here), each FEN checked by the Xiangqi FEN reader.
fn read_epd_openings(text: &str, file: &str) -> Result<Vec<Opening<XiangqiGame>>, OpeningError> {
    let check = |fen: &str| Position::from_fen(fen).map(drop).map_err(|e| e.to_string());
    crate::notation::epd::parse_epd_text_with(text, file, &check)?
        .into_iter()
        .map(|epd| {
            let start = Position::from_fen(&epd.fen).map_err(|e| OpeningError::Line {
                file: file.to_string(),
                line: epd.line,
                reason: e.to_string(),
            })?;
            Ok(Opening { start, moves: Vec::new(), line: epd.line })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::xiangqi::{XiangqiConfig, XiangqiEngine};
    use crate::game::Game as GameTrait;
    use crate::game::opening::random_openings;
    use crate::player::{BuiltinPlayer, MoveLimit};
    use crate::runner::game::{EndReason, GameSettings, play_game};
    use crate::runner::rundir::output::pgn_text;
    use crate::runner::scheduler::GamePair;
    use crate::{chess, xiangqi};

    fn player(name: &str) -> BuiltinPlayer<XiangqiEngine> {
        BuiltinPlayer::new(XiangqiConfig::builtin(name).unwrap())
    }

    #[test]
    fn random_openings_are_distinct_balanced_and_reproducible() {
        let start = <xiangqi::XiangqiGame as GameTrait>::from_fen(xiangqi::START_FEN).unwrap();
        let weights = XiangqiConfig::builtin("nopsqt").unwrap().weights;
        let balanced = |g: &xiangqi::XiangqiGame| crate::engine::xiangqi::evaluate(g.position(), &weights).abs() <= 50;
        let a = random_openings(&start, 20, 4, 7, balanced);
        let b = random_openings(&start, 20, 4, 7, balanced);
        assert_eq!(a.len(), 20);
        let fens: Vec<String> = a.iter().map(GameTrait::fen).collect();
        assert_eq!(fens, b.iter().map(GameTrait::fen).collect::<Vec<_>>());
        assert!(a.iter().all(|g| g.plies() == 4 && GameTrait::outcome(g).is_none()));
        assert_eq!(fens.iter().collect::<std::collections::HashSet<_>>().len(), 20);
    }

    #[test]
    fn xiangqi_move_text_for_fairy_stockfish() {
        let mut game = <xiangqi::XiangqiGame as GameTrait>::from_fen(xiangqi::START_FEN).unwrap();
        let m = game.parse_engine_move("h3e3").unwrap();
        assert_eq!(game.move_text(m), "h2e2");
        assert_eq!(game.engine_move_text(m), "h3e3");
        assert!(game.parse_engine_move("h2e2x").is_err());
        assert!(GameTrait::play(&mut game, m));
        let expected = format!("position fen {} moves h3e3", xiangqi::START_FEN);
        assert_eq!(crate::player::uci::position_command(&game), expected);
    }

    #[test]
    fn perpetual_check_ends_the_game_as_a_loss() {
        let mut game = <xiangqi::XiangqiGame as GameTrait>::from_fen("4k4/9/R8/9/9/9/9/9/9/3K5 w - - 0 1").unwrap();
        let moves = ["a7a9", "e9e8", "a9a8", "e8e9", "a8a9", "e9e8", "a9a8", "e8e9", "a8a9"];
        for text in moves {
            assert_eq!(GameTrait::outcome(&game), None);
            let m = game.parse_move(text).unwrap();
            assert!(GameTrait::play(&mut game, m));
        }
        let end = RulesOutcome { result: GameResult::BlackWins, termination: RuleEnd::PerpetualCheck };
        assert_eq!(GameTrait::outcome(&game), Some(end));
    }

    #[test]
    fn sixty_moves_without_a_capture_draw() {
        let mut game = <xiangqi::XiangqiGame as GameTrait>::from_fen("4k4/9/R8/9/9/9/9/9/9/3K5 w - - 119 80").unwrap();
        assert_eq!(GameTrait::outcome(&game), None);
        let m = game.parse_move("a7a6").unwrap();
        assert!(GameTrait::play(&mut game, m));
        let end = RulesOutcome { result: GameResult::Draw, termination: RuleEnd::SixtyMoveRule };
        assert_eq!(GameTrait::outcome(&game), Some(end));
    }

    #[test]
    fn xiangqi_self_play_through_the_runner() {
        let (mut seed, mut nopsqt) = (player("seed"), player("nopsqt"));
        let opening = Opening { start: xiangqi::Position::startpos(), moves: Vec::new(), line: 1 };
        let settings = GameSettings::with_limit(MoveLimit { nodes: Some(300), ..MoveLimit::default() });
        let record = play_game(&mut seed, &mut nopsqt, &opening, &settings);
        // Replaying the record from its start is legal move by move.
        let mut replay = xiangqi::XiangqiGame::new(record.start.clone());
        for &m in &record.moves {
            assert!(GameTrait::play(&mut replay, m));
        }
        assert_eq!(GameTrait::outcome(&replay).map(|o| o.result), Some(record.result));
        // The record file reads back: the same tags, moves and result.
        let pair = GamePair { index: 0, pairing: 0, first: 0, second: 1, opening: 0, swap: true, reverse: false };
        let text = pgn_text("t", &pair, 0, &record, std::time::UNIX_EPOCH);
        assert!(text.contains("[Variant \"xiangqi\"]\n[SetUp \"1\"]\n[FEN \"rnbakabnr/9/1c5c1/"), "{text}");
        assert!(text.contains("\n\n1. b2e2 {+0.10/1} b7b6 {+0.00/1} 2. b0c2 {+0.17/1} "), "{text}");
        let games = read_rules_pgn::<xiangqi::XiangqiGame>(&text, "games.pgn").unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].game.moves(), record.moves);
        assert_eq!(games[0].result, Some(record.result));
        assert!(games[0].tags.contains(&("Termination".to_string(), "checkmate".to_string())));
        let twice = format!("{text}{text}");
        assert_eq!(read_rules_pgn::<xiangqi::XiangqiGame>(&twice, "games.pgn").unwrap().len(), 2);
        let chess_err = read_rules_pgn::<chess::ChessGame>(&text, "games.pgn").unwrap_err().to_string();
        assert_eq!(chess_err, "games.pgn:1: Variant \"xiangqi\", expected none in a chess game");
        let bad = text.replacen("1. b2e2", "1. b2e9", 1);
        let err = read_rules_pgn::<xiangqi::XiangqiGame>(&bad, "games.pgn").unwrap_err().to_string();
        assert!(err.starts_with("games.pgn:14: ply 1: move \"b2e9\" is not legal in rnbakabnr/"), "{err}");
        // The same game cut from line 101 of a file (as `arbiter merge` replays it): the file's lines.
        let replayed = xiangqi::XiangqiGame::replay_pgn(&text, "games.pgn", 101).unwrap();
        assert_eq!((replayed.len(), replayed[0].plies, replayed[0].line), (1, 43, 101));
        assert_eq!(replayed[0].result, Some(GameResult::WhiteWins));
        let err = xiangqi::XiangqiGame::replay_pgn(&bad, "games.pgn", 101).unwrap_err().to_string();
        assert!(err.starts_with("games.pgn:114: ply 1: move \"b2e9\" is not legal in rnbakabnr/"), "{err}");
        // At 300 nodes a move, the build with piece-square tables mates the one without in 43 plies.
        assert_eq!(
            (record.result, record.end, record.moves.len()),
            (GameResult::WhiteWins, EndReason::Rules(RuleEnd::Checkmate), 43)
        );
    }
}
