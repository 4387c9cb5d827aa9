//! Trees of IEEE 1609.2 / TS 103 097 v2 secured data, certificates and TS 102 941 trust lists.

use super::fmt::hex;
use super::{AttemptError, Node};
use crate::ieee1609dot2::{
    self as d2, BasePublicEncryptionKey, Certificate, CertificateId, CertificateType, Duration, EccP256CurvePoint,
    EccP384CurvePoint, EncryptedData, EncryptedDataEncryptionKey, EncryptionKey, GeographicRegion, HashAlgorithm,
    HashedData, HeaderInfo, IdentifiedRegion, Ieee1609Dot2Content, Ieee1609Dot2Data, IssuerIdentifier,
    PsidGroupPermissions, PublicEncryptionKey, PublicVerificationKey, RecipientInfo, SequenceOfPsidSsp,
    ServiceSpecificPermissions, Signature, SignedData, SignedDataSpans, SignerIdentifier, SubjectPermissions,
    SymmetricCiphertext, SymmetricEncryptionKey, ThreeDLocation, Time32, Time64, TwoDLocation,
    VerificationKeyIndicator,
};
use crate::tai::rfc3339_from_unix_micros;
use crate::trust_list::{SignedTrustList, TrustListDeletion, TrustListEntry, TrustListIssuer};
use crate::ts102941::{
    CertificateSubjectAttributes, EcSignature, EtsiTs102941Data, EtsiTs102941DataContent, PublicKeys, SharedAtRequest,
};
use crate::ItsAid;
use std::ops::Range;

fn span(n: Node, r: &Range<usize>) -> Node {
    n.with_span(r.start, r.end.saturating_sub(r.start))
}

/// Tree of an `Ieee1609Dot2Data` that fills `bytes`.
pub(crate) fn data_tree(bytes: &[u8]) -> Result<Node, AttemptError> {
    let (data, spans) = d2::parse_data(bytes)?;
    Ok(data_node(&data, spans.as_ref())
        .with_value(format!("{} bytes", bytes.len()))
        .with_span(0, bytes.len()))
}

/// Tree of a certificate that fills `bytes`.
pub(crate) fn certificate_tree(bytes: &[u8]) -> Result<Node, AttemptError> {
    let (cert, spans) = d2::parse_certificate(bytes)?;
    let mut n = certificate_node(&cert);
    n.value = Some(format!("{} bytes", bytes.len()));
    n.span = Some((0, bytes.len()));
    if let Some(tbs) = n.children.iter_mut().find(|c| c.label == "toBeSigned") {
        tbs.span = Some((spans.to_be_signed.start, spans.to_be_signed.len()));
    }
    Ok(n)
}

fn time64(t: &Time64) -> String {
    match d2::unix_micros_from_time64(t) {
        Some(us) => format!("{} ({} us TAI since 2004)", rfc3339_from_unix_micros(us), t.0),
        None => format!("{} us TAI since 2004 (out of range)", t.0),
    }
}

pub(super) fn time32(t: &Time32) -> String {
    let unix = d2::unix_from_time32(t);
    format!(
        "{} ({} s TAI since 2004)",
        rfc3339_from_unix_micros(unix.saturating_mul(1_000_000)),
        t.0
    )
}

pub(super) fn psid(p: &d2::Psid) -> String {
    match d2::psid_value(p) {
        Some(v) => match ItsAid(v).description() {
            Some(name) => format!("{v} (0x{v:x}, {name})"),
            None => format!("{v} (0x{v:x})"),
        },
        None => format!("{} (out of range)", p.0),
    }
}

pub(super) fn hash_name(h: &HashAlgorithm) -> &'static str {
    match h {
        HashAlgorithm::Sha256 => "sha256",
        HashAlgorithm::Sha384 => "sha384",
        HashAlgorithm::Sm3 => "sm3",
        _ => "unknown hash algorithm",
    }
}

fn two_d(label: &str, l: &TwoDLocation) -> Node {
    let lat = d2::latitude_degrees(&l.latitude).map_or("unavailable".to_string(), |d| format!("{d:.7}"));
    let lon = d2::longitude_degrees(&l.longitude).map_or("unavailable".to_string(), |d| format!("{d:.7}"));
    Node::leaf(label, format!("lat {lat}°, lon {lon}°"))
}

fn three_d(label: &str, l: &ThreeDLocation) -> Node {
    let lat = d2::latitude_degrees(&l.latitude).map_or("unavailable".to_string(), |d| format!("{d:.7}"));
    let lon = d2::longitude_degrees(&l.longitude).map_or("unavailable".to_string(), |d| format!("{d:.7}"));
    Node::leaf(
        label,
        format!(
            "lat {lat}°, lon {lon}°, elevation {:.1} m",
            d2::elevation_metres(&l.elevation)
        ),
    )
}

pub(super) fn p256_point(label: &str, p: &EccP256CurvePoint) -> Node {
    match p {
        EccP256CurvePoint::XOnly(x) => Node::leaf(label, format!("x-only {}", hex(x.as_ref()))),
        EccP256CurvePoint::Fill(()) => Node::leaf(label, "fill"),
        EccP256CurvePoint::CompressedY0(x) => Node::leaf(label, format!("compressed-y-0 {}", hex(x.as_ref()))),
        EccP256CurvePoint::CompressedY1(x) => Node::leaf(label, format!("compressed-y-1 {}", hex(x.as_ref()))),
        EccP256CurvePoint::Uncompressed(u) => Node::new(label)
            .with_value("uncompressed")
            .child(Node::leaf("x", hex(u.x.as_ref())))
            .child(Node::leaf("y", hex(u.y.as_ref()))),
    }
}

pub(super) fn p384_point(label: &str, p: &EccP384CurvePoint) -> Node {
    match p {
        EccP384CurvePoint::XOnly(x) => Node::leaf(label, format!("x-only {}", hex(x.as_ref()))),
        EccP384CurvePoint::Fill(()) => Node::leaf(label, "fill"),
        EccP384CurvePoint::CompressedY0(x) => Node::leaf(label, format!("compressed-y-0 {}", hex(x.as_ref()))),
        EccP384CurvePoint::CompressedY1(x) => Node::leaf(label, format!("compressed-y-1 {}", hex(x.as_ref()))),
        EccP384CurvePoint::Uncompressed(u) => Node::new(label)
            .with_value("uncompressed")
            .child(Node::leaf("x", hex(u.x.as_ref())))
            .child(Node::leaf("y", hex(u.y.as_ref()))),
    }
}

fn signature_node(s: &Signature) -> Node {
    let (alg, r, s_bytes) = match s {
        Signature::EcdsaNistP256(sig) => (
            "ecdsaNistP256Signature",
            p256_point("rSig", &sig.r_sig),
            hex(sig.s_sig.as_ref()),
        ),
        Signature::EcdsaBrainpoolP256r1(sig) => (
            "ecdsaBrainpoolP256r1Signature",
            p256_point("rSig", &sig.r_sig),
            hex(sig.s_sig.as_ref()),
        ),
        Signature::EcdsaBrainpoolP384r1(sig) => (
            "ecdsaBrainpoolP384r1Signature",
            p384_point("rSig", &sig.r_sig),
            hex(sig.s_sig.as_ref()),
        ),
        Signature::EcdsaNistP384(sig) => (
            "ecdsaNistP384Signature",
            p384_point("rSig", &sig.r_sig),
            hex(sig.s_sig.as_ref()),
        ),
        Signature::Sm2(sig) => (
            "sm2Signature",
            Node::leaf("rSig", hex(sig.r_sig.as_ref())),
            hex(sig.s_sig.as_ref()),
        ),
        other => return Node::leaf("signature", format!("unknown alternative {other:?}")),
    };
    Node::new("signature")
        .with_value(alg)
        .child(r)
        .child(Node::leaf("sSig", s_bytes))
}

fn header_info_node(h: &HeaderInfo) -> Node {
    let mut n = Node::new("headerInfo");
    n.push(Node::leaf("psid", psid(&h.psid)));
    if let Some(t) = &h.generation_time {
        n.push(Node::leaf("generationTime", time64(t)));
    }
    if let Some(t) = &h.expiry_time {
        n.push(Node::leaf("expiryTime", time64(t)));
    }
    if let Some(l) = &h.generation_location {
        n.push(three_d("generationLocation", l));
    }
    if let Some(id) = &h.p2pcd_learning_request {
        n.push(Node::leaf("p2pcdLearningRequest", hex(id.0.as_ref())));
    }
    if let Some(m) = &h.missing_crl_identifier {
        n.push(Node::leaf(
            "missingCrlIdentifier",
            format!("cracaId {}, crlSeries {}", hex(m.craca_id.0.as_ref()), m.crl_series.0),
        ));
    }
    if let Some(k) = &h.encryption_key {
        n.push(match k {
            EncryptionKey::Public(p) => public_encryption_key("encryptionKey", p),
            EncryptionKey::Symmetric(SymmetricEncryptionKey::Aes128Ccm(k)) => {
                Node::leaf("encryptionKey", format!("symmetric aes128Ccm {}", hex(k.as_ref())))
            }
            EncryptionKey::Symmetric(SymmetricEncryptionKey::Sm4Ccm(k)) => {
                Node::leaf("encryptionKey", format!("symmetric sm4Ccm {}", hex(k.as_ref())))
            }
            other => Node::leaf("encryptionKey", format!("unknown alternative {other:?}")),
        });
    }
    if let Some(ids) = &h.inline_p2pcd_request {
        let list: Vec<String> = ids.0.iter().map(|i| hex(i.0.as_ref())).collect();
        n.push(Node::leaf("inlineP2pcdRequest", list.join(", ")));
    }
    if let Some(c) = &h.requested_certificate {
        let mut cn = certificate_node(c);
        cn.label = "requestedCertificate".into();
        n.push(cn);
    }
    if let Some(t) = &h.pdu_functional_type {
        n.push(Node::leaf("pduFunctionalType", format!("{t:?}")));
    }
    if let Some(x) = &h.contributed_extensions {
        n.push(Node::leaf("contributedExtensions", format!("{} block(s)", x.0.len())));
    }
    n
}

/// A `ToBeSignedData` on its own (the experimental post-quantum wrapper carries one).
pub(super) fn tbs_data_node(t: &rasn_its::ieee1609dot2::ToBeSignedData) -> Node {
    let mut payload = Node::new("payload");
    if let Some(inner) = &t.payload.data {
        let mut d = data_node(inner, None);
        d.label = "data".into();
        payload.push(d);
    }
    Node::new("tbsData")
        .child(payload)
        .child(header_info_node(&t.header_info))
}

fn signed_data_node(s: &SignedData, spans: Option<&SignedDataSpans>) -> Node {
    let mut n = Node::new("signedData");
    n.push(Node::leaf("hashId", hash_name(&s.hash_id)));
    let mut tbs = Node::new("tbsData");
    if let Some(sp) = spans {
        tbs = span(tbs, &sp.tbs_data);
    }
    let mut payload = Node::new("payload");
    if let Some(inner) = &s.tbs_data.payload.data {
        // Spans cover the outer layer; the nested data gets its own range only.
        let mut d = data_node(inner, None);
        d.label = "data".into();
        if let Some(r) = spans.and_then(|sp| sp.payload_data.as_ref()) {
            d = span(d, r);
        }
        payload.push(d);
    }
    if let Some(h) = &s.tbs_data.payload.ext_data_hash {
        payload.push(match h {
            HashedData::Sha256HashedData(x) => Node::leaf("extDataHash", format!("sha256 {}", hex(x.0.as_ref()))),
            HashedData::Sha384HashedData(x) => Node::leaf("extDataHash", format!("sha384 {}", hex(x.0.as_ref()))),
            HashedData::Sm3HashedData(x) => Node::leaf("extDataHash", format!("sm3 {}", hex(x.0.as_ref()))),
            other => Node::leaf("extDataHash", format!("unknown alternative {other:?}")),
        });
    }
    if s.tbs_data.payload.omitted.is_some() {
        payload.push(Node::leaf("omitted", "payload omitted (known to both ends)"));
    }
    tbs.push(payload);
    tbs.push(header_info_node(&s.tbs_data.header_info));
    n.push(tbs);
    let signer = match &s.signer {
        SignerIdentifier::Digest(d) => Node::leaf("signer", format!("digest {}", hex(d.0.as_ref()))),
        SignerIdentifier::Certificate(certs) => {
            let mut sn = Node::new("signer").with_value(format!("certificate ({})", certs.0.len()));
            for (i, c) in certs.0.iter().enumerate() {
                let mut cn = certificate_node(c);
                if let Some(r) = spans.and_then(|sp| sp.signer_certificates.get(i)) {
                    cn = span(cn, r);
                }
                sn.push(cn);
            }
            sn
        }
        SignerIdentifier::SelfSigned(()) => Node::leaf("signer", "self"),
        other => Node::leaf("signer", format!("unknown alternative {other:?}")),
    };
    n.push(signer);
    n.push(signature_node(&s.signature));
    n
}

fn ciphertext_node(label: &str, c: &SymmetricCiphertext) -> Node {
    let (alg, ct) = match c {
        SymmetricCiphertext::Aes128ccm(ct) => ("aes128ccm", ct),
        SymmetricCiphertext::Sm4Ccm(ct) => ("sm4Ccm", ct),
        other => return Node::leaf(label, format!("unknown alternative {other:?}")),
    };
    Node::new(label)
        .with_value(alg)
        .child(Node::leaf("nonce", hex(ct.nonce.as_ref())))
        .child(Node::leaf(
            "ccmCiphertext",
            format!("{} bytes: {}", ct.ccm_ciphertext.0.len(), hex(&ct.ccm_ciphertext.0)),
        ))
}

fn pk_recipient(label: &str, id: &d2::HashedId8, key: &EncryptedDataEncryptionKey) -> Node {
    let (alg, k) = match key {
        EncryptedDataEncryptionKey::EciesNistP256(k) => ("eciesNistP256", Some(k)),
        EncryptedDataEncryptionKey::EciesBrainpoolP256r1(k) => ("eciesBrainpoolP256r1", Some(k)),
        EncryptedDataEncryptionKey::EcencSm2256(_) => ("ecencSm2256", None),
        _ => ("unknown alternative", None),
    };
    let mut enc = Node::new("encKey").with_value(alg);
    if let Some(k) = k {
        enc.push(p256_point("v", &k.v));
        enc.push(Node::leaf("c", hex(k.c.as_ref())));
        enc.push(Node::leaf("t", hex(k.t.as_ref())));
    }
    Node::new(label)
        .child(Node::leaf("recipientId", hex(id.0.as_ref())))
        .child(enc)
}

fn encrypted_data_node(e: &EncryptedData) -> Node {
    let mut n = Node::new("encryptedData");
    let mut recips = Node::new("recipients").with_value(format!("{}", e.recipients.0.len()));
    for r in &e.recipients.0 {
        recips.push(match r {
            RecipientInfo::PskRecipInfo(id) => Node::leaf("pskRecipInfo", hex(id.0 .0.as_ref())),
            RecipientInfo::SymmRecipInfo(s) => Node::new("symmRecipInfo")
                .child(Node::leaf("recipientId", hex(s.recipient_id.0.as_ref())))
                .child(ciphertext_node("encKey", &s.enc_key)),
            RecipientInfo::CertRecipInfo(p) => pk_recipient("certRecipInfo", &p.recipient_id, &p.enc_key),
            RecipientInfo::SignedDataRecipInfo(p) => pk_recipient("signedDataRecipInfo", &p.recipient_id, &p.enc_key),
            RecipientInfo::RekRecipInfo(p) => pk_recipient("rekRecipInfo", &p.recipient_id, &p.enc_key),
        });
    }
    n.push(recips);
    n.push(ciphertext_node("ciphertext", &e.ciphertext));
    n
}

/// Tree of secured data (spans, when given, are those `parse_data` returned for it).
pub fn data_node(d: &Ieee1609Dot2Data, spans: Option<&SignedDataSpans>) -> Node {
    let mut n = Node::new("Ieee1609Dot2Data");
    n.push(Node::leaf("protocolVersion", d.protocol_version.to_string()));
    let content = match &d.content {
        Ieee1609Dot2Content::UnsecuredData(o) => {
            let mut c = Node::new("content").with_value("unsecuredData").child(Node::leaf(
                "unsecuredData",
                format!("{} bytes: {}", o.0.len(), hex(&o.0)),
            ));
            // A TS 102 941 message (request, response, CRL) shows as one; trust lists have
            // their own tree (`trust_list_node`).
            if let Ok(m) = crate::ts102941::decode(&o.0) {
                use crate::ts102941::EtsiTs102941DataContent as C;
                if !matches!(m.content, C::CertificateTrustListTlm(_) | C::CertificateTrustListRca(_)) {
                    c.push(etsi_ts102941_data_node(&m));
                }
            }
            c
        }
        Ieee1609Dot2Content::SignedData(s) => Node::new("content")
            .with_value("signedData")
            .child(signed_data_node(s, spans)),
        Ieee1609Dot2Content::EncryptedData(e) => Node::new("content")
            .with_value("encryptedData")
            .child(encrypted_data_node(e)),
        Ieee1609Dot2Content::SignedCertificateRequest(o) => Node::new("content")
            .with_value("signedCertificateRequest")
            .child(Node::leaf("request", hex(&o.0))),
        Ieee1609Dot2Content::SignedX509CertificateRequest(o) => Node::new("content")
            .with_value("signedX509CertificateRequest")
            .child(Node::leaf("request", hex(&o.0))),
        other => Node::leaf("content", format!("unknown alternative {other:?}")),
    };
    n.push(content);
    n
}

pub(super) fn duration_secs(d: &Duration) -> (String, u64) {
    match d {
        Duration::Microseconds(v) => (format!("{v} microseconds"), 0),
        Duration::Milliseconds(v) => (format!("{v} milliseconds"), u64::from(*v) / 1000),
        Duration::Seconds(v) => (format!("{v} seconds"), u64::from(*v)),
        Duration::Minutes(v) => (format!("{v} minutes"), u64::from(*v) * 60),
        Duration::Hours(v) => (format!("{v} hours"), u64::from(*v) * 3600),
        Duration::SixtyHours(v) => (format!("{v} sixty-hour units"), u64::from(*v) * 216_000),
        // 1609.2 §6.4.15: a year is 31 556 952 s.
        Duration::Years(v) => (format!("{v} years"), u64::from(*v) * 31_556_952),
    }
}

pub(super) fn region_node(r: &GeographicRegion) -> Node {
    match r {
        GeographicRegion::CircularRegion(c) => Node::new("region")
            .with_value("circularRegion")
            .child(two_d("center", &c.center))
            .child(Node::leaf("radius", format!("{} m", c.radius))),
        GeographicRegion::RectangularRegion(rs) => {
            let mut n = Node::new("region").with_value(format!("rectangularRegion ({})", rs.0.len()));
            for r in &rs.0 {
                n.push(
                    Node::new("rectangle")
                        .child(two_d("northWest", &r.north_west))
                        .child(two_d("southEast", &r.south_east)),
                );
            }
            n
        }
        GeographicRegion::PolygonalRegion(p) => {
            let mut n = Node::new("region").with_value(format!("polygonalRegion ({} points)", p.0.len()));
            for pt in &p.0 {
                n.push(two_d("point", pt));
            }
            n
        }
        GeographicRegion::IdentifiedRegion(ids) => {
            let mut n = Node::new("region").with_value(format!("identifiedRegion ({})", ids.0.len()));
            for id in &ids.0 {
                n.push(match id {
                    IdentifiedRegion::CountryOnly(c) => Node::leaf("countryOnly", c.0.to_string()),
                    IdentifiedRegion::CountryAndRegions(c) => Node::leaf(
                        "countryAndRegions",
                        format!("country {} regions {:?}", c.country_only.0, c.regions.0),
                    ),
                    IdentifiedRegion::CountryAndSubregions(c) => Node::leaf(
                        "countryAndSubregions",
                        format!(
                            "country {} ({} region(s) with subregions)",
                            c.country_only.0,
                            c.region_and_subregions.0.len()
                        ),
                    ),
                    other => Node::leaf("identifiedRegion", format!("unknown alternative {other:?}")),
                });
            }
            n
        }
        other => Node::leaf("region", format!("unknown alternative {other:?}")),
    }
}

pub(super) fn app_permissions(p: &SequenceOfPsidSsp) -> Node {
    let mut n = Node::new("appPermissions").with_value(format!("{}", p.0.len()));
    for e in &p.0 {
        let ssp = match &e.ssp {
            None => String::new(),
            Some(ServiceSpecificPermissions::Opaque(o)) => format!(", ssp opaque {}", hex(o)),
            Some(ServiceSpecificPermissions::BitmapSsp(b)) => format!(", ssp bitmap {}", hex(&b.0)),
            Some(other) => format!(", ssp {other:?}"),
        };
        n.push(Node::leaf("psidSsp", format!("psid {}{ssp}", psid(&e.psid))));
    }
    n
}

fn ssp_range(r: Option<&d2::SspRange>) -> String {
    match r {
        None => String::new(),
        Some(d2::SspRange::All(())) => ", sspRange all".into(),
        Some(d2::SspRange::Opaque(v)) => {
            format!(
                ", sspRange opaque [{}]",
                v.iter().map(|o| hex(o)).collect::<Vec<_>>().join(", ")
            )
        }
        Some(d2::SspRange::BitmapSspRange(b)) => {
            format!(
                ", sspRange bitmap value {} mask {}",
                hex(&b.ssp_value),
                hex(&b.ssp_bitmask)
            )
        }
        Some(other) => format!(", sspRange {other:?}"),
    }
}

pub(super) fn group_permissions(label: &str, groups: &[PsidGroupPermissions]) -> Node {
    let mut n = Node::new(label).with_value(format!("{}", groups.len()));
    for g in groups {
        let subject = match &g.subject_permissions {
            SubjectPermissions::All(()) => Node::leaf("subjectPermissions", "all"),
            SubjectPermissions::Explicit(ranges) => {
                let mut s = Node::new("subjectPermissions").with_value(format!("explicit ({})", ranges.0.len()));
                for r in &ranges.0 {
                    s.push(Node::leaf(
                        "psidSspRange",
                        format!("psid {}{}", psid(&r.psid), ssp_range(r.ssp_range.as_ref())),
                    ));
                }
                s
            }
            other => Node::leaf("subjectPermissions", format!("unknown alternative {other:?}")),
        };
        n.push(
            Node::new("psidGroupPermissions")
                .child(subject)
                .child(Node::leaf("minChainLength", g.min_chain_length.to_string()))
                .child(Node::leaf("chainLengthRange", g.chain_length_range.to_string()))
                .child(Node::leaf("eeType", hex(g.ee_type.0.as_raw_slice()))),
        );
    }
    n
}

pub(super) fn public_encryption_key(label: &str, k: &PublicEncryptionKey) -> Node {
    let (alg, p) = match &k.public_key {
        BasePublicEncryptionKey::EciesNistP256(p) => ("eciesNistP256", p),
        BasePublicEncryptionKey::EciesBrainpoolP256r1(p) => ("eciesBrainpoolP256r1", p),
        BasePublicEncryptionKey::EcencSm2(p) => ("ecencSm2", p),
        other => return Node::leaf(label, format!("unknown alternative {other:?}")),
    };
    Node::new(label)
        .child(Node::leaf("supportedSymmAlg", format!("{:?}", k.supported_symm_alg)))
        .child(Node::new("publicKey").with_value(alg).child(p256_point("point", p)))
}

/// Tree of a certificate.
pub fn certificate_node(c: &Certificate) -> Node {
    let mut n = Node::new("Certificate");
    n.push(Node::leaf("version", c.version.to_string()));
    n.push(Node::leaf(
        "type",
        match c.r#type {
            CertificateType::Explicit => "explicit",
            CertificateType::Implicit => "implicit",
            _ => "unknown",
        },
    ));
    n.push(match &c.issuer {
        IssuerIdentifier::VSelf(h) => Node::leaf("issuer", format!("self ({})", hash_name(h))),
        IssuerIdentifier::Sha256AndDigest(d) => Node::leaf("issuer", format!("sha256AndDigest {}", hex(d.0.as_ref()))),
        IssuerIdentifier::Sha384AndDigest(d) => Node::leaf("issuer", format!("sha384AndDigest {}", hex(d.0.as_ref()))),
        IssuerIdentifier::Sm3AndDigest(d) => Node::leaf("issuer", format!("sm3AndDigest {}", hex(d.0.as_ref()))),
        other => Node::leaf("issuer", format!("unknown alternative {other:?}")),
    });
    let t = &c.to_be_signed;
    let mut tbs = Node::new("toBeSigned");
    tbs.push(match &t.id {
        CertificateId::Name(h) => Node::leaf("id", format!("name \"{}\"", h.0)),
        CertificateId::None(()) => Node::leaf("id", "none"),
        CertificateId::BinaryId(b) => Node::leaf("id", format!("binaryId {}", hex(b))),
        CertificateId::LinkageData(l) => Node::leaf(
            "id",
            format!(
                "linkageData iCert {} value {}",
                l.i_cert.0,
                hex(l.linkage_value.0.as_ref())
            ),
        ),
        other => Node::leaf("id", format!("unknown alternative {other:?}")),
    });
    tbs.push(Node::leaf("cracaId", hex(t.craca_id.0.as_ref())));
    tbs.push(Node::leaf("crlSeries", t.crl_series.0.to_string()));
    let start_unix = d2::unix_from_time32(&t.validity_period.start);
    let (dur_text, dur_secs) = duration_secs(&t.validity_period.duration);
    let end_unix = start_unix.saturating_add(i64::try_from(dur_secs).unwrap_or(i64::MAX));
    tbs.push(
        Node::new("validityPeriod")
            .child(Node::leaf("start", time32(&t.validity_period.start)))
            .child(Node::leaf("duration", dur_text))
            .child(Node::leaf(
                "end",
                rfc3339_from_unix_micros(end_unix.saturating_mul(1_000_000)),
            )),
    );
    if let Some(r) = &t.region {
        tbs.push(region_node(r));
    }
    if let Some(a) = &t.assurance_level {
        let b = a.0.as_ref().first().copied().unwrap_or(0);
        tbs.push(Node::leaf(
            "assuranceLevel",
            format!("0x{b:02x} (level {}, confidence {})", b >> 5, b & 0x03),
        ));
    }
    if let Some(p) = &t.app_permissions {
        tbs.push(app_permissions(p));
    }
    if let Some(p) = &t.cert_issue_permissions {
        tbs.push(group_permissions("certIssuePermissions", &p.0));
    }
    if let Some(p) = &t.cert_request_permissions {
        tbs.push(group_permissions("certRequestPermissions", &p.0));
    }
    if t.can_request_rollover.is_some() {
        tbs.push(Node::leaf("canRequestRollover", "yes"));
    }
    if let Some(k) = &t.encryption_key {
        tbs.push(public_encryption_key("encryptionKey", k));
    }
    tbs.push(match &t.verify_key_indicator {
        VerificationKeyIndicator::VerificationKey(k) => {
            let (alg, p) = match k {
                PublicVerificationKey::EcdsaNistP256(p) => ("ecdsaNistP256", p256_point("point", p)),
                PublicVerificationKey::EcdsaBrainpoolP256r1(p) => ("ecdsaBrainpoolP256r1", p256_point("point", p)),
                PublicVerificationKey::EcdsaBrainpoolP384r1(p) => ("ecdsaBrainpoolP384r1", p384_point("point", p)),
                PublicVerificationKey::EcdsaNistP384(p) => ("ecdsaNistP384", p384_point("point", p)),
                PublicVerificationKey::EcsigSm2(p) => ("ecsigSm2", p256_point("point", p)),
                other => ("unknown", Node::leaf("point", format!("{other:?}"))),
            };
            Node::new("verifyKeyIndicator")
                .with_value(format!("verificationKey {alg}"))
                .child(p)
        }
        VerificationKeyIndicator::ReconstructionValue(p) => Node::new("verifyKeyIndicator")
            .with_value("reconstructionValue")
            .child(p256_point("point", p)),
        other => Node::leaf("verifyKeyIndicator", format!("unknown alternative {other:?}")),
    });
    if let Some(f) = &t.flags {
        tbs.push(Node::leaf("flags", hex(f.as_raw_slice())));
    }
    n.push(tbs);
    match &c.signature {
        Some(s) => n.push(signature_node(s)),
        None => n.push(Node::leaf("signature", "absent (implicit certificate)")),
    };
    n
}

fn encoded_certificate(label: &str, c: &crate::trust_list::EncodedCertificate) -> Node {
    let mut n = certificate_node(&c.certificate);
    n.label = label.into();
    n.value = Some(format!("{} bytes", c.encoded.len()));
    n
}

/// Tree of a signed TS 102 941 trust list (ECTL or CTL).
pub fn trust_list_node(t: &SignedTrustList) -> Node {
    let mut root = Node::new("Signed trust list (TS 102 941)");
    let l = &t.list;
    let mut list = Node::new("CtlFormat");
    list.push(Node::leaf(
        "issuer",
        match l.issuer {
            TrustListIssuer::Tlm => "certificateTrustListTlm (ECTL, signed by the TLM)",
            TrustListIssuer::RootCa => "certificateTrustListRca (CTL, signed by a root CA)",
        },
    ));
    list.push(Node::leaf("nextUpdate", time32(&l.next_update)));
    list.push(Node::leaf("isFullCtl", l.is_full.to_string()));
    list.push(Node::leaf("ctlSequence", l.sequence.to_string()));
    let mut adds = Node::new("add").with_value(format!("{}", l.entries.len()));
    for e in &l.entries {
        adds.push(match e {
            TrustListEntry::RootCa {
                certificate,
                successor_to,
            } => {
                let mut n = Node::new("rca").child(encoded_certificate("selfsignedRootCa", certificate));
                if let Some(s) = successor_to {
                    n.push(encoded_certificate("successorTo", s));
                }
                n
            }
            TrustListEntry::Tlm {
                certificate,
                successor_to,
                access_point,
            } => {
                let mut n = Node::new("tlm").child(encoded_certificate("selfSignedTLMCertificate", certificate));
                if let Some(s) = successor_to {
                    n.push(encoded_certificate("successorTo", s));
                }
                n.push(Node::leaf("accessPoint", access_point.clone()));
                n
            }
            TrustListEntry::Ea {
                certificate,
                aa_access_point,
                its_access_point,
            } => {
                let mut n = Node::new("ea")
                    .child(encoded_certificate("eaCertificate", certificate))
                    .child(Node::leaf("aaAccessPoint", aa_access_point.clone()));
                if let Some(a) = its_access_point {
                    n.push(Node::leaf("itsAccessPoint", a.clone()));
                }
                n
            }
            TrustListEntry::Aa {
                certificate,
                access_point,
            } => Node::new("aa")
                .child(encoded_certificate("aaCertificate", certificate))
                .child(Node::leaf("accessPoint", access_point.clone())),
            TrustListEntry::Dc { url, root_cas } => {
                let ids: Vec<String> = root_cas.iter().map(|h| hex(h.0.as_ref())).collect();
                Node::new("dc")
                    .child(Node::leaf("url", url.clone()))
                    .child(Node::leaf("cert", ids.join(", ")))
            }
        });
    }
    list.push(adds);
    if !l.deletions.is_empty() {
        let mut dels = Node::new("delete").with_value(format!("{}", l.deletions.len()));
        for d in &l.deletions {
            dels.push(match d {
                TrustListDeletion::Certificate(h) => Node::leaf("cert", hex(h.0.as_ref())),
                TrustListDeletion::Dc(u) => Node::leaf("dc", u.clone()),
            });
        }
        list.push(dels);
    }
    root.push(list);
    let mut outer = data_node(&t.outer, Some(&t.spans));
    outer.label = "secured envelope".into();
    root.push(outer);
    root
}

// TS 102 941 protocol messages (EtsiTs102941Data of every kind: enrolment, authorization and
// validation requests and responses, CA certificate requests, CRL and CTL bodies). Their nested
// 1609.2 data (proof-of-possession and EC signatures) is shown with the trees above.

fn verification_key(k: &PublicVerificationKey) -> Node {
    let (alg, p) = match k {
        PublicVerificationKey::EcdsaNistP256(p) => ("ecdsaNistP256", p256_point("point", p)),
        PublicVerificationKey::EcdsaBrainpoolP256r1(p) => ("ecdsaBrainpoolP256r1", p256_point("point", p)),
        PublicVerificationKey::EcdsaBrainpoolP384r1(p) => ("ecdsaBrainpoolP384r1", p384_point("point", p)),
        PublicVerificationKey::EcdsaNistP384(p) => ("ecdsaNistP384", p384_point("point", p)),
        other => return Node::leaf("verificationKey", format!("unknown alternative {other:?}")),
    };
    Node::new("verificationKey").with_value(alg).child(p)
}

fn public_keys(k: &PublicKeys) -> Node {
    let mut n = Node::new("publicKeys").child(verification_key(&k.verification_key));
    if let Some(e) = &k.encryption_key {
        n.push(public_encryption_key("encryptionKey", e));
    }
    n
}

fn attributes(label: &str, a: &CertificateSubjectAttributes) -> Node {
    let mut n = Node::new(label);
    if let Some(id) = &a.id {
        n.push(match id {
            CertificateId::Name(h) => Node::leaf("id", format!("name \"{}\"", h.0)),
            CertificateId::None(()) => Node::leaf("id", "none"),
            CertificateId::BinaryId(b) => Node::leaf("id", format!("binaryId {}", hex(b))),
            other => Node::leaf("id", format!("{other:?}")),
        });
    }
    if let Some(v) = &a.validity_period {
        n.push(
            Node::new("validityPeriod")
                .child(Node::leaf("start", time32(&v.start)))
                .child(Node::leaf("duration", duration_secs(&v.duration).0)),
        );
    }
    if let Some(r) = &a.region {
        n.push(region_node(r));
    }
    if let Some(l) = &a.assurance_level {
        n.push(Node::leaf("assuranceLevel", hex(l.0.as_ref())));
    }
    if let Some(p) = &a.app_permissions {
        n.push(app_permissions(p));
    }
    if let Some(p) = &a.cert_issue_permissions {
        n.push(group_permissions("certIssuePermissions", &p.0));
    }
    n
}

fn shared(s: &SharedAtRequest) -> Node {
    Node::new("sharedAtRequest")
        .child(Node::leaf("eaId", hex(s.ea_id.0.as_ref())))
        .child(Node::leaf("keyTag", hex(&s.key_tag[..])))
        .child(Node::leaf("certificateFormat", s.certificate_format.0.to_string()))
        .child(attributes(
            "requestedSubjectAttributes",
            &s.requested_subject_attributes,
        ))
}

fn ec_signature(s: &EcSignature) -> Node {
    let (alt, d) = match s {
        EcSignature::EncryptedEcSignature(d) => ("encryptedEcSignature (for the EA)", d),
        EcSignature::EcSignature(d) => ("ecSignature", d),
    };
    let mut inner = data_node(d, None);
    inner.label = "data".into();
    Node::new("ecSignature").with_value(alt).child(inner)
}

fn hash16(label: &str, h: &[u8]) -> Node {
    Node::leaf(label, hex(h))
}

/// Tree of an `EtsiTs102941Data`.
pub fn etsi_ts102941_data_node(m: &EtsiTs102941Data) -> Node {
    let mut n = Node::new("EtsiTs102941Data");
    n.push(Node::leaf("version", m.version.to_string()));
    let content = match &m.content {
        EtsiTs102941DataContent::EnrolmentRequest(d) => {
            let mut inner = data_node(d, None);
            inner.label = "InnerEcRequestSignedForPop".into();
            // The PoP-signed payload is the InnerEcRequest.
            if let Some(r) = crate::ieee1609dot2::signed_data(d)
                .and_then(crate::ieee1609dot2::signed_unsecured_payload)
                .and_then(|p| crate::ts102941::decode_inner_ec_request(p).ok())
            {
                inner.push(
                    Node::new("InnerEcRequest")
                        .child(Node::leaf(
                            "itsId",
                            format!("{} ({} bytes)", hex(&r.its_id), r.its_id.len()),
                        ))
                        .child(Node::leaf("certificateFormat", r.certificate_format.0.to_string()))
                        .child(public_keys(&r.public_keys))
                        .child(attributes(
                            "requestedSubjectAttributes",
                            &r.requested_subject_attributes,
                        )),
                );
            }
            inner
        }
        EtsiTs102941DataContent::EnrolmentResponse(r) => {
            let mut c = Node::new("InnerEcResponse")
                .child(hash16("requestHash", &r.request_hash[..]))
                .child(Node::leaf("responseCode", r.response_code.name()));
            if let Some(cert) = &r.certificate {
                c.push(certificate_node(cert));
            }
            c
        }
        EtsiTs102941DataContent::AuthorizationRequest(r) => Node::new("InnerAtRequest")
            .child(public_keys(&r.public_keys))
            .child(Node::leaf("hmacKey", hex(&r.hmac_key[..])))
            .child(shared(&r.shared_at_request))
            .child(ec_signature(&r.ec_signature)),
        EtsiTs102941DataContent::AuthorizationResponse(r) => {
            let mut c = Node::new("InnerAtResponse")
                .child(hash16("requestHash", &r.request_hash[..]))
                .child(Node::leaf("responseCode", r.response_code.name()));
            if let Some(cert) = &r.certificate {
                c.push(certificate_node(cert));
            }
            c
        }
        EtsiTs102941DataContent::CertificateRevocationList(crl) => {
            let mut c = Node::new("ToBeSignedCrl")
                .child(Node::leaf("version", crl.version.to_string()))
                .child(Node::leaf("thisUpdate", time32(&crl.this_update)))
                .child(Node::leaf("nextUpdate", time32(&crl.next_update)));
            let mut e = Node::new("entries").with_value(crl.entries.len().to_string());
            for id in &crl.entries {
                e.push(Node::leaf("HashedId8", hex(id.0.as_ref())));
            }
            c.push(e);
            c
        }
        EtsiTs102941DataContent::CertificateTrustListTlm(l) | EtsiTs102941DataContent::CertificateTrustListRca(l) => {
            Node::new(
                if matches!(m.content, EtsiTs102941DataContent::CertificateTrustListTlm(_)) {
                    "ToBeSignedTlmCtl"
                } else {
                    "ToBeSignedRcaCtl"
                },
            )
            .child(Node::leaf("nextUpdate", time32(&l.next_update)))
            .child(Node::leaf("isFullCtl", l.is_full_ctl.to_string()))
            .child(Node::leaf("ctlSequence", l.ctl_sequence.to_string()))
            .child(Node::leaf("ctlCommands", l.ctl_commands.len().to_string()))
        }
        EtsiTs102941DataContent::AuthorizationValidationRequest(r) => Node::new("AuthorizationValidationRequest")
            .child(shared(&r.shared_at_request))
            .child(ec_signature(&r.ec_signature)),
        EtsiTs102941DataContent::AuthorizationValidationResponse(r) => {
            let mut c = Node::new("AuthorizationValidationResponse")
                .child(hash16("requestHash", &r.request_hash[..]))
                .child(Node::leaf("responseCode", r.response_code.name()));
            if let Some(a) = &r.confirmed_subject_attributes {
                c.push(attributes("confirmedSubjectAttributes", a));
            }
            c
        }
        EtsiTs102941DataContent::CaCertificateRequest(r) => Node::new("CaCertificateRequest")
            .child(public_keys(&r.public_keys))
            .child(attributes(
                "requestedSubjectAttributes",
                &r.requested_subject_attributes,
            )),
    };
    n.push(Node::new("content").with_value(m.kind()).child(content));
    n
}
