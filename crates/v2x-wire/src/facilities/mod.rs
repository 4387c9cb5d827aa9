//! Facilities-layer payloads carried over BTP: ETSI CAM (EN 302 637-2 v1.4.1) and DENM
//! (EN 302 637-3 v1.3.1) with the ITS common data dictionary of TS 102 894-2 v1.3.1,
//! UPER-encoded with `rasn`.
//!
//! Modelled: the whole CAM with basic container, basic-vehicle high-frequency container,
//! optional basic-vehicle low-frequency container and special-vehicle container (the seven
//! containers the CAM SSP governs); the DENM management and situation containers. Not
//! modelled (and so never emitted; decoding a message that carries one fails with a decode
//! error rather than guessing): the CAM RSU high-frequency container, the DENM location and
//! à-la-carte containers, and DENM event history. These optional parts are typed [`NotModelled`], which refuses to encode or decode.

use rasn::prelude::*;

/// ItsPduHeader protocolVersion of CAM v1.4.1 and DENM v1.3.1.
pub const ITS_PROTOCOL_VERSION: u8 = 2;
pub const MESSAGE_ID_DENM: u8 = 1;
pub const MESSAGE_ID_CAM: u8 = 2;

/// Placeholder for an optional container this codec does not model: always absent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotModelled {}

impl AsnType for NotModelled {
    const TAG: Tag = Tag::SEQUENCE;
}

impl Encode for NotModelled {
    fn encode_with_tag_and_constraints<'b, E: Encoder<'b>>(
        &self,
        _encoder: &mut E,
        _tag: Tag,
        _constraints: &Constraints,
        _identifier: Identifier,
    ) -> Result<(), E::Error> {
        match *self {}
    }
}

impl Decode for NotModelled {
    fn decode_with_tag_and_constraints<D: Decoder>(
        decoder: &mut D,
        _tag: Tag,
        _constraints: &Constraints,
    ) -> Result<Self, D::Error> {
        Err(rasn::de::Error::custom(
            "container not modelled by this codec",
            decoder.codec(),
        ))
    }
}

mod build;
mod cam;
mod cdd;
mod denm;

pub use build::*;
pub use cam::*;
pub use cdd::*;
pub use denm::*;

pub fn encode_cam(cam: &Cam) -> Result<Vec<u8>, rasn::error::EncodeError> {
    rasn::uper::encode(cam)
}

pub fn encode_denm(denm: &Denm) -> Result<Vec<u8>, rasn::error::EncodeError> {
    rasn::uper::encode(denm)
}

pub fn decode_cam(bytes: &[u8]) -> Result<Cam, rasn::error::DecodeError> {
    rasn::uper::decode(bytes)
}

pub fn decode_denm(bytes: &[u8]) -> Result<Denm, rasn::error::DecodeError> {
    rasn::uper::decode(bytes)
}

/// The ItsPduHeader opening every CAM/DENM: UPER puts its three constrained integers on
/// whole bytes (8 + 8 + 32 bits), so it reads without the rest of the message.
pub fn peek_header(bytes: &[u8]) -> Option<ItsPduHeader> {
    match bytes {
        [v, m, a, b, c, d, ..] => Some(ItsPduHeader {
            protocol_version: *v,
            message_id: *m,
            station_id: u32::from_be_bytes([*a, *b, *c, *d]),
        }),
        _ => None,
    }
}

/// Which optional containers a UPER CAM carries, read from the presence bits of
/// `CamParameters` without decoding the rest: the header (6 octets) and generationDeltaTime
/// (2 octets) are fixed, then come the extension bit and the two OPTIONAL bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CamContainersPresent {
    pub low_frequency: bool,
    pub special_vehicle: bool,
}

pub fn peek_cam_containers(bytes: &[u8]) -> Option<CamContainersPresent> {
    let header = peek_header(bytes)?;
    if header.message_id != MESSAGE_ID_CAM {
        return None;
    }
    let bits = *bytes.get(8)?;
    Some(CamContainersPresent {
        low_frequency: bits & 0x40 != 0,
        special_vehicle: bits & 0x20 != 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state() -> VehicleState {
        VehicleState {
            station_id: 0x0102_0304,
            latitude: 487_654_321,
            longitude: 23_456_789,
            speed: 1389,
            heading: 900,
            altitude_cm: 25_000,
        }
    }

    #[test]
    fn cam_round_trips() {
        for lf in [false, true] {
            let cam = passenger_car_cam(&state(), 1234, lf);
            let bytes = encode_cam(&cam).unwrap();
            assert_eq!(&bytes[..6], &[2, 2, 1, 2, 3, 4]);
            assert_eq!(decode_cam(&bytes).unwrap(), cam);
            assert_eq!(peek_header(&bytes), Some(cam.header));
        }
    }

    #[test]
    fn denm_round_trips() {
        let denm = hazard_denm(&state(), 7, 600_000_000_000, 3, 0);
        let bytes = encode_denm(&denm).unwrap();
        assert_eq!(&bytes[..6], &[2, 1, 1, 2, 3, 4]);
        assert_eq!(decode_denm(&bytes).unwrap(), denm);
    }

    #[test]
    fn special_vehicle_containers_round_trip() {
        let bits = |b: &[bool]| b.iter().copied().collect::<BitString>();
        let containers = vec![
            SpecialVehicleContainer::PublicTransport(PublicTransportContainer {
                embarkation_status: true,
                pt_activation: Some(PtActivation {
                    pt_activation_type: 1,
                    pt_activation_data: OctetString::from_static(&[1, 2, 3]),
                }),
            }),
            SpecialVehicleContainer::SpecialTransport(SpecialTransportContainer {
                special_transport_type: bits(&[true, false, true, false]),
                light_bar_siren_in_use: bits(&[true, false]),
            }),
            SpecialVehicleContainer::DangerousGoods(DangerousGoodsContainer {
                dangerous_goods_basic: DangerousGoodsBasic::FlammableLiquids,
            }),
            SpecialVehicleContainer::RoadWorks(RoadWorksContainerBasic {
                roadworks_sub_cause_code: Some(4),
                light_bar_siren_in_use: bits(&[true, true]),
                closed_lanes: Some(ClosedLanes::new(
                    Some(HardShoulderStatus::Closed),
                    None,
                    Some(bits(&[true, false, false])),
                )),
            }),
            SpecialVehicleContainer::Rescue(RescueContainer {
                light_bar_siren_in_use: bits(&[false, true]),
            }),
            SpecialVehicleContainer::Emergency(EmergencyContainer {
                light_bar_siren_in_use: bits(&[true, true]),
                incident_indication: None,
                emergency_priority: Some(bits(&[true, false])),
            }),
            SpecialVehicleContainer::SafetyCar(SafetyCarContainer {
                light_bar_siren_in_use: bits(&[true, false]),
                incident_indication: None,
                traffic_rule: Some(TrafficRule::NoPassingForTrucks),
                speed_limit: Some(80),
            }),
        ];
        for c in containers {
            let mut cam = passenger_car_cam(&state(), 77, true);
            cam.cam.cam_parameters.special_vehicle_container = Some(c);
            let bytes = encode_cam(&cam).unwrap();
            assert_eq!(decode_cam(&bytes).unwrap(), cam);
            let present = peek_cam_containers(&bytes).unwrap();
            assert!(present.low_frequency && present.special_vehicle);
        }
        for lf in [false, true] {
            let bytes = encode_cam(&passenger_car_cam(&state(), 77, lf)).unwrap();
            assert_eq!(
                peek_cam_containers(&bytes),
                Some(CamContainersPresent {
                    low_frequency: lf,
                    special_vehicle: false
                })
            );
        }
    }

    #[test]
    fn not_modelled_container_is_a_decode_error() {
        let mut bytes = encode_cam(&passenger_car_cam(&state(), 1, false)).unwrap();
        // Garbage never panics.
        bytes.truncate(9);
        assert!(decode_cam(&bytes).is_err());
    }
}
