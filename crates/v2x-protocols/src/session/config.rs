//! Parameters of the session-key schemes.

use super::crypto::{EncryptionAlg, SignatureAlg};
use crate::setup::Role;
use serde::{Deserialize, Serialize};

/// Which scheme.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scheme {
    #[default]
    RayaHubaux,
    Wang,
}

/// Pairwise sessions or a group led by one station.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Topology {
    #[default]
    Pairwise,
    Group,
}

/// Message-protection mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Protection {
    /// m, HMAC_SK(m).
    #[default]
    Hmac,
    /// E_SK(m).
    Encrypt,
    /// E_SK(m ‖ Sig_A[HMAC_SK(m)]).
    EncryptSignedMac,
    /// E_SK(m), Sig_A[HMAC_SK(E_SK(m))].
    EncryptThenSignMac,
}

/// Parameters of a session-key deployment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SessionConfig {
    pub scheme: Scheme,
    pub topology: Topology,
    pub protection: Protection,
    pub signature: SignatureAlg,
    /// Session-key transport (RH step 3 and group keys); Wang pairwise needs none.
    pub encryption: EncryptionAlg,
    /// RSA modulus bits (paper 003: 1024).
    pub rsa_bits: u32,
    /// DSA modulus bits (paper 003: 1024, 160-bit subgroup).
    pub dsa_bits: u32,
    pub handshake_window_ms: u64,
    pub session_lifetime_ms: u64,
}

impl Default for SessionConfig {
    fn default() -> Self {
        SessionConfig {
            scheme: Scheme::RayaHubaux,
            topology: Topology::Pairwise,
            protection: Protection::Hmac,
            signature: SignatureAlg::Ecdsa,
            encryption: EncryptionAlg::Ecies,
            rsa_bits: 1024,
            dsa_bits: 1024,
            handshake_window_ms: 1_000,
            session_lifetime_ms: 600_000,
        }
    }
}

impl SessionConfig {
    /// Profile name: `raya-hubaux` or `wang`.
    pub fn protocol_name(&self) -> &'static str {
        match self.scheme {
            Scheme::RayaHubaux => "raya-hubaux",
            Scheme::Wang => "wang",
        }
    }

    /// The role the sender of a bench pair takes: the leader for group key distribution.
    pub fn pair_sender_role(&self) -> Role {
        match self.topology {
            Topology::Pairwise => Role::Vehicle,
            Topology::Group => Role::GroupLeader,
        }
    }

    /// Configuration summary, e.g. `pairwise/ecdsa+ecies/hmac`.
    pub fn variant(&self) -> String {
        format!(
            "{}/{}+{}/{}",
            name(&self.topology),
            name(&self.signature),
            name(&self.encryption),
            name(&self.protection)
        )
    }
}

/// The configuration name of a unit variant (its serde form).
fn name<T: Serialize>(v: &T) -> String {
    serde_json::to_value(v)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}
