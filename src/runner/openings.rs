//! Openings: start positions from EPD files, or start positions plus book moves from PGN files, and the order in
//! which a match plays them.

use crate::chess::{Game, Move, Position};
use crate::notation::epd::{EpdError, read_epd_file};
use crate::notation::pgn::{PgnError, read_games};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use std::path::Path;
use thiserror::Error;

/// One opening: a start position and the book moves played from it before the engines take over.
#[derive(Clone, Debug)]
pub struct Opening {
    /// The position the game starts from (an EPD position, or a PGN game's start).
    pub start: Position,
    /// Book moves from `start` (empty for EPD openings), all legal.
    pub moves: Vec<Move>,
    /// 1-based line in the opening file where the opening stands.
    pub line: usize,
}

impl Opening {
    /// A game at the end of the book: `start` with the book moves played through [`Game::play`], so their
    /// keys are in the repetition history.
    pub fn game(&self) -> Game {
        let mut game = Game::new(self.start.clone());
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
    #[error("{file}: --plies applies to PGN openings only; this is an EPD file")]
    PliesForEpd {
        /// The path.
        file: String,
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
}

impl OpeningFormat {
    /// The format by file extension (`.epd`, `.pgn`, any case), else by content: text whose first non-blank line
    /// starts with `[` or `1.` is PGN, anything else EPD.
    pub fn detect(path: &Path, text: &str) -> OpeningFormat {
        match path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).as_deref() {
            Some("pgn") => OpeningFormat::Pgn,
            Some("epd") => OpeningFormat::Epd,
            _ => {
                let first = text.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("");
                if first.starts_with('[') || first.starts_with("1.") { OpeningFormat::Pgn } else { OpeningFormat::Epd }
            }
        }
    }
}

/// Reads every opening of an EPD or PGN file (see [`OpeningFormat::detect`]). For PGN, `plies` keeps the
/// first `plies` half-moves of each game's main line (all of them when `None`; a shorter game keeps what it
/// has).
///
/// # Errors
/// [`OpeningError::Io`], [`OpeningError::Epd`] and [`OpeningError::Pgn`] naming the file and line,
/// [`OpeningError::Empty`], [`OpeningError::PliesForEpd`], and [`OpeningError::Finished`] when an opening
/// leaves no move to play.
pub fn load_openings(path: &Path, plies: Option<usize>) -> Result<Vec<Opening>, OpeningError> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|reason| OpeningError::Io { file: file.clone(), reason })?;
    let openings = match OpeningFormat::detect(path, &text) {
        OpeningFormat::Epd => {
            if plies.is_some() {
                return Err(OpeningError::PliesForEpd { file });
            }
            read_epd_file(path, false)?
                .into_iter()
                .map(|epd| Opening { start: epd.position(false), moves: Vec::new(), line: epd.line })
                .collect::<Vec<_>>()
        }
        OpeningFormat::Pgn => read_games(&text, &file)?
            .into_iter()
            .map(|mut game| {
                game.moves.truncate(plies.unwrap_or(usize::MAX));
                Opening { start: game.start, moves: game.moves, line: game.line }
            })
            .collect(),
    };
    if openings.is_empty() {
        return Err(OpeningError::Empty { file });
    }
    for (i, opening) in openings.iter().enumerate() {
        check_playable(opening, i + 1, &file)?;
    }
    Ok(openings)
}

/// Checks that no book position, the last included, ends the game; `index` is the opening's 1-based number.
fn check_playable(opening: &Opening, index: usize, file: &str) -> Result<(), OpeningError> {
    let mut game = Game::new(opening.start.clone());
    let finished = |game: &Game, ply: usize| match game.outcome() {
        Some(outcome) => Err(OpeningError::Finished {
            file: file.to_string(),
            line: opening.line,
            index,
            ply,
            termination: outcome.termination.text(),
        }),
        None => Ok(()),
    };
    finished(&game, 0)?;
    for (i, &m) in opening.moves.iter().enumerate() {
        let legal = game.play(m);
        debug_assert!(legal, "the PGN reader checks legality");
        finished(&game, i + 1)?;
    }
    Ok(())
}

/// The order in which a match takes its openings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum OpeningOrder {
    /// File order.
    Sequential,
    /// A shuffle determined by the seed.
    #[default]
    Random,
}

/// The opening indices in playing order: `0..count` for [`OpeningOrder::Sequential`], a Fisher-Yates shuffle
/// by rand's `StdRng` (ChaCha12) seeded with `seed` for [`OpeningOrder::Random`]: the same on every platform and
/// run with the locked rand version.
///
/// # Examples
/// ```
/// use arbiter::runner::{OpeningOrder, opening_order};
/// assert_eq!(opening_order(4, OpeningOrder::Sequential, 7), vec![0, 1, 2, 3]);
/// assert_eq!(opening_order(50, OpeningOrder::Random, 7), opening_order(50, OpeningOrder::Random, 7));
/// ```
pub fn opening_order(count: usize, order: OpeningOrder, seed: u64) -> Vec<usize> {
    let mut indices: Vec<usize> = (0..count).collect();
    if order == OpeningOrder::Random {
        let mut rng = StdRng::seed_from_u64(seed);
        indices.shuffle(&mut rng);
    }
    indices
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_file(name: &str, text: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("arbiter-openings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn epd_openings_keep_their_clocks() {
        let path = temp_file(
            "a.epd",
            "# comment\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - hmvc 0; fmvn 1;\n\n\
             4k3/8/8/8/8/8/4P3/4K3 w - - 5 40\n",
        );
        let openings = load_openings(&path, None).unwrap();
        assert_eq!(openings.len(), 2);
        assert_eq!(openings[0].line, 2);
        assert_eq!(openings[1].line, 4);
        assert_eq!(openings[1].start.to_fen(), "4k3/8/8/8/8/8/4P3/4K3 w - - 5 40");
        assert!(matches!(load_openings(&path, Some(4)), Err(OpeningError::PliesForEpd { .. })));
    }

    #[test]
    fn pgn_openings_take_the_first_plies_into_the_history() {
        let path = temp_file(
            "b.pgn",
            "[Event \"a\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 *\n\n[Event \"b\"]\n\n1. e4 e5 *\n",
        );
        let openings = load_openings(&path, Some(6)).unwrap();
        assert_eq!(openings.len(), 2);
        assert_eq!(openings[0].moves.len(), 6);
        assert_eq!(openings[1].moves.len(), 2);
        // The start position occurred after plies 0 and 4, and the keys of the book are in the history.
        let game = openings[0].game();
        assert_eq!(game.keys().len(), 7);
        assert_eq!(game.keys()[0], game.keys()[4]);
        assert_eq!(game.repetitions(), 2, "the position after ply 2 recurs after ply 6");
        assert_eq!(load_openings(&path, None).unwrap()[0].moves.len(), 7);
    }

    #[test]
    fn finished_openings_are_refused() {
        let path = temp_file("mate.pgn", "[Event \"a\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n");
        let err = load_openings(&path, None).unwrap_err();
        assert!(matches!(err, OpeningError::Finished { line: 1, ply: 4, termination: "checkmate", .. }), "{err}");
        assert_eq!(load_openings(&path, Some(3)).unwrap()[0].moves.len(), 3);
        // Without tags the game stands where its moves start (or, if the reader gives no line, by number).
        let path = temp_file("mate-untagged.pgn", "1. e4 e5 *\n\n1. f3 e5 2. g4 Qh4# 0-1\n");
        let err = load_openings(&path, None).unwrap_err();
        assert!(matches!(err, OpeningError::Finished { index: 2, ply: 4, .. }), "{err}");
        assert!(!err.to_string().contains(":0:"), "{err}");
        let lost = OpeningError::Finished { file: "b.pgn".into(), line: 0, index: 2, ply: 4, termination: "checkmate" };
        assert!(lost.to_string().starts_with("b.pgn: opening 2: the game is over after book ply 4"), "{lost}");
        let path = temp_file("stalemate.epd", "7k/5Q2/6K1/8/8/8/8/8 b - -\n");
        let err = load_openings(&path, None).unwrap_err();
        assert!(matches!(err, OpeningError::Finished { line: 1, ply: 0, termination: "stalemate", .. }), "{err}");
    }

    #[test]
    fn bad_files_name_file_and_line() {
        let path = temp_file("c.epd", "8/8/8/8/8/8/8/8 w - -\nnot a fen at all\n");
        let err = load_openings(&path, None).unwrap_err().to_string();
        assert!(err.contains("c.epd:1") || err.contains("c.epd:2"), "{err}");
        let path = temp_file("d.pgn", "[Event \"x\"]\n\n1. e4 e5 2. Ke3 *\n");
        let err = load_openings(&path, None).unwrap_err().to_string();
        assert!(err.contains("d.pgn:"), "{err}");
        assert!(err.contains("Ke3"), "{err}");
        let path = temp_file("e.epd", "\n# nothing\n");
        assert!(matches!(load_openings(&path, None), Err(OpeningError::Empty { .. })));
        let missing = std::env::temp_dir().join("arbiter-no-such-file.epd");
        assert!(matches!(load_openings(&missing, None), Err(OpeningError::Io { .. })));
    }

    #[test]
    fn formats_are_detected() {
        assert_eq!(OpeningFormat::detect(Path::new("x.PGN"), ""), OpeningFormat::Pgn);
        assert_eq!(OpeningFormat::detect(Path::new("x.epd"), "[Event"), OpeningFormat::Epd);
        assert_eq!(OpeningFormat::detect(Path::new("x.txt"), "\n[Event \"a\"]"), OpeningFormat::Pgn);
        assert_eq!(OpeningFormat::detect(Path::new("x"), "8/8/8/8/8/8/8/8 w - -"), OpeningFormat::Epd);
    }

    #[test]
    fn random_order_is_a_seeded_permutation() {
        let a = opening_order(100, OpeningOrder::Random, 1);
        let b = opening_order(100, OpeningOrder::Random, 2);
        assert_ne!(a, b);
        let mut sorted = a.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..100).collect::<Vec<_>>());
    }
}
