//! The value parsers every subcommand's numeric flags go through, so that one kind of flag gets one check and
//! one message everywhere. clap calls them while it parses, and a refused value is a usage error (exit code 2)
//! whose message names the flag and the value: `error: invalid value '0' for '--threads <N>': expected an
//! integer from 1 to 1024`.
//!
//! Floats must be finite (`NaN`, `inf` and `-inf` are refused); counts, limits and timeouts that make no sense
//! at zero start at 1; every value has a ceiling where a larger one could only hang the machine or overflow.
//! The ranges are listed in `docs/run-folders.md`.

use std::fmt::Display;
use std::str::FromStr;

/// The most worker threads any `--threads` (and `--concurrency`) accepts.
pub const MAX_THREADS: usize = 1024;

/// The longest timeout in milliseconds (`--stall-timeout-ms`, `--ping-timeout-ms`, ...): one day.
pub const MAX_TIMEOUT_MS: u64 = 86_400_000;

/// The most nodes a per-move or per-position node limit accepts (10^12: hours at any speed).
pub const MAX_NODES: u64 = 1_000_000_000_000;

/// The deepest search depth a depth limit accepts, in plies.
pub const MAX_DEPTH: u32 = 1000;

/// A parser of integers of type `T` from `min` to `max` (both included).
///
/// # Examples
/// ```
/// use arbiter::cli::args::int_in;
/// let threads = int_in(1usize, 1024);
/// assert_eq!(threads("8"), Ok(8));
/// assert_eq!(threads("0").unwrap_err(), "expected an integer from 1 to 1024, got 0");
/// ```
pub fn int_in<T>(min: T, max: T) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: FromStr + PartialOrd + Display + Copy + Send + Sync + 'static,
{
    move |text: &str| {
        let expected =
            || format!("expected an integer from {min} to {max}, got {}", crate::notation::quote::shown(text));
        let value: T = text.trim().parse().map_err(|_| expected())?;
        if value < min || value > max {
            return Err(format!("expected an integer from {min} to {max}, got {value}"));
        }
        Ok(value)
    }
}

/// `--threads` (and the worker counts of every command): 1 to [`MAX_THREADS`].
///
/// # Errors
/// The message for clap.
pub fn threads(text: &str) -> Result<usize, String> {
    int_in(1, MAX_THREADS)(text)
}

/// A timeout in milliseconds: 1 to [`MAX_TIMEOUT_MS`] (0 would make every engine stall at once).
///
/// # Errors
/// The message for clap.
pub fn timeout_ms(text: &str) -> Result<u64, String> {
    int_in(1, MAX_TIMEOUT_MS)(text)
}

/// A node limit: 1 to [`MAX_NODES`].
///
/// # Errors
/// The message for clap.
pub fn nodes(text: &str) -> Result<u64, String> {
    int_in(1, MAX_NODES)(text)
}

/// A depth limit in plies: 1 to [`MAX_DEPTH`].
///
/// # Errors
/// The message for clap.
pub fn depth(text: &str) -> Result<u32, String> {
    int_in(1, MAX_DEPTH)(text)
}

/// A count that must be at least 1 (games, rounds, epochs, positions), up to `u64::MAX / 4` so that sums
/// and doublings cannot overflow.
///
/// # Errors
/// The message for clap.
pub fn count(text: &str) -> Result<u64, String> {
    int_in(1, u64::MAX / 4)(text)
}

/// A finite float (`NaN` and infinities refused).
///
/// # Errors
/// The message for clap.
pub fn finite(text: &str) -> Result<f64, String> {
    let value: f64 =
        text.trim().parse().map_err(|_| format!("expected a number, got {}", crate::notation::quote::shown(text)))?;
    if !value.is_finite() {
        return Err(format!("expected a finite number, got {value}"));
    }
    Ok(value)
}

/// Any float, NaN and infinities included, for the flags whose own check gives the reason (the SPRT's).
fn number(text: &str) -> Result<f64, String> {
    text.trim().parse().map_err(|_| format!("expected a number, got {}", crate::notation::quote::shown(text)))
}

/// An SPRT's `--elo0`, checked as `SprtSpec::new` checks it for every command (`match --sprt` included).
///
/// # Errors
/// The message for clap, ending with `StatsError`'s own.
pub fn sprt_elo0(text: &str) -> Result<f64, String> {
    crate::stats::SprtSpec::check_hypothesis("elo0", number(text)?)
        .map_err(|e| format!("expected an SPRT hypothesis: {e}"))
}

/// An SPRT's `--elo1`, checked as `SprtSpec::new` checks it.
///
/// # Errors
/// The message for clap.
pub fn sprt_elo1(text: &str) -> Result<f64, String> {
    crate::stats::SprtSpec::check_hypothesis("elo1", number(text)?)
        .map_err(|e| format!("expected an SPRT hypothesis: {e}"))
}

/// An SPRT's `--alpha`, checked as `SprtSpec::new` checks it.
///
/// # Errors
/// The message for clap.
pub fn sprt_alpha(text: &str) -> Result<f64, String> {
    crate::stats::SprtSpec::check_error_rate("alpha", number(text)?)
        .map_err(|e| format!("expected an SPRT error rate: {e}"))
}

/// An SPRT's `--beta`, checked as `SprtSpec::new` checks it.
///
/// # Errors
/// The message for clap.
pub fn sprt_beta(text: &str) -> Result<f64, String> {
    crate::stats::SprtSpec::check_error_rate("beta", number(text)?)
        .map_err(|e| format!("expected an SPRT error rate: {e}"))
}

/// A finite float above 0 (a step size, a scale).
///
/// # Errors
/// The message for clap.
pub fn positive(text: &str) -> Result<f64, String> {
    let value = finite(text)?;
    if value <= 0.0 {
        return Err(format!("expected a number above 0, got {value}"));
    }
    Ok(value)
}

/// A finite float from 0 (included) up.
///
/// # Errors
/// The message for clap.
pub fn non_negative(text: &str) -> Result<f64, String> {
    let value = finite(text)?;
    if value < 0.0 {
        return Err(format!("expected a number from 0 up, got {value}"));
    }
    Ok(value)
}

/// An exponent of a gain schedule: above 0, at most 10.
///
/// # Errors
/// The message for clap.
pub fn exponent(text: &str) -> Result<f64, String> {
    let value = finite(text)?;
    if value <= 0.0 || value > 10.0 {
        return Err(format!("expected a number above 0 and at most 10, got {value}"));
    }
    Ok(value)
}

/// A probability strictly between 0 and 1 (an SPRT's `alpha` or `beta`).
///
/// # Errors
/// The message for clap.
pub fn probability(text: &str) -> Result<f64, String> {
    let value = finite(text)?;
    if value <= 0.0 || value >= 1.0 {
        return Err(format!("expected a probability strictly between 0 and 1, got {value}"));
    }
    Ok(value)
}

/// A fraction from 0 (included) to 1 (excluded), such as a draw ratio.
///
/// # Errors
/// The message for clap.
pub fn fraction(text: &str) -> Result<f64, String> {
    let value = finite(text)?;
    if !(0.0..1.0).contains(&value) {
        return Err(format!("expected a number from 0 to below 1, got {value}"));
    }
    Ok(value)
}

/// `--game` on the command line: the words of [`GameKind`](crate::games::GameKind) (`chess`, `xiangqi`, `russian`, `english`), each
/// with its help line; the library type derives no clap trait.
impl clap::ValueEnum for crate::games::GameKind {
    fn value_variants<'a>() -> &'a [Self] {
        &crate::games::GameKind::ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        use crate::games::GameKind;
        let help = match self {
            GameKind::Chess => "Chess",
            GameKind::Xiangqi => "Xiangqi, Chinese chess",
            GameKind::Russian => "Russian draughts (perft only)",
            GameKind::English => "English checkers (perft only)",
        };
        Some(clap::builder::PossibleValue::new(self.name()).help(help))
    }
}

/// A possible value of a `value_enum` flag: its word and its help line.
fn possible(name: &'static str, help: &'static str) -> Option<clap::builder::PossibleValue> {
    Some(clap::builder::PossibleValue::new(name).help(help))
}

/// `--variant`: `standard` or `chess960` (the library's [`Variant`](crate::chess::Variant)).
impl clap::ValueEnum for crate::chess::Variant {
    fn value_variants<'a>() -> &'a [Self] {
        use crate::chess::Variant;
        &[Variant::Standard, Variant::Chess960]
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        use crate::chess::Variant;
        match self {
            Variant::Standard => {
                possible("standard", "Standard chess: castling fields `KQkq` name the outermost rooks")
            }
            Variant::Chess960 => possible(
                "chess960",
                "Chess960 (Fischer random), and so also double Fischer random (DFRC), whose books only differ in \
                 the back ranks: opening FENs are read with X-FEN or Shredder-FEN castling fields, engines get \
                 `UCI_Chess960`, and games are written with `[Variant \"chess960\"]`",
            ),
        }
    }
}

/// An opening file's format: `epd` or `pgn`.
impl clap::ValueEnum for crate::game::opening::OpeningFormat {
    fn value_variants<'a>() -> &'a [Self] {
        use crate::game::opening::OpeningFormat;
        &[OpeningFormat::Epd, OpeningFormat::Pgn]
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        use crate::game::opening::OpeningFormat;
        match self {
            OpeningFormat::Epd => possible("epd", "One position per line"),
            OpeningFormat::Pgn => possible("pgn", "Games; their first plies are the book"),
        }
    }
}

/// The order of a match's openings: `sequential` or `random`.
impl clap::ValueEnum for crate::runner::openings::OpeningOrder {
    fn value_variants<'a>() -> &'a [Self] {
        use crate::runner::openings::OpeningOrder;
        &[OpeningOrder::Sequential, OpeningOrder::Random]
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        use crate::runner::openings::OpeningOrder;
        match self {
            OpeningOrder::Sequential => possible("sequential", "File order"),
            OpeningOrder::Random => possible("random", "A shuffle determined by the seed"),
        }
    }
}

/// The `--tournament` parser: `round-robin` or `gauntlet` (the runner's enum stays free of clap).
pub fn tournament() -> impl clap::builder::TypedValueParser<Value = crate::runner::Tournament> {
    use crate::runner::Tournament;
    use clap::builder::{PossibleValue, TypedValueParser as _};
    clap::builder::PossibleValuesParser::new([
        PossibleValue::new(Tournament::RoundRobin.name()).help("Every engine plays every other"),
        PossibleValue::new(Tournament::Gauntlet.name())
            .help("The first engine plays every other; the others do not meet"),
    ])
    .map(|name| if name == Tournament::Gauntlet.name() { Tournament::Gauntlet } else { Tournament::RoundRobin })
}

/// The output format of `arbiter sprt` and `arbiter elo`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum OutputFormat {
    /// Lines for people.
    #[default]
    Text,
    /// One JSON object, every figure at full precision (docs/statistics.md).
    Json,
}

/// `--select` of datagen: `quiet` or `qleaf` (the library's
/// [`SelectMode`](crate::selfplay::datagen::SelectMode)).
impl clap::ValueEnum for crate::selfplay::datagen::SelectMode {
    fn value_variants<'a>() -> &'a [Self] {
        use crate::selfplay::datagen::SelectMode;
        &[SelectMode::Quiet, SelectMode::QLeaf]
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        use crate::selfplay::datagen::SelectMode;
        match self {
            SelectMode::Quiet => possible("quiet", "Skip it: only positions whose best move is quiet are written"),
            SelectMode::QLeaf => possible("qleaf", "Write its quiescence leaf instead (see the module docs)"),
        }
    }
}

/// `--format` of datagen: `epd`, `text`, `viriformat` or `bulletformat` (the library's
/// [`TrainingFormat`](crate::selfplay::datagen::TrainingFormat)).
impl clap::ValueEnum for crate::selfplay::datagen::TrainingFormat {
    fn value_variants<'a>() -> &'a [Self] {
        use crate::selfplay::datagen::TrainingFormat;
        &[TrainingFormat::Epd, TrainingFormat::Text, TrainingFormat::Viriformat, TrainingFormat::Bulletformat]
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        use crate::selfplay::datagen::TrainingFormat;
        match self {
            TrainingFormat::Epd => possible("epd", "EPD lines with the result in c9, and FILE.meta.tsv (arbiter tune)"),
            TrainingFormat::Text => possible("text", "Plain text lines FEN | score | result (bullet's text input)"),
            TrainingFormat::Viriformat => possible("viriformat", "viriformat game records (one per game)"),
            TrainingFormat::Bulletformat => possible("bulletformat", "bulletformat records (one per position)"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_must_be_finite() {
        for bad in ["NaN", "nan", "inf", "-inf", "infinity", "1e999"] {
            assert!(finite(bad).unwrap_err().contains("finite"), "{bad}");
        }
        assert_eq!(finite("x").unwrap_err(), "expected a number, got \"x\"");
        assert_eq!(positive("0").unwrap_err(), "expected a number above 0, got 0");
        assert_eq!(positive("-0.5").unwrap_err(), "expected a number above 0, got -0.5");
        assert_eq!(positive("2.5"), Ok(2.5));
        assert!(probability("1").is_err() && probability("0").is_err() && probability("0.05").is_ok());
        assert!(fraction("1").is_err() && fraction("-0.1").is_err() && fraction("0").is_ok());
    }

    #[test]
    fn integers_have_ranges() {
        assert_eq!(threads("0").unwrap_err(), "expected an integer from 1 to 1024, got 0");
        assert_eq!(threads("1025").unwrap_err(), "expected an integer from 1 to 1024, got 1025");
        assert_eq!(threads("-1").unwrap_err(), "expected an integer from 1 to 1024, got \"-1\"");
        assert_eq!(timeout_ms("0").unwrap_err(), "expected an integer from 1 to 86400000, got 0");
        assert!(timeout_ms("99999999999999999999").unwrap_err().len() < 120);
        assert_eq!(nodes("1"), Ok(1));
        assert_eq!(depth("1001").unwrap_err(), "expected an integer from 1 to 1000, got 1001");
        assert_eq!(count("0").unwrap_err(), format!("expected an integer from 1 to {}, got 0", u64::MAX / 4));
    }
}
