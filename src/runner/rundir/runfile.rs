//! `run.toml`: what a run folder needs to be resumed or merged. `arbiter match` writes it before the first game:
//! the typed match plan ([`MatchPlan`], paths absolute), the arbiter version that wrote it, and the schedule
//! fingerprint, so that a resume or a merge refuses a run whose engines, openings or settings have changed
//! since. The format is documented in `results/README.md`.
//!
//! ```toml
//! # Written by `arbiter match` before the first game; read by `arbiter match --resume` and `arbiter merge`.
//! version = 2
//! arbiter = "0.2.0"
//! fingerprint = "5d1c0e3a9b7f2468"
//!
//! [parts]
//! engines = "..."
//! "engine seed" = "..."
//!
//! [plan]
//! format = 1
//! game = "chess"
//! ...
//! ```
//!
//! A `run.toml` of version 1 (arbiter 0.1, which recorded the command line) is refused with
//! [`RunFileError::Old`].

use crate::engine::Build;
use crate::game::Game;
use crate::game::keys::fnv1a;
use crate::notation::quote::shown as quote_shown;
use crate::player::MoveLimit;
use crate::player::{EngineKind, EngineSpec};
use crate::runner::plan::{MatchPlan, SprtPlan, UciPlan, canonical_json};
use crate::runner::rundir::output::{OutputError, replace_file};
use crate::runner::scheduler::{MatchLength, MatchSpec, Tournament};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use thiserror::Error;

/// The format version of `run.toml` that this build writes and reads.
pub const RUN_FILE_VERSION: u32 = 2;

/// What the fingerprint hashes of one engine: its move limits and, for an external engine, how it is run
/// (the plan's encoding), and for a built-in engine its configuration as loaded (the TOML of its config).
#[derive(Serialize)]
struct EngineKey {
    limit: MoveLimit,
    #[serde(skip_serializing_if = "Option::is_none")]
    uci: Option<UciPlan>,
    #[serde(skip_serializing_if = "Option::is_none")]
    config: Option<String>,
}

/// What the fingerprint hashes of the schedule: the plan's fields that decide which pairs are played with
/// which opening, and the shard count (not the shard index).
#[derive(Serialize)]
struct ScheduleKey {
    game: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    variant: Option<&'static str>,
    order: &'static str,
    #[serde(with = "crate::runner::plan::wide")]
    seed: u64,
    start: usize,
    length: MatchLength,
    tournament: Tournament,
    swap: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    reverse: bool,
    shards: u32,
}

/// The text of an engine that the fingerprint hashes: the canonical JSON ([`canonical_json`]) of its move
/// limits and of what it runs: the UCI engine's command, arguments, folder, options and timeouts, or the
/// built-in engine's configuration as loaded (so that a config file edited since is seen).
pub fn engine_text(engine: &EngineSpec) -> String {
    let (uci, config) = match &engine.kind {
        EngineKind::Builtin(Build::Chess(config)) => (None, Some(config.to_toml())),
        EngineKind::Builtin(Build::Xiangqi(config)) => (None, Some(config.canonical_text())),
        EngineKind::Uci(uci) => (Some(UciPlan::from(uci)), None),
    };
    canonical_json(&EngineKey { limit: engine.limit, uci, config })
}

/// The schedule fingerprint of a match: one FNV-1a hash per part (each engine, the openings, the schedule,
/// the game settings, the SPRT) and a total over the parts. Two runs with the same total play the same games
/// (at node or depth limits); the concurrency, the output folder, the run name, the engines' display sources
/// and the shard index are not part of it, the shard count is.
///
/// Each part but the openings is the canonical JSON ([`canonical_json`]) of a section of the plan, so that a
/// field added to the plan later, skipped when `None` or default, leaves the fingerprint of older runs as it
/// was. The encoding is documented in `results/README.md`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fingerprint {
    /// `(part name, hash)` in a fixed order: `engines`, `engine NAME` per engine, `openings`, `schedule`,
    /// `games`, `sprt`.
    pub parts: Vec<(String, u64)>,
}

impl Fingerprint {
    /// The fingerprint of `spec`, the match of a plan as loaded ([`MatchPlan::spec`]). The openings are hashed
    /// as played (start FEN and book moves of each, in file order, one line each), so a PGN book cut at another
    /// `--plies` is another schedule while a comment edited in the file is not.
    pub fn of<G: Game>(spec: &MatchSpec<G>) -> Fingerprint {
        let mut parts: Vec<(String, String)> = Vec::new();
        let names: Vec<&str> = spec.engines.iter().map(|e| e.name.as_str()).collect();
        parts.push(("engines".into(), canonical_json(&names)));
        for engine in &spec.engines {
            parts.push((format!("engine {}", engine.name), engine_text(engine)));
        }
        let mut openings = String::new();
        for opening in &spec.openings {
            let mut game = G::new_game(opening.start.clone());
            let mut moves = Vec::with_capacity(opening.moves.len());
            for &m in &opening.moves {
                moves.push(game.move_text(m));
                game.play(m);
            }
            let _ = writeln!(openings, "{} moves {}", G::position_fen(&opening.start), moves.join(" "));
        }
        parts.push(("openings".into(), openings));
        let schedule = ScheduleKey {
            game: G::NAME,
            variant: spec.variant.is_chess960().then(|| spec.variant.name()),
            order: spec.order.name(),
            seed: spec.seed,
            start: spec.start,
            length: spec.length,
            tournament: spec.tournament,
            swap: spec.swap,
            reverse: spec.reverse,
            shards: spec.shard.map_or(1, |s| s.count()),
        };
        parts.push(("schedule".into(), canonical_json(&schedule)));
        parts.push(("games".into(), canonical_json(&spec.settings.adjudication)));
        parts.push(("sprt".into(), canonical_json(&spec.sprt.as_ref().map(SprtPlan::of))));
        Fingerprint { parts: parts.into_iter().map(|(name, text)| (name, fnv1a(text.as_bytes()))).collect() }
    }

    /// The fingerprint proper: the FNV-1a hash of every part's name and hash, in order.
    pub fn total(&self) -> u64 {
        let mut bytes = Vec::new();
        for (name, hash) in &self.parts {
            bytes.extend_from_slice(name.as_bytes());
            bytes.push(0);
            bytes.extend_from_slice(&hash.to_le_bytes());
        }
        fnv1a(&bytes)
    }

    /// The parts that differ from `recorded` (part name -> hash as written in `run.toml`), in this
    /// fingerprint's order, then the recorded parts this one lacks.
    pub fn changed_parts(&self, recorded: &BTreeMap<String, String>) -> Vec<String> {
        let mut changed: Vec<String> = self
            .parts
            .iter()
            .filter(|(name, hash)| recorded.get(name) != Some(&hex(*hash)))
            .map(|(name, _)| name.clone())
            .collect();
        changed.extend(recorded.keys().filter(|name| !self.parts.iter().any(|(n, _)| n == *name)).cloned());
        changed
    }
}

/// A fingerprint part's name in words, for the refusal of a resume or a merge.
pub fn part_text(part: &str) -> String {
    match part {
        "engines" => "the engines' names or order".to_string(),
        "openings" => "the openings".to_string(),
        "schedule" => "the schedule (order, seed, length or shard count)".to_string(),
        "games" => "the game settings (limits, adjudication)".to_string(),
        "sprt" => "the SPRT".to_string(),
        other => match other.strip_prefix("engine ") {
            Some(name) => format!("the engine {name}"),
            None => other.to_string(),
        },
    }
}

/// A hash as 16 lower-case hex digits, as `run.toml` writes it.
pub fn hex(hash: u64) -> String {
    format!("{hash:016x}")
}

/// Why a `run.toml` cannot be read or written.
#[derive(Debug, Error)]
pub enum RunFileError {
    /// The file cannot be read.
    #[error("{path}: cannot read: {reason}")]
    Read {
        /// The path.
        path: String,
        /// The operating-system error (its text is in the message).
        reason: std::io::Error,
    },
    /// The file is not a run file of this format.
    #[error("{path}: not a run file arbiter can read: {reason}")]
    Format {
        /// The path.
        path: String,
        /// What is wrong.
        reason: String,
    },
    /// The file was written by arbiter 0.1 (format version 1, which recorded the command line, not the plan).
    #[error(
        "{path}: written by arbiter {arbiter} (run.toml version 1, which holds the command line); this arbiter {} reads version {RUN_FILE_VERSION} (the match plan): finish the run with arbiter {arbiter}, or start it again with this one",
        env!("CARGO_PKG_VERSION")
    )]
    Old {
        /// The path.
        path: String,
        /// The arbiter version that wrote it.
        arbiter: String,
    },
    /// The plan cannot be written as TOML.
    #[error("{path}: cannot encode the match plan: {reason}")]
    Encode {
        /// The path.
        path: String,
        /// The encoder's error.
        reason: toml::ser::Error,
    },
    /// The file cannot be written.
    #[error(transparent)]
    Write(#[from] OutputError),
}

/// The contents of a run folder's `run.toml`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunFile {
    /// The format version, [`RUN_FILE_VERSION`].
    pub version: u32,
    /// The arbiter version that wrote it.
    pub arbiter: String,
    /// The schedule fingerprint ([`Fingerprint::total`]) in hex.
    pub fingerprint: String,
    /// The fingerprint's parts (name -> hash in hex), to say what changed when the fingerprint differs.
    pub parts: BTreeMap<String, String>,
    /// The match.
    pub plan: MatchPlan,
}

impl RunFile {
    /// The run file of the match `plan`, with `fingerprint`.
    pub fn new(plan: MatchPlan, fingerprint: &Fingerprint) -> RunFile {
        RunFile {
            version: RUN_FILE_VERSION,
            arbiter: env!("CARGO_PKG_VERSION").to_string(),
            fingerprint: hex(fingerprint.total()),
            parts: fingerprint.parts.iter().map(|(name, hash)| (name.clone(), hex(*hash))).collect(),
            plan,
        }
    }

    /// The file as TOML text, with a comment line saying what it is.
    ///
    /// # Errors
    /// The encoder's error when a value cannot be written in TOML.
    pub fn to_toml(&self) -> Result<String, toml::ser::Error> {
        let body = toml::to_string(self)?;
        Ok(format!(
            "# Written by `arbiter match` before the first game; read by `arbiter match --resume` and `arbiter merge`.\n\
             {body}"
        ))
    }

    /// Writes the file to `path` atomically ([`replace_file`]).
    ///
    /// # Errors
    /// [`RunFileError::Encode`] when the plan cannot be written as TOML (a path that is not UTF-8),
    /// [`RunFileError::Write`] when the file cannot be written.
    pub fn write(&self, path: &Path) -> Result<(), RunFileError> {
        let text =
            self.to_toml().map_err(|reason| RunFileError::Encode { path: path.display().to_string(), reason })?;
        Ok(replace_file(path, text.as_bytes())?)
    }

    /// Reads the run file at `path`.
    ///
    /// # Errors
    /// [`RunFileError::Read`] when it cannot be read, [`RunFileError::Old`] for a file of arbiter 0.1,
    /// [`RunFileError::Format`] when it is not TOML of this format (a missing or unknown key, another version).
    pub fn read(path: &Path) -> Result<RunFile, RunFileError> {
        let (text, table) = read_table(path)?;
        RunFile::of_table(path, &text, &table)
    }

    /// The run file of `text` (read from `path`), whose TOML is `table`.
    fn of_table(path: &Path, text: &str, table: &toml::Table) -> Result<RunFile, RunFileError> {
        let shown = path.display().to_string();
        let format = |reason: String| RunFileError::Format { path: shown.clone(), reason };
        // The version first, so that another version is named as such rather than as a missing key.
        let arbiter = table.get("arbiter").and_then(toml::Value::as_str).unwrap_or("0.1").to_string();
        let version = match table.get("version") {
            None => return Err(format("missing key `version`".to_string())),
            Some(value) => value.as_integer().ok_or_else(|| {
                format(format!("`version = {value}`: expected an integer (this arbiter writes {RUN_FILE_VERSION})"))
            })?,
        };
        if version == 1 {
            return Err(RunFileError::Old { path: shown, arbiter });
        }
        if version != i64::from(RUN_FILE_VERSION) {
            return Err(format(format!(
                "version {version} (this arbiter reads version {RUN_FILE_VERSION}; use the arbiter that wrote it, \
                 {arbiter})"
            )));
        }
        let run: RunFile = toml::from_str(text).map_err(|e| syntax_error(path, text, &e))?;
        // The plan's own checks, so that a hand-edited value is named here, in its file, not as a flag.
        run.plan.validate().map_err(|e| format(format!("[plan]: {e}")))?;
        Ok(run)
    }

    /// The match of a plan file (`arbiter match --config FILE`): a run folder's `run.toml` as it is (its
    /// fingerprint is not checked: the plan is played as a new run), or the `[plan]` table's keys alone at the
    /// top level, written or edited by hand.
    ///
    /// # Errors
    /// As [`RunFile::read`], the file and line named.
    pub fn read_plan(path: &Path) -> Result<MatchPlan, RunFileError> {
        let (text, table) = read_table(path)?;
        if table.contains_key("plan") || table.contains_key("version") {
            return Ok(RunFile::of_table(path, &text, &table)?.plan);
        }
        let plan: MatchPlan = toml::from_str(&text).map_err(|e| syntax_error(path, &text, &e))?;
        let format = |reason: String| RunFileError::Format { path: path.display().to_string(), reason };
        plan.validate().map_err(|e| format(e.to_string()))?;
        Ok(plan)
    }
}

/// The text of the TOML file at `path` (a regular file of at most [`MAX_RUN_FILE_BYTES`]) and its table.
fn read_table(path: &Path) -> Result<(String, toml::Table), RunFileError> {
    let shown = path.display().to_string();
    let format = |reason: String| RunFileError::Format { path: shown.clone(), reason };
    // Only a regular file of a plausible size: a FIFO would block the read, a huge file fill the memory.
    let meta = std::fs::metadata(path).map_err(|reason| RunFileError::Read { path: shown.clone(), reason })?;
    if !meta.is_file() {
        return Err(format("not a regular file".to_string()));
    }
    if meta.len() > MAX_RUN_FILE_BYTES {
        return Err(format(format!(
            "{} bytes; a run file holds at most {MAX_RUN_FILE_BYTES} (a plan, not data)",
            meta.len()
        )));
    }
    let text = std::fs::read_to_string(path).map_err(|reason| RunFileError::Read { path: shown.clone(), reason })?;
    let table: toml::Table = toml::from_str(&text).map_err(|e| syntax_error(path, &text, &e))?;
    Ok((text, table))
}

/// A TOML error of `text` (read from `path`) with the line the parser stopped at, quoted as other damaged files
/// are (escaped, cut short).
fn syntax_error(path: &Path, text: &str, e: &toml::de::Error) -> RunFileError {
    let at = e.span().map_or(0, |span| span.start.min(text.len()));
    let line = text[..text.floor_char_boundary(at)].matches('\n').count() + 1;
    let shown = text.split('\n').nth(line - 1).map_or_else(String::new, |l| format!(" ({})", quote_shown(l)));
    RunFileError::Format { path: path.display().to_string(), reason: format!("line {line}{shown}: {}", e.message()) }
}

/// The largest `run.toml` read, in bytes (4 MiB): a plan with many engines and options is a few kilobytes.
pub const MAX_RUN_FILE_BYTES: u64 = 4 << 20;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::chess::EngineConfig;
    use crate::player::EngineSpec;
    use crate::runner::{GameSettings, MatchLength, Opening, OpeningOrder, Shard};
    use std::path::PathBuf;

    fn spec() -> MatchSpec<crate::chess::ChessGame> {
        let settings = GameSettings::default();
        let limit = crate::player::MoveLimit { nodes: Some(300), ..Default::default() };
        MatchSpec {
            engines: vec![
                EngineSpec { limit, ..EngineSpec::builtin("seed").unwrap() },
                EngineSpec { limit, ..EngineSpec::builtin("nomob").unwrap() },
            ],
            openings: vec![Opening { start: crate::chess::Position::startpos(), moves: Vec::new(), line: 1 }],
            openings_source: "startpos".into(),
            order: OpeningOrder::Random,
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
            length: MatchLength::Games(16),
            concurrency: 2,
            settings,
            recover: false,
            sprt: None,
            shard: None,
        }
    }

    #[test]
    fn fnv_reference_vectors() {
        // From the FNV test suite (fnv1a64 of "foobar").
        assert_eq!(fnv1a(b"foobar"), 0x85944171f73967e8);
    }

    #[test]
    fn the_fingerprint_covers_the_schedule_and_not_the_rest() {
        let base = Fingerprint::of(&spec());
        let names: Vec<&str> = base.parts.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["engines", "engine seed", "engine nomob", "openings", "schedule", "games", "sprt"]);
        assert_eq!(base, Fingerprint::of(&spec()), "the fingerprint is deterministic");

        // Not part of it: the concurrency, the openings' source text, the shard index.
        let mut same = spec();
        same.concurrency = 7;
        same.openings_source = "elsewhere.epd".into();
        assert_eq!(Fingerprint::of(&same).total(), base.total());
        let shard = |i| {
            let mut s = spec();
            s.shard = Some(Shard::new(i, 4).unwrap());
            Fingerprint::of(&s).total()
        };
        assert_eq!(shard(1), shard(3));
        // One shard of one is the whole match.
        let mut one = spec();
        one.shard = Some(Shard::new(1, 1).unwrap());
        assert_eq!(Fingerprint::of(&one).total(), base.total());

        // Each of these is another schedule, and the changed part is named.
        let changes: Vec<(MatchSpec<crate::chess::ChessGame>, &str)> = vec![
            (
                {
                    let mut s = spec();
                    s.seed = 2;
                    s
                },
                "schedule",
            ),
            (
                {
                    let mut s = spec();
                    s.length = MatchLength::Games(18);
                    s
                },
                "schedule",
            ),
            (
                {
                    let mut s = spec();
                    s.order = OpeningOrder::Sequential;
                    s
                },
                "schedule",
            ),
            (
                {
                    let mut s = spec();
                    s.shard = Some(Shard::new(1, 2).unwrap());
                    s
                },
                "schedule",
            ),
            (
                {
                    let mut s = spec();
                    s.engines[0].limit.nodes = Some(301);
                    s
                },
                "engine seed",
            ),
            (
                {
                    let mut s = spec();
                    s.settings.adjudication.maxmoves = Some(80);
                    s
                },
                "games",
            ),
            (
                {
                    let mut s = spec();
                    s.sprt = Some(crate::stats::SprtSpec::stc());
                    s
                },
                "sprt",
            ),
            (
                {
                    let mut s = spec();
                    s.engines.swap(0, 1);
                    s
                },
                "engines",
            ),
            (
                {
                    let mut s = spec();
                    let mut config = EngineConfig::seed();
                    config.weights.bishop_pair += 1;
                    s.engines[0] = EngineSpec::from_config("seed", config, "mine.toml");
                    s
                },
                "engine seed",
            ),
            (
                {
                    let mut s = spec();
                    let mut position = crate::chess::Position::startpos();
                    let e4 = position.legal_moves().iter().copied().find(|m| m.to_uci(false) == "e2e4").unwrap();
                    position.make_move(e4);
                    s.openings[0].start = position;
                    s
                },
                "openings",
            ),
        ];
        let recorded = RunFile::new(crate::runner::plan::tests::plan(), &base).parts;
        assert!(base.changed_parts(&recorded).is_empty());
        for (changed, part) in changes {
            let fingerprint = Fingerprint::of(&changed);
            assert_ne!(fingerprint.total(), base.total(), "{part}");
            let mut parts = fingerprint.changed_parts(&recorded);
            parts.retain(|p| !p.starts_with("engine ") || part.starts_with("engine "));
            assert_eq!(parts, [part], "{fingerprint:?}");
        }
    }

    #[test]
    fn run_files_round_trip_and_refuse_other_versions() {
        let dir = std::env::temp_dir().join(format!("arbiter-runfile-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("run.toml");
        let mut plan = crate::runner::plan::tests::plan();
        plan.output.name = Some("say \"hi\" there".into()); // a quote to escape (a run name cannot hold a backslash)
        plan.openings.file = PathBuf::from("/some where/back\\slash/book.epd"); // a space and a backslash to escape
        let file = RunFile::new(plan, &Fingerprint::of(&spec()));
        file.write(&path).unwrap();
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1, "only run.toml: no temporary file is left");
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("# Written by `arbiter match` before the first game"), "{text}");
        assert!(text.contains(&format!("fingerprint = \"{}\"", hex(Fingerprint::of(&spec()).total()))), "{text}");
        assert!(text.contains("version = 2\n") && text.contains("[plan]"), "{text}");
        assert_eq!(RunFile::read(&path).unwrap(), file);

        std::fs::write(&path, text.replace("version = 2", "version = 9")).unwrap();
        let err = RunFile::read(&path).unwrap_err().to_string();
        assert!(err.contains("run.toml: not a run file arbiter can read: version 9"), "{err}");
        std::fs::write(&path, text.replace("fingerprint = ", "fingerprintz = ")).unwrap();
        let err = RunFile::read(&path).unwrap_err().to_string();
        assert!(err.contains("not a run file arbiter can read"), "{err}");
        let err = RunFile::read(&dir.join("missing.toml")).unwrap_err().to_string();
        assert!(err.contains("missing.toml: cannot read"), "{err}");

        // A run folder of arbiter 0.1: refused, naming the version that wrote it and what to do.
        let old = "version = 1\narbiter = \"0.1.0\"\ncwd = \"/home/me\"\nargs = [\"--games\", \"4\"]\n\
                   fingerprint = \"5d1c0e3a9b7f2468\"\n\n[parts]\nengines = \"0000000000000001\"\n";
        std::fs::write(&path, old).unwrap();
        let err = RunFile::read(&path).unwrap_err();
        assert!(matches!(&err, RunFileError::Old { arbiter, .. } if arbiter == "0.1.0"), "{err}");
        let err = err.to_string();
        assert!(err.contains("run.toml: written by arbiter 0.1.0 (run.toml version 1"), "{err}");
        assert!(err.contains("finish the run with arbiter 0.1.0, or start it again"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn hand_edited_and_hostile_run_files_are_refused_in_their_file() {
        let dir = std::env::temp_dir().join(format!("arbiter-runfile-hostile-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("run.toml");
        let file = RunFile::new(crate::runner::plan::tests::plan(), &Fingerprint::of(&spec()));
        file.write(&path).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let refused = |body: &str| {
            std::fs::write(&path, body).unwrap();
            RunFile::read(&path).unwrap_err().to_string()
        };
        // A plan value the plan's own checks refuse is named in run.toml's [plan], not as a flag given.
        let plan_format = text.lines().find(|l| l.starts_with("format = ")).expect("the plan has a format");
        let err = refused(&text.replace(plan_format, "format = 7"));
        assert!(err.contains("run.toml: not a run file arbiter can read: [plan]: plan format 7"), "{err}");
        let err = refused(&text.replace("version = 2", "version = \"2\""));
        assert!(err.contains("`version = \"2\"`: expected an integer"), "{err}");
        // A 0.1 file without its `arbiter` key still says what wrote it.
        let err = refused("version = 1\nargs = []\n");
        assert!(err.contains("written by arbiter 0.1 "), "{err}");
        // Too large to be a plan: refused before it is read.
        let err = refused(&"#".repeat(MAX_RUN_FILE_BYTES as usize + 1));
        assert!(err.contains("a run file holds at most"), "{err}");
        // Not a regular file (a FIFO would block the read forever).
        std::fs::remove_file(&path).unwrap();
        std::fs::create_dir(&path).unwrap();
        let err = RunFile::read(&path).unwrap_err().to_string();
        assert!(err.contains("run.toml: not a run file arbiter can read: not a regular file"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The schedule part of version 1 of the plan's encoding, and the same with an optional field added the
    /// way a later version adds one (`#[serde(default, skip_serializing_if = ...)]`).
    #[derive(Serialize, Deserialize)]
    struct ScheduleV1 {
        game: String,
        seed: u64,
        length: MatchLength,
        swap: bool,
    }

    #[derive(Serialize, Deserialize)]
    struct ScheduleV2 {
        game: String,
        seed: u64,
        length: MatchLength,
        swap: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pairing_seed: Option<u64>,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        reverse: bool,
    }

    #[test]
    fn an_optional_field_added_to_the_plan_keeps_old_fingerprints() {
        // A part serialized by the old shape, read back by the new one (as a resume of an old run does), and
        // serialized again: the same canonical text, so the same hash.
        let old = ScheduleV1 { game: "chess".into(), seed: 7, length: MatchLength::Games(24), swap: true };
        let text = toml::to_string(&old).unwrap();
        let new: ScheduleV2 = toml::from_str(&text).unwrap();
        assert_eq!((new.pairing_seed, new.reverse), (None, false));
        assert_eq!(canonical_json(&new), canonical_json(&old));
        assert_eq!(fnv1a(canonical_json(&new).as_bytes()), fnv1a(canonical_json(&old).as_bytes()));
        assert_eq!(canonical_json(&old), r#"{"game":"chess","length":{"games":24},"seed":7,"swap":true}"#);
        // Using the field is another schedule.
        let used = ScheduleV2 { pairing_seed: Some(3), ..new };
        assert_ne!(canonical_json(&used), canonical_json(&old));

        // The same holds for the whole plan: a run.toml written without the optional fields the plan has (the
        // SPRT, the shard, adjudication) reads back to the same fingerprint of its match.
        let plan = crate::runner::plan::tests::plan();
        let text = toml::to_string(&plan).unwrap();
        assert!(!text.contains("sprt") && !text.contains("shard") && !text.contains("adjudication"), "{text}");
        let back: crate::runner::MatchPlan = toml::from_str(&text).unwrap();
        assert_eq!(back, plan);

        // The encoding of the schedule part is pinned: a change here breaks the resume of every older run.
        let spec = spec();
        let schedule = ScheduleKey {
            game: "chess",
            variant: None,
            order: spec.order.name(),
            seed: spec.seed,
            start: spec.start,
            length: spec.length,
            tournament: spec.tournament,
            swap: spec.swap,
            reverse: spec.reverse,
            shards: 1,
        };
        assert_eq!(
            canonical_json(&schedule),
            r#"{"game":"chess","length":{"games":16},"order":"random","seed":1,"shards":1,"start":1,"swap":true,"tournament":"round-robin"}"#
        );
        let part = Fingerprint::of(&spec).parts.into_iter().find(|(n, _)| n == "schedule").unwrap().1;
        assert_eq!(part, fnv1a(canonical_json(&schedule).as_bytes()));
    }
}
