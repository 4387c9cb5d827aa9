//! The CAM (EN 302 637-2 v1.4.1; TS 103 900 v2.x reads the same): basic, high- and
//! low-frequency containers, the RSU container, the special-vehicle containers the CAM SSP
//! governs, and the release-2 extension containers.

use super::*;

#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
#[non_exhaustive]
pub struct BasicContainer {
    /// StationType (CDD v2: TrafficParticipantType): 5 passenger car, 15 road-side unit.
    #[rasn(value("0..=255"), identifier = "stationType")]
    pub station_type: u8,
    #[rasn(identifier = "referencePosition")]
    pub reference_position: ReferencePosition,
}

impl BasicContainer {
    pub fn new(station_type: u8, reference_position: ReferencePosition) -> BasicContainer {
        BasicContainer {
            station_type,
            reference_position,
        }
    }
}

/// BasicVehicleContainerHighFrequency: the mandatory motion state and seven optional members.
#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct BasicVehicleContainerHighFrequency {
    pub heading: Heading,
    pub speed: Speed,
    #[rasn(identifier = "driveDirection")]
    pub drive_direction: DriveDirection,
    #[rasn(identifier = "vehicleLength")]
    pub vehicle_length: VehicleLength,
    /// VehicleWidth ::= INTEGER (1..62), 10 cm.
    #[rasn(value("1..=62"), identifier = "vehicleWidth")]
    pub vehicle_width: u8,
    #[rasn(identifier = "longitudinalAcceleration")]
    pub longitudinal_acceleration: LongitudinalAcceleration,
    pub curvature: Curvature,
    #[rasn(identifier = "curvatureCalculationMode")]
    pub curvature_calculation_mode: CurvatureCalculationMode,
    #[rasn(identifier = "yawRate")]
    pub yaw_rate: YawRate,
    /// AccelerationControl ::= BIT STRING { brakePedalEngaged, gasPedalEngaged,
    /// emergencyBrakeEngaged, collisionWarningEngaged, accEngaged, cruiseControlEngaged,
    /// speedLimiterEngaged } (SIZE(7)).
    #[rasn(size(7), identifier = "accelerationControl")]
    pub acceleration_control: Option<BitString>,
    /// LanePosition ::= INTEGER (-1..14): -1 off the road, 0 inner hard shoulder, 1 the
    /// innermost driving lane.
    #[rasn(value("-1..=14"), identifier = "lanePosition")]
    pub lane_position: Option<i8>,
    #[rasn(identifier = "steeringWheelAngle")]
    pub steering_wheel_angle: Option<SteeringWheelAngle>,
    #[rasn(identifier = "lateralAcceleration")]
    pub lateral_acceleration: Option<LateralAcceleration>,
    #[rasn(identifier = "verticalAcceleration")]
    pub vertical_acceleration: Option<VerticalAcceleration>,
    /// PerformanceClass ::= INTEGER (0..7): 0 unavailable, 1 class A, 2 class B.
    #[rasn(value("0..=7"), identifier = "performanceClass")]
    pub performance_class: Option<u8>,
    #[rasn(identifier = "cenDsrcTollingZone")]
    pub cen_dsrc_tolling_zone: Option<CenDsrcTollingZone>,
}

/// RSUContainerHighFrequency ::= SEQUENCE { protectedCommunicationZonesRSU OPTIONAL, ... }.
#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq, Default)]
#[rasn(automatic_tags)]
#[non_exhaustive]
pub struct RsuContainerHighFrequency {
    #[rasn(identifier = "protectedCommunicationZonesRSU")]
    pub protected_communication_zones_rsu: Option<ProtectedCommunicationZonesRsu>,
}

impl RsuContainerHighFrequency {
    pub fn new(zones: Option<ProtectedCommunicationZonesRsu>) -> RsuContainerHighFrequency {
        RsuContainerHighFrequency {
            protected_communication_zones_rsu: zones,
        }
    }
}

#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(choice, automatic_tags)]
#[non_exhaustive]
pub enum HighFrequencyContainer {
    #[rasn(identifier = "basicVehicleContainerHighFrequency")]
    BasicVehicle(BasicVehicleContainerHighFrequency),
    #[rasn(identifier = "rsuContainerHighFrequency")]
    Rsu(RsuContainerHighFrequency),
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
    #[rasn(identifier = "pathHistory")]
    pub path_history: PathHistory,
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
    /// The extension addition of TS 103 900 v2.x (release 2).
    #[rasn(extension_addition, identifier = "extensionContainers")]
    pub extension_containers: Option<WrappedExtensionContainers>,
}

impl CamParameters {
    pub fn new(basic_container: BasicContainer, high_frequency_container: HighFrequencyContainer) -> CamParameters {
        CamParameters {
            basic_container,
            high_frequency_container,
            low_frequency_container: None,
            special_vehicle_container: None,
            extension_containers: None,
        }
    }
}

/// WrappedExtensionContainer ::= SEQUENCE { containerId ExtensionContainerId,
/// containerData (an open type selected by the id) } (TS 103 900 v2.x): 1 two-wheeler,
/// 2 e-horizon location sharing, 3 very-low-frequency, 4 path prediction, 5 generalized
/// lane positions, 6 vehicle movement control. The containers carry no content the CAM SSP
/// governs; their encoding is kept as received (the open type's octets), so a CAM with them
/// decodes, re-encodes byte for byte and has every SSP-relevant part read.
#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct WrappedExtensionContainer {
    /// ExtensionContainerId ::= INTEGER (1..16, ...).
    #[rasn(value("1..=16", extensible), identifier = "containerId")]
    pub container_id: u32,
    #[rasn(identifier = "containerData")]
    pub container_data: Any,
}

/// WrappedExtensionContainers ::= SEQUENCE SIZE(1..8, ...) OF WrappedExtensionContainer.
#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(delegate, size("1..=8", extensible))]
pub struct WrappedExtensionContainers(pub SequenceOf<WrappedExtensionContainer>);

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

#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct DangerousGoodsContainer {
    #[rasn(identifier = "dangerousGoodsBasic")]
    pub dangerous_goods_basic: DangerousGoodsBasic,
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
