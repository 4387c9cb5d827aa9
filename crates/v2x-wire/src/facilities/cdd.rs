//! Data elements and frames of the ITS common data dictionary (TS 102 894-2 v1.3.1) that
//! CAMs and DENMs use: header, positions, heading, speed, vehicle dimensions and dynamics,
//! cause codes, paths and traces, and the vehicle descriptions of the DENM à-la-carte
//! container. CDD v2.x renamed many of these (`StationType` → `TrafficParticipantType`,
//! `CauseCode` → `CauseCodeV2`, `Heading` → `Wgs84Angle` in places) without changing how
//! the CAM and DENM roots encode them in UPER, so these types read v2 messages too
//! (`mod.rs` says how).
//!
//! Bounded INTEGERs are plain Rust integers with their ASN.1 range; a named value (such as
//! `unavailable`) is documented where it matters.

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
pub struct DeltaReferencePosition {
    #[rasn(value("-131071..=131072"), identifier = "deltaLatitude")]
    pub delta_latitude: i32,
    #[rasn(value("-131071..=131072"), identifier = "deltaLongitude")]
    pub delta_longitude: i32,
    #[rasn(value("-12700..=12800"), identifier = "deltaAltitude")]
    pub delta_altitude: i16,
}

#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct PathPoint {
    #[rasn(identifier = "pathPosition")]
    pub path_position: DeltaReferencePosition,
    /// PathDeltaTime ::= INTEGER (1..65535, ...), 10 ms.
    #[rasn(value("1..=65535", extensible), identifier = "pathDeltaTime")]
    pub path_delta_time: Option<u16>,
}

/// PathHistory ::= SEQUENCE (SIZE(0..40)) OF PathPoint (CDD v2: `Path`).
#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq, Default)]
#[rasn(delegate, size("0..=40"))]
pub struct PathHistory(pub SequenceOf<PathPoint>);

/// Traces ::= SEQUENCE SIZE(1..7) OF PathHistory.
#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(delegate, size("1..=7"))]
pub struct Traces(pub SequenceOf<PathHistory>);

/// ItineraryPath ::= SEQUENCE SIZE(1..40) OF ReferencePosition.
#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(delegate, size("1..=40"))]
pub struct ItineraryPath(pub SequenceOf<ReferencePosition>);

#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct EventPoint {
    #[rasn(identifier = "eventPosition")]
    pub event_position: DeltaReferencePosition,
    #[rasn(value("1..=65535", extensible), identifier = "eventDeltaTime")]
    pub event_delta_time: Option<u16>,
    #[rasn(value("0..=7"), identifier = "informationQuality")]
    pub information_quality: u8,
}

/// EventHistory ::= SEQUENCE (SIZE(1..23)) OF EventPoint (CDD v2: `EventZone`).
#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(delegate, size("1..=23"))]
pub struct EventHistory(pub SequenceOf<EventPoint>);

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

/// LongitudinalAcceleration (CDD v2: `AccelerationComponent`), 0.1 m/s².
#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct LongitudinalAcceleration {
    #[rasn(value("-160..=161"), identifier = "longitudinalAccelerationValue")]
    pub value: i16,
    #[rasn(value("0..=102"), identifier = "longitudinalAccelerationConfidence")]
    pub confidence: u8,
}

/// LateralAcceleration (CDD v2: `AccelerationComponent`), 0.1 m/s², positive to the left.
#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct LateralAcceleration {
    #[rasn(value("-160..=161"), identifier = "lateralAccelerationValue")]
    pub value: i16,
    #[rasn(value("0..=102"), identifier = "lateralAccelerationConfidence")]
    pub confidence: u8,
}

/// VerticalAcceleration (CDD v2: `AccelerationComponent`), 0.1 m/s², positive up.
#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct VerticalAcceleration {
    #[rasn(value("-160..=161"), identifier = "verticalAccelerationValue")]
    pub value: i16,
    #[rasn(value("0..=102"), identifier = "verticalAccelerationConfidence")]
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

/// SteeringWheelAngle: value in 1.5° (-511..512, 512 = unavailable), confidence 1..127.
#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct SteeringWheelAngle {
    #[rasn(value("-511..=512"), identifier = "steeringWheelAngleValue")]
    pub steering_wheel_angle_value: i16,
    #[rasn(value("1..=127"), identifier = "steeringWheelAngleConfidence")]
    pub steering_wheel_angle_confidence: u8,
}

/// ProtectedZoneType ::= ENUMERATED { permanentCenDsrcTolling (0), ..., temporaryCenDsrcTolling (1) }.
#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(enumerated)]
#[non_exhaustive]
pub enum ProtectedZoneType {
    PermanentCenDsrcTolling = 0,
    #[rasn(extension_addition)]
    TemporaryCenDsrcTolling = 1,
}

#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
#[non_exhaustive]
pub struct ProtectedCommunicationZone {
    #[rasn(identifier = "protectedZoneType")]
    pub protected_zone_type: ProtectedZoneType,
    /// TimestampIts, ms since 2004.
    #[rasn(value("0..=4398046511103"), identifier = "expiryTime")]
    pub expiry_time: Option<u64>,
    #[rasn(value("-900000000..=900000001"), identifier = "protectedZoneLatitude")]
    pub protected_zone_latitude: i32,
    #[rasn(value("-1800000000..=1800000001"), identifier = "protectedZoneLongitude")]
    pub protected_zone_longitude: i32,
    /// ProtectedZoneRadius ::= INTEGER (1..255, ...), metres.
    #[rasn(value("1..=255", extensible), identifier = "protectedZoneRadius")]
    pub protected_zone_radius: Option<u32>,
    #[rasn(value("0..=134217727"), identifier = "protectedZoneID")]
    pub protected_zone_id: Option<u32>,
}

impl ProtectedCommunicationZone {
    pub fn new(protected_zone_type: ProtectedZoneType, latitude: i32, longitude: i32) -> ProtectedCommunicationZone {
        ProtectedCommunicationZone {
            protected_zone_type,
            expiry_time: None,
            protected_zone_latitude: latitude,
            protected_zone_longitude: longitude,
            protected_zone_radius: None,
            protected_zone_id: None,
        }
    }
}

/// ProtectedCommunicationZonesRSU ::= SEQUENCE (SIZE(1..16)) OF ProtectedCommunicationZone.
#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(delegate, size("1..=16"))]
pub struct ProtectedCommunicationZonesRsu(pub SequenceOf<ProtectedCommunicationZone>);

#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
#[non_exhaustive]
pub struct CenDsrcTollingZone {
    #[rasn(value("-900000000..=900000001"), identifier = "protectedZoneLatitude")]
    pub protected_zone_latitude: i32,
    #[rasn(value("-1800000000..=1800000001"), identifier = "protectedZoneLongitude")]
    pub protected_zone_longitude: i32,
    #[rasn(value("0..=134217727"), identifier = "cenDsrcTollingZoneID")]
    pub cen_dsrc_tolling_zone_id: Option<u32>,
}

impl CenDsrcTollingZone {
    pub fn new(latitude: i32, longitude: i32, id: Option<u32>) -> CenDsrcTollingZone {
        CenDsrcTollingZone {
            protected_zone_latitude: latitude,
            protected_zone_longitude: longitude,
            cen_dsrc_tolling_zone_id: id,
        }
    }
}

#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(enumerated)]
pub enum VehicleRole {
    Default = 0,
    PublicTransport = 1,
    SpecialTransport = 2,
    DangerousGoods = 3,
    RoadWork = 4,
    Rescue = 5,
    Emergency = 6,
    SafetyCar = 7,
    Agriculture = 8,
    Commercial = 9,
    Military = 10,
    RoadOperator = 11,
    Taxi = 12,
    Reserved1 = 13,
    Reserved2 = 14,
    Reserved3 = 15,
}

/// CauseCode ::= SEQUENCE { causeCode CauseCodeType, subCauseCode SubCauseCodeType, ... }.
/// CDD v2's `CauseCodeV2 ::= SEQUENCE { ccAndScc CauseCodeChoice, ... }` encodes the same
/// bits for cause codes 0..=128 (a CHOICE index over 129 alternatives is 8 bits, each
/// alternative an INTEGER (0..255)).
#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
#[non_exhaustive]
pub struct CauseCode {
    #[rasn(value("0..=255"), identifier = "causeCode")]
    pub cause_code: u8,
    #[rasn(value("0..=255"), identifier = "subCauseCode")]
    pub sub_cause_code: u8,
}

impl CauseCode {
    pub fn new(cause_code: u8, sub_cause_code: u8) -> CauseCode {
        CauseCode {
            cause_code,
            sub_cause_code,
        }
    }
}

#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(enumerated)]
pub enum HardShoulderStatus {
    AvailableForStopping = 0,
    Closed = 1,
    AvailableForDriving = 2,
}

/// ClosedLanes ::= SEQUENCE { innerhardShoulderStatus OPTIONAL, outerhardShoulderStatus
/// OPTIONAL, drivingLaneStatus BIT STRING (SIZE (1..13)) OPTIONAL, ... }.
#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
#[non_exhaustive]
pub struct ClosedLanes {
    #[rasn(identifier = "innerhardShoulderStatus")]
    pub inner_hard_shoulder_status: Option<HardShoulderStatus>,
    #[rasn(identifier = "outerhardShoulderStatus")]
    pub outer_hard_shoulder_status: Option<HardShoulderStatus>,
    #[rasn(size("1..=13"), identifier = "drivingLaneStatus")]
    pub driving_lane_status: Option<BitString>,
}

impl ClosedLanes {
    pub fn new(
        inner_hard_shoulder_status: Option<HardShoulderStatus>,
        outer_hard_shoulder_status: Option<HardShoulderStatus>,
        driving_lane_status: Option<BitString>,
    ) -> ClosedLanes {
        ClosedLanes {
            inner_hard_shoulder_status,
            outer_hard_shoulder_status,
            driving_lane_status,
        }
    }
}

#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(enumerated)]
#[non_exhaustive]
pub enum TrafficRule {
    NoPassing = 0,
    NoPassingForTrucks = 1,
    PassToRight = 2,
    PassToLeft = 3,
}

/// DangerousGoodsBasic (the UN ADR classes, TS 102 894-2).
#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(enumerated)]
pub enum DangerousGoodsBasic {
    Explosives1 = 0,
    Explosives2 = 1,
    Explosives3 = 2,
    Explosives4 = 3,
    Explosives5 = 4,
    Explosives6 = 5,
    FlammableGases = 6,
    NonFlammableGases = 7,
    ToxicGases = 8,
    FlammableLiquids = 9,
    FlammableSolids = 10,
    SubstancesLiableToSpontaneousCombustion = 11,
    SubstancesEmittingFlammableGasesUponContactWithWater = 12,
    OxidizingSubstances = 13,
    OrganicPeroxides = 14,
    ToxicSubstances = 15,
    InfectiousSubstances = 16,
    RadioactiveMaterial = 17,
    CorrosiveSubstances = 18,
    MiscellaneousDangerousSubstances = 19,
}

#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
#[non_exhaustive]
pub struct DangerousGoodsExtended {
    #[rasn(identifier = "dangerousGoodsType")]
    pub dangerous_goods_type: DangerousGoodsBasic,
    #[rasn(value("0..=9999"), identifier = "unNumber")]
    pub un_number: u16,
    #[rasn(identifier = "elevatedTemperature")]
    pub elevated_temperature: bool,
    #[rasn(identifier = "tunnelsRestricted")]
    pub tunnels_restricted: bool,
    #[rasn(identifier = "limitedQuantity")]
    pub limited_quantity: bool,
    #[rasn(size("1..=24"), identifier = "emergencyActionCode")]
    pub emergency_action_code: Option<Ia5String>,
    /// PhoneNumber ::= NumericString (SIZE(1..16)).
    #[rasn(size("1..=16"), identifier = "phoneNumber")]
    pub phone_number: Option<NumericString>,
    /// UTF8String (SIZE (1..24)): a UTF8String's size is not PER-visible (X.691 §30.3, it is
    /// not a known-multiplier type), so UPER writes an unconstrained length.
    #[rasn(identifier = "companyName")]
    pub company_name: Option<Utf8String>,
}

impl DangerousGoodsExtended {
    pub fn new(dangerous_goods_type: DangerousGoodsBasic, un_number: u16) -> DangerousGoodsExtended {
        DangerousGoodsExtended {
            dangerous_goods_type,
            un_number,
            elevated_temperature: false,
            tunnels_restricted: false,
            limited_quantity: false,
            emergency_action_code: None,
            phone_number: None,
            company_name: None,
        }
    }
}

#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
#[non_exhaustive]
pub struct VehicleIdentification {
    /// WMInumber ::= IA5String (SIZE(1..3)).
    #[rasn(size("1..=3"), identifier = "wMInumber")]
    pub wmi_number: Option<Ia5String>,
    /// VDS ::= IA5String (SIZE(6)).
    #[rasn(size(6), identifier = "vDS")]
    pub vds: Option<Ia5String>,
}

impl VehicleIdentification {
    pub fn new(wmi_number: Option<Ia5String>, vds: Option<Ia5String>) -> VehicleIdentification {
        VehicleIdentification { wmi_number, vds }
    }
}

#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(enumerated)]
pub enum RoadType {
    UrbanNoStructuralSeparationToOppositeLanes = 0,
    UrbanWithStructuralSeparationToOppositeLanes = 1,
    NonUrbanNoStructuralSeparationToOppositeLanes = 2,
    NonUrbanWithStructuralSeparationToOppositeLanes = 3,
}

#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(enumerated)]
pub enum RequestResponseIndication {
    Request = 0,
    Response = 1,
}

#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(enumerated)]
pub enum StationarySince {
    LessThan1Minute = 0,
    LessThan2Minutes = 1,
    LessThan15Minutes = 2,
    EqualOrGreater15Minutes = 3,
}

#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(enumerated)]
#[non_exhaustive]
pub enum PositioningSolutionType {
    NoPositioningSolution = 0,
    SGnss = 1,
    DGnss = 2,
    SGnssPlusDr = 3,
    DGnssPlusDr = 4,
    Dr = 5,
}

/// PositionOfPillars ::= SEQUENCE (SIZE(1..3, ...)) OF PosPillar (INTEGER (1..30), 10 cm).
#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(delegate, size("1..=3", extensible))]
pub struct PositionOfPillars(pub SequenceOf<PosPillar>);

#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(delegate, value("1..=30"))]
pub struct PosPillar(pub u8);

/// RestrictedTypes ::= SEQUENCE (SIZE(1..3, ...)) OF StationType.
#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(delegate, size("1..=3", extensible))]
pub struct RestrictedTypes(pub SequenceOf<StationType>);

/// StationType ::= INTEGER (0..255) (CDD v2: `TrafficParticipantType`): 5 passenger car,
/// 15 road-side unit.
#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(delegate, value("0..=255"))]
pub struct StationType(pub u8);

/// ActionID ::= SEQUENCE { originatingStationID, sequenceNumber } (CDD v2: `ActionId`).
#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct ActionId {
    #[rasn(value("0..=4294967295"), identifier = "originatingStationID")]
    pub originating_station_id: u32,
    #[rasn(value("0..=65535"), identifier = "sequenceNumber")]
    pub sequence_number: u16,
}
