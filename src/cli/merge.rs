//! `arbiter merge DIR... [--out DIR]`: combines the run folders of the shards of one match (`arbiter match
//! --shard I/N`) into one `games.csv`, `games.pgn`, `summary.txt` and `summary.csv`, as if one process had
//! played the whole schedule.
//!
//! Every folder must hold a complete shard of the same schedule (the same fingerprint in its `run.toml`), and
//! together shards 1 to N exactly once. The merged files list the games by game number; the summary counts
//! every game, with the SPRT taken over the pairs in schedule order (a verdict says after how many pairs it
//! would have stopped the match).
//!
//! Every game of every shard's `games.pgn` is replayed by the game's rules ([`check_games`](arbiter::runner::rundir::replay::check_games)) before anything
//! is written: a move that is not legal, or a result or ply count other than its `games.csv` row, stops the
//! merge with the file, the line and what is wrong.
//!
//! The work is [`arbiter::runner::rundir::merge::merge`]'s; this file parses, calls and prints.
//!
//! Exit codes: 0 merged, 2 for bad input (a folder that is not a shard's, shards of different schedules,
//! a shard missing, given twice or incomplete, a game that does not replay, an output folder that holds
//! results), 1 when a merged file cannot be written (a disk error).

use super::{Failure, exit_code};
use arbiter::runner::rundir::merge::{MergeRequest, merge};
use std::path::PathBuf;

/// Flags of `arbiter merge`.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct MergeArgs {
    /// The shards' run folders (each written by `arbiter match --shard I/N`), every shard of the match once.
    #[arg(value_name = "DIR", required = true)]
    pub dirs: Vec<PathBuf>,

    /// Output folder for the merged games.csv, games.pgn, summary.txt and summary.csv (created if needed;
    /// refused if it holds results). Default: the folder that holds the shard folders, when they share one.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// Merges shards; returns the exit code (0 merged, 2 bad input, 1 a file that cannot be written). Errors are
/// printed to stderr here.
///
/// # Errors
/// None in practice; the signature matches the other subcommands.
pub fn run(args: MergeArgs) -> Result<i32, super::Failure> {
    let request = MergeRequest { dirs: args.dirs, out: args.out };
    let outcome = merge(&request, &mut |warning| super::stderr_line(format_args!("{warning}")));
    Ok(exit_code(match outcome {
        Ok(merged) => {
            super::stdout_text(format_args!("{}", merged.summary));
            super::stdout_text(format_args!("\nMerged {} shards: {}\n", merged.shards, merged.out.display()));
            Ok(0)
        }
        Err(error) if error.is_input() => Err(Failure::Input(error.into())),
        Err(error) => Err(Failure::System(error.into())),
    }))
}
