//! The authorization authority (TS 102 941 §6.2.3.3 authorization, §6.2.3.4 the validation
//! exchange with the EA), without I/O: [`AuthorizationAuthority::open_authorization`] checks
//! what the request shows (envelope, proof of possession, `keyTag`, the EA, freshness,
//! permissions); [`AuthorizationAuthority::validation_request`] and
//! [`AuthorizationAuthority::read_validation_response`] are the two halves of the exchange
//! with an EA over the wire that the caller carries out (with an EA in the same process,
//! [`AuthorizationAuthority::validation_content`] is what it reads, and its decision comes
//! back as a value); [`AuthorizationAuthority::issue_at`] / [`AuthorizationAuthority::issue_on`]
//! issue the ticket and [`AuthorizationAuthority::authorization_response`] answers.
//!
//! Privacy: with `encryptedEcSignature` the AA never decrypts the EC signature (it is
//! encrypted for the EA), so it never learns which EC — which ITS-S — asked.

use super::attributes::{self, not_granted};
use super::envelope::{self, EnvelopeCodes, EnvelopeError, Sealed, SignedMessage, Signer, SignerId};
use super::station::key_tag;
use super::{replay_key, request_hash, wire, Freshness, NotOpened, Refusal, Reply};
use crate::authority::Authority;
use crate::certificate::{AppPermission, CertRef, Certificate};
use crate::convert;
use crate::encryption::{DecryptionKey, SymmetricKey};
use crate::issue::{issue_certificate, CertificateSpec, IssuerKey};
use crate::time::TaiTime;
use std::sync::Arc;
use std::time::Duration;
use v2x_crypto::{PrivateKey, PublicKey};
use v2x_wire::ItsAid;
use wire::{
    AuthorizationResponseCode as Arc_, AuthorizationValidationRequest, AuthorizationValidationResponseCode as Avc,
    CertificateSubjectAttributes, EcSignature, EtsiTs102941Data, EtsiTs102941DataContent, InnerAtResponse,
    SharedAtRequest,
};

/// The AA's policy.
#[derive(Debug, Clone)]
pub struct AaPolicy {
    pub freshness: Freshness,
    /// The longest AT validity granted (asked-for validity is cut to it). Default: one week,
    /// as this crate's tickets.
    pub max_validity: Duration,
    /// What an AT may permit (an SSP of `None` allows any SSP). Default: CAM and DENM.
    pub at_permissions: Vec<AppPermission>,
}

impl Default for AaPolicy {
    fn default() -> Self {
        AaPolicy {
            freshness: Freshness::default(),
            max_validity: Duration::from_secs(7 * 86_400),
            at_permissions: vec![
                AppPermission::new(ItsAid::CAM, None),
                AppPermission::new(ItsAid::DENM, None),
            ],
        }
    }
}

/// An authorization request the AA could decrypt and that passed every check it carries.
#[derive(Debug)]
pub struct Authorization {
    pub reply: Reply,
    /// What the replay check remembers (the decrypted request).
    pub replay_key: [u8; 32],
    /// The EA to validate with.
    pub ea: CertRef,
    verification_key: PublicKey,
    encryption_key: Option<PublicKey>,
    shared: SharedAtRequest,
    ec_signature: EcSignature,
    /// The received EC signature bytes (forwarded verbatim).
    ec_signature_bytes: Vec<u8>,
    requested: Vec<AppPermission>,
}

/// The AA's half-done validation exchange: what reading the EA's answer needs.
#[derive(Debug)]
pub struct PendingValidation {
    /// The `AuthorizationValidationRequestMessage` to POST to the EA.
    pub message: Vec<u8>,
    request_hash: [u8; 16],
    key: SymmetricKey,
}

/// The AA.
pub struct AuthorizationAuthority {
    pub aa: Authority,
    decryption: DecryptionKey,
    /// The EAs whose ECs the AA accepts (by `eaId`).
    eas: Vec<CertRef>,
    pub policy: AaPolicy,
}

const ENVELOPE_CODES: EnvelopeCodes<Arc_> = EnvelopeCodes {
    not_for_me: Arc_::ItsAaImnottherecipient,
    unknown_algorithm: Arc_::ItsAaUnknownencryptionalgorithm,
    decryption_failed: Arc_::ItsAaDecryptionfailed,
    bad_content_type: Arc_::ItsAaBadcontenttype,
    cant_parse: Arc_::ItsAaCantparse,
};

/// What an EA's validation code becomes in the AA's answer to the ITS-S (the EA's findings
/// about the AA's own request are the `ea-aa-*` codes; `deniedrequest` has no AA counterpart and
/// becomes `deniedpermissions`).
pub fn relay_code(code: Avc) -> Arc_ {
    match code {
        Avc::Ok => Arc_::Ok,
        Avc::Cantparse => Arc_::EaAaCantparse,
        Avc::Badcontenttype => Arc_::EaAaBadcontenttype,
        Avc::Imnottherecipient => Arc_::EaAaImnottherecipient,
        Avc::Unknownencryptionalgorithm => Arc_::EaAaUnknownencryptionalgorithm,
        Avc::Decryptionfailed => Arc_::EaAaDecryptionfailed,
        Avc::Invalidaa => Arc_::Invalidaa,
        Avc::Invalidaasignature => Arc_::Invalidaasignature,
        Avc::Wrongea => Arc_::Wrongea,
        Avc::Unknownits => Arc_::Unknownits,
        Avc::Invalidsignature => Arc_::Invalidsignature,
        Avc::Invalidencryptionkey => Arc_::Invalidencryptionkey,
        Avc::Deniedpermissions | Avc::Deniedrequest => Arc_::Deniedpermissions,
        Avc::Deniedtoomanycerts => Arc_::Deniedtoomanycerts,
        _ => Arc_::Deniedpermissions,
    }
}

impl AuthorizationAuthority {
    /// An AA with its certificate and key, its decryption key and the EAs it works with.
    pub fn new(aa: Authority, encryption_key: PrivateKey, eas: Vec<CertRef>, policy: AaPolicy) -> Self {
        let decryption = DecryptionKey {
            certificate: aa.certificate.clone(),
            key: encryption_key,
        };
        AuthorizationAuthority {
            aa,
            decryption,
            eas,
            policy,
        }
    }

    /// The AA certificate.
    pub fn certificate(&self) -> &CertRef {
        &self.aa.certificate
    }

    /// Decrypts an `AuthorizationRequestMessage` (with or without proof of possession) and
    /// checks it. Refused: answer with [`Self::authorization_response`].
    pub fn open_authorization(&self, request: &[u8], now: TaiTime) -> Result<Authorization, NotOpened<Arc_>> {
        envelope::open_request(request, &self.decryption, &ENVELOPE_CODES, |plaintext, reply| {
            self.check_authorization(plaintext, reply, now)
        })
    }

    fn check_authorization(
        &self,
        plaintext: &[u8],
        reply: Reply,
        now: TaiTime,
    ) -> Result<Authorization, Refusal<Arc_>> {
        // Signed for proof of possession (1609.2 data, version 3) or the bare content
        // (EtsiTs102941Data, version 1).
        let pop = match plaintext.first() {
            Some(3) => Some(SignedMessage::parse(plaintext).map_err(|e| ENVELOPE_CODES.refusal(&e))?),
            _ => None,
        };
        let content = match &pop {
            Some(p) => {
                if p.psid != Some(ItsAid::CERT_REQUEST) {
                    return Err(Refusal::new(Arc_::ItsAaBadcontenttype, "not signed for PSID 623"));
                }
                p.data()
                    .map_err(|e| Refusal::new(Arc_::ItsAaBadcontenttype, e.to_string()))?
            }
            None => plaintext,
        };
        let data = wire::decode(content).map_err(|e| Refusal::new(Arc_::ItsAaCantparse, e.to_string()))?;
        let EtsiTs102941DataContent::AuthorizationRequest(inner) = data.content else {
            return Err(Refusal::new(
                Arc_::ItsAaBadcontenttype,
                format!("{} is not an authorization request", data.kind()),
            ));
        };
        let verification_key = convert::verification_key(&inner.public_keys.verification_key)
            .map_err(|e| Refusal::new(Arc_::ItsAaKeysdontmatch, format!("verification key: {e}")))?;
        let encryption_key = inner
            .public_keys
            .encryption_key
            .as_ref()
            .map(|k| convert::encryption_key(&k.public_key))
            .transpose()
            .map_err(|e| Refusal::new(Arc_::ItsAaInvalidencryptionkey, e.to_string()))?;
        if let Some(p) = &pop {
            if !matches!(p.signer, SignerId::Own) {
                return Err(Refusal::new(
                    Arc_::ItsAaKeysdontmatch,
                    "proof of possession not signed by self",
                ));
            }
            p.verify_own(&verification_key)
                .map_err(|e| Refusal::new(Arc_::ItsAaKeysdontmatch, format!("proof of possession: {e}")))?;
            self.policy
                .freshness
                .check(p.generation_time, now)
                .map_err(|e| Refusal::new(Arc_::ItsAaOutofsyncrequest, e.to_string()))?;
        }
        let mut hmac_key = [0u8; 32];
        hmac_key.copy_from_slice(&inner.hmac_key[..]);
        let tag =
            key_tag(&hmac_key, &inner.public_keys).map_err(|e| Refusal::new(Arc_::ItsAaCantparse, e.to_string()))?;
        if tag[..] != inner.shared_at_request.key_tag[..] {
            return Err(Refusal::new(Arc_::ItsAaKeysdontmatch, "keyTag does not match the keys"));
        }
        if inner.shared_at_request.certificate_format != wire::CertificateFormat::TS103097V131 {
            return Err(Refusal::new(Arc_::ItsAaIncompleterequest, "certificate format"));
        }
        let ea_id = convert::hashed_id8_from_wire(&inner.shared_at_request.ea_id);
        let ea = self
            .eas
            .iter()
            .find(|e| e.hashed_id8() == ea_id)
            .cloned()
            .ok_or_else(|| Refusal::new(Arc_::ItsAaUnknownea, format!("EA {ea_id} unknown")))?;
        if !ea.validity().contains(now) {
            return Err(Refusal::new(
                Arc_::ItsAaInvalidea,
                "the EA certificate is not valid now",
            ));
        }
        let requested = attributes::requested_app_permissions(&inner.shared_at_request.requested_subject_attributes)
            .map_err(|e| Refusal::new(Arc_::ItsAaIncompleterequest, e.to_string()))?;
        let missing = not_granted(&requested, &self.policy.at_permissions);
        if !missing.is_empty() {
            return Err(Refusal::new(
                Arc_::ItsAaDeniedpermissions,
                format!("not granted: {missing:?}"),
            ));
        }
        let spans = wire::nested_spans(content).map_err(|e| Refusal::new(Arc_::ItsAaCantparse, e.to_string()))?;
        let ec_signature_bytes = spans
            .secured
            .and_then(|r| content.get(r))
            .ok_or_else(|| Refusal::new(Arc_::ItsAaCantparse, "no EC signature"))?
            .to_vec();
        if let EcSignature::EcSignature(_) = &inner.ec_signature {
            // In clear (no privacy): the AA can check the time itself before asking the EA.
            let s = SignedMessage::parse(&ec_signature_bytes)
                .map_err(|e| Refusal::new(Arc_::ItsAaCantparse, format!("EC signature: {e}")))?;
            self.policy
                .freshness
                .check(s.generation_time, now)
                .map_err(|e| Refusal::new(Arc_::ItsAaOutofsyncrequest, format!("EC signature: {e}")))?;
        }
        Ok(Authorization {
            reply,
            replay_key: replay_key(plaintext),
            ea,
            verification_key,
            encryption_key,
            shared: inner.shared_at_request,
            ec_signature: inner.ec_signature,
            ec_signature_bytes,
            requested,
        })
    }

    /// The `AuthorizationValidationRequestMessage` for `authorization`: the shared request and
    /// the EC signature (never the AT keys), signed by the AA, encrypted to the EA.
    pub fn validation_request(
        &self,
        authorization: &Authorization,
        now: TaiTime,
    ) -> Result<PendingValidation, EnvelopeError> {
        let content = self.validation_content(authorization)?;
        let signed = envelope::sign(&content, Signer::Certificate(&self.aa.certificate, &self.aa.key), now)?;
        let Sealed { bytes, key } = envelope::encrypt_to(&signed, &authorization.ea)?;
        Ok(PendingValidation {
            request_hash: request_hash(&bytes),
            message: bytes,
            key,
        })
    }

    /// The content of the validation request for `authorization` (`EtsiTs102941Data` with the
    /// `AuthorizationValidationRequest`: the shared request and the EC signature as received),
    /// before it is signed and encrypted: what [`Self::validation_request`] seals for an EA
    /// over the wire, and what an EA in the same process reads as it is
    /// ([`crate::ts102941::ea::EnrolmentAuthority::open_validation_in_process`]).
    pub fn validation_content(&self, authorization: &Authorization) -> Result<Vec<u8>, EnvelopeError> {
        let content = wire::encode(&EtsiTs102941Data::v1(
            EtsiTs102941DataContent::AuthorizationValidationRequest(AuthorizationValidationRequest::new(
                authorization.shared.clone(),
                authorization.ec_signature.clone(),
            )),
        ))?;
        // The EC signature travels as received.
        let spans = wire::nested_spans(&content)?;
        if spans.secured.and_then(|r| content.get(r)) != Some(&authorization.ec_signature_bytes[..]) {
            return Err(EnvelopeError::BadContentType("the EC signature re-encoded as received"));
        }
        Ok(content)
    }

    /// Reads the EA's `AuthorizationValidationResponseMessage`: `Ok((code, confirmed))`, or
    /// `Err` when it is not the EA's signed answer to this request.
    pub fn read_validation_response(
        &self,
        response: &[u8],
        pending: &PendingValidation,
        ea: &Certificate,
    ) -> Result<(Avc, Option<CertificateSubjectAttributes>), EnvelopeError> {
        let plaintext = envelope::decrypt_psk(response, &pending.key)?;
        let signed = SignedMessage::parse(&plaintext)?;
        signed.verify_by(ea)?;
        let data = wire::decode(signed.data()?)?;
        let EtsiTs102941DataContent::AuthorizationValidationResponse(r) = data.content else {
            return Err(EnvelopeError::BadContentType("an authorization validation response"));
        };
        if r.request_hash[..] != pending.request_hash[..] {
            return Err(EnvelopeError::WrongSigner(
                "the response answers another request".into(),
            ));
        }
        match (r.response_code, r.confirmed_subject_attributes) {
            (Avc::Ok, None) => Err(EnvelopeError::BadContentType("confirmed attributes in an ok response")),
            (code, confirmed) => Ok((code, confirmed)),
        }
    }

    /// The ticket for an EA's decision: issued when `code` is `ok` with the confirmed attributes,
    /// the EA's refusal relayed ([`relay_code`]) otherwise.
    pub fn issue_on(
        &self,
        authorization: &Authorization,
        decision: (Avc, Option<CertificateSubjectAttributes>),
        now: TaiTime,
    ) -> Result<CertRef, Refusal<Arc_>> {
        match decision {
            (Avc::Ok, Some(confirmed)) => self.issue_at(authorization, &confirmed, now),
            (Avc::Ok, None) => Err(Refusal::new(
                Arc_::AaEaCantreachea,
                "the EA answered ok without confirmed attributes",
            )),
            (code, _) => Err(Refusal::new(
                relay_code(code),
                format!("the EA answered {}", code.name()),
            )),
        }
    }

    /// Issues the AT for `authorization` with the attributes the EA confirmed: their app
    /// permissions (which must cover what was asked) and region; the asked validity cut to the
    /// policy's and the AA's.
    pub fn issue_at(
        &self,
        authorization: &Authorization,
        confirmed: &CertificateSubjectAttributes,
        now: TaiTime,
    ) -> Result<CertRef, Refusal<Arc_>> {
        let granted = attributes::requested_app_permissions(confirmed)
            .map_err(|e| Refusal::new(Arc_::Deniedpermissions, format!("confirmed attributes: {e}")))?;
        let missing = not_granted(&authorization.requested, &granted);
        if !missing.is_empty() {
            return Err(Refusal::new(
                Arc_::Deniedpermissions,
                format!("the EA confirmed less: {missing:?}"),
            ));
        }
        let region = attributes::requested_region(confirmed)
            .map_err(|e| Refusal::new(Arc_::ItsAaDeniedpermissions, e.to_string()))?;
        let backdate = crate::authority::TICKET_BACKDATE;
        let (start, mut validity) = attributes::requested_validity(&authorization.shared.requested_subject_attributes)
            .unwrap_or((
                now.saturating_sub(backdate.min(self.policy.max_validity / 4)),
                self.policy.max_validity,
            ));
        validity = validity.min(self.policy.max_validity);
        // Within the AA's validity, or receivers refuse the chain as inconsistent.
        let aa_start = TaiTime::from_time32(self.aa.certificate.validity().start as u32);
        let start = start.max(aa_start);
        let aa_end = self.aa.certificate.validity().end;
        validity =
            attributes::representable_floor(validity.min(Duration::from_secs(aa_end.saturating_sub(start.seconds()))));
        let mut spec = CertificateSpec::new(None, start, validity);
        spec.app_permissions = authorization.requested.clone();
        spec.region = region;
        spec.encryption_key = authorization.encryption_key.clone();
        spec.assurance_level = Some(0);
        let cert = issue_certificate(
            &spec,
            &authorization.verification_key,
            IssuerKey::Ca {
                cert: &self.aa.certificate,
                key: &self.aa.key,
            },
        )
        .map_err(|e| Refusal::new(Arc_::ItsAaDeniedpermissions, format!("issuing: {e}")))?;
        Ok(Arc::new(cert))
    }

    /// The `AuthorizationResponseMessage`: signed by the AA, encrypted under the request's key;
    /// `certificate` exactly when `code` is `ok`.
    pub fn authorization_response(
        &self,
        reply: &Reply,
        code: Arc_,
        certificate: Option<&Certificate>,
        now: TaiTime,
    ) -> Result<Vec<u8>, EnvelopeError> {
        let certificate = match (code, certificate) {
            (Arc_::Ok, Some(c)) => Some(c.decoded().clone()),
            (Arc_::Ok, None) => return Err(EnvelopeError::BadContentType("an AT for an ok response")),
            _ => None,
        };
        let payload = wire::encode(&EtsiTs102941Data::v1(EtsiTs102941DataContent::AuthorizationResponse(
            InnerAtResponse::new(reply.request_hash, code, certificate),
        )))?;
        let signed = envelope::sign(&payload, Signer::Certificate(&self.aa.certificate, &self.aa.key), now)?;
        envelope::encrypt_psk(&signed, &reply.key)
    }
}
