//! Scenario files: every parameter named with its unit, with a default.
//!
//! A scenario is TOML. Unknown keys are errors (typos must not silently fall back to a
//! default). [`Scenario::parse`] reports the line and column of a syntax or type error;
//! [`Scenario::validate`] checks the value ranges and names the offending field. Each
//! model's parameters live in their own module, with their `validate()` beside them:
//! [`mobility`], [`radio`] (PHY) and [`channel`], [`mac`], [`apps`] (CAM, query),
//! [`attackers`], [`security`] (the `[[variant]]`s), [`metrics`] and [`engine`] (threads).

pub mod apps;
pub mod attackers;
pub mod channel;
mod check;
pub mod engine;
pub mod mac;
pub mod metrics;
pub mod mobility;
pub mod radio;
pub mod relay;
pub mod security;
pub mod sidelink;

pub use apps::{CamConfig, QueryConfig};
pub use attackers::{AttackKind, AttackerConfig};
pub use channel::{FadingConfig, PathLossConfig};
pub use engine::EngineConfig;
pub use mac::{AccessCategory, IdleAccess, MacConfig};
pub use metrics::MetricsConfig;
pub use mobility::MobilityConfig;
pub use radio::{CcaModel, RadioConfig, RadioPreset, ReceptionModel, WeakInterference};
pub use relay::RelayConfig;
pub use security::{
    check_simulated, CertificatePolicy, DeadlinePolicy, QueueOrder, SecurityMode, SigningCore, VariantConfig,
    VerifierConfig, VerifierStrategy, DEFAULT_DEADLINE_MS, P2PCD_REQUEST_BYTES, SIMULATED_PROTOCOLS,
};
pub use sidelink::{AccessConfig, AccessKind, ReservationPolicy, SidelinkConfig};

use crate::error::ScenarioError;
use check::{nonneg, pos};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// A whole scenario: common settings plus one or more security variants compared on the
/// same mobility and seeds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Scenario {
    /// Short name used in reports.
    pub name: String,
    pub description: String,
    /// Simulated time in seconds.
    pub duration_s: f64,
    /// Metrics ignore packets generated before this time (seconds).
    pub warmup_s: f64,
    /// Base seed; replication r uses seed + r.
    pub seed: u64,
    /// Independent replications (run in parallel).
    pub replications: u32,
    pub mobility: MobilityConfig,
    pub radio: RadioConfig,
    pub mac: MacConfig,
    pub cam: CamConfig,
    pub query: QueryConfig,
    /// Multi-hop forwarding of a signed message along a chain (`[relay]`, off by default).
    pub relay: RelayConfig,
    #[serde(rename = "attacker")]
    pub attackers: Vec<AttackerConfig>,
    pub metrics: MetricsConfig,
    /// The security configurations to compare; each runs on identical mobility and seeds.
    #[serde(rename = "variant")]
    pub variants: Vec<VariantConfig>,
    /// How runs execute (threads); changes no result.
    pub engine: EngineConfig,
    /// The access layer: `its-g5` (802.11p EDCA, default), `lte-v2x-mode4` or `nr-v2x-mode2`.
    pub access: AccessConfig,
    /// The sidelink (with `[access] kind = "lte-v2x-mode4"`; NR-V2X Mode 2 adds `[sidelink.nr]`).
    pub sidelink: SidelinkConfig,
    /// Insiders that lie and the misbehaviour authority (`[misbehaviour]`, issue 33): read
    /// and run by `v2x-mbd` (`v2x_mbd::sim`), which this crate cannot name; a run without
    /// it refuses the table ([`crate::run_watched`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub misbehaviour: Option<toml::Table>,
}

impl Default for Scenario {
    fn default() -> Self {
        Scenario {
            name: "scenario".into(),
            description: String::new(),
            duration_s: 10.0,
            warmup_s: 1.0,
            seed: 1,
            replications: 1,
            mobility: MobilityConfig::default(),
            radio: RadioConfig::default(),
            mac: MacConfig::default(),
            cam: CamConfig::default(),
            query: QueryConfig::default(),
            relay: RelayConfig::default(),
            attackers: Vec::new(),
            metrics: MetricsConfig::default(),
            variants: vec![VariantConfig::default()],
            engine: EngineConfig::default(),
            access: AccessConfig::default(),
            sidelink: SidelinkConfig::default(),
            misbehaviour: None,
        }
    }
}

/// Overrides given on the command line.
#[derive(Debug, Clone, Default)]
pub struct Overrides {
    pub duration_s: Option<f64>,
    pub seed: Option<u64>,
    pub replications: Option<u32>,
}

/// Line and column (1-based) of a byte offset.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset.min(text.len())).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// Inserts into `table[section]` every key of `defaults` it does not have.
fn fill_missing<T: Serialize>(table: &mut toml::Table, section: &str, defaults: &T) {
    let Ok(toml::Value::Table(defaults)) = toml::Value::try_from(defaults) else {
        return;
    };
    let entry = table
        .entry(section)
        .or_insert_with(|| toml::Value::Table(toml::Table::new()));
    if let toml::Value::Table(given) = entry {
        for (k, v) in defaults {
            given.entry(k).or_insert(v);
        }
    }
}

/// Fills the `[radio]` and `[mac]` keys of `table` that `preset` supplies and the table
/// does not give.
fn apply_preset(table: &mut toml::Table, preset: RadioPreset) {
    let (radio, mac) = preset.defaults();
    fill_missing(table, "radio", &radio);
    fill_missing(table, "mac", &mac);
}

/// A `[radio]` and a `[mac]` table read as a scenario reads them (a `radio.preset` supplies
/// the keys they do not give), and checked: for the testbed's channel emulator, which
/// takes the simulator's tables.
pub fn radio_and_mac(radio: &toml::Table, mac: &toml::Table) -> Result<(RadioConfig, MacConfig), ScenarioError> {
    fn read<T: serde::de::DeserializeOwned>(name: &str, t: Option<&toml::Value>) -> Result<T, ScenarioError> {
        let t = t.cloned().unwrap_or_else(|| toml::Value::Table(toml::Table::new()));
        t.try_into()
            .map_err(|e: toml::de::Error| ScenarioError::invalid(name, e.message().trim()))
    }
    let mut table = toml::Table::new();
    table.insert("radio".into(), toml::Value::Table(radio.clone()));
    table.insert("mac".into(), toml::Value::Table(mac.clone()));
    let given: RadioConfig = read("radio", table.get("radio"))?;
    if let Some(preset) = given.preset {
        apply_preset(&mut table, preset);
    }
    let (radio, mac): (RadioConfig, MacConfig) = (read("radio", table.get("radio"))?, read("mac", table.get("mac"))?);
    radio.validate()?;
    mac.validate()?;
    Ok((radio, mac))
}

impl Scenario {
    /// Parses scenario TOML; `origin` names the file in errors. A `[radio] preset`
    /// supplies the `[radio]` and `[mac]` keys the file does not give.
    pub fn parse(text: &str, origin: &str) -> Result<Scenario, ScenarioError> {
        let syntax = |e: toml::de::Error| {
            let (line, column) = e.span().map_or((0, 0), |sp| line_col(text, sp.start));
            ScenarioError::Syntax {
                file: origin.into(),
                line,
                column,
                message: e.message().trim().to_string(),
            }
        };
        // Parsed once as written (errors keep their line), then again with the preset.
        let mut s: Scenario = toml::from_str(text).map_err(syntax)?;
        if let Some(preset) = s.radio.preset {
            let mut table: toml::Table = toml::from_str(text).map_err(syntax)?;
            apply_preset(&mut table, preset);
            s = table.try_into().map_err(syntax)?;
        }
        s.validate()?;
        Ok(s)
    }

    /// Reads and parses a scenario file; relative paths inside it are resolved against
    /// its directory.
    pub fn load(path: &Path) -> Result<Scenario, ScenarioError> {
        let text = std::fs::read_to_string(path).map_err(|e| ScenarioError::Io {
            path: path.display().to_string(),
            source: e,
        })?;
        let mut s = Scenario::parse(&text, &path.display().to_string())?;
        let base = path.parent().unwrap_or(Path::new("."));
        s.resolve_paths(base);
        Ok(s)
    }

    /// Resolves relative trace and profile paths against `base` (what [`Scenario::load`] does
    /// with the file's directory); for scenarios built in memory from a file's text.
    pub fn resolve_paths(&mut self, base: &Path) {
        // Absolute, so that the resolved scenario a run writes (resolved.toml) runs again
        // from any folder, its own included.
        let base = if base.as_os_str().is_empty() {
            Path::new(".")
        } else {
            base
        };
        let absolute = std::path::absolute(base);
        let base = absolute.as_deref().unwrap_or(base);
        match &mut self.mobility {
            MobilityConfig::SumoFcd { path, .. } | MobilityConfig::Ngsim { path, .. } if path.is_relative() => {
                *path = base.join(&*path);
            }
            _ => {}
        }
        for v in &mut self.variants {
            // A shipped profile's name (or a misspelt one, reported with the valid names)
            // stays a name; a path is taken relative to the scenario file.
            let is_path =
                v.profile.contains(['/', '\\']) || v.profile.ends_with(".json") || v.profile.ends_with(".toml");
            let is_builtin = v2x_profile::BUILTIN_NAMES.contains(&v.profile.as_str());
            if is_path && !is_builtin && Path::new(&v.profile).is_relative() {
                v.profile = base.join(&v.profile).display().to_string();
            }
        }
    }

    pub fn apply(&mut self, o: &Overrides) -> Result<(), ScenarioError> {
        if let Some(d) = o.duration_s {
            self.duration_s = d;
            if self.warmup_s >= d {
                self.warmup_s = d / 10.0;
            }
        }
        if let Some(s) = o.seed {
            self.seed = s;
        }
        if let Some(r) = o.replications {
            self.replications = r;
        }
        self.validate()
    }

    /// Checks value ranges; the error names the field.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        pos("duration_s", self.duration_s)?;
        if self.duration_s > 1e6 {
            return Err(ScenarioError::invalid("duration_s", "must be at most 1e6 s"));
        }
        nonneg("warmup_s", self.warmup_s)?;
        if self.warmup_s >= self.duration_s {
            return Err(ScenarioError::invalid("warmup_s", "must be shorter than duration_s"));
        }
        if self.replications == 0 || self.replications > 10_000 {
            return Err(ScenarioError::invalid("replications", "must be between 1 and 10000"));
        }
        self.mobility.validate()?;
        self.radio.validate()?;
        self.mac.validate()?;
        self.cam.validate()?;
        self.query.validate()?;
        let nodes = match &self.mobility {
            MobilityConfig::Static { positions_m } => Some(positions_m.len()),
            _ => None,
        };
        self.relay.validate(nodes, &self.variants)?;
        for (i, a) in self.attackers.iter().enumerate() {
            a.validate(i)?;
        }
        self.metrics.validate()?;
        self.engine.validate()?;
        if self.variants.is_empty() {
            return Err(ScenarioError::invalid("variant", "at least one [[variant]] is needed"));
        }
        let mut names = std::collections::HashSet::new();
        for (i, v) in self.variants.iter().enumerate() {
            v.validate(i)?;
            if !names.insert(v.name.as_str()) {
                return Err(ScenarioError::invalid(
                    format!("variant[{i}].name"),
                    format!("duplicate variant name {}", v.name),
                ));
            }
        }
        if self.access.kind.is_sidelink() {
            self.validate_sidelink()?;
        }
        Ok(())
    }

    /// What the sidelink simulates so far: periodic CAMs with the variants' sizes,
    /// certificate schedules and verification (`engine::security_layer`). The rest is
    /// refused rather than ignored.
    fn validate_sidelink(&self) -> Result<(), ScenarioError> {
        self.sidelink.validate_for(self.access.kind)?;
        let kind = self.access.kind;
        let rat = if kind == AccessKind::NrV2xMode2 {
            "NR-V2X"
        } else {
            "LTE-V2X"
        };
        let not_yet = |field: &str, what: &str| {
            Err(ScenarioError::invalid(
                field,
                format!(
                    "{what} is not simulated on the {rat} sidelink yet (access.kind = \"{}\")",
                    kind.name()
                ),
            ))
        };
        if !self.attackers.is_empty() {
            return not_yet("attacker", "an attacker");
        }
        if self.query.enabled {
            return not_yet("query.enabled", "the V2I query");
        }
        if self.relay.enabled {
            return not_yet("relay.enabled", "multi-hop relaying");
        }
        if self.misbehaviour.is_some() {
            return not_yet("misbehaviour", "misbehaviour detection");
        }
        for (i, v) in self.variants.iter().enumerate() {
            if v.mode == SecurityMode::RealCrypto {
                return not_yet(&format!("variant[{i}].mode"), "real-crypto");
            }
            if v.protocol == v2x_profile::ProtocolId::Tesla {
                return not_yet(&format!("variant[{i}].protocol"), "TESLA's separate key frames");
            }
            if v.protocol == v2x_profile::ProtocolId::TeslaAttached {
                return not_yet(&format!("variant[{i}].protocol"), "TESLA's key buffering");
            }
        }
        Ok(())
    }

    /// The resolved configuration (all defaults filled in) as TOML.
    pub fn to_toml(&self) -> String {
        toml::to_string_pretty(self).unwrap_or_else(|e| format!("# cannot serialise scenario: {e}\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_parse_from_empty_file_and_round_trip() {
        let s = Scenario::parse("", "empty").unwrap();
        assert_eq!(s, Scenario::default());
        let again = Scenario::parse(&s.to_toml(), "resolved").unwrap();
        assert_eq!(again, s);
    }

    #[test]
    fn unknown_field_reports_line() {
        let e = Scenario::parse("duration_s = 5\n\n[radio]\ntx_powr_dbm = 3\n", "t.toml").unwrap_err();
        match e {
            ScenarioError::Syntax { line, message, .. } => {
                assert_eq!(line, 4, "{message}");
                assert!(message.contains("tx_powr_dbm"), "{message}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn bad_value_names_field() {
        let e = Scenario::parse("duration_s = -1\n", "t.toml").unwrap_err();
        assert!(e.to_string().contains("duration_s"), "{e}");
        let e = Scenario::parse("[radio]\ndata_rate_mbps = 5\n", "t.toml").unwrap_err();
        assert!(e.to_string().contains("radio.data_rate_mbps"), "{e}");
        // A typed name is refused where it is read, at its line, with the valid names.
        let e = Scenario::parse("[[variant]]\nname='a'\nprotocol='rsa'\n", "t.toml").unwrap_err();
        assert!(matches!(e, ScenarioError::Syntax { line: 3, .. }), "{e:?}");
        assert!(
            e.to_string().contains("unknown protocol `rsa`") && e.to_string().contains("2flip"),
            "{e}"
        );
        let e = Scenario::parse("[[variant]]\nname='a'\nprotocol='wang'\n", "t.toml").unwrap_err();
        assert!(
            e.to_string().contains("variant[0].protocol") && e.to_string().contains("not simulated"),
            "{e}"
        );
        let e = Scenario::parse("duration_s = 'ten'\n", "t.toml").unwrap_err();
        assert!(matches!(e, ScenarioError::Syntax { line: 1, .. }), "{e:?}");
    }
}
