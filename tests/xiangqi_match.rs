//! Xiangqi games through the runner's game trait against the real Fairy-Stockfish (`apt-get install
//! fairy-stockfish`, `UCI_Variant` xiangqi, one thread, fixed nodes): every move either side makes is legal and
//! the games end by the rules or the move cap.

use arbiter::chess::game::GameResult;
use arbiter::runner::variant::{MatchGame, play_rules_game, uci_engine_move, xiangqi_builtin_move};
use arbiter::uci::EngineProcess;
use arbiter::xiangqi::engine::{XiangqiConfig, XiangqiEngine, XiangqiLimits};
use arbiter::xiangqi::{self, Game};
use std::path::Path;
use std::time::Duration;

const FSF: &str = "/usr/games/fairy-stockfish";

#[test]
fn two_games_against_fairy_stockfish_are_legal_to_the_end() {
    assert!(Path::new(FSF).exists(), "{FSF} is missing: apt-get install --no-install-recommends fairy-stockfish");
    let timeout = Duration::from_secs(30);
    let mut fsf = EngineProcess::start(FSF, &[], timeout).unwrap();
    fsf.set_option("UCI_Variant", "xiangqi").unwrap();
    fsf.set_option("Threads", "1").unwrap();
    fsf.sync(timeout).unwrap();
    let config = XiangqiConfig::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/xiangqi/seed.toml")).unwrap();
    let mut ours = XiangqiEngine::new(config);
    let limits = XiangqiLimits { nodes: Some(500), ..Default::default() };
    let mut results = Vec::new();
    for ours_red in [true, false] {
        ours.new_game();
        fsf.send("ucinewgame").unwrap();
        fsf.sync(timeout).unwrap();
        let mut builtin = |g: &Game| xiangqi_builtin_move(&mut ours, g, limits);
        let mut external = |g: &Game| match uci_engine_move(&mut fsf, g, 500, timeout) {
            Ok(m) => Some(m),
            Err(e) => panic!("fairy-stockfish: {e}"),
        };
        let start = <Game as MatchGame>::from_fen(xiangqi::START_FEN).unwrap();
        let record = if ours_red {
            play_rules_game(start, [&mut builtin, &mut external], 300)
        } else {
            play_rules_game(start, [&mut external, &mut builtin], 300)
        };
        assert!(!["illegal move", "no move"].contains(&record.termination), "{record:?}");
        results.push((record.result, record.termination, record.game.moves().len()));
    }
    // One thread at fixed nodes replays exactly: Fairy-Stockfish 11.1 mates the seed build with either colour.
    let expected = [(GameResult::BlackWins, "checkmate", 54), (GameResult::WhiteWins, "checkmate", 41)];
    assert_eq!(results, expected);
}
