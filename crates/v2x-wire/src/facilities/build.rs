//! Ready-made payloads: a passenger-car CAM and a hazard DENM filled from a [`VehicleState`].

use super::*;

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

/// The reference position of `v` with a 5 m × 4 m confidence ellipse and 1 m altitude
/// confidence.
pub fn reference_position(v: &VehicleState) -> ReferencePosition {
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
            path_history: PathHistory(vec![PathPoint {
                path_position: DeltaReferencePosition {
                    delta_latitude: -120,
                    delta_longitude: 85,
                    delta_altitude: 0,
                },
                path_delta_time: Some(50),
            }]),
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
                low_frequency_container: lf,
                ..CamParameters::new(
                    BasicContainer::new(5, reference_position(v)),
                    HighFrequencyContainer::BasicVehicle(hf),
                )
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
            situation: Some(SituationContainer::new(4, CauseCode::new(cause, sub_cause))),
            location: None,
            alacarte: None,
        },
    }
}
