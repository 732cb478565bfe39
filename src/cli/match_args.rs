//! The flags of `arbiter match` ([`MatchArgs`], with [`LimitArgs`] and [`AdjudicationArgs`], which `arbiter spsa`
//! shares): what clap reads; `match_plan::plan_of` turns them into a plan.

use arbiter::games::GameKind;
use arbiter::runner::comments::CommentFields;
use arbiter::runner::plan::{DEFAULT_RATING_INTERVAL, DEFAULT_SEED};
use arbiter::runner::report::formats::ReportFormat;
use arbiter::runner::{OpeningOrder, Shard, Tournament, Variant};
use arbiter::tablebase::adjudicate::{TablebasePlan, TbAdjudicate};
use std::path::PathBuf;

/// Whether `games.pgn` holds a comment after each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum PgnComments {
    /// `{book}` after book moves, `{score/depth}` (cutechess style, `+0.35/12`) after engine moves.
    #[default]
    On,
    /// No comments (cutechess-cli's minimal PGN, `-pgnout FILE min`).
    Off,
}

/// Flags of `arbiter match`.
///
/// Without flags: the built-in `seed` against `nomob` (the seed without mobility) on the default book
/// (`suites/openings/arbiter-book.epd`), 5000 nodes per move, one game per core, until an SPRT with nElo
/// [0, 10] decides.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct MatchArgs {
    /// An engine: a built-in build `name=NAME[,config=FILE.toml]` (without `config=` the name must be built in:
    /// `seed` or `nomob`), or an external UCI engine `name=NAME,cmd=PROGRAM[,args=A B][,dir=DIR]
    /// [,option.NAME=VALUE]...[,restart=on]`; either with its own limits `tc=40/60+0.6|10+0.1|1:30+1|inf`, `st=SECONDS`,
    /// `nodes=N`, `depth=N`, `timemargin=MS`; and `bench=N`, its bench signature, checked before the match (a
    /// mismatch refuses it, exit 2). Give it two or more times; more than two play a round robin.
    /// Values of cmd, args, dir, config and option.NAME may be quoted as in a shell to hold commas
    /// (`option.SyzygyPath="/a,/b"`, `args="--threads 1 'a b'"`). An external engine needs a limit, and every
    /// option.NAME must be one it lists (see --allow-unknown-options). Default: `--engine name=seed --engine
    /// name=nomob`.
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

    /// Send an external engine an option.NAME it does not list (with a warning); without it such an option
    /// (often a typo) refuses the match before any game, suggesting the closest names the engine lists.
    #[arg(long)]
    pub allow_unknown_options: bool,

    /// Check every engine's `bench=N` signature again at each worker's first start of the engine (it is always
    /// checked once before the match); a wrong signature stops the match (exit 2).
    #[arg(long)]
    pub bench_check: bool,

    /// Scale every time control (tc base and increment, st) by REF / the nps measured now by the first engine's
    /// bench, as fishtest and OpenBench do, so that results compare across machines; nodes and depth are kept.
    /// The scaled limits are recorded in run.toml, and a resume keeps them. Refused (exit 2) when no engine
    /// has a time limit.
    #[arg(value_parser = crate::cli::args::int_in(1u64, 1_000_000_000_000), long, value_name = "REF")]
    pub tc_scale_nps: Option<u64>,

    /// Whose bench scales the time controls under --tc-scale-nps, as OpenBench's scale method: first (DEV),
    /// second (BASE) or both (the mean of the two factors).
    #[arg(long, value_name = "WHO", default_value = "first", value_parser = scale_by, requires = "tc_scale_nps")]
    pub tc_scale_by: arbiter::runner::plan::ScaleBy,

    /// Refuse the run (exit 2) when a bench of --tc-scale-nps measures fewer nodes per second than N: the
    /// machine is too slow for the time control, as fishtest refuses a slow worker.
    #[arg(value_parser = crate::cli::args::int_in(1u64, 1_000_000_000_000), long, value_name = "N", requires = "tc_scale_nps")]
    pub min_nps: Option<u64>,

    /// Time an external engine has to answer `uci` and the first `isready`, in milliseconds.
    #[arg(value_parser = crate::cli::args::timeout_ms, long, value_name = "MS", default_value_t = arbiter::player::uci::DEFAULT_HANDSHAKE_TIMEOUT_MS)]
    pub handshake_timeout_ms: u64,

    /// Time an external engine has to answer `isready` before a game and `stop` when out of time, in
    /// milliseconds; no answer is a stall (a loss).
    #[arg(value_parser = crate::cli::args::timeout_ms, long, value_name = "MS", default_value_t = arbiter::player::uci::DEFAULT_PING_TIMEOUT_MS)]
    pub ping_timeout_ms: u64,

    /// Longest search of an external engine under node or depth limits only, in milliseconds; longer is a
    /// stall (a loss).
    #[arg(value_parser = crate::cli::args::timeout_ms, long, value_name = "MS", default_value_t = arbiter::player::uci::DEFAULT_STALL_TIMEOUT_MS)]
    pub stall_timeout_ms: u64,

    /// Write every line sent to and read from every engine to FILE (`-` for standard output), each stamped with
    /// the seconds since the start, the game number and the engine's name and process id (`>` sent, `<` its
    /// stdout, `!` its stderr), flushed at once; at most --log-limit bytes.
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,

    /// The most bytes --log writes; a last line then says the bound was reached.
    #[arg(long, value_name = "BYTES", default_value_t = arbiter::uci::log::DEFAULT_MAX_BYTES, requires = "log")]
    pub log_limit: u64,

    /// Opening file: EPD (one position per line) or PGN (see --plies), as a plain path or in cutechess form
    /// `file=PATH[,format=epd|pgn][,order=random|sequential][,plies=N][,start=N]` (`start`: the 1-based number
    /// of the first opening played in the playing order; the openings before it are played last when the
    /// openings are cycled, so with order=random, `start=N` skips the first N-1 openings of the shuffled
    /// order). Each opening is played as a game pair. `startpos` (when no file of that name exists) plays every
    /// game from the start position. Default: suites/openings/arbiter-book.epd.
    #[arg(long, value_name = "FILE|SPEC")]
    pub openings: Option<PathBuf>,

    /// For PGN openings: play the first N plies of each game as the book (default: the whole game). Same as
    /// `plies=` of --openings.
    #[arg(value_parser = crate::cli::args::int_in(0u32, 10_000), long, value_name = "N")]
    pub plies: Option<u32>,

    /// Opening order: file order, or shuffled by --seed (default: random). Same as `order=` of --openings.
    #[arg(long, value_parser = crate::cli::args::opening_order())]
    pub order: Option<OpeningOrder>,

    /// Seed of the random opening order (the same seed gives the same order).
    #[arg(long, value_name = "S", default_value_t = DEFAULT_SEED)]
    pub seed: u64,

    /// The game: chess, or Xiangqi (built-in builds `seed` and `nopsqt`, `config=` a Xiangqi config such as
    /// configs/xiangqi/seed.toml, `cmd=` a UCI engine with `UCI_Variant` xiangqi such as fairy-stockfish; default
    /// book suites/openings/xiangqi-book.epd; games.pgn with `[Variant "xiangqi"]` and coordinate moves).
    #[arg(long, value_parser = crate::cli::args::game(), default_value = "chess")]
    pub game: GameKind,

    /// The variant: standard chess, or Chess960 (also double Fischer random books): opening FENs are read with
    /// X-FEN or Shredder-FEN castling, games are written with `[Variant "chess960"]`.
    #[arg(long, value_parser = crate::cli::args::variant(), default_value = "standard")]
    pub variant: Variant,

    /// How the engines are paired: every engine against every other (round-robin), or the first engine against
    /// each of the others (gauntlet: pairings first-second, first-third, ...).
    #[arg(long, value_parser = crate::cli::args::tournament(), default_value = "round-robin")]
    pub tournament: Tournament,

    /// A gauntlet's seeds: the first N engines each play every other engine; the others do not meet
    /// (cutechess-cli's -seeds N; default 1).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub seeds: Option<u32>,

    /// A gauntlet's seeds play one another too, each the engines after it (fastchess's -seeds N).
    #[arg(long = "seeds-meet")]
    pub seeds_meet: bool,

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

    /// What the comment after an engine's move holds, a comma-separated list of score, depth, time (the
    /// default: `{+0.35/12 0.123s}`, cutechess-cli's), timeleft, latency, nodes, seldepth, nps, hashfull, tbhits,
    /// pv (fastchess's `tl=`, `latency=`, `n=`, `sd=`, `nps=`, `hashfull=`, `tbhits=`, `pv="..."`), or none.
    #[arg(long = "pgn-fields", value_name = "FIELDS")]
    pub pgn_fields: Option<CommentFields>,

    /// Games played at once, 1 to 1024 (default: the number of cores); never more than the pairs to play.
    #[arg(long, value_name = "N")]
    pub concurrency: Option<u32>,

    /// Play each pair with reversed sides: the pairing's second engine has White first (cutechess-cli's and
    /// fastchess's -reverse). Statistics stay from the first engine's view.
    #[arg(long)]
    pub reverse: bool,

    /// Milliseconds each concurrent game slot waits after a game before it starts the next (-wait).
    #[arg(value_parser = crate::cli::args::int_in(0u64, 3_600_000), long, value_name = "MS", default_value_t = 0)]
    pub wait: u64,

    /// The PGN Event tag (default: the run name, else `arbiter match`).
    #[arg(long, value_name = "TEXT", value_parser = crate::cli::args::tag_text)]
    pub event: Option<String>,

    /// The PGN Site tag (default: `arbiter`).
    #[arg(long, value_name = "TEXT", value_parser = crate::cli::args::tag_text)]
    pub site: Option<String>,

    /// Also append every game to FILE (beside the run folder's games.pgn), as cutechess-cli's -pgnout: `min`
    /// writes the minimal PGN (seven tags, no comments); `fi` (finished games only) is what Arbiter always
    /// does, as games cut short by an interrupt are never written.
    #[arg(long, num_args = 1..=3, value_names = ["FILE", "min", "fi"])]
    pub pgnout: Vec<String>,

    /// The reports printed every --ratinginterval games: both (cutechess-cli's and fastchess's blocks for every
    /// pairing), cutechess (its score block, or its rank table for more than two engines) or fastchess (its block,
    /// counting the games of complete pairs).
    #[arg(long, value_name = "FORMAT", default_value = "both", value_parser = report_format)]
    pub report_format: ReportFormat,

    /// What stdout gets at the end: text (the summary) or json (one object, summary.json's, every figure at full
    /// precision; the periodic reports then go to stderr).
    #[arg(long, value_enum, default_value_t = crate::cli::args::OutputFormat::Text)]
    pub format: crate::cli::args::OutputFormat,

    /// Exit with the SPRT's verdict, for CI to gate on: 0 when H1 was accepted, 10 when H0 was accepted, 11 when
    /// the match ended undecided (or has no SPRT); the failure codes (1, 2, 3, 130) stay as they are.
    #[arg(long)]
    pub verdict_exit: bool,

    /// Pin each concurrent game's engines to their own share of the CPUs before they start (fastchess's
    /// -use-affinity): of CPUS (`3,5,7-11`), or without a value of every CPU Arbiter may use. Each game slot
    /// gets CPUs / concurrency of them (at least one).
    #[arg(long, num_args = 0..=1, value_name = "CPUS", default_missing_value = "")]
    pub affinity: Option<String>,

    /// Append the final position of every game to FILE, one FEN per line (cutechess-cli's -epdout).
    #[arg(long, value_name = "FILE")]
    pub epdout: Option<PathBuf>,

    /// The move limits every engine gets where its spec sets none.
    #[command(flatten)]
    pub limits: LimitArgs,

    /// Adjudication.
    #[command(flatten)]
    pub adjudication: AdjudicationArgs,

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

    /// Play the whole match of FILE, a TOML plan in the form a run folder records it: a run folder's run.toml
    /// (to repeat or edit a run), or its [plan] keys alone. The run gets a new folder under the plan's results
    /// folder (or --out); only --out, --concurrency, --recover, --format and --verdict-exit may be given too.
    #[arg(long, value_name = "FILE", conflicts_with = "resume")]
    pub config: Option<PathBuf>,

    /// Play shard I of N (1-based: 1/8 to 8/8): the game pairs k (0-based) with k mod N = I-1. Needs a fixed
    /// length (--games or --rounds). With --sprt, the shards of one run (sibling folders `RUN/shard-I`) take the SPRT
    /// together over all their pairs and all stop when it decides (RUN/decision.toml). Combine the shards with
    /// `arbiter merge`.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,
}

/// The move limits of `--nodes`, `--depth` and `--movetime-ms`, for the engines whose spec sets none (shared by
/// `arbiter match` and `arbiter spsa`).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct LimitArgs {
    /// Nodes per move (default for the built-in engines when no limit is given: 5000; an external engine
    /// without a limit is refused).
    #[arg(value_parser = crate::cli::args::nodes, long, value_name = "N")]
    pub nodes: Option<u64>,

    /// Search depth per move, in plies.
    #[arg(value_parser = crate::cli::args::depth, long, value_name = "PLIES")]
    pub depth: Option<u32>,

    /// Thinking time per move, in milliseconds (games are then not reproducible); like `--each st=`.
    #[arg(value_parser = crate::cli::args::timeout_ms, long = "movetime-ms", value_name = "MS")]
    pub movetime_ms: Option<u64>,
}

/// The adjudication flags `--draw`, `--resign` and `--maxmoves` (shared by `arbiter match` and `arbiter spsa`).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct AdjudicationArgs {
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

    /// Syzygy tablebase adjudication from the tables in these folders (separated by ':', as cutechess-cli's and
    /// fastchess's -tb): a game whose position after a move is in the tables (no castling rights, at most
    /// --tbpieces pieces) ends with their result, the 50-move rule included (docs/tablebases.md).
    #[arg(long, value_name = "PATH[:PATH...]")]
    pub tb: Option<String>,

    /// Adjudicate only positions with at most N pieces, kings included (default: the largest tables found).
    #[arg(long, value_name = "N", requires = "tb", value_parser = crate::cli::args::int_in(3u32, 32))]
    pub tbpieces: Option<u32>,

    /// Score cursed wins and blessed losses (won or lost only without the 50-move rule) as wins and losses.
    #[arg(long, requires = "tb")]
    pub tbignore50: bool,

    /// Which results the tables may give: both (default), win-loss (decisive only: a drawn position plays on) or
    /// draw (draws only), as fastchess's -tbadjudicate.
    #[arg(long, value_name = "MODE", requires = "tb", value_parser = tb_mode)]
    pub tbadjudicate: Option<TbAdjudicate>,
}

impl AdjudicationArgs {
    /// The tablebase part of the plan, with relative folders made absolute against `cwd`.
    pub fn tablebase(&self, cwd: &std::path::Path) -> Option<TablebasePlan> {
        let paths = self.tb.as_deref()?.split(':').filter(|p| !p.is_empty());
        Some(TablebasePlan {
            paths: paths.map(|p| arbiter::player::plan::absolute(std::path::Path::new(p), cwd)).collect(),
            pieces: self.tbpieces,
            ignore50: self.tbignore50,
            adjudicate: self.tbadjudicate.unwrap_or_default(),
        })
    }
}

fn scale_by(text: &str) -> Result<arbiter::runner::plan::ScaleBy, String> {
    arbiter::runner::plan::ScaleBy::parse(text)
        .ok_or_else(|| format!("expected one of {}", arbiter::runner::plan::ScaleBy::NAMES.join(", ")))
}

fn report_format(text: &str) -> Result<ReportFormat, String> {
    ReportFormat::parse(text).ok_or_else(|| format!("expected one of {}", ReportFormat::NAMES.join(", ")))
}

fn tb_mode(text: &str) -> Result<TbAdjudicate, String> {
    TbAdjudicate::parse(text).ok_or_else(|| format!("expected one of {}", TbAdjudicate::NAMES.join(", ")))
}
