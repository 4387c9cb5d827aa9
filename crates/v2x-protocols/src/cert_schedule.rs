//! When a sender attaches its full certificate instead of a digest: the certificate
//! schedules beside each other as one sender policy, and a unit-level measure of what each
//! costs in certificate bytes and in unknown-signer losses.
//!
//! | `schedule =` | the certificate goes out |
//! |---|---|
//! | `once-per-second` | when none went out in the last second (SAE J2945/1; the ETSI CAM rule without its new-station clause) |
//! | `p2pcd` | only when a receiver asked for it (IEEE 1609.2 peer-to-peer certificate distribution: an unknown digest makes the receiver ask in its next message) |
//! | `etsi-cam` | once a second, when a new station is heard, and when asked (what the `v2x-security` CAM profile does) |
//! | `adaptive` | when a station not heard at the last certificate appears, and when asked; never on a timer |
//!
//! `adaptive` is v2xsec's reading of the adaptive scheduling of Twardokus, Bindel, Rahbari and
//! McCarthy (NDSS 2024, ePrint 2022/483): their abstract says that certificates are "up to 93%
//! redundant" and that the schedule "learns to adaptively reduce the use of radio spectrum";
//! the paper's own algorithm could not be read here, so this rule (send when the neighbour set
//! gained a member, or on request) is ours and is named as such in every report.
//!
//! The measure ([`evaluate`]) is a seeded model of one sender and the neighbours passing it:
//! arrivals are a Poisson process, each stays an exponential time, every broadcast reaches each
//! neighbour (and each neighbour's broadcast reaches the sender) with probability `delivery`;
//! a neighbour holds the certificate once a certificate-bearing message reached it; a digest
//! message reaching a neighbour that does not is an unknown-signer loss, and that neighbour asks
//! (P2PCD) in its next broadcast. It counts; the simulator will put the schedules on the
//! channel (see the crate README for what later phases add).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};

/// A certificate schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CertificateSchedule {
    OncePerSecond,
    P2pcd,
    EtsiCam,
    Adaptive,
}

impl CertificateSchedule {
    pub const ALL: [CertificateSchedule; 4] = [
        CertificateSchedule::OncePerSecond,
        CertificateSchedule::P2pcd,
        CertificateSchedule::EtsiCam,
        CertificateSchedule::Adaptive,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            CertificateSchedule::OncePerSecond => "once-per-second",
            CertificateSchedule::P2pcd => "p2pcd",
            CertificateSchedule::EtsiCam => "etsi-cam",
            CertificateSchedule::Adaptive => "adaptive",
        }
    }

    /// Parses a name; the error lists the valid ones.
    pub fn from_name(name: &str) -> Result<CertificateSchedule, String> {
        Self::ALL.into_iter().find(|s| s.name() == name).ok_or_else(|| {
            format!(
                "unknown certificate schedule {name:?}; valid: {}",
                Self::ALL.map(CertificateSchedule::name).join(", ")
            )
        })
    }
}

/// The sender side of a schedule: told what the sender heard, it says whether the next
/// message carries the certificate.
#[derive(Debug, Clone)]
pub struct CertificateScheduler {
    schedule: CertificateSchedule,
    last_certificate_us: Option<u64>,
    /// Stations heard since the last certificate that were not known at it.
    new_station: bool,
    /// Stations heard when the last certificate went out, and since.
    known: HashSet<u32>,
    requested: bool,
}

impl CertificateScheduler {
    pub fn new(schedule: CertificateSchedule) -> CertificateScheduler {
        CertificateScheduler {
            schedule,
            last_certificate_us: None,
            new_station: false,
            known: HashSet::new(),
            requested: false,
        }
    }

    pub fn schedule(&self) -> CertificateSchedule {
        self.schedule
    }

    /// A message from `station` was received.
    pub fn heard(&mut self, station: u32) {
        if self.known.insert(station) {
            self.new_station = true;
        }
    }

    /// A station went out of range (forgotten, so that its return counts as new).
    pub fn lost(&mut self, station: u32) {
        self.known.remove(&station);
    }

    /// A received message asked for our certificate (P2PCD).
    pub fn requested(&mut self) {
        self.requested = true;
    }

    /// Whether the message sent at `now_us` carries the certificate (and records it).
    pub fn next_carries_certificate(&mut self, now_us: u64) -> bool {
        let second_passed = self
            .last_certificate_us
            .is_none_or(|t| now_us.saturating_sub(t) >= 1_000_000);
        let send = match self.schedule {
            CertificateSchedule::OncePerSecond => second_passed,
            CertificateSchedule::P2pcd => self.requested || self.last_certificate_us.is_none(),
            CertificateSchedule::EtsiCam => second_passed || self.new_station || self.requested,
            CertificateSchedule::Adaptive => self.new_station || self.requested || self.last_certificate_us.is_none(),
        };
        if send {
            self.last_certificate_us = Some(now_us);
            self.new_station = false;
            self.requested = false;
        }
        send
    }
}

/// The model's parameters.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub struct ScheduleModel {
    pub seconds: f64,
    /// Broadcasts per second (sender and neighbours).
    pub rate_hz: f64,
    /// New neighbours per second.
    pub arrivals_per_s: f64,
    /// Mean time a neighbour stays in range.
    pub mean_dwell_s: f64,
    /// Probability that one broadcast reaches one station.
    pub delivery: f64,
    /// Certificate bytes minus digest bytes (what a certificate-bearing message adds).
    pub certificate_extra_bytes: usize,
    pub seed: u64,
}

/// What a schedule cost in the model.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ScheduleOutcome {
    pub messages: u64,
    pub certificate_messages: u64,
    /// Certificate bytes put on air beyond digests.
    pub certificate_bytes: u64,
    /// Certificate-bearing messages that reached no neighbour lacking the certificate.
    pub redundant_certificate_messages: u64,
    /// Digest messages received by a neighbour without the certificate (dropped: unknown signer).
    pub unknown_signer_losses: u64,
    /// Messages received by neighbours.
    pub receptions: u64,
}

impl ScheduleOutcome {
    pub fn redundant_share(&self) -> f64 {
        self.redundant_certificate_messages as f64 / self.certificate_messages.max(1) as f64
    }
    pub fn unknown_signer_loss_rate(&self) -> f64 {
        self.unknown_signer_losses as f64 / self.receptions.max(1) as f64
    }
}

/// Runs `schedule` through the model (same seed: same neighbours and channel draws for
/// every schedule).
pub fn evaluate(schedule: CertificateSchedule, m: &ScheduleModel) -> ScheduleOutcome {
    let mut rng = ChaCha8Rng::seed_from_u64(m.seed);
    let step_us = (1e6 / m.rate_hz) as u64;
    let steps = (m.seconds * m.rate_hz) as u64;
    let mut sched = CertificateScheduler::new(schedule);
    // Neighbour id -> (leaves at step, holds our certificate, will ask in its next message).
    let mut neighbours: HashMap<u32, (u64, bool, bool)> = HashMap::new();
    let mut next_id = 0u32;
    let mut out = ScheduleOutcome {
        messages: 0,
        certificate_messages: 0,
        certificate_bytes: 0,
        redundant_certificate_messages: 0,
        unknown_signer_losses: 0,
        receptions: 0,
    };
    let p_arrival = m.arrivals_per_s / m.rate_hz;
    for step in 0..steps {
        // Arrivals (at most a few per step at the rates of interest) and departures.
        let mut u: f64 = rng.gen();
        while u < p_arrival {
            let dwell = -m.mean_dwell_s * (1.0 - rng.gen::<f64>()).ln();
            neighbours.insert(next_id, (step + (dwell * m.rate_hz) as u64 + 1, false, false));
            next_id += 1;
            u += 1.0;
        }
        neighbours.retain(|id, n| {
            let stay = n.0 > step;
            if !stay {
                sched.lost(*id);
            }
            stay
        });
        // The neighbours broadcast first: the sender hears each with probability `delivery`.
        let mut ids: Vec<u32> = neighbours.keys().copied().collect();
        ids.sort_unstable();
        for id in &ids {
            let n = neighbours.get_mut(id).expect("listed");
            if rng.gen::<f64>() < m.delivery {
                sched.heard(*id);
                if n.2 {
                    sched.requested();
                    n.2 = false;
                }
            }
        }
        // Our broadcast.
        let cert = sched.next_carries_certificate(step * step_us);
        out.messages += 1;
        let mut useful = false;
        for id in &ids {
            let n = neighbours.get_mut(id).expect("listed");
            if rng.gen::<f64>() >= m.delivery {
                continue;
            }
            out.receptions += 1;
            if cert {
                useful |= !n.1;
                n.1 = true;
            } else if !n.1 {
                out.unknown_signer_losses += 1;
                n.2 = true;
            }
        }
        if cert {
            out.certificate_messages += 1;
            out.certificate_bytes += m.certificate_extra_bytes as u64;
            if !useful {
                out.redundant_certificate_messages += 1;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(arrivals: f64) -> ScheduleModel {
        ScheduleModel {
            seconds: 120.0,
            rate_hz: 10.0,
            arrivals_per_s: arrivals,
            mean_dwell_s: 10.0,
            delivery: 0.9,
            certificate_extra_bytes: 111,
            seed: 7,
        }
    }

    #[test]
    fn scheduler_rules() {
        let mut s = CertificateScheduler::new(CertificateSchedule::Adaptive);
        assert!(s.next_carries_certificate(0), "first message");
        assert!(!s.next_carries_certificate(2_000_000), "no timer");
        s.heard(5);
        assert!(s.next_carries_certificate(2_100_000), "new neighbour");
        s.heard(5);
        assert!(!s.next_carries_certificate(2_200_000), "already heard");
        s.requested();
        assert!(s.next_carries_certificate(2_300_000), "P2PCD request");
        let mut o = CertificateScheduler::new(CertificateSchedule::OncePerSecond);
        assert!(o.next_carries_certificate(0));
        o.heard(1);
        assert!(!o.next_carries_certificate(500_000));
        assert!(o.next_carries_certificate(1_000_000));
        assert_eq!(
            CertificateSchedule::from_name("adaptive").unwrap(),
            CertificateSchedule::Adaptive
        );
        assert!(CertificateSchedule::from_name("smart")
            .unwrap_err()
            .contains("once-per-second"));
    }

    #[test]
    fn without_neighbours_changing_the_timer_rule_is_all_redundant_and_adaptive_sends_once() {
        let m = ScheduleModel {
            arrivals_per_s: 0.0,
            ..model(0.0)
        };
        let once = evaluate(CertificateSchedule::OncePerSecond, &m);
        assert_eq!(once.certificate_messages, 120);
        assert_eq!(once.redundant_share(), 1.0);
        assert_eq!(evaluate(CertificateSchedule::Adaptive, &m).certificate_messages, 1);
    }

    #[test]
    fn adaptive_saves_certificate_bytes_and_loses_less_than_p2pcd_alone() {
        let m = model(0.5);
        let once = evaluate(CertificateSchedule::OncePerSecond, &m);
        let p2pcd = evaluate(CertificateSchedule::P2pcd, &m);
        let adaptive = evaluate(CertificateSchedule::Adaptive, &m);
        let etsi = evaluate(CertificateSchedule::EtsiCam, &m);
        assert!(
            adaptive.certificate_bytes < once.certificate_bytes,
            "{adaptive:?} vs {once:?}"
        );
        assert!(adaptive.certificate_bytes < etsi.certificate_bytes);
        assert!(
            adaptive.unknown_signer_losses <= p2pcd.unknown_signer_losses,
            "{adaptive:?} vs {p2pcd:?}"
        );
        assert!(etsi.unknown_signer_losses <= once.unknown_signer_losses);
        // Every schedule saw the same neighbours and channel.
        assert_eq!(once.messages, adaptive.messages);
    }
}
