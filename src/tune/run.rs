//! One tuning run's epochs: the optimizer (full-batch Adam or a local search pass per epoch) over packed
//! training positions, the validation loss after each epoch, the loss curve, and the guards against
//! overfitting: with a validation set the run keeps the weights of the epoch with the lowest validation loss and
//! stops early when that loss has not improved for [`EpochPlan::patience`] epochs; and [`check_training_size`]
//! flags a training set too small for the number of free weights. `arbiter tune` prints and writes what the
//! callback reports.

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

/// The default [`EpochPlan::patience`]: 50 epochs. On the 287,003 training positions of the shared Stockfish
/// self-play set (Adam, learning rate 2), the longest stretch without a new lowest validation MSE that was
/// followed by a real gain was 8 epochs (Adam's overshoot in epochs 14 to 22); later stretches (from epoch
/// 1031 on) gain less than 2e-5. Fifty is six times the first and ends such a plateau within 50 passes; on a
/// few thousand positions, where the validation MSE turns up after a handful of epochs, it stops the run
/// within about 55 epochs (docs/tuning.md has the curves).
pub const DEFAULT_PATIENCE: u32 = 50;

/// How to run the epochs of a tuning run.
#[derive(Clone, Debug, PartialEq)]
pub struct EpochPlan {
    /// The optimizer.
    pub optimizer: Optimizer,
    /// How many epochs, at most.
    pub epochs: u32,
    /// Adam's starting learning rate, in centipawns.
    pub lr: f64,
    /// One flag per parameter: true for a weight that is not tuned.
    pub frozen: Vec<bool>,
    /// For mirrored piece-square tables: each parameter's mirror partner ([`super::mirror_partners`]), whose
    /// gradients are tied.
    pub partners: Option<Vec<usize>>,
    /// Early stopping: with a validation set, the run stops after this many epochs in a row without a new
    /// lowest validation MSE; 0 never stops early. Without a validation set it has no effect.
    pub patience: u32,
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

/// The epoch whose weights a run with a validation set keeps: the one with the lowest validation MSE.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KeptEpoch {
    /// The epoch, from 1; 0 when no epoch beat the start weights (the run then returns the start weights).
    pub epoch: u32,
    /// The validation MSE of the kept weights.
    pub validation: f64,
}

/// The totals of [`run_epochs`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EpochTotals {
    /// The training MSE of the last pass.
    pub last_loss: f64,
    /// The epochs run: the plan's epochs, or fewer when the run stopped early.
    pub epochs_run: u32,
    /// Wall time of the passes, in seconds.
    pub wall_seconds: f64,
    /// CPU time of the passes (all threads), in seconds.
    pub cpu_seconds: f64,
    /// The loss curve: (epoch, training MSE).
    pub train_curve: Vec<(u32, f64)>,
    /// The loss curve: (epoch, validation MSE); empty without a validation set.
    pub validation_curve: Vec<(u32, f64)>,
    /// With a validation set, the epoch whose weights the run returned; `None` without one (the run then
    /// returns the last epoch's weights).
    pub kept: Option<KeptEpoch>,
    /// The epoch after which the run stopped early, `None` when it ran every epoch of the plan.
    pub stopped_early: Option<u32>,
}

/// Runs the epochs of `plan` on `params` with sigmoid scale `k`, calling `on_epoch` after each; `start_loss` is
/// the training MSE of `params` before the first epoch.
///
/// With a validation set (`validation` not empty), `params` ends as the weights with the lowest validation MSE
/// seen (the start weights included, as epoch 0; ties keep the earlier epoch), and the run stops early after
/// `plan.patience` epochs without a new lowest validation MSE (0: never). Without one, `params` ends as the
/// last epoch's weights and every epoch runs.
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
    // The best weights so far and their epoch, with a validation set only.
    let mut best: Option<(KeptEpoch, Vec<f64>)> = (!validation.is_empty())
        .then(|| (KeptEpoch { epoch: 0, validation: validation.mse(params, k) }, params.to_vec()));
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
        totals.epochs_run = epoch;
        let validation_mse = (!validation.is_empty()).then(|| validation.mse(params, k));
        totals.train_curve.push((epoch, loss));
        if let Some(v) = validation_mse {
            totals.validation_curve.push((epoch, v));
        }
        let ns_per_position = elapsed * 1e9 / train.len() as f64;
        on_epoch(&Epoch { epoch, loss, validation: validation_mse, lr: adam.lr, ns_per_position })?;
        if let (Some((kept, weights)), Some(v)) = (&mut best, validation_mse) {
            if v < kept.validation {
                *kept = KeptEpoch { epoch, validation: v };
                weights.copy_from_slice(params);
            } else if plan.patience > 0 && epoch - kept.epoch >= plan.patience && epoch < plan.epochs {
                totals.stopped_early = Some(epoch);
                break;
            }
        }
    }
    if let Some((kept, weights)) = best {
        params.copy_from_slice(&weights);
        totals.kept = Some(kept);
    }
    Ok(totals)
}

/// The fewest training positions per free weight that [`check_training_size`] accepts without a warning: 10,
/// the "one in ten" rule of logistic regression (Peduzzi, Concato, Kemper, Holford and Feinstein, "A simulation
/// study of the number of events per variable in logistic regression analysis", J Clin Epidemiol 49(12),
/// 1996: below 10 events per variable the fitted coefficients were biased both ways). Texel tuning is a
/// logistic regression (chessprogramming wiki, "Texel's Tuning Method"). Positions of one game share its
/// result, so the rule counts them generously: it is a floor, not a guarantee.
pub const POSITIONS_PER_WEIGHT: usize = 10;

/// The weights a run can move: those not `frozen`, with each pair of tied parameters (`partners`, as
/// [`super::mirror_partners`] gives) counted once.
pub fn free_weights(frozen: &[bool], partners: Option<&[usize]>) -> usize {
    (0..frozen.len()).filter(|&j| !frozen[j] && partners.is_none_or(|p| p[j] >= j)).count()
}

/// A training set smaller than [`POSITIONS_PER_WEIGHT`] positions per free weight, as
/// [`check_training_size`] reports it; its `Display` is the warning `arbiter tune` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SmallTrainingSet {
    /// The training positions.
    pub positions: usize,
    /// The free weights ([`free_weights`]).
    pub free_weights: usize,
}

impl SmallTrainingSet {
    /// The training positions the rule asks for: [`POSITIONS_PER_WEIGHT`] per free weight.
    pub fn needed(&self) -> usize {
        self.free_weights * POSITIONS_PER_WEIGHT
    }
}

impl std::fmt::Display for SmallTrainingSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} training positions for {} free weights ({:.1} per weight): the rule of thumb asks for at least {} \
             ({} per weight, the one-in-ten rule of logistic regression); the tuned build is likely to overfit \
             (give more data, or tune fewer weights)",
            self.positions,
            self.free_weights,
            self.positions as f64 / self.free_weights as f64,
            self.needed(),
            POSITIONS_PER_WEIGHT
        )
    }
}

/// `Some` when `positions` training positions are fewer than [`POSITIONS_PER_WEIGHT`] per free weight
/// (`free_weights`, as [`free_weights`] counts them); `None` when there are enough or nothing is free.
pub fn check_training_size(positions: usize, free_weights: usize) -> Option<SmallTrainingSet> {
    (positions < free_weights.saturating_mul(POSITIONS_PER_WEIGHT))
        .then_some(SmallTrainingSet { positions, free_weights })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::chess::eval::sparse_features;
    use crate::tune::texel::NUM_PARAMS;
    use crate::tune::{SparseSet, mirror_partners, params_of};

    #[test]
    fn free_weights_count_tied_pairs_once() {
        let frozen = vec![false; NUM_PARAMS];
        assert_eq!(free_weights(&frozen, None), NUM_PARAMS);
        // The mirror ties 2 layers x 6 pieces x 32 square pairs.
        assert_eq!(free_weights(&frozen, Some(&mirror_partners())), NUM_PARAMS - 2 * 6 * 32);
        let mut frozen = vec![true; NUM_PARAMS];
        frozen[0] = false;
        assert_eq!(free_weights(&frozen, Some(&mirror_partners())), 1);
    }

    #[test]
    fn small_training_sets_are_flagged() {
        assert_eq!(check_training_size(4_600, 460), None);
        let small = check_training_size(4_599, 460).expect("one position short");
        assert_eq!(small.needed(), 4_600);
        assert!(small.to_string().starts_with("4599 training positions for 460 free weights (10.0 per weight)"));
        assert_eq!(check_training_size(0, 0), None);
    }

    /// Two disjoint halves of the test positions with random results: no weight change generalizes, so the
    /// validation MSE rises from the start and the run must keep the start weights and stop after `patience`.
    fn noise_sets() -> (PackedSet, PackedSet) {
        let positions = crate::tune::texel::tests::positions();
        let (mut train, mut validation) = (SparseSet::new(), SparseSet::new());
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for (i, pos) in positions.iter().enumerate() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let label = [0.0, 0.5, 1.0][(state % 3) as usize];
            if i % 2 == 0 { &mut train } else { &mut validation }.push(&sparse_features(pos), label);
        }
        (PackedSet::pack(&train), PackedSet::pack(&validation))
    }

    fn plan(epochs: u32, patience: u32) -> EpochPlan {
        EpochPlan {
            optimizer: Optimizer::Adam,
            epochs,
            lr: 2.0,
            frozen: vec![false; NUM_PARAMS],
            partners: None,
            patience,
        }
    }

    #[test]
    fn the_run_keeps_the_best_validation_epoch_and_stops_early() {
        let (train, validation) = noise_sets();
        let start = params_of(&crate::engine::chess::Weights::seed());
        let k = 0.8;
        let run = |plan: &EpochPlan, validation: &PackedSet| {
            let mut params = start.clone();
            let mut seen = Vec::new();
            let mut on_epoch = |e: &Epoch| -> Result<(), std::convert::Infallible> {
                seen.push(e.epoch);
                Ok(())
            };
            let totals =
                run_epochs(&train, validation, &mut params, k, plan, train.mse(&start, k), &mut on_epoch).unwrap();
            (params, totals, seen)
        };
        // Without early stopping every epoch runs, and the weights are those of the lowest validation MSE.
        let (params, totals, seen) = run(&plan(40, 0), &validation);
        assert_eq!((totals.epochs_run, seen.len(), totals.stopped_early), (40, 40, None));
        let kept = totals.kept.expect("a validation set");
        let (best_epoch, best) = std::iter::once((0, validation.mse(&start, k)))
            .chain(totals.validation_curve.iter().copied())
            .fold((0, f64::INFINITY), |a, b| if b.1 < a.1 { b } else { a });
        assert_eq!((kept.epoch, kept.validation), (best_epoch, best));
        assert_eq!(validation.mse(&params, k), best);
        assert!(totals.validation_curve.last().unwrap().1 > best, "the data overfits: {:?}", totals.validation_curve);
        // With patience 5 the run stops 5 epochs after the best one, with the same weights.
        let (stopped, totals, seen) = run(&plan(40, 5), &validation);
        assert_eq!(totals.stopped_early, Some(kept.epoch + 5));
        assert_eq!(seen.len() as u32, kept.epoch + 5);
        assert_eq!(stopped, params);
        // Without a validation set: every epoch, the last epoch's weights, nothing kept.
        let (last, totals, _) = run(&plan(40, 5), &PackedSet::pack(&SparseSet::new()));
        assert_eq!((totals.epochs_run, totals.kept, totals.stopped_early), (40, None, None));
        assert_ne!(last, params);
    }
}
