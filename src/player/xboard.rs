//! External xboard (CECP protocol 2) engines as [`Player`]s, after Tim Mann's "Chess Engine Communication
//! Protocol" (version 2): `xboard`, `protover 2` and the `feature` handshake (each feature answered `accepted`
//! or `rejected`; `done=0` extends the wait until `done=1`), then per game `new`, `force`, `post`, `easy`, the
//! position (`setboard FEN`, or for an engine with `setboard=0` such as fairymax the moves from the start
//! position, or `edit` mode for another start), `level`/`st`/`sd`, and per move the opponent's moves (as
//! `usermove MOVE` where the engine asked for it, in coordinate notation or SAN with `san=1`), `time`/`otim`,
//! `go`, the engine's `move MOVE`, then `force` again so that it never thinks on its own; `ping N`/`pong N`
//! before a game where the engine has `ping=1`; `quit` at the end.
//!
//! Thinking output (`PLY SCORE TIME NODES PV`) gives the move's score (centipawns, the mover's view), depth and
//! nodes for PGN comments and adjudication, as UCI `info` lines do. The failure model is the UCI player's: a
//! crash or closed pipe is [`PlayerError::Crashed`], no move in the time allowed plus the ping timeout is
//! [`PlayerError::Stalled`], move text that is not a legal move (or `Illegal move` about ours, or an `Error`
//! answer) is [`PlayerError::BadMove`], output past the limits [`PlayerError::Flooded`]; the process group is
//! ended with the player.

use super::uci::{UciEngine, process_failure, spawn_engine};
use super::{EngineScore, GoRequest, Player, PlayerError, PlayerMove};
use crate::game::Game;
use crate::uci::{EngineProcess, UciError};
use std::marker::PhantomData;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// How long a protocol-1 engine (no `feature` line) is waited for before its defaults are assumed, in ms
/// (the protocol's two seconds).
const FEATURE_WAIT_MS: u64 = 2_000;

/// What an engine announced with `feature`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Features {
    /// `setboard=1`: positions are set with `setboard FEN` (else `edit` mode).
    pub setboard: bool,
    /// `usermove=1`: moves are sent as `usermove MOVE`.
    pub usermove: bool,
    /// `san=1`: moves go both ways in SAN.
    pub san: bool,
    /// `ping=1`: `ping N` is answered `pong N`.
    pub ping: bool,
    /// `myname="..."`.
    pub myname: Option<String>,
    /// `variants="normal,..."`.
    pub variants: Option<Vec<String>>,
}

impl Default for Features {
    /// The protocol's defaults.
    fn default() -> Features {
        Features { setboard: false, usermove: false, san: false, ping: false, myname: None, variants: None }
    }
}

/// The `name=value` pairs of a `feature` line (values quoted with `"` may hold spaces).
pub fn feature_pairs(line: &str) -> Vec<(String, String)> {
    let Some(rest) = line.trim().strip_prefix("feature") else { return Vec::new() };
    let mut out = Vec::new();
    let mut chars = rest.chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        let name: String = chars.by_ref().take_while(|&c| c != '=').collect();
        if name.is_empty() {
            break;
        }
        let value: String = if chars.peek() == Some(&'"') {
            chars.next();
            chars.by_ref().take_while(|&c| c != '"').collect()
        } else {
            chars.by_ref().take_while(|c| !c.is_whitespace()).collect()
        };
        out.push((name.trim().to_string(), value));
    }
    out
}

/// The score, depth and nodes of a thinking line `PLY SCORE TIME NODES PV...` (`None` for another line).
/// Scores past 100000 in size are mates as most xboard engines write them (100000 + plies or 100000 - plies).
pub fn thinking(line: &str) -> Option<(u32, EngineScore, u64)> {
    let mut words = line.split_whitespace();
    let ply: u32 = words.next()?.trim_end_matches(['.', '&']).parse().ok()?;
    let score: i64 = words.next()?.parse().ok()?;
    let _time: i64 = words.next()?.parse().ok()?;
    let nodes: u64 = words.next()?.parse().ok()?;
    let score = if score.unsigned_abs() >= 100_000 - 1000 && score.unsigned_abs() <= 100_000 + 1000 {
        let plies = (100_000 - score.abs()).abs().max(1);
        let moves = (plies + 1) / 2;
        EngineScore::clamped_mate(if score > 0 { moves } else { -moves })
    } else {
        EngineScore::clamped_cp(score)
    };
    Some((ply, score, nodes))
}

/// An external xboard engine playing chess for one worker.
pub struct XboardPlayer<G: Game> {
    name: String,
    engine: UciEngine,
    process: Option<EngineProcess>,
    features: Features,
    /// The start FEN and moves the engine has, while it is in step with the game.
    sent: Option<(String, usize)>,
    /// Whether `level`/`st`/`sd` went out for this game.
    level_sent: bool,
    ping: u64,
    warnings: Vec<String>,
    cancel: Option<Arc<AtomicBool>>,
    game: PhantomData<fn(&G)>,
}

impl<G: Game> XboardPlayer<G> {
    /// Starts the engine and reads its features.
    ///
    /// # Errors
    /// [`PlayerError::Start`] when it cannot be run, dies during the handshake or does not play chess.
    pub fn start(name: &str, engine: UciEngine) -> Result<XboardPlayer<G>, PlayerError> {
        let mut player = XboardPlayer {
            name: name.to_string(),
            engine,
            process: None,
            features: Features::default(),
            sent: None,
            level_sent: false,
            ping: 0,
            warnings: Vec::new(),
            cancel: None,
            game: PhantomData,
        };
        if G::NAME != "chess" {
            return Err(PlayerError::Start {
                player: name.to_string(),
                reason: format!("xboard engines play chess in Arbiter, not {}", G::NAME),
            });
        }
        player.launch()?;
        Ok(player)
    }

    fn launch(&mut self) -> Result<(), PlayerError> {
        self.process = None;
        self.sent = None;
        let start_error = |reason: String| PlayerError::Start { player: self.name.clone(), reason };
        let engine = &self.engine;
        let mut process =
            spawn_engine(&self.name, engine, self.cancel.as_ref()).map_err(|e| start_error(e.to_string()))?;
        let with_lines = |e: UciError, p: &EngineProcess| format!("{e}; last lines: {:?}", p.last_lines());
        process
            .send("xboard")
            .and_then(|()| process.send("protover 2"))
            .map_err(|e| start_error(with_lines(e, &process)))?;
        let mut features = Features::default();
        let is_done = |l: &str| feature_pairs(l).iter().any(|(n, _)| n == "done");
        let mut lines = match process.wait_for(is_done, "feature done", Duration::from_millis(FEATURE_WAIT_MS)) {
            Ok(lines) => lines,
            Err(UciError::Timeout { .. }) => Vec::new(),
            Err(e) => return Err(start_error(with_lines(e, &process))),
        };
        // done=0: the engine needs longer; wait for its done=1.
        if lines.iter().flat_map(|l| feature_pairs(l)).any(|(n, v)| n == "done" && v == "0") {
            let handshake = Duration::from_millis(engine.handshake_timeout_ms);
            let done1 = |l: &str| feature_pairs(l).iter().any(|(n, v)| n == "done" && v == "1");
            lines.extend(
                process
                    .wait_for(done1, "feature done=1", handshake)
                    .map_err(|e| start_error(with_lines(e, &process)))?,
            );
        }
        let mut replies = Vec::new();
        for (name, value) in lines.iter().flat_map(|l| feature_pairs(l)) {
            let on = value == "1";
            let known = match name.as_str() {
                "setboard" => {
                    features.setboard = on;
                    true
                }
                "usermove" => {
                    features.usermove = on;
                    true
                }
                "san" => {
                    features.san = on;
                    true
                }
                "ping" => {
                    features.ping = on;
                    true
                }
                "myname" => {
                    features.myname = Some(value.clone());
                    true
                }
                "variants" => {
                    features.variants = Some(value.split(',').map(|v| v.trim().to_string()).collect());
                    true
                }
                "done" | "sigint" | "sigterm" | "reuse" | "analyze" | "colors" | "time" | "draw" | "playother"
                | "debug" | "memory" | "smp" | "egt" | "option" | "name" | "nps" | "pause" | "exclude" | "setscore"
                | "highlight" => true,
                _ => false,
            };
            replies.push(format!("{} {name}", if known { "accepted" } else { "rejected" }));
        }
        if let Some(variants) = &features.variants
            && !variants.iter().any(|v| v == "normal")
        {
            return Err(start_error(format!(
                "{}: its variants ({}) do not include normal chess",
                engine.cmd,
                variants.join(",")
            )));
        }
        for reply in replies {
            process.send(&reply).map_err(|e| start_error(with_lines(e, &process)))?;
        }
        for (name, value) in &engine.options {
            process.send(&format!("option {name}={value}")).map_err(|e| start_error(with_lines(e, &process)))?;
        }
        self.features = features;
        self.process = Some(process);
        Ok(())
    }

    /// The error for a failure of the running process, which is dropped (killed): the UCI player's
    /// [`process_failure`]; the engine's board is set up again after a restart.
    fn failed(&mut self, error: UciError, doing: &str) -> PlayerError {
        self.sent = None;
        process_failure(&self.name, self.process.take(), error, doing)
    }

    /// A move as this engine reads and writes it: SAN with `san=1`, else coordinates.
    fn move_text(&self, game: &G, m: G::Move) -> String {
        if self.features.san { game.san_text(m) } else { game.engine_move_text(m) }
    }

    /// Brings the engine's board to `game`'s position (in force mode): the moves it lacks, or a fresh setup.
    fn sync(&mut self, game: &G) -> Result<(), SyncError> {
        let start = game.start_fen();
        let moves = game.moves();
        let in_step = matches!(&self.sent, Some((fen, n)) if *fen == start && *n <= moves.len());
        let mut commands = Vec::new();
        let from = if in_step {
            self.sent.as_ref().map_or(0, |s| s.1)
        } else {
            commands.push("new".to_string());
            commands.push("force".to_string());
            if !game.starts_from_startpos() {
                if self.features.setboard {
                    commands.push(format!("setboard {start}"));
                } else if start.split_whitespace().nth(1) == Some("w") {
                    commands.extend(edit_commands(&start));
                } else {
                    return Err(SyncError::BlackToMove);
                }
            }
            0
        };
        let mut replay = G::new_game(game.start_position().clone());
        for (i, &m) in moves.iter().enumerate() {
            if i >= from {
                let text = self.move_text(&replay, m);
                commands.push(if self.features.usermove { format!("usermove {text}") } else { text });
            }
            replay.play(m);
        }
        let process = self.process.as_mut().expect("running");
        for command in commands {
            process.send(&command).map_err(SyncError::Io)?;
        }
        self.sent = Some((start, moves.len()));
        Ok(())
    }
}

/// The `edit` mode commands that set up the position of `fen` (protocol 2's section on `edit`): `edit`, `#`
/// (clear), the White pieces as `Pa2`, `c` (Black), the Black pieces, `.`; the side to move by a `white`-less
/// protocol is left to the moves sent afterwards (Black to move: the engine is told by the next `go`).
fn edit_commands(fen: &str) -> Vec<String> {
    let board = fen.split_whitespace().next().unwrap_or("");
    let mut white = Vec::new();
    let mut black = Vec::new();
    for (r, row) in board.split('/').enumerate() {
        let rank = 8 - r;
        let mut file = 0u8;
        for c in row.chars() {
            if let Some(skip) = c.to_digit(10) {
                file += skip as u8;
                continue;
            }
            let square = format!("{}{rank}", char::from(b'a' + file));
            let piece = c.to_ascii_uppercase();
            if c.is_ascii_uppercase() {
                white.push(format!("{piece}{square}"))
            } else {
                black.push(format!("{piece}{square}"))
            }
            file += 1;
        }
    }
    let mut out = vec!["edit".to_string(), "#".to_string()];
    out.extend(white);
    out.push("c".to_string());
    out.extend(black);
    out.push(".".to_string());
    out
}

/// Why the engine's board could not be brought to the game's position.
enum SyncError {
    /// The pipe failed.
    Io(UciError),
    /// A start position with Black to move for an engine without `setboard`.
    BlackToMove,
}

/// Centiseconds of `ms`, as `time` and `otim` take them.
fn centiseconds(ms: u64) -> u64 {
    ms / 10
}

impl<G: Game> Player<G> for XboardPlayer<G> {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self) -> Result<(), PlayerError> {
        let alive = self.process.as_mut().is_some_and(EngineProcess::is_running);
        if self.engine.restart || !alive {
            self.launch()?;
        }
        self.sent = None;
        self.level_sent = false;
        let ping = Duration::from_millis(self.engine.ping_timeout_ms);
        let with_ping = self.features.ping;
        self.ping += 1;
        let n = self.ping;
        let process = self.process.as_mut().expect("launched above");
        let mut sent = process.send("new").and_then(|()| process.send("force"));
        sent = sent.and_then(|()| process.send("post")).and_then(|()| process.send("easy"));
        if with_ping {
            let pong = format!("pong {n}");
            sent = sent
                .and_then(|()| process.send(&format!("ping {n}")))
                .and_then(|()| process.wait_for(|l| l.trim() == pong, "pong", ping).map(|_| ()));
        }
        sent.map_err(|e| self.failed(e, "new/ping"))?;
        self.sent = Some((crate::chess::Position::startpos().to_fen(), 0));
        Ok(())
    }

    fn go(&mut self, game: &G, request: &GoRequest) -> Result<PlayerMove<G::Move>, PlayerError> {
        if self.process.is_none() {
            self.launch()?;
            self.sent = None;
        }
        let limits = request.limits;
        let white = game.mover() == crate::game::Color::White;
        let (own, other, inc) = if white {
            (limits.wtime_ms, limits.btime_ms, limits.winc_ms)
        } else {
            (limits.btime_ms, limits.wtime_ms, limits.binc_ms)
        };
        if own.is_none() && limits.movetime_ms.is_none() && limits.depth.is_none() {
            return Err(PlayerError::Start {
                player: self.name.clone(),
                reason: "an xboard engine takes a time control (tc=), a time per move (st=) or a depth (depth=), \
                         not a node limit"
                    .to_string(),
            });
        }
        match self.sync(game) {
            Ok(()) => {}
            Err(SyncError::Io(e)) => return Err(self.failed(e, "position")),
            Err(SyncError::BlackToMove) => {
                return Err(PlayerError::Start {
                    player: self.name.clone(),
                    reason: format!(
                        "the engine sets up positions only in edit mode (setboard=0), which cannot give Black the \
                         move: {}; give it PGN openings from the start position",
                        game.start_fen()
                    ),
                });
            }
        }
        let mut commands = Vec::new();
        if !self.level_sent {
            if let Some(base) = own {
                let inc = inc.unwrap_or(0) as f64 / 1000.0;
                let seconds = base / 1000;
                commands.push(format!(
                    "level {} {}:{:02} {inc}",
                    limits.movestogo.unwrap_or(0),
                    seconds / 60,
                    seconds % 60
                ));
            } else if let Some(movetime) = limits.movetime_ms {
                commands.push(format!("st {}", (movetime / 1000).max(1)));
            }
            if let Some(depth) = limits.depth {
                commands.push(format!("sd {depth}"));
            }
            self.level_sent = true;
        }
        if let Some(own) = own {
            commands.push(format!("time {}", centiseconds(own)));
            commands.push(format!("otim {}", centiseconds(other.unwrap_or(own))));
        }
        commands.push("go".to_string());
        let process = self.process.as_mut().expect("launched above");
        if let Err(e) = commands.iter().try_for_each(|c| process.send(c)) {
            return Err(self.failed(e, "go"));
        }
        let allowed = Duration::from_millis(request.allowed_ms.unwrap_or(self.engine.stall_timeout_ms));
        let ping = Duration::from_millis(self.engine.ping_timeout_ms);
        let answer = |l: &str| {
            let first = l.split_whitespace().next().unwrap_or("");
            first == "move" || first == "resign" || l.starts_with("Illegal move") || l.starts_with("Error")
        };
        let lines = match process.wait_for(answer, "move", allowed + ping) {
            Ok(lines) => lines,
            Err(e) => return Err(self.failed(e, "move")),
        };
        let last = lines.last().expect("wait_for returns the matching line last").trim().to_string();
        // The engine stays passive until its next turn.
        let _ = process.send("force");
        let (mut score, mut depth, mut nodes) = (None, 0, 0);
        for line in &lines {
            if let Some((d, s, n)) = thinking(line) {
                (depth, score, nodes) = (d, Some(s), n);
            }
        }
        let bad = |reason: String, text: String, process: &EngineProcess| PlayerError::BadMove {
            player: self.name.clone(),
            text,
            reason: format!("{reason}; last lines: {:?}", process.last_lines()),
        };
        let Some(text) = last.strip_prefix("move ").map(str::trim) else {
            let reason = if last.starts_with("resign") {
                "it resigned instead of moving (Arbiter adjudicates resignations itself)".to_string()
            } else {
                "it refused the position or a move it was sent".to_string()
            };
            let error = bad(reason, last.clone(), process);
            self.process = None;
            self.sent = None;
            return Err(error);
        };
        let text = text.to_string();
        let parsed = if self.features.san { game.parse_san_text(&text) } else { game.parse_engine_move(&text).ok() };
        let Some(mv) = parsed.or_else(|| game.parse_san_text(&text)) else {
            let error = bad(format!("{text:?} is not a legal move in {}", game.fen()), text, process);
            self.process = None;
            self.sent = None;
            return Err(error);
        };
        self.sent = self.sent.take().map(|(fen, n)| (fen, n + 1));
        let score = super::uci::own_view(&self.engine, game, score);
        Ok(PlayerMove { mv, score, depth, nodes, time_ms: 0 })
    }

    fn game_over(&mut self, result: &str, why: &str) {
        if let Some(process) = self.process.as_mut() {
            let _ = process.send(&format!("result {result} {{{why}}}"));
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

impl<G: Game> Drop for XboardPlayer<G> {
    fn drop(&mut self) {
        if let Some(process) = self.process.as_mut() {
            let _ = process.send("quit");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_and_thinking_lines_are_read() {
        let pairs = feature_pairs("feature ping=1 setboard=0 myname=\"Fairy-Max 5.0b\" done=1");
        assert_eq!(pairs[2], ("myname".to_string(), "Fairy-Max 5.0b".to_string()));
        assert_eq!(pairs.len(), 4);
        assert_eq!(thinking("9 35 120 123456 e2e4 e7e5"), Some((9, EngineScore::Cp(35), 123456)));
        assert_eq!(thinking("12. -20 5 999 d2d4").map(|t| t.1), Some(EngineScore::Cp(-20)));
        assert_eq!(thinking("5 99997 1 100 Qh7").map(|t| t.1), Some(EngineScore::Mate(2)));
        assert_eq!(thinking("move e2e4"), None);
        assert_eq!(edit_commands("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"), ["edit", "#", "Pe2", "Ke1", "c", "Ke8", "."]);
    }
}
