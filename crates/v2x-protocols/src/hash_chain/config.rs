//! Parameters of the hash-chain protocol.

use super::wire::INDEX_MASK;
use crate::setup::{Role, SetupError};
use serde::{Deserialize, Serialize};
use v2x_crypto::Curve;

/// Which link a bench pair exercises.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Link {
    #[default]
    V2v,
    V2i,
}

/// Parameters of the hash-chain protocol.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HashChainConfig {
    /// n: keys in the hash chain table (at most 2^30).
    pub chain_length: u32,
    /// Oldest accepted timestamp, in milliseconds.
    pub freshness_window_ms: u32,
    /// Largest accepted clock lead of a sender, in milliseconds.
    pub max_future_ms: u32,
    /// Reject a second copy of a message inside the freshness window.
    pub replay_detection: bool,
    /// Bound of the replay window (entries).
    pub replay_cache_capacity: usize,
    /// PIDs the CA issues per driver.
    pub pseudonyms_per_vehicle: u32,
    /// How long a vehicle keeps one PID before switching to the next.
    pub pseudonym_lifetime_ms: u64,
    /// Curve of the RSU certificates and signatures.
    pub rsu_curve: Curve,
    /// Which link `build_pair` sets up (vehicle or RSU as sender).
    pub pair_link: Link,
    /// Fixed seed for key-index and pseudonym choices (reproducible runs only).
    pub rng_seed: Option<u64>,
}

impl Default for HashChainConfig {
    fn default() -> Self {
        HashChainConfig {
            chain_length: 1024,
            freshness_window_ms: 500,
            max_future_ms: 100,
            replay_detection: true,
            replay_cache_capacity: 65_536,
            pseudonyms_per_vehicle: 16,
            pseudonym_lifetime_ms: 60_000,
            rsu_curve: Curve::NistP256,
            pair_link: Link::V2v,
            rng_seed: None,
        }
    }
}

impl HashChainConfig {
    pub fn validate(&self) -> Result<(), SetupError> {
        if self.chain_length == 0 || self.chain_length > INDEX_MASK {
            return Err(SetupError::InvalidConfig(format!(
                "chain_length must be in 1..={INDEX_MASK}"
            )));
        }
        if self.pseudonyms_per_vehicle == 0 {
            return Err(SetupError::InvalidConfig(
                "pseudonyms_per_vehicle must be at least 1".into(),
            ));
        }
        Ok(())
    }

    /// The role the sender of a bench pair takes: a roadside unit for the V2I link.
    pub fn pair_sender_role(&self) -> Role {
        match self.pair_link {
            Link::V2v => Role::Vehicle,
            Link::V2i => Role::RoadsideUnit,
        }
    }
}
