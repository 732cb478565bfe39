//! The match runner: players, openings, one game with adjudication, the scheduler of game pairs over worker
//! threads with an SPRT stop, and the result files of a run folder.
//!
//! ```text
//! EngineSpec x N + openings + GameSettings + SprtSpec
//!   -> Schedule: game pairs (same opening, colours swapped unless --noswap), round robin or gauntlet pairings
//!   -> workers (`concurrency` threads) play pairs with their own players -> GameRecord per game
//!   -> ResultSink: games.csv + games.pgn, appended and flushed per game
//!   -> MatchTally: W/D/L and pentanomial per pairing -> Elo, LLR -> stop early when the SPRT decides
//!   -> reports in cutechess-cli and fastchess lines (every --ratinginterval games and at the end)
//!   -> summary.txt (with the final reports) + summary.csv
//! ```
//!
//! A match is described by a [`MatchPlan`] ([`plan`]: typed, serializable, validated) and played by
//! [`run::run`]. A run folder also holds `run.toml` ([`rundir::runfile`]): the plan and the schedule fingerprint, so
//! that an interrupted run can be resumed ([`rundir::resume`]) and shards of one schedule merged; [`rundir::read`]
//! reads a run's games back (strictly, rewriting the tail a killed process leaves, or salvaging for a resume).
//!
//! The runner talks to players only through the [`crate::player::Player`] trait; the built-in engines are one
//! implementation, external UCI engine processes ([`crate::player::UciPlayer`]) another.

pub mod adjudication;
pub mod affinity;
pub mod comments;
pub mod game;
pub mod knockout;
pub mod openings;
pub mod plan;
pub mod report;
pub mod run;
pub mod rundir;
pub mod scheduler;
pub mod tally;

pub use crate::chess::Variant;
pub use crate::game::opening::{Opening, OpeningError, OpeningFormat};
pub use crate::player::timecontrol::{Clock, TimeControl};
pub use adjudication::{Adjudicated, AdjudicationRules, Adjudicator, DrawAdjudication, PlayedMove, ResignAdjudication};
pub use game::{EndReason, GameRecord, GameSettings, play_game, play_game_unless};
pub use openings::{
    OpeningOrder, OpeningsOption, START_POSITION, is_start_position, load_game_openings, load_match_openings,
    load_openings, load_openings_as, opening_order, opening_order_from,
};
pub use plan::{
    EngineBuild, EnginePlan, MatchPlan, MatchRequest, OpeningsPlan, OutputPlan, PlanError, SprtPlan, TcScalePlan,
    UciPlan,
};
pub use report::lines::{cutechess_report, fastchess_report, match_report};
pub use report::summary::{summary_rows, summary_text, write_summary};
pub use run::{MatchRun, ResumeOverrides, RunEnd, RunError, RunObserver, RunStart};
pub use rundir::csv::GameRow;
pub use rundir::output::{OutputError, RUN_TOML, ResultSink, create_out_dir, create_run_dir, replace_file};
pub use rundir::read::{GameCheck, RunRecords, Strictness, read_run};
pub use rundir::record_error::RecordError;
pub use rundir::replay::{check_game, check_games, replay};
pub use rundir::runfile::{Fingerprint, RunFile, RunFileError};
pub use scheduler::{
    GamePair, GameSink, MAX_GAMES, MatchLength, MatchObserver, MatchSpec, MatchState, Schedule, Shard, ShardError,
    Silent, SprtVerdict, Tournament, gauntlet, pyramid, round_robin, run_match, run_match_from, seeded_gauntlet,
};
pub use tally::{MatchTally, PairingTally, score_of};
