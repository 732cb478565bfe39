//! Xiangqi (Chinese chess) rules: the 9x10 board, bit-rank/bit-file move tables for chariots and cannons, the
//! position with make/unmake and Zobrist key, legal move generation, FEN, perft and repetition detection.
//! Shares nothing with [`crate::chess`]; knows nothing of files, threads or printing.
//!
//! - [`types`]: squares (`a0`..`i9`), colours, pieces, moves (`h2e2`) and the move list.
//! - [`tables`]: the rank and file tables `[point][occupancy word]` and the step tables, built at compile time.
//! - [`position`]: the position, make/unmake, and the attack check on the 90 squares.
//! - [`movegen`]: pseudo-legal generation, the legality filter, move text, the end of the game.
//! - [`fen`]: FEN as Fairy-Stockfish writes it.
//! - [`perft`], [`game`] (repetitions and the perpetual-check rule), [`zobrist`].
//!
//! ```
//! use arbiter::xiangqi::{Position, perft::perft};
//! let mut pos = Position::startpos();
//! assert_eq!(perft(&mut pos, 2), 1920);
//! let m = pos.parse_move("h2e2").unwrap(); // the central cannon
//! pos.make_move(m);
//! assert_eq!(pos.to_fen(), "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
//! ```

pub mod fen;
pub mod game;
pub mod movegen;
pub mod perft;
pub mod position;
pub mod rules;
pub mod tables;
pub mod types;
pub mod zobrist;

pub use fen::{FenError, START_FEN};
pub use game::{RepetitionVerdict, XiangqiGame};
pub use movegen::{MoveError, Outcome, to_ranks_0_to_9, to_ranks_1_to_10};
pub use position::{Position, Undo};
pub use rules::NO_CAPTURE_PLIES;
pub use types::{Color, Move, MoveList, Piece, PieceType, Square};
