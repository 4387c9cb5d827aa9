//! Issue 27, item 7 (the smaller findings of the third audit), each failing on 726a8c9.

use std::time::Duration;
use v2x_security::*;

/// A digest-signed CAM whose hashId says SHA-384 while its digest is the HashedId8 of the
/// (P-256, SHA-256) signer the receiver knows: 726a8c9 resolved the signer (and failed on the
/// signature); the digest names no certificate under SHA-384.
#[test]
fn a_sha384_digest_does_not_resolve_a_p256_signer() {
    let fx = InMemoryPki::builder().build().unwrap();
    let mut s = fx.sender(fx.ticket().unwrap());
    let mut r = fx.receiver();
    let first = s.encap(&EncapRequest::cam(b"a").at(fx.now)).unwrap();
    assert!(first.signer_was_certificate);
    r.decap_at(&first.bytes, fx.now).unwrap();
    let t = fx.now.saturating_add(Duration::from_millis(100));
    let digest = s.encap(&EncapRequest::cam(b"b").at(t)).unwrap();
    assert!(!digest.signer_was_certificate);
    let mut forged = digest.bytes.clone();
    // Ieee1609Dot2Data: protocolVersion, content tag signedData, then SignedData.hashId.
    assert_eq!(&forged[..3], &[0x03, 0x81, 0x00]);
    forged[2] = 0x01; // sha384
    let e = r.decap_at(&forged, t).unwrap_err();
    assert_eq!(e.reason.code(), "signer-certificate-not-found", "{e}");
    // The genuine message still verifies.
    r.decap_at(&digest.bytes, t).unwrap();
}

mod pki_directory {
    use v2x_security::pki_check::{check_pki_dir, Problem};
    use v2x_security::*;

    fn pki(dir: &std::path::Path) -> Pki {
        Pki::init(dir, PkiConfig::default(), "car").unwrap()
    }

    fn problems(dir: &std::path::Path) -> Vec<Problem> {
        check_pki_dir(dir, TaiTime::now())
            .unwrap()
            .findings
            .into_iter()
            .map(|f| f.problem)
            .collect()
    }

    #[test]
    fn check_reports_a_curve_pki_toml_does_not_name() {
        let tmp = tempfile::tempdir().unwrap();
        pki(tmp.path());
        assert!(problems(tmp.path()).is_empty());
        let toml = tmp.path().join("pki.toml");
        let text = std::fs::read_to_string(&toml).unwrap();
        assert!(text.contains("\"p256\""), "{text}");
        std::fs::write(&toml, text.replace("\"p256\"", "\"p384\"")).unwrap();
        let found = problems(tmp.path());
        assert!(
            found.iter().any(|p| matches!(p, Problem::CurveMismatch { .. })),
            "{found:?}"
        );
    }

    #[test]
    fn check_reports_a_tickets_file_and_a_garbage_active_pseudonym() {
        let tmp = tempfile::tempdir().unwrap();
        pki(tmp.path());
        let station = tmp.path().join("stations/car");
        std::fs::write(station.join("active-pseudonym"), b"garbage\xff").unwrap();
        let found = problems(tmp.path());
        assert!(
            found.iter().any(|p| matches!(p, Problem::BadActivePseudonym { .. })),
            "{found:?}"
        );
        std::fs::remove_dir_all(station.join("tickets")).unwrap();
        std::fs::write(station.join("tickets"), b"not a directory").unwrap();
        let found = problems(tmp.path());
        assert!(found.iter().any(|p| matches!(p, Problem::NotADirectory)), "{found:?}");
    }

    #[test]
    fn issue_refuses_an_aa_that_no_longer_chains_to_the_root() {
        let tmp = tempfile::tempdir().unwrap();
        let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
        pki(&a);
        pki(&b);
        // Another PKI's root in place of this one's: the AA no longer chains to it.
        for f in ["cert.oer", "key.pem"] {
            std::fs::copy(b.join("root").join(f), a.join("root").join(f)).unwrap();
        }
        let e = Pki::open(&a)
            .unwrap()
            .issue_tickets(
                "car",
                1,
                &TicketSpec::new(&[ItsAid::CAM], std::time::Duration::from_secs(3600)),
            )
            .unwrap_err();
        assert!(e.to_string().contains("does not chain to the root"), "{e}");
    }
}
