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

/// How a receiver verifies signatures (docs/verification-strategies.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum VerifierStrategy {
    /// Every message at the variant's verify cost (the backend is the verify cost's
    /// `method` part, e.g. `aws-lc` or `repeat100-plain`).
    #[default]
    Plain,
    /// Opt-in per-signer tables (patent risk: see the strategies document): first-seen
    /// signers at the verify cost, a table built at a signer's `build_after`-th message,
    /// later messages at the table cost; at most `max_tables` per receiver (LRU).
    Precomputed,
}

/// `[variant.verifier]`: the receiver's verification strategy and its costs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct VerifierConfig {
    /// `plain` (default) or `precomputed`.
    pub strategy: VerifierStrategy,
    /// `precomputed`: a signer gets a table at its this-many-th message.
    pub build_after: u32,
    /// `precomputed`: tables kept per receiver (16 MiB of 53 KB P-256 tables: 300).
    pub max_tables: u32,
    /// `precomputed`: cost of building one table, µs (no profile row measures it yet;
    /// a P-256 window-5 table takes ~0.5 ms on the bench machine). Required.
    pub table_build_us: f64,
    /// `precomputed`: variant of the table-verification cost in the profile (default: the
    /// verify variant with method `repeat100-precomputed`; protocol `raw`:
    /// `precomputed-table-100`).
    pub table_variant: Variant,
    /// `precomputed`: fixed table-verification cost overriding the profile (µs; 0 = profile).
    pub table_cost_us: f64,
}

impl Default for VerifierConfig {
    fn default() -> Self {
        VerifierConfig {
            strategy: VerifierStrategy::Plain,
            build_after: 16,
            max_tables: 300,
            table_build_us: 0.0,
            table_variant: Variant::default(),
            table_cost_us: 0.0,
        }
    }
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
/// whose pairwise handshakes a broadcast cost model does not capture. The EXPERIMENTAL
/// post-quantum designs (`experimental-…`, docs/post-quantum.md) take their sizes from
/// their real encoder only ([`crate::security::SizeEncoder`]).
pub const SIMULATED_PROTOCOLS: &[ProtocolId] = &[
    ProtocolId::None,
    ProtocolId::Raw,
    ProtocolId::Ieee16092,
    ProtocolId::EtsiV121,
    ProtocolId::Tesla,
    ProtocolId::TeslaAttached,
    ProtocolId::HashChain,
    ProtocolId::TwoFlip,
    ProtocolId::ExperimentalPqOnlyMlDsa44,
    ProtocolId::ExperimentalPqOnlyFnDsa512,
    ProtocolId::ExperimentalCompositeMlDsa44,
    ProtocolId::ExperimentalCompositeFnDsa512,
    ProtocolId::ExperimentalPartiallyHybridNdss2024,
];

/// One security configuration: protocol, processor and verification discipline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct VariantConfig {
    pub name: String,
    /// `none`, `raw`, `ieee1609.2`, `etsi-v1.2.1`, `tesla`, `tesla-attached`, `hash-chain`,
    /// `2flip`, or an EXPERIMENTAL post-quantum design such as `experimental-pq-only-ml-dsa-44`
    /// (see [`SIMULATED_PROTOCOLS`]).
    pub protocol: ProtocolId,
    /// `cost-model` (default) or `real-crypto` (see [`SecurityMode`]).
    pub mode: SecurityMode,
    /// Shipped profile name (`v2x_profile::BUILTIN_NAMES`) or path of a `v2x bench` profile
    /// (relative to the scenario file). Empty is allowed only when costs are given below
    /// or the protocol is `none`.
    pub profile: String,
    /// Protocol whose costs are looked up in the profile (default: `protocol`; TESLA
    /// attached falls back to `tesla` where the profile has no TESLA-attached costs).
    pub cost_protocol: Option<ProtocolId>,
    /// Variant (parts such as `p256-sha256`, `cam`, `digest`) of the `decap` cost for
    /// messages with a certificate digest. Parts left open take the protocol's obvious
    /// value (curve P-256 for the ECDSA protocols, the beacon message, signer `digest`)
    /// where the profile has it; a part still open on which the profile's rows differ is
    /// an error listing them (see `crate::security::costs`).
    pub verify_variant: Variant,
    /// Variant of the `decap` cost for messages carrying the full certificate (default: the
    /// verify variant with signer `certificate` where the profile has it, else the verify
    /// cost, with a note).
    pub verify_certificate_variant: Variant,
    /// Variant of the `encap` cost of the sender (open parts as for `verify_variant`).
    pub sign_variant: Variant,
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
    /// `deadline_policy` says when the loss is decided. Default [`DEFAULT_DEADLINE_MS`]
    /// (a CAM period); for TESLA, whose packets wait for their key, a deadline must be
    /// given above the key disclosure delay (the default is refused there).
    pub deadline_ms: Option<f64>,
    pub deadline_policy: DeadlinePolicy,
    /// Security bytes on a message with a certificate digest (default: the profile's sizes
    /// for the protocol, else the papers'). Refused for the experimental designs, whose
    /// sizes come from their real encoder.
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
    /// After verifying the certificate of a station not heard before, the next own CAM
    /// carries the full certificate (with `certificate` every n-th or per interval), so the
    /// newcomer can verify this station at once: what the real IEEE 1609.2 stack
    /// (v2x-security's SN-ENCAP) does. Off by default: the papers' schedules are periodic.
    pub certificate_on_new_station: bool,
    /// IEEE 1609.2 peer-to-peer certificate distribution (§8.4, `inlineP2pcdRequest`): a
    /// station that cannot verify a digest-signed CAM because it lacks the signer's
    /// certificate asks for it in its next own CAMs, as `v2x-security` does: each signer once,
    /// up to 8 per CAM (+[`P2PCD_REQUEST_BYTES`] for one, 3 more per further HashedId3), at
    /// most 64 waiting; the signer, on verifying a CAM that asks for its certificate, attaches
    /// it to its next CAM. Only the owner answers (the standard also lets any holder answer:
    /// not modelled). A request is read only from a verified message, as in `v2x-security`.
    /// Off by default; with `certificate = { policy = "on-request" }` a certificate goes out on
    /// the first CAM and then only when asked (and on a new station with
    /// `certificate_on_new_station`). Cost model, on 802.11p and the sidelink (which counts a
    /// CAM of an unknown signer as lost when a rule depends on who holds what).
    pub p2pcd: bool,
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
    /// The receiver's verification strategy (`[variant.verifier]`).
    pub verifier: VerifierConfig,
}

impl Default for VariantConfig {
    fn default() -> Self {
        VariantConfig {
            name: "no-security".into(),
            protocol: ProtocolId::None,
            mode: SecurityMode::CostModel,
            profile: String::new(),
            cost_protocol: None,
            verify_variant: Variant::default(),
            verify_certificate_variant: Variant::default(),
            sign_variant: Variant::default(),
            verify_cost_us: 0.0,
            sign_cost_us: 0.0,
            cores: 0,
            signing: SigningCore::OwnCore,
            service_time_spread: None,
            order: QueueOrder::Fifo,
            deadline_ms: None,
            deadline_policy: DeadlinePolicy::DropAtStart,
            overhead_bytes: None,
            overhead_with_certificate_bytes: None,
            certificate: None,
            require_known_certificate: true,
            certificate_on_new_station: false,
            p2pcd: false,
            tesla_disclosure_delay_s: None,
            tesla_key_frame_bytes: None,
            tesla_attached_key_bytes: None,
            freshness_ms: 2000.0,
            verifier: VerifierConfig::default(),
        }
    }
}

/// The deadline of a variant that gives none: one CAM period at 10 Hz (paper 000 drops
/// CAMs not verified within 100 ms).
pub const DEFAULT_DEADLINE_MS: f64 = 100.0;

/// Bytes one P2PCD request adds to a CAM. `inlineP2pcdRequest` is an extension addition of
/// IEEE 1609.2's `HeaderInfo`, so C-OER adds the extension-addition bitmap (length, unused
/// bits, one octet: 3), the open type's length (1) and a `SequenceOfHashedId3` of one
/// (quantity 0x01 0x01 and the 3-byte HashedId3: 5). The real stack's encoding agrees
/// (v2x-sim-crypto's `p2pcd_size` test).
pub const P2PCD_REQUEST_BYTES: u32 = 9;

/// Checks that a protocol is simulated; the error lists the simulated ones.
pub fn check_simulated(field: &str, id: ProtocolId) -> Result<ProtocolId, ScenarioError> {
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

impl VariantConfig {
    /// The deadline in ms: the scenario's, else [`DEFAULT_DEADLINE_MS`].
    pub fn deadline_ms(&self) -> f64 {
        self.deadline_ms.unwrap_or(DEFAULT_DEADLINE_MS)
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
        check_simulated(&f("protocol"), self.protocol)?;
        nonneg(&f("verify_cost_us"), self.verify_cost_us)?;
        nonneg(&f("sign_cost_us"), self.sign_cost_us)?;
        if let Some(d) = self.deadline_ms {
            pos(&f("deadline_ms"), d)?;
        }
        pos(&f("freshness_ms"), self.freshness_ms)?;
        if let Some(d) = self.tesla_disclosure_delay_s {
            pos(&f("tesla_disclosure_delay_s"), d)?;
        }
        if self.verifier.strategy == VerifierStrategy::Precomputed {
            nonneg(&f("verifier.table_cost_us"), self.verifier.table_cost_us)?;
            pos(&f("verifier.table_build_us"), self.verifier.table_build_us)?;
            if self.verifier.build_after == 0 {
                return Err(ScenarioError::invalid(f("verifier.build_after"), "must be at least 1"));
            }
        }
        if let Some(Err(e)) = self.service_time_spread.as_ref().map(v2x_profile::Spread::check) {
            return Err(ScenarioError::invalid(f("service_time_spread"), e));
        }
        if self.p2pcd && self.mode == SecurityMode::RealCrypto {
            return Err(ScenarioError::invalid(
                f("p2pcd"),
                "real-crypto stations follow the real stack's own certificate rules (v2x-security's CAM \
                 profile); p2pcd is a cost-model key",
            ));
        }
        if self.cores > 1024 {
            return Err(ScenarioError::invalid(f("cores"), "at most 1024"));
        }
        if self.protocol.is_experimental_pq()
            && (self.overhead_bytes.is_some() || self.overhead_with_certificate_bytes.is_some())
        {
            return Err(ScenarioError::invalid(
                f("overhead_bytes"),
                format!(
                    "{}: the sizes of an experimental design come from its real encoder (a CAM of the \
                     scenario's payload encoded at load), not from the scenario",
                    self.protocol
                ),
            ));
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
            Some(CertificatePolicy::Never) if self.p2pcd => {
                return Err(ScenarioError::invalid(
                    f("p2pcd"),
                    "with certificate policy \"never\" no station can answer a request (and a request is \
                     read only from a verified message); use policy \"on-request\"",
                ));
            }
            Some(CertificatePolicy::OnRequest) if !self.p2pcd && !self.certificate_on_new_station => {
                return Err(ScenarioError::invalid(
                    f("certificate.policy"),
                    "\"on-request\" needs p2pcd = true or certificate_on_new_station = true (otherwise only \
                     the first CAM would carry the certificate)",
                ));
            }
            _ => {}
        }
        Ok(())
    }
}
