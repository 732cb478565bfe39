//! `arbiter epd` over the first lines of real suites: CSV shape, summary line, STS points, bad input.

use std::path::PathBuf;
use std::process::Command;

const WAC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/suites/tactics/wac.epd");
const STS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/suites/tactics/STS1-STS15_LAN_v3.epd");

/// Writes the first `n` lines of `suite` to a temp file named after `tag`.
fn head(suite: &str, n: usize, tag: &str) -> PathBuf {
    let text = std::fs::read_to_string(suite).unwrap_or_else(|e| panic!("{suite}: {e}"));
    let lines: Vec<&str> = text.lines().take(n).collect();
    let path = std::env::temp_dir().join(format!("arbiter-epd-{}-{tag}.epd", std::process::id()));
    std::fs::write(&path, lines.join("\n") + "\n").expect("temp file");
    path
}

/// Runs `arbiter epd` with `args`; returns (exit code, stdout, stderr).
fn epd(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter")).arg("epd").args(args).output().expect("run arbiter");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Checks the CSV shape and returns its rows (header excluded).
fn rows(csv: &str, n: usize) -> Vec<Vec<String>> {
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let header: Vec<String> = reader.headers().expect("header").iter().map(str::to_string).collect();
    assert_eq!(header, ["id", "expected", "found", "solved", "points", "depth", "nodes", "ms"]);
    let rows: Vec<Vec<String>> =
        reader.records().map(|r| r.expect("csv row").iter().map(str::to_string).collect()).collect();
    assert_eq!(rows.len(), n, "{csv}");
    for r in &rows {
        assert_eq!(r.len(), 8);
        assert!(r[3] == "true" || r[3] == "false");
        for col in [4, 5, 6, 7] {
            assert!(r[col].parse::<u64>().is_ok(), "column {col} of {r:?}");
        }
        assert!(r[6].parse::<u64>().expect("nodes") > 0);
    }
    rows
}

#[test]
fn wac_first_ten() {
    let file = head(WAC, 10, "wac");
    let (code, stdout, stderr) = epd(&[file.to_str().expect("utf-8 path"), "--nodes", "3000", "--threads", "2"]);
    assert_eq!(code, 0, "{stderr}");
    let rows = rows(&stdout, 10);
    assert_eq!(rows[0][0], "WAC.001");
    assert_eq!(rows[0][1], "bm Qg6");
    let solved = rows.iter().filter(|r| r[3] == "true").count();
    assert!(stderr.contains(&format!("solved {solved} / 10")), "{stderr}");
    let _ = std::fs::remove_file(file);
}

#[test]
fn sts_points_and_csv_file() {
    let file = head(STS, 10, "sts");
    let csv_path = file.with_extension("csv");
    let (code, stdout, stderr) =
        epd(&[file.to_str().expect("utf-8 path"), "--nodes", "2000", "--csv", csv_path.to_str().expect("utf-8 path")]);
    assert_eq!(code, 0, "{stderr}");
    let csv = std::fs::read_to_string(&csv_path).expect("csv written");
    let rows = rows(&csv, 10);
    let total: u64 = rows.iter().map(|r| r[4].parse::<u64>().expect("points")).sum();
    // The first ten STS lines each have a best move worth 10 points.
    assert!(stdout.contains(&format!("points {total} / 100")), "{stdout}");
    for r in &rows {
        let points: u32 = r[4].parse().expect("points");
        assert_eq!(r[3] == "true", points == 10, "{r:?}");
    }
    let _ = std::fs::remove_file(file);
    let _ = std::fs::remove_file(csv_path);
}

#[test]
fn bad_epd_names_file_and_line() {
    let path = std::env::temp_dir().join(format!("arbiter-epd-{}-bad.epd", std::process::id()));
    std::fs::write(&path, "6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#;\n6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Qh8;\n")
        .expect("temp file");
    let (code, _, stderr) = epd(&[path.to_str().expect("utf-8 path"), "--depth", "2"]);
    assert_eq!(code, 2);
    assert!(stderr.contains(&format!("{}:2:", path.display())), "{stderr}");
    let _ = std::fs::remove_file(path);
}
