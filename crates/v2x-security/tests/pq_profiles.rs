//! The experimental post-quantum designs through SN-ENCAP / SN-DECAP: accepted when intact,
//! every rejection with its step and reason, composites checked part by part, downgrades
//! refused by name, and never mistaken for standard 1609.2.

use std::time::Duration;
use v2x_crypto::pq::{PqAlgorithm, SignatureScheme, SigningKey};
use v2x_crypto::Curve;
use v2x_security::entity::DecapStep;
use v2x_security::pq::{PqCert, PqCredential, PqDesign, PqPki};
use v2x_security::reason::RejectReason;
use v2x_security::time::TaiTime;
use v2x_wire::experimental_pq::{scheme_id, PqCertificate, PqSecuredMessage, PqSigner, Tagged};
use v2x_wire::ItsAid;

fn now() -> TaiTime {
    TaiTime::parse_rfc3339("2026-11-21T12:00:00Z").unwrap()
}

fn cam() -> Vec<u8> {
    let state = v2x_wire::facilities::VehicleState {
        station_id: 1,
        latitude: 481_370_000,
        longitude: 115_750_000,
        speed: 1000,
        heading: 900,
        altitude_cm: 50_000,
    };
    v2x_wire::facilities::encode_cam(&v2x_wire::facilities::passenger_car_cam(&state, 1, true)).unwrap()
}

fn expect(
    r: Result<v2x_security::pq::PqDecapped, v2x_security::pq::PqRejection>,
    step: DecapStep,
    reason: RejectReason,
) -> String {
    let e = r.expect_err("must be rejected");
    assert_eq!((e.step, e.rejection.reason), (step, reason), "{e}");
    e.rejection.detail
}

#[test]
fn every_design_round_trips_and_rejects_like_the_standard_stack() {
    for design in PqDesign::ALL {
        let pki = PqPki::new(design, now()).unwrap();
        let mut tx = pki.sender(pki.ticket().unwrap());
        let mut rx = pki.receiver();
        let payload = cam();
        // A digest before the certificate was heard: unknown signer.
        let digest_first = tx.encap(&payload, ItsAid::CAM, None, now(), false).unwrap();
        expect(
            rx.decap_at(&digest_first, now()),
            DecapStep::Signer,
            RejectReason::SignerCertificateNotFound,
        );
        let with_cert = tx.encap_cam(&payload, now()).unwrap();
        let ok = rx
            .decap_at(&with_cert, now())
            .unwrap_or_else(|e| panic!("{design}: {e}"));
        assert_eq!(ok.payload, payload);
        assert_eq!(ok.design, design);
        // Now the digest form verifies; a copy is a replay.
        let t1 = now().saturating_add(Duration::from_millis(100));
        let digest = tx.encap_cam(&payload, t1).unwrap();
        assert!(digest.len() < with_cert.len(), "{design}: digest form is shorter");
        rx.decap_at(&digest, t1).unwrap();
        expect(
            rx.decap_at(&digest, t1),
            DecapStep::ReplayLookup,
            RejectReason::DuplicateMessage,
        );
        // Stale.
        expect(
            rx.decap_at(&digest, t1.saturating_add(Duration::from_secs(3))),
            DecapStep::Freshness,
            RejectReason::StaleMessage,
        );
        // A changed payload byte: false signature.
        let t2 = now().saturating_add(Duration::from_millis(200));
        let mut m = PqSecuredMessage::decode(&tx.encap_cam(&payload, t2).unwrap()).unwrap();
        let last = m.tbs.len() - 12;
        m.tbs[last] ^= 1;
        expect(
            rx.decap_at(&m.encode().unwrap(), t2),
            DecapStep::MessageSignature,
            RejectReason::FalseSignature,
        );
        // Trailing bytes.
        let mut extra = digest.clone();
        extra.push(0);
        expect(
            rx.decap_at(&extra, t1),
            DecapStep::Decode,
            RejectReason::InvalidEncoding,
        );
        // Revocation of the ticket.
        rx.revoke(tx.ticket().cert.id());
        let t3 = now().saturating_add(Duration::from_millis(300));
        expect(
            rx.decap_at(&tx.encap(&payload, ItsAid::CAM, None, t3, true).unwrap(), t3),
            DecapStep::Revocation,
            RejectReason::RevokedCertificate,
        );
    }
}

#[test]
fn a_standard_receiver_refuses_the_experimental_format() {
    let pki = PqPki::new(PqDesign::Composite(PqAlgorithm::MlDsa44), now()).unwrap();
    let msg = pki.sender(pki.ticket().unwrap()).encap_cam(&cam(), now()).unwrap();
    let std_pki = v2x_security::InMemoryPki::builder().build().unwrap();
    let mut std_rx = std_pki.receiver();
    let r = std_rx.decap_at(&msg, now()).unwrap_err();
    assert!(
        matches!(
            r.reason,
            RejectReason::InvalidEncoding | RejectReason::IncompatibleProtocol
        ),
        "{r}"
    );
}

#[test]
fn a_standard_1609_2_message_at_a_post_quantum_receiver_is_a_downgrade() {
    let std_pki = v2x_security::InMemoryPki::builder().now(now()).build().unwrap();
    let mut std_tx = std_pki.sender(std_pki.ticket().unwrap());
    let payload = cam();
    let mut req = v2x_security::entity::EncapRequest::cam(&payload);
    req.time = Some(now());
    let classical = std_tx.encap(&req).unwrap().bytes;
    for design in PqDesign::ALL {
        let mut rx = PqPki::new(design, now()).unwrap().receiver();
        let detail = expect(
            rx.decap_at(&classical, now()),
            DecapStep::Content,
            RejectReason::DowngradeRefused,
        );
        assert!(detail.contains("standard IEEE 1609.2"), "{detail}");
    }
    // Bytes that are neither format stay an encoding failure.
    let mut rx = PqPki::new(PqDesign::PartiallyHybrid, now()).unwrap().receiver();
    expect(
        rx.decap_at(&[3, 0xff, 0x00], now()),
        DecapStep::Decode,
        RejectReason::InvalidEncoding,
    );
}

#[test]
fn composite_bit_flip_in_either_part_is_rejected_naming_the_part() {
    for alg in [PqAlgorithm::MlDsa44, PqAlgorithm::FnDsa512] {
        let pki = PqPki::new(PqDesign::Composite(alg), now()).unwrap();
        let mut tx = pki.sender(pki.ticket().unwrap());
        let mut rx = pki.receiver();
        let good = PqSecuredMessage::decode(&tx.encap_cam(&cam(), now()).unwrap()).unwrap();
        for (pos, part) in [(10, "ECDSA"), (64 + 100, "post-quantum")] {
            let mut m = good.clone();
            m.signature.bytes[pos] ^= 0x10;
            let detail = expect(
                rx.decap_at(&m.encode().unwrap(), now()),
                DecapStep::MessageSignature,
                RejectReason::FalseSignature,
            );
            assert!(detail.contains(part), "{alg:?}: {detail}");
        }
        rx.decap_at(&good.encode().unwrap(), now()).unwrap();
    }
}

#[test]
fn stripped_hybrid_and_classical_signers_are_refused_as_downgrades() {
    let design = PqDesign::Composite(PqAlgorithm::MlDsa44);
    let pki = PqPki::new(design, now()).unwrap();
    let mut tx = pki.sender(pki.ticket().unwrap());
    let good = PqSecuredMessage::decode(&tx.encap_cam(&cam(), now()).unwrap()).unwrap();

    // 1. The post-quantum part stripped, the rest relabelled as plain ECDSA.
    let mut m = good.clone();
    m.signature = Tagged {
        scheme: scheme_id::ECDSA_P256,
        bytes: good.signature.bytes[..64].to_vec(),
    };
    let detail = expect(
        pki.receiver().decap_at(&m.encode().unwrap(), now()),
        DecapStep::Content,
        RejectReason::DowngradeRefused,
    );
    assert!(detail.contains("ecdsa-p256"), "{detail}");
    // 2. Stripped but still labelled composite.
    let mut m = good.clone();
    m.signature.bytes.truncate(64);
    expect(
        pki.receiver().decap_at(&m.encode().unwrap(), now()),
        DecapStep::Content,
        RejectReason::DowngradeRefused,
    );
    // 3. A classical-only signer (an ECDSA ticket from the same AA) claiming the design.
    let classical = pki
        .ticket_with_key(SigningKey::generate(SignatureScheme::Ecdsa(Curve::NistP256)).unwrap())
        .unwrap();
    let mut m = PqSecuredMessage::decode(&tx.encap_cam(&cam(), now()).unwrap()).unwrap();
    m.signer = PqSigner::Certificate(classical.cert.bytes().to_vec());
    let detail = expect(
        pki.receiver().decap_at(&m.encode().unwrap(), now()),
        DecapStep::MessageSignature,
        RejectReason::DowngradeRefused,
    );
    assert!(detail.contains("signer key is ecdsa-p256"), "{detail}");
    // 4. A message of a weaker design to a receiver that requires this one.
    let ph = PqPki::new(PqDesign::PartiallyHybrid, now()).unwrap();
    let weaker = ph.sender(ph.ticket().unwrap()).encap_cam(&cam(), now()).unwrap();
    expect(
        pki.receiver().decap_at(&weaker, now()),
        DecapStep::Content,
        RejectReason::DowngradeRefused,
    );
}

/// Another design at a receiver: a downgrade exactly when its message signature lacks a part
/// the policy's has (post-quantum, or the classical part of a hybrid), incompatible otherwise
/// (pq-only ML-DSA-44 at a pq-only FN-DSA-512 receiver is foreign, not weaker).
#[test]
fn another_design_is_a_downgrade_only_when_it_lacks_a_part_of_the_policy() {
    let messages: Vec<(PqDesign, Vec<u8>)> = PqDesign::ALL
        .iter()
        .map(|&d| {
            let pki = PqPki::new(d, now()).unwrap();
            let m = pki.sender(pki.ticket().unwrap()).encap_cam(&cam(), now()).unwrap();
            (d, m)
        })
        .collect();
    let mut seen = (0, 0);
    for policy in PqDesign::ALL {
        let want = policy.message_scheme();
        let mut rx = PqPki::new(policy, now()).unwrap().receiver();
        for (d, m) in messages.iter().filter(|(d, _)| *d != policy) {
            let got = d.message_scheme();
            let weaker =
                want.is_post_quantum() && !got.is_post_quantum() || want.has_classical() && !got.has_classical();
            let reason = if weaker {
                seen.0 += 1;
                RejectReason::DowngradeRefused
            } else {
                seen.1 += 1;
                RejectReason::IncompatibleProtocol
            };
            let detail = expect(rx.decap_at(m, now()), DecapStep::Content, reason);
            assert!(detail.contains(&got.to_string()), "{policy} receiving {d}: {detail}");
        }
    }
    assert!(seen.0 > 0 && seen.1 > 0, "both verdicts occur: {seen:?}");
}

/// Partially Hybrid: the certificate's post-quantum signature is what a quantum attacker cannot
/// forge, so a certificate whose issuer signature lost its FN-DSA part is refused.
#[test]
fn partially_hybrid_refuses_a_certificate_without_its_post_quantum_signature() {
    let pki = PqPki::new(PqDesign::PartiallyHybrid, now()).unwrap();
    let ticket = pki.ticket().unwrap();
    assert_eq!(ticket.key.scheme(), SignatureScheme::Ecdsa(Curve::NistP256));
    assert_eq!(
        ticket.cert.signature_scheme(),
        SignatureScheme::Composite(PqAlgorithm::FnDsa512)
    );
    let (mut c, _) = PqCertificate::decode(ticket.cert.bytes()).unwrap();
    c.signature = Tagged {
        scheme: scheme_id::ECDSA_P256,
        bytes: c.signature.bytes[..64].to_vec(),
    };
    let stripped = PqCredential {
        cert: std::sync::Arc::new(PqCert::from_bytes(&c.encode().unwrap()).unwrap()),
        key: ticket.key.clone(),
    };
    let mut tx = pki.sender(stripped);
    let msg = tx.encap_cam(&cam(), now()).unwrap();
    let detail = expect(
        pki.receiver().decap_at(&msg, now()),
        DecapStep::Chain,
        RejectReason::DowngradeRefused,
    );
    assert!(detail.contains("ecdsa-p256+fn-dsa-512"), "{detail}");
    // The intact ticket is accepted.
    pki.receiver()
        .decap_at(&pki.sender(ticket).encap_cam(&cam(), now()).unwrap(), now())
        .unwrap();
}

#[test]
fn a_ticket_from_another_pki_is_untrusted() {
    let design = PqDesign::PqOnly(PqAlgorithm::FnDsa512);
    let (a, b) = (PqPki::new(design, now()).unwrap(), PqPki::new(design, now()).unwrap());
    let msg = b.sender(b.ticket().unwrap()).encap_cam(&cam(), now()).unwrap();
    expect(
        a.receiver().decap_at(&msg, now()),
        DecapStep::Chain,
        RejectReason::UntrustedRoot,
    );
}

#[test]
fn unknown_design_names_list_the_valid_ones() {
    let e = PqDesign::from_name("hybrid").unwrap_err();
    assert!(e.contains("experimental-partially-hybrid-ndss2024"), "{e}");
}

mod mutations {
    use super::*;
    use proptest::prelude::*;
    use std::sync::OnceLock;

    fn fixture() -> &'static (PqPki, Vec<u8>) {
        static F: OnceLock<(PqPki, Vec<u8>)> = OnceLock::new();
        F.get_or_init(|| {
            let pki = PqPki::new(PqDesign::Composite(PqAlgorithm::FnDsa512), now()).unwrap();
            let msg = pki.sender(pki.ticket().unwrap()).encap_cam(&cam(), now()).unwrap();
            (pki, msg)
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Any change to an accepted message (a flipped bit, a cut, an extension) is rejected
        /// with a reason, never accepted, never a panic.
        #[test]
        fn mutated_messages_are_never_accepted(pos in any::<prop::sample::Index>(), bit in 0u8..8, cut in any::<bool>()) {
            let (pki, msg) = fixture();
            let mut m = msg.clone();
            let i = pos.index(m.len());
            if cut { m.truncate(i) } else { m[i] ^= 1 << bit }
            prop_assert!(pki.receiver().decap_at(&m, now()).is_err());
        }

        #[test]
        fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
            let (pki, _) = fixture();
            let mut b = bytes;
            if let Some(first) = b.first_mut() { *first = 0xE1 }
            prop_assert!(pki.receiver().decap_at(&b, now()).is_err());
            let _ = PqCertificate::decode(&b);
        }
    }
}

#[test]
fn inspect_shows_the_experimental_format_and_its_design() {
    let pki = PqPki::new(PqDesign::PartiallyHybrid, now()).unwrap();
    let msg = pki.sender(pki.ticket().unwrap()).encap_cam(&cam(), now()).unwrap();
    let i = v2x_wire::inspect::inspect_any(&msg).unwrap();
    assert_eq!(i.format, v2x_wire::inspect::Format::ExperimentalPq);
    let text = i.tree.render_text();
    for needle in [
        "NOT IEEE 1609.2",
        "partially hybrid",
        "ecdsa-p256+fn-dsa-512",
        "PSID 36",
        "generationTime",
    ] {
        assert!(text.contains(needle), "{needle} missing from:\n{text}");
    }
    let cert = v2x_wire::inspect::inspect_any(pki.aa().cert.bytes()).unwrap();
    assert!(cert.tree.render_text().contains("authority"));
}
