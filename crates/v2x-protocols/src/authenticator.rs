//! The one interface every protocol offers: encap, decap, poll, describe.
//!
//! Bench, simulator (with real crypto) and testbed drive every protocol through
//! [`Authenticator`] and never look inside one. Time is always passed in ([`Timestamp`],
//! microseconds) so that runs are deterministic and simulated time works.
//!
//! A station is one object playing both roles (sender and receiver): protocols such as
//! TESLA or the session-key schemes keep sender and receiver state that must live
//! together (a handshake reply is produced by the receiving side and consumed by the
//! sending side), and one object keeps callers simple.
//!
//! Packets leave a station as [`OutgoingPacket`]s: `encap` may return several (a TESLA
//! key packet that became due, a handshake step before the data), `decap` may ask for
//! replies (handshake answers), and `poll` returns timer-driven packets (separate TESLA
//! key disclosure). `decap` returns the outcome of the packet it was given *and* any
//! earlier pending packets it released (a TESLA key verifies buffered data packets).

use crate::describe::ProtocolDescription;
use serde::{Deserialize, Serialize};
pub use v2x_security::{Precheck, RejectReason, Rejection};

/// A point in time in microseconds since an epoch the caller chooses (the simulator's
/// start, or TAI 2004-01-01 as in IEEE 1609.2 `Time64`). All stations of one run must
/// use the same epoch; TESLA's loose time synchronisation bound is on top of that.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Timestamp(pub u64);

impl Timestamp {
    pub const fn from_micros(us: u64) -> Timestamp {
        Timestamp(us)
    }
    pub const fn from_millis(ms: u64) -> Timestamp {
        Timestamp(ms.saturating_mul(1000))
    }
    pub const fn as_micros(self) -> u64 {
        self.0
    }
    pub const fn as_millis(self) -> u64 {
        self.0 / 1000
    }
    pub const fn plus_micros(self, us: u64) -> Timestamp {
        Timestamp(self.0.saturating_add(us))
    }
    pub const fn minus_micros(self, us: u64) -> Timestamp {
        Timestamp(self.0.saturating_sub(us))
    }
}

impl std::fmt::Display for Timestamp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}us", self.0)
    }
}

/// The number a deployment gives a station (vehicle or roadside unit). It is a handle
/// for the caller (simulator node, testbed process), not something on the wire unless a
/// protocol's layout says so.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct StationId(pub u32);

impl std::fmt::Display for StationId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "station-{}", self.0)
    }
}

/// Who a receiver believes sent an accepted payload, in the terms the protocol
/// authenticates (never more than it authenticates).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "kind", content = "id", rename_all = "kebab-case")]
pub enum SenderId {
    /// Only a claimed station number (the no-security baseline: nothing is authenticated).
    Claimed(StationId),
    /// A pseudonymous identifier (hash-chain PID, 2FLIP PID), as carried on the wire.
    Pseudonym(#[serde(serialize_with = "hex_bytes")] Vec<u8>),
    /// HashedId8 of the signer's certificate (standard stack, TESLA commitment,
    /// hash-chain RSU, session-key peers).
    Certificate(#[serde(serialize_with = "hex_bytes")] [u8; 8]),
    /// A link-layer style address carried in the header (TESLA paper-004 layout).
    Address(#[serde(serialize_with = "hex_bytes")] Vec<u8>),
}

fn hex_bytes<S: serde::Serializer, B: AsRef<[u8]>>(b: &B, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&hex::encode(b.as_ref()))
}

impl std::fmt::Display for SenderId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SenderId::Claimed(id) => write!(f, "claimed {id}"),
            SenderId::Pseudonym(p) => write!(f, "pseudonym {}", hex::encode(p)),
            SenderId::Certificate(d) => write!(f, "certificate {}", hex::encode(d)),
            SenderId::Address(a) => write!(f, "address {}", hex::encode(a)),
        }
    }
}

/// What a packet is for (lets the simulator and bench tell data from control traffic).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PacketKind {
    /// Carries an application payload (possibly with control data attached, e.g. a key).
    Data,
    /// TESLA key disclosure packet (separate-key mode).
    KeyDisclosure,
    /// Signed bootstrap: TESLA key-chain commitment, hash-chain RSU announcement.
    Commitment,
    /// A step of a pairwise handshake (numbered from 1 as in the paper).
    Handshake(u8),
    /// Group key distribution by a group leader.
    GroupKey,
    /// Revocation notice from a CA/RSU.
    Revocation,
}

/// Where a packet goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Destination {
    Broadcast,
    Unicast(StationId),
}

/// A packet a station wants transmitted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutgoingPacket {
    pub bytes: Vec<u8>,
    pub kind: PacketKind,
    pub destination: Destination,
}

impl OutgoingPacket {
    pub fn broadcast(kind: PacketKind, bytes: Vec<u8>) -> OutgoingPacket {
        OutgoingPacket {
            bytes,
            kind,
            destination: Destination::Broadcast,
        }
    }
}

/// An accepted application payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Delivery {
    pub payload: Vec<u8>,
    pub sender: SenderId,
    /// Generation time the packet claimed, when the protocol carries one.
    pub generated: Option<Timestamp>,
}

/// Handle of a packet held pending; the same id comes back in [`Released`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct PendingId(pub u64);

/// The fate of an earlier pending packet, decided now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Released {
    pub id: PendingId,
    /// When the pending packet was received (for latency accounting).
    pub received_at: Timestamp,
    pub result: Result<Delivery, Rejection>,
}

/// What happened to the packet handed to `decap`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DecapOutcome {
    /// Verified; here is the payload.
    Accepted(Delivery),
    /// Rejected, with the reason.
    Rejected(Rejection),
    /// Held until a later packet (e.g. the TESLA key) decides it; see [`Released`].
    Pending(PendingId),
    /// A valid control packet (key disclosure, commitment, handshake step) that carries
    /// no application payload of its own.
    Control(PacketKind),
}

impl DecapOutcome {
    pub fn is_accepted(&self) -> bool {
        matches!(self, DecapOutcome::Accepted(_))
    }
    /// The rejection reason, if rejected.
    pub fn reason(&self) -> Option<RejectReason> {
        match self {
            DecapOutcome::Rejected(r) => Some(r.reason),
            _ => None,
        }
    }
}

/// Everything `decap` produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decapsulated {
    pub outcome: DecapOutcome,
    /// Earlier pending packets decided by this one (accepted or rejected).
    pub released: Vec<Released>,
    /// Packets to transmit in response (handshake replies).
    pub send: Vec<OutgoingPacket>,
}

impl Decapsulated {
    pub fn outcome(outcome: DecapOutcome) -> Decapsulated {
        Decapsulated {
            outcome,
            released: Vec::new(),
            send: Vec::new(),
        }
    }
    pub fn rejected(reason: RejectReason, detail: impl Into<String>) -> Decapsulated {
        Decapsulated::outcome(DecapOutcome::Rejected(Rejection::new(reason, detail)))
    }
    pub fn accepted(delivery: Delivery) -> Decapsulated {
        Decapsulated::outcome(DecapOutcome::Accepted(delivery))
    }
}

/// The rejection of a packet that does not decode (the decoder's error names the field
/// and its offset).
pub fn malformed(e: v2x_wire::cursor::CursorError) -> Rejection {
    Rejection::new(RejectReason::InvalidEncoding, e.to_string())
}

impl From<Rejection> for Decapsulated {
    fn from(r: Rejection) -> Decapsulated {
        Decapsulated::outcome(DecapOutcome::Rejected(r))
    }
}

/// Everything `poll` produced.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Polled {
    /// Timer-driven packets to transmit now (separate TESLA key packets).
    pub send: Vec<OutgoingPacket>,
    /// Pending packets decided by the passage of time (expired while waiting for a key).
    pub released: Vec<Released>,
}

/// Why a station could not produce a packet (local failures, not rejections).
#[derive(Debug, thiserror::Error)]
pub enum EncapError {
    /// The payload is too long for the protocol's length fields.
    #[error("payload of {len} bytes exceeds the maximum of {max}")]
    PayloadTooLong { len: usize, max: usize },
    /// Keys are exhausted or expired (TESLA chain used up, timestamp outside range).
    #[error("keys exhausted: {0}")]
    KeysExhausted(String),
    /// The station is not in a state to send (not registered, revoked, no peer).
    #[error("cannot send: {0}")]
    NotReady(String),
    /// The crypto backend failed.
    #[error("crypto backend: {0}")]
    Crypto(#[from] v2x_crypto::CryptoError),
    /// A field does not fit the packet layout (e.g. longer than its length prefix).
    #[error("encoding: {0}")]
    Encoding(#[from] v2x_wire::cursor::CursorError),
    /// The IEEE 1609.2 security entity could not secure the payload.
    #[error("IEEE 1609.2 SN-ENCAP: {0}")]
    Dot2(#[from] v2x_security::EncapError),
    /// The TS 103 097 v1.2.1 security entity could not secure the payload.
    #[error("TS 103 097 v1.2.1 SN-ENCAP: {0}")]
    V1(#[from] v2x_security::v1_2_1::V1EncapError),
    /// The experimental post-quantum sender could not secure the payload.
    #[error("experimental post-quantum SN-ENCAP: {0}")]
    ExperimentalPq(#[from] v2x_security::pq::PqEncapError),
}

/// A protocol station. Object-safe and `Send`: callers hold `Box<dyn Authenticator>`.
pub trait Authenticator: Send {
    /// Protocol identifier, as used in processor profiles: `none`, `tesla`,
    /// `tesla-attached`, `hash-chain`, `2flip`, `raya-hubaux`, `wang`, `ieee1609.2`,
    /// `etsi-v1.2.1`, or an experimental post-quantum design's name (`experimental-…`).
    fn name(&self) -> &str;

    /// The deployment's number for this station.
    fn station_id(&self) -> StationId;

    /// Secures `payload` for transmission at `now`. Returns every packet to send, in
    /// order; the data packet is the one of kind [`PacketKind::Data`] (a protocol may
    /// emit control packets first, e.g. a commitment or a handshake step, and may hold
    /// the payload until a handshake completes, in which case no data packet is
    /// returned yet and it comes out of a later `decap`'s `send`).
    fn encap(&mut self, payload: &[u8], now: Timestamp) -> Result<Vec<OutgoingPacket>, EncapError>;

    /// Processes one received packet at `now`.
    fn decap(&mut self, packet: &[u8], now: Timestamp) -> Decapsulated;

    /// What the protocol can tell of a received packet at `now` without verifying it and
    /// without changing any state (IEEE 1609.2: SN-DECAP's steps before the message
    /// signature, `SecurityEntity::precheck`); `None` for protocols that offer no such
    /// check. A receiver uses it to refuse packets before they wait for verification.
    fn precheck(&self, _packet: &[u8], _now: Timestamp) -> Option<Precheck> {
        None
    }

    /// Timer work due at or before `now`: packets to send and pending packets that expired.
    fn poll(&mut self, _now: Timestamp) -> Polled {
        Polled::default()
    }

    /// When `poll` next has work, if ever (lets an event-driven simulator schedule it).
    fn next_poll(&self) -> Option<Timestamp> {
        None
    }

    /// Sizes and costs per message type, for the simulator's models and for reports.
    fn describe(&self) -> ProtocolDescription;
}

/// Convenience for tests and tools: the data packet among `encap`'s output.
pub fn data_packet(packets: &[OutgoingPacket]) -> Option<&OutgoingPacket> {
    packets.iter().find(|p| p.kind == PacketKind::Data)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_object_safe_and_send(_: &dyn Authenticator) {}
    fn assert_send<T: Send>() {}

    #[test]
    fn trait_is_object_safe_and_boxes_are_send() {
        assert_send::<Box<dyn Authenticator>>();
        let _ = assert_object_safe_and_send;
    }

    #[test]
    fn timestamp_arithmetic_saturates() {
        assert_eq!(Timestamp::from_millis(3).as_micros(), 3000);
        assert_eq!(Timestamp(5).minus_micros(10), Timestamp(0));
        assert_eq!(Timestamp(u64::MAX).plus_micros(1), Timestamp(u64::MAX));
    }
}
