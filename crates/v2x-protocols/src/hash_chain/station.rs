//! A hash-chain station (vehicle or roadside unit): the key store and the two halves,
//! behind the [`Authenticator`] interface.

use super::authority::{HashChainCa, Registration};
use super::config::HashChainConfig;
use super::describe::describe;
use super::keys::KeyStore;
use super::receiver::HashChainReceiver;
use super::sender::{HashChainSender, RsuState};
use super::wire::PID_LEN;
use crate::authenticator::{
    Authenticator, Decapsulated, EncapError, OutgoingPacket, PacketKind, Polled, StationId, Timestamp,
};
use crate::cert::TrustAnchor;
use crate::describe::ProtocolDescription;
use crate::setup::SetupError;
use std::sync::{Arc, Mutex};

/// A station (vehicle or roadside unit) of the hash-chain protocol.
pub struct HashChainStation {
    id: StationId,
    config: HashChainConfig,
    store: KeyStore,
    sender: HashChainSender,
    receiver: HashChainReceiver,
}

impl HashChainStation {
    /// A vehicle registered with the CA.
    pub fn vehicle(
        id: StationId,
        config: HashChainConfig,
        registration: Registration,
        anchor: TrustAnchor,
    ) -> HashChainStation {
        HashChainStation::new(id, config, registration, anchor, None)
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
        let rsu = RsuState {
            credential,
            ca,
            announced_revocations: 0,
        };
        Ok(HashChainStation::new(id, config, registration, anchor, Some(rsu)))
    }

    fn new(
        id: StationId,
        config: HashChainConfig,
        registration: Registration,
        anchor: TrustAnchor,
        rsu: Option<RsuState>,
    ) -> HashChainStation {
        let store = KeyStore::from_seed(&registration.seed, config.chain_length);
        let rng = crate::rng::station_rng(config.rng_seed, u64::from(id.0));
        let sender = HashChainSender::new(registration.pseudonyms, config.pseudonym_lifetime_ms, rng, rsu);
        let receiver = HashChainReceiver::new(&config, anchor);
        HashChainStation {
            id,
            config,
            store,
            sender,
            receiver,
        }
    }

    /// The PID this vehicle currently sends under.
    pub fn current_pseudonym(&self) -> [u8; PID_LEN] {
        self.sender.current_pseudonym()
    }

    /// The key store (for tests and tools that build packets by hand).
    pub fn key_store(&self) -> &KeyStore {
        &self.store
    }

    /// Whether this station has learnt that `pid` is revoked.
    pub fn knows_revoked(&self, pid: &[u8; PID_LEN]) -> bool {
        self.receiver.knows_revoked(pid)
    }

    /// A signed revocation notice carrying `pids` (normally sent by `poll`).
    pub fn revocation_notice(&mut self, pids: &[[u8; PID_LEN]], now: Timestamp) -> Result<OutgoingPacket, EncapError> {
        self.sender.revocation_notice(&self.store, pids, now)
    }
}

impl Authenticator for HashChainStation {
    fn name(&self) -> &str {
        "hash-chain"
    }

    fn station_id(&self) -> StationId {
        self.id
    }

    /// Vehicles send V2V packets, roadside units V2I packets.
    fn encap(&mut self, payload: &[u8], now: Timestamp) -> Result<Vec<OutgoingPacket>, EncapError> {
        let bytes = if self.sender.is_roadside_unit() {
            self.sender.v2i(&self.store, payload, false, now)?
        } else {
            self.sender.v2v(&self.store, payload, now)?
        };
        Ok(vec![OutgoingPacket::broadcast(PacketKind::Data, bytes)])
    }

    fn decap(&mut self, packet: &[u8], now: Timestamp) -> Decapsulated {
        Decapsulated::outcome(self.receiver.decap(&self.store, packet, now))
    }

    /// A roadside unit announces revocations the CA made since its last announcement.
    fn poll(&mut self, now: Timestamp) -> Polled {
        Polled {
            send: self.sender.due_revocations(&self.store, now).into_iter().collect(),
            released: Vec::new(),
        }
    }

    fn describe(&self) -> ProtocolDescription {
        describe(&self.config)
    }
}
