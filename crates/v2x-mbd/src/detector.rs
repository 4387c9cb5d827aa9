//! The detector a receiver runs: per-sender state (last message, Kalman track, recent
//! verdicts), the checks of one family, the receiver evidence, and fusion into a verdict.
//!
//! Fusion, in increasing reach:
//! - threshold: a message is flagged when any enabled check scores below 0.5 (what
//!   VeReMi NextGen's reference systems do);
//! - aggregation: a message is flagged when the mean of its sender's last `window` worst
//!   scores is below 0.5 (F2MD's aggregation application);
//! - behavioural (sender-level): a sender (certificate digest, else pseudonym) with
//!   `min_flags` messages within `window_s` that fail clearly (below `clear_below`) a check
//!   attributable to it ([`CheckId::is_attributable`]: not an overlap with another sender,
//!   not a sudden appearance), or whose messages fail such checks persistently, is convicted: its messages are flagged for `hold_s`, and its earlier
//!   messages within `lookback_s` are flagged retroactively (the verdict's `retro`; a
//!   report to the authority is made after the fact anyway). A message is flagged when its
//!   sender is convicted or it fails an attributable check clearly: a replay convicts the replaying
//!   pseudonym, never the sender whose content it copied.

use crate::checks::kalman::Track;
use crate::checks::{catch, legacy, CheckId, Family, Scores, Thresholds};
use crate::evidence::{Evidence, EvidenceConfig};
use crate::geometry::distance;
use crate::observation::Observation;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, VecDeque};

/// How checks combine into a verdict.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Fusion {
    Threshold,
    Aggregation {
        window: usize,
    },
    Behavioural {
        min_flags: usize,
        window_s: f64,
        hold_s: f64,
        lookback_s: f64,
        /// A check failure counts against the sender only below this score (a clear
        /// failure); CaTCh scores an honest claim whose point estimate sits just past a
        /// bound near 0.5.
        clear_below: f64,
        /// Or when at least `persistent_min` of its messages within `window_s`, and at
        /// least `persistent_share` of them, fail (below 0.5) an attributable check: a
        /// small lie kept up (a speed offset) against an honest sender's occasional
        /// borderline failure.
        persistent_min: usize,
        persistent_share: f64,
    },
}

impl Fusion {
    /// Sender-level fusion as evaluated in docs/misbehaviour-detection.md: two clear
    /// failures (below 0.25: at most a quarter of the confidence region plausible), or four
    /// failures making at least half of the sender's messages, within 5 s convict for 10 s
    /// and flag the previous 1 s.
    pub const BEHAVIOURAL: Fusion = Fusion::Behavioural {
        min_flags: 2,
        window_s: 5.0,
        hold_s: 10.0,
        lookback_s: 1.0,
        clear_below: 0.25,
        persistent_min: 4,
        persistent_share: 0.5,
    };
}

/// Everything a detector is configured with.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DetectorConfig {
    pub family: Family,
    pub thresholds: Thresholds,
    /// Checks that take part in the verdict (all others still score, for the record).
    pub enabled: Vec<CheckId>,
    /// Receiver evidence; `None` for plausibility checks only.
    pub evidence: Option<EvidenceConfig>,
    pub fusion: Fusion,
}

/// The detectors a receiver can run, by the name scenarios give them (`v2x sim`'s and
/// `v2x testbed`'s `[misbehaviour] detector`).
pub const DETECTOR_NAMES: [&str; 3] = ["full", "plausibility", "catch-reference"];

impl DetectorConfig {
    /// The detector `name` names ([`DETECTOR_NAMES`], CaTCh family); an unknown name lists
    /// the valid ones.
    pub fn by_name(name: &str) -> Result<DetectorConfig, String> {
        match name {
            "full" => Ok(DetectorConfig::full(Family::Catch)),
            "plausibility" => Ok(DetectorConfig::plausibility(Family::Catch)),
            "catch-reference" => Ok(DetectorConfig::catch_reference()),
            other => Err(format!(
                "unknown detector `{other}`; valid: {}",
                DETECTOR_NAMES.join(", ")
            )),
        }
    }

    /// The CaTCh checks VeReMi NextGen's reference system runs, threshold fusion.
    pub fn catch_reference() -> DetectorConfig {
        DetectorConfig {
            family: Family::Catch,
            thresholds: Thresholds::default(),
            enabled: vec![
                CheckId::Range,
                CheckId::PositionPlausibility,
                CheckId::SpeedPlausibility,
                CheckId::PositionConsistency,
                CheckId::SpeedConsistency,
                CheckId::PositionSpeedConsistency,
                CheckId::PositionHeadingConsistency,
                CheckId::Intersection,
            ],
            evidence: None,
            fusion: Fusion::Threshold,
        }
    }

    /// Every plausibility check of the family (with beacon frequency, sudden appearance
    /// and the Kalman filter), threshold fusion.
    pub fn plausibility(family: Family) -> DetectorConfig {
        DetectorConfig {
            family,
            thresholds: Thresholds::default(),
            enabled: CheckId::ALL.into_iter().filter(|c| c.is_plausibility()).collect(),
            evidence: None,
            fusion: Fusion::Threshold,
        }
    }

    /// Plausibility checks with the receiver evidence and sender-level fusion, the range
    /// check at the reach of the radios (`v2x-sim`'s channel, the export's 20 dBm and
    /// −82 dBm, reception probability 10⁻⁴: [`Thresholds::radio_reach_m`]).
    pub fn full(family: Family) -> DetectorConfig {
        let radio = crate::export::ExportConfig::default();
        DetectorConfig {
            thresholds: Thresholds {
                max_plausible_range_m: Thresholds::radio_reach_m(radio.tx_power_dbm, radio.threshold_dbm, 1e-4),
                ..Thresholds::default()
            },
            enabled: CheckId::ALL.to_vec(),
            evidence: Some(EvidenceConfig::default()),
            fusion: Fusion::BEHAVIOURAL,
            ..DetectorConfig::plausibility(family)
        }
    }
}

/// The verdict on one message.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    /// The message's index (its position in the order [`Detector::observe`] saw it).
    pub index: usize,
    pub scores: Scores,
    pub flagged: bool,
    /// Enabled checks below 0.5, and the fusion's own reasons.
    pub reasons: Vec<CheckId>,
    /// Earlier messages this one's evidence or fusion flags as well.
    pub retro: Vec<usize>,
}

/// One of a sender's recent messages, as sender-level fusion remembers it.
#[derive(Debug, Clone, Copy)]
struct Recent {
    time_s: f64,
    index: usize,
    /// Fails an attributable check clearly.
    clear: bool,
    /// Fails an attributable check (below 0.5).
    failing: bool,
}

#[derive(Debug)]
struct SenderState {
    last: Observation,
    track: Track,
    recent: VecDeque<Recent>,
    worst: VecDeque<f64>,
    convicted_until: f64,
}

/// One receiver's detector.
#[derive(Debug)]
pub struct Detector {
    config: DetectorConfig,
    enabled: [bool; CheckId::ALL.len()],
    senders: HashMap<u64, SenderState>,
    evidence: Option<Evidence>,
    /// Check evaluations so far (the benchmark's unit).
    pub evaluations: u64,
    next_index: usize,
    last_sweep: f64,
}

fn sender_key(o: &Observation) -> u64 {
    o.certificate.map_or(o.pseudonym, u64::from_be_bytes)
}

impl Detector {
    pub fn new(config: DetectorConfig) -> Detector {
        let mut enabled = [false; CheckId::ALL.len()];
        for c in &config.enabled {
            enabled[*c as usize] = true;
        }
        Detector {
            evidence: config.evidence.map(Evidence::new),
            config,
            enabled,
            senders: HashMap::new(),
            evaluations: 0,
            next_index: 0,
            last_sweep: f64::NEG_INFINITY,
        }
    }

    pub fn config(&self) -> &DetectorConfig {
        &self.config
    }

    /// Checks `o` (messages in reception order) and remembers it.
    pub fn observe(&mut self, o: &Observation) -> Verdict {
        let index = self.next_index;
        self.next_index += 1;
        let t = &self.config.thresholds;
        let catch = self.config.family == Family::Catch;
        let mut s = Scores::default();
        let mut n = 0u64;
        let mut run = |s: &mut Scores, c: CheckId, v: f64| {
            s.set(c, v);
            n += 1;
        };
        run(
            &mut s,
            CheckId::Range,
            if catch { catch::range(o, t) } else { legacy::range(o, t) },
        );
        run(
            &mut s,
            CheckId::PositionPlausibility,
            if catch {
                catch::position_plausibility(o, t)
            } else {
                legacy::position_plausibility(o, t)
            },
        );
        run(
            &mut s,
            CheckId::SpeedPlausibility,
            if catch {
                catch::speed_plausibility(o, t)
            } else {
                legacy::speed_plausibility(o, t)
            },
        );
        let key = sender_key(o);
        let prev = self.senders.get(&key);
        let new_pseudonym = prev.is_none();
        match prev {
            Some(p) if o.reception_time_s - p.last.reception_time_s <= t.max_sa_time_s => {
                let prev = &p.last;
                let dt = o.generation_time_s - prev.generation_time_s;
                if catch {
                    run(
                        &mut s,
                        CheckId::PositionConsistency,
                        catch::position_consistency(o, prev, dt, t),
                    );
                    run(
                        &mut s,
                        CheckId::SpeedConsistency,
                        catch::speed_consistency(o, prev, dt, t),
                    );
                    run(
                        &mut s,
                        CheckId::PositionSpeedConsistency,
                        catch::position_speed_consistency(o, prev, dt, t),
                    );
                    run(
                        &mut s,
                        CheckId::PositionHeadingConsistency,
                        catch::position_heading_consistency(o, prev, dt, t),
                    );
                    run(
                        &mut s,
                        CheckId::AccelerationConsistency,
                        catch::acceleration_consistency(o, prev, dt, t),
                    );
                    run(&mut s, CheckId::BeaconFrequency, catch::beacon_frequency(dt, t));
                } else {
                    run(
                        &mut s,
                        CheckId::PositionConsistency,
                        legacy::position_consistency(o, prev, dt, t),
                    );
                    run(
                        &mut s,
                        CheckId::SpeedConsistency,
                        legacy::speed_consistency(o, prev, dt, t),
                    );
                    run(
                        &mut s,
                        CheckId::PositionSpeedConsistency,
                        legacy::position_speed_consistency(o, prev, dt, t),
                    );
                    run(
                        &mut s,
                        CheckId::PositionHeadingConsistency,
                        legacy::position_heading_consistency(o, prev, dt, t),
                    );
                    run(
                        &mut s,
                        CheckId::AccelerationConsistency,
                        legacy::acceleration_consistency(o, prev, dt, t),
                    );
                    run(&mut s, CheckId::BeaconFrequency, legacy::beacon_frequency(dt, t));
                }
            }
            _ => run(
                &mut s,
                CheckId::SuddenAppearance,
                if catch {
                    catch::sudden_appearance(o, t)
                } else {
                    legacy::sudden_appearance(o, t)
                },
            ),
        }
        // Overlap with the other senders' latest messages (close in space and time).
        let mut worst_overlap: f64 = 1.0;
        for (k, other) in &self.senders {
            let b = &other.last;
            let age = o.reception_time_s - b.reception_time_s;
            if *k == key || age > t.max_delta_intersection_s || distance(o.position, b.position) > 20.0 {
                continue;
            }
            let dt = o.generation_time_s - b.generation_time_s;
            let v = if catch {
                catch::intersection(o, b, dt, t)
            } else {
                legacy::intersection(o, b, dt, t)
            };
            n += 1;
            worst_overlap = worst_overlap.min(v);
        }
        s.set(CheckId::Intersection, worst_overlap);
        let mut retro = Vec::new();
        if let Some(e) = &mut self.evidence {
            let f = e.observe(o, index, new_pseudonym);
            n += 3;
            if f.replayed {
                s.set(CheckId::ContentReplay, 0.0);
            }
            if f.duplicated {
                s.set(CheckId::DuplicateContent, 0.0);
            }
            if !f.co_located_with.is_empty() {
                s.set(CheckId::CoLocatedPseudonyms, 0.0);
                retro.extend(f.co_located_with);
            }
        }
        // Kalman track and sender state.
        let state = match self.senders.get_mut(&key) {
            Some(st) if o.reception_time_s - st.last.reception_time_s <= t.max_time_delta_s => {
                let k = st.track.update(o, t);
                s.set(CheckId::KalmanPosition, k.position);
                s.set(CheckId::KalmanVelocity, k.velocity);
                n += 2;
                st.last = *o;
                st
            }
            _ => {
                let st = SenderState {
                    last: *o,
                    track: Track::start(o),
                    recent: VecDeque::new(),
                    worst: VecDeque::new(),
                    convicted_until: f64::NEG_INFINITY,
                };
                self.senders.insert(key, st);
                self.senders.get_mut(&key).expect("just inserted")
            }
        };
        let reasons: Vec<CheckId> = s.failing(0.5).filter(|c| self.enabled[*c as usize]).collect();
        let mut flagged = !reasons.is_empty();
        let now = o.reception_time_s;
        match self.config.fusion {
            Fusion::Threshold => {}
            Fusion::Aggregation { window } => {
                let worst = CheckId::ALL
                    .into_iter()
                    .filter(|c| self.enabled[*c as usize])
                    .map(|c| s.get(c))
                    .fold(1.0, f64::min);
                state.worst.push_back(worst);
                while state.worst.len() > window.max(1) {
                    state.worst.pop_front();
                }
                flagged = state.worst.iter().sum::<f64>() / (state.worst.len() as f64) < 0.5;
            }
            Fusion::Behavioural {
                min_flags,
                window_s,
                hold_s,
                lookback_s,
                clear_below,
                persistent_min,
                persistent_share,
            } => {
                while state
                    .recent
                    .front()
                    .is_some_and(|r| r.time_s + window_s.max(lookback_s) < now)
                {
                    state.recent.pop_front();
                }
                // Only failures attributable to this sender count against it.
                let mine = || reasons.iter().filter(|c| c.is_attributable());
                let clear = mine().any(|c| c.convicts_alone() && s.get(*c) < clear_below);
                flagged = clear;
                state.recent.push_back(Recent {
                    time_s: now,
                    index,
                    clear,
                    failing: mine().next().is_some(),
                });
                let window = || state.recent.iter().filter(|r| r.time_s + window_s >= now);
                let failing = window().filter(|r| r.failing).count();
                let persistent =
                    failing >= persistent_min.max(1) && failing as f64 >= persistent_share * window().count() as f64;
                if window().filter(|r| r.clear).count() >= min_flags.max(1) || persistent {
                    if state.convicted_until < now {
                        retro.extend(
                            state
                                .recent
                                .iter()
                                .filter(|r| !r.clear && r.time_s + lookback_s >= now)
                                .map(|r| r.index),
                        );
                    }
                    state.convicted_until = now + hold_s;
                }
                if state.convicted_until >= now {
                    flagged = true;
                }
            }
        }
        if !retro.is_empty() {
            flagged = true;
        }
        // Forget senders silent for longer than any check looks back.
        if now - self.last_sweep > 10.0 {
            let horizon = t.max_time_delta_s.max(t.max_delta_intersection_s).max(t.max_sa_time_s) + 30.0;
            self.senders
                .retain(|_, st| now - st.last.reception_time_s < horizon || st.convicted_until >= now);
            self.last_sweep = now;
        }
        self.evaluations += n;
        Verdict {
            index,
            scores: s,
            flagged,
            reasons,
            retro,
        }
    }
}
