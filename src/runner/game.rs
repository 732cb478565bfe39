//! One game between two players: book moves, then the players' moves until the rules, an adjudication, the move
//! cap or a player failure ends it.

use super::adjudication::{Adjudicated, AdjudicationRules, Adjudicator, PlayedMove};
use crate::game::opening::Opening;
use crate::game::{Color, Game, GameResult, RuleEnd};
use crate::player::book::EngineBook;
use crate::player::timecontrol::Clock;
use crate::player::{GoLimits, GoRequest, MoveLimit, Player, PlayerError};
use crate::runner::comments::{CommentField, pv_text};
use crate::tablebase::adjudicate::{TablebaseAdjudicator, TbVerdict};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Why a game ended. The result of a [`GameRecord`] always agrees with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// By the rules of the game ([`Game::outcome`]).
    Rules(RuleEnd),
    /// Draw adjudication.
    DrawAdjudication,
    /// Resign adjudication.
    ResignAdjudication,
    /// Tablebase adjudication: the Syzygy tables decided the position after a move (`--tb`).
    TablebaseAdjudication,
    /// The move cap was reached: a draw.
    MaxMoves,
    /// A player answered with an illegal move, or with text that is not a move: it loses.
    IllegalMove,
    /// A player could not be started or prepared for the game: it loses.
    PlayerFailure,
    /// A player overran its clock (or its time per move) by more than the time margin: it loses, or draws when
    /// the opponent has no mating material (FIDE Laws 6.9).
    TimeForfeit,
    /// A player's process died or closed its pipes (cutechess-cli's "disconnects"): it loses.
    Disconnect,
    /// A player stopped answering: no `bestmove` after `stop`, no `readyok` (cutechess-cli's "stalls"): it loses.
    Stall,
    /// A player printed more than the runner reads (a line or a reply over the limits of
    /// [`crate::uci::process`]): it loses, and its process is ended.
    OutputFlood,
}

impl EndReason {
    /// The text used in the CSV and the PGN `Termination` tag: `checkmate`, `stalemate`,
    /// `threefold repetition`, `fifty-move rule`, `insufficient material`, `perpetual check`,
    /// `sixty-move rule` (Xiangqi), `adjudication: draw`,
    /// `adjudication: resign`, `adjudication: tablebase`, `max moves`, `illegal move`, `engine failure`, `time forfeit`, `disconnect`,
    /// `stall` or `output flood`.
    pub fn text(self) -> &'static str {
        match self {
            EndReason::Rules(termination) => termination.text(),
            EndReason::DrawAdjudication => "adjudication: draw",
            EndReason::ResignAdjudication => "adjudication: resign",
            EndReason::TablebaseAdjudication => "adjudication: tablebase",
            EndReason::MaxMoves => "max moves",
            EndReason::IllegalMove => "illegal move",
            EndReason::PlayerFailure => "engine failure",
            EndReason::TimeForfeit => "time forfeit",
            EndReason::Disconnect => "disconnect",
            EndReason::Stall => "stall",
            EndReason::OutputFlood => "output flood",
        }
    }

    /// Whether the game ended because a player's process failed (crashed, stalled, flooded its output or could
    /// not start): without `--recover` such a failure stops the match.
    pub fn is_engine_failure(self) -> bool {
        matches!(self, EndReason::PlayerFailure | EndReason::Disconnect | EndReason::Stall | EndReason::OutputFlood)
    }

    /// The reason for a player's error.
    pub fn of_error(error: &PlayerError) -> EndReason {
        match error {
            PlayerError::Crashed { .. } => EndReason::Disconnect,
            PlayerError::Stalled { .. } => EndReason::Stall,
            PlayerError::BadMove { .. } => EndReason::IllegalMove,
            PlayerError::Start { .. } | PlayerError::UnknownOption { .. } => EndReason::PlayerFailure,
            PlayerError::Flooded { .. } => EndReason::OutputFlood,
        }
    }

    /// Every reason, in the order of the summary's termination table.
    pub const ALL: [EndReason; 17] = [
        EndReason::Rules(RuleEnd::Checkmate),
        EndReason::Rules(RuleEnd::Stalemate),
        EndReason::Rules(RuleEnd::ThreefoldRepetition),
        EndReason::Rules(RuleEnd::FiftyMoveRule),
        EndReason::Rules(RuleEnd::InsufficientMaterial),
        EndReason::Rules(RuleEnd::PerpetualCheck),
        EndReason::Rules(RuleEnd::SixtyMoveRule),
        EndReason::DrawAdjudication,
        EndReason::ResignAdjudication,
        EndReason::TablebaseAdjudication,
        EndReason::MaxMoves,
        EndReason::IllegalMove,
        EndReason::PlayerFailure,
        EndReason::TimeForfeit,
        EndReason::Disconnect,
        EndReason::Stall,
        EndReason::OutputFlood,
    ];
}

/// What a match needs to play one game, besides the players and the opening.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameSettings {
    /// The move limits of White's player and Black's player, in that order (each engine has its own).
    pub limits: [MoveLimit; 2],
    /// Adjudication rules and the move cap.
    pub adjudication: AdjudicationRules,
    /// Tablebase adjudication (`--tb`), for a game whose positions have [`Game::piece_sets`].
    pub tablebase: Option<TablebaseAdjudicator>,
    /// White's and Black's own Polyglot books (`book=` of their engine specs), if any.
    pub books: [Option<Arc<EngineBook>>; 2],
    /// The random number the book moves of this game are drawn from ([`EngineBook::move_for`]).
    pub book_seed: u64,
    /// What the comment after each engine move holds (`--pgn-fields`).
    pub comment_fields: crate::runner::comments::CommentFields,
}

impl GameSettings {
    /// Settings with the same move limit for both sides and no adjudication.
    pub fn with_limit(limit: MoveLimit) -> GameSettings {
        GameSettings { limits: [limit; 2], ..GameSettings::default() }
    }
}

/// The clocks of one game, by colour, for the sides that play under a time control.
struct Clocks([Option<Clock>; 2]);

impl Clocks {
    fn new(limits: &[MoveLimit; 2]) -> Clocks {
        Clocks([limits[0].tc.map(Clock::new), limits[1].tc.map(Clock::new)])
    }

    /// The request for `mover` under `limit`: the UCI limits (both clocks, clamped at 0) and the time it has.
    fn request(&self, mover: Color, limit: &MoveLimit) -> GoRequest {
        let left = |c: Color| self.0[c.index()].map(|clock| clock.left_ms().max(0) as u64);
        let inc = |c: Color| self.0[c.index()].map(|clock| clock.inc_ms());
        let own = self.0[mover.index()];
        let mut limits =
            GoLimits { depth: limit.depth, nodes: limit.nodes, movetime_ms: limit.movetime_ms, ..GoLimits::default() };
        if own.is_some() {
            // The opponent's clock is sent too when it has one; a side without a clock is shown the mover's.
            let other = |c: Color| left(c).or(left(mover));
            let other_inc = |c: Color| inc(c).or(inc(mover));
            limits.wtime_ms = other(Color::White);
            limits.btime_ms = other(Color::Black);
            limits.winc_ms = other_inc(Color::White);
            limits.binc_ms = other_inc(Color::Black);
            limits.movestogo = own.and_then(|clock| clock.moves_to_go());
        }
        let by_clock = left(mover);
        let allowed = match (by_clock, limit.movetime_ms) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        GoRequest { limits, allowed_ms: allowed.map(|ms| ms + limit.timemargin_ms) }
    }
}

/// A finished game of `G` (chess by default): who played, from where, every move (book first) with its PGN
/// comment, the result and why. In Xiangqi, White is Red, the side that moves first.
#[derive(Clone, Debug)]
pub struct GameRecord<G: Game> {
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The start position (before the book moves).
    pub start: G::Position,
    /// Every move from `start`: the book moves, then the players' moves.
    pub moves: Vec<G::Move>,
    /// One PGN comment per move: `book` for book moves, `score/depth` (such as `+0.35/12`) for players' moves.
    pub comments: Vec<String>,
    /// How many of `moves` came from the book.
    pub book_plies: usize,
    /// The result.
    pub result: GameResult,
    /// Why the game ended.
    pub end: EndReason,
    /// Details of a failure (the illegal move, the crash), for the log.
    pub note: Option<String>,
}

impl<G: Game> GameRecord<G> {
    /// The score of `color`'s player: 1.0 win, 0.5 draw, 0.0 loss.
    pub fn score_for(&self, color: Color) -> f64 {
        self.result.score_for(color)
    }
}

/// Plays one game of `opening`: the book moves, then `white` and `black` in turn under `settings` until the
/// game ends. Never panics on a player's behaviour: an illegal move or a failure loses the game for that side
/// and is described in [`GameRecord::note`].
///
/// Order of the checks before each move: the rules ([`Game::outcome`]), then an adjudication (or the move
/// cap) reached with the last player's move; so a checkmate on the last move stands over every adjudication.
pub fn play_game<G: Game>(
    white: &mut dyn Player<G>,
    black: &mut dyn Player<G>,
    opening: &Opening<G>,
    settings: &GameSettings,
) -> GameRecord<G> {
    play_game_unless(white, black, opening, settings, &AtomicBool::new(false))
        .expect("a game whose abandon flag is never set ends normally")
}

/// [`play_game`] that gives up when `abandon` is set: the flag is read before every player's move, and the
/// game then ends without a record (`None`; the move in progress is finished first).
pub fn play_game_unless<G: Game>(
    white: &mut dyn Player<G>,
    black: &mut dyn Player<G>,
    opening: &Opening<G>,
    settings: &GameSettings,
    abandon: &AtomicBool,
) -> Option<GameRecord<G>> {
    let mut game = opening.game();
    let book_plies = game.plies();
    let mut comments: Vec<String> = vec!["book".to_string(); book_plies];
    let names = [white.name().to_string(), black.name().to_string()];
    let ending = play_out(&mut game, &mut comments, [&mut *white, &mut *black], &names, settings, abandon)?;
    white.game_over(ending.result.pgn(), ending.end.text());
    black.game_over(ending.result.pgn(), ending.end.text());
    Some(GameRecord {
        white: names[0].clone(),
        black: names[1].clone(),
        start: opening.start.clone(),
        moves: game.moves(),
        comments,
        book_plies,
        result: ending.result,
        end: ending.end,
        note: ending.note,
    })
}

/// How a game ended.
struct Ending {
    result: GameResult,
    end: EndReason,
    note: Option<String>,
}

impl Ending {
    fn new(result: GameResult, end: EndReason) -> Ending {
        Ending { result, end, note: None }
    }

    /// A loss for `loser` by a failure described in `note`.
    fn failure(loser: Color, end: EndReason, note: String) -> Ending {
        Ending { result: GameResult::win_for(loser.flip()), end, note: Some(note) }
    }
}

/// Plays `game` from the end of the book to its end; `players` and `names` are indexed by colour. `None` when
/// `abandon` is set before a player's move.
fn play_out<G: Game>(
    game: &mut G,
    comments: &mut Vec<String>,
    players: [&mut dyn Player<G>; 2],
    names: &[String; 2],
    settings: &GameSettings,
    abandon: &AtomicBool,
) -> Option<Ending> {
    for color in Color::ALL {
        if let Err(error) = players[color.index()].new_game() {
            if abandon.load(Ordering::Relaxed) {
                return None;
            }
            return Some(Ending::failure(color, EndReason::of_error(&error), error.to_string()));
        }
    }
    let mut adjudicator = Adjudicator::new(settings.adjudication);
    let mut adjudicated: Option<Adjudicated> = None;
    let mut by_tables: Option<TbVerdict> = None;
    let mut clocks = Clocks::new(&settings.limits);
    loop {
        if let Some(outcome) = game.outcome() {
            return Some(Ending::new(outcome.result, EndReason::Rules(outcome.termination)));
        }
        // The tables come before the engines' adjudications, as in cutechess-cli's GameAdjudicator::addEval.
        if let Some(verdict) = by_tables {
            if let Some(last) = comments.last_mut() {
                last.push_str(", ");
                last.push_str(&verdict.comment);
            }
            let end = EndReason::TablebaseAdjudication;
            return Some(Ending { result: verdict.result, end, note: Some(verdict.comment) });
        }
        match adjudicated {
            Some(Adjudicated::Draw) => return Some(Ending::new(GameResult::Draw, EndReason::DrawAdjudication)),
            Some(Adjudicated::Resign { loser }) => {
                return Some(Ending::new(GameResult::win_for(loser.flip()), EndReason::ResignAdjudication));
            }
            Some(Adjudicated::MaxMoves) => return Some(Ending::new(GameResult::Draw, EndReason::MaxMoves)),
            None => {}
        }
        if abandon.load(Ordering::Relaxed) {
            return None;
        }

        let mover = game.mover();
        // An engine's own book moves for it, off the clock (cutechess-cli's ChessGame::startTurn).
        if let Some(m) = settings.books[mover.index()].as_ref().and_then(|b| b.move_for(game, settings.book_seed)) {
            game.play(m);
            comments.push("book".to_string());
            (adjudicated, by_tables) = judge(game, &mut adjudicator, mover, None, settings);
            continue;
        }
        let limit = &settings.limits[mover.index()];
        let request = clocks.request(mover, limit);
        let asked = Instant::now();
        let answer = players[mover.index()].go(game, &request);
        let spent_ms = u64::try_from(asked.elapsed().as_millis()).unwrap_or(u64::MAX);
        let mut answer = match answer {
            Ok(answer) => answer,
            // A move cut short by an interrupt is no result: the game is abandoned.
            Err(_) if abandon.load(Ordering::Relaxed) => return None,
            Err(error) => return Some(Ending::failure(mover, EndReason::of_error(&error), error.to_string())),
        };
        answer.time_ms = spent_ms;
        let fields = settings.comment_fields;
        // The PV is written from the position it starts from, before the move is played.
        let pv =
            if fields.has(CommentField::Pv) { pv_text(game, &players[mover.index()].last_pv()) } else { String::new() };
        if let Some(note) = overrun(&mut clocks, mover, limit, spent_ms, &names[mover.index()]) {
            let result = if game.can_win(mover.flip()) { GameResult::win_for(mover.flip()) } else { GameResult::Draw };
            return Some(Ending { result, end: EndReason::TimeForfeit, note: Some(note) });
        }
        if !game.play(answer.mv) {
            // `Game::play` changed nothing: the position is the one the move was meant for.
            let text = game.move_text(answer.mv);
            let fen = game.fen();
            let mut note = format!("{} played the illegal move {text} in {fen}", names[mover.index()]);
            let last = players[mover.index()].last_lines();
            if !last.is_empty() {
                note.push_str(&format!("; last lines: {}", crate::uci::process::shown_lines(&last)));
            }
            return Some(Ending::failure(mover, EndReason::IllegalMove, note));
        }
        // The time goes into the comment only under a timed limit, so that games at fixed nodes or depth
        // replay to the same PGN.
        let timed = limit.is_timed().then_some(answer.time_ms);
        let left = clocks.0[mover.index()].map(|clock| clock.left_ms());
        let detail = players[mover.index()].last_detail();
        comments.push(fields.comment(&answer, timed, left, &detail, &pv));
        (adjudicated, by_tables) = judge(game, &mut adjudicator, mover, answer.score, settings);
    }
}

/// After `mover`'s move (scored `score` by its engine; `None` for a book move): the adjudication it reaches and
/// the tables' verdict on the new position, if any.
fn judge<G: Game>(
    game: &G,
    adjudicator: &mut Adjudicator,
    mover: Color,
    score: Option<crate::player::EngineScore>,
    settings: &GameSettings,
) -> (Option<Adjudicated>, Option<TbVerdict>) {
    let irreversible = game.halfmove_clock() == 0;
    let adjudicated = adjudicator.record(PlayedMove { mover, score, plies: game.plies(), irreversible });
    (adjudicated, settings.tablebase.as_ref().and_then(|tables| tables.verdict(&game.piece_sets()?)))
}

/// Charges `spent_ms` to `mover`'s clock and checks its time per move; the note of a time forfeit, if the move
/// came too late.
fn overrun(clocks: &mut Clocks, mover: Color, limit: &MoveLimit, spent_ms: u64, name: &str) -> Option<String> {
    if let Some(clock) = clocks.0[mover.index()] {
        let before = clock.left_ms();
        if !crate::player::timecontrol::charge_move(&mut clocks.0, mover.index(), spent_ms, limit.timemargin_ms) {
            return Some(format!(
                "{name} lost on time: the move took {spent_ms} ms with {before} ms on the clock (time margin {} ms)",
                limit.timemargin_ms
            ));
        }
    }
    match limit.movetime_ms {
        Some(movetime) if spent_ms > movetime.saturating_add(limit.timemargin_ms) => Some(format!(
            "{name} lost on time: the move took {spent_ms} ms, {movetime} ms allowed per move (time margin {} ms)",
            limit.timemargin_ms
        )),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess;
    use crate::chess::Square;
    use crate::chess::parse_uci;
    use crate::chess::{ChessGame, Move};
    use crate::player::{EngineScore, PlayerMove};
    use crate::runner::adjudication::{DrawAdjudication, ResignAdjudication};

    /// A player that answers from a script: UCI move texts (an illegal one is sent as it is, a text that is not
    /// two squares as the null move) with a score each; `None` in the script is a failure.
    struct Scripted {
        name: String,
        script: Vec<Option<(&'static str, i32)>>,
        next: usize,
    }

    impl Scripted {
        fn new(name: &str, script: Vec<Option<(&'static str, i32)>>) -> Scripted {
            Scripted { name: name.to_string(), script, next: 0 }
        }
    }

    impl Player for Scripted {
        fn name(&self) -> &str {
            &self.name
        }
        fn new_game(&mut self) -> Result<(), PlayerError> {
            self.next = 0;
            Ok(())
        }
        fn go(&mut self, game: &chess::ChessGame, _request: &GoRequest) -> Result<PlayerMove, PlayerError> {
            let step = self.script.get(self.next).copied().flatten();
            self.next += 1;
            let Some((text, cp)) = step else {
                return Err(PlayerError::Crashed { player: self.name.clone(), reason: "script ended".into() });
            };
            let mv = parse_uci(game.position(), text).unwrap_or_else(|_| raw_move(text));
            Ok(PlayerMove { mv, score: Some(EngineScore::Cp(cp)), depth: 1, nodes: 1, time_ms: 0 })
        }
    }

    /// A move from its squares without any legality check (the null move if the text is not two squares).
    fn raw_move(text: &str) -> Move {
        match (text.get(0..2).and_then(Square::parse), text.get(2..4).and_then(Square::parse)) {
            (Some(from), Some(to)) => Move::normal(from, to),
            _ => Move::NULL,
        }
    }

    fn start() -> Opening<ChessGame> {
        Opening { start: chess::Position::startpos(), moves: Vec::new(), line: 1 }
    }

    #[test]
    fn checkmate_by_the_rules() {
        let mut white = Scripted::new("w", vec![Some(("f2f3", 0)), Some(("g2g4", 0))]);
        let mut black = Scripted::new("b", vec![Some(("e7e5", 0)), Some(("d8h4", 0))]);
        let record = play_game(&mut white, &mut black, &start(), &GameSettings::default());
        assert_eq!(record.result, GameResult::BlackWins);
        assert_eq!(record.end, EndReason::Rules(RuleEnd::Checkmate));
        assert_eq!(record.moves.len(), 4);
        assert_eq!(record.comments, vec!["+0.00/1"; 4]);
        assert_eq!((record.white.as_str(), record.black.as_str()), ("w", "b"));
    }

    #[test]
    fn an_illegal_move_loses_and_keeps_the_moves_so_far() {
        let mut white = Scripted::new("w", vec![Some(("e2e4", 0)), Some(("e4e6", 0))]);
        let mut black = Scripted::new("b", vec![Some(("e7e5", 0))]);
        let record = play_game(&mut white, &mut black, &start(), &GameSettings::default());
        assert_eq!(record.result, GameResult::BlackWins);
        assert_eq!(record.end, EndReason::IllegalMove);
        assert_eq!(record.moves.len(), 2);
        let note = record.note.unwrap();
        assert!(note.starts_with("w played the illegal move e4e6 in "), "{note}");
        // The null move (an engine with nothing to say) is illegal too.
        let mut white = Scripted::new("w", vec![Some(("xx", 0))]);
        let record = play_game(&mut white, &mut black, &start(), &GameSettings::default());
        assert_eq!((record.result, record.end), (GameResult::BlackWins, EndReason::IllegalMove));
    }

    #[test]
    fn a_failure_loses() {
        let mut white = Scripted::new("w", vec![Some(("e2e4", 0))]);
        let mut black = Scripted::new("b", vec![None]);
        let record = play_game(&mut white, &mut black, &start(), &GameSettings::default());
        assert_eq!((record.result, record.end), (GameResult::WhiteWins, EndReason::Disconnect));
        assert_eq!(record.note.as_deref(), Some("b: crashed: script ended"));
    }

    #[test]
    fn adjudications_and_the_move_cap() {
        let shuffle = |cp: i32| vec![Some(("g1f3", cp)), Some(("f3g1", cp)), Some(("g1f3", cp)), Some(("f3g1", cp))];
        let back = |cp: i32| vec![Some(("g8f6", cp)), Some(("f6g8", cp)), Some(("g8f6", cp)), Some(("f6g8", cp))];
        // Without adjudication the knights repeat the start position for the third time after 8 plies.
        let record = play_game(
            &mut Scripted::new("w", shuffle(0)),
            &mut Scripted::new("b", back(0)),
            &start(),
            &GameSettings::default(),
        );
        assert_eq!((record.result, record.end), (GameResult::Draw, EndReason::Rules(RuleEnd::ThreefoldRepetition)));
        assert_eq!(record.moves.len(), 8);

        let mut settings = GameSettings::default();
        settings.adjudication.draw = Some(DrawAdjudication { movenumber: 1, movecount: 3, score: 5 });
        let record =
            play_game(&mut Scripted::new("w", shuffle(0)), &mut Scripted::new("b", back(0)), &start(), &settings);
        assert_eq!((record.result, record.end), (GameResult::Draw, EndReason::DrawAdjudication));
        // movecount=3 is three moves of each side: six plies (it was three plies before cutechess's rule).
        assert_eq!(record.moves.len(), 6);

        let mut settings = GameSettings::default();
        settings.adjudication.resign = Some(ResignAdjudication { movecount: 2, score: 300, twosided: true });
        let record =
            play_game(&mut Scripted::new("w", shuffle(400)), &mut Scripted::new("b", back(-400)), &start(), &settings);
        assert_eq!((record.result, record.end), (GameResult::WhiteWins, EndReason::ResignAdjudication));
        assert_eq!(record.moves.len(), 4);

        let mut settings = GameSettings::default();
        settings.adjudication.maxmoves = Some(1);
        let record =
            play_game(&mut Scripted::new("w", shuffle(0)), &mut Scripted::new("b", back(0)), &start(), &settings);
        assert_eq!((record.result, record.end), (GameResult::Draw, EndReason::MaxMoves));
        assert_eq!(record.moves.len(), 2);
    }

    #[test]
    fn book_moves_count_for_repetition() {
        // The book shuffles the knights once: the start position has occurred twice when the players take over.
        let mut pos = chess::Position::startpos();
        let mut book = Vec::new();
        for text in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            let m = parse_uci(&pos, text).unwrap();
            pos.make_move(m);
            book.push(m);
        }
        let opening = Opening { start: chess::Position::startpos(), moves: book, line: 1 };
        let record = play_game(
            &mut Scripted::new("w", shuffle_script()),
            &mut Scripted::new("b", vec![Some(("g8f6", 0)), Some(("f6g8", 0))]),
            &opening,
            &GameSettings::default(),
        );
        assert_eq!(record.end, EndReason::Rules(RuleEnd::ThreefoldRepetition));
        assert_eq!(record.moves.len(), 8);
        assert_eq!(record.book_plies, 4);
        assert_eq!(&record.comments[..5], &["book", "book", "book", "book", "+0.00/1"]);
    }

    #[test]
    fn an_abandoned_game_has_no_record() {
        let mut white = Scripted::new("w", vec![Some(("f2f3", 0)), Some(("g2g4", 0))]);
        let mut black = Scripted::new("b", vec![Some(("e7e5", 0)), Some(("d8h4", 0))]);
        let abandon = AtomicBool::new(true);
        assert!(play_game_unless(&mut white, &mut black, &start(), &GameSettings::default(), &abandon).is_none());
        abandon.store(false, Ordering::Relaxed);
        let record = play_game_unless(&mut white, &mut black, &start(), &GameSettings::default(), &abandon).unwrap();
        assert_eq!(record.end, EndReason::Rules(RuleEnd::Checkmate));
    }

    fn shuffle_script() -> Vec<Option<(&'static str, i32)>> {
        vec![Some(("g1f3", 0)), Some(("f3g1", 0))]
    }
    /// A player that sleeps `sleep_ms` before each scripted move.
    struct Slow(Scripted, u64);

    impl Player for Slow {
        fn name(&self) -> &str {
            self.0.name()
        }
        fn new_game(&mut self) -> Result<(), PlayerError> {
            self.0.new_game()
        }
        fn go(&mut self, game: &chess::ChessGame, request: &GoRequest) -> Result<PlayerMove, PlayerError> {
            std::thread::sleep(std::time::Duration::from_millis(self.1));
            self.0.go(game, request)
        }
    }

    #[test]
    fn overrunning_the_clock_loses_on_time() {
        use crate::player::timecontrol::TimeControl;
        let limit = MoveLimit { tc: Some(TimeControl::parse("0.5").unwrap()), ..MoveLimit::default() };
        let settings = GameSettings::with_limit(limit);
        let mut white = Slow(Scripted::new("w", vec![Some(("e2e4", 0)), Some(("d2d4", 0))]), 300);
        let mut black = Scripted::new("b", vec![Some(("e7e5", 0)), Some(("d7d5", 0))]);
        let record = play_game(&mut white, &mut black, &start(), &settings);
        // 300 ms, then 300 more: the second move finds 200 ms on the clock.
        assert_eq!((record.result, record.end), (GameResult::BlackWins, EndReason::TimeForfeit));
        assert_eq!(record.moves.len(), 2);
        assert!(record.note.unwrap().starts_with("w lost on time: the move took "));

        // Time per move: 30 ms allowed, 60 taken; with a margin of 1000 ms it passes.
        let limit = MoveLimit { movetime_ms: Some(30), ..MoveLimit::default() };
        let mut white = Slow(Scripted::new("w", vec![Some(("e2e4", 0))]), 60);
        let record = play_game(&mut white, &mut black, &start(), &GameSettings::with_limit(limit));
        assert_eq!((record.result, record.end), (GameResult::BlackWins, EndReason::TimeForfeit));
        let limit = MoveLimit { movetime_ms: Some(30), timemargin_ms: 1000, ..MoveLimit::default() };
        let mut white = Slow(Scripted::new("w", vec![Some(("f2f3", 0)), Some(("g2g4", 0))]), 60);
        let mut black = Scripted::new("b", vec![Some(("e7e5", 0)), Some(("d8h4", 0))]);
        let record = play_game(&mut white, &mut black, &start(), &GameSettings::with_limit(limit));
        assert_eq!(record.end, EndReason::Rules(RuleEnd::Checkmate));
    }

    #[test]
    fn failures_map_to_reasons() {
        let player = "p".to_string();
        let reason = String::new();
        assert_eq!(
            EndReason::of_error(&PlayerError::Crashed { player: player.clone(), reason: reason.clone() }),
            EndReason::Disconnect
        );
        assert_eq!(
            EndReason::of_error(&PlayerError::Stalled { player: player.clone(), reason: reason.clone() }),
            EndReason::Stall
        );
        assert_eq!(
            EndReason::of_error(&PlayerError::BadMove {
                player: player.clone(),
                text: "x".into(),
                reason: reason.clone()
            }),
            EndReason::IllegalMove
        );
        assert_eq!(EndReason::of_error(&PlayerError::Start { player, reason }), EndReason::PlayerFailure);
        assert!(EndReason::Stall.is_engine_failure() && !EndReason::TimeForfeit.is_engine_failure());
    }

    /// A player that fails with `error`, at `new_game` when `at_start`, else at its first move.
    struct Failing(PlayerError, bool);

    impl Player for Failing {
        fn name(&self) -> &str {
            "w"
        }
        fn new_game(&mut self) -> Result<(), PlayerError> {
            if self.1 { Err(self.0.clone()) } else { Ok(()) }
        }
        fn go(&mut self, _game: &chess::ChessGame, _request: &GoRequest) -> Result<PlayerMove, PlayerError> {
            Err(self.0.clone())
        }
    }

    #[test]
    fn every_end_reason_gives_a_pgn_whose_result_agrees_with_its_termination() {
        use crate::runner::rundir::output::pgn_text;
        use crate::runner::scheduler::GamePair;
        type Script = Vec<Option<(&'static str, i32)>>;
        let from = |fen: &str| Opening { start: chess::Position::from_fen(fen).unwrap(), moves: Vec::new(), line: 1 };
        let knights = |cp: i32| -> (Script, Script) {
            (
                vec![Some(("g1f3", cp)), Some(("f3g1", cp)), Some(("g1f3", cp)), Some(("f3g1", cp))],
                vec![Some(("g8f6", -cp)), Some(("f6g8", -cp)), Some(("g8f6", -cp)), Some(("f6g8", -cp))],
            )
        };
        let mut draw = GameSettings::default();
        draw.adjudication.draw = Some(DrawAdjudication { movenumber: 1, movecount: 3, score: 5 });
        let mut resign = GameSettings::default();
        resign.adjudication.resign = ResignAdjudication::parse("movecount=2,score=300").ok();
        let mut cap = GameSettings::default();
        cap.adjudication.maxmoves = Some(1);
        let plain = GameSettings::default();
        let tables = crate::tablebase::adjudicate::TablebasePlan {
            paths: vec![concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data/syzygy").into()],
            ..Default::default()
        };
        let by_tables = GameSettings { tablebase: Some(tables.open().unwrap()), ..GameSettings::default() };
        type Case<'a> = (EndReason, &'a str, Opening<ChessGame>, Script, Script, &'a GameSettings);
        let cases: Vec<Case> = vec![
            (
                EndReason::Rules(RuleEnd::Checkmate),
                "0-1",
                start(),
                vec![Some(("f2f3", 0)), Some(("g2g4", 0))],
                vec![Some(("e7e5", 0)), Some(("d8h4", 0))],
                &plain,
            ),
            (
                EndReason::Rules(RuleEnd::Stalemate),
                "1/2-1/2",
                from("7k/4Q3/8/8/8/8/8/K7 w - - 0 1"),
                vec![Some(("e7f7", 0))],
                vec![],
                &plain,
            ),
            (EndReason::Rules(RuleEnd::ThreefoldRepetition), "1/2-1/2", start(), knights(0).0, knights(0).1, &plain),
            (
                EndReason::Rules(RuleEnd::FiftyMoveRule),
                "1/2-1/2",
                from("4k3/8/8/8/8/8/8/R3K3 w - - 99 80"),
                vec![Some(("a1a2", 0))],
                vec![],
                &plain,
            ),
            (
                EndReason::Rules(RuleEnd::InsufficientMaterial),
                "1/2-1/2",
                from("4k3/8/8/8/8/8/3p4/4K3 w - - 0 1"),
                vec![Some(("e1d2", 0))],
                vec![],
                &plain,
            ),
            (EndReason::DrawAdjudication, "1/2-1/2", start(), knights(0).0, knights(0).1, &draw),
            (EndReason::ResignAdjudication, "1-0", start(), knights(400).0, knights(400).1, &resign),
            (
                EndReason::TablebaseAdjudication,
                "1-0",
                from("8/8/8/4k3/8/8/8/KQ6 w - - 0 1"),
                vec![Some(("b1b2", 900))],
                vec![],
                &by_tables,
            ),
            (EndReason::MaxMoves, "1/2-1/2", start(), knights(0).0, knights(0).1, &cap),
            (EndReason::IllegalMove, "0-1", start(), vec![Some(("e2e5", 0))], vec![], &plain),
            (EndReason::Disconnect, "1-0", start(), vec![Some(("e2e4", 0))], vec![None], &plain),
        ];
        let mut records: Vec<(EndReason, &str, GameRecord<ChessGame>)> = cases
            .into_iter()
            .map(|(reason, result, opening, white, black, settings)| {
                let record =
                    play_game(&mut Scripted::new("w", white), &mut Scripted::new("b", black), &opening, settings);
                (reason, result, record)
            })
            .collect();
        // The failures the scripted players cannot show: a start failure, a stall, a time forfeit.
        let (player, reason) = ("w".to_string(), "test".to_string());
        let start_error = PlayerError::Start { player: player.clone(), reason: reason.clone() };
        let stalled = PlayerError::Stalled { player: player.clone(), reason: reason.clone() };
        let flooded = PlayerError::Flooded { player, reason };
        let mut black = Scripted::new("b", vec![Some(("e7e5", 0))]);
        for (end, error, at_start) in [
            (EndReason::PlayerFailure, start_error, true),
            (EndReason::Stall, stalled, false),
            (EndReason::OutputFlood, flooded, false),
        ] {
            records.push((end, "0-1", play_game(&mut Failing(error, at_start), &mut black, &start(), &plain)));
        }
        let limit = MoveLimit { movetime_ms: Some(1), ..MoveLimit::default() };
        let mut slow = Slow(Scripted::new("w", vec![Some(("e2e4", 0))]), 20);
        records.push((
            EndReason::TimeForfeit,
            "0-1",
            play_game(&mut slow, &mut black, &start(), &GameSettings::with_limit(limit)),
        ));
        let mut covered: Vec<EndReason> = records.iter().map(|c| c.0).collect();
        covered.sort_by_key(|r| EndReason::ALL.iter().position(|a| a == r));
        // Perpetual check and the sixty-move rule end Xiangqi games: see the tests of `variant`.
        let xiangqi = [EndReason::Rules(RuleEnd::PerpetualCheck), EndReason::Rules(RuleEnd::SixtyMoveRule)];
        let chess: Vec<EndReason> = EndReason::ALL.into_iter().filter(|r| !xiangqi.contains(r)).collect();
        assert_eq!(covered, chess, "every end reason of chess is played once");
        let pair = GamePair { index: 0, pairing: 0, first: 0, second: 1, opening: 0, swap: true, reverse: false };
        for (reason, result, record) in records {
            assert_eq!((record.end, record.result.pgn()), (reason, result), "{reason:?}");
            let pgn = pgn_text("t", &pair, 0, &record, std::time::UNIX_EPOCH);
            let tag = |name: &str| {
                let start = format!("[{name} \"");
                let line = pgn.lines().find(|l| l.starts_with(&start)).unwrap_or_else(|| panic!("{name}: {pgn}"));
                line[start.len()..line.len() - 2].to_string()
            };
            assert_eq!(tag("Result"), result, "{pgn}");
            assert_eq!(tag("Termination"), reason.text(), "{pgn}");
            assert_eq!(pgn.split_whitespace().last(), Some(result), "movetext ends with the result: {pgn}");
        }
    }
}
