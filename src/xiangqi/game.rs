//! A Xiangqi game: a position with the moves played and the keys of the positions before them, for taking moves
//! back and detecting repetitions.
//!
//! Only the detection is here: which side a repetition rules against (perpetual check or chase loses under the
//! Asian and Chinese rules) is not implemented.

use super::movegen::{MoveError, Outcome};
use super::position::{Position, Undo};
use super::types::Move;

/// A position with its move history.
#[derive(Clone, Debug)]
pub struct Game {
    position: Position,
    /// `(move, undo, key of the position before the move)` per ply played.
    history: Vec<(Move, Undo, u64)>,
}

impl Game {
    /// A game starting at `position`.
    pub fn new(position: Position) -> Game {
        Game { position, history: Vec::new() }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The moves played, in order.
    pub fn moves(&self) -> Vec<Move> {
        self.history.iter().map(|h| h.0).collect()
    }

    /// Plays a legal move.
    ///
    /// # Errors
    /// [`MoveError::Illegal`] when `m` is not legal; the game is unchanged.
    pub fn play(&mut self, m: Move) -> Result<(), MoveError> {
        let key = self.position.key();
        let undo = self.position.play(m)?;
        self.history.push((m, undo, key));
        Ok(())
    }

    /// Takes back the last move; `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        let (m, undo, _) = self.history.pop()?;
        self.position.unmake_move(m, &undo);
        Some(m)
    }

    /// How many times the current position (pieces and side to move, compared by Zobrist key) occurred earlier in
    /// the game. Positions before the last capture are not searched: they had more pieces.
    pub fn repetitions(&self) -> usize {
        let key = self.position.key();
        let since_capture = usize::from(self.position.halfmove_clock()).min(self.history.len());
        self.history.iter().rev().take(since_capture).filter(|h| h.2 == key).count()
    }

    /// True when the current position occurred before in the game.
    pub fn is_repetition(&self) -> bool {
        self.repetitions() > 0
    }

    /// `Some` when the side to move has no legal move (and so has lost), see [`Position::outcome`].
    pub fn outcome(&self) -> Option<Outcome> {
        self.position.outcome()
    }
}
