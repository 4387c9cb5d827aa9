//! Trace sink: the models report what happens (a CAM verified, a frame dropped, the medium
//! busy for a while) and an [`Observer`] turns it into metrics. [`MetricsCollector`] builds
//! the [`RunMetrics`] of a run; other observers (traces, tests) implement only what they
//! need. Events are reported only for packets that count (generated after the warm-up).

use crate::histogram::Histogram;
use crate::metrics::{DistanceBin, PairCount, RelayHop, RunMetrics};
use crate::node_id::NodeId;

/// Why a received CAM was lost at the security layer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CryptoLoss {
    /// Not verified before its deadline.
    Deadline,
    /// TESLA: its key never came within the deadline.
    KeyMissing,
    /// Digest-signed by a sender whose certificate was never received.
    UnknownCertificate,
}

/// A CAM that passed verification.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CamVerified {
    pub src: NodeId,
    pub dst: NodeId,
    /// The sender's CAM sequence number and generation time (with `e2e_ns`, when it was
    /// verified): what names the CAM's content in [`Observer::cam_sent`].
    pub seq: u32,
    pub gen_ns: u64,
    pub distance_m: f32,
    pub e2e_ns: u64,
    /// From radio reception to verified.
    pub latency_ns: u64,
    /// Since the previous CAM of the same sender verified here, if counted.
    pub inter_arrival_ns: Option<u64>,
}

/// Receives the events of one run. Every method defaults to doing nothing.
#[allow(unused_variables)]
pub trait Observer: Send {
    /// The run starts: `vehicles` (stations `0..vehicles`) and `stations` in all, signals
    /// cut off beyond `cutoff_m`, positions updated every `update_interval_s`.
    fn run_started(&mut self, vehicles: usize, stations: usize, cutoff_m: f64, update_interval_s: f64) {}
    /// One event of the queue was handled.
    fn event(&mut self) {}
    /// A vehicle was on the map for `ns` (channel busy ratio denominator).
    fn presence(&mut self, ns: f64) {}
    /// A station's medium was busy for `ns`.
    fn busy_time(&mut self, ns: f64) {}
    /// One awareness sample: neighbours in range, heard, verified, position-weighted.
    fn awareness(&mut self, neighbours: u64, heard: u64, verified: u64, weighted: f64) {}
    fn cam_generated(&mut self) {}
    /// Station `src` generated CAM `seq` at `gen_ns` at `pos` (every CAM, warm-up too): the
    /// content models that look at what a CAM says (`v2x-mbd`'s insiders) start here.
    fn cam_sent(&mut self, src: NodeId, seq: u32, gen_ns: u64, pos: [f64; 2]) {}
    /// A counted frame went on the air; `cam_mac_delay_ns` for CAMs.
    fn frame_sent(&mut self, src: NodeId, key_frame: bool, cam_mac_delay_ns: Option<u64>) {}
    /// A counted CAM could reach a vehicle at `distance_m` (PDR denominator).
    fn cam_attempt(&mut self, distance_m: f64) {}
    /// Signal arrivals above the floor of one transmission.
    fn signals(&mut self, n: u64) {}
    /// A radio decoded a frame (any kind): the simulator's unit of work.
    fn frame_decoded(&mut self) {}
    /// A counted CAM reached the security layer of `dst`.
    fn cam_received(&mut self, src: NodeId, dst: NodeId, distance_m: f32) {}
    fn cam_verified(&mut self, v: CamVerified) {}
    fn crypto_lost(&mut self, why: CryptoLoss, distance_m: f32) {}
    /// A message was rejected for `reason` (a reject reason code).
    fn rejected(&mut self, reason: &'static str) {}
    fn attack_frame_sent(&mut self) {}
    fn attack_accepted(&mut self) {}
    fn attack_job_expired(&mut self) {}
    fn mac_queue_drop(&mut self) {}
    /// A counted frame was larger than the access layer carries in one frame or transport
    /// block, and refused (`cam`: a CAM).
    fn oversize_refused(&mut self, cam: bool) {}
    fn mac_delay_drops(&mut self, n: u64) {}
    fn query_request_sent(&mut self) {}
    fn query_request_received(&mut self) {}
    fn query_reply_received(&mut self) {}
    fn query_success(&mut self, delay_ns: u64) {}
    /// The relay source generated a counted message.
    fn relay_generated(&mut self) {}
    /// A counted relayed message was verified `hops` hops from its source.
    fn relay_verified(&mut self, hops: u32, e2e_ns: u64, per_hop_ns: u64, at_receiver_ns: u64) {}
    /// A relayed message missed the verification deadline.
    fn relay_lost(&mut self) {}
    /// A node received a relayed message it already had.
    fn relay_duplicate(&mut self) {}
    /// A counted CAM carrying its signer's certificate reached a station's security layer;
    /// `already_known`: the station held that certificate (a redundant copy).
    fn certificate_received(&mut self, already_known: bool) {}
    /// A counted CAM carried a P2PCD request.
    fn p2pcd_request_sent(&mut self) {}
    /// A counted CAM carried its signer's full certificate.
    fn certificate_sent(&mut self) {}
}

/// Defines [`Call`], its replay and the recording `Observer` impl of `Vec<Call>` from one
/// list of the observer's methods, so that the three cannot drift apart.
macro_rules! recorded_calls {
    ($($variant:ident $method:ident($($arg:ident: $ty:ty),*);)*) => {
        /// One call to an [`Observer`], recorded (see the `Observer` impl of `Vec<Call>`).
        #[derive(Debug, Clone, Copy, PartialEq)]
        pub enum Call {
            $($variant { $($arg: $ty),* },)*
        }

        impl Call {
            /// Makes the recorded call on `o`.
            pub fn replay(self, o: &mut impl Observer) {
                match self {
                    $(Call::$variant { $($arg),* } => o.$method($($arg),*),)*
                }
            }
        }

        /// Records every call, to be replayed later in a chosen order: the receivers of a
        /// transmission handled on several threads log what they report, and the event loop
        /// replays the logs in the receivers' order, so the observer sees the calls of a
        /// one-threaded run.
        impl Observer for Vec<Call> {
            $(fn $method(&mut self, $($arg: $ty),*) {
                self.push(Call::$variant { $($arg),* });
            })*
        }

        /// Two observers of one run, each told everything (the metrics and a model that
        /// watches the run, [`crate::Watcher`]).
        impl<A: Observer, B: Observer> Observer for (A, B) {
            $(fn $method(&mut self, $($arg: $ty),*) {
                self.0.$method($($arg),*);
                self.1.$method($($arg),*);
            })*
        }

        impl<T: Observer + ?Sized> Observer for Box<T> {
            $(fn $method(&mut self, $($arg: $ty),*) {
                (**self).$method($($arg),*);
            })*
        }
    };
}

recorded_calls! {
    RunStarted run_started(vehicles: usize, stations: usize, cutoff_m: f64, update_interval_s: f64);
    Event event();
    Presence presence(ns: f64);
    BusyTime busy_time(ns: f64);
    Awareness awareness(neighbours: u64, heard: u64, verified: u64, weighted: f64);
    CamGenerated cam_generated();
    CamSent cam_sent(src: NodeId, seq: u32, gen_ns: u64, pos: [f64; 2]);
    FrameSent frame_sent(src: NodeId, key_frame: bool, cam_mac_delay_ns: Option<u64>);
    CamAttempt cam_attempt(distance_m: f64);
    Signals signals(n: u64);
    FrameDecoded frame_decoded();
    CamReceived cam_received(src: NodeId, dst: NodeId, distance_m: f32);
    CamVerified cam_verified(v: CamVerified);
    CryptoLost crypto_lost(why: CryptoLoss, distance_m: f32);
    Rejected rejected(reason: &'static str);
    AttackFrameSent attack_frame_sent();
    AttackAccepted attack_accepted();
    AttackJobExpired attack_job_expired();
    MacQueueDrop mac_queue_drop();
    OversizeRefused oversize_refused(cam: bool);
    MacDelayDrops mac_delay_drops(n: u64);
    QueryRequestSent query_request_sent();
    QueryRequestReceived query_request_received();
    QueryReplyReceived query_reply_received();
    QuerySuccess query_success(delay_ns: u64);
    RelayGenerated relay_generated();
    RelayVerified relay_verified(hops: u32, e2e_ns: u64, per_hop_ns: u64, at_receiver_ns: u64);
    RelayLost relay_lost();
    RelayDuplicate relay_duplicate();
    CertificateReceived certificate_received(already_known: bool);
    P2pcdRequestSent p2pcd_request_sent();
    CertificateSent certificate_sent();
}

/// What the collector needs to bin events.
#[derive(Debug, Clone)]
pub struct CollectorParams {
    pub bin_m: f64,
    pub max_distance_m: f64,
    pub headline_m: f64,
    pub per_pair_counts: bool,
    pub nodes: usize,
    /// Delays counted exactly at or below each of these (the scenario's deadlines).
    pub deadlines_ns: Vec<u64>,
}

/// Node counts up to which per-pair counters are a dense matrix.
const DENSE_PAIRS_MAX_NODES: usize = 2048;

/// Builds the [`RunMetrics`] of a run.
pub struct MetricsCollector {
    p: CollectorParams,
    /// Dense per-pair counters (sender * nodes + receiver) when the node count is small;
    /// folded into `metrics.per_pair` at the end.
    pairs: Vec<PairCount>,
    pub metrics: RunMetrics,
}

impl MetricsCollector {
    pub fn new(p: CollectorParams) -> MetricsCollector {
        let bins = (p.max_distance_m / p.bin_m).ceil() as usize;
        MetricsCollector {
            pairs: if p.per_pair_counts && p.nodes <= DENSE_PAIRS_MAX_NODES {
                vec![PairCount::default(); p.nodes * p.nodes]
            } else {
                Vec::new()
            },
            metrics: RunMetrics {
                bins: vec![DistanceBin::default(); bins],
                e2e_delay: Histogram::with_thresholds(&p.deadlines_ns),
                verification_latency: Histogram::with_thresholds(&p.deadlines_ns),
                ..Default::default()
            },
            p,
        }
    }

    fn pair(&mut self, src: NodeId, dst: NodeId) -> &mut PairCount {
        if self.pairs.is_empty() {
            self.metrics.per_pair.entry((src.0, dst.0)).or_default()
        } else {
            &mut self.pairs[src.index() * self.p.nodes + dst.index()]
        }
    }

    fn bin(&mut self, distance_m: f64) -> Option<&mut DistanceBin> {
        self.metrics.bins.get_mut((distance_m / self.p.bin_m) as usize)
    }

    /// The metrics, with the dense pair counters folded in and the run's wall time.
    pub fn finish(mut self, wall_s: f64) -> RunMetrics {
        self.metrics.wall_s = wall_s;
        let n = self.p.nodes;
        for (k, c) in self.pairs.iter().enumerate() {
            if c.received > 0 || c.verified > 0 {
                self.metrics
                    .per_pair
                    .insert(((k / n) as u32, (k % n) as u32), c.clone());
            }
        }
        self.metrics
    }
}

impl Observer for MetricsCollector {
    fn event(&mut self) {
        self.metrics.events += 1;
    }
    fn presence(&mut self, ns: f64) {
        self.metrics.presence_ns += ns;
    }
    fn busy_time(&mut self, ns: f64) {
        self.metrics.busy_ns += ns;
    }
    fn awareness(&mut self, neighbours: u64, heard: u64, verified: u64, weighted: f64) {
        let m = &mut self.metrics;
        m.awareness_neighbours += neighbours;
        m.awareness_heard += heard;
        m.awareness_verified += verified;
        m.awareness_weighted += weighted;
    }
    fn cam_generated(&mut self) {
        self.metrics.cams_generated += 1;
    }
    fn frame_sent(&mut self, src: NodeId, key_frame: bool, cam_mac_delay_ns: Option<u64>) {
        self.metrics.frames_sent += 1;
        if key_frame {
            self.metrics.key_frames_sent += 1;
        }
        if let Some(d) = cam_mac_delay_ns {
            self.metrics.mac_delay.record(d);
            if self.p.per_pair_counts {
                *self.metrics.per_node_sent.entry(src.0).or_default() += 1;
            }
        }
    }
    fn cam_attempt(&mut self, distance_m: f64) {
        if distance_m > self.p.max_distance_m {
            return;
        }
        if let Some(bin) = self.bin(distance_m) {
            bin.attempts += 1;
        }
        if distance_m <= self.p.headline_m {
            self.metrics.headline_attempts += 1;
        }
    }
    fn signals(&mut self, n: u64) {
        self.metrics.signals += n;
    }
    fn frame_decoded(&mut self) {
        self.metrics.receptions += 1;
    }
    fn cam_received(&mut self, src: NodeId, dst: NodeId, distance_m: f32) {
        let d = f64::from(distance_m);
        if let Some(bin) = self.bin(d) {
            bin.received += 1;
        }
        if d <= self.p.headline_m {
            self.metrics.headline_received += 1;
        }
        if self.p.per_pair_counts {
            self.pair(src, dst).received += 1;
        }
        self.metrics.security_arrivals += 1;
    }
    fn cam_verified(&mut self, v: CamVerified) {
        if let Some(ia) = v.inter_arrival_ns {
            self.metrics.inter_arrival.record(ia);
        }
        self.metrics.e2e_delay.record(v.e2e_ns);
        self.metrics.verification_latency.record(v.latency_ns);
        let d = f64::from(v.distance_m);
        if let Some(bin) = self.bin(d) {
            bin.verified += 1;
            bin.e2e_ns += v.e2e_ns as f64;
            if let Some(ia) = v.inter_arrival_ns {
                bin.inter_arrival_ns += ia as f64;
                bin.inter_arrivals += 1;
            }
        }
        if d <= self.p.headline_m {
            self.metrics.headline_verified += 1;
        }
        if self.p.per_pair_counts {
            self.pair(v.src, v.dst).verified += 1;
        }
    }
    fn crypto_lost(&mut self, why: CryptoLoss, distance_m: f32) {
        match why {
            CryptoLoss::Deadline => self.metrics.crypto_lost_deadline += 1,
            CryptoLoss::KeyMissing => self.metrics.crypto_lost_key += 1,
            CryptoLoss::UnknownCertificate => self.metrics.crypto_lost_unknown_certificate += 1,
        }
        if let Some(bin) = self.bin(f64::from(distance_m)) {
            bin.crypto_lost += 1;
        }
    }
    fn rejected(&mut self, reason: &'static str) {
        *self.metrics.rejected.entry(reason.to_string()).or_default() += 1;
    }
    fn attack_frame_sent(&mut self) {
        self.metrics.attack_frames_sent += 1;
    }
    fn attack_accepted(&mut self) {
        self.metrics.attacks_accepted += 1;
    }
    fn attack_job_expired(&mut self) {
        self.metrics.attack_jobs_expired += 1;
    }
    fn mac_queue_drop(&mut self) {
        self.metrics.mac_queue_drops += 1;
    }
    fn oversize_refused(&mut self, cam: bool) {
        self.metrics.frames_refused_oversize += 1;
        if cam {
            self.metrics.cams_refused_oversize += 1;
        }
    }
    fn mac_delay_drops(&mut self, n: u64) {
        self.metrics.mac_delay_drops += n;
    }
    fn query_request_sent(&mut self) {
        self.metrics.query.requests_sent += 1;
    }
    fn query_request_received(&mut self) {
        self.metrics.query.requests_received += 1;
    }
    fn query_reply_received(&mut self) {
        self.metrics.query.replies_received += 1;
    }
    fn query_success(&mut self, delay_ns: u64) {
        self.metrics.query.successes += 1;
        self.metrics.query.delay.record(delay_ns);
    }
    fn relay_generated(&mut self) {
        self.metrics.relay.generated += 1;
    }
    fn relay_verified(&mut self, hops: u32, e2e_ns: u64, per_hop_ns: u64, at_receiver_ns: u64) {
        let Some(k) = (hops as usize).checked_sub(1) else {
            return;
        };
        let r = &mut self.metrics.relay;
        if r.hops.len() <= k {
            r.hops.resize(k + 1, RelayHop::default());
        }
        r.hops[k].e2e.record(e2e_ns);
        r.hops[k].per_hop.record(per_hop_ns);
        r.hops[k].at_receiver.record(at_receiver_ns);
    }
    fn relay_lost(&mut self) {
        self.metrics.relay.lost_deadline += 1;
    }
    fn certificate_received(&mut self, already_known: bool) {
        self.metrics.certificates_received += 1;
        if already_known {
            self.metrics.certificates_redundant += 1;
        }
    }
    fn p2pcd_request_sent(&mut self) {
        self.metrics.p2pcd_requests_sent += 1;
    }
    fn certificate_sent(&mut self) {
        self.metrics.certificates_sent += 1;
    }
    fn relay_duplicate(&mut self) {
        self.metrics.relay.duplicates += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Calls every method of an observer once, with distinct arguments.
    fn call_everything(o: &mut impl Observer) {
        o.run_started(1, 2, 3.5, 0.1);
        o.event();
        o.presence(1.5);
        o.busy_time(2.5);
        o.awareness(3, 2, 1, 0.5);
        o.cam_generated();
        o.cam_sent(NodeId(3), 4, 5, [6.5, 7.5]);
        o.frame_sent(NodeId(4), true, Some(5));
        o.cam_attempt(6.5);
        o.signals(7);
        o.frame_decoded();
        o.cam_received(NodeId(8), NodeId(9), 10.5);
        o.cam_verified(CamVerified {
            src: NodeId(11),
            dst: NodeId(12),
            seq: 3,
            gen_ns: 4,
            distance_m: 13.5,
            e2e_ns: 14,
            latency_ns: 15,
            inter_arrival_ns: Some(16),
        });
        o.crypto_lost(CryptoLoss::Deadline, 17.5);
        o.rejected("replay");
        o.attack_frame_sent();
        o.attack_accepted();
        o.attack_job_expired();
        o.mac_queue_drop();
        o.mac_delay_drops(18);
        o.query_request_sent();
        o.query_request_received();
        o.query_reply_received();
        o.query_success(19);
        o.relay_generated();
        o.relay_verified(2, 20, 21, 22);
        o.relay_lost();
        o.relay_duplicate();
        o.certificate_received(true);
        o.certificate_received(false);
        o.p2pcd_request_sent();
        o.certificate_sent();
    }

    /// The log records every method of the observer (a method it left out would lose
    /// what the receivers' threads report), and a replay makes the same calls.
    #[test]
    fn a_log_records_every_call_and_replays_it() {
        let mut log: Vec<Call> = Vec::new();
        call_everything(&mut log);
        assert_eq!(log.len(), 32);
        let mut again: Vec<Call> = Vec::new();
        for &call in &log {
            call.replay(&mut again);
        }
        assert_eq!(again, log);
        // Into a collector: the same metrics as the direct calls.
        let params = CollectorParams {
            bin_m: 10.0,
            max_distance_m: 100.0,
            headline_m: 50.0,
            per_pair_counts: true,
            nodes: 32,
            deadlines_ns: vec![100],
        };
        let (mut direct, mut replayed) = (MetricsCollector::new(params.clone()), MetricsCollector::new(params));
        call_everything(&mut direct);
        for &call in &log {
            call.replay(&mut replayed);
        }
        assert_eq!(direct.finish(0.0), replayed.finish(0.0));
    }

    /// A pair of observers (and a boxed one) passes every call on to each.
    #[test]
    fn a_pair_tells_both_everything() {
        let mut pair: (Vec<Call>, Box<Vec<Call>>) = (Vec::new(), Box::default());
        call_everything(&mut pair);
        let mut log: Vec<Call> = Vec::new();
        call_everything(&mut log);
        assert_eq!(pair.0, log);
        assert_eq!(*pair.1, log);
    }
}
