//! Setting up a hash-chain deployment: one CA; vehicles register for the seed and their
//! pseudonyms, roadside units also get a certificate.

use super::authority::HashChainCa;
use super::config::HashChainConfig;
use super::station::HashChainStation;
use crate::authenticator::{Authenticator, StationId};
use crate::setup::{ProtocolDeployment, Role, SetupError};
use std::sync::{Arc, Mutex};

/// Shared material of a hash-chain deployment.
pub struct HashChainDeployment {
    config: HashChainConfig,
    ca: Arc<Mutex<HashChainCa>>,
}

impl HashChainDeployment {
    pub fn new(config: &HashChainConfig) -> Result<HashChainDeployment, SetupError> {
        config.validate()?;
        Ok(HashChainDeployment {
            config: config.clone(),
            ca: Arc::new(Mutex::new(HashChainCa::new(config.rsu_curve)?)),
        })
    }

    /// The CA (trace, revoke). Revocations reach vehicles through RSUs' `poll`.
    pub fn ca(&self) -> Arc<Mutex<HashChainCa>> {
        self.ca.clone()
    }

    /// A vehicle or a roadside unit (the [`ProtocolDeployment`] impl boxes it).
    pub fn station(&mut self, id: StationId, role: Role) -> Result<HashChainStation, SetupError> {
        match role {
            Role::Vehicle => {
                let mut ca = self.ca.lock().unwrap_or_else(|e| e.into_inner());
                let reg = ca.register(id.0, self.config.pseudonyms_per_vehicle);
                Ok(HashChainStation::vehicle(
                    id,
                    self.config.clone(),
                    reg,
                    ca.anchor().clone(),
                ))
            }
            Role::RoadsideUnit => HashChainStation::roadside_unit(id, self.config.clone(), self.ca.clone()),
            Role::GroupLeader => Err(SetupError::UnsupportedRole {
                protocol: "hash-chain".into(),
                role,
            }),
        }
    }
}

impl ProtocolDeployment for HashChainDeployment {
    fn station(&mut self, id: StationId, role: Role) -> Result<Box<dyn Authenticator>, SetupError> {
        Ok(Box::new(HashChainDeployment::station(self, id, role)?))
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}
