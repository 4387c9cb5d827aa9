//! Kalman consistency: a constant-velocity filter per pseudonym (x and y apart, each with
//! position and velocity; white-acceleration process noise) fed with the reported position
//! and the velocity its speed and heading give. A message whose innovation lies outside
//! the chi-square gate (2 degrees of freedom) is inconsistent with the sender's own track;
//! the score is 1 inside the gate and gate / distance² beyond.

use super::Thresholds;
use crate::observation::Observation;

#[derive(Debug, Clone, Copy)]
struct Axis {
    x: [f64; 2],
    p: [[f64; 2]; 2],
}

/// One pseudonym's track.
#[derive(Debug, Clone, Copy)]
pub struct Track {
    axes: [Axis; 2],
    t: f64,
}

/// The two scores of one update: position and velocity.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KalmanScores {
    pub position: f64,
    pub velocity: f64,
}

fn measurement(o: &Observation) -> ([f64; 2], [f64; 2], f64, f64) {
    // 95 % radius of a circular 2-D Gaussian is 2.45 sigma; never below 0.5 m / 0.1 m/s.
    let sp = (o.position_confidence_m / 2.45).max(0.5);
    let (s, c) = o.heading_deg.to_radians().sin_cos();
    let v = [o.speed_mps * s, o.speed_mps * c];
    let sh = (o.heading_confidence_deg / 2.0).max(1.0).to_radians();
    let sv = ((o.speed_confidence_mps / 2.0).max(0.1).powi(2) + (o.speed_mps * sh).powi(2)).sqrt();
    (o.position, v, sp * sp, sv * sv)
}

impl Track {
    pub fn start(o: &Observation) -> Track {
        let (p, v, rp, rv) = measurement(o);
        let axis = |i: usize| Axis {
            x: [p[i], v[i]],
            p: [[rp, 0.0], [0.0, rv]],
        };
        Track {
            axes: [axis(0), axis(1)],
            t: o.generation_time_s,
        }
    }

    /// Predicts to `o`'s generation time, scores it, then updates with it.
    pub fn update(&mut self, o: &Observation, th: &Thresholds) -> KalmanScores {
        let dt = (o.generation_time_s - self.t).max(0.0);
        let q = th.kalman_accel_sd_mps2.powi(2);
        let (z_p, z_v, rp, rv) = measurement(o);
        let (mut m_pos, mut m_vel) = (0.0, 0.0);
        for (i, a) in self.axes.iter_mut().enumerate() {
            // Predict: F = [[1, dt], [0, 1]], Q = q [[dt⁴/4, dt³/2], [dt³/2, dt²]].
            let x = [a.x[0] + dt * a.x[1], a.x[1]];
            let p = a.p;
            let p00 = p[0][0] + dt * (p[1][0] + p[0][1]) + dt * dt * p[1][1] + q * dt.powi(4) / 4.0;
            let p01 = p[0][1] + dt * p[1][1] + q * dt.powi(3) / 2.0;
            let p11 = p[1][1] + q * dt * dt;
            // Innovation with H = I and R = diag(rp, rv).
            let y = [z_p[i] - x[0], z_v[i] - x[1]];
            let s = [[p00 + rp, p01], [p01, p11 + rv]];
            m_pos += y[0] * y[0] / s[0][0];
            m_vel += y[1] * y[1] / s[1][1];
            let det = s[0][0] * s[1][1] - s[0][1] * s[1][0];
            let si = [[s[1][1] / det, -s[0][1] / det], [-s[1][0] / det, s[0][0] / det]];
            // K = P S⁻¹.
            let k = [
                [p00 * si[0][0] + p01 * si[1][0], p00 * si[0][1] + p01 * si[1][1]],
                [p01 * si[0][0] + p11 * si[1][0], p01 * si[0][1] + p11 * si[1][1]],
            ];
            a.x = [
                x[0] + k[0][0] * y[0] + k[0][1] * y[1],
                x[1] + k[1][0] * y[0] + k[1][1] * y[1],
            ];
            // P = (I − K) P.
            a.p = [
                [
                    (1.0 - k[0][0]) * p00 - k[0][1] * p01,
                    (1.0 - k[0][0]) * p01 - k[0][1] * p11,
                ],
                [
                    -k[1][0] * p00 + (1.0 - k[1][1]) * p01,
                    -k[1][0] * p01 + (1.0 - k[1][1]) * p11,
                ],
            ];
        }
        self.t = o.generation_time_s;
        let score = |m: f64| if m <= th.kalman_gate { 1.0 } else { th.kalman_gate / m };
        KalmanScores {
            position: score(m_pos),
            velocity: score(m_vel),
        }
    }
}
