//! PGN (Portable Game Notation, the 1994 standard by Steven J. Edwards), the game-independent part: the
//! tokenizer that splits a file into games' tags and movetext tokens ([`split_games`]), the termination
//! markers, the movetext line wrapping ([`push_movetext`]) and the errors. Each game reads and writes its own
//! moves: chess SAN in `chess::pgn`, record move text in `game::opening::read_rules_pgn`.

use thiserror::Error;

/// A PGN game that cannot be read, with the file and line.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PgnError {
    /// A tag pair is malformed.
    #[error("{file}:{line}: malformed tag pair {}", crate::notation::quote::shown(.text))]
    BadTag {
        /// The source file.
        file: String,
        /// 1-based line.
        line: usize,
        /// The text.
        text: String,
    },
    /// A comment or variation is never closed.
    #[error("{file}:{line}: {what} is never closed")]
    Unterminated {
        /// The source file.
        file: String,
        /// 1-based line where it opens.
        line: usize,
        /// `comment {` or `variation (`.
        what: &'static str,
    },
    /// The FEN tag does not parse.
    #[error("{file}:{line}: bad FEN tag: {reason}")]
    BadFen {
        /// The source file.
        file: String,
        /// 1-based line of the `FEN` tag.
        line: usize,
        /// Why.
        reason: String,
    },
    /// A move of the main line is malformed or illegal.
    #[error("{file}:{line}: move {ply} ({}): {reason}", crate::notation::quote::shown(.text))]
    BadMove {
        /// The source file.
        file: String,
        /// 1-based line where the move stands.
        line: usize,
        /// 1-based ply of the main line.
        ply: usize,
        /// The move text.
        text: String,
        /// Why.
        reason: String,
    },
}

/// One game of a PGN file as text: its tags and its movetext tokens, before any move is read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawGame {
    /// The tags in file order, as `(name, value)`, with `\"` and `\\` unescaped.
    pub tags: Vec<(String, String)>,
    /// The 1-based line of each tag, in the order of `tags`.
    pub tag_lines: Vec<usize>,
    /// The movetext tokens with the 1-based line of each: move numbers, moves, NAGs and the result, with
    /// comments (`{...}`, `;...`) and variations (`(...)`) left out.
    pub tokens: Vec<(usize, String)>,
    /// The 1-based line where the game begins (its first tag, or its first token when it has no tags).
    pub line: usize,
}

impl RawGame {
    /// The 1-based line of the first tag called `name`, if the game has one.
    pub fn tag_line(&self, name: &str) -> Option<usize> {
        self.tags.iter().position(|(k, _)| k == name).map(|i| self.tag_lines[i])
    }
}

/// Splits PGN text into games without reading the moves (so that other games than chess can share the PGN
/// syntax): tags, then movetext tokens until a result token or the next tag section. Lines starting with `%`
/// are skipped, a leading byte-order mark is ignored.
///
/// # Errors
/// [`PgnError::BadTag`] for a malformed tag line, [`PgnError::Unterminated`] for a comment or variation still
/// open at the end of the text, each naming `file` and the line.
pub fn split_games(text: &str, file: &str) -> Result<Vec<RawGame>, PgnError> {
    split_games_at(text, file, 1)
}

/// [`split_games`] for `text` that begins at line `first_line` (1-based) of `file`: the lines in games and
/// errors are the file's.
///
/// # Errors
/// As [`split_games`].
pub fn split_games_at(text: &str, file: &str, first_line: usize) -> Result<Vec<RawGame>, PgnError> {
    let mut games = Vec::new();
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut tag_lines: Vec<usize> = Vec::new();
    let mut tokens: Vec<(usize, String)> = Vec::new();
    let mut game_line = 0;
    let mut depth_comment = false;
    let mut depth_var = 0usize;
    let mut in_moves = false;
    let finish = |tags: &mut Vec<(String, String)>,
                  tag_lines: &mut Vec<usize>,
                  tokens: &mut Vec<(usize, String)>,
                  line: usize,
                  games: &mut Vec<RawGame>| {
        if !(tags.is_empty() && tokens.is_empty()) {
            games.push(RawGame {
                tags: std::mem::take(tags),
                tag_lines: std::mem::take(tag_lines),
                tokens: std::mem::take(tokens),
                line,
            });
        }
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut comment_start = 0;
    let mut variation_start = 0;
    for (i, raw) in text.lines().enumerate() {
        let lineno = i + first_line;
        let line = raw.trim();
        if line.starts_with('%') {
            continue;
        }
        if !depth_comment && depth_var == 0 && line.starts_with('[') {
            if in_moves {
                finish(&mut tags, &mut tag_lines, &mut tokens, game_line, &mut games);
                in_moves = false;
            }
            if tags.is_empty() {
                game_line = lineno;
            }
            let bad = || PgnError::BadTag { file: file.to_string(), line: lineno, text: raw.to_string() };
            let inner = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')).ok_or_else(bad)?;
            let (name, value) = inner.split_once(char::is_whitespace).ok_or_else(bad)?;
            let value = value.trim();
            let value = value.strip_prefix('"').and_then(|v| v.strip_suffix('"')).ok_or_else(bad)?;
            tags.push((name.to_string(), value.replace("\\\"", "\"").replace("\\\\", "\\")));
            tag_lines.push(lineno);
            continue;
        }
        let mut word = String::new();
        let flush = |word: &mut String, tokens: &mut Vec<(usize, String)>| {
            if !word.is_empty() {
                tokens.push((lineno, std::mem::take(word)));
            }
        };
        for c in line.chars() {
            if depth_comment {
                if c == '}' {
                    depth_comment = false;
                }
                continue;
            }
            match c {
                '{' => {
                    flush(&mut word, &mut tokens);
                    depth_comment = true;
                    comment_start = lineno;
                }
                ';' if depth_var == 0 => {
                    flush(&mut word, &mut tokens);
                    break;
                }
                '(' => {
                    flush(&mut word, &mut tokens);
                    if depth_var == 0 {
                        variation_start = lineno;
                    }
                    depth_var += 1;
                }
                ')' => {
                    word.clear();
                    depth_var = depth_var.saturating_sub(1);
                }
                c if c.is_whitespace() => flush(&mut word, &mut tokens),
                c if depth_var == 0 => word.push(c),
                _ => {}
            }
        }
        flush(&mut word, &mut tokens);
        if !tokens.is_empty() && !in_moves {
            in_moves = true;
            if tags.is_empty() {
                game_line = tokens[0].0;
            }
        }
        if in_moves && tokens.last().is_some_and(|(_, t)| is_result(t)) {
            finish(&mut tags, &mut tag_lines, &mut tokens, game_line, &mut games);
            in_moves = false;
        }
    }
    if depth_comment || depth_var > 0 {
        let (what, line) = if depth_comment { ("comment {", comment_start) } else { ("variation (", variation_start) };
        return Err(PgnError::Unterminated { file: file.to_string(), line, what });
    }
    finish(&mut tags, &mut tag_lines, &mut tokens, game_line, &mut games);
    Ok(games)
}

/// Whether a movetext token is a game termination marker (`1-0`, `0-1`, `1/2-1/2`, `*`).
pub fn is_result(t: &str) -> bool {
    matches!(t, "1-0" | "0-1" | "1/2-1/2" | "*")
}

/// Appends PGN movetext `words` (move numbers, moves, `{comments}`, the result) to `out` separated by spaces
/// with lines of at most 79 characters (a longer word stands alone), then a blank line (PGN export format,
/// standard section 8.2.6: lines under 80 characters).
pub fn push_movetext(out: &mut String, words: &[String]) {
    let mut line_len = 0;
    for w in words {
        if line_len > 0 && line_len + 1 + w.len() > 79 {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(w);
        line_len += w.len();
    }
    out.push_str("\n\n");
}
