//! One datagen game through the [`Player`] trait: its opening (random and checked by the engine, or from the
//! book), the moves with their scores, the end by the rules or by adjudication, and the positions selected
//! ([`play_game`]); the rules are those of [`super`]'s module docs.

use super::format::TrainingPly;
use super::select::{SkipReason, Skipped, select};
use super::{DatagenError, DatagenSpec, GameEnd, GameRecord, OpeningSource, RESIGN_PLIES, Sample, Selection};
use crate::chess::{ChessGame, Color, Position};
use crate::game::GameResult;
use crate::player::timecontrol::Clock;
use crate::player::{EngineScore, GoLimits, GoRequest, MoveLimit, Player, PlayerMove};
use rand::RngExt;
use std::time::Instant;

/// The centipawn value of a mate score: a mate in `p` plies is written as `±(MATE_CP - p)`, as the built-in
/// engine scores it (and Stockfish's `VALUE_MATE` less the plies, on the same scale).
pub const MATE_CP: i32 = 32_000;

/// The largest centipawn score kept as reported; larger ones are clamped to it, so that no centipawn score
/// reads as a mate ([`MATE_CP`] less at most 1,000 plies).
pub const MAX_CP: i32 = MATE_CP - 1_000;

/// A player's score (mover's view) in centipawns: `Cp` clamped to ±[`MAX_CP`]; a mate in `n` moves (UCI
/// `score mate n`) as `MATE_CP - (2n - 1)` plies for the mover mating, `-(MATE_CP - 2|n|)` for the mover
/// mated (a mate in `p` plies is `±(MATE_CP - p)`, the built-in engine's own scores).
pub fn score_cp(score: EngineScore) -> i32 {
    match score {
        EngineScore::Cp(cp) => cp.clamp(-MAX_CP, MAX_CP),
        EngineScore::Mate(n) if n > 0 => MATE_CP - (2 * n.min(500) - 1),
        EngineScore::Mate(n) => -(MATE_CP - 2 * n.unsigned_abs().min(500) as i32),
    }
}

/// The players of one worker and how long each may think: one player for self-play, or two (the first plays
/// White in odd games, Black in even ones).
pub struct Players {
    /// One or two players, in the order of the `--engine` flags.
    pub players: Vec<Box<dyn Player>>,
    /// Their move limits, in the same order.
    pub limits: Vec<MoveLimit>,
}

impl Players {
    /// The index of the player with White in game `number`: 0 in self-play and in odd games, else 1.
    pub fn white(&self, number: u64) -> usize {
        usize::from(self.players.len() > 1 && number.is_multiple_of(2))
    }
}

/// The request of a move by `limit` for `mover`, with the clocks of both sides when the game has them: the
/// engine may then take the mover's time left plus the time margin, else the time per move plus the margin.
fn request_of(limit: &MoveLimit, clocks: &[Option<Clock>; 2], mover: Color) -> GoRequest {
    let mut go =
        GoLimits { depth: limit.depth, nodes: limit.nodes, movetime_ms: limit.movetime_ms, ..GoLimits::default() };
    let left = |c: &Clock| u64::try_from(c.left_ms().max(0)).unwrap_or(0);
    let mut allowed_ms = limit.movetime_ms.map(|ms| ms + limit.timemargin_ms);
    if let Some(own) = clocks[usize::from(mover == Color::Black)] {
        // Each side's clock as it stands (a side without one, in a game of two engines, sends none).
        if let Some(white) = clocks[0] {
            (go.wtime_ms, go.winc_ms) = (Some(left(&white)), Some(white.inc_ms()));
        }
        if let Some(black) = clocks[1] {
            (go.btime_ms, go.binc_ms) = (Some(left(&black)), Some(black.inc_ms()));
        }
        go.movestogo = own.moves_to_go();
        let clock_ms = left(&own) + limit.timemargin_ms;
        allowed_ms = Some(allowed_ms.map_or(clock_ms, |ms| ms.min(clock_ms)));
    }
    GoRequest { limits: go, allowed_ms }
}

/// Asks `player` for a move in `game` and checks that it is legal and scored.
fn ask(
    player: &mut dyn Player,
    game: &ChessGame,
    request: &GoRequest,
    number: u64,
) -> Result<(PlayerMove, EngineScore), DatagenError> {
    let engine_error = |error| DatagenError::Engine { game: number, error };
    let answer = player.go(game, request).map_err(engine_error)?;
    if !game.position().is_legal(answer.mv) {
        return Err(DatagenError::IllegalMove {
            game: number,
            engine: player.name().to_string(),
            mv: answer.mv.to_string(),
            fen: game.position().to_fen(),
        });
    }
    let score = answer.score.ok_or_else(|| DatagenError::NoScore {
        game: number,
        engine: player.name().to_string(),
        fen: game.position().to_fen(),
    })?;
    Ok((answer, score))
}

/// Draws random candidate openings for game `number` until the first player scores one within the window
/// (as [`crate::selfplay::book::candidate_opening`] does with a built-in engine: one `random_range` draw per
/// ply, the player cleared before each check).
fn random_opening(
    players: &mut Players,
    spec: &DatagenSpec,
    plies: usize,
    number: u64,
) -> Result<ChessGame, DatagenError> {
    let mut rng = super::game_rng(spec.seed, number);
    // A clock-only engine checks with both clocks full.
    let limit = &players.limits[0];
    let request = request_of(limit, &[limit.tc.map(Clock::new), limit.tc.map(Clock::new)], Color::White);
    for _ in 0..super::CANDIDATES_PER_POSITION {
        let mut game = ChessGame::new(Position::startpos());
        let mut dead_end = false;
        for _ in 0..plies {
            let moves = game.position().legal_moves();
            if moves.is_empty() {
                dead_end = true;
                break;
            }
            let m = moves.as_slice()[rng.random_range(0..moves.len())];
            game.play(m);
        }
        if dead_end || game.position().in_check() || game.outcome().is_some() {
            continue;
        }
        let player = players.players[0].as_mut();
        player.new_game().map_err(|error| DatagenError::Engine { game: number, error })?;
        let (_, score) = ask(player, &game, &request, number)?;
        if matches!(score, EngineScore::Cp(_)) && score_cp(score).abs() <= spec.window {
            return Ok(game);
        }
    }
    Err(DatagenError::NoOpening {
        game: number,
        candidates: super::CANDIDATES_PER_POSITION,
        plies,
        window: spec.window,
        limit: players.limits[0].to_string(),
    })
}

/// Plays game `number` of `spec` with `players` (see the module docs of [`super`]) and returns it with its
/// selected positions; deterministic for the same spec and number under node or depth limits.
///
/// # Errors
/// [`DatagenError::NoOpening`] when no candidate opening is kept; [`DatagenError::Engine`],
/// [`DatagenError::IllegalMove`] or [`DatagenError::NoScore`] when a player fails.
pub fn play_game(players: &mut Players, spec: &DatagenSpec, number: u64) -> Result<GameRecord, DatagenError> {
    let mut game = match &spec.opening {
        OpeningSource::Random { plies } => random_opening(players, spec, *plies, number)?,
        OpeningSource::Book { openings, .. } => {
            let index = usize::try_from((number - 1) % openings.len() as u64).expect("below the count");
            openings[index].game()
        }
    };
    for player in &mut players.players {
        player.new_game().map_err(|error| DatagenError::Engine { game: number, error })?;
    }
    let (white, two) = (players.white(number), usize::from(players.players.len() > 1));
    let seat = |color: Color| if color == Color::White { white } else { two - white };
    let mut clocks = [Color::White, Color::Black].map(|c| players.limits[seat(c)].tc.map(Clock::new));
    let start = game.position().clone();
    let start_ply = game.moves().len();
    let mut samples = Vec::new();
    let mut searched = Vec::new();
    let mut skipped = Skipped::default();
    let mut decided = false;
    // Consecutive plies whose search scored White (1) or Black (-1) at least `resign_score` ahead.
    let (mut streak, mut streak_side) = (0u32, 0i32);
    let (result, end) = loop {
        if let Some(outcome) = game.outcome() {
            break (outcome.result, GameEnd::Rules(outcome.termination));
        }
        let ply = game.moves().len();
        if ply >= spec.max_plies {
            break (GameResult::Draw, GameEnd::MaxPlies);
        }
        let pos = game.position().clone();
        let mover = pos.side_to_move();
        let index = seat(mover);
        let limit = players.limits[index];
        let request = request_of(&limit, &clocks, mover);
        let started = Instant::now();
        let (answer, score) = ask(players.players[index].as_mut(), &game, &request, number)?;
        let spent_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
        if !crate::player::timecontrol::charge_move(
            &mut clocks,
            usize::from(mover == Color::Black),
            spent_ms,
            limit.timemargin_ms,
        ) {
            break (GameResult::win_for(mover.flip()), GameEnd::TimeForfeit);
        }
        let cp = score_cp(score);
        let mate = matches!(score, EngineScore::Mate(_));
        let score_white = if mover == Color::White { cp } else { -cp };
        searched.push(TrainingPly { mv: answer.mv, score: cp });
        let selection = if ply <= start_ply {
            Selection::Skip(SkipReason::Book)
        } else if decided {
            Selection::Skip(SkipReason::Decided)
        } else {
            let pv = if spec.select == super::SelectMode::QLeaf { players.players[index].last_pv() } else { vec![] };
            match select(&pos, answer.mv, &pv, mate, spec.select) {
                Selection::Keep { .. } if spec.max_score.is_some_and(|max| cp.abs() > max) => {
                    Selection::Skip(SkipReason::ScoreWindow)
                }
                selection => selection,
            }
        };
        match selection {
            Selection::Keep { position, pv_plies } => {
                let leaf_cp = if position.side_to_move() == Color::White { score_white } else { -score_white };
                let best = (pv_plies == 0).then_some(answer.mv);
                samples.push(Sample {
                    position: *position,
                    ply: ply + pv_plies,
                    searched_ply: ply,
                    score_white,
                    score: leaf_cp,
                    best,
                });
            }
            Selection::Skip(reason) => skipped.add(reason),
        }
        decided |= mate;
        if spec.resign_score > 0 && score_white.abs() >= spec.resign_score {
            let side = score_white.signum();
            streak = if side == streak_side { streak + 1 } else { 1 };
            streak_side = side;
        } else {
            streak = 0;
            streak_side = 0;
        }
        if streak >= RESIGN_PLIES {
            let winner = if streak_side > 0 { Color::White } else { Color::Black };
            break (GameResult::win_for(winner), GameEnd::Resign);
        }
        let played = game.play(answer.mv);
        assert!(played, "the move was checked legal above");
    };
    Ok(GameRecord { number, result, end, plies: game.moves().len(), start, start_ply, searched, samples, skipped })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_map_onto_the_builtin_scale() {
        use crate::engine::chess::search::MATE;
        use crate::engine::mate_moves;
        assert_eq!(MATE, MATE_CP);
        assert_eq!(score_cp(EngineScore::Mate(1)), 31_999);
        assert_eq!(score_cp(EngineScore::Mate(-1)), -31_998);
        assert_eq!(score_cp(EngineScore::Mate(0)), -32_000);
        assert_eq!(score_cp(EngineScore::Cp(-45)), -45);
        assert_eq!(score_cp(EngineScore::Cp(50_000)), MAX_CP);
        // The built-in engine's mate scores come back unchanged through its mate distance in moves.
        for score in [MATE - 1, MATE - 3, MATE - 9, -MATE, -(MATE - 2), -(MATE - 10)] {
            let moves = mate_moves(score, MATE, true).expect("a mate");
            assert_eq!(score_cp(EngineScore::Mate(moves)), score, "{score}");
        }
    }

    #[test]
    fn the_first_engine_is_white_in_odd_games() {
        let spec = crate::player::EngineSpec::builtin("seed").expect("built in");
        let one = Players { players: vec![spec.create().expect("starts")], limits: vec![MoveLimit::default()] };
        assert_eq!((one.white(1), one.white(2)), (0, 0));
        let two = Players {
            players: vec![spec.create().expect("starts"), spec.create().expect("starts")],
            limits: vec![MoveLimit::default(); 2],
        };
        assert_eq!((two.white(1), two.white(2), two.white(3)), (0, 1, 0));
    }
}
