//! The openings of a match: loading an EPD or PGN file for a game (every opening checked to leave a move to
//! play), the order in which a match plays them, and the `--openings` option text (a path, or cutechess's
//! `file=PATH,format=epd,order=random,plies=N,start=N`). What an opening is, the file formats and the readers
//! are the game's ([`crate::game::opening`]).

use crate::chess;
use crate::chess::Variant;
use crate::game::Game;
use crate::game::opening::{Opening, OpeningError, OpeningFormat, UnknownWord};
use crate::notation::kv::{KeyValueError, KeyValues};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// Reads every opening of an EPD or PGN file (see [`OpeningFormat::detect`]) as standard chess. For PGN,
/// `plies` keeps the first `plies` half-moves of each game's main line (all of them when `None`; a shorter game
/// keeps what it has).
///
/// # Errors
/// As [`load_openings_as`].
pub fn load_openings(path: &Path, plies: Option<usize>) -> Result<Vec<Opening<crate::chess::ChessGame>>, OpeningError> {
    load_openings_as(path, None, plies, Variant::Standard)
}

/// Reads every opening of a file in `format` (detected by [`OpeningFormat::detect`] when `None`) for
/// `variant`: with [`Variant::Chess960`] every start position is a Chess960 position (X-FEN or Shredder-FEN
/// castling fields; PGN games without a `FEN` tag start from the standard array). `plies` as in
/// [`load_openings`].
///
/// # Errors
/// [`OpeningError::Io`], [`OpeningError::Epd`] and [`OpeningError::Pgn`] naming the file and line,
/// [`OpeningError::Empty`], [`OpeningError::PliesForEpd`], and [`OpeningError::Finished`] when an opening
/// leaves no move to play.
pub fn load_openings_as(
    path: &Path,
    format: Option<OpeningFormat>,
    plies: Option<usize>,
    variant: Variant,
) -> Result<Vec<Opening<crate::chess::ChessGame>>, OpeningError> {
    load_game_openings::<chess::ChessGame>(path, format, plies, variant)
}

/// [`load_openings_as`] for the game `G`: the file is read by [`Game::read_openings`], and then every
/// opening is checked to leave a move to play.
///
/// # Errors
/// As [`load_openings_as`], and [`OpeningError::Line`] for a line that is not a `G` opening.
pub fn load_game_openings<G: Game>(
    path: &Path,
    format: Option<OpeningFormat>,
    plies: Option<usize>,
    variant: Variant,
) -> Result<Vec<Opening<G>>, OpeningError> {
    let file = path.display().to_string();
    if format == Some(OpeningFormat::Polyglot)
        || (format.is_none() && OpeningFormat::detect(path, "") == OpeningFormat::Polyglot)
    {
        let reason = "a Polyglot book gives openings to arbiter match (--openings file=BOOK,format=polyglot)".into();
        return Err(OpeningError::Book { file, reason });
    }
    let text = crate::notation::text::read(path).map_err(|reason| OpeningError::Io { file: file.clone(), reason })?;
    let format = format.unwrap_or_else(|| OpeningFormat::detect(path, &text));
    if format == OpeningFormat::Epd && plies.is_some() {
        return Err(OpeningError::PliesForEpd { file });
    }
    let mut openings = G::read_openings(path, &text, format, variant.is_chess960())?;
    for opening in &mut openings {
        opening.moves.truncate(plies.unwrap_or(usize::MAX));
    }
    if openings.is_empty() {
        return Err(OpeningError::Empty { file });
    }
    for (i, opening) in openings.iter().enumerate() {
        check_playable(opening, i + 1, &file)?;
    }
    Ok(openings)
}

/// The `--openings` value that plays every game from the game's start position (cutechess-cli and fastchess
/// without `-openings`), when no file of that name exists.
pub const START_POSITION: &str = "startpos";

/// Whether `file`, as given against `cwd`, names the start position ([`START_POSITION`]) rather than a file.
pub fn is_start_position(file: &Path, cwd: &Path) -> bool {
    file == Path::new(START_POSITION) && !cwd.join(START_POSITION).exists()
}

/// The most lines a match draws from a Polyglot book: pair `k` plays line `k` (in the opening order), and a
/// longer match plays them again.
pub const MAX_BOOK_LINES: usize = 20_000;

/// cutechess-cli's default book depth, 1000 full moves (`bookDepth = 1000` in `projects/cli/src/main.cpp`):
/// in practice, until the book has no move.
pub const DEFAULT_BOOK_DEPTH: usize = 2000;

/// The openings of a match from `path` in `format` (detected when `None`): a Polyglot book gives `lines`
/// lines of at most `depth` plies ([`DEFAULT_BOOK_DEPTH`] when `None`) drawn reproducibly from `seed`
/// ([`Game::book_openings`]); an EPD or PGN file is read by [`load_game_openings`] with `plies`; the path
/// [`START_POSITION`] (relative, as [`is_start_position`] keeps it) is the game's start position alone.
///
/// # Errors
/// As [`load_game_openings`], and [`OpeningError::Book`] for a file that is not a usable Polyglot book.
pub fn load_match_openings<G: Game>(
    path: &Path,
    format: Option<OpeningFormat>,
    plies: Option<usize>,
    depth: Option<usize>,
    variant: Variant,
    seed: u64,
    lines: usize,
) -> Result<Vec<Opening<G>>, OpeningError> {
    if path == Path::new(START_POSITION) {
        let file = START_POSITION.to_string();
        if variant.is_chess960() {
            let reason = "Chess960 games need openings (an EPD file of start positions)".to_string();
            return Err(OpeningError::Book { file, reason });
        }
        let start = G::read_fen(&G::initial_fen(), false)
            .map_err(|e| OpeningError::Book { file, reason: format!("the start position: {e}") })?;
        return Ok(vec![Opening { start, moves: Vec::new(), line: 1 }]);
    }
    let format = format
        .or_else(|| (OpeningFormat::detect(path, "") == OpeningFormat::Polyglot).then_some(OpeningFormat::Polyglot));
    if format != Some(OpeningFormat::Polyglot) {
        return load_game_openings::<G>(path, format, plies, variant);
    }
    let file = path.display().to_string();
    if variant.is_chess960() {
        return Err(OpeningError::Book { file, reason: "Polyglot books are for standard chess, not Chess960".into() });
    }
    let bytes = std::fs::read(path).map_err(|reason| OpeningError::Io { file: file.clone(), reason })?;
    let openings = G::book_openings(path, &bytes, depth.unwrap_or(DEFAULT_BOOK_DEPTH), seed, lines)?;
    if openings.iter().all(|o| o.moves.is_empty()) {
        let reason = "the book has no move for the start position".to_string();
        return Err(OpeningError::Book { file, reason });
    }
    Ok(openings)
}

/// Checks that no book position, the last included, ends the game; `index` is the opening's 1-based number.
fn check_playable<G: Game>(opening: &Opening<G>, index: usize, file: &str) -> Result<(), OpeningError> {
    let mut game = G::new_game(opening.start.clone());
    let finished = |game: &G, ply: usize| match game.outcome() {
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum OpeningOrder {
    /// File order.
    Sequential,
    /// A shuffle determined by the seed.
    #[default]
    Random,
}

impl OpeningOrder {
    /// The name on the command line: `sequential` or `random`.
    pub fn name(self) -> &'static str {
        match self {
            OpeningOrder::Sequential => "sequential",
            OpeningOrder::Random => "random",
        }
    }
}

impl FromStr for OpeningOrder {
    type Err = UnknownWord;

    /// Parses `sequential` or `random` (any case).
    fn from_str(text: &str) -> Result<OpeningOrder, UnknownWord> {
        match text.to_ascii_lowercase().as_str() {
            "sequential" => Ok(OpeningOrder::Sequential),
            "random" => Ok(OpeningOrder::Random),
            _ => Err(UnknownWord { what: "opening order", text: text.to_string(), expected: "sequential or random" }),
        }
    }
}

/// The `--openings` value: a plain path, or cutechess-cli's key=value form
/// `file=PATH[,format=epd|pgn|polyglot][,order=random|sequential][,plies=N][,depth=N][,start=N]`.
///
/// The text is a plain path when a file of that name exists or when it holds no `=`; otherwise it is the
/// key=value form (see [`KeyValues`]: a path in `file=` cannot hold a `,`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningsOption {
    /// The opening file.
    pub file: PathBuf,
    /// `format=`: the file format; `None` to detect it ([`OpeningFormat::detect`]).
    pub format: Option<OpeningFormat>,
    /// `order=`: the opening order, if given.
    pub order: Option<OpeningOrder>,
    /// `plies=`: book plies of PGN openings (at least 1), if given.
    pub plies: Option<usize>,
    /// `start=`: the 1-based number of the first opening played in the playing order (at least 1), if given.
    pub start: Option<usize>,
    /// `depth=`: the most plies taken from a Polyglot book (at least 1), if given.
    pub depth: Option<usize>,
}

impl OpeningsOption {
    /// The keys of the key=value form.
    pub const KEYS: &[&str] = &["file", "format", "order", "plies", "start", "depth"];

    /// Parses an `--openings` value (see the type's docs).
    ///
    /// # Errors
    /// A [`KeyValueError`] naming `--openings` and the key: an unknown or repeated key, a missing `file=`, a
    /// format other than `epd`/`pgn`, an order other than `random`/`sequential`, `plies` or `start` not a
    /// whole number of at least 1.
    ///
    /// # Examples
    /// ```
    /// use arbiter::runner::{OpeningFormat, OpeningOrder, OpeningsOption};
    /// let plain = OpeningsOption::parse("books/uho.epd").unwrap();
    /// assert_eq!((plain.file.to_str(), plain.format, plain.start), (Some("books/uho.epd"), None, None));
    /// let kv = OpeningsOption::parse("file=book.pgn,format=pgn,order=sequential,plies=8,start=3").unwrap();
    /// assert_eq!(kv.format, Some(OpeningFormat::Pgn));
    /// assert_eq!((kv.order, kv.plies, kv.start), (Some(OpeningOrder::Sequential), Some(8), Some(3)));
    /// ```
    pub fn parse(text: &str) -> Result<OpeningsOption, KeyValueError> {
        let plain = OpeningsOption {
            file: PathBuf::from(text),
            format: None,
            order: None,
            plies: None,
            start: None,
            depth: None,
        };
        if !text.contains('=') || Path::new(text).is_file() {
            return Ok(plain);
        }
        const AT_LEAST_ONE: &str = "a whole number, at least 1";
        let mut kv = KeyValues::parse("openings", text, Self::KEYS)?;
        let file = match kv.text("file") {
            Some("") => return Err(kv.bad_value("file", "a path")),
            Some(path) => PathBuf::from(path),
            None => return Err(KeyValueError::Missing { option: "openings".into(), key: "file".into() }),
        };
        let format = kv.take("format", "epd, pgn or polyglot")?;
        let order = kv.take("order", "random or sequential")?;
        let plies: Option<usize> = kv.take("plies", AT_LEAST_ONE)?;
        let start: Option<usize> = kv.take("start", AT_LEAST_ONE)?;
        let depth: Option<usize> = kv.take("depth", AT_LEAST_ONE)?;
        for (key, value) in [("plies", plies), ("start", start), ("depth", depth)] {
            if value == Some(0) {
                return Err(kv.bad_value(key, AT_LEAST_ONE));
            }
        }
        Ok(OpeningsOption { file, format, order, plies, start, depth })
    }
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

/// The opening indices in playing order from the `start`-th on (1-based): [`opening_order`] rotated left by
/// `start - 1`, so that the openings skipped at the start are played last when a match cycles through the
/// openings. With [`OpeningOrder::Random`] the skipped openings are the first `start - 1` of the shuffled
/// order: a run with the same seed and `start` one past the openings a previous run used goes on where it
/// stopped. `start` 0 counts as 1; a `start` beyond `count` wraps around.
///
/// # Examples
/// ```
/// use arbiter::runner::{OpeningOrder, opening_order, opening_order_from};
/// assert_eq!(opening_order_from(5, OpeningOrder::Sequential, 1, 3), vec![2, 3, 4, 0, 1]);
/// let shuffled = opening_order(5, OpeningOrder::Random, 9);
/// assert_eq!(opening_order_from(5, OpeningOrder::Random, 9, 2)[..4], shuffled[1..]);
/// ```
pub fn opening_order_from(count: usize, order: OpeningOrder, seed: u64, start: usize) -> Vec<usize> {
    let mut indices = opening_order(count, order, seed);
    if count > 0 {
        indices.rotate_left(start.saturating_sub(1) % count);
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
    fn chess960_openings_read_xfen_and_shredder_castling() {
        // King on e1 between rooks on b1 and g1: `KQkq` (X-FEN, the outermost rooks) and `GBgb` (Shredder-FEN)
        // are the same rights; a DFRC start has different back ranks.
        let path = temp_file(
            "960.epd",
            "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w KQkq - 0 1
             1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1
             rkrbbqnn/pppppppp/8/8/8/8/PPPPPPPP/NNQBBRKR w HFca - 0 1
",
        );
        let openings = load_openings_as(&path, None, None, Variant::Chess960).unwrap();
        let fens: Vec<String> = openings.iter().map(|o| o.start.to_fen()).collect();
        assert_eq!(
            fens,
            [
                "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
                "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
                "rkrbbqnn/pppppppp/8/8/8/8/PPPPPPPP/NNQBBRKR w HFca - 0 1",
            ]
        );
        assert!(openings.iter().all(|o| o.start.is_chess960() && o.game().position().is_chess960()));
        // Read as standard chess, the inner rooks are refused with a hint.
        let err = load_openings(&path, None).unwrap_err().to_string();
        assert!(err.contains("960.epd:1") && err.contains("need Chess960 mode"), "{err}");

        // A PGN book without a Variant tag becomes Chess960 too, and its O-O castles with the g1 rook.
        let path = temp_file(
            "960.pgn",
            "[FEN \"nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN w KQkq - 0 1\"]\n\n             1. e4 e5 2. g3 g6 3. Bg2 Bg7 4. Qe2 Qe7 5. O-O O-O *\n\n             [Event \"b\"]\n\n1. e4 e5 *\n",
        );
        let openings = load_openings_as(&path, None, None, Variant::Chess960).unwrap();
        assert!(openings.iter().all(|o| o.start.is_chess960()));
        let game = openings[0].game();
        // The same position as python-chess reaches (chess.Board(fen, chess960=True), push_san).
        assert_eq!(game.position().to_fen(), "nrb2rkn/ppppqpbp/6p1/4p3/4P3/6P1/PPPPQPBP/NRB2RKN w - - 6 6");
        assert_eq!(openings[1].start.to_fen(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
    }

    #[test]
    fn a_given_format_overrides_the_extension() {
        let path = temp_file("book.txt", "[Event \"a\"]\n\n1. e4 e5 2. Nf3 *\n");
        let openings = load_openings_as(&path, Some(OpeningFormat::Pgn), Some(2), Variant::Standard).unwrap();
        assert_eq!(openings[0].moves.len(), 2);
        let path = temp_file("book.pgn", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\n");
        assert_eq!(load_openings_as(&path, Some(OpeningFormat::Epd), None, Variant::Standard).unwrap().len(), 1);
        assert!(matches!(load_openings(&path, None), Err(OpeningError::Pgn(_))));
    }

    #[test]
    fn openings_option_plain_and_key_value() {
        let plain = OpeningsOption::parse("books/uho.epd").unwrap();
        assert_eq!(
            plain,
            OpeningsOption {
                file: "books/uho.epd".into(),
                format: None,
                order: None,
                plies: None,
                start: None,
                depth: None
            }
        );
        let kv = OpeningsOption::parse("file=a.pgn,format=PGN,order=sequential,plies=8,start=3").unwrap();
        assert_eq!(
            kv,
            OpeningsOption {
                file: "a.pgn".into(),
                format: Some(OpeningFormat::Pgn),
                order: Some(OpeningOrder::Sequential),
                plies: Some(8),
                start: Some(3),
                depth: None,
            }
        );
        assert_eq!(OpeningsOption::parse("order=random,file=b.epd").unwrap().order, Some(OpeningOrder::Random));
        // An existing file whose name holds '=' is a plain path.
        let odd = temp_file("a=b.epd", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\n");
        assert_eq!(OpeningsOption::parse(odd.to_str().unwrap()).unwrap().file, odd);

        let err = |text: &str| OpeningsOption::parse(text).unwrap_err().to_string();
        assert_eq!(err("format=epd"), "openings: missing key `file`");
        assert_eq!(
            err("file=a.epd,moves=3"),
            "openings: unknown key `moves`, expected one of: file, format, order, plies, start, depth"
        );
        assert_eq!(
            err("file=a.epd,depth=0"),
            "openings: depth=\"0\" is not valid, expected a whole number, at least 1"
        );
        assert_eq!(
            err("file=a.epd,format=bin"),
            "openings: format=\"bin\" is not valid, expected epd, pgn or polyglot"
        );
        assert_eq!(
            err("file=a.epd,order=shuffled"),
            "openings: order=\"shuffled\" is not valid, expected random or sequential"
        );
        assert_eq!(
            err("file=a.epd,start=0"),
            "openings: start=\"0\" is not valid, expected a whole number, at least 1"
        );
        assert_eq!(
            err("file=a.pgn,plies=-2"),
            "openings: plies=\"-2\" is not valid, expected a whole number, at least 1"
        );
        assert_eq!(err("file=,order=random"), "openings: file=\"\" is not valid, expected a path");
        assert_eq!(err("file=a.epd,file=b.epd"), "openings: key `file` given twice");
    }

    #[test]
    fn start_rotates_the_playing_order() {
        assert_eq!(opening_order_from(4, OpeningOrder::Sequential, 5, 1), vec![0, 1, 2, 3]);
        assert_eq!(opening_order_from(4, OpeningOrder::Sequential, 5, 4), vec![3, 0, 1, 2]);
        assert_eq!(opening_order_from(4, OpeningOrder::Sequential, 5, 0), vec![0, 1, 2, 3]);
        let shuffled = opening_order(30, OpeningOrder::Random, 3);
        let from = opening_order_from(30, OpeningOrder::Random, 3, 11);
        assert_eq!(from[..20], shuffled[10..]);
        assert_eq!(from[20..], shuffled[..10]);
        assert!(opening_order_from(0, OpeningOrder::Random, 3, 2).is_empty());
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
