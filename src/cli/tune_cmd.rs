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
use arbiter::engine::chess::EngineConfig;
use arbiter::notation::quote::shown;
use arbiter::tune::run::{Epoch, EpochPlan, Optimizer, check_training_size, free_weights, run_epochs};
use arbiter::tune::{
    Dataset, LabelledPosition, PackedSet, fit_k, group_mask, mirror_partners, params_of, read_game_ids,
    read_labelled_file, split_by_game, weights_from_params,
};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::Write as _;
use std::path::PathBuf;
use std::time::Instant;

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
pub fn run(args: TuneArgs) -> anyhow::Result<i32> {
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
    let start_config =
        arbiter::engine::registry::chess_config(&args.config).map_err(|e| anyhow::anyhow!("--config: {e}"))?;
    let started = Instant::now();
    let mut positions: Vec<LabelledPosition> = Vec::new();
    for path in &args.data {
        let set = read_labelled_file(path)?;
        for message in set.bad_messages() {
            eprintln!("bad line: {message}");
        }
        eprintln!(
            "{}: {} positions, {} bad lines, {} unfinished games skipped",
            set.file,
            set.positions.len(),
            set.bad.len(),
            set.unfinished_games
        );
        positions.extend(set.positions);
    }
    let (train, validation) = match &args.games {
        Some(meta) => {
            if args.data.len() != 1 {
                anyhow::bail!("--games gives the games of one data file; {} were given", args.data.len());
            }
            let split = split_by_game(positions, &read_game_ids(meta)?)?;
            eprintln!(
                "split by game: train {} positions ({} games), validation {} positions ({} games)",
                split.train.len(),
                split.train_games,
                split.validation.len(),
                split.validation_games
            );
            (split.train, split.validation)
        }
        None => (positions, Vec::new()),
    };
    let train = Dataset::build(&train)?;
    let validation = Dataset::build(&validation)?;
    if train.is_empty() {
        anyhow::bail!("no training positions");
    }
    eprintln!(
        "dataset: {} positions, {:.1} bytes per position, read and built in {:.2} s",
        train.len(),
        train.bytes_per_position(),
        started.elapsed().as_secs_f64()
    );

    let mut params = params_of(&start_config.weights);
    let k = fit_k(&train, &params);
    let (train, validation) = (PackedSet::pack(&train), PackedSet::pack(&validation));
    eprintln!("packed for the gradient pass: {} bytes per position", train.bytes_per_position());
    let start_train = train.mse(&params, k);
    let start_validation = (!validation.is_empty()).then(|| validation.mse(&params, k));
    eprintln!(
        "K = {k:.6}; start MSE: train {start_train:.6}{}",
        start_validation.map_or(String::new(), |v| format!(", validation {v:.6}"))
    );

    let only: Vec<&str> = args.only.iter().map(String::as_str).collect();
    let freeze: Vec<&str> = args.freeze.iter().map(String::as_str).collect();
    let mut frozen = vec![false; params.len()];
    if !only.is_empty() {
        let selected = group_mask(&only).map_err(|e| anyhow::anyhow!("--only: {e}"))?;
        frozen.iter_mut().zip(&selected).for_each(|(f, s)| *f = !s);
    }
    if !freeze.is_empty() {
        let selected = group_mask(&freeze).map_err(|e| anyhow::anyhow!("--freeze: {e}"))?;
        frozen.iter_mut().zip(&selected).for_each(|(f, s)| *f |= s);
    }

    let partners = (args.psqt == "mirror").then(mirror_partners);
    let free = free_weights(&frozen, partners.as_deref());
    let small = check_training_size(train.len(), free);
    if let Some(small) = &small {
        eprintln!("warning: {small}");
    }
    if validation.is_empty() {
        eprintln!(
            "no validation set (--games not given): every epoch runs and the last epoch's weights are written; \
             --patience has no effect"
        );
    }

    let loss_path = args.out.with_extension("loss.csv");
    let mut loss_csv = std::fs::File::create(&loss_path)
        .map_err(|e| anyhow::Error::new(e).context(format!("{}: cannot create", loss_path.display())))?;
    writeln!(loss_csv, "epoch,train_mse,validation_mse,lr,ns_per_position")?;
    let bar = ProgressBar::new(u64::from(args.epochs)).with_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] epoch {pos}/{len} {msg}")
            .expect("the template is valid")
            .progress_chars("=> "),
    );
    let plan = EpochPlan {
        optimizer: if args.optimizer == "local" { Optimizer::Local } else { Optimizer::Adam },
        epochs: args.epochs,
        lr: args.lr,
        frozen,
        partners,
        patience: args.patience,
    };
    let mut on_epoch = |e: &Epoch| -> anyhow::Result<()> {
        writeln!(
            loss_csv,
            "{},{:.8},{},{},{:.1}",
            e.epoch,
            e.loss,
            e.validation.map_or(String::new(), |v| format!("{v:.8}")),
            e.lr,
            e.ns_per_position
        )?;
        bar.set_position(u64::from(e.epoch));
        bar.set_message(format!(
            "loss {:.6}{} lr {}",
            e.loss,
            e.validation.map_or(String::new(), |v| format!(" validation {v:.6}")),
            e.lr
        ));
        Ok(())
    };
    let totals = run_epochs(&train, &validation, &mut params, k, &plan, start_train, &mut on_epoch)?;
    let (gradient_time, gradient_cpu, train_mse) = (totals.wall_seconds, totals.cpu_seconds, totals.last_loss);
    let curve = (totals.train_curve, totals.validation_curve);
    bar.finish_and_clear();
    let svg_path = args.out.with_extension("loss.svg");
    let title = format!(
        "{}: {} on {} positions, K {k:.4}{}",
        args.config,
        args.optimizer,
        train.len(),
        totals.kept.map_or(String::new(), |kept| format!(", kept epoch {}", kept.epoch))
    );
    let svg =
        arbiter::tune::chart::loss_svg(&title, &curve.0, &curve.1).map_err(|e| anyhow::anyhow!("loss.svg: {e}"))?;
    std::fs::write(&svg_path, svg)
        .map_err(|e| anyhow::Error::new(e).context(format!("{}: cannot write", svg_path.display())))?;
    let epochs = f64::from(totals.epochs_run.max(1));
    let threads = rayon::current_num_threads();
    eprintln!(
        "{}: {:.1} ns of CPU time and {:.1} ns of wall time per position per epoch ({} threads, {} weights)",
        if args.optimizer == "local" { "local search" } else { "gradient" },
        gradient_cpu * 1e9 / (train.len() as f64 * epochs),
        gradient_time * 1e9 / (train.len() as f64 * epochs),
        threads,
        params.len()
    );
    let tuned = weights_from_params(&start_config.weights, &params);
    let final_train = train.mse(&params_of(&tuned), k);
    let final_validation = (!validation.is_empty()).then(|| validation.mse(&params_of(&tuned), k));
    // The build written holds the kept epoch's weights (the lowest validation MSE), or the last epoch's without
    // a validation set; epoch 0 is the start weights.
    let written = match totals.kept {
        Some(kept) if kept.epoch == 0 => "the start weights, epoch 0".to_string(),
        Some(kept) => format!("epoch {}'s weights", kept.epoch),
        None => format!("epoch {}'s weights, the last", totals.epochs_run),
    };
    println!(
        "MSE of the build written ({written}, rounded): train {final_train:.6} (start {start_train:.6}, last epoch {train_mse:.6}){}",
        match (start_validation, final_validation) {
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
            curve.1.last().map_or(kept.validation, |&(_, v)| v)
        ),
        None => println!("no validation set: wrote the last epoch's weights (no early stopping)"),
    }
    if let (Some(stopped), Some(kept)) = (totals.stopped_early, totals.kept) {
        println!(
            "stopped early after epoch {stopped} of {}: no lower validation MSE for {} epochs (since epoch {})",
            args.epochs, args.patience, kept.epoch
        );
    }
    if let Some(small) = &small {
        println!("warning: {small}");
    }
    let name = args.out.file_stem().map_or("tuned".to_string(), |s| s.to_string_lossy().into_owned());
    let config = EngineConfig { name, weights: tuned, ..start_config };
    std::fs::write(&args.out, config.to_toml())
        .map_err(|e| anyhow::Error::new(e).context(format!("{}: cannot write", args.out.display())))?;
    println!("wrote {}, {} and {}", args.out.display(), loss_path.display(), svg_path.display());
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
