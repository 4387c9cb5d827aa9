//! Processor profiles: the security costs the simulator consumes.
//!
//! A profile lists, per protocol and operation, a latency distribution (as quantiles, so
//! the simulator can draw service times from it) and throughput. Profiles come either
//! from `v2x bench` on the user's machine or from the papers' published tables (shipped
//! under `profiles/`, each marked with its source table).

use serde::{Deserialize, Serialize};
use std::path::Path;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum ProfileError {
    #[error("cannot read profile {path}: {source}")]
    Io { path: String, source: std::io::Error },
    #[error("profile {path} is not valid: {message}")]
    Parse { path: String, message: String },
    #[error("profile {profile} has no cost for {protocol}/{operation}/{variant}")]
    MissingCost {
        profile: String,
        protocol: String,
        operation: String,
        variant: String,
    },
    #[error("profile {profile}: {message}")]
    Invalid { profile: String, message: String },
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

/// One processor: what it is and what each operation costs on it.
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
}

/// Cost of one operation of one protocol variant.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OperationCost {
    /// Protocol identifier: `raw`, `ieee1609.2`, `etsi-v1.2.1`, `tesla`, `tesla-attached`,
    /// `hash-chain`, `2flip`, `raya-hubaux`, `wang`, `none`.
    pub protocol: String,
    /// Operation: `sign`, `verify`, `encap`, `decap`, `mac`, ...
    pub operation: String,
    /// Variant, e.g. `p256/cam/digest`, `p256/denm/certificate`, `p384/encrypt`.
    pub variant: String,
    pub latency: LatencyDistribution,
    /// Operations per second on one core.
    pub ops_per_sec_one_core: f64,
    /// Operations per second using every core, where measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ops_per_sec_all_cores: Option<f64>,
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
}

impl LatencyDistribution {
    /// A deterministic cost (papers usually publish a single mean).
    pub fn fixed(us: f64) -> Self {
        LatencyDistribution {
            mean_us: us,
            median_us: us,
            p99_us: us,
            quantiles: Vec::new(),
        }
    }

    /// Latency at quantile `u` in [0, 1], by linear interpolation between quantile points.
    pub fn at_quantile(&self, u: f64) -> f64 {
        let q = &self.quantiles;
        if q.is_empty() {
            return self.mean_us;
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
    /// Finds a cost; `variant` may be empty to accept the first matching variant.
    pub fn cost(&self, protocol: &str, operation: &str, variant: &str) -> Option<&OperationCost> {
        self.costs.iter().find(|c| {
            c.protocol == protocol && c.operation == operation && (variant.is_empty() || c.variant == variant)
        })
    }

    /// Like [`cost`](Self::cost) but a typed error when absent.
    pub fn require(&self, protocol: &str, operation: &str, variant: &str) -> Result<&OperationCost, ProfileError> {
        self.cost(protocol, operation, variant)
            .ok_or_else(|| ProfileError::MissingCost {
                profile: self.name.clone(),
                protocol: protocol.into(),
                operation: operation.into(),
                variant: variant.into(),
            })
    }

    /// Checks internal consistency: positive, finite costs and ascending quantiles.
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
        for c in &self.costs {
            let l = &c.latency;
            let id = format!("{}/{}/{}", c.protocol, c.operation, c.variant);
            let positive = |v: f64| v.is_finite() && v > 0.0;
            if !positive(l.mean_us) || !positive(c.ops_per_sec_one_core) {
                return bad(format!("{id}: latency and throughput must be positive"));
            }
            if l.quantiles.windows(2).any(|w| w[1].0 < w[0].0 || w[1].1 < w[0].1) {
                return bad(format!("{id}: quantiles must ascend"));
            }
        }
        Ok(())
    }

    /// Loads a profile from JSON or TOML (by extension) and validates it.
    pub fn load(path: &Path) -> Result<ProcessorProfile, ProfileError> {
        let p = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| ProfileError::Io {
            path: p.clone(),
            source,
        })?;
        let profile: ProcessorProfile = if path.extension().is_some_and(|e| e == "toml") {
            toml::from_str(&text).map_err(|e| ProfileError::Parse {
                path: p.clone(),
                message: e.to_string(),
            })?
        } else {
            serde_json::from_str(&text).map_err(|e| ProfileError::Parse {
                path: p.clone(),
                message: e.to_string(),
            })?
        };
        profile.validate()?;
        Ok(profile)
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("profile serialises")
    }

    /// A profile shipped with v2xsec (values transcribed from the papers, see each
    /// profile's `source`), by name; `None` for an unknown name. See [`BUILTIN_NAMES`].
    pub fn builtin(name: &str) -> Option<ProcessorProfile> {
        let text = BUILTIN.iter().find(|(n, _)| *n == name)?.1;
        // The shipped files are checked by the tests below, so parsing cannot fail at run time.
        serde_json::from_str(text).ok()
    }

    /// A shipped profile by name, or else a profile file (JSON or TOML) at that path.
    pub fn builtin_or_load(name_or_path: &str) -> Result<ProcessorProfile, ProfileError> {
        match Self::builtin(name_or_path) {
            Some(p) => Ok(p),
            None => Self::load(Path::new(name_or_path)),
        }
    }
}

/// Processor profiles shipped with v2xsec, transcribed from the papers' tables.
const BUILTIN: &[(&str, &str)] = &[
    ("cubieboard", include_str!("../profiles/cubieboard.json")),
    ("xeon-e5-2667", include_str!("../profiles/xeon-e5-2667.json")),
    ("i7-4610m", include_str!("../profiles/i7-4610m.json")),
    ("mk5-software", include_str!("../profiles/mk5-software.json")),
    ("mk5-hsm", include_str!("../profiles/mk5-hsm.json")),
    ("atom-d510", include_str!("../profiles/atom-d510.json")),
];

/// Names accepted by [`ProcessorProfile::builtin`]: paper 000 Tables 4-6 (`cubieboard`,
/// `xeon-e5-2667`, `i7-4610m`), paper 001 Tables 3-11 (`mk5-software`, `mk5-hsm`) and paper 002
/// Table 3.2 (`atom-d510`). Paper 004 publishes its Pentium 3 and Core 2 costs only as a
/// figure, so no profile is shipped for them.
pub const BUILTIN_NAMES: &[&str] = &[
    "cubieboard",
    "xeon-e5-2667",
    "i7-4610m",
    "mk5-software",
    "mk5-hsm",
    "atom-d510",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantile_interpolation() {
        let d = LatencyDistribution {
            mean_us: 2.0,
            median_us: 2.0,
            p99_us: 3.0,
            quantiles: vec![(0.0, 1.0), (0.5, 2.0), (1.0, 4.0)],
        };
        assert_eq!(d.at_quantile(0.25), 1.5);
        assert_eq!(d.at_quantile(0.75), 3.0);
        assert_eq!(d.at_quantile(2.0), 4.0);
        assert_eq!(LatencyDistribution::fixed(7.0).at_quantile(0.3), 7.0);
    }

    #[test]
    fn builtin_profiles_parse_validate_and_cite_a_paper() {
        assert_eq!(BUILTIN.len(), BUILTIN_NAMES.len());
        for name in BUILTIN_NAMES {
            let p = ProcessorProfile::builtin(name).unwrap_or_else(|| panic!("{name} parses"));
            assert_eq!(&p.name, name);
            p.validate().unwrap();
            assert!(
                matches!(p.source, ProfileSource::Paper { .. }),
                "{name} is marked as paper data"
            );
            assert!(!p.costs.is_empty());
        }
        assert!(ProcessorProfile::builtin("nope").is_none());
        // Paper 000 Table 6: P-256 verify 3.01 ms on the Xeon, 0.89 ms on the i7.
        let xeon = ProcessorProfile::builtin("xeon-e5-2667").unwrap();
        assert_eq!(
            xeon.require("etsi-v1.2.1", "verify", "p256-sha256")
                .unwrap()
                .latency
                .mean_us,
            3010.0
        );
        let i7 = ProcessorProfile::builtin_or_load("i7-4610m").unwrap();
        assert_eq!(
            i7.require("etsi-v1.2.1", "verify", "p256-sha256")
                .unwrap()
                .latency
                .mean_us,
            890.0
        );
        assert!(ProcessorProfile::builtin_or_load("/nonexistent/profile.json").is_err());
    }

    #[test]
    fn validate_rejects_nonsense() {
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
                protocol: "raw".into(),
                operation: "verify".into(),
                variant: "p256".into(),
                latency: LatencyDistribution::fixed(100.0),
                ops_per_sec_one_core: 10_000.0,
                ops_per_sec_all_cores: None,
            }],
        };
        assert!(p.validate().is_ok());
        assert!(p.require("raw", "verify", "").is_ok());
        assert!(p.require("raw", "sign", "").is_err());
        p.costs[0].latency.mean_us = -1.0;
        assert!(p.validate().is_err());
    }
}
