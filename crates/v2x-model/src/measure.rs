//! This machine's cost set: the primitives paper 003 evaluates, timed with the benchmark's
//! harness ([`v2x_bench::measure`]) on the implementations the project's session schemes
//! use (`v2x_protocols::session::crypto`: ECDSA P-256, RSA PKCS#1 v1.5 and DSA with SHA-256,
//! ECIES + AES-CCM and RSA-OAEP; `v2x_crypto`: AES-128-CCM and HMAC-SHA1; OpenSSL: the
//! RFC 5114 2048/256 Diffie-Hellman group of the Wang et al. implementation).
//!
//! Each size-dependent operation is timed at two sizes and written as its time at the
//! paper's message size plus the size-independent part of a line through both points;
//! RSA-OAEP is timed on one full block (the model counts blocks).

use crate::costs::{CipherKind, CipherSpec, CostSet, OpCostSpec, ProtocolSizes, SignatureSpec};
use openssl::bn::BigNum;
use openssl::dh::Dh;
use serde::Serialize;
use std::collections::BTreeMap;
use thiserror::Error;
use v2x_bench::measure::{measure, measure_paired, Plan};
use v2x_bench::stats::LatencyStats;
use v2x_bench::BenchError;
use v2x_protocols::session::crypto::{DecryptKey, DsaParams, EncryptionAlg, SignatureAlg, SigningKey};
use v2x_report::Progress;

#[derive(Debug, Error)]
pub enum MeasureError {
    #[error("measuring {what}: {source}")]
    Bench { what: String, source: Box<BenchError> },
    #[error("setting up {what}: {message}")]
    Setup { what: String, message: String },
}

/// Small and reference sizes of the two-point fits (the reference is paper 003's message).
pub const SMALL_BYTES: u64 = 32;
pub const REFERENCE_BYTES: u64 = 1024;

/// One timed operation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MeasuredOp {
    pub algorithm: String,
    pub operation: String,
    pub bytes: u64,
    pub median_us: f64,
    pub mean_us: f64,
    pub ci95_low_us: f64,
    pub ci95_high_us: f64,
    pub trials: usize,
}

/// A measured cost set and the timings behind it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Measured {
    pub set: CostSet,
    pub ops: Vec<MeasuredOp>,
}

struct Timer<'a> {
    plan: Plan,
    ops: Vec<MeasuredOp>,
    progress: &'a dyn Progress,
}

impl Timer<'_> {
    /// Records one operation's statistics; the figure used is the median of the trial
    /// means (robust to preemption on a shared machine).
    fn record(&mut self, algorithm: &str, operation: &str, bytes: u64, s: &LatencyStats) -> f64 {
        self.ops.push(MeasuredOp {
            algorithm: algorithm.into(),
            operation: operation.into(),
            bytes,
            median_us: s.median_of_trials_us,
            mean_us: s.mean_us,
            ci95_low_us: s.ci95_low_us,
            ci95_high_us: s.ci95_high_us,
            trials: s.trial_means_us.len(),
        });
        s.median_of_trials_us
    }

    fn bench_err(algorithm: &str, operation: &str) -> impl Fn(BenchError) -> MeasureError {
        let what = format!("{algorithm} {operation}");
        move |source| MeasureError::Bench {
            what: what.clone(),
            source: Box::new(source),
        }
    }

    /// Times `op`.
    fn time<T>(
        &mut self,
        algorithm: &str,
        operation: &str,
        bytes: u64,
        op: impl FnMut() -> Result<T, BenchError>,
    ) -> Result<f64, MeasureError> {
        self.progress.step(&format!("{algorithm} {operation}"));
        let s = measure(&self.plan, op).map_err(Self::bench_err(algorithm, operation))?;
        Ok(self.record(algorithm, operation, bytes, &s))
    }

    /// Times `op(size)` at both sizes, trials interleaved so that load from other
    /// processes hits both alike, and fits `fixed + per_unit * units`.
    fn fit(
        &mut self,
        algorithm: &str,
        operation: &str,
        units: impl Fn(u64) -> u64,
        op: impl Fn(&[u8]) -> Result<(), BenchError>,
    ) -> Result<OpCostSpec, MeasureError> {
        self.progress.step(&format!("{algorithm} {operation}"));
        let small = vec![0x5a; SMALL_BYTES as usize];
        let big = vec![0x5a; REFERENCE_BYTES as usize];
        let (s1, s2, _) =
            measure_paired(&self.plan, || op(&small), || op(&big)).map_err(Self::bench_err(algorithm, operation))?;
        let t1 = self.record(algorithm, operation, SMALL_BYTES, &s1);
        let t2 = self.record(algorithm, operation, REFERENCE_BYTES, &s2);
        Ok(two_point(
            units(SMALL_BYTES),
            t1,
            units(REFERENCE_BYTES),
            t2,
            REFERENCE_BYTES,
        ))
    }
}

/// `{ us = t2 at bytes, fixed_us }` from two timings at `u1 < u2` units; noise that makes
/// the small size slower gives a size-independent cost.
pub fn two_point(u1: u64, t1: f64, u2: u64, t2: f64, bytes: u64) -> OpCostSpec {
    let per = if u2 > u1 { (t2 - t1) / (u2 - u1) as f64 } else { 0.0 };
    let fixed = if per > 0.0 {
        (t1 - per * u1 as f64).clamp(0.0, t2)
    } else {
        t2
    };
    OpCostSpec {
        us: t2,
        bytes: Some(bytes),
        fixed_us: Some(fixed),
    }
}

fn setup(what: &str) -> impl Fn(String) -> MeasureError + '_ {
    move |message| MeasureError::Setup {
        what: what.into(),
        message,
    }
}

/// The signature algorithms timed: name, label, family, bits of security, algorithm, key bits.
const SIGNATURES: [(&str, &str, &str, u32, SignatureAlg, u32); 6] = [
    ("ecdsa-p256", "ECDSA P-256", "ecdsa", 128, SignatureAlg::Ecdsa, 256),
    ("rsa-1024", "RSA-1024", "rsa", 80, SignatureAlg::Rsa, 1024),
    ("rsa-2048", "RSA-2048", "rsa", 112, SignatureAlg::Rsa, 2048),
    ("rsa-3072", "RSA-3072", "rsa", 128, SignatureAlg::Rsa, 3072),
    ("dsa-1024", "DSA-1024", "dsa", 80, SignatureAlg::Dsa, 1024),
    ("dsa-2048", "DSA-2048", "dsa", 112, SignatureAlg::Dsa, 2048),
];

const RSA_OAEP: [(u32, u32); 3] = [(1024, 80), (2048, 112), (3072, 128)];

/// Progress steps of [`measure_costs`]: sign and verify per signature algorithm, encrypt
/// and decrypt per cipher, HMAC, DH keygen and derive.
pub fn operation_count() -> u64 {
    (SIGNATURES.len() * 2 + (2 + RSA_OAEP.len()) * 2 + 1 + 2) as u64
}

/// Times every primitive; `quick` uses the benchmark's quick plan (tests).
pub fn measure_costs(quick: bool, progress: &dyn Progress) -> Result<Measured, MeasureError> {
    let mut t = Timer {
        plan: if quick { Plan::quick() } else { Plan::full() },
        ops: Vec::new(),
        progress,
    };
    progress.start(operation_count());
    let mut signatures = BTreeMap::new();
    for (name, label, family, security, alg, bits) in SIGNATURES {
        let err = setup(name);
        let dsa = match alg {
            SignatureAlg::Dsa => Some(DsaParams::shared(bits).map_err(|e| err(e.to_string()))?),
            _ => None,
        };
        let key = SigningKey::generate(alg, bits, dsa.as_ref()).map_err(|e| err(e.to_string()))?;
        let public = key.public().map_err(|e| err(e.to_string()))?;
        let bytes = |n: u64| n;
        let sign = t.fit(name, "sign", bytes, |m| {
            key.sign(m).map(|_| ()).map_err(BenchError::from)
        })?;
        let small_sig = key
            .sign(&[0x5a; SMALL_BYTES as usize])
            .map_err(|e| err(e.to_string()))?;
        let big_sig = key
            .sign(&[0x5a; REFERENCE_BYTES as usize])
            .map_err(|e| err(e.to_string()))?;
        let verify = t.fit(name, "verify", bytes, |m| {
            let sig = if m.len() as u64 == SMALL_BYTES {
                &small_sig
            } else {
                &big_sig
            };
            if public.verify(m, sig) {
                Ok(())
            } else {
                Err(BenchError::Rejected("signature does not verify".into()))
            }
        })?;
        // Cert_V = PuK_V | Sig_CA[PuK_V | ID_CA] (paper 003 Section 2), the CA using the same algorithm.
        let certificate_bytes = (public.to_bytes().len() + public.signature_len()) as u64;
        signatures.insert(
            name.to_string(),
            SignatureSpec {
                label: label.into(),
                family: family.into(),
                security_bits: security,
                signature_bytes: big_sig.len() as u64,
                certificate_bytes,
                sign,
                verify,
                source: format!("{} with SHA-256 (v2x_protocols::session::crypto)", label),
            },
        );
    }

    let mut ciphers = BTreeMap::new();
    // AES-128-CCM: 16-byte tag, nonce not sent (as the session schemes use it).
    let key = [7u8; 16];
    let nonce = [9u8; 12];
    let per_byte = |n: u64| n;
    let aes_enc = t.fit("aes-128-ccm", "encrypt", per_byte, |m| {
        v2x_crypto::aes128_ccm_encrypt(&key, &nonce, m)
            .map(|_| ())
            .map_err(BenchError::from)
    })?;
    let ct_small = v2x_crypto::aes128_ccm_encrypt(&key, &nonce, &[0x5a; SMALL_BYTES as usize])
        .map_err(|e| setup("aes-128-ccm")(e.to_string()))?;
    let ct_big = v2x_crypto::aes128_ccm_encrypt(&key, &nonce, &[0x5a; REFERENCE_BYTES as usize])
        .map_err(|e| setup("aes-128-ccm")(e.to_string()))?;
    let aes_dec = t.fit("aes-128-ccm", "decrypt", per_byte, |m| {
        let ct = if m.len() as u64 == SMALL_BYTES {
            &ct_small
        } else {
            &ct_big
        };
        v2x_crypto::aes128_ccm_decrypt(&key, &nonce, ct)
            .map(|_| ())
            .map_err(BenchError::from)
    })?;
    ciphers.insert(
        "aes-128-ccm".to_string(),
        CipherSpec {
            label: "AES-128-CCM".into(),
            kind: CipherKind::Symmetric,
            family: "aes".into(),
            security_bits: 128,
            block_bytes: 1,
            padding_bytes: 0,
            ciphertext_block_bytes: 1,
            ciphertext_overhead_bytes: (ct_big.len() as u64).saturating_sub(REFERENCE_BYTES),
            encrypt: aes_enc,
            decrypt: aes_dec,
            source: "v2x_crypto AES-128-CCM (16-byte tag)".into(),
        },
    );

    // ECIES (IEEE 1609.2 key wrap on P-256) of a fresh AES key + AES-128-CCM of the data.
    let err = setup("ecies-p256");
    let dk = DecryptKey::generate(EncryptionAlg::Ecies, 0).map_err(|e| err(e.to_string()))?;
    let ek = dk.public().map_err(|e| err(e.to_string()))?;
    let ecies_enc = t.fit("ecies-p256", "encrypt", per_byte, |m| {
        ek.encrypt(m).map(|_| ()).map_err(BenchError::from)
    })?;
    let ect_small = ek
        .encrypt(&[0x5a; SMALL_BYTES as usize])
        .map_err(|e| err(e.to_string()))?;
    let ect_big = ek
        .encrypt(&[0x5a; REFERENCE_BYTES as usize])
        .map_err(|e| err(e.to_string()))?;
    let ecies_dec = t.fit("ecies-p256", "decrypt", per_byte, |m| {
        let ct = if m.len() as u64 == SMALL_BYTES {
            &ect_small
        } else {
            &ect_big
        };
        dk.decrypt(ct)
            .map(|_| ())
            .map_err(|r| BenchError::Rejected(r.to_string()))
    })?;
    ciphers.insert(
        "ecies-p256".to_string(),
        CipherSpec {
            label: "ECIES P-256".into(),
            kind: CipherKind::Asymmetric,
            family: "ecies".into(),
            security_bits: 128,
            block_bytes: 1,
            padding_bytes: 0,
            ciphertext_block_bytes: 1,
            ciphertext_overhead_bytes: (ect_big.len() as u64).saturating_sub(REFERENCE_BYTES),
            encrypt: ecies_enc,
            decrypt: ecies_dec,
            source: "IEEE 1609.2 ECIES key wrap + AES-128-CCM (v2x_protocols::session::crypto)".into(),
        },
    );

    // RSA-OAEP (SHA-1): one block of k - 42 plaintext bytes; the model counts blocks.
    for (bits, security) in RSA_OAEP {
        let name = format!("rsa-{bits}-oaep");
        let err = setup(&name);
        let dk = DecryptKey::generate(EncryptionAlg::Rsa, bits).map_err(|e| err(e.to_string()))?;
        let ek = dk.public().map_err(|e| err(e.to_string()))?;
        let block = u64::from(bits / 8 - 42);
        let pt = vec![0x5a; block as usize];
        let enc = t.time(&name, "encrypt", block, || ek.encrypt(&pt).map_err(BenchError::from))?;
        let ct = ek.encrypt(&pt).map_err(|e| err(e.to_string()))?;
        let dec = t.time(&name, "decrypt", block, || {
            dk.decrypt(&ct).map_err(|r| BenchError::Rejected(r.to_string()))
        })?;
        let spec = |us| OpCostSpec {
            us,
            bytes: Some(block),
            fixed_us: Some(0.0),
        };
        ciphers.insert(
            name.clone(),
            CipherSpec {
                label: format!("RSA-{bits}"),
                kind: CipherKind::Asymmetric,
                family: "rsa".into(),
                security_bits: security,
                block_bytes: block,
                padding_bytes: 0,
                ciphertext_block_bytes: ct.len() as u64,
                ciphertext_overhead_bytes: 0,
                encrypt: spec(enc),
                decrypt: spec(dec),
                source: format!("RSA-{bits} OAEP (SHA-1), per {block}-byte block (v2x_protocols::session::crypto)"),
            },
        );
    }

    let hmac_key = [3u8; 16];
    let hmac = t.fit("hmac-sha1", "mac", per_byte, |m| {
        std::hint::black_box(v2x_crypto::hmac_sha1(&hmac_key, m));
        Ok(())
    })?;

    // Diffie-Hellman in the group the Wang et al. implementation uses (RFC 5114 2048/256).
    let err = setup("dh-2048-256");
    let group = || Dh::get_2048_256().map_err(|e| err(e.to_string()));
    let peer = group()?.generate_key().map_err(|e| err(e.to_string()))?;
    let peer_pub: BigNum = peer.public_key().to_owned().map_err(|e| err(e.to_string()))?;
    let mine = group()?.generate_key().map_err(|e| err(e.to_string()))?;
    let keygen = t.time("dh-2048-256", "keygen", 0, || {
        Dh::get_2048_256()?.generate_key().map(|_| ()).map_err(BenchError::from)
    })?;
    let derive = t.time("dh-2048-256", "derive", 0, || {
        mine.compute_key(&peer_pub).map(|_| ()).map_err(BenchError::from)
    })?;
    progress.finish();

    let host = v2x_bench::host::info();
    let set = CostSet {
        name: "this-machine".into(),
        source: format!(
            "measured by `v2x model --measure`{}: median of {} trial means per operation",
            if quick { " --quick" } else { "" },
            t.plan.trials
        ),
        measured_on: Some(format!(
            "{}, {} cores, {}, {}, {}",
            host.cpu,
            host.cores,
            host.os,
            host.openssl,
            v2x_bench::host::now_rfc3339()
        )),
        data_cipher: "aes-128-ccm".into(),
        sizes: ProtocolSizes {
            message_bytes: REFERENCE_BYTES,
            hmac_bytes: 20,
            session_key_bytes: 16,
            key_hash_bytes: 8,
        },
        hmac,
        dh_keygen: OpCostSpec::fixed(keygen),
        dh_derive: OpCostSpec::fixed(derive),
        signatures,
        ciphers,
    };
    set.validate().map_err(|e| MeasureError::Setup {
        what: "the measured cost set".into(),
        message: e.to_string(),
    })?;
    Ok(Measured { set, ops: t.ops })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_point_fit_recovers_a_line() {
        let s = two_point(32, 10.0 + 32.0 * 0.5, 1024, 10.0 + 1024.0 * 0.5, 1024);
        assert!((s.fixed_us.unwrap() - 10.0).abs() < 1e-9);
        assert_eq!(s.us, 522.0);
        // Noise making the small size slower: size-independent.
        let s = two_point(32, 30.0, 1024, 29.0, 1024);
        assert_eq!(s.fixed_us, Some(29.0));
        // A steep slope never gives a negative fixed part.
        let s = two_point(32, 1.0, 1024, 2000.0, 1024);
        assert_eq!(s.fixed_us, Some(0.0));
    }
}
