//! One tuning run's epochs: the optimizer (full-batch Adam or a local search pass per epoch) over packed
//! training positions, the validation loss after each epoch, and the loss curve; `arbiter tune` prints and
//! writes what the callback reports.

use super::packed::PackedSet;
use super::texel::{Adam, local_search_pass, tie_gradient};
use std::time::Instant;

/// The optimizer of a tuning run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Optimizer {
    /// Full-batch Adam on the Texel loss's gradient.
    Adam,
    /// One local search pass (each free weight +-1 while the loss drops) per epoch.
    Local,
}

/// How to run the epochs of a tuning run.
#[derive(Clone, Debug, PartialEq)]
pub struct EpochPlan {
    /// The optimizer.
    pub optimizer: Optimizer,
    /// How many epochs.
    pub epochs: u32,
    /// Adam's starting learning rate, in centipawns.
    pub lr: f64,
    /// One flag per parameter: true for a weight that is not tuned.
    pub frozen: Vec<bool>,
    /// For mirrored piece-square tables: each parameter's mirror partner ([`super::mirror_partners`]), whose
    /// gradients are tied.
    pub partners: Option<Vec<usize>>,
}

/// What one epoch did, as the callback of [`run_epochs`] sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Epoch {
    /// The epoch, from 1.
    pub epoch: u32,
    /// The training MSE of the pass.
    pub loss: f64,
    /// The validation MSE after the epoch, when there is a validation set.
    pub validation: Option<f64>,
    /// Adam's learning rate after the epoch.
    pub lr: f64,
    /// Wall time of the pass per training position, in nanoseconds.
    pub ns_per_position: f64,
}

/// The totals of [`run_epochs`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EpochTotals {
    /// The training MSE of the last pass.
    pub last_loss: f64,
    /// Wall time of the passes, in seconds.
    pub wall_seconds: f64,
    /// CPU time of the passes (all threads), in seconds.
    pub cpu_seconds: f64,
    /// The loss curve: (epoch, training MSE).
    pub train_curve: Vec<(u32, f64)>,
    /// The loss curve: (epoch, validation MSE); empty without a validation set.
    pub validation_curve: Vec<(u32, f64)>,
}

/// Runs the epochs of `plan` on `params` (the optimizer changes them in place) with sigmoid scale `k`, calling
/// `on_epoch` after each; `start_loss` is the training MSE before the first epoch.
///
/// # Errors
/// The first error of `on_epoch` (such as a loss file that cannot be written), which stops the run.
pub fn run_epochs<E>(
    train: &PackedSet,
    validation: &PackedSet,
    params: &mut [f64],
    k: f64,
    plan: &EpochPlan,
    start_loss: f64,
    on_epoch: &mut dyn FnMut(&Epoch) -> Result<(), E>,
) -> Result<EpochTotals, E> {
    let mut adam = Adam::new(params.len(), plan.lr);
    let mut totals = EpochTotals { last_loss: start_loss, ..EpochTotals::default() };
    for epoch in 1..=plan.epochs {
        let t = Instant::now();
        let cpu = cpu_time::ProcessTime::now();
        let loss = match plan.optimizer {
            Optimizer::Local => {
                local_search_pass(|p| train.mse(p, k), params, &plan.frozen, plan.partners.as_deref()).0
            }
            Optimizer::Adam => {
                let (loss, mut grad) = train.gradient(params, k);
                if let Some(partners) = &plan.partners {
                    tie_gradient(&mut grad, partners);
                }
                adam.step(params, &grad, &plan.frozen);
                loss
            }
        };
        let elapsed = t.elapsed().as_secs_f64();
        totals.wall_seconds += elapsed;
        totals.cpu_seconds += cpu.elapsed().as_secs_f64();
        totals.last_loss = loss;
        let validation_mse = (!validation.is_empty()).then(|| validation.mse(params, k));
        totals.train_curve.push((epoch, loss));
        if let Some(v) = validation_mse {
            totals.validation_curve.push((epoch, v));
        }
        let ns_per_position = elapsed * 1e9 / train.len() as f64;
        on_epoch(&Epoch { epoch, loss, validation: validation_mse, lr: adam.lr, ns_per_position })?;
    }
    Ok(totals)
}
