//! The enrolment authority (TS 102 941 §6.2.3.2 enrolment, §6.2.3.4 authorization
//! validation), without I/O: [`EnrolmentAuthority::open_enrolment`] /
//! [`EnrolmentAuthority::open_validation`] (or, for an AA in the same process,
//! [`EnrolmentAuthority::open_validation_in_process`]) decrypt and check everything the request
//! itself shows; the caller then looks the ITS-S or EC up in its registry and passes the record to
//! [`EnrolmentAuthority::decide_enrolment`] / [`EnrolmentAuthority::decide_validation`]; the
//! response is built by [`EnrolmentAuthority::enrolment_response`] /
//! [`EnrolmentAuthority::validation_response`]. Every refusal carries the standard's code.
//!
//! Privacy: a validation request holds the shared request (with `keyTag`, an HMAC of the AT
//! keys) and the EC signature, never the AT's public keys; nothing here can reach them.

use super::attributes::{self, not_granted};
use super::envelope::{self, EnvelopeCodes, EnvelopeError, SignedMessage, Signer, SignerId};
use super::{replay_key, wire, Freshness, NotOpened, Refusal, Reply};
use crate::authority::Authority;
use crate::certificate::{AppPermission, CertRef, Certificate};
use crate::convert;
use crate::encryption::DecryptionKey;
use crate::issue::{issue_certificate, CertificateSpec, IssuerKey};
use crate::time::TaiTime;
use std::sync::Arc;
use std::time::Duration;
use v2x_crypto::{HashedId8, PrivateKey, PublicKey};
use v2x_wire::ItsAid;
use wire::{
    AuthorizationValidationResponse, AuthorizationValidationResponseCode as Avc, CertificateSubjectAttributes,
    EcSignature, EnrolmentResponseCode as Erc, EtsiTs102941Data, EtsiTs102941DataContent, InnerEcResponse,
    SharedAtRequest,
};

/// The EA's policy.
#[derive(Debug, Clone)]
pub struct EaPolicy {
    pub freshness: Freshness,
    /// How long a new EC is valid (cut at the EA certificate's end). Default: three years.
    pub ec_validity: Duration,
    /// What an EC permits: the secured certificate request service (ITS-AID 623) with the
    /// SSP "enrolment, authorization" (`01 C0`), as in the ETSI test PKIs.
    pub ec_permissions: Vec<AppPermission>,
}

impl Default for EaPolicy {
    fn default() -> Self {
        EaPolicy {
            freshness: Freshness::default(),
            ec_validity: Duration::from_secs(3 * 31_556_952),
            ec_permissions: vec![AppPermission::new(ItsAid::CERT_REQUEST, Some(vec![0x01, 0xc0]))],
        }
    }
}

/// What the EA's registry holds about an ITS-S (registered by its manufacturer or operator).
#[derive(Debug, Clone)]
pub struct StationRecord {
    pub canonical_key: PublicKey,
    pub revoked: bool,
    /// What the station's authorization tickets may permit.
    pub at_permissions: Vec<AppPermission>,
}

/// What the EA's registry holds about an enrolment credential it issued.
#[derive(Debug, Clone)]
pub struct EcRecord {
    pub certificate: CertRef,
    /// The EC, or its station, is revoked.
    pub revoked: bool,
    /// What the station's authorization tickets may permit.
    pub at_permissions: Vec<AppPermission>,
}

/// Who asks to be enrolled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Requester {
    /// Initial enrolment: the ITS-S's canonical identifier (request signed by the canonical key).
    Canonical(Vec<u8>),
    /// Re-enrolment: the current EC (request signed by it; `itsId` is its HashedId8).
    Enrolled(HashedId8),
}

/// An enrolment request the EA could decrypt and that passed every check it carries in itself.
#[derive(Debug)]
pub struct Enrolment {
    pub reply: Reply,
    pub requester: Requester,
    /// What the replay check remembers.
    pub replay_key: [u8; 32],
    outer: SignedMessage,
    verification_key: PublicKey,
    encryption_key: Option<PublicKey>,
    requested: CertificateSubjectAttributes,
}

/// A validation request the EA could decrypt and that passed every check it carries in itself.
/// `R` is how the EA answers: [`Reply`] for a request that came over the wire, `()` for one
/// handed over in process ([`EnrolmentAuthority::open_validation_in_process`]), whose decision
/// goes back to the AA as a value.
#[derive(Debug)]
pub struct Validation<R = Reply> {
    pub reply: R,
    /// The EC that signed the shared request.
    pub ec: HashedId8,
    /// What the replay check remembers: the EC signature's tbsData hash (one EC signature buys
    /// one validation, whichever AA forwards it).
    pub replay_key: [u8; 32],
    /// The AA that asked.
    pub aa: HashedId8,
    ec_signature: SignedMessage,
    shared: SharedAtRequest,
    requested: Vec<AppPermission>,
}

/// The enrolment authority.
pub struct EnrolmentAuthority {
    pub ea: Authority,
    decryption: DecryptionKey,
    /// The AAs whose validation requests the EA answers.
    aas: Vec<CertRef>,
    pub policy: EaPolicy,
}

const ENVELOPE_CODES: EnvelopeCodes<Erc> = EnvelopeCodes {
    not_for_me: Erc::Imnottherecipient,
    unknown_algorithm: Erc::Unknownencryptionalgorithm,
    decryption_failed: Erc::Decryptionfailed,
    bad_content_type: Erc::Badcontenttype,
    cant_parse: Erc::Cantparse,
};

const VALIDATION_ENVELOPE_CODES: EnvelopeCodes<Avc> = EnvelopeCodes {
    not_for_me: Avc::Imnottherecipient,
    unknown_algorithm: Avc::Unknownencryptionalgorithm,
    decryption_failed: Avc::Decryptionfailed,
    bad_content_type: Avc::Badcontenttype,
    cant_parse: Avc::Cantparse,
};

impl EnrolmentAuthority {
    /// An EA with its certificate and signing key, its decryption key (the private key of its
    /// certificate's encryption key) and the AAs it serves.
    pub fn new(ea: Authority, encryption_key: PrivateKey, aas: Vec<CertRef>, policy: EaPolicy) -> Self {
        let decryption = DecryptionKey {
            certificate: ea.certificate.clone(),
            key: encryption_key,
        };
        EnrolmentAuthority {
            ea,
            decryption,
            aas,
            policy,
        }
    }

    /// The EA certificate.
    pub fn certificate(&self) -> &CertRef {
        &self.ea.certificate
    }

    /// Decrypts an `EnrolmentRequestMessage` and checks what it carries in itself: the
    /// envelope, PSID, freshness, the content type, the proof of possession, the keys, the
    /// requested attributes. Refused: answer with [`Self::enrolment_response`].
    pub fn open_enrolment(&self, request: &[u8], now: TaiTime) -> Result<Enrolment, NotOpened<Erc>> {
        envelope::open_request(request, &self.decryption, &ENVELOPE_CODES, |plaintext, reply| {
            self.check_enrolment(plaintext, reply, now)
        })
    }

    fn check_enrolment(&self, plaintext: &[u8], reply: Reply, now: TaiTime) -> Result<Enrolment, Refusal<Erc>> {
        let refuse = |code: Erc| move |e: EnvelopeError| Refusal::new(code, e.to_string());
        let outer = SignedMessage::parse(plaintext).map_err(|e| ENVELOPE_CODES.refusal(&e))?;
        if outer.psid != Some(ItsAid::CERT_REQUEST) {
            return Err(Refusal::new(Erc::Badcontenttype, "not signed for PSID 623"));
        }
        self.policy
            .freshness
            .check(outer.generation_time, now)
            .map_err(|e| Refusal::new(Erc::Deniedrequest, format!("request time: {e}")))?;
        let content = outer.data().map_err(refuse(Erc::Badcontenttype))?;
        let data = wire::decode(content).map_err(|e| Refusal::new(Erc::Cantparse, e.to_string()))?;
        if !matches!(data.content, EtsiTs102941DataContent::EnrolmentRequest(_)) {
            return Err(Refusal::new(
                Erc::Badcontenttype,
                format!("{} is not an enrolment request", data.kind()),
            ));
        }
        let spans = wire::nested_spans(content).map_err(|e| Refusal::new(Erc::Cantparse, e.to_string()))?;
        let pop_bytes = spans
            .secured
            .and_then(|r| content.get(r))
            .ok_or_else(|| Refusal::new(Erc::Cantparse, "no InnerEcRequestSignedForPop"))?;
        let pop = SignedMessage::parse(pop_bytes).map_err(refuse(Erc::Cantparse))?;
        let inner = wire::decode_inner_ec_request(pop.data().map_err(refuse(Erc::Badcontenttype))?)
            .map_err(|e| Refusal::new(Erc::Cantparse, e.to_string()))?;
        if inner.certificate_format != wire::CertificateFormat::TS103097V131 {
            return Err(Refusal::new(
                Erc::Deniedrequest,
                "certificate format other than ts103097v131",
            ));
        }
        let verification_key = convert::verification_key(&inner.public_keys.verification_key)
            .map_err(|e| Refusal::new(Erc::Invalidkeys, format!("verification key: {e}")))?;
        let encryption_key = inner
            .public_keys
            .encryption_key
            .as_ref()
            .map(|k| convert::encryption_key(&k.public_key))
            .transpose()
            .map_err(|e| Refusal::new(Erc::Invalidkeys, format!("encryption key: {e}")))?;
        // Proof of possession: the inner request is signed with the key it asks to certify.
        pop.verify_own(&verification_key)
            .map_err(|e| Refusal::new(Erc::Invalidsignature, format!("proof of possession: {e}")))?;
        self.policy
            .freshness
            .check(pop.generation_time, now)
            .map_err(|e| Refusal::new(Erc::Deniedrequest, format!("proof-of-possession time: {e}")))?;
        let asked = attributes::requested_app_permissions(&inner.requested_subject_attributes)
            .map_err(|e| Refusal::new(Erc::Incompleterequest, e.to_string()))?;
        let missing = not_granted(&asked, &self.policy.ec_permissions);
        if !missing.is_empty() {
            return Err(Refusal::new(
                Erc::Deniedpermissions,
                format!("not granted: {missing:?}"),
            ));
        }
        let requester = match &outer.signer {
            SignerId::Own => Requester::Canonical(inner.its_id.to_vec()),
            SignerId::Digest(id) => {
                if inner.its_id[..] != id.0[..] {
                    return Err(Refusal::new(
                        Erc::Invalidsignature,
                        "re-enrolment: itsId is not the HashedId8 of the signing EC",
                    ));
                }
                Requester::Enrolled(*id)
            }
            SignerId::Certificate(_) => {
                return Err(Refusal::new(
                    Erc::Badcontenttype,
                    "signer is a certificate, not self or digest",
                ))
            }
        };
        Ok(Enrolment {
            reply,
            requester,
            replay_key: replay_key(plaintext),
            outer,
            verification_key,
            encryption_key,
            requested: inner.requested_subject_attributes,
        })
    }

    /// Decides an initial enrolment with what the registry holds for the canonical id
    /// (`None`: unknown) — or a re-enrolment with the EC record (`None`: unknown EC). On
    /// success, returns the new EC.
    pub fn decide_enrolment(
        &self,
        enrolment: &Enrolment,
        station: Option<&StationRecord>,
        ec: Option<&EcRecord>,
        now: TaiTime,
    ) -> Result<CertRef, Refusal<Erc>> {
        match &enrolment.requester {
            Requester::Canonical(_) => {
                let s = station.ok_or_else(|| Refusal::new(Erc::Unknownits, "canonical id not registered"))?;
                if s.revoked {
                    return Err(Refusal::new(Erc::Baditsstatus, "the ITS-S is revoked"));
                }
                enrolment
                    .outer
                    .verify_own(&s.canonical_key)
                    .map_err(|e| Refusal::new(Erc::Invalidsignature, format!("canonical key: {e}")))?;
            }
            Requester::Enrolled(id) => {
                let r = ec.ok_or_else(|| Refusal::new(Erc::Unknownits, format!("EC {id} unknown")))?;
                if r.revoked {
                    return Err(Refusal::new(Erc::Baditsstatus, "the EC or its ITS-S is revoked"));
                }
                if !r.certificate.validity().contains(now) {
                    return Err(Refusal::new(Erc::Baditsstatus, "the EC is expired or not yet valid"));
                }
                enrolment
                    .outer
                    .verify_by(&r.certificate)
                    .map_err(|e| Refusal::new(Erc::Invalidsignature, format!("current EC: {e}")))?;
            }
        }
        self.issue_ec(enrolment, now)
    }

    fn issue_ec(&self, enrolment: &Enrolment, now: TaiTime) -> Result<CertRef, Refusal<Erc>> {
        let ea_start = TaiTime::from_time32(self.ea.certificate.validity().start as u32);
        let start = now.saturating_sub(crate::authority::TICKET_BACKDATE).max(ea_start);
        let ea_end = self.ea.certificate.validity().end;
        let mut validity = self.policy.ec_validity;
        if let Some((_, asked)) = attributes::requested_validity(&enrolment.requested) {
            validity = validity.min(asked);
        }
        let validity =
            attributes::representable_floor(validity.min(Duration::from_secs(ea_end.saturating_sub(start.seconds()))));
        let mut spec = CertificateSpec::new(None, start, validity);
        spec.app_permissions = self.policy.ec_permissions.clone();
        spec.encryption_key = enrolment.encryption_key.clone();
        spec.assurance_level = enrolment.requested.assurance_level.as_ref().map(|a| a.0[0]);
        let cert = issue_certificate(
            &spec,
            &enrolment.verification_key,
            IssuerKey::Ca {
                cert: &self.ea.certificate,
                key: &self.ea.key,
            },
        )
        .map_err(|e| Refusal::new(Erc::Deniedrequest, format!("issuing: {e}")))?;
        Ok(Arc::new(cert))
    }

    fn seal(&self, reply: &Reply, content: EtsiTs102941DataContent, now: TaiTime) -> Result<Vec<u8>, EnvelopeError> {
        let payload = wire::encode(&EtsiTs102941Data::v1(content))?;
        let signed = envelope::sign(&payload, Signer::Certificate(&self.ea.certificate, &self.ea.key), now)?;
        envelope::encrypt_psk(&signed, &reply.key)
    }

    /// The `EnrolmentResponseMessage`: signed by the EA, encrypted under the request's key;
    /// `certificate` exactly when `code` is `ok`.
    pub fn enrolment_response(
        &self,
        reply: &Reply,
        code: Erc,
        certificate: Option<&Certificate>,
        now: TaiTime,
    ) -> Result<Vec<u8>, EnvelopeError> {
        let certificate = match (code, certificate) {
            (Erc::Ok, Some(c)) => Some(c.decoded().clone()),
            (Erc::Ok, None) => return Err(EnvelopeError::BadContentType("an EC for an ok response")),
            _ => None,
        };
        self.seal(
            reply,
            EtsiTs102941DataContent::EnrolmentResponse(InnerEcResponse::new(reply.request_hash, code, certificate)),
            now,
        )
    }

    /// Decrypts an `AuthorizationValidationRequestMessage` and checks what it carries: the
    /// envelope, the AA (known, valid, its signature), freshness, that the EA is the one named,
    /// the EC signature's form and that it covers the shared request. What is left needs the
    /// EC from the registry ([`Self::decide_validation`]).
    pub fn open_validation(&self, request: &[u8], now: TaiTime) -> Result<Validation, NotOpened<Avc>> {
        envelope::open_request(
            request,
            &self.decryption,
            &VALIDATION_ENVELOPE_CODES,
            |plaintext, reply| self.check_validation(plaintext, reply, now),
        )
    }

    /// Checks the content of a validation request that an AA of this EA, in this process,
    /// hands over without the envelope (unsigned, unencrypted: `AuthorizationValidationRequest`
    /// as [`crate::ts102941::aa::AuthorizationAuthority::validation_content`] encodes it). The
    /// envelope authenticates the AA to the EA and hides the request on the way; in one
    /// process there is no way, and the AA's certificate is checked as one this EA serves and
    /// valid now, as for a signed request. Everything else is checked as in
    /// [`Self::open_validation`]: the EC signature (decrypted with the EA's key when
    /// encrypted), its freshness and that it covers the shared request.
    pub fn open_validation_in_process(
        &self,
        content: &[u8],
        aa: &Certificate,
        now: TaiTime,
    ) -> Result<Validation<()>, Refusal<Avc>> {
        let aa = self
            .aas
            .iter()
            .find(|a| a.encoded() == aa.encoded())
            .ok_or_else(|| Refusal::new(Avc::Invalidaa, "not an AA this EA serves"))?;
        if !aa.validity().contains(now) {
            return Err(Refusal::new(Avc::Invalidaa, "the AA certificate is not valid now"));
        }
        self.check_validation_content(content, aa.hashed_id8(), (), now)
    }

    fn check_validation(&self, plaintext: &[u8], reply: Reply, now: TaiTime) -> Result<Validation, Refusal<Avc>> {
        let outer = SignedMessage::parse(plaintext).map_err(|e| VALIDATION_ENVELOPE_CODES.refusal(&e))?;
        if outer.psid != Some(ItsAid::CERT_REQUEST) {
            return Err(Refusal::new(Avc::Badcontenttype, "not signed for PSID 623"));
        }
        let aa = match &outer.signer {
            SignerId::Digest(id) => self.aas.iter().find(|a| a.hashed_id8() == *id).cloned(),
            SignerId::Certificate(c) => self.aas.iter().find(|a| a.encoded() == c.encoded()).cloned(),
            SignerId::Own => None,
        }
        .ok_or_else(|| Refusal::new(Avc::Invalidaa, "not signed by an AA this EA serves"))?;
        if !aa.validity().contains(now) {
            return Err(Refusal::new(Avc::Invalidaa, "the AA certificate is not valid now"));
        }
        outer
            .verify_by(&aa)
            .map_err(|e| Refusal::new(Avc::Invalidaasignature, e.to_string()))?;
        self.policy
            .freshness
            .check(outer.generation_time, now)
            .map_err(|e| Refusal::new(Avc::Deniedrequest, format!("request time: {e}")))?;
        let content = outer
            .data()
            .map_err(|e| Refusal::new(Avc::Badcontenttype, e.to_string()))?;
        self.check_validation_content(content, aa.hashed_id8(), reply, now)
    }

    /// What a validation request's content shows, once its AA (`aa`) is known.
    fn check_validation_content<R>(
        &self,
        content: &[u8],
        aa: HashedId8,
        reply: R,
        now: TaiTime,
    ) -> Result<Validation<R>, Refusal<Avc>> {
        let data = wire::decode(content).map_err(|e| Refusal::new(Avc::Cantparse, e.to_string()))?;
        let EtsiTs102941DataContent::AuthorizationValidationRequest(req) = data.content else {
            return Err(Refusal::new(
                Avc::Badcontenttype,
                format!("{} is not a validation request", data.kind()),
            ));
        };
        if convert::hashed_id8_from_wire(&req.shared_at_request.ea_id) != self.ea.certificate.hashed_id8() {
            return Err(Refusal::new(Avc::Wrongea, "eaId names another EA"));
        }
        let spans = wire::nested_spans(content).map_err(|e| Refusal::new(Avc::Cantparse, e.to_string()))?;
        let (Some(sig_range), Some(shared_range)) = (spans.secured, spans.shared_at_request) else {
            return Err(Refusal::new(Avc::Cantparse, "no EC signature"));
        };
        let sig_bytes = &content[sig_range];
        let ec_signature = match &req.ec_signature {
            EcSignature::EcSignature(_) => SignedMessage::parse(sig_bytes),
            EcSignature::EncryptedEcSignature(_) => {
                let (inner, _) = envelope::decrypt_request(sig_bytes, &self.decryption).map_err(|e| match e {
                    EnvelopeError::NotForMe => {
                        Refusal::new(Avc::Wrongea, "the EC signature is encrypted for another EA")
                    }
                    e => Refusal::new(VALIDATION_ENVELOPE_CODES.code(&e), format!("EC signature: {e}")),
                })?;
                SignedMessage::parse(&inner)
            }
        }
        .map_err(|e| Refusal::new(Avc::Cantparse, format!("EC signature: {e}")))?;
        let envelope::Payload::ExternalHash(h) = ec_signature.payload else {
            return Err(Refusal::new(
                Avc::Badcontenttype,
                "the EC signature is not over an external hash",
            ));
        };
        if h != v2x_crypto::sha256(&content[shared_range]) {
            return Err(Refusal::new(
                Avc::Invalidsignature,
                "the EC signature is not over this shared request",
            ));
        }
        if ec_signature.psid != Some(ItsAid::CERT_REQUEST) {
            return Err(Refusal::new(Avc::Invalidsignature, "EC signature not for PSID 623"));
        }
        let ec = match &ec_signature.signer {
            SignerId::Digest(id) => *id,
            SignerId::Certificate(c) => c.hashed_id8(),
            SignerId::Own => return Err(Refusal::new(Avc::Invalidsignature, "EC signature signed by self")),
        };
        self.policy
            .freshness
            .check(ec_signature.generation_time, now)
            .map_err(|e| Refusal::new(Avc::Deniedrequest, format!("EC signature time: {e}")))?;
        let requested = attributes::requested_app_permissions(&req.shared_at_request.requested_subject_attributes)
            .map_err(|e| Refusal::new(Avc::Deniedpermissions, e.to_string()))?;
        Ok(Validation {
            reply,
            ec,
            replay_key: ec_signature.tbs_hash(),
            aa,
            ec_signature,
            shared: req.shared_at_request,
            requested,
        })
    }

    /// Decides a validation with the registry's record of the EC (`None`: unknown). On success,
    /// the attributes the EA confirms (what was asked, all of it granted).
    pub fn decide_validation<R>(
        &self,
        validation: &Validation<R>,
        ec: Option<&EcRecord>,
        now: TaiTime,
    ) -> Result<CertificateSubjectAttributes, Refusal<Avc>> {
        let r = ec.ok_or_else(|| Refusal::new(Avc::Unknownits, format!("EC {} unknown", validation.ec)))?;
        validation
            .ec_signature
            .verify_by(&r.certificate)
            .map_err(|e| Refusal::new(Avc::Invalidsignature, e.to_string()))?;
        if r.revoked {
            return Err(Refusal::new(Avc::Deniedrequest, "the EC or its ITS-S is revoked"));
        }
        if !r.certificate.validity().contains(now) {
            return Err(Refusal::new(Avc::Deniedrequest, "the EC is expired or not yet valid"));
        }
        let missing = not_granted(&validation.requested, &r.at_permissions);
        if !missing.is_empty() {
            return Err(Refusal::new(
                Avc::Deniedpermissions,
                format!("not granted: {missing:?}"),
            ));
        }
        Ok(validation.shared.requested_subject_attributes.clone())
    }

    /// The `AuthorizationValidationResponseMessage`: signed by the EA, encrypted under the
    /// AA's key; `confirmed` exactly when `code` is `ok`.
    pub fn validation_response(
        &self,
        reply: &Reply,
        code: Avc,
        confirmed: Option<CertificateSubjectAttributes>,
        now: TaiTime,
    ) -> Result<Vec<u8>, EnvelopeError> {
        let confirmed = if code == Avc::Ok { confirmed } else { None };
        if code == Avc::Ok && confirmed.is_none() {
            return Err(EnvelopeError::BadContentType("confirmed attributes for an ok response"));
        }
        self.seal(
            reply,
            EtsiTs102941DataContent::AuthorizationValidationResponse(AuthorizationValidationResponse::new(
                reply.request_hash,
                code,
                confirmed,
            )),
            now,
        )
    }
}
