//! Whether the check on the side to move can have been given by one move of the other side: a one-ply
//! retro-analysis that takes back every kind of move (normal moves with or without a capture, pawn pushes and
//! double steps, promotions, en passant, castling) and asks whether, before it, the side now in check was out of
//! check, as it must have been with the other side to move.
//!
//! This is exact for double checks: one is refused only when no move at all can have given it, so double
//! checks by two knights, two pawns, a pawn and a knight, or two sliders that no single move can uncover are
//! refused, and every double check a game can produce is accepted. Three or more checkers are always refused.
//! A single check is refused only when the FEN's en-passant square names the last move (a double step) and that
//! move cannot have given it; otherwise a single check is accepted even when its checker has no way in (the
//! chessprogramming wiki's perft position 4 is such a position, and every perft suite carries it). It is stricter than python-chess's
//! `Board.status()` (`STATUS_TOO_MANY_CHECKERS`, and `STATUS_IMPOSSIBLE_CHECK` for two checkers on one line
//! with the king, or, with a valid en-passant square, any check other than one the double step gave; repo
//! niklasf/python-chess, `chess/__init__.py`), which it includes: every position python-chess refuses for its
//! check state is refused here too (the differential test `tests/integration/fen.rs::impossible_checks_match_python_chess`).

use super::attacks;
use super::bitboard::Bitboard;
use super::position::Position;
use super::types::{Color, PieceType, Square};

/// The other side's pieces by kind (index [`PieceType::index`]) and the occupancy of a position before a
/// taken-back move; only what decides whether our king was attacked.
#[derive(Clone, Copy)]
struct Before {
    theirs: [Bitboard; 6],
    occupied: Bitboard,
}

impl Before {
    /// True when `them` attacks `king` here.
    fn attacks(&self, them: Color, king: Square) -> bool {
        let t = |k: PieceType| self.theirs[k.index()];
        let queens = t(PieceType::Queen);
        !(attacks::pawn(them.flip(), king) & t(PieceType::Pawn)).is_empty()
            || !(attacks::knight(king) & t(PieceType::Knight)).is_empty()
            || !(attacks::king(king) & t(PieceType::King)).is_empty()
            || !(attacks::rook(king, self.occupied) & (t(PieceType::Rook) | queens)).is_empty()
            || !(attacks::bishop(king, self.occupied) & (t(PieceType::Bishop) | queens)).is_empty()
    }

    /// This position with one of their pieces taken back from `to` (now a `now`) to `from` (before a
    /// `was`, a pawn for a promotion); `refill` is where a captured piece of ours comes back.
    fn take_back(mut self, now: PieceType, to: Square, was: PieceType, from: Square, refill: Bitboard) -> Before {
        self.theirs[now.index()] = self.theirs[now.index()].without(to);
        self.theirs[was.index()] = self.theirs[was.index()].with(from);
        self.occupied = self.occupied.without(to).with(from) | refill;
        self
    }
}

/// Why the check on the side to move in `pos` cannot have arisen, or `None` when it can (or there is none).
/// `claimed_ep` is the en-passant square the FEN gave (already checked to have a pawn in front of it and its
/// two squares behind empty): it says the last move was that double step, so only that move is taken back.
pub(crate) fn impossible_check(pos: &Position, claimed_ep: Option<Square>) -> Option<String> {
    let checkers = pos.checkers();
    if checkers.is_empty() {
        return None;
    }
    let list = checkers
        .map(|sq| format!("{}{sq}", pos.piece_on(sq).expect("a checker stands on its square").fen_char()))
        .collect::<Vec<_>>()
        .join(" and ");
    let n = checkers.count();
    if n > 2 {
        return Some(format!("{n} pieces give check ({list}); one move can give at most two checks"));
    }
    let us = pos.side_to_move();
    let them = us.flip();
    let king = pos.king_square(us);
    let now = Before { theirs: PieceType::ALL.map(|k| pos.pieces_of(them, k)), occupied: pos.occupied() };
    let forward: i8 = if them == Color::White { 8 } else { -8 };
    if let Some(ep) = claimed_ep {
        let to = ep.offset(forward);
        let before = now.take_back(PieceType::Pawn, to, PieceType::Pawn, ep.offset(-forward), Bitboard::EMPTY);
        if before.attacks(them, king) {
            return Some(format!(
                "check from {list}, but the en-passant square {ep} says the last move was the double step to \
                 {to}, which cannot have given it"
            ));
        }
        return None;
    }
    // A single check is always the kind a move gives; whether this checker can have arrived (its origins all
    // blocked, as in the chessprogramming wiki's perft position 4, `r3k2r/Pppp1ppp/1b3nbN/...`) is a question
    // about the whole game, like pawn structures, which positions are not judged by.
    if n == 1 || any_move_gives(pos, now, them, king, forward) {
        return None;
    }
    Some(format!("double check from {list}, which no single move can give"))
}

/// True when some move of `them` leads from a position where `king` was not attacked to `pos`.
fn any_move_gives(pos: &Position, now: Before, them: Color, king: Square, forward: i8) -> bool {
    let empty = !pos.occupied();
    let safe = |before: Before| !before.attacks(them, king);
    for to in pos.color_bb(them) {
        let kind = pos.piece_on(to).expect("their piece stands on its square").kind;
        let here = Bitboard::from_square(to);
        // A move to `to` from `from`, with or without one of our pieces captured there.
        let plain = |was: PieceType, from: Square| {
            safe(now.take_back(kind, to, was, from, Bitboard::EMPTY)) || safe(now.take_back(kind, to, was, from, here))
        };
        let rank = to.relative_rank(them);
        if kind == PieceType::Pawn {
            if rank < 2 {
                continue;
            }
            let back = to.offset(-forward);
            if empty.has(back) && safe(now.take_back(kind, to, kind, back, Bitboard::EMPTY)) {
                return true;
            }
            if rank == 3
                && empty.has(back)
                && empty.has(back.offset(-forward))
                && safe(now.take_back(kind, to, kind, back.offset(-forward), Bitboard::EMPTY))
            {
                return true;
            }
            for from in attacks::pawn(them.flip(), to) & empty {
                if safe(now.take_back(kind, to, kind, from, here)) {
                    return true;
                }
                // En passant: our pawn comes back beside `from`, on the square the capture passed.
                if rank == 5
                    && empty.has(back)
                    && safe(now.take_back(kind, to, kind, from, Bitboard::from_square(back)))
                {
                    return true;
                }
            }
            continue;
        }
        let origins = match kind {
            PieceType::Knight => attacks::knight(to),
            PieceType::Bishop => attacks::bishop(to, pos.occupied()),
            PieceType::Rook => attacks::rook(to, pos.occupied()),
            PieceType::Queen => attacks::queen(to, pos.occupied()),
            _ => attacks::king(to),
        } & empty;
        if origins.into_iter().any(|from| plain(kind, from)) {
            return true;
        }
        if rank == 7 && kind != PieceType::King {
            // A promotion: the pawn came from the seventh rank straight or by a capture.
            let back = to.offset(-forward);
            if empty.has(back) && safe(now.take_back(kind, to, PieceType::Pawn, back, Bitboard::EMPTY)) {
                return true;
            }
            if (attacks::pawn(them.flip(), to) & empty)
                .into_iter()
                .any(|from| safe(now.take_back(kind, to, PieceType::Pawn, from, here)))
            {
                return true;
            }
        }
        if kind == PieceType::King && rank == 0 && castling_gives(pos, now, them, king, to) {
            return true;
        }
    }
    false
}

/// True when `them` castling, king to `to` (its back rank), can have given the check: the rook stands beside
/// the king on the inside (f-file for a king on g, d-file for a king on c), and king and rook came from squares
/// that are empty now (e1 and the corner in standard chess, any back-rank squares in Chess960).
fn castling_gives(pos: &Position, now: Before, them: Color, king: Square, to: Square) -> bool {
    let (rook_to, king_side) = match to.file() {
        6 => (to.offset(-1), true),
        2 => (to.offset(1), false),
        _ => return false,
    };
    let rook = crate::chess::Piece::new(them, PieceType::Rook);
    if pos.piece_on(rook_to) != Some(rook) {
        return false;
    }
    let back = to.rank();
    let free = |sq: Square| sq == to || sq == rook_to || pos.piece_on(sq).is_none();
    let pairs: Vec<(u8, u8)> = if pos.is_chess960() {
        (0..8u8).flat_map(|k| (0..8u8).map(move |r| (k, r))).filter(|&(k, r)| (r > k) == king_side && k != r).collect()
    } else {
        vec![(4, if king_side { 7 } else { 0 })]
    };
    pairs.into_iter().any(|(kf, rf)| {
        let (king_from, rook_from) = (Square::from_file_rank(kf, back), Square::from_file_rank(rf, back));
        if !free(king_from) || !free(rook_from) || (king_from == to && rook_from == rook_to) {
            return false;
        }
        let mut before = now;
        before.theirs[PieceType::King.index()] = Bitboard::from_square(king_from);
        let rooks = &mut before.theirs[PieceType::Rook.index()];
        *rooks = rooks.without(rook_to).with(rook_from);
        before.occupied = before.occupied.without(to).without(rook_to).with(king_from).with(rook_from);
        !before.attacks(them, king)
    })
}
