//! `[relay]`: multi-hop forwarding of a signed message (a DENM-like event, once or
//! periodically) from one source across a chain of relays, each verifying before it
//! forwards (paper 003's multi-hop model).

use super::check::{nonneg, pos};
use super::mac::AccessCategory;
use crate::error::ScenarioError;
use serde::{Deserialize, Serialize};

/// The multi-hop forwarding application.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RelayConfig {
    pub enabled: bool,
    /// Node index of the source (the first vehicle of the chain).
    pub source: u32,
    /// Messages the source sends.
    pub messages: u32,
    /// Time of the first message (s).
    pub start_s: f64,
    /// Time between two messages of the source (s).
    pub interval_s: f64,
    /// Application payload before security (paper 003: the 1024-byte M1).
    pub payload_bytes: u32,
    /// Security bytes on the message (signature and certificate); default: the variant's
    /// bytes with the full certificate, so that any relay can verify it.
    pub security_bytes: Option<u32>,
    /// A relay forwards a message that has crossed fewer hops than this.
    pub max_hops: u32,
    /// Every relay signs the message again before forwarding (schemes where each hop
    /// vouches for the message); paper 003's relays only verify.
    pub resign_at_relays: bool,
    pub access_category: AccessCategory,
}

impl Default for RelayConfig {
    fn default() -> Self {
        RelayConfig {
            enabled: false,
            source: 0,
            messages: 1,
            start_s: 1.0,
            interval_s: 1.0,
            payload_bytes: 1024,
            security_bytes: None,
            max_hops: 10,
            resign_at_relays: false,
            access_category: AccessCategory::BestEffort,
        }
    }
}

/// Hop counts a relay statistic is kept for.
pub const MAX_RELAY_HOPS: u32 = 1000;

impl RelayConfig {
    /// Checks value ranges and that every variant's messages can be verified hop by hop;
    /// the error names the field.
    pub fn validate(&self, nodes: Option<usize>, variants: &[super::VariantConfig]) -> Result<(), ScenarioError> {
        if !self.enabled {
            return Ok(());
        }
        pos("relay.interval_s", self.interval_s)?;
        nonneg("relay.start_s", self.start_s)?;
        if self.messages == 0 {
            return Err(ScenarioError::invalid("relay.messages", "must be at least 1"));
        }
        if self.max_hops == 0 || self.max_hops > MAX_RELAY_HOPS {
            return Err(ScenarioError::invalid(
                "relay.max_hops",
                format!("must be between 1 and {MAX_RELAY_HOPS}"),
            ));
        }
        if self.payload_bytes + self.security_bytes.unwrap_or(0) > 4000 {
            return Err(ScenarioError::invalid(
                "relay.payload_bytes",
                "payload and security bytes at most 4000 (an 802.11p PSDU holds 4095)",
            ));
        }
        if let Some(n) = nodes {
            if self.source as usize >= n {
                return Err(ScenarioError::invalid(
                    "relay.source",
                    format!("node {} does not exist (the mobility has {n} nodes)", self.source),
                ));
            }
        }
        for (i, v) in variants.iter().enumerate() {
            if v.mode != super::SecurityMode::CostModel {
                return Err(ScenarioError::invalid(
                    format!("variant[{i}].mode"),
                    "relaying runs with mode = \"cost-model\" only (real-crypto stations do not sign relayed messages)",
                ));
            }
            let p = v.protocol;
            if p.is_tesla() {
                return Err(ScenarioError::invalid(
                    format!("variant[{i}].protocol"),
                    format!(
                        "`{p}`: a relay cannot verify a TESLA message before its key is disclosed; relaying supports none, raw, ieee1609.2, etsi-v1.2.1, hash-chain, 2flip"
                    ),
                ));
            }
        }
        Ok(())
    }
}
