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
//!
//! SN-DECAP is in `super::decap` (`V1Entity::decap`).

use super::crypto::{certificate_digest, ecies_wrap, encryption_key, placeholder_signature, sign};
use super::pki::Credential;
use super::validate::V1TrustStore;
use crate::message_signature::SignatureForm;
use crate::reason::{RejectReason, Rejection};
use crate::time::TaiTime;
use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};
use std::time::Duration;
use v2x_crypto::{aes128_ccm_encrypt, aes256_ccm_encrypt, random_bytes, CryptoError};
use v2x_wire::v1_2_1::{
    Certificate, EncryptedKey, EncryptionParameters, HashedId3, HashedId8, HeaderField, Payload, PayloadType,
    RecipientInfo, SecuredMessage, SignerInfo, SymmetricAlgorithm, ThreeDLocation, TrailerField,
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
    pub(super) own: Option<Credential>,
    pub(super) own_authorities: Vec<Certificate>,
    pub store: V1TrustStore,
    pub policy: V1Policy,
    pub(super) last_full_certificate: Option<TaiTime>,
    pub(super) certificate_requested: bool,
    pub(super) chain_requested: bool,
    pub(super) unknown_certificates: BTreeSet<HashedId3>,
    /// Identities of accepted signed messages (SHA-256 of the signed bytes), each with the
    /// time after which its message is stale anyway (generation time + max_age).
    pub(super) replay_seen: HashMap<[u8; 32], TaiTime>,
    pub(super) replay_order: VecDeque<[u8; 32]>,
    /// INSECURE signature-only mode: the certificates whose message signatures it verified
    /// (never used by strict SN-DECAP), so that digest signers that follow resolve.
    pub(super) signature_only_certificates: HashMap<HashedId8, Certificate>,
}

pub(super) fn rej(reason: RejectReason, detail: impl Into<String>) -> Rejection {
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
            replay_seen: HashMap::new(),
            replay_order: VecDeque::new(),
            signature_only_certificates: HashMap::new(),
        }
    }

    /// The replay window: each accepted message's identity and when it may be forgotten (for
    /// a receiver's state kept between runs).
    pub fn replay_entries(&self) -> impl Iterator<Item = ([u8; 32], TaiTime)> + '_ {
        self.replay_order
            .iter()
            .filter_map(|k| self.replay_seen.get(k).map(|t| (*k, *t)))
    }

    /// Restores an entry of [`V1Entity::replay_entries`]; one already stale at `now` is not kept.
    pub fn restore_replay_entry(&mut self, identity: [u8; 32], expires: TaiTime, now: TaiTime) {
        if expires >= now {
            self.remember(identity, expires);
        }
    }

    /// The certificates signature-only SN-DECAP verified signatures with (INSECURE mode;
    /// none of them is validated).
    pub fn signature_only_certificates(&self) -> impl Iterator<Item = &Certificate> {
        self.signature_only_certificates.values()
    }

    /// Remembers a certificate for signature-only SN-DECAP (never for strict SN-DECAP).
    pub fn learn_signature_only_certificate(&mut self, cert: Certificate) {
        self.signature_only_certificates.insert(certificate_digest(&cert), cert);
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
