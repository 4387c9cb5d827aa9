//! Parameters of TESLA, and the field sizes of the configured layout.

use crate::cert;
use crate::dot2_pki::TimeBase;
use crate::setup::SetupError;
use serde::{Deserialize, Serialize};
use v2x_crypto::Curve;
use v2x_wire::ItsAid;

/// PSID (ITS-AID) of TESLA chain commitments signed by the standard stack. Not an
/// IEEE 1609.12 assignment: 0x1D is one of the two values (0x1D, 0x1E) the IEEE PSID
/// registry lists as "reserved for private use" (ISO 15628), so it cannot collide with
/// an assigned application. Configurable as `commitment_psid`.
pub const PSID_TESLA_COMMITMENT: ItsAid = ItsAid(0x1D);

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
    /// PSID (ITS-AID) of 1609.2-signed commitments.
    pub commitment_psid: ItsAid,
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
            commitment_psid: PSID_TESLA_COMMITMENT,
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

/// Field sizes of a configured layout (the key-chain functions F and the MAC that go
/// with it are in [`super::chain`]).
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
    pub fn sender_len(&self) -> usize {
        match self.layout {
            TeslaLayout::Paper004 => 6,
            TeslaLayout::Paper001 => 8,
        }
    }

    pub fn time_len(&self) -> usize {
        match self.layout {
            TeslaLayout::Paper004 => 4,
            TeslaLayout::Paper001 => 6,
        }
    }

    pub fn type_len(&self) -> usize {
        match self.layout {
            TeslaLayout::Paper004 => 1,
            TeslaLayout::Paper001 => 0,
        }
    }

    pub fn signature_len(&self) -> usize {
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
}
