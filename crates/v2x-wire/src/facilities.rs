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

/// BasicVehicleContainerHighFrequency; its optional members are not modelled.
#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct BasicVehicleContainerHighFrequency {
    pub heading: Heading,
    pub speed: Speed,
    #[rasn(identifier = "driveDirection")]
    pub drive_direction: DriveDirection,
    #[rasn(identifier = "vehicleLength")]
    pub vehicle_length: VehicleLength,
    #[rasn(value("1..=62"), identifier = "vehicleWidth")]
    pub vehicle_width: u8,
    #[rasn(identifier = "longitudinalAcceleration")]
    pub longitudinal_acceleration: LongitudinalAcceleration,
    pub curvature: Curvature,
    #[rasn(identifier = "curvatureCalculationMode")]
    pub curvature_calculation_mode: CurvatureCalculationMode,
    #[rasn(identifier = "yawRate")]
    pub yaw_rate: YawRate,
    #[rasn(identifier = "accelerationControl")]
    pub acceleration_control: Option<NotModelled>,
    #[rasn(identifier = "lanePosition")]
    pub lane_position: Option<NotModelled>,
    #[rasn(identifier = "steeringWheelAngle")]
    pub steering_wheel_angle: Option<NotModelled>,
    #[rasn(identifier = "lateralAcceleration")]
    pub lateral_acceleration: Option<NotModelled>,
    #[rasn(identifier = "verticalAcceleration")]
    pub vertical_acceleration: Option<NotModelled>,
    #[rasn(identifier = "performanceClass")]
    pub performance_class: Option<NotModelled>,
    #[rasn(identifier = "cenDsrcTollingZone")]
    pub cen_dsrc_tolling_zone: Option<NotModelled>,
}

#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(choice, automatic_tags)]
#[non_exhaustive]
pub enum HighFrequencyContainer {
    #[rasn(identifier = "basicVehicleContainerHighFrequency")]
    BasicVehicle(BasicVehicleContainerHighFrequency),
    #[rasn(identifier = "rsuContainerHighFrequency")]
    Rsu(NotModelled),
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
    #[rasn(value("1..=65535", extensible), identifier = "pathDeltaTime")]
    pub path_delta_time: Option<u16>,
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

#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct BasicVehicleContainerLowFrequency {
    #[rasn(identifier = "vehicleRole")]
    pub vehicle_role: VehicleRole,
    /// ExteriorLights BIT STRING (SIZE(8)): lowBeam, highBeam, leftTurn, rightTurn, daytime,
    /// reverse, fog, parking.
    #[rasn(size(8), identifier = "exteriorLights")]
    pub exterior_lights: BitString,
    /// PathHistory ::= SEQUENCE (SIZE(0..40)) OF PathPoint.
    #[rasn(size("0..=40"), identifier = "pathHistory")]
    pub path_history: SequenceOf<PathPoint>,
}

#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(choice, automatic_tags)]
#[non_exhaustive]
pub enum LowFrequencyContainer {
    #[rasn(identifier = "basicVehicleContainerLowFrequency")]
    BasicVehicle(BasicVehicleContainerLowFrequency),
}

#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
#[non_exhaustive]
pub struct CamParameters {
    #[rasn(identifier = "basicContainer")]
    pub basic_container: BasicContainer,
    #[rasn(identifier = "highFrequencyContainer")]
    pub high_frequency_container: HighFrequencyContainer,
    #[rasn(identifier = "lowFrequencyContainer")]
    pub low_frequency_container: Option<LowFrequencyContainer>,
    #[rasn(identifier = "specialVehicleContainer")]
    pub special_vehicle_container: Option<SpecialVehicleContainer>,
}

/// `SpecialVehicleContainer` (EN 302 637-2 v1.4.1): what a vehicle with a special role
/// (`vehicleRole` of the low-frequency container) tells about that role. Each alternative is
/// governed by one bit of the CAM SSP.
#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(choice, automatic_tags)]
#[non_exhaustive]
pub enum SpecialVehicleContainer {
    #[rasn(identifier = "publicTransportContainer")]
    PublicTransport(PublicTransportContainer),
    #[rasn(identifier = "specialTransportContainer")]
    SpecialTransport(SpecialTransportContainer),
    #[rasn(identifier = "dangerousGoodsContainer")]
    DangerousGoods(DangerousGoodsContainer),
    #[rasn(identifier = "roadWorksContainerBasic")]
    RoadWorks(RoadWorksContainerBasic),
    #[rasn(identifier = "rescueContainer")]
    Rescue(RescueContainer),
    #[rasn(identifier = "emergencyContainer")]
    Emergency(EmergencyContainer),
    #[rasn(identifier = "safetyCarContainer")]
    SafetyCar(SafetyCarContainer),
}

/// `PtActivation ::= SEQUENCE { ptActivationType INTEGER (0..255), ptActivationData OCTET STRING (SIZE(1..20)) }`.
#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct PtActivation {
    #[rasn(value("0..=255"), identifier = "ptActivationType")]
    pub pt_activation_type: u8,
    #[rasn(size("1..=20"), identifier = "ptActivationData")]
    pub pt_activation_data: OctetString,
}

#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct PublicTransportContainer {
    #[rasn(identifier = "embarkationStatus")]
    pub embarkation_status: bool,
    #[rasn(identifier = "ptActivation")]
    pub pt_activation: Option<PtActivation>,
}

/// LightBarSirenInUse ::= BIT STRING { lightBarActivated (0), sirenActivated (1) } (SIZE(2)).
#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct SpecialTransportContainer {
    /// SpecialTransportType ::= BIT STRING { heavyLoad, excessWidth, excessLength, excessHeight } (SIZE(4)).
    #[rasn(size(4), identifier = "specialTransportType")]
    pub special_transport_type: BitString,
    #[rasn(size(2), identifier = "lightBarSirenInUse")]
    pub light_bar_siren_in_use: BitString,
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
pub struct DangerousGoodsContainer {
    #[rasn(identifier = "dangerousGoodsBasic")]
    pub dangerous_goods_basic: DangerousGoodsBasic,
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

#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct RoadWorksContainerBasic {
    #[rasn(value("0..=255"), identifier = "roadworksSubCauseCode")]
    pub roadworks_sub_cause_code: Option<u8>,
    #[rasn(size(2), identifier = "lightBarSirenInUse")]
    pub light_bar_siren_in_use: BitString,
    #[rasn(identifier = "closedLanes")]
    pub closed_lanes: Option<ClosedLanes>,
}

#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct RescueContainer {
    #[rasn(size(2), identifier = "lightBarSirenInUse")]
    pub light_bar_siren_in_use: BitString,
}

#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct EmergencyContainer {
    #[rasn(size(2), identifier = "lightBarSirenInUse")]
    pub light_bar_siren_in_use: BitString,
    #[rasn(identifier = "incidentIndication")]
    pub incident_indication: Option<CauseCode>,
    /// EmergencyPriority ::= BIT STRING { requestForRightOfWay (0),
    /// requestForFreeCrossingAtATrafficLight (1) } (SIZE(2)).
    #[rasn(size(2), identifier = "emergencyPriority")]
    pub emergency_priority: Option<BitString>,
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

#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct SafetyCarContainer {
    #[rasn(size(2), identifier = "lightBarSirenInUse")]
    pub light_bar_siren_in_use: BitString,
    #[rasn(identifier = "incidentIndication")]
    pub incident_indication: Option<CauseCode>,
    #[rasn(identifier = "trafficRule")]
    pub traffic_rule: Option<TrafficRule>,
    /// SpeedLimit ::= INTEGER (1..255), km/h.
    #[rasn(value("1..=255"), identifier = "speedLimit")]
    pub speed_limit: Option<u8>,
}

#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct CoopAwareness {
    /// Time of the reference position, ms modulo 65536 (GenerationDeltaTime).
    #[rasn(value("0..=65535"), identifier = "generationDeltaTime")]
    pub generation_delta_time: u16,
    #[rasn(identifier = "camParameters")]
    pub cam_parameters: CamParameters,
}

/// CAM ::= SEQUENCE { header ItsPduHeader, cam CoopAwareness }
#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct Cam {
    pub header: ItsPduHeader,
    pub cam: CoopAwareness,
}

#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct ActionId {
    #[rasn(value("0..=4294967295"), identifier = "originatingStationID")]
    pub originating_station_id: u32,
    #[rasn(value("0..=65535"), identifier = "sequenceNumber")]
    pub sequence_number: u16,
}

#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(enumerated)]
pub enum Termination {
    IsCancellation = 0,
    IsNegation = 1,
}

#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(enumerated)]
pub enum RelevanceDistance {
    LessThan50m = 0,
    LessThan100m = 1,
    LessThan200m = 2,
    LessThan500m = 3,
    LessThan1000m = 4,
    LessThan5km = 5,
    LessThan10km = 6,
    Over10km = 7,
}

#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(enumerated)]
pub enum RelevanceTrafficDirection {
    AllTrafficDirections = 0,
    UpstreamTraffic = 1,
    DownstreamTraffic = 2,
    OppositeTraffic = 3,
}

#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
#[non_exhaustive]
pub struct ManagementContainer {
    #[rasn(identifier = "actionID")]
    pub action_id: ActionId,
    /// TimestampIts: ms since 2004-01-01T00:00:00 UTC (TAI-based), 42 bits.
    #[rasn(value("0..=4398046511103"), identifier = "detectionTime")]
    pub detection_time: u64,
    #[rasn(value("0..=4398046511103"), identifier = "referenceTime")]
    pub reference_time: u64,
    pub termination: Option<Termination>,
    #[rasn(identifier = "eventPosition")]
    pub event_position: ReferencePosition,
    #[rasn(identifier = "relevanceDistance")]
    pub relevance_distance: Option<RelevanceDistance>,
    #[rasn(identifier = "relevanceTrafficDirection")]
    pub relevance_traffic_direction: Option<RelevanceTrafficDirection>,
    /// DEFAULT 600 s; an absent value means the default (UPER encodes DEFAULT as optional).
    #[rasn(value("0..=86400"), identifier = "validityDuration")]
    pub validity_duration: Option<u32>,
    #[rasn(value("1..=10000"), identifier = "transmissionInterval")]
    pub transmission_interval: Option<u16>,
    #[rasn(value("0..=255"), identifier = "stationType")]
    pub station_type: u8,
}

#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
#[non_exhaustive]
pub struct CauseCode {
    #[rasn(value("0..=255"), identifier = "causeCode")]
    pub cause_code: u8,
    #[rasn(value("0..=255"), identifier = "subCauseCode")]
    pub sub_cause_code: u8,
}

#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
#[non_exhaustive]
pub struct SituationContainer {
    #[rasn(value("0..=7"), identifier = "informationQuality")]
    pub information_quality: u8,
    #[rasn(identifier = "eventType")]
    pub event_type: CauseCode,
    #[rasn(identifier = "linkedCause")]
    pub linked_cause: Option<CauseCode>,
    #[rasn(identifier = "eventHistory")]
    pub event_history: Option<NotModelled>,
}

#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct DecentralizedEnvironmentalNotificationMessage {
    pub management: ManagementContainer,
    pub situation: Option<SituationContainer>,
    pub location: Option<NotModelled>,
    pub alacarte: Option<NotModelled>,
}

/// DENM ::= SEQUENCE { header ItsPduHeader, denm DecentralizedEnvironmentalNotificationMessage }
#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct Denm {
    pub header: ItsPduHeader,
    pub denm: DecentralizedEnvironmentalNotificationMessage,
}

/// State of a vehicle used to fill CAMs and DENMs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VehicleState {
    pub station_id: u32,
    /// 1/10 micro-degree.
    pub latitude: i32,
    pub longitude: i32,
    /// 0.01 m/s.
    pub speed: u16,
    /// 0.1 degree.
    pub heading: u16,
    /// Centimetres above the WGS84 ellipsoid.
    pub altitude_cm: i32,
}

fn reference_position(v: &VehicleState) -> ReferencePosition {
    ReferencePosition {
        latitude: v.latitude,
        longitude: v.longitude,
        position_confidence_ellipse: PosConfidenceEllipse {
            semi_major_confidence: 500,
            semi_minor_confidence: 400,
            semi_major_orientation: v.heading.min(3600),
        },
        altitude: Altitude {
            altitude_value: v.altitude_cm.clamp(-100_000, 800_000),
            altitude_confidence: AltitudeConfidence::Alt001_00,
        },
    }
}

/// A passenger-car CAM; the low-frequency container is added when `with_low_frequency`
/// (the standard sends it at most every 500 ms).
pub fn passenger_car_cam(v: &VehicleState, generation_delta_time: u16, with_low_frequency: bool) -> Cam {
    let hf = BasicVehicleContainerHighFrequency {
        heading: Heading {
            heading_value: v.heading.min(3600),
            heading_confidence: 10,
        },
        speed: Speed {
            speed_value: v.speed.min(16382),
            speed_confidence: 5,
        },
        drive_direction: DriveDirection::Forward,
        vehicle_length: VehicleLength {
            vehicle_length_value: 45,
            vehicle_length_confidence_indication: VehicleLengthConfidenceIndication::NoTrailerPresent,
        },
        vehicle_width: 18,
        longitudinal_acceleration: LongitudinalAcceleration {
            value: 3,
            confidence: 10,
        },
        curvature: Curvature {
            curvature_value: 0,
            curvature_confidence: CurvatureConfidence::OnePerMeter0_01,
        },
        curvature_calculation_mode: CurvatureCalculationMode::YawRateUsed,
        yaw_rate: YawRate {
            yaw_rate_value: 0,
            yaw_rate_confidence: YawRateConfidence::DegSec001_00,
        },
        acceleration_control: None,
        lane_position: None,
        steering_wheel_angle: None,
        lateral_acceleration: None,
        vertical_acceleration: None,
        performance_class: None,
        cen_dsrc_tolling_zone: None,
    };
    let lf = with_low_frequency.then(|| {
        LowFrequencyContainer::BasicVehicle(BasicVehicleContainerLowFrequency {
            vehicle_role: VehicleRole::Default,
            // Low beam and daytime running lights on.
            exterior_lights: BitString::from_slice(&[0b1000_1000]),
            path_history: vec![PathPoint {
                path_position: DeltaReferencePosition {
                    delta_latitude: -120,
                    delta_longitude: 85,
                    delta_altitude: 0,
                },
                path_delta_time: Some(50),
            }],
        })
    });
    Cam {
        header: ItsPduHeader {
            protocol_version: ITS_PROTOCOL_VERSION,
            message_id: MESSAGE_ID_CAM,
            station_id: v.station_id,
        },
        cam: CoopAwareness {
            generation_delta_time,
            cam_parameters: CamParameters {
                basic_container: BasicContainer {
                    station_type: 5,
                    reference_position: reference_position(v),
                },
                high_frequency_container: HighFrequencyContainer::BasicVehicle(hf),
                low_frequency_container: lf,
                special_vehicle_container: None,
            },
        },
    }
}

/// A DENM for a hazard at the vehicle's position (cause and sub-cause codes of TS 102 894-2,
/// e.g. 3 = roadworks, 94 = stationary vehicle, 97 = collision risk).
pub fn hazard_denm(v: &VehicleState, sequence_number: u16, timestamp_its_ms: u64, cause: u8, sub_cause: u8) -> Denm {
    Denm {
        header: ItsPduHeader {
            protocol_version: ITS_PROTOCOL_VERSION,
            message_id: MESSAGE_ID_DENM,
            station_id: v.station_id,
        },
        denm: DecentralizedEnvironmentalNotificationMessage {
            management: ManagementContainer {
                action_id: ActionId {
                    originating_station_id: v.station_id,
                    sequence_number,
                },
                detection_time: timestamp_its_ms & 0x3ff_ffff_ffff,
                reference_time: timestamp_its_ms & 0x3ff_ffff_ffff,
                termination: None,
                event_position: reference_position(v),
                relevance_distance: Some(RelevanceDistance::LessThan500m),
                relevance_traffic_direction: Some(RelevanceTrafficDirection::AllTrafficDirections),
                validity_duration: Some(60),
                transmission_interval: Some(1000),
                station_type: 5,
            },
            situation: Some(SituationContainer {
                information_quality: 4,
                event_type: CauseCode {
                    cause_code: cause,
                    sub_cause_code: sub_cause,
                },
                linked_cause: None,
                event_history: None,
            }),
            location: None,
            alacarte: None,
        },
    }
}

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
