//! Perft comparison with descent: run divide on two perft oracles, and while they agree on the set of moves
//! but not on a count, descend into the first move (in sorted UCI order) whose counts differ, until the exact
//! position and move list where the move sets differ is found.

use crate::game::{Game, Rules};
use crate::games::GameKind;
use crate::player::{EngineKind, EngineSpec, UciEngine};
use crate::uci::{EngineProcess, UciError};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use thiserror::Error;

/// Root moves in UCI text with the leaf count below each.
pub type Divide = BTreeMap<String, u64>;

/// Why a comparison could not be completed.
#[derive(Debug, Error)]
pub enum CompareError {
    /// The engine process failed.
    #[error(transparent)]
    Uci(#[from] UciError),
    /// An `option.NAME` the engine does not list (a typo, most often), unless the spec allows it.
    #[error(transparent)]
    Option(crate::player::PlayerError),
    /// The engine does not answer `go perft` with a count.
    #[error("{engine} does not support `go perft`: {reason}")]
    NoPerft {
        /// The engine's name.
        engine: String,
        /// What it did instead.
        reason: String,
    },
    /// An `--engine`/`--compare-with` spec that cannot be used.
    #[error(transparent)]
    Spec(#[from] crate::player::EngineArgError),
    /// A `--compare-with` command line that cannot be split into words.
    #[error("the engine command {}: {reason}", crate::notation::quote::shown(.text))]
    Command {
        /// The text given.
        text: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A FEN or move could not be applied.
    #[error("cannot set up {fen} moves {moves:?}: {reason}")]
    Setup {
        /// The root FEN.
        fen: String,
        /// The moves from the root.
        moves: Vec<String>,
        /// Why.
        reason: String,
    },
}

impl CompareError {
    /// Whether the user's choice of engine or input is at fault (an engine without `go perft`, a spec or command
    /// that cannot be used, an option it does not list, a position it cannot set up), not an engine that failed
    /// the run (crashed, stalled, flooded).
    pub fn is_input(&self) -> bool {
        match self {
            CompareError::NoPerft { .. }
            | CompareError::Setup { .. }
            | CompareError::Spec(_)
            | CompareError::Command { .. }
            | CompareError::Option(_) => true,
            CompareError::Uci(_) => false,
        }
    }
}

/// Something that can count perft divided by root move: Arbiter itself or an external engine.
pub trait PerftOracle {
    /// A name for reports.
    fn name(&self) -> String;
    /// The divide of the position reached from `fen` by `moves` (UCI text), at `depth` plies (at least 1).
    ///
    /// # Errors
    /// [`CompareError`] when the position cannot be set up or the engine fails.
    fn divide(&mut self, fen: &str, moves: &[String], depth: u32) -> Result<Divide, CompareError>;

    /// The leaf count of `fen` at `depth` plies (at least 1): by default the sum of its divide.
    ///
    /// # Errors
    /// As [`PerftOracle::divide`].
    fn count(&mut self, fen: &str, depth: u32) -> Result<u64, CompareError> {
        Ok(self.divide(fen, &[], depth)?.values().sum())
    }
}

/// Plays `moves` (the game's move text) from `fen`.
///
/// # Errors
/// [`CompareError::Setup`] naming the FEN and moves when the FEN or a move is not legal.
pub fn replay<G: Rules>(fen: &str, moves: &[String], chess960: bool) -> Result<G::Position, CompareError> {
    let err = |reason: String| CompareError::Setup { fen: fen.to_string(), moves: moves.to_vec(), reason };
    let mut pos = G::read_fen(fen, chess960).map_err(|e| err(e.to_string()))?;
    for m in moves {
        let mv = G::parse_move_at(&pos, m).map_err(|e| err(e.to_string()))?;
        G::make_move(&mut pos, mv);
    }
    Ok(pos)
}

/// A move filter of [`ArbiterOracle::filtered`]: whether to keep a move of a position.
pub type MoveFilter<G> = fn(&<G as Rules>::Position, <G as Rules>::Move) -> bool;

/// Arbiter's own generator for game `G` as an oracle; optionally with a move filter applied at every node (to
/// build a deliberately wrong oracle for tests).
pub struct ArbiterOracle<G: Rules> {
    chess960: bool,
    filter: Option<MoveFilter<G>>,
}

impl<G: Rules> ArbiterOracle<G> {
    /// Arbiter's generator, unmodified.
    pub fn new(chess960: bool) -> ArbiterOracle<G> {
        ArbiterOracle { chess960, filter: None }
    }

    /// Arbiter's generator keeping only the moves for which `keep` is true, at every node.
    pub fn filtered(chess960: bool, keep: MoveFilter<G>) -> ArbiterOracle<G> {
        ArbiterOracle { chess960, filter: Some(keep) }
    }

    fn leaves(&self, pos: &mut G::Position, depth: u32) -> u64 {
        let Some(keep) = self.filter else { return G::perft(pos, depth) };
        if depth == 0 {
            return 1;
        }
        let mut n = 0;
        let moves = G::generate(pos);
        let kept: Vec<G::Move> = moves.as_ref().iter().copied().filter(|&m| keep(pos, m)).collect();
        for m in kept {
            let undo = G::make_move(pos, m);
            n += self.leaves(pos, depth - 1);
            G::unmake_move(pos, m, &undo);
        }
        n
    }
}

impl<G: Rules> PerftOracle for ArbiterOracle<G> {
    fn name(&self) -> String {
        if self.filter.is_some() { "arbiter (filtered)".into() } else { "arbiter".into() }
    }

    fn divide(&mut self, fen: &str, moves: &[String], depth: u32) -> Result<Divide, CompareError> {
        let mut pos = replay::<G>(fen, moves, self.chess960)?;
        let mut out = Divide::new();
        for m in G::generate(&pos).as_ref().iter().copied() {
            if self.filter.is_some_and(|keep| !keep(&pos, m)) {
                continue;
            }
            let undo = G::make_move(&mut pos, m);
            let n = self.leaves(&mut pos, depth.max(1) - 1);
            G::unmake_move(&mut pos, m, &undo);
            out.insert(G::move_text_at(&pos, m), n);
        }
        Ok(out)
    }
}

/// How long an external perft engine may take: to answer the `go perft 1` probe ([`UciPerftOracle::start`]) and
/// to answer each later `go perft N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PerftTimeouts {
    /// The time for the probe's count: an engine without `go perft` is named once it passes.
    pub probe: Duration,
    /// The time for each later count.
    pub reply: Duration,
}

/// One answer to `go perft N`: the engine's total and its divide (root moves in our move text with their counts;
/// empty when the engine prints no divide).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftReply {
    /// The total count the engine printed.
    pub total: u64,
    /// The root moves with their counts.
    pub divide: Divide,
}

/// The total count of a `go perft` reply line, in the forms engines print (case and spacing aside): Stockfish's
/// and Fairy-Stockfish's `Nodes searched: N`, also `Nodes searched : N`, `nodes searched N`, `Nodes: N`,
/// `Nodes = N`, `Total: N`, `Total nodes: N` and `N nodes` (any words may follow the number); `None` for every
/// other line, `info` and `bestmove` lines included.
///
/// # Examples
/// ```
/// use arbiter::suite::compare::perft_total;
/// assert_eq!(perft_total("Nodes searched: 197281"), Some(197281));
/// assert_eq!(perft_total("nodes: 20 time 3 ms"), Some(20));
/// assert_eq!(perft_total("8902 nodes in 0.1 s"), Some(8902));
/// assert_eq!(perft_total("e2e4: 20"), None);
/// assert_eq!(perft_total("info depth 1 nodes 20"), None);
/// ```
pub fn perft_total(line: &str) -> Option<u64> {
    let text = line.trim().to_ascii_lowercase();
    let words: Vec<&str> =
        text.split(|c: char| c.is_whitespace() || c == ':' || c == '=').filter(|w| !w.is_empty()).collect();
    let number = |i: usize| words.get(i).and_then(|w| w.parse::<u64>().ok());
    match words.as_slice() {
        ["info" | "bestmove", ..] => None,
        ["nodes", "searched", ..] | ["total", "nodes", ..] => number(2),
        ["nodes" | "total", ..] => number(1),
        [_, "nodes", ..] => number(0),
        _ => None,
    }
}

/// Whether `text` is shaped like a move in UCI or Fairy-Stockfish's Xiangqi notation: 4 to 6 ASCII letters and
/// digits starting with a letter (`e2e4`, `e7e8q`, `a10i10`).
fn is_move_shaped(text: &str) -> bool {
    (4..=6).contains(&text.len())
        && text.starts_with(|c: char| c.is_ascii_lowercase())
        && text.chars().all(|c| c.is_ascii_alphanumeric())
}

/// A divide line of a `go perft` reply, `e2e4: 20` (Stockfish's form) or `e2e4 20`, as (move text, count);
/// `None` for other lines.
///
/// # Errors
/// The reason, when the line starts with a move and a colon but the count is not a number.
pub fn divide_line(line: &str) -> Result<Option<(String, u64)>, &'static str> {
    let (mv, count) = match line.split_once(':') {
        Some((mv, count)) => (mv.trim(), Some(count.trim())),
        None => match line.split_whitespace().collect::<Vec<_>>().as_slice() {
            [mv, count] => (*mv, Some(*count)),
            _ => return Ok(None),
        },
    };
    if !is_move_shaped(mv) {
        return Ok(None);
    }
    match count.map(str::parse::<u64>) {
        Some(Ok(n)) => Ok(Some((mv.to_string(), n))),
        _ if line.contains(':') => Err("expected `move: count`"),
        _ => Ok(None),
    }
}

/// An external UCI engine that supports `go perft N`: it prints a divide (`e2e4: 20` lines, as Stockfish and
/// Fairy-Stockfish do) and a total ([`perft_total`]); for Xiangqi, Fairy-Stockfish with `UCI_Variant` `xiangqi`,
/// its moves rewritten from ranks 1..10 to ours. Started and probed by [`UciPerftOracle::start_engine`]. What it prints is bounded ([`EngineProcess::wait_for`]: line
/// length, bytes and lines per reply, time).
pub struct UciPerftOracle {
    name: String,
    engine: EngineProcess,
    timeout: Duration,
    /// Our move text as the engine writes it.
    to_engine: fn(&str) -> String,
    /// The engine's move text as ours.
    from_engine: fn(&str) -> Option<String>,
}

/// Whether `line` ends a `go perft` reply: a total ([`perft_total`]) or a `bestmove` (an engine that searched
/// instead).
fn ends_perft_reply(line: &str) -> bool {
    perft_total(line).is_some() || line.trim_start().starts_with("bestmove")
}

impl UciPerftOracle {
    /// Starts `engine` (named `name` in reports) for game `G` and checks that it supports `go perft`: the UCI
    /// handshake within the engine's handshake timeout, the game's UCI options ([`Game::uci_options`], e.g.
    /// `UCI_Chess960` when `chess960`, `UCI_Variant` `xiangqi`) then the engine's own, `isready`, and a probe,
    /// `position startpos` and `go perft 1`, which must give a count within `timeouts.probe`. Move text is
    /// translated with the game's rules; `timeouts.reply` bounds every later count.
    ///
    /// # Errors
    /// [`CompareError::Uci`] when the engine cannot be started or does not answer the handshake;
    /// [`CompareError::NoPerft`] when the probe gives no count in time or a `bestmove` instead (the engine is
    /// then sent `stop` and `quit`, killed after a grace time and reaped). [`UciError::Cancelled`] once
    /// `cancel` is set (a Ctrl-C): every wait, from the handshake on, then ends at once, the engine sent `stop`.
    pub fn start_engine<G: Game>(
        name: &str,
        engine: &UciEngine,
        chess960: bool,
        timeouts: PerftTimeouts,
        cancel: Option<Arc<AtomicBool>>,
    ) -> Result<UciPerftOracle, CompareError> {
        let handshake = Duration::from_millis(engine.handshake_timeout_ms);
        let mut process = EngineProcess::spawn(&engine.cmd, &engine.args, engine.dir.as_deref())?;
        if let Some(flag) = cancel {
            process.set_cancel(flag);
        }
        process.send("uci")?;
        let reply = process.wait_for_keeping(
            |l| l.trim() == "uciok",
            "uciok",
            handshake,
            crate::uci::process::KEPT_UCI_LINES,
        )?;
        if let Some(error) = crate::player::uci::unknown_option(name, engine, &reply) {
            return Err(CompareError::Option(error));
        }
        for (option, value) in G::uci_options(chess960) {
            process.set_option(option, value)?;
        }
        for (option, value) in &engine.options {
            process.set_option(option, value)?;
        }
        process.sync(handshake)?;
        let mut oracle = UciPerftOracle {
            name: name.to_string(),
            engine: process,
            timeout: timeouts.reply,
            to_engine: G::to_engine_text,
            from_engine: G::from_engine_text,
        };
        oracle.probe(timeouts.probe)?;
        Ok(oracle)
    }

    /// [`UciPerftOracle::start_engine`] for the program `cmd` with no arguments or options, named by `cmd`;
    /// `timeout` bounds the handshake, the probe and every count.
    ///
    /// # Errors
    /// As [`UciPerftOracle::start_engine`].
    pub fn start<G: Game>(cmd: &str, chess960: bool, timeout: Duration) -> Result<UciPerftOracle, CompareError> {
        let mut engine = UciEngine::new(cmd);
        engine.handshake_timeout_ms = u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX);
        UciPerftOracle::start_engine::<G>(
            cmd,
            &engine,
            chess960,
            PerftTimeouts { probe: timeout, reply: timeout },
            None,
        )
    }

    /// `position startpos`, `go perft 1`: a count within `timeout`, or [`CompareError::NoPerft`].
    fn probe(&mut self, timeout: Duration) -> Result<(), CompareError> {
        self.engine.send("position startpos")?;
        self.engine.send("go perft 1")?;
        let no_perft = |name: &str, reason: String| CompareError::NoPerft { engine: name.to_string(), reason };
        match self.engine.wait_for(ends_perft_reply, "a perft count", timeout) {
            Ok(lines) if lines.last().is_some_and(|l| perft_total(l).is_some()) => {
                self.engine.sync(self.timeout)?;
                Ok(())
            }
            Ok(lines) => {
                let _ = self.engine.sync(timeout);
                let line = lines.last().map(|l| crate::notation::quote::shown(l)).unwrap_or_default();
                Err(no_perft(&self.name, format!("it searched instead and answered `go perft 1` with {line}")))
            }
            Err(UciError::Timeout { .. }) => {
                let _ = self.engine.send("stop");
                Err(no_perft(
                    &self.name,
                    format!("no node count within {:.1} s of `go perft 1`", timeout.as_secs_f64()),
                ))
            }
            Err(e) => Err(e.into()),
        }
    }

    /// The engine's count of the position reached from `fen` by `moves` (our move text) at `depth` plies (at
    /// least 1): `position fen FEN moves ...` then `go perft N`, read up to the total, then `isready` so that
    /// what the engine prints after its total (Stockfish's empty line) is read before the next command.
    ///
    /// # Errors
    /// [`CompareError::Uci`] when the engine fails, stalls, floods, or prints a divide line that cannot be read
    /// or a reply longer than [`crate::uci::process::KEPT_REPLY_LINES`] lines; [`CompareError::NoPerft`] for a
    /// `bestmove` in place of a count.
    pub fn perft(&mut self, fen: &str, moves: &[String], depth: u32) -> Result<PerftReply, CompareError> {
        let mut cmd = format!("position fen {fen}");
        if !moves.is_empty() {
            cmd.push_str(" moves");
            for m in moves {
                cmd.push(' ');
                cmd.push_str(&(self.to_engine)(m));
            }
        }
        self.engine.send(&cmd)?;
        self.engine.send(&format!("go perft {}", depth.max(1)))?;
        let lines = self.engine.wait_for(ends_perft_reply, "a perft count (`Nodes searched: N`)", self.timeout)?;
        let bad = |line: &str, reason: &str| {
            CompareError::Uci(UciError::BadReply {
                cmd: self.engine.cmd().to_string(),
                line: line.to_string(),
                reason: reason.into(),
            })
        };
        if lines.first().is_some_and(|l| l.starts_with("[arbiter:")) {
            return Err(bad(&lines[0], "a perft reply longer than Arbiter reads (more lines than legal moves)"));
        }
        let last = lines.last().map(String::as_str).unwrap_or_default();
        let Some(total) = perft_total(last) else {
            return Err(CompareError::NoPerft {
                engine: self.name.clone(),
                reason: format!("it searched instead: {}", crate::notation::quote::shown(last)),
            });
        };
        let mut divide = Divide::new();
        for line in &lines[..lines.len() - 1] {
            let Some((mv, n)) = divide_line(line).map_err(|reason| bad(line, reason))? else { continue };
            let ours = (self.from_engine)(&mv).ok_or_else(|| bad(line, "the move is not in the notation expected"))?;
            divide.insert(ours, n);
        }
        self.engine.sync(self.timeout)?;
        Ok(PerftReply { total, divide })
    }
}

impl PerftOracle for UciPerftOracle {
    fn name(&self) -> String {
        self.name.clone()
    }

    /// The engine's divide; an engine that prints a total above 0 and no `move: count` line cannot be descended
    /// into, and says so ([`UciError::BadReply`]) rather than seeming to generate no move.
    fn divide(&mut self, fen: &str, moves: &[String], depth: u32) -> Result<Divide, CompareError> {
        let reply = self.perft(fen, moves, depth)?;
        if reply.divide.is_empty() && reply.total > 0 {
            return Err(CompareError::Uci(UciError::BadReply {
                cmd: self.engine.cmd().to_string(),
                line: format!("{} nodes", reply.total),
                reason: "a total with no divide (`move: count` lines) before it, so no descent".into(),
            }));
        }
        Ok(reply.divide)
    }

    fn count(&mut self, fen: &str, depth: u32) -> Result<u64, CompareError> {
        Ok(self.perft(fen, &[], depth)?.total)
    }
}

/// The perft of an `--engine` spec ([`EngineSpec`]): a built-in build counts with Arbiter's own generator, an
/// external engine with its `go perft` ([`UciPerftOracle`]). Made by [`PerftEngine::start`], the one place a
/// spec becomes something that counts.
pub enum PerftEngine<G: Game> {
    /// Arbiter's generator, for the built-in build of this name.
    Arbiter(String, ArbiterOracle<G>),
    /// An external engine.
    Uci(UciPerftOracle),
}

impl<G: Game> PerftEngine<G> {
    /// Starts what `spec` names (see [`UciPerftOracle::start_engine`] for an external engine, whose waits end
    /// once `cancel` is set).
    ///
    /// # Errors
    /// As [`UciPerftOracle::start_engine`].
    pub fn start(
        spec: &EngineSpec,
        chess960: bool,
        timeouts: PerftTimeouts,
        cancel: Option<Arc<AtomicBool>>,
    ) -> Result<PerftEngine<G>, CompareError> {
        match &spec.kind {
            EngineKind::Builtin(_) => Ok(PerftEngine::Arbiter(spec.name.clone(), ArbiterOracle::new(chess960))),
            EngineKind::Uci(engine) if engine.xboard => Err(CompareError::NoPerft {
                engine: spec.name.clone(),
                reason: "it speaks xboard (proto=xboard), which has no `go perft`".to_string(),
            }),
            EngineKind::Uci(engine) => {
                Ok(PerftEngine::Uci(UciPerftOracle::start_engine::<G>(&spec.name, engine, chess960, timeouts, cancel)?))
            }
        }
    }
}

impl<G: Game> PerftOracle for PerftEngine<G> {
    fn name(&self) -> String {
        match self {
            PerftEngine::Arbiter(name, _) => name.clone(),
            PerftEngine::Uci(oracle) => oracle.name(),
        }
    }

    fn divide(&mut self, fen: &str, moves: &[String], depth: u32) -> Result<Divide, CompareError> {
        match self {
            PerftEngine::Arbiter(_, oracle) => oracle.divide(fen, moves, depth),
            PerftEngine::Uci(oracle) => oracle.divide(fen, moves, depth),
        }
    }

    fn count(&mut self, fen: &str, depth: u32) -> Result<u64, CompareError> {
        match self {
            PerftEngine::Arbiter(_, oracle) => oracle.count(fen, depth),
            PerftEngine::Uci(oracle) => oracle.count(fen, depth),
        }
    }
}

/// The engine of a `--compare-with` value for game `game`: an engine spec as `--engine` takes it
/// ([`crate::player::spec::parse_engine_for`]) when an `=` comes before any space
/// (`name=sf,cmd=/usr/games/stockfish,option.Threads=1`), otherwise a command line split into words as a POSIX
/// shell would (the `shlex` crate: `/usr/games/fairy-stockfish --foo 'a b'`), named by its program's file name.
///
/// # Errors
/// [`CompareError::Spec`] for a spec [`crate::player::spec::parse_engine_for`] refuses;
/// [`CompareError::Command`] for an empty command line or one with an unclosed quote.
///
/// # Examples
/// ```
/// use arbiter::games::GameKind;
/// use arbiter::player::EngineKind;
/// use arbiter::suite::compare::compare_spec;
/// let spec = compare_spec("/usr/games/stockfish --x 'a b'", GameKind::Chess).unwrap();
/// let EngineKind::Uci(engine) = &spec.kind else { panic!("an external engine") };
/// assert_eq!((spec.name.as_str(), engine.cmd.as_str()), ("stockfish", "/usr/games/stockfish"));
/// assert_eq!(engine.args, ["--x", "a b"]);
/// let spec = compare_spec("name=sf,cmd=/usr/games/stockfish,option.Threads=1", GameKind::Chess).unwrap();
/// assert_eq!(spec.name, "sf");
/// ```
pub fn compare_spec(text: &str, game: GameKind) -> Result<EngineSpec, CompareError> {
    let is_spec = text.find('=').is_some_and(|at| !text[..at].contains(char::is_whitespace));
    if is_spec {
        return Ok(crate::player::spec::parse_engine_for(text, &crate::player::EachArgs::default(), game)?);
    }
    let command = |reason| CompareError::Command { text: text.to_string(), reason };
    let words = shlex::split(text).ok_or_else(|| command("an unclosed quote or a trailing backslash"))?;
    let Some((program, args)) = words.split_first() else {
        return Err(command("no program given"));
    };
    let mut engine = UciEngine::new(program);
    engine.args = args.to_vec();
    let name =
        std::path::Path::new(program).file_name().map_or_else(|| program.clone(), |f| f.to_string_lossy().into_owned());
    Ok(EngineSpec::uci(&name, engine))
}

/// Where two generators first disagree: the moves from the root, the position reached, the depth left and
/// the moves only one side generates there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    /// The moves (UCI) from the root to the position where the move sets differ.
    pub moves: Vec<String>,
    /// That position as FEN.
    pub fen: String,
    /// The remaining depth at that position.
    pub depth: u32,
    /// Moves only the first oracle generates there.
    pub only_first: Vec<String>,
    /// Moves only the second oracle generates there.
    pub only_second: Vec<String>,
    /// Total leaf counts at the root from the first and the second oracle.
    pub root_counts: (u64, u64),
}

/// Compares two oracles from `fen` at `depth`; `None` when they agree on every root move's count, otherwise the
/// first divergence found by descending into the first differing move. The oracles are given Arbiter's own FEN
/// of the position ([`Rules::position_fen`] of `fen` read), never `fen` as written.
///
/// If the move sets agree at every level but counts still differ down to depth 1 (one oracle counts a move
/// twice, say), the divergence reports empty move differences at the deepest position reached.
///
/// # Errors
/// [`CompareError`] when either oracle fails, [`CompareError::Setup`] when `fen` is not a legal position.
pub fn find_divergence<G: Rules>(
    first: &mut dyn PerftOracle,
    second: &mut dyn PerftOracle,
    fen: &str,
    depth: u32,
    chess960: bool,
) -> Result<Option<Divergence>, CompareError> {
    // Both oracles get Arbiter's own FEN of the position, never the input text (which may spell castling
    // rights, an en-passant square without a capture, or its spacing differently).
    let normalized = G::position_fen(&replay::<G>(fen, &[], chess960)?);
    let fen = normalized.as_str();
    let mut moves: Vec<String> = Vec::new();
    let mut d = depth.max(1);
    let mut root_counts = None;
    loop {
        let a = first.divide(fen, &moves, d)?;
        let b = second.divide(fen, &moves, d)?;
        let counts = (a.values().sum::<u64>(), b.values().sum::<u64>());
        let root = *root_counts.get_or_insert(counts);
        let only_first: Vec<String> = a.keys().filter(|m| !b.contains_key(*m)).cloned().collect();
        let only_second: Vec<String> = b.keys().filter(|m| !a.contains_key(*m)).cloned().collect();
        let here = |moves: Vec<String>, only_first, only_second| -> Result<Divergence, CompareError> {
            let pos = replay::<G>(fen, &moves, chess960)?;
            Ok(Divergence { fen: G::position_fen(&pos), moves, depth: d, only_first, only_second, root_counts: root })
        };
        if !only_first.is_empty() || !only_second.is_empty() {
            return here(moves, only_first, only_second).map(Some);
        }
        match a.iter().find(|(m, n)| b.get(*m) != Some(n)) {
            None if moves.is_empty() => return Ok(None),
            None => return here(moves, Vec::new(), Vec::new()).map(Some),
            Some((m, _)) if d > 1 => {
                moves.push(m.clone());
                d -= 1;
            }
            Some(_) => return here(moves, Vec::new(), Vec::new()).map(Some),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{ChessGame, Move, MoveKind, Position};

    fn no_en_passant(_: &Position, m: Move) -> bool {
        m.kind() != MoveKind::EnPassant
    }

    #[test]
    fn descent_names_the_first_position_where_oracles_differ() {
        // From the start position at depth 5 the descent follows the first differing move in sorted UCI order
        // at each level: a2a4, then a7a6 (the first Black reply that allows an en-passant capture later), a4a5,
        // b7b5, where a5b6 en passant is the one move the filtered oracle lacks.
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let mut good = ArbiterOracle::<ChessGame>::new(false);
        let mut bad = ArbiterOracle::<ChessGame>::filtered(false, no_en_passant);
        let d = find_divergence::<ChessGame>(&mut good, &mut bad, fen, 5, false).unwrap().expect("they differ");
        assert_eq!(d.only_second, Vec::<String>::new());
        assert_eq!(d.only_first.len(), 1);
        let pos: Position = replay::<ChessGame>(fen, &d.moves, false).unwrap();
        let ep = pos.legal_moves().iter().copied().find(|m| m.kind() == MoveKind::EnPassant).expect("an ep capture");
        assert_eq!(d.only_first, vec![ep.to_uci(false)]);
        assert_eq!(d.depth, 5 - d.moves.len() as u32);
        assert_eq!(d.fen, pos.to_fen());
        assert_eq!(d.root_counts.0, 4_865_609);
        assert!(d.root_counts.1 < d.root_counts.0);
        assert_eq!(d.moves, ["a2a4", "a7a6", "a4a5", "b7b5"]);
        assert_eq!(d.only_first, ["a5b6"]);
        let mut same = ArbiterOracle::<ChessGame>::new(false);
        assert!(find_divergence::<ChessGame>(&mut good, &mut same, fen, 4, false).unwrap().is_none());
    }

    /// An oracle that records the FENs it is given and answers with Arbiter's own divide.
    struct Recording(Vec<String>);

    impl PerftOracle for Recording {
        fn name(&self) -> String {
            "recording".to_string()
        }

        fn divide(&mut self, fen: &str, moves: &[String], depth: u32) -> Result<Divide, CompareError> {
            self.0.push(fen.to_string());
            ArbiterOracle::<ChessGame>::new(false).divide(fen, moves, depth)
        }
    }

    #[test]
    fn oracles_get_arbiters_own_fen_never_the_input_text() {
        // Doubled spaces and tabs, no clocks, and an en-passant square with no capture: the oracle sees the FEN
        // Arbiter writes for the position.
        let input = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR  b\tKQkq e3";
        let mut ours = ArbiterOracle::<ChessGame>::new(false);
        let mut theirs = Recording(Vec::new());
        assert!(find_divergence::<ChessGame>(&mut ours, &mut theirs, input, 2, false).unwrap().is_none());
        assert_eq!(theirs.0, ["rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"]);
        let err = find_divergence::<ChessGame>(&mut ours, &mut theirs, "4k3/8/3N1N2/8/8/8/8/4K3 b - - 0 1", 2, false);
        assert!(matches!(err, Err(CompareError::Setup { .. })));
    }
}
