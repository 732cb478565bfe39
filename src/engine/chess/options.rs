//! Search features that an engine build can switch off, so that a match can measure each one's Elo.

/// Which search features are on. Every switch defaults to on; a config's `[search]` table may turn any off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SearchOptions {
    /// Aspiration windows around the previous iteration's score.
    pub aspiration: bool,
    /// Null-move pruning.
    pub null_move: bool,
    /// Late move reductions.
    pub lmr: bool,
    /// Futility pruning near the leaves.
    pub futility: bool,
    /// Delta pruning in the quiescence search.
    pub delta_pruning: bool,
    /// Static exchange evaluation in move ordering (losing captures after quiet moves) and quiescence.
    pub see: bool,
    /// Killer moves in ordering.
    pub killers: bool,
    /// The history heuristic in ordering.
    pub history: bool,
    /// One extra ply for moves that give check.
    pub check_extension: bool,
}

impl SearchOptions {
    /// Every switch with its TOML key, in the order a config lists them.
    pub const KEYS: [&'static str; 9] =
        ["aspiration", "null_move", "lmr", "futility", "delta_pruning", "see", "killers", "history", "check_extension"];

    /// The switch named by a TOML key (one of [`SearchOptions::KEYS`]), mutable; `None` for other names.
    pub fn switch_mut(&mut self, key: &str) -> Option<&mut bool> {
        Some(match key {
            "aspiration" => &mut self.aspiration,
            "null_move" => &mut self.null_move,
            "lmr" => &mut self.lmr,
            "futility" => &mut self.futility,
            "delta_pruning" => &mut self.delta_pruning,
            "see" => &mut self.see,
            "killers" => &mut self.killers,
            "history" => &mut self.history,
            "check_extension" => &mut self.check_extension,
            _ => return None,
        })
    }

    /// The value of the switch named by a TOML key; `None` for other names.
    pub fn switch(&self, key: &str) -> Option<bool> {
        let mut copy = *self;
        copy.switch_mut(key).map(|b| *b)
    }
}

impl Default for SearchOptions {
    /// Every feature on.
    fn default() -> Self {
        SearchOptions {
            aspiration: true,
            null_move: true,
            lmr: true,
            futility: true,
            delta_pruning: true,
            see: true,
            killers: true,
            history: true,
            check_extension: true,
        }
    }
}
