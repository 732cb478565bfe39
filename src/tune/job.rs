//! One Texel tuning job from files to files, as `arbiter tune` runs it ([`run_texel`]): read the labelled
//! positions, split off a validation set by game, build and pack the dataset, fit K with the start weights,
//! run the epochs ([`super::run::run_epochs`]) while writing the loss curve (`<out>.loss.csv`), then draw it
//! (`<out>.loss.svg`) and write the tuned build (`<out>`), every weight rounded. What it has to say along the
//! way goes to a [`TexelObserver`]; what it found comes back as a [`TexelOutcome`] for the caller to print.

use super::chart::loss_svg;
use super::data::{Dataset, LabelledPosition, TuneDataError, read_game_ids, read_labelled_file, split_by_game};
use super::packed::PackedSet;
use super::run::{
    Epoch, EpochPlan, EpochTotals, Optimizer, SmallTrainingSet, check_training_size, free_weights, run_epochs,
};
use super::texel::{NUM_PARAMS, UnknownGroup, fit_k, group_mask, mirror_partners, params_of, weights_from_params};
use crate::engine::chess::EngineConfig;
use crate::svg_chart::ChartError;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;
use thiserror::Error;

/// What to tune, on what, and where to write it.
#[derive(Clone, Debug)]
pub struct TexelJob {
    /// The labelled position files (EPD with `c9`, `FEN [score]` lines, PGN).
    pub data: Vec<PathBuf>,
    /// The game id of each line of the one data file (`.meta.tsv`): the validation split; `None` for none.
    pub games: Option<PathBuf>,
    /// The start build.
    pub start: EngineConfig,
    /// How the start build was named (a config file or a built-in's name), for the chart's title.
    pub start_name: String,
    /// The tuned build's file; the loss curve goes beside it (`.loss.csv`, `.loss.svg`).
    pub out: PathBuf,
    /// The epochs: optimizer, count, learning rate, frozen weights ([`frozen_weights`]), patience. Its
    /// `partners` is set by [`run_texel`] from `mirror_psqt`.
    pub plan: EpochPlan,
    /// Whether each piece-square entry is tied to its mirror across the d/e file boundary.
    pub mirror_psqt: bool,
}

/// Receives what a job has to say while it runs.
pub trait TexelObserver {
    /// A line of progress or a warning (the reading of each file, the split, K, the timing).
    fn note(&mut self, line: &str);
    /// Before the first epoch, when the job has no validation set: every epoch runs, the last epoch's weights
    /// are written and the patience has no effect.
    fn no_validation_set(&mut self);
    /// After each epoch (its line of `loss.csv` is written).
    fn epoch(&mut self, epoch: &Epoch);
}

/// What a finished job found and wrote.
#[derive(Clone, Debug)]
pub struct TexelOutcome {
    /// The epochs' totals: the curves, the kept epoch, early stopping.
    pub totals: EpochTotals,
    /// The training MSE of the start weights.
    pub start_train: f64,
    /// The validation MSE of the start weights, with a validation set.
    pub start_validation: Option<f64>,
    /// The training MSE of the build written (rounded weights).
    pub final_train: f64,
    /// The validation MSE of the build written, with a validation set.
    pub final_validation: Option<f64>,
    /// The warning of a training set small for its free weights, if any.
    pub small: Option<SmallTrainingSet>,
    /// The files written: the build, `loss.csv`, `loss.svg`.
    pub files: [PathBuf; 3],
}

/// Which list of weight groups named an unknown group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupList {
    /// The groups to tune alone.
    Only,
    /// The groups to keep fixed.
    Freeze,
}

/// Why a job cannot run or did not finish.
#[derive(Debug, Error)]
pub enum TexelError {
    /// A data or game-id file that does not read.
    #[error(transparent)]
    Data(#[from] TuneDataError),
    /// A game-id file given with more than one data file.
    #[error("the game ids are those of one data file; {files} were given")]
    GamesOfOneFile {
        /// How many data files were given.
        files: usize,
    },
    /// No position to train on.
    #[error("no training positions")]
    NoTrainingPositions,
    /// An unknown weight group.
    #[error("{source}")]
    Group {
        /// The list that named it.
        list: GroupList,
        /// The group.
        source: UnknownGroup,
    },
    /// An output file that cannot be created or written.
    #[error("{path}: cannot write: {source}")]
    Write {
        /// The file.
        path: String,
        /// The operating-system error.
        source: std::io::Error,
    },
    /// The loss chart that cannot be drawn.
    #[error("loss.svg: {0}")]
    Chart(#[from] ChartError),
}

/// The frozen flag of every weight: with `only`, every weight outside those groups; then every weight of
/// `freeze`.
///
/// # Errors
/// [`TexelError::Group`] for the first unknown group, naming its list.
pub fn frozen_weights(only: &[&str], freeze: &[&str]) -> Result<Vec<bool>, TexelError> {
    let mut frozen = vec![false; NUM_PARAMS];
    if !only.is_empty() {
        let selected = group_mask(only).map_err(|source| TexelError::Group { list: GroupList::Only, source })?;
        frozen.iter_mut().zip(&selected).for_each(|(f, s)| *f = !s);
    }
    if !freeze.is_empty() {
        let selected = group_mask(freeze).map_err(|source| TexelError::Group { list: GroupList::Freeze, source })?;
        frozen.iter_mut().zip(&selected).for_each(|(f, s)| *f |= s);
    }
    Ok(frozen)
}

/// Runs `job` (see the module docs).
///
/// # Errors
/// [`TexelError`]: a file that does not read or cannot be written, no training positions, a chart that cannot
/// be drawn.
pub fn run_texel(job: &TexelJob, observer: &mut dyn TexelObserver) -> Result<TexelOutcome, TexelError> {
    let started = Instant::now();
    let mut positions: Vec<LabelledPosition> = Vec::new();
    for path in &job.data {
        let set = read_labelled_file(path)?;
        for message in set.bad_messages() {
            observer.note(&format!("bad line: {message}"));
        }
        observer.note(&format!(
            "{}: {} positions, {} bad lines, {} unfinished games skipped",
            set.file,
            set.positions.len(),
            set.bad.len(),
            set.unfinished_games
        ));
        positions.extend(set.positions);
    }
    let (train, validation) = match &job.games {
        Some(meta) => {
            if job.data.len() != 1 {
                return Err(TexelError::GamesOfOneFile { files: job.data.len() });
            }
            let split = split_by_game(positions, &read_game_ids(meta)?)?;
            observer.note(&format!(
                "split by game: train {} positions ({} games), validation {} positions ({} games)",
                split.train.len(),
                split.train_games,
                split.validation.len(),
                split.validation_games
            ));
            (split.train, split.validation)
        }
        None => (positions, Vec::new()),
    };
    let train = Dataset::build(&train)?;
    let validation = Dataset::build(&validation)?;
    if train.is_empty() {
        return Err(TexelError::NoTrainingPositions);
    }
    observer.note(&format!(
        "dataset: {} positions, {:.1} bytes per position, read and built in {:.2} s",
        train.len(),
        train.bytes_per_position(),
        started.elapsed().as_secs_f64()
    ));

    let mut params = params_of(&job.start.weights);
    let k = fit_k(&train, &params);
    let (train, validation) = (PackedSet::pack(&train), PackedSet::pack(&validation));
    observer.note(&format!("packed for the gradient pass: {} bytes per position", train.bytes_per_position()));
    let start_train = train.mse(&params, k);
    let start_validation = (!validation.is_empty()).then(|| validation.mse(&params, k));
    observer.note(&format!(
        "K = {k:.6}; start MSE: train {start_train:.6}{}",
        start_validation.map_or(String::new(), |v| format!(", validation {v:.6}"))
    ));

    let mut plan = job.plan.clone();
    plan.partners = job.mirror_psqt.then(mirror_partners);
    let small = check_training_size(train.len(), free_weights(&plan.frozen, plan.partners.as_deref()));
    if let Some(small) = &small {
        observer.note(&format!("warning: {small}"));
    }
    if validation.is_empty() {
        observer.no_validation_set();
    }

    let loss_path = job.out.with_extension("loss.csv");
    let write_error = |path: &Path| {
        let path = path.display().to_string();
        move |source| TexelError::Write { path, source }
    };
    let mut loss_csv = std::fs::File::create(&loss_path).map_err(write_error(&loss_path))?;
    writeln!(loss_csv, "epoch,train_mse,validation_mse,lr,ns_per_position").map_err(write_error(&loss_path))?;
    let mut on_epoch = |e: &Epoch| -> std::io::Result<()> {
        writeln!(
            loss_csv,
            "{},{:.8},{},{},{:.1}",
            e.epoch,
            e.loss,
            e.validation.map_or(String::new(), |v| format!("{v:.8}")),
            e.lr,
            e.ns_per_position
        )?;
        observer.epoch(e);
        Ok(())
    };
    let totals = run_epochs(&train, &validation, &mut params, k, &plan, start_train, &mut on_epoch)
        .map_err(write_error(&loss_path))?;
    let svg_path = job.out.with_extension("loss.svg");
    let optimizer = if plan.optimizer == Optimizer::Local { "local" } else { "adam" };
    let title = format!(
        "{}: {optimizer} on {} positions, K {k:.4}{}",
        job.start_name,
        train.len(),
        totals.kept.map_or(String::new(), |kept| format!(", kept epoch {}", kept.epoch))
    );
    let svg = loss_svg(&title, &totals.train_curve, &totals.validation_curve)?;
    std::fs::write(&svg_path, svg).map_err(write_error(&svg_path))?;
    let epochs = f64::from(totals.epochs_run.max(1));
    observer.note(&format!(
        "{}: {:.1} ns of CPU time and {:.1} ns of wall time per position per epoch ({} threads, {} weights)",
        if plan.optimizer == Optimizer::Local { "local search" } else { "gradient" },
        totals.cpu_seconds * 1e9 / (train.len() as f64 * epochs),
        totals.wall_seconds * 1e9 / (train.len() as f64 * epochs),
        rayon::current_num_threads(),
        params.len()
    ));
    let tuned = weights_from_params(&job.start.weights, &params);
    let final_train = train.mse(&params_of(&tuned), k);
    let final_validation = (!validation.is_empty()).then(|| validation.mse(&params_of(&tuned), k));
    let name = job.out.file_stem().map_or("tuned".to_string(), |s| s.to_string_lossy().into_owned());
    let config = EngineConfig { name, weights: tuned, ..job.start.clone() };
    std::fs::write(&job.out, config.to_toml()).map_err(write_error(&job.out))?;
    Ok(TexelOutcome {
        totals,
        start_train,
        start_validation,
        final_train,
        final_validation,
        small,
        files: [job.out.clone(), loss_path, svg_path],
    })
}
