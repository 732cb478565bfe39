//! `report.html`: the dashboard's page of one run with its data inside, so that a finished run is one file to
//! send (no server, nothing from the network). The page is the served one; its script reads the answers it
//! would ask the server for from the JSON embedded in the file (`<script id="arbiter-data">`, keyed by URL).
//!
//! What a report holds: the run's row and page (pairings, charts' history, terminations, the failed and the
//! latest games), its `games.csv` rows up to [`REPORT_ROWS`], the move viewer's data for up to [`REPORT_GAMES`]
//! games (the failed ones first, then the latest), and the rating list of its engines.

use super::runs::{RunEntry, Watch, detail_json, kind_of, summary_json};
use super::{INDEX_HTML, Site};
use serde_json::{Map, Value, json};
use std::path::{Path, PathBuf};

/// The report's file name in the run folder.
pub const REPORT_HTML: &str = "report.html";
/// The most `games.csv` rows a report lists.
pub const REPORT_ROWS: usize = 5000;
/// The most games a report's move viewer holds.
pub const REPORT_GAMES: usize = 300;
/// Rows per page of the games list (the page asks for pages of this size).
pub const PAGE_ROWS: usize = 100;
/// The element the page reads its embedded answers from.
const DATA_MARK: &str = r#"<script id="arbiter-data" type="application/json">null</script>"#;

/// The page of the run in `dir` with its data inside.
///
/// # Errors
/// `dir` holds no run.
pub fn report_html(dir: &Path) -> Result<String, String> {
    let kind = kind_of(dir, dir.is_dir()).ok_or_else(|| format!("{}: not a run folder", dir.display()))?;
    let name = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let entry = RunEntry { path: dir.to_path_buf(), name, kind };
    let watch = Watch::for_report();
    let detail = detail_json(0, &entry, &watch);
    let mut data = Map::new();
    data.insert("/api/runs".into(), json!({ "runs": [summary_json(0, &entry, &watch)], "report": true }));
    let site = Site::new(vec![dir.to_path_buf()]);
    let total = detail["rows"].as_u64().unwrap_or(0) as usize;
    for from in (0..total.min(REPORT_ROWS)).step_by(PAGE_ROWS) {
        let url = format!("/api/runs/0/games?from={from}&count={PAGE_ROWS}");
        data.insert(url.clone(), answer_value(&site, &url));
    }
    let mut wanted: Vec<u64> =
        detail["failed"].as_array().into_iter().flatten().filter_map(|r| r["index"].as_u64()).collect();
    wanted.extend((0..total as u64).rev());
    let mut seen = std::collections::HashSet::new();
    let games: Vec<usize> =
        wanted.into_iter().filter(|k| seen.insert(*k)).take(REPORT_GAMES).map(|k| k as usize).collect();
    // One pass over games.pgn for all of them (each on its own would read the file from its start).
    if let Ok(found) = super::games::games_json(dir, &games) {
        for (k, game) in found {
            let value = game.unwrap_or_else(|error| json!({ "index": k, "error": error }));
            data.insert(format!("/api/runs/0/game/{k}"), value);
        }
    }
    data.insert("/api/ratings".into(), answer_value(&site, "/api/ratings"));
    data.insert("/api/runs/0".into(), detail);
    // Inside <script>, "</script>" would end it: every '<' of the JSON (only ever inside a string) is escaped.
    let text = Value::Object(data).to_string().replace('<', "\\u003c");
    Ok(INDEX_HTML.replacen(
        DATA_MARK,
        &format!(r#"<script id="arbiter-data" type="application/json">{text}</script>"#),
        1,
    ))
}

fn answer_value(site: &Site, url: &str) -> Value {
    serde_json::from_str(&site.answer(url).body).unwrap_or(Value::Null)
}

/// Writes `report.html` into the run folder `dir` (replacing one there, atomically); for a tuning run's
/// `X.loss.csv`, `X.report.html` beside it. Returns its path.
///
/// # Errors
/// `dir` holds no run, or the file cannot be written.
pub fn write_report(dir: &Path) -> Result<PathBuf, String> {
    let html = report_html(dir)?;
    let path = match dir.to_str().and_then(|d| d.strip_suffix(super::runs::LOSS_SUFFIX)) {
        Some(stem) if dir.is_file() => PathBuf::from(format!("{stem}.{REPORT_HTML}")),
        _ => dir.join(REPORT_HTML),
    };
    crate::runner::replace_file(&path, html.as_bytes()).map_err(|e| e.to_string())?;
    Ok(path)
}
