//! The defaults of a match: [`MatchPlan::with_defaults`] fills in a [`MatchRequest`] as `arbiter match` does
//! without flags (the default pair of builds, the default nodes, the default SPRT and book), so that a library
//! caller gets the same match as the command line.

use super::grammar::parse_sprt;
use super::{
    DEFAULT_BOOK, DEFAULT_NODES, DEFAULT_RATING_INTERVAL, DEFAULT_SEED, DEFAULT_SPRT, DEFAULT_XIANGQI_BOOK, MatchPlan,
    OpeningsPlan, OutputPlan, PLAN_FORMAT, PlanError, SprtPlan,
};
use crate::chess::Variant;
use crate::games::GameKind;
use crate::player::MoveLimit;
use crate::player::plan::{EngineBuild, EnginePlan, absolute};
use crate::runner::adjudication::AdjudicationRules;
use crate::runner::comments::CommentFields;
use crate::runner::openings::{OpeningsOption, is_start_position};
use crate::runner::scheduler::{MatchLength, Tournament};
use std::path::{Path, PathBuf};

/// The working directory, for [`absolute`].
///
/// # Errors
/// [`PlanError::WorkingDirectory`] when it cannot be read.
pub fn working_directory() -> Result<PathBuf, PlanError> {
    std::env::current_dir().map_err(PlanError::WorkingDirectory)
}

/// The book Arbiter makes for `game` (`arbiter book --game`) and plays by default (`arbiter match --game`),
/// relative to the project root: [`DEFAULT_BOOK`] for chess, [`DEFAULT_XIANGQI_BOOK`] for Xiangqi, none for checkers
/// (which Arbiter does not play).
pub fn book_of(game: GameKind) -> Option<&'static str> {
    match game {
        GameKind::Chess => Some(DEFAULT_BOOK),
        GameKind::Xiangqi => Some(DEFAULT_XIANGQI_BOOK),
        GameKind::Russian | GameKind::English => None,
    }
}

/// The default book of `game` ([`book_of`]) under `cwd`, else under the source tree the binary was built
/// from: the path to show (relative under `cwd`) and the absolute path.
///
/// # Errors
/// [`PlanError::NoDefaultBook`] when it is in neither place.
pub fn default_book(game: GameKind, cwd: &Path) -> Result<(String, PathBuf), PlanError> {
    let book = book_of(game).ok_or(PlanError::Game(crate::games::Unplayable { game, command: "match" }))?;
    let here = cwd.join(book);
    if here.exists() {
        return Ok((book.to_string(), here));
    }
    let built = Path::new(env!("CARGO_MANIFEST_DIR")).join(book);
    if built.exists() {
        return Ok((built.display().to_string(), built));
    }
    Err(PlanError::NoDefaultBook { book })
}

/// What a caller asks of a match, where [`MatchPlan::with_defaults`] fills in the rest as `arbiter match` does
/// without flags. Every field left at its default means "the default".
#[derive(Clone, Debug, Default)]
pub struct MatchRequest {
    /// The game.
    pub game: GameKind,
    /// The entrants; empty for the default pair of the game ([`default_engines`]).
    pub engines: Vec<EnginePlan>,
    /// The limits every entrant gets where it sets none itself (the time control, nodes, depth, time per move).
    pub limit: MoveLimit,
    /// The openings; `None` for the game's default book ([`default_book`]).
    pub openings: Option<OpeningsOption>,
    /// The SPRT; `None` for [`DEFAULT_SPRT`] when two entrants play no fixed length, else none.
    pub sprt: Option<SprtPlan>,
    /// Total games, if fixed.
    pub games: Option<u64>,
    /// Game pairs per pairing, if fixed (`games` wins when both are given).
    pub rounds: Option<u64>,
}

/// The entrants of a `game` match when none is given: the built-in `seed` against `nomob` (chess) or `nopsqt`
/// (Xiangqi), the build that differs from it in one group of weights; none for a game without built-in engine.
pub fn default_engines(game: GameKind) -> Vec<EnginePlan> {
    let second = match game {
        GameKind::Chess => "nomob",
        GameKind::Xiangqi => "nopsqt",
        GameKind::Russian | GameKind::English => return Vec::new(),
    };
    ["seed", second]
        .into_iter()
        .map(|name| EnginePlan {
            name: name.to_string(),
            build: EngineBuild::Builtin { build: None },
            source: "built-in".to_string(),
            limit: MoveLimit::default(),
            bench: None,
            book: None,
        })
        .collect()
}

impl MatchPlan {
    /// The match of `request` with every default of `arbiter match` filled in, its paths absolute against
    /// `cwd`: the default pair of builds, each entrant's limits over `request.limit` with [`DEFAULT_NODES`] for
    /// a built-in engine that has none (an external engine without one is refused), the default book, the
    /// default SPRT for two entrants without a length (then played until it decides), every opening once per
    /// pairing otherwise; seed [`DEFAULT_SEED`], a round robin with colours swapped, results under
    /// `cwd/results`. A library caller and the command line get the same match. Not yet validated
    /// ([`MatchPlan::validate`]).
    ///
    /// # Errors
    /// [`PlanError::Game`] for checkers, [`PlanError::Engine`] for an external engine without a limit,
    /// [`PlanError::NoDefaultBook`].
    pub fn with_defaults(request: MatchRequest, cwd: &Path) -> Result<MatchPlan, PlanError> {
        request.game.refuse_checkers("match")?;
        let mut engines = if request.engines.is_empty() { default_engines(request.game) } else { request.engines };
        let global = request.limit;
        for engine in &mut engines {
            let limit = &mut engine.limit;
            limit.tc = limit.tc.or(global.tc);
            limit.nodes = limit.nodes.or(global.nodes);
            limit.depth = limit.depth.or(global.depth);
            limit.movetime_ms = limit.movetime_ms.or(global.movetime_ms);
            // External engines need a limit; the built-in ones play at the documented default.
            engine.require_limit()?;
            if engine.limit.is_unlimited() {
                engine.limit.nodes = Some(DEFAULT_NODES);
            }
        }
        let sprt = match (request.sprt, request.games.or(request.rounds)) {
            (Some(sprt), _) => Some(sprt),
            (None, None) if engines.len() == 2 => Some(SprtPlan::of(&parse_sprt(DEFAULT_SPRT)?)),
            (None, _) => None,
        };
        let length = match (request.games, request.rounds) {
            (Some(games), _) => MatchLength::Games(games),
            (None, Some(rounds)) => MatchLength::Rounds(rounds),
            (None, None) if sprt.is_some() => MatchLength::UntilDecided,
            (None, None) => MatchLength::EachOpening,
        };
        let book = match request.openings {
            Some(book) => book,
            None => {
                let (shown, _) = default_book(request.game, cwd)?;
                OpeningsOption {
                    file: PathBuf::from(shown),
                    format: None,
                    order: None,
                    plies: None,
                    start: None,
                    depth: None,
                }
            }
        };
        Ok(MatchPlan {
            format: PLAN_FORMAT,
            game: request.game,
            variant: Variant::Standard,
            engines,
            openings: OpeningsPlan {
                file: if is_start_position(&book.file, cwd) { book.file.clone() } else { absolute(&book.file, cwd) },
                shown: book.file.display().to_string(),
                format: book.format,
                order: book.order.unwrap_or_default(),
                plies: book.plies,
                start: book.start.unwrap_or(1),
                depth: book.depth,
            },
            seed: DEFAULT_SEED,
            tournament: Tournament::RoundRobin,
            seeds: 1,
            seeds_meet: false,
            swap: true,
            reverse: false,
            wait_ms: 0,
            affinity: None,
            length,
            adjudication: AdjudicationRules::default(),
            tablebase: None,
            sprt,
            shard: None,
            concurrency: None,
            recover: false,
            bench_check: false,
            tc_scale: None,
            output: OutputPlan {
                out: None,
                results: cwd.join("results"),
                name: None,
                pgn_comments: true,
                pgn_fields: CommentFields::default(),
                rating_interval: DEFAULT_RATING_INTERVAL,
                event: None,
                site: None,
                pgnout: None,
                epdout: None,
                reports: Default::default(),
            },
        })
    }
}
