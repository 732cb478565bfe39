//! Line charts as SVG text, drawn with plotters' pure-Rust SVG backend: the one set-up (caption, mesh, series,
//! legend) behind every chart Arbiter draws — a match's `llr.svg` and `elo.svg` ([`crate::runner::report::charts`])
//! and a tuning run's `loss.svg` ([`crate::tune::chart`]).

use plotters::prelude::*;
use std::ops::Range;

/// One line of a chart.
#[derive(Clone, Debug)]
pub struct Line {
    /// The points, `(x, y)` in axis units, drawn in order.
    pub points: Vec<(f64, f64)>,
    /// The colour.
    pub color: RGBColor,
    /// Drawn faint (30% opacity, thin) instead of solid and 2 px wide: for a reference line such as zero.
    pub faint: bool,
    /// The legend entry; `None` keeps the line out of the legend.
    pub label: Option<String>,
}

impl Line {
    /// A solid, labelled line.
    pub fn new(points: Vec<(f64, f64)>, color: RGBColor, label: impl Into<String>) -> Line {
        Line { points, color, faint: false, label: Some(label.into()) }
    }

    /// A faint horizontal reference line at `y` across `x`, without a legend entry.
    pub fn reference(x: &Range<f64>, y: f64) -> Line {
        Line { points: vec![(x.start, y), (x.end, y)], color: BLACK, faint: true, label: None }
    }
}

/// A filled band (for an interval around a line): the polygon through `points`, with its legend entry.
#[derive(Clone, Debug)]
pub struct Band {
    /// The polygon's corners, `(x, y)` in axis units: the upper edge left to right, then the lower edge back.
    pub points: Vec<(f64, f64)>,
    /// The colour (drawn at 20% opacity).
    pub color: RGBColor,
    /// The legend entry.
    pub label: String,
}

/// What a chart shows: size in pixels, caption, axis ranges and descriptions, label formats, the band (drawn
/// first) and the lines, and where the legend goes.
#[derive(Clone, Debug)]
pub struct LineChart {
    /// Width and height, in pixels.
    pub size: (u32, u32),
    /// The caption above the chart.
    pub caption: String,
    /// The x range.
    pub x: Range<f64>,
    /// The y range.
    pub y: Range<f64>,
    /// The x axis description.
    pub x_desc: String,
    /// The y axis description.
    pub y_desc: String,
    /// Decimals of the y axis labels; `None`: plotters' default format.
    pub y_decimals: Option<usize>,
    /// Width of the y label area, in pixels.
    pub y_label_area: u32,
    /// Where the legend goes.
    pub legend: SeriesLabelPosition,
    /// A filled band under the lines.
    pub band: Option<Band>,
    /// The lines, drawn in order.
    pub lines: Vec<Line>,
}

/// Why a chart could not be drawn: plotters' drawing error, in its words (the error type is generic over the
/// backend, so only its text is kept).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ChartError {
    /// plotters' message.
    pub message: String,
}

impl LineChart {
    /// Draws the chart as SVG text (x labels without decimals; a legend box when some line or the band has a
    /// label).
    ///
    /// # Errors
    /// [`ChartError`] with plotters' drawing error.
    pub fn svg(&self) -> Result<String, ChartError> {
        let text = |e: &dyn std::fmt::Display| ChartError { message: e.to_string() };
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, self.size).into_drawing_area();
            root.fill(&WHITE).map_err(|e| text(&e))?;
            let mut chart = ChartBuilder::on(&root)
                .caption(&self.caption, ("sans-serif", 18))
                .margin(12)
                .x_label_area_size(40)
                .y_label_area_size(self.y_label_area)
                .build_cartesian_2d(self.x.clone(), self.y.clone())
                .map_err(|e| text(&e))?;
            let y_format = |y: &f64| match self.y_decimals {
                Some(decimals) => format!("{y:.decimals$}"),
                None => format!("{y}"),
            };
            let mut mesh = chart.configure_mesh();
            mesh.x_desc(&self.x_desc).y_desc(&self.y_desc).x_label_formatter(&|x| format!("{x:.0}"));
            if self.y_decimals.is_some() {
                mesh.y_label_formatter(&y_format);
            }
            mesh.draw().map_err(|e| text(&e))?;
            if let Some(band) = &self.band {
                let fill = band.color.mix(0.2).filled();
                chart
                    .draw_series(std::iter::once(Polygon::new(band.points.clone(), fill)))
                    .map_err(|e| text(&e))?
                    .label(&band.label)
                    .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 20, y + 5)], fill));
            }
            for line in &self.lines {
                let style = if line.faint { line.color.mix(0.3).stroke_width(1) } else { line.color.stroke_width(2) };
                let drawn = chart.draw_series(LineSeries::new(line.points.clone(), style)).map_err(|e| text(&e))?;
                if let Some(label) = &line.label {
                    drawn.label(label).legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], style));
                }
            }
            if self.band.is_some() || self.lines.iter().any(|l| l.label.is_some()) {
                chart
                    .configure_series_labels()
                    .position(self.legend.clone())
                    .background_style(WHITE.mix(0.8))
                    .border_style(BLACK)
                    .draw()
                    .map_err(|e| text(&e))?;
            }
            root.present().map_err(|e| text(&e))?;
        }
        Ok(svg)
    }
}
