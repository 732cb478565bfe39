//! The text grammar of the plan's key=value values: `--sprt` and the adjudication rules `--draw` and
//! `--resign`.

use crate::notation::kv::{KeyValueError, KeyValues};
use crate::runner::adjudication::{AdjudicationRules, DrawAdjudication, ResignAdjudication};
use crate::stats::{EloModel, SprtSpec};

/// Parses an `--sprt` value: `elo0=E0,elo1=E1[,alpha=A][,beta=B][,model=normalized|logistic|bayeselo]`, with
/// alpha = beta = 0.05 and the normalized model by default. The ranges are [`SprtSpec::new`]'s, the one check
/// `arbiter sprt` shares.
///
/// # Errors
/// A [`KeyValueError`] naming `--sprt` and the key: a value that is not a number or a model, or
/// ([`KeyValueError::Invalid`]) one that [`SprtSpec::new`] refuses, with its reason.
pub fn parse_sprt(text: &str) -> Result<SprtSpec, KeyValueError> {
    const PROBABILITY: &str = "a probability strictly between 0 and 1";
    let mut kv = KeyValues::parse("--sprt", text, &["elo0", "elo1", "alpha", "beta", "model"])?;
    let elo0: f64 = kv.require("elo0", "a number (Elo)")?;
    let elo1: f64 = kv.require("elo1", "a number (Elo)")?;
    let alpha: f64 = kv.take("alpha", PROBABILITY)?.unwrap_or(0.05);
    let beta: f64 = kv.take("beta", PROBABILITY)?.unwrap_or(0.05);
    let model: EloModel = kv.take("model", "normalized, logistic or bayeselo")?.unwrap_or(EloModel::Normalized);
    SprtSpec::new(elo0, elo1, alpha, beta, model)
        .map_err(|error| kv.invalid(error.parameter().unwrap_or("elo0"), &error.to_string()))
}

/// Parses `--draw` and `--resign` values and a `--maxmoves` count into adjudication rules.
///
/// # Errors
/// A [`KeyValueError`] naming the flag and key.
pub fn parse_adjudication(
    draw: Option<&str>,
    resign: Option<&str>,
    maxmoves: Option<u32>,
) -> Result<AdjudicationRules, KeyValueError> {
    Ok(AdjudicationRules {
        draw: draw.map(DrawAdjudication::parse).transpose()?,
        resign: resign.map(ResignAdjudication::parse).transpose()?,
        maxmoves,
    })
}
