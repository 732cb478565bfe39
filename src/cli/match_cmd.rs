//! `arbiter match`: plays engine builds against each other in game pairs from an opening book, optionally until
//! an SPRT decides, writing `games.csv`, `games.pgn`, `summary.txt` and `summary.csv` into a run folder.
//!
//! Exit codes: 0 when the match finished (or the SPRT decided), 2 for bad input (flags, engine configs, the
//! opening file, an output folder that holds results or cannot be created), 1 for an internal failure (results
//! already written stay written), and [`EXIT_INTERRUPTED`] (130) when Ctrl-C or SIGTERM stopped it: no new pair
//! starts, the pairs in play finish (games still running after
//! [`ABANDON_AFTER`](crate::runner::scheduler::ABANDON_AFTER) are abandoned unrecorded: external engines get
//! `stop` and `quit`, and their process groups are killed), and the summary is written from the games recorded.
//! A second Ctrl-C kills every engine's process group and quits at once, without a summary. Details and limits:
//! `docs/engines.md`.
//!
//! Before the first game the run folder gets `run.toml` ([`RunFile`]): the arguments as given, the working
//! directory and the schedule fingerprint. `--resume DIR` reads it back, checks every recorded game as merge
//! does and drops the damaged ones, keeping a copy ([`salvage_run`]), and plays the games of the schedule not
//! yet recorded; `--shard I/N` plays one disjoint part of the schedule, and `arbiter merge` ([`super::merge`])
//! combines the parts.

pub use super::{DEFAULT_BOOK, DEFAULT_XIANGQI_BOOK, EXIT_INTERRUPTED, error_text};
pub(crate) use super::{Failure, exit_code};
use super::{book_of, install_interrupt_handler};
use crate::game::{Game as MatchGame, GameKind};
use crate::player::EngineKind;
pub use crate::player::spec::{EachArgs, EngineArgError, parse_engine, parse_engine_for, parse_engine_with};
use crate::runner::output::{LOCK_FILE, RUN_FILES, WRITTEN_FILES, append_file, open_lock_file, refuse_links};
use crate::runner::runfile::{args_after, hex};
use crate::runner::scheduler::MAX_CONCURRENCY;
use crate::runner::timecontrol::TimeControl;
use crate::runner::{
    AdjudicationRules, DrawAdjudication, Fingerprint, GamePair, GameRecord, GameSettings, KeyValueError, KeyValues,
    MatchLength, MatchObserver, MatchSpec, MatchState, OpeningOrder, OpeningsOption, RUN_TOML, RecordError,
    ResignAdjudication, ResultSink, RunFile, Shard, Tournament, Variant, create_out_dir, create_run_dir,
    load_game_openings, match_report, replay, run_match_from, salvage_run, summary_text, write_summary,
};
use crate::stats::{EloModel, SprtSpec};
use clap::parser::ValueSource;
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::HashSet;
use std::fs::{File, TryLockError};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::SystemTime;

/// The default node limit per move when no limit is given.
pub const DEFAULT_NODES: u64 = 5000;

/// The default seed of the random opening order.
pub const DEFAULT_SEED: u64 = 1;

/// The SPRT a two-engine match runs when neither `--sprt` nor a length is given: nElo [0, 10], alpha = beta =
/// 0.05.
pub const DEFAULT_SPRT: &str = "elo0=0,elo1=10";

/// The longest `--name`, in characters.
pub const MAX_NAME_CHARS: usize = 100;

/// The default `--ratinginterval`: the reports are printed every 10 games (cutechess-cli's habit).
pub const DEFAULT_RATING_INTERVAL: u64 = 10;

/// Whether `games.pgn` holds a comment after each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum PgnComments {
    /// `{book}` after book moves, `{score/depth}` (cutechess style, `+0.35/12`) after engine moves.
    #[default]
    On,
    /// No comments (cutechess-cli's minimal PGN, `-pgnout FILE min`).
    Off,
}

/// The flags (long names) that may be given with `--resume`: every other flag of the run is the one recorded
/// in its `run.toml`. `--recover` (restart crashed engines) is listed ahead of the flag itself.
pub const RESUME_FLAGS: [&str; 3] = ["resume", "concurrency", "recover"];

/// Flags of `arbiter match`.
///
/// Without flags: the built-in `seed` against `nomob` (the seed without mobility) on the default book
/// (`suites/openings/arbiter-book.epd`), 5000 nodes per move, one game per core, until an SPRT with nElo
/// [0, 10] decides.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct MatchArgs {
    /// An engine: a built-in build `name=NAME[,config=FILE.toml]` (without `config=` the name must be built in:
    /// `seed` or `nomob`), or an external UCI engine `name=NAME,cmd=PROGRAM[,args=A B][,dir=DIR]
    /// [,option.NAME=VALUE]...[,restart=on]`; either with its own limits `tc=40/60+0.6|10+0.1`, `st=SECONDS`,
    /// `nodes=N`, `depth=N`, `timemargin=MS`. Give it two or more times; more than two play a round robin.
    /// Default: `--engine name=seed --engine name=nomob`.
    #[arg(long = "engine", value_name = "SPEC")]
    pub engines: Vec<String>,

    /// Settings for every engine, as in --engine but without name, config and cmd (for example
    /// `tc=10+0.1,timemargin=50,option.Threads=1`); an engine's own keys win.
    #[arg(long, value_name = "SPEC")]
    pub each: Option<String>,

    /// Time control for every engine, like `--each tc=TC`: `40/60+0.6` (40 moves in 60 s, 0.6 s increment),
    /// `10+0.1`, `5`. The runner keeps the clocks; a side that overruns (beyond timemargin) loses on time.
    #[arg(long, value_name = "TC")]
    pub tc: Option<String>,

    /// After an engine crashes, stalls or cannot start (the game is lost), restart it and go on; without it
    /// such a failure stops the match once the games in play end. Even with it, an engine that fails to start
    /// for 3 games in a row stops the match (exit 1; fix it and --resume).
    #[arg(long)]
    pub recover: bool,

    /// Time an external engine has to answer `uci` and the first `isready`, in milliseconds.
    #[arg(value_parser = crate::cli::args::timeout_ms, long, value_name = "MS", default_value_t = crate::player::uci::DEFAULT_HANDSHAKE_TIMEOUT_MS)]
    pub handshake_timeout_ms: u64,

    /// Time an external engine has to answer `isready` before a game and `stop` when out of time, in
    /// milliseconds; no answer is a stall (a loss).
    #[arg(value_parser = crate::cli::args::timeout_ms, long, value_name = "MS", default_value_t = crate::player::uci::DEFAULT_PING_TIMEOUT_MS)]
    pub ping_timeout_ms: u64,

    /// Longest search of an external engine under node or depth limits only, in milliseconds; longer is a
    /// stall (a loss).
    #[arg(value_parser = crate::cli::args::timeout_ms, long, value_name = "MS", default_value_t = crate::player::uci::DEFAULT_STALL_TIMEOUT_MS)]
    pub stall_timeout_ms: u64,

    /// Opening file: EPD (one position per line) or PGN (see --plies), as a plain path or in cutechess form
    /// `file=PATH[,format=epd|pgn][,order=random|sequential][,plies=N][,start=N]` (`start`: the 1-based number
    /// of the first opening played in the playing order; the openings before it are played last when the
    /// openings are cycled, so with order=random, `start=N` skips the first N-1 openings of the shuffled
    /// order). Each opening is played as a game pair. Default: suites/openings/arbiter-book.epd.
    #[arg(long, value_name = "FILE|SPEC")]
    pub openings: Option<PathBuf>,

    /// For PGN openings: play the first N plies of each game as the book (default: the whole game). Same as
    /// `plies=` of --openings.
    #[arg(value_parser = crate::cli::args::int_in(0u32, 10_000), long, value_name = "N")]
    pub plies: Option<u32>,

    /// Opening order: file order, or shuffled by --seed (default: random). Same as `order=` of --openings.
    #[arg(long, value_enum)]
    pub order: Option<OpeningOrder>,

    /// Seed of the random opening order (the same seed gives the same order).
    #[arg(long, value_name = "S", default_value_t = DEFAULT_SEED)]
    pub seed: u64,

    /// The game: chess, or Xiangqi (built-in builds `seed` and `nopsqt`, `config=` a Xiangqi config such as
    /// configs/xiangqi/seed.toml, `cmd=` a UCI engine with `UCI_Variant` xiangqi such as fairy-stockfish; default
    /// book suites/openings/xiangqi-book.epd; games.pgn with `[Variant "xiangqi"]` and coordinate moves).
    #[arg(long, value_enum, default_value_t = GameKind::Chess)]
    pub game: GameKind,

    /// The variant: standard chess, or Chess960 (also double Fischer random books): opening FENs are read with
    /// X-FEN or Shredder-FEN castling, games are written with `[Variant "chess960"]`.
    #[arg(long, value_enum, default_value_t = Variant::Standard)]
    pub variant: Variant,

    /// How the engines are paired: every engine against every other (round-robin), or the first engine against
    /// each of the others (gauntlet: pairings first-second, first-third, ...).
    #[arg(long, value_enum, default_value_t = Tournament::RoundRobin)]
    pub tournament: Tournament,

    /// Play each opening as a game pair with colours swapped (the default; accepted for cutechess-cli habit).
    #[arg(long)]
    pub repeat: bool,

    /// Keep the colours in both games of a pair: the pairing's first engine has White in both (the
    /// pentanomial still counts the two games as a pair).
    #[arg(long)]
    pub noswap: bool,

    /// Total games over all pairings, rounded up to whole pairs (pairs are handed out pairing by pairing, in
    /// rounds).
    #[arg(value_parser = crate::cli::args::count, long, value_name = "N", conflicts_with = "rounds")]
    pub games: Option<u64>,

    /// Game pairs per pairing (round robin of N engines: N(N-1)/2 pairings; gauntlet: N-1). Without --games or
    /// --rounds: until the SPRT decides (at most 100000 games), or, without an SPRT, every opening once per
    /// pairing (at most 100000 games).
    #[arg(value_parser = crate::cli::args::count, long, value_name = "N")]
    pub rounds: Option<u64>,

    /// Print the reports (cutechess-cli and fastchess lines for every pairing) to stdout every N games; 0 for
    /// only at the end. They are printed at the end and written to summary.txt in any case.
    #[arg(long = "ratinginterval", value_name = "N", default_value_t = DEFAULT_RATING_INTERVAL)]
    pub rating_interval: u64,

    /// Comments after each move in games.pgn: on (`{book}`, and `{+0.35/12}` score/depth for engine moves, the
    /// cutechess-cli habit) or off (minimal PGN).
    #[arg(long = "pgn-comments", value_enum, default_value_t = PgnComments::On)]
    pub pgn_comments: PgnComments,

    /// Games played at once, 1 to 1024 (default: the number of cores); never more than the pairs to play.
    #[arg(long, value_name = "N")]
    pub concurrency: Option<u32>,

    /// Nodes per move (default 5000 when no limit is given).
    #[arg(value_parser = crate::cli::args::nodes, long, value_name = "N")]
    pub nodes: Option<u64>,

    /// Search depth per move, in plies.
    #[arg(value_parser = crate::cli::args::depth, long, value_name = "PLIES")]
    pub depth: Option<u32>,

    /// Thinking time per move, in milliseconds (games are then not reproducible); like `--each st=`.
    #[arg(value_parser = crate::cli::args::timeout_ms, long = "movetime-ms", value_name = "MS")]
    pub movetime_ms: Option<u64>,

    /// Draw adjudication `movenumber=N,movecount=M,score=CP` (cutechess-cli's rule): after at least N full moves
    /// (book included; N >= 1), a draw once the last 2M plies (M moves of each side) were all scored within CP
    /// centipawns of zero, mate scores never; a capture, a pawn move or a move without a score restarts the count.
    #[arg(long, value_name = "SPEC")]
    pub draw: Option<String>,

    /// Resign adjudication `movecount=N,score=CP[,twosided=true|false]` (cutechess-cli's rule): after its own
    /// move, a side loses when its own score (mate scores included, from its own view) was <= -CP for its last
    /// N moves; with twosided=true (default false) its opponent's own score must also have been >= CP for its
    /// last N moves.
    #[arg(long, value_name = "SPEC")]
    pub resign: Option<String>,

    /// Draw after a player's move once the game has N full moves (plies from the start position, book
    /// included, reach 2N), as cutechess-cli's -maxmoves.
    #[arg(value_parser = crate::cli::args::int_in(1u32, 100_000), long, value_name = "N")]
    pub maxmoves: Option<u32>,

    /// SPRT `elo0=E0,elo1=E1[,alpha=0.05][,beta=0.05][,model=normalized|logistic|bayeselo]` over game pairs, from the
    /// first engine's view; stops launching pairs once it decides. Two engines only. Default for two engines
    /// without --games/--rounds: elo0=0,elo1=10.
    #[arg(long, value_name = "SPEC")]
    pub sprt: Option<String>,

    /// Output folder (created if needed; refused if it already holds results). Default:
    /// `results/NAME-N` with NAME from --name or the UTC timestamp, and N the first free number.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,

    /// Name of the run: the stem of the default output folder and the PGN Event tag (at most 100 characters,
    /// no control characters, '/', '\' or leading '.').
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,

    /// Continue the interrupted run in DIR where it stopped, with the same schedule: the games recorded are
    /// kept, the others played. The flags are those recorded in DIR/run.toml; only --concurrency and
    /// --recover may be given too. Refused when the engines, openings or settings changed since.
    #[arg(long, value_name = "DIR")]
    pub resume: Option<PathBuf>,

    /// Play shard I of N (1-based: 1/8 to 8/8): the game pairs k (0-based) with k mod N = I-1. Needs a fixed
    /// length (--games or --rounds); an SPRT does not stop a shard. Combine the shards with `arbiter merge`.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,
}

/// The parser of `arbiter match` arguments on their own (without the program and subcommand names), as
/// main's parser reads them.
pub fn match_command() -> clap::Command {
    <MatchArgs as clap::Args>::augment_args(clap::Command::new("match").no_binary_name(true))
}

/// Parses `arbiter match` arguments (the words after `match`), returning the flags and clap's matches (which
/// say which flags were given).
///
/// # Errors
/// clap's error for arguments `arbiter match` would refuse.
pub fn parse_match_args(args: &[String]) -> Result<(MatchArgs, clap::ArgMatches), clap::Error> {
    let matches = match_command().try_get_matches_from(args)?;
    let parsed = <MatchArgs as clap::FromArgMatches>::from_arg_matches(&matches)?;
    Ok((parsed, matches))
}

/// The first line of a clap error, without its `error: ` prefix.
pub fn clap_error_text(error: &clap::Error) -> String {
    let text = error.to_string();
    let line = text.lines().next().unwrap_or("");
    line.strip_prefix("error: ").unwrap_or(line).to_string()
}

/// The flags given on the command line in `matches` (by long name, as `--name`) that [`RESUME_FLAGS`] does not
/// allow with `--resume`.
pub fn flags_refused_with_resume(matches: &clap::ArgMatches) -> Vec<String> {
    let command = match_command();
    matches
        .ids()
        .filter(|id| matches.value_source(id.as_str()) == Some(ValueSource::CommandLine))
        .filter_map(|id| command.get_arguments().find(|arg| arg.get_id() == id))
        .map(|arg| arg.get_long().map_or_else(|| arg.get_id().to_string(), str::to_string))
        .filter(|long| !RESUME_FLAGS.contains(&long.as_str()))
        .map(|long| format!("--{long}"))
        .collect()
}

/// Set by the Ctrl-C/SIGTERM handler of `arbiter match`.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Runs a match; returns the exit code (0 finished or decided, 2 bad input, 1 internal failure,
/// [`EXIT_INTERRUPTED`] stopped by Ctrl-C or SIGTERM). Errors are printed to stderr here, so the `Err` case is
/// not used.
///
/// # Errors
/// None in practice; the signature matches the other subcommands.
pub fn run(args: MatchArgs) -> anyhow::Result<i32> {
    install_interrupt_handler("match", &INTERRUPTED);
    let outcome = args_after(std::env::args_os(), "match")
        .map_err(Failure::from)
        .and_then(|raw| run_inner(args, &raw, &INTERRUPTED));
    Ok(exit_code(outcome))
}

/// Checks `--name`: a folder name and a PGN tag value.
fn check_run_name(name: &str) -> Result<(), Failure> {
    let problem = if name.is_empty() || name.starts_with('.') || name.contains(['/', '\\']) {
        "a run name is a folder name, without '/', '\\' or a leading '.'"
    } else if name.chars().any(char::is_control) {
        "a run name must not hold control characters"
    } else if name.chars().count() > MAX_NAME_CHARS {
        "a run name has at most 100 characters"
    } else {
        return Ok(());
    };
    let shown: String = name.chars().take(40).collect();
    let more = if name.chars().count() > 40 { "..." } else { "" };
    Err(anyhow::anyhow!("--name {shown:?}{more}: {problem}").into())
}

/// Runs the match of `args`; `raw` are the same arguments as given (the words after `match`), for `run.toml`.
fn run_inner(args: MatchArgs, raw: &[String], interrupt: &AtomicBool) -> Result<i32, Failure> {
    if let Some(dir) = &args.resume {
        return resume(dir, &args, raw, interrupt);
    }
    match args.game {
        GameKind::Chess => start::<crate::chess::Game>(args, raw, interrupt),
        GameKind::Xiangqi => start::<crate::xiangqi::Game>(args, raw, interrupt),
        GameKind::Russian | GameKind::English => Err(refuse_checkers(args.game, "match")),
    }
}

/// The input error (exit 2) of `arbiter command --game russian|english`: checkers is not played.
pub(crate) fn refuse_checkers(game: GameKind, command: &'static str) -> Failure {
    Failure::Input(
        game.refuse_checkers(command).err().map_or_else(|| anyhow::anyhow!("--game {}", game.name()), Into::into),
    )
}

/// Starts the new match of `args` in the game `G`.
fn start<G: MatchGame>(args: MatchArgs, raw: &[String], interrupt: &AtomicBool) -> Result<i32, Failure> {
    let spec = prepare::<G>(&args)?;
    if interrupt.load(Ordering::SeqCst) {
        super::stderr_line(format_args!("arbiter match: interrupted before the match started; nothing was written"));
        return Ok(EXIT_INTERRUPTED);
    }

    let dir = match &args.out {
        Some(dir) => {
            create_out_dir(dir)?;
            dir.clone()
        }
        None => {
            let stem = args.name.clone().unwrap_or_else(|| crate::runner::output::timestamp(SystemTime::now()));
            create_run_dir(Path::new("results"), &stem)?
        }
    };
    // The lock first, then the folder checked again under it: of two matches started on one folder at once,
    // one holds the lock and the other is refused (in use), or finds the first one's run.toml (exists).
    let lock = lock_run(&dir)?;
    create_out_dir(&dir)?;
    // run.toml next: a run killed at any moment after this can be resumed.
    let cwd = std::env::current_dir().map_err(|e| anyhow::anyhow!("the working directory: {e}"))?;
    RunFile::new(raw.to_vec(), cwd, &Fingerprint::of(&spec)).write(&dir.join(RUN_TOML))?;
    let mut sink = ResultSink::create(&dir, &event_name(&args))?;
    sink.set_pgn_comments(args.pgn_comments == PgnComments::On);
    let state = MatchState::new(spec.schedule());
    play(&spec, &args, &dir, sink, state, &HashSet::new(), interrupt, lock)
}

/// The PGN `Event` tag of a run: its `--name`, else `arbiter match`.
fn event_name(args: &MatchArgs) -> String {
    args.name.clone().unwrap_or_else(|| "arbiter match".to_string())
}

/// Checks the flags and builds the match: the run name, the spec, the hash budget, and every engine started
/// once (before any file is written, so that a failing one leaves nothing behind).
fn prepare<G: MatchGame>(args: &MatchArgs) -> Result<MatchSpec<G>, Failure> {
    if let Some(name) = &args.name {
        check_run_name(name)?;
    }
    let spec = build_spec::<G>(args)?;
    check_hash_memory(&spec, physical_memory_mib())?;
    for engine in &spec.engines {
        let player = engine.create::<G>().map_err(|error| anyhow::anyhow!("--engine: {error}"))?;
        for warning in player.warnings() {
            super::stderr_line(format_args!("warning: {warning}"));
        }
    }
    Ok(spec)
}

/// Locks the run folder `dir` ([`LOCK_FILE`], created when missing) for as long as the returned file is open,
/// so that a second `arbiter match` can neither start in the same folder nor append to the same run (a resume
/// while the run still plays). The lock dies with the process, even on SIGKILL. A file system without locks
/// gets a warning.
fn lock_run(dir: &Path) -> Result<Option<File>, Failure> {
    let file = open_lock_file(dir)?;
    match file.try_lock() {
        Ok(()) => Ok(Some(file)),
        Err(TryLockError::WouldBlock) => Err(anyhow::anyhow!(
            "{}: the run is in use by another arbiter process (still playing?); wait for it or stop it first",
            dir.display()
        )
        .into()),
        Err(TryLockError::Error(error)) => {
            super::stderr_line(format_args!(
                "warning: {}: cannot lock ({error}); make sure no other arbiter plays this run",
                dir.join(LOCK_FILE).display()
            ));
            Ok(None)
        }
    }
}

/// `arbiter match --resume DIR`: reads DIR/run.toml, rebuilds the match from the recorded arguments in the
/// recorded working directory, refuses a changed schedule, repairs the result files' tails, and plays the rest.
fn resume(dir: &Path, given: &MatchArgs, raw: &[String], interrupt: &AtomicBool) -> Result<i32, Failure> {
    let (_, matches) = parse_match_args(raw).map_err(|e| anyhow::anyhow!("{}", clap_error_text(&e)))?;
    let refused = flags_refused_with_resume(&matches);
    if !refused.is_empty() {
        return Err(anyhow::anyhow!(
            "--resume: {} cannot be given with --resume: the run keeps the flags recorded in its run.toml (only \
             --concurrency and --recover may be given)",
            refused.join(", ")
        )
        .into());
    }
    let shown = dir.display().to_string();
    let dir = dir.canonicalize().map_err(|e| {
        anyhow::anyhow!("--resume {shown}: {e} (expected the folder of an earlier run, holding run.toml)")
    })?;
    // Before anything is read or written: a link by any name the run writes is refused.
    refuse_links(&dir, &WRITTEN_FILES)?;
    let run_path = dir.join(RUN_TOML);
    let run = RunFile::read(&run_path).map_err(|e| {
        anyhow::anyhow!("--resume {shown}: {e} (a run folder holds run.toml from its first moment; is this one?)")
    })?;
    let lock = lock_run(&dir)?;
    std::env::set_current_dir(&run.cwd).map_err(|e| {
        anyhow::anyhow!("{}: the recorded working directory {}: {e}", run_path.display(), run.cwd.display())
    })?;
    let (mut args, _) = parse_match_args(&run.args)
        .map_err(|e| anyhow::anyhow!("{}: args: {}", run_path.display(), clap_error_text(&e)))?;
    if args.resume.is_some() {
        return Err(anyhow::anyhow!("{}: args: the recorded arguments hold --resume", run_path.display()).into());
    }
    if given.concurrency.is_some() {
        args.concurrency = given.concurrency;
    }
    args.recover |= given.recover;
    match args.game {
        GameKind::Chess => resume_as::<crate::chess::Game>(&dir, &shown, args, &run, lock, interrupt),
        GameKind::Xiangqi => resume_as::<crate::xiangqi::Game>(&dir, &shown, args, &run, lock, interrupt),
        GameKind::Russian | GameKind::English => Err(refuse_checkers(args.game, "match")),
    }
}

/// The rest of [`resume`] once the recorded arguments are read, in their game `G`: the match rebuilt and
/// checked against the fingerprint, the result files repaired and replayed, the games left played.
fn resume_as<G: MatchGame>(
    dir: &Path,
    shown: &str,
    args: MatchArgs,
    run: &RunFile,
    lock: Option<File>,
    interrupt: &AtomicBool,
) -> Result<i32, Failure> {
    let spec = prepare::<G>(&args)?;
    let fingerprint = Fingerprint::of(&spec);
    if hex(fingerprint.total()) != run.fingerprint {
        let changed: Vec<String> = fingerprint.changed_parts(&run.parts).iter().map(|p| part_text(p)).collect();
        return Err(anyhow::anyhow!(
            "--resume {shown}: {} changed since the run started (fingerprint {} in run.toml, {} now); refusing to \
             resume a different schedule: restore them, or start a new run",
            if changed.is_empty() { "the schedule".to_string() } else { changed.join(", ") },
            run.fingerprint,
            hex(fingerprint.total())
        )
        .into());
    }

    let salvage = salvage_run(dir, &spec, SystemTime::now()).map_err(record_failure)?;
    for dropped in &salvage.records.dropped {
        super::stderr_line(format_args!("arbiter match: repaired {shown}: dropped {dropped}"));
    }
    for copy in &salvage.copies {
        super::stderr_line(format_args!("arbiter match: a copy of what was dropped is kept in {}", copy.display()));
    }
    let records = salvage.records;
    let csv_path = dir.join("games.csv").display().to_string();
    let (state, done) = replay(&spec, &records.rows, &csv_path).map_err(record_failure)?;
    // The summary of an earlier session is rewritten from all the games at the end.
    for name in RUN_FILES.iter().filter(|name| name.starts_with("summary")) {
        match std::fs::remove_file(dir.join(name)) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(Failure::Internal(anyhow::anyhow!("{}: cannot remove: {e}", dir.join(name).display())));
            }
            _ => {}
        }
    }
    let mut sink = ResultSink::append(dir, &event_name(&args)).map_err(|e| Failure::Internal(e.into()))?;
    sink.set_pgn_comments(args.pgn_comments == PgnComments::On);
    let status = match state.verdict {
        Some(_) => "the SPRT had decided; rewriting the summary".to_string(),
        None if done.len() as u64 >= state.games_total() => "complete; rewriting the summary".to_string(),
        None => format!("{} games to play", state.games_total() - done.len() as u64),
    };
    super::stderr_line(format_args!(
        "arbiter match: resuming {shown}: {} of {} games recorded, {status}",
        done.len(),
        state.games_total()
    ));
    play(&spec, &args, dir, sink, state, &done, interrupt, lock)
}

/// A fingerprint part's name in words, for the refusal of a resume or a merge.
pub(crate) fn part_text(part: &str) -> String {
    match part {
        "engines" => "the engines' names or order".to_string(),
        "openings" => "the openings".to_string(),
        "schedule" => "the schedule (order, seed, length or shard count)".to_string(),
        "games" => "the game settings (limits, adjudication)".to_string(),
        "sprt" => "the SPRT".to_string(),
        other => match other.strip_prefix("engine ") {
            Some(name) => format!("the engine {name}"),
            None => other.to_string(),
        },
    }
}

/// A failure to read a run folder's games: bad input (exit 2), except a repaired file that cannot be written.
pub(crate) fn record_failure(error: RecordError) -> Failure {
    match error {
        RecordError::Write(_) => Failure::Internal(error.into()),
        _ => Failure::Input(error.into()),
    }
}

/// Plays what is left of the match of `spec` into `dir` (see [`run_match_from`]) with a progress bar, prints
/// and writes the summary, and returns the exit code. `_lock` is held until the match ends.
#[allow(clippy::too_many_arguments)]
fn play<G: MatchGame>(
    spec: &MatchSpec<G>,
    args: &MatchArgs,
    dir: &Path,
    mut sink: ResultSink,
    state: MatchState,
    done: &HashSet<u64>,
    interrupt: &AtomicBool,
    _lock: Option<File>,
) -> Result<i32, Failure> {
    super::stderr_line(format_args!(
        "arbiter match: {} on {} openings from {}, concurrency {}, results in {}",
        spec.engines.iter().map(|e| format!("{} ({})", e.name, e.limit)).collect::<Vec<_>>().join(" vs "),
        spec.openings.len(),
        spec.openings_source,
        spec.concurrency,
        dir.display()
    ));
    if let Some(shard) = spec.shard {
        let sprt = if spec.sprt.is_some() { "; an SPRT does not stop a shard" } else { "" };
        super::stderr_line(format_args!(
            "arbiter match: shard {shard}: {} of the schedule's {} pairs{sprt}; merge the shards with `arbiter merge`",
            state.schedule.planned_pairs(),
            state.schedule.total_pairs
        ));
    }
    // Engines an earlier session of this run left running (it was killed with -9) are ended; this session's
    // are listed for the next one.
    let group_file = dir.join(ENGINE_GROUPS_FILE);
    let ended = crate::uci::group::end_recorded_groups(&group_file);
    if !ended.is_empty() {
        super::stderr_line(format_args!(
            "arbiter match: ended {} engine process group(s) an earlier session of this run left running: {ended:?}",
            ended.len()
        ));
    }
    if let Err(error) = crate::uci::group::record_groups_in(Some(&group_file)) {
        super::stderr_line(format_args!("warning: {}: cannot write: {error}", group_file.display()));
    }
    let mut progress = Progress::new(spec, &state, args.rating_interval, dir);
    let state = run_match_from(spec, state, done, &mut sink, &mut progress, interrupt);
    progress.bar.finish_and_clear();
    let _ = crate::uci::group::record_groups_in(None);

    // The files first: a closed stdout or stderr must not keep the summary from the run folder.
    write_summary(dir, spec, &state).map_err(|e| Failure::Internal(e.into()))?;
    let summary = summary_text(spec, &state);
    super::stdout_text(format_args!("{summary}"));
    super::stdout_text(format_args!("\nResults: {}\n", dir.display()));
    // The charts are a view of games.csv: a failure to draw them loses nothing, so it is a warning.
    match crate::runner::charts::write_run_charts(dir, &spec.engines[0].name, spec.sprt.as_ref()) {
        Ok(files) if !files.is_empty() => {
            let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
            super::stderr_line(format_args!("arbiter match: charts {}", names.join(", ")));
        }
        Ok(_) => {}
        Err(error) => super::stderr_line(format_args!("warning: charts not written: {error}")),
    }
    if let Some(failure) = &state.failure {
        return Err(Failure::Internal(anyhow::anyhow!(
            "the match stopped: {failure} (continue it with `arbiter match --resume {}`)",
            dir.display()
        )));
    }
    if let Some(halted) = &state.halted {
        return Err(Failure::Internal(anyhow::anyhow!(
            "the match stopped: {halted} (continue it with `arbiter match --resume {} --recover`)",
            dir.display()
        )));
    }
    if state.interrupted {
        super::stderr_line(format_args!(
            "arbiter match: interrupted; {} games recorded and summarized in {} (exit code {EXIT_INTERRUPTED}); \
             continue with `arbiter match --resume {}`",
            state.tally.games,
            dir.display(),
            dir.display()
        ));
        return Ok(EXIT_INTERRUPTED);
    }
    Ok(0)
}

/// Physical memory in MiB, from the `MemTotal` line of `/proc/meminfo`; `None` where that is not available.
fn physical_memory_mib() -> Option<u64> {
    parse_mem_total(&std::fs::read_to_string("/proc/meminfo").ok()?)
}

/// The `MemTotal:   16318480 kB` line of `/proc/meminfo` text, in MiB.
fn parse_mem_total(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find_map(|l| l.strip_prefix("MemTotal:"))?;
    let mut words = line.split_whitespace();
    let value: u64 = words.next()?.parse().ok()?;
    match words.next() {
        Some("kB") | None => Some(value / 1024),
        _ => None,
    }
}

/// Refuses a match whose transposition tables would take more than half of `memory_mib` (physical memory in
/// MiB; no check when unknown). Every worker holds one player, and so one table, per engine it plays: up to
/// every engine of the match.
fn check_hash_memory<G: MatchGame>(spec: &MatchSpec<G>, memory_mib: Option<u64>) -> Result<(), Failure> {
    let Some(memory) = memory_mib else {
        return Ok(());
    };
    let workers = spec.workers() as u64;
    let per_worker: u64 = spec.engines.iter().map(|e| e.hash_mb() as u64).sum();
    let total = per_worker.saturating_mul(workers);
    if total <= memory / 2 {
        return Ok(());
    }
    let tables: Vec<String> =
        spec.engines.iter().map(|e| format!("{} {} MiB ({})", e.name, e.hash_mb(), e.source)).collect();
    let largest = spec.engines.iter().max_by_key(|e| e.hash_mb()).expect("a match has two or more engines");
    let advice = if largest.source == "built-in" {
        "lower --concurrency".to_string()
    } else {
        format!("lower search.hash_mb in {} or --concurrency", largest.source)
    };
    Err(anyhow::anyhow!(
        "hash: {workers} workers x ({}) = {total} MiB of transposition tables, more than half of the {memory} MiB \
         of physical memory; {advice}",
        tables.join(" + ")
    )
    .into())
}

/// Turns the flags into a match spec (engines loaded, openings read).
pub(crate) fn build_spec<G: MatchGame>(args: &MatchArgs) -> Result<MatchSpec<G>, Failure> {
    if args.game.name() != G::NAME {
        return Err(Failure::Internal(anyhow::anyhow!("--game {} built as {}", args.game.name(), G::NAME)));
    }
    if args.game == GameKind::Xiangqi && args.variant != Variant::Standard {
        return Err(anyhow::anyhow!(
            "--variant {} is a chess variant; it cannot be given with --game xiangqi",
            args.variant.name()
        )
        .into());
    }
    let each = EachArgs::parse(args.each.as_deref())?;
    let second = if args.game == GameKind::Xiangqi { "name=nopsqt" } else { "name=nomob" };
    let defaults = ["name=seed".to_string(), second.to_string()];
    let texts = if args.engines.is_empty() { &defaults[..] } else { &args.engines[..] };
    let mut engines =
        texts.iter().map(|text| parse_engine_for(text, &each, args.game)).collect::<Result<Vec<_>, _>>()?;
    let tc = match &args.tc {
        Some(text) => Some(TimeControl::parse(text).map_err(|e| anyhow::anyhow!("--tc: {e}"))?),
        None => None,
    };
    if args.depth == Some(0) || args.nodes == Some(0) || args.movetime_ms == Some(0) {
        return Err(anyhow::anyhow!("--depth, --nodes and --movetime-ms must be at least 1").into());
    }
    for engine in &mut engines {
        // The global flags fill what neither the engine nor --each set.
        let limit = &mut engine.limit;
        limit.tc = limit.tc.or(tc);
        limit.nodes = limit.nodes.or(args.nodes);
        limit.depth = limit.depth.or(args.depth);
        limit.movetime_ms = limit.movetime_ms.or(args.movetime_ms);
        if limit.is_unlimited() {
            limit.nodes = Some(DEFAULT_NODES);
        }
        if let EngineKind::Uci(uci) = &mut engine.kind {
            uci.handshake_timeout_ms = args.handshake_timeout_ms;
            uci.ping_timeout_ms = args.ping_timeout_ms;
            uci.stall_timeout_ms = args.stall_timeout_ms;
        }
    }
    if engines.len() < 2 {
        return Err(anyhow::anyhow!("--engine: a match needs two or more engines, got {}", engines.len()).into());
    }
    for (i, engine) in engines.iter().enumerate() {
        if engines[..i].iter().any(|other| other.name == engine.name) {
            return Err(
                anyhow::anyhow!("--engine: the name `{}` is used twice; give each build a name=", engine.name).into()
            );
        }
    }

    let sprt = match (&args.sprt, args.games.or(args.rounds)) {
        (Some(text), _) => Some(parse_sprt(text)?),
        (None, None) if engines.len() == 2 => Some(parse_sprt(DEFAULT_SPRT)?),
        (None, _) => None,
    };
    if sprt.is_some() && engines.len() != 2 {
        return Err(anyhow::anyhow!("--sprt needs exactly two engines, got {}", engines.len()).into());
    }
    let length = match (args.games, args.rounds) {
        (Some(0), _) => return Err(anyhow::anyhow!("--games must be at least 1").into()),
        (_, Some(0)) => return Err(anyhow::anyhow!("--rounds must be at least 1").into()),
        (Some(games), _) => MatchLength::Games(games),
        (None, Some(rounds)) => MatchLength::Rounds(rounds),
        (None, None) if sprt.is_some() => MatchLength::UntilDecided,
        (None, None) => MatchLength::EachOpening,
    };

    if let Some(shard) = args.shard
        && length == MatchLength::UntilDecided
    {
        return Err(anyhow::anyhow!(
            "--shard {shard}: a shard plays a fixed part of the schedule: give --games or --rounds (an SPRT cannot \
             stop a shard early; merge the shards for its verdict)"
        )
        .into());
    }

    let book = match &args.openings {
        Some(path) => match path.to_str() {
            Some(text) => OpeningsOption::parse(text)?,
            None => OpeningsOption { file: path.clone(), format: None, order: None, plies: None, start: None },
        },
        None => OpeningsOption { file: default_book(args.game)?, format: None, order: None, plies: None, start: None },
    };
    if args.plies == Some(0) {
        return Err(anyhow::anyhow!("--plies must be at least 1").into());
    }
    let plies = one_of("--plies", args.plies.map(|p| p as usize), "plies", book.plies)?;
    let order = one_of("--order", args.order, "order", book.order)?.unwrap_or_default();
    let path = book.file;
    let openings = load_game_openings::<G>(&path, book.format, plies, args.variant)?;
    let start = book.start.unwrap_or(1);
    if start > openings.len() {
        return Err(anyhow::anyhow!(
            "--openings start={start}: {} holds only {} openings",
            path.display(),
            openings.len()
        )
        .into());
    }

    let concurrency = match args.concurrency {
        Some(0) => return Err(anyhow::anyhow!("--concurrency must be at least 1").into()),
        Some(n) if n as usize > MAX_CONCURRENCY => {
            return Err(anyhow::anyhow!("--concurrency {n}: at most {MAX_CONCURRENCY} games at once").into());
        }
        Some(n) => n as usize,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()).min(MAX_CONCURRENCY),
    };
    let adjudication = AdjudicationRules {
        draw: args.draw.as_deref().map(DrawAdjudication::parse).transpose()?,
        resign: args.resign.as_deref().map(ResignAdjudication::parse).transpose()?,
        maxmoves: match args.maxmoves {
            Some(0) => return Err(anyhow::anyhow!("--maxmoves must be at least 1").into()),
            m => m,
        },
    };
    let mut spec = MatchSpec {
        engines,
        openings,
        openings_source: path.display().to_string(),
        order,
        seed: args.seed,
        start,
        variant: args.variant,
        tournament: args.tournament,
        swap: !args.noswap,
        length,
        concurrency,
        settings: GameSettings { limits: Default::default(), adjudication },
        recover: args.recover,
        sprt,
        shard: args.shard,
    };
    spec.concurrency = spec.workers();
    Ok(spec)
}

/// The value given by a flag or by the matching key of `--openings` (they must agree when both are given).
fn one_of<T: PartialEq + std::fmt::Debug + Copy>(
    flag: &str,
    from_flag: Option<T>,
    key: &str,
    from_openings: Option<T>,
) -> Result<Option<T>, Failure> {
    match (from_flag, from_openings) {
        (Some(a), Some(b)) if a != b => Err(anyhow::anyhow!(
            "{flag} {} conflicts with --openings {key}={}; give one of them",
            value_text(a),
            value_text(b)
        )
        .into()),
        (a, b) => Ok(a.or(b)),
    }
}

/// A flag value as the user typed it: `Random` becomes `random`.
fn value_text<T: std::fmt::Debug>(value: T) -> String {
    format!("{value:?}").to_ascii_lowercase()
}

/// The default book of `game` ([`DEFAULT_BOOK`], [`DEFAULT_XIANGQI_BOOK`]) under the working directory, else
/// under the source tree the binary was built from.
fn default_book(game: GameKind) -> Result<PathBuf, Failure> {
    let book = book_of(game);
    let here = PathBuf::from(book);
    if here.exists() {
        return Ok(here);
    }
    let built = Path::new(env!("CARGO_MANIFEST_DIR")).join(book);
    if built.exists() {
        return Ok(built);
    }
    Err(anyhow::anyhow!("the default opening book {book} was not found; pass --openings FILE").into())
}

/// Parses an `--sprt` value: `elo0=E0,elo1=E1[,alpha=A][,beta=B][,model=normalized|logistic|bayeselo]`, with
/// alpha = beta = 0.05 and the normalized model by default. The ranges are [`SprtSpec::new`]'s, the one check
/// `arbiter sprt` shares.
///
/// # Errors
/// A [`KeyValueError`] naming `--sprt` and the key: a value that is not a number or a model, or
/// ([`KeyValueError::Invalid`]) one that [`SprtSpec::new`] refuses, with its reason.
pub fn parse_sprt(text: &str) -> Result<SprtSpec, KeyValueError> {
    const PROBABILITY: &str = "a probability strictly between 0 and 1";
    let mut kv = KeyValues::parse("--sprt", text, &["elo0", "elo1", "alpha", "beta", "model"])?;
    let elo0: f64 = kv.require("elo0", "a number (Elo)")?;
    let elo1: f64 = kv.require("elo1", "a number (Elo)")?;
    let alpha: f64 = kv.take("alpha", PROBABILITY)?.unwrap_or(0.05);
    let beta: f64 = kv.take("beta", PROBABILITY)?.unwrap_or(0.05);
    let model: EloModel = kv.take("model", "normalized, logistic or bayeselo")?.unwrap_or(EloModel::Normalized);
    SprtSpec::new(elo0, elo1, alpha, beta, model)
        .map_err(|error| kv.invalid(error.parameter().unwrap_or("elo0"), &error.to_string()))
}

/// The progress bar on stderr: games done / total, W/D/L, Elo with its interval and the LLR of the first
/// pairing; and every `interval` games (0: never) the reports on stdout ([`match_report`]), printed with the
/// bar hidden.
struct Progress<'a, G: MatchGame> {
    bar: ProgressBar,
    two_engines: bool,
    spec: &'a MatchSpec<G>,
    interval: u64,
    /// `match.log` in the run folder: every message (engine failures with their last lines, SPRT decisions),
    /// appended and flushed as it comes; `None` if it cannot be opened (messages still go to stderr).
    log: Option<std::fs::File>,
}

/// The file of a run folder that lists the process groups of the engines playing it, while the run plays
/// (see [`crate::uci::group::record_groups_in`]); a `--resume` after a `kill -9` ends the groups it lists.
pub const ENGINE_GROUPS_FILE: &str = "engines.pgid";

/// The log file of a run folder.
pub const LOG_FILE: &str = crate::runner::output::LOG_FILE;

impl<'a, G: MatchGame> Progress<'a, G> {
    /// A bar for the games `state` plans, starting at the games it has counted already; `interval` is
    /// `--ratinginterval`, `dir` the run folder (for `match.log`).
    fn new(spec: &'a MatchSpec<G>, state: &MatchState, interval: u64, dir: &Path) -> Progress<'a, G> {
        let log = match append_file(&dir.join(LOG_FILE), true) {
            Ok(file) => Some(file),
            Err(error) => {
                super::stderr_line(format_args!(
                    "warning: {}: cannot open the log: {error}",
                    dir.join(LOG_FILE).display()
                ));
                None
            }
        };
        let total = state.games_total();
        let template = if spec.length == MatchLength::UntilDecided {
            "{elapsed_precise} {pos} games (SPRT, at most {len}) {msg}"
        } else {
            "{elapsed_precise} [{bar:30}] {pos}/{len} games {msg}"
        };
        let style = ProgressStyle::with_template(template).expect("the template is valid").progress_chars("=> ");
        let bar = ProgressBar::new(total).with_style(style);
        bar.set_position(state.tally.games);
        Progress { bar, two_engines: spec.engines.len() == 2, spec, interval, log }
    }
}

impl<G: MatchGame> MatchObserver<G> for Progress<'_, G> {
    fn game_finished(&mut self, _record: &GameRecord<G>, _pair: &GamePair, state: &MatchState) {
        self.bar.set_position(state.tally.games);
        if self.interval > 0 && state.tally.games.is_multiple_of(self.interval) {
            let report = match_report(self.spec, state);
            self.bar.suspend(|| {
                let mut stdout = std::io::stdout().lock();
                let _ = stdout.write_all(report.as_bytes()).and_then(|()| stdout.flush());
            });
        }
        if !self.two_engines {
            return;
        }
        let tally = &state.tally.pairings[0];
        let mut msg = format!("| W/D/L {}/{}/{}", tally.wdl.wins, tally.wdl.draws, tally.wdl.losses);
        if let Some(elo) = tally.elo() {
            msg.push_str(&format!(" | Elo {:+.1} +/- {:.1}", elo.elo, elo.elo95));
        }
        if let Some(sprt) = state.sprt {
            let llr = crate::stats::Figure::of(sprt.llr, "a hypothesis gives the results seen probability 0");
            msg.push_str(&format!(" | LLR {} [{:.2}, {:.2}]", llr.fixed(2), sprt.lower, sprt.upper));
        }
        self.bar.set_message(msg);
    }

    fn message(&mut self, text: &str) {
        self.bar.suspend(|| super::stderr_line(format_args!("{text}")));
        if let Some(log) = &mut self.log {
            use std::io::Write as _;
            let stamp = crate::runner::output::timestamp(SystemTime::now());
            let _ = writeln!(log, "{stamp} {text}").and_then(|()| log.flush());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::chess::EngineConfig;
    use crate::runner::load_openings;

    fn config_dir() -> PathBuf {
        let dir = std::env::temp_dir().join(format!("arbiter-match-cmd-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn engines_from_builtins_and_configs() {
        let seed = parse_engine("name=seed").unwrap();
        assert_eq!(seed.name, "seed");
        assert_eq!(seed.source, "built-in");
        let nomob = parse_engine("name=nomob").unwrap();
        let EngineKind::Builtin(config) = &nomob.kind else { panic!("nomob is built in") };
        assert_eq!(config.weights.mobility, [0; 4]);

        let path = config_dir().join("mine.toml");
        let mut config = EngineConfig::seed();
        config.name = "mine".into();
        config.weights.bishop_pair = 7;
        std::fs::write(&path, config.to_toml()).unwrap();
        let text = format!("config={}", path.display());
        let spec = parse_engine(&text).unwrap();
        assert_eq!(spec.name, "mine");
        let spec = parse_engine(&format!("name=other,{text}")).unwrap();
        assert_eq!(spec.name, "other");
        let EngineKind::Builtin(loaded) = &spec.kind else { panic!("a config build") };
        assert_eq!(loaded.weights.bishop_pair, 7);
        assert_eq!(loaded.name, "other");
    }

    #[test]
    fn engine_errors_name_the_key_or_file() {
        let err = parse_engine("name=seed,hash=16").unwrap_err().to_string();
        assert_eq!(
            err,
            "--engine: unknown key `hash`, expected one of: name, config, cmd, args, dir, proto, restart, tc, st, nodes, \
             depth, timemargin, option.*"
        );
        let err = parse_engine("name=x").unwrap_err().to_string();
        assert!(err.contains("`x` has no config="), "{err}");
        let err = parse_engine("name=x,config=/no/such/file.toml").unwrap_err().to_string();
        assert!(err.contains("/no/such/file.toml"), "{err}");
        let path = config_dir().join("bad.toml");
        std::fs::write(&path, EngineConfig::seed().to_toml().replace("bishop_pair", "bishop_pear")).unwrap();
        let err = parse_engine(&format!("name=x,config={}", path.display())).unwrap_err().to_string();
        assert!(err.contains("bad.toml") && err.contains("bishop_pear"), "{err}");
        assert!(matches!(parse_engine("config="), Err(EngineArgError::Config(_))));
        assert!(matches!(parse_engine("name="), Err(EngineArgError::BadName { .. })));
        assert!(matches!(parse_engine("config=x.toml,name=,"), Err(EngineArgError::KeyValue(_))));
    }

    #[test]
    fn engine_names_that_break_pgn_tags_are_refused() {
        for (file, name) in
            [("empty.toml", ""), ("newline.toml", "a\nb"), ("quote.toml", "a\"b"), ("slash.toml", "a\\b")]
        {
            let path = config_dir().join(file);
            let mut config = EngineConfig::seed();
            config.name = name.to_string();
            std::fs::write(&path, config.to_toml()).unwrap();
            let err = parse_engine(&format!("config={}", path.display())).unwrap_err();
            assert!(matches!(err, EngineArgError::BadName { .. }), "{err}");
            let text = err.to_string();
            assert!(text.starts_with(&format!("--engine: {}: key `name`: ", path.display())), "{text}");
            // name= overrides the config's name.
            let spec = parse_engine(&format!("name=fine,config={}", path.display())).unwrap();
            assert_eq!(spec.name, "fine");
        }
        let err = parse_engine("name=a\tb").unwrap_err().to_string();
        assert!(err.starts_with("--engine: name=: an engine name must not hold control characters"), "{err}");
        assert!(parse_engine("name=\"seed\"").is_err());
    }

    #[test]
    fn errors_print_each_cause_once() {
        let err = parse_engine("config=/no/such/dir/missing.toml").unwrap_err();
        let text = error_text(&anyhow::Error::from(err));
        assert_eq!(text.matches("No such file").count(), 1, "{text}");
        assert!(text.starts_with("--engine: /no/such/dir/missing.toml: cannot read: "), "{text}");
        let err = load_openings(Path::new("/no/such/book.epd"), None).unwrap_err();
        let text = error_text(&anyhow::Error::from(err));
        assert_eq!(text.matches("No such file").count(), 1, "{text}");
        // A cause the message does not quote is still shown.
        let err = anyhow::Error::from(std::io::Error::other("disk on fire")).context("writing games.csv");
        assert_eq!(error_text(&err), "writing games.csv: disk on fire");
    }

    #[test]
    fn run_names() {
        assert!(check_run_name("nightly-2").is_ok());
        assert!(check_run_name(&"x".repeat(MAX_NAME_CHARS)).is_ok());
        for bad in ["", ".hidden", "a/b", "a\\b", "a\nb", "tab\there", &"x".repeat(MAX_NAME_CHARS + 1)] {
            let Err(Failure::Input(err)) = check_run_name(bad) else { panic!("{bad:?} was accepted") };
            assert!(err.to_string().starts_with("--name "), "{err}");
        }
    }

    #[test]
    fn sprt_bounds_are_checked() {
        for (text, key) in [
            ("elo0=5,elo1=5", "elo1"),
            ("elo0=10,elo1=0", "elo1"),
            ("elo0=0,elo1=inf", "elo1"),
            ("elo0=-2001,elo1=5", "elo0"),
            ("elo0=0,elo1=1e9,model=logistic", "elo1"),
            ("elo0=0,elo1=5,alpha=0", "alpha"),
            ("elo0=0,elo1=5,beta=1", "beta"),
            ("elo0=0,elo1=5,alpha=-0.1", "alpha"),
            ("elo0=0,elo1=5,alpha=0.6,beta=0.4", "beta"),
            ("elo0=0,elo1=5,alpha=nan", "alpha"),
        ] {
            let err = parse_sprt(text).unwrap_err();
            assert!(
                matches!(&err, KeyValueError::BadValue { option, key: k, .. } | KeyValueError::Invalid { option, key: k, .. }
                    if option == "--sprt" && k == key),
                "{text}: {err}"
            );
        }
        assert!(parse_sprt("elo0=-2000,elo1=2000,alpha=0.49,beta=0.5").is_ok());
    }

    #[test]
    fn meminfo_and_the_hash_budget() {
        let meminfo = "MemTotal:       16318480 kB\nMemFree:         1234 kB\n";
        assert_eq!(parse_mem_total(meminfo), Some(15_936));
        assert_eq!(parse_mem_total("MemFree: 1 kB\n"), None);
        assert_eq!(parse_mem_total("MemTotal: lots\n"), None);

        let book = config_dir().join("hash-book.epd");
        std::fs::write(&book, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\n").unwrap();
        let path = config_dir().join("big-hash.toml");
        let mut config = EngineConfig::seed();
        config.name = "big".into();
        config.hash_mb = 4096;
        std::fs::write(&path, config.to_toml()).unwrap();
        let args = MatchArgs {
            openings: Some(book),
            engines: vec!["name=seed".into(), format!("config={}", path.display())],
            games: Some(16),
            concurrency: Some(4),
            ..MatchArgs::default()
        };
        let spec = build_spec::<crate::chess::Game>(&args).ok().unwrap();
        // 4 workers x (16 + 4096) MiB = 16448 MiB: fits in 64 GiB, not in 16 GiB.
        assert!(check_hash_memory(&spec, Some(65_536)).is_ok());
        assert!(check_hash_memory(&spec, None).is_ok());
        let Err(Failure::Input(err)) = check_hash_memory(&spec, Some(16_384)) else { panic!("accepted") };
        let err = err.to_string();
        assert!(err.contains("4 workers x (seed 16 MiB (built-in) + big 4096 MiB ("), "{err}");
        assert!(err.contains("= 16448 MiB") && err.contains("of the 16384 MiB"), "{err}");
        assert!(err.ends_with(&format!("lower search.hash_mb in {} or --concurrency", path.display())), "{err}");
    }

    #[test]
    fn concurrency_is_capped() {
        let book = config_dir().join("cap-book.epd");
        std::fs::write(&book, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\n").unwrap();
        let args = |games, concurrency| MatchArgs {
            openings: Some(book.clone()),
            games: Some(games),
            concurrency: Some(concurrency),
            ..MatchArgs::default()
        };
        assert_eq!(build_spec::<crate::chess::Game>(&args(4, 16)).ok().unwrap().concurrency, 2);
        assert_eq!(build_spec::<crate::chess::Game>(&args(100, 3)).ok().unwrap().concurrency, 3);
        assert_eq!(build_spec::<crate::chess::Game>(&args(5000, 1024)).ok().unwrap().concurrency, 1024);
        let Err(Failure::Input(err)) = build_spec::<crate::chess::Game>(&args(5000, 1025)) else { panic!("accepted") };
        assert_eq!(err.to_string(), "--concurrency 1025: at most 1024 games at once");
    }

    #[test]
    fn sprt_values() {
        let sprt = parse_sprt("elo0=0,elo1=10").unwrap();
        assert_eq!((sprt.elo0(), sprt.elo1(), sprt.alpha(), sprt.beta()), (0.0, 10.0, 0.05, 0.05));
        assert_eq!(sprt.model(), EloModel::Normalized);
        let sprt = parse_sprt("elo0=-1.5,elo1=3,alpha=0.1,beta=0.2,model=logistic").unwrap();
        assert_eq!((sprt.elo0(), sprt.alpha(), sprt.beta(), sprt.model()), (-1.5, 0.1, 0.2, EloModel::Logistic));
        let err = parse_sprt("elo0=0").unwrap_err().to_string();
        assert_eq!(err, "--sprt: missing key `elo1`");
        let err = parse_sprt("elo0=0,elo1=5,alpha=1.5").unwrap_err().to_string();
        assert!(err.contains("alpha=\"1.5\""), "{err}");
        let err = parse_sprt("elo0=0,elo1=5,model=bayes").unwrap_err().to_string();
        assert!(err.contains("model=\"bayes\""), "{err}");
        assert!(parse_sprt("elo0=nan,elo1=5").is_err());
    }

    #[test]
    fn openings_key_values_and_flags() {
        let pgn = config_dir().join("kv-book.pgn");
        std::fs::write(&pgn, "[Event \"a\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n[Event \"b\"]\n\n1. d4 d5 *\n").unwrap();
        let kv = |extra: &str| Some(PathBuf::from(format!("file={}{extra}", pgn.display())));
        let build = |args: MatchArgs| match build_spec::<crate::chess::Game>(&args) {
            Ok(spec) => Ok(spec),
            Err(Failure::Input(e) | Failure::Internal(e)) => Err(e.to_string()),
        };
        let args =
            MatchArgs { openings: kv(",order=sequential,plies=2,start=2"), games: Some(2), ..MatchArgs::default() };
        let spec = build(args).unwrap();
        assert_eq!((spec.order, spec.start, spec.openings[0].moves.len()), (OpeningOrder::Sequential, 2, 2));
        assert_eq!(spec.schedule().pair(0).opening, 1);
        assert_eq!(spec.openings_source, pgn.display().to_string());
        // The separate flags give the same values, and may repeat them.
        let args = MatchArgs {
            openings: kv(",order=sequential"),
            order: Some(OpeningOrder::Sequential),
            plies: Some(3),
            games: Some(2),
            ..MatchArgs::default()
        };
        let spec = build(args).unwrap();
        assert_eq!((spec.order, spec.openings[0].moves.len()), (OpeningOrder::Sequential, 3));
        let args = MatchArgs { openings: Some(pgn.clone()), games: Some(2), ..MatchArgs::default() };
        assert_eq!(build(args).unwrap().order, OpeningOrder::Random);

        let args = MatchArgs { openings: kv(",plies=2"), plies: Some(4), games: Some(2), ..MatchArgs::default() };
        assert_eq!(build(args).unwrap_err(), "--plies 4 conflicts with --openings plies=2; give one of them");
        let args = MatchArgs {
            openings: kv(",order=random"),
            order: Some(OpeningOrder::Sequential),
            games: Some(2),
            ..MatchArgs::default()
        };
        assert_eq!(
            build(args).unwrap_err(),
            "--order sequential conflicts with --openings order=random; give one of them"
        );
        let args = MatchArgs { openings: kv(",start=3"), games: Some(2), ..MatchArgs::default() };
        assert_eq!(build(args).unwrap_err(), format!("--openings start=3: {} holds only 2 openings", pgn.display()));
        let args = MatchArgs { openings: kv(",format=epd"), games: Some(2), ..MatchArgs::default() };
        let err = build(args).unwrap_err();
        assert!(err.starts_with(&format!("opening file {}:1", pgn.display())), "{err}");
        let args = MatchArgs { openings: kv(",start=x"), games: Some(2), ..MatchArgs::default() };
        assert!(build(args).unwrap_err().starts_with("--openings: start=\"x\" is not valid"));
    }

    #[test]
    fn tournament_colours_and_variant() {
        let book = config_dir().join("960-book.epd");
        std::fs::write(&book, "nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN w GBgb - 0 1\n").unwrap();
        let three = vec![
            "name=seed".to_string(),
            "name=nomob".into(),
            format!("name=s3,config={}", {
                let p = config_dir().join("s3.toml");
                std::fs::write(&p, EngineConfig::seed().to_toml()).unwrap();
                p.display().to_string()
            }),
        ];
        let args = MatchArgs {
            openings: Some(book.clone()),
            engines: three,
            tournament: Tournament::Gauntlet,
            noswap: true,
            repeat: true,
            variant: Variant::Chess960,
            rounds: Some(1),
            ..MatchArgs::default()
        };
        let spec = build_spec::<crate::chess::Game>(&args).ok().unwrap();
        assert_eq!((spec.tournament, spec.swap, spec.variant), (Tournament::Gauntlet, false, Variant::Chess960));
        assert_eq!(spec.schedule().pairings, [(0, 1), (0, 2)]);
        assert!(spec.openings[0].start.is_chess960());
        let args = MatchArgs { variant: Variant::Standard, ..args };
        let Err(Failure::Input(err)) = build_spec::<crate::chess::Game>(&args) else {
            panic!("a Chess960 book read as standard chess")
        };
        assert!(error_text(&err).contains("need Chess960 mode"), "{err}");
    }

    #[test]
    fn spec_defaults_and_conflicts() {
        let book = config_dir().join("book.epd");
        std::fs::write(&book, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\n").unwrap();
        let args = MatchArgs { openings: Some(book.clone()), ..MatchArgs::default() };
        let spec = build_spec::<crate::chess::Game>(&args).ok().unwrap();
        assert_eq!(spec.engines.iter().map(|e| e.name.as_str()).collect::<Vec<_>>(), ["seed", "nomob"]);
        assert!(spec.engines.iter().all(|e| e.limit.nodes == Some(DEFAULT_NODES)));
        assert_eq!(spec.length, MatchLength::UntilDecided);
        let sprt = spec.sprt.unwrap();
        assert_eq!((sprt.elo0(), sprt.elo1()), (0.0, 10.0));

        let args = MatchArgs { openings: Some(book.clone()), games: Some(5), ..MatchArgs::default() };
        let spec = build_spec::<crate::chess::Game>(&args).ok().unwrap();
        assert!(spec.sprt.is_none());
        assert_eq!(spec.length, MatchLength::Games(5));

        let three = vec![
            "name=seed".to_string(),
            "name=nomob".into(),
            format!("name=s2,config={}", {
                let p = config_dir().join("s2.toml");
                std::fs::write(&p, EngineConfig::seed().to_toml()).unwrap();
                p.display().to_string()
            }),
        ];
        let args = MatchArgs { openings: Some(book.clone()), engines: three.clone(), ..MatchArgs::default() };
        let spec = build_spec::<crate::chess::Game>(&args).ok().unwrap();
        assert_eq!(spec.length, MatchLength::EachOpening);
        assert!(spec.sprt.is_none());
        let args = MatchArgs {
            openings: Some(book.clone()),
            engines: three,
            sprt: Some("elo0=0,elo1=5".into()),
            ..MatchArgs::default()
        };
        assert!(matches!(build_spec::<crate::chess::Game>(&args), Err(Failure::Input(_))));
        let args = MatchArgs {
            openings: Some(book.clone()),
            engines: vec!["name=seed".into(), "name=seed".into()],
            ..MatchArgs::default()
        };
        assert!(
            matches!(build_spec::<crate::chess::Game>(&args), Err(Failure::Input(e)) if e.to_string().contains("used twice"))
        );
        let args = MatchArgs { openings: Some(book), plies: Some(4), ..MatchArgs::default() };
        assert!(
            matches!(build_spec::<crate::chess::Game>(&args), Err(Failure::Input(e)) if e.to_string().contains("--plies"))
        );
        let pgn = config_dir().join("book.pgn");
        std::fs::write(&pgn, "[Event \"a\"]\n\n1. e4 e5 *\n").unwrap();
        let args = MatchArgs { openings: Some(pgn), plies: Some(0), ..MatchArgs::default() };
        assert!(
            matches!(build_spec::<crate::chess::Game>(&args), Err(Failure::Input(e)) if e.to_string() == "--plies must be at least 1")
        );
    }

    #[test]
    fn resume_takes_only_its_allowed_flags() {
        let given = |args: &[&str]| {
            let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
            flags_refused_with_resume(&parse_match_args(&args).unwrap().1)
        };
        assert!(given(&["--resume", "results/run"]).is_empty());
        assert!(given(&["--resume=results/run", "--concurrency", "3"]).is_empty());
        // Flags with defaults count only when given.
        assert_eq!(
            given(&["--resume", "r", "--seed", "1", "--order=random"]),
            ["--seed", "--order"],
            "in the order given"
        );
        assert_eq!(given(&["--resume", "r", "--engine", "name=seed", "--shard", "1/2", "--out", "x"]).len(), 3);
        assert!(RESUME_FLAGS.contains(&"recover"), "--recover is allowed ahead of the flag");
        let err = parse_match_args(&["--shard".to_string(), "0/2".to_string()]).unwrap_err();
        assert!(clap_error_text(&err).contains("expected I/N with 1 <= I <= N"), "{err}");
    }

    #[test]
    fn a_shard_needs_a_fixed_length() {
        let book = config_dir().join("shard-book.epd");
        std::fs::write(&book, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\n").unwrap();
        let args = |games: Option<u64>, sprt: Option<&str>| MatchArgs {
            openings: Some(book.clone()),
            games,
            sprt: sprt.map(str::to_string),
            shard: Some(Shard::new(2, 3).unwrap()),
            ..MatchArgs::default()
        };
        for (games, sprt) in [(None, None), (None, Some("elo0=0,elo1=5"))] {
            let Err(Failure::Input(err)) = build_spec::<crate::chess::Game>(&args(games, sprt)) else {
                panic!("accepted")
            };
            assert!(err.to_string().starts_with("--shard 2/3: a shard plays a fixed part of the schedule"), "{err}");
        }
        let spec = build_spec::<crate::chess::Game>(&args(Some(20), Some("elo0=0,elo1=5"))).ok().unwrap();
        assert_eq!(spec.shard, Some(Shard::new(2, 3).unwrap()));
        assert_eq!(spec.schedule().planned_pairs(), 3, "pairs 1, 4 and 7 of 10");
    }
}
