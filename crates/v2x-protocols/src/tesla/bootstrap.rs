//! Who signs chain commitments and checks them (and signs paper-001 data packets): the
//! standard stack (an IEEE 1609.2 signed message made and checked by `v2x-security`) or
//! our compact certificate with a raw ECDSA signature.

use super::wire::Commitment;
use crate::authenticator::{EncapError, Timestamp};
use crate::cert::{self, Credential, TrustAnchor};
use crate::dot2_pki::Clock;
use crate::{RejectReason, Rejection};
use v2x_crypto::PublicKey;
use v2x_security::{Credentials, EncapRequest, ProfileKind, SecurityEntity};
use v2x_wire::ItsAid;

/// The signer of an authenticated commitment, as the receiver learnt it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommitmentSigner {
    /// HashedId8 of the signing certificate.
    pub digest: [u8; 8],
    pub public: PublicKey,
}

/// Who signs (and checks) commitments, and signs paper-001 packets.
pub enum TeslaSigner {
    /// Compact certificate and the CA anchor.
    Compact {
        credential: Credential,
        anchor: TrustAnchor,
    },
    /// The standard stack's security entity with its ticket.
    Ieee1609Dot2 {
        entity: Box<SecurityEntity>,
        ticket: Credentials,
        clock: Clock,
        psid: ItsAid,
    },
}

impl TeslaSigner {
    /// HashedId8 of the signing certificate.
    pub fn digest(&self) -> [u8; 8] {
        match self {
            TeslaSigner::Compact { credential, .. } => credential.certificate.digest(),
            TeslaSigner::Ieee1609Dot2 { ticket, .. } => ticket.certificate.hashed_id8().0,
        }
    }

    /// Raw ECDSA signature (r ‖ s) with the certificate's key.
    pub fn sign(&self, data: &[u8]) -> Result<Vec<u8>, EncapError> {
        Ok(match self {
            TeslaSigner::Compact { credential, .. } => credential.sign(data)?,
            TeslaSigner::Ieee1609Dot2 { ticket, .. } => cert::sign(&ticket.signing_key, data)?,
        })
    }

    /// The commitment packet: `lead` ‖ (`body` ‖ certificate ‖ signature, or a 1609.2
    /// signed message whose payload is `body`).
    pub fn sign_commitment(&mut self, lead: &[u8], body: &[u8], now: Timestamp) -> Result<Vec<u8>, EncapError> {
        let mut out = lead.to_vec();
        match self {
            TeslaSigner::Compact { credential, .. } => {
                out.extend_from_slice(body);
                out.extend_from_slice(credential.certificate.encoded());
                let sig = credential.sign(&out)?;
                out.extend_from_slice(&sig);
            }
            TeslaSigner::Ieee1609Dot2 {
                entity, clock, psid, ..
            } => {
                let req = EncapRequest::new(ProfileKind::Generic, body)
                    .with_psid(*psid)
                    .at(clock.to_tai(now));
                out.extend_from_slice(&entity.encap(&req)?.bytes);
            }
        }
        Ok(out)
    }

    /// Checks a compact commitment: certificate against the anchor, then its signature.
    pub fn verify_compact(&self, c: &Commitment<'_>, now: Timestamp) -> Result<CommitmentSigner, Rejection> {
        let TeslaSigner::Compact { anchor, .. } = self else {
            return Err(Rejection::new(
                RejectReason::IncompatibleProtocol,
                "compact commitment, 1609.2 expected",
            ));
        };
        c.certificate.verify(anchor, now)?;
        if !cert::verify(&c.certificate.public, c.signed, c.signature) {
            return Err(Rejection::new(
                RejectReason::FalseSignature,
                "commitment signature does not verify",
            ));
        }
        Ok(CommitmentSigner {
            digest: c.certificate.digest(),
            public: c.certificate.public.clone(),
        })
    }

    /// Checks a 1609.2-signed commitment with SN-DECAP (chain, validity, permissions,
    /// revocation, signature) and its PSID; returns the body and its signer.
    pub fn open_signed(&mut self, bytes: &[u8], now: Timestamp) -> Result<(Vec<u8>, CommitmentSigner), Rejection> {
        let TeslaSigner::Ieee1609Dot2 {
            entity, clock, psid, ..
        } = self
        else {
            return Err(Rejection::new(
                RejectReason::IncompatibleProtocol,
                "1609.2 commitment, compact expected",
            ));
        };
        let d = entity.decap_at(bytes, clock.to_tai(now))?;
        if d.psid != Some(*psid) {
            return Err(Rejection::new(
                RejectReason::PsidNotPermitted,
                "not a TESLA commitment PSID",
            ));
        }
        let signer = d
            .signer
            .ok_or_else(|| Rejection::new(RejectReason::UnsignedMessage, "commitment is not signed"))?;
        Ok((
            d.payload,
            CommitmentSigner {
                digest: signer.hashed_id8().0,
                public: signer.verification_key().clone(),
            },
        ))
    }
}
