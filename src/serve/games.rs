//! One game of a run for the move viewer: its tags, and each move with its SAN, its comment (score, depth,
//! time as the run wrote them) and the position after it as FEN, from the run's `games.pgn`. Game `K` is the
//! `K`-th game of the file (0-based), which is the `K`-th row of `games.csv` (a game is written to both in the
//! same order, see `results/README.md`).
//!
//! The file is read line by line up to the game wanted, so a long run's file is never held whole in memory.

use crate::chess::pgn::read_games_at;
use crate::chess::san::to_san;
use crate::games::GameKind;
use crate::notation::pgn::is_result;
use crate::runner::{RUN_TOML, RunFile};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::io::BufRead as _;
use std::path::Path;

/// The longest game text read (a game of 1,000 moves with long comments is about 100 kB).
pub const MAX_GAME_BYTES: usize = 4 << 20;

/// A game's text and its first line (1-based), or why it cannot be had.
type GameText = Result<(String, usize), String>;

/// The texts of games `wanted` of the PGN file at `path`, each with its first line (1-based), read in one pass
/// that stops after the last game wanted; a game the file does not have, or one too long, is an error of its own.
///
/// # Errors
/// The file cannot be read.
fn game_texts(path: &Path, wanted: &[usize]) -> Result<HashMap<usize, GameText>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut reader = std::io::BufReader::new(file);
    let last = wanted.iter().copied().max().unwrap_or(0);
    let mut found: HashMap<usize, GameText> = HashMap::new();
    let (mut line, mut number, mut seen, mut blank_before) = (String::new(), 0usize, 0usize, true);
    loop {
        line.clear();
        let read = reader.read_line(&mut line).map_err(|e| format!("{}: {e}", path.display()))?;
        if read == 0 {
            break;
        }
        number += 1;
        // A game starts at its tag section: a tag line after a blank line (or at the top of the file).
        let starts = blank_before && line.starts_with('[');
        blank_before = line.trim().is_empty();
        if starts {
            seen += 1;
            if seen == last + 2 {
                break;
            }
            if wanted.contains(&(seen - 1)) {
                found.insert(seen - 1, Ok((String::new(), number)));
            }
        }
        let Some(index) = seen.checked_sub(1) else { continue };
        if let Some(Ok((text, first))) = found.get_mut(&index) {
            if text.len() + line.len() > MAX_GAME_BYTES {
                let why =
                    format!("{}:{first}: game {} is longer than {MAX_GAME_BYTES} bytes", path.display(), index + 1);
                found.insert(index, Err(why));
            } else {
                text.push_str(&line);
            }
        }
    }
    for &index in wanted {
        found
            .entry(index)
            .or_insert_with(|| Err(format!("{}: has {seen} games, not game {}", path.display(), index + 1)));
    }
    Ok(found)
}

/// The comments of the main line's moves, by ply, from a game's movetext (`{...}` after a move).
fn comments(text: &str) -> Vec<Option<String>> {
    let movetext: String = text.lines().filter(|l| !l.starts_with('[')).collect::<Vec<_>>().join("\n");
    let mut out: Vec<Option<String>> = Vec::new();
    let mut chars = movetext.chars().peekable();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut Vec<Option<String>>| {
        let w = std::mem::take(word);
        let is_number = w.trim_end_matches('.').chars().all(|c| c.is_ascii_digit()) && !w.is_empty();
        if !w.is_empty() && !is_number && !is_result(&w) && !w.starts_with('$') {
            out.push(None);
        }
    };
    let mut depth = 0;
    while let Some(c) = chars.next() {
        match c {
            '{' => {
                flush(&mut word, &mut out);
                let comment: String = chars.by_ref().take_while(|&c| c != '}').collect();
                if depth == 0
                    && let Some(last) = out.last_mut()
                {
                    *last = Some(comment.split_whitespace().collect::<Vec<_>>().join(" "));
                }
            }
            '(' => {
                flush(&mut word, &mut out);
                depth += 1;
            }
            ')' => depth -= 1,
            c if c.is_whitespace() => {
                if depth == 0 {
                    flush(&mut word, &mut out);
                } else {
                    word.clear();
                }
            }
            c => {
                if depth == 0 {
                    word.push(c);
                }
            }
        }
    }
    flush(&mut word, &mut out);
    out
}

/// Game `index` of the run in `dir` for the move viewer: `tags`, `start` (FEN), `moves` (`san`, `uci`, `fen`
/// after it, `comment`), `result`; for a game other than chess the moves as written, without positions.
///
/// # Errors
/// The file cannot be read, has no such game, or the game does not read (named with its file and line).
pub fn game_json(dir: &Path, index: usize) -> Result<Value, String> {
    games_json(dir, &[index])?.remove(&index).unwrap_or_else(|| Err(format!("no game {}", index + 1)))
}

/// [`game_json`] of each of games `wanted`, reading `run.toml` once and `games.pgn` in one pass.
///
/// # Errors
/// `run.toml` or `games.pgn` cannot be read; a game of its own that does not read is its own error.
pub fn games_json(dir: &Path, wanted: &[usize]) -> Result<HashMap<usize, Result<Value, String>>, String> {
    let run = RunFile::read(&dir.join(RUN_TOML)).map_err(|e| e.to_string())?;
    let path = dir.join("games.pgn");
    let texts = game_texts(&path, wanted)?;
    Ok(texts
        .into_iter()
        .map(|(index, text)| (index, text.and_then(|(text, first)| game_value(&run, &path, index, &text, first))))
        .collect())
}

/// The viewer's data of game `index`, whose `text` starts at line `first` of `path`.
fn game_value(run: &RunFile, path: &Path, index: usize, text: &str, first: usize) -> Result<Value, String> {
    let notes = comments(text);
    if run.plan.game != GameKind::Chess {
        let raw = crate::notation::pgn::split_games_at(text, &path.display().to_string(), first)
            .map_err(|e| e.to_string())?;
        let raw = raw.into_iter().next().ok_or_else(|| format!("{}:{first}: no game", path.display()))?;
        let moves: Vec<Value> = raw
            .tokens
            .iter()
            .map(|(_, t)| t)
            .filter(|t| !t.ends_with('.') && !is_result(t) && !t.starts_with('$'))
            .enumerate()
            .map(|(i, san)| json!({ "san": san, "comment": notes.get(i).cloned().flatten() }))
            .collect();
        return Ok(json!({ "index": index, "tags": raw.tags, "start": null, "moves": moves }));
    }
    let chess960 = run.plan.variant.is_chess960();
    let games = read_games_at(text, &path.display().to_string(), first, chess960).map_err(|e| e.to_string())?;
    let game = games.into_iter().next().ok_or_else(|| format!("{}:{first}: no game", path.display()))?;
    let mut pos = game.start.clone();
    let start = pos.to_fen();
    let moves: Vec<Value> = game
        .moves
        .iter()
        .enumerate()
        .map(|(i, &m)| {
            let san = to_san(&pos, m);
            let uci = m.to_uci(chess960);
            pos.make_move(m);
            json!({ "san": san, "uci": uci, "fen": pos.to_fen(), "comment": notes.get(i).cloned().flatten() })
        })
        .collect();
    Ok(json!({ "index": index, "tags": game.tags, "start": start, "moves": moves, "result": game.result }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_follow_their_moves() {
        let text = "[Event \"x\"]\n\n1. e4 {+0.35/12 0.123s} e5 {-0.20/11, n=5} 2. Nf3 (2. f4 {gambit}) Nc6 $1 1-0\n";
        assert_eq!(comments(text), vec![Some("+0.35/12 0.123s".into()), Some("-0.20/11, n=5".into()), None, None]);
    }
}
