//! Match counts: single-game results ([`Wdl`]) and game-pair results ([`Pentanomial`]).
//!
//! All counts are from the tested engine's point of view. A game pair is the same
//! opening played twice with colours reversed; its score is 0, 0.5, 1, 1.5 or 2.

use super::error::StatsError;

/// The result of one game from the tested engine's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameScore {
    /// The tested engine lost (0 points).
    Loss,
    /// The game was drawn (0.5 points).
    Draw,
    /// The tested engine won (1 point).
    Win,
}

impl GameScore {
    /// Returns the points this result is worth to the tested engine: 0.0, 0.5 or 1.0.
    #[inline]
    pub fn points(self) -> f64 {
        match self {
            Self::Loss => 0.0,
            Self::Draw => 0.5,
            Self::Win => 1.0,
        }
    }

    /// Returns the same game seen from the opponent's side (a win becomes a loss).
    #[inline]
    pub fn flipped(self) -> Self {
        match self {
            Self::Loss => Self::Win,
            Self::Draw => Self::Draw,
            Self::Win => Self::Loss,
        }
    }
}

/// Win/draw/loss counts of single games, from the tested engine's point of view.
///
/// This is the trinomial model: each game is treated as an independent sample.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Wdl {
    /// Games the tested engine won.
    pub wins: u64,
    /// Drawn games.
    pub draws: u64,
    /// Games the tested engine lost.
    pub losses: u64,
}

impl Wdl {
    /// Builds counts from wins, draws and losses.
    #[inline]
    pub const fn new(wins: u64, draws: u64, losses: u64) -> Self {
        Self { wins, draws, losses }
    }

    /// Returns the total number of games.
    #[inline]
    pub const fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Counts one more game with the given result.
    #[inline]
    pub fn add(&mut self, score: GameScore) {
        match score {
            GameScore::Loss => self.losses += 1,
            GameScore::Draw => self.draws += 1,
            GameScore::Win => self.wins += 1,
        }
    }

    /// Returns the counts per score bin, lowest score first: `[losses, draws, wins]`
    /// (fishtest's trinomial `results` vector).
    #[inline]
    pub const fn bins(&self) -> [u64; 3] {
        [self.losses, self.draws, self.wins]
    }

    /// Returns the fraction of games drawn, or `None` when no game was played.
    pub fn draw_ratio(&self) -> Option<f64> {
        let games = self.games();
        (games > 0).then(|| self.draws as f64 / games as f64)
    }

    /// Returns the mean score per game in `[0, 1]`, or `None` when no game was played.
    pub fn score(&self) -> Option<f64> {
        let games = self.games();
        (games > 0).then(|| (self.wins as f64 + 0.5 * self.draws as f64) / games as f64)
    }

    /// Returns an error unless at least `min` games were played.
    pub(crate) fn require_games(&self, min: u64) -> Result<(), StatsError> {
        let games = self.games();
        if games < min {
            return Err(StatsError::TooFewGames { games, min });
        }
        Ok(())
    }
}

impl std::ops::AddAssign for Wdl {
    fn add_assign(&mut self, other: Self) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
    }
}

/// Counts of game pairs by pair result, from the tested engine's point of view.
///
/// Field names give the two game results in either order: `ld` is one loss and
/// one draw (score 0.5), `wl` one win and one loss (score 1), `dd` two draws
/// (score 1). `wl` and `dd` are kept apart for reporting and merged into one bin
/// only inside the statistics (fishtest's pentanomial vector is
/// `[ll, ld, wl + dd, wd, ww]`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Pentanomial {
    /// Pairs with two losses (pair score 0).
    pub ll: u64,
    /// Pairs with a loss and a draw (pair score 0.5).
    pub ld: u64,
    /// Pairs with a win and a loss (pair score 1).
    pub wl: u64,
    /// Pairs with two draws (pair score 1).
    pub dd: u64,
    /// Pairs with a win and a draw (pair score 1.5).
    pub wd: u64,
    /// Pairs with two wins (pair score 2).
    pub ww: u64,
}

impl Pentanomial {
    /// Returns the number of game pairs.
    #[inline]
    pub const fn pairs(&self) -> u64 {
        self.ll + self.ld + self.wl + self.dd + self.wd + self.ww
    }

    /// Returns the number of games (twice the number of pairs).
    #[inline]
    pub const fn games(&self) -> u64 {
        2 * self.pairs()
    }

    /// Counts one more pair from the results of its two games, in either order.
    ///
    /// # Examples
    /// ```
    /// use arbiter::stats::{GameScore, Pentanomial};
    /// let mut penta = Pentanomial::default();
    /// penta.add_pair(GameScore::Win, GameScore::Loss);
    /// penta.add_pair(GameScore::Draw, GameScore::Win);
    /// assert_eq!((penta.wl, penta.wd, penta.pairs()), (1, 1, 2));
    /// ```
    pub fn add_pair(&mut self, first: GameScore, second: GameScore) {
        use GameScore::{Draw, Loss, Win};
        match (first, second) {
            (Loss, Loss) => self.ll += 1,
            (Loss, Draw) | (Draw, Loss) => self.ld += 1,
            (Loss, Win) | (Win, Loss) => self.wl += 1,
            (Draw, Draw) => self.dd += 1,
            (Draw, Win) | (Win, Draw) => self.wd += 1,
            (Win, Win) => self.ww += 1,
        }
    }

    /// Returns the game counts these pairs imply: `wl` adds a win and a loss, `dd`
    /// two draws, `ld` a loss and a draw, `wd` a win and a draw, `ll` two losses and
    /// `ww` two wins.
    pub const fn to_wdl(&self) -> Wdl {
        Wdl {
            wins: 2 * self.ww + self.wd + self.wl,
            draws: 2 * self.dd + self.ld + self.wd,
            losses: 2 * self.ll + self.ld + self.wl,
        }
    }

    /// Returns the counts per pair-score bin, lowest score first:
    /// `[ll, ld, wl + dd, wd, ww]` (fishtest's pentanomial `results` vector).
    #[inline]
    pub const fn bins(&self) -> [u64; 5] {
        [self.ll, self.ld, self.wl + self.dd, self.wd, self.ww]
    }

    /// Returns the fraction of games drawn, or `None` when no pair was played.
    pub fn draw_ratio(&self) -> Option<f64> {
        self.to_wdl().draw_ratio()
    }

    /// Returns the mean score per game in `[0, 1]`, or `None` when no pair was played.
    pub fn score(&self) -> Option<f64> {
        self.to_wdl().score()
    }

    /// Returns an error unless at least `min` pairs were played.
    pub(crate) fn require_pairs(&self, min: u64) -> Result<(), StatsError> {
        let pairs = self.pairs();
        if pairs < min {
            return Err(StatsError::TooFewPairs { pairs, min });
        }
        Ok(())
    }
}

impl std::ops::AddAssign for Pentanomial {
    fn add_assign(&mut self, other: Self) {
        self.ll += other.ll;
        self.ld += other.ld;
        self.wl += other.wl;
        self.dd += other.dd;
        self.wd += other.wd;
        self.ww += other.ww;
    }
}

/// Outcome counts an Elo estimate or an SPRT can be computed from: [`Wdl`]
/// (games as samples) or [`Pentanomial`] (game pairs as samples).
///
/// This trait is sealed; it exists so that [`llr`](super::llr) and
/// [`elo_estimate`](super::elo_estimate) accept either count type.
pub trait Counts: sealed::Sealed {}

impl Counts for Wdl {}
impl Counts for Pentanomial {}

/// How a count type presents itself to the statistics code.
pub(crate) mod sealed {
    use super::{Pentanomial, StatsError, Wdl};

    /// The frequencies of one sample (a game or a pair) by score, lowest first,
    /// with scores evenly spaced over `[0, 1]`.
    pub trait Sealed {
        /// Returns the counts per score bin, lowest score first (3 or 5 bins).
        fn frequencies(&self) -> Vec<u64>;
        /// Returns an error when there are too few samples for any statistic.
        fn check_enough(&self) -> Result<(), StatsError>;
        /// Whether a sample is a game pair (pentanomial) rather than a game.
        fn is_pentanomial(&self) -> bool;
        /// Returns the single-game counts.
        fn wdl(&self) -> Wdl;
    }

    impl Sealed for Wdl {
        fn frequencies(&self) -> Vec<u64> {
            self.bins().to_vec()
        }
        fn check_enough(&self) -> Result<(), StatsError> {
            self.require_games(super::super::MIN_GAMES)
        }
        fn is_pentanomial(&self) -> bool {
            false
        }
        fn wdl(&self) -> Wdl {
            *self
        }
    }

    impl Sealed for Pentanomial {
        fn frequencies(&self) -> Vec<u64> {
            self.bins().to_vec()
        }
        fn check_enough(&self) -> Result<(), StatsError> {
            self.require_pairs(super::super::MIN_PAIRS)
        }
        fn is_pentanomial(&self) -> bool {
            true
        }
        fn wdl(&self) -> Wdl {
            self.to_wdl()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use GameScore::{Draw, Loss, Win};

    #[test]
    fn add_pair_is_order_free_and_to_wdl_counts_every_game() {
        let all = [Loss, Draw, Win];
        let mut penta = Pentanomial::default();
        let mut wdl = Wdl::default();
        for first in all {
            for second in all {
                penta.add_pair(first, second);
                wdl.add(first);
                wdl.add(second);
            }
        }
        assert_eq!(penta, Pentanomial { ll: 1, ld: 2, wl: 2, dd: 1, wd: 2, ww: 1 });
        assert_eq!(penta.to_wdl(), wdl);
        assert_eq!(penta.bins(), [1, 2, 3, 2, 1]);
        assert_eq!(penta.games(), 18);
    }

    #[test]
    fn draw_ratio_and_score_are_none_without_games() {
        assert_eq!(Wdl::default().draw_ratio(), None);
        assert_eq!(Pentanomial::default().score(), None);
        let wdl = Wdl::new(5, 4, 3);
        assert_eq!(wdl.draw_ratio(), Some(4.0 / 12.0));
        assert_eq!(wdl.score(), Some(7.0 / 12.0));
        assert_eq!(wdl.bins(), [3, 4, 5]);
    }

    #[test]
    fn flipped_swaps_wins_and_losses() {
        assert_eq!(Win.flipped(), Loss);
        assert_eq!(Draw.flipped(), Draw);
        assert_eq!(Loss.flipped().points(), 1.0);
    }
}
