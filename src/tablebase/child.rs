//! The parent's side of probing in a child process ([`super::isolate_probes`]): one child per process, for
//! the table set last asked for, started on demand and replaced after a failure.

use super::{Probe, Wdl};
use crate::game::PieceSets;
use crate::uci::process::EngineProcess;
use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;

/// How long one probe may take in the child (it takes microseconds; a hang is a damaged table).
const PROBE_TIMEOUT: Duration = Duration::from_secs(10);

/// The child and the table set it serves.
static CHILD: Mutex<Option<(String, EngineProcess)>> = Mutex::new(None);

/// The request line of `position`.
fn request(p: &PieceSets) -> String {
    let [k, q, r, b, n, pawns] = p.kinds;
    let ep = p.ep.unwrap_or(0);
    format!("probe {} {} {k} {q} {r} {b} {n} {pawns} {ep} {}", p.white, p.black, u8::from(p.white_to_move))
}

/// The position of a request line (its halfmove clock 0 and no castling: the tables ignore both).
pub(super) fn parse_request(line: &str) -> Option<PieceSets> {
    let mut words = line.strip_prefix("probe ")?.split_ascii_whitespace();
    let mut next = || words.next()?.parse::<u64>().ok();
    let (white, black) = (next()?, next()?);
    let kinds = [next()?, next()?, next()?, next()?, next()?, next()?];
    let ep = u8::try_from(next()?).ok().filter(|&sq| sq > 0 && sq < 64);
    let white_to_move = next()? == 1;
    Some(PieceSets { white, black, kinds, ep, white_to_move, halfmove_clock: 0, castling: false })
}

/// The material of `p` as a table's name: `KQvKR` (White's pieces first).
fn material(p: &PieceSets) -> String {
    let side = |color: u64| -> String {
        let letters = ['K', 'Q', 'R', 'B', 'N', 'P'];
        let mut out = String::new();
        for (kind, letter) in p.kinds.iter().zip(letters) {
            for _ in 0..(kind & color).count_ones() {
                out.push(letter);
            }
        }
        out
    };
    format!("{}v{}", side(p.white), side(p.black))
}

/// The answer `wdl V dtz D` or `none`; `Err` for anything else.
fn parse_answer(line: &str) -> Result<Option<Probe>, ()> {
    if line == "none" {
        return Ok(None);
    }
    let words: Vec<&str> = line.split_ascii_whitespace().collect();
    let ["wdl", v, "dtz", d] = words.as_slice() else { return Err(()) };
    let wdl = match v.parse::<i8>().map_err(|_| ())? {
        -2 => Wdl::Loss,
        -1 => Wdl::BlessedLoss,
        0 => Wdl::Draw,
        1 => Wdl::CursedWin,
        2 => Wdl::Win,
        _ => return Err(()),
    };
    let dtz = if *d == "-" { None } else { Some(d.parse::<i32>().map_err(|_| ())?) };
    Ok(Some(Probe { wdl, dtz }))
}

/// Probes `position` in the child serving the folders `key` (started if needed). `Err` describes a failure:
/// the child could not start, died, hung or answered nonsense; it is then ended, and the next probe starts a
/// new one.
pub(super) fn probe(program: &Path, key: &str, position: &PieceSets) -> Result<Option<Probe>, String> {
    let mut child = CHILD.lock().unwrap_or_else(|p| p.into_inner());
    if child.as_ref().map(|(k, _)| k.as_str()) != Some(key) {
        *child = None;
        let args = vec!["tb-prober".to_string(), "--path".to_string(), key.to_string()];
        let process = EngineProcess::spawn(&program.to_string_lossy(), &args, None)
            .map_err(|e| format!("the tablebase prober could not start: {e}"))?;
        *child = Some((key.to_string(), process));
    }
    let (_, process) = child.as_mut().expect("set above");
    let line = request(position);
    let answer = process
        .send(&line)
        .and_then(|()| process.wait_for(|l| l == "none" || l.starts_with("wdl "), "a probe", PROBE_TIMEOUT));
    let failed = |what: &str| {
        let mover = if position.white_to_move { "White" } else { "Black" };
        format!("the prober {what} on a {} position, {mover} to move (a damaged table file?)", material(position))
    };
    match answer {
        Ok(lines) => match lines.last().map(|l| parse_answer(l)) {
            Some(Ok(probe)) => Ok(probe),
            _ => {
                *child = None;
                Err(failed("answered something else than a probe"))
            }
        },
        Err(error) => {
            *child = None;
            let what = match error {
                crate::uci::process::UciError::Timeout { .. } => "hung",
                _ => "crashed",
            };
            Err(failed(what))
        }
    }
}
