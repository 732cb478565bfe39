//! The Xiangqi position: a mailbox, one 90-bit board per piece, the rank and file occupancy words, the
//! generals' squares and the Zobrist key, all kept incrementally by make/unmake; and the attack check.
//!
//! # Attack check
//!
//! [`Position::is_attacked`] decides whether a side attacks one of the 90 squares (could capture a piece of the
//! other side standing there), reading the same tables as move generation, from the square outward:
//!
//! - chariots: the first occupied point on the square's rank and file ([`RANK_MOVES`]/[`FILE_MOVES`]
//!   `chariot_captures` of the square's own lines);
//! - cannons: the point behind the first screen on those lines (`cannon_captures`);
//! - the flying general: when the square holds the other general, the first occupied point up or down its
//!   file being the attacking general (the two generals face each other on an open file);
//! - horses: for each diagonal neighbour of the square that is empty (the leg), the two horse squares behind it
//!   ([`HORSE_CHECKS`]);
//! - soldiers, advisors and the general's step: precomputed masks of the squares they attack from;
//! - elephants: the elephant points two diagonal steps away over an empty eye, on the elephants' side.
//!
//! [`Position::in_check`] is the same test on a general's square without the advisor, elephant and general-step
//! parts: advisors and elephants never leave their own side and a general never leaves its palace, so none of
//! them can reach the other general (the unit tests check the two agree on random positions).

use super::tables::{
    ADVISOR_ATTACKERS, ELEPHANT_MOVES, FILE_MOVES, GENERAL_ATTACKERS, HORSE_CHECKS, RANK_MOVES, SOLDIER_ATTACKERS,
    on_own_half,
};
use super::types::{Color, EMPTY, FILES, Move, Piece, PieceType, RANKS, SQUARES, Square};
use super::zobrist;

/// A Xiangqi position with make/unmake. Build one with [`Position::startpos`] or [`Position::from_fen`].
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Position {
    /// Piece code (`color * 8 + kind`) per square, [`EMPTY`] when empty.
    pub(super) board: [u8; SQUARES],
    /// One 90-bit board (bit = square index) per colour and piece kind.
    pub(super) pieces: [[u128; 7]; 2],
    /// Occupancy word of each rank: bit `file` set when occupied (9 bits).
    pub(super) ranks: [u16; RANKS],
    /// Occupancy word of each file: bit `rank` set when occupied (10 bits).
    pub(super) files: [u16; FILES],
    /// Square index of each side's general.
    pub(super) generals: [u8; 2],
    pub(super) side: Color,
    pub(super) key: u64,
    pub(super) halfmove: u16,
    pub(super) fullmove: u16,
}

/// What [`Position::unmake_move`] needs to restore the position: the captured piece and the halfmove clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    captured: u8,
    halfmove: u16,
}

impl Undo {
    /// The piece the move captured, if any.
    pub fn captured(&self) -> Option<Piece> {
        Piece::from_code(self.captured)
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

const GENERAL: u8 = PieceType::General as u8;

impl Position {
    /// An empty board, Red to move; pieces are added with `put` (used by the FEN reader).
    pub(super) fn empty() -> Position {
        Position {
            board: [EMPTY; SQUARES],
            pieces: [[0; 7]; 2],
            ranks: [0; RANKS],
            files: [0; FILES],
            generals: [0; 2],
            side: Color::RED,
            key: 0,
            halfmove: 0,
            fullmove: 1,
        }
    }

    /// Places `piece` on the empty square `sq`, updating every incremental field.
    pub(super) fn put(&mut self, piece: Piece, sq: Square) {
        debug_assert_eq!(self.board[sq.index()], EMPTY);
        let code = piece.code();
        self.board[sq.index()] = code;
        self.pieces[piece.color.index()][piece.kind.index()] |= sq.bit();
        self.ranks[sq.rank() as usize] |= 1 << sq.file();
        self.files[sq.file() as usize] |= 1 << sq.rank();
        self.key ^= zobrist::code_key(code, sq.index());
        if piece.kind == PieceType::General {
            self.generals[piece.color.index()] = sq.index() as u8;
        }
    }

    /// Sets the side to move, keeping the key in step.
    pub(super) fn set_side(&mut self, side: Color) {
        if side != self.side {
            self.key ^= zobrist::side();
            self.side = side;
        }
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_on(&self, sq: Square) -> Option<Piece> {
        Piece::from_code(self.board[sq.index()])
    }

    /// The squares (bit = index) of `color`'s pieces of `kind`.
    #[inline]
    pub fn pieces(&self, color: Color, kind: PieceType) -> u128 {
        self.pieces[color.index()][kind.index()]
    }

    /// All occupied squares (bit = index).
    pub fn occupied(&self) -> u128 {
        self.pieces.iter().flatten().fold(0, |a, &b| a | b)
    }

    /// The square of `color`'s general.
    #[inline]
    pub fn general(&self, color: Color) -> Square {
        Square::from_index(self.generals[color.index()] as usize)
    }

    /// The occupancy word of `rank` (0..9): bit `f` set when file `f` is occupied.
    ///
    /// # Panics
    /// When `rank > 9`.
    #[inline]
    pub fn rank_word(&self, rank: usize) -> u16 {
        self.ranks[rank]
    }

    /// The occupancy word of `file` (0 = a .. 8 = i): bit `r` set when rank `r` is occupied.
    ///
    /// # Panics
    /// When `file > 8`.
    #[inline]
    pub fn file_word(&self, file: usize) -> u16 {
        self.files[file]
    }

    /// The Zobrist key, kept incrementally (see [`zobrist`]).
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Plies since the last capture (the FEN's fifth field).
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }

    /// The move number, starting at 1 and incremented after each Black move (the FEN's sixth field).
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove
    }

    /// The Zobrist key computed from scratch.
    pub fn compute_key(&self) -> u64 {
        let mut key = if self.side == Color::Black { zobrist::side() } else { 0 };
        for (sq, &code) in self.board.iter().enumerate() {
            if code != EMPTY {
                key ^= zobrist::code_key(code, sq);
            }
        }
        key
    }

    /// Recomputes the piece boards, occupancy words, generals and key from the mailbox and compares them with the
    /// incremental ones (a test and debug helper).
    pub fn is_consistent(&self) -> bool {
        let mut fresh = Position::empty();
        fresh.halfmove = self.halfmove;
        fresh.fullmove = self.fullmove;
        for (i, &code) in self.board.iter().enumerate() {
            if let Some(p) = Piece::from_code(code) {
                fresh.put(p, Square::from_index(i));
            }
        }
        fresh.set_side(self.side);
        let generals_ok =
            [Color::RED, Color::Black].iter().all(|&c| self.pieces(c, PieceType::General).count_ones() == 1);
        generals_ok && fresh == *self && self.key == self.compute_key()
    }

    /// Plays `m` without checking it (the hot path): moves the piece, removes any captured piece, updates the
    /// mailbox, piece boards, occupancy words, general square, key, clocks and side, and returns what
    /// [`Position::unmake_move`] needs. The halfmove clock restarts at a capture.
    ///
    /// Precondition: `m` is pseudo-legal here (a piece of the side to move on `from`, `to` empty or enemy);
    /// otherwise the position becomes inconsistent (checked by `debug_assert!`).
    #[inline]
    pub fn make_move(&mut self, m: Move) -> Undo {
        let (from, to) = (m.from(), m.to());
        let (f, t) = (from.index(), to.index());
        let piece = self.board[f];
        let captured = self.board[t];
        debug_assert!(piece != EMPTY && piece >> 3 == self.side as u8, "make_move {m} in {self:?}");
        debug_assert!(captured >> 3 != self.side as u8, "make_move {m} captures own piece in {self:?}");
        let undo = Undo { captured, halfmove: self.halfmove };
        let us = (piece >> 3) as usize;
        self.pieces[us][(piece & 7) as usize] ^= from.bit() | to.bit();
        self.key ^= zobrist::code_key(piece, f) ^ zobrist::code_key(piece, t) ^ zobrist::side();
        self.board[f] = EMPTY;
        self.board[t] = piece;
        self.ranks[from.rank() as usize] &= !(1 << from.file());
        self.files[from.file() as usize] &= !(1 << from.rank());
        if captured == EMPTY {
            self.ranks[to.rank() as usize] |= 1 << to.file();
            self.files[to.file() as usize] |= 1 << to.rank();
            self.halfmove = self.halfmove.saturating_add(1);
        } else {
            self.pieces[(captured >> 3) as usize][(captured & 7) as usize] ^= to.bit();
            self.key ^= zobrist::code_key(captured, t);
            self.halfmove = 0;
        }
        if piece & 7 == GENERAL {
            self.generals[us] = t as u8;
        }
        if self.side == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = self.side.flip();
        undo
    }

    /// Takes back `m`, which must be the last move made, with the [`Undo`] its [`Position::make_move`]
    /// returned; restores the position exactly (key and clocks included).
    #[inline]
    pub fn unmake_move(&mut self, m: Move, undo: &Undo) {
        let (from, to) = (m.from(), m.to());
        let (f, t) = (from.index(), to.index());
        let piece = self.board[t];
        let captured = undo.captured;
        self.side = self.side.flip();
        if self.side == Color::Black {
            self.fullmove -= 1;
        }
        let us = (piece >> 3) as usize;
        self.pieces[us][(piece & 7) as usize] ^= from.bit() | to.bit();
        self.key ^= zobrist::code_key(piece, f) ^ zobrist::code_key(piece, t) ^ zobrist::side();
        self.board[f] = piece;
        self.board[t] = captured;
        self.ranks[from.rank() as usize] |= 1 << from.file();
        self.files[from.file() as usize] |= 1 << from.rank();
        if captured == EMPTY {
            self.ranks[to.rank() as usize] &= !(1 << to.file());
            self.files[to.file() as usize] &= !(1 << to.rank());
        } else {
            self.pieces[(captured >> 3) as usize][(captured & 7) as usize] ^= to.bit();
            self.key ^= zobrist::code_key(captured, t);
        }
        if piece & 7 == GENERAL {
            self.generals[us] = f as u8;
        }
        self.halfmove = undo.halfmove;
    }

    /// True when a piece of `color` of kind `kind` stands on square index `sq`.
    #[inline]
    fn holds(&self, sq: usize, color: Color, kind: PieceType) -> bool {
        self.board[sq] == Piece::new(color, kind).code()
    }

    /// True when `color`'s general is attacked by a chariot, cannon, horse or soldier, or faces the other general
    /// on an open file (see the module docs).
    #[inline]
    pub fn in_check(&self, color: Color) -> bool {
        let g = self.general(color);
        self.line_or_leaper_attack(g, color.flip(), true)
    }

    /// True when `by` attacks `sq`: one of its pieces could capture a piece of the other side standing on `sq`
    /// (see the module docs). The flying-general rule counts only when `sq` holds the other side's general.
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        let s = sq.index();
        let facing = self.generals[by.flip().index()] as usize == s;
        if self.line_or_leaper_attack(sq, by, facing) {
            return true;
        }
        let b = by.index();
        if ADVISOR_ATTACKERS[b][s] & self.pieces(by, PieceType::Advisor) != 0
            || GENERAL_ATTACKERS[b][s] & self.pieces(by, PieceType::General) != 0
        {
            return true;
        }
        if on_own_half(by, sq) && self.pieces(by, PieceType::Elephant) != 0 {
            let steps = &ELEPHANT_MOVES[by.index()][s];
            for i in 0..steps.len as usize {
                if self.board[steps.via[i] as usize] == EMPTY
                    && self.holds(steps.to[i] as usize, by, PieceType::Elephant)
                {
                    return true;
                }
            }
        }
        false
    }

    /// The chariot, cannon, horse and soldier attacks of `by` on `sq`, and with `flying` the other general seen
    /// along `sq`'s file.
    #[inline]
    fn line_or_leaper_attack(&self, sq: Square, by: Color, flying: bool) -> bool {
        let (s, file, rank) = (sq.index(), sq.file() as usize, sq.rank() as usize);
        let chariots = self.pieces(by, PieceType::Chariot);
        let cannons = self.pieces(by, PieceType::Cannon);
        // The rank: its masks are over files, so shifting by the rank's first square makes them board masks.
        let along_rank = &RANK_MOVES[file][self.ranks[rank] as usize];
        let shift = rank * 9;
        if (u128::from(along_rank.chariot_captures) << shift) & chariots != 0
            || (u128::from(along_rank.cannon_captures) << shift) & cannons != 0
        {
            return true;
        }
        // The file: at most two points each; read the mailbox.
        let along_file = &FILE_MOVES[rank][self.files[file] as usize];
        let chariot = Piece::new(by, PieceType::Chariot).code();
        let general = if flying { Piece::new(by, PieceType::General).code() } else { chariot };
        let mut m = along_file.chariot_captures;
        while m != 0 {
            let code = self.board[m.trailing_zeros() as usize * 9 + file];
            if code == chariot || code == general {
                return true;
            }
            m &= m - 1;
        }
        let cannon = Piece::new(by, PieceType::Cannon).code();
        let mut m = along_file.cannon_captures;
        while m != 0 {
            if self.board[m.trailing_zeros() as usize * 9 + file] == cannon {
                return true;
            }
            m &= m - 1;
        }
        if SOLDIER_ATTACKERS[by.index()][s] & self.pieces(by, PieceType::Soldier) != 0 {
            return true;
        }
        if self.pieces(by, PieceType::Horse) != 0 {
            let horse = Piece::new(by, PieceType::Horse).code();
            let checks = &HORSE_CHECKS[s];
            for i in 0..checks.len as usize {
                if self.board[checks.to[i] as usize] == horse && self.board[checks.via[i] as usize] == EMPTY {
                    return true;
                }
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The attack check by plain geometry over the board, using no table.
    fn naive_attacked(pos: &Position, sq: Square, by: Color) -> bool {
        let (x, y) = (i32::from(sq.file()), i32::from(sq.rank()));
        let at = |f: i32, r: i32| Square::try_new(f, r).and_then(|s| pos.piece_on(s));
        let is = |f: i32, r: i32, kind: PieceType| at(f, r) == Some(Piece::new(by, kind));
        let palace = |f: i32, r: i32| (3..=5).contains(&f) && if by == Color::RED { r <= 2 } else { r >= 7 };
        for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            let mut seen = 0;
            let (mut f, mut r) = (x + df, y + dr);
            while Square::try_new(f, r).is_some() {
                if at(f, r).is_some() {
                    let flying = df == 0 && pos.general(by.flip()) == sq && is(f, r, PieceType::General);
                    if (seen == 0 && (is(f, r, PieceType::Chariot) || flying))
                        || (seen == 1 && is(f, r, PieceType::Cannon))
                    {
                        return true;
                    }
                    seen += 1;
                }
                f += df;
                r += dr;
            }
        }
        for (df, dr) in [(1, 2), (-1, 2), (1, -2), (-1, -2), (2, 1), (2, -1), (-2, 1), (-2, -1)] {
            // A horse at (x - df, y - dr) moving by (df, dr): its leg is one step along the long direction.
            let (hf, hr) = (x - df, y - dr);
            let leg = if df.abs() == 2 { (hf + df.signum(), hr) } else { (hf, hr + dr.signum()) };
            if is(hf, hr, PieceType::Horse) && at(leg.0, leg.1).is_none() {
                return true;
            }
        }
        let forward = if by == Color::RED { 1 } else { -1 };
        let crossed = |r: i32| if by == Color::RED { r >= 5 } else { r <= 4 };
        if is(x, y - forward, PieceType::Soldier)
            || (crossed(y) && (is(x - 1, y, PieceType::Soldier) || is(x + 1, y, PieceType::Soldier)))
        {
            return true;
        }
        if palace(x, y) {
            for (df, dr) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                if is(x + df, y + dr, PieceType::Advisor) && palace(x + df, y + dr) {
                    return true;
                }
            }
            for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                if is(x + df, y + dr, PieceType::General) {
                    return true;
                }
            }
        }
        let own = |r: i32| if by == Color::RED { r <= 4 } else { r >= 5 };
        if own(y) {
            for (df, dr) in [(2, 2), (2, -2), (-2, 2), (-2, -2)] {
                if is(x + df, y + dr, PieceType::Elephant) && at(x + df / 2, y + dr / 2).is_none() {
                    return true;
                }
            }
        }
        false
    }

    /// Positions along seeded random playouts from the start position and a few suite positions.
    fn playout_positions() -> Vec<Position> {
        let starts = [
            super::super::fen::START_FEN,
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
            "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
        ];
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut out = Vec::new();
        for start in starts {
            for _ in 0..30 {
                let mut pos = Position::from_fen(start).unwrap();
                for _ in 0..80 {
                    out.push(pos.clone());
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    let m = moves.as_slice()[(seed % moves.len() as u64) as usize];
                    let before = pos.clone();
                    let undo = pos.make_move(m);
                    assert!(pos.is_consistent(), "after {m} from {before:?}");
                    pos.unmake_move(m, &undo);
                    assert_eq!(pos, before, "unmake {m}");
                    pos.make_move(m);
                }
            }
        }
        out
    }

    #[test]
    fn attack_check_equals_naive_geometry_on_every_square() {
        for pos in playout_positions() {
            for i in 0..SQUARES {
                let sq = Square::from_index(i);
                for by in [Color::RED, Color::Black] {
                    assert_eq!(pos.is_attacked(sq, by), naive_attacked(&pos, sq, by), "{sq} by {by:?} in {pos:?}");
                }
            }
            for c in [Color::RED, Color::Black] {
                assert_eq!(pos.in_check(c), pos.is_attacked(pos.general(c), c.flip()), "{c:?} in {pos:?}");
            }
        }
    }

    #[test]
    fn pseudo_legal_moves_that_expose_the_general_are_exactly_the_illegal_ones() {
        // Legal moves = pseudo-legal moves after which the naive geometry finds the mover's general unattacked;
        // this checks the shortcut of the legality test against plain make-and-look.
        for pos in playout_positions() {
            let mut pseudo = crate::xiangqi::MoveList::new();
            pos.generate_pseudo_legal(&mut pseudo);
            let legal = pos.legal_moves();
            for &m in &pseudo {
                let mut p = pos.clone();
                let us = p.side_to_move();
                p.make_move(m);
                let safe = !naive_attacked(&p, p.general(us), us.flip());
                assert_eq!(legal.contains(m), safe, "{m} in {pos:?}");
            }
        }
    }
}
