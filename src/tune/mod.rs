//! Texel tuning: labelled training positions read from the common formats ([`data`]), stored as sparse
//! feature vectors for fast evaluation under changing weights, and split into train and validation sets by
//! game.

pub mod data;

pub use data::{
    BadLine, Dataset, GameIds, GameSplit, Label, LabelledFormat, LabelledPosition, LabelledSet, TuneDataError, crc32,
    is_validation_game, parse_game_ids, read_game_ids, read_labelled_file, read_labelled_text, split_by_game,
};
