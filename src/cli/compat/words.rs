//! The argument syntax of cutechess-cli and fastchess: single-dash options, each followed by its value words
//! (`-engine cmd=sf name=A tc=10+0.1 -games 2`), the values often `key=value`.

use std::fmt;

/// One option with its value words, as given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionWords {
    /// The option's name without its dashes (`engine`).
    pub name: String,
    /// The words after it, up to the next option.
    pub values: Vec<String>,
}

impl fmt::Display for OptionWords {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "-{}", self.name)
    }
}

/// Whether `word` starts an option: a dash (or two) then a letter, so that `-5` (a value) does not.
fn is_option(word: &str) -> bool {
    let name = word.strip_prefix("--").or_else(|| word.strip_prefix('-'));
    name.and_then(|n| n.chars().next()).is_some_and(|c| c.is_ascii_alphabetic())
}

/// Splits the words of a command line into options with their values.
///
/// # Errors
/// A first word that is not an option (`expected an option such as -engine, got "x"`).
pub fn group(words: &[String]) -> Result<Vec<OptionWords>, String> {
    let mut options: Vec<OptionWords> = Vec::new();
    for word in words {
        if is_option(word) {
            let name = word.trim_start_matches('-').to_string();
            options.push(OptionWords { name, values: Vec::new() });
        } else {
            match options.last_mut() {
                Some(option) => option.values.push(word.clone()),
                None => return Err(format!("expected an option such as -engine, got {word:?}")),
            }
        }
    }
    Ok(options)
}

/// The `key=value` words of an option; a word without `=` (cutechess's `ponder`, `whitepov`, `min`) has an
/// empty value and `flag` set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pair {
    /// The key.
    pub key: String,
    /// The value (empty for a flag word).
    pub value: String,
    /// Whether the word had no `=`.
    pub flag: bool,
}

/// The `key=value` words of `option` (split at the first `=`).
pub fn pairs(option: &OptionWords) -> Vec<Pair> {
    option
        .values
        .iter()
        .map(|word| match word.split_once('=') {
            Some((key, value)) => Pair { key: key.to_string(), value: value.to_string(), flag: false },
            None => Pair { key: word.clone(), value: String::new(), flag: true },
        })
        .collect()
}

/// A boolean value as both tools write it: `true`/`false` (also `on`/`off`, `1`/`0`).
pub fn boolean(option: &str, pair: &Pair) -> Result<bool, String> {
    match pair.value.as_str() {
        "true" | "on" | "1" => Ok(true),
        "false" | "off" | "0" => Ok(false),
        other => Err(format!("-{option} {}={other}: expected true or false", pair.key)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn options_take_the_words_up_to_the_next_option() {
        let options =
            group(&words("-engine cmd=a name=A -draw movenumber=40 score=-5 -recover --compliance x")).unwrap();
        let names: Vec<&str> = options.iter().map(|o| o.name.as_str()).collect();
        assert_eq!(names, ["engine", "draw", "recover", "compliance"]);
        assert_eq!(options[1].values, ["movenumber=40", "score=-5"]);
        assert!(options[2].values.is_empty());
        assert_eq!(group(&words("cmd=a -engine")).unwrap_err(), "expected an option such as -engine, got \"cmd=a\"");
        let p = pairs(&options[0]);
        assert_eq!((p[0].key.as_str(), p[0].value.as_str(), p[0].flag), ("cmd", "a", false));
        let p = pairs(&OptionWords { name: "e".into(), values: vec!["option.X=a=b".into(), "ponder".into()] });
        assert_eq!((p[0].key.as_str(), p[0].value.as_str()), ("option.X", "a=b"));
        assert!(p[1].flag);
    }
}
