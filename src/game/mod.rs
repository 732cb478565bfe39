//! The two traits every game implements, [`Rules`] and [`Game`], and the types every game shares: the side ([`Color`], the
//! first mover is White), the result ([`GameResult`]) and the end by the rules ([`RuleEnd`], [`RulesOutcome`]).
//! The registry of the games that implement it, the `--game` choice, is `crate::games` (above the games).
//!
//! # Design
//!
//! [`Rules`] is what perft, the perft comparison and the engines need: a [`Rules::Position`], its FEN and key, the
//! legal moves, make and unmake, move text at a position (21 items). [`Game`] adds what a match needs, on a game
//! in progress (a start position with the moves that led to the current one: [`crate::chess::ChessGame`],
//! [`crate::xiangqi::XiangqiGame`], [`crate::checkers::CheckersGame`]), because the end of a game (repetition,
//! perpetual check) depends on the history: the outcome, move text for the record and for an engine, the PGN
//! record (30 items). Both are implemented on the game type, so one `G` names the game's move and position types
//! everywhere; the perft driver ([`perft`], [`crate::suite::perft`]) takes `G: Rules`, the match runner
//! ([`crate::runner`]) `G: Game`. The split follows shakmaty's, which keeps `Setup` (a position's fields) apart from
//! `Position` (the rules over it).
//!
//! | need | trait item |
//! |---|---|
//! | `--game NAME`, the PGN `Variant` tag, the UCI `UCI_Variant` option | [`Rules::NAME`], [`Game::PGN_VARIANT`], [`Game::UCI_VARIANT`] |
//! | whether the runner can play it (checkers: perft only) | [`Game::CAN_PLAY`] |
//! | positions from FEN and back, the key | [`Rules::read_fen`], [`Rules::position_fen`], [`Rules::key`] |
//! | perft: legal moves, make and unmake, the game's counting | [`Rules::generate`], [`Rules::make_move`], [`Rules::unmake_move`], [`Rules::perft`] |
//! | a game from its start position or FEN | [`Game::new_game`], [`Game::from_fen`], [`Game::start_position`], [`Game::read_openings`] |
//! | whose turn (clocks, players, results by colour) | [`Game::mover`] (the first mover, Red in Xiangqi, is [`Color::White`]) |
//! | legal moves, the illegal-move check, the move cap | [`Game::legal_moves`], [`Game::play`], [`Game::plies`], [`Game::moves`] |
//! | the end by the rules; a time forfeit against a side that cannot win | [`Game::outcome`], [`Game::can_win`] |
//! | move text for the record and for a UCI engine (Fairy-Stockfish writes Xiangqi ranks 1..10) | [`Game::move_text`], [`Game::parse_move`], [`Game::engine_move_text`], [`Game::parse_engine_move`], [`Game::starts_from_startpos`], [`Game::engine_moves`] |
//! | `games.pgn` | [`Game::pgn_text`], [`Game::replay_pgn`] |
//!
//! Colours stay [`Color`] and results [`GameResult`], so that the tallies, SPRT, Elo, CSV and summaries never
//! see a move. The runner's types take a parameter `G: Game` with no default, and each call names its game.

pub mod keys;
pub mod movelist;
pub mod opening;
pub mod perft;
pub mod result;
pub mod side;

pub use movelist::MoveList;
pub use result::{GameResult, RuleEnd, RulesOutcome};
pub use side::Color;

use crate::notation::pgn::PgnError;
use opening::{Opening, OpeningError, OpeningFormat};
use std::path::Path;

/// Why the PGN text of a run's games does not replay ([`Game::replay_pgn`]).
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// The PGN syntax, or a SAN move that is not legal (chess).
    #[error(transparent)]
    Pgn(#[from] PgnError),
    /// A game of record move text that does not replay (a bad `Variant` or `FEN` tag, a move that is not legal).
    #[error(transparent)]
    Record(#[from] OpeningError),
}

/// The rules of a game as perft and the engines need them: the position, its FEN and key, the legal moves,
/// make and unmake, and move text at a position. Nothing here needs the game's history; a match needs
/// [`Game`], which adds it (as shakmaty separates `Setup` from `Position`). Implemented on the game type, so that
/// `G::Move` and `G::Position` name one game's types wherever a `G: Game` is at hand.
pub trait Rules: Sized + Send + Sync + 'static {
    /// A move.
    type Move: Copy + Eq + std::fmt::Debug + Send + Sync;
    /// A position (the start of a game, an opening, a perft node).
    type Position: Clone + std::fmt::Debug + PartialEq + Send + Sync;
    /// What unmaking a move needs.
    type Undo;
    /// A list of legal moves.
    type Moves: AsRef<[Self::Move]>;
    /// Why a FEN cannot be read.
    type FenError: std::error::Error + Send + Sync + 'static;
    /// Why move text is not a legal move.
    type MoveError: std::error::Error + Send + Sync + 'static;

    /// The name `--game` takes: `chess`, `xiangqi`, `russian`, `english`.
    const NAME: &'static str;
    /// The standard start position.
    const START_FEN: &'static str;
    /// Whether a suite line's position is one whitespace-free field (the PDN FEN of checkers) rather than the
    /// four EPD fields of chess and Xiangqi FEN.
    const ONE_FIELD_FEN: bool = false;

    // ---- Positions: perft and the perft comparison ----

    /// The FEN of the start position on this game's board: [`Rules::START_FEN`] unless the board size is a
    /// parameter (checkers on 4x4 and 6x6).
    fn initial_fen() -> String {
        Self::START_FEN.to_string()
    }

    /// Reads a position from FEN; `chess960` reads chess castling rights as Chess960 (games without castling
    /// ignore it).
    ///
    /// # Errors
    /// The game's FEN error.
    fn read_fen(fen: &str, chess960: bool) -> Result<Self::Position, Self::FenError>;

    /// The FEN of `position`.
    fn position_fen(position: &Self::Position) -> String;

    /// The Zobrist key of `position` (for the perft transposition table).
    fn key(position: &Self::Position) -> u64;

    /// The legal moves of `position`.
    fn generate(position: &Self::Position) -> Self::Moves;

    /// The legal moves of `position`, computed in place where the game can (the position is restored): the
    /// list perft walks.
    #[inline]
    fn generate_in_place(position: &mut Self::Position) -> Self::Moves {
        Self::generate(position)
    }

    /// The number of legal moves of `position` (the position is restored): perft's bulk count at the last ply,
    /// without storing the moves where the game can.
    #[inline]
    fn count_moves(position: &mut Self::Position) -> u64 {
        Self::generate_in_place(position).as_ref().len() as u64
    }

    /// Plays a legal move (no checks: the hot path).
    fn make_move(position: &mut Self::Position, m: Self::Move) -> Self::Undo;

    /// Takes back the last move made.
    fn unmake_move(position: &mut Self::Position, m: Self::Move, undo: &Self::Undo);

    /// Leaf nodes at `depth` plies (1 at depth 0), with bulk counting at the last ply; the position is
    /// restored. The one perft loop, [`perft::perft`], unless the game has a reason for its own.
    #[inline]
    fn perft(position: &mut Self::Position, depth: u32) -> u64 {
        perft::perft::<Self>(position, depth)
    }

    /// A move of `position` as move text (UCI for chess, `h2e2` for Xiangqi, `c3-d4` for checkers).
    fn move_text_at(position: &Self::Position, m: Self::Move) -> String;

    /// The legal move of `position` written as move text.
    ///
    /// # Errors
    /// The game's move-text error: why the text is not a legal move here.
    fn parse_move_at(position: &Self::Position, text: &str) -> Result<Self::Move, Self::MoveError>;
}

/// A game in progress as a match needs it, on top of its [`Rules`]: the history (a start position and the moves
/// that led to the current one), the end by the rules, move text for the record and for an engine, and the PGN
/// of `games.pgn` (see the module docs).
pub trait Game: Rules + Clone + std::fmt::Debug {
    /// The PGN `Variant` tag (`None` for standard chess, which has none).
    const PGN_VARIANT: Option<&'static str>;
    /// The value of the UCI option `UCI_Variant` an engine needs (`None` for chess).
    const UCI_VARIANT: Option<&'static str>;
    /// Whether the runner can play the game (`match`, `merge`, `book`); false for checkers, which has perft and
    /// the endgame base only.
    const CAN_PLAY: bool = true;

    /// The UCI options an engine needs for this game: `UCI_Chess960 true` when `chess960`, then
    /// `UCI_Variant` ([`Game::UCI_VARIANT`]) where the game has one.
    fn uci_options(chess960: bool) -> Vec<(&'static str, &'static str)> {
        let mut options = Vec::new();
        if chess960 {
            options.push(("UCI_Chess960", "true"));
        }
        if let Some(variant) = Self::UCI_VARIANT {
            options.push(("UCI_Variant", variant));
        }
        options
    }

    /// Our move text as a UCI engine for this game writes it (the same text unless the notations differ).
    fn to_engine_text(ours: &str) -> String {
        ours.to_string()
    }

    /// A UCI engine's move text as ours; `None` when it is not a move in the engine's notation.
    fn from_engine_text(theirs: &str) -> Option<String> {
        Some(theirs.to_string())
    }

    // ---- A game in progress: the runner ----

    /// A game starting at `start`, no move played.
    fn new_game(start: Self::Position) -> Self;

    /// A game starting at the position of `fen` (standard castling rules for chess).
    ///
    /// # Errors
    /// The game's FEN error.
    fn from_fen(fen: &str) -> Result<Self, Self::FenError> {
        Self::read_fen(fen, false).map(Self::new_game)
    }

    /// The position the game started from.
    fn start_position(&self) -> &Self::Position;

    /// The current position.
    fn position(&self) -> &Self::Position;

    /// The FEN of the start position of this game.
    fn start_fen(&self) -> String {
        Self::position_fen(self.start_position())
    }

    /// The FEN of the current position.
    fn fen(&self) -> String {
        Self::position_fen(self.position())
    }

    /// The side to move; the side that moves first is [`Color::White`].
    fn mover(&self) -> Color;

    /// The legal moves of the side to move.
    fn legal_moves(&self) -> Vec<Self::Move> {
        Self::generate(self.position()).as_ref().to_vec()
    }

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
    fn move_text(&self, m: Self::Move) -> String {
        Self::move_text_at(self.position(), m)
    }

    /// The legal move of the current position written as record text.
    ///
    /// # Errors
    /// Why the text is not a legal move here.
    fn parse_move(&self, text: &str) -> Result<Self::Move, Self::MoveError> {
        Self::parse_move_at(self.position(), text)
    }

    /// A move as a UCI engine for this game writes it (the record text unless the notations differ).
    fn engine_move_text(&self, m: Self::Move) -> String {
        Self::to_engine_text(&self.move_text(m))
    }

    /// A move of the current position in the game's standard algebraic notation (SAN for chess), for an xboard
    /// engine with `san=1`; the engine move text where the game has none.
    fn san_text(&self, m: Self::Move) -> String {
        self.engine_move_text(m)
    }

    /// The legal move of the current position written in SAN; `None` when it is not one (or the game has no
    /// SAN).
    fn parse_san_text(&self, _text: &str) -> Option<Self::Move> {
        None
    }

    /// A UCI engine's move text as a legal move of the current position.
    ///
    /// # Errors
    /// Why the text is not a legal move here.
    fn parse_engine_move(&self, text: &str) -> Result<Self::Move, Self::MoveError> {
        self.parse_move(text)
    }

    /// Whether the game began from the standard start position that a UCI engine knows without its FEN
    /// (`position startpos`); false unless the game says so (chess outside Chess960).
    fn starts_from_startpos(&self) -> bool {
        false
    }

    /// The moves played from the start position as a UCI engine for this game writes them
    /// ([`Game::engine_move_text`] of each, in order).
    fn engine_moves(&self) -> Vec<String> {
        let mut replay = Self::new_game(self.start_position().clone());
        let mut texts = Vec::new();
        for m in self.moves() {
            texts.push(replay.engine_move_text(m));
            replay.play(m);
        }
        texts
    }

    /// Whether the game is Chess960 (a UCI engine then gets `UCI_Chess960 true`).
    fn is_chess960(&self) -> bool {
        false
    }

    /// The current position as the piece sets an endgame tablebase is probed with; `None` for a game without
    /// tablebases (every game but chess).
    fn piece_sets(&self) -> Option<PieceSets> {
        None
    }

    /// The Polyglot key of the position, for an engine's own book (`book=` of an engine spec); `None` for a game
    /// without Polyglot books (every game but chess).
    fn polyglot_key(&self) -> Option<u64> {
        None
    }

    /// The legal move of the position that a Polyglot entry's `raw` move encodes; `None` when none is (or for a
    /// game without Polyglot books).
    fn polyglot_move(&self, _raw: u16) -> Option<Self::Move> {
        None
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
        chess960: bool,
    ) -> Result<Vec<Opening<Self>>, OpeningError>;

    /// `count` opening lines drawn from the Polyglot book whose bytes are `bytes` (read from `path`), each at
    /// most `depth` plies, reproducibly from `seed`; the default refuses (books are for chess).
    ///
    /// # Errors
    /// [`OpeningError::Book`]: bytes that are not a book, a book move that is not legal, or a game without
    /// Polyglot books.
    fn book_openings(
        path: &Path,
        _bytes: &[u8],
        _depth: usize,
        _seed: u64,
        _count: usize,
    ) -> Result<Vec<Opening<Self>>, OpeningError> {
        let reason = format!("Polyglot books are for chess, not {}", Self::NAME);
        Err(OpeningError::Book { file: path.display().to_string(), reason })
    }

    /// Replays the games of PGN text as [`Game::pgn_text`] writes them: each game's moves played legally from
    /// its `FEN` tag (or the start). `text` begins at line `first_line` (1-based) of `file`, so that one game
    /// cut from a run's `games.pgn` is reported at its place in the file. The default reads record move text
    /// with [`opening::read_rules_pgn_at`]; chess reads SAN (and Chess960 games by their
    /// `Variant` tag).
    ///
    /// # Errors
    /// The PGN syntax, a `Variant` tag of another game, a bad `FEN` tag or a move that is not legal, naming
    /// `file` and the line.
    fn replay_pgn(text: &str, file: &str, first_line: usize) -> Result<Vec<ReplayedGame>, ReplayError> {
        Ok(opening::read_rules_pgn_at::<Self>(text, file, first_line)?
            .into_iter()
            .map(|g| ReplayedGame { tags: g.tags, plies: g.game.plies(), result: g.result, line: g.line })
            .collect())
    }
}

/// A chess position as bitboards (bit 0 is a1, bit 63 h8), what a Syzygy prober reads: the squares of each
/// colour and of each piece type, the en-passant square, the side to move, the halfmove clock and whether any
/// castling right is left (tables hold no position with one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceSets {
    /// White's pieces.
    pub white: u64,
    /// Black's pieces.
    pub black: u64,
    /// Kings, queens, rooks, bishops, knights and pawns of both colours, in that order.
    pub kinds: [u64; 6],
    /// The en-passant target square (0..64), if the last move was a double pawn push.
    pub ep: Option<u8>,
    /// Whether White is to move.
    pub white_to_move: bool,
    /// Plies since the last capture or pawn move.
    pub halfmove_clock: u32,
    /// Whether either side still has a castling right.
    pub castling: bool,
}

impl PieceSets {
    /// The number of pieces on the board, kings included.
    pub fn count(&self) -> u32 {
        (self.white | self.black).count_ones()
    }
}

/// One game replayed by [`Game::replay_pgn`].
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
