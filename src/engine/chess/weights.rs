//! Evaluation weights: named integers (centipawns) per evaluation feature, the seed constants, and the
//! middlegame/endgame layers of the tapered evaluation.
//!
//! # Features
//! The evaluation counts [`NUM_FEATURES`] integer features (White minus Black), laid out in the order of
//! [`FEATURES`]: first the 32 seed features (indices `0..NUM_BASE`), then the terms added for the tapered
//! evaluation, all neutral (zero) in the seed:
//!
//! | index | key | unit |
//! |---|---|---|
//! | 0..5 | `material[0..5]` (P N B R Q) | per piece |
//! | 5..9 | `mobility[0..4]` (N B R Q) | per target square |
//! | 9 | `doubled_pawn` | per pawn beyond the first on a file |
//! | 10 | `connected_pawn` | per pawn defended by an own pawn |
//! | 11..19 | `pawn_advance[0..8]` | per pawn on that relative rank |
//! | 19..27 | `passed_pawn[0..8]` | per passed pawn on that relative rank |
//! | 27 | `castling_lost` | per castling right lost without castling |
//! | 28 | `pawn_shield` | per own pawn in front of a castled king |
//! | 29 | `bishop_pair` | once for two or more bishops |
//! | 30 | `mopup_proximity` | per unit of king proximity (14 - Manhattan distance) |
//! | 31 | `mopup_centre` | per square the losing king stands from the centre |
//! | 32..416 | `psqt_pawn` .. `psqt_king` (64 each) | per piece on that square, White's view (a1 = 0), mirrored for Black |
//! | 416 | `king_zone_attacks` | per enemy attack on the own king zone (king square and its neighbours) |
//! | 417 | `rook_open_file` | per rook on a file without pawns |
//! | 418 | `rook_semi_open_file` | per rook on a file without own pawns but with enemy pawns |
//! | 419 | `isolated_pawn` | per pawn without own pawns on the adjacent files |
//! | 420 | `backward_pawn` | per backward pawn (see [`crate::engine::chess::eval`]) |
//! | 421 | `tempo` | +1 for the side to move |
//!
//! # Weights
//! A feature's middlegame weight is its phase-independent `base` value (seed features only: the named fields
//! of [`Weights`], the keys of the `[weights]` table) plus its `mg` value; its endgame weight is the base plus
//! its `eg` value. The seed has every `mg` and `eg` value zero, so both phases use the seed constants and the
//! tapered evaluation equals the untapered seed evaluation exactly.
//!
//! The flat order of [`Weights::to_vec`] (a tuner's parameter vector) is: the [`NUM_BASE`] base values in
//! the order of [`BASE_FIELDS`], then the [`NUM_FEATURES`] `mg` values, then the [`NUM_FEATURES`] `eg`
//! values.

/// How many seed (phase-independent) weights there are: the features `0..NUM_BASE`.
pub const NUM_BASE: usize = 32;

/// How many features there are: the length of [`crate::engine::chess::eval::Features::to_vec`] and of
/// [`Weights::mg_vec`].
pub const NUM_FEATURES: usize = NUM_BASE + 6 * 64 + 6;

/// How many weights there are: the length of [`Weights::to_vec`] (base, then `mg`, then `eg`).
pub const NUM_WEIGHTS: usize = NUM_BASE + 2 * NUM_FEATURES;

/// Each feature key with its number of values (1 for a scalar), in flat feature order; the first ones, up to
/// [`NUM_BASE`] values, are the seed terms ([`BASE_FIELDS`]).
pub const FEATURES: &[(&str, usize)] = &[
    ("material", 5),
    ("mobility", 4),
    ("doubled_pawn", 1),
    ("connected_pawn", 1),
    ("pawn_advance", 8),
    ("passed_pawn", 8),
    ("castling_lost", 1),
    ("pawn_shield", 1),
    ("bishop_pair", 1),
    ("mopup_proximity", 1),
    ("mopup_centre", 1),
    ("psqt_pawn", 64),
    ("psqt_knight", 64),
    ("psqt_bishop", 64),
    ("psqt_rook", 64),
    ("psqt_queen", 64),
    ("psqt_king", 64),
    ("king_zone_attacks", 1),
    ("rook_open_file", 1),
    ("rook_semi_open_file", 1),
    ("isolated_pawn", 1),
    ("backward_pawn", 1),
    ("tempo", 1),
];

/// The seed terms: each key of the `[weights]` table with its number of values, in flat order (the first 11
/// entries of [`FEATURES`]).
pub const BASE_FIELDS: &[(&str, usize)] = FEATURES.split_at(11).0;

/// Kept for callers of the old name: the keys of the `[weights]` table ([`BASE_FIELDS`]).
pub const FIELDS: &[(&str, usize)] = BASE_FIELDS;

/// The flat feature index of the first value of `key` (a key of [`FEATURES`]); `None` for other names.
pub fn feature_offset(key: &str) -> Option<usize> {
    let mut at = 0;
    for &(name, len) in FEATURES {
        if name == key {
            return Some(at);
        }
        at += len;
    }
    None
}

/// Flat feature indices of the single-valued and first-valued features, used by the evaluation.
pub mod index {
    /// `material[0]` (pawn); `+ 1..5` for N B R Q.
    pub const MATERIAL: usize = 0;
    /// `mobility[0]` (knight); `+ 1..4` for B R Q.
    pub const MOBILITY: usize = 5;
    /// `doubled_pawn`.
    pub const DOUBLED_PAWN: usize = 9;
    /// `connected_pawn`.
    pub const CONNECTED_PAWN: usize = 10;
    /// `pawn_advance[0]`; `+ r` for relative rank `r`.
    pub const PAWN_ADVANCE: usize = 11;
    /// `passed_pawn[0]`; `+ r` for relative rank `r`.
    pub const PASSED_PAWN: usize = 19;
    /// `castling_lost`.
    pub const CASTLING_LOST: usize = 27;
    /// `pawn_shield`.
    pub const PAWN_SHIELD: usize = 28;
    /// `bishop_pair`.
    pub const BISHOP_PAIR: usize = 29;
    /// `mopup_proximity`.
    pub const MOPUP_PROXIMITY: usize = 30;
    /// `mopup_centre`.
    pub const MOPUP_CENTRE: usize = 31;
    /// `psqt_pawn[0]`; `+ 64 * kind + square` (kind 0..6 = P N B R Q K, square from White's view).
    pub const PSQT: usize = 32;
    /// `king_zone_attacks`.
    pub const KING_ZONE_ATTACKS: usize = PSQT + 6 * 64;
    /// `rook_open_file`.
    pub const ROOK_OPEN_FILE: usize = KING_ZONE_ATTACKS + 1;
    /// `rook_semi_open_file`.
    pub const ROOK_SEMI_OPEN_FILE: usize = KING_ZONE_ATTACKS + 2;
    /// `isolated_pawn`.
    pub const ISOLATED_PAWN: usize = KING_ZONE_ATTACKS + 3;
    /// `backward_pawn`.
    pub const BACKWARD_PAWN: usize = KING_ZONE_ATTACKS + 4;
    /// `tempo`.
    pub const TEMPO: usize = KING_ZONE_ATTACKS + 5;
}

/// The evaluation weights, in centipawns per unit of the matching feature.
///
/// The named fields are the seed terms, used in both phases; `mg` and `eg` hold one value per feature
/// (indexed as [`FEATURES`]) added to the base in the middlegame and the endgame (see the module docs).
/// Zeroing a named field group (for example `mobility = [0; 4]`) switches that term off as long as its `mg`
/// and `eg` values are zero, as they are in the seed.
///
/// Source of the seed values ([`Weights::seed`]): the seed constants from DEVELOPERS.md / the project's
/// bitboard-engine articles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Value of each piece: pawn, knight, bishop, rook, queen.
    pub material: [i32; 5],
    /// Bonus per pseudo-legal target square (attacked and not occupied by an own piece): knight, bishop, rook,
    /// queen.
    pub mobility: [i32; 4],
    /// Per pawn beyond the first on a file (negative: a penalty).
    pub doubled_pawn: i32,
    /// Per pawn defended by an own pawn.
    pub connected_pawn: i32,
    /// Per pawn by its relative rank (index 0 = the own first rank).
    pub pawn_advance: [i32; 8],
    /// Per passed pawn (no enemy pawn ahead on its own or an adjacent file) by relative rank.
    pub passed_pawn: [i32; 8],
    /// Per castling right no longer held by a side that has not castled (negative: a penalty).
    pub castling_lost: i32,
    /// Per own pawn in front of a castled king (king's file and the adjacent files, one or two ranks ahead).
    pub pawn_shield: i32,
    /// Once for a side with two or more bishops.
    pub bishop_pair: i32,
    /// Mop-up: per unit of king proximity (14 - Manhattan distance between the kings), for the winning side.
    pub mopup_proximity: i32,
    /// Mop-up: per square of Manhattan distance from the losing king to the nearest centre square.
    pub mopup_centre: i32,
    /// Middlegame values, one per feature in [`FEATURES`] order, added to the base value (zero in the seed).
    pub mg: [i32; NUM_FEATURES],
    /// Endgame values, one per feature in [`FEATURES`] order, added to the base value (zero in the seed).
    pub eg: [i32; NUM_FEATURES],
}

impl Weights {
    /// The seed weights: the seed constants in both phases, every added term zero.
    ///
    /// Source: the seed constants from DEVELOPERS.md / the project's bitboard-engine articles.
    pub fn seed() -> Weights {
        Weights {
            material: [100, 305, 333, 563, 950],
            mobility: [9, 4, 3, 3],
            doubled_pawn: -25,
            connected_pawn: 12,
            pawn_advance: [0, 0, 0, 0, 10, 20, 30, 0],
            passed_pawn: [0, 50, 50, 50, 70, 90, 110, 0],
            castling_lost: -50,
            pawn_shield: 33,
            bishop_pair: 50,
            mopup_proximity: 10,
            mopup_centre: 10,
            mg: [0; NUM_FEATURES],
            eg: [0; NUM_FEATURES],
        }
    }

    /// All weights zero.
    pub fn zero() -> Weights {
        Weights::from_vec(&[0; NUM_WEIGHTS]).expect("NUM_WEIGHTS values fit")
    }

    /// The [`NUM_BASE`] phase-independent seed-term values in [`BASE_FIELDS`] order.
    pub fn base_vec(&self) -> [i32; NUM_BASE] {
        let mut v = [0; NUM_BASE];
        let mut i = 0;
        let mut put = |xs: &[i32]| {
            v[i..i + xs.len()].copy_from_slice(xs);
            i += xs.len();
        };
        put(&self.material);
        put(&self.mobility);
        put(&[self.doubled_pawn, self.connected_pawn]);
        put(&self.pawn_advance);
        put(&self.passed_pawn);
        put(&[self.castling_lost, self.pawn_shield, self.bishop_pair, self.mopup_proximity, self.mopup_centre]);
        v
    }

    /// The effective middlegame weight of every feature, centipawns: base plus `mg` (saturating at the `i32`
    /// range).
    pub fn mg_vec(&self) -> [i32; NUM_FEATURES] {
        self.effective(&self.mg)
    }

    /// The effective endgame weight of every feature, centipawns: base plus `eg` (saturating at the `i32`
    /// range).
    pub fn eg_vec(&self) -> [i32; NUM_FEATURES] {
        self.effective(&self.eg)
    }

    /// Base plus one phase layer.
    fn effective(&self, layer: &[i32; NUM_FEATURES]) -> [i32; NUM_FEATURES] {
        let mut v = *layer;
        for (w, b) in v.iter_mut().zip(self.base_vec()) {
            *w = w.saturating_add(b);
        }
        v
    }

    /// The weights as one flat vector, in the order documented in the module docs: base, `mg`, `eg`.
    pub fn to_vec(&self) -> [i32; NUM_WEIGHTS] {
        let mut v = [0; NUM_WEIGHTS];
        v[..NUM_BASE].copy_from_slice(&self.base_vec());
        v[NUM_BASE..NUM_BASE + NUM_FEATURES].copy_from_slice(&self.mg);
        v[NUM_BASE + NUM_FEATURES..].copy_from_slice(&self.eg);
        v
    }

    /// Weights from a flat vector in the order of [`Weights::to_vec`]; `None` unless it has exactly
    /// [`NUM_WEIGHTS`] values.
    pub fn from_vec(v: &[i32]) -> Option<Weights> {
        if v.len() != NUM_WEIGHTS {
            return None;
        }
        let arr = |at: usize, n: usize| &v[at..at + n];
        Some(Weights {
            material: arr(0, 5).try_into().ok()?,
            mobility: arr(5, 4).try_into().ok()?,
            doubled_pawn: v[9],
            connected_pawn: v[10],
            pawn_advance: arr(11, 8).try_into().ok()?,
            passed_pawn: arr(19, 8).try_into().ok()?,
            castling_lost: v[27],
            pawn_shield: v[28],
            bishop_pair: v[29],
            mopup_proximity: v[30],
            mopup_centre: v[31],
            mg: arr(NUM_BASE, NUM_FEATURES).try_into().ok()?,
            eg: arr(NUM_BASE + NUM_FEATURES, NUM_FEATURES).try_into().ok()?,
        })
    }

    /// The name of each flat index, as in the config file: `material[1]` for the knight's base value,
    /// `doubled_pawn` for a scalar, `mg.psqt_knight[27]` and `eg.tempo` for the phase layers.
    pub fn names() -> Vec<String> {
        let mut names = Vec::with_capacity(NUM_WEIGHTS);
        push_names(&mut names, "", BASE_FIELDS);
        push_names(&mut names, "mg.", FEATURES);
        push_names(&mut names, "eg.", FEATURES);
        names
    }

    /// The name of each feature index: `material[1]`, `psqt_king[6]`, `tempo`.
    pub fn feature_names() -> Vec<String> {
        let mut names = Vec::with_capacity(NUM_FEATURES);
        push_names(&mut names, "", FEATURES);
        names
    }

    /// The weights as the `[weights]` table of a config file and its `[weights.mg]` and `[weights.eg]`
    /// sub-tables (one `key = value` line each, short arrays on one line, square tables one rank a line from
    /// a1..h1 up), readable by [`crate::engine::chess::config::EngineConfig::from_toml_str`].
    pub fn to_toml(&self) -> String {
        let mut out = String::from("[weights]\n");
        write_fields(&mut out, BASE_FIELDS, &self.base_vec());
        out.push_str("[weights.mg]\n");
        write_fields(&mut out, FEATURES, &self.mg);
        out.push_str("[weights.eg]\n");
        write_fields(&mut out, FEATURES, &self.eg);
        out
    }
}

/// Appends `prefix` + each key (with `[i]` for arrays) of `fields`.
fn push_names(names: &mut Vec<String>, prefix: &str, fields: &[(&str, usize)]) {
    for &(key, len) in fields {
        if len == 1 {
            names.push(format!("{prefix}{key}"));
        } else {
            names.extend((0..len).map(|i| format!("{prefix}{key}[{i}]")));
        }
    }
}

/// Writes one `key = value` line per field of `fields`, taking the values from `values` in order.
fn write_fields(out: &mut String, fields: &[(&str, usize)], values: &[i32]) {
    let mut at = 0;
    for &(key, len) in fields {
        let values = &values[at..at + len];
        at += len;
        let join = |xs: &[i32]| xs.iter().map(i32::to_string).collect::<Vec<_>>().join(", ");
        if len == 64 {
            out.push_str(&format!("{key} = [   # {}\n", field_comment(key)));
            for (rank, row) in values.chunks(8).enumerate() {
                out.push_str(&format!("    {},   # rank {}\n", join(row), rank + 1));
            }
            out.push_str("]\n");
            continue;
        }
        let text = if len == 1 { values[0].to_string() } else { format!("[{}]", join(values)) };
        let line = format!("{key} = {text}");
        let pad = 39usize.saturating_sub(line.len()).max(3);
        out.push_str(&format!("{line}{:pad$}# {}\n", "", field_comment(key)));
    }
}

/// The comment written after each key by [`Weights::to_toml`].
fn field_comment(key: &str) -> &'static str {
    match key {
        "material" => "P N B R Q, centipawns",
        "mobility" => "N B R Q, per target square",
        "doubled_pawn" => "per pawn beyond the first on a file",
        "connected_pawn" => "per pawn defended by an own pawn",
        "pawn_advance" => "per pawn by relative rank 1..8",
        "passed_pawn" => "per passed pawn by relative rank 1..8",
        "castling_lost" => "per castling right lost without castling",
        "pawn_shield" => "per own pawn in front of a castled king",
        "bishop_pair" => "two or more bishops",
        "mopup_proximity" => "endgame: per unit of king proximity (14 - distance)",
        "mopup_centre" => "endgame: per square the losing king is from the centre",
        "psqt_pawn" => "pawn per square, White's view a1..h8 (mirrored for Black)",
        "psqt_knight" => "knight per square, White's view a1..h8 (mirrored for Black)",
        "psqt_bishop" => "bishop per square, White's view a1..h8 (mirrored for Black)",
        "psqt_rook" => "rook per square, White's view a1..h8 (mirrored for Black)",
        "psqt_queen" => "queen per square, White's view a1..h8 (mirrored for Black)",
        "psqt_king" => "king per square, White's view a1..h8 (mirrored for Black)",
        "king_zone_attacks" => "per enemy attack on the own king zone",
        "rook_open_file" => "per rook on a file without pawns",
        "rook_semi_open_file" => "per rook on a file with enemy pawns only",
        "isolated_pawn" => "per pawn without own pawns on adjacent files",
        "backward_pawn" => "per backward pawn",
        "tempo" => "side to move",
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flat_round_trip_and_names() {
        let w = Weights::seed();
        let v = w.to_vec();
        assert_eq!(Weights::from_vec(&v), Some(w.clone()));
        assert_eq!(BASE_FIELDS.iter().map(|f| f.1).sum::<usize>(), NUM_BASE);
        assert_eq!(FEATURES.iter().map(|f| f.1).sum::<usize>(), NUM_FEATURES);
        let names = Weights::names();
        assert_eq!(names.len(), NUM_WEIGHTS);
        assert_eq!(names[1], "material[1]");
        assert_eq!(names[9], "doubled_pawn");
        assert_eq!(names[31], "mopup_centre");
        assert_eq!(names[NUM_BASE], "mg.material[0]");
        assert_eq!(names[NUM_BASE + index::TEMPO], "mg.tempo");
        assert_eq!(names[NUM_WEIGHTS - 1], "eg.tempo");
        assert_eq!(v[1], 305);
        assert_eq!(v[9], -25);
        assert_eq!(v[25], 110);
        assert!(Weights::from_vec(&v[1..]).is_none());
        assert_eq!(w.mg_vec()[..NUM_BASE], w.base_vec());
        assert_eq!(w.eg_vec(), w.mg_vec());
    }

    #[test]
    fn index_constants_match_the_table() {
        let at = |k| feature_offset(k).unwrap();
        assert_eq!(at("material"), index::MATERIAL);
        assert_eq!(at("mobility"), index::MOBILITY);
        assert_eq!(at("doubled_pawn"), index::DOUBLED_PAWN);
        assert_eq!(at("connected_pawn"), index::CONNECTED_PAWN);
        assert_eq!(at("pawn_advance"), index::PAWN_ADVANCE);
        assert_eq!(at("passed_pawn"), index::PASSED_PAWN);
        assert_eq!(at("castling_lost"), index::CASTLING_LOST);
        assert_eq!(at("pawn_shield"), index::PAWN_SHIELD);
        assert_eq!(at("bishop_pair"), index::BISHOP_PAIR);
        assert_eq!(at("mopup_proximity"), index::MOPUP_PROXIMITY);
        assert_eq!(at("mopup_centre"), index::MOPUP_CENTRE);
        assert_eq!(at("psqt_pawn"), index::PSQT);
        assert_eq!(at("psqt_king"), index::PSQT + 5 * 64);
        assert_eq!(at("king_zone_attacks"), index::KING_ZONE_ATTACKS);
        assert_eq!(at("rook_open_file"), index::ROOK_OPEN_FILE);
        assert_eq!(at("rook_semi_open_file"), index::ROOK_SEMI_OPEN_FILE);
        assert_eq!(at("isolated_pawn"), index::ISOLATED_PAWN);
        assert_eq!(at("backward_pawn"), index::BACKWARD_PAWN);
        assert_eq!(at("tempo"), index::TEMPO);
        assert_eq!(index::TEMPO + 1, NUM_FEATURES);
        assert_eq!(feature_offset("nope"), None);
    }
}
