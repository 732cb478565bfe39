//! Standard Algebraic Notation (PGN standard, section 8.2.3) and UCI long algebraic move text.

use crate::chess::{Move, MoveKind, PieceType, Position, Square};
use thiserror::Error;

/// A move text that is malformed, or names no legal move (or more than one) in the position.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveTextError {
    /// The text is not a move in the expected notation.
    #[error("{} is not a {notation} move", crate::notation::quote::shown(.text))]
    Malformed {
        /// The text.
        text: String,
        /// `SAN` or `UCI`.
        notation: &'static str,
    },
    /// The text is well formed but no legal move matches it.
    #[error("{} is not legal in {fen}", crate::notation::quote::shown(.text))]
    Illegal {
        /// The text.
        text: String,
        /// The position.
        fen: String,
    },
    /// More than one legal move matches the SAN text.
    #[error("{} is ambiguous in {fen}", crate::notation::quote::shown(.text))]
    Ambiguous {
        /// The text.
        text: String,
        /// The position.
        fen: String,
    },
}

/// Writes `m` (legal in `pos`) in SAN: piece letter, the file, rank or square needed to tell it from other
/// legal moves of the same piece type to the same square (pinned pieces have no legal move and so never
/// force disambiguation), `x` for captures, `=Q` for promotions, `O-O`/`O-O-O`, and `+` or `#`.
pub fn to_san(pos: &Position, m: Move) -> String {
    let mut s = String::with_capacity(8);
    let from = m.from();
    let piece = pos.piece_on(from).map(|p| p.kind).unwrap_or(PieceType::Pawn);
    if m.kind() == MoveKind::Castling {
        s.push_str(if m.to() > from { "O-O" } else { "O-O-O" });
    } else {
        let capture = pos.captured_piece(m).is_some();
        if piece == PieceType::Pawn {
            if capture {
                s.push((b'a' + from.file()) as char);
            }
        } else {
            s.push(piece.char().to_ascii_uppercase());
            let rivals: Vec<Square> = pos
                .legal_moves()
                .iter()
                .filter(|o| {
                    o.to() == m.to()
                        && o.from() != from
                        && o.kind() != MoveKind::Castling
                        && pos.piece_on(o.from()).map(|p| p.kind) == Some(piece)
                })
                .map(|o| o.from())
                .collect();
            if !rivals.is_empty() {
                if rivals.iter().all(|r| r.file() != from.file()) {
                    s.push((b'a' + from.file()) as char);
                } else if rivals.iter().all(|r| r.rank() != from.rank()) {
                    s.push((b'1' + from.rank()) as char);
                } else {
                    s.push_str(&from.to_string());
                }
            }
        }
        if capture {
            s.push('x');
        }
        s.push_str(&m.to().to_string());
        if let Some(p) = m.promotion_piece() {
            s.push('=');
            s.push(p.char().to_ascii_uppercase());
        }
    }
    let mut after = pos.clone();
    after.make_move(m);
    if after.in_check() {
        s.push(if after.legal_moves().is_empty() { '#' } else { '+' });
    }
    s
}

/// Parses SAN in `pos` into the one legal move it names. Accepts check/mate marks and annotations
/// (`+ # ! ?`), `0-0` for `O-O`, promotions with or without `=`, and over-disambiguated moves (`Ng1f3`).
///
/// # Errors
/// [`MoveTextError`]: malformed text, no matching legal move, or several.
pub fn parse_san(pos: &Position, text: &str) -> Result<Move, MoveTextError> {
    let malformed = || MoveTextError::Malformed { text: text.to_string(), notation: "SAN" };
    let t = text.trim_end_matches(['+', '#', '!', '?']);
    let legal = pos.legal_moves();
    let matches: Vec<Move> = if matches!(t, "O-O" | "0-0" | "O-O-O" | "0-0-0") {
        let king_side = t.len() == 3;
        legal.iter().copied().filter(|m| m.kind() == MoveKind::Castling && (m.to() > m.from()) == king_side).collect()
    } else {
        let b = t.as_bytes();
        if b.len() < 2 || !t.is_ascii() {
            return Err(malformed());
        }
        let (piece, rest) = match b[0] {
            b'N' | b'B' | b'R' | b'Q' | b'K' => (PieceType::from_char(b[0] as char).ok_or_else(malformed)?, &t[1..]),
            b'a'..=b'h' => (PieceType::Pawn, t),
            _ => return Err(malformed()),
        };
        let (rest, promo) = match rest.rfind(|c: char| "NBRQnbrq".contains(c)) {
            Some(i) if i + 1 == rest.len() && i >= 2 => {
                let p = PieceType::from_char(rest.as_bytes()[i] as char).ok_or_else(malformed)?;
                (rest[..i].trim_end_matches('='), Some(p))
            }
            _ => (rest, None),
        };
        if rest.len() < 2 {
            return Err(malformed());
        }
        let to = Square::parse(&rest[rest.len() - 2..]).ok_or_else(malformed)?;
        let disamb = rest[..rest.len() - 2].trim_end_matches(['x', ':', '-']);
        let (mut file, mut rank) = (None, None);
        for c in disamb.chars() {
            match c {
                'a'..='h' => file = Some(c as u8 - b'a'),
                '1'..='8' => rank = Some(c as u8 - b'1'),
                _ => return Err(malformed()),
            }
        }
        legal
            .iter()
            .copied()
            .filter(|m| {
                m.kind() != MoveKind::Castling
                    && m.to() == to
                    && pos.piece_on(m.from()).map(|p| p.kind) == Some(piece)
                    && m.promotion_piece() == promo
                    && file.is_none_or(|f| m.from().file() == f)
                    && rank.is_none_or(|r| m.from().rank() == r)
            })
            .collect()
    };
    match matches.as_slice() {
        [m] => Ok(*m),
        [] => Err(MoveTextError::Illegal { text: text.to_string(), fen: pos.to_fen() }),
        _ => Err(MoveTextError::Ambiguous { text: text.to_string(), fen: pos.to_fen() }),
    }
}

/// Parses UCI long algebraic text (`e2e4`, `e7e8q`) into the legal move it names. Castling is accepted both as
/// the king's two-square step (`e1g1`, standard chess) and as king-takes-own-rook (`e1h1`, UCI_Chess960).
///
/// # Errors
/// [`MoveTextError`]: malformed text or no such legal move.
pub fn parse_uci(pos: &Position, text: &str) -> Result<Move, MoveTextError> {
    let malformed = || MoveTextError::Malformed { text: text.to_string(), notation: "UCI" };
    if !(4..=5).contains(&text.len()) || !text.is_ascii() {
        return Err(malformed());
    }
    let from = Square::parse(&text[..2]).ok_or_else(malformed)?;
    let to = Square::parse(&text[2..4]).ok_or_else(malformed)?;
    let promo = match text.as_bytes().get(4) {
        None => None,
        Some(&c) => Some(
            PieceType::from_char(c as char)
                .filter(|p| !matches!(p, PieceType::Pawn | PieceType::King))
                .ok_or_else(malformed)?,
        ),
    };
    pos.legal_moves()
        .iter()
        .copied()
        .find(|m| {
            m.from() == from
                && m.promotion_piece() == promo
                && (m.to() == to
                    || (m.kind() == MoveKind::Castling && m.king_destination() == to && !pos.is_chess960()))
        })
        .ok_or_else(|| MoveTextError::Illegal { text: text.to_string(), fen: pos.to_fen() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn san_round_trip_over_legal_moves() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            for &m in &pos.legal_moves() {
                let san = to_san(&pos, m);
                assert_eq!(parse_san(&pos, &san).unwrap(), m, "{fen} {san}");
                assert_eq!(parse_uci(&pos, &m.to_uci(false)).unwrap(), m);
            }
        }
    }

    #[test]
    fn disambiguation_ignores_pinned_pieces() {
        // The knight on c3 is pinned by the bishop on b4, so Ne2 needs no file letter... with the g1 knight.
        let pos = Position::from_fen("4k3/8/8/8/1b6/2N5/8/4K1N1 w - - 0 1").unwrap();
        let m = parse_uci(&pos, "g1e2").unwrap();
        assert_eq!(to_san(&pos, m), "Ne2");
        let pos = Position::from_fen("4k3/8/8/8/8/2N5/8/4K1N1 w - - 0 1").unwrap();
        assert_eq!(to_san(&pos, parse_uci(&pos, "g1e2").unwrap()), "Nge2");
    }

    #[test]
    fn checks_mates_promotions() {
        let pos = Position::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
        assert_eq!(to_san(&pos, parse_uci(&pos, "a1a8").unwrap()), "Ra8#");
        let pos = Position::from_fen("8/P6k/8/8/8/8/8/K7 w - - 0 1").unwrap();
        assert_eq!(to_san(&pos, parse_uci(&pos, "a7a8q").unwrap()), "a8=Q");
        assert_eq!(parse_san(&pos, "a8Q").unwrap(), parse_uci(&pos, "a7a8q").unwrap());
        assert!(parse_san(&pos, "Zz9").is_err());
        assert!(parse_uci(&pos, "a7a8k").is_err());
    }
}
