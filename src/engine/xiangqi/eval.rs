//! The Xiangqi evaluation: material plus piece-square tables, from the side to move's view, in centipawns.
//!
//! `eval = sum over Red's pieces (material + psqt[square]) - sum over Black's pieces (material +
//! psqt[mirrored square])`, negated when Black is to move. A soldier counts `soldier_crossed` instead of `soldier`
//! once it stands across the river (Red on ranks 5..9, Black on ranks 0..4). The mirrored square of `(file,
//! rank)` is `(file, 9 - rank)`.

use super::config::XiangqiWeights;
use crate::xiangqi::position::Position;
use crate::xiangqi::types::{Color, FILES, PieceType, Square};

/// The evaluation of `pos` from the side to move's view, in centipawns (see the module docs).
pub fn evaluate(pos: &Position, w: &XiangqiWeights) -> i32 {
    let mut score = 0;
    for color in [Color::RED, Color::Black] {
        let sign = if color == Color::RED { 1 } else { -1 };
        for kind in PieceType::ALL {
            let mut bits = pos.pieces(color, kind);
            while bits != 0 {
                let sq = Square::from_index(bits.trailing_zeros() as usize);
                bits &= bits - 1;
                let rank = if color == Color::RED { sq.rank() } else { 9 - sq.rank() };
                let index = rank as usize * FILES + sq.file() as usize;
                let material =
                    if kind == PieceType::Soldier && rank >= 5 { w.soldier_crossed } else { w.material[kind.index()] };
                score += sign * (material + w.psqt[kind.index()][index]);
            }
        }
    }
    if pos.side_to_move() == Color::RED { score } else { -score }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::xiangqi::config::XiangqiConfig;

    fn seed() -> XiangqiWeights {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/xiangqi/seed.toml");
        XiangqiConfig::load(&path).unwrap().weights
    }

    #[test]
    fn start_position_is_level_and_material_counts() {
        let w = seed();
        assert_eq!(evaluate(&Position::startpos(), &w), 0);
        // Red without its a0 chariot: Red is a chariot (600) and the a0 table value behind, for either mover.
        let pos = Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABNR w - - 0 1").unwrap();
        let expected = -(600 + w.psqt[PieceType::Chariot.index()][0]);
        assert_eq!(evaluate(&pos, &w), expected);
        let pos = Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABNR b - - 0 1").unwrap();
        assert_eq!(evaluate(&pos, &w), -expected);
    }
}
