//! Line charts fit for a paper's column: one colour per variant (Okabe-Ito, readable by
//! colour-blind readers and in grey), solid and dashed lines for two views of the same
//! variant, a shaded 95 % confidence band where replications give one, distributions drawn
//! as steps (a CDF never ramps through values nothing took), log axes where the data span
//! decades, and the legend below the plot so that it never hides data. [`DotChart`] is the
//! same for per-item values (benchmarks): a dot per item with its spread, no bars.

use plotters::coord::ranged1d::{Ranged, ValueFormatter};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;

/// Column width in pixels (the SVG scales; fonts are sized for this width).
pub const WIDTH: u32 = 480;
const PLOT_HEIGHT: u32 = 330;
const LEGEND_ROW: u32 = 20;
const FONT: &str = "sans-serif";

/// Okabe-Ito, black first (the baseline variant).
pub const COLOURS: [RGBColor; 8] = [
    RGBColor(0, 0, 0),
    RGBColor(213, 94, 0),
    RGBColor(0, 114, 178),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
    RGBColor(120, 120, 120),
];

/// The colour of variant `i`.
pub fn colour(i: usize) -> RGBColor {
    COLOURS[i % COLOURS.len()]
}

/// An axis scale.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scale {
    Linear,
    Log,
}

impl Scale {
    /// Log when the positive values span more than two decades, else linear.
    pub fn for_values(values: impl IntoIterator<Item = f64>) -> Scale {
        let (lo, hi) = values
            .into_iter()
            .filter(|v| v.is_finite() && *v > 0.0)
            .fold((f64::INFINITY, 0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
        if hi > 0.0 && hi / lo > 100.0 {
            Scale::Log
        } else {
            Scale::Linear
        }
    }
}

/// One line of a chart.
#[derive(Debug, Clone, Default)]
pub struct Line {
    pub label: String,
    /// Index into [`COLOURS`]: lines of one variant share it.
    pub colour: usize,
    pub dashed: bool,
    /// Draw a marker at each point (sparse data: the points are the measurements).
    pub markers: bool,
    pub points: Vec<(f64, f64)>,
    /// (x, low, high) of a 95 % confidence band; empty for none.
    pub band: Vec<(f64, f64, f64)>,
}

/// A line chart.
#[derive(Debug, Clone)]
pub struct LineChart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub x_scale: Scale,
    pub y_scale: Scale,
    /// Fixed y range (e.g. 0-1 for ratios); None: from the data.
    pub y_range: Option<(f64, f64)>,
    pub lines: Vec<Line>,
    /// One line of text under the legend (what the band is, where data come from).
    pub note: Option<String>,
}

/// A chart that could not be drawn.
#[derive(Debug, thiserror::Error)]
#[error("cannot draw chart: {0}")]
pub struct PlotError(String);

fn err<E: std::fmt::Display>(e: E) -> PlotError {
    PlotError(e.to_string())
}

/// A distribution's cumulative points (x, fraction at or below x), in increasing x, as a
/// staircase starting at (`x0`, `y0`): the value holds until the next point, then jumps.
pub fn steps(x0: f64, y0: f64, cumulative: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let mut out = vec![(x0, y0)];
    let mut y = y0;
    for &(x, v) in cumulative {
        out.push((x, y));
        out.push((x, v));
        y = v;
    }
    out
}

/// The range of `values` on `scale`, with a margin; log ranges keep positive values only.
fn range(values: impl Iterator<Item = f64>, scale: Scale) -> (f64, f64) {
    let v: Vec<f64> = values
        .filter(|v| v.is_finite() && (scale == Scale::Linear || *v > 0.0))
        .collect();
    let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !lo.is_finite() || !hi.is_finite() {
        return if scale == Scale::Log { (0.1, 10.0) } else { (0.0, 1.0) };
    }
    match scale {
        Scale::Log => (lo / 1.5, hi * 1.5),
        Scale::Linear => {
            let lo = if lo >= 0.0 { 0.0 } else { lo * 1.05 };
            let hi = if hi <= lo { lo + 1.0 } else { hi * 1.05 };
            (lo, hi)
        }
    }
}

/// A tick label without trailing zeros.
fn tick(v: f64) -> String {
    if v == 0.0 {
        return "0".into();
    }
    let a = v.abs();
    if !(1e-3..1e4).contains(&a) {
        return format!("{v:.0e}");
    }
    let s = format!("{v:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

impl LineChart {
    /// The chart as an SVG document.
    pub fn render(&self) -> Result<String, PlotError> {
        let xs = || self.lines.iter().flat_map(|l| l.points.iter().map(|p| p.0));
        let ys = || {
            self.lines.iter().flat_map(|l| {
                l.points
                    .iter()
                    .map(|p| p.1)
                    .chain(l.band.iter().flat_map(|b| [b.1, b.2]))
            })
        };
        let (x0, x1) = range(xs(), self.x_scale);
        let (y0, y1) = self.y_range.unwrap_or_else(|| range(ys(), self.y_scale));
        let rows = self.lines.len() as u32 + u32::from(self.note.is_some());
        let height = PLOT_HEIGHT + 50 + rows * LEGEND_ROW + 10;
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
            root.fill(&WHITE).map_err(err)?;
            let (plot, legend) = root.split_vertically(PLOT_HEIGHT + 50);
            let mut builder = ChartBuilder::on(&plot);
            builder
                .caption(&self.title, (FONT, 16))
                .margin(10)
                .x_label_area_size(44)
                .y_label_area_size(58);
            match (self.x_scale, self.y_scale) {
                (Scale::Linear, Scale::Linear) => {
                    self.draw(builder.build_cartesian_2d(x0..x1, y0..y1).map_err(err)?, y0)?
                }
                (Scale::Log, Scale::Linear) => self.draw(
                    builder.build_cartesian_2d((x0..x1).log_scale(), y0..y1).map_err(err)?,
                    y0,
                )?,
                (Scale::Linear, Scale::Log) => self.draw(
                    builder.build_cartesian_2d(x0..x1, (y0..y1).log_scale()).map_err(err)?,
                    y0,
                )?,
                (Scale::Log, Scale::Log) => self.draw(
                    builder
                        .build_cartesian_2d((x0..x1).log_scale(), (y0..y1).log_scale())
                        .map_err(err)?,
                    y0,
                )?,
            }
            self.legend(&legend)?;
            root.present().map_err(err)?;
        }
        Ok(svg)
    }

    fn draw<X, Y>(
        &self,
        mut chart: ChartContext<'_, SVGBackend<'_>, Cartesian2d<X, Y>>,
        y_floor: f64,
    ) -> Result<(), PlotError>
    where
        X: Ranged<ValueType = f64> + ValueFormatter<f64>,
        Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
    {
        let log = |s: Scale, label: &str| match s {
            Scale::Log => format!("{label} (log scale)"),
            Scale::Linear => label.to_string(),
        };
        chart
            .configure_mesh()
            .x_desc(log(self.x_scale, &self.x_label))
            .y_desc(log(self.y_scale, &self.y_label))
            .x_label_formatter(&|v| tick(*v))
            .y_label_formatter(&|v| tick(*v))
            .axis_desc_style((FONT, 15))
            .label_style((FONT, 12))
            .bold_line_style(RGBColor(225, 225, 225))
            .light_line_style(WHITE)
            .draw()
            .map_err(err)?;
        let keep = |x: f64, y: f64| {
            x.is_finite()
                && y.is_finite()
                && (self.x_scale == Scale::Linear || x > 0.0)
                && (self.y_scale == Scale::Linear || y > 0.0)
        };
        // Bands first, so that every line is drawn over every band.
        for l in &self.lines {
            let band: Vec<(f64, f64, f64)> = l
                .band
                .iter()
                .copied()
                .filter(|b| keep(b.0, b.2) && b.1.is_finite())
                .map(|(x, lo, hi)| {
                    (
                        x,
                        if self.y_scale == Scale::Log {
                            lo.max(y_floor)
                        } else {
                            lo
                        },
                        hi,
                    )
                })
                .collect();
            if band.len() >= 2 {
                let outline: Vec<(f64, f64)> = band
                    .iter()
                    .map(|b| (b.0, b.2))
                    .chain(band.iter().rev().map(|b| (b.0, b.1)))
                    .collect();
                chart
                    .draw_series(std::iter::once(Polygon::new(
                        outline,
                        colour(l.colour).mix(0.18).filled(),
                    )))
                    .map_err(err)?;
            }
        }
        for l in &self.lines {
            let c = colour(l.colour);
            let pts: Vec<(f64, f64)> = l.points.iter().copied().filter(|p| keep(p.0, p.1)).collect();
            if l.dashed {
                chart
                    .draw_series(DashedLineSeries::new(pts.clone(), 7, 4, c.stroke_width(2)))
                    .map_err(err)?;
            } else {
                chart
                    .draw_series(LineSeries::new(pts.clone(), c.stroke_width(2)))
                    .map_err(err)?;
            }
            if l.markers {
                chart
                    .draw_series(pts.iter().map(|p| Circle::new(*p, 3, c.filled())))
                    .map_err(err)?;
            }
        }
        Ok(())
    }

    fn legend(&self, area: &DrawingArea<SVGBackend<'_>, Shift>) -> Result<(), PlotError> {
        legend_rows(area, &self.lines, self.note.as_deref(), false)
    }
}

/// The legend below a plot: a sample (a line, or a dot for dot charts, with the band's
/// shade where the line has one) and the label, one row each, then the note.
fn legend_rows(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    lines: &[Line],
    note: Option<&str>,
    dots: bool,
) -> Result<(), PlotError> {
    for (i, l) in lines.iter().enumerate() {
        let c = colour(l.colour);
        let y = 12 + (i as u32 * LEGEND_ROW) as i32;
        let sample = vec![(60, y), (92, y)];
        if dots {
            area.draw(&Circle::new((76, y), 4, c.filled())).map_err(err)?;
        } else if l.dashed {
            area.draw(&DashedPathElement::new(sample, 7, 4, c.stroke_width(2)))
                .map_err(err)?;
        } else {
            area.draw(&PathElement::new(sample, c.stroke_width(2))).map_err(err)?;
        }
        if !l.band.is_empty() {
            area.draw(&Rectangle::new([(60, y - 6), (92, y + 6)], c.mix(0.18).filled()))
                .map_err(err)?;
        }
        area.draw(&Text::new(l.label.clone(), (102, y - 7), (FONT, 13)))
            .map_err(err)?;
    }
    if let Some(note) = note {
        let y = 12 + (lines.len() as u32 * LEGEND_ROW) as i32;
        area.draw(&Text::new(note.to_string(), (60, y - 7), (FONT, 12)))
            .map_err(err)?;
    }
    Ok(())
}

/// One row of a dot chart: a value (dot) and an optional spread (whisker).
#[derive(Debug, Clone)]
pub struct Dot {
    pub label: String,
    /// Index into [`COLOURS`] and into [`DotChart::groups`].
    pub group: usize,
    pub value: f64,
    /// (low, high) drawn as a line through the dot; None for none.
    pub spread: Option<(f64, f64)>,
}

/// A dot chart (a row per item, labels on the left): what bar charts show, without bars
/// whose length means nothing on a log axis, and with each value's spread.
#[derive(Debug, Clone)]
pub struct DotChart {
    pub title: String,
    pub x_label: String,
    pub x_scale: Scale,
    pub dots: Vec<Dot>,
    /// Legend names of the groups (colours), in group order.
    pub groups: Vec<String>,
    pub note: Option<String>,
}

const DOT_ROW: u32 = 17;

impl DotChart {
    /// The chart as an SVG document.
    pub fn render(&self) -> Result<String, PlotError> {
        let n = self.dots.len().max(1);
        let label_chars = self.dots.iter().map(|d| d.label.chars().count()).max().unwrap_or(8);
        let label_area = (label_chars as u32 * 7 + 16).clamp(60, 360);
        let width = WIDTH.max(label_area + 320);
        let plot_height = (80 + DOT_ROW * n as u32).max(170);
        let rows = self.groups.len() as u32 + u32::from(self.note.is_some());
        let height = plot_height + rows * LEGEND_ROW + 14;
        let values = self
            .dots
            .iter()
            .flat_map(|d| [Some(d.value), d.spread.map(|s| s.0), d.spread.map(|s| s.1)])
            .flatten();
        let (x0, x1) = range(values, self.x_scale);
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
            root.fill(&WHITE).map_err(err)?;
            let (plot, legend) = root.split_vertically(plot_height);
            if self.dots.is_empty() {
                plot.draw(&Text::new(
                    format!("{}: nothing measured", self.title),
                    (20, 30),
                    (FONT, 15),
                ))
                .map_err(err)?;
            } else {
                let mut builder = ChartBuilder::on(&plot);
                builder
                    .caption(&self.title, (FONT, 16))
                    .margin(10)
                    .x_label_area_size(40)
                    .y_label_area_size(label_area);
                let y = -0.5..(n as f64 - 0.5);
                match self.x_scale {
                    Scale::Linear => self.draw(builder.build_cartesian_2d(x0..x1, y).map_err(err)?)?,
                    Scale::Log => self.draw(builder.build_cartesian_2d((x0..x1).log_scale(), y).map_err(err)?)?,
                }
            }
            let entries: Vec<Line> = self
                .groups
                .iter()
                .enumerate()
                .map(|(i, g)| Line {
                    label: g.clone(),
                    colour: i,
                    ..Line::default()
                })
                .collect();
            legend_rows(&legend, &entries, self.note.as_deref(), true)?;
            root.present().map_err(err)?;
        }
        Ok(svg)
    }

    fn draw<X>(
        &self,
        mut chart: ChartContext<'_, SVGBackend<'_>, Cartesian2d<X, RangedCoordf64>>,
    ) -> Result<(), PlotError>
    where
        X: Ranged<ValueType = f64> + ValueFormatter<f64>,
    {
        let n = self.dots.len();
        // Row 0 at the top: the first item is read first.
        let row = |i: usize| (n - 1 - i) as f64;
        let labels: Vec<&str> = self.dots.iter().map(|d| d.label.as_str()).collect();
        let y_fmt = |v: &f64| {
            let i = v.round();
            if (v - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < n {
                labels[n - 1 - i as usize].to_string()
            } else {
                String::new()
            }
        };
        let x_desc = match self.x_scale {
            Scale::Log => format!("{} (log scale)", self.x_label),
            Scale::Linear => self.x_label.clone(),
        };
        chart
            .configure_mesh()
            .x_desc(x_desc)
            .y_labels(n)
            .y_label_formatter(&y_fmt)
            .x_label_formatter(&|v| tick(*v))
            .disable_y_mesh()
            .axis_desc_style((FONT, 14))
            .label_style((FONT, 11))
            .bold_line_style(RGBColor(225, 225, 225))
            .light_line_style(WHITE)
            .draw()
            .map_err(err)?;
        let ok = |x: f64| x.is_finite() && (self.x_scale == Scale::Linear || x > 0.0);
        for (i, d) in self.dots.iter().enumerate() {
            let c = colour(d.group);
            let y = row(i);
            if let Some((lo, hi)) = d.spread.filter(|s| ok(s.0) && ok(s.1)) {
                chart
                    .draw_series(std::iter::once(PathElement::new(
                        vec![(lo, y), (hi, y)],
                        c.stroke_width(2),
                    )))
                    .map_err(err)?;
            }
            if ok(d.value) {
                chart
                    .draw_series(std::iter::once(Circle::new((d.value, y), 4, c.filled())))
                    .map_err(err)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cdf_is_a_staircase_not_a_ramp() {
        // Nothing verified before 100 ms: the curve stays at 0 until x = 100.
        let s = steps(0.0, 0.0, &[(100.0, 0.4), (150.0, 1.0)]);
        assert_eq!(
            s,
            vec![(0.0, 0.0), (100.0, 0.0), (100.0, 0.4), (150.0, 0.4), (150.0, 1.0)]
        );
    }

    #[test]
    fn log_scale_only_for_data_spanning_decades() {
        assert_eq!(Scale::for_values([0.1, 5.0, 120.0]), Scale::Log);
        assert_eq!(Scale::for_values([0.0, 2.0, 90.0]), Scale::Linear);
        assert_eq!(Scale::for_values([]), Scale::Linear);
    }

    #[test]
    fn a_chart_has_its_legend_below_the_plot_and_its_band() {
        let chart = LineChart {
            title: "PDR vs distance".into(),
            x_label: "distance (m)".into(),
            y_label: "PDR".into(),
            x_scale: Scale::Linear,
            y_scale: Scale::Linear,
            y_range: Some((0.0, 1.0)),
            lines: vec![Line {
                label: "ecdsa verified".into(),
                colour: 1,
                points: vec![(50.0, 0.9), (150.0, 0.5)],
                band: vec![(50.0, 0.85, 0.95), (150.0, 0.4, 0.6)],
                ..Line::default()
            }],
            note: Some("band: 95 % CI over replications".into()),
        };
        let svg = chart.render().unwrap();
        assert!(svg.contains("ecdsa verified") && svg.contains("band: 95 % CI"));
        // The legend text sits below the plot area (y beyond the plot's height).
        let at = svg.find("ecdsa verified").unwrap();
        let tag = &svg[svg[..at].rfind("<text").unwrap()..at];
        let y: f64 = tag
            .split("y=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(y > f64::from(PLOT_HEIGHT), "legend at y = {y}");
        // The band is a filled polygon in the variant's colour.
        assert!(svg.contains("<polygon"), "no band drawn");
    }

    #[test]
    fn a_dot_chart_draws_each_value_and_spread_in_its_group_colour() {
        let chart = DotChart {
            title: "Latency".into(),
            x_label: "µs".into(),
            x_scale: Scale::Log,
            dots: vec![
                Dot {
                    label: "p256 sign".into(),
                    group: 1,
                    value: 20.0,
                    spread: Some((18.0, 30.0)),
                },
                Dot {
                    label: "p256 verify".into(),
                    group: 2,
                    value: 60.0,
                    spread: None,
                },
            ],
            groups: vec!["".into(), "sign".into(), "verify".into()],
            note: Some("dot: median; line: 5th-95th percentile".into()),
        };
        let svg = chart.render().unwrap();
        assert!(svg.contains("p256 sign") && svg.contains("p256 verify"));
        assert_eq!(
            svg.matches("<circle").count(),
            2 + 3,
            "two dots and three legend samples"
        );
        assert!(svg.contains("#D55E00") && svg.contains("#0072B2"));
        let empty = DotChart { dots: vec![], ..chart };
        assert!(empty.render().unwrap().contains("nothing measured"));
    }

    #[test]
    fn ticks_are_short() {
        assert_eq!(tick(0.5), "0.5");
        assert_eq!(tick(100.0), "100");
        assert_eq!(tick(0.0), "0");
        assert_eq!(tick(1e-5), "1e-5");
    }
}
