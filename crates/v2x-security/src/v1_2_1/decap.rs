//! SN-DECAP of the v1.2.1 entity: decoding and header order, payload type and the
//! encryption requirement, freshness (before any look-up), signer resolution (a request for
//! an unknown digest is queued), chain validation, ITS-AID / SSP permissions, region, the
//! replay look-up (its identity is the signed bytes, never the malleable signature), the
//! optional signature-form policy and the message signature; state changes (replay
//! window, learnt ticket, certificate requests of the sender) only once it verified.

use super::crypto::{certificate_digest, certificate_id3, ecies_unwrap, verify};
use super::entity::{rej, V1Accepted, V1Entity, V1Profile};
use super::validate::model_region;
use crate::message_signature::{check_form, SignatureForm};
use crate::reason::{RejectReason, Rejection};
use crate::region::GeoPoint;
use crate::time::TaiTime;
use v2x_crypto::{aes128_ccm_decrypt, aes256_ccm_decrypt, sha256, CryptoError};
use v2x_wire::v1_2_1::{
    header_type, Certificate, EncryptedKey, EncryptionParameters, HashedId8, HeaderField, PayloadType, SecuredMessage,
    SignerInfo, SubjectAttribute, SubjectType, V1Error,
};

impl V1Entity {
    /// SN-DECAP.
    pub fn decap(&mut self, bytes: &[u8], now: TaiTime) -> Result<V1Accepted, Rejection> {
        self.decap_inner(bytes, None, now)
    }

    /// SN-DECAP of a signed_external message whose payload is `external`.
    pub fn decap_external(&mut self, bytes: &[u8], external: &[u8], now: TaiTime) -> Result<V1Accepted, Rejection> {
        self.decap_inner(bytes, Some(external), now)
    }

    fn decap_inner(&mut self, bytes: &[u8], external: Option<&[u8]>, now: TaiTime) -> Result<V1Accepted, Rejection> {
        let msg = SecuredMessage::from_bytes(bytes).map_err(|e| match e {
            V1Error::UnsupportedVersion {
                what: "SecuredMessage.protocol_version",
                ..
            } => rej(RejectReason::IncompatibleProtocol, e.to_string()),
            e => rej(RejectReason::InvalidEncoding, e.to_string()),
        })?;
        check_header_order(&msg)?;
        let pt = msg.payload.payload_type;
        if pt.0 > PayloadType::SIGNED_AND_ENCRYPTED.0 {
            return Err(rej(
                RejectReason::InvalidEncoding,
                format!("payload type {}", pt.name()),
            ));
        }
        let its_aid = msg.its_aid();
        let generation_time = msg.generation_time().map(TaiTime);
        let encrypted = pt == PayloadType::ENCRYPTED || pt == PayloadType::SIGNED_AND_ENCRYPTED;
        if let Some(aid) = its_aid.filter(|a| self.policy.require_encryption.contains(a)) {
            if !encrypted {
                return Err(rej(
                    RejectReason::UnencryptedMessage,
                    format!("ITS-AID {aid} must be encrypted"),
                ));
            }
        }
        if pt == PayloadType::UNSECURED {
            if self.policy.insecure_accept_unsecured {
                return Ok(V1Accepted {
                    payload: msg.payload.data,
                    payload_type: pt,
                    its_aid,
                    signer: None,
                    generation_time,
                });
            }
            return Err(rej(RejectReason::UnsignedMessage, "unsecured payload"));
        }
        let signed = pt != PayloadType::ENCRYPTED;
        let profile = its_aid.map(V1Profile::from_its_aid);
        if !signed {
            if matches!(profile, Some(V1Profile::Cam) | Some(V1Profile::Denm)) {
                return Err(rej(
                    RejectReason::UnsignedMessage,
                    "CAM and DENM profiles require a signature",
                ));
            }
            let payload = self.decrypt(&msg)?;
            return Ok(V1Accepted {
                payload,
                payload_type: pt,
                its_aid,
                signer: None,
                generation_time,
            });
        }
        let (signer, identity) = self.verify_signed(&msg, bytes, external, now)?;
        let payload = if pt == PayloadType::SIGNED_AND_ENCRYPTED {
            self.decrypt(&msg)?
        } else if pt == PayloadType::SIGNED_EXTERNAL {
            external.unwrap_or_default().to_vec()
        } else {
            msg.payload.data.clone()
        };
        // A copy is stale (refused before the look-up) once its generation time is max_age old.
        let expires = generation_time.unwrap_or(now).saturating_add(self.policy.max_age);
        self.remember(identity, expires);
        Ok(V1Accepted {
            payload,
            payload_type: pt,
            its_aid,
            signer: Some(signer),
            generation_time,
        })
    }

    fn verify_signed(
        &mut self,
        msg: &SecuredMessage,
        bytes: &[u8],
        external: Option<&[u8]>,
        now: TaiTime,
    ) -> Result<(HashedId8, [u8; 32]), Rejection> {
        let sig = msg.signature().ok_or_else(|| {
            rej(
                RejectReason::UnsignedMessage,
                "signed payload without signature trailer",
            )
        })?;
        let its_aid = msg
            .its_aid()
            .ok_or_else(|| rej(RejectReason::MissingHeaderField, "its_aid"))?;
        let profile = V1Profile::from_its_aid(its_aid);
        let gen = msg
            .generation_time()
            .ok_or_else(|| rej(RejectReason::MissingHeaderField, "generation_time"))?;
        let location = msg.header_fields.iter().find_map(|h| match h {
            HeaderField::GenerationLocation(l) => Some(*l),
            _ => None,
        });
        if profile == V1Profile::Denm && location.is_none() {
            return Err(rej(
                RejectReason::MissingHeaderField,
                "DENM without generation_location",
            ));
        }
        let signer_info = msg
            .signer_info()
            .ok_or_else(|| rej(RejectReason::MissingHeaderField, "signer_info"))?;
        if msg.payload.payload_type == PayloadType::SIGNED_EXTERNAL && external.is_none() {
            return Err(rej(
                RejectReason::MissingHeaderField,
                "signed_external payload not supplied",
            ));
        }

        // Freshness first: cheap, and a stale replay should not cost a verification.
        if now.0.saturating_sub(gen) > self.policy.max_age.as_micros() as u64 {
            return Err(rej(
                RejectReason::StaleMessage,
                format!("generated {} us ago", now.0.saturating_sub(gen)),
            ));
        }
        if gen.saturating_sub(now.0) > self.policy.max_future.as_micros() as u64 {
            return Err(rej(
                RejectReason::FutureMessage,
                format!("generated {} us in the future", gen - now.0),
            ));
        }
        if let Some(HeaderField::Expiration(exp)) = msg.header(header_type::EXPIRATION) {
            if now.to_time32() > *exp {
                return Err(rej(RejectReason::StaleMessage, "past its expiration header"));
            }
        }

        let (leaf, extra): (Certificate, Vec<Certificate>) = match signer_info {
            SignerInfo::SelfSigned => {
                return Err(rej(
                    RejectReason::UnsupportedSignerIdentifierType,
                    "self-signed messages are not accepted",
                ))
            }
            SignerInfo::CertificateDigestWithSha256(d)
            | SignerInfo::CertificateDigestWithOtherAlgorithm { digest: d, .. } => {
                if profile == V1Profile::Denm {
                    return Err(rej(
                        RejectReason::UnsupportedSignerIdentifierType,
                        "DENM signer must be a certificate",
                    ));
                }
                match self.store.ticket(d) {
                    Some(c) => (c.clone(), Vec::new()),
                    None => {
                        self.unknown_certificates.insert([d[5], d[6], d[7]]);
                        return Err(rej(
                            RejectReason::SignerCertificateNotFound,
                            format!("no certificate for digest {}", hex::encode(d)),
                        ));
                    }
                }
            }
            SignerInfo::Certificate(c) => ((**c).clone(), Vec::new()),
            SignerInfo::CertificateChain(cs) => {
                let (last, rest) = cs
                    .split_last()
                    .ok_or_else(|| rej(RejectReason::InvalidEncoding, "empty certificate chain"))?;
                (last.clone(), rest.to_vec())
            }
            SignerInfo::Other { signer_type, .. } => {
                return Err(rej(
                    RejectReason::UnsupportedSignerIdentifierType,
                    format!("signer type {signer_type}"),
                ))
            }
        };
        if leaf.subject_info.subject_type != SubjectType::AUTHORIZATION_TICKET {
            return Err(rej(
                RejectReason::InvalidCertificate,
                format!("message signed by a {}", leaf.subject_info.subject_type.name()),
            ));
        }
        let gen_s = TaiTime(gen).to_time32();
        if let Err(e) = self.store.validate_chain(&leaf, &extra, gen_s) {
            if e.reason == RejectReason::SignerCertificateNotFound {
                if let SignerInfo::CertificateDigestWithSha256(d) = &leaf.signer_info {
                    self.unknown_certificates.insert([d[5], d[6], d[7]]);
                }
            }
            return Err(e);
        }

        // Permissions: ITS-AID and SSP.
        let ssp = leaf
            .subject_attributes
            .iter()
            .find_map(|a| match a {
                SubjectAttribute::ItsAidSspList(l) => l
                    .iter()
                    .find(|e| e.its_aid == its_aid)
                    .map(|e| e.service_specific_permissions.clone()),
                _ => None,
            })
            .ok_or_else(|| {
                rej(
                    RejectReason::PsidNotPermitted,
                    format!("ticket does not permit ITS-AID {its_aid}"),
                )
            })?;
        if let Some(required) = self.policy.required_ssp.get(&its_aid) {
            let ok = required
                .iter()
                .enumerate()
                .all(|(i, bits)| ssp.get(i).copied().unwrap_or(0) & bits == *bits);
            if !ok {
                return Err(rej(
                    RejectReason::SspNotPermitted,
                    format!("SSP {} lacks bits {}", hex::encode(&ssp), hex::encode(required)),
                ));
            }
        }
        if let (Some(loc), Some(region)) = (location, leaf.region().and_then(model_region)) {
            if region.contains(GeoPoint {
                lat: loc.latitude,
                lon: loc.longitude,
            }) == Some(false)
            {
                return Err(rej(
                    RejectReason::OutsideRegion,
                    "generation location outside the ticket's region",
                ));
            }
        }

        // The signature, over the received bytes (never a re-encoding).
        let received = signed_bytes(msg, bytes)?;
        let mut tbs = received.to_vec();
        if let Some(ext) = external {
            tbs.extend_from_slice(ext);
        }
        // Replay identity: the signed bytes (with the external payload), never the signature.
        // ECDSA signatures are malleable (s and n − s both verify; r travels as x-only or
        // as either compressed form of R, all of one length, so the signed bytes do not
        // change), and a key over the signature bytes would take a re-encoded copy for a
        // new message.
        let identity = sha256(&tbs);
        if self.replay_seen.contains_key(&identity) {
            return Err(rej(RejectReason::DuplicateMessage, "message already received"));
        }
        if let Some(form) = signature_form_violation(sig, self.policy.signature_form) {
            return Err(rej(RejectReason::FalseSignature, form));
        }
        let key = self.store.key_of(&leaf)?;
        if !verify(&key, &tbs, sig) {
            return Err(rej(RejectReason::FalseSignature, "message signature does not verify"));
        }

        // Accepted as far as the signature goes: learn the ticket, serve requests.
        let digest = certificate_digest(&leaf);
        self.store.learn_ticket(leaf);
        if let Some(HeaderField::RequestUnrecognizedCertificate(ids)) =
            msg.header(header_type::REQUEST_UNRECOGNIZED_CERTIFICATE)
        {
            if let Some(own) = &self.own {
                if ids.contains(&own.id3()) {
                    self.certificate_requested = true;
                }
                if self.own_authorities.iter().any(|a| ids.contains(&certificate_id3(a))) {
                    self.chain_requested = true;
                }
            }
        }
        Ok((digest, identity))
    }

    pub(super) fn remember(&mut self, k: [u8; 32], expires: TaiTime) {
        if self.replay_seen.insert(k, expires).is_none() {
            self.replay_order.push_back(k);
            while self.replay_order.len() > self.policy.replay_capacity {
                if let Some(old) = self.replay_order.pop_front() {
                    self.replay_seen.remove(&old);
                }
            }
        }
    }

    fn decrypt(&self, msg: &SecuredMessage) -> Result<Vec<u8>, Rejection> {
        let params = msg
            .header_fields
            .iter()
            .find_map(|h| match h {
                HeaderField::EncryptionParameters(p) => Some(p),
                _ => None,
            })
            .ok_or_else(|| rej(RejectReason::MissingHeaderField, "encryption_parameters"))?;
        let recipients = msg
            .header_fields
            .iter()
            .find_map(|h| match h {
                HeaderField::RecipientInfo(r) => Some(r),
                _ => None,
            })
            .ok_or_else(|| rej(RejectReason::MissingHeaderField, "recipient_info"))?;
        let own = self
            .own
            .as_ref()
            .ok_or_else(|| rej(RejectReason::NotForThisRecipient, "this station holds no ticket"))?;
        let dec_key = own
            .encryption_key
            .as_ref()
            .ok_or_else(|| rej(RejectReason::NotForThisRecipient, "no decryption key"))?;
        let mine = own.digest();
        let ri = recipients
            .iter()
            .find(|r| r.cert_id == mine)
            .ok_or_else(|| rej(RejectReason::NotForThisRecipient, "no recipient_info for this station"))?;
        let EncryptedKey::Ecies(wrapped) = &ri.enc_key else {
            return Err(rej(
                RejectReason::DecryptionFailed,
                format!("unsupported key algorithm {}", ri.pk_encryption.name()),
            ));
        };
        let EncryptionParameters::AesCcm { algorithm, nonce } = params else {
            return Err(rej(
                RejectReason::DecryptionFailed,
                format!("unsupported symmetric algorithm {}", params.algorithm().name()),
            ));
        };
        if algorithm.key_len() != Some(wrapped.c.len()) {
            return Err(rej(
                RejectReason::DecryptionFailed,
                "wrapped key length does not match the symmetric algorithm",
            ));
        }
        let key = ecies_unwrap(dec_key, wrapped)
            .map_err(|e| rej(RejectReason::DecryptionFailed, format!("key unwrap: {e}")))?;
        aes_ccm_decrypt(&key, nonce, &msg.payload.data)
            .map_err(|e| rej(RejectReason::DecryptionFailed, format!("AES-CCM: {e}")))
    }
}

/// The signature-form policy (low s, x-only r) applied to a v1.2.1 signature; `Some(why)`
/// when it is refused.
pub(super) fn signature_form_violation(sig: &v2x_wire::v1_2_1::Signature, form: SignatureForm) -> Option<String> {
    if form == SignatureForm::default() {
        return None;
    }
    let v2x_wire::v1_2_1::Signature::Ecdsa { algorithm, r, s } = sig else {
        return None;
    };
    let curve = algorithm.curve().map(super::crypto::to_curve)?;
    let r = match r {
        v2x_wire::v1_2_1::EccPoint::XCoordinateOnly(x) => v2x_crypto::RPoint::XOnly(x.clone()),
        v2x_wire::v1_2_1::EccPoint::CompressedLsbY0(x) => v2x_crypto::RPoint::Compressed {
            y_odd: false,
            x: x.clone(),
        },
        v2x_wire::v1_2_1::EccPoint::CompressedLsbY1(x) => v2x_crypto::RPoint::Compressed {
            y_odd: true,
            x: x.clone(),
        },
        _ => return None,
    };
    let sig = v2x_crypto::Signature::new(curve, r, s.clone()).ok()?;
    check_form(&sig, form).err().map(|e| e.to_string())
}

/// §5.4 header order (see `SecuredMessage::header_order_valid`).
fn check_header_order(msg: &SecuredMessage) -> Result<(), Rejection> {
    if msg.header_order_valid() {
        Ok(())
    } else {
        Err(rej(
            RejectReason::InvalidEncoding,
            "header fields out of order or repeated (§5.4: signer_info first, then ascending types)",
        ))
    }
}

fn aes_ccm_decrypt(key: &[u8], nonce: &[u8; 12], ciphertext: &[u8]) -> Result<Vec<u8>, CryptoError> {
    match key.len() {
        16 => {
            let mut k = [0u8; 16];
            k.copy_from_slice(key);
            aes128_ccm_decrypt(&k, nonce, ciphertext)
        }
        32 => {
            let mut k = [0u8; 32];
            k.copy_from_slice(key);
            aes256_ccm_decrypt(&k, nonce, ciphertext)
        }
        n => Err(CryptoError::InvalidLength {
            what: "AES key",
            expected: 16,
            got: n,
        }),
    }
}

/// INSECURE lab mode: checks only the message signature, with the certificate the message
/// carries (no chain, validity, permissions, freshness or replay). A digest signer cannot
/// be checked (there is no certificate to take the key from) and is rejected as such.
pub fn decap_signature_only(bytes: &[u8]) -> Result<V1Accepted, Rejection> {
    V1Entity::new(None, Vec::new(), super::V1TrustStore::new()).decap_signature_only(bytes)
}

impl V1Entity {
    /// INSECURE lab mode, as [`decap_signature_only`], that also remembers the certificates
    /// whose signatures it verified: a digest signer that one of them is resolves (within a
    /// batch, and across runs through a receiver's state). Nothing learnt here is trusted by
    /// strict SN-DECAP.
    pub fn decap_signature_only(&mut self, bytes: &[u8]) -> Result<V1Accepted, Rejection> {
        let (accepted, leaf) = signature_only(bytes, &self.signature_only_certificates)?;
        self.learn_signature_only_certificate(leaf);
        Ok(accepted)
    }
}

/// Signature-only SN-DECAP with `known` certificates for digest signers; returns the leaf
/// that verified.
fn signature_only(
    bytes: &[u8],
    known: &std::collections::HashMap<HashedId8, Certificate>,
) -> Result<(V1Accepted, Certificate), Rejection> {
    let msg = SecuredMessage::from_bytes(bytes).map_err(|e| rej(RejectReason::InvalidEncoding, e.to_string()))?;
    let pt = msg.payload.payload_type;
    if pt != PayloadType::SIGNED {
        return Err(rej(
            RejectReason::UnsignedMessage,
            format!("signature-only mode checks signed payloads; this one is {}", pt.name()),
        ));
    }
    let sig = msg.signature().ok_or_else(|| {
        rej(
            RejectReason::UnsignedMessage,
            "signed payload without signature trailer",
        )
    })?;
    let leaf = match msg.signer_info() {
        Some(SignerInfo::Certificate(c)) => (**c).clone(),
        Some(SignerInfo::CertificateChain(cs)) => cs
            .last()
            .cloned()
            .ok_or_else(|| rej(RejectReason::InvalidEncoding, "empty certificate chain"))?,
        Some(SignerInfo::CertificateDigestWithSha256(d)) => match known.get(d) {
            Some(c) => c.clone(),
            None => {
                return Err(rej(
                    RejectReason::SignerCertificateNotFound,
                    format!(
                        "signer digest {}: the message carries no certificate to check it with, and none seen before",
                        hex::encode(d)
                    ),
                ))
            }
        },
        Some(SignerInfo::CertificateDigestWithOtherAlgorithm { digest: d, .. }) => {
            return Err(rej(
                RejectReason::SignerCertificateNotFound,
                format!(
                    "signer digest {} under another hash: no certificate to check it with",
                    hex::encode(d)
                ),
            ))
        }
        Some(_) => return Err(rej(RejectReason::UnsupportedSignerIdentifierType, "signer type")),
        None => return Err(rej(RejectReason::MissingHeaderField, "signer_info")),
    };
    let key = leaf
        .verification_key()
        .ok_or_else(|| rej(RejectReason::InvalidCertificate, "certificate has no verification_key"))
        .and_then(super::crypto::verification_key)?;
    let received = signed_bytes(&msg, bytes)?;
    if !verify(&key, received, sig) {
        return Err(rej(RejectReason::FalseSignature, "message signature does not verify"));
    }
    let accepted = V1Accepted {
        payload: msg.payload.data.clone(),
        payload_type: pt,
        its_aid: msg.its_aid(),
        signer: Some(certificate_digest(&leaf)),
        generation_time: msg.generation_time().map(TaiTime),
    };
    Ok((accepted, leaf))
}

/// The bytes the signature covers, as received: a prefix of the message ending with the type
/// byte of the signature trailer field. Decoding is canonical, so the re-encoding must equal it.
pub(super) fn signed_bytes<'a>(msg: &SecuredMessage, bytes: &'a [u8]) -> Result<&'a [u8], Rejection> {
    let signed = msg
        .to_be_signed()
        .ok_or_else(|| rej(RejectReason::UnsignedMessage, "no signature"))?;
    bytes
        .get(..signed.len())
        .filter(|r| *r == signed.as_slice())
        .ok_or_else(|| {
            rej(
                RejectReason::InvalidEncoding,
                "signed bytes differ from the received encoding",
            )
        })
}
