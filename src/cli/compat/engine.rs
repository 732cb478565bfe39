//! `-engine` and `-each` of cutechess-cli and fastchess, as an `arbiter match --engine` spec.

use super::Tool;
use super::engines_json;
use super::words::Pair;

/// Engine keys that both tools have and Arbiter refuses, with the reason.
const REFUSED_KEYS: [(&str, &str); 4] = [
    ("stderr", "Arbiter keeps an engine's standard error with its output (the last lines of a failure, --log)"),
    ("tscale", "Arbiter's engine timeouts are set by -startup-ms and -ping-ms"),
    ("trust", "Arbiter validates every game end itself; engines do not claim results"),
    ("debug", "give --log FILE to arbiter match for every engine's input and output"),
];

/// Why Arbiter refuses the engine key `key` ([`REFUSED_KEYS`]); `None` for a key it takes.
pub fn refused_key(key: &str) -> Option<&'static str> {
    REFUSED_KEYS.iter().find(|(k, _)| *k == key).map(|(_, why)| *why)
}

/// Quotes `value` as a shell word when it needs it (a comma, a space, a quote), for the keys of an Arbiter
/// engine spec that take shell quoting.
fn quoted(value: &str) -> Result<String, String> {
    shlex::try_quote(value).map(|q| q.into_owned()).map_err(|_| format!("{value:?} holds a NUL character"))
}

/// The Arbiter `--engine` spec of an engine given by `own` (its `-engine` words) and `each` (the `-each`
/// words, applied after the engine's own as both tools do, so they win).
///
/// # Errors
/// A key Arbiter does not support, an unknown key, a value that cannot be carried.
pub fn engine_spec(tool: Tool, own: &[Pair], each: &[Pair]) -> Result<String, String> {
    let mut fields: Vec<(String, String)> = Vec::new();
    let mut args: Vec<String> = Vec::new();
    let mut cmd: Option<String> = None;
    let mut name: Option<String> = None;
    let (own, each) = match tool {
        Tool::Cutechess => (engines_json::expand("-engine", own)?, engines_json::expand("-each", each)?),
        Tool::Fastchess => (own.to_vec(), each.to_vec()),
    };
    let set = |fields: &mut Vec<(String, String)>, key: &str, value: String| {
        fields.retain(|(k, _)| k != key);
        fields.push((key.to_string(), value));
    };
    for (pair, from_each) in own.iter().map(|p| (p, false)).chain(each.iter().map(|p| (p, true))) {
        let option = if from_each { "-each" } else { "-engine" };
        let key = pair.key.as_str();
        if let Some(why) = refused_key(key) {
            return Err(format!("{option} {key}: not supported: {why}"));
        }
        if pair.flag && !matches!(key, "ponder" | "whitepov" | "trust" | "debug") {
            return Err(format!("{option} {key}: expected {key}=VALUE"));
        }
        match key {
            "name" | "cmd" if from_each => return Err(format!("-each {key}: give {key}= to each -engine")),
            "name" => name = Some(pair.value.clone()),
            "cmd" => cmd = Some(pair.value.clone()),
            "dir" => set(&mut fields, "dir", quoted(&pair.value)?),
            "arg" if tool == Tool::Cutechess => args.push(pair.value.clone()),
            "args" => {
                let words = shlex::split(&pair.value).ok_or_else(|| format!("{option} args: unbalanced quotes"))?;
                args.extend(words);
            }
            "tc" | "st" | "nodes" | "timemargin" | "bookdepth" => set(&mut fields, key, pair.value.clone()),
            "book" => set(&mut fields, "book", quoted(&pair.value)?),
            "depth" | "plies" => set(&mut fields, "depth", pair.value.clone()),
            "ponder" | "whitepov" if tool == Tool::Cutechess && (pair.flag || pair.value.is_empty()) => {
                set(&mut fields, key, "on".into())
            }
            "initstr" if tool == Tool::Cutechess => set(&mut fields, "initstr", quoted(&pair.value)?),
            "proto" => match pair.value.as_str() {
                "uci" => fields.retain(|(k, _)| k != "proto"),
                "xboard" if tool == Tool::Cutechess => set(&mut fields, "proto", "xboard".into()),
                other => return Err(format!("{option} proto={other}: expected uci{}", xboard(tool))),
            },
            "restart" => match pair.value.as_str() {
                "on" => set(&mut fields, "restart", "on".into()),
                // Arbiter keeps an engine between games and restarts it after a failure, which is what `auto`
                // does for a UCI engine and `off` asks for.
                "off" | "auto" => fields.retain(|(k, _)| k != "restart"),
                other => return Err(format!("{option} restart={other}: expected on, off or auto")),
            },
            _ if key.starts_with("option.") && key.len() > "option.".len() => {
                set(&mut fields, key, quoted(&pair.value)?);
            }
            _ => return Err(format!("{option} {key}: unknown engine option")),
        }
    }
    let Some(cmd) = cmd else { return Err("-engine: cmd= is missing".to_string()) };
    // cutechess-cli runs cmd= as a command line (program and arguments); fastchess as the program's path.
    let (program, mut leading) = match tool {
        Tool::Cutechess => {
            let mut words = shlex::split(&cmd)
                .filter(|w| !w.is_empty())
                .ok_or_else(|| format!("-engine cmd={cmd}: unbalanced quotes"))?;
            if words.is_empty() {
                return Err("-engine cmd=: empty".to_string());
            }
            let program = words.remove(0);
            (program, words)
        }
        Tool::Fastchess => (cmd.clone(), Vec::new()),
    };
    leading.extend(args);
    // fastchess names an engine without name= after its program's file name; cutechess after the engine's
    // `id name`, which Arbiter does not read before the match (docs/cutechess-fastchess.md).
    let name = name.unwrap_or_else(|| {
        std::path::Path::new(&program).file_name().map_or(program.clone(), |f| f.to_string_lossy().into_owned())
    });
    if name.contains(',') || name.contains('=') {
        return Err(format!("-engine name={name}: Arbiter's engine names cannot hold ',' or '='"));
    }
    let mut spec = vec![format!("name={name}"), format!("cmd={}", quoted(&program)?)];
    if !leading.is_empty() {
        let joined = shlex::try_join(leading.iter().map(String::as_str)).map_err(|_| "-engine arg: a NUL character")?;
        spec.push(format!("args={}", quoted(&joined)?));
    }
    spec.extend(fields.into_iter().map(|(k, v)| format!("{k}={v}")));
    Ok(spec.join(","))
}

fn xboard(tool: Tool) -> &'static str {
    if tool == Tool::Cutechess { " or xboard" } else { " (fastchess speaks UCI only)" }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::compat::words::{OptionWords, pairs};

    fn p(text: &str) -> Vec<Pair> {
        pairs(&OptionWords { name: "engine".into(), values: text.split_whitespace().map(String::from).collect() })
    }

    #[test]
    fn engine_words_become_an_arbiter_spec() {
        let spec = engine_spec(
            Tool::Fastchess,
            &p("name=New-1 tc=10+0.1 cmd=/w/sf dir=. option.Hash=16"),
            &p("proto=uci option.Threads=1 timemargin=10000"),
        )
        .unwrap();
        assert_eq!(spec, "name=New-1,cmd=/w/sf,tc=10+0.1,dir=.,option.Hash=16,option.Threads=1,timemargin=10000");
        // -each wins; cutechess's cmd is a command line; arg= repeats.
        let spec = engine_spec(Tool::Cutechess, &p("cmd=./sf arg=--x arg=a,b tc=1+1 depth=3"), &p("tc=2+2")).unwrap();
        assert_eq!(spec, r#"name=sf,cmd=./sf,args="--x 'a,b'",depth=3,tc=2+2"#);
        assert_eq!(
            engine_spec(Tool::Fastchess, &p("cmd=x plies=7 tc=inf"), &[]).unwrap(),
            "name=x,cmd=x,depth=7,tc=inf"
        );
        assert_eq!(
            engine_spec(Tool::Cutechess, &p("cmd=x book=my,b.bin bookdepth=4"), &[]).unwrap(),
            "name=x,cmd=x,book='my,b.bin',bookdepth=4"
        );
        assert_eq!(
            engine_spec(Tool::Fastchess, &p("cmd=x proto=xboard"), &[]).unwrap_err(),
            "-engine proto=xboard: expected uci (fastchess speaks UCI only)"
        );
        assert_eq!(
            engine_spec(Tool::Cutechess, &p("cmd=x colour=red"), &[]).unwrap_err(),
            "-engine colour: unknown engine option"
        );
        assert_eq!(engine_spec(Tool::Cutechess, &p("name=a"), &[]).unwrap_err(), "-engine: cmd= is missing");
        assert_eq!(
            engine_spec(Tool::Cutechess, &p("cmd=x"), &p("name=b")).unwrap_err(),
            "-each name: give name= to each -engine"
        );
    }
}
