//! The bytes the simulator adds for a P2PCD request (`P2PCD_REQUEST_BYTES`) are what the real
//! IEEE 1609.2 stack adds: two digest-signed CAMs of one sender, the second asking for one
//! unknown signer's certificate.

use std::time::Duration;
use v2x_security::{EncapRequest, InMemoryPki, RejectReason};
use v2x_sim::scenario::P2PCD_REQUEST_BYTES;
use v2x_sim::security::p2pcd::request_bytes;

#[test]
fn one_p2pcd_request_adds_what_the_simulator_counts() {
    let fx = InMemoryPki::builder().build().unwrap();
    let t = |n: u64| fx.now.saturating_add(Duration::from_millis(n));
    let mut a = fx.sender(fx.ticket().unwrap());
    let mut b = fx.sender(fx.ticket().unwrap());
    // B's first CAM carries its certificate; the second is digest-signed, without request.
    assert!(
        b.encap(&EncapRequest::cam(b"b0").at(t(0)))
            .unwrap()
            .signer_was_certificate
    );
    let plain = b.encap(&EncapRequest::cam(b"b1").at(t(100))).unwrap();
    assert!(!plain.signer_was_certificate);
    // A digest-signed CAM from A, whose certificate B lacks: B asks for it next.
    a.encap(&EncapRequest::cam(b"a0").at(t(100))).unwrap();
    let a1 = a.encap(&EncapRequest::cam(b"a1").at(t(200))).unwrap();
    assert_eq!(
        b.decap_at(&a1.bytes, t(200)).unwrap_err().reason,
        RejectReason::SignerCertificateNotFound
    );
    assert_eq!(b.pending_p2pcd_requests().len(), 1);
    let asking = b.encap(&EncapRequest::cam(b"b2").at(t(300))).unwrap();
    assert!(!asking.signer_was_certificate);
    assert_eq!(asking.bytes.len() - plain.bytes.len(), P2PCD_REQUEST_BYTES as usize);
    assert_eq!(request_bytes(1), P2PCD_REQUEST_BYTES);

    // Two unknown signers: one CAM asks for both, 3 bytes more per further HashedId3.
    let mut c = fx.sender(fx.ticket().unwrap());
    let mut d = fx.sender(fx.ticket().unwrap());
    for (k, e) in [&mut c, &mut d].into_iter().enumerate() {
        e.encap(&EncapRequest::cam(b"x0").at(t(400))).unwrap();
        let digest = e.encap(&EncapRequest::cam(b"x1").at(t(500 + k as u64))).unwrap();
        assert!(b.decap_at(&digest.bytes, t(500 + k as u64)).is_err());
    }
    assert_eq!(b.pending_p2pcd_requests().len(), 2);
    let asking2 = b.encap(&EncapRequest::cam(b"b3").at(t(600))).unwrap();
    assert!(!asking2.signer_was_certificate);
    assert_eq!(asking2.bytes.len() - plain.bytes.len(), request_bytes(2) as usize);
}
