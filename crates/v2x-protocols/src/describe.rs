//! What a protocol costs, per message type: bytes on the wire, cryptographic operations
//! to produce and to check each message, how often it is sent, and how long a receiver
//! must wait before it can verify. The simulator builds its cost model from this (plus a
//! processor profile giving each operation's latency); reports print it.

use serde::{Deserialize, Serialize};

/// One cryptographic operation, named the way processor profiles name operations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CryptoOp {
    /// ECDSA signature on the named curve (`p224`, `p256`, `p384`, `bp256`, `bp384`).
    EcdsaSign(CurveName),
    EcdsaVerify(CurveName),
    /// One hash function evaluation (SHA-1 or SHA-256 on a short input).
    Sha1,
    Sha256,
    /// One HMAC computation.
    HmacSha1,
    HmacSha256,
    /// ECIES (1609.2 key wrap) encrypt / decrypt.
    EciesEncrypt(CurveName),
    EciesDecrypt(CurveName),
    /// AES-128 encryption / decryption of a message (CBC or CCM per protocol).
    AesEncrypt,
    AesDecrypt,
    /// RSA (1024/2048 as configured) signature, verification, encryption, decryption.
    RsaSign,
    RsaVerify,
    RsaEncrypt,
    RsaDecrypt,
    /// DSA signature and verification.
    DsaSign,
    DsaVerify,
    /// Diffie-Hellman: key-pair generation and shared-secret derivation.
    DhKeygen,
    DhDerive,
    /// A post-quantum signature / verification (ML-DSA, FN-DSA, SLH-DSA; a composite is
    /// this plus the ECDSA P-256 operation).
    PqSign(v2x_crypto::pq::PqAlgorithm),
    PqVerify(v2x_crypto::pq::PqAlgorithm),
}

/// Curve names as the profiles spell them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CurveName {
    P224,
    P256,
    P384,
    Bp256,
    Bp384,
}

impl From<v2x_crypto::Curve> for CurveName {
    fn from(c: v2x_crypto::Curve) -> CurveName {
        match c {
            v2x_crypto::Curve::NistP256 => CurveName::P256,
            v2x_crypto::Curve::NistP384 => CurveName::P384,
            v2x_crypto::Curve::BrainpoolP256r1 => CurveName::Bp256,
            v2x_crypto::Curve::BrainpoolP384r1 => CurveName::Bp384,
        }
    }
}

impl CryptoOp {
    /// Stable name, e.g. `ecdsa-verify/p256`, `hmac-sha256`.
    pub fn name(&self) -> String {
        let curve = |c: &CurveName| serde_json::to_value(c).ok().and_then(|v| v.as_str().map(str::to_owned));
        match self {
            CryptoOp::EcdsaSign(c) => format!("ecdsa-sign/{}", curve(c).unwrap_or_default()),
            CryptoOp::EcdsaVerify(c) => format!("ecdsa-verify/{}", curve(c).unwrap_or_default()),
            CryptoOp::EciesEncrypt(c) => format!("ecies-encrypt/{}", curve(c).unwrap_or_default()),
            CryptoOp::EciesDecrypt(c) => format!("ecies-decrypt/{}", curve(c).unwrap_or_default()),
            CryptoOp::Sha1 => "sha1".into(),
            CryptoOp::Sha256 => "sha256".into(),
            CryptoOp::HmacSha1 => "hmac-sha1".into(),
            CryptoOp::HmacSha256 => "hmac-sha256".into(),
            CryptoOp::AesEncrypt => "aes-encrypt".into(),
            CryptoOp::AesDecrypt => "aes-decrypt".into(),
            CryptoOp::RsaSign => "rsa-sign".into(),
            CryptoOp::RsaVerify => "rsa-verify".into(),
            CryptoOp::RsaEncrypt => "rsa-encrypt".into(),
            CryptoOp::RsaDecrypt => "rsa-decrypt".into(),
            CryptoOp::DsaSign => "dsa-sign".into(),
            CryptoOp::DsaVerify => "dsa-verify".into(),
            CryptoOp::DhKeygen => "dh-keygen".into(),
            CryptoOp::DhDerive => "dh-derive".into(),
            CryptoOp::PqSign(a) => format!("pq-sign/{}", a.name()),
            CryptoOp::PqVerify(a) => format!("pq-verify/{}", a.name()),
        }
    }
}

/// `count` times `op`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpCount {
    pub op: CryptoOp,
    pub count: u32,
}

impl OpCount {
    pub const fn new(op: CryptoOp, count: u32) -> OpCount {
        OpCount { op, count }
    }
}

/// How often a message type is sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Schedule {
    /// With every application payload.
    EveryPayload,
    /// Once per interval of `every_us` microseconds while the station sends.
    Periodic { every_us: u64 },
    /// Once per session / at start-up (handshakes, commitments, registration).
    Once,
    /// Only on rare events (revocation, key update).
    OnEvent,
}

/// One message type of a protocol.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MessageDescription {
    /// e.g. `data`, `key-packet`, `commitment`, `v2i`, `handshake-1`, `group-key`.
    pub message: String,
    /// Bytes the protocol adds around the payload (for `reference_payload_len`).
    pub overhead_bytes: usize,
    /// Whole packet length for the reference payload (payload + overhead; for control
    /// messages without payload, the whole packet).
    pub packet_bytes: usize,
    /// True when the overhead grows with the payload (encryption padding, RSA blocks).
    pub overhead_depends_on_payload: bool,
    pub schedule: Schedule,
    /// Operations the sender performs to produce it.
    pub sender_ops: Vec<OpCount>,
    /// Operations a receiver performs to accept it (not counting the wait for a key).
    pub receiver_ops: Vec<OpCount>,
}

/// How long a receiver must hold a packet before it can be verified (TESLA).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct DelayedVerification {
    /// Length of one key interval.
    pub interval_us: u64,
    /// Disclosure delay d, in intervals.
    pub disclosure_delay_intervals: u32,
    /// True when keys ride on the next data packet, false for separate key packets.
    pub key_attached: bool,
    /// Longest a receiver holds a packet before dropping it.
    pub max_hold_us: u64,
}

/// Sizes and costs of one configured protocol.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProtocolDescription {
    /// Profile identifier (`tesla`, `hash-chain`, ...).
    pub protocol: String,
    /// Configuration summary, e.g. `paper004/attached`, `dsa+aes/mode3`.
    pub variant: String,
    /// Payload length the byte figures were computed for.
    pub reference_payload_len: usize,
    pub messages: Vec<MessageDescription>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delayed_verification: Option<DelayedVerification>,
    /// Choices made where the source papers are silent, in a sentence or two each.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

impl ProtocolDescription {
    /// The description of message type `name`, if the protocol has one.
    pub fn message(&self, name: &str) -> Option<&MessageDescription> {
        self.messages.iter().find(|m| m.message == name)
    }
}

/// Payload length the descriptions use for their byte figures (a typical CAM/BSM body).
pub const REFERENCE_PAYLOAD_LEN: usize = 100;

/// A description computed once, on first use, and shared by every station of a
/// deployment. Some sizes can only be measured by encoding real packets with a second
/// station (a handshake, a signed commitment), which a station cannot do by itself: its
/// deployment hands it this handle instead.
#[derive(Clone)]
pub struct SharedDescription {
    cell: std::sync::Arc<std::sync::OnceLock<ProtocolDescription>>,
    compute: std::sync::Arc<dyn Fn() -> ProtocolDescription + Send + Sync>,
}

impl SharedDescription {
    /// A description made by `compute` when first asked for.
    pub fn new(compute: impl Fn() -> ProtocolDescription + Send + Sync + 'static) -> SharedDescription {
        SharedDescription {
            cell: Default::default(),
            compute: std::sync::Arc::new(compute),
        }
    }

    pub fn get(&self) -> ProtocolDescription {
        self.cell.get_or_init(|| (self.compute)()).clone()
    }
}

impl std::fmt::Debug for SharedDescription {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.cell.get() {
            Some(d) => write!(f, "SharedDescription({} {})", d.protocol, d.variant),
            None => f.write_str("SharedDescription(not yet measured)"),
        }
    }
}
