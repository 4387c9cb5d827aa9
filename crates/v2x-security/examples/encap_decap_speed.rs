//! Compares raw OpenSSL P-256 sign/verify (through v2x-crypto) with SN-ENCAP of a CAM
//! and SN-DECAP of a digest-signed CAM from a known signer, in the same run, on one
//! core. Run with `cargo run --release -p v2x-security --example encap_decap_speed [N]`.
//!
//! This is a quick check for developers; the project's benchmark (`v2x bench`) is the
//! reference measurement.

use std::sync::Arc;
use std::time::{Duration, Instant};
use v2x_crypto::{sha256, Curve, PrivateKey};
use v2x_security::*;

fn rate(n: usize, d: Duration) -> f64 {
    n as f64 / d.as_secs_f64()
}

fn main() {
    let n: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(3000);
    let curve = Curve::NistP256;
    let now = TaiTime::now();
    let start = now.saturating_sub(Duration::from_secs(3600));
    // A small in-memory PKI: root -> AA -> ticket.
    let rk = PrivateKey::generate(curve).unwrap();
    let mut spec = CertificateSpec::new(Some("root"), start, Duration::from_secs(86400 * 30));
    spec.issue_permissions = Some(IssuePermissions::All);
    let root = Arc::new(issue_certificate(&spec, rk.public_key(), IssuerKey::SelfSigned(&rk)).unwrap());
    let ak = PrivateKey::generate(curve).unwrap();
    let mut spec = CertificateSpec::new(Some("aa"), start, Duration::from_secs(86400 * 20));
    spec.issue_permissions = Some(IssuePermissions::All);
    let aa = Arc::new(issue_certificate(&spec, ak.public_key(), IssuerKey::Ca { cert: &root, key: &rk }).unwrap());
    let tk = PrivateKey::generate(curve).unwrap();
    let mut spec = CertificateSpec::new(None, start, Duration::from_secs(86400));
    spec.app_permissions = vec![AppPermission { psid: 36, ssp: Some(vec![1, 0xff, 0xfc]) }];
    let at = Arc::new(issue_certificate(&spec, tk.public_key(), IssuerKey::Ca { cert: &aa, key: &ak }).unwrap());
    let mut store = TrustStore::new();
    store.add_trust_anchor(root.clone()).unwrap();
    store.add_ca_certificate(aa.clone());
    let creds = Credentials { certificate: at, signing_key: tk.clone(), encryption_key: None };
    let mut sender = SecurityEntity::with_credentials(store.clone(), creds, vec![aa, root]);
    let mut receiver = SecurityEntity::new(store);
    let payload = [0x5au8; 60]; // a typical small CAM body

    // Raw sign.
    let digest = sha256(b"raw");
    let t = Instant::now();
    for _ in 0..n {
        std::hint::black_box(tk.sign_digest(&digest).unwrap());
    }
    let raw_sign = rate(n, t.elapsed());

    // SN-ENCAP CAM (real clock: digest signer, certificate once per second).
    let t = Instant::now();
    for _ in 0..n {
        std::hint::black_box(sender.encap(&EncapRequest::cam(&payload)).unwrap());
    }
    let encap = rate(n, t.elapsed());

    // Raw verify.
    let sig = tk.sign_digest(&digest).unwrap();
    let pk = tk.public_key().clone();
    let t = Instant::now();
    for _ in 0..n {
        assert!(pk.verify_digest(&digest, &sig).unwrap());
    }
    let raw_verify = rate(n, t.elapsed());

    // SN-DECAP of digest-signed CAMs from a known signer (distinct generation times).
    let base = TaiTime::now();
    // The receiver learns the signer's certificate from one certificate-signed message.
    let first = sender.encap(&EncapRequest::new(ProfileKind::Generic, &payload).at(base)).unwrap();
    assert!(first.signer_was_certificate);
    receiver.decap_at(&first.bytes, base).unwrap();
    let msgs: Vec<Vec<u8>> = (1..=n as u64)
        .map(|i| sender.encap(&EncapRequest::cam(&payload).at(TaiTime(base.0 + i))).unwrap())
        .filter(|m| !m.signer_was_certificate)
        .map(|m| m.bytes)
        .collect();
    let n = msgs.len();
    if std::env::var_os("PRINT_SAMPLE").is_some() {
        println!("{}", hex::encode(&msgs[0]));
    }
    let at = TaiTime(base.0 + n as u64);
    let t = Instant::now();
    for m in &msgs {
        std::hint::black_box(receiver.decap_at(m, at).unwrap());
    }
    let decap = rate(n, t.elapsed());

    println!("iterations per measurement: {n}");
    println!("raw P-256 sign   {raw_sign:>9.0} /s");
    println!("encap CAM        {encap:>9.0} /s   ratio {:.3}", encap / raw_sign);
    println!("raw P-256 verify {raw_verify:>9.0} /s");
    println!("decap CAM        {decap:>9.0} /s   ratio {:.3}", decap / raw_verify);
}
