//! The search: iterative deepening with aspiration windows over a fail-soft negamax principal variation
//! search, with a captures-only quiescence search (delta pruning, losing captures skipped by SEE), a
//! transposition table, check extension, null-move pruning, late move reductions, futility pruning, move
//! ordering by TT move, MVV-LVA and SEE, killers and history, mate scores and draw detection (repetition,
//! fifty-move rule, insufficient material). Every technique follows its chessprogramming wiki page of the same
//! name, and each can be switched off through [`SearchOptions`].
//!
//! Node counting: every call of the main search or the quiescence search counts one node (the root itself
//! does not). With only depth and node limits the search is fully deterministic: the same config, position,
//! history and limits give the same move, score, node count and pv, for a fresh [`Engine`] as for one after
//! [`Engine::new_game`].

use super::config::EngineConfig;
use super::eval::evaluate;
use super::options::SearchOptions;
use super::see::{see, see_value};
use super::time::TimeBudget;
use super::tt::{Bound, TranspositionTable};
use crate::chess::moves::MAX_MOVES;
use crate::chess::{Move, MoveKind, MoveList, PieceType, Position};
use crate::engine::GoLimits;
use std::sync::atomic::{AtomicBool, Ordering};
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

/// When to stop searching, as UCI's `go` gives it. The default (all `None`, not infinite) means no limit: the
/// search runs to depth [`MAX_DEPTH`] (64 plies) or a proven mate. With several limits the first one reached
/// stops the search; time limits are turned into a soft and a hard limit by [`TimeBudget`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// The depth, nodes, time per move and clocks of `go` ([`GoLimits`], White's clock as `wtime`). A depth of
    /// 0 counts as 1, above [`MAX_DEPTH`] as [`MAX_DEPTH`]; a move time is less a small overhead (no new
    /// iteration starts after half of it). A time limit makes the result depend on the machine.
    pub go: GoLimits,
    /// Search until stopped: time limits are ignored, and [`Engine::search_with`] returns only once its stop
    /// flag is set (also after the deepest iteration or a proven mate).
    pub infinite: bool,
    /// Principal variations per iteration (UCI `MultiPV`; 0 counts as 1, more than the legal moves as all of
    /// them): line K is the best move that excludes lines 1..K at that depth. The result is line 1's.
    pub multipv: u32,
}

impl Limits {
    /// A search to `depth` plies and nothing else.
    pub fn depth(depth: u32) -> Limits {
        Limits { go: GoLimits { depth: Some(depth), ..GoLimits::default() }, ..Limits::default() }
    }

    /// A search of `nodes` nodes and nothing else.
    pub fn nodes(nodes: u64) -> Limits {
        Limits { go: GoLimits { nodes: Some(nodes), ..GoLimits::default() }, ..Limits::default() }
    }
}

/// A report for UCI `info` lines: one per principal variation after each iteration, and one for the move the
/// search returns if it differs from the last one reported (an iteration cut short by a limit), so that the
/// last report with `multipv` 1 always starts with [`SearchResult::best_move`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IterationInfo {
    /// The iteration's depth, in plies.
    pub depth: u32,
    /// Which principal variation this is, from 1 (the best) to the `multipv` of [`Limits`].
    pub multipv: u32,
    /// The deepest ply reached in the iteration, quiescence included.
    pub seldepth: u32,
    /// The score in centipawns from the side to move's view (mate scores as in [`SearchResult::score`]).
    pub score: i32,
    /// Nodes searched since the search began.
    pub nodes: u64,
    /// Milliseconds since the search began (wall time, rounded down).
    pub time_ms: u64,
    /// Nodes per second since the search began, from the elapsed time in nanoseconds.
    pub nps: u64,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// Transposition-table occupancy by this search, in permille (sampled).
    pub hashfull: u32,
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
/// It is `Send`, so a UCI loop can search on another thread.
pub struct Engine {
    config: EngineConfig,
    tt: TranspositionTable,
}

impl Engine {
    /// An engine with `config`; allocates a transposition table of `config.hash_mb` MiB (at least one bucket;
    /// panics when the memory cannot be allocated).
    pub fn new(config: EngineConfig) -> Engine {
        let tt = TranspositionTable::new(config.hash_mb);
        Engine { config, tt }
    }

    /// The configuration this engine was built with.
    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// The configuration, mutable: weights and search switches take effect at the next search. Changing
    /// `hash_mb` here does not resize the table; use [`Engine::set_hash_mb`].
    pub fn config_mut(&mut self) -> &mut EngineConfig {
        &mut self.config
    }

    /// Replaces the transposition table by an empty one of `mb` MiB (at least 1) and records the size in the
    /// config. Panics when the memory cannot be allocated (check first with
    /// [`TranspositionTable::check_allocation`]).
    pub fn set_hash_mb(&mut self, mb: usize) {
        let mb = mb.max(1);
        self.tt = TranspositionTable::new(mb);
        self.config.hash_mb = mb;
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
    /// An `infinite` search without a depth or node limit would never return here; it is treated as
    /// not infinite.
    pub fn search(&mut self, pos: &Position, history: &[u64], limits: &Limits) -> SearchResult {
        let stop = AtomicBool::new(false);
        let limits = Limits { infinite: false, ..*limits };
        self.search_with(pos, history, &limits, &stop, &mut |_| {})
    }

    /// [`Engine::search`] that can be stopped from another thread and reports each completed iteration.
    ///
    /// `stop` is polled every 1024 nodes and between iterations; once set, the search returns the best move
    /// of the last completed iteration (or of the moves searched completely in the current one). With
    /// `limits.infinite` the search returns only after `stop` is set, as UCI's `go infinite` requires.
    /// `on_iteration` is called after every completed iteration.
    pub fn search_with(
        &mut self,
        pos: &Position,
        history: &[u64],
        limits: &Limits,
        stop: &AtomicBool,
        on_iteration: &mut dyn FnMut(&IterationInfo),
    ) -> SearchResult {
        let start = Instant::now();
        self.tt.new_search();
        let mut keys = Vec::with_capacity(history.len() + MAX_PLY + 2);
        keys.extend_from_slice(history);
        if keys.last() != Some(&pos.key()) {
            keys.push(pos.key());
        }
        let budget = TimeBudget::new(limits, pos.side_to_move());
        let mut searcher = Box::new(Searcher {
            pos: pos.clone(),
            weights: &self.config.weights,
            options: self.config.search,
            tt: &mut self.tt,
            keys,
            nodes: 0,
            node_limit: limits.go.nodes.unwrap_or(u64::MAX),
            start,
            deadline: budget.hard.and_then(|d| start.checked_add(d)),
            stop,
            stopped: false,
            root_depth: 0,
            seldepth: 0,
            killers: [[Move::NULL; 2]; MAX_PLY + 1],
            history: [[0; 64]; 12],
            pv: [[Move::NULL; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
        });
        let max_depth = limits.go.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let soft_deadline = budget.soft.and_then(|d| start.checked_add(d));
        let lines = (limits.multipv.max(1) as usize).min(MAX_MOVES);
        let result = searcher.iterate(max_depth, soft_deadline, limits.infinite, lines, on_iteration);
        if limits.infinite {
            while !stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        result
    }
}

/// The state of one search: the position being searched, counters and the per-search heuristics.
struct Searcher<'a> {
    pos: Position,
    weights: &'a super::weights::Weights,
    options: SearchOptions,
    tt: &'a mut TranspositionTable,
    /// Keys of the game before the root, the root, then one per ply of the current search path.
    keys: Vec<u64>,
    nodes: u64,
    node_limit: u64,
    start: Instant,
    deadline: Option<Instant>,
    stop: &'a AtomicBool,
    stopped: bool,
    root_depth: u32,
    seldepth: u32,
    killers: [[Move; 2]; MAX_PLY + 1],
    /// Quiet-move history, indexed by moving piece (`Piece::index`) and target square.
    history: [[i32; 64]; 12],
    /// Triangular principal-variation table: `pv[ply][ply..pv_len[ply]]` is the line from `ply`.
    pv: [[Move; MAX_PLY + 1]; MAX_PLY + 1],
    pv_len: [usize; MAX_PLY + 1],
}

/// Move-ordering scores: the transposition-table move first, then winning and equal captures and queen
/// promotions by MVV-LVA, killers, quiet moves by history, losing captures (by SEE), under-promotions last.
const ORDER_TT: i32 = 1_000_000;
const ORDER_CAPTURE: i32 = 100_000;
const ORDER_KILLER: i32 = 90_000;
const HISTORY_MAX: i32 = 50_000;
const ORDER_BAD_CAPTURE: i32 = -60_000;
const ORDER_UNDERPROMOTION: i32 = -100_000;

/// Half-width of the first aspiration window, in centipawns.
const ASPIRATION_WINDOW: i32 = 25;
/// Futility margins by remaining depth (1 to 3 plies), in centipawns.
const FUTILITY_MARGIN: [i32; 4] = [0, 150, 300, 500];
/// Reverse futility (static null move) margin per ply of remaining depth, in centipawns.
const REVERSE_FUTILITY_MARGIN: i32 = 120;
/// Delta-pruning safety margin in the quiescence search, in centipawns.
const DELTA_MARGIN: i32 = 200;

/// The MVV-LVA score of `attacker` taking `victim`: most valuable victim first, then least valuable attacker
/// (chessprogramming wiki, "MVV-LVA").
#[inline]
fn mvv_lva(victim: PieceType, attacker: PieceType) -> i32 {
    8 * (victim.index() as i32 + 1) - attacker.index() as i32
}

/// The late-move reduction, in plies, of the `index`-th move (0-based) searched at `depth` plies: one ply,
/// one more for late moves and deep searches, one less at PV nodes (chessprogramming wiki, "Late Move
/// Reductions").
#[inline]
fn lmr_reduction(depth: i32, index: usize, pv_node: bool) -> i32 {
    let mut r = 1 + i32::from(index >= 6) + i32::from(depth >= 8 && index >= 12);
    if pv_node {
        r -= 1;
    }
    r.clamp(0, depth - 2)
}

crate::cpu::versions! {
    fn negamax_v3, negamax_generic (s: &mut Searcher<'_>, depth: i32, alpha: i32, beta: i32, ply: usize, null: bool) -> i32 {
        s.negamax_inline(depth, alpha, beta, ply, null)
    }
    fn qsearch_v3, qsearch_generic (s: &mut Searcher<'_>, alpha: i32, beta: i32, ply: usize) -> i32 {
        s.qsearch_inline(alpha, beta, ply)
    }
}

impl Searcher<'_> {
    /// Iterative deepening from depth 1 to `max_depth`, with `lines` principal variations per iteration.
    /// Every iteration's lines are reported, one cut short by a limit included; if the move returned was never
    /// reported (nothing completed), a last report gives it.
    fn iterate(
        &mut self,
        max_depth: u32,
        soft_deadline: Option<Instant>,
        infinite: bool,
        lines: usize,
        on_iteration: &mut dyn FnMut(&IterationInfo),
    ) -> SearchResult {
        let mut root_moves = self.pos.legal_moves();
        if root_moves.is_empty() {
            let score = if self.pos.in_check() { -MATE } else { 0 };
            return SearchResult { best_move: Move::NULL, score, depth: 0, nodes: 0, pv: Vec::new() };
        }
        let tt_move = self.tt.probe(self.pos.key(), 0).map_or(Move::NULL, |p| p.best);
        self.sort_moves(&mut root_moves, tt_move, 0);
        let lines = lines.clamp(1, root_moves.len());
        let mut result = SearchResult {
            best_move: root_moves.as_slice()[0],
            score: self.static_eval(),
            depth: 0,
            nodes: 0,
            pv: vec![root_moves.as_slice()[0]],
        };
        let mut reported = false;
        let mut previous = vec![result.score; lines];
        let mut reports = Vec::with_capacity(lines);
        for depth in 1..=max_depth {
            if depth > 1 && self.time_is_up() {
                break;
            }
            self.root_depth = depth;
            self.seldepth = 0;
            reports.clear();
            for line in 0..lines {
                // Line K searches the root moves after the K - 1 best of this iteration.
                let found = self.aspiration(&mut root_moves, depth, previous[line], line);
                let Some((best, score)) = found else { break };
                let mut pv = self.pv[0][..self.pv_len[0]].to_vec();
                if pv.first() != Some(&best) {
                    pv = vec![best];
                }
                previous[line] = score;
                // This line's move goes to its place; the other moves keep their order.
                let moves = root_moves.as_mut_slice();
                let at = moves.iter().position(|&m| m == best).expect("the best move is a root move");
                moves[line..=at].rotate_right(1);
                if line == 0 {
                    result = SearchResult {
                        best_move: best,
                        score,
                        depth: if self.stopped { depth - 1 } else { depth },
                        nodes: 0,
                        pv: pv.clone(),
                    };
                }
                reports.push(self.report(depth, line, score, pv));
                if self.stopped {
                    break;
                }
            }
            if !reports.is_empty() {
                for report in &reports {
                    on_iteration(report);
                }
                reported = true;
            }
            if self.stopped {
                break;
            }
            let score = result.score;
            if !infinite && is_mate_score(score) && (MATE - score.abs()) as u32 <= depth {
                break;
            }
            if soft_deadline.is_some_and(|t| Instant::now() >= t) {
                break;
            }
        }
        if !reported {
            let report = self.report(self.root_depth.max(1), 0, result.score, result.pv.clone());
            on_iteration(&report);
        }
        result.nodes = self.nodes;
        result
    }

    /// The report of principal variation `line` (0-based) at `depth`, with the counters as they stand.
    fn report(&self, depth: u32, line: usize, score: i32, pv: Vec<Move>) -> IterationInfo {
        let elapsed = self.start.elapsed();
        let nanos = elapsed.as_nanos().max(1);
        IterationInfo {
            depth,
            multipv: line as u32 + 1,
            seldepth: self.seldepth.max(depth),
            score,
            nodes: self.nodes,
            time_ms: u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX),
            nps: u64::try_from(u128::from(self.nodes) * 1_000_000_000 / nanos).unwrap_or(u64::MAX),
            pv,
            hashfull: self.tt.hashfull(),
        }
    }

    /// One iteration inside an aspiration window around `previous` (centipawns), widened on failure
    /// (chessprogramming wiki, "Aspiration Windows"); full width at low depths, near mates or when switched
    /// off. `None` when stopped before a usable result.
    /// `skip` root moves (the lines already found at this depth) are left out.
    fn aspiration(&mut self, moves: &mut MoveList, depth: u32, previous: i32, skip: usize) -> Option<(Move, i32)> {
        let use_window = self.options.aspiration && depth >= 4 && previous.abs() < 1_000;
        let mut delta = ASPIRATION_WINDOW;
        let (mut alpha, mut beta) = if use_window { (previous - delta, previous + delta) } else { (-INF, INF) };
        loop {
            let found = self.search_root(moves, depth, alpha, beta, skip);
            if self.stopped {
                // A partial iteration counts only for a move proven better than the window's floor.
                return found.filter(|&(_, s)| s > alpha);
            }
            let (_, score) = found?;
            delta *= 2;
            if score <= alpha && alpha > -INF {
                alpha = if delta > 400 { -INF } else { (score - delta).max(-INF) };
            } else if score >= beta && beta < INF {
                beta = if delta > 400 { INF } else { (score + delta).min(INF) };
            } else {
                return found;
            }
        }
    }

    /// One iteration at the root within (`alpha`, `beta`) over the moves after the first `skip`: the best move
    /// and score, `None` when stopped before the first move was searched. After a stop the result is the best
    /// of the moves searched completely. Only the full search (`skip` 0) goes into the transposition table.
    fn search_root(
        &mut self,
        moves: &mut MoveList,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        skip: usize,
    ) -> Option<(Move, i32)> {
        let depth = depth as i32;
        let alpha_orig = alpha;
        let mut best: Option<(Move, i32)> = None;
        self.pv_len[0] = 0;
        for (i, &m) in moves.as_slice()[skip..].iter().enumerate() {
            let undo = self.pos.make_move(m);
            self.keys.push(self.pos.key());
            let gives_check = self.pos.in_check();
            let child_depth = depth - 1 + self.extension(gives_check, 0);
            let score = if i == 0 {
                -self.negamax(child_depth, -beta, -alpha, 1, true)
            } else {
                let s = -self.negamax(child_depth, -alpha - 1, -alpha, 1, true);
                if s > alpha && s < beta && !self.stopped {
                    -self.negamax(child_depth, -beta, -alpha, 1, true)
                } else {
                    s
                }
            };
            self.keys.pop();
            self.pos.unmake_move(m, &undo);
            if self.stopped {
                break;
            }
            if best.is_none_or(|(_, s)| score > s) {
                best = Some((m, score));
                self.update_pv(0, m);
                alpha = alpha.max(score);
                if alpha >= beta {
                    break;
                }
            }
        }
        if !self.stopped
            && skip == 0
            && let Some((m, score)) = best
        {
            let bound = if score >= beta {
                Bound::Lower
            } else if score > alpha_orig {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.tt.store(self.pos.key(), 0, depth as u32, score, bound, m);
        }
        best
    }

    /// The check extension, in plies, for a move at `ply` whose child is in check (`gives_check`); limited to
    /// twice the root depth so that perpetual checks cannot run away.
    #[inline]
    fn extension(&self, gives_check: bool, ply: usize) -> i32 {
        i32::from(self.options.check_extension && gives_check && (ply as u32) < 2 * self.root_depth)
    }

    /// Negamax alpha-beta, fail-soft: the score of the position at `ply` searched `depth` plies deep.
    /// `allow_null` is false right after a null move.
    fn negamax(&mut self, depth: i32, alpha: i32, beta: i32, ply: usize, allow_null: bool) -> i32 {
        crate::cpu::dispatch!(negamax_v3, negamax_generic, (self, depth, alpha, beta, ply, allow_null))
    }

    /// [`Searcher::negamax`]'s body, compiled into each code path's copy ([`crate::cpu`]).
    #[inline(always)]
    fn negamax_inline(&mut self, depth: i32, mut alpha: i32, mut beta: i32, ply: usize, allow_null: bool) -> i32 {
        self.pv_len[ply] = ply;
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply);
        }
        if self.should_stop() {
            return 0;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply as u32);
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

        let in_check = self.pos.in_check();
        let static_eval = if in_check { -INF } else { self.static_eval() };
        let quiet_window = !pv_node && !in_check && !is_mate_score(alpha) && !is_mate_score(beta);

        // Reverse futility pruning (static null move): far above beta near the leaves, assume a cut-off.
        if self.options.futility && quiet_window && depth <= 3 && static_eval - REVERSE_FUTILITY_MARGIN * depth >= beta
        {
            return static_eval;
        }

        // Null-move pruning: if passing still fails high, a real move will too. Not in check, not twice in a
        // row, and not with only pawns (zugzwang); R = 2, or 3 from depth 7.
        if self.options.null_move
            && quiet_window
            && allow_null
            && depth >= 3
            && static_eval >= beta
            && self.has_non_pawn_material()
        {
            let r = if depth >= 7 { 3 } else { 2 };
            let undo = self.pos.make_null();
            self.keys.push(self.pos.key());
            let score = -self.negamax(depth - 1 - r, -beta, -beta + 1, ply + 1, false);
            self.keys.pop();
            self.pos.unmake_null(&undo);
            if self.stopped {
                return 0;
            }
            if score >= beta {
                return if is_mate_score(score) { beta } else { score };
            }
        }

        let mut moves = self.pos.legal_moves();
        if moves.is_empty() {
            return if in_check { -(MATE - ply as i32) } else { 0 };
        }
        let mut order = [0i32; MAX_MOVES];
        self.score_moves(&moves, &mut order, tt_move, ply);

        let futile = self.options.futility
            && quiet_window
            && depth <= 3
            && static_eval + FUTILITY_MARGIN[depth as usize] <= alpha;
        let alpha_orig = alpha;
        let mut best_score = -INF;
        let mut best_move = Move::NULL;
        let mut searched = 0usize;
        for i in 0..moves.len() {
            let m = pick_next(moves.as_mut_slice(), &mut order, i);
            let quiet = self.is_quiet(m);
            let undo = self.pos.make_move(m);
            let gives_check = self.pos.in_check();
            // Futility pruning: a quiet move that gives no check cannot lift a hopeless eval to alpha.
            if futile && searched > 0 && quiet && !gives_check {
                self.pos.unmake_move(m, &undo);
                best_score = best_score.max(static_eval + FUTILITY_MARGIN[depth as usize]);
                continue;
            }
            self.keys.push(self.pos.key());
            let child_depth = depth - 1 + self.extension(gives_check, ply);
            let score = if searched == 0 {
                -self.negamax(child_depth, -beta, -alpha, ply + 1, true)
            } else {
                let reduction = if self.options.lmr && depth >= 3 && searched >= 3 && quiet && !in_check && !gives_check
                {
                    lmr_reduction(depth, searched, pv_node)
                } else {
                    0
                };
                let mut s = -self.negamax(child_depth - reduction, -alpha - 1, -alpha, ply + 1, true);
                if reduction > 0 && s > alpha && !self.stopped {
                    s = -self.negamax(child_depth, -alpha - 1, -alpha, ply + 1, true);
                }
                if s > alpha && s < beta && !self.stopped {
                    s = -self.negamax(child_depth, -beta, -alpha, ply + 1, true);
                }
                s
            };
            self.keys.pop();
            self.pos.unmake_move(m, &undo);
            searched += 1;
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
                        if quiet {
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

    /// True when the side to move has a piece other than pawns and king.
    #[inline]
    fn has_non_pawn_material(&self) -> bool {
        let us = self.pos.color_bb(self.pos.side_to_move());
        let pawns_and_kings = self.pos.pieces_kind(PieceType::Pawn) | self.pos.pieces_kind(PieceType::King);
        !(us & !pawns_and_kings).is_empty()
    }

    /// Quiescence search: stand pat on the static evaluation, then captures and queen promotions (all legal
    /// moves when in check, where standing pat is not allowed). Delta pruning skips captures that cannot
    /// lift the score to alpha; SEE skips losing captures.
    fn qsearch(&mut self, alpha: i32, beta: i32, ply: usize) -> i32 {
        crate::cpu::dispatch!(qsearch_v3, qsearch_generic, (self, alpha, beta, ply))
    }

    /// [`Searcher::qsearch`]'s body, compiled into each code path's copy ([`crate::cpu`]).
    #[inline(always)]
    fn qsearch_inline(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv_len[ply] = ply;
        if self.should_stop() {
            return 0;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply as u32);
        if self.pos.is_insufficient_material() {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return self.static_eval();
        }
        let in_check = self.pos.in_check();
        let mut best_score;
        let mut moves;
        let mut stand_pat = -INF;
        if in_check {
            moves = self.pos.legal_moves();
            if moves.is_empty() {
                return -(MATE - ply as i32);
            }
            best_score = -INF;
        } else {
            stand_pat = self.static_eval();
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
            if !in_check {
                if self.options.delta_pruning && m.promotion_piece().is_none() {
                    let gain = self.pos.captured_piece(m).map_or(0, |p| see_value(p.kind));
                    if stand_pat + gain + DELTA_MARGIN <= alpha {
                        continue;
                    }
                }
                if self.options.see && order[i] < ORDER_CAPTURE {
                    // Ordered below the good captures: SEE says it loses material.
                    continue;
                }
            }
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

    /// True once the hard time limit has passed or the stop flag is set.
    #[inline]
    fn time_is_up(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|t| Instant::now() >= t)
    }

    /// Sets `stopped` when the node limit is reached or (every 1024 nodes) the time is up or the stop flag set.
    #[inline]
    fn should_stop(&mut self) -> bool {
        if !self.stopped && (self.nodes >= self.node_limit || (self.nodes & 1023 == 0 && self.time_is_up())) {
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
        if self.options.killers && self.killers[ply][0] != m {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = m;
        }
        if self.options.history
            && let Some(piece) = self.pos.piece_on(m.from())
        {
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
            let score = mvv_lva(victim.kind, attacker) + promo_gain;
            // Only captures by a more valuable piece can lose material: SEE decides those.
            if self.options.see && see_value(attacker) > see_value(victim.kind) && see(&self.pos, m) < 0 {
                return ORDER_BAD_CAPTURE + score;
            }
            return ORDER_CAPTURE + score;
        }
        if promotion.is_some() {
            return ORDER_CAPTURE + promo_gain;
        }
        if self.options.killers {
            if self.killers[ply][0] == m {
                return ORDER_KILLER;
            }
            if self.killers[ply][1] == m {
                return ORDER_KILLER - 1;
            }
        }
        if !self.options.history {
            return 0;
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
        let r = engine.search(
            &pos,
            &[pos.key()],
            &Limits { go: GoLimits { nodes: Some(0), ..GoLimits::default() }, ..Limits::default() },
        );
        assert!(pos.is_legal(r.best_move));
        assert_eq!(r.depth, 0);
    }
}
