//! What the PGN comment after each engine move holds (`--pgn-fields`): cutechess-cli's `{+0.35/12 0.123s}`
//! (score/depth and the time, the default) and the fields fastchess adds with `-pgnout nodes=true` and the
//! others, in fastchess's order and form (`PgnBuilder::createComment`, `app/src/game/pgn/pgn_builder.cpp`):
//! `{+0.35/12 0.123s, tl=9.877s, latency=0.002s, n=123456, sd=18, nps=1000000, hashfull=12, tbhits=0,
//! pv="e2e4 e7e5"}`.

use crate::game::Game;
use crate::player::{PlayerMove, SearchDetail};
use std::fmt;
use std::str::FromStr;

/// One field of a move comment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u16)]
pub enum CommentField {
    /// The engine's score, from its own view (`+0.35`, `-M3`).
    Score = 1,
    /// The depth, after the score (`/12`), or `d=12` without it.
    Depth = 2,
    /// The time the move took as the runner measured it (`0.123s`; only under a time control, so that fixed
    /// node or depth games replay to the same PGN).
    Time = 4,
    /// The clock after the move (`tl=9.877s`; only under a clock).
    Timeleft = 8,
    /// The runner's time for the move less the engine's own `info ... time` (`latency=0.002s`).
    Latency = 16,
    /// Nodes searched (`n=123456`).
    Nodes = 32,
    /// The selective depth (`sd=18`).
    Seldepth = 64,
    /// Nodes per second (`nps=1000000`: the engine's, else nodes over the measured time).
    Nps = 128,
    /// The hash table's fill in permille (`hashfull=12`).
    Hashfull = 256,
    /// Tablebase hits (`tbhits=0`).
    Tbhits = 512,
    /// The principal variation in the engine's notation (`pv="e2e4 e7e5"`).
    Pv = 1024,
}

impl CommentField {
    /// Every field with its name on the command line, in the order a comment writes them.
    pub const ALL: [(CommentField, &'static str); 11] = [
        (CommentField::Score, "score"),
        (CommentField::Depth, "depth"),
        (CommentField::Time, "time"),
        (CommentField::Timeleft, "timeleft"),
        (CommentField::Latency, "latency"),
        (CommentField::Nodes, "nodes"),
        (CommentField::Seldepth, "seldepth"),
        (CommentField::Nps, "nps"),
        (CommentField::Hashfull, "hashfull"),
        (CommentField::Tbhits, "tbhits"),
        (CommentField::Pv, "pv"),
    ];

    /// The field's name (`score`, `nodes`, ...).
    pub fn name(self) -> &'static str {
        CommentField::ALL.iter().find(|(f, _)| *f == self).map_or("", |(_, name)| name)
    }
}

/// A set of [`CommentField`]s; the default is cutechess-cli's `score,depth,time`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CommentFields(u16);

impl Default for CommentFields {
    fn default() -> CommentFields {
        CommentFields::none().with(CommentField::Score).with(CommentField::Depth).with(CommentField::Time)
    }
}

/// A `--pgn-fields` word that names no field.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown PGN comment field {} (expected a comma-separated list of score, depth, time, timeleft, latency, \
     nodes, seldepth, nps, hashfull, tbhits, pv)",
    crate::notation::quote::shown(.0)
)]
pub struct CommentFieldError(pub String);

impl CommentFields {
    /// No field.
    pub fn none() -> CommentFields {
        CommentFields(0)
    }

    /// This set and `field`.
    #[must_use]
    pub fn with(self, field: CommentField) -> CommentFields {
        CommentFields(self.0 | field as u16)
    }

    /// This set without `field`.
    #[must_use]
    pub fn without(self, field: CommentField) -> CommentFields {
        CommentFields(self.0 & !(field as u16))
    }

    /// Whether `field` is in the set.
    pub fn has(self, field: CommentField) -> bool {
        self.0 & field as u16 != 0
    }

    /// Whether the set is the default one.
    pub fn is_default(&self) -> bool {
        *self == CommentFields::default()
    }

    /// The comment for an engine's `answer`: the time `time_ms` it took when timed, the clock `left_ms` after it
    /// when under a clock, its `detail`, and its PV `pv` as [`pv_text`] writes it.
    ///
    /// # Examples
    /// ```
    /// use arbiter::chess::{ChessGame, Move, Position};
    /// use arbiter::player::{EngineScore, PlayerMove, SearchDetail};
    /// use arbiter::runner::comments::{CommentField, CommentFields};
    /// let answer = PlayerMove { mv: Move::NULL, score: Some(EngineScore::Cp(35)), depth: 12, nodes: 500, time_ms: 0 };
    /// let detail = SearchDetail { seldepth: Some(18), time_ms: Some(120), ..SearchDetail::default() };
    /// let fields = CommentFields::default().with(CommentField::Nodes).with(CommentField::Seldepth);
    /// let comment = fields.comment(&answer, Some(123), Some(9877), &detail, "");
    /// assert_eq!(comment, "+0.35/12 0.123s, n=500, sd=18");
    /// let latency = CommentFields::none().with(CommentField::Latency).with(CommentField::Timeleft);
    /// assert_eq!(latency.comment(&answer, Some(123), Some(9877), &detail, ""), "tl=9.877s, latency=0.003s");
    /// use arbiter::game::Game as _;
    /// let start = ChessGame::new(Position::startpos());
    /// let mut game = start.clone();
    /// let e4 = game.parse_engine_move("e2e4").unwrap();
    /// game.play(e4);
    /// let e5 = game.parse_engine_move("e7e5").unwrap();
    /// let pv = arbiter::runner::comments::pv_text(&start, &[e4, e5]);
    /// assert_eq!(CommentFields::none().with(CommentField::Pv).comment(&answer, None, None, &detail, &pv), "pv=\"e2e4 e7e5\"");
    /// ```
    pub fn comment<M>(
        self,
        answer: &PlayerMove<M>,
        time_ms: Option<u64>,
        left_ms: Option<i64>,
        detail: &SearchDetail,
        pv: &str,
    ) -> String {
        let mut head = Vec::new();
        match (self.has(CommentField::Score).then_some(answer.score).flatten(), self.has(CommentField::Depth)) {
            (Some(score), true) => head.push(format!("{score}/{}", answer.depth)),
            (Some(score), false) => head.push(score.to_string()),
            // No score given: the time alone, as cutechess-cli writes it.
            (None, true) if self.has(CommentField::Score) => {}
            (None, true) => head.push(format!("d={}", answer.depth)),
            (None, false) => {}
        }
        if let Some(ms) = time_ms.filter(|_| self.has(CommentField::Time)) {
            head.push(seconds(ms as i64));
        }
        let mut parts = Vec::new();
        if !head.is_empty() {
            parts.push(head.join(" "));
        }
        if let Some(left) = left_ms.filter(|_| self.has(CommentField::Timeleft)) {
            parts.push(format!("tl={}", seconds(left)));
        }
        if self.has(CommentField::Latency)
            && let (Some(measured), Some(reported)) = (time_ms, detail.time_ms)
        {
            parts.push(format!("latency={}", seconds(measured as i64 - reported.min(i64::MAX as u64) as i64)));
        }
        if self.has(CommentField::Nodes) {
            parts.push(format!("n={}", answer.nodes));
        }
        if let Some(sd) = detail.seldepth.filter(|_| self.has(CommentField::Seldepth)) {
            parts.push(format!("sd={sd}"));
        }
        let nps = detail.nps.or_else(|| time_ms.filter(|&ms| ms > 0).map(|ms| answer.nodes.saturating_mul(1000) / ms));
        if let Some(nps) = nps.filter(|_| self.has(CommentField::Nps)) {
            parts.push(format!("nps={nps}"));
        }
        if let Some(hashfull) = detail.hashfull.filter(|_| self.has(CommentField::Hashfull)) {
            parts.push(format!("hashfull={hashfull}"));
        }
        if let Some(tbhits) = detail.tbhits.filter(|_| self.has(CommentField::Tbhits)) {
            parts.push(format!("tbhits={tbhits}"));
        }
        if self.has(CommentField::Pv) && !pv.is_empty() {
            parts.push(format!("pv=\"{pv}\""));
        }
        parts.join(", ")
    }
}

/// The moves `pv` from `before` (the position they start from) in the engine's notation, space-separated.
pub fn pv_text<G: Game>(before: &G, pv: &[G::Move]) -> String {
    let mut line = before.clone();
    let mut words = Vec::with_capacity(pv.len());
    for &m in pv {
        words.push(line.engine_move_text(m));
        if !line.play(m) {
            break;
        }
    }
    words.join(" ")
}

/// Milliseconds as fastchess's `formatTime` writes them: seconds with three decimals (`0.123s`, `-0.004s`).
fn seconds(ms: i64) -> String {
    let sign = if ms < 0 { "-" } else { "" };
    let abs = ms.unsigned_abs();
    format!("{sign}{}.{:03}s", abs / 1000, abs % 1000)
}

impl FromStr for CommentFields {
    type Err = CommentFieldError;

    /// A comma-separated list of field names (`score,depth,time,nodes`); `none` for no field.
    fn from_str(text: &str) -> Result<CommentFields, CommentFieldError> {
        let mut fields = CommentFields::none();
        if text.trim() == "none" {
            return Ok(fields);
        }
        for word in text.split(',').map(str::trim) {
            let field = CommentField::ALL
                .iter()
                .find(|(_, name)| *name == word)
                .ok_or_else(|| CommentFieldError(word.to_string()))?;
            fields = fields.with(field.0);
        }
        Ok(fields)
    }
}

impl fmt::Display for CommentFields {
    /// The comma-separated names, in comment order (`none` for the empty set).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = CommentField::ALL.iter().filter(|(fl, _)| self.has(*fl)).map(|(_, n)| *n).collect();
        if names.is_empty() { f.write_str("none") } else { f.write_str(&names.join(",")) }
    }
}

impl serde::Serialize for CommentFields {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.to_string())
    }
}

impl<'de> serde::Deserialize<'de> for CommentFields {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<CommentFields, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_names_are_refused() {
        let all: CommentFields =
            "score,depth,time,timeleft,latency,nodes,seldepth,nps,hashfull,tbhits,pv".parse().unwrap();
        assert_eq!(all.to_string().parse::<CommentFields>().unwrap(), all);
        assert_eq!(CommentFields::default().to_string(), "score,depth,time");
        assert_eq!("none".parse::<CommentFields>().unwrap().to_string(), "none");
        let error = "score,nodez".parse::<CommentFields>().unwrap_err();
        assert!(error.to_string().contains("\"nodez\""), "{error}");
    }

    #[test]
    fn seconds_as_fastchess_writes_them() {
        assert_eq!(seconds(123), "0.123s");
        assert_eq!(seconds(9_877), "9.877s");
        assert_eq!(seconds(-4), "-0.004s");
    }
}
