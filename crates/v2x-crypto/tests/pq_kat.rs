//! Known answers for every post-quantum algorithm, from vectors copied into `vectors/pq/`
//! (origins in vectors/README.md): NIST ACVP (SLH-DSA key generation, signature generation and
//! verification), the IETF LAMPS ML-DSA examples (key generation of all three parameter sets,
//! on both ML-DSA backends), and fn-dsa's own known answers (no NIST vectors exist for FN-DSA).

use serde_json::Value;
use v2x_crypto::pq::{kat, MlDsaBackend, PqAlgorithm, SignatureScheme, SigningKey, VerifyingKey};

fn vectors(name: &str) -> Value {
    let path = format!("{}/../../vectors/pq/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))).unwrap()
}

fn hex(v: &Value) -> Vec<u8> {
    hex::decode(v.as_str().expect("hex string")).expect("hex")
}

fn alg(name: &str) -> PqAlgorithm {
    match name {
        "ML-DSA-44" => PqAlgorithm::MlDsa44,
        "ML-DSA-65" => PqAlgorithm::MlDsa65,
        "ML-DSA-87" => PqAlgorithm::MlDsa87,
        "SLH-DSA-SHA2-128s" => PqAlgorithm::SlhDsaSha2_128s,
        "SLH-DSA-SHAKE-128f" => PqAlgorithm::SlhDsaShake128f,
        other => panic!("parameter set {other} not offered"),
    }
}

/// Seed → public key on both ML-DSA backends, and the derived key signs and verifies across them.
fn check_ml_dsa_keygen(a: PqAlgorithm, seed: &[u8], pk: &[u8]) {
    let key = SigningKey::from_seed(a, seed).unwrap();
    assert_eq!(key.verifying_key().to_bytes(), pk, "{}: aws-lc public key", a.name());
    let seed32: [u8; 32] = seed.try_into().unwrap();
    assert_eq!(
        kat::ml_dsa_rustcrypto_public(a, &seed32),
        pk,
        "{}: RustCrypto public key",
        a.name()
    );
    let vk = VerifyingKey::from_bytes(SignatureScheme::Pq(a), pk).unwrap();
    for signer in MlDsaBackend::ALL {
        let sig = key.sign_with(signer, b"known-answer key").unwrap();
        for verifier in MlDsaBackend::ALL {
            assert!(
                vk.verify_with(verifier, b"known-answer key", &sig).unwrap(),
                "{signer:?} -> {verifier:?}"
            );
        }
    }
}

#[test]
fn ml_dsa_ietf_lamps_examples_every_parameter_set() {
    let v = vectors("ietf-lamps-ml-dsa-keygen.json");
    let tests = v["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 3);
    for t in tests {
        check_ml_dsa_keygen(
            alg(t["parameterSet"].as_str().unwrap()),
            &hex(&t["seed"]),
            &hex(&t["pk"]),
        );
    }
}

#[test]
fn slh_dsa_acvp_keygen() {
    let v = vectors("acvp-slh-dsa-sha2-128s-keygen.json");
    let mut n = 0;
    for g in v["testGroups"].as_array().unwrap() {
        let a = alg(g["parameterSet"].as_str().unwrap());
        for t in g["tests"].as_array().unwrap() {
            let seed = [hex(&t["skSeed"]), hex(&t["skPrf"]), hex(&t["pkSeed"])].concat();
            let key = SigningKey::from_seed(a, &seed).unwrap();
            assert_eq!(key.verifying_key().to_bytes(), hex(&t["pk"]), "tcId {}", t["tcId"]);
            assert_eq!(key.to_bytes(), hex(&t["sk"]), "tcId {}", t["tcId"]);
            n += 1;
        }
    }
    assert_eq!(n, 3);
}

#[test]
fn slh_dsa_acvp_siggen_internal() {
    let v = vectors("acvp-slh-dsa-shake-128f-siggen.json");
    let mut n = 0;
    for g in v["testGroups"].as_array().unwrap() {
        let a = alg(g["parameterSet"].as_str().unwrap());
        for t in g["tests"].as_array().unwrap() {
            let rand = t.get("additionalRandomness").map(hex);
            let sig = kat::slh_dsa_sign_internal(a, &hex(&t["sk"]), &hex(&t["message"]), rand.as_deref()).unwrap();
            assert_eq!(sig, hex(&t["signature"]), "tcId {}", t["tcId"]);
            n += 1;
        }
    }
    assert_eq!(n, 4, "two deterministic, two randomized");
}

#[test]
fn slh_dsa_acvp_sigver_internal() {
    let v = vectors("acvp-slh-dsa-shake-128f-sigver.json");
    let (mut pass, mut fail) = (0, 0);
    for g in v["testGroups"].as_array().unwrap() {
        let a = alg(g["parameterSet"].as_str().unwrap());
        for t in g["tests"].as_array().unwrap() {
            let expected = t["testPassed"].as_bool().unwrap();
            let got =
                kat::slh_dsa_verify_internal(a, &hex(&t["pk"]), &hex(&t["message"]), &hex(&t["signature"])).unwrap();
            assert_eq!(got, expected, "tcId {} ({})", t["tcId"], t["reason"]);
            if expected {
                pass += 1
            } else {
                fail += 1
            }
        }
    }
    assert!(pass >= 1 && fail >= 1, "{pass} valid, {fail} invalid");
}

/// fn-dsa's known answers: SHA3-256(sk ‖ vk ‖ sig) for 10 seeded key pairs and signatures of
/// each degree (the procedure is in the vector file).
#[test]
fn fn_dsa_known_answers() {
    use fn_dsa::{SHA3_256, SHAKE256};
    let v = vectors("fn-dsa-kat.json");
    let mut n = 0;
    for (logn, a) in [(9u8, PqAlgorithm::FnDsa512), (10u8, PqAlgorithm::FnDsa1024)] {
        for (j, expected) in v["kat"][logn.to_string()].as_array().unwrap().iter().enumerate() {
            let j = j as u32;
            let mut sh = SHAKE256::new();
            sh.inject(&[[logn].as_slice(), &j.to_le_bytes()].concat());
            sh.flip();
            let (mut kgen, mut sign) = ([0u8; 32], [0u8; 40]);
            sh.extract(&mut kgen);
            sh.extract(&mut sign);
            let (sk, vk, sig) = kat::fn_dsa_keygen_sign(a, &kgen, &sign, b"domain", j & 1 == 1, b"message").unwrap();
            let mut h = SHA3_256::new();
            h.update(&sk);
            h.update(&vk);
            h.update(&sig);
            assert_eq!(hex::encode(h.digest()), expected.as_str().unwrap(), "logn {logn} j {j}");
            // The seeded key is the one SigningKey::from_seed derives.
            let key = SigningKey::from_seed(a, &kgen).unwrap();
            assert_eq!(key.verifying_key().to_bytes(), vk);
            n += 1;
        }
    }
    assert_eq!(n, 20);
}
