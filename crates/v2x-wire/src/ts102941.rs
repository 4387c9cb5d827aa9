//! ETSI TS 102 941 (v1.3.1 to v2.2.1: the same C-OER) PKI protocol messages: the
//! `EtsiTs102941Data` that enrolment, authorization, authorization validation and CA certificate
//! requests and responses carry inside their signed-and-encrypted envelopes.
//!
//! Types mirror the ASN.1 modules `EtsiTs102941BaseTypes`, `EtsiTs102941TypesEnrolment`,
//! `EtsiTs102941TypesAuthorization`, `EtsiTs102941TypesAuthorizationValidation`,
//! `EtsiTs102941TypesCaManagement` and `EtsiTs102941MessagesCa` (ETSI forge, TS 102 941 v2.2.1),
//! with `#[non_exhaustive]` where the ASN.1 has an extension marker (`...`). The trust-list and
//! CRL bodies are those of [`crate::trust_list`].
//!
//! The envelopes are 1609.2 data ([`crate::ieee1609dot2`]); which envelope carries which content
//! (MessagesCa):
//!
//! | message | envelope | content |
//! |---|---|---|
//! | EnrolmentRequestMessage | SignedAndEncrypted-Unicast | `enrolmentRequest` ([`InnerEcRequestSignedForPop`]) |
//! | EnrolmentResponseMessage | SignedAndEncrypted-Unicast | `enrolmentResponse` |
//! | AuthorizationRequestMessage | Encrypted-Unicast | `authorizationRequest` |
//! | AuthorizationRequestMessageWithPop | SignedAndEncrypted-Unicast | `authorizationRequest` |
//! | AuthorizationResponseMessage | SignedAndEncrypted-Unicast | `authorizationResponse` |
//! | AuthorizationValidationRequest/ResponseMessage | SignedAndEncrypted-Unicast | `authorizationValidationRequest` / `...Response` |
//! | CaCertificateRequestMessage | Signed | `caCertificateRequest` |
//! | CertificateRevocationListMessage, Tlm/RcaCertificateTrustListMessage | Signed | CRL / CTL |
//!
//! No crypto and no policy here: `v2x-security` signs, encrypts and decides.

use std::ops::Range;

use rasn::prelude::*;

pub(crate) mod schema;

use crate::cursor::Reader;
use crate::ieee1609dot2::{
    self, guard, CertificateId, GeographicRegion, HashedId8, Ieee1609Dot2Data, PublicEncryptionKey,
    PublicVerificationKey, SequenceOfPsidGroupPermissions, SequenceOfPsidSsp, SubjectAssurance, ValidityPeriod,
    WireError,
};
use crate::trust_list::{CtlFormat, ToBeSignedCrl};

/// `EtsiTs103097Certificate` (the 1609.2 certificate profile TS 103 097 constrains).
pub type EtsiTs103097Certificate = crate::ieee1609dot2::Certificate;

/// `InnerEcRequestSignedForPop ::= EtsiTs103097Data-Signed{InnerEcRequest}`: signed data whose
/// unsecured payload is the C-OER of an [`InnerEcRequest`], signed with the requested key
/// (proof of possession).
pub type InnerEcRequestSignedForPop = Ieee1609Dot2Data;

/// The `version` of [`EtsiTs102941Data`] (`Version ::= INTEGER {v1(1)}`, constrained to v1).
pub const VERSION_V1: u8 = 1;

/// `CertificateFormat ::= INTEGER { ts103097v131 (1) } (1..255)`: one octet in C-OER.
#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(delegate, value("1..=255"))]
pub struct CertificateFormat(pub u8);

impl CertificateFormat {
    /// `ts103097v131`: the only format the standard defines.
    pub const TS103097V131: CertificateFormat = CertificateFormat(1);
}

/// `CertificateSubjectAttributes`: what a request asks for (or a validation confirms). The
/// ASN.1 requires `appPermissions` or `certIssuePermissions`; the policy layer checks that.
#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq, Default)]
#[rasn(automatic_tags)]
#[non_exhaustive]
pub struct CertificateSubjectAttributes {
    pub id: Option<CertificateId>,
    #[rasn(identifier = "validityPeriod")]
    pub validity_period: Option<ValidityPeriod>,
    pub region: Option<GeographicRegion>,
    #[rasn(identifier = "assuranceLevel")]
    pub assurance_level: Option<SubjectAssurance>,
    #[rasn(identifier = "appPermissions")]
    pub app_permissions: Option<SequenceOfPsidSsp>,
    #[rasn(identifier = "certIssuePermissions")]
    pub cert_issue_permissions: Option<SequenceOfPsidGroupPermissions>,
}

impl CertificateSubjectAttributes {
    /// Attributes with only `appPermissions` (what an end entity asks for).
    pub fn app(app_permissions: SequenceOfPsidSsp) -> Self {
        Self {
            app_permissions: Some(app_permissions),
            ..Self::default()
        }
    }
}

/// `EcSignature`: the enrolment credential's signature over the shared AT request, in clear
/// (`ecSignature`) or encrypted for the EA so that the AA cannot read it
/// (`encryptedEcSignature`, the privacy variant). Both hold 1609.2 data.
#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(choice, automatic_tags)]
pub enum EcSignature {
    /// `EtsiTs103097Data-Encrypted{EtsiTs103097Data-SignedExternalPayload}`.
    #[rasn(identifier = "encryptedEcSignature")]
    EncryptedEcSignature(Ieee1609Dot2Data),
    /// `EtsiTs103097Data-SignedExternalPayload` (payload: `extDataHash` of the shared request).
    #[rasn(identifier = "ecSignature")]
    EcSignature(Ieee1609Dot2Data),
}

/// `PublicKeys ::= SEQUENCE { verificationKey, encryptionKey OPTIONAL }` (no extension marker).
#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct PublicKeys {
    #[rasn(identifier = "verificationKey")]
    pub verification_key: PublicVerificationKey,
    #[rasn(identifier = "encryptionKey")]
    pub encryption_key: Option<PublicEncryptionKey>,
}

/// `EnrolmentResponseCode` (TS 102 941 TypesEnrolment).
#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq, Hash)]
#[rasn(enumerated)]
#[non_exhaustive]
pub enum EnrolmentResponseCode {
    Ok = 0,
    /// valid for any structure
    Cantparse = 1,
    /// not encrypted, not signed, not enrolmentrequest
    Badcontenttype = 2,
    /// the "recipients" doesn't include me
    Imnottherecipient = 3,
    /// either kexalg or contentencryptionalgorithm
    Unknownencryptionalgorithm = 4,
    /// works for ECIES-HMAC and AES-CCM
    Decryptionfailed = 5,
    /// can't retrieve the ITS from the itsId
    Unknownits = 6,
    /// signature verification of the request fails
    Invalidsignature = 7,
    /// signature is good, but the responseEncryptionKey is bad
    Invalidencryptionkey = 8,
    /// revoked, not yet active
    Baditsstatus = 9,
    /// some elements are missing
    Incompleterequest = 10,
    /// requested permissions are not granted
    Deniedpermissions = 11,
    /// either the verification_key of the encryption_key is bad
    Invalidkeys = 12,
    /// any other reason
    Deniedrequest = 13,
}

/// `AuthorizationResponseCode` (TS 102 941 TypesAuthorization). Values 1-13 are the AA's own
/// findings on the ITS-S request; 14-27 relay what went wrong between AA and EA.
#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq, Hash)]
#[rasn(enumerated)]
#[non_exhaustive]
pub enum AuthorizationResponseCode {
    Ok = 0,
    #[rasn(identifier = "its-aa-cantparse")]
    ItsAaCantparse = 1,
    #[rasn(identifier = "its-aa-badcontenttype")]
    ItsAaBadcontenttype = 2,
    #[rasn(identifier = "its-aa-imnottherecipient")]
    ItsAaImnottherecipient = 3,
    #[rasn(identifier = "its-aa-unknownencryptionalgorithm")]
    ItsAaUnknownencryptionalgorithm = 4,
    #[rasn(identifier = "its-aa-decryptionfailed")]
    ItsAaDecryptionfailed = 5,
    /// HMAC keyTag verification fails
    #[rasn(identifier = "its-aa-keysdontmatch")]
    ItsAaKeysdontmatch = 6,
    #[rasn(identifier = "its-aa-incompleterequest")]
    ItsAaIncompleterequest = 7,
    #[rasn(identifier = "its-aa-invalidencryptionkey")]
    ItsAaInvalidencryptionkey = 8,
    /// signingTime is outside acceptable limits
    #[rasn(identifier = "its-aa-outofsyncrequest")]
    ItsAaOutofsyncrequest = 9,
    /// the EA identified by eaId is unknown to me
    #[rasn(identifier = "its-aa-unknownea")]
    ItsAaUnknownea = 10,
    /// the EA certificate is revoked
    #[rasn(identifier = "its-aa-invalidea")]
    ItsAaInvalidea = 11,
    #[rasn(identifier = "its-aa-deniedpermissions")]
    ItsAaDeniedpermissions = 12,
    /// the EA is unreachable
    #[rasn(identifier = "aa-ea-cantreachea")]
    AaEaCantreachea = 13,
    #[rasn(identifier = "ea-aa-cantparse")]
    EaAaCantparse = 14,
    #[rasn(identifier = "ea-aa-badcontenttype")]
    EaAaBadcontenttype = 15,
    #[rasn(identifier = "ea-aa-imnottherecipient")]
    EaAaImnottherecipient = 16,
    #[rasn(identifier = "ea-aa-unknownencryptionalgorithm")]
    EaAaUnknownencryptionalgorithm = 17,
    #[rasn(identifier = "ea-aa-decryptionfailed")]
    EaAaDecryptionfailed = 18,
    Invalidaa = 19,
    Invalidaasignature = 20,
    Wrongea = 21,
    Unknownits = 22,
    Invalidsignature = 23,
    Invalidencryptionkey = 24,
    Deniedpermissions = 25,
    /// parallel limit
    Deniedtoomanycerts = 26,
}

/// `AuthorizationValidationResponseCode` (TS 102 941 TypesAuthorizationValidation).
#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq, Hash)]
#[rasn(enumerated)]
#[non_exhaustive]
pub enum AuthorizationValidationResponseCode {
    Ok = 0,
    Cantparse = 1,
    Badcontenttype = 2,
    Imnottherecipient = 3,
    Unknownencryptionalgorithm = 4,
    Decryptionfailed = 5,
    /// the AA certificate presented is invalid/revoked
    Invalidaa = 6,
    /// the AA certificate presented can't validate the request signature
    Invalidaasignature = 7,
    /// the encrypted signature doesn't designate me as the EA
    Wrongea = 8,
    /// can't retrieve the EC/ITS in my DB
    Unknownits = 9,
    /// signature verification of the request by the EC fails
    Invalidsignature = 10,
    Invalidencryptionkey = 11,
    Deniedpermissions = 12,
    /// parallel limit
    Deniedtoomanycerts = 13,
    Deniedrequest = 14,
}

macro_rules! code_names {
    ($ty:ident { $($variant:ident => $name:literal,)* }) => {
        impl $ty {
            /// The ASN.1 name of the value (`ok`, `cantparse`, ...).
            pub fn name(self) -> &'static str {
                match self {
                    $($ty::$variant => $name,)*
                }
            }

            /// Every value, in order.
            pub const ALL: &'static [$ty] = &[$($ty::$variant,)*];
        }
    };
}

code_names!(EnrolmentResponseCode {
    Ok => "ok",
    Cantparse => "cantparse",
    Badcontenttype => "badcontenttype",
    Imnottherecipient => "imnottherecipient",
    Unknownencryptionalgorithm => "unknownencryptionalgorithm",
    Decryptionfailed => "decryptionfailed",
    Unknownits => "unknownits",
    Invalidsignature => "invalidsignature",
    Invalidencryptionkey => "invalidencryptionkey",
    Baditsstatus => "baditsstatus",
    Incompleterequest => "incompleterequest",
    Deniedpermissions => "deniedpermissions",
    Invalidkeys => "invalidkeys",
    Deniedrequest => "deniedrequest",
});

code_names!(AuthorizationResponseCode {
    Ok => "ok",
    ItsAaCantparse => "its-aa-cantparse",
    ItsAaBadcontenttype => "its-aa-badcontenttype",
    ItsAaImnottherecipient => "its-aa-imnottherecipient",
    ItsAaUnknownencryptionalgorithm => "its-aa-unknownencryptionalgorithm",
    ItsAaDecryptionfailed => "its-aa-decryptionfailed",
    ItsAaKeysdontmatch => "its-aa-keysdontmatch",
    ItsAaIncompleterequest => "its-aa-incompleterequest",
    ItsAaInvalidencryptionkey => "its-aa-invalidencryptionkey",
    ItsAaOutofsyncrequest => "its-aa-outofsyncrequest",
    ItsAaUnknownea => "its-aa-unknownea",
    ItsAaInvalidea => "its-aa-invalidea",
    ItsAaDeniedpermissions => "its-aa-deniedpermissions",
    AaEaCantreachea => "aa-ea-cantreachea",
    EaAaCantparse => "ea-aa-cantparse",
    EaAaBadcontenttype => "ea-aa-badcontenttype",
    EaAaImnottherecipient => "ea-aa-imnottherecipient",
    EaAaUnknownencryptionalgorithm => "ea-aa-unknownencryptionalgorithm",
    EaAaDecryptionfailed => "ea-aa-decryptionfailed",
    Invalidaa => "invalidaa",
    Invalidaasignature => "invalidaasignature",
    Wrongea => "wrongea",
    Unknownits => "unknownits",
    Invalidsignature => "invalidsignature",
    Invalidencryptionkey => "invalidencryptionkey",
    Deniedpermissions => "deniedpermissions",
    Deniedtoomanycerts => "deniedtoomanycerts",
});

code_names!(AuthorizationValidationResponseCode {
    Ok => "ok",
    Cantparse => "cantparse",
    Badcontenttype => "badcontenttype",
    Imnottherecipient => "imnottherecipient",
    Unknownencryptionalgorithm => "unknownencryptionalgorithm",
    Decryptionfailed => "decryptionfailed",
    Invalidaa => "invalidaa",
    Invalidaasignature => "invalidaasignature",
    Wrongea => "wrongea",
    Unknownits => "unknownits",
    Invalidsignature => "invalidsignature",
    Invalidencryptionkey => "invalidencryptionkey",
    Deniedpermissions => "deniedpermissions",
    Deniedtoomanycerts => "deniedtoomanycerts",
    Deniedrequest => "deniedrequest",
});

/// `InnerEcRequest`: what an ITS-S asks the EA for (its canonical id, or the HashedId8 of its
/// current EC when re-enrolling; the new keys; the requested attributes).
#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
#[non_exhaustive]
pub struct InnerEcRequest {
    #[rasn(identifier = "itsId")]
    pub its_id: OctetString,
    #[rasn(identifier = "certificateFormat")]
    pub certificate_format: CertificateFormat,
    #[rasn(identifier = "publicKeys")]
    pub public_keys: PublicKeys,
    #[rasn(identifier = "requestedSubjectAttributes")]
    pub requested_subject_attributes: CertificateSubjectAttributes,
}

impl InnerEcRequest {
    pub fn new(its_id: Vec<u8>, public_keys: PublicKeys, requested: CertificateSubjectAttributes) -> Self {
        Self {
            its_id: OctetString::from(its_id),
            certificate_format: CertificateFormat::TS103097V131,
            public_keys,
            requested_subject_attributes: requested,
        }
    }
}

/// `InnerEcResponse`: `certificate` present exactly when `responseCode` is `ok`.
#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
#[non_exhaustive]
pub struct InnerEcResponse {
    #[rasn(identifier = "requestHash")]
    pub request_hash: FixedOctetString<16>,
    #[rasn(identifier = "responseCode")]
    pub response_code: EnrolmentResponseCode,
    pub certificate: Option<EtsiTs103097Certificate>,
}

impl InnerEcResponse {
    pub fn new(
        request_hash: [u8; 16],
        response_code: EnrolmentResponseCode,
        certificate: Option<EtsiTs103097Certificate>,
    ) -> Self {
        Self {
            request_hash: FixedOctetString::from(request_hash),
            response_code,
            certificate,
        }
    }
}

/// `SharedAtRequest`: the part of an AT request both AA and EA see (the EA checks the EC's
/// signature over its hash). `keyTag` binds it to the AT keys without revealing them.
#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
#[non_exhaustive]
pub struct SharedAtRequest {
    #[rasn(identifier = "eaId")]
    pub ea_id: HashedId8,
    #[rasn(identifier = "keyTag")]
    pub key_tag: FixedOctetString<16>,
    #[rasn(identifier = "certificateFormat")]
    pub certificate_format: CertificateFormat,
    #[rasn(identifier = "requestedSubjectAttributes")]
    pub requested_subject_attributes: CertificateSubjectAttributes,
}

impl SharedAtRequest {
    pub fn new(ea_id: HashedId8, key_tag: [u8; 16], requested: CertificateSubjectAttributes) -> Self {
        Self {
            ea_id,
            key_tag: FixedOctetString::from(key_tag),
            certificate_format: CertificateFormat::TS103097V131,
            requested_subject_attributes: requested,
        }
    }
}

/// `InnerAtRequest`: the AT's public keys, the HMAC key of the key tag, the shared request and
/// the EC's signature over it.
#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
#[non_exhaustive]
pub struct InnerAtRequest {
    #[rasn(identifier = "publicKeys")]
    pub public_keys: PublicKeys,
    #[rasn(identifier = "hmacKey")]
    pub hmac_key: FixedOctetString<32>,
    #[rasn(identifier = "sharedAtRequest")]
    pub shared_at_request: SharedAtRequest,
    #[rasn(identifier = "ecSignature")]
    pub ec_signature: EcSignature,
}

impl InnerAtRequest {
    pub fn new(
        public_keys: PublicKeys,
        hmac_key: [u8; 32],
        shared: SharedAtRequest,
        ec_signature: EcSignature,
    ) -> Self {
        Self {
            public_keys,
            hmac_key: FixedOctetString::from(hmac_key),
            shared_at_request: shared,
            ec_signature,
        }
    }
}

/// `InnerAtResponse`: `certificate` present exactly when `responseCode` is `ok`.
#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
#[non_exhaustive]
pub struct InnerAtResponse {
    #[rasn(identifier = "requestHash")]
    pub request_hash: FixedOctetString<16>,
    #[rasn(identifier = "responseCode")]
    pub response_code: AuthorizationResponseCode,
    pub certificate: Option<EtsiTs103097Certificate>,
}

impl InnerAtResponse {
    pub fn new(
        request_hash: [u8; 16],
        response_code: AuthorizationResponseCode,
        certificate: Option<EtsiTs103097Certificate>,
    ) -> Self {
        Self {
            request_hash: FixedOctetString::from(request_hash),
            response_code,
            certificate,
        }
    }
}

/// `AuthorizationValidationRequest`: what the AA forwards to the EA (never the AT keys).
#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
#[non_exhaustive]
pub struct AuthorizationValidationRequest {
    #[rasn(identifier = "sharedAtRequest")]
    pub shared_at_request: SharedAtRequest,
    #[rasn(identifier = "ecSignature")]
    pub ec_signature: EcSignature,
}

impl AuthorizationValidationRequest {
    pub fn new(shared: SharedAtRequest, ec_signature: EcSignature) -> Self {
        Self {
            shared_at_request: shared,
            ec_signature,
        }
    }
}

/// `AuthorizationValidationResponse`: `confirmedSubjectAttributes` present exactly when
/// `responseCode` is `ok`.
#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
#[non_exhaustive]
pub struct AuthorizationValidationResponse {
    #[rasn(identifier = "requestHash")]
    pub request_hash: FixedOctetString<16>,
    #[rasn(identifier = "responseCode")]
    pub response_code: AuthorizationValidationResponseCode,
    #[rasn(identifier = "confirmedSubjectAttributes")]
    pub confirmed_subject_attributes: Option<CertificateSubjectAttributes>,
}

impl AuthorizationValidationResponse {
    pub fn new(
        request_hash: [u8; 16],
        response_code: AuthorizationValidationResponseCode,
        confirmed: Option<CertificateSubjectAttributes>,
    ) -> Self {
        Self {
            request_hash: FixedOctetString::from(request_hash),
            response_code,
            confirmed_subject_attributes: confirmed,
        }
    }
}

/// `CaCertificateRequest` (TypesCaManagement): a sub-CA's keys and attributes for the root.
#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
#[non_exhaustive]
pub struct CaCertificateRequest {
    #[rasn(identifier = "publicKeys")]
    pub public_keys: PublicKeys,
    #[rasn(identifier = "requestedSubjectAttributes")]
    pub requested_subject_attributes: CertificateSubjectAttributes,
}

impl CaCertificateRequest {
    pub fn new(public_keys: PublicKeys, requested: CertificateSubjectAttributes) -> Self {
        Self {
            public_keys,
            requested_subject_attributes: requested,
        }
    }
}

/// `EtsiTs102941DataContent`: every root alternative of MessagesCa. The extension
/// alternatives (link certificates, butterfly key provisioning) decode as an error.
#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(choice, automatic_tags)]
#[non_exhaustive]
pub enum EtsiTs102941DataContent {
    #[rasn(identifier = "enrolmentRequest")]
    EnrolmentRequest(InnerEcRequestSignedForPop),
    #[rasn(identifier = "enrolmentResponse")]
    EnrolmentResponse(InnerEcResponse),
    #[rasn(identifier = "authorizationRequest")]
    AuthorizationRequest(InnerAtRequest),
    #[rasn(identifier = "authorizationResponse")]
    AuthorizationResponse(InnerAtResponse),
    #[rasn(identifier = "certificateRevocationList")]
    CertificateRevocationList(ToBeSignedCrl),
    #[rasn(identifier = "certificateTrustListTlm")]
    CertificateTrustListTlm(CtlFormat),
    #[rasn(identifier = "certificateTrustListRca")]
    CertificateTrustListRca(CtlFormat),
    #[rasn(identifier = "authorizationValidationRequest")]
    AuthorizationValidationRequest(AuthorizationValidationRequest),
    #[rasn(identifier = "authorizationValidationResponse")]
    AuthorizationValidationResponse(AuthorizationValidationResponse),
    #[rasn(identifier = "caCertificateRequest")]
    CaCertificateRequest(CaCertificateRequest),
}

/// `EtsiTs102941Data ::= SEQUENCE { version Version (v1), content EtsiTs102941DataContent }`.
#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct EtsiTs102941Data {
    pub version: u8,
    pub content: EtsiTs102941DataContent,
}

impl EtsiTs102941Data {
    /// Version v1 with this content.
    pub fn v1(content: EtsiTs102941DataContent) -> Self {
        Self {
            version: VERSION_V1,
            content,
        }
    }

    /// The content's ASN.1 alternative name (`enrolmentRequest`, ...).
    pub fn kind(&self) -> &'static str {
        self.content.kind()
    }
}

impl EtsiTs102941DataContent {
    /// The ASN.1 alternative name.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::EnrolmentRequest(_) => "enrolmentRequest",
            Self::EnrolmentResponse(_) => "enrolmentResponse",
            Self::AuthorizationRequest(_) => "authorizationRequest",
            Self::AuthorizationResponse(_) => "authorizationResponse",
            Self::CertificateRevocationList(_) => "certificateRevocationList",
            Self::CertificateTrustListTlm(_) => "certificateTrustListTlm",
            Self::CertificateTrustListRca(_) => "certificateTrustListRca",
            Self::AuthorizationValidationRequest(_) => "authorizationValidationRequest",
            Self::AuthorizationValidationResponse(_) => "authorizationValidationResponse",
            Self::CaCertificateRequest(_) => "caCertificateRequest",
        }
    }
}

/// Decodes an `EtsiTs102941Data` with any content: canonical C-OER, version v1 (also in the
/// length-prefixed form deployed v1.2.1-era implementations write, see
/// [`crate::trust_list::decode_etsi_ts102941_data`]), guarded before `rasn` sees the bytes.
pub fn decode(bytes: &[u8]) -> Result<EtsiTs102941Data, WireError> {
    let canonical = match bytes {
        [0x01, rest @ ..] if matches!(rest, [0x01, tag, ..] if *tag >= 0x80) => rest,
        _ => bytes,
    };
    guard::check(&schema::ETSI_TS102941_DATA, canonical)?;
    let data = ieee1609dot2::decode_canonical::<EtsiTs102941Data>(canonical)?;
    if data.version != VERSION_V1 {
        return Err(WireError::Unsupported(format!(
            "EtsiTs102941Data version {}",
            data.version
        )));
    }
    Ok(data)
}

/// Decodes an [`InnerEcRequest`] (the payload of an `InnerEcRequestSignedForPop`).
pub fn decode_inner_ec_request(bytes: &[u8]) -> Result<InnerEcRequest, WireError> {
    guard::check(&schema::INNER_EC_REQUEST, bytes)?;
    ieee1609dot2::decode_canonical::<InnerEcRequest>(bytes)
}

/// Decodes a [`SharedAtRequest`] on its own (what an EC signature's external payload hashes).
pub fn decode_shared_at_request(bytes: &[u8]) -> Result<SharedAtRequest, WireError> {
    guard::check(&schema::SHARED_AT_REQUEST, bytes)?;
    ieee1609dot2::decode_canonical::<SharedAtRequest>(bytes)
}

/// Where, inside the encoding of an `EtsiTs102941Data`, lie the parts a recipient hashes or
/// whose signature it checks: signatures are verified over these received bytes, never over a
/// re-encoding. Call after [`decode`] accepted the bytes.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct NestedSpans {
    /// The 1609.2 data nested in the content: the `InnerEcRequestSignedForPop` of an enrolment
    /// request, or the `ecSignature` data of an authorization (validation) request.
    pub secured: Option<Range<usize>>,
    /// The `sharedAtRequest` of an authorization (validation) request (the EC signature covers
    /// the SHA-256 of these bytes).
    pub shared_at_request: Option<Range<usize>>,
}

/// The [`NestedSpans`] of an `EtsiTs102941Data` encoding (all `None` for contents that nest
/// nothing a recipient verifies).
pub fn nested_spans(bytes: &[u8]) -> Result<NestedSpans, WireError> {
    let start = match bytes {
        [0x01, 0x01, tag, ..] if *tag >= 0x80 => 1,
        _ => 0,
    };
    let mut r = Reader::new(bytes.get(start..).unwrap_or_default());
    r.u8("version")?;
    let tag = r.u8("EtsiTs102941DataContent tag")?;
    let at = |r: &Reader<'_>| start + r.offset();
    let mut spans = NestedSpans::default();
    let mut shared = |r: &mut Reader<'_>| -> Result<(), WireError> {
        let from = at(r);
        guard::skip(&schema::SHARED_AT_REQUEST, r)?;
        spans.shared_at_request = Some(from..at(r));
        // EcSignature: the CHOICE tag, then the data.
        r.u8("EcSignature tag")?;
        Ok(())
    };
    match tag {
        // enrolmentRequest: the content is the signed data itself.
        0x80 => {}
        // authorizationRequest: InnerAtRequest { preamble, publicKeys, hmacKey, shared, ecSignature }
        0x82 => {
            r.u8("InnerAtRequest preamble")?;
            guard::skip(&schema::PUBLIC_KEYS, &mut r)?;
            r.take(32, "hmacKey")?;
            shared(&mut r)?;
        }
        // authorizationValidationRequest: { preamble, sharedAtRequest, ecSignature }
        0x87 => {
            r.u8("AuthorizationValidationRequest preamble")?;
            shared(&mut r)?;
        }
        _ => return Ok(spans),
    }
    let from = at(&r);
    guard::skip(&guard::IEEE1609DOT2_DATA, &mut r)?;
    spans.secured = Some(from..at(&r));
    Ok(spans)
}

/// Encodes in C-OER.
pub fn encode<T: rasn::Encode + 'static>(value: &T) -> Result<Vec<u8>, WireError> {
    ieee1609dot2::encode(value)
}
