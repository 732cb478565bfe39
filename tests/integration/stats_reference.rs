//! Checks the statistics layer against reference values computed with fishtest's
//! own code (`LLRcalc.py`, `stat_util.py`, `tests_stats.mak`; commit b8eecff),
//! stored in `../shared/reference/sprt_reference.csv`.
//!
//! Every finite reference number must match to 1e-6 (absolute, or relative when
//! its magnitude exceeds 1). Where fishtest failed (`ERR:...`, `nan`, `inf`) our
//! code must return an error or an explicit infinity, never NaN. The `cc_*`
//! columns (cutechess-cli's BayesElo SPRT and its Elo line; cutechess commit
//! 5e84232) are checked the same way against `bayeselo_llr` and `cutechess_elo`.

use std::collections::HashMap;

use arbiter::stats::{
    EloEstimate, EloModel, Pentanomial, StatsError, Wdl, bayeselo_llr, cutechess_elo, elo_estimate, llr, sprt_bounds,
};

const REFERENCE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/reference/sprt_reference.csv");

/// One CSV row, by column name.
struct Row {
    line: usize,
    fields: HashMap<String, String>,
}

impl Row {
    fn text(&self, column: &str) -> &str {
        self.fields.get(column).unwrap_or_else(|| panic!("line {}: no column {column}", self.line))
    }

    fn number(&self, column: &str) -> f64 {
        let text = self.text(column);
        text.parse().unwrap_or_else(|_| panic!("line {}: {column} = {text:?} is not a number", self.line))
    }

    fn count(&self, column: &str) -> u64 {
        let text = self.text(column);
        text.parse().unwrap_or_else(|_| panic!("line {}: {column} = {text:?} is not a count", self.line))
    }

    /// The reference value of `column`: a finite number, or `None` where fishtest
    /// produced an error, NaN, an infinity or nothing.
    fn expected(&self, column: &str) -> Option<f64> {
        self.text(column).parse::<f64>().ok().filter(|value| value.is_finite())
    }
}

fn read_rows() -> Vec<Row> {
    let text = std::fs::read_to_string(REFERENCE).unwrap_or_else(|error| panic!("cannot read {REFERENCE}: {error}"));
    let mut lines = text.lines().enumerate().filter(|(_, line)| !line.starts_with('#') && !line.trim().is_empty());
    let (_, header) = lines.next().expect("the reference has a header line");
    let columns: Vec<&str> = header.split(',').map(str::trim).collect();
    lines
        .map(|(index, line)| {
            let values: Vec<&str> = line.split(',').map(str::trim).collect();
            assert_eq!(
                values.len(),
                columns.len(),
                "line {}: {} fields, header has {}",
                index + 1,
                values.len(),
                columns.len()
            );
            Row {
                line: index + 1,
                fields: columns.iter().zip(values).map(|(c, v)| (c.to_string(), v.to_string())).collect(),
            }
        })
        .collect()
}

/// Whether `actual` matches `expected` to 1e-6, absolute or, above magnitude 1,
/// relative.
fn close(actual: f64, expected: f64) -> bool {
    let tolerance = 1e-6 * expected.abs().max(1.0);
    (actual - expected).abs() <= tolerance
}

/// Records a mismatch of `actual` against the reference column, or, where the
/// reference is not a finite number, a NaN or a finite value from our code.
fn check(failures: &mut Vec<String>, row: &Row, column: &str, actual: Result<f64, &StatsError>) {
    let id = row.text("case_id");
    match (row.expected(column), actual) {
        (Some(expected), Ok(value)) if close(value, expected) => {}
        (Some(expected), Ok(value)) => {
            failures.push(format!("{id} {column}: expected {expected:e}, got {value:e} (diff {:e})", value - expected))
        }
        (Some(expected), Err(error)) => {
            failures.push(format!("{id} {column}: expected {expected:e}, got error {error}"))
        }
        (None, Ok(value)) if value.is_infinite() => {}
        (None, Ok(value)) => {
            failures.push(format!("{id} {column}: reference {:?} but we return the number {value:e}", row.text(column)))
        }
        (None, Err(_)) => {}
    }
}

/// Reads one number out of an Elo estimate.
type EstimateField = fn(&EloEstimate) -> f64;

fn model_of(row: &Row) -> EloModel {
    match row.text("elo_model") {
        "logistic" => EloModel::Logistic,
        "normalized" => EloModel::Normalized,
        other => panic!("line {}: unknown elo_model {other:?}", row.line),
    }
}

fn pentanomial_of(row: &Row) -> Pentanomial {
    Pentanomial {
        ll: row.count("LL"),
        ld: row.count("LD"),
        wl: row.count("WL"),
        dd: row.count("DD"),
        wd: row.count("DW"),
        ww: row.count("WW"),
    }
}

fn wdl_of(row: &Row) -> Wdl {
    Wdl::new(row.count("W"), row.count("D"), row.count("L"))
}

#[test]
fn fishtest_reference_vectors() {
    let rows = read_rows();
    assert!(rows.len() >= 20, "only {} reference rows", rows.len());
    let mut failures = Vec::new();
    for row in &rows {
        let (elo0, elo1, model) = (row.number("elo0"), row.number("elo1"), model_of(row));
        let (lower, upper) = sprt_bounds(row.number("alpha"), row.number("beta"));
        check(&mut failures, row, "lower_bound", Ok(lower));
        check(&mut failures, row, "upper_bound", Ok(upper));

        let (llr_value, estimate): (_, Result<EloEstimate, StatsError>) = match row.text("kind") {
            "tri" => {
                let wdl = wdl_of(row);
                (llr(&wdl, elo0, elo1, model), elo_estimate(&wdl))
            }
            "penta" => {
                let penta = pentanomial_of(row);
                // The L, D, W columns of a pentanomial row are its game counts.
                assert_eq!(penta.to_wdl(), wdl_of(row), "{}", row.text("case_id"));
                (llr(&penta, elo0, elo1, model), elo_estimate(&penta))
            }
            other => panic!("line {}: unknown kind {other:?}", row.line),
        };
        if let Ok(value) = llr_value {
            assert!(!value.is_nan(), "{}: LLR is NaN", row.text("case_id"));
        }
        check(&mut failures, row, "ft_llr", llr_value.as_ref().copied());
        let fields: [(&str, EstimateField); 6] = [
            ("ft_elo", |e| e.elo),
            ("ft_elo95", |e| e.elo95),
            ("ft_los", |e| e.los),
            ("ft_nelo", |e| e.nelo),
            ("ft_nelo_lo", |e| e.nelo_lo),
            ("ft_nelo_hi", |e| e.nelo_hi),
        ];
        for (column, field) in fields {
            check(&mut failures, row, column, estimate.as_ref().map(field));
        }

        // cutechess-cli: its SPRT reads elo0/elo1 as logistic Elo whatever the row's model.
        let wdl = wdl_of(row);
        check(&mut failures, row, "cc_llr", Ok(bayeselo_llr(&wdl, elo0, elo1)));
        let via_model = llr(&wdl, elo0, elo1, EloModel::BayesElo).expect("defined for every count");
        check(&mut failures, row, "cc_llr", Ok(via_model));
        check(&mut failures, row, "cc_lbound", Ok(lower));
        check(&mut failures, row, "cc_ubound", Ok(upper));
        let cc = cutechess_elo(&wdl).expect("every reference row has games");
        check(&mut failures, row, "cc_elo", Ok(cc.elo));
        check(&mut failures, row, "cc_elo_err", Ok(cc.margin));
    }
    assert!(failures.is_empty(), "{} mismatches against fishtest:\n{}", failures.len(), failures.join("\n"));
}

/// Reference row T31 (trinomial, nElo [-1500, -500], W=1 D=3 L=292): fishtest
/// raises `ValueError`; we must return an error or an infinity, never NaN or panic.
#[test]
fn t31_hopeless_normalized_bounds_are_not_nan() {
    let rows = read_rows();
    let row = rows.iter().find(|row| row.text("case_id") == "T31").expect("row T31 is in the reference");
    assert!(row.text("ft_llr").starts_with("ERR"));
    let result = llr(&wdl_of(row), -1500.0, -500.0, EloModel::Normalized);
    match result {
        Ok(value) => assert!(value.is_infinite(), "T31 gave the number {value}"),
        Err(error) => assert!(matches!(error, StatsError::NoSolution { .. }), "{error}"),
    }
}

/// Pairs [LL, LD, WL+DD, WD, WW] = [144, 3, 1, 0, 0] against nElo [-1500, -500]:
/// an error or a non-NaN number, never a panic or a hang.
#[test]
fn lopsided_pairs_with_hopeless_normalized_bounds_are_not_nan() {
    let penta = Pentanomial { ll: 144, ld: 3, wl: 1, ..Pentanomial::default() };
    match llr(&penta, -1500.0, -500.0, EloModel::Normalized) {
        Ok(value) => assert!(!value.is_nan()),
        Err(error) => assert!(matches!(error, StatsError::NoSolution { .. }), "{error}"),
    }
}
