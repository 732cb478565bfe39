//! Text files as people have them: the bytes of an opening book or a game file decoded without refusing a
//! byte-order mark or a Latin-1 comment.

use std::borrow::Cow;

/// The text of `bytes`: UTF-8 without a leading byte-order mark; bytes that are not UTF-8 are read as
/// Latin-1 (ISO 8859-1, every byte one character), as older PGN files are written. Line ends are left to the
/// readers, which take `\n` and `\r\n`.
///
/// # Examples
/// ```
/// use arbiter::notation::text::decode;
/// assert_eq!(decode(b"\xef\xbb\xbf[Event \"a\"]"), "[Event \"a\"]");
/// assert_eq!(decode(b"{caf\xe9}"), "{caf\u{e9}}");
/// ```
pub fn decode(bytes: &[u8]) -> Cow<'_, str> {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => Cow::Owned(bytes.iter().map(|&b| char::from(b)).collect()),
    }
}

/// Reads the file at `path` and [`decode`]s it.
///
/// # Errors
/// The file cannot be read.
pub fn read(path: &std::path::Path) -> std::io::Result<String> {
    std::fs::read(path).map(|bytes| decode(&bytes).into_owned())
}
