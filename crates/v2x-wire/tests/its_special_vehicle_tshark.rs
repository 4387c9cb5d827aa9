//! The CAM special-vehicle containers (the parts the CAM SSP governs) checked against
//! Wireshark's CAM dissector: each container decodes with the values we encoded and no
//! malformed packet. tshark missing fails the test unless V2X_SKIP_TSHARK=1.

use rasn::types::{BitString, OctetString};
use std::process::Command;
use v2x_wire::facilities::*;
use v2x_wire::geonet::{BasicHeader, GnAddress, LongPositionVector, NetworkPart, BTP_PORT_CAM};
use v2x_wire::pcap::{geonet_frame, PcapWriter};

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

fn bits(b: &[bool]) -> BitString {
    b.iter().copied().collect()
}

#[test]
fn special_vehicle_containers_decode_in_wireshark() {
    if !tshark_available() {
        return;
    }
    let v = VehicleState {
        station_id: 42,
        latitude: 481_000_000,
        longitude: 115_000_000,
        speed: 1000,
        heading: 900,
        altitude_cm: 50_000,
    };
    let containers = [
        SpecialVehicleContainer::Emergency(EmergencyContainer {
            light_bar_siren_in_use: bits(&[true, true]),
            incident_indication: None,
            emergency_priority: Some(bits(&[true, false])),
        }),
        SpecialVehicleContainer::SafetyCar(SafetyCarContainer {
            light_bar_siren_in_use: bits(&[true, false]),
            incident_indication: None,
            traffic_rule: Some(TrafficRule::NoPassingForTrucks),
            speed_limit: Some(60),
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
        SpecialVehicleContainer::DangerousGoods(DangerousGoodsContainer {
            dangerous_goods_basic: DangerousGoodsBasic::FlammableLiquids,
        }),
        SpecialVehicleContainer::PublicTransport(PublicTransportContainer {
            embarkation_status: true,
            pt_activation: Some(PtActivation {
                pt_activation_type: 1,
                pt_activation_data: OctetString::from_static(&[1, 2, 3]),
            }),
        }),
        SpecialVehicleContainer::SpecialTransport(SpecialTransportContainer {
            special_transport_type: bits(&[true, false, false, true]),
            light_bar_siren_in_use: bits(&[false, true]),
        }),
        SpecialVehicleContainer::Rescue(RescueContainer {
            light_bar_siren_in_use: bits(&[true, true]),
        }),
    ];
    let path = std::env::temp_dir().join(format!("v2x-special-vehicles-{}.pcap", std::process::id()));
    let mut pcap = PcapWriter::new(std::io::BufWriter::new(std::fs::File::create(&path).unwrap())).unwrap();
    for c in containers {
        let mut cam = passenger_car_cam(&v, 1, true);
        if let Some(LowFrequencyContainer::BasicVehicle(lf)) = &mut cam.cam.cam_parameters.low_frequency_container {
            lf.vehicle_role = VehicleRole::Emergency;
        }
        cam.cam.cam_parameters.special_vehicle_container = Some(c);
        let app = encode_cam(&cam).unwrap();
        let pv = LongPositionVector {
            address: GnAddress::new(5, [2, 0, 0, 0, 0, 1]),
            timestamp: 0,
            latitude: v.latitude,
            longitude: v.longitude,
            accurate: true,
            speed: 0,
            heading: 0,
        };
        let mut gn = BasicHeader::shb(false).to_bytes();
        gn.extend_from_slice(&NetworkPart::shb(pv, BTP_PORT_CAM, &app).to_bytes().unwrap());
        pcap.write_frame(1_700_000_000_000_000, &geonet_frame([2, 0, 0, 0, 0, 1], &gn))
            .unwrap();
    }
    pcap.into_inner().unwrap();
    let out = Command::new("tshark").arg("-r").arg(&path).arg("-V").output().unwrap();
    let _ = std::fs::remove_file(&path);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.to_lowercase().contains("malformed"), "{text}");
    for want in [
        "specialVehicleContainer: emergencyContainer (5)",
        "emergencyPriority: 80 [bit length 2",
        "specialVehicleContainer: safetyCarContainer (6)",
        "trafficRule: noPassingForTrucks (1)",
        "speedLimit: 60km/h (60)",
        "specialVehicleContainer: roadWorksContainerBasic (3)",
        "roadworksSubCauseCode: shortTermStationaryRoadworks (4)",
        "innerhardShoulderStatus: closed (1)",
        "specialVehicleContainer: dangerousGoodsContainer (2)",
        "dangerousGoodsBasic: flammableLiquids (9)",
        "specialVehicleContainer: publicTransportContainer (0)",
        "ptActivationData: 010203",
        "specialVehicleContainer: specialTransportContainer (1)",
        "specialVehicleContainer: rescueContainer (4)",
        "vehicleRole: emergency (6)",
    ] {
        assert!(text.contains(want), "tshark does not show {want:?}:\n{text}");
    }
}
