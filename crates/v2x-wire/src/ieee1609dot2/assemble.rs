//! Hand-assembled C-OER for the hot path of SN-ENCAP: the `ToBeSignedData` of a CAM or DENM
//! (unsecured data under a header of PSID, generation time and optional generation location)
//! and the `SignedData` around the exact bytes that were signed.
//!
//! A sender signs tens of messages per second; building rasn values and encoding them costs
//! about as much again as the signature's hashing. These functions write the same bytes
//! directly (byte-identical to [`encode`](super::encode), checked by the tests below) and fall
//! back to the codec for the parts that have no fixed layout. Encoding only: no crypto, no policy.

use super::{encode, oer, EccP256CurvePoint, HashAlgorithm, Signature, WireError};

/// `Ieee1609Dot2Data.protocolVersion`.
const PROTOCOL_VERSION: u8 = 3;
/// `Ieee1609Dot2Content` CHOICE tags.
const TAG_UNSECURED_DATA: u8 = 0x80;
const TAG_SIGNED_DATA: u8 = 0x81;
/// `SignerIdentifier` CHOICE tags.
const TAG_SIGNER_DIGEST: u8 = 0x80;
const TAG_SIGNER_CERTIFICATE: u8 = 0x81;
/// `HashAlgorithm.sha256` (ENUMERATED value 0, one octet).
const HASH_SHA256: u8 = 0x00;

/// A generation location as on the wire: latitude and longitude in 1/10 micro-degrees and
/// the 1609.2 `Elevation` (decimetres with an offset).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GenerationLocation {
    pub latitude: i32,
    pub longitude: i32,
    pub elevation: u16,
}

/// The C-OER of `ToBeSignedData { payload { data { 3, unsecuredData(payload) } },
/// headerInfo { psid, generationTime, generationLocation? } }`: what a CAM or DENM signature
/// covers when no other header field is present.
pub fn unsecured_tbs_data(
    payload: &[u8],
    psid: u64,
    generation_time: u64,
    location: Option<GenerationLocation>,
) -> Vec<u8> {
    let mut out = Vec::with_capacity(payload.len() + 36);
    out.push(0x40); // SignedDataPayload preamble: `data` present, no extension
    out.extend_from_slice(&[PROTOCOL_VERSION, TAG_UNSECURED_DATA]);
    oer::put_length_prefixed(&mut out, payload);
    // HeaderInfo preamble: generationTime (+ generationLocation) present, no extension.
    out.push(if location.is_some() { 0x50 } else { 0x40 });
    oer::put_unsigned(&mut out, psid);
    out.extend_from_slice(&generation_time.to_be_bytes());
    if let Some(l) = location {
        out.extend_from_slice(&l.latitude.to_be_bytes());
        out.extend_from_slice(&l.longitude.to_be_bytes());
        out.extend_from_slice(&l.elevation.to_be_bytes());
    }
    out
}

/// How the signer of a message is identified.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SignerRef<'a> {
    /// `digest`: the HashedId8 of the signing certificate.
    Digest([u8; 8]),
    /// `certificate`: a one-certificate sequence holding these exact certificate bytes.
    Certificate(&'a [u8]),
}

/// The C-OER of `Ieee1609Dot2Data { 3, signedData { hashId, tbsData, signer, signature } }`
/// around the exact `tbs` bytes that were signed. SHA-256 and a 256-bit x-only signature are
/// written directly; other algorithms and signature forms go through the codec.
pub fn signed_data(
    hash_id: HashAlgorithm,
    tbs: &[u8],
    signer: SignerRef<'_>,
    signature: &Signature,
) -> Result<Vec<u8>, WireError> {
    let signer_len = match signer {
        SignerRef::Digest(_) => 9,
        SignerRef::Certificate(c) => 3 + c.len(),
    };
    let mut out = Vec::with_capacity(3 + tbs.len() + signer_len + 67);
    out.extend_from_slice(&[PROTOCOL_VERSION, TAG_SIGNED_DATA]);
    match hash_id {
        HashAlgorithm::Sha256 => out.push(HASH_SHA256),
        other => out.extend_from_slice(&encode(&other)?),
    }
    out.extend_from_slice(tbs);
    match signer {
        SignerRef::Digest(id) => {
            out.push(TAG_SIGNER_DIGEST);
            out.extend_from_slice(&id);
        }
        SignerRef::Certificate(cert) => {
            // SEQUENCE OF quantity 1: a one-octet length then the value 1.
            out.extend_from_slice(&[TAG_SIGNER_CERTIFICATE, 0x01, 0x01]);
            out.extend_from_slice(cert);
        }
    }
    put_signature(&mut out, signature)?;
    Ok(out)
}

/// The C-OER of `SymmetricEncryptionKey { aes128Ccm key }` (what a symmetric key's
/// HashedId8 is computed over, 1609.2 §6.3.34).
pub fn aes128_ccm_key(key: &[u8; 16]) -> [u8; 17] {
    let mut out = [0u8; 17];
    out[0] = 0x80; // CHOICE tag of aes128Ccm
    out[1..].copy_from_slice(key);
    out
}

/// Appends a `Signature`: the 256-bit x-only forms directly, anything else via the codec.
fn put_signature(out: &mut Vec<u8>, signature: &Signature) -> Result<(), WireError> {
    let (tag, sig) = match signature {
        Signature::EcdsaNistP256(s) => (0x80u8, s),
        Signature::EcdsaBrainpoolP256r1(s) => (0x81u8, s),
        other => {
            out.extend_from_slice(&encode(other)?);
            return Ok(());
        }
    };
    match &sig.r_sig {
        EccP256CurvePoint::XOnly(r) => {
            out.extend_from_slice(&[tag, 0x80]); // the signature alternative, rSig x-only
            out.extend_from_slice(&r[..]);
            out.extend_from_slice(&sig.s_sig[..]);
        }
        _ => out.extend_from_slice(&encode(signature)?),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::{
        encode_signed_data_from_parts, parse_certificate, unsecured, EccP384CurvePoint, EcdsaP256Signature,
        EcdsaP384Signature, Elevation, HashedId8, HeaderInfo, Latitude, Longitude, NinetyDegreeInt, OneEightyDegreeInt,
        Psid, SequenceOfCertificate, SignedDataPayload, SignerIdentifier, ThreeDLocation, Time64, ToBeSignedData,
    };
    use super::*;
    use rasn::types::{FixedOctetString, Integer};

    #[test]
    fn aes128_ccm_key_equals_the_codec() {
        let key = [7u8; 16];
        let codec = encode(&super::super::SymmetricEncryptionKey::Aes128Ccm(
            FixedOctetString::from(key),
        ))
        .unwrap();
        assert_eq!(aes128_ccm_key(&key).to_vec(), codec);
    }

    #[test]
    fn unsecured_tbs_data_equals_the_codec() {
        for len in [0usize, 5, 127, 128, 300, 70_000] {
            for psid in [0u64, 36, 37, 256, 0x20_40_00] {
                for loc in [
                    None,
                    Some(GenerationLocation {
                        latitude: -485_000_000,
                        longitude: 112_500_000,
                        elevation: 3,
                    }),
                ] {
                    let payload = vec![0xa5u8; len];
                    let header = HeaderInfo::builder()
                        .psid(Psid(Integer::from(psid)))
                        .generation_time(Time64(0x0102_0304_0506_0708))
                        .maybe_generation_location(loc.map(|l| ThreeDLocation {
                            latitude: Latitude(NinetyDegreeInt::new(l.latitude).unwrap()),
                            longitude: Longitude(OneEightyDegreeInt::new(l.longitude).unwrap()),
                            elevation: Elevation(l.elevation),
                        }))
                        .build();
                    let tbs = ToBeSignedData {
                        payload: SignedDataPayload::builder()
                            .data(unsecured(payload.clone()))
                            .build()
                            .unwrap(),
                        header_info: header,
                    };
                    let codec = encode(&tbs).unwrap();
                    let direct = unsecured_tbs_data(&payload, psid, 0x0102_0304_0506_0708, loc);
                    assert_eq!(direct, codec, "len={len} psid={psid} loc={loc:?}");
                }
            }
        }
    }

    fn p256(tag_brainpool: bool, r: EccP256CurvePoint) -> Signature {
        let s = EcdsaP256Signature {
            r_sig: r,
            s_sig: FixedOctetString::from([0x5au8; 32]),
        };
        if tag_brainpool {
            Signature::EcdsaBrainpoolP256r1(s)
        } else {
            Signature::EcdsaNistP256(s)
        }
    }

    #[test]
    fn signed_data_equals_the_codec_for_every_signer_and_signature_form() {
        let cert_bytes = include_bytes!("../../tests/vectors/eu-tlm-E7A4B2B045E7ACF9.oer");
        let (cert, _) = parse_certificate(cert_bytes).unwrap();
        let tbs = unsecured_tbs_data(b"abc", 36, 5, None);
        let x = FixedOctetString::from([0x11u8; 32]);
        let signatures = [
            p256(false, EccP256CurvePoint::XOnly(x)),
            p256(true, EccP256CurvePoint::XOnly(x)),
            p256(false, EccP256CurvePoint::CompressedY1(x)),
            Signature::EcdsaNistP384(EcdsaP384Signature {
                r_sig: EccP384CurvePoint::XOnly(FixedOctetString::from([0x22u8; 48])),
                s_sig: FixedOctetString::from([0x33u8; 48]),
            }),
        ];
        for sig in &signatures {
            for hash in [HashAlgorithm::Sha256, HashAlgorithm::Sha384] {
                for (direct_signer, codec_signer) in [
                    (
                        SignerRef::Digest([7; 8]),
                        SignerIdentifier::Digest(HashedId8(FixedOctetString::from([7; 8]))),
                    ),
                    (
                        SignerRef::Certificate(cert_bytes),
                        SignerIdentifier::Certificate(SequenceOfCertificate(vec![cert.clone()])),
                    ),
                ] {
                    let direct = signed_data(hash, &tbs, direct_signer, sig).unwrap();
                    let codec = encode_signed_data_from_parts(hash, &tbs, &codec_signer, sig).unwrap();
                    assert_eq!(direct, codec, "{sig:?} {hash:?} {direct_signer:?}");
                }
            }
        }
    }
}
