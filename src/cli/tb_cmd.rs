//! `arbiter tb`: what the Syzygy tables say about a position (WDL, DTZ, and the result tablebase adjudication
//! would give at its halfmove clock), so that a user can check a table set and a game's end by hand.

use super::{Classify, Failure};
use arbiter::chess::{Position, piece_sets};
use arbiter::tablebase::adjudicate::{TablebaseAdjudicator, TablebasePlan};
use arbiter::tablebase::{Probe, Tablebases};
use std::path::PathBuf;

/// Flags of `arbiter tb`.
#[derive(clap::Args, Debug)]
pub struct TbArgs {
    /// The table folders, separated by ':' (as `--tb` of `arbiter match`).
    #[arg(long, value_name = "DIR[:DIR...]")]
    pub path: String,
    /// The position, as FEN.
    #[arg(long, required_unless_present = "fens", conflicts_with = "fens")]
    pub fen: Option<String>,
    /// A file of positions, one FEN per line (blank lines and lines starting with '#' skipped): one answer per
    /// line, in order.
    #[arg(long, value_name = "FILE")]
    pub fens: Option<PathBuf>,
    /// text (default) or json (one object per position and line).
    #[arg(long, default_value = "text", value_parser = ["text", "json"])]
    pub format: String,
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

/// Runs `arbiter tb`: 0 done, 2 a bad FEN or table folder.
///
/// # Errors
/// A [`Failure::Input`] for a table folder that cannot be used or a FEN that cannot be read.
pub fn run(args: TbArgs) -> Result<i32, Failure> {
    let folders: Vec<PathBuf> = args.path.split(':').filter(|p| !p.is_empty()).map(PathBuf::from).collect();
    let plan = TablebasePlan { paths: folders, ..TablebasePlan::default() };
    let rule50 = plan.open().map_err(|e| Failure::Input(anyhow::anyhow!("--path: {e}")))?;
    let ignore = TablebasePlan { ignore50: true, ..plan }.open().input()?;
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
    Ok(0)
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
