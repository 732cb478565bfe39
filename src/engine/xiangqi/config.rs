//! Xiangqi engine configurations: a name, the hash size and the evaluation weights by name, read from TOML.
//!
//! The format (unknown keys are rejected so that a misspelt weight cannot pass silently):
//!
//! ```toml
//! name = "seed"
//! [search]
//! hash_mb = 16             # required, MiB, 1..=4096
//! [material]               # required, every key: centipawns
//! advisor = 120
//! elephant = 120
//! horse = 270
//! chariot = 600
//! cannon = 285
//! soldier = 30             # on its own side of the river
//! soldier_crossed = 60     # across the river
//! [psqt]                   # optional, each key optional (default all 0): 90 values, a0..i9 from Red's view
//! horse = [0, 0, ...]      # (index = rank * 9 + file, rank 0 = Red's back rank), mirrored rank-wise for Black
//! ```
//!
//! The `[psqt]` keys are the piece names of [`PieceType::name`]: `general`, `advisor`, `elephant`, `horse`,
//! `chariot`, `cannon`, `soldier`.

use crate::xiangqi::types::{PieceType, SQUARES};
use serde::Deserialize;
use std::path::Path;
use thiserror::Error;

/// The largest transposition table a config may ask for, in MiB.
pub const MAX_HASH_MB: usize = 4096;

/// What is wrong with a Xiangqi config file; every variant names the file and, where it applies, the dotted key.
#[derive(Debug, Error)]
pub enum XiangqiConfigError {
    /// The file could not be read.
    #[error("{file}: cannot read: {source}")]
    Io {
        /// The file.
        file: String,
        /// The operating-system error.
        source: std::io::Error,
    },
    /// Not valid TOML, a missing or unknown key, or a value of the wrong type.
    #[error("{file}:{line}: {message}")]
    Syntax {
        /// The file.
        file: String,
        /// The line of the error, 1-based (0 when the parser gives no position).
        line: usize,
        /// The parser's message (it names the key).
        message: String,
    },
    /// A value out of range or a table of the wrong length.
    #[error("{file}: `{key}`: {message}")]
    Invalid {
        /// The file.
        file: String,
        /// The dotted key.
        key: String,
        /// What was expected.
        message: String,
    },
}

/// The evaluation weights, in centipawns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XiangqiWeights {
    /// Material per piece kind, indexed by [`PieceType::index`]; the general's entry is 0 (it is never captured).
    /// The soldier's entry is its value on its own side of the river.
    pub material: [i32; 7],
    /// A soldier's value once it has crossed the river.
    pub soldier_crossed: i32,
    /// Piece-square tables per piece kind, 90 values a0..i9 (index `rank * 9 + file`) from Red's view; Black reads
    /// the square mirrored rank-wise (rank `9 - r`).
    pub psqt: [[i32; SQUARES]; 7],
}

/// One Xiangqi engine build: its name, the hash size and the weights.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XiangqiConfig {
    /// The build's name in match output.
    pub name: String,
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// The evaluation weights.
    pub weights: XiangqiWeights,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    name: String,
    search: RawSearch,
    material: RawMaterial,
    #[serde(default)]
    psqt: RawPsqt,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSearch {
    hash_mb: usize,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMaterial {
    advisor: i32,
    elephant: i32,
    horse: i32,
    chariot: i32,
    cannon: i32,
    soldier: i32,
    soldier_crossed: i32,
}

#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPsqt {
    general: Option<Vec<i32>>,
    advisor: Option<Vec<i32>>,
    elephant: Option<Vec<i32>>,
    horse: Option<Vec<i32>>,
    chariot: Option<Vec<i32>>,
    cannon: Option<Vec<i32>>,
    soldier: Option<Vec<i32>>,
}

impl XiangqiConfig {
    /// The build as stable text: JSON with its name, hash size and every weight, in a fixed key order. A run's
    /// schedule fingerprint hashes it (never `Debug` output, which may change with the code).
    pub fn canonical_text(&self) -> String {
        let w = &self.weights;
        let psqt: Vec<Vec<i32>> = w.psqt.iter().map(|table| table.to_vec()).collect();
        serde_json::json!({
            "name": self.name,
            "hash_mb": self.hash_mb,
            "material": w.material.to_vec(),
            "soldier_crossed": w.soldier_crossed,
            "psqt": psqt,
        })
        .to_string()
    }

    /// Reads a config file.
    ///
    /// # Errors
    /// [`XiangqiConfigError::Io`] when the file cannot be read, otherwise those of [`XiangqiConfig::from_toml_str`].
    pub fn load(path: &Path) -> Result<XiangqiConfig, XiangqiConfigError> {
        let file = path.display().to_string();
        let text =
            std::fs::read_to_string(path).map_err(|source| XiangqiConfigError::Io { file: file.clone(), source })?;
        XiangqiConfig::from_toml_str(&text, &file)
    }

    /// The builds compiled into Arbiter, by name: `seed` (`configs/xiangqi/seed.toml`, material and
    /// piece-square tables) and `nopsqt` (`configs/xiangqi/nopsqt.toml`, the same material without tables);
    /// `None` for other names.
    pub fn builtin(name: &str) -> Option<XiangqiConfig> {
        let (text, file) = match name {
            "seed" => (include_str!("../../../configs/xiangqi/seed.toml"), "configs/xiangqi/seed.toml"),
            "nopsqt" => (include_str!("../../../configs/xiangqi/nopsqt.toml"), "configs/xiangqi/nopsqt.toml"),
            _ => return None,
        };
        Some(XiangqiConfig::from_toml_str(text, file).expect("the shipped configs are valid (tested)"))
    }

    /// Parses a config from TOML text; `file` names the origin in errors.
    ///
    /// # Errors
    /// [`XiangqiConfigError::Syntax`] for bad TOML or a missing, unknown or mistyped key (with its line);
    /// [`XiangqiConfigError::Invalid`] for `hash_mb` outside 1..=[`MAX_HASH_MB`], a negative material value or a
    /// table whose length is not 90.
    pub fn from_toml_str(text: &str, file: &str) -> Result<XiangqiConfig, XiangqiConfigError> {
        let raw: RawConfig = toml::from_str(text).map_err(|e| XiangqiConfigError::Syntax {
            file: file.to_string(),
            line: e.span().map_or(0, |s| text[..s.start.min(text.len())].matches('\n').count() + 1),
            message: e.message().to_string(),
        })?;
        let invalid = |key: &str, message: String| XiangqiConfigError::Invalid {
            file: file.to_string(),
            key: key.to_string(),
            message,
        };
        if !(1..=MAX_HASH_MB).contains(&raw.search.hash_mb) {
            return Err(invalid("search.hash_mb", format!("{} is not in 1..={MAX_HASH_MB}", raw.search.hash_mb)));
        }
        let m = &raw.material;
        let named = [
            ("advisor", m.advisor),
            ("elephant", m.elephant),
            ("horse", m.horse),
            ("chariot", m.chariot),
            ("cannon", m.cannon),
            ("soldier", m.soldier),
            ("soldier_crossed", m.soldier_crossed),
        ];
        for (key, value) in named {
            if !(0..=10_000).contains(&value) {
                return Err(invalid(&format!("material.{key}"), format!("{value} is not in 0..=10000")));
            }
        }
        let material = [0, m.advisor, m.elephant, m.horse, m.chariot, m.cannon, m.soldier];
        let p = raw.psqt;
        let tables = [p.general, p.advisor, p.elephant, p.horse, p.chariot, p.cannon, p.soldier];
        let mut psqt = [[0; SQUARES]; 7];
        for (kind, table) in PieceType::ALL.into_iter().zip(tables) {
            let Some(values) = table else { continue };
            let key = format!("psqt.{}", kind.name());
            if values.len() != SQUARES {
                return Err(invalid(&key, format!("{} values, expected {SQUARES} (a0..i9)", values.len())));
            }
            if let Some(v) = values.iter().find(|v| v.abs() > 10_000) {
                return Err(invalid(&key, format!("{v} is not in -10000..=10000")));
            }
            psqt[kind.index()].copy_from_slice(&values);
        }
        Ok(XiangqiConfig {
            name: raw.name,
            hash_mb: raw.search.hash_mb,
            weights: XiangqiWeights { material, soldier_crossed: m.soldier_crossed, psqt },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINIMAL: &str = "name = \"m\"\n[search]\nhash_mb = 1\n[material]\nadvisor = 120\nelephant = 120\n\
                           horse = 270\nchariot = 600\ncannon = 285\nsoldier = 30\nsoldier_crossed = 60\n";

    #[test]
    fn minimal_config_has_zero_tables() {
        let c = XiangqiConfig::from_toml_str(MINIMAL, "m.toml").unwrap();
        assert_eq!(c.weights.material, [0, 120, 120, 270, 600, 285, 30]);
        assert_eq!(c.weights.soldier_crossed, 60);
        assert!(c.weights.psqt.iter().all(|t| t.iter().all(|&v| v == 0)));
    }

    #[test]
    fn errors_name_the_key_and_line() {
        let bad = MINIMAL.replace("horse = 270", "hrose = 270");
        let e = XiangqiConfig::from_toml_str(&bad, "m.toml").unwrap_err().to_string();
        assert!(e.starts_with("m.toml:7: unknown field `hrose`"), "{e}");
        let short = format!("{MINIMAL}[psqt]\nhorse = [1, 2]\n");
        let e = XiangqiConfig::from_toml_str(&short, "m.toml").unwrap_err().to_string();
        assert_eq!(e, "m.toml: `psqt.horse`: 2 values, expected 90 (a0..i9)");
        let hash = MINIMAL.replace("hash_mb = 1", "hash_mb = 0");
        let e = XiangqiConfig::from_toml_str(&hash, "m.toml").unwrap_err().to_string();
        assert_eq!(e, "m.toml: `search.hash_mb`: 0 is not in 1..=4096");
    }

    #[test]
    fn shipped_configs_load() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/xiangqi");
        let seed = XiangqiConfig::load(&dir.join("seed.toml")).unwrap();
        let nopsqt = XiangqiConfig::load(&dir.join("nopsqt.toml")).unwrap();
        assert_eq!(seed.weights.material, nopsqt.weights.material);
        assert_ne!(seed.weights.psqt, nopsqt.weights.psqt);
        assert!(nopsqt.weights.psqt.iter().all(|t| t.iter().all(|&v| v == 0)));
        assert_eq!(XiangqiConfig::builtin("seed"), Some(seed));
        assert_eq!(XiangqiConfig::builtin("nopsqt"), Some(nopsqt));
        assert_eq!(XiangqiConfig::builtin("nomob"), None);
    }
}
