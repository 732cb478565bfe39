//! Move generator speed (not a test): perft Mnps of Arbiter, cozy-chess and shakmaty side by side, single
//! thread, on the same positions and depths, with bulk counting (the last ply counts the legal moves) and
//! without (every leaf move is made and the recursion returns 1 at depth 0).
//!
//! Run: `cargo bench --bench movegen`. Arguments after `--`:
//! - `--quick`: every depth one lower;
//! - `--same-depth`: no-bulk rows at the bulk depth (by default one lower, as they are 5-10 times slower);
//! - `--runs N`: timed runs per cell (default 3, the median is shown);
//! - any other word: keep only the rows whose position name or mode (`bulk`, `no-bulk`) contains it.
//!
//! Each cell runs the three libraries interleaved (A B C, A B C, ...) and reports the median, so drift of the
//! machine's speed hits them alike. Every node count is checked against the reference.

use arbiter::chess::Position;
use std::hint::black_box;
use std::time::Instant;

/// A benchmark position with its reference perft counts; `counts[d - 1]` is perft(d).
struct Case {
    name: &'static str,
    fen: &'static str,
    /// The depth measured with bulk counting (before `--quick`).
    depth: u32,
    counts: &'static [u64],
}

// FENs and counts: chessprogramming wiki, "Perft Results" (initial position, position 2 "Kiwipete",
// position 3, position 4).
const CASES: [Case; 4] = [
    Case {
        name: "startpos",
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        depth: 6,
        counts: &[20, 400, 8_902, 197_281, 4_865_609, 119_060_324],
    },
    Case {
        name: "kiwipete",
        fen: "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        depth: 5,
        counts: &[48, 2_039, 97_862, 4_085_603, 193_690_690],
    },
    Case {
        name: "position3",
        fen: "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        depth: 7,
        counts: &[14, 191, 2_812, 43_238, 674_624, 11_030_083, 178_633_661],
    },
    Case {
        name: "position4",
        fen: "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        depth: 6,
        counts: &[6, 264, 9_467, 422_333, 15_833_292, 706_045_033],
    },
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Bulk,
    NoBulk,
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::Bulk => "bulk",
            Mode::NoBulk => "no-bulk",
        }
    }
}

#[derive(Clone, Copy)]
enum Library {
    Arbiter,
    CozyChess,
    Shakmaty,
}

const LIBRARIES: [Library; 3] = [Library::Arbiter, Library::CozyChess, Library::Shakmaty];

impl Library {
    fn name(self) -> &'static str {
        match self {
            Library::Arbiter => "arbiter",
            Library::CozyChess => "cozy-chess",
            Library::Shakmaty => "shakmaty",
        }
    }
}

// ---- Arbiter: make/unmake on one position ----

/// Arbiter without bulk counting; with bulk counting the bench calls the library's own `perft`.
fn arbiter_no_bulk(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    let mut nodes = 0;
    for &m in moves.as_slice() {
        let undo = pos.make_move(m);
        nodes += arbiter_no_bulk(pos, depth - 1);
        pos.unmake_move(m, &undo);
    }
    nodes
}

// ---- cozy-chess: copy-make, moves grouped by piece (as in its examples/perft.rs) ----

fn cozy_bulk(board: &cozy_chess::Board, depth: u32) -> u64 {
    let mut nodes = 0;
    match depth {
        0 => nodes = 1,
        1 => {
            board.generate_moves(|moves| {
                nodes += moves.len() as u64;
                false
            });
        }
        _ => {
            board.generate_moves(|moves| {
                for mv in moves {
                    let mut child = board.clone();
                    child.play_unchecked(mv);
                    nodes += cozy_bulk(&child, depth - 1);
                }
                false
            });
        }
    }
    nodes
}

fn cozy_no_bulk(board: &cozy_chess::Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    board.generate_moves(|moves| {
        for mv in moves {
            let mut child = board.clone();
            child.play_unchecked(mv);
            nodes += cozy_no_bulk(&child, depth - 1);
        }
        false
    });
    nodes
}

// ---- shakmaty: copy-make (it has no unmake); bulk counting is the library's own `shakmaty::perft` ----

fn shakmaty_no_bulk(pos: &shakmaty::Chess, depth: u32) -> u64 {
    use shakmaty::Position as _;
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    let mut nodes = 0;
    for &m in &moves {
        let mut child = pos.clone();
        child.play_unchecked(m);
        nodes += shakmaty_no_bulk(&child, depth - 1);
    }
    nodes
}

/// Runs one perft of `lib` and returns the node count and the seconds it took (parsing excluded).
fn run(lib: Library, fen: &str, depth: u32, mode: Mode) -> (u64, f64) {
    let depth = black_box(depth);
    match lib {
        Library::Arbiter => {
            let mut pos = Position::from_fen(fen).expect("bench FEN is valid");
            let t = Instant::now();
            let n = match mode {
                Mode::Bulk => arbiter::chess::perft::perft(&mut pos, depth),
                Mode::NoBulk => arbiter_no_bulk(&mut pos, depth),
            };
            (black_box(n), t.elapsed().as_secs_f64())
        }
        Library::CozyChess => {
            let board = cozy_chess::Board::from_fen(fen, false).expect("bench FEN is valid");
            let t = Instant::now();
            let n = match mode {
                Mode::Bulk => cozy_bulk(&board, depth),
                Mode::NoBulk => cozy_no_bulk(&board, depth),
            };
            (black_box(n), t.elapsed().as_secs_f64())
        }
        Library::Shakmaty => {
            let fen: shakmaty::fen::Fen = fen.parse().expect("bench FEN is valid");
            let pos: shakmaty::Chess =
                fen.into_position(shakmaty::CastlingMode::Standard).expect("bench FEN is a legal position");
            let t = Instant::now();
            let n = match mode {
                Mode::Bulk => shakmaty::perft(&pos, depth),
                Mode::NoBulk => shakmaty_no_bulk(&pos, depth),
            };
            (black_box(n), t.elapsed().as_secs_f64())
        }
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

struct Options {
    quick: bool,
    same_depth: bool,
    runs: usize,
    filters: Vec<String>,
}

fn options() -> Options {
    let mut o = Options { quick: false, same_depth: false, runs: 3, filters: Vec::new() };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--quick" => o.quick = true,
            "--same-depth" => o.same_depth = true,
            "--runs" => {
                o.runs = args.next().and_then(|n| n.parse().ok()).filter(|&n| n > 0).expect("--runs takes a count > 0")
            }
            // `cargo bench` passes `--bench`; ignore it and any other flag meant for libtest.
            s if s.starts_with('-') => {}
            s => o.filters.push(s.to_ascii_lowercase()),
        }
    }
    o
}

fn main() {
    let opts = options();
    let mut rows = Vec::new();
    for mode in [Mode::Bulk, Mode::NoBulk] {
        for case in &CASES {
            let mut depth = case.depth - u32::from(opts.quick);
            if mode == Mode::NoBulk && !opts.same_depth {
                depth -= 1;
            }
            let keep = opts.filters.is_empty()
                || opts.filters.iter().any(|f| case.name.contains(f.as_str()) || mode.name() == f.as_str());
            if keep {
                rows.push((case, depth, mode));
            }
        }
    }

    println!(
        "perft, 1 thread, median of {} interleaved runs per cell; Mnps = nodes / time, rel = Mnps / best in row",
        opts.runs
    );
    println!("reference counts: chessprogramming wiki, \"Perft Results\"; every count below was checked against it");
    println!("build: `cargo bench` profile (release, thin LTO, codegen-units 1), generic target CPU unless RUSTFLAGS");
    if !opts.same_depth {
        println!("no-bulk rows use one depth less than the bulk rows of the same position (run with --same-depth)");
    }
    println!();
    print!("{:<10} {:>5} {:<8} {:>12}", "position", "depth", "mode", "nodes");
    for lib in LIBRARIES {
        print!("  {:>17}", format!("{} Mnps  rel", lib.name()));
    }
    println!();

    let started = Instant::now();
    let mut rel_logs = [[0.0f64; 3]; 2];
    let mut rel_rows = [0u32; 2];
    for (case, depth, mode) in rows {
        let expected = case.counts[depth as usize - 1];
        let mut secs = [const { Vec::new() }; 3];
        for _ in 0..opts.runs {
            for (i, lib) in LIBRARIES.into_iter().enumerate() {
                let (nodes, s) = run(lib, case.fen, depth, mode);
                assert_eq!(
                    nodes,
                    expected,
                    "{} perft({depth}) {} of {} is wrong (expected {expected})",
                    lib.name(),
                    mode.name(),
                    case.fen
                );
                secs[i].push(s);
            }
        }
        let mnps: Vec<f64> = secs.into_iter().map(|s| expected as f64 / median(s) / 1e6).collect();
        let best = mnps.iter().copied().fold(0.0, f64::max);
        print!("{:<10} {:>5} {:<8} {:>12}", case.name, depth, mode.name(), expected);
        let m = usize::from(mode == Mode::NoBulk);
        for (i, &r) in mnps.iter().enumerate() {
            print!("  {:>11.1} {:>5.2}", r, r / best);
            rel_logs[m][i] += (r / best).ln();
        }
        rel_rows[m] += 1;
        println!();
    }
    for (m, mode) in [Mode::Bulk, Mode::NoBulk].into_iter().enumerate() {
        if rel_rows[m] > 1 {
            print!("{:<10} {:>5} {:<8} {:>12}", "geomean", "", mode.name(), "");
            for log in rel_logs[m] {
                print!("  {:>11} {:>5.2}", "", (log / f64::from(rel_rows[m])).exp());
            }
            println!();
        }
    }
    println!("\ntotal {:.1} s", started.elapsed().as_secs_f64());
}
