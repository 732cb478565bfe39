//! Issue 15, "Statistics that never mislead", end to end through the real binary: no output of a command
//! that prints statistics holds `nan` or a bare `inf`; a finished match's summary, `arbiter sprt --results`
//! on its folder and `arbiter merge` of its shards give the same LLR; five pentanomial counts give no invented
//! W/D/L; `match --sprt` and `arbiter sprt` refuse the same bounds with the same message; the JSON forms parse
//! and agree with the text.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const UHO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/suites/openings/UHO_4060_v4.part1of5.epd");

/// A fresh, empty folder for one test under `target/tmp`.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("stats-output-tests").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create the scratch folder");
    dir
}

fn arbiter(cwd: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arbiter")).args(args).current_dir(cwd).output().expect("run the arbiter binary")
}

/// `arbiter ARGS` in `cwd`, which must exit with `code`; returns stdout and stderr.
fn exits(code: i32, cwd: &Path, args: &[&str]) -> (String, String) {
    let out = arbiter(cwd, args);
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(code), "arbiter {args:?}\nstdout:\n{stdout}\nstderr:\n{stderr}");
    (stdout, stderr.into_owned())
}

/// Fails on `nan` anywhere (any case) and on an `inf` word not followed by its reason ` (`.
fn assert_no_nan_or_bare_inf(what: &str, text: &str) {
    let lower = text.to_lowercase();
    assert!(!lower.contains("nan"), "{what}: nan in\n{text}");
    let bytes = lower.as_bytes();
    for (at, _) in lower.match_indices("inf") {
        let before = at.checked_sub(1).map(|i| bytes[i]);
        let after = bytes.get(at + 3).copied();
        let word =
            !before.is_some_and(|b| b.is_ascii_alphanumeric()) && !after.is_some_and(|b| b.is_ascii_alphanumeric());
        if word && !lower[at + 3..].starts_with(" (") && !lower[at + 3..].starts_with('"') {
            panic!("{what}: a bare inf at byte {at} in\n{text}");
        }
    }
}

/// Every JSON `"inf"`/`"-inf"`/`null` figure of `value` (recursively) has a reason in its object's `reasons`.
fn assert_json_reasons(what: &str, value: &Value) {
    match value {
        Value::Object(object) => {
            for (key, field) in object {
                let special = field.is_null() || field.as_str().is_some_and(|s| s == "inf" || s == "-inf");
                if matches!(field, Value::String(_)) && special {
                    let reason = object.get("reasons").and_then(|r| r.get(key));
                    assert!(reason.is_some_and(Value::is_string), "{what}: {key} = {field} without a reason");
                }
                assert_json_reasons(what, field);
            }
        }
        Value::Array(items) => items.iter().for_each(|item| assert_json_reasons(what, item)),
        _ => {}
    }
}

fn json(what: &str, text: &str) -> Value {
    let value: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{what}: not JSON ({e}):\n{text}"));
    assert_json_reasons(what, &value);
    value
}

/// Degenerate counts: no games, one game, one pair, all wins, all draws, all losses, a single non-zero
/// pentanomial bin, W = 0 or L = 0, huge counts, and the NOTES extreme case.
const COUNTS: [&str; 17] = [
    "--wdl=0,0,0",
    "--wdl=1,0,0",
    "--wdl=0,1,0",
    "--wdl=20,0,0",
    "--wdl=0,20,0",
    "--wdl=0,0,20",
    "--wdl=0,5,7",
    "--wdl=7,5,0",
    "--wdl=1000000000000,3,1",
    "--penta=0,0,0,0,0,0",
    "--penta=1,0,0,0,0,0",
    "--penta=0,0,0,0,0,9",
    "--penta=0,0,9,0,0",
    "--penta=0,0,0,9,0,0",
    "--penta=144,3,1,0,0",
    "--penta=0,4,0,0,0,0",
    "--penta=1000000000000,1,0,0,1,0",
];

#[test]
fn sprt_prints_no_nan_on_degenerate_counts() {
    let here = scratch("sprt-counts");
    for counts in COUNTS {
        for (elo0, elo1, model) in [
            ("0", "2", "normalized"),
            ("-1500", "-500", "normalized"),
            ("0", "5", "logistic"),
            ("-1500", "-500", "logistic"),
            ("0", "5", "bayeselo"),
        ] {
            let args = ["sprt", counts, "--elo0", elo0, "--elo1", elo1, "--model", model];
            let out = arbiter(&here, &args);
            let what = format!("{args:?}");
            let stdout = String::from_utf8_lossy(&out.stdout);
            // bayeselo refuses five merged counts (exit 2); everything else reports.
            let merged = counts.starts_with("--penta=") && counts.matches(',').count() == 4;
            if model == "bayeselo" && merged {
                assert_eq!(out.status.code(), Some(2), "{what}");
                continue;
            }
            assert_eq!(out.status.code(), Some(0), "{what}");
            assert_no_nan_or_bare_inf(&what, &stdout);
            let (stdout, _) = exits(0, &here, &[&args[..], &["--format", "json"]].concat());
            assert_no_nan_or_bare_inf(&what, &stdout);
            json(&what, &stdout);
        }
    }
}

/// The NOTES case (pairs [144, 3, 1, 0, 0], nElo [-1500, -500]) decides under the one documented fallback.
#[test]
fn the_extreme_pentanomial_case_decides() {
    let here = scratch("extreme");
    let args = ["sprt", "--penta", "144,3,1,0,0", "--elo0", "-1500", "--elo1", "-500"];
    let (text, _) = exits(0, &here, &args);
    assert!(text.contains("-> H0 accepted (fail) [approximate LLR"), "{text}");
    let (out, _) = exits(0, &here, &[&args[..], &["--format", "json"]].concat());
    let value = json("extreme", &out);
    assert_eq!(value["llr_method"], "approximation");
    assert_eq!(value["decision"], "accept_h0");
    let llr = value["llr"].as_f64().expect("a finite LLR");
    assert!(text.contains(&format!("LLR         {llr:.3} ")), "{text}");
}

/// Five counts merge WL and DD: no W/D/L line, draw ratio or cutechess line is invented.
#[test]
fn five_counts_do_not_invent_wdl() {
    let here = scratch("five");
    let args = ["sprt", "--penta", "1,14,40,31,40", "--elo0", "0", "--elo1", "10"];
    let (text, _) = exits(0, &here, &args);
    assert!(
        text.contains("Games       252, score 68.8%; W 111-151 D 45-125 L 16-56, draw ratio 17.9%-49.6%: bounds only"),
        "{text}"
    );
    assert!(text.contains("cutechess   - (five counts merge WL and DD pairs"), "{text}");
    assert!(!text.contains("(W "), "{text}");
    let (out, _) = exits(0, &here, &[&args[..], &["--format", "json"]].concat());
    let value = json("five", &out);
    assert!(value["wins"].is_null() && value["draw_ratio"].is_null(), "{value}");
    assert_eq!(value["wins_range"], serde_json::json!([111, 151]));
    // The same six counts give the split.
    let (text, _) = exits(0, &here, &["sprt", "--penta", "1,14,34,6,31,40", "--elo0", "0", "--elo1", "10"]);
    assert!(text.contains("Games       252 (W 145 D 57 L 50)"), "{text}");
    let (_, err) =
        exits(2, &here, &["sprt", "--penta", "1,14,40,31,40", "--elo0", "0", "--elo1", "10", "--model", "bayeselo"]);
    assert!(err.contains("--model bayeselo counts single games"), "{err}");
}

/// The match every match test plays: the built-in `seed` against `nomob` at 300 nodes, `games` games.
fn match_args<'a>(games: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let base = ["match", "--openings", UHO, "--engine", "name=seed", "--engine", "name=nomob", "--nodes", "300"];
    [&base[..], &["--games", games], extra].concat()
}

/// Every file a run folder holds and what the command printed: no nan, no bare inf.
fn assert_folder_clean(what: &str, dir: &Path, stdout: &str) {
    assert_no_nan_or_bare_inf(what, stdout);
    for entry in std::fs::read_dir(dir).expect("the run folder") {
        let path = entry.expect("an entry").path();
        if path.is_file() {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            assert_no_nan_or_bare_inf(&format!("{what}: {}", path.display()), &text);
        }
    }
}

#[test]
fn small_matches_print_and_write_no_nan() {
    let base = scratch("small");
    for games in ["2", "4"] {
        for sprt in ["elo0=0,elo1=10", "elo0=-1500,elo1=-500", "elo0=0,elo1=5,model=bayeselo"] {
            let out = base.join(format!("g{games}-{}", sprt.replace([',', '='], "_")));
            let args = match_args(games, &["--sprt", sprt, "--out", out.to_str().unwrap()]);
            let (stdout, _) = exits(0, &base, &args);
            assert_folder_clean(&format!("{args:?}"), &out, &stdout);
            let summary = json("summary.json", &std::fs::read_to_string(out.join("summary.json")).unwrap());
            assert_eq!(summary["games"], games.parse::<u64>().unwrap());
            let (stdout, _) = exits(0, &base, &["elo", out.to_str().unwrap()]);
            assert_no_nan_or_bare_inf("elo", &stdout);
            let (stdout, _) = exits(0, &base, &["elo", out.to_str().unwrap(), "--format", "json"]);
            json("elo json", &stdout);
        }
    }
}

/// The SPRT's LLR of a match's summary.json, at full precision.
fn summary_llr(dir: &Path) -> f64 {
    let summary = json("summary.json", &std::fs::read_to_string(dir.join("summary.json")).expect("summary.json"));
    summary["sprt"]["llr"].as_f64().unwrap_or_else(|| panic!("{}: no finite LLR: {summary}", dir.display()))
}

/// The LLR line of a summary.txt.
fn summary_llr_line(dir: &Path) -> String {
    let text = std::fs::read_to_string(dir.join("summary.txt")).expect("summary.txt");
    text.lines().find(|l| l.trim_start().starts_with("LLR ")).expect("an LLR line").trim().to_string()
}

/// One match played whole, the same match in two shards merged, and `arbiter sprt --results` on both folders:
/// the same LLR to the last bit, and the same printed digits.
#[test]
fn summary_sprt_results_and_merge_agree_on_the_llr() {
    let base = scratch("agree");
    let sprt = "elo0=-10,elo1=10,model=logistic";
    let whole = base.join("whole");
    let (stdout, _) = exits(0, &base, &match_args("12", &["--sprt", sprt, "--out", whole.to_str().unwrap()]));
    assert_folder_clean("whole", &whole, &stdout);
    let shards = base.join("shards");
    for i in 1..=2 {
        let out = shards.join(format!("shard-{i}"));
        let shard = format!("{i}/2");
        exits(0, &base, &match_args("12", &["--sprt", sprt, "--shard", &shard, "--out", out.to_str().unwrap()]));
    }
    let (stdout, _) =
        exits(0, &base, &["merge", shards.join("shard-1").to_str().unwrap(), shards.join("shard-2").to_str().unwrap()]);
    assert_folder_clean("merge", &shards, &stdout);

    let llr = summary_llr(&whole);
    assert_eq!(summary_llr(&shards).to_bits(), llr.to_bits(), "merge against the whole run");
    assert_eq!(summary_llr_line(&shards), summary_llr_line(&whole));
    // The whole run's folder holds its --sprt (run.toml); the merged folder has none, so the same SPRT is given.
    let same = ["--elo0", "-10", "--elo1", "10", "--model", "logistic"];
    for (dir, flags) in [(&whole, &[][..]), (&shards, &same[..])] {
        let results = ["sprt", "--results", dir.to_str().unwrap()];
        let (out, _) = exits(0, &base, &[&results[..], flags, &["--format", "json"]].concat());
        let value = json("sprt --results", &out);
        assert_eq!(value["llr"].as_f64().expect("an LLR").to_bits(), llr.to_bits(), "{}: {value}", dir.display());
        let (text, _) = exits(0, &base, &[&results[..], flags].concat());
        assert!(text.contains(&format!("LLR         {llr:.3} ")), "{text}");
        assert!(summary_llr_line(dir).starts_with(&format!("LLR         {llr:.3} ")), "{}", summary_llr_line(dir));
    }
}

/// `match --sprt` and `arbiter sprt` refuse the same bounds, with the same reason and exit 2.
#[test]
fn match_and_sprt_refuse_the_same_bounds() {
    let base = scratch("bounds");
    for (elo0, elo1, alpha, beta, reason) in [
        ("5", "5", "0.05", "0.05", "elo1 (5) must be greater than elo0 (5)"),
        ("10", "0", "0.05", "0.05", "elo1 (0) must be greater than elo0 (10)"),
        ("-2001", "5", "0.05", "0.05", "elo0 must lie from -2000 to 2000, got -2001"),
        ("0", "1e9", "0.05", "0.05", "elo1 must lie from -2000 to 2000, got 1000000000"),
        ("0", "inf", "0.05", "0.05", "elo1 must be a finite number, got inf"),
        ("nan", "5", "0.05", "0.05", "elo0 must be a finite number, got NaN"),
        // A huge value is shown in scientific notation, not in three hundred digits.
        ("0", "1e300", "0.05", "0.05", "elo1 must lie from -2000 to 2000, got 1e300"),
        ("0", "5", "NaN", "0.05", "alpha must lie strictly between 0 and 1, got NaN"),
        ("0", "5", "0", "0.05", "alpha must lie strictly between 0 and 1, got 0"),
        ("0", "5", "0.05", "1", "beta must lie strictly between 0 and 1, got 1"),
        ("0", "5", "0.6", "0.4", "alpha + beta must be below 1 (so that the bounds enclose LLR 0), got 0.6 + 0.4"),
    ] {
        let out = base.join("run");
        let sprt = format!("elo0={elo0},elo1={elo1},alpha={alpha},beta={beta}");
        let (_, err) = exits(2, &base, &match_args("2", &["--sprt", &sprt, "--out", out.to_str().unwrap()]));
        assert!(err.contains(reason), "match --sprt {sprt}: {err}");
        let flags = ["sprt", "--wdl", "10,10,10", "--elo0", elo0, "--elo1", elo1, "--alpha", alpha, "--beta", beta];
        let (_, err) = exits(2, &base, &flags);
        assert!(err.contains(reason), "sprt {flags:?}: {err}");
        let sim = [
            "sprt",
            "simulate",
            "--elo",
            "0",
            "--draw-ratio",
            "0.5",
            "--model",
            "normalized",
            "--elo0",
            elo0,
            "--elo1",
            elo1,
            "--alpha",
            alpha,
            "--beta",
            beta,
            "--runs",
            "1",
        ];
        let (_, err) = exits(2, &base, &sim);
        assert!(err.contains(reason), "sprt simulate {sim:?}: {err}");
        assert!(!out.join("games.csv").exists());
    }
    // The widest bounds are accepted by both.
    let out = base.join("wide");
    exits(0, &base, &match_args("2", &["--sprt", "elo0=-2000,elo1=2000", "--out", out.to_str().unwrap()]));
    exits(0, &base, &["sprt", "--wdl", "10,10,10", "--elo0", "-2000", "--elo1", "2000"]);
}

/// The JSON forms give the text's figures at full precision.
#[test]
fn json_forms_agree_with_the_text() {
    let base = scratch("json");
    let args = ["sprt", "--penta", "1,14,34,6,31,40", "--elo0", "0", "--elo1", "10"];
    let (text, _) = exits(0, &base, &args);
    let (out, _) = exits(0, &base, &[&args[..], &["--format", "json"]].concat());
    let v = json("sprt", &out);
    let f = |key: &str| v[key].as_f64().unwrap_or_else(|| panic!("{key}: {v}"));
    assert!(text.contains(&format!("LLR         {:.3} (bounds {:.3}, {:.3}) -> H1 accepted", f("llr"), -2.944, 2.944)));
    assert!(text.contains(&format!(
        "Elo         {:+.2} +/- {:.2} (95%), LOS {:.1}%",
        f("elo"),
        f("elo95"),
        100.0 * f("los")
    )));
    assert!(text.contains(&format!("nElo        {:+.2} [{:+.2}, {:+.2}]", f("nelo"), f("nelo_lo"), f("nelo_hi"))));
    assert!(text.contains(&format!("WL/DD ratio {:.2}", f("wl_dd_ratio"))), "{text}");
    assert_eq!(v["wins"], 145);
    assert_eq!(v["decision"], "accept_h1");
    assert!((f("llr") - 2.969).abs() < 5e-4);

    let run = base.join("run");
    let (stdout, _) = exits(0, &base, &match_args("8", &["--sprt", "elo0=0,elo1=10", "--out", run.to_str().unwrap()]));
    let summary = json("summary.json", &std::fs::read_to_string(run.join("summary.json")).unwrap());
    let pairing = &summary["pairings"][0];
    let g = |key: &str| pairing[key].as_f64().unwrap_or_else(|| panic!("{key}: {pairing}"));
    let elo_line = format!(
        "  Elo         {:+.1} +/- {:.1} (95%), nElo {:+.1} [{:+.1}, {:+.1}]",
        g("elo"),
        g("elo95"),
        g("nelo"),
        g("nelo_lo"),
        g("nelo_hi")
    );
    assert!(stdout.contains(&elo_line), "{elo_line}\n{stdout}");
    assert_eq!(pairing["games"], 8);
    let llr = summary["sprt"]["llr"].as_f64().expect("an LLR");
    assert!(summary_llr_line(&run).starts_with(&format!("LLR         {llr:.3} ")));

    let (table, _) = exits(0, &base, &["elo", run.to_str().unwrap(), "--bootstrap", "50"]);
    let (out, _) = exits(0, &base, &["elo", run.to_str().unwrap(), "--bootstrap", "50", "--format", "json"]);
    let list = json("elo", &out);
    for player in list["players"].as_array().expect("players") {
        let name = player["name"].as_str().unwrap();
        let elo = player["elo"].as_f64().unwrap();
        let row = table.lines().find(|l| l.split_whitespace().nth(1) == Some(name)).expect("a table row");
        let shown = format!("{elo:.1}");
        let shown = if shown == "-0.0" { "0.0".to_string() } else { shown };
        assert_eq!(row.split_whitespace().nth(2), Some(shown.as_str()), "{row}");
    }
}
