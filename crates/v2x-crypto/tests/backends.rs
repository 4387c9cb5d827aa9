//! Every backend against every other: signatures from each signing backend (x-only and
//! compressed R) verify on every verifying backend, tampered ones fail on all of them, and
//! ECDH agrees.

use v2x_crypto::backend::{backend, with_backend};
use v2x_crypto::*;

fn signers(curve: Curve) -> Vec<BackendId> {
    BackendId::ALL
        .into_iter()
        .filter(|b| b.supports(curve, CryptoOp::Sign))
        .collect()
}

fn verifiers(curve: Curve) -> Vec<BackendId> {
    BackendId::ALL
        .into_iter()
        .filter(|b| b.supports(curve, CryptoOp::Verify))
        .collect()
}

#[test]
fn every_signature_verifies_on_every_backend() {
    for curve in Curve::ALL {
        let key = PrivateKey::generate(curve).unwrap();
        let digest = hash(curve.hash_alg(), b"cross-backend");
        let other = hash(curve.hash_alg(), b"another message");
        assert!(signers(curve).len() >= 2, "{curve}: at least two independent signers");
        assert!(
            verifiers(curve).len() >= 3,
            "{curve}: at least three independent verifiers"
        );
        for signer in signers(curve) {
            let x_only = backend(signer).sign_digest(&key, digest.as_ref()).unwrap();
            let compressed = with_backend(signer, || key.sign_digest_compressed_r(digest.as_ref())).unwrap();
            assert!(matches!(compressed.r, RPoint::Compressed { .. }));
            assert_eq!(compressed.to_x_only().unwrap().r, compressed.to_x_only().unwrap().r);
            for sig in [&x_only, &compressed, &compressed.to_x_only().unwrap()] {
                for verifier in verifiers(curve) {
                    let b = backend(verifier);
                    assert!(
                        b.verify_digest(key.public_key(), digest.as_ref(), sig).unwrap(),
                        "{curve}: {signer} signature ({:?}) rejected by {verifier}",
                        sig.r
                    );
                    assert!(
                        !b.verify_digest(key.public_key(), other.as_ref(), sig).unwrap(),
                        "{curve}: {verifier} accepted a signature over another message"
                    );
                    let mut bad = sig.clone();
                    bad.s[3] ^= 0x40;
                    assert!(
                        !b.verify_digest(key.public_key(), digest.as_ref(), &bad).unwrap(),
                        "{curve}: {verifier}"
                    );
                }
            }
            // A compressed R with the wrong parity is a different R: our exact check
            // rejects it, x-only verifiers cannot tell (1609.2 lets them convert).
            if let RPoint::Compressed { x, y_odd } = &compressed.r {
                let flipped = Signature {
                    r: RPoint::Compressed {
                        x: x.clone(),
                        y_odd: !y_odd,
                    },
                    ..compressed.clone()
                };
                assert!(!key
                    .public_key()
                    .verify_digest_vartime(digest.as_ref(), &flipped)
                    .unwrap());
                // The public entry point (what SN-DECAP's plain strategy calls) is exact too.
                assert!(key.public_key().verify_digest(digest.as_ref(), &compressed).unwrap());
                assert!(
                    !key.public_key().verify_digest(digest.as_ref(), &flipped).unwrap(),
                    "{curve}: flipped R parity accepted"
                );
                assert!(!SignerTable::build(key.public_key(), 5)
                    .verify_digest(digest.as_ref(), &flipped)
                    .unwrap());
            }
        }
    }
}

#[test]
fn ecdh_agrees_across_backends() {
    for curve in Curve::ALL {
        let a = PrivateKey::generate(curve).unwrap();
        let b = PrivateKey::generate(curve).unwrap();
        let reference = backend(BackendId::OpenSsl).ecdh_x(&a, b.public_key()).unwrap();
        assert_eq!(reference.len(), curve.field_len());
        for id in BackendId::ALL.into_iter().filter(|x| x.supports(curve, CryptoOp::Ecdh)) {
            assert_eq!(
                backend(id).ecdh_x(&a, b.public_key()).unwrap(),
                reference,
                "{curve} {id}"
            );
            assert_eq!(
                backend(id).ecdh_x(&b, a.public_key()).unwrap(),
                reference,
                "{curve} {id}"
            );
        }
        let v2x = backend(BackendId::V2x);
        assert!(matches!(
            v2x.ecdh_x(&a, b.public_key()),
            Err(CryptoError::Unsupported(_))
        ));
        assert!(matches!(
            v2x.sign_digest(&a, &[0; 32]),
            Err(CryptoError::Unsupported(_))
        ));
    }
}

#[test]
fn selected_backend_follows_the_override() {
    let key = PrivateKey::generate(Curve::NistP256).unwrap();
    let d = sha256(b"x");
    for id in [BackendId::OpenSsl, BackendId::RustCrypto, BackendId::AwsLc] {
        let sig = with_backend(id, || key.sign_digest(&d)).unwrap();
        assert!(key.public_key().verify_digest(&d, &sig).unwrap());
    }
    // Every backend signs with fresh nonces (RustCrypto's are hedged RFC 6979): the same
    // digest twice gives two signatures (a receiver's replay check relies on it for
    // identical payloads).
    for id in [BackendId::OpenSsl, BackendId::RustCrypto, BackendId::AwsLc] {
        let a = with_backend(id, || key.sign_digest(&d)).unwrap();
        let b = with_backend(id, || key.sign_digest(&d)).unwrap();
        assert_ne!(a, b, "{id}");
    }
    // The v2x backend cannot sign: under its override signing falls back to the fastest.
    let v = with_backend(BackendId::V2x, || key.sign_digest(&d)).unwrap();
    assert!(key.public_key().verify_digest(&d, &v).unwrap());
}
