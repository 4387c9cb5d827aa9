//! The DENM (EN 302 637-3 v1.3.1; TS 103 831 v2.x reads the same root): management,
//! situation, location and à-la-carte containers and the message itself.

use super::*;

#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(enumerated)]
pub enum Termination {
    IsCancellation = 0,
    IsNegation = 1,
}

/// RelevanceDistance (CDD v2: `StandardLength3b` as `awarenessDistance`).
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

/// RelevanceTrafficDirection (CDD v2: `TrafficDirection`).
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

#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
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
    pub event_history: Option<EventHistory>,
}

impl SituationContainer {
    pub fn new(information_quality: u8, event_type: CauseCode) -> SituationContainer {
        SituationContainer {
            information_quality,
            event_type,
            linked_cause: None,
            event_history: None,
        }
    }
}

#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
#[non_exhaustive]
pub struct LocationContainer {
    #[rasn(identifier = "eventSpeed")]
    pub event_speed: Option<Speed>,
    /// Heading (CDD v2: `Wgs84Angle`, the same encoding).
    #[rasn(identifier = "eventPositionHeading")]
    pub event_position_heading: Option<Heading>,
    /// `traces` (v2: `detectionZonesToEventPosition`).
    pub traces: Traces,
    #[rasn(identifier = "roadType")]
    pub road_type: Option<RoadType>,
}

impl LocationContainer {
    pub fn new(traces: Traces) -> LocationContainer {
        LocationContainer {
            event_speed: None,
            event_position_heading: None,
            traces,
            road_type: None,
        }
    }
}

#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct ImpactReductionContainer {
    /// HeightLonCarr ::= INTEGER (1..100), cm.
    #[rasn(value("1..=100"), identifier = "heightLonCarrLeft")]
    pub height_lon_carr_left: u8,
    #[rasn(value("1..=100"), identifier = "heightLonCarrRight")]
    pub height_lon_carr_right: u8,
    /// PosLonCarr ::= INTEGER (1..127), cm.
    #[rasn(value("1..=127"), identifier = "posLonCarrLeft")]
    pub pos_lon_carr_left: u8,
    #[rasn(value("1..=127"), identifier = "posLonCarrRight")]
    pub pos_lon_carr_right: u8,
    #[rasn(identifier = "positionOfPillars")]
    pub position_of_pillars: PositionOfPillars,
    /// PosCentMass ::= INTEGER (1..63), 10 cm.
    #[rasn(value("1..=63"), identifier = "posCentMass")]
    pub pos_cent_mass: u8,
    /// WheelBaseVehicle ::= INTEGER (1..127), 10 cm.
    #[rasn(value("1..=127"), identifier = "wheelBaseVehicle")]
    pub wheel_base_vehicle: u8,
    /// TurningRadius ::= INTEGER (1..255), 0.4 m.
    #[rasn(value("1..=255"), identifier = "turningRadius")]
    pub turning_radius: u8,
    /// PosFrontAx ::= INTEGER (1..20), 10 cm.
    #[rasn(value("1..=20"), identifier = "posFrontAx")]
    pub pos_front_ax: u8,
    /// PositionOfOccupants ::= BIT STRING (SIZE(20)).
    #[rasn(size(20), identifier = "positionOfOccupants")]
    pub position_of_occupants: BitString,
    /// VehicleMass ::= INTEGER (1..1024), 100 kg.
    #[rasn(value("1..=1024"), identifier = "vehicleMass")]
    pub vehicle_mass: u16,
    #[rasn(identifier = "requestResponseIndication")]
    pub request_response_indication: RequestResponseIndication,
}

/// ReferenceDenms ::= SEQUENCE (SIZE(1..8, ...)) OF ActionID (CDD v2: `ActionIdList`).
#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(delegate, size("1..=8", extensible))]
pub struct ReferenceDenms(pub SequenceOf<ActionId>);

#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq, Default)]
#[rasn(automatic_tags)]
pub struct RoadWorksContainerExtended {
    #[rasn(size(2), identifier = "lightBarSirenInUse")]
    pub light_bar_siren_in_use: Option<BitString>,
    #[rasn(identifier = "closedLanes")]
    pub closed_lanes: Option<ClosedLanes>,
    pub restriction: Option<RestrictedTypes>,
    #[rasn(value("1..=255"), identifier = "speedLimit")]
    pub speed_limit: Option<u8>,
    #[rasn(identifier = "incidentIndication")]
    pub incident_indication: Option<CauseCode>,
    #[rasn(identifier = "recommendedPath")]
    pub recommended_path: Option<ItineraryPath>,
    #[rasn(identifier = "startingPointSpeedLimit")]
    pub starting_point_speed_limit: Option<DeltaReferencePosition>,
    #[rasn(identifier = "trafficFlowRule")]
    pub traffic_flow_rule: Option<TrafficRule>,
    #[rasn(identifier = "referenceDenms")]
    pub reference_denms: Option<ReferenceDenms>,
}

#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq, Default)]
#[rasn(automatic_tags)]
pub struct StationaryVehicleContainer {
    #[rasn(identifier = "stationarySince")]
    pub stationary_since: Option<StationarySince>,
    #[rasn(identifier = "stationaryCause")]
    pub stationary_cause: Option<CauseCode>,
    #[rasn(identifier = "carryingDangerousGoods")]
    pub carrying_dangerous_goods: Option<DangerousGoodsExtended>,
    /// NumberOfOccupants ::= INTEGER (0..127), 127 = unavailable.
    #[rasn(value("0..=127"), identifier = "numberOfOccupants")]
    pub number_of_occupants: Option<u8>,
    #[rasn(identifier = "vehicleIdentification")]
    pub vehicle_identification: Option<VehicleIdentification>,
    /// EnergyStorageType ::= BIT STRING (SIZE(7)).
    #[rasn(size(7), identifier = "energyStorageType")]
    pub energy_storage_type: Option<BitString>,
}

#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq, Default)]
#[rasn(automatic_tags)]
#[non_exhaustive]
pub struct AlacarteContainer {
    /// LanePosition ::= INTEGER (-1..14).
    #[rasn(value("-1..=14"), identifier = "lanePosition")]
    pub lane_position: Option<i8>,
    #[rasn(identifier = "impactReduction")]
    pub impact_reduction: Option<ImpactReductionContainer>,
    /// Temperature ::= INTEGER (-60..67), °C.
    #[rasn(value("-60..=67"), identifier = "externalTemperature")]
    pub external_temperature: Option<i8>,
    #[rasn(identifier = "roadWorks")]
    pub road_works: Option<RoadWorksContainerExtended>,
    #[rasn(identifier = "positioningSolution")]
    pub positioning_solution: Option<PositioningSolutionType>,
    #[rasn(identifier = "stationaryVehicle")]
    pub stationary_vehicle: Option<StationaryVehicleContainer>,
}

#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct DecentralizedEnvironmentalNotificationMessage {
    pub management: ManagementContainer,
    pub situation: Option<SituationContainer>,
    pub location: Option<LocationContainer>,
    pub alacarte: Option<AlacarteContainer>,
}

/// DENM ::= SEQUENCE { header ItsPduHeader, denm DecentralizedEnvironmentalNotificationMessage }
#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct Denm {
    pub header: ItsPduHeader,
    pub denm: DecentralizedEnvironmentalNotificationMessage,
}
