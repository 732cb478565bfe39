//! The chess variant a match plays: standard chess or Chess960 ([`Variant`]).

/// The chess variant a match plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Variant {
    /// Standard chess: castling fields `KQkq` name the outermost rooks.
    #[default]
    Standard,
    /// Chess960 (Fischer random), and so also double Fischer random (DFRC), whose books only differ in the back
    /// ranks: opening FENs are read with X-FEN or Shredder-FEN castling fields, engines get `UCI_Chess960`,
    /// and games are written with `[Variant "chess960"]`.
    Chess960,
}

impl Variant {
    /// Whether this is Chess960.
    pub fn is_chess960(self) -> bool {
        self == Variant::Chess960
    }

    /// The name on the command line and in the summary: `standard` or `chess960`.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Standard => "standard",
            Variant::Chess960 => "chess960",
        }
    }
}
