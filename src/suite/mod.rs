//! Suites: comparing perft against another generator to find where two move generators first disagree.

pub mod compare;
