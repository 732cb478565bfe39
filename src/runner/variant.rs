//! The game trait through which the runner is to play any game: [`MatchGame`], implemented for chess
//! ([`crate::chess::Game`]) and Xiangqi ([`crate::xiangqi::Game`]).
//!
//! # Design (issue 8, second part)
//!
//! Reading the runner, a game needs from its rules exactly this, and nothing else:
//!
//! | runner need | trait item |
//! |---|---|
//! | `--game NAME`, the PGN `Variant` tag, the UCI `UCI_Variant` option | [`MatchGame::NAME`], [`MatchGame::PGN_VARIANT`], [`MatchGame::UCI_VARIANT`] |
//! | the start position and opening FENs (EPD books, the PGN `FEN` tag) | [`MatchGame::START_FEN`], [`MatchGame::from_fen`], [`MatchGame::start_fen`] |
//! | whose turn (clocks, players, results by colour) | [`MatchGame::mover`] (the first mover, Red in Xiangqi, is `Color::White`) |
//! | legal moves (random book plies, the illegal-move check) | [`MatchGame::legal_moves`], [`MatchGame::play`] |
//! | the moves so far (records, UCI `position ... moves`) | [`MatchGame::moves`] |
//! | the end by the rules, repetition and move-count rules included | [`MatchGame::outcome`] |
//! | move text for the record (`e2e4`, `h2e2`) and for a UCI engine (Fairy-Stockfish writes Xiangqi ranks 1..10) | [`MatchGame::move_text`], [`MatchGame::parse_move`], [`MatchGame::engine_move_text`], [`MatchGame::parse_engine_move`] |
//!
//! The trait sits on the game-with-history type, not the position, because the end of a game (repetition,
//! perpetual check) depends on the history. Colours stay [`Color`] and results [`GameResult`], so that the
//! tallies, SPRT, Elo, CSV and summaries need no change: they never see a move. The plan is that
//! [`crate::runner::Player`], [`crate::runner::GameRecord`], the openings and the PGN writer and reader take a
//! type parameter `G: MatchGame` defaulting to chess, so that the chess path monomorphises to the code it runs
//! today (same speed, same output), and Xiangqi is a second instantiation. Until then [`play_rules_game`] plays a
//! game through the trait alone (used by the tests and the Xiangqi self-play measurement).
//!
//! # The Xiangqi rules of the runner
//!
//! A side with no legal move loses (checkmate or stalemate). A position occurring for the third time since the
//! last capture ends the game: the side that gave check with every one of its moves in the cycle loses
//! (perpetual check), otherwise it is a draw ([`crate::xiangqi::game`]). 120 plies (60 moves each) without a
//! capture are a draw (Arbiter's choice, like chess's fifty-move rule). Perpetual chasing is not judged: such a
//! repetition is a draw.

use crate::chess::game::GameResult;
use crate::chess::{self, Color};
use crate::xiangqi::{self, RepetitionVerdict};

/// A game ended by its rules: the result and the text of the PGN `Termination` tag and the CSV.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RulesEnd {
    /// Who won.
    pub result: GameResult,
    /// Why: `checkmate`, `stalemate`, `threefold repetition`, `perpetual check`, `sixty-move rule`, ...
    pub termination: &'static str,
}

/// The rules of a game as the runner needs them (see the module docs). `Self` is a game in progress: a
/// position with the moves that led to it.
pub trait MatchGame: Clone + Send + 'static {
    /// A move.
    type Move: Copy + Eq + std::fmt::Debug + Send;

    /// The name `--game` takes: `chess`, `xiangqi`.
    const NAME: &'static str;
    /// The PGN `Variant` tag (`None` for standard chess, which has none).
    const PGN_VARIANT: Option<&'static str>;
    /// The value of the UCI option `UCI_Variant` an engine needs (`None` for chess).
    const UCI_VARIANT: Option<&'static str>;
    /// The standard start position.
    const START_FEN: &'static str;

    /// A game starting at the position of `fen`.
    ///
    /// # Errors
    /// Why the FEN cannot be read, as text.
    fn from_fen(fen: &str) -> Result<Self, String>;

    /// The FEN of the start position of this game.
    fn start_fen(&self) -> String;

    /// The FEN of the current position.
    fn fen(&self) -> String;

    /// The side to move; the side that moves first is [`Color::White`].
    fn mover(&self) -> Color;

    /// The legal moves of the side to move.
    fn legal_moves(&self) -> Vec<Self::Move>;

    /// Plays `m` if it is legal; false (and nothing changed) otherwise.
    fn play(&mut self, m: Self::Move) -> bool;

    /// The moves played from the start position.
    fn moves(&self) -> Vec<Self::Move>;

    /// `Some` once the game is over by its rules.
    fn outcome(&self) -> Option<RulesEnd>;

    /// A move of the current position as record text (UCI coordinates; Xiangqi ranks 0..9: `h2e2`).
    fn move_text(&self, m: Self::Move) -> String;

    /// The legal move of the current position written as record text.
    ///
    /// # Errors
    /// Why the text is not a legal move here.
    fn parse_move(&self, text: &str) -> Result<Self::Move, String>;

    /// A move as a UCI engine for this game writes it (the record text unless the notations differ).
    fn engine_move_text(&self, m: Self::Move) -> String {
        self.move_text(m)
    }

    /// A UCI engine's move text as a legal move of the current position.
    ///
    /// # Errors
    /// Why the text is not a legal move here.
    fn parse_engine_move(&self, text: &str) -> Result<Self::Move, String> {
        self.parse_move(text)
    }
}

impl MatchGame for chess::Game {
    type Move = chess::Move;
    const NAME: &'static str = "chess";
    const PGN_VARIANT: Option<&'static str> = None;
    const UCI_VARIANT: Option<&'static str> = None;
    const START_FEN: &'static str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    fn from_fen(fen: &str) -> Result<Self, String> {
        chess::Position::from_fen(fen).map(chess::Game::new).map_err(|e| e.to_string())
    }
    fn start_fen(&self) -> String {
        self.start().to_fen()
    }
    fn fen(&self) -> String {
        self.position().to_fen()
    }
    fn mover(&self) -> Color {
        self.position().side_to_move()
    }
    fn legal_moves(&self) -> Vec<chess::Move> {
        self.position().legal_moves().iter().copied().collect()
    }
    fn play(&mut self, m: chess::Move) -> bool {
        chess::Game::play(self, m)
    }
    fn moves(&self) -> Vec<chess::Move> {
        chess::Game::moves(self).to_vec()
    }
    fn outcome(&self) -> Option<RulesEnd> {
        chess::Game::outcome(self).map(|o| RulesEnd { result: o.result, termination: o.termination.text() })
    }
    fn move_text(&self, m: chess::Move) -> String {
        m.to_uci(self.position().is_chess960())
    }
    fn parse_move(&self, text: &str) -> Result<chess::Move, String> {
        crate::notation::parse_uci(self.position(), text).map_err(|e| e.to_string())
    }
}

/// Plies without a capture after which a Xiangqi game is drawn (60 moves each; see the module docs).
pub const XIANGQI_NO_CAPTURE_PLIES: u16 = 120;

fn xiangqi_color(color: xiangqi::Color) -> Color {
    match color {
        xiangqi::Color::Red => Color::White,
        xiangqi::Color::Black => Color::Black,
    }
}

impl MatchGame for xiangqi::Game {
    type Move = xiangqi::Move;
    const NAME: &'static str = "xiangqi";
    const PGN_VARIANT: Option<&'static str> = Some("xiangqi");
    const UCI_VARIANT: Option<&'static str> = Some("xiangqi");
    const START_FEN: &'static str = xiangqi::START_FEN;

    fn from_fen(fen: &str) -> Result<Self, String> {
        xiangqi::Position::from_fen(fen).map(xiangqi::Game::new).map_err(|e| e.to_string())
    }
    fn start_fen(&self) -> String {
        self.start().to_fen()
    }
    fn fen(&self) -> String {
        self.position().to_fen()
    }
    fn mover(&self) -> Color {
        xiangqi_color(self.position().side_to_move())
    }
    fn legal_moves(&self) -> Vec<xiangqi::Move> {
        self.position().legal_moves().iter().copied().collect()
    }
    fn play(&mut self, m: xiangqi::Move) -> bool {
        xiangqi::Game::play(self, m).is_ok()
    }
    fn moves(&self) -> Vec<xiangqi::Move> {
        xiangqi::Game::moves(self)
    }
    fn outcome(&self) -> Option<RulesEnd> {
        let mover = self.mover();
        if let Some(outcome) = xiangqi::Game::outcome(self) {
            let termination = match outcome {
                xiangqi::Outcome::Checkmate { .. } => "checkmate",
                xiangqi::Outcome::Stalemate { .. } => "stalemate",
            };
            return Some(RulesEnd { result: GameResult::win_for(mover.flip()), termination });
        }
        if let Some(verdict) = self.repetition_verdict() {
            return Some(match verdict {
                RepetitionVerdict::Draw => RulesEnd { result: GameResult::Draw, termination: "threefold repetition" },
                RepetitionVerdict::MoverLoses => {
                    RulesEnd { result: GameResult::win_for(mover), termination: "perpetual check" }
                }
                RepetitionVerdict::SideToMoveLoses => {
                    RulesEnd { result: GameResult::win_for(mover.flip()), termination: "perpetual check" }
                }
            });
        }
        if self.position().halfmove_clock() >= XIANGQI_NO_CAPTURE_PLIES {
            return Some(RulesEnd { result: GameResult::Draw, termination: "sixty-move rule" });
        }
        None
    }
    fn move_text(&self, m: xiangqi::Move) -> String {
        m.to_text()
    }
    fn parse_move(&self, text: &str) -> Result<xiangqi::Move, String> {
        self.position().parse_move(text).map_err(|e| e.to_string())
    }
    fn engine_move_text(&self, m: xiangqi::Move) -> String {
        xiangqi::to_ranks_1_to_10(&m.to_text()).expect("a move's own text converts")
    }
    fn parse_engine_move(&self, text: &str) -> Result<xiangqi::Move, String> {
        let ours = xiangqi::to_ranks_0_to_9(text)
            .ok_or_else(|| format!("move {text:?}: expected coordinates with ranks 1-10 such as h3e3"))?;
        self.parse_move(&ours)
    }
}

/// A game played through [`MatchGame`] alone by [`play_rules_game`].
#[derive(Clone, Debug)]
pub struct RulesGameRecord<G: MatchGame> {
    /// The game at its end.
    pub game: G,
    /// The result.
    pub result: GameResult,
    /// Why it ended: a [`RulesEnd::termination`], `max moves`, or `illegal move` / `no move` (the mover loses).
    pub termination: &'static str,
}

/// A player for [`play_rules_game`]: gets the game, returns its move or `None` when it has none.
pub type RulesPlayer<'a, G> = &'a mut dyn FnMut(&G) -> Option<<G as MatchGame>::Move>;

/// Plays `game` to its end with `players[0]` moving for White (Red) and `players[1]` for Black: each gets the
/// game and returns a move, or `None` when it has none. The game ends by its rules, by a draw after `max_plies`
/// plies in all (`max moves`), or by a loss for a player whose move is illegal or missing.
pub fn play_rules_game<G: MatchGame>(
    mut game: G,
    players: [RulesPlayer<'_, G>; 2],
    max_plies: usize,
) -> RulesGameRecord<G> {
    let [white, black] = players;
    loop {
        if let Some(end) = game.outcome() {
            return RulesGameRecord { game, result: end.result, termination: end.termination };
        }
        if game.moves().len() >= max_plies {
            return RulesGameRecord { game, result: GameResult::Draw, termination: "max moves" };
        }
        let mover = game.mover();
        let answer = if mover == Color::White { white(&game) } else { black(&game) };
        let termination = match answer {
            Some(m) if game.play(m) => continue,
            Some(_) => "illegal move",
            None => "no move",
        };
        return RulesGameRecord { game, result: GameResult::win_for(mover.flip()), termination };
    }
}

/// A built-in Xiangqi engine as a player for [`play_rules_game`]: searches under `limits` with the game's history.
pub fn xiangqi_builtin_move(
    engine: &mut xiangqi::engine::XiangqiEngine,
    game: &xiangqi::Game,
    limits: xiangqi::engine::XiangqiLimits,
) -> Option<xiangqi::Move> {
    engine.search(game.position(), &game.history_keys(), limits).best_move
}

/// Asks the UCI engine `engine` (started, its options set, `UCI_Variant` included) for a move in `game` at
/// `nodes` nodes: sends `position fen START moves ...` in the engine's move notation and `go nodes`, waits up to
/// `timeout` for `bestmove`, and reads the move in the engine's notation.
///
/// # Errors
/// The engine's failure (a crash, a stall) or a `bestmove` that is not a legal move here, as text.
pub fn uci_engine_move<G: MatchGame>(
    engine: &mut crate::uci::EngineProcess,
    game: &G,
    nodes: u64,
    timeout: std::time::Duration,
) -> Result<G::Move, String> {
    let start = game.start_fen();
    let mut replay = G::from_fen(&start)?;
    let mut line = format!("position fen {start}");
    for (i, m) in game.moves().into_iter().enumerate() {
        line.push_str(if i == 0 { " moves " } else { " " });
        line.push_str(&replay.engine_move_text(m));
        replay.play(m);
    }
    engine.send(&line).map_err(|e| e.to_string())?;
    engine.send(&format!("go nodes {nodes}")).map_err(|e| e.to_string())?;
    let lines = engine.wait_for(|l| l.starts_with("bestmove"), "bestmove", timeout).map_err(|e| e.to_string())?;
    let last = lines.last().expect("wait_for returns the matching line");
    let text = last.split_whitespace().nth(1).ok_or_else(|| format!("{}: no move in {last:?}", engine.cmd()))?;
    game.parse_engine_move(text).map_err(|e| format!("{}: bestmove {text}: {e}", engine.cmd()))
}

/// The record of one game in the PGN-like format of the runner: the seven-tag roster with `White`, `Black`,
/// `Round` and `Result` filled, then `Variant` (for games that have one, such as `xiangqi`), `SetUp "1"`, `FEN`
/// (the start position) and `Termination`, a blank line, and the moves as record text (UCI-style coordinates;
/// Xiangqi ranks 0..9: `h2e2`), one per ply, numbered `1.` before each first mover's move, ending with the result
/// and a blank line. The PGN standard's tag syntax is kept so that PGN tools can read the tags.
pub fn rules_pgn_text<G: MatchGame>(event: &str, round: &str, names: [&str; 2], record: &RulesGameRecord<G>) -> String {
    let mut out = String::new();
    let result = record.result.pgn();
    let tags = [("Event", event), ("Site", "?"), ("Date", "????.??.??"), ("Round", round)];
    for (key, value) in tags.into_iter().chain([("White", names[0]), ("Black", names[1]), ("Result", result)]) {
        out.push_str(&format!("[{key} \"{value}\"]\n"));
    }
    if let Some(variant) = G::PGN_VARIANT {
        out.push_str(&format!("[Variant \"{variant}\"]\n"));
    }
    out.push_str(&format!(
        "[SetUp \"1\"]\n[FEN \"{}\"]\n[Termination \"{}\"]\n\n",
        record.game.start_fen(),
        record.termination
    ));
    let mut replay = G::from_fen(&record.game.start_fen()).expect("the record's own start FEN reads back");
    let mut words = Vec::new();
    for (i, m) in record.game.moves().into_iter().enumerate() {
        if replay.mover() == Color::White {
            words.push(format!("{}.", i / 2 + 1));
        } else if i == 0 {
            words.push("1...".to_string());
        }
        words.push(replay.move_text(m));
        replay.play(m);
    }
    words.push(result.to_string());
    for line in words.chunks(12) {
        out.push_str(&line.join(" "));
        out.push('\n');
    }
    out.push('\n');
    out
}

/// One game read back by [`read_rules_pgn`].
#[derive(Clone, Debug)]
pub struct RulesPgnGame<G: MatchGame> {
    /// The tags in file order, as `(name, value)`.
    pub tags: Vec<(String, String)>,
    /// The game replayed from its `FEN` tag (or the standard start) through every move.
    pub game: G,
    /// The result token at the end of the moves (`None` for `*` or none).
    pub result: Option<GameResult>,
}

/// Reads every game of a file written by [`rules_pgn_text`] (or any PGN whose moves are record text):
/// the tags, the moves replayed legally from the `FEN` tag, and the result token. `file` names the origin in
/// errors.
///
/// # Errors
/// `file:line: ...` text for a malformed tag, a `Variant` tag other than [`MatchGame::PGN_VARIANT`], a bad FEN, or
/// a token that is not a legal move (with the move number and the position's FEN).
pub fn read_rules_pgn<G: MatchGame>(text: &str, file: &str) -> Result<Vec<RulesPgnGame<G>>, String> {
    let mut games = Vec::new();
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut game: Option<G> = None;
    let mut result = None;
    let mut in_moves = false;
    let finish = |tags: &mut Vec<(String, String)>, game: &mut Option<G>, result, games: &mut Vec<RulesPgnGame<G>>| {
        if let Some(g) = game.take() {
            games.push(RulesPgnGame { tags: std::mem::take(tags), game: g, result });
        }
    };
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let at = |what: String| format!("{file}:{}: {what}", n + 1);
        if line.starts_with('[') {
            if in_moves {
                finish(&mut tags, &mut game, result.take(), &mut games);
                in_moves = false;
            }
            let inner = line
                .strip_prefix('[')
                .and_then(|l| l.strip_suffix(']'))
                .ok_or_else(|| at(format!("bad tag {line:?}")))?;
            let (key, value) = inner.split_once(' ').ok_or_else(|| at(format!("bad tag {line:?}")))?;
            let value = value
                .trim()
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .ok_or_else(|| at(format!("bad tag value in {line:?}")))?;
            if key == "Variant" && Some(value) != G::PGN_VARIANT {
                return Err(at(format!("Variant {value:?}, expected {:?} for --game {}", G::PGN_VARIANT, G::NAME)));
            }
            tags.push((key.to_string(), value.to_string()));
            continue;
        }
        if line.is_empty() {
            continue;
        }
        if !in_moves {
            let fen = tags.iter().find(|t| t.0 == "FEN").map_or(G::START_FEN, |t| t.1.as_str());
            game = Some(G::from_fen(fen).map_err(|e| at(format!("FEN tag: {e}")))?);
            in_moves = true;
        }
        let g = game.as_mut().expect("set when the moves began");
        for token in line.split_whitespace() {
            match token {
                "1-0" => result = Some(GameResult::WhiteWins),
                "0-1" => result = Some(GameResult::BlackWins),
                "1/2-1/2" => result = Some(GameResult::Draw),
                "*" => result = None,
                t if t.ends_with('.') && t.trim_end_matches('.').chars().all(|c| c.is_ascii_digit()) => {}
                t => {
                    let m = g.parse_move(t).map_err(|e| at(format!("ply {}: {e}", g.moves().len() + 1)))?;
                    g.play(m);
                }
            }
        }
    }
    finish(&mut tags, &mut game, result, &mut games);
    Ok(games)
}

/// Up to `count` distinct openings of `plies` random legal plies each from `start`, for matches where every game
/// would otherwise replay the same moves: a line is drawn ply by ply uniformly among the legal moves with a
/// `StdRng` seeded by `seed` (so the same arguments give the same openings), and kept when the game has not
/// ended by its rules, `keep` accepts the final game (for example a balance test with an engine's evaluation),
/// and its final FEN is new. Gives up after `count * 100` tries, so it may return fewer.
pub fn random_openings<G: MatchGame>(
    start: &G,
    count: usize,
    plies: usize,
    seed: u64,
    mut keep: impl FnMut(&G) -> bool,
) -> Vec<G> {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut out: Vec<G> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for _ in 0..count.saturating_mul(100) {
        if out.len() == count {
            break;
        }
        let mut game = start.clone();
        let mut ok = true;
        for _ in 0..plies {
            let moves = game.legal_moves();
            if moves.is_empty() || game.outcome().is_some() {
                ok = false;
                break;
            }
            game.play(moves[rng.random_range(0..moves.len())]);
        }
        if ok && game.outcome().is_none() && keep(&game) && seen.insert(game.fen()) {
            out.push(game);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xiangqi::engine::{XiangqiConfig, XiangqiEngine, XiangqiLimits};

    fn engine(name: &str) -> XiangqiEngine {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("configs/xiangqi/{name}.toml"));
        XiangqiEngine::new(XiangqiConfig::load(&path).unwrap())
    }

    #[test]
    fn random_openings_are_distinct_balanced_and_reproducible() {
        let start = <xiangqi::Game as MatchGame>::from_fen(xiangqi::START_FEN).unwrap();
        let weights = engine("nopsqt").config().weights.clone();
        let balanced = |g: &xiangqi::Game| crate::xiangqi::engine::evaluate(g.position(), &weights).abs() <= 50;
        let a = random_openings(&start, 20, 4, 7, balanced);
        let b = random_openings(&start, 20, 4, 7, balanced);
        assert_eq!(a.len(), 20);
        let fens: Vec<String> = a.iter().map(MatchGame::fen).collect();
        assert_eq!(fens, b.iter().map(MatchGame::fen).collect::<Vec<_>>());
        assert!(a.iter().all(|g| g.moves().len() == 4 && MatchGame::outcome(g).is_none()));
        assert_eq!(fens.iter().collect::<std::collections::HashSet<_>>().len(), 20);
    }

    #[test]
    fn xiangqi_move_text_for_fairy_stockfish() {
        let game = <xiangqi::Game as MatchGame>::from_fen(xiangqi::START_FEN).unwrap();
        let m = game.parse_engine_move("h3e3").unwrap();
        assert_eq!(game.move_text(m), "h2e2");
        assert_eq!(game.engine_move_text(m), "h3e3");
        assert!(game.parse_engine_move("h2e2x").is_err());
    }

    #[test]
    fn perpetual_check_ends_the_game_as_a_loss() {
        let mut game = <xiangqi::Game as MatchGame>::from_fen("4k4/9/R8/9/9/9/9/9/9/3K5 w - - 0 1").unwrap();
        let moves = ["a7a9", "e9e8", "a9a8", "e8e9", "a8a9", "e9e8", "a9a8", "e8e9", "a8a9"];
        for text in moves {
            assert_eq!(MatchGame::outcome(&game), None);
            let m = game.parse_move(text).unwrap();
            assert!(MatchGame::play(&mut game, m));
        }
        let end = RulesEnd { result: GameResult::BlackWins, termination: "perpetual check" };
        assert_eq!(MatchGame::outcome(&game), Some(end));
    }

    #[test]
    fn xiangqi_self_play_through_the_trait() {
        let (mut seed, mut nopsqt) = (engine("seed"), engine("nopsqt"));
        let limits = XiangqiLimits { nodes: Some(300), ..Default::default() };
        let mut red = |g: &xiangqi::Game| xiangqi_builtin_move(&mut seed, g, limits);
        let mut black = |g: &xiangqi::Game| xiangqi_builtin_move(&mut nopsqt, g, limits);
        let start = <xiangqi::Game as MatchGame>::from_fen(xiangqi::START_FEN).unwrap();
        let record = play_rules_game(start, [&mut red, &mut black], 400);
        // Replaying the record from its start is legal move by move and ends in the same position.
        let mut replay = <xiangqi::Game as MatchGame>::from_fen(&record.game.start_fen()).unwrap();
        for m in record.game.moves() {
            assert!(MatchGame::play(&mut replay, m));
        }
        assert_eq!(replay.fen(), record.game.fen());
        // The record file reads back: the same tags, moves and result.
        let text = rules_pgn_text("t", "1.1", ["seed", "nopsqt"], &record);
        assert!(text.contains("[Variant \"xiangqi\"]\n[SetUp \"1\"]\n[FEN \"rnbakabnr/9/1c5c1/"), "{text}");
        assert!(text.contains("\n\n1. b2e2 b7b6 2. b0c2 "), "{text}");
        let games = read_rules_pgn::<xiangqi::Game>(&text, "games.pgn").unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].game.moves(), record.game.moves());
        assert_eq!(games[0].result, Some(record.result));
        assert!(games[0].tags.contains(&("Termination".to_string(), "checkmate".to_string())));
        let twice = format!("{text}{text}");
        assert_eq!(read_rules_pgn::<xiangqi::Game>(&twice, "games.pgn").unwrap().len(), 2);
        let chess_err = read_rules_pgn::<chess::Game>(&text, "games.pgn").unwrap_err();
        assert_eq!(chess_err, "games.pgn:8: Variant \"xiangqi\", expected None for --game chess");
        let bad = text.replacen("1. b2e2", "1. b2e9", 1);
        let err = read_rules_pgn::<xiangqi::Game>(&bad, "games.pgn").unwrap_err();
        assert!(err.starts_with("games.pgn:13: ply 1: move \"b2e9\" is not legal in rnbakabnr/"), "{err}");
        // At 300 nodes a move, the build with piece-square tables mates the one without in 43 plies.
        assert_eq!(
            (record.result, record.termination, record.game.moves().len()),
            (GameResult::WhiteWins, "checkmate", 43)
        );
    }
}
