//! Issue 27, item 1: the whole CAM (EN 302 637-2 v1.4.1) and DENM (EN 302 637-3 v1.3.1)
//! decode — every optional member, the RSU container, the DENM location and à-la-carte
//! containers, event history — and release-2 messages (TS 103 900 / TS 103 831) read to
//! their root. Checked against a real production CAM (a VW Golf 8, from Vanetza's tests, see
//! vectors/README.md) and against Wireshark's CAM/DENM dissectors (an independent decoder):
//! every member we encode shows with its value and nothing is malformed.
//!
//! Before this issue (726a8c9) the optional members were typed `NotModelled` and such
//! messages did not decode at all (`real_vw_golf_cam_decodes` failed there).

use rasn::prelude::*;
use std::process::Command;
use v2x_wire::cursor::Writer;
use v2x_wire::facilities::*;
use v2x_wire::geonet::{BasicHeader, GnAddress, LongPositionVector, NetworkPart, BTP_PORT_CAM, BTP_PORT_DENM};
use v2x_wire::ieee1609dot2::{parse_data, signed_data, signed_unsecured_payload};
use v2x_wire::pcap::{geonet_frame, PcapWriter};

const GOLF: &[u8] = include_bytes!("../../../vectors/vw-golf8-cam-secured.oer");

fn bits(b: &[bool]) -> BitString {
    b.iter().copied().collect()
}

fn state() -> VehicleState {
    VehicleState {
        station_id: 42,
        latitude: 481_000_000,
        longitude: 115_000_000,
        speed: 1000,
        heading: 900,
        altitude_cm: 50_000,
    }
}

fn golf_cam_bytes() -> Vec<u8> {
    let (data, _) = parse_data(GOLF).unwrap();
    let payload = signed_unsecured_payload(signed_data(&data).unwrap()).unwrap();
    NetworkPart::parse(payload).unwrap().payload.to_vec()
}

#[test]
fn real_vw_golf_cam_decodes() {
    let bytes = golf_cam_bytes();
    let cam = decode_cam(&bytes).unwrap();
    assert_eq!(cam.header.station_id, 0x4ce0_b890);
    let HighFrequencyContainer::BasicVehicle(hf) = &cam.cam.cam_parameters.high_frequency_container else {
        panic!("not a vehicle CAM: {cam:?}")
    };
    // The three optional high-frequency members a production car sends.
    let present = [
        hf.acceleration_control.is_some(),
        hf.lane_position.is_some(),
        hf.steering_wheel_angle.is_some(),
        hf.lateral_acceleration.is_some(),
        hf.vertical_acceleration.is_some(),
        hf.performance_class.is_some(),
        hf.cen_dsrc_tolling_zone.is_some(),
    ];
    assert_eq!(present.iter().filter(|p| **p).count(), 3, "{hf:?}");
    // Canonical UPER: the real message re-encodes byte for byte.
    assert_eq!(encode_cam(&cam).unwrap(), bytes);
}

/// A CAM with every member of the high-frequency container, a low-frequency container with
/// path history and the emergency container.
pub fn full_vehicle_cam() -> Cam {
    let mut cam = passenger_car_cam(&state(), 7, true);
    let p = &mut cam.cam.cam_parameters;
    if let HighFrequencyContainer::BasicVehicle(hf) = &mut p.high_frequency_container {
        hf.acceleration_control = Some(bits(&[true, false, false, false, false, false, true]));
        hf.lane_position = Some(2);
        hf.steering_wheel_angle = Some(SteeringWheelAngle {
            steering_wheel_angle_value: -12,
            steering_wheel_angle_confidence: 3,
        });
        hf.lateral_acceleration = Some(LateralAcceleration {
            value: -7,
            confidence: 5,
        });
        hf.vertical_acceleration = Some(VerticalAcceleration {
            value: 4,
            confidence: 6,
        });
        hf.performance_class = Some(1);
        hf.cen_dsrc_tolling_zone = Some(CenDsrcTollingZone::new(481_000_100, 115_000_200, Some(77)));
    }
    if let Some(LowFrequencyContainer::BasicVehicle(lf)) = &mut p.low_frequency_container {
        lf.vehicle_role = VehicleRole::Emergency;
    }
    p.special_vehicle_container = Some(SpecialVehicleContainer::Emergency(EmergencyContainer {
        light_bar_siren_in_use: bits(&[true, true]),
        incident_indication: Some(CauseCode::new(95, 1)),
        emergency_priority: Some(bits(&[true, false])),
    }));
    cam
}

fn rsu_cam() -> Cam {
    let mut cam = passenger_car_cam(&state(), 9, false);
    cam.cam.cam_parameters.basic_container.station_type = 15;
    let mut zone =
        ProtectedCommunicationZone::new(ProtectedZoneType::TemporaryCenDsrcTolling, 481_000_500, 115_000_600);
    zone.protected_zone_radius = Some(50);
    zone.protected_zone_id = Some(1234);
    zone.expiry_time = Some(600_000_000_000);
    cam.cam.cam_parameters.high_frequency_container = HighFrequencyContainer::Rsu(RsuContainerHighFrequency::new(
        Some(ProtectedCommunicationZonesRsu(vec![
            zone,
            ProtectedCommunicationZone::new(ProtectedZoneType::PermanentCenDsrcTolling, 1, 2),
        ])),
    ));
    cam
}

/// A roadworks DENM with every container: situation with event history, location with
/// traces, à-la-carte with impact reduction, extended roadworks and a stationary vehicle.
pub fn full_denm() -> Denm {
    let mut denm = hazard_denm(&state(), 5, 600_000_000_000, 3, 4);
    let point = |dlat: i32| PathPoint {
        path_position: DeltaReferencePosition {
            delta_latitude: dlat,
            delta_longitude: 20,
            delta_altitude: 0,
        },
        path_delta_time: Some(30),
    };
    let mut situation = SituationContainer::new(5, CauseCode::new(3, 4));
    situation.linked_cause = Some(CauseCode::new(94, 2));
    situation.event_history = Some(EventHistory(vec![EventPoint {
        event_position: DeltaReferencePosition {
            delta_latitude: -5,
            delta_longitude: 6,
            delta_altitude: 1,
        },
        event_delta_time: Some(100),
        information_quality: 3,
    }]));
    denm.denm.situation = Some(situation);
    let mut location = LocationContainer::new(Traces(vec![PathHistory(vec![point(-100), point(-200)])]));
    location.event_speed = Some(Speed {
        speed_value: 0,
        speed_confidence: 1,
    });
    location.event_position_heading = Some(Heading {
        heading_value: 1800,
        heading_confidence: 10,
    });
    location.road_type = Some(RoadType::NonUrbanWithStructuralSeparationToOppositeLanes);
    denm.denm.location = Some(location);
    let mut dangerous = DangerousGoodsExtended::new(DangerousGoodsBasic::FlammableLiquids, 1203);
    dangerous.emergency_action_code = Some(Ia5String::try_from("3YE").unwrap());
    dangerous.phone_number = Some(NumericString::try_from("0049123").unwrap());
    dangerous.company_name = Some("Tankwagen GmbH".into());
    let mut alacarte = AlacarteContainer::default();
    alacarte.lane_position = Some(1);
    alacarte.impact_reduction = Some(ImpactReductionContainer {
        height_lon_carr_left: 40,
        height_lon_carr_right: 41,
        pos_lon_carr_left: 50,
        pos_lon_carr_right: 51,
        position_of_pillars: PositionOfPillars(vec![PosPillar(10), PosPillar(20)]),
        pos_cent_mass: 30,
        wheel_base_vehicle: 27,
        turning_radius: 30,
        pos_front_ax: 9,
        position_of_occupants: bits(&[true; 20]),
        vehicle_mass: 20,
        request_response_indication: RequestResponseIndication::Request,
    });
    alacarte.external_temperature = Some(-5);
    alacarte.road_works = Some(RoadWorksContainerExtended {
        light_bar_siren_in_use: Some(bits(&[true, false])),
        closed_lanes: Some(ClosedLanes::new(
            None,
            Some(HardShoulderStatus::Closed),
            Some(bits(&[false, true])),
        )),
        restriction: Some(RestrictedTypes(vec![StationType(8)])),
        speed_limit: Some(60),
        incident_indication: Some(CauseCode::new(3, 1)),
        recommended_path: Some(ItineraryPath(vec![reference_position(&state())])),
        starting_point_speed_limit: Some(DeltaReferencePosition {
            delta_latitude: 100,
            delta_longitude: 0,
            delta_altitude: 0,
        }),
        traffic_flow_rule: Some(TrafficRule::PassToRight),
        reference_denms: Some(ReferenceDenms(vec![ActionId {
            originating_station_id: 9,
            sequence_number: 1,
        }])),
    });
    alacarte.positioning_solution = Some(PositioningSolutionType::DGnss);
    alacarte.stationary_vehicle = Some(StationaryVehicleContainer {
        stationary_since: Some(StationarySince::LessThan15Minutes),
        stationary_cause: Some(CauseCode::new(91, 3)),
        carrying_dangerous_goods: Some(dangerous),
        number_of_occupants: Some(2),
        vehicle_identification: Some(VehicleIdentification::new(
            Some(Ia5String::try_from("WVW").unwrap()),
            Some(Ia5String::try_from("ZZZ1KZ").unwrap()),
        )),
        energy_storage_type: Some(bits(&[false, true, false, false, false, true, false])),
    });
    denm.denm.alacarte = Some(alacarte);
    denm
}

#[test]
fn every_member_round_trips() {
    for cam in [full_vehicle_cam(), rsu_cam()] {
        let bytes = encode_cam(&cam).unwrap();
        assert_eq!(decode_cam(&bytes).unwrap(), cam);
    }
    let denm = full_denm();
    let bytes = encode_denm(&denm).unwrap();
    assert_eq!(decode_denm(&bytes).unwrap(), denm);
}

#[test]
fn release_2_cam_extension_containers_round_trip() {
    let mut cam = passenger_car_cam(&state(), 11, false);
    cam.cam.cam_parameters.extension_containers = Some(WrappedExtensionContainers(vec![WrappedExtensionContainer {
        container_id: 3,
        // A VeryLowFrequencyContainer's UPER encoding, kept as the open type's octets.
        container_data: Any::new(vec![0x20, 0x40]),
    }]));
    let bytes = encode_cam(&cam).unwrap();
    assert_eq!(decode_cam(&bytes).unwrap(), cam);
}

/// A DENM as TS 103 831 v2.x sends it: the situation container with its first extension
/// addition group (linkedDenms, eventEnd), modelled here as the standard writes it.
mod release2 {
    use super::*;

    #[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
    #[rasn(automatic_tags)]
    pub struct LinkedGroup {
        #[rasn(identifier = "linkedDenms")]
        pub linked_denms: Option<ReferenceDenms>,
        /// Position1d ::= StandardLength12b, INTEGER (0..4095).
        #[rasn(value("0..=4095"), identifier = "eventEnd")]
        pub event_end: Option<u16>,
    }

    #[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
    #[rasn(automatic_tags)]
    #[non_exhaustive]
    pub struct Situation {
        #[rasn(value("0..=7"))]
        pub information_quality: u8,
        pub event_type: CauseCode,
        pub linked_cause: Option<CauseCode>,
        pub event_zone: Option<EventHistory>,
        #[rasn(extension_addition_group)]
        pub group: Option<LinkedGroup>,
    }

    #[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
    #[rasn(automatic_tags)]
    pub struct Payload {
        pub management: ManagementContainer,
        pub situation: Option<Situation>,
        pub location: Option<LocationContainer>,
        pub alacarte: Option<AlacarteContainer>,
    }

    #[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
    #[rasn(automatic_tags)]
    pub struct DenmV2 {
        pub header: ItsPduHeader,
        pub denm: Payload,
    }
}

#[test]
fn release_2_denm_reads_to_its_root() {
    let v1 = full_denm();
    let s = v1.denm.situation.clone().unwrap();
    let v2 = release2::DenmV2 {
        header: v1.header,
        denm: release2::Payload {
            management: v1.denm.management,
            situation: Some(release2::Situation {
                information_quality: s.information_quality,
                event_type: s.event_type,
                linked_cause: s.linked_cause,
                event_zone: s.event_history.clone(),
                group: Some(release2::LinkedGroup {
                    linked_denms: Some(ReferenceDenms(vec![ActionId {
                        originating_station_id: 1,
                        sequence_number: 2,
                    }])),
                    event_end: Some(300),
                }),
            }),
            location: v1.denm.location.clone(),
            alacarte: v1.denm.alacarte.clone(),
        },
    };
    let bytes = rasn::uper::encode(&v2).unwrap();
    assert_ne!(bytes, encode_denm(&v1).unwrap(), "the addition is on the wire");
    assert_eq!(decode_denm(&bytes).unwrap(), v1);
}

fn tshark_available() -> bool {
    if Command::new("tshark").arg("--version").output().is_ok() {
        return true;
    }
    if std::env::var("V2X_SKIP_TSHARK").as_deref() == Ok("1") {
        eprintln!("tshark not installed; skipped because V2X_SKIP_TSHARK=1");
        return false;
    }
    panic!("tshark is not installed (apt-get install -y tshark), or set V2X_SKIP_TSHARK=1 to skip this test");
}

fn gn_frame(port: u16, app: &[u8]) -> Vec<u8> {
    let v = state();
    let pv = LongPositionVector {
        address: GnAddress::new(5, [2, 0, 0, 0, 0, 1]),
        timestamp: 0,
        latitude: v.latitude,
        longitude: v.longitude,
        accurate: true,
        speed: 0,
        heading: 0,
    };
    let mut w = Writer::new();
    BasicHeader::shb(false).emit(&mut w);
    w.bytes(&NetworkPart::shb(pv, port, app).to_bytes().unwrap());
    geonet_frame([2, 0, 0, 0, 0, 1], &w.into_vec())
}

fn tshark_text(frames: &[Vec<u8>]) -> String {
    let path = std::env::temp_dir().join(format!("v2x-facilities-whole-{}.pcap", std::process::id()));
    let mut pcap = PcapWriter::new(std::io::BufWriter::new(std::fs::File::create(&path).unwrap())).unwrap();
    for f in frames {
        pcap.write_frame(1_700_000_000_000_000, f).unwrap();
    }
    pcap.into_inner().unwrap();
    let out = Command::new("tshark").arg("-r").arg(&path).arg("-V").output().unwrap();
    let _ = std::fs::remove_file(&path);
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn wireshark_reads_every_member_we_write() {
    if !tshark_available() {
        return;
    }
    // Wireshark 4.0 reads the SIZE(1..24) of DangerousGoodsExtended.companyName, a
    // UTF8String, as PER-visible; X.691 says it is not (a UTF8String is not a known-multiplier
    // type), so UPER writes an unconstrained length, as rasn and asn1c do
    // (`company_name_has_an_unconstrained_length`). The DENM shown to Wireshark leaves it out.
    let mut denm = full_denm();
    if let Some(StationaryVehicleContainer {
        carrying_dangerous_goods: Some(goods),
        ..
    }) = denm.denm.alacarte.as_mut().and_then(|a| a.stationary_vehicle.as_mut())
    {
        goods.company_name = None;
    }
    let frames = [
        gn_frame(BTP_PORT_CAM, &encode_cam(&full_vehicle_cam()).unwrap()),
        gn_frame(BTP_PORT_CAM, &encode_cam(&rsu_cam()).unwrap()),
        gn_frame(BTP_PORT_DENM, &encode_denm(&denm).unwrap()),
        gn_frame(BTP_PORT_CAM, &golf_cam_bytes()),
    ];
    let text = tshark_text(&frames);
    assert!(!text.to_lowercase().contains("malformed"), "{text}");
    assert!(!text.contains("Expert Info"), "{text}");
    for want in [
        // CAM high-frequency optional members.
        "accelerationControl: 82 [bit length 7",
        // The real Golf CAM's members, as Wireshark reads them.
        "accelerationControl: 40 [bit length 7",
        "steeringWheelAngleValue: straight (0)",
        "lanePosition: secondLaneFromInside (2)",
        "steeringWheelAngleValue: -18.0° right (-12)",
        "lateralAccelerationValue: -0.7m/s² (-7)",
        "verticalAccelerationValue: 0.4m/s² (4)",
        "performanceClass: performanceClassA (1)",
        "cenDsrcTollingZoneID: 77",
        "incidentIndication",
        // RSU container.
        "protectedZoneType: temporaryCenDsrcTolling (1)",
        "protectedZoneRadius: Unknown (50)",
        "protectedZoneID: 1234",
        "expiryTime: 2023-01-05 10:39:55.000 (600000000000)",
        // DENM containers.
        "eventHistory: 1 item",
        "linkedCause",
        "traces: 1 item",
        "roadType: nonUrban-WithStructuralSeparationToOppositeLanes (3)",
        "impactReduction",
        "externalTemperature: Unknown (-5)",
        "restriction: 1 item",
        "recommendedPath: 1 item",
        "trafficFlowRule: passToRight (2)",
        "referenceDenms: 1 item",
        "positioningSolution: dGNSS (2)",
        "stationarySince: lessThan15Minutes (2)",
        "unNumber: 1203",
        "emergencyActionCode: 3YE",
        "phoneNumber: 0049123",
        "wMInumber: WVW",
        "vDS: ZZZ1KZ",
        "numberOfOccupants: Unknown (2)",
    ] {
        assert!(text.contains(want), "tshark does not show {want:?}:\n{text}");
    }
}

#[test]
fn company_name_has_an_unconstrained_length() {
    let mut goods = DangerousGoodsExtended::new(DangerousGoodsBasic::FlammableLiquids, 1203);
    goods.company_name = Some("AB".into());
    let bytes = rasn::uper::encode(&goods).unwrap();
    // ext bit, 3 presence bits (0 0 1), type (5 bits), unNumber (14 bits), 3 booleans = 26
    // bits; then an 8-bit length determinant (2) and the two octets, not a 5-bit length.
    let bit = |i: usize| (bytes[i / 8] >> (7 - i % 8)) & 1;
    let length: u8 = (26..34).fold(0, |acc, i| acc << 1 | bit(i));
    assert_eq!(length, 2, "{bytes:02x?}");
    assert_eq!(rasn::uper::decode::<DangerousGoodsExtended>(&bytes).unwrap(), goods);
}
