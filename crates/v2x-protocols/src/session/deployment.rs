//! Setting up a session-key deployment: the CA, the DSA parameters, the directory of
//! certified stations; and measuring message sizes on a real exchange.

use super::config::{SessionConfig, Topology};
use super::credentials::{Directory, Identity, Trust};
use super::crypto::{DecryptKey, DsaParams, SessionCa, SignatureAlg, SigningKey};
use super::describe::{describe, measure_exchange, StepSize};
use super::station::SessionStation;
use crate::authenticator::{Authenticator, StationId};
use crate::describe::{SharedDescription, REFERENCE_PAYLOAD_LEN};
use crate::setup::{ProtocolDeployment, Role, SetupError, StationPair};
use std::sync::{Arc, Mutex};

/// Shared material of a session-key deployment: CA, DSA parameters, directory.
pub struct SessionDeployment {
    config: SessionConfig,
    ca: Arc<SessionCa>,
    dsa: Option<DsaParams>,
    directory: Arc<Mutex<Directory>>,
    description: SharedDescription,
}

impl SessionDeployment {
    pub fn new(config: &SessionConfig) -> Result<SessionDeployment, SetupError> {
        if !(512..=4096).contains(&config.rsa_bits) {
            return Err(SetupError::InvalidConfig("rsa_bits must be in 512..=4096".into()));
        }
        let dsa = match config.signature {
            SignatureAlg::Dsa => Some(DsaParams::shared(config.dsa_bits)?),
            _ => None,
        };
        let ca_key = SigningKey::generate(config.signature, config.rsa_bits, dsa.as_ref())?;
        let measured = config.clone();
        Ok(SessionDeployment {
            config: config.clone(),
            ca: Arc::new(SessionCa::new(ca_key)?),
            dsa,
            directory: Arc::new(Mutex::new(Directory::default())),
            // Unmeasurable sizes (a failing crypto backend) are reported as 0.
            description: SharedDescription::new(move || {
                describe(&measured, &measure_steps(&measured).unwrap_or_default())
            }),
        })
    }

    pub fn directory(&self) -> Arc<Mutex<Directory>> {
        self.directory.clone()
    }

    /// A station with fresh keys, certified and listed in the directory (the
    /// [`ProtocolDeployment`] impl boxes it).
    pub fn station(&mut self, id: StationId, role: Role) -> Result<SessionStation, SetupError> {
        if role == Role::RoadsideUnit {
            return Err(SetupError::UnsupportedRole {
                protocol: self.config.protocol_name().into(),
                role,
            });
        }
        let sign_key = SigningKey::generate(self.config.signature, self.config.rsa_bits, self.dsa.as_ref())?;
        let decrypt_key = DecryptKey::generate(self.config.encryption, self.config.rsa_bits)?;
        let cert = self.ca.certify(id.0, &sign_key.public()?, &decrypt_key.public()?)?;
        self.directory
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(cert.clone());
        let identity = Identity {
            id: id.0,
            sign_key,
            decrypt_key,
            cert,
        };
        let trust = Trust::new(self.ca.clone(), self.directory.clone(), &self.config);
        Ok(SessionStation::new(
            identity,
            role,
            &self.config,
            trust,
            self.description.clone(),
        ))
    }

    /// Station 1 (`sender_role`) connected to station 2.
    pub fn session_pair(&mut self, sender_role: Role) -> Result<(SessionStation, SessionStation), SetupError> {
        let mut sender = SessionDeployment::station(self, StationId(1), sender_role)?;
        let receiver = SessionDeployment::station(self, StationId(2), Role::Vehicle)?;
        sender.connect(StationId(2));
        Ok((sender, receiver))
    }
}

impl ProtocolDeployment for SessionDeployment {
    fn station(&mut self, id: StationId, role: Role) -> Result<Box<dyn Authenticator>, SetupError> {
        Ok(Box::new(SessionDeployment::station(self, id, role)?))
    }

    /// Pairwise sessions need the sender pointed at its peer.
    fn pair(&mut self, sender_role: Role) -> Result<StationPair, SetupError> {
        let (a, b) = self.session_pair(sender_role)?;
        Ok((Box::new(a), Box::new(b)))
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// Runs a real exchange for `config` with a `REFERENCE_PAYLOAD_LEN`-byte payload and
/// reports every message's size.
pub fn measure_steps(config: &SessionConfig) -> Result<Vec<StepSize>, SetupError> {
    measure_steps_with(config, REFERENCE_PAYLOAD_LEN)
}

/// As [`measure_steps`] with a `payload_len`-byte payload (paper 003 uses 1024).
pub fn measure_steps_with(config: &SessionConfig, payload_len: usize) -> Result<Vec<StepSize>, SetupError> {
    let sender_role = match config.topology {
        Topology::Group => Role::GroupLeader,
        Topology::Pairwise => Role::Vehicle,
    };
    let (mut a, mut b) = SessionDeployment::new(config)?.session_pair(sender_role)?;
    measure_exchange(&mut a, &mut b, payload_len)
}
