//! Speed benchmark (not a test): perft Mnps from the start position at depth 6 and Kiwipete at depth 5, single
//! thread, with bulk counting; and match games per second at 5000 nodes per move.
//!
//! Run: `cargo bench --bench speed` (add `-- perft` or `-- match` for one part). Perft prints the median of 3
//! runs; the match part plays 100 games of seed vs nomob from Arbiter's book with the real binary, at
//! concurrency 1 and 2, and reads the games/s it reports.

use arbiter::chess::Position;
use arbiter::chess::perft::perft;
use std::time::Instant;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn perft_bench(name: &str, fen: &str, depth: u32, expected: u64) {
    let pos = Position::from_fen(fen).expect("bench FEN");
    let mut rates = Vec::new();
    for _ in 0..3 {
        let mut p = pos.clone();
        let t = Instant::now();
        let n = perft(&mut p, depth);
        let secs = t.elapsed().as_secs_f64();
        assert_eq!(n, expected, "{name}: wrong node count");
        rates.push(n as f64 / secs / 1e6);
    }
    println!(
        "perft {name:<10} depth {depth}  {expected:>11} nodes  {:7.1} Mnps (1 thread, median of 3)",
        median(rates)
    );
}

fn match_bench(concurrency: u32) {
    let out = std::env::temp_dir().join(format!("arbiter-bench-match-{}-{concurrency}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let c = concurrency.to_string();
    let o = out.to_str().expect("temp path is UTF-8");
    let args = ["match", "--games", "100", "--nodes", "5000", "--concurrency", &c, "--order", "sequential", "--out", o];
    let result = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("arbiter runs");
    let stdout = String::from_utf8_lossy(&result.stdout);
    let line = stdout.lines().find(|l| l.contains("games/s")).unwrap_or("no games/s line");
    println!("match seed vs nomob, 5000 nodes/move, concurrency {concurrency}: {}", line.trim());
    let _ = std::fs::remove_dir_all(&out);
}

fn main() {
    let filter: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let want = |part: &str| filter.is_empty() || filter.iter().any(|f| f == part);
    if want("perft") {
        // Counts: chessprogramming wiki, "Perft Results".
        perft_bench("startpos", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6, 119_060_324);
        perft_bench("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5, 193_690_690);
    }
    if want("match") {
        match_bench(1);
        match_bench(2);
    }
}
