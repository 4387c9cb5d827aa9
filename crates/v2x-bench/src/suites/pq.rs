//! The post-quantum suite (`--suite pq`): signature schemes and the EXPERIMENTAL designs of
//! `v2x_security::pq`, every time paired with its ECDSA P-256 counterpart in interleaved
//! trials of the same run (time ratio = this median / P-256 median per trial; the median over
//! trials with a 95% bootstrap interval), so that load from other processes hits both alike.
//!
//! * schemes: key generation, signing and verification of each scheme (ML-DSA once per
//!   backend) through `v2x_crypto::pq`, beside ECDSA P-256 through the same interface, over
//!   the 64-byte input the experimental messages sign;
//! * stack: ENCAP and DECAP of a CAM of 100 bytes per design through the `Authenticator`
//!   (`experimental-pq` of `v2x-protocols`, exactly as the simulator and testbed drive it),
//!   beside the `ieee1609.2` P-256 adapter with the same certificate policy: the steady
//!   state of the once-per-second rule (digests, the certificate once a second at 100 Hz)
//!   and the certificate on every message; these rows are the profile entries of the designs;
//! * bytes on air of a CAM per design, digest and certificate forms, beside 1609.2 P-256.
//!
//! SLH-DSA (FIPS 205, for reference: no design uses it) signs in milliseconds to a second:
//! its rows take one call per sample (`plan_for`), so the suite stays within seconds.

use super::protocols::{decap_setup, encap_setup, sizes_of, Spec};
use crate::measure::{measure, measure_paired_trials, Plan};
use crate::result::{DesignRow, Measurement, PqResult, Ratio, SchemeRow, StackRow};
use crate::stats::{bootstrap_median_ci95, median};
use crate::task::Label;
use crate::{BenchError, Suite};
use std::hint::black_box;
use v2x_crypto::pq::{MlDsaBackend, PqAlgorithm, SignatureScheme, SigningKey};
use v2x_crypto::Curve;
use v2x_profile::{CostKey, MessageId, Operation, PacketSizes, ProtocolId, SignerKind, Variant};
use v2x_security::pq::{PqDesign, PqPki};
use v2x_security::time::TaiTime;

/// Payload of the stack rows and the byte rows (a typical CAM body).
pub const PAYLOAD_LEN: usize = 100;

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

/// The schemes measured, each with the ML-DSA backends it runs on.
fn scheme_list() -> Vec<(SignatureScheme, MlDsaBackend)> {
    let mut out = Vec::new();
    for scheme in SignatureScheme::all() {
        let backends: Vec<MlDsaBackend> = match scheme {
            SignatureScheme::Pq(PqAlgorithm::MlDsa44 | PqAlgorithm::MlDsa65 | PqAlgorithm::MlDsa87)
            | SignatureScheme::Composite(PqAlgorithm::MlDsa44) => MlDsaBackend::ALL.to_vec(),
            SignatureScheme::Ecdsa(c) if c != Curve::NistP256 => continue,
            _ => vec![MlDsaBackend::fastest()],
        };
        out.extend(backends.into_iter().map(|b| (scheme, b)));
    }
    out
}

fn backend_name(scheme: SignatureScheme, backend: MlDsaBackend) -> String {
    match scheme {
        SignatureScheme::Ecdsa(_) => "v2x-crypto's fastest ECDSA backend".into(),
        SignatureScheme::Pq(PqAlgorithm::FnDsa512 | PqAlgorithm::FnDsa1024)
        | SignatureScheme::Composite(PqAlgorithm::FnDsa512) => "fn-dsa 0.4".into(),
        SignatureScheme::Pq(PqAlgorithm::SlhDsaSha2_128s | PqAlgorithm::SlhDsaShake128f) => {
            "RustCrypto slh-dsa 0.2.0-rc.5".into()
        }
        _ => backend.name().into(),
    }
}

/// The plan of `scheme`'s rows: `plan`, except that SLH-DSA's samples may be single calls
/// (a signature of 10 ms to 1 s is far above the timer's resolution, and the plan's minimum
/// of samples per trial would take minutes); the number of trials is the plan's.
fn plan_for(plan: &Plan, scheme: SignatureScheme) -> Plan {
    match scheme {
        SignatureScheme::Pq(PqAlgorithm::SlhDsaSha2_128s | PqAlgorithm::SlhDsaShake128f) => Plan {
            warmup: std::time::Duration::ZERO,
            min_samples: 1,
            ..*plan
        },
        _ => *plan,
    }
}

/// One scheme on one backend, paired with P-256.
fn scheme_row(plan: &Plan, scheme: SignatureScheme, backend: MlDsaBackend) -> Result<SchemeRow, BenchError> {
    let plan = &plan_for(plan, scheme);
    let label = format!("{scheme} [{}]", backend.name());
    let p256 = SigningKey::generate(SignatureScheme::Ecdsa(Curve::NistP256)).map_err(err)?;
    let p256_sig = p256.sign(&INPUT).map_err(err)?;
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
    Ok(SchemeRow {
        scheme: scheme.name(),
        backend: backend_name(scheme, backend),
        public_key_bytes: scheme.public_key_len(),
        signature_bytes: scheme.signature_len(),
        keygen,
        sign,
        verify,
        sign_vs_p256: ratio(&sign_trials),
        verify_vs_p256: ratio(&verify_trials),
    })
}

/// Bytes on air of a CAM of `payload` bytes per design, beside the 1609.2 P-256 CAM whose
/// ticket holds what the designs' tickets hold (CAM and DENM permissions; no encryption key,
/// no assurance level: the `ieee1609.2` adapter's ticket, which the stack rows pair with).
pub fn designs(payload: &[u8]) -> Result<(usize, usize, Vec<DesignRow>), BenchError> {
    let now = TaiTime::parse_rfc3339("2026-11-21T12:00:00Z").map_err(err)?;
    let pki = v2x_security::InMemoryPki::builder()
        .now(now)
        .psids(&[v2x_wire::ItsAid::CAM, v2x_wire::ItsAid::DENM])
        .ticket_encryption_keys(false)
        .ticket_assurance_level(None)
        .build()
        .map_err(err)?;
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

/// The profile protocol id of a design (its name).
pub fn protocol_id(design: PqDesign) -> Result<ProtocolId, BenchError> {
    design
        .name()
        .parse()
        .map_err(|e: v2x_profile::UnknownName| BenchError::Setup(e.to_string()))
}

/// The `experimental-pq` spec of `design` and its `ieee1609.2` P-256 counterpart, under the
/// once-per-second rule or with the certificate on every message.
fn spec_pair(design: PqDesign, always_certificate: bool) -> Result<(Spec, Spec), BenchError> {
    let design_spec = Spec {
        protocol: protocol_id(design)?,
        message: MessageId::Cam,
        config: serde_json::json!({"protocol": "experimental-pq", "design": design.name(),
                                   "always_certificate": always_certificate}),
        note: "EXPERIMENTAL post-quantum design (no standard) through the Authenticator",
        handshake: false,
    };
    let reference = Spec {
        protocol: ProtocolId::Ieee16092,
        message: MessageId::Cam,
        config: serde_json::json!({"protocol": "ieee1609.2", "always_certificate": always_certificate}),
        note: "the P-256 counterpart of a post-quantum design",
        handshake: false,
    };
    Ok((design_spec, reference))
}

fn variant(always_certificate: bool) -> Variant {
    Variant {
        message: Some(MessageId::Cam),
        signer: always_certificate.then_some(SignerKind::Certificate),
        payload_bytes: Some(PAYLOAD_LEN as u32),
        ..Variant::default()
    }
}

/// One stack pair measured in interleaved trials.
fn stack_row(
    plan: &Plan,
    quick: bool,
    design: PqDesign,
    always_certificate: bool,
    operation: Operation,
) -> Result<(Measurement, StackRow), BenchError> {
    let (spec, reference) = spec_pair(design, always_certificate)?;
    let label = Label::new(Suite::Pq, spec.protocol, operation, variant(always_certificate)).note(spec.note);
    let setup = |s: Spec| match operation {
        Operation::Encap => encap_setup(s, PAYLOAD_LEN),
        _ => decap_setup(s, PAYLOAD_LEN, quick),
    };
    let mut a = setup(spec)()?;
    let mut b = setup(reference)()?;
    let (la, lb, trials) = measure_paired_trials(plan, &mut *a.op, &mut *b.op)?;
    let row = StackRow {
        key: label.key(),
        reference: CostKey::new(ProtocolId::Ieee16092, operation, label.key().variant),
        median_us: la.median_us,
        reference_median_us: lb.median_us,
        time_vs_p256: ratio(&trials),
        packet_bytes: a.packet_bytes,
        reference_packet_bytes: b.packet_bytes,
    };
    Ok((label.into_measurement(la, a.packet_bytes), row))
}

/// The stack pairs: every design, both certificate policies, ENCAP and DECAP.
fn stack_list() -> Vec<(PqDesign, bool, Operation)> {
    let mut out = Vec::new();
    for design in PqDesign::ALL {
        for always in [false, true] {
            for op in [Operation::Encap, Operation::Decap] {
                out.push((design, always, op));
            }
        }
    }
    out
}

/// Progress steps of [`run`].
pub fn steps() -> usize {
    scheme_list().len() + stack_list().len() + 1
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|_| "unknown".into())
}

/// Runs the suite; a scheme or pair that fails is reported in `skipped`.
pub fn run(
    plan: &Plan,
    quick: bool,
    bar: &dyn v2x_report::Progress,
    skipped: &mut Vec<String>,
) -> Result<(Vec<Measurement>, PqResult), BenchError> {
    let load_average_before = load_average();
    bar.step("pq sizes");
    let (standard_cam_digest_bytes, standard_cam_certificate_bytes, designs) = designs(&[0u8; PAYLOAD_LEN])?;
    let mut schemes = Vec::new();
    for (scheme, backend) in scheme_list() {
        bar.step(&format!("pq {scheme} [{}]", backend.name()));
        match scheme_row(plan, scheme, backend) {
            Ok(r) => schemes.push(r),
            Err(e) => skipped.push(format!("pq {scheme} [{}]: {e}", backend.name())),
        }
    }
    let mut measurements = Vec::new();
    let mut stack = Vec::new();
    for (design, always, op) in stack_list() {
        bar.step(&format!("pq {design} {op}"));
        match stack_row(plan, quick, design, always, op) {
            Ok((m, r)) => {
                measurements.push(m);
                stack.push(r);
            }
            Err(e) => skipped.push(format!("pq {design} {op} (always certificate: {always}): {e}")),
        }
    }
    Ok((
        measurements,
        PqResult {
            load_average_before,
            load_average_after: load_average(),
            payload_bytes: PAYLOAD_LEN,
            standard_cam_digest_bytes,
            standard_cam_certificate_bytes,
            designs,
            schemes,
            stack,
            notes: vec![
                "EXPERIMENTAL designs: no standard defines post-quantum V2X messages (v2x_security::pq)".into(),
                "every ratio is a time ratio to ECDSA P-256 (schemes) or to the ieee1609.2 P-256 adapter with the \
                 same certificate policy (stack), measured in interleaved trials of this run: > 1 is slower"
                    .into(),
                "SLH-DSA rows: one call per sample where a call outlasts the trial (min_samples 1, the plan's \
                 trials), so their intervals rest on fewer samples"
                    .into(),
            ],
        },
    ))
}

/// Packet sizes and schedules of every design (once-per-second rule), from `describe()` of a
/// configured sender: what the simulator takes from the profile.
pub fn packet_sizes(skipped: &mut Vec<String>) -> Vec<PacketSizes> {
    let mut out = Vec::new();
    for design in PqDesign::ALL {
        let described = spec_pair(design, false).and_then(|(spec, _)| {
            let config = serde_json::from_value(spec.config.clone()).map_err(BenchError::ProtocolConfig)?;
            let (tx, _) = v2x_protocols::build_pair(&config).map_err(err)?;
            Ok(sizes_of(&spec, &tx.describe()))
        });
        match described {
            Ok(s) => out.extend(s),
            Err(e) => skipped.push(format!("sizes of {design}: {e}")),
        }
    }
    out
}

/// The suite's tables as markdown.
pub fn markdown(r: &PqResult) -> String {
    let mut s = format!(
        "EXPERIMENTAL designs (no standard). Load average before: {}; after: {}. Times are medians; every \
         ratio is this time / the P-256 time in interleaved trials of the same run (median over trials \
         [95% bootstrap CI]).\n\n",
        r.load_average_before, r.load_average_after
    );
    s.push_str(&format!(
        "| design | message signature | certificate signature | certificate (B) | CAM {} B, digest (B) | CAM, certificate (B) | ×1609.2 P-256 |\n|---|---|---|---:|---:|---:|---:|\n",
        r.payload_bytes
    ));
    s.push_str(&format!(
        "| IEEE 1609.2 (standard) | ecdsa-p256 | ecdsa-p256 | — | {} | {} | 1.00 |\n",
        r.standard_cam_digest_bytes, r.standard_cam_certificate_bytes
    ));
    for d in &r.designs {
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
    let ci = |x: &Ratio| format!("{:.2} [{:.2}, {:.2}]", x.median, x.ci95[0], x.ci95[1]);
    s.push_str("\n| row | µs (median) | P-256 µs (median) | ×P-256 [95% CI] | bytes | P-256 bytes |\n|---|---:|---:|---|---:|---:|\n");
    for x in &r.stack {
        let b = |v: Option<usize>| v.map_or("—".into(), |v| v.to_string());
        s.push_str(&format!(
            "| `{}` | {:.1} | {:.1} | {} | {} | {} |\n",
            x.key,
            x.median_us,
            x.reference_median_us,
            ci(&x.time_vs_p256),
            b(x.packet_bytes),
            b(x.reference_packet_bytes)
        ));
    }
    s.push_str("\n| scheme | backend | pk (B) | sig (B) | keygen µs | sign µs [95% CI of mean] | verify µs [95% CI of mean] | sign ×P-256 [95% CI] | verify ×P-256 [95% CI] |\n|---|---|---:|---:|---:|---|---|---|---|\n");
    for x in &r.schemes {
        s.push_str(&format!(
            "| {} | {} | {} | {} | {:.1} | {:.1} [{:.1}, {:.1}] | {:.1} [{:.1}, {:.1}] | {} | {} |\n",
            x.scheme,
            x.backend,
            x.public_key_bytes,
            x.signature_bytes,
            x.keygen.median_us,
            x.sign.median_us,
            x.sign.ci95_low_us,
            x.sign.ci95_high_us,
            x.verify.median_us,
            x.verify.ci95_low_us,
            x.verify.ci95_high_us,
            ci(&x.sign_vs_p256),
            ci(&x.verify_vs_p256),
        ));
    }
    for n in &r.notes {
        s.push_str(&format!("\n- {n}"));
    }
    s.push('\n');
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

    #[test]
    fn every_design_is_a_profile_protocol_and_its_sizes_are_measured() {
        for d in PqDesign::ALL {
            assert!(protocol_id(d).unwrap().is_experimental_pq());
        }
        let mut skipped = Vec::new();
        let sizes = packet_sizes(&mut skipped);
        assert!(skipped.is_empty(), "{skipped:?}");
        assert_eq!(sizes.len(), PqDesign::ALL.len());
        for s in &sizes {
            s.check().unwrap();
            assert!(s.overhead_with_certificate_bytes.unwrap() > s.overhead_bytes);
        }
    }
}
