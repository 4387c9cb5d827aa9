//! Every signature scheme behind the one interface: sizes as declared, round trips, tampering
//! rejected, and the composites' two components each checked.

use v2x_crypto::pq::{MlDsaBackend, PqAlgorithm, SignatureScheme, SigningKey, VerifyingKey};
use v2x_crypto::Curve;

const MSG: &[u8] = b"CAM payload to be signed";

fn fast_schemes() -> Vec<SignatureScheme> {
    // SLH-DSA signs in tens of milliseconds even optimised: checked once below, not per property.
    SignatureScheme::all()
        .into_iter()
        .filter(|s| {
            !matches!(
                s,
                SignatureScheme::Pq(PqAlgorithm::SlhDsaSha2_128s | PqAlgorithm::SlhDsaShake128f)
            )
        })
        .collect()
}

#[test]
fn every_scheme_signs_verifies_and_has_its_declared_sizes() {
    for scheme in SignatureScheme::all() {
        let key = SigningKey::generate(scheme).unwrap();
        let sig = key.sign(MSG).unwrap();
        assert_eq!(sig.len(), scheme.signature_len(), "{scheme} signature");
        let pk = key.verifying_key().to_bytes();
        assert_eq!(pk.len(), scheme.public_key_len(), "{scheme} public key");
        let vk = VerifyingKey::from_bytes(scheme, &pk).unwrap();
        assert!(vk.verify(MSG, &sig).unwrap(), "{scheme}");
        assert!(!vk.verify(b"another message", &sig).unwrap(), "{scheme} other message");
        // The private key round-trips.
        let again = SigningKey::from_bytes(scheme, &key.to_bytes()).unwrap();
        assert_eq!(
            again.verifying_key(),
            key.verifying_key(),
            "{scheme} private key encoding"
        );
    }
}

#[test]
fn a_flipped_bit_anywhere_is_rejected() {
    for scheme in fast_schemes() {
        let key = SigningKey::generate(scheme).unwrap();
        let sig = key.sign(MSG).unwrap();
        // Every byte position class: first, middle, last.
        for pos in [0, sig.len() / 2, sig.len() - 1] {
            let mut bad = sig.clone();
            bad[pos] ^= 0x01;
            assert!(
                !key.verifying_key().verify(MSG, &bad).unwrap_or(false),
                "{scheme} byte {pos}"
            );
        }
        let mut short = sig.clone();
        short.pop();
        assert!(
            !key.verifying_key().verify(MSG, &short).unwrap_or(false),
            "{scheme} truncated"
        );
    }
}

#[test]
fn composite_checks_both_components() {
    for alg in SignatureScheme::COMPOSITE_PQ {
        let scheme = SignatureScheme::Composite(alg);
        let key = SigningKey::generate(scheme).unwrap();
        let vk = key.verifying_key();
        let sig = key.sign(MSG).unwrap();
        let v = vk.verify_components(MSG, &sig).unwrap();
        assert!(v.classical && v.post_quantum, "{scheme}");
        // A bit flip in the ECDSA part (the first 64 bytes): only the classical part fails.
        for pos in [0, 31, 32, 63] {
            let mut bad = sig.clone();
            bad[pos] ^= 0x80;
            let v = vk.verify_components(MSG, &bad).unwrap();
            assert!(!v.classical && v.post_quantum, "{scheme} ECDSA byte {pos}");
            assert!(!vk.verify(MSG, &bad).unwrap());
        }
        // A bit flip in the post-quantum part: only it fails.
        for pos in [64, 64 + alg.signature_len() / 2, sig.len() - 1] {
            let mut bad = sig.clone();
            bad[pos] ^= 0x01;
            let v = vk.verify_components(MSG, &bad).unwrap();
            assert!(v.classical && !v.post_quantum, "{scheme} PQ byte {pos}");
            assert!(!vk.verify(MSG, &bad).unwrap());
        }
    }
}

#[test]
fn composite_components_are_not_standalone_signatures() {
    for alg in SignatureScheme::COMPOSITE_PQ {
        let scheme = SignatureScheme::Composite(alg);
        let key = SigningKey::generate(scheme).unwrap();
        let sig = key.sign(MSG).unwrap();
        let pk = key.verifying_key().to_bytes();
        let (ecdsa_pk, pq_pk) = pk.split_at(33);
        let (ecdsa_sig, pq_sig) = sig.split_at(64);
        // Stripped of either half, the other is no signature over the message itself.
        let ecdsa = VerifyingKey::from_bytes(SignatureScheme::Ecdsa(Curve::NistP256), ecdsa_pk).unwrap();
        assert!(!ecdsa.verify(MSG, ecdsa_sig).unwrap(), "{scheme}: ECDSA part alone");
        let pq = VerifyingKey::from_bytes(SignatureScheme::Pq(alg), pq_pk).unwrap();
        assert!(!pq.verify(MSG, pq_sig).unwrap(), "{scheme}: PQ part alone");
    }
}

#[test]
fn ml_dsa_backends_interoperate() {
    for alg in [PqAlgorithm::MlDsa44, PqAlgorithm::MlDsa65, PqAlgorithm::MlDsa87] {
        let key = SigningKey::generate(SignatureScheme::Pq(alg)).unwrap();
        for signer in MlDsaBackend::ALL {
            let sig = key.sign_with(signer, MSG).unwrap();
            for verifier in MlDsaBackend::ALL {
                assert!(
                    key.verifying_key().verify_with(verifier, MSG, &sig).unwrap(),
                    "{alg:?} {signer:?}->{verifier:?}"
                );
                let mut bad = sig.clone();
                bad[100] ^= 4;
                assert!(!key.verifying_key().verify_with(verifier, MSG, &bad).unwrap());
            }
        }
    }
}

#[test]
fn bad_keys_and_names_are_refused_with_reasons() {
    for scheme in fast_schemes() {
        let short = vec![0u8; scheme.public_key_len() - 1];
        assert!(VerifyingKey::from_bytes(scheme, &short).is_err(), "{scheme}");
    }
    let err = SignatureScheme::from_name("dilithium2").unwrap_err();
    assert!(
        err.contains("ml-dsa-44") && err.contains("ecdsa-p256+fn-dsa-512"),
        "{err}"
    );
    assert_eq!(
        SignatureScheme::from_name("ECDSA-P256+ML-DSA-44").unwrap(),
        SignatureScheme::Composite(PqAlgorithm::MlDsa44)
    );
    // Only the two composites of the issue are offered.
    assert!(SigningKey::generate(SignatureScheme::Composite(PqAlgorithm::MlDsa87)).is_err());
}
