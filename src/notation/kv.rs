//! `key=value,key=value` option text (cutechess-cli's flag syntax, game-independent), as in `--engine name=seed,config=configs/seed.toml` or
//! `--draw movenumber=40,movecount=8,score=10`.
//!
//! Items are separated by `,` and split at their first `=`; keys are case-sensitive and may not repeat. A
//! value cannot itself contain a `,`.

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
        let option_name = || option.to_string();
        if text.trim().is_empty() {
            return Err(KeyValueError::Empty { option: option_name() });
        }
        let mut pairs: Vec<(String, String)> = Vec::new();
        for item in text.split(',') {
            let item = item.trim();
            let Some((key, value)) = item.split_once('=') else {
                return Err(KeyValueError::Malformed { option: option_name(), item: item.to_string() });
            };
            let (key, value) = (key.trim(), value.trim());
            if key.is_empty() {
                return Err(KeyValueError::Malformed { option: option_name(), item: item.to_string() });
            }
            let admitted = allowed.iter().any(|&a| match a.strip_suffix('*') {
                Some(prefix) => key.len() > prefix.len() && key.starts_with(prefix),
                None => a == key,
            });
            if !admitted {
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
        }
        Ok(KeyValues { option: option.to_string(), pairs })
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
}
