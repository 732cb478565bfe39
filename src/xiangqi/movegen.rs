//! Move generation: pseudo-legal moves from the line and step tables, then the legality filter.
//!
//! Chariots and cannons read their targets from [`RANK_MOVES`] and [`FILE_MOVES`] with the occupancy words of
//! their rank and file (see [`super::tables`]); a capture target is kept when it holds an enemy piece. The other
//! pieces read their step tables, with the horse's leg and the elephant's eye required empty.
//!
//! # Legality
//!
//! A pseudo-legal move is legal when it does not leave the mover's general attacked: the move is made, the
//! attack check [`Position::in_check`] runs on the mover's general (which covers the flying-general rule, as the
//! other general seen along the file), and the move is unmade. A side with no legal move has lost, whether in
//! check (checkmate) or not (stalemate).
//!
//! Shortcut: when the side to move is not in check, a move whose origin is not on the general's rank or file
//! (nor, while the opponent has a horse, diagonally next to the general) and whose target is not on the
//! general's rank or file is legal without the test. Proof: every attack on the general after such a move
//! would have to be a new one, made by a change the move cannot make. Attacks along the rank and file
//! (chariots, cannons, the other general) depend only on the pieces on those two lines, which the move leaves
//! as they were (it neither leaves nor enters them, and the general, standing on its own lines, does not
//! move). A horse attack appears only when its leg, a diagonal neighbour of the general, becomes empty, and only
//! the origin becomes empty. The opponent's soldiers do not move, and a capture only removes an attacker. The
//! suite and the Fairy-Stockfish comparison test the shortcut with everything else.

use super::position::{Position, Undo};
use super::tables::{
    ADVISOR_MOVES, DIAGONAL_NEIGHBOURS, ELEPHANT_MOVES, FILE_MOVES, GENERAL_LINES, GENERAL_MOVES, HORSE_MOVES, Leaps,
    RANK_MOVES, SOLDIER_MOVES,
};
use super::types::{Color, EMPTY, Move, MoveList, PieceType, Square};
use thiserror::Error;

/// Why a move text cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    /// Not coordinate text.
    #[error("move {}: expected coordinates such as h2e2 (files a-i, ranks 0-9)", crate::notation::quote::shown(.text))]
    Syntax {
        /// The text.
        text: String,
    },
    /// Not coordinate text in the notation of a UCI engine for Xiangqi (Fairy-Stockfish: ranks 1-10).
    #[error("move {}: expected coordinates with ranks 1-10 such as h3e3", crate::notation::quote::shown(.text))]
    EngineSyntax {
        /// The text.
        text: String,
    },
    /// Well-formed but not a legal move here.
    #[error("move {} is not legal in {fen}", crate::notation::quote::shown(.text))]
    Illegal {
        /// The text.
        text: String,
        /// The position, as FEN.
        fen: String,
    },
}

/// How a game ends when the side to move has no legal move: it loses either way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The side to move is in check with no legal move; `winner` is the other side.
    Checkmate {
        /// The side that gave mate.
        winner: Color,
    },
    /// The side to move is not in check but has no legal move; in Xiangqi it loses (`winner` is the other side).
    Stalemate {
        /// The side that wins by stalemating.
        winner: Color,
    },
}

impl Outcome {
    /// The side that wins.
    pub fn winner(self) -> Color {
        match self {
            Outcome::Checkmate { winner } | Outcome::Stalemate { winner } => winner,
        }
    }
}

impl Position {
    /// Appends every pseudo-legal move of the side to move to `list` (moves by the rules of movement, which may
    /// leave the mover's general attacked).
    pub fn generate_pseudo_legal(&self, list: &mut MoveList) {
        let us = self.side_to_move();
        let u = us.index();
        let mine = us as u8;
        let theirs = us.flip() as u8;
        for kind in [PieceType::Chariot, PieceType::Cannon] {
            let mut bb = self.pieces[u][kind.index()];
            while bb != 0 {
                let s = bb.trailing_zeros() as usize;
                bb &= bb - 1;
                let from = Square::from_index(s);
                let (file, rank) = (s % 9, s / 9);
                let along_rank = &RANK_MOVES[file][self.ranks[rank] as usize];
                let along_file = &FILE_MOVES[rank][self.files[file] as usize];
                let (rank_captures, file_captures) = if kind == PieceType::Chariot {
                    (along_rank.chariot_captures, along_file.chariot_captures)
                } else {
                    (along_rank.cannon_captures, along_file.cannon_captures)
                };
                let mut m = along_rank.quiet;
                while m != 0 {
                    list.push(Move::new(from, Square::from_index(rank * 9 + m.trailing_zeros() as usize)));
                    m &= m - 1;
                }
                let mut m = rank_captures;
                while m != 0 {
                    let t = rank * 9 + m.trailing_zeros() as usize;
                    if self.board[t] >> 3 == theirs {
                        list.push(Move::new(from, Square::from_index(t)));
                    }
                    m &= m - 1;
                }
                let mut m = along_file.quiet;
                while m != 0 {
                    list.push(Move::new(from, Square::from_index(m.trailing_zeros() as usize * 9 + file)));
                    m &= m - 1;
                }
                let mut m = file_captures;
                while m != 0 {
                    let t = m.trailing_zeros() as usize * 9 + file;
                    if self.board[t] >> 3 == theirs {
                        list.push(Move::new(from, Square::from_index(t)));
                    }
                    m &= m - 1;
                }
            }
        }
        self.push_steps(list, self.pieces[u][PieceType::Horse.index()], &HORSE_MOVES, true, mine);
        self.push_steps(list, self.pieces[u][PieceType::Elephant.index()], &ELEPHANT_MOVES[u], true, mine);
        self.push_steps(list, self.pieces[u][PieceType::Advisor.index()], &ADVISOR_MOVES[u], false, mine);
        self.push_steps(list, self.pieces[u][PieceType::General.index()], &GENERAL_MOVES[u], false, mine);
        self.push_steps(list, self.pieces[u][PieceType::Soldier.index()], &SOLDIER_MOVES[u], false, mine);
    }

    /// The step moves of the pieces on `bb` by `table`, with the `via` square required empty when `blockable`.
    #[inline]
    fn push_steps(&self, list: &mut MoveList, mut bb: u128, table: &[Leaps; 90], blockable: bool, mine: u8) {
        while bb != 0 {
            let s = bb.trailing_zeros() as usize;
            bb &= bb - 1;
            let steps = &table[s];
            for i in 0..steps.len as usize {
                let t = steps.to[i] as usize;
                if self.board[t] >> 3 != mine && (!blockable || self.board[steps.via[i] as usize] == EMPTY) {
                    list.push(Move::new(Square::from_index(s), Square::from_index(t)));
                }
            }
        }
    }

    /// Whether the pseudo-legal move `m` leaves the mover's general unattacked (make, check, unmake).
    #[inline]
    pub(super) fn leaves_general_safe(&mut self, m: Move) -> bool {
        let us = self.side_to_move();
        let undo: Undo = self.make_move(m);
        let safe = !self.in_check(us);
        self.unmake_move(m, &undo);
        safe
    }

    /// The legality test of the module docs for the pseudo-legal moves of one position: the shortcut for moves
    /// that cannot expose the general, make/check/unmake for the others.
    #[inline]
    fn legality(&mut self) -> impl FnMut(&mut Position, Move) -> bool + use<> {
        let us = self.side_to_move();
        let g = self.general(us).index();
        let checked = self.in_check(us);
        let lines = GENERAL_LINES[g];
        let from_mask =
            if self.pieces(us.flip(), PieceType::Horse) != 0 { lines | DIAGONAL_NEIGHBOURS[g] } else { lines };
        move |pos: &mut Position, m: Move| {
            if !checked && m.from().bit() & from_mask == 0 && m.to().bit() & lines == 0 {
                return true;
            }
            pos.leaves_general_safe(m)
        }
    }

    /// The legal moves, computed in place (the position is restored).
    #[inline]
    pub(crate) fn legal_moves_in_place(&mut self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_pseudo_legal(&mut list);
        let mut legal = self.legality();
        list.retain(|m| legal(self, m));
        list
    }

    /// The number of legal moves, computed in place (the position is restored).
    #[inline]
    pub(super) fn count_legal_in_place(&mut self) -> u64 {
        let mut list = MoveList::new();
        self.generate_pseudo_legal(&mut list);
        let mut legal = self.legality();
        list.iter().filter(|&&m| legal(self, m)).count() as u64
    }

    /// Every legal move of the side to move (see the module docs for the legality test).
    pub fn legal_moves(&self) -> MoveList {
        self.clone().legal_moves_in_place()
    }

    /// The number of legal moves of the side to move.
    pub fn count_legal_moves(&self) -> u64 {
        self.clone().count_legal_in_place()
    }

    /// Whether `m` is a legal move here (any [`Move`] may be asked about).
    pub fn is_legal(&self, m: Move) -> bool {
        self.legal_moves().contains(m)
    }

    /// The legal move written as coordinates with ranks 0..9 (`h2e2`).
    ///
    /// # Errors
    /// [`MoveError::Syntax`] for text that is not coordinates, [`MoveError::Illegal`] for a move that is not legal
    /// here.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let t = text.trim();
        let (from, to) =
            if t.len() == 4 && t.is_ascii() { (Square::parse(&t[..2]), Square::parse(&t[2..])) } else { (None, None) };
        let (Some(from), Some(to)) = (from, to) else {
            return Err(MoveError::Syntax { text: text.to_string() });
        };
        let m = Move::new(from, to);
        if self.is_legal(m) { Ok(m) } else { Err(MoveError::Illegal { text: text.to_string(), fen: self.to_fen() }) }
    }

    /// Plays a move after checking that it is legal (the checked twin of [`Position::make_move`]).
    ///
    /// # Errors
    /// [`MoveError::Illegal`] when `m` is not legal here; the position is unchanged.
    pub fn play(&mut self, m: Move) -> Result<Undo, MoveError> {
        if !self.is_legal(m) {
            return Err(MoveError::Illegal { text: m.to_text(), fen: self.to_fen() });
        }
        Ok(self.make_move(m))
    }

    /// `Some` when the side to move has no legal move and so has lost (checkmate or stalemate), else `None`.
    pub fn outcome(&self) -> Option<Outcome> {
        if self.count_legal_moves() > 0 {
            return None;
        }
        let winner = self.side_to_move().flip();
        Some(if self.in_check(self.side_to_move()) {
            Outcome::Checkmate { winner }
        } else {
            Outcome::Stalemate { winner }
        })
    }
}

/// Rewrites a move from ranks 0..9 (`h2e2`, UCCI) to ranks 1..10 (`h3e3`, Fairy-Stockfish's UCI for Xiangqi,
/// where rank 10 takes two digits: `b3b10`); `None` when the text is not a move in ranks 0..9.
pub fn to_ranks_1_to_10(text: &str) -> Option<String> {
    let (from, to) = split_coordinates(text, 0)?;
    Some(format!("{}{}{}{}", from.0, from.1 + 1, to.0, to.1 + 1))
}

/// Rewrites a move from ranks 1..10 (Fairy-Stockfish: `h3e3`, `b3b10`) to ranks 0..9 (`h2e2`, `b2b9`); `None`
/// when the text is not a move in ranks 1..10.
pub fn to_ranks_0_to_9(text: &str) -> Option<String> {
    let (from, to) = split_coordinates(text, 1)?;
    Some(format!("{}{}{}{}", from.0, from.1 - 1, to.0, to.1 - 1))
}

/// Splits `<file><rank><file><rank>` with ranks `base..base + 9` into its two (file, rank) pairs.
fn split_coordinates(text: &str, base: u32) -> Option<((char, u32), (char, u32))> {
    let mut chars = text.chars().peekable();
    let mut point = || -> Option<(char, u32)> {
        let file = chars.next().filter(|c| ('a'..='i').contains(c))?;
        let mut digits = String::new();
        while let Some(&c) = chars.peek() {
            if !c.is_ascii_digit() {
                break;
            }
            digits.push(c);
            chars.next();
        }
        let rank: u32 = digits.parse().ok().filter(|_| !digits.starts_with('0') || digits == "0")?;
        (base..base + 10).contains(&rank).then_some((file, rank))
    };
    let from = point()?;
    let to = point()?;
    chars.next().is_none().then_some((from, to))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_notations() {
        assert_eq!(to_ranks_1_to_10("h2e2").as_deref(), Some("h3e3"));
        assert_eq!(to_ranks_1_to_10("b2b9").as_deref(), Some("b3b10"));
        assert_eq!(to_ranks_0_to_9("b3b10").as_deref(), Some("b2b9"));
        assert_eq!(to_ranks_0_to_9("a10i10").as_deref(), Some("a9i9"));
        assert_eq!(to_ranks_0_to_9("a0a1"), None);
        assert_eq!(to_ranks_0_to_9("a11a1"), None);
        assert_eq!(to_ranks_1_to_10("a9a10"), None);
        assert_eq!(to_ranks_1_to_10("j0a1"), None);
        assert_eq!(to_ranks_1_to_10("a0a1x"), None);
    }

    #[test]
    fn start_position_moves() {
        let pos = Position::startpos();
        assert_eq!(pos.count_legal_moves(), 44);
        let m = pos.parse_move("h2e2").unwrap();
        assert_eq!(m.to_text(), "h2e2");
        assert!(matches!(pos.parse_move("h2e3"), Err(MoveError::Illegal { .. })));
        assert!(matches!(pos.parse_move("h3e3x"), Err(MoveError::Syntax { .. })));
        assert_eq!(pos.outcome(), None);
    }
}
