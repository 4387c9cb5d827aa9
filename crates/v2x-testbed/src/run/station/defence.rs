//! What a receiver's DoS defences keep beyond SN-DECAP (issue 14 "DoS resilience", issue
//! 27 item 3). SN-DECAP's own read-only steps before the signature are
//! `SecurityEntity::precheck` (the `precheck` option runs them on the socket thread); the
//! receiver adds only what SN-DECAP cannot know:
//!
//! | option | what it keeps | what it stops |
//! |---|---|---|
//! | `rate_limit_per_source_hz` | a token bucket per source IP address (every port of an address shares it) | a flood from few addresses, however many ports |
//! | `rate_limit_per_signer_hz` | a token bucket per claimed signer, for packets from addresses that have sent a packet failing verification | a forger copying certificates from many addresses: each copied certificate buys it at most this many verifications per second |
//! | `precheck` | byte-identical copies seen within the freshness window ([`Duplicates`]); the messages in flight (a copy of one waiting in the queue, re-encoded or not, is a replay before SN-DECAP's window holds it); the certificates in flight (a digest-signed packet that follows one is queued behind it, not refused) | stale, future, replayed, unsigned, expired-certificate floods: a parse, not a queue slot |
//! | `known_signers_first` | [`Standing`]: (signer, address) pairs whose last verified packet was good, and addresses whose last one failed ([`super::queue`]'s lanes) | invalid-signature floods, from one address or many, and forgers copying certificates: the priority of a signer is earned from an address by a verified signature and lost there by a failed one, so the real owner keeps it while a forger elsewhere never gets it |
//!
//! Limits: an attacker that sends from the very address of a benign station (spoofing it)
//! makes that address suspect and takes the pair's priority away; one that uses a fresh
//! address for every packet is never suspect (but stays in the unproven lane, below every
//! known pair, and each address's first failed packet costs one verification).

use std::collections::{HashMap, HashSet};
use std::net::IpAddr;
use std::sync::Mutex;
use v2x_crypto::HashedId8;
use v2x_security::replay::ReplayKey;

/// Who a packet claims to come from: the 1609.2 signer certificate it names, else (the
/// other protocols, or no signer read) its source address.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SignerKey {
    Certificate(HashedId8),
    Address(IpAddr),
}

/// Token bucket per key (burst of one second's worth).
pub struct Buckets<K>(HashMap<K, (f64, u64)>);

impl<K: std::hash::Hash + Eq> Default for Buckets<K> {
    fn default() -> Self {
        Buckets(HashMap::new())
    }
}

/// Keys a bucket table holds before it forgets them all (a flood of fresh keys).
const MAX_KEYS: usize = 65_536;

impl<K: std::hash::Hash + Eq> Buckets<K> {
    /// Takes a token of `key`'s bucket at `now` (µs), refilled at `rate` per second.
    pub fn take(&mut self, key: K, now: u64, rate: f64) -> bool {
        if self.0.len() >= MAX_KEYS {
            self.0.clear();
        }
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

/// Datagrams seen (by digest) within a window: a byte-identical copy of one is a replay
/// even before the original is verified (SN-DECAP's replay window holds accepted
/// messages only).
pub struct Duplicates {
    seen: HashMap<u64, u64>,
    window_us: u64,
    last_prune_us: u64,
}

impl Duplicates {
    pub fn new(window_us: u64) -> Duplicates {
        Duplicates {
            seen: HashMap::new(),
            window_us,
            last_prune_us: 0,
        }
    }

    /// Records `digest` at `now`; true when it was seen within the window.
    pub fn seen_before(&mut self, digest: u64, now_us: u64) -> bool {
        if now_us.saturating_sub(self.last_prune_us) >= 1_000_000 {
            self.last_prune_us = now_us;
            let keep = self.window_us;
            self.seen.retain(|_, t| now_us.saturating_sub(*t) <= keep);
        }
        self.seen
            .insert(digest, now_us)
            .is_some_and(|t| now_us.saturating_sub(t) <= self.window_us)
    }
}

/// How a decided packet counts for its signer and address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Its signature (or MAC) verified and it was accepted.
    Verified,
    /// It was rejected after its signature was checked (or by a protocol that does not
    /// say where it rejected).
    FailedVerification,
    /// Decided without a verification (dropped, or rejected before the signature).
    Unverified,
}

/// Keys of the packets in the queue (or being verified), with how many of each.
struct InFlight<K>(HashMap<K, u32>);

impl<K: std::hash::Hash + Eq> Default for InFlight<K> {
    fn default() -> Self {
        InFlight(HashMap::new())
    }
}

impl<K: std::hash::Hash + Eq> InFlight<K> {
    fn queued(&mut self, k: K) {
        *self.0.entry(k).or_default() += 1;
    }

    fn decided(&mut self, k: &K) {
        if let Some(n) = self.0.get_mut(k) {
            *n -= 1;
            if *n == 0 {
                self.0.remove(k);
            }
        }
    }

    fn contains(&self, k: &K) -> bool {
        self.0.contains_key(k)
    }
}

#[derive(Default)]
struct StandingState {
    known: HashSet<(SignerKey, IpAddr)>,
    suspect: HashSet<IpAddr>,
    /// Certificates carried by packets in flight, by signer.
    certificates: InFlight<HashedId8>,
    /// Identities (SN-DECAP's replay keys) of the messages in flight.
    messages: InFlight<ReplayKey>,
}

/// What a receiver has learnt of signers and addresses from its verifications, shared by
/// the socket thread (which places packets) and the verifier threads (which decide them).
#[derive(Default)]
pub struct Standing(Mutex<StandingState>);

impl Standing {
    fn lock(&self) -> std::sync::MutexGuard<'_, StandingState> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether `signer`'s last verified packet from `ip` was good.
    pub fn is_known(&self, signer: SignerKey, ip: IpAddr) -> bool {
        self.lock().known.contains(&(signer, ip))
    }

    /// Whether the last verified packet from `ip` failed.
    pub fn is_suspect(&self, ip: IpAddr) -> bool {
        self.lock().suspect.contains(&ip)
    }

    /// Records how a packet claiming `signer` from `ip` was decided.
    pub fn record(&self, signer: SignerKey, ip: IpAddr, outcome: Outcome) {
        let mut s = self.lock();
        match outcome {
            Outcome::Verified => {
                if s.known.len() >= MAX_KEYS {
                    s.known.clear();
                }
                s.known.insert((signer, ip));
                s.suspect.remove(&ip);
            }
            Outcome::FailedVerification => {
                s.known.remove(&(signer, ip));
                if s.suspect.len() >= MAX_KEYS {
                    s.suspect.clear();
                }
                s.suspect.insert(ip);
            }
            Outcome::Unverified => {}
        }
    }

    /// A packet entered the queue: it carries `certificate` (not validated yet) and is
    /// the message `identity`.
    pub fn queued(&self, certificate: Option<HashedId8>, identity: Option<ReplayKey>) {
        let mut s = self.lock();
        if let Some(c) = certificate {
            s.certificates.queued(c);
        }
        if let Some(i) = identity {
            s.messages.queued(i);
        }
    }

    /// That packet left the queue, decided.
    pub fn decided(&self, certificate: Option<HashedId8>, identity: Option<ReplayKey>) {
        let mut s = self.lock();
        if let Some(c) = certificate {
            s.certificates.decided(&c);
        }
        if let Some(i) = identity {
            s.messages.decided(&i);
        }
    }

    /// Whether a packet carrying `signer`'s certificate is in flight.
    pub fn certificate_waiting(&self, signer: HashedId8) -> bool {
        self.lock().certificates.contains(&signer)
    }

    /// Whether a copy of message `identity` is in flight (queued, or being verified).
    pub fn message_waiting(&self, identity: &ReplayKey) -> bool {
        self.lock().messages.contains(identity)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(n: u8) -> IpAddr {
        IpAddr::from([127, 0, 0, n])
    }

    #[test]
    fn buckets_admit_their_rate_per_key() {
        let mut b = Buckets::default();
        let admitted = (0..1000).filter(|i| b.take(1, 1_000_000 + i * 1000, 20.0)).count();
        assert!((20..=41).contains(&admitted), "{admitted}");
        assert!(b.take(2, 1_999_000, 20.0), "another key has its own bucket");
    }

    #[test]
    fn duplicates_are_remembered_for_the_window() {
        let mut d = Duplicates::new(1_000);
        assert!(!d.seen_before(7, 10));
        assert!(d.seen_before(7, 500));
        assert!(!d.seen_before(7, 5_000), "outside the window");
    }

    #[test]
    fn priority_is_earned_per_address_and_lost_there_only() {
        let s = Standing::default();
        let signer = SignerKey::Certificate(HashedId8([1; 8]));
        s.record(signer, ip(1), Outcome::Verified);
        // A forger elsewhere claiming the same signer fails: the owner keeps its standing.
        s.record(signer, ip(2), Outcome::FailedVerification);
        assert!(s.is_known(signer, ip(1)) && !s.is_suspect(ip(1)));
        assert!(!s.is_known(signer, ip(2)) && s.is_suspect(ip(2)));
        // From the owner's own address a failure takes the priority away.
        s.record(signer, ip(1), Outcome::FailedVerification);
        assert!(!s.is_known(signer, ip(1)) && s.is_suspect(ip(1)));
        s.record(signer, ip(1), Outcome::Unverified);
        assert!(s.is_suspect(ip(1)), "an unverified decision changes nothing");
        let id = HashedId8([2; 8]);
        let message = ReplayKey {
            signer: id,
            generation_time: 7,
            tbs_hash: [3; 16],
        };
        s.queued(Some(id), Some(message));
        s.queued(Some(id), None);
        s.decided(Some(id), Some(message));
        assert!(s.certificate_waiting(id) && !s.message_waiting(&message));
        s.decided(Some(id), None);
        assert!(!s.certificate_waiting(id));
    }
}
