//! Legal move generation: captures first (capture is mandatory, any capture may be chosen), each capture
//! followed to the end of its path; steps only when no capture exists. Also the bulk count for perft and the
//! end of the game.
//!
//! Captures follow the rules of [`Ruleset`]: the captured pieces stay on the board until the move ends and are
//! jumped once only (the Turkish strike rule: a captured piece blocks the path); a Russian king flies (it
//! jumps a piece any distance away along a diagonal and lands on any empty square beyond; when landing on some
//! of those squares lets it capture again, it must land on one of them); a Russian man that reaches the last
//! row during a capture becomes a king and continues capturing as a king; an English man captures forwards
//! only and its move ends when it is promoted; an English king jumps adjacent pieces only.

use super::position::Position;
use super::types::{Board, MAX_LANDINGS, Move, NO_SQUARE, PieceColor, Ruleset};

/// Where generated captures go: a list, or a counter for perft's last ply.
trait Sink {
    fn capture(&mut self, from: u8, landings: &[u8], captured: u32, promotes: bool);
}

impl Sink for Vec<Move> {
    #[inline]
    fn capture(&mut self, from: u8, landings: &[u8], captured: u32, promotes: bool) {
        self.push(Move::capture(from, landings, captured, promotes));
    }
}

/// Counts captures without storing them.
struct Count(u64);

impl Sink for Count {
    #[inline]
    fn capture(&mut self, _: u8, _: &[u8], _: u32, _: bool) {
        self.0 += 1;
    }
}

/// What does not change during one piece's capture search.
struct Capture {
    board: Board,
    flying: bool,
    english: bool,
    from: u8,
    was_man: bool,
    /// The capturer's man directions (all four under Russian rules).
    man_dirs: &'static [usize],
    /// The opponent's pieces (captured ones included: [`Capture::search`] skips those).
    them: u32,
    /// Squares a capturing piece may pass and land on: empty, or the square it started from.
    free: u32,
    promotion: u32,
}

/// A path under construction.
struct Path {
    landings: [u8; MAX_LANDINGS],
    len: usize,
}

const ALL_DIRS: [usize; 4] = [0, 1, 2, 3];
/// The two directions perpendicular to each direction (`NE`: `NW`, `SE`; ...).
const TURNS: [[usize; 2]; 4] = [[1, 2], [0, 3], [0, 3], [1, 2]];
const WHITE_FORWARD: [usize; 2] = PieceColor::White.forward();
const BLACK_FORWARD: [usize; 2] = PieceColor::Black.forward();

impl Capture {
    /// Follows every capture from `sq` (the piece a king when `king`, `captured` already taken), sending each
    /// finished path to `sink`; whether any capture exists from `sq`. A flying king looks in `dirs` only: after
    /// a jump it goes on straight from the first square beyond the captured piece, and turns (to the two
    /// perpendicular directions) from each landing square, so that each path is found once.
    fn search<S: Sink>(
        &self,
        sq: u8,
        king: bool,
        captured: u32,
        dirs: &[usize],
        path: &mut Path,
        sink: &mut S,
    ) -> bool {
        let b = self.board;
        let mut found = false;
        if king && self.flying {
            for &d in dirs {
                let mut s = b.neighbor(sq, d);
                while s != NO_SQUARE && self.free & 1 << s != 0 {
                    s = b.neighbor(s, d);
                }
                if s == NO_SQUARE || (self.them & !captured) & 1 << s == 0 {
                    continue;
                }
                let taken = captured | 1 << s;
                let first = b.neighbor(s, d);
                if first == NO_SQUARE || self.free & 1 << first == 0 {
                    continue;
                }
                found = true;
                // Landings that let the king capture again are forced; the others only when there are none.
                path.landings[path.len] = first;
                path.len += 1;
                let mut continued = self.search(first, true, taken, &[d], path, sink);
                let mut l = first;
                while l != NO_SQUARE && self.free & 1 << l != 0 {
                    path.landings[path.len - 1] = l;
                    continued |= self.search(l, true, taken, &TURNS[d], path, sink);
                    l = b.neighbor(l, d);
                }
                path.len -= 1;
                if !continued {
                    let mut l = first;
                    while l != NO_SQUARE && self.free & 1 << l != 0 {
                        path.landings[path.len] = l;
                        sink.capture(self.from, &path.landings[..=path.len], taken, self.was_man);
                        l = b.neighbor(l, d);
                    }
                }
            }
        } else {
            let dirs: &[usize] = if king { &ALL_DIRS } else { self.man_dirs };
            for &d in dirs {
                let c = b.neighbor(sq, d);
                if c == NO_SQUARE || (self.them & !captured) & 1 << c == 0 {
                    continue;
                }
                let l = b.neighbor(c, d);
                if l == NO_SQUARE || self.free & 1 << l == 0 {
                    continue;
                }
                found = true;
                let taken = captured | 1 << c;
                path.landings[path.len] = l;
                path.len += 1;
                let promoted = !king && self.promotion & 1 << l != 0;
                let ends = promoted && self.english;
                if ends || !self.search(l, king || promoted, taken, &ALL_DIRS, path, sink) {
                    sink.capture(self.from, &path.landings[..path.len], taken, self.was_man && (king || promoted));
                }
                path.len -= 1;
            }
        }
        found
    }
}

impl Position {
    /// The capturer's man directions: all four in Russian draughts, forwards in English checkers.
    fn man_capture_dirs(&self) -> &'static [usize] {
        match (self.rules, self.side) {
            (Ruleset::Russian, _) => &ALL_DIRS,
            (Ruleset::English, PieceColor::White) => &WHITE_FORWARD,
            (Ruleset::English, PieceColor::Black) => &BLACK_FORWARD,
        }
    }

    /// Whether the side to move has a capture (and so must capture).
    pub fn has_capture(&self) -> bool {
        let b = self.board;
        let us = self.side;
        let (them, empty) = (self.pieces(us.flip()), self.empty());
        let jumps = |from: u32, d: usize| b.step(b.step(from, d) & them, d) & empty != 0;
        let men = self.men(us);
        let kings = self.kings(us);
        if self.man_capture_dirs().iter().any(|&d| jumps(men, d)) {
            return true;
        }
        if kings == 0 {
            return false;
        }
        match self.rules {
            Ruleset::English => ALL_DIRS.iter().any(|&d| jumps(kings, d)),
            Ruleset::Russian => ALL_DIRS.iter().any(|&d| {
                // Each king's ray, one step at a time: pieces met after empty squares, jumpable when the
                // square beyond is empty. Rays of kings in one direction never overlap.
                let mut ray = b.step(kings, d);
                loop {
                    if b.step(ray & them, d) & empty != 0 {
                        return true;
                    }
                    ray &= empty;
                    if ray == 0 {
                        return false;
                    }
                    ray = b.step(ray, d);
                }
            }),
        }
    }

    /// Sends every capture of the side to move to `sink`.
    fn captures<S: Sink>(&self, sink: &mut S) {
        let us = self.side;
        let mut ctx = Capture {
            board: self.board,
            flying: self.rules == Ruleset::Russian,
            english: self.rules == Ruleset::English,
            from: 0,
            was_man: true,
            man_dirs: self.man_capture_dirs(),
            them: self.pieces(us.flip()),
            free: 0,
            promotion: self.board.promotion_row(us),
        };
        let mut path = Path { landings: [0; MAX_LANDINGS], len: 0 };
        let empty = self.empty();
        let mut pieces = self.pieces(us);
        while pieces != 0 {
            let from = pieces.trailing_zeros() as u8;
            pieces &= pieces - 1;
            let king = self.kings(us) & 1 << from != 0;
            ctx.from = from;
            ctx.was_man = !king;
            ctx.free = empty | 1 << from;
            ctx.search(from, king, 0, &ALL_DIRS, &mut path, sink);
        }
    }

    /// Appends the legal moves to `moves` (captures if any, else steps), in generation order: by origin square,
    /// then direction (`NE`, `NW`, `SE`, `SW`), then distance. No allocation beyond `moves` growing.
    pub fn generate(&self, moves: &mut Vec<Move>) {
        if self.has_capture() {
            self.captures(moves);
            return;
        }
        let b = self.board;
        let us = self.side;
        let empty = self.empty();
        let promotion = b.promotion_row(us);
        let mut men = self.men(us);
        while men != 0 {
            let from = men.trailing_zeros() as u8;
            men &= men - 1;
            for d in us.forward() {
                let to = b.neighbor(from, d);
                if to != NO_SQUARE && empty & 1 << to != 0 {
                    moves.push(Move::step(from, to, promotion & 1 << to != 0));
                }
            }
        }
        let mut kings = self.kings(us);
        while kings != 0 {
            let from = kings.trailing_zeros() as u8;
            kings &= kings - 1;
            for d in ALL_DIRS {
                let mut to = b.neighbor(from, d);
                while to != NO_SQUARE && empty & 1 << to != 0 {
                    moves.push(Move::step(from, to, false));
                    if self.rules == Ruleset::English {
                        break;
                    }
                    to = b.neighbor(to, d);
                }
            }
        }
    }

    /// The legal moves (see [`Position::generate`]).
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::with_capacity(32);
        self.generate(&mut moves);
        moves
    }

    /// The number of legal moves, counted without generating steps (perft's bulk count at the last ply).
    pub fn count_moves(&self) -> u64 {
        if self.has_capture() {
            let mut count = Count(0);
            self.captures(&mut count);
            return count.0;
        }
        let b = self.board;
        let us = self.side;
        let empty = self.empty();
        let men = self.men(us);
        let kings = self.kings(us);
        let mut n = 0;
        for d in us.forward() {
            n += (b.step(men, d) & empty).count_ones();
        }
        if kings != 0 {
            for d in ALL_DIRS {
                let mut ray = b.step(kings, d) & empty;
                while ray != 0 {
                    n += ray.count_ones();
                    if self.rules == Ruleset::English {
                        break;
                    }
                    ray = b.step(ray, d) & empty;
                }
            }
        }
        u64::from(n)
    }

    /// Whether the side to move has lost: it has no piece or no legal move (the rules of both games).
    pub fn is_loss(&self) -> bool {
        self.count_moves() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_moves() {
        let p = Position::start(Ruleset::Russian, 8).unwrap();
        assert_eq!(p.legal_moves().len(), 7);
        assert_eq!(p.count_moves(), 7);
        assert!(!p.has_capture());
        let p4 = Position::start(Ruleset::Russian, 4).unwrap();
        assert_eq!(p4.count_moves(), 3);
    }
}
