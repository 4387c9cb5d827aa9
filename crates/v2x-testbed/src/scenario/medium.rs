//! The scenario's `[medium]`: how station processes reach each other (the per-link
//! delivery of a run through the channel emulator: [`crate::analyse::links`]).
//!
//! - `kind = "loopback"` (default): every sender sends one UDP copy to every receiver on
//!   127.0.0.1, nothing lost on the way (PRESERVE's lab set-up, paper 002 §2.2.1).
//! - `kind = "emulator"`: every station sends to the channel-emulator process
//!   ([`crate::emulator`]), which relays each frame through `v2x sim`'s 802.11p MAC,
//!   channel and PHY models to the receivers, given the stations' positions.
//! - `kind = "netns"`: as loopback, but each station in its own network namespace behind a
//!   veth pair into one bridge ([`crate::run::netns`]); without root, loopback with a message.

use crate::emulator::{self, ChannelModel};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use v2x_sim::error::ScenarioError;

/// How the stations reach each other.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MediumKind {
    /// UDP on loopback, every sender to every receiver.
    #[default]
    Loopback,
    /// Through the channel-emulator process (802.11p channel of `v2x sim`).
    Emulator,
    /// One network namespace per station, veths into one bridge ([`crate::run::netns`]); UDP
    /// from every sender to every receiver as on loopback. Needs root, else loopback.
    Netns,
}

/// The `[medium]` table.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MediumConfig {
    #[serde(default)]
    pub kind: MediumKind,
    /// Senders `tx0`, `tx1`, ... on the x axis at these distances (m) from the receivers,
    /// which stand at the origin.
    #[serde(default)]
    pub sender_distances_m: Vec<f64>,
    /// Positions by station name, `[x, y]` m (win over `sender_distances_m`).
    #[serde(default)]
    pub positions_m: BTreeMap<String, [f64; 2]>,
    /// `v2x sim`'s `[radio]` table: the same keys, defaults and presets.
    #[serde(default)]
    pub radio: toml::Table,
    /// `v2x sim`'s `[mac]` table: EDCA timing, queue limits, MAC overhead on the air.
    #[serde(default)]
    pub mac: toml::Table,
    /// The stations' access category (as `v2x sim`'s `[cam] access_category`).
    #[serde(default)]
    pub access_category: Option<v2x_sim::scenario::AccessCategory>,
    /// Carrier sense and back-off before each frame (default on).
    #[serde(default)]
    pub carrier_sense: Option<bool>,
    /// Seed of the emulator's fading, error and back-off draws.
    #[serde(default)]
    pub seed: Option<u64>,
    /// With `kind = "emulator"`: the emulator and every station each in a network
    /// namespace of its own (as `kind = "netns"`; root only, else loopback).
    #[serde(default)]
    pub netns: bool,
}

impl MediumConfig {
    /// Whether the stations run in network namespaces ([`crate::run::netns`]).
    pub fn in_namespaces(&self) -> bool {
        self.kind == MediumKind::Netns || (self.kind == MediumKind::Emulator && self.netns)
    }

    /// Checks the table against the scenario's station names; the error names the key.
    pub fn check(&self, stations: &[String], senders: u32) -> Result<(), ScenarioError> {
        if self.netns && self.kind != MediumKind::Emulator {
            return Err(ScenarioError::invalid(
                "medium.netns",
                "puts the channel emulator's run in namespaces: it needs medium.kind = \"emulator\" \
                 (kind = \"netns\" is the plain run in namespaces)",
            ));
        }
        if self.kind != MediumKind::Emulator {
            let emulator_keys = [
                ("sender_distances_m", !self.sender_distances_m.is_empty()),
                ("positions_m", !self.positions_m.is_empty()),
                ("radio", !self.radio.is_empty()),
                ("mac", !self.mac.is_empty()),
                ("access_category", self.access_category.is_some()),
                ("carrier_sense", self.carrier_sense.is_some()),
                ("seed", self.seed.is_some()),
            ];
            if let Some((key, _)) = emulator_keys.iter().find(|k| k.1) {
                return Err(ScenarioError::invalid(
                    format!("medium.{key}"),
                    "sets the channel emulator: it needs medium.kind = \"emulator\"",
                ));
            }
            return Ok(());
        }
        self.channel()?;
        if !self.sender_distances_m.is_empty() && self.sender_distances_m.len() != senders as usize {
            return Err(ScenarioError::invalid(
                "medium.sender_distances_m",
                format!(
                    "gives {} distances for {senders} senders",
                    self.sender_distances_m.len()
                ),
            ));
        }
        if let Some(d) = self.sender_distances_m.iter().find(|d| !(d.is_finite() && **d >= 0.0)) {
            return Err(ScenarioError::invalid(
                "medium.sender_distances_m",
                format!("{d} is not a distance >= 0"),
            ));
        }
        for (name, p) in &self.positions_m {
            if !stations.contains(name) {
                return Err(ScenarioError::invalid(
                    "medium.positions_m",
                    format!(
                        "no station `{name}` in this scenario (stations: {})",
                        stations.join(", ")
                    ),
                ));
            }
            if !p.iter().all(|c| c.is_finite() && c.abs() <= 1e6) {
                return Err(ScenarioError::invalid(
                    format!("medium.positions_m.{name}"),
                    format!("{p:?} is not a position within 1000 km"),
                ));
            }
        }
        if let Some(missing) = stations.iter().find(|s| self.position(s).is_none()) {
            return Err(ScenarioError::invalid(
                "medium.positions_m",
                format!(
                    "has no position for station `{missing}` (give it in medium.positions_m; \
                     medium.sender_distances_m places tx0, tx1, ... and puts the receivers at the origin)"
                ),
            ));
        }
        Ok(())
    }

    /// The emulator's channel: `[medium.radio]` and `[medium.mac]` as `v2x sim` reads
    /// `[radio]` and `[mac]`.
    pub fn channel(&self) -> Result<ChannelModel, ScenarioError> {
        let defaults = ChannelModel::default();
        let (radio, mac) =
            emulator::radio_and_mac(&self.radio, &self.mac).map_err(|e| ScenarioError::invalid("medium", e))?;
        let model = ChannelModel {
            radio,
            mac,
            access_category: self.access_category.unwrap_or(defaults.access_category),
            carrier_sense: self.carrier_sense.unwrap_or(defaults.carrier_sense),
            seed: self.seed.unwrap_or(defaults.seed),
        };
        model.check().map_err(|e| ScenarioError::invalid("medium", e))?;
        Ok(model)
    }

    /// Where station `name` stands: its `positions_m` entry, else from `sender_distances_m`
    /// (`txN` on the x axis, receivers `rxN` at the origin).
    pub fn position(&self, name: &str) -> Option<[f64; 2]> {
        if let Some(p) = self.positions_m.get(name) {
            return Some(*p);
        }
        if self.sender_distances_m.is_empty() {
            return None;
        }
        if name.strip_prefix("rx").is_some_and(|n| n.parse::<u32>().is_ok()) {
            return Some([0.0, 0.0]);
        }
        let i: usize = name.strip_prefix("tx")?.parse().ok()?;
        self.sender_distances_m.get(i).map(|&d| [d, 0.0])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    fn parse(text: &str) -> MediumConfig {
        toml::from_str(text).unwrap()
    }

    #[test]
    fn sender_distances_place_senders_on_a_line_and_receivers_at_the_origin() {
        let m = parse("kind = \"emulator\"\nsender_distances_m = [50.0, 300.0]\n[positions_m]\ntx1 = [0.0, 120.0]\n");
        m.check(&names(&["rx0", "tx0", "tx1"]), 2).unwrap();
        assert_eq!(m.position("rx0"), Some([0.0, 0.0]));
        assert_eq!(m.position("tx0"), Some([50.0, 0.0]));
        assert_eq!(m.position("tx1"), Some([0.0, 120.0]), "positions_m wins");
        assert_eq!(m.position("a-sig-01-0"), None);
    }

    #[test]
    fn errors_name_the_key_and_the_valid_choices() {
        let e = toml::from_str::<MediumConfig>("kind = \"wifi\"")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("loopback") && e.contains("emulator") && e.contains("netns"),
            "{e}"
        );
        let stations = names(&["rx0", "tx0", "a-sig-01-0"]);
        let m = parse("kind = \"emulator\"\nsender_distances_m = [50.0]\n");
        let e = m.check(&stations, 1).unwrap_err().to_string();
        assert!(e.contains("a-sig-01-0"), "{e}");
        let m = parse("kind = \"emulator\"\nsender_distances_m = [50.0, 60.0]\n");
        assert!(m
            .check(&stations, 1)
            .unwrap_err()
            .to_string()
            .contains("2 distances for 1 senders"));
        let m = parse("kind = \"emulator\"\n[positions_m]\ntx9 = [1.0, 2.0]\n");
        let e = m.check(&stations, 1).unwrap_err().to_string();
        assert!(e.contains("tx9") && e.contains("rx0, tx0"), "{e}");
        let m = parse("kind = \"netns\"\nnetns = true\n");
        assert!(m.check(&stations, 1).unwrap_err().to_string().contains("medium.netns"));
        let m = parse("sender_distances_m = [50.0]\n");
        assert!(m
            .check(&stations, 1)
            .unwrap_err()
            .to_string()
            .contains("kind = \"emulator\""));
        let m = parse("kind = \"emulator\"\nsender_distances_m = [50.0]\n[radio]\ndata_rate_mbps = 7.0\n");
        assert!(m
            .check(&names(&["rx0", "tx0"]), 1)
            .unwrap_err()
            .to_string()
            .contains("data_rate_mbps"));
        let m = parse("kind = \"emulator\"\nsender_distances_m = [50.0]\n[radio]\ntx_power = 7.0\n");
        assert!(m
            .check(&names(&["rx0", "tx0"]), 1)
            .unwrap_err()
            .to_string()
            .contains("tx_power"));
    }

    #[test]
    fn the_radio_table_reads_as_in_v2x_sim_presets_included() {
        let m = parse("kind = \"emulator\"\n[radio]\npreset = \"ns-3.44\"\ntx_power_dbm = 23.0\n");
        let r = m.channel().unwrap().radio;
        let (preset, _) = v2x_sim::scenario::RadioPreset::Ns3_44.defaults();
        assert_eq!(r.reception_model, preset.reception_model);
        assert_eq!(r.rx_sensitivity_dbm, preset.rx_sensitivity_dbm);
        assert_eq!(r.tx_power_dbm, 23.0, "a key given wins over the preset");
        let sim = v2x_sim::scenario::Scenario::parse(
            "name = \"x\"\nduration_s = 1.0\nwarmup_s = 0.0\n[mobility]\nkind = \"static\"\npositions_m = [[0.0, 0.0]]\n\
             [radio]\npreset = \"ns-3.44\"\ntx_power_dbm = 23.0\n[[variant]]\nname = \"p\"\nprotocol = \"none\"\n",
            "test",
        )
        .unwrap();
        assert_eq!(r, sim.radio, "the same [radio] as v2x sim's");
        assert_eq!(m.channel().unwrap().mac, sim.mac, "and the same [mac]");
    }
}
