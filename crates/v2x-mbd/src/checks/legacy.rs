//! F2MD's legacy checks: each compares the reported values with a threshold and answers
//! 1 (plausible) or 0. `prev` is the same pseudonym's previous message, `dt` the difference
//! of their generation times.

use super::{manoeuvre_addon, min_max_distance, Thresholds};
use crate::geometry::{convex_intersection_area, distance, footprint, heading_difference, heading_of};
use crate::observation::Observation;

fn yes(b: bool) -> f64 {
    if b {
        1.0
    } else {
        0.0
    }
}

pub fn range(o: &Observation, t: &Thresholds) -> f64 {
    yes(distance(o.position, o.receiver_position) < t.max_plausible_range_m)
}

/// On a road, unless (almost) standing; needs the receiver's map (`distance_to_road_edge`):
/// without one the check passes.
pub fn position_plausibility(o: &Observation, t: &Thresholds) -> f64 {
    match o.distance_to_road_edge_m {
        Some(d) if o.speed_mps > t.max_non_route_speed_mps => yes(d >= t.max_plausible_dist_negative_m),
        _ => 1.0,
    }
}

pub fn speed_plausibility(o: &Observation, t: &Thresholds) -> f64 {
    yes(o.speed_mps.abs() < t.max_plausible_speed_mps)
}

/// Run on a pseudonym's first message (or after `max_sa_time_s` of silence).
pub fn sudden_appearance(o: &Observation, t: &Thresholds) -> f64 {
    yes(distance(o.position, o.receiver_position) >= t.max_sa_range_m)
}

pub fn position_consistency(cur: &Observation, prev: &Observation, dt: f64, t: &Thresholds) -> f64 {
    yes(distance(cur.position, prev.position) < t.max_plausible_speed_mps * dt)
}

pub fn speed_consistency(cur: &Observation, prev: &Observation, dt: f64, t: &Thresholds) -> f64 {
    let dv = cur.speed_mps - prev.speed_mps;
    let limit = if dv > 0.0 {
        t.max_plausible_accel_mps2
    } else {
        t.max_plausible_decel_mps2
    };
    yes(dv.abs() < limit * dt)
}

pub fn position_speed_consistency(cur: &Observation, prev: &Observation, dt: f64, t: &Thresholds) -> f64 {
    if dt >= t.max_time_delta_s {
        return 1.0;
    }
    let d = distance(cur.position, prev.position);
    let addon = manoeuvre_addon(cur.speed_mps.min(prev.speed_mps), t.max_mgt_rng_down_m);
    let (lo, hi) = min_max_distance(
        cur.speed_mps,
        prev.speed_mps,
        dt,
        t.max_plausible_accel_mps2,
        t.max_plausible_decel_mps2,
    );
    yes(d - lo + addon >= 0.0 && hi - d + t.max_mgt_rng_up_m >= 0.0)
}

pub fn position_heading_consistency(cur: &Observation, prev: &Observation, dt: f64, t: &Thresholds) -> f64 {
    if dt >= t.pos_heading_time_s {
        return 1.0;
    }
    let d = distance(cur.position, prev.position);
    if d < 1.0 || cur.speed_mps < 1.0 {
        return 1.0;
    }
    let travel = heading_of([cur.position[0] - prev.position[0], cur.position[1] - prev.position[1]]);
    yes(heading_difference(cur.heading_deg, travel) <= t.max_heading_change_deg)
}

/// The declared acceleration within the tolerance of the mean acceleration (v₁ − v₀)/Δt.
pub fn acceleration_consistency(cur: &Observation, prev: &Observation, dt: f64, t: &Thresholds) -> f64 {
    if dt <= 0.0 || dt >= t.max_time_delta_s {
        return 1.0;
    }
    let observed = (cur.speed_mps - prev.speed_mps) / dt;
    yes((observed - cur.acceleration_mps2).abs() <= t.max_accel_mismatch_mps2)
}

/// `dt` since the pseudonym's previous message.
pub fn beacon_frequency(dt: f64, t: &Thresholds) -> f64 {
    yes(dt >= t.min_beacon_interval_s)
}

/// Two senders' footprints overlapping by more than half (weighted by how old the other's
/// message is, `dt`).
pub fn intersection(a: &Observation, b: &Observation, dt: f64, t: &Thresholds) -> f64 {
    let fa = footprint(a.position, a.heading_deg, a.length_m, a.width_m);
    let fb = footprint(b.position, b.heading_deg, b.length_m, b.width_m);
    let smaller = (a.length_m * a.width_m).min(b.length_m * b.width_m);
    let overlap = convex_intersection_area(&fa, &fb) / smaller;
    let age = ((t.max_delta_intersection_s - dt.abs()) / t.max_delta_intersection_s).clamp(0.0, 1.0);
    yes(overlap * age <= 0.5)
}
