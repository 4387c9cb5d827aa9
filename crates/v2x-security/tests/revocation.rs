//! Issue 11, defect 6: revocation fails closed. A missing CRL, an older validly signed CRL and
//! an outdated CRL or trust list are refused (or rejected with `revocation-status-unknown`)
//! unless a named insecure option says otherwise; ETSI TS 102 941 CRLs and root-CA CTLs load,
//! including encodings from an independent implementation.

use std::time::Duration;
use v2x_security::crl::{etsi::issue_etsi_crl, verify_crl, CrlError};
use v2x_security::trust_list::{issue_rca_ctl, RcaCtlContent, TrustListError};
use v2x_security::*;

const DAY: Duration = Duration::from_secs(86_400);

fn pki() -> InMemoryPki {
    InMemoryPki::builder().build().unwrap()
}

fn reason(r: Result<Decapped, Rejection>) -> RejectReason {
    match r {
        Ok(d) => panic!("accepted: {d:?}"),
        Err(e) => e.reason,
    }
}

#[test]
fn a_pki_directory_without_its_crl_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut pki = Pki::init(dir.path(), PkiConfig::default(), "car").unwrap();
    let mut sender = pki.entity("car").unwrap();
    let ticket = sender.signing_certificate().unwrap().clone();
    pki.revoke(&ticket).unwrap();
    std::fs::remove_file(dir.path().join("crl.oer")).unwrap();
    assert!(matches!(load_trust_dir(dir.path()), Err(PkiError::MissingCrl { .. })));
    assert!(
        matches!(pki.revoke(&ticket), Err(PkiError::MissingCrl { .. })),
        "nothing to add to"
    );
    // The named lab override loads it, and says so.
    let options = TrustOptions {
        insecure_allow_missing_crl: true,
        ..TrustOptions::default()
    };
    let loaded = load_trust_dir_with(dir.path(), &options).unwrap();
    assert!(matches!(loaded.warnings.as_slice(), [TrustWarning::MissingCrl { .. }]));
    // Which is what "insecure" means: without the CRL the revoked ticket is accepted.
    let m = sender.encap(&EncapRequest::new(ProfileKind::Generic, b"x")).unwrap();
    assert!(SecurityEntity::new(loaded.store).decap(&m.bytes).is_ok());
}

#[test]
fn an_older_crl_in_a_pki_directory_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut pki = Pki::init(dir.path(), PkiConfig::default(), "car").unwrap();
    let old = std::fs::read(dir.path().join("crl.oer")).unwrap();
    let ticket = pki.tickets("car").unwrap()[0].certificate.clone();
    assert_eq!(pki.revoke(&ticket).unwrap(), 2);
    std::fs::write(dir.path().join("crl.oer"), old).unwrap();
    match load_trust_dir(dir.path()) {
        Err(PkiError::CrlRollback { found, expected, .. }) => assert_eq!((found, expected), (1, 2)),
        other => panic!("{other:?}"),
    }
}

#[test]
fn an_older_crl_than_the_one_held_is_refused() {
    let fx = pki();
    let t = fx.ticket().unwrap();
    let newer = fx.crl(&[&t.certificate], 2).unwrap();
    let older = fx.crl(&[], 1).unwrap();
    let mut store = fx.store();
    assert_eq!(store.apply_crl(&newer).unwrap(), 1);
    assert!(matches!(store.apply_crl(&older), Err(CrlError::Older(_))));
    assert!(store.is_revoked(&t.certificate), "the revocation stays");
    // The same CRL again, or a newer one, is fine.
    store.apply_crl(&newer).unwrap();
    store.apply_crl(&fx.crl(&[], 3).unwrap()).unwrap();
    assert!(!store.is_revoked(&t.certificate), "a newer full CRL replaces the older");
}

#[test]
fn an_outdated_crl_makes_the_revocation_status_unknown() {
    let fx = pki();
    let t = fx.ticket().unwrap();
    let revoked = fx.ticket().unwrap();
    let crl = fx.crl(&[&revoked.certificate], 1).unwrap(); // current for a day
    let mut s = fx.sender(t);
    let later = fx.now.saturating_add(2 * DAY);
    let m = s.encap(&EncapRequest::cam(b"cam").at(later)).unwrap().bytes;
    let mut r = fx.receiver();
    r.trust_store_mut().apply_crl(&crl).unwrap();
    assert!(
        fx.receiver().decap_at(&m, later).is_ok(),
        "no CRL expected: nothing to go stale"
    );
    let e = r.decap_at(&m, later).unwrap_err();
    assert_eq!(e.reason, RejectReason::RevocationStatusUnknown, "{}", e.detail);
    // Within nextUpdate it is current.
    let early = fx.now.saturating_add(Duration::from_secs(3600));
    let m2 = s.encap(&EncapRequest::cam(b"cam").at(early)).unwrap().bytes;
    assert!(r.decap_at(&m2, early).is_ok());
    // The named lab override accepts the chain; the outdated CRL's entries still apply.
    r.policy_mut().revocation.insecure_accept_stale_crl = true;
    assert!(r.decap_at(&m, later).is_ok());
    let mut rs = fx.sender(revoked);
    rs.encap_policy_mut().insecure_sign_with_invalid_certificate = true;
    let mr = rs.encap(&EncapRequest::cam(b"cam").at(later)).unwrap().bytes;
    assert_eq!(reason(r.decap_at(&mr, later)), RejectReason::RevokedCertificate);
}

#[test]
fn an_expected_crl_that_is_missing_rejects_the_chain() {
    let fx = pki();
    let mut s = fx.sender(fx.ticket().unwrap());
    let m = s.encap(&EncapRequest::cam(b"cam").at(fx.now)).unwrap().bytes;
    let mut r = fx.receiver();
    r.trust_store_mut().expect_crl_from(&fx.root.certificate);
    assert_eq!(reason(r.decap_at(&m, fx.now)), RejectReason::RevocationStatusUnknown);
    r.trust_store_mut().apply_crl(&fx.crl(&[], 1).unwrap()).unwrap();
    assert!(r.decap_at(&m, fx.now).is_ok());
}

#[test]
fn an_outdated_trust_list_is_refused_unless_the_insecure_option() {
    let tlm = Certificate::from_bytes(include_bytes!("../../../vectors/eu-tlm-E7A4B2B045E7ACF9.oer")).unwrap();
    let ectl = include_bytes!("../../../vectors/eu-ectl-CE4CF6C19BFED720.oer");
    let next_update = 679_788_003;
    let after = TaiTime::from_time32(next_update + 1);
    let mut store = TrustStore::new();
    match store.load_ectl(ectl, &tlm, after, TrustListPolicy::default()) {
        Err(TrustListError::Expired { next_update: n, .. }) => assert_eq!(n, next_update),
        other => panic!("{other:?}"),
    }
    assert_eq!(store.anchors().count(), 0, "nothing loaded");
    let insecure = TrustListPolicy {
        insecure_accept_expired: true,
    };
    let loaded = store.load_ectl(ectl, &tlm, after, insecure).unwrap();
    assert!(loaded.loaded > 0);
    assert!(matches!(
        loaded.warnings.as_slice(),
        [TrustWarning::ExpiredTrustList { .. }]
    ));
}

/// A second real ECTL, from another PKI (the Australian C-ITS development PKI of ISS:
/// two root CAs, TLM "ACTL"): decodes, its signature verifies with its TLM, roots load.
#[test]
fn another_real_ectl_verifies_and_loads() {
    let tlm = Certificate::from_bytes(include_bytes!("../../../vectors/au-iss-tlm.oer")).unwrap();
    assert!(tlm.is_self_signed() && tlm.verify_signature(None));
    let list = include_bytes!("../../../vectors/au-iss-actl.oer");
    let v = v2x_security::trust_list::verify_trust_list(list, &tlm).unwrap();
    assert_eq!(v.root_cas.len(), 2);
    let at = TaiTime::from_time32(v.list.next_update.0 - 1);
    let mut store = TrustStore::new();
    let loaded = store.load_ectl(list, &tlm, at, TrustListPolicy::default()).unwrap();
    assert_eq!(loaded.loaded, 2);
    let mut bad = list.to_vec();
    bad[60] ^= 1;
    assert!(TrustStore::new()
        .load_ectl(&bad, &tlm, at, TrustListPolicy::default())
        .is_err());
}

#[test]
fn an_etsi_ts_102_941_crl_revokes_a_ca() {
    let fx = pki();
    let mut s = fx.sender(fx.ticket().unwrap());
    let m = s.encap(&EncapRequest::cam(b"cam").at(fx.now)).unwrap().bytes;
    let crl = issue_etsi_crl(
        &[fx.aa.certificate.hashed_id8()],
        fx.now,
        fx.now.saturating_add(DAY),
        &fx.root.certificate,
        &fx.root.key,
    )
    .unwrap();
    let verified = verify_crl(&crl, &fx.store()).unwrap();
    assert_eq!(verified.format, v2x_security::revocation::CrlFormat::EtsiTs102941);
    let mut r = fx.receiver();
    assert_eq!(r.trust_store_mut().apply_crl(&crl).unwrap(), 1);
    assert_eq!(reason(r.decap_at(&m, fx.now)), RejectReason::RevokedCertificate);
    // An older ETSI CRL (earlier thisUpdate) is refused.
    let older = issue_etsi_crl(
        &[],
        fx.now.saturating_sub(DAY),
        fx.now,
        &fx.root.certificate,
        &fx.root.key,
    )
    .unwrap();
    assert!(matches!(r.trust_store_mut().apply_crl(&older), Err(CrlError::Older(_))));
}

#[test]
fn a_root_ca_ctl_adds_and_deletes_authorities() {
    let fx = pki();
    let aa2 = fx
        .issue_ca("second AA", IssuePermissions::Psids(vec![ItsAid::CAM]))
        .unwrap();
    let mut spec = TicketSpec::new(&[ItsAid::CAM], Duration::from_secs(600));
    spec.start = Some(fx.now.saturating_sub(Duration::from_secs(30)));
    let t = fx.issue_ticket_from(&aa2, &spec).unwrap();
    let mut s = SecurityEntity::with_credentials(fx.store(), t, vec![aa2.certificate.clone()]);
    // Digest-only from the second message on: send certificates every time for this test.
    s.encap_profile_mut(ProfileKind::Cam).signer = SignerPolicy::Certificate;
    let m = s.encap(&EncapRequest::cam(b"cam").at(fx.now)).unwrap().bytes;
    assert_eq!(
        reason(fx.receiver().decap_at(&m, fx.now)),
        RejectReason::IssuerCertificateNotFound
    );

    let next = fx.now.saturating_add(DAY);
    let add = issue_rca_ctl(
        &RcaCtlContent {
            add_aas: vec![(&aa2.certificate, "http://aa2.example/")],
            is_full: true,
            sequence: 1,
            ..RcaCtlContent::default()
        },
        next,
        &fx.root.certificate,
        &fx.root.key,
    )
    .unwrap();
    let mut r = fx.receiver();
    let loaded = r
        .trust_store_mut()
        .load_rca_ctl(&add, fx.now, TrustListPolicy::default())
        .unwrap();
    assert_eq!(loaded.loaded, 1);
    assert!(r.decap_at(&m, fx.now).is_ok());

    let delete = issue_rca_ctl(
        &RcaCtlContent {
            delete: vec![aa2.certificate.hashed_id8()],
            sequence: 2,
            ..RcaCtlContent::default()
        },
        next,
        &fx.root.certificate,
        &fx.root.key,
    )
    .unwrap();
    let mut r2 = fx.receiver();
    r2.trust_store_mut()
        .load_rca_ctl(&add, fx.now, TrustListPolicy::default())
        .unwrap();
    r2.trust_store_mut()
        .load_rca_ctl(&delete, fx.now, TrustListPolicy::default())
        .unwrap();
    assert_eq!(reason(r2.decap_at(&m, fx.now)), RejectReason::IssuerCertificateNotFound);
    // Rolling back to the list with sequence 1 is refused; an outdated list too.
    assert!(matches!(
        r2.trust_store_mut()
            .load_rca_ctl(&add, fx.now, TrustListPolicy::default()),
        Err(TrustListError::Older { .. })
    ));
    assert!(matches!(
        fx.store()
            .load_rca_ctl(&add, next.saturating_add(DAY), TrustListPolicy::default()),
        Err(TrustListError::Expired { .. })
    ));
    // A CTL signed by a CA that is no anchor is refused.
    let forged = issue_rca_ctl(
        &RcaCtlContent {
            add_aas: vec![(&aa2.certificate, "http://x/")],
            ..RcaCtlContent::default()
        },
        next,
        &aa2.certificate,
        &aa2.key,
    )
    .unwrap();
    assert!(fx
        .store()
        .load_rca_ctl(&forged, fx.now, TrustListPolicy::default())
        .is_err());
}

/// Encodings from an independent implementation (c2c-common): the CRL and the root-CA CTL
/// decode, their signatures verify with the root they carry, our encoder writes the same
/// CRL body, and loading refuses them with a named reason: they are signed with PSID 623
/// (the certificate-request service), not 622 / 624, which their root is not permitted.
#[test]
fn ts_102_941_crl_and_ctl_of_another_implementation() {
    use v2x_wire::ieee1609dot2 as wire;
    let crl = include_bytes!("../../../vectors/c2c-common-ts102941-crl.oer");
    let (data, spans) = wire::parse_data(crl).unwrap();
    let spans = spans.unwrap();
    let signed = wire::signed_data(&data).unwrap();
    let root = std::sync::Arc::new(Certificate::from_bytes(&crl[spans.signer_certificates[0].clone()]).unwrap());
    assert!(root.verify_signature(None));
    v2x_security::signed::verify_signed_data(crl, signed, &spans, &root).unwrap();
    let payload = wire::signed_unsecured_payload(signed).unwrap();
    let body = v2x_security::crl::etsi::decode_body(payload).unwrap();
    assert_eq!((body.issued, body.next_update), (479_913_257, 479_999_657));
    let ids = |hex: &[&str]| -> Vec<v2x_crypto::HashedId8> {
        hex.iter()
            .map(|h| v2x_crypto::HashedId8(hex::decode(h).unwrap().try_into().unwrap()))
            .collect()
    };
    assert_eq!(
        body.entries,
        v2x_security::revocation::CrlEntries::HashedId8(ids(&["1122334455667788", "1122334455667799"]))
    );
    // Our encoder: the same body, with version in the one-octet form of TS 102 941 v1.3.1+.
    let ours = wire::encode(&v2x_wire::trust_list::EtsiTs102941Data {
        version: 1,
        content: v2x_wire::trust_list::EtsiTs102941DataContent::CertificateRevocationList(
            v2x_wire::trust_list::ToBeSignedCrl::new(
                wire::Time32(479_913_257),
                wire::Time32(479_999_657),
                ids(&["1122334455667788", "1122334455667799"])
                    .into_iter()
                    .map(v2x_security::convert::hashed_id8_to_wire)
                    .collect(),
            ),
        ),
    })
    .unwrap();
    assert_eq!(ours[..], [&payload[..1], &payload[2..]].concat()[..]);
    let mut store = TrustStore::new();
    store.add_trust_anchor(root.clone()).unwrap();
    match store.apply_crl(crl) {
        Err(CrlError::Psid(p)) => assert_eq!(p, ItsAid::CERT_REQUEST),
        other => panic!("{other:?}"),
    }

    let ctl = include_bytes!("../../../vectors/c2c-common-ts102941-rca-ctl.oer");
    let parsed = v2x_wire::trust_list::parse_trust_list(ctl).unwrap();
    assert_eq!(parsed.list.issuer, v2x_wire::trust_list::TrustListIssuer::RootCa);
    assert_eq!(
        (parsed.list.next_update.0, parsed.list.is_full, parsed.list.sequence),
        (479_999_657, true, 12)
    );
    assert_eq!(parsed.list.entries.len(), 1);
    let signed = wire::signed_data(&parsed.outer).unwrap();
    let root = Certificate::from_bytes(&ctl[parsed.spans.signer_certificates[0].clone()]).unwrap();
    v2x_security::signed::verify_signed_data(ctl, signed, &parsed.spans, &root).unwrap();
    let mut store = TrustStore::new();
    store.add_trust_anchor(std::sync::Arc::new(root)).unwrap();
    let at = TaiTime::from_time32(479_913_257);
    match store.load_rca_ctl(ctl, at, TrustListPolicy::default()) {
        Err(TrustListError::Psid(p)) => assert_eq!(p, ItsAid::CERT_REQUEST),
        other => panic!("{other:?}"),
    }
}
