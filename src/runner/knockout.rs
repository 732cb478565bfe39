//! cutechess-cli's knockout (single-elimination) tournament, `--tournament knockout`, played round by round as
//! cutechess-cli plays it (`KnockoutTournament`, `projects/lib/src/knockouttournament.cpp`):
//!
//! - the bracket: the first `--seeds N` engines in their order, then the others shuffled (by `--seed`; cutechess
//!   draws them at random), placed by `playerSeed` (seed 1 and seed 2 can only meet in the final) and padded to
//!   a power of two with byes, each bye beside a top seed (`initializePairing`);
//! - each round's encounters are played as one match of `--rounds N` game pairs per encounter (an encounter
//!   with a bye is won without a game); an encounter level after them goes on one game pair at a time until one
//!   engine leads, as cutechess-cli does for an even number of games (`needMoreGames`); the winners meet in
//!   bracket order in the next round;
//! - at the end, the bracket in cutechess-cli's layout (`KnockoutTournament::results`).
//!
//! Every round (and every tie-break of a round) is an ordinary run folder inside the knockout's folder
//! (`round-1`, `round-1-tiebreak-1`, ...: `arbiter status` reads it, `--resume` continues it), each with the
//! openings where the previous one stopped; the knockout's folder holds `knockout.toml` (its plan) and
//! `knockout.txt` (the bracket).

use super::plan::{MatchPlan, PlanError, PlanField};
use super::run::{MatchRun, RunEnd, RunError, RunObserver, run};
use super::rundir::output::{OutputError, replace_file};
use super::scheduler::{MatchLength, Tournament};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

/// The most tie-break pairs one round plays before the knockout stops undecided.
pub const MAX_TIEBREAKS: u32 = 20;

/// `knockout.toml`: the knockout's plan, in the knockout's folder.
pub const KNOCKOUT_TOML: &str = "knockout.toml";

/// One encounter of a round: two engines (indices into the plan's engines), or one and a bye.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Encounter {
    /// The first engine.
    pub first: usize,
    /// The second engine; `None` for a bye.
    pub second: Option<usize>,
    /// Half-points of the first engine (a win counts 2).
    pub first_score: u64,
    /// Half-points of the second engine.
    pub second_score: u64,
    /// Games played.
    pub games: u64,
}

impl Encounter {
    fn new(first: usize, second: Option<usize>) -> Encounter {
        Encounter { first, second, first_score: 0, second_score: 0, games: 0 }
    }

    /// The winner once decided: the bye's opponent, else the engine with more points; `None` while level.
    pub fn winner(&self) -> Option<usize> {
        match self.second {
            None => Some(self.first),
            Some(second) if self.second_score > self.first_score => Some(second),
            Some(_) if self.first_score > self.second_score => Some(self.first),
            Some(_) => None,
        }
    }
}

/// How a knockout ended.
#[derive(Debug)]
pub struct KnockoutRun {
    /// The knockout's folder.
    pub dir: PathBuf,
    /// The rounds' encounters so far, first round first.
    pub rounds: Vec<Vec<Encounter>>,
    /// Every match played (a round or a tie-break), in order; the last one says how the knockout stopped
    /// when it did not finish (`failure`, `halted`, `interrupted`).
    pub matches: Vec<MatchRun>,
    /// The bracket in cutechess-cli's layout, as `knockout.txt` holds it.
    pub bracket: String,
    /// The winner, once the final is decided.
    pub winner: Option<usize>,
    /// Why the knockout stopped undecided: a round still level after [`MAX_TIEBREAKS`] tie-break pairs.
    pub undecided: Option<String>,
}

/// cutechess-cli's `playerSeed`: the bracket slot (0-based) of the player of 1-based `rank` in a bracket of
/// `size` slots.
///
/// # Examples
/// ```
/// use arbiter::runner::knockout::player_seed;
/// let slots: Vec<usize> = (1..=8).map(|rank| player_seed(rank, 8)).collect();
/// assert_eq!(slots, [0, 4, 2, 6, 1, 5, 3, 7]);
/// ```
pub fn player_seed(rank: usize, size: usize) -> usize {
    if rank <= 1 {
        0
    } else if rank.is_multiple_of(2) {
        size / 2 + player_seed(rank / 2, size / 2)
    } else {
        player_seed(rank / 2 + 1, size / 2)
    }
}

/// The first round of a knockout of `engines` entrants whose first `seeds` are seeded and whose others are
/// shuffled by `seed`: cutechess-cli's `firstRoundPlayers` and `initializePairing`.
///
/// # Examples
/// ```
/// use arbiter::runner::knockout::first_round;
/// // Five engines, two seeded: a bracket of 8, the byes beside the top three players.
/// let round = first_round(5, 2, 1);
/// assert_eq!(round.len(), 4);
/// assert_eq!((round[0].first, round[0].second), (0, None));
/// assert_eq!(round.iter().filter(|e| e.second.is_none()).count(), 3);
/// ```
pub fn first_round(engines: usize, seeds: usize, seed: u64) -> Vec<Encounter> {
    let seeds = seeds.min(engines);
    let mut players: Vec<Option<usize>> = (0..seeds).map(Some).collect();
    let mut unseeded: Vec<usize> = (seeds..engines).collect();
    let mut state = seed;
    while !unseeded.is_empty() {
        state = crate::chess::polyglot::splitmix(state);
        let i = (state % unseeded.len() as u64) as usize;
        players.push(Some(unseeded.remove(i)));
    }
    let size = engines.max(2).next_power_of_two();
    players.resize(size, None);
    let mut slots: Vec<Option<usize>> = vec![None; size];
    let mut byes = 0;
    for (i, &player) in players.iter().enumerate() {
        let index = player_seed(i + 1, size);
        match player {
            // A bye goes beside the next top-seeded player, whose opponent moves to the bye's slot.
            None => {
                byes += 1;
                let bye_index = player_seed(byes, size) + 1;
                slots[index] = slots[bye_index];
                slots[bye_index] = None;
            }
            Some(_) => slots[index] = player,
        }
    }
    slots
        .chunks(2)
        .map(|two| match (two[0], two[1]) {
            (Some(a), b) => Encounter::new(a, b),
            (None, Some(b)) => Encounter::new(b, None),
            (None, None) => unreachable!("a bracket slot pair holds at least one player"),
        })
        .collect()
}

/// The next round: the winners of `round`, in bracket order, in twos.
fn next_round(round: &[Encounter]) -> Vec<Encounter> {
    let winners: Vec<usize> = round.iter().filter_map(Encounter::winner).collect();
    winners.chunks(2).map(|two| Encounter::new(two[0], two.get(1).copied())).collect()
}

/// Checks that `plan` can be played as a knockout: a fixed number of game pairs per encounter, no SPRT, no
/// shard.
fn check(plan: &MatchPlan) -> Result<u64, PlanError> {
    let invalid = |field, problem: &str| Err(PlanError::Invalid { field, problem: problem.to_string() });
    if plan.sprt.is_some() {
        return invalid(PlanField::Sprt, ": a knockout has no SPRT (each encounter is decided by its score)");
    }
    if plan.shard.is_some() {
        return invalid(PlanField::Rounds, ": a knockout cannot be sharded (each round waits for the one before)");
    }
    match plan.length {
        MatchLength::Rounds(pairs) => Ok(pairs),
        MatchLength::Games(games) => Ok(games.div_ceil(2)),
        _ => invalid(
            PlanField::Rounds,
            ": a knockout needs the game pairs per encounter (rounds) or games per encounter",
        ),
    }
}

/// Plays the knockout of `plan` (its tournament [`Tournament::Knockout`]) into a new folder, round by round,
/// handing every match played to `played` as it ends (to print its summary); stops after a match that did
/// not finish (a failure, a halt, an interrupt). `plan.length` is per encounter.
///
/// # Errors
/// A [`RunError`] for a plan that cannot be a knockout or a round that cannot start.
pub fn run_knockout(
    plan: &MatchPlan,
    observer: &mut dyn RunObserver,
    played: &mut dyn FnMut(&MatchRun),
    interrupt: &AtomicBool,
) -> Result<KnockoutRun, RunError> {
    plan.validate()?;
    let pairs = check(plan)?;
    // The number of openings, for each round to start where the one before stopped.
    let openings = plan.spec::<crate::chess::ChessGame>().map(|spec| spec.openings.len()).unwrap_or(1).max(1);
    let dir = super::run::new_run_dir(plan)?;
    let mut recorded = plan.clone();
    recorded.output.out = Some(dir.clone());
    let path = dir.join(KNOCKOUT_TOML);
    let text = toml::to_string(&recorded)
        .map_err(|e| OutputError::Io { path: path.display().to_string(), reason: std::io::Error::other(e) })?;
    replace_file(&dir.join(KNOCKOUT_TOML), text.as_bytes())?;
    let mut ko = KnockoutRun {
        dir: dir.clone(),
        rounds: vec![first_round(plan.engines.len(), plan.seeds as usize, plan.seed)],
        matches: Vec::new(),
        bracket: String::new(),
        winner: None,
        undecided: None,
    };
    let mut next_opening = plan.openings.start;
    'rounds: loop {
        let number = ko.rounds.len();
        let mut tiebreaks = 0;
        loop {
            let round = ko.rounds.last_mut().expect("a round");
            let open: Vec<usize> = (0..round.len()).filter(|&k| round[k].winner().is_none()).collect();
            if open.is_empty() {
                break;
            }
            if tiebreaks > MAX_TIEBREAKS {
                ko.undecided = Some(format!(
                    "round {number} is still level after {MAX_TIEBREAKS} tie-break pairs (engines that play the same \
                     game from both sides of an opening never part: give them random openings or other limits)"
                ));
                break 'rounds;
            }
            let mut sub = plan.clone();
            sub.tournament = Tournament::Pairs;
            sub.seeds = 1;
            sub.engines = open
                .iter()
                .flat_map(|&k| {
                    [plan.engines[round[k].first].clone(), plan.engines[round[k].second.expect("a game")].clone()]
                })
                .collect();
            let sub_pairs = if tiebreaks == 0 { pairs } else { 1 };
            sub.length = MatchLength::Rounds(sub_pairs);
            sub.openings.start = next_opening % openings;
            let folder =
                if tiebreaks == 0 { format!("round-{number}") } else { format!("round-{number}-tiebreak-{tiebreaks}") };
            sub.output.out = Some(dir.join(&folder));
            sub.output.event = Some(plan.output.event());
            observer.note(&format!(
                "knockout: round {number}{}: {} encounters, in {}",
                if tiebreaks == 0 { String::new() } else { format!(", tie-break {tiebreaks}") },
                open.len(),
                dir.join(&folder).display()
            ));
            let RunEnd::Played(played_run) = run(&sub, observer, interrupt)? else {
                break 'rounds;
            };
            next_opening += sub_pairs as usize;
            for (tally, &k) in played_run.state.tally.pairings.iter().zip(&open) {
                let w = tally.wdl;
                round[k].first_score += 2 * w.wins + w.draws;
                round[k].second_score += 2 * w.losses + w.draws;
                round[k].games += w.games();
            }
            played(&played_run);
            let state = &played_run.state;
            let stopped = state.failure.is_some() || state.halted.is_some() || state.interrupted;
            ko.matches.push(*played_run);
            if stopped {
                break 'rounds;
            }
            tiebreaks += 1;
        }
        let round = ko.rounds.last().expect("a round");
        if round.len() == 1 {
            ko.winner = round[0].winner();
            break;
        }
        let next = next_round(round);
        ko.rounds.push(next);
    }
    ko.bracket = bracket(plan, &ko.rounds);
    replace_file(&dir.join("knockout.txt"), ko.bracket.as_bytes())?;
    Ok(ko)
}

/// The bracket in cutechess-cli's layout (`KnockoutTournament::results`): the first round's players two lines
/// apart, each round's winner (with the encounter's points) indented two tabs further on the line between its
/// players; `...` for an encounter not decided.
pub fn bracket(plan: &MatchPlan, rounds: &[Vec<Encounter>]) -> String {
    let name = |i: usize| plan.engines[i].name.clone();
    let mut lines: Vec<String> = Vec::new();
    for encounter in rounds.first().into_iter().flatten() {
        lines.push(name(encounter.first));
        lines.push(String::new());
        lines.push(encounter.second.map_or("bye".to_string(), name));
        lines.push(String::new());
    }
    lines.pop();
    for (r, round) in rounds.iter().enumerate() {
        let r = r + 1;
        for (x, encounter) in round.iter().enumerate() {
            let played = encounter.games > 0 || encounter.second.is_none();
            let winner = encounter.winner().filter(|_| played).map_or("...".to_string(), name);
            let mut text = format!("{}{winner}", "\t".repeat(2 * r));
            if encounter.first_score + encounter.second_score > 0 {
                text.push_str(&format!(" ({}-{})", half(encounter.first_score), half(encounter.second_score)));
            }
            let line = ((2usize << (r - 1)) - 1) + x * (2usize << r);
            if let Some(l) = lines.get_mut(line) {
                l.push_str(&text);
            }
        }
    }
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

/// Half-points as cutechess-cli prints points (`1.5`, `2`).
fn half(score: u64) -> String {
    if score.is_multiple_of(2) { (score / 2).to_string() } else { format!("{}.5", score / 2) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brackets_keep_the_top_seeds_apart_and_give_them_the_byes() {
        // Four engines, all seeded: cutechess-cli's playerSeed puts seed 3 beside seed 1 (slots 0, 2, 1, 3), so
        // that seeds 1 and 2 can meet only in the final.
        let round = first_round(4, 4, 0);
        let pairs: Vec<(usize, Option<usize>)> = round.iter().map(|e| (e.first, e.second)).collect();
        assert_eq!(pairs, [(0, Some(2)), (1, Some(3))]);
        // Three engines, seeded: the top seed has the bye.
        let round = first_round(3, 3, 0);
        let pairs: Vec<(usize, Option<usize>)> = round.iter().map(|e| (e.first, e.second)).collect();
        assert_eq!(pairs, [(0, None), (1, Some(2))]);
        // Every engine appears once, whatever the shuffle.
        for seed in 0..20 {
            let round = first_round(6, 1, seed);
            let mut all: Vec<usize> = round.iter().flat_map(|e| [Some(e.first), e.second]).flatten().collect();
            all.sort_unstable();
            assert_eq!(all, (0..6).collect::<Vec<_>>());
            assert_eq!(round[0].first, 0);
        }
    }

    #[test]
    fn winners_meet_in_bracket_order_and_ties_are_undecided() {
        let mut round = first_round(4, 4, 0);
        round[0].first_score = 3;
        round[0].second_score = 1;
        round[1].first_score = 2;
        round[1].second_score = 2;
        assert_eq!(round[1].winner(), None);
        round[1].second_score = 3;
        let next = next_round(&round);
        assert_eq!((next[0].first, next[0].second), (0, Some(3)));
    }
}
