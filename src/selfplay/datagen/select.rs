//! Which searched positions datagen writes: rules 2 to 4 of [`super`]'s module docs ([`select`]), and the
//! counts of the positions skipped, by reason ([`Skipped`]).

use crate::chess::{Move, MoveKind, Position};

/// What to do with a position whose searched best move is a capture or promotion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SelectMode {
    /// Skip it: only positions whose best move is quiet are written.
    Quiet,
    /// Write its quiescence leaf instead (see the module docs).
    QLeaf,
}

impl SelectMode {
    /// The mode as `--select` spells it (`quiet`, `qleaf`).
    pub fn name(self) -> &'static str {
        match self {
            SelectMode::Quiet => "quiet",
            SelectMode::QLeaf => "qleaf",
        }
    }
}

/// Why a candidate position was not written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SkipReason {
    /// The opening position.
    Book,
    /// Its search, or an earlier one of the game, returned a mate score.
    Decided,
    /// The side to move is in check.
    InCheck,
    /// The best move is a capture or promotion (`--select quiet`).
    Tactical,
    /// Its score is outside `--max-score`.
    ScoreWindow,
    /// The quiescence leaf's side to move is in check (`--select qleaf`).
    LeafInCheck,
    /// A position with the same key was written before.
    Duplicate,
}

/// Candidate positions skipped, by reason.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Skipped {
    /// The opening positions.
    pub book: u64,
    /// From the first mate score of a game on.
    pub decided: u64,
    /// Side to move in check.
    pub in_check: u64,
    /// Best move a capture or promotion (`quiet`).
    pub tactical: u64,
    /// Quiescence leaf in check (`qleaf`).
    pub leaf_in_check: u64,
    /// Score beyond `--max-score`.
    #[serde(default)]
    pub score_window: u64,
    /// Seen before in this run.
    pub duplicate: u64,
}

impl Skipped {
    /// Counts one position skipped for `reason`.
    pub fn add(&mut self, reason: SkipReason) {
        match reason {
            SkipReason::Book => self.book += 1,
            SkipReason::Decided => self.decided += 1,
            SkipReason::InCheck => self.in_check += 1,
            SkipReason::Tactical => self.tactical += 1,
            SkipReason::LeafInCheck => self.leaf_in_check += 1,
            SkipReason::ScoreWindow => self.score_window += 1,
            SkipReason::Duplicate => self.duplicate += 1,
        }
    }

    /// Adds every count of `other`.
    pub fn merge(&mut self, other: &Skipped) {
        self.book = self.book.saturating_add(other.book);
        self.decided = self.decided.saturating_add(other.decided);
        self.in_check = self.in_check.saturating_add(other.in_check);
        self.tactical = self.tactical.saturating_add(other.tactical);
        self.leaf_in_check = self.leaf_in_check.saturating_add(other.leaf_in_check);
        self.score_window = self.score_window.saturating_add(other.score_window);
        self.duplicate = self.duplicate.saturating_add(other.duplicate);
    }

    /// All skipped positions (at most `u64::MAX`).
    pub fn total(&self) -> u64 {
        self.checked_total().unwrap_or(u64::MAX)
    }

    /// All skipped positions, or `None` when the counts add up past `u64::MAX` (a damaged resume record).
    pub fn checked_total(&self) -> Option<u64> {
        [self.book, self.decided, self.in_check, self.tactical, self.leaf_in_check, self.score_window, self.duplicate]
            .iter()
            .try_fold(0u64, |sum, &n| sum.checked_add(n))
    }
}

/// What [`select`] decides for a searched position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Selection {
    /// Write `position`: the searched position itself (`pv_plies` 0) or its quiescence leaf, reached after
    /// `pv_plies` moves of the principal variation.
    Keep {
        /// The position to write (boxed: a position is large beside a skip reason).
        position: Box<Position>,
        /// How many PV moves lead from the searched position to it.
        pv_plies: usize,
    },
    /// Do not write it.
    Skip(SkipReason),
}

/// True when `m` captures (en passant included) or promotes in `pos`.
fn is_tactical(pos: &Position, m: Move) -> bool {
    m.kind() == MoveKind::Promotion || pos.captured_piece(m).is_some()
}

/// Decides whether the searched position `pos`, whose search chose `best` with the principal variation `pv`
/// and a mate score when `mate`, is written, by rules 2 to 4 of the module docs, in that order: a mate score
/// gives [`SkipReason::Decided`] (the caller skips the rest of the game too), a side to move in check
/// [`SkipReason::InCheck`], a capture or promotion as best move [`SkipReason::Tactical`] under
/// [`SelectMode::Quiet`], and under [`SelectMode::QLeaf`] the quiescence leaf (the position after the PV's
/// leading captures and promotions), or [`SkipReason::LeafInCheck`] when its side to move is in check. A PV
/// that does not start with `best` is taken as that move alone.
pub fn select(pos: &Position, best: Move, pv: &[Move], mate: bool, mode: SelectMode) -> Selection {
    if mate {
        return Selection::Skip(SkipReason::Decided);
    }
    if pos.in_check() {
        return Selection::Skip(SkipReason::InCheck);
    }
    if !is_tactical(pos, best) {
        return Selection::Keep { position: Box::new(pos.clone()), pv_plies: 0 };
    }
    if mode == SelectMode::Quiet {
        return Selection::Skip(SkipReason::Tactical);
    }
    let alone = [best];
    let pv = if pv.first() == Some(&best) { pv } else { &alone[..] };
    let mut leaf = pos.clone();
    let mut pv_plies = 0;
    for &m in pv {
        // An external engine's PV is untrusted: it ends at its first move that is not legal here.
        if !leaf.is_legal(m) || !is_tactical(&leaf, m) {
            break;
        }
        leaf.make_move(m);
        pv_plies += 1;
    }
    if leaf.in_check() {
        return Selection::Skip(SkipReason::LeafInCheck);
    }
    Selection::Keep { position: Box::new(leaf), pv_plies }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::GoLimits;
    use crate::engine::chess::search::{SearchResult, is_mate_score};
    use crate::engine::chess::{Engine, EngineConfig, Limits};

    fn select(pos: &Position, result: &SearchResult, mode: SelectMode) -> Selection {
        super::select(pos, result.best_move, &result.pv, is_mate_score(result.score), mode)
    }

    fn search(fen: &str, nodes: u64) -> (Position, SearchResult) {
        let pos = Position::from_fen(fen).unwrap();
        let mut engine = Engine::new(EngineConfig::seed());
        let result = engine.search(
            &pos,
            &[pos.key()],
            &Limits { go: GoLimits { nodes: Some(nodes), ..GoLimits::default() }, ..Limits::default() },
        );
        (pos, result)
    }

    #[test]
    fn hanging_queen_is_skipped_when_quiet_and_resolved_when_qleaf() {
        // The knight takes the queen, the pawn takes back: the leaf is the position after e6xd5.
        let (pos, result) = search("6k1/5ppp/4p3/3q4/8/2N5/5PPP/6K1 w - - 0 1", 2000);
        assert_eq!(result.best_move.to_string(), "c3d5");
        assert_eq!(select(&pos, &result, SelectMode::Quiet), Selection::Skip(SkipReason::Tactical));
        let Selection::Keep { position, pv_plies } = select(&pos, &result, SelectMode::QLeaf) else {
            panic!("the leaf is not in check: {result:?}");
        };
        assert_eq!((position.to_fen().as_str(), pv_plies), ("6k1/5ppp/8/3p4/8/8/5PPP/6K1 w - - 0 2", 2));
        // A quiet best move keeps the position itself in both modes.
        let (pos, result) = search("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", 2000);
        assert_eq!(result.best_move.to_string(), "a1a8");
        assert_eq!(select(&pos, &result, SelectMode::Quiet), Selection::Skip(SkipReason::Decided));
        let (pos, result) = search("6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1", 500);
        let keep = Selection::Keep { position: Box::new(pos.clone()), pv_plies: 0 };
        assert_eq!(select(&pos, &result, SelectMode::Quiet), keep);
        assert_eq!(select(&pos, &result, SelectMode::QLeaf), keep);
    }

    #[test]
    fn check_and_leaf_in_check_are_skipped() {
        let (pos, result) = search("4k3/8/8/8/8/8/8/r3K2R w - - 0 1", 500);
        assert_eq!(select(&pos, &result, SelectMode::QLeaf), Selection::Skip(SkipReason::InCheck));
        // A hand-made PV: Rxd8+ leaves Black in check.
        let pos = Position::from_fen("3q2k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1").unwrap();
        let m = pos.legal_moves().iter().copied().find(|m| m.to_string() == "d1d8").unwrap();
        let result = SearchResult { best_move: m, score: 900, depth: 1, nodes: 1, pv: vec![m] };
        assert_eq!(select(&pos, &result, SelectMode::QLeaf), Selection::Skip(SkipReason::LeafInCheck));
        assert_eq!(select(&pos, &result, SelectMode::Quiet), Selection::Skip(SkipReason::Tactical));
    }
}
