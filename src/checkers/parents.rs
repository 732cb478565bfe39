//! Un-move generation: the positions a legal move leads from to a given one (for retrograde analysis, e.g. an
//! endgame database).
//!
//! The candidates are a superset, built by walking the moves of the side that just moved backwards: steps of
//! men (backwards) and kings, un-promotions (a king on its promotion row that was a man before the move), and
//! un-captures that put back 1..k pieces of the side to move along a reverse jump path (flying-king geometry in
//! Russian draughts, a man's path turned king where it reached the last row). Each candidate is kept only if
//! one of its legal moves really leads here, which settles the mandatory capture (a step is no parent when the
//! parent had a capture), the forced landings of flying kings and the rule that a capture goes to the end.

use super::position::Position;
use super::types::{NO_SQUARE, Ruleset, reverse};

/// What one search for un-captures shares.
struct Back<'a> {
    child: &'a Position,
    /// The square the moved piece stands on now.
    to: u8,
    /// The mover's promotion row.
    promotion: u32,
    /// Squares empty in the child.
    empty: u32,
    max_restored: u32,
    /// Candidates: (parent with the captured pieces put back as men where allowed, the put-back squares).
    found: Vec<(Position, u32)>,
}

impl Back<'_> {
    /// Walks backwards from `cur`, where the mover arrived as a king (`king`) or a man, with `restored` put back
    /// so far: each earlier jump restores one piece and leads to an earlier landing square (or the origin).
    fn walk(&mut self, cur: u8, king: bool, restored: u32) {
        if restored.count_ones() >= self.max_restored {
            return;
        }
        let child = self.child;
        let b = child.board;
        let passable = (self.empty | 1 << self.to) & !restored;
        let flying = king && child.rules == Ruleset::Russian;
        let dirs: &[usize] = match (king, child.rules) {
            (false, Ruleset::English) => {
                &[reverse(child.side.flip().forward()[0]), reverse(child.side.flip().forward()[1])]
            }
            _ => &[0, 1, 2, 3],
        };
        for &d in dirs {
            // Squares the jump passed over between `cur` and the captured piece (none for a short jump).
            let mut c = b.neighbor(cur, d);
            while c != NO_SQUARE && passable & 1 << c != 0 {
                if c != self.to {
                    let mut f = b.neighbor(c, d);
                    while f != NO_SQUARE && passable & 1 << f != 0 {
                        if king || self.promotion & 1 << f == 0 {
                            self.arrive(f, king, restored | 1 << c);
                        }
                        if !flying {
                            break;
                        }
                        f = b.neighbor(f, d);
                    }
                }
                if !flying {
                    break;
                }
                c = b.neighbor(c, d);
            }
        }
    }

    /// The mover jumped from `f` (as a king when `king`) with `restored` put back: `f` may be the origin, or an
    /// earlier landing square (reached as a king, or as a man promoted there in Russian draughts).
    fn arrive(&mut self, f: u8, king: bool, restored: u32) {
        let child = self.child;
        let (u, v) = (child.side.flip().index(), child.side.index());
        let mut p = *child;
        let (to, from) = (1u32 << self.to, 1u32 << f);
        p.men[u] &= !to;
        p.kings[u] &= !to;
        if king {
            p.kings[u] |= from;
        } else {
            p.men[u] |= from;
        }
        let v_promotion = child.board.promotion_row(child.side);
        p.men[v] |= restored & !v_promotion;
        p.kings[v] |= restored & v_promotion;
        p.side = child.side.flip();
        self.found.push((p, restored));
        self.walk(f, king, restored);
        if king && child.rules == Ruleset::Russian && self.promotion & from != 0 {
            self.walk(f, false, restored);
        }
    }
}

impl Position {
    /// Every distinct position from which a legal move leads to this one (see [`Position::parents_restoring`]),
    /// sorted. Un-captures may put back any number of pieces: a lone Russian king on 8x8 has tens of thousands
    /// of parents (about 36,000 for `B:WKd4:Bh2`, found in milliseconds); an endgame database bounded in
    /// material can ask for fewer with [`Position::parents_restoring`].
    pub fn parents(&self) -> Vec<Position> {
        self.parents_restoring(u32::MAX)
    }

    /// Every distinct position P, sorted, such that a legal move of P leads to this one and puts back at most
    /// `max_restored` pieces of the side to move (0: steps only). The side that just moved is
    /// `self.side_to_move().flip()`; each put-back piece may be a man or a king (a king on its own promotion
    /// row). The result is exact: each candidate is checked by generating its legal moves.
    pub fn parents_restoring(&self, max_restored: u32) -> Vec<Position> {
        let u = self.side.flip();
        let b = self.board;
        let promotion = b.promotion_row(u);
        let mut back = Back { child: self, to: 0, promotion, empty: self.empty(), max_restored, found: Vec::new() };
        let mut pieces = self.pieces(u);
        while pieces != 0 {
            let to = pieces.trailing_zeros() as u8;
            pieces &= pieces - 1;
            back.to = to;
            let king = self.kings(u) & 1 << to != 0;
            // Steps: a man one square backwards; a king any distance (one square in English checkers); a king on
            // the promotion row from a man one square backwards.
            let step = |from: u8, as_king: bool, found: &mut Vec<(Position, u32)>| {
                let mut p = *self;
                p.men[u.index()] &= !(1 << to);
                p.kings[u.index()] &= !(1 << to);
                if as_king {
                    p.kings[u.index()] |= 1 << from;
                } else {
                    p.men[u.index()] |= 1 << from;
                }
                p.side = u;
                found.push((p, 0));
            };
            if !king || promotion & 1 << to != 0 {
                for d in u.forward() {
                    let from = b.neighbor(to, reverse(d));
                    if from != NO_SQUARE && back.empty & 1 << from != 0 {
                        step(from, false, &mut back.found);
                    }
                }
            }
            if king {
                for d in 0..4 {
                    let mut from = b.neighbor(to, d);
                    while from != NO_SQUARE && back.empty & 1 << from != 0 {
                        step(from, true, &mut back.found);
                        if self.rules == Ruleset::English {
                            break;
                        }
                        from = b.neighbor(from, d);
                    }
                }
            }
            back.walk(to, king, 0);
            if king && promotion & 1 << to != 0 {
                back.walk(to, false, 0);
            }
        }
        let mut candidates = back.found;
        candidates.sort_unstable();
        candidates.dedup();
        let v = self.side.index();
        let v_promotion = b.promotion_row(self.side);
        let mut parents = Vec::new();
        for (p, restored) in candidates {
            if !p.legal_moves().iter().any(|m| p.apply(m) == *self) {
                continue;
            }
            // The captured pieces' kinds do not change the move: every choice of men and kings is a parent.
            let choosable = restored & !v_promotion;
            let mut subset = 0u32;
            loop {
                let mut q = p;
                q.men[v] &= !subset;
                q.kings[v] |= subset;
                parents.push(q);
                if subset == choosable {
                    break;
                }
                subset = (subset.wrapping_sub(choosable)) & choosable;
            }
        }
        parents.sort_unstable();
        parents.dedup();
        parents
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_has_no_step_parent_and_a_step_undoes_one() {
        let start = Position::start(Ruleset::Russian, 8).unwrap();
        assert!(start.parents_restoring(0).is_empty());
        // Un-captures exist: e.g. a black man on d4 took a white man on c5, landing on b6.
        assert!(!start.parents_restoring(1).is_empty());
        for m in start.legal_moves() {
            assert_eq!(start.apply(&m).parents_restoring(0), vec![start]);
        }
    }
}
