//! The application payload every testbed message carries, as PRESERVE's did (paper 002
//! §2.2.2): a counter that maps each packet between sender and receiver logs, and the
//! sender's generation time, from which the receiver computes end-to-end latency.
//!
//! Layout (big-endian), padded with zeros to the configured payload length (default
//! 89 bytes, the size of PRESERVE's CAM without security header, §4.1.3):
//!
//! | bytes | field |
//! |---|---|
//! | 4 | magic `V2XT` |
//! | 1 | layout version (1) |
//! | 1 | message kind: 1 CAM, 2 DENM |
//! | 2 | reserved (0) |
//! | 4 | origin station number |
//! | 8 | counter (per origin station, from 0) |
//! | 8 | generation time, TAI µs |

use serde::{Deserialize, Serialize};

/// Bytes of the header; shorter payloads are refused.
pub const HEADER_LEN: usize = 28;
/// PRESERVE's CAM size without security header (paper 002 §4.1.3: 89 bytes).
pub const DEFAULT_PAYLOAD_LEN: usize = 89;
const MAGIC: &[u8; 4] = b"V2XT";
const VERSION: u8 = 1;
/// Offset of the counter inside the payload (attackers rewrite it after signing).
pub const COUNTER_OFFSET: usize = 12;

/// What kind of facility message the payload stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum MessageKind {
    #[default]
    Cam,
    Denm,
}

impl MessageKind {
    pub fn name(self) -> &'static str {
        match self {
            MessageKind::Cam => "cam",
            MessageKind::Denm => "denm",
        }
    }

    fn code(self) -> u8 {
        match self {
            MessageKind::Cam => 1,
            MessageKind::Denm => 2,
        }
    }
}

/// The fields of a testbed payload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Payload {
    pub kind: MessageKind,
    pub origin: u32,
    pub counter: u64,
    pub generated_us: u64,
}

/// Why bytes are not a testbed payload.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PayloadError {
    #[error("payload of {0} bytes is shorter than the {HEADER_LEN}-byte testbed header")]
    TooShort(usize),
    #[error("not a testbed payload (magic or version)")]
    NotTestbed,
    #[error("unknown message kind {0}")]
    UnknownKind(u8),
}

impl Payload {
    /// The encoded payload, zero-padded to `len` bytes (at least [`HEADER_LEN`]).
    pub fn encode(&self, len: usize) -> Vec<u8> {
        let mut out = Vec::with_capacity(len.max(HEADER_LEN));
        out.extend_from_slice(MAGIC);
        out.push(VERSION);
        out.push(self.kind.code());
        out.extend_from_slice(&[0, 0]);
        out.extend_from_slice(&self.origin.to_be_bytes());
        out.extend_from_slice(&self.counter.to_be_bytes());
        out.extend_from_slice(&self.generated_us.to_be_bytes());
        out.resize(len.max(HEADER_LEN), 0);
        out
    }

    /// Reads the header of a payload (padding is ignored).
    pub fn decode(bytes: &[u8]) -> Result<Payload, PayloadError> {
        if bytes.len() < HEADER_LEN {
            return Err(PayloadError::TooShort(bytes.len()));
        }
        if &bytes[..4] != MAGIC || bytes[4] != VERSION {
            return Err(PayloadError::NotTestbed);
        }
        let kind = match bytes[5] {
            1 => MessageKind::Cam,
            2 => MessageKind::Denm,
            k => return Err(PayloadError::UnknownKind(k)),
        };
        let u32_at = |o: usize| u32::from_be_bytes([bytes[o], bytes[o + 1], bytes[o + 2], bytes[o + 3]]);
        let u64_at = |o: usize| (u64::from(u32_at(o)) << 32) | u64::from(u32_at(o + 4));
        Ok(Payload {
            kind,
            origin: u32_at(8),
            counter: u64_at(COUNTER_OFFSET),
            generated_us: u64_at(20),
        })
    }

    /// Where this payload's header sits inside `packet` (a secured message carries the
    /// payload as one contiguous field in every protocol of the factory), if it does.
    pub fn find_in(&self, packet: &[u8]) -> Option<usize> {
        let needle = &self.encode(HEADER_LEN)[..HEADER_LEN];
        packet.windows(HEADER_LEN).position(|w| w == needle)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_padding_and_errors() {
        let p = Payload {
            kind: MessageKind::Denm,
            origin: 7,
            counter: 0x0102_0304_0506_0708,
            generated_us: 123_456_789,
        };
        let b = p.encode(DEFAULT_PAYLOAD_LEN);
        assert_eq!(b.len(), DEFAULT_PAYLOAD_LEN);
        assert_eq!(Payload::decode(&b).unwrap(), p);
        assert_eq!(p.encode(3).len(), HEADER_LEN, "never shorter than the header");
        assert_eq!(Payload::decode(&b[..10]), Err(PayloadError::TooShort(10)));
        let mut bad = b.clone();
        bad[0] = b'X';
        assert_eq!(Payload::decode(&bad), Err(PayloadError::NotTestbed));
        bad = b.clone();
        bad[5] = 9;
        assert_eq!(Payload::decode(&bad), Err(PayloadError::UnknownKind(9)));
        let mut packet = vec![0xaa; 17];
        packet.extend_from_slice(&b);
        packet.extend_from_slice(&[1, 2, 3]);
        assert_eq!(p.find_in(&packet), Some(17));
        assert_eq!(
            &packet[17 + COUNTER_OFFSET..17 + COUNTER_OFFSET + 8],
            &p.counter.to_be_bytes()
        );
    }
}
