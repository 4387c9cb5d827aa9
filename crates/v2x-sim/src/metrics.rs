//! Counters and histograms of one run, mergeable across replications.

use crate::histogram::Histogram;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Per distance bin: CAM receptions possible, received by the radio, verified in time;
/// the sums of the verified CAMs' end-to-end delays and inter-arrival times (the curves
/// over distance whose largest point papers quote: "goes up to 90 ms").
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct DistanceBin {
    pub attempts: u64,
    pub received: u64,
    pub verified: u64,
    pub crypto_lost: u64,
    #[serde(default)]
    pub e2e_ns: f64,
    #[serde(default)]
    pub inter_arrival_ns: f64,
    #[serde(default)]
    pub inter_arrivals: u64,
}

impl DistanceBin {
    /// Mean end-to-end delay of the CAMs verified in this bin (ms; NaN when none).
    pub fn e2e_mean_ms(&self) -> f64 {
        if self.verified == 0 {
            f64::NAN
        } else {
            self.e2e_ns / self.verified as f64 / 1e6
        }
    }

    /// Mean inter-arrival time of the CAMs verified in this bin (ms; NaN when none).
    pub fn inter_arrival_mean_ms(&self) -> f64 {
        if self.inter_arrivals == 0 {
            f64::NAN
        } else {
            self.inter_arrival_ns / self.inter_arrivals as f64 / 1e6
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct QueryStats {
    pub requests_sent: u64,
    pub requests_received: u64,
    pub replies_received: u64,
    pub successes: u64,
    pub delay: Histogram,
}

/// Per ordered pair (sender, receiver): CAMs received by the radio and verified.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PairCount {
    pub received: u64,
    pub verified: u64,
}

/// One hop count of the relay chain: messages verified by the node that many hops from
/// the source.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RelayHop {
    /// From the source's generation (before signing) until this node has verified it.
    pub e2e: Histogram,
    /// From the previous node's decision to send (generation at the source, its
    /// verification at a relay) until this node has verified it: signing where due,
    /// channel access, air time and verification.
    pub per_hop: Histogram,
    /// From reception by this node's radio until verified: its verification queue and
    /// service.
    pub at_receiver: Histogram,
}

/// The multi-hop forwarding application (`[relay]`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RelayStats {
    pub generated: u64,
    /// Verifications of relayed messages that missed the variant's deadline.
    pub lost_deadline: u64,
    /// Copies received again (a node's second copy of a message, e.g. its successor's
    /// forward): ignored without verification.
    pub duplicates: u64,
    /// Index k - 1 holds the messages verified k hops from the source.
    pub hops: Vec<RelayHop>,
}

impl RelayStats {
    fn merge(&mut self, o: &RelayStats) {
        self.generated += o.generated;
        self.lost_deadline += o.lost_deadline;
        self.duplicates += o.duplicates;
        if self.hops.len() < o.hops.len() {
            self.hops.resize(o.hops.len(), RelayHop::default());
        }
        for (a, b) in self.hops.iter_mut().zip(&o.hops) {
            a.e2e.merge(&b.e2e);
            a.per_hop.merge(&b.per_hop);
            a.at_receiver.merge(&b.at_receiver);
        }
    }
}

/// Everything measured in one run (after the warm-up).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunMetrics {
    pub bins: Vec<DistanceBin>,
    pub cams_generated: u64,
    pub frames_sent: u64,
    pub key_frames_sent: u64,
    pub mac_queue_drops: u64,
    pub mac_delay_drops: u64,
    /// Frames (of any kind) and CAMs larger than the access layer carries (802.11p: an MSDU
    /// above 2,304 bytes; the sidelink: above the whole pool's transport block), refused
    /// before the channel: never sent, so outside the PDR's denominator.
    pub frames_refused_oversize: u64,
    pub cams_refused_oversize: u64,
    /// CAMs received by the radio within the headline range.
    pub headline_attempts: u64,
    pub headline_received: u64,
    pub headline_verified: u64,
    /// CAMs that reached the security layer (all distances) and those lost there.
    pub security_arrivals: u64,
    pub crypto_lost_deadline: u64,
    pub crypto_lost_key: u64,
    pub crypto_lost_unknown_certificate: u64,
    /// CAMs sent with the full certificate.
    pub certificates_sent: u64,
    /// Certificate-bearing CAMs that reached a station's security layer, and those whose
    /// certificate the station already held (redundant copies).
    pub certificates_received: u64,
    pub certificates_redundant: u64,
    /// CAMs that carried a P2PCD request.
    pub p2pcd_requests_sent: u64,
    pub e2e_delay: Histogram,
    pub mac_delay: Histogram,
    pub verification_latency: Histogram,
    pub inter_arrival: Histogram,
    pub awareness_neighbours: u64,
    pub awareness_heard: u64,
    pub awareness_verified: u64,
    pub awareness_weighted: f64,
    pub busy_ns: f64,
    pub presence_ns: f64,
    pub attack_frames_sent: u64,
    pub attacks_accepted: u64,
    pub attack_jobs_expired: u64,
    pub rejected: BTreeMap<String, u64>,
    pub query: QueryStats,
    pub relay: RelayStats,
    pub per_pair: BTreeMap<(u32, u32), PairCount>,
    pub per_node_sent: BTreeMap<u32, u64>,
    /// Frames decoded by a radio (any kind, any time): the simulator's unit of work.
    pub receptions: u64,
    /// Signal arrivals processed (transmissions x receivers above the floor).
    pub signals: u64,
    pub events: u64,
    pub wall_s: f64,
    /// The sidelink's own counters (`[access] kind = "lte-v2x-mode4"`).
    pub sidelink: Option<SidelinkStats>,
}

impl RunMetrics {
    pub fn merge(&mut self, o: &RunMetrics) {
        if self.bins.len() < o.bins.len() {
            self.bins.resize(o.bins.len(), DistanceBin::default());
        }
        for (a, b) in self.bins.iter_mut().zip(&o.bins) {
            a.attempts += b.attempts;
            a.received += b.received;
        }
        self.add_security(o);
        self.cams_generated += o.cams_generated;
        self.frames_sent += o.frames_sent;
        self.key_frames_sent += o.key_frames_sent;
        self.mac_queue_drops += o.mac_queue_drops;
        self.mac_delay_drops += o.mac_delay_drops;
        self.frames_refused_oversize += o.frames_refused_oversize;
        self.cams_refused_oversize += o.cams_refused_oversize;
        self.headline_attempts += o.headline_attempts;
        self.headline_received += o.headline_received;
        self.certificates_sent += o.certificates_sent;
        self.p2pcd_requests_sent += o.p2pcd_requests_sent;
        self.e2e_delay.merge(&o.e2e_delay);
        self.mac_delay.merge(&o.mac_delay);
        self.verification_latency.merge(&o.verification_latency);
        self.inter_arrival.merge(&o.inter_arrival);
        self.busy_ns += o.busy_ns;
        self.presence_ns += o.presence_ns;
        self.attack_frames_sent += o.attack_frames_sent;
        self.attacks_accepted += o.attacks_accepted;
        self.attack_jobs_expired += o.attack_jobs_expired;
        self.query.requests_sent += o.query.requests_sent;
        self.query.requests_received += o.query.requests_received;
        self.query.replies_received += o.query.replies_received;
        self.query.successes += o.query.successes;
        self.query.delay.merge(&o.query.delay);
        self.relay.merge(&o.relay);
        for (k, v) in &o.per_pair {
            let e = self.per_pair.entry(*k).or_default();
            e.received += v.received;
            e.verified += v.verified;
        }
        for (k, v) in &o.per_node_sent {
            *self.per_node_sent.entry(*k).or_default() += v;
        }
        self.receptions += o.receptions;
        self.signals += o.signals;
        self.events += o.events;
        self.wall_s += o.wall_s;
        if let Some(b) = &o.sidelink {
            self.sidelink.get_or_insert_with(Default::default).merge(b);
        }
    }

    /// Adds the counters of security processing in `o` — per bin verified CAMs, crypto
    /// loss and the delays' sums, verified headline CAMs, crypto loss by cause, certificates
    /// received, awareness, rejections — and nothing of the radio's: what a security layer
    /// above another radio loop measured (`engine::security_layer`) joins that loop's
    /// metrics this way. The bins must be as many as `o`'s.
    pub fn add_security(&mut self, o: &RunMetrics) {
        for (a, b) in self.bins.iter_mut().zip(&o.bins) {
            a.verified += b.verified;
            a.crypto_lost += b.crypto_lost;
            a.e2e_ns += b.e2e_ns;
            a.inter_arrival_ns += b.inter_arrival_ns;
            a.inter_arrivals += b.inter_arrivals;
        }
        self.headline_verified += o.headline_verified;
        self.security_arrivals += o.security_arrivals;
        self.crypto_lost_deadline += o.crypto_lost_deadline;
        self.crypto_lost_key += o.crypto_lost_key;
        self.crypto_lost_unknown_certificate += o.crypto_lost_unknown_certificate;
        self.certificates_received += o.certificates_received;
        self.certificates_redundant += o.certificates_redundant;
        self.awareness_neighbours += o.awareness_neighbours;
        self.awareness_heard += o.awareness_heard;
        self.awareness_verified += o.awareness_verified;
        self.awareness_weighted += o.awareness_weighted;
        for (k, v) in &o.rejected {
            *self.rejected.entry(k.clone()).or_default() += v;
        }
    }

    fn ratio(a: u64, b: u64) -> f64 {
        if b == 0 {
            f64::NAN
        } else {
            a as f64 / b as f64
        }
    }

    pub fn pdr_network(&self) -> f64 {
        Self::ratio(self.headline_received, self.headline_attempts)
    }

    pub fn pdr_application(&self) -> f64 {
        Self::ratio(self.headline_verified, self.headline_attempts)
    }

    /// Share of the CAMs generated that the access layer refused as oversize.
    pub fn cams_refused_oversize_ratio(&self) -> f64 {
        Self::ratio(self.cams_refused_oversize, self.cams_generated)
    }

    pub fn crypto_loss_ratio(&self) -> f64 {
        let lost = self.crypto_lost_deadline + self.crypto_lost_key + self.crypto_lost_unknown_certificate;
        Self::ratio(lost, self.security_arrivals)
    }

    /// Share of the CAMs generated that carried the full certificate.
    pub fn certificate_share(&self) -> f64 {
        Self::ratio(self.certificates_sent, self.cams_generated)
    }

    /// Share of the certificate copies received that the station already held.
    pub fn certificate_redundancy(&self) -> f64 {
        Self::ratio(self.certificates_redundant, self.certificates_received)
    }

    pub fn awareness(&self) -> f64 {
        Self::ratio(self.awareness_verified, self.awareness_neighbours)
    }

    pub fn awareness_heard_ratio(&self) -> f64 {
        Self::ratio(self.awareness_heard, self.awareness_neighbours)
    }

    pub fn weighted_awareness(&self) -> f64 {
        if self.awareness_neighbours == 0 {
            f64::NAN
        } else {
            self.awareness_weighted / self.awareness_neighbours as f64
        }
    }

    pub fn channel_busy_ratio(&self) -> f64 {
        if self.presence_ns <= 0.0 {
            f64::NAN
        } else {
            self.busy_ns / self.presence_ns
        }
    }

    pub fn query_success_rate(&self) -> f64 {
        Self::ratio(self.query.successes, self.query.requests_sent)
    }
}

// The sidelink's own counters (`[access] kind = "lte-v2x-mode4"`, filled by
// `crate::sidelink::run`): losses by cause per distance bin (the four error types of the
// analytical model), the scheduler's decisions and the channel busy ratio.

/// Packets lost at receivers in one distance bin, by cause, in the analytical model's
/// order: a loss is counted under the first cause that applies.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LossBin {
    /// The receiver was sending in the same subframe (half duplex).
    pub half_duplex: u64,
    /// Received below the sensing threshold: not detected.
    pub sensing: u64,
    /// Lost even without interference (the SNR's block error draw).
    pub propagation: u64,
    /// Lost only because of interference (the SINR's draw fails where the SNR's passes).
    pub collision: u64,
}

/// The sidelink's counters of one run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SidelinkStats {
    pub losses: Vec<LossBin>,
    /// Transmissions, and the sub-channels they occupied in all.
    pub transmissions: u64,
    pub subchannels_used: u64,
    /// Semi-persistent selections: the first of a station, after its counter ran out,
    /// because a packet did not fit its reservation.
    pub selections_new: u64,
    pub selections_counter: u64,
    pub selections_size: u64,
    /// Reservations kept when the counter ran out (probResourceKeep).
    pub kept: u64,
    /// One-shot transmissions (`one-shot-oversize`).
    pub one_shots: u64,
    /// 3 dB steps the RSRP threshold rose, summed over the selections.
    pub threshold_steps: u64,
    /// Packets replaced by a newer one before they were sent.
    pub superseded: u64,
    /// Packets larger than the whole pool carries: never sent.
    pub oversize: u64,
    /// NR-V2X: re-evaluations of a new reservation before its first transmission, and
    /// those that moved it.
    pub reevaluations: u64,
    pub reevaluation_moves: u64,
    /// Sub-channel-subframes monitored and those whose S-RSSI was above the CBR threshold.
    pub cbr_monitored: u64,
    pub cbr_busy: u64,
}

impl SidelinkStats {
    pub fn merge(&mut self, o: &SidelinkStats) {
        if self.losses.len() < o.losses.len() {
            self.losses.resize(o.losses.len(), LossBin::default());
        }
        for (a, b) in self.losses.iter_mut().zip(&o.losses) {
            a.half_duplex += b.half_duplex;
            a.sensing += b.sensing;
            a.propagation += b.propagation;
            a.collision += b.collision;
        }
        self.transmissions += o.transmissions;
        self.subchannels_used += o.subchannels_used;
        self.selections_new += o.selections_new;
        self.selections_counter += o.selections_counter;
        self.selections_size += o.selections_size;
        self.kept += o.kept;
        self.one_shots += o.one_shots;
        self.threshold_steps += o.threshold_steps;
        self.superseded += o.superseded;
        self.oversize += o.oversize;
        self.reevaluations += o.reevaluations;
        self.reevaluation_moves += o.reevaluation_moves;
        self.cbr_monitored += o.cbr_monitored;
        self.cbr_busy += o.cbr_busy;
    }

    /// Channel busy ratio (TS 36.214 §5.1.30), averaged over stations and subframes.
    pub fn cbr(&self) -> f64 {
        if self.cbr_monitored == 0 {
            f64::NAN
        } else {
            self.cbr_busy as f64 / self.cbr_monitored as f64
        }
    }
}
