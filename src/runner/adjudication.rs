//! Adjudication: ending a game early when the engines agree on its result (cutechess-cli's `-draw` and
//! `-resign`), and the move cap (`--maxmoves`).
//!
//! Only moves chosen by players count (book moves carry no score); a move without a score resets the mover's
//! counts. Scores are the mover's own, in centipawns, with mates counted as very large
//! ([`EngineScore::as_cp`]).

use super::kv::{KeyValueError, KeyValues};
use super::player::EngineScore;
use crate::chess::Color;

/// Draw adjudication: once at least `movenumber` full moves of the game have been played (plies since the start
/// position, book included, divided by two), the game is drawn when the last `movecount` consecutive scores
/// (plies, each the mover's own; with `movecount` >= 2 both engines take part) all lie within `score`
/// centipawns of zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawAdjudication {
    /// Full moves that must have been played first.
    pub movenumber: u32,
    /// Consecutive plies whose scores must be near zero (at least 1).
    pub movecount: u32,
    /// The largest |score| in centipawns that counts as drawish.
    pub score: i32,
}

impl DrawAdjudication {
    /// The keys of `--draw`.
    pub const KEYS: &[&str] = &["movenumber", "movecount", "score"];

    /// Parses `movenumber=N,movecount=N,score=CP` (all required; movecount at least 1, score at least 0).
    ///
    /// # Errors
    /// A [`KeyValueError`] naming `--draw` and the key.
    ///
    /// # Examples
    /// ```
    /// use arbiter::runner::DrawAdjudication;
    /// let draw = DrawAdjudication::parse("movenumber=40,movecount=8,score=10").unwrap();
    /// assert_eq!((draw.movenumber, draw.movecount, draw.score), (40, 8, 10));
    /// ```
    pub fn parse(text: &str) -> Result<DrawAdjudication, KeyValueError> {
        let mut kv = KeyValues::parse("--draw", text, Self::KEYS)?;
        let movenumber = kv.require("movenumber", "a whole number of full moves")?;
        let movecount: u32 = kv.require("movecount", "a whole number of plies, at least 1")?;
        if movecount == 0 {
            return Err(kv.bad_value("movecount", "a whole number of plies, at least 1"));
        }
        let score: i32 = kv.require("score", "centipawns, 0 or more")?;
        if score < 0 {
            return Err(kv.bad_value("score", "centipawns, 0 or more"));
        }
        Ok(DrawAdjudication { movenumber, movecount, score })
    }
}

/// Resign adjudication: a side loses when its own score (from its own view, as it reported it with its move)
/// has been at or below `-score` for `movecount` consecutive own moves. With `twosided`, its opponent must agree:
/// the opponent's own score must also have been at or above `score` for its last `movecount` moves. A mate
/// score counts as beyond every threshold ([`EngineScore::as_cp`]): being mated is at or below `-score`.
///
/// This is cutechess-cli's `-resign movecount=N score=CP [twosided=true]`, where `twosided` is off unless asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignAdjudication {
    /// Consecutive own moves each side must have reported (at least 1).
    pub movecount: u32,
    /// The threshold in centipawns (at least 1).
    pub score: i32,
    /// Whether the winner's own scores must agree (at or above `score` for its last `movecount` moves).
    pub twosided: bool,
}

impl ResignAdjudication {
    /// The keys of `--resign`.
    pub const KEYS: &[&str] = &["movecount", "score", "twosided"];

    /// Parses `movecount=N,score=CP[,twosided=true|false]` (movecount and score required and at least 1;
    /// twosided false when absent).
    ///
    /// # Errors
    /// A [`KeyValueError`] naming `--resign` and the key.
    ///
    /// # Examples
    /// ```
    /// use arbiter::runner::ResignAdjudication;
    /// let resign = ResignAdjudication::parse("movecount=3,score=600").unwrap();
    /// assert_eq!((resign.movecount, resign.score, resign.twosided), (3, 600, false));
    /// assert!(ResignAdjudication::parse("movecount=3,score=600,twosided=true").unwrap().twosided);
    /// ```
    pub fn parse(text: &str) -> Result<ResignAdjudication, KeyValueError> {
        let mut kv = KeyValues::parse("--resign", text, Self::KEYS)?;
        let movecount: u32 = kv.require("movecount", "a whole number of moves, at least 1")?;
        if movecount == 0 {
            return Err(kv.bad_value("movecount", "a whole number of moves, at least 1"));
        }
        let score: i32 = kv.require("score", "centipawns, at least 1")?;
        if score < 1 {
            return Err(kv.bad_value("score", "centipawns, at least 1"));
        }
        let twosided = kv.take("twosided", "true or false")?.unwrap_or(false);
        Ok(ResignAdjudication { movecount, score, twosided })
    }
}

/// The adjudication rules of a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AdjudicationRules {
    /// Draw adjudication, if any.
    pub draw: Option<DrawAdjudication>,
    /// Resign adjudication, if any.
    pub resign: Option<ResignAdjudication>,
    /// Draw when this many full moves have been played in the game (plies since the start position, book
    /// included, reach twice this); `None` for no cap.
    pub maxmoves: Option<u32>,
}

/// A game ended by adjudication.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Adjudicated {
    /// Drawn by draw adjudication.
    Draw,
    /// `loser` resigned by resign adjudication.
    Resign {
        /// The side that loses.
        loser: Color,
    },
}

/// The adjudication state of one game: consecutive-score counts fed one player move at a time.
#[derive(Clone, Debug)]
pub struct Adjudicator {
    rules: AdjudicationRules,
    drawish: u32,
    losing: [u32; 2],
    winning: [u32; 2],
}

impl Adjudicator {
    /// A fresh state for one game under `rules`.
    pub fn new(rules: AdjudicationRules) -> Adjudicator {
        Adjudicator { rules, drawish: 0, losing: [0; 2], winning: [0; 2] }
    }

    /// Records the score `mover` reported with the move just played (`None` when it gave none); `plies` is the
    /// number of plies of the game so far, this move and book moves included. Returns the adjudication if the
    /// game ends here. Resignation is checked before the draw.
    pub fn record(&mut self, mover: Color, score: Option<EngineScore>, plies: usize) -> Option<Adjudicated> {
        let cp = score.map(EngineScore::as_cp);
        let side = mover.index();
        if let Some(resign) = self.rules.resign {
            self.losing[side] = bump(self.losing[side], cp.is_some_and(|cp| cp <= -resign.score));
            self.winning[side] = bump(self.winning[side], cp.is_some_and(|cp| cp >= resign.score));
            for loser in [mover, mover.flip()] {
                if self.losing[loser.index()] >= resign.movecount
                    && (!resign.twosided || self.winning[loser.flip().index()] >= resign.movecount)
                {
                    return Some(Adjudicated::Resign { loser });
                }
            }
        }
        if let Some(draw) = self.rules.draw {
            self.drawish = bump(self.drawish, cp.is_some_and(|cp| cp.abs() <= draw.score));
            if plies / 2 >= draw.movenumber as usize && self.drawish >= draw.movecount {
                return Some(Adjudicated::Draw);
            }
        }
        None
    }

    /// Whether the move cap is reached after `plies` plies of the game (book included).
    pub fn max_moves_reached(&self, plies: usize) -> bool {
        self.rules.maxmoves.is_some_and(|n| plies >= 2 * n as usize)
    }
}

/// One more in a run of consecutive hits, or back to zero on a miss.
fn bump(count: u32, hit: bool) -> u32 {
    if hit { count + 1 } else { 0 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Color::{Black, White};

    fn rules(draw: &str, resign: &str) -> AdjudicationRules {
        AdjudicationRules {
            draw: (!draw.is_empty()).then(|| DrawAdjudication::parse(draw).unwrap()),
            resign: (!resign.is_empty()).then(|| ResignAdjudication::parse(resign).unwrap()),
            maxmoves: None,
        }
    }

    /// Feeds alternating scores (White first) starting at ply `first_ply`; returns the ply index of the
    /// adjudication and what it was.
    fn feed(adj: &mut Adjudicator, first_ply: usize, scores: &[Option<EngineScore>]) -> Option<(usize, Adjudicated)> {
        for (i, &score) in scores.iter().enumerate() {
            let mover = if i % 2 == 0 { White } else { Black };
            let plies = first_ply + i + 1;
            if let Some(a) = adj.record(mover, score, plies) {
                return Some((plies, a));
            }
        }
        None
    }

    fn cp(v: i32) -> Option<EngineScore> {
        Some(EngineScore::Cp(v))
    }

    #[test]
    fn draw_needs_the_move_number_and_a_run_of_small_scores() {
        let mut adj = Adjudicator::new(rules("movenumber=10,movecount=4,score=5", ""));
        // From ply 0: four drawish plies, but 10 full moves are only reached at ply 20.
        let scores = vec![cp(3); 30];
        assert_eq!(feed(&mut adj, 0, &scores), Some((20, Adjudicated::Draw)));

        let mut adj = Adjudicator::new(rules("movenumber=0,movecount=4,score=5", ""));
        assert_eq!(feed(&mut adj, 0, &[cp(3), cp(-5), cp(6), cp(0), cp(1), cp(-2)]), None);
        let mut adj = Adjudicator::new(rules("movenumber=0,movecount=4,score=5", ""));
        assert_eq!(
            feed(&mut adj, 0, &[cp(3), cp(-5), cp(6), cp(0), cp(1), cp(-2), cp(5)]),
            Some((7, Adjudicated::Draw))
        );
        // A move without a score breaks the run.
        let mut adj = Adjudicator::new(rules("movenumber=0,movecount=2,score=5", ""));
        assert_eq!(feed(&mut adj, 0, &[cp(0), None, cp(0), cp(0)]), Some((4, Adjudicated::Draw)));
        // Book plies count towards the move number.
        let mut adj = Adjudicator::new(rules("movenumber=10,movecount=2,score=5", ""));
        assert_eq!(feed(&mut adj, 16, &[cp(0), cp(0), cp(0), cp(0)]), Some((20, Adjudicated::Draw)));
    }

    #[test]
    fn resign_twosided_needs_both_sides_to_agree() {
        let mut adj = Adjudicator::new(rules("", "movecount=2,score=500,twosided=true"));
        // Black thinks it is lost, White does not agree yet.
        assert_eq!(feed(&mut adj, 0, &[cp(100), cp(-600), cp(499), cp(-700), cp(500), cp(-800)]), None);
        // White's next score completes its run of two: Black resigns after White's move.
        assert_eq!(adj.record(White, cp(900), 7), Some(Adjudicated::Resign { loser: Black }));

        let mut adj = Adjudicator::new(rules("", "movecount=1,score=500,twosided=true"));
        assert_eq!(feed(&mut adj, 0, &[cp(-500), cp(500)]), Some((2, Adjudicated::Resign { loser: White })));
        // A mate score is beyond every threshold, read from the mover's view: +M3 for White, -M2 for Black.
        let mut adj = Adjudicator::new(rules("", "movecount=1,score=500,twosided=true"));
        assert_eq!(
            feed(&mut adj, 0, &[Some(EngineScore::Mate(3)), Some(EngineScore::Mate(-2))]),
            Some((2, Adjudicated::Resign { loser: Black }))
        );
        // An interrupted run starts again.
        let mut adj = Adjudicator::new(rules("", "movecount=2,score=500,twosided=true"));
        assert_eq!(feed(&mut adj, 0, &[cp(-600), cp(600), cp(-100), cp(600), cp(-600), cp(600)]), None);
        // White's own mate score (mated in 1, its view) with Black's agreement.
        let mut adj = Adjudicator::new(rules("", "movecount=1,score=500,twosided=true"));
        assert_eq!(
            feed(&mut adj, 0, &[cp(0), Some(EngineScore::Mate(1)), Some(EngineScore::Mate(-1))]),
            Some((3, Adjudicated::Resign { loser: White }))
        );
    }

    #[test]
    fn resign_onesided_reads_only_the_losers_own_scores() {
        // The default: Black resigns after its second score at or below -500, whatever White thinks.
        let mut adj = Adjudicator::new(rules("", "movecount=2,score=500"));
        assert_eq!(
            feed(&mut adj, 0, &[cp(100), cp(-600), cp(0), cp(-500)]),
            Some((4, Adjudicated::Resign { loser: Black }))
        );
        let mut adj = Adjudicator::new(rules("", "movecount=2,score=500,twosided=false"));
        assert_eq!(feed(&mut adj, 0, &[cp(100), cp(-600), cp(0), cp(-499), cp(0), cp(-900)]), None);
        // A winning score of the opponent is not needed, a mate against the mover is enough.
        let mut adj = Adjudicator::new(rules("", "movecount=1,score=500"));
        assert_eq!(feed(&mut adj, 0, &[Some(EngineScore::Mate(0))]), Some((1, Adjudicated::Resign { loser: White })));
        // A winning score is not a losing one: +M2 for White never makes White resign.
        let mut adj = Adjudicator::new(rules("", "movecount=1,score=500"));
        assert_eq!(feed(&mut adj, 0, &[Some(EngineScore::Mate(2)), cp(0), cp(10_000)]), None);
    }

    #[test]
    fn resign_is_checked_before_draw() {
        let mut adj = Adjudicator::new(rules("movenumber=0,movecount=2,score=1000", "movecount=1,score=600"));
        assert_eq!(feed(&mut adj, 0, &[cp(700), cp(-700)]), Some((2, Adjudicated::Resign { loser: Black })));
    }

    #[test]
    fn max_moves() {
        let adj = Adjudicator::new(AdjudicationRules { maxmoves: Some(3), ..AdjudicationRules::default() });
        assert!(!adj.max_moves_reached(5));
        assert!(adj.max_moves_reached(6));
        assert!(!Adjudicator::new(AdjudicationRules::default()).max_moves_reached(10_000));
    }

    #[test]
    fn options_parse_with_clear_errors() {
        assert_eq!(
            DrawAdjudication::parse("movenumber=40,movecount=8,score=10"),
            Ok(DrawAdjudication { movenumber: 40, movecount: 8, score: 10 })
        );
        let err = DrawAdjudication::parse("movenumber=40,movecount=8").unwrap_err();
        assert_eq!(err.to_string(), "--draw: missing key `score`");
        let err = DrawAdjudication::parse("movenumber=40,movecount=0,score=3").unwrap_err();
        assert!(err.to_string().contains("movecount=\"0\""), "{err}");
        let err = ResignAdjudication::parse("movecount=3,score=600,both=true").unwrap_err();
        assert_eq!(err.to_string(), "--resign: unknown key `both`, expected one of: movecount, score, twosided");
        assert_eq!(
            ResignAdjudication::parse("movecount=3,score=600,twosided=true"),
            Ok(ResignAdjudication { movecount: 3, score: 600, twosided: true })
        );
        let err = ResignAdjudication::parse("movecount=3,score=600,twosided=yes").unwrap_err();
        assert_eq!(err.to_string(), "--resign: twosided=\"yes\" is not valid, expected true or false");
        assert!(ResignAdjudication::parse("movecount=3,score=-600").is_err());
        assert!(ResignAdjudication::parse("movecount=3,score=6x").is_err());
    }
}
