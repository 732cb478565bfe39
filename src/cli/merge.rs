//! `arbiter merge DIR... [--out DIR]`: combines the run folders of the shards of one match (`arbiter match
//! --shard I/N`) into one `games.csv`, `games.pgn`, `summary.txt` and `summary.csv`, as if one process had
//! played the whole schedule.
//!
//! Every folder must hold a complete shard of the same schedule (the same fingerprint in its `run.toml`), and
//! together shards 1 to N exactly once. The merged files list the games by game number; the summary counts
//! every game, with the SPRT taken over the pairs in schedule order (a verdict says after how many pairs it
//! would have stopped the match).
//!
//! Every game of every shard's `games.pgn` is replayed by the game's rules ([`check_games`]) before anything
//! is written: a move that is not legal, or a result or ply count other than its `games.csv` row, stops the
//! merge with the file, the line and what is wrong.
//!
//! Exit codes: 0 merged, 2 for bad input (a folder that is not a shard's, shards of different schedules,
//! a shard missing, given twice or incomplete, a game that does not replay, an output folder that holds
//! results), 1 when a merged file cannot be written.

use super::match_cmd::{
    Failure, MatchArgs, build_spec, clap_error_text, exit_code, parse_match_args, part_text, record_failure,
};
use crate::game::{Game as MatchGame, GameKind};
use crate::runner::output::{CSV_HEADER, LOCK_FILE, OutputError, create_new_file};
use crate::runner::runfile::hex;
use crate::runner::{
    Fingerprint, GameRow, RUN_TOML, Repair, RunFile, Shard, check_games, create_out_dir, read_run, replay,
    summary_text, write_summary,
};
use std::collections::BTreeMap;
use std::fs::{File, TryLockError};
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// Flags of `arbiter merge`.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct MergeArgs {
    /// The shards' run folders (each written by `arbiter match --shard I/N`), every shard of the match once.
    #[arg(value_name = "DIR", required = true)]
    pub dirs: Vec<PathBuf>,

    /// Output folder for the merged games.csv, games.pgn, summary.txt and summary.csv (created if needed;
    /// refused if it holds results). Default: the folder that holds the shard folders, when they share one.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// One shard's run folder, read.
struct ShardRun {
    /// The folder as given.
    dir: PathBuf,
    /// Its `run.toml`.
    run: RunFile,
    /// Its shard (`1/1` for a run without `--shard`).
    shard: Shard,
    /// The open `run.toml`, share-locked while the merge reads (refused while the shard still plays).
    _lock: Option<File>,
}

/// Merges shards; returns the exit code (0 merged, 2 bad input, 1 a file that cannot be written). Errors are
/// printed to stderr here.
///
/// # Errors
/// None in practice; the signature matches the other subcommands.
pub fn run(args: MergeArgs) -> anyhow::Result<i32> {
    Ok(exit_code(merge(&args)))
}

/// Opens and share-locks `dir/run.lock` ([`LOCK_FILE`]): a shard still playing holds it locked, and is
/// refused. A folder without one has no match playing in it (a match creates it before anything else).
fn lock_shared(dir: &Path) -> Result<Option<File>, Failure> {
    let path = dir.join(LOCK_FILE);
    let file = match File::open(&path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(anyhow::anyhow!("{}: cannot open: {e}", path.display()).into()),
    };
    match file.try_lock_shared() {
        Ok(()) => Ok(Some(file)),
        Err(TryLockError::WouldBlock) => {
            Err(anyhow::anyhow!("{}: the shard is still playing (its {LOCK_FILE} is locked)", dir.display()).into())
        }
        Err(TryLockError::Error(_)) => Ok(None),
    }
}

/// Reads every shard's `run.toml` and checks that they are the shards 1..=N of one schedule, each once;
/// returns them by shard index.
fn read_shards(dirs: &[PathBuf]) -> Result<Vec<ShardRun>, Failure> {
    let mut shards: Vec<ShardRun> = Vec::new();
    for dir in dirs {
        let run = RunFile::read(&dir.join(RUN_TOML))
            .map_err(|e| anyhow::anyhow!("{e} (is {} the run folder of an arbiter match shard?)", dir.display()))?;
        let (args, _) = parse_match_args(&run.args)
            .map_err(|e| anyhow::anyhow!("{}: args: {}", dir.join(RUN_TOML).display(), clap_error_text(&e)))?;
        let shard = args.shard.unwrap_or(Shard::new(1, 1).expect("1/1 is a shard"));
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
            return Err(anyhow::anyhow!(
                "{} (shard {shard}) is a shard of another schedule than {} (shard {}): fingerprint {} against {}; \
                 differing: {}",
                dir.display(),
                first.dir.display(),
                first.shard,
                run.fingerprint,
                first.run.fingerprint,
                if changed.is_empty() { "the engine list".to_string() } else { changed.join(", ") }
            )
            .into());
        }
        if let Some(twin) = shards.iter().find(|s| s.shard == shard) {
            return Err(
                anyhow::anyhow!("shard {shard} is given twice: {} and {}", twin.dir.display(), dir.display()).into()
            );
        }
        shards.push(ShardRun { dir: dir.clone(), run, shard, _lock: lock });
    }
    let count = shards[0].shard.count();
    let missing: Vec<String> =
        (1..=count).filter(|&i| !shards.iter().any(|s| s.shard.index() == i)).map(|i| format!("{i}/{count}")).collect();
    if !missing.is_empty() {
        return Err(anyhow::anyhow!(
            "{} of {count} shards given; missing: {} (give every shard's run folder)",
            shards.len(),
            missing.join(", ")
        )
        .into());
    }
    shards.sort_by_key(|s| s.shard.index());
    Ok(shards)
}

/// The default output folder: the folder that holds every shard folder.
fn default_out(dirs: &[PathBuf]) -> Result<PathBuf, Failure> {
    let parents: Vec<PathBuf> = dirs
        .iter()
        .map(|dir| {
            let dir = dir.canonicalize().unwrap_or_else(|_| dir.clone());
            dir.parent().map(Path::to_path_buf).unwrap_or_default()
        })
        .collect();
    match parents.first() {
        Some(parent) if parents.iter().all(|p| p == parent) && !parent.as_os_str().is_empty() => Ok(parent.clone()),
        _ => Err(anyhow::anyhow!("the shard folders lie in different folders: give --out DIR").into()),
    }
}

fn merge(args: &MergeArgs) -> Result<i32, Failure> {
    let shards = read_shards(&args.dirs)?;
    let out = match &args.out {
        Some(out) => out.clone(),
        None => default_out(&args.dirs)?,
    };
    // Folders as given are relative to here; the shards' own arguments to their recorded working directory.
    let here = std::env::current_dir().map_err(|e| anyhow::anyhow!("the working directory: {e}"))?;
    let out = here.join(out);
    let dirs: Vec<PathBuf> = shards.iter().map(|s| here.join(&s.dir)).collect();

    let first = &shards[0];
    std::env::set_current_dir(&first.run.cwd).map_err(|e| {
        anyhow::anyhow!(
            "{}: the recorded working directory {}: {e}",
            first.dir.join(RUN_TOML).display(),
            first.run.cwd.display()
        )
    })?;
    let (match_args, _) = parse_match_args(&first.run.args).map_err(|e| anyhow::anyhow!("{}", clap_error_text(&e)))?;
    match match_args.game {
        GameKind::Chess => merge_as::<crate::chess::Game>(&match_args, &shards, &dirs, &here, &out),
        GameKind::Xiangqi => merge_as::<crate::xiangqi::Game>(&match_args, &shards, &dirs, &here, &out),
        GameKind::Russian | GameKind::English => Err(super::match_cmd::refuse_checkers(match_args.game, "merge")),
    }
}

/// The rest of [`merge`] in the shards' game `G`: the match rebuilt from the first shard's arguments, each
/// shard checked complete, the games merged and summarized into `out`.
fn merge_as<G: MatchGame>(
    match_args: &MatchArgs,
    shards: &[ShardRun],
    dirs: &[PathBuf],
    here: &Path,
    out: &Path,
) -> Result<i32, Failure> {
    let first = &shards[0];
    let mut spec = build_spec::<G>(match_args)?;
    let fingerprint = Fingerprint::of(&spec);
    if hex(fingerprint.total()) != first.run.fingerprint {
        let changed: Vec<String> = fingerprint.changed_parts(&first.run.parts).iter().map(|p| part_text(p)).collect();
        eprintln!(
            "warning: {} changed since the shards ran; the games are merged as played, but the summary's setup \
             lines describe the files as they are now",
            changed.join(", ")
        );
    }

    // Each shard: complete, its rows in its part of the schedule.
    let mut rows: Vec<GameRow> = Vec::new();
    let mut pgn: BTreeMap<u64, String> = BTreeMap::new();
    for (shard, dir) in shards.iter().zip(dirs) {
        let records = read_run(dir, Repair::ReadOnly).map_err(record_failure)?;
        spec.shard = Some(shard.shard);
        let csv_path = dir.join("games.csv").display().to_string();
        let (state, _) = replay(&spec, &records.rows, &csv_path).map_err(record_failure)?;
        if state.tally.games != state.games_total() {
            return Err(anyhow::anyhow!(
                "{} (shard {}): {} of its {} games recorded; finish it first with `arbiter match --resume {}`",
                shard.dir.display(),
                shard.shard,
                state.tally.games,
                state.games_total(),
                shard.dir.display()
            )
            .into());
        }
        // The moves last: replaying is the costly check, worth doing only for a complete shard of this schedule.
        check_games::<G>(&records, &dir.join("games.pgn").display().to_string()).map_err(record_failure)?;
        rows.extend(records.rows);
        pgn.extend(records.pgn);
    }
    rows.sort_by_key(|row| row.game);
    spec.shard = None;
    let (mut state, _) = replay(&spec, &rows, "the merged games.csv").map_err(record_failure)?;
    state.resumed = state.tally.games;

    std::env::set_current_dir(here).map_err(|e| anyhow::anyhow!("{}: {e}", here.display()))?;
    create_out_dir(out)?;
    write_games(out, &rows, &pgn).map_err(|e| Failure::Internal(e.into()))?;
    let summary = summary_text(&spec, &state);
    print!("{summary}");
    println!("\nMerged {} shards: {}", shards.len(), out.display());
    write_summary(out, &spec, &state).map_err(|e| Failure::Internal(e.into()))?;
    Ok(0)
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
