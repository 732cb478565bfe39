//! `arbiter checkers`: the checkers endgame base. `build` solves every material signature up to `--pieces`
//! pieces by retrograde analysis and writes one file per signature; `probe` answers a position given by FEN.
//!
//! Exit codes: 0 done, 2 bad input (flags, a FEN, a missing or foreign base file), 1 an internal failure (a
//! file that cannot be written).

use arbiter::checkers::base::{self, BaseError, Indexer, Signature, SignatureReport, max_pieces};
use arbiter::checkers::{PieceColor, Position, Ruleset};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::PathBuf;

/// Flags of `arbiter checkers`.
#[derive(clap::Args, Debug)]
pub struct CheckersArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: CheckersCommand,
}

/// `arbiter checkers` subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum CheckersCommand {
    /// Build the endgame base: every signature of at most --pieces pieces, in order of material, by
    /// retrograde analysis; one file per signature in --dir.
    Build(BuildArgs),
    /// Print the value, distance and best moves of a position from the base.
    Probe(ProbeArgs),
    /// Check a built base: random positions of every signature against their children (the value equals the
    /// best child value negated; the ranks satisfy the retrograde equations).
    Verify(VerifyArgs),
}

/// The rules of a base.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum VariantArg {
    /// Russian draughts (flying kings; men capture backward); also the 4x4 and 6x6 boards.
    Russian,
    /// English checkers (8x8 only).
    English,
}

impl VariantArg {
    fn rules(self) -> Ruleset {
        match self {
            VariantArg::Russian => Ruleset::Russian,
            VariantArg::English => Ruleset::English,
        }
    }
}

/// The flags `arbiter checkers build` and `verify` share: which base, and how it is worked on.
#[derive(clap::Args, Debug)]
pub struct BaseFlags {
    /// The rules.
    #[arg(long, value_enum, default_value_t = VariantArg::Russian)]
    pub variant: VariantArg,
    /// Every signature with at most this many pieces in all (2 or more).
    #[arg(long)]
    pub pieces: u8,
    /// The board: 8 (8x8), or 4 and 6 (Russian rules) for small bases.
    #[arg(long, default_value_t = 8)]
    pub board: u8,
    /// Worker threads (default: all cores).
    #[arg(value_parser = crate::cli::args::threads, long)]
    pub threads: Option<usize>,
    /// The base folder (default: `results/checkers/<variant>-<board>x<board>`).
    #[arg(long)]
    pub dir: Option<PathBuf>,
}

/// Flags of `arbiter checkers build`: every signature up to `--pieces`, one file each in the base folder.
#[derive(clap::Args, Debug)]
pub struct BuildArgs {
    /// Which base, where, with how many threads.
    #[command(flatten)]
    pub base: BaseFlags,
}

/// Flags of `arbiter checkers probe`.
#[derive(clap::Args, Debug)]
pub struct ProbeArgs {
    /// The position, as PDN FEN (`W:Wc3,Ke1:Bd6`).
    #[arg(long)]
    pub fen: String,
    /// The rules.
    #[arg(long, value_enum, default_value_t = VariantArg::Russian)]
    pub variant: VariantArg,
    /// The board the FEN is on: 8, 6 or 4.
    #[arg(long, default_value_t = 8)]
    pub board: u8,
    /// The base folder (default: `results/checkers/<variant>-<board>x<board>`).
    #[arg(long)]
    pub dir: Option<PathBuf>,
}

/// Flags of `arbiter checkers verify`: every signature up to `--pieces` is loaded and checked.
#[derive(clap::Args, Debug)]
pub struct VerifyArgs {
    /// Which base, where, with how many threads.
    #[command(flatten)]
    pub base: BaseFlags,
    /// Positions checked per signature, drawn at random (0: every position).
    #[arg(long, default_value_t = 10_000)]
    pub sample: u64,
    /// Seed of the random draw.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Runs `arbiter checkers`; returns the exit code.
pub fn run(command: CheckersCommand) -> i32 {
    let outcome = match command {
        CheckersCommand::Build(args) => build(&args),
        CheckersCommand::Probe(args) => probe(&args),
        CheckersCommand::Verify(args) => verify(&args),
    };
    match outcome {
        Ok(code) => code,
        Err((code, message)) => {
            eprintln!("error: {message}");
            code
        }
    }
}

/// An error exit: the code and the message.
type Failure = (i32, String);

fn bad(message: String) -> Failure {
    (2, message)
}

/// Checks the board and rules flags.
fn check_board(variant: VariantArg, board: u8) -> Result<(), Failure> {
    match (variant, board) {
        (_, 8) | (VariantArg::Russian, 4 | 6) => Ok(()),
        (VariantArg::English, 4 | 6) => Err(bad(format!("--board {board}: the small boards play Russian rules"))),
        _ => Err(bad(format!("--board {board}: expected 4, 6 or 8"))),
    }
}

/// Refuses a `--dir` that exists but is not a folder (a file where the base's folder should be).
fn check_dir(dir: &std::path::Path) -> Result<(), Failure> {
    if dir.exists() && !dir.is_dir() {
        return Err(bad(format!("--dir {}: not a folder (a file of that name is in the way)", dir.display())));
    }
    Ok(())
}

impl BaseFlags {
    /// The flags checked: the board for the rules, `--pieces` in `2..=` [`max_pieces`], `--threads` at least 1
    /// (default: all cores), and the base folder (`--dir` or [`default_dir`]) not a file. Returns the thread
    /// count and the folder.
    fn check(&self) -> Result<(usize, PathBuf), Failure> {
        check_board(self.variant, self.board)?;
        let (pieces, board) = (self.pieces, self.board);
        if pieces < 2 || pieces > max_pieces(board) {
            return Err(bad(format!("--pieces {pieces}: expected 2 to {}", max_pieces(board))));
        }
        let threads = match self.threads {
            Some(0) => return Err(bad("--threads 0: expected at least 1".into())),
            Some(n) => n,
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        };
        let dir = self.dir.clone().unwrap_or_else(|| default_dir(self.variant, board));
        check_dir(&dir)?;
        Ok((threads, dir))
    }
}

/// A rayon pool of `threads` workers (exit 1 when the system refuses them).
fn thread_pool(threads: usize) -> Result<rayon::ThreadPool, Failure> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| (1, format!("cannot start {threads} threads: {e}")))
}

fn default_dir(variant: VariantArg, board: u8) -> PathBuf {
    let name = match variant {
        VariantArg::Russian => "russian",
        VariantArg::English => "english",
    };
    PathBuf::from(format!("results/checkers/{name}-{board}x{board}"))
}

fn build(args: &BuildArgs) -> Result<i32, Failure> {
    let (threads, dir) = args.base.check()?;
    let pool = thread_pool(threads)?;
    let rules = args.base.variant.rules();
    let signatures = Signature::all(args.base.board, args.base.pieces);
    let total_positions: u64 = signatures.iter().map(|&s| Indexer::new(rules, args.base.board, s).count()).sum();
    println!(
        "arbiter checkers build: {:?} {}x{}, up to {} pieces: {} signatures, {} positions, {threads} threads, into {}",
        rules,
        args.base.board,
        args.base.board,
        args.base.pieces,
        signatures.len(),
        total_positions,
        dir.display()
    );
    let style = ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} signatures {msg}")
        .expect("the template is valid")
        .progress_chars("=> ");
    let bar = ProgressBar::new(signatures.len() as u64).with_style(style);
    let started = std::time::Instant::now();
    let mut lines: Vec<SignatureReport> = Vec::new();
    let built = pool.install(|| {
        base::build(rules, args.base.board, args.base.pieces, &dir, |line, done, _| {
            bar.set_position(done as u64);
            bar.set_message(format!("{} done", line.signature));
            bar.suspend(|| print_line(line));
            lines.push(line.clone());
        })
    });
    bar.finish_and_clear();
    built.map_err(|e| (super::EXIT_SYSTEM, e.to_string()))?;
    let seconds = started.elapsed().as_secs_f64();
    base::write_build_csv(&dir, &lines).map_err(|e| (super::EXIT_SYSTEM, e.to_string()))?;
    println!(
        "total: {} signatures, {} positions in {:.1} s, {:.0} positions/s; per-signature figures in {}",
        lines.len(),
        total_positions,
        seconds,
        total_positions as f64 / seconds.max(1e-9),
        dir.join("build.csv").display()
    );
    Ok(0)
}

fn print_line(line: &SignatureReport) {
    println!(
        "{:<16} {:>10} positions  W/D/L {:>9}/{:>9}/{:>9}  longest {:>3} plies  {:>7.2} s  {:>11.0} positions/s",
        line.signature.name(),
        line.positions,
        line.wins,
        line.draws,
        line.losses,
        line.longest,
        line.seconds,
        line.positions as f64 / line.seconds.max(1e-9)
    );
}

fn probe(args: &ProbeArgs) -> Result<i32, Failure> {
    check_board(args.variant, args.board)?;
    let rules = args.variant.rules();
    let pos = Position::from_fen(rules, args.board, &args.fen).map_err(|e| bad(format!("--fen: {e}")))?;
    let (white, black) = (base::pieces(&pos, PieceColor::White), base::pieces(&pos, PieceColor::Black));
    if white == 0 || black == 0 {
        return Err(bad("--fen: one side has no pieces: the game is over".to_string()));
    }
    if white + black > max_pieces(args.board) {
        return Err(bad(format!(
            "--fen: {} pieces; a base holds at most {} (`arbiter checkers build --pieces 2..{}`)",
            white + black,
            max_pieces(args.board),
            max_pieces(args.board)
        )));
    }
    let dir = args.dir.clone().unwrap_or_else(|| default_dir(args.variant, args.board));
    check_dir(&dir)?;
    // The position's own signature first, so that a missing base names it (and the --pieces that builds it),
    // not the first missing signature of that piece count.
    let own = Signature::of(&pos);
    if !base::base_path(&dir, own).exists() {
        return Err(bad(base_text(&BaseError::Missing {
            dir: dir.display().to_string(),
            signature: own.name(),
            file: base::base_path(&dir, own).display().to_string(),
            pieces: own.total(),
        })));
    }
    let bases = base::load_bases(&dir, rules, args.board, white + black).map_err(|e| bad(base_text(&e)))?;
    let probe = bases.probe(&pos);
    let mover = base::color_name(pos.side_to_move());
    let other = base::color_name(pos.side_to_move().flip());
    println!("fen      {}", pos.to_fen());
    println!("value    {:+}", probe.value);
    println!("distance {} plies", probe.distance);
    let kept = |n: i8| if n.abs() == 1 { "1 piece".to_string() } else { format!("{} pieces", n.abs()) };
    let verdict = match probe.value {
        0 => "a draw with best play".to_string(),
        v if v > 0 => format!("{mover} (to move) wins, keeping at least {}, within {} plies", kept(v), probe.distance),
        v => format!("{other} wins, keeping at least {}, within {} plies", kept(v), probe.distance),
    };
    println!("verdict  {verdict}");
    let best: Vec<String> = probe.best_moves().map(|m| pos.move_text(m)).collect();
    println!("best     {}", if best.is_empty() { "(no legal move)".to_string() } else { best.join(" ") });
    for (m, v, d) in &probe.moves {
        println!("  {:<14} value {v:+3}  distance {d}", pos.move_text(m));
    }
    Ok(0)
}

/// `arbiter checkers verify`: exit 0 when every checked position satisfies [`base::verify_position`], 1 with
/// the failures (at most 10 printed) otherwise.
fn verify(args: &VerifyArgs) -> Result<i32, Failure> {
    let (threads, dir) = args.base.check()?;
    let rules = args.base.variant.rules();
    let started = std::time::Instant::now();
    let bases = base::load_bases(&dir, rules, args.base.board, args.base.pieces).map_err(|e| bad(base_text(&e)))?;
    let pool = thread_pool(threads)?;
    let report =
        pool.install(|| base::verify_sample(&bases, args.base.board, args.base.pieces, args.sample, args.seed));
    let (checked, failures) = (report.checked, report.failures);
    println!(
        "verified {checked} positions of {} signatures ({:?} {}x{}, up to {} pieces) in {:.1} s: {} inconsistent",
        report.signatures,
        rules,
        args.base.board,
        args.base.board,
        args.base.pieces,
        started.elapsed().as_secs_f64(),
        failures.len()
    );
    for failure in failures.iter().take(10) {
        println!("  {failure}");
    }
    Ok(if failures.is_empty() { 0 } else { 1 })
}

/// A [`BaseError`] as the command line says it: a missing base names the command that builds it.
fn base_text(error: &BaseError) -> String {
    match error {
        BaseError::Missing { pieces, .. } => {
            format!("{error}; build it with `arbiter checkers build --pieces {pieces}`")
        }
        BaseError::Format { .. } | BaseError::Io { .. } => error.to_string(),
    }
}
