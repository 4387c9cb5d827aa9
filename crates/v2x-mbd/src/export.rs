//! Per-receiver traces from `v2x-sim`'s mobility, in the NextGen schema: every vehicle of a
//! [`v2x_sim::mobility::Trace`] (SUMO FCD, NGSIM) generates CAMs by the EN 302 637-2
//! triggers (position change > 4 m, heading change > 4°, speed change > 0.5 m/s, at most
//! every `min_interval_s`, at least every `max_interval_s`; VeReMi NextGen's CamApp uses
//! 0.5 s and 1 s), with VeReMi NextGen's sensor-error model (a Gauss–Markov position error
//! around a per-vehicle U[−5, 5] m offset, heading error U[−20, 20]° × e^(−0.1 v)), a
//! pseudonym change after U[800, 1500] m, and reception through `v2x-sim`'s channel
//! (ns-3's three-log-distance path loss and Nakagami fading, 20 dBm, −82 dBm preamble
//! threshold). Only the engine's mobility and channel modules are used: no engine run.

use crate::message::{Kinematics, Message};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, Normal};
use v2x_sim::channel::{Fading, PathLoss};
use v2x_sim::mobility::Trace;
use v2x_sim::scenario::channel::{FadingConfig, PathLossConfig};

/// Parameters of an export.
#[derive(Debug, Clone, PartialEq)]
pub struct ExportConfig {
    /// Mobility sampling step (s); SUMO's step.
    pub step_s: f64,
    pub min_interval_s: f64,
    pub max_interval_s: f64,
    pub tx_power_dbm: f64,
    pub threshold_dbm: f64,
    /// Only vehicles present at least this long log what they receive (s).
    pub min_presence_s: f64,
    /// At most this many receivers log (chosen at random among those present long enough).
    pub max_receivers: usize,
    /// Export window (s): CAMs generated in [start, end).
    pub start_s: f64,
    pub end_s: f64,
    pub seed: u64,
}

impl Default for ExportConfig {
    fn default() -> Self {
        ExportConfig {
            step_s: 0.1,
            min_interval_s: 0.5,
            max_interval_s: 1.0,
            tx_power_dbm: 20.0,
            threshold_dbm: -82.0,
            min_presence_s: 20.0,
            max_receivers: 30,
            start_s: 40.0,
            end_s: 160.0,
            seed: 1,
        }
    }
}

/// A vehicle's true position, speed, heading and acceleration at one step.
type TrueState = ([f64; 2], f64, f64, f64);

#[derive(Clone)]
struct Vehicle {
    /// The true state per step (None when absent).
    states: Vec<Option<TrueState>>,
    pos_offset0: [f64; 2],
    pos_error: [f64; 2],
    heading_error0: f64,
    next_check: f64,
    last_sent: Option<(f64, [f64; 2], f64, f64)>,
    alias: u64,
    /// Generation lags the 0.1 s mobility step by a fixed per-vehicle phase: stations'
    /// CAM timers are not synchronised.
    phase_ns: i64,
    odometer: f64,
    change_at: f64,
}

/// One receiver's log.
pub struct ReceiverLog {
    pub receiver: String,
    pub messages: Vec<Message>,
}

/// Exports the trace's receptions.
pub fn export(trace: &mut Trace, cfg: &ExportConfig) -> Vec<ReceiverLog> {
    let mut rng = ChaCha8Rng::seed_from_u64(cfg.seed);
    let ids: Vec<String> = trace.ids().to_vec();
    let steps = ((cfg.end_s / cfg.step_s).ceil() as usize).max(1);
    let mut positions: Vec<Vec<Option<[f64; 2]>>> = vec![Vec::with_capacity(steps); ids.len()];
    let mut out = Vec::new();
    for k in 0..steps {
        out.clear();
        trace.positions_at(k as f64 * cfg.step_s, &mut out);
        for (i, p) in out.iter().enumerate() {
            positions[i].push(*p);
        }
    }
    // Speed, heading and acceleration from the samples (SUMO integrates position with the
    // step's speed, so displacement / step is the speed it used).
    let mut vehicles: Vec<Vehicle> = positions
        .iter()
        .map(|ps| {
            let mut states = vec![None; ps.len()];
            let (mut heading, mut speed_prev) = (0.0, 0.0);
            for k in 0..ps.len() {
                let Some(p) = ps[k] else { continue };
                let prev = if k > 0 { ps[k - 1] } else { None };
                let (speed, acc) = match prev {
                    Some(q) => {
                        let d = [p[0] - q[0], p[1] - q[1]];
                        let v = d[0].hypot(d[1]) / cfg.step_s;
                        if v > 0.05 {
                            heading = crate::geometry::heading_of(d);
                        }
                        let a = if k > 1 && ps[k - 2].is_some() {
                            (v - speed_prev) / cfg.step_s
                        } else {
                            0.0
                        };
                        (v, a)
                    }
                    None => (0.0, 0.0),
                };
                speed_prev = speed;
                states[k] = Some((p, speed, heading, acc));
            }
            let e0 = [rng.gen_range(-5.0..=5.0), rng.gen_range(-5.0..=5.0)];
            Vehicle {
                states,
                pos_offset0: e0,
                pos_error: e0,
                heading_error0: rng.gen_range(-20.0..=20.0),
                next_check: rng.gen_range(0.0..1.0),
                last_sent: None,
                alias: rng.gen_range(1_000_000..100_000_000),
                phase_ns: rng.gen_range(0..100_000_000),
                odometer: 0.0,
                change_at: rng.gen_range(800.0..=1500.0),
            }
        })
        .collect();
    let present = |v: &Vehicle| v.states.iter().filter(|s| s.is_some()).count() as f64 * cfg.step_s;
    let mut candidates: Vec<usize> = (0..vehicles.len())
        .filter(|&i| present(&vehicles[i]) >= cfg.min_presence_s)
        .collect();
    let mut receivers = Vec::new();
    while receivers.len() < cfg.max_receivers && !candidates.is_empty() {
        receivers.push(candidates.swap_remove(rng.gen_range(0..candidates.len())));
    }
    receivers.sort_unstable();
    let mut logs: Vec<ReceiverLog> = receivers
        .iter()
        .map(|&r| ReceiverLog {
            receiver: ids[r].clone(),
            messages: Vec::new(),
        })
        .collect();
    let loss = PathLoss::new(&PathLossConfig::default(), 5.9e9);
    let fading = Fading::new(&FadingConfig::default());
    let mut message_id = 0u64;
    for k in 0..steps {
        let t = k as f64 * cfg.step_s;
        for vi in 0..vehicles.len() {
            let v = &mut vehicles[vi];
            let Some((p, speed, heading, acc)) = v.states[k] else {
                v.last_sent = None;
                continue;
            };
            // Sensor errors (NextGen's model), updated every step.
            for a in 0..2 {
                let e0 = v.pos_offset0[a];
                let mu = (e0 + v.pos_error[a]) / 2.0;
                v.pos_error[a] = Normal::new(mu, (0.03 * e0).abs().max(1e-6))
                    .expect("finite")
                    .sample(&mut rng);
            }
            if k > 0 {
                if let Some((q, ..)) = v.states[k - 1] {
                    v.odometer += (p[0] - q[0]).hypot(p[1] - q[1]);
                }
            }
            if t + 1e-9 < v.next_check || t < cfg.start_s {
                continue;
            }
            let due = match v.last_sent {
                None => true,
                Some((ts, lp, lh, lv)) => {
                    let age = t - ts;
                    age + 1e-9 >= cfg.max_interval_s
                        || (age + 1e-9 >= cfg.min_interval_s
                            && ((p[0] - lp[0]).hypot(p[1] - lp[1]) > 4.0
                                || crate::geometry::heading_difference(heading, lh) > 4.0
                                || (speed - lv).abs() > 0.5))
                }
            };
            if !due {
                v.next_check = t + cfg.step_s;
                continue;
            }
            v.last_sent = Some((t, p, heading, speed));
            v.next_check = t + cfg.min_interval_s;
            if v.odometer >= v.change_at {
                v.alias = rng.gen_range(1_000_000..100_000_000);
                v.odometer = 0.0;
            }
            message_id += 1;
            let heading_error = v.heading_error0 * (-0.1 * speed).exp();
            let reported = [p[0] + v.pos_error[0], p[1] + v.pos_error[1]];
            let conf = v.pos_offset0[0].hypot(v.pos_offset0[1]) + 1.0;
            let sender = Kinematics {
                pos: [reported[0], reported[1], 0.0],
                pos_noise: [conf, 0.0, 0.0],
                spd: speed,
                spd_noise: 0.1,
                acl: acc,
                acl_noise: 0.1,
                hed: (heading + heading_error).rem_euclid(360.0),
                hed_noise: heading_error.abs() + 1.0,
                drivers_profile: "Normal".into(),
                distance_to_road_edge: None,
            };
            let (alias, send_ns) = (v.alias, (t * 1e9).round() as i64 + v.phase_ns);
            for (li, &r) in receivers.iter().enumerate() {
                if r == vi {
                    continue;
                }
                let Some((rp, rs, rh, ra)) = vehicles[r].states[k] else {
                    continue;
                };
                let d = (rp[0] - p[0]).hypot(rp[1] - p[1]);
                if d > 2000.0 {
                    continue;
                }
                let rx = cfg.tx_power_dbm - loss.loss_db(d) + 10.0 * fading.gain(d, &mut rng).max(1e-30).log10();
                if rx < cfg.threshold_dbm {
                    continue;
                }
                let rv = &vehicles[r];
                let rconf = rv.pos_offset0[0].hypot(rv.pos_offset0[1]) + 1.0;
                logs[li].messages.push(Message {
                    // Propagation plus the air time of a ~300-byte CAM at 6 Mb/s (0.45 ms).
                    rcv_time_ns: send_ns + (d / 299_792_458.0 * 1e9).round() as i64 + 450_000,
                    send_time_ns: send_ns,
                    sender_id: ids[vi].clone(),
                    sender_alias: alias,
                    message_id,
                    attacker: 0,
                    receiver: Kinematics {
                        pos: [rp[0] + rv.pos_error[0], rp[1] + rv.pos_error[1], 0.0],
                        pos_noise: [rconf, 0.0, 0.0],
                        spd: rs,
                        spd_noise: 0.1,
                        acl: ra,
                        acl_noise: 0.1,
                        hed: rh,
                        hed_noise: 1.0,
                        drivers_profile: "Normal".into(),
                        distance_to_road_edge: None,
                    },
                    sender: sender.clone(),
                });
            }
        }
    }
    for l in &mut logs {
        l.messages.sort_by_key(|m| (m.rcv_time_ns, m.message_id));
    }
    logs
}
