//! Reading a run folder's games back: `games.csv` rows and `games.pgn` games, paired by `Round` tag, for
//! `arbiter match` (its resume and charts), `arbiter merge` and `arbiter sprt --results`.
//!
//! `games.csv` is the commit record: [`ResultSink`](crate::runner::ResultSink) writes and flushes a game's PGN before its CSV row,
//! so every row has its PGN game. A process killed mid-write (SIGKILL, power loss) can leave a partial last CSV
//! line, and a PGN game (whole or partial) whose row was never written. [`read_run`] keeps the complete CSV
//! rows and exactly the PGN games they list; how it treats damage and whether it rewrites the files is its
//! [`Strictness`].

use crate::game::GameResult;
use crate::notation::quote::shown;
use crate::runner::rundir::csv::{
    CsvLayout, GameRow, RowError, body_lines, header_line, layout, parse_line, round_number, round_tag,
};
use crate::runner::rundir::output::{OutputError, create_new_file, replace_file, timestamp};
use crate::runner::rundir::record_error::RecordError;
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// The games of a run folder: complete CSV rows in file order, and the PGN text of each of their games.
#[derive(Clone, Debug, Default)]
pub struct RunRecords {
    /// The complete `games.csv` rows kept, in file order (the order the games ended).
    pub rows: Vec<GameRow>,
    /// Each row's game as PGN text exactly as written, by game number (0-based).
    pub pgn: BTreeMap<u64, String>,
    /// The 1-based line of `games.pgn` where each of those games begins, by game number.
    pub pgn_lines: BTreeMap<u64, usize>,
    /// What was dropped, in words (empty when the files ended cleanly).
    pub dropped: Vec<String>,
    /// The copies of what [`Strictness::Salvage`] dropped: `games.csv.dropped-<time>` (the header, then each
    /// dropped line as it was) and `games.pgn.dropped-<time>` (each dropped game's text as it was), those that
    /// were needed.
    pub copies: Vec<PathBuf>,
}

/// The check [`Strictness::Salvage`] makes of each kept game, beyond its row and its whole PGN text: the
/// match's own rules and schedule (implemented by [`MatchSpec`](crate::runner::MatchSpec), see
/// [`crate::runner::rundir::replay`]).
pub trait GameCheck {
    /// Checks the game of `row`, whose PGN `text` begins at `line` of `pgn_path`; the error is the reason to
    /// drop the row.
    fn check(&self, row: &GameRow, text: &str, pgn_path: &str, line: usize) -> Result<(), GameCheckError>;
}

/// Why [`GameCheck::check`] drops a kept game.
#[derive(Debug, thiserror::Error)]
pub enum GameCheckError {
    /// The game does not replay to its row.
    #[error(transparent)]
    Replay(#[from] RecordError),
    /// The game does not start from its opening in the schedule.
    #[error(
        "start_fen {}, the schedule's opening {opening} starts from {}",
        .start.as_deref().map_or("none".to_string(), shown),
        shown(.expected)
    )]
    Opening {
        /// The row's start FEN, if it has one.
        start: Option<String>,
        /// The opening's number.
        opening: usize,
        /// The opening's FEN.
        expected: String,
    },
}

/// How [`read_run`] treats what is not a sound, complete record.
#[derive(Clone, Copy)]
pub enum Strictness<'a> {
    /// Read only. A cut tail (a partial last CSV line or header, PGN games the CSV does not list) is left out
    /// and named in [`RunRecords::dropped`]; damage before it (a bad row, a listed game not whole) is an error.
    Strict,
    /// As [`Strictness::Strict`], then `games.csv` and `games.pgn` are rewritten atomically to hold exactly the
    /// header, the complete rows and their games (created when missing), so that more games can be appended.
    Rewrite,
    /// For `arbiter match --resume`: every row that does not parse, is repeated, lacks its whole game or fails
    /// `check` is dropped with its game (the resumed match plays it again), as is the cut tail; what is dropped
    /// is copied first into `games.csv.dropped-<time>` / `games.pgn.dropped-<time>` (`time` from `now`, `-2`,
    /// `-3`, ... when taken), then the files are rewritten atomically to the kept records.
    Salvage {
        /// The check of each game (the match's rules and schedule).
        check: &'a dyn GameCheck,
        /// The time the copies are named by.
        now: SystemTime,
    },
}

impl Strictness<'_> {
    /// Whether the files are rewritten to the kept records.
    fn rewrites(&self) -> bool {
        !matches!(self, Strictness::Strict)
    }
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

/// Why a row is not kept with its game.
enum GameFault {
    /// Game `.0` (0-based) is not whole in `games.pgn` (an error when reading strictly); `.1` says why.
    Missing(u64, String),
    /// The row or its game is unsound: the reason to drop it.
    Drop(String),
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
/// `games.pgn` (by its `Round` tag; the first game with that tag). A missing `games.csv` or `games.pgn` reads
/// as empty. What is not kept is named in [`RunRecords::dropped`]; `strictness` says what is an error, what is
/// dropped and whether the files are rewritten.
///
/// # Errors
/// [`RecordError::Read`] for a file that cannot be read, [`RecordError::BadRow`] for a header other than
/// [`CSV_HEADER`](crate::runner::rundir::output::CSV_HEADER) (not a file of a match: nothing is dropped) and,
/// unless salvaging, a complete line that is not a row (see [`parse_csv`](crate::runner::rundir::csv::parse_csv)),
/// [`RecordError::MissingPgn`] unless salvaging when a row's game is not whole in `games.pgn`,
/// [`RecordError::Write`] when a copy or a rewritten file cannot be written.
pub fn read_run(dir: &Path, strictness: Strictness<'_>) -> Result<RunRecords, RecordError> {
    let csv_path = dir.join("games.csv");
    let pgn_path = dir.join("games.pgn");
    let csv_file = read_if_present(&csv_path)?;
    let pgn_file = read_if_present(&pgn_path)?;
    let csv_text = csv_file.as_deref().unwrap_or("");
    let pgn_text = pgn_file.as_deref().unwrap_or("");
    let csv_shown = csv_path.display().to_string();
    let pgn_shown = pgn_path.display().to_string();
    let salvage = match strictness {
        Strictness::Salvage { check, .. } => Some(check),
        _ => None,
    };
    // The header decides whether this is a match's games.csv at all: another one is an error, not damage.
    let layout = layout(csv_text, &csv_shown)?;
    let header = header_line();

    let mut records = RunRecords::default();
    let mut dropped_csv = String::new();
    if layout.complete < csv_text.len() {
        let what = if layout.complete == 0 { "a partial header line" } else { "a partial last line" };
        records.dropped.push(format!("games.csv: {what} ({} bytes)", csv_text.len() - layout.complete));
        if layout.complete > 0 {
            dropped_csv.push_str(&csv_text[layout.complete..]);
            dropped_csv.push('\n');
        }
    }

    // The rows: strict reading refuses the first bad one before looking at any game.
    let parsed = parse_rows(csv_text, layout, salvage.is_some(), &csv_shown)?;

    // Each row with its game.
    let chunks = split_pgn(pgn_text);
    let mut chunk_of: BTreeMap<u64, usize> = BTreeMap::new();
    for (k, chunk) in chunks.iter().enumerate() {
        if let Some(number) = chunk.round.and_then(round_number) {
            chunk_of.entry(number).or_insert(k);
        }
    }
    let mut used = vec![false; chunks.len()];
    let mut kept_csv = header.clone();
    for (text, row) in parsed {
        let Some((line, row)) = row else {
            // An empty line a strict reading skips, kept as it was.
            kept_csv.push_str(text);
            continue;
        };
        let paired = row.map_err(|e| GameFault::Drop(e.to_string())).and_then(|row| {
            let Some(&k) = chunk_of.get(&row.game) else {
                let round = round_tag(row.game);
                return Err(GameFault::Missing(
                    row.game,
                    format!("game {} (Round \"{round}\") is not in games.pgn", row.game + 1),
                ));
            };
            used[k] = true;
            let chunk = &chunks[k];
            let Some(check) = salvage else {
                return match pgn_complete(chunk.text, row.result) {
                    true => Ok((row, chunk)),
                    false => Err(GameFault::Missing(row.game, String::new())),
                };
            };
            if !chunk.text.ends_with("\n\n") {
                let round = round_tag(row.game);
                return Err(GameFault::Drop(format!(
                    "game {} (Round \"{round}\") is cut short in games.pgn",
                    row.game + 1
                )));
            }
            check.check(&row, chunk.text, &pgn_shown, chunk.line).map_err(|e| GameFault::Drop(e.to_string()))?;
            Ok((row, chunk))
        });
        match paired {
            Ok((row, chunk)) => {
                kept_csv.push_str(text);
                records.pgn.insert(row.game, chunk.text.to_string());
                records.pgn_lines.insert(row.game, chunk.line);
                records.rows.push(row);
            }
            Err(GameFault::Missing(number, _)) if salvage.is_none() => {
                return Err(RecordError::MissingPgn { pgn: pgn_shown, number: number + 1, round: round_tag(number) });
            }
            Err(GameFault::Missing(_, reason) | GameFault::Drop(reason)) => {
                records.dropped.push(format!("{csv_shown}:{line}: {reason}; the game is played again"));
                dropped_csv.push_str(text);
            }
        }
    }
    // The PGN kept: the games of kept rows, in file order; everything else goes to the copy.
    let mut kept_pgn = String::new();
    let mut dropped_pgn = String::new();
    let mut extra = 0;
    for (k, chunk) in chunks.iter().enumerate() {
        let kept =
            chunk.round.and_then(round_number).is_some_and(|n| records.pgn.contains_key(&n) && chunk_of[&n] == k);
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
    if let Strictness::Salvage { now, .. } = strictness
        && (!dropped_csv.is_empty() || !dropped_pgn.is_empty())
    {
        records.copies = write_copies(dir, now, [(&dropped_csv, header.as_str()), (&dropped_pgn, "")])?;
    }
    if strictness.rewrites() {
        // The PGN first: should the CSV rewrite fail, the PGN still holds every game the CSV lists.
        if pgn_file.as_deref() != Some(kept_pgn.as_str()) {
            replace_file(&pgn_path, kept_pgn.as_bytes())?;
        }
        if csv_file.as_deref() != Some(kept_csv.as_str()) {
            replace_file(&csv_path, kept_csv.as_bytes())?;
        }
    }
    Ok(records)
}

/// A complete line of `games.csv` as [`read_run`] parses it: its text and, unless it is an empty line a strict
/// reading skips, its 1-based line and its row or why it is dropped.
type ParsedLine<'t> = (&'t str, Option<(usize, Result<GameRow, RowError>)>);

/// Parses the complete lines of `csv_text` (split by `layout`; `csv_shown` names it). Salvaging, a line that is
/// not a row, an empty line and a repeated game are kept as reasons to drop them; otherwise the first is an
/// error.
fn parse_rows<'t>(
    csv_text: &'t str,
    layout: CsvLayout,
    salvaging: bool,
    csv_shown: &str,
) -> Result<Vec<ParsedLine<'t>>, RecordError> {
    let mut parsed = Vec::new();
    let mut seen = HashSet::new();
    for (line, text) in body_lines(csv_text, layout) {
        let row = match parse_line(text, line) {
            Some(row) => row,
            None if !salvaging => {
                parsed.push((text, None));
                continue;
            }
            None => Err(RowError::Empty),
        };
        let row = row.and_then(|row| match seen.insert(row.game) {
            true => Ok(row),
            // Strict reading names the 0-based game, as `parse_csv` does.
            false if !salvaging => Err(RowError::Twice { game: row.game }),
            false => Err(RowError::Twice { game: row.game + 1 }),
        });
        match row {
            Err(reason) if !salvaging => {
                return Err(RecordError::BadRow { path: csv_shown.to_string(), line, reason: reason.to_string() });
            }
            row => parsed.push((text, Some((line, row)))),
        }
    }
    Ok(parsed)
}

/// Writes the copies `games.csv.dropped-<time>` and `games.pgn.dropped-<time>` of `dropped` (each text after
/// its head; an empty text gets no copy) into `dir`, `time` from `now` and `-2`, `-3`, ... when taken.
/// Returns the copies written.
fn write_copies(dir: &Path, now: SystemTime, dropped: [(&String, &str); 2]) -> Result<Vec<PathBuf>, OutputError> {
    let stamp = timestamp(now);
    let mut written = Vec::new();
    for n in 1u32.. {
        let suffix = if n == 1 { stamp.clone() } else { format!("{stamp}-{n}") };
        let csv_copy = dir.join(format!("games.csv.dropped-{suffix}"));
        let pgn_copy = dir.join(format!("games.pgn.dropped-{suffix}"));
        if csv_copy.symlink_metadata().is_ok() || pgn_copy.symlink_metadata().is_ok() {
            continue;
        }
        for (path, (text, head)) in [csv_copy, pgn_copy].into_iter().zip(dropped).filter(|c| !c.1.0.is_empty()) {
            write_copy(&path, &format!("{head}{text}"))?;
            written.push(path);
        }
        break;
    }
    Ok(written)
}

/// Writes the copy `path` of dropped records: a new file, synced to disk before the originals are rewritten.
fn write_copy(path: &Path, text: &str) -> Result<(), OutputError> {
    use std::io::Write as _;
    let mut file = create_new_file(path)?;
    let io = |reason| OutputError::Io { path: path.display().to_string(), reason };
    file.write_all(text.as_bytes()).map_err(io)?;
    file.sync_all().map_err(io)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::chess::Position;
    use crate::player::EngineSpec;
    use crate::runner::game::EndReason;
    use crate::runner::rundir::output::{CSV_HEADER, pgn_text};
    use crate::runner::{GamePair, GameRecord, GameSettings, MatchLength, MatchSpec, Opening, OpeningOrder};
    use std::time::UNIX_EPOCH;

    /// A fresh folder for one test.
    pub(crate) fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("arbiter-records-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    pub(crate) fn spec() -> MatchSpec<crate::chess::ChessGame> {
        MatchSpec {
            engines: vec![EngineSpec::builtin("seed").unwrap(), EngineSpec::builtin("nomob").unwrap()],
            openings: vec![Opening { start: Position::startpos(), moves: Vec::new(), line: 1 }],
            openings_source: "startpos".into(),
            order: OpeningOrder::Sequential,
            seed: 1,
            start: 1,
            variant: crate::runner::Variant::Standard,
            tournament: crate::runner::Tournament::RoundRobin,
            seeds: 1,
            seeds_meet: false,
            swap: true,
            reverse: false,
            wait_ms: 0,
            affinity: Vec::new(),
            length: MatchLength::Games(8),
            concurrency: 1,
            settings: GameSettings::default(),
            recover: false,
            sprt: None,
            shard: None,
        }
    }

    /// Game `number` of the spec's schedule: 1. e4 e5 and a result by game number (white wins, draw, ...).
    pub(crate) fn game(number: u64) -> (GamePair, u8, GameRecord<crate::chess::ChessGame>) {
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
    pub(crate) fn write_games(dir: &Path, numbers: &[u64]) -> Vec<String> {
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

    pub(crate) fn pgn_of(number: u64) -> String {
        let (pair, g, record) = game(number);
        pgn_text("test", &pair, g, &record, UNIX_EPOCH)
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
        let records = read_run(&dir, Strictness::Rewrite).unwrap();
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

        let read_only = read_run(&dir, Strictness::Strict).unwrap();
        assert_eq!(read_only.rows.len(), 3);
        assert_eq!(
            read_only.dropped,
            [
                format!("games.csv: a partial last line ({cut} bytes)"),
                "games.pgn: 2 games (whole or partial) that games.csv does not list".to_string()
            ]
        );
        assert!(std::fs::read_to_string(dir.join("games.csv")).unwrap().len() > csv.len(), "read-only");

        let repaired = read_run(&dir, Strictness::Rewrite).unwrap();
        assert_eq!(repaired.dropped, read_only.dropped);
        assert_eq!(std::fs::read_to_string(dir.join("games.csv")).unwrap(), csv);
        assert_eq!(std::fs::read_to_string(dir.join("games.pgn")).unwrap(), pgn);
        assert_eq!(rows.concat(), csv.split_once('\n').unwrap().1);
        let again = read_run(&dir, Strictness::Rewrite).unwrap();
        assert!(again.dropped.is_empty());
        assert!(!dir.join(".games.csv.tmp").exists() && !dir.join(".games.pgn.tmp").exists());
        std::fs::remove_dir_all(&dir).unwrap();
        std::fs::remove_dir_all(&other).unwrap();
    }

    #[test]
    fn a_cut_header_or_missing_files_read_as_no_games() {
        let dir = scratch("empty");
        let header = format!("{}\n", CSV_HEADER.join(","));
        let records = read_run(&dir, Strictness::Strict).unwrap();
        assert!(records.rows.is_empty() && records.dropped.is_empty());
        assert!(!dir.join("games.csv").exists(), "read-only");
        // Rewriting creates both files, ready to append to.
        let records = read_run(&dir, Strictness::Rewrite).unwrap();
        assert!(records.rows.is_empty() && records.dropped.is_empty());
        assert_eq!(std::fs::read_to_string(dir.join("games.csv")).unwrap(), header);
        assert_eq!(std::fs::read_to_string(dir.join("games.pgn")).unwrap(), "");

        std::fs::write(dir.join("games.csv"), "pair,game,open").unwrap();
        std::fs::write(dir.join("games.pgn"), &pgn_of(0)[..30]).unwrap();
        let records = read_run(&dir, Strictness::Rewrite).unwrap();
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
        let err = |dir: &Path| read_run(dir, Strictness::Rewrite).unwrap_err().to_string();

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
}
