//! `[[variant]]`: one security configuration per variant (protocol, processor profile,
//! costs, sizes, verification discipline); every variant runs on the same mobility and
//! seeds.

use super::check::{nonneg, pos};
use crate::error::ScenarioError;
use serde::{Deserialize, Serialize};
pub use v2x_profile::CertificatePolicy;
use v2x_profile::{ProtocolId, Variant};

/// Order in which a receiver verifies queued messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum QueueOrder {
    Fifo,
    /// Nearest sender first (prioritised verification, paper 000 §5.3).
    NearestFirst,
}

/// What happens to a verification that cannot finish by its deadline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DeadlinePolicy {
    /// A job is dropped when it reaches a core (or arrives at a free one) and its service
    /// would end after the deadline: the core goes straight to the next job.
    DropAtStart,
    /// A job starts if its deadline has not passed; one still in service at the deadline is
    /// aborted then (the core was busy until the deadline for nothing).
    AbortAtDeadline,
}

/// How a variant's security is simulated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SecurityMode {
    /// Sizes, schedules and service times from the profile; outcomes from the model.
    CostModel,
    /// Every station runs its real `Authenticator` (real signatures, real rejections of
    /// attack frames), service times still charged from the profile. Run by the
    /// `v2x-sim-crypto` crate (`v2x sim`); meant for small scenarios.
    RealCrypto,
}

/// Where a station's own signing and encryption run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SigningCore {
    /// A core (or HSM) of its own: own messages never wait for verifications.
    OwnCore,
    /// The verification cores: own jobs go first at the next free core, so they wait for
    /// the verification in service (the simulator's behaviour before this option).
    Priority,
}

/// The protocols the simulator models: every [`ProtocolId`] but the session-key schemes,
/// whose pairwise handshakes a broadcast cost model does not capture.
pub const SIMULATED_PROTOCOLS: &[ProtocolId] = &[
    ProtocolId::None,
    ProtocolId::Raw,
    ProtocolId::Ieee16092,
    ProtocolId::EtsiV121,
    ProtocolId::Tesla,
    ProtocolId::TeslaAttached,
    ProtocolId::HashChain,
    ProtocolId::TwoFlip,
];

/// One security configuration: protocol, processor and verification discipline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct VariantConfig {
    pub name: String,
    /// `none`, `raw`, `ieee1609.2`, `etsi-v1.2.1`, `tesla`, `tesla-attached`, `hash-chain`,
    /// `2flip` (see [`SIMULATED_PROTOCOLS`]).
    pub protocol: String,
    /// `cost-model` (default) or `real-crypto` (see [`SecurityMode`]).
    pub mode: SecurityMode,
    /// Shipped profile name (`v2x_profile::BUILTIN_NAMES`) or path of a `v2x bench` profile
    /// (relative to the scenario file). Empty is allowed only when costs are given below
    /// or the protocol is `none`.
    pub profile: String,
    /// Protocol whose costs are looked up in the profile (default: `protocol`; TESLA
    /// attached falls back to `tesla`).
    pub cost_protocol: String,
    /// Variant (parts such as `p256-sha256`, `cam`, `digest`) of the `decap` cost for
    /// messages with a certificate digest (empty: the first `decap` at level `sign`).
    pub verify_variant: String,
    /// Variant of the `decap` cost for messages carrying the full certificate (empty: the
    /// verify variant with signer `certificate` where the profile has it, else the same).
    pub verify_certificate_variant: String,
    /// Variant of the `encap` cost of the sender (empty: the first `encap` at level `sign`).
    pub sign_variant: String,
    /// Fixed verification cost overriding the profile (µs; 0 = use the profile).
    pub verify_cost_us: f64,
    pub sign_cost_us: f64,
    /// Verification cores per receiver (0 = the profile's `cores`).
    pub cores: u32,
    /// Where own signing/encryption runs: `own-core` (default) or `priority` (shares the
    /// verification cores, first in line).
    pub signing: SigningCore,
    /// Spread of service times around costs given as a mean alone (fixed costs, and
    /// profile costs without quantiles, overriding the profile's `spread`), e.g.
    /// `{ family = "lognormal", cv = 0.05 }`; `cv = 0` draws every service at the mean.
    pub service_time_spread: Option<v2x_profile::Spread>,
    pub order: QueueOrder,
    /// A message not verified this long after reception is lost (cryptographic loss);
    /// `deadline_policy` says when the loss is decided.
    pub deadline_ms: f64,
    pub deadline_policy: DeadlinePolicy,
    /// Security bytes on a message with a certificate digest (default: the profile's sizes
    /// for the protocol, else the papers').
    pub overhead_bytes: Option<u32>,
    /// Security bytes on a message carrying the full certificate.
    pub overhead_with_certificate_bytes: Option<u32>,
    /// When the certificate rides along (default: the profile's sizes, else the papers').
    pub certificate: Option<CertificatePolicy>,
    /// A digest-signed message from a sender whose certificate is not yet usable cannot be
    /// verified (cryptographic loss, reason unknown certificate). A certificate is usable
    /// once the message carrying it has been verified (IEEE 1609.2 5.1.2 / TS 103 097: a
    /// certificate is trusted only after its chain is checked), not when it is received.
    pub require_known_certificate: bool,
    /// TESLA: delay between a packet and the disclosure of its key (s; default: the
    /// profile's key disclosure, else 0.1).
    pub tesla_disclosure_delay_s: Option<f64>,
    /// TESLA: bytes of the separate key packet, whole MPDU (default: the profile's key
    /// packet plus the MAC overhead, else paper 004's 43).
    pub tesla_key_frame_bytes: Option<u32>,
    /// TESLA attached: bytes the disclosed key adds to the next packet (default: the
    /// profile's, else 10).
    pub tesla_attached_key_bytes: Option<u32>,
    /// Messages older than this (by generation time) are rejected as stale (ms).
    pub freshness_ms: f64,
}

impl Default for VariantConfig {
    fn default() -> Self {
        VariantConfig {
            name: "no-security".into(),
            protocol: "none".into(),
            mode: SecurityMode::CostModel,
            profile: String::new(),
            cost_protocol: String::new(),
            verify_variant: String::new(),
            verify_certificate_variant: String::new(),
            sign_variant: String::new(),
            verify_cost_us: 0.0,
            sign_cost_us: 0.0,
            cores: 0,
            signing: SigningCore::OwnCore,
            service_time_spread: None,
            order: QueueOrder::Fifo,
            deadline_ms: 100.0,
            deadline_policy: DeadlinePolicy::DropAtStart,
            overhead_bytes: None,
            overhead_with_certificate_bytes: None,
            certificate: None,
            require_known_certificate: true,
            tesla_disclosure_delay_s: None,
            tesla_key_frame_bytes: None,
            tesla_attached_key_bytes: None,
            freshness_ms: 2000.0,
        }
    }
}

/// Parses a protocol name as a variant may use it; the error lists the valid names.
pub fn parse_protocol(field: &str, name: &str) -> Result<ProtocolId, ScenarioError> {
    let id: ProtocolId = name
        .parse()
        .map_err(|e| ScenarioError::invalid(field, format!("{e}")))?;
    if SIMULATED_PROTOCOLS.contains(&id) {
        Ok(id)
    } else {
        let names: Vec<&str> = SIMULATED_PROTOCOLS.iter().map(|p| p.name()).collect();
        Err(ScenarioError::invalid(
            field,
            format!(
                "protocol {id} is not simulated: its pairwise handshakes are not in the cost model (simulated: {})",
                names.join(", ")
            ),
        ))
    }
}

/// Parses a variant string; the error lists the valid parts.
pub fn parse_variant(field: &str, text: &str) -> Result<Variant, ScenarioError> {
    text.parse().map_err(|e| ScenarioError::invalid(field, format!("{e}")))
}

impl VariantConfig {
    pub fn protocol_id(&self) -> Result<ProtocolId, ScenarioError> {
        parse_protocol("protocol", &self.protocol)
    }

    /// Checks value ranges and names; `i` is the variant's index, as errors name it.
    pub fn validate(&self, i: usize) -> Result<(), ScenarioError> {
        let f = |n: &str| format!("variant[{i}].{n}");
        if self.name.is_empty()
            || !self
                .name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.')
        {
            return Err(ScenarioError::invalid(
                f("name"),
                "must be non-empty letters, digits, '-', '_' or '.'",
            ));
        }
        parse_protocol(&f("protocol"), &self.protocol)?;
        if !self.cost_protocol.is_empty() {
            self.cost_protocol
                .parse::<ProtocolId>()
                .map_err(|e| ScenarioError::invalid(f("cost_protocol"), format!("{e}")))?;
        }
        parse_variant(&f("verify_variant"), &self.verify_variant)?;
        parse_variant(&f("verify_certificate_variant"), &self.verify_certificate_variant)?;
        parse_variant(&f("sign_variant"), &self.sign_variant)?;
        nonneg(&f("verify_cost_us"), self.verify_cost_us)?;
        nonneg(&f("sign_cost_us"), self.sign_cost_us)?;
        pos(&f("deadline_ms"), self.deadline_ms)?;
        pos(&f("freshness_ms"), self.freshness_ms)?;
        if let Some(d) = self.tesla_disclosure_delay_s {
            pos(&f("tesla_disclosure_delay_s"), d)?;
        }
        if let Some(Err(e)) = self.service_time_spread.as_ref().map(v2x_profile::Spread::check) {
            return Err(ScenarioError::invalid(f("service_time_spread"), e));
        }
        if self.cores > 1024 {
            return Err(ScenarioError::invalid(f("cores"), "at most 1024"));
        }
        if self.overhead_bytes.unwrap_or(0) > 4000 || self.overhead_with_certificate_bytes.unwrap_or(0) > 4000 {
            return Err(ScenarioError::invalid(f("overhead_bytes"), "at most 4000"));
        }
        if self.tesla_key_frame_bytes.is_some_and(|b| b == 0 || b > 4000)
            || self.tesla_attached_key_bytes.unwrap_or(0) > 4000
        {
            return Err(ScenarioError::invalid(f("tesla_key_frame_bytes"), "between 1 and 4000"));
        }
        match self.certificate {
            Some(CertificatePolicy::EveryNth { n: 0 }) => {
                return Err(ScenarioError::invalid(f("certificate.n"), "must be at least 1"));
            }
            Some(CertificatePolicy::Interval { interval_s }) => pos(&f("certificate.interval_s"), interval_s)?,
            _ => {}
        }
        Ok(())
    }
}
