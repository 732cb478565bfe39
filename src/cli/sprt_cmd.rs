//! `arbiter sprt`: the SPRT and Elo report of given counts or of a match's results, under fishtest's models
//! (normalized, logistic) and cutechess-cli's BayesElo model, each named; and `arbiter sprt simulate`.
//!
//! ```text
//! arbiter sprt --wdl 145,57,50 --elo0 0 --elo1 10 --model normalized
//! arbiter sprt --penta 1,14,40,31,40 --elo0 0 --elo1 10        (LL,LD,WL+DD,DW,WW)
//! arbiter sprt --penta 1,14,34,6,31,40 --elo0 0 --elo1 10      (LL,LD,WL,DD,DW,WW)
//! arbiter sprt --results results/<run>                          (the run's own --sprt, or --elo0/--elo1)
//! ```
//!
//! Every number printed is finite or an explicit `inf`; a statistic that cannot be computed (too few games,
//! hypotheses no distribution fits) is printed as `-` with the reason. Exit codes: 0, or 2 for bad input.

use super::match_cmd::{Failure, clap_error_text, exit_code, parse_match_args, parse_sprt};
use crate::runner::records::{Repair, read_run};
use crate::runner::runfile::RunFile;
use crate::runner::{RUN_TOML, score_of};
use crate::stats::{
    EloModel, GameScore, Pentanomial, SprtDecision, SprtSpec, StatsError, Wdl, cutechess_elo, elo_estimate, sprt_elo,
};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Flags of `arbiter sprt`.
#[derive(clap::Args, Debug, Clone)]
#[command(args_conflicts_with_subcommands = true)]
pub struct SprtArgs {
    /// Simulate SPRTs with a known true Elo (`arbiter sprt simulate --help`).
    #[command(subcommand)]
    pub command: Option<SprtCommand>,

    /// Game counts from the tested engine's view: wins, draws, losses.
    #[arg(long, value_name = "W,D,L", conflicts_with_all = ["penta", "results"])]
    pub wdl: Option<String>,

    /// Game-pair counts: LL,LD,WL+DD,DW,WW (fishtest's five) or LL,LD,WL,DD,DW,WW (WL and DD apart).
    #[arg(long, value_name = "COUNTS", conflicts_with = "results")]
    pub penta: Option<String>,

    /// A match's run folder (or its games.csv): the counts of its two engines, from the first engine's view;
    /// the SPRT is the run's own `--sprt` unless --elo0/--elo1 are given.
    #[arg(long, value_name = "DIR")]
    pub results: Option<PathBuf>,

    /// H0, in the units of --model (nElo for normalized, logistic Elo otherwise).
    #[arg(value_parser = crate::cli::args::finite, long, value_name = "ELO", allow_hyphen_values = true)]
    pub elo0: Option<f64>,

    /// H1, in the units of --model.
    #[arg(value_parser = crate::cli::args::finite, long, value_name = "ELO", allow_hyphen_values = true)]
    pub elo1: Option<f64>,

    /// False-positive rate.
    #[arg(value_parser = crate::cli::args::probability, long, default_value_t = 0.05)]
    pub alpha: f64,

    /// False-negative rate.
    #[arg(value_parser = crate::cli::args::probability, long, default_value_t = 0.05)]
    pub beta: f64,

    /// The model of the decision: normalized (fishtest's default), logistic, or bayeselo (cutechess-cli).
    #[arg(long, default_value = "normalized")]
    pub model: String,
}

/// Subcommands of `arbiter sprt`.
#[derive(clap::Subcommand, Debug, Clone)]
pub enum SprtCommand {
    /// Simulate matches with a known true Elo: pass rate and games to a decision.
    Simulate(super::simulate_cmd::SimulateArgs),
}

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

/// Parses `W,D,L`.
///
/// # Errors
/// A message naming `--wdl` and what is wrong.
pub fn parse_wdl(text: &str) -> Result<Wdl, String> {
    let n = parse_counts("--wdl", text)?;
    match n.as_slice() {
        [w, d, l] => Ok(Wdl::new(*w, *d, *l)),
        _ => Err(format!("--wdl {text:?}: expected three counts W,D,L, got {}", n.len())),
    }
}

/// Parses `LL,LD,WL+DD,DW,WW` (five) or `LL,LD,WL,DD,DW,WW` (six).
///
/// # Errors
/// A message naming `--penta` and what is wrong.
pub fn parse_penta(text: &str) -> Result<Sample, String> {
    let n = parse_counts("--penta", text)?;
    match n.as_slice() {
        [ll, ld, wl_dd, wd, ww] => Ok(Sample::Pairs {
            penta: Pentanomial { ll: *ll, ld: *ld, wl: 0, dd: *wl_dd, wd: *wd, ww: *ww },
            merged: true,
        }),
        [ll, ld, wl, dd, wd, ww] => Ok(Sample::Pairs {
            penta: Pentanomial { ll: *ll, ld: *ld, wl: *wl, dd: *dd, wd: *wd, ww: *ww },
            merged: false,
        }),
        _ => Err(format!(
            "--penta {text:?}: expected five counts LL,LD,WL+DD,DW,WW or six LL,LD,WL,DD,DW,WW, got {}",
            n.len()
        )),
    }
}

fn parse_counts(flag: &str, text: &str) -> Result<Vec<u64>, String> {
    text.split(',')
        .map(|item| {
            item.trim()
                .parse::<u64>()
                .map_err(|_| format!("{flag} {text:?}: {:?} is not a whole number of games", item.trim()))
        })
        .collect()
}

/// The two engines of a run's games and their counts from the first engine's view (the engine with White in
/// the first game of the first pair).
///
/// # Errors
/// A message naming the file: not exactly two engines, or unreadable.
pub fn counts_of_run(dir: &Path) -> Result<(String, String, Wdl, Pentanomial), String> {
    let records = read_run(dir, Repair::ReadOnly).map_err(|e| e.to_string())?;
    let csv = dir.join("games.csv").display().to_string();
    let mut names: Vec<&str> = Vec::new();
    for row in &records.rows {
        for name in [row.white.as_str(), row.black.as_str()] {
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    if names.len() != 2 {
        return Err(format!(
            "{csv}: {} engines ({}); arbiter sprt reports on two engines (use `arbiter elo` for more)",
            names.len(),
            names.join(", ")
        ));
    }
    let first = records.rows.iter().min_by_key(|r| r.game).map(|r| r.white.clone()).expect("two names, so rows");
    let second = names.iter().find(|&&n| n != first).expect("two names").to_string();
    let mut wdl = Wdl::default();
    let mut by_pair: std::collections::BTreeMap<u64, Vec<(u64, GameScore)>> = Default::default();
    for row in &records.rows {
        let color = if row.white == first { crate::chess::Color::White } else { crate::chess::Color::Black };
        let score = score_of(row.result, color);
        match score {
            GameScore::Win => wdl.wins += 1,
            GameScore::Draw => wdl.draws += 1,
            GameScore::Loss => wdl.losses += 1,
        }
        by_pair.entry(row.pair).or_default().push((row.game, score));
    }
    let mut penta = Pentanomial::default();
    for games in by_pair.values_mut().filter(|g| g.len() == 2) {
        games.sort_by_key(|g| g.0);
        penta.add_pair(games[0].1, games[1].1);
    }
    Ok((first, second, wdl, penta))
}

/// The `--sprt` of a run, from its `run.toml`; `None` when it had none.
fn run_sprt(dir: &Path) -> Result<Option<SprtSpec>, String> {
    let path = dir.join(RUN_TOML);
    let run = RunFile::read(&path).map_err(|e| e.to_string())?;
    let (args, _) =
        parse_match_args(&run.args).map_err(|e| format!("{}: args: {}", path.display(), clap_error_text(&e)))?;
    args.sprt.as_deref().map(parse_sprt).transpose().map_err(|e| format!("{}: args: {e}", path.display()))
}

/// A number as text: fixed decimals, or `inf`/`-inf`.
fn num(x: f64, decimals: usize) -> String {
    if x.is_finite() {
        format!("{x:.decimals$}")
    } else if x > 0.0 {
        "inf".into()
    } else {
        "-inf".into()
    }
}

/// A signed number: `+1.25`, `-0.50`, `inf`.
fn signed(x: f64, decimals: usize) -> String {
    if x.is_finite() { format!("{x:+.decimals$}") } else { num(x, decimals) }
}

/// The decision in words.
fn decision_text(decision: SprtDecision) -> &'static str {
    match decision {
        SprtDecision::AcceptH1 => "H1 accepted (pass)",
        SprtDecision::AcceptH0 => "H0 accepted (fail)",
        SprtDecision::Continue => "continue",
    }
}

/// The report of `sample` under the SPRT `spec` (the decision's model), with the LLR under every model.
pub fn report(spec: &SprtSpec, sample: &Sample) -> String {
    let mut out = String::new();
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
    let wdl = match sample {
        Sample::Games(wdl) => *wdl,
        Sample::Pairs { penta, .. } => penta.to_wdl(),
    };
    let llr_of = |model: EloModel| -> Result<f64, StatsError> {
        let spec = SprtSpec::new(spec.elo0(), spec.elo1(), spec.alpha(), spec.beta(), model)?;
        match sample {
            Sample::Games(wdl) => spec.llr(wdl),
            Sample::Pairs { penta, .. } => spec.llr(penta),
        }
    };
    match llr_of(spec.model()) {
        Ok(llr) => {
            let _ = writeln!(
                out,
                "LLR         {} (bounds {}, {}) -> {}",
                num(llr, 3),
                num(lower, 3),
                num(upper, 3),
                decision_text(spec.decide(llr))
            );
        }
        Err(e) => {
            let _ =
                writeln!(out, "LLR         - ({e}); bounds {}, {}; the test continues", num(lower, 3), num(upper, 3));
        }
    }
    for model in [EloModel::Normalized, EloModel::Logistic, EloModel::BayesElo] {
        if model == spec.model() {
            continue;
        }
        let text = match llr_of(model) {
            Ok(llr) => format!("{} -> {}", num(llr, 3), decision_text(spec.decide(llr))),
            Err(e) => format!("- ({e})"),
        };
        let name = if model == EloModel::BayesElo { "bayeselo (cutechess)".to_string() } else { model.to_string() };
        let _ = writeln!(out, "  LLR with the {name} model, same bounds: {text}");
    }

    let score = wdl.score().map_or("-".to_string(), |s| format!("{:.1}%", 100.0 * s));
    let draws = wdl.draw_ratio().map_or("-".to_string(), |d| format!("{:.1}%", 100.0 * d));
    let _ = writeln!(
        out,
        "Games       {} (W {} D {} L {}), score {score}, draw ratio {draws}",
        wdl.games(),
        wdl.wins,
        wdl.draws,
        wdl.losses
    );
    if let Sample::Pairs { penta, merged } = sample {
        let pairs = penta.pairs();
        let ratio =
            |n: u64| if pairs == 0 { "-".to_string() } else { format!("{:.1}%", 100.0 * n as f64 / pairs as f64) };
        let middle = if *merged {
            format!("WL+DD {} ({})", penta.dd, ratio(penta.dd))
        } else {
            format!("WL {} ({}) DD {} ({})", penta.wl, ratio(penta.wl), penta.dd, ratio(penta.dd))
        };
        let _ = writeln!(
            out,
            "Pairs       {pairs}: LL {} ({}) LD {} ({}) {middle} DW {} ({}) WW {} ({})",
            penta.ll,
            ratio(penta.ll),
            penta.ld,
            ratio(penta.ld),
            penta.wd,
            ratio(penta.wd),
            penta.ww,
            ratio(penta.ww)
        );
        if !*merged {
            let wl_dd =
                if penta.dd == 0 { "inf".to_string() } else { format!("{:.2}", penta.wl as f64 / penta.dd as f64) };
            let _ = writeln!(out, "            WL/DD ratio {wl_dd}");
        }
    }
    let estimate = match sample {
        Sample::Games(wdl) => elo_estimate(wdl),
        Sample::Pairs { penta, .. } => elo_estimate(penta),
    };
    match estimate {
        Ok(e) => {
            let _ = writeln!(
                out,
                "Elo         {} +/- {} (95%), LOS {:.1}%",
                signed(e.elo, 2),
                num(e.elo95, 2),
                100.0 * e.los
            );
            let _ = writeln!(
                out,
                "nElo        {} [{}, {}] (95%)",
                signed(e.nelo, 2),
                signed(e.nelo_lo, 2),
                signed(e.nelo_hi, 2)
            );
        }
        Err(e) => {
            let _ = writeln!(out, "Elo         - ({e})");
        }
    }
    match cutechess_elo(&wdl) {
        Some(cc) => {
            let _ = writeln!(
                out,
                "cutechess   Elo {} +/- {} (cutechess-cli's Elo line)",
                signed(cc.elo, 2),
                num(cc.margin, 2)
            );
        }
        None => {
            let _ = writeln!(out, "cutechess   - (no games)");
        }
    }
    let decided = llr_of(spec.model()).map(|llr| spec.decide(llr)).unwrap_or(SprtDecision::Continue);
    if decided != SprtDecision::Continue {
        let sprt_estimate = match sample {
            Sample::Games(wdl) => sprt_elo(spec, wdl, 0.05),
            Sample::Pairs { penta, .. } => sprt_elo(spec, penta, 0.05),
        };
        match sprt_estimate {
            Ok(e) => {
                let _ = writeln!(
                    out,
                    "SPRT Elo    {} [{}, {}] (95%), LOS {:.1}%: logistic Elo corrected for the stopping rule (fishtest's \
                     median-unbiased estimate)",
                    signed(e.elo, 2),
                    signed(e.elo_lo, 2),
                    signed(e.elo_hi, 2),
                    100.0 * e.los
                );
            }
            Err(e) => {
                let _ = writeln!(out, "SPRT Elo    - ({e})");
            }
        }
    }
    out
}

/// Runs `arbiter sprt`; returns the exit code.
///
/// # Errors
/// None in practice: errors are printed, with exit code 2.
pub fn run(args: SprtArgs) -> anyhow::Result<i32> {
    if let Some(SprtCommand::Simulate(sim)) = args.command {
        return super::simulate_cmd::run(sim);
    }
    Ok(exit_code(run_report(&args)))
}

fn run_report(args: &SprtArgs) -> Result<i32, Failure> {
    let input = |text: String| Failure::Input(anyhow::anyhow!(text));
    let model: EloModel = args
        .model
        .parse()
        .map_err(|_| input(format!("--model {:?}: expected normalized, logistic or bayeselo", args.model)))?;
    let (sample, header, recorded) = match (&args.wdl, &args.penta, &args.results) {
        (Some(text), None, None) => (Sample::Games(parse_wdl(text).map_err(input)?), String::new(), None),
        (None, Some(text), None) => (parse_penta(text).map_err(input)?, String::new(), None),
        (None, None, Some(path)) => {
            let dir = if path.is_file() { path.parent().unwrap_or(Path::new(".")).to_path_buf() } else { path.clone() };
            let (first, second, _, penta) = counts_of_run(&dir).map_err(input)?;
            let recorded = if dir.join(RUN_TOML).exists() { run_sprt(&dir).map_err(input)? } else { None };
            let header = format!("Results     {} ({first} vs {second}, from {first}'s view)\n", dir.display());
            (Sample::Pairs { penta, merged: false }, header, Some((dir, first, recorded)))
        }
        _ => return Err(input("give one of --wdl W,D,L, --penta COUNTS or --results DIR".to_string())),
    };
    let run = recorded.as_ref().map(|(dir, first, _)| (dir.clone(), first.clone()));
    let recorded = recorded.and_then(|(_, _, sprt)| sprt);
    let spec = match (args.elo0, args.elo1, recorded) {
        (Some(elo0), Some(elo1), _) => {
            if elo0 >= elo1 {
                return Err(input(format!("--elo1 {elo1}: must be greater than --elo0 {elo0}")));
            }
            SprtSpec::new(elo0, elo1, args.alpha, args.beta, model).map_err(|e| input(format!("{e}")))?
        }
        (None, None, Some(spec)) => spec,
        (None, None, None) if args.results.is_some() => {
            return Err(input("the run had no --sprt: give --elo0 and --elo1".to_string()));
        }
        _ => return Err(input("give both --elo0 and --elo1".to_string())),
    };
    print!("{header}{}", report(&spec, &sample));
    if let Some((dir, first)) = run {
        let files =
            crate::runner::charts::write_run_charts(&dir, &first, Some(&spec)).map_err(|e| input(e.to_string()))?;
        if !files.is_empty() {
            let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
            println!("Charts      {}", names.join(", "));
        }
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_parse_or_name_the_flag() {
        assert_eq!(parse_wdl("145,57,50").unwrap(), Wdl::new(145, 57, 50));
        assert!(parse_wdl("1,2").unwrap_err().starts_with("--wdl \"1,2\": expected three counts"));
        assert!(parse_wdl("1,x,2").unwrap_err().contains("\"x\" is not a whole number"));
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
    fn reports_every_model_and_never_nan() {
        let spec = SprtSpec::new(0.0, 10.0, 0.05, 0.05, EloModel::Normalized).unwrap();
        let text = report(&spec, &parse_penta("1,14,34,6,31,40").unwrap());
        assert!(text.contains("LLR         2.969 (bounds -2.944, 2.944) -> H1 accepted (pass)"), "{text}");
        assert!(text.contains("LLR with the logistic model") && text.contains("bayeselo (cutechess)"), "{text}");
        assert!(text.contains("WL/DD ratio 5.67") && text.contains("SPRT Elo    +"), "{text}");
        // Every small count vector: no NaN anywhere in the report.
        for w in 0..4u64 {
            for d in 0..4u64 {
                for l in 0..4u64 {
                    for model in [EloModel::Normalized, EloModel::Logistic, EloModel::BayesElo] {
                        let spec = SprtSpec::new(-1500.0, -500.0, 0.05, 0.05, model).unwrap();
                        let text = report(&spec, &Sample::Games(Wdl::new(w, d, l)));
                        assert!(!text.to_lowercase().contains("nan"), "{w},{d},{l} {model}: {text}");
                        let penta = Pentanomial { ll: w, ld: d, wl: l, dd: w, wd: d, ww: l };
                        let text = report(&spec, &Sample::Pairs { penta, merged: false });
                        assert!(!text.to_lowercase().contains("nan"), "{penta:?} {model}: {text}");
                    }
                }
            }
        }
    }
}
