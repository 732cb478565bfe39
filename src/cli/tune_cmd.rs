//! `arbiter tune`: Texel tuning of an engine build's evaluation weights on labelled positions.
//!
//! ```text
//! arbiter tune --data ../shared/data/tuning/selfplay-sf15-n1500-quiet.book \
//!   --games ../shared/data/tuning/selfplay-sf15-n1500-quiet.meta.tsv --config configs/seed.toml \
//!   --out configs/tuned.toml --epochs 800
//! ```
//!
//! Reads every `--data` file (EPD with `c9`, `FEN [score]` lines, PGN), reports bad lines with file:line,
//! splits off a validation set by game when `--games` gives the game id of each line, builds the sparse
//! dataset, fits K with the start weights, warns when the training set has fewer than 10 positions per free
//! weight, then runs full-batch Adam, printing epoch, loss, validation loss and the learning rate, and writes
//! the loss curve (`<out>.loss.csv` and `<out>.loss.svg`) and the new config with every weight rounded: with a
//! validation set, the weights of the epoch with the lowest validation MSE (the run stops early after
//! `--patience` epochs without a new lowest), without one the last epoch's; `--validate` then plays the tuned
//! build against the start build.
//! Exit codes: 0, or 2 for bad input.

use super::error_text;
use arbiter::notation::quote::shown;
use arbiter::tune::job::{GroupList, TexelError, TexelJob, TexelObserver, TexelOutcome, frozen_weights, run_texel};
use arbiter::tune::run::{Epoch, EpochPlan, Optimizer};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::PathBuf;

/// Flags of `arbiter tune`.
#[derive(clap::Args, Debug, Clone)]
pub struct TuneArgs {
    /// Labelled position files: EPD with `c9 "1-0"` labels, `FEN [1.0]` lines, or PGN games.
    #[arg(long = "data", value_name = "FILE", required = true)]
    pub data: Vec<PathBuf>,

    /// The game id of each line of the (single) data file, tab-separated (`.meta.tsv`): positions of games
    /// with crc32(id) % 1000 < 100 form the validation set.
    #[arg(long, value_name = "FILE")]
    pub games: Option<PathBuf>,

    /// The start build (a config file, or `seed`).
    #[arg(long, default_value = "seed")]
    pub config: String,

    /// Where to write the tuned build (TOML).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,

    /// The optimizer: adam (full-batch Adam on the analytic gradient) or local (the classic Texel local search,
    /// one pass of +1/-1 trials over every weight per epoch; slow).
    #[arg(long, default_value = "adam")]
    pub optimizer: String,

    /// Full passes over the training set, at most (with a validation set the run may stop early: --patience).
    #[arg(value_parser = crate::cli::args::int_in(1u32, 1_000_000), long, default_value_t = 400)]
    pub epochs: u32,

    /// Early stopping: with a validation set (--games), stop after this many epochs in a row without a new
    /// lowest validation MSE; 0 never stops early. The build written is always the epoch with the lowest
    /// validation MSE. Without a validation set every epoch runs and the last one is written.
    #[arg(value_parser = crate::cli::args::int_in(0u32, 1_000_000), long, value_name = "N",
          default_value_t = arbiter::tune::run::DEFAULT_PATIENCE)]
    pub patience: u32,

    /// Adam's step size, in centipawns.
    #[arg(value_parser = crate::cli::args::positive, long, default_value_t = 2.0)]
    pub lr: f64,

    /// Tune only these weight groups (feature keys such as material, psqt, mg.tempo), comma-separated.
    #[arg(long, value_name = "GROUPS", value_delimiter = ',')]
    pub only: Vec<String>,

    /// Keep these weight groups fixed, comma-separated.
    #[arg(long, value_name = "GROUPS", value_delimiter = ',')]
    pub freeze: Vec<String>,

    /// The piece-square tables: `mirror` ties each square to its mirror across the d/e file boundary (a1 with
    /// h1; half the free parameters, less overfitting: on the Stockfish self-play set the validation MSE
    /// drops from 0.0894 to 0.0882) or `free` tunes every square on its own.
    #[arg(long, default_value = "mirror", value_parser = ["mirror", "free"])]
    pub psqt: String,

    /// Worker threads for the gradient (default: all cores; also `RAYON_NUM_THREADS`).
    #[arg(value_parser = crate::cli::args::threads, long, value_name = "N")]
    pub threads: Option<usize>,

    /// After tuning, play the tuned build against the start build: `nodes=N,games=N[,sprt=elo0=0 elo1=10]
    /// [,out=DIR]` (the SPRT's own keys separated by spaces; `out`: the run folder, default
    /// `results/<timestamp>`), through `arbiter match` from the project's book.
    #[arg(long, value_name = "SPEC")]
    pub validate: Option<String>,
}

/// Runs `arbiter tune`; returns the exit code.
///
/// # Errors
/// None in practice: errors are printed, with exit code 2.
pub fn run(args: TuneArgs) -> Result<i32, super::Failure> {
    match tune(&args) {
        Ok(()) => Ok(0),
        Err(error) => {
            let code = super::io_exit_code(&error).unwrap_or(2);
            if code != super::EXIT_CLOSED_STDOUT {
                eprintln!("error: {}", error_text(&error));
            }
            Ok(code)
        }
    }
}

fn tune(args: &TuneArgs) -> anyhow::Result<()> {
    if !matches!(args.optimizer.as_str(), "adam" | "local") {
        anyhow::bail!("--optimizer {:?}: expected adam or local", args.optimizer);
    }
    let validate = args.validate.as_deref().map(parse_validate).transpose()?;
    if let Some(n) = args.threads {
        if !(1..=super::args::MAX_THREADS).contains(&n) {
            anyhow::bail!("--threads {n}: expected 1 to {}", super::args::MAX_THREADS);
        }
        rayon::ThreadPoolBuilder::new().num_threads(n).build_global()?;
    }
    let start = arbiter::engine::registry::chess_config(&args.config).map_err(|e| anyhow::anyhow!("--config: {e}"))?;
    let only: Vec<&str> = args.only.iter().map(String::as_str).collect();
    let freeze: Vec<&str> = args.freeze.iter().map(String::as_str).collect();
    let job = TexelJob {
        data: args.data.clone(),
        games: args.games.clone(),
        start,
        start_name: args.config.clone(),
        out: args.out.clone(),
        plan: EpochPlan {
            optimizer: if args.optimizer == "local" { Optimizer::Local } else { Optimizer::Adam },
            epochs: args.epochs,
            lr: args.lr,
            frozen: frozen_weights(&only, &freeze).map_err(with_flag)?,
            partners: None,
            patience: args.patience,
        },
        mirror_psqt: args.psqt == "mirror",
    };
    let bar = ProgressBar::new(u64::from(args.epochs)).with_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] epoch {pos}/{len} {msg}")
            .expect("the template is valid")
            .progress_chars("=> "),
    );
    let outcome = run_texel(&job, &mut Progress { bar: &bar }).map_err(with_flag)?;
    bar.finish_and_clear();
    print_outcome(args, &outcome);
    if let Some(validate) = validate {
        let start = if std::path::Path::new(&args.config).exists() {
            format!("name=start,config={}", args.config)
        } else {
            format!("name={}", args.config)
        };
        let tuned = format!("name=tuned,config={}", args.out.display());
        let mut match_args = vec!["match".to_string(), "--engine".into(), tuned, "--engine".into(), start];
        match_args.extend(["--nodes".into(), validate.nodes, "--games".into(), validate.games]);
        if let Some(sprt) = validate.sprt {
            match_args.extend(["--sprt".into(), sprt]);
        }
        if let Some(out) = validate.out {
            match_args.extend(["--out".into(), out]);
        }
        println!("validating: arbiter {}", match_args[..].join(" "));
        let exe = std::env::current_exe().map_err(|e| anyhow::anyhow!("--validate: the arbiter binary: {e}"))?;
        let status = std::process::Command::new(exe)
            .args(&match_args)
            .status()
            .map_err(|e| anyhow::anyhow!("--validate: cannot run arbiter match: {e}"))?;
        if !status.success() {
            anyhow::bail!("--validate: arbiter match ended with {status}");
        }
    }
    Ok(())
}

/// The stderr lines of a job and its progress bar.
struct Progress<'a> {
    bar: &'a ProgressBar,
}

impl TexelObserver for Progress<'_> {
    fn note(&mut self, line: &str) {
        self.bar.suspend(|| eprintln!("{line}"));
    }

    fn no_validation_set(&mut self) {
        self.note(
            "no validation set (--games not given): every epoch runs and the last epoch's weights are written; \
             --patience has no effect",
        );
    }

    fn epoch(&mut self, e: &Epoch) {
        self.bar.set_position(u64::from(e.epoch));
        self.bar.set_message(format!(
            "loss {:.6}{} lr {}",
            e.loss,
            e.validation.map_or(String::new(), |v| format!(" validation {v:.6}")),
            e.lr
        ));
    }
}

/// A job's error with the flag it came from, where one did.
fn with_flag(error: TexelError) -> anyhow::Error {
    match &error {
        TexelError::Group { list: GroupList::Only, .. } => anyhow::anyhow!("--only: {error}"),
        TexelError::Group { list: GroupList::Freeze, .. } => anyhow::anyhow!("--freeze: {error}"),
        TexelError::GamesOfOneFile { files } => {
            anyhow::anyhow!("--games gives the games of one data file; {files} were given")
        }
        _ => error.into(),
    }
}

/// Prints what the job found: the MSE of the build written, the kept epoch, early stopping, the files.
fn print_outcome(args: &TuneArgs, outcome: &TexelOutcome) {
    let totals = &outcome.totals;
    // The build written holds the kept epoch's weights (the lowest validation MSE), or the last epoch's without
    // a validation set; epoch 0 is the start weights.
    let written = match totals.kept {
        Some(kept) if kept.epoch == 0 => "the start weights, epoch 0".to_string(),
        Some(kept) => format!("epoch {}'s weights", kept.epoch),
        None => format!("epoch {}'s weights, the last", totals.epochs_run),
    };
    println!(
        "MSE of the build written ({written}, rounded): train {:.6} (start {:.6}, last epoch {:.6}){}",
        outcome.final_train,
        outcome.start_train,
        totals.last_loss,
        match (outcome.start_validation, outcome.final_validation) {
            (Some(a), Some(b)) => format!(", validation {b:.6} (start {a:.6})"),
            _ => String::new(),
        }
    );
    match totals.kept {
        Some(kept) => println!(
            "kept epoch {} of {}: the lowest validation MSE {:.6}{} (last epoch's validation MSE {:.6})",
            kept.epoch,
            totals.epochs_run,
            kept.validation,
            if kept.epoch == 0 { ", the start weights: no epoch improved on them" } else { "" },
            totals.validation_curve.last().map_or(kept.validation, |&(_, v)| v)
        ),
        None => println!("no validation set: wrote the last epoch's weights (no early stopping)"),
    }
    if let (Some(stopped), Some(kept)) = (totals.stopped_early, totals.kept) {
        println!(
            "stopped early after epoch {stopped} of {}: no lower validation MSE for {} epochs (since epoch {})",
            args.epochs, args.patience, kept.epoch
        );
    }
    if let Some(small) = &outcome.small {
        println!("warning: {small}; --only and --freeze choose the weights tuned");
    }
    let [build, csv, svg] = &outcome.files;
    println!("wrote {}, {} and {}", build.display(), csv.display(), svg.display());
    super::write_report("tune", csv);
}

/// What `--validate` asks for: the match's `--nodes`, `--games`, `--sprt` (commas restored) and `--out`.
#[derive(Debug, PartialEq, Eq)]
struct Validate {
    nodes: String,
    games: String,
    sprt: Option<String>,
    out: Option<String>,
}

/// Parses `--validate nodes=N,games=N[,sprt=elo0=0 elo1=10 ...][,out=DIR]` (the SPRT's keys separated by
/// spaces, turned into commas; `out`: the match's run folder, default `results/<timestamp>`).
fn parse_validate(text: &str) -> anyhow::Result<Validate> {
    let mut nodes = None;
    let mut games = None;
    let mut sprt = None;
    let mut out = None;
    for item in text.split(',') {
        let Some((key, value)) = item.split_once('=') else {
            anyhow::bail!(
                "--validate {}: {} is not key=value (keys: nodes, games, sprt, out)",
                shown(text),
                shown(item)
            );
        };
        match key.trim() {
            "nodes" => nodes = Some(value.trim().to_string()),
            "games" => games = Some(value.trim().to_string()),
            "sprt" => sprt = Some(value.split_whitespace().collect::<Vec<_>>().join(",")),
            "out" => out = Some(value.trim().to_string()),
            other => anyhow::bail!("--validate: unknown key `{other}` (keys: nodes, games, sprt, out)"),
        }
    }
    let number = |key: &str, v: Option<String>| -> anyhow::Result<String> {
        match v {
            Some(v) if v.parse::<u64>().is_ok_and(|n| n > 0) => Ok(v),
            Some(v) => anyhow::bail!("--validate: {key}={} is not a positive whole number", shown(&v)),
            None => anyhow::bail!("--validate: missing key `{key}`"),
        }
    };
    Ok(Validate { nodes: number("nodes", nodes)?, games: number("games", games)?, sprt, out })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validate_specs() {
        assert_eq!(
            parse_validate("nodes=10000,games=2000,sprt=elo0=0 elo1=10,out=results/v").unwrap(),
            Validate {
                nodes: "10000".into(),
                games: "2000".into(),
                sprt: Some("elo0=0,elo1=10".into()),
                out: Some("results/v".into())
            }
        );
        assert_eq!(parse_validate("nodes=5,games=2").unwrap().sprt, None);
        assert!(parse_validate("nodes=0,games=2").unwrap_err().to_string().contains("nodes=\"0\""));
        assert!(parse_validate("games=2").unwrap_err().to_string().contains("missing key `nodes`"));
        assert!(parse_validate("nodes=1,games=2,x=3").is_err());
    }
}
