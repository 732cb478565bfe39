//! `arbiter elo`: the rating list of every player in one or more `games.csv` files of `arbiter match`, rated
//! together by maximum likelihood ([`arbiter::stats::rating_list`]), as a table on stdout and optionally as CSV.

use super::{Classify as _, Failure};
use anyhow::{Context, anyhow, bail};
use arbiter::runner::rundir::rated::{GameSet, read_rated_games};
use arbiter::stats::{DEFAULT_BOOTSTRAP, DEFAULT_SEED, PRIOR_DRAWS, RatingList, RatingOptions};
use arbiter::stats::{StatsError, rating_list};
use std::path::{Path, PathBuf};

/// Flags of `arbiter elo`.
#[derive(clap::Args, Debug)]
pub struct EloArgs {
    /// `games.csv` files of `arbiter match` (a folder stands for its `games.csv`); all their games are rated
    /// together, players matched by name.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Fix one player's rating (NAME=ELO, such as seed=2800) instead of making the mean rating 0.
    #[arg(long, value_name = "NAME=ELO")]
    pub anchor: Option<String>,
    /// Also write the list as CSV to this file (replaced if it exists).
    #[arg(long, value_name = "OUT")]
    pub csv: Option<PathBuf>,
    /// Bootstrap resamples of game pairs for the 95% intervals and the LOS (0: none).
    #[arg(value_parser = crate::cli::args::int_in(0usize, 1_000_000), long, value_name = "N", default_value_t = DEFAULT_BOOTSTRAP)]
    pub bootstrap: usize,
    /// Seed of the bootstrap.
    #[arg(long, value_name = "S", default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// Output format: text (the table), or json (one object, every figure at full precision; see
    /// docs/statistics.md).
    #[arg(long, value_enum, default_value_t = super::args::OutputFormat::Text)]
    pub format: super::args::OutputFormat,
}

/// The header of the CSV that `--csv` writes.
pub const CSV_HEADER: [&str; 11] =
    ["rank", "name", "elo", "lower", "upper", "games", "points", "score_pct", "draws", "draws_pct", "los_pct"];

/// Parses `--anchor NAME=ELO` (split at the last `=`).
///
/// # Errors
/// A message naming the flag for text without `=`, an empty name, or an Elo that is not a finite number.
pub fn parse_anchor(text: &str) -> anyhow::Result<(String, f64)> {
    let (name, elo) =
        text.rsplit_once('=').ok_or_else(|| anyhow!("--anchor {text:?}: expected NAME=ELO, such as seed=2800"))?;
    if name.is_empty() {
        bail!("--anchor {text:?}: the player name is empty (expected NAME=ELO)");
    }
    let value: f64 = elo.trim().parse().map_err(|_| anyhow!("--anchor {text:?}: {elo:?} is not a number"))?;
    if !value.is_finite() {
        bail!("--anchor {text:?}: the rating must be a finite number");
    }
    Ok((name.to_string(), value))
}

/// A number with `decimals` decimals, never `-0.0`.
fn fixed(x: f64, decimals: usize) -> String {
    let text = format!("{x:.decimals$}");
    if text.starts_with('-') && text[1..].chars().all(|c| c == '0' || c == '.') { text[1..].to_string() } else { text }
}

/// A share in `[0, 1]` as a percentage with one decimal: `62.5%`.
fn percent(x: f64) -> String {
    format!("{}%", fixed(100.0 * x, 1))
}

/// Renders the rating list as a table: Rank, Name, Elo, -/+ (95%) (the interval's ends minus the rating), Games,
/// Score, Draws and LOS (over the next player), one decimal; `-` where there is no interval or LOS.
pub fn render_table(list: &RatingList, names: &[String]) -> String {
    let name_width = list.ranking.iter().map(|r| names[r.player].chars().count()).max().unwrap_or(0).max(4);
    let rows: Vec<[String; 8]> = list
        .ranking
        .iter()
        .enumerate()
        .map(|(k, r)| {
            let interval = match (r.lower, r.upper) {
                (Some(lower), Some(upper)) => {
                    let sign =
                        |d: f64| if fixed(d, 1).starts_with('-') { fixed(d, 1) } else { format!("+{}", fixed(d, 1)) };
                    format!("{}/{}", sign(lower - r.elo), sign(upper - r.elo))
                }
                _ => "-".to_string(),
            };
            [
                (k + 1).to_string(),
                names[r.player].clone(),
                fixed(r.elo, 1),
                interval,
                r.games.to_string(),
                percent(r.score()),
                percent(r.draw_ratio()),
                r.los_next.map_or("-".to_string(), percent),
            ]
        })
        .collect();
    let headers = ["Rank", "Name", "Elo", "-/+ (95%)", "Games", "Score", "Draws", "LOS"];
    let mut widths = headers.map(|h| h.chars().count());
    widths[1] = name_width;
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: [&str; 8]| {
        let mut text = String::new();
        for (k, (cell, w)) in cells.iter().zip(widths).enumerate() {
            if k > 0 {
                text.push_str("  ");
            }
            if k == 1 {
                text.push_str(&format!("{cell:<w$}"));
            } else {
                text.push_str(&format!("{cell:>w$}"));
            }
        }
        text.trim_end().to_string() + "\n"
    };
    let mut out = line(headers);
    for row in &rows {
        out.push_str(&line(row.each_ref().map(String::as_str)));
    }
    out
}

/// The lines above the table: what was rated, how, and a note when the virtual draws were needed.
fn render_header(list: &RatingList, set: &GameSet, options: &RatingOptions) -> String {
    let count = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    let mut out = format!(
        "{}, {} ({}) from {}\n",
        count(set.names.len(), "player"),
        count(set.games.len(), "game"),
        count(list.pairs, "game pair"),
        count(set.files.len(), "file")
    );
    out.push_str("Elo: maximum likelihood over all games (logistic, a draw is half a win and half a loss), ");
    match options.anchor {
        Some((player, elo)) => out.push_str(&format!("anchored at {} = {}\n", set.names[player], fixed(elo, 1))),
        None => out.push_str("mean 0\n"),
    }
    if list.resamples > 0 {
        out.push_str(&format!(
            "-/+ (95%): the 2.5% and 97.5% percentiles of {} bootstrap resamples of game pairs (seed {})\n\
             LOS: the share of those resamples that rate the player above the next one\n",
            list.resamples, options.seed
        ));
    }
    if list.prior {
        let perfect: Vec<String> = list
            .ranking
            .iter()
            .filter(|r| r.points == 0.0 || r.points == r.games as f64)
            .map(|r| format!("{} ({})", set.names[r.player], percent(r.score())))
            .collect();
        let who = if perfect.is_empty() {
            "a group of players won or lost every game against the others".to_string()
        } else {
            format!("perfect score: {}", perfect.join(", "))
        };
        out.push_str(&format!(
            "note: the maximum-likelihood ratings do not exist ({who}); {PRIOR_DRAWS} virtual draw added between \
             every two players that met\n"
        ));
    }
    let partly = list.resamples_with_prior;
    if partly > 0 && !list.prior {
        out.push_str(&format!(
            "note: {partly} of {} resamples had no maximum-likelihood ratings (a perfect score) and were fitted \
             with {PRIOR_DRAWS} virtual draw between every two players that met\n",
            list.resamples
        ));
    }
    out
}

/// The rating list as one JSON object (docs/statistics.md): what was rated and how, and per player, best first,
/// the rating, the 95% interval's ends, games, points, draws, score and draw shares, and the LOS over the next
/// player, every figure at full precision; a figure that does not exist is `null` with its reason under
/// `"reasons"`.
pub fn render_json(list: &RatingList, set: &GameSet, options: &RatingOptions) -> serde_json::Value {
    use arbiter::stats::{Figure, figures_json};
    let no_bootstrap = "no bootstrap (--bootstrap 0)";
    let players: Vec<serde_json::Value> = list
        .ranking
        .iter()
        .enumerate()
        .map(|(k, r)| {
            let interval = |x: Option<f64>| x.map_or_else(|| Figure::missing(no_bootstrap), Figure::Value);
            let los = match r.los_next {
                Some(x) => Figure::Value(x),
                None if k + 1 == list.ranking.len() => Figure::missing("the last player has no next player"),
                None => Figure::missing(no_bootstrap),
            };
            let figures = [
                ("elo", Figure::of(r.elo, "")),
                ("lower", interval(r.lower)),
                ("upper", interval(r.upper)),
                ("score", Figure::of(r.score(), "")),
                ("draw_ratio", Figure::of(r.draw_ratio(), "")),
                ("los_next", los),
            ];
            let serde_json::Value::Object(mut object) = figures_json(&figures) else { unreachable!("an object") };
            object.insert("rank".into(), (k + 1).into());
            object.insert("name".into(), set.names[r.player].clone().into());
            object.insert("games".into(), r.games.into());
            object.insert("points".into(), r.points.into());
            object.insert("draws".into(), r.draws.into());
            serde_json::Value::Object(object)
        })
        .collect();
    serde_json::json!({
        "files": set.files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>(),
        "games": set.games.len(),
        "pairs": list.pairs,
        "anchor": options.anchor.map(|(player, elo)| serde_json::json!({ "name": set.names[player], "elo": elo })),
        "bootstrap": list.resamples,
        "seed": options.seed,
        "virtual_draws": list.prior,
        "resamples_with_virtual_draws": list.resamples_with_prior,
        "players": players,
    })
}

/// Writes the rating list as CSV ([`CSV_HEADER`]): `elo`, `lower`, `upper` (the interval's ends) with two
/// decimals, percentages with two decimals, empty cells where there is no interval or LOS.
fn write_csv(path: &Path, list: &RatingList, names: &[String]) -> anyhow::Result<()> {
    let shown = path.display();
    let mut writer = csv::Writer::from_path(path).with_context(|| format!("--csv {shown}: cannot create"))?;
    writer.write_record(CSV_HEADER).with_context(|| format!("--csv {shown}: cannot write"))?;
    for (k, r) in list.ranking.iter().enumerate() {
        let optional = |x: Option<f64>, scale: f64| x.map_or(String::new(), |v| fixed(v * scale, 2));
        writer
            .write_record([
                (k + 1).to_string(),
                names[r.player].clone(),
                fixed(r.elo, 2),
                optional(r.lower, 1.0),
                optional(r.upper, 1.0),
                r.games.to_string(),
                r.points.to_string(),
                fixed(100.0 * r.score(), 2),
                r.draws.to_string(),
                fixed(100.0 * r.draw_ratio(), 2),
                optional(r.los_next, 100.0),
            ])
            .with_context(|| format!("--csv {shown}: cannot write"))?;
    }
    writer.flush().with_context(|| format!("--csv {shown}: cannot write"))?;
    Ok(())
}

/// Runs `arbiter elo`: reads the games, rates every player, prints the header lines and the table, and writes
/// the CSV with `--csv`. Returns exit code 0.
///
/// # Errors
/// Bad input (an unreadable file, a bad row as `file:line`, a bad `--anchor`, no games, players that never met
/// the others) and a CSV that cannot be written; `main` exits with code 2.
pub fn run(args: EloArgs) -> Result<i32, Failure> {
    let anchor = args.anchor.as_deref().map(parse_anchor).transpose().input()?;
    let set = read_rated_games(&args.files).input()?;
    if set.games.is_empty() {
        let files: Vec<String> = set.files.iter().map(|f| f.display().to_string()).collect();
        return Err(Failure::Input(anyhow!("no games in {}", files.join(", "))));
    }
    let anchor = match anchor {
        Some((name, elo)) => {
            let player = set.names.iter().position(|n| *n == name).ok_or_else(|| {
                anyhow!("--anchor {name}={elo}: no player named {name:?} (players: {})", set.names.join(", "))
            });
            let player = player.input()?;
            Some((player, elo))
        }
        None => None,
    };
    let options = RatingOptions { anchor, bootstrap: args.bootstrap, seed: args.seed };
    let list = rating_list(&set.games, set.names.len(), &options).map_err(|e| match e {
        StatsError::Disconnected { players } => {
            let outside: Vec<&str> = players.iter().map(|&p| set.names[p].as_str()).collect();
            anyhow!(
                "{} never met {} or anyone who met them: their ratings cannot be compared (rate them separately)",
                outside.join(", "),
                set.names[0]
            )
        }
        other => anyhow!(other),
    });
    let list = list.input()?;
    match args.format {
        super::args::OutputFormat::Text => {
            print!("{}\n{}", render_header(&list, &set, &options), render_table(&list, &set.names));
        }
        super::args::OutputFormat::Json => println!("{}", render_json(&list, &set, &options)),
    }
    if let Some(path) = &args.csv {
        // A file that cannot be created is the user's --csv; a full disk is still exit 3 (`exit_code`).
        write_csv(path, &list, &set.names).input()?;
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter::stats::PlayerRating;

    #[test]
    fn anchors_parse_or_name_the_flag() {
        assert_eq!(parse_anchor("seed=2800").unwrap(), ("seed".to_string(), 2800.0));
        assert_eq!(parse_anchor("a=b=-12.5").unwrap(), ("a=b".to_string(), -12.5));
        for (text, message) in [
            ("seed", "--anchor \"seed\": expected NAME=ELO, such as seed=2800"),
            ("=5", "--anchor \"=5\": the player name is empty (expected NAME=ELO)"),
            ("seed=x", "--anchor \"seed=x\": \"x\" is not a number"),
            ("seed=inf", "--anchor \"seed=inf\": the rating must be a finite number"),
        ] {
            assert_eq!(parse_anchor(text).unwrap_err().to_string(), message);
        }
    }

    #[test]
    fn numbers_never_show_negative_zero() {
        assert_eq!(fixed(-0.0, 1), "0.0");
        assert_eq!(fixed(-0.04, 1), "0.0");
        assert_eq!(fixed(-0.05001, 1), "-0.1");
        assert_eq!(fixed(12.345, 2), "12.35");
        assert_eq!(percent(0.625), "62.5%");
    }

    fn row(player: usize, elo: f64, interval: Option<(f64, f64)>, games: u64, points: f64, draws: u64) -> PlayerRating {
        PlayerRating {
            player,
            elo,
            lower: interval.map(|i| i.0),
            upper: interval.map(|i| i.1),
            games,
            points,
            draws,
            los_next: None,
        }
    }

    #[test]
    fn the_table_has_one_aligned_row_per_player() {
        let mut ranking = vec![
            row(1, 95.42, Some((60.0, 130.1)), 40, 25.0, 10),
            row(0, -0.01, Some((-20.0, 20.0)), 40, 20.0, 20),
            row(2, -95.41, Some((-131.0, -94.0)), 40, 15.0, 10),
        ];
        ranking[0].los_next = Some(0.9995);
        ranking[1].los_next = Some(0.75);
        let list = RatingList { ranking, prior: false, resamples: 1000, resamples_with_prior: 0, pairs: 30 };
        let names = ["nomob".to_string(), "seed".to_string(), "seedv0-long".to_string()];
        assert_eq!(
            render_table(&list, &names),
            "Rank  Name           Elo    -/+ (95%)  Games  Score  Draws     LOS\n\
             \x20  1  seed          95.4  -35.4/+34.7     40  62.5%  25.0%  100.0%\n\
             \x20  2  nomob          0.0  -20.0/+20.0     40  50.0%  50.0%   75.0%\n\
             \x20  3  seedv0-long  -95.4   -35.6/+1.4     40  37.5%  25.0%       -\n"
        );
    }
}
