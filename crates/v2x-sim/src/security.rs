//! Security cost models per protocol: packet sizes, certificate and key schedules, and
//! service times drawn from a processor profile. No real cryptography runs here.
//!
//! Costs use the profile vocabulary: a sender pays `encap` and a receiver `decap` at level
//! `sign` (the V2I query service: level `encrypt`); a bare signature (`raw`) pays raw ECDSA
//! `sign` / `verify`. Sizes come from the profile's
//! [`PacketSizes`] for the protocol (measured by `v2x bench`, or the papers' in shipped
//! profiles), else from the papers' defaults; scenario keys override both.

use crate::error::{CostsError, SimError};
use crate::scenario::{
    parse_protocol, parse_variant, CertificatePolicy, DeadlinePolicy, QueryConfig, QueueOrder, SecurityMode,
    SigningCore, VariantConfig, VerifierStrategy,
};
use serde::Serialize;
use v2x_profile::{
    LatencyDistribution, Level, Method, Operation, OperationCost, PacketSizes, ProcessorProfile, ProtocolId,
    SignerKind, Variant,
};

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

/// Which cost a role of the model uses and where it comes from (reported with the results).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CostUse {
    /// `sign`, `verify`, `verify-certificate`, `encrypt` or `decrypt`.
    pub role: &'static str,
    /// The profile's `protocol/operation/variant`, when from a profile.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// `profile NAME`, `scenario (fixed)` or `free`.
    pub source: String,
    pub mean_us: f64,
    /// How service times are drawn: `measured quantiles`, `lognormal cv 0.05` (a named
    /// spread around the mean) or `fixed` (always the mean).
    pub spread: String,
}

fn spread_name(l: &LatencyDistribution) -> String {
    match &l.spread {
        _ if !l.quantiles.is_empty() => "measured quantiles".into(),
        Some(s) if s.cv > 0.0 => format!("{} cv {}", s.family, s.cv),
        _ => "fixed".into(),
    }
}

/// The sizes a model uses and where they come from.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SizesUse {
    /// `profile NAME (measured)`, `profile NAME (paper ...)`, or `paper default (...)`;
    /// `scenario` when the scenario overrides the overhead.
    pub source: String,
    pub overhead_bytes: u32,
    pub overhead_with_certificate_bytes: u32,
    pub certificate: CertificatePolicy,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tesla_key_frame_bytes: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tesla_attached_key_bytes: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tesla_disclosure_delay_s: Option<f64>,
}

/// The receiver's verification strategy with its costs (see [`crate::signer_tables`]).
#[derive(Debug, Clone, PartialEq)]
pub enum VerifierModel {
    /// Every digest-signed message at [`SecurityModel::verify`].
    Plain,
    /// Per-signer tables: first-seen signers at [`SecurityModel::verify`], then `build`
    /// once, then `table` per message; at most `max_tables` per receiver.
    Precomputed {
        table: Cost,
        build: Cost,
        build_after: u32,
        max_tables: usize,
    },
}

/// The methods of profile rows that already measure a per-signer table.
const TABLE_METHODS: [Method; 3] = [
    Method::PrecomputedTable100,
    Method::Repeat100Precomputed,
    Method::Repeat100PrecomputedCompressedR,
];

/// A variant resolved against its profile.
#[derive(Debug, Clone)]
pub struct SecurityModel {
    pub name: String,
    pub kind: ProtocolId,
    pub overhead_digest: u32,
    pub overhead_certificate: u32,
    pub certificate: CertificatePolicy,
    pub require_known_certificate: bool,
    pub certificate_on_new_station: bool,
    pub sign: Cost,
    pub verify: Cost,
    pub verify_certificate: Cost,
    pub encrypt: Cost,
    pub decrypt: Cost,
    /// How digest-signed messages are verified (`[variant.verifier]`).
    pub verifier: VerifierModel,
    pub mode: SecurityMode,
    pub cores: u32,
    pub signing: SigningCore,
    pub order: QueueOrder,
    pub deadline_ns: u64,
    pub deadline_policy: DeadlinePolicy,
    pub freshness_ns: u64,
    pub tesla_disclosure_ns: u64,
    pub tesla_key_frame_bytes: u32,
    pub tesla_attached_key_bytes: u32,
    pub profile_name: String,
    /// Every cost used, with its key and source.
    pub costs: Vec<CostUse>,
    pub sizes: SizesUse,
    /// Assumptions taken while resolving (reported with the results).
    pub notes: Vec<String>,
}

fn s_to_ns(s: f64) -> u64 {
    (s.clamp(0.0, 4e9) * 1e9).round() as u64
}

fn level(l: Level) -> Variant {
    Variant {
        level: Some(l),
        ..Variant::default()
    }
}

/// What resolving one variant needs besides the variant itself.
struct Resolver<'a> {
    v: &'a VariantConfig,
    profile: Option<&'a ProcessorProfile>,
    costs: Vec<CostUse>,
}

impl Resolver<'_> {
    fn err(&self, message: String) -> SimError {
        SimError::Costs {
            variant: self.v.name.clone(),
            source: CostsError::Missing(message),
        }
    }

    fn profile_err(&self, e: v2x_profile::ProfileError) -> SimError {
        SimError::Costs {
            variant: self.v.name.clone(),
            source: CostsError::Profile(Box::new(e)),
        }
    }

    fn profile(&self, what: &str) -> Result<&ProcessorProfile, SimError> {
        self.profile
            .ok_or_else(|| self.err(format!("needs a profile (or a fixed cost) for {what}")))
    }

    /// A profile's cost: its measured quantiles, else its mean spread by the scenario's
    /// `service_time_spread`, else by the profile's documented spread.
    fn record(&mut self, role: &'static str, c: &OperationCost, profile: &str) -> Cost {
        let mut latency = match self.profile {
            Some(p) => p.latency(c),
            None => c.latency.clone(),
        };
        if latency.quantiles.is_empty() && self.v.service_time_spread.is_some() {
            latency.spread = self.v.service_time_spread.clone();
        }
        self.costs.push(CostUse {
            role,
            key: Some(c.key().to_string()),
            source: format!("profile {profile}"),
            mean_us: c.latency.mean_us,
            spread: spread_name(&latency),
        });
        Cost::Dist(latency)
    }

    fn fixed(&mut self, role: &'static str, us: f64) -> Cost {
        let latency = LatencyDistribution::spread(us, self.v.service_time_spread.clone());
        self.costs.push(CostUse {
            role,
            key: None,
            source: "scenario (fixed)".into(),
            mean_us: us,
            spread: spread_name(&latency),
        });
        Cost::Dist(latency)
    }

    fn free(&mut self, role: &'static str) -> Cost {
        self.costs.push(CostUse {
            role,
            key: None,
            source: "free".into(),
            mean_us: 0.0,
            spread: "none".into(),
        });
        Cost::Free
    }
}

impl SecurityModel {
    /// Whether message `seq` of a station, signed at `now` (ns), carries the full
    /// certificate rather than its digest, by the variant's schedule; `heard_new`: the
    /// station has just verified a station it did not know (`certificate_on_new_station`).
    /// `last_ns` is the station's last certificate time, updated here.
    pub fn carries_certificate(&self, seq: u64, now: u64, heard_new: bool, last_ns: &mut Option<u64>) -> bool {
        match self.certificate {
            CertificatePolicy::Always => true,
            CertificatePolicy::Never => false,
            CertificatePolicy::EveryNth { n } => heard_new || seq.is_multiple_of(u64::from(n.max(1))),
            CertificatePolicy::Interval { interval_s } => {
                let due = heard_new || last_ns.is_none_or(|t| now >= t + crate::time::ns(interval_s));
                if due {
                    *last_ns = Some(now);
                }
                due
            }
        }
    }

    /// Resolves a variant: `mac_overhead_bytes` turns a measured TESLA key packet into a
    /// whole frame.
    pub fn resolve(v: &VariantConfig, query: &QueryConfig, mac_overhead_bytes: u32) -> Result<SecurityModel, SimError> {
        let scenario_err = |e: crate::error::ScenarioError| SimError::Costs {
            variant: v.name.clone(),
            source: CostsError::Scenario(e),
        };
        let kind = parse_protocol("protocol", &v.protocol).map_err(scenario_err)?;
        let profile = if v.profile.is_empty() {
            None
        } else {
            Some(
                ProcessorProfile::builtin_or_load(&v.profile).map_err(|e| SimError::Costs {
                    variant: v.name.clone(),
                    source: CostsError::Profile(Box::new(e)),
                })?,
            )
        };
        let mut r = Resolver {
            v,
            profile: profile.as_ref(),
            costs: Vec::new(),
        };
        let mut notes = Vec::new();
        let has_decap = |p: ProtocolId| {
            profile.as_ref().is_some_and(|pr| {
                pr.costs
                    .iter()
                    .any(|c| c.protocol == p && c.operation == Operation::Decap)
            })
        };
        let cost_protocol = if !v.cost_protocol.is_empty() {
            v.cost_protocol
                .parse()
                .map_err(|e| r.err(format!("cost_protocol: {e}")))?
        } else if kind == ProtocolId::TeslaAttached && !has_decap(kind) {
            // Published TESLA costs do not distinguish the key-disclosure modes.
            ProtocolId::Tesla
        } else {
            kind
        };
        // A sender pays the security service's `encap`, a receiver its `decap`; a bare
        // signature (`raw`) costs a raw ECDSA `sign` / `verify`.
        let (send_op, receive_op) = if cost_protocol == ProtocolId::Raw {
            (Operation::Sign, Operation::Verify)
        } else {
            (Operation::Encap, Operation::Decap)
        };
        let wanted = |field: &str, text: &str, l: Level| -> Result<Variant, SimError> {
            Ok(level(l).with(&parse_variant(field, text).map_err(scenario_err)?))
        };
        let mut verify_variant = Variant::default();
        let (verify, verify_certificate, sign) = if kind == ProtocolId::None {
            (r.free("verify"), r.free("verify-certificate"), r.free("sign"))
        } else {
            let verify = if v.verify_cost_us > 0.0 {
                r.fixed("verify", v.verify_cost_us)
            } else {
                let w = wanted("verify_variant", &v.verify_variant, Level::Sign)?;
                let p = r.profile(&format!(
                    "{cost_protocol}/{receive_op}: set `profile` or `verify_cost_us`"
                ))?;
                let c = p.require(cost_protocol, receive_op, &w).map_err(|e| r.profile_err(e))?;
                verify_variant = c.variant;
                let (c, name) = (c.clone(), p.name.clone());
                r.record("verify", &c, &name)
            };
            let verify_certificate = if v.verify_cost_us > 0.0 {
                r.fixed("verify-certificate", v.verify_cost_us)
            } else if !v.verify_certificate_variant.is_empty() {
                let w = wanted("verify_certificate_variant", &v.verify_certificate_variant, Level::Sign)?;
                let p = r.profile("verify_certificate_variant")?;
                let c = p.require(cost_protocol, receive_op, &w).map_err(|e| r.profile_err(e))?;
                let (c, name) = (c.clone(), p.name.clone());
                r.record("verify-certificate", &c, &name)
            } else {
                // The verify cost with signer `certificate`, where the profile names one.
                let mut w = wanted("verify_variant", &v.verify_variant, Level::Sign)?;
                w.signer = Some(SignerKind::Certificate);
                let p = r.profile("verify-certificate")?;
                let found = p
                    .costs
                    .iter()
                    .find(|c| {
                        c.protocol == cost_protocol
                            && c.operation == receive_op
                            && c.variant.signer == Some(SignerKind::Certificate)
                            && c.variant.satisfies(&w)
                    })
                    .or_else(|| p.cost(cost_protocol, receive_op, &verify_variant))
                    .cloned();
                let name = p.name.clone();
                match found {
                    Some(c) => r.record("verify-certificate", &c, &name),
                    None => verify.clone(),
                }
            };
            let sign = if v.sign_cost_us > 0.0 {
                r.fixed("sign", v.sign_cost_us)
            } else {
                let w = wanted("sign_variant", &v.sign_variant, Level::Sign)?;
                let found = match r.profile.as_ref() {
                    None => Err(format!(
                        "needs a profile (or a fixed cost) for {cost_protocol}/{send_op}: set `profile` or `sign_cost_us`"
                    )),
                    Some(p) => p
                        .require(cost_protocol, send_op, &w)
                        .map(|c| (c.clone(), p.name.clone()))
                        .map_err(|e| e.to_string()),
                };
                match found {
                    Ok((c, name)) => r.record("sign", &c, &name),
                    Err(e) => {
                        notes.push(format!("signing modelled as free: {e}"));
                        r.free("sign")
                    }
                }
            };
            (verify, verify_certificate, sign)
        };
        let verifier = match v.verifier.strategy {
            VerifierStrategy::Plain => VerifierModel::Plain,
            VerifierStrategy::Precomputed if kind == ProtocolId::None => VerifierModel::Plain,
            VerifierStrategy::Precomputed => {
                if verify_variant.method.is_some_and(|m| TABLE_METHODS.contains(&m)) {
                    return Err(r.err(format!(
                        "verifier `precomputed`: the first-seen cost must be a verification without a table, \
                         but verify_variant resolves to `{verify_variant}`; name a plain row, e.g. `repeat100-plain`"
                    )));
                }
                let table = if v.verifier.table_cost_us > 0.0 {
                    r.fixed("verify-with-table", v.verifier.table_cost_us)
                } else {
                    let method = if cost_protocol == ProtocolId::Raw {
                        Method::PrecomputedTable100
                    } else {
                        Method::Repeat100Precomputed
                    };
                    let mut w = wanted("verify_variant", &v.verify_variant, Level::Sign)?;
                    w.method = Some(method);
                    let w = w.with(
                        &parse_variant("verifier.table_variant", &v.verifier.table_variant).map_err(scenario_err)?,
                    );
                    let p = r.profile("verifier `precomputed`: set `profile` or `verifier.table_cost_us`")?;
                    let c = p.require(cost_protocol, receive_op, &w).map_err(|e| r.profile_err(e))?;
                    let (c, name) = (c.clone(), p.name.clone());
                    r.record("verify-with-table", &c, &name)
                };
                let build = r.fixed("table-build", v.verifier.table_build_us);
                VerifierModel::Precomputed {
                    table,
                    build,
                    build_after: v.verifier.build_after.max(1),
                    max_tables: v.verifier.max_tables as usize,
                }
            }
        };
        let (encrypt, decrypt) = if query.enabled && kind != ProtocolId::None {
            let p = r.profile("the query service's encap/decap at level encrypt")?;
            let qp: ProtocolId = query
                .cost_protocol
                .parse()
                .map_err(|e| r.err(format!("query.cost_protocol: {e}")))?;
            let w = level(Level::Encrypt)
                .with(&parse_variant("query.cost_variant", &query.cost_variant).map_err(scenario_err)?);
            let e = p
                .require(qp, Operation::Encap, &w)
                .map_err(|e| r.profile_err(e))?
                .clone();
            let d = p
                .require(qp, Operation::Decap, &w)
                .map_err(|e| r.profile_err(e))?
                .clone();
            let name = p.name.clone();
            (r.record("encrypt", &e, &name), r.record("decrypt", &d, &name))
        } else {
            (Cost::Free, Cost::Free)
        };

        // Sizes: the profile's for this protocol (the configuration the verify cost names),
        // else the papers'.
        let size_key = Variant {
            message: verify_variant.message,
            ..Variant::default()
        };
        let from_profile = profile.as_ref().and_then(|p| {
            p.sizes_for(kind, &size_key)
                .map(|s| (s.clone(), format!("profile {} ({})", p.name, s.source)))
        });
        let measured = profile
            .as_ref()
            .is_some_and(|p| matches!(p.source, v2x_profile::ProfileSource::Measured { .. }));
        let overridden = v.overhead_bytes.is_some();
        let (sizes, mut sizes_source) = match from_profile {
            Some(s) => s,
            None => {
                let s = PacketSizes::paper_default(kind)
                    .ok_or_else(|| r.err(format!("no packet sizes for {kind} in the profile or the papers")))?;
                // A measured profile's costs never meet a paper's sizes unannounced.
                if measured && !overridden && matches!(s.source, v2x_profile::SizesSource::Paper { .. }) {
                    return Err(r.err(format!(
                        "the measured profile has no packet sizes for {kind}: measure them with \
                         `v2x bench --suite protocols` or set `overhead_bytes`"
                    )));
                }
                let origin = format!("default: {}", s.source);
                (s, origin)
            }
        };
        if v.overhead_bytes.is_some() || v.overhead_with_certificate_bytes.is_some() {
            sizes_source = format!("scenario (overhead_bytes); otherwise {sizes_source}");
        }
        let key = sizes.key_disclosure;
        let overhead_digest = v.overhead_bytes.unwrap_or(sizes.overhead_bytes);
        let overhead_certificate = v
            .overhead_with_certificate_bytes
            .or(v.overhead_bytes)
            .unwrap_or(sizes.overhead_with_certificate_bytes.unwrap_or(sizes.overhead_bytes));
        let certificate = v.certificate.or(sizes.certificate).unwrap_or(CertificatePolicy::Never);
        let disclosure_s = v.tesla_disclosure_delay_s.or(key.map(|k| k.delay_s)).unwrap_or(0.1);
        let key_frame = v
            .tesla_key_frame_bytes
            .or(key.and_then(|k| k.key_frame_bytes))
            .or(key.and_then(|k| k.key_packet_bytes).map(|b| b + mac_overhead_bytes))
            .unwrap_or(43);
        let attached = v
            .tesla_attached_key_bytes
            .or(key.and_then(|k| k.attached_key_bytes))
            .unwrap_or(10);
        let cores = if v.cores > 0 {
            v.cores
        } else {
            profile.as_ref().map_or(1, |p| p.cores.max(1))
        };
        let costs = r.costs;
        Ok(SecurityModel {
            name: v.name.clone(),
            kind,
            overhead_digest,
            overhead_certificate,
            certificate,
            require_known_certificate: v.require_known_certificate && kind.uses_certificates(),
            certificate_on_new_station: v.certificate_on_new_station && kind.uses_certificates(),
            sign,
            verify,
            verify_certificate,
            encrypt,
            decrypt,
            verifier,
            mode: v.mode,
            cores,
            signing: v.signing,
            order: v.order,
            deadline_ns: s_to_ns(v.deadline_ms / 1000.0),
            deadline_policy: v.deadline_policy,
            freshness_ns: s_to_ns(v.freshness_ms / 1000.0),
            tesla_disclosure_ns: s_to_ns(disclosure_s),
            tesla_key_frame_bytes: key_frame,
            tesla_attached_key_bytes: attached,
            profile_name: profile.map(|p| p.name).unwrap_or_default(),
            costs,
            sizes: SizesUse {
                source: sizes_source,
                overhead_bytes: overhead_digest,
                overhead_with_certificate_bytes: overhead_certificate,
                certificate,
                tesla_key_frame_bytes: (kind == ProtocolId::Tesla).then_some(key_frame),
                tesla_attached_key_bytes: (kind == ProtocolId::TeslaAttached).then_some(attached),
                tesla_disclosure_delay_s: kind.is_tesla().then_some(disclosure_s),
            },
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
        let m = SecurityModel::resolve(&v, &QueryConfig::default(), 36).unwrap();
        // Paper means drawn with the profile's documented spread (lognormal, cv 0.05).
        assert_eq!(m.verify.mean_us(), 3010.0);
        let median = 3_010_000.0 / (1.0f64 + 0.05 * 0.05).sqrt();
        assert!((m.verify.sample_ns(0.5) as f64 - median).abs() < 2.0);
        assert!(m.sign.sample_ns(0.1) < 370_000 && m.sign.sample_ns(0.9) > 370_000);
        assert_eq!(m.costs[0].spread, "lognormal cv 0.05");
        // cv 0 in the scenario: every service at the mean.
        let exact = VariantConfig {
            service_time_spread: Some(v2x_profile::Spread::new(v2x_profile::SpreadFamily::Lognormal, 0.0)),
            ..v.clone()
        };
        let e = SecurityModel::resolve(&exact, &QueryConfig::default(), 36).unwrap();
        assert_eq!((e.verify.sample_ns(0.99), e.sign.sample_ns(0.1)), (3_010_000, 370_000));
        assert_eq!(e.costs[0].spread, "fixed");
        assert_eq!((m.overhead_digest, m.overhead_certificate), (106, 288));
        assert!(m.require_known_certificate);
        assert_eq!(m.costs[0].key.as_deref(), Some("etsi-v1.2.1/decap/p256-sha256/sign"));
        assert!(
            m.sizes.source.starts_with("profile xeon-e5-2667 (paper 000"),
            "{}",
            m.sizes.source
        );
        let bad = VariantConfig {
            verify_variant: "p999".into(),
            ..v.clone()
        };
        let e = SecurityModel::resolve(&bad, &QueryConfig::default(), 36)
            .unwrap_err()
            .to_string();
        assert!(e.contains("`p999`") && e.contains("p256"), "{e}");
        let none = SecurityModel::resolve(&VariantConfig::default(), &QueryConfig::default(), 36).unwrap();
        assert_eq!(none.verify, Cost::Free);
        let fixed = VariantConfig {
            name: "t".into(),
            protocol: "tesla".into(),
            verify_cost_us: 40.0,
            ..Default::default()
        };
        let t = SecurityModel::resolve(&fixed, &QueryConfig::default(), 36).unwrap();
        assert_eq!(t.verify.sample_ns(0.9), 40_000);
        assert!(!t.notes.is_empty(), "free signing is reported");
        assert_eq!((t.overhead_digest, t.tesla_key_frame_bytes), (14, 43));
        assert!(t.sizes.source.starts_with("default: paper 004"), "{}", t.sizes.source);
    }

    /// A measured profile without sizes for the protocol is an error, not the papers' sizes.
    #[test]
    fn measured_profile_without_sizes_is_refused() {
        let mut p = ProcessorProfile::builtin("i7-4610m").unwrap();
        p.source = v2x_profile::ProfileSource::Measured {
            host: "h".into(),
            date: "d".into(),
            command: "v2x bench --suite stack".into(),
        };
        p.sizes.clear();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("profile.json");
        std::fs::write(&path, p.to_json()).unwrap();
        let v = VariantConfig {
            name: "m".into(),
            protocol: "etsi-v1.2.1".into(),
            profile: path.display().to_string(),
            ..VariantConfig::default()
        };
        let e = SecurityModel::resolve(&v, &QueryConfig::default(), 36)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("no packet sizes for etsi-v1.2.1") && e.contains("--suite protocols"),
            "{e}"
        );
        let given = VariantConfig {
            overhead_bytes: Some(120),
            ..v
        };
        let m = SecurityModel::resolve(&given, &QueryConfig::default(), 36).unwrap();
        assert_eq!(m.overhead_digest, 120);
    }

    #[test]
    fn precomputed_verifier_takes_its_table_cost_from_the_profile() {
        let profile = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/profiles/verify-p256.json");
        let mut v = VariantConfig {
            name: "p".into(),
            protocol: "ieee1609.2".into(),
            profile: profile.into(),
            verify_variant: "p256/cam/digest/repeat100-plain".into(),
            sign_variant: "p256/cam/digest/fastest".into(),
            // The verify suite measures no sizes.
            overhead_bytes: Some(93),
            ..VariantConfig::default()
        };
        v.verifier.strategy = VerifierStrategy::Precomputed;
        v.verifier.table_build_us = 500.0;
        let m = SecurityModel::resolve(&v, &QueryConfig::default(), 36).unwrap();
        let VerifierModel::Precomputed { table, build, .. } = &m.verifier else {
            panic!("{:?}", m.verifier)
        };
        let key = |role: &str| m.costs.iter().find(|c| c.role == role).and_then(|c| c.key.clone());
        assert_eq!(
            key("verify-with-table").as_deref(),
            Some("ieee1609.2/decap/p256/cam/sign/digest/100/repeat100-precomputed")
        );
        assert_eq!(
            key("verify").as_deref(),
            Some("ieee1609.2/decap/p256/cam/sign/digest/100/repeat100-plain")
        );
        assert!(
            table.mean_us() < m.verify.mean_us(),
            "{} vs {}",
            table.mean_us(),
            m.verify.mean_us()
        );
        assert_eq!(build.sample_ns(0.5), 500_000);
        // A first-seen cost that is itself a table row is refused.
        v.verify_variant = "p256/cam/digest/repeat100-precomputed".into();
        let e = SecurityModel::resolve(&v, &QueryConfig::default(), 36)
            .unwrap_err()
            .to_string();
        assert!(e.contains("repeat100-plain"), "{e}");
    }

    #[test]
    fn paper_profiles_carry_sizes_and_session_schemes_are_refused() {
        let v = VariantConfig {
            name: "f".into(),
            protocol: "2flip".into(),
            profile: "mk5-software".into(),
            ..VariantConfig::default()
        };
        let m = SecurityModel::resolve(&v, &QueryConfig::default(), 36).unwrap();
        assert_eq!(m.overhead_digest, 47);
        assert_eq!(m.verify.mean_us(), 130.0);
        assert_eq!(m.sign.mean_us(), 126.0);
        let s = VariantConfig {
            protocol: "wang".into(),
            ..v
        };
        let e = SecurityModel::resolve(&s, &QueryConfig::default(), 36)
            .unwrap_err()
            .to_string();
        assert!(e.contains("not simulated") && e.contains("2flip"), "{e}");
    }
}
