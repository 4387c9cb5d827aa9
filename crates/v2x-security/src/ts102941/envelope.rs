//! The envelopes of TS 102 941 messages (TS 103 097 §5 / 1609.2 §5.3): signed data with PSID
//! 623 (secured certificate request service) and a generation time, signed by a certificate
//! (signer `digest`) or by the key the request is about (signer `self`, proof of possession);
//! an EC signature over the hash of external data (`SignedExternalPayload`); and encryption,
//! either ECIES to a certificate's encryption key (`certRecipInfo`, requests) or directly
//! under the AES key the request came with (`pskRecipInfo`, responses).

use super::{request_hash, NotOpened, Refusal, Reply};
use crate::certificate::{join_hash, Certificate};
use crate::convert::{self, ConvertError};
use crate::encryption::{self, DecryptionKey, SymmetricKey};
use crate::message_signature::SignatureError;
use crate::signed::{verify_signed_data, SignedDataError};
use crate::time::TaiTime;
use rasn::types::{FixedOctetString, OctetString};
use rasn_its::ieee1609dot2 as w;
use rasn_its::ieee1609dot2::base_types as bt;
use std::collections::HashMap;
use std::sync::Arc;
use v2x_crypto::{
    aes128_ccm_decrypt, aes128_ccm_encrypt, hash, random_bytes, HashAlg, HashedId8, PrivateKey, PublicKey,
};
use v2x_wire::ieee1609dot2::{self as wire, SignedDataSpans, WireError};
use v2x_wire::ItsAid;

/// Who signs.
#[derive(Clone, Copy)]
pub enum Signer<'a> {
    /// Signer `self`: the key the request is about (proof of possession), or an ITS-S's
    /// canonical key.
    Own(&'a PrivateKey),
    /// Signer `digest`: a certificate and its key.
    Certificate(&'a Certificate, &'a PrivateKey),
}

/// Why an envelope could not be built or opened (the policy modules map each to the
/// standard's response code).
#[derive(Debug, thiserror::Error)]
pub enum EnvelopeError {
    #[error("encoding: {0}")]
    Encoding(#[from] WireError),
    #[error("{0}")]
    Convert(#[from] ConvertError),
    #[error("crypto: {0}")]
    Crypto(#[from] v2x_crypto::CryptoError),
    #[error("not {0}")]
    BadContentType(&'static str),
    #[error("no recipient info for us")]
    NotForMe,
    #[error("unsupported algorithm: {0}")]
    UnknownAlgorithm(&'static str),
    #[error("decryption failed: {0}")]
    DecryptionFailed(String),
    #[error("signer {0} is not the expected one")]
    WrongSigner(String),
    #[error("signature: {0}")]
    Signature(String),
    #[error("encryption: {0}")]
    Encrypt(#[from] encryption::EncryptError),
}

impl From<SignedDataError> for EnvelopeError {
    fn from(e: SignedDataError) -> Self {
        match e {
            SignedDataError::WrongSigner { .. } | SignedDataError::WrongSignerCertificate => {
                EnvelopeError::WrongSigner(e.to_string())
            }
            other => EnvelopeError::Signature(other.to_string()),
        }
    }
}

impl From<SignatureError> for EnvelopeError {
    fn from(e: SignatureError) -> Self {
        EnvelopeError::Signature(e.to_string())
    }
}

fn header(now: TaiTime) -> w::HeaderInfo {
    w::HeaderInfo::builder()
        .psid(convert::psid(ItsAid::CERT_REQUEST))
        .generation_time(bt::Time64(now.0))
        .build()
}

fn sign_tbs(tbs: &w::ToBeSignedData, signer: Signer<'_>) -> Result<Vec<u8>, EnvelopeError> {
    let tbs_bytes = wire::encode(tbs)?;
    let (key, issuer_hash, id) = match signer {
        Signer::Own(key) => {
            let alg = key.curve().hash_alg();
            (key, hash(alg, b""), w::SignerIdentifier::SelfSigned(()))
        }
        Signer::Certificate(cert, key) => (
            key,
            *cert.signer_hash(),
            w::SignerIdentifier::Digest(convert::hashed_id8_to_wire(cert.hashed_id8())),
        ),
    };
    let alg = key.curve().hash_alg();
    let digest = join_hash(alg, hash(alg, &tbs_bytes).as_ref(), issuer_hash.as_ref());
    let sig = convert::signature_to_wire(&key.sign_digest(digest.as_ref())?)?;
    Ok(wire::encode_signed_data_from_parts(
        convert::hash_alg_to_wire(alg),
        &tbs_bytes,
        &id,
        &sig,
    )?)
}

/// `EtsiTs103097Data-Signed`: `payload` as unsecured data, PSID 623, generation time `now`.
pub fn sign(payload: &[u8], signer: Signer<'_>, now: TaiTime) -> Result<Vec<u8>, EnvelopeError> {
    let tbs = wire::to_be_signed_data(wire::unsecured(payload.to_vec()), header(now))?;
    sign_tbs(&tbs, signer)
}

/// `EtsiTs103097Data-SignedExternalPayload`: a signature over `extDataHash` = SHA-256 of
/// `external` (the EC signature of an authorization request covers the shared request).
pub fn sign_external(external: &[u8], signer: Signer<'_>, now: TaiTime) -> Result<Vec<u8>, EnvelopeError> {
    let payload = w::SignedDataPayload::builder()
        .ext_data_hash(w::HashedData::Sha256HashedData(bt::HashedId32(FixedOctetString::from(
            v2x_crypto::sha256(external),
        ))))
        .build()
        .map_err(WireError::from)?;
    let tbs = w::ToBeSignedData {
        payload,
        header_info: header(now),
    };
    sign_tbs(&tbs, signer)
}

/// Who signed received signed data.
#[derive(Debug, Clone)]
pub enum SignerId {
    Own,
    Digest(HashedId8),
    Certificate(Arc<Certificate>),
}

/// What signed data carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Payload {
    /// `unsecuredData`.
    Data(Vec<u8>),
    /// `extDataHash` (SHA-256).
    ExternalHash([u8; 32]),
}

/// Received signed data, decoded, its signature not yet checked.
#[derive(Debug, Clone)]
pub struct SignedMessage {
    bytes: Vec<u8>,
    signed: w::SignedData,
    spans: SignedDataSpans,
    pub signer: SignerId,
    pub payload: Payload,
    pub generation_time: Option<TaiTime>,
    pub psid: Option<ItsAid>,
}

impl SignedMessage {
    /// Decodes signed data (`EtsiTs103097Data-Signed` or `-SignedExternalPayload`).
    pub fn parse(bytes: &[u8]) -> Result<SignedMessage, EnvelopeError> {
        let (data, spans) = wire::parse_data(bytes)?;
        let spans = spans.ok_or(EnvelopeError::BadContentType("signed data"))?;
        let w::Ieee1609Dot2Content::SignedData(signed) = data.content else {
            return Err(EnvelopeError::BadContentType("signed data"));
        };
        let signed = *signed;
        let payload = match (&signed.tbs_data.payload.data, &signed.tbs_data.payload.ext_data_hash) {
            (Some(_), None) => Payload::Data(
                wire::signed_unsecured_payload(&signed)
                    .ok_or(EnvelopeError::BadContentType("unsecured data inside the signed data"))?
                    .to_vec(),
            ),
            (None, Some(w::HashedData::Sha256HashedData(h))) => {
                let mut out = [0u8; 32];
                out.copy_from_slice(&h.0[..]);
                Payload::ExternalHash(out)
            }
            (None, Some(_)) => return Err(EnvelopeError::UnknownAlgorithm("external data hash other than SHA-256")),
            _ => {
                return Err(EnvelopeError::BadContentType(
                    "signed data with either data or extDataHash",
                ))
            }
        };
        let signer = match &signed.signer {
            w::SignerIdentifier::SelfSigned(()) => SignerId::Own,
            w::SignerIdentifier::Digest(d) => SignerId::Digest(convert::hashed_id8_from_wire(d)),
            w::SignerIdentifier::Certificate(_) => {
                let first = spans
                    .signer_certificates
                    .first()
                    .and_then(|r| bytes.get(r.clone()))
                    .ok_or(EnvelopeError::BadContentType("a signer certificate"))?;
                let cert = Certificate::from_bytes(first)
                    .map_err(|e| EnvelopeError::Signature(format!("signer certificate: {e}")))?;
                SignerId::Certificate(Arc::new(cert))
            }
            _ => return Err(EnvelopeError::UnknownAlgorithm("signer identifier")),
        };
        let header = &signed.tbs_data.header_info;
        Ok(SignedMessage {
            bytes: bytes.to_vec(),
            generation_time: header.generation_time.as_ref().map(|t| TaiTime(t.0)),
            psid: convert::psid_value(&header.psid),
            signed,
            spans,
            signer,
            payload,
        })
    }

    /// The received encoding.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// SHA-256 over the received `tbsData`: what a replay of this signature repeats.
    pub fn tbs_hash(&self) -> [u8; 32] {
        v2x_crypto::sha256(&self.bytes[self.spans.tbs_data.clone()])
    }

    /// Checks a `self` signature with `key` (1609.2 §5.3.1: the signer input is the empty
    /// string).
    pub fn verify_own(&self, key: &PublicKey) -> Result<(), EnvelopeError> {
        if !matches!(self.signer, SignerId::Own) {
            return Err(EnvelopeError::WrongSigner("not self".into()));
        }
        let alg = convert::hash_alg_from_wire(&self.signed.hash_id)?;
        if alg != key.curve().hash_alg() {
            return Err(EnvelopeError::Signature(format!(
                "hash {alg:?} does not go with {}",
                key.curve()
            )));
        }
        let sig = convert::signature(&self.signed.signature)?;
        let tbs = &self.bytes[self.spans.tbs_data.clone()];
        let digest = join_hash(alg, hash(alg, tbs).as_ref(), hash(alg, b"").as_ref());
        match key.verify_digest(digest.as_ref(), &sig) {
            Ok(true) => Ok(()),
            Ok(false) => Err(EnvelopeError::Signature("does not verify".into())),
            Err(e) => Err(e.into()),
        }
    }

    /// Checks a signature by `cert` (named by digest or carried).
    pub fn verify_by(&self, cert: &Certificate) -> Result<(), EnvelopeError> {
        Ok(verify_signed_data(&self.bytes, &self.signed, &self.spans, cert)?)
    }

    /// The unsecured payload (an error for an external-hash signature).
    pub fn data(&self) -> Result<&[u8], EnvelopeError> {
        match &self.payload {
            Payload::Data(d) => Ok(d),
            Payload::ExternalHash(_) => Err(EnvelopeError::BadContentType("signed data with a payload")),
        }
    }
}

/// An encrypted request: the bytes to send and the AES key the response will come under.
#[derive(Clone)]
pub struct Sealed {
    pub bytes: Vec<u8>,
    pub key: SymmetricKey,
}

impl std::fmt::Debug for Sealed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Sealed({} bytes)", self.bytes.len())
    }
}

/// `EtsiTs103097Data-Encrypted-Unicast` to `recipient`'s encryption key (ECIES, `certRecipInfo`).
pub fn encrypt_to(plaintext: &[u8], recipient: &Arc<Certificate>) -> Result<Sealed, EnvelopeError> {
    let mut keys = HashMap::new();
    let (bytes, id) = encryption::encrypt(
        plaintext,
        &encryption::Recipient::Certificate(recipient.clone()),
        &mut keys,
    )?;
    let key = keys.remove(&id).ok_or(EnvelopeError::BadContentType("a data key"))?;
    Ok(Sealed { bytes, key })
}

/// The response envelope: AES-CCM directly under the request's key, the recipient named by
/// `pskRecipInfo` = HashedId8 of that key.
pub fn encrypt_psk(plaintext: &[u8], key: &SymmetricKey) -> Result<Vec<u8>, EnvelopeError> {
    let mut nonce = [0u8; 12];
    nonce.copy_from_slice(&random_bytes(12));
    let ct = aes128_ccm_encrypt(key, &nonce, plaintext)?;
    let data = w::Ieee1609Dot2Data {
        protocol_version: 3,
        content: w::Ieee1609Dot2Content::EncryptedData(w::EncryptedData {
            recipients: w::SequenceOfRecipientInfo(vec![w::RecipientInfo::PskRecipInfo(w::PreSharedKeyRecipientInfo(
                convert::hashed_id8_to_wire(encryption::symmetric_key_id(key)),
            ))]),
            ciphertext: w::SymmetricCiphertext::Aes128ccm(w::One28BitCcmCiphertext {
                nonce: FixedOctetString::from(nonce),
                ccm_ciphertext: bt::Opaque(OctetString::from(ct)),
            }),
        }),
    };
    Ok(wire::encode(&data)?)
}

fn encrypted(bytes: &[u8]) -> Result<w::EncryptedData, EnvelopeError> {
    let (data, _) = wire::parse_data(bytes)?;
    match data.content {
        w::Ieee1609Dot2Content::EncryptedData(e) => Ok(e),
        _ => Err(EnvelopeError::BadContentType("encrypted data")),
    }
}

fn ccm_ciphertext(enc: &w::EncryptedData) -> Result<&w::One28BitCcmCiphertext, EnvelopeError> {
    match &enc.ciphertext {
        w::SymmetricCiphertext::Aes128ccm(ct) => Ok(ct),
        _ => Err(EnvelopeError::UnknownAlgorithm("content cipher other than AES-128-CCM")),
    }
}

/// Opens a request encrypted to `own` (its certificate and private encryption key): the
/// plaintext and the AES key to answer under.
pub fn decrypt_request(bytes: &[u8], own: &DecryptionKey) -> Result<(Vec<u8>, SymmetricKey), EnvelopeError> {
    let enc = encrypted(bytes)?;
    ccm_ciphertext(&enc)?;
    let mine = own.certificate.hashed_id8();
    let info = enc
        .recipients
        .0
        .iter()
        .find_map(|r| match r {
            w::RecipientInfo::CertRecipInfo(pk) if convert::hashed_id8_from_wire(&pk.recipient_id) == mine => Some(pk),
            _ => None,
        })
        .ok_or(EnvelopeError::NotForMe)?;
    match &info.enc_key {
        w::EncryptedDataEncryptionKey::EciesNistP256(_) | w::EncryptedDataEncryptionKey::EciesBrainpoolP256r1(_) => {}
        _ => {
            return Err(EnvelopeError::UnknownAlgorithm(
                "key encryption other than ECIES on a 256-bit curve",
            ))
        }
    }
    let d = encryption::decrypt(&enc, std::slice::from_ref(own), &HashMap::new())
        .map_err(|r| EnvelopeError::DecryptionFailed(r.to_string()))?;
    Ok((d.plaintext, d.key))
}

/// Where an envelope failure lands in one procedure's response codes (the enrolment, validation
/// and authorization code lists each have their own `imnottherecipient`, ... `cantparse`).
#[derive(Debug, Clone, Copy)]
pub struct EnvelopeCodes<C> {
    pub not_for_me: C,
    pub unknown_algorithm: C,
    pub decryption_failed: C,
    pub bad_content_type: C,
    /// Every other failure (encoding, conversion, signature form).
    pub cant_parse: C,
}

impl<C: Copy> EnvelopeCodes<C> {
    /// The code for `e`.
    pub fn code(&self, e: &EnvelopeError) -> C {
        match e {
            EnvelopeError::NotForMe => self.not_for_me,
            EnvelopeError::UnknownAlgorithm(_) => self.unknown_algorithm,
            EnvelopeError::DecryptionFailed(_) => self.decryption_failed,
            EnvelopeError::BadContentType(_) => self.bad_content_type,
            _ => self.cant_parse,
        }
    }

    /// A refusal with the code for `e`, naming it.
    pub fn refusal(&self, e: &EnvelopeError) -> Refusal<C> {
        Refusal::new(self.code(e), e.to_string())
    }
}

/// Opens a request encrypted to `own` and hands its plaintext to `check`: a request that does
/// not decrypt cannot be answered (`Unanswerable`, its code from `codes`); one that does is
/// answered under the key it came with, refused or not (`Refused` keeps that [`Reply`]).
pub fn open_request<T, C: Copy>(
    request: &[u8],
    own: &DecryptionKey,
    codes: &EnvelopeCodes<C>,
    check: impl FnOnce(&[u8], Reply) -> Result<T, Refusal<C>>,
) -> Result<T, NotOpened<C>> {
    let (plaintext, key) = decrypt_request(request, own).map_err(|e| NotOpened::Unanswerable(codes.refusal(&e)))?;
    let reply = Reply {
        key,
        request_hash: request_hash(request),
    };
    check(&plaintext, reply.clone()).map_err(|r| NotOpened::Refused(reply, r))
}

/// Opens a response encrypted under `key` (`pskRecipInfo`).
pub fn decrypt_psk(bytes: &[u8], key: &SymmetricKey) -> Result<Vec<u8>, EnvelopeError> {
    let enc = encrypted(bytes)?;
    let id = encryption::symmetric_key_id(key);
    let ours = enc.recipients.0.iter().any(|r| match r {
        w::RecipientInfo::PskRecipInfo(p) => convert::hashed_id8_from_wire(&p.0) == id,
        _ => false,
    });
    if !ours {
        return Err(EnvelopeError::NotForMe);
    }
    let ct = ccm_ciphertext(&enc)?;
    aes128_ccm_decrypt(key, &ct.nonce[..], &ct.ccm_ciphertext.0)
        .map_err(|e| EnvelopeError::DecryptionFailed(e.to_string()))
}

/// HashedId8 of a certificate as TS 102 941 names an authority (`eaId`, `recipientId`):
/// SHA-256 for 256-bit curves, SHA-384 for 384-bit ones (1609.2 §6.4.3).
pub fn authority_id(cert: &Certificate) -> HashedId8 {
    cert.hashed_id8()
}

/// The hash algorithm a signing key uses (1609.2: SHA-256 on 256-bit curves).
pub fn hash_alg_of(key: &PublicKey) -> HashAlg {
    key.curve().hash_alg()
}
