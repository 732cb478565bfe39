//! The `--game` choice: [`GameKind`]. The command line maps its words to it (`src/cli/args.rs`); the library
//! derives no command-line trait.

use crate::game::{Game, Rules};

/// The game a command plays (`--game`): chess (with its variants, see
/// [`Variant`](crate::chess::Variant)), Xiangqi, or checkers (Russian draughts, English checkers:
/// `arbiter perft` only, see [`GameKind::refuse_checkers`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum GameKind {
    /// Chess ([`crate::chess::ChessGame`]).
    #[default]
    Chess,
    /// Xiangqi, Chinese chess ([`crate::xiangqi::XiangqiGame`]).
    Xiangqi,
    /// Russian draughts ([`crate::checkers`]; perft only).
    Russian,
    /// English checkers ([`crate::checkers`]; perft only).
    English,
}

impl GameKind {
    /// Every game, in the order of the command line's help.
    pub const ALL: [GameKind; 4] = [GameKind::Chess, GameKind::Xiangqi, GameKind::Russian, GameKind::English];

    /// The name on the command line: `chess`, `xiangqi`, `russian` or `english` (the [`Rules::NAME`] of its
    /// game).
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Chess => crate::chess::ChessGame::NAME,
            GameKind::Xiangqi => crate::xiangqi::XiangqiGame::NAME,
            GameKind::Russian => crate::checkers::Russian::NAME,
            GameKind::English => crate::checkers::English::NAME,
        }
    }

    /// The value Arbiter gives an engine's UCI option `UCI_Variant` in this game ([`Game::UCI_VARIANT`]):
    /// `xiangqi` for Xiangqi, `None` for chess (and checkers).
    pub fn uci_variant(self) -> Option<&'static str> {
        match self {
            GameKind::Chess => crate::chess::ChessGame::UCI_VARIANT,
            GameKind::Xiangqi => crate::xiangqi::XiangqiGame::UCI_VARIANT,
            GameKind::Russian => crate::checkers::Russian::UCI_VARIANT,
            GameKind::English => crate::checkers::English::UCI_VARIANT,
        }
    }

    /// Whether the game is checkers (Russian draughts or English checkers).
    pub fn is_checkers(self) -> bool {
        matches!(self, GameKind::Russian | GameKind::English)
    }

    /// Whether the runner can play the game ([`Game::CAN_PLAY`]): chess and Xiangqi.
    pub fn can_play(self) -> bool {
        match self {
            GameKind::Chess => crate::chess::ChessGame::CAN_PLAY,
            GameKind::Xiangqi => crate::xiangqi::XiangqiGame::CAN_PLAY,
            GameKind::Russian => crate::checkers::Russian::CAN_PLAY,
            GameKind::English => crate::checkers::English::CAN_PLAY,
        }
    }

    /// `Ok` for a game the runner plays (chess and Xiangqi); for checkers, which Arbiter cannot play, the
    /// refusal of `arbiter command` (`match`, `merge`, `book`).
    ///
    /// # Errors
    /// [`Unplayable`] (the user's input: the caller exits with code 2).
    pub fn refuse_checkers(self, command: &'static str) -> Result<(), Unplayable> {
        if self.can_play() { Ok(()) } else { Err(Unplayable { game: self, command }) }
    }
}

/// A command that plays games (`match`, `merge`, `book`) was asked for a game Arbiter cannot play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}: arbiter {command} plays chess and xiangqi; checkers has perft and the endgame base", game.name())]
pub struct Unplayable {
    /// The game asked for.
    pub game: GameKind,
    /// The command: `match`, `merge` or `book`.
    pub command: &'static str,
}
