//! A station of a session-key scheme behind the [`Authenticator`] interface: it
//! dispatches received messages by type to the pairwise handshake, the group key
//! distribution and the data checks.

use super::config::{SessionConfig, Topology};
use super::credentials::{Identity, Trust};
use super::crypto::SessionCert;
use super::group::Groups;
use super::handshake::Sessions;
use super::wire::{DataHeader, DATA, GROUP, H1, H2, H3};
use crate::authenticator::{
    malformed, Authenticator, Decapsulated, Delivery, EncapError, OutgoingPacket, StationId, Timestamp,
};
use crate::describe::{ProtocolDescription, SharedDescription};
use crate::setup::Role;
use crate::{RejectReason, Rejection};

/// A station of a session-key scheme.
pub struct SessionStation {
    identity: Identity,
    role: Role,
    config: SessionConfig,
    trust: Trust,
    /// Where pairwise traffic goes.
    peer: Option<StationId>,
    sessions: Sessions,
    groups: Groups,
    description: SharedDescription,
}

impl SessionStation {
    pub fn new(
        identity: Identity,
        role: Role,
        config: &SessionConfig,
        trust: Trust,
        description: SharedDescription,
    ) -> SessionStation {
        SessionStation {
            identity,
            role,
            config: config.clone(),
            trust,
            peer: None,
            sessions: Sessions::new(config),
            groups: Groups::new(config),
            description,
        }
    }

    /// Sets the station pairwise traffic goes to.
    pub fn connect(&mut self, peer: StationId) {
        self.peer = Some(peer);
    }

    pub fn certificate(&self) -> &SessionCert {
        &self.identity.cert
    }

    /// True once a session with `peer` is ready for data.
    pub fn has_session_with(&self, peer: StationId) -> bool {
        self.sessions.has_session_with(peer.0)
    }

    fn on_data(&mut self, packet: &[u8], now: Timestamp) -> Result<Delivery, Rejection> {
        let h = DataHeader::parse(packet).map_err(malformed)?;
        if self.groups.contains(&h.id) {
            self.groups.on_data(&self.identity, &self.trust, &h, packet, now)
        } else {
            self.sessions.on_data(&h, packet, now)
        }
    }
}

/// Deliveries name the sender by the digest of the certificate authenticated in the
/// handshake (pairwise) or of the group leader's certificate (group).
impl Authenticator for SessionStation {
    fn name(&self) -> &str {
        self.config.protocol_name()
    }

    fn station_id(&self) -> StationId {
        StationId(self.identity.id)
    }

    fn encap(&mut self, payload: &[u8], now: Timestamp) -> Result<Vec<OutgoingPacket>, EncapError> {
        if self.config.topology == Topology::Group {
            if self.role != Role::GroupLeader {
                return Err(EncapError::NotReady("only the group leader sends in group mode".into()));
            }
            return self.groups.send(&self.identity, &self.trust, payload, now);
        }
        let peer = self
            .peer
            .ok_or_else(|| EncapError::NotReady("no peer: call connect() first".into()))?;
        self.sessions.send(&self.identity, peer.0, payload, now)
    }

    fn decap(&mut self, packet: &[u8], now: Timestamp) -> Decapsulated {
        let me = &self.identity;
        let result = match packet.first() {
            Some(&H1) => self.sessions.on_hello(me, &mut self.trust, packet, now),
            Some(&H2) => self.sessions.on_reply(me, &mut self.trust, packet, now),
            Some(&H3) => self.sessions.on_confirm(me, &self.trust, packet, now),
            Some(&GROUP) => self.groups.on_group_key(me, &mut self.trust, packet, now),
            Some(&DATA) => self.on_data(packet, now).map(Decapsulated::accepted),
            Some(t) => Err(Rejection::new(
                RejectReason::InvalidEncoding,
                format!("unknown message type {t:#04x}"),
            )),
            None => Err(Rejection::new(RejectReason::InvalidEncoding, "empty packet")),
        };
        result.unwrap_or_else(Decapsulated::from)
    }

    fn describe(&self) -> ProtocolDescription {
        self.description.get()
    }
}
