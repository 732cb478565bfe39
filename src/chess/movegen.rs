//! Legal move generation with check and pin masks (no make-and-test except for en passant).
//!
//! Method (chessprogramming wiki, "Checks and Pinned Pieces"): in double check only the king moves; in single
//! check every other move must land on the check ray or capture the checker; a pinned piece moves only along the
//! line through its king and itself. King moves are tested with the king removed from the occupancy so that it
//! cannot hide behind itself from a slider. En passant is tested by removing both pawns from the occupancy.

use super::attacks;
use super::bitboard::Bitboard;
use super::moves::{Move, MoveList};
use super::position::{Position, castling_targets};
use super::types::{Color, PieceType, Square};

/// Where generated moves go: a [`MoveList`], or a plain counter for bulk-counting perft.
pub trait MoveSink {
    /// Adds one move.
    fn push(&mut self, m: Move);
    /// Adds a normal move from `from` to each square of `targets`.
    #[inline]
    fn push_targets(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            self.push(Move::normal(from, to));
        }
    }
    /// Adds a normal pawn move to each square of `targets`, coming from `delta` squares back.
    #[inline]
    fn push_shifted(&mut self, targets: Bitboard, delta: i8) {
        for to in targets {
            self.push(Move::normal(to.offset(-delta), to));
        }
    }
}

impl MoveSink for MoveList {
    #[inline]
    fn push(&mut self, m: Move) {
        MoveList::push(self, m);
    }
}

/// Counts moves without storing them (perft's last ply).
#[derive(Default)]
pub struct MoveCounter(pub u64);

impl MoveSink for MoveCounter {
    #[inline]
    fn push(&mut self, _m: Move) {
        self.0 += 1;
    }
    #[inline]
    fn push_targets(&mut self, _from: Square, targets: Bitboard) {
        self.0 += u64::from(targets.count());
    }
    #[inline]
    fn push_shifted(&mut self, targets: Bitboard, _delta: i8) {
        self.0 += u64::from(targets.count());
    }
}

/// Shifts a set by `delta` squares (positive: towards h8).
#[inline]
fn shift(b: Bitboard, delta: i8) -> Bitboard {
    if delta > 0 { Bitboard(b.0 << delta) } else { Bitboard(b.0 >> -delta) }
}

/// Pushes the promotions of a pawn move: queen only for a captures-only generation, else all four.
#[inline]
fn push_promotions<S: MoveSink>(list: &mut S, from: Square, to: Square, captures_only: bool) {
    list.push(Move::promotion(from, to, PieceType::Queen));
    if !captures_only {
        list.push(Move::promotion(from, to, PieceType::Rook));
        list.push(Move::promotion(from, to, PieceType::Bishop));
        list.push(Move::promotion(from, to, PieceType::Knight));
    }
}

crate::cpu::versions! {
    fn generate_v3, generate_generic <S: MoveSink> (pos: &Position, list: &mut S, captures_only: bool) -> () {
        pos.generate_inline(list, captures_only)
    }
    fn count_v3, count_generic (pos: &Position) -> u64 {
        let mut c = MoveCounter(0);
        pos.generate_inline(&mut c, false);
        c.0
    }
}

impl Position {
    /// The number of legal moves, counted without building a list (bulk counting at perft's last ply).
    pub fn count_legal_moves(&self) -> u64 {
        crate::cpu::dispatch!(count_v3, count_generic, (self))
    }

    /// All legal moves of the side to move.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(&mut list, false);
        list
    }

    /// Legal captures, en-passant captures and queen promotions (the moves a quiescence search tries).
    pub fn legal_captures(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(&mut list, true);
        list
    }

    /// True when `m` is one of the legal moves here.
    pub fn is_legal(&self, m: Move) -> bool {
        self.legal_moves().contains(m)
    }

    /// Appends the legal moves (or only captures and queen promotions when `captures_only`) to `list`.
    pub fn generate<S: MoveSink>(&self, list: &mut S, captures_only: bool) {
        crate::cpu::dispatch!(generate_v3, generate_generic, (self, list, captures_only))
    }

    /// [`Position::generate`]'s body, inlined into each code path's copy ([`crate::cpu`]).
    #[inline(always)]
    fn generate_inline<S: MoveSink>(&self, list: &mut S, captures_only: bool) {
        let us = self.side_to_move();
        let them = us.flip();
        let ours = self.color_bb(us);
        let theirs = self.color_bb(them);
        let occ = self.occupied();
        let king = self.king_square(us);
        let checkers = self.checkers();

        let king_targets = attacks::king(king) & !ours & if captures_only { theirs } else { Bitboard::FULL };
        let occ_without_king = occ.without(king);
        for to in king_targets {
            if !self.attacked_by(them, to, occ_without_king) {
                list.push(Move::normal(king, to));
            }
        }
        if checkers.more_than_one() {
            return;
        }
        let check_mask = match checkers.lsb() {
            Some(c) => attacks::between(king, c).with(c),
            None => Bitboard::FULL,
        };
        let target = check_mask & !ours & if captures_only { theirs } else { Bitboard::FULL };
        let pinned = self.pinned_inline(us);

        let knights = self.pieces_of(us, PieceType::Knight) & !pinned;
        for from in knights {
            list.push_targets(from, attacks::knight(from) & target);
        }
        let queens = self.pieces_of(us, PieceType::Queen);
        for from in self.pieces_of(us, PieceType::Bishop) | queens {
            let mut t = attacks::bishop(from, occ) & target;
            if pinned.has(from) {
                t &= attacks::line(king, from);
            }
            list.push_targets(from, t);
        }
        for from in self.pieces_of(us, PieceType::Rook) | queens {
            let mut t = attacks::rook(from, occ) & target;
            if pinned.has(from) {
                t &= attacks::line(king, from);
            }
            list.push_targets(from, t);
        }
        self.generate_pawns(list, captures_only, check_mask, pinned, king);
        if checkers.is_empty() && !captures_only {
            self.generate_castling(list, king);
        }
    }

    #[inline(always)]
    fn generate_pawns<S: MoveSink>(
        &self,
        list: &mut S,
        captures_only: bool,
        check_mask: Bitboard,
        pinned: Bitboard,
        king: Square,
    ) {
        let us = self.side_to_move();
        let them = us.flip();
        let occ = self.occupied();
        let theirs = self.color_bb(them);
        let white = us == Color::White;
        let (fwd, west, east): (i8, i8, i8) = if white { (8, 7, 9) } else { (-8, -9, -7) };
        let promo_bb = Bitboard::rank(if white { 7 } else { 0 });
        let double_rank = Bitboard::rank(if white { 2 } else { 5 });
        let pawns = self.pieces_of(us, PieceType::Pawn);
        let empty = !occ;

        // Unpinned pawns, set-wise: every target of one kind at once.
        let free = pawns & !pinned;
        let one = shift(free, fwd) & empty;
        let two = shift(one & double_rank, fwd) & empty & check_mask;
        let one = one & check_mask;
        let cap_west = shift(free & !Bitboard::FILE_A, west) & theirs & check_mask;
        let cap_east = shift(free & !Bitboard::FILE_H, east) & theirs & check_mask;
        if !captures_only {
            list.push_shifted(one & !promo_bb, fwd);
            list.push_shifted(two, 2 * fwd);
        }
        list.push_shifted(cap_west & !promo_bb, west);
        list.push_shifted(cap_east & !promo_bb, east);
        for (set, delta) in [(one & promo_bb, fwd), (cap_west & promo_bb, west), (cap_east & promo_bb, east)] {
            for to in set {
                push_promotions(list, to.offset(-delta), to, captures_only);
            }
        }

        // Pinned pawns, one by one, along the pin line.
        for from in pawns & pinned {
            let allowed = attacks::line(king, from) & check_mask;
            let mut targets = attacks::pawn(us, from) & theirs;
            let one = from.offset(fwd);
            if !occ.has(one) && (!captures_only || promo_bb.has(one)) {
                targets = targets.with(one);
                if !captures_only && double_rank.has(one) && !occ.has(one.offset(fwd)) {
                    targets = targets.with(one.offset(fwd));
                }
            }
            let targets = targets & allowed;
            list.push_targets(from, targets & !promo_bb);
            for to in targets & promo_bb {
                push_promotions(list, from, to, captures_only);
            }
        }

        // En passant: the stored square guarantees some capture is legal; test each pawn's.
        if let Some(ep) = self.ep_square() {
            let cap = ep.offset(-fwd);
            for from in attacks::pawn(them, ep) & pawns {
                let occ2 = occ.without(from).without(cap).with(ep);
                if (self.attackers_to(king, occ2) & theirs.without(cap)).is_empty() {
                    list.push(Move::en_passant(from, ep));
                }
            }
        }
    }

    #[inline(always)]
    fn generate_castling<S: MoveSink>(&self, list: &mut S, king: Square) {
        let us = self.side_to_move();
        let them = us.flip();
        for king_side in [true, false] {
            let bit = (us as usize) * 2 + usize::from(!king_side);
            if self.castling_rights() & (1 << bit) == 0 {
                continue;
            }
            let rook = self.castling_rook(bit);
            let (kto, rto) = castling_targets(king, rook);
            let occ = self.occupied().without(king).without(rook);
            let must_be_empty = attacks::between(king, kto).with(kto) | attacks::between(rook, rto).with(rto);
            if !(must_be_empty & occ).is_empty() {
                continue;
            }
            let path = attacks::between(king, kto).with(kto);
            if path.into_iter().any(|s| self.attacked_by(them, s, occ)) {
                continue;
            }
            list.push(Move::castling(king, rook));
        }
    }
}
