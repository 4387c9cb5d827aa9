//! Building stations of a protocol by name from a (serde) configuration: the factory
//! maps a [`ProtocolConfig`] to that protocol's [`ProtocolDeployment`], nothing more.
//!
//! A [`Deployment`] holds what the stations of one protocol share (CA keys, the
//! hash-chain seed, trust anchors for commitments); every station it builds trusts every
//! other one. Bench uses [`build_pair`], the simulator and testbed [`Deployment::station`].
//!
//! ```toml
//! protocol = "tesla"           # none | hash-chain | tesla | 2flip | session | ieee1609.2 | etsi-v1.2.1 | experimental-pq
//! key_disclosure = "attached"  # protocol-specific fields, each with a default
//! ```
//!
//! The configuration structs: [`NoneConfig`], [`HashChainConfig`], [`TeslaConfig`],
//! [`TwoFlipConfig`], [`SessionConfig`], [`Dot2Config`], [`EtsiV121Config`],
//! [`ExperimentalPqConfig`]. An unknown
//! protocol or variant name is refused with the list of valid ones.

use crate::authenticator::{Authenticator, StationId};
use crate::dot2::{Dot2Config, Dot2Deployment};
use crate::etsi_v1_2_1::{EtsiV121Config, EtsiV121Deployment};
use crate::experimental_pq::{ExperimentalPqConfig, ExperimentalPqDeployment};
use crate::hash_chain::{HashChainCa, HashChainConfig, HashChainDeployment};
use crate::none::{NoneConfig, NoneDeployment};
use crate::session::{SessionConfig, SessionDeployment};
use crate::setup::{ProtocolDeployment, Role, SetupError, StationPair};
use crate::tesla::{TeslaConfig, TeslaDeployment};
use crate::two_flip::{TrustedAuthority, TwoFlipConfig, TwoFlipDeployment};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::sync::{Arc, Mutex};

/// Which protocol, with its parameters. Tagged by `protocol`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "protocol", rename_all = "kebab-case")]
pub enum ProtocolConfig {
    /// No security (baseline).
    None(NoneConfig),
    /// Hash-chain HMAC protocol with pseudo-identities (paper 001).
    HashChain(HashChainConfig),
    /// TESLA with separate or attached key disclosure (papers 004 and 001 layouts).
    Tesla(TeslaConfig),
    /// 2FLIP (Wang et al.), as characterised in paper 001 §8.
    #[serde(rename = "2flip")]
    TwoFlip(TwoFlipConfig),
    /// Session-key schemes of paper 003 (Raya–Hubaux, Wang et al.).
    Session(SessionConfig),
    /// IEEE 1609.2 / TS 103 097 v2 through the v2x-security entity.
    #[serde(rename = "ieee1609.2")]
    Ieee1609Dot2(Dot2Config),
    /// Legacy ETSI TS 103 097 v1.2.1 through the v1.2.1 security entity.
    #[serde(rename = "etsi-v1.2.1")]
    EtsiV121(EtsiV121Config),
    /// EXPERIMENTAL post-quantum designs (no standard): the design is named in `design`.
    ExperimentalPq(ExperimentalPqConfig),
}

impl Default for ProtocolConfig {
    fn default() -> Self {
        ProtocolConfig::None(NoneConfig::default())
    }
}

impl ProtocolConfig {
    /// Every value the `protocol` key takes, in declaration order.
    pub const NAMES: [&'static str; 8] = [
        "none",
        "hash-chain",
        "tesla",
        "2flip",
        "session",
        "ieee1609.2",
        "etsi-v1.2.1",
        "experimental-pq",
    ];

    /// The `protocol` key of this configuration.
    pub fn protocol_key(&self) -> &'static str {
        let i = match self {
            ProtocolConfig::None(_) => 0,
            ProtocolConfig::HashChain(_) => 1,
            ProtocolConfig::Tesla(_) => 2,
            ProtocolConfig::TwoFlip(_) => 3,
            ProtocolConfig::Session(_) => 4,
            ProtocolConfig::Ieee1609Dot2(_) => 5,
            ProtocolConfig::EtsiV121(_) => 6,
            ProtocolConfig::ExperimentalPq(_) => 7,
        };
        ProtocolConfig::NAMES[i]
    }

    /// The shared material of a new deployment of this protocol.
    pub fn deployment(&self) -> Result<Box<dyn ProtocolDeployment>, SetupError> {
        Ok(match self {
            ProtocolConfig::None(c) => Box::new(NoneDeployment::new(c)),
            ProtocolConfig::HashChain(c) => Box::new(HashChainDeployment::new(c)?),
            ProtocolConfig::Tesla(c) => Box::new(TeslaDeployment::new(c)?),
            ProtocolConfig::TwoFlip(c) => Box::new(TwoFlipDeployment::new(c)),
            ProtocolConfig::Session(c) => Box::new(SessionDeployment::new(c)?),
            ProtocolConfig::Ieee1609Dot2(c) => Box::new(Dot2Deployment::new(c)?),
            ProtocolConfig::EtsiV121(c) => Box::new(EtsiV121Deployment::new(c)?),
            ProtocolConfig::ExperimentalPq(c) => Box::new(ExperimentalPqDeployment::new(c)?),
        })
    }

    /// The role the sender of a bench pair takes (a roadside unit for the hash-chain V2I
    /// link, the group leader for group key distribution; otherwise a vehicle).
    pub fn pair_sender_role(&self) -> Role {
        match self {
            ProtocolConfig::HashChain(c) => c.pair_sender_role(),
            ProtocolConfig::Session(c) => c.pair_sender_role(),
            _ => Role::Vehicle,
        }
    }
}

/// Shared material of one protocol deployment.
pub struct Deployment {
    config: ProtocolConfig,
    inner: Box<dyn ProtocolDeployment>,
    ids: HashSet<StationId>,
}

impl Deployment {
    /// Sets up the shared material (CA keys, seeds) for `config`.
    pub fn new(config: &ProtocolConfig) -> Result<Deployment, SetupError> {
        Ok(Deployment {
            config: config.clone(),
            inner: config.deployment()?,
            ids: HashSet::new(),
        })
    }

    pub fn config(&self) -> &ProtocolConfig {
        &self.config
    }

    /// The hash-chain CA (trace and revoke pseudo-identities), for that protocol.
    pub fn hash_chain_ca(&self) -> Option<Arc<Mutex<HashChainCa>>> {
        self.inner
            .as_any()
            .downcast_ref::<HashChainDeployment>()
            .map(HashChainDeployment::ca)
    }

    /// The 2FLIP trusted authority (trace and revoke drivers), for that protocol.
    pub fn two_flip_authority(&self) -> Option<Arc<Mutex<TrustedAuthority>>> {
        self.inner
            .as_any()
            .downcast_ref::<TwoFlipDeployment>()
            .map(TwoFlipDeployment::authority)
    }

    fn claim(&mut self, id: StationId) -> Result<(), SetupError> {
        if self.ids.insert(id) {
            Ok(())
        } else {
            Err(SetupError::DuplicateStation(id))
        }
    }

    /// A new station with number `id` and `role`.
    pub fn station(&mut self, id: StationId, role: Role) -> Result<Box<dyn Authenticator>, SetupError> {
        self.claim(id)?;
        self.inner.station(id, role)
    }

    /// Stations 1 (the pair's sender, see [`ProtocolConfig::pair_sender_role`]) and 2,
    /// ready for 1 to send to 2.
    pub fn pair(&mut self) -> Result<StationPair, SetupError> {
        self.claim(StationId(1))?;
        self.claim(StationId(2))?;
        self.inner.pair(self.config.pair_sender_role())
    }
}

/// The role the sender of a bench pair takes for `config`.
pub fn pair_sender_role(config: &ProtocolConfig) -> Role {
    config.pair_sender_role()
}

/// A sender (station 1) and a receiver (station 2) that trust each other. Deliver every
/// packet `encap` returns, in order: the first call may put control packets (a TESLA
/// commitment, a handshake step) before the data packet.
pub fn build_pair(config: &ProtocolConfig) -> Result<StationPair, SetupError> {
    Deployment::new(config)?.pair()
}

/// `n` vehicle stations numbered 1..=n of one deployment.
pub fn build_stations(config: &ProtocolConfig, n: u32) -> Result<Vec<Box<dyn Authenticator>>, SetupError> {
    let mut dep = Deployment::new(config)?;
    (1..=n).map(|i| dep.station(StationId(i), Role::Vehicle)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_parses_from_toml_with_defaults() {
        let c: ProtocolConfig = toml::from_str("protocol = \"none\"").unwrap();
        assert_eq!(c, ProtocolConfig::None(NoneConfig::default()));
        let c: ProtocolConfig = toml::from_str("protocol = \"none\"\nclaim_sender = false").unwrap();
        assert_eq!(c, ProtocolConfig::None(NoneConfig { claim_sender: false }));
        assert!(toml::from_str::<ProtocolConfig>("protocol = \"nope\"").is_err());
    }

    #[test]
    fn every_name_parses_and_unknown_names_list_the_valid_ones() {
        for name in ProtocolConfig::NAMES {
            // The experimental designs have no default design (each has its own costs).
            let extra = if name == "experimental-pq" {
                "\ndesign = \"experimental-partially-hybrid-ndss2024\""
            } else {
                ""
            };
            let c: ProtocolConfig = toml::from_str(&format!("protocol = \"{name}\"{extra}")).unwrap();
            assert_eq!(c.protocol_key(), name);
        }
        assert!(toml::from_str::<ProtocolConfig>("protocol = \"experimental-pq\"")
            .unwrap_err()
            .to_string()
            .contains("design"));
        let e = toml::from_str::<ProtocolConfig>("protocol = \"nope\"")
            .unwrap_err()
            .to_string();
        for name in ProtocolConfig::NAMES {
            assert!(e.contains(&format!("`{name}`")), "{name} missing from: {e}");
        }
        let e = toml::from_str::<ProtocolConfig>("protocol = \"tesla\"\nkey_disclosure = \"later\"")
            .unwrap_err()
            .to_string();
        assert!(e.contains("`separate`") && e.contains("`attached`"), "{e}");
        let e = serde_json::from_str::<ProtocolConfig>(r#"{"protocol": "session", "scheme": "rh"}"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("`raya-hubaux`") && e.contains("`wang`"), "{e}");
    }

    #[test]
    fn pair_exchanges_a_packet() {
        let (mut a, mut b) = build_pair(&ProtocolConfig::default()).unwrap();
        let out = a.encap(b"x", crate::Timestamp(0)).unwrap();
        let d = b.decap(&out[0].bytes, crate::Timestamp(0));
        assert!(d.outcome.is_accepted());
    }

    #[test]
    fn stations_are_numbered_once_and_authorities_are_reachable() {
        let mut d = Deployment::new(&ProtocolConfig::HashChain(Default::default())).unwrap();
        d.station(StationId(1), Role::Vehicle).unwrap();
        assert!(matches!(
            d.station(StationId(1), Role::Vehicle),
            Err(SetupError::DuplicateStation(StationId(1)))
        ));
        assert!(d.hash_chain_ca().is_some() && d.two_flip_authority().is_none());
        let d = Deployment::new(&ProtocolConfig::TwoFlip(Default::default())).unwrap();
        assert!(d.two_flip_authority().is_some());
    }
}
