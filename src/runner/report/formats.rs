//! The reports of a match in one tool's format, for the command lines of cutechess-cli and fastchess (`arbiter
//! cutechess`, `arbiter fastchess`) and `arbiter match --report-format`: the line after each finished game, the
//! per-game score line, and the periodic report (cutechess-cli's score block or rank table, fastchess's block).
//!
//! cutechess-cli: `projects/cli/src/enginematch.cpp` (`Started game`, `Finished game`, `Score of`, the ranking
//! every `-ratinginterval` games and at the end), `projects/lib/src/tournament.cpp` (`results()`: the sides
//! block and the Elo line for two players, the `Rank Name Elo +/- Games Score Draw` table for more),
//! `projects/lib/src/board/result.cpp` and `westernboard.cpp` (the result texts). fastchess:
//! `app/src/matchmaking/output/output_fastchess.hpp` and `output_cutechess.hpp`, `match/match.hpp` (its result
//! texts).

use super::lines::{cutechess_report, fastchess_block, names, score_text};
use crate::game::{Game, GameResult, RuleEnd};
use crate::runner::game::EndReason;
use crate::runner::scheduler::{MatchSpec, MatchState};
use crate::stats::{Wdl, elo_estimate};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// Which tool's lines a match prints as its periodic report.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ReportFormat {
    /// Both blocks for every pairing (`arbiter match`'s default: [`super::lines::match_report`]).
    #[default]
    Both,
    /// cutechess-cli's: the score block of the two engines, or the rank table of more.
    Cutechess,
    /// fastchess's block for every pairing, its `Games:` counting complete pairs (as fastchess does).
    Fastchess,
}

impl ReportFormat {
    /// The names on the command line.
    pub const NAMES: [&'static str; 3] = ["both", "cutechess", "fastchess"];

    /// The format named `text`.
    pub fn parse(text: &str) -> Option<ReportFormat> {
        match text {
            "both" => Some(ReportFormat::Both),
            "cutechess" => Some(ReportFormat::Cutechess),
            "fastchess" => Some(ReportFormat::Fastchess),
            _ => None,
        }
    }

    /// Whether this is the default ([`ReportFormat::Both`]).
    pub fn is_both(&self) -> bool {
        *self == ReportFormat::Both
    }
}

/// The periodic report of the match in `format`.
pub fn report_in<G: Game>(format: ReportFormat, spec: &MatchSpec<G>, state: &MatchState) -> String {
    let pairings = 0..state.tally.pairings.len();
    match format {
        ReportFormat::Both => super::lines::match_report(spec, state),
        ReportFormat::Cutechess if spec.engines.len() == 2 => cutechess_report(spec, state, 0),
        ReportFormat::Cutechess => cutechess_ranking(spec, state),
        ReportFormat::Fastchess => pairings.map(|i| fastchess_block(spec, state, i, true)).collect(),
    }
}

/// cutechess-cli's score line of a two-engine match, from the first engine's view: `Score of A vs B: W - L - D
/// [0.500] N`; `None` for more engines (cutechess prints it only for two).
pub fn score_line<G: Game>(spec: &MatchSpec<G>, state: &MatchState) -> Option<String> {
    let tally = state.tally.pairings.first().filter(|_| spec.engines.len() == 2)?;
    let (first, second) = names(spec, tally);
    Some(format!("Score of {first} vs {second}: {}", score_text(tally.wdl)))
}

/// cutechess-cli's rank table of a match of more than two engines (its `default` result format: rank, name,
/// Elo, error margin, games, score and draw percentage), each engine's results over all its games; sorted by
/// score, a gauntlet's seeds first (rank 0), as cutechess does (`Tournament::results`).
pub fn cutechess_ranking<G: Game>(spec: &MatchSpec<G>, state: &MatchState) -> String {
    let mut totals = vec![Wdl::default(); spec.engines.len()];
    for tally in &state.tally.pairings {
        let w = tally.wdl;
        add(&mut totals[tally.first], w);
        add(&mut totals[tally.second], Wdl::new(w.losses, w.draws, w.wins));
    }
    let gauntlet = spec.tournament == crate::runner::Tournament::Gauntlet;
    let mut order: Vec<usize> = (0..totals.len()).collect();
    let key = |i: usize| {
        let w = totals[i];
        if gauntlet && i < spec.seeds.max(1) {
            -1.0
        } else if w.games() == 0 {
            2.0
        } else {
            1.0 - (w.wins as f64 + 0.5 * w.draws as f64) / w.games() as f64
        }
    };
    order.sort_by(|&a, &b| key(a).total_cmp(&key(b)));
    let mut out =
        format!("{:>4} {:<25} {:>7} {:>7} {:>7} {:>7} {:>7}\n", "Rank", "Name", "Elo", "+/-", "Games", "Score", "Draw");
    for (rank, &i) in order.iter().enumerate() {
        let w = totals[i];
        let (elo, margin) = match elo_estimate(&w) {
            Ok(e) => (format!("{:.0}", e.elo + 0.0), format!("{:.0}", e.elo95)),
            Err(_) => ("-".to_string(), "-".to_string()),
        };
        let games = w.games().max(1) as f64;
        let score = 100.0 * (w.wins as f64 + 0.5 * w.draws as f64) / games;
        let draws = 100.0 * w.draws as f64 / games;
        let rank = if gauntlet { rank } else { rank + 1 };
        let _ = writeln!(
            out,
            "{rank:>4} {:<25} {elo:>7} {margin:>7} {:>7} {score:>6.1}% {draws:>6.1}%",
            spec.engines[i].name,
            w.games()
        );
    }
    out
}

fn add(total: &mut Wdl, w: Wdl) {
    *total = Wdl::new(total.wins + w.wins, total.draws + w.draws, total.losses + w.losses);
}

/// The result of a game as cutechess-cli's and fastchess's `Finished game` lines write it: `1-0 {White mates}`,
/// `1/2-1/2 {Draw by 3-fold repetition}`, `0-1 {White loses on time}` (cutechess `Result::toVerboseString`,
/// `WesternBoard::result`; fastchess `match.hpp`'s messages). The words that the OpenBench and fishtest workers
/// count are kept: `disconnects`, `connection stalls`, `loses on time`, `illegal move`.
pub fn finished_game_text(result: GameResult, end: EndReason) -> String {
    format!("{} {{{}}}", result.pgn(), result_description(result, end))
}

/// The words of a result in cutechess-cli's form (`White mates`, `Draw by 3-fold repetition`: its
/// `Result::description`), as [`finished_game_text`] writes them between braces.
pub fn result_description(result: GameResult, end: EndReason) -> String {
    let (winner, loser) = match result {
        GameResult::WhiteWins => ("White", "Black"),
        GameResult::BlackWins => ("Black", "White"),
        GameResult::Draw => ("", ""),
    };
    let drawn = result == GameResult::Draw;
    match end {
        EndReason::Rules(RuleEnd::Checkmate) => format!("{winner} mates"),
        EndReason::Rules(RuleEnd::Stalemate) if drawn => "Draw by stalemate".to_string(),
        EndReason::Rules(RuleEnd::Stalemate) => format!("{winner} wins by stalemate"),
        EndReason::Rules(RuleEnd::ThreefoldRepetition) => "Draw by 3-fold repetition".to_string(),
        EndReason::Rules(RuleEnd::FiftyMoveRule) => "Draw by fifty moves rule".to_string(),
        EndReason::Rules(RuleEnd::InsufficientMaterial) => "Draw by insufficient mating material".to_string(),
        EndReason::Rules(RuleEnd::PerpetualCheck) => format!("{winner} wins by perpetual check"),
        EndReason::Rules(RuleEnd::SixtyMoveRule) => "Draw by sixty moves rule".to_string(),
        EndReason::DrawAdjudication => "Draw by adjudication".to_string(),
        EndReason::MaxMoves => "Draw by adjudication: maximal game length".to_string(),
        EndReason::ResignAdjudication => format!("{winner} wins by adjudication"),
        EndReason::TablebaseAdjudication if drawn => "Draw by adjudication: SyzygyTB".to_string(),
        EndReason::TablebaseAdjudication => format!("{winner} wins by adjudication: SyzygyTB"),
        EndReason::TimeForfeit if drawn => "Draw by timeout".to_string(),
        EndReason::TimeForfeit => format!("{loser} loses on time"),
        EndReason::IllegalMove => format!("{loser} makes an illegal move"),
        EndReason::Disconnect | EndReason::PlayerFailure => format!("{loser} disconnects"),
        EndReason::Stall => format!("{loser}'s connection stalls"),
        EndReason::OutputFlood => format!("{loser} disconnects: output flood"),
    }
}
