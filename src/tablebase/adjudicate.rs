//! Tablebase adjudication (cutechess-cli's and fastchess's `-tb`): a game whose position after a move is in
//! the tables ends with the tables' result, under the 50-move rule unless `--tbignore50`.
//!
//! The 50-move rule is applied exactly, never guessed (`docs/tablebases.md`):
//! - with `--tbignore50`, a cursed win counts as a win and a blessed loss as a loss, at any halfmove clock
//!   (cutechess-cli's `-tbignore50`, `projects/lib/src/board/syzygytablebase.cpp`);
//! - otherwise, right after a capture or pawn move (halfmove clock 0) the WDL value is exact: a win is a win,
//!   a cursed win or blessed loss a draw (fastchess probes only there, `app/src/matchmaking/syzygy.cpp`);
//! - later in a reversible stretch, a draw, cursed win or blessed loss stays a draw (the clock can only take
//!   a win away), and a win or loss is decided by the DTZ `n` and the clock `c`: the Syzygy format may store
//!   `n` one ply short of the true distance, so the win stands when `c + n <= 99`, is lost to the 50-move rule
//!   when `c + n >= 101`, and at `c + n = 100` the game plays on (the next zeroing move makes it exact).
//!   cutechess-cli takes `c + n <= 100` as a win, which can score a drawn game as won.

use super::{Probe, Tablebases, Wdl};
use crate::game::{GameResult, PieceSets};
use std::path::PathBuf;

/// Which results the tables may end a game with (fastchess's `-tbadjudicate`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TbAdjudicate {
    /// Wins, losses and draws (the default).
    #[default]
    Both,
    /// Only decisive results: a drawn position plays on.
    WinLoss,
    /// Only draws: a won position plays on.
    Draw,
}

impl TbAdjudicate {
    /// The names `--tbadjudicate` takes.
    pub const NAMES: &[&str] = &["both", "win-loss", "draw"];

    /// The mode named `name` (`both`, `win-loss`, `draw`; also fastchess's `WIN_LOSS` and `DRAW` spellings).
    pub fn parse(name: &str) -> Option<TbAdjudicate> {
        match name.to_ascii_lowercase().replace('_', "-").as_str() {
            "both" => Some(TbAdjudicate::Both),
            "win-loss" => Some(TbAdjudicate::WinLoss),
            "draw" => Some(TbAdjudicate::Draw),
            _ => None,
        }
    }
}

/// The tablebase settings of a match, as its plan records them.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TablebasePlan {
    /// The table folders, searched in order (`--tb PATH[:PATH...]`).
    pub paths: Vec<PathBuf>,
    /// Adjudicate only positions with at most this many pieces, kings included (`--tbpieces`); `None` for the
    /// largest tables found.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pieces: Option<u32>,
    /// Score cursed wins and blessed losses as wins and losses (`--tbignore50`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ignore50: bool,
    /// Which results to adjudicate (`--tbadjudicate`).
    #[serde(default, skip_serializing_if = "is_both")]
    pub adjudicate: TbAdjudicate,
}

fn is_both(mode: &TbAdjudicate) -> bool {
    *mode == TbAdjudicate::Both
}

impl TablebasePlan {
    /// Opens the tables.
    ///
    /// # Errors
    /// The [`super::TablebaseError`] of [`Tablebases::open`].
    pub fn open(&self) -> Result<TablebaseAdjudicator, super::TablebaseError> {
        let tables = Tablebases::open(&self.paths)?;
        Ok(TablebaseAdjudicator { pieces: self.pieces.unwrap_or(tables.largest()), tables, plan: self.clone() })
    }
}

/// A game's end by the tables: the result and the comment for the PGN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TbVerdict {
    /// The result.
    pub result: GameResult,
    /// What the tables said, for the PGN comment: `tablebase adjudication: win for White (Black to move: WDL
    /// loss, halfmove clock 0)`.
    pub comment: String,
}

/// Opened tables with the match's settings: asked after every player's move.
#[derive(Clone, Debug)]
pub struct TablebaseAdjudicator {
    tables: Tablebases,
    pieces: u32,
    plan: TablebasePlan,
}

impl PartialEq for TablebaseAdjudicator {
    fn eq(&self, other: &TablebaseAdjudicator) -> bool {
        self.plan == other.plan
    }
}

impl Eq for TablebaseAdjudicator {}

impl TablebaseAdjudicator {
    /// The same tables with `--tbignore50` set as `ignore50` says (no second check of the files).
    pub fn with_ignore50(&self, ignore50: bool) -> TablebaseAdjudicator {
        let plan = TablebasePlan { ignore50, ..self.plan.clone() };
        TablebaseAdjudicator { tables: self.tables.clone(), pieces: self.pieces, plan }
    }

    /// The tables.
    pub fn tables(&self) -> &Tablebases {
        &self.tables
    }

    /// The largest number of pieces adjudicated.
    pub fn pieces(&self) -> u32 {
        self.pieces
    }

    /// The game's result if the tables decide it at `position`; `None` to play on (too many pieces, castling
    /// rights, no table, a result this mode does not adjudicate, or a win the 50-move rule leaves open).
    pub fn verdict(&self, position: &PieceSets) -> Option<TbVerdict> {
        if position.count() > self.pieces {
            return None;
        }
        let probe = self.tables.probe(position)?;
        let (mover_score, why) = decide(probe, position.halfmove_clock, self.plan.ignore50)?;
        let mover = if position.white_to_move { crate::game::Color::White } else { crate::game::Color::Black };
        let result = match mover_score {
            Outcome::Win => GameResult::win_for(mover),
            Outcome::Loss => GameResult::win_for(mover.flip()),
            Outcome::Draw => GameResult::Draw,
        };
        let allowed = match self.plan.adjudicate {
            TbAdjudicate::Both => true,
            TbAdjudicate::WinLoss => result != GameResult::Draw,
            TbAdjudicate::Draw => result == GameResult::Draw,
        };
        let kind = match result {
            GameResult::WhiteWins => "win for White",
            GameResult::BlackWins => "win for Black",
            GameResult::Draw => "draw",
        };
        let to_move = if position.white_to_move { "White" } else { "Black" };
        let comment = format!("tablebase adjudication: {kind} ({to_move} to move: {why})");
        allowed.then_some(TbVerdict { result, comment })
    }
}

/// A result from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The side to move wins.
    Win,
    /// A draw.
    Draw,
    /// The side to move loses.
    Loss,
}

/// The result, from the side to move's view, that `probe` gives at halfmove clock `clock`, with the reason for
/// the PGN comment; `None` when the 50-move rule leaves it open (see the module docs).
pub fn decide(probe: Probe, clock: u32, ignore50: bool) -> Option<(Outcome, String)> {
    let wdl = probe.wdl;
    let at = |what: String| format!("{what}, halfmove clock {clock}");
    if ignore50 {
        let outcome = match wdl {
            Wdl::Win | Wdl::CursedWin => Outcome::Win,
            Wdl::Draw => Outcome::Draw,
            Wdl::Loss | Wdl::BlessedLoss => Outcome::Loss,
        };
        return Some((outcome, format!("WDL {}, 50-move rule ignored", wdl.name())));
    }
    match wdl {
        Wdl::Draw | Wdl::CursedWin | Wdl::BlessedLoss => Some((Outcome::Draw, at(format!("WDL {}", wdl.name())))),
        Wdl::Win | Wdl::Loss if clock == 0 => {
            let outcome = if wdl == Wdl::Win { Outcome::Win } else { Outcome::Loss };
            Some((outcome, at(format!("WDL {}", wdl.name()))))
        }
        Wdl::Win | Wdl::Loss => {
            let n = probe.dtz?.unsigned_abs();
            let reach = clock.saturating_add(n);
            let why = at(format!("WDL {}, DTZ {}", wdl.name(), probe.dtz?));
            if reach <= 99 {
                Some((if wdl == Wdl::Win { Outcome::Win } else { Outcome::Loss }, why))
            } else if reach >= 101 {
                Some((Outcome::Draw, format!("{why}: the 50-move rule comes first")))
            } else {
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn probe(wdl: Wdl, dtz: Option<i32>) -> Probe {
        Probe { wdl, dtz }
    }

    #[test]
    fn the_fifty_move_rule_decides_only_where_it_is_exact() {
        let win = |clock, dtz| decide(probe(Wdl::Win, dtz), clock, false).map(|d| d.0);
        // At clock 0 the WDL value is exact, DTZ or not.
        assert_eq!(win(0, None), Some(Outcome::Win));
        assert_eq!(decide(probe(Wdl::Loss, None), 0, false).map(|d| d.0), Some(Outcome::Loss));
        // Later a win needs the DTZ.
        assert_eq!(win(10, None), None);
        assert_eq!(win(40, Some(59)), Some(Outcome::Win));
        // The stored DTZ may be one short: at clock + DTZ = 100 the win is open, so the game plays on.
        assert_eq!(win(41, Some(59)), None);
        assert_eq!(win(42, Some(59)), Some(Outcome::Draw));
        assert_eq!(decide(probe(Wdl::Loss, Some(-30)), 80, false).map(|d| d.0), Some(Outcome::Draw));
        assert_eq!(decide(probe(Wdl::Loss, Some(-30)), 69, false).map(|d| d.0), Some(Outcome::Loss));
        // Cursed wins and blessed losses are draws at any clock, wins and losses with --tbignore50.
        for clock in [0, 37] {
            assert_eq!(decide(probe(Wdl::CursedWin, Some(120)), clock, false).map(|d| d.0), Some(Outcome::Draw));
            assert_eq!(decide(probe(Wdl::BlessedLoss, Some(-120)), clock, false).map(|d| d.0), Some(Outcome::Draw));
            assert_eq!(decide(probe(Wdl::CursedWin, Some(120)), clock, true).map(|d| d.0), Some(Outcome::Win));
            assert_eq!(decide(probe(Wdl::BlessedLoss, None), clock, true).map(|d| d.0), Some(Outcome::Loss));
            assert_eq!(decide(probe(Wdl::Win, None), clock, true).map(|d| d.0), Some(Outcome::Win));
        }
    }

    #[test]
    fn adjudicate_modes_parse_as_fastchess_spells_them() {
        assert_eq!(TbAdjudicate::parse("WIN_LOSS"), Some(TbAdjudicate::WinLoss));
        assert_eq!(TbAdjudicate::parse("draw"), Some(TbAdjudicate::Draw));
        assert_eq!(TbAdjudicate::parse("both"), Some(TbAdjudicate::Both));
        assert_eq!(TbAdjudicate::parse("some"), None);
    }
}
