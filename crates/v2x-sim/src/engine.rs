//! The discrete-event core: one run of one variant.
//!
//! Events live in a binary heap ordered by (time, insertion sequence), so equal-time
//! events run in a deterministic order. A transmission touches only the receivers found
//! in the spatial grid within the cutoff range; each receiver keeps its summed energy,
//! the frame it is locked on and the SINR history of that frame.

use crate::channel::{self, Fading, LinkBudget, PathLoss};
use crate::error::SimError;
use crate::metrics::{DistanceBin, PairCount, RunMetrics};
use crate::mobility::{Mobility, Position};
use crate::phy;
use crate::scenario::{AccessCategory, AttackKind, CertificatePolicy, ReceptionModel, Scenario};
use crate::security::SecurityModel;
use crate::spatial::SpatialGrid;
use crate::verifier::{Job, Processor};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashMap, VecDeque};
use std::hash::{BuildHasherDefault, Hasher};
use v2x_profile::ProtocolId;

type NodeId = u32;

/// A fast hasher for small integer keys (deterministic, no per-process seed).
#[derive(Default)]
struct IntHasher(u64);

impl Hasher for IntHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(*b)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
    fn write_u32(&mut self, i: u32) {
        self.0 = (self.0.rotate_left(5) ^ u64::from(i)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

type IntMap<V> = HashMap<NodeId, V, BuildHasherDefault<IntHasher>>;

fn dist(a: Position, b: Position) -> f64 {
    let (dx, dy) = (a[0] - b[0], a[1] - b[1]);
    (dx * dx + dy * dy).sqrt()
}

/// Seconds to ns, clamped so that adding two durations cannot overflow.
fn ns(s: f64) -> u64 {
    (s.clamp(0.0, 4e9) * 1e9).round() as u64
}

#[derive(Debug, Clone)]
enum FrameKind {
    Cam {
        seq: u32,
        gen_ns: u64,
        pos: Position,
        certificate: bool,
        attached_key: Option<u32>,
    },
    TeslaKey {
        interval: u32,
    },
    QueryRequest {
        id: u32,
        gen_ns: u64,
        vehicle: NodeId,
    },
    QueryReply {
        id: u32,
        gen_ns: u64,
    },
    Attack {
        kind: AttackKind,
        replay: Option<(NodeId, u32, u64)>,
    },
}

#[derive(Debug, Clone)]
struct Frame {
    kind: FrameKind,
    src: NodeId,
    dst: Option<NodeId>,
    bytes: u32,
    enqueued_ns: u64,
}

struct Transmission {
    frame: Frame,
    /// (receiver, received power in mW, distance in m)
    receivers: Vec<(NodeId, f64, f32)>,
}

#[derive(Debug)]
enum Work {
    /// Own signing/encryption before the frame goes to the MAC queue.
    Prepare { frame: Frame, ac: usize },
    /// Verification of a received CAM or attack frame.
    Verify { frame: Frame, rx_ns: u64, dist: f32 },
    /// Decryption of a query request at a road side unit.
    DecryptRequest { id: u32, gen_ns: u64, vehicle: NodeId },
    /// Decryption of a reply at the vehicle.
    DecryptReply { gen_ns: u64 },
}

enum Event {
    Mobility,
    Awareness,
    CamGen(NodeId),
    QueryGen(NodeId),
    AttackGen { node: NodeId, attacker: usize },
    TeslaKey { node: NodeId, interval: u32 },
    Access { node: NodeId, ac: usize, gen: u32 },
    TxEnd(usize),
    ProcDone { node: NodeId, slot: usize },
}

struct Scheduled {
    t: u64,
    seq: u64,
    ev: Event,
}

impl PartialEq for Scheduled {
    fn eq(&self, o: &Self) -> bool {
        self.t == o.t && self.seq == o.seq
    }
}
impl Eq for Scheduled {}
impl PartialOrd for Scheduled {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Scheduled {
    fn cmp(&self, o: &Self) -> Ordering {
        o.t.cmp(&self.t).then(o.seq.cmp(&self.seq))
    }
}

struct Lock {
    tx: usize,
    signal_mw: f64,
    payload_start: u64,
    last_change: u64,
    min_sinr: f64,
    log_success: f64,
}

#[derive(Default)]
struct Edca {
    queue: VecDeque<Frame>,
    slots: u32,
    access_at: Option<u64>,
    count_start: u64,
    gen: u32,
}

#[derive(Default)]
struct Neighbour {
    last_rx_ns: Option<u64>,
    last_verified_ns: Option<u64>,
    last_pos: Position,
    highest_seq: Option<u32>,
    certificate_known: bool,
    /// TESLA packets waiting for their key: (interval, frame, rx time, distance).
    pending: Vec<(u32, Frame, u64, f32)>,
}

struct Node {
    pos: Option<Position>,
    rsu: bool,
    tx_until: u64,
    energy_mw: f64,
    signals: u32,
    lock: Option<Lock>,
    busy: bool,
    busy_since: u64,
    idle_since: u64,
    last_rx_error: bool,
    edca: [Edca; 5],
    proc: Processor<Work>,
    cam_seq: u32,
    last_certificate_ns: Option<u64>,
    neighbours: IntMap<Neighbour>,
    last_heard_cam: Option<(NodeId, u32, u64)>,
}

/// Run-wide constants derived from the scenario.
struct Params {
    end_ns: u64,
    warmup_ns: u64,
    noise_mw: f64,
    preamble_mw: f64,
    preamble_snr: f64,
    ed_mw: f64,
    sinr_threshold: f64,
    rate_mbps: f64,
    cutoff_m: f64,
    search_m: f64,
    slot_ns: u64,
    sifs_ns: u64,
    cca_detect_ns: u64,
    eifs_extra_ns: u64,
    queue_max_delay_ns: u64,
    queue_capacity: usize,
    mac_overhead: u32,
    bin_m: f64,
    max_distance_m: f64,
    headline_m: f64,
}

/// One run: a scenario, a security variant and a seed.
pub struct Sim<'a> {
    sc: &'a Scenario,
    sec: &'a SecurityModel,
    p: Params,
    mobility: Mobility,
    link: LinkBudget,
    errors: phy::ErrorTable,
    grid: SpatialGrid,
    /// Jobs in service, referenced by `Event::ProcDone` (keeps events small).
    in_service: Vec<Option<Job<Work>>>,
    free_service: Vec<usize>,
    nodes: Vec<Node>,
    positions: Vec<Option<Position>>,
    queue: BinaryHeap<Scheduled>,
    seq: u64,
    now: u64,
    txs: Vec<Option<Transmission>>,
    free_tx: Vec<usize>,
    rng_mobility: ChaCha8Rng,
    rng_channel: ChaCha8Rng,
    rng_mac: ChaCha8Rng,
    rng_app: ChaCha8Rng,
    rng_proc: ChaCha8Rng,
    attackers: Vec<(NodeId, usize)>,
    query_id: u32,
    /// Dense per-pair counters (sender * nodes + receiver) when the node count is small;
    /// folded into `metrics.per_pair` at the end.
    pairs: Vec<PairCount>,
    pub metrics: RunMetrics,
}

fn ac_timing(ac: AccessCategory, p: &Params) -> (u64, u32) {
    let (aifsn, cw) = ac.parameters();
    (p.sifs_ns + u64::from(aifsn) * p.slot_ns, cw)
}

const MAX_CUTOFF_M: f64 = 100_000.0;
const DENSE_PAIRS_MAX_NODES: usize = 2048;

const ACS: [AccessCategory; 5] = [
    AccessCategory::Background,
    AccessCategory::BestEffort,
    AccessCategory::Video,
    AccessCategory::Voice,
    AccessCategory::LegacyDcf,
];

impl<'a> Sim<'a> {
    pub fn new(sc: &'a Scenario, sec: &'a SecurityModel, seed: u64) -> Result<Sim<'a>, SimError> {
        let stream = |k: u64| ChaCha8Rng::seed_from_u64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(k));
        let mut rng_mobility = stream(1);
        let mobility = Mobility::build(&sc.mobility, &mut rng_mobility)?;
        let r = &sc.radio;
        let path_loss = PathLoss::new(&r.path_loss, r.frequency_hz);
        // Capped at 100 km: the link tables grow with the range.
        let cutoff_m = if r.cutoff_range_m > 0.0 {
            r.cutoff_range_m
        } else {
            path_loss.range_m(r.tx_power_dbm, r.rx_sensitivity_dbm - r.cutoff_fading_margin_db)
        }
        .min(MAX_CUTOFF_M);
        let m = &sc.mac;
        let p = Params {
            end_ns: ns(sc.duration_s),
            warmup_ns: ns(sc.warmup_s),
            noise_mw: channel::dbm_to_mw(channel::noise_dbm(r.channel_width_hz, r.noise_figure_db)),
            preamble_mw: channel::dbm_to_mw(r.preamble_min_rssi_dbm),
            preamble_snr: 10f64.powf(r.preamble_snr_threshold_db / 10.0),
            ed_mw: channel::dbm_to_mw(r.cca_ed_threshold_dbm),
            sinr_threshold: 10f64.powf(r.sinr_threshold_db / 10.0),
            rate_mbps: r.data_rate_mbps,
            cutoff_m,
            search_m: cutoff_m
                .max(sc.metrics.max_distance_m)
                .max(sc.metrics.awareness_radius_m),
            slot_ns: ns(m.slot_us * 1e-6),
            sifs_ns: ns(m.sifs_us * 1e-6),
            cca_detect_ns: ns(m.cca_detect_us * 1e-6),
            // EIFS - DIFS = SIFS + ACK airtime at the lowest rate (14-byte ACK at 3 Mb/s).
            eifs_extra_ns: if m.use_eifs {
                ns(m.sifs_us * 1e-6) + phy::airtime_ns(14, 3.0)
            } else {
                0
            },
            queue_max_delay_ns: ns(m.queue_max_delay_ms / 1000.0),
            queue_capacity: m.queue_capacity_packets as usize,
            mac_overhead: m.mac_overhead_bytes,
            bin_m: sc.metrics.distance_bin_m,
            max_distance_m: sc.metrics.max_distance_m,
            headline_m: sc.metrics.headline_range_m,
        };
        let n = mobility.nodes();
        let vehicles = mobility.vehicles;
        let nodes = (0..n)
            .map(|i| Node {
                pos: None,
                rsu: i >= vehicles,
                tx_until: 0,
                energy_mw: 0.0,
                signals: 0,
                lock: None,
                busy: false,
                busy_since: 0,
                idle_since: 0,
                last_rx_error: false,
                edca: Default::default(),
                proc: Processor::new(sec.cores, sec.order),
                cam_seq: 0,
                last_certificate_ns: None,
                neighbours: IntMap::default(),
                last_heard_cam: None,
            })
            .collect();
        let bins = (p.max_distance_m / p.bin_m).ceil() as usize;
        let metrics = RunMetrics {
            bins: vec![DistanceBin::default(); bins],
            ..Default::default()
        };
        let grid = SpatialGrid::new(p.search_m);
        Ok(Sim {
            sc,
            sec,
            p,
            mobility,
            link: LinkBudget::new(
                &path_loss,
                &Fading::new(&r.fading),
                r.tx_power_dbm,
                r.rx_sensitivity_dbm,
                cutoff_m,
            ),
            errors: phy::ErrorTable::new(r.data_rate_mbps),
            grid,
            in_service: Vec::new(),
            free_service: Vec::new(),
            nodes,
            positions: Vec::new(),
            queue: BinaryHeap::new(),
            seq: 0,
            now: 0,
            txs: Vec::new(),
            free_tx: Vec::new(),
            rng_mobility,
            rng_channel: stream(2),
            rng_mac: stream(3),
            rng_app: stream(4),
            rng_proc: stream(5),
            attackers: Vec::new(),
            query_id: 0,
            pairs: if sc.metrics.per_pair_counts && n <= DENSE_PAIRS_MAX_NODES {
                vec![PairCount::default(); n * n]
            } else {
                Vec::new()
            },
            metrics,
        })
    }

    /// Cutoff range actually used (m).
    pub fn cutoff_m(&self) -> f64 {
        self.p.cutoff_m
    }

    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    fn pair(&mut self, src: NodeId, dst: NodeId) -> &mut PairCount {
        let n = self.nodes.len();
        if self.pairs.is_empty() {
            self.metrics.per_pair.entry((src, dst)).or_default()
        } else {
            let k = src as usize * n + dst as usize;
            &mut self.pairs[k]
        }
    }

    fn schedule(&mut self, t: u64, ev: Event) {
        self.seq += 1;
        self.queue.push(Scheduled { t, seq: self.seq, ev });
    }

    /// Runs to the end and returns the metrics.
    pub fn run(mut self) -> RunMetrics {
        let started = std::time::Instant::now();
        self.start();
        while let Some(s) = self.queue.pop() {
            if s.t > self.p.end_ns {
                break;
            }
            self.now = s.t;
            self.metrics.events += 1;
            self.handle(s.ev);
        }
        self.now = self.p.end_ns;
        // Close the busy-time accounting of nodes still busy at the end.
        for i in 0..self.nodes.len() {
            if self.nodes[i].busy {
                let since = self.nodes[i].busy_since.max(self.p.warmup_ns);
                self.metrics.busy_ns += self.p.end_ns.saturating_sub(since) as f64;
            }
        }
        self.metrics.wall_s = started.elapsed().as_secs_f64();
        let n = self.nodes.len();
        for (k, c) in self.pairs.iter().enumerate() {
            if c.received > 0 || c.verified > 0 {
                self.metrics
                    .per_pair
                    .insert(((k / n) as NodeId, (k % n) as NodeId), c.clone());
            }
        }
        self.metrics
    }

    fn start(&mut self) {
        self.update_positions();
        if self.mobility.update_interval_s.is_finite() {
            let t = ns(self.mobility.update_interval_s);
            self.schedule(t, Event::Mobility);
        }
        let sc = self.sc;
        let vehicles = self.mobility.vehicles;
        if sc.cam.enabled {
            let period = 1.0 / sc.cam.rate_hz;
            for i in 0..self.nodes.len() {
                if self.nodes[i].rsu && !sc.cam.rsus_send {
                    continue;
                }
                let offset = match sc.cam.start_offsets_s.get(i) {
                    Some(o) => *o,
                    None => self.rng_app.gen_range(0.0..period),
                };
                self.schedule(ns(offset), Event::CamGen(i as NodeId));
            }
        }
        if sc.query.enabled && sc.query.request_rate_per_vehicle_hz > 0.0 && !self.mobility.rsus.is_empty() {
            for i in 0..vehicles {
                let t = self.exp_delay(sc.query.request_rate_per_vehicle_hz);
                self.schedule(t, Event::QueryGen(i as NodeId));
            }
        }
        // Attackers: distinct vehicles chosen by the seed.
        let mut order: Vec<NodeId> = (0..vehicles as NodeId).collect();
        for i in (1..order.len()).rev() {
            let j = self.rng_app.gen_range(0..=i);
            order.swap(i, j);
        }
        let mut next = 0usize;
        for (k, a) in sc.attackers.iter().enumerate() {
            for _ in 0..a.count {
                let Some(&node) = order.get(next) else { break };
                next += 1;
                self.attackers.push((node, k));
                let phase = self.rng_app.gen_range(0.0..1.0 / a.rate_hz);
                self.schedule(ns(a.start_s + phase), Event::AttackGen { node, attacker: k });
            }
        }
        let t = ns(sc.warmup_s.max(sc.metrics.awareness_sample_interval_s));
        self.schedule(t, Event::Awareness);
    }

    fn exp_delay(&mut self, rate_hz: f64) -> u64 {
        let u: f64 = self.rng_app.gen_range(f64::MIN_POSITIVE..1.0);
        self.now + ns(-u.ln() / rate_hz)
    }

    fn handle(&mut self, ev: Event) {
        match ev {
            Event::Mobility => {
                self.update_positions();
                let t = self.now + ns(self.mobility.update_interval_s);
                self.schedule(t, Event::Mobility);
            }
            Event::Awareness => {
                self.sample_awareness();
                let t = self.now + ns(self.sc.metrics.awareness_sample_interval_s);
                self.schedule(t, Event::Awareness);
            }
            Event::CamGen(n) => self.cam_gen(n),
            Event::QueryGen(n) => self.query_gen(n),
            Event::AttackGen { node, attacker } => self.attack_gen(node, attacker),
            Event::TeslaKey { node, interval } => {
                let frame = Frame {
                    kind: FrameKind::TeslaKey { interval },
                    src: node,
                    dst: None,
                    bytes: self.sec.tesla_key_frame_bytes,
                    enqueued_ns: self.now,
                };
                let ac = self.sc.cam.access_category.index();
                self.mac_enqueue(node, ac, frame);
            }
            Event::Access { node, ac, gen } => self.on_access(node, ac, gen),
            Event::TxEnd(id) => self.tx_end(id),
            Event::ProcDone { node, slot } => {
                if let Some(job) = self.in_service.get_mut(slot).and_then(Option::take) {
                    self.free_service.push(slot);
                    self.proc_done(node, job);
                }
            }
        }
    }

    // ----- mobility and metrics sampling -------------------------------------------

    fn update_positions(&mut self) {
        let t = self.now as f64 / 1e9;
        let mut pos = std::mem::take(&mut self.positions);
        self.mobility.positions_at(t, &mut self.rng_mobility, &mut pos);
        let dt = if self.mobility.update_interval_s.is_finite() {
            ns(self.mobility.update_interval_s)
        } else {
            self.p.end_ns.saturating_sub(self.p.warmup_ns)
        };
        // Presence time for the channel busy ratio, counted over the coming interval.
        let start = self.now.max(self.p.warmup_ns);
        let end = (self.now + dt).min(self.p.end_ns);
        let span = end.saturating_sub(start) as f64;
        for (node, p) in self.nodes.iter_mut().zip(&pos) {
            node.pos = *p;
            if p.is_some() && !node.rsu {
                self.metrics.presence_ns += span;
            }
        }
        self.grid.rebuild(&pos);
        self.positions = pos;
    }

    fn sample_awareness(&mut self) {
        if self.now < self.p.warmup_ns {
            return;
        }
        let radius = self.sc.metrics.awareness_radius_m;
        let window = ns(self.sc.metrics.awareness_window_ms / 1000.0);
        let max_err = self.sc.metrics.awareness_max_error_m;
        let since = self.now.saturating_sub(window);
        let (mut total, mut heard, mut verified, mut weighted) = (0u64, 0u64, 0u64, 0f64);
        for i in 0..self.nodes.len() {
            let Some(pi) = self.nodes[i].pos else { continue };
            if self.nodes[i].rsu {
                continue;
            }
            let mut near = Vec::new();
            self.grid.for_each_near(pi, radius, |j| near.push(j));
            for j in near {
                if j as usize == i || self.nodes[j as usize].rsu {
                    continue;
                }
                let Some(pj) = self.nodes[j as usize].pos else { continue };
                if dist(pj, pi) > radius {
                    continue;
                }
                total += 1;
                if let Some(nb) = self.nodes[i].neighbours.get(&j) {
                    if nb.last_rx_ns.is_some_and(|t| t >= since) {
                        heard += 1;
                    }
                    if nb.last_verified_ns.is_some_and(|t| t >= since) {
                        verified += 1;
                        let err = dist(pj, nb.last_pos);
                        weighted += (1.0 - err / max_err).max(0.0);
                    }
                }
            }
        }
        self.metrics.awareness_neighbours += total;
        self.metrics.awareness_heard += heard;
        self.metrics.awareness_verified += verified;
        self.metrics.awareness_weighted += weighted;
    }

    // ----- applications ------------------------------------------------------------

    fn frame_bytes(&self, payload: u32, security: u32) -> u32 {
        payload + security + self.p.mac_overhead
    }

    fn cam_gen(&mut self, n: NodeId) {
        let period = ns(1.0 / self.sc.cam.rate_hz);
        self.schedule(self.now + period, Event::CamGen(n));
        let Some(pos) = self.nodes[n as usize].pos else { return };
        let sec = self.sec;
        let now = self.now;
        let node = &mut self.nodes[n as usize];
        let seq = node.cam_seq;
        node.cam_seq += 1;
        let certificate = match sec.certificate {
            CertificatePolicy::Always => true,
            CertificatePolicy::Never => false,
            CertificatePolicy::EveryNth { n } => seq.is_multiple_of(n.max(1)),
            CertificatePolicy::Interval { interval_s } => {
                let due = node.last_certificate_ns.is_none_or(|t| now >= t + ns(interval_s));
                if due {
                    node.last_certificate_ns = Some(now);
                }
                due
            }
        };
        let overhead = if certificate {
            sec.overhead_certificate
        } else {
            sec.overhead_digest
        };
        let attached_key = (sec.kind == ProtocolId::TeslaAttached && seq > 0).then(|| seq - 1);
        let extra = if attached_key.is_some() {
            sec.tesla_attached_key_bytes
        } else {
            0
        };
        let bytes = self.frame_bytes(self.sc.cam.payload_bytes, overhead + extra);
        if now >= self.p.warmup_ns {
            self.metrics.cams_generated += 1;
        }
        let frame = Frame {
            kind: FrameKind::Cam {
                seq,
                gen_ns: now,
                pos,
                certificate,
                attached_key,
            },
            src: n,
            dst: None,
            bytes,
            enqueued_ns: now,
        };
        if sec.kind == ProtocolId::Tesla {
            self.schedule(
                now + sec.tesla_disclosure_ns,
                Event::TeslaKey { node: n, interval: seq },
            );
        }
        let ac = self.sc.cam.access_category.index();
        let cost = self.sec.sign.clone();
        self.prepare(n, frame, ac, &cost);
    }

    /// Signs or encrypts on the node's processor (urgent queue), then hands the frame to
    /// the MAC.
    fn prepare(&mut self, n: NodeId, frame: Frame, ac: usize, cost: &crate::security::Cost) {
        let service_ns = cost.sample_ns(self.rng_proc.gen());
        if service_ns == 0 {
            self.mac_enqueue(n, ac, frame);
            return;
        }
        let job = Job {
            work: Work::Prepare { frame, ac },
            arrival_ns: self.now,
            deadline_ns: u64::MAX,
            service_ns,
            distance_mm: 0,
        };
        self.submit(n, job, true);
    }

    fn query_gen(&mut self, n: NodeId) {
        let t = self.exp_delay(self.sc.query.request_rate_per_vehicle_hz);
        self.schedule(t, Event::QueryGen(n));
        let Some(pos) = self.nodes[n as usize].pos else { return };
        let vehicles = self.mobility.vehicles;
        let Some((rsu, _)) = self
            .mobility
            .rsus
            .iter()
            .enumerate()
            .map(|(k, r)| (k, dist(*r, pos)))
            .min_by(|a, b| a.1.total_cmp(&b.1))
        else {
            return;
        };
        let q = &self.sc.query;
        let enc = if self.sec.kind == ProtocolId::None {
            0
        } else {
            q.encryption_overhead_bytes
        };
        let counted = self.now >= self.p.warmup_ns && self.now + ns(q.timeout_s) <= self.p.end_ns;
        self.query_id += 1;
        let id = if counted { self.query_id } else { 0 };
        if counted {
            self.metrics.query.requests_sent += 1;
        }
        let frame = Frame {
            kind: FrameKind::QueryRequest {
                id,
                gen_ns: self.now,
                vehicle: n,
            },
            src: n,
            dst: Some((vehicles + rsu) as NodeId),
            bytes: self.frame_bytes(q.request_payload_bytes, enc),
            enqueued_ns: self.now,
        };
        let cost = self.sec.encrypt.clone();
        self.prepare(n, frame, q.access_category.index(), &cost);
    }

    fn attack_gen(&mut self, n: NodeId, k: usize) {
        let Some(a) = self.sc.attackers.get(k) else { return };
        let kind = a.kind;
        let period = ns(1.0 / a.rate_hz);
        self.schedule(self.now + period, Event::AttackGen { node: n, attacker: k });
        if self.nodes[n as usize].pos.is_none() {
            return;
        }
        let security = match kind {
            AttackKind::Unsigned => 0,
            _ => self.sec.overhead_digest,
        };
        let replay = match kind {
            AttackKind::Replay => match self.nodes[n as usize].last_heard_cam {
                Some(r) => Some(r),
                None => return,
            },
            _ => None,
        };
        let bytes = self.frame_bytes(a.payload_bytes, security);
        if self.now >= self.p.warmup_ns {
            self.metrics.attack_frames_sent += 1;
        }
        let frame = Frame {
            kind: FrameKind::Attack { kind, replay },
            src: n,
            dst: None,
            bytes,
            enqueued_ns: self.now,
        };
        self.mac_enqueue(n, self.sc.cam.access_category.index(), frame);
    }

    // ----- security processor ------------------------------------------------------

    fn submit(&mut self, n: NodeId, job: Job<Work>, urgent: bool) {
        let now = self.now;
        let mut expired = Vec::new();
        let started = self.nodes[n as usize]
            .proc
            .submit(job, urgent, now, &mut |j| expired.push(j));
        for j in expired {
            self.job_expired(n, j);
        }
        if let Some(j) = started {
            self.start_service(n, j);
        }
    }

    fn start_service(&mut self, n: NodeId, job: Job<Work>) {
        let t = self.now + job.service_ns;
        let slot = match self.free_service.pop() {
            Some(s) => s,
            None => {
                self.in_service.push(None);
                self.in_service.len() - 1
            }
        };
        self.in_service[slot] = Some(job);
        self.schedule(t, Event::ProcDone { node: n, slot });
    }

    fn proc_done(&mut self, n: NodeId, job: Job<Work>) {
        let now = self.now;
        let mut expired = Vec::new();
        let next = self.nodes[n as usize].proc.complete(now, &mut |j| expired.push(j));
        for j in expired {
            self.job_expired(n, j);
        }
        if let Some(j) = next {
            self.start_service(n, j);
        }
        match job.work {
            Work::Prepare { mut frame, ac } => {
                frame.enqueued_ns = now;
                self.mac_enqueue(n, ac, frame);
            }
            Work::Verify { frame, rx_ns, dist } => self.verified(n, frame, rx_ns, dist),
            Work::DecryptRequest { id, gen_ns, vehicle } => {
                if id != 0 {
                    self.metrics.query.requests_received += 1;
                }
                let q = &self.sc.query;
                let enc = if self.sec.kind == ProtocolId::None {
                    0
                } else {
                    q.encryption_overhead_bytes
                };
                let frame = Frame {
                    kind: FrameKind::QueryReply { id, gen_ns },
                    src: n,
                    dst: Some(vehicle),
                    bytes: self.frame_bytes(q.reply_payload_bytes, enc),
                    enqueued_ns: now,
                };
                let cost = self.sec.encrypt.clone();
                self.prepare(n, frame, q.access_category.index(), &cost);
            }
            Work::DecryptReply { gen_ns } => {
                let d = now - gen_ns;
                if d <= ns(self.sc.query.timeout_s) {
                    self.metrics.query.successes += 1;
                    self.metrics.query.delay.record(d);
                }
            }
        }
    }

    fn job_expired(&mut self, _n: NodeId, job: Job<Work>) {
        if let Work::Verify { frame, dist, .. } = job.work {
            match frame.kind {
                FrameKind::Cam { gen_ns, .. } if gen_ns >= self.p.warmup_ns => {
                    self.metrics.crypto_lost_deadline += 1;
                    self.bin_crypto_lost(dist);
                }
                FrameKind::Attack { .. } => self.metrics.attack_jobs_expired += 1,
                _ => {}
            }
        }
    }

    fn bin_crypto_lost(&mut self, dist: f32) {
        let b = (f64::from(dist) / self.p.bin_m) as usize;
        if let Some(bin) = self.metrics.bins.get_mut(b) {
            bin.crypto_lost += 1;
        }
    }

    fn reject(&mut self, reason: &str) {
        *self.metrics.rejected.entry(reason.to_string()).or_default() += 1;
    }

    /// A verification finished: deliver to the application or reject.
    fn verified(&mut self, n: NodeId, frame: Frame, rx_ns: u64, dist: f32) {
        let now = self.now;
        match frame.kind {
            FrameKind::Cam {
                seq,
                gen_ns,
                pos,
                certificate,
                ..
            } => {
                let src = frame.src;
                let nb = self.nodes[n as usize].neighbours.entry(src).or_default();
                let previous = nb.last_verified_ns;
                nb.last_verified_ns = Some(now);
                nb.last_pos = pos;
                nb.highest_seq = Some(nb.highest_seq.map_or(seq, |h| h.max(seq)));
                if certificate {
                    nb.certificate_known = true;
                }
                if gen_ns < self.p.warmup_ns {
                    return;
                }
                if let Some(prev) = previous.filter(|p| *p >= self.p.warmup_ns) {
                    self.metrics.inter_arrival.record(now - prev);
                }
                self.metrics.e2e_delay.record(now - gen_ns);
                self.metrics.verification_latency.record(now - rx_ns);
                let d = f64::from(dist);
                if let Some(bin) = self.metrics.bins.get_mut((d / self.p.bin_m) as usize) {
                    bin.verified += 1;
                }
                if d <= self.p.headline_m {
                    self.metrics.headline_verified += 1;
                }
                if self.sc.metrics.per_pair_counts {
                    self.pair(src, n).verified += 1;
                }
            }
            FrameKind::Attack { kind, .. } => match kind {
                AttackKind::Replay => self.metrics.attacks_accepted += 1,
                _ => self.reject("invalid-signature"),
            },
            _ => {}
        }
    }

    // ----- reception at the security layer -----------------------------------------

    fn received(&mut self, n: NodeId, frame: Frame, dist: f32) {
        let now = self.now;
        self.metrics.receptions += 1;
        if let Some(dst) = frame.dst {
            if dst != n {
                return;
            }
        }
        if self.nodes[n as usize].rsu {
            if let FrameKind::QueryRequest { id, gen_ns, vehicle } = frame.kind {
                let service_ns = self.sec.decrypt.sample_ns(self.rng_proc.gen());
                let job = Job {
                    work: Work::DecryptRequest { id, gen_ns, vehicle },
                    arrival_ns: now,
                    deadline_ns: u64::MAX,
                    service_ns,
                    distance_mm: (f64::from(dist) * 1000.0) as u64,
                };
                self.submit(n, job, false);
            }
            return;
        }
        match frame.kind {
            FrameKind::Cam {
                seq,
                gen_ns,
                certificate,
                attached_key,
                ..
            } => {
                let src = frame.src;
                self.nodes[n as usize].last_heard_cam = Some((src, seq, gen_ns));
                let known = {
                    let nb = self.nodes[n as usize].neighbours.entry(src).or_default();
                    nb.last_rx_ns = Some(now);
                    nb.certificate_known
                };
                let counted = gen_ns >= self.p.warmup_ns;
                if counted {
                    let d = f64::from(dist);
                    if let Some(bin) = self.metrics.bins.get_mut((d / self.p.bin_m) as usize) {
                        bin.received += 1;
                    }
                    if d <= self.p.headline_m {
                        self.metrics.headline_received += 1;
                    }
                    if self.sc.metrics.per_pair_counts {
                        self.pair(src, n).received += 1;
                    }
                    self.metrics.security_arrivals += 1;
                }
                let sec = self.sec;
                match sec.kind {
                    ProtocolId::None => self.verified(n, frame, now, dist),
                    ProtocolId::Tesla | ProtocolId::TeslaAttached => {
                        let nb = self.nodes[n as usize].neighbours.entry(src).or_default();
                        nb.pending.push((seq, frame, now, dist));
                        if let Some(k) = attached_key {
                            self.tesla_key(n, src, k);
                        }
                    }
                    _ => {
                        if !certificate && sec.require_known_certificate && !known {
                            if counted {
                                self.metrics.crypto_lost_unknown_certificate += 1;
                                self.bin_crypto_lost(dist);
                            }
                            return;
                        }
                        let cost = if certificate {
                            &sec.verify_certificate
                        } else {
                            &sec.verify
                        };
                        let service_ns = cost.sample_ns(self.rng_proc.gen());
                        self.enqueue_verify(n, frame, now, dist, service_ns);
                    }
                }
            }
            FrameKind::TeslaKey { interval } => self.tesla_key(n, frame.src, interval),
            FrameKind::QueryReply { id, gen_ns } => {
                if id != 0 {
                    self.metrics.query.replies_received += 1;
                    let service_ns = self.sec.decrypt.sample_ns(self.rng_proc.gen());
                    let job = Job {
                        work: Work::DecryptReply { gen_ns },
                        arrival_ns: now,
                        deadline_ns: u64::MAX,
                        service_ns,
                        distance_mm: (f64::from(dist) * 1000.0) as u64,
                    };
                    self.submit(n, job, false);
                }
            }
            FrameKind::QueryRequest { .. } => {}
            FrameKind::Attack { kind, replay } => self.attack_received(n, frame.clone(), kind, replay, dist),
        }
    }

    fn enqueue_verify(&mut self, n: NodeId, frame: Frame, rx_ns: u64, dist: f32, service_ns: u64) {
        let job = Job {
            work: Work::Verify { frame, rx_ns, dist },
            arrival_ns: self.now,
            deadline_ns: rx_ns.saturating_add(self.sec.deadline_ns),
            service_ns,
            distance_mm: (f64::from(dist) * 1000.0) as u64,
        };
        if service_ns == 0 {
            if let Work::Verify { frame, rx_ns, dist } = job.work {
                self.verified(n, frame, rx_ns, dist);
            }
            return;
        }
        self.submit(n, job, false);
    }

    /// A TESLA key for `interval` arrived: every buffered packet of an interval up to it
    /// becomes verifiable (later keys verify earlier intervals through the hash chain).
    fn tesla_key(&mut self, n: NodeId, src: NodeId, interval: u32) {
        let now = self.now;
        let deadline = self.sec.deadline_ns;
        let Some(nb) = self.nodes[n as usize].neighbours.get_mut(&src) else {
            return;
        };
        let (ready, keep): (Vec<_>, Vec<_>) = std::mem::take(&mut nb.pending)
            .into_iter()
            .partition(|p| p.0 <= interval);
        nb.pending = keep;
        // Packets whose key never came within the deadline are lost too.
        let cutoff = now.saturating_sub(deadline);
        let (late, keep): (Vec<_>, Vec<_>) = std::mem::take(&mut nb.pending).into_iter().partition(|p| p.2 < cutoff);
        nb.pending = keep;
        for (_, frame, rx_ns, dist) in late.into_iter().chain(ready.iter().filter(|p| p.2 < cutoff).cloned()) {
            if matches!(frame.kind, FrameKind::Cam { gen_ns, .. } if gen_ns >= self.p.warmup_ns) {
                self.metrics.crypto_lost_key += 1;
                self.bin_crypto_lost(dist);
            }
            let _ = rx_ns;
        }
        for (_, frame, rx_ns, dist) in ready.into_iter().filter(|p| p.2 >= cutoff) {
            let service_ns = self.sec.verify.sample_ns(self.rng_proc.gen());
            self.enqueue_verify(n, frame, rx_ns, dist, service_ns);
        }
    }

    fn attack_received(
        &mut self,
        n: NodeId,
        frame: Frame,
        kind: AttackKind,
        replay: Option<(NodeId, u32, u64)>,
        dist: f32,
    ) {
        let sec = self.sec;
        if sec.kind == ProtocolId::None {
            // Without security every forged message is accepted.
            self.metrics.attacks_accepted += 1;
            return;
        }
        match kind {
            AttackKind::Unsigned => self.reject("unsigned"),
            AttackKind::Stale => self.reject("stale"),
            AttackKind::ExpiredCertificate if sec.kind.uses_certificates() => self.reject("expired-certificate"),
            AttackKind::Replay => {
                let Some((orig, seq, gen_ns)) = replay else { return };
                let seen = self.nodes[n as usize]
                    .neighbours
                    .get(&orig)
                    .and_then(|nb| nb.highest_seq)
                    .is_some_and(|h| h >= seq);
                if seen {
                    self.reject("replay");
                } else if self.now.saturating_sub(gen_ns) > sec.freshness_ns {
                    self.reject("stale");
                } else {
                    let service_ns = sec.verify.sample_ns(self.rng_proc.gen());
                    self.enqueue_verify(n, frame, self.now, dist, service_ns);
                }
            }
            AttackKind::InvalidSignature | AttackKind::Flood | AttackKind::ExpiredCertificate => {
                let service_ns = sec.verify.sample_ns(self.rng_proc.gen()).max(1);
                self.enqueue_verify(n, frame, self.now, dist, service_ns);
            }
        }
    }

    // ----- MAC (EDCA broadcast, no retries) -----------------------------------------

    fn aifs(&self, n: NodeId, ac: usize) -> (u64, u32) {
        let (aifs, cw) = ac_timing(ACS[ac], &self.p);
        let extra = if self.nodes[n as usize].last_rx_error {
            self.p.eifs_extra_ns
        } else {
            0
        };
        (aifs + extra, cw)
    }

    fn mac_enqueue(&mut self, n: NodeId, ac: usize, frame: Frame) {
        let cap = self.p.queue_capacity;
        let node = &mut self.nodes[n as usize];
        if node.edca[ac].queue.len() >= cap {
            self.metrics.mac_queue_drops += 1;
            return;
        }
        node.edca[ac].queue.push_back(frame);
        if node.edca[ac].access_at.is_some() {
            return;
        }
        if node.busy {
            if node.edca[ac].slots == 0 {
                let (_, cw) = ac_timing(ACS[ac], &self.p);
                let s = self.rng_mac.gen_range(0..=cw);
                self.nodes[n as usize].edca[ac].slots = s;
            }
            return;
        }
        self.schedule_access(n, ac);
    }

    /// Medium idle: wait AIFS, then count the remaining backoff slots.
    fn schedule_access(&mut self, n: NodeId, ac: usize) {
        let (aifs, _) = self.aifs(n, ac);
        let now = self.now;
        let slot = self.p.slot_ns;
        let node = &mut self.nodes[n as usize];
        let count_start = (node.idle_since + aifs).max(now);
        let e = &mut node.edca[ac];
        let t = count_start + u64::from(e.slots) * slot;
        e.gen = e.gen.wrapping_add(1);
        e.access_at = Some(t);
        e.count_start = count_start;
        let gen = e.gen;
        self.schedule(t, Event::Access { node: n, ac, gen });
    }

    fn mac_medium_busy(&mut self, n: NodeId) {
        let now = self.now;
        let (slot, detect) = (self.p.slot_ns, self.p.cca_detect_ns);
        for e in self.nodes[n as usize].edca.iter_mut() {
            let Some(t) = e.access_at else { continue };
            // Too late to sense: this station transmits as well.
            if t <= now + detect {
                continue;
            }
            let counted = if now > e.count_start {
                ((now - e.count_start) / slot) as u32
            } else {
                0
            };
            e.slots -= counted.min(e.slots);
            e.access_at = None;
            e.gen = e.gen.wrapping_add(1);
        }
    }

    fn mac_medium_idle(&mut self, n: NodeId) {
        for ac in 0..ACS.len() {
            let e = &self.nodes[n as usize].edca[ac];
            if e.access_at.is_none() && (!e.queue.is_empty() || e.slots > 0) {
                self.schedule_access(n, ac);
            }
        }
    }

    fn on_access(&mut self, n: NodeId, ac: usize, gen: u32) {
        let now = self.now;
        let (_, cw) = ac_timing(ACS[ac], &self.p);
        {
            let e = &mut self.nodes[n as usize].edca[ac];
            if e.gen != gen || e.access_at.is_none() {
                return;
            }
            e.access_at = None;
            e.slots = 0;
        }
        if self.nodes[n as usize].tx_until > now {
            // Internal collision with another access category of this station.
            let s = self.rng_mac.gen_range(0..=cw);
            self.nodes[n as usize].edca[ac].slots = s.max(1);
            return;
        }
        let max_delay = self.p.queue_max_delay_ns;
        let frame = loop {
            match self.nodes[n as usize].edca[ac].queue.pop_front() {
                None => return,
                Some(f) if now.saturating_sub(f.enqueued_ns) > max_delay => self.metrics.mac_delay_drops += 1,
                Some(f) => break f,
            }
        };
        if self.nodes[n as usize].pos.is_none() {
            self.nodes[n as usize].edca[ac].queue.clear();
            return;
        }
        // Post-backoff: a new backoff follows every transmission.
        let s = self.rng_mac.gen_range(0..=cw);
        self.nodes[n as usize].edca[ac].slots = s;
        self.transmit(n, frame);
    }

    // ----- PHY -------------------------------------------------------------------------

    fn transmit(&mut self, n: NodeId, frame: Frame) {
        let now = self.now;
        let Some(src_pos) = self.nodes[n as usize].pos else {
            return;
        };
        let airtime = phy::airtime_ns(frame.bytes, self.p.rate_mbps);
        let end = now + airtime;
        let is_cam = matches!(frame.kind, FrameKind::Cam { .. });
        let counted = match frame.kind {
            FrameKind::Cam { gen_ns, .. } => gen_ns >= self.p.warmup_ns,
            _ => now >= self.p.warmup_ns,
        };
        if counted {
            self.metrics.frames_sent += 1;
            if matches!(frame.kind, FrameKind::TeslaKey { .. }) {
                self.metrics.key_frames_sent += 1;
            }
            if is_cam {
                self.metrics.mac_delay.record(now - frame.enqueued_ns);
                if self.sc.metrics.per_pair_counts {
                    *self.metrics.per_node_sent.entry(n).or_default() += 1;
                }
            }
        }
        // Half duplex: a frame being received is lost when this node starts sending.
        self.close_chunk(n);
        self.nodes[n as usize].lock = None;
        self.nodes[n as usize].tx_until = end;
        self.update_medium(n);

        let mut near = Vec::new();
        self.grid.for_each_near(src_pos, self.p.search_m, |j| near.push(j));
        let mut receivers = Vec::with_capacity(near.len());
        let count_attempts = is_cam && counted;
        for j in near {
            if j == n {
                continue;
            }
            let Some(pj) = self.nodes[j as usize].pos else { continue };
            let d = dist(pj, src_pos);
            if count_attempts && d <= self.p.max_distance_m && !self.nodes[j as usize].rsu {
                let b = (d / self.p.bin_m) as usize;
                if let Some(bin) = self.metrics.bins.get_mut(b) {
                    bin.attempts += 1;
                }
                if d <= self.p.headline_m {
                    self.metrics.headline_attempts += 1;
                }
            }
            if d > self.p.cutoff_m {
                continue;
            }
            let Some(mw) = self.link.sample_mw(d, &mut self.rng_channel) else {
                continue;
            };
            receivers.push((j, mw, d as f32));
        }
        let id = match self.free_tx.pop() {
            Some(i) => i,
            None => {
                self.txs.push(None);
                self.txs.len() - 1
            }
        };
        for &(j, mw, _) in &receivers {
            self.signal_start(j, id, mw, now);
        }
        self.metrics.signals += receivers.len() as u64;
        self.txs[id] = Some(Transmission { frame, receivers });
        self.schedule(end, Event::TxEnd(id));
    }

    fn close_chunk(&mut self, j: NodeId) {
        let now = self.now;
        let (noise, rate) = (self.p.noise_mw, self.p.rate_mbps);
        let errors = &self.errors;
        let nist = self.sc.radio.reception_model == ReceptionModel::NistErrorRate;
        let node = &mut self.nodes[j as usize];
        let energy = node.energy_mw;
        let Some(lock) = node.lock.as_mut() else { return };
        if now > lock.last_change {
            let interference = (energy - lock.signal_mw).max(0.0);
            let sinr = lock.signal_mw / (noise + interference);
            lock.min_sinr = lock.min_sinr.min(sinr);
            if nist {
                let from = lock.last_change.max(lock.payload_start);
                if now > from {
                    let bits = (now - from) as f64 * 1e-9 * rate * 1e6;
                    lock.log_success += errors.ln_success(sinr, bits);
                }
            }
            lock.last_change = now;
        }
    }

    fn signal_start(&mut self, j: NodeId, tx: usize, mw: f64, now: u64) {
        self.close_chunk(j);
        let (noise, pre_mw, pre_snr) = (self.p.noise_mw, self.p.preamble_mw, self.p.preamble_snr);
        let node = &mut self.nodes[j as usize];
        let before = node.energy_mw;
        node.energy_mw += mw;
        node.signals += 1;
        if node.tx_until <= now && node.lock.is_none() && mw >= pre_mw && mw / (noise + before) >= pre_snr {
            node.lock = Some(Lock {
                tx,
                signal_mw: mw,
                payload_start: now + phy::PREAMBLE_AND_SIGNAL_NS,
                last_change: now,
                min_sinr: f64::INFINITY,
                log_success: 0.0,
            });
        }
        self.update_medium(j);
    }

    fn tx_end(&mut self, id: usize) {
        let Some(tx) = self.txs.get_mut(id).and_then(Option::take) else {
            return;
        };
        self.free_tx.push(id);
        let src = tx.frame.src;
        self.update_medium(src);
        for &(j, mw, dist) in &tx.receivers {
            self.close_chunk(j);
            let threshold = self.p.sinr_threshold;
            let model = self.sc.radio.reception_model;
            let node = &mut self.nodes[j as usize];
            node.energy_mw -= mw;
            node.signals = node.signals.saturating_sub(1);
            if node.signals == 0 {
                node.energy_mw = 0.0;
            }
            let mut decoded = false;
            if node.lock.as_ref().is_some_and(|l| l.tx == id) {
                if let Some(l) = node.lock.take() {
                    decoded = match model {
                        ReceptionModel::SinrThreshold => l.min_sinr >= threshold,
                        ReceptionModel::NistErrorRate => {
                            let u: f64 = self.rng_channel.gen();
                            u < l.log_success.exp()
                        }
                    };
                    node.last_rx_error = !decoded;
                }
            }
            self.update_medium(j);
            if decoded {
                self.received(j, tx.frame.clone(), dist);
            }
        }
    }

    /// Recomputes the clear-channel assessment and tells the MAC about changes.
    fn update_medium(&mut self, n: NodeId) {
        let now = self.now;
        let ed = self.p.ed_mw;
        let warm = self.p.warmup_ns;
        let node = &mut self.nodes[n as usize];
        let busy = node.tx_until > now || node.lock.is_some() || node.energy_mw >= ed;
        if busy == node.busy {
            return;
        }
        node.busy = busy;
        if busy {
            node.busy_since = now;
            self.mac_medium_busy(n);
        } else {
            let since = node.busy_since.max(warm);
            if !node.rsu && now > since {
                self.metrics.busy_ns += (now - since) as f64;
            }
            node.idle_since = now;
            self.mac_medium_idle(n);
        }
    }
}
