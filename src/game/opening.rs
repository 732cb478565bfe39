//! Openings, a game-level concept: a start position and the book moves played from it ([`Opening`]), the
//! formats of opening files ([`OpeningFormat`]), why a file cannot be used
//! ([`OpeningError`]), the reader of PGN games in record move text ([`read_rules_pgn`]) every game but chess
//! uses, and random openings ([`random_openings`]). Loading a file for a match, the playing order and the
//! `--openings` option are the runner's ([`crate::runner::openings`]).

use crate::game::{Game, GameResult};
use crate::notation::epd::EpdError;
use crate::notation::pgn::{PgnError, RawGame, split_games_at};
use rand::SeedableRng;
use std::path::Path;
use std::str::FromStr;
use thiserror::Error;

/// One opening of a game `G` (chess by default): a start position and the book moves played from it before the
/// engines take over.
#[derive(Clone, Debug)]
pub struct Opening<G: Game> {
    /// The position the game starts from (an EPD position, or a PGN game's start).
    pub start: G::Position,
    /// Book moves from `start` (empty for EPD openings), all legal.
    pub moves: Vec<G::Move>,
    /// 1-based line in the opening file where the opening stands.
    pub line: usize,
}

impl<G: Game> Opening<G> {
    /// A game at the end of the book: `start` with the book moves played through [`Game::play`], so that
    /// their positions are in the repetition history.
    pub fn game(&self) -> G {
        let mut game = G::new_game(self.start.clone());
        for &m in &self.moves {
            let legal = game.play(m);
            debug_assert!(legal, "book moves were checked when the file was read");
        }
        game
    }
}

/// Why an opening file cannot be used. Every variant names the file; line errors name the line.
#[derive(Debug, Error)]
pub enum OpeningError {
    /// The file cannot be read.
    #[error("{file}: cannot read: {reason}")]
    Io {
        /// The path.
        file: String,
        /// The operating-system error (its text is in the message, so it is not a `source`).
        reason: std::io::Error,
    },
    /// A malformed EPD line.
    #[error("opening file {0}")]
    Epd(#[from] EpdError),
    /// A malformed PGN game.
    #[error("opening file {0}")]
    Pgn(#[from] PgnError),
    /// The file holds no opening.
    #[error("{file}: no openings in the file")]
    Empty {
        /// The path.
        file: String,
    },
    /// `--plies` was given for an EPD file, whose openings have no moves.
    #[error("{file}: a number of plies applies to PGN openings only; this is an EPD file")]
    PliesForEpd {
        /// The path.
        file: String,
    },
    /// A line that is not an opening of the game played (a Xiangqi EPD or PGN line).
    #[error("{}: {reason}", place(.file, *.line, 0))]
    Line {
        /// The path.
        file: String,
        /// 1-based line (0 for the whole file).
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// A Polyglot book that cannot be used (its size, its order, an illegal move), or a book for a game that
    /// has none.
    #[error("{file}: {reason}")]
    Book {
        /// The path.
        file: String,
        /// What is wrong.
        reason: String,
    },
    /// A book move ends the game (checkmate, stalemate, repetition...) before the engines play.
    #[error(
        "{}: the game is over after book ply {ply} ({termination}); no move is left to play",
        place(.file, *.line, *.index)
    )]
    Finished {
        /// The path.
        file: String,
        /// 1-based line of the opening (0 when the reader gave none; the message then names `index`).
        line: usize,
        /// 1-based number of the opening in the file.
        index: usize,
        /// The ply (1-based) after which the game is over, 0 for the start position.
        ply: usize,
        /// Why the game is over.
        termination: &'static str,
    },
}

/// Where an opening stands, for messages: `file:line`, or `file: opening N` when the line is unknown (0).
fn place(file: &str, line: usize, index: usize) -> String {
    if line > 0 { format!("{file}:{line}") } else { format!("{file}: opening {index}") }
}

/// The format of an opening file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpeningFormat {
    /// One position per line.
    Epd,
    /// Games; their first plies are the book.
    Pgn,
    /// A Polyglot `.bin` book (chess): lines drawn by weight ([`Game::book_openings`]).
    Polyglot,
}

impl OpeningFormat {
    /// The format by file extension (`.epd`, `.pgn`, any case), else by content: text whose first non-blank line
    /// starts with `[` or `1.` is PGN, anything else EPD.
    pub fn detect(path: &Path, text: &str) -> OpeningFormat {
        match path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).as_deref() {
            Some("pgn") => OpeningFormat::Pgn,
            Some("epd") => OpeningFormat::Epd,
            Some("bin") => OpeningFormat::Polyglot,
            _ => {
                let first = text.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("");
                if first.starts_with('[') || first.starts_with("1.") { OpeningFormat::Pgn } else { OpeningFormat::Epd }
            }
        }
    }
}

impl FromStr for OpeningFormat {
    type Err = UnknownWord;

    /// Parses `epd` or `pgn` (any case).
    fn from_str(text: &str) -> Result<OpeningFormat, UnknownWord> {
        match text.to_ascii_lowercase().as_str() {
            "epd" => Ok(OpeningFormat::Epd),
            "pgn" => Ok(OpeningFormat::Pgn),
            "polyglot" => Ok(OpeningFormat::Polyglot),
            _ => Err(UnknownWord { what: "opening format", text: text.to_string(), expected: "epd, pgn or polyglot" }),
        }
    }
}

/// A word that is not one of an option's values (`format=`, `order=` of `--openings`).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown {what} {text:?}, expected {expected}")]
pub struct UnknownWord {
    /// What the word names: `opening format`, `opening order`.
    pub what: &'static str,
    /// The word as given.
    pub text: String,
    /// The words accepted.
    pub expected: &'static str,
}

/// One game read back by [`read_rules_pgn`].
#[derive(Clone, Debug)]
pub struct RulesPgnGame<G: Game> {
    /// The tags in file order, as `(name, value)`.
    pub tags: Vec<(String, String)>,
    /// The game replayed from its `FEN` tag (or the standard start) through every move.
    pub game: G,
    /// The result token at the end of the moves (`None` for `*` or none).
    pub result: Option<GameResult>,
    /// The 1-based line where the game begins.
    pub line: usize,
}

/// Reads every game of a PGN file whose moves are record text ([`Game::move_text`], as the runner writes
/// Xiangqi games): the tags, the moves replayed legally from the `FEN` tag, and the result token; comments,
/// NAGs and variations are skipped (the PGN syntax is read by [`split_games`](crate::notation::pgn::split_games)). `file` names the origin in
/// errors.
///
/// # Errors
/// [`OpeningError::Pgn`] for the PGN syntax, [`OpeningError::Line`] (`file:line: ...`) for a `Variant` tag other
/// than [`Game::PGN_VARIANT`], a bad FEN, or a token that is not a legal move (with the ply and the
/// position's FEN).
pub fn read_rules_pgn<G: Game>(text: &str, file: &str) -> Result<Vec<RulesPgnGame<G>>, OpeningError> {
    read_rules_pgn_at(text, file, 1)
}

/// [`read_rules_pgn`] for `text` that begins at line `first_line` (1-based) of `file`: the lines in games and
/// errors are the file's.
///
/// # Errors
/// As [`read_rules_pgn`].
pub fn read_rules_pgn_at<G: Game>(
    text: &str,
    file: &str,
    first_line: usize,
) -> Result<Vec<RulesPgnGame<G>>, OpeningError> {
    let mut games = Vec::new();
    for raw in split_games_at(text, file, first_line)? {
        let fen_line = raw.tag_line("FEN");
        let RawGame { tags, tokens, line, .. } = raw;
        let at = |line: usize, reason: String| OpeningError::Line { file: file.to_string(), line, reason };
        if let Some((_, value)) = tags.iter().find(|t| t.0 == "Variant")
            && Some(value.as_str()) != G::PGN_VARIANT
        {
            let expected = G::PGN_VARIANT.map_or("none".to_string(), |v| format!("{v:?}"));
            return Err(at(line, format!("Variant {value:?}, expected {expected} in a {} game", G::NAME)));
        }
        let fen = tags.iter().find(|t| t.0 == "FEN").map_or(G::START_FEN, |t| t.1.as_str());
        let mut game = G::from_fen(fen).map_err(|e| at(fen_line.unwrap_or(line), format!("FEN tag: {e}")))?;
        let mut result = None;
        for (n, token) in tokens {
            if let Some(r) = GameResult::from_pgn(&token) {
                result = Some(r);
                continue;
            }
            match token.as_str() {
                "*" => result = None,
                t if t.starts_with('$') => {}
                t if t.trim_end_matches('.').chars().all(|c| c.is_ascii_digit()) => {}
                t => {
                    let m = game.parse_move(t).map_err(|e| at(n, format!("ply {}: {e}", game.plies() + 1)))?;
                    game.play(m);
                }
            }
        }
        games.push(RulesPgnGame { tags, game, result, line });
    }
    Ok(games)
}

/// Up to `count` distinct openings of `plies` random legal plies each from `start`, for matches where every game
/// would otherwise replay the same moves: a line is drawn ply by ply uniformly among the legal moves with a
/// `StdRng` seeded by `seed` (so the same arguments give the same openings), and kept when the game has not
/// ended by its rules, its final FEN is new, and `keep` accepts the final game (for example a balance test with
/// an engine's search; it is asked only for new positions, so that its calls match the openings it accepted
/// one to one). Gives up after `count * 100` tries, so it may return fewer.
pub fn random_openings<G: Game>(
    start: &G,
    count: usize,
    plies: usize,
    seed: u64,
    mut keep: impl FnMut(&G) -> bool,
) -> Vec<G> {
    use rand::RngExt;
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut out: Vec<G> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for _ in 0..count.saturating_mul(100) {
        if out.len() == count {
            break;
        }
        let mut game = start.clone();
        let mut ok = true;
        for _ in 0..plies {
            let moves = game.legal_moves();
            if moves.is_empty() || game.outcome().is_some() {
                ok = false;
                break;
            }
            game.play(moves[rng.random_range(0..moves.len())]);
        }
        if !ok || game.outcome().is_some() {
            continue;
        }
        let fen = game.fen();
        if !seen.contains(&fen) && keep(&game) {
            seen.insert(fen);
            out.push(game);
        }
    }
    out
}
