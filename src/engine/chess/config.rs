//! Engine configurations: a name, search settings and every evaluation weight, read from and written to TOML.
//!
//! The format (unknown keys are rejected so that a misspelt weight cannot pass silently):
//!
//! ```toml
//! name = "seed"
//! [search]
//! hash_mb = 16            # required, MiB
//! null_move = true        # optional switches (SearchOptions::KEYS), default true
//! [weights]               # the seed terms, used in both phases: every key required
//! material = [100, 305, 333, 563, 950]   # P N B R Q, centipawns
//! mobility = [9, 4, 3, 3]                # N B R Q, per target square
//! doubled_pawn = -25
//! connected_pawn = 12
//! pawn_advance = [0, 0, 0, 0, 10, 20, 30, 0]
//! passed_pawn = [0, 50, 50, 50, 70, 90, 110, 0]
//! castling_lost = -50
//! pawn_shield = 33
//! bishop_pair = 50
//! mopup_proximity = 10
//! mopup_centre = 10
//! [weights.mg]            # optional: middlegame values added to the above, one key per feature, default 0
//! tempo = 10
//! psqt_knight = [...]     # 64 values, a1..h8 from White's view (mirrored for Black)
//! [weights.eg]            # optional: endgame values, the same keys
//! passed_pawn = [0, 0, 0, 10, 20, 40, 60, 0]
//! ```
//!
//! The keys of `[weights.mg]` and `[weights.eg]` are those of [`crate::engine::chess::weights::FEATURES`]: the seed
//! terms above plus `psqt_pawn` .. `psqt_king`, `king_zone_attacks`, `rook_open_file`, `rook_semi_open_file`,
//! `isolated_pawn`, `backward_pawn` and `tempo`. Configs written before the tapered evaluation (without the
//! sub-tables) keep loading with every added value zero.

use super::options::SearchOptions;
use super::weights::{BASE_FIELDS, FEATURES, NUM_BASE, NUM_FEATURES, Weights};
use std::path::Path;
use thiserror::Error;

/// The largest transposition table a config may ask for, in MiB (4 GiB). A match runs one table per engine
/// per worker thread, so larger tables multiply quickly past the machine's memory.
pub const MAX_HASH_MB: usize = 4096;

/// What is wrong with a config file. Every variant names the file (or other origin) and, where it applies,
/// the dotted key (`weights.mobility`) and what was expected.
#[derive(Debug, Error)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("{file}: cannot read: {source}")]
    Io {
        /// The file.
        file: String,
        /// The operating-system error.
        source: std::io::Error,
    },
    /// The text is not valid TOML.
    #[error("{file}:{line}: TOML syntax error: {message}")]
    Syntax {
        /// The file.
        file: String,
        /// The line of the error, 1-based (0 when the parser gives no position).
        line: usize,
        /// The parser's message.
        message: String,
    },
    /// A key that the format does not have (for example a misspelt weight name).
    #[error("{file}: unknown key `{key}`")]
    UnknownKey {
        /// The file.
        file: String,
        /// The dotted key.
        key: String,
    },
    /// A required key is absent.
    #[error("{file}: missing key `{key}`")]
    MissingKey {
        /// The file.
        file: String,
        /// The dotted key.
        key: String,
    },
    /// An array of weights has the wrong number of values.
    #[error("{file}: key `{key}` has {found} values, expected {expected}")]
    WrongLength {
        /// The file.
        file: String,
        /// The dotted key.
        key: String,
        /// The number of values the format wants.
        expected: usize,
        /// The number found.
        found: usize,
    },
    /// A value of the wrong TOML type.
    #[error("{file}: key `{key}` is {found}, expected {expected}")]
    WrongType {
        /// The file.
        file: String,
        /// The dotted key (with `[i]` for an array element).
        key: String,
        /// The type wanted.
        expected: &'static str,
        /// The TOML type found.
        found: &'static str,
    },
    /// An integer outside its allowed range.
    #[error("{file}: key `{key}` = {value} is out of range, expected {expected}")]
    OutOfRange {
        /// The file.
        file: String,
        /// The dotted key (with `[i]` for an array element).
        key: String,
        /// The value found.
        value: i64,
        /// The allowed range, in words.
        expected: &'static str,
    },
}

/// One engine build: a name, its search settings and its evaluation weights.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// The name used in match output and PGN tags.
    pub name: String,
    /// Transposition table size in MiB (1 to [`MAX_HASH_MB`]).
    pub hash_mb: usize,
    /// The evaluation weights, centipawns.
    pub weights: Weights,
    /// Search features switched on or off (all on by default).
    pub search: SearchOptions,
}

impl EngineConfig {
    /// The built-in seed configuration (name `seed`, 16 MiB hash, [`Weights::seed`]), the same as
    /// `configs/seed.toml`, so that the engine runs without files.
    pub fn seed() -> EngineConfig {
        EngineConfig { name: "seed".to_string(), hash_mb: 16, weights: Weights::seed(), search: Default::default() }
    }

    /// Reads a config file.
    ///
    /// # Errors
    /// [`ConfigError::Io`] when the file cannot be read, otherwise as [`EngineConfig::from_toml_str`] with the
    /// path as origin.
    pub fn load(path: impl AsRef<Path>) -> Result<EngineConfig, ConfigError> {
        let path = path.as_ref();
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Io { file: file.clone(), source })?;
        EngineConfig::from_toml_str(&text, &file)
    }

    /// Parses a config from TOML text; `origin` (a file name or a description) is quoted in errors.
    ///
    /// # Errors
    /// [`ConfigError::Syntax`] for invalid TOML, [`ConfigError::UnknownKey`], [`ConfigError::MissingKey`],
    /// [`ConfigError::WrongLength`] for weight arrays of the wrong size, [`ConfigError::WrongType`], and
    /// [`ConfigError::OutOfRange`] for weights outside `i32` or a hash size outside 1..=[`MAX_HASH_MB`].
    pub fn from_toml_str(text: &str, origin: &str) -> Result<EngineConfig, ConfigError> {
        let file = || origin.to_string();
        let root: toml::Table = text.parse().map_err(|e: toml::de::Error| ConfigError::Syntax {
            file: file(),
            line: e.span().map_or(0, |s| line_of(text, s.start)),
            message: e.message().trim().to_string(),
        })?;
        let reader = Reader { file: origin };
        reader.only_keys(&root, "", &["name", "search", "weights"])?;

        let name = match reader.get(&root, "", "name")? {
            toml::Value::String(s) => s.clone(),
            other => return Err(reader.wrong_type("name", "a string", other)),
        };

        let search_table = reader.table(&root, "", "search")?;
        let mut search_keys = vec!["hash_mb"];
        search_keys.extend(SearchOptions::KEYS);
        reader.only_keys(search_table, "search.", &search_keys)?;
        let hash = reader.integer(reader.get(search_table, "search.", "hash_mb")?, "search.hash_mb")?;
        if !(1..=MAX_HASH_MB as i64).contains(&hash) {
            return Err(ConfigError::OutOfRange {
                file: file(),
                key: "search.hash_mb".to_string(),
                value: hash,
                expected: "1 to 4096 (MiB)",
            });
        }
        let mut search = SearchOptions::default();
        for key in SearchOptions::KEYS {
            if let Some(value) = search_table.get(key) {
                let toml::Value::Boolean(on) = value else {
                    return Err(reader.wrong_type(&format!("search.{key}"), "a boolean", value));
                };
                *search.switch_mut(key).expect("a key of SearchOptions::KEYS") = *on;
            }
        }

        let table = reader.table(&root, "", "weights")?;
        let mut names: Vec<&str> = BASE_FIELDS.iter().map(|f| f.0).collect();
        names.extend(["mg", "eg"]);
        reader.only_keys(table, "weights.", &names)?;
        let mut base = Vec::with_capacity(NUM_BASE);
        for &(key, len) in BASE_FIELDS {
            let value = reader.get(table, "weights.", key)?;
            reader.values(value, &format!("weights.{key}"), len, &mut base)?;
        }
        let mut weights = Weights::zero();
        for (layer, out) in [("mg", &mut weights.mg), ("eg", &mut weights.eg)] {
            let Some(value) = table.get(layer) else { continue };
            let prefix = format!("weights.{layer}.");
            let toml::Value::Table(sub) = value else {
                return Err(reader.wrong_type(&format!("weights.{layer}"), "a table", value));
            };
            let names: Vec<&str> = FEATURES.iter().map(|f| f.0).collect();
            reader.only_keys(sub, &prefix, &names)?;
            let mut flat = Vec::with_capacity(NUM_FEATURES);
            for &(key, len) in FEATURES {
                match sub.get(key) {
                    Some(value) => reader.values(value, &format!("{prefix}{key}"), len, &mut flat)?,
                    None => flat.extend(std::iter::repeat_n(0, len)),
                }
            }
            out.copy_from_slice(&flat);
        }
        let mut flat = weights.to_vec();
        flat[..NUM_BASE].copy_from_slice(&base);
        let weights = Weights::from_vec(&flat).expect("one value per weight was read");
        Ok(EngineConfig { name, hash_mb: hash as usize, weights, search })
    }

    /// The config as TOML text in the format that [`EngineConfig::from_toml_str`] reads.
    pub fn to_toml(&self) -> String {
        let name = toml::Value::String(self.name.clone());
        let mut out = format!("name = {name}\n[search]\nhash_mb = {}\n", self.hash_mb);
        for key in SearchOptions::KEYS {
            let on = self.search.switch(key).expect("a key of SearchOptions::KEYS");
            out.push_str(&format!("{key} = {on}\n"));
        }
        out.push_str(&self.weights.to_toml());
        out
    }
}

/// The 1-based line of byte offset `at` in `text`.
fn line_of(text: &str, at: usize) -> usize {
    text.as_bytes()[..at.min(text.len())].iter().filter(|&&b| b == b'\n').count() + 1
}

/// Reads values out of the parsed table, turning every problem into a [`ConfigError`] that names the file.
struct Reader<'a> {
    file: &'a str,
}

impl Reader<'_> {
    fn only_keys(&self, table: &toml::Table, prefix: &str, allowed: &[&str]) -> Result<(), ConfigError> {
        match table.keys().find(|k| !allowed.contains(&k.as_str())) {
            Some(k) => Err(ConfigError::UnknownKey { file: self.file.to_string(), key: format!("{prefix}{k}") }),
            None => Ok(()),
        }
    }

    fn get<'t>(&self, table: &'t toml::Table, prefix: &str, key: &str) -> Result<&'t toml::Value, ConfigError> {
        table
            .get(key)
            .ok_or_else(|| ConfigError::MissingKey { file: self.file.to_string(), key: format!("{prefix}{key}") })
    }

    fn table<'t>(&self, table: &'t toml::Table, prefix: &str, key: &str) -> Result<&'t toml::Table, ConfigError> {
        match self.get(table, prefix, key)? {
            toml::Value::Table(t) => Ok(t),
            other => Err(self.wrong_type(&format!("{prefix}{key}"), "a table", other)),
        }
    }

    fn integer(&self, value: &toml::Value, key: &str) -> Result<i64, ConfigError> {
        match value {
            toml::Value::Integer(i) => Ok(*i),
            other => Err(self.wrong_type(key, "an integer", other)),
        }
    }

    /// Appends the `len` weights of `value` (an integer when `len` is 1, else an array of `len` integers)
    /// to `out`.
    fn values(&self, value: &toml::Value, key: &str, len: usize, out: &mut Vec<i32>) -> Result<(), ConfigError> {
        if len == 1 {
            out.push(self.weight(value, key)?);
            return Ok(());
        }
        let toml::Value::Array(items) = value else {
            return Err(self.wrong_type(key, "an array of integers", value));
        };
        if items.len() != len {
            return Err(ConfigError::WrongLength {
                file: self.file.to_string(),
                key: key.to_string(),
                expected: len,
                found: items.len(),
            });
        }
        for (i, item) in items.iter().enumerate() {
            out.push(self.weight(item, &format!("{key}[{i}]"))?);
        }
        Ok(())
    }

    fn weight(&self, value: &toml::Value, key: &str) -> Result<i32, ConfigError> {
        let v = self.integer(value, key)?;
        i32::try_from(v).map_err(|_| ConfigError::OutOfRange {
            file: self.file.to_string(),
            key: key.to_string(),
            value: v,
            expected: "a 32-bit integer (centipawns)",
        })
    }

    fn wrong_type(&self, key: &str, expected: &'static str, found: &toml::Value) -> ConfigError {
        ConfigError::WrongType { file: self.file.to_string(), key: key.to_string(), expected, found: found.type_str() }
    }
}

/// One `key: a -> b` line per setting or weight that differs, in config order (`name`, `search.*`,
/// `weights.*`).
pub fn diff(a: &EngineConfig, b: &EngineConfig) -> Vec<String> {
    let mut lines = Vec::new();
    if a.name != b.name {
        lines.push(format!("name: {:?} -> {:?}", a.name, b.name));
    }
    if a.hash_mb != b.hash_mb {
        lines.push(format!("search.hash_mb: {} -> {}", a.hash_mb, b.hash_mb));
    }
    for key in super::SearchOptions::KEYS {
        let (x, y) = (a.search.switch(key), b.search.switch(key));
        if x != y {
            let show = |v: Option<bool>| v.map_or("?".to_string(), |v| v.to_string());
            lines.push(format!("search.{key}: {} -> {}", show(x), show(y)));
        }
    }
    let (va, vb) = (a.weights.to_vec(), b.weights.to_vec());
    for ((name, x), y) in Weights::names().iter().zip(va).zip(vb) {
        if x != y {
            lines.push(format!("weights.{name}: {x} -> {y}"));
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_round_trips_through_toml() {
        let seed = EngineConfig::seed();
        let text = seed.to_toml();
        let back = EngineConfig::from_toml_str(&text, "seed text").unwrap();
        assert_eq!(back, seed);
    }

    #[test]
    fn hash_sizes_stay_within_the_limit() {
        let text = |mb: i64| EngineConfig::seed().to_toml().replace("hash_mb = 16", &format!("hash_mb = {mb}"));
        assert_eq!(EngineConfig::from_toml_str(&text(4096), "big.toml").unwrap().hash_mb, MAX_HASH_MB);
        for mb in [0, 4097, 65_536] {
            let err = EngineConfig::from_toml_str(&text(mb), "big.toml").unwrap_err();
            assert!(
                matches!(&err, ConfigError::OutOfRange { key, value, .. } if key == "search.hash_mb" && *value == mb)
            );
            assert!(err.to_string().contains("expected 1 to 4096 (MiB)"), "{err}");
        }
    }

    #[test]
    fn syntax_error_has_a_line() {
        let err = EngineConfig::from_toml_str("name = \"x\"\n[search\nhash_mb = 1\n", "bad.toml").unwrap_err();
        match err {
            ConfigError::Syntax { file, line, .. } => {
                assert_eq!(file, "bad.toml");
                assert_eq!(line, 2);
            }
            other => panic!("expected a syntax error, got {other:?}"),
        }
    }

    #[test]
    fn diff_lists_changed_keys_only() {
        let (seed, nomob) = (
            crate::engine::registry::chess_config("seed").unwrap(),
            crate::engine::registry::chess_config("nomob").unwrap(),
        );
        assert!(diff(&seed, &seed).is_empty());
        let lines = diff(&seed, &nomob);
        assert_eq!(lines[0], "name: \"seed\" -> \"nomob\"");
        assert_eq!(lines[1], "weights.mobility[0]: 9 -> 0");
        assert_eq!(lines.len(), 5);
        let mut other = seed.clone();
        other.hash_mb = 32;
        other.search.lmr = false;
        other.weights.eg[crate::engine::chess::weights::index::TEMPO] = 5;
        assert_eq!(
            diff(&seed, &other),
            ["search.hash_mb: 16 -> 32", "search.lmr: true -> false", "weights.eg.tempo: 0 -> 5"]
        );
        assert!(
            crate::engine::registry::chess_config("/nonexistent/x.toml")
                .unwrap_err()
                .to_string()
                .contains("/nonexistent/x.toml")
        );
    }
}
