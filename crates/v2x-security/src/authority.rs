//! Certificate authorities in memory: a self-signed root, CAs under it (EA, AA) and the
//! authorization tickets they issue, with the certificate profiles every PKI of the project
//! uses — the on-disk PKI ([`crate::Pki`]), the in-memory test PKI
//! ([`crate::memory_pki::InMemoryPki`]) and the protocol adapters.

use crate::certificate::{AppPermission, CertRef};
use crate::issue::{issue_certificate, CertificateSpec, IssueError, IssuePermissions, IssuerKey};
use crate::profile::{DEFAULT_CAM_SSP, DEFAULT_DENM_SSP};
use crate::pseudonym::Credentials;
use crate::region::Region;
use crate::time::TaiTime;
use std::sync::Arc;
use std::time::Duration;
use v2x_crypto::{Curve, PrivateKey};
use v2x_wire::ItsAid;

/// Tickets start up to this long before "now" (a quarter of their validity if shorter).
pub(crate) const TICKET_BACKDATE: Duration = Duration::from_secs(300);

/// What a root CA signs itself: CRLs (1609.2 and TS 102 941) and CTLs.
pub fn root_app_permissions() -> Vec<AppPermission> {
    [ItsAid::IEEE_CRL, ItsAid::ETSI_CRL, ItsAid::CTL]
        .into_iter()
        .map(|p| AppPermission::new(p, None))
        .collect()
}

/// A CA or end-entity certificate with its signing key.
#[derive(Debug, Clone)]
pub struct Authority {
    pub certificate: CertRef,
    pub key: PrivateKey,
}

/// What to put into new authorization tickets.
#[derive(Debug, Clone)]
pub struct TicketSpec {
    pub permissions: Vec<AppPermission>,
    pub validity: Duration,
    /// Default: now minus five minutes (minus a quarter of the validity when that is less),
    /// so that a receiver whose clock is slightly behind accepts the ticket at once.
    pub start: Option<TaiTime>,
    pub region: Option<Region>,
    /// Give the ticket an encryption key (to receive encrypted data).
    pub encryption_key: bool,
    /// The ticket's assurance level (default `Some(0)`; `None` leaves the optional field
    /// out, one byte less in every certificate-signed message).
    pub assurance_level: Option<u8>,
    /// INSECURE lab option: issue a ticket that is already over when issued (with an
    /// explicit `start`), e.g. for the expired-certificate attack cases.
    pub insecure_allow_expired: bool,
}

/// The default SSP for a PSID (ETSI test PKI values for CAM and DENM).
pub fn default_ssp(psid: impl Into<ItsAid>) -> Option<Vec<u8>> {
    match psid.into() {
        ItsAid::CAM => Some(DEFAULT_CAM_SSP.to_vec()),
        ItsAid::DENM => Some(DEFAULT_DENM_SSP.to_vec()),
        _ => None,
    }
}

impl TicketSpec {
    pub fn new(psids: &[ItsAid], validity: Duration) -> TicketSpec {
        TicketSpec {
            permissions: psids
                .iter()
                .map(|&psid| AppPermission {
                    psid,
                    ssp: default_ssp(psid),
                })
                .collect(),
            validity,
            start: None,
            region: None,
            encryption_key: true,
            assurance_level: Some(0x00),
            insecure_allow_expired: false,
        }
    }

    /// Where the validity starts when `start` is not given: now minus
    /// min(5 min, validity / 4).
    pub fn default_start(&self, now: TaiTime) -> TaiTime {
        now.saturating_sub(TICKET_BACKDATE.min(self.validity / 4))
    }
}

/// Issues one authorization ticket from `aa` per `spec`, valid from `start`, with a signing
/// key on `curve` (and an encryption key when the spec asks for one).
pub fn issue_ticket(
    aa: &Authority,
    spec: &TicketSpec,
    start: TaiTime,
    curve: Curve,
) -> Result<Credentials, IssueError> {
    let key = PrivateKey::generate(curve)?;
    let enc = if spec.encryption_key {
        Some(PrivateKey::generate(encryption_curve(curve))?)
    } else {
        None
    };
    let mut cs = CertificateSpec::new(None, start, spec.validity);
    cs.app_permissions = spec.permissions.clone();
    cs.region = spec.region.clone();
    cs.encryption_key = enc.as_ref().map(|k| k.public_key().clone());
    cs.assurance_level = spec.assurance_level;
    let cert = issue_certificate(
        &cs,
        key.public_key(),
        IssuerKey::Ca {
            cert: &aa.certificate,
            key: &aa.key,
        },
    )?;
    Ok(Credentials {
        certificate: Arc::new(cert),
        signing_key: key,
        encryption_key: enc,
    })
}

/// Issues a self-signed root CA certificate (and its key) that may issue anything and
/// sign CRLs and CTLs, valid from `start` for `validity`.
pub fn issue_root(name: &str, start: TaiTime, validity: Duration, curve: Curve) -> Result<Authority, IssueError> {
    let key = PrivateKey::generate(curve)?;
    let mut spec = CertificateSpec::new(Some(name), start, validity);
    spec.issue_permissions = Some(IssuePermissions::All);
    spec.assurance_level = Some(0xe0);
    spec.app_permissions = root_app_permissions();
    let cert = issue_certificate(&spec, key.public_key(), IssuerKey::SelfSigned(&key))?;
    Ok(Authority {
        certificate: Arc::new(cert),
        key,
    })
}

/// Issues a CA certificate (EA, AA) under `root`: with these issue permissions, an
/// encryption key, assurance level 7, valid from `start` for `validity`.
pub fn issue_sub_ca(
    root: &Authority,
    name: &str,
    permissions: IssuePermissions,
    start: TaiTime,
    validity: Duration,
    curve: Curve,
) -> Result<Authority, IssueError> {
    let key = PrivateKey::generate(curve)?;
    let mut spec = CertificateSpec::new(Some(name), start, validity);
    spec.issue_permissions = Some(permissions);
    spec.assurance_level = Some(0xe0);
    spec.encryption_key = Some(PrivateKey::generate(encryption_curve(curve))?.public_key().clone());
    let cert = issue_certificate(
        &spec,
        key.public_key(),
        IssuerKey::Ca {
            cert: &root.certificate,
            key: &root.key,
        },
    )?;
    Ok(Authority {
        certificate: Arc::new(cert),
        key,
    })
}

/// The ECIES curve that goes with a signing curve (1609.2 ECIES exists for 256-bit curves).
pub fn encryption_curve(curve: Curve) -> Curve {
    match curve {
        Curve::NistP256 | Curve::NistP384 => Curve::NistP256,
        Curve::BrainpoolP256r1 | Curve::BrainpoolP384r1 => Curve::BrainpoolP256r1,
    }
}
