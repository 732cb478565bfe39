//! The process groups of external engines: each engine runs in a group of its own, registered here while it
//! runs, so that a quick exit can end every engine and its children ([`kill_all_engines`]), and listed in a run
//! folder's file so that the next session can end the groups a `kill -9` left running ([`record_groups_in`],
//! [`end_recorded_groups`]). Linux: process start times come from `/proc/PID/stat` (proc(5)).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::Mutex;

/// The process groups of the engines running now, by group id (the engine's process id).
static GROUPS: Mutex<BTreeSet<i32>> = Mutex::new(BTreeSet::new());

/// The file that lists the running engines' process groups ([`record_groups_in`]), if any.
static GROUP_FILE: Mutex<Option<PathBuf>> = Mutex::new(None);

/// From now on keeps `path` listing the process group of every running engine, one `PGID STARTTIME` line each
/// (the leader's start time in clock ticks after boot, field 22 of `/proc/PID/stat`), rewritten through a
/// temporary file at every start and end of an engine; `None` stops it (the file is removed). After a
/// `kill -9` of Arbiter, [`end_recorded_groups`] ends the groups it lists.
///
/// # Errors
/// The I/O error of the first write.
pub fn record_groups_in(path: Option<&Path>) -> std::io::Result<()> {
    let groups = GROUPS.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let mut file = GROUP_FILE.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(old) = file.take()
        && path.is_none()
    {
        let _ = std::fs::remove_file(old);
    }
    *file = path.map(Path::to_path_buf);
    write_group_file(&groups, file.as_deref())
}

/// Writes the group file `path` (when set) listing `groups`.
fn write_group_file(groups: &BTreeSet<i32>, path: Option<&Path>) -> std::io::Result<()> {
    let Some(path) = path else { return Ok(()) };
    let mut text = String::new();
    for &pgid in groups {
        if let Some((_, start)) = stat_of(pgid) {
            text.push_str(&format!("{pgid} {start}\n"));
        }
    }
    let temporary = path.with_extension(format!("tmp{}", std::process::id()));
    std::fs::write(&temporary, text)?;
    std::fs::rename(&temporary, path)
}

/// The process group and start time (clock ticks after boot) of process `pid`, from `/proc/PID/stat`.
fn stat_of(pid: i32) -> Option<(i32, u64)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command name, which is in parentheses and may hold spaces: state is field 3.
    let rest: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let pgrp = rest.get(2)?.parse().ok()?;
    let start = rest.get(19)?.parse().ok()?;
    Some((pgrp, start))
}

/// The start time of process `pid` in clock ticks after boot (field 22 of `/proc/PID/stat`), `None` when no
/// such process runs (or there is no `/proc`): with the id, it names one process, which a reused id does not.
pub(crate) fn process_start(pid: u32) -> Option<u64> {
    stat_of(i32::try_from(pid).ok()?).map(|(_, start)| start)
}

/// Ends (SIGKILL) the process groups listed in `path` by an earlier Arbiter that was killed before it could
/// end them, and returns them: a group whose leader still runs with the recorded start time, or whose leader is
/// gone (its id then cannot have been given to another process while members of the group live). A leader with
/// another start time is another program that got the id: left alone. A missing or unreadable file ends
/// nothing.
pub fn end_recorded_groups(path: &Path) -> Vec<i32> {
    let Ok(text) = std::fs::read_to_string(path) else { return Vec::new() };
    let mut ended = Vec::new();
    for line in text.lines() {
        let mut words = line.split_whitespace();
        let (Some(Ok(pgid)), Some(Ok(start))) =
            (words.next().map(str::parse::<i32>), words.next().map(str::parse::<u64>))
        else {
            continue;
        };
        if pgid <= 1 || pgid == std::process::id() as i32 {
            continue;
        }
        let ours = match stat_of(pgid) {
            Some((pgrp, now)) => pgrp == pgid && now == start,
            None => true,
        };
        if ours && nix::sys::signal::killpg(nix::unistd::Pid::from_raw(pgid), nix::sys::signal::Signal::SIGKILL).is_ok()
        {
            ended.push(pgid);
        }
    }
    ended
}

/// Rewrites the group file, if one is kept, after `groups` changed.
fn groups_changed(groups: &BTreeSet<i32>) {
    let file = GROUP_FILE.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let _ = write_group_file(groups, file.as_deref());
}

/// Kills (SIGKILL) the process group of every engine this process started and has not ended yet, so that
/// neither the engines nor their own children outlive Arbiter; for a quick exit (a second Ctrl-C).
pub fn kill_all_engines() {
    let groups = match GROUPS.lock() {
        Ok(groups) => groups.clone(),
        Err(poisoned) => poisoned.into_inner().clone(),
    };
    for pgid in groups {
        kill_group(pgid);
    }
}

/// The process groups of the engines running now (their group ids), for a run folder's record.
pub fn engine_groups() -> Vec<i32> {
    GROUPS.lock().map(|g| g.iter().copied().collect()).unwrap_or_default()
}

/// Sends SIGKILL to the process group `pgid`; a group that no longer exists is no error.
pub(crate) fn kill_group(pgid: i32) {
    use nix::sys::signal::{Signal, killpg};
    let _ = killpg(nix::unistd::Pid::from_raw(pgid), Signal::SIGKILL);
}

/// Spawns `command` (which must set `process_group(0)`) and registers its group; the group file is rewritten.
/// Done under the registry's lock, so that [`kill_all_engines`] never misses a group being started. Returns the
/// child and its group id.
///
/// # Errors
/// The spawn's I/O error.
pub(crate) fn spawn_registered(command: &mut Command) -> std::io::Result<(Child, i32)> {
    let mut groups = GROUPS.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let child = command.spawn()?;
    let pgid = i32::try_from(child.id()).expect("process ids fit in i32");
    groups.insert(pgid);
    groups_changed(&groups);
    Ok((child, pgid))
}

/// Forgets the group `pgid` once it is ended and its leader reaped; the group file is rewritten.
pub(crate) fn unregister(pgid: i32) {
    let mut groups = GROUPS.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    groups.remove(&pgid);
    groups_changed(&groups);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::CommandExt;

    #[test]
    fn only_recorded_groups_that_are_still_ours_are_ended() {
        let mut sleeper = Command::new("sleep").arg("100").process_group(0).spawn().expect("start sleep");
        let pgid = sleeper.id() as i32;
        let (_, start) = stat_of(pgid).expect("the sleeper's stat");
        let file = std::env::temp_dir().join(format!("arbiter-groups-{}", std::process::id()));
        // Another start time: another program that got the id.
        std::fs::write(&file, format!("{pgid} {}\n", start + 1)).unwrap();
        assert_eq!(end_recorded_groups(&file), Vec::<i32>::new());
        assert!(matches!(sleeper.try_wait(), Ok(None)), "a process that is not ours was killed");
        std::fs::write(&file, format!("garbage\n{pgid} {start}\n")).unwrap();
        assert_eq!(end_recorded_groups(&file), vec![pgid]);
        let status = sleeper.wait().expect("reap the sleeper");
        assert_eq!(std::os::unix::process::ExitStatusExt::signal(&status), Some(9));
        let _ = std::fs::remove_file(&file);
        assert_eq!(end_recorded_groups(&file), Vec::<i32>::new(), "no file, nothing ended");
    }
}
