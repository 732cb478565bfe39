//! `arbiter datagen`: labelled training positions for Texel tuning from self-play of one engine build; the
//! method and the output formats are those of [`crate::selfplay::datagen`].
//!
//! ```text
//! arbiter datagen --config seed --games 10000 --nodes 5000 --concurrency 16 --out data/seed.epd
//! arbiter tune --data data/seed.epd --games data/seed.epd.meta.tsv --config seed --out configs/tuned.toml
//! ```
//!
//! Ctrl-C or SIGTERM stops handing out games; the games in play end and are written (exit 130); a second one
//! quits at once.
//!
//! Exit codes: 0 done, 2 bad input (a flag, the config, an existing `--out` without `--force`, no balanced
//! opening found), 1 a file that cannot be written, 130 interrupted.

use super::{EXIT_INTERRUPTED, Failure, exit_code};
use crate::selfplay::datagen::{DatagenError, DatagenRequest, SelectMode, Totals, generate, meta_path, summary_text};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Flags of `arbiter datagen`.
#[derive(clap::Args, Debug, Clone)]
pub struct DatagenArgs {
    /// The engine build that plays both sides: a config file (`.toml`) or a built-in build (`seed`, `nomob`).
    #[arg(long, default_value = "seed")]
    pub config: String,

    /// How many self-play games to play.
    #[arg(value_parser = crate::cli::args::count, long)]
    pub games: u64,

    /// Nodes per move (and for the check of each candidate opening).
    #[arg(value_parser = crate::cli::args::nodes, long, default_value_t = 5000)]
    pub nodes: u64,

    /// Games played at once, one thread each (default: all cores).
    #[arg(value_parser = crate::cli::args::threads, long)]
    pub concurrency: Option<usize>,

    /// The EPD file to write; the game of each line goes to FILE.meta.tsv.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,

    /// Random plies from the start position in each game's opening.
    #[arg(long, default_value_t = 8)]
    pub plies: usize,

    /// Keep an opening when the engine scores it within this many centipawns of 0.
    #[arg(long, default_value_t = 50)]
    pub window: i32,

    /// Random seed: game g's opening depends only on the seed and g.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    /// A game still running after this many half-moves from the start position is a draw.
    #[arg(value_parser = crate::cli::args::int_in(1usize, 100_000), long, default_value_t = 400)]
    pub maxplies: usize,

    /// Resign adjudication: a side wins when 4 consecutive searches (2 per side) score it at least this many
    /// centipawns ahead; 0 turns it off.
    #[arg(long, default_value_t = 1000)]
    pub resign_score: i32,

    /// Which positions to write when the best move captures or promotes: skip them (quiet), or write the
    /// position at the end of the PV's capture/promotion sequence (qleaf).
    #[arg(long, value_enum, default_value_t = SelectMode::Quiet)]
    pub select: SelectMode,

    /// Replace the output files if they exist.
    #[arg(long)]
    pub force: bool,
}

impl DatagenArgs {
    /// The library request of these flags (the output paths apart).
    pub fn request(&self) -> DatagenRequest {
        DatagenRequest {
            config: self.config.clone(),
            games: self.games,
            nodes: self.nodes,
            concurrency: self.concurrency,
            plies: self.plies,
            window: self.window,
            seed: self.seed,
            max_plies: self.maxplies,
            resign_score: self.resign_score,
            select: self.select,
        }
    }
}

/// Set by the Ctrl-C/SIGTERM handler of `arbiter datagen`.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Runs `arbiter datagen`; returns the exit code (see the module docs). Errors are printed to stderr.
///
/// # Errors
/// None in practice; the signature matches the other subcommands.
pub fn run(args: DatagenArgs) -> anyhow::Result<i32> {
    Ok(exit_code(run_inner(&args)))
}

fn run_inner(args: &DatagenArgs) -> Result<i32, Failure> {
    let spec = args.request().validate()?;
    let meta = meta_path(&args.out);
    for path in [&args.out, &meta] {
        if path.exists() && !args.force {
            return Err(anyhow::anyhow!("--out: {} already exists; pass --force to replace it", path.display()).into());
        }
    }
    if let Some(dir) = args.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| anyhow::Error::new(e).context(format!("--out: cannot create {}", dir.display())))?;
    }
    let create = |path: &Path| {
        std::fs::File::create(path)
            .map(std::io::BufWriter::new)
            .map_err(|e| anyhow::Error::new(e).context(format!("--out: cannot create {}", path.display())))
    };
    let (mut epd_file, mut meta_file) = (create(&args.out)?, create(&meta)?);
    super::install_interrupt_handler("datagen", &INTERRUPTED);
    eprintln!(
        "arbiter datagen: {} games of {} against itself at {} nodes, concurrency {}, select {}, into {}",
        spec.games,
        args.config,
        spec.nodes,
        spec.concurrency,
        match spec.select {
            SelectMode::Quiet => "quiet",
            SelectMode::QLeaf => "qleaf",
        },
        args.out.display()
    );
    let started = Instant::now();
    let bar = ProgressBar::new(spec.games).with_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} games {msg}")
            .expect("the template is valid")
            .progress_chars("=> "),
    );
    let mut on_game = |t: &Totals| {
        bar.set_position(t.games);
        let seconds = started.elapsed().as_secs_f64().max(1e-9);
        bar.set_message(format!("{} positions, {:.2} games/s", t.positions, t.games as f64 / seconds));
    };
    let outcome = generate(&spec, &mut epd_file, &mut meta_file, &INTERRUPTED, &mut on_game);
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    let totals = match outcome {
        Ok(totals) => totals,
        Err(DatagenError::WriteEpd(e)) => {
            return Err(Failure::System(
                anyhow::Error::new(e).context(format!("{}: cannot write", args.out.display())),
            ));
        }
        Err(DatagenError::WriteMeta(e)) => {
            return Err(Failure::System(anyhow::Error::new(e).context(format!("{}: cannot write", meta.display()))));
        }
        Err(e) => return Err(Failure::Input(e.into())),
    };
    print!("{}", summary_text(&totals, seconds));
    println!("wrote {} and {}", args.out.display(), meta.display());
    if INTERRUPTED.load(Ordering::SeqCst) {
        eprintln!("arbiter datagen: interrupted after {} of {} games", totals.games, spec.games);
        return Ok(EXIT_INTERRUPTED);
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(games: u64, nodes: u64, concurrency: usize, out: &Path) -> DatagenArgs {
        DatagenArgs {
            config: "seed".to_string(),
            games,
            nodes,
            concurrency: Some(concurrency),
            out: out.to_path_buf(),
            plies: 8,
            window: 50,
            seed: 1,
            maxplies: 400,
            resign_score: 1000,
            select: SelectMode::Quiet,
            force: false,
        }
    }

    #[test]
    fn an_existing_out_is_refused() {
        let dir = std::env::temp_dir().join(format!("arbiter-datagen-exists-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("dg.epd");
        std::fs::write(&out, "kept\n").unwrap();
        let Err(Failure::Input(e)) = run_inner(&args(1, 300, 1, &out)) else {
            panic!("an existing --out is bad input")
        };
        assert_eq!(e.to_string(), format!("--out: {} already exists; pass --force to replace it", out.display()));
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "kept\n");
        assert_eq!(meta_path(&out), dir.join("dg.epd.meta.tsv"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
