//! SPSA tuning of any engine's parameters by games (`arbiter spsa`): simultaneous perturbation stochastic
//! approximation as OpenBench and fishtest run it, on one machine.
//!
//! - [`params`]: the parameter file (OpenBench's `name, int|float, start, min, max, c_end, r_end`) and its check
//!   against the options an engine lists;
//! - [`gains`]: the algorithm without games: gain schedule, perturbation, rounding, update;
//! - [`plan`]: a new run's plan from the match, the parameter file and the schedule, checked against the engine;
//! - [`run`]: the iterations as small matches through the runner's scheduler, in a resumable run folder;
//! - [`validate`]: the tuned values against the start values in an SPRT match (`--validate`);
//! - [`output`]: the run folder's files (`spsa.csv`, `games.csv`, `values.txt`, `tuned.toml`, `spsa.svg`).

pub mod gains;
pub mod output;
pub mod params;
pub mod plan;
pub mod run;
pub mod validate;

pub use gains::Schedule;
pub use params::{Param, ParamKind};
pub use run::{SpsaPlan, SpsaRun, resume, start};
