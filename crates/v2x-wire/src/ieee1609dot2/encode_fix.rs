//! C-OER encoders for the secured-data types that `rasn` 0.30 mis-encodes.
//!
//! `rasn` 0.30's OER encoder swaps its output and scratch ("worker") buffers while it encodes
//! an extension addition; a constructed value inside the addition that itself needs the scratch
//! buffer (e.g. a `Certificate` in `HeaderInfo.requestedCertificate`, the P2PCD response) then
//! writes over the enclosing output. The result does not decode (not even with `rasn`). Values
//! encoded at top level are not affected, so these encoders assemble `HeaderInfo` (and the
//! types that contain it) from top-level encodings of their fields: byte-identical to what a
//! correct encoder produces, checked by decoding in the tests.

use super::oer::put_length_prefixed as push_open_type;
use super::{encode_signed_data_from_parts, HeaderInfo};
use super::{Ieee1609Dot2Content, Ieee1609Dot2Data, SignedData, SignedDataPayload, ToBeSignedData, WireError};

fn raw<T: rasn::Encode>(value: &T) -> Result<Vec<u8>, WireError> {
    Ok(rasn::coer::encode(value)?)
}

/// `HeaderInfo` in C-OER (extensible SEQUENCE, 6 OPTIONAL root fields, 4 extension additions).
pub fn encode_header_info(h: &HeaderInfo) -> Result<Vec<u8>, WireError> {
    let additions = [
        h.inline_p2pcd_request.as_ref().map(raw).transpose()?,
        h.requested_certificate.as_ref().map(raw).transpose()?,
        h.pdu_functional_type.as_ref().map(raw).transpose()?,
        h.contributed_extensions.as_ref().map(raw).transpose()?,
    ];
    let roots = [
        h.generation_time.as_ref().map(raw).transpose()?,
        h.expiry_time.as_ref().map(raw).transpose()?,
        h.generation_location.as_ref().map(raw).transpose()?,
        h.p2pcd_learning_request.as_ref().map(raw).transpose()?,
        h.missing_crl_identifier.as_ref().map(raw).transpose()?,
        h.encryption_key.as_ref().map(raw).transpose()?,
    ];
    let extended = additions.iter().any(Option::is_some);
    let mut preamble = if extended { 0x80u8 } else { 0 };
    for (i, r) in roots.iter().enumerate() {
        if r.is_some() {
            preamble |= 0x40 >> i;
        }
    }
    let mut out = vec![preamble];
    out.extend_from_slice(&raw(&h.psid)?);
    for r in roots.iter().flatten() {
        out.extend_from_slice(r);
    }
    if extended {
        // Presence bitmap of the 4 known additions: length 2, 4 unused bits, the bits.
        let mut bits = 0u8;
        for (i, a) in additions.iter().enumerate() {
            if a.is_some() {
                bits |= 0x80 >> i;
            }
        }
        out.extend_from_slice(&[0x02, 0x04, bits]);
        for a in additions.iter().flatten() {
            push_open_type(&mut out, a);
        }
    }
    Ok(out)
}

/// `SignedDataPayload` in C-OER (falls back to `rasn` for the rare `omitted` addition).
pub fn encode_signed_data_payload(p: &SignedDataPayload) -> Result<Vec<u8>, WireError> {
    if p.omitted.is_some() {
        return raw(p);
    }
    let mut preamble = 0u8;
    if p.data.is_some() {
        preamble |= 0x40;
    }
    if p.ext_data_hash.is_some() {
        preamble |= 0x20;
    }
    let mut out = vec![preamble];
    if let Some(d) = &p.data {
        out.extend_from_slice(&encode_data(d)?);
    }
    if let Some(h) = &p.ext_data_hash {
        out.extend_from_slice(&raw(h)?);
    }
    Ok(out)
}

/// `ToBeSignedData` in C-OER: the bytes a 1609.2 signature covers.
pub fn encode_to_be_signed_data(t: &ToBeSignedData) -> Result<Vec<u8>, WireError> {
    let mut out = encode_signed_data_payload(&t.payload)?;
    out.extend_from_slice(&encode_header_info(&t.header_info)?);
    Ok(out)
}

/// `Ieee1609Dot2Data` in C-OER.
pub fn encode_data(d: &Ieee1609Dot2Data) -> Result<Vec<u8>, WireError> {
    match &d.content {
        Ieee1609Dot2Content::SignedData(sd) if d.protocol_version == 3 => encode_signed(sd),
        _ => raw(d),
    }
}

fn encode_signed(sd: &SignedData) -> Result<Vec<u8>, WireError> {
    encode_signed_data_from_parts(
        sd.hash_id,
        &encode_to_be_signed_data(&sd.tbs_data)?,
        &sd.signer,
        &sd.signature,
    )
}

/// Encodes with the fixed encoders above when `T` is one of the affected types.
pub(crate) fn encode_fixed<T: rasn::Encode + 'static>(value: &T) -> Option<Result<Vec<u8>, WireError>> {
    let any = value as &dyn std::any::Any;
    if let Some(d) = any.downcast_ref::<Ieee1609Dot2Data>() {
        return Some(encode_data(d));
    }
    if let Some(d) = any.downcast_ref::<super::ts103097::EtsiTs103097Data>() {
        return Some(encode_data(d));
    }
    if let Some(t) = any.downcast_ref::<ToBeSignedData>() {
        return Some(encode_to_be_signed_data(t));
    }
    if let Some(h) = any.downcast_ref::<HeaderInfo>() {
        return Some(encode_header_info(h));
    }
    if let Some(p) = any.downcast_ref::<SignedDataPayload>() {
        return Some(encode_signed_data_payload(p));
    }
    if let Some(sd) = any.downcast_ref::<SignedData>() {
        // SignedData alone: the Ieee1609Dot2Data encoding minus version and CHOICE tag.
        return Some(encode_signed(sd).map(|mut v| v.split_off(2)));
    }
    None
}
