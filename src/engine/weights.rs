//! Evaluation weights: one named integer (centipawns) per evaluation feature, and the seed constants.
//!
//! The flat order of [`Weights::to_vec`] is the order of the fields below and of the feature vector
//! ([`crate::engine::eval::Features::to_vec`]), so that the evaluation is a dot product and a tuner can treat
//! the weights as one vector:
//!
//! | index | name | unit |
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

/// How many weights (and features) there are: the length of [`Weights::to_vec`].
pub const NUM_WEIGHTS: usize = 32;

/// The evaluation weights, in centipawns per unit of the matching feature.
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
}

impl Weights {
    /// The seed weights.
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
        }
    }

    /// All weights zero.
    pub fn zero() -> Weights {
        Weights::from_vec(&[0; NUM_WEIGHTS]).expect("NUM_WEIGHTS values fit")
    }

    /// The weights as one flat vector, in the order documented in the module docs.
    pub fn to_vec(&self) -> [i32; NUM_WEIGHTS] {
        let mut v = [0; NUM_WEIGHTS];
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
        })
    }

    /// The name of each flat index, as in the config file: `material[1]` for the knight value, `doubled_pawn`
    /// for a scalar.
    pub fn names() -> Vec<String> {
        let mut names = Vec::with_capacity(NUM_WEIGHTS);
        for &(key, len) in FIELDS {
            if len == 1 {
                names.push(key.to_string());
            } else {
                names.extend((0..len).map(|i| format!("{key}[{i}]")));
            }
        }
        names
    }

    /// The weights as the `[weights]` table of a config file (one `key = value` line each, arrays on one
    /// line), readable by [`crate::engine::config::EngineConfig::from_toml_str`].
    pub fn to_toml(&self) -> String {
        let v = self.to_vec();
        let mut out = String::new();
        let mut at = 0;
        for &(key, len) in FIELDS {
            let values = &v[at..at + len];
            at += len;
            let text = if len == 1 {
                values[0].to_string()
            } else {
                let items: Vec<String> = values.iter().map(i32::to_string).collect();
                format!("[{}]", items.join(", "))
            };
            let line = format!("{key} = {text}");
            let pad = 39usize.saturating_sub(line.len()).max(3);
            out.push_str(&format!("{line}{:pad$}# {}\n", "", field_comment(key)));
        }
        out
    }
}

/// Each config key of the `[weights]` table with its number of values (1 for a scalar), in flat order.
pub const FIELDS: &[(&str, usize)] = &[
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
];

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
        assert_eq!(Weights::from_vec(&v), Some(w));
        assert_eq!(FIELDS.iter().map(|f| f.1).sum::<usize>(), NUM_WEIGHTS);
        let names = Weights::names();
        assert_eq!(names.len(), NUM_WEIGHTS);
        assert_eq!(names[1], "material[1]");
        assert_eq!(names[9], "doubled_pawn");
        assert_eq!(names[31], "mopup_centre");
        assert_eq!(v[1], 305);
        assert_eq!(v[9], -25);
        assert_eq!(v[25], 110);
        assert!(Weights::from_vec(&v[1..]).is_none());
    }
}
