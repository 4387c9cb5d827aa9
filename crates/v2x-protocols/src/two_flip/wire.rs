//! The 2FLIP packet (big-endian; 47 bytes of overhead):
//!
//! | bytes | field |
//! |---|---|
//! | 3 | epoch e of the system key |
//! | 20 | masked driver identity `DID ⊕ H(k_tr ‖ e ‖ Ts)` |
//! | 20 | σ = HMAC-SHA1(K, PID ‖ Ts ‖ H(m)) |
//! | 4 | Ts: milliseconds mod 2^32 |
//! | rest | m |

use v2x_wire::cursor::{CursorError, Reader, Writer};

/// Bytes of a pseudo-identity: 3-byte epoch and the 20-byte masked driver identity.
pub const PID_LEN: usize = 23;
/// Bytes of σ.
pub const SIGMA_LEN: usize = 20;
/// Security header bytes.
pub const OVERHEAD: usize = PID_LEN + SIGMA_LEN + 4;

/// A decoded 2FLIP packet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TwoFlipPacket<'a> {
    pub epoch: u32,
    pub pid: &'a [u8],
    pub sigma: [u8; SIGMA_LEN],
    pub ts: u32,
    pub payload: &'a [u8],
}

pub fn parse(bytes: &[u8]) -> Result<TwoFlipPacket<'_>, CursorError> {
    let mut r = Reader::new(bytes);
    let pid = r.take(PID_LEN, "PID")?;
    let sigma = r.array::<SIGMA_LEN>("sigma")?;
    let ts = r.u32("timestamp")?;
    let epoch = pid.iter().take(3).fold(0u32, |a, b| (a << 8) | u32::from(*b));
    Ok(TwoFlipPacket {
        epoch,
        pid,
        sigma,
        ts,
        payload: r.rest(),
    })
}

/// The packet: the TPD's header (PID ‖ σ ‖ Ts) and the payload.
pub fn encode(header: &[u8; OVERHEAD], payload: &[u8]) -> Vec<u8> {
    let mut w = Writer::with_capacity(OVERHEAD + payload.len());
    w.bytes(header).bytes(payload);
    w.into_vec()
}
