//! What the signer's SSP allows a message to say.
//!
//! ETSI defines the SSP of the CA service (EN 302 637-2 v1.4.1 §6.2.2.2; TS 103 900) and of
//! the DEN service (EN 302 637-3 v1.3.1 §6.2.2.2; TS 103 831) as a version octet followed by
//! permission bits. [`CAM_SSP`] and [`DENM_SSP`] are those tables. A CAM or DENM is accepted
//! only when its signer's SSP has a known version and the length that version needs, and
//! every special-vehicle container, special vehicle role and DENM cause code it carries has
//! its bit set. The facilities payload (bare, or behind the GeoNetworking SHB and BTP-B
//! headers that SN-ENCAP secures) is decoded whole for that; one that does not decode as the
//! message type of its PSID fails closed ([`SspViolation::Unverifiable`], reason
//! `ssp-unverifiable`): what it would say cannot be checked. The one exception is a CAM SSP
//! that grants every CA permission: no CAM could exceed it, so there is nothing to verify.
//!
//! Other PSIDs have no SSP semantics here, or a plain bit mask ([`SspRule::Mask`]).

// On the decap path (issue 29): a typed rejection, never a panic, outside tests.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)
)]

use v2x_wire::facilities::{
    decode_cam, decode_denm, peek_header, Cam, FacilitiesError, HighFrequencyContainer, LowFrequencyContainer,
    SpecialVehicleContainer, TrafficRule, VehicleRole, MESSAGE_ID_CAM, MESSAGE_ID_DENM,
};
use v2x_wire::geonet::NetworkPart;

/// A required SSP: the certificate's SSP, masked, must equal `value` masked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SspRequirement {
    pub value: Vec<u8>,
    pub mask: Vec<u8>,
}

impl SspRequirement {
    /// True if `ssp` satisfies the requirement (a missing SSP satisfies nothing but an
    /// all-zero mask).
    pub fn is_met_by(&self, ssp: Option<&[u8]>) -> bool {
        let ssp = ssp.unwrap_or(&[]);
        self.mask.iter().enumerate().all(|(i, m)| {
            let want = self.value.get(i).copied().unwrap_or(0) & m;
            let have = ssp.get(i).copied().unwrap_or(0) & m;
            want == have
        })
    }
}

/// How a PSID's SSP governs its messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SspRule {
    /// No SSP semantics: any SSP (or none) is fine.
    Any,
    /// The SSP's bits under `mask` must equal `value`.
    Mask(SspRequirement),
    /// The ETSI CA service SSP ([`CAM_SSP`]).
    EtsiCam,
    /// The ETSI DEN service SSP ([`DENM_SSP`]).
    EtsiDenm,
    /// INSECURE, for lab traffic whose payloads are measurement records rather than CAMs or
    /// DENMs (the testbed's stations, the simulator's real-crypto mode, the benchmarks): the
    /// ETSI SSP's version and length are checked, the payload is not read, so no
    /// special-vehicle container or cause code is checked against it. Never a default; set
    /// by [`crate::Profile::insecure_synthetic_payload`].
    InsecureSyntheticPayload(EtsiService),
}

/// The ETSI service whose SSP table applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EtsiService {
    Cam,
    Denm,
}

/// One permission of the CA service SSP.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CamPermission {
    /// CenDsrcTollingZone / ProtectedCommunicationZonesRSU.
    CenDsrcTollingZone,
    PublicTransport,
    SpecialTransport,
    DangerousGoods,
    Roadwork,
    Rescue,
    Emergency,
    SafetyCar,
    /// ClosedLanes in RoadWorksContainerBasic.
    ClosedLanes,
    /// EmergencyPriority.requestForRightOfWay in EmergencyContainer.
    RequestForRightOfWay,
    /// EmergencyPriority.requestForFreeCrossingAtATrafficLight in EmergencyContainer.
    RequestForFreeCrossingAtATrafficLight,
    /// TrafficRule noPassing in SafetyCarContainer.
    NoPassing,
    /// TrafficRule noPassingForTrucks in SafetyCarContainer.
    NoPassingForTrucks,
    /// SpeedLimit in SafetyCarContainer.
    SpeedLimit,
}

/// The CA service SSP, version 1 (EN 302 637-2 v1.4.1 §6.2.2.2): octet 0 is the version;
/// each permission is one bit (octet index, bit mask; bits counted from the most
/// significant). Octet 2's two least significant bits are reserved.
pub const CAM_SSP: [(CamPermission, usize, u8); 14] = [
    (CamPermission::CenDsrcTollingZone, 1, 0x80),
    (CamPermission::PublicTransport, 1, 0x40),
    (CamPermission::SpecialTransport, 1, 0x20),
    (CamPermission::DangerousGoods, 1, 0x10),
    (CamPermission::Roadwork, 1, 0x08),
    (CamPermission::Rescue, 1, 0x04),
    (CamPermission::Emergency, 1, 0x02),
    (CamPermission::SafetyCar, 1, 0x01),
    (CamPermission::ClosedLanes, 2, 0x80),
    (CamPermission::RequestForRightOfWay, 2, 0x40),
    (CamPermission::RequestForFreeCrossingAtATrafficLight, 2, 0x20),
    (CamPermission::NoPassing, 2, 0x10),
    (CamPermission::NoPassingForTrucks, 2, 0x08),
    (CamPermission::SpeedLimit, 2, 0x04),
];

/// The DEN service SSP (EN 302 637-3 v1.3.1 §6.2.2.2 for version 1; TS 103 831 v2.2.1 for
/// version 2, which adds octet 4): (causeCode, name, octet index, bit mask). A DENM may carry
/// a cause code only when its bit is set; cause codes without a bit are not permitted.
pub const DENM_SSP: [(u8, &str, usize, u8); 28] = [
    (1, "trafficCondition", 1, 0x80),
    (2, "accident", 1, 0x40),
    (3, "roadworks", 1, 0x20),
    (6, "adverseWeatherCondition-Adhesion", 1, 0x10),
    (9, "hazardousLocation-SurfaceCondition", 1, 0x08),
    (10, "hazardousLocation-ObstacleOnTheRoad", 1, 0x04),
    (11, "hazardousLocation-AnimalOnTheRoad", 1, 0x02),
    (12, "humanPresenceOnTheRoad", 1, 0x01),
    (14, "wrongWayDriving", 2, 0x80),
    (15, "rescueAndRecoveryWorkInProgress", 2, 0x40),
    (17, "adverseWeatherCondition-ExtremeWeatherCondition", 2, 0x20),
    (18, "adverseWeatherCondition-Visibility", 2, 0x10),
    (19, "adverseWeatherCondition-Precipitation", 2, 0x08),
    (26, "slowVehicle", 2, 0x04),
    (27, "dangerousEndOfQueue", 2, 0x02),
    (91, "vehicleBreakdown", 2, 0x01),
    (92, "postCrash", 3, 0x80),
    (93, "humanProblem", 3, 0x40),
    (94, "stationaryVehicle", 3, 0x20),
    (95, "emergencyVehicleApproaching", 3, 0x10),
    (96, "hazardousLocation-DangerousCurve", 3, 0x08),
    (97, "collisionRisk", 3, 0x04),
    (98, "signalViolation", 3, 0x02),
    (99, "dangerousSituation", 3, 0x01),
    (5, "impassability", 4, 0x80),
    (7, "aquaplaning", 4, 0x40),
    (28, "publicTransportVehicleApproaching", 4, 0x20),
    (100, "railwayLevelCrossing", 4, 0x10),
];

/// Why an SSP does not allow a message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SspViolation {
    #[error("the signer's certificate has no SSP for this PSID")]
    Missing,
    #[error("SSP version {version} is not one this receiver knows ({known})")]
    UnknownVersion { version: u8, known: &'static str },
    #[error("SSP of {len} octets, version {version} needs {needed}")]
    TooShort { len: usize, version: u8, needed: usize },
    #[error("SSP {ssp} does not have the bits {value} under mask {mask}")]
    Mask { ssp: String, value: String, mask: String },
    #[error("the CAM needs the {0:?} permission, which the SSP does not grant")]
    Cam(CamPermission),
    #[error("the DENM cause code {cause} ({name}) is not granted by the SSP")]
    DenmCause { cause: u8, name: &'static str },
    #[error("the DENM cause code {0} has no SSP permission bit")]
    DenmCauseUnknown(u8),
    /// The payload is not a CAM/DENM this receiver reads, so the SSP cannot be checked.
    #[error("the payload does not decode as a {service}, so what it may say cannot be checked")]
    Unverifiable {
        service: &'static str,
        #[source]
        cause: FacilitiesError,
    },
}

impl SspViolation {
    /// The reason SN-DECAP names: `ssp-unverifiable` when the payload could not be read (fails
    /// closed), else `ssp-not-permitted`. The one mapping of every receiver (v2, post-quantum).
    pub fn reason(&self) -> crate::reason::RejectReason {
        match self {
            SspViolation::Unverifiable { .. } => crate::reason::RejectReason::SspUnverifiable,
            _ => crate::reason::RejectReason::SspNotPermitted,
        }
    }
}

impl SspRule {
    /// Checks that `ssp` (the signer's SSP for the message's PSID) allows `payload`.
    pub fn check(&self, ssp: Option<&[u8]>, payload: &[u8]) -> Result<(), SspViolation> {
        match self {
            SspRule::Any => Ok(()),
            SspRule::Mask(req) => {
                if req.is_met_by(ssp) {
                    Ok(())
                } else {
                    Err(SspViolation::Mask {
                        ssp: ssp.map_or("none".into(), hex::encode),
                        value: hex::encode(&req.value),
                        mask: hex::encode(&req.mask),
                    })
                }
            }
            SspRule::InsecureSyntheticPayload(EtsiService::Cam) => versioned(ssp, CAM_SSP_VERSIONS, "1").map(drop),
            SspRule::InsecureSyntheticPayload(EtsiService::Denm) => versioned(ssp, DENM_SSP_VERSIONS, "1, 2").map(drop),
            SspRule::EtsiCam => {
                let ssp = versioned(ssp, CAM_SSP_VERSIONS, "1")?;
                if CAM_SSP.iter().all(|&(p, ..)| has_cam_permission(ssp, p)) {
                    return Ok(());
                }
                let cam = decode_cam(facilities_pdu(payload))
                    .map_err(|cause| SspViolation::Unverifiable { service: "CAM", cause })?;
                for p in cam_needs(&cam) {
                    if !has_cam_permission(ssp, p) {
                        return Err(SspViolation::Cam(p));
                    }
                }
                Ok(())
            }
            SspRule::EtsiDenm => {
                let ssp = versioned(ssp, DENM_SSP_VERSIONS, "1, 2")?;
                let denm = decode_denm(facilities_pdu(payload))
                    .map_err(|cause| SspViolation::Unverifiable { service: "DENM", cause })?;
                // Cancellations and negations may carry no situation: no cause to permit.
                match denm.denm.situation.map(|s| s.event_type.cause_code) {
                    None => Ok(()),
                    Some(cause) => match DENM_SSP.iter().find(|(c, ..)| *c == cause) {
                        None => Err(SspViolation::DenmCauseUnknown(cause)),
                        Some(&(_, name, octet, bit)) => {
                            if ssp.get(octet).is_some_and(|o| o & bit != 0) {
                                Ok(())
                            } else {
                                Err(SspViolation::DenmCause { cause, name })
                            }
                        }
                    },
                }
            }
        }
    }
}

/// The CA service SSP versions known here and the length each needs.
const CAM_SSP_VERSIONS: &[(u8, usize)] = &[(1, 3)];
/// The DEN service SSP versions known here and the length each needs.
const DENM_SSP_VERSIONS: &[(u8, usize)] = &[(1, 4), (2, 5)];

/// The SSP if its version is one of `versions` (version, needed length).
fn versioned<'a>(
    ssp: Option<&'a [u8]>,
    versions: &[(u8, usize)],
    known: &'static str,
) -> Result<&'a [u8], SspViolation> {
    let ssp = ssp.ok_or(SspViolation::Missing)?;
    let version = *ssp.first().ok_or(SspViolation::TooShort {
        len: 0,
        version: 0,
        needed: 1,
    })?;
    let (_, needed) = versions
        .iter()
        .find(|(v, _)| *v == version)
        .ok_or(SspViolation::UnknownVersion { version, known })?;
    if ssp.len() < *needed {
        return Err(SspViolation::TooShort {
            len: ssp.len(),
            version,
            needed: *needed,
        });
    }
    Ok(ssp)
}

fn has_cam_permission(ssp: &[u8], p: CamPermission) -> bool {
    CAM_SSP
        .iter()
        .find(|(q, ..)| *q == p)
        .is_some_and(|&(_, octet, bit)| ssp.get(octet).is_some_and(|o| o & bit != 0))
}

/// The facilities PDU of a secured payload: behind the GeoNetworking SHB and BTP-B headers
/// when they parse, else the payload itself.
fn facilities_pdu(payload: &[u8]) -> &[u8] {
    match NetworkPart::parse(payload) {
        Ok(np) => np.payload,
        Err(_) => payload,
    }
}

/// The permissions a CAM needs.
fn cam_needs(cam: &Cam) -> Vec<CamPermission> {
    let mut needs = Vec::new();
    let params = &cam.cam.cam_parameters;
    if let Some(LowFrequencyContainer::BasicVehicle(lf)) = &params.low_frequency_container {
        let role = match lf.vehicle_role {
            VehicleRole::PublicTransport => Some(CamPermission::PublicTransport),
            VehicleRole::SpecialTransport => Some(CamPermission::SpecialTransport),
            VehicleRole::DangerousGoods => Some(CamPermission::DangerousGoods),
            VehicleRole::RoadWork => Some(CamPermission::Roadwork),
            VehicleRole::Rescue => Some(CamPermission::Rescue),
            VehicleRole::Emergency => Some(CamPermission::Emergency),
            VehicleRole::SafetyCar => Some(CamPermission::SafetyCar),
            // Default, and roles the CA service SSP has no bit for.
            _ => None,
        };
        needs.extend(role);
    }
    match &params.special_vehicle_container {
        None => {}
        Some(SpecialVehicleContainer::PublicTransport(_)) => needs.push(CamPermission::PublicTransport),
        Some(SpecialVehicleContainer::SpecialTransport(_)) => needs.push(CamPermission::SpecialTransport),
        Some(SpecialVehicleContainer::DangerousGoods(_)) => needs.push(CamPermission::DangerousGoods),
        Some(SpecialVehicleContainer::RoadWorks(c)) => {
            needs.push(CamPermission::Roadwork);
            if c.closed_lanes.is_some() {
                needs.push(CamPermission::ClosedLanes);
            }
        }
        Some(SpecialVehicleContainer::Rescue(_)) => needs.push(CamPermission::Rescue),
        Some(SpecialVehicleContainer::Emergency(c)) => {
            needs.push(CamPermission::Emergency);
            if let Some(priority) = &c.emergency_priority {
                if priority.first().is_some_and(|b| *b) {
                    needs.push(CamPermission::RequestForRightOfWay);
                }
                if priority.get(1).is_some_and(|b| *b) {
                    needs.push(CamPermission::RequestForFreeCrossingAtATrafficLight);
                }
            }
        }
        Some(SpecialVehicleContainer::SafetyCar(c)) => {
            needs.push(CamPermission::SafetyCar);
            match c.traffic_rule {
                Some(TrafficRule::NoPassing) => needs.push(CamPermission::NoPassing),
                Some(TrafficRule::NoPassingForTrucks) => needs.push(CamPermission::NoPassingForTrucks),
                _ => {}
            }
            if c.speed_limit.is_some() {
                needs.push(CamPermission::SpeedLimit);
            }
        }
        // A later extension of the CHOICE: the decoder refuses those, so this is unreachable.
        Some(_) => {}
    }
    // The RSU's protected zones and a vehicle's CEN DSRC tolling zone (EN 302 637-2 Table 4,
    // first bit).
    match &params.high_frequency_container {
        HighFrequencyContainer::BasicVehicle(hf) if hf.cen_dsrc_tolling_zone.is_some() => {
            needs.push(CamPermission::CenDsrcTollingZone)
        }
        HighFrequencyContainer::Rsu(rsu) if rsu.protected_communication_zones_rsu.is_some() => {
            needs.push(CamPermission::CenDsrcTollingZone)
        }
        _ => {}
    }
    needs
}

/// The message id of a facilities PDU this module knows (for diagnostics).
pub fn facilities_message_id(payload: &[u8]) -> Option<&'static str> {
    match peek_header(facilities_pdu(payload))?.message_id {
        MESSAGE_ID_CAM => Some("CAM"),
        MESSAGE_ID_DENM => Some("DENM"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ssp_requirement_masks() {
        let r = SspRequirement {
            value: vec![0x01, 0x80],
            mask: vec![0xff, 0x80],
        };
        assert!(r.is_met_by(Some(&[0x01, 0xff])));
        assert!(!r.is_met_by(Some(&[0x01, 0x7f])));
        assert!(!r.is_met_by(None));
    }

    #[test]
    fn cam_ssp_structure() {
        let rule = SspRule::EtsiCam;
        assert_eq!(rule.check(None, b"x"), Err(SspViolation::Missing));
        assert!(matches!(
            rule.check(Some(&[0, 0, 0]), b"x"),
            Err(SspViolation::UnknownVersion { version: 0, .. })
        ));
        assert!(matches!(
            rule.check(Some(&[1, 0]), b"x"),
            Err(SspViolation::TooShort { .. })
        ));
        assert!(matches!(
            rule.check(Some(&[1, 0, 0]), b"undecodable"),
            Err(SspViolation::Unverifiable { service: "CAM", .. })
        ));
        // An SSP granting every CA permission has nothing left to verify.
        assert_eq!(rule.check(Some(&[1, 0xff, 0xfc]), b"undecodable"), Ok(()));
        assert!(matches!(
            SspRule::EtsiDenm.check(Some(&[1, 0xff, 0xff, 0xff]), b"undecodable"),
            Err(SspViolation::Unverifiable { service: "DENM", .. })
        ));
    }

    #[test]
    fn denm_table_covers_each_cause_once_and_each_bit_once() {
        let mut causes: Vec<u8> = DENM_SSP.iter().map(|e| e.0).collect();
        causes.sort();
        causes.dedup();
        assert_eq!(causes.len(), DENM_SSP.len());
        let mut bits: Vec<(usize, u8)> = DENM_SSP.iter().map(|e| (e.2, e.3)).collect();
        bits.sort();
        bits.dedup();
        assert_eq!(bits.len(), DENM_SSP.len());
        // The ETSI default DENM SSP (version 1, all bits) grants exactly the 24 version-1 causes.
        assert_eq!(DENM_SSP.iter().filter(|e| e.2 <= 3).count(), 24);
    }
}
