//! The Xiangqi search: iterative deepening over a fail-soft negamax principal variation search with a
//! captures-only quiescence search ordered by MVV-LVA, a Zobrist-keyed transposition table, check extension,
//! node and time limits, and the repetition rule of [`crate::xiangqi::game`] (a repeated position is a draw,
//! unless one side gave check with every one of its moves in the cycle: that side loses). Techniques follow the
//! chessprogramming wiki pages of the same names.
//!
//! Node counting: every call of the main search or the quiescence search counts one node (the root does not).
//! With only depth and node limits the search is deterministic: the same config, position, history and limits
//! give the same move, score and node count, for a fresh engine as for one after [`XiangqiEngine::new_game`].
//!
//! Inside the search a position counts as repeated at its first recurrence (one earlier occurrence since the last
//! capture, in the game or on the search path), the usual engine shortcut for the game's threefold rule.

use super::config::XiangqiConfig;
use super::eval::evaluate;
use crate::engine::SearchLimits;
use crate::xiangqi::game::{RepetitionVerdict, repetition_verdict};
use crate::xiangqi::position::Position;
use crate::xiangqi::types::{Move, MoveList, PieceType};
use std::time::Instant;

/// The score of mating now, in centipawns; mate in `n` plies scores `MATE - n` for the mating side.
pub const MATE: i32 = 30_000;

/// The deepest ply the search reaches, extensions and quiescence included.
pub const MAX_PLY: usize = 100;

/// The deepest iteration, in plies.
pub const MAX_DEPTH: u32 = 64;

const INF: i32 = MATE + 1;

/// True when `score` announces a forced mate (or a win by the perpetual-check rule) within [`MAX_PLY`] plies.
pub fn is_mate_score(score: i32) -> bool {
    score.abs() >= MATE - MAX_PLY as i32 && score.abs() <= MATE
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XiangqiSearchResult {
    /// The move to play; `None` when the side to move has no legal move.
    pub best_move: Option<Move>,
    /// The score in centipawns from the side to move's view; mates are `±(MATE - plies)`.
    pub score: i32,
    /// The depth of the last completed iteration, in plies.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// The principal variation from the transposition table, starting with `best_move`.
    pub pv: Vec<Move>,
}

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    mv: u16,
    score: i32,
    depth: i16,
    bound: u8,
}

const EXACT: u8 = 1;
const LOWER: u8 = 2;
const UPPER: u8 = 3;

/// The built-in Xiangqi engine: a configuration and a transposition table kept between the searches of a game.
pub struct XiangqiEngine {
    config: XiangqiConfig,
    table: Vec<Entry>,
}

/// One search's state.
struct Search<'a> {
    engine: &'a mut XiangqiEngine,
    /// `(key, side to move in check)` for every position of the game and of the search path, the current last.
    stack: Vec<(u64, bool)>,
    /// How many of `stack` positions lie since the last capture or the start (repetitions are looked for there).
    reversible: Vec<usize>,
    nodes: u64,
    limits: SearchLimits,
    start: Instant,
    stopped: bool,
}

impl XiangqiEngine {
    /// An engine with `config` and an empty transposition table of `config.hash_mb` MiB.
    pub fn new(config: XiangqiConfig) -> XiangqiEngine {
        let entries = (config.hash_mb * 1024 * 1024 / std::mem::size_of::<Entry>()).max(1);
        XiangqiEngine { config, table: vec![Entry::default(); entries] }
    }

    /// The configuration.
    pub fn config(&self) -> &XiangqiConfig {
        &self.config
    }

    /// Clears the transposition table, so that the next search does not depend on earlier ones.
    pub fn new_game(&mut self) {
        self.table.fill(Entry::default());
    }

    /// Searches `pos`, reached after the positions `history` (the game's earlier positions as `(key, side to move
    /// in check)`, oldest first, not including `pos`), under `limits`.
    pub fn search(&mut self, pos: &Position, history: &[(u64, bool)], limits: SearchLimits) -> XiangqiSearchResult {
        let mut pos = pos.clone();
        let mut stack = history.to_vec();
        stack.push((pos.key(), pos.in_check(pos.side_to_move())));
        let reversible = vec![usize::from(pos.halfmove_clock()).min(history.len()) + 1];
        let mut search =
            Search { engine: self, stack, reversible, nodes: 0, limits, start: Instant::now(), stopped: false };
        let root_moves = pos.legal_moves_in_place();
        if root_moves.is_empty() {
            return XiangqiSearchResult { best_move: None, score: -MATE, depth: 0, nodes: 0, pv: Vec::new() };
        }
        let mut best = XiangqiSearchResult {
            best_move: Some(root_moves.as_slice()[0]),
            score: 0,
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
        };
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        for depth in 1..=max_depth {
            let (score, mv) = search.root(&mut pos, depth as i32);
            if search.stopped && depth > 1 {
                break;
            }
            best.best_move = mv.or(best.best_move);
            best.score = score;
            best.depth = depth;
            if search.stopped {
                break;
            }
            if is_mate_score(score) && (MATE - score.abs()) as u32 <= depth {
                break;
            }
            if let Some(ms) = limits.movetime_ms
                && search.start.elapsed().as_millis() as u64 * 2 >= ms
            {
                break;
            }
        }
        best.nodes = search.nodes;
        best.pv = search.engine.pv(&pos, best.best_move);
        best
    }

    fn slot(&self, key: u64) -> usize {
        ((u128::from(key) * self.table.len() as u128) >> 64) as usize
    }

    fn probe(&self, key: u64) -> Option<Entry> {
        let e = self.table[self.slot(key)];
        (e.bound != 0 && e.key == key).then_some(e)
    }

    fn store(&mut self, key: u64, e: Entry) {
        let i = self.slot(key);
        self.table[i] = Entry { key, ..e };
    }

    /// The principal variation: `first`, then the table's moves while they are legal and new.
    fn pv(&self, pos: &Position, first: Option<Move>) -> Vec<Move> {
        let mut pos = pos.clone();
        let mut pv = Vec::new();
        let mut next = first;
        let mut seen = Vec::new();
        while let Some(m) = next {
            if !pos.legal_moves_in_place().contains(m) || seen.contains(&pos.key()) || pv.len() >= MAX_PLY {
                break;
            }
            seen.push(pos.key());
            pos.make_move(m);
            pv.push(m);
            next = self.probe(pos.key()).and_then(|e| (e.mv != 0).then(|| decode(e.mv)));
        }
        pv
    }
}

fn encode(m: Move) -> u16 {
    (m.from().index() as u16) | (m.to().index() as u16) << 7 | 0x8000
}

fn decode(code: u16) -> Move {
    use crate::xiangqi::types::Square;
    Move::new(Square::from_index(usize::from(code & 0x7F)), Square::from_index(usize::from((code >> 7) & 0x7F)))
}

/// MVV-LVA order value of a victim or attacker kind: general 6 .. soldier 0 by value.
fn kind_value(kind: PieceType) -> i32 {
    match kind {
        PieceType::General => 7,
        PieceType::Chariot => 6,
        PieceType::Cannon => 5,
        PieceType::Horse => 4,
        PieceType::Advisor | PieceType::Elephant => 2,
        PieceType::Soldier => 1,
    }
}

impl Search<'_> {
    fn out_of_budget(&mut self) -> bool {
        if let Some(n) = self.limits.nodes
            && self.nodes >= n
        {
            self.stopped = true;
        }
        if self.nodes.is_multiple_of(1024)
            && let Some(ms) = self.limits.movetime_ms
            && self.start.elapsed().as_millis() as u64 >= ms
        {
            self.stopped = true;
        }
        self.stopped
    }

    /// Ordered moves: the table move first, then captures by MVV-LVA, then quiet moves in generation order.
    fn ordered(&self, pos: &Position, moves: &MoveList, tt_move: Option<Move>) -> Vec<(i32, Move)> {
        let mut scored: Vec<(i32, Move)> = moves
            .iter()
            .map(|&m| {
                let score = if Some(m) == tt_move {
                    1_000_000
                } else if let Some(victim) = pos.piece_on(m.to()) {
                    let attacker = pos.piece_on(m.from()).expect("a move starts on a piece").kind;
                    10_000 + kind_value(victim.kind) * 16 - kind_value(attacker)
                } else {
                    0
                };
                (score, m)
            })
            .collect();
        // A stable sort keeps generation order among equals, so the search stays deterministic.
        scored.sort_by_key(|&(s, _)| std::cmp::Reverse(s));
        scored
    }

    /// Makes `m`, pushing the new position on the repetition stack.
    fn make(&mut self, pos: &mut Position, m: Move) -> crate::xiangqi::position::Undo {
        let capture = pos.piece_on(m.to()).is_some();
        let undo = pos.make_move(m);
        self.stack.push((pos.key(), pos.in_check(pos.side_to_move())));
        let last = *self.reversible.last().expect("the root pushes one");
        self.reversible.push(if capture { 1 } else { last + 1 });
        undo
    }

    fn unmake(&mut self, pos: &mut Position, m: Move, undo: &crate::xiangqi::position::Undo) {
        self.stack.pop();
        self.reversible.pop();
        pos.unmake_move(m, undo);
    }

    /// The repetition score of the current position from the side to move's view, if it repeats an earlier one.
    fn repetition(&self, ply: usize) -> Option<i32> {
        let n = *self.reversible.last().expect("non-empty");
        match repetition_verdict(&self.stack[self.stack.len() - n..], 2)? {
            RepetitionVerdict::Draw => Some(0),
            RepetitionVerdict::MoverLoses => Some(MATE - ply as i32),
            RepetitionVerdict::SideToMoveLoses => Some(-(MATE - ply as i32)),
        }
    }

    fn root(&mut self, pos: &mut Position, depth: i32) -> (i32, Option<Move>) {
        let tt_move = self.engine.probe(pos.key()).and_then(|e| (e.mv != 0).then(|| decode(e.mv)));
        let moves = pos.legal_moves_in_place();
        let ordered = self.ordered(pos, &moves, tt_move);
        let (mut alpha, beta) = (-INF, INF);
        let mut best: Option<Move> = None;
        let mut best_score = -INF;
        for (i, &(_, m)) in ordered.iter().enumerate() {
            let undo = self.make(pos, m);
            let score = if i == 0 {
                -self.negamax(pos, depth - 1, -beta, -alpha, 1)
            } else {
                let s = -self.negamax(pos, depth - 1, -alpha - 1, -alpha, 1);
                if s > alpha && !self.stopped { -self.negamax(pos, depth - 1, -beta, -alpha, 1) } else { s }
            };
            self.unmake(pos, m, &undo);
            if self.stopped {
                break;
            }
            if score > best_score {
                best_score = score;
                best = Some(m);
                alpha = alpha.max(score);
            }
        }
        if let Some(m) = best {
            self.engine.store(
                pos.key(),
                Entry { key: 0, mv: encode(m), score: best_score, depth: depth as i16, bound: EXACT },
            );
        }
        (best_score, best)
    }

    fn negamax(&mut self, pos: &mut Position, depth: i32, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        if let Some(score) = self.repetition(ply) {
            return score;
        }
        let in_check = self.stack.last().expect("non-empty").1;
        let depth = if in_check { depth + 1 } else { depth };
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.quiescence(pos, alpha, beta, ply);
        }
        let key = pos.key();
        let entry = self.engine.probe(key);
        if let Some(e) = entry
            && i32::from(e.depth) >= depth
        {
            let score = from_tt(e.score, ply);
            let cut = match e.bound {
                EXACT => true,
                LOWER => score >= beta,
                _ => score <= alpha,
            };
            if cut {
                return score;
            }
        }
        let tt_move = entry.and_then(|e| (e.mv != 0).then(|| decode(e.mv)));
        let moves = pos.legal_moves_in_place();
        if moves.is_empty() {
            // Checkmate and stalemate both lose in Xiangqi.
            return -(MATE - ply as i32);
        }
        let original_alpha = alpha;
        let mut best_score = -INF;
        let mut best_move = None;
        for (i, (_, m)) in self.ordered(pos, &moves, tt_move).into_iter().enumerate() {
            let undo = self.make(pos, m);
            let score = if i == 0 {
                -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1)
            } else {
                let s = -self.negamax(pos, depth - 1, -alpha - 1, -alpha, ply + 1);
                if s > alpha && s < beta && !self.stopped {
                    -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1)
                } else {
                    s
                }
            };
            self.unmake(pos, m, &undo);
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        let bound = if best_score >= beta {
            LOWER
        } else if best_score > original_alpha {
            EXACT
        } else {
            UPPER
        };
        let mv = best_move.map_or(0, encode);
        self.engine.store(key, Entry { key: 0, mv, score: to_tt(best_score, ply), depth: depth as i16, bound });
        best_score
    }

    fn quiescence(&mut self, pos: &mut Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        let stand_pat = evaluate(pos, &self.engine.config.weights);
        if stand_pat >= beta || ply >= MAX_PLY - 1 {
            return stand_pat;
        }
        alpha = alpha.max(stand_pat);
        let mut best = stand_pat;
        let mut moves = pos.legal_moves_in_place();
        moves.retain(|m| pos.piece_on(m.to()).is_some());
        for (_, m) in self.ordered(pos, &moves, None) {
            let undo = self.make(pos, m);
            let score = -self.quiescence(pos, -beta, -alpha, ply + 1);
            self.unmake(pos, m, &undo);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// A mate score stored relative to the node, not the root.
fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE - MAX_PLY as i32 {
        score + ply as i32
    } else if score <= -(MATE - MAX_PLY as i32) {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE - MAX_PLY as i32 {
        score - ply as i32
    } else if score <= -(MATE - MAX_PLY as i32) {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::xiangqi::config::XiangqiConfig;

    fn engine(name: &str) -> XiangqiEngine {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("configs/xiangqi/{name}.toml"));
        XiangqiEngine::new(XiangqiConfig::load(&path).unwrap())
    }

    fn go(fen: &str, limits: SearchLimits) -> XiangqiSearchResult {
        engine("seed").search(&Position::from_fen(fen).unwrap(), &[], limits)
    }

    #[test]
    fn finds_mate_in_one() {
        // Chariot a8 holds rank 8; b1b9 checks along rank 9 and the general has no square.
        let r = go("4k4/R8/9/9/9/9/9/9/1R7/3K5 w - - 0 1", SearchLimits { depth: Some(3), ..Default::default() });
        assert_eq!(r.best_move.map(|m| m.to_text()), Some("b1b9".to_string()));
        assert_eq!(r.score, MATE - 1);
    }

    #[test]
    fn takes_a_hanging_chariot() {
        // The advisors on d9 and f9 leave Red no checking tactic: the free chariot on a4 is the best move.
        let r = go("3aka3/9/9/9/9/r8/9/9/9/R2K5 w - - 0 1", SearchLimits { depth: Some(3), ..Default::default() });
        assert_eq!(r.best_move.map(|m| m.to_text()), Some("a0a4".to_string()));
    }

    #[test]
    fn node_limited_search_is_deterministic() {
        let limits = SearchLimits { nodes: Some(3000), ..Default::default() };
        let a = go(crate::xiangqi::START_FEN, limits);
        let mut e = engine("seed");
        let pos = Position::startpos();
        e.search(&pos, &[], SearchLimits { depth: Some(3), ..Default::default() });
        e.new_game();
        let b = e.search(&pos, &[], limits);
        assert_eq!(a, b);
        assert_eq!(a.nodes, 3000);
    }

    #[test]
    fn no_legal_move_scores_a_loss() {
        // Red is mated: the Black chariot on rank 0 and one on rank 1.
        let r = go("4k4/9/9/9/9/9/9/9/r8/1r1K5 w - - 0 1", SearchLimits { depth: Some(2), ..Default::default() });
        assert_eq!((r.best_move, r.score), (None, -MATE));
    }
}
