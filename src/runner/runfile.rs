//! `run.toml`: what a run folder needs to be resumed or merged. `arbiter match` writes it before the first game:
//! the command-line arguments of the match (as given, so that flags added later are kept without code here),
//! the working directory they were given in, and a fingerprint of the schedule, so that a resume or a merge
//! refuses a run whose engines, openings or settings have changed since.
//!
//! ```toml
//! # Written by `arbiter match` before the first game; read by `arbiter match --resume` and `arbiter merge`.
//! version = 1
//! arbiter = "0.1.0"
//! cwd = "/home/me/arbiter"
//! args = ["--engine", "name=seed", "--engine", "name=nomob", "--games", "16", "--out", "results/run"]
//! fingerprint = "5d1c0e3a9b7f2468"
//!
//! [parts]
//! engines = "..."
//! "engine seed" = "..."
//! ```

use super::output::{OutputError, replace_file};
use super::scheduler::MatchSpec;
use crate::game::Game as MatchGame;
use crate::notation::quote::shown as quote_shown;
use crate::player::EngineKind;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// The format version of `run.toml` that this build writes and reads.
pub const RUN_FILE_VERSION: u32 = 1;

/// 64-bit FNV-1a offset basis (Fowler, Noll, Vo; <http://www.isthe.com/chongo/tech/comp/fnv/>).
const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// 64-bit FNV-1a prime (same source).
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// The 64-bit FNV-1a hash of `bytes`: stable across builds, platforms and Rust versions (unlike
/// `std::hash::DefaultHasher`).
///
/// # Examples
/// ```
/// use arbiter::runner::runfile::fnv1a;
/// // Reference values of the FNV test suite.
/// assert_eq!(fnv1a(b""), 0xcbf29ce484222325);
/// assert_eq!(fnv1a(b"a"), 0xaf63dc4c8601ec8c);
/// ```
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(FNV_OFFSET, |hash, &b| (hash ^ u64::from(b)).wrapping_mul(FNV_PRIME))
}

/// The text of an engine that the fingerprint hashes: everything that decides how it plays. One arm per
/// [`EngineKind`]: a new kind adds one line here (its config's text, or its `Debug` form).
pub fn engine_text(kind: &EngineKind) -> String {
    match kind {
        EngineKind::Builtin(config) => config.to_toml(),
        EngineKind::XiangqiBuiltin(config) => format!("{config:?}"),
        EngineKind::Uci(engine) => format!("{engine:?}"),
    }
}

/// The schedule fingerprint of a match: one FNV-1a hash per part (each engine, the openings, the schedule,
/// the game settings, the SPRT) and a total over the parts. Two runs with the same total play the same games
/// (at node or depth limits); the concurrency, the output folder, the run name and the shard index are not
/// part of it, the shard count is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fingerprint {
    /// `(part name, hash)` in a fixed order: `engines`, `engine NAME` per engine, `openings`, `schedule`,
    /// `games`, `sprt`.
    pub parts: Vec<(String, u64)>,
}

impl Fingerprint {
    /// The fingerprint of `spec`. The openings are hashed as played (start FEN and book moves of each, in file
    /// order), so a PGN book cut at another `--plies` is another schedule while a comment edited in the file is
    /// not. The game settings and the SPRT are hashed in their `Debug` form, so fields added to them later are
    /// covered without a change here.
    pub fn of<G: MatchGame>(spec: &MatchSpec<G>) -> Fingerprint {
        let mut parts: Vec<(String, String)> = Vec::new();
        let names: Vec<&str> = spec.engines.iter().map(|e| e.name.as_str()).collect();
        parts.push(("engines".into(), names.join("\n")));
        for engine in &spec.engines {
            // An engine plays by its kind and its move limits.
            let text = format!("{}\nlimit {:?}", engine_text(&engine.kind), engine.limit);
            parts.push((format!("engine {}", engine.name), text));
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
        let shards = spec.shard.map_or(1, |s| s.count());
        let mut schedule = format!(
            "order={:?} seed={} start={} length={:?} tournament={:?} swap={} variant={:?} shards={shards}",
            spec.order, spec.seed, spec.start, spec.length, spec.tournament, spec.swap, spec.variant
        );
        // Chess runs keep the fingerprint they had before other games were added.
        if G::NAME != "chess" {
            schedule.push_str(&format!(" game={}", G::NAME));
        }
        parts.push(("schedule".into(), schedule));
        parts.push(("games".into(), format!("{:?}", spec.settings)));
        parts.push(("sprt".into(), format!("{:?}", spec.sprt)));
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
    /// An argument or the working directory is not UTF-8 text, which `run.toml` cannot hold.
    #[error("{what} is not UTF-8 text ({text}); run.toml records the match's arguments as text")]
    NotText {
        /// `an argument` or `the working directory`.
        what: &'static str,
        /// The lossy text.
        text: String,
    },
    /// The file cannot be written.
    #[error(transparent)]
    Write(#[from] OutputError),
}

/// The contents of a run folder's `run.toml`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunFile {
    /// The format version, [`RUN_FILE_VERSION`].
    pub version: u32,
    /// The arbiter version that wrote it.
    pub arbiter: String,
    /// The working directory the arguments were given in: relative paths among them are relative to it.
    pub cwd: PathBuf,
    /// The arguments of `arbiter match`, as given (everything after `match`).
    pub args: Vec<String>,
    /// The schedule fingerprint ([`Fingerprint::total`]) in hex.
    pub fingerprint: String,
    /// The fingerprint's parts (name -> hash in hex), to say what changed when the fingerprint differs.
    pub parts: BTreeMap<String, String>,
}

impl RunFile {
    /// The run file of a match given `args` in `cwd`, with `fingerprint`.
    pub fn new(args: Vec<String>, cwd: PathBuf, fingerprint: &Fingerprint) -> RunFile {
        RunFile {
            version: RUN_FILE_VERSION,
            arbiter: env!("CARGO_PKG_VERSION").to_string(),
            cwd,
            args,
            fingerprint: hex(fingerprint.total()),
            parts: fingerprint.parts.iter().map(|(name, hash)| (name.clone(), hex(*hash))).collect(),
        }
    }

    /// The file as TOML text, with a comment line saying what it is.
    pub fn to_toml(&self) -> String {
        let body = toml::to_string(self).expect("a run file is plain strings and tables");
        format!(
            "# Written by `arbiter match` before the first game; read by `arbiter match --resume` and `arbiter merge`.\n\
             {body}"
        )
    }

    /// Writes the file to `path` atomically ([`replace_file`]).
    ///
    /// # Errors
    /// [`RunFileError::NotText`] when the working directory is not UTF-8, [`RunFileError::Write`] when the file
    /// cannot be written.
    pub fn write(&self, path: &Path) -> Result<(), RunFileError> {
        if self.cwd.to_str().is_none() {
            return Err(RunFileError::NotText {
                what: "the working directory",
                text: self.cwd.to_string_lossy().into_owned(),
            });
        }
        Ok(replace_file(path, self.to_toml().as_bytes())?)
    }

    /// Reads the run file at `path`.
    ///
    /// # Errors
    /// [`RunFileError::Read`] when it cannot be read, [`RunFileError::Format`] when it is not TOML of this
    /// format (a missing or unknown key, another version).
    pub fn read(path: &Path) -> Result<RunFile, RunFileError> {
        let shown = path.display().to_string();
        let text =
            std::fs::read_to_string(path).map_err(|reason| RunFileError::Read { path: shown.clone(), reason })?;
        let format = |reason: String| RunFileError::Format { path: shown.clone(), reason };
        let file: RunFile = toml::from_str(&text).map_err(|e| {
            // The line the parser stopped at, quoted as other damaged files are (escaped, cut short).
            let at = e.span().map_or(0, |span| span.start.min(text.len()));
            let line = text[..text.floor_char_boundary(at)].matches('\n').count() + 1;
            let shown = text.split('\n').nth(line - 1).map_or_else(String::new, |l| format!(" ({})", quote_shown(l)));
            format(format!("line {line}{shown}: {}", e.message()))
        })?;
        if file.version != RUN_FILE_VERSION {
            return Err(format(format!(
                "version {} (this arbiter reads version {RUN_FILE_VERSION}; use the arbiter that wrote it, {})",
                file.version, file.arbiter
            )));
        }
        Ok(file)
    }
}

/// The arguments after the `match` subcommand in `argv` (the process's arguments, program name first), as
/// text: what [`RunFile::args`] records.
///
/// # Errors
/// [`RunFileError::NotText`] for an argument that is not UTF-8.
pub fn args_after(
    argv: impl IntoIterator<Item = std::ffi::OsString>,
    subcommand: &str,
) -> Result<Vec<String>, RunFileError> {
    argv.into_iter()
        .skip(1)
        .skip_while(|arg| arg != subcommand)
        .skip(1)
        .map(|arg| {
            arg.into_string()
                .map_err(|arg| RunFileError::NotText { what: "an argument", text: arg.to_string_lossy().into_owned() })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::chess::EngineConfig;
    use crate::player::EngineSpec;
    use crate::runner::{GameSettings, MatchLength, Opening, OpeningOrder, Shard};

    fn spec() -> MatchSpec {
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
            swap: true,
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
        let changes: Vec<(MatchSpec, &str)> = vec![
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
        let recorded = RunFile::new(Vec::new(), PathBuf::from("/"), &base).parts;
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
        let args = vec!["--engine".to_string(), "name=seed".into(), "--name".into(), "say \"hi\" \\ there".into()];
        let file = RunFile::new(args, PathBuf::from("/some where"), &Fingerprint::of(&spec()));
        file.write(&path).unwrap();
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1, "only run.toml: no temporary file is left");
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("# Written by `arbiter match` before the first game"), "{text}");
        assert!(text.contains(&format!("fingerprint = \"{}\"", hex(Fingerprint::of(&spec()).total()))), "{text}");
        assert_eq!(RunFile::read(&path).unwrap(), file);

        std::fs::write(&path, text.replace("version = 1", "version = 9")).unwrap();
        let err = RunFile::read(&path).unwrap_err().to_string();
        assert!(err.contains("run.toml: not a run file arbiter can read: version 9"), "{err}");
        std::fs::write(&path, text.replace("args = ", "argz = ")).unwrap();
        let err = RunFile::read(&path).unwrap_err().to_string();
        assert!(err.contains("not a run file arbiter can read"), "{err}");
        let err = RunFile::read(&dir.join("missing.toml")).unwrap_err().to_string();
        assert!(err.contains("missing.toml: cannot read"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_arguments_after_the_subcommand() {
        let argv = ["arbiter", "match", "--games", "4", "--name", "match"].map(std::ffi::OsString::from);
        assert_eq!(args_after(argv, "match").unwrap(), ["--games", "4", "--name", "match"]);
        let argv = ["/usr/bin/arbiter", "match"].map(std::ffi::OsString::from);
        assert!(args_after(argv, "match").unwrap().is_empty());
    }
}
