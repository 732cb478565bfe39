//! Texel tuning: the mean squared error between game results and `sigmoid(K * eval)` over labelled positions,
//! its analytic gradient from sparse features, the fit of the sigmoid scale K, and full-batch Adam.
//!
//! The evaluation is the engine's tapered linear form (see [`crate::engine::chess::weights`]): for effective weight
//! vectors `mg` and `eg` (one weight per feature, [`NUM_FEATURES`] each) and a position's features `f` and
//! phase `p` (0 to 24), `eval = (p * dot(mg, f) + (24 - p) * dot(eg, f)) / 24` centipawns from White's view,
//! here in floating point (the engine truncates the division). The tuner's parameter vector is `mg` followed
//! by `eg` ([`NUM_PARAMS`] values).
//!
//! Loss (Peter Österlund's Texel method, chessprogramming wiki "Texel's Tuning Method"):
//! `E = (1/N) sum_i (r_i - s(eval_i))^2` with `s(e) = 1 / (1 + 10^(-K e / 400))` and `r_i` White's result
//! (1, 0.5, 0). Gradient: `dE/dw_j = (2/N) sum_i (s_i - r_i) s_i (1 - s_i) (K ln 10 / 400) d eval_i / dw_j`,
//! with `d eval / d mg_j = p f_j / 24` and `d eval / d eg_j = (24 - p) f_j / 24`. Adam: Kingma and Ba, 2015.

use crate::engine::chess::Weights;
use crate::engine::chess::eval::SparseFeatures;
use crate::engine::chess::weights::{FEATURES, NUM_BASE, NUM_FEATURES};
use rayon::prelude::*;

/// The length of the tuner's parameter vector: the `mg` weights, then the `eg` weights.
pub const NUM_PARAMS: usize = 2 * NUM_FEATURES;

/// The phase of a position with all pieces on the board (the 24-point scheme).
const FULL_PHASE: f64 = 24.0;

/// Positions per rayon task: large enough that the per-task gradient buffer is cheap to merge.
const CHUNK: usize = 4096;

/// Labelled positions as the tuner reads them: sparse features, phase and target score per position.
pub trait TrainingData: Sync {
    /// The number of positions.
    fn len(&self) -> usize;
    /// Whether there is no position.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Position `i`'s non-zero features: indices (ascending) and White-minus-Black values.
    fn features(&self, i: usize) -> (&[u16], &[i16]);
    /// Position `i`'s phase, 0 to 24.
    fn phase(&self, i: usize) -> u8;
    /// Position `i`'s target: White's result (1, 0.5, 0), or any score in `[0, 1]`.
    fn target(&self, i: usize) -> f64;
}

/// The tapered evaluation of position `i` of `data` for the parameter vector `params` (`mg` then `eg`),
/// centipawns from White's view, without the engine's integer truncation.
pub fn eval<D: TrainingData + ?Sized>(data: &D, params: &[f64], i: usize) -> f64 {
    let (indices, values) = data.features(i);
    let (mut mg, mut eg) = (0.0, 0.0);
    for (&j, &v) in indices.iter().zip(values) {
        let v = f64::from(v);
        mg += params[j as usize] * v;
        eg += params[NUM_FEATURES + j as usize] * v;
    }
    let p = f64::from(data.phase(i));
    (p * mg + (FULL_PHASE - p) * eg) / FULL_PHASE
}

/// Labelled positions as packed sparse features: for position `i`, the entries `offsets[i]..offsets[i+1]`
/// of `indices` (feature index) and `values` (White-minus-Black count), its phase and its label.
#[derive(Clone, Debug, Default)]
pub struct SparseSet {
    offsets: Vec<u32>,
    indices: Vec<u16>,
    values: Vec<i16>,
    phases: Vec<u8>,
    labels: Vec<f32>,
}

impl SparseSet {
    /// An empty set.
    pub fn new() -> SparseSet {
        SparseSet { offsets: vec![0], ..SparseSet::default() }
    }

    /// Adds a position's features with its label (White's result: 1, 0.5 or 0).
    ///
    /// # Panics
    /// If a feature value does not fit in `i16` or the phase is outside 0..=24 (features of real positions
    /// are small counts).
    pub fn push(&mut self, features: &SparseFeatures, label: f32) {
        if self.offsets.is_empty() {
            self.offsets.push(0);
        }
        for &(index, value) in &features.entries {
            self.indices.push(index);
            self.values.push(i16::try_from(value).expect("feature counts fit in i16"));
        }
        self.offsets.push(u32::try_from(self.indices.len()).expect("fewer than 2^32 entries"));
        self.phases.push(u8::try_from(features.phase).ok().filter(|&p| p <= 24).expect("phase in 0..=24"));
        self.labels.push(label);
    }

    /// Bytes held per position (indices, values, offsets, phase and label), rounded down.
    pub fn bytes_per_position(&self) -> usize {
        if self.is_empty() {
            return 0;
        }
        let bytes = self.indices.len() * 2 + self.values.len() * 2 + self.offsets.len() * 4 + self.len() * 5;
        bytes / self.len()
    }

    /// Sets position `i`'s target (a soft label in `[0, 1]`).
    ///
    /// # Panics
    /// If `i` is out of range.
    pub fn set_target(&mut self, i: usize, target: f32) {
        self.labels[i] = target;
    }
}

impl TrainingData for SparseSet {
    fn len(&self) -> usize {
        self.labels.len()
    }

    fn features(&self, i: usize) -> (&[u16], &[i16]) {
        let (a, b) = (self.offsets[i] as usize, self.offsets[i + 1] as usize);
        (&self.indices[a..b], &self.values[a..b])
    }

    fn phase(&self, i: usize) -> u8 {
        self.phases[i]
    }

    fn target(&self, i: usize) -> f64 {
        f64::from(self.labels[i])
    }
}

impl TrainingData for super::data::Dataset {
    fn len(&self) -> usize {
        super::data::Dataset::len(self)
    }

    fn features(&self, i: usize) -> (&[u16], &[i16]) {
        super::data::Dataset::features(self, i)
    }

    fn phase(&self, i: usize) -> u8 {
        super::data::Dataset::phase(self, i)
    }

    fn target(&self, i: usize) -> f64 {
        self.label(i).score()
    }
}

/// The Texel sigmoid `1 / (1 + 10^(-k * eval / 400))`.
pub fn sigmoid(k: f64, eval: f64) -> f64 {
    // 10^x as e^(x ln 10): the same value (to rounding) at a fraction of powf's cost.
    1.0 / (1.0 + (-k * eval * (std::f64::consts::LN_10 / 400.0)).exp())
}

/// The mean squared error of `params` on `set` at sigmoid scale `k`, in parallel over positions (the same value
/// for any number of threads); 0 for an empty set.
pub fn mse<D: TrainingData + ?Sized>(set: &D, params: &[f64], k: f64) -> f64 {
    if set.is_empty() {
        return 0.0;
    }
    // Fixed chunks summed in order: the same value for any number of threads (rayon's `sum` would reduce in
    // an order that depends on how the work was split).
    let n = set.len();
    let sums: Vec<f64> = (0..n.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            (c * CHUNK..((c + 1) * CHUNK).min(n))
                .map(|i| (set.target(i) - sigmoid(k, eval(set, params, i))).powi(2))
                .sum()
        })
        .collect();
    sums.iter().sum::<f64>() / n as f64
}

/// The mean squared error and its gradient with respect to every parameter (see the module docs), in parallel
/// over chunks of positions.
pub fn gradient<D: TrainingData + ?Sized>(set: &D, params: &[f64], k: f64) -> (f64, Vec<f64>) {
    let n = set.len();
    if n == 0 {
        return (0.0, vec![0.0; params.len()]);
    }
    let scale = k * std::f64::consts::LN_10 / 400.0;
    let chunks: Vec<(f64, Vec<f64>)> = (0..n.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let mut grad = vec![0.0; params.len()];
            let mut loss = 0.0;
            for i in c * CHUNK..((c + 1) * CHUNK).min(n) {
                let s = sigmoid(k, eval(set, params, i));
                let r = set.target(i);
                loss += (r - s) * (r - s);
                let common = 2.0 * (s - r) * s * (1.0 - s) * scale;
                let p = f64::from(set.phase(i)) / FULL_PHASE;
                let (wm, we) = (common * p, common * (1.0 - p));
                let (indices, values) = set.features(i);
                for (&j, &v) in indices.iter().zip(values) {
                    let v = f64::from(v);
                    grad[j as usize] += wm * v;
                    grad[NUM_FEATURES + j as usize] += we * v;
                }
            }
            (loss, grad)
        })
        .collect();
    let mut grad = vec![0.0; params.len()];
    let mut loss = 0.0;
    for (l, g) in chunks {
        loss += l;
        for (a, b) in grad.iter_mut().zip(g) {
            *a += b;
        }
    }
    grad.iter_mut().for_each(|g| *g /= n as f64);
    (loss / n as f64, grad)
}

/// The sigmoid scale K that minimises the MSE of `params` on `set`: a golden-section search over
/// `[0.05, 5]` to a width of 1e-6 (the MSE is unimodal in K for real data).
pub fn fit_k<D: TrainingData + ?Sized>(set: &D, params: &[f64]) -> f64 {
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (0.05, 5.0);
    let mut c = b - phi * (b - a);
    let mut d = a + phi * (b - a);
    let (mut fc, mut fd) = (mse(set, params, c), mse(set, params, d));
    while b - a > 1e-6 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - phi * (b - a);
            fc = mse(set, params, c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + phi * (b - a);
            fd = mse(set, params, d);
        }
    }
    (a + b) / 2.0
}

/// Adam's state for one parameter vector.
#[derive(Clone, Debug)]
pub struct Adam {
    /// The step size (learning rate), in centipawns.
    pub lr: f64,
    beta1: f64,
    beta2: f64,
    eps: f64,
    m: Vec<f64>,
    v: Vec<f64>,
    t: i32,
}

impl Adam {
    /// Adam for `len` parameters with learning rate `lr` and the usual constants (beta1 0.9, beta2 0.999,
    /// epsilon 1e-8; Kingma and Ba, 2015).
    pub fn new(len: usize, lr: f64) -> Adam {
        Adam { lr, beta1: 0.9, beta2: 0.999, eps: 1e-8, m: vec![0.0; len], v: vec![0.0; len], t: 0 }
    }

    /// One step on `params` along `grad`; parameters whose `frozen` entry is true do not move.
    pub fn step(&mut self, params: &mut [f64], grad: &[f64], frozen: &[bool]) {
        self.t += 1;
        let (c1, c2) = (1.0 - self.beta1.powi(self.t), 1.0 - self.beta2.powi(self.t));
        for j in 0..params.len() {
            if frozen.get(j).copied().unwrap_or(false) {
                continue;
            }
            self.m[j] = self.beta1 * self.m[j] + (1.0 - self.beta1) * grad[j];
            self.v[j] = self.beta2 * self.v[j] + (1.0 - self.beta2) * grad[j] * grad[j];
            params[j] -= self.lr * (self.m[j] / c1) / ((self.v[j] / c2).sqrt() + self.eps);
        }
    }
}

/// The tuner's parameter vector of `weights`: the effective `mg` weights, then the effective `eg` weights.
pub fn params_of(weights: &Weights) -> Vec<f64> {
    weights.mg_vec().iter().chain(weights.eg_vec().iter()).map(|&w| f64::from(w)).collect()
}

/// The weights whose effective values are `params` rounded to integers, keeping the phase-independent seed
/// values of `start` (the seed terms' `mg`/`eg` layers absorb the change), so a tuned config keeps every name
/// and shape of the start config.
///
/// # Panics
/// If `params` does not have [`NUM_PARAMS`] values.
pub fn weights_from_params(start: &Weights, params: &[f64]) -> Weights {
    assert_eq!(params.len(), NUM_PARAMS, "a parameter vector has NUM_PARAMS values");
    let mut flat = start.to_vec();
    let base = start.base_vec();
    for j in 0..NUM_FEATURES {
        let b = if j < NUM_BASE { base[j] } else { 0 };
        let round = |x: f64| x.round().clamp(f64::from(i32::MIN / 2), f64::from(i32::MAX / 2)) as i32;
        flat[NUM_BASE + j] = round(params[j]) - b;
        flat[NUM_BASE + NUM_FEATURES + j] = round(params[NUM_FEATURES + j]) - b;
    }
    Weights::from_vec(&flat).expect("the flat vector has NUM_WEIGHTS values")
}

/// A weight group name that [`group_mask`] does not know.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown weight group {group:?}; groups: psqt, {}, each also as mg.KEY or eg.KEY",
    FEATURES.iter().map(|f| f.0).collect::<Vec<&str>>().join(", ")
)]
pub struct UnknownGroup {
    /// The name given.
    pub group: String,
}

/// The parameters of weight groups: each group is a feature key of [`FEATURES`] (`material`, `psqt_knight`,
/// `tempo`, ...) for both phases, `mg.KEY` or `eg.KEY` for one phase, or `psqt` for every piece-square table.
/// Returns one flag per parameter, true for the parameters of the groups.
///
/// # Errors
/// [`UnknownGroup`] for the first unknown group name; its message lists the names that exist.
pub fn group_mask(groups: &[&str]) -> Result<Vec<bool>, UnknownGroup> {
    let mut mask = vec![false; NUM_PARAMS];
    for &group in groups {
        let (layers, key) = match group.split_once('.') {
            Some(("mg", key)) => (&[0usize][..], key),
            Some(("eg", key)) => (&[1usize][..], key),
            _ => (&[0usize, 1][..], group),
        };
        let mut found = false;
        let mut at = 0;
        for &(name, len) in FEATURES {
            if name == key || (key == "psqt" && name.starts_with("psqt_")) {
                found = true;
                for &layer in layers {
                    mask[layer * NUM_FEATURES + at..layer * NUM_FEATURES + at + len].fill(true);
                }
            }
            at += len;
        }
        if !found {
            return Err(UnknownGroup { group: group.to_string() });
        }
    }
    Ok(mask)
}

/// The partner of every parameter under left-right symmetry of the piece-square tables: for a piece-square
/// parameter, the same piece's square mirrored across the d/e file boundary (a1 with h1, b3 with g3, ...); for
/// every other parameter, itself. [`NUM_PARAMS`] values.
pub fn mirror_partners() -> Vec<usize> {
    let psqt = crate::engine::chess::weights::feature_offset("psqt_pawn").expect("the piece-square tables exist");
    let mut partners: Vec<usize> = (0..NUM_PARAMS).collect();
    for layer in [0, NUM_FEATURES] {
        for piece in 0..6 {
            for sq in 0..64 {
                partners[layer + psqt + 64 * piece + sq] = layer + psqt + 64 * piece + (sq ^ 7);
            }
        }
    }
    partners
}

/// Ties each parameter to its partner (`partners`, as [`mirror_partners`] gives) by replacing both gradient
/// components with their mean: from parameters that are tied, Adam then keeps them tied (and a difference
/// already there stays as it is). With mirrored piece-square tables this halves the free piece-square
/// parameters: a piece on the a-file is worth what it is worth on the h-file, which gives up only castling
/// asymmetries and measurably reduces overfitting (see the `arbiter tune --psqt` docs).
pub fn tie_gradient(grad: &mut [f64], partners: &[usize]) {
    for (a, &b) in partners.iter().enumerate() {
        if a < b {
            let mean = (grad[a] + grad[b]) / 2.0;
            grad[a] = mean;
            grad[b] = mean;
        }
    }
}

/// The classic Texel local search (Peter Österlund; chessprogramming wiki "Texel's Tuning Method"): for every
/// parameter not `frozen`, try +1 and then -1 and keep a change that lowers the MSE; one call is one pass over
/// the parameters. A parameter with a partner other than itself (`partners`, as [`mirror_partners`] gives;
/// `None`: no ties) moves together with it. `loss` is the MSE of a parameter vector (for example
/// `|p| mse(set, p, k)`, or a [`super::PackedSet`]'s faster `mse`). Returns the MSE after the pass and the
/// number of moves kept.
pub fn local_search_pass(
    loss: impl Fn(&[f64]) -> f64,
    params: &mut [f64],
    frozen: &[bool],
    partners: Option<&[usize]>,
) -> (f64, usize) {
    let mut best = loss(params);
    let mut changed = 0;
    for j in 0..params.len() {
        let partner = partners.map_or(j, |p| p[j]);
        if frozen.get(j).copied().unwrap_or(false) || partner < j {
            continue;
        }
        for step in [1.0, -1.0] {
            params[j] += step;
            if partner != j {
                params[partner] += step;
            }
            let trial = loss(params);
            if trial < best {
                best = trial;
                changed += 1;
                break;
            }
            params[j] -= step;
            if partner != j {
                params[partner] -= step;
            }
        }
    }
    (best, changed)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::chess::Position;
    use crate::engine::chess::Weights;
    use crate::engine::chess::eval::sparse_features;

    /// A few hundred varied positions from short random playouts of the start position.
    pub(crate) fn positions() -> Vec<Position> {
        let mut out = Vec::new();
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..40 {
            let mut pos = Position::startpos();
            for _ in 0..40 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let m = moves.iter().nth((state % moves.len() as u64) as usize).copied().expect("a move");
                pos.make_move(m);
                out.push(pos.clone());
            }
        }
        out
    }

    fn seed_params() -> Vec<f64> {
        params_of(&Weights::seed())
    }

    #[test]
    fn tuned_weights_keep_names_and_round_trip() {
        let seed = Weights::seed();
        assert_eq!(weights_from_params(&seed, &params_of(&seed)), seed);
        let mut params = params_of(&seed);
        params[0] += 7.4; // mg pawn
        params[NUM_FEATURES + 421] = -3.6; // eg tempo
        let tuned = weights_from_params(&seed, &params);
        assert_eq!(tuned.material, seed.material, "the seed values stay");
        assert_eq!((tuned.mg_vec()[0], tuned.eg_vec()[0]), (107, 100));
        assert_eq!(tuned.eg_vec()[421], -4);
        let config =
            crate::engine::chess::EngineConfig { weights: tuned.clone(), ..crate::engine::chess::EngineConfig::seed() };
        let read = crate::engine::chess::EngineConfig::from_toml_str(&config.to_toml(), "tuned").unwrap();
        assert_eq!(read.weights, tuned);
    }

    #[test]
    fn mirrored_squares_stay_tied() {
        let partners = mirror_partners();
        let psqt = crate::engine::chess::weights::feature_offset("psqt_knight").unwrap();
        // b1 (1) and g1 (6) are partners in both layers; material is its own partner.
        assert_eq!(partners[psqt + 1], psqt + 6);
        assert_eq!(partners[NUM_FEATURES + psqt + 6], NUM_FEATURES + psqt + 1);
        assert_eq!(partners[0], 0);
        assert!(partners.iter().enumerate().all(|(j, &p)| partners[p] == j));
        let mut grad: Vec<f64> = (0..NUM_PARAMS).map(|j| j as f64).collect();
        tie_gradient(&mut grad, &partners);
        assert_eq!(grad[psqt + 1], grad[psqt + 6]);
        assert_eq!(grad[psqt + 1], (2 * psqt + 7) as f64 / 2.0);
        assert_eq!(grad[3], 3.0);
    }

    #[test]
    fn groups_select_parameters() {
        let mask = group_mask(&["material"]).unwrap();
        assert_eq!(mask.iter().filter(|&&m| m).count(), 10);
        assert!(mask[0] && mask[NUM_FEATURES + 4] && !mask[5]);
        let mask = group_mask(&["eg.tempo", "psqt"]).unwrap();
        assert_eq!(mask.iter().filter(|&&m| m).count(), 1 + 2 * 6 * 64);
        assert!(mask[NUM_FEATURES + 421] && !mask[421]);
        assert!(group_mask(&["materials"]).unwrap_err().to_string().contains("unknown weight group \"materials\""));
    }

    #[test]
    fn eval_matches_the_engine_form() {
        let w = Weights::seed();
        let params = seed_params();
        let mut set = SparseSet::new();
        let positions = positions();
        for pos in &positions {
            set.push(&sparse_features(pos), 0.5);
        }
        for (i, pos) in positions.iter().enumerate() {
            let exact = f64::from(sparse_features(pos).white_eval(&w.mg_vec(), &w.eg_vec()));
            assert!((eval(&set, &params, i) - exact).abs() < 1.0, "{}", pos.to_fen());
        }
        assert!(set.bytes_per_position() > 0);
    }

    #[test]
    fn the_analytic_gradient_equals_finite_differences() {
        let mut set = SparseSet::new();
        for (i, pos) in positions().iter().take(200).enumerate() {
            set.push(&sparse_features(pos), [0.0, 0.5, 1.0][i % 3]);
        }
        let params = seed_params();
        let k = 1.1;
        let (_, grad) = gradient(&set, &params, k);
        let mut checked = 0;
        for j in (0..NUM_PARAMS).filter(|&j| grad[j] != 0.0).step_by(7) {
            let h = 1e-3;
            let mut plus = params.clone();
            plus[j] += h;
            let mut minus = params.clone();
            minus[j] -= h;
            let numeric = (mse(&set, &plus, k) - mse(&set, &minus, k)) / (2.0 * h);
            assert!(
                (numeric - grad[j]).abs() <= 1e-6 * grad[j].abs().max(1e-6) + 1e-10,
                "{j}: {numeric} vs {}",
                grad[j]
            );
            checked += 1;
        }
        assert!(checked > 10, "only {checked} parameters checked");
    }

    #[test]
    fn adam_recovers_a_known_weight_vector() {
        // Labels are the sigmoid of a known evaluation (soft labels): the minimum is exactly the known weights
        // on the features the positions exercise.
        let positions = positions();
        let truth = seed_params();
        let k = 1.0;
        let mut set = SparseSet::new();
        for pos in &positions {
            set.push(&sparse_features(pos), 0.0);
        }
        for i in 0..set.len() {
            let target = sigmoid(k, eval(&set, &truth, i)) as f32;
            set.set_target(i, target);
        }
        // Start from the truth with material moved by 20%: the tuner must bring the loss back down.
        let mut params = truth.clone();
        for j in 0..5 {
            params[j] *= 0.8;
            params[NUM_FEATURES + j] *= 1.2;
        }
        let start = mse(&set, &params, k);
        let mut adam = Adam::new(NUM_PARAMS, 2.0);
        let frozen = vec![false; NUM_PARAMS];
        for _ in 0..300 {
            let (_, grad) = gradient(&set, &params, k);
            adam.step(&mut params, &grad, &frozen);
        }
        let end = mse(&set, &params, k);
        assert!(end < start / 20.0, "MSE {start} -> {end}");
        // The pawn and knight material come back within a few centipawns.
        for j in [0, 1] {
            assert!((params[j] - truth[j]).abs() < 10.0, "mg {j}: {} vs {}", params[j], truth[j]);
        }
        // One local-search pass never raises the loss.
        let before = mse(&set, &params, k);
        let (after, _) = local_search_pass(|p| mse(&set, p, k), &mut params, &frozen, None);
        assert!(after <= before);
        let k_fit = fit_k(&set, &truth);
        assert!((k_fit - k).abs() < 1e-3, "K {k_fit}");
    }
}
