//! `arbiter epd`: solve an EPD test suite (`bm`/`am` positions, STS point lists in `c0`) with any engine, the
//! built-in one or an external UCI engine, N positions at once ([`arbiter::suite::epd`]); prints one CSV row per
//! position, in file order as they are produced, and a summary.
//!
//! Exit codes: 0 after a run (engine failures on single positions are rows with status `error`, counted in the
//! summary), 2 for bad input (flags, an unreadable or malformed EPD naming file:line, an engine spec, an
//! external engine without a limit, an engine that cannot be started before the run, as before a match), 3
//! when the CSV cannot be written, 130 when interrupted (the rows written so far stay).

use super::Classify as _;
use super::{EXIT_INTERRUPTED, Failure, exit_code, install_interrupt_handler};
use anyhow::{Context, anyhow};
use arbiter::chess::epd::read_epd_file;
use arbiter::player::spec::parse_engine;
use arbiter::suite::epd::{EpdError, EpdRequest, Outcome, SuiteError, run as run_suite, tasks, totals};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, LazyLock};

/// Flags of `arbiter epd`.
#[derive(clap::Args, Debug)]
pub struct EpdArgs {
    /// The EPD file (`bm`/`am` opcodes in SAN or UCI; STS files score by the `c0` point list).
    pub file: PathBuf,
    /// The engine, as in `arbiter match`: a built-in build (`seed`, `config=FILE.toml`) or an external UCI
    /// engine (`cmd=PROGRAM[,args=A B][,dir=DIR][,option.NAME=VALUE]`), with optional nodes=, depth= or st=.
    /// Default: the seed build.
    #[arg(long, value_name = "SPEC")]
    pub engine: Option<String>,
    /// Node budget per position (the built-in engine's default when no limit is given: 100000; an external
    /// engine needs a limit).
    #[arg(value_parser = crate::cli::args::nodes, long)]
    pub nodes: Option<u64>,
    /// Depth limit per position, in plies.
    #[arg(value_parser = crate::cli::args::depth, long)]
    pub depth: Option<u32>,
    /// Time per position, in milliseconds.
    #[arg(value_parser = crate::cli::args::timeout_ms, long)]
    pub movetime_ms: Option<u64>,
    /// Longest search before the engine counts as stalled (an error row; the engine is restarted), in
    /// milliseconds. Default: 120000 under node or depth limits, the movetime plus 1000 with --movetime-ms.
    #[arg(value_parser = crate::cli::args::timeout_ms, long)]
    pub stall_timeout_ms: Option<u64>,
    /// Engine build (TOML config): the same as --engine config=FILE.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Positions searched at once, one engine (process) each (default: all cores).
    #[arg(value_parser = crate::cli::args::threads, long)]
    pub concurrency: Option<usize>,
    /// The same as --concurrency (its older name).
    #[arg(value_parser = crate::cli::args::threads, long, conflicts_with = "concurrency")]
    pub threads: Option<usize>,
    /// Write the per-position CSV here instead of stdout (the summary then goes to stdout).
    #[arg(long)]
    pub csv: Option<PathBuf>,
    /// Send an external engine an option.NAME it does not list (with a warning); without it such an option
    /// (often a typo) refuses the run before any search, suggesting the closest names the engine lists.
    #[arg(long)]
    pub allow_unknown_options: bool,
}

/// Set by Ctrl-C or SIGTERM: no new position is handed out and the searches in progress stop.
static INTERRUPTED: LazyLock<Arc<AtomicBool>> = LazyLock::new(|| Arc::new(AtomicBool::new(false)));

/// Runs `arbiter epd`; returns the exit code (see the module documentation).
///
/// # Errors
/// None: every failure is printed and turned into its exit code here.
pub fn run(args: EpdArgs) -> Result<i32, super::Failure> {
    Ok(exit_code(run_inner(args)))
}

fn run_inner(args: EpdArgs) -> Result<i32, Failure> {
    let spec_text = match (&args.engine, &args.config) {
        (Some(_), Some(_)) => {
            return Err(Failure::Input(anyhow!("--config FILE is --engine config=FILE: give one of them")));
        }
        (Some(text), None) => text.clone(),
        (None, Some(path)) => format!("config={}", path.display()),
        (None, None) => "name=seed".to_string(),
    };
    let mut spec = parse_engine(&spec_text).input()?;
    if args.allow_unknown_options {
        spec.allow_unknown_options();
    }
    check_bench(&spec)?;
    let records = read_epd_file(&args.file, false).input()?;
    let tasks = tasks(&records)
        .map_err(|e| match e {
            SuiteError::Record { line, error } => anyhow!("{}:{line}: {error}", args.file.display()),
            e => anyhow!("{}: {e}", args.file.display()),
        })
        .input()?;
    if tasks.is_empty() {
        return Err(Failure::Input(anyhow!("no positions in {}", args.file.display())));
    }
    let concurrency = args
        .concurrency
        .or(args.threads)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, std::num::NonZero::get));
    let request =
        EpdRequest::new(spec, args.depth, args.nodes, args.movetime_ms, args.stall_timeout_ms, concurrency).input()?;

    let sink: Box<dyn Write> = match &args.csv {
        Some(p) => Box::new(
            std::fs::File::create(p).with_context(|| format!("creating {}", p.display())).map_err(Failure::System)?,
        ),
        None => Box::new(std::io::stdout()),
    };
    let mut csv = csv::Writer::from_writer(sink);
    csv.write_record(Outcome::HEADER).map_err(|e| Failure::System(e.into()))?;
    csv.flush().map_err(|e| Failure::System(e.into()))?;
    install_interrupt_handler("epd", &INTERRUPTED);
    let result = run_suite(&tasks, &request, &INTERRUPTED, |o| {
        csv.write_record(o.row())?;
        csv.flush()
    });
    let suite = match result {
        Ok(suite) => suite,
        // As before a match: an engine that cannot be started is the input's fault (exit 2).
        Err(EpdError::Start(e)) => return Err(Failure::Input(e.into())),
        Err(e @ EpdError::Write(_)) => return Err(Failure::System(e.into())),
        Err(e) => return Err(Failure::Input(e.into())),
    };
    let summary = totals(&tasks, &suite.outcomes).to_string();
    if args.csv.is_some() {
        super::stdout_text(format_args!("{summary}\n"));
    } else {
        super::stderr_line(format_args!("{summary}"));
    }
    if suite.interrupted {
        super::stderr_line(format_args!(
            "arbiter epd: interrupted after {} of {} positions",
            suite.outcomes.len(),
            tasks.len()
        ));
        return Ok(EXIT_INTERRUPTED);
    }
    Ok(0)
}

/// Checks `spec`'s `bench=` signature before the first search, as before a match
/// ([`arbiter::player::EngineSpec::check_bench`]): a mismatch (both numbers), an engine without a readable bench or
/// one that cannot be started is bad input (exit 2), a crash or stall of the bench a failure (exit 1).
pub(crate) fn check_bench(spec: &arbiter::player::EngineSpec) -> Result<(), Failure> {
    let timeout = std::time::Duration::from_secs(arbiter::player::bench::DEFAULT_BENCH_TIMEOUT_S);
    match spec.check_bench(timeout) {
        Ok(Some(result)) => {
            super::stderr_line(format_args!(
                "bench: {}: signature {} as expected ({} nps)",
                spec.name, result.nodes, result.nps
            ));
            Ok(())
        }
        Ok(None) => Ok(()),
        Err(e) if e.is_input() => Err(Failure::Input(e.into())),
        Err(e) => Err(Failure::Internal(e.into())),
    }
}
