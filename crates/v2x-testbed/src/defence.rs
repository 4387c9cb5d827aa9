//! Receiver-side DoS defences (issue 14, "DoS resilience"), each a named option of the
//! scenario's `[receiver]` table, off by default:
//!
//! | option | what it does | what it stops |
//! |---|---|---|
//! | `rate_limit_per_source_hz` | token bucket per source address, excess dropped before any work (`rate-limited`) | a flood from few addresses |
//! | `precheck` | 1609.2 header checks on the socket thread, before the packet takes a queue slot: decodable signed data, PSID CAM/DENM, generation time fresh, digest signer already verified (or its certificate already passed these checks), carried certificate from a known issuer and valid, datagram not seen before (reasons as SN-DECAP names them, `unknown-issuer` for the issuer) | stale, future, replayed, unsigned, expired-certificate and foreign-issuer floods: each costs a parse, not a queue slot and an ECDSA verification |
//! | `known_signers_first` | a priority queue per verifier thread: packets whose signer (1609.2 certificate HashedId8; the source address for the other protocols) was verified before go first; the others wait in per-source round robin and are evicted first when the queue is full | floods of invalid signatures (A-SIG-01/04): benign signers, known after their first accepted packet, never wait behind the flood |
//!
//! SN-DECAP itself already orders its steps cheapest first (freshness, signer look-up and
//! replay before the message signature; `v2x_security::entity::decap`), so a stale or
//! replayed packet never costs an ECDSA verification there either; what `precheck` adds is
//! that such packets no longer take the verifier queue's place from valid ones.
//!
//! Limits: `known_signers_first` trusts the signer a packet claims for its place in the
//! queue (the signature is checked after). A forger who copies a known signer's
//! certificate gets priority for its forgeries; `known_signer_rate_hz` caps the priority
//! share of each known signer (excess queues with the unknown ones).

use crate::log::digest;
use std::collections::{HashMap, HashSet, VecDeque};
use std::net::SocketAddr;
use std::sync::{Condvar, Mutex};
use v2x_security::profile::Profile;
use v2x_security::Certificate;
use v2x_wire::ieee1609dot2 as w;
use v2x_wire::ItsAid;

/// Who a packet claims to come from, for the known-signer queue.
pub type SignerKey = Vec<u8>;

/// The 1609.2 header fields the cheap pre-checks read (no signature is checked).
#[derive(Debug, Clone, PartialEq)]
pub struct Header {
    pub psid: Option<ItsAid>,
    pub generation_us: Option<u64>,
    /// HashedId8 of the signer certificate (named by digest or carried).
    pub signer: Option<[u8; 8]>,
    /// Whether the signer was named by a digest (else the certificate is carried).
    pub signer_is_digest: bool,
    /// The carried certificate's issuer HashedId8 and validity, TAI µs.
    pub issuer: Option<[u8; 8]>,
    pub certificate_valid_us: Option<(u64, u64)>,
}

/// What a carried certificate tells the pre-checks.
#[derive(Debug, Clone, Copy)]
struct CertInfo {
    hashed_id8: [u8; 8],
    issuer: Option<[u8; 8]>,
    valid_us: (u64, u64),
}

/// Reads 1609.2 headers on the socket thread. Decoding a certificate costs far more than
/// hashing it, and a flood repeats the same few: they are decoded once and kept by digest.
#[derive(Default)]
pub struct HeaderReader {
    certs: HashMap<u64, CertInfo>,
}

/// Certificates kept by [`HeaderReader`] (cleared when full).
const MAX_CERTS: usize = 4096;

impl HeaderReader {
    /// Parses the header of a 1609.2 datagram; `Err` is the reject reason code.
    pub fn peek(&mut self, bytes: &[u8]) -> Result<Header, &'static str> {
        match w::peek_protocol_version(bytes) {
            Some(3) => {}
            Some(_) => return Err("incompatible-protocol"),
            None => return Err("invalid-encoding"),
        }
        let (data, spans) = w::parse_data(bytes).map_err(|_| "invalid-encoding")?;
        let signed = match &data.content {
            w::Ieee1609Dot2Content::SignedData(s) => s,
            w::Ieee1609Dot2Content::UnsecuredData(_) => return Err("unsigned-message"),
            _ => return Err("invalid-encoding"),
        };
        let header = &signed.tbs_data.header_info;
        let mut h = Header {
            psid: v2x_security::convert::psid_value(&header.psid),
            generation_us: header.generation_time.as_ref().map(|t| t.0),
            signer: None,
            signer_is_digest: false,
            issuer: None,
            certificate_valid_us: None,
        };
        match &signed.signer {
            w::SignerIdentifier::Digest(d) => {
                h.signer = Some(w::hashed_id8_bytes(d));
                h.signer_is_digest = true;
            }
            w::SignerIdentifier::Certificate(_) => {
                let range = spans
                    .as_ref()
                    .and_then(|s| s.signer_certificates.first().cloned())
                    .ok_or("invalid-encoding")?;
                let encoded = bytes.get(range).ok_or("invalid-encoding")?;
                let info = self.certificate(encoded)?;
                h.signer = Some(info.hashed_id8);
                h.issuer = info.issuer;
                h.certificate_valid_us = Some(info.valid_us);
            }
            _ => return Err("unsupported-signer-identifier-type"),
        }
        Ok(h)
    }

    fn certificate(&mut self, encoded: &[u8]) -> Result<CertInfo, &'static str> {
        let key = digest(encoded);
        if let Some(info) = self.certs.get(&key) {
            return Ok(*info);
        }
        let cert = Certificate::from_bytes(encoded).map_err(|_| "invalid-certificate")?;
        let v = cert.validity();
        let info = CertInfo {
            hashed_id8: cert.hashed_id8().0,
            issuer: match cert.issuer() {
                v2x_security::Issuer::Digest(_, id) => Some(id.0),
                v2x_security::Issuer::SelfSigned(_) => None,
            },
            valid_us: (v.start.saturating_mul(1_000_000), v.end.saturating_mul(1_000_000)),
        };
        if self.certs.len() >= MAX_CERTS {
            self.certs.clear();
        }
        self.certs.insert(key, info);
        Ok(info)
    }
}

/// Bound of [`Precheck`]'s heard-signer set (cleared when full: the verified ones stay in
/// [`KnownSigners`]).
const MAX_HEARD: usize = 65_536;

/// The cheap pre-checks of one receiver (socket thread).
pub struct Precheck {
    issuers: HashSet<[u8; 8]>,
    /// Datagram digests seen, with when: a byte-identical copy is a replay.
    seen: HashMap<u64, u64>,
    /// Signers whose certificate passed these checks (queued, maybe not verified yet): the
    /// digest-signed packets that follow must not be refused while it waits in the queue.
    heard: HashSet<[u8; 8]>,
    last_prune_us: u64,
}

impl Precheck {
    /// `issuers`: HashedId8 of every CA the receiver trusts to issue tickets.
    pub fn new(issuers: impl IntoIterator<Item = [u8; 8]>) -> Precheck {
        Precheck {
            issuers: issuers.into_iter().collect(),
            seen: HashMap::new(),
            heard: HashSet::new(),
            last_prune_us: 0,
        }
    }

    /// Longest freshness window of the accepted profiles, µs: how long a digest is kept.
    fn window_us() -> u64 {
        [Profile::cam(), Profile::denm()]
            .iter()
            .map(|p| (p.max_age + p.max_future_skew).as_micros() as u64)
            .max()
            .unwrap_or(0)
    }

    /// `Ok` when the datagram may go on to verification; else the reject reason.
    pub fn check(&mut self, bytes: &[u8], h: &Header, known: &KnownSigners, now_us: u64) -> Result<(), &'static str> {
        let profile = match h.psid {
            Some(ItsAid::CAM) => Profile::cam(),
            Some(ItsAid::DENM) => Profile::denm(),
            _ => return Err("psid-not-permitted"),
        };
        let gen = h.generation_us.ok_or("missing-header-field")?;
        if gen < now_us.saturating_sub(profile.max_age.as_micros() as u64) {
            return Err("stale-message");
        }
        if gen > now_us + profile.max_future_skew.as_micros() as u64 {
            return Err("future-message");
        }
        let signer = h.signer.ok_or("invalid-encoding")?;
        if h.signer_is_digest {
            if !self.heard.contains(&signer) && !known.contains(&signer.to_vec()) {
                return Err("signer-certificate-not-found");
            }
        } else {
            if !h.issuer.is_some_and(|i| self.issuers.contains(&i)) {
                return Err("unknown-issuer");
            }
            if let Some((start, end)) = h.certificate_valid_us {
                if gen >= end {
                    return Err("certificate-expired");
                }
                if gen < start {
                    return Err("certificate-not-yet-valid");
                }
            }
        }
        self.prune(now_us);
        if self.seen.insert(digest(bytes), now_us).is_some() {
            return Err("duplicate-message");
        }
        if !h.signer_is_digest {
            if self.heard.len() >= MAX_HEARD {
                self.heard.clear();
            }
            self.heard.insert(signer);
        }
        Ok(())
    }

    fn prune(&mut self, now_us: u64) {
        if now_us.saturating_sub(self.last_prune_us) < 1_000_000 {
            return;
        }
        self.last_prune_us = now_us;
        let keep = Self::window_us();
        self.seen.retain(|_, t| now_us.saturating_sub(*t) <= keep);
    }
}

/// Signers whose packets were accepted, shared by the socket and verifier threads.
#[derive(Default)]
pub struct KnownSigners(Mutex<HashSet<SignerKey>>);

impl KnownSigners {
    pub fn contains(&self, k: &SignerKey) -> bool {
        self.0.lock().expect("known-signer set").contains(k)
    }
    pub fn insert(&self, k: SignerKey) {
        self.0.lock().expect("known-signer set").insert(k);
    }
}

/// Token bucket per key (burst of one second's worth): the per-source rate limit and the
/// known-signer priority cap.
pub struct Buckets<K>(HashMap<K, (f64, u64)>);

impl<K: std::hash::Hash + Eq> Default for Buckets<K> {
    fn default() -> Self {
        Buckets(HashMap::new())
    }
}

impl<K: std::hash::Hash + Eq> Buckets<K> {
    /// Takes a token of `key`'s bucket at `now` (µs), refilled at `rate` per second.
    pub fn take(&mut self, key: K, now: u64, rate: f64) -> bool {
        let b = self.0.entry(key).or_insert((rate, now));
        b.0 = (b.0 + (now.saturating_sub(b.1)) as f64 * rate / 1e6).min(rate);
        b.1 = now;
        if b.0 >= 1.0 {
            b.0 -= 1.0;
            true
        } else {
            false
        }
    }
}

/// A verifier thread's queue: plain FIFO, or known signers first with the unknown ones in
/// round robin by source address.
pub struct WorkQueue<T> {
    state: Mutex<QueueState<T>>,
    ready: Condvar,
    capacity: usize,
    priority: bool,
}

struct QueueState<T> {
    known: VecDeque<T>,
    unknown: HashMap<SocketAddr, VecDeque<T>>,
    /// Sources with unknown packets waiting, in service order.
    turns: VecDeque<SocketAddr>,
    len: usize,
    closed: bool,
}

/// What became of a pushed item.
pub enum Pushed<T> {
    Queued,
    /// Queued after evicting this older unknown item (dropped, `queue-overflow`).
    Evicted(T),
    /// Not queued (the queue is full).
    Full(T),
}

impl<T> WorkQueue<T> {
    pub fn new(capacity: usize, priority: bool) -> WorkQueue<T> {
        WorkQueue {
            state: Mutex::new(QueueState {
                known: VecDeque::new(),
                unknown: HashMap::new(),
                turns: VecDeque::new(),
                len: 0,
                closed: false,
            }),
            ready: Condvar::new(),
            capacity: capacity.max(1),
            priority,
        }
    }

    /// Queues `item` from `src`; `known` = its signer was verified before.
    pub fn push(&self, item: T, src: SocketAddr, known: bool) -> Pushed<T> {
        let mut s = self.state.lock().expect("queue");
        let mut evicted = None;
        if s.len >= self.capacity {
            if !(self.priority && known) {
                return Pushed::Full(item);
            }
            match s.pop_unknown() {
                Some(old) => evicted = Some(old),
                None => return Pushed::Full(item),
            }
        }
        let s = &mut *s;
        if !self.priority || known {
            s.known.push_back(item);
        } else {
            let q = s.unknown.entry(src).or_default();
            if q.is_empty() {
                s.turns.push_back(src);
            }
            q.push_back(item);
        }
        s.len += 1;
        self.ready.notify_one();
        match evicted {
            Some(old) => Pushed::Evicted(old),
            None => Pushed::Queued,
        }
    }

    /// The next item (blocks); `None` once closed and empty.
    pub fn pop(&self) -> Option<T> {
        let mut s = self.state.lock().expect("queue");
        loop {
            if let Some(x) = s.known.pop_front() {
                s.len -= 1;
                return Some(x);
            }
            if let Some(x) = s.pop_unknown() {
                return Some(x);
            }
            if s.closed {
                return None;
            }
            s = self.ready.wait(s).expect("queue");
        }
    }

    /// Items waiting.
    pub fn len(&self) -> usize {
        self.state.lock().expect("queue").len
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// No more pushes: `pop` drains what is queued, then returns `None`.
    pub fn close(&self) {
        self.state.lock().expect("queue").closed = true;
        self.ready.notify_all();
    }
}

impl<T> QueueState<T> {
    /// The oldest item of the source whose turn it is (round robin).
    fn pop_unknown(&mut self) -> Option<T> {
        let src = self.turns.pop_front()?;
        let q = self.unknown.get_mut(&src).expect("a source with a turn has a queue");
        let x = q.pop_front().expect("a source with a turn has items");
        if q.is_empty() {
            self.unknown.remove(&src);
        } else {
            self.turns.push_back(src);
        }
        self.len -= 1;
        Some(x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn addr(p: u16) -> SocketAddr {
        SocketAddr::from(([127, 0, 0, 1], p))
    }

    #[test]
    fn fifo_without_priority() {
        let q = WorkQueue::new(3, false);
        for i in 0..3 {
            assert!(matches!(q.push(i, addr(1), i == 2), Pushed::Queued));
        }
        assert!(matches!(q.push(9, addr(2), true), Pushed::Full(9)));
        q.close();
        assert_eq!((q.pop(), q.pop(), q.pop(), q.pop()), (Some(0), Some(1), Some(2), None));
    }

    #[test]
    fn known_signers_first_then_unknown_sources_in_turn_and_evicted_first() {
        let q = WorkQueue::new(5, true);
        // A flood source (1) queued four packets before a benign unknown source (2).
        for i in 0..4 {
            q.push(10 + i, addr(1), false);
        }
        q.push(20, addr(2), false);
        // Full: a known signer's packet evicts the oldest unknown of the source whose turn it is.
        match q.push(30, addr(3), true) {
            Pushed::Evicted(old) => assert_eq!(old, 10),
            _ => panic!("expected an eviction"),
        }
        // An unknown one is refused when full.
        assert!(matches!(q.push(40, addr(4), false), Pushed::Full(40)));
        q.close();
        let order: Vec<i32> = std::iter::from_fn(|| q.pop()).collect();
        // Known first; then the benign unknown source gets its turn before the flood is done.
        assert_eq!(order, vec![30, 20, 11, 12, 13]);
    }

    #[test]
    fn buckets_admit_their_rate_per_key() {
        let mut b = Buckets::default();
        let admitted = (0..1000).filter(|i| b.take(1, 1_000_000 + i * 1000, 20.0)).count();
        assert!((20..=41).contains(&admitted), "{admitted}");
        assert!(b.take(2, 1_999_000, 20.0), "another key has its own bucket");
    }

    #[test]
    fn peek_refuses_what_is_not_signed_1609_2() {
        let mut r = HeaderReader::default();
        assert_eq!(r.peek(&[]), Err("invalid-encoding"));
        assert_eq!(r.peek(&[2, 0, 0]), Err("incompatible-protocol"));
        assert_eq!(r.peek(&[3, 0x80, 5, 1, 2, 3, 4, 5]), Err("unsigned-message"));
        assert_eq!(r.peek(&[3, 0x81, 0xff]), Err("invalid-encoding"));
    }
}
