//! The CAM (EN 302 637-2): high- and low-frequency containers, the special-vehicle
//! containers the CAM SSP governs, and the message itself.

use super::*;

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
