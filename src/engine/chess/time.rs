//! Time management: turns UCI `go` limits into a soft limit (no new iteration starts after it) and a hard
//! limit (the search stops as soon as it notices it has passed, checking the clock every 1024 nodes).
//!
//! With a clock (`wtime`/`btime`, optional increments and `movestogo`) the side to move spends about its
//! remaining time over the moves still to play plus most of its increment (the usual scheme of the
//! chessprogramming wiki, "Time Management"):
//!
//! ```text
//! usable = remaining - min(50 ms, remaining / 2)        (process and GUI overhead)
//! soft   = min(usable / movestogo + inc * 3/4, usable / 2)   (movestogo defaults to 30)
//! hard   = max(soft, min(soft * 4, usable / 4))
//! ```
//!
//! A `movetime` gives `hard = movetime - min(50 ms, movetime / 20)` and `soft = hard / 2`. With both, the
//! smaller limits win. `infinite` (and a search with no time limit) has neither.

use super::search::Limits;
use crate::chess::Color;
use std::time::Duration;

/// The overhead kept back from every time limit for process start-up, pipes and the GUI, in ms.
pub const MOVE_OVERHEAD_MS: u64 = 50;

/// The number of moves still to play assumed when the clock does not say (`movestogo` absent).
pub const DEFAULT_MOVES_TO_GO: u64 = 30;

/// The time a search may spend: both limits are measured from the start of the search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeBudget {
    /// No new iteration starts after this much time (`None`: no soft limit).
    pub soft: Option<Duration>,
    /// The search stops once it notices this much time has passed (`None`: no hard limit).
    pub hard: Option<Duration>,
}

impl TimeBudget {
    /// The budget for `limits` with `side` to move; no limits at all when `limits.infinite` is set.
    pub fn new(limits: &Limits, side: Color) -> TimeBudget {
        if limits.infinite {
            return TimeBudget::default();
        }
        let mut budget = TimeBudget::default();
        if let Some(ms) = limits.go.movetime_ms {
            let hard = ms - (ms / 20).min(MOVE_OVERHEAD_MS);
            budget = budget.tighten(hard / 2, hard);
        }
        let (time, inc) = match side {
            Color::White => (limits.go.wtime_ms, limits.go.winc_ms),
            Color::Black => (limits.go.btime_ms, limits.go.binc_ms),
        };
        if let Some(remaining) = time {
            let usable = remaining - MOVE_OVERHEAD_MS.min(remaining / 2);
            let moves_to_go = limits.go.movestogo.map_or(DEFAULT_MOVES_TO_GO, |m| u64::from(m.max(1)));
            let inc = inc.unwrap_or(0);
            let soft = (usable / moves_to_go).saturating_add(inc / 4 * 3).min(usable / 2);
            let hard = soft.saturating_mul(4).min(usable / 4).max(soft);
            budget = budget.tighten(soft, hard);
        }
        budget
    }

    /// This budget with both limits lowered to at most `soft_ms` and `hard_ms` milliseconds.
    fn tighten(self, soft_ms: u64, hard_ms: u64) -> TimeBudget {
        let soft = Duration::from_millis(soft_ms);
        let hard = Duration::from_millis(hard_ms);
        TimeBudget {
            soft: Some(self.soft.map_or(soft, |s| s.min(soft))),
            hard: Some(self.hard.map_or(hard, |h| h.min(hard))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::GoLimits;

    fn ms(budget: TimeBudget) -> (Option<u128>, Option<u128>) {
        (budget.soft.map(|d| d.as_millis()), budget.hard.map(|d| d.as_millis()))
    }

    #[test]
    fn clock_limits() {
        // 60 s + 1 s: usable 59 950 ms; soft = 59 950 / 30 + 750 = 2 748; hard = min(10 992, 14 987).
        let limits = Limits {
            go: GoLimits { wtime_ms: Some(60_000), winc_ms: Some(1_000), btime_ms: Some(1), ..GoLimits::default() },
            ..Limits::default()
        };
        assert_eq!(ms(TimeBudget::new(&limits, Color::White)), (Some(2_748), Some(10_992)));
        // Black has 1 ms: usable 1 ms, soft 0, hard 0.
        assert_eq!(ms(TimeBudget::new(&limits, Color::Black)), (Some(0), Some(0)));
        // One move to the control: at most half of what is left.
        let limits = Limits {
            go: GoLimits { wtime_ms: Some(1_050), movestogo: Some(1), ..GoLimits::default() },
            ..Limits::default()
        };
        assert_eq!(ms(TimeBudget::new(&limits, Color::White)), (Some(500), Some(500)));
    }

    #[test]
    fn movetime_infinite_and_none() {
        let limits = Limits { go: GoLimits { movetime_ms: Some(1_000), ..GoLimits::default() }, ..Limits::default() };
        assert_eq!(ms(TimeBudget::new(&limits, Color::White)), (Some(475), Some(950)));
        let limits = Limits { go: GoLimits { movetime_ms: Some(30), ..GoLimits::default() }, ..Limits::default() };
        assert_eq!(ms(TimeBudget::new(&limits, Color::Black)), (Some(14), Some(29)));
        let both = Limits {
            go: GoLimits { movetime_ms: Some(1_000), wtime_ms: Some(2_000), ..GoLimits::default() },
            ..Limits::default()
        };
        assert_eq!(ms(TimeBudget::new(&both, Color::White)), (Some(65), Some(260)));
        let infinite = Limits {
            go: GoLimits { movetime_ms: Some(10), ..GoLimits::default() },
            infinite: true,
            ..Limits::default()
        };
        assert_eq!(TimeBudget::new(&infinite, Color::White), TimeBudget::default());
        assert_eq!(
            TimeBudget::new(
                &Limits { go: GoLimits { depth: Some(3), ..GoLimits::default() }, ..Limits::default() },
                Color::White
            ),
            TimeBudget::default()
        );
    }
}
