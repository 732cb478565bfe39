//! Our engine as a UCI program: reads commands, answers on the output, and searches on a worker thread so that
//! `stop`, `isready` and `quit` are answered while it thinks.
//!
//! Commands: `uci`, `isready`, `ucinewgame`, `setoption name N value V`, `position startpos|fen F [moves ...]`,
//! `go [depth D] [nodes N] [movetime T] [wtime T] [btime T] [winc T] [binc T] [movestogo M] [infinite]`,
//! `go perft N` (the divide and count of the position at N plies, in Stockfish's format: `e2e4: 20` lines, an
//! empty line, `Nodes searched: N`), `stop`, `ponderhit`, `quit`. A malformed command or an illegal move is answered with
//! `info string error: ...` and ignored. Source: the UCI protocol description (Stefan Meyer-Kahlen, 2004).
//!
//! Options: `Hash`, `Threads` (1), `UCI_Chess960`, `MultiPV` (default 1), every weight and search switch.
//! Each iteration prints one `info ... multipv K ... pv ...` line per principal variation, best first, with the
//! real `time` since `go` (ms) and `nps`; an iteration cut short by `stop` or a node or time limit is printed
//! too, so `bestmove` is always the first move of the last `multipv 1` line's `pv`.

use crate::chess::ChessGame;
use crate::chess::Position;
use crate::chess::fen::FenError;
use crate::chess::parse_uci;
use crate::chess::san::MoveTextError;
use crate::engine::chess::search::IterationInfo;
use crate::engine::chess::{Engine, EngineConfig, Limits, MATE, SearchOptions, Weights, is_mate_score};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// The range of every weight option, in centipawns.
pub const WEIGHT_RANGE: (i32, i32) = (-10_000, 10_000);

/// The output shared by the command loop and the search thread; every line is written whole and flushed.
type Out = Arc<Mutex<dyn Write + Send>>;

/// Writes one line to `out` and flushes it; a closed output is ignored (the loop ends on `quit` or EOF).
fn say(out: &Out, line: &str) {
    let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
    let _ = writeln!(w, "{line}");
    let _ = w.flush();
}

/// Why a command sent to our UCI engine cannot be obeyed; the server answers `info string error: ...` with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UciCommandError {
    /// `bench` with words that are not one search depth.
    #[error("bench {text}: expected `bench [DEPTH]` with a depth from 1 to 64")]
    BenchDepth {
        /// The words after `bench`.
        text: String,
    },
    /// A `go` keyword without its value.
    #[error("go {key}: missing value")]
    GoMissing {
        /// The keyword.
        key: String,
    },
    /// A `go` keyword whose value is not an integer.
    #[error("go {key}: expected an integer, found {value:?}")]
    GoValue {
        /// The keyword.
        key: String,
        /// The value sent.
        value: String,
    },
    /// `setoption` without `name`.
    #[error("setoption: expected `name <id> [value <x>]`")]
    SetoptionSyntax,
    /// `setoption name` with no name.
    #[error("setoption: empty option name")]
    EmptyOptionName,
    /// A spin option's value that is not an integer.
    #[error("setoption {name}: expected an integer, found {value:?}")]
    OptionInteger {
        /// The option.
        name: String,
        /// The value sent.
        value: String,
    },
    /// A spin option's value outside its range.
    #[error("setoption {name}: {value} is outside {low}..={high}")]
    OptionRange {
        /// The option.
        name: String,
        /// The value sent.
        value: i64,
        /// The least value.
        low: i64,
        /// The greatest value.
        high: i64,
    },
    /// A check option's value that is neither `true` nor `false`.
    #[error("setoption {name}: expected true or false, found {value:?}")]
    OptionCheck {
        /// The option.
        name: String,
        /// The value sent.
        value: String,
    },
    /// An option the engine does not have.
    #[error("unknown option {name:?}")]
    UnknownOption {
        /// The option.
        name: String,
    },
    /// `position fen` with too few or too many fields.
    #[error("position fen: expected 4 to 6 FEN fields, found {found}")]
    FenFields {
        /// The fields sent.
        found: usize,
    },
    /// `position fen` with a FEN that is not one.
    #[error("position fen: {0}")]
    Fen(FenError),
    /// `position` followed by neither `startpos` nor `fen`.
    #[error("position: expected `startpos` or `fen <FEN>`, then optionally `moves ...`")]
    PositionSyntax,
    /// A move of `position ... moves` that is not UCI move text of a legal move.
    #[error("position: {0}")]
    MoveText(MoveTextError),
    /// A move of `position ... moves` that the game refuses.
    #[error("position: illegal move {}", crate::notation::quote::shown(.text))]
    IllegalMove {
        /// The move text.
        text: String,
    },
}

/// Parses the words after `go` into search limits (ms, plies, nodes); unknown words (and `ponder`,
/// `searchmoves`, `mate`) are returned as warnings and skipped. Negative clock times count as 0.
///
/// # Errors
/// [`UciCommandError::GoMissing`] or [`UciCommandError::GoValue`] naming the keyword whose value is missing or
/// not an integer.
pub fn parse_go(words: &[&str]) -> Result<(Limits, Vec<String>), UciCommandError> {
    let mut p = Limits::default();
    let mut warnings = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let key = words[i];
        let value = |i: &mut usize| -> Result<u64, UciCommandError> {
            *i += 1;
            let v = words.get(*i).ok_or_else(|| UciCommandError::GoMissing { key: key.to_string() })?;
            let n: i64 =
                v.parse().map_err(|_| UciCommandError::GoValue { key: key.to_string(), value: v.to_string() })?;
            Ok(n.max(0) as u64)
        };
        match key {
            "depth" => p.go.depth = Some(value(&mut i)?.min(u64::from(u32::MAX)) as u32),
            "nodes" => p.go.nodes = Some(value(&mut i)?),
            "movetime" => p.go.movetime_ms = Some(value(&mut i)?),
            "wtime" => p.go.wtime_ms = Some(value(&mut i)?),
            "btime" => p.go.btime_ms = Some(value(&mut i)?),
            "winc" => p.go.winc_ms = Some(value(&mut i)?),
            "binc" => p.go.binc_ms = Some(value(&mut i)?),
            "movestogo" => p.go.movestogo = Some(value(&mut i)?.min(u64::from(u32::MAX)) as u32),
            "infinite" => p.infinite = true,
            "ponder" => warnings.push("go ponder is not supported; searching normally".to_string()),
            other => warnings.push(format!("go: ignoring {other:?}")),
        }
        i += 1;
    }
    Ok((p, warnings))
}

/// The UCI `score` field: `cp X`, or `mate N` in moves (positive when the side to move mates).
pub fn score_text(score: i32) -> String {
    if is_mate_score(score) {
        if score > 0 { format!("mate {}", (MATE - score + 1) / 2) } else { format!("mate -{}", (MATE + score) / 2) }
    } else {
        format!("cp {score}")
    }
}

/// The most principal variations `MultiPV` may ask for (the most legal moves a chess position can have).
pub const MAX_MULTIPV: u32 = crate::chess::moves::MAX_MOVES as u32;

/// The `info` line of one principal variation of an iteration; moves in UCI text (`chess960` for
/// king-takes-rook castling). `time` is the wall time since `go` in ms and `nps` comes from the same clock.
pub fn info_line(it: &IterationInfo, chess960: bool) -> String {
    let mut s = format!(
        "info depth {} seldepth {} multipv {} score {} nodes {} nps {} time {} hashfull {}",
        it.depth,
        it.seldepth.max(it.depth),
        it.multipv,
        score_text(it.score),
        it.nodes,
        it.nps,
        it.time_ms,
        it.hashfull
    );
    if !it.pv.is_empty() {
        s.push_str(" pv");
        for m in &it.pv {
            s.push(' ');
            s.push_str(&m.to_uci(chess960));
        }
    }
    s
}

/// The state of the UCI loop: options, the current game and the engine (lent to the search thread while it
/// searches).
pub struct UciServer {
    out: Out,
    config: EngineConfig,
    config_changed: bool,
    new_game: bool,
    chess960: bool,
    /// The `MultiPV` option: principal variations reported per iteration.
    multipv: u32,
    game: ChessGame,
    engine: Option<Engine>,
    worker: Option<(JoinHandle<Engine>, bool)>,
    stop: Arc<AtomicBool>,
}

impl UciServer {
    /// A server with `config` writing to `out`.
    pub fn new(config: EngineConfig, out: impl Write + Send + 'static) -> UciServer {
        let out: Out = Arc::new(Mutex::new(out));
        UciServer {
            out,
            config,
            config_changed: true,
            new_game: false,
            chess960: false,
            multipv: 1,
            game: ChessGame::new(Position::startpos()),
            engine: None,
            worker: None,
            stop: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Reads commands from `input` until `quit` or end of input; at end of input a running search is allowed
    /// to finish (an infinite one is stopped).
    pub fn run(&mut self, input: impl BufRead) {
        for line in input.lines() {
            let Ok(line) = line else { break };
            if !self.handle(&line) {
                self.stop_search();
                return;
            }
        }
        if self.worker.as_ref().is_some_and(|(_, infinite)| *infinite) {
            self.stop.store(true, Ordering::Relaxed);
        }
        self.join_search();
    }

    fn error(&self, message: &str) {
        say(&self.out, &format!("info string error: {message}"));
    }

    /// Handles one command line; returns false on `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        // Words are split at ASCII spaces and tabs (and a line end's CR) only: other whitespace, such as a no-break
        // space, stays inside its word, so that `position fen` refuses it as the FEN reader does.
        let words: Vec<&str> = line.split([' ', '\t', '\r', '\n']).filter(|w| !w.is_empty()).collect();
        let Some(&command) = words.first() else { return true };
        let rest = &words[1..];
        match command {
            "uci" => self.uci(),
            "isready" => say(&self.out, "readyok"),
            "debug" | "register" | "ponderhit" => {}
            "ucinewgame" => self.new_game = true,
            "setoption" => self.setoption(rest),
            "position" => self.position(rest),
            "go" => self.go(rest),
            "stop" => self.stop_search(),
            "quit" => return false,
            "bench" => self.bench(rest),
            other => self.error(&format!("unknown command {other:?}")),
        }
        true
    }

    /// `bench [DEPTH]` (not UCI; Stockfish's and Ethereal's extension, which OpenBench uses): searches the bench
    /// positions with the current build and prints `Bench: <nodes> nodes <nps> nps`, before reading the next
    /// command (a search in progress finishes first).
    fn bench(&mut self, words: &[&str]) {
        self.join_search();
        match bench_line(&self.config, words) {
            Ok(line) => say(&self.out, &line),
            Err(e) => self.error(&e.to_string()),
        }
    }

    fn uci(&self) {
        say(&self.out, &format!("id name Arbiter {}", env!("CARGO_PKG_VERSION")));
        say(&self.out, "id author the Arbiter authors");
        say(
            &self.out,
            &format!(
                "option name Hash type spin default {} min 1 max {}",
                self.config.hash_mb,
                crate::engine::chess::config::MAX_HASH_MB
            ),
        );
        say(&self.out, "option name Threads type spin default 1 min 1 max 1");
        say(&self.out, "option name UCI_Chess960 type check default false");
        say(&self.out, &format!("option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"));
        let values = self.config.weights.to_vec();
        for (name, value) in Weights::names().iter().zip(values) {
            say(
                &self.out,
                &format!("option name {name} type spin default {value} min {} max {}", WEIGHT_RANGE.0, WEIGHT_RANGE.1),
            );
        }
        for key in SearchOptions::KEYS {
            let on = self.config.search.switch(key).unwrap_or(true);
            say(&self.out, &format!("option name {key} type check default {on}"));
        }
        say(&self.out, "uciok");
    }

    fn setoption(&mut self, words: &[&str]) {
        let (name, value) = match parse_setoption(words) {
            Ok(nv) => nv,
            Err(e) => return self.error(&e.to_string()),
        };
        let lower = name.to_ascii_lowercase();
        let int = |lo: i64, hi: i64| -> Result<i64, UciCommandError> {
            let v: i64 = value
                .parse()
                .map_err(|_| UciCommandError::OptionInteger { name: name.clone(), value: value.clone() })?;
            if v < lo || v > hi {
                return Err(UciCommandError::OptionRange { name: name.clone(), value: v, low: lo, high: hi });
            }
            Ok(v)
        };
        let check = || -> Result<bool, UciCommandError> {
            match value.to_ascii_lowercase().as_str() {
                "true" => Ok(true),
                "false" => Ok(false),
                _ => Err(UciCommandError::OptionCheck { name: name.clone(), value: value.clone() }),
            }
        };
        let result: Result<(), UciCommandError> = (|| {
            match lower.as_str() {
                "hash" => self.config.hash_mb = int(1, crate::engine::chess::config::MAX_HASH_MB as i64)? as usize,
                "threads" => {
                    int(1, 1)?;
                }
                "uci_chess960" => self.chess960 = check()?,
                "multipv" => self.multipv = int(1, i64::from(MAX_MULTIPV))? as u32,
                _ => {
                    if let Some(i) = Weights::names().iter().position(|n| n.eq_ignore_ascii_case(&name)) {
                        let v = int(i64::from(WEIGHT_RANGE.0), i64::from(WEIGHT_RANGE.1))? as i32;
                        let mut all = self.config.weights.to_vec();
                        all[i] = v;
                        self.config.weights = Weights::from_vec(&all).expect("to_vec has NUM_WEIGHTS values");
                    } else if let Some(key) = SearchOptions::KEYS.iter().find(|k| k.eq_ignore_ascii_case(&name)) {
                        let on = check()?;
                        *self.config.search.switch_mut(key).expect("a key of SearchOptions::KEYS") = on;
                    } else {
                        return Err(UciCommandError::UnknownOption { name: name.clone() });
                    }
                }
            }
            Ok(())
        })();
        match result {
            Ok(()) => self.config_changed = true,
            Err(e) => self.error(&e.to_string()),
        }
    }

    fn position(&mut self, words: &[&str]) {
        match parse_position(words, self.chess960) {
            Ok(game) => self.game = game,
            Err(e) => self.error(&e.to_string()),
        }
    }

    fn go(&mut self, words: &[&str]) {
        if words.first() == Some(&"perft") {
            return self.perft(&words[1..]);
        }
        let (mut params, warnings) = match parse_go(words) {
            Ok(p) => p,
            Err(e) => return self.error(&e.to_string()),
        };
        params.multipv = self.multipv;
        for w in warnings {
            say(&self.out, &format!("info string {w}"));
        }
        self.stop_search();
        let mut engine = match self.engine.take() {
            Some(e) if !self.config_changed => e,
            _ => Engine::new(self.config.clone()),
        };
        self.config_changed = false;
        if std::mem::take(&mut self.new_game) {
            engine.new_game();
        }
        self.stop = Arc::new(AtomicBool::new(false));
        let stop = Arc::clone(&self.stop);
        let out = Arc::clone(&self.out);
        let pos = self.game.position().clone();
        let keys = self.game.keys().to_vec();
        let chess960 = self.chess960;
        let handle = std::thread::spawn(move || {
            let mut on_iteration = |it: &IterationInfo| say(&out, &info_line(it, chess960));
            let result = engine.search_with(&pos, &keys, &params, &stop, &mut on_iteration);
            // UCI: after `go infinite` the bestmove waits for `stop`.
            while params.infinite && !stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(1));
            }
            say(&out, &format!("bestmove {}", result.best_move.to_uci(chess960)));
            engine
        });
        self.worker = Some((handle, params.infinite));
    }

    /// `go perft N`: every legal move of the position with the leaf count below it at N plies (root moves
    /// counted in parallel, in generation order), an empty line and `Nodes searched: TOTAL`, as Stockfish prints
    /// them (`src/perft.h` and `UCIEngine::perft` in `src/uci.cpp` of official-stockfish/Stockfish). Answered
    /// before the next command is read; a running search is stopped first.
    fn perft(&mut self, words: &[&str]) {
        use crate::game::Rules as _;
        use rayon::prelude::*;
        let max = crate::game::perft::MAX_PERFT_DEPTH;
        let depth = match words {
            [d] => match d.parse::<u32>() {
                Ok(d) if (1..=max).contains(&d) => d,
                _ => return self.error(&format!("go perft {d:?}: expected a depth from 1 to {max}")),
            },
            _ => return self.error("go perft: expected one depth, `go perft N`"),
        };
        self.stop_search();
        let pos = self.game.position().clone();
        let moves = ChessGame::generate(&pos);
        let rows: Vec<(String, u64)> = moves
            .as_ref()
            .par_iter()
            .map(|&m| {
                let mut p = pos.clone();
                ChessGame::make_move(&mut p, m);
                (m.to_uci(self.chess960), ChessGame::perft(&mut p, depth - 1))
            })
            .collect();
        for (m, n) in &rows {
            say(&self.out, &format!("{m}: {n}"));
        }
        say(&self.out, "");
        say(&self.out, &format!("Nodes searched: {}", rows.iter().map(|r| r.1).sum::<u64>()));
    }

    /// Stops a running search and waits for its `bestmove`.
    fn stop_search(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.join_search();
    }

    /// Waits for a running search to finish and takes the engine back.
    fn join_search(&mut self) {
        if let Some((handle, _)) = self.worker.take() {
            match handle.join() {
                Ok(engine) => self.engine = Some(engine),
                Err(_) => {
                    self.error("the search thread panicked");
                    say(&self.out, "bestmove 0000");
                }
            }
        }
    }
}

/// Splits the words after `setoption` into the option name and value (`name` is required; `value` may be
/// absent for buttons, giving an empty value).
///
/// # Errors
/// [`UciCommandError::SetoptionSyntax`] when `name` is missing, [`UciCommandError::EmptyOptionName`] when it is
/// empty.
pub fn parse_setoption(words: &[&str]) -> Result<(String, String), UciCommandError> {
    if words.first() != Some(&"name") {
        return Err(UciCommandError::SetoptionSyntax);
    }
    let value_at = words.iter().position(|w| *w == "value").unwrap_or(words.len());
    let name = words[1..value_at].join(" ");
    if name.is_empty() {
        return Err(UciCommandError::EmptyOptionName);
    }
    let value = words.get(value_at + 1..).map(|v| v.join(" ")).unwrap_or_default();
    Ok((name, value))
}

/// Parses the words after `position` into a game: `startpos` or `fen <4 to 6 fields>`, then optional
/// `moves` in UCI text, played with legality checks (the game keeps every key for repetition detection).
///
/// # Errors
/// A [`UciCommandError`] for a missing or malformed FEN, an unknown keyword, or the first illegal move.
pub fn parse_position(words: &[&str], chess960: bool) -> Result<ChessGame, UciCommandError> {
    let moves_at = words.iter().position(|w| *w == "moves").unwrap_or(words.len());
    let mut start = match words.first() {
        Some(&"startpos") if moves_at == 1 => Position::startpos(),
        Some(&"fen") => {
            let fields = &words[1..moves_at];
            if fields.len() < 4 || fields.len() > 6 {
                return Err(UciCommandError::FenFields { found: fields.len() });
            }
            let mut fen = fields.join(" ");
            if fields.len() == 4 {
                fen.push_str(" 0 1");
            } else if fields.len() == 5 {
                fen.push_str(" 1");
            }
            Position::from_fen_variant(&fen, chess960).map_err(UciCommandError::Fen)?
        }
        _ => return Err(UciCommandError::PositionSyntax),
    };
    if chess960 {
        start.set_chess960(true);
    }
    let mut game = ChessGame::new(start);
    for text in words.get(moves_at + 1..).unwrap_or(&[]) {
        let m = parse_uci(game.position(), text).map_err(UciCommandError::MoveText)?;
        if !game.play(m) {
            return Err(UciCommandError::IllegalMove { text: text.to_string() });
        }
    }
    Ok(game)
}

/// The bench of `config` ([`bench_nodes_with`](crate::engine::chess::bench::bench_nodes_with)) at the depth of
/// `words` (`[DEPTH]`; default [`DEFAULT_BENCH_DEPTH`](crate::engine::chess::bench::DEFAULT_BENCH_DEPTH)), as
/// OpenBench's format prints it: `Bench: <nodes> nodes <nps> nps`.
///
/// # Errors
/// [`UciCommandError::BenchDepth`] for words that are not one depth from 1 to the maximum search depth.
pub fn bench_line(config: &EngineConfig, words: &[&str]) -> Result<String, UciCommandError> {
    use crate::engine::chess::bench::{DEFAULT_BENCH_DEPTH, bench_nodes_with};
    let depth = match words {
        [] => DEFAULT_BENCH_DEPTH,
        [depth] => depth
            .parse::<u32>()
            .ok()
            .filter(|d| (1..=crate::engine::chess::search::MAX_DEPTH).contains(d))
            .ok_or_else(|| UciCommandError::BenchDepth { text: words.join(" ") })?,
        _ => return Err(UciCommandError::BenchDepth { text: words.join(" ") }),
    };
    let start = std::time::Instant::now();
    let nodes = bench_nodes_with(config, depth);
    let ms = (start.elapsed().as_millis() as u64).max(1);
    Ok(format!("Bench: {nodes} nodes {} nps", nodes.saturating_mul(1000) / ms))
}

/// Runs the UCI loop on stdin and stdout with `config` until `quit` or end of input.
pub fn run_stdio(config: EngineConfig) {
    let mut server = UciServer::new(config, std::io::stdout());
    server.run(std::io::stdin().lock());
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `Write` into a shared buffer, to read the server's output in tests.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().expect("test lock").write(buf)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn session(input: &str) -> String {
        let buf = Shared::default();
        let mut server = UciServer::new(EngineConfig::seed(), buf.clone());
        server.run(input.as_bytes());
        let bytes = buf.0.lock().expect("test lock").clone();
        String::from_utf8(bytes).expect("utf-8 output")
    }

    #[test]
    fn go_perft_prints_stockfishs_divide_and_count() {
        let out = session("position startpos moves e2e4\ngo perft 2\nisready\n");
        assert!(out.contains("e7e5: 29\n"), "{out}");
        assert!(out.ends_with("\nNodes searched: 600\nreadyok\n"), "{out}");
        assert_eq!(out.lines().filter(|l| l.contains(": ")).count(), 21, "{out}");
        let out = session("go perft 0\ngo perft x\ngo perft\n");
        assert_eq!(out.matches("info string error: go perft").count(), 3, "{out}");
    }

    #[test]
    fn mate_scores_in_moves() {
        assert_eq!(score_text(MATE - 1), "mate 1");
        assert_eq!(score_text(MATE - 3), "mate 2");
        assert_eq!(score_text(-(MATE - 2)), "mate -1");
        assert_eq!(score_text(35), "cp 35");
    }

    #[test]
    fn handshake_lists_options() {
        let out = session("uci\nisready\nquit\n");
        assert!(out.starts_with("id name Arbiter"));
        assert!(out.contains("option name material[1] type spin"));
        assert!(out.contains("option name null_move type check default true"));
        assert!(out.contains("uciok\nreadyok\n"));
    }

    #[test]
    fn searches_and_reports() {
        let out = session("position startpos moves e2e4 e7e5\ngo depth 3\n");
        assert!(out.contains("info depth 3 "), "{out}");
        let last = out.lines().last().expect("output");
        assert!(last.starts_with("bestmove ") && last.len() >= 13, "{out}");
    }

    #[test]
    fn mate_in_one_and_no_moves() {
        let out = session("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\ngo depth 4\n");
        assert!(out.contains("score mate 1"), "{out}");
        assert!(out.contains("bestmove a1a8"), "{out}");
        let out = session("position fen R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1\ngo depth 4\nisready\n");
        assert!(out.contains("bestmove 0000"), "{out}");
    }

    #[test]
    fn errors_are_reported_and_ignored() {
        let out = session(
            "position startpos moves e2e5\nposition fen x\nsetoption name Nope value 1\nsetoption name Hash value \
             x\ngo depth x\nfoo\nisready\n",
        );
        assert_eq!(out.matches("info string error:").count(), 6, "{out}");
        assert!(out.ends_with("readyok\n"));
    }

    #[test]
    fn words_split_at_ascii_spaces_and_tabs_only() {
        // A no-break space inside the FEN is not a separator: the FEN is refused, and no search runs on it.
        let out = session("position fen 4k3/8/8/8/8/8/8/4K3\u{a0}w - - 0 1\ngo depth 1\nisready\n");
        assert!(out.contains("info string error: position fen"), "{out}");
        // Tabs and a CR before the line end are separators.
        let out = session("position\tfen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\r\ngo\tdepth 2\r\nisready\n");
        assert!(out.contains("bestmove a1a8"), "{out}");
    }

    #[test]
    fn infinite_waits_for_stop() {
        let out = session("go infinite\nisready\nstop\nisready\n");
        let ready = out.find("readyok").expect("readyok");
        let best = out.find("bestmove").expect("bestmove");
        assert!(ready < best, "{out}");
    }
}
