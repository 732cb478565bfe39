//! Suites: solving EPD test suites with the built-in engine ([`epd`]), the game-independent perft driver (split
//! over root moves, transposition table) and comparing perft against another generator to find where two move
//! generators first disagree.

pub mod compare;
pub mod epd;
pub mod perft;
