//! `arbiter epd`: solve an EPD test suite (`bm`/`am` positions, STS point lists in `c0`) with the built-in
//! engine, in parallel over positions ([`crate::suite::epd`]); prints one CSV row per position and a summary.

use crate::engine::chess::EngineConfig;
use crate::notation::epd::read_epd_file;
use crate::suite::epd::{EpdRequest, Outcome, SuiteError, solve_all, tasks, totals};
use anyhow::Context;
use std::io::Write;
use std::path::PathBuf;

/// Flags of `arbiter epd`.
#[derive(clap::Args, Debug)]
pub struct EpdArgs {
    /// The EPD file (`bm`/`am` opcodes in SAN or UCI; STS files score by the `c0` point list).
    pub file: PathBuf,
    /// Node budget per position (the default when no limit is given: 100000).
    #[arg(value_parser = crate::cli::args::nodes, long)]
    pub nodes: Option<u64>,
    /// Depth limit per position, in plies.
    #[arg(value_parser = crate::cli::args::depth, long)]
    pub depth: Option<u32>,
    /// Time per position, in milliseconds.
    #[arg(value_parser = crate::cli::args::timeout_ms, long)]
    pub movetime_ms: Option<u64>,
    /// Engine build (TOML config); the seed build when absent.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Positions searched at once (default: all cores).
    #[arg(value_parser = crate::cli::args::threads, long)]
    pub threads: Option<usize>,
    /// Write the per-position CSV here instead of stdout (the summary then goes to stdout).
    #[arg(long)]
    pub csv: Option<PathBuf>,
}

/// Runs `arbiter epd`; returns the exit code: 0 after a run, 2 for an unreadable or malformed EPD (naming
/// file:line).
///
/// # Errors
/// Unreadable configs, an unwritable CSV.
pub fn run(args: EpdArgs) -> anyhow::Result<i32> {
    let config = match &args.config {
        Some(p) => EngineConfig::load(p).with_context(|| format!("loading {}", p.display()))?,
        None => EngineConfig::seed(),
    };
    let records = match read_epd_file(&args.file, false) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(2);
        }
    };
    let tasks = match tasks(&records) {
        Ok(tasks) => tasks,
        Err(SuiteError::Record { line, error }) => {
            eprintln!("error: {}:{line}: {error}", args.file.display());
            return Ok(2);
        }
        Err(e) => {
            eprintln!("error: {}: {e}", args.file.display());
            return Ok(2);
        }
    };
    let request = EpdRequest { config, depth: args.depth, nodes: args.nodes, movetime_ms: args.movetime_ms };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
        .context("building the thread pool")?;
    let outcomes: Vec<Outcome> = pool.install(|| solve_all(&tasks, &request));

    let sink: Box<dyn Write> = match &args.csv {
        Some(p) => Box::new(std::fs::File::create(p).with_context(|| format!("creating {}", p.display()))?),
        None => Box::new(std::io::stdout()),
    };
    let mut csv = csv::Writer::from_writer(sink);
    csv.write_record(["id", "expected", "found", "solved", "points", "depth", "nodes", "ms"])?;
    for o in &outcomes {
        csv.write_record([
            o.id.clone(),
            o.expected.clone(),
            o.found.clone(),
            o.solved.to_string(),
            o.points.to_string(),
            o.depth.to_string(),
            o.nodes.to_string(),
            o.ms.to_string(),
        ])?;
    }
    csv.flush()?;
    let summary = totals(&tasks, &outcomes).to_string();
    if args.csv.is_some() {
        println!("{summary}");
    } else {
        eprintln!("{summary}");
    }
    Ok(0)
}
