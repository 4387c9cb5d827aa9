//! Trees of TS 102 941 protocol messages (`EtsiTs102941Data` of every kind): enrolment,
//! authorization and validation requests and responses, CA certificate requests, CRL and CTL
//! bodies. Nested 1609.2 data (the proof-of-possession signature, the EC signature) is shown
//! with the 1609.2 inspector.

use super::dot2::{
    app_permissions, certificate_node, data_node, duration_secs, group_permissions, p256_point, p384_point,
    public_encryption_key, region_node, time32,
};
use super::fmt::hex;
use super::Node;
use crate::ieee1609dot2::{CertificateId, PublicVerificationKey};
use crate::ts102941::{
    CertificateSubjectAttributes, EcSignature, EtsiTs102941Data, EtsiTs102941DataContent, PublicKeys, SharedAtRequest,
};

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
