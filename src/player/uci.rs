//! External UCI engines as [`Player`]s: the process is started once per worker (and again after a failure, or
//! before every game with `restart=on`), set up with `setoption`, told `ucinewgame` and pinged with `isready`
//! before each game, then sent `position ... moves ...` and `go ...` for each move.
//!
//! Everything the engine does wrong becomes a [`PlayerError`] (and so a lost game), never a panic or a hung
//! runner: no `uciok`/`readyok` in time ([`PlayerError::Start`]/[`PlayerError::Stalled`]), a closed pipe or a dead
//! process ([`PlayerError::Crashed`]), no `bestmove` within the time allowed plus the ping timeout after `stop`
//! ([`PlayerError::Stalled`]), move text that is not a move ([`PlayerError::BadMove`]). Each error carries the
//! engine's last output lines. Protocol: the UCI specification (Stefan Meyer-Kahlen, 2004).

use super::{EngineScore, GoLimits, GoRequest, MAX_PV_PLIES, Player, PlayerError, PlayerMove, SearchDetail};
use crate::game::Game;
use crate::uci::{EngineProcess, UciError};
use std::marker::PhantomData;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The default time an engine has to answer `uci` with `uciok` (and the first `isready`), in ms.
pub const DEFAULT_HANDSHAKE_TIMEOUT_MS: u64 = 10_000;

/// The default time an engine has to answer `isready` before a game, or `stop`, in ms.
pub const DEFAULT_PING_TIMEOUT_MS: u64 = 5_000;

/// The default longest search without a time limit (nodes or depth only) before the engine counts as stalled,
/// in ms.
pub const DEFAULT_STALL_TIMEOUT_MS: u64 = 60_000;

/// How to run one external UCI engine.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct UciEngine {
    /// The program: a path, or a name looked up on `PATH`.
    pub cmd: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// Its working directory (the runner's when `None`).
    pub dir: Option<PathBuf>,
    /// UCI options set after the handshake, in order: `(name, value)`, as `setoption name NAME value VALUE`.
    pub options: Vec<(String, String)>,
    /// Start a fresh process before every game (`restart=on`); by default the process lives on and is restarted
    /// only after it failed.
    pub restart: bool,
    /// Time for `uciok` and the first `readyok`, in ms.
    pub handshake_timeout_ms: u64,
    /// Time for `readyok` before a game and for `bestmove` after `stop`, in ms.
    pub ping_timeout_ms: u64,
    /// Longest untimed search (nodes or depth limits only) before the engine counts as stalled, in ms.
    pub stall_timeout_ms: u64,
    /// Send an `option.NAME` the engine does not list (with a warning) instead of refusing to start
    /// ([`PlayerError::UnknownOption`]); `--allow-unknown-options`.
    pub allow_unknown_options: bool,
    /// The protocol: UCI, or xboard (CECP 2) with `proto=xboard` ([`super::xboard`]).
    pub xboard: bool,
    /// Think on the opponent's time (`ponder=on`): after its move the engine is sent the position with its
    /// expected reply and `go ponder`, then `ponderhit` if the opponent played it, else `stop`.
    pub ponder: bool,
    /// The engine reports scores from White's view (`whitepov=on`, cutechess-cli's `whitepov`): they are
    /// negated when it plays Black.
    pub white_pov: bool,
    /// Lines sent at the engine's start, before `uci` (`initstr=`, cutechess-cli's `initstr`).
    pub init: Vec<String>,
}

impl UciEngine {
    /// An engine run as `cmd` with no arguments or options and the default timeouts.
    pub fn new(cmd: &str) -> UciEngine {
        UciEngine {
            cmd: cmd.to_string(),
            args: Vec::new(),
            dir: None,
            options: Vec::new(),
            restart: false,
            handshake_timeout_ms: DEFAULT_HANDSHAKE_TIMEOUT_MS,
            ping_timeout_ms: DEFAULT_PING_TIMEOUT_MS,
            stall_timeout_ms: DEFAULT_STALL_TIMEOUT_MS,
            allow_unknown_options: false,
            xboard: false,
            ponder: false,
            white_pov: false,
            init: Vec::new(),
        }
    }

    /// The command line in words, for the summary: `cmd arg1 arg2`, a word that holds a space, a quote, a
    /// backslash or a comma (or is empty) quoted as a shell would read it back (`sf '--x a b'`).
    pub fn command_line(&self) -> String {
        let shown = |word: &str| {
            let plain = !word.is_empty() && !word.contains(|c: char| c.is_whitespace() || "'\"\\,#".contains(c));
            // A word holding a NUL cannot be quoted by shlex (and cannot be an argument either): shown as given.
            if plain {
                word.to_string()
            } else {
                shlex::try_quote(word).map_or_else(|_| word.to_string(), |q| q.into_owned())
            }
        };
        std::iter::once(self.cmd.as_str())
            .chain(self.args.iter().map(String::as_str))
            .map(shown)
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The `Hash` option in MiB when given as a number, else 16 (the usual UCI default).
    pub fn hash_mb(&self) -> usize {
        self.numeric_option("hash").unwrap_or(16)
    }

    /// The value of the option `name` (ASCII case-insensitive) when it is given as a whole number.
    pub fn numeric_option(&self, name: &str) -> Option<usize> {
        self.options.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).and_then(|(_, value)| value.trim().parse().ok())
    }
}

/// The names of the options an engine lists in its reply to `uci` (`option name NAME type ...` lines), as
/// written; `None` when the reply was cut ([`KEPT_REPLY_LINES`](crate::uci::process::KEPT_REPLY_LINES)), so
/// that the listing is not complete.
pub fn listed_options(reply: &[String]) -> Option<Vec<String>> {
    if reply.iter().any(|line| line.starts_with("[arbiter: ") && line.ends_with(" earlier lines dropped]")) {
        return None;
    }
    let names = reply
        .iter()
        .filter_map(|line| line.trim().strip_prefix("option name "))
        .map(|rest| rest.split(" type ").next().unwrap_or(rest).trim().to_string())
        .collect();
    Some(names)
}

/// The first `option.NAME` of `engine` that its `uci` reply (`reply`) does not list, as the
/// [`PlayerError::UnknownOption`] of the player `player`, with the closest listed names; `None` when every
/// option is listed, when [`UciEngine::allow_unknown_options`] is set, or when the reply was too long to read
/// whole ([`listed_options`]). For the jobs that start an engine without a [`UciPlayer`] (`perft --engine`).
pub fn unknown_option(player: &str, engine: &UciEngine, reply: &[String]) -> Option<PlayerError> {
    if engine.allow_unknown_options {
        return None;
    }
    let listed = listed_options(reply)?;
    let (name, _) = engine.options.iter().find(|(name, _)| !listed.iter().any(|l| l.eq_ignore_ascii_case(name)))?;
    Some(PlayerError::UnknownOption {
        player: player.to_string(),
        option: name.clone(),
        suggestions: closest_options(name, &listed),
    })
}

/// The names of `listed` closest to `name` (at most 3, closest first, ties in listed order), by Levenshtein
/// distance without regard to ASCII case (`strsim`); a name counts as close within a distance of a third of
/// its length, at least 2 (`Hsah` is 2 from `Hash`), or when one name holds the other (`Skill` in
/// `Skill Level`).
///
/// # Examples
/// ```
/// use arbiter::player::uci::closest_options;
/// let listed = ["Threads", "Hash", "Clear Hash", "Skill Level"].map(String::from);
/// assert_eq!(closest_options("Hsah", &listed), ["Hash"]);
/// assert_eq!(closest_options("skill", &listed), ["Skill Level"]);
/// assert!(closest_options("SyzygyPath", &listed).is_empty());
/// ```
pub fn closest_options(name: &str, listed: &[String]) -> Vec<String> {
    let given = name.to_lowercase();
    let limit = (given.chars().count() / 3).max(2);
    let mut close: Vec<(usize, &String)> = listed
        .iter()
        .filter_map(|option| {
            let lower = option.to_lowercase();
            let distance = strsim::levenshtein(&given, &lower);
            let contains = given.len() >= 3 && (lower.contains(&given) || given.contains(&lower));
            (distance <= limit || contains).then_some((distance, option))
        })
        .collect();
    close.sort_by_key(|&(distance, _)| distance);
    close.into_iter().take(3).map(|(_, option)| option.clone()).collect()
}

/// The `go` command for `limits`: `go wtime .. btime .. winc .. binc .. movestogo .. movetime .. nodes ..
/// depth ..` with the limits that are set (`go infinite` when none is).
pub fn go_command(limits: &GoLimits) -> String {
    let mut words = vec!["go".to_string()];
    let mut push = |key: &str, value: Option<u64>| {
        if let Some(v) = value {
            words.push(format!("{key} {v}"));
        }
    };
    push("wtime", limits.wtime_ms);
    push("btime", limits.btime_ms);
    push("winc", limits.winc_ms);
    push("binc", limits.binc_ms);
    push("movestogo", limits.movestogo.map(u64::from));
    push("movetime", limits.movetime_ms);
    push("nodes", limits.nodes);
    push("depth", limits.depth.map(u64::from));
    if words.len() == 1 {
        words.push("infinite".to_string());
    }
    words.join(" ")
}

/// The `position` command for `game`: `position startpos` when it began from the standard start position
/// ([`Game::starts_from_startpos`]), else `position fen FEN`, then `moves` and every move in the engine's
/// notation ([`Game::engine_moves`]: UCI text with king-takes-rook castling in Chess960, Fairy-Stockfish's
/// Xiangqi ranks 1..10).
pub fn position_command<G: Game>(game: &G) -> String {
    let mut text = if game.starts_from_startpos() {
        "position startpos".to_string()
    } else {
        format!("position fen {}", game.start_fen())
    };
    let moves = game.engine_moves();
    if !moves.is_empty() {
        text.push_str(" moves");
        for m in &moves {
            text.push(' ');
            text.push_str(m);
        }
    }
    text
}

/// What the `info` lines of one search said last: score (mover's view), depth, nodes and the other fields of
/// [`SearchDetail`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InfoSummary {
    /// The last score given.
    pub score: Option<EngineScore>,
    /// The last depth given.
    pub depth: u32,
    /// The last node count given.
    pub nodes: u64,
    /// The last `seldepth`, `nps`, `hashfull`, `tbhits` and `time` given.
    pub detail: SearchDetail,
}

/// An integer of any length, saturated to the `i64` range (`-99999999999999999999999` is `i64::MIN`), so that a
/// score past the 64-bit limit is a very large score like one just inside it, not a missing score; `None` for
/// anything else (`1e9`, `NaN`, `12x`).
fn saturating_integer(word: &str) -> Option<i64> {
    use std::num::IntErrorKind;
    match word.parse::<i64>() {
        Ok(value) => Some(value),
        Err(e) if *e.kind() == IntErrorKind::PosOverflow => Some(i64::MAX),
        Err(e) if *e.kind() == IntErrorKind::NegOverflow => Some(i64::MIN),
        Err(_) => None,
    }
}

impl InfoSummary {
    /// Reads one `info` line into the summary; other lines and fields it cannot read are ignored (engine output
    /// is untrusted, and an engine may add fields of its own), and so are the lines of `multipv 2` and beyond.
    /// Scores are clamped ([`EngineScore::clamped_cp`], [`EngineScore::clamped_mate`]).
    pub fn read(&mut self, line: &str) {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.first() != Some(&"info") {
            return;
        }
        // A MultiPV engine's lines after the first describe other moves, not its evaluation.
        let end = words.iter().position(|&w| w == "pv" || w == "string").unwrap_or(words.len());
        if let Some(k) = words[..end].iter().position(|&w| w == "multipv")
            && words.get(k + 1).and_then(|w| w.parse::<u32>().ok()).is_some_and(|n| n > 1)
        {
            return;
        }
        let mut i = 1;
        while i < words.len() {
            let next = words.get(i + 1).copied();
            match words[i] {
                "depth" => {
                    if let Some(d) = next.and_then(|w| w.parse().ok()) {
                        self.depth = d;
                    }
                }
                "nodes" => {
                    if let Some(n) = next.and_then(|w| w.parse().ok()) {
                        self.nodes = n;
                    }
                }
                "seldepth" => self.detail.seldepth = next.and_then(|w| w.parse().ok()).or(self.detail.seldepth),
                "nps" => self.detail.nps = next.and_then(|w| w.parse().ok()).or(self.detail.nps),
                "hashfull" => self.detail.hashfull = next.and_then(|w| w.parse().ok()).or(self.detail.hashfull),
                "tbhits" => self.detail.tbhits = next.and_then(|w| w.parse().ok()).or(self.detail.tbhits),
                "time" => self.detail.time_ms = next.and_then(|w| w.parse().ok()).or(self.detail.time_ms),
                "score" => {
                    // Read wide and clamped (`EngineScore::clamped_cp`): a score at or past the integer limit
                    // is a very large score, never an overflow.
                    let value = words.get(i + 2).and_then(|w| saturating_integer(w));
                    match (next, value) {
                        (Some("cp"), Some(cp)) => self.score = Some(EngineScore::clamped_cp(cp)),
                        (Some("mate"), Some(n)) => self.score = Some(EngineScore::clamped_mate(n)),
                        _ => {}
                    }
                    i += 1;
                }
                // The rest of the line is the pv or free text.
                "pv" | "string" => break,
                _ => {}
            }
            i += 1;
        }
    }
}

/// The principal variation of the last `info ... pv` line of `lines` (the first PV of a MultiPV engine), read
/// as moves from `game`'s position up to the first word that is not a legal move and at most
/// [`MAX_PV_PLIES`] moves; empty when there is none or it does not start with `best`, the move played.
fn principal_variation<G: Game>(game: &G, lines: &[String], best: G::Move) -> Vec<G::Move> {
    let Some(words) = lines.iter().rev().find_map(|line| {
        let words: Vec<&str> = line.split_whitespace().collect();
        let start = words.iter().position(|&w| w == "pv")?;
        let head = &words[..start];
        let other_pv = head.windows(2).any(|w| w[0] == "multipv" && w[1].parse::<u32>().is_ok_and(|n| n > 1));
        (head.first() == Some(&"info") && !head.contains(&"string") && !other_pv).then(|| words[start + 1..].to_vec())
    }) else {
        return Vec::new();
    };
    let mut line = game.clone();
    let mut pv = Vec::new();
    for word in words.into_iter().take(MAX_PV_PLIES) {
        let Ok(m) = line.parse_engine_move(word) else { break };
        if !line.play(m) {
            break;
        }
        pv.push(m);
    }
    if pv.first() == Some(&best) { pv } else { Vec::new() }
}

/// The error's text with the engine's last lines (which a timeout's or a flood's text already holds).
fn describe(error: &UciError, process: &EngineProcess) -> String {
    match error {
        UciError::Timeout { .. } | UciError::Flood { .. } => error.to_string(),
        _ => format!("{error}; last lines: {:?}", process.last_lines()),
    }
}

/// An external UCI engine process playing the game `G` (chess by default) for one worker. For a game with a
/// [`Game::UCI_VARIANT`] (Xiangqi), `setoption name UCI_Variant value ...` is sent after the handshake,
/// before the user's options, and moves go both ways in the engine's notation
/// ([`Game::engine_move_text`]).
pub struct UciPlayer<G: Game> {
    name: String,
    engine: UciEngine,
    process: Option<EngineProcess>,
    /// Whether `UCI_Chess960` is on in the running process.
    chess960: bool,
    warnings: Vec<String>,
    /// The flag every process of this player watches while waiting ([`Player::set_cancel`]).
    cancel: Option<Arc<AtomicBool>>,
    /// The principal variation of the last `go` ([`Player::last_pv`]).
    last_pv: Vec<G::Move>,
    /// The other `info` fields of the last `go` ([`Player::last_detail`]).
    last_detail: SearchDetail,
    /// While the engine ponders: the `position` command it ponders on (its move and the reply it expects).
    pondering: Option<String>,
    game: PhantomData<fn(&G)>,
}

impl<G: Game> UciPlayer<G> {
    /// Starts the engine: process, `uci`/`uciok`, `UCI_Variant` for games other than chess, the options,
    /// `isready`/`readyok`.
    ///
    /// # Errors
    /// [`PlayerError::Start`] naming the command and what failed, with the engine's last lines; for a game with
    /// a `UCI_Variant`, an engine whose `UCI_Variant` option does not offer it. [`PlayerError::UnknownOption`]
    /// for an option the engine does not list, unless [`UciEngine::allow_unknown_options`].
    pub fn start(name: &str, engine: UciEngine) -> Result<UciPlayer<G>, PlayerError> {
        let mut player = UciPlayer {
            name: name.to_string(),
            engine,
            process: None,
            chess960: false,
            warnings: vec![],
            cancel: None,
            last_pv: Vec::new(),
            last_detail: SearchDetail::default(),
            pondering: None,
            game: PhantomData,
        };
        player.launch()?;
        Ok(player)
    }

    /// Starts a fresh process (dropping any old one) and sets it up.
    fn launch(&mut self) -> Result<(), PlayerError> {
        self.process = None;
        self.pondering = None;
        self.chess960 = false;
        let start_error = |reason: String| PlayerError::Start { player: self.name.clone(), reason };
        let engine = &self.engine;
        let mut process =
            spawn_engine(&self.name, engine, self.cancel.as_ref()).map_err(|e| start_error(e.to_string()))?;
        let handshake = Duration::from_millis(engine.handshake_timeout_ms);
        let with_lines = |e: UciError, p: &EngineProcess| describe(&e, p);
        process.send("uci").map_err(|e| start_error(with_lines(e, &process)))?;
        let lines = process
            .wait_for_keeping(|l| l.trim() == "uciok", "uciok", handshake, crate::uci::process::KEPT_UCI_LINES)
            .map_err(|e| start_error(with_lines(e, &process)))?;
        let listed = listed_options(&lines);
        self.warnings.clear();
        if let Some(variant) = G::UCI_VARIANT {
            let offered = lines.iter().any(|l| {
                let l = l.trim();
                l.to_ascii_lowercase().starts_with("option name uci_variant ")
                    && l.split_whitespace().collect::<Vec<_>>().windows(2).any(|w| w == ["var", variant])
            });
            if !offered {
                return Err(start_error(format!(
                    "{}: the engine's UCI_Variant option does not offer {variant:?}; it cannot play {}",
                    engine.cmd,
                    G::NAME
                )));
            }
            process.set_option("UCI_Variant", variant).map_err(|e| start_error(with_lines(e, &process)))?;
        }
        for (name, value) in &engine.options {
            match &listed {
                Some(listed) if !listed.iter().any(|option| option.eq_ignore_ascii_case(name)) => {
                    if !engine.allow_unknown_options {
                        return Err(PlayerError::UnknownOption {
                            player: self.name.clone(),
                            option: name.clone(),
                            suggestions: closest_options(name, listed),
                        });
                    }
                    self.warnings.push(format!(
                        "{}: the engine does not list the option {name:?}; it is sent anyway \
                         (unknown options are allowed)",
                        self.name
                    ));
                }
                Some(_) => {}
                None => self.warnings.push(format!(
                    "{}: the engine's reply to `uci` was too long to read whole; the option {name:?} is sent \
                     unchecked",
                    self.name
                )),
            }
            process.set_option(name, value).map_err(|e| start_error(with_lines(e, &process)))?;
        }
        if engine.ponder {
            // The engine is told it may ponder (UCI's `Ponder` option), as cutechess-cli tells it.
            if listed.as_ref().is_some_and(|l| l.iter().any(|o| o.eq_ignore_ascii_case("Ponder"))) {
                process.set_option("Ponder", "true").map_err(|e| start_error(with_lines(e, &process)))?;
            } else {
                self.warnings.push(format!("{}: ponder=on, but the engine lists no Ponder option", self.name));
            }
        }
        process.sync(handshake).map_err(|e| start_error(with_lines(e, &process)))?;
        self.process = Some(process);
        Ok(())
    }

    /// Ends a search on the opponent's time, if one is going: `stop`, and its `bestmove` read and dropped.
    fn stop_pondering(&mut self) -> Result<(), PlayerError> {
        if self.pondering.take().is_none() {
            return Ok(());
        }
        let Some(process) = self.process.as_mut() else { return Ok(()) };
        let stopped = stop_search(process, Duration::from_millis(self.engine.ping_timeout_ms));
        stopped.map(|_| ()).map_err(|e| self.failed(e, "bestmove after stop of pondering"))
    }

    /// After the engine's move `mv` in `game` (its `bestmove` line `last`): with `ponder=on` and a legal
    /// `ponder` move, the engine is sent that position and `go ponder` with the limits of the move just made.
    fn start_pondering(&mut self, game: &G, mv: G::Move, last: &str, limits: &GoLimits) -> Result<(), PlayerError> {
        let words: Vec<&str> = last.split_whitespace().collect();
        let Some(reply) = words.windows(2).find(|w| w[0] == "ponder").map(|w| w[1]) else { return Ok(()) };
        let mut line = game.clone();
        if !line.play(mv) || line.outcome().is_some() {
            return Ok(());
        }
        let Ok(reply) = line.parse_engine_move(reply) else { return Ok(()) };
        if !line.play(reply) || line.outcome().is_some() {
            return Ok(());
        }
        let position = position_command(&line);
        let go = go_command(limits).replacen("go", "go ponder", 1);
        let process = self.process.as_mut().expect("a running engine");
        process.send(&position).and_then(|()| process.send(&go)).map_err(|e| self.failed(e, "position/go ponder"))?;
        self.pondering = Some(position);
        Ok(())
    }

    /// The error for a failure of the running process ([`process_failure`]); the process is dropped.
    fn failed(&mut self, error: UciError, doing: &str) -> PlayerError {
        process_failure(&self.name, self.process.take(), error, doing)
    }
}

/// Whether `line` is a `bestmove` line.
fn is_bestmove(line: &str) -> bool {
    line.split_whitespace().next() == Some("bestmove")
}

/// Sends `stop` and waits up to `ping` for the search's `bestmove` (the lines up to it).
fn stop_search(process: &mut EngineProcess, ping: Duration) -> Result<Vec<String>, UciError> {
    process.send("stop").and_then(|()| process.wait_for(is_bestmove, "bestmove", ping))
}

/// An engine's `score` from the mover's view: negated when the engine reports from White's view
/// ([`UciEngine::white_pov`]) and plays Black. For the UCI and the xboard player alike.
pub(super) fn own_view<G: Game>(engine: &UciEngine, game: &G, score: Option<EngineScore>) -> Option<EngineScore> {
    let flip = engine.white_pov && game.mover() == crate::game::Color::Black;
    if flip { score.map(EngineScore::negated) } else { score }
}

/// Starts `engine`'s program in its folder, watching `cancel` while it waits ([`EngineProcess::spawn`]); for
/// the UCI and the xboard player alike.
pub(super) fn spawn_engine(
    name: &str,
    engine: &UciEngine,
    cancel: Option<&Arc<AtomicBool>>,
) -> Result<EngineProcess, UciError> {
    let mut process = EngineProcess::spawn(&engine.cmd, &engine.args, engine.dir.as_deref())?;
    process.set_log_name(name);
    if let Some(flag) = cancel {
        process.set_cancel(Arc::clone(flag));
    }
    for line in &engine.init {
        process.send(line)?;
    }
    Ok(process)
}

/// The player error for a failure of an engine `process` while `doing` something: a closed pipe or a dead
/// process is a crash, a timeout of a running process a stall, too much output a flood, each with the
/// engine's last lines; the process is dropped (killed), to be restarted before the next game. For the UCI
/// and the xboard player alike.
pub(super) fn process_failure(
    player: &str,
    mut process: Option<EngineProcess>,
    error: UciError,
    doing: &str,
) -> PlayerError {
    if let Some(p) = process.as_mut()
        && matches!(error, UciError::Disconnected { .. } | UciError::Write { .. })
    {
        p.settle(Duration::from_millis(500));
    }
    let running = process.as_mut().is_some_and(EngineProcess::is_running);
    let reason = match &process {
        Some(p) => format!("{doing}: {}", describe(&error, p)),
        None => format!("{doing}: {error}"),
    };
    let player = player.to_string();
    match error {
        UciError::Timeout { .. } if running => PlayerError::Stalled { player, reason },
        UciError::Flood { .. } => PlayerError::Flooded { player, reason },
        _ => PlayerError::Crashed { player, reason },
    }
}

impl<G: Game> Player<G> for UciPlayer<G> {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self) -> Result<(), PlayerError> {
        self.stop_pondering()?;
        let alive = self.process.as_mut().is_some_and(EngineProcess::is_running);
        if self.engine.restart || !alive {
            self.launch()?;
        }
        let ping = Duration::from_millis(self.engine.ping_timeout_ms);
        let process = self.process.as_mut().expect("launched above");
        let sent = process.send("ucinewgame").and_then(|()| process.sync(ping));
        sent.map_err(|e| self.failed(e, "ucinewgame/isready"))
    }

    fn go(&mut self, game: &G, request: &GoRequest) -> Result<PlayerMove<G::Move>, PlayerError> {
        if self.process.is_none() {
            self.launch()?;
        }
        let chess960 = game.is_chess960();
        let process = self.process.as_mut().expect("launched above");
        if chess960 != self.chess960 {
            if let Err(e) = process.set_option("UCI_Chess960", if chess960 { "true" } else { "false" }) {
                return Err(self.failed(e, "setoption UCI_Chess960"));
            }
            self.chess960 = chess960;
        }
        let position = position_command(game);
        let sent = if self.pondering.as_ref() == Some(&position) {
            // The opponent played the expected reply: the search goes on, now on the engine's own time.
            self.pondering = None;
            process.send("ponderhit")
        } else {
            self.stop_pondering()?;
            let process = self.process.as_mut().expect("launched above");
            process.send(&position).and_then(|()| process.send(&go_command(&request.limits)))
        };
        if let Err(e) = sent {
            return Err(self.failed(e, "position/go"));
        }
        let process = self.process.as_mut().expect("launched above");
        let timed = request.allowed_ms.is_some();
        let allowed = Duration::from_millis(request.allowed_ms.unwrap_or(self.engine.stall_timeout_ms));
        let ping = Duration::from_millis(self.engine.ping_timeout_ms);
        let mut info = InfoSummary::default();
        self.last_pv.clear();
        let lines = match process.wait_for(is_bestmove, "bestmove", allowed) {
            Ok(lines) => lines,
            Err(UciError::Timeout { .. }) => {
                // Out of time: ask for the move at once. One that comes is still judged by the runner's
                // clock (a time forfeit); one that does not is a stall.
                let stopped = stop_search(process, ping);
                match stopped {
                    Ok(lines) if timed => lines,
                    Ok(_) => {
                        return Err(PlayerError::Stalled {
                            player: self.name.clone(),
                            reason: format!(
                                "no bestmove within the stall timeout of {} ms for an untimed search (it came \
                                 after stop); last lines: {:?}",
                                self.engine.stall_timeout_ms,
                                process.last_lines()
                            ),
                        });
                    }
                    Err(e) => return Err(self.failed(e, "bestmove after stop")),
                }
            }
            Err(e) => return Err(self.failed(e, "bestmove")),
        };
        for line in &lines {
            info.read(line);
        }
        let last = lines.last().expect("wait_for returns the matching line last");
        let text = last.split_whitespace().nth(1).unwrap_or("").to_string();
        let mv = game.parse_engine_move(&text).map_err(|e| PlayerError::BadMove {
            player: self.name.clone(),
            text: text.clone(),
            reason: format!("{e}; last lines: {:?}", process.last_lines()),
        })?;
        self.last_pv = principal_variation(game, &lines, mv);
        self.last_detail = info.detail;
        if self.engine.ponder {
            self.start_pondering(game, mv, last, &request.limits)?;
        }
        let score = own_view(&self.engine, game, info.score);
        Ok(PlayerMove { mv, score, depth: info.depth, nodes: info.nodes, time_ms: 0 })
    }

    fn last_pv(&self) -> Vec<G::Move> {
        self.last_pv.clone()
    }

    fn last_detail(&self) -> SearchDetail {
        self.last_detail
    }

    fn game_over(&mut self, _result: &str, _why: &str) {
        // A search on the opponent's time is of no use once the game is over; a failure shows at the next game.
        if self.stop_pondering().is_err() {
            self.process = None;
        }
    }

    fn warnings(&self) -> Vec<String> {
        self.warnings.clone()
    }

    fn last_lines(&self) -> Vec<String> {
        self.process.as_ref().map(EngineProcess::last_lines).unwrap_or_default()
    }

    fn set_cancel(&mut self, flag: Arc<AtomicBool>) {
        if let Some(process) = self.process.as_mut() {
            process.set_cancel(Arc::clone(&flag));
        }
        self.cancel = Some(flag);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess;
    use crate::chess::Position;
    use crate::chess::parse_uci;

    #[test]
    fn the_pv_is_the_last_first_line_read_while_legal() {
        let game = chess::ChessGame::new(Position::startpos());
        let e4 = parse_uci(game.position(), "e2e4").unwrap();
        let lines = |v: &[&str]| v.iter().map(|l| l.to_string()).collect::<Vec<_>>();
        let pv = |v: &[&str]| {
            principal_variation(&game, &lines(v), e4).iter().map(ToString::to_string).collect::<Vec<_>>().join(" ")
        };
        let read = [
            "info depth 3 score cp 20 pv e2e4 e7e5 g1f3",
            "info depth 3 multipv 2 score cp 5 pv d2d4",
            "bestmove e2e4",
        ];
        assert_eq!(pv(&read), "e2e4 e7e5 g1f3");
        // Read up to the first move that is not legal; a PV of another move, or none, is empty.
        assert_eq!(pv(&["info depth 2 score cp 9 pv e2e4 e7e5 e1e3 g8f6", "bestmove e2e4"]), "e2e4 e7e5");
        assert_eq!(pv(&["info depth 2 score cp 9 pv d2d4 d7d5", "bestmove e2e4"]), "");
        assert_eq!(pv(&["info depth 2 score cp 9", "info string pv e2e4", "bestmove e2e4"]), "");
        let long = format!("info depth 9 pv e2e4 {}", "g8f6 g1f3 f6g8 f3g1 ".repeat(100));
        assert_eq!(principal_variation(&game, &lines(&[&long]), e4).len(), MAX_PV_PLIES);
    }

    #[test]
    fn scores_past_the_64_bit_limit_are_clamped_not_dropped() {
        let read = |line: &str| {
            let mut info = InfoSummary::default();
            info.read(line);
            info.score
        };
        assert_eq!(read("info depth 1 score cp -99999999999999999999999 pv e2e4"), Some(EngineScore::Cp(-50_000)));
        assert_eq!(read("info depth 1 score cp 99999999999999999999999 pv e2e4"), Some(EngineScore::Cp(50_000)));
        assert_eq!(read("info depth 1 score mate -99999999999999999999 pv e2e4"), Some(EngineScore::Mate(-1000)));
        assert_eq!(read("info depth 1 score cp +12 pv e2e4"), Some(EngineScore::Cp(12)));
        for bad in ["1e9", "NaN", "12x", "-", ""] {
            assert_eq!(read(&format!("info depth 1 score cp {bad}")), None, "{bad:?}");
        }
    }

    #[test]
    fn go_commands() {
        let clock = GoLimits {
            wtime_ms: Some(9_000),
            btime_ms: Some(8_500),
            winc_ms: Some(100),
            binc_ms: Some(100),
            movestogo: Some(12),
            ..GoLimits::default()
        };
        assert_eq!(go_command(&clock), "go wtime 9000 btime 8500 winc 100 binc 100 movestogo 12");
        assert_eq!(go_command(&GoLimits { nodes: Some(5000), ..GoLimits::default() }), "go nodes 5000");
        let both = GoLimits { movetime_ms: Some(100), depth: Some(8), ..GoLimits::default() };
        assert_eq!(go_command(&both), "go movetime 100 depth 8");
        assert_eq!(go_command(&GoLimits::default()), "go infinite");
    }

    #[test]
    fn position_commands() {
        let mut game = chess::ChessGame::new(Position::startpos());
        assert_eq!(position_command(&game), "position startpos");
        for text in ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"] {
            let m = parse_uci(game.position(), text).unwrap();
            assert!(game.play(m));
        }
        let castle = parse_uci(game.position(), "e1g1").unwrap();
        assert!(game.play(castle));
        assert_eq!(position_command(&game), "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1");

        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        let mut game = chess::ChessGame::new(Position::from_fen_variant(fen, true).unwrap());
        let castle = parse_uci(game.position(), "e1h1").unwrap();
        assert!(game.play(castle));
        let text = position_command(&game);
        assert!(text.starts_with("position fen r3k2r/8/8/8/8/8/8/R3K2R w "), "{text}");
        assert!(text.ends_with(" moves e1h1"), "{text}");
    }

    #[test]
    fn white_pov_scores_are_negated_for_black_only() {
        let mut engine = UciEngine::new("x");
        let mut game = crate::chess::ChessGame::new(crate::chess::Position::startpos());
        let score = Some(EngineScore::Cp(40));
        assert_eq!(own_view(&engine, &game, score), score);
        engine.white_pov = true;
        assert_eq!(own_view(&engine, &game, score), score, "White's view is White's own");
        let e4 = game.parse_engine_move("e2e4").unwrap();
        assert!(game.play(e4));
        assert_eq!(own_view(&engine, &game, score), Some(EngineScore::Cp(-40)));
        assert_eq!(own_view(&engine, &game, Some(EngineScore::Mate(3))), Some(EngineScore::Mate(-3)));
    }

    #[test]
    fn info_lines() {
        let mut info = InfoSummary::default();
        info.read("info depth 12 seldepth 18 multipv 1 score cp -35 nodes 123456 nps 1000 pv e2e4 e7e5");
        assert_eq!(
            info,
            InfoSummary {
                score: Some(EngineScore::Cp(-35)),
                depth: 12,
                nodes: 123_456,
                detail: SearchDetail { seldepth: Some(18), nps: Some(1000), ..SearchDetail::default() }
            }
        );
        info.read("info depth 13 score mate 3 lowerbound nodes 200000 pv e2e4");
        assert_eq!((info.score, info.depth, info.nodes), (Some(EngineScore::Mate(3)), 13, 200_000));
        info.read("info string depth 99 nodes 1");
        info.read("info depth x score cp nodes");
        info.read("bestmove e2e4");
        info.read("info currmove e2e4 currmovenumber 1");
        assert_eq!((info.score, info.depth, info.nodes), (Some(EngineScore::Mate(3)), 13, 200_000));
        // Only the first line of a MultiPV search is the engine's evaluation (as cutechess-cli reads it).
        info.read("info depth 14 multipv 2 score cp 10 nodes 300000 pv d2d4");
        assert_eq!((info.score, info.depth, info.nodes), (Some(EngineScore::Mate(3)), 13, 200_000));
        info.read("info depth 14 multipv 1 score cp 20 nodes 300000 pv e2e4");
        assert_eq!(info.score, Some(EngineScore::Cp(20)));
        // Scores at or past the integer limit are clamped, not dropped and never overflowing.
        info.read("info depth 15 score cp -2147483648 nodes 1");
        assert_eq!(info.score, Some(EngineScore::Cp(-EngineScore::CP_LIMIT)));
        info.read("info depth 15 score cp 99999999999 nodes 1");
        assert_eq!(info.score, Some(EngineScore::Cp(EngineScore::CP_LIMIT)));
        info.read("info depth 15 score mate -2147483648 nodes 1");
        assert_eq!(info.score, Some(EngineScore::Mate(-EngineScore::MATE_LIMIT)));
    }

    #[test]
    fn hash_and_command_line() {
        let mut engine = UciEngine::new("/usr/games/stockfish");
        assert_eq!(engine.hash_mb(), 16);
        engine.options.push(("Hash".into(), "64".into()));
        engine.args = vec!["--x".into(), "y".into()];
        assert_eq!(engine.hash_mb(), 64);
        assert_eq!(engine.command_line(), "/usr/games/stockfish --x y");
    }

    #[test]
    fn option_listing_and_suggestions() {
        let reply: Vec<String> = [
            "id name Stockfish 15.1",
            "option name Threads type spin default 1 min 1 max 1024",
            "option name Hash type spin default 16 min 1 max 33554432",
            "option name Clear Hash type button",
            "option name Skill Level type spin default 20 min 0 max 20",
            "option name SyzygyPath type string default <empty>",
            "uciok",
        ]
        .map(String::from)
        .to_vec();
        let listed = listed_options(&reply).unwrap();
        assert_eq!(listed, ["Threads", "Hash", "Clear Hash", "Skill Level", "SyzygyPath"]);
        assert_eq!(closest_options("Hsah", &listed), ["Hash"]);
        assert_eq!(closest_options("hash", &listed), ["Hash", "Clear Hash"]);
        assert_eq!(closest_options("Thread", &listed), ["Threads"]);
        assert_eq!(closest_options("SkillLevel", &listed), ["Skill Level"]);
        assert_eq!(closest_options("Syzygy Path", &listed), ["SyzygyPath"]);
        assert_eq!(closest_options("Hashh", &listed), ["Hash"]);
        assert!(closest_options("Ponder", &listed).is_empty());
        // A reply cut at the kept-lines bound is not a complete listing.
        let cut = ["[arbiter: 45 earlier lines dropped]".to_string(), "uciok".to_string()];
        assert_eq!(listed_options(&cut), None);

        let error = |suggestions: &[&str]| PlayerError::UnknownOption {
            player: "sf".into(),
            option: "Hsah".into(),
            suggestions: suggestions.iter().map(|s| s.to_string()).collect(),
        };
        assert_eq!(
            error(&["Hash"]).to_string(),
            "sf: the engine does not list the option \"Hsah\" (did you mean \"Hash\"?)"
        );
        assert!(error(&["A", "B", "C"]).to_string().contains("(did you mean \"A\", \"B\" or \"C\"?)"));
        assert!(error(&[]).to_string().ends_with("the option \"Hsah\""));
    }

    #[test]
    fn a_missing_program_is_a_start_error() {
        let err = UciPlayer::<chess::ChessGame>::start("ghost", UciEngine::new("/no/such/engine")).err().unwrap();
        assert!(matches!(&err, PlayerError::Start { player, .. } if player == "ghost"), "{err}");
        assert!(err.to_string().contains("/no/such/engine"), "{err}");
    }
}
