//! What a match reports: the summary of a run (`summary.txt`, `summary.csv`, `summary.json`: [`summary`]), the
//! periodic cutechess-cli and fastchess lines ([`lines`]) and the charts (`llr.svg`, `elo.svg`: [`charts`]).

pub mod charts;
pub mod formats;
pub mod lines;
pub mod summary;
