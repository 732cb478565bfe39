//! `arbiter bench`: searches the bench positions ([`crate::engine::chess::bench`]) to a fixed depth and prints
//! the total node count, the signature of the search and evaluation (identical on every run and machine), then
//! the speed.

use crate::engine::chess::bench::{BENCH_FENS, DEFAULT_BENCH_DEPTH, bench_nodes};
use std::time::Instant;

/// Flags of `arbiter bench`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Search every position to this depth, in plies.
    #[arg(value_parser = crate::cli::args::int_in(1u32, crate::engine::chess::search::MAX_DEPTH), long, default_value_t = DEFAULT_BENCH_DEPTH)]
    pub depth: u32,
}

/// Runs `arbiter bench`: prints `<nodes> nodes <nps> nps` on stdout (the node count is the signature; the
/// speed depends on the machine) and returns exit code 0.
///
/// # Errors
/// None; the signature matches the other subcommands.
pub fn run(args: BenchArgs) -> anyhow::Result<i32> {
    let start = Instant::now();
    let nodes = bench_nodes(args.depth.max(1));
    let ms = start.elapsed().as_millis().max(1) as u64;
    eprintln!("bench: {} positions, depth {}, {ms} ms", BENCH_FENS.len(), args.depth.max(1));
    println!("{nodes} nodes {} nps", nodes * 1000 / ms);
    Ok(0)
}
