//! Weak interference folded into a field over the map (`[radio] weak_interference =
//! "aggregate"`).
//!
//! At a city's density a transmission reaches thousands of candidates within the cutoff
//! range, most of them so far that the signal can never be decoded there nor trigger the
//! clear-channel assessment: it only adds a little energy. Those receivers need not be
//! individual events. The map is cut into square cells; a transmission adds to each cell
//! whose nearest point lies beyond the weak radius its mean power at the cell's centre
//! (the mean of the faded power above the floor, as the individual model would sum on
//! average), and takes it away when it ends. A receiver reads its cell's sum when it
//! evaluates SINR and CCA. Receivers in the other cells (any point within the weak radius)
//! are evaluated individually, so each (transmission, receiver) pair is counted once.
//!
//! The weak radius is the distance beyond which a signal reaches neither the preamble
//! threshold nor the CCA threshold with probability above [`NEVER`], fading included.
//! Sums are kept in integer units of 1e-18 mW: removing a transmission restores the
//! sum exactly, whatever the order.

use crate::channel::LinkBudget;
use crate::mobility::Position;

/// A signal "never" decodes nor triggers the CCA when its probability of reaching either
/// threshold is below this.
pub const NEVER: f64 = 1e-6;

/// Resolution of the sums (-180 dBm).
const UNIT_MW: f64 = 1e-18;

/// One axis of the field's cells.
#[derive(Debug, Clone)]
struct Axis {
    origin: f64,
    cell: f64,
    cells: usize,
    /// The map wraps along this axis with this period (the cells tile it exactly).
    period: Option<f64>,
}

impl Axis {
    /// Cells of about `cell_m` over `[lo, hi]`, or over one period.
    fn new(lo: f64, hi: f64, cell_m: f64, period: Option<f64>) -> Axis {
        match period {
            Some(p) => {
                let cells = (p / cell_m).ceil().max(1.0) as usize;
                Axis {
                    origin: 0.0,
                    cell: p / cells as f64,
                    cells,
                    period,
                }
            }
            None => Axis {
                origin: lo,
                cell: cell_m,
                cells: ((hi - lo) / cell_m).floor().max(0.0) as usize + 1,
                period,
            },
        }
    }

    /// The cell of `x` (outside a non-wrapping axis: the nearest cell).
    fn index(&self, x: f64) -> usize {
        let u = match self.period {
            Some(p) => (x - self.origin).rem_euclid(p),
            None => x - self.origin,
        };
        ((u / self.cell).floor().max(0.0) as usize).min(self.cells - 1)
    }

    /// Distance from `x` to the centre of cell `i` (to its nearest image).
    fn to_centre(&self, x: f64, i: usize) -> f64 {
        let d = (x - (self.origin + (i as f64 + 0.5) * self.cell)).abs();
        match self.period {
            Some(p) => {
                let d = d.rem_euclid(p);
                d.min(p - d)
            }
            None => d,
        }
    }

    /// For each cell of `cells`: the distance from `x` to its centre and to its nearest
    /// point along this axis.
    fn offsets(&self, x: f64, cells: &[usize], out: &mut Vec<(f64, f64)>) {
        out.clear();
        out.extend(cells.iter().map(|&i| {
            let d = self.to_centre(x, i);
            (d, (d - self.cell / 2.0).max(0.0))
        }));
    }

    /// Replaces `out` with every cell within `r` of `x`, each once.
    fn cells_within(&self, x: f64, r: f64, out: &mut Vec<usize>) {
        out.clear();
        let c = self.index(x) as i64;
        let k = (r / self.cell).ceil() as i64 + 1;
        let n = self.cells as i64;
        match self.period {
            Some(_) if 2 * k + 1 >= n => out.extend(0..self.cells),
            Some(_) => out.extend((c - k..=c + k).map(|i| i.rem_euclid(n) as usize)),
            None => out.extend(((c - k).max(0)..=(c + k).min(n - 1)).map(|i| i as usize)),
        }
    }
}

/// The summed weak power per cell.
pub struct WeakField {
    axes: [Axis; 2],
    radius_m: f64,
    cutoff_m: f64,
    sum: Vec<i64>,
    /// Scratch cell lists of the two axes, reused.
    columns: Vec<usize>,
    rows: Vec<usize>,
    /// Scratch (distance to the centre, to the nearest point) per column and per row.
    along_x: Vec<(f64, f64)>,
    along_y: Vec<(f64, f64)>,
}

impl WeakField {
    /// A field over the map: along a wrapping axis one period, otherwise `[lo, hi]` (the
    /// nodes' extent, widened by the cutoff range).
    pub fn new(
        lo: Position,
        hi: Position,
        periods: [Option<f64>; 2],
        cell_m: f64,
        radius_m: f64,
        cutoff_m: f64,
    ) -> Self {
        let axes = [0, 1].map(|k| Axis::new(lo[k] - cutoff_m, hi[k] + cutoff_m, cell_m, periods[k]));
        let cells = axes[0].cells * axes[1].cells;
        WeakField {
            axes,
            radius_m,
            cutoff_m,
            sum: vec![0; cells],
            columns: Vec::new(),
            rows: Vec::new(),
            along_x: Vec::new(),
            along_y: Vec::new(),
        }
    }

    /// The weak radius: beyond it a signal reaches `threshold_mw` with probability below
    /// [`NEVER`].
    pub fn radius_m(link: &LinkBudget, threshold_mw: f64) -> f64 {
        link.reach_m(threshold_mw, NEVER)
    }

    pub fn cell_of(&self, p: Position) -> u32 {
        (self.axes[1].index(p[1]) * self.axes[0].cells + self.axes[0].index(p[0])) as u32
    }

    /// Distances from `p` to the nearest point and to the centre of `cell`.
    fn distances(&self, p: Position, cell: u32) -> (f64, f64) {
        let (ix, iy) = (cell as usize % self.axes[0].cells, cell as usize / self.axes[0].cells);
        let (dx, dy) = (self.axes[0].to_centre(p[0], ix), self.axes[1].to_centre(p[1], iy));
        let near_x = (dx - self.axes[0].cell / 2.0).max(0.0);
        let near_y = (dy - self.axes[1].cell / 2.0).max(0.0);
        ((near_x * near_x + near_y * near_y).sqrt(), (dx * dx + dy * dy).sqrt())
    }

    /// Whether a receiver `d` metres from a transmitter at `p`, in `cell`, hears it
    /// individually (some point of its cell is within the weak radius).
    pub fn individual(&self, p: Position, d: f64, cell: u32) -> bool {
        d <= self.radius_m || self.distances(p, cell).0 <= self.radius_m
    }

    /// Adds a transmitter at `p` to every cell beyond the weak radius; `added` receives
    /// what was added where, for [`WeakField::remove`].
    pub fn add(&mut self, p: Position, link: &LinkBudget, added: &mut Vec<(u32, i64)>) {
        added.clear();
        let mut columns = std::mem::take(&mut self.columns);
        let mut rows = std::mem::take(&mut self.rows);
        self.axes[0].cells_within(p[0], self.cutoff_m, &mut columns);
        self.axes[1].cells_within(p[1], self.cutoff_m, &mut rows);
        // The distances along each axis depend on the column or the row alone: computed
        // once per axis (the same arithmetic as `distances`, so the same sums), not per cell.
        let mut along_x = std::mem::take(&mut self.along_x);
        let mut along_y = std::mem::take(&mut self.along_y);
        self.axes[0].offsets(p[0], &columns, &mut along_x);
        self.axes[1].offsets(p[1], &rows, &mut along_y);
        for (&iy, &(dy, near_y)) in rows.iter().zip(&along_y) {
            let near_y2 = near_y * near_y;
            // Every cell of the row is at least this far (rounding included): beyond the cutoff.
            if near_y2.sqrt() > self.cutoff_m {
                continue;
            }
            let dy2 = dy * dy;
            for (&ix, &(dx, near_x)) in columns.iter().zip(&along_x) {
                let near = (near_x * near_x + near_y2).sqrt();
                if near <= self.radius_m || near > self.cutoff_m {
                    continue;
                }
                let cell = (iy * self.axes[0].cells + ix) as u32;
                let centre = (dx * dx + dy2).sqrt();
                let units = (link.mean_above_floor_mw(centre) / UNIT_MW).round() as i64;
                if units > 0 {
                    self.sum[cell as usize] += units;
                    added.push((cell, units));
                }
            }
        }
        self.along_x = along_x;
        self.along_y = along_y;
        self.columns = columns;
        self.rows = rows;
    }

    /// Takes away what [`WeakField::add`] added.
    pub fn remove(&mut self, added: &[(u32, i64)]) {
        for &(cell, units) in added {
            self.sum[cell as usize] -= units;
        }
    }

    /// The weak power summed in `cell` (mW).
    pub fn mw(&self, cell: u32) -> f64 {
        self.sum.get(cell as usize).map_or(0.0, |&u| u as f64 * UNIT_MW)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::channel::{Fading, PathLoss};
    use crate::keyed_rng::{Draw, RunDice};
    use crate::scenario::{FadingConfig, PathLossConfig};

    fn link() -> LinkBudget {
        let pl = PathLoss::new(&PathLossConfig::default(), 5.9e9);
        LinkBudget::new(&pl, &Fading::new(&FadingConfig::default()), 20.0, -101.0, 2400.0)
    }

    /// A cell's sum is what the individual model delivers there on average: the mean of
    /// many faded powers above the floor at that distance.
    #[test]
    fn a_cell_gets_the_mean_power_of_the_individual_model() {
        let link = link();
        let radius = WeakField::radius_m(&link, crate::channel::dbm_to_mw(-85.0));
        assert!((900.0..1300.0).contains(&radius), "weak radius {radius}");
        let mut field = WeakField::new([0.0, 0.0], [6000.0, 10.0], [Some(6000.0), None], 100.0, radius, 2400.0);
        let tx = [50.0, 5.0];
        let mut added = Vec::new();
        field.add(tx, &link, &mut added);
        let dice = RunDice::new(5);
        for x in [1550.0, 1950.0, 6000.0 - 1450.0] {
            let cell = field.cell_of([x, 5.0]);
            let d = (x - 50.0f64).abs().min(6000.0 - (x - 50.0).abs());
            assert!(!field.individual(tx, d, cell));
            let n = 200_000u32;
            let mean: f64 = (0..n)
                .filter_map(|r| link.sample_mw(d, dice.transmission(u64::from(r)).uniform(0, Draw::Fading)))
                .sum::<f64>()
                / f64::from(n);
            let got = field.mw(cell);
            assert!(
                (got - mean).abs() < 0.05 * mean,
                "x={x}: field {got:e} vs individual mean {mean:e}"
            );
        }
        // Cells within the radius get nothing (their receivers are individual).
        let near = field.cell_of([700.0, 5.0]);
        assert!(field.individual(tx, 650.0, near));
        assert_eq!(field.mw(near), 0.0);
        // Removing restores zero exactly.
        field.remove(&added);
        assert!(field.sum.iter().all(|&u| u == 0));
    }

    /// Cells tile a wrapping axis exactly and are listed once even when the range goes
    /// around the map.
    #[test]
    fn wrapping_axes_list_each_cell_once() {
        let a = Axis::new(0.0, 0.0, 300.0, Some(1000.0));
        assert_eq!(a.cells, 4);
        assert!((a.cell - 250.0).abs() < 1e-12);
        assert_eq!(a.index(-10.0), 3);
        let mut cells = Vec::new();
        a.cells_within(100.0, 5000.0, &mut cells);
        assert_eq!(cells, vec![0, 1, 2, 3]);
        assert!((a.to_centre(990.0, 0) - 135.0).abs() < 1e-9);
        let b = Axis::new(-50.0, 950.0, 100.0, None);
        assert_eq!(b.index(-1000.0), 0);
        assert_eq!(b.index(1e6), b.cells - 1);
        b.cells_within(0.0, 150.0, &mut cells);
        assert_eq!(cells, vec![0, 1, 2, 3]);
    }
}
