//! Issue 27, item 4: revocation for the v1.2.1 stack (726a8c9 had none: a v1.2.1 receiver
//! could not be told a ticket was revoked). The CRL is the TS 102 941 body signed in a v1.2.1
//! message by the root (`v1_2_1::crl`); these tests pin what a receiver does with it, and the
//! PKI directory that issues it.

use v2x_crypto::Curve;
use v2x_security::revocation::RevocationPolicy;
use v2x_security::time::TaiTime;
use v2x_security::v1_2_1::*;
use v2x_security::{Pki, PkiConfig, RejectReason};
use v2x_wire::v1_2_1::SecuredMessage;

/// 2023-01-05 in TAI seconds since 2004.
const START: u32 = 600_000_000;
const NOW: u32 = START + 3600;

fn at(t: u32) -> TaiTime {
    TaiTime::from_time32(t)
}

struct World {
    pki: V1Pki,
    sender: V1Entity,
    ticket: Credential,
}

fn world() -> World {
    let pki = V1Pki::generate(Curve::NistP256, START, 30).unwrap();
    let ticket = pki.ticket(Curve::NistP256, START, 7, None).unwrap();
    let sender = V1Entity::new(
        Some(ticket.clone()),
        vec![pki.aa.certificate.clone()],
        V1TrustStore::new(),
    );
    World { pki, sender, ticket }
}

/// A receiver trusting the root and AA of `pki`, expecting the root's CRL.
fn receiver(pki: &V1Pki) -> V1Entity {
    let mut s = V1TrustStore::new();
    let root = s.add_anchor(pki.root.certificate.clone());
    s.add_authority(pki.aa.certificate.clone());
    s.expect_crl_from(root);
    V1Entity::new(None, Vec::new(), s)
}

fn denm(w: &mut World, t: u32) -> Vec<u8> {
    let mut r = V1EncapRequest::new(V1Profile::Denm, b"denm", at(t));
    r.location = Some(v2x_wire::v1_2_1::ThreeDLocation {
        latitude: 481_000_000,
        longitude: 115_000_000,
        elevation: [0, 0],
    });
    w.sender.encap(&r).unwrap()
}

fn reason(r: Result<V1Accepted, v2x_security::Rejection>) -> RejectReason {
    r.expect_err("should be rejected").reason
}

#[test]
fn a_revoked_ticket_is_rejected_and_an_older_crl_cannot_undo_it() {
    let mut w = world();
    let mut rx = receiver(&w.pki);
    let empty = issue_v1_crl(&w.pki.root, &[], NOW - 60, NOW + 3600).unwrap();
    let revoking = issue_v1_crl(&w.pki.root, &[w.ticket.digest()], NOW - 30, NOW + 3600).unwrap();
    assert_eq!(rx.store.apply_crl(&empty).unwrap(), 0);
    rx.decap(&denm(&mut w, NOW), at(NOW)).unwrap();
    assert_eq!(rx.store.apply_crl(&revoking).unwrap(), 1);
    assert_eq!(
        reason(rx.decap(&denm(&mut w, NOW + 1), at(NOW + 1))),
        RejectReason::RevokedCertificate
    );
    // The older CRL is refused: it would un-revoke.
    assert!(matches!(rx.store.apply_crl(&empty), Err(V1CrlError::Older(_))));
    assert_eq!(
        reason(rx.decap(&denm(&mut w, NOW + 2), at(NOW + 2))),
        RejectReason::RevokedCertificate
    );
    // Revoking the AA revokes every ticket under it.
    let mut rx = receiver(&w.pki);
    let aa = issue_v1_crl(&w.pki.root, &[w.pki.aa.digest()], NOW - 30, NOW + 3600).unwrap();
    rx.store.apply_crl(&aa).unwrap();
    assert_eq!(
        reason(rx.decap(&denm(&mut w, NOW + 3), at(NOW + 3))),
        RejectReason::RevokedCertificate
    );
}

#[test]
fn a_missing_or_outdated_crl_fails_closed() {
    let mut w = world();
    let mut rx = receiver(&w.pki);
    let r = rx.decap(&denm(&mut w, NOW), at(NOW)).unwrap_err();
    assert_eq!(r.reason, RejectReason::RevocationStatusUnknown, "{r}");
    let crl = issue_v1_crl(&w.pki.root, &[], NOW - 60, NOW + 10).unwrap();
    rx.store.apply_crl(&crl).unwrap();
    rx.decap(&denm(&mut w, NOW + 5), at(NOW + 5)).unwrap();
    assert_eq!(
        reason(rx.decap(&denm(&mut w, NOW + 11), at(NOW + 11))),
        RejectReason::RevocationStatusUnknown
    );
    // The named lab option accepts the outdated CRL (its entries still apply).
    rx.store.set_revocation_policy(RevocationPolicy {
        insecure_accept_stale_crl: true,
        ..RevocationPolicy::default()
    });
    rx.decap(&denm(&mut w, NOW + 12), at(NOW + 12)).unwrap();
    // A receiver that expects no CRL (an in-memory store, as the protocol adapters build)
    // is unchanged.
    let mut s = V1TrustStore::new();
    s.add_anchor(w.pki.root.certificate.clone());
    s.add_authority(w.pki.aa.certificate.clone());
    V1Entity::new(None, Vec::new(), s)
        .decap(&denm(&mut w, NOW + 13), at(NOW + 13))
        .unwrap();
}

#[test]
fn only_a_trust_anchor_signs_a_crl_and_its_signature_is_checked() {
    let w = world();
    let mut rx = receiver(&w.pki);
    // Signed by the AA (not an anchor), or by a foreign root: refused.
    let by_aa = issue_v1_crl(&w.pki.aa, &[], NOW, NOW + 60).unwrap();
    assert!(matches!(rx.store.apply_crl(&by_aa), Err(V1CrlError::UnknownSigner(_))));
    let other = V1Pki::generate(Curve::NistP256, START, 30).unwrap();
    let foreign = issue_v1_crl(&other.root, &[], NOW, NOW + 60).unwrap();
    assert!(matches!(
        rx.store.apply_crl(&foreign),
        Err(V1CrlError::UnknownSigner(_))
    ));
    // A flipped bit anywhere in the signed part: refused, never installed.
    let good = issue_v1_crl(&w.pki.root, &[w.ticket.digest()], NOW, NOW + 60).unwrap();
    let mut bad = good.clone();
    let last_entry_byte = good.len() - 67;
    bad[last_entry_byte] ^= 1;
    assert!(rx.store.apply_crl(&bad).is_err());
    assert!(rx.store.revocation().crls().next().is_none());
    // It is a v1.2.1 message: ITS-AID 622, the root's digest as signer.
    let m = SecuredMessage::from_bytes(&good).unwrap();
    assert_eq!(m.its_aid(), Some(622));
    let v = verify_v1_crl(&good, &rx.store).unwrap();
    assert_eq!(v.issuer.0, w.pki.root.digest());
    assert_eq!((v.issued, v.next_update), (NOW, NOW + 60));
}

#[test]
fn the_pki_directory_issues_its_crl_and_refuses_to_lose_it() {
    let tmp = tempfile::tempdir().unwrap();
    let pki = Pki::init(&tmp.path().join("pki"), PkiConfig::default(), "car").unwrap();
    let v1 = V1PkiDir::beside(&pki).unwrap();
    let (revoked, first) = v1.read_crl().unwrap().expect("issued with the root");
    assert!(revoked.is_empty());
    let now = TaiTime::now().to_time32();
    let ticket = v1.ticket("car", now - 60, 7, now).unwrap();
    let rx = |v1: &V1PkiDir| v1.verifier().unwrap();
    let mut sender = v1.entity(ticket.clone()).unwrap();
    let m = sender
        .encap(&V1EncapRequest::new(V1Profile::Cam, b"cam", TaiTime::now()))
        .unwrap();
    rx(&v1).decap(&m, TaiTime::now()).unwrap();

    let lock = pki.lock().unwrap();
    let issued = v1.reissue_crl_beside(&pki, &lock, Some(ticket.digest())).unwrap();
    assert!(issued > first);
    drop(lock);
    // The same message (it carries the ticket) to a verifier opened after the revocation.
    assert_eq!(
        reason(rx(&v1).decap(&m, TaiTime::now())),
        RejectReason::RevokedCertificate
    );
    assert_eq!(Pki::open(pki.dir()).unwrap().config().last_v1_crl_issued, Some(issued));

    // Deleted: re-creating it would undo the revocation, so opening the directory fails.
    let crl = std::fs::read(v1.crl_path()).unwrap();
    std::fs::remove_file(v1.crl_path()).unwrap();
    let e = V1PkiDir::beside(&pki).unwrap_err();
    assert!(matches!(e, V1PkiError::MissingCrl { .. }), "{e}");
    assert!(matches!(
        load_v1_trust_dir(pki.dir(), false),
        Err(V1PkiError::MissingCrl { .. })
    ));
    // Restored to the older one: a rollback, refused by the issuer and by receivers.
    let older = issue_v1_crl(&v1.pki.root, &[], first, first + 60).unwrap();
    std::fs::write(v1.crl_path(), &older).unwrap();
    let e = V1PkiDir::beside(&pki).unwrap_err();
    assert!(matches!(e, V1PkiError::CrlRollback { .. }), "{e}");
    assert!(matches!(
        load_v1_trust_dir(pki.dir(), false),
        Err(V1PkiError::CrlRollback { .. })
    ));
    std::fs::write(v1.crl_path(), &crl).unwrap();
    V1PkiDir::beside(&pki).unwrap();
}

#[test]
fn a_directory_from_before_revocation_gets_an_empty_crl() {
    let tmp = tempfile::tempdir().unwrap();
    let pki = Pki::init(&tmp.path().join("pki"), PkiConfig::default(), "car").unwrap();
    let v1 = V1PkiDir::beside(&pki).unwrap();
    // As 726a8c9 left it: no CRL, nothing recorded in pki.toml.
    std::fs::remove_file(v1.crl_path()).unwrap();
    let toml = std::fs::read_to_string(pki.dir().join("pki.toml")).unwrap();
    let old: String = toml
        .lines()
        .filter(|l| !l.starts_with("last_v1_crl_issued"))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(pki.dir().join("pki.toml"), old).unwrap();
    // A receiver refuses it, naming how to issue the CRL; the issuer's next use issues one.
    let e = load_v1_trust_dir(pki.dir(), false).unwrap_err();
    assert!(matches!(e, V1PkiError::CrlNotIssued { .. }), "{e}");
    assert!(e.to_string().contains("pki refresh-crl"), "{e}");
    let v1 = V1PkiDir::beside(&pki).unwrap();
    assert_eq!(v1.read_crl().unwrap().map(|(r, _)| r.len()), Some(0));
    load_v1_trust_dir(pki.dir(), false).unwrap();
}

#[test]
fn signature_only_learns_the_certificates_it_verified() {
    let mut w = world();
    let mut lab = V1Entity::new(None, Vec::new(), V1TrustStore::new());
    let first = w
        .sender
        .encap(&V1EncapRequest::new(V1Profile::Cam, b"one", at(NOW)))
        .unwrap();
    let second = w
        .sender
        .encap(&V1EncapRequest::new(V1Profile::Cam, b"two", at(NOW)))
        .unwrap();
    // The second CAM names its signer by digest only.
    assert!(matches!(
        SecuredMessage::from_bytes(&second).unwrap().signer_info(),
        Some(v2x_wire::v1_2_1::SignerInfo::CertificateDigestWithSha256(_))
    ));
    assert_eq!(
        lab.decap_signature_only(&second).unwrap_err().reason,
        RejectReason::SignerCertificateNotFound
    );
    lab.decap_signature_only(&first).unwrap();
    assert_eq!(lab.decap_signature_only(&second).unwrap().payload, b"two");
    assert_eq!(lab.signature_only_certificates().count(), 1);
    // A strict receiver learnt nothing from it.
    assert!(lab.store.ticket(&w.ticket.digest()).is_none());
}

mod mutated_crls {
    //! The v1.2.1 CRL decoder and verifier on hostile input: a typed error, never a panic,
    //! and no mutated CRL installed (each one would change what is revoked, or when).

    use super::*;
    use proptest::prelude::*;
    use std::sync::OnceLock;

    fn sample() -> &'static (V1Pki, Vec<u8>) {
        static S: OnceLock<(V1Pki, Vec<u8>)> = OnceLock::new();
        S.get_or_init(|| {
            let pki = V1Pki::generate(Curve::NistP256, START, 30).unwrap();
            let ticket = pki.ticket(Curve::NistP256, START, 7, None).unwrap();
            let crl = issue_v1_crl(&pki.root, &[ticket.digest(), pki.aa.digest()], NOW, NOW + 60).unwrap();
            (pki, crl)
        })
    }

    fn store(pki: &V1Pki) -> V1TrustStore {
        let mut s = V1TrustStore::new();
        s.add_anchor(pki.root.certificate.clone());
        s
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn a_mutated_crl_is_never_installed(at in any::<prop::sample::Index>(), flip in 1u8..=255) {
            let (pki, crl) = sample();
            let mut bad = crl.clone();
            bad[at.index(crl.len())] ^= flip;
            let mut s = store(pki);
            prop_assert!(s.apply_crl(&bad).is_err());
            prop_assert!(s.revocation().crls().next().is_none());
        }

        #[test]
        fn a_truncated_or_extended_crl_is_refused(cut in any::<prop::sample::Index>(), tail in prop::collection::vec(any::<u8>(), 1..8)) {
            let (pki, crl) = sample();
            let mut s = store(pki);
            prop_assert!(s.apply_crl(&crl[..cut.index(crl.len())]).is_err());
            let mut longer = crl.clone();
            longer.extend_from_slice(&tail);
            prop_assert!(s.apply_crl(&longer).is_err());
        }

        #[test]
        fn arbitrary_bytes_are_a_typed_error(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
            let (pki, _) = sample();
            prop_assert!(verify_v1_crl(&bytes, &store(pki)).is_err());
        }
    }

    /// Every single-byte change of the signature trailer (type bytes, R's form, r, s): the
    /// signature is not signed, so this is where an equivalent re-encoding would pass.
    #[test]
    fn no_change_of_the_signature_is_installed() {
        let (pki, crl) = sample();
        for at in crl.len() - 67..crl.len() {
            for flip in 1..=255u8 {
                let mut bad = crl.clone();
                bad[at] ^= flip;
                let mut s = store(pki);
                assert!(s.apply_crl(&bad).is_err(), "byte {at} ^ {flip:#04x} accepted");
            }
        }
    }

    #[test]
    fn the_genuine_crl_is_installed() {
        let (pki, crl) = sample();
        assert_eq!(store(pki).apply_crl(crl).unwrap(), 2);
    }
}
