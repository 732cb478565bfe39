//! Checkers perft: the leaf count of the legal move tree, with bulk counting at the last ply (the legal moves
//! there are counted, not made or stored: [`Position::count_moves`]).
//!
//! Every capture path counts as a move (dctl's "keep duplicates" convention, see [`super`]).

use super::position::Position;
use super::types::Move;

/// The number of leaf nodes at `depth` plies below `pos`; `perft(pos, 0)` is 1. One move list per ply is
/// allocated up front and reused, so the tree walk itself allocates nothing once the lists have grown.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    let mut lists: Vec<Vec<Move>> = (0..depth).map(|_| Vec::with_capacity(64)).collect();
    perft_with(pos, depth, &mut lists)
}

fn perft_with(pos: &Position, depth: u32, lists: &mut [Vec<Move>]) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_moves(),
        _ => {
            let (moves, rest) = lists.split_first_mut().expect("one list per ply");
            moves.clear();
            pos.generate(moves);
            moves.iter().map(|m| perft_with(&pos.apply(m), depth - 1, rest)).sum()
        }
    }
}

/// Perft without bulk counting that checks, at every node, the generic checks of
/// [`crate::game::perft::perft_checked`] (the bulk count equals the generated list, make/unmake restores the
/// position and its key) and that the position and its key read back from its own FEN; panics with the position
/// on the first difference (a test helper, slow).
pub fn perft_checked(pos: &Position, depth: u32) -> u64 {
    let reads_back = |p: &Position| {
        let again = Position::from_fen(p.rules(), p.size(), &p.to_fen()).expect("our FEN reads back");
        assert!(again == *p && again.key() == p.key(), "FEN or key differs at {}", p.to_fen());
    };
    // The Game items read the rules and size from the position itself; only reading a FEN needs the type's.
    let mut pos = *pos;
    crate::game::perft::perft_checked::<super::Russian>(&mut pos, depth, &reads_back)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checkers::Ruleset;

    #[test]
    fn start_position_shallow_counts() {
        // Source: ../shared/suites/draughts/*_initial.keep_duplicates.epd (dctl).
        let r = Position::start(Ruleset::Russian, 8).unwrap();
        assert_eq!((1..=5).map(|d| perft(&r, d)).collect::<Vec<_>>(), [7, 49, 302, 1469, 7482]);
        assert_eq!(perft_checked(&r, 4), 1469);
        let e = Position::start(Ruleset::English, 8).unwrap();
        assert_eq!((1..=5).map(|d| perft(&e, d)).collect::<Vec<_>>(), [7, 49, 302, 1469, 7361]);
    }
}
