//! Detail trees of v1.2.1 structures for `v2x inspect` (spans are byte offsets in the
//! encoding, which equals the input because decoding is canonical).

use super::fmt::hex;
use super::Node;
use crate::cursor::Writer;
use crate::v1_2_1::codec::var_len_size;
use crate::v1_2_1::{
    Certificate, EccPoint, EncryptedKey, EncryptionParameters, GeographicRegion, HeaderField, PublicKey,
    SecuredMessage, Signature, SignerInfo, SubjectAttribute, TrailerField, V1Error, ValidityRestriction,
};

/// Decodes `bytes` as a SecuredMessage — or, failing that, as a Certificate — and returns its
/// detail tree. The error is the SecuredMessage's when neither decodes.
pub fn v1_2_1_tree(bytes: &[u8]) -> Result<Node, V1Error> {
    match SecuredMessage::from_bytes(bytes) {
        Ok(m) => Ok(v1_2_1_message_node(&m)),
        Err(e) => match Certificate::from_bytes(bytes) {
            Ok(c) => Ok(v1_2_1_certificate_node(&c, 0)),
            Err(_) => Err(e),
        },
    }
}

fn enc_len(f: impl FnOnce(&mut Writer)) -> usize {
    let mut w = Writer::new();
    f(&mut w);
    w.len()
}

fn point_node(label: &str, p: &EccPoint) -> Node {
    let mut n = Node::new(label).with_value(p.type_name());
    n.push(Node::leaf("x", hex(p.x())));
    match p {
        EccPoint::Uncompressed { y, .. } => {
            n.push(Node::leaf("y", hex(y)));
        }
        EccPoint::Other { data, .. } => {
            n.push(Node::leaf("data", hex(data)));
        }
        _ => {}
    }
    n
}

fn public_key_node(label: &str, k: &PublicKey) -> Node {
    let mut n = Node::new(label).with_value(k.algorithm().name());
    match k {
        PublicKey::Ecdsa { key, .. } => {
            n.push(point_node("public_key", key));
        }
        PublicKey::Ecies {
            supported_symm_alg,
            key,
            ..
        } => {
            n.push(Node::leaf("supported_symm_alg", supported_symm_alg.name()));
            n.push(point_node("public_key", key));
        }
        PublicKey::Other { data, .. } => {
            n.push(Node::leaf("other_key", hex(data)));
        }
    }
    n
}

fn signature_node(s: &Signature) -> Node {
    let mut n = Node::new("signature").with_value(s.algorithm().name());
    match s {
        Signature::Ecdsa { r, s, .. } => {
            n.push(point_node("R", r));
            n.push(Node::leaf("s", hex(s)));
        }
        Signature::Other { data, .. } => {
            n.push(Node::leaf("signature", hex(data)));
        }
    }
    n
}

fn region_node(r: &GeographicRegion) -> Node {
    match r {
        GeographicRegion::None => Node::leaf("region", "none"),
        GeographicRegion::Circle { center, radius } => Node::leaf(
            "region",
            format!(
                "circle centre ({}, {}) radius {radius} m",
                center.latitude, center.longitude
            ),
        ),
        GeographicRegion::Rectangle(rects) => {
            let mut n = Node::leaf("region", format!("{} rectangle(s)", rects.len()));
            for rc in rects {
                n.push(Node::leaf(
                    "rectangle",
                    format!(
                        "nw ({}, {}) se ({}, {})",
                        rc.northwest.latitude, rc.northwest.longitude, rc.southeast.latitude, rc.southeast.longitude
                    ),
                ));
            }
            n
        }
        GeographicRegion::Polygon(points) => {
            let mut n = Node::leaf("region", format!("polygon of {} points", points.len()));
            for p in points {
                n.push(Node::leaf("point", format!("({}, {})", p.latitude, p.longitude)));
            }
            n
        }
        GeographicRegion::Id {
            dictionary,
            identifier,
            local_region,
        } => Node::leaf(
            "region",
            format!("id dictionary {dictionary} identifier {identifier} local_region {local_region}"),
        ),
        GeographicRegion::Other { region_type, data } => {
            Node::leaf("region", format!("unknown({region_type}) {}", hex(data)))
        }
    }
}

fn signer_node(s: &SignerInfo, depth: usize) -> Node {
    let mut n = Node::new("signer_info").with_value(s.type_name());
    match s {
        SignerInfo::SelfSigned => {}
        SignerInfo::CertificateDigestWithSha256(d) => {
            n.push(Node::leaf("digest", hex(d)));
        }
        SignerInfo::Certificate(c) => {
            n.push(v1_2_1_certificate_node(c, depth + 1));
        }
        SignerInfo::CertificateChain(cs) => {
            for c in cs {
                n.push(v1_2_1_certificate_node(c, depth + 1));
            }
        }
        SignerInfo::CertificateDigestWithOtherAlgorithm { algorithm, digest } => {
            n.push(Node::leaf("algorithm", algorithm.name()));
            n.push(Node::leaf("digest", hex(digest)));
        }
        SignerInfo::Other { data, .. } => {
            n.push(Node::leaf("info", hex(data)));
        }
    }
    n
}

/// Tree of a certificate (`depth` only labels nesting).
pub fn v1_2_1_certificate_node(c: &Certificate, depth: usize) -> Node {
    let mut n = Node::new(if depth == 0 {
        "Certificate (TS 103 097 v1.2.1)"
    } else {
        "certificate"
    })
    .with_value(format!("{} bytes", c.to_bytes().len()));
    n.push(Node::leaf("version", c.version.to_string()));
    n.push(signer_node(&c.signer_info, depth));
    n.push(
        Node::new("subject_info")
            .child(Node::leaf("subject_type", c.subject_info.subject_type.name()))
            .child(Node::leaf(
                "subject_name",
                String::from_utf8_lossy(&c.subject_info.subject_name).into_owned(),
            )),
    );
    let mut attrs = Node::new("subject_attributes");
    for a in &c.subject_attributes {
        attrs.push(match a {
            SubjectAttribute::VerificationKey(k) => public_key_node("verification_key", k),
            SubjectAttribute::EncryptionKey(k) => public_key_node("encryption_key", k),
            SubjectAttribute::AssuranceLevel(l) => {
                Node::leaf("assurance_level", format!("level {} confidence {}", l >> 5, l & 0x03))
            }
            SubjectAttribute::ReconstructionValue(p) => point_node("reconstruction_value", p),
            SubjectAttribute::ItsAidList(l) => Node::leaf("its_aid_list", format!("{l:?}")),
            SubjectAttribute::ItsAidSspList(l) => {
                let mut m = Node::new("its_aid_ssp_list");
                for e in l {
                    m.push(Node::leaf(
                        format!("its_aid {}", e.its_aid),
                        hex(&e.service_specific_permissions),
                    ));
                }
                m
            }
            SubjectAttribute::Other { attribute_type, data } => {
                Node::leaf(format!("unknown({attribute_type})"), hex(data))
            }
        });
    }
    n.push(attrs);
    let mut vr = Node::new("validity_restrictions");
    for v in &c.validity_restrictions {
        vr.push(match v {
            ValidityRestriction::TimeEnd(e) => Node::leaf("time_end", format!("end {e}")),
            ValidityRestriction::TimeStartAndEnd { start, end } => {
                Node::leaf("time_start_and_end", format!("start {start} end {end}"))
            }
            ValidityRestriction::TimeStartAndDuration { start, duration } => Node::leaf(
                "time_start_and_duration",
                format!(
                    "start {start} duration unit {} value {}",
                    duration.unit(),
                    duration.value()
                ),
            ),
            ValidityRestriction::Region(r) => region_node(r),
            ValidityRestriction::Other { restriction_type, data } => {
                Node::leaf(format!("unknown({restriction_type})"), hex(data))
            }
        });
    }
    n.push(vr);
    n.push(signature_node(&c.signature));
    n
}

fn header_node(h: &HeaderField) -> Node {
    let label = h.type_name();
    match h {
        HeaderField::GenerationTime(t) => Node::leaf(label, format!("{t} us since 2004")),
        HeaderField::GenerationTimeWithStandardDeviation(t) => Node::leaf(
            label,
            format!("{} us since 2004, log std dev {}", t.time, t.log_std_dev),
        ),
        HeaderField::Expiration(t) => Node::leaf(label, format!("{t} s since 2004")),
        HeaderField::GenerationLocation(l) => Node::leaf(
            label,
            format!("lat {} lon {} elevation {}", l.latitude, l.longitude, hex(&l.elevation)),
        ),
        HeaderField::RequestUnrecognizedCertificate(ids) => {
            Node::leaf(label, ids.iter().map(|i| hex(i)).collect::<Vec<_>>().join(", "))
        }
        HeaderField::ItsAid(a) => Node::leaf(label, a.to_string()),
        HeaderField::SignerInfo(s) => signer_node(s, 0),
        HeaderField::EncryptionParameters(p) => match p {
            EncryptionParameters::AesCcm { algorithm, nonce } => Node::new(label)
                .with_value(algorithm.name())
                .child(Node::leaf("nonce", hex(nonce))),
            EncryptionParameters::Other { algorithm, params } => Node::new(label)
                .with_value(algorithm.name())
                .child(Node::leaf("params", hex(params))),
        },
        HeaderField::RecipientInfo(list) => {
            let mut n = Node::new(label).with_value(format!("{} recipient(s)", list.len()));
            for ri in list {
                let mut m = Node::new("recipient").with_value(hex(&ri.cert_id));
                m.push(Node::leaf("pk_encryption", ri.pk_encryption.name()));
                match &ri.enc_key {
                    EncryptedKey::Ecies(k) => {
                        m.push(point_node("v", &k.v));
                        m.push(Node::leaf("c", hex(&k.c)));
                        m.push(Node::leaf("t", hex(&k.t)));
                    }
                    EncryptedKey::Other(d) => {
                        m.push(Node::leaf("enc_key", hex(d)));
                    }
                }
                n.push(m);
            }
            n
        }
        HeaderField::Other { data, .. } => Node::leaf(label, hex(data)),
    }
}

/// Tree of a SecuredMessage, with byte spans of its parts.
pub fn v1_2_1_message_node(m: &SecuredMessage) -> Node {
    let total = m.to_bytes().len();
    let mut root = Node::new("SecuredMessage (TS 103 097 v1.2.1)")
        .with_value(format!("{total} bytes"))
        .with_span(0, total);
    root.push(Node::leaf("protocol_version", "2").with_span(0, 1));
    let mut off = 1;
    let hdr_body: usize = m.header_fields.iter().map(HeaderField::encoded_len).sum();
    let hdr_len = var_len_size(hdr_body as u64) + hdr_body;
    let mut hdr = Node::new("header_fields")
        .with_value(format!("{} field(s)", m.header_fields.len()))
        .with_span(off, hdr_len);
    let mut field_off = off + var_len_size(hdr_body as u64);
    for h in &m.header_fields {
        let l = h.encoded_len();
        hdr.push(header_node(h).with_span(field_off, l));
        field_off += l;
    }
    root.push(hdr);
    off += hdr_len;
    let pl_len = enc_len(|o| m.payload.encode(o));
    root.push(
        Node::new("payload_field")
            .with_value(m.payload.payload_type.name())
            .with_span(off, pl_len)
            .child(Node::leaf("data", format!("{} bytes", m.payload.data.len()))),
    );
    off += pl_len;
    let mut trl = Node::new("trailer_fields").with_span(off, total - off);
    for t in &m.trailer_fields {
        trl.push(match t {
            TrailerField::Signature(s) => signature_node(s),
            TrailerField::Other { field_type, data } => Node::leaf(format!("unknown({field_type})"), hex(data)),
        });
    }
    root.push(trl);
    root
}
