//! The PKI directory: init, open, tickets, key permissions, CRL, trust directory.

use std::os::unix::fs::PermissionsExt;
use std::time::Duration;
use v2x_security::*;

#[test]
fn init_open_issue_revoke() {
    let dir = tempfile::tempdir().unwrap();
    let pki = Pki::init(dir.path(), PkiConfig::default(), "car-1").unwrap();
    for f in [
        "root/key.pem",
        "ea/key.pem",
        "aa/key.pem",
        "stations/car-1/ec.pem",
        "stations/car-1/tickets/at-0000.pem",
    ] {
        let mode = std::fs::metadata(dir.path().join(f)).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "{f}");
    }
    assert!(
        Pki::init(dir.path(), PkiConfig::default(), "car-1").is_err(),
        "no silent overwrite"
    );
    let mut pki2 = Pki::open(dir.path()).unwrap();
    assert_eq!(pki2.root().certificate.encoded(), pki.root().certificate.encoded());
    let spec = TicketSpec::new(&[ItsAid::CAM, ItsAid::DENM], Duration::from_secs(3600));
    let new = pki2.issue_tickets("car-1", 3, &spec).unwrap();
    assert_eq!(new.len(), 3);
    assert_eq!(pki2.tickets("car-1").unwrap().len(), 4);
    assert!(dir.path().join("stations/car-1/tickets/at-0003.oer").exists());

    let mut sender = pki2.entity("car-1").unwrap();
    let mut receiver = SecurityEntity::new(load_trust_dir(dir.path()).unwrap());
    let m = sender.encap(&EncapRequest::cam(b"hello")).unwrap();
    assert_eq!(receiver.decap(&m.bytes).unwrap().payload, b"hello");

    // Revoke the active ticket: a fresh receiver loading the PKI sees the CRL.
    let revoked = sender.signing_certificate().unwrap().clone();
    pki2.revoke(&revoked).unwrap();
    let mut receiver = SecurityEntity::new(load_trust_dir(dir.path()).unwrap());
    let m = sender
        .encap(&EncapRequest::new(ProfileKind::Generic, b"again"))
        .unwrap();
    assert_eq!(
        receiver.decap(&m.bytes).unwrap_err().reason,
        RejectReason::RevokedCertificate
    );
    assert!(Pki::open(&dir.path().join("nope")).is_err());
    assert!(pki2.issue_tickets("../evil", 1, &spec).is_err());
}

#[test]
fn trust_dir_of_root_files_and_ectl() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("tlm.oer"),
        include_bytes!("vectors/eu-tlm-E7A4B2B045E7ACF9.oer"),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("ectl.oer"),
        include_bytes!("vectors/eu-ectl-CE4CF6C19BFED720.oer"),
    )
    .unwrap();
    // The ECTL is current until its nextUpdate; load it as of a day before.
    let next_update = 679_788_003;
    let options = TrustOptions {
        at: TaiTime::from_time32(next_update - 86_400),
        ..TrustOptions::default()
    };
    let loaded = load_trust_dir_with(dir.path(), &options).unwrap();
    assert!(loaded.store.anchors().count() >= 2, "TLM plus the ECTL's root CAs");
    assert!(loaded.warnings.is_empty());
    std::fs::write(dir.path().join("junk.oer"), b"junk").unwrap();
    assert!(matches!(
        load_trust_dir_with(dir.path(), &options),
        Err(PkiError::UnknownFile { .. })
    ));
}
