//! PGN games of chess: SAN movetext read over the game-independent tokenizer ([`crate::notation::pgn`]) and
//! written with the seven-tag roster, `SetUp`/`FEN` for non-standard starts and `Variant "chess960"`.

use super::san::{parse_san, to_san};
use super::{Color, Move, Position};
use crate::notation::pgn::{PgnError, is_result, push_movetext, split_games_at};

/// A game read from PGN: its tags, start position, main-line moves and result text.
#[derive(Clone, Debug)]
pub struct PgnGame {
    /// Tag pairs in file order.
    pub tags: Vec<(String, String)>,
    /// The start position (from `FEN` when given, else the standard start).
    pub start: Position,
    /// The main line.
    pub moves: Vec<Move>,
    /// The game termination marker (`1-0`, `0-1`, `1/2-1/2`, `*`).
    pub result: String,
    /// 1-based line of the game's first line.
    pub line: usize,
}

impl PgnGame {
    /// The value of a tag.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }
}

/// Reads every game of PGN text. Comments (`{}` and `;`), variations (`()`), NAGs (`$n`), move numbers and
/// escape lines (`%`) are skipped; only the main line is kept. A game is Chess960 when its `Variant` tag names
/// it (any value holding `960`).
///
/// # Errors
/// [`PgnError`] naming `file`, the line and what is wrong, for the first bad game.
pub fn read_games(text: &str, file: &str) -> Result<Vec<PgnGame>, PgnError> {
    read_games_variant(text, file, false)
}

/// [`read_games`] where `chess960` makes every game Chess960, whatever its tags say: `FEN` castling fields are
/// read as X-FEN or Shredder-FEN, a game without `FEN` starts from the standard array as a Chess960 position,
/// and `O-O`/`O-O-O` castle with the rook on that side of the king.
///
/// # Errors
/// As [`read_games`].
pub fn read_games_variant(text: &str, file: &str, chess960: bool) -> Result<Vec<PgnGame>, PgnError> {
    read_games_at(text, file, 1, chess960)
}

/// [`read_games_variant`] for `text` that begins at line `first_line` (1-based) of `file`, such as one game
/// cut from a longer file: the lines in games and errors are the file's.
///
/// # Errors
/// As [`read_games`].
pub fn read_games_at(text: &str, file: &str, first_line: usize, chess960: bool) -> Result<Vec<PgnGame>, PgnError> {
    split_games_at(text, file, first_line)?
        .into_iter()
        .map(|raw| {
            let fen_line = raw.tag_line("FEN").unwrap_or(raw.line);
            build_game(raw.tags, raw.tokens, (raw.line, fen_line), file, chess960)
        })
        .collect()
}

fn build_game(
    tags: Vec<(String, String)>,
    tokens: Vec<(usize, String)>,
    (line, fen_line): (usize, usize),
    file: &str,
    force_chess960: bool,
) -> Result<PgnGame, PgnError> {
    let fen = tags.iter().find(|(k, _)| k == "FEN").map(|(_, v)| v.clone());
    let chess960 = force_chess960 || tags.iter().any(|(k, v)| k == "Variant" && v.to_ascii_lowercase().contains("960"));
    let start = match fen {
        Some(f) => Position::from_fen_variant(&f, chess960).map_err(|e| PgnError::BadFen {
            file: file.to_string(),
            line: fen_line,
            reason: e.to_string(),
        })?,
        None => {
            let mut start = Position::startpos();
            start.set_chess960(chess960);
            start
        }
    };
    let mut pos = start.clone();
    let mut moves = Vec::new();
    let mut result = tags.iter().find(|(k, _)| k == "Result").map(|(_, v)| v.clone()).unwrap_or_else(|| "*".into());
    for (lineno, tok) in tokens {
        if is_result(&tok) {
            result = tok;
            continue;
        }
        // Strip move numbers such as "12." or "12..." possibly glued to the move ("12.e4"), but not the
        // zeros of "0-0".
        let digits = tok.len() - tok.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let t = if tok[digits..].starts_with('.') { tok[digits..].trim_start_matches('.') } else { tok.as_str() };
        if t.is_empty() || t.starts_with('$') || t == "e.p." || t == "ep" {
            continue;
        }
        let m = parse_san(&pos, t).map_err(|e| PgnError::BadMove {
            file: file.to_string(),
            line: lineno,
            ply: moves.len() + 1,
            text: t.to_string(),
            reason: e.to_string(),
        })?;
        pos.make_move(m);
        moves.push(m);
    }
    Ok(PgnGame { tags, start, moves, result, line })
}

/// Writes one game as PGN: the given tags (the caller supplies the seven-tag roster in order and any extra
/// tags), `SetUp "1"` and `FEN` when `start` is not the standard start position, `Variant "chess960"` (the
/// spelling python-chess and cutechess read) for a Chess960 game, and SAN movetext wrapped below 80 columns
/// (castling as `O-O`/`O-O-O` in both variants), with an optional comment after each move (`{...}`), ending with
/// `result`.
pub fn write_game(
    tags: &[(String, String)],
    start: &Position,
    moves: &[Move],
    comments: Option<&[String]>,
    result: &str,
) -> String {
    let mut out = String::new();
    for (k, v) in tags {
        out.push_str(&format!("[{k} \"{}\"]\n", v.replace('\\', "\\\\").replace('"', "\\\"")));
    }
    if *start != Position::startpos() {
        out.push_str("[SetUp \"1\"]\n");
        out.push_str(&format!("[FEN \"{}\"]\n", start.to_fen()));
        if start.is_chess960() {
            out.push_str("[Variant \"chess960\"]\n");
        }
    }
    out.push('\n');
    let mut pos = start.clone();
    let mut words: Vec<String> = Vec::with_capacity(moves.len() * 2);
    for (i, &m) in moves.iter().enumerate() {
        let number = pos.fullmove_number();
        if pos.side_to_move() == Color::White {
            words.push(format!("{number}."));
        } else if i == 0 {
            words.push(format!("{number}..."));
        }
        words.push(to_san(&pos, m));
        if let Some(c) = comments.and_then(|c| c.get(i))
            && !c.is_empty()
        {
            words.push(format!("{{{}}}", c.replace('}', ")")));
        }
        pos.make_move(m);
    }
    words.push(result.to_string());
    push_movetext(&mut out, &words);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::pgn::split_games;

    #[test]
    fn write_then_read() {
        let start = Position::startpos();
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for s in ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "O-O"] {
            let m = parse_san(&pos, s).unwrap();
            pos.make_move(m);
            moves.push(m);
        }
        let tags = vec![("Event".to_string(), "t".to_string()), ("Result".to_string(), "*".to_string())];
        let text = write_game(&tags, &start, &moves, None, "*");
        let games = read_games(&format!("{text}{text}"), "t.pgn").unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].moves, moves);
        let bad = read_games("[Event \"x\"]\n\n1. e4 e5 2. Ke3 *\n", "b.pgn").unwrap_err();
        assert!(bad.to_string().starts_with("b.pgn:3: move 3"), "{bad}");
    }

    #[test]
    fn a_bad_fen_tag_names_its_own_line() {
        // The second game starts on line 5; its FEN tag stands on line 7, and the error names line 7.
        let text = "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"x\"]\n[Site \"?\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R w Kk - 0 1\"]\n\n1. Kf1 *\n";
        let bad = read_games(text, "b.pgn").unwrap_err();
        assert!(matches!(bad, PgnError::BadFen { line: 7, .. }), "{bad}");
        assert!(bad.to_string().starts_with("b.pgn:7: bad FEN tag: castling field"), "{bad}");
        let games = split_games(text, "b.pgn").unwrap();
        assert_eq!((games[1].line, games[1].tag_line("FEN"), games[1].tag_line("Date")), (5, Some(7), None));
    }

    #[test]
    fn chess960_castling_is_written_and_read_back() {
        let start =
            Position::from_fen_variant("nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN w GBgb - 0 1", true).unwrap();
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for s in ["d4", "d5", "b3", "b6", "Bb2", "Bb7", "O-O-O", "e5", "e4", "O-O-O"] {
            let m = parse_san(&pos, s).unwrap();
            pos.make_move(m);
            moves.push(m);
        }
        // The king takes the rook's square in the move encoding, but SAN is O-O-O.
        assert_eq!((moves[6].to_uci(true).as_str(), moves[6].to_uci(false).as_str()), ("d1b1", "d1c1"));
        let tags = vec![("Event".to_string(), "t".to_string())];
        let text = write_game(&tags, &start, &moves, None, "*");
        assert!(text.contains("[SetUp \"1\"]\n[FEN \"nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN w GBgb - 0 1\"]\n"));
        assert!(text.contains("[Variant \"chess960\"]\n"), "{text}");
        assert!(text.contains("4. O-O-O e5 5. e4 O-O-O *"), "{text}");
        let games = read_games(&text, "960.pgn").unwrap();
        assert_eq!(games[0].moves, moves);
        assert!(games[0].start.is_chess960());
        // Without the tags' help the reader still plays it as Chess960 when told to.
        let bare = "[FEN \"nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN w KQkq - 0 1\"]\n\n1. d4 d5 2. b3 b6 3. Bb2 Bb7 4. O-O-O *\n";
        let games = read_games_variant(bare, "bare.pgn", true).unwrap();
        assert_eq!(games[0].moves[..7], moves[..7]);
        let standard = read_games_variant("1. e4 *\n", "s.pgn", true).unwrap();
        assert!(standard[0].start.is_chess960());
        assert!(!read_games("1. e4 *\n", "s.pgn").unwrap()[0].start.is_chess960());
    }

    #[test]
    fn comments_variations_numbers() {
        let text = "[Event \"x\"]\n[Result \"1-0\"]\n\n1.e4 {best} (1. d4 d5) 1... e5 $1 2. Qh5 ; rest\nNc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
        let g = &read_games(text, "c.pgn").unwrap()[0];
        assert_eq!(g.moves.len(), 7);
        assert_eq!(g.result, "1-0");
        let text = "\u{feff}1. e4 e5 2. Nf3 Nf6 3. Bc4 Bc5 4. 0-0 0-0 5. d4 exd4 6. e5 d5 7. exd6 e.p. *\n";
        let g = &read_games(text, "z.pgn").unwrap()[0];
        assert_eq!(g.moves.len(), 13);
        assert_eq!(g.line, 1);
        let err = read_games("[Event \"x\"]\n\n1. e4 { open\n e5 *\n", "u.pgn").unwrap_err();
        assert_eq!(err.to_string(), "u.pgn:3: comment { is never closed");
        let err = read_games("\n\n1. e4 (1. d4\n e5 *\n", "v.pgn").unwrap_err();
        assert_eq!(err.to_string(), "v.pgn:3: variation ( is never closed");
    }
}
