//! The discrete-event core: one run of one variant. This module is the event loop (an
//! [`Agenda`]: events by time, first scheduled first among equals) and the stations' state
//! above the radio; the models it drives live beside it:
//!
//! - [`crate::air`]: the shared channel — positions, signals, what each receiver decodes —
//!   with its [`crate::access`] layer (EDCA) deciding who transmits when; the air's steps
//!   are events of this loop;
//! - [`apps`]: CAM/BSM beacons, V2I queries, attackers, TESLA key frames;
//! - [`relay`]: multi-hop forwarding of a signed message, verified at every hop;
//! - [`processing`]: the security processor of each station (signing, verification
//!   queues, TESLA key buffering, attack handling);
//! - [`neighbours`]: what each station knows of the stations it heard;
//! - [`trace`]: the [`Observer`] the models report to, and the collector that turns those
//!   events into [`RunMetrics`];
//! - [`security_layer`]: the same stations' security processing for a radio loop of its
//!   own (the sidelink's).
//!
//! A transmission's receivers run on the run's threads (see [`crate::air`]); a CAM a
//! receiver decodes is handled there too where the receiver can do it alone
//! (`processing::CamsAlone`), the stations' state stored in the radios' shards, and what
//! it reports to the observer is replayed here in the receivers' order, so a run does not
//! depend on the thread count.

pub mod apps;
pub mod neighbours;
pub mod processing;
pub mod relay;
pub mod security_layer;
pub mod trace;

use crate::access::edca::MacParams;
use crate::access::{AccessLayer, Edca, Enqueued, Packet};
use crate::air::{Agenda, Air, AirConfig, AirStep, BusyLog, Local, OnAir};
use crate::error::SimError;
use crate::keyed_rng::{stream, RunDice, Stream};
use crate::metrics::RunMetrics;
use crate::mobility::{Mobility, Position};
use crate::node_id::NodeId;
use crate::parallel::{Sharded, Workers};
use crate::scenario::{AccessCategory, AttackKind, Scenario};
use crate::security::SecurityModel;
use crate::station_crypto::StationCrypto;
use crate::time::ns;
use crate::verifier::Processor;
use neighbours::NeighbourTable;
use processing::{Service, TeslaPending, Work};
use rand_chacha::ChaCha8Rng;
use trace::{CollectorParams, MetricsCollector, Observer};

/// What a frame carries.
#[derive(Debug, Clone)]
pub enum FrameKind {
    Cam {
        seq: u32,
        gen_ns: u64,
        pos: Position,
        certificate: bool,
        attached_key: Option<u32>,
        /// The stations whose certificates it asks for (P2PCD, `p2pcd`).
        p2pcd_request: Option<std::sync::Arc<[NodeId]>>,
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

/// An event of the loop; `T`: the access layer's timers.
enum Event<T> {
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
    /// The security processor of a station completes a job that must complete on time
    /// (see [`processing::Service`]).
    ProcWake(NodeId),
    RelayGen {
        seq: u32,
    },
    /// A step of the air: an access or the end of a transmission.
    Air(AirStep<T>),
}

impl<T> From<AirStep<T>> for Event<T> {
    fn from(step: AirStep<T>) -> Self {
        Event::Air(step)
    }
}

impl<T> Event<T> {
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

/// A station's state above the radio.
struct Node {
    proc: Processor<Work>,
    /// What `proc` is serving.
    service: Service,
    cam_seq: u32,
    last_certificate_ns: Option<u64>,
    /// The next CAM carries the certificate: a new station was heard, or it was asked.
    certificate_due: bool,
    /// The signers whose certificates the next CAMs ask for (P2PCD).
    p2pcd_ask: crate::security::p2pcd::P2pcdQueue<NodeId>,
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
            p2pcd_ask: Default::default(),
            neighbours: NeighbourTable::default(),
            tesla_pending: TeslaPending::default(),
            last_heard_cam: None,
            tables: Default::default(),
        }
    }

    /// The station's next own CAM at `now`: what the variant's schedule and the station's
    /// certificate state make it carry.
    fn next_cam(&mut self, sec: &SecurityModel, now: u64) -> OwnCam {
        let seq = self.cam_seq;
        self.cam_seq += 1;
        let due = std::mem::take(&mut self.certificate_due);
        let p2pcd_request = self.p2pcd_ask.take();
        let certificate = sec.carries_certificate(u64::from(seq), now, due, &mut self.last_certificate_ns);
        OwnCam {
            seq,
            certificate,
            p2pcd_request,
        }
    }
}

/// What a station's next CAM carries (`Node::next_cam`).
pub struct OwnCam {
    pub seq: u32,
    /// The signer's certificate (else a digest): the variant's schedule, or due because a
    /// new station was heard or a P2PCD request asked for it.
    pub certificate: bool,
    /// The signers whose certificates it asks for (P2PCD).
    pub p2pcd_request: Option<std::sync::Arc<[NodeId]>>,
}

/// Run-wide constants derived from the scenario.
struct Params {
    end_ns: u64,
    warmup_ns: u64,
    mac_overhead: u32,
    max_distance_m: f64,
}

/// A neighbour not heard for this long is forgotten (its entry, with its certificate and
/// replay state, is dropped): the tables then hold the stations around a receiver instead
/// of every station it ever heard, which grew with the simulated time. Ten times the
/// default awareness window, so awareness (heard within the window) is unaffected; an
/// inter-arrival gap longer than this is not sampled.
const NEIGHBOUR_TIMEOUT_NS: u64 = 10_000_000_000;

/// One run: a scenario, a security variant and a seed, reporting to an observer; `A`
/// decides who transmits when (EDCA unless built with [`Sim::with_access`]).
pub struct Sim<'a, O: Observer = MetricsCollector, A: AccessLayer<Frame> = Edca<Frame>> {
    sc: &'a Scenario,
    sec: &'a SecurityModel,
    p: Params,
    mobility: Mobility,
    air: Air<A, Frame>,
    /// The rest of node i's state, in the radios' shards: the thread that owns a
    /// receiver's radio also handles the CAMs it decodes.
    nodes: Sharded<Node>,
    /// Whether node i is a road side unit, apart from the rest of its state: the loop over
    /// the candidates of every transmission reads it.
    is_rsu: Vec<bool>,
    /// Scratch list of the nodes near a station (id, distance), reused.
    near: Vec<(NodeId, f64)>,
    /// What the receivers that handled a decoded CAM alone reported, per shard.
    departure_calls: Vec<Vec<trace::Call>>,
    workers: Workers,
    /// Counter-based draws of the receivers' processing.
    dice: RunDice,
    agenda: Agenda<Event<A::Timer>>,
    now: u64,
    rng_mobility: ChaCha8Rng,
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
        Sim::with_observer(sc, sec, seed, |nodes| Self::collector(sc, nodes))
    }

    /// The collector of a run of `sc` with `nodes` stations.
    pub fn collector(sc: &Scenario, nodes: usize) -> MetricsCollector {
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
        let params = MacParams::from_config(&sc.mac, sc.radio.data_rate_mbps);
        Sim::with_access(sc, sec, seed, |stations| Edca::new(stations, params, seed), make)
    }
}

impl<'a, O: Observer, A: AccessLayer<Frame>> Sim<'a, O, A> {
    /// A run whose stations access the channel through the layer `access` builds for the
    /// run's node count, reporting to the observer `make` builds.
    pub fn with_access(
        sc: &'a Scenario,
        sec: &'a SecurityModel,
        seed: u64,
        access: impl FnOnce(usize) -> A,
        make: impl FnOnce(usize) -> O,
    ) -> Result<Self, SimError> {
        let mut rng_mobility = stream(seed, Stream::Mobility);
        let mobility = Mobility::build(&sc.mobility, &mut rng_mobility)?;
        let n = mobility.nodes();
        let vehicles = mobility.vehicles;
        let periods = sc.mobility.periods();
        let air = Air::new(
            AirConfig {
                radio: &sc.radio,
                stations: n,
                periods,
                candidates_m: sc.metrics.max_distance_m,
                seed,
            },
            access(n),
        );
        Ok(Sim {
            sc,
            sec,
            p: Params {
                end_ns: ns(sc.duration_s),
                warmup_ns: ns(sc.warmup_s),
                mac_overhead: sc.mac.mac_overhead_bytes,
                max_distance_m: sc.metrics.max_distance_m,
            },
            mobility,
            air,
            nodes: Sharded::from_fn(n, 1, || Node::new(sec)),
            is_rsu: (0..n).map(|i| i >= vehicles).collect(),
            near: Vec::new(),
            departure_calls: Vec::new(),
            workers: Workers::sequential(),
            dice: RunDice::new(seed),
            agenda: Agenda::default(),
            now: 0,
            rng_mobility,
            rng_app: stream(seed, Stream::Applications),
            rng_proc: stream(seed, Stream::Processing),
            attackers: Vec::new(),
            query_id: 0,
            relay: relay::RelayState::default(),
            crypto: None,
            every_completion_on_time: false,
            ticker: crate::progress::Ticker::default(),
            trace: make(n),
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
        self.air.set_workers(self.workers.clone());
        let sec = self.sec;
        let nodes = std::mem::replace(&mut self.nodes, Sharded::from_fn(0, 1, || Node::new(sec)));
        self.nodes = nodes.reshard(self.workers.shards(), || Node::new(sec));
        Ok(self)
    }

    /// Cutoff range actually used (m).
    pub fn cutoff_m(&self) -> f64 {
        self.air.cutoff_m()
    }

    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// The simulated time (ns).
    pub fn now_ns(&self) -> u64 {
        self.now
    }

    fn schedule(&mut self, t: u64, ev: Event<A::Timer>) {
        self.agenda.push(t, ev);
    }

    /// Runs to the end and returns the observer.
    pub fn run_with_observer(mut self) -> O {
        self.start();
        let workers = self.workers.clone();
        workers.run(|| {
            while let Some((t, ev)) = self.agenda.pop_due(self.p.end_ns) {
                self.now = t;
                self.ticker.tick(t);
                self.trace.event();
                self.handle(ev);
            }
        });
        self.now = self.p.end_ns;
        self.catch_up_all(self.p.end_ns);
        // Close the busy-time accounting of nodes still busy at the end.
        for (_, since) in self.air.busy_stations() {
            let since = since.max(self.p.warmup_ns);
            self.trace.busy_time(self.p.end_ns.saturating_sub(since) as f64);
        }
        self.trace
    }

    fn start(&mut self) {
        let (vehicles, stations, cutoff) = (self.mobility.vehicles, self.nodes.len(), self.air.cutoff_m());
        self.trace
            .run_started(vehicles, stations, cutoff, self.mobility.update_interval_s);
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

    fn handle(&mut self, ev: Event<A::Timer>) {
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
            Event::RelayGen { seq } => self.relay_gen(seq),
            Event::ProcWake(n) => self.proc_wake(n),
            Event::Air(AirStep::Access(timer)) => self.on_access(timer),
            Event::Air(AirStep::End(slot)) => self.tx_end(slot),
        }
    }

    // ----- mobility and awareness sampling -----------------------------------------

    /// [`NEIGHBOUR_TIMEOUT_NS`], or longer when the awareness window is.
    fn neighbour_timeout_ns(&self) -> u64 {
        NEIGHBOUR_TIMEOUT_NS.max(ns(self.sc.metrics.awareness_window_ms / 1000.0))
    }

    fn update_positions(&mut self) {
        let t = self.now as f64 / 1e9;
        let mut pos = self.air.take_positions();
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
        self.air.set_positions(pos);
    }

    fn sample_awareness(&mut self) {
        if self.now < self.p.warmup_ns {
            return;
        }
        let (grid, positions) = (self.air.grid(), self.air.positions());
        let s = awareness(
            self.now,
            &self.sc.metrics,
            grid,
            positions,
            &self.is_rsu,
            &self.nodes,
            &mut self.near,
        );
        self.trace.awareness(s.neighbours, s.heard, s.verified, s.weighted);
    }

    // ----- the air's steps ------------------------------------------------------------

    /// Station `n` hands `frame` to its access layer.
    fn mac_enqueue(&mut self, n: NodeId, priority: AccessCategory, frame: Frame) {
        let bytes = frame.bytes;
        if !crate::access::fits_one_msdu(bytes, self.p.mac_overhead) {
            let (cam, counted) = match frame.kind {
                FrameKind::Cam { gen_ns, .. } => (true, gen_ns >= self.p.warmup_ns),
                _ => (false, self.now >= self.p.warmup_ns),
            };
            if counted {
                self.trace.oversize_refused(cam);
            }
            return;
        }
        let packet = Packet { frame, bytes, priority };
        if self.air.transmit(n, packet, self.now, &mut self.agenda) == Enqueued::Dropped {
            self.trace.mac_queue_drop();
        }
    }

    fn on_access(&mut self, timer: A::Timer) {
        let now = self.now;
        let mut busy = BusyTime {
            trace: &mut self.trace,
            is_rsu: &self.is_rsu,
            warmup_ns: self.p.warmup_ns,
        };
        let accessed = self.air.access(timer, now, &mut self.agenda, &mut busy);
        if accessed.dropped > 0 {
            self.trace.mac_delay_drops(accessed.dropped);
        }
        if let Some(sent) = accessed.sent {
            report_sent(&mut self.trace, &sent, now, &self.p, &self.is_rsu);
        }
    }

    fn tx_end(&mut self, slot: u32) {
        let now = self.now;
        let cx = self.station_context();
        let hook = processing::CamsAlone::new(&cx, &self.is_rsu);
        let local = Local {
            hook: &hook,
            stations: &mut self.nodes,
            logs: &mut self.departure_calls,
        };
        let mut busy = BusyTime {
            trace: &mut self.trace,
            is_rsu: &self.is_rsu,
            warmup_ns: self.p.warmup_ns,
        };
        let mut ended = self.air.end(slot, now, &mut self.agenda, &mut busy, local);
        // The receptions, in the receivers' order.
        loop {
            let mut busy = BusyTime {
                trace: &mut self.trace,
                is_rsu: &self.is_rsu,
                warmup_ns: self.p.warmup_ns,
            };
            let Some(d) = self.air.next_departure(&mut ended, &mut self.agenda, &mut busy) else {
                break;
            };
            match d.alone {
                Some((shard, calls)) => {
                    for &call in &self.departure_calls[shard][calls] {
                        call.replay(&mut self.trace);
                    }
                }
                None if d.decoded == Some(true) => {
                    self.received(d.to, ended.frame().clone(), d.dist, ended.serial());
                }
                None => {}
            }
        }
        self.air.recycle(ended);
    }
}

/// One awareness sample ([`awareness`]).
struct Awareness {
    /// Vehicle pairs within the awareness radius.
    neighbours: u64,
    /// Of those, the receiver heard the sender within the window,
    heard: u64,
    /// verified one of its CAMs within the window,
    verified: u64,
    /// and the latter weighted by the position error (1 at no error, 0 at the maximum).
    weighted: f64,
}

/// Awareness at `now`: for every vehicle, the vehicles within the awareness radius it
/// heard and verified within the window (`[metrics]`), from its neighbour table. The
/// engine and the sidelink's security layer sample it the same way.
fn awareness(
    now: u64,
    metrics: &crate::scenario::MetricsConfig,
    grid: &crate::spatial::SpatialGrid,
    positions: &[Option<Position>],
    is_rsu: &[bool],
    nodes: &Sharded<Node>,
    near: &mut Vec<(NodeId, f64)>,
) -> Awareness {
    let since = now.saturating_sub(ns(metrics.awareness_window_ms / 1000.0));
    let mut s = Awareness {
        neighbours: 0,
        heard: 0,
        verified: 0,
        weighted: 0.0,
    };
    for i in NodeId::all(nodes.len()) {
        let Some(pi) = positions[i.index()] else { continue };
        if is_rsu[i.index()] {
            continue;
        }
        grid.within(pi, metrics.awareness_radius_m, near);
        for &(j, _) in near.iter() {
            if j == i || is_rsu[j.index()] {
                continue;
            }
            let Some(pj) = positions[j.index()] else { continue };
            s.neighbours += 1;
            if let Some(nb) = nodes[i].neighbours.get(j) {
                if nb.last_rx_ns().is_some_and(|t| t >= since) {
                    s.heard += 1;
                }
                if nb.last_verified_ns().is_some_and(|t| t >= since) {
                    s.verified += 1;
                    let err = grid.distance(pj, nb.last_pos);
                    s.weighted += (1.0 - err / metrics.awareness_max_error_m).max(0.0);
                }
            }
        }
    }
    s
}

/// The channel busy time the observer counts: vehicles' only, after the warm-up.
struct BusyTime<'t, O> {
    trace: &'t mut O,
    is_rsu: &'t [bool],
    warmup_ns: u64,
}

impl<O: Observer> BusyLog for BusyTime<'_, O> {
    fn busy(&mut self, n: NodeId, since: u64, until: u64) {
        let since = since.max(self.warmup_ns);
        if !self.is_rsu[n.index()] && until > since {
            self.trace.busy_time((until - since) as f64);
        }
    }
}

/// What the observer counts of a frame that went on the air: the frame (after the
/// warm-up; a CAM's MAC delay), the vehicles it could reach (the CAMs' PDR denominator),
/// the signals drawn.
fn report_sent(trace: &mut impl Observer, sent: &OnAir<'_, Frame>, now: u64, p: &Params, is_rsu: &[bool]) {
    let frame = sent.frame;
    let is_cam = matches!(frame.kind, FrameKind::Cam { .. });
    let counted = match frame.kind {
        FrameKind::Cam { gen_ns, .. } => gen_ns >= p.warmup_ns,
        _ => now >= p.warmup_ns,
    };
    if counted {
        let key_frame = matches!(frame.kind, FrameKind::TeslaKey { .. });
        trace.frame_sent(sent.station, key_frame, is_cam.then(|| now - sent.queued_ns));
    }
    if is_cam && counted {
        for &(j, d) in sent.candidates {
            if j != sent.station && d <= p.max_distance_m && !is_rsu[j.index()] {
                trace.cam_attempt(d);
            }
        }
    }
    trace.signals(sent.signals() as u64);
}
