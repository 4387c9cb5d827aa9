//! Overhead rows of IEEE 1609.2 / TS 103 097 v2 in C-OER, from real SN-ENCAPs of the
//! v2x-security entity: every field is the encoding of the message's own part, and
//! encrypted messages are decrypted to list the inner message's fields too.

use super::row::{diff, field, OverheadField, OverheadRow, PaperFigure};
use super::standard::{EtsiOverheadError, PAYLOAD_LEN, T0};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;
use v2x_crypto::Curve;
use v2x_security::encryption::{decrypt, DecryptionKey};
use v2x_security::memory_pki::InMemoryPki;
use v2x_security::time::TaiTime;
use v2x_security::{EncapRequest, Location, ProfileKind, Recipient, SecurityEntity, SignerPolicy};
use v2x_wire::ieee1609dot2 as d2;
use v2x_wire::ItsAid;

fn enc_len<T: v2x_wire::rasn::Encode + 'static>(v: &T) -> Result<usize, EtsiOverheadError> {
    Ok(d2::encode(v)?.len())
}

/// The PKI of the rows: tickets for CAM (36) and DENM (37) valid from `start`, with an
/// encryption key when the curve has 1609.2 ECIES (P-256, brainpoolP256r1), without
/// assurance level.
fn pki(curve: Curve, start: TaiTime) -> Result<InMemoryPki, EtsiOverheadError> {
    Ok(InMemoryPki::builder()
        .curve(curve)
        .now(start)
        .psids(&[ItsAid::CAM, ItsAid::DENM])
        .ticket_backdate(Duration::ZERO)
        .ticket_encryption_keys(matches!(curve, Curve::NistP256 | Curve::BrainpoolP256r1))
        .ticket_assurance_level(None)
        .build()?)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Prot {
    Sign,
    Encrypt,
    SignEncrypt,
}

/// Field breakdown of an Ieee1609Dot2Data; `keys` decrypt nested encrypted data.
fn walk(
    bytes: &[u8],
    keys: &[DecryptionKey],
    fields: &mut Vec<OverheadField>,
    depth: usize,
) -> Result<usize, EtsiOverheadError> {
    let data: d2::Ieee1609Dot2Data = d2::decode_exact(bytes)?;
    let layer = if depth == 0 { "" } else { "inner " };
    let mut parts = 0;
    let mut payload = 0;
    if let Some(sd) = d2::signed_data(&data) {
        let h = d2::encode_header_info(d2::header_info(sd))?.len();
        let signer = enc_len(&sd.signer)?;
        let sig = enc_len(&sd.signature)?;
        let signer_kind = if d2::signer_digest(sd).is_some() {
            "digest"
        } else {
            "certificate"
        };
        fields.push(field(format!("{layer}hashId"), 1, ""));
        fields.push(field(
            format!("{layer}headerInfo"),
            h,
            "psid, generationTime (+ generationLocation)",
        ));
        fields.push(field(format!("{layer}signer ({signer_kind})"), signer, ""));
        fields.push(field(
            format!("{layer}signature"),
            sig,
            "ecdsa: r (choice + x-only) and s",
        ));
        parts += 1 + h + signer + sig;
        payload = d2::signed_payload_data(sd)
            .and_then(d2::unsecured_data)
            .map(<[u8]>::len)
            .unwrap_or(0);
    } else if let Some(ed) = d2::encrypted_data(&data) {
        let rec = enc_len(&ed.recipients)?;
        fields.push(field(
            format!("{layer}recipients (ECIES-wrapped key)"),
            rec,
            "HashedId8, V, c, t",
        ));
        fields.push(field(format!("{layer}AES-CCM nonce"), 12, ""));
        fields.push(field(format!("{layer}AES-CCM tag"), 16, ""));
        // The plaintext is the inner (signed or unsecured) message: its own fields
        // are listed by the recursive call; only the framing around the ciphertext
        // remains at this level.
        let map = HashMap::new();
        let plain = decrypt(ed, keys, &map).map_err(EtsiOverheadError::Decrypt)?.plaintext;
        let inner = walk(&plain, keys, fields, depth + 1)?;
        let framing = bytes.len() - rec - 28 - plain.len();
        fields.push(field(
            format!("{layer}C-OER framing (version, choice tags, length prefixes)"),
            framing,
            "",
        ));
        return Ok(bytes.len() - (plain.len() - inner));
    } else if let Some(u) = d2::unsecured_data(&data) {
        payload = u.len();
    }
    let framing = bytes.len() - parts - payload;
    fields.push(field(
        format!("{layer}C-OER framing (version, choice tags, length prefixes)"),
        framing,
        "",
    ));
    Ok(bytes.len() - payload)
}

fn one(message: &str, prot: Prot, digest: bool, curve: Curve) -> Result<Option<OverheadRow>, EtsiOverheadError> {
    let encrypts = prot != Prot::Sign;
    if encrypts && !matches!(curve, Curve::NistP256 | Curve::BrainpoolP256r1) {
        return Ok(None); // 1609.2 has ECIES only on P-256 and brainpoolP256r1
    }
    let start = TaiTime(T0 * 1_000_000);
    let p = pki(curve, start)?;
    let me = p.ticket()?;
    let peer = p.ticket()?;
    let mut entity = SecurityEntity::with_credentials(p.store(), me, vec![Arc::clone(&p.aa.certificate)]);
    let kind = match message {
        "cam" => ProfileKind::Cam,
        "denm" => ProfileKind::Denm,
        _ => ProfileKind::Generic,
    };
    entity.encap_profile_mut(kind).signer = if digest {
        SignerPolicy::DigestWithCertificateEvery(Duration::from_secs(3600))
    } else {
        SignerPolicy::Certificate
    };
    let payload = [0x5au8; PAYLOAD_LEN];
    let location = Location {
        point: v2x_security::GeoPoint {
            lat: 481_000_000,
            lon: 115_000_000,
        },
        elevation: 0,
    };
    let mut bytes = Vec::new();
    // With a digest policy the first message still carries the certificate (the
    // entity's certificate clock runs on CAMs, so a CAM goes first).
    if digest {
        entity.encap(&EncapRequest::new(ProfileKind::Cam, &payload).at(TaiTime(start.0)))?;
    }
    for i in 0..2u64 {
        let mut req = EncapRequest::new(kind, &payload)
            .at(TaiTime(start.0 + 1_000 + i * 100_000))
            .with_psid(ItsAid::CAM);
        if kind == ProfileKind::Denm {
            req = req.with_psid(ItsAid::DENM).with_location(location);
        }
        if encrypts {
            req = req.encrypted_to(Recipient::Certificate(Arc::clone(&peer.certificate)));
        }
        if prot == Prot::Encrypt {
            req = req.unsigned();
        }
        let out = entity.encap(&req)?;
        bytes = out.bytes;
        if !digest || !out.signer_was_certificate || prot == Prot::Encrypt {
            break;
        }
    }
    if digest && prot != Prot::Encrypt {
        let data: d2::Ieee1609Dot2Data = d2::decode_exact(&bytes)?;
        let signed_by_digest = match d2::signed_data(&data) {
            Some(sd) => d2::signer_digest(sd).is_some(),
            None => true, // encrypted outside: the inner message is checked by `walk`'s labels
        };
        if !signed_by_digest {
            return Err(EtsiOverheadError::NoDigestSigner {
                message: message.into(),
            });
        }
    }
    let keys = match &peer.encryption_key {
        Some(k) => vec![DecryptionKey {
            certificate: Arc::clone(&peer.certificate),
            key: k.clone(),
        }],
        None => Vec::new(),
    };
    let mut fields = Vec::new();
    let total = walk(&bytes, &keys, &mut fields, 0)?;
    let prot_name = match prot {
        Prot::Sign => "sign",
        Prot::Encrypt => "encrypt",
        Prot::SignEncrypt => "sign+encrypt",
    };
    let signer = if prot == Prot::Encrypt {
        "no-signer"
    } else if digest {
        "digest"
    } else {
        "certificate"
    };
    let mut variant = format!("{prot_name}/{signer}/{}", curve.short_name());
    if encrypts {
        variant.push_str("/aes128");
    }
    let mut paper = Vec::new();
    if message == "cam" && curve == Curve::NistP256 {
        let fig = if digest { 93 } else { 180 };
        let signer_len = fields
            .iter()
            .find(|f| f.name.starts_with("signer"))
            .map(|f| f.bytes)
            .unwrap_or(0);
        let why = if digest {
            "With a digest signer the message is headerInfo (psid, generationTime), the 9-byte digest signer and the 66-byte signature in C-OER framing, the same fields the MK5 sends.".to_string()
        } else {
            format!(
                "Our signer field holds an explicit certificate ({signer_len} bytes with its SEQUENCE OF framing: verification key, two PSID/SSPs, encryption key, AA's signature). 180 − 93 + 9 = 96 bytes of certificate on the MK5 fits an implicit (ECQV) ticket, which carries a reconstruction value instead of a key and has no signature."
            )
        };
        paper.push(PaperFigure {
            source: format!(
                "paper 001 Table 1 (IEEE 1609.2, OBU BSM with {}; Cohda MK5)",
                if digest {
                    "certificate digest"
                } else {
                    "full certificate"
                }
            ),
            bytes: fig,
            explanation: format!("{}. {why}", diff(total, fig)),
        });
    }
    Ok(Some(OverheadRow {
        protocol: "etsi-ts103097-v2 / ieee1609.2".into(),
        message: message.into(),
        variant,
        fields,
        total_bytes: total,
        paper,
    }))
}

/// Rows of the v2 (IEEE 1609.2 / TS 103 097 v2, C-OER) stack. Curves: all four for
/// signing; encryption only on P-256 and brainpoolP256r1 (the only ECIES curves of
/// 1609.2) and only with AES-128-CCM (1609.2 defines no AES-256).
pub fn v2_rows() -> Result<Vec<OverheadRow>, EtsiOverheadError> {
    let mut rows = Vec::new();
    for curve in Curve::ALL {
        for digest in [true, false] {
            rows.extend(one("cam", Prot::Sign, digest, curve)?);
        }
        rows.extend(one("denm", Prot::Sign, false, curve)?);
        for digest in [true, false] {
            rows.extend(one("generic", Prot::Sign, digest, curve)?);
            rows.extend(one("generic", Prot::SignEncrypt, digest, curve)?);
        }
        rows.extend(one("generic", Prot::Encrypt, false, curve)?);
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row<'a>(rows: &'a [OverheadRow], message: &str, variant: &str) -> &'a OverheadRow {
        rows.iter()
            .find(|r| r.message == message && r.variant == variant)
            .unwrap_or_else(|| panic!("{message} {variant}"))
    }

    #[test]
    fn every_v2_row_adds_up_and_the_digest_cam_has_the_hand_computed_size() {
        let rows = v2_rows().unwrap();
        assert!(rows.len() >= 20, "{}", rows.len());
        for r in &rows {
            assert!(r.is_consistent(), "{} {}: {:?}", r.message, r.variant, r.fields);
        }
        // 1609.2 signed CAM, digest, P-256 (C-OER): protocolVersion 1, content choice 1,
        // hashId 1, tbsData: payload (SignedDataPayload preamble 1, data: version 1 +
        // choice 1 + length 1 + 100 payload), headerInfo (preamble 1, psid 1+1,
        // generationTime 8) = 11, signer digest 1+8, signature 1 + (1+32) + 32.
        let cam = row(&rows, "cam", "sign/digest/p256");
        let expected = 1 + 1 + 1 + (1 + 1 + 1 + 1) + 11 + 9 + 66;
        assert_eq!(cam.total_bytes, expected, "{:?}", cam.fields);
    }
}
