//! Issue 11, defect 2: permissions. The SSP is checked at SN-DECAP against the ETSI CAM and
//! DENM tables and the payload; a ticket carrying issue permissions cannot mint accepted
//! tickets; SSP ranges, chain length and end-entity type are checked along the chain
//! (1609.2 §5.1.2). Each test failed on the code before the fix.

use std::time::Duration;
use v2x_security::authority::Authority;
use v2x_security::*;
use v2x_wire::facilities::{
    encode_cam, encode_denm, hazard_denm, passenger_car_cam, BasicVehicleContainerLowFrequency, Cam,
    EmergencyContainer, LowFrequencyContainer, SafetyCarContainer, SpecialVehicleContainer, TrafficRule, VehicleRole,
    VehicleState,
};
use v2x_wire::geonet::{GnAddress, LongPositionVector, NetworkPart, BTP_PORT_CAM};

fn pki() -> InMemoryPki {
    InMemoryPki::builder().build().unwrap()
}

fn reason(r: Result<Decapped, Rejection>) -> RejectReason {
    match r {
        Ok(d) => panic!("accepted: {d:?}"),
        Err(e) => e.reason,
    }
}

fn ticket(fx: &InMemoryPki, psid: ItsAid, ssp: Option<Vec<u8>>) -> Credentials {
    fx.ticket_with(
        &[AppPermission::new(psid, ssp)],
        fx.now.saturating_sub(Duration::from_secs(60)),
        Duration::from_secs(3600),
        None,
    )
    .unwrap()
}

fn vehicle() -> VehicleState {
    VehicleState {
        station_id: 42,
        latitude: 481_000_000,
        longitude: 115_000_000,
        speed: 1000,
        heading: 900,
        altitude_cm: 50_000,
    }
}

fn bits(b: &[bool]) -> rasn::types::BitString {
    b.iter().copied().collect()
}

/// A CAM of an emergency vehicle: role `emergency`, an emergency container asking for
/// right of way.
fn emergency_cam() -> Vec<u8> {
    let mut cam: Cam = passenger_car_cam(&vehicle(), 1, true);
    if let Some(LowFrequencyContainer::BasicVehicle(lf)) = &mut cam.cam.cam_parameters.low_frequency_container {
        lf.vehicle_role = VehicleRole::Emergency;
    }
    cam.cam.cam_parameters.special_vehicle_container = Some(SpecialVehicleContainer::Emergency(EmergencyContainer {
        light_bar_siren_in_use: bits(&[true, true]),
        incident_indication: None,
        emergency_priority: Some(bits(&[true, false])),
    }));
    encode_cam(&cam).unwrap()
}

fn cam_decap(fx: &InMemoryPki, ssp: Option<Vec<u8>>, payload: &[u8]) -> Result<Decapped, Rejection> {
    let mut s = fx.sender(ticket(fx, ItsAid::CAM, ssp));
    let m = s.encap(&EncapRequest::cam(payload).at(fx.now)).unwrap().bytes;
    fx.receiver().decap_at(&m, fx.now)
}

#[test]
fn cam_signed_with_ssp_000000_or_without_ssp_is_rejected() {
    let fx = pki();
    assert_eq!(
        reason(cam_decap(&fx, Some(vec![0, 0, 0]), b"cam")),
        RejectReason::SspNotPermitted
    );
    assert_eq!(reason(cam_decap(&fx, None, b"cam")), RejectReason::SspNotPermitted);
    assert_eq!(
        reason(cam_decap(&fx, Some(vec![1, 0]), b"cam")),
        RejectReason::SspNotPermitted
    );
    // Version 1 with no permission bit is a plain passenger car: fine for a basic CAM.
    let basic = encode_cam(&passenger_car_cam(&vehicle(), 1, true)).unwrap();
    assert!(cam_decap(&fx, Some(vec![1, 0, 0]), &basic).is_ok());
}

#[test]
fn cam_special_vehicle_container_needs_its_ssp_bits() {
    let fx = pki();
    let cam = emergency_cam();
    // A passenger car ticket (no permission bits).
    let e = cam_decap(&fx, Some(vec![1, 0, 0]), &cam).unwrap_err();
    assert_eq!(e.reason, RejectReason::SspNotPermitted);
    assert!(e.detail.contains("Emergency"), "{}", e.detail);
    // Emergency bit (octet 1, 0x02) but not requestForRightOfWay (octet 2, 0x40).
    let e = cam_decap(&fx, Some(vec![1, 0x02, 0x00]), &cam).unwrap_err();
    assert!(e.detail.contains("RequestForRightOfWay"), "{}", e.detail);
    assert!(cam_decap(&fx, Some(vec![1, 0x02, 0x40]), &cam).is_ok());
    // The default ETSI CAM SSP grants every container.
    assert!(cam_decap(&fx, Some(vec![1, 0xff, 0xfc]), &cam).is_ok());
}

#[test]
fn cam_behind_geonetworking_and_btp_is_checked_too() {
    let fx = pki();
    let cam = emergency_cam();
    let pv = LongPositionVector {
        address: GnAddress::new(5, [2, 0, 0, 0, 0, 1]),
        timestamp: 0,
        latitude: 481_000_000,
        longitude: 115_000_000,
        accurate: true,
        speed: 0,
        heading: 0,
    };
    let network = NetworkPart::shb(pv, BTP_PORT_CAM, &cam).to_bytes().unwrap();
    assert_eq!(
        reason(cam_decap(&fx, Some(vec![1, 0, 0]), &network)),
        RejectReason::SspNotPermitted
    );
    assert!(cam_decap(&fx, Some(vec![1, 0x02, 0x40]), &network).is_ok());
}

#[test]
fn cam_vehicle_role_and_safety_car_rules_need_their_bits() {
    let fx = pki();
    let mut cam = passenger_car_cam(&vehicle(), 1, true);
    cam.cam.cam_parameters.low_frequency_container =
        Some(LowFrequencyContainer::BasicVehicle(BasicVehicleContainerLowFrequency {
            vehicle_role: VehicleRole::SafetyCar,
            exterior_lights: bits(&[false; 8]),
            path_history: Default::default(),
        }));
    let role_only = encode_cam(&cam).unwrap();
    assert_eq!(
        reason(cam_decap(&fx, Some(vec![1, 0, 0]), &role_only)),
        RejectReason::SspNotPermitted
    );
    assert!(cam_decap(&fx, Some(vec![1, 0x01, 0]), &role_only).is_ok());
    cam.cam.cam_parameters.special_vehicle_container = Some(SpecialVehicleContainer::SafetyCar(SafetyCarContainer {
        light_bar_siren_in_use: bits(&[true, false]),
        incident_indication: None,
        traffic_rule: Some(TrafficRule::NoPassingForTrucks),
        speed_limit: Some(60),
    }));
    let with_rules = encode_cam(&cam).unwrap();
    // safetyCar alone: no noPassingForTrucks (octet 2, 0x08), no speedLimit (0x04).
    assert_eq!(
        reason(cam_decap(&fx, Some(vec![1, 0x01, 0]), &with_rules)),
        RejectReason::SspNotPermitted
    );
    assert_eq!(
        reason(cam_decap(&fx, Some(vec![1, 0x01, 0x08]), &with_rules)),
        RejectReason::SspNotPermitted
    );
    assert!(cam_decap(&fx, Some(vec![1, 0x01, 0x0c]), &with_rules).is_ok());
}

fn denm_decap(fx: &InMemoryPki, ssp: Option<Vec<u8>>, cause: u8) -> Result<Decapped, Rejection> {
    let mut s = fx.sender(ticket(fx, ItsAid::DENM, ssp));
    let payload = encode_denm(&hazard_denm(&vehicle(), 1, 0, cause, 0)).unwrap();
    let loc = Location {
        point: GeoPoint::from_degrees(48.1, 11.5),
        elevation: 0,
    };
    let m = s.encap(&EncapRequest::denm(&payload, loc).at(fx.now)).unwrap().bytes;
    fx.receiver().decap_at(&m, fx.now)
}

#[test]
fn denm_cause_codes_need_their_ssp_bits() {
    let fx = pki();
    // Roadworks (3) is octet 1, 0x20; stationary vehicle (94) is octet 3, 0x20.
    let roadworks_only = Some(vec![1, 0x20, 0, 0]);
    assert!(denm_decap(&fx, roadworks_only.clone(), 3).is_ok());
    let e = denm_decap(&fx, roadworks_only, 94).unwrap_err();
    assert_eq!(e.reason, RejectReason::SspNotPermitted);
    assert!(e.detail.contains("stationaryVehicle"), "{}", e.detail);
    assert!(denm_decap(&fx, Some(vec![1, 0, 0, 0x20]), 94).is_ok());
    // Aquaplaning (7) has a bit only in version 2 (octet 4, 0x40).
    assert_eq!(
        reason(denm_decap(&fx, Some(vec![1, 0xff, 0xff, 0xff]), 7)),
        RejectReason::SspNotPermitted
    );
    assert!(denm_decap(&fx, Some(vec![2, 0, 0, 0, 0x40]), 7).is_ok());
    // A cause code with no bit at all, and DENMs without SSP.
    assert_eq!(
        reason(denm_decap(&fx, Some(vec![2, 0xff, 0xff, 0xff, 0xff]), 8)),
        RejectReason::SspNotPermitted
    );
    assert_eq!(reason(denm_decap(&fx, None, 3)), RejectReason::SspNotPermitted);
}

#[test]
fn other_psids_have_no_ssp_semantics_unless_a_mask_is_configured() {
    let fx = InMemoryPki::builder()
        .psids(&[ItsAid::CAM, ItsAid::DENM, ItsAid(140)])
        .build()
        .unwrap();
    let mut s = fx.sender(ticket(&fx, ItsAid(140), Some(vec![0x01])));
    let m = s
        .encap(
            &EncapRequest::new(ProfileKind::Generic, b"x")
                .with_psid(ItsAid(140))
                .at(fx.now),
        )
        .unwrap()
        .bytes;
    let mut r = fx.receiver();
    assert!(
        r.decap_at(&m, fx.now).is_ok(),
        "generic PSIDs have no SSP semantics by default"
    );
    let mut profile = Profile::generic(ItsAid(140));
    profile.ssp = SspRule::Mask(SspRequirement {
        value: vec![0x02],
        mask: vec![0x02],
    });
    let mut r = fx.receiver();
    r.policy_mut().profiles.insert(ItsAid(140), profile);
    assert_eq!(reason(r.decap_at(&m, fx.now)), RejectReason::SspNotPermitted);
}

/// A ticket that carries certIssuePermissions, issued by an AA allowed to issue end
/// entities only: what it mints is rejected (and so is the ticket itself).
#[test]
fn a_ticket_with_issue_permissions_cannot_mint_accepted_tickets() {
    let fx = pki();
    let key = v2x_crypto::PrivateKey::generate(v2x_crypto::Curve::NistP256).unwrap();
    let mut spec = CertificateSpec::new(
        None,
        fx.now.saturating_sub(Duration::from_secs(60)),
        Duration::from_secs(3600),
    );
    spec.app_permissions = vec![AppPermission::new(ItsAid::CAM, Some(vec![1, 0xff, 0xfc]))];
    spec.issue_permissions = Some(IssuePermissions::Psids(vec![ItsAid::CAM]));
    let rogue = issue_certificate(
        &spec,
        key.public_key(),
        IssuerKey::Ca {
            cert: &fx.aa.certificate,
            key: &fx.aa.key,
        },
    )
    .unwrap();
    let rogue = Authority {
        certificate: std::sync::Arc::new(rogue),
        key,
    };
    let mut minted_spec = TicketSpec::new(&[ItsAid::CAM], Duration::from_secs(600));
    minted_spec.start = Some(fx.now.saturating_sub(Duration::from_secs(30)));
    let minted = fx.issue_ticket_from(&rogue, &minted_spec).unwrap();
    let mut s = SecurityEntity::with_credentials(fx.store(), minted, vec![rogue.certificate.clone()]);
    let m = s.encap(&EncapRequest::cam(b"cam").at(fx.now)).unwrap().bytes;
    let mut r = fx.receiver();
    r.trust_store_mut().add_ca_certificate(rogue.certificate.clone());
    let e = r.decap_at(&m, fx.now).unwrap_err();
    assert_eq!(e.reason, RejectReason::InconsistentChain, "{}", e.detail);
    // The rogue ticket's own CAMs fail the same way: its issue permissions are inconsistent.
    let mut own = SecurityEntity::with_credentials(
        fx.store(),
        Credentials {
            certificate: rogue.certificate.clone(),
            signing_key: rogue.key.clone(),
            encryption_key: None,
        },
        fx.chain(),
    );
    let m = own.encap(&EncapRequest::cam(b"cam").at(fx.now)).unwrap().bytes;
    assert_eq!(
        reason(fx.receiver().decap_at(&m, fx.now)),
        RejectReason::InconsistentChain
    );
}

/// An AA whose only group is for enrolment end entities may not issue app tickets; a CA
/// allowed two levels below it may not issue a ticket directly; SSP ranges bind.
#[test]
fn ee_type_chain_length_and_ssp_ranges_are_checked_along_the_chain() {
    let fx = pki();
    let group = |min, range, app, enrol, subjects| PsidGroup {
        subjects,
        min_chain_length: min,
        chain_length_range: range,
        app,
        enrol,
    };
    let cam_any = Some(vec![(ItsAid::CAM, SspRangeSpec::Any)]);
    let cases: Vec<(&str, PsidGroup, bool)> = vec![
        ("enrol-only AA", group(1, 0, false, true, cam_any.clone()), false),
        ("CA two levels up", group(2, 0, true, false, cam_any.clone()), false),
        ("unlimited depth", group(1, -1, true, false, cam_any.clone()), true),
        (
            "other PSID",
            group(1, 0, true, false, Some(vec![(ItsAid::DENM, SspRangeSpec::Any)])),
            false,
        ),
        (
            "bitmap range admitting the SSP",
            group(
                1,
                0,
                true,
                false,
                Some(vec![(
                    ItsAid::CAM,
                    SspRangeSpec::Bitmap {
                        value: vec![1, 0, 0],
                        mask: vec![0xff, 0, 0],
                    },
                )]),
            ),
            true,
        ),
        (
            "bitmap range forbidding the emergency bit",
            group(
                1,
                0,
                true,
                false,
                Some(vec![(
                    ItsAid::CAM,
                    SspRangeSpec::Bitmap {
                        value: vec![1, 0, 0],
                        mask: vec![0xff, 0x02, 0],
                    },
                )]),
            ),
            false,
        ),
        (
            "opaque range",
            group(
                1,
                0,
                true,
                false,
                Some(vec![(ItsAid::CAM, SspRangeSpec::Opaque(vec![vec![1, 0xff, 0xfc]]))]),
            ),
            false, // the ticket's SSP is a bitmap, the range lists opaque SSPs
        ),
    ];
    for (name, g, accepted) in cases {
        let ca = fx.issue_ca(name, IssuePermissions::Groups(vec![g])).unwrap();
        let mut spec = TicketSpec::new(&[ItsAid::CAM], Duration::from_secs(600));
        spec.start = Some(fx.now.saturating_sub(Duration::from_secs(30)));
        spec.permissions = vec![AppPermission::new(ItsAid::CAM, Some(vec![1, 0xff, 0xfc]))];
        let t = {
            // Bitmap SSPs, as ETSI tickets carry them.
            let key = v2x_crypto::PrivateKey::generate(v2x_crypto::Curve::NistP256).unwrap();
            let mut cs = CertificateSpec::new(None, spec.start.unwrap(), spec.validity);
            cs.app_permissions = spec.permissions.clone();
            cs.bitmap_ssp = true;
            let cert = issue_certificate(
                &cs,
                key.public_key(),
                IssuerKey::Ca {
                    cert: &ca.certificate,
                    key: &ca.key,
                },
            )
            .unwrap();
            Credentials {
                certificate: std::sync::Arc::new(cert),
                signing_key: key,
                encryption_key: None,
            }
        };
        let mut s = SecurityEntity::with_credentials(fx.store(), t, vec![ca.certificate.clone()]);
        let m = s.encap(&EncapRequest::cam(b"cam").at(fx.now)).unwrap().bytes;
        let mut r = fx.receiver();
        r.trust_store_mut().add_ca_certificate(ca.certificate.clone());
        let got = r.decap_at(&m, fx.now);
        if accepted {
            assert!(got.is_ok(), "{name}: {got:?}");
        } else {
            assert_eq!(reason(got), RejectReason::InconsistentChain, "{name}");
        }
    }
}
