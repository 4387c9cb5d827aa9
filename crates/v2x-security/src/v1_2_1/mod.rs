//! The ETSI TS 103 097 v1.2.1 security stack (on the hand-written codec of
//! `v2x_wire::v1_2_1`): certificate issuance, chain validation, SN-ENCAP / SN-DECAP with
//! the CAM, DENM and generic profiles, ECIES + AES-CCM, and the same [`RejectReason`]
//! vocabulary as the v2 stack.
//!
//! Rules implemented (and where they come from):
//! * message signature: ECDSA over the hash of protocol_version, header_fields and
//!   payload_field (with their lengths), the length of trailer_fields, the trailer
//!   fields before the signature and the signature field's type (§5.6, §7) —
//!   [`SecuredMessage::to_be_signed`](v2x_wire::v1_2_1::SecuredMessage::to_be_signed);
//! * certificate signature: ECDSA over every field before `signature` (§6.1);
//! * HashedId8 of a certificate: low 8 bytes of SHA-256 of the certificate with the
//!   signature's R as x_coordinate_only (§4.2.12);
//! * P-384 / brainpool / AES-256-CCM use the non-standard extension values documented
//!   in `v2x_wire::v1_2_1::types`, hashing with SHA-384 on the 384-bit curves.
//!
//! [`RejectReason`]: crate::reason::RejectReason

pub mod crl;
mod crl_error;
pub mod crypto;
mod decap;
pub mod entity;
pub mod pki;
pub mod pki_dir;
pub mod trust_dir;
pub mod validate;

pub use crl::{issue_v1_crl, verify_v1_crl, V1CrlError};
pub use crypto::{certificate_digest, certificate_id3};
pub use decap::decap_signature_only;
pub use entity::{SignerChoice, V1Accepted, V1EncapError, V1EncapRequest, V1Entity, V1Policy, V1Profile, V1Protection};
pub use pki::{CertSpec, Credential, V1Pki, V1PkiError};
pub use pki_dir::V1PkiDir;
pub use trust_dir::{load_v1_trust_dir, V1LoadedTrust};
pub use validate::V1TrustStore;
