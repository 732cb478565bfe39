//! Perft suites: EPD lines with `;D1 n ;D2 n ...` opcodes, read for any [`Game`], turned into checks and
//! counted in parallel with [`crate::game::perft`]'s driver. `arbiter perft --suite` prints what this returns.

use crate::game::Game;
use crate::game::perft::{PerftTable, divide, perft_split};
use crate::notation::epd::{Epd, EpdError, SuiteLines, read_epd_file_with, read_one_field_file_with};
use rayon::prelude::*;
use std::path::Path;
use std::time::Instant;
use thiserror::Error;

/// The deepest perft Arbiter accepts, in plies (counts beyond about 15 plies are out of reach anyway; the cap
/// keeps a typo from exhausting the stack).
pub const MAX_PERFT_DEPTH: u32 = 32;

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
}

/// Reads a suite of game `G` (EPD lines with `;Dn count` opcodes; the one-field PDN FEN for checkers), each
/// FEN checked by the game's reader; with `skip_bad_lines`, lines that cannot be read are returned apart in
/// [`SuiteLines::bad`] instead of stopping the read.
///
/// # Errors
/// [`EpdError`] for the file or (without `skip_bad_lines`) its first bad line.
pub fn read_suite<G: Game>(path: &Path, chess960: bool, skip_bad_lines: bool) -> Result<SuiteLines, EpdError> {
    let check = |fen: &str| G::read_fen(fen, chess960).map(drop).map_err(|e| e.to_string());
    if skip_bad_lines {
        return crate::notation::epd::read_suite_skipping_bad_lines(path, G::ONE_FIELD_FEN, &check);
    }
    let epds =
        if G::ONE_FIELD_FEN { read_one_field_file_with(path, &check) } else { read_epd_file_with(path, &check) }?;
    Ok(SuiteLines { epds, bad: Vec::new() })
}

/// The checks of `epds` (read from `path`): every `Dn count` opcode whose count is at most `max_nodes` and
/// whose depth is at most `max_depth` (when given).
///
/// # Errors
/// [`SuiteError`] for a malformed depth or count opcode, or a suite with no count at all.
pub fn plan_checks(path: &Path, epds: &[Epd], max_nodes: u64, max_depth: Option<u32>) -> Result<SuitePlan, SuiteError> {
    let mut plan = SuitePlan { checks: Vec::new(), skipped: 0, opcodes: 0 };
    for (i, epd) in epds.iter().enumerate() {
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
            if expected > max_nodes || max_depth.is_some_and(|d| depth > d) {
                plan.skipped += 1;
                continue;
            }
            plan.checks.push(Check { epd: i, depth, expected });
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
pub fn suite_position<G: Game>(epd: &Epd, chess960: bool) -> G::Position {
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
pub fn run_checks<G: Game>(
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

/// The divide of `pos` at `depth` as (move text, leaf count) rows sorted by move text; the position is
/// restored.
pub fn sorted_divide<G: Game>(pos: &mut G::Position, depth: u32) -> Vec<(String, u64)> {
    let rows = divide::<G>(pos, depth);
    let mut rows: Vec<(String, u64)> = rows.iter().map(|(m, n)| (G::move_text_at(pos, *m), *n)).collect();
    rows.sort();
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    fn epd(line: usize, ops: &[(&str, &str)]) -> Epd {
        let mut epd = Epd::parse(&format!("{} ;D1 20", crate::chess::Game::START_FEN), line, false).expect("EPD");
        epd.ops = ops.iter().map(|(o, v)| (o.to_string(), v.to_string())).collect();
        epd
    }

    #[test]
    fn plans_count_and_refuse_like_the_suite_reader() {
        let path = Path::new("s.epd");
        let epds = [epd(1, &[("D1", "20"), ("D2", "400"), ("id", "x")]), epd(2, &[("D3", "8902")])];
        let plan = plan_checks(path, &epds, 1000, None).unwrap();
        assert_eq!((plan.checks.len(), plan.skipped, plan.opcodes), (2, 1, 3));
        assert_eq!(plan_checks(path, &epds, 10_000, Some(2)).unwrap().skipped, 1);
        let bad = [epd(3, &[("D99", "1")])];
        assert_eq!(
            plan_checks(path, &bad, 1, None).unwrap_err().to_string(),
            "s.epd:3: opcode \"D99\" is not a perft depth D0..D32"
        );
        let none = [epd(4, &[("id", "x")])];
        assert!(matches!(plan_checks(path, &none, 1, None), Err(SuiteError::NoCounts { lines: 1, .. })));
        let counted = run_checks::<crate::chess::Game>(&epds, &plan.checks, false, None, |_| {});
        assert_eq!(counted.iter().map(|c| c.nodes).collect::<Vec<_>>(), [20, 400]);
    }
}
