//! Time controls and the clocks the runner keeps: `tc=40/60+0.6` (40 moves in 60 s, 0.6 s increment),
//! `tc=10+0.1`, `tc=5` (sudden death), as cutechess-cli and fastchess write them; multi-period controls
//! `tc=40/5400+30:20/1800+30` (each period after the first with its move count; the last period repeats), and
//! cutechess-cli's hourglass `tc=hg60` (the time a side uses is added to its opponent's clock,
//! `ChessGame::onMoveMade` in cutechess-cli's `projects/lib/src/chessgame.cpp`; no increment, no move count).
//!
//! The runner measures each move from the moment it asks the player (`go` sent) to the moment the move comes
//! back (`bestmove` read), subtracts it from the mover's clock, and only then adds the increment; a mover whose
//! clock falls below `-timemargin` has overrun and loses on time. With a move count, the base time is added again
//! each time a period's moves are played (a classical repeating control).

use std::fmt;
use thiserror::Error;

/// The most periods after the first of a multi-period time control.
pub const MAX_LATER_PERIODS: usize = 4;

/// A period after the first of a multi-period time control: `moves` moves in `base_ms`, plus `inc_ms` per move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Period {
    /// Moves of the period.
    pub moves: u32,
    /// Time added at the period's start, in milliseconds.
    #[serde(with = "crate::notation::wide")]
    pub base_ms: u64,
    /// Increment per move in the period, in milliseconds.
    #[serde(with = "crate::notation::wide")]
    pub inc_ms: u64,
}

/// The periods after the first (at most [`MAX_LATER_PERIODS`]), in order; the last repeats.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LaterPeriods {
    periods: [Period; MAX_LATER_PERIODS],
    len: usize,
}

impl LaterPeriods {
    /// The periods, in order.
    pub fn as_slice(&self) -> &[Period] {
        &self.periods[..self.len]
    }

    /// The periods, to change in place (scaling a time control).
    pub fn as_mut_slice(&mut self) -> &mut [Period] {
        &mut self.periods[..self.len]
    }

    /// Whether there is none (a single-period control).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn push(&mut self, period: Period) -> bool {
        if self.len == MAX_LATER_PERIODS {
            return false;
        }
        self.periods[self.len] = period;
        self.len += 1;
        true
    }
}

impl serde::Serialize for LaterPeriods {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.as_slice().serialize(serializer)
    }
}

impl<'de> serde::Deserialize<'de> for LaterPeriods {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<LaterPeriods, D::Error> {
        let periods = Vec::<Period>::deserialize(deserializer)?;
        let mut later = LaterPeriods::default();
        for period in periods {
            if period.moves == 0 || !later.push(period) {
                return Err(serde::de::Error::custom(format!(
                    "at most {MAX_LATER_PERIODS} later periods, each of at least 1 move"
                )));
            }
        }
        Ok(later)
    }
}

fn is_false(value: &bool) -> bool {
    !*value
}

/// A time control: `moves` moves (or the whole game) in `base_ms` milliseconds, plus `inc_ms` per move; then
/// the later periods, if any; or an hourglass.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
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
    /// The periods after the first (`:20/1800+30`); the last repeats. Empty for a single-period control.
    #[serde(default, skip_serializing_if = "LaterPeriods::is_empty")]
    pub then: LaterPeriods,
    /// cutechess-cli's hourglass (`hg60`): the time a side uses is added to its opponent's clock.
    #[serde(default, skip_serializing_if = "is_false")]
    pub hourglass: bool,
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
        // Multi-period: `P:P...` where every period after the first has a move count (`1:30` is M:SS).
        let parts: Vec<&str> = trimmed.split(':').collect();
        if parts.len() > 1 && parts[1..].iter().all(|p| p.contains('/')) {
            let mut tc = TimeControl::parse(parts[0])?;
            if tc.moves.is_none() || tc.hourglass {
                return Err(error("every period of a multi-period control but none has a move count: 40/60:20/30"));
            }
            for part in &parts[1..] {
                let later = TimeControl::parse(part)?;
                let Some(moves) = later.moves.filter(|_| !later.hourglass) else {
                    return Err(error("a later period needs MOVES/SECONDS"));
                };
                if !tc.then.push(Period { moves, base_ms: later.base_ms, inc_ms: later.inc_ms }) {
                    return Err(error(&format!("at most {} periods", MAX_LATER_PERIODS + 1)));
                }
            }
            return Ok(tc);
        }
        if let Some(rest) = trimmed.strip_prefix("hg") {
            let tc = TimeControl::parse(rest)?;
            if tc.moves.is_some() || tc.inc_ms > 0 || tc.base_ms == 0 {
                return Err(error("an hourglass (hgSECONDS) has no move count and no increment"));
            }
            return Ok(TimeControl { hourglass: true, ..tc });
        }
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
        Ok(TimeControl { moves, base_ms, inc_ms, ..TimeControl::default() })
    }

    /// The (moves, base, increment) of period `index` (0 the first); past the last period, the last.
    fn period(&self, index: usize) -> (Option<u32>, u64, u64) {
        match index.checked_sub(1) {
            None => (self.moves, self.base_ms, self.inc_ms),
            Some(later) => {
                let periods = self.then.as_slice();
                match periods.get(later).or(periods.last()) {
                    Some(p) => (Some(p.moves), p.base_ms, p.inc_ms),
                    None => (self.moves, self.base_ms, self.inc_ms),
                }
            }
        }
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
        if self.hourglass {
            f.write_str("hg")?;
        }
        if let Some(moves) = self.moves {
            write!(f, "{moves}/")?;
        }
        write!(f, "{}", ms_text(self.base_ms))?;
        if self.inc_ms > 0 {
            write!(f, "+{}", ms_text(self.inc_ms))?;
        }
        for period in self.then.as_slice() {
            write!(f, ":{}/{}", period.moves, ms_text(period.base_ms))?;
            if period.inc_ms > 0 {
                write!(f, "+{}", ms_text(period.inc_ms))?;
            }
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
    /// The current period (0 the first).
    period: usize,
}

impl Clock {
    /// A full clock for `tc`.
    pub fn new(tc: TimeControl) -> Clock {
        Clock { tc, left_ms: tc.base_ms as i64, moves_in_period: 0, period: 0 }
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
        self.tc.period(self.period).0.map(|m| m - self.moves_in_period)
    }

    /// The increment of the current period, in milliseconds (the UCI `winc`/`binc`).
    pub fn inc_ms(&self) -> u64 {
        self.tc.period(self.period).2
    }

    /// Adds `ms` to the clock (the opponent's time under an hourglass).
    pub fn add_ms(&mut self, ms: u64) {
        self.left_ms = self.left_ms.saturating_add(i64::try_from(ms).unwrap_or(i64::MAX));
    }

    /// Charges a move that took `spent_ms` milliseconds; returns `false` when the clock fell below
    /// `-margin_ms` (the side lost on time; the clock is then left as it is). Otherwise adds the increment
    /// and, when the period's moves are played, the base time of the next period.
    pub fn charge(&mut self, spent_ms: u64, margin_ms: u64) -> bool {
        self.left_ms = self.left_ms.saturating_sub(i64::try_from(spent_ms).unwrap_or(i64::MAX));
        if self.left_ms < -(i64::try_from(margin_ms).unwrap_or(i64::MAX)) {
            return false;
        }
        let (moves, _, inc_ms) = self.tc.period(self.period);
        self.left_ms = self.left_ms.max(0) + inc_ms as i64;
        self.moves_in_period += 1;
        if moves == Some(self.moves_in_period) {
            self.moves_in_period = 0;
            self.period += 1;
            self.left_ms += self.tc.period(self.period).1 as i64;
        }
        true
    }
}

/// Charges `mover`'s move of `spent_ms` to its clock in `clocks` (White's, Black's), as [`Clock::charge`]; under
/// an hourglass on both clocks the time is then added to the opponent's. `false` when the mover lost on time.
pub fn charge_move(clocks: &mut [Option<Clock>; 2], mover: usize, spent_ms: u64, margin_ms: u64) -> bool {
    let Some(clock) = clocks[mover].as_mut() else { return true };
    if !clock.charge(spent_ms, margin_ms) {
        return false;
    }
    let hourglass = clock.tc.hourglass;
    if let Some(other) = clocks[1 - mover].as_mut()
        && hourglass
        && other.tc.hourglass
    {
        other.add_ms(spent_ms);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn multi_period_controls_run_their_periods_and_repeat_the_last() {
        let tc = TimeControl::parse("2/10:1/5+1").unwrap();
        assert_eq!(tc.to_string(), "2/10:1/5+1");
        assert_eq!(tc.then.as_slice(), [Period { moves: 1, base_ms: 5_000, inc_ms: 1_000 }]);
        let mut clock = Clock::new(tc);
        assert_eq!((clock.left_ms(), clock.moves_to_go(), clock.inc_ms()), (10_000, Some(2), 0));
        assert!(clock.charge(1_000, 0) && clock.charge(1_000, 0));
        // The second period: 5 s added, one move, 1 s increment; then it repeats.
        assert_eq!((clock.left_ms(), clock.moves_to_go(), clock.inc_ms()), (13_000, Some(1), 1_000));
        assert!(clock.charge(3_000, 0));
        assert_eq!(clock.left_ms(), 13_000 - 3_000 + 1_000 + 5_000);
        assert_eq!(TimeControl::parse("40/5400+30:20/1800+30").unwrap().to_string(), "40/5400+30:20/1800+30");
        // `M:SS` stays minutes and seconds; a later period without a move count is refused.
        assert_eq!(TimeControl::parse("40/1:30").unwrap().base_ms, 90_000);
        assert!(TimeControl::parse("60:20/30").is_err());
        assert!(TimeControl::parse("1/1:1/1:1/1:1/1:1/1:1/1").is_err(), "at most five periods");
    }

    #[test]
    fn an_hourglass_gives_the_time_used_to_the_opponent() {
        let tc = TimeControl::parse("hg60").unwrap();
        assert_eq!((tc.hourglass, tc.base_ms, tc.to_string().as_str()), (true, 60_000, "hg60"));
        for bad in ["hg60+1", "40/hg60", "hg0"] {
            assert!(TimeControl::parse(bad).is_err(), "{bad}");
        }
        let mut clocks = [Some(Clock::new(tc)), Some(Clock::new(tc))];
        assert!(charge_move(&mut clocks, 0, 2_500, 0));
        assert_eq!(clocks.map(|c| c.unwrap().left_ms()), [57_500, 62_500]);
        assert!(!charge_move(&mut clocks, 1, 62_501, 0), "the opponent's clock runs out");
        // Against a plain clock, no time moves.
        let mut mixed = [Some(Clock::new(tc)), Some(Clock::new(TimeControl::parse("60").unwrap()))];
        assert!(charge_move(&mut mixed, 0, 2_500, 0));
        assert_eq!(mixed[1].unwrap().left_ms(), 60_000);
    }

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
