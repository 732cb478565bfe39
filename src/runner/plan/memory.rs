//! The memory check of a match: its transposition tables against the machine's physical memory.

use super::{HashAdvice, PlanError};
use crate::game::Game;
use crate::player::Origin;
use crate::runner::scheduler::MatchSpec;

/// Physical memory in MiB, from the `MemTotal` line of `/proc/meminfo`; `None` where that is not available.
pub fn physical_memory_mib() -> Option<u64> {
    parse_mem_total(&std::fs::read_to_string("/proc/meminfo").ok()?)
}

/// The `MemTotal:   16318480 kB` line of `/proc/meminfo` text, in MiB.
pub fn parse_mem_total(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find_map(|l| l.strip_prefix("MemTotal:"))?;
    let mut words = line.split_whitespace();
    let value: u64 = words.next()?.parse().ok()?;
    match words.next() {
        Some("kB") | None => Some(value / 1024),
        _ => None,
    }
}

/// Refuses a match whose transposition tables would take more than half of `memory_mib` (physical memory in
/// MiB; no check when unknown). Every worker holds one player, and so one table, per engine it plays: up to
/// every engine of the match.
///
/// # Errors
/// [`PlanError::HashMemory`] naming the tables and what to lower.
pub fn check_hash_memory<G: Game>(spec: &MatchSpec<G>, memory_mib: Option<u64>) -> Result<(), PlanError> {
    let Some(memory) = memory_mib else {
        return Ok(());
    };
    let workers = spec.workers() as u64;
    let per_worker: u64 = spec.engines.iter().map(|e| e.hash_mb() as u64).sum();
    let total = per_worker.saturating_mul(workers);
    if total <= memory / 2 {
        return Ok(());
    }
    let tables: Vec<String> =
        spec.engines.iter().map(|e| format!("{} {} MiB ({})", e.name, e.hash_mb(), e.origin)).collect();
    let largest = spec.engines.iter().max_by_key(|e| e.hash_mb()).expect("a match has two or more engines");
    let advice = match &largest.origin {
        Origin::Named => HashAdvice::Concurrency,
        Origin::Config(path) => HashAdvice::Config(path.to_string()),
        Origin::Command(_) => HashAdvice::Option(largest.name.clone()),
    };
    Err(PlanError::HashMemory { workers, tables: tables.join(" + "), total, memory, advice })
}
