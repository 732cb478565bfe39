//! Why a player gave no move: [`PlayerError`], the typed failures of built-in and external players.

use thiserror::Error;

/// Why a player gave no move. The side whose player fails loses the game; the match goes on.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PlayerError {
    /// The player crashed (the built-in engine panicked; an external engine process died).
    #[error("{player}: crashed: {reason}")]
    Crashed {
        /// The player's name.
        player: String,
        /// What happened.
        reason: String,
    },
    /// The player did not answer in time: no `bestmove` after `stop`, or no `readyok` to `isready`.
    #[error("{player}: stalled: {reason}")]
    Stalled {
        /// The player's name.
        player: String,
        /// What happened, with the engine's last lines.
        reason: String,
    },
    /// The player's move text is not a move of the position (not UCI move text, or `0000`/`(none)` where
    /// moves exist).
    #[error("{player}: unparsable move {}: {reason}", crate::notation::quote::shown(.text))]
    BadMove {
        /// The player's name.
        player: String,
        /// The text sent.
        text: String,
        /// Why it is not a move.
        reason: String,
    },
    /// The player printed more than the runner reads: a line over
    /// [`MAX_LINE_BYTES`](crate::uci::process::MAX_LINE_BYTES), or over
    /// [`MAX_REPLY_BYTES`](crate::uci::process::MAX_REPLY_BYTES) for one reply.
    #[error("{player}: output flood: {reason}")]
    Flooded {
        /// The player's name.
        player: String,
        /// What was too much, with the engine's last lines.
        reason: String,
    },
    /// An external engine was given an `option.NAME` that it does not list among its `option name ...` lines
    /// (compared without regard to ASCII case, as UCI compares names), and unknown options are not allowed
    /// ([`UciEngine::allow_unknown_options`](crate::player::UciEngine::allow_unknown_options)).
    #[error("{player}: the engine does not list the option {option:?}{}", suggestion_text(.suggestions))]
    UnknownOption {
        /// The player's name.
        player: String,
        /// The option as given.
        option: String,
        /// The closest names the engine lists, closest first (see
        /// [`closest_options`](crate::player::uci::closest_options)); empty when none is close.
        suggestions: Vec<String>,
    },
    /// The player could not be started or prepared for a game.
    #[error("{player}: cannot start: {reason}")]
    Start {
        /// The player's name.
        player: String,
        /// What happened.
        reason: String,
    },
}

/// ` (did you mean "A" or "B"?)` for the suggested option names, nothing for none.
fn suggestion_text(suggestions: &[String]) -> String {
    let quoted: Vec<String> = suggestions.iter().map(|name| format!("{name:?}")).collect();
    match quoted.as_slice() {
        [] => String::new(),
        [one] => format!(" (did you mean {one}?)"),
        [rest @ .., last] => format!(" (did you mean {} or {last}?)", rest.join(", ")),
    }
}

/// The message of a caught panic (`panic!` with a literal or a formatted message); `None` for other payloads.
pub(crate) fn panic_text(payload: &(dyn std::any::Any + Send)) -> Option<String> {
    payload.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| payload.downcast_ref::<String>().cloned())
}
