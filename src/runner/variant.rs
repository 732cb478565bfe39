//! The game trait through which the runner plays any game: [`MatchGame`], implemented for chess
//! ([`crate::chess::Game`]) and Xiangqi ([`crate::xiangqi::Game`]).
//!
//! # Design
//!
//! A game needs from its rules exactly what the runner reads, and nothing else:
//!
//! | runner need | trait item |
//! |---|---|
//! | `--game NAME`, the PGN `Variant` tag, the UCI `UCI_Variant` option | [`MatchGame::NAME`], [`MatchGame::PGN_VARIANT`], [`MatchGame::UCI_VARIANT`] |
//! | the start position and opening FENs (EPD and PGN books, the CSV's `start_fen`) | [`MatchGame::Position`], [`MatchGame::new_game`], [`MatchGame::from_fen`], [`MatchGame::position_fen`], [`MatchGame::read_openings`] |
//! | whose turn (clocks, players, results by colour) | [`MatchGame::mover`] (the first mover, Red in Xiangqi, is `Color::White`) |
//! | legal moves, the illegal-move check, the move cap | [`MatchGame::legal_moves`], [`MatchGame::play`], [`MatchGame::plies`], [`MatchGame::moves`] |
//! | the end by the rules, repetition and move-count rules included; a time forfeit against a side that cannot win | [`MatchGame::outcome`], [`MatchGame::can_win`] |
//! | move text for the record and for a UCI engine (Fairy-Stockfish writes Xiangqi ranks 1..10), the `position` command | [`MatchGame::move_text`], [`MatchGame::parse_move`], [`MatchGame::engine_move_text`], [`MatchGame::parse_engine_move`], [`MatchGame::uci_position`] |
//! | `games.pgn` | [`MatchGame::pgn_text`] (chess: SAN; Xiangqi: coordinates, read back by [`read_rules_pgn`]), [`MatchGame::replay_pgn`] (`arbiter merge` replays every game) |
//! | the built-in engine of an `--engine` entry | [`MatchGame::builtin_player`] |
//!
//! The trait sits on the game-with-history type, not the position, because the end of a game (repetition,
//! perpetual check) depends on the history. Colours stay [`Color`] and results [`GameResult`], so that the
//! tallies, SPRT, Elo, CSV and summaries need no change: they never see a move. [`crate::runner::Player`],
//! [`crate::runner::GameRecord`], [`crate::runner::Opening`], [`crate::runner::MatchSpec`], the scheduler, the
//! PGN writer and the UCI player take a type parameter `G: MatchGame` that defaults to chess, so the chess path
//! monomorphises to the code it ran before (same output, same run fingerprints) and Xiangqi is a second
//! instantiation; `arbiter match --game xiangqi` picks it ([`GameKind`]).
//!
//! # The Xiangqi rules of the runner
//!
//! A side with no legal move loses (checkmate or stalemate). A position occurring for the third time since the
//! last capture ends the game: the side that gave check with every one of its moves in the cycle loses
//! (perpetual check), otherwise it is a draw ([`crate::xiangqi::game`]). 120 plies (60 moves each) without a
//! capture are a draw (Arbiter's choice, like chess's fifty-move rule). Perpetual chasing is not judged: such a
//! repetition is a draw.

use super::openings::{Opening, OpeningError, OpeningFormat, Variant};
use super::player::{EngineKind, Player};
use crate::chess::game::GameResult;
use crate::chess::{self, Color};
use crate::notation::pgn::{RawGame, split_games_at};
use crate::xiangqi::{self, RepetitionVerdict};
use std::path::Path;

/// The game a command plays (`--game`): chess (with its variants, see [`Variant`]), Xiangqi, or checkers
/// (Russian draughts, English checkers: `arbiter perft` only, see [`GameKind::refuse_checkers`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum GameKind {
    /// Chess ([`chess::Game`]).
    #[default]
    Chess,
    /// Xiangqi, Chinese chess ([`xiangqi::Game`]).
    Xiangqi,
    /// Russian draughts ([`crate::checkers`]; perft only).
    Russian,
    /// English checkers ([`crate::checkers`]; perft only).
    English,
}

impl GameKind {
    /// The name on the command line: `chess`, `xiangqi` (the [`MatchGame::NAME`] of its game), `russian` or
    /// `english`.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Chess => <chess::Game as MatchGame>::NAME,
            GameKind::Xiangqi => <xiangqi::Game as MatchGame>::NAME,
            GameKind::Russian => "russian",
            GameKind::English => "english",
        }
    }

    /// Whether the game is checkers (Russian draughts or English checkers).
    pub fn is_checkers(self) -> bool {
        matches!(self, GameKind::Russian | GameKind::English)
    }

    /// `Ok` for chess and Xiangqi; for checkers, which Arbiter cannot play, the error text of `arbiter
    /// command` (`match`, `merge`, `book`): checkers has perft and the endgame base only.
    ///
    /// # Errors
    /// The sentence to print (the caller exits with code 2).
    pub fn refuse_checkers(self, command: &str) -> Result<(), String> {
        if self.is_checkers() {
            return Err(format!(
                "--game {}: arbiter {command} plays chess and xiangqi; checkers has perft and the endgame base",
                self.name()
            ));
        }
        Ok(())
    }
}

/// Why a game ended by the rules of its game: the chess terminations and those of Xiangqi.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RuleEnd {
    /// The side to move is checkmated.
    Checkmate,
    /// The side to move has no legal move and is not in check (a draw in chess, a loss in Xiangqi).
    Stalemate,
    /// A position occurred for the third time (a draw).
    ThreefoldRepetition,
    /// Chess: 100 plies without a capture or pawn move.
    FiftyMoveRule,
    /// Chess: neither side can mate.
    InsufficientMaterial,
    /// Xiangqi: a repetition in which one side gave check with every move; that side loses.
    PerpetualCheck,
    /// Xiangqi: [`XIANGQI_NO_CAPTURE_PLIES`] plies without a capture (a draw).
    SixtyMoveRule,
}

impl RuleEnd {
    /// Every rules termination, in the order of the summary's termination table.
    pub const ALL: [RuleEnd; 7] = [
        RuleEnd::Checkmate,
        RuleEnd::Stalemate,
        RuleEnd::ThreefoldRepetition,
        RuleEnd::FiftyMoveRule,
        RuleEnd::InsufficientMaterial,
        RuleEnd::PerpetualCheck,
        RuleEnd::SixtyMoveRule,
    ];

    /// The text of the PGN `Termination` tag and the CSV: `checkmate`, `stalemate`, `threefold repetition`,
    /// `fifty-move rule`, `insufficient material`, `perpetual check`, `sixty-move rule`.
    pub fn text(self) -> &'static str {
        match self {
            RuleEnd::Checkmate => "checkmate",
            RuleEnd::Stalemate => "stalemate",
            RuleEnd::ThreefoldRepetition => "threefold repetition",
            RuleEnd::FiftyMoveRule => "fifty-move rule",
            RuleEnd::InsufficientMaterial => "insufficient material",
            RuleEnd::PerpetualCheck => "perpetual check",
            RuleEnd::SixtyMoveRule => "sixty-move rule",
        }
    }
}

impl From<chess::Termination> for RuleEnd {
    fn from(termination: chess::Termination) -> RuleEnd {
        match termination {
            chess::Termination::Checkmate => RuleEnd::Checkmate,
            chess::Termination::Stalemate => RuleEnd::Stalemate,
            chess::Termination::ThreefoldRepetition => RuleEnd::ThreefoldRepetition,
            chess::Termination::FiftyMoveRule => RuleEnd::FiftyMoveRule,
            chess::Termination::InsufficientMaterial => RuleEnd::InsufficientMaterial,
        }
    }
}

/// A game ended by its rules: who won and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RulesOutcome {
    /// Who won.
    pub result: GameResult,
    /// Why.
    pub termination: RuleEnd,
}

/// The rules of a game as the runner needs them (see the module docs). `Self` is a game in progress: a
/// position with the moves that led to it.
pub trait MatchGame: Clone + std::fmt::Debug + Send + Sync + 'static {
    /// A move.
    type Move: Copy + Eq + std::fmt::Debug + Send + Sync;
    /// A position (the start of a game, an opening).
    type Position: Clone + std::fmt::Debug + PartialEq + Send + Sync;

    /// The name `--game` takes: `chess`, `xiangqi`.
    const NAME: &'static str;
    /// The PGN `Variant` tag (`None` for standard chess, which has none).
    const PGN_VARIANT: Option<&'static str>;
    /// The value of the UCI option `UCI_Variant` an engine needs (`None` for chess).
    const UCI_VARIANT: Option<&'static str>;
    /// The standard start position.
    const START_FEN: &'static str;

    /// A game starting at `start`, no move played.
    fn new_game(start: Self::Position) -> Self;

    /// A game starting at the position of `fen`.
    ///
    /// # Errors
    /// Why the FEN cannot be read, as text.
    fn from_fen(fen: &str) -> Result<Self, String>;

    /// The position the game started from.
    fn start_position(&self) -> &Self::Position;

    /// The FEN of `position`.
    fn position_fen(position: &Self::Position) -> String;

    /// The FEN of the start position of this game.
    fn start_fen(&self) -> String {
        Self::position_fen(self.start_position())
    }

    /// The FEN of the current position.
    fn fen(&self) -> String;

    /// The side to move; the side that moves first is [`Color::White`].
    fn mover(&self) -> Color;

    /// The legal moves of the side to move.
    fn legal_moves(&self) -> Vec<Self::Move>;

    /// Plays `m` if it is legal; false (and nothing changed) otherwise.
    fn play(&mut self, m: Self::Move) -> bool;

    /// The number of moves (plies) played from the start position.
    fn plies(&self) -> usize;

    /// Plies since the last irreversible move (chess: capture or pawn move; Xiangqi: capture), counted from the
    /// start position's own clock: 0 right after such a move. Draw adjudication restarts its count there.
    fn halfmove_clock(&self) -> u32;

    /// The moves played from the start position.
    fn moves(&self) -> Vec<Self::Move>;

    /// `Some` once the game is over by its rules.
    fn outcome(&self) -> Option<RulesOutcome>;

    /// Whether `color` could still win by some sequence of legal moves, as far as material tells: a side that
    /// oversteps its time then draws instead of losing when the opponent cannot win (FIDE Laws 6.9). True
    /// unless the game knows better.
    fn can_win(&self, _color: Color) -> bool {
        true
    }

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

    /// The UCI `position` command for this game: `position fen START moves ...` in the engine's notation.
    fn uci_position(&self) -> String {
        let mut replay = Self::new_game(self.start_position().clone());
        let mut line = format!("position fen {}", self.start_fen());
        for (i, m) in self.moves().into_iter().enumerate() {
            line.push_str(if i == 0 { " moves " } else { " " });
            line.push_str(&replay.engine_move_text(m));
            replay.play(m);
        }
        line
    }

    /// Whether the game is Chess960 (a UCI engine then gets `UCI_Chess960 true`).
    fn is_chess960(&self) -> bool {
        false
    }

    /// The record of one game as PGN text: `tags` (the runner's roster and `Termination`), the start position
    /// where the game needs it (`SetUp`, `FEN`, `Variant`), the movetext with an optional comment per move and
    /// the result.
    fn pgn_text(
        tags: &[(String, String)],
        start: &Self::Position,
        moves: &[Self::Move],
        comments: Option<&[String]>,
        result: &str,
    ) -> String;

    /// Reads every opening of an EPD or PGN file whose text is `text`, in `format`, each with all its book
    /// moves ([`crate::runner::load_game_openings`] cuts them to `--plies` and checks that a move is left to play).
    ///
    /// # Errors
    /// An [`OpeningError`] naming the file and line.
    fn read_openings(
        path: &Path,
        text: &str,
        format: OpeningFormat,
        variant: Variant,
    ) -> Result<Vec<Opening<Self>>, OpeningError>;

    /// The built-in engine of `kind` as a player of this game.
    ///
    /// # Errors
    /// Why it cannot play this game (a build of another game's engine, or an external engine), as text.
    fn builtin_player(kind: &EngineKind) -> Result<Box<dyn Player<Self>>, String>;

    /// Replays the games of PGN text as [`MatchGame::pgn_text`] writes them: each game's moves played legally
    /// from its `FEN` tag (or the start). `text` begins at line `first_line` (1-based) of `file`, so that one
    /// game cut from a run's `games.pgn` is reported at its place in the file. The default reads record move
    /// text with [`read_rules_pgn_at`]; chess reads SAN (and Chess960 games by their `Variant` tag).
    ///
    /// # Errors
    /// The PGN syntax, a `Variant` tag of another game, a bad `FEN` tag or a move that is not legal, as text
    /// naming `file` and the line.
    fn replay_pgn(text: &str, file: &str, first_line: usize) -> Result<Vec<ReplayedGame>, String> {
        Ok(read_rules_pgn_at::<Self>(text, file, first_line)
            .map_err(|e| e.to_string())?
            .into_iter()
            .map(|g| ReplayedGame { tags: g.tags, plies: g.game.plies(), result: g.result, line: g.line })
            .collect())
    }
}

/// One game replayed by [`MatchGame::replay_pgn`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayedGame {
    /// The tags in file order, as `(name, value)`.
    pub tags: Vec<(String, String)>,
    /// The moves replayed, in plies (book moves included, as `PlyCount` counts them).
    pub plies: usize,
    /// The result token at the end of the moves (`None` for `*` or none).
    pub result: Option<GameResult>,
    /// The 1-based line of the file where the game begins.
    pub line: usize,
}

impl MatchGame for chess::Game {
    type Move = chess::Move;
    type Position = chess::Position;
    const NAME: &'static str = "chess";
    const PGN_VARIANT: Option<&'static str> = None;
    const UCI_VARIANT: Option<&'static str> = None;
    const START_FEN: &'static str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    fn new_game(start: chess::Position) -> Self {
        chess::Game::new(start)
    }
    fn from_fen(fen: &str) -> Result<Self, String> {
        chess::Position::from_fen(fen).map(chess::Game::new).map_err(|e| e.to_string())
    }
    fn start_position(&self) -> &chess::Position {
        self.start()
    }
    fn position_fen(position: &chess::Position) -> String {
        position.to_fen()
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
    fn plies(&self) -> usize {
        chess::Game::moves(self).len()
    }
    fn halfmove_clock(&self) -> u32 {
        u32::from(self.position().halfmove_clock())
    }
    fn moves(&self) -> Vec<chess::Move> {
        chess::Game::moves(self).to_vec()
    }
    fn outcome(&self) -> Option<RulesOutcome> {
        chess::Game::outcome(self).map(|o| RulesOutcome { result: o.result, termination: o.termination.into() })
    }
    fn can_win(&self, color: Color) -> bool {
        super::game::can_mate(self.position(), color)
    }
    fn move_text(&self, m: chess::Move) -> String {
        m.to_uci(self.position().is_chess960())
    }
    fn parse_move(&self, text: &str) -> Result<chess::Move, String> {
        crate::notation::parse_uci(self.position(), text).map_err(|e| e.to_string())
    }
    fn uci_position(&self) -> String {
        super::uci_player::position_command(self)
    }
    fn is_chess960(&self) -> bool {
        self.position().is_chess960()
    }
    fn pgn_text(
        tags: &[(String, String)],
        start: &chess::Position,
        moves: &[chess::Move],
        comments: Option<&[String]>,
        result: &str,
    ) -> String {
        crate::notation::pgn::write_game(tags, start, moves, comments, result)
    }
    fn read_openings(
        path: &Path,
        text: &str,
        format: OpeningFormat,
        variant: Variant,
    ) -> Result<Vec<Opening>, OpeningError> {
        super::openings::read_chess_openings(path, text, format, variant)
    }
    fn replay_pgn(text: &str, file: &str, first_line: usize) -> Result<Vec<ReplayedGame>, String> {
        let games = crate::notation::pgn::read_games_at(text, file, first_line, false).map_err(|e| e.to_string())?;
        Ok(games
            .into_iter()
            .map(|g| ReplayedGame {
                plies: g.moves.len(),
                result: GameResult::from_pgn(&g.result),
                line: g.line,
                tags: g.tags,
            })
            .collect())
    }
    fn builtin_player(kind: &EngineKind) -> Result<Box<dyn Player>, String> {
        match kind {
            EngineKind::Builtin(config) => Ok(Box::new(super::player::BuiltinPlayer::<crate::engine::Engine>::new(
                crate::engine::EngineConfig::clone(config),
            ))),
            EngineKind::XiangqiBuiltin(config) => {
                Err(format!("{} is a Xiangqi build; it cannot play chess (pass --game xiangqi)", config.name))
            }
            EngineKind::Uci(_) => Err("an external engine is not built in".to_string()),
        }
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
    type Position = xiangqi::Position;
    const NAME: &'static str = "xiangqi";
    const PGN_VARIANT: Option<&'static str> = Some("xiangqi");
    const UCI_VARIANT: Option<&'static str> = Some("xiangqi");
    const START_FEN: &'static str = xiangqi::START_FEN;

    fn new_game(start: xiangqi::Position) -> Self {
        xiangqi::Game::new(start)
    }
    fn from_fen(fen: &str) -> Result<Self, String> {
        xiangqi::Position::from_fen(fen).map(xiangqi::Game::new).map_err(|e| e.to_string())
    }
    fn start_position(&self) -> &xiangqi::Position {
        self.start()
    }
    fn position_fen(position: &xiangqi::Position) -> String {
        position.to_fen()
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
    fn plies(&self) -> usize {
        self.ply_count()
    }
    fn halfmove_clock(&self) -> u32 {
        u32::from(self.position().halfmove_clock())
    }
    fn moves(&self) -> Vec<xiangqi::Move> {
        xiangqi::Game::moves(self)
    }
    fn outcome(&self) -> Option<RulesOutcome> {
        let mover = self.mover();
        if let Some(outcome) = xiangqi::Game::outcome(self) {
            let termination = match outcome {
                xiangqi::Outcome::Checkmate { .. } => RuleEnd::Checkmate,
                xiangqi::Outcome::Stalemate { .. } => RuleEnd::Stalemate,
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
        if self.position().halfmove_clock() >= XIANGQI_NO_CAPTURE_PLIES {
            return Some(RulesOutcome { result: GameResult::Draw, termination: RuleEnd::SixtyMoveRule });
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
        let ours = xiangqi::to_ranks_0_to_9(text).ok_or_else(|| {
            format!("move {}: expected coordinates with ranks 1-10 such as h3e3", crate::notation::quote::shown(text))
        })?;
        self.parse_move(&ours)
    }
    /// The runner's tags, then `Variant "xiangqi"`, `SetUp "1"` and `FEN` (always: the start is never chess's),
    /// and the moves as record text (`h2e2`), `1.` before each of Red's moves, comments in braces.
    fn pgn_text(
        tags: &[(String, String)],
        start: &xiangqi::Position,
        moves: &[xiangqi::Move],
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
        let mut game = xiangqi::Game::new(start.clone());
        for (i, &m) in moves.iter().enumerate() {
            if game.position().side_to_move() == xiangqi::Color::Red {
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
        variant: Variant,
    ) -> Result<Vec<Opening<Self>>, OpeningError> {
        let file = path.display().to_string();
        if variant.is_chess960() {
            return Err(OpeningError::Line { file, line: 0, reason: "--variant chess960 is a chess variant".into() });
        }
        match format {
            OpeningFormat::Epd => read_xiangqi_epd(text, &file),
            OpeningFormat::Pgn => Ok(read_rules_pgn::<xiangqi::Game>(text, &file)?
                .into_iter()
                .map(|game| Opening { start: game.game.start().clone(), moves: game.game.moves(), line: game.line })
                .collect()),
        }
    }
    fn builtin_player(kind: &EngineKind) -> Result<Box<dyn Player<Self>>, String> {
        match kind {
            EngineKind::XiangqiBuiltin(config) => {
                Ok(Box::new(super::player::BuiltinPlayer::<xiangqi::engine::XiangqiEngine>::new(
                    xiangqi::engine::XiangqiConfig::clone(config),
                )))
            }
            EngineKind::Builtin(config) => {
                Err(format!("{} is a chess build; it cannot play Xiangqi (give a Xiangqi config)", config.name))
            }
            EngineKind::Uci(_) => Err("an external engine is not built in".to_string()),
        }
    }
}

/// Reads Xiangqi EPD openings with the EPD reader of [`crate::notation::epd`] (FEN fields, then opcodes, which
/// are ignored here), each FEN checked by the Xiangqi FEN reader.
fn read_xiangqi_epd(text: &str, file: &str) -> Result<Vec<Opening<xiangqi::Game>>, OpeningError> {
    let check = |fen: &str| xiangqi::Position::from_fen(fen).map(drop).map_err(|e| e.to_string());
    crate::notation::epd::parse_epd_text_with(text, file, &check)?
        .into_iter()
        .map(|epd| {
            let start = xiangqi::Position::from_fen(&epd.fen).map_err(|e| OpeningError::Line {
                file: file.to_string(),
                line: epd.line,
                reason: e.to_string(),
            })?;
            Ok(Opening { start, moves: Vec::new(), line: epd.line })
        })
        .collect()
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
    /// The 1-based line where the game begins.
    pub line: usize,
}

/// Reads every game of a PGN file whose moves are record text ([`MatchGame::move_text`], as the runner writes
/// Xiangqi games): the tags, the moves replayed legally from the `FEN` tag, and the result token; comments,
/// NAGs and variations are skipped (the PGN syntax is read by [`split_games`](crate::notation::pgn::split_games)). `file` names the origin in
/// errors.
///
/// # Errors
/// [`OpeningError::Pgn`] for the PGN syntax, [`OpeningError::Line`] (`file:line: ...`) for a `Variant` tag other
/// than [`MatchGame::PGN_VARIANT`], a bad FEN, or a token that is not a legal move (with the ply and the
/// position's FEN).
pub fn read_rules_pgn<G: MatchGame>(text: &str, file: &str) -> Result<Vec<RulesPgnGame<G>>, OpeningError> {
    read_rules_pgn_at(text, file, 1)
}

/// [`read_rules_pgn`] for `text` that begins at line `first_line` (1-based) of `file`: the lines in games and
/// errors are the file's.
///
/// # Errors
/// As [`read_rules_pgn`].
pub fn read_rules_pgn_at<G: MatchGame>(
    text: &str,
    file: &str,
    first_line: usize,
) -> Result<Vec<RulesPgnGame<G>>, OpeningError> {
    let mut games = Vec::new();
    for raw in split_games_at(text, file, first_line)? {
        let fen_line = raw.tag_line("FEN");
        let RawGame { tags, tokens, line, .. } = raw;
        let at = |line: usize, reason: String| OpeningError::Line { file: file.to_string(), line, reason };
        if let Some((_, value)) = tags.iter().find(|t| t.0 == "Variant")
            && Some(value.as_str()) != G::PGN_VARIANT
        {
            let expected = G::PGN_VARIANT.map_or("none".to_string(), |v| format!("{v:?}"));
            return Err(at(line, format!("Variant {value:?}, expected {expected} for --game {}", G::NAME)));
        }
        let fen = tags.iter().find(|t| t.0 == "FEN").map_or(G::START_FEN, |t| t.1.as_str());
        let mut game = G::from_fen(fen).map_err(|e| at(fen_line.unwrap_or(line), format!("FEN tag: {e}")))?;
        let mut result = None;
        for (n, token) in tokens {
            if let Some(r) = GameResult::from_pgn(&token) {
                result = Some(r);
                continue;
            }
            match token.as_str() {
                "*" => result = None,
                t if t.starts_with('$') => {}
                t if t.trim_end_matches('.').chars().all(|c| c.is_ascii_digit()) => {}
                t => {
                    let m = game.parse_move(t).map_err(|e| at(n, format!("ply {}: {e}", game.plies() + 1)))?;
                    game.play(m);
                }
            }
        }
        games.push(RulesPgnGame { tags, game, result, line });
    }
    Ok(games)
}

/// Up to `count` distinct openings of `plies` random legal plies each from `start`, for matches where every game
/// would otherwise replay the same moves: a line is drawn ply by ply uniformly among the legal moves with a
/// `StdRng` seeded by `seed` (so the same arguments give the same openings), and kept when the game has not
/// ended by its rules, its final FEN is new, and `keep` accepts the final game (for example a balance test with
/// an engine's search; it is asked only for new positions, so that its calls match the openings it accepted
/// one to one). Gives up after `count * 100` tries, so it may return fewer.
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
        if !ok || game.outcome().is_some() {
            continue;
        }
        let fen = game.fen();
        if !seen.contains(&fen) && keep(&game) {
            seen.insert(fen);
            out.push(game);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::game::{EndReason, GameSettings, play_game};
    use crate::runner::player::{BuiltinPlayer, MoveLimit};
    use crate::runner::rundir::output::pgn_text;
    use crate::runner::scheduler::GamePair;
    use crate::xiangqi::engine::{XiangqiConfig, XiangqiEngine};

    fn player(name: &str) -> BuiltinPlayer<XiangqiEngine> {
        BuiltinPlayer::new(XiangqiConfig::builtin(name).unwrap())
    }

    #[test]
    fn random_openings_are_distinct_balanced_and_reproducible() {
        let start = <xiangqi::Game as MatchGame>::from_fen(xiangqi::START_FEN).unwrap();
        let weights = XiangqiConfig::builtin("nopsqt").unwrap().weights;
        let balanced = |g: &xiangqi::Game| crate::xiangqi::engine::evaluate(g.position(), &weights).abs() <= 50;
        let a = random_openings(&start, 20, 4, 7, balanced);
        let b = random_openings(&start, 20, 4, 7, balanced);
        assert_eq!(a.len(), 20);
        let fens: Vec<String> = a.iter().map(MatchGame::fen).collect();
        assert_eq!(fens, b.iter().map(MatchGame::fen).collect::<Vec<_>>());
        assert!(a.iter().all(|g| g.plies() == 4 && MatchGame::outcome(g).is_none()));
        assert_eq!(fens.iter().collect::<std::collections::HashSet<_>>().len(), 20);
    }

    #[test]
    fn xiangqi_move_text_for_fairy_stockfish() {
        let mut game = <xiangqi::Game as MatchGame>::from_fen(xiangqi::START_FEN).unwrap();
        let m = game.parse_engine_move("h3e3").unwrap();
        assert_eq!(game.move_text(m), "h2e2");
        assert_eq!(game.engine_move_text(m), "h3e3");
        assert!(game.parse_engine_move("h2e2x").is_err());
        assert!(MatchGame::play(&mut game, m));
        let expected = format!("position fen {} moves h3e3", xiangqi::START_FEN);
        assert_eq!(game.uci_position(), expected);
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
        let end = RulesOutcome { result: GameResult::BlackWins, termination: RuleEnd::PerpetualCheck };
        assert_eq!(MatchGame::outcome(&game), Some(end));
    }

    #[test]
    fn sixty_moves_without_a_capture_draw() {
        let mut game = <xiangqi::Game as MatchGame>::from_fen("4k4/9/R8/9/9/9/9/9/9/3K5 w - - 119 80").unwrap();
        assert_eq!(MatchGame::outcome(&game), None);
        let m = game.parse_move("a7a6").unwrap();
        assert!(MatchGame::play(&mut game, m));
        let end = RulesOutcome { result: GameResult::Draw, termination: RuleEnd::SixtyMoveRule };
        assert_eq!(MatchGame::outcome(&game), Some(end));
    }

    #[test]
    fn xiangqi_self_play_through_the_runner() {
        let (mut seed, mut nopsqt) = (player("seed"), player("nopsqt"));
        let opening = Opening { start: xiangqi::Position::startpos(), moves: Vec::new(), line: 1 };
        let settings = GameSettings::with_limit(MoveLimit { nodes: Some(300), ..MoveLimit::default() });
        let record = play_game(&mut seed, &mut nopsqt, &opening, &settings);
        // Replaying the record from its start is legal move by move.
        let mut replay = xiangqi::Game::new(record.start.clone());
        for &m in &record.moves {
            assert!(MatchGame::play(&mut replay, m));
        }
        assert_eq!(MatchGame::outcome(&replay).map(|o| o.result), Some(record.result));
        // The record file reads back: the same tags, moves and result.
        let pair = GamePair { index: 0, pairing: 0, first: 0, second: 1, opening: 0, swap: true };
        let text = pgn_text("t", &pair, 0, &record, std::time::UNIX_EPOCH);
        assert!(text.contains("[Variant \"xiangqi\"]\n[SetUp \"1\"]\n[FEN \"rnbakabnr/9/1c5c1/"), "{text}");
        assert!(text.contains("\n\n1. b2e2 {+0.10/1} b7b6 {+0.00/1} 2. b0c2 {+0.17/1} "), "{text}");
        let games = read_rules_pgn::<xiangqi::Game>(&text, "games.pgn").unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].game.moves(), record.moves);
        assert_eq!(games[0].result, Some(record.result));
        assert!(games[0].tags.contains(&("Termination".to_string(), "checkmate".to_string())));
        let twice = format!("{text}{text}");
        assert_eq!(read_rules_pgn::<xiangqi::Game>(&twice, "games.pgn").unwrap().len(), 2);
        let chess_err = read_rules_pgn::<chess::Game>(&text, "games.pgn").unwrap_err().to_string();
        assert_eq!(chess_err, "games.pgn:1: Variant \"xiangqi\", expected none for --game chess");
        let bad = text.replacen("1. b2e2", "1. b2e9", 1);
        let err = read_rules_pgn::<xiangqi::Game>(&bad, "games.pgn").unwrap_err().to_string();
        assert!(err.starts_with("games.pgn:14: ply 1: move \"b2e9\" is not legal in rnbakabnr/"), "{err}");
        // The same game cut from line 101 of a file (as `arbiter merge` replays it): the file's lines.
        let replayed = xiangqi::Game::replay_pgn(&text, "games.pgn", 101).unwrap();
        assert_eq!((replayed.len(), replayed[0].plies, replayed[0].line), (1, 43, 101));
        assert_eq!(replayed[0].result, Some(GameResult::WhiteWins));
        let err = xiangqi::Game::replay_pgn(&bad, "games.pgn", 101).unwrap_err();
        assert!(err.starts_with("games.pgn:114: ply 1: move \"b2e9\" is not legal in rnbakabnr/"), "{err}");
        // At 300 nodes a move, the build with piece-square tables mates the one without in 43 plies.
        assert_eq!(
            (record.result, record.end, record.moves.len()),
            (GameResult::WhiteWins, EndReason::Rules(RuleEnd::Checkmate), 43)
        );
    }
}
