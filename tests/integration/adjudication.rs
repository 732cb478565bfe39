//! Arbiter's adjudicator against literal transcriptions of the reference tools' rules, over many generated
//! scored games: the same game must be adjudicated the same way at the same ply.
//!
//! - cutechess-cli: `GameAdjudicator::addEval` in `projects/lib/src/gameadjudicator.cpp`, the draw-count reset
//!   in `ChessGame::onMoveMade` (`projects/lib/src/chessgame.cpp`), the `-resign` sign in the CLI
//!   (`setResignThreshold(moveCount, -score)`) and the mate conversion of `UciEngine::parseInfo`
//!   (`projects/lib/src/uciengine.cpp`), all repo cutechess/cutechess. Arbiter follows these rules; the one
//!   documented difference (a move without a score still reaches the move cap) is marked below.
//! - fastchess: `DrawTracker`, `ResignTracker` and `MaxMovesTracker` in `app/src/matchmaking/adjudication/`
//!   and their use in `adjudicator.hpp` (repo Disservin/fastchess), compared on the rules where the two tools
//!   agree (draw alone, one-sided resign alone, move cap alone without book moves); see docs/adjudication.md.

use arbiter::chess::Color;
use arbiter::player::EngineScore;
use arbiter::runner::{Adjudicated, AdjudicationRules, Adjudicator, DrawAdjudication, PlayedMove, ResignAdjudication};

use crate::support;
use support::faulty_engine;

/// One ply of a generated game as the engines played it.
#[derive(Clone, Copy, Debug)]
struct Ply {
    score: Option<EngineScore>,
    /// A capture or pawn move (the halfmove clock is 0 after it).
    irreversible: bool,
}

/// A generated game: book plies, then the players' plies, White first from ply 0.
#[derive(Clone, Debug)]
struct ScoredGame {
    book: usize,
    plies: Vec<Ply>,
}

/// A small xorshift generator, so the games are the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn range(&mut self, lo: i32, hi: i32) -> i32 {
        lo + self.below((hi - lo + 1) as u64) as i32
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

fn random_rules(rng: &mut Rng) -> AdjudicationRules {
    let draw = rng.chance(70).then(|| DrawAdjudication {
        movenumber: rng.range(1, 40) as u32,
        movecount: rng.range(1, 6) as u32,
        score: rng.range(0, 40),
    });
    let resign = rng.chance(70).then(|| ResignAdjudication {
        movecount: rng.range(1, 5) as u32,
        score: rng.range(100, 1000),
        twosided: rng.chance(50),
    });
    let maxmoves = rng.chance(40).then(|| rng.range(10, 90) as u32);
    AdjudicationRules { draw, resign, maxmoves }
}

/// A score near one of the thresholds (either sign), a mate (never `mate 0`, see docs/adjudication.md), an
/// ordinary score, or none.
fn random_score(rng: &mut Rng, rules: &AdjudicationRules) -> Option<EngineScore> {
    let near = |rng: &mut Rng, t: i32| {
        let sign = if rng.chance(50) { 1 } else { -1 };
        sign * (t + rng.range(-1, 1))
    };
    match rng.below(100) {
        0..=5 => None,
        6..=11 => {
            let n = rng.range(1, 12);
            Some(EngineScore::Mate(if rng.chance(50) { n } else { -n }))
        }
        12..=45 => Some(EngineScore::Cp(near(rng, rules.draw.map_or(10, |d| d.score)))),
        46..=75 => Some(EngineScore::Cp(near(rng, rules.resign.map_or(500, |r| r.score)))),
        _ => Some(EngineScore::Cp(rng.range(-1500, 1500))),
    }
}

fn random_game(rng: &mut Rng, rules: &AdjudicationRules, max_book: u64) -> ScoredGame {
    let book = rng.below(max_book + 1) as usize;
    let length = rng.range(1, 220) as usize;
    // Long runs of one kind of score make the rules fire; a game switches between a few of them.
    let mut plies = Vec::with_capacity(length);
    let mut mode = 0;
    for _ in 0..length {
        if rng.chance(8) {
            mode = rng.below(3);
        }
        let score = match mode {
            0 => random_score(rng, rules),
            1 => {
                Some(EngineScore::Cp(rng.range(-rules.draw.map_or(5, |d| d.score), rules.draw.map_or(5, |d| d.score))))
            }
            _ => {
                let r = rules.resign.map_or(500, |r| r.score);
                Some(EngineScore::Cp(if plies.len() % 2 == 0 { r + rng.range(0, 50) } else { -r - rng.range(0, 50) }))
            }
        };
        let score = if mode != 0 && rng.chance(3) { None } else { score };
        plies.push(Ply { score, irreversible: rng.chance(12) });
    }
    ScoredGame { book, plies }
}

/// Full moves after `plies` plies from a start at move 1 with White to move: fastchess's `fullMoveNumber() - 1`.
fn full_moves(plies: usize) -> usize {
    plies / 2
}

fn mover_at(ply: usize) -> Color {
    if ply.is_multiple_of(2) { Color::White } else { Color::Black }
}

/// Arbiter's adjudication of `game`: the ply (book included) and the verdict.
fn arbiter(rules: AdjudicationRules, game: &ScoredGame) -> Option<(usize, Adjudicated)> {
    let mut adj = Adjudicator::new(rules);
    for (i, ply) in game.plies.iter().enumerate() {
        let at = game.book + i;
        let played =
            PlayedMove { mover: mover_at(at), score: ply.score, plies: at + 1, irreversible: ply.irreversible };
        if let Some(verdict) = adj.record(played) {
            return Some((at + 1, verdict));
        }
    }
    None
}

/// cutechess-cli's `GameAdjudicator`, transcribed (C++ names kept). A score is an `int` after
/// `UciEngine::parseInfo`: `cp` as is, `mate n` as `30001 - 2n` (n > 0) or `-30000 - 2n` (n < 0).
struct CutechessAdjudicator {
    m_draw_move_num: i32,
    m_draw_move_count: i32,
    m_draw_score: i32,
    m_draw_score_count: i32,
    m_resign_move_count: i32,
    m_resign_score: i32,
    m_two_sided: bool,
    m_resign_score_count: [i32; 2],
    m_win_score_count: [i32; 2],
    m_max_game_length: i32,
}

impl CutechessAdjudicator {
    fn new(rules: AdjudicationRules) -> Self {
        let (dn, dc, ds) = rules.draw.map_or((0, 0, 0), |d| (d.movenumber as i32, d.movecount as i32, d.score));
        // cutechess-cli: `tournament->setResignThreshold(moveCount, -score)`.
        let (rc, rs, two) = rules.resign.map_or((0, 0, false), |r| (r.movecount as i32, -r.score, r.twosided));
        CutechessAdjudicator {
            m_draw_move_num: dn,
            m_draw_move_count: dc,
            m_draw_score: ds,
            m_draw_score_count: 0,
            m_resign_move_count: rc,
            m_resign_score: rs,
            m_two_sided: two,
            m_resign_score_count: [0; 2],
            m_win_score_count: [0; 2],
            m_max_game_length: rules.maxmoves.map_or(0, |m| m as i32),
        }
    }

    fn parse_score(score: EngineScore) -> i32 {
        match score {
            EngineScore::Cp(cp) => cp,
            EngineScore::Mate(n) if n > 0 => 30001 - n * 2,
            EngineScore::Mate(n) if n < 0 => -30000 - n * 2,
            EngineScore::Mate(_) => 0,
        }
    }

    /// `ChessGame::onMoveMade`: reset on `reversibleMoveCount() == 0`, then `addEval`. `depth <= 0` is a move
    /// without an evaluation. `side` is the mover; `ply_count` the board's plies after the move.
    fn on_move_made(
        &mut self,
        side: usize,
        eval: Option<EngineScore>,
        ply_count: i32,
        irreversible: bool,
    ) -> Option<Adjudicated> {
        if irreversible {
            self.m_draw_score_count = 0; // resetDrawMoveCount()
        }
        let Some(eval) = eval else {
            // `if (eval.depth() <= 0)`: reset and return.
            self.m_draw_score_count = 0;
            self.m_resign_score_count[side] = 0;
            self.m_win_score_count[side] = 0;
            // DEVIATION (docs/adjudication.md): Arbiter checks the move cap after every player move, a move
            // without a score included; cutechess-cli returns before it here.
            if self.m_max_game_length > 0 && ply_count >= 2 * self.m_max_game_length {
                return Some(Adjudicated::MaxMoves);
            }
            return None;
        };
        let score = Self::parse_score(eval);
        if self.m_draw_move_num > 0 {
            if score.abs() <= self.m_draw_score {
                self.m_draw_score_count += 1;
            } else {
                self.m_draw_score_count = 0;
            }
            if ply_count / 2 >= self.m_draw_move_num && self.m_draw_score_count >= self.m_draw_move_count * 2 {
                return Some(Adjudicated::Draw);
            }
        }
        if self.m_resign_move_count > 0 {
            let count = &mut self.m_resign_score_count[side];
            if score <= self.m_resign_score {
                *count += 1;
            } else {
                *count = 0;
            }
            let win_count = &mut self.m_win_score_count[side];
            if score >= -self.m_resign_score {
                *win_count += 1;
            } else {
                *win_count = 0;
            }
            if self.m_resign_score_count[side] >= self.m_resign_move_count
                && (!self.m_two_sided || self.m_win_score_count[1 - side] >= self.m_resign_move_count)
            {
                return Some(Adjudicated::Resign { loser: mover_at(side) });
            }
        }
        if self.m_max_game_length > 0 && ply_count >= 2 * self.m_max_game_length {
            return Some(Adjudicated::MaxMoves);
        }
        None
    }
}

fn cutechess(rules: AdjudicationRules, game: &ScoredGame) -> Option<(usize, Adjudicated)> {
    let mut adj = CutechessAdjudicator::new(rules);
    for (i, ply) in game.plies.iter().enumerate() {
        let at = game.book + i;
        if let Some(verdict) = adj.on_move_made(at % 2, ply.score, (at + 1) as i32, ply.irreversible) {
            return Some((at + 1, verdict));
        }
    }
    None
}

/// fastchess's trackers, transcribed. A score is `{type, value}`: CP with centipawns, MATE with moves.
fn fastchess(rules: AdjudicationRules, game: &ScoredGame) -> Option<(usize, Adjudicated)> {
    assert!(
        rules.resign.is_none_or(|r| !r.twosided),
        "fastchess's two-sided rule differs from cutechess-cli's (docs/adjudication.md)"
    );
    // DrawTracker
    let mut draw_moves = 0;
    // ResignTracker (one-sided): resign_moves_white, resign_moves_black
    let mut resign_moves = [0; 2];
    // MaxMovesTracker
    let mut max_moves = 0;
    for (i, ply) in game.plies.iter().enumerate() {
        let at = game.book + i;
        let side = at % 2;
        // Adjudicator::update
        match ply.score {
            Some(score) => {
                // DrawTracker::update(score, board.halfMoveClock())
                if ply.irreversible {
                    draw_moves = 0;
                }
                if let Some(d) = rules.draw {
                    let cp = matches!(score, EngineScore::Cp(v) if v.abs() <= d.score);
                    draw_moves = if cp { draw_moves + 1 } else { 0 };
                }
                // ResignTracker::update(score, ~side_to_move), one-sided
                if let Some(r) = rules.resign {
                    let losing = match score {
                        EngineScore::Cp(v) => v <= -r.score,
                        EngineScore::Mate(n) => n < 0,
                    };
                    resign_moves[side] = if losing { resign_moves[side] + 1 } else { 0 };
                }
            }
            None => {
                draw_moves = 0; // draw_tracker_.invalidate()
                resign_moves[side] = 0; // resign_tracker_.invalidate(~side_to_move)
            }
        }
        max_moves += 1;
        // Adjudicator::adjudicate at the next playMove, on the board after this move. With no book and a start
        // at move 1, `fullMoveNumber() - 1` is the plies played divided by two.
        let value_negative = match ply.score {
            Some(EngineScore::Cp(v)) | Some(EngineScore::Mate(v)) => v < 0,
            None => false,
        };
        if let Some(r) = rules.resign
            && (resign_moves[0] >= r.movecount || resign_moves[1] >= r.movecount)
            && value_negative
        {
            return Some((at + 1, Adjudicated::Resign { loser: mover_at(side) }));
        }
        if let Some(d) = rules.draw
            && full_moves(at + 1) >= d.movenumber as usize
            && draw_moves >= d.movecount * 2
        {
            return Some((at + 1, Adjudicated::Draw));
        }
        if let Some(m) = rules.maxmoves
            && max_moves >= m * 2
        {
            return Some((at + 1, Adjudicated::MaxMoves));
        }
    }
    None
}

/// The index of a verdict in the tests' tallies: none, draw, resign, move cap.
fn verdict_kind(verdict: Option<(usize, Adjudicated)>) -> usize {
    match verdict {
        None => 0,
        Some((_, Adjudicated::Draw)) => 1,
        Some((_, Adjudicated::Resign { .. })) => 2,
        Some((_, Adjudicated::MaxMoves)) => 3,
    }
}

#[test]
fn arbiter_adjudicates_as_cutechess_cli_on_generated_games() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut seen = [0usize; 4];
    for n in 0..30_000 {
        let rules = random_rules(&mut rng);
        let game = random_game(&mut rng, &rules, 12);
        let ours = arbiter(rules, &game);
        assert_eq!(ours, cutechess(rules, &game), "game {n} under {rules:?}: {game:?}");
        seen[verdict_kind(ours)] += 1;
    }
    // Every verdict occurs often enough for the comparison to mean something.
    assert!(seen.iter().all(|&k| k > 1000), "none, draw, resign, maxmoves: {seen:?}");
}

#[test]
fn arbiter_adjudicates_as_fastchess_where_the_tools_agree() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut seen = [0usize; 4];
    for n in 0..30_000 {
        let all = random_rules(&mut rng);
        // One rule at a time: the tools check them in different orders.
        let rules = match n % 3 {
            0 => AdjudicationRules {
                draw: all.draw.or(Some(DrawAdjudication { movenumber: 20, movecount: 4, score: 10 })),
                ..Default::default()
            },
            1 => AdjudicationRules {
                resign: Some(ResignAdjudication {
                    twosided: false,
                    ..all.resign.unwrap_or(ResignAdjudication { movecount: 3, score: 400, twosided: false })
                }),
                ..Default::default()
            },
            _ => AdjudicationRules { maxmoves: Some(all.maxmoves.unwrap_or(40)), ..Default::default() },
        };
        let game = random_game(&mut rng, &rules, 0);
        let ours = arbiter(rules, &game);
        assert_eq!(ours, fastchess(rules, &game), "game {n} under {rules:?}: {game:?}");
        seen[verdict_kind(ours)] += 1;
    }
    assert!(seen.iter().all(|&k| k > 1000), "none, draw, resign, maxmoves: {seen:?}");
}

/// (termination, PGN text) of each game of a real match of `seed` against `faulty-engine --score SCORE`.
fn match_against_score(name: &str, score: &str, flags: &[&str]) -> (Vec<String>, String) {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("adjudication-tests").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.parent().expect("a parent")).expect("create the parent folder");
    let engine = format!("name=faulty,cmd={},args=--score {score}", faulty_engine().display());
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["match", "--engine", "name=seed", "--engine", &engine, "--concurrency", "1", "--nodes", "200"])
        .args(flags)
        .arg("--out")
        .arg(&dir)
        .output()
        .expect("run arbiter");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "stderr:\n{stderr}");
    let mut reader = csv::Reader::from_path(dir.join("games.csv")).expect("games.csv");
    let col = reader.headers().expect("a header").iter().position(|h| h == "termination").expect("termination");
    let ends = reader.records().map(|r| r.expect("a complete row")[col].to_string()).collect();
    (ends, std::fs::read_to_string(dir.join("games.pgn")).expect("games.pgn"))
}

#[test]
fn scores_at_the_integer_limit_never_adjudicate_a_draw() {
    // With movecount=1 a draw needs two drawish plies in a row, so one of them is always the faulty engine's:
    // a draw here could only come from its score overflowing into the window (`i32::MIN.abs()` wraps).
    let flags = ["--games", "2", "--draw", "movenumber=1,movecount=1,score=20", "--maxmoves", "12"];
    for (name, score, comment) in [
        ("cp-min", "cp:-2147483648", "-500.00/1"),
        ("cp-max", "cp:2147483647", "+500.00/1"),
        ("mate-min", "mate:-2147483648", "-M1000/1"),
        // Past the 64-bit limit: still a clamped score, not a move without one.
        ("cp-past-i64", "cp:-99999999999999999999999", "-500.00/1"),
        ("mate-past-i64", "mate:99999999999999999999", "+M1000/1"),
    ] {
        let (ends, pgn) = match_against_score(name, score, &flags);
        assert_eq!(ends.len(), 2, "{name}: {ends:?}");
        assert!(ends.iter().all(|e| e != "adjudication: draw"), "{name}: {ends:?}");
        // The clamped score is what the PGN records.
        assert!(pgn.contains(comment), "{name}: {pgn}");
    }
    // The same faulty engine with an honest draw score is adjudicated: the check above can fail.
    let (ends, _) =
        match_against_score("cp-zero", "cp:0", &["--games", "2", "--draw", "movenumber=1,movecount=1,score=2000"]);
    assert!(ends.iter().any(|e| e == "adjudication: draw"), "{ends:?}");
}

/// A PGN comment as Arbiter writes it (`book`, `+0.35/7`, `-M2/9`, optionally followed by a time) as a score.
fn comment_score(comment: &str) -> Option<EngineScore> {
    let score = comment.split(['/', ' ']).next()?;
    let (sign, rest) = match score.as_bytes().first()? {
        b'+' => (1, &score[1..]),
        b'-' => (-1, &score[1..]),
        _ => return None,
    };
    if let Some(moves) = rest.strip_prefix('M') {
        return Some(EngineScore::Mate(sign * moves.parse::<i32>().ok()?));
    }
    let (units, cents) = rest.split_once('.')?;
    Some(EngineScore::Cp(sign * (units.parse::<i32>().ok()? * 100 + cents.parse::<i32>().ok()?)))
}

#[test]
fn a_real_match_ends_its_games_where_cutechess_rules_say() {
    use arbiter::chess::Position;
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("adjudication-tests").join("real-match");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.parent().expect("a parent")).expect("create the parent folder");
    let book = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/suites/openings/2moves_v2.pgn");
    let (draw, resign, maxmoves) = ("movenumber=12,movecount=2,score=25", "movecount=3,score=350", "70");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["match", "--engine", "name=seed", "--engine", "name=nomob", "--openings", book, "--plies", "4"])
        .args(["--games", "12", "--nodes", "300", "--concurrency", "2", "--seed", "7"])
        .args(["--draw", draw, "--resign", resign, "--maxmoves", maxmoves, "--out"])
        .arg(&dir)
        .output()
        .expect("run arbiter");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let rules = AdjudicationRules {
        draw: Some(DrawAdjudication::parse(draw).unwrap()),
        resign: Some(ResignAdjudication::parse(resign).unwrap()),
        maxmoves: Some(maxmoves.parse().unwrap()),
    };
    let pgn = std::fs::read_to_string(dir.join("games.pgn")).expect("games.pgn");
    let games = arbiter::chess::pgn::read_games(&pgn, "games.pgn").expect("games.pgn reads back");
    let texts: Vec<&str> = pgn.split("[Event ").skip(1).collect();
    assert_eq!((games.len(), texts.len()), (12, 12));
    let mut adjudicated = 0;
    for (game, text) in games.iter().zip(texts) {
        let comments: Vec<&str> =
            text.split('{').skip(1).map(|c| c.split('}').next().expect("a closed comment")).collect();
        assert_eq!(comments.len(), game.moves.len(), "{text}");
        let termination = game.tag("Termination").expect("a Termination tag");
        // cutechess-cli's verdict on the players' moves; the rules come first on the last move.
        let mut reference = CutechessAdjudicator::new(rules);
        let mut pos: Position = game.start.clone();
        let mut verdict = None;
        for (i, (&m, comment)) in game.moves.iter().zip(&comments).enumerate() {
            pos.make_move(m);
            if *comment == "book" || verdict.is_some() {
                continue;
            }
            let irreversible = pos.halfmove_clock() == 0;
            verdict =
                reference.on_move_made(i % 2, comment_score(comment), (i + 1) as i32, irreversible).map(|v| (i + 1, v));
        }
        let by_adjudication = termination.starts_with("adjudication") || termination == "max moves";
        match verdict {
            Some((ply, v)) => {
                assert_eq!(ply, game.moves.len(), "the game went on after cutechess's {v:?} at ply {ply}: {text}");
                let expected = match v {
                    Adjudicated::Draw => "adjudication: draw",
                    Adjudicated::Resign { .. } => "adjudication: resign",
                    Adjudicated::MaxMoves => "max moves",
                };
                // A mate or rule draw on that very move stands over the adjudication, in both tools.
                if by_adjudication {
                    assert_eq!(termination, expected, "{text}");
                    adjudicated += 1;
                }
            }
            None => assert!(!by_adjudication, "{termination} where cutechess adjudicates nothing: {text}"),
        }
    }
    assert!(adjudicated >= 6, "only {adjudicated} of 12 games adjudicated: the check says little");
}
