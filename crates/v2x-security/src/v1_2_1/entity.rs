//! The v1.2.1 security entity: SN-ENCAP and SN-DECAP with the CAM, DENM and generic
//! security profiles of TS 103 097 v1.2.1 §7.1–7.3.
//!
//! * CAM (ITS-AID 36): signer_info first, then generation_time, optional
//!   request_unrecognized_certificate, its_aid; signed. The signer is the ticket's
//!   digest, except once per second (and whenever a neighbour asked for it with
//!   request_unrecognized_certificate) when the full certificate is sent; a request for
//!   the AA's digest is answered with a certificate_chain [AA, AT].
//! * DENM (ITS-AID 37): signer_info is always the certificate; generation_location
//!   is required.
//! * Generic: signer_info certificate, generation_time, generation_location when known,
//!   its_aid; may be encrypted (ECIES + AES-CCM) and/or signed.
//!
//! Encrypted payloads: AES-128-CCM (AES-256-CCM as the documented extension) under a
//! fresh key, 12-byte nonce in encryption_parameters, the key ECIES-wrapped for every
//! recipient certificate's encryption_key. signed_and_encrypted signs the message
//! carrying the ciphertext (encrypt, then sign).
//!
//! `signed_external`: v1.2.1 signs a payload that is not carried; this entity signs the
//! message's signed bytes followed by the external payload (the caller passes the same
//! payload to [`V1Entity::decap_external`]).

use super::crypto::{
    certificate_digest, certificate_id3, ecies_unwrap, ecies_wrap, encryption_key, placeholder_signature, sign, verify,
};
use super::pki::Credential;
use super::validate::{model_region, V1TrustStore};
use crate::message_signature::{check_form, SignatureForm};
use crate::reason::{RejectReason, Rejection};
use crate::region::GeoPoint;
use crate::time::TaiTime;
use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};
use std::time::Duration;
use v2x_crypto::{
    aes128_ccm_decrypt, aes128_ccm_encrypt, aes256_ccm_decrypt, aes256_ccm_encrypt, random_bytes, sha256, CryptoError,
};
use v2x_wire::v1_2_1::{
    header_type, Certificate, EncryptedKey, EncryptionParameters, HashedId3, HashedId8, HeaderField, Payload,
    PayloadType, RecipientInfo, SecuredMessage, SignerInfo, SubjectAttribute, SubjectType, SymmetricAlgorithm,
    ThreeDLocation, TrailerField, V1Error,
};
use v2x_wire::ItsAid;

/// Which security profile (§7) a message follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum V1Profile {
    Cam,
    Denm,
    Generic { its_aid: u64 },
}

impl V1Profile {
    pub fn its_aid(self) -> u64 {
        match self {
            V1Profile::Cam => ItsAid::CAM.value(),
            V1Profile::Denm => ItsAid::DENM.value(),
            V1Profile::Generic { its_aid } => its_aid,
        }
    }

    pub fn from_its_aid(its_aid: u64) -> V1Profile {
        match ItsAid(its_aid) {
            ItsAid::CAM => V1Profile::Cam,
            ItsAid::DENM => V1Profile::Denm,
            _ => V1Profile::Generic { its_aid },
        }
    }
}

/// What SN-ENCAP does to the payload.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum V1Protection {
    Sign,
    Encrypt,
    SignAndEncrypt,
    /// Sign a payload that is not carried (payload type signed_external).
    SignExternal,
    /// No protection (payload type unsecured). Receivers reject it unless they opt in
    /// with [`V1Policy::insecure_accept_unsecured`].
    InsecureUnsecured,
}

/// How the signer is identified.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SignerChoice {
    /// The profile's rule (CAM: digest, certificate once per second or on request).
    Auto,
    Digest,
    Certificate,
    /// certificate_chain: the AA certificate(s) then the ticket.
    Chain,
}

/// An SN-ENCAP request.
#[derive(Debug, Clone)]
pub struct V1EncapRequest<'a> {
    pub profile: V1Profile,
    pub protection: V1Protection,
    pub signer: SignerChoice,
    pub payload: &'a [u8],
    /// Recipient certificates (with encryption keys) for encrypted payloads.
    pub recipients: &'a [Certificate],
    pub symmetric: SymmetricAlgorithm,
    pub location: Option<ThreeDLocation>,
    pub now: TaiTime,
    /// Ephemeral ECIES keys in compressed form (default) or uncompressed.
    pub compressed_ephemeral: bool,
}

impl<'a> V1EncapRequest<'a> {
    /// A signed message of `profile` with the profile's signer rule and AES-128-CCM.
    pub fn new(profile: V1Profile, payload: &'a [u8], now: TaiTime) -> V1EncapRequest<'a> {
        V1EncapRequest {
            profile,
            protection: V1Protection::Sign,
            signer: SignerChoice::Auto,
            payload,
            recipients: &[],
            symmetric: SymmetricAlgorithm::AES_128_CCM,
            location: None,
            now,
            compressed_ephemeral: true,
        }
    }
}

/// Why SN-ENCAP failed (a local error, not a rejection of received data).
#[derive(Debug, thiserror::Error)]
pub enum V1EncapError {
    #[error("signing needs an authorization ticket credential")]
    NoCredential,
    #[error("a DENM needs a generation location")]
    MissingLocation,
    #[error("encryption needs at least one recipient certificate")]
    NoRecipients,
    #[error("recipient certificate unusable: {0}")]
    Recipient(Rejection),
    #[error("symmetric algorithm {0:?} is not supported")]
    UnsupportedSymmetric(SymmetricAlgorithm),
    #[error(transparent)]
    Crypto(#[from] CryptoError),
}

/// Receiver policy. Defaults are strict.
#[derive(Debug, Clone)]
pub struct V1Policy {
    /// Oldest acceptable generation time relative to now.
    pub max_age: Duration,
    /// How far in the future a generation time may be (clock skew).
    pub max_future: Duration,
    /// Per ITS-AID, SSP bits that the signer's certificate must have set.
    pub required_ssp: HashMap<u64, Vec<u8>>,
    /// ITS-AIDs whose messages must be encrypted (encrypted or signed_and_encrypted).
    pub require_encryption: HashSet<u64>,
    /// INSECURE: accept unsecured payloads (lab use only).
    pub insecure_accept_unsecured: bool,
    /// Remembered messages for replay detection.
    pub replay_capacity: usize,
    /// CAM certificate inclusion period (§7.1: once per second).
    pub cam_certificate_interval: Duration,
    /// Signature encodings accepted (default: every form v1.2.1 allows).
    pub signature_form: SignatureForm,
}

impl Default for V1Policy {
    fn default() -> Self {
        V1Policy {
            max_age: Duration::from_secs(2),
            max_future: Duration::from_millis(500),
            required_ssp: HashMap::new(),
            require_encryption: HashSet::new(),
            insecure_accept_unsecured: false,
            replay_capacity: 4096,
            cam_certificate_interval: Duration::from_secs(1),
            signature_form: SignatureForm::default(),
        }
    }
}

/// What SN-DECAP accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct V1Accepted {
    pub payload: Vec<u8>,
    pub payload_type: PayloadType,
    pub its_aid: Option<u64>,
    /// HashedId8 of the signing ticket (signed messages).
    pub signer: Option<HashedId8>,
    pub generation_time: Option<TaiTime>,
}

/// A station's v1.2.1 security entity: its own ticket (signing and decryption keys),
/// its trust store, and the CAM certificate-distribution state.
#[derive(Debug, Clone)]
pub struct V1Entity {
    own: Option<Credential>,
    own_authorities: Vec<Certificate>,
    pub store: V1TrustStore,
    pub policy: V1Policy,
    last_full_certificate: Option<TaiTime>,
    certificate_requested: bool,
    chain_requested: bool,
    unknown_certificates: BTreeSet<HashedId3>,
    /// Identities of accepted signed messages: SHA-256 of the signed bytes.
    replay_seen: HashSet<[u8; 32]>,
    replay_order: VecDeque<[u8; 32]>,
}

fn rej(reason: RejectReason, detail: impl Into<String>) -> Rejection {
    Rejection::new(reason, detail)
}

impl V1Entity {
    /// An entity with a ticket (`own`) issued by `authorities` (e.g. the AA), trusting `store`.
    pub fn new(own: Option<Credential>, own_authorities: Vec<Certificate>, store: V1TrustStore) -> V1Entity {
        V1Entity {
            own,
            own_authorities,
            store,
            policy: V1Policy::default(),
            last_full_certificate: None,
            certificate_requested: false,
            chain_requested: false,
            unknown_certificates: BTreeSet::new(),
            replay_seen: HashSet::new(),
            replay_order: VecDeque::new(),
        }
    }

    pub fn credential(&self) -> Option<&Credential> {
        self.own.as_ref()
    }

    /// Digests (HashedId3) this entity will ask for in its next CAM.
    pub fn pending_certificate_requests(&self) -> Vec<HashedId3> {
        self.unknown_certificates.iter().copied().collect()
    }

    fn signer_info(&mut self, req: &V1EncapRequest<'_>, own: &Credential) -> SignerInfo {
        let choice = match (req.signer, req.profile) {
            (SignerChoice::Auto, V1Profile::Cam) => {
                let due = self
                    .last_full_certificate
                    .map(|t| req.now.0.saturating_sub(t.0) >= self.policy.cam_certificate_interval.as_micros() as u64)
                    .unwrap_or(true);
                if self.chain_requested && !self.own_authorities.is_empty() {
                    SignerChoice::Chain
                } else if self.certificate_requested || self.chain_requested || due {
                    SignerChoice::Certificate
                } else {
                    SignerChoice::Digest
                }
            }
            (SignerChoice::Auto, _) => SignerChoice::Certificate,
            (c, _) => c,
        };
        if choice != SignerChoice::Digest && req.profile == V1Profile::Cam {
            self.last_full_certificate = Some(req.now);
            self.certificate_requested = false;
            self.chain_requested = false;
        }
        match choice {
            SignerChoice::Digest => SignerInfo::CertificateDigestWithSha256(own.digest()),
            SignerChoice::Chain => {
                let mut certs = self.own_authorities.clone();
                certs.push(own.certificate.clone());
                SignerInfo::CertificateChain(certs)
            }
            _ => SignerInfo::Certificate(Box::new(own.certificate.clone())),
        }
    }

    /// SN-ENCAP: builds the SecuredMessage bytes.
    pub fn encap(&mut self, req: &V1EncapRequest<'_>) -> Result<Vec<u8>, V1EncapError> {
        Ok(self.encap_message(req)?.to_bytes())
    }

    /// SN-ENCAP returning the typed message (the overhead report breaks it into fields).
    pub fn encap_message(&mut self, req: &V1EncapRequest<'_>) -> Result<SecuredMessage, V1EncapError> {
        let signs = matches!(
            req.protection,
            V1Protection::Sign | V1Protection::SignAndEncrypt | V1Protection::SignExternal
        );
        let encrypts = matches!(req.protection, V1Protection::Encrypt | V1Protection::SignAndEncrypt);
        if req.profile == V1Profile::Denm && req.location.is_none() && signs {
            return Err(V1EncapError::MissingLocation);
        }
        let own = self.own.clone();
        let mut headers = Vec::new();
        // An encrypted-only message carries a signer_info only when asked for one
        // explicitly (it then identifies the sender without authenticating it).
        if signs || (encrypts && req.signer != SignerChoice::Auto) {
            let own = own.as_ref().ok_or(V1EncapError::NoCredential)?;
            headers.push(HeaderField::SignerInfo(self.signer_info(req, own)));
        }
        headers.push(HeaderField::GenerationTime(req.now.0));
        if req.profile != V1Profile::Cam {
            if let Some(l) = req.location {
                headers.push(HeaderField::GenerationLocation(l));
            }
        }
        if req.profile == V1Profile::Cam && !self.unknown_certificates.is_empty() {
            let ids = std::mem::take(&mut self.unknown_certificates).into_iter().collect();
            headers.push(HeaderField::RequestUnrecognizedCertificate(ids));
        }
        headers.push(HeaderField::ItsAid(req.profile.its_aid()));

        let payload = if encrypts {
            if req.recipients.is_empty() {
                return Err(V1EncapError::NoRecipients);
            }
            let key_len = req
                .symmetric
                .key_len()
                .ok_or(V1EncapError::UnsupportedSymmetric(req.symmetric))?;
            let key = random_bytes(key_len);
            let mut nonce = [0u8; 12];
            nonce.copy_from_slice(&random_bytes(12));
            let ciphertext = aes_ccm_encrypt(&key, &nonce, req.payload)?;
            let mut recipients = Vec::new();
            for cert in req.recipients {
                let pk = cert.encryption_key().ok_or_else(|| {
                    V1EncapError::Recipient(rej(RejectReason::InvalidCertificate, "no encryption_key"))
                })?;
                let (pk, _) = encryption_key(pk).map_err(V1EncapError::Recipient)?;
                let wrapped = ecies_wrap(&pk, &key, req.compressed_ephemeral)?;
                recipients.push(RecipientInfo {
                    cert_id: certificate_digest(cert),
                    pk_encryption: v2x_wire::v1_2_1::PublicKeyAlgorithm::ecies(super::crypto::to_v1_curve(pk.curve())),
                    enc_key: EncryptedKey::Ecies(wrapped),
                });
            }
            headers.push(HeaderField::EncryptionParameters(EncryptionParameters::AesCcm {
                algorithm: req.symmetric,
                nonce,
            }));
            headers.push(HeaderField::RecipientInfo(recipients));
            let payload_type = if signs {
                PayloadType::SIGNED_AND_ENCRYPTED
            } else {
                PayloadType::ENCRYPTED
            };
            Payload {
                payload_type,
                data: ciphertext,
            }
        } else {
            match req.protection {
                V1Protection::SignExternal => Payload {
                    payload_type: PayloadType::SIGNED_EXTERNAL,
                    data: Vec::new(),
                },
                V1Protection::InsecureUnsecured => Payload {
                    payload_type: PayloadType::UNSECURED,
                    data: req.payload.to_vec(),
                },
                _ => Payload {
                    payload_type: PayloadType::SIGNED,
                    data: req.payload.to_vec(),
                },
            }
        };
        let mut msg = SecuredMessage {
            header_fields: headers,
            payload,
            trailer_fields: Vec::new(),
        };
        if signs {
            let own = own.as_ref().ok_or(V1EncapError::NoCredential)?;
            msg.trailer_fields
                .push(TrailerField::Signature(placeholder_signature(own.signing_key.curve())));
            let mut tbs = msg.to_be_signed().unwrap_or_default();
            if req.protection == V1Protection::SignExternal {
                tbs.extend_from_slice(req.payload);
            }
            msg.trailer_fields = vec![TrailerField::Signature(sign(&own.signing_key, &tbs)?)];
        }
        Ok(msg)
    }

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
        self.remember(identity);
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

        // The signature, over the received bytes: the signed bytes end with the type
        // byte of the signature trailer field, so they are a prefix of the message as
        // received. Decoding is canonical, so the re-encoding must equal that prefix.
        let signed = msg
            .to_be_signed()
            .ok_or_else(|| rej(RejectReason::UnsignedMessage, "no signature"))?;
        let received = bytes
            .get(..signed.len())
            .filter(|r| *r == signed.as_slice())
            .ok_or_else(|| {
                rej(
                    RejectReason::InvalidEncoding,
                    "signed bytes differ from the received encoding",
                )
            })?;
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
        if self.replay_seen.contains(&identity) {
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

    fn remember(&mut self, k: [u8; 32]) {
        if self.replay_seen.insert(k) {
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
fn signature_form_violation(sig: &v2x_wire::v1_2_1::Signature, form: SignatureForm) -> Option<String> {
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
        v2x_wire::v1_2_1::EccPoint::CompressedLsbY1(x) => v2x_crypto::RPoint::Compressed { y_odd: true, x: x.clone() },
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

fn aes_ccm_encrypt(key: &[u8], nonce: &[u8; 12], plaintext: &[u8]) -> Result<Vec<u8>, CryptoError> {
    match key.len() {
        16 => {
            let mut k = [0u8; 16];
            k.copy_from_slice(key);
            aes128_ccm_encrypt(&k, nonce, plaintext)
        }
        32 => {
            let mut k = [0u8; 32];
            k.copy_from_slice(key);
            aes256_ccm_encrypt(&k, nonce, plaintext)
        }
        n => Err(CryptoError::InvalidLength {
            what: "AES key",
            expected: 16,
            got: n,
        }),
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
