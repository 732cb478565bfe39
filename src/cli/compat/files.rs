//! The file options of both tools' command lines: `-log`, `-openings` and `-pgnout`, as Arbiter's flags.

use super::Tool;
use super::words::{OptionWords, boolean, pairs};

/// fastchess's `-log file= level= append= compress= realtime= engine=` as the file of Arbiter's `--log`, which
/// holds every engine line (fastchess's `engine=true`), written at once (`realtime=true`), afresh.
pub(super) fn log_file(option: &OptionWords, notes: &mut Vec<String>) -> Result<String, String> {
    let mut file = None;
    for pair in pairs(option) {
        match pair.key.as_str() {
            "file" if !pair.value.is_empty() => file = Some(pair.value.clone()),
            "compress" if boolean("log compress", &pair)? => {
                return Err(format!("{option} compress=true: Arbiter writes the log uncompressed"));
            }
            "level" | "append" | "realtime" | "engine" | "compress" => {
                notes.push(format!(
                    "{option} {}={}: Arbiter's --log holds every engine line, written at once, in a new file",
                    pair.key, pair.value
                ));
            }
            key => return Err(format!("{option} {key}: expected file= level= append= compress= realtime= engine=")),
        }
    }
    file.ok_or_else(|| format!("{option}: file= is missing"))
}

/// `-openings file= format= order= plies= start= policy=` as Arbiter's `--openings` spec, with the tool's
/// defaults made explicit (sequential order; cutechess's PGN format).
pub(super) fn openings_spec(tool: Tool, option: &OptionWords) -> Result<String, String> {
    let mut spec = Vec::new();
    let (mut order, mut format) = (false, false);
    let (mut plies, mut epd) = (None, false);
    for pair in pairs(option) {
        epd |= (pair.key == "format" && pair.value == "epd") || (pair.key == "file" && pair.value.ends_with(".epd"));
        match pair.key.as_str() {
            "file" => spec.push(format!("file={}", shlex::try_quote(&pair.value).map_err(|_| "-openings file: NUL")?)),
            "format" if matches!(pair.value.as_str(), "epd" | "pgn" | "polyglot") => {
                format = true;
                spec.push(format!("format={}", pair.value));
            }
            "order" if matches!(pair.value.as_str(), "random" | "sequential") => {
                order = true;
                spec.push(format!("order={}", pair.value));
            }
            "start" => spec.push(format!("start={}", pair.value)),
            // An EPD opening has no moves to cut: fastchess takes plies= with it and uses none (fishtest sends it).
            "plies" => plies = Some(pair.value.clone()),
            "policy" if pair.value == "default" || pair.value == "encounter" => {}
            "policy" => {
                return Err(format!(
                    "-openings policy={}: Arbiter takes a new opening for every game pair (policy=default)",
                    pair.value
                ));
            }
            key => {
                return Err(format!(
                    "-openings {key}={}: expected file= format=epd|pgn order=random|sequential plies= start= policy=",
                    pair.value
                ));
            }
        }
    }
    if let Some(plies) = plies.filter(|_| !epd) {
        spec.push(format!("plies={plies}"));
    }
    if !order {
        spec.push("order=sequential".into());
    }
    if !format && tool == Tool::Cutechess {
        if epd {
            // cutechess-cli reads openings as PGN unless told (its help: format defaults to pgn).
            return Err(format!(
                "{option} file=...epd: cutechess-cli reads openings as PGN by default; add format=epd"
            ));
        }
        spec.push("format=pgn".into());
    }
    Ok(spec.join(","))
}

/// The file and Arbiter's modifiers of `-pgnout`: cutechess-cli's `FILE [min] [fi]` or fastchess's `file=
/// notation= append= nodes= ... min= match_line=`, and the comment fields asked for (`nodes=true` ...); what
/// Arbiter writes differently is noted.
pub(super) fn pgnout_words(
    option: &OptionWords,
    notes: &mut Vec<String>,
) -> Result<(String, Vec<String>, Vec<String>), String> {
    if let Some(first) = option.values.first().filter(|v| !v.contains('=')) {
        let rest = &option.values[1..];
        if let Some(bad) = rest.iter().find(|w| *w != "min" && *w != "fi") {
            return Err(format!("{option} {bad}: expected min or fi after the file"));
        }
        return Ok((first.clone(), rest.to_vec(), Vec::new()));
    }
    let (mut file, mut words, mut fields) = (None, Vec::new(), Vec::new());
    for pair in pairs(option) {
        match pair.key.as_str() {
            "file" if pair.value.is_empty() => return Err(format!("{option} file=: the file name is missing")),
            "file" => file = Some(pair.value.clone()),
            "notation" if pair.value == "san" => {}
            "notation" => return Err(format!("{option} notation={}: Arbiter writes SAN only", pair.value)),
            "append" if boolean("pgnout", &pair)? => {}
            "append" => return Err(format!("{option} append=false: Arbiter appends to the file")),
            "min" if boolean("pgnout", &pair)? => words.push("min".to_string()),
            "min" => {}
            "nodes" | "seldepth" | "nps" | "hashfull" | "tbhits" | "pv" | "timeleft" | "latency" => {
                if boolean("pgnout", &pair)? {
                    fields.push(pair.key.clone());
                }
            }
            "match_line" => {
                notes.push(format!("{option} match_line: accepted; Arbiter writes no engine lines into the PGN"))
            }
            key => return Err(format!("{option} {key}: unknown key")),
        }
    }
    Ok((file.ok_or_else(|| format!("{option}: file= is missing"))?, words, fields))
}
