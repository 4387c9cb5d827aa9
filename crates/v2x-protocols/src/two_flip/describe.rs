//! What 2FLIP costs: 47 bytes, 7 hashes + MAC to sign, 2 hashes + MAC to verify.

use super::wire::OVERHEAD;
use crate::describe::{CryptoOp, MessageDescription, OpCount, ProtocolDescription, Schedule};

/// Sizes and costs of 2FLIP.
pub fn describe() -> ProtocolDescription {
    let reference = crate::describe::REFERENCE_PAYLOAD_LEN;
    ProtocolDescription {
        protocol: "2flip".into(),
        variant: "sha1".into(),
        reference_payload_len: reference,
        messages: vec![MessageDescription {
            message: "data".into(),
            overhead_bytes: OVERHEAD,
            packet_bytes: OVERHEAD + reference,
            overhead_depends_on_payload: false,
            schedule: Schedule::EveryPayload,
            sender_ops: vec![OpCount::new(CryptoOp::Sha1, 7), OpCount::new(CryptoOp::HmacSha1, 1)],
            receiver_ops: vec![OpCount::new(CryptoOp::Sha1, 2), OpCount::new(CryptoOp::HmacSha1, 1)],
        }],
        delayed_verification: None,
        notes: vec![
            "reconstruction of Wang et al.'s 2FLIP matching paper 001's sizes and operation counts; see module docs"
                .into(),
            "every TPD holds the epoch's system key: the MAC proves an unrevoked TPD signed, not which one".into(),
        ],
    }
}
