//! `arbiter match`: plays engine builds against each other in game pairs from an opening book, optionally until
//! an SPRT decides, writing `games.csv`, `games.pgn`, `summary.txt` and `summary.csv` into a run folder.
//!
//! Exit codes: 0 when the match finished (or the SPRT decided), 2 for bad input (flags, engine configs, the
//! opening file, an existing output), 1 for an internal failure (results already written stay written).

use crate::engine::EngineConfig;
use crate::runner::{
    AdjudicationRules, DrawAdjudication, EngineSpec, GamePair, GameRecord, GameSettings, KeyValueError, KeyValues,
    MatchLength, MatchObserver, MatchSpec, MatchState, MoveLimit, OpeningOrder, ResignAdjudication, ResultSink,
    create_out_dir, create_run_dir, load_openings, run_match, summary_text, write_summary,
};
use crate::stats::{EloModel, SprtSpec};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// The default opening book, relative to the project root: the project's own balanced book.
pub const DEFAULT_BOOK: &str = "suites/openings/arbiter-book.epd";

/// The default node limit per move when no limit is given.
pub const DEFAULT_NODES: u64 = 5000;

/// The default seed of the random opening order.
pub const DEFAULT_SEED: u64 = 1;

/// The SPRT a two-engine match runs when neither `--sprt` nor a length is given: nElo [0, 10], alpha = beta =
/// 0.05.
pub const DEFAULT_SPRT: &str = "elo0=0,elo1=10";

/// Flags of `arbiter match`.
///
/// Without flags: the built-in `seed` against `nomob` (the seed without mobility) on the default book
/// (`suites/openings/arbiter-book.epd`), 5000 nodes per move, one game per core, until an SPRT with nElo
/// [0, 10] decides.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct MatchArgs {
    /// An engine build: `name=NAME[,config=FILE.toml]`. Give it two or more times; more than two play a round
    /// robin. Without `config=` the name must be a built-in build: `seed` or `nomob` (seed without mobility).
    /// Default: `--engine name=seed --engine name=nomob`.
    #[arg(long = "engine", value_name = "SPEC")]
    pub engines: Vec<String>,

    /// Opening file: EPD (one position per line) or PGN (see --plies). Each opening is played as a game pair
    /// with colours swapped. Default: suites/openings/arbiter-book.epd.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,

    /// For PGN openings: play the first N plies of each game as the book (default: the whole game).
    #[arg(long, value_name = "N")]
    pub plies: Option<u32>,

    /// Opening order: file order, or shuffled by --seed.
    #[arg(long, value_enum, default_value_t = OpeningOrder::Random)]
    pub order: OpeningOrder,

    /// Seed of the random opening order (the same seed gives the same order).
    #[arg(long, value_name = "S", default_value_t = DEFAULT_SEED)]
    pub seed: u64,

    /// Total games, rounded up to whole pairs.
    #[arg(long, value_name = "N", conflicts_with = "rounds")]
    pub games: Option<u64>,

    /// Game pairs per pairing. Without --games or --rounds: until the SPRT decides (at most 100000 games),
    /// or, without an SPRT, every opening once per pairing (at most 100000 games).
    #[arg(long, value_name = "N")]
    pub rounds: Option<u64>,

    /// Games played at once (default: the number of cores).
    #[arg(long, value_name = "N")]
    pub concurrency: Option<u32>,

    /// Nodes per move (default 5000 when no limit is given).
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,

    /// Search depth per move, in plies.
    #[arg(long, value_name = "PLIES")]
    pub depth: Option<u32>,

    /// Thinking time per move, in milliseconds (games are then not reproducible).
    #[arg(long = "movetime-ms", value_name = "MS")]
    pub movetime_ms: Option<u64>,

    /// Draw adjudication `movenumber=N,movecount=N,score=CP`: after N full moves, a draw when the last
    /// movecount scores (plies) all lie within CP centipawns of zero.
    #[arg(long, value_name = "SPEC")]
    pub draw: Option<String>,

    /// Resign adjudication `movecount=N,score=CP`: a side loses when its score was <= -CP for N consecutive
    /// own moves and its opponent's >= CP for its last N moves.
    #[arg(long, value_name = "SPEC")]
    pub resign: Option<String>,

    /// Draw when the game reaches N full moves (plies from the start position, book included, reach 2N).
    #[arg(long, value_name = "N")]
    pub maxmoves: Option<u32>,

    /// SPRT `elo0=E0,elo1=E1[,alpha=0.05][,beta=0.05][,model=normalized|logistic]` over game pairs, from the
    /// first engine's view; stops launching pairs once it decides. Two engines only. Default for two engines
    /// without --games/--rounds: elo0=0,elo1=10.
    #[arg(long, value_name = "SPEC")]
    pub sprt: Option<String>,

    /// Output folder (created if needed; refused if it already holds results). Default:
    /// `results/NAME-N` with NAME from --name or the UTC timestamp, and N the first free number.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,

    /// Name of the run: the stem of the default output folder and the PGN Event tag.
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
}

/// A failure of the command, split by exit code.
enum Failure {
    /// Bad input: exit 2.
    Input(anyhow::Error),
    /// Internal failure: exit 1.
    Internal(anyhow::Error),
}

impl<E: Into<anyhow::Error>> From<E> for Failure {
    fn from(error: E) -> Failure {
        Failure::Input(error.into())
    }
}

/// Runs a match; returns the exit code (0 finished or decided, 2 bad input, 1 internal failure). Errors are
/// printed to stderr here, so the `Err` case is not used.
///
/// # Errors
/// None in practice; the signature matches the other subcommands.
pub fn run(args: MatchArgs) -> anyhow::Result<i32> {
    match run_inner(args) {
        Ok(code) => Ok(code),
        Err(Failure::Input(error)) => {
            eprintln!("error: {error:#}");
            Ok(2)
        }
        Err(Failure::Internal(error)) => {
            eprintln!("error: {error:#}");
            Ok(1)
        }
    }
}

fn run_inner(args: MatchArgs) -> Result<i32, Failure> {
    if let Some(name) = &args.name
        && (name.is_empty() || name.starts_with('.') || name.contains(['/', '\\']))
    {
        return Err(
            anyhow::anyhow!("--name {name:?}: a run name is a folder name, without '/' or a leading '.'").into()
        );
    }
    let spec = build_spec(&args)?;

    let dir = match &args.out {
        Some(dir) => {
            create_out_dir(dir)?;
            dir.clone()
        }
        None => {
            let stem = args.name.clone().unwrap_or_else(|| crate::runner::output::timestamp(SystemTime::now()));
            create_run_dir(Path::new("results"), &stem).map_err(|e| Failure::Internal(e.into()))?
        }
    };
    let event = args.name.clone().unwrap_or_else(|| "arbiter match".to_string());
    let mut sink = ResultSink::create(&dir, &event)
        .map_err(|e| if e.is_exists() { Failure::Input(e.into()) } else { Failure::Internal(e.into()) })?;

    eprintln!(
        "arbiter match: {} on {} openings from {}, {} per move, concurrency {}, results in {}",
        spec.engines.iter().map(|e| e.name.as_str()).collect::<Vec<_>>().join(" vs "),
        spec.openings.len(),
        spec.openings_source,
        spec.settings.limit,
        spec.concurrency,
        dir.display()
    );
    let mut progress = Progress::new(&spec);
    let state = run_match(&spec, &mut sink, &mut progress);
    progress.bar.finish_and_clear();

    let summary = summary_text(&spec, &state);
    print!("{summary}");
    println!("\nResults: {}", dir.display());
    write_summary(&dir, &spec, &state).map_err(|e| Failure::Internal(e.into()))?;
    match &state.failure {
        Some(failure) => Err(Failure::Internal(anyhow::anyhow!("the match stopped: {failure}"))),
        None => Ok(0),
    }
}

/// Turns the flags into a match spec (engines loaded, openings read).
fn build_spec(args: &MatchArgs) -> Result<MatchSpec, Failure> {
    let engines = if args.engines.is_empty() {
        vec![
            EngineSpec::builtin("seed").expect("seed is built in"),
            EngineSpec::builtin("nomob").expect("nomob is built in"),
        ]
    } else {
        args.engines.iter().map(|text| parse_engine(text)).collect::<Result<Vec<_>, _>>()?
    };
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

    let path = match &args.openings {
        Some(path) => path.clone(),
        None => default_book()?,
    };
    let openings = load_openings(&path, args.plies.map(|p| p as usize))?;

    let concurrency = match args.concurrency {
        Some(0) => return Err(anyhow::anyhow!("--concurrency must be at least 1").into()),
        Some(n) => n as usize,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let mut limit = MoveLimit { depth: args.depth, nodes: args.nodes, movetime_ms: args.movetime_ms };
    if limit.is_unlimited() {
        limit.nodes = Some(DEFAULT_NODES);
    }
    if limit.depth == Some(0) || limit.nodes == Some(0) || limit.movetime_ms == Some(0) {
        return Err(anyhow::anyhow!("--depth, --nodes and --movetime-ms must be at least 1").into());
    }
    let adjudication = AdjudicationRules {
        draw: args.draw.as_deref().map(DrawAdjudication::parse).transpose()?,
        resign: args.resign.as_deref().map(ResignAdjudication::parse).transpose()?,
        maxmoves: match args.maxmoves {
            Some(0) => return Err(anyhow::anyhow!("--maxmoves must be at least 1").into()),
            m => m,
        },
    };
    Ok(MatchSpec {
        engines,
        openings,
        openings_source: path.display().to_string(),
        order: args.order,
        seed: args.seed,
        length,
        concurrency,
        settings: GameSettings { limit, adjudication },
        sprt,
    })
}

/// The default book: [`DEFAULT_BOOK`] under the working directory, else under the source tree the binary was
/// built from.
fn default_book() -> Result<PathBuf, Failure> {
    let here = PathBuf::from(DEFAULT_BOOK);
    if here.exists() {
        return Ok(here);
    }
    let built = Path::new(env!("CARGO_MANIFEST_DIR")).join(DEFAULT_BOOK);
    if built.exists() {
        return Ok(built);
    }
    Err(anyhow::anyhow!("the default opening book {DEFAULT_BOOK} was not found; pass --openings FILE").into())
}

/// Why an `--engine` value cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum EngineArgError {
    /// The key=value text is malformed.
    #[error(transparent)]
    KeyValue(#[from] KeyValueError),
    /// The config file is missing or bad.
    #[error("--engine: {0}")]
    Config(#[from] crate::engine::config::ConfigError),
    /// No `config=` and the name is not built in.
    #[error("--engine: `{name}` has no config= and is not a built-in build (seed, nomob)")]
    NotBuiltin {
        /// The name given.
        name: String,
    },
    /// Neither `name=` nor `config=`.
    #[error("--engine: give name= or config=")]
    Nameless,
}

/// Parses one `--engine` value: `name=NAME[,config=FILE]`. With `config=` the build is read from the file
/// (`name=` then overrides its name; without `name=` the config's own name is used); without it the name must
/// be built in ([`EngineSpec::builtin`]).
///
/// # Errors
/// [`EngineArgError`] naming the key or the config file and key.
pub fn parse_engine(text: &str) -> Result<EngineSpec, EngineArgError> {
    let kv = KeyValues::parse("--engine", text, &["name", "config"])?;
    let name = kv.text("name").filter(|n| !n.is_empty());
    match (name, kv.text("config")) {
        (_, Some(path)) => {
            let config = EngineConfig::load(path)?;
            let name = name.map_or_else(|| config.name.clone(), str::to_string);
            Ok(EngineSpec::from_config(&name, config, path))
        }
        (Some(name), None) => EngineSpec::builtin(name).ok_or(EngineArgError::NotBuiltin { name: name.to_string() }),
        (None, None) => Err(EngineArgError::Nameless),
    }
}

/// Parses an `--sprt` value: `elo0=E0,elo1=E1[,alpha=A][,beta=B][,model=normalized|logistic]`, with
/// alpha = beta = 0.05 and the normalized model by default.
///
/// # Errors
/// A [`KeyValueError`] naming `--sprt` and the key (alpha and beta must lie strictly between 0 and 1).
pub fn parse_sprt(text: &str) -> Result<SprtSpec, KeyValueError> {
    let mut kv = KeyValues::parse("--sprt", text, &["elo0", "elo1", "alpha", "beta", "model"])?;
    let elo0: f64 = kv.require("elo0", "a number (Elo)")?;
    let elo1: f64 = kv.require("elo1", "a number (Elo)")?;
    let alpha: f64 = kv.take("alpha", "a probability strictly between 0 and 1")?.unwrap_or(0.05);
    let beta: f64 = kv.take("beta", "a probability strictly between 0 and 1")?.unwrap_or(0.05);
    let model: EloModel = kv.take("model", "normalized or logistic")?.unwrap_or(EloModel::Normalized);
    SprtSpec::new(elo0, elo1, alpha, beta, model).map_err(|error| {
        let key = match error {
            crate::stats::StatsError::InvalidProbability { name, .. }
            | crate::stats::StatsError::InvalidElo { name, .. } => name,
            _ => "elo0",
        };
        let expected =
            if key.starts_with("elo") { "a finite number" } else { "a probability strictly between 0 and 1" };
        kv.bad_value(key, expected)
    })
}

/// The progress bar on stderr: games done / total, W/D/L, Elo with its interval and the LLR of the first
/// pairing.
struct Progress {
    bar: ProgressBar,
    two_engines: bool,
}

impl Progress {
    fn new(spec: &MatchSpec) -> Progress {
        let total = 2 * spec.schedule().total_pairs;
        let template = if spec.length == MatchLength::UntilDecided {
            "{elapsed_precise} {pos} games (SPRT, at most {len}) {msg}"
        } else {
            "{elapsed_precise} [{bar:30}] {pos}/{len} games {msg}"
        };
        let style = ProgressStyle::with_template(template).expect("the template is valid").progress_chars("=> ");
        Progress { bar: ProgressBar::new(total).with_style(style), two_engines: spec.engines.len() == 2 }
    }
}

impl MatchObserver for Progress {
    fn game_finished(&mut self, _record: &GameRecord, _pair: &GamePair, state: &MatchState) {
        self.bar.set_position(state.tally.games);
        if !self.two_engines {
            return;
        }
        let tally = &state.tally.pairings[0];
        let mut msg = format!("| W/D/L {}/{}/{}", tally.wdl.wins, tally.wdl.draws, tally.wdl.losses);
        if let Some(elo) = tally.elo() {
            msg.push_str(&format!(" | Elo {:+.1} +/- {:.1}", elo.elo, elo.elo95));
        }
        if let Some(sprt) = state.sprt {
            msg.push_str(&format!(" | LLR {:.2} [{:.2}, {:.2}]", sprt.llr, sprt.lower, sprt.upper));
        }
        self.bar.set_message(msg);
    }

    fn message(&mut self, text: &str) {
        self.bar.suspend(|| eprintln!("{text}"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::EngineKind;

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
        let EngineKind::Builtin(config) = &nomob.kind;
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
        let EngineKind::Builtin(loaded) = &spec.kind;
        assert_eq!(loaded.weights.bishop_pair, 7);
        assert_eq!(loaded.name, "other");
    }

    #[test]
    fn engine_errors_name_the_key_or_file() {
        let err = parse_engine("name=seed,hash=16").unwrap_err().to_string();
        assert_eq!(err, "--engine: unknown key `hash`, expected one of: name, config");
        let err = parse_engine("name=x").unwrap_err().to_string();
        assert!(err.contains("`x` has no config="), "{err}");
        let err = parse_engine("name=x,config=/no/such/file.toml").unwrap_err().to_string();
        assert!(err.contains("/no/such/file.toml"), "{err}");
        let path = config_dir().join("bad.toml");
        std::fs::write(&path, EngineConfig::seed().to_toml().replace("bishop_pair", "bishop_pear")).unwrap();
        let err = parse_engine(&format!("name=x,config={}", path.display())).unwrap_err().to_string();
        assert!(err.contains("bad.toml") && err.contains("bishop_pear"), "{err}");
        assert!(matches!(parse_engine("config="), Err(EngineArgError::Config(_))));
        assert!(matches!(parse_engine("name="), Err(EngineArgError::Nameless)));
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
    fn spec_defaults_and_conflicts() {
        let book = config_dir().join("book.epd");
        std::fs::write(&book, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\n").unwrap();
        let args = MatchArgs { openings: Some(book.clone()), ..MatchArgs::default() };
        let spec = build_spec(&args).ok().unwrap();
        assert_eq!(spec.engines.iter().map(|e| e.name.as_str()).collect::<Vec<_>>(), ["seed", "nomob"]);
        assert_eq!(spec.settings.limit.nodes, Some(DEFAULT_NODES));
        assert_eq!(spec.length, MatchLength::UntilDecided);
        let sprt = spec.sprt.unwrap();
        assert_eq!((sprt.elo0(), sprt.elo1()), (0.0, 10.0));

        let args = MatchArgs { openings: Some(book.clone()), games: Some(5), ..MatchArgs::default() };
        let spec = build_spec(&args).ok().unwrap();
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
        let spec = build_spec(&args).ok().unwrap();
        assert_eq!(spec.length, MatchLength::EachOpening);
        assert!(spec.sprt.is_none());
        let args = MatchArgs {
            openings: Some(book.clone()),
            engines: three,
            sprt: Some("elo0=0,elo1=5".into()),
            ..MatchArgs::default()
        };
        assert!(matches!(build_spec(&args), Err(Failure::Input(_))));
        let args = MatchArgs {
            openings: Some(book.clone()),
            engines: vec!["name=seed".into(), "name=seed".into()],
            ..MatchArgs::default()
        };
        assert!(matches!(build_spec(&args), Err(Failure::Input(e)) if e.to_string().contains("used twice")));
        let args = MatchArgs { openings: Some(book), plies: Some(4), ..MatchArgs::default() };
        assert!(matches!(build_spec(&args), Err(Failure::Input(e)) if e.to_string().contains("--plies")));
    }
}
