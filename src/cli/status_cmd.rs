//! `arbiter status DIR`: a run's progress as it stands, readable while it plays: games per shard, the combined
//! counts, the Elo, the SPRT's LLR and decision, and the games a decision is still estimated to need. DIR is the
//! folder that holds a sharded run's shard folders (`RUN`), one shard's folder, or an unsharded run folder.
//! Nothing is written. Exit codes: 0, or 2 when DIR holds no run.

use super::{Failure, exit_code};
use arbiter::runner::rundir::cluster::{RunStatus, run_status};
use arbiter::stats::elo_estimate;
use std::fmt::Write as _;
use std::path::PathBuf;

/// Flags of `arbiter status`.
#[derive(clap::Args, Debug, Clone)]
pub struct StatusArgs {
    /// The run: the folder holding its shard folders (RUN of `--out RUN/shard-I`), a shard's folder, or a run
    /// folder.
    pub dir: PathBuf,

    /// Also measure what a shard's check of the others costs on this run: the first read of every shard's
    /// games.csv, then K checks with nothing new (docs/scale.md).
    #[arg(long, value_name = "K", value_parser = crate::cli::args::int_in(1u32, 1_000_000))]
    pub timing: Option<u32>,
}

/// Prints the status of the run in `args.dir`; returns the exit code.
///
/// # Errors
/// None in practice: errors are printed here.
pub fn run(args: StatusArgs) -> Result<i32, super::Failure> {
    if let Some((plan, folders)) = arbiter::spsa::output::spsa_status(&args.dir) {
        super::stdout_text(format_args!("{}", spsa_text(&plan, &folders)));
        return Ok(0);
    }
    Ok(exit_code(
        run_status(&args.dir)
            .and_then(|status| {
                super::stdout_text(format_args!("{}", status_text(&status)));
                if let Some(repeats) = args.timing {
                    let (first, bytes, each) = arbiter::runner::rundir::cluster::check_cost(&status, repeats)?;
                    super::stdout_text(format_args!(
                        "timing      first read {:.1} ms ({bytes} bytes of {} shards); then {:.1} us per check \
                         with nothing new ({repeats} checks)\n",
                        first.as_secs_f64() * 1e3,
                        status.shards.len(),
                        each.as_secs_f64() * 1e6
                    ));
                }
                Ok(0)
            })
            .map_err(|e| Failure::Input(anyhow::anyhow!(e))),
    ))
}

/// The status of an SPSA run (or its shards): each folder's iterations and games, and the values after the most
/// advanced one's last iteration (every shard computes the same trajectory).
pub fn spsa_text(plan: &arbiter::spsa::SpsaPlan, folders: &[arbiter::spsa::output::SpsaFolderStatus]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "spsa        {} parameters, {} iterations of {} pairs",
        plan.params.len(),
        plan.schedule.iterations,
        plan.pairs_per_iteration
    );
    let _ = writeln!(out, "{:<12}{:>11}{:>8}", "folder", "iterations", "games");
    for folder in folders {
        let _ = writeln!(out, "{:<12}{:>11}{:>8}", folder.folder, folder.done, folder.games);
    }
    if let Some(best) = folders.iter().max_by_key(|f| f.done) {
        let values: Vec<String> = plan
            .params
            .iter()
            .zip(&best.theta)
            .map(|(p, v)| format!("{} {}", p.name, arbiter::spsa::gains::shown_value(p, *v)))
            .collect();
        let _ = writeln!(out, "values      after iteration {}: {}", best.done, values.join(", "));
    }
    out
}

/// The report of `status`, as printed.
pub fn status_text(status: &RunStatus) -> String {
    let mut out = String::new();
    let (first, second) = &status.engines;
    let _ = writeln!(out, "run         {} ({first} vs {second})", status.dir.display());
    let _ = writeln!(out, "{:<12}{:>8}{:>8}{:>10}  state", "shard", "games", "pairs", "of pairs");
    for shard in &status.shards {
        let state = if shard.playing {
            "playing"
        } else if shard.count.pairs >= shard.planned_pairs && shard.planned_pairs > 0 {
            "done"
        } else {
            "not playing"
        };
        let _ = writeln!(
            out,
            "{:<12}{:>8}{:>8}{:>10}  {state}",
            shard.count.folder, shard.count.games, shard.count.pairs, shard.planned_pairs
        );
    }
    let c = &status.combined;
    let games = c.wdl.wins + c.wdl.draws + c.wdl.losses;
    let _ = writeln!(
        out,
        "combined    {games} games (W/D/L {} / {} / {} for {first}), {} complete pairs, ptnml {:?}",
        c.wdl.wins,
        c.wdl.draws,
        c.wdl.losses,
        c.penta.pairs(),
        c.penta.bins()
    );
    match elo_estimate(&c.penta) {
        Ok(e) if c.penta.pairs() > 0 => {
            let _ = writeln!(
                out,
                "Elo         {:+.1} +/- {:.1} (95%), nElo {:+.1}, LOS {:.1}%",
                e.elo,
                e.elo95,
                e.nelo,
                100.0 * e.los
            );
        }
        _ => {
            let _ = writeln!(out, "Elo         (no complete pair yet)");
        }
    }
    if let Some(outcome) = status.outcome {
        let _ = writeln!(out, "LLR         {:.3} (bounds [{:.3}, {:.3}])", outcome.llr, outcome.lower, outcome.upper);
    }
    let past = status.outcome.filter(|o| o.decision != arbiter::stats::SprtDecision::Continue);
    match (&status.decision, status.sprt.is_some()) {
        (Some(decision), _) => {
            let _ = writeln!(out, "decision    {}", decision.line());
        }
        (None, true) if let Some(outcome) = past => {
            let decision = arbiter::runner::scheduler::decision_text(outcome.decision);
            let _ = writeln!(out, "decision    {decision}: the LLR over the recorded pairs is past its bound");
        }
        (None, true) => {
            let estimate = match status.pairs_to_decision() {
                Some(pairs) => format!("about {} more games at the LLR's rate so far", 2 * pairs),
                None => "no estimate yet".to_string(),
            };
            let _ = writeln!(out, "decision    none yet; {estimate}");
        }
        (None, false) => {
            let _ = writeln!(out, "decision    (no SPRT: the shards play their parts)");
        }
    }
    for warning in &status.warnings {
        let _ = writeln!(out, "warning     {warning}");
    }
    out
}
