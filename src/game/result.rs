//! How a game ends: the result ([`GameResult`]) and, for an end by the rules of the game, why
//! ([`RuleEnd`], [`RulesOutcome`]); the terminations of every game in one list, so that the runner's records and
//! summaries never depend on the game played.

use super::Color;

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// White won.
    WhiteWins,
    /// Black won.
    BlackWins,
    /// Drawn.
    Draw,
}

impl GameResult {
    /// The PGN result text: `1-0`, `0-1` or `1/2-1/2`.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// The result whose [`GameResult::pgn`] text is `text`; `None` for `*` and anything else.
    pub fn from_pgn(text: &str) -> Option<GameResult> {
        [GameResult::WhiteWins, GameResult::BlackWins, GameResult::Draw].into_iter().find(|r| r.pgn() == text)
    }

    /// A win for `color`.
    pub fn win_for(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// The score for `color`: 1.0 win, 0.5 draw, 0.0 loss.
    pub fn score_for(self, color: Color) -> f64 {
        match (self, color) {
            (GameResult::Draw, _) => 0.5,
            (GameResult::WhiteWins, Color::White) | (GameResult::BlackWins, Color::Black) => 1.0,
            _ => 0.0,
        }
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
    /// Xiangqi: [`crate::xiangqi::NO_CAPTURE_PLIES`] plies without a capture (a draw).
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

/// A game ended by its rules: who won and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RulesOutcome {
    /// Who won.
    pub result: GameResult,
    /// Why.
    pub termination: RuleEnd,
}
