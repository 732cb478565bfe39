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
/// (`int_in(1usize, 1024)("0")` is refused with "expected an integer from 1 to 1024, got 0": the test
/// `int_in_names_its_range`.)
pub fn int_in<T>(min: T, max: T) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: FromStr + PartialOrd + Display + Copy + Send + Sync + 'static,
{
    move |text: &str| {
        let expected =
            || format!("expected an integer from {min} to {max}, got {}", arbiter::notation::quote::shown(text));
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

/// The text of a PGN tag (`--event`, `--site`): at most 200 characters, no control characters (a quote or a
/// backslash is escaped when written).
///
/// # Errors
/// The message for clap.
pub fn tag_text(text: &str) -> Result<String, String> {
    if text.chars().count() > 200 {
        return Err("at most 200 characters".to_string());
    }
    if text.chars().any(char::is_control) {
        return Err("no control characters (tabs, line breaks)".to_string());
    }
    Ok(text.to_string())
}

/// A finite float (`NaN` and infinities refused).
///
/// # Errors
/// The message for clap.
pub fn finite(text: &str) -> Result<f64, String> {
    let value: f64 =
        text.trim().parse().map_err(|_| format!("expected a number, got {}", arbiter::notation::quote::shown(text)))?;
    if !value.is_finite() {
        return Err(format!("expected a finite number, got {value}"));
    }
    Ok(value)
}

/// Any float, NaN and infinities included, for the flags whose own check gives the reason (the SPRT's).
fn number(text: &str) -> Result<f64, String> {
    text.trim().parse().map_err(|_| format!("expected a number, got {}", arbiter::notation::quote::shown(text)))
}

/// An SPRT's `--elo0`, checked as `SprtSpec::new` checks it for every command (`match --sprt` included).
///
/// # Errors
/// The message for clap, ending with `StatsError`'s own.
pub fn sprt_elo0(text: &str) -> Result<f64, String> {
    arbiter::stats::SprtSpec::check_hypothesis("elo0", number(text)?)
        .map_err(|e| format!("expected an SPRT hypothesis: {e}"))
}

/// An SPRT's `--elo1`, checked as `SprtSpec::new` checks it.
///
/// # Errors
/// The message for clap.
pub fn sprt_elo1(text: &str) -> Result<f64, String> {
    arbiter::stats::SprtSpec::check_hypothesis("elo1", number(text)?)
        .map_err(|e| format!("expected an SPRT hypothesis: {e}"))
}

/// An SPRT's `--alpha`, checked as `SprtSpec::new` checks it.
///
/// # Errors
/// The message for clap.
pub fn sprt_alpha(text: &str) -> Result<f64, String> {
    arbiter::stats::SprtSpec::check_error_rate("alpha", number(text)?)
        .map_err(|e| format!("expected an SPRT error rate: {e}"))
}

/// An SPRT's `--beta`, checked as `SprtSpec::new` checks it.
///
/// # Errors
/// The message for clap.
pub fn sprt_beta(text: &str) -> Result<f64, String> {
    arbiter::stats::SprtSpec::check_error_rate("beta", number(text)?)
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

/// A parser of a library enum's words (the library derives no clap trait, and the binary may not implement
/// clap's `ValueEnum` for it): `values` with their words and help lines, as clap's possible values.
fn words<T: Clone + Send + Sync + 'static>(
    values: Vec<(T, &'static str, &'static str)>,
) -> impl clap::builder::TypedValueParser<Value = T> {
    use clap::builder::{PossibleValue, TypedValueParser as _};
    let possible: Vec<PossibleValue> =
        values.iter().map(|(_, word, help)| PossibleValue::new(*word).help(*help)).collect();
    clap::builder::PossibleValuesParser::new(possible).try_map(move |word: String| {
        let found = values.iter().find(|(_, w, _)| *w == word).map(|(value, _, _)| value.clone());
        found.ok_or_else(|| format!("unknown value {word:?}"))
    })
}

/// `--game` on the command line: the words of [`GameKind`](arbiter::games::GameKind) (`chess`, `xiangqi`,
/// `russian`, `english`), each with its help line.
pub fn game() -> impl clap::builder::TypedValueParser<Value = arbiter::games::GameKind> {
    use arbiter::games::GameKind;
    let help = |game: GameKind| match game {
        GameKind::Chess => "Chess",
        GameKind::Xiangqi => "Xiangqi, Chinese chess",
        GameKind::Russian => "Russian draughts (perft only)",
        GameKind::English => "English checkers (perft only)",
    };
    words(GameKind::ALL.iter().map(|&game| (game, game.name(), help(game))).collect())
}

/// `--variant`: `standard` or `chess960` (the library's [`Variant`](arbiter::chess::Variant)).
pub fn variant() -> impl clap::builder::TypedValueParser<Value = arbiter::chess::Variant> {
    use arbiter::chess::Variant;
    words(vec![
        (Variant::Standard, "standard", "Standard chess: castling fields `KQkq` name the outermost rooks"),
        (
            Variant::Chess960,
            "chess960",
            "Chess960 (Fischer random), and so also double Fischer random (DFRC), whose books only differ in the \
             back ranks: opening FENs are read with X-FEN or Shredder-FEN castling fields, engines get \
             `UCI_Chess960`, and games are written with `[Variant \"chess960\"]`",
        ),
    ])
}

/// The order of a match's openings: `sequential` or `random`.
pub fn opening_order() -> impl clap::builder::TypedValueParser<Value = arbiter::runner::openings::OpeningOrder> {
    use arbiter::runner::openings::OpeningOrder;
    words(vec![
        (OpeningOrder::Sequential, "sequential", "File order"),
        (OpeningOrder::Random, "random", "A shuffle determined by the seed"),
    ])
}

/// The `--tournament` parser: `round-robin`, `gauntlet`, `pyramid`, `knockout` or `pairs` (the runner's enum stays free of clap).
pub fn tournament() -> impl clap::builder::TypedValueParser<Value = arbiter::runner::Tournament> {
    use arbiter::runner::Tournament;
    use clap::builder::{PossibleValue, TypedValueParser as _};
    clap::builder::PossibleValuesParser::new([
        PossibleValue::new(Tournament::RoundRobin.name()).help("Every engine plays every other"),
        PossibleValue::new(Tournament::Gauntlet.name())
            .help("The first engine (or the first --seeds N) plays every other; the others do not meet"),
        PossibleValue::new(Tournament::Pyramid.name())
            .help("Every engine plays all engines before it (cutechess-cli's pyramid order and colours)"),
        PossibleValue::new(Tournament::Knockout.name())
            .help("Single elimination: a bracket (seeded by --seeds), a tied encounter goes on by game pairs"),
        PossibleValue::new(Tournament::Pairs.name()).help("The engines meet in twos, in order: 1-2, 3-4, ..."),
    ])
    .map(|name| {
        [Tournament::Gauntlet, Tournament::Pyramid, Tournament::Knockout, Tournament::Pairs]
            .into_iter()
            .find(|t| t.name() == name)
            .unwrap_or_default()
    })
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
/// [`SelectMode`](arbiter::selfplay::datagen::SelectMode)).
pub fn select_mode() -> impl clap::builder::TypedValueParser<Value = arbiter::selfplay::datagen::SelectMode> {
    use arbiter::selfplay::datagen::SelectMode;
    words(vec![
        (SelectMode::Quiet, "quiet", "Skip it: only positions whose best move is quiet are written"),
        (SelectMode::QLeaf, "qleaf", "Write its quiescence leaf instead (see the module docs)"),
    ])
}

/// `--format` of datagen: `epd`, `text`, `viriformat` or `bulletformat` (the library's
/// [`TrainingFormat`](arbiter::selfplay::datagen::TrainingFormat)).
pub fn training_format() -> impl clap::builder::TypedValueParser<Value = arbiter::selfplay::datagen::TrainingFormat> {
    use arbiter::selfplay::datagen::TrainingFormat;
    words(vec![
        (TrainingFormat::Epd, "epd", "EPD lines with the result in c9, and FILE.meta.tsv (arbiter tune)"),
        (TrainingFormat::Text, "text", "Plain text lines FEN | score | result (bullet's text input)"),
        (TrainingFormat::Viriformat, "viriformat", "viriformat game records (one per game)"),
        (TrainingFormat::Bulletformat, "bulletformat", "bulletformat records (one per position)"),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn int_in_names_its_range() {
        let threads = int_in(1usize, 1024);
        assert_eq!(threads("8"), Ok(8));
        assert_eq!(threads("0").unwrap_err(), "expected an integer from 1 to 1024, got 0");
    }

    #[test]
    fn floats_must_be_finite() {
        for bad in ["NaN", "nan", "inf", "-inf", "infinity", "1e999"] {
            assert!(finite(bad).unwrap_err().contains("finite"), "{bad}");
        }
        assert_eq!(finite("x").unwrap_err(), "expected a number, got \"x\"");
        assert_eq!(positive("0").unwrap_err(), "expected a number above 0, got 0");
        assert_eq!(positive("-0.5").unwrap_err(), "expected a number above 0, got -0.5");
        assert_eq!(positive("2.5"), Ok(2.5));
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
