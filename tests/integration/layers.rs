//! The layer rule of `docs/architecture.md`, checked against the code: every `crate::` path in the non-test code
//! of a folder under `src/` names a folder of a lower layer of the table in that page (or one the table lets it
//! use beside it). A new folder must be placed in the table, and the table names no folder that is gone, so the
//! page stays true.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One row of the layer table: its rank (higher uses lower) and the folders of the same rank it may use.
#[derive(Debug)]
struct Layer {
    rank: u32,
    beside: Vec<String>,
}

/// A module name as the table writes it: `runner/` for a folder, `games.rs` for a file; the result is the
/// module's name (`runner`, `games`).
fn module_name(cell: &str) -> String {
    cell.trim().trim_matches('`').trim_end_matches('/').trim_end_matches(".rs").to_string()
}

/// The layer table: the rows under `### The layer table` of `docs/architecture.md`, `| rank | modules | may also
/// use |`, each module in backquotes.
fn read_table(text: &str) -> BTreeMap<String, Layer> {
    let section = text.split("### The layer table").nth(1).expect("docs/architecture.md has ### The layer table");
    let mut table = BTreeMap::new();
    for line in section.lines().skip_while(|l| !l.starts_with('|')).take_while(|l| l.starts_with('|')) {
        let cells: Vec<&str> = line.trim_matches('|').split('|').collect();
        let Ok(rank) = cells[0].trim().parse::<u32>() else { continue };
        let quoted = |cell: &str| -> Vec<String> { cell.split('`').skip(1).step_by(2).map(module_name).collect() };
        let beside = cells.get(2).map(|c| quoted(c)).unwrap_or_default();
        for module in quoted(cells[1]) {
            let old = table.insert(module.clone(), Layer { rank, beside: beside.clone() });
            assert!(old.is_none(), "{module} stands in two rows of the layer table");
        }
    }
    assert!(!table.is_empty(), "the layer table has no rows");
    table
}

/// `text` without its `#[cfg(test)]` items (a test module, a test-only `use` or `mod` line) and comments.
fn code_lines(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut lines = text.lines().enumerate().peekable();
    while let Some((i, line)) = lines.next() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("#[cfg(test)]") {
            let indent = &line[..line.len() - trimmed.len()];
            if let Some((_, next)) = lines.next()
                && next.trim_end().ends_with('{')
            {
                let close = format!("{indent}}}");
                for (_, inner) in lines.by_ref() {
                    if inner.trim_end() == close {
                        break;
                    }
                }
            }
            continue;
        }
        if trimmed.starts_with("//") {
            continue;
        }
        let code = line.split("//").next().unwrap_or(line);
        out.push((i + 1, code.to_string()));
    }
    out
}

/// The top-level modules that `crate::` paths in `lines` name, with the line of each: `crate::chess::Move`
/// names `chess`, `use crate::{chess, game::Game}` names both.
fn used_modules(lines: &[(usize, String)]) -> Vec<(usize, String)> {
    let mut used = Vec::new();
    let mut group: Option<(usize, String)> = None;
    for (number, line) in lines {
        if let Some((start, text)) = group.as_mut() {
            text.push_str(line);
            if line.contains("};") {
                used.extend(group_names(text).into_iter().map(|m| (*start, m)));
                group = None;
            }
            continue;
        }
        let mut rest = line.as_str();
        while let Some(at) = rest.find("crate::") {
            let before = rest[..at].chars().next_back();
            let after = &rest[at + "crate::".len()..];
            rest = after;
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            if let Some(inner) = after.strip_prefix('{') {
                if line.contains("};") {
                    used.extend(group_names(inner).into_iter().map(|m| (*number, m)));
                } else {
                    group = Some((*number, inner.to_string()));
                }
                break;
            }
            let name: String = after.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            if !name.is_empty() {
                used.push((*number, name));
            }
        }
    }
    used
}

/// The first names of a `use crate::{...}` group's items (`chess, game::{Game, GameResult}` gives `chess`, `game`).
fn group_names(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut depth = 0;
    let mut start = true;
    let mut word = String::new();
    for c in text.chars() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => start = true,
            c if depth == 0 && start && (c.is_alphanumeric() || c == '_') => word.push(c),
            _ if !word.is_empty() => {
                names.push(std::mem::take(&mut word));
                start = false;
            }
            _ => {}
        }
    }
    if !word.is_empty() {
        names.push(word);
    }
    names
}

/// The module of a file under `src/`: its first folder, or the file's stem for a top-level file (`None` for
/// `lib.rs` and `main.rs`, which declare the modules).
fn module_of(src: &Path, file: &Path) -> Option<String> {
    let relative = file.strip_prefix(src).expect("under src");
    let mut parts = relative.components();
    let first = parts.next()?.as_os_str().to_string_lossy().into_owned();
    if parts.next().is_some() {
        return Some(first);
    }
    let stem = first.trim_end_matches(".rs").to_string();
    (stem != "lib" && stem != "main").then_some(stem)
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src readable") {
        let path = entry.expect("src entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every use of a module that the table does not allow, as `file:line: ...`.
fn violations(table: &BTreeMap<String, Layer>, module: &str, file: &str, text: &str) -> Vec<String> {
    let Some(layer) = table.get(module) else {
        return vec![format!("{file}: module {module} is not in the layer table of docs/architecture.md")];
    };
    let mut found = Vec::new();
    for (line, used) in used_modules(&code_lines(text)) {
        if used == module || used == "self" || used == "super" {
            continue;
        }
        let Some(target) = table.get(&used) else {
            found.push(format!("{file}:{line}: uses {used}, which the layer table does not place"));
            continue;
        };
        if target.rank >= layer.rank && !layer.beside.contains(&used) {
            found.push(format!(
                "{file}:{line}: {module} (layer {}) uses {used} (layer {}): dependencies point down only",
                layer.rank, target.rank
            ));
        }
    }
    found
}

#[test]
fn no_module_imports_upward() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let table = read_table(&std::fs::read_to_string(root.join("docs/architecture.md")).expect("architecture.md"));
    let src = root.join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut found = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for file in &files {
        let Some(module) = module_of(&src, file) else { continue };
        seen.insert(module.clone());
        let text = std::fs::read_to_string(file).expect("source readable");
        let shown = file.strip_prefix(root).expect("under the root").display().to_string();
        found.extend(violations(&table, &module, &shown, &text));
    }
    for module in table.keys() {
        if !seen.contains(module) && module != "main" {
            found.push(format!("docs/architecture.md: the layer table names {module}, which src/ does not hold"));
        }
    }
    assert!(found.is_empty(), "the layer rule is broken:\n{}", found.join("\n"));
}

/// The checker itself finds an upward use, in a `use` group too, and ignores test modules and comments.
#[test]
fn the_layer_check_finds_an_upward_use() {
    let table = read_table(
        "### The layer table\n\n| rank | modules | may also use |\n|---|---|---|\n| 2 | `runner/` | |\n\
         | 1 | `chess/`, `xiangqi/` | |\n| 0 | `game/` | |\n",
    );
    let clean =
        "use crate::game::Game;\n// crate::runner in a comment\n#[cfg(test)]\nmod tests {\n    use crate::runner;\n}\n";
    assert!(violations(&table, "chess", "src/chess/a.rs", clean).is_empty());
    let upward = "use crate::{\n    game::Game,\n    runner::Plan,\n};\nfn f() { crate::xiangqi::g() }\n";
    let found = violations(&table, "chess", "src/chess/b.rs", upward);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0].starts_with("src/chess/b.rs:1: chess (layer 1) uses runner (layer 2)"), "{found:?}");
    assert!(found[1].starts_with("src/chess/b.rs:5: chess (layer 1) uses xiangqi (layer 1)"), "{found:?}");
    assert_eq!(
        violations(&table, "tune", "src/tune/c.rs", "")[0],
        "src/tune/c.rs: module tune is not in the layer table of docs/architecture.md"
    );
}
