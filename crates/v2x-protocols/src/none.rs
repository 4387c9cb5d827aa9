//! The no-security baseline: the same interface, nothing authenticated.
//!
//! Wire layout (all integers big-endian):
//!
//! | bytes | field |
//! |---|---|
//! | 4 | claimed sender station id (only when `claim_sender`, default on) |
//! | rest | payload |
//!
//! The claimed id is there so that callers that need to know who sent (testbed latency
//! accounting) can; it authenticates nothing. With `claim_sender = false` the overhead is
//! zero and deliveries report `Claimed(station 0)`.

use crate::authenticator::{
    malformed, Authenticator, Decapsulated, Delivery, EncapError, OutgoingPacket, PacketKind, SenderId, StationId,
    Timestamp,
};
use crate::describe::{MessageDescription, ProtocolDescription, Schedule};
use crate::setup::{ProtocolDeployment, Role, SetupError};
use serde::{Deserialize, Serialize};
use v2x_wire::cursor::{CursorError, Reader, Writer};

/// Configuration of the baseline.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NoneConfig {
    /// Prefix each packet with the sender's 4-byte station id.
    pub claim_sender: bool,
}

impl Default for NoneConfig {
    fn default() -> Self {
        NoneConfig { claim_sender: true }
    }
}

/// A station that sends payloads as they are.
#[derive(Debug, Clone)]
pub struct NoneStation {
    id: StationId,
    config: NoneConfig,
}

impl NoneStation {
    pub fn new(id: StationId, config: NoneConfig) -> NoneStation {
        NoneStation { id, config }
    }

    fn header_len(&self) -> usize {
        if self.config.claim_sender {
            4
        } else {
            0
        }
    }
}

/// Decoded baseline packet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NonePacket<'a> {
    pub claimed: Option<StationId>,
    pub payload: &'a [u8],
}

/// Parses a baseline packet (`claim_sender` must match the sender's configuration).
pub fn parse(bytes: &[u8], claim_sender: bool) -> Result<NonePacket<'_>, CursorError> {
    let mut r = Reader::new(bytes);
    let claimed = if claim_sender {
        Some(StationId(r.u32("claimed sender")?))
    } else {
        None
    };
    Ok(NonePacket {
        claimed,
        payload: r.rest(),
    })
}

impl Authenticator for NoneStation {
    fn name(&self) -> &str {
        "none"
    }

    fn station_id(&self) -> StationId {
        self.id
    }

    fn encap(&mut self, payload: &[u8], _now: Timestamp) -> Result<Vec<OutgoingPacket>, EncapError> {
        let mut out = Writer::with_capacity(self.header_len() + payload.len());
        if self.config.claim_sender {
            out.u32(self.id.0);
        }
        out.bytes(payload);
        Ok(vec![OutgoingPacket::broadcast(PacketKind::Data, out.into_vec())])
    }

    fn decap(&mut self, packet: &[u8], _now: Timestamp) -> Decapsulated {
        match parse(packet, self.config.claim_sender) {
            Ok(p) => Decapsulated::accepted(Delivery {
                payload: p.payload.to_vec(),
                sender: SenderId::Claimed(p.claimed.unwrap_or(StationId(0))),
                generated: None,
            }),
            Err(e) => malformed(e).into(),
        }
    }

    fn describe(&self) -> ProtocolDescription {
        let reference = crate::describe::REFERENCE_PAYLOAD_LEN;
        ProtocolDescription {
            protocol: "none".into(),
            variant: if self.config.claim_sender {
                "claimed-sender".into()
            } else {
                "bare".into()
            },
            reference_payload_len: reference,
            messages: vec![MessageDescription {
                message: "data".into(),
                overhead_bytes: self.header_len(),
                packet_bytes: self.header_len() + reference,
                overhead_depends_on_payload: false,
                schedule: Schedule::EveryPayload,
                sender_ops: vec![],
                receiver_ops: vec![],
            }],
            delayed_verification: None,
            notes: vec!["nothing is authenticated; the optional 4-byte sender id is only claimed".into()],
        }
    }
}

/// A deployment of the baseline: nothing is shared.
#[derive(Debug, Clone, Default)]
pub struct NoneDeployment {
    config: NoneConfig,
}

impl NoneDeployment {
    pub fn new(config: &NoneConfig) -> NoneDeployment {
        NoneDeployment { config: config.clone() }
    }
}

impl ProtocolDeployment for NoneDeployment {
    fn station(&mut self, id: StationId, _role: Role) -> Result<Box<dyn Authenticator>, SetupError> {
        Ok(Box::new(NoneStation::new(id, self.config.clone())))
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::authenticator::{data_packet, DecapOutcome};
    use crate::RejectReason;

    #[test]
    fn round_trip_with_and_without_claimed_sender() {
        for claim_sender in [true, false] {
            let cfg = NoneConfig { claim_sender };
            let mut a = NoneStation::new(StationId(7), cfg.clone());
            let mut b = NoneStation::new(StationId(8), cfg);
            let out = a.encap(b"hello", Timestamp(0)).unwrap();
            let pkt = data_packet(&out).unwrap();
            assert_eq!(pkt.bytes.len(), 5 + if claim_sender { 4 } else { 0 });
            match b.decap(&pkt.bytes, Timestamp(1)).outcome {
                DecapOutcome::Accepted(d) => {
                    assert_eq!(d.payload, b"hello");
                    let expect = if claim_sender { StationId(7) } else { StationId(0) };
                    assert_eq!(d.sender, SenderId::Claimed(expect));
                }
                other => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn truncated_header_is_invalid_encoding() {
        let mut b = NoneStation::new(StationId(8), NoneConfig::default());
        assert_eq!(
            b.decap(&[1, 2], Timestamp(0)).outcome.reason(),
            Some(RejectReason::InvalidEncoding)
        );
    }
}
