//! `arbiter serve`: a read-only web view of the run folders under the served folders, live while they play.
//!
//! The HTTP parsing is `tiny_http`'s (a synchronous server of five crates; axum would bring tokio and some 57
//! crates for the same read-only pages). Every answer is made by [`Site::answer`] from the request's path alone,
//! so it is tested without a socket. Runs are found by listing the served folders (a folder holding `run.toml`,
//! or one level below such a folder's parent, as `results/NAME-N`), and named in URLs by their place in that
//! list, never by a path: a request cannot name a file outside the served folders (`..`, encoded slashes and
//! links lead nowhere, as nothing of the URL becomes a path).
//!
//! Pages: `/` (the run list, updated every two seconds by the page's own script, no reload), and the JSON the
//! page reads: `/api/runs` (every run with its engines, games, W/D/L, pentanomial, Elo with interval, LLR with
//! bounds and state, games per second) and `/api/runs/N` (one run). A half-written or malformed run folder is
//! listed with what could not be read; it never stops the server.

use crate::runner::rundir::cluster::{RunStatus, run_status};
use crate::runner::{RUN_TOML, RunFile};
use crate::stats::{SprtDecision, elo_estimate};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// The page of the run list, with its script and style inline (nothing is loaded from the network).
const INDEX_HTML: &str = include_str!("index.html");

/// The most run folders listed (the newest first beyond it are left out).
pub const MAX_RUNS: usize = 1000;

/// The folders served.
#[derive(Clone, Debug)]
pub struct Site {
    roots: Vec<PathBuf>,
}

/// One answer: the HTTP status, the content type and the body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// 200, 404, 405...
    pub status: u16,
    /// The `Content-Type`.
    pub content_type: &'static str,
    /// The body.
    pub body: String,
}

impl Answer {
    fn json(value: &Value) -> Answer {
        Answer { status: 200, content_type: "application/json", body: value.to_string() }
    }

    fn not_found(what: &str) -> Answer {
        Answer { status: 404, content_type: "text/plain; charset=utf-8", body: format!("not found: {what}\n") }
    }
}

impl Site {
    /// A site over `roots` (each a run folder or a folder of run folders, such as `results/`).
    pub fn new(roots: Vec<PathBuf>) -> Site {
        Site { roots }
    }

    /// The run folders under the roots, sorted by path: a root that is a run folder, and the run folders inside
    /// each root (one level down). Folders that cannot be read are skipped.
    pub fn runs(&self) -> Vec<PathBuf> {
        let mut runs = Vec::new();
        for root in &self.roots {
            if root.join(RUN_TOML).is_file() {
                runs.push(root.clone());
                continue;
            }
            let Ok(entries) = std::fs::read_dir(root) else { continue };
            for entry in entries.flatten() {
                let path = entry.path();
                // A link is not followed: only folders really under the root are served.
                let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
                if is_dir && path.join(RUN_TOML).is_file() {
                    runs.push(path);
                }
            }
        }
        runs.sort();
        runs.dedup();
        runs.truncate(MAX_RUNS);
        runs
    }

    /// The answer to a GET of `url` (its path and query).
    pub fn answer(&self, url: &str) -> Answer {
        let path = url.split(['?', '#']).next().unwrap_or("");
        match path {
            "/" | "/index.html" => {
                Answer { status: 200, content_type: "text/html; charset=utf-8", body: INDEX_HTML.to_string() }
            }
            "/api/runs" => {
                let runs: Vec<Value> = self.runs().iter().enumerate().map(|(id, dir)| run_json(id, dir)).collect();
                Answer::json(&json!({ "runs": runs }))
            }
            _ => match path.strip_prefix("/api/runs/").and_then(|id| id.parse::<usize>().ok()) {
                Some(id) => match self.runs().get(id) {
                    Some(dir) => Answer::json(&run_json(id, dir)),
                    None => Answer::not_found(path),
                },
                None => Answer::not_found(path),
            },
        }
    }
}

/// A run's figures as the pages show them; a folder that cannot be read is `"state": "unreadable"` with why.
pub fn run_json(id: usize, dir: &Path) -> Value {
    let name = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    match run_status(dir) {
        Ok(status) => status_json(id, &name, dir, &status),
        Err(error) => match RunFile::read(&dir.join(RUN_TOML)) {
            // A run of more than two engines: its engines and games so far (the per-pairing view is to come).
            Ok(run) if run.plan.engines.len() > 2 => {
                let engines: Vec<&str> = run.plan.engines.iter().map(|e| e.name.as_str()).collect();
                let rows =
                    std::fs::read_to_string(dir.join("games.csv")).map_or(0, |t| t.lines().count().saturating_sub(1));
                let state = if dir.join("summary.json").is_file() { "finished" } else { "running" };
                json!({ "id": id, "name": name, "dir": dir, "state": state, "engines": engines, "games": rows,
                        "tournament": run.plan.tournament.name() })
            }
            _ => json!({ "id": id, "name": name, "dir": dir, "state": "unreadable", "error": error.to_string() }),
        },
    }
}

fn status_json(id: usize, name: &str, dir: &Path, status: &RunStatus) -> Value {
    let c = &status.combined;
    let elo = elo_estimate(&c.wdl).ok();
    let finished = dir.join("summary.json").is_file();
    let state = match (status.decision.as_ref().map(|d| d.sprt_decision()), status.outcome.map(|o| o.decision)) {
        (Some(SprtDecision::AcceptH1), _) | (None, Some(SprtDecision::AcceptH1)) => "H1",
        (Some(SprtDecision::AcceptH0), _) | (None, Some(SprtDecision::AcceptH0)) => "H0",
        _ if finished => "finished",
        _ => "running",
    };
    json!({
        "id": id,
        "name": name,
        "dir": dir,
        "state": state,
        "engines": [status.engines.0, status.engines.1],
        "games": c.wdl.games(),
        "wins": c.wdl.wins, "draws": c.wdl.draws, "losses": c.wdl.losses,
        // Pairs scoring 0, 0.5, 1 (WL and DD), 1.5 and 2, as fastchess's Ptnml(0-2).
        "penta": [c.penta.ll, c.penta.ld, c.penta.wl + c.penta.dd, c.penta.wd, c.penta.ww],
        "elo": elo.map(|e| e.elo), "elo95": elo.map(|e| e.elo95),
        "llr": status.outcome.map(|o| o.llr),
        "lower": status.outcome.map(|o| o.lower),
        "upper": status.outcome.map(|o| o.upper),
        "pairs_to_decision": status.pairs_to_decision(),
        "warnings": status.warnings,
    })
}

/// Serves `site` on `bind` (`127.0.0.1:8080`; port 0 for any free one), telling `ready` the address once it
/// listens; every request in a thread of its own, until the process ends.
///
/// # Errors
/// The address cannot be bound.
pub fn serve(site: Site, bind: &str, ready: impl FnOnce(std::net::SocketAddr)) -> Result<(), String> {
    let server = tiny_http::Server::http(bind).map_err(|e| format!("{bind}: cannot listen: {e}"))?;
    let addr = server.server_addr().to_ip().ok_or_else(|| format!("{bind}: not an IP address"))?;
    ready(addr);
    let site = std::sync::Arc::new(site);
    for request in server.incoming_requests() {
        let site = std::sync::Arc::clone(&site);
        std::thread::spawn(move || {
            let answer = if *request.method() == tiny_http::Method::Get {
                site.answer(request.url())
            } else {
                Answer { status: 405, content_type: "text/plain", body: "read-only: GET only\n".to_string() }
            };
            let header = tiny_http::Header::from_bytes(&b"Content-Type"[..], answer.content_type.as_bytes())
                .expect("a valid header");
            let response =
                tiny_http::Response::from_string(answer.body).with_status_code(answer.status).with_header(header);
            // A client that went away is no concern of the server's.
            let _ = request.respond(response);
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_of_the_url_becomes_a_path() {
        let dir = std::env::temp_dir().join(format!("arbiter-serve-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("results/half-1")).unwrap();
        std::fs::write(dir.join("results/half-1/run.toml"), "not toml [").unwrap();
        let site = Site::new(vec![dir.join("results")]);
        for url in [
            "/../../etc/passwd",
            "/api/runs/..%2F..%2Fetc",
            "/api/runs/1",
            "/api/runs/-1",
            "/run.toml",
            "/api/runs/%2e%2e",
        ] {
            assert_eq!(site.answer(url).status, 404, "{url}");
        }
        let list: Value = serde_json::from_str(&site.answer("/api/runs").body).unwrap();
        assert_eq!(list["runs"][0]["state"], "unreadable", "a malformed run is listed as such: {list}");
        assert_eq!(site.answer("/").status, 200);
        assert!(!site.answer("/").body.contains("http://") && !site.answer("/").body.contains("https://"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
