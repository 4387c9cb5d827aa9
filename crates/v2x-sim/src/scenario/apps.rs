//! `[cam]` and `[query]`: the applications (periodic CAM/BSM beacons, the V2I
//! request/reply query service).

use super::check::{nonneg, pos};
use super::mac::AccessCategory;
use crate::error::ScenarioError;
use serde::{Deserialize, Serialize};
use v2x_profile::{CurveId, HashId, ProtocolId, Variant};

/// Periodic CAM/BSM beacons.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CamConfig {
    pub enabled: bool,
    pub rate_hz: f64,
    /// Application payload before security.
    pub payload_bytes: u32,
    pub access_category: AccessCategory,
    /// Start offsets per node (s); empty draws a uniform phase in [0, 1/rate).
    pub start_offsets_s: Vec<f64>,
    /// Road side units also beacon.
    pub rsus_send: bool,
    /// Generation jitter (ms): each interval between two CAMs of a station is the period
    /// plus a uniform draw in [0, jitter]. ETSI EN 302 637-2 (6.1.3) lets the interval
    /// T_GenCam vary between T_GenCamMin = 100 ms and T_GenCamMax = 1000 ms (generation is
    /// checked every T_CheckCamGen <= T_GenCamMin), so a jitter may only lengthen it:
    /// period + jitter must stay at or below 1000 ms. 0 = strictly periodic.
    pub generation_jitter_ms: f64,
}

impl Default for CamConfig {
    fn default() -> Self {
        CamConfig {
            enabled: true,
            rate_hz: 10.0,
            payload_bytes: 100,
            access_category: AccessCategory::Voice,
            start_offsets_s: Vec::new(),
            rsus_send: false,
            generation_jitter_ms: 0.0,
        }
    }
}

/// V2I request/reply query service with encryption (paper 000 §5.2.2).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct QueryConfig {
    pub enabled: bool,
    /// Share of the vehicles that send a request in each second (Poisson rate per vehicle, 1/s).
    pub request_rate_per_vehicle_hz: f64,
    pub request_payload_bytes: u32,
    pub reply_payload_bytes: u32,
    /// Encryption overhead per message (ECIES-P256 + AES-CCM-128: 171 bytes, paper 000).
    pub encryption_overhead_bytes: u32,
    /// Protocol and variant whose `encap` / `decap` costs at level `encrypt` apply.
    pub cost_protocol: ProtocolId,
    pub cost_variant: Variant,
    /// Replies later than this after the request count as failures.
    pub timeout_s: f64,
    pub access_category: AccessCategory,
}

impl Default for QueryConfig {
    fn default() -> Self {
        QueryConfig {
            enabled: false,
            request_rate_per_vehicle_hz: 0.15,
            request_payload_bytes: 40,
            reply_payload_bytes: 200,
            encryption_overhead_bytes: 171,
            cost_protocol: ProtocolId::EtsiV121,
            cost_variant: Variant {
                curve: Some(CurveId::P256),
                hash: Some(HashId::Sha256),
                ..Variant::default()
            },
            timeout_s: 2.0,
            access_category: AccessCategory::BestEffort,
        }
    }
}

impl CamConfig {
    /// Checks value ranges; the error names the field.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        pos("cam.rate_hz", self.rate_hz)?;
        if self.rate_hz > 10_000.0 {
            return Err(ScenarioError::invalid("cam.rate_hz", "at most 10000 Hz"));
        }
        if self.payload_bytes > 4000 {
            return Err(ScenarioError::invalid("cam.payload_bytes", "at most 4000"));
        }
        nonneg("cam.generation_jitter_ms", self.generation_jitter_ms)?;
        if self.generation_jitter_ms > 0.0 && 1000.0 / self.rate_hz + self.generation_jitter_ms > 1000.0 {
            return Err(ScenarioError::invalid(
                "cam.generation_jitter_ms",
                "the period plus the jitter must stay within T_GenCamMax = 1000 ms (EN 302 637-2)",
            ));
        }
        for o in &self.start_offsets_s {
            nonneg("cam.start_offsets_s", *o)?;
        }
        Ok(())
    }
}

impl QueryConfig {
    /// Checks value ranges and names; the error names the field.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        let q = self;
        nonneg("query.request_rate_per_vehicle_hz", q.request_rate_per_vehicle_hz)?;
        pos("query.timeout_s", q.timeout_s)?;
        if q.request_payload_bytes > 4000 || q.reply_payload_bytes > 4000 || q.encryption_overhead_bytes > 4000 {
            return Err(ScenarioError::invalid(
                "query.request_payload_bytes",
                "payloads and overhead at most 4000 bytes",
            ));
        }
        Ok(())
    }
}
