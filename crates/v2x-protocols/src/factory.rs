//! Building stations of a protocol by name from a (serde) configuration.
//!
//! A [`Deployment`] holds what the stations of one protocol share (CA keys, the
//! hash-chain seed, trust anchors for commitments); every station it builds trusts every
//! other one. Bench uses [`build_pair`], the simulator and testbed [`Deployment::station`].
//!
//! ```toml
//! protocol = "tesla"           # none | hash-chain | tesla | 2flip | session | ieee1609.2 | etsi-v1.2.1
//! key_disclosure = "attached"  # protocol-specific fields, each with a default
//! ```
//!
//! The configuration structs: [`NoneConfig`], [`HashChainConfig`], [`TeslaConfig`],
//! [`TwoFlipConfig`], [`SessionConfig`], [`Dot2Config`], [`EtsiV121Config`].

use crate::authenticator::{Authenticator, StationId};
use crate::dot2::{Dot2Config, Dot2Deployment};
use crate::etsi_v1_2_1::{EtsiV121Config, EtsiV121Deployment};
use crate::hash_chain::{HashChainConfig, HashChainDeployment, Link};
use crate::none::{NoneConfig, NoneStation};
use crate::session::{SessionConfig, SessionDeployment, Topology};
use crate::tesla::{TeslaConfig, TeslaDeployment};
use crate::two_flip::{TwoFlipConfig, TwoFlipDeployment};
use serde::{Deserialize, Serialize};

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
}

impl Default for ProtocolConfig {
    fn default() -> Self {
        ProtocolConfig::None(NoneConfig::default())
    }
}

/// What a station is in the deployment (some protocols treat roadside units or group
/// leaders differently; others ignore it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Role {
    #[default]
    Vehicle,
    RoadsideUnit,
    GroupLeader,
}

/// Why a deployment or station could not be set up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("invalid configuration: {0}")]
    InvalidConfig(String),
    #[error("role {role:?} not supported by {protocol}")]
    UnsupportedRole { protocol: String, role: Role },
    #[error("station {0} already exists in this deployment")]
    DuplicateStation(StationId),
    #[error("crypto backend: {0}")]
    Crypto(String),
}

impl From<v2x_crypto::CryptoError> for SetupError {
    fn from(e: v2x_crypto::CryptoError) -> SetupError {
        SetupError::Crypto(e.to_string())
    }
}

/// Shared material of one protocol deployment.
pub struct Deployment {
    config: ProtocolConfig,
    inner: Inner,
    ids: std::collections::HashSet<StationId>,
}

enum Inner {
    None,
    HashChain(HashChainDeployment),
    Tesla(TeslaDeployment),
    TwoFlip(TwoFlipDeployment),
    Session(SessionDeployment),
    Dot2(Dot2Deployment),
    EtsiV121(Box<EtsiV121Deployment>),
}

impl Deployment {
    /// Sets up the shared material (CA keys, seeds) for `config`.
    pub fn new(config: &ProtocolConfig) -> Result<Deployment, SetupError> {
        let inner = match config {
            ProtocolConfig::None(_) => Inner::None,
            ProtocolConfig::HashChain(c) => Inner::HashChain(HashChainDeployment::new(c)?),
            ProtocolConfig::Tesla(c) => Inner::Tesla(TeslaDeployment::new(c)?),
            ProtocolConfig::TwoFlip(c) => Inner::TwoFlip(TwoFlipDeployment::new(c)),
            ProtocolConfig::Session(c) => Inner::Session(SessionDeployment::new(c)?),
            ProtocolConfig::Ieee1609Dot2(c) => Inner::Dot2(Dot2Deployment::new(c)?),
            ProtocolConfig::EtsiV121(c) => Inner::EtsiV121(Box::new(EtsiV121Deployment::new(c)?)),
        };
        Ok(Deployment {
            config: config.clone(),
            inner,
            ids: Default::default(),
        })
    }

    pub fn config(&self) -> &ProtocolConfig {
        &self.config
    }

    /// The hash-chain CA (trace and revoke pseudo-identities), for that protocol.
    pub fn hash_chain_ca(&self) -> Option<std::sync::Arc<std::sync::Mutex<crate::hash_chain::HashChainCa>>> {
        match &self.inner {
            Inner::HashChain(d) => Some(d.ca()),
            _ => None,
        }
    }

    /// The 2FLIP trusted authority (trace and revoke drivers), for that protocol.
    pub fn two_flip_authority(&self) -> Option<std::sync::Arc<std::sync::Mutex<crate::two_flip::TrustedAuthority>>> {
        match &self.inner {
            Inner::TwoFlip(d) => Some(d.authority()),
            _ => None,
        }
    }

    /// A new station with number `id` and `role`.
    pub fn station(&mut self, id: StationId, role: Role) -> Result<Box<dyn Authenticator>, SetupError> {
        if !self.ids.insert(id) {
            return Err(SetupError::DuplicateStation(id));
        }
        match (&self.config, &mut self.inner) {
            (ProtocolConfig::None(c), Inner::None) => Ok(Box::new(NoneStation::new(id, c.clone()))),
            (_, Inner::HashChain(d)) => Ok(Box::new(d.station(id, role)?)),
            (_, Inner::Tesla(d)) => Ok(Box::new(d.station(id, role)?)),
            (_, Inner::TwoFlip(d)) => Ok(Box::new(d.station(id, role)?)),
            (_, Inner::Session(d)) => Ok(Box::new(d.station(id, role)?)),
            (_, Inner::Dot2(d)) => Ok(Box::new(d.station(id, role)?)),
            (_, Inner::EtsiV121(d)) => Ok(Box::new(d.station(id, role)?)),
            _ => Err(SetupError::InvalidConfig(
                "deployment does not match its configuration".into(),
            )),
        }
    }
}

/// The role the sender of a bench pair takes for `config` (e.g. a roadside unit for the
/// hash-chain V2I variant, the group leader for group key distribution).
pub fn pair_sender_role(config: &ProtocolConfig) -> Role {
    match config {
        ProtocolConfig::None(_)
        | ProtocolConfig::Tesla(_)
        | ProtocolConfig::TwoFlip(_)
        | ProtocolConfig::Ieee1609Dot2(_)
        | ProtocolConfig::EtsiV121(_) => Role::Vehicle,
        ProtocolConfig::Session(c) => match c.topology {
            Topology::Pairwise => Role::Vehicle,
            Topology::Group => Role::GroupLeader,
        },
        ProtocolConfig::HashChain(c) => match c.pair_link {
            Link::V2v => Role::Vehicle,
            Link::V2i => Role::RoadsideUnit,
        },
    }
}

/// A sender and a receiver station.
pub type StationPair = (Box<dyn Authenticator>, Box<dyn Authenticator>);

/// A sender (station 1) and a receiver (station 2) that trust each other. Deliver every
/// packet `encap` returns, in order: the first call may put control packets (a TESLA
/// commitment, a handshake step) before the data packet.
pub fn build_pair(config: &ProtocolConfig) -> Result<StationPair, SetupError> {
    if let ProtocolConfig::Session(c) = config {
        // Pairwise sessions need the sender pointed at its peer.
        let mut dep = SessionDeployment::new(c)?;
        let mut sender = dep.station(StationId(1), pair_sender_role(config))?;
        let receiver = dep.station(StationId(2), Role::Vehicle)?;
        sender.connect(StationId(2));
        return Ok((Box::new(sender), Box::new(receiver)));
    }
    let mut dep = Deployment::new(config)?;
    let sender = dep.station(StationId(1), pair_sender_role(config))?;
    let receiver = dep.station(StationId(2), Role::Vehicle)?;
    Ok((sender, receiver))
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
    fn pair_exchanges_a_packet() {
        let (mut a, mut b) = build_pair(&ProtocolConfig::default()).unwrap();
        let out = a.encap(b"x", crate::Timestamp(0)).unwrap();
        let d = b.decap(&out[0].bytes, crate::Timestamp(0));
        assert!(d.outcome.is_accepted());
    }
}
