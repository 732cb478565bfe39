//! Rating lists: maximum-likelihood logistic ratings of many players from all their games at once, with
//! bootstrap intervals and the likelihood of superiority between neighbours.
//!
//! # Model
//! Each player `i` has a rating `R_i` in logistic Elo. The expected score of `i` against `j` is
//! `E_ij = 1 / (1 + 10^(-(R_i - R_j) / 400))` ([`score_from_elo`](super::score_from_elo)), whatever the colours.
//! A game in which `i` scores `s` (1, 1/2 or 0) adds `s ln E_ij + (1 - s) ln(1 - E_ij)` to the log-likelihood:
//! a draw counts as half a win and half a loss. The ratings maximise the sum over all games. This is the
//! Bradley–Terry model on the classical Elo scale, the kind of fit Ordo makes (Miguel A. Ballicora, Ordo manual:
//! all games at once, draws as half points; Ordo's scale and its optional white-advantage and draw-rate
//! parameters are switches there, absent here); BayesElo (Rémi Coulom) fits the same logistic curve with a
//! separate draw parameter and a prior. Only rating differences are determined: the list has mean 0 unless an
//! anchor fixes one player's rating.
//!
//! With two players the maximum-likelihood difference is exactly
//! [`elo_from_score`](super::elo_from_score) of the first player's score, as in a match summary.
//!
//! # Existence, and the virtual draws
//! The maximum exists (and is unique) when, for every split of the players into two groups, each group scored
//! some points against the other (Zermelo 1929; Ford 1957): the directed graph "i scored against j" is strongly
//! connected. A player (or group) with a 100% or 0% score breaks this and its ratings would diverge to ±∞.
//! Then, and only then, [`PRIOR_DRAWS`] virtual draws are added between every two players that met, which
//! keeps every rating finite (BayesElo's default prior does the same with 2 virtual draws, always);
//! [`RatingFit::prior`] and [`RatingList::prior`] say so. Players that never met, even through common
//! opponents, cannot be compared at all: [`StatsError::Disconnected`].
//!
//! # Intervals and LOS
//! The 95% interval of each rating is the 2.5% and 97.5% percentiles (linear interpolation between order
//! statistics, numpy's default) of the ratings refitted on bootstrap resamples: game pairs (any [`RatedGame::pair`]
//! group) are drawn with replacement, as many as there are, and refitted under the same mean-0 or anchor
//! convention. A resample without a maximum likelihood gets the virtual draws between the players that met in the
//! whole data. The LOS of a player over the next one in the ranking is the share of the same resamples in which
//! it is rated above it (ties within [`LOS_TIE_ELO`] count half).
//!
//! # Examples
//! ```
//! use arbiter::stats::{rating_list, GameScore, RatedGame, RatingOptions};
//! // Two game pairs between players 0 and 1: 0 wins with White and draws with Black, twice.
//! let games = [
//!     RatedGame { white: 0, black: 1, result: GameScore::Win, pair: 0 },
//!     RatedGame { white: 1, black: 0, result: GameScore::Draw, pair: 0 },
//!     RatedGame { white: 0, black: 1, result: GameScore::Win, pair: 1 },
//!     RatedGame { white: 1, black: 0, result: GameScore::Draw, pair: 1 },
//! ];
//! let list = rating_list(&games, 2, &RatingOptions::default()).unwrap();
//! assert_eq!(list.ranking[0].player, 0);
//! // A 75% score is 190.85 Elo, split around the mean 0.
//! assert!((list.ranking[0].elo - 95.4243).abs() < 1e-4);
//! assert!((list.ranking[1].elo + 95.4243).abs() < 1e-4);
//! ```

use rand::rngs::StdRng;
use rand::{Rng, RngExt, SeedableRng};
use rayon::prelude::*;
use std::f64::consts::LN_10;

use super::error::StatsError;
use super::pentanomial::GameScore;

/// Elo per natural-log unit of the logistic curve: `400 / ln 10` = 173.72…
const ELO_PER_NATURAL: f64 = 400.0 / LN_10;

/// Virtual draws added between every two players that met when the maximum-likelihood ratings do not exist
/// (a 100% or 0% score). BayesElo's default prior is 2 virtual draws, added always; one, added only when
/// needed, keeps an ordinary list untouched and a perfect score far above the rest.
pub const PRIOR_DRAWS: f64 = 1.0;

/// The default number of bootstrap resamples.
pub const DEFAULT_BOOTSTRAP: usize = 1000;

/// The default seed of the bootstrap.
pub const DEFAULT_SEED: u64 = 1;

/// Two ratings closer than this (in Elo) count as tied in the bootstrap LOS (half a resample each way).
pub const LOS_TIE_ELO: f64 = 1e-9;

/// The most Newton iterations of one fit.
const MAX_ITERATIONS: usize = 200;

/// The most step halvings of one Newton iteration's line search.
const MAX_HALVINGS: usize = 60;

/// A fit has converged when no rating moves by more than this in one Newton step, in natural units
/// (about 1.7e-10 Elo).
const CONVERGED_STEP: f64 = 1e-12;

/// One game for a rating list: who played White and Black, the result from White's view, and the resampling
/// group it belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RatedGame {
    /// White's player index, in `0..players`.
    pub white: usize,
    /// Black's player index, in `0..players`.
    pub black: usize,
    /// The result from White's view (a win is 1-0).
    pub result: GameScore,
    /// The resampling unit of the bootstrap: the game pair of the match (both games of a pair share the
    /// opening), or any id grouping games that are drawn together.
    pub pair: u64,
}

/// How a rating list is anchored and its intervals computed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RatingOptions {
    /// `Some((player, elo))` fixes that player's rating; `None` makes the mean rating 0.
    pub anchor: Option<(usize, f64)>,
    /// Bootstrap resamples; 0 computes no intervals and no LOS.
    pub bootstrap: usize,
    /// Seed of the bootstrap (the list is the same for the same games, seed and resample count, whatever the
    /// number of threads).
    pub seed: u64,
}

impl Default for RatingOptions {
    /// Mean 0, [`DEFAULT_BOOTSTRAP`] resamples, seed [`DEFAULT_SEED`].
    fn default() -> Self {
        Self { anchor: None, bootstrap: DEFAULT_BOOTSTRAP, seed: DEFAULT_SEED }
    }
}

/// The maximum-likelihood ratings of every player.
#[derive(Debug, Clone, PartialEq)]
pub struct RatingFit {
    /// Rating of each player by index, in logistic Elo (mean 0, or the anchor's rating for the anchor).
    pub elo: Vec<f64>,
    /// Whether the maximum likelihood did not exist and [`PRIOR_DRAWS`] virtual draws were added between every
    /// two players that met.
    pub prior: bool,
}

/// One row of a rating list.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerRating {
    /// The player's index.
    pub player: usize,
    /// Rating in logistic Elo.
    pub elo: f64,
    /// The 2.5% percentile of the bootstrap ratings, in Elo; `None` without bootstrap.
    pub lower: Option<f64>,
    /// The 97.5% percentile of the bootstrap ratings, in Elo; `None` without bootstrap.
    pub upper: Option<f64>,
    /// Games played.
    pub games: u64,
    /// Points scored (a draw is half a point).
    pub points: f64,
    /// Games drawn.
    pub draws: u64,
    /// Likelihood of superiority over the next player in the ranking, in `[0, 1]`: the share of bootstrap
    /// resamples that rate this player above it. `None` for the last player and without bootstrap.
    pub los_next: Option<f64>,
}

impl PlayerRating {
    /// Returns the score, points per game in `[0, 1]`.
    pub fn score(&self) -> f64 {
        self.points / self.games as f64
    }

    /// Returns the share of games drawn, in `[0, 1]`.
    pub fn draw_ratio(&self) -> f64 {
        self.draws as f64 / self.games as f64
    }
}

/// A rating list: every player, best first, with intervals and LOS from the bootstrap.
#[derive(Debug, Clone, PartialEq)]
pub struct RatingList {
    /// The players by descending rating (ties keep index order).
    pub ranking: Vec<PlayerRating>,
    /// Whether the ratings needed the virtual draws ([`RatingFit::prior`]).
    pub prior: bool,
    /// Bootstrap resamples run.
    pub resamples: usize,
    /// Resamples that needed the virtual draws.
    pub resamples_with_prior: usize,
    /// Resampling units (game pairs) in the data.
    pub pairs: usize,
}

/// Games and points between every two players: the sufficient statistics of the model.
#[derive(Debug, Clone)]
struct Table {
    /// Number of players.
    players: usize,
    /// `games[i * players + j]`: games between `i` and `j` (symmetric), fractional with virtual draws.
    games: Vec<f64>,
    /// `points[i * players + j]`: points `i` scored against `j`.
    points: Vec<f64>,
}

impl Table {
    fn new(players: usize) -> Self {
        Self { players, games: vec![0.0; players * players], points: vec![0.0; players * players] }
    }

    fn add(&mut self, game: &RatedGame) {
        let (w, b, p) = (game.white, game.black, game.result.points());
        let n = self.players;
        self.games[w * n + b] += 1.0;
        self.games[b * n + w] += 1.0;
        self.points[w * n + b] += p;
        self.points[b * n + w] += 1.0 - p;
    }

    /// Adds [`PRIOR_DRAWS`] virtual draws between every two players that met in `met`.
    fn add_prior(&mut self, met: &Table) {
        for (k, &games) in met.games.iter().enumerate() {
            if games > 0.0 {
                self.games[k] += PRIOR_DRAWS;
                self.points[k] += PRIOR_DRAWS / 2.0;
            }
        }
    }

    /// Whether every player is reached from player 0 along edges `i -> j` where `edge(i, j)`.
    fn reaches_all(&self, edge: impl Fn(usize, usize) -> bool) -> Vec<bool> {
        let n = self.players;
        let mut seen = vec![false; n];
        let mut stack = vec![0];
        seen[0] = true;
        while let Some(i) = stack.pop() {
            for (j, reached) in seen.iter_mut().enumerate() {
                if !*reached && edge(i, j) {
                    *reached = true;
                    stack.push(j);
                }
            }
        }
        seen
    }

    /// The players not connected to player 0 by games, ascending.
    fn unconnected(&self) -> Vec<usize> {
        let n = self.players;
        let seen = self.reaches_all(|i, j| self.games[i * n + j] > 0.0);
        (0..n).filter(|&i| !seen[i]).collect()
    }

    /// Whether the maximum likelihood exists: the graph "i scored against j" is strongly connected.
    fn has_maximum(&self) -> bool {
        let n = self.players;
        let forward = self.reaches_all(|i, j| self.points[i * n + j] > 0.0);
        let backward = self.reaches_all(|i, j| self.points[j * n + i] > 0.0);
        forward.iter().chain(&backward).all(|&r| r)
    }

    /// The log-likelihood of ratings `x` in natural units.
    fn log_likelihood(&self, x: &[f64]) -> f64 {
        let n = self.players;
        let mut sum = 0.0;
        for i in 0..n {
            for j in (i + 1)..n {
                let games = self.games[i * n + j];
                if games > 0.0 {
                    let s = self.points[i * n + j];
                    let d = x[i] - x[j];
                    sum -= s * softplus(-d) + (games - s) * softplus(d);
                }
            }
        }
        sum
    }

    /// The ratings in natural units that maximise the likelihood, with `x[0] = 0`; the table must pass
    /// [`Table::has_maximum`]. Damped Newton: each step solves the Hessian system (player 0 pinned) by
    /// Cholesky and is halved until the likelihood does not fall.
    fn maximise(&self) -> Result<Vec<f64>, StatsError> {
        let n = self.players;
        let m = n - 1;
        let mut x = vec![0.0; n];
        let mut current = self.log_likelihood(&x);
        for _ in 0..MAX_ITERATIONS {
            // Gradient g and negative Hessian h of the free ratings 1..n.
            let mut g = vec![0.0; m];
            let mut h = vec![0.0; m * m];
            for i in 0..n {
                for j in 0..n {
                    let games = self.games[i * n + j];
                    if i == j || games <= 0.0 {
                        continue;
                    }
                    let e = sigmoid(x[i] - x[j]);
                    let w = games * e * (1.0 - e);
                    if i > 0 {
                        g[i - 1] += self.points[i * n + j] - games * e;
                        h[(i - 1) * m + (i - 1)] += w;
                        if j > 0 {
                            h[(i - 1) * m + (j - 1)] -= w;
                        }
                    }
                }
            }
            let Some(step) = cholesky_solve(&mut h, &mut g, m) else {
                return Err(StatsError::NotConverged { iterations: MAX_ITERATIONS });
            };
            let mut t = 1.0;
            let mut moved = false;
            for _ in 0..MAX_HALVINGS {
                let trial: Vec<f64> =
                    std::iter::once(0.0).chain(x[1..].iter().zip(&step).map(|(xi, si)| xi + t * si)).collect();
                let value = self.log_likelihood(&trial);
                if value >= current - 1e-12 * current.abs() {
                    x = trial;
                    current = value;
                    moved = true;
                    break;
                }
                t /= 2.0;
            }
            let largest = step.iter().fold(0.0f64, |a, s| a.max((t * s).abs()));
            if !moved || largest < CONVERGED_STEP {
                return Ok(x);
            }
        }
        Err(StatsError::NotConverged { iterations: MAX_ITERATIONS })
    }
}

/// `ln(1 + e^z)` without overflow.
fn softplus(z: f64) -> f64 {
    z.max(0.0) + (-z.abs()).exp().ln_1p()
}

/// The logistic function `1 / (1 + e^-z)`.
fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// Solves `a x = b` for a symmetric positive-definite `m x m` matrix `a` (row-major) by Cholesky, in place;
/// `None` when `a` is not positive definite.
fn cholesky_solve(a: &mut [f64], b: &mut [f64], m: usize) -> Option<Vec<f64>> {
    for j in 0..m {
        let mut d = a[j * m + j];
        for k in 0..j {
            d -= a[j * m + k] * a[j * m + k];
        }
        if d.is_nan() || d <= 0.0 {
            return None;
        }
        let d = d.sqrt();
        a[j * m + j] = d;
        for i in (j + 1)..m {
            let mut v = a[i * m + j];
            for k in 0..j {
                v -= a[i * m + k] * a[j * m + k];
            }
            a[i * m + j] = v / d;
        }
    }
    // Forward (L y = b), then backward (L^T x = y).
    for i in 0..m {
        for k in 0..i {
            b[i] -= a[i * m + k] * b[k];
        }
        b[i] /= a[i * m + i];
    }
    for i in (0..m).rev() {
        for k in (i + 1)..m {
            b[i] -= a[k * m + i] * b[k];
        }
        b[i] /= a[i * m + i];
    }
    Some(b.to_vec())
}

/// Checks the games and the anchor against `players`; returns the table of all games.
fn check(games: &[RatedGame], players: usize, anchor: Option<(usize, f64)>) -> Result<Table, StatsError> {
    if games.is_empty() {
        return Err(StatsError::NoGames);
    }
    let mut table = Table::new(players);
    for game in games {
        for player in [game.white, game.black] {
            if player >= players {
                return Err(StatsError::UnknownPlayer { player, players });
            }
        }
        if game.white == game.black {
            return Err(StatsError::SelfPlay { player: game.white });
        }
        table.add(game);
    }
    if let Some((player, elo)) = anchor {
        if player >= players {
            return Err(StatsError::UnknownPlayer { player, players });
        }
        if !elo.is_finite() {
            return Err(StatsError::InvalidElo { name: "anchor", value: elo });
        }
    }
    let unconnected = table.unconnected();
    if !unconnected.is_empty() {
        return Err(StatsError::Disconnected { players: unconnected });
    }
    Ok(table)
}

/// Fits `table`, with the virtual draws between the players that met in `met` when the maximum does not
/// exist; returns Elo ratings under the anchor or mean-0 convention and whether the virtual draws were used.
fn fit_table(mut table: Table, met: &Table, anchor: Option<(usize, f64)>) -> Result<(Vec<f64>, bool), StatsError> {
    let prior = !table.has_maximum();
    if prior {
        table.add_prior(met);
    }
    let mut elo: Vec<f64> = table.maximise()?.iter().map(|x| x * ELO_PER_NATURAL).collect();
    let shift = match anchor {
        Some((player, rating)) => rating - elo[player],
        None => -elo.iter().sum::<f64>() / elo.len() as f64,
    };
    for r in &mut elo {
        *r += shift;
    }
    if let Some((player, rating)) = anchor {
        // Exactly the anchor, whatever the rounding of the shift.
        elo[player] = rating;
    }
    Ok((elo, prior))
}

/// Returns the maximum-likelihood logistic Elo rating of every player (see the module documentation for the
/// model and the virtual draws).
///
/// `games` index players in `0..players`; `anchor` `Some((player, elo))` fixes that player's rating, `None`
/// makes the mean rating 0.
///
/// # Errors
/// [`StatsError::NoGames`] for no games; [`StatsError::UnknownPlayer`] for an index (in a game or the anchor)
/// not below `players`; [`StatsError::SelfPlay`] for a game of a player against itself;
/// [`StatsError::InvalidElo`] for an anchor rating that is not finite; [`StatsError::Disconnected`] when some
/// players (or a player without games) never met the others; [`StatsError::NotConverged`] if Newton's method
/// fails (not expected).
///
/// # Examples
/// ```
/// use arbiter::stats::{elo_from_score, fit_ratings, GameScore, RatedGame};
/// let games = [
///     RatedGame { white: 0, black: 1, result: GameScore::Win, pair: 0 },
///     RatedGame { white: 1, black: 0, result: GameScore::Draw, pair: 0 },
/// ];
/// let fit = fit_ratings(&games, 2, Some((1, 2800.0))).unwrap();
/// assert!((fit.elo[0] - 2800.0 - elo_from_score(0.75)).abs() < 1e-9);
/// assert!(!fit.prior);
/// ```
pub fn fit_ratings(games: &[RatedGame], players: usize, anchor: Option<(usize, f64)>) -> Result<RatingFit, StatsError> {
    let table = check(games, players, anchor)?;
    let (elo, prior) = fit_table(table.clone(), &table, anchor)?;
    Ok(RatingFit { elo, prior })
}

/// Returns the percentile `q` in `[0, 1]` of ascending `sorted` values, interpolating linearly between order
/// statistics at rank `q (len - 1)` (numpy's default).
fn percentile(sorted: &[f64], q: f64) -> f64 {
    let rank = q * (sorted.len() - 1) as f64;
    let low = rank.floor() as usize;
    let high = rank.ceil() as usize;
    sorted[low] + (rank - low as f64) * (sorted[high] - sorted[low])
}

/// Returns the rating list of every player: maximum-likelihood ratings ([`fit_ratings`]), best first, with
/// games, points and draws, and with `options.bootstrap` resamples of game pairs the 95% interval of each
/// rating and the LOS of each player over the next (see the module documentation).
///
/// Resamples run in parallel (rayon); each takes its own generator seeded from a [`StdRng`] seeded with
/// `options.seed`, so the list depends only on the games, the seed and the number of resamples.
///
/// # Errors
/// Those of [`fit_ratings`].
pub fn rating_list(games: &[RatedGame], players: usize, options: &RatingOptions) -> Result<RatingList, StatsError> {
    let table = check(games, players, options.anchor)?;
    let (elo, prior) = fit_table(table.clone(), &table, options.anchor)?;

    // Resampling units: the games of each pair id, in order of first appearance.
    let mut groups: Vec<Vec<RatedGame>> = Vec::new();
    let mut index = std::collections::HashMap::new();
    for game in games {
        let k = *index.entry(game.pair).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[k].push(*game);
    }

    let mut master = StdRng::seed_from_u64(options.seed);
    let seeds: Vec<u64> = (0..options.bootstrap).map(|_| master.next_u64()).collect();
    let resampled: Vec<(Vec<f64>, bool)> = seeds
        .par_iter()
        .map(|&seed| {
            let mut rng = StdRng::seed_from_u64(seed);
            let mut sample = Table::new(players);
            for _ in 0..groups.len() {
                for game in &groups[rng.random_range(0..groups.len())] {
                    sample.add(game);
                }
            }
            fit_table(sample, &table, options.anchor)
        })
        .collect::<Result<_, _>>()?;

    let mut ranking: Vec<PlayerRating> = (0..players)
        .map(|player| {
            let (lower, upper) = if resampled.is_empty() {
                (None, None)
            } else {
                let mut values: Vec<f64> = resampled.iter().map(|(r, _)| r[player]).collect();
                values.sort_by(f64::total_cmp);
                (Some(percentile(&values, 0.025)), Some(percentile(&values, 0.975)))
            };
            PlayerRating { player, elo: elo[player], lower, upper, games: 0, points: 0.0, draws: 0, los_next: None }
        })
        .collect();
    for game in games {
        let p = game.result.points();
        for (player, points) in [(game.white, p), (game.black, 1.0 - p)] {
            let row = &mut ranking[player];
            row.games += 1;
            row.points += points;
            row.draws += u64::from(game.result == GameScore::Draw);
        }
    }
    ranking.sort_by(|a, b| b.elo.total_cmp(&a.elo).then(a.player.cmp(&b.player)));
    if !resampled.is_empty() {
        for k in 0..players.saturating_sub(1) {
            let (above, below) = (ranking[k].player, ranking[k + 1].player);
            let wins: f64 = resampled
                .iter()
                .map(|(r, _)| {
                    let d = r[above] - r[below];
                    if d.abs() <= LOS_TIE_ELO {
                        0.5
                    } else if d > 0.0 {
                        1.0
                    } else {
                        0.0
                    }
                })
                .sum();
            ranking[k].los_next = Some(wins / resampled.len() as f64);
        }
    }
    Ok(RatingList {
        ranking,
        prior,
        resamples: resampled.len(),
        resamples_with_prior: resampled.iter().filter(|(_, p)| *p).count(),
        pairs: groups.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::{elo_from_score, score_from_elo};

    fn game(white: usize, black: usize, result: GameScore, pair: u64) -> RatedGame {
        RatedGame { white, black, result, pair }
    }

    /// `wins`, `draws`, `losses` of player 0 against player 1 as game pairs with colours swapped (the last
    /// game alone when the total is odd).
    fn two_players(wins: usize, draws: usize, losses: usize) -> Vec<RatedGame> {
        let results = std::iter::repeat_n(GameScore::Win, wins)
            .chain(std::iter::repeat_n(GameScore::Draw, draws))
            .chain(std::iter::repeat_n(GameScore::Loss, losses));
        results
            .enumerate()
            .map(|(k, r)| if k % 2 == 0 { game(0, 1, r, k as u64 / 2) } else { game(1, 0, r.flipped(), k as u64 / 2) })
            .collect()
    }

    #[test]
    fn two_players_match_elo_from_score() {
        for (w, d, l) in [(5, 4, 3), (30, 50, 20), (1, 0, 1), (0, 7, 0), (3, 1, 9), (145, 57, 50), (99, 1, 1)] {
            let games = two_players(w, d, l);
            let fit = fit_ratings(&games, 2, None).unwrap();
            let score = (w as f64 + d as f64 / 2.0) / (w + d + l) as f64;
            assert!(!fit.prior);
            assert!((fit.elo[0] - fit.elo[1] - elo_from_score(score)).abs() < 1e-9, "{w}/{d}/{l}: {:?}", fit.elo);
            assert!((fit.elo[0] + fit.elo[1]).abs() < 1e-9);
        }
    }

    /// Three players whose results fit the model exactly, in groups that each fit it: 0 scores 3/4 against
    /// 1, 1 scores 3/4 against 2, and 0 scores 9/10 against 2 (`score_from_elo(2 * 190.85)`).
    fn consistent_three(copies: u64) -> Vec<RatedGame> {
        let mut games = Vec::new();
        for c in 0..copies {
            for (a, b, pair) in [(0, 1, 3 * c), (1, 2, 3 * c + 1)] {
                games.push(game(a, b, GameScore::Win, pair));
                games.push(game(b, a, GameScore::Loss, pair));
                games.push(game(a, b, GameScore::Win, pair));
                games.push(game(b, a, GameScore::Win, pair));
            }
            for k in 0..10 {
                let result = if k == 9 { GameScore::Loss } else { GameScore::Win };
                games.push(if k % 2 == 0 {
                    game(0, 2, result, 3 * c + 2)
                } else {
                    game(2, 0, result.flipped(), 3 * c + 2)
                });
            }
        }
        games
    }

    #[test]
    fn three_players_with_a_known_outcome() {
        let step = 400.0 * 3f64.log10();
        assert!((score_from_elo(2.0 * step) - 0.9).abs() < 1e-12);
        let fit = fit_ratings(&consistent_three(1), 3, None).unwrap();
        assert!(!fit.prior);
        for (got, want) in fit.elo.iter().zip([step, 0.0, -step]) {
            assert!((got - want).abs() < 1e-9, "{:?}", fit.elo);
        }
        let anchored = fit_ratings(&consistent_three(1), 3, Some((2, 1000.0))).unwrap();
        for (got, want) in anchored.elo.iter().zip([1000.0 + 2.0 * step, 1000.0 + step, 1000.0]) {
            assert!((got - want).abs() < 1e-9, "{:?}", anchored.elo);
        }
    }

    #[test]
    fn every_resample_of_consistent_groups_gives_the_same_ratings() {
        let step = 400.0 * 3f64.log10();
        let list = rating_list(&consistent_three(5), 3, &RatingOptions::default()).unwrap();
        assert_eq!((list.resamples, list.resamples_with_prior, list.pairs, list.prior), (1000, 0, 15, false));
        let order: Vec<usize> = list.ranking.iter().map(|r| r.player).collect();
        assert_eq!(order, [0, 1, 2]);
        for (row, want) in list.ranking.iter().zip([step, 0.0, -step]) {
            assert!((row.elo - want).abs() < 1e-9);
            assert!((row.lower.unwrap() - want).abs() < 1e-9 && (row.upper.unwrap() - want).abs() < 1e-9);
        }
        assert_eq!(list.ranking.iter().map(|r| r.los_next).collect::<Vec<_>>(), [Some(1.0), Some(1.0), None]);
        let (games, points, draws): (Vec<u64>, Vec<f64>, Vec<u64>) = (
            list.ranking.iter().map(|r| r.games).collect(),
            list.ranking.iter().map(|r| r.points).collect(),
            list.ranking.iter().map(|r| r.draws).collect(),
        );
        assert_eq!(games, [70, 40, 70]);
        assert_eq!(points, [15.0 + 45.0, 5.0 + 15.0, 5.0 + 5.0]);
        assert_eq!(draws, [0, 0, 0]);
    }

    #[test]
    fn the_fit_balances_actual_and_expected_points() {
        // Inconsistent data: at the maximum each player's points equal the sum of its expected scores.
        let games = [
            game(0, 1, GameScore::Win, 0),
            game(1, 0, GameScore::Draw, 0),
            game(1, 2, GameScore::Win, 1),
            game(2, 1, GameScore::Draw, 1),
            game(2, 0, GameScore::Win, 2),
            game(0, 2, GameScore::Loss, 2),
            game(0, 1, GameScore::Draw, 3),
            game(2, 3, GameScore::Loss, 4),
            game(3, 0, GameScore::Draw, 4),
            game(1, 3, GameScore::Win, 5),
            game(3, 1, GameScore::Win, 5),
        ];
        let fit = fit_ratings(&games, 4, None).unwrap();
        assert!(!fit.prior);
        for player in 0..4 {
            let mut actual = 0.0;
            let mut expected = 0.0;
            for g in &games {
                let p = g.result.points();
                if g.white == player {
                    actual += p;
                    expected += score_from_elo(fit.elo[player] - fit.elo[g.black]);
                } else if g.black == player {
                    actual += 1.0 - p;
                    expected += score_from_elo(fit.elo[player] - fit.elo[g.white]);
                }
            }
            assert!((actual - expected).abs() < 1e-9, "player {player}: {actual} vs {expected}");
        }
        assert!(fit.elo.iter().sum::<f64>().abs() < 1e-9);
    }

    #[test]
    fn a_perfect_score_gets_the_virtual_draws() {
        // 0 beats 1 four times; 1 and 2 draw twice: 0's rating has no finite maximum.
        let mut games: Vec<RatedGame> = (0..4).map(|k| game(k % 2, 1 - k % 2, GameScore::Win, k as u64 / 2)).collect();
        for g in &mut games {
            if g.white == 1 {
                g.result = GameScore::Loss;
            }
        }
        games.push(game(1, 2, GameScore::Draw, 2));
        games.push(game(2, 1, GameScore::Draw, 2));
        let list = rating_list(&games, 3, &RatingOptions::default()).unwrap();
        assert!(list.prior);
        assert_eq!(list.resamples_with_prior, list.resamples);
        assert_eq!(list.ranking[0].player, 0);
        assert_eq!(list.ranking[0].score(), 1.0);
        for row in &list.ranking {
            assert!(row.elo.is_finite() && row.lower.unwrap().is_finite() && row.upper.unwrap().is_finite());
        }
        // With the virtual draw, 0 scores 4.5 / 5 against 1, and 1 and 2 stay level: 1.5 / 3.
        let fit = fit_ratings(&games, 3, None).unwrap();
        assert!((fit.elo[0] - fit.elo[1] - elo_from_score(0.9)).abs() < 1e-9);
        assert!((fit.elo[1] - fit.elo[2]).abs() < 1e-9);
    }

    #[test]
    fn a_single_game_is_rated_with_the_virtual_draw() {
        let games = [game(0, 1, GameScore::Win, 0)];
        let list = rating_list(&games, 2, &RatingOptions::default()).unwrap();
        assert!(list.prior);
        assert_eq!(list.pairs, 1);
        // 1.5 points of 2 with the virtual draw: 190.85 Elo apart; every resample is the same game.
        let half = elo_from_score(0.75) / 2.0;
        assert_eq!(list.ranking[0].player, 0);
        for (row, want) in list.ranking.iter().zip([half, -half]) {
            assert!((row.elo - want).abs() < 1e-9);
            assert!((row.lower.unwrap() - want).abs() < 1e-9 && (row.upper.unwrap() - want).abs() < 1e-9);
        }
        assert_eq!(list.ranking[0].los_next, Some(1.0));
        assert_eq!((list.ranking[0].games, list.ranking[0].points, list.ranking[1].points), (1, 1.0, 0.0));
    }

    #[test]
    fn all_draws_rate_everyone_zero() {
        let games: Vec<RatedGame> = (0..6).map(|k| game(k % 3, (k + 1) % 3, GameScore::Draw, k as u64 / 2)).collect();
        let list = rating_list(&games, 3, &RatingOptions::default()).unwrap();
        assert!(!list.prior);
        for row in &list.ranking {
            assert_eq!((row.elo, row.lower, row.upper), (0.0, Some(0.0), Some(0.0)));
            assert_eq!((row.games, row.draws, row.score(), row.draw_ratio()), (4, 4, 0.5, 1.0));
        }
        assert_eq!(list.ranking.iter().map(|r| r.player).collect::<Vec<_>>(), [0, 1, 2]);
        assert_eq!(list.ranking.iter().map(|r| r.los_next).collect::<Vec<_>>(), [Some(0.5), Some(0.5), None]);
    }

    #[test]
    fn the_bootstrap_is_reproducible_and_brackets_the_rating() {
        let games = two_players(30, 50, 20);
        let options = RatingOptions { anchor: None, bootstrap: 200, seed: 7 };
        let list = rating_list(&games, 2, &options).unwrap();
        assert_eq!(list, rating_list(&games, 2, &options).unwrap());
        let other = rating_list(&games, 2, &RatingOptions { seed: 8, ..options }).unwrap();
        assert_ne!(list.ranking[0].lower, other.ranking[0].lower);
        let top = &list.ranking[0];
        assert!(top.lower.unwrap() < top.elo && top.elo < top.upper.unwrap());
        assert!(top.los_next.unwrap() > 0.5 && top.los_next.unwrap() <= 1.0);
        assert_eq!(list.pairs, 50);
    }

    #[test]
    fn no_bootstrap_gives_no_intervals() {
        let list = rating_list(&two_players(3, 2, 1), 2, &RatingOptions { bootstrap: 0, ..Default::default() });
        let list = list.unwrap();
        assert_eq!(list.resamples, 0);
        assert!(list.ranking.iter().all(|r| r.lower.is_none() && r.upper.is_none() && r.los_next.is_none()));
    }

    #[test]
    fn the_anchor_has_no_interval() {
        let options = RatingOptions { anchor: Some((1, 2000.0)), bootstrap: 100, seed: 1 };
        let list = rating_list(&two_players(30, 50, 20), 2, &options).unwrap();
        let anchor = list.ranking.iter().find(|r| r.player == 1).unwrap();
        assert_eq!((anchor.elo, anchor.lower, anchor.upper), (2000.0, Some(2000.0), Some(2000.0)));
    }

    #[test]
    fn bad_inputs_are_errors() {
        let win = GameScore::Win;
        assert_eq!(fit_ratings(&[], 2, None), Err(StatsError::NoGames));
        assert_eq!(
            fit_ratings(&[game(0, 2, win, 0)], 2, None),
            Err(StatsError::UnknownPlayer { player: 2, players: 2 })
        );
        assert_eq!(fit_ratings(&[game(1, 1, win, 0)], 2, None), Err(StatsError::SelfPlay { player: 1 }));
        assert_eq!(
            fit_ratings(&[game(0, 1, win, 0)], 2, Some((5, 0.0))),
            Err(StatsError::UnknownPlayer { player: 5, players: 2 })
        );
        assert!(matches!(
            fit_ratings(&[game(0, 1, win, 0)], 2, Some((0, f64::NAN))),
            Err(StatsError::InvalidElo { name: "anchor", .. })
        ));
        let split = [game(0, 1, win, 0), game(2, 3, win, 1)];
        assert_eq!(fit_ratings(&split, 4, None), Err(StatsError::Disconnected { players: vec![2, 3] }));
        assert_eq!(fit_ratings(&[game(0, 1, win, 0)], 3, None), Err(StatsError::Disconnected { players: vec![2] }));
    }

    proptest::proptest! {
        #[test]
        fn any_small_game_set_gives_finite_ratings_or_an_error(
            players in 2usize..=5,
            raw in proptest::collection::vec((0usize..5, 0usize..5, 0u8..3, 0u64..4), 1..14),
            anchored: bool,
        ) {
            let games: Vec<RatedGame> = raw
                .iter()
                .filter(|(w, b, _, _)| w % players != b % players)
                .map(|&(w, b, r, pair)| {
                    let result = [GameScore::Loss, GameScore::Draw, GameScore::Win][usize::from(r)];
                    game(w % players, b % players, result, pair)
                })
                .collect();
            let options = RatingOptions { anchor: anchored.then_some((0, 1500.0)), bootstrap: 25, seed: 3 };
            match rating_list(&games, players, &options) {
                Ok(list) => {
                    for row in &list.ranking {
                        proptest::prop_assert!(row.elo.is_finite());
                        proptest::prop_assert!(row.lower.unwrap().is_finite() && row.upper.unwrap().is_finite());
                        proptest::prop_assert!(row.los_next.is_none_or(|los| (0.0..=1.0).contains(&los)));
                    }
                    proptest::prop_assert!(list.ranking.windows(2).all(|w| w[0].elo >= w[1].elo));
                }
                Err(error) => proptest::prop_assert!(
                    matches!(error, StatsError::NoGames | StatsError::Disconnected { .. }),
                    "{error}"
                ),
            }
        }
    }

    #[test]
    fn percentiles_interpolate_like_numpy() {
        let values = [1.0, 2.0, 3.0, 4.0, 10.0];
        assert_eq!(percentile(&values, 0.0), 1.0);
        assert_eq!(percentile(&values, 0.5), 3.0);
        assert!((percentile(&values, 0.975) - 9.4).abs() < 1e-12);
        assert_eq!(percentile(&[5.0], 0.025), 5.0);
    }
}
