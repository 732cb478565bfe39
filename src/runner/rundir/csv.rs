//! The rows of a run's `games.csv`: the header, one [`GameRow`] per line, and the `Round` tags that pair a row
//! with its game in `games.pgn`. The reader of a whole run folder is [`crate::runner::rundir::read`].

use crate::game::GameResult;
use crate::notation::quote::shown;
use crate::runner::game::EndReason;
use crate::runner::rundir::output::CSV_HEADER;
use crate::runner::rundir::record_error::RecordError;
use std::collections::HashSet;

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

/// The header line of `games.csv`, newline included.
pub fn header_line() -> String {
    format!("{}\n", CSV_HEADER.join(","))
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

/// How `games.csv` text splits: where its rows begin and where its complete part (every line that ends with a
/// newline) ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CsvLayout {
    /// Byte offset of the first row: after the header, or the text's length when the header is cut short.
    pub body_start: usize,
    /// Length in bytes of the complete part: 0 for an empty text or a header cut short.
    pub complete: usize,
}

/// Splits `games.csv` text at its header and its last newline. `path` names the file in errors.
///
/// # Errors
/// [`RecordError::BadRow`] at line 1 for a text that neither starts with the header nor is a cut-short header.
pub(crate) fn layout(text: &str, path: &str) -> Result<CsvLayout, RecordError> {
    let header = header_line();
    if text.starts_with(&header) {
        let complete = text.rfind('\n').map_or(0, |i| i + 1);
        return Ok(CsvLayout { body_start: header.len(), complete });
    }
    if header.starts_with(text) {
        // Empty, or a header cut short: no game yet.
        return Ok(CsvLayout { body_start: text.len(), complete: 0 });
    }
    let first = text.split_inclusive('\n').next().unwrap_or("");
    let first = first.strip_suffix('\n').unwrap_or(first);
    let reason = format!("expected the header {:?}, got {}", header.trim_end(), shown(first));
    Err(RecordError::BadRow { path: path.to_string(), line: 1, reason })
}

/// The complete lines of the rows of `text` split by `layout`: (1-based line, the line's text with its
/// newline).
pub(crate) fn body_lines(text: &str, layout: CsvLayout) -> impl Iterator<Item = (usize, &str)> {
    let body = text.get(layout.body_start..layout.complete).unwrap_or("");
    let first_line = text[..layout.body_start].matches('\n').count() + 1;
    body.split_inclusive('\n').enumerate().map(move |(i, line)| (first_line + i, line))
}

/// What is wrong with a complete line of `games.csv` (the file and line are named by the caller).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RowError {
    /// Not as many fields as the header.
    #[error("{found} fields, expected {expected}")]
    Fields {
        /// Fields in the line.
        found: usize,
        /// Columns of the header.
        expected: usize,
    },
    /// A number column that does not hold a number.
    #[error("{column}: expected a number, got {}", shown(.text))]
    Number {
        /// The column.
        column: &'static str,
        /// Its text.
        text: String,
    },
    /// A game number that does not belong to the row's pair.
    #[error("game {game} is not a game of pair {pair}")]
    NotOfPair {
        /// The game number.
        game: u64,
        /// The pair number.
        pair: u64,
    },
    /// A result that is not a PGN result.
    #[error("result: expected 1-0, 0-1 or 1/2-1/2, got {}", shown(.text))]
    Result {
        /// Its text.
        text: String,
    },
    /// A termination arbiter does not write.
    #[error("unknown termination {}", shown(.text))]
    Termination {
        /// Its text.
        text: String,
    },
    /// An opening number beyond the machine's range.
    #[error("opening: too large")]
    OpeningTooLarge,
    /// The CSV reader refused the line (its message).
    #[error("{0}")]
    Csv(String),
    /// A game number listed on an earlier line too (`game` as the message shows it).
    #[error("game {game} is listed twice")]
    Twice {
        /// The game number shown.
        game: u64,
    },
    /// An empty line where a salvage expects a row.
    #[error("an empty line")]
    Empty,
}

/// One complete line of `games.csv` (at 1-based `line`) as a row; `None` for an empty line, otherwise the
/// row or what is wrong with it (see [`parse_csv`]).
pub(crate) fn parse_line(text: &str, line: usize) -> Option<Result<GameRow, RowError>> {
    // The rows arbiter writes have no quotes: split at the commas, as the CSV reader would, without making one
    // (a reader per line was most of the time of reading a long run).
    let body = text.strip_suffix('\n').unwrap_or(text);
    if !body.contains(['"', '\r']) {
        if body.is_empty() {
            return None;
        }
        return Some(parse_row(&body.split(',').collect::<Vec<_>>(), line));
    }
    let mut reader = csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(text.as_bytes());
    match reader.records().next()? {
        Ok(record) => Some(parse_row(&record.iter().collect::<Vec<_>>(), line)),
        Err(e) => Some(Err(RowError::Csv(e.to_string()))),
    }
}

/// Reads the complete rows of `games.csv` text: the header line, then every line that ends with a newline. A
/// last line without its newline is a partial write and is left out. Returns the rows and the length in bytes
/// of the complete part.
///
/// # Errors
/// [`RecordError::BadRow`] for a header other than [`CSV_HEADER`] or a complete line that is not a row of it
/// (wrong field count, a number that does not parse, an unknown result or termination, a game number that
/// does not belong to its pair, a game listed twice).
pub fn parse_csv(text: &str, path: &str) -> Result<(Vec<GameRow>, usize), RecordError> {
    let layout = layout(text, path)?;
    let bad = |line: usize, reason: String| RecordError::BadRow { path: path.to_string(), line, reason };
    let mut rows = Vec::new();
    let mut seen = HashSet::new();
    for (line, text) in body_lines(text, layout) {
        let Some(row) = parse_line(text, line) else { continue };
        let row = row.map_err(|reason| bad(line, reason.to_string()))?;
        if !seen.insert(row.game) {
            return Err(bad(line, RowError::Twice { game: row.game }.to_string()));
        }
        rows.push(row);
    }
    Ok((rows, layout.complete))
}

/// One row of `games.csv` as [`scan_rows`] lends it (its names borrowed from the line).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RowRef<'a> {
    /// 1-based line in `games.csv`.
    pub line: usize,
    /// 0-based pair number.
    pub pair: u64,
    /// 0-based match-wide game number.
    pub game: u64,
    /// White's name.
    pub white: &'a str,
    /// Black's name.
    pub black: &'a str,
    /// The result.
    pub result: GameResult,
    /// How the game ended.
    pub end: EndReason,
}

/// Reads the complete rows of a `games.csv` from `file` one line at a time, handing each to `each` (so a long
/// run's file is never held whole), and returns the number of rows. A last line without its newline is a
/// partial write and is left out, as [`parse_csv`] leaves it; unlike it, a game listed twice is not looked for.
///
/// # Errors
/// [`RecordError::Read`] when the file cannot be read, [`RecordError::BadRow`] as [`parse_csv`] gives it.
pub fn scan_rows(
    mut file: impl std::io::BufRead,
    path: &str,
    mut each: impl FnMut(&RowRef<'_>),
) -> Result<u64, RecordError> {
    let read_error = |reason| RecordError::Read { path: path.to_string(), reason };
    let bad = |line: usize, reason: String| RecordError::BadRow { path: path.to_string(), line, reason };
    let mut text = String::new();
    file.read_line(&mut text).map_err(read_error)?;
    if !text.ends_with('\n') {
        layout(&text, path)?;
        return Ok(0);
    }
    layout(&text, path)?;
    let (mut line, mut rows) = (1usize, 0u64);
    loop {
        text.clear();
        if file.read_line(&mut text).map_err(read_error)? == 0 || !text.ends_with('\n') {
            return Ok(rows);
        }
        line += 1;
        let body = text.trim_end_matches('\n');
        if body.is_empty() {
            continue;
        }
        if body.contains(['"', '\r']) {
            let Some(row) = parse_line(&text, line) else { continue };
            let row = row.map_err(|reason| bad(line, reason.to_string()))?;
            let view = RowRef {
                line,
                pair: row.pair,
                game: row.game,
                white: &row.white,
                black: &row.black,
                result: row.result,
                end: row.end,
            };
            each(&view);
        } else {
            let fields: Vec<&str> = body.split(',').collect();
            let (pair, game, _, result, end) = parse_fields(&fields).map_err(|reason| bad(line, reason.to_string()))?;
            each(&RowRef { line, pair, game, white: fields[3], black: fields[4], result, end });
        }
        rows += 1;
    }
}

/// One `games.csv` record at `line` as a row, or what is wrong with it (wrong field count, a number that does
/// not parse, an unknown result or termination, a game number that does not belong to its pair).
fn parse_row(fields: &[&str], line: usize) -> Result<GameRow, RowError> {
    let (pair, game, opening, result, end) = parse_fields(fields)?;
    Ok(GameRow {
        line,
        pair,
        game,
        opening: usize::try_from(opening).map_err(|_| RowError::OpeningTooLarge)?,
        white: fields[3].to_string(),
        black: fields[4].to_string(),
        result,
        end,
        fields: fields.iter().map(|f| (*f).to_string()).collect(),
    })
}

/// The checked fields of a row: pair, game and opening numbers, result and termination.
fn parse_fields(fields: &[&str]) -> Result<(u64, u64, u64, GameResult, EndReason), RowError> {
    if fields.len() != CSV_HEADER.len() {
        return Err(RowError::Fields { found: fields.len(), expected: CSV_HEADER.len() });
    }
    let number = |k: usize| -> Result<u64, RowError> {
        fields[k].parse().map_err(|_| RowError::Number { column: CSV_HEADER[k], text: fields[k].to_string() })
    };
    let (pair, game, opening) = (number(0)?, number(1)?, number(2)?);
    if game / 2 != pair {
        return Err(RowError::NotOfPair { game, pair });
    }
    let result = GameResult::from_pgn(fields[5]).ok_or_else(|| RowError::Result { text: fields[5].to_string() })?;
    let end = parse_end(fields[6]).ok_or_else(|| RowError::Termination { text: fields[6].to_string() })?;
    Ok((pair, game, opening, result, end))
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
