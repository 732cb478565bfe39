//! Helpers shared by the checkers tests (`tests/integration/checkers.rs`, `tests/integration/checkers_base.rs`).

use arbiter::checkers::{PieceColor, Position, Ruleset};

/// Every valid position of the 4x4 board (each of the 8 squares empty or holding one of 4 pieces, either side
/// to move).
pub fn every_4x4_position() -> Vec<Position> {
    let mut out = Vec::new();
    for code in 0..5u32.pow(8) {
        let (mut men, mut kings) = ([0u32; 2], [0u32; 2]);
        let mut c = code;
        for s in 0..8 {
            match c % 5 {
                1 => men[0] |= 1 << s,
                2 => kings[0] |= 1 << s,
                3 => men[1] |= 1 << s,
                4 => kings[1] |= 1 << s,
                _ => {}
            }
            c /= 5;
        }
        for side in [PieceColor::White, PieceColor::Black] {
            if let Ok(p) = Position::new(Ruleset::Russian, 4, men, kings, side) {
                out.push(p);
            }
        }
    }
    out
}
