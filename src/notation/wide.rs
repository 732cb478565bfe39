//! A `u64` written as a TOML integer when it fits one (TOML integers are 64-bit signed), else as its decimal
//! text; read from either. Used as `#[serde(with = "crate::notation::wide")]`.

use serde::{Deserialize, Deserializer, Serializer};

#[derive(Deserialize)]
#[serde(untagged)]
pub(crate) enum Wide {
    Int(u64),
    Text(String),
}

impl Wide {
    pub(crate) fn value<E: serde::de::Error>(self) -> Result<u64, E> {
        match self {
            Wide::Int(n) => Ok(n),
            Wide::Text(text) => text.parse().map_err(|_| E::custom(format!("expected a whole number, got {text:?}"))),
        }
    }
}

pub(crate) fn serialize<S: Serializer>(value: &u64, serializer: S) -> Result<S::Ok, S::Error> {
    match i64::try_from(*value) {
        Ok(n) => serializer.serialize_i64(n),
        Err(_) => serializer.serialize_str(&value.to_string()),
    }
}

pub(crate) fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u64, D::Error> {
    Wide::deserialize(deserializer)?.value()
}

/// [`self`] for an optional value: `#[serde(with = "crate::notation::wide::option")]`.
pub(crate) mod option {
    use serde::{Deserialize, Deserializer, Serializer};

    pub(crate) fn serialize<S: Serializer>(value: &Option<u64>, serializer: S) -> Result<S::Ok, S::Error> {
        match value {
            Some(n) => super::serialize(n, serializer),
            None => serializer.serialize_none(),
        }
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<u64>, D::Error> {
        Option::<super::Wide>::deserialize(deserializer)?.map(super::Wide::value).transpose()
    }
}
