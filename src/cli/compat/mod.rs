//! `arbiter cutechess ARGS...` and `arbiter fastchess ARGS...`: the command lines of cutechess-cli and fastchess
//! (single-dash options with `key=value` words, as their help texts give them), run as `arbiter match` runs its
//! own flags: the same plan, run folder, statistics and exit codes, with the tool's own lines on stdout. Called
//! through a link named `cutechess-cli` or `fastchess` (`fastchess-ob`, as OpenBench names its build), the
//! program behaves as that tool ([`Tool::of_program`]).
//!
//! The options are translated into `arbiter match` flags ([`translate`]); an option that Arbiter cannot carry
//! is refused by name (exit 2), one it carries with a difference is said on stderr. docs/cutechess-fastchess.md
//! has the table of every option of both tools.

mod engine;
mod engines_json;
mod files;
mod output;
mod quick;
mod translate;
pub mod words;

use super::match_cmd::{INTERRUPTED, MatchArgs, match_command, play};
use super::{Failure, exit_code, install_interrupt_handler};
use arbiter::runner::run::MatchRun;
use std::ffi::OsStr;
use std::path::Path;

/// The tool whose command line is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    /// cutechess-cli (`projects/cli/res/doc/help.txt`).
    Cutechess,
    /// fastchess (`man.md`).
    Fastchess,
}

impl Tool {
    /// The tool's program name.
    pub fn program(self) -> &'static str {
        match self {
            Tool::Cutechess => "cutechess-cli",
            Tool::Fastchess => "fastchess",
        }
    }

    /// The name of its report format (`arbiter match --report-format`).
    pub fn name(self) -> &'static str {
        match self {
            Tool::Cutechess => "cutechess",
            Tool::Fastchess => "fastchess",
        }
    }

    /// The tool a program called `program` (the first word of its command line) stands for: `cutechess-cli`,
    /// `fastchess` or `fastchess-ob` (with or without `.exe`); `None` for any other name.
    pub fn of_program(program: &OsStr) -> Option<Tool> {
        let name = Path::new(program).file_name()?.to_str()?;
        match name.strip_suffix(".exe").unwrap_or(name) {
            "cutechess-cli" => Some(Tool::Cutechess),
            "fastchess" | "fastchess-ob" => Some(Tool::Fastchess),
            _ => None,
        }
    }
}

/// The words of `arbiter cutechess` and `arbiter fastchess`.
#[derive(clap::Args, Debug, Clone)]
pub struct CompatArgs {
    /// The tool's own options, as its help text writes them: `-engine cmd=./sf name=A -engine cmd=./base name=B
    /// -each tc=10+0.1 -openings file=book.epd format=epd order=random -games 2 -rounds 100 -concurrency 4`.
    /// `-help` says where each option's status is documented.
    #[arg(num_args = 0.., allow_hyphen_values = true, trailing_var_arg = true, value_name = "OPTIONS")]
    pub words: Vec<String>,
}

/// Runs `tool`'s command line `words` (without the program name); returns the exit code of `arbiter match`.
///
/// # Errors
/// A [`Failure::Input`] for a command line Arbiter cannot carry (exit 2).
pub fn run(tool: Tool, words: &[String]) -> Result<i32, Failure> {
    let input = |text: String| Failure::Input(anyhow::anyhow!("{}: {text}", tool.program()));
    // Arbiter's own `--format json` and `--verdict-exit` may come first: `arbiter cutechess --format json -engine ...`.
    let mut own: Vec<String> = Vec::new();
    let mut rest = words;
    loop {
        match rest {
            [flag, value, tail @ ..] if flag == "--format" => {
                if value != "json" && value != "text" {
                    return Err(input(format!("--format {value}: expected json or text")));
                }
                own.extend([flag.clone(), value.clone()]);
                rest = tail;
            }
            [flag, tail @ ..] if flag == "--verdict-exit" => {
                own.push(flag.clone());
                rest = tail;
            }
            _ => break,
        }
    }
    let json = own.windows(2).any(|w| w == ["--format", "json"]);
    let verdict_exit = own.iter().any(|w| w == "--verdict-exit");
    let options = words::group(rest).map_err(input)?;
    if options.is_empty() || options.iter().any(|o| o.name == "help") {
        print_help(tool);
        return Ok(if options.is_empty() { 2 } else { 0 });
    }
    if options.iter().any(|o| o.name == "version") {
        output::print_line(&format!("{} command line of arbiter {}", tool.program(), env!("CARGO_PKG_VERSION")));
        return Ok(0);
    }
    if tool == Tool::Cutechess && options.iter().any(|o| o.name == "engines") {
        for name in engines_json::names().map_err(input)? {
            output::print_line(&name);
        }
        return Ok(0);
    }
    let translation = translate::translate(tool, &options).map_err(input)?;
    for note in &translation.notes {
        super::stderr_line(format_args!("{}: note: {note}", tool.program()));
    }
    let mut translated = translation.args.clone();
    translated.extend(own);
    let matches = match_command().try_get_matches_from(&translated).map_err(|error| {
        let text = error.to_string();
        let first = text.lines().next().unwrap_or("").trim_start_matches("error: ").to_string();
        input(format!("{first} (from the arbiter match flags {})", translation.args.join(" ")))
    })?;
    let args = <MatchArgs as clap::FromArgMatches>::from_arg_matches(&matches).map_err(|e| input(e.to_string()))?;
    install_interrupt_handler(tool.program(), &INTERRUPTED);
    let mut observer = output::CompatOutput::new(translation.score_interval);
    // The engines in their order, for cutechess-cli's outcome table (every spec starts with `name=`).
    let names: Vec<String> = translation
        .args
        .windows(2)
        .filter(|w| w[0] == "--engine")
        .filter_map(|w| w[1].split(',').next()?.strip_prefix("name=").map(String::from))
        .collect();
    *observer.outcomes.borrow_mut() = output::Outcomes::of(&names);
    observer.outcome_interval = translation.outcome_interval.unwrap_or(0);
    let outcomes = std::rc::Rc::clone(&observer.outcomes);
    let outcome_interval = translation.outcome_interval;
    let interval = translation.rating_interval;
    let crc32 = translation.crc32.clone();
    let mut verdict = None;
    let mut finish = |run: &MatchRun| {
        // cutechess-cli prints the ranking at the end unless the last game just printed it (enginematch.cpp).
        if interval == 0 || !run.state.tally.games.is_multiple_of(interval) {
            let mut out = std::io::stdout().lock();
            let _ = std::io::Write::write_all(&mut out, run.report.as_bytes());
        }
        // cutechess-cli prints the outcomes at the end unless the last game just printed them.
        if let Some(every) = outcome_interval
            && (every == 0 || !outcomes.borrow().games.is_multiple_of(every))
        {
            output::print_line(&outcomes.borrow().text());
        }
        if let Some(file) = &crc32 {
            match std::fs::read(file) {
                Ok(bytes) => {
                    output::print_line(&format!("File {} has CRC32: {:#x}", file.display(), crc32fast::hash(&bytes)))
                }
                Err(error) => super::stderr_line(format_args!("warning: {}: cannot read: {error}", file.display())),
            }
        }
        output::print_line("Finished match");
        if json {
            // One JSON object, every figure at full precision (as `arbiter match --format json`), the last line.
            output::print_line(&run.json.to_string());
        }
        verdict = run.state.verdict.map(|v| v.decision);
        super::stderr_line(format_args!("{}: results in {}", tool.program(), run.dir.display()));
    };
    let code = exit_code(play(args, &matches, &mut observer, &mut finish, &INTERRUPTED));
    Ok(if code == 0 && verdict_exit { super::match_cmd::verdict_code(verdict) } else { code })
}

/// The usage line and where the options are documented.
fn print_help(tool: Tool) {
    let program = tool.program();
    output::print_line(&format!(
        "Usage: {program} -engine OPTIONS -engine OPTIONS... [OPTIONS]\n\n\
         Arbiter reads {program}'s command line (its own help text's options) and plays it as `arbiter match`\n\
         does, printing {program}'s lines. Every option's status (supported, differs, refused) is in\n\
         docs/cutechess-fastchess.md; `arbiter match --help` lists Arbiter's own flags."
    ));
}
