//! Retrograde analysis of one signature, given the solved signatures its captures and promotions lead to.
//!
//! # Values
//! The value of a position is signed from the side to move and counts material (the definition):
//! `+n` when with perfect play the side to move ends the game with at least `n` of its pieces on the board
//! while the opponent has none or cannot move, `-n` the same for the opponent, `0` (a draw) when neither can be
//! forced. A side to move without a legal move (or without pieces) has lost: its value is minus the pieces
//! the opponent then has.
//!
//! # Method: one win/loss retrograde per threshold
//! For each `t = 1..=T` (T the most pieces one side of the signature has) the two-outcome game "can the side to
//! move force an end where it wins with at least `t` pieces" is solved by the classic retrograde analysis
//! (R. Bellman 1965; K. Thompson, "Retrograde analysis of certain endgames", ICCA Journal 9(3), 1986):
//! - a terminal position whose opponent has at least `t` pieces is lost (rank 0);
//! - a position with a child lost at `t` (from the child's side) is won, rank `1 + min` over such children;
//! - a position all of whose children are won at `t` is lost, rank `1 + max` over its children;
//! - what is never reached this way is neither.
//!
//! Children in other signatures (captures, promotions) are already solved: their values and ranks are read.
//! Children in this signature are resolved by propagation from each resolved position to its parents, which
//! [`Position::parents_restoring`] generates (un-moves restoring no piece; only the parents in this signature
//! are kept), with a counter of
//! unresolved children per position and a bucket queue by rank, so that ranks come out exact.
//!
//! The value is `+t` for the largest `t` at which the position is won, `-t` for the largest at which it is
//! lost, else 0; this satisfies `v(p) = max over children c of -v(c)` (the negamax equation), and among its
//! solutions is the one in which no cycle is a win (cycles are draws). The distance stored is the rank at
//! `t = |v|`: the plies in which the winner forces an end worth at least `|v|` while the loser delays it; a
//! forward search of that many plies (unknown leaves scored 0) returns exactly `v`, and one ply less does not
//! (tested).

use super::index::{Indexer, Signature};
use super::{Bases, NOT_RESOLVED};
use crate::checkers::{PieceColor, Position};
use rayon::prelude::*;

/// The solution of one signature: per position (by [`Indexer`] index) the value and, per threshold `t` in
/// `1..=thresholds`, the rank (`NOT_RESOLVED` when not resolved at `t`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved {
    /// Values, one per position.
    pub values: Vec<i8>,
    /// `ranks[t - 1][i]`: the rank of position `i` at threshold `t`.
    pub ranks: Vec<Vec<u16>>,
}

impl Solved {
    /// The distance of position `i`: its rank at `t = |v|` (0 for a draw).
    pub fn distance(&self, i: usize) -> u16 {
        match self.values[i].unsigned_abs() {
            0 => 0,
            t => self.ranks[usize::from(t) - 1][i],
        }
    }

    /// The rank of position `i` at threshold `t` (`NOT_RESOLVED` when not resolved there or `t` too large).
    pub fn rank(&self, i: usize, t: u8) -> u16 {
        self.ranks.get(usize::from(t) - 1).map_or(NOT_RESOLVED, |r| r[i])
    }
}

/// What the children outside the signature tell one position at one threshold `t`.
#[derive(Clone, Copy, Debug)]
struct Outside {
    /// `1 +` the least rank of an outside child lost at `t` for its side (a win for this position);
    /// [`NOT_RESOLVED`] when none is.
    best_win: u16,
    /// `1 +` the largest rank of the outside children won at `t` for their side.
    worst: u16,
    /// Whether every outside child is won at `t` for its side (else this position cannot be lost at `t`).
    can_lose: bool,
}

/// What propagation needs of the positions, by index: kept in flat arrays (a few bytes a position) so that
/// signatures of tens of millions of positions fit in memory.
struct Nodes {
    /// Thresholds per position in `outside`.
    thresholds: usize,
    /// No legal move (a loss for the side to move).
    terminal: Vec<bool>,
    /// Pieces of the opponent (the end value of a terminal).
    opponent_pieces: Vec<u8>,
    /// Distinct children in this signature.
    internal: Vec<u32>,
    /// `outside[i * thresholds + t - 1]`.
    outside: Vec<Outside>,
    /// Parents in this signature: those of position `i` are `parents[parent_start[i]..parent_start[i + 1]]`.
    parent_start: Vec<u64>,
    parents: Vec<u32>,
}

impl Nodes {
    fn parents_of(&self, i: usize) -> &[u32] {
        &self.parents[self.parent_start[i] as usize..self.parent_start[i + 1] as usize]
    }
}

/// Positions per parallel task.
const CHUNK: usize = 1 << 14;

/// Reads the moves and un-moves of every position of `indexer`'s signature (in parallel).
fn nodes(indexer: &Indexer, bases: &Bases, thresholds: u8) -> Nodes {
    let sig = indexer.signature;
    let count = indexer.count() as usize;
    let tn = usize::from(thresholds);
    let none = Outside { best_win: NOT_RESOLVED, worst: 0, can_lose: true };
    let mut terminal = vec![false; count];
    let mut opponent_pieces = vec![0u8; count];
    let mut internal = vec![0u32; count];
    let mut outside = vec![none; count * tn];
    terminal
        .par_chunks_mut(CHUNK)
        .zip(opponent_pieces.par_chunks_mut(CHUNK))
        .zip(internal.par_chunks_mut(CHUNK))
        .zip(outside.par_chunks_mut(CHUNK * tn))
        .enumerate()
        .for_each(|(chunk, (((terminal, opponent), internal), outside))| {
            let mut children = Vec::new();
            for k in 0..terminal.len() {
                let i = chunk * CHUNK + k;
                let pos = indexer.position(i as u64);
                let moves = pos.legal_moves();
                terminal[k] = moves.is_empty();
                opponent[k] = pieces(&pos, pos.side_to_move().flip());
                children.clear();
                for m in &moves {
                    let child = pos.apply(m);
                    if Signature::of(&child) == sig {
                        children.push(indexer.index(&child) as u32);
                        continue;
                    }
                    let found = bases.find(&child);
                    let value = found.value();
                    for t in 1..=thresholds {
                        let o = &mut outside[k * tn + usize::from(t) - 1];
                        let rank = found.rank(t);
                        if -i16::from(value) >= i16::from(t) {
                            o.best_win = o.best_win.min(rank.saturating_add(1));
                        } else if i16::from(value) >= i16::from(t) {
                            o.worst = o.worst.max(rank.saturating_add(1));
                        } else {
                            o.can_lose = false;
                        }
                    }
                }
                children.sort_unstable();
                children.dedup();
                internal[k] = children.len() as u32;
            }
        });
    // Parents in this signature, from the parent generator (un-moves that restore no captured piece: an
    // un-capture adds material and an un-promotion a man, so the parents in this signature are among them).
    let lists: Vec<(Vec<u32>, Vec<u32>)> = (0..count.div_ceil(CHUNK))
        .into_par_iter()
        .map(|chunk| {
            let (mut lens, mut flat) = (Vec::new(), Vec::new());
            for i in chunk * CHUNK..((chunk + 1) * CHUNK).min(count) {
                let before = flat.len();
                for q in indexer.position(i as u64).parents_restoring(0) {
                    if Signature::of(&q) == sig {
                        flat.push(indexer.index(&q) as u32);
                    }
                }
                flat[before..].sort_unstable();
                let mut list = flat.split_off(before);
                list.dedup();
                lens.push(list.len() as u32);
                flat.extend(list);
            }
            (lens, flat)
        })
        .collect();
    let mut parent_start = Vec::with_capacity(count + 1);
    let mut parents = Vec::with_capacity(lists.iter().map(|l| l.1.len()).sum());
    parent_start.push(0u64);
    for (lens, flat) in lists {
        for len in lens {
            parent_start.push(parent_start.last().expect("starts at 0") + u64::from(len));
        }
        parents.extend(flat);
    }
    Nodes { thresholds: tn, terminal, opponent_pieces, internal, outside, parent_start, parents }
}

/// Solves `indexer`'s signature with the earlier signatures in `bases`, on the current rayon pool.
///
/// # Panics
/// If a child's signature is missing from `bases` (the caller solves in [`Signature::all`] order).
pub fn solve(indexer: &Indexer, bases: &Bases) -> Solved {
    let sig = indexer.signature;
    let count = indexer.count() as usize;
    let thresholds = sig.pieces(PieceColor::White).max(sig.pieces(PieceColor::Black));
    let nodes = nodes(indexer, bases, thresholds);
    let mut values = vec![0i8; count];
    let mut ranks = Vec::with_capacity(usize::from(thresholds));
    for t in 1..=thresholds {
        let (won, rank) = threshold(&nodes, t);
        for (i, w) in won.iter().enumerate() {
            match w {
                Some(true) => values[i] = t as i8,
                Some(false) => values[i] = -(t as i8),
                None => {}
            }
        }
        ranks.push(rank);
    }
    Solved { values, ranks }
}

/// Pieces of `color` in `pos`.
pub fn pieces(pos: &Position, color: PieceColor) -> u8 {
    pos.pieces(color).count_ones() as u8
}

/// The retrograde analysis at threshold `t`: per position `Some(true)` won, `Some(false)` lost, `None`
/// neither, and the rank (`NOT_RESOLVED` for neither).
fn threshold(nodes: &Nodes, t: u8) -> (Vec<Option<bool>>, Vec<u16>) {
    let n = nodes.terminal.len();
    let mut won: Vec<Option<bool>> = vec![None; n];
    let mut rank = vec![NOT_RESOLVED; n];
    // Tentative rank of a win, or the rank of a loss once known.
    let mut tentative = vec![NOT_RESOLVED; n];
    // For a position that may be lost: `1 +` the largest rank of its children won at t so far.
    let mut worst = vec![0u16; n];
    // Children in this signature not yet known won (at t) for their side; `u32::MAX`: the position cannot
    // be lost (a child outside the signature is not won at t for the opponent).
    let mut open = vec![0u32; n];
    let mut buckets: Vec<Vec<u32>> = Vec::new();
    let push = |buckets: &mut Vec<Vec<u32>>, r: u16, i: usize| {
        let r = usize::from(r);
        if buckets.len() <= r {
            buckets.resize_with(r + 1, Vec::new);
        }
        buckets[r].push(i as u32);
    };
    for i in 0..n {
        if nodes.terminal[i] {
            if nodes.opponent_pieces[i] >= t {
                won[i] = Some(false);
                tentative[i] = 0;
                push(&mut buckets, 0, i);
            }
            continue;
        }
        let o = nodes.outside[i * nodes.thresholds + usize::from(t) - 1];
        worst[i] = o.worst;
        if o.best_win != NOT_RESOLVED {
            tentative[i] = o.best_win;
            push(&mut buckets, o.best_win, i);
        }
        open[i] = if o.can_lose { nodes.internal[i] } else { u32::MAX };
        if o.can_lose && nodes.internal[i] == 0 && o.best_win == NOT_RESOLVED {
            won[i] = Some(false);
            tentative[i] = o.worst;
            push(&mut buckets, o.worst, i);
        }
    }
    let mut r = 0;
    while r < buckets.len() {
        let bucket = std::mem::take(&mut buckets[r]);
        for &i in &bucket {
            let i = i as usize;
            if rank[i] != NOT_RESOLVED || tentative[i] != r as u16 {
                continue;
            }
            rank[i] = r as u16;
            let lost = won[i] == Some(false);
            if !lost {
                won[i] = Some(true);
            }
            let next = (r + 1) as u16;
            for &q in nodes.parents_of(i) {
                let q = q as usize;
                if rank[q] != NOT_RESOLVED {
                    continue;
                }
                if lost {
                    if next < tentative[q] {
                        tentative[q] = next;
                        push(&mut buckets, next, q);
                    }
                } else if open[q] != u32::MAX {
                    open[q] -= 1;
                    worst[q] = worst[q].max(next);
                    if open[q] == 0 && tentative[q] == NOT_RESOLVED {
                        won[q] = Some(false);
                        tentative[q] = worst[q];
                        push(&mut buckets, worst[q], q);
                    }
                }
            }
        }
        r += 1;
    }
    for i in 0..n {
        if rank[i] == NOT_RESOLVED {
            won[i] = None;
        }
    }
    (won, rank)
}
