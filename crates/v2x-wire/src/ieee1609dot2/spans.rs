//! Decoding with the byte ranges that 1609.2 signatures and hashes cover.
//!
//! 1609.2 §5.3.1: the signature of `SignedData` is over `Hash(tbsData) || Hash(signer)` where
//! both are the C-OER encodings *as received*; a certificate's signature is over its
//! `toBeSigned`, and its HashedId8 is over the whole received certificate. The functions here
//! decode the outer fields one by one with `rasn::coer::decode_with_remainder`, so the consumed
//! length of each field gives its exact range in the received buffer, and the value is decoded
//! once (no second pass).

use std::ops::Range;

use super::{
    decode_prefix_prechecked as decode_prefix, encode, Certificate, HashAlgorithm, Ieee1609Dot2Content,
    Ieee1609Dot2Data, SequenceOfCertificate, Signature, SignedData, SignerIdentifier, ToBeSignedData, WireError,
};
use super::{guard, oer};
use crate::cursor::Reader;

/// C-OER choice tag octets (context class, tag number < 63) of the alternatives we split by hand.
const TAG_SIGNED_DATA: u8 = 0x81; // Ieee1609Dot2Content.signedData [1]
const TAG_SIGNER_CERTIFICATE: u8 = 0x81; // SignerIdentifier.certificate [1]

/// The protocol version this crate decodes (1609.2 / TS 103 097 v2).
const PROTOCOL_VERSION: u8 = 3;

/// Byte ranges, in the RECEIVED buffer, that 1609.2 signatures/hashes cover.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignedDataSpans {
    /// `SignedData.tbsData`: the message signature is over the hash of these bytes.
    pub tbs_data: Range<usize>,
    /// Each certificate's full encoding when the signer is `certificate` (in order); empty for
    /// `digest` and `self`. The message signature covers the hash of the first one; the
    /// HashedId8 of a certificate is the hash of its range.
    pub signer_certificates: Vec<Range<usize>>,
    /// `tbsData.payload.data` (itself an `Ieee1609Dot2Data`) when present. Pass
    /// `&bytes[range]` to [`parse_data`] to reach nested signed data.
    pub payload_data: Option<Range<usize>>,
    /// `tbsData.headerInfo.requestedCertificate` (a P2PCD answer) when present: the
    /// certificate as received, from which its HashedId8 and signature checks are computed.
    pub requested_certificate: Option<Range<usize>>,
    /// The whole `Ieee1609Dot2Data` these spans belong to.
    pub whole: Range<usize>,
}

impl SignedDataSpans {
    fn shifted(mut self, by: usize) -> Self {
        let shift = |r: &mut Range<usize>| *r = r.start + by..r.end + by;
        shift(&mut self.tbs_data);
        self.signer_certificates.iter_mut().for_each(shift);
        if let Some(r) = self.payload_data.as_mut() {
            shift(r);
        }
        if let Some(r) = self.requested_certificate.as_mut() {
            shift(r);
        }
        shift(&mut self.whole);
        self
    }
}

/// Byte ranges, in the RECEIVED buffer, of a certificate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CertificateSpans {
    /// `CertificateBase.toBeSigned`: the issuer's signature is over the hash of these bytes.
    pub to_be_signed: Range<usize>,
    /// The whole certificate (its HashedId8 is the hash of these bytes).
    pub whole: Range<usize>,
}

/// The `protocolVersion` octet of an `Ieee1609Dot2Data`, if there is one, without decoding the
/// rest (lets the caller report "unsupported version" distinctly from "malformed").
pub fn peek_protocol_version(bytes: &[u8]) -> Option<u8> {
    bytes.first().copied()
}

/// Decodes an `Ieee1609Dot2Data` that must fill `bytes` exactly.
///
/// Returns [`SignedDataSpans`] when the top-level content is `signedData`. Version other than 3
/// gives [`WireError::Unsupported`].
pub fn parse_data(bytes: &[u8]) -> Result<(Ieee1609Dot2Data, Option<SignedDataSpans>), WireError> {
    let (data, spans, used) = parse_data_prefix(bytes)?;
    if used != bytes.len() {
        return Err(WireError::TrailingBytes {
            extra: bytes.len() - used,
        });
    }
    Ok((data, spans))
}

/// Spans of the `Ieee1609Dot2Data` that starts at `content_offset` in `bytes` (and may be followed
/// by other bytes), with ranges relative to `bytes`. `None` when that data is not signed.
pub fn signed_data_spans_at(bytes: &[u8], content_offset: usize) -> Result<Option<SignedDataSpans>, WireError> {
    let tail = bytes.get(content_offset..).ok_or_else(|| {
        Reader::invalid_at(
            "content offset",
            bytes.len(),
            format!("offset {content_offset} beyond {} bytes", bytes.len()),
        )
    })?;
    let (_, spans, _) = parse_data_prefix(tail)?;
    Ok(spans.map(|s| s.shifted(content_offset)))
}

/// Decodes one `T` (whose bytes already passed the pre-scan) at the reader's position with
/// `rasn`, and returns it with its byte range.
fn decode_field<'a, T: rasn::Decode>(r: &mut Reader<'a>, field: &'static str) -> Result<(T, Range<usize>), WireError> {
    let start = r.offset();
    let unread = r.peek_rest();
    let (value, after) = decode_prefix::<T>(unread)?;
    r.take(unread.len() - after.len(), field)?;
    Ok((value, start..r.offset()))
}

/// Decodes an `Ieee1609Dot2Data` from the start of `bytes`; returns it, its spans and its length.
fn parse_data_prefix(bytes: &[u8]) -> Result<(Ieee1609Dot2Data, Option<SignedDataSpans>, usize), WireError> {
    let mut r = Reader::new(bytes);
    let version = r.peek_u8("protocolVersion")?;
    if version != PROTOCOL_VERSION {
        return Err(WireError::Unsupported(format!(
            "protocolVersion {version} (expected {PROTOCOL_VERSION})"
        )));
    }
    // Bound every SEQUENCE OF quantity by the input before rasn sees the bytes (see guard/);
    // the decodes below are then of sub-slices that passed.
    guard::check(&guard::IEEE1609DOT2_DATA, bytes)?;
    if bytes.get(1) != Some(&TAG_SIGNED_DATA) {
        let (data, range) = decode_field::<Ieee1609Dot2Data>(&mut r, "Ieee1609Dot2Data")?;
        return Ok((data, None, range.end));
    }
    r.take(2, "protocolVersion and content tag")?;

    // SignedData ::= SEQUENCE { hashId, tbsData, signer, signature } — no preamble (no optional
    // fields, not extensible), so the fields follow each other directly.
    let (hash_id, _) = decode_field::<HashAlgorithm>(&mut r, "hashId")?;
    let (tbs_data, tbs_range) = decode_field::<ToBeSignedData>(&mut r, "tbsData")?;
    let (signer, signer_certificates) = parse_signer(&mut r)?;
    let (signature, _) = decode_field::<Signature>(&mut r, "signature")?;
    let end = r.offset();

    let payload_data = match &tbs_data.payload.data {
        // SignedDataPayload is an extensible SEQUENCE with two OPTIONAL root fields: one preamble
        // octet, then `data` first when present. Its length comes from the (allocation-free)
        // structural walk of bytes rasn has just decoded.
        Some(_) => {
            let start = tbs_range.start + 1;
            let inner = bytes.get(start..tbs_range.end).unwrap_or_default();
            Some(start..start + guard::encoded_len(&guard::IEEE1609DOT2_DATA, inner)?)
        }
        None => None,
    };
    // ToBeSignedData ::= SEQUENCE { payload, headerInfo }: headerInfo follows the payload;
    // requestedCertificate is its second extension addition.
    let requested_certificate = match &tbs_data.header_info.requested_certificate {
        Some(_) => {
            let tbs = bytes.get(tbs_range.clone()).unwrap_or_default();
            let header_at = guard::encoded_len(&guard::SIGNED_DATA_PAYLOAD, tbs)?;
            let header = tbs.get(header_at..).unwrap_or_default();
            guard::addition_content(&guard::HEADER_INFO, header, 1)?
                .map(|r| tbs_range.start + header_at + r.start..tbs_range.start + header_at + r.end)
        }
        None => None,
    };

    let signed = SignedData {
        hash_id,
        tbs_data,
        signer,
        signature,
    };
    let data = Ieee1609Dot2Data {
        protocol_version: version,
        content: Ieee1609Dot2Content::SignedData(Box::new(signed)),
    };
    let spans = SignedDataSpans {
        tbs_data: tbs_range,
        signer_certificates,
        payload_data,
        requested_certificate,
        whole: 0..end,
    };
    Ok((data, Some(spans), end))
}

/// Decodes `SignerIdentifier` at the reader's position, splitting a certificate list by hand so
/// that each certificate's range is known.
fn parse_signer(r: &mut Reader<'_>) -> Result<(SignerIdentifier, Vec<Range<usize>>), WireError> {
    if r.peek_u8("signer")? != TAG_SIGNER_CERTIFICATE {
        let (signer, _) = decode_field::<SignerIdentifier>(r, "signer")?;
        return Ok((signer, Vec::new()));
    }
    r.u8("signer")?;
    let at = r.offset();
    let count = oer::read_quantity(r, "signer certificates")?;
    // Every certificate takes well over one octet: a count larger than the bytes left is
    // malformed, and checking it first keeps a forged count from sizing an allocation.
    let count = usize::try_from(count)
        .ok()
        .filter(|&n| n <= r.remaining())
        .ok_or_else(|| {
            Reader::invalid_at(
                "signer certificates",
                at,
                format!("{count} certificates announced, {} bytes left", r.remaining()),
            )
        })?;
    let mut certs = Vec::with_capacity(count);
    let mut ranges = Vec::with_capacity(count);
    for _ in 0..count {
        let (cert, range) = decode_field::<Certificate>(r, "signer certificate")?;
        certs.push(cert);
        ranges.push(range);
    }
    Ok((SignerIdentifier::Certificate(SequenceOfCertificate(certs)), ranges))
}

/// Decodes a `Certificate` that must fill `bytes` exactly, with the range of its `toBeSigned`.
pub fn parse_certificate(bytes: &[u8]) -> Result<(Certificate, CertificateSpans), WireError> {
    let (cert, spans, used) = parse_certificate_prefix(bytes)?;
    if used != bytes.len() {
        return Err(WireError::TrailingBytes {
            extra: bytes.len() - used,
        });
    }
    Ok((cert, spans))
}

/// Decodes a `Certificate` at the start of `bytes`; returns it, its spans and its length.
pub(crate) fn parse_certificate_prefix(bytes: &[u8]) -> Result<(Certificate, CertificateSpans, usize), WireError> {
    guard::check(&guard::CERTIFICATE, bytes)?;
    let (cert, rest) = decode_prefix::<Certificate>(bytes)?;
    let end = bytes.len() - rest.len();
    // CertificateBase ::= SEQUENCE { version, type, issuer, toBeSigned, signature OPTIONAL } is
    // not extensible: one preamble octet, version (1 octet), the type ENUMERATED, then the issuer
    // CHOICE and toBeSigned, whose lengths the structural walk gives without building values.
    let mut r = Reader::new(bytes.get(..end).unwrap_or_default());
    r.take(2, "certificate preamble and version")?;
    guard::skip(&guard::Ty::Enum, &mut r)?;
    guard::skip(&guard::ISSUER_IDENTIFIER, &mut r)?;
    let tbs_start = r.offset();
    guard::skip(&guard::TO_BE_SIGNED_CERTIFICATE, &mut r)?;
    let tbs_end = r.offset();
    Ok((
        cert,
        CertificateSpans {
            to_be_signed: tbs_start..tbs_end,
            whole: 0..end,
        },
        end,
    ))
}

/// Encodes `Ieee1609Dot2Data { 3, signedData { hashId, tbsData, signer, signature } }` splicing in
/// `tbs_encoded`, the exact C-OER bytes that were signed (saves re-encoding `tbsData`, and
/// guarantees the sent bytes are the signed bytes).
pub fn encode_signed_data_from_parts(
    hash_id: HashAlgorithm,
    tbs_encoded: &[u8],
    signer: &SignerIdentifier,
    signature: &Signature,
) -> Result<Vec<u8>, WireError> {
    let hash_id = encode(&hash_id)?;
    let signer = encode(signer)?;
    let signature = encode(signature)?;
    let mut out = Vec::with_capacity(2 + hash_id.len() + tbs_encoded.len() + signer.len() + signature.len());
    out.push(PROTOCOL_VERSION);
    out.push(TAG_SIGNED_DATA);
    out.extend_from_slice(&hash_id);
    out.extend_from_slice(tbs_encoded);
    out.extend_from_slice(&signer);
    out.extend_from_slice(&signature);
    Ok(out)
}
