//! SN-ENCAP: sign (with the profile's signer rule, P2PCD requests and answers) and/or
//! encrypt a payload.
//!
//! The sender refuses, with a reason, to sign with a ticket that is not valid at the
//! generation time or is revoked, to sign for a PSID its ticket lacks, and to encrypt to a
//! certificate whose chain does not validate or which is expired or revoked. The insecure
//! lab options of [`EncapPolicy`] lift the first and last of these.

use super::{Location, SecurityEntity, MAX_SYMMETRIC_KEYS};
use crate::certificate::{join_hash, CertRef};
use crate::chain::validated;
use crate::convert::{self, ConvertError};
use crate::encryption::{self, EncryptError, Recipient};
use crate::profile::{Profile, ProfileKind, SignerPolicy};
use crate::reason::Rejection;
use crate::time::TaiTime;
use rasn::types::OctetString;
use rasn_its::ieee1609dot2 as w;
use rasn_its::ieee1609dot2::base_types as bt;
use v2x_crypto::{hash, CryptoError, HashedId8};
use v2x_wire::ieee1609dot2::assemble::{self, GenerationLocation, SignerRef};
use v2x_wire::ieee1609dot2::{self as wire, WireError};
use v2x_wire::ItsAid;

/// One SN-ENCAP request.
#[derive(Debug, Clone)]
pub struct EncapRequest<'a> {
    pub profile: ProfileKind,
    pub payload: &'a [u8],
    /// Overrides the profile's PSID.
    pub psid: Option<ItsAid>,
    /// Generation location (required by the DENM profile).
    pub location: Option<Location>,
    /// Encrypt (after signing, unless `sign` is false) to this recipient.
    pub encrypt_to: Option<Recipient>,
    /// Sign (default true). `false` with `encrypt_to` gives encrypted-only data;
    /// `false` without it gives unsecured data.
    pub sign: bool,
    /// Generation time (default: now).
    pub time: Option<TaiTime>,
}

impl<'a> EncapRequest<'a> {
    pub fn new(profile: ProfileKind, payload: &'a [u8]) -> EncapRequest<'a> {
        EncapRequest {
            profile,
            payload,
            psid: None,
            location: None,
            encrypt_to: None,
            sign: true,
            time: None,
        }
    }
    pub fn cam(payload: &'a [u8]) -> EncapRequest<'a> {
        EncapRequest::new(ProfileKind::Cam, payload)
    }
    pub fn denm(payload: &'a [u8], location: Location) -> EncapRequest<'a> {
        EncapRequest {
            location: Some(location),
            ..EncapRequest::new(ProfileKind::Denm, payload)
        }
    }
    pub fn at(mut self, t: TaiTime) -> Self {
        self.time = Some(t);
        self
    }
    pub fn with_psid(mut self, psid: impl Into<ItsAid>) -> Self {
        self.psid = Some(psid.into());
        self
    }
    pub fn with_location(mut self, l: Location) -> Self {
        self.location = Some(l);
        self
    }
    pub fn encrypted_to(mut self, r: Recipient) -> Self {
        self.encrypt_to = Some(r);
        self
    }
    pub fn unsigned(mut self) -> Self {
        self.sign = false;
        self
    }
}

/// Result of SN-ENCAP.
#[derive(Debug, Clone)]
pub struct Encapsulated {
    /// The encoded Ieee1609Dot2Data.
    pub bytes: Vec<u8>,
    /// Whether the signer was the full certificate (false: digest or unsigned).
    pub signer_was_certificate: bool,
    /// For encrypted data: the id of the data key, now an established symmetric key.
    pub symmetric_key: Option<HashedId8>,
}

/// What SN-ENCAP refuses to do unless told otherwise (the options are insecure, for labs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct EncapPolicy {
    /// INSECURE lab option: sign with a ticket that is not valid at the generation time or
    /// that is revoked (e.g. to produce the PRESERVE expired-certificate attack messages).
    pub insecure_sign_with_invalid_certificate: bool,
    /// INSECURE lab option: encrypt to a certificate whose chain does not validate against
    /// the trust store, or which is expired or revoked.
    pub insecure_encrypt_to_unvalidated_recipient: bool,
    /// INSECURE lab option: sign for a PSID the signing certificate does not permit (the
    /// PRESERVE "validly signed, not permitted" message; receivers reject it).
    pub insecure_sign_outside_permissions: bool,
}

/// Why SN-ENCAP could not produce a message.
#[derive(Debug, thiserror::Error)]
pub enum EncapError {
    #[error("no signing credentials configured")]
    NoCredentials,
    #[error("profile {0:?} needs a generation location")]
    MissingLocation(ProfileKind),
    #[error("the generation location is out of range")]
    LocationOutOfRange,
    #[error("the signing certificate does not permit PSID {0}")]
    PsidNotPermitted(ItsAid),
    /// No ticket of the station's pool (valid now) permits the PSID (PRESERVE F-SIG-06).
    #[error("none of the station's {pseudonyms} pseudonyms permits PSID {psid}: nothing signed")]
    NoPseudonymPermits { psid: ItsAid, pseudonyms: usize },
    #[error(
        "the signing certificate {certificate} is valid from {start} to {end} (TAI s), not at the generation time {at}"
    )]
    SignerNotValid {
        certificate: HashedId8,
        start: u64,
        end: u64,
        at: u64,
    },
    #[error("the signing certificate {certificate} or its issuing chain is revoked")]
    SignerRevoked { certificate: HashedId8 },
    #[error("refusing to encrypt to {certificate}")]
    Recipient {
        certificate: HashedId8,
        #[source]
        reason: Rejection,
    },
    #[error("encryption")]
    Encryption(#[from] EncryptError),
    #[error("encoding")]
    Encode(#[from] WireError),
    #[error("{0}")]
    Convert(#[from] ConvertError),
    #[error("signing")]
    Crypto(#[from] CryptoError),
}

impl SecurityEntity {
    /// Secures a payload. See [`EncapRequest`].
    pub fn encap(&mut self, req: &EncapRequest<'_>) -> Result<Encapsulated, EncapError> {
        let now = req.time.unwrap_or_else(TaiTime::now);
        let profile = self
            .encap_profiles
            .get(&req.profile)
            .cloned()
            .unwrap_or_else(|| Profile::for_kind(req.profile, None));
        let psid = req.psid.unwrap_or(profile.psid);
        let mut signer_was_certificate = false;
        let inner = if req.sign {
            let (bytes, full) = self.sign(&profile, psid, req, now)?;
            signer_was_certificate = full;
            bytes
        } else {
            wire::encode(&wire::unsecured(req.payload.to_vec()))?
        };
        let Some(recipient) = &req.encrypt_to else {
            return Ok(Encapsulated {
                bytes: inner,
                signer_was_certificate,
                symmetric_key: None,
            });
        };
        if let Recipient::Certificate(cert) = recipient {
            if !self.encap_policy.insecure_encrypt_to_unvalidated_recipient {
                self.check_recipient(cert, now)?;
            }
        }
        if self.symmetric_keys.len() >= MAX_SYMMETRIC_KEYS {
            self.symmetric_keys.clear();
        }
        let (bytes, id) = encryption::encrypt(&inner, recipient, &mut self.symmetric_keys)?;
        Ok(Encapsulated {
            bytes,
            signer_was_certificate,
            symmetric_key: Some(id),
        })
    }

    /// A recipient certificate must validate up to a trust anchor, be valid now and not be
    /// revoked.
    fn check_recipient(&mut self, cert: &CertRef, now: TaiTime) -> Result<(), EncapError> {
        let refuse = |reason: Rejection| EncapError::Recipient {
            certificate: cert.hashed_id8(),
            reason,
        };
        let chain = validated(cert, &[], &mut self.store).map_err(refuse)?;
        chain.check_validity_at(now).map_err(refuse)?;
        chain
            .check_revocation(self.store.revocation(), now, self.policy.revocation)
            .map_err(refuse)
    }

    /// The active ticket must be valid at the generation time and not revoked (nor its
    /// issuing chain).
    fn check_signer(&self, cert: &CertRef, now: TaiTime) -> Result<(), EncapError> {
        let v = cert.validity();
        if !v.contains(now) {
            return Err(EncapError::SignerNotValid {
                certificate: cert.hashed_id8(),
                start: v.start,
                end: v.end,
                at: now.seconds(),
            });
        }
        if self.store.is_revoked(cert) || self.own_chain.iter().any(|c| self.store.is_revoked(c)) {
            return Err(EncapError::SignerRevoked {
                certificate: cert.hashed_id8(),
            });
        }
        Ok(())
    }

    fn sign(
        &mut self,
        profile: &Profile,
        psid: ItsAid,
        req: &EncapRequest<'_>,
        now: TaiTime,
    ) -> Result<(Vec<u8>, bool), EncapError> {
        let insecure_psid = self.encap_policy.insecure_sign_outside_permissions;
        if let Some(p) = self.pseudonyms.as_mut() {
            let before = p.active().certificate.hashed_id8();
            p.maybe_rotate(now);
            // A pseudonym whose permissions lack the PSID is left for the next one that
            // has it (F-SIG-05); with none, nothing is signed (F-SIG-06).
            if !insecure_psid
                && p.len() > 1
                && p.active().certificate.permission_for(psid).is_none()
                && !p.activate_first(now, |t| t.certificate.permission_for(psid).is_some())
            {
                return Err(EncapError::NoPseudonymPermits {
                    psid,
                    pseudonyms: p.len(),
                });
            }
            if p.active().certificate.hashed_id8() != before {
                self.last_full_certificate = None;
                self.certificate_due = true;
            }
        }
        let cert = self
            .pseudonyms
            .as_ref()
            .map(|p| p.active().certificate.clone())
            .ok_or(EncapError::NoCredentials)?;
        if profile.generation_location && req.location.is_none() {
            return Err(EncapError::MissingLocation(profile.kind));
        }
        if cert.permission_for(psid).is_none() && !self.encap_policy.insecure_sign_outside_permissions {
            return Err(EncapError::PsidNotPermitted(psid));
        }
        if !self.encap_policy.insecure_sign_with_invalid_certificate {
            self.check_signer(&cert, now)?;
        }
        let full_certificate = match profile.signer {
            SignerPolicy::Certificate => true,
            SignerPolicy::DigestWithCertificateEvery(_) => self.certificate_due(now),
        };
        let is_cam = profile.kind == ProfileKind::Cam;
        // P2PCD: ask for certificates we miss, answer requests for our CA certificates.
        let requests = if is_cam { self.p2pcd.take_requests() } else { Vec::new() };
        let own_chain = &self.own_chain;
        let answer = if is_cam {
            self.p2pcd
                .take_asked(|id3| own_chain.iter().any(|c| c.hashed_id3() == id3))
                .and_then(|id3| own_chain.iter().find(|c| c.hashed_id3() == id3).cloned())
        } else {
            None
        };
        let location = req.location.map(|l| GenerationLocation {
            latitude: l.point.lat,
            longitude: l.point.lon,
            elevation: l.elevation,
        });
        let tbs_bytes = if requests.is_empty() && answer.is_none() {
            assemble::unsecured_tbs_data(req.payload, psid.value(), now.0, location)
        } else {
            let location = match location {
                Some(l) => Some(bt::ThreeDLocation {
                    latitude: bt::Latitude(bt::NinetyDegreeInt::new(l.latitude).ok_or(EncapError::LocationOutOfRange)?),
                    longitude: bt::Longitude(
                        bt::OneEightyDegreeInt::new(l.longitude).ok_or(EncapError::LocationOutOfRange)?,
                    ),
                    elevation: bt::Elevation(l.elevation),
                }),
                None => None,
            };
            let header = w::HeaderInfo::builder()
                .psid(convert::psid(psid))
                .generation_time(bt::Time64(now.0))
                .maybe_generation_location(location)
                .maybe_inline_p2pcd_request(if requests.is_empty() {
                    None
                } else {
                    Some(bt::SequenceOfHashedId3(
                        requests.into_iter().map(convert::hashed_id3_to_wire).collect(),
                    ))
                })
                .maybe_requested_certificate(answer.map(|c| c.decoded().clone()))
                .build();
            let data = w::Ieee1609Dot2Data {
                protocol_version: 3,
                content: w::Ieee1609Dot2Content::UnsecuredData(bt::Opaque(OctetString::from(req.payload))),
            };
            wire::encode(&wire::to_be_signed_data(data, header)?)?
        };
        self.finish_signing(&tbs_bytes, full_certificate, is_cam, now)
    }

    /// Signs encoded tbsData with the active ticket and builds the message.
    fn finish_signing(
        &mut self,
        tbs_bytes: &[u8],
        full_certificate: bool,
        is_cam: bool,
        now: TaiTime,
    ) -> Result<(Vec<u8>, bool), EncapError> {
        let creds = self
            .pseudonyms
            .as_ref()
            .map(|p| p.active())
            .ok_or(EncapError::NoCredentials)?;
        let cert = &creds.certificate;
        let key = &creds.signing_key;
        let alg = key.curve().hash_alg();
        let digest = join_hash(alg, hash(alg, tbs_bytes).as_ref(), cert.signer_hash().as_ref());
        let sig = crate::message_signature::to_low_s(if self.compressed_r {
            key.sign_digest_compressed_r(digest.as_ref())?
        } else {
            key.sign_digest(digest.as_ref())?
        });
        let sig = convert::signature_to_wire(&sig)?;
        let signer = if full_certificate {
            SignerRef::Certificate(cert.encoded())
        } else {
            SignerRef::Digest(cert.hashed_id8().0)
        };
        let bytes = assemble::signed_data(convert::hash_alg_to_wire(alg), tbs_bytes, signer, &sig)?;
        if full_certificate && is_cam {
            self.last_full_certificate = Some(now);
            self.certificate_due = false;
        }
        Ok((bytes, full_certificate))
    }
}
