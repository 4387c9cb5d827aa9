//! Security cost models per protocol: packet sizes, certificate and key schedules, and
//! service times drawn from a processor profile. No real cryptography runs here.

use crate::error::SimError;
use crate::scenario::{CertificatePolicy, QueryConfig, QueueOrder, VariantConfig};
use v2x_profile::{LatencyDistribution, ProcessorProfile};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProtocolKind {
    None,
    Ieee1609,
    EtsiV121,
    Raw,
    Tesla,
    TeslaAttached,
    HashChain,
}

impl ProtocolKind {
    pub fn from_id(id: &str) -> Option<ProtocolKind> {
        Some(match id {
            "none" => ProtocolKind::None,
            "ieee1609.2" => ProtocolKind::Ieee1609,
            "etsi-v1.2.1" => ProtocolKind::EtsiV121,
            "raw" => ProtocolKind::Raw,
            "tesla" => ProtocolKind::Tesla,
            "tesla-attached" => ProtocolKind::TeslaAttached,
            "hash-chain" => ProtocolKind::HashChain,
            _ => return None,
        })
    }

    pub fn id(self) -> &'static str {
        match self {
            ProtocolKind::None => "none",
            ProtocolKind::Ieee1609 => "ieee1609.2",
            ProtocolKind::EtsiV121 => "etsi-v1.2.1",
            ProtocolKind::Raw => "raw",
            ProtocolKind::Tesla => "tesla",
            ProtocolKind::TeslaAttached => "tesla-attached",
            ProtocolKind::HashChain => "hash-chain",
        }
    }

    /// Default security bytes (digest-signed, with certificate).
    ///
    /// - 1609.2 BSM: 93 / 180 (paper 001 Table 1);
    /// - ETSI TS 103 097 v1.2.1 CAM: 106 / 288 (paper 000 Table 6);
    /// - raw ECDSA P-256 signature: 64;
    /// - TESLA: 10-byte MAC (paper 004) + 4-byte key interval index;
    /// - hash chain: 20 B pseudo-ID + 12 B HMAC + 4 B key index + 4 B timestamp (paper 001).
    pub fn default_overhead(self) -> (u32, u32) {
        match self {
            ProtocolKind::None => (0, 0),
            ProtocolKind::Ieee1609 => (93, 180),
            ProtocolKind::EtsiV121 => (106, 288),
            ProtocolKind::Raw => (64, 64),
            ProtocolKind::Tesla | ProtocolKind::TeslaAttached => (14, 14),
            ProtocolKind::HashChain => (40, 40),
        }
    }

    /// Default certificate schedule: every 5th BSM (paper 001), once per second for ETSI
    /// CAMs (paper 000), never for protocols without certificates.
    pub fn default_certificate(self) -> CertificatePolicy {
        match self {
            ProtocolKind::Ieee1609 => CertificatePolicy::EveryNth { n: 5 },
            ProtocolKind::EtsiV121 => CertificatePolicy::Interval { interval_s: 1.0 },
            _ => CertificatePolicy::Never,
        }
    }

    pub fn is_tesla(self) -> bool {
        matches!(self, ProtocolKind::Tesla | ProtocolKind::TeslaAttached)
    }

    /// Whether messages carry certificates (or digests of them).
    pub fn uses_certificates(self) -> bool {
        matches!(self, ProtocolKind::Ieee1609 | ProtocolKind::EtsiV121)
    }
}

/// A service-time distribution in ns, or free.
#[derive(Debug, Clone, PartialEq)]
pub enum Cost {
    Free,
    Dist(LatencyDistribution),
}

impl Cost {
    /// Service time for a uniform draw `u` (inverse-transform sampling).
    pub fn sample_ns(&self, u: f64) -> u64 {
        match self {
            Cost::Free => 0,
            Cost::Dist(d) => (d.at_quantile(u).max(0.0) * 1000.0).round() as u64,
        }
    }

    pub fn mean_us(&self) -> f64 {
        match self {
            Cost::Free => 0.0,
            Cost::Dist(d) => d.mean_us,
        }
    }
}

/// A variant resolved against its profile.
#[derive(Debug, Clone)]
pub struct SecurityModel {
    pub name: String,
    pub kind: ProtocolKind,
    pub overhead_digest: u32,
    pub overhead_certificate: u32,
    pub certificate: CertificatePolicy,
    pub require_known_certificate: bool,
    pub sign: Cost,
    pub verify: Cost,
    pub verify_certificate: Cost,
    pub encrypt: Cost,
    pub decrypt: Cost,
    pub cores: u32,
    pub order: QueueOrder,
    pub deadline_ns: u64,
    pub freshness_ns: u64,
    pub tesla_disclosure_ns: u64,
    pub tesla_key_frame_bytes: u32,
    pub tesla_attached_key_bytes: u32,
    pub profile_name: String,
    /// Assumptions taken while resolving (reported with the results).
    pub notes: Vec<String>,
}

fn s_to_ns(s: f64) -> u64 {
    (s.clamp(0.0, 4e9) * 1e9).round() as u64
}

impl SecurityModel {
    pub fn resolve(v: &VariantConfig, query: &QueryConfig) -> Result<SecurityModel, SimError> {
        let err = |m: String| SimError::Costs {
            variant: v.name.clone(),
            message: m,
        };
        let kind = ProtocolKind::from_id(&v.protocol).ok_or_else(|| err(format!("unknown protocol {}", v.protocol)))?;
        let profile = if v.profile.is_empty() {
            None
        } else {
            Some(ProcessorProfile::builtin_or_load(&v.profile).map_err(|e| err(e.to_string()))?)
        };
        let cost_protocol = if !v.cost_protocol.is_empty() {
            v.cost_protocol.clone()
        } else if kind == ProtocolKind::TeslaAttached {
            "tesla".to_string()
        } else {
            kind.id().to_string()
        };
        let mut notes = Vec::new();
        let lookup = |op: &str, variant: &str| -> Result<Cost, SimError> {
            let p = profile.as_ref().ok_or_else(|| {
                err(format!(
                    "needs a profile (or a fixed cost) for {cost_protocol}/{op}: set `profile` or `{op}_cost_us`"
                ))
            })?;
            let c = p.require(&cost_protocol, op, variant).map_err(|e| err(e.to_string()))?;
            Ok(Cost::Dist(c.latency.clone()))
        };
        let (verify, verify_certificate, sign) = if kind == ProtocolKind::None {
            (Cost::Free, Cost::Free, Cost::Free)
        } else {
            let verify = if v.verify_cost_us > 0.0 {
                Cost::Dist(LatencyDistribution::fixed(v.verify_cost_us))
            } else {
                lookup("verify", &v.verify_variant)?
            };
            let verify_certificate = if v.verify_cost_us > 0.0 || v.verify_certificate_variant.is_empty() {
                verify.clone()
            } else {
                lookup("verify", &v.verify_certificate_variant)?
            };
            let sign = if v.sign_cost_us > 0.0 {
                Cost::Dist(LatencyDistribution::fixed(v.sign_cost_us))
            } else {
                match lookup("sign", &v.sign_variant) {
                    Ok(c) => c,
                    Err(e) => {
                        notes.push(format!("signing modelled as free: {e}"));
                        Cost::Free
                    }
                }
            };
            (verify, verify_certificate, sign)
        };
        let (encrypt, decrypt) = if query.enabled && kind != ProtocolKind::None {
            let p = profile
                .as_ref()
                .ok_or_else(|| err("the query service needs a profile with encrypt/decrypt costs".into()))?;
            let get = |op: &str| {
                p.require(&query.cost_protocol, op, &query.cost_variant)
                    .map(|c| Cost::Dist(c.latency.clone()))
                    .map_err(|e| err(e.to_string()))
            };
            (get("encrypt")?, get("decrypt")?)
        } else {
            (Cost::Free, Cost::Free)
        };
        let (d_dig, d_cert) = kind.default_overhead();
        let cores = if v.cores > 0 {
            v.cores
        } else {
            profile.as_ref().map_or(1, |p| p.cores.max(1))
        };
        Ok(SecurityModel {
            name: v.name.clone(),
            kind,
            overhead_digest: v.overhead_bytes.unwrap_or(d_dig),
            overhead_certificate: v.overhead_with_certificate_bytes.or(v.overhead_bytes).unwrap_or(d_cert),
            certificate: v.certificate.unwrap_or_else(|| kind.default_certificate()),
            require_known_certificate: v.require_known_certificate && kind.uses_certificates(),
            sign,
            verify,
            verify_certificate,
            encrypt,
            decrypt,
            cores,
            order: v.order,
            deadline_ns: s_to_ns(v.deadline_ms / 1000.0),
            freshness_ns: s_to_ns(v.freshness_ms / 1000.0),
            tesla_disclosure_ns: s_to_ns(v.tesla_disclosure_delay_s),
            tesla_key_frame_bytes: v.tesla_key_frame_bytes,
            tesla_attached_key_bytes: v.tesla_attached_key_bytes,
            profile_name: profile.map(|p| p.name).unwrap_or_default(),
            notes,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_paper_costs_and_defaults() {
        let v = VariantConfig {
            name: "x".into(),
            protocol: "etsi-v1.2.1".into(),
            profile: "xeon-e5-2667".into(),
            verify_variant: "p256-sha256".into(),
            sign_variant: "p256-sha256".into(),
            ..VariantConfig::default()
        };
        let m = SecurityModel::resolve(&v, &QueryConfig::default()).unwrap();
        assert_eq!(m.verify.sample_ns(0.5), 3_010_000);
        assert_eq!(m.sign.sample_ns(0.1), 370_000);
        assert_eq!((m.overhead_digest, m.overhead_certificate), (106, 288));
        assert!(m.require_known_certificate);
        let bad = VariantConfig {
            verify_variant: "p999".into(),
            ..v.clone()
        };
        assert!(SecurityModel::resolve(&bad, &QueryConfig::default()).is_err());
        let none = SecurityModel::resolve(&VariantConfig::default(), &QueryConfig::default()).unwrap();
        assert_eq!(none.verify, Cost::Free);
        let fixed = VariantConfig {
            name: "t".into(),
            protocol: "tesla".into(),
            verify_cost_us: 40.0,
            ..Default::default()
        };
        let t = SecurityModel::resolve(&fixed, &QueryConfig::default()).unwrap();
        assert_eq!(t.verify.sample_ns(0.9), 40_000);
        assert!(!t.notes.is_empty(), "free signing is reported");
    }
}
