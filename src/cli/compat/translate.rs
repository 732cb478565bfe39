//! The options of cutechess-cli and fastchess, turned into the flags of `arbiter match` (and the settings of
//! their own output, [`Translation`]). Every option of both tools' help texts is either carried over, carried
//! with a documented difference (a note on stderr), or refused by name: none is ignored silently. The table of
//! all of them is docs/cutechess-fastchess.md.

use super::Tool;
use super::engine::engine_spec;
use super::files::{log_file, openings_spec, pgnout_words};
use super::words::{OptionWords, Pair, boolean, pairs};
use std::path::PathBuf;

/// What a cutechess-cli or fastchess command line asks for.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Translation {
    /// The `arbiter match` arguments (without the program and subcommand names).
    pub args: Vec<String>,
    /// Print the per-game `Score of` line every N games (0: never).
    pub score_interval: u64,
    /// Print the report every N games (0: only at the end).
    pub rating_interval: u64,
    /// Print cutechess-cli's outcome table every N games (`-outcomeinterval`; 0: only at the end); `None` for
    /// a fastchess command line, which prints none.
    pub outcome_interval: Option<u64>,
    /// Print `File F has CRC32: 0x...` of the -pgnout file at the end (fastchess's `-crc32 pgn=true`).
    pub crc32: Option<PathBuf>,
    /// The differences from the tool that this command line meets, said on stderr before the match.
    pub notes: Vec<String>,
}

/// Options that neither changes the games nor the figures, accepted as they are.
const NO_EFFECT: [(&str, &str); 5] = [
    ("force-concurrency", "Arbiter does not cap the concurrency at the cores"),
    ("testEnv", ""),
    ("autosaveinterval", "Arbiter saves every game as it ends"),
    ("bookmode", "Arbiter reads the whole book"),
    ("repeat", ""),
];

/// Options of the two tools that Arbiter refuses, with the reason.
const REFUSED: [(&str, &str); 4] = [
    ("config", "Arbiter resumes a run with `arbiter match --resume DIR`"),
    ("strict", "Arbiter has no warnings-as-errors mode (its warnings go to stderr and match.log)"),
    ("check-mate-pvs", "Arbiter does not check the length of mate PVs"),
    ("compliance", "check an engine with `arbiter check-engine --engine name=N,cmd=PROGRAM`"),
];

/// Appends `--name` and its value to `args`.
fn push(args: &mut Vec<String>, name: &str, value: Option<String>) {
    args.push(format!("--{name}"));
    args.extend(value);
}

fn value(option: &OptionWords) -> Result<&str, String> {
    match option.values.as_slice() {
        [one] => Ok(one.as_str()),
        [] => Err(format!("{option}: a value is missing")),
        _ => Err(format!("{option}: expected one value, got {}", option.values.join(" "))),
    }
}

fn number(option: &OptionWords) -> Result<u64, String> {
    let text = value(option)?;
    text.parse().map_err(|_| format!("{option} {text}: expected a whole number"))
}

fn none(option: &OptionWords) -> Result<(), String> {
    if option.values.is_empty() {
        Ok(())
    } else {
        Err(format!("{option}: takes no value, got {}", option.values.join(" ")))
    }
}

/// `key=value` pairs joined with commas for an Arbiter flag that takes them, with only the keys in `keys`.
fn key_values(option: &OptionWords, keys: &[&str]) -> Result<String, String> {
    let mut out = Vec::new();
    for pair in pairs(option) {
        if pair.flag || !keys.contains(&pair.key.as_str()) {
            return Err(format!(
                "{option} {}: expected {}",
                pair.key,
                keys.iter().map(|k| format!("{k}=")).collect::<Vec<_>>().join(" ")
            ));
        }
        out.push(format!("{}={}", pair.key, pair.value));
    }
    if out.is_empty() {
        return Err(format!("{option}: values are missing"));
    }
    Ok(out.join(","))
}

/// Translates the options of `tool`'s command line.
///
/// # Errors
/// The first option (or value) that Arbiter cannot carry, named.
pub fn translate(tool: Tool, options: &[OptionWords]) -> Result<Translation, String> {
    let quick;
    let options = if tool == Tool::Fastchess && options.iter().any(|o| o.name == "quick") {
        quick = super::quick::expand_quick(options)?;
        quick.as_slice()
    } else {
        options
    };
    let mut t = Translation {
        score_interval: if tool == Tool::Cutechess { 1 } else { 0 },
        rating_interval: if tool == Tool::Cutechess { 0 } else { 10 },
        outcome_interval: (tool == Tool::Cutechess).then_some(0),
        ..Translation::default()
    };
    let mut args: Vec<String> = Vec::new();
    let mut engines: Vec<Vec<Pair>> = Vec::new();
    let mut each: Vec<Pair> = Vec::new();
    let (mut games, mut rounds) = (None::<u64>, None::<u64>);
    let mut openings = false;
    let mut policy = "default".to_string();
    let mut output = tool;
    let mut pgnout: Option<PathBuf> = None;
    let mut crc32 = false;
    let mut seeds: Option<u64> = None;
    let mut latency = false;
    // An option given twice counts once, the last (as both tools' parsers overwrite); -engine and -each add up.
    let mut kept: Vec<&OptionWords> = Vec::new();
    for (i, option) in options.iter().enumerate() {
        let later = options[i + 1..].iter().any(|o| o.name == option.name);
        if later && option.name != "engine" && option.name != "each" {
            t.notes.push(format!("{option} is given more than once: the last one counts"));
        } else {
            kept.push(option);
        }
    }
    t.notes.dedup();
    for option in kept {
        let name = option.name.as_str();
        if let Some((_, why)) = REFUSED.iter().find(|(n, _)| *n == name) {
            return Err(format!("{option}: not supported by Arbiter: {why}"));
        }
        if let Some((_, why)) = NO_EFFECT.iter().find(|(n, _)| *n == name) {
            match name {
                "repeat" => match option.values.as_slice() {
                    [] => games = Some(2).filter(|_| tool == Tool::Fastchess).or(games),
                    [n] if n == "2" => {}
                    _ => {
                        return Err(format!(
                            "{option} {}: Arbiter plays each opening twice (a game pair)",
                            option.values.join(" ")
                        ));
                    }
                },
                _ if !why.is_empty() => t.notes.push(format!("{option}: accepted; {why}")),
                _ => {}
            }
            continue;
        }
        match name {
            "show-latency" => {
                none(option)?;
                latency = true;
                t.notes.push(format!(
                    "{option}: each move's latency (measured less reported time) goes into the PGN move comments \
                     (latency=), not the log"
                ));
            }
            "engine" => engines.push(pairs(option)),
            "each" => each.extend(pairs(option)),
            "games" => games = Some(number(option)?),
            "rounds" => rounds = Some(number(option)?),
            "concurrency" => push(&mut args, "concurrency", Some(number(option)?.to_string())),
            "noswap" => none(option).map(|()| push(&mut args, "noswap", None))?,
            "reverse" => none(option).map(|()| push(&mut args, "reverse", None))?,
            "recover" => none(option).map(|()| push(&mut args, "recover", None))?,
            "tbignore50" => none(option).map(|()| push(&mut args, "tbignore50", None))?,
            "use-affinity" => match option.values.as_slice() {
                [] => push(&mut args, "affinity", None),
                [cpus] => push(&mut args, "affinity", Some(cpus.clone())),
                _ => return Err(format!("{option}: expected one CPU list such as 3,5,7-11")),
            },
            "wait" => push(&mut args, "wait", Some(number(option)?.to_string())),
            "srand" => push(&mut args, "seed", Some(number(option)?.to_string())),
            "maxmoves" => push(&mut args, "maxmoves", Some(number(option)?.to_string())),
            "tbpieces" => push(&mut args, "tbpieces", Some(number(option)?.to_string())),
            "event" | "site" if option.values.is_empty() => return Err(format!("{option}: a value is missing")),
            "event" => push(&mut args, "event", Some(option.values.join(" "))),
            "site" => push(&mut args, "site", Some(option.values.join(" "))),
            "startup-ms" => push(&mut args, "handshake-timeout-ms", Some(number(option)?.to_string())),
            "ping-ms" | "ucinewgame-ms" => push(&mut args, "ping-timeout-ms", Some(number(option)?.to_string())),
            "ratinginterval" => t.rating_interval = number(option)?,
            "scoreinterval" => t.score_interval = number(option)?,
            "outcomeinterval" if tool == Tool::Cutechess => t.outcome_interval = Some(number(option)?),
            "tb" => {
                let paths: Vec<&str> = value(option)?.split([';', ':']).filter(|p| !p.is_empty()).collect();
                push(&mut args, "tb", Some(paths.join(":")));
            }
            "tbadjudicate" => {
                push(&mut args, "tbadjudicate", Some(value(option)?.to_ascii_lowercase().replace('_', "-")))
            }
            "draw" => push(&mut args, "draw", Some(key_values(option, &["movenumber", "movecount", "score"])?)),
            "resign" => {
                let mut option = option.clone();
                // cutechess-cli's help writes `-resign ... [twosided=VALUE]`; a bare `twosided` means true.
                for word in &mut option.values {
                    if word == "twosided" {
                        *word = "twosided=true".into();
                    }
                }
                push(&mut args, "resign", Some(key_values(&option, &["movecount", "score", "twosided"])?));
            }
            "sprt" => {
                let mut text = key_values(option, &["elo0", "elo1", "alpha", "beta", "model"])?;
                let sprt_model_given = text.contains("model=");
                text = text.replace("model=bayesian", "model=bayeselo");
                if tool == Tool::Cutechess {
                    if sprt_model_given {
                        t.notes.push(format!(
                            "{option}: cutechess-cli's -sprt has no model= (its SPRT is BayesElo's); Arbiter takes \
                             the model given"
                        ));
                    } else {
                        // cutechess-cli's SPRT is over single games with its BayesElo model (sprt.cpp).
                        text.push_str(",model=bayeselo");
                    }
                }
                push(&mut args, "sprt", Some(text));
            }
            "variant" => match value(option)? {
                "standard" => {}
                "fischerandom" => push(&mut args, "variant", Some("chess960".into())),
                other => {
                    return Err(format!(
                        "{option} {other}: Arbiter plays standard chess and fischerandom (Chess960) only"
                    ));
                }
            },
            "seeds" => seeds = Some(number(option)?),
            "tournament" => match value(option)? {
                "round-robin" | "roundrobin" => {}
                "gauntlet" => push(&mut args, "tournament", Some("gauntlet".into())),
                "pyramid" if tool == Tool::Cutechess => push(&mut args, "tournament", Some("pyramid".into())),
                "knockout" if tool == Tool::Cutechess => push(&mut args, "tournament", Some("knockout".into())),
                other => {
                    return Err(format!(
                        "{option} {other}: not supported by Arbiter (round-robin, gauntlet and, of cutechess-cli, knockout and pyramid are)"
                    ));
                }
            },
            "resultformat" => match value(option)? {
                "default" => {}
                other => return Err(format!("{option} {other}: Arbiter prints the default format only")),
            },
            "openings" => {
                openings = true;
                push(&mut args, "openings", Some(openings_spec(tool, option)?));
                if let Some(p) = pairs(option).into_iter().find(|p| p.key == "policy") {
                    policy = p.value;
                }
            }
            "pgnout" => {
                let (file, words, fields) = pgnout_words(option, &mut t.notes)?;
                pgnout = Some(PathBuf::from(&file));
                args.push("--pgnout".into());
                args.push(file);
                args.extend(words);
                if !fields.is_empty() {
                    // fastchess's comment: score/depth and time, then the fields asked for.
                    args.push("--pgn-fields".into());
                    args.push(format!("score,depth,time,{}", fields.join(",")));
                }
            }
            "epdout" => {
                let file = match option.values.as_slice() {
                    [one] if !one.contains('=') => one.clone(),
                    _ => {
                        let mut file = None;
                        for pair in pairs(option) {
                            match pair.key.as_str() {
                                "file" => file = Some(pair.value),
                                "append" if boolean("epdout", &pair)? => {}
                                _ => return Err(format!("{option} {}: expected file= (and append=true)", pair.key)),
                            }
                        }
                        file.ok_or_else(|| format!("{option}: file= is missing"))?
                    }
                };
                push(&mut args, "epdout", Some(file));
            }
            "output" => {
                output = match key_values(option, &["format"])?.as_str() {
                    "format=cutechess" => Tool::Cutechess,
                    "format=fastchess" => Tool::Fastchess,
                    other => return Err(format!("{option} {other}: expected format=cutechess or format=fastchess")),
                };
            }
            "report" => {
                for pair in pairs(option) {
                    if pair.key != "penta" || !boolean("report", &pair)? {
                        return Err(format!(
                            "{option} {}={}: Arbiter reports pentanomial counts always (penta=true)",
                            pair.key, pair.value
                        ));
                    }
                }
            }
            "crc32" => {
                for pair in pairs(option) {
                    if pair.key != "pgn" {
                        return Err(format!("{option} {}: expected pgn=true", pair.key));
                    }
                    crc32 = boolean("crc32", &pair)?;
                }
            }
            // cutechess-cli prints every engine line with -debug; Arbiter's --log to standard output does.
            "debug" if tool == Tool::Cutechess => {
                none(option)?;
                push(&mut args, "log", Some("-".to_string()));
            }
            "log" if tool == Tool::Fastchess => push(&mut args, "log", Some(log_file(option, &mut t.notes)?)),
            _ => return Err(format!("{option}: unknown option of {}", tool.program())),
        }
    }
    if args.iter().any(|a| a == "--tbpieces") && !args.iter().any(|a| a == "--tb") {
        return Err("-tbpieces: give the tables with -tb PATHS".to_string());
    }
    if latency {
        match args.iter().position(|a| a == "--pgn-fields") {
            Some(i) => args[i + 1].push_str(",latency"),
            None => args.extend(["--pgn-fields".to_string(), "score,depth,time,latency".to_string()]),
        }
    }
    match seeds {
        Some(n) if args.windows(2).any(|w| w[0] == "--tournament" && (w[1] == "gauntlet" || w[1] == "knockout")) => {
            push(&mut args, "seeds", Some(n.to_string()));
            if tool == Tool::Fastchess && args.iter().any(|a| a == "gauntlet") {
                // fastchess's seeds play one another too (its GauntletScheduler), cutechess-cli's do not.
                args.push("--seeds-meet".into());
            }
        }
        Some(n) if n > 1 => {
            t.notes.push(format!("-seeds {n}: no effect outside a gauntlet (as in {})", tool.program()))
        }
        _ => {}
    }
    if !args.iter().any(|a| a == "--concurrency") {
        // Both tools play one game at a time unless told otherwise (Arbiter's own default is one per core).
        push(&mut args, "concurrency", Some("1".to_string()));
    }
    if !openings {
        // Both tools play every game from the start position without -openings.
        push(&mut args, "openings", Some(arbiter::runner::START_POSITION.to_string()));
    }
    if engines.len() < 2 {
        return Err(format!("{} needs at least two -engine options", tool.program()));
    }
    for own in &engines {
        push(&mut args, "engine", Some(engine_spec(tool, own, &each)?));
    }
    if engines.len() > 2 && policy != "round" {
        t.notes.push(format!(
            "-openings policy={policy}: Arbiter plays one opening per round, shared by every encounter of the round \
             (cutechess-cli's policy=round)"
        ));
    }
    let per_encounter = games.unwrap_or(if tool == Tool::Cutechess { 1 } else { 2 })
        * rounds.unwrap_or(if tool == Tool::Cutechess { 1 } else { 2 });
    if tool == Tool::Fastchess && games.is_some_and(|g| g > 2) {
        return Err(format!("-games {}: Arbiter plays game pairs (fastchess's -games 2)", games.unwrap_or(0)));
    }
    if per_encounter % 2 == 1 || per_encounter == 0 {
        return Err(format!(
            "{per_encounter} games per encounter (-games x -rounds): Arbiter plays every opening as a game pair, so \
             the games per encounter must be even"
        ));
    }
    if tool == Tool::Cutechess && games.is_some_and(|g| g > 2) {
        t.notes.push(format!(
            "-games {}: Arbiter plays each opening as a game pair, not once per game (as cutechess-cli does without -repeat)",
            games.unwrap_or(0)
        ));
    }
    push(&mut args, "rounds", Some((per_encounter / 2).to_string()));
    push(&mut args, "ratinginterval", Some(t.rating_interval.to_string()));
    push(&mut args, "report-format", Some(output.name().to_string()));
    if crc32 {
        t.crc32 = Some(pgnout.ok_or("-crc32 pgn=true: no -pgnout file to check")?);
    }
    if output == Tool::Fastchess {
        t.score_interval = 0;
    } else if tool == Tool::Fastchess && t.score_interval == 0 {
        t.score_interval = 1;
    }
    t.args = args;
    Ok(t)
}
