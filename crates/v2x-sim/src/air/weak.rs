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

    /// `x` from the origin (within one period on a wrapping axis), in cells.
    fn in_cells(&self, x: f64) -> f64 {
        let u = match self.period {
            Some(p) => (x - self.origin).rem_euclid(p),
            None => x - self.origin,
        };
        u / self.cell
    }

    /// The cell of `x` (outside a non-wrapping axis: the nearest cell).
    fn index(&self, x: f64) -> usize {
        (self.in_cells(x).floor().max(0.0) as usize).min(self.cells - 1)
    }

    /// The cell of `x` and where in it `x` lies (0 to 1), or `None` outside a non-wrapping
    /// axis.
    fn cell_and_fraction(&self, x: f64) -> Option<(usize, f64)> {
        let u = self.in_cells(x);
        let i = u.floor();
        (i >= 0.0 && i < self.cells as f64).then_some((i as usize, u - i))
    }

    /// Cells reached from cell `c` by the offsets `-k..=k`: their indices, `u32::MAX`
    /// beyond the end of a non-wrapping axis.
    fn offset_cells(&self, c: usize, k: i64, out: &mut Vec<u32>) {
        out.clear();
        let n = self.cells as i64;
        out.extend((c as i64 - k..=c as i64 + k).map(|i| match self.period {
            Some(_) => i.rem_euclid(n) as u32,
            None if (0..n).contains(&i) => i as u32,
            None => u32::MAX,
        }));
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
    /// What a transmission adds, precomputed per class of positions within a cell (when
    /// the field is large enough that offsets from a cell never wrap onto one another).
    stencils: Option<Stencils>,
}

/// Positions within a cell fall into `SUB x SUB` classes for the stencils: a class stands
/// for its centre, at most `margin` metres from any position in it.
const SUB: usize = 8;

/// The cells a transmitter adds to, per class of its position within its cell, as offsets
/// from its cell. Adding from a list costs a few loads and adds per cell instead of the
/// distances and the mean power of each; the price is the power at the class's centre
/// instead of the transmitter's position (at most `margin`, 9 m for 100 m cells, off: a
/// few percent of a contribution at the weak radius, against the cell's own 70 m).
struct Stencils {
    /// Offsets reach `-k..=k` cells along each axis.
    k: [i64; 2],
    /// Per class: the cells beyond the weak radius and within the cutoff range from every
    /// position of the class, with the units at the class's centre.
    sure: Vec<Vec<(i16, i16, i64)>>,
    /// Per class: the cells within `margin` of either boundary, classified and summed from
    /// the exact position, as [`WeakField::add_exact`] does.
    boundary: Vec<Vec<(i16, i16)>>,
    /// Scratch: the cell indices of the offsets along each axis for one transmission.
    columns: Vec<u32>,
    rows: Vec<u32>,
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
        link: &LinkBudget,
    ) -> Self {
        let axes = [0, 1].map(|k| Axis::new(lo[k] - cutoff_m, hi[k] + cutoff_m, cell_m, periods[k]));
        let cells = axes[0].cells * axes[1].cells;
        let stencils = Stencils::build(&axes, radius_m, cutoff_m, link);
        WeakField {
            axes,
            radius_m,
            cutoff_m,
            sum: vec![0; cells],
            columns: Vec::new(),
            rows: Vec::new(),
            along_x: Vec::new(),
            along_y: Vec::new(),
            stencils,
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
        if let Some(mut st) = self.stencils.take() {
            let done = self.add_stencil(&mut st, p, link, added);
            self.stencils = Some(st);
            if done {
                return;
            }
        }
        self.add_exact(p, link, added);
    }

    /// [`WeakField::add`] from the stencil of `p`'s class; false (nothing added) when `p`
    /// lies outside the field.
    fn add_stencil(&mut self, st: &mut Stencils, p: Position, link: &LinkBudget, added: &mut Vec<(u32, i64)>) -> bool {
        let (Some((cx, fx)), Some((cy, fy))) = (
            self.axes[0].cell_and_fraction(p[0]),
            self.axes[1].cell_and_fraction(p[1]),
        ) else {
            return false;
        };
        let class = Stencils::class(fx, fy);
        self.axes[0].offset_cells(cx, st.k[0], &mut st.columns);
        self.axes[1].offset_cells(cy, st.k[1], &mut st.rows);
        let (kx, ky, nx) = (st.k[0], st.k[1], self.axes[0].cells);
        let cell = |dx: i16, dy: i16| {
            let ix = st.columns[(i64::from(dx) + kx) as usize];
            let iy = st.rows[(i64::from(dy) + ky) as usize];
            (ix != u32::MAX && iy != u32::MAX).then(|| iy as usize * nx + ix as usize)
        };
        for &(dx, dy, units) in &st.sure[class] {
            if let Some(c) = cell(dx, dy) {
                self.sum[c] += units;
                added.push((c as u32, units));
            }
        }
        for &(dx, dy) in &st.boundary[class] {
            let Some(c) = cell(dx, dy) else { continue };
            let (near, centre) = self.distances(p, c as u32);
            if near <= self.radius_m || near > self.cutoff_m {
                continue;
            }
            let units = crate::time::round_nonneg(link.mean_above_floor_mw(centre) / UNIT_MW) as i64;
            if units > 0 {
                self.sum[c] += units;
                added.push((c as u32, units));
            }
        }
        true
    }

    /// [`WeakField::add`] computing every cell's distances and mean power from `p`.
    fn add_exact(&mut self, p: Position, link: &LinkBudget, added: &mut Vec<(u32, i64)>) {
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
                // Inline rounding (0 for the negative values it skips anyway).
                let units = crate::time::round_nonneg(link.mean_above_floor_mw(centre) / UNIT_MW) as i64;
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

impl Stencils {
    /// The stencils of a field with these axes (`None` for offsets too large to store).
    fn build(axes: &[Axis; 2], radius_m: f64, cutoff_m: f64, link: &LinkBudget) -> Option<Stencils> {
        let reach = |a: usize| (cutoff_m / axes[a].cell).ceil() as i64 + 1;
        // Per axis and position class along it: the offsets to visit, each cell once. A
        // wrapping axis shorter than the reach both ways lists each of its cells at the
        // offset of its nearest image from the class's centre (as `Axis::to_centre`).
        let offsets = |a: usize, o: usize| -> Vec<i64> {
            let (k, n) = (reach(a), axes[a].cells as i64);
            match axes[a].period {
                Some(_) if 2 * k + 1 >= n => {
                    let f = (o as f64 + 0.5) / SUB as f64;
                    (0..n)
                        .map(|r| r - n * ((r as f64 + 0.5 - f) / n as f64).round() as i64)
                        .collect()
                }
                _ => (-k..=k).collect(),
            }
        };
        let offs: [Vec<Vec<i64>>; 2] = [0, 1].map(|a| (0..SUB).map(|o| offsets(a, o)).collect());
        let k = [0, 1].map(|a| offs[a].iter().flatten().map(|d| d.abs()).max().unwrap_or(0));
        if k.iter().any(|&k| k > i64::from(i16::MAX)) {
            return None;
        }
        let (wx, wy) = (axes[0].cell, axes[1].cell);
        let margin = 0.5 * (wx / SUB as f64).hypot(wy / SUB as f64) + 1e-6;
        let (mut sure, mut boundary) = (Vec::new(), Vec::new());
        for oy in 0..SUB {
            for ox in 0..SUB {
                // The class's centre, relative to its cell's lower corner.
                let (fx, fy) = ((ox as f64 + 0.5) / SUB as f64, (oy as f64 + 0.5) / SUB as f64);
                let (mut s, mut b) = (Vec::new(), Vec::new());
                for &dy in &offs[1][oy] {
                    for &dx in &offs[0][ox] {
                        let cx = ((dx as f64 + 0.5 - fx) * wx).abs();
                        let cy = ((dy as f64 + 0.5 - fy) * wy).abs();
                        let near = (cx - wx / 2.0).max(0.0).hypot((cy - wy / 2.0).max(0.0));
                        let entry = (dx as i16, dy as i16);
                        if near + margin <= radius_m || near - margin > cutoff_m {
                            continue;
                        }
                        if (near - radius_m).abs() < margin || (near - cutoff_m).abs() < margin {
                            b.push(entry);
                            continue;
                        }
                        let units = |d: f64| crate::time::round_nonneg(link.mean_above_floor_mw(d) / UNIT_MW) as i64;
                        let centre = cx.hypot(cy);
                        // Nothing is added where the mean power rounds to zero (beyond the
                        // link's tables): decided exactly where it might from some position.
                        if units(centre + margin) > 0 {
                            s.push((entry.0, entry.1, units(centre)));
                        } else if units((centre - margin).max(0.0)) > 0 {
                            b.push(entry);
                        }
                    }
                }
                sure.push(s);
                boundary.push(b);
            }
        }
        Some(Stencils {
            k,
            sure,
            boundary,
            columns: Vec::new(),
            rows: Vec::new(),
        })
    }

    /// The class of a position at fractions `fx`, `fy` of its cell.
    fn class(fx: f64, fy: f64) -> usize {
        let o = |f: f64| ((f * SUB as f64) as usize).min(SUB - 1);
        o(fy) * SUB + o(fx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::channel::{Fading, PathLoss};
    use crate::keyed_rng::{Draw, RunDice};
    use crate::node_id::NodeId;
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
        let mut field = WeakField::new(
            [0.0, 0.0],
            [6000.0, 10.0],
            [Some(6000.0), None],
            100.0,
            radius,
            2400.0,
            &link,
        );
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
                .filter_map(|r| link.sample_mw(d, dice.transmission(u64::from(r)).uniform(NodeId(0), Draw::Fading)))
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

    /// The stencils add to exactly the cells the exact computation adds to (the individual
    /// or weak split is decided from the transmitter's position either way), with each
    /// cell's power within 12 % and the total within 1 %, on tori and on a map with edges.
    #[test]
    fn stencils_add_to_the_same_cells_as_the_exact_computation() {
        let link = link();
        let radius = WeakField::radius_m(&link, crate::channel::dbm_to_mw(-85.0));
        // A torus, one less than two cutoff ranges high (the offsets wrap), a map with edges.
        let fields = [
            ([Some(10_000.0), Some(7_000.0)], [10_000.0, 7_000.0]),
            ([Some(10_000.0), Some(4_000.0)], [10_000.0, 4_000.0]),
            ([Some(3_000.0), Some(3_000.0)], [3_000.0, 3_000.0]),
            ([None, None], [9_000.0, 6_000.0]),
        ];
        let dice = RunDice::new(9);
        for (periods, hi) in fields {
            let mut field = WeakField::new([0.0, 0.0], hi, periods, 100.0, radius, 2400.0, &link);
            assert!(field.stencils.is_some(), "large enough for stencils");
            for t in 0..200u64 {
                let u = |k| dice.transmission(t).uniform(NodeId(k), Draw::Fading);
                let p = [u(0) * hi[0], u(1) * hi[1]];
                let (mut fast, mut exact) = (Vec::new(), Vec::new());
                field.add(p, &link, &mut fast);
                field.remove(&fast);
                field.add_exact(p, &link, &mut exact);
                field.remove(&exact);
                fast.sort_unstable();
                exact.sort_unstable();
                assert_eq!(fast.len(), exact.len(), "{p:?}: same number of cells");
                // Per cell within 12 % (the mean above the floor falls fastest near the
                // cutoff, ~d^-11 at 1.9 km, where it matters least: the cell's own 70 m
                // move it by far more), and the total within 1 %.
                let largest = exact.iter().map(|&(_, u)| u as f64).fold(0.0, f64::max);
                for (&(a, ua), &(b, ub)) in fast.iter().zip(&exact) {
                    assert_eq!(a, b, "{p:?}: same cells");
                    let (ua, ub) = (ua as f64, ub as f64);
                    let tolerance = (0.12 * ub).max(1e-3 * largest);
                    assert!((ua - ub).abs() <= tolerance, "{p:?} cell {a}: {ua} vs {ub}");
                }
                let total = |v: &[(u32, i64)]| v.iter().map(|&(_, u)| u as f64).sum::<f64>();
                let (tf, te) = (total(&fast), total(&exact));
                assert!((tf - te).abs() <= 0.01 * te, "{p:?}: total {tf} vs {te}");
            }
            assert!(field.sum.iter().all(|&u| u == 0), "removing restores zero");
        }
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
