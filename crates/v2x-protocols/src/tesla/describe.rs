//! What TESLA costs: bytes and operations per message type, and the verification delay.

use super::config::{TeslaConfig, TeslaLayout};
use crate::describe::{
    CryptoOp, CurveName, DelayedVerification, MessageDescription, OpCount, ProtocolDescription, Schedule,
};

/// Sizes and costs of TESLA for `config`, with commitments of `commitment_len` bytes
/// (measured for the 1609.2 bootstrap: [`super::deployment::measured_commitment_len`]).
pub fn describe(config: &TeslaConfig, commitment_len: usize) -> ProtocolDescription {
    let f = config.format();
    let reference = crate::describe::REFERENCE_PAYLOAD_LEN;
    let curve = CurveName::from(config.curve);
    let (mac, hash) = match f.layout {
        TeslaLayout::Paper004 => (CryptoOp::HmacSha1, CryptoOp::Sha1),
        TeslaLayout::Paper001 => (CryptoOp::HmacSha256, CryptoOp::Sha256),
    };
    // Sender: MAC-key PRF (an HMAC) + the MAC. Receiver: one chain hash to authenticate
    // the interval's key, the MAC-key PRF, the MAC.
    let mut sender_ops = vec![OpCount::new(mac, 2)];
    let mut receiver_ops = vec![OpCount::new(hash, 1), OpCount::new(mac, 2)];
    if f.layout == TeslaLayout::Paper001 {
        sender_ops.push(OpCount::new(CryptoOp::EcdsaSign(curve), 1));
        receiver_ops.push(OpCount::new(CryptoOp::EcdsaVerify(curve), 1));
    }
    let mut messages = vec![MessageDescription {
        message: "data".into(),
        overhead_bytes: f.data_overhead(),
        packet_bytes: f.data_overhead() + reference,
        overhead_depends_on_payload: false,
        schedule: Schedule::EveryPayload,
        sender_ops,
        receiver_ops,
    }];
    if !f.attached {
        messages.push(MessageDescription {
            message: "key-packet".into(),
            overhead_bytes: f.key_packet_len(),
            packet_bytes: f.key_packet_len(),
            overhead_depends_on_payload: false,
            schedule: Schedule::Periodic {
                every_us: config.interval_us,
            },
            sender_ops: vec![],
            receiver_ops: vec![OpCount::new(hash, 1)],
        });
    }
    messages.push(MessageDescription {
        message: "commitment".into(),
        overhead_bytes: commitment_len,
        packet_bytes: commitment_len,
        overhead_depends_on_payload: false,
        schedule: Schedule::Periodic {
            every_us: config.commitment_period_us,
        },
        sender_ops: vec![OpCount::new(CryptoOp::EcdsaSign(curve), 1)],
        receiver_ops: vec![OpCount::new(CryptoOp::EcdsaVerify(curve), 2)],
    });
    ProtocolDescription {
        protocol: config.protocol_name().into(),
        variant: format!(
            "{}/{}",
            match f.layout {
                TeslaLayout::Paper004 => "paper004",
                TeslaLayout::Paper001 => "paper001",
            },
            if f.attached { "attached" } else { "separate" }
        ),
        reference_payload_len: reference,
        messages,
        delayed_verification: Some(DelayedVerification {
            interval_us: config.interval_us,
            disclosure_delay_intervals: config.disclosure_delay,
            key_attached: f.attached,
            max_hold_us: config.max_hold_us,
        }),
        notes: vec![
            "a data packet is verified only when its interval's key (or any later one) arrives".into(),
            "commitment receivers verify the sender certificate and the commitment signature (2 ECDSA verifies)".into(),
        ],
    }
}
