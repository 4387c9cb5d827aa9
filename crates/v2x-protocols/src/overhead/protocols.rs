//! Overhead rows of the lightweight protocols, measured on real encoded packets: each
//! row's total is the length of a packet the protocol produced minus the payload, and
//! its fields (from the layout documented in the protocol's module) must add up to it.

use super::row::{field as field_note, OverheadField, OverheadRow, PaperFigure};
use crate::authenticator::{data_packet, Authenticator, PacketKind, StationId, Timestamp};
use crate::hash_chain::{HashChainConfig, HashChainDeployment};
use crate::none::{NoneConfig, NoneStation};
use crate::session::crypto::{EncryptionAlg, SignatureAlg};
use crate::session::{measure_steps_with, Protection, Scheme, SessionConfig, Topology};
use crate::setup::{Role, SetupError};
use crate::tesla::{KeyDisclosure, TeslaConfig, TeslaDeployment, PAPER004_BSM_LEN, PAPER004_LINK_FRAMING};
use crate::two_flip::{TwoFlipConfig, TwoFlipDeployment};

fn field(name: &str, bytes: usize) -> OverheadField {
    field_note(name, bytes, "")
}

fn paper(source: &str, bytes: usize, ours: usize, why_not: &str) -> PaperFigure {
    PaperFigure {
        source: source.into(),
        bytes,
        explanation: if bytes == ours {
            "matches".into()
        } else {
            why_not.into()
        },
    }
}

fn row(protocol: &str, message: &str, variant: &str, total: usize, fields: Vec<OverheadField>) -> OverheadRow {
    OverheadRow {
        protocol: protocol.into(),
        message: message.into(),
        variant: variant.into(),
        fields,
        total_bytes: total,
        paper: Vec::new(),
    }
}

const NOW: Timestamp = Timestamp(10_000_000);
const PAYLOAD: &[u8] = &[0x5a; 39];

/// Bytes `s` adds to the payload of its data packet.
fn overhead(s: &mut dyn Authenticator) -> Result<usize, SetupError> {
    let packets = s.encap(PAYLOAD, NOW)?;
    let len = data_packet(&packets).map_or(0, |p| p.bytes.len());
    Ok(len.saturating_sub(PAYLOAD.len()))
}

fn none_rows() -> Result<Vec<OverheadRow>, SetupError> {
    let total = overhead(&mut NoneStation::new(StationId(1), NoneConfig::default()))?;
    Ok(vec![row(
        "none",
        "data",
        "claimed-sender",
        total,
        vec![field_note("claimed station id", 4, "not authenticated")],
    )])
}

fn hash_chain_rows() -> Result<Vec<OverheadRow>, SetupError> {
    let mut dep = HashChainDeployment::new(&HashChainConfig::default())?;
    let mut v = dep.station(StationId(1), Role::Vehicle)?;
    let mut rsu = dep.station(StationId(2), Role::RoadsideUnit)?;
    let v2v = overhead(&mut v)?;
    let v2i = overhead(&mut rsu)?;
    let mut r1 = row(
        "hash-chain",
        "v2v",
        "hmac-sha256/12",
        v2v,
        vec![
            field("key index", 4),
            field("timestamp", 4),
            field("pseudo-identity", 20),
            field("truncated HMAC-SHA256", 12),
        ],
    );
    r1.paper
        .push(paper("paper 001 Table 1 / §4.1", 40, v2v, "field sizes differ"));
    let mut r2 = row(
        "hash-chain",
        "v2i",
        "hmac-sha256/12+ecdsa-p256",
        v2i,
        vec![
            field("key index (V2I flag)", 4),
            field("timestamp", 4),
            field_note("RSU certificate", 117, "compact explicit certificate, see cert.rs"),
            field("truncated HMAC-SHA256", 12),
            field("ECDSA P-256 signature", 64),
        ],
    );
    r2.paper
        .push(paper("paper 001 Table 1 / §4.1", 201, v2i, "field sizes differ"));
    Ok(vec![r1, r2])
}

fn tesla_rows() -> Result<Vec<OverheadRow>, SetupError> {
    let mut rows = Vec::new();
    for disclosure in [KeyDisclosure::Separate, KeyDisclosure::Attached] {
        let config = TeslaConfig::paper004(disclosure);
        let mut dep = TeslaDeployment::new(&config)?;
        let mut s = dep.station(StationId(1), Role::Vehicle)?;
        let out = s.encap(PAYLOAD, NOW)?;
        let sec = data_packet(&out)
            .map_or(0, |p| p.bytes.len())
            .saturating_sub(PAYLOAD.len());
        let attached = disclosure == KeyDisclosure::Attached;
        let name = config.protocol_name();
        let variant = if attached {
            "paper004/attached"
        } else {
            "paper004/separate"
        };
        let mut fields = vec![
            field("type", 1),
            field_note("sender address", 6, "stands for the 802.11 source address"),
        ];
        fields.push(field("interval index", 4));
        if attached {
            fields.push(field("disclosed key K(i-d), 80 bit", 10));
        }
        fields.push(field("HMAC-SHA1, truncated", 10));
        rows.push(row(name, "data", variant, sec, fields.clone()));
        let mut frame_fields = vec![field_note(
            "802.11 header + FCS",
            PAPER004_LINK_FRAMING,
            "24 + 4, less the 6-byte source address above",
        )];
        frame_fields.extend(fields);
        frame_fields.push(field_note(
            "BSM Part I payload",
            PAPER004_BSM_LEN,
            "DSRC msgID + 38-byte BSMblob",
        ));
        let frame = PAPER004_LINK_FRAMING + sec + PAYLOAD.len();
        let mut r = row(name, "data-frame", variant, frame, frame_fields);
        r.paper.push(paper(
            "paper 004 §IV-A",
            if attached { 92 } else { 82 },
            frame,
            "frame reconstruction differs",
        ));
        rows.push(r);
        let commitment = out
            .iter()
            .find(|p| p.kind == PacketKind::Commitment)
            .map(|p| p.bytes.len())
            .unwrap_or(0);
        let body = config.format().commitment_body_len();
        rows.push(row(
            name,
            "commitment",
            &format!("{variant}/ieee1609.2"),
            commitment,
            vec![
                field("type", 1),
                field_note(
                    "commitment body",
                    body,
                    "sender address 6, T0 8, interval 4, d 1, N 4, K0 10",
                ),
                field_note(
                    "IEEE 1609.2 signed data",
                    commitment.saturating_sub(1 + body),
                    "header, signer certificate, ECDSA P-256 signature (v2x-security SN-ENCAP)",
                ),
            ],
        ));
        if !attached {
            let key = s.poll(NOW.plus_micros(config.interval_us)).send;
            let key_len = key.first().map(|p| p.bytes.len()).unwrap_or(0);
            let fields = vec![
                field("type", 1),
                field("sender address", 6),
                field("interval index", 4),
                field("key", 10),
            ];
            rows.push(row(name, "key-packet", variant, key_len, fields.clone()));
            let mut frame_fields = vec![field_note(
                "802.11 header + FCS",
                PAPER004_LINK_FRAMING,
                "less the source address",
            )];
            frame_fields.extend(fields);
            let frame = PAPER004_LINK_FRAMING + key_len;
            let mut r = row(name, "key-frame", variant, frame, frame_fields);
            r.paper
                .push(paper("paper 004 §IV-A", 43, frame, "frame reconstruction differs"));
            rows.push(r);
        }
    }
    let config = TeslaConfig::paper001();
    let mut dep = TeslaDeployment::new(&config)?;
    let mut s = dep.station(StationId(1), Role::Vehicle)?;
    let sec = overhead(&mut s)?;
    let mut r = row(
        config.protocol_name(),
        "data",
        "paper001/attached/signed",
        sec,
        vec![
            field("certificate digest", 8),
            field("timestamp (ms)", 6),
            field("disclosed key K(i-1)", 32),
            field("HMAC-SHA256", 32),
            field("ECDSA P-256 signature", 64),
        ],
    );
    r.paper
        .push(paper("paper 001 Table 9 / eq. 6", 142, sec, "field sizes differ"));
    rows.push(r);
    Ok(rows)
}

fn two_flip_rows() -> Result<Vec<OverheadRow>, SetupError> {
    let mut dep = TwoFlipDeployment::new(&TwoFlipConfig::default());
    let mut s = dep.station(StationId(1), Role::Vehicle)?;
    let sec = overhead(&mut s)?;
    let mut r = row(
        "2flip",
        "data",
        "sha1",
        sec,
        vec![
            field("PID: key epoch", 3),
            field("PID: masked driver identity", 20),
            field("sigma: HMAC-SHA1", 20),
            field("timestamp", 4),
        ],
    );
    r.paper
        .push(paper("paper 001 Table 9 / eq. 5", 47, sec, "field sizes differ"));
    Ok(vec![r])
}

/// Paper 003 evaluates 1024-byte messages; the session rows use the same payload.
pub const SESSION_PAYLOAD_LEN: usize = 1024;

fn session_rows() -> Result<Vec<OverheadRow>, SetupError> {
    let mut rows = Vec::new();
    let c = |scheme, topology, protection, signature, encryption| SessionConfig {
        scheme,
        topology,
        protection,
        signature,
        encryption,
        ..SessionConfig::default()
    };
    use EncryptionAlg as E;
    use Protection as P;
    use Scheme::{RayaHubaux as Rh, Wang};
    use SignatureAlg as S;
    use Topology::{Group, Pairwise};
    let configs = [
        c(Rh, Pairwise, P::Hmac, S::Rsa, E::Rsa),
        c(Rh, Pairwise, P::Hmac, S::Rsa, E::Ecies),
        c(Rh, Pairwise, P::Hmac, S::Dsa, E::Rsa),
        c(Rh, Pairwise, P::Hmac, S::Dsa, E::Ecies),
        c(Rh, Pairwise, P::Hmac, S::Ecdsa, E::Ecies),
        c(Rh, Group, P::Hmac, S::Ecdsa, E::Ecies),
        c(Wang, Pairwise, P::EncryptThenSignMac, S::Rsa, E::Ecies),
        c(Wang, Pairwise, P::EncryptThenSignMac, S::Dsa, E::Ecies),
        c(Wang, Pairwise, P::Encrypt, S::Ecdsa, E::Ecies),
        c(Wang, Pairwise, P::EncryptSignedMac, S::Ecdsa, E::Ecies),
        c(Wang, Pairwise, P::EncryptThenSignMac, S::Ecdsa, E::Ecies),
        c(Wang, Group, P::Encrypt, S::Ecdsa, E::Ecies),
    ];
    for config in configs {
        let steps = measure_steps_with(&config, SESSION_PAYLOAD_LEN)?;
        let variant = config.variant();
        for step in steps {
            let fields = if step.message == "data" {
                vec![
                    field("header: type, session, sequence", 13),
                    field_note(
                        "protection",
                        step.overhead.saturating_sub(13),
                        format!("{:?}", config.protection),
                    ),
                ]
            } else {
                vec![field_note(
                    "whole message",
                    step.overhead,
                    "control message, no payload",
                )]
            };
            let mut r = row(config.protocol_name(), &step.message, &variant, step.overhead, fields);
            let paper_wang_dsa = config.scheme == Wang
                && config.signature == S::Dsa
                && config.topology == Pairwise
                && config.protection == P::EncryptThenSignMac;
            if paper_wang_dsa && step.message == "handshake-1" {
                r.paper.push(paper(
                    "paper 003 Table 4 step 1",
                    2088,
                    step.overhead,
                    "paper assumes a 1024-byte M1 and a 1024-byte certificate (Table 2) plus a 40-byte DSA signature; \
                     ours is the real encoding of (g, p, Y_A), a DSA certificate and the signature",
                ));
            }
            if paper_wang_dsa && step.message == "data" {
                r.paper.push(paper(
                    "paper 003 Table 4 step 4 (1080 - 1024)",
                    56,
                    step.overhead,
                    "paper: 16 bytes of AES padding + 40-byte DSA signature; ours: 13-byte header, 2 length \
                     prefixes, 16-byte CCM tag, 40-byte DSA signature",
                ));
            }
            rows.push(r);
        }
    }
    Ok(rows)
}

/// Every row of the lightweight protocols.
pub fn rows() -> Result<Vec<OverheadRow>, SetupError> {
    let mut rows = none_rows()?;
    rows.extend(hash_chain_rows()?);
    rows.extend(tesla_rows()?);
    rows.extend(two_flip_rows()?);
    rows.extend(session_rows()?);
    Ok(rows)
}
