//! Revocation for the v1.2.1 stack.
//!
//! TS 103 097 v1.2.1 defines no CRL: it names a `crl_signer` subject type (§6.3) but no list
//! format, no ITS-AID and no profile for one (revocation was left to TS 102 941, whose CRL
//! came with the v1.3.1 / 1609.2-based format). What is used here instead, and why:
//!
//! * the body is the TS 102 941 CRL's (§6.3.3): `EtsiTs102941Data { version 1,
//!   certificateRevocationList ToBeSignedCrl }` in C-OER — `thisUpdate`, `nextUpdate` and the
//!   HashedId8 of each revoked certificate. A v1.2.1 certificate has a HashedId8 (§4.2.12: the
//!   low 8 bytes of SHA-256 of its encoding with R x-only), so the entries name v1.2.1
//!   certificates exactly as they name v2 ones; unlike TS 102 941 (CA certificates only),
//!   tickets may be listed;
//! * it travels as a v1.2.1 signed `SecuredMessage`: signer_info the root CA's digest,
//!   generation_time, its_aid 622 (the CRL service's ITS-AID, TS 102 965) and the body as
//!   payload, signed by the root CA whose chains it covers (the signed bytes are those of
//!   §5.6, as for any v1.2.1 message) with one encoding only, r x-only and s low (the
//!   signature is not signed: any other form would be a second encoding of the same CRL);
//! * a receiver accepts it only from a trust anchor (a self-signed `root_ca`), keeps the
//!   newest per root (`thisUpdate` orders them; an older one is refused, it would undo
//!   revocations), rejects any certificate of a chain it lists (`revoked-certificate`) and,
//!   once a CRL is expected from a root, that root's chains while none is held or the one
//!   held is past its nextUpdate (`revocation-status-unknown`) — the v2 rules
//!   ([`crate::revocation`]).
//!
//! This is this project's format, not a standard one: no other v1.2.1 implementation reads
//! it.

pub use super::crl_error::V1CrlError;
use super::crypto::{certificate_digest, sign, verify};
use super::pki::Credential;
use super::validate::V1TrustStore;
use crate::crl::etsi;
use crate::revocation::{CrlEntries, VerifiedCrl};
use crate::time::TaiTime;
use v2x_wire::v1_2_1::{
    HashedId8, HeaderField, Payload, PayloadType, SecuredMessage, SignerInfo, SubjectType, TrailerField,
};
use v2x_wire::ItsAid;

/// Signs a CRL listing `revoked` (HashedId8 of v1.2.1 certificates) with the root CA
/// credential; `this_update` and `next_update` are Time32 (TAI seconds since 2004).
pub fn issue_v1_crl(
    root: &Credential,
    revoked: &[HashedId8],
    this_update: u32,
    next_update: u32,
) -> Result<Vec<u8>, V1CrlError> {
    let ids: Vec<v2x_crypto::HashedId8> = revoked.iter().map(|d| v2x_crypto::HashedId8(*d)).collect();
    let body = etsi::encode_body(&ids, this_update, next_update)?;
    let mut msg = SecuredMessage {
        header_fields: vec![
            HeaderField::SignerInfo(SignerInfo::CertificateDigestWithSha256(root.digest())),
            HeaderField::GenerationTime(TaiTime::from_time32(this_update).0),
            HeaderField::ItsAid(ItsAid::ETSI_CRL.value()),
        ],
        payload: Payload {
            payload_type: PayloadType::SIGNED,
            data: body,
        },
        trailer_fields: vec![TrailerField::Signature(super::crypto::placeholder_signature(
            root.signing_key.curve(),
        ))],
    };
    let tbs = msg.to_be_signed().ok_or(V1CrlError::NotACrl)?;
    msg.trailer_fields = vec![TrailerField::Signature(sign(&root.signing_key, &tbs)?)];
    Ok(msg.to_bytes())
}

/// Decodes a v1.2.1 CRL and verifies it was signed by a trust anchor of `store` (over the
/// received bytes).
pub fn verify_v1_crl(bytes: &[u8], store: &V1TrustStore) -> Result<VerifiedCrl, V1CrlError> {
    let msg = SecuredMessage::from_bytes(bytes)?;
    if msg.payload.payload_type != PayloadType::SIGNED || msg.its_aid() != Some(ItsAid::ETSI_CRL.value()) {
        return Err(V1CrlError::NotACrl);
    }
    let signer = match msg.signer_info() {
        Some(SignerInfo::CertificateDigestWithSha256(d)) => *d,
        Some(SignerInfo::Certificate(c)) => certificate_digest(c),
        _ => return Err(V1CrlError::NotACrl),
    };
    let root = store
        .anchor(&signer)
        .filter(|r| r.subject_info.subject_type == SubjectType::ROOT_CA)
        .ok_or_else(|| V1CrlError::UnknownSigner(hex::encode(signer)))?;
    let key = root
        .verification_key()
        .ok_or(V1CrlError::Signature)
        .and_then(|k| super::crypto::verification_key(k).map_err(|_| V1CrlError::Signature))?;
    let sig = msg.signature().ok_or(V1CrlError::NotACrl)?;
    let one_form = crate::message_signature::SignatureForm {
        require_low_s: true,
        require_x_only_r: true,
    };
    if let Some(why) = super::decap::signature_form_violation(sig, one_form) {
        return Err(V1CrlError::SignatureForm(why));
    }
    let received = super::decap::signed_bytes(&msg, bytes).map_err(|_| V1CrlError::Signature)?;
    if !verify(&key, received, sig) {
        return Err(V1CrlError::Signature);
    }
    let body = etsi::decode_body(&msg.payload.data)?;
    Ok(VerifiedCrl {
        format: body.format,
        issuer: v2x_crypto::HashedId8(signer),
        series: body.series,
        issued: body.issued,
        serial: body.serial,
        next_update: body.next_update,
        entries: body.entries,
    })
}

/// The HashedId8 entries of a verified CRL (a v1.2.1 CRL has no other kind).
pub fn revoked_ids(crl: &VerifiedCrl) -> Vec<HashedId8> {
    match &crl.entries {
        CrlEntries::HashedId8(ids) => ids.iter().map(|d| d.0).collect(),
        CrlEntries::HashedId10(_) => Vec::new(),
    }
}

impl V1TrustStore {
    /// Verifies a v1.2.1 CRL against the trust anchors and installs it: it replaces the CRL
    /// held from the same root unless it is older (then it is refused). Returns the number of
    /// entries.
    pub fn apply_crl(&mut self, bytes: &[u8]) -> Result<usize, V1CrlError> {
        let crl = verify_v1_crl(bytes, self)?;
        tracing::debug!(issuer = %crl.issuer, entries = crl.entries.len(), next_update = crl.next_update, "v1.2.1 CRL installed");
        Ok(self.revocation_mut().install(crl)?)
    }
}
