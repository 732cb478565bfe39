//! The search: iterative deepening over a negamax alpha-beta search (fail-soft, principal variation search)
//! with a captures-only quiescence search, check extension, a transposition table, MVV-LVA ordering, killer
//! moves and a history heuristic, mate scores and draw detection.
//!
//! Node counting: every call of the main search or the quiescence search counts one node (the root itself
//! does not). With only depth and node limits the search is fully deterministic: the same config, position,
//! history and limits give the same move, score, node count and pv, for a fresh [`Engine`] as for one after
//! [`Engine::new_game`].

use super::config::EngineConfig;
use super::eval::evaluate;
use super::tt::{Bound, TranspositionTable};
use crate::chess::moves::MAX_MOVES;
use crate::chess::{Move, MoveKind, MoveList, PieceType, Position};
use std::time::{Duration, Instant};

/// The score of delivering mate now, in centipawns; mate in `n` plies scores `MATE - n` for the side that mates
/// and `-(MATE - n)` for the side that is mated.
pub const MATE: i32 = 32_000;

/// The deepest ply (half-moves from the root) the search reaches, extensions and quiescence included; scores
/// within `MAX_PLY` of [`MATE`] are mate scores.
pub const MAX_PLY: usize = 128;

/// The deepest iteration: a depth limit above it (or no limit at all) searches to this depth, in plies.
pub const MAX_DEPTH: u32 = 64;

/// Larger than any score.
const INF: i32 = MATE + 1;

/// Static evaluations are clamped inside this bound so that they never look like mate scores.
const EVAL_BOUND: i32 = MATE - MAX_PLY as i32 - 1;

/// True when `score` (centipawns) announces a forced mate for either side (within [`MAX_PLY`] plies).
pub fn is_mate_score(score: i32) -> bool {
    let a = score.unsigned_abs();
    a >= (MATE - MAX_PLY as i32) as u32 && a <= MATE as u32
}

/// When to stop searching. The default (all `None`) means no limit: the search runs to depth [`MAX_DEPTH`]
/// (64 plies). With several limits the first one reached stops the search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// The deepest iteration, in plies (0 counts as 1; above [`MAX_DEPTH`] counts as [`MAX_DEPTH`]).
    pub depth: Option<u32>,
    /// Stop when the node counter reaches this many nodes.
    pub nodes: Option<u64>,
    /// Stop after this many milliseconds of wall time (checked every 1024 nodes; no new iteration starts after
    /// half of it). A time limit makes the result depend on the machine.
    pub movetime_ms: Option<u64>,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play: always legal when the position has a legal move, `Move::NULL` when it has none.
    pub best_move: Move,
    /// The score in centipawns from the side to move's view; mate scores are `±(MATE - plies)`. With no legal
    /// move: `-MATE` when checkmated, 0 when stalemated.
    pub score: i32,
    /// The depth in plies of the last completed iteration (0 when none completed). It can stay below the depth
    /// limit: deepening stops once a mate no further than the searched depth is proven.
    pub depth: u32,
    /// The nodes searched.
    pub nodes: u64,
    /// The principal variation, starting with `best_move` (may be cut short by transposition-table hits).
    pub pv: Vec<Move>,
}

/// Another name for [`SearchResult`].
pub type SearchInfo = SearchResult;

/// The built-in engine: a configuration and a transposition table that persists between searches of a game.
pub struct Engine {
    config: EngineConfig,
    tt: TranspositionTable,
}

impl Engine {
    /// An engine with `config`; allocates a transposition table of `config.hash_mb` MiB (at least one bucket;
    /// like any allocation, aborts when memory runs out).
    pub fn new(config: EngineConfig) -> Engine {
        let tt = TranspositionTable::new(config.hash_mb);
        Engine { config, tt }
    }

    /// The configuration this engine was built with.
    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// Forgets everything learnt: clears the transposition table (killers and history are per search). After
    /// it the engine searches exactly as a fresh one.
    pub fn new_game(&mut self) {
        self.tt.clear();
    }

    /// Searches `pos` within `limits` and returns the best move found.
    ///
    /// `history` holds the Zobrist keys of all positions of the game so far, the start first and `pos` last
    /// (as `Game::keys()` returns them); a position that repeats one of them, or one earlier on the search path,
    /// scores as a draw. If `history` does not end with `pos`'s key, `pos` is taken to follow it. Never panics
    /// on a legal position; returns a legal move whenever one exists, even when a limit is hit at once.
    pub fn search(&mut self, pos: &Position, history: &[u64], limits: &Limits) -> SearchResult {
        self.tt.new_search();
        let mut keys = Vec::with_capacity(history.len() + MAX_PLY + 2);
        keys.extend_from_slice(history);
        if keys.last() != Some(&pos.key()) {
            keys.push(pos.key());
        }
        let start = Instant::now();
        let mut searcher = Box::new(Searcher {
            pos: pos.clone(),
            weights: &self.config.weights,
            tt: &mut self.tt,
            keys,
            nodes: 0,
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            deadline: limits.movetime_ms.and_then(|ms| start.checked_add(Duration::from_millis(ms))),
            stopped: false,
            root_depth: 0,
            killers: [[Move::NULL; 2]; MAX_PLY],
            history: [[0; 64]; 12],
            pv: [[Move::NULL; MAX_PLY]; MAX_PLY],
            pv_len: [0; MAX_PLY],
        });
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let soft_deadline = limits.movetime_ms.and_then(|ms| start.checked_add(Duration::from_millis(ms / 2)));
        searcher.iterate(max_depth, soft_deadline)
    }
}

/// The state of one search: the position being searched, counters and the per-search heuristics.
struct Searcher<'a> {
    pos: Position,
    weights: &'a super::weights::Weights,
    tt: &'a mut TranspositionTable,
    /// Keys of the game before the root, the root, then one per ply of the current search path.
    keys: Vec<u64>,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    stopped: bool,
    root_depth: u32,
    killers: [[Move; 2]; MAX_PLY],
    /// Quiet-move history, indexed by moving piece (`Piece::index`) and target square.
    history: [[i32; 64]; 12],
    /// Triangular principal-variation table: `pv[ply][ply..pv_len[ply]]` is the line from `ply`.
    pv: [[Move; MAX_PLY]; MAX_PLY],
    pv_len: [usize; MAX_PLY],
}

/// Move-ordering scores: the transposition-table move first, then captures and queen promotions by MVV-LVA,
/// killers, quiet moves by history, under-promotions last.
const ORDER_TT: i32 = 1_000_000;
const ORDER_CAPTURE: i32 = 100_000;
const ORDER_KILLER: i32 = 90_000;
const HISTORY_MAX: i32 = 50_000;
const ORDER_UNDERPROMOTION: i32 = -100_000;

/// The MVV-LVA score of `attacker` taking `victim`: most valuable victim first, then least valuable attacker
/// (chessprogramming wiki, "MVV-LVA").
#[inline]
fn mvv_lva(victim: PieceType, attacker: PieceType) -> i32 {
    8 * (victim.index() as i32 + 1) - attacker.index() as i32
}

impl Searcher<'_> {
    /// Iterative deepening from depth 1 to `max_depth`.
    fn iterate(&mut self, max_depth: u32, soft_deadline: Option<Instant>) -> SearchResult {
        let mut root_moves = self.pos.legal_moves();
        if root_moves.is_empty() {
            let score = if self.pos.in_check() { -MATE } else { 0 };
            return SearchResult { best_move: Move::NULL, score, depth: 0, nodes: 0, pv: Vec::new() };
        }
        let tt_move = self.tt.probe(self.pos.key(), 0).map_or(Move::NULL, |p| p.best);
        self.sort_moves(&mut root_moves, tt_move, 0);
        let mut result = SearchResult {
            best_move: root_moves.as_slice()[0],
            score: self.static_eval(),
            depth: 0,
            nodes: 0,
            pv: vec![root_moves.as_slice()[0]],
        };
        for depth in 1..=max_depth {
            self.root_depth = depth;
            let found = self.search_root(&mut root_moves, depth);
            let Some((best, score)) = found else { break };
            result = SearchResult {
                best_move: best,
                score,
                depth: if self.stopped { depth - 1 } else { depth },
                nodes: 0,
                pv: self.pv[0][..self.pv_len[0]].to_vec(),
            };
            if self.stopped {
                break;
            }
            // Best move first for the next iteration; the other moves keep their order.
            let moves = root_moves.as_mut_slice();
            let at = moves.iter().position(|&m| m == best).expect("the best move is a root move");
            moves[..=at].rotate_right(1);
            if is_mate_score(score) && (MATE - score.abs()) as u32 <= depth {
                break;
            }
            if soft_deadline.is_some_and(|t| Instant::now() >= t) {
                break;
            }
        }
        result.nodes = self.nodes;
        result
    }

    /// One iteration at the root: the best move and score, `None` when stopped before the first move was
    /// searched. After a stop the result is the best of the moves searched completely.
    fn search_root(&mut self, moves: &mut MoveList, depth: u32) -> Option<(Move, i32)> {
        let depth = depth as i32;
        let mut alpha = -INF;
        let beta = INF;
        let mut best: Option<(Move, i32)> = None;
        self.pv_len[0] = 0;
        for (i, &m) in moves.as_slice().iter().enumerate() {
            let score = self.search_child(m, depth, alpha, beta, 0, i == 0);
            if self.stopped {
                break;
            }
            if best.is_none_or(|(_, s)| score > s) {
                best = Some((m, score));
                self.update_pv(0, m);
                alpha = alpha.max(score);
            }
        }
        if !self.stopped
            && let Some((m, score)) = best
        {
            self.tt.store(self.pos.key(), 0, depth as u32, score, Bound::Exact, m);
        }
        best
    }

    /// Makes `m` at `ply`, searches the child (principal variation search: a null window unless `first`, with a
    /// full-window re-search when it fails high) and unmakes it; returns the score from this side's view.
    #[inline]
    fn search_child(&mut self, m: Move, depth: i32, alpha: i32, beta: i32, ply: usize, first: bool) -> i32 {
        let undo = self.pos.make_move(m);
        self.keys.push(self.pos.key());
        let extension = i32::from(self.pos.in_check() && (ply as u32) < 2 * self.root_depth);
        let child_depth = depth - 1 + extension;
        let score = if first {
            -self.negamax(child_depth, -beta, -alpha, ply + 1)
        } else {
            let s = -self.negamax(child_depth, -alpha - 1, -alpha, ply + 1);
            if s > alpha && s < beta && !self.stopped { -self.negamax(child_depth, -beta, -alpha, ply + 1) } else { s }
        };
        self.keys.pop();
        self.pos.unmake_move(m, &undo);
        score
    }

    /// Negamax alpha-beta, fail-soft: the score of the position at `ply` searched `depth` plies deep.
    fn negamax(&mut self, depth: i32, mut alpha: i32, mut beta: i32, ply: usize) -> i32 {
        self.pv_len[ply] = ply;
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply);
        }
        if self.should_stop() {
            return 0;
        }
        self.nodes += 1;
        if self.is_repetition() || self.pos.is_insufficient_material() {
            return 0;
        }
        if self.pos.halfmove_clock() >= 100 {
            // The fifty-move rule, unless the last move mated.
            return if self.pos.in_check() && self.pos.legal_moves().is_empty() { -(MATE - ply as i32) } else { 0 };
        }
        if ply >= MAX_PLY - 1 {
            return self.static_eval();
        }
        // Mate-distance pruning: no line from here can beat a mate already certain nearer the root.
        alpha = alpha.max(-(MATE - ply as i32));
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        let pv_node = beta - alpha > 1;
        let key = self.pos.key();
        let mut tt_move = Move::NULL;
        if let Some(p) = self.tt.probe(key, ply) {
            tt_move = p.best;
            let usable = match p.bound {
                Bound::Exact => true,
                Bound::Lower => p.score >= beta,
                Bound::Upper => p.score <= alpha,
            };
            if !pv_node && usable && p.depth >= depth as u32 {
                return p.score;
            }
        }

        let mut moves = self.pos.legal_moves();
        if moves.is_empty() {
            return if self.pos.in_check() { -(MATE - ply as i32) } else { 0 };
        }
        let mut order = [0i32; MAX_MOVES];
        self.score_moves(&moves, &mut order, tt_move, ply);

        let alpha_orig = alpha;
        let mut best_score = -INF;
        let mut best_move = Move::NULL;
        for i in 0..moves.len() {
            let m = pick_next(moves.as_mut_slice(), &mut order, i);
            let score = self.search_child(m, depth, alpha, beta, ply, i == 0);
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = m;
                    alpha = score;
                    self.update_pv(ply, m);
                    if alpha >= beta {
                        if self.is_quiet(m) {
                            self.reward_quiet(m, depth, ply);
                        }
                        break;
                    }
                }
            }
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > alpha_orig {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(key, ply, depth as u32, best_score, bound, best_move);
        best_score
    }

    /// Quiescence search: stand pat on the static evaluation, then captures and queen promotions (all legal
    /// moves when in check, where standing pat is not allowed).
    fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv_len[ply] = ply;
        if self.should_stop() {
            return 0;
        }
        self.nodes += 1;
        if self.pos.is_insufficient_material() {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return self.static_eval();
        }
        let in_check = self.pos.in_check();
        let mut best_score;
        let mut moves;
        if in_check {
            moves = self.pos.legal_moves();
            if moves.is_empty() {
                return -(MATE - ply as i32);
            }
            best_score = -INF;
        } else {
            let stand_pat = self.static_eval();
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best_score = stand_pat;
            moves = self.pos.legal_captures();
        }
        let mut order = [0i32; MAX_MOVES];
        self.score_moves(&moves, &mut order, Move::NULL, ply);
        for i in 0..moves.len() {
            let m = pick_next(moves.as_mut_slice(), &mut order, i);
            let undo = self.pos.make_move(m);
            let score = -self.qsearch(-beta, -alpha, ply + 1);
            self.pos.unmake_move(m, &undo);
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best_score
    }

    /// The static evaluation, side to move's view, clamped below the mate range.
    #[inline]
    fn static_eval(&self) -> i32 {
        evaluate(&self.pos, self.weights).clamp(-EVAL_BOUND, EVAL_BOUND)
    }

    /// Sets `stopped` when the node limit is reached or (every 1024 nodes) the time is up.
    #[inline]
    fn should_stop(&mut self) -> bool {
        if !self.stopped
            && (self.nodes >= self.node_limit
                || (self.nodes & 1023 == 0 && self.deadline.is_some_and(|t| Instant::now() >= t)))
        {
            self.stopped = true;
        }
        self.stopped
    }

    /// True when the current position (the last key) occurred before, in the game or on the search path, since
    /// the last capture or pawn move: one repetition already scores as a draw.
    #[inline]
    fn is_repetition(&self) -> bool {
        let n = self.keys.len();
        let key = self.keys[n - 1];
        let window = (self.pos.halfmove_clock() as usize).min(n - 1);
        (4..=window).step_by(2).any(|back| self.keys[n - 1 - back] == key)
    }

    /// Copies the child's line behind `m` into the pv of `ply`.
    #[inline]
    fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][ply] = m;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for j in ply + 1..child_len {
            self.pv[ply][j] = self.pv[ply + 1][j];
        }
        self.pv_len[ply] = child_len;
    }

    /// True for moves that neither capture nor promote.
    #[inline]
    fn is_quiet(&self, m: Move) -> bool {
        m.kind() != MoveKind::Promotion && self.pos.captured_piece(m).is_none()
    }

    /// A quiet move caused a beta cut-off: make it a killer at `ply` and raise its history.
    fn reward_quiet(&mut self, m: Move, depth: i32, ply: usize) {
        if self.killers[ply][0] != m {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = m;
        }
        if let Some(piece) = self.pos.piece_on(m.from()) {
            let h = &mut self.history[piece.index()][m.to().index()];
            *h = (*h + depth * depth).min(HISTORY_MAX);
        }
    }

    /// The ordering score of every move of `moves` into `order`.
    fn score_moves(&self, moves: &MoveList, order: &mut [i32; MAX_MOVES], tt_move: Move, ply: usize) {
        for (slot, &m) in order.iter_mut().zip(moves.iter()) {
            *slot = self.order_score(m, tt_move, ply);
        }
    }

    /// Sorts `moves` by ordering score, best first (stable, so ties keep generation order).
    fn sort_moves(&self, moves: &mut MoveList, tt_move: Move, ply: usize) {
        moves.as_mut_slice().sort_by_key(|&m| std::cmp::Reverse(self.order_score(m, tt_move, ply)));
    }

    /// The ordering score of one move (higher is searched first).
    fn order_score(&self, m: Move, tt_move: Move, ply: usize) -> i32 {
        if m == tt_move {
            return ORDER_TT;
        }
        let promotion = m.promotion_piece();
        if matches!(promotion, Some(p) if p != PieceType::Queen) {
            return ORDER_UNDERPROMOTION;
        }
        let promo_gain = if promotion.is_some() { mvv_lva(PieceType::Queen, PieceType::Pawn) } else { 0 };
        let attacker = self.pos.piece_on(m.from()).map_or(PieceType::Pawn, |p| p.kind);
        if let Some(victim) = self.pos.captured_piece(m) {
            return ORDER_CAPTURE + mvv_lva(victim.kind, attacker) + promo_gain;
        }
        if promotion.is_some() {
            return ORDER_CAPTURE + promo_gain;
        }
        if self.killers[ply][0] == m {
            return ORDER_KILLER;
        }
        if self.killers[ply][1] == m {
            return ORDER_KILLER - 1;
        }
        match self.pos.piece_on(m.from()) {
            Some(piece) => self.history[piece.index()][m.to().index()],
            None => 0,
        }
    }
}

/// Selection step: swaps the best-scored move of `moves[i..]` into place `i` and returns it.
#[inline]
fn pick_next(moves: &mut [Move], order: &mut [i32; MAX_MOVES], i: usize) -> Move {
    let mut best = i;
    for j in i + 1..moves.len() {
        if order[j] > order[best] {
            best = j;
        }
    }
    moves.swap(i, best);
    order.swap(i, best);
    moves[i]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores() {
        assert!(is_mate_score(MATE - 1));
        assert!(is_mate_score(-(MATE - 3)));
        assert!(is_mate_score(-MATE));
        assert!(!is_mate_score(EVAL_BOUND));
        assert!(!is_mate_score(0));
        assert!(!is_mate_score(INF));
    }

    #[test]
    fn mvv_lva_orders_victims_then_attackers() {
        assert!(mvv_lva(PieceType::Queen, PieceType::Queen) > mvv_lva(PieceType::Rook, PieceType::Pawn));
        assert!(mvv_lva(PieceType::Rook, PieceType::Pawn) > mvv_lva(PieceType::Rook, PieceType::Knight));
        assert!(mvv_lva(PieceType::Pawn, PieceType::King) > 0);
    }

    #[test]
    fn zero_node_limit_still_gives_a_legal_move() {
        let mut engine = Engine::new(EngineConfig::seed());
        let pos = Position::startpos();
        let r = engine.search(&pos, &[pos.key()], &Limits { nodes: Some(0), ..Limits::default() });
        assert!(pos.is_legal(r.best_move));
        assert_eq!(r.depth, 0);
    }
}
