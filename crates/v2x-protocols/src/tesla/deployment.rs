//! Setting up a TESLA deployment: who certifies commitment signers (an in-memory 1609.2
//! PKI, or a compact CA), and the stations they certify.

use super::bootstrap::TeslaSigner;
use super::config::{Bootstrap, TeslaConfig};
use super::describe::describe;
use super::station::TeslaStation;
use crate::authenticator::{Authenticator, PacketKind, StationId, Timestamp};
use crate::cert::CompactCa;
use crate::describe::SharedDescription;
use crate::dot2_pki::Dot2Pki;
use crate::setup::{ProtocolDeployment, Role, SetupError};

/// Shared material of a TESLA deployment: who certifies commitment signers.
pub struct TeslaDeployment {
    config: TeslaConfig,
    authority: Authority,
    description: SharedDescription,
}

enum Authority {
    Compact(CompactCa),
    Dot2(Dot2Pki),
}

impl TeslaDeployment {
    pub fn new(config: &TeslaConfig) -> Result<TeslaDeployment, SetupError> {
        config.validate()?;
        let authority = match config.bootstrap {
            Bootstrap::Compact => Authority::Compact(CompactCa::generate(config.curve)?),
            Bootstrap::Ieee1609Dot2 => Authority::Dot2(Dot2Pki::new(
                config.curve,
                &[config.commitment_psid],
                std::time::Duration::from_secs(7 * 24 * 3600),
                config.time_base,
            )?),
        };
        let measured = config.clone();
        let description = SharedDescription::new(move || {
            let commitment_len = match measured.bootstrap {
                Bootstrap::Compact => measured.format().commitment_len(),
                // An unmeasurable size (a failing crypto backend) is reported as 0.
                Bootstrap::Ieee1609Dot2 => measured_commitment_len(&measured).unwrap_or(0),
            };
            describe(&measured, commitment_len)
        });
        Ok(TeslaDeployment {
            config: config.clone(),
            authority,
            description,
        })
    }

    /// A station with its own certificate (the [`ProtocolDeployment`] impl boxes it).
    pub fn station(&mut self, id: StationId, _role: Role) -> Result<TeslaStation, SetupError> {
        let signer = match &self.authority {
            Authority::Compact(ca) => TeslaSigner::Compact {
                credential: ca.enrol(id.0, 0, u32::MAX)?,
                anchor: ca.anchor().clone(),
            },
            Authority::Dot2(pki) => {
                let (entity, ticket) = pki.entity()?;
                TeslaSigner::Ieee1609Dot2 {
                    entity: Box::new(entity),
                    ticket,
                    clock: pki.clock(),
                    psid: self.config.commitment_psid,
                }
            }
        };
        Ok(TeslaStation::new(
            id,
            self.config.clone(),
            signer,
            self.description.clone(),
        ))
    }
}

impl ProtocolDeployment for TeslaDeployment {
    fn station(&mut self, id: StationId, role: Role) -> Result<Box<dyn Authenticator>, SetupError> {
        Ok(Box::new(TeslaDeployment::station(self, id, role)?))
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// Length of a real commitment packet for `config` (builds a station to sign one).
pub fn measured_commitment_len(config: &TeslaConfig) -> Result<usize, SetupError> {
    let mut s = TeslaDeployment::new(config)?.station(StationId(1), Role::Vehicle)?;
    let out = s.encap(b"", Timestamp(1_000))?;
    Ok(out
        .iter()
        .find(|p| p.kind == PacketKind::Commitment)
        .map_or(0, |p| p.bytes.len()))
}
