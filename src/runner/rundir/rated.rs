//! The lenient reading of `games.csv` files for a rating list (`arbiter elo`): only the columns `pair`,
//! `white`, `black` and `result`, found by name in the header, and no `games.pgn`, so that the files of several
//! runs, or of another tool with those columns, can be rated together.

use crate::runner::rundir::record_error::RecordError;
use crate::stats::{GameScore, RatedGame};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The games of the input files, with the players' names.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GameSet {
    /// Player names by index, in order of first appearance.
    pub names: Vec<String>,
    /// Every game; `pair` numbers the (file, pair) combinations from 0 in order of first appearance.
    pub games: Vec<RatedGame>,
    /// The files read.
    pub files: Vec<PathBuf>,
}

/// The columns of `games.csv` the rating needs.
const NEEDED_COLUMNS: [&str; 4] = ["pair", "white", "black", "result"];

/// The `games.csv` a command-line path stands for: the path itself, or `games.csv` inside a folder.
fn games_file(path: &Path) -> PathBuf {
    if path.is_dir() { path.join("games.csv") } else { path.to_path_buf() }
}

/// Parses a `games.csv` result: `1-0`, `0-1` or `1/2-1/2`, from White's view.
fn parse_result(text: &str) -> Option<GameScore> {
    match text {
        "1-0" => Some(GameScore::Win),
        "0-1" => Some(GameScore::Loss),
        "1/2-1/2" => Some(GameScore::Draw),
        _ => None,
    }
}

/// Reads the games of every file (a folder stands for its `games.csv`); players are matched by name across
/// files and game pairs kept apart by file.
///
/// # Errors
/// [`RecordError::Read`] for a file that cannot be read, [`RecordError::File`] for one that or lacks a needed column (`pair`, `white`,
/// `black`, `result`), and naming `file:line` for a row with the wrong number of fields, a `pair` that is not
/// a non-negative integer, an empty name, a player against itself, or a result other than `1-0`, `0-1`,
/// `1/2-1/2`.
pub fn read_rated_games(paths: &[PathBuf]) -> Result<GameSet, RecordError> {
    let mut reader = GameReader::default();
    for path in paths {
        let file = games_file(path);
        let opened = std::fs::File::open(&file)
            .map_err(|reason| RecordError::Read { path: file.display().to_string(), reason })?;
        reader.read(opened, &file.display().to_string())?;
        reader.set.files.push(file);
    }
    Ok(reader.set)
}

/// Reads `games.csv` text into a [`GameSet`], file after file, keeping players by name and game pairs by file.
#[derive(Debug, Default)]
struct GameReader {
    /// The games read so far (`files` is filled by the caller).
    set: GameSet,
    /// Player index by name.
    players: HashMap<String, usize>,
    /// Pair id by (file number, pair in the file).
    pairs: HashMap<(usize, u64), u64>,
    /// Files read so far.
    read: usize,
}

impl GameReader {
    /// Reads the games of one `games.csv` text; `shown` names it in errors.
    fn read(&mut self, input: impl std::io::Read, shown: &str) -> Result<(), RecordError> {
        let file = |reason: String| RecordError::File { path: shown.to_string(), reason };
        let bad =
            |line: u64, reason: String| RecordError::BadRow { path: shown.to_string(), line: line as usize, reason };
        let file_index = self.read;
        self.read += 1;
        let mut reader = csv::Reader::from_reader(input);
        let header = reader.headers().map_err(|e| file(format!("cannot read the header: {e}")))?.clone();
        let mut columns = [0; 4];
        for (column, name) in columns.iter_mut().zip(NEEDED_COLUMNS) {
            *column = header.iter().position(|h| h == name).ok_or_else(|| {
                file(format!("no {name:?} column in the header (expected the games.csv of arbiter match)"))
            })?;
        }
        for record in reader.records() {
            let record = record.map_err(|e| match e.kind() {
                csv::ErrorKind::UnequalLengths { pos: Some(pos), expected_len, len } => {
                    bad(pos.line(), format!("{len} fields, expected {expected_len}"))
                }
                _ => match e.position() {
                    Some(pos) => bad(pos.line(), e.to_string()),
                    None => file(e.to_string()),
                },
            })?;
            let line = record.position().map_or(0, |p| p.line());
            let field = |k: usize| record.get(columns[k]).unwrap_or("");
            let pair: u64 = field(0)
                .parse()
                .map_err(|_| bad(line, format!("pair {:?} is not a non-negative integer", field(0))))?;
            let (white, black) = (field(1), field(2));
            if white.is_empty() || black.is_empty() {
                return Err(bad(line, "an empty player name".to_string()));
            }
            if white == black {
                return Err(bad(line, format!("{white:?} plays itself")));
            }
            let result = parse_result(field(3))
                .ok_or_else(|| bad(line, format!("result {:?}: expected 1-0, 0-1 or 1/2-1/2", field(3))))?;
            let (white, black) = (self.player(white), self.player(black));
            let next = self.pairs.len() as u64;
            let pair = *self.pairs.entry((file_index, pair)).or_insert(next);
            self.set.games.push(RatedGame { white, black, result, pair });
        }
        Ok(())
    }

    /// The index of the player `name`, added when new.
    fn player(&mut self, name: &str) -> usize {
        let names = &mut self.set.names;
        *self.players.entry(name.to_string()).or_insert_with(|| {
            names.push(name.to_string());
            names.len() - 1
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_read_across_files_by_name() {
        let header = "pair,game,opening,white,black,result,termination,plies,start_fen\n";
        let mut reader = GameReader::default();
        let first = format!("{header}0,0,0,a,b,1-0,checkmate,9,x\n0,1,0,b,a,1/2-1/2,max moves,9,x\n");
        reader.read(first.as_bytes(), "one.csv").unwrap();
        reader.read(format!("{header}0,0,0,c,a,0-1,checkmate,9,x\n").as_bytes(), "two.csv").unwrap();
        assert_eq!(reader.set.names, ["a", "b", "c"]);
        let games: Vec<(usize, usize, GameScore, u64)> =
            reader.set.games.iter().map(|g| (g.white, g.black, g.result, g.pair)).collect();
        assert_eq!(games, [(0, 1, GameScore::Win, 0), (1, 0, GameScore::Draw, 0), (2, 0, GameScore::Loss, 1)]);
        let error = reader.read(format!("{header}0,0,0,a,b,1-0,x,9,x\n1,2,0,a,b,2-0,x,9,x\n").as_bytes(), "bad.csv");
        assert_eq!(error.unwrap_err().to_string(), "bad.csv:3: result \"2-0\": expected 1-0, 0-1 or 1/2-1/2");
    }

    proptest::proptest! {
        #[test]
        fn no_games_csv_text_panics(text in "(pair,white,black,result\n)?[-a-c0-9,/.\"\n]{0,80}") {
            let _ = GameReader::default().read(text.as_bytes(), "fuzz.csv");
        }
    }
}
