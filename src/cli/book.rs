//! `arbiter book`: makes Arbiter's own balanced opening book ([`arbiter::selfplay::book`] describes the method),
//! written to `suites/openings/arbiter-book.epd` by default (`--game xiangqi`:
//! `suites/openings/xiangqi-book.epd`); with `--from-pgn`, a Polyglot book of games as `polyglot make-book`
//! makes it ([`arbiter::selfplay::polyglot`]); `arbiter book probe` lists a Polyglot book's moves of a position.

use super::{Classify as _, Failure};
use anyhow::Context;
use arbiter::chess::polyglot::{Book, key};
use arbiter::chess::{Position, to_san};
use arbiter::engine::EngineGame;
use arbiter::games::GameKind;
use arbiter::selfplay::book::{BookRequest, CANDIDATES_PER_POSITION, MAX_PLIES, MAX_POSITIONS, make_book, write_book};
use arbiter::selfplay::polyglot::{DEFAULT_MAX_PLY, DEFAULT_MIN_GAME, PolyglotMaker, PolyglotOptions};
use std::path::PathBuf;

/// Flags of `arbiter book`.
#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct BookArgs {
    /// `probe`: a Polyglot book's moves of a position.
    #[command(subcommand)]
    pub command: Option<BookCommand>,
    /// Make a Polyglot book of the games in this PGN file instead (`polyglot make-book`'s weights and filters).
    #[arg(long, value_name = "PGN")]
    pub from_pgn: Option<PathBuf>,
    /// The book's format: epd (Arbiter's balanced book, the default) or polyglot (with --from-pgn, its default).
    #[arg(long, value_parser = ["epd", "polyglot"])]
    pub format: Option<String>,
    /// With --from-pgn: plies of each game counted (polyglot make-book's -max-ply).
    #[arg(long, value_name = "N", requires = "from_pgn", default_value_t = DEFAULT_MAX_PLY,
          value_parser = crate::cli::args::int_in(1usize, 100_000))]
    pub max_ply: usize,
    /// With --from-pgn: games a move needs to be kept (polyglot make-book's -min-game).
    #[arg(long, value_name = "N", requires = "from_pgn", default_value_t = DEFAULT_MIN_GAME,
          value_parser = crate::cli::args::int_in(1u32, 1_000_000))]
    pub min_game: u32,
    /// With --from-pgn: every kept move weighs 1 (polyglot make-book's -uniform).
    #[arg(long, requires = "from_pgn")]
    pub uniform: bool,
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
    if let Some(BookCommand::Probe(probe)) = &args.command {
        return run_probe(probe);
    }
    if args.from_pgn.is_some() {
        return from_pgn(&args);
    }
    if args.format.as_deref() == Some("polyglot") {
        return Err(Failure::Input(anyhow::anyhow!("--format polyglot: give the games with --from-pgn PGN")));
    }
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

/// `arbiter book probe`.
#[derive(clap::Subcommand, Debug)]
pub enum BookCommand {
    /// List a Polyglot book's moves of a position with their weights and the position's Polyglot key.
    Probe(ProbeArgs),
}

/// Flags of `arbiter book probe`.
#[derive(clap::Args, Debug)]
pub struct ProbeArgs {
    /// The Polyglot book (.bin).
    #[arg(long)]
    pub book: PathBuf,
    /// The position, as FEN (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// text (default) or json.
    #[arg(long, default_value = "text", value_parser = ["text", "json"])]
    pub format: String,
}

/// Reads a Polyglot book, naming the file in its errors.
fn read_book(path: &std::path::Path) -> Result<Book, Failure> {
    let bytes = std::fs::read(path).map_err(|e| Failure::Input(anyhow::anyhow!("--book {}: {e}", path.display())))?;
    Book::from_bytes(&bytes).map_err(|e| Failure::Input(anyhow::anyhow!("--book {}: {e}", path.display())))
}

fn run_probe(args: &ProbeArgs) -> Result<i32, Failure> {
    let book = read_book(&args.book)?;
    let pos = match &args.fen {
        Some(fen) => Position::from_fen(fen).map_err(|e| Failure::Input(anyhow::anyhow!("--fen `{fen}`: {e}")))?,
        None => Position::startpos(),
    };
    let moves = book.moves(&pos).map_err(|e| Failure::Input(anyhow::anyhow!("--book {}: {e}", args.book.display())))?;
    let total: u64 = moves.iter().map(|&(_, w)| u64::from(w)).sum();
    let share = |w: u16| if total == 0 { 0.0 } else { 100.0 * f64::from(w) / total as f64 };
    let key = key(&pos);
    if args.format == "json" {
        let list: Vec<serde_json::Value> = moves
            .iter()
            .map(|&(m, w)| {
                serde_json::json!({"uci": m.to_uci(false), "san": to_san(&pos, m), "weight": w, "percent": share(w)})
            })
            .collect();
        let json = serde_json::json!({"fen": pos.to_fen(), "key": format!("{key:016x}"), "moves": list});
        super::stdout_text(format_args!("{json}\n"));
        return Ok(0);
    }
    let mut text = format!("position {}\nkey      {key:016x}\n", pos.to_fen());
    if moves.is_empty() {
        text.push_str("no book moves\n");
    }
    for &(m, w) in &moves {
        text.push_str(&format!("{:<7} {:<6} weight {w:>5}  {:5.1}%\n", to_san(&pos, m), m.to_uci(false), share(w)));
    }
    super::stdout_text(format_args!("{text}"));
    Ok(0)
}

fn from_pgn(args: &BookArgs) -> Result<i32, Failure> {
    let pgn = args.from_pgn.as_ref().expect("checked by the caller");
    if args.format.as_deref() == Some("epd") {
        return Err(Failure::Input(anyhow::anyhow!("--from-pgn makes Polyglot books: give --format polyglot")));
    }
    let Some(out) = &args.out else {
        return Err(Failure::Input(anyhow::anyhow!("--from-pgn: give the book's file with --out BOOK.bin")));
    };
    if out.exists() && !args.force {
        return Err(Failure::Input(anyhow::anyhow!(
            "--out {}: already exists; pass --force to replace it",
            out.display()
        )));
    }
    let text = arbiter::notation::text::read(pgn)
        .map_err(|e| Failure::Input(anyhow::anyhow!("--from-pgn {}: {e}", pgn.display())))?;
    let games = arbiter::chess::pgn::read_games_variant(&text, &pgn.display().to_string(), false).input()?;
    let mut maker = PolyglotMaker::new();
    for game in &games {
        maker.add_game(&game.start, &game.moves, &game.result, args.max_ply);
    }
    let options = PolyglotOptions { max_ply: args.max_ply, min_game: args.min_game, uniform: args.uniform };
    let book = maker.book(options);
    std::fs::write(out, book.to_bytes()).with_context(|| format!("writing {}", out.display())).system()?;
    super::stdout_text(format_args!(
        "{} entries from {} games of {} (max ply {}, min game {}{}) written to {}\n",
        book.entries().len(),
        maker.games(),
        pgn.display(),
        args.max_ply,
        args.min_game,
        if args.uniform { ", uniform" } else { "" },
        out.display()
    ));
    Ok(0)
}
