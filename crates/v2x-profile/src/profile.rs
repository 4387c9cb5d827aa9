//! A processor profile: what each operation costs on one processor (latency distribution,
//! throughput) and, per protocol, the packet sizes that go with those costs.

use crate::names::UnknownName;
use crate::sizes::PacketSizes;
use crate::spread::Spread;
use crate::variant::Variant;
use crate::vocab::{CostKey, Operation, ProtocolId};
use serde::{Deserialize, Serialize};
use std::path::Path;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum ProfileError {
    #[error("cannot read profile {path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("profile {path} is not valid JSON: {source}")]
    Json {
        path: String,
        #[source]
        source: serde_json::Error,
    },
    #[error("profile {path} is not valid TOML: {source}")]
    Toml {
        path: String,
        #[source]
        source: toml::de::Error,
    },
    #[error("profile {profile} has no {protocol}/{operation} cost matching `{wanted}` (it has: {available})")]
    MissingCost {
        profile: String,
        protocol: ProtocolId,
        operation: Operation,
        wanted: Variant,
        /// The `protocol/operation/variant` keys the profile does have for this protocol.
        available: String,
    },
    #[error("profile {profile}: {message}")]
    Invalid { profile: String, message: String },
    #[error("profile {profile}: sizes of {protocol}: {source}")]
    Sizes {
        profile: String,
        protocol: ProtocolId,
        #[source]
        source: crate::sizes::SizesError,
    },
    #[error("unknown profile `{name}`: not a shipped profile ({}) and no such file", crate::BUILTIN_NAMES.join(", "))]
    Unknown { name: String },
}

impl ProfileError {
    /// The shipped profile names, as an [`UnknownName`] (for callers that list names).
    pub fn builtin_names(name: &str) -> UnknownName {
        UnknownName {
            what: "profile",
            name: name.into(),
            valid: crate::BUILTIN_NAMES.to_vec(),
        }
    }
}

/// Where a profile's numbers come from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ProfileSource {
    /// Measured by `v2x bench` on this host.
    Measured {
        host: String,
        date: String,
        command: String,
    },
    /// Published in a paper (values transcribed, not measured here).
    Paper { paper: String, table: String, note: String },
}

/// One processor: what it is, what each operation costs on it, and the packet sizes of the
/// protocols it has costs for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProcessorProfile {
    /// Short identifier, e.g. `this-host`, `cubieboard`, `xeon-e5-2667`.
    pub name: String,
    /// Human-readable processor description.
    pub processor: String,
    pub source: ProfileSource,
    /// Cores the processor offers for verification.
    pub cores: u32,
    pub costs: Vec<OperationCost>,
    /// Packet sizes and schedules per protocol (configuration).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sizes: Vec<PacketSizes>,
    /// How the costs published as a mean alone (no quantiles) are spread around that mean
    /// when drawn as service times; `None`: drawn at the mean.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spread: Option<Spread>,
}

/// Cost of one operation of one protocol variant.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OperationCost {
    pub protocol: ProtocolId,
    pub operation: Operation,
    /// Which configuration, e.g. `p256/cam/sign/digest/100`, `p256-sha256/sign`.
    #[serde(default)]
    pub variant: Variant,
    pub latency: LatencyDistribution,
    /// Operations per second on one core.
    pub ops_per_sec_one_core: f64,
    /// Operations per second using every core, where measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ops_per_sec_all_cores: Option<f64>,
}

impl OperationCost {
    pub fn key(&self) -> CostKey {
        CostKey::new(self.protocol, self.operation, self.variant)
    }
}

/// Latency distribution in microseconds, summarised by quantiles.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LatencyDistribution {
    pub mean_us: f64,
    pub median_us: f64,
    pub p99_us: f64,
    /// Quantile points `(q, latency_us)` with q ascending in [0, 1]; used to draw
    /// service times by inverse-transform sampling. When empty the distribution is
    /// treated as deterministic at `mean_us`.
    #[serde(default)]
    pub quantiles: Vec<(f64, f64)>,
    /// Without quantiles: a named distribution around `mean_us` (see [`Spread`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spread: Option<Spread>,
}

impl LatencyDistribution {
    /// A deterministic cost (papers usually publish a single mean).
    pub fn fixed(us: f64) -> Self {
        LatencyDistribution {
            mean_us: us,
            median_us: us,
            p99_us: us,
            quantiles: Vec::new(),
            spread: None,
        }
    }

    /// A cost published as a mean, drawn from `spread` around it.
    pub fn spread(us: f64, spread: Option<Spread>) -> Self {
        LatencyDistribution {
            spread,
            ..Self::fixed(us)
        }
    }

    /// Latency at quantile `u` in [0, 1], by linear interpolation between quantile points
    /// (without quantiles: the spread's quantile around the mean, else the mean).
    pub fn at_quantile(&self, u: f64) -> f64 {
        let q = &self.quantiles;
        if q.is_empty() {
            return self
                .spread
                .as_ref()
                .map_or(self.mean_us, |s| s.quantile(self.mean_us, u));
        }
        let u = u.clamp(0.0, 1.0);
        if u <= q[0].0 {
            return q[0].1;
        }
        for w in q.windows(2) {
            let ((q0, v0), (q1, v1)) = (w[0], w[1]);
            if u <= q1 {
                let t = if q1 > q0 { (u - q0) / (q1 - q0) } else { 0.0 };
                return v0 + t * (v1 - v0);
            }
        }
        q[q.len() - 1].1
    }
}

impl ProcessorProfile {
    /// The first cost of `protocol`/`operation` whose variant satisfies `wanted` (parts the
    /// cost does not name match anything; an empty `wanted` takes the first cost).
    pub fn cost(&self, protocol: ProtocolId, operation: Operation, wanted: &Variant) -> Option<&OperationCost> {
        self.costs
            .iter()
            .find(|c| c.protocol == protocol && c.operation == operation && c.variant.satisfies(wanted))
    }

    /// Like [`cost`](Self::cost) but a typed error listing what the profile has.
    pub fn require(
        &self,
        protocol: ProtocolId,
        operation: Operation,
        wanted: &Variant,
    ) -> Result<&OperationCost, ProfileError> {
        self.cost(protocol, operation, wanted).ok_or_else(|| {
            let mut have: Vec<String> = self
                .costs
                .iter()
                .filter(|c| c.protocol == protocol)
                .map(|c| c.key().to_string())
                .collect();
            if have.is_empty() {
                let mut protocols: Vec<&str> = self.costs.iter().map(|c| c.protocol.name()).collect();
                protocols.dedup();
                have.push(format!("no {protocol} costs; protocols: {}", protocols.join(", ")));
            }
            ProfileError::MissingCost {
                profile: self.name.clone(),
                protocol,
                operation,
                wanted: *wanted,
                available: have.join(", "),
            }
        })
    }

    /// The service-time distribution of a cost of this profile: its quantiles where
    /// measured, else its mean spread by its own or the profile's [`Spread`].
    pub fn latency(&self, c: &OperationCost) -> LatencyDistribution {
        let mut l = c.latency.clone();
        if l.quantiles.is_empty() && l.spread.is_none() {
            l.spread = self.spread.clone();
        }
        l
    }

    /// Packet sizes for `protocol`: the entry whose variant satisfies `wanted`, else the
    /// protocol's first entry.
    pub fn sizes_for(&self, protocol: ProtocolId, wanted: &Variant) -> Option<&PacketSizes> {
        let mut of_protocol = self.sizes.iter().filter(|s| s.protocol == protocol);
        self.sizes
            .iter()
            .find(|s| s.protocol == protocol && s.variant.satisfies(wanted))
            .or_else(|| of_protocol.next())
    }

    /// Checks internal consistency: positive, finite costs, ascending quantiles, sane sizes.
    pub fn validate(&self) -> Result<(), ProfileError> {
        let bad = |m: String| {
            Err(ProfileError::Invalid {
                profile: self.name.clone(),
                message: m,
            })
        };
        if self.cores == 0 {
            return bad("cores must be at least 1".into());
        }
        if let Some(Err(e)) = self.spread.as_ref().map(Spread::check) {
            return bad(e);
        }
        for c in &self.costs {
            let l = &c.latency;
            let positive = |v: f64| v.is_finite() && v > 0.0;
            if !positive(l.mean_us) || !positive(c.ops_per_sec_one_core) {
                return bad(format!("{}: latency and throughput must be positive", c.key()));
            }
            if l.quantiles.windows(2).any(|w| w[1].0 < w[0].0 || w[1].1 < w[0].1) {
                return bad(format!("{}: quantiles must ascend", c.key()));
            }
            if let Some(Err(e)) = l.spread.as_ref().map(Spread::check) {
                return bad(format!("{}: {e}", c.key()));
            }
        }
        for s in &self.sizes {
            s.check().map_err(|source| ProfileError::Sizes {
                profile: self.name.clone(),
                protocol: s.protocol,
                source,
            })?;
        }
        Ok(())
    }

    /// Parses a profile from JSON text (`origin` names it in errors) and validates it.
    pub fn from_json(text: &str, origin: &str) -> Result<ProcessorProfile, ProfileError> {
        let p: ProcessorProfile = serde_json::from_str(text).map_err(|source| ProfileError::Json {
            path: origin.into(),
            source,
        })?;
        p.validate()?;
        Ok(p)
    }

    /// Loads a profile from JSON or TOML (by extension) and validates it.
    pub fn load(path: &Path) -> Result<ProcessorProfile, ProfileError> {
        let p = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| ProfileError::Io {
            path: p.clone(),
            source,
        })?;
        if path.extension().is_some_and(|e| e == "toml") {
            let profile: ProcessorProfile =
                toml::from_str(&text).map_err(|source| ProfileError::Toml { path: p, source })?;
            profile.validate()?;
            Ok(profile)
        } else {
            Self::from_json(&text, &p)
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// A profile shipped with v2xsec (values transcribed from the papers, see each
    /// profile's `source`), by name; `None` for an unknown name. See [`crate::BUILTIN_NAMES`].
    pub fn builtin(name: &str) -> Option<ProcessorProfile> {
        let text = crate::BUILTIN.iter().find(|(n, _)| *n == name)?.1;
        // The shipped files are checked by the tests, so parsing cannot fail at run time.
        Self::from_json(text, name).ok()
    }

    /// A shipped profile by name, or else a profile file (JSON or TOML) at that path.
    pub fn builtin_or_load(name_or_path: &str) -> Result<ProcessorProfile, ProfileError> {
        if let Some(p) = Self::builtin(name_or_path) {
            return Ok(p);
        }
        let path = Path::new(name_or_path);
        let looks_like_path =
            name_or_path.contains(['/', '\\']) || name_or_path.ends_with(".json") || name_or_path.ends_with(".toml");
        if !path.exists() && !looks_like_path {
            return Err(ProfileError::Unknown {
                name: name_or_path.into(),
            });
        }
        Self::load(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CertificatePolicy, SizesSource};

    fn v(s: &str) -> Variant {
        s.parse().unwrap()
    }

    #[test]
    fn quantile_interpolation() {
        let d = LatencyDistribution {
            mean_us: 2.0,
            median_us: 2.0,
            p99_us: 3.0,
            quantiles: vec![(0.0, 1.0), (0.5, 2.0), (1.0, 4.0)],
            spread: None,
        };
        assert_eq!(d.at_quantile(0.25), 1.5);
        assert_eq!(d.at_quantile(0.75), 3.0);
        assert_eq!(d.at_quantile(2.0), 4.0);
        assert_eq!(LatencyDistribution::fixed(7.0).at_quantile(0.3), 7.0);
    }

    #[test]
    fn builtin_profiles_parse_validate_and_cite_a_paper() {
        assert_eq!(crate::BUILTIN.len(), crate::BUILTIN_NAMES.len());
        for name in crate::BUILTIN_NAMES {
            let text = crate::BUILTIN.iter().find(|(n, _)| n == name).unwrap().1;
            let p = ProcessorProfile::from_json(text, name).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(&p.name, name);
            assert!(
                matches!(p.source, ProfileSource::Paper { .. }),
                "{name} is marked as paper data"
            );
            assert!(!p.costs.is_empty());
            // Published means are drawn with a documented spread, never all at the mean.
            let spread = p.spread.as_ref().unwrap_or_else(|| panic!("{name}: no spread"));
            assert!(spread.cv > 0.0 && !spread.basis.is_empty(), "{name}");
            let c = &p.costs[0];
            let l = p.latency(c);
            assert!(l.at_quantile(0.1) < c.latency.mean_us && l.at_quantile(0.9) > c.latency.mean_us);
            assert!(p.sizes.iter().all(|s| matches!(s.source, SizesSource::Paper { .. })));
        }
        assert!(ProcessorProfile::builtin("nope").is_none());
        // Paper 000 Table 6: P-256 verify 3.01 ms on the Xeon, 0.89 ms on the i7.
        let xeon = ProcessorProfile::builtin("xeon-e5-2667").unwrap();
        let verify = v("p256-sha256/sign");
        assert_eq!(
            xeon.require(ProtocolId::EtsiV121, Operation::Decap, &verify)
                .unwrap()
                .latency
                .mean_us,
            3010.0
        );
        let i7 = ProcessorProfile::builtin_or_load("i7-4610m").unwrap();
        assert_eq!(
            i7.require(ProtocolId::EtsiV121, Operation::Decap, &verify)
                .unwrap()
                .latency
                .mean_us,
            890.0
        );
        // Encryption is the encap at level `encrypt`.
        assert_eq!(
            i7.require(ProtocolId::EtsiV121, Operation::Encap, &v("p256-sha256/encrypt"))
                .unwrap()
                .latency
                .mean_us,
            610.0
        );
        let s = i7.sizes_for(ProtocolId::EtsiV121, &Variant::default()).unwrap();
        assert_eq!((s.overhead_bytes, s.overhead_with_certificate_bytes), (106, Some(288)));
        assert_eq!(s.certificate, Some(CertificatePolicy::Interval { interval_s: 1.0 }));
        let mk5 = ProcessorProfile::builtin("mk5-software").unwrap();
        assert_eq!(
            mk5.sizes_for(ProtocolId::TwoFlip, &Variant::default())
                .unwrap()
                .overhead_bytes,
            47
        );
        let e = ProcessorProfile::builtin_or_load("xeon").unwrap_err().to_string();
        assert!(
            e.contains("unknown profile `xeon`") && e.contains("xeon-e5-2667"),
            "{e}"
        );
        assert!(ProcessorProfile::builtin_or_load("/nonexistent/profile.json").is_err());
    }

    #[test]
    fn lookups_and_validation() {
        let mut p = ProcessorProfile {
            name: "t".into(),
            processor: "t".into(),
            source: ProfileSource::Paper {
                paper: "x".into(),
                table: "y".into(),
                note: String::new(),
            },
            cores: 1,
            costs: vec![OperationCost {
                protocol: ProtocolId::Raw,
                operation: Operation::Verify,
                variant: v("p256"),
                latency: LatencyDistribution::fixed(100.0),
                ops_per_sec_one_core: 10_000.0,
                ops_per_sec_all_cores: None,
            }],
            sizes: Vec::new(),
            spread: None,
        };
        assert!(p.validate().is_ok());
        assert!(p
            .require(ProtocolId::Raw, Operation::Verify, &Variant::default())
            .is_ok());
        let e = p
            .require(ProtocolId::Raw, Operation::Verify, &v("p384"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("raw/verify cost matching `p384`") && e.contains("raw/verify/p256"),
            "{e}"
        );
        let e = p
            .require(ProtocolId::Tesla, Operation::Decap, &Variant::default())
            .unwrap_err()
            .to_string();
        assert!(e.contains("no tesla costs; protocols: raw"), "{e}");
        p.costs[0].latency.mean_us = -1.0;
        assert!(p.validate().is_err());
        // A typo in a profile is an error that lists the valid names.
        let bad = r#"{"name":"x","processor":"x","source":{"kind":"measured","host":"h","date":"d","command":"c"},
            "cores":1,"costs":[{"protocol":"rwa","operation":"sign","variant":"","latency":{"mean_us":1,"median_us":1,"p99_us":1},"ops_per_sec_one_core":1}]}"#;
        let e = ProcessorProfile::from_json(bad, "x.json").unwrap_err().to_string();
        assert!(e.contains("unknown protocol `rwa`") && e.contains("ieee1609.2"), "{e}");
    }
}
