//! Differential test of Arbiter's rules against shakmaty (a dev-dependency, used only here and in benches).
//!
//! Seeded random playouts start from every position of `../shared/suites/perft/perftsuite.epd` (standard chess),
//! from a sample of `../shared/suites/openings/2moves_v1.epd` plus `cpw_perft_positions.epd` (middlegames, where
//! en passant and castling come up often) and from a sample of `fischer.epd` (Chess960, Shredder-FEN castling
//! letters). At every position of a playout Arbiter and shakmaty must agree on the FEN (en passant written only
//! when a legal capture exists), the set of legal moves (UCI text) and the SAN of each move with its `+`/`#`
//! mark. Arbiter must also keep its incremental Zobrist key equal to a recompute, pass `is_consistent`, read its
//! own FEN back to the same FEN and key, parse the SAN and UCI it writes back to the same move, and restore the
//! position exactly (`==` and FEN) after make and unmake; the FEN after each legal move must equal shakmaty's.
//!
//! A failure prints the suite line, the FEN, the moves played from the start position and what differs.

use arbiter::chess::san::{parse_san, parse_uci, to_san};
use arbiter::chess::{Move, MoveKind, PieceType, Position};
use rayon::prelude::*;
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position as _};
use std::collections::BTreeMap;

/// Random playouts per standard-chess start position.
const STANDARD_PLAYOUTS: u64 = 4;
/// Every how many lines of `../openings/2moves_v1.epd` (40,457 positions four plies in) a start position is taken.
const OPENING_STEP: usize = 200;
/// Random playouts per opening start position.
const OPENING_PLAYOUTS: u64 = 2;
/// Every how many lines of `fischer.epd` a start position is taken.
const FISCHER_STEP: usize = 4;
/// Random playouts per Chess960 start position.
const FISCHER_PLAYOUTS: u64 = 2;
/// The longest playout in plies (a playout also ends at mate or stalemate).
const MAX_PLIES: usize = 80;
/// Failures reported before the test stops looking for more.
const MAX_FAILURES: usize = 20;

/// Marsaglia's xorshift64 (Journal of Statistical Software 8(14), 2003): small, seeded, reproducible.
struct XorShift(u64);

impl XorShift {
    fn new(seed: u64) -> XorShift {
        // SplitMix64's finaliser spreads small seeds over all bits (and never yields the forbidden state 0 here).
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        XorShift((z ^ (z >> 31)) | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in `0..n` (`n > 0`); the modulo bias is irrelevant here.
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A start position of the playouts: the suite and line it comes from, and its FEN.
struct Start {
    suite: &'static str,
    line: usize,
    fen: String,
    chess960: bool,
}

fn read_starts(suite: &'static str, chess960: bool, step: usize) -> Vec<Start> {
    let path = format!("{}/../shared/suites/perft/{suite}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.split(';').next().unwrap_or("").trim()))
        .filter(|(_, fen)| !fen.is_empty())
        .filter(|&(line, fen)| {
            // perftsuite.epd line 51 is a double check by two bishops that no move gives (shakmaty calls it
            // impossible too): Arbiter refuses it (docs/positions.md), so no playout starts there.
            let impossible = suite == "perftsuite.epd" && line == 51;
            if impossible {
                let err = Position::from_fen_variant(fen, chess960).expect_err("perftsuite.epd:51 is refused");
                assert!(err.to_string().contains("impossible check"), "{err}");
            }
            !impossible
        })
        .step_by(step)
        .map(|(line, fen)| Start { suite, line, fen: fen.to_string(), chess960 })
        .collect()
}

/// What one playout (or all of them) checked, and the failures found.
#[derive(Default)]
struct Tally {
    playouts: u64,
    positions: u64,
    moves: u64,
    /// Of the moves checked: castling, en passant, promotions, and those whose SAN ends in `+` or `#`.
    castling: u64,
    en_passant: u64,
    promotions: u64,
    checks: u64,
    mates: u64,
    failures: Vec<String>,
}

impl Tally {
    fn merge(mut self, other: Tally) -> Tally {
        self.playouts += other.playouts;
        self.positions += other.positions;
        self.moves += other.moves;
        self.castling += other.castling;
        self.en_passant += other.en_passant;
        self.promotions += other.promotions;
        self.checks += other.checks;
        self.mates += other.mates;
        self.failures.extend(other.failures);
        self
    }
}

fn castling_mode(chess960: bool) -> CastlingMode {
    if chess960 { CastlingMode::Chess960 } else { CastlingMode::Standard }
}

fn shakmaty_fen(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

/// The castling rights as the sorted squares of the rooks that may still castle.
fn arbiter_castling_rooks(pos: &Position) -> Vec<String> {
    let mut rooks: Vec<String> = (0..4)
        .filter(|bit| pos.castling_rights() & (1 << bit) != 0)
        .map(|bit| pos.castling_rook(bit).to_string())
        .collect();
    rooks.sort();
    rooks
}

fn shakmaty_castling_rooks(pos: &Chess) -> Vec<String> {
    let mut rooks: Vec<String> = pos.castles().castling_rights().into_iter().map(|sq| sq.to_string()).collect();
    rooks.sort();
    rooks
}

/// Compares the two positions' FENs: exactly in standard chess; in Chess960 every field but castling exactly
/// (Arbiter writes Shredder-FEN letters, shakmaty `KQkq` for outermost rooks) and castling as rook squares.
fn fen_difference(arb: &Position, sh: &Chess, chess960: bool) -> Option<String> {
    let a = arb.to_fen();
    let s = shakmaty_fen(sh);
    if !chess960 {
        return (a != s).then(|| format!("FEN differs: arbiter {a:?}, shakmaty {s:?}"));
    }
    let fields = |f: &str| -> Vec<String> {
        f.split(' ').enumerate().filter(|&(i, _)| i != 2).map(|(_, x)| x.to_string()).collect()
    };
    if fields(&a) != fields(&s) {
        return Some(format!("FEN differs outside castling: arbiter {a:?}, shakmaty {s:?}"));
    }
    let (ar, sr) = (arbiter_castling_rooks(arb), shakmaty_castling_rooks(sh));
    (ar != sr).then(|| format!("castling rooks differ: arbiter {ar:?} ({a}), shakmaty {sr:?} ({s})"))
}

/// Checks one position of a playout and returns the legal moves both agree on, keyed by UCI text (sorted, so
/// the playout does not depend on generation order); `Err` describes the first disagreement.
fn check_position(
    arb: &mut Position,
    sh: &Chess,
    chess960: bool,
    tally: &mut Tally,
) -> Result<BTreeMap<String, (Move, shakmaty::Move)>, String> {
    let mode = castling_mode(chess960);
    if !arb.is_consistent() {
        return Err("is_consistent() fails".to_string());
    }
    if arb.key() != arb.compute_key() {
        return Err(format!("incremental key {:#018x} != compute_key() {:#018x}", arb.key(), arb.compute_key()));
    }
    if let Some(d) = fen_difference(arb, sh, chess960) {
        return Err(d);
    }
    let fen = arb.to_fen();
    match Position::from_fen_variant(&fen, chess960) {
        // Not `==`: a played position keeps stale rook squares and masks for castling rights it has lost,
        // which a freshly read one does not have; what matters is the same FEN and the same key.
        Ok(back) if back.to_fen() == fen && back.key() == arb.key() => {}
        Ok(back) => {
            return Err(format!(
                "FEN read back differs: {:?} key {:#018x}, played key {:#018x}",
                back.to_fen(),
                back.key(),
                arb.key()
            ));
        }
        Err(e) => return Err(format!("own FEN does not parse: {e}")),
    }

    let arb_moves = arb.legal_moves();
    let ours: BTreeMap<String, Move> = arb_moves.iter().map(|&m| (m.to_uci(chess960), m)).collect();
    let theirs: BTreeMap<String, shakmaty::Move> =
        sh.legal_moves().iter().map(|&m| (m.to_uci(mode).to_string(), m)).collect();
    if ours.len() != arb_moves.len() {
        return Err(format!("arbiter generates a move twice: {:?}", arb_moves.as_slice()));
    }
    if ours.keys().ne(theirs.keys()) {
        let only_ours: Vec<&String> = ours.keys().filter(|k| !theirs.contains_key(*k)).collect();
        let only_theirs: Vec<&String> = theirs.keys().filter(|k| !ours.contains_key(*k)).collect();
        return Err(format!(
            "legal moves differ ({} vs {}): only arbiter {only_ours:?}, only shakmaty {only_theirs:?}",
            ours.len(),
            theirs.len()
        ));
    }
    if arb.count_legal_moves() != ours.len() as u64 {
        return Err(format!("count_legal_moves() {} != {} legal moves", arb.count_legal_moves(), ours.len()));
    }

    let mut both = BTreeMap::new();
    for (uci, &m) in &ours {
        let sm = theirs[uci];
        tally.moves += 1;
        match m.kind() {
            MoveKind::Castling => tally.castling += 1,
            MoveKind::EnPassant => tally.en_passant += 1,
            MoveKind::Promotion => tally.promotions += 1,
            MoveKind::Normal => {}
        }
        let san = to_san(arb, m);
        tally.checks += u64::from(san.ends_with('+'));
        tally.mates += u64::from(san.ends_with('#'));
        let mut sh_child = sh.clone();
        let sh_san = SanPlus::from_move_and_play_unchecked(&mut sh_child, sm).to_string();
        if san != sh_san {
            return Err(format!("SAN of {uci}: arbiter {san:?}, shakmaty {sh_san:?}"));
        }
        match parse_san(arb, &san) {
            Ok(back) if back == m => {}
            other => return Err(format!("parse_san({san:?}) gives {other:?}, not {uci}")),
        }
        match parse_uci(arb, uci) {
            Ok(back) if back == m => {}
            other => return Err(format!("parse_uci({uci:?}) gives {other:?}, not {uci}")),
        }

        let before = arb.clone();
        let undo = arb.make_move(m);
        let child_problem = if !arb.is_consistent() {
            Some("is_consistent() fails".to_string())
        } else if arb.key() != arb.compute_key() {
            Some(format!("incremental key {:#018x} != compute_key() {:#018x}", arb.key(), arb.compute_key()))
        } else {
            fen_difference(arb, &sh_child, chess960)
        };
        arb.unmake_move(m, &undo);
        if let Some(p) = child_problem {
            return Err(format!("after {uci} ({san}): {p}"));
        }
        if *arb != before || arb.to_fen() != before.to_fen() {
            return Err(format!("make/unmake of {uci} gives {:?}\n  instead of {:?}", arb.to_fen(), before.to_fen()));
        }
        both.insert(uci.clone(), (m, sm));
    }
    Ok(both)
}

/// Whether a playout should prefer `m`: a pawn move or castling.
fn favoured_move(pos: &Position, m: Move) -> bool {
    m.kind() == MoveKind::Castling || pos.piece_on(m.from()).is_some_and(|p| p.kind == PieceType::Pawn)
}

/// Plays one seeded random playout from `start`, checking every position on the way.
fn playout(start: &Start, seed: u64) -> Tally {
    let mut tally = Tally { playouts: 1, ..Tally::default() };
    let mut arb = Position::from_fen_variant(&start.fen, start.chess960)
        .unwrap_or_else(|e| panic!("{}:{} {}: arbiter rejects the FEN: {e}", start.suite, start.line, start.fen));
    let fen: Fen =
        start.fen.parse().unwrap_or_else(|e| panic!("{}:{}: shakmaty rejects the FEN: {e}", start.suite, start.line));
    // Arbiter refuses the suite's impossible checks (above); any shakmaty still calls impossible are played.
    let mut sh: Chess = fen
        .into_position(castling_mode(start.chess960))
        .or_else(shakmaty::PositionError::ignore_impossible_check)
        .unwrap_or_else(|e| panic!("{}:{} {}: shakmaty rejects the position: {e}", start.suite, start.line, start.fen));
    let mut rng = XorShift::new(seed);
    let mut played: Vec<String> = Vec::new();
    for _ in 0..=MAX_PLIES {
        tally.positions += 1;
        let before = arb.to_fen();
        let moves = match check_position(&mut arb, &sh, start.chess960, &mut tally) {
            Ok(moves) => moves,
            Err(why) => {
                tally.failures.push(format!(
                    "{}:{} start {}\n  seed {seed}, after {} plies [{}]\n  FEN {before}\n  {why}",
                    start.suite,
                    start.line,
                    start.fen,
                    played.len(),
                    played.join(" ")
                ));
                break;
            }
        };
        if moves.is_empty() || played.len() == MAX_PLIES {
            break;
        }
        // Half the time play a pawn move or castling if there is one, so that playouts reach double pushes with
        // en passant, promotions and castling more often than uniform choice among piece moves would.
        let favoured: Vec<(&String, &(Move, shakmaty::Move))> =
            moves.iter().filter(|(_, (m, _))| favoured_move(&arb, *m)).collect();
        let (uci, &(m, sm)) = if !favoured.is_empty() && rng.next() & 1 == 0 {
            favoured[rng.below(favoured.len())]
        } else {
            moves.iter().nth(rng.below(moves.len())).expect("index below the length")
        };
        played.push(uci.clone());
        arb.make_move(m);
        sh.play_unchecked(sm);
    }
    tally
}

fn run(starts: &[Start], playouts: u64) -> Tally {
    starts
        .par_iter()
        .enumerate()
        .flat_map_iter(|(i, start)| (0..playouts).map(move |k| (i, start, k)))
        .map(|(i, start, k)| playout(start, (i as u64) << 8 | k))
        .reduce(Tally::default, Tally::merge)
}

fn report(name: &str, tally: &Tally) {
    eprintln!(
        "{name}: {} playouts, {} positions, {} moves checked against shakmaty ({} castling, {} en passant, \
         {} promotions, {} checks, {} mates), {} failures",
        tally.playouts,
        tally.positions,
        tally.moves,
        tally.castling,
        tally.en_passant,
        tally.promotions,
        tally.checks,
        tally.mates,
        tally.failures.len()
    );
    let shown: Vec<&String> = tally.failures.iter().take(MAX_FAILURES).collect();
    assert!(
        tally.failures.is_empty(),
        "{name}: {} of {} playouts disagree ({} positions, {} moves checked); first {}:\n{}",
        tally.failures.len(),
        tally.playouts,
        tally.positions,
        tally.moves,
        shown.len(),
        shown.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn standard_chess_matches_shakmaty() {
    let starts = read_starts("perftsuite.epd", false, 1);
    assert!(starts.len() >= 100, "perftsuite.epd has {} positions", starts.len());
    report("perftsuite.epd", &run(&starts, STANDARD_PLAYOUTS));
}

#[test]
fn opening_book_positions_match_shakmaty() {
    // Middlegames with pawns on both sides, where en passant and castling come up far more often than in the
    // perft suite's endgames.
    let mut starts = read_starts("../openings/2moves_v1.epd", false, OPENING_STEP);
    starts.extend(read_starts("cpw_perft_positions.epd", false, 1));
    assert!(starts.len() >= 200, "opening sample has {} positions", starts.len());
    report("2moves_v1.epd sample + cpw_perft_positions.epd", &run(&starts, OPENING_PLAYOUTS));
}

#[test]
fn chess960_matches_shakmaty() {
    let starts = read_starts("fischer.epd", true, FISCHER_STEP);
    assert!(starts.len() >= 200, "fischer.epd sample has {} positions", starts.len());
    report("fischer.epd", &run(&starts, FISCHER_PLAYOUTS));
}
