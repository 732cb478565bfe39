//! `arbiter match`: plays engine builds against each other in game pairs from an opening book, optionally until
//! an SPRT decides, writing `games.csv`, `games.pgn`, `summary.txt` and `summary.csv` into a run folder.
//!
//! The flags become a [`MatchPlan`](arbiter::runner::MatchPlan) (`match_plan::plan_of`), which [`arbiter::runner::run::run`] plays; `--resume DIR`
//! hands the folder to [`arbiter::runner::rundir::resume::resume`], which plays on from the plan in its `run.toml`. This
//! file parses, shows progress and prints.
//!
//! Exit codes (see [`arbiter::cli`]): 0 when the match finished (or the SPRT decided), 2 for bad input (flags,
//! engine configs, the opening file, an output folder that holds results), 1 when an engine failure stopped the
//! match (results already written stay written), 3 for a failure of the system (a disk error), and
//! [`EXIT_INTERRUPTED`] (130) when Ctrl-C or
//! SIGTERM stopped it: no new pair starts, the pairs in play finish (games still running after
//! [`ABANDON_AFTER`](arbiter::runner::scheduler::ABANDON_AFTER) are abandoned unrecorded: external engines get
//! `stop` and `quit`, and their process groups are killed), and the summary is written from the games recorded.
//! A second Ctrl-C kills every engine's process group and quits at once, without a summary. Details and limits:
//! `docs/engines.md`.

pub use super::EXIT_INTERRUPTED;
use super::{Failure, exit_code, install_interrupt_handler};
use arbiter::runner::MatchState;
use arbiter::runner::run::{ResumeOverrides, RunEnd, RunError, RunObserver, RunStart};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::Write as _;
use std::sync::atomic::AtomicBool;

pub use super::match_plan::MatchArgs;
use super::match_plan::plan_of;

/// The flags (long names) that may be given with `--resume`: every other flag of the run is the one recorded
/// in its `run.toml`. `--recover` (restart crashed engines) is listed ahead of the flag itself.
pub const RESUME_FLAGS: [&str; 3] = ["resume", "concurrency", "recover"];

/// The parser of `arbiter match` arguments on their own (without the program and subcommand names), as
/// main's parser reads them.
pub fn match_command() -> clap::Command {
    <MatchArgs as clap::Args>::augment_args(clap::Command::new("match").no_binary_name(true))
}

#[cfg(test)]
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

#[cfg(test)]
/// The first line of a clap error, without its `error: ` prefix.
pub fn clap_error_text(error: &clap::Error) -> String {
    let text = error.to_string();
    let line = text.lines().next().unwrap_or("");
    line.strip_prefix("error: ").unwrap_or(line).to_string()
}

/// The flags given on the command line in `matches` (by long name, as `--name`) that [`RESUME_FLAGS`] does not
/// allow with `--resume`.
pub fn flags_refused_with_resume(matches: &clap::ArgMatches) -> Vec<String> {
    super::flags_given_except(matches, &match_command(), &RESUME_FLAGS)
}

/// The failure of a run error: bad input, or a failure of the system.
fn run_failure(error: RunError) -> Failure {
    if error.is_input() { Failure::Input(error.into()) } else { Failure::System(error.into()) }
}

/// Set by the Ctrl-C/SIGTERM handler of `arbiter match`.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Runs a match; returns the exit code (0 finished or decided, 2 bad input, 1 a failure,
/// [`EXIT_INTERRUPTED`] stopped by Ctrl-C or SIGTERM). `given` is clap's record of the `match` arguments (which
/// flags the command line gave, for `--resume`). Errors are printed to stderr here, so the `Err` case is not
/// used.
///
/// # Errors
/// None in practice; the signature matches the other subcommands.
pub fn run(args: MatchArgs, given: &clap::ArgMatches) -> anyhow::Result<i32> {
    install_interrupt_handler("match", &INTERRUPTED);
    Ok(exit_code(run_inner(args, given, &INTERRUPTED)))
}

/// Plays the match of `args`, or resumes the run of `--resume`, and prints the outcome.
fn run_inner(args: MatchArgs, given: &clap::ArgMatches, interrupt: &AtomicBool) -> Result<i32, Failure> {
    let ended = match &args.resume {
        Some(dir) => {
            let refused = flags_refused_with_resume(given);
            if !refused.is_empty() {
                return Err(anyhow::anyhow!(
                    "--resume: {} cannot be given with --resume: the run keeps the flags recorded in its run.toml \
                     (only --concurrency and --recover may be given)",
                    refused.join(", ")
                )
                .into());
            }
            let overrides = ResumeOverrides { concurrency: args.concurrency, recover: args.recover };
            arbiter::runner::rundir::resume::resume(dir, overrides, &mut Progress::default(), interrupt)
        }
        None => {
            let plan = plan_of(&args)?;
            arbiter::runner::run::run(&plan, &mut Progress::default(), interrupt)
        }
    };
    match ended.map_err(run_failure)? {
        RunEnd::NotStarted => {
            super::stderr_line(format_args!(
                "arbiter match: interrupted before the match started; nothing was written"
            ));
            Ok(EXIT_INTERRUPTED)
        }
        RunEnd::Played(run) => {
            let dir = run.dir.display();
            super::stdout_text(format_args!("{}", run.summary));
            super::stdout_text(format_args!("\nResults: {dir}\n"));
            // The charts are a view of games.csv: a failure to draw them loses nothing, so it is a warning.
            match &run.charts {
                Ok(files) if !files.is_empty() => {
                    let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
                    super::stderr_line(format_args!("arbiter match: charts {}", names.join(", ")));
                }
                Ok(_) => {}
                Err(error) => super::stderr_line(format_args!("warning: charts not written: {error}")),
            }
            let state = &run.state;
            if let Some(failure) = &state.failure
                && state.failure_is_input
            {
                return Err(Failure::Input(anyhow::anyhow!("the match stopped: {failure}")));
            }
            if let Some(failure) = &state.failure {
                return Err(Failure::Internal(anyhow::anyhow!(
                    "the match stopped: {failure} (continue it with `arbiter match --resume {dir}`)"
                )));
            }
            if let Some(halted) = &state.halted {
                return Err(Failure::Internal(anyhow::anyhow!(
                    "the match stopped: {halted} (continue it with `arbiter match --resume {dir} --recover`)"
                )));
            }
            if state.interrupted {
                super::stderr_line(format_args!(
                    "arbiter match: interrupted; {} games recorded and summarized in {dir} (exit code \
                     {EXIT_INTERRUPTED}); continue with `arbiter match --resume {dir}`",
                    state.tally.games
                ));
                return Ok(EXIT_INTERRUPTED);
            }
            Ok(0)
        }
    }
}

/// The progress bar on stderr: games done / total, W/D/L, Elo with its interval and the LLR of the first
/// pairing; and the reports on stdout when the runner hands them over, printed with the bar hidden.
#[derive(Default)]
struct Progress {
    bar: Option<ProgressBar>,
    two_engines: bool,
}

impl Progress {
    /// Runs `f` with the bar hidden.
    fn suspended(&self, f: impl FnOnce()) {
        match &self.bar {
            Some(bar) => bar.suspend(f),
            None => f(),
        }
    }
}

impl RunObserver for Progress {
    fn note(&mut self, text: &str) {
        self.suspended(|| super::stderr_line(format_args!("{text}")));
    }

    fn started(&mut self, start: &RunStart) {
        let template = if start.until_decided {
            "{elapsed_precise} {pos} games (SPRT, at most {len}) {msg}"
        } else {
            "{elapsed_precise} [{bar:30}] {pos}/{len} games {msg}"
        };
        let style = ProgressStyle::with_template(template).expect("the template is valid").progress_chars("=> ");
        let bar = ProgressBar::new(start.games_total).with_style(style);
        bar.set_position(start.games_done);
        self.bar = Some(bar);
        self.two_engines = start.two_engines;
    }

    fn game_finished(&mut self, state: &MatchState, report: Option<&str>) {
        let Some(bar) = &self.bar else { return };
        bar.set_position(state.tally.games);
        if let Some(report) = report {
            bar.suspend(|| {
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
            let llr = arbiter::stats::Figure::of(sprt.llr, "a hypothesis gives the results seen probability 0");
            msg.push_str(&format!(" | LLR {} [{:.2}, {:.2}]", llr.fixed(2), sprt.lower, sprt.upper));
        }
        bar.set_message(msg);
    }

    fn message(&mut self, text: &str) {
        self.note(text);
    }

    fn finished(&mut self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::error_text;
    use arbiter::engine::Build;
    use arbiter::engine::chess::EngineConfig;
    use arbiter::game::Game;
    use arbiter::notation::kv::KeyValueError;
    use arbiter::player::EngineKind;
    use arbiter::player::spec::{EngineArgError, parse_engine};
    use arbiter::runner::plan::{DEFAULT_NODES, MAX_NAME_CHARS, parse_sprt};
    use arbiter::runner::plan::{PlanError, parse_mem_total};
    use arbiter::runner::{MatchLength, OpeningOrder, Shard, Tournament, Variant};
    use arbiter::runner::{MatchSpec, load_openings};
    use arbiter::stats::EloModel;
    use std::path::Path;
    use std::path::PathBuf;

    /// The flags' match as `arbiter match` builds it: the plan, then its spec.
    fn build_spec<G: Game>(args: &MatchArgs) -> Result<MatchSpec<G>, Failure> {
        plan_of(args)?.spec::<G>().map_err(input)
    }

    fn input(error: PlanError) -> Failure {
        Failure::Input(error.into())
    }

    fn check_run_name(name: &str) -> Result<(), Failure> {
        arbiter::runner::plan::check_run_name(name).map_err(input)
    }

    fn check_hash_memory<G: Game>(spec: &MatchSpec<G>, memory_mib: Option<u64>) -> Result<(), Failure> {
        arbiter::runner::plan::check_hash_memory(spec, memory_mib).map_err(input)
    }

    fn config_dir() -> PathBuf {
        let dir = std::env::temp_dir().join(format!("arbiter-match-cmd-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn engines_from_builtins_and_configs() {
        let seed = parse_engine("name=seed").unwrap();
        assert_eq!(seed.name, "seed");
        assert_eq!(seed.source(), "built-in");
        let nomob = parse_engine("name=nomob").unwrap();
        let EngineKind::Builtin(Build::Chess(config)) = &nomob.kind else { panic!("nomob is built in") };
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
        let EngineKind::Builtin(Build::Chess(loaded)) = &spec.kind else { panic!("a config build") };
        assert_eq!(loaded.weights.bishop_pair, 7);
        assert_eq!(loaded.name, "other");
    }

    #[test]
    fn engine_errors_name_the_key_or_file() {
        let err = parse_engine("name=seed,hash=16").unwrap_err().to_string();
        assert_eq!(
            err,
            "--engine: unknown key `hash`, expected one of: name, bench, config, cmd, args, dir, proto, restart, tc, st, \
             nodes, depth, timemargin, option.*"
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
        let spec = build_spec::<arbiter::chess::ChessGame>(&args).ok().unwrap();
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
        assert_eq!(build_spec::<arbiter::chess::ChessGame>(&args(4, 16)).ok().unwrap().concurrency, 2);
        assert_eq!(build_spec::<arbiter::chess::ChessGame>(&args(100, 3)).ok().unwrap().concurrency, 3);
        assert_eq!(build_spec::<arbiter::chess::ChessGame>(&args(5000, 1024)).ok().unwrap().concurrency, 1024);
        let Err(Failure::Input(err)) = build_spec::<arbiter::chess::ChessGame>(&args(5000, 1025)) else {
            panic!("accepted")
        };
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
        let build = |args: MatchArgs| match build_spec::<arbiter::chess::ChessGame>(&args) {
            Ok(spec) => Ok(spec),
            Err(Failure::Input(e) | Failure::Internal(e) | Failure::System(e)) => Err(e.to_string()),
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
        let spec = build_spec::<arbiter::chess::ChessGame>(&args).ok().unwrap();
        assert_eq!((spec.tournament, spec.swap, spec.variant), (Tournament::Gauntlet, false, Variant::Chess960));
        assert_eq!(spec.schedule().pairings, [(0, 1), (0, 2)]);
        assert!(spec.openings[0].start.is_chess960());
        let args = MatchArgs { variant: Variant::Standard, ..args };
        let Err(Failure::Input(err)) = build_spec::<arbiter::chess::ChessGame>(&args) else {
            panic!("a Chess960 book read as standard chess")
        };
        assert!(error_text(&err).contains("need Chess960 mode"), "{err}");
    }

    #[test]
    fn spec_defaults_and_conflicts() {
        let book = config_dir().join("book.epd");
        std::fs::write(&book, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\n").unwrap();
        let args = MatchArgs { openings: Some(book.clone()), ..MatchArgs::default() };
        let spec = build_spec::<arbiter::chess::ChessGame>(&args).ok().unwrap();
        assert_eq!(spec.engines.iter().map(|e| e.name.as_str()).collect::<Vec<_>>(), ["seed", "nomob"]);
        assert!(spec.engines.iter().all(|e| e.limit.nodes == Some(DEFAULT_NODES)));
        assert_eq!(spec.length, MatchLength::UntilDecided);
        let sprt = spec.sprt.unwrap();
        assert_eq!((sprt.elo0(), sprt.elo1()), (0.0, 10.0));

        let args = MatchArgs { openings: Some(book.clone()), games: Some(5), ..MatchArgs::default() };
        let spec = build_spec::<arbiter::chess::ChessGame>(&args).ok().unwrap();
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
        let spec = build_spec::<arbiter::chess::ChessGame>(&args).ok().unwrap();
        assert_eq!(spec.length, MatchLength::EachOpening);
        assert!(spec.sprt.is_none());
        let args = MatchArgs {
            openings: Some(book.clone()),
            engines: three,
            sprt: Some("elo0=0,elo1=5".into()),
            ..MatchArgs::default()
        };
        assert!(matches!(build_spec::<arbiter::chess::ChessGame>(&args), Err(Failure::Input(_))));
        let args = MatchArgs {
            openings: Some(book.clone()),
            engines: vec!["name=seed".into(), "name=seed".into()],
            ..MatchArgs::default()
        };
        assert!(
            matches!(build_spec::<arbiter::chess::ChessGame>(&args), Err(Failure::Input(e)) if e.to_string().contains("used twice"))
        );
        let args = MatchArgs { openings: Some(book), plies: Some(4), ..MatchArgs::default() };
        assert!(
            matches!(build_spec::<arbiter::chess::ChessGame>(&args), Err(Failure::Input(e)) if e.to_string().contains("--plies"))
        );
        let pgn = config_dir().join("book.pgn");
        std::fs::write(&pgn, "[Event \"a\"]\n\n1. e4 e5 *\n").unwrap();
        let args = MatchArgs { openings: Some(pgn), plies: Some(0), ..MatchArgs::default() };
        assert!(
            matches!(build_spec::<arbiter::chess::ChessGame>(&args), Err(Failure::Input(e)) if e.to_string() == "--plies must be at least 1")
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
            let Err(Failure::Input(err)) = build_spec::<arbiter::chess::ChessGame>(&args(games, sprt)) else {
                panic!("accepted")
            };
            assert!(err.to_string().starts_with("--shard 2/3: a shard plays a fixed part of the schedule"), "{err}");
        }
        let spec = build_spec::<arbiter::chess::ChessGame>(&args(Some(20), Some("elo0=0,elo1=5"))).ok().unwrap();
        assert_eq!(spec.shard, Some(Shard::new(2, 3).unwrap()));
        assert_eq!(spec.schedule().planned_pairs(), 3, "pairs 1, 4 and 7 of 10");
    }
}
