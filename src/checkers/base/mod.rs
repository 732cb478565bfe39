//! The checkers endgame base: every position of every material signature up to a piece count, with its exact
//! value and distance, built by retrograde analysis ([`solve()`]) over a perfect index ([`index`]).
//!
//! A base is one file per signature ([`Signature::name`], such as `3x2-2m1k-1m1k.cdb`) in a folder
//! (see [`write_base`] for the layout). [`build`] solves the signatures in [`Signature::all`] order, each with
//! the ones before it in memory; [`Bases`] answers the value of any position whose signature is loaded, and
//! [`Bases::probe`] gives a position's value, distance and best moves.

pub mod index;
pub mod solve;
pub mod verify;

pub use index::{Indexer, Signature, binomial, rank, unrank};
pub use solve::{Solved, pieces, solve};
pub use verify::{VerifyError, VerifyReport, verify_position, verify_sample};

use crate::checkers::{Move, PieceColor, Position, Ruleset};
use std::collections::HashMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// The rank of a position not resolved at a threshold (a draw there).
pub const NOT_RESOLVED: u16 = u16::MAX;

/// The first bytes of a base file.
pub const MAGIC: &[u8; 8] = b"ARBCKDB1";

/// Why a base file cannot be used.
#[derive(Debug, Error)]
pub enum BaseError {
    /// The file cannot be read or written.
    #[error("{path}: {reason}")]
    Io {
        /// The path.
        path: String,
        /// The operating-system error.
        reason: std::io::Error,
    },
    /// The file is not a base of the expected rules, board and signature.
    #[error("{path}: not an Arbiter checkers base of {expected}: {reason}")]
    Format {
        /// The path.
        path: String,
        /// What was expected (rules, board, signature).
        expected: String,
        /// What is wrong.
        reason: String,
    },
    /// A position needs a signature whose file is missing.
    #[error("{dir}: no base for {signature} ({file}, a base of {pieces} pieces)")]
    Missing {
        /// The base folder.
        dir: String,
        /// The signature.
        signature: String,
        /// The file expected.
        file: String,
        /// Its piece count.
        pieces: u8,
    },
}

/// Solved signatures in memory, by signature, for one rules variant and board size.
#[derive(Default)]
pub struct Bases {
    solved: HashMap<Signature, (Indexer, Solved)>,
}

impl Bases {
    /// No signature yet.
    pub fn new() -> Bases {
        Bases::default()
    }

    /// Adds a solved signature.
    pub fn insert(&mut self, indexer: Indexer, solved: Solved) {
        self.solved.insert(indexer.signature, (indexer, solved));
    }

    /// The solved signature `sig`, if loaded.
    pub fn get(&self, sig: Signature) -> Option<&(Indexer, Solved)> {
        self.solved.get(&sig)
    }

    /// Where the value of `pos` is: a bare side to move, or an entry of a loaded signature.
    ///
    /// # Panics
    /// If the position's signature is not loaded (a caller's bug: bases are solved in order).
    fn find(&self, pos: &Position) -> Found<'_> {
        if pieces(pos, pos.side_to_move()) == 0 {
            return Found::Bare { theirs: pieces(pos, pos.side_to_move().flip()) };
        }
        let sig = Signature::of(pos);
        let (indexer, solved) =
            self.solved.get(&sig).unwrap_or_else(|| panic!("the base of {sig} is needed before it is solved"));
        Found::Stored { solved, i: indexer.index(pos) as usize }
    }

    /// The value of `pos` and its rank at threshold `t` (1 or more; [`NOT_RESOLVED`] when not resolved there),
    /// from its side to move's view. A side to move without pieces has lost: minus the opponent's pieces, rank 0
    /// at every threshold up to that.
    ///
    /// # Panics
    /// If the position's signature is not loaded (a caller's bug: bases are solved in order).
    pub fn value_and_rank(&self, pos: &Position, t: u8) -> (i8, u16) {
        let found = self.find(pos);
        (found.value(), found.rank(t))
    }

    /// The value and distance of `pos` (both sides must have pieces, or the side to move none).
    ///
    /// # Panics
    /// As [`Bases::value_and_rank`].
    pub fn value(&self, pos: &Position) -> (i8, u16) {
        let found = self.find(pos);
        let value = found.value();
        (value, if value == 0 { 0 } else { found.rank(value.unsigned_abs()) })
    }

    /// A probe of `pos`: its value and distance, and every legal move with the value and distance of the
    /// position it leads to (from the mover's view: the child's value negated, its own distance plus one), best
    /// first: higher value, then among wins the shorter distance, among losses the longer.
    ///
    /// # Panics
    /// As [`Bases::value_and_rank`].
    pub fn probe(&self, pos: &Position) -> Probe {
        let (value, distance) = self.value(pos);
        let mut moves: Vec<(Move, i8, u16)> = pos
            .legal_moves()
            .iter()
            .map(|m| {
                let (v, d) = self.value(&pos.apply(m));
                (*m, -v, d.saturating_add(1))
            })
            .collect();
        moves.sort_by_key(|(_, v, d)| (-i16::from(*v), if *v > 0 { i32::from(*d) } else { -i32::from(*d) }));
        Probe { value, distance, moves }
    }
}

/// Where [`Bases::find`] found a position.
enum Found<'a> {
    /// The side to move has no pieces: lost, the opponent keeping `theirs`.
    Bare {
        /// The opponent's pieces.
        theirs: u8,
    },
    /// Entry `i` of a solved signature.
    Stored {
        /// The signature's solution.
        solved: &'a Solved,
        /// The position's index.
        i: usize,
    },
}

impl Found<'_> {
    /// The value from the side to move's view.
    fn value(&self) -> i8 {
        match *self {
            Found::Bare { theirs } => -(theirs as i8),
            Found::Stored { solved, i } => solved.values[i],
        }
    }

    /// The rank at threshold `t` (1 or more).
    fn rank(&self, t: u8) -> u16 {
        match *self {
            Found::Bare { theirs } if t <= theirs => 0,
            Found::Bare { .. } => NOT_RESOLVED,
            Found::Stored { solved, i } => solved.rank(i, t),
        }
    }
}

/// The answer of [`Bases::probe`].
#[derive(Clone, Debug)]
pub struct Probe {
    /// The value from the side to move's view (see the module [`mod@solve`]).
    pub value: i8,
    /// The distance in plies (0 for a draw or a finished game).
    pub distance: u16,
    /// Every legal move with the value and distance after it, from the mover's view, best first.
    pub moves: Vec<(Move, i8, u16)>,
}

impl Probe {
    /// The best moves: those reaching the position's value, and for a win or loss also its distance (the
    /// first move's); empty when there is no legal move.
    pub fn best_moves(&self) -> impl Iterator<Item = &Move> {
        let first = self.moves.first().map(|m| m.2);
        self.moves
            .iter()
            .filter(move |(_, v, d)| *v == self.value && (self.value == 0 || Some(*d) == first))
            .map(|(m, _, _)| m)
    }
}

/// The most pieces a base on a `board` x `board` board can hold: the board's dark squares, at most 12.
pub fn max_pieces(board: u8) -> u8 {
    (u32::from(board) * u32::from(board) / 2).min(12) as u8
}

/// Writes `build.csv` in `dir`: one row per signature built (positions, W/D/L, the longest win in plies,
/// seconds and positions per second).
///
/// # Errors
/// [`BaseError::Io`] when the file cannot be written.
pub fn write_build_csv(dir: &Path, lines: &[SignatureReport]) -> Result<(), BaseError> {
    let path = dir.join("build.csv");
    let mut text = String::from("signature,positions,wins,draws,losses,longest_plies,seconds,positions_per_second\n");
    for l in lines {
        text.push_str(&format!(
            "{},{},{},{},{},{},{:.3},{:.0}\n",
            l.signature.name(),
            l.positions,
            l.wins,
            l.draws,
            l.losses,
            l.longest,
            l.seconds,
            l.positions as f64 / l.seconds.max(1e-9)
        ));
    }
    std::fs::File::create(&path)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .map_err(|reason| BaseError::Io { path: path.display().to_string(), reason })
}

/// The file of `sig` in `dir`: `<signature name>.cdb`.
pub fn base_path(dir: &Path, sig: Signature) -> PathBuf {
    dir.join(format!("{}.cdb", sig.name()))
}

/// The rules byte of a file.
fn rules_byte(rules: Ruleset) -> u8 {
    match rules {
        Ruleset::Russian => 0,
        Ruleset::English => 1,
    }
}

/// Writes one signature's base: [`MAGIC`], the rules (0 Russian, 1 English), the board size, the signature
/// (white men, black men, white kings, black kings), the threshold count `T` (u8) and the position count
/// (u64 little-endian), then the values (one `i8` per position, by index) and `T` arrays of ranks (`u16`
/// little-endian per position, `u16::MAX` for not resolved).
///
/// # Errors
/// [`BaseError::Io`] when the file cannot be written.
pub fn write_base(path: &Path, indexer: &Indexer, solved: &Solved) -> Result<(), BaseError> {
    let io = |reason| BaseError::Io { path: path.display().to_string(), reason };
    let mut out = Vec::with_capacity(solved.values.len() * (1 + 2 * solved.ranks.len()) + 32);
    out.extend_from_slice(MAGIC);
    let sig = indexer.signature;
    out.extend_from_slice(&[
        rules_byte(indexer.rules),
        indexer.size,
        sig.men[0],
        sig.men[1],
        sig.kings[0],
        sig.kings[1],
    ]);
    out.push(solved.ranks.len() as u8);
    out.extend_from_slice(&(solved.values.len() as u64).to_le_bytes());
    out.extend(solved.values.iter().map(|&v| v as u8));
    for ranks in &solved.ranks {
        for r in ranks {
            out.extend_from_slice(&r.to_le_bytes());
        }
    }
    let tmp = path.with_extension("cdb.part");
    let mut file = std::fs::File::create(&tmp).map_err(io)?;
    file.write_all(&out).and_then(|()| file.sync_all()).map_err(io)?;
    std::fs::rename(&tmp, path).map_err(io)
}

/// Reads the base of `indexer`'s signature from `path`, checking that it is one.
///
/// # Errors
/// [`BaseError::Io`] when the file cannot be read, [`BaseError::Format`] when it is not this base (another
/// rules variant, board or signature, a truncated file, or a value beyond its thresholds).
pub fn read_base(path: &Path, indexer: &Indexer) -> Result<Solved, BaseError> {
    let shown = path.display().to_string();
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .map_err(|reason| BaseError::Io { path: shown.clone(), reason })?;
    let sig = indexer.signature;
    let format = |reason: String| BaseError::Format {
        path: shown.clone(),
        expected: format!("{:?} {}x{} {sig}", indexer.rules, indexer.size, indexer.size),
        reason,
    };
    let header = [rules_byte(indexer.rules), indexer.size, sig.men[0], sig.men[1], sig.kings[0], sig.kings[1]];
    if bytes.len() < 23 || &bytes[..8] != MAGIC {
        return Err(format("no Arbiter base header".into()));
    }
    if bytes[8..14] != header {
        return Err(format(format!("header {:?}, expected {header:?}", &bytes[8..14])));
    }
    let thresholds = usize::from(bytes[14]);
    let count = u64::from_le_bytes(bytes[15..23].try_into().expect("8 bytes")) as usize;
    if count as u64 != indexer.count() {
        return Err(format(format!("{count} positions, expected {}", indexer.count())));
    }
    if bytes.len() != 23 + count * (1 + 2 * thresholds) {
        return Err(format(format!("{} bytes, expected {}", bytes.len(), 23 + count * (1 + 2 * thresholds))));
    }
    let values: Vec<i8> = bytes[23..23 + count].iter().map(|&b| b as i8).collect();
    if let Some(i) = values.iter().position(|v| usize::from(v.unsigned_abs()) > thresholds) {
        return Err(format(format!("value {} at index {i} is beyond the {thresholds} thresholds", values[i])));
    }
    let ranks = (0..thresholds)
        .map(|t| {
            let start = 23 + count + 2 * count * t;
            bytes[start..start + 2 * count].chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect()
        })
        .collect();
    Ok(Solved { values, ranks })
}

/// Loads from `dir` every signature of at most `pieces` pieces (and with both sides on the board) that a
/// probe of a position of `pieces` pieces may need.
///
/// # Errors
/// [`BaseError::Missing`] for a missing file, else as [`read_base`].
pub fn load_bases(dir: &Path, rules: Ruleset, size: u8, pieces: u8) -> Result<Bases, BaseError> {
    let mut bases = Bases::new();
    for sig in Signature::all(size, pieces) {
        let indexer = Indexer::new(rules, size, sig);
        let path = base_path(dir, sig);
        if !path.exists() {
            return Err(BaseError::Missing {
                dir: dir.display().to_string(),
                signature: sig.name(),
                file: path.display().to_string(),
                pieces: sig.total(),
            });
        }
        let solved = read_base(&path, &indexer)?;
        bases.insert(indexer, solved);
    }
    Ok(bases)
}

/// What [`build`] reports per signature.
#[derive(Clone, Debug)]
pub struct SignatureReport {
    /// The signature.
    pub signature: Signature,
    /// Its positions.
    pub positions: u64,
    /// Positions won, drawn and lost for the side to move.
    pub wins: u64,
    /// Drawn positions.
    pub draws: u64,
    /// Lost positions.
    pub losses: u64,
    /// The longest distance, in plies.
    pub longest: u16,
    /// Wall time of the solve, in seconds.
    pub seconds: f64,
}

/// Solves every signature of [`Signature::all`]`(size, pieces)` in order on the current rayon pool, writing
/// each to `dir` as it is solved, calling `report` after each.
///
/// # Errors
/// [`BaseError::Io`] when a file cannot be written.
pub fn build(
    rules: Ruleset,
    size: u8,
    pieces: u8,
    dir: &Path,
    mut report: impl FnMut(&SignatureReport, usize, usize),
) -> Result<Bases, BaseError> {
    std::fs::create_dir_all(dir).map_err(|reason| BaseError::Io { path: dir.display().to_string(), reason })?;
    let signatures = Signature::all(size, pieces);
    let mut bases = Bases::new();
    for (k, &sig) in signatures.iter().enumerate() {
        let started = std::time::Instant::now();
        let indexer = Indexer::new(rules, size, sig);
        let solved = solve(&indexer, &bases);
        let seconds = started.elapsed().as_secs_f64();
        write_base(&base_path(dir, sig), &indexer, &solved)?;
        let count = |f: fn(i8) -> bool| solved.values.iter().filter(|&&v| f(v)).count() as u64;
        let longest = (0..solved.values.len()).map(|i| solved.distance(i)).max().unwrap_or(0);
        let line = SignatureReport {
            signature: sig,
            positions: indexer.count(),
            wins: count(|v| v > 0),
            draws: count(|v| v == 0),
            losses: count(|v| v < 0),
            longest,
            seconds,
        };
        report(&line, k + 1, signatures.len());
        bases.insert(indexer, solved);
    }
    Ok(bases)
}

/// The side of a colour index, for the CLI.
pub fn color_name(color: PieceColor) -> &'static str {
    match color {
        PieceColor::White => "White",
        PieceColor::Black => "Black",
    }
}
