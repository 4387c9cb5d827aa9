//! The hash-chain HMAC protocol with pseudo-identities (paper 001 §3-4, Algorithm 1).
//!
//! **Registration.** A driver registers with the CA over a secure channel and receives
//! the system seed and a pool of 20-byte random pseudo-identities (PIDs), which the CA
//! records against the driver (conditional traceability, revocation). The vehicle's
//! tamper-proof device (here [`KeyStore`]) hashes the seed into a chain of `n` keys:
//! `k_0 = SHA-256(seed)`, `k_{i+1} = SHA-256(k_i)`. Keys never leave the store.
//!
//! **Signing** (Algorithm 1): pick a random index `i`, compute
//! `HMAC-SHA256(k_i, PID ‖ m ‖ Ts)` truncated to its leftmost 12 bytes, send
//! `{PID, Sig, index, Ts, m}`. **Verifying**: check `Ts` freshness, look `k_i` up by
//! index, recompute and compare (constant time).
//!
//! **Trust assumption.** Every registered vehicle holds the *same* key table (paper 001
//! §3.1: "vehicles store the same hash chain table"). The MAC therefore proves only that
//! the sender is *some* registered vehicle: any registered insider can compute a MAC that
//! verifies under any PID, including another vehicle's (test
//! `insider_can_impersonate_another_pseudonym`). PIDs give privacy and let the CA trace
//! and revoke an honest sender, but they are not authenticated against a malicious one.
//! The scheme relies entirely on the tamper-proof device keeping the table secret.
//!
//! **V2I.** A roadside unit adds ECDSA authentication: its compact certificate
//! ([`crate::cert`], 117 bytes for P-256) and an ECDSA signature (64 bytes) over the
//! whole packet replace the PID, so V2I = 117 + 64 + 12 + 4 + 4 = 201 bytes (paper 001
//! §4.1). RSUs also carry the CA's revocation notices (list of revoked PIDs).
//!
//! Wire layout (big-endian). The paper's Figure 6 orders the V2V header (PID, Sig,
//! index, Ts); we put the index first because its two top bits say which variant
//! follows — the sizes are the paper's, the table length is limited to 2^30 keys.
//!
//! V2V (40 bytes of overhead):
//!
//! | bytes | field |
//! |---|---|
//! | 4 | key index (bit 31 = 0) |
//! | 4 | Ts: milliseconds mod 2^32 ([`crate::freshness`]) |
//! | 20 | PID |
//! | 12 | HMAC-SHA256(k_index, PID ‖ m ‖ Ts)[..12] |
//! | rest | m |
//!
//! V2I (201 bytes of overhead with P-256):
//!
//! | bytes | field |
//! |---|---|
//! | 4 | key index, bit 31 = 1, bit 30 = 1 for a revocation notice |
//! | 4 | Ts |
//! | 117 | RSU compact certificate |
//! | 12 | HMAC-SHA256(k_index, HashedId8(cert) ‖ m ‖ Ts)[..12] |
//! | rest − 64 | m (revocation notice: 2-byte count, then count × 20-byte PIDs) |
//! | 64 | ECDSA P-256 signature (r ‖ s) over every preceding byte |
//!
//! Choices where the paper is silent: the chain direction and indexing above; the
//! timestamp unit (ms); PIDs change every `pseudonym_lifetime_ms`; a replay cache
//! (by MAC tag) within the freshness window, so a replay inside the window is rejected
//! rather than only replays outside it; revocation distributed by RSUs as a signed
//! notice (paper: "the CA revokes the accused driver's pseudo-identity").

use crate::authenticator::{
    Authenticator, DecapOutcome, Decapsulated, Delivery, EncapError, OutgoingPacket, PacketKind, SenderId, StationId,
    Timestamp,
};
use crate::cert::{self, CompactCa, CompactCertificate, Credential, TrustAnchor};
use crate::describe::{CryptoOp, CurveName, MessageDescription, OpCount, ProtocolDescription, Schedule};
use crate::factory::{Role, SetupError};
use crate::freshness::{self, ReplayCache};
use crate::wire::{Reader, WireError};
use crate::{RejectReason, Rejection};
use rand::Rng;
use rand_chacha::ChaCha20Rng;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use v2x_crypto::{hashed_id8, hmac_sha256, sha256, Curve, HashAlg};

/// Bytes of a pseudo-identity.
pub const PID_LEN: usize = 20;
/// Bytes of the truncated HMAC.
pub const MAC_LEN: usize = 12;
/// V2V security header bytes.
pub const V2V_OVERHEAD: usize = 4 + 4 + PID_LEN + MAC_LEN;
const V2I_FLAG: u32 = 1 << 31;
const REVOCATION_FLAG: u32 = 1 << 30;
const INDEX_MASK: u32 = REVOCATION_FLAG - 1;

/// Which link a bench pair exercises.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Link {
    #[default]
    V2v,
    V2i,
}

/// Parameters of the hash-chain protocol.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HashChainConfig {
    /// n: keys in the hash chain table (at most 2^30).
    pub chain_length: u32,
    /// Oldest accepted timestamp, in milliseconds.
    pub freshness_window_ms: u32,
    /// Largest accepted clock lead of a sender, in milliseconds.
    pub max_future_ms: u32,
    /// Reject a second copy of a message inside the freshness window.
    pub replay_detection: bool,
    /// Bound of the replay cache (entries).
    pub replay_cache_capacity: usize,
    /// PIDs the CA issues per driver.
    pub pseudonyms_per_vehicle: u32,
    /// How long a vehicle keeps one PID before switching to the next.
    pub pseudonym_lifetime_ms: u64,
    /// Curve of the RSU certificates and signatures.
    pub rsu_curve: Curve,
    /// Which link `build_pair` sets up (vehicle or RSU as sender).
    pub pair_link: Link,
    /// Fixed seed for key-index and pseudonym choices (reproducible runs only).
    pub rng_seed: Option<u64>,
}

impl Default for HashChainConfig {
    fn default() -> Self {
        HashChainConfig {
            chain_length: 1024,
            freshness_window_ms: 500,
            max_future_ms: 100,
            replay_detection: true,
            replay_cache_capacity: 65_536,
            pseudonyms_per_vehicle: 16,
            pseudonym_lifetime_ms: 60_000,
            rsu_curve: Curve::NistP256,
            pair_link: Link::V2v,
            rng_seed: None,
        }
    }
}

impl HashChainConfig {
    fn validate(&self) -> Result<(), SetupError> {
        if self.chain_length == 0 || self.chain_length > INDEX_MASK {
            return Err(SetupError::InvalidConfig(format!(
                "chain_length must be in 1..={INDEX_MASK}"
            )));
        }
        if self.pseudonyms_per_vehicle == 0 {
            return Err(SetupError::InvalidConfig(
                "pseudonyms_per_vehicle must be at least 1".into(),
            ));
        }
        Ok(())
    }
}

/// The protected key store of a vehicle's tamper-proof device: the hash chain table.
/// Keys are private to this type; it only computes and checks MACs. Best-effort wipe on
/// drop.
pub struct KeyStore {
    keys: Vec<[u8; 32]>,
}

impl std::fmt::Debug for KeyStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "KeyStore({} keys, redacted)", self.keys.len())
    }
}

impl Drop for KeyStore {
    fn drop(&mut self) {
        for k in &mut self.keys {
            k.fill(0);
        }
        std::hint::black_box(&self.keys);
    }
}

impl KeyStore {
    /// Builds the table of `n` chained keys from the CA-provided seed.
    pub fn from_seed(seed: &[u8; 32], n: u32) -> KeyStore {
        let mut keys = Vec::with_capacity(n as usize);
        let mut k = sha256(seed);
        for _ in 0..n {
            keys.push(k);
            k = sha256(&k);
        }
        KeyStore { keys }
    }

    pub fn len(&self) -> u32 {
        self.keys.len() as u32
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// `HMAC-SHA256(k_index, parts...)` truncated to 12 bytes; None for an index outside
    /// the table.
    pub fn mac(&self, index: u32, identity: &[u8], payload: &[u8], ts: u32) -> Option<[u8; MAC_LEN]> {
        let key = self.keys.get(index as usize)?;
        let mut data = Vec::with_capacity(identity.len() + payload.len() + 4);
        data.extend_from_slice(identity);
        data.extend_from_slice(payload);
        data.extend_from_slice(&ts.to_be_bytes());
        let full = hmac_sha256(key, &data);
        let mut out = [0u8; MAC_LEN];
        out.copy_from_slice(&full[..MAC_LEN]);
        Some(out)
    }

    /// Checks a tag in constant time. Err when the index is outside the table.
    pub fn verify(&self, index: u32, identity: &[u8], payload: &[u8], ts: u32, tag: &[u8]) -> Result<bool, Rejection> {
        let expected = self.mac(index, identity, payload, ts).ok_or_else(|| {
            Rejection::new(
                RejectReason::UnknownKey,
                format!("key index {index} outside the table of {}", self.len()),
            )
        })?;
        Ok(tag.len() == MAC_LEN && openssl::memcmp::eq(&expected, tag))
    }
}

/// What the CA hands a registered driver.
pub struct Registration {
    pub seed: [u8; 32],
    pub pseudonyms: Vec<[u8; PID_LEN]>,
}

impl std::fmt::Debug for Registration {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Registration(seed redacted, {} pseudonyms)", self.pseudonyms.len())
    }
}

/// The certification authority: system seed, pseudonym registry, RSU certificates,
/// revocation list.
#[derive(Debug)]
pub struct HashChainCa {
    seed: [u8; 32],
    ca: CompactCa,
    owners: HashMap<[u8; PID_LEN], u32>,
    revoked: Vec<[u8; PID_LEN]>,
}

impl HashChainCa {
    pub fn new(rsu_curve: Curve) -> Result<HashChainCa, SetupError> {
        let mut seed = [0u8; 32];
        seed.copy_from_slice(&v2x_crypto::random_bytes(32));
        Ok(HashChainCa {
            seed,
            ca: CompactCa::generate(rsu_curve)?,
            owners: HashMap::new(),
            revoked: Vec::new(),
        })
    }

    /// Registers driver `driver` and issues `count` fresh random PIDs.
    pub fn register(&mut self, driver: u32, count: u32) -> Registration {
        let mut pseudonyms = Vec::with_capacity(count as usize);
        while pseudonyms.len() < count as usize {
            let mut pid = [0u8; PID_LEN];
            pid.copy_from_slice(&v2x_crypto::random_bytes(PID_LEN));
            if self.owners.insert(pid, driver).is_none() {
                pseudonyms.push(pid);
            }
        }
        Registration {
            seed: self.seed,
            pseudonyms,
        }
    }

    /// Certifies a roadside unit.
    pub fn enrol_rsu(&self, id: u32) -> Result<Credential, SetupError> {
        Ok(self.ca.enrol(id, 0, u32::MAX)?)
    }

    pub fn anchor(&self) -> &TrustAnchor {
        self.ca.anchor()
    }

    /// Conditional traceability: which driver a PID belongs to.
    pub fn trace(&self, pid: &[u8]) -> Option<u32> {
        <[u8; PID_LEN]>::try_from(pid)
            .ok()
            .and_then(|p| self.owners.get(&p).copied())
    }

    /// Revokes one pseudo-identity (only the accused driver's, not the vehicle's).
    pub fn revoke_pseudonym(&mut self, pid: [u8; PID_LEN]) {
        if !self.revoked.contains(&pid) {
            self.revoked.push(pid);
        }
    }

    /// Revokes every PID of a driver.
    pub fn revoke_driver(&mut self, driver: u32) {
        let mut pids: Vec<_> = self
            .owners
            .iter()
            .filter(|(_, d)| **d == driver)
            .map(|(p, _)| *p)
            .collect();
        pids.sort();
        for p in pids {
            self.revoke_pseudonym(p);
        }
    }

    pub fn revocation_list(&self) -> &[[u8; PID_LEN]] {
        &self.revoked
    }
}

/// A decoded V2V packet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct V2vPacket<'a> {
    pub index: u32,
    pub ts: u32,
    pub pid: &'a [u8],
    pub mac: &'a [u8],
    pub payload: &'a [u8],
}

/// A decoded V2I packet (the signature covers `signed`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct V2iPacket<'a> {
    pub index: u32,
    pub revocation: bool,
    pub ts: u32,
    pub certificate: CompactCertificate,
    pub mac: &'a [u8],
    pub payload: &'a [u8],
    pub signed: &'a [u8],
    pub signature: &'a [u8],
}

/// Either variant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HashChainPacket<'a> {
    V2v(V2vPacket<'a>),
    V2i(V2iPacket<'a>),
}

/// Parses a packet; `rsu_curve` fixes the V2I certificate and signature lengths.
pub fn parse(bytes: &[u8], rsu_curve: Curve) -> Result<HashChainPacket<'_>, WireError> {
    let mut r = Reader::new(bytes);
    let word = r.u32("key index")?;
    let ts = r.u32("timestamp")?;
    if word & V2I_FLAG == 0 {
        if word & REVOCATION_FLAG != 0 {
            return Err(WireError::Invalid {
                field: "key index",
                message: "revocation flag on a V2V packet".into(),
            });
        }
        let pid = r.take(PID_LEN, "pseudo-identity")?;
        let mac = r.take(MAC_LEN, "MAC")?;
        return Ok(HashChainPacket::V2v(V2vPacket {
            index: word,
            ts,
            pid,
            mac,
            payload: r.rest(),
        }));
    }
    let certificate = CompactCertificate::decode(rsu_curve, r.take(cert::certificate_len(rsu_curve), "certificate")?)?;
    let mac = r.take(MAC_LEN, "MAC")?;
    let rest = r.rest();
    let sig_len = cert::signature_len(rsu_curve);
    let payload_len = rest.len().checked_sub(sig_len).ok_or(WireError::Truncated {
        field: "signature",
        needed: sig_len,
        available: rest.len(),
    })?;
    let (payload, signature) = rest.split_at(payload_len);
    let signed = &bytes[..bytes.len() - sig_len];
    Ok(HashChainPacket::V2i(V2iPacket {
        index: word & INDEX_MASK,
        revocation: word & REVOCATION_FLAG != 0,
        ts,
        certificate,
        mac,
        payload,
        signed,
        signature,
    }))
}

/// Builds a V2V packet with an explicit key index and PID. Exposed so tests and attack
/// tools can show what a registered insider can do with the shared table.
pub fn encode_v2v(
    store: &KeyStore,
    index: u32,
    pid: &[u8; PID_LEN],
    payload: &[u8],
    now: Timestamp,
) -> Option<Vec<u8>> {
    let ts = freshness::ts32(now);
    let mac = store.mac(index, pid, payload, ts)?;
    let mut out = Vec::with_capacity(V2V_OVERHEAD + payload.len());
    out.extend_from_slice(&(index & INDEX_MASK & !REVOCATION_FLAG).to_be_bytes());
    out.extend_from_slice(&ts.to_be_bytes());
    out.extend_from_slice(pid);
    out.extend_from_slice(&mac);
    out.extend_from_slice(payload);
    Some(out)
}

/// Encodes a revocation notice body.
pub fn encode_revocation_list(pids: &[[u8; PID_LEN]]) -> Vec<u8> {
    let n = pids.len().min(u16::MAX as usize);
    let mut out = Vec::with_capacity(2 + n * PID_LEN);
    out.extend_from_slice(&(n as u16).to_be_bytes());
    for p in &pids[..n] {
        out.extend_from_slice(p);
    }
    out
}

/// Decodes a revocation notice body.
pub fn decode_revocation_list(bytes: &[u8]) -> Result<Vec<[u8; PID_LEN]>, WireError> {
    let mut r = Reader::new(bytes);
    let n = r.u16("revocation count")?;
    let mut out = Vec::with_capacity(usize::from(n).min(bytes.len() / PID_LEN));
    for _ in 0..n {
        out.push(r.array::<PID_LEN>("revoked pseudo-identity")?);
    }
    r.finish()?;
    Ok(out)
}

/// A station (vehicle or roadside unit) of the hash-chain protocol.
pub struct HashChainStation {
    id: StationId,
    config: HashChainConfig,
    store: KeyStore,
    pseudonyms: Vec<[u8; PID_LEN]>,
    current_pid: usize,
    pid_since: Option<Timestamp>,
    rng: ChaCha20Rng,
    anchor: TrustAnchor,
    verified_rsus: HashSet<[u8; 8]>,
    revoked: HashSet<[u8; PID_LEN]>,
    replay: ReplayCache,
    rsu: Option<RsuState>,
}

struct RsuState {
    credential: Credential,
    ca: Arc<Mutex<HashChainCa>>,
    announced_revocations: usize,
}

impl HashChainStation {
    /// A vehicle registered with the CA.
    pub fn vehicle(
        id: StationId,
        config: HashChainConfig,
        registration: Registration,
        anchor: TrustAnchor,
    ) -> HashChainStation {
        let store = KeyStore::from_seed(&registration.seed, config.chain_length);
        let rng = crate::rng::station_rng(config.rng_seed, u64::from(id.0));
        let lifetime_us = u64::from(config.freshness_window_ms + config.max_future_ms) * 1000;
        HashChainStation {
            id,
            store,
            pseudonyms: registration.pseudonyms,
            current_pid: 0,
            pid_since: None,
            rng,
            anchor,
            verified_rsus: HashSet::new(),
            revoked: HashSet::new(),
            replay: ReplayCache::new(config.replay_cache_capacity, lifetime_us),
            rsu: None,
            config,
        }
    }

    /// A roadside unit: registered like a vehicle (it needs the key table for the MAC)
    /// plus an ECDSA credential; it forwards the CA's revocations.
    pub fn roadside_unit(
        id: StationId,
        config: HashChainConfig,
        ca: Arc<Mutex<HashChainCa>>,
    ) -> Result<HashChainStation, SetupError> {
        let (registration, credential, anchor) = {
            let mut guard = ca.lock().unwrap_or_else(|e| e.into_inner());
            let reg = guard.register(id.0, 1);
            (reg, guard.enrol_rsu(id.0)?, guard.anchor().clone())
        };
        let mut station = HashChainStation::vehicle(id, config, registration, anchor);
        station.rsu = Some(RsuState {
            credential,
            ca,
            announced_revocations: 0,
        });
        Ok(station)
    }

    /// The PID this vehicle currently sends under.
    pub fn current_pseudonym(&self) -> [u8; PID_LEN] {
        self.pseudonyms.get(self.current_pid).copied().unwrap_or([0; PID_LEN])
    }

    /// The key store (for tests and tools that build packets by hand).
    pub fn key_store(&self) -> &KeyStore {
        &self.store
    }

    /// Whether this station has learnt that `pid` is revoked.
    pub fn knows_revoked(&self, pid: &[u8; PID_LEN]) -> bool {
        self.revoked.contains(pid)
    }

    fn rotate_pseudonym(&mut self, now: Timestamp) {
        match self.pid_since {
            None => self.pid_since = Some(now),
            Some(since)
                if now.as_micros().saturating_sub(since.as_micros()) >= self.config.pseudonym_lifetime_ms * 1000 =>
            {
                self.current_pid = (self.current_pid + 1) % self.pseudonyms.len().max(1);
                self.pid_since = Some(now);
            }
            Some(_) => {}
        }
    }

    fn encode_v2i(&mut self, payload: &[u8], revocation: bool, now: Timestamp) -> Result<Vec<u8>, EncapError> {
        let Some(rsu) = &self.rsu else {
            return Err(EncapError::NotReady("only a roadside unit sends V2I packets".into()));
        };
        let index = self.rng.gen_range(0..self.store.len());
        let ts = freshness::ts32(now);
        let cert = rsu.credential.certificate.encoded();
        let mac = self
            .store
            .mac(index, &rsu.credential.certificate.digest(), payload, ts)
            .ok_or_else(|| EncapError::KeysExhausted("empty key table".into()))?;
        let word = V2I_FLAG | if revocation { REVOCATION_FLAG } else { 0 } | index;
        let mut out = Vec::with_capacity(8 + cert.len() + MAC_LEN + payload.len() + 96);
        out.extend_from_slice(&word.to_be_bytes());
        out.extend_from_slice(&ts.to_be_bytes());
        out.extend_from_slice(cert);
        out.extend_from_slice(&mac);
        out.extend_from_slice(payload);
        let sig = rsu.credential.sign(&out)?;
        out.extend_from_slice(&sig);
        Ok(out)
    }

    /// A signed revocation notice carrying `pids` (normally sent by `poll`).
    pub fn revocation_notice(&mut self, pids: &[[u8; PID_LEN]], now: Timestamp) -> Result<OutgoingPacket, EncapError> {
        let body = encode_revocation_list(pids);
        Ok(OutgoingPacket::broadcast(
            PacketKind::Revocation,
            self.encode_v2i(&body, true, now)?,
        ))
    }

    fn check_common(&mut self, ts: u32, mac: &[u8], now: Timestamp) -> Result<(), Rejection> {
        freshness::check_fresh(now, ts, self.config.freshness_window_ms, self.config.max_future_ms)?;
        if self.config.replay_detection && self.replay.contains(mac, now) {
            return Err(Rejection::new(
                RejectReason::DuplicateMessage,
                "MAC tag seen inside the freshness window",
            ));
        }
        Ok(())
    }

    fn decap_v2v(&mut self, p: V2vPacket<'_>, now: Timestamp) -> Result<Delivery, Rejection> {
        self.check_common(p.ts, p.mac, now)?;
        if let Ok(pid) = <[u8; PID_LEN]>::try_from(p.pid) {
            if self.revoked.contains(&pid) {
                return Err(Rejection::new(
                    RejectReason::RevokedIdentity,
                    "pseudo-identity revoked by the CA",
                ));
            }
        }
        if !self.store.verify(p.index, p.pid, p.payload, p.ts, p.mac)? {
            return Err(Rejection::new(RejectReason::FalseMac, "HMAC does not verify"));
        }
        if self.config.replay_detection {
            self.replay.insert(p.mac.to_vec(), now);
        }
        Ok(Delivery {
            payload: p.payload.to_vec(),
            sender: SenderId::Pseudonym(p.pid.to_vec()),
            generated: Some(freshness::expand_ts32(now, p.ts)),
        })
    }

    fn decap_v2i(&mut self, p: V2iPacket<'_>, now: Timestamp) -> Result<DecapOutcome, Rejection> {
        self.check_common(p.ts, p.mac, now)?;
        let digest = p.certificate.digest();
        if !self.verified_rsus.contains(&digest) {
            p.certificate.verify(&self.anchor, now)?;
            self.verified_rsus.insert(digest);
        }
        if !self.store.verify(p.index, &digest, p.payload, p.ts, p.mac)? {
            return Err(Rejection::new(RejectReason::FalseMac, "HMAC does not verify"));
        }
        if !cert::verify(&p.certificate.public, p.signed, p.signature) {
            return Err(Rejection::new(
                RejectReason::FalseSignature,
                "RSU signature does not verify",
            ));
        }
        if self.config.replay_detection {
            self.replay.insert(p.mac.to_vec(), now);
        }
        if p.revocation {
            let list = decode_revocation_list(p.payload)
                .map_err(|e| Rejection::new(RejectReason::InvalidEncoding, e.to_string()))?;
            self.revoked.extend(list);
            return Ok(DecapOutcome::Control(PacketKind::Revocation));
        }
        Ok(DecapOutcome::Accepted(Delivery {
            payload: p.payload.to_vec(),
            sender: SenderId::Certificate(digest),
            generated: Some(freshness::expand_ts32(now, p.ts)),
        }))
    }
}

impl Authenticator for HashChainStation {
    fn name(&self) -> &str {
        "hash-chain"
    }

    fn station_id(&self) -> StationId {
        self.id
    }

    fn encap(&mut self, payload: &[u8], now: Timestamp) -> Result<Vec<OutgoingPacket>, EncapError> {
        if self.rsu.is_some() {
            let bytes = self.encode_v2i(payload, false, now)?;
            return Ok(vec![OutgoingPacket::broadcast(PacketKind::Data, bytes)]);
        }
        self.rotate_pseudonym(now);
        let pid = self.current_pseudonym();
        let index = self.rng.gen_range(0..self.store.len());
        let bytes = encode_v2v(&self.store, index, &pid, payload, now)
            .ok_or_else(|| EncapError::KeysExhausted("empty key table".into()))?;
        Ok(vec![OutgoingPacket::broadcast(PacketKind::Data, bytes)])
    }

    fn decap(&mut self, packet: &[u8], now: Timestamp) -> Decapsulated {
        let parsed = match parse(packet, self.config.rsu_curve) {
            Ok(p) => p,
            Err(e) => return Decapsulated::rejected(RejectReason::InvalidEncoding, e.to_string()),
        };
        let outcome = match parsed {
            HashChainPacket::V2v(p) => self.decap_v2v(p, now).map(DecapOutcome::Accepted),
            HashChainPacket::V2i(p) => self.decap_v2i(p, now),
        };
        Decapsulated::outcome(outcome.unwrap_or_else(DecapOutcome::Rejected))
    }

    /// An RSU announces revocations the CA made since its last announcement.
    fn poll(&mut self, now: Timestamp) -> crate::authenticator::Polled {
        let mut polled = crate::authenticator::Polled::default();
        let pending = match &self.rsu {
            Some(rsu) => {
                let ca = rsu.ca.lock().unwrap_or_else(|e| e.into_inner());
                let list = ca.revocation_list();
                list.get(rsu.announced_revocations..)
                    .map(<[_]>::to_vec)
                    .unwrap_or_default()
            }
            None => return polled,
        };
        if pending.is_empty() {
            return polled;
        }
        // Notices are bounded to what fits a frame; the rest goes out on the next poll.
        let chunk: Vec<_> = pending.iter().take(64).copied().collect();
        if let Ok(p) = self.revocation_notice(&chunk, now) {
            polled.send.push(p);
            if let Some(rsu) = &mut self.rsu {
                rsu.announced_revocations += chunk.len();
            }
        }
        polled
    }

    fn describe(&self) -> ProtocolDescription {
        describe(&self.config)
    }
}

/// Sizes and costs of the hash-chain protocol for `config`.
pub fn describe(config: &HashChainConfig) -> ProtocolDescription {
    let reference = crate::describe::REFERENCE_PAYLOAD_LEN;
    let curve = CurveName::from(config.rsu_curve);
    let v2i_overhead = 8 + cert::certificate_len(config.rsu_curve) + MAC_LEN + cert::signature_len(config.rsu_curve);
    let hmac = OpCount::new(CryptoOp::HmacSha256, 1);
    ProtocolDescription {
        protocol: "hash-chain".into(),
        variant: match config.pair_link {
            Link::V2v => "v2v".into(),
            Link::V2i => "v2i".into(),
        },
        reference_payload_len: reference,
        messages: vec![
            MessageDescription {
                message: "v2v".into(),
                overhead_bytes: V2V_OVERHEAD,
                packet_bytes: V2V_OVERHEAD + reference,
                overhead_depends_on_payload: false,
                schedule: Schedule::EveryPayload,
                sender_ops: vec![hmac],
                receiver_ops: vec![hmac],
            },
            MessageDescription {
                message: "v2i".into(),
                overhead_bytes: v2i_overhead,
                packet_bytes: v2i_overhead + reference,
                overhead_depends_on_payload: false,
                schedule: Schedule::EveryPayload,
                sender_ops: vec![hmac, OpCount::new(CryptoOp::EcdsaSign(curve), 1)],
                receiver_ops: vec![hmac, OpCount::new(CryptoOp::EcdsaVerify(curve), 1)],
            },
            MessageDescription {
                message: "revocation".into(),
                overhead_bytes: v2i_overhead,
                packet_bytes: v2i_overhead + 2 + PID_LEN,
                overhead_depends_on_payload: false,
                schedule: Schedule::OnEvent,
                sender_ops: vec![hmac, OpCount::new(CryptoOp::EcdsaSign(curve), 1)],
                receiver_ops: vec![hmac, OpCount::new(CryptoOp::EcdsaVerify(curve), 1)],
            },
        ],
        delayed_verification: None,
        notes: vec![
            "every registered vehicle holds the same key table: a MAC proves membership, not which PID sent it".into(),
            "V2I receivers verify the RSU certificate once (one more ECDSA verify), then cache it by digest".into(),
            format!(
                "timestamp in ms mod 2^32; freshness window {} ms; replay cache by MAC tag",
                config.freshness_window_ms
            ),
        ],
    }
}

/// Shared material of a hash-chain deployment.
pub struct HashChainDeployment {
    config: HashChainConfig,
    ca: Arc<Mutex<HashChainCa>>,
}

impl HashChainDeployment {
    pub fn new(config: &HashChainConfig) -> Result<HashChainDeployment, SetupError> {
        config.validate()?;
        Ok(HashChainDeployment {
            config: config.clone(),
            ca: Arc::new(Mutex::new(HashChainCa::new(config.rsu_curve)?)),
        })
    }

    /// The CA (trace, revoke). Revocations reach vehicles through RSUs' `poll`.
    pub fn ca(&self) -> Arc<Mutex<HashChainCa>> {
        self.ca.clone()
    }

    pub fn station(&mut self, id: StationId, role: Role) -> Result<HashChainStation, SetupError> {
        match role {
            Role::Vehicle => {
                let mut ca = self.ca.lock().unwrap_or_else(|e| e.into_inner());
                let reg = ca.register(id.0, self.config.pseudonyms_per_vehicle);
                Ok(HashChainStation::vehicle(
                    id,
                    self.config.clone(),
                    reg,
                    ca.anchor().clone(),
                ))
            }
            Role::RoadsideUnit => HashChainStation::roadside_unit(id, self.config.clone(), self.ca.clone()),
            Role::GroupLeader => Err(SetupError::UnsupportedRole {
                protocol: "hash-chain".into(),
                role,
            }),
        }
    }
}

/// HashedId8 of a certificate encoding (what V2I deliveries name as sender).
pub fn certificate_digest(encoded: &[u8]) -> [u8; 8] {
    hashed_id8(HashAlg::Sha256, encoded).0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::authenticator::data_packet;

    fn setup() -> (HashChainDeployment, HashChainStation, HashChainStation) {
        let config = HashChainConfig {
            rng_seed: Some(7),
            ..HashChainConfig::default()
        };
        let mut dep = HashChainDeployment::new(&config).unwrap();
        let a = dep.station(StationId(1), Role::Vehicle).unwrap();
        let b = dep.station(StationId(2), Role::Vehicle).unwrap();
        (dep, a, b)
    }

    fn send(s: &mut HashChainStation, payload: &[u8], now: Timestamp) -> Vec<u8> {
        data_packet(&s.encap(payload, now).unwrap()).unwrap().bytes.clone()
    }

    #[test]
    fn v2v_round_trip_has_40_byte_header() {
        let (_dep, mut a, mut b) = setup();
        let now = Timestamp::from_millis(1_000_000);
        let pkt = send(&mut a, b"bsm", now);
        assert_eq!(pkt.len(), 40 + 3);
        match b.decap(&pkt, now.plus_micros(2_000)).outcome {
            DecapOutcome::Accepted(d) => {
                assert_eq!(d.payload, b"bsm");
                assert_eq!(d.sender, SenderId::Pseudonym(a.current_pseudonym().to_vec()));
                assert_eq!(d.generated, Some(now));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn tampered_payload_pid_index_are_rejected() {
        let (_dep, mut a, mut b) = setup();
        let now = Timestamp::from_millis(5_000);
        let pkt = send(&mut a, b"payload", now);
        for (pos, reason) in [
            (pkt.len() - 1, RejectReason::FalseMac),
            (10, RejectReason::FalseMac),
            (30, RejectReason::FalseMac),
        ] {
            let mut bad = pkt.clone();
            bad[pos] ^= 0x01;
            assert_eq!(b.decap(&bad, now).outcome.reason(), Some(reason), "byte {pos}");
        }
        // An index outside the table is a missing key.
        let mut bad = pkt.clone();
        bad[1] = 0x7f;
        assert_eq!(b.decap(&bad, now).outcome.reason(), Some(RejectReason::UnknownKey));
        assert!(b.decap(&pkt, now).outcome.is_accepted());
    }

    #[test]
    fn replayed_stale_and_future_messages_are_rejected() {
        let (_dep, mut a, mut b) = setup();
        let now = Timestamp::from_millis(5_000);
        let pkt = send(&mut a, b"x", now);
        assert!(b.decap(&pkt, now).outcome.is_accepted());
        assert_eq!(
            b.decap(&pkt, now.plus_micros(1_000)).outcome.reason(),
            Some(RejectReason::DuplicateMessage)
        );
        assert_eq!(
            b.decap(&pkt, now.plus_micros(501_000)).outcome.reason(),
            Some(RejectReason::StaleMessage)
        );
        let early = send(&mut a, b"y", now.plus_micros(200_000));
        assert_eq!(b.decap(&early, now).outcome.reason(), Some(RejectReason::FutureMessage));
    }

    #[test]
    fn station_of_another_ca_has_the_wrong_keys() {
        let (_dep, _a, mut b) = setup();
        let (_dep2, mut outsider, _) = setup();
        let now = Timestamp::from_millis(5_000);
        let pkt = send(&mut outsider, b"x", now);
        assert_eq!(b.decap(&pkt, now).outcome.reason(), Some(RejectReason::FalseMac));
    }

    #[test]
    fn insider_can_impersonate_another_pseudonym() {
        // The documented trust assumption: all registered vehicles share the table, so a
        // registered insider (a) forges a message under victim (c)'s PID and it verifies.
        let (mut dep, a, mut b) = setup();
        let c = dep.station(StationId(3), Role::Vehicle).unwrap();
        let victim = c.current_pseudonym();
        let now = Timestamp::from_millis(9_000);
        let forged = encode_v2v(a.key_store(), 17, &victim, b"brake!", now).unwrap();
        match b.decap(&forged, now).outcome {
            DecapOutcome::Accepted(d) => assert_eq!(d.sender, SenderId::Pseudonym(victim.to_vec())),
            other => panic!("{other:?}"),
        }
        // The CA would trace the forgery to the victim, not to the insider.
        let ca = dep.ca();
        assert_eq!(ca.lock().unwrap().trace(&victim), Some(3));
    }

    #[test]
    fn v2i_is_201_bytes_and_revocation_reaches_vehicles() {
        let (mut dep, mut a, mut b) = setup();
        let mut rsu = dep.station(StationId(100), Role::RoadsideUnit).unwrap();
        let now = Timestamp::from_millis(20_000);
        let pkt = send(&mut rsu, b"spat", now);
        assert_eq!(pkt.len(), 201 + 4);
        match b.decap(&pkt, now).outcome {
            DecapOutcome::Accepted(d) => assert!(matches!(d.sender, SenderId::Certificate(_))),
            other => panic!("{other:?}"),
        }
        // A tampered RSU signature fails even though the MAC is fine.
        let mut bad = send(&mut rsu, b"spat", now);
        let last = bad.len() - 1;
        bad[last] ^= 1;
        assert_eq!(b.decap(&bad, now).outcome.reason(), Some(RejectReason::FalseSignature));

        // The CA revokes a's current pseudonym; the RSU announces it on poll.
        let pid = a.current_pseudonym();
        dep.ca().lock().unwrap().revoke_pseudonym(pid);
        let polled = rsu.poll(now);
        assert_eq!(polled.send.len(), 1);
        assert_eq!(
            b.decap(&polled.send[0].bytes, now).outcome,
            DecapOutcome::Control(PacketKind::Revocation)
        );
        assert!(b.knows_revoked(&pid));
        assert!(rsu.poll(now).send.is_empty(), "announced once");
        let msg = send(&mut a, b"still me", now.plus_micros(1_000));
        assert_eq!(
            b.decap(&msg, now.plus_micros(1_000)).outcome.reason(),
            Some(RejectReason::RevokedIdentity)
        );
    }

    #[test]
    fn rsu_certificate_from_another_ca_is_untrusted() {
        let (_dep, _a, mut b) = setup();
        let (mut dep2, _, _) = setup();
        let mut rogue = dep2.station(StationId(100), Role::RoadsideUnit).unwrap();
        let now = Timestamp::from_millis(20_000);
        let pkt = send(&mut rogue, b"x", now);
        assert_eq!(b.decap(&pkt, now).outcome.reason(), Some(RejectReason::UntrustedRoot));
    }

    #[test]
    fn pseudonyms_rotate_after_their_lifetime() {
        let (_dep, mut a, _b) = setup();
        let t0 = Timestamp::from_millis(0);
        send(&mut a, b"x", t0);
        let first = a.current_pseudonym();
        send(&mut a, b"x", t0.plus_micros(59_000_000));
        assert_eq!(a.current_pseudonym(), first);
        send(&mut a, b"x", t0.plus_micros(60_000_000));
        assert_ne!(a.current_pseudonym(), first);
    }

    #[test]
    fn revocation_list_codec_round_trips_and_rejects_garbage() {
        let pids = [[1u8; PID_LEN], [2u8; PID_LEN]];
        assert_eq!(
            decode_revocation_list(&encode_revocation_list(&pids)).unwrap(),
            pids.to_vec()
        );
        assert!(decode_revocation_list(&[0, 5, 1]).is_err());
        assert!(decode_revocation_list(&[0]).is_err());
    }
}
