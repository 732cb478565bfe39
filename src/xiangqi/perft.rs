//! Xiangqi perft: the leaf count of the legal move tree, with bulk counting at the last ply (the legal moves
//! there are counted, not made), as chess perft does.

use super::position::Position;

/// The number of leaf nodes at `depth` plies below `pos`; `perft(pos, 0)` is 1. The position is restored.
/// The one perft loop, [`crate::game::perft::perft`], for Xiangqi.
#[inline]
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    crate::game::perft::perft::<super::XiangqiGame>(pos, depth)
}

/// Perft that checks [`Position::is_consistent`] at every node besides the checks of the generic
/// [`crate::game::perft::perft_checked`] (bulk count, exact restoration with the key), and returns the leaf
/// count; panics with the position on the first inconsistency (a test helper, slow).
pub fn perft_checked(pos: &mut Position, depth: u32) -> u64 {
    let consistent = |pos: &Position| assert!(pos.is_consistent(), "inconsistent position {pos:?}");
    crate::game::perft::perft_checked::<super::XiangqiGame>(pos, depth, &consistent)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_shallow_counts() {
        // Source: ../shared/suites/xiangqi/xiangqi_perft.epd line 1 (see its PROVENANCE.md).
        let mut pos = Position::startpos();
        assert_eq!(perft(&mut pos, 1), 44);
        assert_eq!(perft(&mut pos, 2), 1_920);
        assert_eq!(perft(&mut pos, 3), 79_666);
        assert_eq!(perft_checked(&mut pos, 2), 1_920);
        let rows = crate::game::perft::divide::<crate::xiangqi::XiangqiGame>(&mut pos, 2);
        assert_eq!(rows.len(), 44);
        assert_eq!(rows.iter().map(|r| r.1).sum::<u64>(), 1_920);
    }
}
