//! A run folder (`results/<run>/`): its `run.toml` holding the plan ([`runfile`]), the result files written as
//! games end ([`output`]), the one reader of the games recorded ([`read`], with its rows in [`csv`] and its
//! strictness: strict, rewriting a killed run's tail, or salvaging for a resume), the error of reading them
//! ([`record_error`]), the games checked against the match ([`replay`]), the counts of a two-engine run ([`counts`]), the lenient reading for ratings
//! ([`rated`]), the lock ([`lock`]), the resume of a run ([`resume`]) and the merge of the folders of a
//! match's shards ([`merge`]). The folder's layout is documented in `results/README.md`.

pub mod cluster;
pub mod counts;
pub mod csv;
pub mod lock;
pub mod merge;
pub mod output;
pub mod rated;
pub mod read;
pub mod record_error;
pub mod replay;
pub mod resume;
pub mod runfile;
