//! The `arbiter` command line: clap parsing and dispatch only.

mod cli;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

/// Arbiter: perft, self-play matches decided by SPRT, and tuning for chess engines.
#[derive(Parser, Debug)]
#[command(name = "arbiter", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count perft nodes for a position, or check every count of an EPD suite.
    Perft(cli::perft::PerftArgs),
    /// Play a match between engine builds from an opening book, optionally until an SPRT decides.
    Match(Box<cli::match_cmd::MatchArgs>),
    /// A run's progress as it stands (games per shard, combined counts, Elo, LLR, decision), while it plays.
    Status(cli::status_cmd::StatusArgs),
    /// A read-only web view of the runs under results/ (or the given folders), live while they play.
    Serve(cli::serve_cmd::ServeArgs),
    /// Merge the run folders of a match's shards (arbiter match --shard I/N) into one set of results.
    Merge(cli::merge::MergeArgs),
    /// Generate Arbiter's own balanced opening book (random plies kept when the seed engine calls them equal).
    Book(cli::book::BookArgs),
    /// Show an engine build's weights, or the differences between two builds.
    Config(cli::config_cmd::ConfigArgs),
    /// Evaluate a position and show every term's contribution (mg, eg, phase).
    Eval(cli::eval_cmd::EvalArgs),
    /// What the Syzygy tables say about a position: WDL, DTZ, and the result tablebase adjudication gives.
    Tb(cli::tb_cmd::TbArgs),
    /// Serves tablebase probes to a parent arbiter (internal: see arbiter::tablebase::isolate_probes).
    #[command(name = "tb-prober", hide = true)]
    TbProber(cli::tb_cmd::ProberArgs),
    /// Check an external UCI engine before a long run: a compliance checklist with a reason per failed item.
    CheckEngine(cli::check_engine_cmd::CheckEngineArgs),
    /// Run cutechess-cli's command line (its options, its output lines) as `arbiter match`.
    #[command(disable_help_flag = true)]
    Cutechess(cli::compat::CompatArgs),
    /// Run fastchess's command line (its options, its output lines) as `arbiter match`.
    #[command(disable_help_flag = true)]
    Fastchess(cli::compat::CompatArgs),
    /// Run the built-in engine as a UCI engine on stdin/stdout.
    Uci(cli::uci_cmd::UciArgs),
    /// Search a fixed list of positions to a fixed depth; print the total node count (the signature) and nps.
    Bench(cli::bench::BenchArgs),
    /// Solve an EPD test suite (bm/am, STS point lists) and report per position and in total.
    Epd(cli::epd_cmd::EpdArgs),
    /// Rate every player of one or more games.csv files together: maximum-likelihood Elo, bootstrap intervals, LOS.
    Elo(cli::elo_cmd::EloArgs),
    /// SPRT and Elo report of counts or of a match's results (fishtest's and cutechess's models), and SPRT
    /// simulation (`arbiter sprt simulate`).
    Sprt(cli::sprt_cmd::SprtArgs),
    /// SPSA-tune any engine's parameters (UCI options, or the built-in engine's weights) by game pairs, as
    /// OpenBench and fishtest do; resumable; --validate proves the gain by SPRT.
    Spsa(Box<cli::spsa_cmd::SpsaArgs>),
    /// Texel-tune an engine build's weights on labelled positions (full-batch Adam on the sparse features).
    Tune(cli::tune_cmd::TuneArgs),
    /// Self-play games from random balanced openings, writing labelled positions (EPD with c9 results) for
    /// tuning.
    Datagen(cli::datagen::DatagenArgs),
    /// The checkers endgame base: build it by retrograde analysis, probe a position.
    Checkers(cli::checkers_cmd::CheckersArgs),
}

use std::io::Write as _;

fn main() {
    // Die quietly on a closed stdout (`arbiter perft ... | head`), as Unix filters do, instead of printing a
    // panic from println!. SIGPIPE itself stays ignored (Rust's default), so a crashed engine's closed pipe
    // remains an error the runner handles.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let text =
            payload.downcast_ref::<String>().map(String::as_str).or_else(|| payload.downcast_ref::<&str>().copied());
        if let Some(text) = text.filter(|t| t.starts_with("failed printing to stdout")) {
            if text.contains("Broken pipe") {
                std::process::exit(cli::EXIT_CLOSED_STDOUT);
            }
            // A full disk or a failing device under stdout is a failure of the system, not a bug (no backtrace).
            let _ = writeln!(std::io::stderr(), "error: {text}");
            std::process::exit(cli::EXIT_SYSTEM);
        }
        default_hook(info);
    }));
    // clap's record of what was given (`value_source`) goes with the parsed flags to the commands that refuse
    // flags under `--resume`.
    // Tablebase probes run in a child process of this binary, so that a damaged table cannot crash a match.
    if let Ok(program) = std::env::current_exe() {
        arbiter::tablebase::isolate_probes(program);
    }
    // The code path for this CPU (docs/benchmarks.md, "Code paths"): chosen once, before any hot loop
    // runs, and refused when wrong whichever command line follows.
    let path = arbiter::cpu::init().unwrap_or_else(|error| {
        let _ = writeln!(std::io::stderr(), "error: {error}");
        std::process::exit(cli::EXIT_USAGE);
    });
    // Called through a link named cutechess-cli or fastchess, Arbiter reads that tool's command line.
    let mut words = std::env::args_os();
    if let Some(tool) = words.next().as_deref().and_then(cli::compat::Tool::of_program) {
        let words: Vec<String> = words.map(|w| w.to_string_lossy().into_owned()).collect();
        std::process::exit(cli::exit_code(cli::compat::run(tool, &words)));
    }
    let version = format!("{} (code path {}: {})", env!("CARGO_PKG_VERSION"), path.name(), path.features());
    // One string for the life of the process (clap takes a static one without its `string` feature).
    let matches = Cli::command().version(&*Box::leak(version.into_boxed_str())).get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|error| error.exit());
    let given = |name: &str| matches.subcommand_matches(name).cloned().unwrap_or_default();
    let Some(command) = cli.command else {
        // No subcommand: speak UCI when a GUI pipes stdin, otherwise show the help.
        if !std::io::IsTerminal::is_terminal(&std::io::stdin()) {
            let code = cli::uci_cmd::run(cli::uci_cmd::UciArgs::default()).unwrap_or(2);
            std::process::exit(code);
        }
        let _ = Cli::command().print_help();
        std::process::exit(2);
    };
    let result = match command {
        Command::Perft(args) => cli::perft::run(args),
        Command::Match(args) => cli::match_cmd::run(*args, &given("match")),
        Command::Merge(args) => cli::merge::run(args),
        Command::Status(args) => cli::status_cmd::run(args),
        Command::Serve(args) => cli::serve_cmd::run(args),
        Command::Book(args) => cli::book::run(args),
        Command::Config(args) => cli::config_cmd::run(args),
        Command::Eval(args) => cli::eval_cmd::run(args),
        Command::Tb(args) => cli::tb_cmd::run(args),
        Command::TbProber(args) => cli::tb_cmd::serve(args),
        Command::CheckEngine(args) => cli::check_engine_cmd::run(args),
        Command::Cutechess(args) => cli::compat::run(cli::compat::Tool::Cutechess, &args.words),
        Command::Fastchess(args) => cli::compat::run(cli::compat::Tool::Fastchess, &args.words),
        Command::Uci(args) => cli::uci_cmd::run(args),
        Command::Bench(args) => cli::bench::run(args),
        Command::Epd(args) => cli::epd_cmd::run(args),
        Command::Elo(args) => cli::elo_cmd::run(args),
        Command::Sprt(args) => cli::sprt_cmd::run(args),
        Command::Spsa(args) => cli::spsa_cmd::run(*args, &given("spsa")),
        Command::Tune(args) => cli::tune_cmd::run(args),
        Command::Datagen(args) => cli::datagen::run(args),
        Command::Checkers(args) => Ok(cli::checkers_cmd::run(args.command)),
    };
    // Each command files its failure as bad input, a failed check or a failure of the system (`cli::Failure`).
    let code = cli::exit_code(result);
    if code == 0 && cli::stdout_failed() {
        let _ = writeln!(std::io::stderr(), "error: writing to stdout failed; the printed report is incomplete");
        std::process::exit(cli::EXIT_SYSTEM);
    }
    std::process::exit(code);
}
