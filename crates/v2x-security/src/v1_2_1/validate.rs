//! Trust store and certificate-chain validation for v1.2.1: every link's signature up
//! to a configured root, subject types, validity periods, regions and ITS-AID
//! permissions, revocation (CRLs of [`super::crl`], fail closed as in v2), each failure with
//! its own [`RejectReason`].

use super::crypto::{certificate_digest, verification_key, verify};
use crate::reason::{RejectReason, Rejection};
use crate::region::{GeoPoint, Region};
use crate::revocation::{CrlStatus, RevocationPolicy, RevocationSet};
use crate::time::TaiTime;
use std::collections::{HashMap, HashSet};
use v2x_crypto::PublicKey as CPublicKey;
use v2x_wire::v1_2_1::{Certificate, GeographicRegion, HashedId8, SignerInfo, SubjectAttribute, SubjectType};

fn rej(reason: RejectReason, detail: impl Into<String>) -> Rejection {
    Rejection::new(reason, detail)
}

/// The model region of a v1.2.1 region; `Ok(None)` for `none`, `Err` for kinds that
/// cannot be checked (identified regions keep the country code for comparisons).
pub fn model_region(r: &GeographicRegion) -> Option<Region> {
    let p = |l: &v2x_wire::v1_2_1::TwoDLocation| GeoPoint {
        lat: l.latitude,
        lon: l.longitude,
    };
    match r {
        GeographicRegion::None => None,
        GeographicRegion::Circle { center, radius } => Some(Region::Circle {
            center: p(center),
            radius_m: *radius,
        }),
        GeographicRegion::Rectangle(rs) => Some(Region::Rectangles(
            rs.iter().map(|r| (p(&r.northwest), p(&r.southeast))).collect(),
        )),
        GeographicRegion::Polygon(ps) => Some(Region::Polygon(ps.iter().map(p).collect())),
        GeographicRegion::Id { identifier, .. } => Some(Region::Countries(vec![*identifier])),
        // An unknown region kind restricts to nowhere we can prove: model as empty.
        GeographicRegion::Other { .. } => Some(Region::Polygon(Vec::new())),
    }
}

/// Certificates this station trusts or has learnt.
#[derive(Debug, Clone, Default)]
pub struct V1TrustStore {
    anchors: HashMap<HashedId8, Certificate>,
    /// CA certificates (AA/EA) learnt out of band or from certificate chains.
    authorities: HashMap<HashedId8, Certificate>,
    /// Tickets seen in full, so later digest-signed messages resolve.
    tickets: HashMap<HashedId8, Certificate>,
    /// Certificates whose signature chain has been verified (their signatures are not
    /// re-verified; time, region and permissions are checked every time).
    verified: HashSet<HashedId8>,
    /// Certificates revoked by hand ([`V1TrustStore::revoke`]).
    revoked: HashSet<HashedId8>,
    /// The CRLs held (newest per root) and the roots a CRL is expected from.
    revocation: RevocationSet,
    /// Missing or outdated CRLs: refused unless the insecure lab option says otherwise.
    revocation_policy: RevocationPolicy,
    /// OpenSSL verification keys by certificate digest: building one from a point
    /// (decompression and on-curve check) costs about as much as a verification, so
    /// each certificate's key is built once.
    keys: HashMap<HashedId8, CPublicKey>,
}

/// Bound on the key cache; it is emptied when full (keys are rebuilt on demand).
const KEY_CACHE_CAPACITY: usize = 4096;

impl V1TrustStore {
    pub fn new() -> V1TrustStore {
        V1TrustStore::default()
    }

    /// Adds a trust anchor (a self-signed root CA certificate).
    pub fn add_anchor(&mut self, root: Certificate) -> HashedId8 {
        let d = certificate_digest(&root);
        self.anchors.insert(d, root);
        d
    }

    /// Adds a CA certificate (validated when a chain through it is first used).
    pub fn add_authority(&mut self, ca: Certificate) -> HashedId8 {
        let d = certificate_digest(&ca);
        self.authorities.insert(d, ca);
        d
    }

    pub fn revoke(&mut self, digest: HashedId8) {
        self.revoked.insert(digest);
        self.verified.remove(&digest);
    }

    pub fn ticket(&self, digest: &HashedId8) -> Option<&Certificate> {
        self.tickets.get(digest)
    }

    /// The trust anchor with this digest.
    pub fn anchor(&self, digest: &HashedId8) -> Option<&Certificate> {
        self.anchors.get(digest)
    }

    /// The digests of the trust anchors.
    pub fn anchor_digests(&self) -> impl Iterator<Item = &HashedId8> {
        self.anchors.keys()
    }

    /// The CA certificates held (configured or learnt from certificate chains).
    pub fn authorities(&self) -> impl Iterator<Item = &Certificate> {
        self.authorities.values()
    }

    /// The tickets learnt from messages whose chain and signature verified.
    pub fn tickets(&self) -> impl Iterator<Item = &Certificate> {
        self.tickets.values()
    }

    /// The CRLs held and the roots a CRL is expected from.
    pub fn revocation(&self) -> &RevocationSet {
        &self.revocation
    }

    pub fn revocation_mut(&mut self) -> &mut RevocationSet {
        &mut self.revocation
    }

    /// Records that `root` publishes a CRL: until one is held (and while the one held is past
    /// its nextUpdate), chains under it are rejected `revocation-status-unknown`.
    pub fn expect_crl_from(&mut self, root: HashedId8) {
        self.revocation.expect_crl_from(v2x_crypto::HashedId8(root));
    }

    pub fn set_revocation_policy(&mut self, policy: RevocationPolicy) {
        self.revocation_policy = policy;
    }

    /// Whether `digest` is revoked by hand or by a CRL held.
    pub fn is_revoked(&self, digest: &HashedId8) -> bool {
        self.revoked.contains(digest) || self.revocation.is_revoked_id8(&v2x_crypto::HashedId8(*digest))
    }

    pub fn lookup(&self, digest: &HashedId8) -> Option<&Certificate> {
        self.tickets
            .get(digest)
            .or_else(|| self.authorities.get(digest))
            .or_else(|| self.anchors.get(digest))
    }

    /// The verification key of `cert`, built once per certificate.
    pub(crate) fn key_of(&mut self, cert: &Certificate) -> Result<CPublicKey, Rejection> {
        let digest = certificate_digest(cert);
        if let Some(k) = self.keys.get(&digest) {
            return Ok(k.clone());
        }
        let key = cert
            .verification_key()
            .ok_or_else(|| rej(RejectReason::InvalidCertificate, "certificate has no verification_key"))
            .and_then(verification_key)?;
        if self.keys.len() >= KEY_CACHE_CAPACITY {
            self.keys.clear();
        }
        self.keys.insert(digest, key.clone());
        Ok(key)
    }

    pub(crate) fn learn_ticket(&mut self, cert: Certificate) {
        self.tickets.insert(certificate_digest(&cert), cert);
    }

    pub(crate) fn learn_authority(&mut self, cert: Certificate) {
        self.authorities.entry(certificate_digest(&cert)).or_insert(cert);
    }

    /// Validates `leaf` up to a trust anchor at time `at` (Time32 seconds). `extra`
    /// are certificates carried by the message (a certificate chain). Returns the chain
    /// leaf first.
    pub fn validate_chain(
        &mut self,
        leaf: &Certificate,
        extra: &[Certificate],
        at: u32,
    ) -> Result<Vec<Certificate>, Rejection> {
        let mut chain = vec![leaf.clone()];
        let mut verified_now = Vec::new();
        for _ in 0..6 {
            let Some(cur) = chain.last().cloned() else { break };
            let cur_digest = certificate_digest(&cur);
            if self.is_revoked(&cur_digest) {
                return Err(rej(
                    RejectReason::RevokedCertificate,
                    format!("certificate {} is revoked", hex::encode(cur_digest)),
                ));
            }
            check_structure(&cur)?;
            if cur.verification_key().is_none() {
                return Err(rej(
                    RejectReason::InvalidCertificate,
                    "certificate has no verification_key",
                ));
            }
            let issuer = match &cur.signer_info {
                SignerInfo::SelfSigned => {
                    if !self.anchors.contains_key(&cur_digest) {
                        return Err(rej(
                            RejectReason::UntrustedRoot,
                            format!("self-signed {} is not a trust anchor", hex::encode(cur_digest)),
                        ));
                    }
                    if cur.subject_info.subject_type != SubjectType::ROOT_CA {
                        return Err(rej(
                            RejectReason::InvalidCertificate,
                            "self-signed certificate is not a root_ca",
                        ));
                    }
                    if !self.verified.contains(&cur_digest) {
                        let cur_key = self.key_of(&cur)?;
                        if !verify(&cur_key, &cur.to_be_signed(), &cur.signature) {
                            return Err(rej(
                                RejectReason::InvalidChainSignature,
                                "root self-signature does not verify",
                            ));
                        }
                        verified_now.push(cur_digest);
                    }
                    break;
                }
                SignerInfo::CertificateDigestWithSha256(d)
                | SignerInfo::CertificateDigestWithOtherAlgorithm { digest: d, .. } => extra
                    .iter()
                    .find(|c| certificate_digest(c) == *d)
                    .cloned()
                    .or_else(|| self.authorities.get(d).cloned())
                    .or_else(|| self.anchors.get(d).cloned())
                    .ok_or_else(|| {
                        rej(
                            RejectReason::SignerCertificateNotFound,
                            format!("issuer {} of a certificate is unknown", hex::encode(d)),
                        )
                    })?,
                SignerInfo::Certificate(c) => (**c).clone(),
                other => {
                    return Err(rej(
                        RejectReason::InvalidCertificate,
                        format!("certificate signer type {} not allowed", other.type_name()),
                    ))
                }
            };
            check_issuer_type(&cur, &issuer)?;
            if !self.verified.contains(&cur_digest) {
                let issuer_key = self.key_of(&issuer)?;
                if !verify(&issuer_key, &cur.to_be_signed(), &cur.signature) {
                    return Err(rej(
                        RejectReason::InvalidChainSignature,
                        format!(
                            "signature of {} by its issuer does not verify",
                            cur.subject_info.subject_type.name()
                        ),
                    ));
                }
                verified_now.push(cur_digest);
            }
            check_consistency(&cur, &issuer)?;
            chain.push(issuer);
        }
        if chain
            .last()
            .map(|c| !matches!(c.signer_info, SignerInfo::SelfSigned))
            .unwrap_or(true)
        {
            return Err(rej(RejectReason::UntrustedRoot, "chain does not end at a root"));
        }
        for c in &chain {
            check_time(c, at)?;
        }
        if let Some(root) = chain.last() {
            self.check_crl_status(certificate_digest(root), at)?;
        }
        self.verified.extend(verified_now);
        for c in chain.iter().skip(1) {
            if c.subject_info.subject_type != SubjectType::ROOT_CA {
                self.learn_authority(c.clone());
            }
        }
        Ok(chain)
    }
}

impl V1TrustStore {
    /// The revocation information about `root` must be current at `at` (Time32) once a CRL
    /// is expected from it.
    fn check_crl_status(&self, root: HashedId8, at: u32) -> Result<(), Rejection> {
        if self.revocation.is_empty() || self.revocation_policy.insecure_accept_stale_crl {
            return Ok(());
        }
        let now = TaiTime::from_time32(at);
        match self
            .revocation
            .status(v2x_crypto::HashedId8(root), now, self.revocation_policy.grace)
        {
            CrlStatus::NotExpected | CrlStatus::Current { .. } => Ok(()),
            CrlStatus::Missing => Err(rej(
                RejectReason::RevocationStatusUnknown,
                format!("a CRL from root {} is expected and none is held", hex::encode(root)),
            )),
            CrlStatus::Expired { next_update } => Err(rej(
                RejectReason::RevocationStatusUnknown,
                format!(
                    "the CRL of root {} was due to be replaced at {next_update} (TAI s), now {at}",
                    hex::encode(root)
                ),
            )),
        }
    }
}

/// §6.1: subject attributes and validity restrictions each in strictly ascending order
/// of their type, and exactly one time restriction.
fn check_structure(cert: &Certificate) -> Result<(), Rejection> {
    let ascending = |t: &[u8]| t.windows(2).all(|w| w[0] < w[1]);
    let attrs: Vec<u8> = cert.subject_attributes.iter().map(|a| a.type_value()).collect();
    let vrs: Vec<u8> = cert.validity_restrictions.iter().map(|v| v.type_value()).collect();
    if !ascending(&attrs) || !ascending(&vrs) {
        return Err(rej(
            RejectReason::InvalidCertificate,
            "subject attributes or validity restrictions out of order",
        ));
    }
    // §4.2.20/4.2.24: at most 6 rectangles; a polygon has 3 to 12 points.
    let region_ok = match cert.region() {
        Some(GeographicRegion::Rectangle(r)) => !r.is_empty() && r.len() <= 6,
        Some(GeographicRegion::Polygon(p)) => (3..=12).contains(&p.len()),
        _ => true,
    };
    if !region_ok {
        return Err(rej(
            RejectReason::InvalidCertificate,
            "region outside the limits of §4.2.20",
        ));
    }
    if vrs.iter().filter(|t| **t <= 2).count() != 1 {
        return Err(rej(
            RejectReason::InvalidCertificate,
            "a certificate needs exactly one time validity restriction",
        ));
    }
    Ok(())
}

fn check_issuer_type(cert: &Certificate, issuer: &Certificate) -> Result<(), Rejection> {
    let ok = match cert.subject_info.subject_type {
        SubjectType::AUTHORIZATION_TICKET => issuer.subject_info.subject_type == SubjectType::AUTHORIZATION_AUTHORITY,
        SubjectType::ENROLLMENT_CREDENTIAL => issuer.subject_info.subject_type == SubjectType::ENROLLMENT_AUTHORITY,
        SubjectType::AUTHORIZATION_AUTHORITY | SubjectType::ENROLLMENT_AUTHORITY | SubjectType::CRL_SIGNER => {
            issuer.subject_info.subject_type == SubjectType::ROOT_CA
        }
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(rej(
            RejectReason::InvalidCertificate,
            format!(
                "{} issued by {}",
                cert.subject_info.subject_type.name(),
                issuer.subject_info.subject_type.name()
            ),
        ))
    }
}

fn its_aids(cert: &Certificate) -> Option<Vec<u64>> {
    cert.subject_attributes.iter().find_map(|a| match a {
        SubjectAttribute::ItsAidList(l) => Some(l.clone()),
        SubjectAttribute::ItsAidSspList(l) => Some(l.iter().map(|e| e.its_aid).collect()),
        _ => None,
    })
}

/// A certificate must not claim more than its issuer: validity period, region, ITS-AIDs.
fn check_consistency(cert: &Certificate, issuer: &Certificate) -> Result<(), Rejection> {
    let inconsistent = |d: String| rej(RejectReason::InconsistentChain, d);
    if let (Some((cs, ce)), Some((is, ie))) = (cert.validity_period(), issuer.validity_period()) {
        if ce > ie || cs.unwrap_or(0) < is.unwrap_or(0) {
            return Err(inconsistent("validity period exceeds the issuer's".into()));
        }
    }
    if let Some(outer) = issuer.region().and_then(model_region) {
        match cert.region().and_then(model_region) {
            None => return Err(inconsistent("unrestricted region under a restricted issuer".into())),
            Some(inner) => {
                if inner.within(&outer) == Some(false) {
                    return Err(inconsistent("region exceeds the issuer's".into()));
                }
            }
        }
    }
    if let (Some(mine), Some(theirs)) = (its_aids(cert), its_aids(issuer)) {
        if let Some(a) = mine.iter().find(|a| !theirs.contains(a)) {
            return Err(inconsistent(format!("ITS-AID {a} not granted by the issuer")));
        }
    }
    Ok(())
}

fn check_time(cert: &Certificate, at: u32) -> Result<(), Rejection> {
    let (start, end) = cert.validity_period().ok_or_else(|| {
        rej(
            RejectReason::InvalidCertificate,
            "certificate has no time validity restriction",
        )
    })?;
    if at < start.unwrap_or(0) {
        return Err(rej(
            RejectReason::CertificateNotYetValid,
            format!(
                "{} valid from {}",
                cert.subject_info.subject_type.name(),
                start.unwrap_or(0)
            ),
        ));
    }
    if at > end {
        return Err(rej(
            RejectReason::CertificateExpired,
            format!("{} expired at {end}", cert.subject_info.subject_type.name()),
        ));
    }
    Ok(())
}
