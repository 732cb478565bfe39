//! Every numeric flag of every subcommand is range-checked while the command line is parsed, through the one
//! module of value parsers (`src/cli/args.rs`, in the binary): NaN, infinities, zero limits and absurd values
//! are refused with exit code 2 and a message naming the flag, before anything runs.

use std::process::Command;

/// `(arguments, the flag the message must name)`: each is a bad value of one flag.
const BAD: &[(&[&str], &str)] = &[
    (&["match", "--stall-timeout-ms", "0"], "--stall-timeout-ms"),
    (&["match", "--ping-timeout-ms", "0"], "--ping-timeout-ms"),
    (&["match", "--handshake-timeout-ms", "0"], "--handshake-timeout-ms"),
    (&["match", "--ping-timeout-ms", "86400001"], "--ping-timeout-ms"),
    (&["match", "--nodes", "0"], "--nodes"),
    (&["match", "--depth", "0"], "--depth"),
    (&["match", "--movetime-ms", "0"], "--movetime-ms"),
    (&["match", "--games", "0"], "--games"),
    (&["match", "--rounds", "0"], "--rounds"),
    (&["match", "--maxmoves", "0"], "--maxmoves"),
    (&["epd", "x.epd", "--nodes", "0"], "--nodes"),
    (&["epd", "x.epd", "--depth", "0"], "--depth"),
    (&["epd", "x.epd", "--movetime-ms", "0"], "--movetime-ms"),
    (&["epd", "x.epd", "--threads", "0"], "--threads"),
    (&["epd", "x.epd", "--threads", "100000"], "--threads"),
    (&["perft", "--threads", "0"], "--threads"),
    (&["perft", "--threads", "1025"], "--threads"),
    (&["perft", "--compare-timeout-s", "0"], "--compare-timeout-s"),
    (
        &["sprt", "simulate", "--elo", "nan", "--draw-ratio", "0.5", "--elo0", "0", "--elo1", "5", "--runs", "1"],
        "--elo",
    ),
    (
        &["sprt", "simulate", "--elo", "0", "--draw-ratio", "inf", "--elo0", "0", "--elo1", "5", "--runs", "1"],
        "--draw-ratio",
    ),
    (
        &["sprt", "simulate", "--elo", "0", "--draw-ratio", "0.5", "--elo0", "-inf", "--elo1", "5", "--runs", "1"],
        "--elo0",
    ),
    (
        &["sprt", "simulate", "--elo", "0", "--draw-ratio", "0.5", "--elo0", "0", "--elo1", "NaN", "--runs", "1"],
        "--elo1",
    ),
    (&["sprt", "simulate", "--alpha", "0"], "--alpha"),
    (&["sprt", "simulate", "--beta", "1"], "--beta"),
    (&["sprt", "simulate", "--bias", "inf"], "--bias"),
    (&["sprt", "simulate", "--threads", "0"], "--threads"),
    (&["sprt", "--elo0", "nan"], "--elo0"),
    (&["sprt", "--elo1", "inf"], "--elo1"),
    (&["sprt", "--alpha", "NaN"], "--alpha"),
    (&["sprt", "--beta", "0"], "--beta"),
    (&["tune", "--lr", "nan"], "--lr"),
    (&["tune", "--lr", "0"], "--lr"),
    (&["tune", "--lr=-1"], "--lr"),
    (&["tune", "--lr", "inf"], "--lr"),
    (&["tune", "--epochs", "0"], "--epochs"),
    (&["tune", "--threads", "0"], "--threads"),
    (&["elo", "x.csv", "--bootstrap", "1000001"], "--bootstrap"),
    (&["elo", "x.csv", "--bootstrap=-1"], "--bootstrap"),
    (&["bench", "--depth", "0"], "--depth"),
    (&["bench", "--depth", "65"], "--depth"),
    (&["book", "--positions", "0"], "--positions"),
    (&["book", "--nodes", "0"], "--nodes"),
    (&["book", "--window=-5"], "--window"),
    (&["datagen", "--games", "0"], "--games"),
    (&["datagen", "--nodes", "0"], "--nodes"),
    (&["datagen", "--concurrency", "0"], "--concurrency"),
    (&["datagen", "--maxplies", "0"], "--maxplies"),
    (&["checkers", "build", "--pieces", "3", "--threads", "0"], "--threads"),
    (&["checkers", "build", "--pieces", "3", "--threads", "4096"], "--threads"),
    (&["checkers", "verify", "--pieces", "3", "--threads", "0"], "--threads"),
    (&["checkers", "verify", "--pieces", "3", "--threads", "4096"], "--threads"),
];

#[test]
fn every_bad_numeric_flag_is_refused_naming_the_flag() {
    for (args, flag) in BAD {
        let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(*args)
            .current_dir(env!("CARGO_TARGET_TMPDIR"))
            .output()
            .expect("run the arbiter binary");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "arbiter {args:?}: {stderr}");
        assert!(stderr.contains(&format!("for '{flag} ")), "arbiter {args:?}: {stderr}");
        assert!(stderr.contains("expected "), "arbiter {args:?}: {stderr}");
        assert!(!stderr.to_lowercase().contains("panick"), "arbiter {args:?}: {stderr}");
    }
}
