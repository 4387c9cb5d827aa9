//! Packet layouts of the hash-chain protocol (big-endian). The paper's Figure 6 orders the V2V header (PID, Sig,
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

use crate::cert::{self, CompactCertificate};
use v2x_crypto::Curve;
use v2x_wire::cursor::{CursorError, Reader, Writer};

/// Bytes of a pseudo-identity.
pub const PID_LEN: usize = 20;
/// Bytes of the truncated HMAC.
pub const MAC_LEN: usize = 12;
/// V2V security header bytes.
pub const V2V_OVERHEAD: usize = 4 + 4 + PID_LEN + MAC_LEN;
/// Bit 31 of the index word: a V2I packet follows.
pub const V2I_FLAG: u32 = 1 << 31;
/// Bit 30 of the index word (V2I only): the payload is a revocation notice.
pub const REVOCATION_FLAG: u32 = 1 << 30;
/// The key-index bits of the index word (so at most 2^30 keys).
pub const INDEX_MASK: u32 = REVOCATION_FLAG - 1;

/// V2I security overhead with an RSU certificate on `curve`.
pub const fn v2i_overhead(curve: Curve) -> usize {
    4 + 4 + cert::certificate_len(curve) + MAC_LEN + cert::signature_len(curve)
}

/// A decoded V2V packet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct V2vPacket<'a> {
    pub index: u32,
    pub ts: u32,
    pub pid: [u8; PID_LEN],
    pub mac: [u8; MAC_LEN],
    pub payload: &'a [u8],
}

/// A decoded V2I packet (the signature covers `signed`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct V2iPacket<'a> {
    pub index: u32,
    pub revocation: bool,
    pub ts: u32,
    pub certificate: CompactCertificate,
    pub mac: [u8; MAC_LEN],
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
pub fn parse(bytes: &[u8], rsu_curve: Curve) -> Result<HashChainPacket<'_>, CursorError> {
    let mut r = Reader::new(bytes);
    let word = r.u32("key index")?;
    let ts = r.u32("timestamp")?;
    if word & V2I_FLAG == 0 {
        if word & REVOCATION_FLAG != 0 {
            return Err(Reader::invalid_at("key index", 0, "revocation flag on a V2V packet"));
        }
        let pid = r.array::<PID_LEN>("pseudo-identity")?;
        let mac = r.array::<MAC_LEN>("MAC")?;
        return Ok(HashChainPacket::V2v(V2vPacket {
            index: word,
            ts,
            pid,
            mac,
            payload: r.rest(),
        }));
    }
    let certificate = CompactCertificate::read(rsu_curve, &mut r)?;
    let mac = r.array::<MAC_LEN>("MAC")?;
    let sig_len = cert::signature_len(rsu_curve);
    let payload_len = r
        .remaining()
        .checked_sub(sig_len)
        .ok_or_else(|| r.truncated("signature", sig_len))?;
    let payload = r.take(payload_len, "payload")?;
    let signed_len = r.offset();
    let signature = r.take(sig_len, "signature")?;
    Ok(HashChainPacket::V2i(V2iPacket {
        index: word & INDEX_MASK,
        revocation: word & REVOCATION_FLAG != 0,
        ts,
        certificate,
        mac,
        payload,
        signed: &bytes[..signed_len],
        signature,
    }))
}

/// A V2V packet from its fields.
pub fn encode_v2v_packet(index: u32, ts: u32, pid: &[u8; PID_LEN], mac: &[u8; MAC_LEN], payload: &[u8]) -> Vec<u8> {
    let mut w = Writer::with_capacity(V2V_OVERHEAD + payload.len());
    w.u32(index & INDEX_MASK).u32(ts).bytes(pid).bytes(mac).bytes(payload);
    w.into_vec()
}

/// A V2I packet up to (not including) its signature, which covers exactly these bytes.
pub fn encode_v2i_signed_part(
    index: u32,
    revocation: bool,
    ts: u32,
    certificate: &[u8],
    mac: &[u8; MAC_LEN],
    payload: &[u8],
) -> Writer {
    let word = V2I_FLAG | if revocation { REVOCATION_FLAG } else { 0 } | (index & INDEX_MASK);
    let mut w = Writer::with_capacity(8 + certificate.len() + MAC_LEN + payload.len() + 96);
    w.u32(word).u32(ts).bytes(certificate).bytes(mac).bytes(payload);
    w
}

/// Encodes a revocation notice body (at most 65 535 PIDs; the rest is left out).
pub fn encode_revocation_list(pids: &[[u8; PID_LEN]]) -> Vec<u8> {
    let n = pids.len().min(u16::MAX as usize);
    let mut w = Writer::with_capacity(2 + n * PID_LEN);
    w.u16(n as u16);
    for p in &pids[..n] {
        w.bytes(p);
    }
    w.into_vec()
}

/// Decodes a revocation notice body.
pub fn decode_revocation_list(bytes: &[u8]) -> Result<Vec<[u8; PID_LEN]>, CursorError> {
    let mut r = Reader::new(bytes);
    let n = r.u16("revocation count")?;
    let mut out = Vec::with_capacity(usize::from(n).min(bytes.len() / PID_LEN));
    for _ in 0..n {
        out.push(r.array::<PID_LEN>("revoked pseudo-identity")?);
    }
    r.finish("revocation list")?;
    Ok(out)
}
