//! Trees of v2xsec's EXPERIMENTAL post-quantum messages and certificates (crate::experimental_pq).

use super::{dot2, AttemptError, Node};
use crate::experimental_pq::{scheme_id, CertKind, PqCertificate, PqSecuredMessage, PqSigner, Tagged};

const NOTICE: &str = "v2xsec experimental post-quantum format (0xE1): NOT IEEE 1609.2 / TS 103 097";

fn scheme_name(id: u8) -> &'static str {
    match id {
        scheme_id::ECDSA_P256 => "ecdsa-p256",
        scheme_id::ECDSA_P384 => "ecdsa-p384",
        scheme_id::ECDSA_BP256 => "ecdsa-bp256",
        scheme_id::ECDSA_BP384 => "ecdsa-bp384",
        scheme_id::ML_DSA_44 => "ml-dsa-44",
        scheme_id::ML_DSA_65 => "ml-dsa-65",
        scheme_id::ML_DSA_87 => "ml-dsa-87",
        scheme_id::FN_DSA_512 => "fn-dsa-512",
        scheme_id::FN_DSA_1024 => "fn-dsa-1024",
        scheme_id::SLH_DSA_SHA2_128S => "slh-dsa-sha2-128s",
        scheme_id::SLH_DSA_SHAKE_128F => "slh-dsa-shake-128f",
        scheme_id::ECDSA_P256_ML_DSA_44 => "ecdsa-p256+ml-dsa-44",
        scheme_id::ECDSA_P256_FN_DSA_512 => "ecdsa-p256+fn-dsa-512",
        _ => "unknown",
    }
}

fn tagged(label: &str, t: &Tagged) -> Node {
    Node::new(label)
        .child(Node::leaf(
            "scheme",
            format!("{} ({:#04x})", scheme_name(t.scheme), t.scheme),
        ))
        .child(Node::leaf("length", format!("{} bytes", t.bytes.len())))
}

fn design_name(d: u8) -> String {
    match d {
        1 => "pq-only (1)".into(),
        2 => "composite (2)".into(),
        3 => "partially hybrid, NDSS 2024 (3)".into(),
        other => format!("unknown ({other})"),
    }
}

pub(super) fn certificate_node(c: &PqCertificate, len: usize) -> Node {
    let mut perms = Node::new("permissions");
    for p in &c.permissions {
        perms.push(Node::leaf(
            format!("PSID {}", p.psid),
            format!("SSP {}", super::fmt::hex(&p.ssp)),
        ));
    }
    Node::new("PqCertificate")
        .with_value(format!("{len} bytes"))
        .child(Node::leaf(
            "kind",
            match c.kind {
                CertKind::Root => "root",
                CertKind::Authority => "authority",
                CertKind::EndEntity => "end entity",
            },
        ))
        .child(Node::leaf("issuer", super::fmt::hex(&c.issuer)))
        .child(Node::leaf("name", c.name.clone()))
        .child(Node::leaf(
            "validity",
            format!("start {} (Time32), {} s", c.start, c.duration),
        ))
        .child(perms)
        .child(Node::leaf("max depth", c.max_depth.to_string()))
        .child(tagged("subject key", &c.key))
        .child(tagged("issuer signature", &c.signature))
}

/// The tree of an experimental message or certificate.
pub(super) fn tree(bytes: &[u8]) -> Result<Node, AttemptError> {
    if let Ok(m) = PqSecuredMessage::decode(bytes) {
        let tbs = match crate::ieee1609dot2::decode_exact::<rasn_its::ieee1609dot2::ToBeSignedData>(&m.tbs) {
            Ok(t) => dot2::tbs_data_node(&t),
            Err(e) => Node::leaf("tbsData", format!("does not decode: {e}")),
        };
        let signer = match &m.signer {
            PqSigner::Digest(d) => Node::leaf("signer", format!("digest {}", super::fmt::hex(d))),
            PqSigner::Certificate(c) => match PqCertificate::decode(c) {
                Ok((cert, _)) => Node::new("signer").child(certificate_node(&cert, c.len())),
                Err(e) => Node::leaf("signer", format!("certificate does not decode: {e}")),
            },
        };
        return Ok(Node::new("PqSecuredMessage")
            .with_value(format!("{} bytes", bytes.len()))
            .child(Node::leaf("notice", NOTICE))
            .child(Node::leaf("design", design_name(m.design)))
            .child(tbs.with_value(format!("{} bytes (IEEE 1609.2 ToBeSignedData)", m.tbs.len())))
            .child(signer)
            .child(tagged("signature", &m.signature)));
    }
    let (c, _) = PqCertificate::decode(bytes).map_err(AttemptError::ExperimentalPq)?;
    Ok(Node::new("experimental certificate")
        .child(Node::leaf("notice", NOTICE))
        .child(certificate_node(&c, bytes.len())))
}
