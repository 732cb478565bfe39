//! The tuner's fast path: labelled positions packed for the gradient pass, and the Texel loss and gradient over
//! them in single precision.
//!
//! [`texel::gradient`](super::texel::gradient) is the reference: plain `f64` over any [`TrainingData`]. This
//! module computes the same quantities (the formulas are in [`super::texel`]'s module docs) about three times
//! faster, by laying the work out for the CPU (each step below was measured; the figures are in the commit
//! that introduced it):
//! - the `mg` and `eg` weights of a feature are adjacent (`[mg, eg]` pairs, `f32`), so one load gives both;
//! - the weight table has a second, negated copy ([`SLOTS`] rows further on), so a feature of value +1 or -1
//!   (about 81% of the non-zero features of real positions: a piece on a square, a count that differs by one)
//!   is a *unit entry*: a 2-byte row number whose row is added, with no multiplication and no value to load.
//!   The remaining features are *scaled entries* (index and value, 4 bytes), multiplied as usual;
//! - each position's unit and scaled entries are padded with zero rows to multiples of [`LANES`] and summed by
//!   [`LANES`] independent accumulators (hiding the latency of floating-point adds), and positions are grouped
//!   into blocks of equal shape (the same number of unit and of scaled entries) of at most [`CHUNK`]
//!   positions. Inside a block the loop trip counts repeat position after position, so the branch predictor
//!   stops missing the loop exits that a short loop of varying length otherwise costs every position. The loss
//!   is a sum, so the order of positions does not matter;
//! - the evaluation reads the weights from a table of 2^16 rows (only the first [`SLOTS`] * 2 are non-zero), so a
//!   `u16` row number indexes it with no bounds check and no `unsafe`;
//! - a block is evaluated in three sweeps: the dot products, then the sigmoids (an inline `2^x`) and
//!   gradient coefficients over plain arrays, which the compiler vectorizes, then the gradient;
//! - the gradient is computed column-major: each block also stores, for every row that occurs in it, the
//!   block-local numbers of its positions (without padding), and a row's gradient is the sum of those
//!   positions' coefficients, accumulated in registers. That replaces a read-modify-write of a gradient row
//!   per entry (the usual scatter) by a load per entry. The two halves of the signed table are subtracted at
//!   the end.
//!
//! Single precision is ample here: an evaluation is a sum of about 27 products of small integers and weights
//! below 10^4, exact to about 10^-3 centipawns, and each block sums the gradient of at most [`CHUNK`] positions
//! in `f32` before the blocks are summed in `f64`. The test `packed_gradient_equals_the_reference_gradient`
//! bounds the difference from the `f64` reference.

use super::texel::{NUM_PARAMS, TrainingData};
use crate::engine::chess::weights::NUM_FEATURES;
use rayon::prelude::*;
use std::collections::BTreeMap;

/// Rows of one half of the `[mg, eg]` weight table (the weights, then their negation): a power of two, above
/// [`NUM_FEATURES`] plus the padding rows.
pub const SLOTS: usize = 512;
const ROWS: usize = 2 * SLOTS;
const MASK: usize = ROWS - 1;

/// Entries are padded to multiples of this many, summed by this many accumulators.
pub const LANES: usize = 4;

/// The padding rows (zero weights): unit padding lane `l` uses row `PAD + l`, scaled padding lane `l` row
/// `PAD + LANES + l`.
const PAD: usize = NUM_FEATURES;
const _: () = assert!(PAD + 2 * LANES <= SLOTS && SLOTS.is_power_of_two());

/// Positions per block at most, the unit of parallel work: a block's gradient coefficients (32 KB) stay in the
/// level-1 cache while its columns are summed.
pub const CHUNK: usize = 4096;

/// A scaled entry: a feature index (below [`NUM_FEATURES`], or a padding row) and its White-minus-Black value
/// (0 for padding).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Scaled {
    index: u16,
    value: i16,
}

/// Per position: its phase as a fraction `p / 24` of the middlegame, and its target.
#[derive(Clone, Copy, Debug)]
struct Record {
    mg_fraction: f32,
    target: f32,
}

/// At most [`CHUNK`] positions of one shape: each has exactly `units` unit entries and `scaled` scaled entries
/// (padded), row-major for the evaluation; and the same entries (without padding) column-major for the
/// gradient: for each row that occurs, the block-local numbers of the positions that have it.
#[derive(Clone, Debug, Default)]
struct Block {
    units: usize,
    scaled: usize,
    unit_rows: Vec<u16>,
    scaled_entries: Vec<Scaled>,
    records: Vec<Record>,
    /// `(row, end)`: the row's positions are `unit_members[previous end..end]`.
    unit_columns: Vec<(u16, u32)>,
    unit_members: Vec<u16>,
    /// `(row, end)`: the row's positions and values are `scaled_members[previous end..end]`.
    scaled_columns: Vec<(u16, u32)>,
    scaled_members: Vec<Scaled>,
}

impl Block {
    /// The bytes the block holds.
    fn bytes(&self) -> usize {
        self.unit_rows.len() * size_of::<u16>()
            + self.scaled_entries.len() * size_of::<Scaled>()
            + self.records.len() * size_of::<Record>()
            + self.unit_columns.len() * size_of::<(u16, u32)>()
            + self.unit_members.len() * size_of::<u16>()
            + self.scaled_columns.len() * size_of::<(u16, u32)>()
            + self.scaled_members.len() * size_of::<Scaled>()
    }

    /// Builds the column-major copy of the entries (see [`Block`]).
    fn transpose(&mut self) {
        let mut units: Vec<Vec<u16>> = vec![Vec::new(); ROWS];
        let mut scaled: Vec<Vec<Scaled>> = vec![Vec::new(); ROWS];
        for k in 0..self.records.len() {
            let position = u16::try_from(k).expect("a block holds at most CHUNK positions");
            for &row in &self.unit_rows[k * self.units..(k + 1) * self.units] {
                if !is_padding(row) {
                    units[usize::from(row)].push(position);
                }
            }
            for entry in &self.scaled_entries[k * self.scaled..(k + 1) * self.scaled] {
                if !is_padding(entry.index) {
                    scaled[usize::from(entry.index)].push(Scaled { index: position, value: entry.value });
                }
            }
        }
        for (row, members) in units.into_iter().enumerate().filter(|(_, m)| !m.is_empty()) {
            self.unit_members.extend(members);
            self.unit_columns.push((row as u16, self.unit_members.len() as u32));
        }
        for (row, members) in scaled.into_iter().enumerate().filter(|(_, m)| !m.is_empty()) {
            self.scaled_members.extend(members);
            self.scaled_columns.push((row as u16, self.scaled_members.len() as u32));
        }
    }
}

/// Whether a row number is one of the padding rows.
fn is_padding(row: u16) -> bool {
    (PAD..PAD + 2 * LANES).contains(&usize::from(row))
}

/// The `[mg, eg]` pairs of the weights and their negation (or of a gradient).
type PairTable = [[f32; 2]; ROWS];

/// The weight table as the evaluation reads it: [`ROWS`] pairs padded with zeros to 2^16 rows, so that any
/// `u16` row number indexes it without a bounds check or a mask (512 KB, of which only the first 8 KB are
/// ever read).
type WideTable = [[f32; 2]; 1 << 16];

/// Labelled positions packed for the gradient pass (see the module docs): 2 bytes per unit entry, 4 per
/// scaled entry, padding included, and 8 per position.
#[derive(Clone, Debug, Default)]
pub struct PackedSet {
    blocks: Vec<Block>,
    len: usize,
}

impl PackedSet {
    /// Packs every position of `data` (in blocks by shape; see the module docs).
    ///
    /// # Panics
    /// If a feature index is not below [`NUM_FEATURES`] (the [`TrainingData`] sets of this crate hold none).
    pub fn pack<D: TrainingData + ?Sized>(data: &D) -> PackedSet {
        let mut blocks: BTreeMap<(usize, usize), Block> = BTreeMap::new();
        let mut full: Vec<Block> = Vec::new();
        let (mut units, mut scaled) = (Vec::new(), Vec::new());
        for i in 0..data.len() {
            let (indices, values) = data.features(i);
            units.clear();
            scaled.clear();
            for (&index, &value) in indices.iter().zip(values) {
                assert!(usize::from(index) < NUM_FEATURES, "feature index {index} out of range");
                match value {
                    1 => units.push(index),
                    -1 => units.push(index + SLOTS as u16),
                    _ => scaled.push(Scaled { index, value }),
                }
            }
            let shape = (units.len().next_multiple_of(LANES), scaled.len().next_multiple_of(LANES));
            for l in units.len()..shape.0 {
                units.push((PAD + l % LANES) as u16);
            }
            for l in scaled.len()..shape.1 {
                scaled.push(Scaled { index: (PAD + LANES + l % LANES) as u16, value: 0 });
            }
            let block =
                blocks.entry(shape).or_insert_with(|| Block { units: shape.0, scaled: shape.1, ..Block::default() });
            block.unit_rows.extend_from_slice(&units);
            block.scaled_entries.extend_from_slice(&scaled);
            block.records.push(Record { mg_fraction: f32::from(data.phase(i)) / 24.0, target: data.target(i) as f32 });
            if block.records.len() == CHUNK {
                full.push(blocks.remove(&shape).expect("the block just filled"));
            }
        }
        full.extend(blocks.into_values());
        full.par_iter_mut().for_each(Block::transpose);
        PackedSet { blocks: full, len: data.len() }
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there is no position.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes held per position (the row-major entries with their padding, the column-major copy, and the
    /// records), rounded down; 0 for an empty set.
    pub fn bytes_per_position(&self) -> usize {
        let bytes: usize = self.blocks.iter().map(Block::bytes).sum();
        bytes.checked_div(self.len).unwrap_or(0)
    }

    /// The mean squared error of `params` (`mg` then `eg`, [`NUM_PARAMS`] values) at sigmoid scale `k`;
    /// 0 for an empty set.
    ///
    /// # Panics
    /// If `params` does not have [`NUM_PARAMS`] values.
    pub fn mse(&self, params: &[f64], k: f64) -> f64 {
        self.run::<false>(params, k).0
    }

    /// The mean squared error of `params` at sigmoid scale `k` and its gradient ([`NUM_PARAMS`] values), in
    /// parallel over chunks of at most [`CHUNK`] positions; `(0, zeros)` for an empty set.
    ///
    /// # Panics
    /// If `params` does not have [`NUM_PARAMS`] values.
    pub fn gradient(&self, params: &[f64], k: f64) -> (f64, Vec<f64>) {
        self.run::<true>(params, k)
    }

    fn run<const GRADIENT: bool>(&self, params: &[f64], k: f64) -> (f64, Vec<f64>) {
        assert_eq!(params.len(), NUM_PARAMS, "a parameter vector has NUM_PARAMS values");
        if self.is_empty() {
            return (0.0, vec![0.0; NUM_PARAMS]);
        }
        let mut table: Box<WideTable> = vec![[0.0; 2]; 1 << 16].into_boxed_slice().try_into().expect("2^16 rows");
        for j in 0..NUM_FEATURES {
            let pair = [params[j] as f32, params[NUM_FEATURES + j] as f32];
            table[j] = pair;
            table[SLOTS + j] = [-pair[0], -pair[1]];
        }
        let scale = (k * std::f64::consts::LN_10 / 400.0) as f32;
        let parts: Vec<(f64, Option<Box<PairTable>>)> = self
            .blocks
            .par_iter()
            .map(|block| {
                let mut grad = GRADIENT.then(|| Box::new([[0.0f32; 2]; ROWS]));
                let loss = block.pass::<GRADIENT>(&table, scale, grad.as_deref_mut());
                (loss, grad)
            })
            .collect();
        let mut loss = 0.0;
        let mut grad = vec![0.0; NUM_PARAMS];
        for (part_loss, part_grad) in parts {
            loss += part_loss;
            if let Some(part_grad) = part_grad {
                for j in 0..NUM_FEATURES {
                    let (plus, minus) = (part_grad[j], part_grad[SLOTS + j]);
                    grad[j] += f64::from(plus[0]) - f64::from(minus[0]);
                    grad[NUM_FEATURES + j] += f64::from(plus[1]) - f64::from(minus[1]);
                }
            }
        }
        let n = self.len as f64;
        grad.iter_mut().for_each(|g| *g /= n);
        (loss / n, grad)
    }
}

impl Block {
    /// The summed squared error of the block's positions, adding their gradient (not yet divided by N) to
    /// `grad` when `GRADIENT`: first each position's evaluation, error and gradient coefficients (row-major),
    /// then each row's gradient as the sum of the coefficients of the positions that have it (column-major:
    /// loads into registers instead of a read-modify-write of the gradient row per entry).
    fn pass<const GRADIENT: bool>(&self, table: &WideTable, scale: f32, grad: Option<&mut PairTable>) -> f64 {
        const POSITION_MASK: usize = CHUNK - 1;
        // 1. The evaluations (independent dot products, one position after another).
        let evals: Vec<f32> = self
            .records
            .iter()
            .enumerate()
            .map(|(k, record)| {
                let units = &self.unit_rows[k * self.units..(k + 1) * self.units];
                let scaled = &self.scaled_entries[k * self.scaled..(k + 1) * self.scaled];
                let mut acc = [[0.0f32; 2]; LANES];
                for quad in units.chunks_exact(LANES) {
                    for (a, &row) in acc.iter_mut().zip(quad) {
                        let w = table[usize::from(row)];
                        a[0] += w[0];
                        a[1] += w[1];
                    }
                }
                for quad in scaled.chunks_exact(LANES) {
                    for (a, entry) in acc.iter_mut().zip(quad) {
                        let w = table[usize::from(entry.index)];
                        let v = f32::from(entry.value);
                        a[0] += w[0] * v;
                        a[1] += w[1] * v;
                    }
                }
                let mg = (acc[0][0] + acc[1][0]) + (acc[2][0] + acc[3][0]);
                let eg = (acc[0][1] + acc[1][1]) + (acc[2][1] + acc[3][1]);
                let p = record.mg_fraction;
                p * mg + (1.0 - p) * eg
            })
            .collect();
        // 2. Sigmoids and gradient coefficients: straight-line arithmetic over arrays, which the compiler
        //    vectorizes (four positions per instruction).
        let scale2 = -scale * std::f32::consts::LOG2_E;
        let sigmoids: Vec<f32> = evals.iter().map(|&eval| 1.0 / (1.0 + exp2(scale2 * eval))).collect();
        let mut sums = [0.0f64; LANES];
        for (quad, records) in sigmoids.chunks(LANES).zip(self.records.chunks(LANES)) {
            for ((sum, &s), record) in sums.iter_mut().zip(quad).zip(records) {
                let error = s - record.target;
                *sum += f64::from(error * error);
            }
        }
        let loss = (sums[0] + sums[1]) + (sums[2] + sums[3]);
        if let Some(grad) = grad {
            let mut coefficients: Vec<[f32; 2]> = sigmoids
                .iter()
                .zip(&self.records)
                .map(|(&s, record)| {
                    let common = 2.0 * (s - record.target) * s * (1.0 - s) * scale;
                    let p = record.mg_fraction;
                    [common * p, common * (1.0 - p)]
                })
                .collect();
            coefficients.resize(CHUNK, [0.0; 2]);
            let coefficients: Box<[[f32; 2]; CHUNK]> =
                coefficients.into_boxed_slice().try_into().expect("resized to CHUNK entries");
            let mut start = 0;
            for &(row, end) in &self.unit_columns {
                let members = &self.unit_members[start..end as usize];
                start = end as usize;
                let mut acc = [[0.0f32; 2]; LANES];
                let mut quads = members.chunks_exact(LANES);
                for quad in &mut quads {
                    for (a, &m) in acc.iter_mut().zip(quad) {
                        let c = coefficients[usize::from(m) & POSITION_MASK];
                        a[0] += c[0];
                        a[1] += c[1];
                    }
                }
                for (a, &m) in acc.iter_mut().zip(quads.remainder()) {
                    let c = coefficients[usize::from(m) & POSITION_MASK];
                    a[0] += c[0];
                    a[1] += c[1];
                }
                let pair = &mut grad[usize::from(row) & MASK];
                pair[0] += (acc[0][0] + acc[1][0]) + (acc[2][0] + acc[3][0]);
                pair[1] += (acc[0][1] + acc[1][1]) + (acc[2][1] + acc[3][1]);
            }
            let mut start = 0;
            for &(row, end) in &self.scaled_columns {
                let members = &self.scaled_members[start..end as usize];
                start = end as usize;
                let mut sum = [0.0f32; 2];
                for m in members {
                    let c = coefficients[usize::from(m.index) & POSITION_MASK];
                    let v = f32::from(m.value);
                    sum[0] += c[0] * v;
                    sum[1] += c[1] * v;
                }
                let pair = &mut grad[usize::from(row) & MASK];
                pair[0] += sum[0];
                pair[1] += sum[1];
            }
        }
        loss
    }
}

/// `2^x` in single precision, inline: `x = n + f` with `n` an integer and `|f| <= 1/2`, `2^f` by its degree-6
/// Taylor polynomial in `f ln 2` (relative error below 3e-7 on that interval), `2^n` put in the exponent bits.
/// `x` is clamped to `[-126, 126]`, where the result is a normal `f32` (the sigmoid is then 0 or 1 to within
/// 1e-37 anyway).
#[inline(always)]
fn exp2(x: f32) -> f32 {
    let x = x.clamp(-126.0, 126.0);
    // Round to nearest by the 1.5 * 2^23 trick (`f32::round` is a library call without SSE4.1).
    const SHIFTER: f32 = 12_582_912.0;
    let n = (x + SHIFTER) - SHIFTER;
    let t = (x - n) * std::f32::consts::LN_2;
    let p = 1.0 + t * (1.0 + t * (0.5 + t * (1.0 / 6.0 + t * (1.0 / 24.0 + t * (1.0 / 120.0 + t * (1.0 / 720.0))))));
    p * f32::from_bits(((n as i32 + 127) as u32) << 23)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::chess::Weights;
    use crate::engine::chess::eval::sparse_features;
    use crate::tune::texel::{SparseSet, TrainingData, gradient, mse, params_of};

    fn playout_set() -> SparseSet {
        let mut set = SparseSet::new();
        for (i, pos) in crate::tune::texel::tests::positions().iter().enumerate() {
            set.push(&sparse_features(pos), [0.0, 0.5, 1.0][i % 3]);
        }
        set
    }

    #[test]
    fn packed_gradient_equals_the_reference_gradient() {
        let set = playout_set();
        let packed = PackedSet::pack(&set);
        assert_eq!(packed.len(), set.len());
        let params = params_of(&Weights::seed());
        let k = 0.9;
        let (loss, grad) = gradient(&set, &params, k);
        let (packed_loss, packed_grad) = packed.gradient(&params, k);
        assert!((loss - packed_loss).abs() < 1e-6 * loss, "{loss} vs {packed_loss}");
        assert!((mse(&set, &params, k) - packed.mse(&params, k)).abs() < 1e-6 * loss);
        let largest = grad.iter().fold(0.0f64, |m, g| m.max(g.abs()));
        for (j, (a, b)) in grad.iter().zip(&packed_grad).enumerate() {
            assert!((a - b).abs() <= 1e-4 * largest, "{j}: {a} vs {b} (largest {largest})");
        }
        // Every feature of every position is in the column-major copy exactly once.
        let entries: usize = (0..set.len()).map(|i| set.features(i).0.len()).sum();
        let members: usize = packed.blocks.iter().map(|b| b.unit_members.len() + b.scaled_members.len()).sum();
        assert_eq!(members, entries);
    }
}
