//! Adjudication: ending a game early when the engines agree on its result (cutechess-cli's `-draw` and
//! `-resign`), and the move cap (`--maxmoves`).
//!
//! The rules are cutechess-cli's (`projects/lib/src/gameadjudicator.cpp` and `ChessGame::onMoveMade` in
//! `projects/lib/src/chessgame.cpp`, repo cutechess/cutechess); `docs/adjudication.md` states them and names
//! where fastchess differs. In short, after each move a player chose:
//! - draw: the run of consecutive drawish plies restarts at a capture or pawn move (the halfmove clock is 0
//!   after the move) and after a move without a score; the game is drawn once `2 * movecount` plies in a row
//!   scored within `score` and `movenumber` full moves (plies / 2, book included) have been played;
//! - resign: the mover loses once its own last `movecount` scores were all at or below `-score` (with
//!   `twosided`, its opponent's last `movecount` scores must also all be at or above `score`); only the mover
//!   can lose by its own move;
//! - the move cap draws once the game's plies (book included) reach `2 * maxmoves`.
//!
//! The draw is checked first, then the resignation, then the move cap. Book moves carry no score and are not
//! fed here. Scores are the mover's own, in centipawns, with mates counted as very large
//! ([`EngineScore::as_cp`]); a mate score is never drawish.

use crate::chess::Color;
use crate::notation::kv::{KeyValueError, KeyValues};
use crate::player::EngineScore;

/// Draw adjudication, cutechess-cli's `-draw movenumber=N movecount=M score=S`: the game is drawn after a move
/// once at least `movenumber` full moves have been played (plies since the start position, book included,
/// divided by two) and the last `2 * movecount` plies (`movecount` moves of each side) were all scored within
/// `score` centipawns of zero by their movers, with no capture or pawn move among them (a capture or pawn move
/// restarts the run, itself counting) and no move without a score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrawAdjudication {
    /// Full moves that must have been played first (at least 1).
    pub movenumber: u32,
    /// Consecutive moves of each side (so twice as many plies) whose scores must be near zero (at least 1).
    pub movecount: u32,
    /// The largest |score| in centipawns that counts as drawish.
    pub score: i32,
}

impl DrawAdjudication {
    /// The keys of `--draw`.
    pub const KEYS: &[&str] = &["movenumber", "movecount", "score"];

    /// Parses `movenumber=N,movecount=N,score=CP` (all required; movenumber and movecount at least 1, score at
    /// least 0). `movenumber=0` is refused: cutechess-cli reads it as "no draw adjudication" and fastchess as
    /// "from the first move", so either reading would surprise someone; leave `--draw` out for the first.
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
        let mut kv = KeyValues::parse("draw", text, Self::KEYS)?;
        let movenumber: u32 = kv.require("movenumber", "a whole number of full moves, at least 1")?;
        if movenumber == 0 {
            return Err(kv.bad_value("movenumber", "a whole number of full moves, at least 1"));
        }
        let movecount: u32 = kv.require("movecount", "a whole number of moves per side, at least 1")?;
        if movecount == 0 {
            return Err(kv.bad_value("movecount", "a whole number of moves per side, at least 1"));
        }
        let score: i32 = kv.require("score", "centipawns, 0 or more")?;
        if score < 0 {
            return Err(kv.bad_value("score", "centipawns, 0 or more"));
        }
        Ok(DrawAdjudication { movenumber, movecount, score })
    }
}

/// Resign adjudication, cutechess-cli's `-resign movecount=N score=S [twosided=true]`: after its own move, a
/// side loses when its own score (from its own view, as it reported it with the move) has been at or below
/// `-score` for its last `movecount` moves. With `twosided`, its opponent must agree: the opponent's own score
/// must also have been at or above `score` for its last `movecount` moves. A move without a score restarts the
/// mover's runs. A mate score counts as beyond every threshold ([`EngineScore::as_cp`]): being mated is at or
/// below `-score`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
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
        let mut kv = KeyValues::parse("resign", text, Self::KEYS)?;
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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdjudicationRules {
    /// Draw adjudication, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw: Option<DrawAdjudication>,
    /// Resign adjudication, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resign: Option<ResignAdjudication>,
    /// Draw after a player's move once the game's plies (since the start position, book included) reach twice
    /// this; `None` for no cap.
    #[serde(default, skip_serializing_if = "Option::is_none")]
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
    /// Drawn by the move cap.
    MaxMoves,
}

/// One move a player chose, as the adjudicator reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    /// The side that played it.
    pub mover: Color,
    /// The score the mover reported with it, from its own view (`None` when it gave none).
    pub score: Option<EngineScore>,
    /// Plies of the game so far, this move and the book moves included.
    pub plies: usize,
    /// Whether the move cannot be undone: a capture or pawn move (the halfmove clock is 0 after it).
    pub irreversible: bool,
}

/// The adjudication state of one game: consecutive-score counts fed one player move at a time.
#[derive(Clone, Debug)]
pub struct Adjudicator {
    rules: AdjudicationRules,
    /// Consecutive drawish plies since the last irreversible or unscored move.
    drawish: u32,
    /// Per side, its consecutive own scores at or below `-score`.
    losing: [u32; 2],
    /// Per side, its consecutive own scores at or above `score`.
    winning: [u32; 2],
}

impl Adjudicator {
    /// A fresh state for one game under `rules`.
    pub fn new(rules: AdjudicationRules) -> Adjudicator {
        Adjudicator { rules, drawish: 0, losing: [0; 2], winning: [0; 2] }
    }

    /// Records a move a player chose (book moves are not recorded) and returns the adjudication if the game
    /// ends with it. The caller checks the rules of the game first: a mate or rule draw on this move stands.
    /// The draw is checked before the resignation, then the move cap (cutechess-cli's order).
    pub fn record(&mut self, played: PlayedMove) -> Option<Adjudicated> {
        let cp = played.score.map(EngineScore::as_cp);
        let side = played.mover.index();
        if played.irreversible || cp.is_none() {
            self.drawish = 0;
        }
        if let Some(draw) = self.rules.draw {
            // A mate score is never drawish (as in fastchess). `unsigned_abs` cannot overflow, even on a score
            // at the integer limit.
            let drawish =
                matches!(played.score, Some(EngineScore::Cp(cp)) if cp.unsigned_abs() <= draw.score.unsigned_abs());
            self.drawish = bump(self.drawish, drawish);
            if played.plies / 2 >= draw.movenumber as usize && self.drawish >= draw.movecount.saturating_mul(2) {
                return Some(Adjudicated::Draw);
            }
        }
        if let Some(resign) = self.rules.resign {
            self.losing[side] = bump(self.losing[side], cp.is_some_and(|cp| cp <= -resign.score));
            self.winning[side] = bump(self.winning[side], cp.is_some_and(|cp| cp >= resign.score));
            if self.losing[side] >= resign.movecount
                && (!resign.twosided || self.winning[played.mover.flip().index()] >= resign.movecount)
            {
                return Some(Adjudicated::Resign { loser: played.mover });
            }
        }
        if self.rules.maxmoves.is_some_and(|n| played.plies >= 2 * n as usize) {
            return Some(Adjudicated::MaxMoves);
        }
        None
    }
}

/// One more in a run of consecutive hits, or back to zero on a miss.
fn bump(count: u32, hit: bool) -> u32 {
    if hit { count.saturating_add(1) } else { 0 }
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

    /// Feeds alternating reversible moves with these scores (White first) starting after `first_ply` book
    /// plies; returns the ply of the adjudication and what it was.
    fn feed(adj: &mut Adjudicator, first_ply: usize, scores: &[Option<EngineScore>]) -> Option<(usize, Adjudicated)> {
        let moves: Vec<(Option<EngineScore>, bool)> = scores.iter().map(|&s| (s, false)).collect();
        feed_moves(adj, first_ply, &moves)
    }

    /// [`feed`] with each move's irreversibility given.
    fn feed_moves(
        adj: &mut Adjudicator,
        first_ply: usize,
        moves: &[(Option<EngineScore>, bool)],
    ) -> Option<(usize, Adjudicated)> {
        for (i, &(score, irreversible)) in moves.iter().enumerate() {
            let mover = if (first_ply + i).is_multiple_of(2) { White } else { Black };
            let plies = first_ply + i + 1;
            if let Some(a) = adj.record(PlayedMove { mover, score, plies, irreversible }) {
                return Some((plies, a));
            }
        }
        None
    }

    fn cp(v: i32) -> Option<EngineScore> {
        Some(EngineScore::Cp(v))
    }

    #[test]
    fn draw_needs_the_move_number_and_movecount_moves_of_each_side() {
        let mut adj = Adjudicator::new(rules("movenumber=10,movecount=2,score=5", ""));
        // From ply 0: four drawish plies, but 10 full moves are only reached at ply 20.
        let scores = vec![cp(3); 30];
        assert_eq!(feed(&mut adj, 0, &scores), Some((20, Adjudicated::Draw)));

        // movecount=2 is four plies in a row, not two.
        let mut adj = Adjudicator::new(rules("movenumber=1,movecount=2,score=5", ""));
        assert_eq!(feed(&mut adj, 0, &[cp(3), cp(-5), cp(6), cp(0), cp(1), cp(-2)]), None);
        let mut adj = Adjudicator::new(rules("movenumber=1,movecount=2,score=5", ""));
        assert_eq!(
            feed(&mut adj, 0, &[cp(3), cp(-5), cp(6), cp(0), cp(1), cp(-2), cp(5)]),
            Some((7, Adjudicated::Draw))
        );
        // A move without a score breaks the run.
        let mut adj = Adjudicator::new(rules("movenumber=1,movecount=1,score=5", ""));
        assert_eq!(feed(&mut adj, 0, &[cp(0), None, cp(0), cp(0)]), Some((4, Adjudicated::Draw)));
        // Book plies count towards the move number.
        let mut adj = Adjudicator::new(rules("movenumber=10,movecount=1,score=5", ""));
        assert_eq!(feed(&mut adj, 16, &[cp(0), cp(0), cp(0), cp(0)]), Some((20, Adjudicated::Draw)));
        // A mate score is never drawish, whatever the window.
        let mut adj = Adjudicator::new(rules("movenumber=1,movecount=1,score=1000000", ""));
        assert_eq!(
            feed(&mut adj, 0, &[cp(0), Some(EngineScore::Mate(-3)), cp(0), cp(0)]),
            Some((4, Adjudicated::Draw))
        );
    }

    #[test]
    fn draw_run_restarts_at_a_capture_or_pawn_move() {
        // The irreversible move itself counts as the first of a new run (cutechess resets before adding its
        // score, fastchess on a halfmove clock of 0).
        let mut adj = Adjudicator::new(rules("movenumber=1,movecount=2,score=5", ""));
        let moves = [(cp(0), false), (cp(0), false), (cp(0), false), (cp(0), true), (cp(0), false), (cp(0), false)];
        assert_eq!(feed_moves(&mut adj, 0, &moves), None);
        assert_eq!(
            adj.record(PlayedMove { mover: White, score: cp(0), plies: 7, irreversible: false }),
            Some(Adjudicated::Draw)
        );
    }

    #[test]
    fn resign_twosided_needs_both_sides_to_agree_and_the_loser_to_move() {
        let mut adj = Adjudicator::new(rules("", "movecount=2,score=500,twosided=true"));
        // Black thinks it is lost, White does not agree yet.
        assert_eq!(feed(&mut adj, 0, &[cp(100), cp(-600), cp(499), cp(-700), cp(500), cp(-800)]), None);
        // White's next score completes its run of two, but only the mover can resign (cutechess-cli): the game
        // goes on until Black's own next move.
        assert_eq!(adj.record(PlayedMove { mover: White, score: cp(900), plies: 7, irreversible: false }), None);
        assert_eq!(
            adj.record(PlayedMove { mover: Black, score: cp(-900), plies: 8, irreversible: false }),
            Some(Adjudicated::Resign { loser: Black })
        );

        let mut adj = Adjudicator::new(rules("", "movecount=1,score=500,twosided=true"));
        assert_eq!(feed(&mut adj, 0, &[cp(500), cp(-500)]), Some((2, Adjudicated::Resign { loser: Black })));
        // A mate score is beyond every threshold, read from the mover's view: +M3 for White, -M2 for Black.
        let mut adj = Adjudicator::new(rules("", "movecount=1,score=500,twosided=true"));
        assert_eq!(
            feed(&mut adj, 0, &[Some(EngineScore::Mate(3)), Some(EngineScore::Mate(-2))]),
            Some((2, Adjudicated::Resign { loser: Black }))
        );
        // An interrupted run starts again.
        let mut adj = Adjudicator::new(rules("", "movecount=2,score=500,twosided=true"));
        assert_eq!(feed(&mut adj, 0, &[cp(600), cp(-600), cp(600), cp(-100), cp(600), cp(-600)]), None);
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
        // A mate against the mover is enough.
        let mut adj = Adjudicator::new(rules("", "movecount=1,score=500"));
        assert_eq!(feed(&mut adj, 0, &[Some(EngineScore::Mate(0))]), Some((1, Adjudicated::Resign { loser: White })));
        // A winning score is not a losing one: +M2 for White never makes White resign.
        let mut adj = Adjudicator::new(rules("", "movecount=1,score=500"));
        assert_eq!(feed(&mut adj, 0, &[Some(EngineScore::Mate(2)), cp(0), cp(10_000)]), None);
        // A move without a score restarts the mover's run.
        let mut adj = Adjudicator::new(rules("", "movecount=2,score=500"));
        assert_eq!(feed(&mut adj, 0, &[cp(-600), cp(0), None, cp(0), cp(-600), cp(0)]), None);
    }

    #[test]
    fn draw_is_checked_before_resign() {
        let mut adj = Adjudicator::new(rules("movenumber=1,movecount=1,score=1000", "movecount=1,score=600"));
        assert_eq!(feed(&mut adj, 0, &[cp(700), cp(-700)]), Some((2, Adjudicated::Draw)));
    }

    #[test]
    fn max_moves_counts_book_plies_and_ends_after_a_players_move() {
        let rules = AdjudicationRules { maxmoves: Some(3), ..AdjudicationRules::default() };
        let mut adj = Adjudicator::new(rules);
        assert_eq!(feed(&mut adj, 0, &[cp(0); 5]), None);
        assert_eq!(
            adj.record(PlayedMove { mover: Black, score: None, plies: 6, irreversible: true }),
            Some(Adjudicated::MaxMoves)
        );
        // A book longer than the cap: the first player move ends the game.
        let mut adj = Adjudicator::new(rules);
        assert_eq!(feed(&mut adj, 10, &[cp(0)]), Some((11, Adjudicated::MaxMoves)));
        let mut adj = Adjudicator::new(AdjudicationRules::default());
        assert_eq!(feed(&mut adj, 0, &vec![cp(0); 1000]), None);
    }

    #[test]
    fn options_parse_with_clear_errors() {
        assert_eq!(
            DrawAdjudication::parse("movenumber=40,movecount=8,score=10"),
            Ok(DrawAdjudication { movenumber: 40, movecount: 8, score: 10 })
        );
        let err = DrawAdjudication::parse("movenumber=40,movecount=8").unwrap_err();
        assert_eq!(err.to_string(), "draw: missing key `score`");
        let err = DrawAdjudication::parse("movenumber=40,movecount=0,score=3").unwrap_err();
        assert!(err.to_string().contains("movecount=\"0\""), "{err}");
        let err = DrawAdjudication::parse("movenumber=0,movecount=3,score=3").unwrap_err();
        assert!(err.to_string().contains("movenumber=\"0\"") && err.to_string().contains("at least 1"), "{err}");
        let err = ResignAdjudication::parse("movecount=3,score=600,both=true").unwrap_err();
        assert_eq!(err.to_string(), "resign: unknown key `both`, expected one of: movecount, score, twosided");
        assert_eq!(
            ResignAdjudication::parse("movecount=3,score=600,twosided=true"),
            Ok(ResignAdjudication { movecount: 3, score: 600, twosided: true })
        );
        let err = ResignAdjudication::parse("movecount=3,score=600,twosided=yes").unwrap_err();
        assert_eq!(err.to_string(), "resign: twosided=\"yes\" is not valid, expected true or false");
        assert!(ResignAdjudication::parse("movecount=3,score=-600").is_err());
        assert!(ResignAdjudication::parse("movecount=3,score=6x").is_err());
    }
}
