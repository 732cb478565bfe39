//! Quoting input text in error messages: what a damaged file holds, shown so that invisible differences are
//! visible and a huge line does not flood the terminal.
//!
//! Every message that quotes a line or field of a file the user gave (records, run files, EPD, PGN, FEN) goes
//! through [`shown`]: the text in double quotes with Rust's string escapes (`"1-0\r"`, `"\u{feff}pair"`,
//! `"a\tb"`, control characters as `\u{1b}`), trailing spaces kept inside the quotes, and at most
//! [`MAX_SHOWN_CHARS`] characters followed by `... (N more bytes)`.

/// The most characters of an input text that [`shown`] prints.
pub const MAX_SHOWN_CHARS: usize = 80;

/// `text` quoted for an error message: escaped as a Rust string literal (so CRLF endings, a UTF-8 byte order
/// mark, tabs and other control or invisible characters show as `\r`, `\u{feff}`, `\t`, ...) and cut after
/// [`MAX_SHOWN_CHARS`] characters, the rest counted in bytes.
///
/// # Examples
/// ```
/// use arbiter::notation::quote::shown;
/// assert_eq!(shown("1-0\r"), r#""1-0\r""#);
/// assert_eq!(shown("\u{feff}pair"), r#""\u{feff}pair""#);
/// assert_eq!(shown(&"x".repeat(100)), format!("\"{}\"... (20 more bytes)", "x".repeat(80)));
/// ```
pub fn shown(text: &str) -> String {
    match text.char_indices().nth(MAX_SHOWN_CHARS) {
        Some((cut, _)) => format!("{:?}... ({} more bytes)", &text[..cut], text.len() - cut),
        None => format!("{text:?}"),
    }
}

/// `text` cut as [`shown`] cuts it, but neither quoted nor escaped: for a short field inside a message that also
/// quotes the whole line with [`shown`] (a tuning line's label `[0.7]`).
pub fn cut(text: &str) -> String {
    match text.char_indices().nth(MAX_SHOWN_CHARS) {
        Some((cut, _)) => format!("{}... ({} more bytes)", &text[..cut], text.len() - cut),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invisible_differences_are_shown() {
        assert_eq!(shown("1-0"), "\"1-0\"");
        assert_eq!(shown("1-0 "), "\"1-0 \"");
        assert_eq!(shown("a\tb\u{1b}[0m"), r#""a\tb\u{1b}[0m""#);
        assert_eq!(shown("\u{feff}"), r#""\u{feff}""#);
        assert_eq!(shown("say \"hi\""), r#""say \"hi\"""#);
        assert_eq!(shown("\u{200b}"), r#""\u{200b}""#);
    }

    #[test]
    fn cut_keeps_short_text_as_it_is() {
        assert_eq!(cut("0.7"), "0.7");
        assert_eq!(cut(&"9".repeat(100)), format!("{}... (20 more bytes)", "9".repeat(80)));
    }

    #[test]
    fn long_text_is_cut_at_a_character() {
        let text = "é".repeat(1_000_000);
        let quoted = shown(&text);
        assert_eq!(quoted, format!("\"{}\"... (1999840 more bytes)", "é".repeat(80)));
    }
}
