//! CPU affinity of a match's games (`--affinity`, fastchess's `-use-affinity`): each game slot (worker) is pinned
//! to its own share of the CPUs before it starts its engines, which inherit the mask (Linux gives a new process
//! the affinity of the thread that started it), so the engines of concurrent games do not compete for a core.
//! The runner's own threads of that game run on the same cores.

use nix::sched::{CpuSet, sched_getaffinity, sched_setaffinity};
use nix::unistd::Pid;

/// The CPUs this process may run on, in order.
pub fn available_cpus() -> Vec<usize> {
    match sched_getaffinity(Pid::from_raw(0)) {
        Ok(set) => (0..CpuSet::count()).filter(|&i| set.is_set(i).unwrap_or(false)).collect(),
        Err(_) => Vec::new(),
    }
}

/// Reads a CPU list as fastchess writes it: `3,5,7-11,13`.
///
/// # Errors
/// A part that is not a number or a rising range, or a CPU beyond the system's limit.
pub fn parse_cpus(text: &str) -> Result<Vec<usize>, String> {
    let mut cpus = Vec::new();
    for part in text.split(',').map(str::trim) {
        let number = |t: &str| t.trim().parse::<usize>().map_err(|_| format!("{part:?} is not a CPU number or range"));
        let (first, last) = match part.split_once('-') {
            Some((a, b)) => (number(a)?, number(b)?),
            None => (number(part)?, number(part)?),
        };
        if first > last {
            return Err(format!("{part:?}: the range must rise"));
        }
        if last >= CpuSet::count() {
            return Err(format!("CPU {last}: beyond the {} CPUs the system can name", CpuSet::count()));
        }
        cpus.extend(first..=last);
    }
    cpus.sort_unstable();
    cpus.dedup();
    Ok(cpus)
}

/// The CPUs of game slot `worker` of `workers`: an equal share of `cpus`, at least one (slots share CPUs round
/// robin when there are more slots than CPUs).
pub fn cpus_of_worker(cpus: &[usize], workers: usize, worker: usize) -> Vec<usize> {
    if cpus.is_empty() {
        return Vec::new();
    }
    let per = (cpus.len() / workers.max(1)).max(1);
    (0..per).map(|i| cpus[(worker * per + i) % cpus.len()]).collect()
}

/// Pins the calling thread (and so the processes it starts from now on) to `cpus`.
///
/// # Errors
/// The system's refusal, as text.
pub fn pin_current_thread(cpus: &[usize]) -> Result<(), String> {
    let mut set = CpuSet::new();
    for &cpu in cpus {
        set.set(cpu).map_err(|e| format!("CPU {cpu}: {e}"))?;
    }
    sched_setaffinity(Pid::from_raw(0), &set).map_err(|e| format!("cannot pin to CPUs {cpus:?}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_lists_and_shares() {
        assert_eq!(parse_cpus("3,5,7-9,5").unwrap(), [3, 5, 7, 8, 9]);
        assert!(parse_cpus("4-2").unwrap_err().contains("must rise"));
        assert!(parse_cpus("x").is_err());
        let cpus = [0, 1, 2, 3];
        assert_eq!(cpus_of_worker(&cpus, 2, 1), [2, 3]);
        assert_eq!(cpus_of_worker(&cpus, 4, 3), [3]);
        assert_eq!(cpus_of_worker(&cpus[..2], 3, 2), [0], "more slots than CPUs share them");
        assert!(!available_cpus().is_empty());
    }

    #[test]
    fn a_pinned_thread_starts_pinned_processes() {
        let cpu = available_cpus()[0];
        let handle = std::thread::spawn(move || {
            pin_current_thread(&[cpu]).unwrap();
            let out =
                std::process::Command::new("grep").args(["Cpus_allowed_list", "/proc/self/status"]).output().unwrap();
            String::from_utf8(out.stdout).unwrap()
        });
        let text = handle.join().unwrap();
        assert!(text.trim_end().ends_with(&format!("\t{cpu}")), "{text}");
    }
}
