//! The plan of the flags of `arbiter match` (`match_args`): [`plan_of`] turns them into a [`MatchPlan`]. Shared
//! by `arbiter match` and `arbiter spsa` (whose iterations are matches planned the same way: engines, limits,
//! openings, adjudication).

use super::Classify as _;
use super::Failure;
use arbiter::games::GameKind;
use arbiter::player::engine_arg::{EachArgs, parse_engine_plan};
use arbiter::player::timecontrol::TimeControl;
use arbiter::player::{EngineBuild, MoveLimit};
use arbiter::runner::plan::{MatchRequest, SprtPlan, absolute, parse_adjudication, parse_sprt, working_directory};
use arbiter::runner::{MatchPlan, OpeningsOption};

pub use super::match_args::{AdjudicationArgs, LimitArgs, MatchArgs, PgnComments};

/// The input error (exit 2) of `arbiter command --game russian|english`: checkers is not played.
pub(crate) fn refuse_checkers(game: GameKind, command: &'static str) -> Failure {
    Failure::Input(
        game.refuse_checkers(command).err().map_or_else(|| anyhow::anyhow!("--game {}", game.name()), Into::into),
    )
}

/// Turns the flags into a match plan: each `--engine` read into its plan once ([`parse_engine_plan`]), then
/// [`MatchPlan::with_defaults`] fills in what the flags leave out, as for a library caller; the flags that
/// only set a field of the plan set it. The plan is not yet validated ([`MatchPlan::validate`]) nor are the
/// openings read.
///
/// # Errors
/// A [`Failure::Input`] naming the flag.
pub(crate) fn plan_of(args: &MatchArgs) -> Result<MatchPlan, Failure> {
    if args.game.is_checkers() {
        return Err(refuse_checkers(args.game, "match"));
    }
    let cwd = working_directory().system()?;
    let each = EachArgs::parse(args.each.as_deref()).input()?;
    let mut engines = args
        .engines
        .iter()
        .map(|text| parse_engine_plan(text, &each, args.game, &cwd))
        .collect::<Result<Vec<_>, _>>()
        .input()?;
    for engine in &mut engines {
        if let EngineBuild::Uci(uci) = &mut engine.build {
            uci.handshake_timeout_ms = args.handshake_timeout_ms;
            uci.ping_timeout_ms = args.ping_timeout_ms;
            uci.stall_timeout_ms = args.stall_timeout_ms;
            uci.allow_unknown_options |= args.allow_unknown_options;
        }
    }
    let tc = match &args.tc {
        Some(text) => Some(TimeControl::parse(text).map_err(|e| anyhow::anyhow!("--tc: {e}")).input()?),
        None => None,
    };
    let limits = &args.limits;
    let openings = match &args.openings {
        Some(path) => Some(match path.to_str() {
            Some(text) => OpeningsOption::parse(text).input()?,
            None => {
                OpeningsOption { file: path.clone(), format: None, order: None, plies: None, start: None, depth: None }
            }
        }),
        None => None,
    };
    let given = openings.as_ref().map_or((None, None), |book| (book.plies, book.order));
    let plies = one_of("--plies", args.plies.map(|p| p as usize), "plies", given.0)?;
    let order = one_of("--order", args.order, "order", given.1)?;
    let request = MatchRequest {
        game: args.game,
        engines,
        limit: MoveLimit {
            tc,
            nodes: limits.nodes,
            depth: limits.depth,
            movetime_ms: limits.movetime_ms,
            timemargin_ms: 0,
        },
        openings,
        sprt: args.sprt.as_deref().map(parse_sprt).transpose().input()?.as_ref().map(SprtPlan::of),
        games: args.games,
        rounds: args.rounds,
    };
    let mut plan = MatchPlan::with_defaults(request, &cwd).input()?;
    if let Some(reference) = args.tc_scale_nps {
        plan.tc_scale = Some(super::match_extras::scale_time_controls(&mut plan, reference, args)?);
    }
    plan.openings.plies = plies;
    if let Some(order) = order {
        plan.openings.order = order;
    }
    plan.adjudication = parse_adjudication(
        args.adjudication.draw.as_deref(),
        args.adjudication.resign.as_deref(),
        args.adjudication.maxmoves,
    )
    .input()?;
    plan.tablebase = args.adjudication.tablebase(&cwd);
    plan.variant = args.variant;
    plan.seed = args.seed;
    plan.tournament = args.tournament;
    plan.seeds = args.seeds.unwrap_or(1);
    plan.seeds_meet = args.seeds_meet;
    plan.swap = !args.noswap;
    plan.shard = args.shard;
    plan.concurrency = args.concurrency;
    plan.recover = args.recover;
    plan.bench_check = args.bench_check;
    plan.output.out = args.out.as_deref().map(|out| absolute(out, &cwd));
    plan.output.name = args.name.clone();
    plan.output.pgn_comments = args.pgn_comments == PgnComments::On;
    if let Some(fields) = args.pgn_fields {
        plan.output.pgn_fields = fields;
    }
    plan.output.rating_interval = args.rating_interval;
    super::match_extras::set_extras(args, &mut plan, &cwd).input()?;
    Ok(plan)
}

/// The value given by a flag or by the matching key of `--openings` (they must agree when both are given).
fn one_of<T: PartialEq + std::fmt::Debug + Copy>(
    flag: &str,
    from_flag: Option<T>,
    key: &str,
    from_openings: Option<T>,
) -> Result<Option<T>, Failure> {
    match (from_flag, from_openings) {
        (Some(a), Some(b)) if a != b => Err(Failure::Input(anyhow::anyhow!(
            "{flag} {} conflicts with --openings {key}={}; give one of them",
            value_text(a),
            value_text(b)
        ))),
        (a, b) => Ok(a.or(b)),
    }
}

/// A flag value as the user typed it: `Random` becomes `random`.
fn value_text<T: std::fmt::Debug>(value: T) -> String {
    format!("{value:?}").to_ascii_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::error_text;
    use arbiter::engine::chess::EngineConfig;
    use arbiter::game::Game;
    use arbiter::runner::MatchSpec;
    use arbiter::runner::plan::DEFAULT_NODES;
    use arbiter::runner::plan::parse_mem_total;
    use arbiter::runner::{MatchLength, OpeningOrder, Shard, Tournament, Variant};
    use std::path::PathBuf;

    /// The flags' match as `arbiter match` builds it: the plan, then its spec.
    fn build_spec<G: Game>(args: &MatchArgs) -> Result<MatchSpec<G>, Failure> {
        plan_of(args)?.spec::<G>().input()
    }

    fn check_hash_memory<G: Game>(spec: &MatchSpec<G>, memory_mib: Option<u64>) -> Result<(), Failure> {
        arbiter::runner::plan::check_hash_memory(spec, memory_mib).input()
    }

    fn config_dir() -> PathBuf {
        let dir = std::env::temp_dir().join(format!("arbiter-match-plan-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
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
        let err = error_text(&err);
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
        assert_eq!(error_text(&err), "--concurrency 1025: at most 1024 games at once");
    }

    #[test]
    fn openings_key_values_and_flags() {
        let pgn = config_dir().join("kv-book.pgn");
        std::fs::write(&pgn, "[Event \"a\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n[Event \"b\"]\n\n1. d4 d5 *\n").unwrap();
        let kv = |extra: &str| Some(PathBuf::from(format!("file={}{extra}", pgn.display())));
        let build = |args: MatchArgs| match build_spec::<arbiter::chess::ChessGame>(&args) {
            Ok(spec) => Ok(spec),
            Err(Failure::Input(e) | Failure::Internal(e) | Failure::System(e)) => Err(error_text(&e)),
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
            matches!(build_spec::<arbiter::chess::ChessGame>(&args), Err(Failure::Input(e)) if error_text(&e).contains("used twice"))
        );
        let args = MatchArgs { openings: Some(book), plies: Some(4), ..MatchArgs::default() };
        assert!(
            matches!(build_spec::<arbiter::chess::ChessGame>(&args), Err(Failure::Input(e)) if error_text(&e).contains("--plies"))
        );
        let pgn = config_dir().join("book.pgn");
        std::fs::write(&pgn, "[Event \"a\"]\n\n1. e4 e5 *\n").unwrap();
        let args = MatchArgs { openings: Some(pgn), plies: Some(0), ..MatchArgs::default() };
        assert!(
            matches!(build_spec::<arbiter::chess::ChessGame>(&args), Err(Failure::Input(e)) if error_text(&e) == "--plies must be at least 1")
        );
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
            assert!(error_text(&err).starts_with("--shard 2/3: a shard plays a fixed part of the schedule"), "{err}");
        }
        let spec = build_spec::<arbiter::chess::ChessGame>(&args(Some(20), Some("elo0=0,elo1=5"))).ok().unwrap();
        assert_eq!(spec.shard, Some(Shard::new(2, 3).unwrap()));
        assert_eq!(spec.schedule().planned_pairs(), 3, "pairs 1, 4 and 7 of 10");
    }
}
