//! The `arbiter` command line: clap parsing and dispatch only.

use arbiter::cli;
use clap::{Parser, Subcommand};

/// Arbiter: perft, self-play matches decided by SPRT, and tuning for chess engines.
#[derive(Parser, Debug)]
#[command(name = "arbiter", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count perft nodes for a position, or check every count of an EPD suite.
    Perft(cli::perft::PerftArgs),
    /// Play a match between engine builds from an opening book, optionally until an SPRT decides.
    Match(Box<cli::match_cmd::MatchArgs>),
    /// Generate Arbiter's own balanced opening book (random plies kept when the seed engine calls them equal).
    Book(cli::book::BookArgs),
}

fn main() {
    // Die quietly on a closed stdout (`arbiter perft ... | head`), as Unix filters do, instead of panicking in
    // println!.
    #[cfg(unix)]
    // SAFETY: called first in main, before any thread starts; SIG_DFL is a valid disposition for SIGPIPE.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Perft(args) => cli::perft::run(args),
        Command::Match(args) => cli::match_cmd::run(*args),
        Command::Book(args) => cli::book::run(args),
    };
    let code = match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            2
        }
    };
    std::process::exit(code);
}
