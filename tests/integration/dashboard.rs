//! `arbiter serve` while a real match writes its run folder: the run list changes without a reload (read as
//! the page reads it, `/api/runs`), the state goes from running to its end, and no URL reaches a file.

use super::support::scratch_in;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Kills the server when the test ends, however it ends.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A GET of `path` as a browser sends it (the path as given, not normalized): the status and the body.
fn get(addr: &str, path: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).expect("the server listens");
    write!(stream, "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").unwrap();
    let mut reply = String::new();
    stream.read_to_string(&mut reply).unwrap();
    let status = reply.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = reply.split_once("\r\n\r\n").map(|(_, b)| b.to_string()).unwrap_or_default();
    (status, body)
}

fn games(addr: &str) -> (u64, String) {
    let (status, body) = get(addr, "/api/runs");
    assert_eq!(status, 200, "{body}");
    let list: serde_json::Value = serde_json::from_str(&body).expect("JSON");
    let run = &list["runs"][0];
    (run["games"].as_u64().unwrap_or(0), run["state"].as_str().unwrap_or("").to_string())
}

#[test]
fn the_run_list_follows_a_match_as_it_plays() {
    let dir = scratch_in("dashboard", "live");
    let arbiter = env!("CARGO_BIN_EXE_arbiter");
    let results = dir.join("results");
    std::fs::create_dir_all(&results).unwrap();
    let server = Command::new(arbiter)
        .args(["serve", results.to_str().unwrap(), "--bind", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("arbiter serve starts");
    let mut server = Server(server);
    let mut line = String::new();
    BufReader::new(server.0.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let addr = line
        .trim()
        .strip_prefix("arbiter serve: http://")
        .and_then(|a| a.strip_suffix('/'))
        .expect("the address")
        .to_string();
    // No run folder yet: an empty list, not an error.
    assert_eq!(get(&addr, "/api/runs"), (200, "{\"runs\":[]}".to_string()));
    let mut play = Command::new(arbiter)
        .args(["match", "--nodes", "2000", "--games", "40", "--concurrency", "1", "--out"])
        .arg(results.join("live"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let mut seen = Vec::new();
    loop {
        let (n, state) = games(&addr);
        if seen.last() != Some(&(n, state.clone())) {
            seen.push((n, state.clone()));
        }
        if state == "finished" || started.elapsed() > Duration::from_secs(120) {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(play.wait().unwrap().success());
    let counts: Vec<u64> = seen.iter().map(|(n, _)| *n).collect();
    assert!(counts.windows(2).all(|w| w[0] <= w[1]), "the count only grows: {seen:?}");
    assert!(seen.iter().any(|(n, s)| s == "running" && *n > 0 && *n < 40), "seen while running: {seen:?}");
    assert_eq!(seen.last().unwrap(), &(40, "finished".to_string()), "{seen:?}");
    for path in
        ["/../../../etc/passwd", "/api/runs/..%2F..%2F..%2Fetc%2Fpasswd", "/%2e%2e/%2e%2e/etc/passwd", "/api/runs/1"]
    {
        let (status, body) = get(&addr, path);
        assert_eq!(status, 404, "{path}: {body}");
        assert!(!body.contains("root:"), "{path}");
    }
    // A run folder deleted while served: the list goes on without it.
    std::fs::remove_dir_all(results.join("live")).unwrap();
    assert_eq!(get(&addr, "/api/runs"), (200, "{\"runs\":[]}".to_string()));
    // Many pages at once.
    let threads: Vec<_> = (0..50)
        .map(|_| {
            let a = addr.clone();
            std::thread::spawn(move || get(&a, "/").0)
        })
        .collect();
    assert!(threads.into_iter().all(|t| t.join().unwrap() == 200));
}
