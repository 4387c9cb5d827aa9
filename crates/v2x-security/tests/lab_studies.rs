//! Issue 27, item 6: studying real captures. A test PKI whose root keeps the ASN.1 defaults
//! of its certIssuePermissions (minChainLength 1, chainLengthRange 0) — as Vanetza's
//! `NaiveCertificateProvider` builds its root (riebl/vanetza,
//! vanetza/security/v3/naive_certificate_provider.cpp) — is `inconsistent-chain` under
//! 1609.2 and can be studied with the named lab mode; signature-only mode learns the
//! certificates it verified signatures with; a missing AA is named
//! `issuer-certificate-not-found`, not `untrusted-root`. The last two failed on 726a8c9.

use std::sync::Arc;
use std::time::Duration;
use v2x_crypto::{Curve, PrivateKey};
use v2x_security::authority::{issue_sub_ca, issue_ticket, Authority};
use v2x_security::permissions::issuance::ChainLength;
use v2x_security::*;

const HOUR: Duration = Duration::from_secs(3600);

/// Root (defaults 1/0, every PSID), AA under it, and a CAM ticket: Vanetza's shape.
fn vanetza_shaped_chain(now: TaiTime) -> (Authority, Authority, Credentials) {
    let key = PrivateKey::generate(Curve::NistP256).unwrap();
    let start = now.saturating_sub(HOUR);
    let mut spec = CertificateSpec::new(Some("vanetza-shaped root"), start, 24 * HOUR);
    spec.issue_permissions = Some(IssuePermissions::Groups(vec![PsidGroup {
        subjects: None,
        min_chain_length: 1,
        chain_length_range: 0,
        app: true,
        enrol: false,
    }]));
    let root_cert = issue_certificate(&spec, key.public_key(), IssuerKey::SelfSigned(&key)).unwrap();
    let root = Authority {
        certificate: Arc::new(root_cert),
        key,
    };
    let aa = issue_sub_ca(
        &root,
        "vanetza-shaped AA",
        IssuePermissions::Psids(vec![ItsAid::CAM, ItsAid::DENM]),
        start,
        12 * HOUR,
        Curve::NistP256,
    )
    .unwrap();
    let t = issue_ticket(&aa, &TicketSpec::new(&[ItsAid::CAM], 2 * HOUR), start, Curve::NistP256).unwrap();
    (root, aa, t)
}

#[test]
fn the_vanetza_shaped_chain_is_inconsistent_unless_lenient_chain_length_is_named() {
    let now = TaiTime::now();
    let (root, aa, t) = vanetza_shaped_chain(now);
    let mut store = TrustStore::new();
    store.add_trust_anchor(root.certificate.clone()).unwrap();
    store.add_ca_certificate(aa.certificate.clone());
    let mut s = SecurityEntity::with_credentials(TrustStore::new(), t, vec![aa.certificate.clone()]);
    let m = s.encap(&EncapRequest::cam(b"lab").at(now)).unwrap().bytes;
    let mut strict = SecurityEntity::new(store.clone());
    let e = strict.decap_at(&m, now).unwrap_err();
    assert_eq!(e.reason, RejectReason::InconsistentChain, "{e}");
    let mut lab = SecurityEntity::new(store);
    lab.trust_store_mut().set_chain_length(ChainLength::InsecureLenient);
    lab.decap_at(&m, now).unwrap();
}

#[test]
fn signature_only_learns_the_certificates_it_verified() {
    let fx = InMemoryPki::builder().build().unwrap();
    let mut s = fx.sender(fx.ticket().unwrap());
    let with_cert = s.encap(&EncapRequest::cam(b"one").at(fx.now)).unwrap();
    let t = fx.now.saturating_add(Duration::from_millis(100));
    let digest = s.encap(&EncapRequest::cam(b"two").at(t)).unwrap();
    assert!(with_cert.signer_was_certificate && !digest.signer_was_certificate);
    let mut lab = SecurityEntity::new(TrustStore::new());
    lab.set_decap_mode(DecapMode::SignatureOnly);
    let first = lab.decap_at(&digest.bytes, t).unwrap_err();
    assert_eq!(first.reason.code(), "signer-certificate-not-found");
    lab.decap_at(&with_cert.bytes, fx.now).unwrap();
    // 726a8c9: signer-certificate-not-found again.
    assert_eq!(lab.decap_at(&digest.bytes, t).unwrap().payload, b"two");
    // A strict receiver learns nothing from it.
    let mut strict = fx.receiver();
    assert_eq!(
        strict.decap_at(&digest.bytes, t).unwrap_err().reason.code(),
        "signer-certificate-not-found"
    );
}

#[test]
fn a_missing_aa_is_named_issuer_certificate_not_found() {
    let fx = InMemoryPki::builder().build().unwrap();
    let mut r = fx.receiver();
    // The receiver holds the root only: the ticket's AA is the missing link.
    let mut store = TrustStore::new();
    store.add_trust_anchor(fx.root.certificate.clone()).unwrap();
    *r.trust_store_mut() = store;
    let mut s = fx.sender(fx.ticket().unwrap());
    let m = s.encap(&EncapRequest::cam(b"x").at(fx.now)).unwrap().bytes;
    let e = r.decap_at(&m, fx.now).unwrap_err();
    // 726a8c9: untrusted-root.
    assert_eq!(e.reason.code(), "issuer-certificate-not-found", "{e}");
}
