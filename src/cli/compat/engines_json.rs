//! cutechess-cli's engine configuration file, `engines.json`: `conf=NAME` in `-engine` and `-each`, and
//! `-engines` to list it. cutechess-cli reads `engines.json` from the working folder, else from its
//! configuration folder (`projects/cli/src/cutechesscoreapp.cpp`: `configPath()`, Qt's settings folder,
//! `$XDG_CONFIG_HOME/cutechess` or `~/.config/cutechess` on Linux); an entry's keys are those of
//! `EngineConfiguration(const QVariant&)` in `projects/lib/src/engineconfiguration.cpp`.

use super::words::Pair;
use serde_json::Value;
use std::path::PathBuf;

/// Where cutechess-cli would read `engines.json`: the working folder's, else the configuration folder's.
pub fn engines_file() -> Option<PathBuf> {
    let here = PathBuf::from("engines.json");
    if here.is_file() {
        return Some(here);
    }
    let config = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".config")))?;
    Some(config.join("cutechess").join("engines.json")).filter(|f| f.is_file())
}

/// The engine entries of the file `engines_file()` names, with the file's name for messages.
///
/// # Errors
/// No file, a file that cannot be read, text that is not JSON (with its line and column) or not an array of
/// objects.
pub fn read_entries() -> Result<(String, Vec<serde_json::Map<String, Value>>), String> {
    let Some(file) = engines_file() else {
        return Err("no engines.json in the working folder or in ~/.config/cutechess".to_string());
    };
    let shown = file.display().to_string();
    let text = std::fs::read_to_string(&file).map_err(|e| format!("{shown}: cannot read: {e}"))?;
    let value: Value =
        serde_json::from_str(&text).map_err(|e| format!("{shown}: line {} column {}: {e}", e.line(), e.column()))?;
    let Value::Array(items) = value else { return Err(format!("{shown}: expected an array of engines")) };
    let mut entries = Vec::new();
    for (i, item) in items.into_iter().enumerate() {
        match item {
            Value::Object(map) => entries.push(map),
            _ => return Err(format!("{shown}: engine {}: expected an object", i + 1)),
        }
    }
    Ok((shown, entries))
}

/// The names `-engines` lists, one per entry, in file order.
///
/// # Errors
/// As [`read_entries`].
pub fn names() -> Result<Vec<String>, String> {
    let (_, entries) = read_entries()?;
    Ok(entries.iter().map(|e| e.get("name").and_then(Value::as_str).unwrap_or("").to_string()).collect())
}

/// The engine words of the entry named `name`, in the order cutechess applies them, so that words after
/// `conf=` override them.
///
/// # Errors
/// As [`read_entries`]; no entry of that name; a key's value of the wrong type; a key Arbiter does not carry
/// with a value that would matter (`stderrFile`, `timeoutScaleFactor`
/// other than 1, `validateClaims` false, `debug`, a button option).
pub fn conf_words(name: &str) -> Result<Vec<Pair>, String> {
    let (file, entries) = read_entries()?;
    let Some(entry) = entries.iter().find(|e| e.get("name").and_then(Value::as_str) == Some(name)) else {
        let known: Vec<String> =
            entries.iter().filter_map(|e| e.get("name").and_then(Value::as_str)).map(String::from).collect();
        return Err(format!("conf={name}: {file} has no engine of that name (it has: {})", known.join(", ")));
    };
    let at = |key: &str| format!("conf={name}: {file}: {key}");
    let text = |key: &str| -> Result<Option<String>, String> {
        match entry.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(format!("{}: expected a string", at(key))),
        }
    };
    let truth = |key: &str| entry.get(key).and_then(Value::as_bool);
    let mut words = Vec::new();
    let mut push = |key: &str, value: String| words.push(Pair { key: key.to_string(), value, flag: false });
    push("name", name.to_string());
    match text("command")? {
        Some(cmd) if !cmd.is_empty() => push("cmd", cmd),
        _ => return Err(format!("{}: missing", at("command"))),
    }
    if let Some(dir) = text("workingDirectory")?.filter(|d| !d.is_empty()) {
        push("dir", dir);
    }
    if let Some(protocol) = text("protocol")?.filter(|p| !p.is_empty()) {
        push("proto", protocol);
    }
    if let Some(restart) = text("restart")? {
        push("restart", restart);
    }
    // Each entry key as the engine key it stands for, refused for the same reason ([`super::engine`]).
    let refused = |key: &str, engine_key: &str| {
        let why = super::engine::refused_key(engine_key).unwrap_or("not carried by Arbiter");
        Err(format!("{}: not supported: {why}", at(key)))
    };
    if text("stderrFile")?.is_some_and(|f| !f.is_empty()) {
        return refused("stderrFile", "stderr");
    }
    if let Some(lines) = entry.get("initStrings").and_then(Value::as_array).filter(|a| !a.is_empty()) {
        let lines: Option<Vec<&str>> = lines.iter().map(Value::as_str).collect();
        let lines = lines.ok_or_else(|| format!("{}: expected strings", at("initStrings")))?;
        push("initstr", lines.join("\\n"));
    }
    for key in ["whitepov", "ponder"] {
        if truth(key) == Some(true) {
            push(key, String::new());
        }
    }
    for (key, refused_when, engine_key) in [("validateClaims", false, "trust"), ("debug", true, "debug")] {
        if truth(key) == Some(refused_when) {
            return refused(key, engine_key);
        }
    }
    if let Some(scale) = entry.get("timeoutScaleFactor").and_then(Value::as_f64)
        && scale != 1.0
    {
        return refused("timeoutScaleFactor", "tscale");
    }
    if let Some(options) = entry.get("options") {
        let Value::Array(options) = options else { return Err(format!("{}: expected an array", at("options"))) };
        for option in options {
            let option_name = option.get("name").and_then(Value::as_str).unwrap_or("");
            if option_name.is_empty() {
                return Err(format!("{}: an option without a name", at("options")));
            }
            let value = match option.get("value") {
                _ if option.get("type").and_then(Value::as_str) == Some("button") => {
                    return Err(format!("{}: not supported: Arbiter does not press button options", at(option_name)));
                }
                Some(Value::String(s)) => s.clone(),
                Some(Value::Bool(b)) => b.to_string(),
                Some(Value::Number(n)) if n.is_i64() => n.to_string(),
                _ => return Err(format!("{}: expected a string, true/false or a whole number", at(option_name))),
            };
            push(&format!("option.{option_name}"), value);
        }
    }
    Ok(words)
}

/// `pairs` with every `conf=NAME` replaced by the words of its entry ([`conf_words`]).
///
/// # Errors
/// As [`conf_words`], after the option's name.
pub fn expand(option: &str, pairs: &[Pair]) -> Result<Vec<Pair>, String> {
    let mut expanded = Vec::with_capacity(pairs.len());
    for pair in pairs {
        if pair.key == "conf" && !pair.flag {
            expanded.extend(conf_words(&pair.value).map_err(|e| format!("{option} {e}"))?);
        } else {
            expanded.push(pair.clone());
        }
    }
    Ok(expanded)
}
