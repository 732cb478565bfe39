//! `arbiter eval`: evaluate one position and show every term's contribution (feature value, mg and eg
//! weights, tapered contribution), with the phase ([`arbiter::engine::chess::eval_table`]).

use arbiter::chess::Position;
use arbiter::engine::chess::eval_table::report;
use arbiter::engine::registry::chess_config;

/// Flags of `arbiter eval`.
#[derive(clap::Args, Debug)]
pub struct EvalArgs {
    /// The position, as FEN.
    #[arg(long)]
    pub fen: String,
    /// The engine build: a config file (`.toml`) or a built-in build (`seed`, `nomob`).
    #[arg(long, default_value = "seed")]
    pub config: String,
}

/// Runs `arbiter eval`; returns the exit code: 0 done, 2 a bad FEN or config.
///
/// # Errors
/// None beyond the exit code: problems are printed to stderr.
pub fn run(args: EvalArgs) -> Result<i32, super::Failure> {
    let config = match chess_config(&args.config) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("arbiter eval: {e}");
            return Ok(2);
        }
    };
    let pos = match Position::from_fen(&args.fen) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("arbiter eval: bad FEN `{}`: {e}", args.fen);
            return Ok(2);
        }
    };
    print!("{}", report(&pos, &config.weights, &config.name));
    Ok(0)
}
