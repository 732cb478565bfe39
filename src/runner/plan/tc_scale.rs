//! Time controls scaled to the machine (`--tc-scale-nps REF`): the first engine's bench measures this machine's
//! speed, and every engine's time limits are multiplied by `REF / measured`; node and depth limits never are.

use super::{MatchPlan, TcScalePlan};
use crate::player::bench::{BenchOptions, scale_limit, tc_scale_factor};
use crate::player::{BenchError, EngineArgError};
use serde::{Deserialize, Serialize};
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
    /// [`ScaleBy::Second`] or [`ScaleBy::Both`] with one engine.
    #[error("scaling by the second engine needs two engines")]
    NoSecondEngine,
    /// This machine is slower than the least speed asked for (fishtest refuses such a worker).
    #[error("this machine is too slow for the run: {engine} benches {nps} nps here, at least {min} needed")]
    TooSlow {
        /// The engine benched.
        engine: String,
        /// Its speed here.
        nps: u64,
        /// The least speed asked for.
        min: u64,
    },
}

/// Whose bench scales the time controls, as OpenBench's `scale_method`: DEV (the first engine), BASE (the
/// second) or BOTH (the mean of the two factors; OpenBench `Client/worker.py`, `determine_scale_factor`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ScaleBy {
    /// The first engine's bench (OpenBench's DEV).
    #[default]
    First,
    /// The second engine's bench (BASE).
    Second,
    /// Both benches: the mean of the two factors (BOTH).
    Both,
}

impl ScaleBy {
    /// The names on the command line.
    pub const NAMES: [&'static str; 3] = ["first", "second", "both"];

    /// The mode named `text`.
    pub fn parse(text: &str) -> Option<ScaleBy> {
        match text {
            "first" => Some(ScaleBy::First),
            "second" => Some(ScaleBy::Second),
            "both" => Some(ScaleBy::Both),
            _ => None,
        }
    }

    /// Whether this is the default, [`ScaleBy::First`].
    pub fn is_first(&self) -> bool {
        *self == ScaleBy::First
    }
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
        self.scale_time_controls_by(reference, ScaleBy::First, None)
    }

    /// [`MatchPlan::scale_time_controls`] by the bench of the engine(s) `by` names; with `min_nps`, a bench
    /// slower than it refuses the run ([`TcScaleError::TooSlow`]), as fishtest refuses a slow worker.
    ///
    /// # Errors
    /// As [`MatchPlan::scale_time_controls`], and [`TcScaleError::NoSecondEngine`], [`TcScaleError::TooSlow`].
    pub fn scale_time_controls_by(
        &mut self,
        reference: u64,
        by: ScaleBy,
        min_nps: Option<u64>,
    ) -> Result<TcScalePlan, TcScaleError> {
        if self.engines.is_empty() {
            return Err(TcScaleError::NoEngine);
        }
        // Nothing to scale: refused rather than a bench whose factor changes nothing.
        if self.engines.iter().all(|e| e.limit.tc.is_none() && e.limit.movetime_ms.is_none()) {
            return Err(TcScaleError::NothingToScale);
        }
        let benched: &[usize] = match by {
            ScaleBy::First => &[0],
            ScaleBy::Second => &[1],
            ScaleBy::Both => &[0, 1],
        };
        let mut measured = Vec::new();
        for &i in benched {
            let engine = self.engines.get(i).ok_or(TcScaleError::NoSecondEngine)?;
            let nps = engine.load(self.game)?.bench(&BenchOptions::default())?.nps;
            if let Some(min) = min_nps.filter(|&min| nps < min) {
                return Err(TcScaleError::TooSlow { engine: engine.name.clone(), nps, min });
            }
            measured.push((engine.name.clone(), nps));
        }
        let factors: Vec<f64> = measured.iter().map(|(_, nps)| tc_scale_factor(reference, *nps)).collect();
        let factor = factors.iter().sum::<f64>() / factors.len() as f64;
        let unscaled: Vec<String> = self.engines.iter().map(|e| e.limit.to_string()).collect();
        let engine = measured.iter().map(|(name, _)| name.as_str()).collect::<Vec<_>>().join(" and ");
        let second_nps = measured.get(1).map(|(_, nps)| *nps);
        for e in self.engines.iter_mut() {
            e.limit = scale_limit(e.limit, factor);
        }
        Ok(TcScalePlan {
            reference_nps: reference,
            measured_nps: measured[0].1,
            engine,
            factor,
            unscaled,
            by,
            second_nps,
        })
    }
}
