//! CaTCh (Kamel et al., "CaTCh: a confidence range tolerant misbehavior detection approach",
//! IEEE WCNC 2019), as F2MD computes it: each check answers the share of the declared
//! confidence regions (position circles, speed and heading intervals) for which the
//! message is plausible, in [0, 1]. A message fails a check below 0.5.

use super::{manoeuvre_addon, min_max_distance, Thresholds};
use crate::geometry::{
    circle_circle_factor, circle_intersection_area, circle_segment_area, convex_intersection_area, distance, footprint,
    heading_difference, heading_of, one_sided_circle_factor, one_sided_minimum_factor, segment_segment_factor,
};
use crate::observation::Observation;
use std::f64::consts::PI;

pub fn range(o: &Observation, t: &Thresholds) -> f64 {
    circle_circle_factor(
        distance(o.position, o.receiver_position),
        o.position_confidence_m,
        o.receiver_position_confidence_m,
        t.max_plausible_range_m,
    )
}

/// The share of the position circle on the road side of the most negative plausible
/// distance to the road edge; passes without a map or when (almost) standing.
pub fn position_plausibility(o: &Observation, t: &Thresholds) -> f64 {
    let Some(d) = o.distance_to_road_edge_m else {
        return 1.0;
    };
    let speed = (o.speed_mps - o.speed_confidence_mps).max(0.0);
    if speed <= t.max_non_route_speed_mps {
        return 1.0;
    }
    let r = o.position_confidence_m;
    let min = t.max_plausible_dist_negative_m;
    if r <= 0.0 {
        return if d >= min { 1.0 } else { 0.0 };
    }
    let area = PI * r * r;
    if d - r >= min {
        1.0
    } else if d + r <= min {
        0.0
    } else if d >= min {
        // Centre inside: all but the cap beyond the limit.
        1.0 - circle_segment_area(r, r - (d - min)) / area
    } else {
        // Centre outside: only the cap inside.
        circle_segment_area(r, r - (min - d)) / area
    }
}

pub fn speed_plausibility(o: &Observation, t: &Thresholds) -> f64 {
    let (v, c) = (o.speed_mps.abs(), o.speed_confidence_mps.abs());
    if v + c / 2.0 < t.max_plausible_speed_mps {
        1.0
    } else if v - c / 2.0 > t.max_plausible_speed_mps {
        0.0
    } else {
        ((c / 2.0 + (t.max_plausible_speed_mps - v)) / c).clamp(0.0, 1.0)
    }
}

/// The share of the sender's position circle outside the sudden-appearance range around
/// the receiver (widened by the receiver's own confidence).
pub fn sudden_appearance(o: &Observation, t: &Thresholds) -> f64 {
    let d = distance(o.position, o.receiver_position);
    let r2 = t.max_sa_range_m + o.receiver_position_confidence_m;
    let r = o.position_confidence_m;
    if r <= 0.0 {
        return if d < r2 { 0.0 } else { 1.0 };
    }
    1.0 - circle_intersection_area(r, r2, d) / (PI * r * r)
}

pub fn position_consistency(cur: &Observation, prev: &Observation, dt: f64, t: &Thresholds) -> f64 {
    circle_circle_factor(
        distance(cur.position, prev.position),
        cur.position_confidence_m,
        prev.position_confidence_m,
        t.max_plausible_speed_mps * dt,
    )
}

pub fn speed_consistency(cur: &Observation, prev: &Observation, dt: f64, t: &Thresholds) -> f64 {
    let dv = cur.speed_mps - prev.speed_mps;
    let limit = if dv > 0.0 {
        t.max_plausible_accel_mps2
    } else {
        t.max_plausible_decel_mps2
    };
    segment_segment_factor(
        dv.abs(),
        cur.speed_confidence_mps,
        prev.speed_confidence_mps,
        limit * dt,
    )
}

/// The distance travelled against the bounds of three speed hypotheses (reported, and each
/// end of the two confidence intervals pulled apart), averaged; the worse of the lower and
/// upper bound's factor.
pub fn position_speed_consistency(cur: &Observation, prev: &Observation, dt: f64, t: &Thresholds) -> f64 {
    if dt >= t.max_time_delta_s {
        return 1.0;
    }
    let d = distance(cur.position, prev.position);
    let (r1, r2) = (cur.position_confidence_m, prev.position_confidence_m);
    let (v1, v0) = (cur.speed_mps, prev.speed_mps);
    let (c1, c0) = (cur.speed_confidence_mps, prev.speed_confidence_mps);
    if v1.max(v0) < 1.0 && d - (r1 + r2) <= v1.max(v0) * dt {
        return 1.0;
    }
    let addon = manoeuvre_addon(v1.min(v0), t.max_mgt_rng_down_m);
    let (mut lo_sum, mut hi_sum) = (0.0, 0.0);
    let mid = (v1 + v0) / 2.0;
    for (a, b) in [(v1, v0), (v1 + c1, v0 - c0), ((v1 - c1).max(mid), (v0 + c0).min(mid))] {
        let (lo, hi) = min_max_distance(a, b, dt, t.max_plausible_accel_mps2, t.max_plausible_decel_mps2);
        lo_sum += one_sided_minimum_factor(d, r1, r2, lo - addon);
        hi_sum += one_sided_circle_factor(d, r1, r2, hi + t.max_mgt_rng_up_m);
    }
    (lo_sum / 3.0).min(hi_sum / 3.0)
}

/// The angle between the heading and the direction of travel, less the heading's
/// confidence, against the limit; graded over the angle the two position circles leave
/// undetermined.
pub fn position_heading_consistency(cur: &Observation, prev: &Observation, dt: f64, t: &Thresholds) -> f64 {
    if dt >= t.pos_heading_time_s {
        return 1.0;
    }
    let d = distance(cur.position, prev.position);
    if d < 1.0 || cur.speed_mps - cur.speed_confidence_mps < 1.0 {
        return 1.0;
    }
    let r = cur.position_confidence_m + prev.position_confidence_m;
    if r >= d {
        return 1.0;
    }
    let travel = heading_of([cur.position[0] - prev.position[0], cur.position[1] - prev.position[1]]);
    let low = (heading_difference(cur.heading_deg, travel) - cur.heading_confidence_deg).max(0.0);
    let spread = (r / d).asin().to_degrees();
    if spread <= 0.0 {
        return if low <= t.max_heading_change_deg { 1.0 } else { 0.0 };
    }
    ((t.max_heading_change_deg + spread - low) / (2.0 * spread)).clamp(0.0, 1.0)
}

/// The declared acceleration against the mean acceleration between the previous message
/// and this one, (v₁ − v₀)/Δt: CaTCh's segment factor of the two intervals (the speeds'
/// confidences over Δt on the observed side, the acceleration confidence on the declared
/// side) against the tolerance. A short Δt widens the observed interval, so a burst of
/// near-simultaneous messages passes on its own; beyond `max_time_delta_s` the mean says
/// nothing about the current acceleration.
pub fn acceleration_consistency(cur: &Observation, prev: &Observation, dt: f64, t: &Thresholds) -> f64 {
    if dt <= 0.0 || dt >= t.max_time_delta_s {
        return 1.0;
    }
    let observed = (cur.speed_mps - prev.speed_mps) / dt;
    segment_segment_factor(
        (observed - cur.acceleration_mps2).abs(),
        (cur.speed_confidence_mps + prev.speed_confidence_mps) / dt,
        cur.acceleration_confidence_mps2,
        t.max_accel_mismatch_mps2,
    )
}

pub fn beacon_frequency(dt: f64, t: &Thresholds) -> f64 {
    super::legacy::beacon_frequency(dt, t)
}

/// Overlap of the two senders' footprints grown by their position confidence, as a share
/// of their union, weighted by the other message's age: 1.01 − overlap × weight.
pub fn intersection(a: &Observation, b: &Observation, dt: f64, t: &Thresholds) -> f64 {
    let grow = |o: &Observation| {
        footprint(
            o.position,
            o.heading_deg,
            o.length_m + 2.0 * o.position_confidence_m,
            o.width_m + 2.0 * o.position_confidence_m,
        )
    };
    let (fa, fb) = (grow(a), grow(b));
    let area =
        |o: &Observation| (o.length_m + 2.0 * o.position_confidence_m) * (o.width_m + 2.0 * o.position_confidence_m);
    let inter = convex_intersection_area(&fa, &fb);
    let union = area(a) + area(b) - inter;
    if union <= 0.0 {
        return 1.0;
    }
    let age = ((t.max_delta_intersection_s - dt.abs()) / t.max_delta_intersection_s).clamp(0.0, 1.0);
    (1.01 - inter / union * age).clamp(0.0, 1.0)
}
