//! TESLA packet layouts (all integers big-endian; `[..]` only when the mode uses it).
//!
//! Paper 004 (`layout = "paper004"`): HMAC-SHA1, 10-byte MACs and 80-bit keys (Hu & Laberteaux, paper 004 ref. 3).
//!
//! | packet | fields | bytes |
//! |---|---|---|
//! | data | type 1 ‖ sender address 6 ‖ interval 4 ‖ [key K_{i-d} 10] ‖ MAC 10 ‖ payload | 21 (+10) |
//! | key | type 1 ‖ sender address 6 ‖ interval j 4 ‖ K_j 10 | 21 |
//! | commitment (1609.2) | type 1 ‖ Ieee1609Dot2Data signed, payload = address 6 ‖ T0 8 ‖ T 4 ‖ d 1 ‖ N 4 ‖ K_0 10 | measured |
//! | commitment (compact) | type 1 ‖ address 6 ‖ T0 8 ‖ T 4 ‖ d 1 ‖ N 4 ‖ K_0 10 ‖ certificate 117 ‖ signature 64 | 215 |
//!
//! The sender address stands for the 802.11 source address (the first 6 bytes of the
//! sender's certificate digest, i.e. a pseudonymous MAC address); we carry it in the
//! security header because `decap` sees no link layer. Paper 004's frame sizes include
//! PHY/MAC framing; with the 802.11 header (24) + FCS (4) less the source address we
//! carry (6) = 22 bytes and a 39-byte BSM Part I (1-byte DSRC message id + the 38-byte
//! `BSMblob` of SAE J2735-2009) they come out exactly: data 22 + 21 + 39 = **82**,
//! attached 82 + 10 = **92**, key packet 22 + 21 = **43**. This is our reconstruction;
//! the paper gives only the totals.
//!
//! Paper 001 (`layout = "paper001"`): equation 6, `Cert.Digest ‖ MAC_{k_i}(m ‖ Ts) ‖ m ‖
//! Ts ‖ k_{i-1} ‖ sig(m, k_{i-1}, Ts)` = 8 + 32 + 6 + 32 + 64 = **142** bytes: HMAC-SHA256
//! with 32-byte MACs and keys, a 6-byte timestamp (milliseconds) instead of an interval
//! index, the key always attached, and an ECDSA P-256 signature on every packet. We check
//! that signature on arrival and the MAC when the key arrives, accepting only when both
//! hold — the per-packet cost paper 001 reports (ECDSA + MAC + the key wait). There is no
//! type byte; a commitment starts with 8 zero bytes (a digest no certificate has).
//!
//! | packet | fields | bytes |
//! |---|---|---|
//! | data | certificate digest 8 ‖ Ts 6 ‖ K_{i-d} 32 ‖ MAC 32 ‖ signature 64 ‖ payload | 142 |
//! | commitment | zeros 8 ‖ (1609.2 signed data with body, or body ‖ certificate 117 ‖ signature 64) | body 57 |

use super::chain::ChainParams;
use super::config::{Bootstrap, Format, TeslaLayout};
use crate::authenticator::EncapError;
use crate::cert::{self, CompactCertificate};
use v2x_wire::cursor::{CursorError, Reader, Writer};

const TYPE_COMMITMENT: u8 = 0;
const TYPE_DATA: u8 = 1;
const TYPE_DATA_WITH_KEY: u8 = 2;
const TYPE_KEY: u8 = 3;
/// Paper 001 has no type byte: a commitment starts with a digest no certificate has.
const PAPER001_COMMITMENT_MARKER: [u8; 8] = [0; 8];
/// 802.11 MAC header (24) + FCS (4) minus the 6-byte source address the paper-004
/// layout carries itself: the framing to add to reproduce paper 004's frame sizes.
pub const PAPER004_LINK_FRAMING: usize = 22;
/// Paper 004's safety message body as we reconstruct it (see the module docs).
pub const PAPER004_BSM_LEN: usize = 39;

/// A decoded TESLA packet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TeslaPacket<'a> {
    /// Compact bootstrap: body, certificate, signature.
    Commitment(Commitment<'a>),
    /// 1609.2 bootstrap: a signed Ieee1609Dot2Data whose payload is the body.
    SignedCommitment(&'a [u8]),
    Data(DataPacket<'a>),
    Key(KeyPacket<'a>),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Commitment<'a> {
    pub sender: &'a [u8],
    pub params: ChainParams,
    pub k0: &'a [u8],
    pub certificate: CompactCertificate,
    pub signed: &'a [u8],
    pub signature: &'a [u8],
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataPacket<'a> {
    pub sender: &'a [u8],
    /// Interval index (paper 004) or timestamp in ms (paper 001).
    pub time: u64,
    pub disclosed_key: Option<&'a [u8]>,
    pub mac: &'a [u8],
    pub signature: Option<&'a [u8]>,
    pub payload: &'a [u8],
    /// Bytes the MAC covers: the packet without the MAC and signature fields.
    pub mac_input: Vec<u8>,
    /// Bytes the signature covers: the packet without the signature field.
    pub signed_input: Vec<u8>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyPacket<'a> {
    pub sender: &'a [u8],
    pub interval: u32,
    pub key: &'a [u8],
}

/// The commitment body: sender, chain parameters, K0.
fn read_commitment_body<'a>(f: &Format, r: &mut Reader<'a>) -> Result<(&'a [u8], ChainParams, &'a [u8]), CursorError> {
    let at = r.offset();
    let sender = r.take(f.sender_len(), "sender")?;
    let t0_us = r.u64("T0")?;
    let interval_us = u64::from(r.u32("interval length")?);
    let disclosure_delay = u32::from(r.u8("disclosure delay")?);
    let chain_length = r.u32("chain length")?;
    if interval_us == 0 || disclosure_delay == 0 || chain_length == 0 {
        return Err(Reader::invalid_at("commitment", at, "zero interval, delay or length"));
    }
    let k0 = r.take(f.key_len, "K0")?;
    Ok((
        sender,
        ChainParams {
            t0_us,
            interval_us,
            disclosure_delay,
            chain_length,
        },
        k0,
    ))
}

/// Parses a commitment body that must fill `bytes` exactly.
pub fn parse_commitment_body_exact<'a>(
    f: &Format,
    bytes: &'a [u8],
) -> Result<(&'a [u8], ChainParams, &'a [u8]), CursorError> {
    let mut r = Reader::new(bytes);
    let out = read_commitment_body(f, &mut r)?;
    r.finish("commitment body")?;
    Ok(out)
}

fn read_commitment<'a>(f: &Format, r: &mut Reader<'a>, start: &'a [u8]) -> Result<TeslaPacket<'a>, CursorError> {
    if f.bootstrap == Bootstrap::Ieee1609Dot2 {
        if r.is_empty() {
            return Err(r.truncated("1609.2 commitment", 1));
        }
        return Ok(TeslaPacket::SignedCommitment(r.rest()));
    }
    let (sender, params, k0) = read_commitment_body(f, r)?;
    let certificate = CompactCertificate::read(f.curve, r)?;
    let signed_len = r.offset();
    let signature = r.take(cert::signature_len(f.curve), "signature")?;
    r.finish("commitment")?;
    Ok(TeslaPacket::Commitment(Commitment {
        sender,
        params,
        k0,
        certificate,
        signed: &start[..signed_len],
        signature,
    }))
}

/// Parses a packet of the configured format.
pub fn parse<'a>(f: &Format, bytes: &'a [u8]) -> Result<TeslaPacket<'a>, CursorError> {
    let mut r = Reader::new(bytes);
    let (attached, is_key) = match f.layout {
        TeslaLayout::Paper004 => match r.u8("type")? {
            TYPE_COMMITMENT => return read_commitment(f, &mut r, bytes),
            TYPE_DATA => (false, false),
            TYPE_DATA_WITH_KEY => (true, false),
            TYPE_KEY => (false, true),
            other => return Err(Reader::unknown_at("type", 0, u64::from(other))),
        },
        TeslaLayout::Paper001 => {
            if r.peek_rest().starts_with(&PAPER001_COMMITMENT_MARKER) {
                r.take(PAPER001_COMMITMENT_MARKER.len(), "commitment marker")?;
                return read_commitment(f, &mut r, bytes);
            }
            (true, false)
        }
    };
    let sender = r.take(f.sender_len(), "sender")?;
    if is_key {
        let interval = r.u32("key interval")?;
        let key = r.take(f.key_len, "key")?;
        r.finish("key packet")?;
        return Ok(TeslaPacket::Key(KeyPacket { sender, interval, key }));
    }
    let time = r.uint(f.time_len(), "time")?;
    let disclosed_key = if attached {
        Some(r.take(f.key_len, "disclosed key")?)
    } else {
        None
    };
    let head = &bytes[..r.offset()];
    let mac = r.take(f.mac_len, "MAC")?;
    let signature = match f.signature_len() {
        0 => None,
        n => Some(r.take(n, "signature")?),
    };
    let payload = r.rest();
    Ok(TeslaPacket::Data(DataPacket {
        sender,
        time,
        disclosed_key,
        mac,
        signature,
        payload,
        mac_input: mac_input(head, payload),
        signed_input: signed_input(head, mac, payload),
    }))
}

/// What starts a commitment packet: the type byte (paper 004) or the zero digest
/// (paper 001).
pub fn commitment_lead(f: &Format) -> &'static [u8] {
    match f.layout {
        TeslaLayout::Paper004 => &[TYPE_COMMITMENT],
        TeslaLayout::Paper001 => &PAPER001_COMMITMENT_MARKER,
    }
}

/// The commitment body: sender ‖ T0 8 ‖ T 4 ‖ d 1 ‖ N 4 ‖ K_0.
pub fn encode_commitment_body(sender: &[u8], params: &ChainParams, k0: &[u8]) -> Result<Vec<u8>, EncapError> {
    let interval = u32::try_from(params.interval_us)
        .map_err(|_| EncapError::NotReady("interval_us does not fit 32 bits".into()))?;
    let d = u8::try_from(params.disclosure_delay)
        .map_err(|_| EncapError::NotReady("disclosure delay does not fit 8 bits".into()))?;
    let mut w = Writer::with_capacity(sender.len() + 17 + k0.len());
    w.bytes(sender)
        .u64(params.t0_us)
        .u32(interval)
        .u8(d)
        .u32(params.chain_length)
        .bytes(k0);
    Ok(w.into_vec())
}

/// A separate key packet disclosing K_j (paper 004 only).
pub fn encode_key_packet(f: &Format, sender: &[u8], j: u32, key: &[u8]) -> Vec<u8> {
    let mut w = Writer::with_capacity(f.key_packet_len());
    w.u8(TYPE_KEY).bytes(sender).u32(j).bytes(key);
    w.into_vec()
}

/// The fields of a data packet before its MAC: (type) ‖ sender ‖ time ‖ (disclosed key).
pub fn data_head(f: &Format, sender: &[u8], time: u64, disclosed_key: Option<&[u8]>) -> Vec<u8> {
    let mut w = Writer::with_capacity(f.data_overhead());
    if f.layout == TeslaLayout::Paper004 {
        w.u8(if f.attached { TYPE_DATA_WITH_KEY } else { TYPE_DATA });
    }
    w.bytes(sender).uint(time, f.time_len());
    if let Some(k) = disclosed_key {
        w.bytes(k);
    }
    w.into_vec()
}

/// What the MAC covers: the head and the payload.
pub fn mac_input(head: &[u8], payload: &[u8]) -> Vec<u8> {
    [head, payload].concat()
}

/// What the paper-001 signature covers: everything but the signature.
pub fn signed_input(head: &[u8], mac: &[u8], payload: &[u8]) -> Vec<u8> {
    [head, mac, payload].concat()
}

/// A data packet: head ‖ MAC ‖ (signature) ‖ payload.
pub fn encode_data(head: &[u8], mac: &[u8], signature: Option<&[u8]>, payload: &[u8]) -> Vec<u8> {
    [head, mac, signature.unwrap_or_default(), payload].concat()
}
