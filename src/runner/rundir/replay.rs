//! Checking a run's games against the match: each game replayed by its game's rules against its `games.csv`
//! row ([`check_game`], what `arbiter merge` and the resume's salvage check), and the rows counted against
//! the schedule ([`replay`]).

use crate::game::Game;
use crate::notation::quote::shown;
use crate::runner::rundir::csv::{GameRow, round_tag};
use crate::runner::rundir::output::CSV_HEADER;
use crate::runner::rundir::read::{GameCheck, GameCheckError, RunRecords};
use crate::runner::rundir::record_error::RecordError;
use crate::runner::scheduler::{MatchSpec, MatchState};
use std::collections::HashSet;

/// Replays every game of `records` by the rules of `G` ([`Game::replay_pgn`]) and checks it against its
/// `games.csv` row: one game, every move legal from its `FEN` tag, the result token, the `Result` tag and the
/// row's result the same, and the plies replayed equal to `PlyCount` and to the row's `plies`. `pgn_path` names
/// `games.pgn` in errors. `arbiter merge` runs it on every shard, so that a merged `games.pgn` holds only games
/// that replay.
///
/// # Errors
/// [`RecordError::BadGame`] for the first game that fails, naming the file, the line where the game begins and
/// what is wrong.
pub fn check_games<G: Game>(records: &RunRecords, pgn_path: &str) -> Result<(), RecordError> {
    for row in &records.rows {
        let line = records.pgn_lines.get(&row.game).copied().unwrap_or(1);
        let text = records.pgn.get(&row.game).map(String::as_str);
        check_game::<G>(row, text, pgn_path, line)?;
    }
    Ok(())
}

/// Checks one game: its PGN `text` (beginning at `line` of `pgn_path`; `None` when missing) replays by the
/// rules of `G` to the row's result and ply count, and starts from the row's `start_fen` (the `FEN` tag, or the
/// game's standard start without one; the position fields are compared, not the move clocks). See
/// [`check_games`].
///
/// # Errors
/// [`RecordError::BadGame`] naming the file, the line where the game begins and what is wrong.
pub fn check_game<G: Game>(row: &GameRow, text: Option<&str>, pgn_path: &str, line: usize) -> Result<(), RecordError> {
    let field = |name: &str| {
        let k = CSV_HEADER.iter().position(|h| *h == name).expect("games.csv has the column");
        row.fields.get(k).map(String::as_str)
    };
    let bad = |reason: String| RecordError::BadGame {
        pgn: pgn_path.to_string(),
        line,
        number: row.game + 1,
        round: round_tag(row.game),
        reason,
    };
    let text = text.ok_or_else(|| bad("missing".to_string()))?;
    let games = G::replay_pgn(text, pgn_path, line).map_err(|e| bad(format!("does not replay: {e}")))?;
    let [game] = games.as_slice() else {
        return Err(bad(format!("{} games where one was written", games.len())));
    };
    let tag = |name: &str| game.tags.iter().find(|t| t.0 == name).map(|t| t.1.as_str());
    if game.result != Some(row.result) || tag("Result") != Some(row.result.pgn()) {
        let token = game.result.map_or("*", |r| r.pgn());
        let tag = tag("Result").unwrap_or("none");
        return Err(bad(format!("result {token} (Result tag {tag}), games.csv says {}", row.result.pgn())));
    }
    let plies = game.plies.to_string();
    let csv_plies = field("plies");
    if tag("PlyCount").is_some_and(|n| n != plies) || csv_plies != Some(plies.as_str()) {
        return Err(bad(format!(
            "{plies} plies replayed, PlyCount {}, games.csv plies {}",
            tag("PlyCount").unwrap_or("none"),
            csv_plies.unwrap_or("none")
        )));
    }
    // The position fields only: a game with the standard pieces but other move clocks may be written without a
    // FEN tag, and the clocks do not decide which moves are legal.
    let start = tag("FEN").unwrap_or(G::START_FEN);
    let position = |fen: &str| fen.split_whitespace().take(4).collect::<Vec<_>>().join(" ");
    if field("start_fen").map(position) != Some(position(start)) {
        return Err(bad(format!(
            "starts from {}, games.csv start_fen {}",
            shown(start),
            field("start_fen").map_or("none".to_string(), shown)
        )));
    }
    Ok(())
}

/// The check of [`Strictness::Salvage`](crate::runner::rundir::read::Strictness::Salvage) for
/// `arbiter match --resume`: the game replays to its row ([`check_game`]) and starts from the start of the
/// row's opening in the schedule.
impl<G: Game> GameCheck for MatchSpec<G> {
    fn check(&self, row: &GameRow, text: &str, pgn_path: &str, line: usize) -> Result<(), GameCheckError> {
        check_game::<G>(row, Some(text), pgn_path, line)?;
        let opening = self.openings.get(row.opening).map(|o| G::position_fen(&o.start));
        let start = row.fields.get(CSV_HEADER.len() - 1);
        let position = |fen: &str| fen.split_whitespace().take(4).collect::<Vec<_>>().join(" ");
        if let Some(opening) = opening.filter(|fen| Some(position(fen)) != start.map(|s| position(s))) {
            return Err(GameCheckError::Opening { start: start.cloned(), opening: row.opening, expected: opening });
        }
        Ok(())
    }
}

/// Counts `rows`, in the order given, into a fresh [`MatchState`] of `spec` (the SPRT evaluated after each
/// complete pair, as when the games were played: see [`MatchState::count`]), and returns it with the set of
/// game numbers counted. `path` names the CSV in errors.
///
/// # Errors
/// [`RecordError::NotInSchedule`] for a row whose game is not in the schedule (beyond its end, or in another
/// shard) or does not match it (another opening or other players than the schedule gives that game), and
/// [`RecordError::BadRow`] for a game counted twice.
pub fn replay<G: Game>(
    spec: &MatchSpec<G>,
    rows: &[GameRow],
    path: &str,
) -> Result<(MatchState, HashSet<u64>), RecordError> {
    let schedule = spec.schedule();
    let mut state = MatchState::new(schedule.clone());
    let mut done = HashSet::new();
    for row in rows {
        let wrong = |reason: String| RecordError::NotInSchedule {
            path: path.to_string(),
            line: row.line,
            number: row.game + 1,
            reason,
        };
        if row.pair >= schedule.total_pairs {
            return Err(wrong(format!("beyond the schedule's {} games", 2 * schedule.total_pairs)));
        }
        if let Some(shard) = schedule.shard
            && !shard.owns(row.pair)
        {
            return Err(wrong(format!("pair {} is not in shard {shard}", row.pair + 1)));
        }
        let pair = schedule.pair(row.pair);
        let game = (row.game % 2) as u8;
        let (white, black) = pair.colours(game);
        let expected = (pair.opening, spec.engines[white].name.as_str(), spec.engines[black].name.as_str());
        if (row.opening, row.white.as_str(), row.black.as_str()) != expected {
            return Err(wrong(format!(
                "the schedule plays opening {} with {} (White) against {} (Black), the row has opening {} with {} \
                 against {}",
                expected.0, expected.1, expected.2, row.opening, row.white, row.black
            )));
        }
        if !done.insert(row.game) {
            return Err(RecordError::BadRow {
                path: path.to_string(),
                line: row.line,
                reason: format!("game {} is listed twice", row.game + 1),
            });
        }
        state.count(spec, &pair, game, row.result, row.end);
    }
    Ok((state, done))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::MatchLength;
    use crate::runner::Shard;
    use crate::runner::game::EndReason;
    use crate::runner::rundir::read::tests::{scratch, spec, write_games};
    use crate::runner::rundir::read::{Strictness, read_run};

    #[test]
    fn check_game_compares_the_start_fen() {
        let dir = scratch("start-fen");
        write_games(&dir, &[0]);
        let records = read_run(&dir, Strictness::Strict).unwrap();
        let mut row = records.rows[0].clone();
        let text = records.pgn.get(&0).map(String::as_str);
        check_game::<crate::chess::ChessGame>(&row, text, "games.pgn", 1).unwrap();
        // Other move clocks are the same start; another position is not.
        row.fields[8] = row.fields[8].replace(" 0 1", " 3 7");
        check_game::<crate::chess::ChessGame>(&row, text, "games.pgn", 1).unwrap();
        row.fields[8] = row.fields[8].replace(" w ", " b ");
        let err = check_game::<crate::chess::ChessGame>(&row, text, "games.pgn", 1).unwrap_err().to_string();
        assert!(err.starts_with("games.pgn:1: game 1 (Round \"1.1\"): starts from \"rnbqkbnr/"), "{err}");
        assert!(
            err.contains("games.csv start_fen \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 3 7\""),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn replay_counts_and_checks_the_schedule() {
        let dir = scratch("replay");
        write_games(&dir, &[0, 1, 3]);
        let records = read_run(&dir, Strictness::Strict).unwrap();
        let (state, done) = replay(&spec(), &records.rows, "games.csv").unwrap();
        assert_eq!(done, HashSet::from([0, 1, 3]));
        assert_eq!(state.tally.games, 3);
        // Game 0: seed has White and White wins; game 1: a draw; game 3: nomob has White and White wins.
        let tally = &state.tally.pairings[0];
        assert_eq!((tally.wdl.wins, tally.wdl.draws, tally.wdl.losses), (1, 1, 1));
        assert_eq!(tally.penta.pairs(), 1);
        assert_eq!(state.tally.count(EndReason::MaxMoves), 1);

        let mut sharded = spec();
        sharded.shard = Some(Shard::new(2, 2).unwrap());
        let err = replay(&sharded, &records.rows, "games.csv").unwrap_err().to_string();
        assert_eq!(err, "games.csv:2: game 1: pair 1 is not in shard 2/2");
        let mut short = spec();
        short.length = MatchLength::Games(2);
        let err = replay(&short, &records.rows, "games.csv").unwrap_err().to_string();
        assert_eq!(err, "games.csv:4: game 4: beyond the schedule's 2 games");
        let mut swapped = spec();
        swapped.engines.swap(0, 1);
        let err = replay(&swapped, &records.rows, "games.csv").unwrap_err().to_string();
        assert!(err.starts_with("games.csv:2: game 1: the schedule plays opening 0 with nomob (White)"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
