//! Checkers (draughts) rules: Russian draughts on 8x8 (and on 4x4 and 6x6 with the same rules, for quick
//! tests and small endgame databases) and English checkers, with FEN, move text, copy-make, Zobrist key, perft
//! and un-move (parent) generation. Shares nothing with [`crate::chess`]; knows nothing of files or threads.
//!
//! - [`types`]: colours, rules, the board geometry (dark squares `0..n`, row-major from White's side), moves.
//! - [`position`]: the position (men and kings masks per colour), [`Position::apply`], [`Position::key`].
//! - [`movegen`]: legal moves under each game's capture rules, the bulk count, the end of the game.
//! - [`fen`]: PDN FEN and move text (`c3:e5:g3`, English `9x18x27`).
//! - [`parents`]: the positions one legal move before a given one.
//! - [`perft`].
//!
//! Rules: Russian draughts as in the rules of the Russian Draughts Federation (FMJD's 64-square "shashki"):
//! men step forwards, capture forwards and backwards; capture is mandatory but any capture may be chosen (no
//! majority rule); a capture goes on to the end; a man reaching the last row during a capture becomes a king
//! and goes on capturing as one; kings fly; captured pieces are removed when the move ends and cannot be jumped
//! twice (Turkish strike). English checkers as in the World Checkers/Draughts Federation rules: men capture
//! forwards only, kings step and jump one square, a capture ends when a man is crowned, Black moves first.
//! A side with no piece or no legal move loses ([`Position::is_loss`]).
//!
//! Duplicate captures: when two capture paths start and end on the same squares and take the same pieces,
//! Arbiter lists both (each path is its own [`Move`], told apart by its landing squares). This is dctl's
//! "keep duplicates" convention, and perft reproduces `../shared/suites/draughts/*.keep_duplicates.epd`
//! (English depth 12: 388,623,673, the number on Aart Bik's checkers page).
//!
//! ```
//! use arbiter::checkers::{Position, Ruleset, perft::perft};
//! let pos = Position::start(Ruleset::Russian, 8).unwrap();
//! assert_eq!(perft(&pos, 3), 302);
//! let m = pos.parse_move("c3-d4").unwrap();
//! let next = pos.apply(&m);
//! assert_eq!(next.to_fen(), "B:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,e3,g3,d4:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8");
//! assert_eq!(next.parents_restoring(0), vec![pos]); // the steps back; un-captures are parents too
//! ```

pub mod base;
pub mod fen;
pub mod game;
pub mod movegen;
pub mod parents;
pub mod perft;
pub mod position;
pub mod types;

pub use fen::{FenError, MoveError};
pub use game::{CheckersGame, English, Russian};
pub use position::Position;
pub use types::{Board, Move, PieceColor, Ruleset, SetupError};
