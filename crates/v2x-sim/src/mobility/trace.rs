//! Sampled trajectories with linear interpolation between samples.

use super::Position;
use std::collections::BTreeMap;

#[derive(Debug, Clone, Default)]
struct Track {
    /// (t_s, x_m, y_m), time-ascending, no duplicate times.
    samples: Vec<(f64, f64, f64)>,
    cursor: usize,
}

/// Trajectories of several vehicles; time starts at 0 at the earliest sample.
#[derive(Debug, Clone, Default)]
pub struct Trace {
    ids: Vec<String>,
    tracks: Vec<Track>,
}

/// Collects samples in any order and builds a [`Trace`].
#[derive(Debug, Default)]
pub struct TraceBuilder {
    by_id: BTreeMap<String, Vec<(f64, f64, f64)>>,
    /// For [`TraceBuilder::push_row`]: the first row of each (vehicle, time) and its place.
    rows: std::collections::HashMap<(String, u64), (f64, f64, u64)>,
}

/// Two rows give one vehicle at one time at different places.
#[derive(Debug, Clone, PartialEq)]
pub struct ConflictingRows {
    pub first_row: u64,
    pub first: (f64, f64),
    pub second: (f64, f64),
}

/// Places closer than this are the same sample repeated (tables list a vehicle once per
/// car-following pair).
const SAME_PLACE_M: f64 = 1e-3;

impl TraceBuilder {
    pub fn push(&mut self, id: &str, t: f64, x: f64, y: f64) {
        // Coordinates beyond a million kilometres are nonsense and would break the grid.
        if t.is_finite() && t.abs() < 1e12 && x.abs() < 1e9 && y.abs() < 1e9 {
            self.by_id.entry(id.to_string()).or_default().push((t, x, y));
        }
    }

    /// [`TraceBuilder::push`] of table row `row`, refusing a (vehicle, time) seen before
    /// at another place (a repeat at the same place is one sample).
    pub fn push_row(&mut self, id: &str, t: f64, x: f64, y: f64, row: u64) -> Result<(), ConflictingRows> {
        match self.rows.entry((id.to_string(), t.to_bits())) {
            std::collections::hash_map::Entry::Occupied(e) => {
                let (fx, fy, first_row) = *e.get();
                if (fx - x).hypot(fy - y) > SAME_PLACE_M {
                    return Err(ConflictingRows {
                        first_row,
                        first: (fx, fy),
                        second: (x, y),
                    });
                }
                Ok(())
            }
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert((x, y, row));
                self.push(id, t, x, y);
                Ok(())
            }
        }
    }

    /// Applies `f` to every sample's (x, y) (e.g. a map projection).
    pub fn map_positions(mut self, f: impl Fn(f64, f64) -> (f64, f64)) -> TraceBuilder {
        for s in self.by_id.values_mut().flatten() {
            (s.1, s.2) = f(s.1, s.2);
        }
        self
    }

    pub fn samples(&self) -> usize {
        self.by_id.values().map(Vec::len).sum()
    }

    pub fn build(self) -> Trace {
        let t0 = self.by_id.values().flatten().map(|s| s.0).fold(f64::INFINITY, f64::min);
        let t0 = if t0.is_finite() { t0 } else { 0.0 };
        let mut ids = Vec::with_capacity(self.by_id.len());
        let mut tracks = Vec::with_capacity(self.by_id.len());
        for (id, mut s) in self.by_id {
            s.sort_by(|a, b| a.0.total_cmp(&b.0));
            s.dedup_by(|b, a| a.0 == b.0);
            for p in &mut s {
                p.0 -= t0;
            }
            ids.push(id);
            tracks.push(Track { samples: s, cursor: 0 });
        }
        Trace { ids, tracks }
    }
}

impl Trace {
    pub fn len(&self) -> usize {
        self.tracks.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tracks.is_empty()
    }

    pub fn ids(&self) -> &[String] {
        &self.ids
    }

    /// Last sample time (s).
    pub fn end_time(&self) -> f64 {
        self.tracks
            .iter()
            .filter_map(|t| t.samples.last())
            .map(|s| s.0)
            .fold(0.0, f64::max)
    }

    /// Adds the opposite carriageway by reflecting every track: the lateral coordinate is
    /// mirrored (shifted by `offset_m`) and the longitudinal one reversed (paper 004).
    pub fn with_mirror(mut self, offset_m: f64) -> Trace {
        let (ymin, ymax) = self
            .tracks
            .iter()
            .flat_map(|t| t.samples.iter())
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), s| {
                (lo.min(s.2), hi.max(s.2))
            });
        let mirrored: Vec<Track> = self
            .tracks
            .iter()
            .map(|t| Track {
                samples: t
                    .samples
                    .iter()
                    .map(|&(ts, x, y)| (ts, -x - offset_m, ymin + ymax - y))
                    .collect(),
                cursor: 0,
            })
            .collect();
        let ids: Vec<String> = self.ids.iter().map(|i| format!("{i}-mirror")).collect();
        self.ids.extend(ids);
        self.tracks.extend(mirrored);
        self
    }

    /// Position of every track at `t` (non-decreasing between calls).
    pub fn positions_at(&mut self, t: f64, out: &mut Vec<Option<Position>>) {
        for tr in &mut self.tracks {
            out.push(tr.at(t));
        }
    }
}

impl Track {
    fn at(&mut self, t: f64) -> Option<Position> {
        let s = &self.samples;
        let first = s.first()?;
        let last = s.last()?;
        if t < first.0 || t > last.0 {
            return None;
        }
        if self.cursor >= s.len() || s.get(self.cursor).is_some_and(|p| p.0 > t) {
            self.cursor = 0;
        }
        while self.cursor + 1 < s.len() && s.get(self.cursor + 1).is_some_and(|p| p.0 <= t) {
            self.cursor += 1;
        }
        let a = s.get(self.cursor)?;
        match s.get(self.cursor + 1) {
            Some(b) if b.0 > a.0 => {
                let f = (t - a.0) / (b.0 - a.0);
                Some([a.1 + f * (b.1 - a.1), a.2 + f * (b.2 - a.2)])
            }
            _ => Some([a.1, a.2]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interpolates_between_samples_and_is_absent_outside() {
        let mut b = TraceBuilder::default();
        b.push("a", 10.0, 0.0, 0.0);
        b.push("a", 11.0, 10.0, 20.0);
        b.push("b", 10.5, 5.0, 5.0);
        let mut t = b.build();
        assert_eq!(t.len(), 2);
        let mut out = Vec::new();
        t.positions_at(0.25, &mut out);
        assert_eq!(out[0], Some([2.5, 5.0]));
        assert_eq!(out[1], None);
        out.clear();
        t.positions_at(0.5, &mut out);
        assert_eq!(out[1], Some([5.0, 5.0]));
        out.clear();
        t.positions_at(2.0, &mut out);
        assert_eq!(out[0], None);
        let m = t.with_mirror(4.0);
        assert_eq!(m.len(), 4);
    }
}
