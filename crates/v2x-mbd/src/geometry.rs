//! The geometry of confidence-tolerant checks (CaTCh, Kamel et al. 2019, as F2MD's MDM
//! library computes it): how much of two confidence circles (or intervals) lies within a
//! plausible range, circle and segment areas, and the overlap of two vehicles' footprints.
//! Every factor is in [0, 1]: 1 fully plausible, 0 certainly not.

use std::f64::consts::PI;

/// Area of the part of a circle of radius `r` beyond a chord at depth `h` from its edge
/// (0 ≤ h ≤ 2r; the whole disc for h ≥ 2r).
pub fn circle_segment_area(r: f64, h: f64) -> f64 {
    if r <= 0.0 || h <= 0.0 {
        return 0.0;
    }
    if h >= 2.0 * r {
        return PI * r * r;
    }
    let c = ((r - h) / r).clamp(-1.0, 1.0);
    r * r * c.acos() - (r - h) * (2.0 * r * h - h * h).max(0.0).sqrt()
}

/// Area shared by two discs of radii `r0`, `r1` whose centres are `d` apart.
pub fn circle_intersection_area(r0: f64, r1: f64, d: f64) -> f64 {
    if r0 <= 0.0 || r1 <= 0.0 || d >= r0 + r1 {
        return 0.0;
    }
    if d <= (r0 - r1).abs() {
        let r = r0.min(r1);
        return PI * r * r;
    }
    let a0 = ((r0 * r0 + d * d - r1 * r1) / (2.0 * r0 * d)).clamp(-1.0, 1.0);
    let a1 = ((r1 * r1 + d * d - r0 * r0) / (2.0 * r1 * d)).clamp(-1.0, 1.0);
    let (phi, theta) = (2.0 * a0.acos(), 2.0 * a1.acos());
    0.5 * theta * r1 * r1 - 0.5 * r1 * r1 * theta.sin() + 0.5 * phi * r0 * r0 - 0.5 * r0 * r0 * phi.sin()
}

/// The radical split of `d` between two circles of radii `r1`, `r2`, moved so that a
/// range of `range` centred between them covers the larger share first.
fn split(d: f64, r1: f64, r2: f64, range: f64) -> (f64, f64) {
    if d <= 0.0 {
        return (0.0, 0.0);
    }
    let mut d1 = (r1 * r1 + d * d - r2 * r2) / (2.0 * d);
    let mut d2 = (r2 * r2 + d * d - r1 * r1) / (2.0 * d);
    let half = range / 2.0;
    if d1 + r1 < half && d2 + r2 > half {
        let s = half - (d1 + r1);
        d1 += s;
        d2 -= s;
    }
    if d2 + r2 < half && d1 + r1 > half {
        let s = half - (d2 + r2);
        d1 -= s;
        d2 += s;
    }
    (d1, d2)
}

/// Share of two confidence discs (radii `r1`, `r2`, centres `d` apart) that fits a
/// separation of at most `range`: the range-plausibility and position-consistency factor.
pub fn circle_circle_factor(d: f64, r1: f64, r2: f64, range: f64) -> f64 {
    let (d1, d2) = split(d, r1, r2, range);
    let half = range / 2.0;
    let f = match (r1 > 0.0, r2 > 0.0) {
        (false, false) => return if range >= d { 1.0 } else { 0.0 },
        (false, true) => {
            if half >= d1 {
                circle_intersection_area(r2, half, d2) / (PI * r2 * r2)
            } else {
                0.0
            }
        }
        (true, false) => {
            if half >= d2 {
                circle_intersection_area(r1, half, d1) / (PI * r1 * r1)
            } else {
                0.0
            }
        }
        (true, true) => {
            (circle_intersection_area(r1, half, d1) + circle_intersection_area(r2, half, d2))
                / (PI * (r1 * r1 + r2 * r2))
        }
    };
    f.clamp(0.0, 1.0)
}

/// Share of two confidence discs whose separation does not exceed `range`, counting only
/// the far side (a maximum distance): 1 when `range ≥ d + r1 + r2`, 0 when `range < d − r1 − r2`.
pub fn one_sided_circle_factor(d: f64, r1: f64, r2: f64, range: f64) -> f64 {
    if d < 0.0 || range > d + r1 + r2 {
        return 1.0;
    }
    if range < d - r1 - r2 {
        return 0.0;
    }
    let (d1, d2) = split(d, r1, r2, range);
    let half = range / 2.0;
    let f = match (r1 > 0.0, r2 > 0.0) {
        (false, false) => return if range >= d { 1.0 } else { 0.0 },
        (false, true) => {
            if half >= d1 {
                circle_segment_area(r2, half - (d2 - r2)) / (PI * r2 * r2)
            } else {
                0.0
            }
        }
        (true, false) => {
            if half >= d2 {
                circle_segment_area(r1, half - (d1 - r1)) / (PI * r1 * r1)
            } else {
                0.0
            }
        }
        (true, true) => {
            (circle_segment_area(r1, half - (d1 - r1)) + circle_segment_area(r2, half - (d2 - r2)))
                / (PI * (r1 * r1 + r2 * r2))
        }
    };
    f.clamp(0.0, 1.0)
}

/// Share of the possible separations `[d − r1 − r2, d + r1 + r2]` that reach at least
/// `min_required` (a minimum distance), linear in the separation.
pub fn one_sided_minimum_factor(d: f64, r1: f64, r2: f64, min_required: f64) -> f64 {
    let (lo, hi) = (d - r1 - r2, d + r1 + r2);
    if lo >= min_required {
        return 1.0;
    }
    if hi <= min_required {
        return 0.0;
    }
    ((hi - min_required) / (hi - lo)).clamp(0.0, 1.0)
}

/// Share of two confidence intervals (half-widths `r1`, `r2`, values `d` apart) within a
/// difference of at most `range`: the one-dimensional CaTCh factor (speed consistency).
pub fn segment_segment_factor(d: f64, r1: f64, r2: f64, range: f64) -> f64 {
    if r1 <= 0.0 && r2 <= 0.0 {
        return if d > range { 0.0 } else { 1.0 };
    }
    let (d1, d2) = split(d, r1, r2, range);
    let half = range / 2.0;
    let overlap = |di: f64, ri: f64| {
        let diff = di - half;
        if diff >= ri {
            0.0
        } else if diff > -ri {
            half - (di - ri)
        } else {
            2.0 * ri
        }
    };
    ((overlap(d1, r1) + overlap(d2, r2)) / (2.0 * r1 + 2.0 * r2)).clamp(0.0, 1.0)
}

/// Heading (degrees clockwise from north) of the vector `v` (x east, y north).
pub fn heading_of(v: [f64; 2]) -> f64 {
    v[0].atan2(v[1]).to_degrees().rem_euclid(360.0)
}

/// Smallest absolute difference of two headings (degrees, 0..=180).
pub fn heading_difference(a: f64, b: f64) -> f64 {
    let d = (a - b).rem_euclid(360.0);
    d.min(360.0 - d)
}

pub fn distance(a: [f64; 2], b: [f64; 2]) -> f64 {
    (a[0] - b[0]).hypot(a[1] - b[1])
}

/// The four corners of a vehicle's footprint: centre `c`, heading `h` (degrees from north),
/// `length` along the heading, `width` across.
pub fn footprint(c: [f64; 2], h: f64, length: f64, width: f64) -> [[f64; 2]; 4] {
    let (s, co) = h.to_radians().sin_cos();
    let (f, r) = (
        [s * length / 2.0, co * length / 2.0],
        [co * width / 2.0, -s * width / 2.0],
    );
    [
        [c[0] + f[0] + r[0], c[1] + f[1] + r[1]],
        [c[0] + f[0] - r[0], c[1] + f[1] - r[1]],
        [c[0] - f[0] - r[0], c[1] - f[1] - r[1]],
        [c[0] - f[0] + r[0], c[1] - f[1] + r[1]],
    ]
}

fn polygon_area(p: &[[f64; 2]]) -> f64 {
    let n = p.len();
    (0..n)
        .map(|i| p[i][0] * p[(i + 1) % n][1] - p[(i + 1) % n][0] * p[i][1])
        .sum::<f64>()
        .abs()
        / 2.0
}

/// Area shared by two convex polygons (Sutherland–Hodgman clipping).
pub fn convex_intersection_area(subject: &[[f64; 2]], clip: &[[f64; 2]]) -> f64 {
    let orient = {
        let n = clip.len();
        (0..n)
            .map(|i| clip[i][0] * clip[(i + 1) % n][1] - clip[(i + 1) % n][0] * clip[i][1])
            .sum::<f64>()
            .signum()
    };
    let mut out: Vec<[f64; 2]> = subject.to_vec();
    for i in 0..clip.len() {
        if out.is_empty() {
            break;
        }
        let (a, b) = (clip[i], clip[(i + 1) % clip.len()]);
        let side = |p: [f64; 2]| orient * ((b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]));
        let input = std::mem::take(&mut out);
        for j in 0..input.len() {
            let (p, q) = (input[j], input[(j + 1) % input.len()]);
            let (sp, sq) = (side(p), side(q));
            if sp >= 0.0 {
                out.push(p);
            }
            if (sp >= 0.0) != (sq >= 0.0) {
                let t = sp / (sp - sq);
                out.push([p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])]);
            }
        }
    }
    if out.len() < 3 {
        0.0
    } else {
        polygon_area(&out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn areas_by_hand() {
        // Half a disc: a chord through the centre.
        assert!((circle_segment_area(2.0, 2.0) - 2.0 * PI).abs() < 1e-12);
        assert_eq!(circle_segment_area(2.0, 5.0), 4.0 * PI);
        // Concentric discs share the smaller one.
        assert!((circle_intersection_area(1.0, 3.0, 0.5) - PI).abs() < 1e-12);
        assert_eq!(circle_intersection_area(1.0, 1.0, 2.5), 0.0);
        // Two unit discs one radius apart: 2π/3 − √3/2.
        let lens = 2.0 * PI / 3.0 - 3f64.sqrt() / 2.0;
        assert!((circle_intersection_area(1.0, 1.0, 1.0) - lens).abs() < 1e-12);
    }

    #[test]
    fn factors_by_hand() {
        // Exact positions: plain comparison.
        assert_eq!(circle_circle_factor(10.0, 0.0, 0.0, 11.0), 1.0);
        assert_eq!(circle_circle_factor(10.0, 0.0, 0.0, 9.0), 0.0);
        // Far inside / far outside the range whatever the confidence.
        assert_eq!(circle_circle_factor(10.0, 2.0, 2.0, 100.0), 1.0);
        assert_eq!(circle_circle_factor(100.0, 2.0, 2.0, 10.0), 0.0);
        // Symmetric straddle: d = range, equal radii: each disc is cut near its centre by
        // the range circle's arc, which curves inwards: a little under half.
        let f = circle_circle_factor(20.0, 3.0, 3.0, 20.0);
        assert!(f > 0.45 && f < 0.5, "{f}");
        // Intervals: a difference of 1 ± (1 + 1) against a range of 1 is half inside.
        let s = segment_segment_factor(1.0, 1.0, 1.0, 1.0);
        assert!((s - 0.5).abs() < 1e-9, "{s}");
        assert_eq!(segment_segment_factor(0.5, 0.0, 0.0, 1.0), 1.0);
        assert_eq!(one_sided_minimum_factor(10.0, 1.0, 1.0, 10.0), 0.5);
        assert_eq!(one_sided_circle_factor(10.0, 1.0, 1.0, 20.0), 1.0);
        assert_eq!(one_sided_circle_factor(10.0, 1.0, 1.0, 5.0), 0.0);
    }

    #[test]
    fn headings_and_footprints() {
        assert_eq!(heading_of([0.0, 1.0]), 0.0);
        assert_eq!(heading_of([1.0, 0.0]), 90.0);
        assert_eq!(heading_of([0.0, -1.0]), 180.0);
        assert_eq!(heading_difference(350.0, 10.0), 20.0);
        let a = footprint([0.0, 0.0], 0.0, 4.0, 2.0);
        assert!((polygon_area(&a) - 8.0).abs() < 1e-12);
        // The same car shifted by half its length overlaps by half.
        let b = footprint([0.0, 2.0], 0.0, 4.0, 2.0);
        assert!((convex_intersection_area(&a, &b) - 4.0).abs() < 1e-9);
        // Crossing at right angles: a 2 x 2 square.
        let c = footprint([0.0, 0.0], 90.0, 4.0, 2.0);
        assert!((convex_intersection_area(&a, &c) - 4.0).abs() < 1e-9);
        assert_eq!(
            convex_intersection_area(&a, &footprint([10.0, 0.0], 0.0, 4.0, 2.0)),
            0.0
        );
    }
}
