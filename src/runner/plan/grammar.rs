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
    let mut kv = KeyValues::parse("sprt", text, &["elo0", "elo1", "alpha", "beta", "model"])?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::EloModel;

    #[test]
    fn sprt_bounds_are_checked() {
        for (text, key) in [
            ("elo0=5,elo1=5", "elo1"),
            ("elo0=10,elo1=0", "elo1"),
            ("elo0=0,elo1=inf", "elo1"),
            ("elo0=-2001,elo1=5", "elo0"),
            ("elo0=0,elo1=1e9,model=logistic", "elo1"),
            ("elo0=0,elo1=5,alpha=0", "alpha"),
            ("elo0=0,elo1=5,beta=1", "beta"),
            ("elo0=0,elo1=5,alpha=-0.1", "alpha"),
            ("elo0=0,elo1=5,alpha=0.6,beta=0.4", "beta"),
            ("elo0=0,elo1=5,alpha=nan", "alpha"),
        ] {
            let err = parse_sprt(text).unwrap_err();
            assert!(
                matches!(&err, KeyValueError::BadValue { option, key: k, .. } | KeyValueError::Invalid { option, key: k, .. }
                    if option == "sprt" && k == key),
                "{text}: {err}"
            );
        }
        assert!(parse_sprt("elo0=-2000,elo1=2000,alpha=0.49,beta=0.5").is_ok());
    }

    #[test]
    fn sprt_values() {
        let sprt = parse_sprt("elo0=0,elo1=10").unwrap();
        assert_eq!((sprt.elo0(), sprt.elo1(), sprt.alpha(), sprt.beta()), (0.0, 10.0, 0.05, 0.05));
        assert_eq!(sprt.model(), EloModel::Normalized);
        let sprt = parse_sprt("elo0=-1.5,elo1=3,alpha=0.1,beta=0.2,model=logistic").unwrap();
        assert_eq!((sprt.elo0(), sprt.alpha(), sprt.beta(), sprt.model()), (-1.5, 0.1, 0.2, EloModel::Logistic));
        let err = parse_sprt("elo0=0").unwrap_err().to_string();
        assert_eq!(err, "sprt: missing key `elo1`");
        let err = parse_sprt("elo0=0,elo1=5,alpha=1.5").unwrap_err().to_string();
        assert!(err.contains("alpha=\"1.5\""), "{err}");
        let err = parse_sprt("elo0=0,elo1=5,model=bayes").unwrap_err().to_string();
        assert!(err.contains("model=\"bayes\""), "{err}");
        assert!(parse_sprt("elo0=nan,elo1=5").is_err());
    }
}
