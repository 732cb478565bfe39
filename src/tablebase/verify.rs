//! Checking table files against the checksum list of their folder (`arbiter tb --verify`): the only way to
//! find a table whose body is damaged, since a Syzygy file carries no checksum of its own.
//!
//! A list is a file named `SHA256SUMS`, `MD5SUMS`, `*.sha256` or `*.md5` in the folder, in the format of
//! `sha256sum` and `md5sum` (`HEX  NAME` per line, a `*` before the name allowed).

use super::TablebaseError;
use sha2::Digest;
use std::io::Read;
use std::path::{Path, PathBuf};

/// What the check of one listed file found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileCheck {
    /// The checksum matches.
    Ok,
    /// The file's checksum differs from the list's: the file is damaged.
    Mismatch,
    /// The list names a file that is not in the folder.
    Missing,
    /// The file cannot be read.
    Unreadable(String),
}

/// The check of a table set.
#[derive(Clone, Debug, Default)]
pub struct Verification {
    /// Each listed table file with what its check found, in list order.
    pub files: Vec<(PathBuf, FileCheck)>,
    /// The checksum lists read.
    pub lists: Vec<PathBuf>,
    /// Table files in the folders that no list names (not checked).
    pub unlisted: Vec<PathBuf>,
}

impl Verification {
    /// Whether every listed file is present and matches.
    pub fn passed(&self) -> bool {
        self.files.iter().all(|(_, check)| *check == FileCheck::Ok)
    }
}

/// Checks the table files of `folders` against their checksum lists.
///
/// # Errors
/// A folder that cannot be read, a list that cannot be read or holds a line that is not `HEX  NAME` (named
/// with its line), or no list at all in a folder.
pub fn verify(folders: &[PathBuf]) -> Result<Verification, TablebaseError> {
    let mut out = Verification::default();
    for folder in folders {
        let entries =
            std::fs::read_dir(folder).map_err(|error| TablebaseError::Folder { path: folder.clone(), error })?;
        let mut names: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        names.sort();
        let mut listed = std::collections::BTreeSet::new();
        let mut found_list = false;
        for list in names.iter().filter(|p| list_kind(p).is_some()) {
            found_list = true;
            out.lists.push(list.clone());
            let sha = list_kind(list) == Some(Kind::Sha256);
            for (name, hex) in read_list(list, sha)? {
                if super::table_name(Path::new(&name)).is_none() {
                    continue;
                }
                let path = folder.join(&name);
                listed.insert(path.clone());
                let check = if !path.exists() { FileCheck::Missing } else { check_file(&path, &hex, sha) };
                out.files.push((path, check));
            }
        }
        if !found_list {
            return Err(TablebaseError::BadFile {
                path: folder.clone(),
                problem: "no checksum list (SHA256SUMS, MD5SUMS, *.sha256 or *.md5) to verify the tables against"
                    .to_string(),
            });
        }
        out.unlisted.extend(names.into_iter().filter(|p| super::table_name(p).is_some() && !listed.contains(p)));
    }
    Ok(out)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Sha256,
    Md5,
}

fn list_kind(path: &Path) -> Option<Kind> {
    let name = path.file_name()?.to_str()?;
    let lower = name.to_ascii_lowercase();
    if name == "SHA256SUMS" || lower.ends_with(".sha256") {
        Some(Kind::Sha256)
    } else if name == "MD5SUMS" || lower.ends_with(".md5") {
        Some(Kind::Md5)
    } else {
        None
    }
}

/// The `(name, lowercase hex)` lines of a checksum list.
fn read_list(list: &Path, sha: bool) -> Result<Vec<(String, String)>, TablebaseError> {
    let bad = |problem: String| TablebaseError::BadFile { path: list.to_path_buf(), problem };
    let text = std::fs::read_to_string(list).map_err(|e| bad(format!("cannot read the checksum list: {e}")))?;
    let digits = if sha { 64 } else { 32 };
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_end();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let parsed = line.split_once(char::is_whitespace).and_then(|(hex, rest)| {
            let name = rest.trim_start().trim_start_matches('*');
            (hex.len() == digits && hex.chars().all(|c| c.is_ascii_hexdigit()) && !name.is_empty())
                .then(|| (name.to_string(), hex.to_ascii_lowercase()))
        });
        match parsed {
            Some(entry) => out.push(entry),
            None => {
                return Err(bad(format!(
                    "line {}: expected {digits} hex digits, spaces and a file name, found {}",
                    i + 1,
                    crate::notation::quote::shown(line)
                )));
            }
        }
    }
    Ok(out)
}

fn check_file(path: &Path, hex: &str, sha: bool) -> FileCheck {
    let mut file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) => return FileCheck::Unreadable(e.to_string()),
    };
    let mut sha256 = sha2::Sha256::new();
    let mut md5 = md5::Md5::new();
    let mut buffer = vec![0u8; 1 << 20];
    loop {
        match file.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) if sha => sha256.update(&buffer[..n]),
            Ok(n) => md5.update(&buffer[..n]),
            Err(e) => return FileCheck::Unreadable(e.to_string()),
        }
    }
    let digest: Vec<u8> = if sha { sha256.finalize().to_vec() } else { md5.finalize().to_vec() };
    let text: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    if text == hex { FileCheck::Ok } else { FileCheck::Mismatch }
}
