//! A receiving station without its sockets: what the socket thread does with each
//! datagram before it is queued ([`Admission`]: the receiver's defences), and what a
//! verifier thread does with a queued one ([`verify`]). The socket loop
//! (`super::receive`) reads, admits, queues and logs.
//!
//! A receiver has one SN-DECAP state ([`Security`]: one `Authenticator`, so one replay
//! window and one certificate cache) shared by all its verifier threads, and one queue
//! they all take from: every copy of a message meets the same replay window, whichever
//! address it came from and whichever thread verifies it. Decaps run one at a time under
//! the state's lock; what the threads do in parallel is waiting out the emulated
//! verification cost (`emulated_verify_cost_us`), logging and beaconing.

use super::defence::{Buckets, Duplicates, Outcome, SignerKey, Standing};
use super::queue::{Lane, WorkQueue};
use crate::log::{digest, digest_hex, Content, DropReason, Event, EventRecord, Log, Reason, RxRecord, Stage, Verdict};
use crate::payload::{MessageKind, Payload};
use crate::scenario::ReceiverOptions;
use std::net::{IpAddr, SocketAddr, UdpSocket};
use std::sync::Mutex;
use std::time::Duration;
use v2x_crypto::HashedId8;
use v2x_protocols::{Authenticator, DecapOutcome, Decapsulated, Precheck, RejectReason, SenderId, Timestamp};
use v2x_security::replay::ReplayKey;

/// Shortest time between two CAMs of a beaconing receiver (10 Hz).
pub const BEACON_PERIOD: Duration = Duration::from_millis(100);

/// The receiver's own CAMs ([`super::StationConfig::beacon`]), secured by its one
/// `Authenticator` — the one whose SN-DECAP queued the P2PCD requests they carry — and
/// sent to every source it verified packets from (on loopback, the stand-in for a
/// broadcast).
pub struct Beacon {
    sock: UdpSocket,
    heard: Vec<SocketAddr>,
    origin: u32,
    payload_len: usize,
    counter: u64,
    last: Option<std::time::Instant>,
    log: Log,
    station: String,
}

impl Beacon {
    pub fn new(sock: UdpSocket, origin: u32, payload_len: usize, log: Log, station: &str) -> Beacon {
        Beacon {
            sock,
            heard: Vec::new(),
            origin,
            payload_len,
            counter: 0,
            last: None,
            log,
            station: station.to_string(),
        }
    }

    fn heard(&mut self, src: SocketAddr) {
        if !self.heard.contains(&src) && self.heard.len() < 256 {
            self.heard.push(src);
        }
    }

    fn maybe_send(&mut self, auth: &mut dyn Authenticator) {
        if self.last.is_some_and(|t| t.elapsed() < BEACON_PERIOD) {
            return;
        }
        self.last = Some(std::time::Instant::now());
        let now = crate::clock::now();
        let payload = Payload {
            kind: MessageKind::Cam,
            origin: self.origin,
            counter: self.counter,
            generated_us: now.as_micros(),
        }
        .encode(self.payload_len);
        self.counter += 1;
        match auth.encap(&payload, now) {
            Ok(packets) => {
                for p in packets {
                    super::transmit(&self.sock, &self.heard, &p.bytes);
                }
            }
            Err(e) => self.log.event(EventRecord {
                station: self.station.clone(),
                time_us: crate::clock::now_us(),
                event: Event::BeaconRefused,
                detail: e.to_string(),
            }),
        }
    }
}

struct SecurityState {
    auth: Box<dyn Authenticator>,
    beacon: Option<Beacon>,
}

/// A receiver's one SN-DECAP state, shared by its socket thread (precheck) and its
/// verifier threads (decap).
pub struct Security(Mutex<SecurityState>);

impl Security {
    pub fn new(auth: Box<dyn Authenticator>, beacon: Option<Beacon>) -> Security {
        Security(Mutex::new(SecurityState { auth, beacon }))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, SecurityState> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The protocol's read-only checks before verification, if it offers them.
    pub fn precheck(&self, bytes: &[u8], now: Timestamp) -> Option<Precheck> {
        self.lock().auth.precheck(bytes, now)
    }

    /// Decap with `state` (this receiver's, locked), then the beacon's turn.
    fn decap(state: &mut SecurityState, bytes: &[u8], now: Timestamp, src: SocketAddr) -> Decapsulated {
        let out = state.auth.decap(bytes, now);
        if let Some(b) = state.beacon.as_mut() {
            b.heard(src);
            b.maybe_send(state.auth.as_mut());
        }
        out
    }
}

/// A datagram admitted to the verifier queue.
#[derive(Debug)]
pub struct Packet {
    pub bytes: Vec<u8>,
    pub src: SocketAddr,
    pub received_us: u64,
    /// Who it claims to come from.
    pub signer: SignerKey,
    pub lane: Lane,
    /// The certificate it carries, not yet validated here (see [`Standing`]).
    pub carried_certificate: Option<HashedId8>,
    /// Its identity in SN-DECAP's replay window, when the precheck computed it.
    pub identity: Option<ReplayKey>,
    /// Packets waiting when it was queued.
    pub queue_len: u32,
}

/// A datagram the socket thread decided: how and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refusal {
    pub verdict: Verdict,
    pub reason: Reason,
}

impl Refusal {
    fn dropped(d: DropReason) -> Refusal {
        Refusal {
            verdict: Verdict::Dropped,
            reason: Reason::Dropped(d),
        }
    }
    fn rejected(r: RejectReason) -> Refusal {
        Refusal {
            verdict: Verdict::Rejected,
            reason: Reason::Rejected(r),
        }
    }
}

/// The socket thread's defences (what each does: [`super::defence`]).
pub struct Admission {
    options: ReceiverOptions,
    /// The protocol offers SN-DECAP's precheck (1609.2).
    prechecks: bool,
    per_source: Buckets<IpAddr>,
    per_signer: Buckets<SignerKey>,
    known_cap: Buckets<(SignerKey, IpAddr)>,
    duplicates: Duplicates,
}

/// How long a byte-identical copy is remembered: the longest freshness window of the
/// profiles a receiver accepts (DENM: 60 s old, 1 s ahead).
const DUPLICATE_WINDOW_US: u64 = 61_000_000;

impl Admission {
    pub fn new(options: &ReceiverOptions, prechecks: bool) -> Admission {
        Admission {
            options: options.clone(),
            prechecks,
            per_source: Buckets::default(),
            per_signer: Buckets::default(),
            known_cap: Buckets::default(),
            duplicates: Duplicates::new(DUPLICATE_WINDOW_US),
        }
    }

    /// Decides where a datagram read at `now_us` goes: its place in the queue, or why it
    /// is refused before.
    pub fn admit(
        &mut self,
        bytes: Vec<u8>,
        src: SocketAddr,
        now_us: u64,
        security: &Security,
        standing: &Standing,
    ) -> Result<Packet, (Vec<u8>, Refusal)> {
        let ip = src.ip();
        let per_source_hz = self.options.rate_limit_per_source_hz;
        if per_source_hz > 0.0 && !self.per_source.take(ip, now_us, per_source_hz) {
            return Err((bytes, Refusal::dropped(DropReason::RateLimited)));
        }
        let (precheck, lanes) = (self.options.precheck, self.options.known_signers_first);
        let pre = (self.prechecks && (precheck || lanes))
            .then(|| security.precheck(&bytes, Timestamp(now_us)))
            .flatten();
        if precheck {
            if let Some(refusal) = self.refused_by_precheck(&bytes, pre.as_ref(), now_us, standing) {
                return Err((bytes, refusal));
            }
        }
        let signer = match pre.as_ref().and_then(|p| p.signer) {
            Some(id) => SignerKey::Certificate(id),
            None => SignerKey::Address(ip),
        };
        let lane = self.lane(signer, ip, now_us, standing);
        let per_signer_hz = self.options.rate_limit_per_signer_hz;
        if per_signer_hz > 0.0 && lane == Lane::Suspect && !self.per_signer.take(signer, now_us, per_signer_hz) {
            return Err((bytes, Refusal::dropped(DropReason::RateLimited)));
        }
        let identity = pre.as_ref().and_then(|p| p.identity);
        let carried_certificate = pre
            .filter(|p| p.verdict.is_ok() && !p.signer_known)
            .and_then(|p| p.signer);
        Ok(Packet {
            bytes,
            src,
            received_us: now_us,
            signer,
            lane,
            carried_certificate,
            identity,
            queue_len: 0,
        })
    }

    /// The lane of a packet claiming `signer` from `ip`: known (within its pair's cap),
    /// else by its address's standing.
    fn lane(&mut self, signer: SignerKey, ip: IpAddr, now_us: u64, standing: &Standing) -> Lane {
        let cap = self.options.known_signer_rate_hz;
        let known = self.options.known_signers_first
            && standing.is_known(signer, ip)
            && (cap <= 0.0 || self.known_cap.take((signer, ip), now_us, cap));
        if known {
            Lane::Known
        } else if standing.is_suspect(ip) {
            Lane::Suspect
        } else {
            Lane::Unproven
        }
    }

    /// SN-DECAP's verdict before the signature, then a copy of a message in flight (by its
    /// SN-DECAP identity, or byte for byte): the reason to refuse a datagram before the
    /// queue, if any. A digest signer not known yet whose certificate waits in the queue is
    /// not refused (it is verified after it).
    fn refused_by_precheck(
        &mut self,
        bytes: &[u8],
        pre: Option<&Precheck>,
        now_us: u64,
        standing: &Standing,
    ) -> Option<Refusal> {
        match pre {
            Some(Precheck {
                verdict: Err(r),
                signer,
                ..
            }) => {
                let behind_its_certificate = r.reason == RejectReason::SignerCertificateNotFound
                    && signer.is_some_and(|s| standing.certificate_waiting(s));
                if !behind_its_certificate {
                    return Some(Refusal::rejected(r.reason));
                }
            }
            // A copy of a message still in flight: SN-DECAP's window will hold it.
            Some(Precheck { identity: Some(id), .. }) if standing.message_waiting(id) => {
                return Some(Refusal::rejected(RejectReason::DuplicateMessage))
            }
            _ => {}
        }
        self.duplicates
            .seen_before(digest(bytes), now_us)
            .then_some(Refusal::rejected(RejectReason::DuplicateMessage))
    }
}

/// The log row of a datagram decided at `stage`, before its verdict is known (pending).
fn packet_row(station: &str, bytes: &[u8], src: SocketAddr, received_us: u64, stage: Stage) -> RxRecord {
    RxRecord {
        station: station.to_string(),
        src,
        digest: digest_hex(digest(bytes)),
        bytes: bytes.len(),
        received_us,
        worker: None,
        queue_len: None,
        verify_start_us: None,
        verify_end_us: None,
        stage,
        verdict: Verdict::Pending,
        reason: None,
        sender: String::new(),
        origin: None,
        counter: None,
        generated_us: None,
        kind: None,
    }
}

/// The log row of a datagram decided without a verification.
pub fn unverified_row(
    station: &str,
    bytes: &[u8],
    src: SocketAddr,
    received_us: u64,
    stage: Stage,
    r: Refusal,
) -> RxRecord {
    RxRecord {
        verdict: r.verdict,
        reason: Some(r.reason),
        ..packet_row(station, bytes, src, received_us, stage)
    }
}

/// What a verifier thread enforces besides the protocol.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Drop a packet that waited longer than this, µs (0 = no deadline).
    pub deadline_us: u64,
    /// Lab setting: sleep this long after each decap that verified a signature.
    pub emulated_cost: Duration,
}

/// Takes the next packet of `queue` and verifies it: its log rows (none when another
/// thread took it first). The packet is taken while holding the receiver's SN-DECAP
/// state, so packets are verified in the order they leave the queue (the first copy of a
/// message to leave it is the one accepted).
pub fn verify_next(
    queue: &WorkQueue<Packet>,
    worker: u32,
    security: &Security,
    standing: &Standing,
    limits: Limits,
    station: &str,
) -> Vec<RxRecord> {
    let state = security.lock();
    match queue.try_pop() {
        Some(p) => verify_locked(state, p, worker, standing, limits, station),
        None => Vec::new(),
    }
}

/// Verifies one packet (taken from the queue by the caller): its log rows (the packet's,
/// and those of earlier pending packets it released). Records the outcome in `standing`.
pub fn verify(
    p: Packet,
    worker: u32,
    security: &Security,
    standing: &Standing,
    limits: Limits,
    station: &str,
) -> Vec<RxRecord> {
    verify_locked(security.lock(), p, worker, standing, limits, station)
}

fn verify_locked(
    mut state: std::sync::MutexGuard<'_, SecurityState>,
    p: Packet,
    worker: u32,
    standing: &Standing,
    limits: Limits,
    station: &str,
) -> Vec<RxRecord> {
    let start = crate::clock::now_us();
    if limits.deadline_us > 0 && start.saturating_sub(p.received_us) > limits.deadline_us {
        drop(state);
        standing.decided(p.carried_certificate, p.identity);
        let mut row = unverified_row(
            station,
            &p.bytes,
            p.src,
            p.received_us,
            Stage::Queue,
            Refusal::dropped(DropReason::DeadlineExpired),
        );
        row.worker = Some(worker);
        row.queue_len = Some(p.queue_len);
        return vec![row];
    }
    let out = Security::decap(&mut state, &p.bytes, crate::clock::now(), p.src);
    drop(state);
    standing.decided(p.carried_certificate, p.identity);
    // A decap that checked a signature (or whose protocol does not say where it stopped).
    let verified = match &out.outcome {
        DecapOutcome::Rejected(r) => r.after_signature_check().unwrap_or(true),
        _ => true,
    };
    if verified && !limits.emulated_cost.is_zero() {
        std::thread::sleep(limits.emulated_cost);
    }
    let end = crate::clock::now_us();
    let mut row = RxRecord {
        worker: Some(worker),
        queue_len: Some(p.queue_len),
        verify_start_us: Some(start),
        verify_end_us: Some(end),
        ..packet_row(station, &p.bytes, p.src, p.received_us, Stage::Verify)
    };
    let mut good = decided_row(&mut row, out.outcome);
    let mut rows = vec![row.clone()];
    for rel in out.released {
        let mut r2 = row.clone();
        r2.stage = Stage::Release;
        r2.received_us = rel.received_at.as_micros();
        r2.reason = None;
        r2.sender.clear();
        let outcome = match rel.result {
            Ok(d) => DecapOutcome::Accepted(d),
            Err(r) => DecapOutcome::Rejected(r),
        };
        good |= decided_row(&mut r2, outcome);
        rows.push(r2);
    }
    let outcome = if good {
        Outcome::Verified
    } else if verified && row.verdict == Verdict::Rejected {
        Outcome::FailedVerification
    } else {
        Outcome::Unverified
    };
    standing.record(p.signer, p.src.ip(), outcome);
    rows
}

/// Fills a verified row from the decap's outcome; true when it authenticated the packet.
fn decided_row(row: &mut RxRecord, outcome: DecapOutcome) -> bool {
    match outcome {
        DecapOutcome::Accepted(d) => {
            row.verdict = Verdict::Accepted;
            row.sender = sender_name(&d.sender);
            if let Ok(p) = Payload::decode(&d.payload) {
                row.origin = Some(p.origin);
                row.counter = Some(p.counter);
                row.generated_us = Some(p.generated_us);
                row.kind = Some(Content::Message(p.kind));
            }
            true
        }
        DecapOutcome::Rejected(r) => {
            row.verdict = Verdict::Rejected;
            row.reason = Some(Reason::Rejected(r.reason));
            false
        }
        DecapOutcome::Pending(_) => {
            row.verdict = Verdict::Pending;
            false
        }
        DecapOutcome::Control(k) => {
            row.verdict = Verdict::Control;
            row.kind = Some(Content::Control(k));
            true
        }
    }
}

fn sender_name(s: &SenderId) -> String {
    match s {
        SenderId::Claimed(id) => format!("station-{}", id.0),
        SenderId::Pseudonym(b) | SenderId::Address(b) => hex::encode(b),
        SenderId::Certificate(h) => hex::encode(h),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use v2x_protocols::dot2::{Dot2Config, Dot2Station};
    use v2x_protocols::dot2_pki::Clock;
    use v2x_protocols::StationId;
    use v2x_security::{EncapRequest, InMemoryPki};

    fn receiver(fx: &InMemoryPki) -> Security {
        let auth = Dot2Station::from_entity(StationId(1), Dot2Config::default(), fx.receiver(), Clock::tai());
        Security::new(Box::new(auth), None)
    }

    fn addr(ip: u8, port: u16) -> SocketAddr {
        SocketAddr::from(([127, 0, 0, ip], port))
    }

    const LIMITS: Limits = Limits {
        deadline_us: 0,
        emulated_cost: Duration::ZERO,
    };

    /// Issue 27 item 2: a copy of an accepted CAM from another address, its signature
    /// re-encoded, verified by another verifier thread, is a replay: the receiver's
    /// threads share one replay window. (Each thread had its own, keyed by the source
    /// address, before: the copy was accepted.)
    #[test]
    fn a_reencoded_copy_from_another_address_is_a_replay_for_every_verifier_thread() {
        let fx = InMemoryPki::builder()
            .now(v2x_security::TaiTime::now())
            .build()
            .unwrap();
        let mut s = fx.sender(fx.ticket().unwrap());
        let now = crate::clock::now_us();
        let original = s
            .encap(&EncapRequest::cam(b"cam").at(v2x_security::TaiTime(now)))
            .unwrap()
            .bytes;
        let copy = super::super::forge::reencoded(&original).unwrap();
        let security = std::sync::Arc::new(receiver(&fx));
        let standing = std::sync::Arc::new(Standing::default());
        let options = ReceiverOptions::default();
        let mut admission = Admission::new(&options, true);
        let first = admission
            .admit(original, addr(2, 1000), now, &security, &standing)
            .unwrap();
        let second = admission.admit(copy, addr(3, 2000), now, &security, &standing).unwrap();
        let rows = verify(first, 0, &security, &standing, LIMITS, "rx0");
        assert_eq!(rows[0].verdict, Verdict::Accepted);
        let (sec, st) = (security.clone(), standing.clone());
        let rows = std::thread::spawn(move || verify(second, 1, &sec, &st, LIMITS, "rx0"))
            .join()
            .unwrap();
        assert_eq!(
            (rows[0].verdict, rows[0].reason),
            (
                Verdict::Rejected,
                Some(Reason::Rejected(RejectReason::DuplicateMessage))
            )
        );
    }

    /// With `precheck` the copy is refused on the socket thread, by SN-DECAP's replay
    /// look-up (not by its bytes, which differ).
    #[test]
    fn the_precheck_refuses_the_reencoded_copy_before_the_queue() {
        let fx = InMemoryPki::builder()
            .now(v2x_security::TaiTime::now())
            .build()
            .unwrap();
        let mut s = fx.sender(fx.ticket().unwrap());
        let now = crate::clock::now_us();
        let original = s
            .encap(&EncapRequest::cam(b"cam").at(v2x_security::TaiTime(now)))
            .unwrap()
            .bytes;
        let copy = super::super::forge::reencoded(&original).unwrap();
        let security = receiver(&fx);
        let standing = Standing::default();
        let options = ReceiverOptions {
            precheck: true,
            ..ReceiverOptions::default()
        };
        let mut admission = Admission::new(&options, true);
        let p = admission
            .admit(original.clone(), addr(2, 1), now, &security, &standing)
            .unwrap();
        assert!(p.carried_certificate.is_some());
        verify(p, 0, &security, &standing, LIMITS, "rx0");
        let (_, r) = admission
            .admit(copy, addr(3, 1), now, &security, &standing)
            .unwrap_err();
        assert_eq!(r, Refusal::rejected(RejectReason::DuplicateMessage));
        let (_, r) = admission
            .admit(original, addr(2, 1), now, &security, &standing)
            .unwrap_err();
        assert_eq!(r, Refusal::rejected(RejectReason::DuplicateMessage));
    }

    /// Issue 27 item 3: a forger copying a known signer's certificate from other
    /// addresses never takes the owner's place; its addresses end in the suspect lane,
    /// limited per claimed signer; the rate limit counts an address's every port.
    #[test]
    fn a_certificate_copying_forger_never_gets_the_owners_priority() {
        let fx = InMemoryPki::builder()
            .now(v2x_security::TaiTime::now())
            .build()
            .unwrap();
        let owner_ticket = fx.ticket().unwrap();
        let mut owner = fx.sender(owner_ticket.clone());
        let mut forger = super::super::forge::Forger::new(vec![owner_ticket.certificate.clone()]).unwrap();
        let security = receiver(&fx);
        let standing = Standing::default();
        let options = ReceiverOptions {
            precheck: true,
            known_signers_first: true,
            rate_limit_per_signer_hz: 5.0,
            rate_limit_per_source_hz: 10.0,
            ..ReceiverOptions::default()
        };
        let mut admission = Admission::new(&options, true);
        let t0 = crate::clock::now_us();
        let at = |i: u64| t0 + i * 1000;
        let own = |i: u64, owner: &mut v2x_security::SecurityEntity| {
            owner
                .encap(&EncapRequest::cam(format!("own {i}").as_bytes()).at(v2x_security::TaiTime(at(i))))
                .unwrap()
                .bytes
        };
        let first = admission
            .admit(own(0, &mut owner), addr(2, 1), at(0), &security, &standing)
            .unwrap();
        assert_eq!(first.lane, Lane::Unproven);
        verify(first, 0, &security, &standing, LIMITS, "rx0");
        // The forger, from its own address: unproven first, suspect once a forgery failed.
        let f = admission
            .admit(
                forger.forge(b"f", at(1)).unwrap(),
                addr(9, 7),
                at(1),
                &security,
                &standing,
            )
            .unwrap();
        assert_eq!((f.lane, f.signer), (Lane::Unproven, first_signer(&owner_ticket)));
        let rows = verify(f, 0, &security, &standing, LIMITS, "rx0");
        assert_eq!(rows[0].reason, Some(Reason::Rejected(RejectReason::FalseSignature)));
        let mut lanes = Vec::new();
        let mut limited = 0;
        for i in 2..30 {
            match admission.admit(
                forger.forge(b"f", at(i)).unwrap(),
                addr(9, 7 + i as u16),
                at(i),
                &security,
                &standing,
            ) {
                Ok(p) => lanes.push(p.lane),
                Err((_, r)) => {
                    assert_eq!(r, Refusal::dropped(DropReason::RateLimited));
                    limited += 1;
                }
            }
        }
        assert!(lanes.iter().all(|l| *l == Lane::Suspect), "{lanes:?}");
        assert!(
            limited >= 20,
            "per claimed signer (and per address, all ports): {limited}"
        );
        // The owner keeps its priority.
        let next = admission
            .admit(own(40, &mut owner), addr(2, 1), at(40), &security, &standing)
            .unwrap();
        assert_eq!(next.lane, Lane::Known);
    }

    fn first_signer(t: &v2x_security::Credentials) -> SignerKey {
        SignerKey::Certificate(t.certificate.hashed_id8())
    }
}
