//! The loss curve of a tuning run as an SVG chart (`loss.svg`), drawn with plotters' pure-Rust SVG backend.

use crate::svg_chart::{ChartError, Line, LineChart};
use plotters::prelude::{BLUE, RED, SeriesLabelPosition};

/// The size of the chart, in pixels.
const SIZE: (u32, u32) = (900, 500);

/// Draws the training loss (and the validation loss, when given) against epochs, as SVG text; `title` heads
/// the chart. Points with a non-finite loss are left out.
///
/// # Errors
/// [`ChartError`] with plotters' drawing error.
pub fn loss_svg(title: &str, train: &[(u32, f64)], validation: &[(u32, f64)]) -> Result<String, ChartError> {
    let finite = |s: &[(u32, f64)]| -> Vec<(f64, f64)> {
        s.iter().filter(|p| p.1.is_finite()).map(|&(e, l)| (f64::from(e), l)).collect()
    };
    let (train, validation) = (finite(train), finite(validation));
    let all = train.iter().chain(&validation);
    let low = all.clone().map(|p| p.1).fold(f64::INFINITY, f64::min);
    let high = all.clone().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
    let (low, high) = if low.is_finite() && high > low { (low, high) } else { (0.0, 1.0) };
    let pad = 0.05 * (high - low);
    let last = all.map(|p| p.0).fold(1.0, f64::max);
    let mut lines = vec![Line::new(train, BLUE, "training MSE")];
    if !validation.is_empty() {
        lines.push(Line::new(validation, RED, "validation MSE"));
    }
    LineChart {
        size: SIZE,
        caption: title.to_string(),
        x: 0.0..last,
        y: (low - pad)..(high + pad),
        x_desc: "epoch".into(),
        y_desc: "MSE".into(),
        y_decimals: Some(4),
        y_label_area: 70,
        legend: SeriesLabelPosition::UpperRight,
        band: None,
        lines,
    }
    .svg()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_loss_curve_is_an_svg() {
        let train: Vec<(u32, f64)> = (1..=50).map(|e| (e, 0.1 / f64::from(e))).collect();
        let validation: Vec<(u32, f64)> = (1..=50).map(|e| (e, 0.11 / f64::from(e))).collect();
        let svg = loss_svg("test", &train, &validation).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("validation MSE"));
        assert!(loss_svg("empty", &[], &[]).unwrap().starts_with("<svg"));
        assert!(loss_svg("nan", &[(1, f64::NAN)], &[]).is_ok());
    }
}
