//! `arbiter match`: plays engine builds against each other in game pairs from an opening book, optionally until
//! an SPRT decides, writing `games.csv`, `games.pgn`, `summary.txt` and `summary.csv` into a run folder.
//!
//! The flags become a [`MatchPlan`](arbiter::runner::MatchPlan) (`match_plan::plan_of`), which [`arbiter::runner::run::run`] plays; `--resume DIR`
//! hands the folder to [`arbiter::runner::rundir::resume::resume`], which plays on from the plan in its `run.toml`. This
//! file parses, shows progress and prints.
//!
//! Exit codes (see [`arbiter::cli`]): 0 when the match finished (or the SPRT decided), 2 for bad input (flags,
//! engine configs, the opening file, an output folder that holds results), 1 when an engine failure stopped the
//! match (results already written stay written), 3 for a failure of the system (a disk error), and
//! [`EXIT_INTERRUPTED`] (130) when Ctrl-C or
//! SIGTERM stopped it: no new pair starts, the pairs in play finish (games still running after
//! [`ABANDON_AFTER`](arbiter::runner::scheduler::ABANDON_AFTER) are abandoned unrecorded: external engines get
//! `stop` and `quit`, and their process groups are killed), and the summary is written from the games recorded.
//! A second Ctrl-C kills every engine's process group and quits at once, without a summary. Details and limits:
//! `docs/engines.md`.

pub use super::EXIT_INTERRUPTED;
use super::progress::MatchProgress;
use super::{Failure, exit_code, install_interrupt_handler};
use arbiter::runner::MatchPlan;
use arbiter::runner::run::{MatchRun, ResumeOverrides, RunEnd, RunError, RunObserver};
use arbiter::runner::rundir::runfile::RunFile;
use std::sync::atomic::AtomicBool;

pub use super::match_plan::MatchArgs;
use super::match_plan::plan_of;

/// The flags (long names) that may be given with `--resume`: every other flag of the run is the one recorded
/// in its `run.toml`; `--format` and `--verdict-exit` only shape what is printed and the exit code.
pub const RESUME_FLAGS: [&str; 7] = ["resume", "concurrency", "recover", "format", "verdict-exit", "log", "log-limit"];

/// The flags that `--config FILE` takes beside the plan of its file.
pub const CONFIG_FLAGS: [&str; 8] =
    ["config", "out", "concurrency", "recover", "format", "verdict-exit", "log", "log-limit"];

/// The parser of `arbiter match` arguments on their own (without the program and subcommand names), as
/// main's parser reads them.
pub fn match_command() -> clap::Command {
    <MatchArgs as clap::Args>::augment_args(clap::Command::new("match").no_binary_name(true))
}

#[cfg(test)]
/// Parses `arbiter match` arguments (the words after `match`), returning the flags and clap's matches (which
/// say which flags were given).
///
/// # Errors
/// clap's error for arguments `arbiter match` would refuse.
pub fn parse_match_args(args: &[String]) -> Result<(MatchArgs, clap::ArgMatches), clap::Error> {
    let matches = match_command().try_get_matches_from(args)?;
    let parsed = <MatchArgs as clap::FromArgMatches>::from_arg_matches(&matches)?;
    Ok((parsed, matches))
}

#[cfg(test)]
/// The first line of a clap error, without its `error: ` prefix.
pub fn clap_error_text(error: &clap::Error) -> String {
    let text = error.to_string();
    let line = text.lines().next().unwrap_or("");
    line.strip_prefix("error: ").unwrap_or(line).to_string()
}

/// The failure of a run error: bad input, or a failure of the system.
fn run_failure(error: RunError) -> Failure {
    if error.is_input() { Failure::Input(error.into()) } else { Failure::System(error.into()) }
}

/// Set by the Ctrl-C/SIGTERM handler of `arbiter match`.
pub(crate) static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Runs a match; returns the exit code (0 finished or decided, 2 bad input, 1 a failure,
/// [`EXIT_INTERRUPTED`] stopped by Ctrl-C or SIGTERM). `given` is clap's record of the `match` arguments (which
/// flags the command line gave, for `--resume`). Errors are printed to stderr here, so the `Err` case is not
/// used.
///
/// # Errors
/// None in practice; the signature matches the other subcommands.
pub fn run(args: MatchArgs, given: &clap::ArgMatches) -> Result<i32, super::Failure> {
    install_interrupt_handler("match", &INTERRUPTED);
    let json = args.format == super::args::OutputFormat::Json;
    let verdict_exit = args.verdict_exit;
    let mut verdict = None;
    let mut print_summary = |run: &MatchRun| {
        verdict = run.state.verdict.map(|v| v.decision);
        if json {
            super::stdout_text(format_args!("{}\n", run.json));
            super::stderr_line(format_args!("arbiter match: results in {}", run.dir.display()));
        } else {
            super::stdout_text(format_args!("{}", run.summary));
            super::stdout_text(format_args!("\nResults: {}\n", run.dir.display()));
        }
    };
    let mut progress = MatchProgress::default();
    progress.reports_to_stderr = json;
    let code = exit_code(play(args, given, &mut progress, &mut print_summary, &INTERRUPTED));
    Ok(if code == 0 && verdict_exit { verdict_code(verdict) } else { code })
}

/// The exit code of `--verdict-exit` for a match that ended normally: [`EXIT_H1`], [`EXIT_H0`] or
/// [`EXIT_UNDECIDED`].
pub fn verdict_code(decision: Option<arbiter::stats::SprtDecision>) -> i32 {
    match decision {
        Some(arbiter::stats::SprtDecision::AcceptH1) => EXIT_H1,
        Some(arbiter::stats::SprtDecision::AcceptH0) => EXIT_H0,
        _ => EXIT_UNDECIDED,
    }
}

/// `--verdict-exit`: the SPRT accepted H1 (the first engine is better by elo1).
pub const EXIT_H1: i32 = 0;
/// `--verdict-exit`: the SPRT accepted H0.
pub const EXIT_H0: i32 = 10;
/// `--verdict-exit`: the match ended without a decision (or has no SPRT).
pub const EXIT_UNDECIDED: i32 = 11;

/// Plays the match of `args` (a match or, with `--resume`, the rest of a run) with `observer` watching it,
/// hands the played run to `report` (which prints its outcome) and returns the exit code; the interrupt
/// handler must be installed on `interrupt`. Shared by `arbiter match` and the cutechess-cli and fastchess
/// command lines (`compat`).
///
/// # Errors
/// The failure to report (bad input, a stopped match).
pub(crate) fn play(
    args: MatchArgs,
    given: &clap::ArgMatches,
    observer: &mut dyn RunObserver,
    report: &mut dyn FnMut(&MatchRun),
    interrupt: &AtomicBool,
) -> Result<i32, Failure> {
    if let Some(file) = &args.log {
        arbiter::uci::log::install(file, args.log_limit)
            .map_err(|e| Failure::Input(anyhow::anyhow!("--log {}: cannot write: {e}", file.display())))?;
    }
    let ended = match &args.resume {
        Some(dir) => {
            refuse_other_flags(given, &RESUME_FLAGS, "the run keeps the flags recorded in its run.toml")?;
            if dir.join(arbiter::runner::knockout::KNOCKOUT_TOML).exists() {
                return Err(Failure::Input(anyhow::anyhow!(
                    "--resume {}: a knockout's folder; resume the round that stopped (its round-N folder inside), \
                     the knockout itself is not resumed",
                    dir.display()
                )));
            }
            let overrides = ResumeOverrides { concurrency: args.concurrency, recover: args.recover };
            arbiter::runner::rundir::resume::resume(dir, overrides, observer, interrupt)
        }
        None => {
            let plan = match &args.config {
                Some(file) => config_plan(file, &args, given)?,
                None => plan_of(&args)?,
            };
            if plan.tournament == arbiter::runner::Tournament::Knockout {
                return knockout(&plan, observer, report, interrupt);
            }
            arbiter::runner::run::run(&plan, observer, interrupt)
        }
    };
    match ended.map_err(run_failure)? {
        RunEnd::NotStarted => {
            super::stderr_line(format_args!(
                "arbiter match: interrupted before the match started; nothing was written"
            ));
            Ok(EXIT_INTERRUPTED)
        }
        RunEnd::Played(run) => {
            report(&run);
            outcome(&run)
        }
    }
}

/// Plays the knockout of `plan` (each round's match reported by `report` as it ends), prints its bracket and
/// returns the exit code of the match that stopped it, or 0.
fn knockout(
    plan: &MatchPlan,
    observer: &mut dyn RunObserver,
    report: &mut dyn FnMut(&MatchRun),
    interrupt: &AtomicBool,
) -> Result<i32, Failure> {
    let mut code = Ok(0);
    let mut played = |run: &MatchRun| {
        report(run);
        if matches!(code, Ok(0)) {
            code = outcome(run);
        }
    };
    let ko = arbiter::runner::knockout::run_knockout(plan, observer, &mut played, interrupt).map_err(run_failure)?;
    super::stdout_text(format_args!("\n{}", ko.bracket));
    super::stdout_text(format_args!("\nKnockout: {}\n", ko.dir.display()));
    if let Some(why) = &ko.undecided {
        return Err(Failure::Internal(anyhow::anyhow!("the knockout stopped undecided: {why}")));
    }
    if ko.matches.is_empty() && code.as_ref().is_ok_and(|&c| c == 0) && ko.winner.is_none() {
        return Ok(EXIT_INTERRUPTED);
    }
    code
}

/// The exit code of a played match: 0, or the failure that stopped it, or [`EXIT_INTERRUPTED`].
fn outcome(run: &MatchRun) -> Result<i32, Failure> {
    let dir = run.dir.display();
    // The charts are a view of games.csv: a failure to draw them loses nothing, so it is a warning.
    match &run.charts {
        Ok(files) if !files.is_empty() => {
            let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
            super::stderr_line(format_args!("arbiter match: charts {}", names.join(", ")));
        }
        Ok(_) => {}
        Err(error) => super::stderr_line(format_args!("warning: charts not written: {error}")),
    }
    super::write_report("match", &run.dir);
    let state = &run.state;
    if let Some(failure) = &state.failure
        && state.failure_is_input
    {
        return Err(Failure::Input(anyhow::anyhow!("the match stopped: {failure}")));
    }
    if let Some(failure) = &state.failure {
        return Err(Failure::Internal(anyhow::anyhow!(
            "the match stopped: {failure} (continue it with `arbiter match --resume {dir}`)"
        )));
    }
    if let Some(halted) = &state.halted {
        return Err(Failure::Internal(anyhow::anyhow!(
            "the match stopped: {halted} (continue it with `arbiter match --resume {dir} --recover`)"
        )));
    }
    if state.interrupted {
        super::stderr_line(format_args!(
            "arbiter match: interrupted; {} games recorded and summarized in {dir} (exit code \
             {EXIT_INTERRUPTED}); continue with `arbiter match --resume {dir}`",
            state.tally.games
        ));
        return Ok(EXIT_INTERRUPTED);
    }
    Ok(0)
}

/// Refuses the flags given in `given` that `allowed` (the flag that takes a whole run first, then those it
/// takes beside it) does not list; `why` says why the others cannot be given.
fn refuse_other_flags(given: &clap::ArgMatches, allowed: &[&str], why: &str) -> Result<(), Failure> {
    let refused = super::flags_given_except(given, &match_command(), allowed);
    if refused.is_empty() {
        return Ok(());
    }
    let flag = allowed[0];
    let others: Vec<String> = allowed[1..].iter().map(|f| format!("--{f}")).collect();
    Err(Failure::Input(anyhow::anyhow!(
        "--{flag}: {} cannot be given with --{flag}: {why}; only {} may be given too",
        refused.join(", "),
        others.join(", ")
    )))
}

/// The plan of `--config FILE` ([`RunFile::read_plan`]) with the flags it takes ([`CONFIG_FLAGS`]): a new run
/// folder (`--out`, else one under the plan's results folder), `--concurrency`, `--recover`.
fn config_plan(file: &std::path::Path, args: &MatchArgs, given: &clap::ArgMatches) -> Result<MatchPlan, Failure> {
    refuse_other_flags(given, &CONFIG_FLAGS, "the plan is the file's (edit it there)")?;
    let mut plan = RunFile::read_plan(file).map_err(|e| Failure::Input(anyhow::anyhow!("--config: {e}")))?;
    let cwd = arbiter::runner::plan::working_directory().map_err(|e| Failure::System(e.into()))?;
    plan.output.out = args.out.as_deref().map(|out| arbiter::runner::plan::absolute(out, &cwd));
    if args.concurrency.is_some() {
        plan.concurrency = args.concurrency;
    }
    plan.recover |= args.recover;
    Ok(plan)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::error_text;
    use arbiter::player::spec::parse_engine;
    use arbiter::runner::load_openings;
    use std::path::Path;

    #[test]
    fn errors_print_each_cause_once() {
        let err = parse_engine("config=/no/such/dir/missing.toml").unwrap_err();
        let text = error_text(&anyhow::Error::from(err));
        assert_eq!(text.matches("No such file").count(), 1, "{text}");
        assert!(text.starts_with("--engine: /no/such/dir/missing.toml: cannot read: "), "{text}");
        let err = load_openings(Path::new("/no/such/book.epd"), None).unwrap_err();
        let text = error_text(&anyhow::Error::from(err));
        assert_eq!(text.matches("No such file").count(), 1, "{text}");
        // A cause the message does not quote is still shown.
        let err = anyhow::Error::from(std::io::Error::other("disk on fire")).context("writing games.csv");
        assert_eq!(error_text(&err), "writing games.csv: disk on fire");
    }

    #[test]
    fn resume_takes_only_its_allowed_flags() {
        let given = |args: &[&str]| {
            let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
            crate::cli::flags_given_except(&parse_match_args(&args).unwrap().1, &match_command(), &RESUME_FLAGS)
        };
        assert!(given(&["--resume", "results/run"]).is_empty());
        assert!(given(&["--resume=results/run", "--concurrency", "3"]).is_empty());
        // Flags with defaults count only when given.
        assert_eq!(
            given(&["--resume", "r", "--seed", "1", "--order=random"]),
            ["--seed", "--order"],
            "in the order given"
        );
        assert_eq!(given(&["--resume", "r", "--engine", "name=seed", "--shard", "1/2", "--out", "x"]).len(), 3);
        assert!(RESUME_FLAGS.contains(&"recover"), "--recover is allowed ahead of the flag");
        let err = parse_match_args(&["--shard".to_string(), "0/2".to_string()]).unwrap_err();
        assert!(clap_error_text(&err).contains("expected I/N with 1 <= I <= N"), "{err}");
    }
}
