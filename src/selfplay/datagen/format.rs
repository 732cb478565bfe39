//! What datagen hands to its output formats: one finished game at a time ([`TrainingGame`]), with every
//! searched move from the position where recording starts and the positions kept by the filters.
//!
//! Every score here is in centipawns from the view of the side to move in the position it belongs to, mate
//! scores already mapped to centipawns by datagen (see the module docs of [`super`]); a format that stores
//! another view or a narrower integer converts (and clamps) when it writes.

use crate::chess::{Move, Position};
use crate::game::GameResult;

/// The training-data formats `arbiter datagen --format` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TrainingFormat {
    /// EPD lines with the result in `c9` and an `id`, plus the aligned `.meta.tsv` (read by `arbiter tune`).
    #[default]
    Epd,
    /// Plain text lines `FEN | score | result`, as bullet's text input reads them.
    Text,
    /// viriformat: one record per game (start position, then every move with its score).
    Viriformat,
    /// bulletformat: one fixed-size record per kept position.
    Bulletformat,
}

/// One searched move of a game: the move played and the search's score of the position it was played from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrainingPly {
    /// The move played.
    pub mv: Move,
    /// The score of the position before the move, centipawns, from the mover's view.
    pub score: i32,
}

/// A position kept by datagen's filters (and not a duplicate), to be written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrainingPosition {
    /// The position (for `--select qleaf`, the quiescence leaf, which need not occur in the game).
    pub position: Position,
    /// Its score, centipawns, from the view of its side to move (for a quiescence leaf: the score of the
    /// searched position it was reached from, turned to the leaf's side to move).
    pub score: i32,
    /// Half-moves from the game's start position to the searched position.
    pub ply: usize,
    /// The move the search chose there, when the position is one of the game's (not a quiescence leaf).
    pub best: Option<Move>,
}

/// One finished game, as the writers of every format see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrainingGame {
    /// The game number, 1 to `--games`.
    pub number: u64,
    /// The result, from White's view.
    pub result: GameResult,
    /// The position where the searched moves start (the opening's last position: random plies or book).
    pub start: Position,
    /// Half-moves from the game's start position to `start`.
    pub start_ply: usize,
    /// Every searched move from `start`, in order.
    pub plies: Vec<TrainingPly>,
    /// The positions kept, in game order.
    pub kept: Vec<TrainingPosition>,
}
