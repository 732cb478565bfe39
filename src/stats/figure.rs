//! Statistics as they are printed and serialized: every figure is a finite number, an explicit infinity with
//! its reason, or absent with its reason; never NaN.
//!
//! Every command that prints or writes a statistic (`arbiter sprt`, `arbiter elo`, a match's summary and its
//! cutechess-cli/fastchess blocks, `arbiter merge`) goes through [`Figure`], so that no output holds `nan` or a
//! bare `inf`. Text forms: `1.25`, `+inf (no losses: the score is 1)`, `- (too few games: 1 played, at least 2
//! needed)`. JSON form ([`Figure::to_json`]): a number, the string `"inf"` or `"-inf"`, or `null`, with the reason
//! kept apart by the caller (JSON has no infinity).

/// One statistic: a finite value, an infinity with its reason, or no value with the reason.
#[derive(Debug, Clone, PartialEq)]
pub enum Figure {
    /// A finite value.
    Value(f64),
    /// An infinity (`positive` or negative) and why, such as a ratio over a zero count.
    Infinite {
        /// Whether it is `+inf`.
        positive: bool,
        /// Why the figure is infinite, in words.
        reason: String,
    },
    /// No value, and why (too few games, a ratio of zero to zero).
    Missing {
        /// Why there is no value, in words.
        reason: String,
    },
}

impl Figure {
    /// `value` as a figure: finite values as they are, an infinity with `reason`, NaN as missing with `reason`.
    ///
    /// # Examples
    /// ```
    /// use arbiter::stats::Figure;
    /// assert_eq!(Figure::of(1.5, "unused").fixed(2), "1.50");
    /// assert_eq!(Figure::of(f64::INFINITY, "no losses").fixed(2), "+inf (no losses)");
    /// assert_eq!(Figure::of(f64::NAN, "no games").fixed(2), "- (no games)");
    /// ```
    pub fn of(value: f64, reason: impl Into<String>) -> Figure {
        if value.is_finite() {
            Figure::Value(value)
        } else if value.is_nan() {
            Figure::Missing { reason: reason.into() }
        } else {
            Figure::Infinite { positive: value > 0.0, reason: reason.into() }
        }
    }

    /// No value, because of `reason`.
    pub fn missing(reason: impl Into<String>) -> Figure {
        Figure::Missing { reason: reason.into() }
    }

    /// `numerator / denominator` of two counts: missing for 0/0 and infinite for n/0, both with `reason` (what a
    /// zero denominator means, such as "no DD pairs").
    ///
    /// # Examples
    /// ```
    /// use arbiter::stats::Figure;
    /// assert_eq!(Figure::ratio(34.0, 6.0, "no DD pairs").fixed(2), "5.67");
    /// assert_eq!(Figure::ratio(3.0, 0.0, "no DD pairs").fixed(2), "+inf (no DD pairs)");
    /// assert_eq!(Figure::ratio(0.0, 0.0, "no WL or DD pairs").fixed(2), "- (no WL or DD pairs)");
    /// ```
    pub fn ratio(numerator: f64, denominator: f64, reason: impl Into<String>) -> Figure {
        if denominator == 0.0 {
            if numerator == 0.0 {
                Figure::missing(reason)
            } else {
                Figure::Infinite { positive: numerator > 0.0, reason: reason.into() }
            }
        } else {
            Figure::of(numerator / denominator, reason)
        }
    }

    /// The finite value, if there is one.
    pub fn value(&self) -> Option<f64> {
        match self {
            Figure::Value(x) => Some(*x),
            _ => None,
        }
    }

    /// Why there is no finite value, if there is none.
    pub fn reason(&self) -> Option<&str> {
        match self {
            Figure::Value(_) => None,
            Figure::Infinite { reason, .. } | Figure::Missing { reason } => Some(reason),
        }
    }

    /// The figure times `factor` (a percentage from a fraction); an infinity keeps its sign times the sign of
    /// `factor`.
    pub fn scaled(self, factor: f64) -> Figure {
        match self {
            Figure::Value(x) => Figure::Value(x * factor),
            Figure::Infinite { positive, reason } => Figure::Infinite { positive: positive == (factor > 0.0), reason },
            missing => missing,
        }
    }

    /// The figure with `decimals` digits after the point; `+inf (reason)`, `-inf (reason)` or `- (reason)`
    /// otherwise.
    pub fn fixed(&self, decimals: usize) -> String {
        self.text(|x| format!("{x:.decimals$}"))
    }

    /// As [`Figure::fixed`] with a sign on every value (`+1.25`, `-0.50`).
    pub fn signed(&self, decimals: usize) -> String {
        self.text(|x| format!("{x:+.decimals$}"))
    }

    /// The figure at full precision (Rust's shortest text that reads back to the same `f64`); infinities and
    /// missing values as in [`Figure::fixed`].
    pub fn full(&self) -> String {
        self.text(|x| format!("{x}"))
    }

    /// The finite value through `format`, or the text of an infinity or a missing value with its reason.
    pub fn text(&self, format: impl Fn(f64) -> String) -> String {
        match self {
            Figure::Value(x) => format(*x),
            Figure::Infinite { positive: true, reason } => format!("+inf ({reason})"),
            Figure::Infinite { positive: false, reason } => format!("-inf ({reason})"),
            Figure::Missing { reason } => format!("- ({reason})"),
        }
    }

    /// The JSON form: the number at full precision, the string `"inf"` or `"-inf"`, or `null` when missing.
    /// (JSON has no infinity; Python's `float("inf")` reads the strings back.)
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            Figure::Value(x) => serde_json::Value::from(*x),
            Figure::Infinite { positive: true, .. } => "inf".into(),
            Figure::Infinite { positive: false, .. } => "-inf".into(),
            Figure::Missing { .. } => serde_json::Value::Null,
        }
    }
}

/// A JSON object of named figures: each figure under its name ([`Figure::to_json`]), and under `"reasons"` the
/// reason of every figure that is not a finite number, by the same name.
///
/// # Examples
/// ```
/// use arbiter::stats::{Figure, figures_json};
/// let json = figures_json(&[("elo", Figure::Value(1.5)), ("ratio", Figure::missing("no pairs"))]);
/// assert_eq!(json.to_string(), r#"{"elo":1.5,"ratio":null,"reasons":{"ratio":"no pairs"}}"#);
/// ```
pub fn figures_json(figures: &[(&str, Figure)]) -> serde_json::Value {
    let mut object = serde_json::Map::new();
    let mut reasons = serde_json::Map::new();
    for (name, figure) in figures {
        object.insert((*name).to_string(), figure.to_json());
        if let Some(reason) = figure.reason() {
            reasons.insert((*name).to_string(), reason.into());
        }
    }
    if !reasons.is_empty() {
        object.insert("reasons".to_string(), serde_json::Value::Object(reasons));
    }
    serde_json::Value::Object(object)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_text_or_json_form_is_nan() {
        for x in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 0.0, -0.0, 1e300, -2.5] {
            let figure = Figure::of(x, "why");
            for text in [figure.fixed(3), figure.signed(1), figure.full()] {
                assert!(!text.to_lowercase().contains("nan"), "{x}: {text}");
                if !x.is_finite() {
                    assert!(text.ends_with("(why)"), "{x}: {text}");
                }
            }
            let json = figure.to_json().to_string();
            assert!(!json.to_lowercase().contains("nan"), "{x}: {json}");
        }
        assert_eq!(Figure::of(f64::NEG_INFINITY, "no wins").signed(1), "-inf (no wins)");
        assert_eq!(Figure::ratio(-1.0, 0.0, "r").fixed(0), "-inf (r)");
        assert_eq!(Figure::of(f64::INFINITY, "r").scaled(-100.0).fixed(0), "-inf (r)");
        assert_eq!(Figure::Value(0.25).scaled(100.0).value(), Some(25.0));
        assert_eq!(Figure::Value(0.1 + 0.2).full(), "0.30000000000000004");
    }
}
