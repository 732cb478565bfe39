//! `arbiter book`: makes Arbiter's own balanced opening book ([`arbiter::selfplay::book`] describes the method),
//! written to `suites/openings/arbiter-book.epd` by default (`--game xiangqi`:
//! `suites/openings/xiangqi-book.epd`).

use super::Classify as _;
use anyhow::Context;
use arbiter::engine::EngineGame;
use arbiter::games::GameKind;
use arbiter::selfplay::book::{BookRequest, CANDIDATES_PER_POSITION, MAX_PLIES, MAX_POSITIONS, make_book, write_book};
use std::path::PathBuf;

/// Flags of `arbiter book`.
#[derive(clap::Args, Debug)]
pub struct BookArgs {
    /// The game of the book: chess, or Xiangqi (checked by the built-in Xiangqi seed build).
    #[arg(long, value_parser = crate::cli::args::game(), default_value = "chess")]
    pub game: GameKind,
    /// Where to write the EPD book (default: suites/openings/arbiter-book.epd, for Xiangqi
    /// suites/openings/xiangqi-book.epd).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// How many positions to keep.
    #[arg(value_parser = crate::cli::args::int_in(1usize, MAX_POSITIONS), long, default_value_t = 2000)]
    pub positions: usize,
    /// Random plies from the start position.
    #[arg(value_parser = crate::cli::args::int_in(0usize, MAX_PLIES), long, default_value_t = 8)]
    pub plies: usize,
    /// Keep a position when the engine's score is within this many centipawns of 0.
    #[arg(value_parser = crate::cli::args::int_in(0i32, 100_000), long, default_value_t = 50)]
    pub window: i32,
    /// Nodes for the engine's check of each candidate position.
    #[arg(value_parser = crate::cli::args::nodes, long, default_value_t = 5000)]
    pub nodes: u64,
    /// Random seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Replace the output file if it exists (the default output is the committed book).
    #[arg(long)]
    pub force: bool,
}

/// Runs `arbiter book`: writes the book and prints how many positions it holds.
///
/// # Errors
/// When the output file cannot be written.
pub fn run(args: BookArgs) -> Result<i32, super::Failure> {
    let bad = |msg: String| {
        eprintln!("error: {msg}");
        Ok(2)
    };
    args.game.refuse_checkers("book").input()?;
    let request = BookRequest {
        game: if args.game == GameKind::Xiangqi { EngineGame::Xiangqi } else { EngineGame::Chess },
        positions: args.positions,
        plies: args.plies,
        window: args.window,
        nodes: args.nodes,
        seed: args.seed,
    };
    request.validate().input()?;
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(arbiter::runner::plan::book_of(args.game).expect("checkers refused above")));
    if out.is_dir() {
        return bad(format!(
            "--out {}: a folder; expected a file (such as {})",
            out.display(),
            out.join("book.epd").display()
        ));
    }
    if out.exists() && !args.force {
        return bad(format!("{}: already exists; pass --force to replace it", out.display()));
    }
    let book = make_book(&request);
    let entries = &book.entries;
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display())).input()?;
    }
    let file = std::fs::File::create(&out).with_context(|| format!("creating {}", out.display())).input()?;
    let mut f = std::io::BufWriter::new(file);
    write_book(&book, &mut f).with_context(|| format!("writing {}", out.display())).system()?;
    println!(
        "{} positions ({} random plies, |score| <= {} cp at {} nodes, seed {}) written to {}",
        entries.len(),
        args.plies,
        args.window,
        args.nodes,
        args.seed,
        out.display()
    );
    if entries.len() < args.positions {
        eprintln!(
            "error: only {} of {} positions found within {} cp after {} candidates each; widen --window or change --plies",
            entries.len(),
            args.positions,
            args.window,
            CANDIDATES_PER_POSITION
        );
        return Ok(1);
    }
    Ok(0)
}
