//! `arbiter tb`: what the Syzygy tables say about a position (WDL, DTZ, and the result tablebase adjudication
//! would give at its halfmove clock), so that a user can check a table set and a game's end by hand.

use super::{Classify, Failure};
use arbiter::chess::{Position, piece_sets};
use arbiter::tablebase::adjudicate::{TablebaseAdjudicator, TablebasePlan};
use arbiter::tablebase::verify::FileCheck;
use arbiter::tablebase::{Probe, Tablebases};
use std::path::PathBuf;

/// Flags of `arbiter tb`.
#[derive(clap::Args, Debug)]
pub struct TbArgs {
    /// The table folders, separated by ':' (as `--tb` of `arbiter match`).
    #[arg(long, value_name = "DIR[:DIR...]")]
    pub path: String,
    /// The position, as FEN.
    #[arg(long, required_unless_present_any = ["fens", "verify"], conflicts_with_all = ["fens", "verify"])]
    pub fen: Option<String>,
    /// A file of positions, one FEN per line (blank lines and lines starting with '#' skipped): one answer per
    /// line, in order.
    #[arg(long, value_name = "FILE", conflicts_with = "verify")]
    pub fens: Option<PathBuf>,
    /// Check every table file against the checksum list in its folder (SHA256SUMS, MD5SUMS, *.sha256 or *.md5,
    /// in sha256sum's or md5sum's format): exit 1 when a file differs or is missing.
    #[arg(long)]
    pub verify: bool,
    /// text (default) or json (one object per position and line).
    #[arg(long, default_value = "text", value_parser = ["text", "json"])]
    pub format: String,
}

/// Flags of the hidden `arbiter tb-prober`.
#[derive(clap::Args, Debug)]
pub struct ProberArgs {
    /// The table folders, separated by ':'.
    #[arg(long)]
    pub path: String,
}

/// Runs the hidden `arbiter tb-prober`: serves a parent's probes ([`arbiter::tablebase::serve`]).
///
/// # Errors
/// A [`Failure::Input`] for tables that cannot be opened.
pub fn serve(args: ProberArgs) -> Result<i32, Failure> {
    let folders: Vec<PathBuf> = args.path.split(':').filter(|p| !p.is_empty()).map(PathBuf::from).collect();
    arbiter::tablebase::serve(&folders).input()?;
    Ok(0)
}

/// What the tables say about one position.
#[derive(serde::Serialize)]
struct Answer {
    fen: String,
    pieces: u32,
    halfmove_clock: u32,
    /// Whether the tables cover the position.
    covered: bool,
    /// Why not, when they do not.
    #[serde(skip_serializing_if = "Option::is_none")]
    not_covered: Option<String>,
    wdl: Option<i8>,
    wdl_name: Option<&'static str>,
    dtz: Option<i32>,
    /// The result tablebase adjudication gives at this clock (`1-0`, `0-1`, `1/2-1/2`), `null` to play on.
    result: Option<&'static str>,
    /// The same with `--tbignore50`.
    result_ignoring_50: Option<&'static str>,
    /// The adjudication's PGN comment, or why the game plays on.
    reason: String,
}

/// Runs `arbiter tb`: 0 done, 1 a table that failed `--verify` or a probe that failed, 2 a bad FEN or table
/// folder.
///
/// # Errors
/// A [`Failure::Input`] for a table folder that cannot be used or a FEN that cannot be read.
pub fn run(args: TbArgs) -> Result<i32, Failure> {
    let folders: Vec<PathBuf> = args.path.split(':').filter(|p| !p.is_empty()).map(PathBuf::from).collect();
    if args.verify {
        return verify(&folders);
    }
    let plan = TablebasePlan { paths: folders, ..TablebasePlan::default() };
    let rule50 = plan.open().map_err(|e| Failure::Input(anyhow::anyhow!("--path: {e}")))?;
    let ignore = rule50.with_ignore50(true);
    let (source, lines) = match (&args.fen, &args.fens) {
        (Some(fen), _) => ("--fen".to_string(), vec![(0, fen.clone())]),
        (None, Some(file)) => {
            let text = std::fs::read_to_string(file)
                .map_err(|e| Failure::Input(anyhow::anyhow!("--fens {}: {e}", file.display())))?;
            let lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim().to_string()));
            (file.display().to_string(), lines.filter(|(_, l)| !l.is_empty() && !l.starts_with('#')).collect())
        }
        (None, None) => unreachable!("clap requires --fen or --fens"),
    };
    let mut positions = Vec::new();
    for (line, fen) in lines {
        let position = Position::from_fen(&fen).map_err(|e| {
            let at = if line == 0 { source.clone() } else { format!("{source}:{line}") };
            Failure::Input(anyhow::anyhow!("{at}: bad FEN `{fen}`: {e}"))
        })?;
        positions.push((position, fen));
    }
    let (wdl, dtz) = rule50.tables().counts();
    if args.format == "text" {
        let tables = rule50.tables();
        super::stdout_text(format_args!(
            "tables    {} ({wdl} WDL, {dtz} DTZ, up to {} pieces)\n",
            tables.shown(),
            tables.largest()
        ));
    }
    for (position, fen) in positions {
        let answer = answer(&rule50, &ignore, &position, fen);
        if args.format == "json" {
            let json = serde_json::to_string(&answer).expect("an answer is plain data");
            super::stdout_text(format_args!("{json}\n"));
        } else {
            super::stdout_text(format_args!("{}", text(&answer)));
        }
    }
    let (failed, first) = rule50.tables().failed_probes();
    if let Some(first) = first {
        super::stderr_line(format_args!(
            "arbiter tb: {failed} probes failed and were left out; the first: {first}; check the tables with \
             arbiter tb --path {} --verify",
            args.path
        ));
        return Ok(1);
    }
    Ok(0)
}

/// `arbiter tb --verify`.
fn verify(folders: &[PathBuf]) -> Result<i32, Failure> {
    let report =
        arbiter::tablebase::verify::verify(folders).map_err(|e| Failure::Input(anyhow::anyhow!("--path: {e}")))?;
    let mut bad = 0;
    for (path, check) in &report.files {
        let what = match check {
            FileCheck::Ok => continue,
            FileCheck::Mismatch => "checksum differs: the file is damaged".to_string(),
            FileCheck::Missing => "listed but missing".to_string(),
            FileCheck::Unreadable(e) => format!("cannot be read: {e}"),
        };
        bad += 1;
        super::stdout_text(format_args!("{}: {what}\n", path.display()));
    }
    let lists: Vec<String> = report.lists.iter().map(|p| p.display().to_string()).collect();
    super::stdout_text(format_args!(
        "{} of {} listed table files match ({}); {} table files not listed\n",
        report.files.len() - bad,
        report.files.len(),
        lists.join(", "),
        report.unlisted.len()
    ));
    Ok(if report.passed() { 0 } else { 1 })
}

fn answer(rule50: &TablebaseAdjudicator, ignore: &TablebaseAdjudicator, position: &Position, fen: String) -> Answer {
    let sets = piece_sets(position);
    let probe: Option<Probe> = rule50.tables().probe(&sets);
    let verdict = rule50.verdict(&sets);
    let ignoring = ignore.verdict(&sets);
    let not_covered = probe.is_none().then(|| not_covered(rule50.tables(), sets.count(), sets.castling));
    let reason = match (&verdict, &not_covered) {
        (Some(v), _) => v.comment.clone(),
        (None, Some(why)) => format!("not in the tables: {why}"),
        (None, None) => "the game plays on: the 50-move rule leaves the result open at this clock".to_string(),
    };
    Answer {
        fen,
        pieces: sets.count(),
        halfmove_clock: sets.halfmove_clock,
        covered: probe.is_some(),
        not_covered,
        wdl: probe.map(|p| p.wdl.value()),
        wdl_name: probe.map(|p| p.wdl.name()),
        dtz: probe.and_then(|p| p.dtz),
        result: verdict.map(|v| v.result.pgn()),
        result_ignoring_50: ignoring.map(|v| v.result.pgn()),
        reason,
    }
}

fn not_covered(tables: &Tablebases, pieces: u32, castling: bool) -> String {
    if castling {
        "a castling right is left".to_string()
    } else if pieces > tables.largest() {
        format!("{pieces} pieces; the largest tables found have {}", tables.largest())
    } else {
        "no table for this material in the folders (or its file could not be read)".to_string()
    }
}

fn text(a: &Answer) -> String {
    let or_dash = |v: Option<String>| v.unwrap_or_else(|| "-".to_string());
    let wdl = a.wdl.map(|v| format!("{} ({v})", a.wdl_name.unwrap_or("")));
    format!(
        "position  {}\npieces    {}, halfmove clock {}\nWDL       {}\nDTZ       {}\nresult    {} ({})\n\
         ignoring the 50-move rule: {}\n",
        a.fen,
        a.pieces,
        a.halfmove_clock,
        or_dash(wdl),
        or_dash(a.dtz.map(|d| d.to_string())),
        a.result.unwrap_or("plays on"),
        a.reason,
        a.result_ignoring_50.unwrap_or("plays on"),
    )
}
