//! The parameter file of an SPSA run, in OpenBench's form: one parameter a line,
//! `name, int|float, start, min, max, c_end, r_end` (AndyGrant/OpenBench, `OpenBench/spsa_utils.py`,
//! `create_spsa_run`, and the checks of `OpenBench/workloads/verify_workload.py`, `verify_spsa_inputs`).
//! Blank lines and lines starting with `#` are skipped. Every error names the file, the line and the field.
//!
//! What the engine must also agree with (the name is an option it lists, an `int` parameter on a `spin` option
//! within its range) is checked against the engine's options by [`check_against`].

use crate::notation::quote::shown;
use serde::{Deserialize, Serialize};
use std::fmt;
use thiserror::Error;

/// Whether a parameter is sent to the engine as a whole number or as a real number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ParamKind {
    /// A whole number (a UCI `spin` option): rounded when sent, the tuned value itself stays real.
    Int,
    /// A real number (sent as written, for engines that read a `string` option as a number).
    Float,
}

impl ParamKind {
    /// `int` or `float`, as in the file.
    pub fn name(self) -> &'static str {
        match self {
            ParamKind::Int => "int",
            ParamKind::Float => "float",
        }
    }
}

/// One tuned parameter, as read from its line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Param {
    /// The engine's option name (for the built-in engine, the weight's config name such as `material[1]`).
    pub name: String,
    /// Int or float.
    pub kind: ParamKind,
    /// The value the run starts from.
    pub start: f64,
    /// The smallest value the parameter may take.
    pub min: f64,
    /// The largest value the parameter may take.
    pub max: f64,
    /// The perturbation at the last iteration (`c_end`): the smallest change expected to matter.
    pub c_end: f64,
    /// The learning rate at the last iteration (`r_end`).
    pub r_end: f64,
}

/// The columns of a parameter line, in order, as the errors name them.
pub const FIELDS: [&str; 7] = ["name", "type", "start", "min", "max", "c_end", "r_end"];

/// Why a parameter file (or one of its lines) is refused.
#[derive(Debug, Error, PartialEq)]
pub enum ParamError {
    /// A line is wrong: the file, the 1-based line, the field (one of [`FIELDS`], or `line`) and why.
    #[error("{file}:{line}: {field}: {reason}")]
    Line {
        /// The file as the user named it.
        file: String,
        /// The 1-based line number.
        line: usize,
        /// The field at fault.
        field: &'static str,
        /// What is wrong, in words.
        reason: String,
    },
    /// The file cannot be read, is too large or is not text.
    #[error("{file}: {reason}")]
    Read {
        /// The file as the user named it.
        file: String,
        /// Why, in words.
        reason: String,
    },
    /// The file holds no parameter.
    #[error("{file}: no parameter (expected lines `name, int|float, start, min, max, c_end, r_end`)")]
    Empty {
        /// The file as the user named it.
        file: String,
    },
}

/// A number as messages show it: as written for ordinary sizes, in scientific notation beyond (`1e300`, not
/// three hundred digits).
pub fn num(value: f64) -> String {
    let size = value.abs();
    if size != 0.0 && !(1e-6..1e15).contains(&size) { format!("{value:e}") } else { format!("{value}") }
}

/// The largest parameter file read, in bytes (4 MiB: [`MAX_PARAMS`] lines of a few dozen bytes fit many times).
pub const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;

/// Reads the parameter file at `path` as text, at most [`MAX_FILE_BYTES`] (so that `/dev/zero` or a huge file is
/// refused, not read into memory).
///
/// # Errors
/// [`ParamError::Read`]: the file cannot be opened or read, is larger, or is not UTF-8.
pub fn read_params_file(path: &std::path::Path) -> Result<String, ParamError> {
    use std::io::Read as _;
    let file = path.display().to_string();
    let error = |reason: String| ParamError::Read { file: file.clone(), reason };
    let opened = std::fs::File::open(path).map_err(|e| error(format!("cannot read: {e}")))?;
    let mut bytes = Vec::new();
    opened.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes).map_err(|e| error(format!("cannot read: {e}")))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(error(format!(
            "larger than {MAX_FILE_BYTES} bytes; a parameter file holds one short line per parameter"
        )));
    }
    String::from_utf8(bytes).map_err(|e| error(format!("not UTF-8 text (byte {})", e.utf8_error().valid_up_to())))
}

/// The most parameters one run tunes (a bound on what a file may ask for; OpenBench's runs have tens).
pub const MAX_PARAMS: usize = 10_000;

/// Reads the parameters of `text`, the contents of the file `file` (named so in errors).
///
/// # Errors
/// [`ParamError::Line`] for the first wrong line: not 7 comma-separated fields, an empty, over-long, duplicate
/// (ASCII case-insensitive) or control-character name, a type other than `int`/`float`, a number that does not
/// read or is not finite, an `int` parameter with a fractional start, min or max, `min >= max`, a start
/// outside `[min, max]`, `c_end <= 0` or `r_end <= 0`; [`ParamError::Empty`] when no line holds a parameter.
///
/// # Examples
/// ```
/// use arbiter::spsa::params::{ParamKind, parse_params};
/// let params = parse_params("# knight and rook\nmaterial[1], int, 150, 50, 600, 20, 0.002\n", "p.txt").unwrap();
/// assert_eq!(params[0].name, "material[1]");
/// assert_eq!(params[0].kind, ParamKind::Int);
/// let err = parse_params("x, int, 700, 50, 600, 20, 0.002\n", "p.txt").unwrap_err();
/// assert_eq!(err.to_string(), "p.txt:1: start: 700 is outside [min, max] = [50, 600]");
/// ```
pub fn parse_params(text: &str, file: &str) -> Result<Vec<Param>, ParamError> {
    let mut params: Vec<Param> = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let error =
            |field: &'static str, reason: String| ParamError::Line { file: file.to_string(), line, field, reason };
        let param = parse_line(trimmed).map_err(|(field, reason)| error(field, reason))?;
        if params.iter().any(|p| p.name.eq_ignore_ascii_case(&param.name)) {
            return Err(error("name", format!("{} is given twice", shown(&param.name))));
        }
        if params.len() == MAX_PARAMS {
            return Err(error("line", format!("more than {MAX_PARAMS} parameters")));
        }
        params.push(param);
    }
    if params.is_empty() {
        return Err(ParamError::Empty { file: file.to_string() });
    }
    Ok(params)
}

/// The longest parameter name, in bytes (UCI option names are short; the bound keeps messages small).
const MAX_NAME_BYTES: usize = 200;

/// Reads one non-empty line; the error is the field and the reason.
fn parse_line(line: &str) -> Result<Param, (&'static str, String)> {
    let fields: Vec<&str> = line.split(',').map(str::trim).collect();
    if fields.len() != FIELDS.len() {
        return Err((
            "line",
            format!(
                "{} comma-separated fields, expected 7: name, int|float, start, min, max, c_end, r_end (line {})",
                fields.len(),
                shown(line)
            ),
        ));
    }
    let name = fields[0];
    if name.is_empty() {
        return Err(("name", "empty".to_string()));
    }
    if name.len() > MAX_NAME_BYTES || name.chars().any(char::is_control) {
        return Err((
            "name",
            format!("{} is not an option name (at most {MAX_NAME_BYTES} bytes, no control characters)", shown(name)),
        ));
    }
    if name.split_whitespace().any(|word| word == "name" || word == "value") {
        return Err((
            "name",
            format!("{} holds the word `name` or `value`, which UCI setoption cannot send", shown(name)),
        ));
    }
    let kind = match fields[1] {
        "int" => ParamKind::Int,
        "float" => ParamKind::Float,
        other => return Err(("type", format!("{} is neither int nor float", shown(other)))),
    };
    let mut numbers = [0.0; 5];
    for (slot, (field, text)) in numbers.iter_mut().zip(FIELDS[2..].iter().zip(&fields[2..])) {
        let value: f64 = text.parse().map_err(|_| (*field, format!("{} is not a number", shown(text))))?;
        if !value.is_finite() {
            return Err((*field, format!("{} is not a finite number", shown(text))));
        }
        *slot = value;
    }
    let [start, min, max, c_end, r_end] = numbers;
    if kind == ParamKind::Int {
        for (field, value) in [("start", start), ("min", min), ("max", max)] {
            if value.fract() != 0.0 {
                return Err((
                    field,
                    format!(
                        "{value} is not a whole number, and the parameter is an int (write float to tune a real value)"
                    ),
                ));
            }
            if value.abs() > MAX_INT_MAGNITUDE {
                return Err((field, format!("{} is beyond ±{}", num(value), num(MAX_INT_MAGNITUDE))));
            }
        }
    }
    if min >= max {
        return Err(("max", format!("{} is not above min {}", num(max), num(min))));
    }
    if !(min..=max).contains(&start) {
        return Err(("start", format!("{} is outside [min, max] = [{}, {}]", num(start), num(min), num(max))));
    }
    if c_end <= 0.0 {
        return Err(("c_end", format!("{} is not above 0 (the perturbation at the last iteration)", num(c_end))));
    }
    if r_end <= 0.0 {
        return Err(("r_end", format!("{} is not above 0 (the learning rate at the last iteration)", num(r_end))));
    }
    Ok(Param { name: name.to_string(), kind, start, min, max, c_end, r_end })
}

/// The largest magnitude of an `int` parameter's start, min and max: whole numbers up to 2^53 are exact in an
/// `f64`; UCI spin options are 32- or 64-bit integers, and values this large are no tuning range anyway.
pub const MAX_INT_MAGNITUDE: f64 = 1e15;

/// What an engine says about one of its options, as far as a parameter needs it.
#[derive(Clone, Debug, PartialEq)]
pub struct OptionInfo {
    /// The option's name as the engine lists it.
    pub name: String,
    /// The option's type (`spin`, `string`, `check`, ...), lower case.
    pub kind: String,
    /// A `spin` option's `min`, when listed.
    pub min: Option<f64>,
    /// A `spin` option's `max`, when listed.
    pub max: Option<f64>,
}

impl fmt::Display for OptionInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (type {}", self.name, self.kind)?;
        if let (Some(min), Some(max)) = (self.min, self.max) {
            write!(f, " min {} max {}", num(min), num(max))?;
        }
        f.write_str(")")
    }
}

/// Reads the options of an engine's reply to `uci` (`option name NAME type TYPE [default D] [min A] [max B]
/// ...`): name, type and a spin option's range. Lines that are not option lines are skipped.
///
/// # Examples
/// ```
/// use arbiter::spsa::params::uci_options;
/// let reply = ["id name X".to_string(), "option name Skill Level type spin default 20 min 0 max 20".to_string()];
/// let options = uci_options(&reply);
/// assert_eq!(options[0].name, "Skill Level");
/// assert_eq!((options[0].min, options[0].max), (Some(0.0), Some(20.0)));
/// ```
pub fn uci_options(reply: &[String]) -> Vec<OptionInfo> {
    reply
        .iter()
        .filter_map(|line| line.trim().strip_prefix("option name "))
        .filter_map(|rest| {
            let (name, after) = rest.split_once(" type ")?;
            let words: Vec<&str> = after.split_whitespace().collect();
            let kind = words.first()?.to_ascii_lowercase();
            let number = |key: &str| {
                words.windows(2).find(|w| w[0] == key).and_then(|w| w[1].parse::<f64>().ok()).filter(|v| v.is_finite())
            };
            let (min, max) = if kind == "spin" { (number("min"), number("max")) } else { (None, None) };
            Some(OptionInfo { name: name.trim().to_string(), kind, min, max })
        })
        .collect()
}

/// Why a parameter does not fit the engine: the parameter's index and the message.
#[derive(Debug, Error, PartialEq)]
#[error("{file}:{line}: {field}: {reason}")]
pub struct EngineMismatch {
    /// The parameter file as the user named it.
    pub file: String,
    /// The 1-based line of the parameter (counted as [`parse_params`] read it).
    pub line: usize,
    /// The field at fault.
    pub field: &'static str,
    /// What is wrong.
    pub reason: String,
}

/// Checks `params` (read from `text`, the file `file`) against the options an engine lists (`options`; the
/// engine is named `engine` in messages), and returns each parameter's name as the engine spells it: a name
/// the engine does not list is refused with the closest names it lists, a `float` parameter on a `spin` option
/// is refused (the engine reads whole numbers), and so is an `int` range reaching beyond a spin option's
/// `min`/`max` (the engine would refuse or clamp the value). Only `spin` and `string` options can be tuned.
///
/// # Errors
/// [`EngineMismatch`] for the first parameter that does not fit.
pub fn check_against(
    params: &[Param],
    text: &str,
    file: &str,
    engine: &str,
    options: &[OptionInfo],
) -> Result<Vec<String>, EngineMismatch> {
    let lines = param_lines(text);
    let mut names = Vec::with_capacity(params.len());
    for (param, &line) in params.iter().zip(&lines) {
        let error =
            |field: &'static str, reason: String| EngineMismatch { file: file.to_string(), line, field, reason };
        let Some(option) = options.iter().find(|o| o.name.eq_ignore_ascii_case(&param.name)) else {
            let listed: Vec<String> = options.iter().map(|o| o.name.clone()).collect();
            let close = crate::player::uci::closest_options(&param.name, &listed);
            let hint =
                if close.is_empty() { String::new() } else { format!(" (did you mean {}?)", quoted_list(&close)) };
            return Err(error("name", format!("{engine} does not list the option {}{hint}", shown(&param.name))));
        };
        match (option.kind.as_str(), param.kind) {
            ("spin", ParamKind::Float) => {
                return Err(error(
                    "type",
                    format!("float, but {engine}'s option {option} takes whole numbers: write int"),
                ));
            }
            ("spin", ParamKind::Int) => {
                if option.min.is_some_and(|low| param.min < low) || option.max.is_some_and(|high| param.max > high) {
                    return Err(error(
                        "min",
                        format!(
                            "[min, max] = [{}, {}] reaches beyond {engine}'s option {option}",
                            param.min, param.max
                        ),
                    ));
                }
            }
            ("string", _) => {}
            (kind, _) => {
                return Err(error(
                    "name",
                    format!("{engine}'s option {} is of type {kind}, which takes no number", option.name),
                ));
            }
        }
        names.push(option.name.clone());
    }
    Ok(names)
}

/// The 1-based line of each parameter of `text`, as [`parse_params`] reads them.
pub fn param_lines(text: &str) -> Vec<usize> {
    text.lines()
        .enumerate()
        .filter(|(_, raw)| {
            let trimmed = raw.trim();
            !trimmed.is_empty() && !trimmed.starts_with('#')
        })
        .map(|(index, _)| index + 1)
        .collect()
}

/// `"a", "b" or "c"`.
fn quoted_list(names: &[String]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("{n:?}")).collect();
    match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => quoted.join(""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        parse_params(text, "p.txt").unwrap_err().to_string()
    }

    #[test]
    fn reads_openbench_lines() {
        let text = "\n# comment\nmaterial[1], int, 150, 50, 600, 20, 0.002\n  Aspiration Delta , float , 12.5, 1, 40.5, 1.5, 0.0025  \n";
        let params = parse_params(text, "p.txt").unwrap();
        assert_eq!(params.len(), 2);
        assert_eq!(
            params[1],
            Param {
                name: "Aspiration Delta".into(),
                kind: ParamKind::Float,
                start: 12.5,
                min: 1.0,
                max: 40.5,
                c_end: 1.5,
                r_end: 0.0025
            }
        );
        assert_eq!(param_lines(text), [3, 4]);
    }

    #[test]
    fn names_file_line_and_field() {
        assert_eq!(
            err("a, int, 1, 0, 2, 1\n"),
            "p.txt:1: line: 6 comma-separated fields, expected 7: name, int|float, start, min, max, c_end, r_end (line \"a, int, 1, 0, 2, 1\")"
        );
        assert_eq!(err("\na, integer, 1, 0, 2, 1, 0.002"), "p.txt:2: type: \"integer\" is neither int nor float");
        assert_eq!(
            err("a, int, 1.5, 0, 2, 1, 0.002"),
            "p.txt:1: start: 1.5 is not a whole number, and the parameter is an int (write float to tune a real value)"
        );
        assert_eq!(
            err("a, int, 1, 0, 2, 0, 0.002"),
            "p.txt:1: c_end: 0 is not above 0 (the perturbation at the last iteration)"
        );
        assert_eq!(
            err("a, int, 1, 0, 2, -1, 0.002"),
            "p.txt:1: c_end: -1 is not above 0 (the perturbation at the last iteration)"
        );
        assert_eq!(
            err("a, int, 1, 0, 2, 1, 0"),
            "p.txt:1: r_end: 0 is not above 0 (the learning rate at the last iteration)"
        );
        assert_eq!(err("a, int, 3, 0, 2, 1, 0.002"), "p.txt:1: start: 3 is outside [min, max] = [0, 2]");
        assert_eq!(err("a, int, 1, 2, 2, 1, 0.002"), "p.txt:1: max: 2 is not above min 2");
        assert_eq!(err("a, float, x, 0, 2, 1, 0.002"), "p.txt:1: start: \"x\" is not a number");
        assert_eq!(err("a, float, NaN, 0, 2, 1, 0.002"), "p.txt:1: start: \"NaN\" is not a finite number");
        assert_eq!(err("a, float, 1, -inf, 2, 1, 0.002"), "p.txt:1: min: \"-inf\" is not a finite number");
        assert_eq!(err(", int, 1, 0, 2, 1, 0.002"), "p.txt:1: name: empty");
        assert_eq!(err("a, int, 1, 0, 2, 1, 0.002\nA, int, 1, 0, 2, 1, 0.002"), "p.txt:2: name: \"A\" is given twice");
        assert!(err("set value x, int, 1, 0, 2, 1, 0.002").contains("the word `name` or `value`"));
        assert_eq!(
            err("# nothing\n\n"),
            "p.txt: no parameter (expected lines `name, int|float, start, min, max, c_end, r_end`)"
        );
    }

    #[test]
    fn checks_against_the_engine_options() {
        let reply: Vec<String> = [
            "option name Hash type spin default 16 min 1 max 33554432",
            "option name Skill Level type spin default 20 min 0 max 20",
            "option name Ponder type check default false",
            "option name Scale type string default 1.0",
        ]
        .map(String::from)
        .to_vec();
        let options = uci_options(&reply);
        let check = |text: &str| {
            let params = parse_params(text, "p.txt").unwrap();
            check_against(&params, text, "p.txt", "sf", &options).map_err(|e| e.to_string())
        };
        assert_eq!(check("skill level, int, 10, 0, 20, 2, 0.002").unwrap(), ["Skill Level"]);
        assert_eq!(check("scale, float, 1, 0.5, 2, 0.1, 0.002").unwrap(), ["Scale"]);
        assert_eq!(
            check("# x\nHsah, int, 16, 1, 64, 2, 0.002").unwrap_err(),
            "p.txt:2: name: sf does not list the option \"Hsah\" (did you mean \"Hash\"?)"
        );
        assert_eq!(
            check("Hash, float, 16, 1, 64, 2, 0.002").unwrap_err(),
            "p.txt:1: type: float, but sf's option Hash (type spin min 1 max 33554432) takes whole numbers: write int"
        );
        assert_eq!(
            check("Skill Level, int, 10, -5, 20, 2, 0.002").unwrap_err(),
            "p.txt:1: min: [min, max] = [-5, 20] reaches beyond sf's option Skill Level (type spin min 0 max 20)"
        );
        assert_eq!(
            check("Ponder, int, 0, 0, 1, 1, 0.002").unwrap_err(),
            "p.txt:1: name: sf's option Ponder is of type check, which takes no number"
        );
    }
}
