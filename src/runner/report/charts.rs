//! Match charts: the history of a run (LLR and Elo after each complete game pair, from the rows of its
//! `games.csv`) and its SVG pictures `llr.svg` and `elo.svg`.
//!
//! ```text
//! games.csv -> rundir::csv::parse_csv -> [GameRow] -> history(first engine, SPRT) -> [HistoryPoint]
//!           -> write_charts(folder) -> llr.svg (LLR against games, both bounds), elo.svg (Elo, 95% band)
//! ```
//!
//! [`write_run_charts`] does it all for a run folder. The rows are read by the reader that resume, merge and
//! `arbiter sprt --results` use ([`crate::runner::rundir::csv::parse_csv`]: the exact header, every field checked, a
//! partial last line left out). The history is a pure function of the rows, so it is the same at the end of a
//! match and when the charts are drawn later from the folder.

use crate::chess::Color;
use crate::runner::rundir::csv::{GameRow, parse_csv};
use crate::runner::rundir::output::{ELO_CHART, LLR_CHART};
use crate::runner::rundir::record_error::RecordError;
use crate::runner::tally::score_of;
use crate::stats::{MIN_PAIRS, Pentanomial, SprtSpec, elo_estimate};
use crate::svg_chart::{Band, Line, LineChart};
use plotters::prelude::{BLUE, GREEN, RED, SeriesLabelPosition};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Chart size in pixels (width, height).
const CHART_SIZE: (u32, u32) = (800, 450);

/// The most history points a chart draws: longer histories are thinned to every k-th point (and the last), so a
/// 100,000-game match still makes a small file.
pub const MAX_CHART_POINTS: usize = 2000;

/// A `games.csv` that cannot be read or charted, or a chart that cannot be written.
#[derive(Debug, Error)]
pub enum ChartError {
    /// The file cannot be opened or read.
    #[error("{path}: {reason}")]
    Io {
        /// The file.
        path: String,
        /// The operating-system error (its text is in the message).
        reason: std::io::Error,
    },
    /// A row of `games.csv` is not a row arbiter writes (see [`parse_csv`]).
    #[error(transparent)]
    Records(#[from] RecordError),
    /// A pair whose two games are not between the same two engines.
    #[error("{path}:{line}: {column} {}: expected {expected}", crate::notation::quote::shown(.text))]
    BadField {
        /// The file.
        path: String,
        /// The 1-based line.
        line: u64,
        /// The column.
        column: &'static str,
        /// The field's text.
        text: String,
        /// What was expected, in words.
        expected: String,
    },
    /// A chart file cannot be written.
    #[error(transparent)]
    Write(#[from] crate::runner::rundir::output::OutputError),
    /// A chart cannot be drawn.
    #[error("{path}: cannot draw the chart: {reason}")]
    Draw {
        /// The chart file.
        path: String,
        /// plotters' error.
        reason: crate::svg_chart::ChartError,
    },
}

/// The state of a run after one more complete game pair, from the first engine's view.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HistoryPoint {
    /// Complete pairs so far.
    pub pairs: u64,
    /// Games of the complete pairs: `2 * pairs`.
    pub games: u64,
    /// The pair counts so far.
    pub penta: Pentanomial,
    /// The SPRT's log-likelihood ratio over the pairs so far (`None` without an SPRT or under 2 pairs, see
    /// [`SprtSpec::evaluate`]).
    pub llr: Option<f64>,
    /// Logistic Elo of the pairs so far ([`elo_estimate`]).
    pub elo: f64,
    /// Lower end of its 95% interval: `elo - elo95`, as the summary prints `elo +/- elo95`.
    pub elo_low: f64,
    /// Upper end of its 95% interval: `elo + elo95`.
    pub elo_high: f64,
}

/// Computes the history of a run from its `games.csv` rows, in file order (the order the games ended): a
/// point after each pair whose second game ends, from the 2nd complete pair on (the statistics need 2
/// pairs), counting the pairs in which `first` plays both games (others' pairs, in a round robin, are left
/// out). A game's score for `first` comes from its colour in that game.
///
/// # Errors
/// [`ChartError::BadField`] (with `name` as the file) for a pair whose two games are not between the same two
/// engines (rows from [`parse_csv`] have each game once, and each game in its own pair).
pub fn history(
    rows: &[GameRow],
    first: &str,
    sprt: Option<&SprtSpec>,
    name: &str,
) -> Result<Vec<HistoryPoint>, ChartError> {
    let mut open: HashMap<u64, &GameRow> = HashMap::new();
    let mut penta = Pentanomial::default();
    let mut points = Vec::new();
    for row in rows {
        let bad = |column: &'static str, text: String, expected: String| ChartError::BadField {
            path: name.to_owned(),
            line: row.line as u64,
            column,
            text,
            expected,
        };
        let Some(other) = open.remove(&row.pair) else {
            open.insert(row.pair, row);
            continue;
        };
        let mut players = [row.white.as_str(), row.black.as_str()];
        let mut other_players = [other.white.as_str(), other.black.as_str()];
        players.sort_unstable();
        other_players.sort_unstable();
        if players != other_players {
            let expected =
                format!("the engines of game {} of the same pair ({} and {})", other.game, other.white, other.black);
            return Err(bad("white", format!("{} against {}", row.white, row.black), expected));
        }
        let score = |game: &GameRow| {
            if game.white == first {
                Some(score_of(game.result, Color::White))
            } else if game.black == first {
                Some(score_of(game.result, Color::Black))
            } else {
                None
            }
        };
        let (Some(a), Some(b)) = (score(other), score(row)) else {
            continue;
        };
        penta.add_pair(a, b);
        if penta.pairs() < MIN_PAIRS {
            continue;
        }
        let estimate = elo_estimate(&penta).expect("at least MIN_PAIRS pairs were counted");
        points.push(HistoryPoint {
            pairs: penta.pairs(),
            games: penta.games(),
            penta,
            // The match's own evaluation (with its fallback where the exact fit has none), as the summary's.
            llr: sprt.and_then(|spec| spec.evaluate(&penta).ok()).map(|o| o.llr),
            elo: estimate.elo,
            elo_low: estimate.elo - estimate.elo95,
            elo_high: estimate.elo + estimate.elo95,
        });
    }
    Ok(points)
}

/// Keeps at most about [`MAX_CHART_POINTS`] of `history`: every k-th point and the last.
fn thinned(history: &[HistoryPoint]) -> Vec<&HistoryPoint> {
    let step = history.len().div_ceil(MAX_CHART_POINTS).max(1);
    let mut points: Vec<&HistoryPoint> = history.iter().step_by(step).collect();
    if let Some(last) = history.last()
        && points.last().is_none_or(|p| p.pairs != last.pairs)
    {
        points.push(last);
    }
    points
}

/// Widens `[low, high]` by 5% of its span on each side (by 1 when the span is 0).
fn padded(low: f64, high: f64) -> (f64, f64) {
    let pad = if high > low { 0.05 * (high - low) } else { 1.0 };
    (low - pad, high + pad)
}

/// Writes the charts of `history` into `dir`: `llr.svg` (the LLR against games, with the SPRT's lower and
/// upper bounds as horizontal lines) when `sprt` is given, and `elo.svg` (the logistic Elo against games,
/// with its 95% interval as a band, and the zero line). `title` heads both (for example `seed vs nomob`).
/// Returns the files written: none for an empty history (under 2 complete pairs). Existing charts are
/// replaced.
///
/// The x axis is games; the y range of the Elo chart covers the interval from a tenth of the games on (the
/// first pairs' intervals are hundreds of Elo wide), and what lies outside it is drawn at its edge. At most
/// about [`MAX_CHART_POINTS`] points are drawn. Points whose LLR has no finite value are left out.
///
/// # Errors
/// [`ChartError::Draw`] naming the chart that cannot be drawn or written.
pub fn write_charts(
    dir: &Path,
    title: &str,
    history: &[HistoryPoint],
    sprt: Option<&SprtSpec>,
) -> Result<Vec<PathBuf>, ChartError> {
    if history.is_empty() {
        return Ok(Vec::new());
    }
    let points = thinned(history);
    let mut written = Vec::new();
    if let Some(spec) = sprt {
        let path = dir.join(LLR_CHART);
        let svg = llr_svg(title, &points, spec).map_err(|reason| draw_error(&path, reason))?;
        crate::runner::rundir::output::replace_file(&path, svg.as_bytes())?;
        written.push(path);
    }
    let path = dir.join(ELO_CHART);
    let svg = elo_svg(title, &points).map_err(|reason| draw_error(&path, reason))?;
    crate::runner::rundir::output::replace_file(&path, svg.as_bytes())?;
    written.push(path);
    Ok(written)
}

fn draw_error(path: &Path, reason: crate::svg_chart::ChartError) -> ChartError {
    ChartError::Draw { path: path.display().to_string(), reason }
}

/// The x range of a chart: 0 to the last point's games.
fn games_range(points: &[&HistoryPoint]) -> std::ops::Range<f64> {
    let last = points.last().map_or(1, |p| p.games).max(1);
    0.0..last as f64
}

/// Draws the LLR chart as SVG text.
fn llr_svg(title: &str, points: &[&HistoryPoint], spec: &SprtSpec) -> Result<String, crate::svg_chart::ChartError> {
    let (lower, upper) = spec.bounds();
    let llrs: Vec<(f64, f64)> =
        points.iter().filter_map(|p| p.llr.filter(|l| l.is_finite()).map(|l| (p.games as f64, l))).collect();
    let low = llrs.iter().map(|&(_, l)| l).fold(lower, f64::min);
    let high = llrs.iter().map(|&(_, l)| l).fold(upper, f64::max);
    let (y_low, y_high) = padded(low, high);
    let x = games_range(points);
    let horizontal = |y: f64| vec![(x.start, y), (x.end, y)];
    LineChart {
        size: CHART_SIZE,
        caption: format!(
            "{title}: LLR, SPRT [{}, {}] {} Elo, alpha {}, beta {}",
            spec.elo0(),
            spec.elo1(),
            spec.model(),
            spec.alpha(),
            spec.beta()
        ),
        x: x.clone(),
        y: y_low..y_high,
        x_desc: "games".into(),
        y_desc: "LLR".into(),
        y_decimals: None,
        y_label_area: 50,
        legend: SeriesLabelPosition::UpperLeft,
        band: None,
        lines: vec![
            Line::new(horizontal(upper), GREEN, format!("upper bound {upper:.2} (H1)")),
            Line::new(horizontal(lower), RED, format!("lower bound {lower:.2} (H0)")),
            Line::reference(&x, 0.0),
            Line::new(llrs, BLUE, "LLR"),
        ],
    }
    .svg()
}

/// Draws the Elo chart as SVG text.
fn elo_svg(title: &str, points: &[&HistoryPoint]) -> Result<String, crate::svg_chart::ChartError> {
    let last_games = points.last().map_or(0, |p| p.games);
    let settled: Vec<&&HistoryPoint> = points.iter().filter(|p| 10 * p.games >= last_games).collect();
    let low = settled.iter().map(|p| p.elo_low).fold(0.0, f64::min);
    let high = settled.iter().map(|p| p.elo_high).fold(0.0, f64::max);
    let (y_low, y_high) = padded(low, high);
    let clamp = |y: f64| y.clamp(y_low, y_high);
    let x = games_range(points);
    let band: Vec<(f64, f64)> = points
        .iter()
        .map(|p| (p.games as f64, clamp(p.elo_high)))
        .chain(points.iter().rev().map(|p| (p.games as f64, clamp(p.elo_low))))
        .collect();
    LineChart {
        size: CHART_SIZE,
        caption: format!("{title}: Elo with its 95% interval"),
        x: x.clone(),
        y: y_low..y_high,
        x_desc: "games".into(),
        y_desc: "Elo".into(),
        y_decimals: Some(0),
        y_label_area: 50,
        legend: SeriesLabelPosition::UpperRight,
        band: Some(Band { points: band, color: BLUE, label: "95% interval".into() }),
        lines: vec![
            Line::reference(&x, 0.0),
            Line::new(points.iter().map(|p| (p.games as f64, clamp(p.elo))).collect(), BLUE, "Elo"),
        ],
    }
    .svg()
}

/// Draws the charts of a run folder from its `games.csv`: reads the rows, computes the [`history`] from
/// `first`'s view (the engine whose Elo and SPRT the match reports: the first `--engine`) and writes
/// `llr.svg` (only with `sprt`) and `elo.svg` into `run_dir`, headed `first vs OPPONENT` (the opponents
/// joined with `, ` when there are several). Returns the files written (none under 2 complete pairs).
///
/// # Errors
/// [`ChartError`] naming `games.csv` (with the line of a bad row) or the chart that cannot be written.
pub fn write_run_charts(run_dir: &Path, first: &str, sprt: Option<&SprtSpec>) -> Result<Vec<PathBuf>, ChartError> {
    let csv_path = run_dir.join("games.csv");
    let name = csv_path.display().to_string();
    let text = std::fs::read_to_string(&csv_path).map_err(|reason| ChartError::Io { path: name.clone(), reason })?;
    let (rows, _) = parse_csv(&text, &name)?;
    let history = history(&rows, first, sprt, &name)?;
    let mut opponents: Vec<&str> = Vec::new();
    for row in &rows {
        let opponent = if row.white == first {
            row.black.as_str()
        } else if row.black == first {
            row.white.as_str()
        } else {
            continue;
        };
        if !opponents.contains(&opponent) {
            opponents.push(opponent);
        }
    }
    let title = format!("{first} vs {}", opponents.join(", "));
    write_charts(run_dir, &title, &history, sprt)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::rundir::output::CSV_HEADER;
    use crate::stats::EloModel;

    const FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    /// A games.csv of A against B (pairs finishing out of order) and one pair of B against C.
    fn csv_text() -> String {
        let rows = [
            "0,0,5,A,B,1-0",     // pair 0: A wins with White
            "1,2,9,A,B,1/2-1/2", // pair 1: a draw
            "0,1,5,B,A,1/2-1/2", // pair 0 complete: WD (1 pair, no point)
            "1,3,9,B,A,0-1",     // pair 1 complete: WD (point 1)
            "4,8,3,B,C,1-0",     // pair 4: B against C, not A's
            "2,4,1,A,B,0-1",
            "4,9,3,C,B,1-0", // pair 4 complete: left out
            "2,5,1,B,A,1-0", // pair 2 complete: LL (point 2)
            "3,6,2,A,B,1-0",
            "3,7,2,B,A,1-0", // pair 3 complete: WL (point 3)
        ];
        let mut text = format!("{}\n", CSV_HEADER.join(","));
        for row in rows {
            let row = row.split("//").next().unwrap().trim();
            text.push_str(&format!("{row},checkmate,40,{FEN}\n"));
        }
        text
    }

    fn rows() -> Vec<GameRow> {
        parse_csv(&csv_text(), "games.csv").unwrap().0
    }

    fn spec() -> SprtSpec {
        SprtSpec::new(0.0, 10.0, 0.05, 0.05, EloModel::Normalized).unwrap()
    }

    #[test]
    fn history_follows_complete_pairs_from_the_first_engines_view() {
        let spec = spec();
        let points = history(&rows(), "A", Some(&spec), "games.csv").unwrap();
        let expected = [
            Pentanomial { wd: 2, ..Pentanomial::default() },
            Pentanomial { ll: 1, wd: 2, ..Pentanomial::default() },
            Pentanomial { ll: 1, wl: 1, wd: 2, ..Pentanomial::default() },
        ];
        assert_eq!(points.len(), 3);
        for (i, (point, penta)) in points.iter().zip(expected).enumerate() {
            assert_eq!((point.pairs, point.games, point.penta), (i as u64 + 2, 2 * i as u64 + 4, penta));
            assert_eq!(point.llr, Some(spec.evaluate(&penta).unwrap().llr));
            let estimate = elo_estimate(&penta).unwrap();
            assert_eq!((point.elo_low, point.elo_high), (estimate.elo - estimate.elo95, estimate.elo + estimate.elo95));
        }
        // fishtest's get_elo over the regularized pentanomials, evaluated in Python.
        let fishtest = [(190.27107807964242, 27.7903044156359), (0.057848083372201646, 381.3938144972802)];
        for (point, (elo, elo95)) in points.iter().zip(fishtest) {
            assert!((point.elo - elo).abs() < 1e-9, "{point:?}");
            assert!((point.elo_high - point.elo - elo95).abs() < 1e-9, "{point:?}");
        }
        // From B's view the same pairs are mirrored, and B's pair against C is counted.
        let mirrored = history(&rows(), "B", None, "games.csv").unwrap();
        assert_eq!(mirrored.last().unwrap().penta, Pentanomial { ld: 2, wl: 2, ww: 1, ..Pentanomial::default() });
        assert_eq!(mirrored.last().unwrap().llr, None);
    }

    #[test]
    fn bad_rows_name_their_line() {
        let replace = |from: &str, to: &str| -> Result<Vec<HistoryPoint>, ChartError> {
            let text = csv_text().replacen(from, to, 1);
            let rows = parse_csv(&text, "games.csv")?.0;
            history(&rows, "A", None, "games.csv")
        };
        let message = |from: &str, to: &str| replace(from, to).unwrap_err().to_string();
        assert_eq!(
            message("1,3,9,B,A,0-1", "1,3,9,B,A,*"),
            "games.csv:5: result: expected 1-0, 0-1 or 1/2-1/2, got \"*\""
        );
        assert_eq!(message("1,3,9", "1,4,9"), "games.csv:5: game 4 is not a game of pair 1");
        assert_eq!(message("1,3,9,B,A,0-1", "1,2,9,B,A,0-1"), "games.csv:5: game 2 is listed twice");
        assert_eq!(
            message("3,7,2,B,A", "3,7,2,C,A"),
            "games.csv:11: white \"C against A\": expected the engines of game 6 of the same pair (A and B)"
        );
        assert!(message("pair,", "pairs,").starts_with("games.csv:1: expected the header"));
    }

    #[test]
    fn charts_are_svg_files() {
        let dir = std::env::temp_dir().join(format!("arbiter-charts-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("games.csv"), csv_text()).unwrap();
        let written = write_run_charts(&dir, "A", Some(&spec())).unwrap();
        assert_eq!(written, vec![dir.join(LLR_CHART), dir.join(ELO_CHART)]);
        for path in &written {
            let svg = std::fs::read_to_string(path).unwrap();
            assert!(svg.contains("<svg") && svg.contains("A vs B"), "{}", path.display());
        }
        assert!(std::fs::read_to_string(dir.join(LLR_CHART)).unwrap().contains("upper bound 2.94 (H1)"));
        // Without an SPRT only the Elo chart; with too few pairs none.
        std::fs::remove_file(dir.join(LLR_CHART)).unwrap();
        assert_eq!(write_run_charts(&dir, "A", None).unwrap(), vec![dir.join(ELO_CHART)]);
        assert!(!dir.join(LLR_CHART).exists());
        assert_eq!(write_charts(&dir, "A vs B", &[], Some(&spec())).unwrap(), Vec::<PathBuf>::new());
        let missing = write_run_charts(&dir.join("nothing"), "A", None).unwrap_err().to_string();
        assert!(missing.contains("games.csv"), "{missing}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn long_histories_are_thinned_to_the_cap() {
        let point = |pairs: u64| HistoryPoint {
            pairs,
            games: 2 * pairs,
            penta: Pentanomial::default(),
            llr: None,
            elo: 0.0,
            elo_low: 0.0,
            elo_high: 0.0,
        };
        let history: Vec<HistoryPoint> = (2..=10_001).map(point).collect();
        let points = thinned(&history);
        // 10,000 points, step 5: 2000 points, then the last one.
        assert_eq!(points.len(), 2001);
        assert_eq!((points[0].pairs, points[1].pairs, points[2000].pairs), (2, 7, 10_001));
        assert_eq!(thinned(&history[..3]).len(), 3);
    }
}
