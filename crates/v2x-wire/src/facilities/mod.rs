//! Facilities-layer payloads carried over BTP: ETSI CAM (EN 302 637-2 v1.4.1) and DENM
//! (EN 302 637-3 v1.3.1) with the ITS common data dictionary of TS 102 894-2 v1.3.1,
//! UPER-encoded with `rasn`.
//!
//! Every member of both messages is modelled: the CAM's basic, high-frequency (vehicle and
//! RSU, with all seven optional vehicle members), low-frequency and special-vehicle
//! containers; the DENM's management, situation (with event history), location and
//! à-la-carte containers (impact reduction, extended roadworks, stationary vehicle).
//!
//! Release 2 (CAM TS 103 900 v2.x, DENM TS 103 831 v2.x on CDD TS 102 894-2 v2.x) keeps
//! `protocolVersion` 2 and the same encoding of every root member (CDD v2 renamed types but
//! kept their UPER layout; `CauseCodeV2`'s CHOICE index over 129 alternatives is the 8 bits
//! of v1's `causeCode`), and adds extension additions. The CAM's one addition,
//! `extensionContainers`, is modelled (container id and its open-type octets, see
//! [`WrappedExtensionContainer`]); the DENM's additions (linked DENMs, event end, lane
//! positions, IVIM/MAPEM references, predicted paths, road configuration, pre-crash) are
//! read over by their length as X.691 requires of a receiver that knows an earlier minor
//! version, so a v2 DENM decodes to its root. No SSP permission depends on an addition.
//!
//! `protocolVersion` 1 (EN 302 637-2 v1.3.x, EN 302 637-3 v1.2.x on CDD v1.2.1, superseded
//! in 2019) encodes some members differently (`ClosedLanes`) and is refused with
//! [`FacilitiesError::UnsupportedProtocolVersion`] rather than misread.

use crate::shared::Shared;
use rasn::prelude::*;

/// ItsPduHeader protocolVersion of CAM v1.4.1 / TS 103 900 and DENM v1.3.1 / TS 103 831.
pub const ITS_PROTOCOL_VERSION: u8 = 2;
pub const MESSAGE_ID_DENM: u8 = 1;
pub const MESSAGE_ID_CAM: u8 = 2;

mod build;
mod cam;
mod cdd;
mod denm;

pub use build::*;
pub use cam::*;
pub use cdd::*;
pub use denm::*;

/// Why bytes are not a CAM or DENM this codec reads.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FacilitiesError {
    #[error("{len} bytes: too short for an ItsPduHeader (6 bytes)")]
    Truncated { len: usize },
    #[error("messageID {found}, not a {expected}")]
    WrongMessage { expected: &'static str, found: u8 },
    #[error("protocolVersion {0}: only version 2 (CAM EN 302 637-2 v1.4.1 / TS 103 900, DENM EN 302 637-3 v1.3.1 / TS 103 831) is read")]
    UnsupportedProtocolVersion(u8),
    #[error("UPER: {0}")]
    Decode(Shared<rasn::error::DecodeError>),
    #[error("{0} bytes after the end of the message")]
    TrailingBytes(usize),
}

pub fn encode_cam(cam: &Cam) -> Result<Vec<u8>, rasn::error::EncodeError> {
    rasn::uper::encode(cam)
}

pub fn encode_denm(denm: &Denm) -> Result<Vec<u8>, rasn::error::EncodeError> {
    rasn::uper::encode(denm)
}

/// A CAM: header checked first (protocol version 2, messageID cam), then the whole UPER
/// encoding, which must end in the input's last octet.
pub fn decode_cam(bytes: &[u8]) -> Result<Cam, FacilitiesError> {
    decode_exact(bytes, MESSAGE_ID_CAM, "CAM")
}

/// A DENM, checked as [`decode_cam`] checks a CAM.
pub fn decode_denm(bytes: &[u8]) -> Result<Denm, FacilitiesError> {
    decode_exact(bytes, MESSAGE_ID_DENM, "DENM")
}

fn decode_exact<T: Decode>(bytes: &[u8], message_id: u8, expected: &'static str) -> Result<T, FacilitiesError> {
    let header = peek_header(bytes).ok_or(FacilitiesError::Truncated { len: bytes.len() })?;
    if header.message_id != message_id {
        return Err(FacilitiesError::WrongMessage {
            expected,
            found: header.message_id,
        });
    }
    if header.protocol_version != ITS_PROTOCOL_VERSION {
        return Err(FacilitiesError::UnsupportedProtocolVersion(header.protocol_version));
    }
    let (value, rest) =
        rasn::uper::decode_with_remainder::<T>(bytes).map_err(|e| FacilitiesError::Decode(Shared::new(e)))?;
    if !rest.is_empty() {
        return Err(FacilitiesError::TrailingBytes(rest.len()));
    }
    Ok(value)
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
        }
    }

    #[test]
    fn truncated_trailing_and_foreign_bytes_are_typed_errors() {
        let bytes = encode_cam(&passenger_car_cam(&state(), 1, false)).unwrap();
        assert!(matches!(decode_cam(&bytes[..9]), Err(FacilitiesError::Decode(_))));
        assert_eq!(decode_cam(&bytes[..3]), Err(FacilitiesError::Truncated { len: 3 }));
        let mut long = bytes.clone();
        long.push(0);
        assert_eq!(decode_cam(&long), Err(FacilitiesError::TrailingBytes(1)));
        assert_eq!(
            decode_denm(&bytes),
            Err(FacilitiesError::WrongMessage {
                expected: "DENM",
                found: MESSAGE_ID_CAM
            })
        );
        let mut v1 = bytes;
        v1[0] = 1;
        assert_eq!(decode_cam(&v1), Err(FacilitiesError::UnsupportedProtocolVersion(1)));
    }
}
