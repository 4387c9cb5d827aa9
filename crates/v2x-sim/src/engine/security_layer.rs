//! Every station's security processing above a radio loop other than the engine's air: the
//! sidelink's subframe loop asks it what each own CAM carries and hands it every CAM a
//! receiver decodes. The stations' state (`Node`) and the steps are the engine's own
//! (`Node::next_cam`, `processing::receive_cam_alone`, `engine::awareness`): verification
//! on the variant's cores with its service times and deadline, unknown-certificate loss, a
//! certificate known once the CAM carrying it was verified (P2PCD requests, a certificate
//! for a new station), awareness sampled as on 802.11p. The stations' own signing is not
//! modelled here: the radio loop sends a CAM when it is generated.
//!
//! It reports to a collector of its own; [`SecurityLayer::finish`] adds what it measured
//! (verified CAMs, their delays, crypto loss by cause, certificates received, awareness) to
//! the radio loop's metrics, whose radio counters it leaves alone.

use super::processing::{catch_up_alone, receive_cam_alone, StationContext};
use super::trace::{Call, MetricsCollector, Observer};
use super::{awareness, Frame, FrameKind, Node, OwnCam, Sim};
use crate::keyed_rng::RunDice;
use crate::metrics::RunMetrics;
use crate::mobility::Position;
use crate::node_id::NodeId;
use crate::parallel::Sharded;
use crate::scenario::Scenario;
use crate::security::SecurityModel;
use crate::spatial::SpatialGrid;
use crate::time::ns;
use rayon::prelude::*;

/// CAMs kept per station for the receptions still to come: a packet waits in its MAC for
/// at most a reservation interval and a selection window, while newer ones are generated.
const RECENT: usize = 4;

/// The stations' security state and processing on a radio loop of their own.
pub struct SecurityLayer<'s> {
    sc: &'s Scenario,
    cx: StationContext<'s>,
    nodes: Sharded<Node>,
    is_rsu: Vec<bool>,
    /// Each station's last [`RECENT`] CAMs, by sequence number modulo [`RECENT`].
    recent: Vec<[Option<Frame>; RECENT]>,
    trace: MetricsCollector,
    next_awareness_ns: u64,
    near: Vec<(NodeId, f64)>,
    /// What each thread's receivers reported in one [`SecurityLayer::decoded_all`], kept
    /// between calls for its allocations.
    logs: Vec<Vec<Call>>,
}

/// A CAM a receiver decoded: CAM `seq` of `src` (transmission `serial`) reached `rx`, `dist`
/// m away, at `now`.
#[derive(Debug, Clone, Copy)]
pub struct Decoded {
    pub src: NodeId,
    pub seq: u32,
    pub rx: NodeId,
    pub serial: u64,
    pub dist: f64,
    pub now: u64,
}

impl<'s> SecurityLayer<'s> {
    /// The security layer of a run of `sc` with the variant `sec`, `stations` of which the
    /// first `vehicles` are vehicles (the rest road side units, which verify no CAM), with
    /// the keyed draws of `seed`.
    pub fn new(sc: &'s Scenario, sec: &'s SecurityModel, stations: usize, vehicles: usize, seed: u64) -> Self {
        let cx = StationContext {
            sec,
            warmup_ns: ns(sc.warmup_s),
            query_timeout_ns: ns(sc.query.timeout_s),
            dice: RunDice::new(seed),
            all_on_time: false,
        };
        debug_assert!(cx.cams_stay_local(), "the sidelink refuses TESLA and real crypto");
        SecurityLayer {
            sc,
            cx,
            nodes: Sharded::from_fn(stations, 1, || Node::new(sec)),
            is_rsu: (0..stations).map(|i| i >= vehicles).collect(),
            recent: vec![Default::default(); stations],
            trace: Sim::collector(sc, stations),
            next_awareness_ns: ns(sc.warmup_s.max(sc.metrics.awareness_sample_interval_s)),
            near: Vec::new(),
            logs: Vec::new(),
        }
    }

    /// Station `n` generates a CAM at `now` at `pos`: what it carries (the station's
    /// verifications completed by then count: a certificate it was asked for is due).
    pub fn next_cam(&mut self, n: NodeId, now: u64, pos: Position) -> OwnCam {
        let node = &mut self.nodes[n];
        catch_up_alone(node, n, now, &self.cx, &mut self.trace);
        let cam = node.next_cam(self.cx.sec, now);
        self.recent[n.index()][cam.seq as usize % RECENT] = Some(Frame {
            kind: FrameKind::Cam {
                seq: cam.seq,
                gen_ns: now,
                pos,
                certificate: cam.certificate,
                attached_key: None,
                p2pcd_request: cam.p2pcd_request.clone(),
            },
            src: n,
            dst: None,
            bytes: 0,
        });
        cam
    }

    /// The receivers' security layers take the CAMs they decoded, `receptions` in
    /// transmission order (a road side unit ignores them). With a `pool` the receivers are
    /// split among its threads in contiguous ranges of `per_thread` (each station's state
    /// is its own, and each sees its CAMs in the same order); what they report is recorded
    /// and replayed range by range, so the metrics (sums) are a one-threaded run's.
    pub fn decoded_all(&mut self, receptions: &[Decoded], pool: Option<&rayon::ThreadPool>, per_thread: usize) {
        if receptions.is_empty() {
            return;
        }
        let (recent, cx, is_rsu) = (&self.recent, &self.cx, &self.is_rsu);
        let nodes = self.nodes.shards_mut().next().expect("the layer keeps one shard");
        let take = |base: usize, part: &mut [Node], trace: &mut dyn FnMut(&mut Node, NodeId, &Frame, &Decoded)| {
            for r in receptions {
                let Some(node) = r.rx.index().checked_sub(base).and_then(|i| part.get_mut(i)) else {
                    continue;
                };
                if is_rsu[r.rx.index()] {
                    continue;
                }
                let Some(frame) = recent[r.src.index()][r.seq as usize % RECENT]
                    .as_ref()
                    .filter(|f| matches!(f.kind, FrameKind::Cam { seq, .. } if seq == r.seq))
                else {
                    debug_assert!(false, "CAM {} of {:?} sent after {RECENT} newer ones", r.seq, r.src);
                    continue;
                };
                trace(node, r.rx, frame, r);
            }
        };
        match pool {
            Some(pool) => {
                let parts = nodes.len().div_ceil(per_thread.max(1));
                self.logs.resize_with(parts, Vec::new);
                let logs = &mut self.logs[..parts];
                pool.install(|| {
                    nodes
                        .par_chunks_mut(per_thread.max(1))
                        .zip(logs.par_iter_mut())
                        .enumerate()
                        .for_each(|(i, (part, log))| {
                            take(i * per_thread.max(1), part, &mut |node, rx, frame, r| {
                                let handled =
                                    receive_cam_alone(node, rx, frame, r.serial, r.dist as f32, r.now, cx, log);
                                debug_assert!(handled, "no job reaching beyond a station on the sidelink");
                            })
                        })
                });
                for log in &mut self.logs {
                    for call in log.drain(..) {
                        call.replay(&mut self.trace);
                    }
                }
            }
            None => {
                let trace = &mut self.trace;
                take(0, nodes, &mut |node, rx, frame, r| {
                    let handled = receive_cam_alone(node, rx, frame, r.serial, r.dist as f32, r.now, cx, trace);
                    debug_assert!(handled, "no job reaching beyond a station on the sidelink");
                })
            }
        }
    }

    /// Samples awareness when a sample is due by `now` (every `awareness_sample_interval_s`
    /// from the end of the warm-up, as the engine does), on the stations at `positions`.
    pub fn sample_awareness(&mut self, now: u64, grid: &SpatialGrid, positions: &[Option<Position>]) {
        if now < self.next_awareness_ns {
            return;
        }
        self.next_awareness_ns += ns(self.sc.metrics.awareness_sample_interval_s);
        for n in NodeId::all(self.nodes.len()) {
            catch_up_alone(&mut self.nodes[n], n, now, &self.cx, &mut self.trace);
        }
        let s = awareness(
            now,
            &self.sc.metrics,
            grid,
            positions,
            &self.is_rsu,
            &self.nodes,
            &mut self.near,
        );
        self.trace.awareness(s.neighbours, s.heard, s.verified, s.weighted);
    }

    /// Completes the jobs that ended by `end_ns` and adds what the layer measured to the
    /// radio loop's metrics `m` (same bins).
    pub fn finish(mut self, end_ns: u64, m: &mut RunMetrics) {
        for n in NodeId::all(self.nodes.len()) {
            catch_up_alone(&mut self.nodes[n], n, end_ns, &self.cx, &mut self.trace);
        }
        let s = self.trace.finish(0.0);
        m.add_security(&s);
        m.e2e_delay = s.e2e_delay;
        m.verification_latency = s.verification_latency;
    }
}
