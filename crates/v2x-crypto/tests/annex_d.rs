//! Known-answer tests: IEEE 1609.2 Annex D ECIES key wrap and AES-128-CCM.

use serde_json::Value;
use v2x_crypto::backend::with_backend;
use v2x_crypto::*;

fn vectors() -> Value {
    serde_json::from_str(include_str!("../../../vectors/ieee1609dot2-annexd.json")).unwrap()
}

fn h(v: &Value) -> Vec<u8> {
    hex::decode(v.as_str().unwrap()).unwrap()
}

fn ecdh_backends() -> Vec<BackendId> {
    let list: Vec<BackendId> = BackendId::ALL
        .into_iter()
        .filter(|b| b.supports(Curve::NistP256, CryptoOp::Ecdh))
        .collect();
    assert_eq!(list, [BackendId::AwsLc, BackendId::OpenSsl, BackendId::RustCrypto]);
    list
}

#[test]
fn ecies_key_wrap_known_answers_on_every_backend() {
    for id in ecdh_backends() {
        with_backend(id, ecies_key_wrap_known_answers);
    }
}

fn ecies_key_wrap_known_answers() {
    let all = vectors();
    let list = all["ecies_p256_kdf2_sha256_hmac_sha256_128"]["vectors"]
        .as_array()
        .unwrap();
    assert_eq!(list.len(), 6);
    for v in list {
        let eph = PrivateKey::from_scalar(Curve::NistP256, &h(&v["ephemeral_private_v"])).unwrap();
        assert_eq!(
            eph.public_key().to_sec1(false),
            h(&v["ephemeral_public_V"]),
            "vector {}",
            v["id"]
        );
        let recip = PrivateKey::from_scalar(Curve::NistP256, &h(&v["recipient_private_r"])).unwrap();
        assert_eq!(recip.public_key().to_sec1(false), h(&v["recipient_public_R"]));
        let k: [u8; 16] = h(&v["aes_key_k"]).try_into().unwrap();
        let p1 = h(&v["p1"]);
        let wrapped = ecies_wrap_with_ephemeral(recip.public_key(), &eph, &k, &p1).unwrap();
        assert_eq!(wrapped.c.to_vec(), h(&v["wrapped_key_c"]), "c of vector {}", v["id"]);
        assert_eq!(wrapped.t.to_vec(), h(&v["tag_t"]), "t of vector {}", v["id"]);
        assert_eq!(ecies_unwrap(&recip, &wrapped, &p1).unwrap(), k);
        // A flipped tag bit or a different P1 must fail.
        let mut bad = wrapped.clone();
        bad.t[0] ^= 1;
        assert_eq!(ecies_unwrap(&recip, &bad, &p1), Err(CryptoError::TagMismatch));
        assert_eq!(
            ecies_unwrap(&recip, &wrapped, b"other recipient"),
            Err(CryptoError::TagMismatch)
        );
    }
}

#[test]
fn aes128_ccm_known_answer() {
    let all = vectors();
    for v in all["aes_128_ccm"]["vectors"].as_array().unwrap() {
        let key: [u8; 16] = h(&v["key"]).try_into().unwrap();
        let nonce = h(&v["nonce"]);
        let pt = h(&v["plaintext"]);
        let ct = aes128_ccm_encrypt(&key, &nonce, &pt).unwrap();
        assert_eq!(ct, h(&v["ciphertext_and_tag"]));
        assert_eq!(aes128_ccm_decrypt(&key, &nonce, &ct).unwrap(), pt);
        let mut tampered = ct.clone();
        tampered[3] ^= 0x80;
        assert_eq!(
            aes128_ccm_decrypt(&key, &nonce, &tampered),
            Err(CryptoError::TagMismatch)
        );
    }
}

#[test]
fn ecies_round_trip_with_fresh_keys_on_every_curve_and_backend() {
    for (curve, id) in Curve::ALL
        .into_iter()
        .flat_map(|c| ecdh_backends().into_iter().map(move |b| (c, b)))
        .filter(|(c, b)| b.supports(*c, CryptoOp::Ecdh))
    {
        with_backend(id, || {
            let recip = PrivateKey::generate(curve).unwrap();
            let k = [7u8; 16];
            let w = ecies_wrap(recip.public_key(), &k, b"p1").unwrap();
            assert_eq!(ecies_unwrap(&recip, &w, b"p1").unwrap(), k);
        });
    }
}
