//! What the cutechess-cli and fastchess command lines print while a match plays: their per-game lines on
//! stdout (`Started game 1 of 200 (A vs B)`, `Finished game 1 (A vs B): 1-0 {White mates}`), cutechess-cli's
//! `Score of` line after each game, and the tool's report every `-ratinginterval` games
//! (`arbiter::runner::report::formats`).

use arbiter::runner::MatchState;
use arbiter::runner::report::formats::finished_game_text;
use arbiter::runner::run::{GameLine, RunObserver, RunStart};
use std::io::Write as _;

/// The observer of a match run from a cutechess-cli or fastchess command line.
pub struct CompatOutput {
    /// Print the `Score of` line every N games (0: never).
    pub score_interval: u64,
    /// The score line after the last game that ended.
    last_score: Option<String>,
}

impl CompatOutput {
    /// An observer printing the score line every `score_interval` games.
    pub fn new(score_interval: u64) -> CompatOutput {
        CompatOutput { score_interval, last_score: None }
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
