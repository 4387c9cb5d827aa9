//! Security processing at each station: its own signing and encryption (urgent queue),
//! verification of received CAMs and attack frames on `cores` servers with a deadline,
//! TESLA key buffering, certificate knowledge and replay detection per neighbour, and the
//! query service's decryptions. Service times come from the variant's cost model; in
//! real-crypto mode the stations' real verifications decide what is accepted.
//!
//! The steps that touch only the station and the metrics (submitting a job, finishing one,
//! delivering a verified CAM, receiving a CAM) are functions of the station's state and a
//! read-only `StationContext`, shared by the event loop's methods and by the threads that
//! evaluate the receivers of a transmission: those handle the CAMs their receivers decode
//! when the receiver can do it alone (`receive_cam_alone`).

use super::neighbours::Neighbour;
use super::trace::{CamVerified, CryptoLoss, Observer};
use super::{Event, Frame, FrameKind, Node, Sim};
use crate::access::AccessLayer;
use crate::air::{Decoded, DecodedAlone};
use crate::keyed_rng::{Draw, RunDice};
use crate::node_id::{IntMap, NodeId};
use crate::scenario::AccessCategory;
use crate::scenario::AttackKind;
use crate::security::{Cost, SecurityModel, VerifierModel};
use crate::signer_tables::TableUse;
use crate::station_crypto::{Decided, FrameRef, Verdict};
use crate::verifier::Job;
use rand::Rng;
use v2x_profile::ProtocolId;

/// One unit of work of a station's security processor.
#[derive(Debug)]
pub enum Work {
    /// Own signing/encryption before the frame goes to the MAC queue.
    Prepare { frame: Frame, ac: AccessCategory },
    /// Verification of a received CAM or attack frame.
    Verify { frame: Frame, rx_ns: u64, dist: f32 },
    /// Decryption of a query request at a road side unit.
    DecryptRequest { id: u32, gen_ns: u64, vehicle: NodeId },
    /// Decryption of a reply at the vehicle.
    DecryptReply { gen_ns: u64 },
}

/// "None" for [`Service`]'s times.
const NONE: u64 = u64::MAX;

/// The jobs one station's processor is serving. Most complete unseen: a verified CAM only
/// changes the station's own neighbour table and the metrics, so its completion is applied
/// when the station is next looked at (`Sim::catch_up`) instead of as an event of its own
/// (those were 87 % of a city run's events, and the event queue's cost grows with them).
/// While a job whose completion reaches further (own signing to the MAC, a relay's
/// forward, a query reply, real-crypto verdicts) waits or runs, the processor keeps an
/// event at its next completion (`Event::ProcWake`).
pub struct Service {
    /// The job that started first, inline: a station has one core unless configured
    /// otherwise, and reading its end must not cost a second cache miss.
    first: Option<Job<Work>>,
    /// The others, in the order they started (completions at the same time go in that order).
    more: Vec<Job<Work>>,
    /// The first end among the jobs, or [`NONE`] (kept apart: every reception at the
    /// station reads it).
    next_end: u64,
    /// Jobs in the processor (waiting or running) that must complete on time.
    on_time: u32,
    /// The wake-up event scheduled for them, or [`NONE`].
    wake_at: u64,
}

impl Default for Service {
    fn default() -> Self {
        Service {
            first: None,
            more: Vec::new(),
            next_end: NONE,
            on_time: 0,
            wake_at: NONE,
        }
    }
}

impl Service {
    fn start(&mut self, job: Job<Work>) {
        self.next_end = self.next_end.min(job.ends_ns());
        if self.first.is_none() {
            self.first = Some(job);
        } else {
            self.more.push(job);
        }
    }

    /// Takes the first job to end (the first started among equals).
    fn finish_first(&mut self) -> Job<Work> {
        let end = self.next_end;
        let job = match self.first.take() {
            Some(job) if job.ends_ns() == end || self.more.is_empty() => {
                self.first = (!self.more.is_empty()).then(|| self.more.remove(0));
                job
            }
            first => {
                self.first = first;
                let i = self.more.iter().position(|j| j.ends_ns() == end).unwrap_or(0);
                self.more.remove(i)
            }
        };
        self.next_end = self
            .first
            .iter()
            .chain(&self.more)
            .map(Job::ends_ns)
            .min()
            .unwrap_or(NONE);
        job
    }
}

/// TESLA packets waiting for their key, per sender: (interval, frame, rx time, distance).
pub type TeslaPending = IntMap<Vec<(u32, Frame, u64, f32)>>;

fn distance_mm(dist: f32) -> u64 {
    (f64::from(dist) * 1000.0) as u64
}

impl<'a, O: Observer, A: AccessLayer<Frame>> Sim<'a, O, A> {
    /// Signs or encrypts on the node's processor (urgent queue), then hands the frame to
    /// the MAC.
    pub(super) fn prepare(&mut self, n: NodeId, frame: Frame, ac: AccessCategory, cost: &Cost) {
        let service_ns = cost.sample_ns(self.rng_proc.gen());
        if service_ns == 0 {
            self.mac_enqueue(n, ac, frame);
            return;
        }
        let job = Job::new(Work::Prepare { frame, ac }, self.now, u64::MAX, service_ns, 0);
        self.submit(n, job, true);
    }

    fn submit(&mut self, n: NodeId, job: Job<Work>, urgent: bool) {
        let cx = self.station_context();
        submit_job(&mut self.nodes[n], job, urgent, self.now, &cx, &mut self.trace);
        self.wake_on_time(n);
    }

    /// What the stations' own processing reads of the run.
    pub(super) fn station_context(&self) -> StationContext<'a> {
        StationContext {
            sec: self.sec,
            warmup_ns: self.p.warmup_ns,
            query_timeout_ns: crate::time::ns(self.sc.query.timeout_s),
            dice: self.dice,
            all_on_time: self.crypto.is_some() || self.every_completion_on_time,
        }
    }

    /// Schedules a wake-up at the next completion of the processor of `n` while a job
    /// that must complete on time is in it.
    fn wake_on_time(&mut self, n: NodeId) {
        let service = &mut self.nodes[n].service;
        if service.on_time > 0 && service.next_end < service.wake_at {
            service.wake_at = service.next_end;
            let t = service.next_end;
            self.schedule(t, Event::ProcWake(n));
        }
    }

    /// The wake-up of [`Event::ProcWake`] for `n`.
    pub(super) fn proc_wake(&mut self, n: NodeId) {
        let service = &mut self.nodes[n].service;
        if service.wake_at == self.now {
            service.wake_at = NONE;
        }
        self.catch_up(n, self.now);
        self.wake_on_time(n);
    }

    /// Completes, in order, the jobs of the processor of `n` that ended by `t`, each at its
    /// own end: call before anything reads the station's security state.
    pub(super) fn catch_up(&mut self, n: NodeId, t: u64) {
        while self.nodes[n].service.next_end <= t {
            let service = &mut self.nodes[n].service;
            let end = service.next_end;
            let job = service.finish_first();
            let now = std::mem::replace(&mut self.now, end);
            self.proc_done(n, job);
            self.now = now;
        }
    }

    /// [`Sim::catch_up`] for every station.
    pub(super) fn catch_up_all(&mut self, t: u64) {
        for n in NodeId::all(self.nodes.len()) {
            self.catch_up(n, t);
        }
    }

    fn proc_done(&mut self, n: NodeId, job: Job<Work>) {
        let (now, cx) = (self.now, self.station_context());
        let job = finish_job(&mut self.nodes[n], job, now, &cx, &mut self.trace);
        self.wake_on_time(n);
        let Some(job) = job else { return };
        match job.work {
            Work::Prepare { frame, ac } => self.mac_enqueue(n, ac, frame),
            Work::Verify { frame, rx_ns, dist } => self.verified(n, frame, rx_ns, dist),
            Work::DecryptRequest { id, gen_ns, vehicle } => {
                if id != 0 {
                    self.trace.query_request_received();
                }
                self.query_reply(n, id, gen_ns, vehicle);
            }
            Work::DecryptReply { gen_ns } => decrypt_reply(gen_ns, now, &cx, &mut self.trace),
        }
    }

    /// A verification finished: deliver to the application or reject (in real-crypto mode
    /// as the station's real verification decides).
    fn verified(&mut self, n: NodeId, frame: Frame, rx_ns: u64, dist: f32) {
        let now = self.now;
        let real = match frame.kind {
            FrameKind::Cam { seq, .. } => Some(FrameRef::Cam { src: frame.src, seq }),
            FrameKind::Attack { gen_ns, .. } => Some(FrameRef::Attack { src: frame.src, gen_ns }),
            _ => None,
        };
        if let (Some(crypto), Some(r)) = (self.crypto.as_mut(), real) {
            if let Verdict::Rejected { reason, unknown_signer } = crypto.verify(n, r, now) {
                match frame.kind {
                    FrameKind::Cam { gen_ns, .. } if unknown_signer && gen_ns >= self.p.warmup_ns => {
                        self.trace.crypto_lost(CryptoLoss::UnknownCertificate, dist)
                    }
                    FrameKind::Cam { gen_ns, .. } if gen_ns < self.p.warmup_ns => {}
                    _ => self.trace.rejected(reason),
                }
                return;
            }
            if let FrameKind::Attack { .. } = frame.kind {
                self.trace.attack_accepted();
                return;
            }
        }
        if let FrameKind::Relay { .. } = frame.kind {
            self.relay_verified(n, frame, rx_ns);
            return;
        }
        let cx = self.station_context();
        deliver(&mut self.nodes[n], n, frame, rx_ns, dist, now, &cx, &mut self.trace);
    }

    /// A frame of transmission `serial` decoded by the radio of `n` reaches the security
    /// layer.
    pub(super) fn received(&mut self, n: NodeId, frame: Frame, dist: f32, serial: u64) {
        let now = self.now;
        self.catch_up(n, now);
        self.trace.frame_decoded();
        if let Some(dst) = frame.dst {
            if dst != n {
                return;
            }
        }
        if self.is_rsu[n.index()] {
            if let FrameKind::QueryRequest { id, gen_ns, vehicle } = frame.kind {
                let service_ns = self.sec.decrypt.sample_ns(self.rng_proc.gen());
                let job = Job::new(
                    Work::DecryptRequest { id, gen_ns, vehicle },
                    now,
                    u64::MAX,
                    service_ns,
                    distance_mm(dist),
                );
                self.submit(n, job, false);
            }
            return;
        }
        match frame.kind {
            FrameKind::Cam { seq, attached_key, .. } => {
                let cx = self.station_context();
                match receive_cam(&mut self.nodes[n], n, frame, serial, dist, now, &cx, &mut self.trace) {
                    Received::Done => {}
                    Received::Verify(job) => self.submit(n, job, false),
                    Received::Verified(frame) => self.verified(n, frame, now, dist),
                    Received::AwaitKey(frame) => {
                        let src = frame.src;
                        let pending = self.nodes[n].tesla_pending.entry(src).or_default();
                        pending.push((seq, frame, now, dist));
                        // Lost if no key has come by its deadline, even if none ever comes.
                        let expiry = now.saturating_add(self.sec.deadline_ns).saturating_add(1);
                        self.schedule(expiry, Event::TeslaExpiry { node: n, src });
                        if let Some(crypto) = self.crypto.as_mut() {
                            let decided = crypto.receive_delayed(n, src, seq, now);
                            self.tesla_release(n, decided);
                        } else if let Some(k) = attached_key {
                            self.tesla_key(n, src, k);
                        }
                    }
                }
            }
            FrameKind::TeslaKey { interval } => match self.crypto.as_mut() {
                Some(crypto) => {
                    let decided = crypto.receive_key(n, frame.src, interval, now);
                    self.tesla_release(n, decided);
                }
                None => self.tesla_key(n, frame.src, interval),
            },
            FrameKind::QueryReply { id, gen_ns } => {
                if id != 0 {
                    self.trace.query_reply_received();
                    let service_ns = self.sec.decrypt.sample_ns(self.rng_proc.gen());
                    let job = Job::new(
                        Work::DecryptReply { gen_ns },
                        now,
                        u64::MAX,
                        service_ns,
                        distance_mm(dist),
                    );
                    self.submit(n, job, false);
                }
            }
            FrameKind::QueryRequest { .. } => {}
            FrameKind::Attack { kind, replay, .. } => self.attack_received(n, frame.clone(), kind, replay, dist),
            FrameKind::Relay { .. } => self.relay_received(n, frame, dist),
        }
    }

    pub(super) fn enqueue_verify(&mut self, n: NodeId, frame: Frame, rx_ns: u64, dist: f32, service_ns: u64) {
        if service_ns == 0 {
            self.verified(n, frame, rx_ns, dist);
            return;
        }
        let job = Job::new(
            Work::Verify { frame, rx_ns, dist },
            self.now,
            rx_ns.saturating_add(self.sec.deadline_ns),
            service_ns,
            distance_mm(dist),
        );
        self.submit(n, job, false);
    }

    /// TESLA packets from `src` buffered at `n` whose key has not come within the deadline
    /// are lost (and freed).
    pub(super) fn tesla_expiry(&mut self, n: NodeId, src: NodeId) {
        let cutoff = self.now.saturating_sub(self.sec.deadline_ns);
        let Some(pending) = self.nodes[n].tesla_pending.get_mut(&src) else {
            return;
        };
        let (late, keep): (Vec<_>, Vec<_>) = std::mem::take(pending).into_iter().partition(|p| p.2 < cutoff);
        *pending = keep;
        for (_, frame, _, dist) in late {
            if matches!(frame.kind, FrameKind::Cam { gen_ns, .. } if gen_ns >= self.p.warmup_ns) {
                self.trace.crypto_lost(CryptoLoss::KeyMissing, dist);
            }
        }
    }

    /// A TESLA key for `interval` arrived: every buffered packet of an interval up to it
    /// becomes verifiable (later keys verify earlier intervals through the hash chain).
    fn tesla_key(&mut self, n: NodeId, src: NodeId, interval: u32) {
        self.tesla_expiry(n, src);
        let Some(pending) = self.nodes[n].tesla_pending.get_mut(&src) else {
            return;
        };
        let (ready, keep): (Vec<_>, Vec<_>) = std::mem::take(pending).into_iter().partition(|p| p.0 <= interval);
        *pending = keep;
        for (_, frame, rx_ns, dist) in ready {
            let service_ns = self.sec.verify.sample_ns(self.rng_proc.gen());
            self.enqueue_verify(n, frame, rx_ns, dist, service_ns);
        }
    }

    /// Real-crypto TESLA: the buffered CAMs the stations' real receivers decided go to
    /// verification (at the cost of a verification); `verified` applies their verdicts.
    fn tesla_release(&mut self, n: NodeId, decided: Vec<Decided>) {
        for d in decided {
            self.tesla_expiry(n, d.src);
            let Some(pending) = self.nodes[n].tesla_pending.get_mut(&d.src) else {
                continue;
            };
            let Some(i) = pending.iter().position(|p| p.0 == d.seq) else {
                continue;
            };
            let (_, frame, rx_ns, dist) = pending.swap_remove(i);
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
        if self.crypto.is_some() {
            // The station's real verification decides, at the cost of a verification.
            let service_ns = sec.verify.sample_ns(self.rng_proc.gen()).max(1);
            self.enqueue_verify(n, frame, self.now, dist, service_ns);
            return;
        }
        if sec.kind == ProtocolId::None {
            // Without security every forged message is accepted.
            self.trace.attack_accepted();
            return;
        }
        match kind {
            AttackKind::Unsigned => self.trace.rejected("unsigned"),
            AttackKind::Stale => self.trace.rejected("stale"),
            AttackKind::ExpiredCertificate if sec.kind.uses_certificates() => {
                self.trace.rejected("expired-certificate")
            }
            AttackKind::Replay => {
                let Some((orig, seq, gen_ns)) = replay else { return };
                let seen = self.nodes[n]
                    .neighbours
                    .get(orig)
                    .and_then(Neighbour::highest_seq)
                    .is_some_and(|h| h >= seq);
                if seen {
                    self.trace.rejected("replay");
                } else if self.now.saturating_sub(gen_ns) > sec.freshness_ns {
                    self.trace.rejected("stale");
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
}

/// What a station's own security processing reads of the run besides the station's state
/// (read-only: the threads that evaluate the receivers of a transmission share it).
pub(super) struct StationContext<'s> {
    pub(super) sec: &'s SecurityModel,
    pub(super) warmup_ns: u64,
    pub(super) query_timeout_ns: u64,
    pub(super) dice: RunDice,
    /// Every job must complete on time (real-crypto mode, or the test switch
    /// `every_completion_on_time`).
    pub(super) all_on_time: bool,
}

impl StationContext<'_> {
    /// Whether the completion of `work` must be handled at its time (an event): it reaches
    /// beyond the station's own state and the metrics. Real verdicts come in time order, as
    /// the stations' real services expect.
    fn on_time(&self, work: &Work) -> bool {
        self.all_on_time
            || match work {
                Work::Prepare { .. } | Work::DecryptRequest { .. } => true,
                Work::Verify { frame, .. } => matches!(frame.kind, FrameKind::Relay { .. }),
                Work::DecryptReply { .. } => false,
            }
    }

    /// Whether a decoded CAM can be handled by the receiving vehicle alone, on the thread
    /// that owns it ([`receive_cam_alone`]): true unless real crypto or TESLA (whose
    /// packets wait for a key, with an event at their deadline) is in play.
    pub(super) fn cams_stay_local(&self) -> bool {
        !self.all_on_time && !matches!(self.sec.kind, ProtocolId::Tesla | ProtocolId::TeslaAttached)
    }
}

/// Hands `job` to the processor of `node` at `now` (jobs that expire meanwhile are lost);
/// the caller schedules the wake-up an on-time job needs.
fn submit_job(node: &mut Node, job: Job<Work>, urgent: bool, now: u64, cx: &StationContext, trace: &mut impl Observer) {
    if cx.on_time(&job.work) {
        node.service.on_time += 1;
    }
    let mut expired = Vec::new();
    let started = node.proc.submit(job, urgent, now, &mut |j| expired.push(j));
    for j in expired {
        left_processor(node, &j, cx);
        job_expired(j, cx, trace);
    }
    if let Some(j) = started {
        node.service.start(j);
    }
}

/// `job` left the processor of `node` (done or expired).
fn left_processor(node: &mut Node, job: &Job<Work>, cx: &StationContext) {
    if cx.on_time(&job.work) {
        node.service.on_time = node.service.on_time.saturating_sub(1);
    }
}

/// The processor's side of the completion of `job` at `now` (the next job starts, those
/// that expired meanwhile are lost): the job back unless it was aborted.
fn finish_job(
    node: &mut Node,
    job: Job<Work>,
    now: u64,
    cx: &StationContext,
    trace: &mut impl Observer,
) -> Option<Job<Work>> {
    let mut expired = Vec::new();
    let next = if job.on_signing_core {
        node.proc.complete_signing(now)
    } else {
        node.proc.complete(now, &mut |j| expired.push(j))
    };
    for j in expired {
        left_processor(node, &j, cx);
        job_expired(j, cx, trace);
    }
    if let Some(j) = next {
        node.service.start(j);
    }
    left_processor(node, &job, cx);
    if job.aborted() {
        job_expired(job, cx, trace);
        return None;
    }
    Some(job)
}

fn job_expired(job: Job<Work>, cx: &StationContext, trace: &mut impl Observer) {
    if let Work::Verify { frame, dist, .. } = job.work {
        match frame.kind {
            FrameKind::Cam { gen_ns, .. } if gen_ns >= cx.warmup_ns => {
                trace.crypto_lost(CryptoLoss::Deadline, dist);
            }
            FrameKind::Attack { .. } => trace.attack_job_expired(),
            FrameKind::Relay { .. } => trace.relay_lost(),
            _ => {}
        }
    }
}

fn decrypt_reply(gen_ns: u64, now: u64, cx: &StationContext, trace: &mut impl Observer) {
    let d = now - gen_ns;
    if d <= cx.query_timeout_ns {
        trace.query_success(d);
    }
}

/// A verified CAM or attack frame (a relayed message excepted) reaches the application of
/// `n` at `now`: the neighbour table and the metrics.
#[allow(clippy::too_many_arguments)] // the station (2), the frame (3), the time, the run (2)
fn deliver(
    node: &mut Node,
    n: NodeId,
    frame: Frame,
    rx_ns: u64,
    dist: f32,
    now: u64,
    cx: &StationContext,
    trace: &mut impl Observer,
) {
    match frame.kind {
        FrameKind::Cam {
            seq,
            gen_ns,
            pos,
            certificate,
            p2pcd_request,
            ..
        } => {
            let src = frame.src;
            // A verified request for our certificate: the next own CAM carries it.
            if p2pcd_request.is_some_and(|r| r.contains(&n)) {
                node.certificate_due = true;
            }
            let nb = node.neighbours.entry(src);
            let previous = nb.last_verified_ns();
            nb.last_verified_ns = now;
            nb.last_pos = pos;
            nb.highest_seq = nb.highest_seq().map_or(seq, |h| h.max(seq));
            nb.seq_known = true;
            if certificate {
                // A station heard for the first time: the next own CAM carries the
                // certificate so that it can verify us at once (where enabled).
                if !nb.certificate_known && cx.sec.certificate_on_new_station {
                    node.certificate_due = true;
                }
                nb.certificate_known = true;
                if cx.sec.p2pcd {
                    node.p2pcd_ask.received(src);
                }
            }
            if gen_ns < cx.warmup_ns {
                return;
            }
            trace.cam_verified(CamVerified {
                src,
                dst: n,
                seq,
                gen_ns,
                distance_m: dist,
                e2e_ns: now - gen_ns,
                latency_ns: now - rx_ns,
                inter_arrival_ns: previous.filter(|p| *p >= cx.warmup_ns).map(|prev| now - prev),
            });
        }
        FrameKind::Attack { kind, .. } => match kind {
            AttackKind::Replay => trace.attack_accepted(),
            _ => trace.rejected("invalid-signature"),
        },
        _ => {}
    }
}

/// What a vehicle does next with a decoded CAM, after [`receive_cam`].
enum Received {
    /// Nothing (lost for an unknown certificate).
    Done,
    /// Verify it on the processor.
    Verify(Job<Work>),
    /// Verified at once (no cost).
    Verified(Frame),
    /// A TESLA packet: buffered until its key comes.
    AwaitKey(Frame),
}

/// A CAM of transmission `serial` decoded at vehicle `n` at `now` reaches its security
/// layer: the neighbour table and the metrics, then what to do with it. Its service time is
/// drawn for (transmission, receiver), so it does not depend on which thread handles it.
#[allow(clippy::too_many_arguments)] // the station (2), the frame (3), the time, the run (2)
fn receive_cam(
    node: &mut Node,
    n: NodeId,
    frame: Frame,
    serial: u64,
    dist: f32,
    now: u64,
    cx: &StationContext,
    trace: &mut impl Observer,
) -> Received {
    let FrameKind::Cam {
        seq,
        gen_ns,
        certificate,
        ..
    } = frame.kind
    else {
        return Received::Done;
    };
    let src = frame.src;
    node.last_heard_cam = Some((src, seq, gen_ns));
    let known = {
        let nb = node.neighbours.entry(src);
        nb.last_rx_ns = now;
        nb.certificate_known
    };
    let counted = gen_ns >= cx.warmup_ns;
    if counted {
        trace.cam_received(src, n, dist);
        if certificate && crate::security::carries_certificates(cx.sec.kind) {
            trace.certificate_received(known);
        }
    }
    let sec = cx.sec;
    match sec.kind {
        ProtocolId::None => return Received::Verified(frame),
        ProtocolId::Tesla | ProtocolId::TeslaAttached => return Received::AwaitKey(frame),
        _ => {}
    }
    if !certificate && sec.require_known_certificate && !known {
        if counted {
            trace.crypto_lost(CryptoLoss::UnknownCertificate, dist);
        }
        if sec.p2pcd {
            node.p2pcd_ask.want(src);
        }
        return Received::Done;
    }
    let u = cx.dice.station(n).uniform(serial, Draw::Processing);
    let service_ns = if certificate {
        sec.verify_certificate.sample_ns(u)
    } else {
        message_verify_ns(node, src, u, sec)
    };
    if service_ns == 0 {
        return Received::Verified(frame);
    }
    Received::Verify(Job::new(
        Work::Verify {
            frame,
            rx_ns: now,
            dist,
        },
        now,
        now.saturating_add(sec.deadline_ns),
        service_ns,
        distance_mm(dist),
    ))
}

/// Service time of a digest-signed message from `src` at `node` under the variant's
/// verification strategy, from the uniform `u`.
fn message_verify_ns(node: &mut Node, src: NodeId, u: f64, sec: &SecurityModel) -> u64 {
    match &sec.verifier {
        VerifierModel::Plain => sec.verify.sample_ns(u),
        VerifierModel::Precomputed {
            table,
            build,
            build_after,
            max_tables,
        } => match node.tables.hear(src.0, *build_after, *max_tables) {
            TableUse::Plain => sec.verify.sample_ns(u),
            TableUse::Build => build.sample_ns(u) + table.sample_ns(u),
            TableUse::Hit => table.sample_ns(u),
        },
    }
}

/// [`Sim::received`] for a CAM of transmission `serial` at vehicle `n`, done by the
/// vehicle alone when it can be: no job whose completion reaches beyond the station is in
/// its processor, and [`StationContext::cams_stay_local`]. The threads that evaluate the
/// receivers of a transmission call it, each for the vehicles it owns, reporting to a log
/// the event loop replays in the receivers' order; it is then exactly what
/// [`Sim::received`] would do. False (nothing done) when the vehicle cannot do it alone.
#[allow(clippy::too_many_arguments)] // the station (2), the frame (3), the time, the run (2)
pub(super) fn receive_cam_alone(
    node: &mut Node,
    n: NodeId,
    frame: &Frame,
    serial: u64,
    dist: f32,
    now: u64,
    cx: &StationContext,
    trace: &mut impl Observer,
) -> bool {
    if node.service.on_time > 0 || frame.dst.is_some() || !matches!(frame.kind, FrameKind::Cam { .. }) {
        return false;
    }
    debug_assert!(cx.cams_stay_local());
    catch_up_alone(node, n, now, cx, trace);
    trace.frame_decoded();
    match receive_cam(node, n, frame.clone(), serial, dist, now, cx, trace) {
        Received::Done => {}
        Received::Verify(job) => submit_job(node, job, false, now, cx, trace),
        Received::Verified(frame) => deliver(node, n, frame, now, dist, now, cx, trace),
        Received::AwaitKey(_) => unreachable!("TESLA packets are not handled alone"),
    }
    true
}

/// [`Sim::catch_up`] for a station none of whose jobs reaches beyond it (no job counted
/// `on_time` in its processor): completes, in order, the jobs that ended by `now`.
pub(super) fn catch_up_alone(node: &mut Node, n: NodeId, now: u64, cx: &StationContext, trace: &mut impl Observer) {
    debug_assert_eq!(node.service.on_time, 0);
    while node.service.next_end <= now {
        let end = node.service.next_end;
        let job = node.service.finish_first();
        let Some(job) = finish_job(node, job, end, cx, trace) else {
            continue;
        };
        match job.work {
            Work::Verify { frame, rx_ns, dist } => deliver(node, n, frame, rx_ns, dist, end, cx, trace),
            Work::DecryptReply { gen_ns } => decrypt_reply(gen_ns, end, cx, trace),
            Work::Prepare { .. } | Work::DecryptRequest { .. } => {
                unreachable!("on-time work in a processor that counts none")
            }
        }
    }
}

/// The engine's work on the receivers' threads: a vehicle handles a CAM it decoded alone
/// where it can ([`receive_cam_alone`]), its reports logged for the event loop to replay.
pub(super) struct CamsAlone<'c, 's> {
    cx: &'c StationContext<'s>,
    is_rsu: &'c [bool],
    stay_local: bool,
}

impl<'c, 's> CamsAlone<'c, 's> {
    pub(super) fn new(cx: &'c StationContext<'s>, is_rsu: &'c [bool]) -> Self {
        CamsAlone {
            cx,
            is_rsu,
            stay_local: cx.cams_stay_local(),
        }
    }
}

impl DecodedAlone<Frame> for CamsAlone<'_, '_> {
    type Station = Node;
    type Log = super::trace::Call;

    fn handle(&self, node: &mut Node, d: &Decoded<'_, Frame>, log: &mut Vec<super::trace::Call>) -> bool {
        self.stay_local
            && !self.is_rsu[d.to.index()]
            && receive_cam_alone(node, d.to, d.frame, d.serial, d.dist, d.now, self.cx, log)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::MobilityConfig;
    use crate::security::SecurityModel;
    use crate::verifier::Job;

    fn job(ends_ns: u64) -> Job<Work> {
        let mut j = Job::new(Work::DecryptReply { gen_ns: 0 }, 0, u64::MAX, ends_ns, 0);
        j.started_ns = 0;
        j
    }

    /// Jobs complete in the order of their ends, the first started first among equals.
    #[test]
    fn service_completes_by_end_then_start_order() {
        let mut s = Service::default();
        assert_eq!(s.next_end, NONE);
        for (i, end) in [30u64, 10, 30, 20].into_iter().enumerate() {
            let mut j = job(end);
            j.distance_mm = i as u64;
            s.start(j);
        }
        let mut order = Vec::new();
        while s.next_end != NONE {
            let end = s.next_end;
            let j = s.finish_first();
            assert_eq!(j.ends_ns(), end);
            order.push(j.distance_mm);
        }
        assert_eq!(order, [1, 3, 0, 2]);
    }

    /// Completing the jobs of no consequence beyond their station when the station is next
    /// looked at, and handling decoded CAMs on the receivers' threads, gives exactly the
    /// metrics of completing every job at an event of its own and handling every CAM in the
    /// event loop,
    /// on a city whose processors are overloaded (queues, deadline losses, own signing
    /// waiting behind verifications).
    #[test]
    fn lazy_completion_gives_the_metrics_of_an_event_per_completion() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut sc = crate::Scenario::load(&root.join("scenarios/bench-city/bench-city-300.toml")).unwrap();
        sc.duration_s = 0.8;
        sc.warmup_s = 0.2;
        if let MobilityConfig::Grid { width_m, height_m, .. } = &mut sc.mobility {
            *width_m = 1000.0;
            *height_m = 500.0;
        }
        // A deadline of a few verifications: queueing loses CAMs.
        sc.variants[0].deadline_ms = Some(2.0);
        let sec = SecurityModel::resolve(&sc.variants[0], &sc).unwrap();
        let run = |eager: bool, threads: usize| {
            let mut sim = Sim::new(&sc, &sec, 3).unwrap().with_threads(threads).unwrap();
            sim.every_completion_on_time = eager;
            sim.run()
        };
        // Lazily, the CAMs are handled by their receivers alone (on 2 threads, by the
        // receivers' threads, their reports replayed in order); eagerly, by the event loop.
        let (mut lazy, mut lazy_2, mut eager) = (run(false, 1), run(false, 2), run(true, 1));
        assert!(eager.events > 2 * lazy.events, "{} vs {}", eager.events, lazy.events);
        assert!(lazy.crypto_lost_deadline > 0, "the processors are not overloaded");
        assert!(lazy.headline_verified > 1000, "{}", lazy.headline_verified);
        for m in [&mut lazy, &mut lazy_2, &mut eager] {
            m.events = 0;
            m.wall_s = 0.0;
        }
        assert_eq!(lazy, eager);
        assert_eq!(lazy_2, eager);
    }
}
