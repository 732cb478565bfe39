//! Texel tuning: labelled training positions read from the common formats ([`data`]), stored as sparse
//! feature vectors for fast evaluation under changing weights, and split into train and validation sets by
//! game; the Texel loss, its gradient, the fit of K and the optimizers ([`texel`]); the epochs of a run
//! ([`run`]) and its loss chart ([`chart`]); a whole job from files to files, as `arbiter tune` runs it ([`job`]).

pub mod chart;
pub mod data;
pub mod job;
pub mod packed;
pub mod run;
pub mod texel;

pub use data::{
    BadLine, Dataset, GameIds, GameSplit, Label, LabelledFormat, LabelledPosition, LabelledSet, TuneDataError, crc32,
    is_validation_game, parse_game_ids, read_game_ids, read_labelled_file, read_labelled_text, split_by_game,
};
pub use packed::PackedSet;
pub use texel::UnknownGroup;
pub use texel::{
    Adam, SparseSet, TrainingData, fit_k, gradient, group_mask, local_search_pass, mirror_partners, mse, params_of,
    tie_gradient, weights_from_params,
};
