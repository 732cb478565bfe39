//! Checkers as a [`crate::game::Game`]: a game in progress under fixed rules and board size
//! ([`Russian`], [`English`], or [`CheckersGame`] with other parameters), so that perft reads a PDN FEN without being
//! told the rules. Arbiter cannot play checkers ([`crate::game::Game::CAN_PLAY`] is false: `arbiter match
//! --game russian` is refused), but the items the runner needs are implemented as the rules say: a side with no
//! legal move loses.

use super::{FenError, Move, MoveError, PieceColor, Position, Ruleset};
use crate::game::Rules as _;
use crate::game::opening::{Opening, OpeningError, OpeningFormat};
use crate::game::{GameResult, RuleEnd, RulesOutcome};
use std::path::Path;

/// A checkers game: English checkers when `ENGLISH`, else Russian draughts, on the `SIZE` x `SIZE` board (4, 6
/// or 8; English 8 only).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckersGame<const ENGLISH: bool, const SIZE: u8> {
    start: Position,
    position: Position,
    moves: Vec<Move>,
}

/// Russian draughts on the 8x8 board.
pub type Russian = CheckersGame<false, 8>;

/// English checkers (8x8).
pub type English = CheckersGame<true, 8>;

impl<const ENGLISH: bool, const SIZE: u8> CheckersGame<ENGLISH, SIZE> {
    /// The rules of the type.
    pub const RULES: Ruleset = if ENGLISH { Ruleset::English } else { Ruleset::Russian };
}

/// The side as the runner counts it: the side that moves first (White in Russian draughts, Black in English
/// checkers) is [`crate::game::Color::White`].
fn side(rules: Ruleset, color: PieceColor) -> crate::game::Color {
    let first = if rules == Ruleset::English { PieceColor::Black } else { PieceColor::White };
    if color == first { crate::game::Color::White } else { crate::game::Color::Black }
}

impl<const ENGLISH: bool, const SIZE: u8> crate::game::Rules for CheckersGame<ENGLISH, SIZE> {
    type Move = Move;
    type Position = Position;
    type Undo = Position;
    type Moves = Vec<Move>;
    type FenError = FenError;
    type MoveError = MoveError;
    const NAME: &'static str = if ENGLISH { "english" } else { "russian" };
    /// The 8x8 start position of the rules (`W:W...:B...` for Russian, `B:W...:B...` for English), written by
    /// [`Position::to_fen`]; [`Game::from_fen`](crate::game::Game::from_fen) on other boards takes the FEN of
    /// `Position::start`.
    const START_FEN: &'static str = if ENGLISH {
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    } else {
        "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"
    };
    const ONE_FIELD_FEN: bool = true;

    fn initial_fen() -> String {
        Position::start(Self::RULES, SIZE).map(|p| p.to_fen()).unwrap_or_default()
    }
    fn read_fen(fen: &str, _chess960: bool) -> Result<Position, FenError> {
        Position::from_fen(Self::RULES, SIZE, fen)
    }
    fn position_fen(position: &Position) -> String {
        position.to_fen()
    }
    #[inline]
    fn key(position: &Position) -> u64 {
        position.key()
    }
    #[inline]
    fn generate(position: &Position) -> Vec<Move> {
        position.legal_moves()
    }
    #[inline]
    fn make_move(position: &mut Position, m: Move) -> Position {
        position.make_move(&m)
    }
    #[inline]
    fn unmake_move(position: &mut Position, _m: Move, undo: &Position) {
        position.unmake_move(undo)
    }
    #[inline]
    fn count_moves(position: &mut Position) -> u64 {
        position.count_moves()
    }
    /// Checkers keeps its own loop ([`super::perft::perft`]): copy-make into move lists allocated once per ply,
    /// since capture paths have no small bound for a fixed-capacity list.
    fn perft(position: &mut Position, depth: u32) -> u64 {
        super::perft::perft(position, depth)
    }
    fn move_text_at(position: &Position, m: Move) -> String {
        position.move_text(&m)
    }
    fn parse_move_at(position: &Position, text: &str) -> Result<Move, MoveError> {
        position.parse_move(text)
    }
}

impl<const ENGLISH: bool, const SIZE: u8> crate::game::Game for CheckersGame<ENGLISH, SIZE> {
    const PGN_VARIANT: Option<&'static str> = None;
    const UCI_VARIANT: Option<&'static str> = None;
    const CAN_PLAY: bool = false;

    fn new_game(start: Position) -> Self {
        CheckersGame { start, position: start, moves: Vec::new() }
    }
    fn start_position(&self) -> &Position {
        &self.start
    }
    fn position(&self) -> &Position {
        &self.position
    }
    fn mover(&self) -> crate::game::Color {
        side(Self::RULES, self.position.side_to_move())
    }
    fn play(&mut self, m: Move) -> bool {
        if !self.position.legal_moves().contains(&m) {
            return false;
        }
        self.position.make_move(&m);
        self.moves.push(m);
        true
    }
    fn plies(&self) -> usize {
        self.moves.len()
    }
    /// Checkers keeps no move clock: every ply counts.
    fn halfmove_clock(&self) -> u32 {
        u32::try_from(self.moves.len()).unwrap_or(u32::MAX)
    }
    fn moves(&self) -> Vec<Move> {
        self.moves.clone()
    }
    /// A side with no legal move loses.
    fn outcome(&self) -> Option<RulesOutcome> {
        self.position.legal_moves().is_empty().then(|| RulesOutcome {
            result: GameResult::win_for(crate::game::Game::mover(self).flip()),
            termination: RuleEnd::Checkmate,
        })
    }
    /// Tags and the moves as move text, numbered by the first mover's moves.
    fn pgn_text(
        tags: &[(String, String)],
        start: &Position,
        moves: &[Move],
        _comments: Option<&[String]>,
        result: &str,
    ) -> String {
        let mut out = String::new();
        for (key, value) in tags.iter().chain(&[("FEN".to_string(), start.to_fen())]) {
            out.push_str(&format!("[{key} \"{}\"]\n", value.replace('\\', "\\\\").replace('"', "\\\"")));
        }
        out.push('\n');
        let mut words = Vec::with_capacity(moves.len() * 2 + 1);
        let mut position = *start;
        for (i, m) in moves.iter().enumerate() {
            if i % 2 == 0 {
                words.push(format!("{}.", i / 2 + 1));
            }
            words.push(position.move_text(m));
            position.make_move(m);
        }
        words.push(result.to_string());
        crate::notation::pgn::push_movetext(&mut out, &words);
        out
    }
    fn read_openings(
        path: &Path,
        _text: &str,
        _format: OpeningFormat,
        _chess960: bool,
    ) -> Result<Vec<Opening<Self>>, OpeningError> {
        let reason = format!("{}: Arbiter does not play checkers games", Self::NAME);
        Err(OpeningError::Line { file: path.display().to_string(), line: 0, reason })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game as _;

    #[test]
    fn start_fens_are_those_of_the_rules() {
        assert_eq!(Russian::START_FEN, Position::start(Ruleset::Russian, 8).unwrap().to_fen());
        assert_eq!(English::START_FEN, Position::start(Ruleset::English, 8).unwrap().to_fen());
        let game = English::from_fen(English::START_FEN).unwrap();
        assert_eq!(game.mover(), crate::game::Color::White);
        assert_eq!(game.legal_moves().len(), 7);
    }
}
