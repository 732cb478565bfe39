//! An engine's own Polyglot book (`book=FILE,bookdepth=N` of an engine spec; cutechess-cli's per-engine `book=`
//! and `bookdepth=`): while the game is shorter than `bookdepth` full moves and the book has a move for the
//! position, the engine's move is the book's, played without asking the engine and without running its clock,
//! as `ChessGame::bookMove` in cutechess-cli's `projects/lib/src/chessgame.cpp` does. The moves are drawn by
//! cutechess-cli's weighted choice ([`Book::choose`]) from a random number of the game, so a game replays the
//! same; a book move that is not legal, or that would repeat a position of the game, is left out (the engine
//! moves), as cutechess-cli does.

use crate::chess::polyglot::{Book, splitmix};
use crate::game::Game;
use std::fmt;
use std::path::{Path, PathBuf};

/// cutechess-cli's default `bookdepth`, in full moves (`bookDepth = 1000` in `projects/cli/src/main.cpp`).
pub const DEFAULT_BOOK_DEPTH_MOVES: usize = 1000;

/// A Polyglot book an engine plays from, read once.
#[derive(Clone)]
pub struct EngineBook {
    /// The book file (absolute).
    pub file: PathBuf,
    /// The most full moves of a game (counted from its start, the opening included) played from the book.
    pub depth_moves: usize,
    book: Book,
}

impl fmt::Debug for EngineBook {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "EngineBook({}, {} moves)", self.file.display(), self.depth_moves)
    }
}

/// Two books are the same when they are read from the same file to the same depth.
impl PartialEq for EngineBook {
    fn eq(&self, other: &EngineBook) -> bool {
        self.file == other.file && self.depth_moves == other.depth_moves
    }
}

impl Eq for EngineBook {}

impl EngineBook {
    /// Reads the book at `file`, played up to `depth_moves` full moves.
    ///
    /// # Errors
    /// The file, and why it cannot be read or is not a Polyglot book.
    pub fn open(file: &Path, depth_moves: usize) -> Result<EngineBook, String> {
        let shown = file.display();
        let bytes = std::fs::read(file).map_err(|e| format!("{shown}: cannot read: {e}"))?;
        let book = Book::from_bytes(&bytes).map_err(|e| format!("{shown}: not a Polyglot book: {e}"))?;
        Ok(EngineBook { file: file.to_path_buf(), depth_moves, book })
    }

    /// The book's move in `game`, drawn with `random` (the game's book seed); `None` past the book depth, for a
    /// position the book does not hold, a game without Polyglot books, or a book move that is not legal or
    /// would repeat a position of the game.
    pub fn move_for<G: Game>(&self, game: &G, random: u64) -> Option<G::Move> {
        if game.plies() >= self.depth_moves.saturating_mul(2) {
            return None;
        }
        let (_, entries) = self.book.find(game.polyglot_key()?);
        let raw: Vec<(u16, u16)> = entries.iter().map(|e| (e.raw_move, e.weight)).collect();
        let m = game.polyglot_move(Book::choose(&raw, splitmix(random ^ game.plies() as u64))?)?;
        let mut next = game.clone();
        next.play(m);
        (!repeats(&next)).then_some(m)
    }
}

/// Whether the position of `game` stood earlier in the game.
fn repeats<G: Game>(game: &G) -> bool {
    let now = G::key(game.position());
    let moves = game.moves();
    let mut position = game.start_position().clone();
    for &m in moves.iter().take(moves.len().saturating_sub(1)) {
        if G::key(&position) == now {
            return true;
        }
        G::make_move(&mut position, m);
    }
    !moves.is_empty() && G::key(&position) == now
}
