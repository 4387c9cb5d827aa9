//! Known-answer tests on the shared vectors (copied into tests/vectors).

use v2x_security::Certificate;

fn chain() -> serde_json::Value {
    serde_json::from_str(include_str!("vectors/test-pki-chain-p256.json")).unwrap()
}

fn cert(v: &serde_json::Value, name: &str) -> Certificate {
    let bytes = hex::decode(v[name].as_str().unwrap()).unwrap();
    let c = Certificate::from_bytes(&bytes).unwrap();
    // Re-encoding the decoded structure gives the received bytes back.
    assert_eq!(
        rasn::coer::encode(c.decoded()).unwrap(),
        bytes,
        "{name} re-encodes byte-exact"
    );
    c
}

#[test]
fn test_pki_chain_decodes_reencodes_and_verifies() {
    let v = chain();
    let root = cert(&v, "root_ca");
    let aa = cert(&v, "authorization_authority");
    let at = cert(&v, "authorization_ticket");
    for (c, name) in [
        (&root, "root_ca"),
        (&aa, "authorization_authority"),
        (&at, "authorization_ticket"),
    ] {
        assert_eq!(c.hashed_id8().to_string(), v["hashedid8"][name].as_str().unwrap());
    }
    assert!(root.verify_signature(None));
    assert!(aa.verify_signature(Some(&root)));
    assert!(at.verify_signature(Some(&aa)));
    assert!(!at.verify_signature(Some(&root)));
    assert_eq!(
        aa.issuer(),
        v2x_security::certificate::Issuer::Digest(v2x_crypto::HashAlg::Sha256, root.hashed_id8())
    );
    assert_eq!(
        at.issuer(),
        v2x_security::certificate::Issuer::Digest(v2x_crypto::HashAlg::Sha256, aa.hashed_id8())
    );
}

#[test]
fn eu_tlm_certificate_verifies_with_brainpool384() {
    let bytes = include_bytes!("vectors/eu-tlm-E7A4B2B045E7ACF9.oer");
    let tlm = Certificate::from_bytes(bytes).unwrap();
    assert_eq!(rasn::coer::encode(tlm.decoded()).unwrap(), bytes.to_vec());
    assert_eq!(tlm.curve(), v2x_crypto::Curve::BrainpoolP384r1);
    assert!(tlm.is_self_signed());
    assert_eq!(tlm.hashed_id8().to_string(), "e7a4b2b045e7acf9");
    assert!(tlm.verify_signature(None));
}

#[test]
fn eu_ectl_signature_verifies_and_entries_load() {
    let tlm = Certificate::from_bytes(include_bytes!("vectors/eu-tlm-E7A4B2B045E7ACF9.oer")).unwrap();
    let ectl = include_bytes!("vectors/eu-ectl-CE4CF6C19BFED720.oer");
    let v = v2x_security::trust_list::verify_trust_list(ectl, &tlm).unwrap();
    assert!(!v.root_cas.is_empty());
    let mut store = v2x_security::TrustStore::new();
    // Loaded as of a day before its nextUpdate (the list is refused after it).
    let at = v2x_security::TaiTime::from_time32(v.list.next_update.0 - 86_400);
    let policy = v2x_security::TrustListPolicy::default();
    let n = store.load_ectl(ectl, &tlm, at, policy).unwrap();
    assert!(n.loaded >= v.root_cas.len());
    assert!(n.warnings.is_empty());
    for r in &v.root_cas {
        assert!(store.is_anchor(r), "{r:?} loaded as anchor");
    }
    // A flipped bit anywhere in the signed part breaks the signature.
    let mut bad = ectl.to_vec();
    bad[40] ^= 1;
    assert!(store.load_ectl(&bad, &tlm, at, policy).is_err());
}

/// The real 3-level chain (root CA with bitmap SSP ranges and chain-length groups, AA, AT
/// with bitmap SSPs) passes the full 1609.2 §5.1.2 consistency check — PSID and SSP ranges,
/// chain lengths, end-entity types — as an outside reference for the permission rules.
#[test]
fn test_pki_chain_is_consistent_under_the_full_permission_rules() {
    use std::sync::Arc;
    use v2x_security::permissions::issuance::check_issued_by;
    let v = chain();
    let root = Arc::new(cert(&v, "root_ca"));
    let aa = Arc::new(cert(&v, "authorization_authority"));
    let at = Arc::new(cert(&v, "authorization_ticket"));
    check_issued_by(&aa, &root).unwrap();
    check_issued_by(&at, &aa).unwrap();
    let mut store = v2x_security::TrustStore::new();
    store.add_trust_anchor(root.clone()).unwrap();
    store.add_ca_certificate(aa.clone());
    let chain = v2x_security::chain::validate_chain(&at, &[], &store).unwrap();
    assert_eq!(chain.chain().len(), 3);
    // The AA may not have issued itself another CA: its group allows chain length 1 only.
    assert_eq!(
        check_issued_by(&aa, &aa).unwrap_err().reason,
        v2x_security::RejectReason::InconsistentChain
    );
}
