//! Match tallies: game results turned into W/D/L and pentanomial counts per pairing, from the first engine's
//! point of view, and the count of each way a game ended.

use super::game::EndReason;
use crate::chess::Color;
use crate::game::GameResult;
use crate::stats::{EloEstimate, GameScore, Pentanomial, Wdl, elo_estimate};
use std::collections::HashMap;

/// The score of `color`'s player in a game with `result`.
///
/// # Examples
/// ```
/// use arbiter::chess::{game::GameResult, Color};
/// use arbiter::runner::score_of;
/// use arbiter::stats::GameScore;
/// assert_eq!(score_of(GameResult::BlackWins, Color::Black), GameScore::Win);
/// assert_eq!(score_of(GameResult::Draw, Color::White), GameScore::Draw);
/// ```
pub fn score_of(result: GameResult, color: Color) -> GameScore {
    match (result, color) {
        (GameResult::Draw, _) => GameScore::Draw,
        (GameResult::WhiteWins, Color::White) | (GameResult::BlackWins, Color::Black) => GameScore::Win,
        _ => GameScore::Loss,
    }
}

/// The counts of one pairing (two engines playing game pairs), from the view of `first`: the engine that has
/// White in the first game of every pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairingTally {
    /// Index of the first engine (the one whose view the counts take).
    pub first: usize,
    /// Index of the second engine.
    pub second: usize,
    /// Single-game counts of every finished game.
    pub wdl: Wdl,
    /// The part of `wdl` from games where the first engine had White.
    pub white: Wdl,
    /// Game-pair counts of every finished pair.
    pub penta: Pentanomial,
}

impl PairingTally {
    /// Empty counts for `first` against `second`.
    pub fn new(first: usize, second: usize) -> PairingTally {
        PairingTally { first, second, wdl: Wdl::default(), white: Wdl::default(), penta: Pentanomial::default() }
    }

    /// The part of `wdl` from games where the first engine had Black.
    pub fn black(&self) -> Wdl {
        Wdl::new(
            self.wdl.wins - self.white.wins,
            self.wdl.draws - self.white.draws,
            self.wdl.losses - self.white.losses,
        )
    }

    /// The Elo estimate of `first` against `second`: from the pentanomial counts once 2 pairs are complete,
    /// else from single games once there are 2, else `None`.
    pub fn elo(&self) -> Option<EloEstimate> {
        elo_estimate(&self.penta).or_else(|_| elo_estimate(&self.wdl)).ok()
    }
}

/// Every count of a match: a [`PairingTally`] per pairing, the games still waiting for their partner, and the
/// number of games per [`EndReason`].
#[derive(Clone, Debug)]
pub struct MatchTally {
    /// One tally per pairing, in schedule order.
    pub pairings: Vec<PairingTally>,
    /// Games counted, per [`EndReason::ALL`] entry.
    pub terminations: [u64; EndReason::ALL.len()],
    /// Games counted.
    pub games: u64,
    /// The first engine's score in the first-finished game of each pair whose other game is not in yet.
    pending: HashMap<u64, GameScore>,
}

impl MatchTally {
    /// Empty counts for `pairings` (engine index pairs, first engine first).
    pub fn new(pairings: &[(usize, usize)]) -> MatchTally {
        MatchTally {
            pairings: pairings.iter().map(|&(a, b)| PairingTally::new(a, b)).collect(),
            terminations: [0; EndReason::ALL.len()],
            games: 0,
            pending: HashMap::new(),
        }
    }

    /// Counts game `game` (0: the first engine has White, 1: it has Black) of pair `pair` of pairing
    /// `pairing`: [`MatchTally::add_game_as`] for a pair with colours swapped.
    ///
    /// # Panics
    /// If `pairing` is out of range or `game` is not 0 or 1 (internal invariants of the scheduler).
    pub fn add_game(&mut self, pairing: usize, pair: u64, game: u8, result: GameResult, end: EndReason) -> bool {
        assert!(game < 2, "a game pair has games 0 and 1");
        let first_color = if game == 0 { Color::White } else { Color::Black };
        self.add_game_as(pairing, pair, first_color, result, end)
    }

    /// Counts one game of pair `pair` of pairing `pairing` in which the first engine played `first_color`.
    /// Returns true when this completes the pair (its second game counted), whose pentanomial count is then
    /// added. The two games may arrive in either order, and may have the same colours (`--noswap`).
    ///
    /// # Panics
    /// If `pairing` is out of range (an internal invariant of the scheduler).
    pub fn add_game_as(
        &mut self,
        pairing: usize,
        pair: u64,
        first_color: Color,
        result: GameResult,
        end: EndReason,
    ) -> bool {
        let score = score_of(result, first_color);
        let tally = &mut self.pairings[pairing];
        tally.wdl.add(score);
        if first_color == Color::White {
            tally.white.add(score);
        }
        self.games += 1;
        if let Some(i) = EndReason::ALL.iter().position(|&r| r == end) {
            self.terminations[i] += 1;
        }
        match self.pending.remove(&pair) {
            Some(other) => {
                tally.penta.add_pair(other, score);
                true
            }
            None => {
                self.pending.insert(pair, score);
                false
            }
        }
    }

    /// The number of games that finished with `reason`.
    pub fn count(&self, reason: EndReason) -> u64 {
        EndReason::ALL.iter().position(|&r| r == reason).map_or(0, |i| self.terminations[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use GameResult::{BlackWins, Draw, WhiteWins};

    const MATE: EndReason = EndReason::Rules(crate::game::RuleEnd::Checkmate);

    #[test]
    fn pairs_are_counted_from_the_first_engines_view() {
        let mut tally = MatchTally::new(&[(0, 1)]);
        // Pair 0: the first engine wins with White, then wins with Black: WW.
        assert!(!tally.add_game(0, 0, 0, WhiteWins, MATE));
        assert!(tally.add_game(0, 0, 1, BlackWins, MATE));
        // Pair 1 arrives in the other order: a loss with Black, a win with White: WL.
        assert!(!tally.add_game(0, 1, 1, WhiteWins, MATE));
        assert!(tally.add_game(0, 1, 0, WhiteWins, MATE));
        // Pair 2: a draw and a loss with White: LD.
        assert!(!tally.add_game(0, 2, 0, BlackWins, MATE));
        assert!(tally.add_game(0, 2, 1, Draw, EndReason::DrawAdjudication));
        // Pair 3: both colours won by White: WL again, not WW or LL.
        tally.add_game(0, 3, 0, WhiteWins, MATE);
        tally.add_game(0, 3, 1, WhiteWins, MATE);
        // Pair 4 is half done.
        assert!(!tally.add_game(0, 4, 0, Draw, EndReason::MaxMoves));

        let p = &tally.pairings[0];
        assert_eq!(p.penta, Pentanomial { ll: 0, ld: 1, wl: 2, dd: 0, wd: 0, ww: 1 });
        assert_eq!(p.wdl, Wdl::new(4, 2, 3));
        assert_eq!(tally.games, 9);
        assert_eq!(tally.count(MATE), 7);
        assert_eq!(tally.count(EndReason::DrawAdjudication), 1);
        assert_eq!(tally.count(EndReason::MaxMoves), 1);
        assert_eq!(tally.count(EndReason::IllegalMove), 0);
    }

    #[test]
    fn colours_are_counted_apart_and_noswap_pairs_still_count() {
        let mut tally = MatchTally::new(&[(0, 1)]);
        // A --noswap pair: the first engine has White in both games, wins one and loses the other: WL.
        assert!(!tally.add_game_as(0, 0, Color::White, WhiteWins, MATE));
        assert!(tally.add_game_as(0, 0, Color::White, BlackWins, MATE));
        // A swapped pair: a draw with White, a win with Black: WD.
        tally.add_game_as(0, 1, Color::White, Draw, MATE);
        tally.add_game_as(0, 1, Color::Black, BlackWins, MATE);
        let p = &tally.pairings[0];
        assert_eq!(p.penta, Pentanomial { wl: 1, wd: 1, ..Pentanomial::default() });
        assert_eq!(p.wdl, Wdl::new(2, 1, 1));
        assert_eq!(p.white, Wdl::new(1, 1, 1));
        assert_eq!(p.black(), Wdl::new(1, 0, 0));
    }

    #[test]
    fn elo_needs_two_samples() {
        let mut tally = MatchTally::new(&[(0, 1)]);
        assert!(tally.pairings[0].elo().is_none());
        tally.add_game(0, 0, 0, WhiteWins, MATE);
        tally.add_game(0, 0, 1, Draw, MATE);
        assert!(tally.pairings[0].elo().is_some(), "two games give a trinomial estimate");
        tally.add_game(0, 1, 0, Draw, MATE);
        tally.add_game(0, 1, 1, Draw, MATE);
        let elo = tally.pairings[0].elo().unwrap();
        assert!(elo.elo > 0.0);
    }
}
