//! A game: a start position, the moves played and the key history, with the rules that end a game.

use super::moves::Move;
use super::position::Position;
#[cfg(test)]
use super::types::Square;

pub use crate::game::GameResult;

/// Why a game ended by the rules of chess.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// The side to move is checkmated.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// The same position (same key) occurred for the third time.
    ThreefoldRepetition,
    /// 100 plies without a capture or pawn move.
    FiftyMoveRule,
    /// Neither side can mate.
    InsufficientMaterial,
}

impl Termination {
    /// A short human-readable text, as used in PGN `Termination` tags and CSV output.
    pub fn text(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::ThreefoldRepetition => "threefold repetition",
            Termination::FiftyMoveRule => "fifty-move rule",
            Termination::InsufficientMaterial => "insufficient material",
        }
    }
}

/// A game ended by the rules: the result and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Who won.
    pub result: GameResult,
    /// Why.
    pub termination: Termination,
}

/// A game in progress: start position, current position, moves and the key of every position reached (for
/// threefold repetition over the whole game, book moves included).
#[derive(Clone, Debug)]
pub struct ChessGame {
    start: Position,
    pos: Position,
    moves: Vec<Move>,
    keys: Vec<u64>,
}

impl ChessGame {
    /// A new game from `start`.
    pub fn new(start: Position) -> ChessGame {
        let key = start.key();
        ChessGame { pos: start.clone(), start, moves: Vec::new(), keys: vec![key] }
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The keys of every position so far, the start first and the current last.
    pub fn keys(&self) -> &[u64] {
        &self.keys
    }

    /// Plays `m` if it is legal; returns false (and changes nothing) otherwise.
    pub fn play(&mut self, m: Move) -> bool {
        if !self.pos.is_legal(m) {
            return false;
        }
        self.pos.make_move(m);
        self.moves.push(m);
        self.keys.push(self.pos.key());
        true
    }

    /// How often the current position has occurred, counting the current one (only positions since the last
    /// capture or pawn move can repeat it).
    pub fn repetitions(&self) -> usize {
        let key = self.pos.key();
        let window = (self.pos.halfmove_clock() as usize + 1).min(self.keys.len());
        self.keys[self.keys.len() - window..].iter().filter(|&&k| k == key).count()
    }

    /// The outcome if the game is over by the rules: checkmate, stalemate, the fifty-move rule (100 plies from
    /// the FEN's halfmove clock on; a mate on the last ply takes precedence), threefold repetition or
    /// insufficient material; `None` while the game goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        let draw = |termination| Some(Outcome { result: GameResult::Draw, termination });
        if self.pos.legal_moves().is_empty() {
            return if self.pos.in_check() {
                Some(Outcome {
                    result: GameResult::win_for(self.pos.side_to_move().flip()),
                    termination: Termination::Checkmate,
                })
            } else {
                draw(Termination::Stalemate)
            };
        }
        if self.pos.halfmove_clock() >= 100 {
            return draw(Termination::FiftyMoveRule);
        }
        if self.repetitions() >= 3 {
            return draw(Termination::ThreefoldRepetition);
        }
        if self.pos.is_insufficient_material() {
            return draw(Termination::InsufficientMaterial);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game_after(fen: &str, uci: &[&str]) -> ChessGame {
        let mut g = ChessGame::new(Position::from_fen(fen).expect("test FEN"));
        for text in uci {
            let m = g.position().legal_moves().iter().copied().find(|m| m.to_uci(false) == *text).expect(text);
            assert!(g.play(m));
        }
        g
    }

    #[test]
    fn mate_and_stalemate() {
        let g = game_after("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", &["a1a8"]);
        assert_eq!(g.outcome(), Some(Outcome { result: GameResult::WhiteWins, termination: Termination::Checkmate }));
        let g = game_after("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", &[]);
        assert_eq!(g.outcome().map(|o| o.termination), Some(Termination::Stalemate));
    }

    #[test]
    fn threefold_counts_from_the_start_including_book_moves() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let cycle = ["g1f3", "g8f6", "f3g1", "f6g8"];
        let g = game_after(start, &cycle);
        assert_eq!(g.repetitions(), 2);
        assert_eq!(g.outcome(), None);
        let all: Vec<&str> = cycle.iter().chain(cycle.iter()).copied().collect();
        let g = game_after(start, &all);
        assert_eq!(g.outcome().map(|o| o.termination), Some(Termination::ThreefoldRepetition));
    }

    #[test]
    fn fifty_moves_from_the_fen_clock_and_mate_first() {
        let g = game_after("4k3/8/8/8/8/8/8/R3K3 w - - 99 80", &["a1a2"]);
        assert_eq!(g.outcome().map(|o| o.termination), Some(Termination::FiftyMoveRule));
        let g = game_after("6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80", &["a1a8"]);
        assert_eq!(g.outcome().map(|o| o.termination), Some(Termination::Checkmate));
    }

    #[test]
    fn insufficient_material() {
        for (fen, dead) in [
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", true),
            ("4k3/8/8/8/8/8/8/4KN2 w - - 0 1", true),
            ("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", false),
            ("4kb2/8/8/8/8/8/8/4KB2 w - - 0 1", false),
            ("4k1b1/8/8/8/8/8/8/4KB2 w - - 0 1", true),
            ("4k3/8/8/8/8/8/8/3NKN2 w - - 0 1", false),
            ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", false),
        ] {
            assert_eq!(Position::from_fen(fen).unwrap().is_insufficient_material(), dead, "{fen}");
        }
    }

    #[test]
    fn illegal_moves_are_refused() {
        let mut g = ChessGame::new(Position::startpos());
        let bad = Move::normal(Square::parse("e2").unwrap(), Square::parse("e5").unwrap());
        assert!(!g.play(bad));
        assert!(g.moves().is_empty());
    }
}
