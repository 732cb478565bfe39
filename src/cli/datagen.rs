//! `arbiter datagen`: training positions from self-play of any engine (built-in or external UCI, one or two);
//! the method and the output formats are those of [`arbiter::selfplay::datagen`] and `docs/datagen.md`.
//!
//! ```text
//! arbiter datagen --config seed --games 10000 --nodes 5000 --concurrency 16 --out data/seed.epd
//! arbiter datagen --engine cmd=/usr/games/stockfish,option.Threads=1 --nodes 5000 --games 1000 --out sf.epd
//! arbiter datagen ... --out sf.epd --resume      # after a kill: continues the same run
//! ```
//!
//! Ctrl-C or SIGTERM stops handing out games; the games in play end and are written (exit 130); a second one
//! quits at once. A killed run continues with `--resume`.
//!
//! Exit codes: 0 done, 1 an engine failed the run (crash, stall, illegal move, no score), 2 bad input (a
//! flag, the config, the book, an existing `--out` without `--force` or `--resume`, settings that differ
//! from the resumed run or an unusable resume file, no balanced opening found, an engine that cannot be started,
//! a `bench=N` signature the engine does not measure), 3 a file that cannot be written, 130 interrupted.

use super::Classify as _;
use super::{EXIT_INTERRUPTED, Failure, exit_code};
use arbiter::engine::registry::chess_config;
use arbiter::player::bench::DEFAULT_BENCH_TIMEOUT_S;
use arbiter::player::spec::{EachArgs, parse_engine_with};
use arbiter::player::{EngineSpec, TimeControl};
use arbiter::selfplay::datagen::output::{Output, keys_path, progress_path};
use arbiter::selfplay::datagen::{
    DatagenError, DatagenRequest, SelectMode, Start, Totals, TrainingFormat, create_players, meta_path, summary_text,
};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Flags of `arbiter datagen`.
#[derive(clap::Args, Debug, Clone)]
pub struct DatagenArgs {
    /// An engine, as `arbiter match --engine` takes it: a built-in build (`name=seed`, `config=FILE`) or an
    /// external UCI engine (`cmd=PROGRAM,args=...,option.Threads=1,nodes=5000`). Once: self-play; twice: the
    /// first plays White in odd games, Black in even ones.
    #[arg(long = "engine", value_name = "SPEC")]
    pub engines: Vec<String>,

    /// The built-in engine build that plays both sides, a config file (`.toml`) or a built-in build (`seed`,
    /// `nomob`): the same as `--engine config=FILE` or `--engine name=seed` (default: seed).
    #[arg(long, conflicts_with = "engines")]
    pub config: Option<String>,

    /// How many games to play.
    #[arg(value_parser = crate::cli::args::count, long)]
    pub games: u64,

    /// Nodes per move (and for the check of each random opening), for an engine whose spec sets no limit; a
    /// built-in engine with no limit at all searches 5000.
    #[arg(value_parser = crate::cli::args::nodes, long)]
    pub nodes: Option<u64>,

    /// Depth per move in plies, for an engine whose spec sets no limit.
    #[arg(long)]
    pub depth: Option<u32>,

    /// Time per move in milliseconds, for an engine whose spec sets no limit.
    #[arg(long)]
    pub movetime_ms: Option<u64>,

    /// A clock per side and game, such as 10+0.1 or 40/60 (seconds), for an engine whose spec sets no limit.
    #[arg(long)]
    pub tc: Option<String>,

    /// Games played at once, each worker with its own engine processes (default: all cores).
    #[arg(value_parser = crate::cli::args::threads, long)]
    pub concurrency: Option<usize>,

    /// The file to write; for --format epd the game of each line goes to FILE.meta.tsv. FILE.keys and
    /// FILE.progress record the run for --resume.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,

    /// The output format.
    #[arg(long, value_parser = crate::cli::args::training_format(), default_value = "epd")]
    pub format: TrainingFormat,

    /// Random plies from the start position in each game's opening (without --book).
    #[arg(long, default_value_t = 8)]
    pub plies: usize,

    /// Openings from an EPD or PGN file instead of random ones: game g plays opening (g - 1) mod N + 1.
    #[arg(long, value_name = "FILE")]
    pub book: Option<PathBuf>,

    /// Plies kept of each PGN game of --book (all by default).
    #[arg(long, requires = "book")]
    pub book_plies: Option<usize>,

    /// Keep a random opening when the (first) engine scores it within this many centipawns of 0.
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
    #[arg(long, value_parser = crate::cli::args::select_mode(), default_value = "quiet")]
    pub select: SelectMode,

    /// Skip positions whose absolute score exceeds this many centipawns.
    #[arg(long, value_name = "CP")]
    pub max_score: Option<i32>,

    /// Replace the output files if they exist.
    #[arg(long, conflicts_with = "resume")]
    pub force: bool,

    /// Continue the interrupted run writing --out (same flags; --games may grow): files are cut back to the
    /// last complete game and the next game follows.
    #[arg(long)]
    pub resume: bool,

    /// Send an external engine an option.NAME it does not list (with a warning); without it such an option
    /// (often a typo) refuses the run before any search, suggesting the closest names the engine lists.
    #[arg(long)]
    pub allow_unknown_options: bool,
}

impl DatagenArgs {
    /// The library request of these flags (the output paths apart): `--engine` values parsed as `arbiter
    /// match` parses them, `--config X` as the built-in build `X` (`--engine name=X`) or the config file `X`.
    ///
    /// # Errors
    /// A bad `--engine`, `--config` or `--tc`.
    pub fn request(&self) -> anyhow::Result<DatagenRequest> {
        let engines = if self.engines.is_empty() {
            let config = self.config.as_deref().unwrap_or("seed");
            let build = chess_config(config).map_err(DatagenError::Config)?;
            let source = if EngineSpec::builtin(config).is_some() { "built-in" } else { config };
            vec![EngineSpec::from_config(&build.name.clone(), build, source)]
        } else {
            let each = EachArgs::default();
            self.engines.iter().map(|text| parse_engine_with(text, &each)).collect::<Result<Vec<_>, _>>()?
        };
        let mut engines = engines;
        if self.allow_unknown_options {
            engines.iter_mut().for_each(EngineSpec::allow_unknown_options);
        }
        let tc = match &self.tc {
            Some(text) => Some(TimeControl::parse(text).map_err(|e| anyhow::anyhow!("--tc: {e}"))?),
            None => None,
        };
        Ok(DatagenRequest {
            engines,
            games: self.games,
            nodes: self.nodes,
            depth: self.depth,
            movetime_ms: self.movetime_ms,
            tc,
            concurrency: self.concurrency,
            plies: self.plies,
            book: self.book.clone(),
            book_plies: self.book_plies,
            window: self.window,
            seed: self.seed,
            max_plies: self.maxplies,
            resign_score: self.resign_score,
            select: self.select,
            max_score: self.max_score,
            format: self.format,
        })
    }
}

/// Set by the Ctrl-C/SIGTERM handler of `arbiter datagen`.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Runs `arbiter datagen`; returns the exit code (see the module docs). Errors are printed to stderr.
///
/// # Errors
/// None in practice; the signature matches the other subcommands.
pub fn run(args: DatagenArgs) -> Result<i32, super::Failure> {
    Ok(exit_code(run_inner(&args)))
}

/// The failure of a datagen error: an engine's (exit 1), the system's (exit 3) or the input's (exit 2).
fn failure(error: DatagenError) -> Failure {
    let system = match &error {
        DatagenError::WriteOut(_) | DatagenError::WriteMeta(_) => true,
        DatagenError::Resume(e) => e.is_system(),
        _ => false,
    };
    if system {
        Failure::System(error.into())
    } else if error.is_engine_failure() {
        Failure::Internal(error.into())
    } else {
        Failure::Input(error.into())
    }
}

fn run_inner(args: &DatagenArgs) -> Result<i32, Failure> {
    let spec = args.request().input()?.validate().map_err(failure)?;
    // Every engine is started once before any file is touched, as before a match: an engine that cannot
    // start (no such program, an option it does not list) leaves no output behind to --force or --resume.
    // A `bench=N` signature is checked first, as before a match: a wrong build is refused (exit 2, both
    // numbers) before any game.
    for engine in &spec.engines {
        match engine.check_bench(Duration::from_secs(DEFAULT_BENCH_TIMEOUT_S)) {
            Ok(Some(result)) => {
                eprintln!("bench: {}: signature {} as expected ({} nps)", engine.name, result.nodes, result.nps);
            }
            Ok(None) => {}
            Err(error) if error.is_input() => return Err(Failure::Input(error.into())),
            Err(error) => return Err(Failure::Internal(error.into())),
        }
    }
    drop(create_players(&spec).map_err(failure)?);
    let (mut output, start) = if args.resume {
        Output::resume(&args.out, &spec).map_err(|e| failure(e.into()))?
    } else {
        (Output::create(&args.out, &spec, args.force).map_err(|e| failure(e.into()))?, Start::default())
    };
    super::install_interrupt_handler("datagen", &INTERRUPTED);
    let engines = spec.engines.iter().map(|e| format!("{} ({})", e.name, e.limit)).collect::<Vec<_>>();
    eprintln!(
        "arbiter datagen: {} games of {}, concurrency {}, select {}, format {}, into {}{}",
        spec.games,
        engines.join(" against "),
        spec.concurrency,
        spec.select.name(),
        spec.format.name(),
        args.out.display(),
        if args.resume { format!(", resuming after game {}", start.totals.games) } else { String::new() }
    );
    for engine in &spec.engines {
        if engine.limit.is_timed() {
            eprintln!("warning: {} plays on time ({}): games are not reproducible", engine.name, engine.limit);
        }
    }
    let started = Instant::now();
    let before = start.totals;
    let first = before.games;
    let bar = ProgressBar::new(spec.games).with_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} games {msg}")
            .expect("the template is valid")
            .progress_chars("=> "),
    );
    bar.set_position(first);
    let mut on_game = |t: &Totals| {
        bar.set_position(t.games);
        let seconds = started.elapsed().as_secs_f64().max(1e-9);
        bar.set_message(format!(
            "{} positions, {:.2} games/s",
            t.positions,
            t.games.saturating_sub(first) as f64 / seconds
        ));
    };
    let outcome = output.generate(&spec, start, &INTERRUPTED, &mut on_game);
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    let totals = outcome.map_err(failure)?;
    print!("{}", summary_text(&totals, &before, seconds));
    let written = match spec.format {
        TrainingFormat::Epd => format!("{} and {}", args.out.display(), meta_path(&args.out).display()),
        _ => args.out.display().to_string(),
    };
    println!(
        "wrote {written} (resume record {}, keys {})",
        progress_path(&args.out).display(),
        keys_path(&args.out).display()
    );
    if INTERRUPTED.load(Ordering::SeqCst) {
        eprintln!(
            "arbiter datagen: interrupted after {} of {} games; continue with --resume",
            totals.games, spec.games
        );
        return Ok(EXIT_INTERRUPTED);
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn args(games: u64, nodes: u64, concurrency: usize, out: &Path) -> DatagenArgs {
        DatagenArgs {
            engines: vec![],
            config: None,
            games,
            nodes: Some(nodes),
            depth: None,
            movetime_ms: None,
            tc: None,
            concurrency: Some(concurrency),
            out: out.to_path_buf(),
            format: TrainingFormat::Epd,
            plies: 8,
            book: None,
            book_plies: None,
            window: 50,
            seed: 1,
            maxplies: 400,
            resign_score: 1000,
            select: SelectMode::Quiet,
            max_score: None,
            force: false,
            resume: false,
            allow_unknown_options: false,
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
        assert_eq!(
            super::super::error_text(&e),
            format!(
                "--out: {} already exists; pass --force to replace it or --resume to continue the run",
                out.display()
            )
        );
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "kept\n");
        assert_eq!(meta_path(&out), dir.join("dg.epd.meta.tsv"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
