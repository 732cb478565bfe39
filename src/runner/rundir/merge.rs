//! Merging the run folders of the shards of one match (`arbiter match --shard I/N`) into one `games.csv`,
//! `games.pgn`, `summary.txt` and `summary.csv`, as if one process had played the whole schedule.
//!
//! Every folder must hold a complete shard of the same schedule (the same fingerprint in its `run.toml`), and
//! together shards 1 to N exactly once. The merged files list the games by game number; the summary counts
//! every game, with the SPRT taken over the pairs in schedule order (a verdict says after how many pairs it
//! would have stopped the match).
//!
//! Every game of every shard's `games.pgn` is replayed by the game's rules ([`check_games`]) before anything
//! is written: a move that is not legal, or a result or ply count other than its `games.csv` row, stops the
//! merge with the file, the line and what is wrong. The match is rebuilt from the first shard's plan; no
//! working directory is needed (the plan's paths are absolute).

use crate::game::Game;
use crate::games::GameKind;
use crate::runner::plan::{MatchPlan, PlanError};
use crate::runner::report::summary::{summary_text, write_summary};
use crate::runner::rundir::cluster::{Decision, read_decision};
use crate::runner::rundir::csv::GameRow;
use crate::runner::rundir::lock::{LockError, lock_shared};
use crate::runner::rundir::output::{CSV_HEADER, OutputError, RUN_TOML, create_new_file, create_out_dir};
use crate::runner::rundir::read::{Strictness, read_run};
use crate::runner::rundir::record_error::RecordError;
use crate::runner::rundir::replay::{check_games, replay};
use crate::runner::rundir::runfile::{Fingerprint, RunFile, RunFileError, hex, part_text};
use crate::runner::scheduler::Shard;
use std::collections::BTreeMap;
use std::fs::File;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// What to merge: the shards' run folders, and where to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MergeRequest {
    /// The shards' run folders, every shard of the match once, in any order.
    pub dirs: Vec<PathBuf>,
    /// The output folder; `None` for the folder that holds the shard folders, when they share one.
    pub out: Option<PathBuf>,
}

/// A merge done.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Merged {
    /// The output folder.
    pub out: PathBuf,
    /// How many shards were merged.
    pub shards: usize,
    /// The summary text, as written to `summary.txt`.
    pub summary: String,
}

/// Why shards cannot be merged.
#[derive(Debug, Error)]
pub enum MergeError {
    /// The run's decision file does not read.
    #[error("{reason}")]
    Decision {
        /// Why, in words.
        reason: String,
    },
    /// A folder's `run.toml` cannot be read.
    #[error("{source}{}", shard_hint(.source, .dir))]
    RunFile {
        /// The folder as given.
        dir: String,
        /// Why.
        source: RunFileError,
    },
    /// A shard cannot be locked: it still plays, or its lock file cannot be opened.
    #[error(transparent)]
    Lock(#[from] LockError),
    /// Two folders hold shards of different schedules.
    #[error("{shard} is a shard of another schedule than {first}: fingerprint {fingerprints}; differing: {differing}")]
    OtherSchedule {
        /// The folder and its shard, `DIR (shard I/N)`.
        shard: String,
        /// The first folder and its shard.
        first: String,
        /// The folder's fingerprint against the first folder's, `A against B`.
        fingerprints: String,
        /// The parts that differ, in words.
        differing: String,
    },
    /// One shard given twice.
    #[error("shard {shard} is given twice: {first} and {second}")]
    Twice {
        /// The shard.
        shard: Shard,
        /// The first folder.
        first: String,
        /// The second folder.
        second: String,
    },
    /// Shards missing.
    #[error("{given} of {count} shards given; missing: {missing} (give every shard's run folder)")]
    Missing {
        /// Shards given.
        given: usize,
        /// Shards of the match.
        count: u32,
        /// The missing ones, `I/N, ...`.
        missing: String,
    },
    /// No `out` and no common parent folder.
    #[error("the shard folders lie in different folders: name the merged run's folder")]
    NoCommonFolder,
    /// The first shard's plan is not playable.
    #[error(transparent)]
    Plan(#[from] PlanError),
    /// A shard has not played all its games.
    #[error("{dir} (shard {shard}): {recorded} of its {total} games recorded; finish it first")]
    Unfinished {
        /// The folder.
        dir: String,
        /// Its shard.
        shard: Shard,
        /// Games recorded.
        recorded: u64,
        /// Games of the shard.
        total: u64,
    },
    /// A shard's games cannot be read, or one does not replay.
    #[error(transparent)]
    Records(#[from] RecordError),
    /// The output folder cannot be used (it holds results, a file is in the way, it cannot be created).
    #[error(transparent)]
    Output(#[from] OutputError),
    /// A merged file cannot be written.
    #[error(transparent)]
    Write(OutputError),
}

impl MergeError {
    /// Whether the error is the user's input (exit 2 in the command line) rather than a failure of the system
    /// (a disk error).
    pub fn is_input(&self) -> bool {
        match self {
            MergeError::Lock(LockError::OpenShared { .. }) | MergeError::Write(_) => false,
            MergeError::Output(error) => error.is_input(),
            MergeError::Records(error) => !matches!(error, RecordError::Write(_)),
            MergeError::RunFile { source: RunFileError::Write(_), .. } => false,
            _ => true,
        }
    }
}

/// The hint after an unreadable `run.toml` of a merge: none for one of an older arbiter (its message says what
/// to do).
fn shard_hint(error: &RunFileError, dir: &str) -> String {
    match error {
        RunFileError::Old { .. } => String::new(),
        _ => format!(" (is {dir} the run folder of an arbiter match shard?)"),
    }
}

/// One shard's run folder, read.
struct ShardRun {
    /// The folder as given.
    dir: PathBuf,
    /// Its `run.toml`.
    run: RunFile,
    /// Its shard (`1/1` for a run without `--shard`).
    shard: Shard,
    /// The open `run.lock`, share-locked while the merge reads (refused while the shard still plays).
    _lock: Option<File>,
}

/// Merges the shards of `request`; `warn` is told of anything worth a warning (files changed since the
/// shards ran).
///
/// # Errors
/// A [`MergeError`]: a folder that is not a shard's, shards of different schedules, a shard missing, given
/// twice or incomplete, a game that does not replay, an output folder that holds results, a file that cannot
/// be written. Nothing is written unless every check passed.
pub fn merge(request: &MergeRequest, warn: &mut dyn FnMut(&str)) -> Result<Merged, MergeError> {
    let shards = read_shards(&request.dirs)?;
    let out = match &request.out {
        Some(out) => out.clone(),
        None => default_out(&request.dirs)?,
    };
    // Folders as given are relative to the working directory; the files are read and written by absolute path.
    let out = std::path::absolute(&out).unwrap_or(out);
    let plan = &shards[0].run.plan;
    plan.validate()?;
    match plan.game {
        GameKind::Xiangqi => merge_as::<crate::xiangqi::XiangqiGame>(plan, &shards, &out, warn),
        GameKind::Chess => merge_as::<crate::chess::ChessGame>(plan, &shards, &out, warn),
        game @ (GameKind::Russian | GameKind::English) => {
            Err(PlanError::Game(crate::games::Unplayable { game, command: "merge" }).into())
        }
    }
}

/// Reads every shard's `run.toml` and checks that they are the shards 1..=N of one schedule, each once;
/// returns them by shard index.
fn read_shards(dirs: &[PathBuf]) -> Result<Vec<ShardRun>, MergeError> {
    let mut shards: Vec<ShardRun> = Vec::new();
    for dir in dirs {
        let run = RunFile::read(&dir.join(RUN_TOML))
            .map_err(|source| MergeError::RunFile { dir: dir.display().to_string(), source })?;
        let shard = run.plan.shard.unwrap_or(Shard::new(1, 1).expect("1/1 is a shard"));
        let lock = lock_shared(dir)?;
        if let Some(first) = shards.first()
            && first.run.fingerprint != run.fingerprint
        {
            let changed: Vec<String> = first
                .run
                .parts
                .iter()
                .filter(|(name, hash)| run.parts.get(*name) != Some(hash))
                .map(|(name, _)| part_text(name))
                .collect();
            return Err(MergeError::OtherSchedule {
                shard: format!("{} (shard {shard})", dir.display()),
                first: format!("{} (shard {})", first.dir.display(), first.shard),
                fingerprints: format!("{} against {}", run.fingerprint, first.run.fingerprint),
                differing: if changed.is_empty() { "the engine list".to_string() } else { changed.join(", ") },
            });
        }
        if let Some(twin) = shards.iter().find(|s| s.shard == shard) {
            return Err(MergeError::Twice {
                shard,
                first: twin.dir.display().to_string(),
                second: dir.display().to_string(),
            });
        }
        shards.push(ShardRun { dir: dir.clone(), run, shard, _lock: lock });
    }
    let count = shards[0].shard.count();
    let missing: Vec<String> =
        (1..=count).filter(|&i| !shards.iter().any(|s| s.shard.index() == i)).map(|i| format!("{i}/{count}")).collect();
    if !missing.is_empty() {
        return Err(MergeError::Missing { given: shards.len(), count, missing: missing.join(", ") });
    }
    shards.sort_by_key(|s| s.shard.index());
    Ok(shards)
}

/// The default output folder: the folder that holds every shard folder.
fn default_out(dirs: &[PathBuf]) -> Result<PathBuf, MergeError> {
    let parents: Vec<PathBuf> = dirs
        .iter()
        .map(|dir| {
            let dir = dir.canonicalize().unwrap_or_else(|_| dir.clone());
            dir.parent().map(Path::to_path_buf).unwrap_or_default()
        })
        .collect();
    match parents.first() {
        Some(parent) if parents.iter().all(|p| p == parent) && !parent.as_os_str().is_empty() => Ok(parent.clone()),
        _ => Err(MergeError::NoCommonFolder),
    }
}

/// The rest of [`merge`] in the shards' game `G`: the match rebuilt from the first shard's plan, each shard
/// checked complete, the games merged and summarized into `out`.
fn merge_as<G: Game>(
    plan: &MatchPlan,
    shards: &[ShardRun],
    out: &Path,
    warn: &mut dyn FnMut(&str),
) -> Result<Merged, MergeError> {
    let first = &shards[0];
    let mut spec = plan.spec::<G>()?;
    let fingerprint = Fingerprint::of(&spec);
    if hex(fingerprint.total()) != first.run.fingerprint {
        let changed: Vec<String> = fingerprint.changed_parts(&first.run.parts).iter().map(|p| part_text(p)).collect();
        warn(&format!(
            "warning: {} changed since the shards ran; the games are merged as played, but the summary's setup \
             lines describe the files as they are now",
            changed.join(", ")
        ));
    }

    // A run whose shared SPRT decided (the shards' folder holds decision.toml of this schedule): its shards
    // stopped early, and are merged as they stopped.
    let decision = shared_decision(shards)?;
    if let Some(decision) = &decision {
        warn(&format!(
            "the run's SPRT decided while the shards played: {}; the shards are merged as they stopped",
            decision.line()
        ));
    }
    // Each shard: complete (unless the run's SPRT stopped it), its rows in its part of the schedule.
    let mut rows: Vec<GameRow> = Vec::new();
    let mut pgn: BTreeMap<u64, String> = BTreeMap::new();
    for shard in shards {
        let dir = &std::path::absolute(&shard.dir).unwrap_or_else(|_| shard.dir.clone());
        let records = read_run(dir, Strictness::Strict)?;
        spec.shard = Some(shard.shard);
        let csv_path = dir.join("games.csv").display().to_string();
        let (state, _) = replay(&spec, &records.rows, &csv_path)?;
        if state.tally.games != state.games_total() && decision.is_none() {
            return Err(MergeError::Unfinished {
                dir: shard.dir.display().to_string(),
                shard: shard.shard,
                recorded: state.tally.games,
                total: state.games_total(),
            });
        }
        // The moves last: replaying is the costly check, worth doing only for a complete shard of this schedule.
        check_games::<G>(&records, &dir.join("games.pgn").display().to_string())?;
        rows.extend(records.rows);
        pgn.extend(records.pgn);
    }
    rows.sort_by_key(|row| row.game);
    spec.shard = None;
    let (mut state, _) = replay(&spec, &rows, "the merged games.csv")?;
    state.resumed = state.tally.games;
    if let Some(decision) = &decision {
        let pairs = state.tally.pairings.first().map_or(0, |p| p.penta.pairs());
        if decision.pairs > pairs {
            return Err(MergeError::Decision {
                reason: format!(
                    "{}: counts {} pairs, but the shards hold {pairs}: it was not written for these records",
                    crate::runner::rundir::cluster::DECISION_FILE,
                    decision.pairs
                ),
            });
        }
    }
    if let Some(decision) = &decision {
        // The decision is the one the shards took, over the pairs finished when it was taken; the counts and the
        // LLR of the summary are over every pair recorded (pairs in play then finished after it).
        state.verdict = Some(crate::runner::run::verdict_of(decision));
    }

    create_out_dir(out)?;
    write_games(out, &rows, &pgn).map_err(MergeError::Write)?;
    let summary = summary_text(&spec, &state);
    write_summary(out, &spec, &state).map_err(MergeError::Write)?;
    Ok(Merged { out: out.to_path_buf(), shards: shards.len(), summary })
}

/// The shared SPRT decision of the shards' run, if one was taken: `decision.toml` in the folder that holds the
/// shard folders, written for their schedule.
fn shared_decision(shards: &[ShardRun]) -> Result<Option<Decision>, MergeError> {
    let Some(parent) = shards[0].dir.canonicalize().ok().and_then(|d| d.parent().map(Path::to_path_buf)) else {
        return Ok(None);
    };
    let decision = read_decision(&parent).map_err(|error| MergeError::Decision { reason: error.to_string() })?;
    Ok(decision.filter(|d| d.fingerprint == shards[0].run.fingerprint))
}

/// Writes the merged `games.csv` (rows in game-number order, as the shards wrote them) and `games.pgn` (the
/// games' text as the shards wrote it, in the same order) into `out`.
fn write_games(out: &Path, rows: &[GameRow], pgn: &BTreeMap<u64, String>) -> Result<(), OutputError> {
    let csv_path = out.join("games.csv");
    let csv_error = |reason| OutputError::Csv { path: csv_path.display().to_string(), reason };
    let mut csv = csv::Writer::from_writer(create_new_file(&csv_path)?);
    csv.write_record(CSV_HEADER).map_err(csv_error)?;
    for row in rows {
        csv.write_record(&row.fields).map_err(csv_error)?;
    }
    csv.flush().map_err(|reason| OutputError::Io { path: csv_path.display().to_string(), reason })?;

    let pgn_path = out.join("games.pgn");
    let mut file = std::io::BufWriter::new(create_new_file(&pgn_path)?);
    for row in rows {
        file.write_all(pgn[&row.game].as_bytes())
            .map_err(|reason| OutputError::Io { path: pgn_path.display().to_string(), reason })?;
    }
    file.flush().map_err(|reason| OutputError::Io { path: pgn_path.display().to_string(), reason })
}
