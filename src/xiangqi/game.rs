//! A Xiangqi game: a position with the moves played and the keys of the positions before them, for taking moves
//! back and detecting repetitions.
//!
//! # The repetition rule Arbiter implements
//!
//! A position (pieces and side to move, compared by Zobrist key, since the last capture) that occurs for the third
//! time ends the game ([`XiangqiGame::repetition_verdict`]). The cycle judged runs from the first of the three
//! occurrences to now. If one side gave check with every one of its moves in that cycle and the other side did
//! not, the checking side loses (perpetual check); otherwise the game is drawn (both sides checking throughout
//! is a draw too). Perpetual chasing (attacking an unprotected piece over and over), which the Asian and Chinese
//! rules also forbid, is not judged: such a repetition is a draw here.

use super::movegen::{MoveError, Outcome};
use super::position::{Position, Undo};
use super::types::Move;

/// A position with its move history.
#[derive(Clone, Debug)]
pub struct XiangqiGame {
    start: Position,
    position: Position,
    /// `(move, undo, key of the position before the move, its side to move in check)` per ply played.
    history: Vec<(Move, Undo, u64, bool)>,
}

/// What a repeated position means under the rule of the module docs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RepetitionVerdict {
    /// A draw: neither side, or both, checked throughout the cycle.
    Draw,
    /// The side that just moved gave check with every one of its moves in the cycle (the other side did not): it
    /// loses.
    MoverLoses,
    /// The side to move gave check with every one of its moves in the cycle (the other side did not): it loses.
    SideToMoveLoses,
}

/// The verdict on the last position of `positions` (`(key, side to move in check)`, oldest first, all since the
/// last capture) when it occurs there `occurrences` times in all (itself included; `occurrences >= 2`), else
/// `None`. The cycle judged starts at the earliest of those occurrences. Positions of one side to move sit an even
/// number of plies apart, so only every second entry is compared.
///
/// # Examples
/// ```
/// use arbiter::xiangqi::game::{RepetitionVerdict, repetition_verdict};
/// // A, B, A: the side that moved into A twice checked both times; the other side did not check.
/// assert_eq!(repetition_verdict(&[(1, true), (2, false), (1, true)], 2), Some(RepetitionVerdict::MoverLoses));
/// assert_eq!(repetition_verdict(&[(1, false), (2, false), (1, false)], 2), Some(RepetitionVerdict::Draw));
/// assert_eq!(repetition_verdict(&[(1, false), (2, false), (1, false)], 3), None);
/// ```
pub fn repetition_verdict(positions: &[(u64, bool)], occurrences: usize) -> Option<RepetitionVerdict> {
    let n = positions.len().checked_sub(1)?;
    let key = positions[n].0;
    let mut found = 1;
    let mut start = n;
    let mut i = n;
    while found < occurrences && i >= 2 {
        i -= 2;
        if positions[i].0 == key {
            found += 1;
            start = i;
        }
    }
    if found < occurrences {
        return None;
    }
    // The mover's moves led to positions n, n-2, .., start+2; the side to move's to n-1, .., start+1. A position's
    // flag says its side to move is in check, that is, the move into it gave check.
    let mover_checks = (start + 2..=n).step_by(2).all(|k| positions[k].1);
    let other_checks = (start + 1..n).step_by(2).all(|k| positions[k].1);
    Some(match (mover_checks, other_checks) {
        (true, false) => RepetitionVerdict::MoverLoses,
        (false, true) => RepetitionVerdict::SideToMoveLoses,
        _ => RepetitionVerdict::Draw,
    })
}

impl XiangqiGame {
    /// A game starting at `position`.
    pub fn new(position: Position) -> XiangqiGame {
        XiangqiGame { start: position.clone(), position, history: Vec::new() }
    }

    /// The start position (before the first move).
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The number of moves (plies) played.
    pub fn ply_count(&self) -> usize {
        self.history.len()
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
        let check = self.position.in_check(self.position.side_to_move());
        let undo = self.position.play(m)?;
        self.history.push((m, undo, key, check));
        Ok(())
    }

    /// Takes back the last move; `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        let (m, undo, _, _) = self.history.pop()?;
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

    /// The positions before the current one as `(key, side to move in check)`, oldest first: what
    /// [`crate::engine::xiangqi::XiangqiEngine::search`] takes as history.
    pub fn history_keys(&self) -> Vec<(u64, bool)> {
        self.history.iter().map(|h| (h.2, h.3)).collect()
    }

    /// The verdict of the threefold-repetition rule of the module docs on the current position: `Some` when it
    /// occurs for the third time since the last capture.
    pub fn repetition_verdict(&self) -> Option<RepetitionVerdict> {
        let since_capture = usize::from(self.position.halfmove_clock()).min(self.history.len());
        let mut positions: Vec<(u64, bool)> =
            self.history[self.history.len() - since_capture..].iter().map(|h| (h.2, h.3)).collect();
        positions.push((self.position.key(), self.position.in_check(self.position.side_to_move())));
        repetition_verdict(&positions, 3)
    }

    /// `Some` when the side to move has no legal move (and so has lost), see [`Position::outcome`].
    pub fn outcome(&self) -> Option<Outcome> {
        self.position.outcome()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play_all(fen: &str, moves: &[&str]) -> Vec<Option<RepetitionVerdict>> {
        let mut game = XiangqiGame::new(Position::from_fen(fen).unwrap());
        moves
            .iter()
            .map(|text| {
                let m = game.position().parse_move(text).unwrap();
                game.play(m).unwrap();
                game.repetition_verdict()
            })
            .collect()
    }

    #[test]
    fn perpetual_check_loses() {
        // Red's chariot checks on ranks 9 and 8 while Black's general steps between e9 and e8.
        let moves = ["a7a9", "e9e8", "a9a8", "e8e9", "a8a9", "e9e8", "a9a8", "e8e9", "a8a9"];
        let verdicts = play_all("4k4/9/R8/9/9/9/9/9/9/3K5 w - - 0 1", &moves);
        assert_eq!(verdicts[..8], [None; 8]);
        assert_eq!(verdicts[8], Some(RepetitionVerdict::MoverLoses));
    }

    #[test]
    fn repetition_without_checks_is_a_draw() {
        let moves = ["a7b7", "e9e8", "b7a7", "e8e9", "a7b7", "e9e8", "b7a7", "e8e9"];
        let verdicts = play_all("4k4/9/R8/9/9/9/9/9/9/3K5 w - - 0 1", &moves);
        assert_eq!(verdicts[..7], [None; 7]);
        assert_eq!(verdicts[7], Some(RepetitionVerdict::Draw));
    }

    #[test]
    fn the_checked_side_wins_whoever_moved_last() {
        // The same cycle judged after Black's move: the side to move (Red) gave every check and loses.
        let moves = ["a7a9", "e9e8", "a9a8", "e8e9", "a8a9", "e9e8", "a9a8", "e8e9", "a8a9", "e9e8"];
        let verdicts = play_all("4k4/9/R8/9/9/9/9/9/9/3K5 w - - 0 1", &moves);
        assert_eq!(verdicts[9], Some(RepetitionVerdict::SideToMoveLoses));
    }
}
