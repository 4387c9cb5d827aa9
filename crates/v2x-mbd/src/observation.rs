//! The neutral per-message view every check reads: what a receiver knows about one CAM once
//! SN-DECAP accepted it (pseudonym and certificate digest, generation and reception time,
//! position with its confidence, speed, heading, acceleration, yaw rate, size) and its own
//! position. Built from a logged [`Message`] or from a decoded [`Cam`]; the CAM conversion
//! reads the members today's facilities codec models and is the one place to extend when
//! the codec models the whole CAM.

use crate::message::Message;
use v2x_wire::facilities::{Cam, HighFrequencyContainer};

/// One received message as the checks see it. Positions are metres in a local plane
/// (x east, y north), headings degrees clockwise from north, confidences the declared
/// 95 % radius / half-width (0 when the sender declares none).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Observation {
    /// The pseudonym (CAM station id, or a dataset's alias).
    pub pseudonym: u64,
    /// HashedId8 of the signing certificate, when the security layer gave one.
    pub certificate: Option<[u8; 8]>,
    pub generation_time_s: f64,
    pub reception_time_s: f64,
    pub position: [f64; 2],
    pub position_confidence_m: f64,
    pub speed_mps: f64,
    pub speed_confidence_mps: f64,
    pub heading_deg: f64,
    pub heading_confidence_deg: f64,
    pub acceleration_mps2: f64,
    pub acceleration_confidence_mps2: f64,
    pub yaw_rate_dps: Option<f64>,
    pub length_m: f64,
    pub width_m: f64,
    pub receiver_position: [f64; 2],
    pub receiver_position_confidence_m: f64,
    /// Signed distance to the nearest road edge (m, positive on the road), where the
    /// receiver has a map.
    pub distance_to_road_edge_m: Option<f64>,
}

/// Passenger-car size assumed where a message carries none (F2MD's 5 m x 1.8 m).
pub const DEFAULT_LENGTH_M: f64 = 5.0;
pub const DEFAULT_WIDTH_M: f64 = 1.8;

impl Observation {
    /// The receiver's view of a logged message.
    pub fn from_message(m: &Message) -> Observation {
        let s = &m.sender;
        Observation {
            pseudonym: m.sender_alias,
            certificate: None,
            generation_time_s: m.send_time_s(),
            reception_time_s: m.rcv_time_s(),
            position: s.xy(),
            position_confidence_m: s.pos_noise[0].abs(),
            speed_mps: s.spd,
            speed_confidence_mps: s.spd_noise.abs(),
            heading_deg: s.hed,
            heading_confidence_deg: s.hed_noise.abs(),
            acceleration_mps2: s.acl,
            acceleration_confidence_mps2: s.acl_noise.abs(),
            yaw_rate_dps: None,
            length_m: DEFAULT_LENGTH_M,
            width_m: DEFAULT_WIDTH_M,
            receiver_position: m.receiver.xy(),
            receiver_position_confidence_m: m.receiver.pos_noise[0].abs(),
            distance_to_road_edge_m: s.distance_to_road_edge,
        }
    }
}

/// A local tangent plane around `origin` (latitude, longitude in degrees): the
/// equirectangular projection, accurate to centimetres over the few kilometres a receiver
/// hears.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LocalFrame {
    pub origin_lat_deg: f64,
    pub origin_lon_deg: f64,
}

const EARTH_RADIUS_M: f64 = 6_371_008.8;

impl LocalFrame {
    /// Metres east and north of the origin.
    pub fn project(&self, lat_deg: f64, lon_deg: f64) -> [f64; 2] {
        let k = EARTH_RADIUS_M * std::f64::consts::PI / 180.0;
        [
            (lon_deg - self.origin_lon_deg) * k * self.origin_lat_deg.to_radians().cos(),
            (lat_deg - self.origin_lat_deg) * k,
        ]
    }

    /// Latitude and longitude (degrees) of a point of the plane.
    pub fn unproject(&self, p: [f64; 2]) -> (f64, f64) {
        let k = EARTH_RADIUS_M * std::f64::consts::PI / 180.0;
        (
            self.origin_lat_deg + p[1] / k,
            self.origin_lon_deg + p[0] / (k * self.origin_lat_deg.to_radians().cos()),
        )
    }
}

/// What the receiver adds to a decoded CAM: when and where it was received, the
/// generation time of the 1609.2 header (when signed), the signer's certificate digest.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CamContext {
    pub frame: LocalFrame,
    pub reception_time_s: f64,
    /// The 1609.2 header's generation time on the same clock, when present; else the CAM's
    /// generationDeltaTime is placed at the latest matching instant before reception.
    pub generation_time_s: Option<f64>,
    pub receiver_position: [f64; 2],
    pub receiver_position_confidence_m: f64,
    pub certificate: Option<[u8; 8]>,
}

/// Why a CAM gives no observation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ObservationError {
    #[error("the CAM has no basic-vehicle high-frequency container (an RSU CAM)")]
    NotAVehicle,
    #[error("the CAM's reference position is unavailable")]
    PositionUnavailable,
}

/// `unavailable` codes of TS 102 894-2 (v1.3.1).
const SEMI_AXIS_UNAVAILABLE: u16 = 4095;
const HEADING_CONFIDENCE_UNAVAILABLE: u8 = 127;
const SPEED_CONFIDENCE_UNAVAILABLE: u8 = 127;
const ACCELERATION_UNAVAILABLE: i16 = 161;
const ACCELERATION_CONFIDENCE_UNAVAILABLE: u8 = 102;
const YAW_RATE_UNAVAILABLE: i16 = 32767;
const LENGTH_UNAVAILABLE: u16 = 1023;
const WIDTH_UNAVAILABLE: u8 = 62;
const LATITUDE_UNAVAILABLE: i32 = 900_000_001;

fn known<T: PartialEq>(v: T, unavailable: T) -> Option<T> {
    (v != unavailable).then_some(v)
}

/// The observation of a decoded CAM.
pub fn from_cam(cam: &Cam, ctx: &CamContext) -> Result<Observation, ObservationError> {
    let p = &cam.cam.cam_parameters;
    let HighFrequencyContainer::BasicVehicle(hf) = &p.high_frequency_container else {
        return Err(ObservationError::NotAVehicle);
    };
    let rp = &p.basic_container.reference_position;
    if rp.latitude == LATITUDE_UNAVAILABLE {
        return Err(ObservationError::PositionUnavailable);
    }
    let position = ctx
        .frame
        .project(f64::from(rp.latitude) * 1e-7, f64::from(rp.longitude) * 1e-7);
    let generation_time_s = ctx.generation_time_s.unwrap_or_else(|| {
        // generationDeltaTime = TimestampIts mod 65 536 ms: the latest such instant not after
        // the reception (a CAM is never from the future by more than clock skew).
        let rx_ms = (ctx.reception_time_s * 1000.0).floor() as i64;
        let gdt = i64::from(cam.cam.generation_delta_time);
        let back = (rx_ms - gdt).rem_euclid(65_536);
        (rx_ms - back) as f64 / 1000.0
    });
    let ellipse = &rp.position_confidence_ellipse;
    Ok(Observation {
        pseudonym: u64::from(cam.header.station_id),
        certificate: ctx.certificate,
        generation_time_s,
        reception_time_s: ctx.reception_time_s,
        position,
        position_confidence_m: known(ellipse.semi_major_confidence, SEMI_AXIS_UNAVAILABLE)
            .map_or(0.0, |c| f64::from(c) / 100.0),
        speed_mps: f64::from(hf.speed.speed_value) / 100.0,
        speed_confidence_mps: known(hf.speed.speed_confidence, SPEED_CONFIDENCE_UNAVAILABLE)
            .map_or(0.0, |c| f64::from(c) / 100.0),
        heading_deg: f64::from(hf.heading.heading_value) / 10.0,
        heading_confidence_deg: known(hf.heading.heading_confidence, HEADING_CONFIDENCE_UNAVAILABLE)
            .map_or(0.0, |c| f64::from(c) / 10.0),
        acceleration_mps2: known(hf.longitudinal_acceleration.value, ACCELERATION_UNAVAILABLE)
            .map_or(0.0, |a| f64::from(a) / 10.0),
        acceleration_confidence_mps2: known(
            hf.longitudinal_acceleration.confidence,
            ACCELERATION_CONFIDENCE_UNAVAILABLE,
        )
        .map_or(0.0, |c| f64::from(c) / 10.0),
        yaw_rate_dps: known(hf.yaw_rate.yaw_rate_value, YAW_RATE_UNAVAILABLE).map(|y| f64::from(y) / 100.0),
        length_m: known(hf.vehicle_length.vehicle_length_value, LENGTH_UNAVAILABLE)
            .map_or(DEFAULT_LENGTH_M, |l| f64::from(l) / 10.0),
        width_m: known(hf.vehicle_width, WIDTH_UNAVAILABLE).map_or(DEFAULT_WIDTH_M, |w| f64::from(w) / 10.0),
        receiver_position: ctx.receiver_position,
        receiver_position_confidence_m: ctx.receiver_position_confidence_m,
        distance_to_road_edge_m: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use v2x_wire::facilities::{passenger_car_cam, VehicleState};

    #[test]
    fn cam_fields_convert_with_their_units() {
        let frame = LocalFrame {
            origin_lat_deg: 48.0,
            origin_lon_deg: 11.0,
        };
        let state = VehicleState {
            station_id: 42,
            latitude: 480_010_000, // 0.001 degree north: 111.2 m
            longitude: 110_000_000,
            speed: 1389,
            heading: 900,
            altitude_cm: 0,
        };
        let cam = passenger_car_cam(&state, 1234, false);
        let ctx = CamContext {
            frame,
            reception_time_s: 70.000,
            generation_time_s: None,
            receiver_position: [0.0, 0.0],
            receiver_position_confidence_m: 1.0,
            certificate: Some([7; 8]),
        };
        let o = from_cam(&cam, &ctx).unwrap();
        assert_eq!(o.pseudonym, 42);
        assert!((o.position[1] - 111.195).abs() < 0.01, "{:?}", o.position);
        assert!(o.position[0].abs() < 1e-6);
        assert_eq!(o.speed_mps, 13.89);
        assert_eq!(o.heading_deg, 90.0);
        assert_eq!(o.heading_confidence_deg, 1.0);
        assert_eq!(o.speed_confidence_mps, 0.05);
        assert_eq!(o.position_confidence_m, 5.0);
        assert_eq!(o.acceleration_mps2, 0.3);
        assert_eq!((o.length_m, o.width_m), (4.5, 1.8));
        // 70 000 ms = 65 536 + 4 464: generationDeltaTime 1234 lies 3 230 ms before.
        assert!((o.generation_time_s - 66.770).abs() < 1e-9, "{}", o.generation_time_s);
        assert_eq!(o.certificate, Some([7; 8]));
    }

    #[test]
    fn frame_round_trips() {
        let f = LocalFrame {
            origin_lat_deg: 48.1,
            origin_lon_deg: 11.5,
        };
        let p = f.project(48.11, 11.52);
        let (lat, lon) = f.unproject(p);
        assert!((lat - 48.11).abs() < 1e-12 && (lon - 11.52).abs() < 1e-12);
    }
}
