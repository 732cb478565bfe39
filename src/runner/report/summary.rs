//! The end-of-match report: `summary.txt` (the text also printed to stdout), `summary.csv` (one row per
//! pairing) and `summary.json` (the same figures at full precision, see docs/statistics.md).

use crate::engine::Build;
use crate::game::Game;
use crate::player::EngineKind;
use crate::runner::Variant;
use crate::runner::game::EndReason;
use crate::runner::report::lines::match_report;
use crate::runner::rundir::output::{OutputError, create_new_file};
use crate::runner::scheduler::{MatchLength, MatchSpec, MatchState, Tournament, decision_text};
use crate::runner::tally::PairingTally;
use crate::stats::{Figure, SprtDecision, figures_json};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

/// The header of `summary.csv`.
pub const SUMMARY_CSV_HEADER: [&str; 25] = [
    "first",
    "second",
    "games",
    "wins",
    "draws",
    "losses",
    "ll",
    "ld",
    "wl",
    "dd",
    "wd",
    "ww",
    "score",
    "elo",
    "elo95",
    "los",
    "nelo",
    "nelo_lo",
    "nelo_hi",
    "elo0",
    "elo1",
    "llr",
    "llr_lower",
    "llr_upper",
    "sprt",
];

/// The report of a match as text: the setup, the games played, the ways games ended, and per pairing the W/D/L
/// and pentanomial counts (from the first engine's view), the Elo with its 95% interval, the LOS and, under
/// an SPRT, the LLR with its bounds and the decision; then the same counts in the cutechess-cli and fastchess
/// line formats ([`match_report`]).
pub fn summary_text<G: Game>(spec: &MatchSpec<G>, state: &MatchState) -> String {
    let mut out = String::new();
    let names: Vec<&str> = spec.engines.iter().map(|e| e.name.as_str()).collect();
    let _ = writeln!(out, "Arbiter match");
    for engine in &spec.engines {
        let kind = match &engine.kind {
            EngineKind::Builtin(Build::Chess(_)) => "built-in engine",
            EngineKind::Builtin(Build::Xiangqi(_)) => "built-in Xiangqi engine",
            EngineKind::Uci(_) => "UCI engine",
        };
        let _ = writeln!(out, "  engine     {} ({kind}, {})", engine.name, engine.origin);
    }
    let from = if spec.start > 1 { format!(", from opening {}", spec.start) } else { String::new() };
    let _ = writeln!(
        out,
        "  openings   {} ({} openings, {} order, seed {}{from})",
        spec.openings_source,
        spec.openings.len(),
        spec.order.name(),
        spec.seed
    );
    if G::NAME != "chess" {
        let _ = writeln!(out, "  game       {}", G::NAME);
    }
    if spec.variant != Variant::Standard {
        let _ = writeln!(out, "  variant    {}", spec.variant.name());
    }
    if spec.tournament != Tournament::RoundRobin || !spec.swap {
        let colours = if spec.swap { "colours swapped in each pair" } else { "no colour swap" };
        let _ = writeln!(out, "  tournament {}, {colours}", spec.tournament.name());
    }
    for engine in &spec.engines {
        let _ = writeln!(out, "  limits     {}: {}", engine.name, engine.limit);
    }
    let adj = &spec.settings.adjudication;
    let mut rules = Vec::new();
    if let Some(d) = adj.draw {
        rules.push(format!("draw movenumber={},movecount={},score={}", d.movenumber, d.movecount, d.score));
    }
    if let Some(r) = adj.resign {
        rules.push(format!("resign movecount={},score={},twosided={}", r.movecount, r.score, r.twosided));
    }
    if let Some(m) = adj.maxmoves {
        rules.push(format!("maxmoves {m}"));
    }
    if !rules.is_empty() {
        let _ = writeln!(out, "  adjudicate {}", rules.join("; "));
    }
    let _ = writeln!(out, "  concurrency {}", spec.concurrency);
    if let Some(shard) = spec.shard {
        let _ = writeln!(
            out,
            "  shard      {shard}: {} of the {} pairs (pair k when k mod {} = {}); merge the shards with `arbiter \
             merge` for the whole match",
            state.schedule.planned_pairs(),
            state.schedule.total_pairs,
            shard.count(),
            shard.index() - 1
        );
    }

    let games = state.tally.games;
    let played = games - state.resumed.min(games);
    let secs = state.elapsed.as_secs_f64();
    let rate = if secs > 0.0 { played as f64 / secs } else { 0.0 };
    let planned = match spec.length {
        MatchLength::UntilDecided => format!("until the SPRT decides, at most {}", state.games_total()),
        _ => format!("{} planned", state.games_total()),
    };
    if state.resumed == 0 {
        let _ = writeln!(out, "\nGames: {games} ({planned}) in {secs:.1} s, {rate:.2} games/s");
    } else if played == 0 {
        let _ = writeln!(out, "\nGames: {games} ({planned}), read back from the result files");
    } else {
        let _ = writeln!(
            out,
            "\nGames: {games} ({planned}; {} recorded before this session) in {secs:.1} s, {rate:.2} games/s",
            state.resumed
        );
    }
    let ends: Vec<String> = EndReason::ALL
        .iter()
        .filter(|&&r| state.tally.count(r) > 0)
        .map(|&r| format!("{} {}", r.text(), state.tally.count(r)))
        .collect();
    if !ends.is_empty() {
        let _ = writeln!(out, "Terminations: {}", ends.join(", "));
    }

    for (i, tally) in state.tally.pairings.iter().enumerate() {
        let _ = writeln!(out, "\n{} vs {}", names[tally.first], names[tally.second]);
        pairing_text(&mut out, tally);
        if i == 0 {
            sprt_text(&mut out, spec, state);
        }
    }
    let _ = write!(out, "\n{}", match_report(spec, state));
    if let Some(failure) = &state.failure {
        let _ = writeln!(out, "\nStopped by an error: {failure}");
    }
    if let Some(halted) = &state.halted {
        let _ = writeln!(out, "\nStopped by an engine failure: {halted}");
    }
    if state.interrupted {
        let abandoned = match state.abandoned {
            0 => String::new(),
            n => format!("; {n} games still in play were abandoned and are not counted"),
        };
        let _ = writeln!(out, "\nInterrupted: the run was stopped after {games} games{abandoned}");
    }
    out
}

/// The W/D/L, pentanomial and Elo lines of one pairing.
fn pairing_text(out: &mut String, tally: &PairingTally) {
    let wdl = tally.wdl;
    let score = wdl.score().map_or("-".to_string(), |s| format!("{:.1}%", 100.0 * s));
    let _ = writeln!(
        out,
        "  games       {} (W/D/L {} / {} / {}, score {score})",
        wdl.games(),
        wdl.wins,
        wdl.draws,
        wdl.losses
    );
    let p = tally.penta;
    let _ = writeln!(
        out,
        "  pentanomial LL {} LD {} WL {} DD {} WD {} WW {} ({} pairs)",
        p.ll,
        p.ld,
        p.wl,
        p.dd,
        p.wd,
        p.ww,
        p.pairs()
    );
    match tally.elo() {
        Some(e) => {
            let _ = writeln!(
                out,
                "  Elo         {:+.1} +/- {:.1} (95%), nElo {:+.1} [{:+.1}, {:+.1}]",
                e.elo, e.elo95, e.nelo, e.nelo_lo, e.nelo_hi
            );
            let _ = writeln!(out, "  LOS         {:.1}%", 100.0 * e.los);
        }
        None => {
            let _ = writeln!(out, "  Elo         - (too few games)");
        }
    }
}

/// The SPRT lines of the first pairing.
fn sprt_text<G: Game>(out: &mut String, spec: &MatchSpec<G>, state: &MatchState) {
    let Some(sprt) = spec.sprt else {
        return;
    };
    let (lower, upper) = sprt.bounds();
    let _ = writeln!(
        out,
        "  SPRT        {} elo0 {} elo1 {}, alpha {} beta {}",
        sprt.model(),
        sprt.elo0(),
        sprt.elo1(),
        sprt.alpha(),
        sprt.beta()
    );
    let llr = llr_figure(state).fixed(3);
    let llr = match state.sprt {
        Some(o) if o.approximate => format!("{llr} (approximate LLR: the exact fit has no solution here)"),
        _ => llr,
    };
    let _ = writeln!(out, "  LLR         {llr} (bounds [{lower:.3}, {upper:.3}])");
    let decision = match state.verdict {
        Some(v) if spec.shard.is_some() => format!(
            "{} by the run's shards together (LLR {:.3} after {} pairs of the run; this shard's own pairs above)",
            decision_text(v.decision),
            v.outcome.llr,
            v.pairs
        ),
        Some(v) => format!(
            "{} (LLR {:.3} after {} pairs; pairs in play when it decided were still recorded)",
            decision_text(v.decision),
            v.outcome.llr,
            v.pairs
        ),
        None if state.failure.is_some() => "none (the match stopped on an error)".to_string(),
        None if state.halted.is_some() => "none (the match stopped on an engine failure)".to_string(),
        None if spec.shard.is_some() => {
            "none yet: the run's shards take it together (arbiter status RUN; arbiter merge)".to_string()
        }
        None if state.interrupted => "none (the match was interrupted)".to_string(),
        None => "none: the LLR stayed within the bounds".to_string(),
    };
    let _ = writeln!(out, "  decision    {decision}");
}

/// The match's LLR as a figure: missing before 2 pairs, an infinity with its reason.
fn llr_figure(state: &MatchState) -> Figure {
    match state.sprt {
        Some(o) => Figure::of(o.llr, "a hypothesis gives the results seen probability 0"),
        None => Figure::missing("too few game pairs: at least 2 needed"),
    }
}

/// One `summary.csv` row per pairing (SPRT columns on the first pairing only, when there is an SPRT).
pub fn summary_rows<G: Game>(spec: &MatchSpec<G>, state: &MatchState) -> Vec<Vec<String>> {
    let names: Vec<&str> = spec.engines.iter().map(|e| e.name.as_str()).collect();
    let float = |v: f64| format!("{v:.4}");
    state
        .tally
        .pairings
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let (w, p) = (t.wdl, t.penta);
            let mut row = vec![
                names[t.first].to_string(),
                names[t.second].to_string(),
                w.games().to_string(),
                w.wins.to_string(),
                w.draws.to_string(),
                w.losses.to_string(),
                p.ll.to_string(),
                p.ld.to_string(),
                p.wl.to_string(),
                p.dd.to_string(),
                p.wd.to_string(),
                p.ww.to_string(),
            ];
            // The plain score (points per game), as in summary.txt; the Elo model's regularized score is not
            // reported.
            row.push(w.score().map_or(String::new(), float));
            match t.elo() {
                Some(e) => row.extend([e.elo, e.elo95, e.los, e.nelo, e.nelo_lo, e.nelo_hi].map(float)),
                None => row.extend(std::iter::repeat_n(String::new(), 6)),
            }
            match (i, spec.sprt) {
                (0, Some(sprt)) => {
                    let (lower, upper) = sprt.bounds();
                    row.push(sprt.elo0().to_string());
                    row.push(sprt.elo1().to_string());
                    row.push(match llr_figure(state) {
                        Figure::Missing { .. } => String::new(),
                        llr => llr.fixed(4),
                    });
                    row.push(float(lower));
                    row.push(float(upper));
                    let decision = state.verdict.map_or(SprtDecision::Continue, |v| v.decision);
                    row.push(decision_text(decision).to_string());
                }
                _ => row.extend(std::iter::repeat_n(String::new(), 6)),
            }
            row
        })
        .collect()
}

/// The summary as one JSON object (docs/statistics.md): the games, the terminations, per pairing its counts and
/// Elo figures, and the SPRT with its LLR, every figure at full precision ([`Figure::to_json`]: a number,
/// `"inf"`/`"-inf"` or `null`, with the reason under `"reasons"`).
pub fn summary_json<G: Game>(spec: &MatchSpec<G>, state: &MatchState) -> serde_json::Value {
    use serde_json::json;
    let names: Vec<&str> = spec.engines.iter().map(|e| e.name.as_str()).collect();
    let terminations: serde_json::Map<String, serde_json::Value> = EndReason::ALL
        .iter()
        .filter(|&&r| state.tally.count(r) > 0)
        .map(|&r| (r.text().to_string(), state.tally.count(r).into()))
        .collect();
    let pairings: Vec<serde_json::Value> = state
        .tally
        .pairings
        .iter()
        .map(|t| {
            let (w, p) = (t.wdl, t.penta);
            let score = Figure::ratio(w.wins as f64 + 0.5 * w.draws as f64, w.games() as f64, "no games");
            let draw_ratio = Figure::ratio(w.draws as f64, w.games() as f64, "no games");
            let mut figures = vec![("score", score), ("draw_ratio", draw_ratio)];
            let names6 = ["elo", "elo95", "los", "nelo", "nelo_lo", "nelo_hi"];
            match t.elo() {
                Some(e) => figures.extend(
                    names6.iter().zip([e.elo, e.elo95, e.los, e.nelo, e.nelo_lo, e.nelo_hi]).map(|(n, x)| (*n, Figure::of(x, ""))),
                ),
                None => figures.extend(names6.iter().map(|n| (*n, Figure::missing("too few games: at least 2 needed")))),
            }
            let serde_json::Value::Object(mut object) = figures_json(&figures) else { unreachable!("an object") };
            let counts = json!({
                "first": names[t.first], "second": names[t.second], "games": w.games(),
                "wins": w.wins, "draws": w.draws, "losses": w.losses,
                "pentanomial": { "pairs": p.pairs(), "ll": p.ll, "ld": p.ld, "wl": p.wl, "dd": p.dd, "wd": p.wd, "ww": p.ww },
            });
            let serde_json::Value::Object(counts) = counts else { unreachable!("an object") };
            object.extend(counts);
            serde_json::Value::Object(object)
        })
        .collect();
    let sprt = spec.sprt.map(|sprt| {
        let (lower, upper) = sprt.bounds();
        let serde_json::Value::Object(mut object) = figures_json(&[("llr", llr_figure(state))]) else {
            unreachable!("an object")
        };
        let method = match state.sprt {
            Some(o) if o.approximate => json!("approximation"),
            Some(_) => json!("exact"),
            None => serde_json::Value::Null,
        };
        let decision = state.verdict.map_or(SprtDecision::Continue, |v| v.decision);
        let extra = json!({
            "model": sprt.model().name(), "elo0": sprt.elo0(), "elo1": sprt.elo1(),
            "alpha": sprt.alpha(), "beta": sprt.beta(), "lower": lower, "upper": upper,
            "llr_method": method,
            "decision": decision.word(),
            "decided_after_pairs": state.verdict.map(|v| v.pairs),
            "llr_at_decision": state.verdict.map(|v| v.outcome.llr).filter(|x| x.is_finite()),
        });
        let serde_json::Value::Object(extra) = extra else { unreachable!("an object") };
        object.extend(extra);
        serde_json::Value::Object(object)
    });
    json!({
        "games": state.tally.games,
        "games_planned": state.games_total(),
        "terminations": terminations,
        "pairings": pairings,
        "sprt": sprt,
        "interrupted": state.interrupted,
        "failure": state.failure,
        "halted": state.halted,
    })
}

/// Writes `summary.txt` ([`summary_text`]), `summary.csv` ([`summary_rows`]) and `summary.json`
/// ([`summary_json`]) into `dir`.
///
/// # Errors
/// [`OutputError`] naming the file; [`OutputError::Exists`] if either exists already.
pub fn write_summary<G: Game>(dir: &Path, spec: &MatchSpec<G>, state: &MatchState) -> Result<(), OutputError> {
    let path = dir.join("summary.txt");
    let io = |path: &Path, reason| OutputError::Io { path: path.display().to_string(), reason };
    let mut file = create_new_file(&path)?;
    file.write_all(summary_text(spec, state).as_bytes()).map_err(|e| io(&path, e))?;

    let path = dir.join("summary.csv");
    let csv_error = |reason| OutputError::Csv { path: path.display().to_string(), reason };
    let mut csv = csv::Writer::from_writer(create_new_file(&path)?);
    csv.write_record(SUMMARY_CSV_HEADER).map_err(csv_error)?;
    for row in summary_rows(spec, state) {
        csv.write_record(&row).map_err(csv_error)?;
    }
    csv.flush().map_err(|e| io(&path, e))?;

    let path = dir.join("summary.json");
    let mut file = create_new_file(&path)?;
    let text = serde_json::to_string_pretty(&summary_json(spec, state)).expect("JSON values always serialize");
    file.write_all(text.as_bytes()).and_then(|()| file.write_all(b"\n")).map_err(|e| io(&path, e))
}
