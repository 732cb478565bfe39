//! The serde encodings of the plan's enums by name (`chess`, `random`, `normalized`, `2/4`), as `run.toml`
//! writes them.

/// Writes an enum by its name and reads it back through `parse`.
fn named<E: serde::de::Error>(text: &str, names: &[&str], parse: impl Fn(&str) -> Option<usize>) -> Result<usize, E> {
    parse(text).ok_or_else(|| E::custom(format!("unknown value {text:?}, expected one of: {}", names.join(", "))))
}

/// [`GameKind`] by its name (`chess`, `xiangqi`, `russian`, `english`).
pub(super) mod game_name {
    use crate::games::GameKind;
    use serde::{Deserialize, Deserializer, Serializer};

    const ALL: [GameKind; 4] = [GameKind::Chess, GameKind::Xiangqi, GameKind::Russian, GameKind::English];

    pub(in crate::runner::plan) fn serialize<S: Serializer>(
        value: &GameKind,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(value.name())
    }

    pub(in crate::runner::plan) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<GameKind, D::Error> {
        let text = String::deserialize(deserializer)?;
        let names = ALL.map(GameKind::name);
        Ok(ALL[super::named(&text, &names, |t| names.iter().position(|n| *n == t))?])
    }
}

/// [`Variant`] by its name (`standard`, `chess960`).
pub(super) mod variant_name {
    use crate::chess::Variant;
    use serde::{Deserialize, Deserializer, Serializer};

    const ALL: [Variant; 2] = [Variant::Standard, Variant::Chess960];

    pub(in crate::runner::plan) fn serialize<S: Serializer>(value: &Variant, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(value.name())
    }

    pub(in crate::runner::plan) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Variant, D::Error> {
        let text = String::deserialize(deserializer)?;
        let names = ALL.map(Variant::name);
        Ok(ALL[super::named(&text, &names, |t| names.iter().position(|n| *n == t))?])
    }
}

/// [`OpeningOrder`] by its name (`sequential`, `random`).
pub(super) mod order_name {
    use crate::runner::openings::OpeningOrder;
    use serde::{Deserialize, Deserializer, Serializer};

    const ALL: [OpeningOrder; 2] = [OpeningOrder::Sequential, OpeningOrder::Random];

    pub(in crate::runner::plan) fn serialize<S: Serializer>(
        value: &OpeningOrder,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(value.name())
    }

    pub(in crate::runner::plan) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<OpeningOrder, D::Error> {
        let text = String::deserialize(deserializer)?;
        let names = ALL.map(OpeningOrder::name);
        Ok(ALL[super::named(&text, &names, |t| names.iter().position(|n| *n == t))?])
    }
}

/// An optional [`OpeningFormat`] by its name (`epd`, `pgn`).
pub(super) mod format_name {
    use crate::game::opening::OpeningFormat;
    use serde::{Deserialize, Deserializer, Serializer};

    const ALL: [(OpeningFormat, &str); 3] =
        [(OpeningFormat::Epd, "epd"), (OpeningFormat::Pgn, "pgn"), (OpeningFormat::Polyglot, "polyglot")];

    pub(in crate::runner::plan) fn serialize<S: Serializer>(
        value: &Option<OpeningFormat>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        match value.and_then(|f| ALL.iter().find(|(g, _)| *g == f)) {
            Some((_, name)) => serializer.serialize_str(name),
            None => serializer.serialize_none(),
        }
    }

    pub(in crate::runner::plan) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<OpeningFormat>, D::Error> {
        let Some(text) = Option::<String>::deserialize(deserializer)? else { return Ok(None) };
        let names = ALL.map(|(_, n)| n);
        Ok(Some(ALL[super::named(&text, &names, |t| names.iter().position(|n| *n == t))?].0))
    }
}

/// [`EloModel`] by its name (`normalized`, `logistic`, `bayeselo`).
pub(super) mod model_name {
    use crate::stats::EloModel;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(in crate::runner::plan) fn serialize<S: Serializer>(
        value: &EloModel,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(value.name())
    }

    pub(in crate::runner::plan) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<EloModel, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// An optional [`Shard`] as `I/N`.
pub(super) mod shard_text {
    use crate::runner::scheduler::Shard;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(in crate::runner::plan) fn serialize<S: Serializer>(
        value: &Option<Shard>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        match value {
            Some(shard) => serializer.serialize_str(&shard.to_string()),
            None => serializer.serialize_none(),
        }
    }

    pub(in crate::runner::plan) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<Shard>, D::Error> {
        let Some(text) = Option::<String>::deserialize(deserializer)? else { return Ok(None) };
        text.parse().map(Some).map_err(serde::de::Error::custom)
    }
}
