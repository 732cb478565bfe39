//! Resuming a run folder: the plan of its `run.toml` rebuilt (with only what does not change the schedule
//! overridden), a changed schedule refused, the games recorded checked as merge does (damaged ones dropped,
//! with a copy: [`read_run`] with [`Strictness::Salvage`]) and the games of the schedule not yet recorded played
//! ([`crate::runner::run`]'s loop). Neither the command line nor a working directory is read.

use super::lock::lock_run;
use super::output::{RUN_FILES, RUN_TOML, ResultSink, WRITTEN_FILES, refuse_links};
use super::read::{Strictness, read_run};
use super::replay::replay;
use super::runfile::{Fingerprint, RunFile, hex, part_text};
use crate::game::Game;
use crate::games::GameKind;
use crate::runner::plan::MatchPlan;
use crate::runner::run::{ResumeOverrides, RunEnd, RunError, RunObserver, play, prepare};
use std::fs::File;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::SystemTime;

/// Goes on with the run in `dir` where it stopped, with the plan of its `run.toml` (and `overrides`): the
/// games recorded are kept (damaged ones dropped, with a copy), the others played.
///
/// # Errors
/// A [`RunError`]: no run folder, a `run.toml` of another version, a changed schedule (an engine's config
/// file or the openings edited since), damaged records that cannot be repaired.
pub fn resume(
    dir: &Path,
    overrides: ResumeOverrides,
    observer: &mut dyn RunObserver,
    interrupt: &AtomicBool,
) -> Result<RunEnd, RunError> {
    let shown = dir.display().to_string();
    let dir = dir.canonicalize().map_err(|reason| RunError::NotARun { shown: shown.clone(), reason })?;
    // Before anything is read or written: a link by any name the run writes is refused.
    refuse_links(&dir, &WRITTEN_FILES)?;
    let run = RunFile::read(&dir.join(RUN_TOML)).map_err(|source| RunError::Resume { shown: shown.clone(), source })?;
    let lock = lock_run(&dir, &mut |warning| observer.note(warning))?;
    let mut plan = run.plan.clone();
    if overrides.concurrency.is_some() {
        plan.concurrency = overrides.concurrency;
    }
    plan.recover |= overrides.recover;
    plan.validate()?;
    match plan.game {
        GameKind::Xiangqi => {
            resume_as::<crate::xiangqi::XiangqiGame>(&dir, &shown, &plan, &run, lock, observer, interrupt)
        }
        GameKind::Chess => resume_as::<crate::chess::ChessGame>(&dir, &shown, &plan, &run, lock, observer, interrupt),
        game @ (GameKind::Russian | GameKind::English) => {
            Err(crate::runner::PlanError::Game(crate::games::Unplayable { game, command: "match" }).into())
        }
    }
}

/// The rest of [`resume`] once `run.toml` is read, in its game `G`: the match rebuilt and checked against the
/// fingerprint, the result files repaired and replayed, the games left played.
fn resume_as<G: Game>(
    dir: &Path,
    shown: &str,
    plan: &MatchPlan,
    run: &RunFile,
    lock: Option<File>,
    observer: &mut dyn RunObserver,
    interrupt: &AtomicBool,
) -> Result<RunEnd, RunError> {
    let spec = prepare::<G>(plan, observer)?;
    let fingerprint = Fingerprint::of(&spec);
    if hex(fingerprint.total()) != run.fingerprint {
        let changed: Vec<String> = fingerprint.changed_parts(&run.parts).iter().map(|p| part_text(p)).collect();
        return Err(RunError::Changed {
            shown: shown.to_string(),
            changed: if changed.is_empty() { "the schedule".to_string() } else { changed.join(", ") },
            recorded: run.fingerprint.clone(),
            now: hex(fingerprint.total()),
        });
    }

    let records = read_run(dir, Strictness::Salvage { check: &spec, now: SystemTime::now() })?;
    for dropped in &records.dropped {
        observer.note(&format!("arbiter match: repaired {shown}: dropped {dropped}"));
    }
    for copy in &records.copies {
        observer.note(&format!("arbiter match: a copy of what was dropped is kept in {}", copy.display()));
    }
    let csv_path = dir.join("games.csv").display().to_string();
    let (state, done) = replay(&spec, &records.rows, &csv_path)?;
    // The summary of an earlier session is rewritten from all the games at the end.
    for name in RUN_FILES.iter().filter(|name| name.starts_with("summary")) {
        match std::fs::remove_file(dir.join(name)) {
            Err(reason) if reason.kind() != std::io::ErrorKind::NotFound => {
                return Err(RunError::Remove { path: dir.join(name).display().to_string(), reason });
            }
            _ => {}
        }
    }
    let mut sink = ResultSink::append(dir, &plan.output.event())?;
    sink.configure(&plan.output)?;
    sink.set_time_controls(&plan.engines);
    let status = match state.verdict {
        Some(_) => "the SPRT had decided; rewriting the summary".to_string(),
        None if done.len() as u64 >= state.games_total() => "complete; rewriting the summary".to_string(),
        None => format!("{} games to play", state.games_total() - done.len() as u64),
    };
    observer.note(&format!(
        "arbiter match: resuming {shown}: {} of {} games recorded, {status}",
        done.len(),
        state.games_total()
    ));
    play(&spec, plan, dir, sink, state, &done, observer, interrupt, lock)
}
