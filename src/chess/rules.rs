//! Chess as a [`crate::game::Game`]: FEN, UCI move text, SAN PGN, the end rules of [`super::ChessGame`], and
//! [`can_mate`] (who may still win when a flag falls).

use super::pgn::read_games_variant;
use super::{ChessGame, Color, Move, MoveList, PieceType, Position, Termination, Undo};
use crate::chess::fen::FenError;
use crate::chess::san::MoveTextError;
use crate::game::opening::{Opening, OpeningError, OpeningFormat};
use crate::game::{GameResult, ReplayError, ReplayedGame, RuleEnd, RulesOutcome};
use crate::notation::epd::parse_epd_text_with;
use std::path::Path;

impl From<Termination> for RuleEnd {
    fn from(termination: Termination) -> RuleEnd {
        match termination {
            Termination::Checkmate => RuleEnd::Checkmate,
            Termination::Stalemate => RuleEnd::Stalemate,
            Termination::ThreefoldRepetition => RuleEnd::ThreefoldRepetition,
            Termination::FiftyMoveRule => RuleEnd::FiftyMoveRule,
            Termination::InsufficientMaterial => RuleEnd::InsufficientMaterial,
        }
    }
}

/// Whether `color` could still mate in `pos` by some sequence of legal moves, as far as material tells: a pawn,
/// rook or queen, or two minor pieces, or one minor piece when the opponent has more than its king (which may
/// block its own king). A bare king, or a lone minor piece against a bare king, cannot (FIDE Laws 6.9: a side
/// whose flag falls then draws).
pub fn can_mate(pos: &Position, color: Color) -> bool {
    let heavy = [PieceType::Pawn, PieceType::Rook, PieceType::Queen];
    if heavy.iter().any(|&kind| !pos.pieces_of(color, kind).is_empty()) {
        return true;
    }
    let minors = (pos.pieces_of(color, PieceType::Knight) | pos.pieces_of(color, PieceType::Bishop)).count();
    let opponent_bare = pos.color_bb(color.flip()).count() == 1;
    minors >= 2 || (minors == 1 && !opponent_bare)
}

impl crate::game::Rules for ChessGame {
    type Move = Move;
    type Position = Position;
    type Undo = Undo;
    type Moves = MoveList;
    type FenError = FenError;
    type MoveError = MoveTextError;
    const NAME: &'static str = "chess";
    const START_FEN: &'static str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    fn read_fen(fen: &str, chess960: bool) -> Result<Position, FenError> {
        Position::from_fen_variant(fen, chess960)
    }
    fn position_fen(position: &Position) -> String {
        position.to_fen()
    }
    #[inline]
    fn key(position: &Position) -> u64 {
        position.key()
    }
    #[inline]
    fn generate(position: &Position) -> MoveList {
        position.legal_moves()
    }
    #[inline]
    fn make_move(position: &mut Position, m: Move) -> Undo {
        position.make_move(m)
    }
    #[inline]
    fn unmake_move(position: &mut Position, m: Move, undo: &Undo) {
        position.unmake_move(m, undo)
    }
    #[inline]
    fn count_moves(position: &mut Position) -> u64 {
        position.count_legal_moves()
    }
    fn move_text_at(position: &Position, m: Move) -> String {
        m.to_uci(position.is_chess960())
    }
    fn parse_move_at(position: &Position, text: &str) -> Result<Move, MoveTextError> {
        crate::chess::san::parse_uci(position, text)
    }
}

/// The piece sets of `pos` for a tablebase probe ([`crate::game::Game::piece_sets`]).
pub fn piece_sets(pos: &Position) -> crate::game::PieceSets {
    let kind = |k: PieceType| pos.pieces_kind(k).0;
    crate::game::PieceSets {
        white: pos.color_bb(Color::White).0,
        black: pos.color_bb(Color::Black).0,
        kinds: [
            kind(PieceType::King),
            kind(PieceType::Queen),
            kind(PieceType::Rook),
            kind(PieceType::Bishop),
            kind(PieceType::Knight),
            kind(PieceType::Pawn),
        ],
        ep: pos.ep_square().map(|sq| sq.index() as u8),
        white_to_move: pos.side_to_move() == Color::White,
        halfmove_clock: u32::from(pos.halfmove_clock()),
        castling: pos.castling_rights() != 0,
    }
}

impl crate::game::Game for ChessGame {
    const PGN_VARIANT: Option<&'static str> = None;
    const UCI_VARIANT: Option<&'static str> = None;

    fn new_game(start: Position) -> Self {
        ChessGame::new(start)
    }
    fn start_position(&self) -> &Position {
        self.start()
    }
    fn position(&self) -> &Position {
        ChessGame::position(self)
    }
    fn mover(&self) -> Color {
        self.position().side_to_move()
    }
    fn play(&mut self, m: Move) -> bool {
        ChessGame::play(self, m)
    }
    fn plies(&self) -> usize {
        ChessGame::moves(self).len()
    }
    fn halfmove_clock(&self) -> u32 {
        u32::from(self.position().halfmove_clock())
    }
    fn moves(&self) -> Vec<Move> {
        ChessGame::moves(self).to_vec()
    }
    fn outcome(&self) -> Option<RulesOutcome> {
        ChessGame::outcome(self).map(|o| RulesOutcome { result: o.result, termination: o.termination.into() })
    }
    fn can_win(&self, color: Color) -> bool {
        can_mate(self.position(), color)
    }
    fn starts_from_startpos(&self) -> bool {
        let start = self.start();
        !start.is_chess960() && *start == Position::startpos()
    }
    fn engine_moves(&self) -> Vec<String> {
        let chess960 = self.start().is_chess960();
        ChessGame::moves(self).iter().map(|m| m.to_uci(chess960)).collect()
    }
    fn is_chess960(&self) -> bool {
        self.position().is_chess960()
    }
    fn san_text(&self, m: Move) -> String {
        super::to_san(self.position(), m)
    }
    fn parse_san_text(&self, text: &str) -> Option<Move> {
        super::parse_san(self.position(), text).ok()
    }
    fn piece_sets(&self) -> Option<crate::game::PieceSets> {
        Some(super::piece_sets(self.position()))
    }
    fn polyglot_key(&self) -> Option<u64> {
        Some(super::polyglot::key(self.position()))
    }
    fn polyglot_move(&self, raw: u16) -> Option<Move> {
        super::polyglot::decode_move(self.position(), raw)
    }
    fn pgn_text(
        tags: &[(String, String)],
        start: &Position,
        moves: &[Move],
        comments: Option<&[String]>,
        result: &str,
    ) -> String {
        super::pgn::write_game(tags, start, moves, comments, result)
    }
    fn read_openings(
        path: &Path,
        text: &str,
        format: OpeningFormat,
        chess960: bool,
    ) -> Result<Vec<Opening<Self>>, OpeningError> {
        read_chess_openings(path, text, format, chess960)
    }
    fn book_openings(
        path: &Path,
        bytes: &[u8],
        depth: usize,
        seed: u64,
        count: usize,
    ) -> Result<Vec<Opening<Self>>, OpeningError> {
        polyglot_openings(path, bytes, depth, seed, count)
    }
    fn replay_pgn(text: &str, file: &str, first_line: usize) -> Result<Vec<ReplayedGame>, ReplayError> {
        let games = super::pgn::read_games_at(text, file, first_line, false)?;
        Ok(games
            .into_iter()
            .map(|g| ReplayedGame {
                plies: g.moves.len(),
                result: GameResult::from_pgn(&g.result),
                line: g.line,
                tags: g.tags,
            })
            .collect())
    }
}

/// The chess reader of [`Game::read_openings`]: EPD through [`parse_epd_text`], PGN through
/// [`read_games_variant`], Chess960 castling fields when `chess960`.
fn read_chess_openings(
    path: &Path,
    text: &str,
    format: OpeningFormat,
    chess960: bool,
) -> Result<Vec<Opening<ChessGame>>, OpeningError> {
    let file = path.display().to_string();
    Ok(match format {
        OpeningFormat::Epd => {
            // Each FEN is read once: the EPD reader's check keeps the position it read, in line order (the
            // first error ends the read), instead of the FEN being parsed again to play it.
            let positions = std::cell::RefCell::new(Vec::new());
            let keep = |fen: &str| {
                positions.borrow_mut().push(Position::from_fen_variant(fen, chess960)?);
                Ok::<(), FenError>(())
            };
            let epds = parse_epd_text_with(text, &file, &keep)?;
            epds.into_iter()
                .zip(positions.into_inner())
                .map(|(epd, start)| Opening { start, moves: Vec::new(), line: epd.line })
                .collect()
        }
        OpeningFormat::Pgn => read_games_variant(text, &file, chess960)?
            .into_iter()
            .map(|game| Opening { start: game.start, moves: game.moves, line: game.line })
            .collect(),
        OpeningFormat::Polyglot => {
            return Err(OpeningError::Book { file, reason: "a Polyglot book is not a text file".to_string() });
        }
    })
}

/// The chess [`Game::book_openings`]: `count` lines of [`super::polyglot::book_line`] from the start position.
fn polyglot_openings(
    path: &Path,
    bytes: &[u8],
    depth: usize,
    seed: u64,
    count: usize,
) -> Result<Vec<Opening<ChessGame>>, OpeningError> {
    use super::polyglot::{Book, book_line};
    let file = path.display().to_string();
    let book = Book::from_bytes(bytes).map_err(|e| OpeningError::Book { file: file.clone(), reason: e.to_string() })?;
    let start = Position::startpos();
    (0..count)
        .map(|line| {
            let moves = book_line(&book, &start, depth, seed, line as u64)
                .map_err(|e| OpeningError::Book { file: file.clone(), reason: e.to_string() })?;
            Ok(Opening { start: start.clone(), moves, line: 0 })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn can_mate_by_material() {
        let pos = |fen: &str| Position::from_fen(fen).unwrap();
        assert!(!can_mate(&pos("8/8/8/4k3/8/8/8/4K3 w - - 0 1"), Color::White));
        assert!(!can_mate(&pos("8/8/8/4k3/8/8/8/3NK3 b - - 0 1"), Color::White));
        assert!(can_mate(&pos("8/8/8/4k3/4p3/8/8/3NK3 b - - 0 1"), Color::White));
        assert!(can_mate(&pos("8/8/8/4k3/8/8/8/2NNK3 b - - 0 1"), Color::White));
        assert!(can_mate(&pos("8/8/8/4k3/8/8/4P3/4K3 b - - 0 1"), Color::White));
        assert!(!can_mate(&pos("8/8/8/4k3/8/8/4P3/4K3 b - - 0 1"), Color::Black));
    }
}
