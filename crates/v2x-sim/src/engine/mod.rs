//! The discrete-event core: one run of one variant, split the way ns-3 separates its wifi
//! models:
//!
//! - this module: the event loop (a binary heap ordered by time and insertion sequence,
//!   so equal-time events run in a deterministic order), node state, mobility updates and
//!   awareness sampling;
//! - [`mac`]: EDCA broadcast per station;
//! - [`reception`]: signals, interference, preamble lock, SINR and error model, CCA;
//! - [`apps`]: CAM/BSM beacons, V2I queries, attackers, TESLA key frames;
//! - [`relay`]: multi-hop forwarding of a signed message, verified at every hop;
//! - [`processing`]: the security processor of each station (signing, verification
//!   queues, TESLA key buffering, attack handling);
//! - [`neighbours`]: what each station knows of the stations it heard;
//! - [`trace`]: the [`Observer`] the models report to, and the collector
//!   that turns those events into [`RunMetrics`];
//! - [`parallel`]: the receivers of one transmission on the run's threads;
//! - [`weak`]: weak interference summed per map cell.
//!
//! A transmission touches only the receivers found in the spatial grid within the cutoff
//! range (within the weak radius when weak interference is aggregated). Their part of the
//! work (fading draw, radio, CCA, and at its end the security layer's handling of a decoded
//! CAM where the receiver can do it alone) runs first, possibly in parallel, each receiver
//! on the thread that owns its state; what reaches further (the MAC's reactions, metrics,
//! new events, the other received frames) is logged and then applied in the order of the
//! candidate list, so a run does not depend on the thread count.

pub mod apps;
pub mod mac;
pub mod neighbours;
pub mod parallel;
pub mod processing;
pub mod reception;
pub mod relay;
pub mod trace;
pub mod weak;

use crate::channel::{self, Fading, LinkBudget, PathLoss};
use crate::error::SimError;
use crate::keyed_rng::{Draw, RunDice};
use crate::metrics::RunMetrics;
use crate::mobility::{Mobility, Position};
use crate::phy;
use crate::scenario::{AttackKind, Scenario};
use crate::security::SecurityModel;
use crate::spatial::SpatialGrid;
use crate::station_crypto::StationCrypto;
use crate::verifier::Processor;
use mac::{AccessTimer, MacParams, Macs};
use neighbours::NeighbourTable;
use parallel::{in_key_order, Sharded, Workers};
use processing::{Service, TeslaPending, Work};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use reception::{PhyParams, Radio};
use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};
use trace::{CollectorParams, MetricsCollector, Observer};
use weak::WeakField;

pub type NodeId = u32;

/// A fast hasher for small integer keys (deterministic, no per-process seed).
#[derive(Default)]
pub struct IntHasher(u64);

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

pub type IntMap<V> = HashMap<NodeId, V, BuildHasherDefault<IntHasher>>;

/// Seconds to ns, clamped so that adding two durations cannot overflow.
pub(crate) fn ns(s: f64) -> u64 {
    round_nonneg(s.clamp(0.0, 4e9) * 1e9)
}

/// `x.round() as u64` inline (0 for negative values and NaN): `f64::round` is a libm call
/// on baseline x86-64, and this runs for every receiver of every transmission (its
/// propagation delay) and every cell of its weak-interference field. Exact: below 2^52
/// `x - trunc(x)` is exact; above, `x` is an integer.
pub(crate) fn round_nonneg(x: f64) -> u64 {
    let t = x as u64;
    if x - t as f64 >= 0.5 {
        t + 1
    } else {
        t
    }
}

/// What a frame carries.
#[derive(Debug, Clone)]
pub enum FrameKind {
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
        gen_ns: u64,
        replay: Option<(NodeId, u32, u64)>,
    },
    /// A multi-hop message ([`relay`]): `hops` crossed so far; `decided_ns`, when its
    /// sender decided to send it (generation at the source, verification at a relay).
    Relay {
        seq: u32,
        gen_ns: u64,
        hops: u32,
        decided_ns: u64,
    },
}

/// A MAC frame (whole MPDU size).
#[derive(Debug, Clone)]
pub struct Frame {
    pub kind: FrameKind,
    pub src: NodeId,
    pub dst: Option<NodeId>,
    pub bytes: u32,
}

struct Transmission {
    /// Unique within the run: the key of the channel's random draws.
    serial: u64,
    frame: Frame,
    /// The receivers heard individually, per shard.
    receivers: Vec<Vec<Receiver>>,
    /// What it added to the weak-interference field (cell, units).
    weak: Vec<(u32, i64)>,
}

enum Event {
    Mobility,
    Awareness,
    /// Forget neighbours not heard for [`NEIGHBOUR_TIMEOUT_NS`].
    NeighbourSweep,
    CamGen(NodeId),
    QueryGen(NodeId),
    AttackGen {
        node: NodeId,
        attacker: usize,
    },
    TeslaKey {
        node: NodeId,
        interval: u32,
    },
    /// A TESLA packet from `src` buffered at `node` reaches its deadline.
    TeslaExpiry {
        node: NodeId,
        src: NodeId,
    },
    Access {
        node: NodeId,
        ac: usize,
        gen: u32,
    },
    TxEnd(usize),
    /// The security processor of a station completes a job that must complete on time
    /// (see [`processing::Service`]).
    ProcWake(NodeId),
    RelayGen {
        seq: u32,
    },
}

impl Event {
    /// The station whose security state (processor, neighbour table, certificate flag) the
    /// event reads: its processor's completions due by then are applied first (see
    /// [`processing::Service`]).
    fn reads_station(&self) -> Option<NodeId> {
        match *self {
            Event::CamGen(n) | Event::QueryGen(n) => Some(n),
            Event::AttackGen { node, .. } | Event::TeslaKey { node, .. } | Event::TeslaExpiry { node, .. } => {
                Some(node)
            }
            _ => None,
        }
    }
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

struct Node {
    proc: Processor<Work>,
    /// What `proc` is serving.
    service: Service,
    cam_seq: u32,
    last_certificate_ns: Option<u64>,
    /// The next CAM carries the certificate: a new station was heard.
    certificate_due: bool,
    neighbours: NeighbourTable,
    tesla_pending: TeslaPending,
    last_heard_cam: Option<(NodeId, u32, u64)>,
    /// Per-signer tables (verifier strategy `precomputed`; empty otherwise).
    tables: crate::signer_tables::SignerTables,
}

impl Node {
    fn new(sec: &SecurityModel) -> Node {
        Node {
            proc: Processor::new(sec.cores, sec.order, sec.deadline_policy).with_signing(sec.signing),
            service: Service::default(),
            cam_seq: 0,
            last_certificate_ns: None,
            certificate_due: false,
            neighbours: NeighbourTable::default(),
            tesla_pending: TeslaPending::default(),
            last_heard_cam: None,
            tables: Default::default(),
        }
    }
}

/// The weak-interference field a run builds once it knows where its nodes are.
struct WeakSpec {
    periods: [Option<f64>; 2],
    cell_m: f64,
    radius_m: f64,
}

/// Run-wide constants derived from the scenario.
struct Params {
    end_ns: u64,
    warmup_ns: u64,
    cutoff_m: f64,
    /// Radius of the range query for the receivers of a transmission.
    receivers_m: f64,
    mac_overhead: u32,
    max_distance_m: f64,
    phy: PhyParams,
    mac: MacParams,
}

const MAX_CUTOFF_M: f64 = 100_000.0;

/// A neighbour not heard for this long is forgotten (its entry, with its certificate and
/// replay state, is dropped): the tables then hold the stations around a receiver instead
/// of every station it ever heard, which grew with the simulated time. Ten times the
/// default awareness window, so awareness (heard within the window) is unaffected; an
/// inter-arrival gap longer than this is not sampled.
const NEIGHBOUR_TIMEOUT_NS: u64 = 10_000_000_000;

/// One run: a scenario, a security variant and a seed, reporting to an observer.
pub struct Sim<'a, O: Observer = MetricsCollector> {
    sc: &'a Scenario,
    sec: &'a SecurityModel,
    p: Params,
    mobility: Mobility,
    link: LinkBudget,
    errors: phy::ChunkErrors,
    grid: SpatialGrid,
    /// The rest of node i's state, in the radios' shards: the thread that owns a
    /// receiver's radio also handles the CAMs it decodes.
    nodes: Sharded<Node>,
    /// The radio of node i, apart from the rest of its state: every signal touches the
    /// radios of its receivers, so they are packed together (struct of arrays), in one
    /// shard per thread.
    radios: Sharded<Radio>,
    /// The MAC of every node (its busy/idle flags packed apart from its queues).
    macs: Macs<Frame>,
    /// Whether node i is a road side unit, apart from the rest of its state: the loop over
    /// the candidates of every transmission reads it.
    is_rsu: Vec<bool>,
    positions: Vec<Option<Position>>,
    /// Scratch list of the nodes near a transmitter (id, distance), reused.
    near: Vec<(NodeId, f64)>,
    /// Receiver lists of finished transmissions, reused (no allocation per transmission).
    free_receivers: Vec<Vec<Vec<Receiver>>>,
    /// Scratch of the receivers' part of a transmission's start and end, per shard, reused:
    /// the shard's logs.
    arrival_logs: Vec<Vec<Arrived>>,
    departure_logs: Vec<Vec<Departed>>,
    /// What the receivers that handled a decoded CAM alone reported (see [`Departed::calls`]).
    departure_calls: Vec<Vec<trace::Call>>,
    workers: Workers,
    /// Weak interference summed per map cell (`aggregate` mode), and each node's cell.
    weak: Option<WeakField>,
    /// The field to build over the first positions.
    weak_spec: Option<WeakSpec>,
    node_cell: Vec<u32>,
    /// Lists of what finished transmissions added to the field, reused.
    free_weak: Vec<Vec<(u32, i64)>>,
    /// Counter-based draws of the channel and the receivers.
    dice: RunDice,
    next_serial: u64,
    queue: BinaryHeap<Scheduled>,
    seq: u64,
    now: u64,
    txs: Vec<Option<Transmission>>,
    free_tx: Vec<usize>,
    rng_mobility: ChaCha8Rng,
    rng_mac: ChaCha8Rng,
    rng_app: ChaCha8Rng,
    rng_proc: ChaCha8Rng,
    attackers: Vec<(NodeId, usize)>,
    query_id: u32,
    relay: relay::RelayState,
    /// Real security services of the stations (`mode = "real-crypto"`), else `None`.
    crypto: Option<Box<dyn StationCrypto + 'a>>,
    /// Complete every job of the security processors at an event of its own (for tests:
    /// the lazy completions of [`processing::Service`] must give the same results).
    every_completion_on_time: bool,
    /// Reports simulated time to the run's progress meter, if any.
    ticker: crate::progress::Ticker,
    trace: O,
}

impl<'a> Sim<'a, MetricsCollector> {
    /// A run whose events build [`RunMetrics`].
    pub fn new(sc: &'a Scenario, sec: &'a SecurityModel, seed: u64) -> Result<Self, SimError> {
        Sim::with_observer(sc, sec, seed, |nodes| {
            MetricsCollector::new(CollectorParams {
                bin_m: sc.metrics.distance_bin_m,
                max_distance_m: sc.metrics.max_distance_m,
                headline_m: sc.metrics.headline_range_m,
                per_pair_counts: sc.metrics.per_pair_counts,
                nodes,
                deadlines_ns: sc
                    .variants
                    .iter()
                    .map(|v| v.deadline_ms())
                    .chain(sc.metrics.latency_thresholds_ms.iter().copied())
                    .map(|ms| ns(ms / 1000.0))
                    .collect(),
            })
        })
    }

    /// Runs to the end and returns the metrics.
    pub fn run(self) -> RunMetrics {
        let started = std::time::Instant::now();
        self.run_with_observer().finish(started.elapsed().as_secs_f64())
    }
}

impl<'a, O: Observer> Sim<'a, O> {
    /// A run reporting to the observer `make` builds for the run's node count.
    pub fn with_observer(
        sc: &'a Scenario,
        sec: &'a SecurityModel,
        seed: u64,
        make: impl FnOnce(usize) -> O,
    ) -> Result<Self, SimError> {
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
        let mut p = Params {
            end_ns: ns(sc.duration_s),
            warmup_ns: ns(sc.warmup_s),
            cutoff_m,
            receivers_m: cutoff_m.max(sc.metrics.max_distance_m),
            mac_overhead: m.mac_overhead_bytes,
            max_distance_m: sc.metrics.max_distance_m,
            phy: PhyParams::from_radio(r),
            mac: MacParams::from_config(m),
        };
        let link = LinkBudget::new(
            &path_loss,
            &Fading::new(&r.fading),
            r.tx_power_dbm,
            r.rx_sensitivity_dbm,
            cutoff_m,
        );
        let n = mobility.nodes();
        let vehicles = mobility.vehicles;
        let nodes = Sharded::from_fn(n, 1, || Node::new(sec));
        // The grid mobility is a torus and the highway a ring road: radio distances wrap as
        // the vehicles do, so that vehicles near an edge see as many neighbours as others.
        let periods = match sc.mobility {
            crate::scenario::MobilityConfig::Grid { width_m, height_m, .. } => [Some(width_m), Some(height_m)],
            crate::scenario::MobilityConfig::Highway { length_m, .. } => [Some(length_m), None],
            _ => [None, None],
        };
        let weak_spec = match r.weak_interference {
            crate::scenario::WeakInterference::PerReceiver => None,
            crate::scenario::WeakInterference::Aggregate => {
                // Weak: reaching neither the preamble threshold nor the CCA's.
                let cca_mw = match p.phy.cca {
                    crate::scenario::CcaModel::AggregateEnergy => p.phy.cca_mw,
                    crate::scenario::CcaModel::PreambleAndEnergy => p.phy.ed_mw,
                };
                let radius = WeakField::radius_m(&link, p.phy.preamble_mw.min(cca_mw));
                let cell = r.weak_interference_cell_m;
                // Receivers heard individually lie within the radius of some point of
                // their cell.
                p.receivers_m = cutoff_m
                    .min(radius + cell * std::f64::consts::SQRT_2)
                    .max(sc.metrics.max_distance_m);
                Some(WeakSpec {
                    periods,
                    cell_m: cell,
                    radius_m: radius,
                })
            }
        };
        // Cells of a quarter of the receivers' radius: a range query reads about twice
        // the disc's area instead of the whole 3 x 3 block around it (at city scale, where
        // the cutoff range is a large part of the map, most of the map).
        let grid = SpatialGrid::wrapping(p.receivers_m / 4.0, periods);
        Ok(Sim {
            sc,
            sec,
            mobility,
            link,
            errors: phy::ChunkErrors::new(r.reception_model.error_rate_model(), r.data_rate_mbps),
            grid,
            is_rsu: (0..n).map(|i| i >= vehicles).collect(),
            radios: Sharded::new(n, 1),
            macs: Macs::new(n),
            nodes,
            positions: Vec::new(),
            near: Vec::new(),
            free_receivers: Vec::new(),
            arrival_logs: Vec::new(),
            departure_logs: Vec::new(),
            departure_calls: Vec::new(),
            workers: Workers::sequential(),
            weak: None,
            weak_spec,
            node_cell: Vec::new(),
            free_weak: Vec::new(),
            dice: RunDice::new(seed),
            next_serial: 0,
            queue: BinaryHeap::new(),
            seq: 0,
            now: 0,
            txs: Vec::new(),
            free_tx: Vec::new(),
            rng_mobility,
            rng_mac: stream(3),
            rng_app: stream(4),
            rng_proc: stream(5),
            attackers: Vec::new(),
            query_id: 0,
            relay: relay::RelayState::default(),
            crypto: None,
            every_completion_on_time: false,
            ticker: crate::progress::Ticker::default(),
            trace: make(n),
            p,
        })
    }

    /// Hands every security decision of the stations to real implementations (see
    /// [`crate::station_crypto`]).
    pub fn with_station_crypto(mut self, crypto: Box<dyn StationCrypto + 'a>) -> Self {
        self.crypto = Some(crypto);
        self
    }

    /// Evaluates the receivers of each transmission on `threads` threads (results do not
    /// depend on the count).
    /// Reports the run's simulated time to `meter` as it advances.
    pub fn with_meter(mut self, meter: std::sync::Arc<v2x_report::RunMeter>) -> Self {
        self.ticker = crate::progress::Ticker::new(meter);
        self
    }

    pub fn with_threads(mut self, threads: usize) -> Result<Self, SimError> {
        self.workers = Workers::new(threads).map_err(|source| SimError::Threads { threads, source })?;
        let (shards, sec) = (self.workers.shards(), self.sec);
        self.radios = Sharded::new(self.nodes.len(), shards);
        let nodes = std::mem::replace(&mut self.nodes, Sharded::from_fn(0, 1, || Node::new(sec)));
        self.nodes = nodes.reshard(shards, || Node::new(sec));
        Ok(self)
    }

    /// Cutoff range actually used (m).
    pub fn cutoff_m(&self) -> f64 {
        self.p.cutoff_m
    }

    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    fn schedule(&mut self, t: u64, ev: Event) {
        self.seq += 1;
        self.queue.push(Scheduled { t, seq: self.seq, ev });
    }

    fn schedule_access(&mut self, node: NodeId, t: AccessTimer) {
        self.schedule(
            t.at_ns,
            Event::Access {
                node,
                ac: t.ac,
                gen: t.gen,
            },
        );
    }

    /// Runs to the end and returns the observer.
    pub fn run_with_observer(mut self) -> O {
        self.start();
        let workers = self.workers.clone();
        workers.run(|| {
            while let Some(s) = self.queue.pop() {
                if s.t > self.p.end_ns {
                    break;
                }
                self.now = s.t;
                self.ticker.tick(s.t);
                self.trace.event();
                self.handle(s.ev);
            }
        });
        self.now = self.p.end_ns;
        self.catch_up_all(self.p.end_ns);
        // Close the busy-time accounting of nodes still busy at the end.
        for i in 0..self.nodes.len() {
            if self.radios[i].busy {
                let since = self.radios[i].busy_since.max(self.p.warmup_ns);
                self.trace.busy_time(self.p.end_ns.saturating_sub(since) as f64);
            }
        }
        self.trace
    }

    fn start(&mut self) {
        self.update_positions();
        if self.mobility.update_interval_s.is_finite() {
            let t = ns(self.mobility.update_interval_s);
            self.schedule(t, Event::Mobility);
        }
        self.start_applications();
        self.start_relay();
        let t = ns(self.sc.warmup_s.max(self.sc.metrics.awareness_sample_interval_s));
        self.schedule(t, Event::Awareness);
        self.schedule(NEIGHBOUR_TIMEOUT_NS, Event::NeighbourSweep);
    }

    fn handle(&mut self, ev: Event) {
        if let Some(n) = ev.reads_station() {
            self.catch_up(n, self.now);
        }
        match ev {
            Event::Mobility => {
                self.update_positions();
                let t = self.now + ns(self.mobility.update_interval_s);
                self.schedule(t, Event::Mobility);
            }
            Event::Awareness => {
                self.catch_up_all(self.now);
                self.sample_awareness();
                let t = self.now + ns(self.sc.metrics.awareness_sample_interval_s);
                self.schedule(t, Event::Awareness);
            }
            Event::NeighbourSweep => {
                self.catch_up_all(self.now);
                let before = self.now.saturating_sub(self.neighbour_timeout_ns());
                for node in self.nodes.iter_mut() {
                    node.tesla_pending.retain(|_, p| !p.is_empty());
                    let pending = &node.tesla_pending;
                    node.neighbours
                        .retain(|src, nb| !nb.forgettable(before) || pending.contains_key(&src));
                }
                let t = self.now + NEIGHBOUR_TIMEOUT_NS / 2;
                self.schedule(t, Event::NeighbourSweep);
            }
            Event::CamGen(n) => self.cam_gen(n),
            Event::QueryGen(n) => self.query_gen(n),
            Event::AttackGen { node, attacker } => self.attack_gen(node, attacker),
            Event::TeslaKey { node, interval } => self.tesla_key_gen(node, interval),
            Event::TeslaExpiry { node, src } => self.tesla_expiry(node, src),
            Event::Access { node, ac, gen } => self.on_access(node, ac, gen),
            Event::TxEnd(id) => self.tx_end(id),
            Event::RelayGen { seq } => self.relay_gen(seq),
            Event::ProcWake(n) => self.proc_wake(n),
        }
    }

    // ----- mobility and awareness sampling -----------------------------------------

    /// [`NEIGHBOUR_TIMEOUT_NS`], or longer when the awareness window is.
    fn neighbour_timeout_ns(&self) -> u64 {
        NEIGHBOUR_TIMEOUT_NS.max(ns(self.sc.metrics.awareness_window_ms / 1000.0))
    }

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
        for (p, &rsu) in pos.iter().zip(&self.is_rsu) {
            if p.is_some() && !rsu {
                self.trace.presence(span);
            }
        }
        self.grid.rebuild(&pos);
        if let Some(spec) = self.weak_spec.take() {
            let (mut lo, mut hi) = ([0f64; 2], [0f64; 2]);
            for (k, q) in pos.iter().flatten().enumerate() {
                for a in 0..2 {
                    lo[a] = if k == 0 { q[a] } else { lo[a].min(q[a]) };
                    hi[a] = if k == 0 { q[a] } else { hi[a].max(q[a]) };
                }
            }
            self.weak = Some(WeakField::new(
                lo,
                hi,
                spec.periods,
                spec.cell_m,
                spec.radius_m,
                self.p.cutoff_m,
                &self.link,
            ));
        }
        if let Some(field) = &self.weak {
            self.node_cell.clear();
            self.node_cell
                .extend(pos.iter().map(|q| q.map_or(u32::MAX, |q| field.cell_of(q))));
        }
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
        let mut near = std::mem::take(&mut self.near);
        for i in 0..self.nodes.len() {
            let Some(pi) = self.positions[i] else { continue };
            if self.is_rsu[i] {
                continue;
            }
            self.grid.within(pi, radius, &mut near);
            for &(j, _) in &near {
                if j as usize == i || self.is_rsu[j as usize] {
                    continue;
                }
                let Some(pj) = self.positions[j as usize] else { continue };
                total += 1;
                if let Some(nb) = self.nodes[i].neighbours.get(j) {
                    if nb.last_rx_ns().is_some_and(|t| t >= since) {
                        heard += 1;
                    }
                    if nb.last_verified_ns().is_some_and(|t| t >= since) {
                        verified += 1;
                        let err = self.grid.distance(pj, nb.last_pos);
                        weighted += (1.0 - err / max_err).max(0.0);
                    }
                }
            }
        }
        self.near = near;
        self.trace.awareness(total, heard, verified, weighted);
    }

    // ----- MAC glue ------------------------------------------------------------------

    fn mac_enqueue(&mut self, n: NodeId, ac: usize, frame: Frame) {
        let now = self.now;
        let busy = self.radios[n as usize].busy;
        match self
            .macs
            .enqueue(n as usize, ac, frame, now, busy, &self.p.mac, &mut self.rng_mac)
        {
            mac::Enqueued::Dropped => self.trace.mac_queue_drop(),
            mac::Enqueued::Queued => {}
            mac::Enqueued::Schedule(t) => self.schedule_access(n, t),
        }
    }

    fn on_access(&mut self, n: NodeId, ac: usize, gen: u32) {
        let now = self.now;
        // The weak interference may have changed since this radio last looked.
        if let (Some(field), Some(&cell)) = (&self.weak, self.node_cell.get(n as usize)) {
            let weak_mw = field.mw(cell);
            let dice = self.dice.station(n);
            self.radios[n as usize].set_weak(weak_mw, now, &self.p.phy, &self.errors, dice);
            self.update_medium(n, now);
        }
        let transmitting = self.radios[n as usize].tx_until > now;
        let (frame, queued_ns) =
            match self
                .macs
                .access(n as usize, ac, gen, now, transmitting, &self.p.mac, &mut self.rng_mac)
            {
                mac::Access::Stale | mac::Access::InternalCollision => return,
                mac::Access::Empty { delay_drops } => {
                    self.trace.mac_delay_drops(delay_drops);
                    return;
                }
                mac::Access::Frame {
                    frame,
                    queued_ns,
                    delay_drops,
                } => {
                    self.trace.mac_delay_drops(delay_drops);
                    (frame, queued_ns)
                }
            };
        if self.positions[n as usize].is_none() {
            self.macs.clear(n as usize, ac);
            return;
        }
        self.macs.post_backoff(n as usize, ac, &self.p.mac, &mut self.rng_mac);
        self.transmit(n, frame, queued_ns);
    }

    // ----- PHY glue: transmissions and the medium state -------------------------------

    fn transmit(&mut self, n: NodeId, frame: Frame, queued_ns: u64) {
        let now = self.now;
        let Some(src_pos) = self.positions[n as usize] else {
            return;
        };
        let airtime = phy::airtime_ns(frame.bytes, self.p.phy.rate_mbps);
        let end = now + airtime;
        let is_cam = matches!(frame.kind, FrameKind::Cam { .. });
        let counted = match frame.kind {
            FrameKind::Cam { gen_ns, .. } => gen_ns >= self.p.warmup_ns,
            _ => now >= self.p.warmup_ns,
        };
        if counted {
            let key_frame = matches!(frame.kind, FrameKind::TeslaKey { .. });
            self.trace.frame_sent(n, key_frame, is_cam.then(|| now - queued_ns));
        }
        let serial = self.next_serial;
        self.next_serial += 1;
        // Half duplex: a frame being received is lost when this node starts sending.
        self.radios[n as usize].start_tx(end, now, &self.p.phy, &self.errors, self.dice.station(n));
        self.macs.set_rx_error(n as usize, false);
        self.update_medium(n, now);

        let mut weak_added = self.free_weak.pop().unwrap_or_default();
        let mut near = std::mem::take(&mut self.near);
        // The field and the range query are independent: side by side with threads.
        let (weak, link, grid, receivers_m) = (&mut self.weak, &self.link, &self.grid, self.p.receivers_m);
        self.workers.join(
            || {
                if let Some(field) = weak {
                    field.add(src_pos, link, &mut weak_added);
                }
            },
            || grid.within(src_pos, receivers_m, &mut near),
        );
        if is_cam && counted {
            for &(j, d) in &near {
                if j != n && d <= self.p.max_distance_m && !self.is_rsu[j as usize] {
                    self.trace.cam_attempt(d);
                }
            }
        }
        let (weak, node_cell) = (self.weak.as_ref(), &self.node_cell);
        let (link, phy_p, errors, params, dice) = (&self.link, &self.p.phy, &self.errors, &self.p, self.dice);
        let is_rsu = &self.is_rsu;
        let tx_dice = dice.transmission(serial);
        let layout = self.radios.layout();
        let mut receivers = self.free_receivers.pop().unwrap_or_default();
        receivers.resize_with(layout.shards(), Vec::new);
        self.arrival_logs.resize_with(layout.shards(), Vec::new);
        let mut shards: Vec<_> = self
            .radios
            .shards_mut()
            .zip(receivers.iter_mut().zip(self.arrival_logs.iter_mut()))
            .enumerate()
            .map(|(shard, (radios, (mine, log)))| (shard, radios, mine, log))
            .collect();
        let candidates = &near;
        self.workers.run_shards(
            &mut shards,
            near.len(),
            &|(shard, radios, mine, log): &mut ArrivalShard| {
                // Each shard picks its own candidates from the list. The lists it fills
                // are worked on here, on this thread's stack: their headers, side by side
                // with the other shards', would otherwise move between the cores with every
                // push.
                let (mut mine_here, mut log_here) = (std::mem::take(*mine), std::mem::take(*log));
                log_here.clear();
                for (k, &(j, d)) in candidates.iter().enumerate() {
                    let (owner, local) = layout.slot(j as usize);
                    if owner != *shard {
                        continue;
                    }
                    // Only the candidates heard individually.
                    let individual = j != n
                        && d <= params.cutoff_m
                        && weak.is_none_or(|f| f.individual(src_pos, d, node_cell[j as usize]));
                    if !individual {
                        continue;
                    }
                    let Some(mw) = link.sample_mw(d, tx_dice.uniform(j, Draw::Fading)) else {
                        continue;
                    };
                    let radio = &mut radios[local];
                    if let Some(field) = weak {
                        let weak_mw = field.mw(node_cell[j as usize]);
                        radio.set_weak(weak_mw, now, phy_p, errors, dice.station(j));
                    }
                    radio.signal_start(serial, mw, end, now, phy_p, errors, dice.station(j));
                    // The CCA senses it after the propagation delay and the detection window.
                    let sensed_at = now + ns(channel::propagation_delay_s(d)) + phy_p.detection_ns;
                    let change = sense(radio, is_rsu[j as usize], now, sensed_at, params);
                    let k = k as u32;
                    mine_here.push(Receiver {
                        k,
                        id: j,
                        local: local as u32,
                        mw,
                        dist: d as f32,
                    });
                    if change != MediumChange::Same {
                        log_here.push(Arrived { k, id: j, change });
                    }
                }
                (**mine, **log) = (mine_here, log_here);
            },
        );
        drop(shards);
        // The MAC's reactions, in the candidates' order.
        let logs = std::mem::take(&mut self.arrival_logs);
        in_key_order(&logs, |a| a.k, |a| self.apply_medium(a.id, a.change));
        self.arrival_logs = logs;
        self.near = near;
        let id = match self.free_tx.pop() {
            Some(i) => i,
            None => {
                self.txs.push(None);
                self.txs.len() - 1
            }
        };
        self.trace.signals(receivers.iter().map(Vec::len).sum::<usize>() as u64);
        self.txs[id] = Some(Transmission {
            serial,
            frame,
            receivers,
            weak: weak_added,
        });
        self.schedule(end, Event::TxEnd(id));
    }

    fn tx_end(&mut self, id: usize) {
        let Some(tx) = self.txs.get_mut(id).and_then(Option::take) else {
            return;
        };
        self.free_tx.push(id);
        let src = tx.frame.src;
        let now = self.now;
        if let Some(field) = &mut self.weak {
            field.remove(&tx.weak);
        }
        self.update_medium(src, now);
        let (phy_p, errors, params, dice, serial) = (&self.p.phy, &self.errors, &self.p, self.dice, tx.serial);
        let (weak, node_cell, is_rsu) = (self.weak.as_ref(), &self.node_cell, &self.is_rsu);
        // A decoded CAM is handled by the receiver's thread too, where the receiver can do
        // it alone; what it reports is logged, and replayed below in the receivers' order.
        let cx = self.station_context();
        let (frame, local_cams) = (
            &tx.frame,
            matches!(tx.frame.kind, FrameKind::Cam { .. }) && cx.cams_stay_local(),
        );
        let layout = self.radios.layout();
        debug_assert_eq!(layout, self.nodes.layout());
        self.departure_logs.resize_with(layout.shards(), Vec::new);
        self.departure_calls.resize_with(layout.shards(), Vec::new);
        let mut shards: Vec<_> = self
            .radios
            .shards_mut()
            .zip(self.nodes.shards_mut())
            .zip(&tx.receivers)
            .zip(self.departure_logs.iter_mut().zip(self.departure_calls.iter_mut()))
            .map(|(((radios, nodes), mine), (log, calls))| (radios, nodes, &mine[..], log, calls))
            .collect();
        self.workers.run_shards(
            &mut shards,
            tx.receivers.iter().map(Vec::len).sum(),
            &|(radios, nodes, mine, log, calls): &mut DepartureShard| {
                // The logs are filled on this thread's stack (see the arrivals).
                let (mut log_here, mut calls_here) = (std::mem::take(*log), std::mem::take(*calls));
                log_here.clear();
                calls_here.clear();
                for r in mine.iter() {
                    let (j, radio) = (r.id, &mut radios[r.local as usize]);
                    if let Some(field) = weak {
                        let weak_mw = field.mw(node_cell[j as usize]);
                        radio.set_weak(weak_mw, now, phy_p, errors, dice.station(j));
                    }
                    let outcome = radio.signal_end(serial, r.mw, now, phy_p, errors, dice.station(j));
                    let change = sense(radio, is_rsu[j as usize], now, now, params);
                    if outcome.is_none() && change == MediumChange::Same {
                        continue;
                    }
                    let handled = if outcome == Some(true) && local_cams && !is_rsu[j as usize] {
                        let from = calls_here.len() as u32;
                        let node = &mut nodes[r.local as usize];
                        let alone =
                            processing::receive_cam_alone(node, j, frame, serial, r.dist, now, &cx, &mut calls_here);
                        alone.then_some((from, calls_here.len() as u32))
                    } else {
                        None
                    };
                    log_here.push(Departed {
                        k: r.k,
                        id: j,
                        outcome,
                        change,
                        dist: r.dist,
                        calls: handled,
                    });
                }
                (**log, **calls) = (log_here, calls_here);
            },
        );
        drop(shards);
        // The MAC's reactions and the receptions, in the receivers' order.
        let (logs, calls) = (
            std::mem::take(&mut self.departure_logs),
            std::mem::take(&mut self.departure_calls),
        );
        in_key_order(
            &logs,
            |d| d.k,
            |d| {
                if let Some(decoded) = d.outcome {
                    self.macs.set_rx_error(d.id as usize, !decoded);
                }
                self.apply_medium(d.id, d.change);
                match d.calls {
                    Some((from, to)) => {
                        let shard = layout.slot(d.id as usize).0;
                        for &call in &calls[shard][from as usize..to as usize] {
                            call.replay(&mut self.trace);
                        }
                    }
                    None if d.outcome == Some(true) => self.received(d.id, tx.frame.clone(), d.dist, tx.serial),
                    None => {}
                }
            },
        );
        (self.departure_logs, self.departure_calls) = (logs, calls);
        let mut receivers = tx.receivers;
        receivers.iter_mut().for_each(Vec::clear);
        self.free_receivers.push(receivers);
        self.free_weak.push(tx.weak);
    }

    /// Recomputes the clear-channel assessment and tells the MAC about changes; a medium
    /// turning busy is sensed from `sensed_at`.
    fn update_medium(&mut self, n: NodeId, sensed_at: u64) {
        let change = sense(
            &mut self.radios[n as usize],
            self.is_rsu[n as usize],
            self.now,
            sensed_at,
            &self.p,
        );
        self.apply_medium(n, change);
    }

    /// What a medium change does beyond the radio: the MAC freezes its backoff when the
    /// medium turns busy, reports the busy time and resumes its accesses when it turns idle.
    fn apply_medium(&mut self, n: NodeId, change: MediumChange) {
        match change {
            MediumChange::Same => {}
            MediumChange::Busy { sensed_at } => self.macs.medium_busy(n as usize, sensed_at, &self.p.mac),
            MediumChange::Idle { busy_ns } => {
                if let Some(busy_ns) = busy_ns {
                    self.trace.busy_time(busy_ns);
                }
                let now = self.now;
                for t in self
                    .macs
                    .medium_idle(n as usize, now, &self.p.mac)
                    .into_iter()
                    .flatten()
                {
                    self.schedule_access(n, t);
                }
            }
        }
    }
}

/// A receiver heard individually, kept in its shard's list until the transmission ends.
#[derive(Clone, Copy)]
struct Receiver {
    /// Its place among the transmission's candidates: what it logs is applied in this order.
    k: u32,
    id: NodeId,
    /// Its index within its shard.
    local: u32,
    /// Received power (mW).
    mw: f64,
    dist: f32,
}

/// What the receivers' part of a transmission's start works on in one shard: the shard's
/// index and radios, and its lists of receivers heard individually and of CCA changes.
type ArrivalShard<'s> = (usize, &'s mut [Radio], &'s mut Vec<Receiver>, &'s mut Vec<Arrived>);

/// What the receivers' part of a transmission's end works on in one shard: the shard's
/// radios and nodes, its receivers, its log, and what its receivers reported while
/// handling a decoded CAM alone.
type DepartureShard<'s> = (
    &'s mut [Radio],
    &'s mut [Node],
    &'s [Receiver],
    &'s mut Vec<Departed>,
    &'s mut Vec<trace::Call>,
);

/// A receiver's CCA changed as a transmission arrived.
struct Arrived {
    k: u32,
    id: NodeId,
    change: MediumChange,
}

/// What a transmission's end did at a receiver that the event loop must apply: its radio
/// was receiving the frame's data, or its CCA changed.
struct Departed {
    k: u32,
    id: NodeId,
    /// `Some(decoded)` when the radio was receiving the frame's data.
    outcome: Option<bool>,
    change: MediumChange,
    dist: f32,
    /// The decoded CAM was handled by the receiver alone, which logged these calls to the
    /// observer (a range of its shard's calls; see [`processing::receive_cam_alone`]).
    calls: Option<(u32, u32)>,
}

/// What a station's clear-channel assessment did, for the engine to report and schedule
/// (small: one per receiver of every transmission).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
enum MediumChange {
    #[default]
    Same,
    /// Sensed busy from then on.
    Busy { sensed_at: u64 },
    Idle {
        /// Busy time to report (vehicles, after the warm-up).
        busy_ns: Option<f64>,
    },
}

/// Recomputes the clear-channel assessment of one station's radio (a medium turning busy
/// is sensed from `sensed_at`); what the MAC does about a change is left to
/// [`Sim::apply_medium`]. Touches this radio only (the receivers of a transmission run it
/// in parallel).
fn sense(radio: &mut Radio, rsu: bool, now: u64, sensed_at: u64, p: &Params) -> MediumChange {
    let busy = radio.cca_busy(now, &p.phy);
    if busy == radio.busy {
        return MediumChange::Same;
    }
    radio.busy = busy;
    if busy {
        radio.busy_since = sensed_at;
        MediumChange::Busy { sensed_at }
    } else {
        let since = radio.busy_since.max(p.warmup_ns);
        MediumChange::Idle {
            busy_ns: (!rsu && now > since).then(|| (now - since) as f64),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The inline rounding agrees with `f64::round` from tiny values to the integer range,
    /// halves and their neighbours included.
    #[test]
    fn round_nonneg_is_round() {
        let mut u: f64 = 1e-3;
        while u < 1e18 {
            let half = (u * 7.3).floor() + 0.5;
            for v in [
                u,
                u + 0.5,
                half,
                f64::from_bits(half.to_bits() - 1),
                f64::from_bits(u.to_bits() + 1),
            ] {
                assert_eq!(round_nonneg(v), v.round() as u64, "{v}");
            }
            u *= 1.37;
        }
        for v in [
            0.0,
            0.5,
            0.49999999999999994,
            1.5,
            2.5,
            4503599627370495.5,
            9007199254740993.0,
        ] {
            assert_eq!(round_nonneg(v), v.round() as u64, "{v}");
        }
        assert_eq!(round_nonneg(-0.7), 0);
        assert_eq!(round_nonneg(f64::NAN), 0);
        assert_eq!(ns(1.5e-9), 2);
    }
}
