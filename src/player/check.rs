//! `arbiter check-engine`: a UCI compliance check of an external engine before a long run, as fastchess's
//! `--compliance` (`app/src/engine/compliance.cpp`) does and beyond: the handshake, `isready` after and during a
//! search, every option listed set back to its default, `position` with moves and with a FEN, `go` with every
//! limit kind, `go infinite` then `stop`, mate and stalemate roots, `ucinewgame`, the `bestmove` equal to the
//! first move of the last PV, and `quit` ending the process. Each item passes or fails with a reason; a failure
//! does not stop the items after it unless the engine is gone.

use super::uci::UciEngine;
use crate::chess::{Position, parse_uci};
use crate::uci::{EngineProcess, UciError};
use std::time::{Duration, Instant};

/// One checked item: what was checked, and `None` when it held or the reason it did not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckItem {
    /// What was checked, in words.
    pub what: String,
    /// `None`: it held; otherwise why not.
    pub failure: Option<String>,
    /// What was seen (a time, a move), for the checklist.
    pub detail: String,
}

impl CheckItem {
    /// The item `what` with its outcome: `Ok` with what was seen, or `Err` with the reason it failed.
    fn of(what: &str, result: Result<String, String>) -> CheckItem {
        let (failure, detail) = match result {
            Ok(detail) => (None, detail),
            Err(reason) => (Some(reason), String::new()),
        };
        CheckItem { what: what.to_string(), failure, detail }
    }
}

/// A position where the side to move is checkmated (the fool's mate).
const MATED: &str = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
/// A position where the side to move is stalemated.
const STALEMATE: &str = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";
/// A middle-game position given by FEN (Kiwipete).
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// The moves played from the start position in the `position startpos moves` item.
const MOVES: &str = "e2e4 e7e5 g1f3 b8c6 f1b5";

/// Checks `engine`, named `name` (its program, arguments, folder and options as given), each wait bounded by
/// `timeout`.
/// Returns every item in order; the engine is ended before this returns.
pub fn check_engine(name: &str, engine: &UciEngine, timeout: Duration) -> Vec<CheckItem> {
    if engine.xboard {
        return check_xboard(name, engine, timeout);
    }
    let mut items = Vec::new();
    let mut item = |what: &str, result: Result<String, String>| items.push(CheckItem::of(what, result));
    let started = Instant::now();
    let mut process = match super::uci::spawn_engine(name, engine, None) {
        Ok(process) => process,
        Err(error) => {
            item("the program starts", Err(error.to_string()));
            return items;
        }
    };
    let reply = process.send("uci").and_then(|()| {
        process.wait_for_keeping(|l| l.trim() == "uciok", "uciok", timeout, crate::uci::process::KEPT_UCI_LINES)
    });
    let lines = match reply {
        Ok(lines) => lines,
        Err(error) => {
            item("uci is answered by uciok", Err(error.to_string()));
            return items;
        }
    };
    let id_name = lines.iter().find_map(|l| l.strip_prefix("id name ")).unwrap_or("").trim().to_string();
    let options: Vec<UciOption> = lines.iter().filter_map(|l| UciOption::parse(l)).collect();
    item(
        "uci is answered by id name, id author and uciok",
        if id_name.is_empty() || !lines.iter().any(|l| l.starts_with("id author")) {
            Err("no `id name` or no `id author` line before uciok".to_string())
        } else {
            Ok(format!("{id_name}, {} options, {} ms", options.len(), started.elapsed().as_millis()))
        },
    );
    let mut steps: Vec<(String, Run)> = Vec::new();
    let mut step = |what: &str, run: Run| {
        steps.push((what.to_string(), run));
    };
    step("isready is answered by readyok", Box::new(move |p| ready(p, timeout)));
    let given = engine.options.clone();
    let count = options.len();
    step(
        "every option listed is set back to its default (then the options given), and the engine answers isready",
        Box::new(move |p| {
            let mut bad = Vec::new();
            let defaults = options.iter().filter_map(|o| o.default.as_ref().map(|d| (o.name.clone(), d.clone())));
            for (name, value) in defaults.chain(given) {
                if let Err(error) = p.set_option(&name, &value) {
                    bad.push(format!("{name}: {error}"));
                }
            }
            if !bad.is_empty() {
                return Err(bad.join("; "));
            }
            ready(p, timeout).map(|_| format!("{count} set"))
        }),
    );
    step(
        "ucinewgame then isready",
        Box::new(move |p| p.send("ucinewgame").map_err(|e| e.to_string()).and_then(|()| ready(p, timeout))),
    );
    let mut pos = Position::startpos();
    for text in MOVES.split(' ') {
        let m = parse_uci(&pos, text).expect("the listed moves are legal");
        let mut game = crate::chess::ChessGame::new(pos.clone());
        game.play(m);
        pos = game.position().clone();
    }
    let startpos_moves = format!("position startpos moves {MOVES}");
    step(
        "position startpos moves ..., go depth 3: a legal bestmove",
        Box::new(move |p| search(p, &startpos_moves, "go depth 3", &pos, timeout, None)),
    );
    let kiwipete = Position::from_fen(KIWIPETE).expect("a good FEN");
    let fen = format!("position fen {KIWIPETE}");
    for (what, go, within) in [
        ("go nodes 5000", "go nodes 5000", None),
        ("go depth 4", "go depth 4", None),
        ("go movetime 200 (bestmove within 200 ms + 100 ms)", "go movetime 200", Some(300)),
        ("go wtime btime winc binc", "go wtime 3000 btime 3000 winc 100 binc 100", Some(3000)),
        ("go wtime btime movestogo", "go wtime 2000 btime 2000 movestogo 5", Some(2000)),
    ] {
        let (fen, kiwipete) = (fen.clone(), kiwipete.clone());
        step(
            &format!("position fen ..., {what}: a legal bestmove, the last PV's first move"),
            Box::new(move |p| search(p, &fen, go, &kiwipete, timeout, within)),
        );
    }
    step(
        "go infinite: no bestmove before stop, isready answered while it searches, bestmove after stop",
        Box::new(move |p| infinite(p, &fen, &kiwipete, timeout)),
    );
    let mated = format!("position fen {MATED}");
    step("a checkmated root: bestmove (none) or 0000", Box::new(move |p| no_move(p, &mated, timeout)));
    let stalemate = format!("position fen {STALEMATE}");
    step("a stalemated root: bestmove (none) or 0000", Box::new(move |p| no_move(p, &stalemate, timeout)));
    step("isready after the searches", Box::new(move |p| ready(p, timeout)));
    step("quit ends the process", Box::new(quit));
    let total = steps.len();
    for (i, (what, run)) in steps.into_iter().enumerate() {
        let result = run(&mut process);
        let failed = result.is_err();
        item(&what, result);
        // A failure leaves the engine to answer the next item, unless it is gone or no longer answers.
        if failed && i + 1 < total && !answers(&mut process) {
            let reason = format!("the engine exited or stopped answering; {} items not checked", total - i - 1);
            item("the engine answers after a failed item", Err(reason));
            break;
        }
    }
    items
}

/// The checklist of an xboard (CECP 2) engine, played through Arbiter's own xboard player
/// ([`super::xboard::XboardPlayer`], docs/xboard.md), so that what it checks is what a match needs: the handshake
/// (`xboard`, `protover 2`, the features up to `done=1`), `new` with `ping`/`pong`, a move at a depth (`sd`),
/// after moves (`usermove`), from a FEN (`setboard`), at a fixed time per move (`st`), under a clock
/// (`level`, `time`, `otim`) and with moves to go, each legal and within its time, and `result` then a new game.
pub fn check_xboard(name: &str, engine: &UciEngine, timeout: Duration) -> Vec<CheckItem> {
    use super::xboard::XboardPlayer;
    use super::{GoLimits, GoRequest, Player};
    use crate::chess::ChessGame;
    use crate::game::Game as _;
    let mut items = Vec::new();
    let mut item = |what: &str, result: Result<String, String>| items.push(CheckItem::of(what, result));
    let mut engine = engine.clone();
    engine.handshake_timeout_ms = timeout.as_millis() as u64;
    engine.ping_timeout_ms = timeout.as_millis() as u64;
    engine.stall_timeout_ms = timeout.as_millis() as u64;
    let started = Instant::now();
    let mut player = match XboardPlayer::<ChessGame>::start(name, engine) {
        Ok(player) => player,
        Err(error) => {
            item("xboard, protover 2: the features up to done=1", Err(error.to_string()));
            return items;
        }
    };
    item("xboard, protover 2: the features up to done=1", Ok(format!("{} ms", started.elapsed().as_millis())));
    let game_after = |fen: Option<&str>, moves: &str| {
        let start = fen.map_or_else(Position::startpos, |f| Position::from_fen(f).expect("a good FEN"));
        let mut game = ChessGame::new(start);
        for text in moves.split_whitespace() {
            let m = parse_uci(game.position(), text).expect("the listed moves are legal");
            game.play(m);
        }
        game
    };
    let clock = GoLimits {
        wtime_ms: Some(3000),
        btime_ms: Some(3000),
        winc_ms: Some(100),
        binc_ms: Some(100),
        ..GoLimits::default()
    };
    let to_go = GoLimits { wtime_ms: Some(2000), btime_ms: Some(2000), movestogo: Some(5), ..GoLimits::default() };
    let cases: [(&str, ChessGame, GoLimits, Option<u64>); 5] = [
        (
            "new, ping/pong; a move from the start position at depth 3 (sd 3)",
            game_after(None, ""),
            GoLimits { depth: Some(3), ..GoLimits::default() },
            None,
        ),
        (
            "a move after moves (usermove), depth 3",
            game_after(None, MOVES),
            GoLimits { depth: Some(3), ..GoLimits::default() },
            None,
        ),
        (
            "a move from a FEN (setboard) at 200 ms per move (st), within 300 ms",
            game_after(Some(KIWIPETE), ""),
            GoLimits { movetime_ms: Some(200), ..GoLimits::default() },
            Some(300),
        ),
        (
            "a move under a clock (level 0 0:03 0.1, time, otim), in time",
            game_after(Some(KIWIPETE), ""),
            clock,
            Some(3000),
        ),
        ("a move with moves to go (level 5 ...), in time", game_after(Some(KIWIPETE), ""), to_go, Some(2000)),
    ];
    for (what, game, limits, within) in cases {
        let result = player.new_game().map_err(|e| e.to_string()).and_then(|()| {
            let asked = Instant::now();
            let answer = player.go(&game, &GoRequest { limits, allowed_ms: within }).map_err(|e| e.to_string())?;
            let ms = asked.elapsed().as_millis() as u64;
            let text = game.move_text(answer.mv);
            if !game.legal_moves().contains(&answer.mv) {
                return Err(format!("{text} is not legal in {}", game.fen()));
            }
            match within {
                Some(limit) if ms > limit => Err(format!("{text} after {ms} ms, over {limit} ms")),
                _ => Ok(format!("{text} in {ms} ms")),
            }
        });
        player.game_over("1/2-1/2", "check-engine");
        item(what, result);
    }
    items
}

/// One item's check, run on the engine.
type Run = Box<dyn FnOnce(&mut EngineProcess) -> Result<String, String>>;

/// One `option name N type T default D ...` line of the reply to `uci`.
struct UciOption {
    name: String,
    /// The default to set back; `None` for a button, or a string whose default is empty.
    default: Option<String>,
}

impl UciOption {
    fn parse(line: &str) -> Option<UciOption> {
        let rest = line.trim().strip_prefix("option name ")?;
        let (name, rest) = rest.split_once(" type ")?;
        let kind = rest.split_whitespace().next()?;
        let default = rest.split_once(" default ").map(|(_, d)| {
            let end = [" min ", " max ", " var "].iter().filter_map(|k| d.find(k)).min().unwrap_or(d.len());
            d[..end].trim().to_string()
        });
        let default = match kind {
            "button" => None,
            "string" => default.filter(|d| !d.is_empty() && d != "<empty>"),
            _ => default,
        };
        Some(UciOption { name: name.trim().to_string(), default })
    }
}

/// Whether the engine still runs and answers `isready` within a second (after a failed item).
fn answers(process: &mut EngineProcess) -> bool {
    process.is_running() && process.sync(Duration::from_secs(1)).is_ok()
}

/// Sends `quit` and waits up to 2 s for the process to end.
fn quit(process: &mut EngineProcess) -> Result<String, String> {
    process.send("quit").map_err(|e| e.to_string())?;
    let asked = Instant::now();
    while asked.elapsed() < Duration::from_secs(2) {
        if !process.is_running() {
            return Ok(format!("{} ms", asked.elapsed().as_millis()));
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    Err("still running 2 s after quit".to_string())
}

fn ready(process: &mut EngineProcess, timeout: Duration) -> Result<String, String> {
    let asked = Instant::now();
    process.sync(timeout).map_err(|e| e.to_string())?;
    Ok(format!("{} ms", asked.elapsed().as_millis()))
}

/// The bestmove of the last lines, and the first move of the last `info ... pv` line.
fn best_and_pv(lines: &[String]) -> (String, Option<String>) {
    let best = lines.last().and_then(|l| l.split_whitespace().nth(1)).unwrap_or("").to_string();
    let pv = lines.iter().rev().filter(|l| l.starts_with("info ")).find_map(|l| {
        let mut words = l.split_whitespace();
        words.position(|w| w == "pv")?;
        words.next().map(str::to_string)
    });
    (best, pv)
}

fn wait_best(process: &mut EngineProcess, timeout: Duration) -> Result<Vec<String>, UciError> {
    process.wait_for(|l| l.starts_with("bestmove"), "bestmove", timeout)
}

/// Sends `position` and `go`, waits for the bestmove; checks that it is legal in `pos`, that the last PV starts
/// with it and, with `within` ms, that it came in time.
fn search(
    process: &mut EngineProcess,
    position: &str,
    go: &str,
    pos: &Position,
    timeout: Duration,
    within: Option<u128>,
) -> Result<String, String> {
    process.send(position).and_then(|()| process.send(go)).map_err(|e| e.to_string())?;
    let asked = Instant::now();
    let lines = wait_best(process, timeout).map_err(|e| e.to_string())?;
    let spent = asked.elapsed().as_millis();
    let (best, pv) = best_and_pv(&lines);
    parse_uci(pos, &best).map_err(|e| format!("bestmove {best}: {e}"))?;
    if let Some(pv) = &pv
        && *pv != best
    {
        return Err(format!("bestmove {best}, but the last PV starts with {pv}"));
    }
    if let Some(limit) = within
        && spent > limit
    {
        return Err(format!("bestmove {best} after {spent} ms, more than {limit} ms"));
    }
    Ok(format!("{best} in {spent} ms{}", if pv.is_none() { " (no PV given)" } else { "" }))
}

fn infinite(process: &mut EngineProcess, position: &str, pos: &Position, timeout: Duration) -> Result<String, String> {
    let send = |process: &mut EngineProcess, line: &str| process.send(line).map_err(|e| e.to_string());
    send(process, position)?;
    send(process, "go infinite")?;
    std::thread::sleep(Duration::from_millis(200));
    send(process, "isready")?;
    let lines = process
        .wait_for(|l| l.trim() == "readyok" || l.starts_with("bestmove"), "readyok", timeout)
        .map_err(|e| e.to_string())?;
    if lines.last().is_some_and(|l| l.starts_with("bestmove")) {
        return Err("bestmove before stop".to_string());
    }
    send(process, "stop")?;
    let stopped = Instant::now();
    let lines = wait_best(process, Duration::from_secs(1).min(timeout)).map_err(|e| format!("after stop: {e}"))?;
    let (best, _) = best_and_pv(&lines);
    parse_uci(pos, &best).map_err(|e| format!("bestmove {best}: {e}"))?;
    Ok(format!("{best} {} ms after stop", stopped.elapsed().as_millis()))
}

fn no_move(process: &mut EngineProcess, position: &str, timeout: Duration) -> Result<String, String> {
    process.send(position).and_then(|()| process.send("go depth 2")).map_err(|e| e.to_string())?;
    let lines = wait_best(process, timeout).map_err(|e| e.to_string())?;
    let (best, _) = best_and_pv(&lines);
    match best.as_str() {
        "(none)" | "0000" => Ok(format!("bestmove {best}")),
        other => Err(format!("bestmove {other} where no move is legal")),
    }
}
