//! Labelled positions for Texel tuning: readers for the common labelled formats, a compact sparse-feature
//! [`Dataset`], and a train/validation split by game.
//!
//! # Formats
//! [`read_labelled_file`] detects the format of a file from its content:
//! - **PGN** when the first line that is neither blank nor a comment starts with a tag pair (`[Name "..."]`)
//!   or a move number (`1.`). Every position of each game's main line is kept, *the start position
//!   included*: a game of N plies gives N + 1 positions, all labelled with the game's result. Games ending in
//!   `*` are skipped and counted ([`LabelledSet::unfinished_games`]); a game that cannot be read is a
//!   [`BadLine`] at its line.
//! - Otherwise each line on its own (blank lines and `#` comments are skipped):
//!   - a FEN (4 to 6 fields) followed by a bracketed score at the very end of the line, `[1.0]`, `[0.5]` or
//!     `[0.0]` (also `[1]`, `[0]`, `[1-0]`, `[1/2-1/2]`, `[0-1]`), the form of Ethereal's `.book` files and
//!     `lichess-big3-resolved.book`;
//!   - an EPD line whose `c9` opcode holds the result, `c9 "1-0";`, `c9 "1/2-1/2";` or `c9 "0-1";` (the form
//!     of zurichess's `quiet-labeled.epd`).
//!
//! The label is read only from its own field (the bracket after the last `[` of the line, or the `c9`
//! operand), never from the FEN: `6k1/2p5/...` holds the text `1/2`. Every label is White's score, 1.0 for a
//! White win, 0.5 for a draw and 0.0 for a Black win, whichever side is to move. A line that cannot be read is
//! recorded with its line number and reason in [`LabelledSet::bad`], never dropped silently.
//!
//! # Split
//! [`split_by_game`] puts a position in the validation set when its game id `g` (from a `.meta.tsv` file
//! aligned line by line with the positions, [`read_game_ids`]) has `crc32(g) % 1000 < 100`, with the
//! standard CRC-32 of the id's text ([`crc32`]): about 10 % of the games, the same games every run.

use crate::chess::Position;
use crate::chess::pgn::read_games;
use crate::engine::chess::eval::{sparse_features, taper};
use crate::notation::epd::utf8_text;
use crate::notation::pgn::PgnError;
use crate::notation::quote::{cut, shown};
use rayon::prelude::*;
use std::collections::HashSet;
use std::path::Path;
use thiserror::Error;

/// A labelled file or a game-id file that cannot be used, naming the file (and the line where there is one).
#[derive(Debug, Error)]
pub enum TuneDataError {
    /// The file cannot be read.
    #[error("{file}: cannot read: {source}")]
    Io {
        /// The path.
        file: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file is not UTF-8 text.
    #[error("{file}:{line}: {reason}")]
    NotText {
        /// The path.
        file: String,
        /// 1-based line of the first bad byte.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// A line of a game-id (`.meta.tsv`) file has no game id.
    #[error("{file}:{line}: {reason}: {}", crate::notation::quote::shown(.text))]
    MetaLine {
        /// The path.
        file: String,
        /// 1-based line.
        line: usize,
        /// The line.
        text: String,
        /// What is wrong.
        reason: String,
    },
    /// A position's line has no row in the game-id file (the files are not aligned).
    #[error("{file}: no game id for position line {line} (the file has {rows} data rows)")]
    MissingGame {
        /// The game-id file.
        file: String,
        /// 1-based line of the position in its own file.
        line: usize,
        /// How many data rows the game-id file has.
        rows: usize,
    },
    /// More feature entries than the `u32` offsets of a [`Dataset`] can address.
    #[error("dataset too large: {entries} feature entries, at most {} fit", u32::MAX)]
    TooLarge {
        /// How many entries there were.
        entries: usize,
    },
}

/// The result of the game a position comes from, as White's score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Label {
    /// Black won: 0.0.
    BlackWin = 0,
    /// A draw: 0.5.
    Draw = 1,
    /// White won: 1.0.
    WhiteWin = 2,
}

impl Label {
    /// White's score: 1.0, 0.5 or 0.0.
    #[inline]
    pub fn score(self) -> f64 {
        match self {
            Label::BlackWin => 0.0,
            Label::Draw => 0.5,
            Label::WhiteWin => 1.0,
        }
    }

    /// The label of a PGN game termination marker: `1-0`, `1/2-1/2` or `0-1` (`None` for `*` and anything
    /// else).
    pub fn from_result(text: &str) -> Option<Label> {
        match text {
            "1-0" => Some(Label::WhiteWin),
            "1/2-1/2" => Some(Label::Draw),
            "0-1" => Some(Label::BlackWin),
            _ => None,
        }
    }

    /// The label of a bracketed score: `1.0`, `0.5`, `0.0` (any decimal spelling of 1, 0.5 and 0, such as
    /// `1`, `0.50`), or a result marker as [`Label::from_result`] reads it.
    pub fn from_score(text: &str) -> Option<Label> {
        if let Some(label) = Label::from_result(text) {
            return Some(label);
        }
        if !text.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
            return None;
        }
        match text.parse::<f64>().ok()? {
            1.0 => Some(Label::WhiteWin),
            0.5 => Some(Label::Draw),
            0.0 => Some(Label::BlackWin),
            _ => None,
        }
    }
}

/// One training position with its game's result.
#[derive(Clone, Debug)]
pub struct LabelledPosition {
    /// The position.
    pub position: Position,
    /// White's score in the game.
    pub label: Label,
    /// 1-based line of the position in its file; for PGN, the first line of its game.
    pub line: usize,
}

/// How a labelled file was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LabelledFormat {
    /// One position per line: `FEN [score]` or EPD with `c9`, detected line by line.
    Lines,
    /// PGN games, every position of each game.
    Pgn,
}

/// A line (or PGN game) that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadLine {
    /// 1-based line number (for PGN, the line the game reader names).
    pub line: usize,
    /// What is wrong, with the offending text.
    pub reason: String,
}

/// The positions read from one labelled file, with every line that could not be read.
#[derive(Clone, Debug)]
pub struct LabelledSet {
    /// The path (or the name given to [`read_labelled_text`]).
    pub file: String,
    /// The detected format.
    pub format: LabelledFormat,
    /// The positions, in file order.
    pub positions: Vec<LabelledPosition>,
    /// The lines that could not be read, in file order.
    pub bad: Vec<BadLine>,
    /// PGN games ending in `*` (no result to label with), skipped; 0 for line formats.
    pub unfinished_games: usize,
}

impl LabelledSet {
    /// Each bad line as `file:line: reason`, for a report.
    pub fn bad_messages(&self) -> Vec<String> {
        self.bad.iter().map(|b| format!("{}:{}: {}", self.file, b.line, b.reason)).collect()
    }
}

/// Reads a labelled file in any of the formats of the module docs, detected from its content.
///
/// # Errors
/// [`TuneDataError::Io`] when the file cannot be read, [`TuneDataError::NotText`] when it is not UTF-8. Lines
/// that cannot be read are not errors: they are in [`LabelledSet::bad`].
pub fn read_labelled_file(path: &Path) -> Result<LabelledSet, TuneDataError> {
    let file = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|source| TuneDataError::Io { file: file.clone(), source })?;
    let text = utf8_text(&bytes).map_err(|(line, reason)| TuneDataError::NotText {
        file: file.clone(),
        line,
        reason: reason.to_string(),
    })?;
    Ok(read_labelled_text(text, &file))
}

/// Reads labelled text as [`read_labelled_file`] does; `file` names the source in the result.
pub fn read_labelled_text(text: &str, file: &str) -> LabelledSet {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if looks_like_pgn(text) { read_pgn(text, file) } else { read_lines(text, file) }
}

/// Whether the first line that is neither blank nor a comment starts a PGN game (a tag pair or move 1).
fn looks_like_pgn(text: &str) -> bool {
    let first = text.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with('%'));
    first.is_some_and(|l| {
        let tag = l.strip_prefix('[').is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_alphabetic()));
        tag || l.starts_with("1.")
    })
}

fn read_lines(text: &str, file: &str) -> LabelledSet {
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let parsed: Vec<Result<LabelledPosition, BadLine>> =
        lines.par_iter().map(|&(line, text)| parse_labelled_line(text, line)).collect();
    let mut positions = Vec::with_capacity(parsed.len());
    let mut bad = Vec::new();
    for p in parsed {
        match p {
            Ok(p) => positions.push(p),
            Err(b) => bad.push(b),
        }
    }
    LabelledSet { file: file.to_string(), format: LabelledFormat::Lines, positions, bad, unfinished_games: 0 }
}

/// Parses one non-empty line: `FEN [score]`, or EPD with a `c9` result.
fn parse_labelled_line(text: &str, line: usize) -> Result<LabelledPosition, BadLine> {
    let bad = |reason: String| BadLine { line, reason: format!("{reason}: {}", shown(text)) };
    if let Some(body) = text.strip_suffix(']') {
        let open = body.rfind('[').ok_or_else(|| bad("a trailing ']' without its '['".to_string()))?;
        let score = body[open + 1..].trim();
        let label = Label::from_score(score)
            .ok_or_else(|| bad(format!("label [{}]: expected [1.0], [0.5] or [0.0]", cut(score))))?;
        let fen = body[..open].trim_matches([' ', '\t']);
        let position = Position::from_fen(fen).map_err(|e| bad(format!("bad FEN: {e}")))?;
        return Ok(LabelledPosition { position, label, line });
    }
    let epd = crate::chess::epd::parse_epd(text, line, false).map_err(|e| bad(e.to_string()))?;
    let c9 = epd
        .get("c9")
        .ok_or_else(|| bad("no label: expected a trailing [1.0]/[0.5]/[0.0] or an EPD c9 opcode".to_string()))?;
    let label = Label::from_result(c9.trim())
        .ok_or_else(|| bad(format!("c9 {}: expected \"1-0\", \"1/2-1/2\" or \"0-1\"", shown(c9))))?;
    Ok(LabelledPosition { position: crate::chess::epd::ChessEpd::position(&epd, false), label, line })
}

/// Splits PGN text into games (a tag line after movetext starts a new game), each with its first line.
fn split_games(text: &str) -> Vec<(usize, String)> {
    let mut games = Vec::new();
    let mut current = String::new();
    let mut start = 1;
    let mut has_moves = false;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.starts_with('[') && has_moves {
            games.push((start, std::mem::take(&mut current)));
            has_moves = false;
        }
        if current.is_empty() {
            if line.is_empty() {
                continue;
            }
            start = i + 1;
        }
        if !line.is_empty() && !line.starts_with('[') && !line.starts_with('%') {
            has_moves = true;
        }
        current.push_str(raw);
        current.push('\n');
    }
    if !current.trim().is_empty() {
        games.push((start, current));
    }
    games
}

/// The 1-based line a PGN error names.
fn pgn_error_line(e: &PgnError) -> usize {
    match e {
        PgnError::BadTag { line, .. }
        | PgnError::Unterminated { line, .. }
        | PgnError::BadFen { line, .. }
        | PgnError::BadMove { line, .. } => *line,
    }
}

/// The positions of one game text (every position of the main line, the start included), `Ok(None)` for a
/// game ending in `*`.
fn game_positions(text: &str, start: usize, file: &str) -> Result<Vec<Option<Vec<LabelledPosition>>>, BadLine> {
    let games = read_games(text, file).map_err(|e| {
        let at = pgn_error_line(&e);
        let message = e.to_string();
        let reason = message.strip_prefix(&format!("{file}:{at}: ")).unwrap_or(&message).to_string();
        BadLine { line: start + at - 1, reason }
    })?;
    Ok(games
        .into_iter()
        .map(|g| {
            let label = Label::from_result(&g.result)?;
            let line = start + g.line - 1;
            let mut pos = g.start.clone();
            let mut out = Vec::with_capacity(g.moves.len() + 1);
            out.push(LabelledPosition { position: pos.clone(), label, line });
            for &m in &g.moves {
                pos.make_move(m);
                out.push(LabelledPosition { position: pos.clone(), label, line });
            }
            Some(out)
        })
        .collect())
}

fn read_pgn(text: &str, file: &str) -> LabelledSet {
    let chunks = split_games(text);
    let parsed: Vec<_> = chunks.par_iter().map(|(start, text)| game_positions(text, *start, file)).collect();
    let mut set = LabelledSet {
        file: file.to_string(),
        format: LabelledFormat::Pgn,
        positions: Vec::new(),
        bad: Vec::new(),
        unfinished_games: 0,
    };
    for p in parsed {
        match p {
            Ok(games) => {
                for g in games {
                    match g {
                        Some(positions) => set.positions.extend(positions),
                        None => set.unfinished_games += 1,
                    }
                }
            }
            Err(b) => set.bad.push(b),
        }
    }
    set
}

/// Sparse feature vectors of many positions in flat arrays: position `i` owns the entries
/// `offsets[i]..offsets[i + 1]` of `indices` (feature index, as in [`crate::engine::chess::weights::FEATURES`]) and
/// `values` (White minus Black count), plus its `phase` (0 to 24) and label.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    offsets: Vec<u32>,
    indices: Vec<u16>,
    values: Vec<i16>,
    phases: Vec<u8>,
    labels: Vec<Label>,
}

/// Positions per parallel work unit when building a [`Dataset`].
const BUILD_CHUNK: usize = 4096;

impl Dataset {
    /// Computes the sparse features of every position, in parallel (rayon), in the order given.
    ///
    /// # Errors
    /// [`TuneDataError::TooLarge`] when the positions have more than `u32::MAX` non-zero features in all.
    pub fn build(positions: &[LabelledPosition]) -> Result<Dataset, TuneDataError> {
        struct Part {
            counts: Vec<u32>,
            indices: Vec<u16>,
            values: Vec<i16>,
            phases: Vec<u8>,
            labels: Vec<Label>,
        }
        let parts: Vec<Part> = positions
            .par_chunks(BUILD_CHUNK)
            .map(|chunk| {
                let mut part = Part {
                    counts: Vec::with_capacity(chunk.len()),
                    indices: Vec::new(),
                    values: Vec::new(),
                    phases: Vec::with_capacity(chunk.len()),
                    labels: Vec::with_capacity(chunk.len()),
                };
                for p in chunk {
                    let f = sparse_features(&p.position);
                    part.counts.push(u32::try_from(f.entries.len()).expect("at most NUM_FEATURES entries"));
                    for (i, v) in f.entries {
                        part.indices.push(i);
                        part.values.push(i16::try_from(v).expect("feature counts are bounded by the board"));
                    }
                    part.phases.push(u8::try_from(f.phase).expect("phase is 0 to 24"));
                    part.labels.push(p.label);
                }
                part
            })
            .collect();
        let entries: usize = parts.iter().map(|p| p.indices.len()).sum();
        if u32::try_from(entries).is_err() {
            return Err(TuneDataError::TooLarge { entries });
        }
        let mut data = Dataset {
            offsets: Vec::with_capacity(positions.len() + 1),
            indices: Vec::with_capacity(entries),
            values: Vec::with_capacity(entries),
            phases: Vec::with_capacity(positions.len()),
            labels: Vec::with_capacity(positions.len()),
        };
        let mut at = 0u32;
        data.offsets.push(0);
        for part in parts {
            for c in part.counts {
                at += c;
                data.offsets.push(at);
            }
            data.indices.extend(part.indices);
            data.values.extend(part.values);
            data.phases.extend(part.phases);
            data.labels.extend(part.labels);
        }
        Ok(data)
    }

    /// How many positions there are.
    #[inline]
    pub fn len(&self) -> usize {
        self.phases.len()
    }

    /// Whether there are no positions.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.phases.is_empty()
    }

    /// The label of position `i`.
    ///
    /// # Panics
    /// When `i >= len()`.
    #[inline]
    pub fn label(&self, i: usize) -> Label {
        self.labels[i]
    }

    /// The phase of position `i`, 0 to 24.
    ///
    /// # Panics
    /// When `i >= len()`.
    #[inline]
    pub fn phase(&self, i: usize) -> u8 {
        self.phases[i]
    }

    /// The non-zero features of position `i`: feature indices (increasing) and their values, same length.
    ///
    /// # Panics
    /// When `i >= len()`.
    #[inline]
    pub fn features(&self, i: usize) -> (&[u16], &[i16]) {
        let (from, to) = (self.offsets[i] as usize, self.offsets[i + 1] as usize);
        (&self.indices[from..to], &self.values[from..to])
    }

    /// The tapered evaluation of position `i` from White's view, centipawns, for effective weight vectors
    /// `mg`/`eg` (as [`crate::engine::chess::weights::Weights::mg_vec`]/`eg_vec`): exactly
    /// [`crate::engine::chess::eval::SparseFeatures::white_eval`], so [`crate::engine::chess::evaluate`] of the position for
    /// White to move, its negation for Black to move.
    ///
    /// # Panics
    /// When `i >= len()` or a feature index is outside `mg` or `eg`.
    pub fn eval_of(&self, i: usize, mg: &[i32], eg: &[i32]) -> i32 {
        let (indices, values) = self.features(i);
        let (mut m, mut e) = (0i64, 0i64);
        for (&f, &v) in indices.iter().zip(values) {
            m += i64::from(mg[usize::from(f)]) * i64::from(v);
            e += i64::from(eg[usize::from(f)]) * i64::from(v);
        }
        taper(i32::from(self.phases[i]), m, e)
    }

    /// The bytes the arrays hold (lengths, not capacities): 4 per offset, 2 + 2 per feature entry, 1 + 1 per
    /// position for the phase and label.
    pub fn bytes(&self) -> usize {
        self.offsets.len() * size_of::<u32>()
            + self.indices.len() * size_of::<u16>()
            + self.values.len() * size_of::<i16>()
            + self.phases.len()
            + self.labels.len() * size_of::<Label>()
    }

    /// [`Dataset::bytes`] divided by the number of positions (0 for an empty set).
    pub fn bytes_per_position(&self) -> f64 {
        if self.is_empty() { 0.0 } else { self.bytes() as f64 / self.len() as f64 }
    }
}

/// The standard CRC-32 table (IEEE 802.3, reflected polynomial 0xEDB88320), built at compile time.
static CRC32_TABLE: [u32; 256] = {
    let mut table = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 { 0xEDB8_8320 ^ (c >> 1) } else { c >> 1 };
            k += 1;
        }
        table[i] = c;
        i += 1;
    }
    table
};

/// The standard CRC-32 of `bytes` (IEEE 802.3, as zlib's `crc32` and Python's `zlib.crc32`): `"123456789"`
/// gives `0xCBF43926`.
pub fn crc32(bytes: &[u8]) -> u32 {
    let mut c = !0u32;
    for &b in bytes {
        c = CRC32_TABLE[((c ^ u32::from(b)) & 0xFF) as usize] ^ (c >> 8);
    }
    !c
}

/// Whether the game with this id belongs to the validation set: `crc32(id) % 1000 < 100` over the id's text
/// (about 10 % of games), the split named in `../shared/data/tuning/PROVENANCE.md`.
pub fn is_validation_game(id: &str) -> bool {
    crc32(id.as_bytes()) % 1000 < 100
}

/// The game id of each position line, from a tab-separated file aligned line by line with a positions file.
#[derive(Clone, Debug)]
pub struct GameIds {
    /// The path.
    pub file: String,
    /// `ids[k]` is the game of position line `k + 1`.
    pub ids: Vec<String>,
}

impl GameIds {
    /// The game of the position on 1-based `line` of the positions file.
    pub fn game_of(&self, line: usize) -> Option<&str> {
        line.checked_sub(1).and_then(|k| self.ids.get(k)).map(String::as_str)
    }
}

/// Reads game ids from a `.meta.tsv` file (tab-separated, one row per position line). When the first row has a
/// field `game` it is a header naming the column; otherwise there is no header and the game id is the third
/// column, as in `selfplay-sf15-n1500-quiet.meta.tsv` (`result_white  sf_cp_white  game  ply`).
///
/// # Errors
/// [`TuneDataError::Io`]/[`TuneDataError::NotText`] for an unreadable file, [`TuneDataError::MetaLine`] for a
/// row without a non-empty game column.
pub fn read_game_ids(path: &Path) -> Result<GameIds, TuneDataError> {
    let file = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|source| TuneDataError::Io { file: file.clone(), source })?;
    let text = utf8_text(&bytes).map_err(|(line, reason)| TuneDataError::NotText {
        file: file.clone(),
        line,
        reason: reason.to_string(),
    })?;
    parse_game_ids(text, &file)
}

/// Parses `.meta.tsv` text as [`read_game_ids`]; `file` names the source in errors.
///
/// # Errors
/// As [`read_game_ids`].
pub fn parse_game_ids(text: &str, file: &str) -> Result<GameIds, TuneDataError> {
    let mut lines = text.lines().enumerate().peekable();
    let mut column = 2;
    if let Some((_, first)) = lines.peek()
        && let Some(at) = first.split('\t').position(|f| f.trim() == "game")
    {
        column = at;
        lines.next();
    }
    let mut ids = Vec::new();
    for (i, raw) in lines {
        match raw.split('\t').nth(column).map(str::trim) {
            Some(id) if !id.is_empty() => ids.push(id.to_string()),
            _ => {
                return Err(TuneDataError::MetaLine {
                    file: file.to_string(),
                    line: i + 1,
                    text: raw.to_string(),
                    reason: format!("expected a game id in tab-separated column {}", column + 1),
                });
            }
        }
    }
    Ok(GameIds { file: file.to_string(), ids })
}

/// Positions split into training and validation sets by game, with the number of games on each side.
#[derive(Clone, Debug)]
pub struct GameSplit {
    /// Positions of games with `crc32(game) % 1000 >= 100`, in input order.
    pub train: Vec<LabelledPosition>,
    /// Positions of games with `crc32(game) % 1000 < 100`, in input order.
    pub validation: Vec<LabelledPosition>,
    /// Distinct games in `train`.
    pub train_games: usize,
    /// Distinct games in `validation`.
    pub validation_games: usize,
}

/// Splits positions by the game of their line ([`LabelledPosition::line`] looked up in `games`) with
/// [`is_validation_game`]; deterministic, no randomness.
///
/// # Errors
/// [`TuneDataError::MissingGame`] when a position's line has no game id.
pub fn split_by_game(positions: Vec<LabelledPosition>, games: &GameIds) -> Result<GameSplit, TuneDataError> {
    let mut split = GameSplit { train: Vec::new(), validation: Vec::new(), train_games: 0, validation_games: 0 };
    let (mut train_games, mut validation_games) = (HashSet::new(), HashSet::new());
    for p in positions {
        let game = games.game_of(p.line).ok_or_else(|| TuneDataError::MissingGame {
            file: games.file.clone(),
            line: p.line,
            rows: games.ids.len(),
        })?;
        if is_validation_game(game) {
            validation_games.insert(game);
            split.validation.push(p);
        } else {
            train_games.insert(game);
            split.train.push(p);
        }
    }
    split.train_games = train_games.len();
    split.validation_games = validation_games.len();
    Ok(split)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::chess::evaluate;
    use crate::engine::chess::weights::Weights;

    fn labels(set: &LabelledSet) -> Vec<Label> {
        set.positions.iter().map(|p| p.label).collect()
    }

    #[test]
    fn crc32_standard_check_value() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
        // zlib.crc32(b"1659") in Python.
        assert_eq!(crc32(b"1659"), 0xB401_9344);
    }

    #[test]
    fn bracket_label_is_read_from_the_bracket_not_the_fen() {
        let text = "6k1/2p5/8/8/8/8/5PPP/6K1 w - - 0 1 [0.0]\n\
                    # a comment\n\
                    \n\
                    1r6/3k2bp/2p4P/p1nn1pp1/P1BP4/1P3P2/1BNP1P2/3K3R b - - 0 26 [1.0]\n\
                    4k3/8/8/8/8/8/8/4K3 w - - [0.5]\n";
        let set = read_labelled_text(text, "t.book");
        assert_eq!(set.format, LabelledFormat::Lines);
        assert_eq!(set.bad, vec![]);
        assert_eq!(labels(&set), vec![Label::BlackWin, Label::WhiteWin, Label::Draw]);
        assert_eq!(set.positions.iter().map(|p| p.line).collect::<Vec<_>>(), vec![1, 4, 5]);
        assert_eq!(set.positions[0].position.to_fen(), "6k1/2p5/8/8/8/8/5PPP/6K1 w - - 0 1");
    }

    #[test]
    fn epd_c9_label_is_read_from_the_operand() {
        let text = "6k1/2p5/8/8/8/8/5PPP/6K1 w - - c9 \"0-1\";\n\
                    rnbqkb1r/pp1p1ppp/4pn2/8/2P5/2N5/PP2PPPP/R1BQKBNR w KQkq - c9 \"1/2-1/2\";\n\
                    4k3/8/8/8/8/8/8/4K2R w K - id \"x 1/2-1/2\"; c9 \"1-0\";\n";
        let set = read_labelled_text(text, "t.epd");
        assert_eq!(set.bad, vec![]);
        assert_eq!(labels(&set), vec![Label::BlackWin, Label::Draw, Label::WhiteWin]);
        assert_eq!(set.positions[2].position.to_fen(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    }

    #[test]
    fn bad_lines_are_counted_with_their_line_numbers() {
        let text = "4k3/8/8/8/8/8/8/4K3 w - - 0 1 [1.0]\n\
                    4k3/8/8/8/8/8/8/4K3 w - - 0 1 [0.7]\n\
                    4k3/8/8/8/8/8/8/4K3 w - - 0 1\n\
                    4k3/8/8/8/8/8/8/4K3 w - - c9 \"*\";\n\
                    4k3/8/8/8/8/8/8/4KK2 w - - 0 1 [0.5]\n\
                    \n\
                    4k3/8/8/8/8/8/8/4K3 w - - 0 1 1.0]\n\
                    4k3/8/8/8/8/8/8/4K3 b - - 0 1 [0.5]\n";
        let set = read_labelled_text(text, "t.book");
        assert_eq!(set.positions.iter().map(|p| p.line).collect::<Vec<_>>(), vec![1, 8]);
        assert_eq!(set.bad.iter().map(|b| b.line).collect::<Vec<_>>(), vec![2, 3, 4, 5, 7]);
        assert!(set.bad[0].reason.starts_with("label [0.7]: expected [1.0], [0.5] or [0.0]"), "{:?}", set.bad[0]);
        assert!(set.bad[1].reason.starts_with("no label"), "{:?}", set.bad[1]);
        assert!(set.bad[2].reason.starts_with("c9 \"*\""), "{:?}", set.bad[2]);
        assert!(set.bad[3].reason.starts_with("bad FEN"), "{:?}", set.bad[3]);
        assert!(set.bad[4].reason.starts_with("a trailing ']' without its '['"), "{:?}", set.bad[4]);
        assert_eq!(set.bad_messages()[0].split(": ").next(), Some("t.book:2"));
    }

    #[test]
    fn a_huge_bad_line_gives_a_short_message() {
        // 1 MB in each place a line can go wrong: the whole line, the label, the c9 operand, a FEN field, a move.
        let big = "x".repeat(1_000_000);
        let lines = [
            big.clone(),
            format!("4k3/8/8/8/8/8/8/4K3 w - - 0 1 [{big}]"),
            format!("4k3/8/8/8/8/8/8/4K3 w - - c9 \"{big}\";"),
            format!("4k3/8/8/8/8/8/8/4K3 w {big} - 0 1 [0.5]"),
            format!("{big}/8/8/8/8/8/8/4K3 w - - 0 1 [0.5]"),
        ];
        let set = read_labelled_text(&lines.join("\n"), "big.epd");
        assert_eq!(set.bad.len(), lines.len());
        for message in set.bad_messages() {
            assert!(message.len() < 600, "{} bytes: {}", message.len(), &message[..600]);
            assert!(message.contains("more bytes)"), "{message}");
        }
        let err = crate::chess::san::parse_san(&Position::startpos(), &big).unwrap_err().to_string();
        assert!(err.len() < 300, "{} bytes", err.len());
    }

    #[test]
    fn impossible_positions_and_odd_whitespace_are_bad_lines() {
        let text = "4k3/8/3N1N2/8/8/8/8/4K3 b - - 0 1 [1.0]\n\
                    4k3/8/8/8/8/8/8/4K2R w K -\u{a0}[0.5]\n\
                    4k3/8/8/8/8/8/8/4K2R\u{a0}w K - c9 \"1-0\";\n\
                    4k3/8/8/8/8/8/8/4K2R w K - 9 30 c9 \"1-0\";\n";
        let set = read_labelled_text(text, "t.book");
        assert_eq!(set.bad.iter().map(|b| b.line).collect::<Vec<_>>(), vec![1, 2, 3]);
        assert!(set.bad[0].reason.contains("impossible check: double check from Nd6 and Nf6"), "{:?}", set.bad[0]);
        assert!(set.bad[1].reason.contains("U+00A0"), "{:?}", set.bad[1]);
        assert!(set.bad[2].reason.contains("U+00A0"), "{:?}", set.bad[2]);
        assert_eq!(set.positions[0].position.halfmove_clock(), 9);
    }

    #[test]
    fn score_spellings() {
        assert_eq!(Label::from_score("1"), Some(Label::WhiteWin));
        assert_eq!(Label::from_score("0.50"), Some(Label::Draw));
        assert_eq!(Label::from_score("0"), Some(Label::BlackWin));
        assert_eq!(Label::from_score("1/2-1/2"), Some(Label::Draw));
        assert_eq!(Label::from_score("-0"), None);
        assert_eq!(Label::from_score("NaN"), None);
        assert_eq!(Label::from_score(""), None);
        assert_eq!(Label::Draw.score(), 0.5);
    }

    #[test]
    fn pgn_game_gives_every_position_start_included() {
        let text = "[Event \"a\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n\
                    [Event \"b\"]\n[Result \"*\"]\n\n1. f4 e6 *\n\n\
                    [Event \"c\"]\n[Result \"0-1\"]\n\n1. e4 e5 2. Zz9 0-1\n\n\
                    [Event \"d\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n[SetUp \"1\"]\n\n1. O-O {ok} Kd7 1/2-1/2\n";
        let set = read_labelled_text(text, "t.pgn");
        assert_eq!(set.format, LabelledFormat::Pgn);
        assert_eq!(set.unfinished_games, 1);
        assert_eq!(set.bad.len(), 1);
        assert_eq!(set.bad[0].line, 14);
        assert!(set.bad[0].reason.starts_with("move 3 (\"Zz9\")"), "{:?}", set.bad[0]);
        // 7 plies + start = 8 positions of game a (line 1), 2 plies + start = 3 of game d (line 16).
        assert_eq!(set.positions.len(), 11);
        assert!(set.positions[..8].iter().all(|p| p.label == Label::WhiteWin && p.line == 1));
        assert!(set.positions[8..].iter().all(|p| p.label == Label::Draw && p.line == 16));
        assert_eq!(set.positions[0].position, Position::startpos());
        assert_eq!(
            set.positions[7].position.to_fen(),
            "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4"
        );
        assert_eq!(set.positions[10].position.to_fen(), "8/3k4/8/8/8/8/8/5RK1 w - - 2 2");
    }

    #[test]
    fn dataset_eval_equals_evaluate_from_whites_view() {
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "1r6/3k2bp/2p4P/p1nn1pp1/P1BP4/1P3P2/1BNP1P2/3K3R b - - 0 26",
            "8/2K5/2p5/1k2B3/p1p3r1/P7/1PB5/8 b - - 11 53",
            "5r2/pp6/4k3/3pnp1R/8/1P2P3/P1PPBPP1/R1B1K3 b - - 2 21",
            "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
        ];
        let positions: Vec<LabelledPosition> = fens
            .iter()
            .enumerate()
            .map(|(i, f)| LabelledPosition {
                position: Position::from_fen(f).unwrap(),
                label: Label::Draw,
                line: i + 1,
            })
            .collect();
        let data = Dataset::build(&positions).unwrap();
        assert_eq!(data.len(), 5);
        let w = Weights::seed();
        let (mg, eg) = (w.mg_vec(), w.eg_vec());
        for (i, p) in positions.iter().enumerate() {
            let white = match p.position.side_to_move() {
                crate::chess::Color::White => evaluate(&p.position, &w),
                crate::chess::Color::Black => -evaluate(&p.position, &w),
            };
            assert_eq!(data.eval_of(i, &mg, &eg), white, "{}", fens[i]);
            assert_eq!(i32::from(data.phase(i)), crate::engine::chess::eval::phase(&p.position));
        }
        let entries: usize = (0..5).map(|i| data.features(i).0.len()).sum();
        assert_eq!(data.bytes(), 6 * 4 + entries * 4 + 5 * 2);
    }

    #[test]
    fn game_ids_with_and_without_header_and_the_split() {
        let plain = parse_game_ids("0.5\t112\t1659\t105\n1.0\t188\t1957\t51\n", "m.tsv").unwrap();
        assert_eq!(plain.ids, vec!["1659", "1957"]);
        let headed = parse_game_ids("result_white\tsf_cp_white\tgame\tply\n1.0\t0\t7\t3\n", "m.tsv").unwrap();
        assert_eq!(headed.ids, vec!["7"]);
        let err = parse_game_ids("1.0\t1\t2\t3\n1.0\t1\n", "m.tsv").unwrap_err();
        assert!(err.to_string().starts_with("m.tsv:2: expected a game id in tab-separated column 3"), "{err}");
        // The validation games among ids 0..200, from Python: [g for g in range(200) if zlib.crc32(str(g).encode())
        // % 1000 < 100].
        let validation: Vec<u32> = (0..200).filter(|g| is_validation_game(&g.to_string())).collect();
        assert_eq!(
            validation,
            vec![
                4, 19, 20, 22, 23, 55, 75, 79, 80, 92, 100, 103, 135, 138, 144, 147, 152, 156, 158, 168, 170, 180, 186
            ]
        );
        let ids = GameIds { file: "m.tsv".into(), ids: (0..200).map(|g| g.to_string()).collect() };
        let positions: Vec<LabelledPosition> = (1..=200)
            .map(|line| LabelledPosition { position: Position::startpos(), label: Label::Draw, line })
            .collect();
        let split = split_by_game(positions.clone(), &ids).unwrap();
        assert_eq!(split.validation.len(), validation.len());
        assert_eq!(split.validation_games, validation.len());
        assert_eq!(split.train.len() + split.validation.len(), 200);
        let again = split_by_game(positions, &ids).unwrap();
        assert_eq!(
            split.validation.iter().map(|p| p.line).collect::<Vec<_>>(),
            again.validation.iter().map(|p| p.line).collect::<Vec<_>>()
        );
        let short = GameIds { file: "m.tsv".into(), ids: vec!["1".into()] };
        let one = vec![LabelledPosition { position: Position::startpos(), label: Label::Draw, line: 2 }];
        let err = split_by_game(one, &short).unwrap_err();
        assert_eq!(err.to_string(), "m.tsv: no game id for position line 2 (the file has 1 data rows)");
    }
}
