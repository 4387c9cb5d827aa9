//! Setting up a 2FLIP deployment: one trusted authority registering every vehicle.

use super::authority::TrustedAuthority;
use super::config::TwoFlipConfig;
use super::station::TwoFlipStation;
use crate::authenticator::{Authenticator, StationId};
use crate::setup::{ProtocolDeployment, Role, SetupError};
use std::sync::{Arc, Mutex};

/// Shared material of a 2FLIP deployment.
pub struct TwoFlipDeployment {
    config: TwoFlipConfig,
    ta: Arc<Mutex<TrustedAuthority>>,
}

impl TwoFlipDeployment {
    pub fn new(config: &TwoFlipConfig) -> TwoFlipDeployment {
        TwoFlipDeployment {
            config: config.clone(),
            ta: Arc::new(Mutex::new(TrustedAuthority::new())),
        }
    }

    pub fn authority(&self) -> Arc<Mutex<TrustedAuthority>> {
        self.ta.clone()
    }

    /// A vehicle with its TPD and driver (the [`ProtocolDeployment`] impl boxes it).
    pub fn station(&mut self, id: StationId, role: Role) -> Result<TwoFlipStation, SetupError> {
        if role == Role::GroupLeader {
            return Err(SetupError::UnsupportedRole {
                protocol: "2flip".into(),
                role,
            });
        }
        let (tpd, driver) = self.ta.lock().unwrap_or_else(|e| e.into_inner()).register(id.0);
        Ok(TwoFlipStation::new(
            id,
            self.config.clone(),
            tpd,
            driver,
            self.ta.clone(),
        ))
    }
}

impl ProtocolDeployment for TwoFlipDeployment {
    fn station(&mut self, id: StationId, role: Role) -> Result<Box<dyn Authenticator>, SetupError> {
        Ok(Box::new(TwoFlipDeployment::station(self, id, role)?))
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}
