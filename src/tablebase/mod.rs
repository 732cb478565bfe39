//! Syzygy endgame tablebases: WDL and DTZ of a chess position with few pieces, for tablebase adjudication
//! ([`adjudicate`]) and `arbiter tb`.
//!
//! Probing goes through the `pyrrhic-rs` crate (MIT), a Rust port of the Pyrrhic prober, itself Fathom's C
//! code (the prober cutechess-cli and fastchess use); Arbiter supplies only its attack tables
//! ([`EngineAdapter`]). Before the prober sees a folder, [`Tablebases::open`] checks every table file in it:
//! the Syzygy magic number and a size of 16 more than a multiple of 64, as every Syzygy file has; a file that
//! fails is refused with its path, so the prober never maps a truncated or foreign file. A table that is
//! missing is no error: a position it would cover is not probed and the game plays on.
//!
//! The prober keeps its tables in process-wide state and allows one set at a time, so every probe takes one
//! lock and (re)opens the set it is asked for when another was in use. Probes are rare (only positions with few
//! pieces), so the lock costs nothing that shows.
//!
//! A table whose header is whole but whose body is damaged can still make the prober crash (its decoder
//! trusts the file). So the `arbiter` binary probes in a child process of its own ([`isolate_probes`], the
//! hidden `arbiter tb-prober`, served by [`serve`]): a crash or a hang there is a skipped probe, counted in
//! [`Tablebases::failed_probes`], and the next probe starts a fresh child. A body damaged without a crash is
//! found only against the folder's checksums (`arbiter tb --verify`).

pub mod adjudicate;
mod child;
pub mod verify;

use crate::chess::{Bitboard, Color, Square, attacks};
use crate::game::PieceSets;
use pyrrhic_rs::{DtzProbeValue, EngineAdapter, TableBases, WdlProbeResult};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// A win/draw/loss value of a Syzygy WDL table, for the side to move, with the 50-move rule's two
/// in-between values: a cursed win is a win that the 50-move rule turns into a draw, a blessed loss the
/// same loss (both counted from a halfmove clock of 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Wdl {
    /// The side to move loses.
    Loss,
    /// The side to move loses without the 50-move rule, draws with it.
    BlessedLoss,
    /// A draw.
    Draw,
    /// The side to move wins without the 50-move rule, draws with it.
    CursedWin,
    /// The side to move wins.
    Win,
}

impl Wdl {
    /// The value as python-chess and Fathom number it: -2 loss, -1 blessed loss, 0 draw, 1 cursed win, 2 win.
    pub fn value(self) -> i8 {
        match self {
            Wdl::Loss => -2,
            Wdl::BlessedLoss => -1,
            Wdl::Draw => 0,
            Wdl::CursedWin => 1,
            Wdl::Win => 2,
        }
    }

    /// The name: `loss`, `blessed loss`, `draw`, `cursed win`, `win`.
    pub fn name(self) -> &'static str {
        match self {
            Wdl::Loss => "loss",
            Wdl::BlessedLoss => "blessed loss",
            Wdl::Draw => "draw",
            Wdl::CursedWin => "cursed win",
            Wdl::Win => "win",
        }
    }

    fn of(result: WdlProbeResult) -> Wdl {
        match result {
            WdlProbeResult::Loss => Wdl::Loss,
            WdlProbeResult::BlessedLoss => Wdl::BlessedLoss,
            WdlProbeResult::Draw => Wdl::Draw,
            WdlProbeResult::CursedWin => Wdl::CursedWin,
            WdlProbeResult::Win => Wdl::Win,
        }
    }
}

/// What the tables say about a position: its WDL value and, where the DTZ table could be read, its DTZ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
    /// The WDL value for the side to move (from its WDL table: exact, counted from a halfmove clock of 0).
    pub wdl: Wdl,
    /// The DTZ in python-chess's sign convention: plies to a zeroing move (capture or pawn move) or mate,
    /// positive when the side to move wins, negative when it loses, 0 for a draw; above 100 in size for a
    /// cursed win or blessed loss. As the Syzygy format stores it, a value may be one ply less than the true
    /// distance (never more), except where that would change the result. `None` when the DTZ table is missing.
    pub dtz: Option<i32>,
}

/// A table set that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum TablebaseError {
    /// A folder that cannot be listed.
    #[error("{}: cannot read the folder: {error}", path.display())]
    Folder {
        /// The folder.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// A table file that is not a whole Syzygy file.
    #[error("{}: not a usable Syzygy table: {problem}", path.display())]
    BadFile {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        problem: String,
    },
    /// A folder whose name the prober cannot take (it separates folders by `:`).
    #[error("{}: a tablebase folder's name may not contain ':'", path.display())]
    Colon {
        /// The folder.
        path: PathBuf,
    },
    /// No WDL table in any of the folders.
    #[error("no Syzygy WDL table (*.rtbw) in {shown}")]
    NoTables {
        /// The folders, as given.
        shown: String,
    },
    /// The prober refused the folders.
    #[error("the Syzygy prober could not open the tables in {shown}")]
    Prober {
        /// The folders, as given.
        shown: String,
    },
}

/// The Syzygy magic numbers (the first four bytes, little-endian) of WDL and DTZ files.
const WDL_MAGIC: [u8; 4] = [0x71, 0xe8, 0x23, 0x5d];
const DTZ_MAGIC: [u8; 4] = [0xd7, 0x66, 0x0c, 0xa5];

/// An opened set of Syzygy tables: one or more folders, every table file in them checked. Cheap to clone.
#[derive(Clone, Debug)]
pub struct Tablebases {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    /// The program that serves probes in a child process ([`isolate_probes`]); `None` to probe in-process.
    prober: Option<PathBuf>,
    /// Probes that failed in the child (a crash, a hang, an answer that is not one).
    failed: std::sync::atomic::AtomicU64,
    /// The first such failure, for the warning.
    first_failure: Mutex<Option<String>>,
    /// The folders joined by `:`, as the prober takes them (and the key of the process-wide prober state).
    key: String,
    /// The folders as given, for messages.
    shown: String,
    /// The largest number of pieces (kings included) of a WDL table found.
    largest: u32,
    /// The WDL tables found.
    wdl_tables: usize,
    /// The DTZ tables found.
    dtz_tables: usize,
}

impl Tablebases {
    /// Opens the tables in `folders` (searched in order, as cutechess-cli's and fastchess's `-tb PATH:PATH`):
    /// every file named like a Syzygy table (`KRPvK.rtbw`, `KQvKR.rtbz`) must have the magic number of its
    /// kind and a whole Syzygy size; other files are ignored.
    ///
    /// # Errors
    /// A folder that cannot be read, a table file that is truncated or not a Syzygy file (named), a folder
    /// whose name holds `:`, or no WDL table at all.
    pub fn open(folders: &[PathBuf]) -> Result<Tablebases, TablebaseError> {
        let shown = folders.iter().map(|f| f.display().to_string()).collect::<Vec<_>>().join(":");
        let (mut largest, mut wdl_tables, mut dtz_tables) = (0, 0, 0);
        for folder in folders {
            if folder.to_string_lossy().contains(':') {
                return Err(TablebaseError::Colon { path: folder.clone() });
            }
            let entries =
                std::fs::read_dir(folder).map_err(|error| TablebaseError::Folder { path: folder.clone(), error })?;
            let mut files: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
            files.sort();
            for path in files {
                let Some((pieces, wdl)) = table_name(&path) else { continue };
                check_table(&path, wdl)?;
                if wdl {
                    wdl_tables += 1;
                    largest = largest.max(pieces);
                } else {
                    dtz_tables += 1;
                }
            }
        }
        if wdl_tables == 0 {
            return Err(TablebaseError::NoTables { shown });
        }
        let key = folders.iter().map(|f| f.to_string_lossy().into_owned()).collect::<Vec<_>>().join(":");
        let prober = ISOLATED.lock().unwrap_or_else(|p| p.into_inner()).clone();
        let inner = Inner {
            prober,
            failed: std::sync::atomic::AtomicU64::new(0),
            first_failure: Mutex::new(None),
            key,
            shown,
            largest,
            wdl_tables,
            dtz_tables,
        };
        let tables = Tablebases { inner: Arc::new(inner) };
        // Open them once now, so that a set the prober refuses is an error here rather than no probe later.
        if tables.with_prober(|_| ()).is_none() {
            return Err(TablebaseError::Prober { shown: tables.inner.shown.clone() });
        }
        Ok(tables)
    }

    /// The largest number of pieces, kings included, of the WDL tables found.
    pub fn largest(&self) -> u32 {
        self.inner.largest
    }

    /// The numbers of WDL and DTZ tables found.
    pub fn counts(&self) -> (usize, usize) {
        (self.inner.wdl_tables, self.inner.dtz_tables)
    }

    /// The folders, as given (joined by `:`).
    pub fn shown(&self) -> &str {
        &self.inner.shown
    }

    /// The probes that failed in the prober's child process, and the first failure's description.
    pub fn failed_probes(&self) -> (u64, Option<String>) {
        let first = self.inner.first_failure.lock().unwrap_or_else(|p| p.into_inner()).clone();
        (self.inner.failed.load(std::sync::atomic::Ordering::Relaxed), first)
    }

    /// Probes `position`: its WDL value and DTZ. `None` when the tables do not cover it: castling rights,
    /// more pieces than the largest table, a table that is missing, or a probe the prober could not make.
    pub fn probe(&self, position: &PieceSets) -> Option<Probe> {
        if position.castling || position.count() > self.inner.largest || position.count() < 2 {
            return None;
        }
        match &self.inner.prober {
            Some(program) => match child::probe(program, &self.inner.key, position) {
                Ok(probe) => probe,
                Err(failure) => {
                    self.inner.failed.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let mut first = self.inner.first_failure.lock().unwrap_or_else(|p| p.into_inner());
                    first.get_or_insert(failure);
                    None
                }
            },
            None => self.probe_here(position),
        }
    }

    /// [`Tablebases::probe`] in this process.
    fn probe_here(&self, position: &PieceSets) -> Option<Probe> {
        let [kings, queens, rooks, bishops, knights, pawns] = position.kinds;
        let ep = u32::from(position.ep.unwrap_or(0));
        let turn = position.white_to_move;
        let (white, black) = (position.white, position.black);
        let probed = self.with_prober(|tables| {
            let wdl = tables.probe_wdl(white, black, kings, queens, rooks, bishops, knights, pawns, ep, turn).ok()?;
            let dtz = tables
                .probe_root(white, black, kings, queens, rooks, bishops, knights, pawns, 0, ep, turn)
                .ok()
                .and_then(|root| match root.root {
                    DtzProbeValue::DtzResult(result) => {
                        let size = i32::from(result.dtz);
                        Some(match Wdl::of(result.wdl) {
                            Wdl::Loss | Wdl::BlessedLoss => -size,
                            Wdl::Draw => 0,
                            Wdl::CursedWin | Wdl::Win => size,
                        })
                    }
                    // A mate or stalemate on the board: the rules end the game before any probe.
                    DtzProbeValue::Checkmate | DtzProbeValue::Stalemate | DtzProbeValue::Failed => None,
                });
            Some(Probe { wdl: Wdl::of(wdl), dtz })
        });
        probed.flatten()
    }

    /// Runs `f` with the prober opened on this set, under the process-wide lock. `None` when the prober
    /// refused the set or panicked (a table file changed under it): the probe is then skipped.
    fn with_prober<T>(&self, f: impl FnOnce(&TableBases<Attacks>) -> T) -> Option<T> {
        let mut prober = PROBER.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if prober.as_ref().map(|p| p.key.as_str()) != Some(self.inner.key.as_str()) {
            // The prober allows one set at a time: the old one is freed before the new one opens.
            *prober = None;
            let tables = std::panic::catch_unwind(|| TableBases::<Attacks>::new(&self.inner.key)).ok()?.ok()?;
            *prober = Some(Prober { key: self.inner.key.clone(), tables });
        }
        let tables = &prober.as_ref()?.tables;
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(tables)));
        if result.is_err() {
            *prober = None;
        }
        result.ok()
    }
}

/// The program whose `tb-prober` subcommand serves probes, once [`isolate_probes`] named it.
static ISOLATED: Mutex<Option<PathBuf>> = Mutex::new(None);

/// Makes every [`Tablebases`] opened from now on probe in a child process running `program tb-prober --path
/// FOLDERS` (the `arbiter` binary names itself), so that a damaged table that crashes the prober costs one
/// skipped probe, not the match.
pub fn isolate_probes(program: PathBuf) {
    *ISOLATED.lock().unwrap_or_else(|p| p.into_inner()) = Some(program);
}

/// Serves probes on standard input and output for a parent that isolates them ([`isolate_probes`]): each
/// line `probe WHITE BLACK KINGS QUEENS ROOKS BISHOPS KNIGHTS PAWNS EP TURN` (decimal bitboards, the
/// en-passant square or 0, 1 for White to move) is answered `wdl V dtz D` (`D` is `-` without a DTZ) or
/// `none`; `quit` or the end of input ends it.
///
/// # Errors
/// The tables cannot be opened.
pub fn serve(folders: &[PathBuf]) -> Result<(), TablebaseError> {
    use std::io::{BufRead, Write};
    *ISOLATED.lock().unwrap_or_else(|p| p.into_inner()) = None;
    let tables = Tablebases::open(folders)?;
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let line = line.trim();
        if line == "quit" {
            break;
        }
        let answer = match child::parse_request(line) {
            Some(position) => match tables.probe(&position) {
                Some(Probe { wdl, dtz }) => {
                    format!("wdl {} dtz {}", wdl.value(), dtz.map_or("-".to_string(), |d| d.to_string()))
                }
                None => "none".to_string(),
            },
            None => "none".to_string(),
        };
        if writeln!(out, "{answer}").and_then(|()| out.flush()).is_err() {
            break;
        }
    }
    Ok(())
}

/// The prober's process-wide state: the one set it has open.
struct Prober {
    key: String,
    tables: TableBases<Attacks>,
}

static PROBER: Mutex<Option<Prober>> = Mutex::new(None);

/// The pieces of a table file's name (`KRPvK.rtbw`: 4) and whether it is a WDL file; `None` for any other
/// name.
fn table_name(path: &Path) -> Option<(u32, bool)> {
    let wdl = match path.extension()?.to_str()? {
        "rtbw" => true,
        "rtbz" => false,
        _ => return None,
    };
    let stem = path.file_stem()?.to_str()?;
    let (white, black) = stem.split_once('v')?;
    let side = |s: &str| s.starts_with('K') && s[1..].chars().all(|c| "QRBNP".contains(c));
    (side(white) && side(black)).then(|| ((white.len() + black.len()) as u32, wdl))
}

/// Checks a table file's magic number and size.
fn check_table(path: &Path, wdl: bool) -> Result<(), TablebaseError> {
    let bad = |problem: String| TablebaseError::BadFile { path: path.to_path_buf(), problem };
    let mut file = std::fs::File::open(path).map_err(|e| bad(format!("cannot open it: {e}")))?;
    let size = file.metadata().map_err(|e| bad(format!("cannot read its size: {e}")))?.len();
    if size % 64 != 16 {
        return Err(bad(format!(
            "{size} bytes, not 16 more than a multiple of 64 as every Syzygy file is (truncated or damaged)"
        )));
    }
    let mut magic = [0u8; 4];
    file.read_exact(&mut magic).map_err(|e| bad(format!("cannot read it: {e}")))?;
    let (want, kind) = if wdl { (WDL_MAGIC, "WDL") } else { (DTZ_MAGIC, "DTZ") };
    if magic != want {
        return Err(bad(format!(
            "its first bytes are not the Syzygy {kind} magic number (damaged, or another format)"
        )));
    }
    Ok(())
}

/// Arbiter's attack tables, as the prober asks for them.
#[derive(Clone, Copy, Debug)]
struct Attacks;

fn square(index: u64) -> Option<Square> {
    u8::try_from(index).ok().and_then(|i| Square::try_from(i).ok())
}

fn bits(index: u64, f: impl Fn(Square) -> Bitboard) -> u64 {
    square(index).map_or(0, |sq| f(sq).0)
}

impl EngineAdapter for Attacks {
    fn pawn_attacks(color: pyrrhic_rs::Color, sq: u64) -> u64 {
        let color = if color == pyrrhic_rs::Color::White { Color::White } else { Color::Black };
        bits(sq, |s| attacks::pawn(color, s))
    }
    fn knight_attacks(sq: u64) -> u64 {
        bits(sq, attacks::knight)
    }
    fn bishop_attacks(sq: u64, occupied: u64) -> u64 {
        bits(sq, |s| attacks::bishop(s, Bitboard(occupied)))
    }
    fn rook_attacks(sq: u64, occupied: u64) -> u64 {
        bits(sq, |s| attacks::rook(s, Bitboard(occupied)))
    }
    fn queen_attacks(sq: u64, occupied: u64) -> u64 {
        bits(sq, |s| attacks::queen(s, Bitboard(occupied)))
    }
    fn king_attacks(sq: u64) -> u64 {
        bits(sq, attacks::king)
    }
}
