//! `arbiter serve`: a read-only web view of the run folders under the served folders, live while they play.
//!
//! The HTTP parsing is `tiny_http`'s (a synchronous server of five crates; axum would bring tokio and some 57
//! crates for the same read-only pages). Every answer is made by [`Site::answer`] from the request's path alone,
//! so it is tested without a socket. Runs are found by listing the served folders (a folder holding `run.toml`,
//! or one level below such a folder's parent, as `results/NAME-N`), and named in URLs by their place in that
//! list, never by a path: a request cannot name a file outside the served folders (`..`, encoded slashes and
//! links lead nowhere, as nothing of the URL becomes a path).
//!
//! Pages: `/` (one page whose routes are the run list, a run's page, the move viewer, two runs side by side and
//! the rating list, updated every two seconds by its own script, no reload), and the JSON it reads:
//! `/api/runs` ([`runs::summary_json`] of every run), `/api/runs/N` ([`runs::detail_json`]),
//! `/api/runs/N/games?from=F&count=C` (rows of `games.csv`), `/api/runs/N/game/K` ([`games::game_json`]) and
//! `/api/ratings` ([`ratings::ratings_json`]). A half-written or malformed run folder is listed with what could
//! not be read; it never stops the server. [`report`] writes the same page with its answers inside.

pub mod games;
pub mod ratings;
pub mod report;
pub mod runs;

use runs::{RunEntry, Watch, detail_json, find_runs, summary_json};
use serde_json::{Value, json};
use std::path::PathBuf;

pub use runs::MAX_RUNS;

/// The page, with its script and style inline (nothing is loaded from the network): the run list, a run's page,
/// the move viewer, two runs side by side and the rating list, as routes of the one page (`#/run/3`).
const INDEX_HTML: &str = include_str!("index.html");

/// The most rows of `games.csv` one request of `/api/runs/N/games` returns.
pub const MAX_ROWS_PER_PAGE: usize = 500;

/// The folders served.
#[derive(Debug)]
pub struct Site {
    roots: Vec<PathBuf>,
    watch: Watch,
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

/// The value of `name` in a URL's query (`from=10&count=50`), as a number.
fn query_number(query: &str, name: &str) -> Option<usize> {
    query.split('&').find_map(|pair| pair.strip_prefix(name)?.strip_prefix('=')?.parse().ok())
}

impl Site {
    /// A site over `roots` (each a run folder or a folder of run folders, such as `results/`).
    pub fn new(roots: Vec<PathBuf>) -> Site {
        Site { roots, watch: Watch::default() }
    }

    /// The runs under the roots ([`runs::find_runs`]), in the order that numbers them in URLs.
    pub fn runs(&self) -> Vec<RunEntry> {
        find_runs(&self.roots)
    }

    /// The answer to a GET of `url` (its path and query).
    pub fn answer(&self, url: &str) -> Answer {
        let (path, query) = url.split_once('?').unwrap_or((url, ""));
        let path = path.split('#').next().unwrap_or("");
        match path {
            "/" | "/index.html" => {
                Answer { status: 200, content_type: "text/html; charset=utf-8", body: INDEX_HTML.to_string() }
            }
            "/api/runs" => {
                let runs: Vec<Value> =
                    self.runs().iter().enumerate().map(|(id, run)| summary_json(id, run, &self.watch)).collect();
                Answer::json(&json!({ "runs": runs }))
            }
            "/api/ratings" => Answer::json(&ratings::ratings_json(&self.runs())),
            _ => self.run_answer(path, query).unwrap_or_else(|| Answer::not_found(path)),
        }
    }

    /// `/api/runs/N`, `/api/runs/N/games?from=F&count=C` and `/api/runs/N/game/K`.
    fn run_answer(&self, path: &str, query: &str) -> Option<Answer> {
        let rest = path.strip_prefix("/api/runs/")?;
        let (id, rest) = rest.split_once('/').unwrap_or((rest, ""));
        let id: usize = id.parse().ok()?;
        let runs = self.runs();
        let run = runs.get(id)?;
        if let Some(why) = runs::linked_file(&run.path) {
            return Some(Answer::json(&json!({ "error": why })));
        }
        let value = match rest.split_once('/').unwrap_or((rest, "")) {
            ("", "") => detail_json(id, run, &self.watch),
            ("games", "") => {
                let from = query_number(query, "from").unwrap_or(0);
                let count = query_number(query, "count").unwrap_or(100).min(MAX_ROWS_PER_PAGE);
                runs::rows_json(&run.path, from, count).unwrap_or_else(|error| json!({ "error": error }))
            }
            ("game", k) => {
                let k: usize = k.parse().ok()?;
                games::game_json(&run.path, k).unwrap_or_else(|error| json!({ "index": k, "error": error }))
            }
            _ => return None,
        };
        Some(Answer::json(&value))
    }
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
        assert_eq!(site.answer("/api/runs/0/game/0").status, 200, "a game of a malformed run is an error in JSON");
        assert_eq!(site.answer("/").status, 200);
        // Nothing is loaded from the network: no script, style, font or image from elsewhere (the one "http://"
        // is SVG's namespace name, not an address that is fetched).
        let page = site.answer("/").body;
        for load in ["<script src", "stylesheet", "@import", "url(", "<img", "fetch(\"http", "https://", "href=\"http"]
        {
            assert!(!page.contains(load), "{load}");
        }
        assert_eq!(page.matches("http://").count(), 2, "SVG's namespace in the script and in the inline icon");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn links_lead_nowhere() {
        let dir = std::env::temp_dir().join(format!("arbiter-serve-links-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("outside/run-1")).unwrap();
        std::fs::create_dir_all(dir.join("results/run-2")).unwrap();
        std::fs::write(dir.join("outside/run-1/run.toml"), "x").unwrap();
        std::fs::write(dir.join("outside/secret.txt"), "[Event \"secret\"]\n\n1. e4 *\n").unwrap();
        // A linked run folder is not listed; a run folder whose files are links is listed as unreadable.
        std::os::unix::fs::symlink(dir.join("outside/run-1"), dir.join("results/linked-run")).unwrap();
        std::fs::write(dir.join("results/run-2/run.toml"), "x").unwrap();
        std::os::unix::fs::symlink(dir.join("outside/secret.txt"), dir.join("results/run-2/games.pgn")).unwrap();
        std::os::unix::fs::symlink(dir.join("outside/secret.txt"), dir.join("results/x.loss.csv")).unwrap();
        let site = Site::new(vec![dir.join("results")]);
        let names: Vec<String> = site.runs().iter().map(|r| r.name.clone()).collect();
        assert_eq!(names, ["run-2"], "neither the linked folder nor the linked loss file is a run");
        let list = site.answer("/api/runs").body;
        assert!(list.contains("is a link: not served"), "{list}");
        for url in ["/api/runs/0/game/0", "/api/runs/0/games", "/api/runs/0"] {
            let body = site.answer(url).body;
            assert!(!body.contains("secret") || body.contains("is a link"), "{url}: {body}");
            assert!(!body.contains("e4"), "{url}: {body}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
