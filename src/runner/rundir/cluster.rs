//! One SPRT decision for all the shards of a run. The shards of one run are sibling folders under one parent
//! (`RUN/shard-1` .. `RUN/shard-N`, on a shared file system); each keeps its own `games.csv`, and each, as it
//! finishes a pair and at least every [`CHECK_EVERY`], reads every sibling's finished pairs ([`RunView`]),
//! computes the SPRT over all of them and, when the LLR crosses a bound, writes the decision once, atomically,
//! to `RUN/decision.toml` ([`DECISION_FILE`]). Every shard then stops after the pairs it is playing; a shard that
//! starts or resumes later finds the file and plays nothing.
//!
//! Reading is incremental: each sibling's `games.csv` is read from where the last read stopped, up to its last
//! complete line, so a check costs what was added since the previous one (a file that shrank, rewritten by a
//! resume that dropped damaged games, is read again from the start).

use super::output::{RUN_TOML, timestamp};
use super::runfile::{RunFile, RunFileError};
use crate::chess::Color;
use crate::game::GameResult;
use crate::runner::tally::score_of;
use crate::stats::{GameScore, Pentanomial, SprtDecision, SprtOutcome, SprtSpec, Wdl};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::io::{Read as _, Seek as _, SeekFrom};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

/// The decision file of a sharded run, in the folder that holds the shard folders.
pub const DECISION_FILE: &str = "decision.toml";

/// The longest a shard goes without reading its siblings while it plays.
pub const CHECK_EVERY: Duration = Duration::from_secs(2);

/// One shard's part of the counts, as a [`Decision`] records it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardCount {
    /// The shard's folder name (`shard-3`).
    pub folder: String,
    /// Its shard index (1-based).
    pub shard: u32,
    /// Games it had recorded when the decision was taken.
    pub games: u64,
    /// Complete pairs among them.
    pub pairs: u64,
}

/// The SPRT decision of a sharded run, as written to [`DECISION_FILE`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Decision {
    /// `H0 accepted` or `H1 accepted`.
    pub decision: String,
    /// The LLR over the run's complete pairs when it crossed.
    pub llr: f64,
    /// The lower bound.
    pub lower: f64,
    /// The upper bound.
    pub upper: f64,
    /// The run's complete pairs counted.
    pub pairs: u64,
    /// Their pentanomial counts from the first engine's view, `[LL, LD, WL+DD, WD, WW]`.
    pub ptnml: [u64; 5],
    /// The first engine's games won, drawn and lost (complete pairs and single games alike).
    pub wdl: [u64; 3],
    /// The schedule fingerprint of the shards (their `run.toml`).
    pub fingerprint: String,
    /// When it was taken (UTC).
    pub time: String,
    /// The shard that took it (1-based).
    pub by_shard: u32,
    /// Each shard's part when it was taken.
    pub shards: Vec<ShardCount>,
}

impl Decision {
    /// The decision as the SPRT's type.
    pub fn sprt_decision(&self) -> SprtDecision {
        if self.decision == "H1 accepted" { SprtDecision::AcceptH1 } else { SprtDecision::AcceptH0 }
    }

    /// One line for the user: `H1 accepted after 1234 pairs of the run (LLR 2.96, bounds [-2.94, 2.94])`.
    pub fn line(&self) -> String {
        format!(
            "{} after {} pairs of the run (LLR {:.2}, bounds [{:.2}, {:.2}], written by shard {} at {})",
            self.decision, self.pairs, self.llr, self.lower, self.upper, self.by_shard, self.time
        )
    }
}

/// Why `arbiter status` cannot read a run.
#[derive(Debug, thiserror::Error)]
pub enum StatusError {
    /// A `run.toml` does not read.
    #[error("{}: {source}", path.display())]
    RunFile {
        /// The file.
        path: PathBuf,
        /// The error.
        source: RunFileError,
    },
    /// The folder cannot be listed.
    #[error("{}: {source}", path.display())]
    Folder {
        /// The folder.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// Neither a run folder nor a folder of shard folders.
    #[error("{}: no run here (expected a run folder, or a folder holding the shard folders of one)", dir.display())]
    NoRun {
        /// The folder given.
        dir: PathBuf,
    },
    /// A run of other than two engines.
    #[error("{}: a run of {engines} engines; status follows two-engine runs", dir.display())]
    NotTwoEngines {
        /// The run's folder.
        dir: PathBuf,
        /// How many engines it plays.
        engines: usize,
    },
}

/// Why a decision file cannot be read or written.
#[derive(Debug, thiserror::Error)]
pub enum DecisionError {
    /// The file (or the temporary file written first) cannot be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The file is not a decision in TOML.
    #[error("{}: {source}", path.display())]
    Toml {
        /// The file.
        path: PathBuf,
        /// The parse error.
        source: toml::de::Error,
    },
    /// The file reads but does not hold together.
    #[error("{}: {problem}", path.display())]
    Inconsistent {
        /// The file.
        path: PathBuf,
        /// What does not hold.
        problem: DecisionProblem,
    },
    /// The decision counts more pairs than the shards hold now.
    #[error("{DECISION_FILE} counts {counted} pairs, but the shards hold {held}: it was not written for these records")]
    MorePairs {
        /// The pairs the decision counts.
        counted: u64,
        /// The pairs the shards hold.
        held: u64,
    },
    /// Another shard's file was there when this one linked its own, and is gone when read.
    #[error("{}: vanished after it existed", path.display())]
    Vanished {
        /// The file.
        path: PathBuf,
    },
    /// The decision does not serialize (a bug).
    #[error("the decision does not serialize: {0}")]
    Serialize(#[from] toml::ser::Error),
}

/// What does not hold together in a decision ([`Decision::check`]).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum DecisionProblem {
    /// A known decision on the wrong side of its bound, or with a value that is not finite.
    #[error("decision {decision:?} with LLR {llr} and bounds [{lower}, {upper}] does not hold together")]
    OffBound {
        /// The decision.
        decision: String,
        /// Its LLR.
        llr: f64,
        /// Its lower bound.
        lower: f64,
        /// Its upper bound.
        upper: f64,
    },
    /// A decision that is neither `H0 accepted` nor `H1 accepted`.
    #[error("decision {0:?} is neither \"H0 accepted\" nor \"H1 accepted\"")]
    Unknown(String),
    /// Pentanomial counts that do not add up to the pairs.
    #[error("ptnml {ptnml:?} does not add up to {pairs} pairs")]
    Ptnml {
        /// The counts.
        ptnml: [u64; 5],
        /// The pairs.
        pairs: u64,
    },
    /// Shards whose pairs do not add up to the pairs.
    #[error("the shards' pairs do not add up to {0} pairs")]
    ShardPairs(u64),
}

/// Reads the decision of the run whose shards live in `parent`, if one was taken.
///
/// # Errors
/// A [`DecisionError`] when the file exists but does not read or does not hold together.
pub fn read_decision(parent: &Path) -> Result<Option<Decision>, DecisionError> {
    let path = parent.join(DECISION_FILE);
    let text = match read_small_file(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => return Err(DecisionError::Io { path, source }),
    };
    let decision: Decision = match toml::from_str(&text) {
        Ok(decision) => decision,
        Err(source) => return Err(DecisionError::Toml { path, source }),
    };
    if let Err(problem) = decision.check() {
        return Err(DecisionError::Inconsistent { path, problem });
    }
    Ok(Some(decision))
}

/// The most bytes a decision file may hold (one is under 2 KB for 64 shards).
const MAX_DECISION_BYTES: u64 = 1024 * 1024;

/// Reads a small regular file (through a link is fine; a FIFO, a device or a folder is refused, so that a read
/// never blocks) of at most [`MAX_DECISION_BYTES`].
fn read_small_file(path: &Path) -> std::io::Result<String> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    let mut text = String::new();
    std::fs::File::open(path)?.take(MAX_DECISION_BYTES + 1).read_to_string(&mut text)?;
    if text.len() as u64 > MAX_DECISION_BYTES {
        return Err(std::io::Error::other(format!("larger than {MAX_DECISION_BYTES} bytes")));
    }
    Ok(text)
}

impl Decision {
    /// Checks that the decision holds together: a known decision on the side of its bound, pentanomial counts and
    /// shards that add up to its pairs.
    ///
    /// # Errors
    /// The first [`DecisionProblem`].
    pub fn check(&self) -> Result<(), DecisionProblem> {
        let finite = [self.llr, self.lower, self.upper].iter().all(|v| v.is_finite());
        match self.decision.as_str() {
            "H1 accepted" if finite && self.llr >= self.upper => {}
            "H0 accepted" if finite && self.llr <= self.lower => {}
            "H1 accepted" | "H0 accepted" => {
                return Err(DecisionProblem::OffBound {
                    decision: self.decision.clone(),
                    llr: self.llr,
                    lower: self.lower,
                    upper: self.upper,
                });
            }
            other => return Err(DecisionProblem::Unknown(other.to_string())),
        }
        if self.ptnml.iter().sum::<u64>() != self.pairs {
            return Err(DecisionProblem::Ptnml { ptnml: self.ptnml, pairs: self.pairs });
        }
        if self.shards.iter().map(|s| s.pairs).sum::<u64>() != self.pairs {
            return Err(DecisionProblem::ShardPairs(self.pairs));
        }
        Ok(())
    }

    /// Checks the decision against the pairs the shards hold now: it cannot count more pairs than they recorded.
    ///
    /// # Errors
    /// [`DecisionError::MorePairs`].
    pub fn check_against(&self, combined: &Combined) -> Result<(), DecisionError> {
        if self.pairs > combined.penta.pairs() {
            return Err(DecisionError::MorePairs { counted: self.pairs, held: combined.penta.pairs() });
        }
        Ok(())
    }
}

/// Writes `decision` to `parent/decision.toml` unless a decision is there already, atomically (a temporary file
/// linked into place: the first writer wins); returns the decision in the file (the first writer's).
///
/// # Errors
/// A [`DecisionError`] when neither writing nor reading works.
pub fn write_decision_once(parent: &Path, decision: &Decision) -> Result<Decision, DecisionError> {
    let path = parent.join(DECISION_FILE);
    let text = toml::to_string(decision)?;
    let tmp = super::output::temporary_path(&path);
    let written = std::fs::write(
        &tmp,
        format!("# arbiter: the SPRT decision of the run whose shards are in this folder\n{text}"),
    );
    written.map_err(|source| DecisionError::Io { path: tmp.clone(), source })?;
    let linked = std::fs::hard_link(&tmp, &path);
    let _ = std::fs::remove_file(&tmp);
    match linked {
        Ok(()) => Ok(decision.clone()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            read_decision(parent)?.ok_or(DecisionError::Vanished { path })
        }
        Err(source) => Err(DecisionError::Io { path, source }),
    }
}

/// What one sibling's `games.csv` has given so far.
#[derive(Default)]
struct Sibling {
    shard: u32,
    /// The file read (its inode): a file replaced by another (a resume that rewrote it) is read from the start.
    inode: u64,
    offset: u64,
    /// Pairs with one game read: the pair's first-engine score of that game.
    open: HashMap<u64, GameScore>,
    penta: Pentanomial,
    wdl: Wdl,
    games: u64,
}

/// The combined counts of all the shards of a run, read incrementally.
pub struct RunView {
    parent: PathBuf,
    fingerprint: String,
    count: u32,
    first: String,
    siblings: BTreeMap<String, Sibling>,
    /// Folders left out, with why (another folder holds the same shard), reported once each.
    ignored: BTreeMap<String, String>,
    /// The folder of the shard that reads (preferred when two folders hold the same shard).
    own: Option<String>,
    /// Bytes read by the last [`RunView::refresh`] (for the cost figures of docs/scale.md).
    pub last_read_bytes: u64,
    /// What the last refresh could not read or left out, in words (a file that is not a regular file or cannot
    /// be opened, a duplicate shard folder).
    pub warnings: Vec<String>,
}

/// The combined counts of a run's shards at one moment.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Combined {
    /// Complete pairs, from the first engine's view.
    pub penta: Pentanomial,
    /// Every game, from the first engine's view.
    pub wdl: Wdl,
    /// Each shard's part, by folder name.
    pub shards: Vec<ShardCount>,
}

impl RunView {
    /// The view of the shards in `parent` with the schedule `fingerprint` (of `count` shards), counted from
    /// `first`'s view (the match's first engine).
    pub fn new(parent: &Path, fingerprint: &str, count: u32, first: &str) -> RunView {
        RunView {
            parent: parent.to_path_buf(),
            fingerprint: fingerprint.to_string(),
            count,
            first: first.to_string(),
            siblings: BTreeMap::new(),
            ignored: BTreeMap::new(),
            own: None,
            last_read_bytes: 0,
            warnings: Vec::new(),
        }
    }

    /// Names the reading shard's own folder, so that it is the one counted if a copy of it lies beside it.
    pub fn with_own(mut self, folder: &str) -> RunView {
        self.own = Some(folder.to_string());
        self
    }

    /// Finds the shard folders (new ones included) and reads what each added to its `games.csv` since the last
    /// call; returns the counts of all of them. A folder whose `run.toml` is not of this schedule is skipped; an
    /// unreadable file is skipped for this read (the next one tries again).
    pub fn refresh(&mut self) -> Combined {
        self.last_read_bytes = 0;
        self.warnings.clear();
        if let Ok(entries) = std::fs::read_dir(&self.parent) {
            let mut names: Vec<String> =
                entries.flatten().map(|entry| entry.file_name().to_string_lossy().into_owned()).collect();
            // The reading shard's own folder first, then by name: of two folders holding one shard, the first kept.
            names.sort_by_key(|name| (Some(name) != self.own.as_ref(), name.clone()));
            for name in names {
                let path = self.parent.join(&name);
                if self.siblings.contains_key(&name)
                    || self.ignored.contains_key(&name)
                    || !path.join(RUN_TOML).is_file()
                {
                    continue;
                }
                let Ok(run) = RunFile::read(&path.join(RUN_TOML)) else { continue };
                let Some(shard) = run.plan.shard else { continue };
                if run.fingerprint != self.fingerprint || shard.count() != self.count {
                    let why = format!(
                        "{} holds a shard of another run (fingerprint {}, shard {shard}): left out",
                        path.display(),
                        run.fingerprint
                    );
                    self.warnings.push(why.clone());
                    self.ignored.insert(name, why);
                    continue;
                }
                if let Some((other, _)) = self.siblings.iter().find(|(_, s)| s.shard == shard.index()) {
                    let why = format!(
                        "{} holds shard {shard}, which {} holds already: left out (a copied folder?)",
                        path.display(),
                        self.parent.join(other).display()
                    );
                    self.warnings.push(why.clone());
                    self.ignored.insert(name, why);
                    continue;
                }
                self.siblings.insert(name, Sibling { shard: shard.index(), ..Sibling::default() });
            }
        }
        let mut combined = Combined::default();
        for (name, sibling) in &mut self.siblings {
            match read_more(&self.parent.join(name).join("games.csv"), &self.first, sibling) {
                Ok(read) => self.last_read_bytes += read,
                Err(reason) => {
                    self.warnings.push(format!("{}: {reason}", self.parent.join(name).join("games.csv").display()))
                }
            }
            combined.penta = add_penta(combined.penta, sibling.penta);
            combined.wdl.wins += sibling.wdl.wins;
            combined.wdl.draws += sibling.wdl.draws;
            combined.wdl.losses += sibling.wdl.losses;
            combined.shards.push(ShardCount {
                folder: name.clone(),
                shard: sibling.shard,
                games: sibling.games,
                pairs: sibling.penta.pairs(),
            });
        }
        combined
    }
}

/// The sum of two pentanomial counts.
fn add_penta(a: Pentanomial, b: Pentanomial) -> Pentanomial {
    Pentanomial { ll: a.ll + b.ll, ld: a.ld + b.ld, wl: a.wl + b.wl, dd: a.dd + b.dd, wd: a.wd + b.wd, ww: a.ww + b.ww }
}

/// Reads the complete lines `path` gained since `sibling.offset` into its counts; returns the bytes read (0 for a
/// shard that has not written its file yet).
///
/// # Errors
/// The file is not a regular file (a FIFO would block the read) or cannot be read.
fn read_more(path: &Path, first: &str, sibling: &mut Sibling) -> std::io::Result<u64> {
    use std::os::unix::fs::MetadataExt as _;
    let meta = match std::fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(e),
    };
    if !meta.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    let mut file = std::fs::File::open(path)?;
    let length = meta.len();
    if length < sibling.offset || meta.ino() != sibling.inode {
        // Rewritten (a resume dropped damaged games) or replaced: count it again from the start.
        *sibling = Sibling { shard: sibling.shard, inode: meta.ino(), ..Sibling::default() };
    }
    file.seek(SeekFrom::Start(sibling.offset))?;
    let mut bytes = Vec::new();
    file.take(length - sibling.offset).read_to_end(&mut bytes)?;
    let Some(end) = bytes.iter().rposition(|&b| b == b'\n').map(|i| i + 1) else { return Ok(0) };
    let read = end as u64;
    let start = if sibling.offset == 0 { bytes.iter().position(|&b| b == b'\n').map_or(end, |i| i + 1) } else { 0 };
    sibling.offset += read;
    let mut reader =
        csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(&bytes[start.min(end)..end]);
    for record in reader.records().flatten() {
        let (Some(pair), Some(white), Some(result)) = (
            record.get(0).and_then(|t| t.parse::<u64>().ok()),
            record.get(3),
            record.get(5).and_then(GameResult::from_pgn),
        ) else {
            continue;
        };
        let color = if white == first { Color::White } else { Color::Black };
        let score = score_of(result, color);
        sibling.games += 1;
        match score {
            GameScore::Win => sibling.wdl.wins += 1,
            GameScore::Draw => sibling.wdl.draws += 1,
            GameScore::Loss => sibling.wdl.losses += 1,
        }
        match sibling.open.remove(&pair) {
            Some(other) => sibling.penta.add_pair(other, score),
            None => {
                sibling.open.insert(pair, score);
            }
        }
    }
    Ok(read)
}

/// A shard's watch over its run's combined SPRT: checks when a pair finished and at least every
/// [`CHECK_EVERY`], and takes the decision once the LLR crosses a bound.
pub struct SharedSprt {
    view: RunView,
    sprt: SprtSpec,
    shard: u32,
    last: Option<Instant>,
    decided: Option<Decision>,
    /// The warnings given already.
    warned: std::collections::HashSet<String>,
    /// The combined counts at the last check.
    pub combined: Combined,
    /// The SPRT at the last check.
    pub outcome: Option<SprtOutcome>,
}

impl SharedSprt {
    /// The watch of shard `shard` (1-based) of a run in `parent`.
    pub fn new(view: RunView, sprt: SprtSpec, shard: u32) -> SharedSprt {
        SharedSprt {
            view,
            sprt,
            shard,
            last: None,
            decided: None,
            warned: std::collections::HashSet::new(),
            combined: Combined::default(),
            outcome: None,
        }
    }

    /// The decision taken or found, if any.
    pub fn decided(&self) -> Option<&Decision> {
        self.decided.as_ref()
    }

    /// Checks now if `pair_finished` or the last check is [`CHECK_EVERY`] old: reads the decision file (another
    /// shard's decision), else the combined counts, and writes the decision when the SPRT decides. Returns the
    /// decision the first time one is known, and the warnings not given before (each is given once): a decision
    /// file of another run or that does not read (it is then left as it is, and this shard still stops when its
    /// combined SPRT decides), a sibling file that cannot be read, a duplicate shard folder.
    pub fn poll(&mut self, pair_finished: bool) -> (Option<Decision>, Vec<String>) {
        let mut warnings = Vec::new();
        if self.decided.is_some() || (!pair_finished && self.last.is_some_and(|t| t.elapsed() < CHECK_EVERY)) {
            return (None, warnings);
        }
        self.last = Some(Instant::now());
        let mut file_usable = true;
        match read_decision(&self.view.parent) {
            Ok(Some(found)) if found.fingerprint == self.view.fingerprint => {
                self.decided = Some(found.clone());
                return (Some(found), warnings);
            }
            Ok(Some(other)) => {
                file_usable = false;
                warnings.push(format!(
                    "{}: a decision of another run (fingerprint {}, this run's {}): the shards of one run need a \
                     folder of their own; it is ignored",
                    self.view.parent.join(DECISION_FILE).display(),
                    other.fingerprint,
                    self.view.fingerprint
                ));
            }
            Ok(None) => {}
            Err(reason) => {
                file_usable = false;
                warnings.push(format!("{reason}; it is ignored (remove it: the shards' decision goes there)"));
            }
        }
        self.combined = self.view.refresh();
        warnings.append(&mut self.view.warnings);
        let mut fresh: Vec<String> = warnings.into_iter().filter(|w| !self.warned.contains(w)).collect();
        self.warned.extend(fresh.iter().cloned());
        let Ok(outcome) = self.sprt.evaluate(&self.combined.penta) else { return (None, fresh) };
        self.outcome = Some(outcome);
        if outcome.decision == SprtDecision::Continue {
            return (None, fresh);
        }
        let decision = Decision {
            decision: crate::runner::scheduler::decision_text(outcome.decision).to_string(),
            llr: outcome.llr,
            lower: outcome.lower,
            upper: outcome.upper,
            pairs: self.combined.penta.pairs(),
            ptnml: self.combined.penta.bins(),
            wdl: [self.combined.wdl.wins, self.combined.wdl.draws, self.combined.wdl.losses],
            fingerprint: self.view.fingerprint.clone(),
            time: timestamp(SystemTime::now()),
            by_shard: self.shard,
            shards: self.combined.shards.clone(),
        };
        let taken = if file_usable {
            match write_decision_once(&self.view.parent, &decision) {
                Ok(written) if written.fingerprint == self.view.fingerprint => written,
                Ok(_) => decision,
                Err(reason) => {
                    fresh.push(format!("the decision could not be written ({reason}); this shard stops on it"));
                    decision
                }
            }
        } else {
            decision
        };
        self.decided = Some(taken.clone());
        (Some(taken), fresh)
    }
}

/// One shard as `arbiter status` shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardStatus {
    /// Its folder name and counts.
    pub count: ShardCount,
    /// The pairs of its part of the schedule.
    pub planned_pairs: u64,
    /// Whether a process plays it now (its `run.lock` is held).
    pub playing: bool,
}

/// A run's progress as it stands: what `arbiter status DIR` prints.
#[derive(Clone, Debug, PartialEq)]
pub struct RunStatus {
    /// The folder that holds the shards (or the run folder of an unsharded run).
    pub dir: PathBuf,
    /// The first engine and the second.
    pub engines: (String, String),
    /// Each shard (one entry for an unsharded run).
    pub shards: Vec<ShardStatus>,
    /// All the shards' games together.
    pub combined: Combined,
    /// The SPRT of the plan, if any.
    pub sprt: Option<SprtSpec>,
    /// Its state over the combined pairs.
    pub outcome: Option<SprtOutcome>,
    /// The decision, once taken (a sharded run's `decision.toml`).
    pub decision: Option<Decision>,
    /// What could not be read or was left out, in words.
    pub warnings: Vec<String>,
}

impl RunStatus {
    /// The pairs still to play, estimated, before the LLR reaches the bound it heads for at its average change per
    /// pair so far; `None` without an SPRT, a decision taken, or no drift to extrapolate.
    pub fn pairs_to_decision(&self) -> Option<u64> {
        let outcome = self.outcome?;
        let pairs = self.combined.penta.pairs();
        let complete = self.shards.iter().all(|s| s.count.pairs >= s.planned_pairs);
        if self.decision.is_some()
            || outcome.decision != SprtDecision::Continue
            || pairs == 0
            || outcome.llr == 0.0
            || complete
        {
            return None;
        }
        let per_pair = outcome.llr / pairs as f64;
        let bound = if per_pair > 0.0 { outcome.upper } else { outcome.lower };
        let left = (bound - outcome.llr) / per_pair;
        (left.is_finite() && left >= 0.0).then(|| left.ceil() as u64)
    }
}

/// Reads the progress of the run in `dir`: a folder holding shard folders (`RUN`), one shard's folder (its
/// siblings are read too), or an unsharded run folder. Safe while the run plays: only complete lines are read,
/// and nothing is written.
///
/// # Errors
/// A [`StatusError`]: no run folder there, a `run.toml` that does not read, a run of more than two engines.
pub fn run_status(dir: &Path) -> Result<RunStatus, StatusError> {
    let own = dir.join(RUN_TOML);
    let (parent, first_run) = if own.is_file() {
        let run = RunFile::read(&own).map_err(|source| StatusError::RunFile { path: own.clone(), source })?;
        match run.plan.shard {
            Some(_) => (dir.parent().unwrap_or(dir).to_path_buf(), run),
            None => (dir.to_path_buf(), run),
        }
    } else {
        let mut found: Option<RunFile> = None;
        let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(|source| StatusError::Folder { path: dir.to_path_buf(), source })?
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.join(RUN_TOML).is_file())
            .collect();
        names.sort();
        for path in names {
            if let Ok(run) = RunFile::read(&path.join(RUN_TOML))
                && run.plan.shard.is_some()
            {
                found = Some(run);
                break;
            }
        }
        let run = found.ok_or_else(|| StatusError::NoRun { dir: dir.to_path_buf() })?;
        (dir.to_path_buf(), run)
    };
    let plan = &first_run.plan;
    if plan.engines.len() != 2 {
        return Err(StatusError::NotTwoEngines { dir: parent, engines: plan.engines.len() });
    }
    let engines = (plan.engines[0].name.clone(), plan.engines[1].name.clone());
    let sprt = plan.sprt.as_ref().and_then(|s| s.spec().ok());
    let total_pairs = plan.length.pairs(1, 0);
    let mut warnings = Vec::new();
    let (combined, shards) = match plan.shard {
        Some(shard) => {
            let mut view = RunView::new(&parent, &first_run.fingerprint, shard.count(), &engines.0);
            let combined = view.refresh();
            warnings.append(&mut view.warnings);
            let missing: Vec<String> = (1..=shard.count())
                .filter(|i| !combined.shards.iter().any(|c| c.shard == *i))
                .map(|i| format!("{i}/{}", shard.count()))
                .collect();
            if !missing.is_empty() {
                warnings.push(format!("no folder holds shard(s) {} yet (not started?)", missing.join(", ")));
            }
            let shards = combined
                .shards
                .iter()
                .map(|count| {
                    let part = crate::runner::scheduler::Shard::new(count.shard, shard.count())
                        .map_or(0, |s| s.pairs(total_pairs));
                    let playing = super::lock::lock_shared(&parent.join(&count.folder)).is_err();
                    ShardStatus { count: count.clone(), planned_pairs: part, playing }
                })
                .collect();
            (combined, shards)
        }
        None => {
            let mut sibling = Sibling::default();
            if let Err(reason) = read_more(&parent.join("games.csv"), &engines.0, &mut sibling) {
                warnings.push(format!("{}: {reason}", parent.join("games.csv").display()));
            }
            let count = ShardCount { folder: ".".into(), shard: 1, games: sibling.games, pairs: sibling.penta.pairs() };
            let playing = super::lock::lock_shared(&parent).is_err();
            let combined = Combined { penta: sibling.penta, wdl: sibling.wdl, shards: vec![count.clone()] };
            (combined, vec![ShardStatus { count, planned_pairs: total_pairs, playing }])
        }
    };
    let outcome = sprt.as_ref().and_then(|s| s.evaluate(&combined.penta).ok());
    let decision = match read_decision(&parent) {
        Ok(Some(d)) if d.fingerprint == first_run.fingerprint => match d.check_against(&combined) {
            Ok(()) => Some(d),
            Err(reason) => {
                warnings.push(format!("{}: {reason}; ignored", parent.join(DECISION_FILE).display()));
                None
            }
        },
        Ok(Some(d)) => {
            warnings.push(format!(
                "{}: a decision of another run (fingerprint {}); ignored",
                parent.join(DECISION_FILE).display(),
                d.fingerprint
            ));
            None
        }
        Ok(None) => None,
        Err(reason) => {
            warnings.push(format!("{reason}; ignored"));
            None
        }
    };
    Ok(RunStatus { dir: parent, engines, shards, combined, sprt, outcome, decision, warnings })
}

/// What a shard's check of its siblings costs on the run of `status` (read by [`run_status`]): the first read of
/// every shard's `games.csv` from the start, then `repeats` further checks with nothing new (directory listing,
/// one open, stat and seek per shard), as a shard pays them while it plays. Returns the first read's time and
/// bytes and the mean time of the others: the figures of docs/scale.md (`arbiter status DIR --timing K`).
///
/// # Errors
/// [`StatusError::RunFile`]: the shards' run.toml does not read; [`StatusError::NoRun`]: no shard.
pub fn check_cost(status: &RunStatus, repeats: u32) -> Result<(Duration, u64, Duration), StatusError> {
    let first_shard = status.shards.first().ok_or_else(|| StatusError::NoRun { dir: status.dir.clone() })?;
    let path = status.dir.join(&first_shard.count.folder).join(RUN_TOML);
    let run = RunFile::read(&path).map_err(|source| StatusError::RunFile { path, source })?;
    let count = run.plan.shard.map_or(1, |s| s.count());
    let mut view = RunView::new(&status.dir, &run.fingerprint, count, &status.engines.0);
    let started = Instant::now();
    view.refresh();
    let first = started.elapsed();
    let bytes = view.last_read_bytes;
    let started = Instant::now();
    for _ in 0..repeats {
        view.refresh();
    }
    Ok((first, bytes, started.elapsed() / repeats.max(1)))
}
