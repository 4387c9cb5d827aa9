//! TESLA broadcast authentication (Perrig et al.; as used for VANETs by Hu & Laberteaux,
//! simulated in paper 004 §IV-A and measured in paper 001 §8).
//!
//! **Key chain.** The sender draws `K_N` at random and computes `K_{i-1} = F(K_i)` down to
//! the commitment `K_0`, where `F(x)` is the layout's hash (SHA-1 or SHA-256) truncated to
//! the key length. Time is cut into intervals of `interval_us` from `T0`; interval `i`
//! (1-based) covers `[T0 + (i-1)·T, T0 + i·T)`. Packets of interval `i` carry
//! `MAC_{K'_i}` with `K'_i = HMAC(K_i, "TESLA MAC key")` truncated (the separate MAC-key
//! PRF of standard TESLA), and `K_i` is disclosed `d` intervals later — in a separate key
//! packet at the start of interval `i + d`, or attached to the sender's next data packet
//! ("TESLA attached": a packet of interval `i` carries `K_{i-d}`).
//!
//! **Bootstrap.** The commitment (`T0`, `T`, `d`, `N`, `K_0`) travels in a signed packet.
//! By default (`bootstrap = "ieee1609-dot2"`) it is the payload of an IEEE 1609.2 signed
//! message made by the standard stack (`v2x-security` SN-ENCAP, generic profile, PSID
//! [`crate::dot2::PSID_TESLA_COMMITMENT`], signer = full certificate) and checked by
//! SN-DECAP with the whole chain, validity, permissions and revocation; with
//! `bootstrap = "compact"` it carries our compact ECDSA certificate ([`crate::cert`]) and
//! a raw signature instead. The sender field must equal the signing certificate's digest
//! (its first 6 bytes for paper 004). It is sent before the first data packet and again
//! every `commitment_period_us` so late receivers can join; a new chain (after `N`
//! intervals) gets a new commitment. Paper-001 per-packet signatures use the same
//! certificate's key.
//!
//! **Receiving.** Loose time synchronisation: receivers know their clock is within
//! `max_clock_offset_us` of the sender's. The *safe-packet test*: a packet of interval
//! `i` received at local time `t` is accepted for buffering only if the sender cannot yet
//! have disclosed `K_i`, i.e. `interval(t + max_clock_offset) < i + d`, and no key of
//! interval `>= i` is already known; otherwise it is rejected (`key-already-disclosed`),
//! which also stops replays. Safe packets wait in a bounded buffer (per sender and in
//! total; `pending-buffer-full` when full, `pending-expired` after `max_hold_us`). A
//! disclosed key `K_j` is authenticated by hashing it back to the latest authenticated key
//! (`F^{j-a}(K_j) = K_a`), and then verifies every buffered packet of interval `<= j`,
//! deriving `K_i = F^{j-i}(K_j)`: a lost key packet is made up by any later key.
//!
//! **Layouts** (all integers big-endian; `[..]` only when the mode uses it):
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

use crate::authenticator::{
    Authenticator, DecapOutcome, Decapsulated, Delivery, EncapError, OutgoingPacket, PacketKind, PendingId, Polled,
    Released, SenderId, StationId, Timestamp,
};
use crate::cert::{self, CompactCa, CompactCertificate, Credential, TrustAnchor};
use crate::describe::{
    CryptoOp, CurveName, DelayedVerification, MessageDescription, OpCount, ProtocolDescription, Schedule,
};
use crate::dot2::{Clock, Dot2Pki, TimeBase};
use crate::factory::{Role, SetupError};
use crate::wire::{put_uint, Reader, WireError};
use crate::{RejectReason, Rejection};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, VecDeque};
use v2x_crypto::{hmac_sha1, hmac_sha256, sha256, Curve};
use v2x_security::{Credentials, EncapRequest, ProfileKind, SecurityEntity};

const TYPE_COMMITMENT: u8 = 0;
const TYPE_DATA: u8 = 1;
const TYPE_DATA_WITH_KEY: u8 = 2;
const TYPE_KEY: u8 = 3;
const MAC_KEY_LABEL: &[u8] = b"TESLA MAC key";
/// 802.11 MAC header (24) + FCS (4) minus the 6-byte source address the paper-004
/// layout carries itself: the framing to add to reproduce paper 004's frame sizes.
pub const PAPER004_LINK_FRAMING: usize = 22;
/// Paper 004's safety message body as we reconstruct it (see the module docs).
pub const PAPER004_BSM_LEN: usize = 39;

/// Which paper's packet layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TeslaLayout {
    /// HMAC-SHA1, 10-byte MAC and keys, 6-byte address, 4-byte interval, type byte.
    #[default]
    Paper004,
    /// HMAC-SHA256, 32-byte MAC and keys, certificate digest, 6-byte timestamp,
    /// per-packet ECDSA signature, key attached.
    Paper001,
}

/// How disclosed keys travel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum KeyDisclosure {
    /// In separate key packets at the start of interval `i + d`.
    #[default]
    Separate,
    /// On the sender's next data packet.
    Attached,
}

/// Parameters of TESLA.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TeslaConfig {
    pub layout: TeslaLayout,
    pub key_disclosure: KeyDisclosure,
    /// Override the layout's MAC length (bytes, at most the hash length).
    pub mac_len: Option<usize>,
    /// Override the layout's key length (bytes, at most the hash length).
    pub key_len: Option<usize>,
    /// Interval length T in microseconds.
    pub interval_us: u64,
    /// Disclosure delay d in intervals (>= 1).
    pub disclosure_delay: u32,
    /// Intervals per key chain N; a new chain and commitment follow.
    pub chain_length: u32,
    /// Bound on the clock difference between any two stations (loose time sync), µs.
    pub max_clock_offset_us: u64,
    /// Packets a receiver buffers per sender while waiting for keys.
    pub max_pending_per_sender: usize,
    /// Packets a receiver buffers in total.
    pub max_pending_total: usize,
    /// Longest a packet waits for its key before it is dropped, µs (paper 004: 1 s).
    pub max_hold_us: u64,
    /// How often the signed commitment is repeated, µs.
    pub commitment_period_us: u64,
    /// Curve of certificates and signatures (commitments; paper-001 packets).
    pub curve: Curve,
    /// Who signs commitments: the standard stack (1609.2 SN-ENCAP, default) or the
    /// compact certificate of [`crate::cert`].
    pub bootstrap: Bootstrap,
    /// PSID of 1609.2-signed commitments.
    pub commitment_psid: u64,
    /// Clock mapping for the 1609.2 bootstrap.
    pub time_base: TimeBase,
}

/// How the chain commitment is signed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Bootstrap {
    /// An IEEE 1609.2 signed message (v2x-security SN-ENCAP, generic profile, signer =
    /// certificate) whose payload is the commitment body.
    #[default]
    Ieee1609Dot2,
    /// Our compact certificate and a raw ECDSA signature.
    Compact,
}

impl Default for TeslaConfig {
    fn default() -> Self {
        TeslaConfig {
            layout: TeslaLayout::Paper004,
            key_disclosure: KeyDisclosure::Separate,
            mac_len: None,
            key_len: None,
            interval_us: 100_000,
            disclosure_delay: 1,
            chain_length: 6_000,
            max_clock_offset_us: 5_000,
            max_pending_per_sender: 64,
            max_pending_total: 8_192,
            max_hold_us: 1_000_000,
            commitment_period_us: 1_000_000,
            curve: Curve::NistP256,
            bootstrap: Bootstrap::Ieee1609Dot2,
            commitment_psid: crate::dot2::PSID_TESLA_COMMITMENT,
            time_base: TimeBase::DeploymentStart,
        }
    }
}

impl TeslaConfig {
    /// Paper 004's layout with separate or attached keys.
    pub fn paper004(disclosure: KeyDisclosure) -> TeslaConfig {
        TeslaConfig {
            key_disclosure: disclosure,
            ..TeslaConfig::default()
        }
    }

    /// Paper 001's layout (key attached, signed packets).
    pub fn paper001() -> TeslaConfig {
        TeslaConfig {
            layout: TeslaLayout::Paper001,
            key_disclosure: KeyDisclosure::Attached,
            ..TeslaConfig::default()
        }
    }

    /// The layout with overrides applied.
    pub fn format(&self) -> Format {
        let (hash_len, mac_len, key_len) = match self.layout {
            TeslaLayout::Paper004 => (20, 10, 10),
            TeslaLayout::Paper001 => (32, 32, 32),
        };
        Format {
            layout: self.layout,
            attached: self.key_disclosure == KeyDisclosure::Attached,
            hash_len,
            mac_len: self.mac_len.unwrap_or(mac_len),
            key_len: self.key_len.unwrap_or(key_len),
            curve: self.curve,
            bootstrap: self.bootstrap,
        }
    }

    pub fn validate(&self) -> Result<(), SetupError> {
        let f = self.format();
        let bad = |m: &str| Err(SetupError::InvalidConfig(m.to_string()));
        if f.mac_len == 0 || f.mac_len > f.hash_len || f.key_len < 8 || f.key_len > f.hash_len {
            return bad("mac_len must be 1..=hash length and key_len 8..=hash length");
        }
        if self.layout == TeslaLayout::Paper001 && !f.attached {
            return bad("the paper-001 layout always attaches the key (key_disclosure = \"attached\")");
        }
        if self.interval_us == 0 || self.disclosure_delay == 0 || self.chain_length == 0 {
            return bad("interval_us, disclosure_delay and chain_length must be positive");
        }
        if self.max_pending_per_sender == 0 || self.max_pending_total == 0 {
            return bad("pending buffers must hold at least one packet");
        }
        Ok(())
    }

    /// Profile name: `tesla` or `tesla-attached`.
    pub fn protocol_name(&self) -> &'static str {
        match self.key_disclosure {
            KeyDisclosure::Separate => "tesla",
            KeyDisclosure::Attached => "tesla-attached",
        }
    }
}

/// Field sizes of a configured layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Format {
    pub layout: TeslaLayout,
    pub attached: bool,
    /// Output length of the layout's hash (20 SHA-1, 32 SHA-256).
    pub hash_len: usize,
    pub mac_len: usize,
    pub key_len: usize,
    pub curve: Curve,
    pub bootstrap: Bootstrap,
}

impl Format {
    fn sender_len(&self) -> usize {
        match self.layout {
            TeslaLayout::Paper004 => 6,
            TeslaLayout::Paper001 => 8,
        }
    }

    fn time_len(&self) -> usize {
        match self.layout {
            TeslaLayout::Paper004 => 4,
            TeslaLayout::Paper001 => 6,
        }
    }

    fn type_len(&self) -> usize {
        match self.layout {
            TeslaLayout::Paper004 => 1,
            TeslaLayout::Paper001 => 0,
        }
    }

    fn signature_len(&self) -> usize {
        match self.layout {
            TeslaLayout::Paper004 => 0,
            TeslaLayout::Paper001 => cert::signature_len(self.curve),
        }
    }

    /// Security overhead of a data packet.
    pub fn data_overhead(&self) -> usize {
        self.type_len()
            + self.sender_len()
            + self.time_len()
            + if self.attached { self.key_len } else { 0 }
            + self.mac_len
            + self.signature_len()
    }

    /// Bytes of a separate key packet.
    pub fn key_packet_len(&self) -> usize {
        self.type_len() + self.sender_len() + 4 + self.key_len
    }

    /// Bytes of the commitment body (what the signature protects besides the certificate).
    pub fn commitment_body_len(&self) -> usize {
        self.sender_len() + 8 + 4 + 1 + 4 + self.key_len
    }

    /// Bytes of a commitment packet with the compact bootstrap.
    pub fn commitment_len(&self) -> usize {
        let lead = match self.layout {
            TeslaLayout::Paper004 => 1,
            TeslaLayout::Paper001 => 8,
        };
        lead + self.sender_len()
            + 8
            + 4
            + 1
            + 4
            + self.key_len
            + cert::certificate_len(self.curve)
            + cert::signature_len(self.curve)
    }

    /// F: one step down the chain.
    fn f(&self, key: &[u8]) -> Vec<u8> {
        let mut out = match self.layout {
            TeslaLayout::Paper004 => sha1_digest(key).to_vec(),
            TeslaLayout::Paper001 => sha256(key).to_vec(),
        };
        out.truncate(self.key_len);
        out
    }

    /// F applied `steps` times.
    fn f_n(&self, key: &[u8], steps: u32) -> Vec<u8> {
        let mut k = key.to_vec();
        for _ in 0..steps {
            k = self.f(&k);
        }
        k
    }

    fn hmac(&self, key: &[u8], data: &[u8]) -> Vec<u8> {
        match self.layout {
            TeslaLayout::Paper004 => hmac_sha1(key, data).to_vec(),
            TeslaLayout::Paper001 => hmac_sha256(key, data).to_vec(),
        }
    }

    /// K' = F'(K), the MAC key of an interval.
    fn mac_key(&self, key: &[u8]) -> Vec<u8> {
        let mut k = self.hmac(key, MAC_KEY_LABEL);
        k.truncate(self.key_len);
        k
    }

    fn mac(&self, mac_key: &[u8], data: &[u8]) -> Vec<u8> {
        let mut m = self.hmac(mac_key, data);
        m.truncate(self.mac_len);
        m
    }
}

fn sha1_digest(data: &[u8]) -> [u8; 20] {
    use sha1::Digest as _;
    sha1::Sha1::digest(data).into()
}

/// Chain timing announced in a commitment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChainParams {
    /// Start of interval 1, µs.
    pub t0_us: u64,
    pub interval_us: u64,
    pub disclosure_delay: u32,
    pub chain_length: u32,
}

impl ChainParams {
    /// Interval of sender time `t` (0 before T0).
    pub fn interval_of(&self, t: Timestamp) -> u64 {
        match t.as_micros().checked_sub(self.t0_us) {
            Some(dt) => dt / self.interval_us.max(1) + 1,
            None => 0,
        }
    }

    /// Start of interval `i`.
    pub fn interval_start(&self, i: u64) -> Timestamp {
        Timestamp(
            self.t0_us
                .saturating_add(i.saturating_sub(1).saturating_mul(self.interval_us)),
        )
    }
}

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
fn parse_commitment_body<'a>(f: &Format, r: &mut Reader<'a>) -> Result<(&'a [u8], ChainParams, &'a [u8]), WireError> {
    let sender = r.take(f.sender_len(), "sender")?;
    let t0_us = r.u64("T0")?;
    let interval_us = u64::from(r.u32("interval length")?);
    let disclosure_delay = u32::from(r.u8("disclosure delay")?);
    let chain_length = r.u32("chain length")?;
    if interval_us == 0 || disclosure_delay == 0 || chain_length == 0 {
        return Err(WireError::Invalid {
            field: "commitment",
            message: "zero interval, delay or length".into(),
        });
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
) -> Result<(&'a [u8], ChainParams, &'a [u8]), WireError> {
    let mut r = Reader::new(bytes);
    let out = parse_commitment_body(f, &mut r)?;
    r.finish()?;
    Ok(out)
}

fn parse_commitment<'a>(f: &Format, r: &mut Reader<'a>, start: &'a [u8]) -> Result<TeslaPacket<'a>, WireError> {
    if f.bootstrap == Bootstrap::Ieee1609Dot2 {
        let rest = r.rest();
        if rest.is_empty() {
            return Err(WireError::Truncated {
                field: "1609.2 commitment",
                needed: 1,
                available: 0,
            });
        }
        return Ok(TeslaPacket::SignedCommitment(rest));
    }
    let (sender, params, k0) = parse_commitment_body(f, r)?;
    let certificate = CompactCertificate::decode(f.curve, r.take(cert::certificate_len(f.curve), "certificate")?)?;
    let signed_len = start.len() - r.remaining();
    let signature = r.take(cert::signature_len(f.curve), "signature")?;
    r.finish()?;
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
pub fn parse<'a>(f: &Format, bytes: &'a [u8]) -> Result<TeslaPacket<'a>, WireError> {
    let mut r = Reader::new(bytes);
    let (attached, is_key) = match f.layout {
        TeslaLayout::Paper004 => match r.u8("type")? {
            TYPE_COMMITMENT => return parse_commitment(f, &mut r, bytes),
            TYPE_DATA => (false, false),
            TYPE_DATA_WITH_KEY => (true, false),
            TYPE_KEY => (false, true),
            other => {
                return Err(WireError::UnknownValue {
                    field: "type",
                    value: u64::from(other),
                })
            }
        },
        TeslaLayout::Paper001 => {
            if bytes.len() >= 8 && bytes[..8] == [0u8; 8] {
                r.take(8, "commitment marker")?;
                return parse_commitment(f, &mut r, bytes);
            }
            (true, false)
        }
    };
    let sender = r.take(f.sender_len(), "sender")?;
    if is_key {
        let interval = r.u32("key interval")?;
        let key = r.take(f.key_len, "key")?;
        r.finish()?;
        return Ok(TeslaPacket::Key(KeyPacket { sender, interval, key }));
    }
    let time = r.uint(f.time_len(), "time")?;
    let disclosed_key = if attached {
        Some(r.take(f.key_len, "disclosed key")?)
    } else {
        None
    };
    let head_len = bytes.len() - r.remaining();
    let mac = r.take(f.mac_len, "MAC")?;
    let signature = match f.signature_len() {
        0 => None,
        n => Some(r.take(n, "signature")?),
    };
    let payload = r.rest();
    let mut mac_input = bytes[..head_len].to_vec();
    mac_input.extend_from_slice(payload);
    let mut signed_input = bytes[..head_len + f.mac_len].to_vec();
    signed_input.extend_from_slice(payload);
    Ok(TeslaPacket::Data(DataPacket {
        sender,
        time,
        disclosed_key,
        mac,
        signature,
        payload,
        mac_input,
        signed_input,
    }))
}

/// The sender's current chain.
struct Chain {
    params: ChainParams,
    /// keys[i] = K_i, i = 0..=N.
    keys: Vec<Vec<u8>>,
    /// Intervals in which data was sent and whose key is not yet disclosed (separate mode).
    undisclosed: VecDeque<u64>,
    last_commitment: Option<Timestamp>,
}

struct PendingPacket {
    id: PendingId,
    interval: u64,
    received_at: Timestamp,
    mac_input: Vec<u8>,
    mac: Vec<u8>,
    payload: Vec<u8>,
    generated: Timestamp,
}

/// What a receiver knows about one sender.
struct Peer {
    params: ChainParams,
    sender_id: SenderId,
    public: v2x_crypto::PublicKey,
    /// Latest authenticated key (interval, key).
    latest: (u64, Vec<u8>),
    pending: VecDeque<PendingPacket>,
}

/// Who signs (and checks) commitments, and signs paper-001 packets.
pub enum TeslaSigner {
    /// Compact certificate and the CA anchor.
    Compact {
        credential: Credential,
        anchor: TrustAnchor,
    },
    /// The standard stack's security entity with its ticket.
    Ieee1609Dot2 {
        entity: Box<SecurityEntity>,
        ticket: Credentials,
        clock: Clock,
        psid: u64,
    },
}

impl TeslaSigner {
    /// HashedId8 of the signing certificate.
    fn digest(&self) -> [u8; 8] {
        match self {
            TeslaSigner::Compact { credential, .. } => credential.certificate.digest(),
            TeslaSigner::Ieee1609Dot2 { ticket, .. } => ticket.certificate.hashed_id8().0,
        }
    }

    /// Raw ECDSA signature (r ‖ s) with the certificate's key.
    fn sign(&self, data: &[u8]) -> Result<Vec<u8>, EncapError> {
        Ok(match self {
            TeslaSigner::Compact { credential, .. } => credential.sign(data)?,
            TeslaSigner::Ieee1609Dot2 { ticket, .. } => cert::sign(&ticket.signing_key, data)?,
        })
    }
}

/// A TESLA station: sender of its own chain, receiver of everyone else's.
pub struct TeslaStation {
    id: StationId,
    config: TeslaConfig,
    format: Format,
    signer: TeslaSigner,
    sender_field: Vec<u8>,
    chain: Option<Chain>,
    peers: HashMap<Vec<u8>, Peer>,
    pending_total: usize,
    next_pending: u64,
}

impl TeslaStation {
    pub fn new(id: StationId, config: TeslaConfig, signer: TeslaSigner) -> TeslaStation {
        let format = config.format();
        let digest = signer.digest();
        let sender_field = digest[..format.sender_len()].to_vec();
        TeslaStation {
            id,
            config,
            format,
            signer,
            sender_field,
            chain: None,
            peers: HashMap::new(),
            pending_total: 0,
            next_pending: 0,
        }
    }

    /// Packets currently buffered, all senders.
    pub fn pending_count(&self) -> usize {
        self.pending_total
    }

    /// The sender time packets carry: paper 001's timestamp has millisecond resolution,
    /// so intervals are computed from the truncated time on both sides.
    fn effective_time(&self, now: Timestamp) -> Timestamp {
        match self.format.layout {
            TeslaLayout::Paper004 => now,
            TeslaLayout::Paper001 => Timestamp::from_millis(now.as_millis()),
        }
    }

    fn new_chain(&self, now: Timestamp) -> Chain {
        let n = self.config.chain_length;
        let mut keys = vec![Vec::new(); n as usize + 1];
        let mut k = v2x_crypto::random_bytes(self.format.key_len);
        for i in (0..=n as usize).rev() {
            let next = self.format.f(&k);
            if let Some(slot) = keys.get_mut(i) {
                *slot = std::mem::replace(&mut k, next);
            }
        }
        let params = ChainParams {
            t0_us: self.effective_time(now).as_micros(),
            interval_us: self.config.interval_us,
            disclosure_delay: self.config.disclosure_delay,
            chain_length: n,
        };
        Chain {
            params,
            keys,
            undisclosed: VecDeque::new(),
            last_commitment: None,
        }
    }

    fn commitment_packet(&mut self, chain: &Chain, now: Timestamp) -> Result<OutgoingPacket, EncapError> {
        let f = self.format;
        let mut body = Vec::with_capacity(f.commitment_body_len());
        body.extend_from_slice(&self.sender_field);
        body.extend_from_slice(&chain.params.t0_us.to_be_bytes());
        let interval = u32::try_from(chain.params.interval_us)
            .map_err(|_| EncapError::NotReady("interval_us does not fit 32 bits".into()))?;
        body.extend_from_slice(&interval.to_be_bytes());
        let d = u8::try_from(chain.params.disclosure_delay)
            .map_err(|_| EncapError::NotReady("disclosure delay does not fit 8 bits".into()))?;
        body.push(d);
        body.extend_from_slice(&chain.params.chain_length.to_be_bytes());
        body.extend_from_slice(chain.keys.first().map(Vec::as_slice).unwrap_or_default());
        let mut out = Vec::with_capacity(f.commitment_len());
        match f.layout {
            TeslaLayout::Paper004 => out.push(TYPE_COMMITMENT),
            TeslaLayout::Paper001 => out.extend_from_slice(&[0u8; 8]),
        }
        match &mut self.signer {
            TeslaSigner::Compact { credential, .. } => {
                out.extend_from_slice(&body);
                out.extend_from_slice(credential.certificate.encoded());
                let sig = credential.sign(&out)?;
                out.extend_from_slice(&sig);
            }
            TeslaSigner::Ieee1609Dot2 {
                entity, clock, psid, ..
            } => {
                let req = EncapRequest::new(ProfileKind::Generic, &body)
                    .with_psid(*psid)
                    .at(clock.to_tai(now));
                let signed = entity.encap(&req).map_err(|e| EncapError::Crypto(e.to_string()))?;
                out.extend_from_slice(&signed.bytes);
            }
        }
        Ok(OutgoingPacket::broadcast(PacketKind::Commitment, out))
    }

    fn key_packet(&self, chain: &Chain, j: u64) -> Option<OutgoingPacket> {
        let key = chain.keys.get(j as usize)?;
        let mut out = Vec::with_capacity(self.format.key_packet_len());
        out.push(TYPE_KEY);
        out.extend_from_slice(&self.sender_field);
        out.extend_from_slice(&u32::try_from(j).ok()?.to_be_bytes());
        out.extend_from_slice(key);
        Some(OutgoingPacket::broadcast(PacketKind::KeyDisclosure, out))
    }

    /// Separate-mode key packets due at `now`.
    fn due_keys(&mut self, now: Timestamp) -> Vec<OutgoingPacket> {
        let Some(chain) = &mut self.chain else {
            return Vec::new();
        };
        let current = chain.params.interval_of(now);
        let d = u64::from(chain.params.disclosure_delay);
        let mut due = Vec::new();
        while let Some(&j) = chain.undisclosed.front() {
            if j + d > current {
                break;
            }
            due.push(j);
            chain.undisclosed.pop_front();
        }
        match &self.chain {
            Some(chain) => due.into_iter().filter_map(|j| self.key_packet(chain, j)).collect(),
            None => Vec::new(),
        }
    }

    fn data_packet(&self, chain: &Chain, i: u64, payload: &[u8], now: Timestamp) -> Result<Vec<u8>, EncapError> {
        let f = &self.format;
        let mut out = Vec::with_capacity(f.data_overhead() + payload.len());
        if f.layout == TeslaLayout::Paper004 {
            out.push(if f.attached { TYPE_DATA_WITH_KEY } else { TYPE_DATA });
        }
        out.extend_from_slice(&self.sender_field);
        match f.layout {
            TeslaLayout::Paper004 => out.extend_from_slice(&(i as u32).to_be_bytes()),
            TeslaLayout::Paper001 => put_uint(&mut out, now.as_millis(), 6),
        }
        if f.attached {
            let j = i.saturating_sub(u64::from(chain.params.disclosure_delay));
            out.extend_from_slice(chain.keys.get(j as usize).map(Vec::as_slice).unwrap_or_default());
        }
        let head_len = out.len();
        let key = chain
            .keys
            .get(i as usize)
            .ok_or_else(|| EncapError::KeysExhausted(format!("interval {i}")))?;
        let mut mac_input = out.clone();
        mac_input.extend_from_slice(payload);
        let mac = f.mac(&f.mac_key(key), &mac_input);
        out.extend_from_slice(&mac);
        if f.signature_len() > 0 {
            let mut signed = out.clone();
            signed.extend_from_slice(payload);
            out.extend_from_slice(&self.signer.sign(&signed)?);
        }
        debug_assert_eq!(out.len() - head_len, f.mac_len + f.signature_len());
        out.extend_from_slice(payload);
        Ok(out)
    }

    fn next_id(&mut self) -> PendingId {
        self.next_pending += 1;
        PendingId(self.next_pending)
    }

    fn expire(&mut self, now: Timestamp) -> Vec<Released> {
        let hold = self.config.max_hold_us;
        let mut released = Vec::new();
        for peer in self.peers.values_mut() {
            peer.pending.retain(|p| {
                if p.received_at.plus_micros(hold) < now {
                    released.push(Released {
                        id: p.id,
                        received_at: p.received_at,
                        result: Err(Rejection::new(
                            RejectReason::PendingExpired,
                            format!("no key for interval {}", p.interval),
                        )),
                    });
                    false
                } else {
                    true
                }
            });
        }
        self.pending_total -= released.len().min(self.pending_total);
        released
    }

    fn on_commitment(
        &mut self,
        c: Commitment<'_>,
        now: Timestamp,
        released: &mut Vec<Released>,
    ) -> Result<DecapOutcome, Rejection> {
        let TeslaSigner::Compact { anchor, .. } = &self.signer else {
            return Err(Rejection::new(
                RejectReason::IncompatibleProtocol,
                "compact commitment, 1609.2 expected",
            ));
        };
        c.certificate.verify(anchor, now)?;
        if !cert::verify(&c.certificate.public, c.signed, c.signature) {
            return Err(Rejection::new(
                RejectReason::FalseSignature,
                "commitment signature does not verify",
            ));
        }
        let public = c.certificate.public.clone();
        self.install_peer(c.sender, c.params, c.k0, c.certificate.digest(), public, released)
    }

    fn on_signed_commitment(
        &mut self,
        bytes: &[u8],
        now: Timestamp,
        released: &mut Vec<Released>,
    ) -> Result<DecapOutcome, Rejection> {
        let TeslaSigner::Ieee1609Dot2 {
            entity, clock, psid, ..
        } = &mut self.signer
        else {
            return Err(Rejection::new(
                RejectReason::IncompatibleProtocol,
                "1609.2 commitment, compact expected",
            ));
        };
        let d = entity.decap_at(bytes, clock.to_tai(now))?;
        if d.psid != Some((*psid).into()) {
            return Err(Rejection::new(
                RejectReason::PsidNotPermitted,
                "not a TESLA commitment PSID",
            ));
        }
        let signer = d
            .signer
            .ok_or_else(|| Rejection::new(RejectReason::UnsignedMessage, "commitment is not signed"))?;
        let (sender, params, k0) = parse_commitment_body_exact(&self.format, &d.payload)
            .map_err(|e| Rejection::new(RejectReason::InvalidEncoding, e.to_string()))?;
        let public = signer.verification_key().clone();
        self.install_peer(sender, params, k0, signer.hashed_id8().0, public, released)
    }

    /// Records (or replaces) `sender`'s chain after its commitment was authenticated by
    /// the certificate with HashedId8 `digest`.
    fn install_peer(
        &mut self,
        sender: &[u8],
        params: ChainParams,
        k0: &[u8],
        digest: [u8; 8],
        public: v2x_crypto::PublicKey,
        released: &mut Vec<Released>,
    ) -> Result<DecapOutcome, Rejection> {
        if sender != &digest[..sender.len().min(8)] {
            return Err(Rejection::new(
                RejectReason::InvalidCertificate,
                "sender field does not match the certificate",
            ));
        }
        if k0.len() != self.format.key_len {
            return Err(Rejection::new(RejectReason::InvalidEncoding, "K0 length"));
        }
        let sender_id = match self.format.layout {
            TeslaLayout::Paper004 => SenderId::Address(sender.to_vec()),
            TeslaLayout::Paper001 => SenderId::Certificate(digest),
        };
        match self.peers.get(sender) {
            Some(p) if p.params.t0_us > params.t0_us => {
                return Err(Rejection::new(
                    RejectReason::StaleMessage,
                    "commitment older than the chain in use",
                ))
            }
            Some(p) if p.params == params && p.public == public => {
                return Ok(DecapOutcome::Control(PacketKind::Commitment))
            }
            _ => {}
        }
        // A new chain replaces the old one; packets still waiting for old keys never verify.
        if let Some(old) = self.peers.get_mut(sender) {
            let n = old.pending.len();
            released.extend(old.pending.drain(..).map(|p| Released {
                id: p.id,
                received_at: p.received_at,
                result: Err(Rejection::new(
                    RejectReason::PendingExpired,
                    "sender started a new key chain",
                )),
            }));
            self.pending_total -= n.min(self.pending_total);
        }
        self.peers.insert(
            sender.to_vec(),
            Peer {
                params,
                sender_id,
                public,
                latest: (0, k0.to_vec()),
                pending: VecDeque::new(),
            },
        );
        Ok(DecapOutcome::Control(PacketKind::Commitment))
    }

    /// Authenticates `key` as K_j of `sender`'s chain and releases what it verifies.
    fn on_key(
        &mut self,
        sender: &[u8],
        j: u64,
        key: &[u8],
        now: Timestamp,
        released: &mut Vec<Released>,
    ) -> Result<(), Rejection> {
        let f = self.format;
        let offset = self.config.max_clock_offset_us;
        let peer = self
            .peers
            .get_mut(sender)
            .ok_or_else(|| Rejection::new(RejectReason::UnknownSender, "no commitment from this sender"))?;
        if j > u64::from(peer.params.chain_length) {
            return Err(Rejection::new(
                RejectReason::InvalidKey,
                format!("interval {j} beyond the chain"),
            ));
        }
        // K_j is disclosed at the start of interval j + d: a key from the future is forged
        // (checked before hashing, so forged far-ahead keys cost nothing).
        let sender_now = peer.params.interval_of(now.plus_micros(offset));
        if j + u64::from(peer.params.disclosure_delay) > sender_now {
            return Err(Rejection::new(
                RejectReason::InvalidKey,
                format!("key of interval {j} cannot be disclosed before interval {}", j + 1),
            ));
        }
        let (a, ref ka) = peer.latest;
        if j <= a {
            // Already known (or older): nothing new to authenticate or release.
            return Ok(());
        }
        let steps = (j - a) as u32;
        if f.f_n(key, steps) != *ka {
            return Err(Rejection::new(
                RejectReason::InvalidKey,
                format!("K_{j} does not hash to K_{a}"),
            ));
        }
        peer.latest = (j, key.to_vec());
        let mut still = VecDeque::with_capacity(peer.pending.len());
        while let Some(p) = peer.pending.pop_front() {
            if p.interval > j {
                still.push_back(p);
                continue;
            }
            let ki = f.f_n(key, (j - p.interval) as u32);
            let expected = f.mac(&f.mac_key(&ki), &p.mac_input);
            let result = if openssl::memcmp::eq(&expected, &p.mac) {
                Ok(Delivery {
                    payload: p.payload,
                    sender: peer.sender_id.clone(),
                    generated: Some(p.generated),
                })
            } else {
                Err(Rejection::new(
                    RejectReason::FalseMac,
                    format!("MAC of interval {} does not verify", p.interval),
                ))
            };
            released.push(Released {
                id: p.id,
                received_at: p.received_at,
                result,
            });
        }
        peer.pending = still;
        self.pending_total -= released.len().min(self.pending_total);
        Ok(())
    }

    fn on_data(
        &mut self,
        p: DataPacket<'_>,
        now: Timestamp,
        released: &mut Vec<Released>,
    ) -> Result<DecapOutcome, Rejection> {
        let f = self.format;
        let offset = self.config.max_clock_offset_us;
        let hold = self.config.max_hold_us;
        let peer = self
            .peers
            .get(p.sender)
            .ok_or_else(|| Rejection::new(RejectReason::UnknownSender, "no commitment from this sender"))?;
        let params = peer.params;
        let (interval, generated) = match f.layout {
            TeslaLayout::Paper004 => (p.time, params.interval_start(p.time)),
            TeslaLayout::Paper001 => {
                let ts = Timestamp::from_millis(p.time);
                if ts.plus_micros(hold) < now {
                    return Err(Rejection::new(
                        RejectReason::StaleMessage,
                        "timestamp older than the hold limit",
                    ));
                }
                if ts > now.plus_micros(offset) {
                    return Err(Rejection::new(
                        RejectReason::FutureMessage,
                        "timestamp ahead of the clock bound",
                    ));
                }
                (params.interval_of(ts), ts)
            }
        };
        if interval == 0 || interval > u64::from(params.chain_length) {
            return Err(Rejection::new(
                RejectReason::UnknownKey,
                format!("interval {interval} outside the chain"),
            ));
        }
        // Safe-packet test: could the sender already have disclosed K_interval?
        let sender_now = params.interval_of(now.plus_micros(offset));
        if sender_now >= interval + u64::from(params.disclosure_delay) || peer.latest.0 >= interval {
            return Err(Rejection::new(
                RejectReason::KeyAlreadyDisclosed,
                format!("packet of interval {interval}, sender may be in interval {sender_now}"),
            ));
        }
        if let Some(key) = p.disclosed_key {
            let j = interval.saturating_sub(u64::from(params.disclosure_delay));
            self.on_key(p.sender, j, key, now, released)?;
        }
        if let Some(sig) = p.signature {
            let peer = self
                .peers
                .get(p.sender)
                .ok_or_else(|| Rejection::new(RejectReason::UnknownSender, "gone"))?;
            if !cert::verify(&peer.public, &p.signed_input, sig) {
                return Err(Rejection::new(
                    RejectReason::FalseSignature,
                    "packet signature does not verify",
                ));
            }
        }
        let total_full = self.pending_total >= self.config.max_pending_total;
        let per_sender = self.config.max_pending_per_sender;
        let id = self.next_id();
        let peer = self
            .peers
            .get_mut(p.sender)
            .ok_or_else(|| Rejection::new(RejectReason::UnknownSender, "gone"))?;
        if peer
            .pending
            .iter()
            .any(|q| q.mac == p.mac && q.mac_input == p.mac_input)
        {
            return Err(Rejection::new(
                RejectReason::DuplicateMessage,
                "same packet already waiting",
            ));
        }
        if total_full || peer.pending.len() >= per_sender {
            return Err(Rejection::new(RejectReason::PendingBufferFull, "pending buffer full"));
        }
        peer.pending.push_back(PendingPacket {
            id,
            interval,
            received_at: now,
            mac_input: p.mac_input,
            mac: p.mac.to_vec(),
            payload: p.payload.to_vec(),
            generated,
        });
        self.pending_total += 1;
        Ok(DecapOutcome::Pending(id))
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
        let mut out = self.due_keys(now);
        let exhausted = match &self.chain {
            Some(c) => c.params.interval_of(now) > u64::from(c.params.chain_length) || now.as_micros() < c.params.t0_us,
            None => true,
        };
        if exhausted {
            // Keys of the old chain still owed are disclosed before it is dropped.
            if let Some(old) = self.chain.take() {
                out.extend(old.undisclosed.iter().filter_map(|&j| self.key_packet(&old, j)));
            }
            self.chain = Some(self.new_chain(now));
        }
        let Some(mut chain) = self.chain.take() else {
            return Err(EncapError::NotReady("no key chain".into()));
        };
        let result = (|| {
            let commitment_due = match chain.last_commitment {
                None => true,
                Some(t) => now.as_micros().saturating_sub(t.as_micros()) >= self.config.commitment_period_us,
            };
            if commitment_due {
                out.push(self.commitment_packet(&chain, now)?);
                chain.last_commitment = Some(now);
            }
            let i = chain.params.interval_of(self.effective_time(now));
            out.push(OutgoingPacket::broadcast(
                PacketKind::Data,
                self.data_packet(&chain, i, payload, now)?,
            ));
            if !self.format.attached && chain.undisclosed.back() != Some(&i) {
                chain.undisclosed.push_back(i);
            }
            Ok(())
        })();
        self.chain = Some(chain);
        result.map(|()| out)
    }

    fn decap(&mut self, packet: &[u8], now: Timestamp) -> Decapsulated {
        let mut released = self.expire(now);
        let outcome = match parse(&self.format, packet) {
            Err(e) => DecapOutcome::Rejected(Rejection::new(RejectReason::InvalidEncoding, e.to_string())),
            Ok(TeslaPacket::Commitment(c)) => self
                .on_commitment(c, now, &mut released)
                .unwrap_or_else(DecapOutcome::Rejected),
            Ok(TeslaPacket::SignedCommitment(b)) => self
                .on_signed_commitment(b, now, &mut released)
                .unwrap_or_else(DecapOutcome::Rejected),
            Ok(TeslaPacket::Key(k)) => match self.on_key(k.sender, u64::from(k.interval), k.key, now, &mut released) {
                Ok(()) => DecapOutcome::Control(PacketKind::KeyDisclosure),
                Err(r) => DecapOutcome::Rejected(r),
            },
            Ok(TeslaPacket::Data(d)) => self
                .on_data(d, now, &mut released)
                .unwrap_or_else(DecapOutcome::Rejected),
        };
        Decapsulated {
            outcome,
            released,
            send: Vec::new(),
        }
    }

    fn poll(&mut self, now: Timestamp) -> Polled {
        Polled {
            send: self.due_keys(now),
            released: self.expire(now),
        }
    }

    /// The next key disclosure due (separate mode) or pending packet expiring, whichever
    /// comes first.
    fn next_poll(&self) -> Option<Timestamp> {
        let key_due = self.chain.as_ref().and_then(|chain| {
            let j = *chain.undisclosed.front()?;
            Some(
                chain
                    .params
                    .interval_start(j + u64::from(chain.params.disclosure_delay)),
            )
        });
        let hold = self.config.max_hold_us;
        let expiry = self
            .peers
            .values()
            .filter_map(|p| p.pending.iter().map(|q| q.received_at.plus_micros(hold + 1)).min())
            .min();
        match (key_due, expiry) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn describe(&self) -> ProtocolDescription {
        describe(&self.config)
    }
}

/// Sizes and costs of TESLA for `config`.
pub fn describe(config: &TeslaConfig) -> ProtocolDescription {
    let f = config.format();
    let reference = crate::describe::REFERENCE_PAYLOAD_LEN;
    let curve = CurveName::from(config.curve);
    let (mac, hash) = match f.layout {
        TeslaLayout::Paper004 => (CryptoOp::HmacSha1, CryptoOp::Sha1),
        TeslaLayout::Paper001 => (CryptoOp::HmacSha256, CryptoOp::Sha256),
    };
    // Sender: MAC-key PRF (an HMAC) + the MAC. Receiver: one chain hash to authenticate
    // the interval's key, the MAC-key PRF, the MAC.
    let mut sender_ops = vec![OpCount::new(mac, 2)];
    let mut receiver_ops = vec![OpCount::new(hash, 1), OpCount::new(mac, 2)];
    if f.layout == TeslaLayout::Paper001 {
        sender_ops.push(OpCount::new(CryptoOp::EcdsaSign(curve), 1));
        receiver_ops.push(OpCount::new(CryptoOp::EcdsaVerify(curve), 1));
    }
    let mut messages = vec![MessageDescription {
        message: "data".into(),
        overhead_bytes: f.data_overhead(),
        packet_bytes: f.data_overhead() + reference,
        overhead_depends_on_payload: false,
        schedule: Schedule::EveryPayload,
        sender_ops,
        receiver_ops,
    }];
    if !f.attached {
        messages.push(MessageDescription {
            message: "key-packet".into(),
            overhead_bytes: f.key_packet_len(),
            packet_bytes: f.key_packet_len(),
            overhead_depends_on_payload: false,
            schedule: Schedule::Periodic {
                every_us: config.interval_us,
            },
            sender_ops: vec![],
            receiver_ops: vec![OpCount::new(hash, 1)],
        });
    }
    let commitment_len = match f.bootstrap {
        Bootstrap::Compact => f.commitment_len(),
        Bootstrap::Ieee1609Dot2 => measured_commitment_len(config).unwrap_or(0),
    };
    messages.push(MessageDescription {
        message: "commitment".into(),
        overhead_bytes: commitment_len,
        packet_bytes: commitment_len,
        overhead_depends_on_payload: false,
        schedule: Schedule::Periodic {
            every_us: config.commitment_period_us,
        },
        sender_ops: vec![OpCount::new(CryptoOp::EcdsaSign(curve), 1)],
        receiver_ops: vec![OpCount::new(CryptoOp::EcdsaVerify(curve), 2)],
    });
    ProtocolDescription {
        protocol: config.protocol_name().into(),
        variant: format!(
            "{}/{}",
            match f.layout {
                TeslaLayout::Paper004 => "paper004",
                TeslaLayout::Paper001 => "paper001",
            },
            if f.attached { "attached" } else { "separate" }
        ),
        reference_payload_len: reference,
        messages,
        delayed_verification: Some(DelayedVerification {
            interval_us: config.interval_us,
            disclosure_delay_intervals: config.disclosure_delay,
            key_attached: f.attached,
            max_hold_us: config.max_hold_us,
        }),
        notes: vec![
            "a data packet is verified only when its interval's key (or any later one) arrives".into(),
            "commitment receivers verify the sender certificate and the commitment signature (2 ECDSA verifies)".into(),
        ],
    }
}

/// Length of a real commitment packet for `config` (builds a station to sign one).
pub fn measured_commitment_len(config: &TeslaConfig) -> Result<usize, SetupError> {
    let mut dep = TeslaDeployment::new(config)?;
    let mut s = dep.station(StationId(1), Role::Vehicle)?;
    let out = s
        .encap(b"", Timestamp(1_000))
        .map_err(|e| SetupError::Crypto(e.to_string()))?;
    Ok(out
        .iter()
        .find(|p| p.kind == PacketKind::Commitment)
        .map(|p| p.bytes.len())
        .unwrap_or(0))
}

/// Shared material of a TESLA deployment: who certifies commitment signers.
pub struct TeslaDeployment {
    config: TeslaConfig,
    authority: Authority,
}

enum Authority {
    Compact(CompactCa),
    Dot2(Dot2Pki),
}

impl TeslaDeployment {
    pub fn new(config: &TeslaConfig) -> Result<TeslaDeployment, SetupError> {
        config.validate()?;
        let authority = match config.bootstrap {
            Bootstrap::Compact => Authority::Compact(CompactCa::generate(config.curve)?),
            Bootstrap::Ieee1609Dot2 => Authority::Dot2(Dot2Pki::new(
                config.curve,
                &[config.commitment_psid],
                std::time::Duration::from_secs(7 * 24 * 3600),
                config.time_base,
            )?),
        };
        Ok(TeslaDeployment {
            config: config.clone(),
            authority,
        })
    }

    pub fn station(&mut self, id: StationId, _role: Role) -> Result<TeslaStation, SetupError> {
        let signer = match &self.authority {
            Authority::Compact(ca) => TeslaSigner::Compact {
                credential: ca.enrol(id.0, 0, u32::MAX)?,
                anchor: ca.anchor().clone(),
            },
            Authority::Dot2(pki) => {
                let (entity, ticket) = pki.entity()?;
                TeslaSigner::Ieee1609Dot2 {
                    entity: Box::new(entity),
                    ticket,
                    clock: pki.clock(),
                    psid: self.config.commitment_psid,
                }
            }
        };
        Ok(TeslaStation::new(id, self.config.clone(), signer))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::authenticator::data_packet;

    const T: u64 = 100_000;

    fn pair(config: TeslaConfig) -> (TeslaStation, TeslaStation) {
        let mut dep = TeslaDeployment::new(&config).unwrap();
        (
            dep.station(StationId(1), Role::Vehicle).unwrap(),
            dep.station(StationId(2), Role::Vehicle).unwrap(),
        )
    }

    /// Delivers every packet in order; returns the outcome of the data packet and all releases.
    fn deliver(
        rx: &mut TeslaStation,
        packets: &[OutgoingPacket],
        now: Timestamp,
    ) -> (Option<DecapOutcome>, Vec<Released>) {
        let mut data = None;
        let mut released = Vec::new();
        for p in packets {
            let d = rx.decap(&p.bytes, now);
            released.extend(d.released);
            if p.kind == PacketKind::Data {
                data = Some(d.outcome);
            } else {
                assert!(
                    matches!(d.outcome, DecapOutcome::Control(_)),
                    "{:?}: {:?}",
                    p.kind,
                    d.outcome
                );
            }
        }
        (data, released)
    }

    fn accepted(r: &[Released]) -> Vec<Vec<u8>> {
        r.iter()
            .filter_map(|r| r.result.as_ref().ok().map(|d| d.payload.clone()))
            .collect()
    }

    #[test]
    fn paper004_sizes_are_82_92_43() {
        for (disclosure, data_len) in [(KeyDisclosure::Separate, 82), (KeyDisclosure::Attached, 92)] {
            let (mut a, _) = pair(TeslaConfig::paper004(disclosure));
            let out = a.encap(&[0u8; PAPER004_BSM_LEN], Timestamp(1_000)).unwrap();
            assert_eq!(data_packet(&out).unwrap().bytes.len() + PAPER004_LINK_FRAMING, data_len);
        }
        let (mut a, _) = pair(TeslaConfig::paper004(KeyDisclosure::Separate));
        a.encap(b"x", Timestamp(1_000)).unwrap();
        let keys = a.poll(Timestamp(1_000 + T)).send;
        assert_eq!(keys.len(), 1);
        assert_eq!(keys[0].bytes.len() + PAPER004_LINK_FRAMING, 43);
    }

    #[test]
    fn paper001_overhead_is_142() {
        let (mut a, mut b) = pair(TeslaConfig::paper001());
        let out = a.encap(b"bsm!", Timestamp(1_000)).unwrap();
        assert_eq!(data_packet(&out).unwrap().bytes.len(), 142 + 4);
        let (data, _) = deliver(&mut b, &out, Timestamp(2_000));
        assert!(matches!(data, Some(DecapOutcome::Pending(_))));
    }

    #[test]
    fn separate_keys_release_pending_packets() {
        let (mut a, mut b) = pair(TeslaConfig::paper004(KeyDisclosure::Separate));
        let t0 = Timestamp(10_000_000);
        let out = a.encap(b"one", t0).unwrap();
        assert_eq!(out[0].kind, PacketKind::Commitment);
        let (data, rel) = deliver(&mut b, &out, t0.plus_micros(1_000));
        let Some(DecapOutcome::Pending(id)) = data else {
            panic!("{data:?}")
        };
        assert!(rel.is_empty());
        assert_eq!(b.pending_count(), 1);
        // Not yet due.
        assert!(a.poll(t0.plus_micros(T - 1)).send.is_empty());
        assert_eq!(a.next_poll(), Some(t0.plus_micros(T)));
        let keys = a.poll(t0.plus_micros(T)).send;
        let d = b.decap(&keys[0].bytes, t0.plus_micros(T + 1_000));
        assert_eq!(d.outcome, DecapOutcome::Control(PacketKind::KeyDisclosure));
        assert_eq!(d.released.len(), 1);
        assert_eq!(d.released[0].id, id);
        let delivery = d.released[0].result.clone().unwrap();
        assert_eq!(delivery.payload, b"one");
        assert!(matches!(delivery.sender, SenderId::Address(ref a) if a.len() == 6));
        assert_eq!(b.pending_count(), 0);
    }

    #[test]
    fn attached_keys_verify_on_the_next_beacon_and_a_later_key_makes_up_a_loss() {
        let (mut a, mut b) = pair(TeslaConfig::paper004(KeyDisclosure::Attached));
        let t0 = Timestamp(50_000_000);
        let p1 = a.encap(b"b1", t0).unwrap();
        let p2 = a.encap(b"b2", t0.plus_micros(T)).unwrap();
        let p3 = a.encap(b"b3", t0.plus_micros(2 * T)).unwrap();
        let p4 = a.encap(b"b4", t0.plus_micros(3 * T)).unwrap();
        let (_, rel) = deliver(&mut b, &p1, t0.plus_micros(500));
        assert!(rel.is_empty());
        let (_, rel) = deliver(&mut b, &p2, t0.plus_micros(T + 500));
        assert_eq!(accepted(&rel), vec![b"b1".to_vec()]);
        // p3 is lost; p4 carries K_3, which also derives K_2 for b2.
        let _ = p3;
        let (_, rel) = deliver(&mut b, &p4, t0.plus_micros(3 * T + 500));
        assert_eq!(accepted(&rel), vec![b"b2".to_vec()]);
    }

    #[test]
    fn lost_key_packet_is_made_up_by_a_later_key() {
        let (mut a, mut b) = pair(TeslaConfig::paper004(KeyDisclosure::Separate));
        let t0 = Timestamp(1_000_000);
        let p1 = a.encap(b"first", t0).unwrap();
        deliver(&mut b, &p1, t0.plus_micros(100));
        let lost = a.encap(b"second", t0.plus_micros(T + 10)).unwrap();
        // lost[0] is the key packet of interval 1 (flushed by encap), never delivered.
        assert_eq!(lost[0].kind, PacketKind::KeyDisclosure);
        let (data, _) = deliver(&mut b, &lost[1..], t0.plus_micros(T + 100));
        assert!(matches!(data, Some(DecapOutcome::Pending(_))));
        let later = a.poll(t0.plus_micros(2 * T)).send;
        let d = b.decap(&later[0].bytes, t0.plus_micros(2 * T + 100));
        assert_eq!(accepted(&d.released), vec![b"first".to_vec(), b"second".to_vec()]);
    }

    #[test]
    fn paper001_round_trip_and_bad_signature() {
        let (mut a, mut b) = pair(TeslaConfig::paper001());
        let t0 = Timestamp(7_000_000);
        let p1 = a.encap(b"m1", t0).unwrap();
        let mut p2 = a.encap(b"m2", t0.plus_micros(T)).unwrap();
        deliver(&mut b, &p1, t0.plus_micros(100));
        let sig_byte = 8 + 6 + 32 + 32 + 3;
        p2[0].bytes[sig_byte] ^= 1;
        let d = b.decap(&p2[0].bytes, t0.plus_micros(T + 100));
        // The attached key is genuine, so m1 is released, but m2's signature is false.
        assert_eq!(d.outcome.reason(), Some(RejectReason::FalseSignature));
        assert_eq!(accepted(&d.released), vec![b"m1".to_vec()]);
        match &d.released[0].result {
            Ok(del) => assert!(matches!(del.sender, SenderId::Certificate(_))),
            Err(e) => panic!("{e}"),
        }
    }

    #[test]
    fn unsafe_replayed_tampered_and_unknown_are_rejected() {
        let (mut a, mut b) = pair(TeslaConfig::paper004(KeyDisclosure::Separate));
        let t0 = Timestamp(3_000_000);
        let out = a.encap(b"data", t0).unwrap();
        // No commitment yet: unknown sender.
        let data = data_packet(&out).unwrap().bytes.clone();
        assert_eq!(b.decap(&data, t0).outcome.reason(), Some(RejectReason::UnknownSender));
        b.decap(&out[0].bytes, t0);
        // Received after the sender may have disclosed its key: fails the safe-packet test.
        let late = t0.plus_micros(T);
        assert_eq!(
            b.decap(&data, late).outcome.reason(),
            Some(RejectReason::KeyAlreadyDisclosed)
        );
        // Within the clock bound of the disclosure: also unsafe.
        let edge = t0.plus_micros(T - 4_000);
        assert_eq!(
            b.decap(&data, edge).outcome.reason(),
            Some(RejectReason::KeyAlreadyDisclosed)
        );
        // In time: pending; a duplicate is rejected.
        assert!(matches!(
            b.decap(&data, t0.plus_micros(10)).outcome,
            DecapOutcome::Pending(_)
        ));
        assert_eq!(
            b.decap(&data, t0.plus_micros(20)).outcome.reason(),
            Some(RejectReason::DuplicateMessage)
        );
        // A tampered copy waits too but fails when the key arrives.
        let mut tampered = data.clone();
        let last = tampered.len() - 1;
        tampered[last] ^= 1;
        assert!(matches!(
            b.decap(&tampered, t0.plus_micros(30)).outcome,
            DecapOutcome::Pending(_)
        ));
        let keys = a.poll(t0.plus_micros(T)).send;
        let d = b.decap(&keys[0].bytes, t0.plus_micros(T + 10));
        let reasons: Vec<_> = d
            .released
            .iter()
            .map(|r| r.result.as_ref().err().map(|e| e.reason))
            .collect();
        assert_eq!(reasons, vec![None, Some(RejectReason::FalseMac)]);
        // Replay after disclosure: rejected by the safe-packet test.
        assert_eq!(
            b.decap(&data, t0.plus_micros(T + 20)).outcome.reason(),
            Some(RejectReason::KeyAlreadyDisclosed)
        );
    }

    #[test]
    fn forged_key_and_foreign_commitment_are_rejected() {
        let (mut a, mut b) = pair(TeslaConfig::paper004(KeyDisclosure::Separate));
        let t0 = Timestamp(3_000_000);
        let out = a.encap(b"data", t0).unwrap();
        deliver(&mut b, &out, t0);
        let mut key = a.poll(t0.plus_micros(T)).send.remove(0);
        let last = key.bytes.len() - 1;
        key.bytes[last] ^= 1;
        assert_eq!(
            b.decap(&key.bytes, t0.plus_micros(T)).outcome.reason(),
            Some(RejectReason::InvalidKey)
        );
        // A station certified by another CA cannot bootstrap.
        let (mut x, _) = pair(TeslaConfig::paper004(KeyDisclosure::Separate));
        let out = x.encap(b"evil", t0).unwrap();
        assert_eq!(
            b.decap(&out[0].bytes, t0).outcome.reason(),
            Some(RejectReason::UntrustedRoot)
        );
        // A tampered commitment (different K0) fails its signature.
        let (mut y, _) = pair(TeslaConfig::paper004(KeyDisclosure::Separate));
        let mut c = y.encap(b"x", t0).unwrap().remove(0);
        c.bytes[30] ^= 1;
        assert!(b.decap(&c.bytes, t0).outcome.reason().is_some());
    }

    #[test]
    fn pending_buffer_is_bounded_and_expires() {
        let cfg = TeslaConfig {
            max_pending_per_sender: 2,
            ..TeslaConfig::paper004(KeyDisclosure::Separate)
        };
        let (mut a, mut b) = pair(cfg);
        let t0 = Timestamp(3_000_000);
        let out = a.encap(b"1", t0).unwrap();
        deliver(&mut b, &out, t0);
        for (k, p) in [b"2", b"3"].iter().enumerate() {
            let out = a.encap(*p, t0.plus_micros(k as u64 + 1)).unwrap();
            let r = b.decap(&data_packet(&out).unwrap().bytes, t0.plus_micros(10));
            if k == 0 {
                assert!(matches!(r.outcome, DecapOutcome::Pending(_)));
            } else {
                assert_eq!(r.outcome.reason(), Some(RejectReason::PendingBufferFull));
            }
        }
        assert_eq!(
            b.next_poll(),
            Some(t0.plus_micros(1_000_000 + 1)),
            "first pending packet expires first"
        );
        // The key never comes: both expire after max_hold.
        let polled = b.poll(t0.plus_micros(1_000_011));
        assert_eq!(polled.released.len(), 2);
        assert!(polled
            .released
            .iter()
            .all(|r| r.result.as_ref().err().map(|e| e.reason) == Some(RejectReason::PendingExpired)));
        assert_eq!(b.pending_count(), 0);
    }

    #[test]
    fn chain_rolls_over_with_a_new_commitment() {
        let cfg = TeslaConfig {
            chain_length: 3,
            ..TeslaConfig::paper004(KeyDisclosure::Attached)
        };
        let (mut a, mut b) = pair(cfg);
        let t0 = Timestamp(1_000_000);
        let mut got = Vec::new();
        for k in 0..8u64 {
            let now = t0.plus_micros(k * T);
            let out = a.encap(&[k as u8], now).unwrap();
            let (_, rel) = deliver(&mut b, &out, now.plus_micros(100));
            got.extend(accepted(&rel));
        }
        // Packets 0,1 (chain 1, intervals 1,2) and 3..6 of the second chain verify; the
        // last packet of each chain has no successor carrying its key.
        assert!(got.len() >= 5, "{got:?}");
    }

    #[test]
    fn compact_bootstrap_round_trip_and_foreign_ca() {
        for layout in [TeslaConfig::paper004(KeyDisclosure::Attached), TeslaConfig::paper001()] {
            let cfg = TeslaConfig {
                bootstrap: Bootstrap::Compact,
                ..layout
            };
            let (mut a, mut b) = pair(cfg.clone());
            let t0 = Timestamp(2_000_000);
            let p1 = a.encap(b"c1", t0).unwrap();
            assert_eq!(p1[0].bytes.len(), cfg.format().commitment_len());
            deliver(&mut b, &p1, t0.plus_micros(10));
            let p2 = a.encap(b"c2", t0.plus_micros(T)).unwrap();
            let (_, rel) = deliver(&mut b, &p2, t0.plus_micros(T + 10));
            assert_eq!(accepted(&rel), vec![b"c1".to_vec()]);
            let (mut x, _) = pair(cfg);
            let foreign = x.encap(b"x", t0).unwrap();
            assert_eq!(
                b.decap(&foreign[0].bytes, t0).outcome.reason(),
                Some(RejectReason::UntrustedRoot)
            );
        }
    }

    #[test]
    fn dot2_commitment_is_a_1609_2_message_and_tampering_is_caught() {
        let (mut a, mut b) = pair(TeslaConfig::paper004(KeyDisclosure::Separate));
        let out = a.encap(b"x", Timestamp(1_000)).unwrap();
        let c = &out[0];
        assert_eq!(c.kind, PacketKind::Commitment);
        // After the type byte: an Ieee1609Dot2Data, protocol version 3.
        assert_eq!(c.bytes[1], 3);
        let mut bad = c.bytes.clone();
        bad[12] ^= 1;
        assert!(b.decap(&bad, Timestamp(1_000)).outcome.reason().is_some());
        assert_eq!(
            b.decap(&c.bytes, Timestamp(1_000)).outcome,
            DecapOutcome::Control(PacketKind::Commitment)
        );
        assert!(measured_commitment_len(&TeslaConfig::default()).unwrap() > 100);
    }

    #[test]
    fn revoked_commitment_signer_and_stale_paper001_packets_are_rejected() {
        let (mut a, mut b) = pair(TeslaConfig::paper001());
        let t0 = Timestamp(4_000_000);
        let out = a.encap(b"m", t0).unwrap();
        // Stale: the 6-byte timestamp is older than the hold limit.
        deliver(&mut b, &out[..1], t0);
        let late = t0.plus_micros(1_000_001);
        assert_eq!(
            b.decap(&out[1].bytes, late).outcome.reason(),
            Some(RejectReason::StaleMessage)
        );
        // The CA revoked the sender's certificate: its commitments are refused.
        let (mut c, mut d) = pair(TeslaConfig::paper004(KeyDisclosure::Attached));
        let TeslaSigner::Ieee1609Dot2 { ticket, .. } = &c.signer else {
            panic!("1609.2 bootstrap expected")
        };
        let cert = ticket.certificate.clone();
        let TeslaSigner::Ieee1609Dot2 { entity, .. } = &mut d.signer else {
            panic!()
        };
        entity.trust_store_mut().revoke(&cert);
        let out = c.encap(b"x", t0).unwrap();
        assert_eq!(
            d.decap(&out[0].bytes, t0).outcome.reason(),
            Some(RejectReason::RevokedCertificate)
        );
        assert_eq!(
            d.decap(&out[1].bytes, t0).outcome.reason(),
            Some(RejectReason::UnknownSender)
        );
    }

    #[test]
    fn config_validation() {
        assert!(TeslaConfig {
            key_disclosure: KeyDisclosure::Separate,
            ..TeslaConfig::paper001()
        }
        .validate()
        .is_err());
        assert!(TeslaConfig {
            mac_len: Some(21),
            ..TeslaConfig::default()
        }
        .validate()
        .is_err());
        assert!(TeslaConfig::default().validate().is_ok());
    }
}
