//! Figures fit for a paper, the same for every report:
//!
//! - drawn at their printed size: one unit is 85/320 mm, so a line chart is one journal
//!   column (8.5 cm) wide and every text is at least 7.5 pt there (the SVG says its size
//!   in mm; [`png`] rasterises it at 300 dpi); a dot chart with long labels grows up to
//!   two columns, at the same type size;
//! - a title that says what the figure shows, axis labels with units, and the legend below
//!   the plot so that it never hides data;
//! - one colour per series (Okabe-Ito, readable by colour-blind readers and in grey), kept
//!   across the figures of a page by a [`Palette`]; solid and dashed lines for two views of
//!   one series; 95 % confidence intervals as error bars at the points they belong to
//!   (bands of several series would cover each other);
//! - distributions as steps (a CDF never ramps through values nothing took), log axes
//!   where the data span decades;
//! - a series without data says so in the legend, and a figure without any says so in its
//!   plot area, instead of an empty frame;
//! - [`DotChart`]: per-item values (benchmarks), a labelled row per item, its value written
//!   beside its dot.

use plotters::coord::ranged1d::{Ranged, ValueFormatter};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::cell::RefCell;
use std::path::{Path, PathBuf};

/// Width of a one-column figure in drawing units.
pub const WIDTH: u32 = 320;
/// Millimetres per drawing unit: [`WIDTH`] units are one 85 mm journal column.
pub const MM_PER_UNIT: f64 = 85.0 / 320.0;
/// The widest figure: two columns and the gap between them (a `figure*`).
pub const MAX_WIDTH_MM: f64 = 178.0;
/// Dots per inch of the PNG twin of every figure.
pub const PNG_DPI: f32 = 300.0;
const PLOT_HEIGHT: u32 = 240;
const LEGEND_ROW: u32 = 15;
const FONT: &str = "sans-serif";
// Text sizes as plotters takes them (it writes size / 1.24 into the SVG): at 85/320 mm per
// unit, 13.5 is 8.2 pt, 12.4 is 7.5 pt.
const TITLE: f64 = 15.5;
const AXIS: f64 = 14.5;
const TICK: f64 = 13.5;
const LEGEND: f64 = 13.5;
const NOTE: f64 = 12.4;

/// Okabe-Ito, black first (the baseline series).
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

/// The colour of series `i`.
pub fn colour(i: usize) -> RGBColor {
    COLOURS[i % COLOURS.len()]
}

/// Colours by series name, first come first served: the same series has the same colour
/// in every figure of a page that uses one palette.
#[derive(Debug, Default)]
pub struct Palette {
    names: RefCell<Vec<String>>,
}

impl Palette {
    /// The colour index of series `name` (see [`colour`]).
    pub fn index(&self, name: &str) -> usize {
        let mut names = self.names.borrow_mut();
        match names.iter().position(|n| n == name) {
            Some(i) => i,
            None => {
                names.push(name.to_string());
                names.len() - 1
            }
        }
    }
}

/// An axis scale.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Scale {
    #[default]
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
    /// Index into [`COLOURS`]: lines of one series share it (see [`Palette`]).
    pub colour: usize,
    pub dashed: bool,
    /// Draw a marker at each point (sparse data: the points are the measurements).
    pub markers: bool,
    pub points: Vec<(f64, f64)>,
    /// (x, low, high): the 95 % confidence interval at x, drawn as an error bar; empty for
    /// none.
    pub band: Vec<(f64, f64, f64)>,
}

/// A line chart.
#[derive(Debug, Clone, Default)]
pub struct LineChart {
    /// What the figure shows (not a file name).
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub x_scale: Scale,
    pub y_scale: Scale,
    /// Fixed y range (e.g. 0-1 for ratios); None: from the data.
    pub y_range: Option<(f64, f64)>,
    pub lines: Vec<Line>,
    /// Text under the legend (what the error bars are, where data come from), broken into
    /// lines that fit the column.
    pub note: Option<String>,
}

/// A chart that could not be drawn or rasterised.
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

/// A value written beside its dot: three significant digits (whole numbers as they are),
/// k and M for large numbers.
pub fn short_value(v: f64) -> String {
    let a = v.abs();
    let sig = |x: f64| {
        if x >= 100.0 || (x - x.round()).abs() < 1e-9 {
            format!("{x:.0}")
        } else if x >= 10.0 {
            format!("{x:.1}")
        } else {
            format!("{x:.2}")
        }
    };
    if !v.is_finite() {
        "–".into()
    } else if a >= 1e6 {
        format!("{}M", sig(v / 1e6))
    } else if a >= 1e4 {
        format!("{}k", sig(v / 1e3))
    } else {
        sig(v)
    }
}

/// A note broken into lines that fit a column (at the note's type size).
fn wrapped(note: Option<&str>) -> Vec<String> {
    wrap(note.unwrap_or(""), 58)
}

/// `text` broken at spaces into lines of at most `max` characters (a longer word stays
/// whole on its own line).
fn wrap(text: &str, max: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(l) if l.chars().count() + 1 + word.chars().count() <= max => {
                l.push(' ');
                l.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// A legend label broken into lines that fit beside its sample.
fn label_lines(label: &str) -> Vec<String> {
    let lines = wrap(label, 44);
    if lines.is_empty() {
        vec![String::new()]
    } else {
        lines
    }
}

/// The SVG document with its printed size: width and height in mm, the drawing in units.
fn at_print_size(svg: String, width: u32, height: u32) -> String {
    let from = format!("<svg width=\"{width}\" height=\"{height}\"");
    let to = format!(
        "<svg width=\"{:.1}mm\" height=\"{:.1}mm\"",
        f64::from(width) * MM_PER_UNIT,
        f64::from(height) * MM_PER_UNIT
    );
    svg.replacen(&from, &to, 1)
}

type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;

/// Text of `size` anchored horizontally at `h`, centred vertically on its point.
fn anchored(size: f64, h: HPos) -> TextStyle<'static> {
    TextStyle::from((FONT, size).into_font()).pos(Pos::new(h, VPos::Center))
}

impl LineChart {
    /// Lines with at least one point the axes can show.
    fn drawable(&self, l: &Line) -> bool {
        l.points.iter().any(|p| self.keep(p.0, p.1))
    }

    fn keep(&self, x: f64, y: f64) -> bool {
        x.is_finite()
            && y.is_finite()
            && (self.x_scale == Scale::Linear || x > 0.0)
            && (self.y_scale == Scale::Linear || y > 0.0)
    }

    /// The chart as an SVG document at its printed size (one column).
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
        let rows = (legend_height(&self.lines) + wrapped(self.note.as_deref()).len()) as u32;
        let height = PLOT_HEIGHT + rows * LEGEND_ROW + 12;
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
            root.fill(&WHITE).map_err(err)?;
            let (plot, legend) = root.split_vertically(PLOT_HEIGHT);
            let mut builder = ChartBuilder::on(&plot);
            builder
                .caption(&self.title, (FONT, TITLE).into_font().style(FontStyle::Bold))
                .margin(6)
                .margin_right(12)
                .x_label_area_size(34)
                .y_label_area_size(46);
            match (self.x_scale, self.y_scale) {
                (Scale::Linear, Scale::Linear) => {
                    self.draw(builder.build_cartesian_2d(x0..x1, y0..y1).map_err(err)?, y0, &plot)?
                }
                (Scale::Log, Scale::Linear) => self.draw(
                    builder.build_cartesian_2d((x0..x1).log_scale(), y0..y1).map_err(err)?,
                    y0,
                    &plot,
                )?,
                (Scale::Linear, Scale::Log) => self.draw(
                    builder.build_cartesian_2d(x0..x1, (y0..y1).log_scale()).map_err(err)?,
                    y0,
                    &plot,
                )?,
                (Scale::Log, Scale::Log) => self.draw(
                    builder
                        .build_cartesian_2d((x0..x1).log_scale(), (y0..y1).log_scale())
                        .map_err(err)?,
                    y0,
                    &plot,
                )?,
            }
            let empty: Vec<bool> = self.lines.iter().map(|l| !self.drawable(l)).collect();
            legend_rows(&legend, &self.lines, &empty, self.note.as_deref(), false)?;
            root.present().map_err(err)?;
        }
        Ok(at_print_size(svg, WIDTH, height))
    }

    fn draw<X, Y>(
        &self,
        mut chart: ChartContext<'_, SVGBackend<'_>, Cartesian2d<X, Y>>,
        y_floor: f64,
        plot: &Area<'_>,
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
            .x_labels(6)
            .y_labels(6)
            .x_label_formatter(&|v| tick(*v))
            .y_label_formatter(&|v| tick(*v))
            .axis_desc_style((FONT, AXIS))
            .label_style((FONT, TICK))
            .bold_line_style(RGBColor(225, 225, 225))
            .max_light_lines(0)
            .draw()
            .map_err(err)?;
        if !self.lines.iter().any(|l| self.drawable(l)) {
            let (w, h) = plot.dim_in_pixel();
            plot.draw(&Text::new(
                "no data in any series (see the legend)".to_string(),
                (w as i32 / 2, h as i32 / 2),
                anchored(AXIS, HPos::Center),
            ))
            .map_err(err)?;
            return Ok(());
        }
        // Error bars side by side: each series a little right of the previous, so that
        // bars of several series at one x stay apart.
        let with_bars: Vec<usize> = (0..self.lines.len())
            .filter(|&i| !self.lines[i].band.is_empty())
            .collect();
        for (k, &i) in with_bars.iter().enumerate() {
            let l = &self.lines[i];
            let c = colour(l.colour);
            let shift = (k as i32 - (with_bars.len() as i32 - 1) / 2) * 3;
            for &(x, lo, hi) in &l.band {
                let lo = if self.y_scale == Scale::Log {
                    lo.max(y_floor)
                } else {
                    lo
                };
                if !(self.keep(x, hi) && lo.is_finite()) {
                    continue;
                }
                let (px, top) = chart.backend_coord(&(x, hi));
                let (_, bottom) = chart.backend_coord(&(x, lo));
                let px = px + shift;
                let style = c.stroke_width(1);
                let segment = |from: (i32, i32), to: (i32, i32)| {
                    plot.draw(&PathElement::new(
                        vec![plot_local(plot, from), plot_local(plot, to)],
                        style,
                    ))
                    .map_err(err)
                };
                segment((px, top), (px, bottom))?;
                segment((px - 2, top), (px + 2, top))?;
                segment((px - 2, bottom), (px + 2, bottom))?;
            }
        }
        // Solid lines first, dashed ones over them: where a dashed series (a model, the
        // radio's view) runs along a solid one, its dashes stay visible.
        let (solid, dashed): (Vec<&Line>, Vec<&Line>) = self.lines.iter().partition(|l| !l.dashed);
        for l in solid.into_iter().chain(dashed) {
            let c = colour(l.colour);
            let pts: Vec<(f64, f64)> = l.points.iter().copied().filter(|p| self.keep(p.0, p.1)).collect();
            if l.dashed {
                chart
                    .draw_series(DashedLineSeries::new(pts.clone(), 5, 3, c.stroke_width(2)))
                    .map_err(err)?;
            } else {
                chart
                    .draw_series(LineSeries::new(pts.clone(), c.stroke_width(2)))
                    .map_err(err)?;
            }
            if l.markers {
                chart
                    .draw_series(pts.iter().map(|p| Circle::new(*p, 2, c.filled())))
                    .map_err(err)?;
            }
        }
        Ok(())
    }
}

/// A backend coordinate as a coordinate of `area` (which may not start at the origin).
fn plot_local(area: &Area<'_>, p: (i32, i32)) -> (i32, i32) {
    let (x0, y0) = area.get_base_pixel();
    (p.0 - x0, p.1 - y0)
}

/// The legend below a plot: a sample (a line, or a dot for dot charts, with an error bar
/// where the series has intervals) and the label, one row each, then the note. A series
/// marked `empty` says "no data".
fn legend_rows(
    area: &Area<'_>,
    lines: &[Line],
    empty: &[bool],
    note: Option<&str>,
    dots: bool,
) -> Result<(), PlotError> {
    let text = |s: String, x: i32, y: i32, size: f64| Text::new(s, (x, y), anchored(size, HPos::Left));
    let mut row = 0usize;
    for (i, l) in lines.iter().enumerate() {
        let c = colour(l.colour);
        let y = 8 + (row as u32 * LEGEND_ROW) as i32;
        let sample = vec![(46, y), (70, y)];
        if dots {
            area.draw(&Circle::new((58, y), 3, c.filled())).map_err(err)?;
        } else if l.dashed {
            area.draw(&DashedPathElement::new(sample, 5, 3, c.stroke_width(2)))
                .map_err(err)?;
        } else {
            area.draw(&PathElement::new(sample, c.stroke_width(2))).map_err(err)?;
        }
        if !l.band.is_empty() {
            area.draw(&PathElement::new(vec![(58, y - 5), (58, y + 5)], c.stroke_width(1)))
                .map_err(err)?;
        }
        let label = if empty.get(i).copied().unwrap_or(false) {
            format!("{}: no data", l.label)
        } else {
            l.label.clone()
        };
        for part in label_lines(&label) {
            let y = 8 + (row as u32 * LEGEND_ROW) as i32;
            area.draw(&text(part, 76, y, LEGEND)).map_err(err)?;
            row += 1;
        }
    }
    for line in wrapped(note) {
        let y = 8 + (row as u32 * LEGEND_ROW) as i32;
        area.draw(&text(line, 10, y, NOTE)).map_err(err)?;
        row += 1;
    }
    Ok(())
}

/// Legend rows the entries of `lines` take (long labels wrap).
fn legend_height(lines: &[Line]) -> usize {
    // An empty series' label gains ": no data" (at most two more lines' worth).
    lines
        .iter()
        .map(|l| label_lines(&format!("{}: no data", l.label)).len())
        .sum()
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

/// A dot chart (a row per item, labels on the left, the value beside each dot): what bar
/// charts show, without bars whose length means nothing on a log axis, and with each
/// value's spread.
#[derive(Debug, Clone, Default)]
pub struct DotChart {
    pub title: String,
    pub x_label: String,
    pub x_scale: Scale,
    pub dots: Vec<Dot>,
    /// Legend names of the groups (colours), in group order; empty names are left out.
    pub groups: Vec<String>,
    pub note: Option<String>,
}

const DOT_ROW: u32 = 14;
/// Units per character of row labels, for the label area (a sans-serif average).
const CHAR_UNITS: f64 = 6.2;

impl DotChart {
    /// The chart as an SVG document at its printed size (wider than a column only when the
    /// row labels need it, at most two columns).
    pub fn render(&self) -> Result<String, PlotError> {
        let n = self.dots.len().max(1);
        let label_chars = self.dots.iter().map(|d| d.label.chars().count()).max().unwrap_or(8);
        let max_units = (MAX_WIDTH_MM / MM_PER_UNIT) as u32;
        let label_area = ((label_chars as f64 * CHAR_UNITS) as u32 + 12).clamp(50, max_units - 220);
        let width = WIDTH.max(label_area + 220).min(max_units);
        let plot_height = (70 + DOT_ROW * n as u32).max(130);
        // Only groups that have a dot get a legend entry.
        let legend: Vec<(usize, &String)> = self
            .groups
            .iter()
            .enumerate()
            .filter(|(i, g)| !g.is_empty() && self.dots.iter().any(|d| d.group == *i))
            .collect();
        let entries: Vec<Line> = legend
            .iter()
            .map(|(i, g)| Line {
                label: (*g).clone(),
                colour: *i,
                ..Line::default()
            })
            .collect();
        let rows = (legend_height(&entries) + wrapped(self.note.as_deref()).len()) as u32;
        let height = plot_height + rows * LEGEND_ROW + 12;
        let values = self
            .dots
            .iter()
            .flat_map(|d| [Some(d.value), d.spread.map(|s| s.0), d.spread.map(|s| s.1)])
            .flatten();
        let (x0, mut x1) = range(values, self.x_scale);
        // Room for the value written right of the largest dot.
        x1 = match self.x_scale {
            Scale::Linear => x1 + (x1 - x0) * 0.12,
            Scale::Log => x1 * 2.5,
        };
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
            root.fill(&WHITE).map_err(err)?;
            let (plot, legend_area) = root.split_vertically(plot_height);
            if self.dots.is_empty() {
                plot.draw(&Text::new(
                    format!("{}: nothing measured", self.title),
                    (10, 24),
                    (FONT, TITLE).into_font().style(FontStyle::Bold),
                ))
                .map_err(err)?;
            } else {
                let mut builder = ChartBuilder::on(&plot);
                builder
                    .caption(&self.title, (FONT, TITLE).into_font().style(FontStyle::Bold))
                    .margin(6)
                    .margin_right(12)
                    .x_label_area_size(34)
                    .y_label_area_size(label_area);
                let y = -0.5..(n as f64 - 0.5);
                match self.x_scale {
                    Scale::Linear => self.draw(builder.build_cartesian_2d(x0..x1, y).map_err(err)?, &plot)?,
                    Scale::Log => {
                        self.draw(builder.build_cartesian_2d((x0..x1).log_scale(), y).map_err(err)?, &plot)?
                    }
                }
            }
            legend_rows(&legend_area, &entries, &[], self.note.as_deref(), true)?;
            root.present().map_err(err)?;
        }
        Ok(at_print_size(svg, width, height))
    }

    fn draw<X>(
        &self,
        mut chart: ChartContext<'_, SVGBackend<'_>, Cartesian2d<X, RangedCoordf64>>,
        plot: &Area<'_>,
    ) -> Result<(), PlotError>
    where
        X: Ranged<ValueType = f64> + ValueFormatter<f64>,
    {
        let n = self.dots.len();
        // Row 0 at the top: the first item is read first.
        let row = |i: usize| (n - 1 - i) as f64;
        let x_desc = match self.x_scale {
            Scale::Log => format!("{} (log scale)", self.x_label),
            Scale::Linear => self.x_label.clone(),
        };
        chart
            .configure_mesh()
            .x_desc(x_desc)
            .x_labels(5)
            .y_labels(0)
            .x_label_formatter(&|v| tick(*v))
            .disable_y_mesh()
            .axis_desc_style((FONT, AXIS))
            .label_style((FONT, TICK))
            .bold_line_style(RGBColor(225, 225, 225))
            .max_light_lines(0)
            .draw()
            .map_err(err)?;
        let ok = |x: f64| x.is_finite() && (self.x_scale == Scale::Linear || x > 0.0);
        let x_lo = chart.x_range().start;
        for (i, d) in self.dots.iter().enumerate() {
            let c = colour(d.group);
            let y = row(i);
            // The row's label, right-aligned against the plot's left edge.
            let (left, py) = chart.backend_coord(&(x_lo, y));
            plot.draw(&Text::new(
                d.label.clone(),
                plot_local(plot, (left - 5, py)),
                anchored(TICK, HPos::Right),
            ))
            .map_err(err)?;
            let mut right = d.value;
            if let Some((lo, hi)) = d.spread.filter(|s| ok(s.0) && ok(s.1)) {
                chart
                    .draw_series(std::iter::once(PathElement::new(
                        vec![(lo, y), (hi, y)],
                        c.stroke_width(1),
                    )))
                    .map_err(err)?;
                right = right.max(hi);
            }
            if ok(d.value) {
                chart
                    .draw_series(std::iter::once(Circle::new((d.value, y), 3, c.filled())))
                    .map_err(err)?;
                let (px, py) = chart.backend_coord(&(right, y));
                plot.draw(&Text::new(
                    short_value(d.value),
                    plot_local(plot, (px + 6, py)),
                    anchored(NOTE, HPos::Left),
                ))
                .map_err(err)?;
            }
        }
        Ok(())
    }
}

/// The PNG of an SVG figure at [`PNG_DPI`], text in the system's sans-serif font.
pub fn png(svg: &str) -> Result<Vec<u8>, PlotError> {
    let mut options = resvg::usvg::Options::default();
    {
        let db = options.fontdb_mut();
        db.load_system_fonts();
        // fontdb's sans-serif is Arial unless told otherwise; take the system's own.
        let sans = ["DejaVu Sans", "Liberation Sans", "Noto Sans", "Arial", "Helvetica"]
            .into_iter()
            .find(|f| db.faces().any(|face| face.families.iter().any(|(n, _)| n == f)));
        match sans {
            Some(f) => db.set_sans_serif_family(f),
            None => {
                return Err(PlotError(
                    "no sans-serif font on this system for the PNG (Debian: apt-get install fonts-dejavu-core)".into(),
                ))
            }
        }
    }
    let tree = resvg::usvg::Tree::from_str(svg, &options).map_err(err)?;
    let size = tree.size();
    // The SVG's size is in CSS pixels (96 per inch).
    let scale = PNG_DPI / 96.0;
    let (w, h) = (
        (size.width() * scale).ceil() as u32,
        (size.height() * scale).ceil() as u32,
    );
    let mut pixmap =
        resvg::tiny_skia::Pixmap::new(w, h).ok_or_else(|| PlotError(format!("cannot make a {w}x{h} image")))?;
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    pixmap.encode_png().map_err(err)
}

/// The files of a figure written by [`write_figure`].
#[derive(Debug, Clone)]
pub struct FigureFiles {
    pub svg: PathBuf,
    /// The PNG twin; None when it could not be made, with why in `png_missing`.
    pub png: Option<PathBuf>,
    pub png_missing: Option<String>,
}

/// Writes `DIR/STEM.svg` and its PNG twin `DIR/STEM.png`. A PNG that cannot be made (no
/// font on the system) is said in the result, not an error: the SVG is the figure.
pub fn write_figure(dir: &Path, stem: &str, svg: &str) -> std::io::Result<FigureFiles> {
    let svg_path = dir.join(format!("{stem}.svg"));
    std::fs::write(&svg_path, svg)?;
    let (png_path, missing) = match png(svg) {
        Ok(bytes) => {
            let p = dir.join(format!("{stem}.png"));
            std::fs::write(&p, bytes)?;
            (Some(p), None)
        }
        Err(e) => (None, Some(e.to_string())),
    };
    Ok(FigureFiles {
        svg: svg_path,
        png: png_path,
        png_missing: missing,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every font size in `svg`, in points at its printed size.
    fn font_points(svg: &str) -> Vec<f64> {
        let width_mm: f64 = svg
            .split("width=\"")
            .nth(1)
            .and_then(|s| s.split("mm\"").next())
            .and_then(|s| s.parse().ok())
            .expect("a width in mm");
        let units: f64 = svg
            .split("viewBox=\"0 0 ")
            .nth(1)
            .and_then(|s| s.split(' ').next())
            .and_then(|s| s.parse().ok())
            .expect("a viewBox");
        let pt_per_unit = width_mm / units * 72.0 / 25.4;
        svg.split("font-size=\"")
            .skip(1)
            .filter_map(|s| s.split('"').next()?.parse::<f64>().ok())
            .map(|u| u * pt_per_unit)
            .collect()
    }

    /// The text of every `<text>` element.
    fn texts(svg: &str) -> Vec<&str> {
        svg.split("<text")
            .skip(1)
            .filter_map(|t| t.split('>').nth(1)?.split("</text").next())
            .map(str::trim)
            .collect()
    }

    fn pdr_chart() -> LineChart {
        LineChart {
            title: "Packet delivery ratio vs distance".into(),
            x_label: "distance (m)".into(),
            y_label: "PDR".into(),
            y_range: Some((0.0, 1.0)),
            lines: vec![
                Line {
                    label: "ecdsa verified".into(),
                    colour: 1,
                    points: vec![(50.0, 0.9), (150.0, 0.5)],
                    band: vec![(50.0, 0.85, 0.95), (150.0, 0.4, 0.6)],
                    ..Line::default()
                },
                Line {
                    label: "tesla verified".into(),
                    colour: 2,
                    ..Line::default()
                },
            ],
            note: Some("error bars: 95 % CI over replications".into()),
            ..LineChart::default()
        }
    }

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

    /// Issue 28: tick labels were 3-5 pt at column width.
    #[test]
    fn every_text_is_readable_at_column_width() {
        let svg = pdr_chart().render().unwrap();
        assert!(svg.contains("width=\"85.0mm\""), "one column: {}", &svg[..200]);
        let pts = font_points(&svg);
        assert!(pts.len() > 10, "{pts:?}");
        let smallest = pts.iter().copied().fold(f64::INFINITY, f64::min);
        assert!(smallest >= 7.4, "smallest text {smallest:.1} pt");
        // A dot chart with long labels: two columns at most, the same type size.
        let dots = DotChart {
            title: "Latency".into(),
            x_label: "µs".into(),
            dots: (0..5)
                .map(|i| Dot {
                    label: format!("ieee1609.2 decap p256/cam/sign/digest/100 #{i}"),
                    group: 1,
                    value: 10.0 + f64::from(i),
                    spread: None,
                })
                .collect(),
            ..DotChart::default()
        }
        .render()
        .unwrap();
        let w: f64 = dots
            .split("width=\"")
            .nth(1)
            .unwrap()
            .split("mm")
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(w > 85.0 && w <= MAX_WIDTH_MM, "{w} mm");
        assert!(font_points(&dots).iter().all(|p| *p >= 7.4));
    }

    #[test]
    fn legend_below_the_plot_error_bars_and_empty_series_said() {
        let svg = pdr_chart().render().unwrap();
        assert!(svg.contains("ecdsa verified") && svg.contains("error bars: 95 % CI"));
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
        // Intervals are error bars (lines), never filled areas that cover other series.
        assert!(!svg.contains("<polygon"), "a band was filled");
        assert!(svg.contains("tesla verified: no data"), "the empty series is not named");
        // A long note is broken into lines that fit the column.
        let long = LineChart {
            note: Some("word ".repeat(40)),
            ..pdr_chart()
        }
        .render()
        .unwrap();
        let note_lines: Vec<&str> = texts(&long).into_iter().filter(|t| t.starts_with("word")).collect();
        assert!(
            note_lines.len() >= 3 && note_lines.iter().all(|l| l.len() <= 58),
            "{note_lines:?}"
        );
        // Nothing at all to draw: the plot area says so.
        let none = LineChart {
            lines: vec![Line {
                label: "mac delay".into(),
                ..Line::default()
            }],
            ..pdr_chart()
        };
        let svg = none.render().unwrap();
        assert!(svg.contains("no data in any series") && svg.contains("mac delay: no data"));
    }

    #[test]
    fn dot_rows_are_labelled_and_each_value_written() {
        let chart = DotChart {
            title: "Security overhead".into(),
            x_label: "bytes".into(),
            x_scale: Scale::Linear,
            dots: vec![
                Dot {
                    label: "ieee1609.2 cam".into(),
                    group: 1,
                    value: 93.0,
                    spread: None,
                },
                Dot {
                    label: "tesla paper004".into(),
                    group: 2,
                    value: 21.0,
                    spread: Some((20.0, 22.0)),
                },
            ],
            groups: vec!["".into(), "sign".into(), "verify".into()],
            note: None,
        };
        let svg = chart.render().unwrap();
        let written = texts(&svg);
        for text in ["ieee1609.2 cam", "tesla paper004", "93", "21"] {
            assert!(written.contains(&text), "{text} missing from {written:?}");
        }
        // Two dots and two legend samples (the empty group name has none).
        assert_eq!(svg.matches("<circle").count(), 2 + 2);
        // A group without dots has no legend entry.
        let unused = DotChart {
            groups: vec!["".into(), "sign".into(), "verify".into(), "ecdh".into()],
            ..chart.clone()
        };
        assert!(!texts(&unused.render().unwrap()).contains(&"ecdh"));
        assert!(svg.contains("#D55E00") && svg.contains("#0072B2"));
        let empty = DotChart { dots: vec![], ..chart };
        assert!(empty.render().unwrap().contains("nothing measured"));
    }

    #[test]
    fn a_palette_keeps_a_series_colour_across_figures() {
        let p = Palette::default();
        assert_eq!((p.index("rx1 benign"), p.index("rx1 A-SIG-01")), (0, 1));
        assert_eq!(p.index("rx1 benign"), 0);
    }

    #[test]
    fn the_png_twin_has_the_printed_size_at_300_dpi() {
        let svg = pdr_chart().render().unwrap();
        let png = match png(&svg) {
            Ok(b) => b,
            // A machine without any font: said, not drawn without text.
            Err(e) => return assert!(e.to_string().contains("font"), "{e}"),
        };
        assert_eq!(&png[1..4], b"PNG");
        let width = u32::from_be_bytes([png[16], png[17], png[18], png[19]]);
        // 85 mm at 300 dpi.
        assert!((1000..=1010).contains(&width), "{width} px");
    }

    #[test]
    fn ticks_and_values_are_short() {
        assert_eq!(tick(0.5), "0.5");
        assert_eq!(tick(100.0), "100");
        assert_eq!(tick(0.0), "0");
        assert_eq!(tick(1e-5), "1e-5");
        assert_eq!(short_value(93.0), "93");
        assert_eq!(short_value(12.34), "12.3");
        assert_eq!(short_value(152_300.0), "152k");
        assert_eq!(short_value(2.5e6), "2.50M");
    }
}
