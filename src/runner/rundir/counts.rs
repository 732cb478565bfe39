//! The counts of a two-engine run read back, for `arbiter sprt --results`.

use crate::runner::rundir::read::{Strictness, read_run};
use crate::runner::rundir::record_error::RecordError;
use crate::runner::tally::score_of;
use crate::stats::{GameScore, Pentanomial, Wdl};
use std::collections::BTreeMap;
use std::path::Path;

/// The counts of a two-engine run, from the first engine's view (the engine with White in the first game of
/// the first pair): what `arbiter sprt --results` reports on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunCounts {
    /// The first engine.
    pub first: String,
    /// The second engine.
    pub second: String,
    /// Single games, from the first engine's view.
    pub wdl: Wdl,
    /// Complete game pairs, from the first engine's view.
    pub penta: Pentanomial,
}

/// Reads the games of the run folder `dir` ([`read_run`], [`Strictness::Strict`]) and counts them for its two engines.
///
/// # Errors
/// Those of [`read_run`], and [`RecordError::NotTwoEngines`] for a run of more or fewer than two engines.
pub fn counts_of_run(dir: &Path) -> Result<RunCounts, RecordError> {
    let records = read_run(dir, Strictness::Strict)?;
    let mut names: Vec<&str> = Vec::new();
    for row in &records.rows {
        for name in [row.white.as_str(), row.black.as_str()] {
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    if names.len() != 2 {
        return Err(RecordError::NotTwoEngines {
            csv: dir.join("games.csv").display().to_string(),
            engines: names.iter().map(|n| n.to_string()).collect(),
        });
    }
    let first = records.rows.iter().min_by_key(|r| r.game).map(|r| r.white.clone()).expect("two names, so rows");
    let second = names.iter().find(|&&n| n != first).expect("two names").to_string();
    let mut wdl = Wdl::default();
    let mut by_pair: BTreeMap<u64, Vec<(u64, GameScore)>> = BTreeMap::new();
    for row in &records.rows {
        let color = if row.white == first { crate::chess::Color::White } else { crate::chess::Color::Black };
        let score = score_of(row.result, color);
        match score {
            GameScore::Win => wdl.wins += 1,
            GameScore::Draw => wdl.draws += 1,
            GameScore::Loss => wdl.losses += 1,
        }
        by_pair.entry(row.pair).or_default().push((row.game, score));
    }
    let mut penta = Pentanomial::default();
    for games in by_pair.values_mut().filter(|g| g.len() == 2) {
        games.sort_by_key(|g| g.0);
        penta.add_pair(games[0].1, games[1].1);
    }
    Ok(RunCounts { first, second, wdl, penta })
}
