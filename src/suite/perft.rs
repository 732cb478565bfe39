//! Perft suites: EPD lines with `;D1 n ;D2 n ...` opcodes, read for any [`Game`], turned into checks and
//! counted in parallel with [`crate::game::perft`]'s driver. `arbiter perft --suite` prints what this returns.

use crate::game::perft::{PerftTable, divide, perft_split};
use crate::game::{Game, Rules};
use crate::notation::epd::{Epd, EpdError, SuiteLines, read_epd_file_with, read_one_field_file_with};
use crate::suite::compare::{CompareError, PerftEngine, PerftOracle};
use rayon::prelude::*;
use std::path::Path;
use std::time::Instant;
use thiserror::Error;

pub use crate::game::perft::MAX_PERFT_DEPTH;

/// Why a suite's counts cannot be checked.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum SuiteError {
    /// A `D`-like opcode that is not a perft depth `D0`..`D32` (`d5`, `D99`, `Dx`).
    #[error("{place}: opcode {opcode:?} is not a perft depth D0..D{MAX_PERFT_DEPTH}")]
    Depth {
        /// `file:line`.
        place: String,
        /// The opcode as written.
        opcode: String,
    },
    /// A depth opcode whose count is not a number.
    #[error("{place}: opcode {opcode} has a count {value:?} that is not a number")]
    Count {
        /// `file:line`.
        place: String,
        /// The opcode.
        opcode: String,
        /// The value as written.
        value: String,
    },
    /// No line has a perft count.
    #[error("{file}: no perft counts (`;D1 n ;D2 n ...`) in {lines} lines: nothing to check")]
    NoCounts {
        /// The suite's path.
        file: String,
        /// The lines read.
        lines: usize,
    },
}

/// One checked (position, depth) of a suite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Check {
    /// The index of the suite line in the lines read.
    pub epd: usize,
    /// The depth in plies.
    pub depth: u32,
    /// The count the suite gives.
    pub expected: u64,
}

/// The checks of a suite under the caps, and what the caps left out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuitePlan {
    /// The checks to count, in file order.
    pub checks: Vec<Check>,
    /// Depth opcodes skipped by the caps.
    pub skipped: usize,
    /// Depth opcodes read in all.
    pub opcodes: usize,
    /// Lines with no count at the one depth asked for ([`Selection::depth`]).
    pub lines_without_depth: usize,
}

/// Reads a suite of game `G` (EPD lines with `;Dn count` opcodes; the one-field PDN FEN for checkers), each
/// FEN checked by the game's reader; with `skip_bad_lines`, lines that cannot be read are returned apart in
/// [`SuiteLines::bad`] instead of stopping the read.
///
/// # Errors
/// [`EpdError`] for the file or (without `skip_bad_lines`) its first bad line.
pub fn read_suite<G: Rules>(path: &Path, chess960: bool, skip_bad_lines: bool) -> Result<SuiteLines, EpdError> {
    let check = |fen: &str| G::read_fen(fen, chess960).map(drop);
    if skip_bad_lines {
        return crate::notation::epd::read_suite_skipping_bad_lines(path, G::ONE_FIELD_FEN, &check);
    }
    let epds =
        if G::ONE_FIELD_FEN { read_one_field_file_with(path, &check) } else { read_epd_file_with(path, &check) }?;
    Ok(SuiteLines { epds, bad: Vec::new() })
}

/// Which of a suite's counts to check: every `Dn` opcode up to the caps, or only those of one depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Selection {
    /// Skip counts larger than this.
    pub max_nodes: u64,
    /// Skip depths deeper than this, when given.
    pub max_depth: Option<u32>,
    /// Check only this depth (`--depth N`), when given.
    pub depth: Option<u32>,
}

/// The checks of `epds` (read from `path`): every `Dn count` opcode whose count is at most `max_nodes`, whose
/// depth is at most `max_depth` (when given) and is `depth` (when given). Lines without a count at `depth` are
/// counted in [`SuitePlan::lines_without_depth`].
///
/// # Errors
/// [`SuiteError`] for a malformed depth or count opcode, or a suite with no count at all.
pub fn plan_checks(path: &Path, epds: &[Epd], select: Selection) -> Result<SuitePlan, SuiteError> {
    let Selection { max_nodes, max_depth, depth: only } = select;
    let mut plan = SuitePlan { checks: Vec::new(), skipped: 0, opcodes: 0, lines_without_depth: 0 };
    for (i, epd) in epds.iter().enumerate() {
        let mut has_depth = false;
        for (op, value) in &epd.ops {
            let Some(depth_text) = op
                .strip_prefix('D')
                .or_else(|| op.strip_prefix('d').filter(|d| d.starts_with(|c: char| c.is_ascii_digit())))
            else {
                continue;
            };
            let place = format!("{}:{}", path.display(), epd.line);
            let depth = match depth_text.parse::<u32>() {
                Ok(d) if op.starts_with('D') && d <= MAX_PERFT_DEPTH => d,
                _ => return Err(SuiteError::Depth { place, opcode: op.clone() }),
            };
            let Ok(expected) = value.trim().parse::<u64>() else {
                return Err(SuiteError::Count { place, opcode: op.clone(), value: value.clone() });
            };
            plan.opcodes += 1;
            has_depth |= only == Some(depth);
            if expected > max_nodes || max_depth.is_some_and(|d| depth > d) || only.is_some_and(|d| depth != d) {
                plan.skipped += 1;
                continue;
            }
            plan.checks.push(Check { epd: i, depth, expected });
        }
        if only.is_some() && !has_depth {
            plan.lines_without_depth += 1;
        }
    }
    if plan.opcodes == 0 {
        return Err(SuiteError::NoCounts { file: path.display().to_string(), lines: epds.len() });
    }
    Ok(plan)
}

/// The position of a suite line.
///
/// # Panics
/// When the line's FEN does not read: [`read_suite`] checked it.
pub fn suite_position<G: Rules>(epd: &Epd, chess960: bool) -> G::Position {
    G::read_fen(&epd.fen, chess960).expect("EPD FEN validated at parse time")
}

/// One check counted: the leaf count and the seconds it took.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Counted {
    /// The leaf count.
    pub nodes: u64,
    /// Wall time of this check, in seconds.
    pub seconds: f64,
}

/// Counts every check, in parallel (positions on rayon tasks, each position's root moves split too, largest
/// first so that the pool stays busy to the end), with the shared `table` if any; `done` is called with each
/// check's expected count as it finishes (a progress bar). Returns one [`Counted`] per check, in check order.
pub fn run_checks<G: Rules>(
    epds: &[Epd],
    checks: &[Check],
    chess960: bool,
    table: Option<&PerftTable>,
    done: impl Fn(u64) + Sync,
) -> Vec<Counted> {
    let mut order: Vec<usize> = (0..checks.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(checks[i].expected));
    let results: Vec<(usize, Counted)> = order
        .par_iter()
        .map(|&i| {
            let c = &checks[i];
            let pos = suite_position::<G>(&epds[c.epd], chess960);
            let t = Instant::now();
            let nodes = perft_split::<G>(&pos, c.depth, table);
            done(c.expected);
            (i, Counted { nodes, seconds: t.elapsed().as_secs_f64() })
        })
        .collect();
    let mut counted = vec![Counted { nodes: 0, seconds: 0.0 }; checks.len()];
    for (i, c) in results {
        counted[i] = c;
    }
    counted
}

/// A check an engine could not count: its index in the checks, and why.
#[derive(Debug)]
pub struct EngineFailed {
    /// The index of the check in the checks given.
    pub check: usize,
    /// What went wrong.
    pub error: CompareError,
}

/// Counts every check with `engine`: Arbiter's own generator in parallel ([`run_checks`], with `table`), an
/// external engine one check after another, each given Arbiter's own FEN of the line's position
/// ([`Rules::position_fen`]); `done` is called with each check's expected count as it finishes. Returns one
/// [`Counted`] per check, in check order.
///
/// # Errors
/// [`EngineFailed`] for the first check the engine could not count (it crashed, stalled, flooded its output or
/// searched instead); the checks before it are not returned.
pub fn count_checks<G: Game>(
    engine: &mut PerftEngine<G>,
    epds: &[Epd],
    checks: &[Check],
    chess960: bool,
    table: Option<&PerftTable>,
    done: impl Fn(u64) + Sync,
) -> Result<Vec<Counted>, EngineFailed> {
    let oracle = match engine {
        PerftEngine::Arbiter(..) => return Ok(run_checks::<G>(epds, checks, chess960, table, done)),
        PerftEngine::Uci(oracle) => oracle,
    };
    let mut counted = Vec::with_capacity(checks.len());
    for (i, c) in checks.iter().enumerate() {
        let fen = G::position_fen(&suite_position::<G>(&epds[c.epd], chess960));
        let t = Instant::now();
        let nodes = oracle.count(&fen, c.depth).map_err(|error| EngineFailed { check: i, error })?;
        done(c.expected);
        counted.push(Counted { nodes, seconds: t.elapsed().as_secs_f64() });
    }
    Ok(counted)
}

/// The divide of `pos` at `depth` as (move text, leaf count) rows sorted by move text; the position is
/// restored.
pub fn sorted_divide<G: Rules>(pos: &mut G::Position, depth: u32) -> Vec<(String, u64)> {
    let rows = divide::<G>(pos, depth);
    let mut rows: Vec<(String, u64)> = rows.iter().map(|(m, n)| (G::move_text_at(pos, *m), *n)).collect();
    rows.sort();
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    fn epd(line: usize, ops: &[(&str, &str)]) -> Epd {
        let mut epd =
            crate::chess::epd::parse_epd(&format!("{} ;D1 20", crate::chess::ChessGame::START_FEN), line, false)
                .expect("EPD");
        epd.ops = ops.iter().map(|(o, v)| (o.to_string(), v.to_string())).collect();
        epd
    }

    #[test]
    fn plans_count_and_refuse_like_the_suite_reader() {
        let path = Path::new("s.epd");
        let epds = [epd(1, &[("D1", "20"), ("D2", "400"), ("id", "x")]), epd(2, &[("D3", "8902")])];
        let select = |max_nodes, max_depth, depth| Selection { max_nodes, max_depth, depth };
        let plan = plan_checks(path, &epds, select(1000, None, None)).unwrap();
        assert_eq!((plan.checks.len(), plan.skipped, plan.opcodes), (2, 1, 3));
        assert_eq!(plan_checks(path, &epds, select(10_000, Some(2), None)).unwrap().skipped, 1);
        // One depth: the other counts are skipped, and a line without that depth is counted apart.
        let one = plan_checks(path, &epds, select(10_000, None, Some(2))).unwrap();
        assert_eq!(one.checks, [Check { epd: 0, depth: 2, expected: 400 }]);
        assert_eq!((one.skipped, one.lines_without_depth), (2, 1));
        let bad = [epd(3, &[("D99", "1")])];
        assert_eq!(
            plan_checks(path, &bad, select(1, None, None)).unwrap_err().to_string(),
            "s.epd:3: opcode \"D99\" is not a perft depth D0..D32"
        );
        let none = [epd(4, &[("id", "x")])];
        assert!(matches!(plan_checks(path, &none, select(1, None, None)), Err(SuiteError::NoCounts { lines: 1, .. })));
        let counted = run_checks::<crate::chess::ChessGame>(&epds, &plan.checks, false, None, |_| {});
        assert_eq!(counted.iter().map(|c| c.nodes).collect::<Vec<_>>(), [20, 400]);
    }
}
