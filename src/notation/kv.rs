//! `key=value,key=value` option text (cutechess-cli's flag syntax, game-independent), as in `--engine name=seed,config=configs/seed.toml` or
//! `--draw movenumber=40,movecount=8,score=10`.
//!
//! Items are separated by `,` and split at their first `=`; keys are case-sensitive and may not repeat. A
//! value cannot itself contain a `,`, except where the option lets a key's value be quoted
//! ([`KeyValues::parse_quoted`], the engine specs): a value of such a key that begins with `"` or `'` is read
//! in POSIX shell quoting (unquoted by the `shlex` crate) up to the first `,` outside quotes, so
//! `option.SyzygyPath="/a,/b"` is the value `/a,/b`. [`KeyValues::words`] splits a value into words the same
//! way (`args=`).

use std::str::FromStr;
use thiserror::Error;

/// What is wrong with an option's `key=value` text. Every variant names the option (for example `--draw`).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum KeyValueError {
    /// The option text is empty.
    #[error("{option}: empty; expected key=value pairs separated by ','")]
    Empty {
        /// The option, such as `--draw`.
        option: String,
    },
    /// An item without `=` or with an empty key.
    #[error("{option}: {} is not key=value", crate::notation::quote::shown(.item))]
    Malformed {
        /// The option.
        option: String,
        /// The offending item.
        item: String,
    },
    /// The same key twice.
    #[error("{option}: key `{key}` given twice")]
    Duplicate {
        /// The option.
        option: String,
        /// The repeated key.
        key: String,
    },
    /// A key the option does not have.
    #[error("{option}: unknown key `{key}`, expected one of: {expected}")]
    Unknown {
        /// The option.
        option: String,
        /// The unknown key.
        key: String,
        /// The keys the option accepts, comma-separated.
        expected: String,
    },
    /// A required key is absent.
    #[error("{option}: missing key `{key}`")]
    Missing {
        /// The option.
        option: String,
        /// The missing key.
        key: String,
    },
    /// A value that does not parse or is out of range.
    #[error("{option}: {key}={} is not valid, expected {expected}", crate::notation::quote::shown(.value))]
    BadValue {
        /// The option.
        option: String,
        /// The key.
        key: String,
        /// The value given.
        value: String,
        /// What the value should be, in words.
        expected: String,
    },
    /// A quote that is never closed, or a backslash that ends the text, in an option's text or in a value
    /// split into words ([`KeyValues::words`]).
    #[error("{option}: {} at character {position} of {}", .problem, crate::notation::quote::shown(.text))]
    Unbalanced {
        /// The option, with the key when the text is one value (`--engine args=`).
        option: String,
        /// The text read: the option's whole text, or the value.
        text: String,
        /// Where the quote opens (or where the backslash is), in characters from 1.
        position: usize,
        /// What is wrong, in words: `the quote ' is never closed` or `a backslash escapes nothing`.
        problem: &'static str,
    },
    /// A quoted value that is more than one shell word (`cmd="a" "b"`): the whole value belongs in the quotes.
    #[error(
        "{option}: {key}={} holds a space outside its quotes; quote the whole value, such as {key}=\"a b\"",
        crate::notation::quote::shown(.value)
    )]
    NotOneWord {
        /// The option.
        option: String,
        /// The key.
        key: String,
        /// The value as written, quotes included.
        value: String,
    },
    /// A word of a value split into words that begins with `#`, which the shell reads as a comment (the rest of
    /// the value would be dropped).
    #[error("{option}: {key}={}: a word beginning with # starts a shell comment; quote it, such as '#1'", crate::notation::quote::shown(.value))]
    Comment {
        /// The option.
        option: String,
        /// The key.
        key: String,
        /// The value as written.
        value: String,
    },
    /// A value that parses but breaks a rule checked elsewhere (such as the SPRT's, in
    /// [`SprtSpec::new`](crate::stats::SprtSpec::new)).
    #[error("{option}: {key}={} is not valid: {reason}", crate::notation::quote::shown(.value))]
    Invalid {
        /// The option.
        option: String,
        /// The key.
        key: String,
        /// The value given.
        value: String,
        /// The rule it breaks, in words.
        reason: String,
    },
}

/// The parsed pairs of one option, checked against the keys it allows; values are taken out one by one with
/// [`KeyValues::take`] and friends.
#[derive(Debug, Clone)]
pub struct KeyValues {
    option: String,
    pairs: Vec<(String, String)>,
}

impl KeyValues {
    /// Splits `text` into `key=value` pairs for `option` (used in messages) and checks every key against
    /// `allowed`; an allowed entry ending in `.*` (such as `option.*`) admits every key with that prefix and a
    /// non-empty rest (`option.Skill Level`).
    ///
    /// # Errors
    /// [`KeyValueError::Empty`], [`KeyValueError::Malformed`] for an item without `=` or with an empty key,
    /// [`KeyValueError::Duplicate`] and [`KeyValueError::Unknown`].
    ///
    /// # Examples
    /// ```
    /// use arbiter::notation::kv::KeyValues;
    /// let mut kv = KeyValues::parse("--draw", "movenumber=40,score=10", &["movenumber", "movecount", "score"])
    ///     .unwrap();
    /// assert_eq!(kv.take::<u32>("movenumber", "a whole number").unwrap(), Some(40));
    /// assert_eq!(kv.take::<u32>("movecount", "a whole number").unwrap(), None);
    /// assert!(KeyValues::parse("--draw", "moves=4", &["score"]).is_err());
    /// ```
    pub fn parse(option: &str, text: &str, allowed: &[&str]) -> Result<KeyValues, KeyValueError> {
        KeyValues::parse_quoted(option, text, allowed, &[])
    }

    /// [`KeyValues::parse`], where the value of a key in `quoted` (patterns as in `allowed`) may be quoted: a
    /// value that begins with `"` or `'` is read in POSIX shell quoting up to the first `,` outside quotes and
    /// unquoted by `shlex` (`'a,b'`, `"a b"`, `"say \"hi\""`, `'it'\''s'`); it must be one shell word. Other
    /// values are taken as written (trimmed), quotes and backslashes included.
    ///
    /// # Errors
    /// As [`KeyValues::parse`]; besides, [`KeyValueError::Unbalanced`] naming the character where a quote
    /// opens that is never closed, and [`KeyValueError::NotOneWord`].
    ///
    /// # Examples
    /// ```
    /// use arbiter::notation::kv::KeyValues;
    /// let keys = ["name", "cmd", "option.*"];
    /// let kv = KeyValues::parse_quoted("--engine", r#"name=sf,option.SyzygyPath="/a,/b",cmd='/my engines/sf'"#,
    ///     &keys, &["cmd", "option.*"]).unwrap();
    /// assert_eq!(kv.text("option.SyzygyPath"), Some("/a,/b"));
    /// assert_eq!(kv.text("cmd"), Some("/my engines/sf"));
    /// let err = KeyValues::parse_quoted("--engine", "cmd='sf,name=x", &keys, &["cmd"]).unwrap_err();
    /// assert!(err.to_string().contains("at character 5"), "{err}");
    /// ```
    pub fn parse_quoted(
        option: &str,
        text: &str,
        allowed: &[&str],
        quoted: &[&str],
    ) -> Result<KeyValues, KeyValueError> {
        let option_name = || option.to_string();
        if text.trim().is_empty() {
            return Err(KeyValueError::Empty { option: option_name() });
        }
        let mut pairs: Vec<(String, String)> = Vec::new();
        let mut start = 0;
        while start <= text.len() {
            let rest = &text[start..];
            let item_end = rest.find(',').map_or(text.len(), |i| start + i);
            let Some(eq) = rest.find('=').map(|i| start + i).filter(|&eq| eq < item_end) else {
                let item = text[start..item_end].trim();
                return Err(KeyValueError::Malformed { option: option_name(), item: item.to_string() });
            };
            let key = text[start..eq].trim();
            let value_start = eq + 1 + (text[eq + 1..].len() - text[eq + 1..].trim_start().len());
            let is_quoted = matches!(text[value_start..].chars().next(), Some('"' | '\''))
                && quoted.iter().any(|&pattern| admits(pattern, key));
            let (value, end) = if is_quoted {
                let end = shell_word_end(option, text, value_start)?;
                (unquote(option, key, text[value_start..end].trim_end())?, end)
            } else {
                (text[value_start..item_end].trim().to_string(), item_end)
            };
            if key.is_empty() {
                let item = text[start..end].trim();
                return Err(KeyValueError::Malformed { option: option_name(), item: item.to_string() });
            }
            let value = value.as_str();
            if !allowed.iter().any(|&pattern| admits(pattern, key)) {
                return Err(KeyValueError::Unknown {
                    option: option_name(),
                    key: key.to_string(),
                    expected: allowed.join(", "),
                });
            }
            if pairs.iter().any(|(k, _)| k == key) {
                return Err(KeyValueError::Duplicate { option: option_name(), key: key.to_string() });
            }
            pairs.push((key.to_string(), value.to_string()));
            start = end + 1;
        }
        Ok(KeyValues { option: option.to_string(), pairs })
    }

    /// The value of `key` split into words as a POSIX shell splits them (by `shlex`): at spaces outside
    /// quotes, quotes removed (`--threads 1 'a b'` is `--threads`, `1`, `a b`); `None` when the key is absent.
    ///
    /// # Errors
    /// [`KeyValueError::Unbalanced`] (naming `option key=` and the character in the value), and
    /// [`KeyValueError::Comment`] for a word beginning with `#`, which the shell would drop with the rest.
    ///
    /// # Examples
    /// ```
    /// use arbiter::notation::kv::KeyValues;
    /// let kv = KeyValues::parse_quoted("--engine", r#"args="--threads 1 'a b'""#, &["args"], &["args"]).unwrap();
    /// assert_eq!(kv.words("args").unwrap().unwrap(), ["--threads", "1", "a b"]);
    /// ```
    pub fn words(&self, key: &str) -> Result<Option<Vec<String>>, KeyValueError> {
        let Some(value) = self.text(key) else { return Ok(None) };
        let option = format!("{} {key}=", self.option);
        shell_end(&option, value, 0, false)?;
        let words = shlex::split(value).ok_or_else(|| KeyValueError::Unbalanced {
            option: option.clone(),
            text: value.to_string(),
            position: 1,
            problem: "the quoting is not valid shell quoting",
        })?;
        // The shell drops a word that begins with `#` and the rest of the line: refuse what would be lost.
        if words.iter().map(|w| w.matches('#').count()).sum::<usize>() != value.matches('#').count() {
            return Err(KeyValueError::Comment {
                option: self.option.clone(),
                key: key.to_string(),
                value: value.to_string(),
            });
        }
        Ok(Some(words))
    }

    /// The raw text of `key`, if given.
    pub fn text(&self, key: &str) -> Option<&str> {
        self.pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// The value of `key` parsed as `T`, or `None` when the key is absent; `expected` describes a valid value
    /// for the error message.
    ///
    /// # Errors
    /// [`KeyValueError::BadValue`] when the value does not parse.
    pub fn take<T: FromStr>(&mut self, key: &str, expected: &str) -> Result<Option<T>, KeyValueError> {
        match self.text(key) {
            None => Ok(None),
            Some(value) => value.parse::<T>().map(Some).map_err(|_| self.bad_value(key, expected)),
        }
    }

    /// The value of `key` parsed as `T`.
    ///
    /// # Errors
    /// [`KeyValueError::Missing`] when the key is absent, [`KeyValueError::BadValue`] when it does not parse.
    pub fn require<T: FromStr>(&mut self, key: &str, expected: &str) -> Result<T, KeyValueError> {
        self.take(key, expected)?
            .ok_or_else(|| KeyValueError::Missing { option: self.option.clone(), key: key.to_string() })
    }

    /// Every `(key, value)` whose key starts with `prefix`, with the prefix removed, in the order given.
    pub fn with_prefix(&self, prefix: &str) -> Vec<(String, String)> {
        self.pairs.iter().filter_map(|(k, v)| Some((k.strip_prefix(prefix)?.to_string(), v.clone()))).collect()
    }

    /// Every key given, in order.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.pairs.iter().map(|(k, _)| k.as_str())
    }

    /// The option's name, as used in messages (`--engine`).
    pub fn option(&self) -> &str {
        &self.option
    }

    /// A [`KeyValueError::Invalid`] for `key` with the value given: it breaks the rule `reason`.
    pub fn invalid(&self, key: &str, reason: &str) -> KeyValueError {
        KeyValueError::Invalid {
            option: self.option.clone(),
            key: key.to_string(),
            value: self.text(key).unwrap_or("").to_string(),
            reason: reason.to_string(),
        }
    }

    /// A [`KeyValueError::BadValue`] for `key` with the value given, for checks beyond parsing (ranges).
    pub fn bad_value(&self, key: &str, expected: &str) -> KeyValueError {
        KeyValueError::BadValue {
            option: self.option.clone(),
            key: key.to_string(),
            value: self.text(key).unwrap_or("").to_string(),
            expected: expected.to_string(),
        }
    }
}

/// Whether the key pattern `pattern` admits `key`: equal, or, for a pattern ending in `.*` (`option.*`), with
/// that prefix and a non-empty rest.
fn admits(pattern: &str, key: &str) -> bool {
    match pattern.strip_suffix('*') {
        Some(prefix) => key.len() > prefix.len() && key.starts_with(prefix),
        None => pattern == key,
    }
}

/// Where a shell scan of `text` from byte `from` ended (see [`shell_end`]).
struct ShellEnd {
    /// The byte where the scan stopped: a `,` outside quotes, or the end of the text.
    end: usize,
    /// The byte of the first space or tab outside quotes, if any.
    first_space: Option<usize>,
}

/// Scans `text` from byte `from` in POSIX shell quoting, the rules `shlex` reads (`'...'` quotes everything;
/// `"..."` quotes all but `\"` and `\\`; a backslash outside quotes escapes the next character), up to the
/// first `,` outside quotes when `at_comma`, else to the end.
///
/// # Errors
/// [`KeyValueError::Unbalanced`] for `option` when the text ends inside a quote (naming the character where it
/// opens) or right after a backslash.
fn shell_end(option: &str, text: &str, from: usize, at_comma: bool) -> Result<ShellEnd, KeyValueError> {
    let unbalanced = |byte: usize, problem| KeyValueError::Unbalanced {
        option: option.to_string(),
        text: text.to_string(),
        position: text[..byte].chars().count() + 1,
        problem,
    };
    let mut first_space = None;
    let mut chars = text[from..].char_indices().map(|(i, c)| (from + i, c));
    while let Some((i, c)) = chars.next() {
        match c {
            ',' if at_comma => return Ok(ShellEnd { end: i, first_space }),
            ' ' | '\t' => {
                first_space.get_or_insert(i);
            }
            '\\' => {
                chars.next().ok_or_else(|| unbalanced(i, "a backslash escapes nothing"))?;
            }
            '\'' => loop {
                match chars.next() {
                    Some((_, '\'')) => break,
                    Some(_) => {}
                    None => return Err(unbalanced(i, "the quote ' is never closed")),
                }
            },
            '"' => loop {
                match chars.next() {
                    Some((_, '"')) => break,
                    Some((_, '\\')) => {
                        chars.next();
                    }
                    Some(_) => {}
                    None => return Err(unbalanced(i, "the quote \" is never closed")),
                }
            },
            _ => {}
        }
    }
    Ok(ShellEnd { end: text.len(), first_space })
}

/// The end (byte) of the quoted value that begins at byte `from` of the option text `text`: the first `,`
/// outside quotes, or the end.
fn shell_word_end(option: &str, text: &str, from: usize) -> Result<usize, KeyValueError> {
    shell_end(option, text, from, true).map(|scan| scan.end)
}

/// The quoted value `word` of `key` unquoted by `shlex`; it must be one shell word.
fn unquote(option: &str, key: &str, word: &str) -> Result<String, KeyValueError> {
    let not_one_word =
        || KeyValueError::NotOneWord { option: option.to_string(), key: key.to_string(), value: word.to_string() };
    if shell_end(option, word, 0, false)?.first_space.is_some() {
        return Err(not_one_word());
    }
    match shlex::split(word).as_deref() {
        Some([one]) => Ok(one.clone()),
        _ => Err(not_one_word()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEYS: &[&str] = &["name", "config"];

    #[test]
    fn pairs_are_split_at_the_first_equals_sign() {
        let kv = KeyValues::parse("--engine", "name=a=b, config = x.toml", KEYS).unwrap();
        assert_eq!(kv.text("name"), Some("a=b"));
        assert_eq!(kv.text("config"), Some("x.toml"));
    }

    #[test]
    fn errors_name_the_option_and_key() {
        let err = KeyValues::parse("--engine", "name=a,hash=16", KEYS).unwrap_err();
        assert_eq!(
            err,
            KeyValueError::Unknown { option: "--engine".into(), key: "hash".into(), expected: "name, config".into() }
        );
        assert_eq!(err.to_string(), "--engine: unknown key `hash`, expected one of: name, config");
        assert!(matches!(
            KeyValues::parse("--engine", "name=a,name=b", KEYS),
            Err(KeyValueError::Duplicate { key, .. }) if key == "name"
        ));
        assert!(matches!(
            KeyValues::parse("--engine", "seed", KEYS),
            Err(KeyValueError::Malformed { item, .. }) if item == "seed"
        ));
        assert!(matches!(KeyValues::parse("--engine", "=x", KEYS), Err(KeyValueError::Malformed { .. })));
        assert!(matches!(KeyValues::parse("--engine", "name=a,", KEYS), Err(KeyValueError::Malformed { .. })));
        assert!(matches!(KeyValues::parse("--engine", " ", KEYS), Err(KeyValueError::Empty { .. })));
    }

    #[test]
    fn typed_values() {
        let mut kv =
            KeyValues::parse("--draw", "movenumber=x,score=-3", &["movenumber", "score", "movecount"]).unwrap();
        assert_eq!(kv.require::<i32>("score", "centipawns").unwrap(), -3);
        let err = kv.require::<u32>("movenumber", "a whole number").unwrap_err();
        assert_eq!(err.to_string(), "--draw: movenumber=\"x\" is not valid, expected a whole number");
        assert!(matches!(
            kv.require::<u32>("movecount", "a whole number"),
            Err(KeyValueError::Missing { key, .. }) if key == "movecount"
        ));
    }

    const ENGINE: &[&str] = &["name", "cmd", "args", "option.*"];
    const QUOTED: &[&str] = &["cmd", "args", "option.*"];

    fn quoted(text: &str) -> Result<KeyValues, KeyValueError> {
        KeyValues::parse_quoted("--engine", text, ENGINE, QUOTED)
    }

    #[test]
    fn quoted_values_hold_commas_and_spaces() {
        let kv = quoted(r#"name=sf, option.SyzygyPath="/a,/b" ,cmd='/opt/my engine/bin',option.Hash=16"#).unwrap();
        assert_eq!(kv.text("option.SyzygyPath"), Some("/a,/b"));
        assert_eq!(kv.text("cmd"), Some("/opt/my engine/bin"));
        assert_eq!(kv.text("option.Hash"), Some("16"));
        assert_eq!(kv.keys().collect::<Vec<_>>(), ["name", "option.SyzygyPath", "cmd", "option.Hash"]);
        // Shell rules inside the word: escapes in double quotes, adjacent quoted parts, spaces kept.
        let kv = quoted(r#"option.A="say \"hi\", \\o/",option.B='it'\''s',option.C=" x ",option.D="""#).unwrap();
        assert_eq!(kv.text("option.A"), Some(r#"say "hi", \o/"#));
        assert_eq!(kv.text("option.B"), Some("it's"));
        assert_eq!(kv.text("option.C"), Some(" x "));
        assert_eq!(kv.text("option.D"), Some(""));
        // Values that do not begin with a quote, and keys that are not quoted, are taken as written.
        let kv = quoted(r#"name="seed",option.X=it's,cmd=C:\e\sf"#).unwrap();
        assert_eq!(kv.text("name"), Some("\"seed\""));
        assert_eq!(kv.text("option.X"), Some("it's"));
        assert_eq!(kv.text("cmd"), Some("C:\\e\\sf"));
        // Without quoted keys nothing changes.
        let kv = KeyValues::parse("--engine", r#"cmd="a"#, ENGINE).unwrap();
        assert_eq!(kv.text("cmd"), Some("\"a"));
    }

    #[test]
    fn unbalanced_quotes_name_the_position() {
        let err = quoted("name=sf,option.SyzygyPath=\"/a,/b").unwrap_err();
        assert_eq!(
            err,
            KeyValueError::Unbalanced {
                option: "--engine".into(),
                text: "name=sf,option.SyzygyPath=\"/a,/b".into(),
                position: 27,
                problem: "the quote \" is never closed",
            }
        );
        assert_eq!(
            err.to_string(),
            r#"--engine: the quote " is never closed at character 27 of "name=sf,option.SyzygyPath=\"/a,/b""#
        );
        let err = quoted("cmd='a\"b,name=x").unwrap_err();
        assert!(matches!(err, KeyValueError::Unbalanced { position: 5, .. }), "{err}");
        let err = quoted("cmd=\"a\"\\").unwrap_err();
        assert!(matches!(err, KeyValueError::Unbalanced { position: 8, problem: "a backslash escapes nothing", .. }));
        // A space outside the quotes: more than one word.
        let err = quoted(r#"cmd="a" "b",name=x"#).unwrap_err();
        assert!(matches!(&err, KeyValueError::NotOneWord { key, .. } if key == "cmd"), "{err}");
        assert!(err.to_string().contains("quote the whole value"), "{err}");
        let err = quoted(r#"cmd="a" #b"#).unwrap_err();
        assert!(matches!(err, KeyValueError::NotOneWord { .. }), "{err}");
    }

    #[test]
    fn words_split_as_a_shell_does() {
        let words = |text: &str| quoted(text).and_then(|kv| kv.words("args"));
        assert_eq!(words(r#"args="--threads 1 'a b'""#).unwrap().unwrap(), ["--threads", "1", "a b"]);
        assert_eq!(words("args=-a  b").unwrap().unwrap(), ["-a", "b"]);
        assert_eq!(words("args=--x 'a b' \"c d\"").unwrap().unwrap(), ["--x", "a b", "c d"]);
        assert_eq!(words("args=a '#1' a#b").unwrap().unwrap(), ["a", "#1", "a#b"]);
        // A value that begins with a quote is one word: the whole value goes in the quotes.
        assert!(matches!(words("args='a b' c"), Err(KeyValueError::NotOneWord { .. })));
        assert_eq!(words("args=").unwrap().unwrap(), Vec::<String>::new());
        assert_eq!(words("name=x").unwrap(), None);
        let err = words("args=it's").unwrap_err();
        assert_eq!(err.to_string(), r#"--engine args=: the quote ' is never closed at character 3 of "it's""#);
        let err = words("args=-x #1").unwrap_err();
        assert!(matches!(err, KeyValueError::Comment { .. }), "{err}");
    }

    proptest::proptest! {
        #[test]
        fn no_text_panics(text in "[a-z=,'\"\\\\ #.]{0,24}") {
            if let Ok(kv) = quoted(&text) {
                let _ = kv.words("args");
            }
        }
    }
}
