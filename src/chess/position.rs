//! The position: 12 piece bitboards, colour and occupancy boards, a mailbox, state, Zobrist key; make/unmake.

use super::attacks;
use super::bitboard::Bitboard;
use super::moves::{Move, MoveKind};
use super::types::{Color, Piece, PieceType, Square};
use super::zobrist;
use thiserror::Error;

/// Castling rights as a 4-bit mask: bit 0 White h-side (`K`), bit 1 White a-side (`Q`), bit 2 Black h-side
/// (`k`), bit 3 Black a-side (`q`).
pub type CastlingRights = u8;

/// The castling-right bit of `color` on the h-side (`king_side`) or the a-side.
#[inline]
pub const fn castling_bit(color: Color, king_side: bool) -> u8 {
    1 << (color as u8 * 2 + if king_side { 0 } else { 1 })
}

/// What is wrong with a set-up position (a FEN's board and state that no legal game can reach or that the move
/// generator cannot handle).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SetupError {
    /// A side does not have exactly one king.
    #[error("{color:?} has {count} kings, expected exactly one")]
    KingCount {
        /// The side.
        color: Color,
        /// How many kings it has.
        count: u32,
    },
    /// A pawn stands on the first or last rank.
    #[error("pawn on {square}, a first or last rank square")]
    PawnOnBackRank {
        /// The square.
        square: Square,
    },
    /// A side has more pieces than a game can produce: over 16 in all, over 8 pawns, or more promoted pieces
    /// than missing pawns.
    #[error("{color:?} has too many pieces: {reason}")]
    TooManyPieces {
        /// The side.
        color: Color,
        /// Which count is impossible.
        reason: String,
    },
    /// The side that has just moved is in check.
    #[error("the side not to move is in check")]
    OppositeCheck,
    /// The side to move is in a check that no move of the other side can have given: three or more checkers,
    /// a double check no single move gives (two knights, say), or a check the claimed en-passant double step
    /// cannot have given (see `chess::retro`).
    #[error("impossible check: {reason}")]
    ImpossibleCheck {
        /// Which checkers, and why no move gives them.
        reason: String,
    },
    /// A castling right without its king on the back rank or without its rook (in standard chess: king on
    /// the e-file, rook in the corner).
    #[error(
        "castling right {right} needs the king on its start square and a rook on {rook} (Chess960 positions, and \
         Shredder-FEN file letters for inner rooks, need Chess960 mode)"
    )]
    BadCastling {
        /// The right as a FEN letter.
        right: char,
        /// The square the rook should stand on.
        rook: Square,
    },
    /// The en-passant square is not on the sixth rank (from the side to move) or no pawn could have just
    /// made the double step past it.
    #[error("en-passant square {square} is impossible: {reason}")]
    BadEnPassant {
        /// The square.
        square: Square,
        /// Why.
        reason: &'static str,
    },
}

/// The parts of a position before validation: what a FEN spells out.
#[derive(Clone, Debug)]
pub struct Setup {
    /// Piece on each square, a1 first.
    pub board: [Option<Piece>; 64],
    /// Side to move.
    pub side: Color,
    /// Rook squares of the castling rights, per right bit (see [`castling_bit`]); `None` for no right.
    pub castle_rooks: [Option<Square>; 4],
    /// En-passant target square, as given.
    pub ep: Option<Square>,
    /// Plies since the last capture or pawn move.
    pub halfmove: u16,
    /// Full-move number, starting at 1.
    pub fullmove: u16,
    /// Whether castling moves are written in Chess960 form (king takes rook).
    pub chess960: bool,
}

/// What [`Position::make_move`] saves so that [`Position::unmake_move`] can restore the position exactly.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    captured: Option<Piece>,
    castling: CastlingRights,
    ep: Option<Square>,
    halfmove: u16,
    key: u64,
}

/// A chess position with everything needed to generate moves and detect draws other than repetition.
///
/// Holds the 12 piece bitboards (index [`Piece::index`]), two colour boards, the occupancy, a mailbox,
/// the side to move, castling rights with their rook squares (so Chess960 works too), the en-passant square
/// (kept only when a legal en-passant capture exists, so it is part of the key exactly then), the halfmove
/// clock, the full-move number and the Zobrist key. Checkers are computed on demand ([`Position::checkers`]),
/// so that make/unmake stay cheap at the leaves of a tree.
#[derive(Clone, Debug)]
pub struct Position {
    pieces: [Bitboard; 12],
    colors: [Bitboard; 2],
    occupied: Bitboard,
    board: [Option<Piece>; 64],
    side: Color,
    castling: CastlingRights,
    castle_rooks: [Square; 4],
    castle_mask: [u8; 64],
    ep: Option<Square>,
    halfmove: u16,
    fullmove: u16,
    key: u64,
    chess960: bool,
}

crate::cpu::versions! {
    fn make_v3, make_generic (pos: &mut Position, m: Move) -> Undo { pos.make_move_inline(m) }
    fn unmake_v3, unmake_generic (pos: &mut Position, m: Move, undo: &Undo) -> () { pos.unmake_move_inline(m, undo) }
    fn attackers_v3, attackers_generic (pos: &Position, sq: Square, occ: Bitboard) -> Bitboard {
        pos.attackers_to_inline(sq, occ)
    }
    fn pinned_v3, pinned_generic (pos: &Position, color: Color) -> Bitboard { pos.pinned_inline(color) }
}

/// Two positions are equal when everything that matters for play is: the pieces, side to move, castling rights
/// with the rook squares of the rights still held, en-passant square, clocks, key and notation mode. Rook
/// squares of rights lost earlier in the game are ignored.
impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        let held_rooks_equal = (0..4)
            .filter(|bit| self.castling & (1 << bit) != 0)
            .all(|bit| self.castle_rooks[bit] == other.castle_rooks[bit]);
        self.board == other.board
            && self.pieces == other.pieces
            && self.side == other.side
            && self.castling == other.castling
            && held_rooks_equal
            && self.ep == other.ep
            && self.halfmove == other.halfmove
            && self.fullmove == other.fullmove
            && self.key == other.key
            && self.chess960 == other.chess960
    }
}

impl Eq for Position {}

impl Position {
    /// The standard start position.
    pub fn startpos() -> Position {
        let mut board = [None; 64];
        let back = [
            PieceType::Rook,
            PieceType::Knight,
            PieceType::Bishop,
            PieceType::Queen,
            PieceType::King,
            PieceType::Bishop,
            PieceType::Knight,
            PieceType::Rook,
        ];
        for f in 0..8u8 {
            board[f as usize] = Some(Piece::new(Color::White, back[f as usize]));
            board[8 + f as usize] = Some(Piece::new(Color::White, PieceType::Pawn));
            board[48 + f as usize] = Some(Piece::new(Color::Black, PieceType::Pawn));
            board[56 + f as usize] = Some(Piece::new(Color::Black, back[f as usize]));
        }
        let setup = Setup {
            board,
            side: Color::White,
            castle_rooks: [Some(Square::new(7)), Some(Square::new(0)), Some(Square::new(63)), Some(Square::new(56))],
            ep: None,
            halfmove: 0,
            fullmove: 1,
            chess960: false,
        };
        Position::from_setup(&setup).expect("the start position is legal")
    }

    /// Builds and validates a position.
    ///
    /// # Errors
    /// [`SetupError`] when a side has not exactly one king, a pawn stands on rank 1 or 8, the side not to move
    /// is in check, the side to move is in a check no move can have given, a castling right lacks its king or rook, or the en-passant square is impossible. An
    /// en-passant square that is possible but allows no legal capture is accepted and dropped.
    pub fn from_setup(setup: &Setup) -> Result<Position, SetupError> {
        let mut pos = Position {
            pieces: [Bitboard::EMPTY; 12],
            colors: [Bitboard::EMPTY; 2],
            occupied: Bitboard::EMPTY,
            board: [None; 64],
            side: setup.side,
            castling: 0,
            castle_rooks: [Square::new(0); 4],
            castle_mask: [0; 64],
            ep: None,
            halfmove: setup.halfmove,
            fullmove: setup.fullmove.max(1),
            key: 0,
            chess960: setup.chess960,
        };
        for sq in Square::all() {
            if let Some(p) = setup.board[sq.index()] {
                if p.kind == PieceType::Pawn && (sq.rank() == 0 || sq.rank() == 7) {
                    return Err(SetupError::PawnOnBackRank { square: sq });
                }
                pos.put(p, sq);
            }
        }
        for color in Color::ALL {
            let count = pos.pieces_of(color, PieceType::King).count();
            if count != 1 {
                return Err(SetupError::KingCount { color, count });
            }
        }
        for (bit, rook) in setup.castle_rooks.iter().enumerate() {
            let Some(rook) = *rook else { continue };
            let color = if bit < 2 { Color::White } else { Color::Black };
            let king = pos.king_square(color);
            let back = if color == Color::White { 0 } else { 7 };
            let king_side = bit % 2 == 0;
            let right = ['K', 'Q', 'k', 'q'][bit];
            let ok = king.rank() == back
                && rook.rank() == back
                && pos.piece_on(rook) == Some(Piece::new(color, PieceType::Rook))
                && (rook > king) == king_side
                && (setup.chess960 || (king.file() == 4 && rook.file() == if king_side { 7 } else { 0 }));
            if !ok {
                // Outside Chess960 the rook belongs in the corner, whichever rook the FEN's letter found.
                let corner = Square::from_file_rank(if king_side { 7 } else { 0 }, back);
                return Err(SetupError::BadCastling { right, rook: if setup.chess960 { rook } else { corner } });
            }
            pos.castling |= 1 << bit;
            pos.castle_rooks[bit] = rook;
            pos.castle_mask[rook.index()] |= 1 << bit;
            pos.castle_mask[king.index()] |= 1 << bit;
        }
        for color in Color::ALL {
            let count = |k| pos.pieces_of(color, k).count();
            let pawns = count(PieceType::Pawn);
            let extra = count(PieceType::Knight).saturating_sub(2)
                + count(PieceType::Bishop).saturating_sub(2)
                + count(PieceType::Rook).saturating_sub(2)
                + count(PieceType::Queen).saturating_sub(1);
            let reason = if pos.color_bb(color).count() > 16 {
                format!("{} pieces, at most 16", pos.color_bb(color).count())
            } else if pawns > 8 {
                format!("{pawns} pawns, at most 8")
            } else if pawns + extra > 8 {
                format!("{extra} promoted pieces with {pawns} pawns still on the board")
            } else {
                continue;
            };
            return Err(SetupError::TooManyPieces { color, reason });
        }
        let them = pos.side.flip();
        if pos.attacked_by(pos.side, pos.king_square(them), pos.occupied) {
            return Err(SetupError::OppositeCheck);
        }
        if let Some(ep) = setup.ep {
            if ep.relative_rank(pos.side) != 5 {
                let reason = match pos.side {
                    Color::White => "with White to move it must be on rank 6",
                    Color::Black => "with Black to move it must be on rank 3",
                };
                return Err(SetupError::BadEnPassant { square: ep, reason });
            }
            let forward: i8 = if pos.side == Color::White { 8 } else { -8 };
            let pawn_sq = ep.offset(-forward);
            if pos.piece_on(pawn_sq) != Some(Piece::new(them, PieceType::Pawn)) {
                return Err(SetupError::BadEnPassant {
                    square: ep,
                    reason: "no pawn in front of it that could have just made a double step",
                });
            }
            if pos.occupied.has(ep) || pos.occupied.has(ep.offset(forward)) {
                return Err(SetupError::BadEnPassant {
                    square: ep,
                    reason: "the square it passed or started from is occupied",
                });
            }
        }
        if let Some(reason) = super::retro::impossible_check(&pos, setup.ep) {
            return Err(SetupError::ImpossibleCheck { reason });
        }
        if let Some(ep) = setup.ep
            && pos.ep_capture_legal(ep)
        {
            pos.ep = Some(ep);
        }
        pos.key = pos.compute_key();
        Ok(pos)
    }

    // ---- accessors ----

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The bitboard of one coloured piece.
    #[inline]
    pub fn pieces(&self, piece: Piece) -> Bitboard {
        self.pieces[piece.index()]
    }

    /// The bitboard of `color`'s pieces of kind `kind`.
    #[inline]
    pub fn pieces_of(&self, color: Color, kind: PieceType) -> Bitboard {
        self.pieces[color.index() * 6 + kind.index()]
    }

    /// Both colours' pieces of kind `kind`.
    #[inline]
    pub fn pieces_kind(&self, kind: PieceType) -> Bitboard {
        self.pieces[kind.index()] | self.pieces[6 + kind.index()]
    }

    /// All squares occupied by `color`.
    #[inline]
    pub fn color_bb(&self, color: Color) -> Bitboard {
        self.colors[color.index()]
    }

    /// All occupied squares.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.occupied
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_on(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// The square of `color`'s king.
    #[inline]
    pub fn king_square(&self, color: Color) -> Square {
        self.pieces_of(color, PieceType::King).lsb().expect("each side has exactly one king")
    }

    /// The castling rights mask (see [`CastlingRights`]).
    #[inline]
    pub fn castling_rights(&self) -> CastlingRights {
        self.castling
    }

    /// The rook square of a castling right bit (meaningful only while the right is held).
    #[inline]
    pub fn castling_rook(&self, bit: usize) -> Square {
        self.castle_rooks[bit]
    }

    /// The en-passant square, present only when a legal en-passant capture exists.
    #[inline]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep
    }

    /// Plies since the last capture or pawn move (for the 50-move rule).
    #[inline]
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }

    /// The full-move number (starts at 1, incremented after Black moves).
    #[inline]
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove
    }

    /// Sets the clocks (used by openings that carry `hmvc`/`fmvn`).
    pub fn set_clocks(&mut self, halfmove: u16, fullmove: u16) {
        self.halfmove = halfmove;
        self.fullmove = fullmove.max(1);
    }

    /// The Zobrist key, updated incrementally.
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Pieces of the opponent giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.attackers_to(self.king_square(self.side), self.occupied) & self.colors[self.side.flip().index()]
    }

    /// True when the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.attacked_by(self.side.flip(), self.king_square(self.side), self.occupied)
    }

    /// True when castling is written in Chess960 notation.
    #[inline]
    pub fn is_chess960(&self) -> bool {
        self.chess960
    }

    /// Switches Chess960 notation on or off (rules are the same; only move text differs).
    pub fn set_chess960(&mut self, on: bool) {
        self.chess960 = on;
    }

    // ---- attacks ----

    /// All pieces of both colours that attack `sq`, with the occupancy `occ` used for sliders.
    #[inline]
    pub fn attackers_to(&self, sq: Square, occ: Bitboard) -> Bitboard {
        crate::cpu::dispatch!(attackers_v3, attackers_generic, (self, sq, occ))
    }

    #[inline(always)]
    fn attackers_to_inline(&self, sq: Square, occ: Bitboard) -> Bitboard {
        (attacks::pawn(Color::White, sq) & self.pieces_of(Color::Black, PieceType::Pawn))
            | (attacks::pawn(Color::Black, sq) & self.pieces_of(Color::White, PieceType::Pawn))
            | (attacks::knight(sq) & self.pieces_kind(PieceType::Knight))
            | (attacks::king(sq) & self.pieces_kind(PieceType::King))
            | (attacks::rook(sq, occ) & (self.pieces_kind(PieceType::Rook) | self.pieces_kind(PieceType::Queen)))
            | (attacks::bishop(sq, occ) & (self.pieces_kind(PieceType::Bishop) | self.pieces_kind(PieceType::Queen)))
    }

    /// True when `by` attacks `sq` with occupancy `occ`.
    #[inline(always)]
    pub fn attacked_by(&self, by: Color, sq: Square, occ: Bitboard) -> bool {
        let them = |k| self.pieces_of(by, k);
        let queens = them(PieceType::Queen);
        !(attacks::pawn(by.flip(), sq) & them(PieceType::Pawn)).is_empty()
            || !(attacks::knight(sq) & them(PieceType::Knight)).is_empty()
            || !(attacks::king(sq) & them(PieceType::King)).is_empty()
            || !(attacks::rook(sq, occ) & (them(PieceType::Rook) | queens)).is_empty()
            || !(attacks::bishop(sq, occ) & (them(PieceType::Bishop) | queens)).is_empty()
    }

    /// Pieces of `color` pinned to their own king by an enemy slider.
    pub fn pinned(&self, color: Color) -> Bitboard {
        crate::cpu::dispatch!(pinned_v3, pinned_generic, (self, color))
    }

    #[inline(always)]
    pub(crate) fn pinned_inline(&self, color: Color) -> Bitboard {
        let king = self.king_square(color);
        let them = color.flip();
        let queens = self.pieces_of(them, PieceType::Queen);
        let snipers = (attacks::rook(king, Bitboard::EMPTY) & (self.pieces_of(them, PieceType::Rook) | queens))
            | (attacks::bishop(king, Bitboard::EMPTY) & (self.pieces_of(them, PieceType::Bishop) | queens));
        let mut pinned = Bitboard::EMPTY;
        for s in snipers {
            let b = attacks::between(king, s) & self.occupied;
            if b.count() == 1 && !(b & self.colors[color.index()]).is_empty() {
                pinned |= b;
            }
        }
        pinned
    }

    /// True when the side to move can legally capture en passant on `ep` (pawns on the right squares assumed
    /// by the caller's setup; checks that our king is safe after the capture, including a rank pin).
    fn ep_capture_legal(&self, ep: Square) -> bool {
        let us = self.side;
        let them = us.flip();
        let captured = ep.offset(if us == Color::White { -8 } else { 8 });
        let king = self.king_square(us);
        for from in attacks::pawn(them, ep) & self.pieces_of(us, PieceType::Pawn) {
            let occ = (self.occupied.without(from).without(captured)).with(ep);
            let their = self.colors[them.index()].without(captured);
            let attackers = self.attackers_to(king, occ) & their;
            if attackers.is_empty() {
                return true;
            }
        }
        false
    }

    // ---- piece placement with key updates ----

    #[inline]
    fn put(&mut self, p: Piece, sq: Square) {
        let b = Bitboard::from_square(sq);
        self.pieces[p.index()] |= b;
        self.colors[p.color.index()] |= b;
        self.occupied |= b;
        self.board[sq.index()] = Some(p);
        self.key ^= zobrist::piece(p, sq);
    }

    #[inline]
    fn remove(&mut self, p: Piece, sq: Square) {
        let b = Bitboard::from_square(sq);
        self.pieces[p.index()] ^= b;
        self.colors[p.color.index()] ^= b;
        self.occupied ^= b;
        self.board[sq.index()] = None;
        self.key ^= zobrist::piece(p, sq);
    }

    /// Moves a piece on the boards only (no key update): for unmake, which restores the key from the undo record.
    #[inline]
    fn move_raw(&mut self, p: Piece, from: Square, to: Square) {
        let b = Bitboard::from_square(from) | Bitboard::from_square(to);
        self.pieces[p.index()] ^= b;
        self.colors[p.color.index()] ^= b;
        self.occupied ^= b;
        self.board[from.index()] = None;
        self.board[to.index()] = Some(p);
    }

    /// Places or removes a piece on the boards only (no key update); `present` says which.
    #[inline]
    fn toggle_raw(&mut self, p: Piece, sq: Square, present: bool) {
        let b = Bitboard::from_square(sq);
        self.pieces[p.index()] ^= b;
        self.colors[p.color.index()] ^= b;
        self.occupied ^= b;
        self.board[sq.index()] = if present { Some(p) } else { None };
    }

    /// Recomputes the Zobrist key from scratch (the slow reference for the incremental key).
    pub fn compute_key(&self) -> u64 {
        let mut key = 0;
        for sq in Square::all() {
            if let Some(p) = self.board[sq.index()] {
                key ^= zobrist::piece(p, sq);
            }
        }
        if self.side == Color::Black {
            key ^= zobrist::side();
        }
        key ^= zobrist::castling(self.castling);
        if let Some(ep) = self.ep {
            key ^= zobrist::en_passant(ep.file());
        }
        key
    }

    /// Recomputes boards, occupancy and key from the mailbox and compares them with the
    /// incrementally kept ones; also checks that an en-passant square is kept only when its capture is legal.
    pub fn is_consistent(&self) -> bool {
        let mut pieces = [Bitboard::EMPTY; 12];
        for sq in Square::all() {
            if let Some(p) = self.board[sq.index()] {
                pieces[p.index()] = pieces[p.index()].with(sq);
            }
        }
        let white = pieces[..6].iter().fold(Bitboard::EMPTY, |a, &b| a | b);
        let black = pieces[6..].iter().fold(Bitboard::EMPTY, |a, &b| a | b);
        pieces == self.pieces
            && white == self.colors[0]
            && black == self.colors[1]
            && (white | black) == self.occupied
            && self.key == self.compute_key()
            && self.ep.is_none_or(|ep| self.ep_capture_legal(ep))
    }

    // ---- make / unmake ----

    /// Plays a legal move, returning what [`Position::unmake_move`] needs to undo it.
    ///
    /// Precondition: `m` is legal in this position (as generated by `legal_moves`); anything else leaves the
    /// position corrupt. Use `play` (which checks) for untrusted input.
    pub fn make_move(&mut self, m: Move) -> Undo {
        crate::cpu::dispatch!(make_v3, make_generic, (self, m))
    }

    /// [`Position::make_move`]'s body, inlined into each code path's copy ([`crate::cpu`]).
    #[inline(always)]
    fn make_move_inline(&mut self, m: Move) -> Undo {
        let us = self.side;
        let them = us.flip();
        let from = m.from();
        let to = m.to();
        let mover = self.board[from.index()].expect("make_move: a piece on the origin square");
        let undo =
            Undo { captured: None, castling: self.castling, ep: self.ep, halfmove: self.halfmove, key: self.key };
        let mut undo = undo;
        if let Some(ep) = self.ep {
            self.key ^= zobrist::en_passant(ep.file());
            self.ep = None;
        }
        self.halfmove += 1;
        match m.kind() {
            MoveKind::Castling => {
                let rook = Piece::new(us, PieceType::Rook);
                let (kto, rto) = castling_targets(from, to);
                self.remove(mover, from);
                self.remove(rook, to);
                self.put(mover, kto);
                self.put(rook, rto);
            }
            MoveKind::EnPassant => {
                let cap_sq = to.offset(if us == Color::White { -8 } else { 8 });
                let cap = Piece::new(them, PieceType::Pawn);
                self.remove(cap, cap_sq);
                self.remove(mover, from);
                self.put(mover, to);
                undo.captured = Some(cap);
                self.halfmove = 0;
            }
            MoveKind::Normal | MoveKind::Promotion => {
                if let Some(cap) = self.board[to.index()] {
                    self.remove(cap, to);
                    undo.captured = Some(cap);
                    self.halfmove = 0;
                }
                match m.promotion_piece() {
                    Some(p) => {
                        self.remove(mover, from);
                        self.put(Piece::new(us, p), to);
                    }
                    None => {
                        self.move_raw(mover, from, to);
                        self.key ^= zobrist::piece(mover, from) ^ zobrist::piece(mover, to);
                    }
                }
                if mover.kind == PieceType::Pawn {
                    self.halfmove = 0;
                }
            }
        }
        let lost = self.castle_mask[from.index()] | self.castle_mask[to.index()];
        if self.castling & lost != 0 {
            self.key ^= zobrist::castling(self.castling);
            self.castling &= !lost;
            self.key ^= zobrist::castling(self.castling);
        }
        self.side = them;
        self.key ^= zobrist::side();
        if us == Color::Black {
            self.fullmove += 1;
        }
        if mover.kind == PieceType::Pawn && from.index().abs_diff(to.index()) == 16 {
            let ep = Square::new(((from.index() + to.index()) / 2) as u8);
            if !(attacks::pawn(us, ep) & self.pieces_of(them, PieceType::Pawn)).is_empty() && self.ep_capture_legal(ep)
            {
                self.ep = Some(ep);
                self.key ^= zobrist::en_passant(ep.file());
            }
        }
        undo
    }

    /// Takes back `m`, which must be the last move made, with the [`Undo`] that `make_move` returned.
    pub fn unmake_move(&mut self, m: Move, undo: &Undo) {
        crate::cpu::dispatch!(unmake_v3, unmake_generic, (self, m, undo))
    }

    /// [`Position::unmake_move`]'s body, inlined into each code path's copy ([`crate::cpu`]).
    #[inline(always)]
    fn unmake_move_inline(&mut self, m: Move, undo: &Undo) {
        let them = self.side;
        let us = them.flip();
        let from = m.from();
        let to = m.to();
        if us == Color::Black {
            self.fullmove -= 1;
        }
        self.side = us;
        match m.kind() {
            MoveKind::Castling => {
                let rook = Piece::new(us, PieceType::Rook);
                let king = Piece::new(us, PieceType::King);
                let (kto, rto) = castling_targets(from, to);
                self.toggle_raw(king, kto, false);
                self.toggle_raw(rook, rto, false);
                self.toggle_raw(king, from, true);
                self.toggle_raw(rook, to, true);
            }
            MoveKind::EnPassant => {
                self.move_raw(Piece::new(us, PieceType::Pawn), to, from);
                let cap_sq = to.offset(if us == Color::White { -8 } else { 8 });
                self.toggle_raw(Piece::new(them, PieceType::Pawn), cap_sq, true);
            }
            MoveKind::Normal => {
                let mover = self.board[to.index()].expect("unmake_move: the moved piece on its target");
                self.move_raw(mover, to, from);
                if let Some(cap) = undo.captured {
                    self.toggle_raw(cap, to, true);
                }
            }
            MoveKind::Promotion => {
                let placed = self.board[to.index()].expect("unmake_move: the promoted piece on its target");
                self.toggle_raw(placed, to, false);
                self.toggle_raw(Piece::new(us, PieceType::Pawn), from, true);
                if let Some(cap) = undo.captured {
                    self.toggle_raw(cap, to, true);
                }
            }
        }
        self.castling = undo.castling;
        self.ep = undo.ep;
        self.halfmove = undo.halfmove;
        self.key = undo.key;
    }

    /// Passes the move to the opponent (for null-move pruning); not legal in check.
    pub fn make_null(&mut self) -> Undo {
        let undo =
            Undo { captured: None, castling: self.castling, ep: self.ep, halfmove: self.halfmove, key: self.key };
        if let Some(ep) = self.ep.take() {
            self.key ^= zobrist::en_passant(ep.file());
        }
        self.side = self.side.flip();
        self.key ^= zobrist::side();
        self.halfmove += 1;
        undo
    }

    /// Takes back [`Position::make_null`].
    pub fn unmake_null(&mut self, undo: &Undo) {
        self.side = self.side.flip();
        self.ep = undo.ep;
        self.halfmove = undo.halfmove;
        self.key = undo.key;
    }

    /// The piece a move captures (the pawn for en passant; none for castling).
    #[inline]
    pub fn captured_piece(&self, m: Move) -> Option<Piece> {
        match m.kind() {
            MoveKind::Castling => None,
            MoveKind::EnPassant => Some(Piece::new(self.side.flip(), PieceType::Pawn)),
            _ => self.board[m.to().index()],
        }
    }

    /// True when neither side can ever mate: K v K, K+minor v K, or only same-coloured bishops besides kings
    /// (FIDE 6.9 dead positions of the common kinds).
    pub fn is_insufficient_material(&self) -> bool {
        if !(self.pieces_kind(PieceType::Pawn) | self.pieces_kind(PieceType::Rook) | self.pieces_kind(PieceType::Queen))
            .is_empty()
        {
            return false;
        }
        let knights = self.pieces_kind(PieceType::Knight);
        let bishops = self.pieces_kind(PieceType::Bishop);
        if (knights | bishops).count() <= 1 {
            return true;
        }
        if knights.is_empty() {
            const DARK: u64 = 0xAA55_AA55_AA55_AA55;
            return bishops.0 & DARK == 0 || bishops.0 & !DARK == 0;
        }
        false
    }
}

/// Where king and rook end for castling with the king on `king` and the rook on `rook`: the king to the g- or
/// c-file, the rook to the f- or d-file.
#[inline]
pub fn castling_targets(king: Square, rook: Square) -> (Square, Square) {
    let r = king.rank();
    if rook > king {
        (Square::from_file_rank(6, r), Square::from_file_rank(5, r))
    } else {
        (Square::from_file_rank(2, r), Square::from_file_rank(3, r))
    }
}
