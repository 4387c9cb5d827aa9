//! The DENM (EN 302 637-3): management and situation containers and the message itself.

use super::*;

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
