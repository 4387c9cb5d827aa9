//! What the hash-chain protocol costs: bytes and operations per message type.

use super::config::{HashChainConfig, Link};
use super::wire::{v2i_overhead, PID_LEN, V2V_OVERHEAD};
use crate::describe::{CryptoOp, CurveName, MessageDescription, OpCount, ProtocolDescription, Schedule};

/// Sizes and costs of the hash-chain protocol for `config`.
pub fn describe(config: &HashChainConfig) -> ProtocolDescription {
    let reference = crate::describe::REFERENCE_PAYLOAD_LEN;
    let curve = CurveName::from(config.rsu_curve);
    let v2i_overhead = v2i_overhead(config.rsu_curve);
    let hmac = OpCount::new(CryptoOp::HmacSha256, 1);
    ProtocolDescription {
        protocol: "hash-chain".into(),
        variant: match config.pair_link {
            Link::V2v => "v2v".into(),
            Link::V2i => "v2i".into(),
        },
        reference_payload_len: reference,
        messages: vec![
            MessageDescription {
                message: "v2v".into(),
                overhead_bytes: V2V_OVERHEAD,
                packet_bytes: V2V_OVERHEAD + reference,
                overhead_depends_on_payload: false,
                schedule: Schedule::EveryPayload,
                sender_ops: vec![hmac],
                receiver_ops: vec![hmac],
            },
            MessageDescription {
                message: "v2i".into(),
                overhead_bytes: v2i_overhead,
                packet_bytes: v2i_overhead + reference,
                overhead_depends_on_payload: false,
                schedule: Schedule::EveryPayload,
                sender_ops: vec![hmac, OpCount::new(CryptoOp::EcdsaSign(curve), 1)],
                receiver_ops: vec![hmac, OpCount::new(CryptoOp::EcdsaVerify(curve), 1)],
            },
            MessageDescription {
                message: "revocation".into(),
                overhead_bytes: v2i_overhead,
                packet_bytes: v2i_overhead + 2 + PID_LEN,
                overhead_depends_on_payload: false,
                schedule: Schedule::OnEvent,
                sender_ops: vec![hmac, OpCount::new(CryptoOp::EcdsaSign(curve), 1)],
                receiver_ops: vec![hmac, OpCount::new(CryptoOp::EcdsaVerify(curve), 1)],
            },
        ],
        delayed_verification: None,
        notes: vec![
            "every registered vehicle holds the same key table: a MAC proves membership, not which PID sent it".into(),
            "V2I receivers verify the RSU certificate once (one more ECDSA verify), then cache it by digest".into(),
            format!(
                "timestamp in ms mod 2^32; freshness window {} ms; replay cache by MAC tag",
                config.freshness_window_ms
            ),
        ],
    }
}
