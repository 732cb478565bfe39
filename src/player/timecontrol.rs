//! Time controls and the clocks the runner keeps: `tc=40/60+0.6` (40 moves in 60 s, 0.6 s increment),
//! `tc=10+0.1`, `tc=5` (sudden death), as cutechess-cli and fastchess write them.
//!
//! The runner measures each move from the moment it asks the player (`go` sent) to the moment the move comes
//! back (`bestmove` read), subtracts it from the mover's clock, and only then adds the increment; a mover whose
//! clock falls below `-timemargin` has overrun and loses on time. With a move count, the base time is added again
//! each time a period's moves are played (a classical repeating control).

use std::fmt;
use thiserror::Error;

/// A time control: `moves` moves (or the whole game) in `base_ms` milliseconds, plus `inc_ms` per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeControl {
    /// Moves per period (`40` in `40/60+0.6`); `None` for the whole game (sudden death, with increment).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moves: Option<u32>,
    /// Time per period, in milliseconds.
    #[serde(with = "crate::notation::wide")]
    pub base_ms: u64,
    /// Increment per move, in milliseconds (added after the move).
    #[serde(with = "crate::notation::wide")]
    pub inc_ms: u64,
}

/// Why a time control text cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("time control {}: {reason}; expected [MOVES/]SECONDS[+INCREMENT] such as 40/60+0.6, 10+0.1 or 5", crate::notation::quote::shown(.text))]
pub struct TimeControlError {
    /// The text given.
    pub text: String,
    /// What is wrong.
    pub reason: String,
}

/// Seconds as a decimal number (`0.6`, `10`, `1:30` for minutes and seconds) to milliseconds.
fn seconds_to_ms(text: &str) -> Option<u64> {
    let (minutes, seconds) = match text.split_once(':') {
        Some((m, s)) => (m.parse::<u64>().ok()?, s),
        None => (0, text),
    };
    let value: f64 = seconds.parse().ok()?;
    if !(0.0..=1e9).contains(&value) {
        return None;
    }
    Some(minutes.checked_mul(60_000)? + (value * 1000.0).round() as u64)
}

impl TimeControl {
    /// Reads `[MOVES/]SECONDS[+INCREMENT]`; seconds may have decimals or be written `M:SS`.
    ///
    /// # Errors
    /// [`TimeControlError`] for anything else, a zero move count, or no time at all (base and increment 0).
    ///
    /// # Examples
    /// ```
    /// use arbiter::player::timecontrol::TimeControl;
    /// let tc = TimeControl::parse("40/60+0.6").unwrap();
    /// assert_eq!((tc.moves, tc.base_ms, tc.inc_ms), (Some(40), 60_000, 600));
    /// assert_eq!(TimeControl::parse("10+0.1").unwrap().to_string(), "10+0.1");
    /// assert_eq!(TimeControl::parse("1:30").unwrap().base_ms, 90_000);
    /// assert!(TimeControl::parse("0+0").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<TimeControl, TimeControlError> {
        let error = |reason: &str| TimeControlError { text: text.to_string(), reason: reason.to_string() };
        let trimmed = text.trim();
        let (moves, rest) = match trimmed.split_once('/') {
            Some((m, rest)) => {
                let moves: u32 = m.parse().map_err(|_| error("the move count is not a whole number"))?;
                if moves == 0 {
                    return Err(error("the move count must be at least 1"));
                }
                (Some(moves), rest)
            }
            None => (None, trimmed),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (b, Some(i)),
            None => (rest, None),
        };
        let base_ms = seconds_to_ms(base).ok_or_else(|| error("the base time is not a number of seconds"))?;
        let inc_ms = match inc {
            Some(i) => seconds_to_ms(i).ok_or_else(|| error("the increment is not a number of seconds"))?,
            None => 0,
        };
        if base_ms == 0 && inc_ms == 0 {
            return Err(error("no time at all"));
        }
        Ok(TimeControl { moves, base_ms, inc_ms })
    }
}

/// Milliseconds as seconds without trailing zeros: 600 -> `0.6`, 60000 -> `60`.
fn ms_text(ms: u64) -> String {
    let text = format!("{}.{:03}", ms / 1000, ms % 1000);
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

impl fmt::Display for TimeControl {
    /// Writes the cutechess form: `40/60+0.6`, `10+0.1`, `5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(moves) = self.moves {
            write!(f, "{moves}/")?;
        }
        write!(f, "{}", ms_text(self.base_ms))?;
        if self.inc_ms > 0 {
            write!(f, "+{}", ms_text(self.inc_ms))?;
        }
        Ok(())
    }
}

/// One side's clock during a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    tc: TimeControl,
    /// Time left in milliseconds; negative after an overrun.
    left_ms: i64,
    /// Moves this side has played in the current period.
    moves_in_period: u32,
}

impl Clock {
    /// A full clock for `tc`.
    pub fn new(tc: TimeControl) -> Clock {
        Clock { tc, left_ms: tc.base_ms as i64, moves_in_period: 0 }
    }

    /// The time control.
    pub fn control(&self) -> TimeControl {
        self.tc
    }

    /// Time left in milliseconds (negative after an overrun).
    pub fn left_ms(&self) -> i64 {
        self.left_ms
    }

    /// Moves to play until the next time control (the UCI `movestogo`), or `None` in sudden death.
    pub fn moves_to_go(&self) -> Option<u32> {
        self.tc.moves.map(|m| m - self.moves_in_period)
    }

    /// Charges a move that took `spent_ms` milliseconds; returns `false` when the clock fell below
    /// `-margin_ms` (the side lost on time; the clock is then left as it is). Otherwise adds the increment
    /// and, when the period's moves are played, the base time of the next period.
    pub fn charge(&mut self, spent_ms: u64, margin_ms: u64) -> bool {
        self.left_ms = self.left_ms.saturating_sub(i64::try_from(spent_ms).unwrap_or(i64::MAX));
        if self.left_ms < -(i64::try_from(margin_ms).unwrap_or(i64::MAX)) {
            return false;
        }
        self.left_ms = self.left_ms.max(0) + self.tc.inc_ms as i64;
        self.moves_in_period += 1;
        if self.tc.moves == Some(self.moves_in_period) {
            self.moves_in_period = 0;
            self.left_ms += self.tc.base_ms as i64;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_print() {
        for (text, moves, base, inc, shown) in [
            ("40/60+0.6", Some(40), 60_000, 600, "40/60+0.6"),
            ("10+0.1", None, 10_000, 100, "10+0.1"),
            ("5", None, 5_000, 0, "5"),
            ("0+0.05", None, 0, 50, "0+0.05"),
            ("2:30+1", None, 150_000, 1_000, "150+1"),
            ("40/120", Some(40), 120_000, 0, "40/120"),
            (" 1+0.01 ", None, 1_000, 10, "1+0.01"),
        ] {
            let tc = TimeControl::parse(text).unwrap();
            assert_eq!((tc.moves, tc.base_ms, tc.inc_ms), (moves, base, inc), "{text}");
            assert_eq!(tc.to_string(), shown);
        }
        for bad in ["", "x", "0/60", "40/", "-1", "10+", "10+x", "0", "1e99", "nan", "40/60/1"] {
            let err = TimeControl::parse(bad).unwrap_err();
            assert!(err.to_string().starts_with(&format!("time control {bad:?}: ")), "{err}");
        }
    }

    #[test]
    fn clocks_charge_add_increments_and_periods() {
        let mut clock = Clock::new(TimeControl::parse("2/1+0.1").unwrap());
        assert_eq!((clock.left_ms(), clock.moves_to_go()), (1_000, Some(2)));
        assert!(clock.charge(300, 0));
        assert_eq!((clock.left_ms(), clock.moves_to_go()), (800, Some(1)));
        // The second move ends the period: increment, then the next period's base.
        assert!(clock.charge(800, 0));
        assert_eq!((clock.left_ms(), clock.moves_to_go()), (1_100, Some(2)));
        // An overrun within the margin is forgiven (the clock stops at zero), beyond it is a loss.
        let mut clock = Clock::new(TimeControl::parse("1").unwrap());
        assert!(clock.charge(1_040, 50));
        assert_eq!(clock.left_ms(), 0);
        assert!(!clock.charge(51, 50));
        assert_eq!(clock.left_ms(), -51);
        assert_eq!(Clock::new(TimeControl::parse("3+1").unwrap()).moves_to_go(), None);
    }
}
