//! Speed benchmark (not a test): perft Mnps from the start position at depth 6 and Kiwipete at depth 5, single
//! thread, with bulk counting; Xiangqi perft Mnps from its start position at depth 5 beside Fairy-Stockfish's
//! `go perft 5` in the same run; checkers perft Mnps from the Russian and English start positions at depth 10;
//! match games per second at 5000 nodes per move; and the tuner's gradient pass
//! in CPU nanoseconds per position per epoch.
//!
//! Run: `cargo bench --bench speed` (add `-- perft`, `-- xiangqi`, `-- checkers`, `-- match`, `-- xiangqi-match`
//! or `-- tune` for one part). The `xiangqi-match` part plays 20 Xiangqi games of seed vs nopsqt at 5000 nodes through the
//! runner's game trait on one thread. Perft
//! prints the median of 3 runs; the Xiangqi part runs Arbiter 3 times (median) and `/usr/games/fairy-stockfish`
//! once, timed from `go perft 5` sent to `Nodes searched` read (its start-up excluded); the match part plays 100
//! games of seed vs nomob from Arbiter's book with the real binary, at concurrency 1 and 2, and reads the games/s
//! it reports. The tune part reads `../shared/data/tuning/selfplay-sf15-n1500-quiet.book` (all 319,823
//! positions), runs the MSE and the gradient of the seed weights 30 times each on 1 and on 2 threads (a rayon
//! pool each), and prints the minimum over 10 rounds of 3 of the process CPU time and of the wall time, per
//! position per pass.

use arbiter::chess::Position;
use arbiter::chess::perft::perft;
use arbiter::uci::EngineProcess;
use std::time::{Duration, Instant};

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Runs `count` 3 times, checks it returns `expected` nodes (`name` in the panic), and returns the median Mnps.
fn median_mnps(name: &str, expected: u64, count: impl Fn() -> u64) -> f64 {
    let mut rates = Vec::new();
    for _ in 0..3 {
        let t = Instant::now();
        let n = count();
        let secs = t.elapsed().as_secs_f64();
        assert_eq!(n, expected, "{name}: wrong node count");
        rates.push(n as f64 / secs / 1e6);
    }
    median(rates)
}

fn perft_bench(name: &str, fen: &str, depth: u32, expected: u64) {
    let pos = Position::from_fen(fen).expect("bench FEN");
    let rate = median_mnps(name, expected, || perft(&mut pos.clone(), depth));
    println!("perft {name:<10} depth {depth}  {expected:>11} nodes  {rate:7.1} Mnps (1 thread, median of 3)");
}

/// Xiangqi start position, depth 5: 133,312,995 nodes (../shared/suites/xiangqi/xiangqi_perft.epd, line 1).
const XIANGQI_D5: u64 = 133_312_995;

fn xiangqi_bench() {
    let pos = arbiter::xiangqi::Position::startpos();
    let ours = median_mnps("xiangqi", XIANGQI_D5, || arbiter::xiangqi::perft::perft(&mut pos.clone(), 5));
    println!(
        "xiangqi perft startpos depth 5  {XIANGQI_D5:>11} nodes  {ours:7.1} Mnps (arbiter, 1 thread, median of 3)"
    );
    match fairy_stockfish_perft(arbiter::xiangqi::START_FEN, 5) {
        Ok((nodes, secs)) => {
            let theirs = nodes as f64 / secs / 1e6;
            println!(
                "xiangqi perft startpos depth 5  {nodes:>11} nodes  {theirs:7.1} Mnps (fairy-stockfish go perft 5, \
                 {secs:.1} s); arbiter is {:.1}x as fast",
                ours / theirs
            );
            assert_eq!(nodes, XIANGQI_D5, "fairy-stockfish: wrong node count");
        }
        Err(e) => println!("xiangqi perft: fairy-stockfish not measured: {e}"),
    }
}

/// Fairy-Stockfish's `go perft depth` from `fen` (one thread, as its perft always is): (nodes, seconds).
fn fairy_stockfish_perft(fen: &str, depth: u32) -> Result<(u64, f64), String> {
    let timeout = Duration::from_secs(600);
    let mut engine = EngineProcess::start("/usr/games/fairy-stockfish", &[], timeout).map_err(|e| e.to_string())?;
    engine.set_option("UCI_Variant", "xiangqi").map_err(|e| e.to_string())?;
    engine.sync(timeout).map_err(|e| e.to_string())?;
    engine.send(&format!("position fen {fen}")).map_err(|e| e.to_string())?;
    engine.sync(timeout).map_err(|e| e.to_string())?;
    let t = Instant::now();
    engine.send(&format!("go perft {depth}")).map_err(|e| e.to_string())?;
    let lines =
        engine.wait_for(|l| l.starts_with("Nodes searched"), "Nodes searched", timeout).map_err(|e| e.to_string())?;
    let secs = t.elapsed().as_secs_f64();
    let last = lines.last().ok_or("no reply")?;
    let nodes = last.rsplit(' ').next().and_then(|n| n.trim().parse().ok()).ok_or(format!("unreadable {last:?}"))?;
    let _ = engine.send("quit");
    Ok((nodes, secs))
}

/// Plays `arbiter match` with `args` (plus `--order sequential --out TMP`) and prints the summary's games/s line
/// after `label`.
fn match_bench(label: &str, args: &[&str]) {
    let out = std::env::temp_dir().join(format!("arbiter-bench-match-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let o = out.to_str().expect("temp path is UTF-8");
    let result = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .arg("match")
        .args(args)
        .args(["--order", "sequential", "--out", o])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("arbiter runs");
    let stdout = String::from_utf8_lossy(&result.stdout);
    let line = stdout.lines().find(|l| l.contains("games/s")).unwrap_or("no games/s line");
    println!("{label}: {}", line.trim());
    let _ = std::fs::remove_dir_all(&out);
}

/// Chess: seed against nomob from Arbiter's book at 5000 nodes a move, 100 games, `concurrency` at once.
fn chess_match_bench(concurrency: u32) {
    let c = concurrency.to_string();
    let label = format!("match seed vs nomob, 5000 nodes/move, concurrency {concurrency}");
    match_bench(&label, &["--games", "100", "--nodes", "5000", "--concurrency", &c]);
}

/// Xiangqi: `arbiter match --game xiangqi` (seed against nopsqt from Arbiter's Xiangqi book) at `nodes` nodes a
/// move, `games` games, one at a time.
fn xiangqi_match_bench(games: u64, nodes: u64) {
    let (g, n) = (games.to_string(), nodes.to_string());
    let label = format!("xiangqi match seed vs nopsqt, {nodes} nodes/move, concurrency 1");
    match_bench(&label, &["--game", "xiangqi", "--games", &g, "--nodes", &n, "--concurrency", "1"]);
}

fn tune_bench() {
    use arbiter::tune::{Dataset, PackedSet, params_of, read_labelled_file};
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/tuning/selfplay-sf15-n1500-quiet.book");
    let Ok(set) = read_labelled_file(&path) else {
        println!("tune: {} not found; skipped", path.display());
        return;
    };
    let packed = PackedSet::pack(&Dataset::build(&set.positions).expect("the set builds"));
    let params = params_of(&arbiter::engine::chess::Weights::seed());
    let n = packed.len() as f64;
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a thread pool");
        pool.install(|| {
            let measure = |gradient: bool| {
                let (mut cpu, mut wall) = (f64::MAX, f64::MAX);
                for _ in 0..10 {
                    let (c, w) = (cpu_time::ProcessTime::now(), Instant::now());
                    for _ in 0..3 {
                        if gradient {
                            std::hint::black_box(packed.gradient(&params, 0.76));
                        } else {
                            std::hint::black_box(packed.mse(&params, 0.76));
                        }
                    }
                    cpu = cpu.min(c.elapsed().as_secs_f64() * 1e9 / n / 3.0);
                    wall = wall.min(w.elapsed().as_secs_f64() * 1e9 / n / 3.0);
                }
                (cpu, wall)
            };
            let (mse, gradient) = (measure(false), measure(true));
            println!(
                "tune {} positions, {threads} thread(s): gradient {:.1} ns CPU / {:.1} ns wall, MSE alone {:.1} ns CPU / {:.1} ns wall, per position per pass",
                packed.len(),
                gradient.0,
                gradient.1,
                mse.0,
                mse.1
            );
        });
    }
}

/// Checkers start positions at depth 10, keep-duplicates counts (dctl; ../shared/suites/draughts/*.epd).
fn checkers_bench() {
    use arbiter::checkers::{Position, Ruleset};
    for (name, rules, expected) in
        [("russian", Ruleset::Russian, 22_450_628), ("english", Ruleset::English, 18_391_564)]
    {
        let pos = Position::start(rules, 8).expect("the 8x8 start");
        let rate = median_mnps(name, expected, || arbiter::checkers::perft::perft(&pos, 10));
        println!("checkers perft {name:<8} depth 10  {expected:>11} nodes  {rate:7.1} Mnps (1 thread, median of 3)");
    }
}

fn main() {
    let filter: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let want = |part: &str| filter.is_empty() || filter.iter().any(|f| f == part);
    if want("perft") {
        // Counts: chessprogramming wiki, "Perft Results".
        perft_bench("startpos", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6, 119_060_324);
        perft_bench("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5, 193_690_690);
    }
    if want("xiangqi") {
        xiangqi_bench();
    }
    if want("checkers") {
        checkers_bench();
    }
    if want("xiangqi-match") {
        xiangqi_match_bench(20, 5000);
    }
    if want("tune") {
        tune_bench();
    }
    if want("match") {
        chess_match_bench(1);
        chess_match_bench(2);
    }
}
