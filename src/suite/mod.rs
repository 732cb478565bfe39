//! Suites: solving EPD test suites with the built-in engine ([`epd`]), perft suites for any game (reading the
//! `;Dn` counts, counting them in parallel) and comparing perft against another generator to find where two move
//! generators first disagree.

pub mod compare;
pub mod epd;
pub mod perft;
