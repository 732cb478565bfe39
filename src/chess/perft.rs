//! Perft: counting the leaf nodes of the legal move tree, the standard test of a move generator
//! (chessprogramming wiki, "Perft").

use super::position::Position;

/// The number of leaf nodes at `depth` plies below `pos`, counting the legal moves at the last ply instead of
/// making them (bulk counting). `perft(pos, 0)` is 1. The one perft loop, [`crate::game::perft::perft`], for
/// chess.
#[inline]
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    crate::game::perft::perft::<super::ChessGame>(pos, depth)
}

/// Perft that checks [`Position::is_consistent`] at every node besides the checks of the generic
/// [`crate::game::perft::perft_checked`] (bulk count, exact restoration), and returns the leaf count; panics
/// with the position on the first inconsistency (a test helper, slow).
pub fn perft_checked(pos: &mut Position, depth: u32) -> u64 {
    let consistent = |pos: &Position| assert!(pos.is_consistent(), "inconsistent position {pos:?}");
    crate::game::perft::perft_checked::<super::ChessGame>(pos, depth, &consistent)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(fen: &str, depth: u32) -> u64 {
        perft(&mut Position::from_fen(fen).expect("valid test FEN"), depth)
    }

    #[test]
    fn known_counts() {
        // Source: chessprogramming wiki, "Perft Results".
        assert_eq!(count("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 4), 197_281);
        assert_eq!(count("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3), 97_862);
        assert_eq!(count("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5), 674_624);
        assert_eq!(count("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 4), 422_333);
        assert_eq!(count("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 3), 62_379);
        assert_eq!(count("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 3), 89_890);
    }

    #[test]
    fn checked_perft_restores_everything() {
        let mut pos = Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .expect("Kiwipete");
        assert_eq!(perft_checked(&mut pos, 3), 97_862);
    }
}
