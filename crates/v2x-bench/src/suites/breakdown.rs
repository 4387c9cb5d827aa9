//! The breakdown suite: where ENCAP / DECAP time goes in the headline configuration
//! (IEEE 1609.2, P-256, digest-signed CAM of 100 bytes), measured with interleaved trials
//! so that differences between the parts are not load.

use super::stack::{decap_setup, encap_setup, err, rejected, request, Pki2, Variant};
use crate::task::{Label, Prepared, Task};
use crate::{BenchError, Suite};
use std::hint::black_box;
use v2x_crypto::{Curve, PrivateKey};
use v2x_profile::{CurveId, MessageId, Operation, ProtocolId, Variant as CostVariant};
use v2x_security::{EncapRequest, ProfileKind, SignerPolicy};

/// A part of the breakdown: the headline configuration, P-256 CAM of 100 bytes.
fn breakdown_label(op: Operation) -> Label {
    let variant = CostVariant {
        curve: Some(CurveId::P256),
        message: Some(MessageId::Cam),
        payload_bytes: Some(100),
        ..CostVariant::default()
    };
    Label::new(Suite::Breakdown, ProtocolId::Ieee16092, op, variant)
}

/// Where ENCAP / DECAP time goes (headline configuration, P-256 CAM, 100 bytes): the
/// crypto calls the entity makes, the encoding / decoding without crypto, and DECAP
/// without the strict checks (signature-only lab mode).
fn breakdown_parts() -> Vec<Task> {
    let v = Variant::headline();
    let label = |op: Operation, note: &str| breakdown_label(op).note(note);
    let mut out = Vec::new();
    out.push(Task {
        label: label(
            Operation::CryptoSign,
            "v2x-crypto PrivateKey::sign_digest, the call ENCAP makes",
        ),
        setup: Box::new(|| {
            let k = PrivateKey::generate(Curve::NistP256)?;
            let d = v2x_crypto::sha256(b"digest");
            Ok(Prepared::new(Box::new(move || {
                black_box(k.sign_digest(&d)?);
                Ok(())
            })))
        }),
    });
    out.push(Task {
        label: label(
            Operation::CryptoVerify,
            "v2x-crypto PublicKey::verify_digest, the call DECAP makes",
        ),
        setup: Box::new(|| {
            let k = PrivateKey::generate(Curve::NistP256)?;
            let d = v2x_crypto::sha256(b"digest");
            let sig = k.sign_digest(&d)?;
            let public = k.public_key().clone();
            Ok(Prepared::new(Box::new(move || {
                if !public.verify_digest(&d, &sig)? {
                    return Err(BenchError::Setup("valid signature rejected".into()));
                }
                Ok(())
            })))
        }),
    });
    out.push(Task {
        label: label(
            Operation::EncapUnsigned,
            "SN-ENCAP of unsecured data: the entity and encoding without crypto",
        ),
        setup: Box::new(move || {
            let pki = Pki2::new(v.curve)?;
            let mut sender = pki.sender(&v)?;
            let payload = v2x_crypto::random_bytes(v.payload);
            Ok(Prepared::new(Box::new(move || {
                black_box(
                    sender
                        .encap(&EncapRequest::cam(&payload).unsigned())
                        .map_err(err("encap"))?,
                );
                Ok(())
            })))
        }),
    });
    out.push(Task {
        label: label(
            Operation::DecapUnsigned,
            "SN-DECAP of unsecured data (receiver opted in): decoding without crypto",
        ),
        setup: Box::new(move || {
            let pki = Pki2::new(v.curve)?;
            let mut sender = pki.sender(&v)?;
            let payload = v2x_crypto::random_bytes(v.payload);
            let msg = sender
                .encap(&EncapRequest::cam(&payload).unsigned())
                .map_err(err("encap"))?
                .bytes;
            let mut rx = pki.entity(&pki.receiver);
            rx.policy_mut().accept_unsigned = true;
            Ok(Prepared::new(Box::new(move || {
                black_box(rx.decap(&msg).map_err(rejected)?);
                Ok(())
            })))
        }),
    });
    out.push(Task {
        label: label(
            Operation::DecapSignatureOnly,
            "SN-DECAP in the signature-only lab mode (no chain, validity, freshness, replay checks)",
        ),
        setup: Box::new(move || {
            let pki = Pki2::new(v.curve)?;
            let mut sender = pki.sender(&v)?;
            let recipient = pki.receiver.certificate.clone();
            let payload = v2x_crypto::random_bytes(v.payload);
            let primer_variant = Variant { certificate: true, ..v };
            let mut primer_sender = pki.entity(&pki.sender);
            primer_sender.encap_profile_mut(ProfileKind::Cam).signer = SignerPolicy::Certificate;
            let primer = primer_sender
                .encap(&request(&primer_variant, &payload, &recipient))
                .map_err(err("encap"))?
                .bytes;
            let msg = sender
                .encap(&request(&v, &payload, &recipient))
                .map_err(err("encap"))?
                .bytes;
            let mut rx = pki.entity(&pki.receiver);
            rx.decap(&primer).map_err(rejected)?;
            rx.set_decap_mode(v2x_security::DecapMode::SignatureOnly);
            rx.decap(&msg).map_err(rejected)?;
            Ok(Prepared::new(Box::new(move || {
                black_box(rx.decap(&msg).map_err(rejected)?);
                Ok(())
            })))
        }),
    });
    out
}

/// The breakdown groups, each measured with interleaved trials: the sign side (raw
/// OpenSSL sign, the v2x-crypto call, encoding without crypto, full ENCAP) and the verify
/// side (raw verify, the v2x-crypto call, decoding without crypto, signature-only DECAP,
/// strict DECAP). Differences between members of a group are where the stack's time goes.
pub fn breakdown_groups(quick: bool) -> Vec<Vec<Task>> {
    let v = Variant::headline();
    let raw = |op: Operation, verify: bool| Task {
        label: breakdown_label(op).note("raw OpenSSL ECDSA over a precomputed digest"),
        setup: Box::new(move || {
            let c =
                crate::suites::raw::ecdsa_curve(CurveId::P256).ok_or_else(|| BenchError::Setup("no P-256".into()))?;
            let r = crate::suites::raw::RawEcdsa::new(c)?;
            Ok(Prepared::new(if verify { r.verify_op() } else { r.sign_op() }))
        }),
    };
    let full = |op: Operation, decap: bool| Task {
        label: breakdown_label(op).note("full strict SN-ENCAP / SN-DECAP, as in the stack suite"),
        setup: if decap { decap_setup(v, quick) } else { encap_setup(v) },
    };
    let mut parts = breakdown_parts().into_iter();
    let mut take = || parts.next();
    let (crypto_sign, crypto_verify, encap_unsigned, decap_unsigned, decap_sig_only) =
        (take(), take(), take(), take(), take());
    let mut sign_side = vec![raw(Operation::RawSign, false)];
    sign_side.extend(crypto_sign);
    sign_side.extend(encap_unsigned);
    sign_side.push(full(Operation::Encap, false));
    let mut verify_side = vec![raw(Operation::RawVerify, true)];
    verify_side.extend(crypto_verify);
    verify_side.extend(decap_unsigned);
    verify_side.extend(decap_sig_only);
    verify_side.push(full(Operation::Decap, true));
    vec![sign_side, verify_side]
}
