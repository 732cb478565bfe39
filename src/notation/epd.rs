//! EPD (Extended Position Description, PGN standard section 16.2): four FEN fields and `opcode operand;`
//! operations, plus the perft-suite form `<FEN> ;D1 20 ;D2 400` whose FEN carries its clock fields.

use std::path::Path;
use thiserror::Error;

/// An EPD line that cannot be read, with the file and line it came from.
#[derive(Debug, Error)]
pub enum EpdError {
    /// The file cannot be read.
    #[error("{file}: cannot read: {source}")]
    Io {
        /// The path.
        file: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A line is not EPD.
    #[error("{file}:{line}: {reason}{}", if text.is_empty() { String::new() } else { format!(": {}", crate::notation::quote::shown(text)) })]
    Line {
        /// The path (or `<input>`).
        file: String,
        /// 1-based line number.
        line: usize,
        /// The line.
        text: String,
        /// What is wrong (boxed: the error stays small).
        reason: Box<EpdLineError>,
    },
}

/// Why one line is not an EPD record.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum EpdLineError {
    /// Fewer than four FEN fields.
    #[error("expected at least 4 FEN fields")]
    FenFields,
    /// A `;` inside the four FEN fields.
    #[error("expected at least 4 FEN fields before the first ';'")]
    SemicolonInFen,
    /// No position before the operations (one-field suites).
    #[error("expected a position before the first ';'")]
    NoPosition,
    /// A clock field and the `hmvc`/`fmvn` operation that give different values.
    #[error("the clock field {given} and the {opcode} operation {operand:?} disagree")]
    ClockMismatch {
        /// The clock field of the line.
        given: String,
        /// `hmvc` or `fmvn`.
        opcode: String,
        /// The operation's operand.
        operand: String,
    },
    /// A FEN the game's reader refuses, with its reason.
    #[error("bad FEN: {0}")]
    BadFen(String),
    /// An operation whose opcode does not start with a letter.
    #[error(
        "operation {}: an opcode starts with a letter (the clock fields, halfmove and fullmove, come both or not at \
         all, right after the four FEN fields)",
        crate::notation::quote::shown(.operation)
    )]
    Opcode {
        /// The operation as written (opcode and operands).
        operation: String,
    },
    /// Bytes that are not UTF-8 text.
    #[error("not UTF-8 text (byte {byte} of the file)")]
    NotUtf8 {
        /// The 1-based offset of the first bad byte in the file.
        byte: usize,
    },
}

/// One EPD record: a position (as a full FEN) and its operations in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Epd {
    /// The position as a six-field FEN (clocks from the line, from `hmvc`/`fmvn`, or `0 1`).
    pub fen: String,
    /// `(opcode, operands)` pairs in the order given; operands keep their quotes stripped of the outer pair.
    pub ops: Vec<(String, String)>,
    /// 1-based line number in its file.
    pub line: usize,
}

impl Epd {
    /// Parses one EPD line whose FEN is checked by `check_fen` (the six-field FEN in, the reason out), so that
    /// other games' FENs (Xiangqi) can be read with the same opcodes.
    ///
    /// # Errors
    /// An [`EpdLineError`] when the line has fewer than four FEN fields or `check_fen` refuses its FEN.
    pub fn parse_with<E: std::fmt::Display>(
        text: &str,
        line: usize,
        check_fen: &dyn Fn(&str) -> Result<(), E>,
    ) -> Result<Epd, EpdLineError> {
        // Fields are separated by ASCII spaces and tabs only, so that any other whitespace stays inside a field
        // and the FEN reader names it.
        let ascii_space = |c: char| c == ' ' || c == '\t';
        let mut rest = text.trim_matches(ascii_space);
        let mut fen_fields: Vec<&str> = Vec::with_capacity(6);
        for _ in 0..4 {
            let (field, after) = rest.split_once(ascii_space).unwrap_or((rest, ""));
            if field.is_empty() {
                return Err(EpdLineError::FenFields);
            }
            fen_fields.push(field);
            rest = after.trim_start_matches(ascii_space);
        }
        if fen_fields.iter().any(|f| f.contains(';')) {
            return Err(EpdLineError::SemicolonInFen);
        }
        // The two clock fields may follow the four FEN fields before the operations: `... - 0 1 ;D1 20` (perft
        // suites) or `... b - - 12 13 bm Kd7;`. Opcodes start with a letter, so two numbers here are the clocks.
        let mut clocks: Option<(&str, &str)> = None;
        if let Some((halfmove, after)) = leading_number(rest)
            && let Some((fullmove, after)) = leading_number(after)
        {
            clocks = Some((halfmove, fullmove));
            rest = after;
        }
        let ops = split_operations(rest.trim());
        let (mut halfmove, mut fullmove) =
            clocks.map_or(("0".to_string(), "1".to_string()), |(h, f)| (h.into(), f.into()));
        for (op, operand) in &ops {
            let (clock, field) = match op.as_str() {
                "hmvc" => (&mut halfmove, 0),
                "fmvn" => (&mut fullmove, 1),
                _ => continue,
            };
            if let Some(given) = clocks.map(|c| if field == 0 { c.0 } else { c.1 })
                && given != operand
            {
                return Err(EpdLineError::ClockMismatch {
                    given: given.to_string(),
                    opcode: op.clone(),
                    operand: operand.clone(),
                });
            }
            *clock = operand.clone();
        }
        let fen = format!(
            "{} {} {} {} {} {}",
            fen_fields[0], fen_fields[1], fen_fields[2], fen_fields[3], halfmove, fullmove
        );
        check_fen(&fen).map_err(|e| EpdLineError::BadFen(e.to_string()))?;
        check_opcodes(&ops)?;
        Ok(Epd { fen, ops, line })
    }

    /// Parses one line whose position is a single whitespace-free field before the operations, checked by
    /// `check_fen`: the PDN FEN of draughts suites, `W:Wa1,c1:Bb6 ;D1 7 ;D2 49` (`fen` is that field as given).
    ///
    /// # Errors
    /// An [`EpdLineError`] when the line has no position or `check_fen` refuses it.
    pub fn parse_one_field_with<E: std::fmt::Display>(
        text: &str,
        line: usize,
        check_fen: &dyn Fn(&str) -> Result<(), E>,
    ) -> Result<Epd, EpdLineError> {
        let text = text.trim();
        let end = text.find(|c: char| c.is_whitespace() || c == ';').unwrap_or(text.len());
        let (fen, rest) = text.split_at(end);
        if fen.is_empty() {
            return Err(EpdLineError::NoPosition);
        }
        check_fen(fen).map_err(|e| EpdLineError::BadFen(e.to_string()))?;
        let ops = split_operations(rest.trim());
        check_opcodes(&ops)?;
        Ok(Epd { fen: fen.to_string(), ops, line })
    }

    /// The operands of the first operation with this opcode.
    pub fn get(&self, opcode: &str) -> Option<&str> {
        self.ops.iter().find(|(o, _)| o == opcode).map(|(_, v)| v.as_str())
    }

    /// Writes the record back as an EPD line: the four FEN fields, then `opcode operands;` for each operation
    /// (operands containing spaces are quoted).
    pub fn to_line(&self) -> String {
        let mut s: String = self.fen.split(' ').take(4).collect::<Vec<_>>().join(" ");
        for (op, v) in &self.ops {
            s.push(' ');
            s.push_str(op);
            if !v.is_empty() {
                s.push(' ');
                if v.contains(' ') && !v.starts_with('"') && op != "bm" && op != "am" && op != "pv" {
                    s.push_str(&format!("\"{v}\""));
                } else {
                    s.push_str(v);
                }
            }
            s.push(';');
        }
        s
    }
}

/// The run of ASCII digits at the start of `text` (after ASCII spaces and tabs) when it ends at whitespace, a
/// `;` or the end, and the text after it.
fn leading_number(text: &str) -> Option<(&str, &str)> {
    let text = text.trim_start_matches([' ', '\t']);
    let end = text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len());
    let after = &text[end..];
    (end > 0 && (after.is_empty() || after.starts_with([' ', '\t', ';']))).then(|| (&text[..end], after))
}

/// Refuses an operation whose opcode does not start with a letter (the EPD standard's rule, which also tells the
/// clock fields from opcodes): a lone clock field (`... b - - 12 bm Kd7;`), a third number, or stray text such
/// as `12 13` after the operations would otherwise be read as an operation and silently ignored.
fn check_opcodes(ops: &[(String, String)]) -> Result<(), EpdLineError> {
    match ops.iter().find(|(op, _)| !op.starts_with(|c: char| c.is_ascii_alphabetic())) {
        Some((op, operands)) => {
            let operation = if operands.is_empty() { op.clone() } else { format!("{op} {operands}") };
            Err(EpdLineError::Opcode { operation })
        }
        None => Ok(()),
    }
}

/// Splits `op1 a b; op2 "x; y"; ...` into (opcode, operands), honouring double quotes.
fn split_operations(rest: &str) -> Vec<(String, String)> {
    let mut ops: Vec<(String, String)> = Vec::new();
    let mut current = String::new();
    let mut quoted = false;
    let push = |s: &str, ops: &mut Vec<(String, String)>| {
        let s = s.trim();
        if s.is_empty() {
            return;
        }
        let (op, operands) = s.split_once(char::is_whitespace).unwrap_or((s, ""));
        let operands = operands.trim();
        let operands = operands.strip_prefix('"').and_then(|o| o.strip_suffix('"')).unwrap_or(operands);
        ops.push((op.to_string(), operands.to_string()));
    };
    for c in rest.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                current.push(c);
            }
            ';' if !quoted => {
                push(&current, &mut ops);
                current.clear();
            }
            _ => current.push(c),
        }
    }
    push(&current, &mut ops);
    ops
}

/// Reads every non-empty, non-comment (`#`) line of an EPD file, with each FEN checked by `check_fen` (the
/// six-field FEN in, the reason out): the chess reader is `chess::epd::read_epd_file`, and other games' suites
/// (Xiangqi's) pass their own.
///
/// # Errors
/// [`EpdError::Io`] when the file cannot be read; [`EpdError::Line`] naming the file, line and reason for the
/// first malformed line.
pub fn read_epd_file_with<E: std::fmt::Display>(
    path: &Path,
    check_fen: &dyn Fn(&str) -> Result<(), E>,
) -> Result<Vec<Epd>, EpdError> {
    read_lines(path, &|text, line| Epd::parse_with(text, line, check_fen))
}

/// Reads a suite whose positions are one field each ([`Epd::parse_one_field_with`], the draughts suites), each
/// FEN checked by `check_fen`.
///
/// # Errors
/// As [`read_epd_file_with`].
pub fn read_one_field_file_with<E: std::fmt::Display>(
    path: &Path,
    check_fen: &dyn Fn(&str) -> Result<(), E>,
) -> Result<Vec<Epd>, EpdError> {
    read_lines(path, &|text, line| Epd::parse_one_field_with(text, line, check_fen))
}

/// The path as shown in errors, and the file's bytes.
fn read_bytes(path: &Path) -> Result<(String, Vec<u8>), EpdError> {
    let file = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|source| EpdError::Io { file: file.clone(), source })?;
    Ok((file, bytes))
}

/// The text of `file`'s bytes ([`utf8_text`]), or the line of its first byte that is not UTF-8.
fn file_text<'a>(file: &str, bytes: &'a [u8]) -> Result<&'a str, EpdError> {
    utf8_text(bytes).map_err(|(line, reason)| EpdError::Line {
        file: file.to_string(),
        line,
        text: String::new(),
        reason: Box::new(reason),
    })
}

/// Reads every non-empty, non-comment line of a file with `parse` (the line's text and 1-based number).
fn read_lines(path: &Path, parse: &dyn Fn(&str, usize) -> Result<Epd, EpdLineError>) -> Result<Vec<Epd>, EpdError> {
    let (file, bytes) = read_bytes(path)?;
    let text = file_text(&file, &bytes)?;
    parse_lines(text, &file, parse)
}

/// The lines of a suite file read by [`read_suite_skipping_bad_lines`]: the good ones, and an error for each
/// line that could not be read.
#[derive(Debug)]
pub struct SuiteLines {
    /// The lines that were read, in file order.
    pub epds: Vec<Epd>,
    /// One [`EpdError::Line`] per line that was not read (a malformed line, a FEN its game refuses), in order.
    pub bad: Vec<EpdError>,
}

/// Reads a suite like [`read_epd_file_with`] (or, with `one_field`, [`read_one_field_file_with`]), but goes on
/// past lines that cannot be read and returns them apart, for `arbiter perft --suite --skip-bad-lines`.
///
/// # Errors
/// [`EpdError::Io`] when the file cannot be read, [`EpdError::Line`] when it is not UTF-8 text (nothing of it
/// can be trusted then).
pub fn read_suite_skipping_bad_lines<E: std::fmt::Display>(
    path: &Path,
    one_field: bool,
    check_fen: &dyn Fn(&str) -> Result<(), E>,
) -> Result<SuiteLines, EpdError> {
    let (file, bytes) = read_bytes(path)?;
    let text = file_text(&file, &bytes)?;
    let parse = |text: &str, line: usize| {
        if one_field {
            Epd::parse_one_field_with(text, line, check_fen)
        } else {
            Epd::parse_with(text, line, check_fen)
        }
    };
    let mut lines = SuiteLines { epds: Vec::new(), bad: Vec::new() };
    for_each_line(text, &file, &parse, &mut |result| {
        match result {
            Ok(epd) => lines.epds.push(epd),
            Err(error) => lines.bad.push(error),
        }
        true
    });
    Ok(lines)
}

/// The text of a file's bytes without a leading UTF-8 byte-order mark; on invalid UTF-8, the 1-based line of
/// the first bad byte and why ([`EpdLineError::NotUtf8`]).
///
/// # Errors
/// `(line, reason)` for bytes that are not UTF-8.
pub fn utf8_text(bytes: &[u8]) -> Result<&str, (usize, EpdLineError)> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    std::str::from_utf8(bytes).map_err(|e| {
        let line = bytes[..e.valid_up_to()].iter().filter(|&&b| b == b'\n').count() + 1;
        (line, EpdLineError::NotUtf8 { byte: e.valid_up_to() + 1 })
    })
}

/// Parses EPD text with each FEN checked by `check_fen` (see [`read_epd_file_with`]); `file` names the source in
/// errors.
///
/// # Errors
/// [`EpdError::Line`] for the first malformed line.
pub fn parse_epd_text_with<E: std::fmt::Display>(
    text: &str,
    file: &str,
    check_fen: &dyn Fn(&str) -> Result<(), E>,
) -> Result<Vec<Epd>, EpdError> {
    parse_lines(text, file, &|line, number| Epd::parse_with(line, number, check_fen))
}

/// Parses every non-empty, non-comment line of `text` with `parse`; `file` names the source in errors.
fn parse_lines(
    text: &str,
    file: &str,
    parse: &dyn Fn(&str, usize) -> Result<Epd, EpdLineError>,
) -> Result<Vec<Epd>, EpdError> {
    let mut out = Vec::new();
    let mut first_error = None;
    for_each_line(text, file, parse, &mut |result| match result {
        Ok(epd) => {
            out.push(epd);
            true
        }
        Err(error) => {
            first_error = Some(error);
            false
        }
    });
    match first_error {
        Some(error) => Err(error),
        None => Ok(out),
    }
}

/// Hands the result of parsing each non-empty, non-comment line of `text` (after a byte-order mark) to `take`,
/// until `take` returns false; `file` names the source in errors.
fn for_each_line(
    text: &str,
    file: &str,
    parse: &dyn Fn(&str, usize) -> Result<Epd, EpdLineError>,
    take: &mut dyn FnMut(Result<Epd, EpdError>) -> bool,
) {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim_matches([' ', '\t']);
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let result = parse(line, i + 1).map_err(|reason| EpdError::Line {
            file: file.to_string(),
            line: i + 1,
            text: raw.to_string(),
            reason: Box::new(reason),
        });
        if !take(result) {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::chess::epd::{parse_epd, parse_epd_text};

    #[test]
    fn perft_and_tactics_forms() {
        let e = parse_epd("4k3/8/8/8/8/8/8/4K2R w K - 3 9 ;D1 15 ;D2 66", 1, false).unwrap();
        assert_eq!(e.fen, "4k3/8/8/8/8/8/8/4K2R w K - 3 9");
        assert_eq!(e.get("D2"), Some("66"));
        let e = parse_epd(r#"2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id "WAC.001";"#, 1, false)
            .unwrap();
        assert_eq!(e.get("bm"), Some("Qg6"));
        assert_eq!(e.get("id"), Some("WAC.001"));
        assert_eq!(e.fen, "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1");
        let e = parse_epd("4k3/8/8/8/8/8/8/4K2R w K - hmvc 7; fmvn 30;", 1, false).unwrap();
        assert_eq!(e.fen, "4k3/8/8/8/8/8/8/4K2R w K - 7 30");
        assert!(parse_epd("4k3/8/8 w", 1, false).is_err());
        let err = parse_epd_text("\n4k3/8/8/8/8/8/8/4K2X w - - ;D1 1\n", "x.epd", false).unwrap_err();
        assert!(err.to_string().starts_with("x.epd:2:"), "{err}");
    }

    #[test]
    fn clock_fields_before_operations_are_kept_with_the_operations() {
        let e = parse_epd("4k3/8/8/8/8/8/8/4K2R b K - 12 13 bm Kd7; id \"x\";", 3, false).unwrap();
        assert_eq!(e.fen, "4k3/8/8/8/8/8/8/4K2R b K - 12 13");
        assert_eq!(e.get("bm"), Some("Kd7"));
        assert_eq!(e.get("id"), Some("x"));
        assert_eq!(e.ops.len(), 2);
        let e = parse_epd("4k3/8/8/8/8/8/8/4K2R b K - 12 13", 1, false).unwrap();
        assert_eq!((e.fen.as_str(), e.ops.len()), ("4k3/8/8/8/8/8/8/4K2R b K - 12 13", 0));
        let e = parse_epd("4k3/8/8/8/8/8/8/4K2R b K - 12 13;", 1, false).unwrap();
        assert_eq!(e.fen, "4k3/8/8/8/8/8/8/4K2R b K - 12 13");
        // The clock fields and hmvc/fmvn must agree.
        let e = parse_epd("4k3/8/8/8/8/8/8/4K2R b K - 12 13 hmvc 12; fmvn 13;", 1, false).unwrap();
        assert_eq!(e.fen, "4k3/8/8/8/8/8/8/4K2R b K - 12 13");
        let err = parse_epd("4k3/8/8/8/8/8/8/4K2R b K - 12 13 hmvc 5;", 1, false).unwrap_err();
        assert!(err.to_string().contains("the clock field 12 and the hmvc operation \"5\" disagree"), "{err}");
    }

    #[test]
    fn numbers_where_an_opcode_belongs_are_refused() {
        for (line, operation) in [
            ("4k3/8/8/8/8/8/8/4K2R b K - 12 bm Kd7;", "\"12 bm Kd7\""),
            ("4k3/8/8/8/8/8/8/4K2R b K - 12 13 14 bm Kd7;", "\"14 bm Kd7\""),
            ("4k3/8/8/8/8/8/8/4K2R b K - hmvc 3; fmvn 4; 12 13", "\"12 13\""),
        ] {
            let err = parse_epd(line, 1, false).expect_err(line);
            assert!(
                err.to_string().starts_with(&format!("operation {operation}: an opcode starts with a letter")),
                "{err}"
            );
        }
        // Opcodes with digits after the letter, operations without operands, and the perft-suite form still read.
        let e = parse_epd("4k3/8/8/8/8/8/8/4K2R b K - c0 \"x\"; D1 5; noop;", 1, false).unwrap();
        assert_eq!(e.ops.len(), 3);
        assert_eq!(parse_epd("4k3/8/8/8/8/8/8/4K2R b K - 0 1 ;D1 5 ;D2 50", 1, false).unwrap().ops.len(), 2);
    }

    #[test]
    fn odd_whitespace_in_the_fen_is_named() {
        let err = parse_epd("4k3/8/8/8/8/8/8/4K2R\u{a0}b K - bm Kd7;", 1, false).unwrap_err();
        assert!(err.to_string().contains("U+00A0"), "{err}");
        let err = parse_epd("4k3/8/8/8/8/8/8/4K2R b\u{c}K - bm Kd7;", 1, false).unwrap_err();
        assert!(err.to_string().contains("U+000C"), "{err}");
        // Inside an operation's operand any text is kept.
        let e = parse_epd("4k3/8/8/8/8/8/8/4K2R b K - id \"a\u{a0}b\";", 1, false).unwrap();
        assert_eq!(e.get("id"), Some("a\u{a0}b"));
    }
}
