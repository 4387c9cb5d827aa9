//! A received or issued IEEE 1609.2 explicit certificate, kept with its exact
//! encoding and everything verification needs precomputed once: HashedId8, the hash
//! used when it signs, the OpenSSL verification key (expensive to build) and the
//! decoded permissions, validity and region.

// On the decap path (issue 29): a typed rejection, never a panic, outside tests.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)
)]

use crate::convert::{self, ConvertError};
use crate::time::TaiTime;
use rasn_its::ieee1609dot2 as w;
use rasn_its::ieee1609dot2::base_types as bt;
use std::ops::Range;
use std::sync::Arc;
use v2x_crypto::{hash, Curve, Digest, HashAlg, HashedId3, HashedId8, PublicKey, Signature};
use v2x_wire::ieee1609dot2::WireError;
use v2x_wire::ItsAid;

/// A shared, immutable certificate.
pub type CertRef = Arc<Certificate>;

/// Why bytes are not a usable certificate.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CertificateError {
    #[error("certificate does not decode")]
    Decode(#[from] WireError),
    #[error("unsupported certificate version {0} (only 3)")]
    Version(u8),
    #[error("implicit certificates are not supported")]
    Implicit,
    #[error("unsupported issuer identifier")]
    UnsupportedIssuer,
    #[error("the certificate has no verification key")]
    NoVerificationKey,
    #[error("explicit certificate without signature")]
    NoSignature,
    #[error("a PSID beyond 64 bits")]
    PsidOutOfRange,
    #[error("unsupported SSP alternative")]
    UnsupportedSsp,
    /// A field that decodes but is not a usable key, signature or algorithm.
    #[error("{field}")]
    Field {
        field: &'static str,
        #[source]
        source: ConvertError,
    },
}

fn field(field: &'static str) -> impl FnOnce(ConvertError) -> CertificateError {
    move |source| CertificateError::Field { field, source }
}

/// Who signed the certificate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Issuer {
    /// Self-signed (a root CA or trust-list manager), with the hash algorithm used.
    SelfSigned(HashAlg),
    /// Signed by the certificate with this HashedId8 (computed with `HashAlg`).
    Digest(HashAlg, HashedId8),
}

impl Issuer {
    /// The hash algorithm of the issuing signature (and of this certificate's HashedId8).
    pub fn hash_alg(self) -> HashAlg {
        match self {
            Issuer::SelfSigned(h) | Issuer::Digest(h, _) => h,
        }
    }
}

/// One application permission: PSID and optional SSP bytes (opaque or bitmap).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppPermission {
    pub psid: ItsAid,
    pub ssp: Option<Vec<u8>>,
}

impl AppPermission {
    pub fn new(psid: impl Into<ItsAid>, ssp: Option<Vec<u8>>) -> AppPermission {
        AppPermission { psid: psid.into(), ssp }
    }
}

/// Validity period in TAI seconds since 2004 (`end` exclusive).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Validity {
    pub start: u64,
    pub end: u64,
}

impl Validity {
    pub fn contains(&self, t: TaiTime) -> bool {
        let s = t.seconds();
        s >= self.start && s < self.end
    }
    pub fn within(&self, outer: &Validity) -> bool {
        self.start >= outer.start && self.end <= outer.end
    }
}

/// Duration of a 1609.2 ValidityPeriod in seconds.
pub fn duration_seconds(d: &bt::Duration) -> u64 {
    match *d {
        bt::Duration::Microseconds(v) => u64::from(v) / 1_000_000,
        bt::Duration::Milliseconds(v) => u64::from(v) / 1_000,
        bt::Duration::Seconds(v) => u64::from(v),
        bt::Duration::Minutes(v) => u64::from(v) * 60,
        bt::Duration::Hours(v) => u64::from(v) * 3600,
        bt::Duration::SixtyHours(v) => u64::from(v) * 60 * 3600,
        // 1609.2 defines a year as 31 556 952 s (365.2425 days).
        bt::Duration::Years(v) => u64::from(v) * 31_556_952,
    }
}

/// An explicit 1609.2 certificate with cached verification material.
pub struct Certificate {
    encoded: Vec<u8>,
    decoded: w::Certificate,
    tbs: Range<usize>,
    issuer: Issuer,
    hashed_id8: HashedId8,
    hashed_id10: [u8; 10],
    /// Whole-certificate hashes with both algorithms (to resolve references made with
    /// either; mixed-curve chains reference a certificate with the issuer's hash).
    id8_sha256: HashedId8,
    id8_sha384: HashedId8,
    /// Hash(encoding) with this certificate's own signing hash: the signer input of
    /// every signature this certificate's key makes.
    signer_hash: Digest,
    key: PublicKey,
    signature: Option<Signature>,
    validity: Validity,
    app_permissions: Vec<AppPermission>,
    encryption_key: Option<PublicKey>,
}

impl std::fmt::Debug for Certificate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Certificate({} {:?} {})",
            self.hashed_id8,
            self.name(),
            self.key.curve()
        )
    }
}

impl Certificate {
    /// Decodes and prepares a certificate. Only explicit certificates are supported.
    pub fn from_bytes(bytes: &[u8]) -> Result<Certificate, CertificateError> {
        let (decoded, spans) = v2x_wire::ieee1609dot2::parse_certificate(bytes)?;
        Self::prepare(bytes.to_vec(), decoded, spans.to_be_signed)
    }

    pub(crate) fn prepare(
        encoded: Vec<u8>,
        decoded: w::Certificate,
        tbs: Range<usize>,
    ) -> Result<Certificate, CertificateError> {
        Self::prepare_with_keys(encoded, decoded, tbs, None)
    }

    /// [`Self::prepare`], with the verification and encryption keys already in hand when the
    /// certificate was just built from them (an issuer's own output: reading the keys back
    /// from the encoding would decompress both points again).
    pub(crate) fn prepare_with_keys(
        encoded: Vec<u8>,
        decoded: w::Certificate,
        tbs: Range<usize>,
        keys: Option<(PublicKey, Option<PublicKey>)>,
    ) -> Result<Certificate, CertificateError> {
        if decoded.version != 3 {
            return Err(CertificateError::Version(decoded.version));
        }
        if decoded.r#type != w::CertificateType::Explicit {
            return Err(CertificateError::Implicit);
        }
        let issuer = match &decoded.issuer {
            w::IssuerIdentifier::VSelf(h) => {
                Issuer::SelfSigned(convert::hash_alg_from_wire(h).map_err(field("issuer"))?)
            }
            w::IssuerIdentifier::Sha256AndDigest(d) => {
                Issuer::Digest(HashAlg::Sha256, convert::hashed_id8_from_wire(d))
            }
            w::IssuerIdentifier::Sha384AndDigest(d) => {
                Issuer::Digest(HashAlg::Sha384, convert::hashed_id8_from_wire(d))
            }
            _ => return Err(CertificateError::UnsupportedIssuer),
        };
        let tbsc = &decoded.to_be_signed;
        let vk = match &tbsc.verify_key_indicator {
            w::VerificationKeyIndicator::VerificationKey(vk) => vk,
            _ => return Err(CertificateError::NoVerificationKey),
        };
        let (key, known_encryption_key) = match keys {
            Some((key, encryption_key)) => (key, Some(encryption_key)),
            None => (convert::verification_key(vk).map_err(field("verification key"))?, None),
        };
        let signature = match &decoded.signature {
            Some(s) => Some(convert::signature(s).map_err(field("signature"))?),
            None => return Err(CertificateError::NoSignature),
        };
        let start = u64::from(tbsc.validity_period.start.0);
        let validity = Validity {
            start,
            end: start.saturating_add(duration_seconds(&tbsc.validity_period.duration)),
        };
        let mut app_permissions = Vec::new();
        if let Some(perms) = &tbsc.app_permissions {
            for p in perms.0.iter() {
                let psid = convert::psid_value(&p.psid).ok_or(CertificateError::PsidOutOfRange)?;
                let ssp = match &p.ssp {
                    None => None,
                    Some(bt::ServiceSpecificPermissions::Opaque(o)) => Some(o.to_vec()),
                    Some(bt::ServiceSpecificPermissions::BitmapSsp(b)) => Some(b.0.to_vec()),
                    Some(_) => return Err(CertificateError::UnsupportedSsp),
                };
                app_permissions.push(AppPermission { psid, ssp });
            }
        }
        let encryption_key = match (known_encryption_key, &tbsc.encryption_key) {
            (Some(known), _) => known,
            (None, None) => None,
            (None, Some(k)) => Some(convert::encryption_key(&k.public_key).map_err(field("encryption key"))?),
        };
        let id8_sha256 = v2x_crypto::hashed_id8(HashAlg::Sha256, &encoded);
        let id8_sha384 = v2x_crypto::hashed_id8(HashAlg::Sha384, &encoded);
        let whole = hash(issuer.hash_alg(), &encoded);
        let whole = whole.as_ref();
        let mut hashed_id10 = [0u8; 10];
        for (d, s) in hashed_id10
            .iter_mut()
            .zip(whole.iter().skip(whole.len().saturating_sub(10)))
        {
            *d = *s;
        }
        let hashed_id8 = match issuer.hash_alg() {
            HashAlg::Sha256 => id8_sha256,
            HashAlg::Sha384 => id8_sha384,
        };
        let signer_hash = hash(key.curve().hash_alg(), &encoded);
        Ok(Certificate {
            encoded,
            decoded,
            tbs,
            issuer,
            hashed_id8,
            hashed_id10,
            id8_sha256,
            id8_sha384,
            signer_hash,
            key,
            signature,
            validity,
            app_permissions,
            encryption_key,
        })
    }

    /// The exact bytes this certificate was received or issued as.
    pub fn encoded(&self) -> &[u8] {
        &self.encoded
    }

    /// The decoded rasn-its structure.
    pub fn decoded(&self) -> &w::Certificate {
        &self.decoded
    }

    /// The encoding of `toBeSigned` (a sub-slice of [`Self::encoded`]).
    pub fn tbs_bytes(&self) -> &[u8] {
        // The range was produced by the decoder over these very bytes.
        self.encoded.get(self.tbs.clone()).unwrap_or_default()
    }

    /// HashedId8 with the whole-certificate hash (the issuer's hash algorithm).
    pub fn hashed_id8(&self) -> HashedId8 {
        self.hashed_id8
    }

    /// HashedId10 (low ten bytes of the whole-certificate hash), the id of hash-based CRLs.
    pub fn hashed_id10(&self) -> [u8; 10] {
        self.hashed_id10
    }

    /// HashedId8 computed with a given hash algorithm.
    pub fn hashed_id8_with(&self, alg: HashAlg) -> HashedId8 {
        match alg {
            HashAlg::Sha256 => self.id8_sha256,
            HashAlg::Sha384 => self.id8_sha384,
        }
    }

    pub fn hashed_id3(&self) -> HashedId3 {
        self.hashed_id8.to_hashed_id3()
    }

    /// Hash(encoding) with this certificate's signing hash algorithm (cached).
    pub fn signer_hash(&self) -> &Digest {
        &self.signer_hash
    }

    pub fn issuer(&self) -> Issuer {
        self.issuer
    }

    pub fn is_self_signed(&self) -> bool {
        matches!(self.issuer, Issuer::SelfSigned(_))
    }

    /// The OpenSSL verification key, built once.
    pub fn verification_key(&self) -> &PublicKey {
        &self.key
    }

    pub fn curve(&self) -> Curve {
        self.key.curve()
    }

    pub fn signature(&self) -> Option<&Signature> {
        self.signature.as_ref()
    }

    pub fn validity(&self) -> Validity {
        self.validity
    }

    pub fn app_permissions(&self) -> &[AppPermission] {
        &self.app_permissions
    }

    /// The SSP for `psid` if the certificate permits it (`Some(None)`: permitted, no SSP).
    pub fn permission_for(&self, psid: impl Into<ItsAid>) -> Option<Option<&[u8]>> {
        let psid = psid.into();
        self.app_permissions
            .iter()
            .find(|p| p.psid == psid)
            .map(|p| p.ssp.as_deref())
    }

    pub fn region(&self) -> Option<&bt::GeographicRegion> {
        self.decoded.to_be_signed.region.as_ref()
    }

    pub fn encryption_key(&self) -> Option<&PublicKey> {
        self.encryption_key.as_ref()
    }

    pub fn assurance_level(&self) -> Option<u8> {
        self.decoded
            .to_be_signed
            .assurance_level
            .as_ref()
            .and_then(|a| a.0.first().copied())
    }

    /// Whether the certificate may issue certificates (has certIssuePermissions).
    pub fn is_ca(&self) -> bool {
        self.decoded.to_be_signed.cert_issue_permissions.is_some()
    }

    /// The certificate name, if its id is a name.
    pub fn name(&self) -> Option<&str> {
        match &self.decoded.to_be_signed.id {
            w::CertificateId::Name(n) => Some(n.0.as_str()),
            _ => None,
        }
    }

    /// The digest signed for this certificate by `issuer_hash` (Hash of the issuer's
    /// encoding, or None for self-signed): Hash( Hash(tbs) || Hash(issuer) ).
    fn signed_digest(&self, alg: HashAlg, issuer: Option<&Certificate>) -> Digest {
        let tbs_hash = hash(alg, self.tbs_bytes());
        let signer_hash = match issuer {
            Some(i) => hash(alg, i.encoded()),
            None => hash(alg, b""),
        };
        join_hash(alg, tbs_hash.as_ref(), signer_hash.as_ref())
    }

    /// Verifies this certificate's signature with `issuer`'s key. For a self-signed
    /// certificate pass `None`.
    pub fn verify_signature(&self, issuer: Option<&Certificate>) -> bool {
        let Some(sig) = &self.signature else { return false };
        let key = match issuer {
            Some(i) => i.verification_key(),
            None => self.verification_key(),
        };
        let alg = key.curve().hash_alg();
        let digest = self.signed_digest(alg, issuer);
        key.verify_digest(digest.as_ref(), sig).unwrap_or(false)
    }
}

/// Hash( a || b ) without allocating.
pub fn join_hash(alg: HashAlg, a: &[u8], b: &[u8]) -> Digest {
    use sha2::Digest as _;
    match alg {
        HashAlg::Sha256 => {
            let mut h = sha2::Sha256::new();
            h.update(a);
            h.update(b);
            Digest::Sha256(h.finalize().into())
        }
        HashAlg::Sha384 => {
            let mut h = sha2::Sha384::new();
            h.update(a);
            h.update(b);
            Digest::Sha384(h.finalize().into())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_in_seconds() {
        assert_eq!(duration_seconds(&bt::Duration::Hours(2)), 7200);
        assert_eq!(duration_seconds(&bt::Duration::Years(1)), 31_556_952);
    }

    #[test]
    fn garbage_is_a_decode_error() {
        assert!(matches!(
            Certificate::from_bytes(&[0x80, 0x03]),
            Err(CertificateError::Decode(_))
        ));
    }
}
