//! ETSI TS 103 759 types in C-OER (rasn derives). The structure follows TS 103 759 V2.2.1's
//! `EtsiTs103759Core` and `EtsiTs103759BaseTypes` modules as far as they are quoted in
//! public material (the ETSI forge is not reachable from here): `EtsiTs103759Data ::=
//! SEQUENCE { version Uint8(3), content EtsiTs103759MbrSec }`, the three-way
//! `EtsiTs103759MbrSec` CHOICE, `EtsiTs103759Mbr`, `AidSpecificReport` and the CAM report
//! template (observations by target, V2X-PDU evidence, non-V2X-PDU evidence). Open types
//! (`&Val` of an information object class) are OER length-prefixed octets: carried here as
//! OCTET STRINGs, which encode identically.

use rasn::prelude::*;

/// `ThreeDLocation` (IEEE 1609.2): 1/10 micro-degree, decimetres above −409.5 m.
#[derive(AsnType, Debug, Clone, Copy, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct ThreeDLocation {
    #[rasn(value("-900000000..=900000001"))]
    pub latitude: i32,
    #[rasn(value("-1799999999..=1800000001"))]
    pub longitude: i32,
    #[rasn(value("0..=65535"))]
    pub elevation: u16,
}

/// `MbSingleObservation`: an observation id within its target class and its value (NULL
/// for most CAM observations: an empty open type).
#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct MbSingleObservation {
    #[rasn(value("0..=255"), identifier = "obsId")]
    pub obs_id: u8,
    pub obs: OctetString,
}

/// `ObservationsByTarget`: the observations about one target (CAM: 0 beacon, 1 static,
/// 2 security, 3 position, 4 speed, 5 longitudinal acceleration).
#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct ObservationsByTarget {
    #[rasn(value("0..=255"), identifier = "tgtId")]
    pub tgt_id: u8,
    pub observations: SequenceOf<MbSingleObservation>,
}

/// `V2xPduStream`: the PDUs the observations are about (type 2: IEEE 1609.2 data).
#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct V2xPduStream {
    #[rasn(value("0..=255"), identifier = "type")]
    pub pdu_type: u8,
    #[rasn(size("1..=255"), identifier = "v2xPdus")]
    pub v2x_pdus: SequenceOf<OctetString>,
    pub certificate: Option<rasn_its::ieee1609dot2::Certificate>,
    #[rasn(value("0..=255"), identifier = "subjectPduIndex")]
    pub subject_pdu_index: u8,
}

/// `NonV2xPduEvidenceItem`.
#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct NonV2xPduEvidenceItem {
    #[rasn(value("0..=255"))]
    pub id: u8,
    pub evidence: OctetString,
}

/// `AsrCam` (the CAM instance of `TemplateAsr`).
#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct AsrCam {
    #[rasn(size("1.."))]
    pub observations: SequenceOf<ObservationsByTarget>,
    #[rasn(size("1.."), identifier = "v2xPduEvidence")]
    pub v2x_pdu_evidence: SequenceOf<V2xPduStream>,
    #[rasn(identifier = "nonV2xPduEvidence")]
    pub non_v2x_pdu_evidence: SequenceOf<NonV2xPduEvidenceItem>,
}

/// `AidSpecificReport`: the ITS-AID reported on and its report (an open type: the C-OER of
/// `AsrCam` for aid 36).
#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct AidSpecificReport {
    pub aid: Integer,
    pub content: OctetString,
}

/// `EtsiTs103759Mbr`.
#[derive(AsnType, Debug, Clone, Decode, Encode, PartialEq, Eq)]
#[rasn(automatic_tags)]
pub struct EtsiTs103759Mbr {
    #[rasn(value("0..=18446744073709551615"), identifier = "generationTime")]
    pub generation_time: u64,
    #[rasn(identifier = "observationLocation")]
    pub observation_location: ThreeDLocation,
    pub report: AidSpecificReport,
}

/// `EtsiTs103759MbrSec`: plaintext, signed, or signed then encrypted (`sTE`); the secured
/// forms are IEEE 1609.2 data whose payload is the C-OER of an [`EtsiTs103759Mbr`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MbrSec {
    Plaintext(EtsiTs103759Mbr),
    Signed(Vec<u8>),
    SignedThenEncrypted(Vec<u8>),
}

/// `EtsiTs103759Data`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EtsiTs103759Data {
    pub content: MbrSec,
}

/// Why report bytes do not decode.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReportCodecError {
    #[error("empty or truncated report")]
    Truncated,
    #[error("version {0}, expected {expected}", expected = EtsiTs103759Data::VERSION)]
    Version(u8),
    #[error("unknown EtsiTs103759MbrSec alternative tag {0:#04x}")]
    UnknownAlternative(u8),
    #[error("{0}")]
    Asn(String),
    #[error("not the canonical C-OER encoding of the value it decodes to")]
    NotCanonical,
}

impl EtsiTs103759Data {
    pub const VERSION: u8 = 3;

    /// C-OER: the version octet, the CHOICE tag (context-specific 0, 1, 2: 0x80, 0x81,
    /// 0x82) and the alternative; a secured alternative is the 1609.2 data as is.
    pub fn encode(&self) -> Result<Vec<u8>, ReportCodecError> {
        let mut out = vec![Self::VERSION];
        match &self.content {
            MbrSec::Plaintext(m) => {
                out.push(0x80);
                out.extend(rasn::coer::encode(m).map_err(|e| ReportCodecError::Asn(e.to_string()))?);
            }
            MbrSec::Signed(b) => {
                out.push(0x81);
                out.extend_from_slice(b);
            }
            MbrSec::SignedThenEncrypted(b) => {
                out.push(0x82);
                out.extend_from_slice(b);
            }
        }
        Ok(out)
    }

    /// Decodes exactly `bytes` (a plaintext report must use them all; a secured one is
    /// checked by SN-DECAP, which decodes exactly too).
    pub fn decode(bytes: &[u8]) -> Result<EtsiTs103759Data, ReportCodecError> {
        let [version, tag, rest @ ..] = bytes else {
            return Err(ReportCodecError::Truncated);
        };
        if *version != Self::VERSION {
            return Err(ReportCodecError::Version(*version));
        }
        let content = match tag {
            0x80 => MbrSec::Plaintext(decode_exact(rest)?),
            0x81 | 0x82 if rest.is_empty() => return Err(ReportCodecError::Truncated),
            0x81 => MbrSec::Signed(rest.to_vec()),
            0x82 => MbrSec::SignedThenEncrypted(rest.to_vec()),
            t => return Err(ReportCodecError::UnknownAlternative(*t)),
        };
        Ok(EtsiTs103759Data { content })
    }
}

/// C-OER decoding that refuses trailing bytes and any encoding other than the canonical one.
///
/// `rasn` accepts some non-canonical forms (e.g. a SEQUENCE's extension bit set over an empty
/// addition bitmap inside an evidence certificate, which it does not pass through
/// `v2x_wire`'s structural guard) and would re-encode them differently; a report's evidence
/// is hashed and signed as received, so only the one C-OER encoding of a value is accepted.
pub fn decode_exact<T: Decode + Encode>(bytes: &[u8]) -> Result<T, ReportCodecError> {
    let (v, rest) = rasn::coer::decode_with_remainder::<T>(bytes).map_err(|e| ReportCodecError::Asn(e.to_string()))?;
    if !rest.is_empty() {
        return Err(ReportCodecError::Asn(format!("{} trailing bytes", rest.len())));
    }
    match rasn::coer::encode(&v) {
        Ok(again) if again == bytes => Ok(v),
        _ => Err(ReportCodecError::NotCanonical),
    }
}
