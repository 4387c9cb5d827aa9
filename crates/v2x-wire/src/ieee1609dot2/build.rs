//! Constructors for the `rasn-its` types whose fields are `#[non_exhaustive]` (so they cannot be
//! built with struct literals outside `rasn-its`). Pure data, no crypto.

use super::{
    Certificate, CertificateBase, EncodeFailure, ExplicitCertificate, HashAlgorithm, HeaderInfo, Ieee1609Dot2Content,
    Ieee1609Dot2Data, ImplicitCertificate, Opaque, Psid, Signature, SignedData, SignedDataPayload, SignerIdentifier,
    Time64, ToBeSignedData, WireError,
};

/// `Ieee1609Dot2Data { 3, unsecuredData(payload) }`.
pub fn unsecured(payload: Vec<u8>) -> Ieee1609Dot2Data {
    Ieee1609Dot2Data {
        protocol_version: Ieee1609Dot2Data::VERSION,
        content: Ieee1609Dot2Content::UnsecuredData(Opaque(payload.into())),
    }
}

/// `SignedDataPayload { data }` (the `rasn-its` builder validates that some component is present,
/// hence the `Result`; with `data` present it always succeeds).
pub fn signed_data_payload(data: Ieee1609Dot2Data) -> Result<SignedDataPayload, WireError> {
    Ok(SignedDataPayload::builder().data(data).build()?)
}

/// A `HeaderInfo` with the PSID and (optionally) the generation time; set other fields with
/// `HeaderInfo::builder()` instead.
pub fn header_info_basic(psid: Psid, generation_time: Option<Time64>) -> HeaderInfo {
    HeaderInfo::builder()
        .psid(psid)
        .maybe_generation_time(generation_time)
        .build()
}

/// `ToBeSignedData { payload: { data }, headerInfo }`.
pub fn to_be_signed_data(data: Ieee1609Dot2Data, header_info: HeaderInfo) -> Result<ToBeSignedData, WireError> {
    Ok(ToBeSignedData {
        payload: signed_data_payload(data)?,
        header_info,
    })
}

/// `Ieee1609Dot2Data { 3, signedData { hashId, tbsData, signer, signature } }`.
pub fn signed(
    hash_id: HashAlgorithm,
    tbs_data: ToBeSignedData,
    signer: SignerIdentifier,
    signature: Signature,
) -> Ieee1609Dot2Data {
    Ieee1609Dot2Data {
        protocol_version: Ieee1609Dot2Data::VERSION,
        content: Ieee1609Dot2Content::SignedData(Box::new(SignedData {
            hash_id,
            tbs_data,
            signer,
            signature,
        })),
    }
}

/// A `Certificate` from its base: explicit (verification key + signature) or implicit
/// (reconstruction value, no signature); anything else is rejected.
pub fn certificate_from_base(base: CertificateBase) -> Result<Certificate, WireError> {
    if base.is_explicit() {
        Ok(ExplicitCertificate::new(base)?.into())
    } else if base.is_implicit() {
        Ok(ImplicitCertificate::new(base)?.into())
    } else {
        Err(EncodeFailure::NotACertificate.into())
    }
}
