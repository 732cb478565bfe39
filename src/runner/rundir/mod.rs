//! A run folder (`results/<run>/`): its `run.toml` holding the plan ([`runfile`]), the result files written as
//! games end ([`output`]), the one reader of the games recorded, with the repair of a killed run's tail
//! ([`records`]), the lock ([`lock`]), the resume of a run ([`resume`]) and the merge of the folders of a match's shards ([`merge`]). The folder's layout is
//! documented in `results/README.md`.

pub mod lock;
pub mod merge;
pub mod output;
pub mod records;
pub mod resume;
pub mod runfile;
