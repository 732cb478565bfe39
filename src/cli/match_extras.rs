//! The flags of `arbiter match` that set the plan's extras after [`super::match_plan::plan_of`] has built it: the
//! output and scheduling extras (`--reverse`, `--affinity`, `--wait`, `--event`, `--site`, `--pgnout`,
//! `--epdout`, `--report-format`) and the time scaling of `--tc-scale-nps`.

use super::Failure;
use super::match_args::MatchArgs;
use arbiter::runner::MatchPlan;
use arbiter::runner::plan::{TcScaleError, TcScalePlan};

/// Sets the plan's fields of `--reverse`, `--affinity`, `--wait`, `--event`, `--site`, `--pgnout` and `--epdout`, with
/// files made absolute against `cwd`.
///
/// # Errors
/// A `--pgnout` word after the file that is neither `min` nor `fi`; a bad `--affinity` CPU list.
pub(crate) fn set_extras(args: &MatchArgs, plan: &mut MatchPlan, cwd: &std::path::Path) -> anyhow::Result<()> {
    use arbiter::player::plan::absolute;
    plan.reverse = args.reverse;
    plan.affinity = match args.affinity.as_deref() {
        None => None,
        Some("") => Some(Vec::new()),
        Some(text) => {
            let cpus = arbiter::runner::affinity::parse_cpus(text).map_err(|e| anyhow::anyhow!("--affinity: {e}"))?;
            let available = arbiter::runner::affinity::available_cpus();
            if let Some(cpu) = cpus.iter().find(|c| !available.contains(c)) {
                anyhow::bail!("--affinity: CPU {cpu} is not one this process may run on ({available:?})");
            }
            Some(cpus)
        }
    };
    plan.output.reports = args.report_format;
    plan.wait_ms = args.wait;
    plan.output.event.clone_from(&args.event);
    plan.output.site.clone_from(&args.site);
    plan.output.epdout = args.epdout.as_deref().map(|p| absolute(p, cwd));
    // An extra output file that cannot be one is the user's input (exit 2), found before the run folder exists.
    let check = |flag: &str, path: &std::path::Path| -> anyhow::Result<()> {
        if path.is_dir() {
            anyhow::bail!("{flag} {}: is a folder, not a file", path.display());
        }
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty() && !p.is_dir()) {
            anyhow::bail!("{flag} {}: the folder {} does not exist", path.display(), parent.display());
        }
        Ok(())
    };
    if let Some(path) = &plan.output.epdout {
        check("--epdout", path)?;
    }
    if let Some((file, modifiers)) = args.pgnout.split_first() {
        let mut min = false;
        for word in modifiers {
            match word.as_str() {
                "min" => min = true,
                "fi" => {}
                other => anyhow::bail!("--pgnout: {other:?} after the file: expected `min` or `fi`"),
            }
        }
        let file = absolute(std::path::Path::new(file), cwd);
        check("--pgnout", &file)?;
        plan.output.pgnout = Some(arbiter::runner::plan::PgnOutPlan { file, min });
    }
    Ok(())
}

/// Scales the limits of the plan's engines (`--tc-scale-nps`, [`MatchPlan::scale_time_controls`]), and says so
/// on stderr.
///
/// # Errors
/// No engine with a time limit (exit 2); the bench's [`BenchError`](arbiter::player::BenchError): exit 2 when it
/// is the input, else an internal failure.
pub(crate) fn scale_time_controls(
    plan: &mut MatchPlan,
    reference: u64,
    args: &MatchArgs,
) -> Result<TcScalePlan, Failure> {
    let scale = plan.scale_time_controls_by(reference, args.tc_scale_by, args.min_nps).map_err(|e| match e {
        TcScaleError::Engine(e) => Failure::Input(e.into()),
        e if e.is_input() => Failure::Input(anyhow::anyhow!("--tc-scale-nps: {e}")),
        e => Failure::Internal(anyhow::anyhow!("--tc-scale-nps: {e}")),
    })?;
    let scaled: Vec<String> = plan.engines.iter().map(|e| e.limit.to_string()).collect();
    let nps: Vec<String> =
        [Some(scale.measured_nps), scale.second_nps].into_iter().flatten().map(|n| n.to_string()).collect();
    crate::cli::stderr_line(format_args!(
        "arbiter match: --tc-scale-nps {reference}: {} benches {} nps here: factor {:.4}; limits {} -> {}",
        scale.engine,
        nps.join(" and "),
        scale.factor,
        scale.unscaled.join(" vs "),
        scaled.join(" vs ")
    ));
    Ok(scale)
}
