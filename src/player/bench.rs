//! Bench signatures of any engine: the total node count of an engine's own fixed search (`bench`), identical on
//! every run and machine for one build, and its speed (nodes per second).
//!
//! - A built-in chess build searches [`BENCH_FENS`](crate::engine::chess::bench::BENCH_FENS) in-process
//!   ([`bench_nodes_with`]).
//! - An external engine is run the way OpenBench's client does (`Client/bench.py`, `single_core_bench`, in
//!   AndyGrant/OpenBench): `ENGINE [args] bench [bench args]` as a command line with stdout and stderr read
//!   together; when that prints no node count, the engine is started again and sent `uci`, then `bench` and
//!   `isready` over UCI, and everything it prints before `readyok` is read.
//!
//! The output is parsed by [`BenchParser`]: Stockfish's `Nodes searched  : N` and `Nodes/second    : N`,
//! OpenBench's `Bench: N nodes N nps`, Ethereal's `Nodes : N` and `NPS   : N`, and the other forms OpenBench's
//! `parse_stream_output` accepts (`N nodes`, `nodes N`, `N nps`, `nps N`). Engine output is untrusted: lines
//! are cut at [`MAX_LINE_BYTES`], at most [`MAX_BENCH_LINES`] lines and [`MAX_BENCH_BYTES`] bytes are read, and
//! the whole bench has a time limit, after which the engine's process group is killed and reaped.

use super::spec::{EngineKind, EngineSpec, MoveLimit};
use super::uci::UciEngine;
use crate::engine::Build;
use crate::engine::chess::EngineConfig;
use crate::engine::chess::bench::bench_nodes_with;
use crate::uci::process::{MAX_LINE_BYTES, decode_line};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::time::{Duration, Instant};
use thiserror::Error;

/// The default time limit of one bench of an external engine, in seconds (both attempts together).
/// OpenBench's client allows 60 s (`MAX_BENCH_TIME_SECONDS` in `Client/bench.py`); Stockfish's default bench
/// on a slow machine takes longer, so twice that.
pub const DEFAULT_BENCH_TIMEOUT_S: u64 = 120;

/// The most output lines (stdout and stderr together) read from one bench run; more is an output flood.
/// Stockfish 15.1's default bench prints about 2,000.
pub const MAX_BENCH_LINES: u64 = 200_000;

/// The most output bytes read from one bench run (16 MiB); more is an output flood.
pub const MAX_BENCH_BYTES: u64 = 16 * 1024 * 1024;

/// How many of an engine's last lines an error shows.
const LAST_LINES: usize = 8;

/// One bench: the node count (the signature) and the speed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchResult {
    /// Total nodes searched: the signature of the build.
    pub nodes: u64,
    /// Nodes per second: as the engine printed it, else computed from the time it printed, else from the wall
    /// time of its process.
    pub nps: u64,
}

/// How to run a bench.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchOptions {
    /// The search depth in plies of the built-in engine's bench; `None` for its default
    /// ([`DEFAULT_BENCH_DEPTH`](crate::engine::chess::bench::DEFAULT_BENCH_DEPTH)). Refused for an external
    /// engine, whose `bench` arguments differ from engine to engine (use `args`).
    pub depth: Option<u32>,
    /// Words passed after `bench` to an external engine (Stockfish: `16 1 13 default depth` for hash, threads,
    /// depth; Ethereal: `13` for the depth). Refused for a built-in engine.
    pub args: Vec<String>,
    /// The time limit of one bench of an external engine (both attempts together).
    pub timeout: Duration,
}

impl Default for BenchOptions {
    fn default() -> BenchOptions {
        BenchOptions { depth: None, args: Vec::new(), timeout: Duration::from_secs(DEFAULT_BENCH_TIMEOUT_S) }
    }
}

/// Why an engine's bench gave no signature, or the wrong one.
#[derive(Debug, Error)]
pub enum BenchError {
    /// The engine's program cannot be started.
    #[error("engine {engine}: cannot start {}: {source}", crate::notation::quote::shown(.cmd))]
    Start {
        /// The engine's name.
        engine: String,
        /// The program.
        cmd: String,
        /// The operating-system error.
        source: std::io::Error,
    },
    /// Neither `ENGINE bench` nor `bench` over UCI printed a node count Arbiter can read.
    #[error(
        "engine {engine}: no bench node count found: `{command}` {first}, and `bench` sent over UCI {second}; last lines: {}",
        shown_lines(.last)
    )]
    NoCount {
        /// The engine's name.
        engine: String,
        /// The command line run first.
        command: String,
        /// What the command line did (`exited with status 0`).
        first: String,
        /// What the UCI attempt did.
        second: String,
        /// The engine's last lines.
        last: Vec<String>,
    },
    /// `ENGINE bench` printed no node count, and the engine started over UCI sent no `uciok` within its
    /// handshake timeout (`handshake_timeout_ms`, as in every other job); it was killed.
    #[error(
        "engine {engine}: no bench node count found: `{command}` {first}, and over UCI the engine sent no uciok within {ms} ms; last lines: {}",
        shown_lines(.last)
    )]
    NoUciok {
        /// The engine's name.
        engine: String,
        /// The command line run first.
        command: String,
        /// What the command line did (`exited with status 0`).
        first: String,
        /// The handshake timeout in milliseconds.
        ms: u64,
        /// The engine's last lines.
        last: Vec<String>,
    },
    /// The engine's process was killed by a signal (a crash) before it printed a node count.
    #[error("engine {engine}: crashed during its bench ({how}); last lines: {}", shown_lines(.last))]
    Crashed {
        /// The engine's name.
        engine: String,
        /// The signal, in words.
        how: String,
        /// The engine's last lines.
        last: Vec<String>,
    },
    /// The bench did not end within the time limit; the engine was killed.
    #[error("engine {engine}: bench did not finish within {seconds} s; killed; last lines: {}", shown_lines(.last))]
    Timeout {
        /// The engine's name.
        engine: String,
        /// The time limit in seconds.
        seconds: u64,
        /// The engine's last lines.
        last: Vec<String>,
    },
    /// The engine printed more than Arbiter reads.
    #[error("engine {engine}: output flood during its bench: {what}; killed")]
    Flood {
        /// The engine's name.
        engine: String,
        /// What was too much.
        what: String,
    },
    /// Bench arguments for the built-in engine, whose bench takes a depth.
    #[error("engine {engine}: bench arguments apply to external engines; the built-in engine's bench takes a depth")]
    ArgsForBuiltin {
        /// The engine's name.
        engine: String,
    },
    /// A bench depth for an external engine, which reads its own bench arguments.
    #[error(
        "engine {engine}: a bench depth applies to the built-in engine: engines read `bench` arguments \
         differently; {EXTERNAL_BENCH_ARGS}"
    )]
    DepthForExternal {
        /// The engine's name.
        engine: String,
    },
    /// A bench that this engine does not have.
    #[error("engine {engine}: {reason}")]
    Unsupported {
        /// The engine's name.
        engine: String,
        /// Why, with what to give instead.
        reason: String,
    },
    /// Runs of one bench gave different node counts (the engine is not deterministic: threads, time limits).
    #[error(
        "engine {engine}: bench node counts differ between runs: {counts:?}; a signature must be the same on every run (one thread, a depth limit)"
    )]
    Unsteady {
        /// The engine's name.
        engine: String,
        /// The node count of each run.
        counts: Vec<u64>,
    },
    /// The bench signature is not the one given with `bench=`.
    #[error("engine {engine}: wrong bench: expected {expected} (bench={expected}), measured {measured} nodes")]
    Mismatch {
        /// The engine's name.
        engine: String,
        /// The signature given.
        expected: u64,
        /// The signature measured.
        measured: u64,
    },
}

impl BenchError {
    /// Whether the error is the user's input (exit 2): a program that cannot be started, an engine without a
    /// readable bench (or without a UCI handshake), an option that does not apply, a wrong signature. A crash, a timeout, a flood or
    /// unsteady counts are failures of the engine (exit 1).
    pub fn is_input(&self) -> bool {
        matches!(
            self,
            BenchError::Start { .. }
                | BenchError::NoCount { .. }
                | BenchError::NoUciok { .. }
                | BenchError::Unsupported { .. }
                | BenchError::ArgsForBuiltin { .. }
                | BenchError::DepthForExternal { .. }
                | BenchError::Mismatch { .. }
        )
    }
}

/// How external engines take a bench depth, in their own bench arguments.
pub const EXTERNAL_BENCH_ARGS: &str =
    "pass it in the bench arguments (Stockfish: \"16 1 DEPTH default depth\", Ethereal: \"DEPTH\")";

/// An engine's last lines for an error message, each quoted and cut short, in brackets.
fn shown_lines(lines: &[String]) -> String {
    let quoted: Vec<String> = lines.iter().map(|l| crate::notation::quote::shown(l)).collect();
    format!("[{}]", quoted.join(", "))
}

/// Reads bench output line by line and keeps the last node count, nps and total time it finds, as OpenBench's
/// `parse_stream_output` (`Client/bench.py`, AndyGrant/OpenBench) does by scanning the lines from the end.
/// Unlike it, UCI `info` lines (one iteration of one search) are skipped, and digit groups written with `,`
/// (`3,467,381`) are read as one number.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BenchParser {
    /// The last node count found.
    pub nodes: Option<u64>,
    /// The last nodes per second found.
    pub nps: Option<u64>,
    /// The last total time found, in milliseconds.
    pub time_ms: Option<u64>,
}

impl BenchParser {
    /// Reads one line of output. Lowercased, with every character but letters and digits made a space, a line
    /// gives the node count from `nodes searched N`, `nodes N` or `N nodes`; the speed from `nodes second N`
    /// (Stockfish's `Nodes/second`), `nps N` or `N nps`; the time from `total time ms N` (Stockfish),
    /// `time N ms` or `time Nms` (Ethereal).
    pub fn feed(&mut self, line: &str) {
        let line = line.trim();
        let lower = line.to_ascii_lowercase();
        if lower.starts_with("info ") || lower == "info" || lower.starts_with("bestmove") {
            return;
        }
        let words = words_of(&lower);
        let number = |i: usize| words.get(i).and_then(|w| w.parse::<u64>().ok());
        // The number before a keyword, else the one after it (OpenBench's leftmost regex match), never one
        // already taken by the node count.
        let mut taken = None;
        let around = |i: usize, taken: &mut Option<usize>| {
            let before = i.checked_sub(1).filter(|&b| Some(b) != *taken && number(b).is_some());
            let at = before.or(Some(i + 1).filter(|&a| Some(a) != *taken && number(a).is_some()))?;
            *taken = Some(at);
            number(at)
        };
        let mut nodes = None;
        let mut nps = None;
        let mut time_ms = None;
        for (i, word) in words.iter().enumerate() {
            let next = words.get(i + 1).map(String::as_str);
            if word == "nodes" && next == Some("searched") && nodes.is_none() {
                nodes = number(i + 2);
                taken = Some(i + 2);
            } else if word == "nodes" && matches!(next, Some("second" | "sec")) {
                nps = nps.or(number(i + 2));
            } else if word == "nodes" && nodes.is_none() {
                nodes = around(i, &mut taken);
            } else if word == "time" {
                let at = if next == Some("ms") { i + 2 } else { i + 1 };
                let value = words.get(at).and_then(|w| match w.strip_suffix("ms") {
                    Some(digits) => digits.parse::<u64>().ok(),
                    None if at == i + 2 || words.get(at + 1).is_some_and(|u| u == "ms") => w.parse().ok(),
                    None => None,
                });
                time_ms = time_ms.or(value);
            }
        }
        for (i, word) in words.iter().enumerate() {
            if word == "nps" && nps.is_none() {
                nps = around(i, &mut taken);
            }
        }
        self.nodes = nodes.or(self.nodes);
        self.nps = nps.or(self.nps);
        self.time_ms = time_ms.or(self.time_ms);
    }

    /// The bench found, if a node count was: its speed as printed, else computed from the time printed, else
    /// from `wall` (the process's run time).
    pub fn result(&self, wall: Duration) -> Option<BenchResult> {
        let nodes = self.nodes?;
        let nps = self.nps.unwrap_or_else(|| {
            let ms = self.time_ms.unwrap_or(wall.as_millis() as u64).max(1);
            nodes.saturating_mul(1000) / ms
        });
        Some(BenchResult { nodes, nps })
    }
}

/// The words of a lowercased line: runs of ASCII letters and digits, with a `,` between digits kept inside a
/// number and dropped (`3,467,381` is one word, `3467381`).
fn words_of(line: &str) -> Vec<String> {
    let chars: Vec<char> = line.chars().collect();
    let mut words = Vec::new();
    let mut word = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_alphanumeric() {
            word.push(c);
        } else if c == ','
            && word.chars().last().is_some_and(|d| d.is_ascii_digit())
            && chars.get(i + 1).is_some_and(char::is_ascii_digit)
        {
            continue;
        } else if !word.is_empty() {
            words.push(std::mem::take(&mut word));
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

/// Parses a whole bench output (see [`BenchParser::feed`]).
///
/// # Examples
/// ```
/// use arbiter::player::bench::parse_bench_output;
/// let stockfish = "===========================\nTotal time (ms) : 14\nNodes searched  : 9982\nNodes/second    : 713000\n";
/// let parsed = parse_bench_output(stockfish);
/// assert_eq!((parsed.nodes, parsed.nps, parsed.time_ms), (Some(9982), Some(713000), Some(14)));
/// assert_eq!(parse_bench_output("Bench: 1467420 nodes 688283 nps").nodes, Some(1467420));
/// ```
pub fn parse_bench_output(text: &str) -> BenchParser {
    let mut parser = BenchParser::default();
    for line in text.lines() {
        parser.feed(line);
    }
    parser
}

impl EngineSpec {
    /// Runs this engine's bench once: a built-in chess build in-process, an external engine as OpenBench does
    /// (see the [module](self)).
    ///
    /// # Errors
    /// A [`BenchError`] naming the engine: [`BenchError::DepthForExternal`] for `depth` with an external engine,
    /// [`BenchError::ArgsForBuiltin`] for `args` with a built-in one, [`BenchError::Unsupported`] for the
    /// built-in Xiangqi engine; the others as [`bench_external`].
    pub fn bench(&self, options: &BenchOptions) -> Result<BenchResult, BenchError> {
        let unsupported =
            |reason: &str| BenchError::Unsupported { engine: self.name.clone(), reason: reason.to_string() };
        match &self.kind {
            EngineKind::Builtin(Build::Chess(config)) => {
                if !options.args.is_empty() {
                    return Err(BenchError::ArgsForBuiltin { engine: self.name.clone() });
                }
                let depth = options.depth.unwrap_or(crate::engine::chess::bench::DEFAULT_BENCH_DEPTH).max(1);
                Ok(bench_builtin(config, depth))
            }
            EngineKind::Builtin(Build::Xiangqi(_)) => Err(unsupported("the built-in Xiangqi engine has no bench")),
            EngineKind::Uci(engine) if engine.xboard => {
                Err(unsupported("an xboard engine has no `bench` command (the UCI extension Arbiter reads)"))
            }
            EngineKind::Uci(engine) => {
                if options.depth.is_some() {
                    return Err(BenchError::DepthForExternal { engine: self.name.clone() });
                }
                bench_external(&self.name, engine, &options.args, options.timeout)
            }
        }
    }

    /// Runs this engine's bench `runs` times (at least once) and returns the node count and the median speed.
    ///
    /// # Errors
    /// As [`EngineSpec::bench`]; [`BenchError::Unsteady`] when the runs' node counts differ (as OpenBench's
    /// `run_benchmark` refuses "Non-Deterministic Benches").
    pub fn bench_runs(&self, options: &BenchOptions, runs: u32) -> Result<BenchResult, BenchError> {
        let mut results = Vec::new();
        for _ in 0..runs.max(1) {
            results.push(self.bench(options)?);
        }
        let counts: Vec<u64> = results.iter().map(|r| r.nodes).collect();
        if counts.iter().any(|&n| n != counts[0]) {
            return Err(BenchError::Unsteady { engine: self.name.clone(), counts });
        }
        let mut speeds: Vec<u64> = results.iter().map(|r| r.nps).collect();
        Ok(BenchResult { nodes: counts[0], nps: median(&mut speeds) })
    }

    /// Checks the engine's bench signature against `bench=` (nothing to do without one): runs its default bench
    /// and compares the node count, as OpenBench's client does before every workload (`run_benchmark` with
    /// `expected`, `Client/bench.py`) and fishtest's worker before every task (`verify_signature`,
    /// `worker/games.py` in official-stockfish/fishtest). Returns the bench run, if one was.
    ///
    /// # Errors
    /// [`BenchError::Mismatch`] with both numbers; any error of [`EngineSpec::bench`].
    pub fn check_bench(&self, timeout: Duration) -> Result<Option<BenchResult>, BenchError> {
        let Some(expected) = self.bench else { return Ok(None) };
        let result = self.bench(&BenchOptions { timeout, ..BenchOptions::default() })?;
        if result.nodes != expected {
            return Err(BenchError::Mismatch { engine: self.name.clone(), expected, measured: result.nodes });
        }
        Ok(Some(result))
    }
}

/// The factor that scales time controls to this machine, as fishtest and OpenBench do: `reference_nps /
/// measured_nps`, so that a machine half as fast as the reference gets twice the time. fishtest:
/// `factor = 691680 / base_nps` (`run_games`, `worker/games.py`, official-stockfish/fishtest); OpenBench:
/// `scale_factor = reference nps / nps` (`complete_workload`, `Client/worker.py`, AndyGrant/OpenBench).
///
/// # Examples
/// ```
/// use arbiter::player::bench::tc_scale_factor;
/// assert_eq!(tc_scale_factor(1_000_000, 500_000), 2.0);
/// assert_eq!(tc_scale_factor(1_000_000, 0), 1_000_000.0);
/// ```
pub fn tc_scale_factor(reference_nps: u64, measured_nps: u64) -> f64 {
    reference_nps as f64 / measured_nps.max(1) as f64
}

/// `limit` with every time scaled by `factor`: the clock's base time and increment (the move count kept) and
/// the time per move, each rounded to the millisecond (at least 1 ms where it was not 0). Node and depth limits
/// and the time margin are kept, as in fishtest's `adjust_tc` and OpenBench's `scale_time_control`.
pub fn scale_limit(limit: MoveLimit, factor: f64) -> MoveLimit {
    let scale = |ms: u64| if ms == 0 { 0 } else { ((ms as f64 * factor).round() as u64).max(1) };
    let mut scaled = limit;
    if let Some(tc) = &mut scaled.tc {
        tc.base_ms = scale(tc.base_ms);
        tc.inc_ms = scale(tc.inc_ms);
        for period in tc.then.as_mut_slice() {
            period.base_ms = scale(period.base_ms);
            period.inc_ms = scale(period.inc_ms);
        }
    }
    scaled.movetime_ms = limit.movetime_ms.map(scale);
    scaled
}

/// The median of `values` (the lower middle one of an even count); 0 for none.
fn median(values: &mut [u64]) -> u64 {
    values.sort_unstable();
    values.get(values.len().saturating_sub(1) / 2).copied().unwrap_or(0)
}

/// The built-in chess engine's bench of `config` at `depth`, timed.
fn bench_builtin(config: &EngineConfig, depth: u32) -> BenchResult {
    let start = Instant::now();
    let nodes = bench_nodes_with(config, depth);
    let ms = (start.elapsed().as_millis() as u64).max(1);
    BenchResult { nodes, nps: nodes.saturating_mul(1000) / ms }
}

/// Runs the bench of the external engine `engine` (named `name`): `CMD ARGS bench BENCH_ARGS` with stdin
/// closed, reading stdout and stderr together until the output ends; without a node count, `uci`, then
/// `bench BENCH_ARGS` and `isready` over UCI, reading until `readyok`. Both attempts share `timeout`. UCI
/// options of the spec are not set (OpenBench runs the binary as it is).
///
/// # Errors
/// [`BenchError::Start`], [`BenchError::Timeout`], [`BenchError::Flood`], [`BenchError::Crashed`] (killed by a
/// signal in the UCI attempt without a count), [`BenchError::NoUciok`] (no `uciok` within the engine's
/// handshake timeout), [`BenchError::NoCount`].
pub fn bench_external(
    name: &str,
    engine: &UciEngine,
    bench_args: &[String],
    timeout: Duration,
) -> Result<BenchResult, BenchError> {
    let deadline = Instant::now() + timeout;
    let mut args = engine.args.clone();
    args.push("bench".to_string());
    args.extend(bench_args.iter().cloned());
    let command = std::iter::once(engine.cmd.as_str()).chain(args.iter().map(String::as_str)).collect::<Vec<_>>();
    let command = command.join(" ");

    // Attempt 1: the command line.
    let mut process = BenchProcess::spawn(name, engine, &args, false)?;
    let mut parser = BenchParser::default();
    let started = Instant::now();
    process.read(deadline, timeout, |line| {
        parser.feed(line);
        false
    })?;
    let first = process.end_status();
    if let Some(result) = parser.result(started.elapsed()) {
        return Ok(result);
    }
    drop(process);

    // Attempt 2: UCI.
    let mut process = BenchProcess::spawn(name, engine, &engine.args, true)?;
    let mut parser = BenchParser::default();
    process.send("uci");
    // As every other job: `uciok` within the handshake timeout, not the whole bench's time limit.
    let handshake_timeout = Duration::from_millis(engine.handshake_timeout_ms);
    let handshake_deadline = deadline.min(Instant::now() + handshake_timeout);
    let handshake = match process.read(handshake_deadline, timeout, |line| line.trim() == "uciok") {
        Err(BenchError::Timeout { last, .. }) if handshake_deadline < deadline => {
            return Err(BenchError::NoUciok {
                engine: name.to_string(),
                command,
                first,
                ms: engine.handshake_timeout_ms,
                last,
            });
        }
        other => other?,
    };
    let second = if handshake {
        let bench = std::iter::once("bench").chain(bench_args.iter().map(String::as_str)).collect::<Vec<_>>();
        process.send(&bench.join(" "));
        process.send("isready");
        let started = Instant::now();
        let answered = process.read(deadline, timeout, |line| {
            if line.trim() == "readyok" {
                return true;
            }
            parser.feed(line);
            false
        })?;
        if let Some(result) = parser.result(started.elapsed()) {
            return Ok(result);
        }
        if answered { "printed none before readyok".to_string() } else { process.end_status() }
    } else {
        format!("got no uciok ({})", process.end_status())
    };
    if let Some(signal) = process.signal() {
        return Err(BenchError::Crashed { engine: name.to_string(), how: signal, last: process.last_lines() });
    }
    Err(BenchError::NoCount { engine: name.to_string(), command, first, second, last: process.last_lines() })
}

/// What the reader thread hands over.
enum Output {
    /// A line, decoded.
    Line(String),
    /// A line longer than [`MAX_LINE_BYTES`].
    TooLong,
}

/// An engine process run for its bench, in a process group of its own (registered, so that Ctrl-C ends it),
/// with stdout and stderr into one pipe read by a thread. Dropping it kills the group and reaps the process.
struct BenchProcess {
    name: String,
    child: Child,
    pgid: i32,
    stdin: Option<ChildStdin>,
    lines: Receiver<Output>,
    last: VecDeque<String>,
    lines_read: u64,
    bytes_read: u64,
}

impl BenchProcess {
    /// Starts `engine.cmd` with `args` in the engine's folder; stdin piped when `uci`, else closed.
    fn spawn(name: &str, engine: &UciEngine, args: &[String], uci: bool) -> Result<BenchProcess, BenchError> {
        let start_error = |source| BenchError::Start { engine: name.to_string(), cmd: engine.cmd.clone(), source };
        let (reader, writer) = std::io::pipe().map_err(start_error)?;
        let (mut child, pgid) = {
            // The command holds the pipe's write ends until it is dropped, at the end of this block: the reader
            // then sees the end of output when the engine (and its children) close theirs.
            let mut command = Command::new(&engine.cmd);
            command
                .args(args)
                .stdin(if uci { Stdio::piped() } else { Stdio::null() })
                .stdout(writer.try_clone().map_err(start_error)?)
                .stderr(writer)
                .process_group(0);
            if let Some(dir) = &engine.dir {
                command.current_dir(dir);
            }
            crate::uci::group::spawn_registered(&mut command).map_err(start_error)?
        };
        let stdin = child.stdin.take();
        let (tx, rx) = sync_channel(256);
        std::thread::spawn(move || read_lines(reader, tx));
        Ok(BenchProcess {
            name: name.to_string(),
            child,
            pgid,
            stdin,
            lines: rx,
            last: VecDeque::new(),
            lines_read: 0,
            bytes_read: 0,
        })
    }

    /// Sends one line (a failure to write is seen as the end of the output).
    fn send(&mut self, line: &str) {
        if let Some(stdin) = &mut self.stdin {
            let _ = writeln!(stdin, "{line}").and_then(|()| stdin.flush());
        }
    }

    /// Reads lines into `on_line` until it returns true (`Ok(true)`) or the output ends (`Ok(false)`: every
    /// holder of the pipe closed it, or the engine ended and 200 ms passed).
    ///
    /// # Errors
    /// [`BenchError::Timeout`] at `deadline` (`timeout` is the limit shown); [`BenchError::Flood`].
    fn read(
        &mut self,
        deadline: Instant,
        timeout: Duration,
        mut on_line: impl FnMut(&str) -> bool,
    ) -> Result<bool, BenchError> {
        let mut ended_at: Option<Instant> = None;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(BenchError::Timeout {
                    engine: self.name.clone(),
                    seconds: timeout.as_secs(),
                    last: self.last_lines(),
                });
            }
            match self.lines.recv_timeout(left.min(Duration::from_millis(50))) {
                Ok(Output::Line(line)) => {
                    self.lines_read += 1;
                    self.bytes_read += line.len() as u64 + 1;
                    if self.lines_read > MAX_BENCH_LINES || self.bytes_read > MAX_BENCH_BYTES {
                        let what = format!("more than {MAX_BENCH_LINES} lines or {MAX_BENCH_BYTES} bytes");
                        return Err(BenchError::Flood { engine: self.name.clone(), what });
                    }
                    if self.last.len() == LAST_LINES {
                        self.last.pop_front();
                    }
                    self.last.push_back(line.clone());
                    if on_line(&line) {
                        return Ok(true);
                    }
                }
                Ok(Output::TooLong) => {
                    let what = format!("a line longer than {MAX_LINE_BYTES} bytes");
                    return Err(BenchError::Flood { engine: self.name.clone(), what });
                }
                Err(RecvTimeoutError::Disconnected) => return Ok(false),
                Err(RecvTimeoutError::Timeout) => {
                    // An engine that ended while a child of its own keeps the pipe open.
                    if ended_at.is_none() && !self.is_running() {
                        ended_at = Some(Instant::now());
                    }
                    if ended_at.is_some_and(|at| at.elapsed() >= Duration::from_millis(200)) {
                        return Ok(false);
                    }
                }
            }
        }
    }

    /// The wait status of the ended process, without reaping it (so that its group id stays its own until the
    /// group is killed); `None` while it runs.
    fn status(&self) -> Option<nix::sys::wait::WaitStatus> {
        use nix::sys::wait::{Id, WaitPidFlag, WaitStatus, waitid};
        let flags = WaitPidFlag::WEXITED | WaitPidFlag::WNOHANG | WaitPidFlag::WNOWAIT;
        match waitid(Id::Pid(nix::unistd::Pid::from_raw(self.pgid)), flags) {
            Ok(WaitStatus::StillAlive) | Err(_) => None,
            Ok(status) => Some(status),
        }
    }

    /// Whether the process still runs.
    fn is_running(&self) -> bool {
        self.status().is_none()
    }

    /// How the process ended, in words (waiting up to a second for it to end): `exited with status N`,
    /// `was killed by SIGSEGV`, or `still ran`.
    fn end_status(&self) -> String {
        let until = Instant::now() + Duration::from_secs(1);
        while self.is_running() && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(5));
        }
        match self.status() {
            Some(nix::sys::wait::WaitStatus::Exited(_, code)) => format!("exited with status {code}"),
            Some(nix::sys::wait::WaitStatus::Signaled(_, signal, _)) => format!("was killed by {signal}"),
            _ => "still ran".to_string(),
        }
    }

    /// The signal that killed the process, if one did.
    fn signal(&self) -> Option<String> {
        match self.status() {
            Some(nix::sys::wait::WaitStatus::Signaled(_, signal, _)) => Some(signal.to_string()),
            _ => None,
        }
    }

    /// The last lines read.
    fn last_lines(&self) -> Vec<String> {
        self.last.iter().cloned().collect()
    }
}

impl Drop for BenchProcess {
    /// Asks a UCI engine to quit, then kills the process group and reaps the process.
    fn drop(&mut self) {
        if self.stdin.is_some() && self.is_running() {
            self.send("quit");
            let until = Instant::now() + Duration::from_millis(300);
            while self.is_running() && Instant::now() < until {
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        self.stdin = None;
        crate::uci::group::kill_group(self.pgid);
        let _ = self.child.wait();
        crate::uci::group::unregister(self.pgid);
    }
}

/// The reader thread: lines of at most [`MAX_LINE_BYTES`] bytes into `tx` until the output ends, a line is too
/// long, or nobody listens.
fn read_lines(reader: impl Read, tx: SyncSender<Output>) {
    let mut reader = BufReader::new(reader);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match (&mut reader).take(MAX_LINE_BYTES as u64 + 1).read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        if buf.last() == Some(&b'\n') {
            buf.pop();
            if buf.last() == Some(&b'\r') {
                buf.pop();
            }
        } else if buf.len() > MAX_LINE_BYTES {
            let _ = tx.send(Output::TooLong);
            return;
        }
        if tx.send(Output::Line(decode_line(&buf))).is_err() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stockfish_output() {
        // Stockfish 15.1, `stockfish bench 16 1 4 default depth` (the summary on stderr, after the info lines).
        let text = "info depth 4 seldepth 2 multipv 1 score cp 64 nodes 112 nps 112000 hashfull 0 tbhits 0 time 1 pv g2g3\n\
                    bestmove g2g3\n\
                    Position: 48/48 (nqbnrkrb/pppppppp/8/8/8/8/PPPPPPPP/NQBNRKRB w GEge - 0 1)\n\
                    \n===========================\n\
                    Total time (ms) : 14\n\
                    Nodes searched  : 9982\n\
                    Nodes/second    : 713000\n";
        let parsed = parse_bench_output(text);
        assert_eq!(parsed, BenchParser { nodes: Some(9982), nps: Some(713_000), time_ms: Some(14) });
        assert_eq!(parsed.result(Duration::ZERO), Some(BenchResult { nodes: 9982, nps: 713_000 }));
    }

    #[test]
    fn ethereal_and_openbench_outputs() {
        // Ethereal 12, `ethereal-chess bench 3`.
        let ethereal = "info depth 3 seldepth 3 multipv 1 score cp 184 time 0 nodes 73 nps 73000 tbhits 0 hashfull 0 pv g2g8\n\
                        Time  : 17ms\nNodes : 3720\nNPS   : 218823\n";
        assert_eq!(
            parse_bench_output(ethereal),
            BenchParser { nodes: Some(3720), nps: Some(218_823), time_ms: Some(17) }
        );
        // OpenBench's own format (and Arbiter's `arbiter uci bench`), and Arbiter's `arbiter bench` line.
        let openbench = parse_bench_output("Bench: 1467420 nodes 688283 nps");
        assert_eq!((openbench.nodes, openbench.nps), (Some(1_467_420), Some(688_283)));
        let plain = parse_bench_output("1467420 nodes 688283 nps");
        assert_eq!((plain.nodes, plain.nps), (Some(1_467_420), Some(688_283)));
        // Digit groups, and a count without a speed: the speed comes from the time printed, else the wall time.
        let grouped = parse_bench_output("Nodes searched: 3,467,381\nTime: 2000 ms");
        assert_eq!(grouped.result(Duration::from_secs(9)), Some(BenchResult { nodes: 3_467_381, nps: 1_733_690 }));
        let bare = parse_bench_output("nodes 5000");
        assert_eq!(bare.result(Duration::from_millis(500)), Some(BenchResult { nodes: 5000, nps: 10_000 }));
    }

    #[test]
    fn the_last_count_wins_and_info_lines_are_skipped() {
        let text = "Nodes searched: 10\nNodes searched: 20\ninfo depth 1 nodes 99 nps 5\n";
        let parsed = parse_bench_output(text);
        assert_eq!((parsed.nodes, parsed.nps), (Some(20), None));
        // No count at all: nothing found.
        assert_eq!(parse_bench_output("id name faulty-engine\nuciok\nreadyok").result(Duration::ZERO), None);
        // Lines that mention nodes without a number, or time in seconds, give nothing.
        let parsed = parse_bench_output("Nodes/second: fast\nTime: 1.5 s\nnodes searched: many");
        assert_eq!(parsed, BenchParser::default());
    }

    #[test]
    fn no_input_panics() {
        for text in
            ["", ",,,", "nodes", "nps", "time", "time ms", "1, 2 nodes", "nodes 99999999999999999999999", "ü nodes 3"]
        {
            let _ = parse_bench_output(text).result(Duration::ZERO);
        }
    }

    #[test]
    fn time_controls_scale_by_reference_over_measured() {
        use crate::player::TimeControl;
        // A machine at 400,000 nps against a reference of 600,000: 1.5 times the time.
        let factor = tc_scale_factor(600_000, 400_000);
        assert_eq!(factor, 1.5);
        let limit = MoveLimit {
            tc: Some(TimeControl::parse("40/10+0.1").unwrap()),
            movetime_ms: Some(200),
            nodes: Some(5000),
            depth: Some(9),
            timemargin_ms: 50,
        };
        let scaled = scale_limit(limit, factor);
        assert_eq!(
            scaled.tc,
            Some(TimeControl { moves: Some(40), base_ms: 15_000, inc_ms: 150, ..TimeControl::default() })
        );
        assert_eq!(scaled.movetime_ms, Some(300));
        assert_eq!((scaled.nodes, scaled.depth, scaled.timemargin_ms), (Some(5000), Some(9), 50));
        // fishtest's case: 691,680 nps reference on a machine at 345,840 nps doubles 10+0.1 to 20+0.2.
        let tc = MoveLimit { tc: Some(TimeControl::parse("10+0.1").unwrap()), ..MoveLimit::default() };
        let scaled = scale_limit(tc, tc_scale_factor(691_680, 345_840));
        assert_eq!(scaled.tc.unwrap().to_string(), "20+0.2");
        // A tiny factor keeps every time above zero; no increment stays none.
        let tiny = scale_limit(MoveLimit { tc: Some(TimeControl::parse("1").unwrap()), ..tc }, 1e-9);
        assert_eq!(tiny.tc, Some(TimeControl { moves: None, base_ms: 1, inc_ms: 0, ..TimeControl::default() }));
    }

    #[test]
    fn medians() {
        assert_eq!(median(&mut [5, 1, 3]), 3);
        assert_eq!(median(&mut [4, 1, 3, 2]), 2);
        assert_eq!(median(&mut []), 0);
    }
}
