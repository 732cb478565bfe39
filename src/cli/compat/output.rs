//! What the cutechess-cli and fastchess command lines print while a match plays: their per-game lines on
//! stdout (`Started game 1 of 200 (A vs B)`, `Finished game 1 (A vs B): 1-0 {White mates}`), cutechess-cli's
//! `Score of` line after each game, and the tool's report every `-ratinginterval` games
//! (`arbiter::runner::report::formats`).

use arbiter::game::GameResult;
use arbiter::runner::report::formats::{finished_game_text, result_description};
use arbiter::runner::run::{GameLine, RunObserver, RunStart};
use arbiter::runner::{EndReason, MatchState};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::io::Write as _;
use std::rc::Rc;

/// The observer of a match run from a cutechess-cli or fastchess command line.
pub struct CompatOutput {
    /// Print the `Score of` line every N games (0: never).
    pub score_interval: u64,
    /// The score line after the last game that ended.
    last_score: Option<String>,
    /// cutechess-cli's outcome counts, shared with the end of the run (which prints them).
    pub outcomes: Rc<RefCell<Outcomes>>,
    /// Print the outcomes every N games (`-outcomeinterval`; 0: only at the end).
    pub outcome_interval: u64,
}

impl CompatOutput {
    /// An observer printing the score line every `score_interval` games.
    pub fn new(score_interval: u64) -> CompatOutput {
        CompatOutput { score_interval, last_score: None, outcomes: Rc::default(), outcome_interval: 0 }
    }
}

/// cutechess-cli's outcome counts per player (`Tournament::addOutcome` and `Tournament::outcomes`,
/// `projects/lib/src/tournament.cpp`): a draw under its description for both players, a win as `Win: ...`
/// and a loss as `Loss: ...`.
#[derive(Clone, Debug, Default)]
pub struct Outcomes {
    /// The players in the tournament's order, each with its counts sorted by text.
    players: Vec<(String, BTreeMap<String, u64>)>,
    /// Games counted.
    pub games: u64,
}

impl Outcomes {
    /// Counts for the players `names`, in their order.
    pub fn of(names: &[String]) -> Outcomes {
        Outcomes { players: names.iter().map(|n| (n.clone(), BTreeMap::new())).collect(), games: 0 }
    }

    fn add_for(&mut self, name: &str, text: String) {
        if !self.players.iter().any(|(n, _)| n == name) {
            self.players.push((name.to_string(), BTreeMap::new()));
        }
        if let Some((_, counts)) = self.players.iter_mut().find(|(n, _)| n == name) {
            *counts.entry(text).or_insert(0) += 1;
        }
    }

    /// Counts one game of `white` against `black`.
    pub fn add(&mut self, white: &str, black: &str, result: GameResult, end: EndReason) {
        let text = result_description(result, end);
        self.games += 1;
        match result {
            GameResult::Draw => {
                self.add_for(white, text.clone());
                self.add_for(black, text);
            }
            GameResult::WhiteWins | GameResult::BlackWins => {
                let (winner, loser) = if result == GameResult::WhiteWins { (white, black) } else { (black, white) };
                self.add_for(winner, format!("Win: {text}"));
                self.add_for(loser, format!("Loss: {text}"));
            }
        }
    }

    /// The table as cutechess-cli prints it: for each player `Player: NAME`, then `   "TEXT": N` per outcome.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for (name, counts) in &self.players {
            out.push_str(&format!("\nPlayer: {name}"));
            for (text, n) in counts {
                out.push_str(&format!("\n   \"{text}\": {n}"));
            }
        }
        out
    }
}

/// Prints `text` on stdout at once (the workers that read these lines read them as they come).
pub fn print_line(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{text}").and_then(|()| out.flush());
}

impl RunObserver for CompatOutput {
    fn note(&mut self, text: &str) {
        crate::cli::stderr_line(format_args!("{text}"));
    }

    fn started(&mut self, _start: &RunStart) {}

    fn game_started(&mut self, game: &GameLine) {
        print_line(&format!("Started game {} of {} ({} vs {})", game.number, game.total, game.white, game.black));
    }

    fn game_ended(&mut self, game: &GameLine) {
        if let Some((result, end)) = game.ended {
            let text = finished_game_text(result, end);
            print_line(&format!("Finished game {} ({} vs {}): {text}", game.number, game.white, game.black));
            self.outcomes.borrow_mut().add(&game.white, &game.black, result, end);
        }
        self.last_score.clone_from(&game.score_line);
    }

    fn game_finished(&mut self, state: &MatchState, report: Option<&str>) {
        if self.score_interval > 0
            && state.tally.games.is_multiple_of(self.score_interval)
            && let Some(line) = &self.last_score
        {
            print_line(line);
        }
        if let Some(report) = report {
            let mut out = std::io::stdout().lock();
            let _ = out.write_all(report.as_bytes()).and_then(|()| out.flush());
        }
        // After the ranking, as cutechess-cli's EngineMatch::onGameFinished prints them.
        let outcomes = self.outcomes.borrow();
        if self.outcome_interval > 0 && outcomes.games > 0 && outcomes.games.is_multiple_of(self.outcome_interval) {
            print_line(&outcomes.text());
        }
    }

    fn message(&mut self, text: &str) {
        // A game's failure is in its Finished line and in match.log; said again here it would be counted twice
        // by the workers that count "disconnect", "stall" and "on time" in every line (fishtest's games.py).
        if !text.starts_with("game ") && !text.starts_with("--recover:") {
            crate::cli::stderr_line(format_args!("{text}"));
        }
    }

    fn finished(&mut self) {}
}
