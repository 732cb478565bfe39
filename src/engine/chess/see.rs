//! Static exchange evaluation (SEE): the material balance, in centipawns, of the whole sequence of captures on
//! one square that a move starts, each side always recapturing with its least valuable attacker and free to
//! stop when going on would lose (the swap algorithm of the chessprogramming wiki, "SEE - The Swap Algorithm").
//!
//! X-rays through the capturing pieces (a rook behind a rook, a queen behind a bishop) are found by
//! recomputing slider attacks on the shrinking occupancy; pins and checks are ignored, as usual for SEE.

use crate::chess::attacks;
use crate::chess::{Bitboard, Move, MoveKind, PieceType, Position};

/// Piece values used by the exchange, indexed by `PieceType::index` (pawn, knight, bishop, rook, queen, king),
/// in centipawns: the classical 1-3-3-5-9 (chessprogramming wiki, "Point Value"); the king is worth more than
/// everything else together, so that it never captures into an attacked square profitably.
pub const SEE_VALUES: [i32; 6] = [100, 300, 300, 500, 900, 20_000];

/// The value of `kind` in [`SEE_VALUES`], in centipawns.
#[inline]
pub fn see_value(kind: PieceType) -> i32 {
    SEE_VALUES[kind.index()]
}

/// The static exchange evaluation of `m` in `pos`, in centipawns from the mover's view: positive when the
/// exchange the move starts wins material, 0 for quiet moves that cannot be taken profitably and for castling.
///
/// A promotion counts the promoted piece's gain over the pawn. `m` must be pseudo-legal in `pos` (a move of
/// `pos.legal_moves()`); for other moves the value means nothing, but the function does not panic.
pub fn see(pos: &Position, m: Move) -> i32 {
    crate::cpu::dispatch!(see_v3, see_generic, (pos, m))
}

crate::cpu::versions! {
    fn see_v3, see_generic (pos: &Position, m: Move) -> i32 { see_inline(pos, m) }
}

#[inline(always)]
fn see_inline(pos: &Position, m: Move) -> i32 {
    if m.kind() == MoveKind::Castling {
        return 0;
    }
    let (from, to) = (m.from(), m.to());
    let Some(mover) = pos.piece_on(from) else { return 0 };
    let mut gain = [0i32; 40];
    let mut occ = pos.occupied();
    gain[0] = pos.captured_piece(m).map_or(0, |p| see_value(p.kind));
    let mut on_square = mover.kind;
    if let Some(promoted) = m.promotion_piece() {
        gain[0] += see_value(promoted) - see_value(PieceType::Pawn);
        on_square = promoted;
    }
    if m.kind() == MoveKind::EnPassant {
        // The captured pawn stands behind the target square, on the mover's fifth rank.
        let behind = if mover.color.index() == 0 { to.index() - 8 } else { to.index() + 8 };
        occ = occ.without(crate::chess::Square::new(behind as u8));
    }
    occ = occ.without(from);
    let diagonal = pos.pieces_kind(PieceType::Bishop) | pos.pieces_kind(PieceType::Queen);
    let straight = pos.pieces_kind(PieceType::Rook) | pos.pieces_kind(PieceType::Queen);
    let mut attackers = pos.attackers_to(to, occ) & occ;
    let mut side = mover.color.flip();
    let mut d = 0;
    loop {
        let mine = attackers & pos.color_bb(side);
        let Some((sq, kind)) = least_valuable(pos, mine) else { break };
        if kind == PieceType::King && !(attackers & pos.color_bb(side.flip())).is_empty() {
            // The king may not capture onto a square the other side still attacks.
            break;
        }
        d += 1;
        if d >= gain.len() {
            break;
        }
        gain[d] = see_value(on_square) - gain[d - 1];
        occ = occ.without(sq);
        attackers = (attackers | (attacks::bishop(to, occ) & diagonal) | (attacks::rook(to, occ) & straight)) & occ;
        on_square = kind;
        side = side.flip();
    }
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    gain[0]
}

/// True when [`see`] of `m` is at least `threshold` centipawns.
#[inline]
pub fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    see(pos, m) >= threshold
}

/// The least valuable piece of `set` (all of one colour), with its square.
#[inline]
fn least_valuable(pos: &Position, set: Bitboard) -> Option<(crate::chess::Square, PieceType)> {
    if set.is_empty() {
        return None;
    }
    PieceType::ALL.iter().find_map(|&kind| (set & pos.pieces_kind(kind)).lsb().map(|sq| (sq, kind)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see_of(fen: &str, uci: &str) -> i32 {
        let pos = Position::from_fen(fen).expect("a valid test FEN");
        let m = pos.legal_moves().iter().copied().find(|m| m.to_string() == uci).expect("a legal test move");
        see(&pos, m)
    }

    #[test]
    fn chessprogramming_wiki_examples() {
        // chessprogramming wiki, "Static Exchange Evaluation": Rxe5 wins a pawn (the e5 pawn is undefended).
        assert_eq!(see_of("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5"), 100);
        // Same page: Nxe5 loses the knight for a pawn after NxN RxN BxR QxB QxQ, with x-rays behind the rook
        // and the bishop (-225 there with N = 325; -200 with N = 300).
        assert_eq!(see_of("1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1", "d3e5"), -200);
    }

    #[test]
    fn simple_exchanges() {
        // Pawn takes a knight defended by a pawn: +300 - 100.
        assert_eq!(see_of("4k3/8/2p5/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5"), 200);
        // Queen takes a pawn defended by a pawn: loses the queen for a pawn.
        assert_eq!(see_of("4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1", "d2d5"), 100 - 900);
        // A quiet move to an attacked square loses the piece.
        assert_eq!(see_of("4k3/8/8/3p4/8/8/8/2R1K3 w - - 0 1", "c1c4"), -500);
        // The king cannot recapture on a defended square: Rxd7+ wins the rook for... the d7 pawn only.
        assert_eq!(see_of("3k4/3p4/8/8/8/8/3R4/3RK3 w - - 0 1", "d2d7"), 100);
        // En passant wins a pawn.
        assert_eq!(see_of("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), 100);
        // Castling is neutral.
        assert_eq!(see_of("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1"), 0);
    }
}
