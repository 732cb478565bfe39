//! fastchess's `-quick`, spelt out as the options it stands for.

use super::words::{OptionWords, pairs};
use std::path::Path;

/// fastchess's `-quick cmd=A cmd=B book=FILE` spelt out as fastchess's `parseQuick` (`app/src/cli/cli.cpp`)
/// sets it, in front of the other options (which override it): both engines at `tc=10+0.1`, named after their
/// programs (`1` and `2` added to equal names), the book in random order, 25000 rounds of 2 games, the cores
/// less two at once, `-recover`, `-draw movenumber=30 movecount=8 score=8`, cutechess-cli's output.
pub(super) fn expand_quick(options: &[OptionWords]) -> Result<Vec<OptionWords>, String> {
    let words = |name: &str, values: &[String]| OptionWords { name: name.to_string(), values: values.to_vec() };
    let mut out = Vec::new();
    for option in options {
        if option.name != "quick" {
            out.push(option.clone());
            continue;
        }
        let (mut cmds, mut book) = (Vec::new(), None);
        for pair in pairs(option) {
            match pair.key.as_str() {
                "cmd" => cmds.push(pair.value),
                "book" => book = Some(pair.value),
                key => return Err(format!("{option} {key}: expected cmd=, cmd= and book=")),
            }
        }
        let [a, b] = cmds.as_slice() else { return Err(format!("{option}: expected exactly two cmd= entries")) };
        let book = book.ok_or_else(|| format!("{option}: book=FILE is missing"))?;
        let format = match Path::new(&book).extension().and_then(|e| e.to_str()) {
            Some("pgn") => "pgn",
            Some("epd") => "epd",
            _ => return Err(format!("{option} book={book}: name the book .pgn or .epd, as fastchess asks")),
        };
        let file = |cmd: &str| Path::new(cmd).file_name().map_or(cmd.to_string(), |f| f.to_string_lossy().into());
        let (mut name_a, mut name_b) = (file(a), file(b));
        if name_a == name_b {
            name_a.push('1');
            name_b.push('2');
        }
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get()).saturating_sub(2).max(1);
        let text = |v: &[&str]| v.iter().map(|w| w.to_string()).collect::<Vec<_>>();
        let mut expanded = vec![
            words("engine", &text(&[&format!("cmd={a}"), &format!("name={name_a}"), "tc=10+0.1"])),
            words("engine", &text(&[&format!("cmd={b}"), &format!("name={name_b}"), "tc=10+0.1"])),
            words("openings", &text(&[&format!("file={book}"), &format!("format={format}"), "order=random"])),
            words("games", &text(&["2"])),
            words("rounds", &text(&["25000"])),
            words("concurrency", &text(&[&cores.to_string()])),
            words("recover", &[]),
            words("draw", &text(&["movenumber=30", "movecount=8", "score=8"])),
            words("output", &text(&["format=cutechess"])),
        ];
        expanded.append(&mut out);
        out = expanded;
    }
    Ok(out)
}
