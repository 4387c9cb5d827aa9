//! TS 103 759 reports: byte-exact round trips, the authority's rejections by name, and the
//! closed loop (report, revoke, receivers drop the attacker).

use v2x_mbd::checks::CheckId;
use v2x_mbd::report::asn::{AsrCam, EtsiTs103759Data, EtsiTs103759Mbr, MbrSec, ThreeDLocation};
use v2x_mbd::report::authority::{Authority, Decision};
use v2x_mbd::report::{cam_report, secure, MISBEHAVIOUR_REPORTING};
use v2x_security::{AppPermission, EncapRequest, InMemoryPki, TaiTime};
use v2x_wire::ItsAid;

fn pki() -> InMemoryPki {
    InMemoryPki::builder()
        .psids(&[ItsAid::CAM, ItsAid::DENM, MISBEHAVIOUR_REPORTING])
        .ticket_encryption_keys(true)
        .build()
        .unwrap()
}

fn location() -> ThreeDLocation {
    ThreeDLocation {
        latitude: 481_234_567,
        longitude: 115_678_901,
        elevation: 4500,
    }
}

#[test]
fn plaintext_report_round_trips_byte_exact() {
    let mbr = cam_report(
        &[
            CheckId::PositionSpeedConsistency,
            CheckId::BeaconFrequency,
            CheckId::ContentReplay,
        ],
        vec![vec![0x03, 0x81, 0x00, 0x24], vec![0x03, 0x80]],
        700_000_000_000_000,
        location(),
    )
    .unwrap();
    let data = EtsiTs103759Data {
        content: MbrSec::Plaintext(mbr.clone()),
    };
    let bytes = data.encode().unwrap();
    assert_eq!(&bytes[..2], &[3, 0x80]);
    let back = EtsiTs103759Data::decode(&bytes).unwrap();
    assert_eq!(back, data);
    assert_eq!(back.encode().unwrap(), bytes);
    // The AsrCam inside: two targets (beacon 0/1, position 3/4), the replay as private
    // evidence 255, the evidence PDUs verbatim.
    let asr: AsrCam = rasn::coer::decode(&mbr.report.content).unwrap();
    let targets: Vec<(u8, Vec<u8>)> = asr
        .observations
        .iter()
        .map(|t| (t.tgt_id, t.observations.iter().map(|o| o.obs_id).collect()))
        .collect();
    assert_eq!(targets, vec![(3, vec![4]), (0, vec![1])]);
    assert_eq!(asr.non_v2x_pdu_evidence[0].id, 255);
    assert_eq!(&asr.non_v2x_pdu_evidence[0].evidence[..], b"content-replay");
    assert_eq!(&asr.v2x_pdu_evidence[0].v2x_pdus[1][..], &[0x03, 0x80]);
    // Hand-checked head of the C-OER: generationTime as 8 octets.
    let inner = rasn::coer::encode(&mbr).unwrap();
    assert_eq!(&inner[..8], &700_000_000_000_000u64.to_be_bytes());
    // Trailing bytes, a wrong version, an unknown alternative are refused.
    let mut long = bytes.clone();
    long.push(0);
    assert!(EtsiTs103759Data::decode(&long).is_err());
    let mut v = bytes.clone();
    v[0] = 2;
    assert!(EtsiTs103759Data::decode(&v).is_err());
    assert!(EtsiTs103759Data::decode(&[3, 0x85, 1]).is_err());
    assert!(EtsiTs103759Data::decode(&[3]).is_err());
    let _: EtsiTs103759Mbr = rasn::coer::decode(&inner).unwrap();
}

#[test]
fn a_report_without_evidence_or_standard_observation_is_not_made() {
    assert!(cam_report(&[CheckId::Range], vec![vec![1]], 1, location()).is_err());
    assert!(cam_report(&[CheckId::SpeedConsistency], vec![], 1, location()).is_err());
}

/// The attacker's CAM, the report on it from `reporter`, at `t`.
fn report_on(
    pki: &InMemoryPki,
    cam: &[u8],
    reporter: &mut v2x_security::SecurityEntity,
    ma: &v2x_security::CertRef,
    t: TaiTime,
) -> Vec<u8> {
    let mbr = cam_report(&[CheckId::PositionConsistency], vec![cam.to_vec()], t.0, location()).unwrap();
    let _ = pki;
    secure(reporter, &mbr, ma, t).unwrap()
}

#[test]
fn authority_rejects_by_name_and_revokes_through_the_crl() {
    let pki = pki();
    let ma = pki.ticket().unwrap();
    let ma_cert = ma.certificate.clone();
    let mut authority = Authority::new(&pki, ma, 2).unwrap();
    let t = v2x_security::memory_pki::default_now();
    let mut attacker = pki.sender(pki.ticket().unwrap());
    let cam = attacker
        .encap(&EncapRequest::cam(b"ghost position").at(t))
        .unwrap()
        .bytes;
    let mut r1 = pki.sender(pki.ticket().unwrap());
    let mut r2 = pki.sender(pki.ticket().unwrap());

    // A flipped bit in the ciphertext: the AES-CCM tag fails.
    let mut flipped = report_on(&pki, &cam, &mut r1, &ma_cert, t);
    let last = flipped.len() - 1;
    flipped[last] ^= 0x01;
    let e = authority.receive(&flipped, t).unwrap_err();
    assert_eq!(e.code(), "decryption-failed", "{e}");

    // Encrypted to someone else.
    let other = pki.ticket().unwrap().certificate;
    let wrong = report_on(&pki, &cam, &mut r1, &other, t);
    let e = authority.receive(&wrong, t).unwrap_err();
    assert_eq!(e.code(), "not-for-this-recipient", "{e}");

    // Signed with a ticket not permitted for misbehaviour reporting (the sender has to be
    // told to sign outside its permissions to make one).
    let cam_only = pki
        .ticket_with(
            &[AppPermission::new(ItsAid::CAM, None)],
            t.saturating_sub(std::time::Duration::from_secs(60)),
            std::time::Duration::from_secs(86_400),
            None,
        )
        .unwrap();
    let mut rogue = pki.sender(cam_only);
    rogue.encap_policy_mut().insecure_sign_outside_permissions = true;
    let e = authority
        .receive(&report_on(&pki, &cam, &mut rogue, &ma_cert, t), t)
        .unwrap_err();
    assert_eq!(e.code(), "psid-not-permitted", "{e}");

    // Evidence that is not what the station signed.
    let mut forged = cam.clone();
    let n = forged.len();
    forged[n - 5] ^= 0x40;
    let mbr = cam_report(&[CheckId::PositionConsistency], vec![forged], t.0, location()).unwrap();
    let e = authority
        .receive(&secure(&mut r1, &mbr, &ma_cert, t).unwrap(), t)
        .unwrap_err();
    assert_eq!(e.code(), "invalid-evidence", "{e}");

    // Two distinct reporters: revoked; the CRL makes every receiver drop the attacker.
    let mut receiver = pki.receiver();
    assert!(receiver.decap_at(&cam, t).is_ok());
    let d1 = authority
        .receive(&report_on(&pki, &cam, &mut r1, &ma_cert, t), t)
        .unwrap();
    assert!(matches!(d1, Decision::Recorded { reporters: 1, .. }), "{d1:?}");
    let d2 = authority
        .receive(&report_on(&pki, &cam, &mut r2, &ma_cert, t), t)
        .unwrap();
    let Decision::Revoked { crl, subject } = d2 else {
        panic!("{d2:?}")
    };
    assert_eq!(subject, attacker.signing_certificate().unwrap().hashed_id8());
    // The receiver that heard the attacker (and learnt its certificate) applies the CRL.
    receiver.trust_store_mut().apply_crl(&crl).unwrap();
    let next = attacker
        .encap(&EncapRequest::cam(b"ghost again").at(t.saturating_add(std::time::Duration::from_millis(100))))
        .unwrap_or_else(|e| panic!("{e}"));
    let e = receiver
        .decap_at(&next.bytes, t.saturating_add(std::time::Duration::from_millis(100)))
        .unwrap_err();
    assert_eq!(e.reason.code(), "revoked-certificate");
}

/// Most CAMs are signed with the digest of the sender's certificate: the evidence verifies
/// only with the certificate the report carries (`V2xPduStream.certificate`), validated up
/// to the root; a certificate the PKI did not issue is refused.
#[test]
fn digest_signed_evidence_verifies_with_the_certificate_in_the_report() {
    use v2x_mbd::report::cam_report_with_certificate;
    let pki = pki();
    let ma = pki.ticket().unwrap();
    let ma_cert = ma.certificate.clone();
    let mut authority = Authority::new(&pki, ma, 1).unwrap();
    let t = v2x_security::memory_pki::default_now();
    let mut attacker = pki.sender(pki.ticket().unwrap());
    let first = attacker.encap(&EncapRequest::cam(b"first").at(t)).unwrap();
    let later = t.saturating_add(std::time::Duration::from_millis(100));
    let digest = attacker.encap(&EncapRequest::cam(b"ghost").at(later)).unwrap();
    assert!(first.signer_was_certificate && !digest.signer_was_certificate);
    let cert = attacker.signing_certificate().unwrap().clone();
    let mut reporter = pki.sender(pki.ticket().unwrap());

    let bare = cam_report(
        &[CheckId::PositionConsistency],
        vec![digest.bytes.clone()],
        later.0,
        location(),
    )
    .unwrap();
    let e = authority
        .receive(&secure(&mut reporter, &bare, &ma_cert, later).unwrap(), later)
        .unwrap_err();
    assert_eq!(e.code(), "invalid-evidence", "no certificate: {e}");

    let foreign = InMemoryPki::builder().build().unwrap().ticket().unwrap().certificate;
    let with_foreign = cam_report_with_certificate(
        &[CheckId::PositionConsistency],
        vec![digest.bytes.clone()],
        Some(&foreign),
        later.0,
        location(),
    )
    .unwrap();
    let e = authority
        .receive(&secure(&mut reporter, &with_foreign, &ma_cert, later).unwrap(), later)
        .unwrap_err();
    assert_eq!(e.code(), "invalid-evidence", "a foreign certificate: {e}");

    let with = cam_report_with_certificate(
        &[CheckId::PositionConsistency],
        vec![digest.bytes],
        Some(&cert),
        later.0,
        location(),
    )
    .unwrap();
    let d = authority
        .receive(&secure(&mut reporter, &with, &ma_cert, later).unwrap(), later)
        .unwrap();
    assert!(matches!(d, Decision::Revoked { .. }), "{d:?}");
}
