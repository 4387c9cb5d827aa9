//! Data elements and frames of the ITS common data dictionary (TS 102 894-2 v1.3.1) that
//! CAMs and DENMs share: header, positions, heading, speed, vehicle dimensions and dynamics.

use super::*;

#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct ItsPduHeader {
    #[rasn(value("0..=255"), identifier = "protocolVersion")]
    pub protocol_version: u8,
    #[rasn(value("0..=255"), identifier = "messageID")]
    pub message_id: u8,
    #[rasn(value("0..=4294967295"), identifier = "stationID")]
    pub station_id: u32,
}

#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct PosConfidenceEllipse {
    #[rasn(value("0..=4095"), identifier = "semiMajorConfidence")]
    pub semi_major_confidence: u16,
    #[rasn(value("0..=4095"), identifier = "semiMinorConfidence")]
    pub semi_minor_confidence: u16,
    #[rasn(value("0..=3601"), identifier = "semiMajorOrientation")]
    pub semi_major_orientation: u16,
}

#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct Altitude {
    #[rasn(value("-100000..=800001"), identifier = "altitudeValue")]
    pub altitude_value: i32,
    /// AltitudeConfidence: ENUMERATED of 16 values, 15 = unavailable.
    #[rasn(identifier = "altitudeConfidence")]
    pub altitude_confidence: AltitudeConfidence,
}

#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(enumerated)]
pub enum AltitudeConfidence {
    Alt000_01 = 0,
    Alt000_02 = 1,
    Alt000_05 = 2,
    Alt000_10 = 3,
    Alt000_20 = 4,
    Alt000_50 = 5,
    Alt001_00 = 6,
    Alt002_00 = 7,
    Alt005_00 = 8,
    Alt010_00 = 9,
    Alt020_00 = 10,
    Alt050_00 = 11,
    Alt100_00 = 12,
    Alt200_00 = 13,
    OutOfRange = 14,
    Unavailable = 15,
}

#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct ReferencePosition {
    #[rasn(value("-900000000..=900000001"))]
    pub latitude: i32,
    #[rasn(value("-1800000000..=1800000001"))]
    pub longitude: i32,
    #[rasn(identifier = "positionConfidenceEllipse")]
    pub position_confidence_ellipse: PosConfidenceEllipse,
    pub altitude: Altitude,
}

#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
#[non_exhaustive]
pub struct BasicContainer {
    #[rasn(value("0..=255"), identifier = "stationType")]
    pub station_type: u8,
    #[rasn(identifier = "referencePosition")]
    pub reference_position: ReferencePosition,
}

#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct Heading {
    #[rasn(value("0..=3601"), identifier = "headingValue")]
    pub heading_value: u16,
    #[rasn(value("1..=127"), identifier = "headingConfidence")]
    pub heading_confidence: u8,
}

#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct Speed {
    #[rasn(value("0..=16383"), identifier = "speedValue")]
    pub speed_value: u16,
    #[rasn(value("1..=127"), identifier = "speedConfidence")]
    pub speed_confidence: u8,
}

#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(enumerated)]
pub enum DriveDirection {
    Forward = 0,
    Backward = 1,
    Unavailable = 2,
}

#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(enumerated)]
pub enum VehicleLengthConfidenceIndication {
    NoTrailerPresent = 0,
    TrailerPresentWithKnownLength = 1,
    TrailerPresentWithUnknownLength = 2,
    TrailerPresenceIsUnknown = 3,
    Unavailable = 4,
}

#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct VehicleLength {
    #[rasn(value("1..=1023"), identifier = "vehicleLengthValue")]
    pub vehicle_length_value: u16,
    #[rasn(identifier = "vehicleLengthConfidenceIndication")]
    pub vehicle_length_confidence_indication: VehicleLengthConfidenceIndication,
}

#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct LongitudinalAcceleration {
    #[rasn(value("-160..=161"), identifier = "longitudinalAccelerationValue")]
    pub value: i16,
    #[rasn(value("0..=102"), identifier = "longitudinalAccelerationConfidence")]
    pub confidence: u8,
}

#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(enumerated)]
pub enum CurvatureConfidence {
    OnePerMeter0_00002 = 0,
    OnePerMeter0_0001 = 1,
    OnePerMeter0_0005 = 2,
    OnePerMeter0_002 = 3,
    OnePerMeter0_01 = 4,
    OnePerMeter0_1 = 5,
    OutOfRange = 6,
    Unavailable = 7,
}

#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct Curvature {
    #[rasn(value("-1023..=1023"), identifier = "curvatureValue")]
    pub curvature_value: i16,
    #[rasn(identifier = "curvatureConfidence")]
    pub curvature_confidence: CurvatureConfidence,
}

#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(enumerated)]
#[non_exhaustive]
pub enum CurvatureCalculationMode {
    YawRateUsed = 0,
    YawRateNotUsed = 1,
    Unavailable = 2,
}

#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(enumerated)]
pub enum YawRateConfidence {
    DegSec000_01 = 0,
    DegSec000_05 = 1,
    DegSec000_10 = 2,
    DegSec001_00 = 3,
    DegSec005_00 = 4,
    DegSec010_00 = 5,
    DegSec100_00 = 6,
    OutOfRange = 7,
    Unavailable = 8,
}

#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct YawRate {
    #[rasn(value("-32766..=32767"), identifier = "yawRateValue")]
    pub yaw_rate_value: i16,
    #[rasn(identifier = "yawRateConfidence")]
    pub yaw_rate_confidence: YawRateConfidence,
}
