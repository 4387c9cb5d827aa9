//! Security cost models per protocol: packet sizes, certificate and key schedules, and
//! service times drawn from a processor profile. No real cryptography runs here.
//!
//! A variant is resolved by concern: `costs` (which profile row each role pays, through
//! [`pick`]'s rules for parts the scenario leaves open), `sizes` (bytes on the air and
//! TESLA's key frames) and `deadline` (checked against the protocol's key delay). Costs
//! use the profile vocabulary: a sender pays `encap` and a receiver `decap` at level
//! `sign` (the V2I query service: level `encrypt`); a bare signature (`raw`) pays raw
//! ECDSA `sign` / `verify`. Every cost, size and setting is reported with where it came
//! from ([`CostUse`], [`SizesUse`], [`Setting`]).
//!
//! The EXPERIMENTAL post-quantum designs take their sizes from their real encoder alone
//! ([`SizeEncoder`], implemented by `v2x-sim-crypto`, which `v2x sim` runs): a CAM of the
//! scenario's payload is encoded once per variant when the scenario is resolved.

mod costs;
mod deadline;
pub mod p2pcd;
pub mod pick;
mod sizes;

use crate::error::{CostsError, SimError};
use crate::scenario::{
    CertificatePolicy, DeadlinePolicy, QueueOrder, Scenario, SecurityMode, SigningCore, VariantConfig,
};
use serde::Serialize;
use v2x_profile::{LatencyDistribution, Operation, ProcessorProfile, ProfileError, ProtocolId};

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
    /// `sign`, `verify`, `verify-certificate`, `verify-with-table`, `table-build`,
    /// `encrypt` or `decrypt`.
    pub role: &'static str,
    /// The profile's `protocol/operation/variant`, when from a profile.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// `profile NAME`, `scenario (fixed)` or `free`.
    pub source: String,
    /// `scenario` (every part named, or a fixed cost), `protocol` (free by definition), or
    /// `default: ...` with the defaults that picked the profile row (see [`pick`]).
    pub chosen_by: String,
    pub mean_us: f64,
    /// How service times are drawn: `measured quantiles`, `lognormal cv 0.05` (a named
    /// spread around the mean) or `fixed` (always the mean).
    pub spread: String,
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

/// The security bytes of a real CAM: secured message less its payload, with the signer's
/// digest and with its full certificate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodedSizes {
    pub digest_bytes: u32,
    pub certificate_bytes: u32,
    /// What encoded them (reported as the sizes' source).
    pub encoder: String,
}

/// Encodes a real CAM of a protocol whose sizes come from nowhere else (the experimental
/// post-quantum designs). The simulator keeps no dependency on the security stack:
/// `v2x-sim-crypto` implements this.
pub trait SizeEncoder: Sync {
    /// The sizes of a CAM of `payload_bytes` secured by protocol `kind`'s real encoder.
    fn encode(&self, kind: ProtocolId, payload_bytes: u32) -> Result<EncodedSizes, String>;
}

/// Whether a protocol's messages carry its signer's certificate or the certificate's
/// digest: the standard formats and the experimental designs built on them.
pub fn carries_certificates(kind: ProtocolId) -> bool {
    kind.uses_certificates() || kind.is_experimental_pq()
}

/// A parameter of the model that changes results, with whether the scenario or a default
/// set it (reported with the results).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Setting {
    pub name: &'static str,
    pub value: String,
    /// `scenario`, or `default (why)`, or how it follows from the protocol.
    pub from: String,
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
    /// Peer-to-peer certificate distribution (`p2pcd` of the variant).
    pub p2pcd: bool,
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
    /// The deadline as resolved (ms; the scenario's or the default).
    pub deadline_ms: f64,
    pub deadline_ns: u64,
    pub deadline_policy: DeadlinePolicy,
    pub freshness_ns: u64,
    pub tesla_disclosure_ns: u64,
    pub tesla_key_frame_bytes: u32,
    pub tesla_attached_key_bytes: u32,
    pub profile_name: String,
    /// Every cost used, with its key, source and how it was chosen.
    pub costs: Vec<CostUse>,
    pub sizes: SizesUse,
    /// The parameters that change results, with who set them.
    pub settings: Vec<Setting>,
    /// Assumptions taken while resolving and warnings (reported with the results).
    pub notes: Vec<String>,
}

fn s_to_ns(s: f64) -> u64 {
    (s.clamp(0.0, 4e9) * 1e9).round() as u64
}

/// Loads a variant's profile; a missing file says how to measure one.
fn load_profile(v: &VariantConfig) -> Result<Option<ProcessorProfile>, CostsError> {
    if v.profile.is_empty() {
        return Ok(None);
    }
    match ProcessorProfile::builtin_or_load(&v.profile) {
        Ok(p) => Ok(Some(p)),
        Err(ProfileError::Io { path, source }) if source.kind() == std::io::ErrorKind::NotFound => {
            let dir = std::path::Path::new(&path)
                .parent()
                .filter(|d| !d.as_os_str().is_empty())
                .map_or_else(|| ".".into(), |d| d.display().to_string());
            Err(CostsError::ProfileMissing { path, dir })
        }
        Err(e) => Err(CostsError::Profile(Box::new(e))),
    }
}

/// The protocol whose costs are looked up, and how it was chosen.
fn cost_protocol(v: &VariantConfig, profile: Option<&ProcessorProfile>) -> (ProtocolId, Setting) {
    let has_decap = |p: ProtocolId| {
        profile.is_some_and(|pr| {
            pr.costs
                .iter()
                .any(|c| c.protocol == p && c.operation == Operation::Decap)
        })
    };
    let (p, from) = match v.cost_protocol {
        Some(p) => (p, "scenario".to_string()),
        None if v.protocol == ProtocolId::TeslaAttached && profile.is_some() && !has_decap(v.protocol) => (
            ProtocolId::Tesla,
            "default: the profile has no tesla-attached costs; published TESLA costs do not distinguish the \
             key-disclosure modes"
                .into(),
        ),
        None => (v.protocol, "default: the variant's protocol".into()),
    };
    (
        p,
        Setting {
            name: "cost_protocol",
            value: p.to_string(),
            from,
        },
    )
}

impl SecurityModel {
    /// Whether message `seq` of a station, signed at `now` (ns), carries the full
    /// certificate rather than its digest, by the variant's schedule; `heard_new`: the
    /// station has just verified a station it did not know (`certificate_on_new_station`) or
    /// was asked for its certificate (`p2pcd`); such a message carries the certificate under
    /// every policy but `never`.
    /// `last_ns` is the station's last certificate time, updated here. The one schedule of
    /// the 802.11p engine and the sidelink.
    pub fn carries_certificate(&self, seq: u64, now: u64, heard_new: bool, last_ns: &mut Option<u64>) -> bool {
        match self.certificate {
            CertificatePolicy::Always => true,
            CertificatePolicy::Never => false,
            CertificatePolicy::OnRequest => seq == 0 || heard_new,
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

    /// Resolves variant `v` of scenario `sc` (its query service, MAC overhead and CAM rate);
    /// an experimental design is refused here (its sizes need [`Self::resolve_with`]).
    pub fn resolve(v: &VariantConfig, sc: &Scenario) -> Result<SecurityModel, SimError> {
        Self::resolve_with(v, sc, None)
    }

    /// [`Self::resolve`], with the real encoder the experimental designs take their sizes from.
    pub fn resolve_with(
        v: &VariantConfig,
        sc: &Scenario,
        encoder: Option<&dyn SizeEncoder>,
    ) -> Result<SecurityModel, SimError> {
        let err = |source: CostsError| SimError::Costs {
            variant: v.name.clone(),
            source,
        };
        let kind = crate::scenario::check_simulated("protocol", v.protocol).map_err(|e| err(e.into()))?;
        let profile = load_profile(v).map_err(err)?;
        let (cost_protocol, cost_setting) = cost_protocol(v, profile.as_ref());
        let mut c = costs::Costs {
            v,
            profile: profile.as_ref(),
            kind,
            cost_protocol,
            used: Vec::new(),
            notes: Vec::new(),
        };
        let signature = c.signature()?;
        let verifier = c.verifier(signature.verify_variant)?;
        let (encrypt, decrypt) = c.query(&sc.query)?;
        let (costs, mut notes) = (c.used, c.notes);
        let sizes = if kind.is_experimental_pq() {
            sizes::encoded(v, kind, encoder, sc.cam.payload_bytes)
        } else {
            sizes::resolve(
                v,
                kind,
                profile.as_ref(),
                &signature.verify_variant,
                sc.mac.mac_overhead_bytes,
            )
        }
        .map_err(err)?;
        let deadline = deadline::resolve(v, kind, sizes.tesla_disclosure_s, sc.cam.rate_hz).map_err(err)?;
        notes.extend(deadline.warning);
        let cores = if v.cores > 0 {
            v.cores
        } else {
            profile.as_ref().map_or(1, |p| p.cores.max(1))
        };
        let mut settings = vec![cost_setting, deadline.setting];
        settings.extend(sizes.setting.clone());
        settings.extend(deadline.key_delay);
        settings.push(Setting {
            name: "cores",
            value: cores.to_string(),
            from: if v.cores > 0 {
                "scenario".into()
            } else if profile.is_some() {
                "default: the profile's cores".into()
            } else {
                "default: one core (no profile)".into()
            },
        });
        Ok(SecurityModel {
            name: v.name.clone(),
            kind,
            overhead_digest: sizes.overhead_digest,
            overhead_certificate: sizes.overhead_certificate,
            certificate: sizes.certificate,
            require_known_certificate: v.require_known_certificate && carries_certificates(kind),
            certificate_on_new_station: v.certificate_on_new_station && carries_certificates(kind),
            p2pcd: v.p2pcd && carries_certificates(kind),
            sign: signature.sign,
            verify: signature.verify,
            verify_certificate: signature.verify_certificate,
            encrypt,
            decrypt,
            verifier,
            mode: v.mode,
            cores,
            signing: v.signing,
            order: v.order,
            deadline_ms: deadline.ms,
            deadline_ns: s_to_ns(deadline.ms / 1000.0),
            deadline_policy: v.deadline_policy,
            freshness_ns: s_to_ns(v.freshness_ms / 1000.0),
            tesla_disclosure_ns: s_to_ns(sizes.tesla_disclosure_s),
            tesla_key_frame_bytes: sizes.tesla_key_frame_bytes,
            tesla_attached_key_bytes: sizes.tesla_attached_key_bytes,
            profile_name: profile.map(|p| p.name).unwrap_or_default(),
            costs,
            sizes: sizes.used,
            settings,
            notes,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::VerifierStrategy;

    #[test]
    fn resolves_paper_costs_and_defaults() {
        let v = VariantConfig {
            name: "x".into(),
            protocol: "etsi-v1.2.1".parse().unwrap(),
            profile: "xeon-e5-2667".into(),
            verify_variant: "p256-sha256".parse().unwrap(),
            sign_variant: "p256-sha256".parse().unwrap(),
            ..VariantConfig::default()
        };
        let m = SecurityModel::resolve(&v, &Scenario::default()).unwrap();
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
        let e = SecurityModel::resolve(&exact, &Scenario::default()).unwrap();
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
        // A misspelt part is refused where the scenario is read, at its line.
        let e = Scenario::parse(
            "[[variant]]\nname = 'x'\nprotocol = 'etsi-v1.2.1'\nverify_variant = 'p999'\n",
            "t.toml",
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.starts_with("t.toml:4:") && e.contains("`p999`") && e.contains("p256"),
            "{e}"
        );
        let none = SecurityModel::resolve(&VariantConfig::default(), &Scenario::default()).unwrap();
        assert_eq!(none.verify, Cost::Free);
        let fixed = VariantConfig {
            name: "t".into(),
            protocol: "tesla".parse().unwrap(),
            verify_cost_us: 40.0,
            deadline_ms: Some(1000.0),
            ..Default::default()
        };
        let t = SecurityModel::resolve(&fixed, &Scenario::default()).unwrap();
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
            protocol: "etsi-v1.2.1".parse().unwrap(),
            profile: path.display().to_string(),
            ..VariantConfig::default()
        };
        let e = SecurityModel::resolve(&v, &Scenario::default())
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
        let m = SecurityModel::resolve(&given, &Scenario::default()).unwrap();
        assert_eq!(m.overhead_digest, 120);
    }

    #[test]
    fn precomputed_verifier_takes_its_table_cost_from_the_profile() {
        let profile = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/profiles/verify-p256.json");
        let mut v = VariantConfig {
            name: "p".into(),
            protocol: "ieee1609.2".parse().unwrap(),
            profile: profile.into(),
            verify_variant: "p256/cam/digest/repeat100-plain".parse().unwrap(),
            sign_variant: "p256/cam/digest/fastest".parse().unwrap(),
            // The verify suite measures no sizes.
            overhead_bytes: Some(93),
            ..VariantConfig::default()
        };
        v.verifier.strategy = VerifierStrategy::Precomputed;
        v.verifier.table_build_us = 500.0;
        let m = SecurityModel::resolve(&v, &Scenario::default()).unwrap();
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
        v.verify_variant = "p256/cam/digest/repeat100-precomputed".parse().unwrap();
        let e = SecurityModel::resolve(&v, &Scenario::default())
            .unwrap_err()
            .to_string();
        assert!(e.contains("repeat100-plain"), "{e}");
    }

    #[test]
    fn paper_profiles_carry_sizes_and_session_schemes_are_refused() {
        let v = VariantConfig {
            name: "f".into(),
            protocol: "2flip".parse().unwrap(),
            profile: "mk5-software".into(),
            ..VariantConfig::default()
        };
        let m = SecurityModel::resolve(&v, &Scenario::default()).unwrap();
        assert_eq!(m.overhead_digest, 47);
        assert_eq!(m.verify.mean_us(), 130.0);
        assert_eq!(m.sign.mean_us(), 126.0);
        let s = VariantConfig {
            protocol: "wang".parse().unwrap(),
            ..v
        };
        let e = SecurityModel::resolve(&s, &Scenario::default())
            .unwrap_err()
            .to_string();
        assert!(e.contains("not simulated") && e.contains("2flip"), "{e}");
    }

    /// Issue 28: an `ieee1609.2` variant borrowing paper 000's ETSI costs without a
    /// `verify_variant` paid the profile's first row, a P-192 verification, silently.
    #[test]
    fn an_open_variant_takes_the_protocols_curve_and_says_so() {
        let v = VariantConfig {
            name: "e".into(),
            protocol: ProtocolId::Ieee16092,
            profile: "i7-4610m".into(),
            cost_protocol: Some(ProtocolId::EtsiV121),
            ..VariantConfig::default()
        };
        let m = SecurityModel::resolve(&v, &Scenario::default()).unwrap();
        let verify = m.costs.iter().find(|c| c.role == "verify").unwrap();
        assert_eq!(verify.key.as_deref(), Some("etsi-v1.2.1/decap/p256-sha256/sign"));
        assert!(
            verify.chosen_by.starts_with("default: curve p256"),
            "{}",
            verify.chosen_by
        );
        let sign = m.costs.iter().find(|c| c.role == "sign").unwrap();
        assert_eq!(sign.key.as_deref(), Some("etsi-v1.2.1/encap/p256-sha256/sign"));
        let cost_protocol = m.settings.iter().find(|s| s.name == "cost_protocol").unwrap();
        assert_eq!(
            (cost_protocol.value.as_str(), cost_protocol.from.as_str()),
            ("etsi-v1.2.1", "scenario")
        );
        let deadline = m.settings.iter().find(|s| s.name == "deadline_ms").unwrap();
        assert!(deadline.from.starts_with("default"), "{deadline:?}");
        // A profile without the curve the protocol mandates is refused with its curves.
        let e = SecurityModel::resolve(
            &VariantConfig {
                profile: "cubieboard".into(),
                ..v
            },
            &Scenario::default(),
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("`verify_variant`") && e.contains("no p256") && e.contains("p224-sha224"),
            "{e}"
        );
    }

    #[test]
    fn tesla_at_the_default_deadline_is_refused_and_a_missing_profile_names_the_bench() {
        let v = VariantConfig {
            name: "ta".into(),
            protocol: ProtocolId::TeslaAttached,
            verify_cost_us: 40.0,
            sign_cost_us: 36.0,
            ..VariantConfig::default()
        };
        let e = SecurityModel::resolve(&v, &Scenario::default())
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("variant ta") && e.contains("deadline_ms") && e.contains("100 ms"),
            "{e}"
        );
        let m = SecurityModel::resolve(
            &VariantConfig {
                deadline_ms: Some(1000.0),
                ..v.clone()
            },
            &Scenario::default(),
        )
        .unwrap();
        assert_eq!(m.deadline_ns, 1_000_000_000);
        assert!(m.settings.iter().any(|s| s.name == "key_delay_ms" && s.value == "100"));
        let e = SecurityModel::resolve(
            &VariantConfig {
                profile: "/nowhere/bench/profile.json".into(),
                verify_cost_us: 0.0,
                deadline_ms: Some(1000.0),
                ..v
            },
            &Scenario::default(),
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("v2x bench") && e.contains("--out /nowhere/bench"), "{e}");
    }
}
