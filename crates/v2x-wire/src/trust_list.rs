//! ETSI TS 102 941 trust lists: the EU certificate trust list (ECTL, signed by the trust-list
//! manager, TLM) and CA-issued CTLs, and the TS 102 941 CRL body.
//!
//! A trust list travels as `EtsiTs103097Data-Signed { EtsiTs102941Data }`: an
//! `Ieee1609Dot2Data` with `signedData` whose `tbsData.payload.data` is `unsecuredData`
//! holding the C-OER encoding of [`EtsiTs102941Data`]. [`parse_trust_list`] decodes all layers
//! and returns the outer data, the spans its signature covers and the list contents.
//!
//! To use a trust list (done in `v2x-security`, not here — this module has no crypto and no
//! policy): verify `outer`'s signature over `spans.tbs_data` with the TLM (for an ECTL) or RCA
//! (for an RCA CTL) certificate, check `next_update`, then load the entries' certificates.
//!
//! Types mirror the ASN.1 of TS 102 941 (module EtsiTs102941TrustLists / EtsiTs102941Messages-
//! CaOptional), with `#[non_exhaustive]` where the ASN.1 has an extension marker (`...`).

use std::ops::Range;

use rasn::prelude::*;

pub(crate) mod schema;

use crate::ieee1609dot2::{
    self, guard, parse_certificate, signed_data, signed_unsecured_payload, Certificate, HashedId8, Ieee1609Dot2Data,
    SignedDataSpans, Time32, WireError,
};

/// `Url ::= IA5String`.
pub type Url = Ia5String;

/// `EtsiTs102941Data ::= SEQUENCE { version Version (v1), content EtsiTs102941DataContent }`.
/// `version` is constrained to the single value 1, so C-OER encodes it as one octet.
#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct EtsiTs102941Data {
    pub version: u8,
    pub content: EtsiTs102941DataContent,
}

/// `EtsiTs102941DataContent`: only the alternatives this crate decodes are listed (with their
/// context tags); the request/response alternatives of the enrolment and authorization
/// protocols decode as an error.
#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(choice)]
#[non_exhaustive]
pub enum EtsiTs102941DataContent {
    #[rasn(tag(context, 4))]
    CertificateRevocationList(ToBeSignedCrl),
    #[rasn(tag(context, 5))]
    CertificateTrustListTlm(CtlFormat),
    #[rasn(tag(context, 6))]
    CertificateTrustListRca(CtlFormat),
}

/// `CtlFormat ::= SEQUENCE { version Version, nextUpdate Time32, isFullCtl BOOLEAN,
/// ctlSequence INTEGER (0..255), ctlCommands SEQUENCE OF CtlCommand, ... }`.
/// `ToBeSignedTlmCtl` and `ToBeSignedRcaCtl` are this type with constraints on which entries
/// may appear (TLM lists: rca, dc, tlm; RCA lists: ea, aa, dc).
#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
#[non_exhaustive]
pub struct CtlFormat {
    /// `Version ::= INTEGER { v1(1) }` — unconstrained here, so length-prefixed.
    pub version: Integer,
    #[rasn(identifier = "nextUpdate")]
    pub next_update: Time32,
    #[rasn(identifier = "isFullCtl")]
    pub is_full_ctl: bool,
    #[rasn(identifier = "ctlSequence")]
    pub ctl_sequence: u8,
    #[rasn(identifier = "ctlCommands")]
    pub ctl_commands: SequenceOf<CtlCommand>,
}

/// `ToBeSignedTlmCtl` (the ECTL body).
pub type ToBeSignedTlmCtl = CtlFormat;
/// `ToBeSignedRcaCtl` (a root CA's CTL body).
pub type ToBeSignedRcaCtl = CtlFormat;

/// `CtlCommand ::= CHOICE { add CtlEntry, delete CtlDelete, ... }`.
#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(choice, automatic_tags)]
#[non_exhaustive]
pub enum CtlCommand {
    Add(Box<CtlEntry>),
    Delete(CtlDelete),
}

/// `CtlEntry ::= CHOICE { rca, ea, aa, dc, tlm, ... }`.
#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(choice, automatic_tags)]
#[non_exhaustive]
pub enum CtlEntry {
    Rca(RootCaEntry),
    Ea(EaEntry),
    Aa(AaEntry),
    Dc(DcEntry),
    Tlm(TlmEntry),
}

/// `CtlDelete ::= CHOICE { cert HashedId8, dc DcDelete, ... }`.
#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(choice, automatic_tags)]
#[non_exhaustive]
pub enum CtlDelete {
    Cert(HashedId8),
    Dc(Url),
}

/// `RootCaEntry ::= SEQUENCE { selfsignedRootCa EtsiTs103097Certificate,
/// successorTo EtsiTs103097Certificate OPTIONAL }`.
#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct RootCaEntry {
    #[rasn(identifier = "selfsignedRootCa")]
    pub selfsigned_root_ca: Certificate,
    #[rasn(identifier = "successorTo")]
    pub successor_to: Option<Certificate>,
}

/// `EaEntry ::= SEQUENCE { eaCertificate, aaAccessPoint Url, itsAccessPoint Url OPTIONAL }`.
#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct EaEntry {
    #[rasn(identifier = "eaCertificate")]
    pub ea_certificate: Certificate,
    #[rasn(identifier = "aaAccessPoint")]
    pub aa_access_point: Url,
    #[rasn(identifier = "itsAccessPoint")]
    pub its_access_point: Option<Url>,
}

/// `AaEntry ::= SEQUENCE { aaCertificate EtsiTs103097Certificate, accessPoint Url }`.
#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct AaEntry {
    #[rasn(identifier = "aaCertificate")]
    pub aa_certificate: Certificate,
    #[rasn(identifier = "accessPoint")]
    pub access_point: Url,
}

/// `DcEntry ::= SEQUENCE { url Url, cert SEQUENCE OF HashedId8 }` (a distribution centre and
/// the root CAs it serves).
#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct DcEntry {
    pub url: Url,
    pub cert: SequenceOf<HashedId8>,
}

/// `TlmEntry ::= SEQUENCE { selfSignedTLMCertificate, successorTo OPTIONAL, accessPoint Url }`.
#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct TlmEntry {
    #[rasn(identifier = "selfSignedTLMCertificate")]
    pub self_signed_tlm_certificate: Certificate,
    #[rasn(identifier = "successorTo")]
    pub successor_to: Option<Certificate>,
    #[rasn(identifier = "accessPoint")]
    pub access_point: Url,
}

/// `ToBeSignedCrl ::= SEQUENCE { version Version, thisUpdate Time32, nextUpdate Time32,
/// entries SEQUENCE OF CrlEntry, ... }` with `CrlEntry ::= HashedId8`.
#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
#[non_exhaustive]
pub struct ToBeSignedCrl {
    pub version: Integer,
    #[rasn(identifier = "thisUpdate")]
    pub this_update: Time32,
    #[rasn(identifier = "nextUpdate")]
    pub next_update: Time32,
    pub entries: SequenceOf<HashedId8>,
}

impl CtlFormat {
    /// A `CtlFormat` with version 1.
    pub fn new(next_update: Time32, is_full_ctl: bool, ctl_sequence: u8, ctl_commands: Vec<CtlCommand>) -> Self {
        Self {
            version: Integer::from(1),
            next_update,
            is_full_ctl,
            ctl_sequence,
            ctl_commands,
        }
    }
}

impl ToBeSignedCrl {
    /// A `ToBeSignedCrl` with version 1.
    pub fn new(this_update: Time32, next_update: Time32, entries: Vec<HashedId8>) -> Self {
        Self {
            version: Integer::from(1),
            this_update,
            next_update,
            entries,
        }
    }
}

/// A certificate with the exact bytes it was received as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodedCertificate {
    pub certificate: Certificate,
    /// The certificate's encoding (hash these for its HashedId8).
    pub encoded: Vec<u8>,
    /// Range of `toBeSigned` within `encoded` (its signature covers the hash of these bytes).
    pub to_be_signed: Range<usize>,
}

impl EncodedCertificate {
    fn from_certificate(certificate: &Certificate) -> Result<Self, WireError> {
        let encoded = ieee1609dot2::encode(certificate)?;
        let (certificate, spans) = parse_certificate(&encoded)?;
        Ok(Self {
            certificate,
            encoded,
            to_be_signed: spans.to_be_signed,
        })
    }
}

/// One `add` command of a trust list, flattened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TrustListEntry {
    /// A root CA (self-signed), and the certificate it succeeds (link), if any.
    RootCa {
        certificate: EncodedCertificate,
        successor_to: Option<EncodedCertificate>,
    },
    /// A trust-list manager certificate.
    Tlm {
        certificate: EncodedCertificate,
        successor_to: Option<EncodedCertificate>,
        access_point: String,
    },
    /// An enrolment authority.
    Ea {
        certificate: EncodedCertificate,
        aa_access_point: String,
        its_access_point: Option<String>,
    },
    /// An authorization authority.
    Aa {
        certificate: EncodedCertificate,
        access_point: String,
    },
    /// A distribution centre and the HashedId8s of the root CAs it serves.
    Dc { url: String, root_cas: Vec<HashedId8> },
}

/// One `delete` command of a (delta) trust list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TrustListDeletion {
    /// Remove the certificate with this HashedId8.
    Certificate(HashedId8),
    /// Remove the distribution centre with this URL.
    Dc(String),
}

/// Which authority signs the list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrustListIssuer {
    /// `certificateTrustListTlm`: the ECTL, signed by the trust-list manager.
    Tlm,
    /// `certificateTrustListRca`: a CTL signed by a root CA.
    RootCa,
}

/// The contents of a trust list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrustList {
    pub issuer: TrustListIssuer,
    /// `nextUpdate`: the list is to be replaced by then (TAI seconds since 2004).
    pub next_update: Time32,
    /// `isFullCtl`: a full list replaces the previous one; a delta list amends it.
    pub is_full: bool,
    /// `ctlSequence`.
    pub sequence: u8,
    /// The `add` commands, in order.
    pub entries: Vec<TrustListEntry>,
    /// The `delete` commands, in order.
    pub deletions: Vec<TrustListDeletion>,
    /// The decoded body as received.
    pub body: CtlFormat,
}

/// A signed trust list: the outer secured data, the spans its signature covers and the list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignedTrustList {
    /// The outer `EtsiTs103097Data-Signed`.
    pub outer: Ieee1609Dot2Data,
    /// Byte ranges of `outer`'s signed parts in the input buffer.
    pub spans: SignedDataSpans,
    pub list: TrustList,
}

/// Decodes a signed trust list file (e.g. the EU ECTL) from `bytes`.
///
/// Checks structure only: the outer data must be `signedData` whose payload is `unsecuredData`
/// holding an `EtsiTs102941Data` version 1 with a TLM or RCA CTL. The embedded list must be the
/// canonical C-OER encoding (it is re-encoded and compared; otherwise [`WireError::NonCanonical`]),
/// which makes each [`EncodedCertificate::encoded`] exactly the bytes the signer signed.
/// The signature is NOT verified here.
pub fn parse_trust_list(bytes: &[u8]) -> Result<SignedTrustList, WireError> {
    let (outer, spans) = ieee1609dot2::parse_data(bytes)?;
    let spans = spans.ok_or_else(|| WireError::Unsupported("trust list is not signed data".into()))?;
    let signed = signed_data(&outer).ok_or_else(|| WireError::Unsupported("trust list is not signed data".into()))?;
    let payload = signed_unsecured_payload(signed)
        .ok_or_else(|| WireError::Unsupported("trust list payload is not unsecuredData".into()))?;
    let list = parse_trust_list_body(payload)?;
    Ok(SignedTrustList { outer, spans, list })
}

/// Decodes an `EtsiTs102941Data` (canonical C-OER, guarded like every decoder here).
///
/// TS 102 941 v1.3.1 and later constrain `version` to `v1`, which C-OER writes as one octet;
/// v1.2.1 left `Version` unconstrained, a length-prefixed integer (`01 01`), and deployed
/// implementations still emit that form. Both are accepted: `01 01` followed by a CHOICE tag
/// (an octet >= 0x80) cannot be the one-octet form, which puts the tag second.
pub fn decode_etsi_ts102941_data(bytes: &[u8]) -> Result<EtsiTs102941Data, WireError> {
    let canonical = match bytes {
        [0x01, rest @ ..] if matches!(rest, [0x01, tag, ..] if *tag >= 0x80) => rest,
        _ => bytes,
    };
    // Bound every SEQUENCE OF quantity by the input before rasn sees the bytes.
    guard::check(&schema::ETSI_TS102941_DATA, canonical)?;
    ieee1609dot2::decode_canonical::<EtsiTs102941Data>(canonical)
}

/// Decodes the unsigned `EtsiTs102941Data` of a trust list (see [`parse_trust_list`]).
pub fn parse_trust_list_body(bytes: &[u8]) -> Result<TrustList, WireError> {
    let data = decode_etsi_ts102941_data(bytes)?;
    if data.version != 1 {
        return Err(WireError::Unsupported(format!(
            "EtsiTs102941Data version {}",
            data.version
        )));
    }
    let (issuer, body) = match data.content {
        EtsiTs102941DataContent::CertificateTrustListTlm(b) => (TrustListIssuer::Tlm, b),
        EtsiTs102941DataContent::CertificateTrustListRca(b) => (TrustListIssuer::RootCa, b),
        _ => return Err(WireError::Unsupported("EtsiTs102941Data is not a trust list".into())),
    };
    if body.version != Integer::from(1) {
        return Err(WireError::Unsupported(format!("CtlFormat version {}", body.version)));
    }
    let mut entries = Vec::new();
    let mut deletions = Vec::new();
    for command in &body.ctl_commands {
        match command {
            CtlCommand::Add(entry) => entries.push(flatten_entry(entry)?),
            CtlCommand::Delete(CtlDelete::Cert(id)) => deletions.push(TrustListDeletion::Certificate(id.clone())),
            CtlCommand::Delete(CtlDelete::Dc(url)) => deletions.push(TrustListDeletion::Dc(url.to_string())),
        }
    }
    Ok(TrustList {
        issuer,
        next_update: body.next_update.clone(),
        is_full: body.is_full_ctl,
        sequence: body.ctl_sequence,
        entries,
        deletions,
        body,
    })
}

fn encoded_opt(c: &Option<Certificate>) -> Result<Option<EncodedCertificate>, WireError> {
    c.as_ref().map(EncodedCertificate::from_certificate).transpose()
}

fn flatten_entry(entry: &CtlEntry) -> Result<TrustListEntry, WireError> {
    Ok(match entry {
        CtlEntry::Rca(e) => TrustListEntry::RootCa {
            certificate: EncodedCertificate::from_certificate(&e.selfsigned_root_ca)?,
            successor_to: encoded_opt(&e.successor_to)?,
        },
        CtlEntry::Tlm(e) => TrustListEntry::Tlm {
            certificate: EncodedCertificate::from_certificate(&e.self_signed_tlm_certificate)?,
            successor_to: encoded_opt(&e.successor_to)?,
            access_point: e.access_point.to_string(),
        },
        CtlEntry::Ea(e) => TrustListEntry::Ea {
            certificate: EncodedCertificate::from_certificate(&e.ea_certificate)?,
            aa_access_point: e.aa_access_point.to_string(),
            its_access_point: e.its_access_point.as_ref().map(|u| u.to_string()),
        },
        CtlEntry::Aa(e) => TrustListEntry::Aa {
            certificate: EncodedCertificate::from_certificate(&e.aa_certificate)?,
            access_point: e.access_point.to_string(),
        },
        CtlEntry::Dc(e) => TrustListEntry::Dc {
            url: e.url.to_string(),
            root_cas: e.cert.clone(),
        },
    })
}
