//! `arbiter bench`: the bench signature and speed of an engine ([`arbiter::player::bench`]). Built-in builds search
//! the bench positions ([`arbiter::engine::chess::bench`]) to a fixed depth in-process; an external engine runs its
//! own `bench` as OpenBench's client does. Prints the total node count, the signature of the search and
//! evaluation (identical on every run and machine), then the speed.
//!
//! Exit codes: 0 done; 2 bad input (a bad `--engine`, an option that does not apply, an engine that cannot be
//! started or prints no node count); 1 the engine failed (a crash, the time limit, an output flood, node counts
//! that differ between `--runs`, a node count other than the spec's `bench=N`); 130 interrupted (Ctrl-C or SIGTERM: the engine's process group is killed
//! and Arbiter exits at once).

use super::Classify as _;
use super::{EXIT_INTERRUPTED, Failure, exit_code};
use arbiter::engine::chess::bench::{BENCH_FENS, DEFAULT_BENCH_DEPTH};
use arbiter::player::bench::DEFAULT_BENCH_TIMEOUT_S;
use arbiter::player::spec::parse_engine;
use arbiter::player::{BenchOptions, EngineKind};
use std::time::{Duration, Instant};

/// Flags of `arbiter bench`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// The engine, as `arbiter match --engine` takes it: a built-in build (`name=seed`, `config=FILE`) or an
    /// external engine (`cmd=PROGRAM,args=...,dir=...`). Default: the built-in seed build.
    #[arg(long, value_name = "SPEC")]
    pub engine: Option<String>,

    /// Search every position to this depth, in plies (built-in engines; default 7). For an external engine give
    /// its own bench arguments with --bench-args.
    #[arg(value_parser = crate::cli::args::int_in(1u32, arbiter::engine::chess::search::MAX_DEPTH), long)]
    pub depth: Option<u32>,

    /// Words passed after `bench` to an external engine, such as "16 1 13 default depth" for Stockfish (hash
    /// MiB, threads, depth) or "13" for Ethereal (depth); split as a shell splits them (quotes group words, an
    /// unclosed quote is refused).
    #[arg(long, value_name = "WORDS", allow_hyphen_values = true)]
    pub bench_args: Option<String>,

    /// Time limit of one bench of an external engine, in seconds; the engine is killed after it.
    #[arg(value_parser = crate::cli::args::int_in(1u64, 86_400), long, value_name = "SECONDS", default_value_t = DEFAULT_BENCH_TIMEOUT_S)]
    pub bench_timeout: u64,

    /// Run the bench this many times: the node counts must agree, and the median speed is printed.
    #[arg(value_parser = crate::cli::args::int_in(1u32, 1000), long, default_value_t = 1)]
    pub runs: u32,
}

/// Runs `arbiter bench`: prints `<nodes> nodes <nps> nps` on stdout (the node count is the signature; the
/// speed depends on the machine) and returns the exit code (see the [module](self)).
///
/// # Errors
/// None in practice: errors are printed here and become the exit code.
pub fn run(args: BenchArgs) -> Result<i32, super::Failure> {
    install_bench_interrupt_handler();
    Ok(exit_code(bench(&args)))
}

/// Installs the Ctrl-C/SIGTERM handler of `arbiter bench`: a bench has nothing to wind down, so the first
/// signal (and any later one) kills the engine's process group and exits at once with [`EXIT_INTERRUPTED`].
/// The engine's group is its own, so a Ctrl-C at a terminal reaches only Arbiter: without this the engine
/// would outlive it.
fn install_bench_interrupt_handler() {
    let installed = ctrlc::set_handler(|| {
        arbiter::uci::group::kill_all_engines();
        super::stderr_line(format_args!("\narbiter bench: interrupted; the engine was killed"));
        std::process::exit(EXIT_INTERRUPTED);
    });
    if let Err(error) = installed {
        super::stderr_line(format_args!(
            "warning: cannot catch Ctrl-C ({error}); an interrupted bench may leave its engine running"
        ));
    }
}

/// The words of `--bench-args`, split as a POSIX shell splits them (by `shlex`, as `args=` of an engine spec):
/// `'a b'` is one word.
///
/// # Errors
/// An unclosed quote or a trailing backslash (bad input).
fn bench_words(text: &str) -> anyhow::Result<Vec<String>> {
    shlex::split(text).ok_or_else(|| {
        anyhow::anyhow!(
            "--bench-args {}: an unclosed quote or a trailing backslash",
            arbiter::notation::quote::shown(text)
        )
    })
}

/// The bench of `args`, printed.
fn bench(args: &BenchArgs) -> Result<i32, Failure> {
    let spec = parse_engine(args.engine.as_deref().unwrap_or("name=seed")).input()?;
    let options = BenchOptions {
        depth: args.depth,
        args: bench_words(args.bench_args.as_deref().unwrap_or_default()).input()?,
        timeout: Duration::from_secs(args.bench_timeout),
    };
    let start = Instant::now();
    let result = spec.bench_runs(&options, args.runs).map_err(|error| {
        if error.is_input() { Failure::Input(error.into()) } else { Failure::Internal(error.into()) }
    })?;
    let ms = start.elapsed().as_millis();
    match &spec.kind {
        EngineKind::Uci(engine) => {
            eprintln!("bench: {} ({}), {} run(s), {ms} ms", spec.name, engine.command_line(), args.runs)
        }
        _ => eprintln!(
            "bench: {} positions, depth {}, {ms} ms, code path {}",
            BENCH_FENS.len(),
            args.depth.unwrap_or(DEFAULT_BENCH_DEPTH).max(1),
            arbiter::cpu::path().name()
        ),
    }
    println!("{} nodes {} nps", result.nodes, result.nps);
    // `bench=N` in the spec: a check CI can gate on (exit 1 on another signature).
    if let Some(expected) = spec.bench
        && expected != result.nodes
    {
        return Err(Failure::Internal(anyhow::anyhow!(
            "engine {}: wrong bench: expected {expected} (bench={expected}), measured {} nodes",
            spec.name,
            result.nodes
        )));
    }
    Ok(0)
}
