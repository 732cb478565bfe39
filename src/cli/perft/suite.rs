//! `arbiter perft --suite` and `--compare-with`: the counts of a suite checked with Arbiter's generator or an
//! engine, and the comparison of Arbiter's generator with an engine's, printed with the line, the counts and the
//! descent to the first position where the two differ.

use super::super::{Classify as _, Failure};
use super::{INTERRUPTED, PerftArgs, ReportFormat, depth, timeouts};
use arbiter::game::Game;
use arbiter::game::perft::PerftTable;
use arbiter::notation::epd::Epd;
use arbiter::player::EngineSpec;
use arbiter::suite::compare::{ArbiterOracle, CompareError, Divergence, PerftEngine, PerftOracle, find_divergence};
use arbiter::suite::perft::{Check, Selection, count_checks, plan_checks, read_suite, sorted_divide, suite_position};
use indicatif::{ProgressBar, ProgressStyle};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// The exit code of an engine failure: 2 for the user's choice of engine or input, 1 for an engine that failed
/// the run.
fn engine_failure_code(error: &CompareError) -> i32 {
    if error.is_input() { 2 } else { 1 }
}

/// Compares Arbiter with the engine of `spec` (shown as `label`) on each FEN at `--depth`; prints each
/// divergence; 0 when all agree, 1 on a divergence or an engine that failed the run, 2 when the engine cannot
/// be used.
pub(super) fn compare_fens<G: Game>(
    args: &PerftArgs,
    fens: &[(Option<String>, String)],
    spec: &EngineSpec,
    label: &str,
) -> Result<i32, Failure> {
    let flag = if args.engine.is_some() { "--engine" } else { "--compare-with" };
    let mut theirs = match PerftEngine::<G>::start(spec, args.chess960, timeouts(args), Some(Arc::clone(&INTERRUPTED)))
    {
        Ok(o) => o,
        Err(_) if INTERRUPTED.load(Ordering::SeqCst) => return Ok(super::super::EXIT_INTERRUPTED),
        Err(e) => {
            eprintln!("error: {flag} {label}: {}", super::super::error_text(&e.into()));
            return Ok(2);
        }
    };
    let mut ours = ArbiterOracle::<G>::new(args.chess960);
    let depth = depth(args);
    let mut differ = 0;
    for (place, fen) in fens {
        match find_divergence::<G>(&mut ours, &mut theirs, fen, depth, args.chess960) {
            Ok(None) => {}
            Ok(Some(d)) => {
                differ += 1;
                print_divergence(place.as_deref(), fen, depth, &d, label);
            }
            Err(_) if INTERRUPTED.load(Ordering::SeqCst) => return Ok(super::super::EXIT_INTERRUPTED),
            Err(e) => {
                eprintln!("error: {}{fen}: {e}", place.as_deref().map(|p| format!("{p}: ")).unwrap_or_default());
                return Ok(engine_failure_code(&e));
            }
        }
    }
    println!(
        "{} positions compared with {label} at depth {depth}: {} agree, {differ} differ",
        fens.len(),
        fens.len() - differ
    );
    Ok(if differ == 0 { 0 } else { 1 })
}

fn print_divergence(place: Option<&str>, fen: &str, depth: u32, d: &Divergence, cmd: &str) {
    let at = place.map(|p| format!("{p}: ")).unwrap_or_default();
    println!("DIFFER {at}{fen} depth {depth}: arbiter {} vs {cmd} {}", d.root_counts.0, d.root_counts.1);
    print_descent(d, cmd, "  ");
}

/// The descent's end: the moves, the position, and the moves only one side generates there.
fn print_descent(d: &Divergence, engine: &str, indent: &str) {
    println!("{indent}after moves: {}", if d.moves.is_empty() { "(root)".to_string() } else { d.moves.join(" ") });
    println!("{indent}position:    {} (depth {} left)", d.fen, d.depth);
    println!(
        "{indent}only arbiter generates: {}",
        if d.only_first.is_empty() { "-".to_string() } else { d.only_first.join(" ") }
    );
    println!(
        "{indent}only {engine} generates: {}",
        if d.only_second.is_empty() { "-".to_string() } else { d.only_second.join(" ") }
    );
}

/// Reads a suite of game `G` ([`read_suite`]); with `--skip-bad-lines`, lines that cannot be read are named on
/// stderr and left out.
fn read_suite_lines<G: Game>(
    path: &std::path::Path,
    args: &PerftArgs,
) -> Result<Vec<Epd>, arbiter::notation::epd::EpdError> {
    let lines = read_suite::<G>(path, args.chess960, args.skip_bad_lines)?;
    for bad in &lines.bad {
        eprintln!("skipped (--skip-bad-lines): {bad}");
    }
    if !lines.bad.is_empty() {
        eprintln!(
            "{} of {} lines of {} skipped by --skip-bad-lines",
            lines.bad.len(),
            lines.bad.len() + lines.epds.len(),
            path.display()
        );
    }
    Ok(lines.epds)
}

pub(super) fn compare_suite<G: Game>(
    args: &PerftArgs,
    path: &std::path::Path,
    spec: &EngineSpec,
    label: &str,
) -> Result<i32, Failure> {
    let epds = read_suite_lines::<G>(path, args).input()?;
    let fens: Vec<(Option<String>, String)> =
        epds.iter().map(|e| (Some(format!("{}:{}", path.display(), e.line)), e.fen.clone())).collect();
    compare_fens::<G>(args, &fens, spec, label)
}

/// Checks the suite's counts with the `--engine` (Arbiter's own generator without one); 0 when all match, 1 on
/// a mismatch or an engine that failed the run, 2 on bad input or an engine without `go perft`.
pub(super) fn run_suite<G: Game>(
    args: &PerftArgs,
    path: &std::path::Path,
    table: Option<&PerftTable>,
    spec: Option<&EngineSpec>,
) -> Result<i32, Failure> {
    let epds = read_suite_lines::<G>(path, args).input()?;
    let select = Selection { max_nodes: args.max_nodes, max_depth: args.max_depth, depth: args.depth };
    let plan = match plan_checks(path, &epds, select) {
        Ok(plan) => plan,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(2);
        }
    };
    let (checks, skipped, opcodes) = (plan.checks, plan.skipped, plan.opcodes);
    match args.depth {
        Some(d) => eprintln!("checking the D{d} count of each line: {} of {opcodes} counts", checks.len()),
        None if skipped > 0 => {
            eprintln!("{skipped} of {opcodes} counts skipped by --max-nodes {} / --max-depth", args.max_nodes);
        }
        None => {}
    }
    if let Some(d) = args.depth
        && plan.lines_without_depth > 0
    {
        eprintln!("{} of {} lines have no D{d} count: not checked", plan.lines_without_depth, epds.len());
    }
    if checks.is_empty() {
        eprintln!("error: {}: no count left to check under --depth/--max-depth/--max-nodes", path.display());
        return Ok(2);
    }
    let mut engine = match spec {
        None => PerftEngine::<G>::Arbiter("arbiter".to_string(), ArbiterOracle::new(args.chess960)),
        Some(spec) => {
            match PerftEngine::<G>::start(spec, args.chess960, timeouts(args), Some(Arc::clone(&INTERRUPTED))) {
                Ok(engine) => engine,
                Err(_) if INTERRUPTED.load(Ordering::SeqCst) => return Ok(super::super::EXIT_INTERRUPTED),
                Err(e) => {
                    eprintln!("error: --engine {}: {}", spec.name, super::super::error_text(&e.into()));
                    return Ok(2);
                }
            }
        }
    };
    let name = engine.name();
    let total_expected: u64 = checks.iter().map(|c| c.expected).sum();
    let bar = if args.quiet { ProgressBar::hidden() } else { ProgressBar::new(total_expected) };
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {percent}% {msg}")
            .expect("static template")
            .progress_chars("=> "),
    );
    let start = Instant::now();
    let counted = count_checks::<G>(&mut engine, &epds, &checks, args.chess960, table, |expected| bar.inc(expected));
    bar.finish_and_clear();
    let counted = match counted {
        Ok(counted) => counted,
        Err(_) if INTERRUPTED.load(Ordering::SeqCst) => return Ok(super::super::EXIT_INTERRUPTED),
        Err(failed) => {
            let c = &checks[failed.check];
            let epd = &epds[c.epd];
            eprintln!("error: {}:{}: {} depth {}: {}", path.display(), epd.line, epd.fen, c.depth, failed.error);
            return Ok(engine_failure_code(&failed.error));
        }
    };
    let secs = start.elapsed().as_secs_f64();
    let actual: Vec<u64> = counted.iter().map(|c| c.nodes).collect();
    let seconds: Vec<f64> = counted.iter().map(|c| c.seconds).collect();
    let mut failures = 0;
    let mut csv = (args.format == ReportFormat::Csv).then(|| csv::Writer::from_writer(std::io::stdout()));
    if let Some(w) = csv.as_mut() {
        w.write_record(["fen", "depth", "expected", "actual", "nodes", "seconds", "engine"]).system()?;
    }
    for ((c, &n), &t) in checks.iter().zip(&actual).zip(&seconds) {
        if let Some(w) = csv.as_mut() {
            let row = [
                epds[c.epd].fen.clone(),
                c.depth.to_string(),
                c.expected.to_string(),
                n.to_string(),
                n.to_string(),
                format!("{t:.6}"),
                name.clone(),
            ];
            w.write_record(&row).system()?;
        }
        if n != c.expected {
            failures += 1;
            if csv.is_none() {
                report_failure::<G>(path, &epds[c.epd], c, n, args.chess960, &mut engine)?;
            } else {
                eprintln!(
                    "FAIL {}:{}: {} depth {} expected {} actual {n} from {name}",
                    path.display(),
                    epds[c.epd].line,
                    epds[c.epd].fen,
                    c.depth,
                    c.expected
                );
            }
        }
    }
    let nodes: u64 = actual.iter().sum();
    let mnps = nodes as f64 / secs.max(1e-9) / 1e6;
    if let Some(mut w) = csv {
        w.flush().system()?;
        eprintln!(
            "{} checks, {failures} failed, {nodes} nodes, {secs:.2} s, {mnps:.1} Mnps, engine {name}",
            checks.len()
        );
        return Ok(if failures == 0 { 0 } else { 1 });
    }
    let positions = checks.iter().map(|c| c.epd).collect::<std::collections::BTreeSet<_>>().len();
    println!(
        "{positions} positions, {} checks, {failures} failed, {nodes} nodes, {secs:.2} s, {mnps:.1} Mnps, engine {name}",
        checks.len(),
    );
    Ok(if failures == 0 { 0 } else { 1 })
}

/// Prints a count that differs from the suite's: the line, the counts, and for Arbiter's own generator the
/// divide; for an external engine the descent to the first position where it and Arbiter's generator differ.
fn report_failure<G: Game>(
    path: &std::path::Path,
    epd: &Epd,
    c: &Check,
    actual: u64,
    chess960: bool,
    engine: &mut PerftEngine<G>,
) -> Result<(), Failure> {
    let name = engine.name();
    println!("FAIL {}:{}: {}", path.display(), epd.line, epd.fen);
    println!(
        "  depth {} expected {} actual {} (difference {}) from {name}",
        c.depth,
        c.expected,
        actual,
        actual as i128 - c.expected as i128
    );
    if c.depth == 0 {
        return Ok(());
    }
    if let PerftEngine::Arbiter(..) = engine {
        let mut pos = suite_position::<G>(epd, chess960);
        println!("  divide at depth {}:", c.depth);
        for (m, n) in sorted_divide::<G>(&mut pos, c.depth) {
            println!("    {m:<6} {n}");
        }
        return Ok(());
    }
    let mut ours = ArbiterOracle::<G>::new(chess960);
    match find_divergence::<G>(&mut ours, engine, &epd.fen, c.depth, chess960) {
        Ok(Some(d)) => {
            let truth = if d.root_counts.0 == c.expected { " (the suite's count)" } else { ", not the suite's count" };
            println!(
                "  descent with arbiter's generator as the reference (arbiter counts {}{truth}):",
                d.root_counts.0
            );
            print_descent(&d, &name, "    ");
        }
        Ok(None) => println!(
            "  arbiter's generator agrees with {name} at every root move: check the suite's count (line {})",
            epd.line
        ),
        Err(e) => println!("  no descent: {e}"),
    }
    Ok(())
}
