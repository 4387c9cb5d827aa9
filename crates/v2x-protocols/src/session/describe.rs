//! What the session-key schemes cost: operations per message, and message sizes
//! measured on a real exchange between two stations.

use super::config::{Protection, Scheme, SessionConfig, Topology};
use super::crypto::{EncryptionAlg, SignatureAlg};
use crate::authenticator::{Authenticator, DecapOutcome, PacketKind, Timestamp};
use crate::describe::{CryptoOp, CurveName, MessageDescription, OpCount, ProtocolDescription, Schedule};
use crate::loopback::Link;
use crate::setup::SetupError;

fn sig_ops(alg: SignatureAlg, verify: bool) -> CryptoOp {
    match (alg, verify) {
        (SignatureAlg::Ecdsa, false) => CryptoOp::EcdsaSign(CurveName::P256),
        (SignatureAlg::Ecdsa, true) => CryptoOp::EcdsaVerify(CurveName::P256),
        (SignatureAlg::Rsa, false) => CryptoOp::RsaSign,
        (SignatureAlg::Rsa, true) => CryptoOp::RsaVerify,
        (SignatureAlg::Dsa, false) => CryptoOp::DsaSign,
        (SignatureAlg::Dsa, true) => CryptoOp::DsaVerify,
    }
}

fn enc_ops(alg: EncryptionAlg, decrypt: bool) -> CryptoOp {
    match (alg, decrypt) {
        (EncryptionAlg::Ecies, false) => CryptoOp::EciesEncrypt(CurveName::P256),
        (EncryptionAlg::Ecies, true) => CryptoOp::EciesDecrypt(CurveName::P256),
        (EncryptionAlg::Rsa, false) => CryptoOp::RsaEncrypt,
        (EncryptionAlg::Rsa, true) => CryptoOp::RsaDecrypt,
    }
}

/// Operation counts per message, with the sizes `sizes` measured on real messages
/// ([`super::deployment::measure_steps`]).
pub fn describe(config: &SessionConfig, sizes: &[StepSize]) -> ProtocolDescription {
    let sign = OpCount::new(sig_ops(config.signature, false), 1);
    let verify = OpCount::new(sig_ops(config.signature, true), 1);
    let cert_verify = OpCount::new(sig_ops(config.signature, true), 1);
    let hmac = OpCount::new(CryptoOp::HmacSha1, 1);
    let wang = config.scheme == Scheme::Wang;
    let dh = [OpCount::new(CryptoOp::DhKeygen, 1), OpCount::new(CryptoOp::DhDerive, 1)];
    let (data_send, data_recv) = match config.protection {
        Protection::Hmac => (vec![hmac], vec![hmac]),
        Protection::Encrypt => (
            vec![OpCount::new(CryptoOp::AesEncrypt, 1)],
            vec![OpCount::new(CryptoOp::AesDecrypt, 1)],
        ),
        _ => (
            vec![OpCount::new(CryptoOp::AesEncrypt, 1), hmac, sign],
            vec![OpCount::new(CryptoOp::AesDecrypt, 1), hmac, verify],
        ),
    };
    let size = |name: &str| {
        sizes
            .iter()
            .find(|s| s.message == name)
            .map(|s| (s.overhead, s.total))
            .unwrap_or((0, 0))
    };
    let msg = |name: &str, schedule, sender_ops: Vec<OpCount>, receiver_ops: Vec<OpCount>, depends| {
        let (overhead, total) = size(name);
        MessageDescription {
            message: name.into(),
            overhead_bytes: overhead,
            packet_bytes: total,
            overhead_depends_on_payload: depends,
            schedule,
            sender_ops,
            receiver_ops,
        }
    };
    let mut messages = Vec::new();
    match config.topology {
        Topology::Pairwise => {
            let mut s1 = vec![sign];
            let mut r1 = vec![cert_verify, verify];
            let mut s2 = vec![sign];
            let mut r2 = vec![cert_verify, verify];
            if wang {
                s1.extend(dh.iter().take(1));
                r1.extend(dh);
                s2.push(hmac);
                r2.extend([dh[1], hmac]);
            }
            messages.push(msg("handshake-1", Schedule::Once, s1, r1, false));
            messages.push(msg("handshake-2", Schedule::Once, s2, r2, false));
            let (s3, r3) = if wang {
                (vec![hmac], vec![hmac])
            } else {
                (
                    vec![OpCount::new(enc_ops(config.encryption, false), 1), sign],
                    vec![OpCount::new(enc_ops(config.encryption, true), 1), verify],
                )
            };
            messages.push(msg("handshake-3", Schedule::Once, s3, r3, false));
        }
        Topology::Group => {
            messages.push(msg(
                "group-key",
                Schedule::Once,
                vec![OpCount::new(enc_ops(config.encryption, false), 1), sign],
                vec![cert_verify, verify, OpCount::new(enc_ops(config.encryption, true), 1)],
                false,
            ));
        }
    }
    messages.push(msg(
        "data",
        Schedule::EveryPayload,
        data_send,
        data_recv,
        config.protection != Protection::Hmac,
    ));
    ProtocolDescription {
        protocol: config.protocol_name().into(),
        variant: config.variant(),
        reference_payload_len: crate::describe::REFERENCE_PAYLOAD_LEN,
        messages,
        delayed_verification: None,
        notes: vec![
            "handshake receivers verify the peer certificate once (cached by encoding)".into(),
            "group-key sizes are for one member; a Wang group message grows by one entry per member".into(),
        ],
    }
}

/// Size of one message of a run, measured from its encoding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StepSize {
    pub message: String,
    /// Bytes other than the application payload.
    pub overhead: usize,
    pub total: usize,
}

/// `a` sends a `payload_len`-byte payload to `b` (which must be set up to talk to each
/// other: `a` connected to `b`, or `a` leading `b`'s group); every message of the
/// exchange, with its size.
pub fn measure_exchange(
    a: &mut dyn Authenticator,
    b: &mut dyn Authenticator,
    payload_len: usize,
) -> Result<Vec<StepSize>, SetupError> {
    let payload = vec![0x42u8; payload_len];
    let x = Link::new().send(&mut [a, b], 0, &payload, Timestamp::from_millis(1_000))?;
    let mut steps = Vec::new();
    for d in x.deliveries {
        if let DecapOutcome::Rejected(r) = d.outcome {
            return Err(SetupError::Rejected(r));
        }
        let (message, overhead) = match d.kind {
            PacketKind::Handshake(n) => (format!("handshake-{n}"), d.bytes.len()),
            PacketKind::GroupKey => ("group-key".into(), d.bytes.len()),
            _ => ("data".into(), d.bytes.len().saturating_sub(payload_len)),
        };
        steps.push(StepSize {
            message,
            overhead,
            total: d.bytes.len(),
        });
    }
    Ok(steps)
}
