//! `[misbehaviour]` in `v2x sim` (issue 33): insiders that lie, receivers that detect on
//! what the simulated channel delivers, and a misbehaviour authority (MA) model that
//! revokes. The table's keys are the testbed's (`attack`, `attackers`, `start_s`,
//! `min_reporters`, `detector`, `seed`) plus the MA model's latencies; `v2x sim` wires
//! [`watcher_factory`] into `v2x_sim::run_watched`.
//!
//! How a run goes (every step in simulated time, on the engine's own events):
//!
//! - `attackers` vehicles, drawn from `seed` and the run's seed, hold valid pseudonym
//!   certificates; from `start_s` each CAM they generate goes through the attack's
//!   [`Liar`] (what it copies, it heard over the channel). Every CAM's content is the
//!   sender's true state at generation: position from the mobility model plus a constant
//!   GNSS bias per vehicle, speed, heading and acceleration from its successive positions
//!   (the mobility steps), declared confidences 1 m, 0.05 m/s, 1°, 1 m/s².
//! - Every receiver whose security layer verified a CAM runs the detector on it (on the
//!   nearest image of the sender on a ring road or torus), in the order the engine
//!   verified them; the first flagged message of a sender makes it report that sender
//!   once.
//! - The MA receives a report `report_latency_s` after it was sent; at `min_reporters`
//!   distinct reporters of a station it decides `decision_latency_s` later and revokes the
//!   station (all its pseudonyms, as a linkage-value CRL does); the CRL reaches every
//!   receiver `crl_latency_s` after the decision, and from then on receivers drop the
//!   station's messages before the detector.
//!
//! What the model leaves out, said in the report too: messages an attack adds (Sybil
//! phantoms, floods) ride on the attacker's real frame (same receivers, same reception),
//! so they add no load to the channel; reports and CRLs travel out of band (fixed
//! latencies, never lost); dropping a revoked sender does not spare the receiver's
//! verification work; receivers that never send a CAM (RSUs with `rsus_send = false`)
//! have no own position and run no detector (counted).

use crate::attacks::{Attack, Liar, Sent};
use crate::detector::{Detector, DetectorConfig};
use crate::eval::Counts;
use crate::message::Kinematics;
use crate::observation::{Observation, DEFAULT_LENGTH_M, DEFAULT_WIDTH_M};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, Normal};
use serde::{Deserialize, Serialize};
use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap, HashMap, VecDeque};
use std::sync::Arc;
use v2x_sim::engine::trace::{CamVerified, Observer};
use v2x_sim::node_id::NodeId;
use v2x_sim::{Scenario, ScenarioError, SimError, Watcher, WatcherFactory};

fn invalid(field: &str, message: impl Into<String>) -> ScenarioError {
    ScenarioError::invalid(field, message)
}

/// The `[misbehaviour]` table of a `v2x sim` scenario.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SimMisbehaviour {
    /// The lie, by `v2x-mbd`'s attack name (`constantPositionOffset`, `dataReplay`,
    /// `trafficCongestionSybil`, ...; an unknown name lists them).
    pub attack: String,
    /// Insider vehicles (each with valid certificates), default 1.
    #[serde(default = "one")]
    pub attackers: u32,
    /// The insiders tell the truth until then, s (at least the scenario's `warmup_s`:
    /// receivers count from the warm-up on).
    pub start_s: f64,
    /// Distinct reporters the MA waits for before it revokes. No default: it trades speed
    /// against one receiver's false report revoking a benign station.
    pub min_reporters: u32,
    /// The receivers' detector: `full` (default), `plausibility` or `catch-reference`.
    #[serde(default = "default_detector")]
    pub detector: String,
    /// Seed of the attackers' choice and draws, default 1 (the run's seed is added).
    #[serde(default = "one_u64")]
    pub seed: u64,
    /// From a receiver's report to its arrival at the MA, s. No default.
    pub report_latency_s: f64,
    /// From the MA's `min_reporters`-th report to its decision, s. No default.
    pub decision_latency_s: f64,
    /// From the decision to the CRL's arrival at every receiver, s. No default.
    pub crl_latency_s: f64,
}

fn one() -> u32 {
    1
}
fn one_u64() -> u64 {
    1
}
fn default_detector() -> String {
    "full".into()
}

impl SimMisbehaviour {
    /// The table of `sc`, if any, read and checked against the scenario.
    pub fn of(sc: &Scenario) -> Result<Option<SimMisbehaviour>, ScenarioError> {
        let Some(table) = &sc.misbehaviour else { return Ok(None) };
        let cfg: SimMisbehaviour = toml::Value::Table(table.clone())
            .try_into()
            .map_err(|e: toml::de::Error| invalid("misbehaviour", e.message().to_string()))?;
        cfg.check(sc)?;
        Ok(Some(cfg))
    }

    /// What runs but probably not as meant: insiders that never lie within the run (a
    /// `--duration` shorter than `start_s`).
    pub fn warnings(&self, sc: &Scenario) -> Vec<String> {
        if self.start_s >= sc.duration_s {
            vec![format!(
                "misbehaviour.start_s = {} s is not before duration_s = {} s: the insiders never lie",
                self.start_s, sc.duration_s
            )]
        } else {
            Vec::new()
        }
    }

    /// The attack its name names.
    pub fn attack(&self) -> Result<Attack, ScenarioError> {
        Attack::from_name(&self.attack).map_err(|e| invalid("misbehaviour.attack", e))
    }

    /// The receivers' detector configuration.
    pub fn detector(&self) -> Result<DetectorConfig, ScenarioError> {
        DetectorConfig::by_name(&self.detector).map_err(|e| invalid("misbehaviour.detector", e))
    }

    /// Checks every value against the scenario.
    pub fn check(&self, sc: &Scenario) -> Result<(), ScenarioError> {
        self.attack()?;
        self.detector()?;
        if !(1..=1000).contains(&self.attackers) {
            return Err(invalid(
                "misbehaviour.attackers",
                format!("must be in 1..=1000, got {}", self.attackers),
            ));
        }
        if !(self.start_s.is_finite() && self.start_s >= sc.warmup_s) {
            return Err(invalid(
                "misbehaviour.start_s",
                format!("must be at least warmup_s = {}, got {}", sc.warmup_s, self.start_s),
            ));
        }
        if !(1..=10_000).contains(&self.min_reporters) {
            return Err(invalid(
                "misbehaviour.min_reporters",
                format!("must be in 1..=10000, got {}", self.min_reporters),
            ));
        }
        for (field, v) in [
            ("misbehaviour.report_latency_s", self.report_latency_s),
            ("misbehaviour.decision_latency_s", self.decision_latency_s),
            ("misbehaviour.crl_latency_s", self.crl_latency_s),
        ] {
            if !(v.is_finite() && (0.0..=3600.0).contains(&v)) {
                return Err(invalid(field, format!("must be in [0, 3600] s, got {v}")));
            }
        }
        if !sc.cam.enabled {
            return Err(invalid("misbehaviour", "needs CAMs (`[cam] enabled = true`)"));
        }
        if sc
            .variants
            .iter()
            .any(|v| v.mode == v2x_sim::scenario::SecurityMode::RealCrypto)
        {
            return Err(invalid(
                "misbehaviour",
                "not with `mode = \"real-crypto\"` variants yet: their CAMs carry the stack's own content",
            ));
        }
        Ok(())
    }
}

/// Builds the watcher of each run of `sc`'s `[misbehaviour]`, checked first.
pub fn watcher_factory(sc: &Scenario, cfg: &SimMisbehaviour) -> Result<Box<WatcherFactory<'static>>, ScenarioError> {
    let settings = Arc::new(Settings {
        attack: cfg.attack()?,
        detector: cfg.detector()?,
        cfg: cfg.clone(),
        periods: sc.mobility.periods(),
        start_ns: ns(cfg.start_s),
    });
    Ok(Box::new(
        move |_: &v2x_sim::security::SecurityModel, seed: u64| -> Result<Box<dyn Watcher>, SimError> {
            Ok(Box::new(MisbehaviourWatcher::new(settings.clone(), seed)))
        },
    ))
}

fn ns(s: f64) -> u64 {
    v2x_sim::time::ns(s)
}

#[derive(Debug)]
struct Settings {
    cfg: SimMisbehaviour,
    attack: Attack,
    detector: DetectorConfig,
    periods: [Option<f64>; 2],
    start_ns: u64,
}

/// Declared confidences of every CAM: the content is the true state (no sensor error),
/// so a 1 m position confidence; speed, heading and acceleration as the testbed's
/// `passenger_car_cam`. (With 10 Hz CAMs, 5 m fails CaTCh's position consistency on honest
/// senders: two 5 m discs 0.1 s apart do not fit the 6.2 m a car can move.)
const POS_CONFIDENCE_M: f64 = 1.0;
const SPEED_CONFIDENCE: f64 = 0.05;
const HEADING_CONFIDENCE: f64 = 1.0;
const ACCELERATION_CONFIDENCE: f64 = 1.0;
/// A vehicle's GNSS bias, per axis (m, standard deviation; inside the declared 1 m), drawn
/// once per vehicle and run: two vehicles that pass the same spot at the same speed do
/// not send the same content to the centimetre, which the receiver evidence would take
/// for a replay. Constant, it leaves a sender's successive positions consistent.
const GNSS_BIAS_SD_M: f64 = 0.3;
/// CAMs whose content a station remembers (verification deadlines are far shorter).
const REMEMBERED: usize = 64;

/// A station's motion from its successive positions.
#[derive(Debug, Clone, Default)]
struct Track {
    /// Last position (as the mobility gives it) and its mobility step.
    last: Option<([f64; 2], u64)>,
    /// The position followed without wrapping around a ring or torus.
    unwrapped: [f64; 2],
    /// Its GNSS bias (m).
    bias: [f64; 2],
    /// Speed (m/s), heading (degrees from north), acceleration (m/s²), once known.
    motion: Option<(f64, f64, f64)>,
}

/// What one receiver knows.
#[derive(Debug)]
struct ReceiverState {
    detector: Detector,
    /// Stations it reported.
    reported: BTreeSet<u32>,
    /// Stations whose messages its detector examined, and those that lied in one.
    heard: BTreeSet<u32>,
    lied_to: BTreeSet<u32>,
}

/// An MA event: (time, kind (0 report arrives, 1 decision), station, reporter).
type MaEvent = Reverse<(u64, u8, u32, u32)>;

/// One attacker's timeline (ns) and what happened to its messages.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct AttackerOutcome {
    pub station: u32,
    pub first_lie_ns: Option<u64>,
    /// First report sent about it by any receiver.
    pub detected_ns: Option<u64>,
    /// The MA's decision.
    pub revoked_ns: Option<u64>,
    /// The CRL's arrival at the receivers.
    pub crl_ns: Option<u64>,
    pub reporters: u32,
    /// Its messages receivers accepted after the MA's decision (before the CRL came).
    pub accepted_after_revocation: u64,
    /// Its messages receivers dropped once the CRL had come.
    pub dropped_after_crl: u64,
}

/// What one run found.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RunOutcome {
    pub seed: u64,
    pub vehicles: u32,
    /// Every message a receiver's detector saw: truth = it lies, predicted = flagged.
    pub messages: Counts,
    /// Every (receiver, sender station) pair whose messages the receiver examined: truth =
    /// it got a lie from it, predicted = it reported it.
    pub senders: Counts,
    pub attackers: Vec<AttackerOutcome>,
    /// Benign stations reported by at least one receiver, and revoked.
    pub benign_reported: u32,
    pub benign_revoked: u32,
    /// Reports sent (all receivers, all stations).
    pub reports: u64,
    /// Verified CAMs whose receiver has no position (sends no CAM): not examined.
    pub unexamined_no_position: u64,
    /// Verified CAMs generated before their sender's motion was known (its first one).
    pub unexamined_first_cam: u64,
    /// Why the run could not be played as asked, if so.
    pub refused: Option<String>,
}

/// The watcher of one run.
pub struct MisbehaviourWatcher {
    s: Arc<Settings>,
    seed: u64,
    update_ns: u64,
    tracks: Vec<Track>,
    /// Per station: the content of its last CAMs (seq, what it sent).
    sent: Vec<VecDeque<(u32, Vec<Sent>)>>,
    is_attacker: Vec<bool>,
    liars: HashMap<u32, Liar>,
    /// The area the vehicles were seen in so far (where position attacks pick a place).
    bounds: [f64; 4],
    receivers: Vec<ReceiverState>,
    /// The stations behind every pseudonym sent (Sybil phantoms included): what the MA
    /// resolves a reported pseudonym to.
    owner: HashMap<u64, u32>,
    ma_queue: BinaryHeap<MaEvent>,
    ma_reporters: HashMap<u32, BTreeSet<u32>>,
    /// Station → (decision, CRL arrival).
    revoked: HashMap<u32, (u64, u64)>,
    /// Station → first report sent.
    first_report: HashMap<u32, u64>,
    first_lie: HashMap<u32, u64>,
    accepted_after: HashMap<u32, u64>,
    dropped_after: HashMap<u32, u64>,
    out: RunOutcome,
}

impl MisbehaviourWatcher {
    fn new(s: Arc<Settings>, seed: u64) -> MisbehaviourWatcher {
        MisbehaviourWatcher {
            s,
            seed,
            update_ns: u64::MAX,
            tracks: Vec::new(),
            sent: Vec::new(),
            is_attacker: Vec::new(),
            liars: HashMap::new(),
            bounds: [f64::INFINITY, f64::INFINITY, f64::NEG_INFINITY, f64::NEG_INFINITY],
            receivers: Vec::new(),
            owner: HashMap::new(),
            ma_queue: BinaryHeap::new(),
            ma_reporters: HashMap::new(),
            revoked: HashMap::new(),
            first_report: HashMap::new(),
            first_lie: HashMap::new(),
            accepted_after: HashMap::new(),
            dropped_after: HashMap::new(),
            out: RunOutcome {
                seed,
                ..RunOutcome::default()
            },
        }
    }

    /// `d` brought to its nearest image on a ring road or torus.
    fn nearest(&self, mut d: [f64; 2]) -> [f64; 2] {
        for (a, p) in self.s.periods.iter().enumerate() {
            if let Some(p) = p {
                d[a] -= p * (d[a] / p).round();
            }
        }
        d
    }

    /// Plays the MA's events due by `now`.
    fn ma_until(&mut self, now: u64) {
        let cfg = &self.s.cfg;
        while let Some(&Reverse((t, kind, station, reporter))) = self.ma_queue.peek() {
            if t > now {
                break;
            }
            self.ma_queue.pop();
            if kind == 0 {
                let reporters = self.ma_reporters.entry(station).or_default();
                reporters.insert(reporter);
                if reporters.len() == cfg.min_reporters as usize && !self.revoked.contains_key(&station) {
                    self.ma_queue
                        .push(Reverse((t + ns(cfg.decision_latency_s), 1, station, 0)));
                }
            } else {
                self.revoked.entry(station).or_insert((t, t + ns(cfg.crl_latency_s)));
            }
        }
    }

    fn observation(&self, s: &Sent, reception_ns: u64, receiver: [f64; 2], receiver_raw: [f64; 2]) -> Observation {
        let d = self.nearest([s.sender.pos[0] - receiver_raw[0], s.sender.pos[1] - receiver_raw[1]]);
        Observation {
            pseudonym: s.alias,
            certificate: Some(s.alias.to_be_bytes()),
            generation_time_s: s.send_time_ns as f64 * 1e-9,
            reception_time_s: reception_ns as f64 * 1e-9,
            position: [receiver[0] + d[0], receiver[1] + d[1]],
            position_confidence_m: s.sender.pos_noise[0].abs(),
            speed_mps: s.sender.spd,
            speed_confidence_mps: s.sender.spd_noise.abs(),
            heading_deg: s.sender.hed,
            heading_confidence_deg: s.sender.hed_noise.abs(),
            acceleration_mps2: s.sender.acl,
            acceleration_confidence_mps2: s.sender.acl_noise.abs(),
            yaw_rate_dps: None,
            length_m: DEFAULT_LENGTH_M,
            width_m: DEFAULT_WIDTH_M,
            receiver_position: receiver,
            receiver_position_confidence_m: POS_CONFIDENCE_M,
            distance_to_road_edge_m: None,
        }
    }
}

impl Observer for MisbehaviourWatcher {
    fn run_started(&mut self, vehicles: usize, stations: usize, cutoff_m: f64, update_interval_s: f64) {
        let cfg = &self.s.cfg;
        self.update_ns = if update_interval_s.is_finite() {
            ns(update_interval_s).max(1)
        } else {
            u64::MAX
        };
        self.tracks = vec![Track::default(); stations];
        self.sent = vec![VecDeque::new(); stations];
        self.is_attacker = vec![false; stations];
        self.out.vehicles = vehicles as u32;
        let mut detector = self.s.detector.clone();
        if cfg.detector == "full" {
            // The range check at the reach of this run's radios: its cutoff range.
            detector.thresholds.max_plausible_range_m = cutoff_m;
        }
        self.receivers = (0..stations)
            .map(|_| ReceiverState {
                detector: Detector::new(detector.clone()),
                reported: BTreeSet::new(),
                heard: BTreeSet::new(),
                lied_to: BTreeSet::new(),
            })
            .collect();
        if cfg.attackers as usize >= vehicles {
            self.out.refused = Some(format!(
                "misbehaviour.attackers = {} needs more vehicles than that (the run has {vehicles})",
                cfg.attackers
            ));
            return;
        }
        let mut rng = ChaCha8Rng::seed_from_u64(cfg.seed.wrapping_mul(1_000_003).wrapping_add(self.seed));
        let ids: Vec<u32> = (0..vehicles as u32).collect();
        for &a in ids.choose_multiple(&mut rng, cfg.attackers as usize) {
            self.is_attacker[a as usize] = true;
        }
    }

    fn cam_sent(&mut self, src: NodeId, seq: u32, gen_ns: u64, pos: [f64; 2]) {
        let i = src.index();
        let Some(track) = self.tracks.get(i) else { return };
        let step = if self.update_ns == u64::MAX {
            0
        } else {
            gen_ns / self.update_ns
        };
        let mut track = track.clone();
        match track.last {
            None => {
                track.unwrapped = pos;
                let mut rng = ChaCha8Rng::seed_from_u64(self.seed ^ 0x6e55);
                rng.set_stream(i as u64);
                let bias = Normal::new(0.0, GNSS_BIAS_SD_M).expect("a positive deviation");
                track.bias = [bias.sample(&mut rng), bias.sample(&mut rng)];
            }
            Some((last, last_step)) if step > last_step => {
                let d = self.nearest([pos[0] - last[0], pos[1] - last[1]]);
                let dt = (step - last_step) as f64 * self.update_ns as f64 * 1e-9;
                let speed = d[0].hypot(d[1]) / dt;
                let (heading, acceleration) = match track.motion {
                    Some((v0, h0, _)) => (
                        if speed > 0.05 {
                            crate::geometry::heading_of(d)
                        } else {
                            h0
                        },
                        (speed - v0) / dt,
                    ),
                    None => (crate::geometry::heading_of(d), 0.0),
                };
                track.unwrapped = [track.unwrapped[0] + d[0], track.unwrapped[1] + d[1]];
                track.motion = Some((speed, heading, acceleration));
            }
            // A static station: it stands still.
            Some(_) if self.update_ns == u64::MAX => track.motion = Some((0.0, 0.0, 0.0)),
            Some(_) => {}
        }
        track.last = Some((pos, step));
        let (motion, bias) = (track.motion, track.bias);
        self.tracks[i] = track;
        self.bounds = [
            self.bounds[0].min(pos[0]),
            self.bounds[1].min(pos[1]),
            self.bounds[2].max(pos[0]),
            self.bounds[3].max(pos[1]),
        ];
        let Some((speed, heading, acceleration)) = motion else {
            return;
        };
        let reported = [pos[0] + bias[0], pos[1] + bias[1]];
        let mut state = Kinematics::at(reported, speed, heading, acceleration);
        state.pos_noise = [POS_CONFIDENCE_M, POS_CONFIDENCE_M, 0.0];
        state.spd_noise = SPEED_CONFIDENCE;
        state.hed_noise = HEADING_CONFIDENCE;
        state.acl_noise = ACCELERATION_CONFIDENCE;
        let own = Sent {
            send_time_ns: gen_ns as i64,
            sender_id: i.to_string(),
            alias: i as u64 + 1,
            message_id: u64::from(seq),
            attacker: 0,
            sender: state,
        };
        let content = if self.is_attacker[i] && gen_ns >= self.s.start_ns {
            let (attack, seed, bounds) = (&self.s.attack, self.s.cfg.seed, self.bounds);
            let run_seed = self.seed;
            let liar = self
                .liars
                .entry(i as u32)
                .or_insert_with(|| Liar::new(attack.clone(), seed.wrapping_add(1000 * run_seed) + i as u64, bounds));
            liar.transmit(&own)
        } else {
            vec![own]
        };
        for s in &content {
            self.owner.insert(s.alias, i as u32);
            if s.attacker != 0 {
                self.first_lie.entry(i as u32).or_insert(gen_ns);
            }
        }
        let ring = &mut self.sent[i];
        if ring.len() == REMEMBERED {
            ring.pop_front();
        }
        ring.push_back((seq, content));
    }

    fn cam_verified(&mut self, v: CamVerified) {
        let now = v.gen_ns + v.e2e_ns;
        self.ma_until(now);
        let (src, dst) = (v.src.index(), v.dst.index());
        let Some(content) = self
            .sent
            .get(src)
            .and_then(|r| r.iter().rev().find(|(seq, _)| *seq == v.seq))
            .map(|(_, c)| c.clone())
        else {
            self.out.unexamined_first_cam += 1;
            return;
        };
        if let Some(liar) = self.liars.get_mut(&(dst as u32)) {
            for s in &content {
                liar.hear(s.clone());
            }
        }
        let station = src as u32;
        if let Some(&(decided, crl)) = self.revoked.get(&station) {
            if now >= crl {
                *self.dropped_after.entry(station).or_default() += 1;
                return;
            }
            if now >= decided {
                *self.accepted_after.entry(station).or_default() += 1;
            }
        }
        let (Some((raw, _)), Some(_)) = (self.tracks[dst].last, self.tracks[dst].motion) else {
            self.out.unexamined_no_position += 1;
            return;
        };
        let here = self.tracks[dst].unwrapped;
        let observations: Vec<(Observation, bool)> = content
            .iter()
            .map(|s| {
                let shift = s.send_time_ns - v.gen_ns as i64;
                (
                    self.observation(s, (now as i64 + shift).max(0) as u64, here, raw),
                    s.attacker != 0,
                )
            })
            .collect();
        let Some(rx) = self.receivers.get_mut(dst) else {
            return;
        };
        let mut report = false;
        rx.heard.insert(station);
        for (o, lies) in observations {
            let verdict = rx.detector.observe(&o);
            self.out.messages.add(lies, verdict.flagged);
            if lies {
                rx.lied_to.insert(station);
            }
            if verdict.flagged && rx.reported.insert(station) {
                report = true;
            }
        }
        if report {
            self.out.reports += 1;
            self.first_report.entry(station).or_insert(now);
            self.ma_queue
                .push(Reverse((now + ns(self.s.cfg.report_latency_s), 0, station, dst as u32)));
        }
    }
}

impl Watcher for MisbehaviourWatcher {
    fn finish(mut self: Box<Self>, end_ns: u64) -> serde_json::Value {
        self.ma_until(end_ns);
        let stations = self.tracks.len() as u32;
        for rx in &self.receivers {
            for station in rx.heard.union(&rx.reported) {
                self.out
                    .senders
                    .add(rx.lied_to.contains(station), rx.reported.contains(station));
            }
        }
        for station in 0..stations {
            let reported = self.first_report.contains_key(&station);
            let revoked = self.revoked.get(&station);
            if self.is_attacker[station as usize] {
                self.out.attackers.push(AttackerOutcome {
                    station,
                    first_lie_ns: self.first_lie.get(&station).copied(),
                    detected_ns: self.first_report.get(&station).copied(),
                    revoked_ns: revoked.map(|r| r.0),
                    crl_ns: revoked.map(|r| r.1),
                    reporters: self.ma_reporters.get(&station).map_or(0, |r| r.len() as u32),
                    accepted_after_revocation: self.accepted_after.get(&station).copied().unwrap_or(0),
                    dropped_after_crl: self.dropped_after.get(&station).copied().unwrap_or(0),
                });
            } else {
                self.out.benign_reported += u32::from(reported);
                self.out.benign_revoked += u32::from(revoked.is_some());
            }
        }
        serde_json::to_value(&self.out).unwrap_or(serde_json::Value::Null)
    }
}

/// A mean with the half-width of its 95 % interval (Student's t over the samples), and
/// how many samples it is over.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Estimate {
    pub mean: Option<f64>,
    pub half_width: Option<f64>,
    pub n: usize,
}

impl Estimate {
    pub fn of(samples: &[f64]) -> Estimate {
        let (m, h) = v2x_sim::output::mean_ci(samples);
        let finite = |x: f64| x.is_finite().then_some(x);
        Estimate {
            mean: finite(m),
            half_width: finite(h),
            n: samples.iter().filter(|x| x.is_finite()).count(),
        }
    }

    fn show(&self, digits: usize) -> String {
        match (self.mean, self.half_width) {
            (Some(m), Some(h)) => format!("{m:.digits$} ± {h:.digits$}"),
            (Some(m), None) => format!("{m:.digits$}"),
            _ => "-".into(),
        }
    }
}

/// Precision, recall and F1 over runs (seeds).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Scores {
    pub precision: Estimate,
    pub recall: Estimate,
    pub f1: Estimate,
    /// All runs' counts together.
    pub pooled: Counts,
}

impl Scores {
    fn of(counts: &[Counts]) -> Scores {
        let mut pooled = Counts::default();
        for c in counts {
            pooled.plus(c);
        }
        let over = |f: fn(&Counts) -> f64| Estimate::of(&counts.iter().map(f).collect::<Vec<_>>());
        Scores {
            precision: over(Counts::precision),
            recall: over(Counts::recall),
            f1: over(Counts::f1),
            pooled,
        }
    }
}

/// One variant's runs summarised: what `summary.json` and the text report carry.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    pub variant: String,
    pub runs: usize,
    /// Per message (intervals over runs).
    pub per_message: Scores,
    /// Per (receiver, sender) pair (intervals over runs).
    pub per_sender: Scores,
    pub attackers: usize,
    pub attackers_detected: usize,
    pub attackers_revoked: usize,
    /// From an attacker's first lie to its first report, its revocation (the MA's
    /// decision) and the CRL's arrival at the receivers, s (over attackers of all runs;
    /// attackers never detected or revoked are not in them, see the counts).
    pub first_lie_to_detection_s: Estimate,
    pub first_lie_to_revocation_s: Estimate,
    pub first_lie_to_crl_s: Estimate,
    /// An attacker's messages receivers accepted after its revocation (before the CRL
    /// reached them), per revoked attacker; and those dropped once it had.
    pub insider_accepted_after_revocation: Estimate,
    pub insider_dropped_after_crl: u64,
    /// Benign stations reported by a receiver, and revoked, per run.
    pub benign_reported: Estimate,
    pub benign_revoked: Estimate,
    pub unexamined_no_position: u64,
    pub unexamined_first_cam: u64,
    /// Every run as it came.
    pub by_run: Vec<RunOutcome>,
}

/// What the model leaves out (in the report beside the figures).
pub const SIMPLIFICATIONS: [&str; 4] = [
    "messages an attack adds (Sybil phantoms, floods) ride on the attacker's real frame: same receivers, no extra channel load",
    "reports and CRLs travel out of band with the fixed latencies, never lost",
    "a revoked sender's CAMs are still verified before being dropped (no verification work spared)",
    "CAM content is the true state with a constant GNSS bias per vehicle (0.3 m per axis): a vehicle standing still repeats its content exactly, which the full detector's duplicate-content evidence reads as a replay; receivers that send no CAM run no detector",
];

impl Summary {
    /// Reads the watchers' outputs of one variant.
    pub fn of(variant: &str, outputs: &[serde_json::Value]) -> Result<Summary, String> {
        let runs: Vec<RunOutcome> = outputs
            .iter()
            .map(|v| serde_json::from_value(v.clone()).map_err(|e| e.to_string()))
            .collect::<Result<_, _>>()?;
        if let Some(why) = runs.iter().find_map(|r| r.refused.clone()) {
            return Err(why);
        }
        let attackers: Vec<&AttackerOutcome> = runs.iter().flat_map(|r| &r.attackers).collect();
        let since_lie = |f: fn(&AttackerOutcome) -> Option<u64>| {
            let v: Vec<f64> = attackers
                .iter()
                .filter_map(|a| Some((f(a)?.checked_sub(a.first_lie_ns?)?) as f64 * 1e-9))
                .collect();
            Estimate::of(&v)
        };
        let per_run = |f: fn(&RunOutcome) -> f64| Estimate::of(&runs.iter().map(f).collect::<Vec<_>>());
        Ok(Summary {
            variant: variant.to_string(),
            runs: runs.len(),
            per_message: Scores::of(&runs.iter().map(|r| r.messages).collect::<Vec<_>>()),
            per_sender: Scores::of(&runs.iter().map(|r| r.senders).collect::<Vec<_>>()),
            attackers: attackers.len(),
            attackers_detected: attackers.iter().filter(|a| a.detected_ns.is_some()).count(),
            attackers_revoked: attackers.iter().filter(|a| a.revoked_ns.is_some()).count(),
            first_lie_to_detection_s: since_lie(|a| a.detected_ns),
            first_lie_to_revocation_s: since_lie(|a| a.revoked_ns),
            first_lie_to_crl_s: since_lie(|a| a.crl_ns),
            insider_accepted_after_revocation: Estimate::of(
                &attackers
                    .iter()
                    .filter(|a| a.revoked_ns.is_some())
                    .map(|a| a.accepted_after_revocation as f64)
                    .collect::<Vec<_>>(),
            ),
            insider_dropped_after_crl: attackers.iter().map(|a| a.dropped_after_crl).sum(),
            benign_reported: per_run(|r| f64::from(r.benign_reported)),
            benign_revoked: per_run(|r| f64::from(r.benign_revoked)),
            unexamined_no_position: runs.iter().map(|r| r.unexamined_no_position).sum(),
            unexamined_first_cam: runs.iter().map(|r| r.unexamined_first_cam).sum(),
            by_run: runs,
        })
    }

    /// The text report of one variant.
    pub fn text(&self, cfg: &SimMisbehaviour) -> String {
        let mut t = String::new();
        let mut line = |s: String| {
            t.push_str(&s);
            t.push('\n');
        };
        line(format!(
            "misbehaviour, variant {}: attack {}, {} attacker(s) from {} s, detector {}, seed {}; MA: min_reporters {}, report latency {} s, decision latency {} s, CRL latency {} s; {} run(s) (mean ± half-width of the 95 % interval over runs)",
            self.variant,
            cfg.attack,
            cfg.attackers,
            cfg.start_s,
            cfg.detector,
            cfg.seed,
            cfg.min_reporters,
            cfg.report_latency_s,
            cfg.decision_latency_s,
            cfg.crl_latency_s,
            self.runs
        ));
        for (what, s) in [("per message", &self.per_message), ("per sender", &self.per_sender)] {
            line(format!(
                "  {what:<11} precision {}  recall {}  F1 {}  (tp {} fp {} fn {} tn {})",
                s.precision.show(3),
                s.recall.show(3),
                s.f1.show(3),
                s.pooled.tp,
                s.pooled.fp,
                s.pooled.fn_,
                s.pooled.tn
            ));
        }
        line(format!(
            "  attackers {}: detected {}, revoked {}; from the first lie to detection {} s, to revocation {} s, to the CRL {} s (over attackers)",
            self.attackers,
            self.attackers_detected,
            self.attackers_revoked,
            self.first_lie_to_detection_s.show(3),
            self.first_lie_to_revocation_s.show(2),
            self.first_lie_to_crl_s.show(2)
        ));
        line(format!(
            "  insider messages accepted after revocation {} per revoked attacker, dropped after the CRL {}; benign stations reported {} and revoked {} per run",
            self.insider_accepted_after_revocation.show(1),
            self.insider_dropped_after_crl,
            self.benign_reported.show(2),
            self.benign_revoked.show(2)
        ));
        if self.unexamined_no_position > 0 {
            line(format!(
                "  {} verified CAMs not examined: their receiver sends no CAM (no own position)",
                self.unexamined_no_position
            ));
        }
        t
    }
}
