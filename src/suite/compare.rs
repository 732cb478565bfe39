//! Perft comparison with descent: run divide on two perft oracles, and while they agree on the set of moves
//! but not on a count, descend into the first move (in sorted UCI order) whose counts differ, until the exact
//! position and move list where the move sets differ is found.

use crate::game::Game;
use crate::uci::{EngineProcess, UciError};
use std::collections::BTreeMap;
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

/// Something that can count perft divided by root move: Arbiter itself or an external engine.
pub trait PerftOracle {
    /// A name for reports.
    fn name(&self) -> String;
    /// The divide of the position reached from `fen` by `moves` (UCI text), at `depth` plies (at least 1).
    ///
    /// # Errors
    /// [`CompareError`] when the position cannot be set up or the engine fails.
    fn divide(&mut self, fen: &str, moves: &[String], depth: u32) -> Result<Divide, CompareError>;
}

/// Plays `moves` (the game's move text) from `fen`.
///
/// # Errors
/// [`CompareError::Setup`] naming the FEN and moves when the FEN or a move is not legal.
pub fn replay<G: Game>(fen: &str, moves: &[String], chess960: bool) -> Result<G::Position, CompareError> {
    let err = |reason: String| CompareError::Setup { fen: fen.to_string(), moves: moves.to_vec(), reason };
    let mut pos = G::read_fen(fen, chess960).map_err(|e| err(e.to_string()))?;
    for m in moves {
        let mv = G::parse_move_at(&pos, m).map_err(|e| err(e.to_string()))?;
        G::make_move(&mut pos, mv);
    }
    Ok(pos)
}

/// A move filter of [`ArbiterOracle::filtered`]: whether to keep a move of a position.
pub type MoveFilter<G> = fn(&<G as Game>::Position, <G as Game>::Move) -> bool;

/// Arbiter's own generator for game `G` as an oracle; optionally with a move filter applied at every node (to
/// build a deliberately wrong oracle for tests).
pub struct ArbiterOracle<G: Game> {
    chess960: bool,
    filter: Option<MoveFilter<G>>,
}

impl<G: Game> ArbiterOracle<G> {
    /// Arbiter's generator, unmodified.
    pub fn new(chess960: bool) -> ArbiterOracle<G> {
        ArbiterOracle { chess960, filter: None }
    }

    /// Arbiter's generator keeping only the moves for which `keep` is true, at every node.
    pub fn filtered(chess960: bool, keep: MoveFilter<G>) -> ArbiterOracle<G> {
        ArbiterOracle { chess960, filter: Some(keep) }
    }

    fn count(&self, pos: &mut G::Position, depth: u32) -> u64 {
        let Some(keep) = self.filter else { return G::perft(pos, depth) };
        if depth == 0 {
            return 1;
        }
        let mut n = 0;
        let moves = G::generate(pos);
        let kept: Vec<G::Move> = moves.as_ref().iter().copied().filter(|&m| keep(pos, m)).collect();
        for m in kept {
            let undo = G::make_move(pos, m);
            n += self.count(pos, depth - 1);
            G::unmake_move(pos, m, &undo);
        }
        n
    }
}

impl<G: Game> PerftOracle for ArbiterOracle<G> {
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
            let n = self.count(&mut pos, depth.max(1) - 1);
            G::unmake_move(&mut pos, m, &undo);
            out.insert(G::move_text_at(&pos, m), n);
        }
        Ok(out)
    }
}

/// An external UCI engine that supports `go perft N` with a divide in Stockfish's format (`e2e4: 20` lines,
/// then `Nodes searched: N`); for Xiangqi, Fairy-Stockfish with `UCI_Variant` `xiangqi`, its moves rewritten
/// from ranks 1..10 to ours.
pub struct UciPerftOracle {
    engine: EngineProcess,
    timeout: Duration,
    /// Our move text as the engine writes it.
    to_engine: fn(&str) -> String,
    /// The engine's move text as ours.
    from_engine: fn(&str) -> Option<String>,
}

impl UciPerftOracle {
    /// Starts the engine for game `G`: sets the game's UCI options ([`Game::uci_options`], e.g.
    /// `UCI_Chess960` when `chess960`, `UCI_Variant` `xiangqi`) and translates move text with the game's rules.
    /// `timeout` bounds every reply.
    ///
    /// # Errors
    /// [`CompareError::Uci`] when the engine cannot be started or does not answer.
    pub fn start<G: Game>(cmd: &str, chess960: bool, timeout: Duration) -> Result<UciPerftOracle, CompareError> {
        let mut engine = EngineProcess::start(cmd, &[], timeout)?;
        for (name, value) in G::uci_options(chess960) {
            engine.set_option(name, value)?;
        }
        engine.sync(timeout)?;
        Ok(UciPerftOracle { engine, timeout, to_engine: G::to_engine_text, from_engine: G::from_engine_text })
    }
}

impl PerftOracle for UciPerftOracle {
    fn name(&self) -> String {
        self.engine.cmd().to_string()
    }

    fn divide(&mut self, fen: &str, moves: &[String], depth: u32) -> Result<Divide, CompareError> {
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
        let lines = self.engine.wait_for(|l| l.starts_with("Nodes searched"), "Nodes searched", self.timeout)?;
        let mut out = Divide::new();
        for line in &lines {
            let Some((mv, n)) = line.split_once(':') else { continue };
            let mv = mv.trim();
            // 4 or 5 characters in chess (`e7e8q`), up to 6 for Xiangqi in ranks 1..10 (`a10i10`).
            if mv.len() < 4 || mv.len() > 6 || mv.contains(' ') {
                continue;
            }
            let bad = |reason: &str| UciError::BadReply {
                cmd: self.engine.cmd().to_string(),
                line: line.clone(),
                reason: reason.into(),
            };
            let n = n.trim().parse::<u64>().map_err(|_| bad("expected `move: count`"))?;
            let ours = (self.from_engine)(mv).ok_or_else(|| bad("the move is not in the notation expected"))?;
            out.insert(ours, n);
        }
        Ok(out)
    }
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
/// of the position ([`Game::position_fen`] of `fen` read), never `fen` as written.
///
/// If the move sets agree at every level but counts still differ down to depth 1 (one oracle counts a move
/// twice, say), the divergence reports empty move differences at the deepest position reached.
///
/// # Errors
/// [`CompareError`] when either oracle fails, [`CompareError::Setup`] when `fen` is not a legal position.
pub fn find_divergence<G: Game>(
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
    use crate::chess::{Game, Move, MoveKind, Position};

    fn no_en_passant(_: &Position, m: Move) -> bool {
        m.kind() != MoveKind::EnPassant
    }

    #[test]
    fn descent_names_the_first_position_where_oracles_differ() {
        // From the start position at depth 5 the descent follows the first differing move in sorted UCI order
        // at each level: a2a4, then a7a6 (the first Black reply that allows an en-passant capture later), a4a5,
        // b7b5, where a5b6 en passant is the one move the filtered oracle lacks.
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let mut good = ArbiterOracle::<Game>::new(false);
        let mut bad = ArbiterOracle::<Game>::filtered(false, no_en_passant);
        let d = find_divergence::<Game>(&mut good, &mut bad, fen, 5, false).unwrap().expect("they differ");
        assert_eq!(d.only_second, Vec::<String>::new());
        assert_eq!(d.only_first.len(), 1);
        let pos: Position = replay::<Game>(fen, &d.moves, false).unwrap();
        let ep = pos.legal_moves().iter().copied().find(|m| m.kind() == MoveKind::EnPassant).expect("an ep capture");
        assert_eq!(d.only_first, vec![ep.to_uci(false)]);
        assert_eq!(d.depth, 5 - d.moves.len() as u32);
        assert_eq!(d.fen, pos.to_fen());
        assert_eq!(d.root_counts.0, 4_865_609);
        assert!(d.root_counts.1 < d.root_counts.0);
        assert_eq!(d.moves, ["a2a4", "a7a6", "a4a5", "b7b5"]);
        assert_eq!(d.only_first, ["a5b6"]);
        let mut same = ArbiterOracle::<Game>::new(false);
        assert!(find_divergence::<Game>(&mut good, &mut same, fen, 4, false).unwrap().is_none());
    }

    /// An oracle that records the FENs it is given and answers with Arbiter's own divide.
    struct Recording(Vec<String>);

    impl PerftOracle for Recording {
        fn name(&self) -> String {
            "recording".to_string()
        }

        fn divide(&mut self, fen: &str, moves: &[String], depth: u32) -> Result<Divide, CompareError> {
            self.0.push(fen.to_string());
            ArbiterOracle::<Game>::new(false).divide(fen, moves, depth)
        }
    }

    #[test]
    fn oracles_get_arbiters_own_fen_never_the_input_text() {
        // Doubled spaces and tabs, no clocks, and an en-passant square with no capture: the oracle sees the FEN
        // Arbiter writes for the position.
        let input = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR  b\tKQkq e3";
        let mut ours = ArbiterOracle::<Game>::new(false);
        let mut theirs = Recording(Vec::new());
        assert!(find_divergence::<Game>(&mut ours, &mut theirs, input, 2, false).unwrap().is_none());
        assert_eq!(theirs.0, ["rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"]);
        let err = find_divergence::<Game>(&mut ours, &mut theirs, "4k3/8/3N1N2/8/8/8/8/4K3 b - - 0 1", 2, false);
        assert!(matches!(err, Err(CompareError::Setup { .. })));
    }
}
