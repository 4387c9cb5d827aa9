//! A structural pre-scan of C-OER input that bounds every SEQUENCE OF quantity by the bytes left,
//! run before `rasn` decodes untrusted bytes.
//!
//! Why: `rasn` 0.30's OER decoder sized a `Vec::with_capacity(quantity)` from the untrusted
//! quantity field of a SEQUENCE OF before reading any element. A 6-byte input could make it
//! request terabytes (the process aborts: "memory allocation failed") or overflow the capacity
//! computation (a panic). Neither is a typed error, and an abort cannot be caught. The vendored
//! rasn (`third_party/rasn`) now bounds that capacity itself; this walk stays as the first line
//! (it also refuses encodings `rasn` would misread, see [`walker`]) and is what gives the
//! byte ranges of fields without building values.
//!
//! * [`walker`]: the walk over a [`Ty`] description, allocation-free, and its rules;
//! * [`schema`]: 1609.2 / TS 103 097 secured data and certificates;
//! * [`schema_crl`]: 1609.2 CRL contents. The TS 102 941 trust lists describe themselves in
//!   `crate::trust_list` and call [`check`] before decoding.
//!
//! Every element of every SEQUENCE OF in these schemas takes at least one octet, so a quantity
//! larger than the remaining input is always malformed. The walk is not the decoder: it only has
//! to accept everything `rasn` decodes correctly; `rasn` still does the full checks afterwards.

pub(crate) mod schema;
mod schema_crl;
mod walker;

pub(crate) use schema::{
    CERTIFICATE, HEADER_INFO, IEEE1609DOT2_DATA, ISSUER_IDENTIFIER, SIGNED_DATA_PAYLOAD, TO_BE_SIGNED_CERTIFICATE,
};
#[cfg(test)]
pub(crate) use walker::rest_after;
pub(crate) use walker::{addition_content, check, encoded_len, skip, Ty};

/// The guard description of `T`, for the types decoded from untrusted input (see
/// [`super::decode_exact`]); `None` for other types.
pub(crate) fn description_of<T: 'static>() -> Option<&'static Ty> {
    use crate::ieee1609dot2 as d;
    use std::any::TypeId;
    let t = TypeId::of::<T>();
    let table: [(TypeId, &'static Ty); 14] = [
        (
            TypeId::of::<d::crl_base_types::CrlContents>(),
            &schema_crl::CRL_CONTENTS,
        ),
        (TypeId::of::<d::Ieee1609Dot2Data>(), &schema::IEEE1609DOT2_DATA),
        (
            TypeId::of::<d::ts103097::EtsiTs103097Data>(),
            &schema::IEEE1609DOT2_DATA,
        ),
        (TypeId::of::<d::Certificate>(), &schema::CERTIFICATE),
        (
            TypeId::of::<d::ts103097::EtsiTs103097Certificate>(),
            &schema::CERTIFICATE,
        ),
        (TypeId::of::<d::SequenceOfCertificate>(), &schema::SEQ_OF_CERTIFICATE),
        (
            TypeId::of::<d::ToBeSignedCertificate>(),
            &schema::TO_BE_SIGNED_CERTIFICATE,
        ),
        (TypeId::of::<d::ToBeSignedData>(), &schema::TO_BE_SIGNED_DATA),
        (TypeId::of::<d::SignedDataPayload>(), &schema::SIGNED_DATA_PAYLOAD),
        (TypeId::of::<d::SignedData>(), &schema::SIGNED_DATA),
        (TypeId::of::<d::HeaderInfo>(), &schema::HEADER_INFO),
        (TypeId::of::<d::SignerIdentifier>(), &schema::SIGNER_IDENTIFIER),
        (TypeId::of::<d::EncryptedData>(), &schema::ENCRYPTED_DATA),
        (TypeId::of::<d::Signature>(), &schema::SIGNATURE),
    ];
    table.iter().find(|(id, _)| *id == t).map(|(_, ty)| *ty)
}
