//! The evaluation's term table: one position's evaluation with every term's contribution (feature value, mg and
//! eg weights, tapered contribution) and the phase; `arbiter eval` prints it.

use super::eval::{MAX_PHASE, phase, taper};
use super::{evaluate, features};
use crate::chess::{Color, Position};

/// The term table: the evaluation (side to move and White's view), the phase, and one table row per
/// non-zero feature (features with value 0 contribute nothing and are left out) with its value, effective mg
/// and eg weights and its tapered contribution (centipawns, White's view; the rows' sum may differ from the
/// total by the rounding of each row's division by 24). Square-table rows name their square from White's
/// view.
pub fn report(pos: &Position, weights: &crate::engine::chess::Weights, name: &str) -> String {
    let score = evaluate(pos, weights);
    let white = if pos.side_to_move() == Color::White { score } else { score.saturating_neg() };
    let side = if pos.side_to_move() == Color::White { "White" } else { "Black" };
    let ph = phase(pos);
    let f = features(pos).to_vec();
    let (mg, eg) = (weights.mg_vec(), weights.eg_vec());
    let mut out = String::new();
    out.push_str(&format!("config: {name}\n"));
    out.push_str(&format!("eval: {score} cp ({side} to move), {white} cp (White's view)\n"));
    out.push_str(&format!("phase: {ph}/{MAX_PHASE} (mg share {ph}/24, eg share {}/24)\n", MAX_PHASE - ph));
    out.push_str(&format!("{:<24} {:>6} {:>7} {:>7} {:>9}\n", "term", "value", "mg", "eg", "tapered"));
    let mut rows = 0i64;
    for (i, term) in crate::engine::chess::Weights::feature_names().iter().enumerate() {
        if f[i] == 0 {
            continue;
        }
        let (m, e) = (i64::from(mg[i]) * i64::from(f[i]), i64::from(eg[i]) * i64::from(f[i]));
        let contribution = taper(ph, m, e);
        let term = match term.strip_prefix("psqt_").and_then(|t| t.split_once('[')) {
            Some((_, sq)) => {
                let sq: usize = sq.trim_end_matches(']').parse().expect("a square index");
                format!("{term} {}{}", (b'a' + (sq % 8) as u8) as char, sq / 8 + 1)
            }
            None => term.clone(),
        };
        out.push_str(&format!("{term:<24} {:>6} {:>7} {:>7} {contribution:>9}\n", f[i], mg[i], eg[i]));
        rows += i64::from(contribution);
    }
    out.push_str(&format!("{:<24} {:>6} {:>7} {:>7} {rows:>9}\n", "sum of rows", "", "", ""));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn report_shows_score_phase_and_terms() {
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 b - - 0 1").unwrap();
        let text = report(&pos, &crate::engine::chess::Weights::seed(), "seed");
        assert!(text.contains("eval: -693 cp (Black to move), 693 cp (White's view)"), "{text}");
        assert!(text.contains("phase: 2/24"), "{text}");
        assert!(text.contains("psqt_rook[0] a1"), "{text}");
        assert!(text.lines().any(|l| l.starts_with("material[3]") && l.ends_with(" 563")), "{text}");
    }
}
