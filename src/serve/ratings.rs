//! The rating list of every engine the served match runs share: their `games.csv` files rated together by
//! maximum likelihood, as `arbiter elo` does ([`crate::stats::rating_list`], players matched by name, game pairs
//! kept apart by file), with bootstrap intervals. Engines that never met the others through any chain of games
//! cannot be rated against them: each group of engines connected by games gets its own list.

use super::runs::{RunEntry, RunKind};
use crate::runner::rundir::rated::read_rated_games;
use crate::stats::{RatedGame, RatingOptions, rating_list};
use serde_json::{Value, json};
use std::path::PathBuf;

/// Bootstrap resamples of the dashboard's rating list (fewer than `arbiter elo`'s 1000: the page asks again
/// every few seconds; the intervals differ from a 1000-resample list's in their last digit).
pub const BOOTSTRAP: usize = 200;

/// Finds `i`'s group.
fn root(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

/// The rating lists of the match runs among `runs`: `{"lists": [{"players": [...], "games": N}], "runs": N,
/// "skipped": ["why", ...]}`.
pub fn ratings_json(runs: &[RunEntry]) -> Value {
    let mut paths: Vec<PathBuf> = Vec::new();
    let mut skipped: Vec<String> = Vec::new();
    for run in runs.iter().filter(|r| r.kind == RunKind::Match) {
        if !run.path.join("games.csv").is_file() {
            continue;
        }
        // Each file on its own first, so that one unreadable file leaves the others rated.
        match read_rated_games(std::slice::from_ref(&run.path)) {
            Ok(_) => paths.push(run.path.clone()),
            Err(e) => skipped.push(e.to_string()),
        }
    }
    let set = match read_rated_games(&paths) {
        Ok(set) => set,
        Err(e) => return json!({ "lists": [], "runs": 0, "skipped": [e.to_string()] }),
    };
    let n = set.names.len();
    let mut parent: Vec<usize> = (0..n).collect();
    for game in &set.games {
        let (a, b) = (root(&mut parent, game.white), root(&mut parent, game.black));
        parent[a] = b;
    }
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut group_of = vec![usize::MAX; n];
    for player in 0..n {
        let r = root(&mut parent, player);
        if group_of[r] == usize::MAX {
            group_of[r] = groups.len();
            groups.push(Vec::new());
        }
        groups[group_of[r]].push(player);
    }
    let mut lists: Vec<Value> = Vec::new();
    for players in groups.iter().filter(|g| g.len() >= 2) {
        let local = |p: usize| players.iter().position(|&q| q == p).expect("in its group");
        let games: Vec<RatedGame> = set
            .games
            .iter()
            .filter(|g| players.contains(&g.white))
            .map(|g| RatedGame { white: local(g.white), black: local(g.black), ..*g })
            .collect();
        let options = RatingOptions { bootstrap: BOOTSTRAP, ..RatingOptions::default() };
        match rating_list(&games, players.len(), &options) {
            Ok(list) => {
                let rows: Vec<Value> = list
                    .ranking
                    .iter()
                    .map(|r| {
                        json!({ "name": set.names[players[r.player]], "elo": r.elo, "lower": r.lower,
                                "upper": r.upper, "games": r.games, "score": r.score(),
                                "draws": r.draw_ratio(), "los_next": r.los_next })
                    })
                    .collect();
                lists.push(json!({ "players": rows, "games": games.len(), "prior": list.prior }));
            }
            Err(e) => skipped.push(e.to_string()),
        }
    }
    json!({ "lists": lists, "runs": paths.len(), "skipped": skipped, "bootstrap": BOOTSTRAP })
}
