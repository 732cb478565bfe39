//! Time controls scaled to the machine (`--tc-scale-nps REF`): the first engine's bench measures this machine's
//! speed, and every engine's time limits are multiplied by `REF / measured`; node and depth limits never are.

use super::{MatchPlan, TcScalePlan};
use crate::player::bench::{BenchOptions, scale_limit, tc_scale_factor};
use crate::player::{BenchError, EngineArgError};
use thiserror::Error;

/// Why the time controls cannot be scaled.
#[derive(Debug, Error)]
pub enum TcScaleError {
    /// A plan without engines.
    #[error("no engine")]
    NoEngine,
    /// No engine has a time limit: a bench would change nothing.
    #[error("no engine has a time limit (tc or st) to scale; node and depth limits are never scaled")]
    NothingToScale,
    /// The first engine's build does not load.
    #[error(transparent)]
    Engine(#[from] EngineArgError),
    /// The first engine's bench failed.
    #[error(transparent)]
    Bench(#[from] BenchError),
}

impl TcScaleError {
    /// Whether the error is the user's input; a bench that failed as an engine's failure is not.
    pub fn is_input(&self) -> bool {
        match self {
            TcScaleError::Bench(error) => error.is_input(),
            _ => true,
        }
    }
}

impl MatchPlan {
    /// Scales the limits of the plan's engines by `reference` / the nodes per second of the first engine's bench,
    /// and returns the record of it (the limits before are in [`TcScalePlan::unscaled`]; the plan holds those
    /// after). The caller stores it in [`MatchPlan::tc_scale`].
    ///
    /// # Errors
    /// [`TcScaleError`]: no engine or none with a time limit, the first engine's build or bench.
    pub fn scale_time_controls(&mut self, reference: u64) -> Result<TcScalePlan, TcScaleError> {
        let first = self.engines.first().ok_or(TcScaleError::NoEngine)?;
        // Nothing to scale: refused rather than a bench whose factor changes nothing.
        if self.engines.iter().all(|e| e.limit.tc.is_none() && e.limit.movetime_ms.is_none()) {
            return Err(TcScaleError::NothingToScale);
        }
        let measured = first.load(self.game)?.bench(&BenchOptions::default())?;
        let factor = tc_scale_factor(reference, measured.nps);
        let unscaled: Vec<String> = self.engines.iter().map(|e| e.limit.to_string()).collect();
        let engine = first.name.clone();
        for e in self.engines.iter_mut() {
            e.limit = scale_limit(e.limit, factor);
        }
        Ok(TcScalePlan { reference_nps: reference, measured_nps: measured.nps, engine, factor, unscaled })
    }
}
