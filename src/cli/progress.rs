//! The progress bars of the commands that play: a match's (also the SPSA validation's), an SPSA run's. Each
//! prints the library's notes and messages with its bar hidden.

use arbiter::runner::MatchState;
use arbiter::runner::run::{RunObserver, RunStart};
use arbiter::spsa::output::IterationRow;
use arbiter::spsa::run::{SpsaObserver, SpsaPlan};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::Write as _;
use std::time::Instant;

/// The progress bar on stderr: games done / total, W/D/L, Elo with its interval and the LLR of the first
/// pairing; and the reports on stdout when the runner hands them over, printed with the bar hidden.
#[derive(Default)]
pub struct MatchProgress {
    bar: Option<ProgressBar>,
    two_engines: bool,
    /// Print the periodic reports on stderr (stdout holds one JSON object under `--format json`).
    pub reports_to_stderr: bool,
}

impl MatchProgress {
    /// Runs `f` with the bar hidden.
    fn suspended(&self, f: impl FnOnce()) {
        match &self.bar {
            Some(bar) => bar.suspend(f),
            None => f(),
        }
    }
}

impl RunObserver for MatchProgress {
    fn note(&mut self, text: &str) {
        self.suspended(|| super::stderr_line(format_args!("{text}")));
    }

    fn started(&mut self, start: &RunStart) {
        let template = if start.until_decided {
            "{elapsed_precise} {pos} games (SPRT, at most {len}) {msg}"
        } else {
            "{elapsed_precise} [{bar:30}] {pos}/{len} games {msg}"
        };
        let style = ProgressStyle::with_template(template).expect("the template is valid").progress_chars("=> ");
        let bar = ProgressBar::new(start.games_total).with_style(style);
        bar.set_position(start.games_done);
        self.bar = Some(bar);
        self.two_engines = start.two_engines;
    }

    fn game_finished(&mut self, state: &MatchState, report: Option<&str>) {
        let Some(bar) = &self.bar else { return };
        bar.set_position(state.tally.games);
        if let Some(report) = report {
            bar.suspend(|| {
                if self.reports_to_stderr {
                    let _ = std::io::stderr().lock().write_all(report.as_bytes());
                } else {
                    let mut stdout = std::io::stdout().lock();
                    let _ = stdout.write_all(report.as_bytes()).and_then(|()| stdout.flush());
                }
            });
        }
        if !self.two_engines {
            return;
        }
        let tally = &state.tally.pairings[0];
        let mut msg = format!("| W/D/L {}/{}/{}", tally.wdl.wins, tally.wdl.draws, tally.wdl.losses);
        if let Some(elo) = tally.elo() {
            msg.push_str(&format!(" | Elo {:+.1} +/- {:.1}", elo.elo, elo.elo95));
        }
        if let Some(sprt) = state.sprt {
            let llr = arbiter::stats::Figure::of(sprt.llr, "a hypothesis gives the results seen probability 0");
            msg.push_str(&format!(" | LLR {} [{:.2}, {:.2}]", llr.fixed(2), sprt.lower, sprt.upper));
        }
        bar.set_message(msg);
    }

    fn message(&mut self, text: &str) {
        self.note(text);
    }

    fn finished(&mut self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// The progress bar of the run: iterations done, pairs per second, the last update.
#[derive(Default)]
pub struct SpsaProgress {
    bar: Option<ProgressBar>,
    started: Option<Instant>,
    games: u64,
    per_iteration: u64,
}

impl SpsaProgress {
    /// Clears the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }

    fn print(&self, text: &str) {
        match &self.bar {
            Some(bar) => bar.suspend(|| super::stderr_line(format_args!("{text}"))),
            None => super::stderr_line(format_args!("{text}")),
        }
    }

    fn rate(&self) -> f64 {
        let elapsed = self.started.map_or(0.0, |s| s.elapsed().as_secs_f64());
        if elapsed > 0.0 { self.games as f64 / 2.0 / elapsed } else { 0.0 }
    }
}

impl SpsaObserver for SpsaProgress {
    fn note(&mut self, text: &str) {
        self.print(text);
    }

    fn started(&mut self, plan: &SpsaPlan, done: u64, _games_recorded: u64) {
        self.print(&format!(
            "arbiter spsa: {} parameters of {} from {}, {} iterations of {} pairs{}, concurrency {}",
            plan.params.len(),
            plan.plan.engines[plan.sides().0].name.trim_end_matches('+'),
            plan.params_file,
            plan.schedule.iterations,
            plan.pairs_per_iteration,
            if plan.has_opponent() {
                format!(" per side against {}", plan.plan.engines[0].name)
            } else {
                String::new()
            },
            plan.plan.concurrency.map_or_else(|| "one per core".to_string(), |n| n.to_string())
        ));
        let style = ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} iterations {msg}")
            .expect("the template is valid")
            .progress_chars("=> ");
        let bar = ProgressBar::new(plan.schedule.iterations).with_style(style);
        bar.set_position(done);
        self.bar = Some(bar);
        self.started = Some(Instant::now());
        self.per_iteration = plan.games_per_iteration();
    }

    fn game_finished(&mut self, _iteration: u64) {
        self.games += 1;
    }

    fn iteration_finished(&mut self, plan: &SpsaPlan, row: &IterationRow) {
        let Some(bar) = &self.bar else { return };
        bar.set_position(row.iteration);
        let shown: Vec<String> =
            plan.params.iter().zip(&row.theta).take(4).map(|(p, v)| format!("{} {v:.1}", p.name)).collect();
        let more = if plan.params.len() > 4 { " ..." } else { "" };
        bar.set_message(format!(
            "{:.2} pairs/s, last result {:+}: {}{more}",
            self.rate(),
            row.result,
            shown.join(", ")
        ));
    }

    fn message(&mut self, text: &str) {
        self.print(text);
    }
}
