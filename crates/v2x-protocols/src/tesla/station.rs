//! A TESLA station: sender of its own chain, receiver of everyone else's, behind the
//! [`Authenticator`] interface.

use super::bootstrap::TeslaSigner;
use super::config::TeslaConfig;
use super::receiver::TeslaReceiver;
use super::sender::TeslaSender;
use crate::authenticator::{Authenticator, Decapsulated, EncapError, OutgoingPacket, Polled, StationId, Timestamp};
use crate::describe::{ProtocolDescription, SharedDescription};

/// A TESLA station.
pub struct TeslaStation {
    id: StationId,
    config: TeslaConfig,
    /// Signs this station's commitments and checks everyone else's.
    pub(super) signer: TeslaSigner,
    sender: TeslaSender,
    receiver: TeslaReceiver,
    description: SharedDescription,
}

impl TeslaStation {
    /// A station signing with `signer`; `description` is its deployment's.
    pub fn new(
        id: StationId,
        config: TeslaConfig,
        signer: TeslaSigner,
        description: SharedDescription,
    ) -> TeslaStation {
        TeslaStation {
            id,
            sender: TeslaSender::new(&config, signer.digest()),
            receiver: TeslaReceiver::new(&config),
            config,
            signer,
            description,
        }
    }

    /// Packets currently buffered, all senders.
    pub fn pending_count(&self) -> usize {
        self.receiver.pending_count()
    }
}

impl Authenticator for TeslaStation {
    fn name(&self) -> &str {
        self.config.protocol_name()
    }

    fn station_id(&self) -> StationId {
        self.id
    }

    fn encap(&mut self, payload: &[u8], now: Timestamp) -> Result<Vec<OutgoingPacket>, EncapError> {
        self.sender.encap(&mut self.signer, payload, now)
    }

    fn decap(&mut self, packet: &[u8], now: Timestamp) -> Decapsulated {
        self.receiver.decap(&mut self.signer, packet, now)
    }

    fn poll(&mut self, now: Timestamp) -> Polled {
        Polled {
            send: self.sender.due_keys(now),
            released: self.receiver.expire(now),
        }
    }

    /// The next key disclosure due (separate mode) or pending packet expiring, whichever
    /// comes first.
    fn next_poll(&self) -> Option<Timestamp> {
        match (self.sender.next_key_due(), self.receiver.next_expiry()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn describe(&self) -> ProtocolDescription {
        self.description.get()
    }
}
