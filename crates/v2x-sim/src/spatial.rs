//! Uniform spatial grid for neighbour look-up: a query visits only the cells within the
//! radius, so per-packet work is proportional to the nodes in range. On a map that wraps
//! (the grid mobility's torus) distances and look-ups wrap too: the distance between two
//! nodes is that to the nearest image of the other (minimum-image convention).

use crate::mobility::Position;
use crate::node_id::NodeId;

pub struct SpatialGrid {
    /// Period of the map along x and y when it wraps there.
    periods: [Option<f64>; 2],
    cell: f64,
    min: [f64; 2],
    nx: usize,
    ny: usize,
    /// Node ids sorted by cell; cell c holds `ids[start[c]..start[c + 1]]`.
    ids: Vec<NodeId>,
    /// The position of `ids[i]`, beside it so that a range query reads one contiguous run
    /// per cell instead of every candidate's node state.
    at: Vec<Position>,
    start: Vec<u32>,
}

impl SpatialGrid {
    pub fn new(cell_m: f64) -> Self {
        SpatialGrid {
            periods: [None, None],
            cell: cell_m.max(1.0),
            min: [0.0; 2],
            nx: 1,
            ny: 1,
            ids: Vec::new(),
            at: Vec::new(),
            start: vec![0, 0],
        }
    }

    /// A grid over a map that wraps with these periods along x and y (a torus when both).
    pub fn wrapping(cell_m: f64, periods: [Option<f64>; 2]) -> Self {
        SpatialGrid {
            periods,
            ..SpatialGrid::new(cell_m)
        }
    }

    /// Distance from `a` to the nearest image of `b`.
    pub fn distance(&self, a: Position, b: Position) -> f64 {
        self.distance2(a, b).sqrt()
    }

    /// Its square (no `hypot`, and a remainder only for points more than a period apart:
    /// this runs for every candidate of every transmission).
    fn distance2(&self, a: Position, b: Position) -> f64 {
        let d = |k: usize| {
            let d = (a[k] - b[k]).abs();
            match self.periods[k] {
                Some(p) => {
                    let d = if d < p { d } else { d.rem_euclid(p) };
                    d.min(p - d)
                }
                None => d,
            }
        };
        let (x, y) = (d(0), d(1));
        x * x + y * y
    }

    /// Rebuilds from the current positions (absent nodes are left out).
    pub fn rebuild(&mut self, pos: &[Option<Position>]) {
        let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
        for p in pos.iter().flatten() {
            for k in 0..2 {
                lo[k] = lo[k].min(p[k]);
                hi[k] = hi[k].max(p[k]);
            }
        }
        if !lo[0].is_finite() {
            self.ids.clear();
            self.at.clear();
            self.nx = 1;
            self.ny = 1;
            self.start = vec![0, 0];
            return;
        }
        // Keep the cell count proportional to the node count.
        let n = pos.len().max(1);
        let mut cell = self.cell;
        for _ in 0..128 {
            let nx = ((hi[0] - lo[0]) / cell).floor() as usize + 1;
            let ny = ((hi[1] - lo[1]) / cell).floor() as usize + 1;
            if nx.saturating_mul(ny) <= 4 * n + 1024 {
                self.nx = nx;
                self.ny = ny;
                break;
            }
            cell *= 2.0;
            self.nx = 1;
            self.ny = 1;
        }
        self.cell = cell;
        self.min = lo;
        let cells = self.nx * self.ny;
        let mut counts = vec![0u32; cells + 1];
        let key: Vec<Option<usize>> = pos.iter().map(|p| p.map(|p| self.cell_of(p))).collect();
        for k in key.iter().flatten() {
            counts[*k + 1] += 1;
        }
        for i in 1..=cells {
            counts[i] += counts[i - 1];
        }
        self.start = counts.clone();
        self.ids = vec![NodeId(0); counts[cells] as usize];
        self.at = vec![[0.0; 2]; counts[cells] as usize];
        for (id, (k, p)) in key.iter().zip(pos).enumerate() {
            if let (Some(k), Some(p)) = (k, p) {
                let slot = &mut counts[*k];
                self.ids[*slot as usize] = NodeId::at(id);
                self.at[*slot as usize] = *p;
                *slot += 1;
            }
        }
    }

    /// Replaces `out` with every node within distance `r` of `p` (on a wrapping map, of
    /// its nearest image) and that distance, each node once, in cell order. Reads only the
    /// grid, and reuses `out`'s allocation.
    pub fn within(&self, p: Position, r: f64, out: &mut Vec<(NodeId, f64)>) {
        out.clear();
        let r2 = r * r;
        self.for_each_slot(p, r, |slot| {
            let d2 = self.distance2(self.at[slot], p);
            if d2 <= r2 {
                out.push((self.ids[slot], d2.sqrt()));
            }
        });
    }

    /// Calls `f(slot)` once for every slot of `ids`/`at` in the cells within `r` of `p` or
    /// of its images on a wrapping map (the spans are disjoint: no cell is visited twice).
    fn for_each_slot(&self, p: Position, r: f64, mut f: impl FnMut(usize)) {
        if self.ids.is_empty() {
            return;
        }
        let columns = self.spans(0, p[0], r);
        let rows = self.spans(1, p[1], r);
        for &(y0, y1) in rows.iter().flatten() {
            for cy in y0..=y1 {
                let row = cy * self.nx;
                for &(x0, x1) in columns.iter().flatten() {
                    let (a, b) = (self.start[row + x0] as usize, self.start[row + x1 + 1] as usize);
                    (a..b).for_each(&mut f);
                }
            }
        }
    }

    /// The cells along `axis` within `r` of `v` or of its images, as at most three
    /// disjoint ranges (so that no cell, hence no node, is visited twice).
    fn spans(&self, axis: usize, v: f64, r: f64) -> [Option<(usize, usize)>; 3] {
        let (lo, n) = (self.min[axis], if axis == 0 { self.nx } else { self.ny });
        let span = |v: f64| {
            let a = ((v - r - lo) / self.cell).floor();
            let b = ((v + r - lo) / self.cell).floor();
            if b < 0.0 || a > (n - 1) as f64 {
                None
            } else {
                Some((a.max(0.0) as usize, (b as usize).min(n - 1)))
            }
        };
        let mut spans: [Option<(usize, usize)>; 3] = [None; 3];
        for (slot, shift) in spans.iter_mut().zip(Self::shifts(self.periods[axis])) {
            *slot = span(v + shift);
        }
        spans.sort_unstable_by_key(|s| s.map(|(a, _)| a));
        // Merge overlapping or adjacent ranges into the earlier one.
        for i in 1..3 {
            for j in 0..i {
                if let (Some((a0, b0)), Some((a1, b1))) = (spans[j], spans[i]) {
                    if a1 <= b0 + 1 && a0 <= b1 + 1 {
                        spans[j] = Some((a0.min(a1), b0.max(b1)));
                        spans[i] = None;
                    }
                }
            }
        }
        spans
    }

    fn shifts(period: Option<f64>) -> impl Iterator<Item = f64> {
        let p = period.unwrap_or(0.0);
        let n = if period.is_some() { 3 } else { 1 };
        [0.0, -p, p].into_iter().take(n)
    }

    fn cell_of(&self, p: Position) -> usize {
        let cx = (((p[0] - self.min[0]) / self.cell).floor().max(0.0) as usize).min(self.nx - 1);
        let cy = (((p[1] - self.min[1]) / self.cell).floor().max(0.0) as usize).min(self.ny - 1);
        cy * self.nx + cx
    }

    /// Calls `f(id)` once for every node in the cells within `r` of `p` or of its images
    /// on a wrapping map, in id order (callers check the exact distance with
    /// [`SpatialGrid::distance`]).
    pub fn for_each_near(&self, p: Position, r: f64, f: impl FnMut(NodeId)) {
        let mut found = Vec::new();
        self.for_each_slot(p, r, |slot| found.push(self.ids[slot]));
        found.sort_unstable();
        found.into_iter().for_each(f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_exactly_the_nodes_in_range() {
        let pos: Vec<Option<Position>> = (0..500)
            .map(|i| {
                if i % 7 == 0 {
                    None
                } else {
                    Some([(i * 37 % 1000) as f64, (i * 91 % 700) as f64])
                }
            })
            .collect();
        let mut g = SpatialGrid::new(100.0);
        g.rebuild(&pos);
        let c = [400.0, 300.0];
        let mut found = Vec::new();
        g.for_each_near(c, 150.0, |NodeId(id)| {
            let p = pos[id as usize].unwrap();
            if (p[0] - c[0]).hypot(p[1] - c[1]) <= 150.0 {
                found.push(id)
            }
        });
        found.sort();
        let brute: Vec<u32> = (0..500u32)
            .filter(|&i| pos[i as usize].is_some_and(|p| (p[0] - c[0]).hypot(p[1] - c[1]) <= 150.0))
            .collect();
        assert_eq!(found, brute);
    }

    /// On a 1000 x 700 torus a node near one edge finds those near the opposite edge, at
    /// the wrapped distance, and each node once.
    #[test]
    fn a_torus_wraps_look_ups_and_distances() {
        let pos: Vec<Option<Position>> = (0..500)
            .map(|i| Some([(i * 37 % 1000) as f64, (i * 91 % 700) as f64]))
            .collect();
        let mut g = SpatialGrid::wrapping(100.0, [Some(1000.0), Some(700.0)]);
        g.rebuild(&pos);
        assert!((g.distance([10.0, 5.0], [990.0, 695.0]) - 20f64.hypot(10.0)).abs() < 1e-9);
        assert!((g.distance([0.0, 0.0], [500.0, 0.0]) - 500.0).abs() < 1e-9);
        for c in [[5.0, 5.0], [995.0, 350.0], [500.0, 690.0]] {
            let mut found = Vec::new();
            g.for_each_near(c, 150.0, |NodeId(id)| {
                if g.distance(pos[id as usize].unwrap(), c) <= 150.0 {
                    found.push(id)
                }
            });
            let brute: Vec<u32> = (0..500u32)
                .filter(|&i| {
                    let p = pos[i as usize].unwrap();
                    // Brute force over the nine images.
                    [-1000.0, 0.0, 1000.0].iter().any(|dx| {
                        [-700.0, 0.0, 700.0]
                            .iter()
                            .any(|dy| (p[0] + dx - c[0]).hypot(p[1] + dy - c[1]) <= 150.0)
                    })
                })
                .collect();
            assert_eq!(found, brute, "around {c:?}");
            assert!(found.windows(2).all(|w| w[0] < w[1]), "each node once");
        }
    }

    /// `within` (the engine's look-up) returns exactly the nodes within the radius, each
    /// once with its minimum-image distance, on a plane and on a torus, including radii
    /// for which the images' windows overlap.
    #[test]
    fn within_matches_brute_force() {
        let pos: Vec<Option<Position>> = (0..600)
            .map(|i| (i % 11 != 0).then(|| [(i * 37 % 1000) as f64 + 0.5, (i * 91 % 700) as f64 + 0.25]))
            .collect();
        let mut out = Vec::new();
        for periods in [[None, None], [Some(1000.0), Some(700.0)]] {
            for r in [90.0, 150.0, 340.0, 600.0] {
                let mut g = SpatialGrid::wrapping(r, periods);
                g.rebuild(&pos);
                for c in [[5.0, 5.0], [995.0, 350.0], [500.0, 690.0], [420.0, 310.0]] {
                    g.within(c, r, &mut out);
                    out.sort_unstable_by_key(|e| e.0);
                    let brute: Vec<(NodeId, f64)> = (0..600u32)
                        .filter_map(|i| pos[i as usize].map(|p| (NodeId(i), g.distance(p, c))))
                        .filter(|e| e.1 <= r)
                        .collect();
                    assert_eq!(out, brute, "r {r} around {c:?} periods {periods:?}");
                }
            }
        }
    }
}
