//! `[[attacker]]`: what attackers send (the PRESERVE attack cases), how many, how often.

use super::check::{nonneg, pos};
use crate::error::ScenarioError;
use serde::{Deserialize, Serialize};

/// What an attacker sends (PRESERVE attack cases).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AttackKind {
    /// A-SIG-01: valid-looking messages with invalid signatures (cost a verification).
    InvalidSignature,
    /// A-SIG-03: messages without signature.
    Unsigned,
    /// A-SIG-06: messages with old generation times.
    Stale,
    /// A-CER-03: messages signed under an expired certificate.
    ExpiredCertificate,
    /// Re-broadcast of the last legitimate CAM the attacker received.
    Replay,
    /// A-SIG-05-like clogging: invalid signatures at a high rate.
    Flood,
}

impl AttackKind {
    /// The name scenario files use.
    pub fn name(self) -> &'static str {
        match self {
            AttackKind::InvalidSignature => "invalid-signature",
            AttackKind::Unsigned => "unsigned",
            AttackKind::Stale => "stale",
            AttackKind::ExpiredCertificate => "expired-certificate",
            AttackKind::Replay => "replay",
            AttackKind::Flood => "flood",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttackerConfig {
    pub kind: AttackKind,
    /// How many vehicles act as attackers (chosen by the seed).
    #[serde(default = "d_attackers")]
    pub count: u32,
    #[serde(default = "d_attack_rate")]
    pub rate_hz: f64,
    #[serde(default = "d_attack_payload")]
    pub payload_bytes: u32,
    #[serde(default)]
    pub start_s: f64,
    /// Age of the timestamps sent by `stale` attackers (s).
    #[serde(default = "d_stale_age")]
    pub stale_age_s: f64,
}

fn d_attackers() -> u32 {
    1
}
fn d_attack_rate() -> f64 {
    10.0
}
fn d_attack_payload() -> u32 {
    100
}
fn d_stale_age() -> f64 {
    30.0
}

impl AttackerConfig {
    /// Checks value ranges; `i` is the attacker's index, as errors name it.
    pub fn validate(&self, i: usize) -> Result<(), ScenarioError> {
        let f = |n: &str| format!("attacker[{i}].{n}");
        pos(&f("rate_hz"), self.rate_hz)?;
        if self.rate_hz > 10_000.0 {
            return Err(ScenarioError::invalid(f("rate_hz"), "at most 10000 Hz"));
        }
        nonneg(&f("start_s"), self.start_s)?;
        nonneg(&f("stale_age_s"), self.stale_age_s)?;
        if self.payload_bytes > 4000 {
            return Err(ScenarioError::invalid(f("payload_bytes"), "at most 4000"));
        }
        Ok(())
    }
}
