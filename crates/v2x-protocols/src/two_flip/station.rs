//! A 2FLIP vehicle (its TPD and the logged-in driver) behind the [`Authenticator`]
//! interface.

use super::authority::TrustedAuthority;
use super::config::TwoFlipConfig;
use super::describe::describe;
use super::receiver::TwoFlipReceiver;
use super::sender::sign_packet;
use super::tpd::{DriverFactors, Tpd};
use crate::authenticator::{Authenticator, Decapsulated, EncapError, OutgoingPacket, PacketKind, StationId, Timestamp};
use crate::describe::ProtocolDescription;
use std::sync::{Arc, Mutex};

/// A 2FLIP vehicle.
pub struct TwoFlipStation {
    id: StationId,
    tpd: Tpd,
    driver: DriverFactors,
    /// The trusted authority, standing for the RSU key-update channel.
    ta: Arc<Mutex<TrustedAuthority>>,
    receiver: TwoFlipReceiver,
}

impl TwoFlipStation {
    pub fn new(
        id: StationId,
        config: TwoFlipConfig,
        tpd: Tpd,
        driver: DriverFactors,
        ta: Arc<Mutex<TrustedAuthority>>,
    ) -> TwoFlipStation {
        TwoFlipStation {
            id,
            tpd,
            driver,
            ta,
            receiver: TwoFlipReceiver::new(&config),
        }
    }

    /// The driver presents factors to the TPD (checked at every signature).
    pub fn login(&mut self, driver: DriverFactors) {
        self.driver = driver;
    }

    pub fn driver(&self) -> &DriverFactors {
        &self.driver
    }
}

impl Authenticator for TwoFlipStation {
    fn name(&self) -> &str {
        "2flip"
    }

    fn station_id(&self) -> StationId {
        self.id
    }

    fn encap(&mut self, payload: &[u8], now: Timestamp) -> Result<Vec<OutgoingPacket>, EncapError> {
        let packet = sign_packet(&mut self.tpd, &self.driver, &self.ta, payload, now)?;
        Ok(vec![OutgoingPacket::broadcast(PacketKind::Data, packet)])
    }

    fn decap(&mut self, packet: &[u8], now: Timestamp) -> Decapsulated {
        Decapsulated::outcome(self.receiver.decap(&mut self.tpd, &self.driver, &self.ta, packet, now))
    }

    fn describe(&self) -> ProtocolDescription {
        describe()
    }
}
