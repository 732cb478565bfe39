//! EPD lines of chess positions: the game-independent reader ([`crate::notation::epd`]) with each FEN checked
//! by the chess FEN reader, standard or Chess960 castling fields ([`parse_epd`], [`read_epd_file`],
//! [`parse_epd_text`]), and the position of a record ([`ChessEpd::position`]).

use super::Position;
use crate::notation::epd::{Epd, EpdError, EpdLineError, parse_epd_text_with, read_epd_file_with};
use std::path::Path;

/// The chess FEN check of the EPD reader: the FEN parses (with Chess960 castling fields when `chess960`).
fn check_fen(chess960: bool) -> impl Fn(&str) -> Result<(), super::FenError> {
    move |fen| Position::from_fen_variant(fen, chess960).map(drop)
}

/// Parses one EPD line of a chess position (without file context; `line` is recorded in the result).
///
/// # Errors
/// An [`EpdLineError`] when the line has fewer than four FEN fields or its FEN does not parse.
pub fn parse_epd(text: &str, line: usize, chess960: bool) -> Result<Epd, EpdLineError> {
    Epd::parse_with(text, line, &check_fen(chess960))
}

/// Reads every non-empty, non-comment (`#`) line of an EPD file of chess positions.
///
/// # Errors
/// [`EpdError::Io`] when the file cannot be read; [`EpdError::Line`] naming the file, line and reason for the
/// first malformed line.
pub fn read_epd_file(path: &Path, chess960: bool) -> Result<Vec<Epd>, EpdError> {
    read_epd_file_with(path, &check_fen(chess960))
}

/// Parses EPD text of chess positions (see [`read_epd_file`]); `file` names the source in errors.
///
/// # Errors
/// [`EpdError::Line`] for the first malformed line.
pub fn parse_epd_text(text: &str, file: &str, chess960: bool) -> Result<Vec<Epd>, EpdError> {
    parse_epd_text_with(text, file, &check_fen(chess960))
}

/// The chess position of an EPD record read by this module.
pub trait ChessEpd {
    /// The position (the FEN was validated when the line was parsed, with the same `chess960`).
    fn position(&self, chess960: bool) -> Position;
}

impl ChessEpd for Epd {
    fn position(&self, chess960: bool) -> Position {
        Position::from_fen_variant(&self.fen, chess960).expect("EPD FEN validated at parse time")
    }
}
