//! The repeat-signer table, our own plain verification and batch verification give the
//! same answer as the libraries, on random and on invalid inputs.

use openssl::bn::{BigNum, BigNumContext};
use openssl::ec::EcGroup;
use openssl::nid::Nid;
use proptest::prelude::*;
use v2x_crypto::backend::backend;
use v2x_crypto::*;

fn order(curve: Curve) -> Vec<u8> {
    let nid = match curve {
        Curve::NistP256 => Nid::X9_62_PRIME256V1,
        Curve::NistP384 => Nid::SECP384R1,
        Curve::BrainpoolP256r1 => Nid::BRAINPOOL_P256R1,
        Curve::BrainpoolP384r1 => Nid::BRAINPOOL_P384R1,
    };
    let g = EcGroup::from_curve_name(nid).unwrap();
    let mut n = BigNum::new().unwrap();
    g.order(&mut n, &mut BigNumContext::new().unwrap()).unwrap();
    n.to_vec_padded(curve.field_len() as i32).unwrap()
}

fn add_small(be: &[u8], v: u8) -> Vec<u8> {
    let mut out = be.to_vec();
    let mut carry = v as u16;
    for b in out.iter_mut().rev() {
        let s = *b as u16 + carry;
        *b = s as u8;
        carry = s >> 8;
    }
    out
}

/// Every verifier's answer: OpenSSL (the reference), our plain verification, the table.
fn answers(key: &PublicKey, table: &SignerTable, digest: &[u8], sig: &Signature) -> (bool, bool, bool) {
    let reference = backend(BackendId::OpenSsl).verify_digest(key, digest, sig).unwrap();
    let plain = key.verify_digest_vartime(digest, sig).unwrap();
    let tabled = table.verify_digest(digest, sig).unwrap();
    (reference, plain, tabled)
}

fn agree(key: &PublicKey, table: &SignerTable, digest: &[u8], sig: &Signature, expected: bool, what: &str) {
    let (r, p, t) = answers(key, table, digest, sig);
    assert_eq!((r, p, t), (expected, expected, expected), "{:?} {what}", key.curve());
}

#[test]
fn table_agrees_on_malformed_scalars_and_wrong_inputs() {
    for curve in Curve::ALL {
        let key = PrivateKey::generate(curve).unwrap();
        let other = PrivateKey::generate(curve).unwrap();
        let pk = key.public_key();
        let table = SignerTable::build(pk, 5);
        let digest = hash(curve.hash_alg(), b"cam");
        let d = digest.as_ref();
        let sig = key.sign_digest(d).unwrap();
        agree(pk, &table, d, &sig, true, "valid");
        agree(
            pk,
            &table,
            hash(curve.hash_alg(), b"cam!").as_ref(),
            &sig,
            false,
            "wrong message",
        );
        let other_table = SignerTable::build(other.public_key(), 4);
        agree(other.public_key(), &other_table, d, &sig, false, "wrong key");
        let n = order(curve);
        let len = curve.field_len();
        let zero = vec![0u8; len];
        let ff = vec![0xffu8; len];
        for bad in [zero.clone(), n.clone(), add_small(&n, 1), ff.clone()] {
            let r_bad = Signature::new(curve, RPoint::XOnly(bad.clone()), sig.s.clone()).unwrap();
            agree(pk, &table, d, &r_bad, false, "r out of range");
            let s_bad = Signature::new(curve, sig.r.clone(), bad).unwrap();
            agree(pk, &table, d, &s_bad, false, "s out of range");
        }
        // s and n - s: both verify (ECDSA has no low-s rule in 1609.2).
        let s_int = BigNum::from_slice(&sig.s).unwrap();
        let mut neg_s = BigNum::new().unwrap();
        neg_s.checked_sub(&BigNum::from_slice(&n).unwrap(), &s_int).unwrap();
        let high = Signature::new(curve, sig.r.clone(), neg_s.to_vec_padded(len as i32).unwrap()).unwrap();
        agree(pk, &table, d, &high, true, "n - s");
        // Compressed R whose x is not on the curve (or not a field element).
        let c = key.sign_digest_compressed_r(d).unwrap();
        let RPoint::Compressed { x, y_odd } = c.r.clone() else {
            panic!()
        };
        assert!(table.verify_digest(d, &c).unwrap() && pk.verify_digest_vartime(d, &c).unwrap());
        let mut x2 = x.clone();
        for _ in 0..64 {
            x2[len - 1] = x2[len - 1].wrapping_add(1);
            let s2 = Signature::new(curve, RPoint::Compressed { x: x2.clone(), y_odd }, c.s.clone()).unwrap();
            assert!(!table.verify_digest(d, &s2).unwrap() && !pk.verify_digest_vartime(d, &s2).unwrap());
        }
        let s3 = Signature::new(curve, RPoint::Compressed { x: ff, y_odd }, c.s.clone()).unwrap();
        assert!(!table.verify_digest(d, &s3).unwrap() && !pk.verify_digest_vartime(d, &s3).unwrap());
        // Curve mismatch is an error, not a verdict.
        let wrong_curve = Signature {
            curve: if curve == Curve::NistP256 {
                Curve::BrainpoolP256r1
            } else {
                Curve::NistP256
            },
            ..sig.clone()
        };
        assert!(table.verify_digest(d, &wrong_curve).is_err());
    }
}

#[test]
fn points_off_the_curve_are_rejected_as_keys() {
    for curve in Curve::ALL {
        let mut sec1 = PrivateKey::generate(curve).unwrap().public_key().to_sec1(false);
        let last = sec1.len() - 1;
        sec1[last] ^= 1;
        assert!(PublicKey::from_sec1(curve, &sec1).is_err(), "{curve}");
    }
}

fn curve_strategy() -> impl Strategy<Value = Curve> {
    prop_oneof![
        Just(Curve::NistP256),
        Just(Curve::NistP384),
        Just(Curve::BrainpoolP256r1),
        Just(Curve::BrainpoolP384r1)
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Random digests, random signatures (mostly invalid), random bit flips of valid ones,
    /// and random window widths: table, plain and OpenSSL always agree.
    #[test]
    fn table_agrees_with_openssl_on_random_inputs(
        curve in curve_strategy(),
        msg in proptest::collection::vec(any::<u8>(), 0..64),
        junk in proptest::collection::vec(any::<u8>(), 96),
        flip in 0usize..(8 * 96),
        window in 2u8..=8,
        mode in 0u8..4,
    ) {
        let key = PrivateKey::generate(curve).unwrap();
        let pk = key.public_key();
        let table = SignerTable::build(pk, window);
        let digest = hash(curve.hash_alg(), &msg);
        let d = digest.as_ref();
        let len = curve.field_len();
        let sig = match mode {
            0 => key.sign_digest(d).unwrap(),
            1 => key.sign_digest_compressed_r(d).unwrap().to_x_only().unwrap(),
            2 => Signature::new(curve, RPoint::XOnly(junk[..len].to_vec()), junk[len..2 * len].to_vec()).unwrap(),
            _ => {
                let mut s = key.sign_digest(d).unwrap();
                let bit = flip % (16 * len);
                let RPoint::XOnly(r) = &mut s.r else { unreachable!() };
                if bit < 8 * len { r[bit / 8] ^= 1 << (bit % 8) } else { s.s[(bit - 8 * len) / 8] ^= 1 << (bit % 8) }
                s
            }
        };
        let (r, p, t) = answers(pk, &table, d, &sig);
        prop_assert_eq!(r, p);
        prop_assert_eq!(r, t);
        if mode < 2 { prop_assert!(r) }
        if mode == 3 { prop_assert!(!r) }
    }
}

#[test]
fn batch_finds_the_bad_item_and_accepts_good_batches() {
    for curve in Curve::ALL {
        let keys: Vec<PrivateKey> = (0..4).map(|_| PrivateKey::generate(curve).unwrap()).collect();
        let tables: Vec<SignerTable> = keys.iter().map(|k| SignerTable::build(k.public_key(), 5)).collect();
        let digests: Vec<Digest> = (0..8).map(|i| hash(curve.hash_alg(), &[i as u8; 20])).collect();
        let mut sigs: Vec<Signature> = (0..8)
            .map(|i| keys[i % 4].sign_digest_compressed_r(digests[i].as_ref()).unwrap())
            .collect();
        // one x-only signature among them (verified on its own)
        sigs[5] = keys[1].sign_digest(digests[5].as_ref()).unwrap();
        fn items<'a>(
            keys: &'a [PrivateKey],
            tables: &'a [SignerTable],
            digests: &'a [Digest],
            sigs: &'a [Signature],
        ) -> Vec<BatchItem<'a>> {
            (0..8)
                .map(|i| BatchItem {
                    key: keys[i % 4].public_key(),
                    table: (i % 2 == 0).then(|| &tables[i % 4]),
                    digest: digests[i].as_ref(),
                    sig: &sigs[i],
                })
                .collect()
        }
        let items = |s| items(&keys, &tables, &digests, s);
        assert_eq!(batch_verify(&items(&sigs)).unwrap(), vec![true; 8], "{curve}");
        let mut bad = sigs.clone();
        bad[3].s[0] ^= 1;
        let mut want = vec![true; 8];
        want[3] = false;
        assert_eq!(batch_verify(&items(&bad)).unwrap(), want, "{curve}");
        // A flipped R parity is caught too (R is checked exactly).
        let mut bad = sigs.clone();
        if let RPoint::Compressed { y_odd, .. } = &mut bad[6].r {
            *y_odd = !*y_odd;
        }
        let mut want = vec![true; 8];
        want[6] = false;
        assert_eq!(batch_verify(&items(&bad)).unwrap(), want, "{curve}");
    }
}

#[test]
fn cache_builds_after_threshold_and_stays_within_memory() {
    let keys: Vec<PrivateKey> = (0..6).map(|_| PrivateKey::generate(Curve::NistP256).unwrap()).collect();
    let one = SignerTable::build_size(keys[0].public_key(), 5);
    let mut cache = SignerCache::new(CacheConfig {
        build_after: 3,
        max_bytes: 2 * one,
        window: 5,
        max_tracked: 16,
    });
    let d = sha256(b"m");
    let sigs: Vec<Signature> = keys.iter().map(|k| k.sign_digest(&d).unwrap()).collect();
    for round in 0..3 {
        for (i, k) in keys.iter().enumerate().take(3) {
            assert!(cache.verify_digest(&i, k.public_key(), &d, &sigs[i]).unwrap());
            // a wrong signature is still rejected, with or without a table
            assert!(
                !cache.verify_digest(&i, k.public_key(), &d, &sigs[(i + 1) % 6]).unwrap(),
                "round {round}"
            );
        }
    }
    let s = cache.stats();
    assert!(s.builds >= 3, "{s:?}");
    assert!(cache.table_bytes() <= 2 * one);
    assert!(cache.tables() <= 2);
    assert!(s.evictions >= 1, "{s:?}");
    // A new key under an old id never uses the old table.
    assert!(!cache.verify_digest(&0, keys[4].public_key(), &d, &sigs[0]).unwrap());
    assert!(cache.verify_digest(&0, keys[4].public_key(), &d, &sigs[4]).unwrap());
    // Tracking is bounded.
    for i in 100..200usize {
        cache.verify_digest(&i, keys[5].public_key(), &d, &sigs[5]).unwrap();
    }
    assert!(cache.stats().plain > 0);
}
