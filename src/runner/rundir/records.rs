//! Reading a run folder's games back: `games.csv` rows and `games.pgn` games, for `arbiter match --resume` and
//! `arbiter merge`.
//!
//! `games.csv` is the commit record: [`ResultSink`](crate::runner::ResultSink) writes and flushes a game's PGN before its CSV row,
//! so every row has its PGN game. A process killed mid-write (SIGKILL, power loss) can leave a partial last CSV
//! line, and a PGN game (whole or partial) whose row was never written. [`read_run`] keeps the complete CSV
//! rows and exactly the PGN games they list, and with [`Repair::Rewrite`] rewrites the files so (atomically).

use crate::chess::game::GameResult;
use crate::game::Game;
use crate::notation::quote::shown;
use crate::runner::game::EndReason;
use crate::runner::rundir::output::{CSV_HEADER, OutputError, create_new_file, replace_file};
use crate::runner::scheduler::{MatchSpec, MatchState};
use crate::runner::tally::score_of;
use crate::stats::{GameScore, Pentanomial, RatedGame, Wdl};
use std::collections::HashMap;
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Why a run folder's games cannot be read back. Every variant names the file; row errors name the line.
#[derive(Debug, Error)]
pub enum RecordError {
    /// A file cannot be read.
    #[error("{path}: cannot read: {reason}")]
    Read {
        /// The path.
        path: String,
        /// The operating-system error (its text is in the message).
        reason: std::io::Error,
    },
    /// A complete `games.csv` line that is not a row arbiter writes.
    #[error("{path}:{line}: {reason}")]
    BadRow {
        /// The path.
        path: String,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// A game listed in `games.csv` has no game in `games.pgn`.
    #[error("{pgn}: game {number} (Round \"{round}\") is listed in games.csv but missing; the run folder is damaged")]
    MissingPgn {
        /// The PGN path.
        pgn: String,
        /// The 1-based game number.
        number: u64,
        /// Its PGN `Round` tag.
        round: String,
    },
    /// A row that does not belong to the match's schedule (another match's files, or a shard's rows in the
    /// wrong folder).
    #[error("{path}:{line}: game {number}: {reason}")]
    NotInSchedule {
        /// The path.
        path: String,
        /// 1-based line.
        line: usize,
        /// The 1-based game number.
        number: u64,
        /// What does not match.
        reason: String,
    },
    /// A game of `games.pgn` that does not replay to its `games.csv` row: a move that is not legal, a result or
    /// ply count other than the row's.
    #[error("{pgn}:{line}: game {number} (Round \"{round}\"): {reason}")]
    BadGame {
        /// The PGN path.
        pgn: String,
        /// The 1-based line where the game begins.
        line: usize,
        /// The 1-based game number.
        number: u64,
        /// Its PGN `Round` tag.
        round: String,
        /// What is wrong (a reader's error names its own line).
        reason: String,
    },
    /// A `games.csv` read for ratings whose header or contents cannot be read (no line to name).
    #[error("{path}: {reason}")]
    File {
        /// The path.
        path: String,
        /// What is wrong.
        reason: String,
    },
    /// A run of more or fewer than two engines where two are needed (`arbiter sprt --results`).
    #[error("{csv}: {} engines ({}); arbiter sprt reports on two engines (use `arbiter elo` for more)", .engines.len(), .engines.join(", "))]
    NotTwoEngines {
        /// The `games.csv` path.
        csv: String,
        /// The engines found, in order of first appearance.
        engines: Vec<String>,
    },
    /// A repaired file cannot be written.
    #[error(transparent)]
    Write(#[from] OutputError),
}

/// One `games.csv` row as read back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    /// 1-based line in `games.csv`.
    pub line: usize,
    /// 0-based pair number.
    pub pair: u64,
    /// 0-based match-wide game number: `2 * pair` or `2 * pair + 1`.
    pub game: u64,
    /// 0-based opening index.
    pub opening: usize,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The result.
    pub result: GameResult,
    /// How the game ended.
    pub end: EndReason,
    /// The row's fields as written ([`CSV_HEADER`] order), to write it again unchanged.
    pub fields: Vec<String>,
}

/// The games of a run folder: complete CSV rows in file order, and the PGN text of each of their games.
#[derive(Clone, Debug, Default)]
pub struct RunRecords {
    /// The complete `games.csv` rows, in file order (the order the games ended).
    pub rows: Vec<GameRow>,
    /// Each row's game as PGN text exactly as written, by game number (0-based).
    pub pgn: BTreeMap<u64, String>,
    /// The 1-based line of `games.pgn` where each of those games begins, by game number.
    pub pgn_lines: BTreeMap<u64, usize>,
    /// What the repair dropped, in words (empty when the files ended cleanly).
    pub dropped: Vec<String>,
}

/// What [`read_run`] does with a damaged tail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repair {
    /// Only read: the files stay as they are.
    ReadOnly,
    /// Rewrite `games.csv` and `games.pgn` atomically to hold exactly the header, the complete rows and their
    /// games (creating them when missing), so that more games can be appended.
    Rewrite,
}

/// The `Round` tag of game `number` (0-based): `pair.game`, both 1-based, as [`crate::runner::rundir::output::pgn_text`]
/// writes it.
pub fn round_tag(number: u64) -> String {
    format!("{}.{}", number / 2 + 1, number % 2 + 1)
}

/// The 0-based game number of a `Round` tag `P.G` (`P` from 1, `G` 1 or 2); `None` for anything else.
pub fn round_number(round: &str) -> Option<u64> {
    let (pair, game) = round.split_once('.')?;
    let pair: u64 = pair.parse().ok().filter(|&p| p >= 1)?;
    let game: u64 = game.parse().ok().filter(|g| (1..=2).contains(g))?;
    Some(2 * (pair - 1) + game - 1)
}

/// The [`EndReason`] whose [`EndReason::text`] is `text`.
fn parse_end(text: &str) -> Option<EndReason> {
    EndReason::ALL.into_iter().find(|r| r.text() == text)
}

/// Reads the complete rows of `games.csv` text: the header line, then every line that ends with a newline. A
/// last line without its newline is a partial write and is returned as dropped. Returns the rows and the
/// length in bytes of the complete part.
///
/// # Errors
/// [`RecordError::BadRow`] for a header other than [`CSV_HEADER`] or a complete line that is not a row of it
/// (wrong field count, a number that does not parse, an unknown result or termination, a game number that
/// does not belong to its pair, a game listed twice).
pub fn parse_csv(text: &str, path: &str) -> Result<(Vec<GameRow>, usize), RecordError> {
    let bad = |line: usize, reason: String| RecordError::BadRow { path: path.to_string(), line, reason };
    let header = format!("{}\n", CSV_HEADER.join(","));
    if header.starts_with(text) {
        // Empty, or a header cut short: no game yet.
        return Ok((Vec::new(), 0));
    }
    if !text.starts_with(&header) {
        let first = text.split_inclusive('\n').next().unwrap_or("");
        let first = first.strip_suffix('\n').unwrap_or(first);
        return Err(bad(1, format!("expected the header {:?}, got {}", header.trim_end(), shown(first))));
    }
    let complete = text.rfind('\n').map_or(0, |i| i + 1);
    let mut reader =
        csv::ReaderBuilder::new().has_headers(true).flexible(true).from_reader(&text.as_bytes()[..complete]);
    let mut rows = Vec::new();
    let mut seen = HashSet::new();
    for (i, record) in reader.records().enumerate() {
        let record = record.map_err(|e| bad(i + 2, e.to_string()))?;
        let line = record.position().map_or(i + 2, |p| p.line() as usize);
        let row = parse_row(&record, line).map_err(|reason| bad(line, reason))?;
        if !seen.insert(row.game) {
            return Err(bad(line, format!("game {} is listed twice", row.game)));
        }
        rows.push(row);
    }
    Ok((rows, complete))
}

/// One `games.csv` record at `line` as a row, or what is wrong with it (wrong field count, a number that does
/// not parse, an unknown result or termination, a game number that does not belong to its pair).
fn parse_row(record: &csv::StringRecord, line: usize) -> Result<GameRow, String> {
    if record.len() != CSV_HEADER.len() {
        return Err(format!("{} fields, expected {}", record.len(), CSV_HEADER.len()));
    }
    let number = |k: usize| -> Result<u64, String> {
        record[k].parse().map_err(|_| format!("{}: expected a number, got {}", CSV_HEADER[k], shown(&record[k])))
    };
    let (pair, game, opening) = (number(0)?, number(1)?, number(2)?);
    if game / 2 != pair {
        return Err(format!("game {game} is not a game of pair {pair}"));
    }
    let result = GameResult::from_pgn(&record[5])
        .ok_or_else(|| format!("result: expected 1-0, 0-1 or 1/2-1/2, got {}", shown(&record[5])))?;
    let end = parse_end(&record[6]).ok_or_else(|| format!("unknown termination {}", shown(&record[6])))?;
    Ok(GameRow {
        line,
        pair,
        game,
        opening: usize::try_from(opening).map_err(|_| "opening: too large".to_string())?,
        white: record[3].to_string(),
        black: record[4].to_string(),
        result,
        end,
        fields: record.iter().map(str::to_string).collect(),
    })
}

/// One game's text in a PGN file written by arbiter.
struct PgnChunk<'a> {
    /// The text, from its `[Event` line to the next one.
    text: &'a str,
    /// Its `Round` tag, if it has one.
    round: Option<&'a str>,
    /// The 1-based line where it begins.
    line: usize,
}

/// Splits PGN text written by [`crate::runner::rundir::output::pgn_text`] into games: each starts at a line beginning with
/// `[Event `. Text before the first game (none in a file arbiter wrote) is returned as its own chunk.
fn split_pgn(text: &str) -> Vec<PgnChunk<'_>> {
    // (byte offset, 1-based line) of each game's start.
    let mut starts: Vec<(usize, usize)> = Vec::new();
    let mut offset = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        if line.starts_with("[Event ") {
            starts.push((offset, i + 1));
        }
        offset += line.len();
    }
    if starts.first().map(|s| s.0) != Some(0) {
        starts.insert(0, (0, 1));
    }
    starts.push((text.len(), 0));
    starts
        .windows(2)
        .filter(|w| w[0].0 < w[1].0)
        .map(|w| {
            let text = &text[w[0].0..w[1].0];
            let round = text
                .lines()
                .take_while(|l| l.starts_with('['))
                .find_map(|l| l.strip_prefix("[Round \"").and_then(|r| r.strip_suffix("\"]")));
            PgnChunk { text, round, line: w[0].1 }
        })
        .collect()
}

/// Whether a game's PGN text is whole: it ends with its result and the blank line after it.
fn pgn_complete(text: &str, result: GameResult) -> bool {
    text.strip_suffix("\n\n").is_some_and(|t| t.ends_with(result.pgn()))
}

/// The text of a run file (bytes that are not UTF-8 replaced), or `None` when it does not exist.
fn read_if_present(path: &Path) -> Result<Option<String>, RecordError> {
    match std::fs::read(path) {
        Ok(bytes) => Ok(Some(String::from_utf8_lossy(&bytes).into_owned())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(reason) => Err(RecordError::Read { path: path.display().to_string(), reason }),
    }
}

/// Reads the games of the run folder `dir`: the complete rows of `games.csv` and, for each, its game in
/// `games.pgn` (by its `Round` tag). A missing `games.csv` or `games.pgn` reads as empty. Anything more in the
/// files (a partial last CSV line or header; PGN games, whole or partial, that the CSV does not list) is
/// dropped and [`RunRecords::dropped`] says what went; with [`Repair::Rewrite`] the files are rewritten
/// atomically to hold exactly the header, the complete rows and their games.
///
/// # Errors
/// [`RecordError::Read`] for a file that cannot be read, [`RecordError::BadRow`] (see [`parse_csv`]),
/// [`RecordError::MissingPgn`] when a row's game is not whole in `games.pgn`, [`RecordError::Write`] when a
/// repaired file cannot be written.
pub fn read_run(dir: &Path, repair: Repair) -> Result<RunRecords, RecordError> {
    let csv_path = dir.join("games.csv");
    let pgn_path = dir.join("games.pgn");
    let csv_file = read_if_present(&csv_path)?;
    let pgn_file = read_if_present(&pgn_path)?;
    let csv_text = csv_file.as_deref().unwrap_or("");
    let pgn_text = pgn_file.as_deref().unwrap_or("");
    let mut records = RunRecords::default();
    let (rows, complete) = parse_csv(csv_text, &csv_path.display().to_string())?;
    if complete < csv_text.len() {
        let what = if complete == 0 { "a partial header line" } else { "a partial last line" };
        records.dropped.push(format!("games.csv: {what} ({} bytes)", csv_text.len() - complete));
    }

    let listed: HashSet<u64> = rows.iter().map(|r| r.game).collect();
    let mut kept = String::new();
    let mut extra = 0;
    for chunk in split_pgn(pgn_text) {
        match chunk.round.and_then(round_number).filter(|n| listed.contains(n)) {
            Some(number) if !records.pgn.contains_key(&number) => {
                records.pgn.insert(number, chunk.text.to_string());
                records.pgn_lines.insert(number, chunk.line);
                kept.push_str(chunk.text);
            }
            _ => extra += 1,
        }
    }
    if extra > 0 {
        records.dropped.push(format!("games.pgn: {extra} games (whole or partial) that games.csv does not list"));
    }
    for row in &rows {
        let whole = records.pgn.get(&row.game).is_some_and(|text| pgn_complete(text, row.result));
        if !whole {
            return Err(RecordError::MissingPgn {
                pgn: pgn_path.display().to_string(),
                number: row.game + 1,
                round: round_tag(row.game),
            });
        }
    }
    records.rows = rows;

    if repair == Repair::Rewrite {
        // The PGN first: should the CSV rewrite fail, the PGN still holds every game the CSV lists.
        if pgn_file.as_deref() != Some(kept.as_str()) {
            replace_file(&pgn_path, kept.as_bytes())?;
        }
        let header = format!("{}\n", CSV_HEADER.join(","));
        let csv = if complete == 0 { header.as_str() } else { &csv_text[..complete] };
        if csv_file.as_deref() != Some(csv) {
            replace_file(&csv_path, csv.as_bytes())?;
        }
    }
    Ok(records)
}

/// What [`salvage_run`] drops and where it keeps the copies.
#[derive(Clone, Debug, Default)]
pub struct Salvage {
    /// The records kept: rows that parse, appear once, and whose game is whole and passes [`check_game`].
    pub records: RunRecords,
    /// The copies of what was dropped: `games.csv.dropped-<time>` (the header, then each dropped line as it
    /// was) and `games.pgn.dropped-<time>` (each dropped game's text as it was), those that were needed.
    pub copies: Vec<std::path::PathBuf>,
}

/// Reads the games of the run folder `dir` for `arbiter match --resume` and keeps only the games that are
/// sound, as `arbiter merge` checks them: every complete `games.csv` row must parse, appear once, have its game
/// whole in `games.pgn`, and that game must replay by the rules of `G` to the row's result, ply count and start
/// FEN ([`check_game`]), which must also be the start of the row's opening in `spec`. Everything else (a
/// damaged or repeated row and its game, a partial last line, PGN games no kept row lists) is dropped: copied
/// first into `games.csv.dropped-<time>` / `games.pgn.dropped-<time>` (`time` from `now`, `-2`, `-3`, ... when
/// taken), then `games.csv` and `games.pgn` are rewritten atomically to the kept records. The games of dropped
/// rows are not in the returned records, so the resumed match plays them again. [`RunRecords::dropped`] says
/// what went and why.
///
/// # Errors
/// [`RecordError::Read`] for a file that cannot be read, [`RecordError::BadRow`] for a header other than
/// [`CSV_HEADER`] (not a file of a match: nothing is dropped), [`RecordError::Write`] when a copy or a
/// rewritten file cannot be written.
pub fn salvage_run<G: Game>(
    dir: &Path,
    spec: &MatchSpec<G>,
    now: std::time::SystemTime,
) -> Result<Salvage, RecordError> {
    let csv_path = dir.join("games.csv");
    let pgn_path = dir.join("games.pgn");
    let csv_file = read_if_present(&csv_path)?;
    let pgn_file = read_if_present(&pgn_path)?;
    let csv_text = csv_file.as_deref().unwrap_or("");
    let pgn_text = pgn_file.as_deref().unwrap_or("");
    let csv_shown = csv_path.display().to_string();
    let pgn_shown = pgn_path.display().to_string();
    // The header decides whether this is a match's games.csv at all: another one is an error, not damage.
    let header = format!("{}\n", CSV_HEADER.join(","));
    if !csv_text.starts_with(&header) && !header.starts_with(csv_text) {
        return Err(parse_csv(csv_text, &csv_shown).expect_err("parse_csv refuses a text without the header"));
    }
    let body_start = if csv_text.starts_with(&header) { header.len() } else { csv_text.len() };
    let complete = csv_text.rfind('\n').map_or(0, |i| i + 1).max(body_start);

    let mut salvage = Salvage::default();
    let records = &mut salvage.records;
    let mut dropped_csv = String::new();
    let mut dropped_pgn = String::new();
    if complete < csv_text.len() {
        let what = if body_start == csv_text.len() { "a partial header line" } else { "a partial last line" };
        records.dropped.push(format!("games.csv: {what} ({} bytes)", csv_text.len() - complete));
        dropped_csv.push_str(&csv_text[complete..]);
        dropped_csv.push('\n');
    }
    let chunks = split_pgn(pgn_text);
    let mut chunk_of: BTreeMap<u64, usize> = BTreeMap::new();
    for (k, chunk) in chunks.iter().enumerate() {
        if let Some(number) = chunk.round.and_then(round_number) {
            chunk_of.entry(number).or_insert(k);
        }
    }
    let mut used = vec![false; chunks.len()];
    let mut seen = HashSet::new();
    let mut kept_csv = header.clone();
    let first_line = csv_text[..body_start].matches('\n').count() + 1;
    for (i, text) in csv_text[body_start..complete].split_inclusive('\n').enumerate() {
        let line = first_line + i;
        let mut reader = csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(text.as_bytes());
        let row = match reader.records().next() {
            Some(Ok(record)) => parse_row(&record, line),
            Some(Err(e)) => Err(e.to_string()),
            None => Err("an empty line".to_string()),
        };
        let checked = row.and_then(|row| {
            if !seen.insert(row.game) {
                return Err(format!("game {} is listed twice", row.game + 1));
            }
            let Some(&k) = chunk_of.get(&row.game) else {
                let round = round_tag(row.game);
                return Err(format!("game {} (Round \"{round}\") is not in games.pgn", row.game + 1));
            };
            used[k] = true;
            let chunk = &chunks[k];
            if !chunk.text.ends_with("\n\n") {
                let round = round_tag(row.game);
                return Err(format!("game {} (Round \"{round}\") is cut short in games.pgn", row.game + 1));
            }
            check_game::<G>(&row, Some(chunk.text), &pgn_shown, chunk.line).map_err(|e| e.to_string())?;
            let opening = spec.openings.get(row.opening).map(|o| G::position_fen(&o.start));
            let start = row.fields.get(CSV_HEADER.len() - 1);
            let position = |fen: &str| fen.split_whitespace().take(4).collect::<Vec<_>>().join(" ");
            if let Some(opening) = opening.filter(|fen| Some(position(fen)) != start.map(|s| position(s))) {
                return Err(format!(
                    "start_fen {}, the schedule's opening {} starts from {}",
                    start.map_or("none".to_string(), |s| shown(s)),
                    row.opening,
                    shown(&opening)
                ));
            }
            Ok((row, chunk))
        });
        match checked {
            Ok((row, chunk)) => {
                kept_csv.push_str(text);
                records.pgn.insert(row.game, chunk.text.to_string());
                records.pgn_lines.insert(row.game, chunk.line);
                records.rows.push(row);
            }
            Err(reason) => {
                records.dropped.push(format!("{csv_shown}:{line}: {reason}; the game is played again"));
                dropped_csv.push_str(text);
            }
        }
    }
    // The PGN kept: the games of kept rows, in file order; everything else goes to the copy.
    let kept_games: HashSet<u64> = records.rows.iter().map(|r| r.game).collect();
    let mut kept_pgn = String::new();
    let mut extra = 0;
    for (k, chunk) in chunks.iter().enumerate() {
        let kept = chunk.round.and_then(round_number).is_some_and(|n| kept_games.contains(&n) && chunk_of[&n] == k);
        if kept {
            kept_pgn.push_str(chunk.text);
        } else {
            extra += usize::from(!used[k]);
            dropped_pgn.push_str(chunk.text);
        }
    }
    if extra > 0 {
        records.dropped.push(format!("games.pgn: {extra} games (whole or partial) that games.csv does not list"));
    }

    // The copies first: what is dropped is never lost.
    if !dropped_csv.is_empty() || !dropped_pgn.is_empty() {
        let stamp = crate::runner::rundir::output::timestamp(now);
        for n in 1u32.. {
            let suffix = if n == 1 { stamp.clone() } else { format!("{stamp}-{n}") };
            let csv_copy = dir.join(format!("games.csv.dropped-{suffix}"));
            let pgn_copy = dir.join(format!("games.pgn.dropped-{suffix}"));
            if csv_copy.symlink_metadata().is_ok() || pgn_copy.symlink_metadata().is_ok() {
                continue;
            }
            let copies = [(csv_copy, &dropped_csv, header.as_str()), (pgn_copy, &dropped_pgn, "")];
            for (path, text, head) in copies.into_iter().filter(|c| !c.1.is_empty()) {
                write_copy(&path, &format!("{head}{text}"))?;
                salvage.copies.push(path);
            }
            break;
        }
    }
    // The PGN first: should the CSV rewrite fail, the PGN still holds every game the CSV lists.
    if pgn_file.as_deref() != Some(kept_pgn.as_str()) {
        replace_file(&pgn_path, kept_pgn.as_bytes())?;
    }
    if csv_file.as_deref() != Some(kept_csv.as_str()) {
        replace_file(&csv_path, kept_csv.as_bytes())?;
    }
    Ok(salvage)
}

/// Writes the copy `path` of dropped records: a new file, synced to disk before the originals are rewritten.
fn write_copy(path: &Path, text: &str) -> Result<(), OutputError> {
    use std::io::Write as _;
    let mut file = create_new_file(path)?;
    let io = |reason| OutputError::Io { path: path.display().to_string(), reason };
    file.write_all(text.as_bytes()).map_err(io)?;
    file.sync_all().map_err(io)
}

/// Replays every game of `records` by the rules of `G` ([`Game::replay_pgn`]) and checks it against its
/// `games.csv` row: one game, every move legal from its `FEN` tag, the result token, the `Result` tag and the
/// row's result the same, and the plies replayed equal to `PlyCount` and to the row's `plies`. `pgn_path` names
/// `games.pgn` in errors. `arbiter merge` runs it on every shard, so that a merged `games.pgn` holds only games
/// that replay.
///
/// # Errors
/// [`RecordError::BadGame`] for the first game that fails, naming the file, the line where the game begins and
/// what is wrong.
pub fn check_games<G: Game>(records: &RunRecords, pgn_path: &str) -> Result<(), RecordError> {
    for row in &records.rows {
        let line = records.pgn_lines.get(&row.game).copied().unwrap_or(1);
        let text = records.pgn.get(&row.game).map(String::as_str);
        check_game::<G>(row, text, pgn_path, line)?;
    }
    Ok(())
}

/// Checks one game: its PGN `text` (beginning at `line` of `pgn_path`; `None` when missing) replays by the
/// rules of `G` to the row's result and ply count, and starts from the row's `start_fen` (the `FEN` tag, or the
/// game's standard start without one; the position fields are compared, not the move clocks). See
/// [`check_games`].
///
/// # Errors
/// [`RecordError::BadGame`] naming the file, the line where the game begins and what is wrong.
pub fn check_game<G: Game>(row: &GameRow, text: Option<&str>, pgn_path: &str, line: usize) -> Result<(), RecordError> {
    let field = |name: &str| {
        let k = CSV_HEADER.iter().position(|h| *h == name).expect("games.csv has the column");
        row.fields.get(k).map(String::as_str)
    };
    let bad = |reason: String| RecordError::BadGame {
        pgn: pgn_path.to_string(),
        line,
        number: row.game + 1,
        round: round_tag(row.game),
        reason,
    };
    let text = text.ok_or_else(|| bad("missing".to_string()))?;
    let games = G::replay_pgn(text, pgn_path, line).map_err(|e| bad(format!("does not replay: {e}")))?;
    let [game] = games.as_slice() else {
        return Err(bad(format!("{} games where one was written", games.len())));
    };
    let tag = |name: &str| game.tags.iter().find(|t| t.0 == name).map(|t| t.1.as_str());
    if game.result != Some(row.result) || tag("Result") != Some(row.result.pgn()) {
        let token = game.result.map_or("*", |r| r.pgn());
        let tag = tag("Result").unwrap_or("none");
        return Err(bad(format!("result {token} (Result tag {tag}), games.csv says {}", row.result.pgn())));
    }
    let plies = game.plies.to_string();
    let csv_plies = field("plies");
    if tag("PlyCount").is_some_and(|n| n != plies) || csv_plies != Some(plies.as_str()) {
        return Err(bad(format!(
            "{plies} plies replayed, PlyCount {}, games.csv plies {}",
            tag("PlyCount").unwrap_or("none"),
            csv_plies.unwrap_or("none")
        )));
    }
    // The position fields only: a game with the standard pieces but other move clocks may be written without a
    // FEN tag, and the clocks do not decide which moves are legal.
    let start = tag("FEN").unwrap_or(G::START_FEN);
    let position = |fen: &str| fen.split_whitespace().take(4).collect::<Vec<_>>().join(" ");
    if field("start_fen").map(position) != Some(position(start)) {
        return Err(bad(format!(
            "starts from {}, games.csv start_fen {}",
            shown(start),
            field("start_fen").map_or("none".to_string(), shown)
        )));
    }
    Ok(())
}

/// Counts `rows`, in the order given, into a fresh [`MatchState`] of `spec` (the SPRT evaluated after each
/// complete pair, as when the games were played: see [`MatchState::count`]), and returns it with the set of
/// game numbers counted. `path` names the CSV in errors.
///
/// # Errors
/// [`RecordError::NotInSchedule`] for a row whose game is not in the schedule (beyond its end, or in another
/// shard) or does not match it (another opening or other players than the schedule gives that game), and
/// [`RecordError::BadRow`] for a game counted twice.
pub fn replay<G: Game>(
    spec: &MatchSpec<G>,
    rows: &[GameRow],
    path: &str,
) -> Result<(MatchState, HashSet<u64>), RecordError> {
    let schedule = spec.schedule();
    let mut state = MatchState::new(schedule.clone());
    let mut done = HashSet::new();
    for row in rows {
        let wrong = |reason: String| RecordError::NotInSchedule {
            path: path.to_string(),
            line: row.line,
            number: row.game + 1,
            reason,
        };
        if row.pair >= schedule.total_pairs {
            return Err(wrong(format!("beyond the schedule's {} games", 2 * schedule.total_pairs)));
        }
        if let Some(shard) = schedule.shard
            && !shard.owns(row.pair)
        {
            return Err(wrong(format!("pair {} is not in shard {shard}", row.pair + 1)));
        }
        let pair = schedule.pair(row.pair);
        let game = (row.game % 2) as u8;
        let (white, black) = pair.colours(game);
        let expected = (pair.opening, spec.engines[white].name.as_str(), spec.engines[black].name.as_str());
        if (row.opening, row.white.as_str(), row.black.as_str()) != expected {
            return Err(wrong(format!(
                "the schedule plays opening {} with {} (White) against {} (Black), the row has opening {} with {} \
                 against {}",
                expected.0, expected.1, expected.2, row.opening, row.white, row.black
            )));
        }
        if !done.insert(row.game) {
            return Err(RecordError::BadRow {
                path: path.to_string(),
                line: row.line,
                reason: format!("game {} is listed twice", row.game + 1),
            });
        }
        state.count(spec, &pair, game, row.result, row.end);
    }
    Ok((state, done))
}

/// The counts of a two-engine run, from the first engine's view (the engine with White in the first game of
/// the first pair): what `arbiter sprt --results` reports on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunCounts {
    /// The first engine.
    pub first: String,
    /// The second engine.
    pub second: String,
    /// Single games, from the first engine's view.
    pub wdl: Wdl,
    /// Complete game pairs, from the first engine's view.
    pub penta: Pentanomial,
}

/// Reads the games of the run folder `dir` ([`read_run`], read only) and counts them for its two engines.
///
/// # Errors
/// Those of [`read_run`], and [`RecordError::NotTwoEngines`] for a run of more or fewer than two engines.
pub fn counts_of_run(dir: &Path) -> Result<RunCounts, RecordError> {
    let records = read_run(dir, Repair::ReadOnly)?;
    let mut names: Vec<&str> = Vec::new();
    for row in &records.rows {
        for name in [row.white.as_str(), row.black.as_str()] {
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    if names.len() != 2 {
        return Err(RecordError::NotTwoEngines {
            csv: dir.join("games.csv").display().to_string(),
            engines: names.iter().map(|n| n.to_string()).collect(),
        });
    }
    let first = records.rows.iter().min_by_key(|r| r.game).map(|r| r.white.clone()).expect("two names, so rows");
    let second = names.iter().find(|&&n| n != first).expect("two names").to_string();
    let mut wdl = Wdl::default();
    let mut by_pair: BTreeMap<u64, Vec<(u64, GameScore)>> = BTreeMap::new();
    for row in &records.rows {
        let color = if row.white == first { crate::chess::Color::White } else { crate::chess::Color::Black };
        let score = score_of(row.result, color);
        match score {
            GameScore::Win => wdl.wins += 1,
            GameScore::Draw => wdl.draws += 1,
            GameScore::Loss => wdl.losses += 1,
        }
        by_pair.entry(row.pair).or_default().push((row.game, score));
    }
    let mut penta = Pentanomial::default();
    for games in by_pair.values_mut().filter(|g| g.len() == 2) {
        games.sort_by_key(|g| g.0);
        penta.add_pair(games[0].1, games[1].1);
    }
    Ok(RunCounts { first, second, wdl, penta })
}

// The games of `games.csv` files for a rating list (`arbiter elo`): the lenient reading of the records, which
// needs only the columns `pair`, `white`, `black` and `result` and no `games.pgn`.

/// The games of the input files, with the players' names.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GameSet {
    /// Player names by index, in order of first appearance.
    pub names: Vec<String>,
    /// Every game; `pair` numbers the (file, pair) combinations from 0 in order of first appearance.
    pub games: Vec<RatedGame>,
    /// The files read.
    pub files: Vec<PathBuf>,
}

/// The columns of `games.csv` the rating needs.
const NEEDED_COLUMNS: [&str; 4] = ["pair", "white", "black", "result"];

/// The `games.csv` a command-line path stands for: the path itself, or `games.csv` inside a folder.
fn games_file(path: &Path) -> PathBuf {
    if path.is_dir() { path.join("games.csv") } else { path.to_path_buf() }
}

/// Parses a `games.csv` result: `1-0`, `0-1` or `1/2-1/2`, from White's view.
fn parse_result(text: &str) -> Option<GameScore> {
    match text {
        "1-0" => Some(GameScore::Win),
        "0-1" => Some(GameScore::Loss),
        "1/2-1/2" => Some(GameScore::Draw),
        _ => None,
    }
}

/// Reads the games of every file (a folder stands for its `games.csv`); players are matched by name across
/// files and game pairs kept apart by file.
///
/// # Errors
/// [`RecordError::Read`] for a file that cannot be read, [`RecordError::File`] for one that or lacks a needed column (`pair`, `white`,
/// `black`, `result`), and naming `file:line` for a row with the wrong number of fields, a `pair` that is not
/// a non-negative integer, an empty name, a player against itself, or a result other than `1-0`, `0-1`,
/// `1/2-1/2`.
pub fn read_rated_games(paths: &[PathBuf]) -> Result<GameSet, RecordError> {
    let mut reader = GameReader::default();
    for path in paths {
        let file = games_file(path);
        let opened = std::fs::File::open(&file)
            .map_err(|reason| RecordError::Read { path: file.display().to_string(), reason })?;
        reader.read(opened, &file.display().to_string())?;
        reader.set.files.push(file);
    }
    Ok(reader.set)
}

/// Reads `games.csv` text into a [`GameSet`], file after file, keeping players by name and game pairs by file.
#[derive(Debug, Default)]
struct GameReader {
    /// The games read so far (`files` is filled by the caller).
    set: GameSet,
    /// Player index by name.
    players: HashMap<String, usize>,
    /// Pair id by (file number, pair in the file).
    pairs: HashMap<(usize, u64), u64>,
    /// Files read so far.
    read: usize,
}

impl GameReader {
    /// Reads the games of one `games.csv` text; `shown` names it in errors.
    fn read(&mut self, input: impl std::io::Read, shown: &str) -> Result<(), RecordError> {
        let file = |reason: String| RecordError::File { path: shown.to_string(), reason };
        let bad =
            |line: u64, reason: String| RecordError::BadRow { path: shown.to_string(), line: line as usize, reason };
        let file_index = self.read;
        self.read += 1;
        let mut reader = csv::Reader::from_reader(input);
        let header = reader.headers().map_err(|e| file(format!("cannot read the header: {e}")))?.clone();
        let mut columns = [0; 4];
        for (column, name) in columns.iter_mut().zip(NEEDED_COLUMNS) {
            *column = header.iter().position(|h| h == name).ok_or_else(|| {
                file(format!("no {name:?} column in the header (expected the games.csv of arbiter match)"))
            })?;
        }
        for record in reader.records() {
            let record = record.map_err(|e| match e.kind() {
                csv::ErrorKind::UnequalLengths { pos: Some(pos), expected_len, len } => {
                    bad(pos.line(), format!("{len} fields, expected {expected_len}"))
                }
                _ => match e.position() {
                    Some(pos) => bad(pos.line(), e.to_string()),
                    None => file(e.to_string()),
                },
            })?;
            let line = record.position().map_or(0, |p| p.line());
            let field = |k: usize| record.get(columns[k]).unwrap_or("");
            let pair: u64 = field(0)
                .parse()
                .map_err(|_| bad(line, format!("pair {:?} is not a non-negative integer", field(0))))?;
            let (white, black) = (field(1), field(2));
            if white.is_empty() || black.is_empty() {
                return Err(bad(line, "an empty player name".to_string()));
            }
            if white == black {
                return Err(bad(line, format!("{white:?} plays itself")));
            }
            let result = parse_result(field(3))
                .ok_or_else(|| bad(line, format!("result {:?}: expected 1-0, 0-1 or 1/2-1/2", field(3))))?;
            let (white, black) = (self.player(white), self.player(black));
            let next = self.pairs.len() as u64;
            let pair = *self.pairs.entry((file_index, pair)).or_insert(next);
            self.set.games.push(RatedGame { white, black, result, pair });
        }
        Ok(())
    }

    /// The index of the player `name`, added when new.
    fn player(&mut self, name: &str) -> usize {
        let names = &mut self.set.names;
        *self.players.entry(name.to_string()).or_insert_with(|| {
            names.push(name.to_string());
            names.len() - 1
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Position;
    use crate::player::EngineSpec;
    use crate::runner::rundir::output::pgn_text;
    use crate::runner::{GamePair, GameRecord, GameSettings, MatchLength, Opening, OpeningOrder, Shard};
    use std::time::UNIX_EPOCH;

    /// A fresh folder for one test.
    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("arbiter-records-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn spec() -> MatchSpec {
        MatchSpec {
            engines: vec![EngineSpec::builtin("seed").unwrap(), EngineSpec::builtin("nomob").unwrap()],
            openings: vec![Opening { start: Position::startpos(), moves: Vec::new(), line: 1 }],
            openings_source: "startpos".into(),
            order: OpeningOrder::Sequential,
            seed: 1,
            start: 1,
            variant: crate::runner::Variant::Standard,
            tournament: crate::runner::Tournament::RoundRobin,
            swap: true,
            length: MatchLength::Games(8),
            concurrency: 1,
            settings: GameSettings::default(),
            recover: false,
            sprt: None,
            shard: None,
        }
    }

    /// Game `number` of the spec's schedule: 1. e4 e5 and a result by game number (white wins, draw, ...).
    fn game(number: u64) -> (GamePair, u8, GameRecord) {
        let pair = spec().schedule().pair(number / 2);
        let g = (number % 2) as u8;
        let (white, black) = pair.colours(g);
        let mut position = Position::startpos();
        let mut moves = Vec::new();
        for uci in ["e2e4", "e7e5"] {
            let m = position.legal_moves().iter().copied().find(|m| m.to_uci(false) == uci).unwrap();
            position.make_move(m);
            moves.push(m);
        }
        let result = [GameResult::WhiteWins, GameResult::Draw, GameResult::BlackWins][(number % 3) as usize];
        let end = if result == GameResult::Draw { EndReason::MaxMoves } else { EndReason::ResignAdjudication };
        let names = ["seed", "nomob"];
        let record = GameRecord {
            white: names[white].into(),
            black: names[black].into(),
            start: Position::startpos(),
            moves,
            comments: vec!["book".into(), "+0.10/3".into()],
            book_plies: 1,
            result,
            end,
            note: None,
        };
        (pair, g, record)
    }

    /// Writes games `numbers` to `dir` as the sink does; returns the CSV row text of each.
    fn write_games(dir: &Path, numbers: &[u64]) -> Vec<String> {
        let mut sink = crate::runner::ResultSink::create(dir, "test").unwrap();
        let mut rows = Vec::new();
        for &n in numbers {
            let (pair, g, record) = game(n);
            sink.write_game(&pair, g, &record).unwrap();
            let text = std::fs::read_to_string(dir.join("games.csv")).unwrap();
            rows.push(text.lines().last().unwrap().to_string() + "\n");
        }
        rows
    }

    fn pgn_of(number: u64) -> String {
        let (pair, g, record) = game(number);
        pgn_text("test", &pair, g, &record, UNIX_EPOCH)
    }

    #[test]
    fn rounds_and_game_numbers() {
        assert_eq!(round_tag(0), "1.1");
        assert_eq!(round_tag(7), "4.2");
        for n in 0..20 {
            assert_eq!(round_number(&round_tag(n)), Some(n));
        }
        for bad in ["", "1", "0.1", "1.0", "1.3", "a.1", "1.1.1"] {
            assert_eq!(round_number(bad), None, "{bad}");
        }
    }

    /// PGN text without its `Date` tag (the sink writes today's date).
    fn undated(text: &str) -> String {
        text.lines().filter(|l| !l.starts_with("[Date ")).map(|l| format!("{l}\n")).collect()
    }

    #[test]
    fn clean_files_read_back_unchanged() {
        let dir = scratch("clean");
        write_games(&dir, &[1, 0, 2]);
        let before = (std::fs::read(dir.join("games.csv")).unwrap(), std::fs::read(dir.join("games.pgn")).unwrap());
        let records = read_run(&dir, Repair::Rewrite).unwrap();
        assert!(records.dropped.is_empty());
        assert_eq!(records.rows.iter().map(|r| r.game).collect::<Vec<_>>(), [1, 0, 2]);
        assert_eq!(records.rows.iter().map(|r| r.line).collect::<Vec<_>>(), [2, 3, 4]);
        assert_eq!(records.rows[0].fields[3..6], ["nomob".to_string(), "seed".into(), "1/2-1/2".into()]);
        assert_eq!((records.rows[0].result, records.rows[0].end), (GameResult::Draw, EndReason::MaxMoves));
        assert_eq!(records.pgn.keys().copied().collect::<Vec<_>>(), [0, 1, 2]);
        assert_eq!(undated(&records.pgn[&2]), undated(&pgn_of(2)));
        let after = (std::fs::read(dir.join("games.csv")).unwrap(), std::fs::read(dir.join("games.pgn")).unwrap());
        assert_eq!(before, after);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_partial_csv_line_and_extra_pgn_games_are_dropped() {
        let dir = scratch("tail");
        let rows = write_games(&dir, &[0, 1, 2]);
        let csv = std::fs::read_to_string(dir.join("games.csv")).unwrap();
        let pgn = std::fs::read_to_string(dir.join("games.pgn")).unwrap();
        // Killed while writing game 3's row (cut before its newline), after game 3's PGN and half of game 4's.
        let other = scratch("tail-row");
        let partial_row = &write_games(&other, &[3])[0];
        let cut = partial_row.len() - 1;
        std::fs::write(dir.join("games.csv"), format!("{csv}{}", &partial_row[..cut])).unwrap();
        let half = pgn_of(4);
        std::fs::write(dir.join("games.pgn"), format!("{pgn}{}{}", pgn_of(3), &half[..half.len() / 2])).unwrap();

        let read_only = read_run(&dir, Repair::ReadOnly).unwrap();
        assert_eq!(read_only.rows.len(), 3);
        assert_eq!(
            read_only.dropped,
            [
                format!("games.csv: a partial last line ({cut} bytes)"),
                "games.pgn: 2 games (whole or partial) that games.csv does not list".to_string()
            ]
        );
        assert!(std::fs::read_to_string(dir.join("games.csv")).unwrap().len() > csv.len(), "read-only");

        let repaired = read_run(&dir, Repair::Rewrite).unwrap();
        assert_eq!(repaired.dropped, read_only.dropped);
        assert_eq!(std::fs::read_to_string(dir.join("games.csv")).unwrap(), csv);
        assert_eq!(std::fs::read_to_string(dir.join("games.pgn")).unwrap(), pgn);
        assert_eq!(rows.concat(), csv.split_once('\n').unwrap().1);
        let again = read_run(&dir, Repair::Rewrite).unwrap();
        assert!(again.dropped.is_empty());
        assert!(!dir.join(".games.csv.tmp").exists() && !dir.join(".games.pgn.tmp").exists());
        std::fs::remove_dir_all(&dir).unwrap();
        std::fs::remove_dir_all(&other).unwrap();
    }

    #[test]
    fn a_cut_header_or_missing_files_read_as_no_games() {
        let dir = scratch("empty");
        let header = format!("{}\n", CSV_HEADER.join(","));
        let records = read_run(&dir, Repair::ReadOnly).unwrap();
        assert!(records.rows.is_empty() && records.dropped.is_empty());
        assert!(!dir.join("games.csv").exists(), "read-only");
        // Rewriting creates both files, ready to append to.
        let records = read_run(&dir, Repair::Rewrite).unwrap();
        assert!(records.rows.is_empty() && records.dropped.is_empty());
        assert_eq!(std::fs::read_to_string(dir.join("games.csv")).unwrap(), header);
        assert_eq!(std::fs::read_to_string(dir.join("games.pgn")).unwrap(), "");

        std::fs::write(dir.join("games.csv"), "pair,game,open").unwrap();
        std::fs::write(dir.join("games.pgn"), &pgn_of(0)[..30]).unwrap();
        let records = read_run(&dir, Repair::Rewrite).unwrap();
        assert!(records.rows.is_empty());
        assert_eq!(
            records.dropped,
            [
                "games.csv: a partial header line (14 bytes)",
                "games.pgn: 1 games (whole or partial) that games.csv does not list"
            ]
        );
        assert_eq!(std::fs::read_to_string(dir.join("games.csv")).unwrap(), header);
        assert_eq!(std::fs::read_to_string(dir.join("games.pgn")).unwrap(), "");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn damage_before_the_tail_is_an_error() {
        let dir = scratch("damaged");
        let rows = write_games(&dir, &[0, 1, 2]);
        let header = format!("{}\n", CSV_HEADER.join(","));
        let csv = |rows: &[&str]| std::fs::write(dir.join("games.csv"), format!("{header}{}", rows.concat())).unwrap();
        let err = |dir: &Path| read_run(dir, Repair::Rewrite).unwrap_err().to_string();

        csv(&[&rows[0], "1,2,3\n", &rows[2]]);
        assert!(err(&dir).ends_with("games.csv:3: 3 fields, expected 9"), "{}", err(&dir));
        csv(&[&rows[0], &rows[0]]);
        assert!(err(&dir).ends_with("games.csv:3: game 0 is listed twice"), "{}", err(&dir));
        csv(&[&rows[0], &rows[1].replace("1/2-1/2", "2-0")]);
        assert!(err(&dir).contains("games.csv:3: result: expected 1-0, 0-1 or 1/2-1/2, got \"2-0\""), "{}", err(&dir));
        csv(&[&rows[0].replacen("0,0,", "1,0,", 1)]);
        assert!(err(&dir).ends_with("games.csv:2: game 0 is not a game of pair 1"), "{}", err(&dir));
        std::fs::write(dir.join("games.csv"), "white,black\n1,2\n").unwrap();
        assert!(err(&dir).contains("games.csv:1: expected the header"), "{}", err(&dir));

        // A listed game missing from the PGN is damage, not a tail: nothing is rewritten.
        csv(&[&rows[0], &rows[1], &rows[2]]);
        let pgn = std::fs::read_to_string(dir.join("games.pgn")).unwrap();
        std::fs::write(dir.join("games.pgn"), pgn.replace("[Round \"1.2\"]", "[Round \"9.2\"]")).unwrap();
        let text = err(&dir);
        let expected =
            "games.pgn: game 2 (Round \"1.2\") is listed in games.csv but missing; the run folder is damaged";
        assert!(text.ends_with(expected), "{text}");
        assert!(std::fs::read_to_string(dir.join("games.pgn")).unwrap().contains("[Round \"9.2\"]"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn check_game_compares_the_start_fen() {
        let dir = scratch("start-fen");
        write_games(&dir, &[0]);
        let records = read_run(&dir, Repair::ReadOnly).unwrap();
        let mut row = records.rows[0].clone();
        let text = records.pgn.get(&0).map(String::as_str);
        check_game::<crate::chess::Game>(&row, text, "games.pgn", 1).unwrap();
        // Other move clocks are the same start; another position is not.
        row.fields[8] = row.fields[8].replace(" 0 1", " 3 7");
        check_game::<crate::chess::Game>(&row, text, "games.pgn", 1).unwrap();
        row.fields[8] = row.fields[8].replace(" w ", " b ");
        let err = check_game::<crate::chess::Game>(&row, text, "games.pgn", 1).unwrap_err().to_string();
        assert!(err.starts_with("games.pgn:1: game 1 (Round \"1.1\"): starts from \"rnbqkbnr/"), "{err}");
        assert!(
            err.contains("games.csv start_fen \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 3 7\""),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn replay_counts_and_checks_the_schedule() {
        let dir = scratch("replay");
        write_games(&dir, &[0, 1, 3]);
        let records = read_run(&dir, Repair::ReadOnly).unwrap();
        let (state, done) = replay(&spec(), &records.rows, "games.csv").unwrap();
        assert_eq!(done, HashSet::from([0, 1, 3]));
        assert_eq!(state.tally.games, 3);
        // Game 0: seed has White and White wins; game 1: a draw; game 3: nomob has White and White wins.
        let tally = &state.tally.pairings[0];
        assert_eq!((tally.wdl.wins, tally.wdl.draws, tally.wdl.losses), (1, 1, 1));
        assert_eq!(tally.penta.pairs(), 1);
        assert_eq!(state.tally.count(EndReason::MaxMoves), 1);

        let mut sharded = spec();
        sharded.shard = Some(Shard::new(2, 2).unwrap());
        let err = replay(&sharded, &records.rows, "games.csv").unwrap_err().to_string();
        assert_eq!(err, "games.csv:2: game 1: pair 1 is not in shard 2/2");
        let mut short = spec();
        short.length = MatchLength::Games(2);
        let err = replay(&short, &records.rows, "games.csv").unwrap_err().to_string();
        assert_eq!(err, "games.csv:4: game 4: beyond the schedule's 2 games");
        let mut swapped = spec();
        swapped.engines.swap(0, 1);
        let err = replay(&swapped, &records.rows, "games.csv").unwrap_err().to_string();
        assert!(err.starts_with("games.csv:2: game 1: the schedule plays opening 0 with nomob (White)"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn games_are_read_across_files_by_name() {
        let header = "pair,game,opening,white,black,result,termination,plies,start_fen\n";
        let mut reader = GameReader::default();
        let first = format!("{header}0,0,0,a,b,1-0,checkmate,9,x\n0,1,0,b,a,1/2-1/2,max moves,9,x\n");
        reader.read(first.as_bytes(), "one.csv").unwrap();
        reader.read(format!("{header}0,0,0,c,a,0-1,checkmate,9,x\n").as_bytes(), "two.csv").unwrap();
        assert_eq!(reader.set.names, ["a", "b", "c"]);
        let games: Vec<(usize, usize, GameScore, u64)> =
            reader.set.games.iter().map(|g| (g.white, g.black, g.result, g.pair)).collect();
        assert_eq!(games, [(0, 1, GameScore::Win, 0), (1, 0, GameScore::Draw, 0), (2, 0, GameScore::Loss, 1)]);
        let error = reader.read(format!("{header}0,0,0,a,b,1-0,x,9,x\n1,2,0,a,b,2-0,x,9,x\n").as_bytes(), "bad.csv");
        assert_eq!(error.unwrap_err().to_string(), "bad.csv:3: result \"2-0\": expected 1-0, 0-1 or 1/2-1/2");
    }

    proptest::proptest! {
        #[test]
        fn no_games_csv_text_panics(text in "(pair,white,black,result\n)?[-a-c0-9,/.\"\n]{0,80}") {
            let _ = GameReader::default().read(text.as_bytes(), "fuzz.csv");
        }
    }
}
