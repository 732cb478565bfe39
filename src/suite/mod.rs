//! Suites: the game-independent perft driver (split over root moves, transposition table) and comparing perft
//! against another generator to find where two move generators first disagree.

pub mod compare;
