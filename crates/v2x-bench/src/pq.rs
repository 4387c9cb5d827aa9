//! Post-quantum signatures and the experimental designs: key generation, signing and
//! verification per scheme (each ML-DSA backend too), each paired with ECDSA P-256 through the
//! same interface in interleaved trials of the same run (ratio = PQ time / P-256 time, median
//! over trials with a 95% bootstrap interval); and the bytes on air of a CAM per design, digest
//! and certificate forms, beside the standard 1609.2 P-256 CAM.
//!
//! Run: `cargo run --release -p v2x-bench --example pq_bench [-- --quick] [--json out.json]`.

use crate::measure::{measure, measure_paired_trials, Plan};
use crate::stats::{bootstrap_median_ci95, median, LatencyStats};
use crate::BenchError;
use serde::Serialize;
use std::hint::black_box;
use v2x_crypto::pq::{MlDsaBackend, PqAlgorithm, SignatureScheme, SigningKey};
use v2x_crypto::Curve;
use v2x_security::pq::{PqDesign, PqPki};
use v2x_security::time::TaiTime;

/// A time relative to P-256 in the same run.
#[derive(Debug, Clone, Serialize)]
pub struct Ratio {
    /// Median over trials of (this median / P-256 median): > 1 is slower than P-256.
    pub median: f64,
    pub ci95: [f64; 2],
    pub trials: usize,
}

/// One scheme (and ML-DSA backend).
#[derive(Debug, Clone, Serialize)]
pub struct SchemeRow {
    pub scheme: String,
    pub backend: String,
    pub public_key_bytes: usize,
    pub signature_bytes: usize,
    pub keygen: LatencyStats,
    pub sign: LatencyStats,
    pub verify: LatencyStats,
    pub sign_vs_p256: Ratio,
    pub verify_vs_p256: Ratio,
}

/// Bytes on air of one design: a CAM signed with a digest and with the certificate.
#[derive(Debug, Clone, Serialize)]
pub struct DesignRow {
    pub design: String,
    pub message_scheme: String,
    pub certificate_scheme: String,
    pub certificate_bytes: usize,
    pub digest_message_bytes: usize,
    pub certificate_message_bytes: usize,
    /// Over the 1609.2 P-256 CAM of the same payload (certificate form).
    pub certificate_message_vs_standard: f64,
}

fn ratio(trials: &[f64]) -> Ratio {
    let ci = bootstrap_median_ci95(trials);
    Ratio {
        median: median(trials),
        ci95: [ci.0, ci.1],
        trials: trials.len(),
    }
}

fn err(e: impl std::fmt::Display) -> BenchError {
    BenchError::Setup(e.to_string())
}

/// The signature input of the experimental messages: 64 bytes (two SHA-256 digests).
const INPUT: [u8; 64] = [0x5a; 64];

/// Every scheme; ML-DSA once per backend. `slow` adds SLH-DSA (seconds per sample set).
pub fn schemes(plan: &Plan, slow: bool, progress: &mut dyn FnMut(&str)) -> Result<Vec<SchemeRow>, BenchError> {
    let p256 = SigningKey::generate(SignatureScheme::Ecdsa(Curve::NistP256)).map_err(err)?;
    let p256_sig = p256.sign(&INPUT).map_err(err)?;
    let mut rows = Vec::new();
    for scheme in SignatureScheme::all() {
        let backends: Vec<MlDsaBackend> = match scheme {
            SignatureScheme::Pq(PqAlgorithm::MlDsa44 | PqAlgorithm::MlDsa65 | PqAlgorithm::MlDsa87)
            | SignatureScheme::Composite(PqAlgorithm::MlDsa44) => MlDsaBackend::ALL.to_vec(),
            SignatureScheme::Ecdsa(c) if c != Curve::NistP256 => continue,
            SignatureScheme::Pq(PqAlgorithm::SlhDsaSha2_128s | PqAlgorithm::SlhDsaShake128f) if !slow => continue,
            _ => vec![MlDsaBackend::fastest()],
        };
        for backend in backends {
            let label = format!("{scheme} [{}]", backend.name());
            progress(&label);
            let key = SigningKey::generate(scheme).map_err(err)?;
            let vk = key.verifying_key().clone();
            let sig = key.sign_with(backend, &INPUT).map_err(err)?;
            let keygen = measure(plan, || SigningKey::generate(scheme).map(black_box).map_err(err))?;
            let (sign, _, sign_trials) = measure_paired_trials(
                plan,
                || key.sign_with(backend, black_box(&INPUT)).map_err(err),
                || p256.sign(black_box(&INPUT)).map_err(err),
            )?;
            let (verify, _, verify_trials) = measure_paired_trials(
                plan,
                || match vk.verify_with(backend, black_box(&INPUT), &sig) {
                    Ok(true) => Ok(()),
                    _ => Err(BenchError::Setup(format!("{label}: signature does not verify"))),
                },
                || match p256.verifying_key().verify(black_box(&INPUT), &p256_sig) {
                    Ok(true) => Ok(()),
                    _ => Err(BenchError::Setup("P-256 signature does not verify".into())),
                },
            )?;
            rows.push(SchemeRow {
                scheme: scheme.name(),
                backend: match scheme {
                    SignatureScheme::Ecdsa(_) => "aws-lc (v2x-crypto's fastest)".into(),
                    SignatureScheme::Pq(PqAlgorithm::FnDsa512 | PqAlgorithm::FnDsa1024)
                    | SignatureScheme::Composite(PqAlgorithm::FnDsa512) => "fn-dsa 0.4".into(),
                    SignatureScheme::Pq(PqAlgorithm::SlhDsaSha2_128s | PqAlgorithm::SlhDsaShake128f) => {
                        "RustCrypto slh-dsa".into()
                    }
                    _ => backend.name().into(),
                },
                public_key_bytes: scheme.public_key_len(),
                signature_bytes: scheme.signature_len(),
                keygen,
                sign,
                verify,
                sign_vs_p256: ratio(&sign_trials),
                verify_vs_p256: ratio(&verify_trials),
            });
        }
    }
    Ok(rows)
}

/// Bytes on air of a CAM of `payload` bytes per design, beside the 1609.2 P-256 CAM.
pub fn designs(payload: &[u8]) -> Result<(usize, usize, Vec<DesignRow>), BenchError> {
    let now = TaiTime::parse_rfc3339("2026-11-21T12:00:00Z").map_err(err)?;
    let pki = v2x_security::InMemoryPki::builder().now(now).build().map_err(err)?;
    let mut tx = pki.sender(pki.ticket().map_err(err)?);
    let mut req = v2x_security::entity::EncapRequest::cam(payload);
    req.time = Some(now);
    let std_cert = tx.encap(&req).map_err(err)?;
    req.time = Some(now.saturating_add(std::time::Duration::from_millis(100)));
    let std_digest = tx.encap(&req).map_err(err)?;
    if !std_cert.signer_was_certificate || std_digest.signer_was_certificate {
        return Err(BenchError::Setup("standard CAM signer forms not as expected".into()));
    }
    let (std_digest, std_cert) = (std_digest.bytes.len(), std_cert.bytes.len());
    let mut rows = Vec::new();
    for design in PqDesign::ALL {
        let pki = PqPki::new(design, now).map_err(err)?;
        let ticket = pki.ticket().map_err(err)?;
        let certificate_bytes = ticket.cert.bytes().len();
        let mut tx = pki.sender(ticket);
        let with_cert = tx.encap(payload, v2x_wire::ItsAid::CAM, None, now, true).map_err(err)?;
        let digest = tx
            .encap(payload, v2x_wire::ItsAid::CAM, None, now, false)
            .map_err(err)?;
        rows.push(DesignRow {
            design: design.name(),
            message_scheme: design.message_scheme().name(),
            certificate_scheme: design.certificate_scheme().name(),
            certificate_bytes,
            digest_message_bytes: digest.len(),
            certificate_message_bytes: with_cert.len(),
            certificate_message_vs_standard: with_cert.len() as f64 / std_cert as f64,
        });
    }
    Ok((std_digest, std_cert, rows))
}

/// The two tables as markdown.
pub fn markdown(std_digest: usize, std_cert: usize, designs: &[DesignRow], schemes: &[SchemeRow]) -> String {
    let mut s = String::from(
        "| design | message signature | certificate signature | certificate (B) | CAM, digest (B) | CAM, certificate (B) | ×1609.2 P-256 |\n|---|---|---|---|---|---|---|\n",
    );
    s.push_str(&format!(
        "| IEEE 1609.2 (standard) | ecdsa-p256 | ecdsa-p256 | — | {std_digest} | {std_cert} | 1.00 |\n"
    ));
    for d in designs {
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {:.2} |\n",
            d.design,
            d.message_scheme,
            d.certificate_scheme,
            d.certificate_bytes,
            d.digest_message_bytes,
            d.certificate_message_bytes,
            d.certificate_message_vs_standard
        ));
    }
    s.push_str("\n| scheme | backend | pk (B) | sig (B) | keygen µs (median) | sign µs (median [95% CI of mean]) | verify µs (median [95% CI of mean]) | sign ÷ P-256 (median [95% CI]) | verify ÷ P-256 (median [95% CI]) |\n|---|---|---|---|---|---|---|---|---|\n");
    for r in schemes {
        s.push_str(&format!(
            "| {} | {} | {} | {} | {:.1} | {:.1} [{:.1}, {:.1}] | {:.1} [{:.1}, {:.1}] | {:.2} [{:.2}, {:.2}] | {:.2} [{:.2}, {:.2}] |\n",
            r.scheme,
            r.backend,
            r.public_key_bytes,
            r.signature_bytes,
            r.keygen.median_us,
            r.sign.median_us,
            r.sign.ci95_low_us,
            r.sign.ci95_high_us,
            r.verify.median_us,
            r.verify.ci95_low_us,
            r.verify.ci95_high_us,
            r.sign_vs_p256.median,
            r.sign_vs_p256.ci95[0],
            r.sign_vs_p256.ci95[1],
            r.verify_vs_p256.median,
            r.verify_vs_p256.ci95[0],
            r.verify_vs_p256.ci95[1],
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn design_sizes_are_measured_on_encoded_messages() {
        let (std_digest, std_cert, rows) = designs(&[0u8; 100]).unwrap();
        assert!(std_digest < std_cert);
        assert_eq!(rows.len(), PqDesign::ALL.len());
        for r in &rows {
            assert!(r.digest_message_bytes < r.certificate_message_bytes, "{r:?}");
            assert_eq!(
                r.certificate_message_bytes,
                r.digest_message_bytes - 8 + 2 + r.certificate_bytes
            );
        }
        // ML-DSA-44 alone: the 2,420-byte signature is in every message.
        let ml = rows
            .iter()
            .find(|r| r.design == "experimental-pq-only-ml-dsa-44")
            .unwrap();
        assert!(ml.digest_message_bytes > 2420 + 100);
    }
}
