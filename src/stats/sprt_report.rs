//! The SPRT and Elo report of a sample of counts, as `arbiter sprt` prints it: the decision under the SPRT's
//! model, the LLR under every model (fishtest's normalized and logistic, cutechess-cli's BayesElo), the games and
//! pairs, and the Elo estimates; in text and as JSON from the same figures ([`sprt_report`]). Also the reading of
//! `W,D,L` and pentanomial counts ([`parse_wdl`], [`parse_penta`]).
//!
//! Every number is finite or an explicit `+inf`/`-inf` with its reason; a statistic that cannot be computed (too
//! few games, a split that five counts do not give) is `-` with the reason ([`Figure`]). The LLR is
//! [`SprtSpec::evaluate`]'s, the one the match and `arbiter merge` use.

use super::{
    EloModel, Figure, Pentanomial, SprtDecision, SprtOutcome, SprtSpec, StatsError, Wdl, cutechess_elo, elo_estimate,
    figures_json, sprt_elo,
};
use std::fmt::Write as _;
use thiserror::Error;

/// The counts a report is made of.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Sample {
    /// Single games.
    Games(Wdl),
    /// Game pairs; `merged` when WL and DD were given as one number (held in `dd`).
    Pairs {
        /// The counts.
        penta: Pentanomial,
        /// Whether WL and DD are merged.
        merged: bool,
    },
}

/// Why counts do not read. The text names the counts as given, not the flag they came from.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CountsError {
    /// An item is not a whole number.
    #[error("{text:?}: {item:?} is not a whole number of games")]
    NotANumber {
        /// The counts as given.
        text: String,
        /// The item that is not a number.
        item: String,
    },
    /// Not as many counts as the form has.
    #[error("{text:?}: expected {expected}, got {got}")]
    Count {
        /// The counts as given.
        text: String,
        /// The forms accepted, in words.
        expected: &'static str,
        /// How many counts were given.
        got: usize,
    },
    /// The counts add up to more than [`MAX_GAMES`].
    #[error("{text:?}: the counts add up to more than {MAX_GAMES} games (2^53)")]
    TooMany {
        /// The counts as given.
        text: String,
    },
}

/// Parses `W,D,L`.
///
/// # Errors
/// [`CountsError`]: what is wrong with the counts.
pub fn parse_wdl(text: &str) -> Result<Wdl, CountsError> {
    let n = parse_counts(text)?;
    match n.as_slice() {
        [w, d, l] => {
            check_total(text, n.iter().try_fold(0u64, |sum, &c| sum.checked_add(c)))?;
            Ok(Wdl::new(*w, *d, *l))
        }
        _ => Err(CountsError::Count { text: text.to_string(), expected: "three counts W,D,L", got: n.len() }),
    }
}

/// The most games [`parse_wdl`] and [`parse_penta`] may count in all: 2^53, the largest count an `f64` (in which
/// every figure is computed) holds exactly; a larger total would also overflow the `u64` sums of the counts.
pub const MAX_GAMES: u64 = 1 << 53;

fn check_total(text: &str, games: Option<u64>) -> Result<(), CountsError> {
    match games {
        Some(games) if games <= MAX_GAMES => Ok(()),
        _ => Err(CountsError::TooMany { text: text.to_string() }),
    }
}

/// Parses `LL,LD,WL+DD,DW,WW` (five) or `LL,LD,WL,DD,DW,WW` (six).
///
/// # Errors
/// [`CountsError`]: what is wrong with the counts.
pub fn parse_penta(text: &str) -> Result<Sample, CountsError> {
    let n = parse_counts(text)?;
    // Each count is a pair of two games.
    let games = n.iter().try_fold(0u64, |sum, &c| sum.checked_add(c)).and_then(|pairs| pairs.checked_mul(2));
    if matches!(n.len(), 5 | 6) {
        check_total(text, games)?;
    }
    match n.as_slice() {
        [ll, ld, wl_dd, wd, ww] => Ok(Sample::Pairs {
            penta: Pentanomial { ll: *ll, ld: *ld, wl: 0, dd: *wl_dd, wd: *wd, ww: *ww },
            merged: true,
        }),
        [ll, ld, wl, dd, wd, ww] => Ok(Sample::Pairs {
            penta: Pentanomial { ll: *ll, ld: *ld, wl: *wl, dd: *dd, wd: *wd, ww: *ww },
            merged: false,
        }),
        _ => Err(CountsError::Count {
            text: text.to_string(),
            expected: "five counts LL,LD,WL+DD,DW,WW or six LL,LD,WL,DD,DW,WW",
            got: n.len(),
        }),
    }
}

fn parse_counts(text: &str) -> Result<Vec<u64>, CountsError> {
    text.split(',')
        .map(|item| {
            item.trim()
                .parse::<u64>()
                .map_err(|_| CountsError::NotANumber { text: text.to_string(), item: item.trim().to_string() })
        })
        .collect()
}

/// The decision in words.
fn decision_text(decision: SprtDecision) -> &'static str {
    match decision {
        SprtDecision::AcceptH1 => "H1 accepted (pass)",
        SprtDecision::AcceptH0 => "H0 accepted (fail)",
        SprtDecision::Continue => "continue",
    }
}

/// Why an LLR is infinite.
const INFINITE_LLR: &str = "a hypothesis gives the results seen probability 0";

/// Why single-game figures are not given for five pentanomial counts.
pub const MERGED: &str = "five counts merge WL and DD pairs, so the games' W/D/L split is not known: give six counts \
                      LL,LD,WL,DD,DW,WW";

/// The SPRT of `sample` under `spec` ([`SprtSpec::evaluate`]: the exact LLR, or where the exact fit has no
/// solution the one documented approximation, the same the match and `arbiter merge` use).
fn outcome(spec: &SprtSpec, sample: &Sample) -> Result<SprtOutcome, StatsError> {
    match sample {
        Sample::Pairs { merged: true, .. } if spec.model() == EloModel::BayesElo => {
            Err(StatsError::NoSolution { elo: spec.elo1(), model: spec.model(), reason: MERGED })
        }
        Sample::Games(wdl) => spec.evaluate(wdl),
        Sample::Pairs { penta, .. } => spec.evaluate(penta),
    }
}

/// An SPRT outcome's LLR as a figure: missing with the reason when it cannot be computed.
fn llr_figure(outcome: &Result<SprtOutcome, StatsError>) -> Figure {
    match outcome {
        Ok(o) => Figure::of(o.llr, INFINITE_LLR),
        Err(e) => Figure::missing(e.to_string()),
    }
}

/// One report: the text `arbiter sprt` prints and the JSON object of `--format json`, from the same figures.
#[derive(Debug, Clone)]
pub struct SprtReport {
    /// The lines of the report, each ending in a newline.
    pub text: String,
    /// Every figure at full precision (docs/statistics.md).
    pub json: serde_json::Map<String, serde_json::Value>,
}

/// The report of `sample` under the SPRT `spec` (the decision's model), with the LLR under every model.
pub fn sprt_report(spec: &SprtSpec, sample: &Sample) -> SprtReport {
    let (text, json) = report_both(spec, sample);
    SprtReport { text, json }
}

/// The text and the JSON form of one report ([`sprt_report`]).
fn report_both(spec: &SprtSpec, sample: &Sample) -> (String, serde_json::Map<String, serde_json::Value>) {
    let mut out = String::new();
    let mut figures: Vec<(&str, Figure)> = Vec::new();
    let mut json = serde_json::Map::new();
    let (lower, upper) = spec.bounds();
    let unit = if spec.model() == EloModel::Normalized { "nElo" } else { "Elo" };
    let _ = writeln!(
        out,
        "SPRT        {} model, {unit} [{}, {}], alpha {}, beta {}",
        spec.model(),
        spec.elo0(),
        spec.elo1(),
        spec.alpha(),
        spec.beta()
    );
    json.insert(
        "sprt".into(),
        serde_json::json!({
            "model": spec.model().name(), "elo0": spec.elo0(), "elo1": spec.elo1(),
            "alpha": spec.alpha(), "beta": spec.beta(), "lower": lower, "upper": upper,
        }),
    );
    let wdl = match sample {
        Sample::Games(wdl) => *wdl,
        Sample::Pairs { penta, .. } => penta.to_wdl(),
    };
    let under = |model: EloModel| -> Result<SprtOutcome, StatsError> {
        outcome(&SprtSpec::new(spec.elo0(), spec.elo1(), spec.alpha(), spec.beta(), model)?, sample)
    };
    let main = outcome(spec, sample);
    let llr = llr_figure(&main);
    match &main {
        Ok(o) => {
            let method = if o.approximate {
                " [approximate LLR: the exact fit has no solution here (docs/statistics.md)]"
            } else {
                ""
            };
            let _ = writeln!(
                out,
                "LLR         {} (bounds {:.3}, {:.3}) -> {}{method}",
                llr.fixed(3),
                lower,
                upper,
                decision_text(o.decision)
            );
            json.insert("llr_method".into(), if o.approximate { "approximation" } else { "exact" }.into());
            json.insert("decision".into(), o.decision.word().into());
        }
        Err(e) => {
            let _ = writeln!(out, "LLR         - ({e}); bounds {lower:.3}, {upper:.3}; the test continues");
            json.insert("llr_method".into(), serde_json::Value::Null);
            json.insert("decision".into(), SprtDecision::Continue.word().into());
        }
    }
    figures.push(("llr", llr));
    let mut by_model = Vec::new();
    for model in [EloModel::Normalized, EloModel::Logistic, EloModel::BayesElo] {
        let other = under(model);
        let figure = llr_figure(&other);
        if model != spec.model() {
            let text = match &other {
                Ok(o) => format!("{} -> {}", figure.fixed(3), decision_text(o.decision)),
                Err(_) => figure.fixed(3),
            };
            let approximate = if matches!(other, Ok(o) if o.approximate) { " [approximate LLR]" } else { "" };
            let name = if model == EloModel::BayesElo { "bayeselo (cutechess)".to_string() } else { model.to_string() };
            let _ = writeln!(out, "  LLR with the {name} model, same bounds: {text}{approximate}");
        }
        by_model.push((model.name(), figure));
    }
    json.insert("llr_by_model".into(), figures_json(&by_model));

    games_text(&mut out, &mut json, &mut figures, sample, wdl);
    let decided = main.as_ref().map_or(SprtDecision::Continue, |o| o.decision);
    estimates_text(&mut out, &mut figures, spec, sample, wdl, decided);
    let serde_json::Value::Object(values) = figures_json(&figures) else { unreachable!("figures_json is an object") };
    // The figures' reasons merged with any from games_text.
    for (key, value) in values {
        json.insert(key, value);
    }
    (out, json)
}

/// The estimate lines: Elo, nElo and LOS, cutechess's Elo line, and once the SPRT has `decided`, fishtest's
/// stopping-rule-aware Elo; each figure also goes to `figures` for the JSON form.
fn estimates_text(
    out: &mut String,
    figures: &mut Vec<(&str, Figure)>,
    spec: &SprtSpec,
    sample: &Sample,
    wdl: Wdl,
    decided: SprtDecision,
) {
    let merged = matches!(sample, Sample::Pairs { merged: true, .. });
    let estimate = match sample {
        Sample::Games(wdl) => elo_estimate(wdl),
        Sample::Pairs { penta, .. } => elo_estimate(penta),
    };
    let names = ["elo", "elo95", "los", "nelo", "nelo_lo", "nelo_hi"];
    match estimate {
        Ok(e) => {
            let _ = writeln!(out, "Elo         {:+.2} +/- {:.2} (95%), LOS {:.1}%", e.elo, e.elo95, 100.0 * e.los);
            let _ = writeln!(out, "nElo        {:+.2} [{:+.2}, {:+.2}] (95%)", e.nelo, e.nelo_lo, e.nelo_hi);
            for (name, x) in names.iter().zip([e.elo, e.elo95, e.los, e.nelo, e.nelo_lo, e.nelo_hi]) {
                figures.push((name, Figure::of(x, "")));
            }
        }
        Err(e) => {
            let _ = writeln!(out, "Elo         - ({e})");
            figures.extend(names.iter().map(|name| (*name, Figure::missing(e.to_string()))));
        }
    }
    let (cc_elo, cc_margin) = match cutechess_elo(&wdl) {
        _ if merged => (Figure::missing(MERGED), Figure::missing(MERGED)),
        Some(cc) => {
            let side =
                if cc.elo > 0.0 { "no losses or draws: the score is 1" } else { "no wins or draws: the score is 0" };
            let margin = "the score's 95% interval reaches a score of 0 or 1";
            (Figure::of(cc.elo, side), Figure::of(cc.margin, margin))
        }
        None => (Figure::missing("no games"), Figure::missing("no games")),
    };
    match (&cc_elo, &cc_margin) {
        (Figure::Missing { reason }, _) => {
            let _ = writeln!(out, "cutechess   - ({reason})");
        }
        _ => {
            let _ = writeln!(
                out,
                "cutechess   Elo {} +/- {} (cutechess-cli's Elo line)",
                cc_elo.signed(2),
                cc_margin.fixed(2)
            );
        }
    }
    figures.push(("cutechess_elo", cc_elo));
    figures.push(("cutechess_margin", cc_margin));
    let sprt_names = ["sprt_elo", "sprt_elo_lo", "sprt_elo_hi", "sprt_los"];
    if decided == SprtDecision::Continue {
        figures.extend(sprt_names.iter().map(|name| (*name, Figure::missing("the SPRT has not decided"))));
    } else {
        let sprt_estimate = match sample {
            Sample::Games(wdl) => sprt_elo(spec, wdl, 0.05),
            Sample::Pairs { penta, .. } => sprt_elo(spec, penta, 0.05),
        };
        match sprt_estimate {
            Ok(e) => {
                let _ = writeln!(
                    out,
                    "SPRT Elo    {:+.2} [{:+.2}, {:+.2}] (95%), LOS {:.1}%: logistic Elo corrected for the stopping \
                     rule (fishtest's median-unbiased estimate)",
                    e.elo,
                    e.elo_lo,
                    e.elo_hi,
                    100.0 * e.los
                );
                for (name, x) in sprt_names.iter().zip([e.elo, e.elo_lo, e.elo_hi, e.los]) {
                    figures.push((name, Figure::of(x, "")));
                }
            }
            Err(e) => {
                let _ = writeln!(out, "SPRT Elo    - ({e})");
                figures.extend(sprt_names.iter().map(|name| (*name, Figure::missing(e.to_string()))));
            }
        }
    }
}

/// The games and pairs lines: W/D/L, score, draw ratio, and the pair counts. Five pentanomial counts do not
/// give W/D/L (a WL+DD pair is a win and a loss, or two draws): the split is shown as the range it can take,
/// and the draw ratio as bounds, with the reason.
fn games_text(
    out: &mut String,
    json: &mut serde_json::Map<String, serde_json::Value>,
    figures: &mut Vec<(&str, Figure)>,
    sample: &Sample,
    wdl: Wdl,
) {
    let games = wdl.games();
    let score = Figure::ratio(wdl.wins as f64 + 0.5 * wdl.draws as f64, games as f64, "no games");
    json.insert("games".into(), games.into());
    match sample {
        Sample::Pairs { penta, merged: true } => {
            // WL+DD pairs (held in `dd`) add either a win and a loss or two draws.
            let mid = penta.dd;
            let wins = (2 * penta.ww + penta.wd, 2 * penta.ww + penta.wd + mid);
            let draws = (penta.ld + penta.wd, penta.ld + penta.wd + 2 * mid);
            let losses = (2 * penta.ll + penta.ld, 2 * penta.ll + penta.ld + mid);
            let draw_lo = Figure::ratio(draws.0 as f64, games as f64, "no games");
            let draw_hi = Figure::ratio(draws.1 as f64, games as f64, "no games");
            let _ = writeln!(
                out,
                "Games       {games}, score {}; W {}-{} D {}-{} L {}-{}, draw ratio {}-{}: bounds only, since {MERGED}",
                percent(&score),
                wins.0,
                wins.1,
                draws.0,
                draws.1,
                losses.0,
                losses.1,
                percent(&draw_lo),
                percent(&draw_hi),
            );
            for (name, range) in [("wins", wins), ("draws", draws), ("losses", losses)] {
                json.insert(name.into(), serde_json::Value::Null);
                json.insert(format!("{name}_range"), serde_json::json!([range.0, range.1]));
            }
            json.insert("draw_ratio_range".into(), serde_json::json!([draw_lo.to_json(), draw_hi.to_json()]));
            figures.push(("draw_ratio", Figure::missing(MERGED)));
        }
        _ => {
            let draw_ratio = Figure::ratio(wdl.draws as f64, games as f64, "no games");
            let _ = writeln!(
                out,
                "Games       {games} (W {} D {} L {}), score {}, draw ratio {}",
                wdl.wins,
                wdl.draws,
                wdl.losses,
                percent(&score),
                percent(&draw_ratio)
            );
            json.insert("wins".into(), wdl.wins.into());
            json.insert("draws".into(), wdl.draws.into());
            json.insert("losses".into(), wdl.losses.into());
            figures.push(("draw_ratio", draw_ratio));
        }
    }
    figures.push(("score", score));
    let Sample::Pairs { penta, merged } = sample else {
        json.insert("pairs".into(), serde_json::Value::Null);
        return;
    };
    let pairs = penta.pairs();
    let share = |n: u64| percent(&Figure::ratio(n as f64, pairs as f64, "no pairs"));
    let middle = if *merged {
        format!("WL+DD {} ({})", penta.dd, share(penta.dd))
    } else {
        format!("WL {} ({}) DD {} ({})", penta.wl, share(penta.wl), penta.dd, share(penta.dd))
    };
    let _ = writeln!(
        out,
        "Pairs       {pairs}: LL {} ({}) LD {} ({}) {middle} DW {} ({}) WW {} ({})",
        penta.ll,
        share(penta.ll),
        penta.ld,
        share(penta.ld),
        penta.wd,
        share(penta.wd),
        penta.ww,
        share(penta.ww)
    );
    let (wl, dd) =
        if *merged { (serde_json::Value::Null, serde_json::Value::Null) } else { (penta.wl.into(), penta.dd.into()) };
    json.insert(
        "pairs".into(),
        serde_json::json!({
            "pairs": pairs, "ll": penta.ll, "ld": penta.ld, "wl": wl, "dd": dd,
            "wl_dd": penta.wl + penta.dd, "wd": penta.wd, "ww": penta.ww,
        }),
    );
    let wl_dd = if *merged {
        Figure::missing(MERGED)
    } else {
        let wl_dd = Figure::ratio(
            penta.wl as f64,
            penta.dd as f64,
            if penta.wl == 0 { "no WL or DD pairs" } else { "no DD pairs" },
        );
        let _ = writeln!(out, "            WL/DD ratio {}", wl_dd.fixed(2));
        wl_dd
    };
    figures.push(("wl_dd_ratio", wl_dd));
}

/// A fraction as a percentage with one decimal (`68.8%`), or the figure's reason.
fn percent(fraction: &Figure) -> String {
    fraction.clone().scaled(100.0).text(|x| format!("{x:.1}%"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_parse_or_say_what_is_wrong() {
        assert_eq!(parse_wdl("145,57,50").unwrap(), Wdl::new(145, 57, 50));
        assert_eq!(parse_wdl("1,2").unwrap_err().to_string(), "\"1,2\": expected three counts W,D,L, got 2");
        assert!(parse_wdl("1,x,2").unwrap_err().to_string().contains("\"x\" is not a whole number"));
        assert!(parse_wdl("1,-2,2").is_err());
        let Sample::Pairs { penta, merged } = parse_penta("1,14,40,31,40").unwrap() else { panic!() };
        assert!(merged);
        assert_eq!((penta.wl + penta.dd, penta.pairs()), (40, 126));
        let Sample::Pairs { penta, merged } = parse_penta("1,14,34,6,31,40").unwrap() else { panic!() };
        assert!(!merged);
        assert_eq!((penta.wl, penta.dd), (34, 6));
        assert!(parse_penta("1,2,3").is_err());
    }

    #[test]
    fn counts_whose_total_overflows_are_refused() {
        // u64::MAX + 1 wrapped to 0 games: "Games 0 (W 18446744073709551615 D 0 L 1)".
        let err = parse_wdl("18446744073709551615,0,1").unwrap_err().to_string();
        assert!(err.contains("more than 9007199254740992 games"), "{err}");
        assert!(parse_wdl(&format!("{},0,1", MAX_GAMES)).is_err());
        assert_eq!(parse_wdl(&format!("{},0,0", MAX_GAMES)).unwrap().games(), MAX_GAMES);
        assert!(parse_penta("18446744073709551615,0,0,0,1").unwrap_err().to_string().contains("more than"));
        // Each pair is two games, so half of 2^53 pairs plus one is too many.
        assert!(parse_penta(&format!("{},0,0,0,1", MAX_GAMES / 2)).is_err());
        assert!(parse_penta(&format!("{},0,0,0,0,0", MAX_GAMES / 2)).is_ok());
        assert!(parse_penta(&format!("{},0,0,0,0,1", MAX_GAMES / 2)).is_err());
    }

    #[test]
    fn reports_every_model_and_never_nan() {
        let spec = SprtSpec::new(0.0, 10.0, 0.05, 0.05, EloModel::Normalized).unwrap();
        let text = sprt_report(&spec, &parse_penta("1,14,34,6,31,40").unwrap()).text;
        assert!(text.contains("LLR         2.969 (bounds -2.944, 2.944) -> H1 accepted (pass)"), "{text}");
        assert!(text.contains("LLR with the logistic model") && text.contains("bayeselo (cutechess)"), "{text}");
        assert!(text.contains("WL/DD ratio 5.67") && text.contains("SPRT Elo    +"), "{text}");
        // Every small count vector: no NaN anywhere in the report.
        for w in 0..4u64 {
            for d in 0..4u64 {
                for l in 0..4u64 {
                    for model in [EloModel::Normalized, EloModel::Logistic, EloModel::BayesElo] {
                        let spec = SprtSpec::new(-1500.0, -500.0, 0.05, 0.05, model).unwrap();
                        let text = sprt_report(&spec, &Sample::Games(Wdl::new(w, d, l))).text;
                        assert!(!text.to_lowercase().contains("nan"), "{w},{d},{l} {model}: {text}");
                        let penta = Pentanomial { ll: w, ld: d, wl: l, dd: w, wd: d, ww: l };
                        let text = sprt_report(&spec, &Sample::Pairs { penta, merged: false }).text;
                        assert!(!text.to_lowercase().contains("nan"), "{penta:?} {model}: {text}");
                    }
                }
            }
        }
    }
}
