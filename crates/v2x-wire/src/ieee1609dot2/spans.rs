//! Decoding with the byte ranges that 1609.2 signatures and hashes cover.
//!
//! 1609.2 §5.3.1: the signature of `SignedData` is over `Hash(tbsData) || Hash(signer)` where
//! both are the C-OER encodings *as received*; a certificate's signature is over its
//! `toBeSigned`, and its HashedId8 is over the whole received certificate. The functions here
//! decode the outer fields one by one with `rasn::coer::decode_with_remainder`, so the consumed
//! length of each field gives its exact range in the received buffer, and the value is decoded
//! once (no second pass).

use std::ops::Range;

use super::guard;
use super::{
    decode_prefix_prechecked as decode_prefix, encode, Certificate, HashAlgorithm, Ieee1609Dot2Content,
    Ieee1609Dot2Data, SequenceOfCertificate, Signature, SignedData, SignerIdentifier, ToBeSignedData, WireError,
};

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
    let tail = bytes
        .get(content_offset..)
        .ok_or_else(|| WireError::Decode(format!("offset {content_offset} beyond {} bytes", bytes.len())))?;
    let (_, spans, _) = parse_data_prefix(tail)?;
    Ok(spans.map(|s| s.shifted(content_offset)))
}

/// Decodes an `Ieee1609Dot2Data` from the start of `bytes`; returns it, its spans and its length.
fn parse_data_prefix(bytes: &[u8]) -> Result<(Ieee1609Dot2Data, Option<SignedDataSpans>, usize), WireError> {
    let version = *bytes.first().ok_or_else(|| WireError::Decode("empty input".into()))?;
    if version != PROTOCOL_VERSION {
        return Err(WireError::Unsupported(format!(
            "protocolVersion {version} (expected {PROTOCOL_VERSION})"
        )));
    }
    // Bound every SEQUENCE OF quantity by the input before rasn sees the bytes (see guard.rs);
    // the decodes below are then of sub-slices that passed.
    guard::check(&guard::IEEE1609DOT2_DATA, bytes)?;
    if bytes.get(1) != Some(&TAG_SIGNED_DATA) {
        let (data, rest) = decode_prefix::<Ieee1609Dot2Data>(bytes)?;
        return Ok((data, None, bytes.len() - rest.len()));
    }
    let pos = |rest: &[u8]| bytes.len() - rest.len();

    // SignedData ::= SEQUENCE { hashId, tbsData, signer, signature } — no preamble (no optional
    // fields, not extensible), so the fields follow each other directly.
    let (hash_id, rest) = decode_prefix::<HashAlgorithm>(bytes.get(2..).unwrap_or_default())?;
    let tbs_start = pos(rest);
    let (tbs_data, rest) = decode_prefix::<ToBeSignedData>(rest)?;
    let tbs_end = pos(rest);

    let (signer, signer_certificates, rest) = parse_signer(bytes, rest)?;
    let (signature, rest) = decode_prefix::<Signature>(rest)?;
    let end = pos(rest);

    let payload_data = match &tbs_data.payload.data {
        // SignedDataPayload is an extensible SEQUENCE with two OPTIONAL root fields: one preamble
        // octet, then `data` first when present. Its length comes from the (allocation-free)
        // structural walk of bytes rasn has just decoded.
        Some(_) => {
            let start = tbs_start + 1;
            let inner = bytes.get(start..tbs_end).unwrap_or_default();
            Some(start..start + guard::encoded_len(&guard::IEEE1609DOT2_DATA, inner)?)
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
        tbs_data: tbs_start..tbs_end,
        signer_certificates,
        payload_data,
        whole: 0..end,
    };
    Ok((data, Some(spans), end))
}

/// Decodes `SignerIdentifier` at `rest` (a suffix of `whole`), splitting a certificate list by
/// hand so that each certificate's range is known.
#[allow(clippy::type_complexity)]
fn parse_signer<'a>(
    whole: &[u8],
    rest: &'a [u8],
) -> Result<(SignerIdentifier, Vec<Range<usize>>, &'a [u8]), WireError> {
    let Some((&TAG_SIGNER_CERTIFICATE, after_tag)) = rest.split_first() else {
        let (signer, rest) = decode_prefix::<SignerIdentifier>(rest)?;
        return Ok((signer, Vec::new(), rest));
    };
    let (count, mut rest) = parse_quantity(after_tag)?;
    // Every certificate takes well over one octet: a count larger than the bytes left is
    // malformed, and checking it first keeps a forged count from sizing an allocation.
    if count > rest.len() {
        return Err(WireError::Decode(format!(
            "{count} signer certificates announced, {} bytes left",
            rest.len()
        )));
    }
    let mut certs = Vec::with_capacity(count);
    let mut ranges = Vec::with_capacity(count);
    for _ in 0..count {
        let start = whole.len() - rest.len();
        let (cert, after) = decode_prefix::<Certificate>(rest)?;
        rest = after;
        ranges.push(start..whole.len() - rest.len());
        certs.push(cert);
    }
    Ok((
        SignerIdentifier::Certificate(SequenceOfCertificate(certs)),
        ranges,
        rest,
    ))
}

/// Reads a C-OER SEQUENCE OF quantity: a length octet then that many octets of unsigned count,
/// minimal (no leading zero octet).
fn parse_quantity(bytes: &[u8]) -> Result<(usize, &[u8]), WireError> {
    let (&len, rest) = bytes
        .split_first()
        .ok_or_else(|| WireError::Decode("missing quantity".into()))?;
    let len = usize::from(len);
    if len == 0 || len > 8 {
        return Err(WireError::Decode(format!("quantity of {len} octets")));
    }
    let (digits, rest) = rest
        .split_at_checked(len)
        .ok_or_else(|| WireError::Decode("truncated quantity".into()))?;
    if len > 1 && digits.first() == Some(&0) {
        return Err(WireError::NonCanonical("quantity has a leading zero octet".into()));
    }
    let count = digits.iter().fold(0u64, |acc, &d| (acc << 8) | u64::from(d));
    let count = usize::try_from(count).map_err(|_| WireError::Decode(format!("quantity {count} too large")))?;
    Ok((count, rest))
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
    const TYPE_AT: usize = 2;
    let issuer_at = TYPE_AT + guard::encoded_len(&guard::Ty::Enum, bytes.get(TYPE_AT..end).unwrap_or_default())?;
    let issuer_bytes = bytes.get(issuer_at..end).unwrap_or_default();
    let tbs_start = issuer_at + guard::encoded_len(&guard::ISSUER_IDENTIFIER, issuer_bytes)?;
    let tbs_bytes = bytes.get(tbs_start..end).unwrap_or_default();
    let tbs_end = tbs_start + guard::encoded_len(&guard::TO_BE_SIGNED_CERTIFICATE, tbs_bytes)?;
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
