//! The sending half of a hash-chain station: pseudonym rotation, V2V packets (HMAC under
//! a random key index), and for a roadside unit V2I packets (plus its ECDSA signature)
//! and the CA's revocation notices.

use super::authority::HashChainCa;
use super::keys::KeyStore;
use super::wire::{encode_revocation_list, encode_v2i_signed_part, encode_v2v_packet, PID_LEN};
use crate::authenticator::{EncapError, OutgoingPacket, PacketKind, Timestamp};
use crate::cert::Credential;
use crate::freshness;
use rand::Rng;
use rand_chacha::ChaCha20Rng;
use std::sync::{Arc, Mutex};

/// PIDs per revocation notice (what fits a frame); the rest goes out on the next poll.
const REVOCATIONS_PER_NOTICE: usize = 64;

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
    Some(encode_v2v_packet(index, ts, pid, &mac, payload))
}

/// What makes a station a roadside unit.
pub struct RsuState {
    pub credential: Credential,
    pub ca: Arc<Mutex<HashChainCa>>,
    /// How many entries of the CA's revocation list were announced already.
    pub announced_revocations: usize,
}

/// Pseudonyms and key-index choices of a vehicle; RSU credentials for a roadside unit.
pub struct HashChainSender {
    pseudonyms: Vec<[u8; PID_LEN]>,
    current_pid: usize,
    pid_since: Option<Timestamp>,
    pseudonym_lifetime_us: u64,
    rng: ChaCha20Rng,
    rsu: Option<RsuState>,
}

impl HashChainSender {
    pub fn new(
        pseudonyms: Vec<[u8; PID_LEN]>,
        pseudonym_lifetime_ms: u64,
        rng: ChaCha20Rng,
        rsu: Option<RsuState>,
    ) -> HashChainSender {
        HashChainSender {
            pseudonyms,
            current_pid: 0,
            pid_since: None,
            pseudonym_lifetime_us: pseudonym_lifetime_ms.saturating_mul(1000),
            rng,
            rsu,
        }
    }

    pub fn is_roadside_unit(&self) -> bool {
        self.rsu.is_some()
    }

    /// The PID this vehicle currently sends under.
    pub fn current_pseudonym(&self) -> [u8; PID_LEN] {
        self.pseudonyms.get(self.current_pid).copied().unwrap_or([0; PID_LEN])
    }

    fn rotate_pseudonym(&mut self, now: Timestamp) {
        match self.pid_since {
            None => self.pid_since = Some(now),
            Some(since) if now.as_micros().saturating_sub(since.as_micros()) >= self.pseudonym_lifetime_us => {
                self.current_pid = (self.current_pid + 1) % self.pseudonyms.len().max(1);
                self.pid_since = Some(now);
            }
            Some(_) => {}
        }
    }

    /// A V2V packet under the current pseudonym and a random key index.
    pub fn v2v(&mut self, store: &KeyStore, payload: &[u8], now: Timestamp) -> Result<Vec<u8>, EncapError> {
        self.rotate_pseudonym(now);
        let pid = self.current_pseudonym();
        let index = self.random_index(store)?;
        encode_v2v(store, index, &pid, payload, now).ok_or_else(|| EncapError::KeysExhausted("empty key table".into()))
    }

    /// A signed V2I packet (roadside units only).
    pub fn v2i(
        &mut self,
        store: &KeyStore,
        payload: &[u8],
        revocation: bool,
        now: Timestamp,
    ) -> Result<Vec<u8>, EncapError> {
        let index = self.random_index(store)?;
        let Some(rsu) = &self.rsu else {
            return Err(EncapError::NotReady("only a roadside unit sends V2I packets".into()));
        };
        let ts = freshness::ts32(now);
        let certificate = &rsu.credential.certificate;
        let mac = store
            .mac(index, &certificate.digest(), payload, ts)
            .ok_or_else(|| EncapError::KeysExhausted("empty key table".into()))?;
        let mut w = encode_v2i_signed_part(index, revocation, ts, certificate.encoded(), &mac, payload);
        let sig = rsu.credential.sign(w.as_slice())?;
        w.bytes(&sig);
        Ok(w.into_vec())
    }

    fn random_index(&mut self, store: &KeyStore) -> Result<u32, EncapError> {
        if store.is_empty() {
            return Err(EncapError::KeysExhausted("empty key table".into()));
        }
        Ok(self.rng.gen_range(0..store.len()))
    }

    /// A signed revocation notice carrying `pids` (normally sent by `poll`).
    pub fn revocation_notice(
        &mut self,
        store: &KeyStore,
        pids: &[[u8; PID_LEN]],
        now: Timestamp,
    ) -> Result<OutgoingPacket, EncapError> {
        let body = encode_revocation_list(pids);
        Ok(OutgoingPacket::broadcast(
            PacketKind::Revocation,
            self.v2i(store, &body, true, now)?,
        ))
    }

    /// A roadside unit's notice of the revocations the CA made since its last one.
    pub fn due_revocations(&mut self, store: &KeyStore, now: Timestamp) -> Option<OutgoingPacket> {
        let rsu = self.rsu.as_ref()?;
        let chunk: Vec<_> = {
            let ca = rsu.ca.lock().unwrap_or_else(|e| e.into_inner());
            let list = ca.revocation_list();
            list.get(rsu.announced_revocations..)?
                .iter()
                .take(REVOCATIONS_PER_NOTICE)
                .copied()
                .collect()
        };
        if chunk.is_empty() {
            return None;
        }
        // A notice that cannot be signed now is tried again at the next poll.
        let notice = self.revocation_notice(store, &chunk, now).ok()?;
        if let Some(rsu) = &mut self.rsu {
            rsu.announced_revocations += chunk.len();
        }
        Some(notice)
    }
}
