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

/// `(arguments, the start of the error line)`: library errors name the value, the command line adds the flag
/// (`src/cli/flags.rs`); each of these fails before any engine starts.
const FLAGGED: &[(&[&str], &str)] = &[
    (&["match", "--engine", "name=seed,hash=1"], "error: --engine: unknown key `hash`, expected one of: name,"),
    (&["match", "--each", "foo=1"], "error: --each: unknown key `foo`"),
    (&["match", "--sprt", "elo0=0"], "error: --sprt: missing key `elo1`"),
    (&["match", "--openings", "file=x.epd,moves=3"], "error: --openings: unknown key `moves`"),
    (&["match", "--openings", "file=x.epd,depth=3"], "error: --openings depth applies to Polyglot books only"),
    (&["match", "--draw", "movenumber=x"], "error: --draw: movenumber=\"x\" is not valid"),
    (&["match", "--game", "russian"], "error: --game russian: arbiter match plays chess and xiangqi"),
    (&["book", "--game", "russian"], "error: --game russian: arbiter book plays chess and xiangqi"),
    (&["bench", "--bench-args", "3"], "error: engine seed: bench arguments (--bench-args) apply to external engines"),
    (&["perft", "--compare-with", "a \"b", "--depth", "1"], "error: --compare-with \"a \\\"b\": an unclosed quote"),
    (
        &["datagen", "--engine", "cmd=/bin/true", "--games", "1", "--out", "flagged.epd"],
        "error: --engine: true (/bin/true) has no move limit: an external engine would search until told to stop; \
         give --nodes N, --depth N, --movetime-ms MS or --tc TC",
    ),
];

/// The flags every `arbiter sprt simulate` of [`SIMULATE`] is given besides its own.
const SIMULATE_BASE: &str =
    "sprt simulate --draw-ratio 0.5 --elo0 0 --elo1 5 --alpha 0.05 --beta 0.05 --model normalized --runs 10";

/// As [`FLAGGED`], for `arbiter sprt simulate` after [`SIMULATE_BASE`].
const SIMULATE: &[(&[&str], &str)] = &[
    (&["--elo", "5000"], "error: --elo: expected a number from -1000 to 1000 (Elo), got 5000"),
    (
        &["--elo", "5", "--shards", "2", "--read-delay=-1"],
        "error: --read-delay: expected a number from 0 to 1000, got -1",
    ),
];

#[test]
fn library_errors_are_shown_with_the_flag_that_gave_the_value() {
    let base: Vec<&str> = SIMULATE_BASE.split_whitespace().collect();
    let simulate = SIMULATE.iter().map(|(own, start)| ([base.as_slice(), own].concat(), *start));
    for (args, start) in FLAGGED.iter().map(|(args, start)| (args.to_vec(), *start)).chain(simulate) {
        let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(&args)
            .current_dir(env!("CARGO_TARGET_TMPDIR"))
            .output()
            .expect("run the arbiter binary");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "arbiter {args:?}: {stderr}");
        assert!(stderr.starts_with(start), "arbiter {args:?}: {stderr}");
    }
}
