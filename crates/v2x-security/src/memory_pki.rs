//! An in-memory PKI for tests, benchmarks and examples: a root CA, an authorization
//! authority and as many authorization tickets as wanted, on a chosen curve, with chosen
//! PSIDs, validity and region — the certificate profiles of a PKI directory
//! ([`crate::Pki`]), without files.
//!
//! ```
//! use v2x_security::memory_pki::InMemoryPki;
//! use v2x_security::EncapRequest;
//! let pki = InMemoryPki::builder().build().unwrap();
//! let mut sender = pki.sender(pki.ticket().unwrap());
//! let mut receiver = pki.receiver();
//! let msg = sender.encap(&EncapRequest::cam(b"cam").at(pki.now)).unwrap();
//! assert_eq!(receiver.decap_at(&msg.bytes, pki.now).unwrap().payload, b"cam");
//! ```

use crate::authority::{issue_root, issue_sub_ca, issue_ticket, Authority, TicketSpec};
use crate::certificate::{AppPermission, CertRef, Certificate};
use crate::crl::{issue_crl, CrlError};
use crate::entity::SecurityEntity;
use crate::issue::{IssueError, IssuePermissions};
use crate::pseudonym::{Credentials, PseudonymPool};
use crate::region::Region;
use crate::time::TaiTime;
use crate::trust_store::TrustStore;
use std::time::Duration;
use v2x_crypto::Curve;
use v2x_wire::ItsAid;

const DAY: u64 = 86_400;
const YEAR: Duration = Duration::from_secs(365 * DAY);

/// The instant an [`InMemoryPki`] is built around by default: 2026-01-06 00:00:00.123 TAI
/// (fixed, so that tests do not depend on the clock).
pub fn default_now() -> TaiTime {
    TaiTime::from_time32((22 * 365 + 5) * DAY as u32).saturating_add(Duration::from_millis(123))
}

/// Options of an [`InMemoryPki`].
#[derive(Debug, Clone)]
pub struct InMemoryPkiBuilder {
    curve: Curve,
    now: TaiTime,
    psids: Vec<ItsAid>,
    ticket_validity: Duration,
    ticket_backdate: Duration,
    ticket_encryption_keys: bool,
    ticket_assurance_level: Option<u8>,
    ca_validity: Duration,
    region: Option<Region>,
    aa_permissions: Option<IssuePermissions>,
}

impl Default for InMemoryPkiBuilder {
    fn default() -> Self {
        InMemoryPkiBuilder {
            curve: Curve::NistP256,
            now: default_now(),
            psids: vec![ItsAid::CAM, ItsAid::DENM],
            ticket_validity: Duration::from_secs(7 * DAY),
            ticket_backdate: Duration::from_secs(3600),
            ticket_encryption_keys: true,
            ticket_assurance_level: Some(0x00),
            ca_validity: 2 * YEAR,
            region: None,
            aa_permissions: None,
        }
    }
}

impl InMemoryPkiBuilder {
    /// The signing curve of every certificate (default P-256).
    pub fn curve(mut self, curve: Curve) -> Self {
        self.curve = curve;
        self
    }

    /// The instant the PKI is built around (default [`default_now`]): CAs start a day
    /// before, tickets an hour before.
    pub fn now(mut self, now: TaiTime) -> Self {
        self.now = now;
        self
    }

    /// PSIDs of the tickets (default CAM and DENM, with the ETSI default SSPs).
    pub fn psids(mut self, psids: &[ItsAid]) -> Self {
        self.psids = psids.to_vec();
        self
    }

    /// Validity of the tickets (default 7 days, from an hour before `now`).
    pub fn ticket_validity(mut self, validity: Duration) -> Self {
        self.ticket_validity = validity;
        self
    }

    /// How long before `now` the tickets start (default an hour).
    pub fn ticket_backdate(mut self, backdate: Duration) -> Self {
        self.ticket_backdate = backdate;
        self
    }

    /// Whether tickets carry an encryption key (default yes; on the ECIES curve that goes
    /// with the signing curve, see [`crate::authority::encryption_curve`]).
    pub fn ticket_encryption_keys(mut self, yes: bool) -> Self {
        self.ticket_encryption_keys = yes;
        self
    }

    /// The tickets' assurance level (default `Some(0)`; `None` leaves the field out).
    pub fn ticket_assurance_level(mut self, level: Option<u8>) -> Self {
        self.ticket_assurance_level = level;
        self
    }

    /// Validity of the AA (default two years; the root gets one year more), from a day
    /// before `now`.
    pub fn ca_validity(mut self, validity: Duration) -> Self {
        self.ca_validity = validity;
        self
    }

    /// Region of the tickets (default none).
    pub fn region(mut self, region: Region) -> Self {
        self.region = Some(region);
        self
    }

    /// What the AA may issue (default: end entities with the tickets' PSIDs, any SSP).
    pub fn aa_permissions(mut self, permissions: IssuePermissions) -> Self {
        self.aa_permissions = Some(permissions);
        self
    }

    pub fn build(self) -> Result<InMemoryPki, IssueError> {
        let start = self.now.saturating_sub(Duration::from_secs(DAY));
        let root = issue_root("test root", start, self.ca_validity + YEAR, self.curve)?;
        let aa_permissions = self
            .aa_permissions
            .clone()
            .unwrap_or_else(|| IssuePermissions::Psids(self.psids.clone()));
        let aa = issue_sub_ca(&root, "test AA", aa_permissions, start, self.ca_validity, self.curve)?;
        Ok(InMemoryPki {
            root,
            aa,
            now: self.now,
            curve: self.curve,
            ticket: self,
        })
    }
}

/// A root CA and an AA in memory, issuing tickets on demand.
#[derive(Debug)]
pub struct InMemoryPki {
    pub root: Authority,
    pub aa: Authority,
    /// The instant the PKI was built around (use it as the current time).
    pub now: TaiTime,
    curve: Curve,
    ticket: InMemoryPkiBuilder,
}

impl InMemoryPki {
    pub fn builder() -> InMemoryPkiBuilder {
        InMemoryPkiBuilder::default()
    }

    pub fn curve(&self) -> Curve {
        self.curve
    }

    /// A trust store with the root as anchor and the AA as chain link.
    pub fn store(&self) -> TrustStore {
        let mut s = TrustStore::new();
        // The root verified its own self-signature when it was issued.
        let _ = s.add_trust_anchor(self.root.certificate.clone());
        s.add_ca_certificate(self.aa.certificate.clone());
        s
    }

    /// The issuing chain of the tickets: AA, root.
    pub fn chain(&self) -> Vec<CertRef> {
        vec![self.aa.certificate.clone(), self.root.certificate.clone()]
    }

    /// The default ticket specification: the builder's PSIDs (ETSI default SSPs), validity
    /// and region, starting an hour before `now`.
    pub fn ticket_spec(&self) -> TicketSpec {
        let mut spec = TicketSpec::new(&self.ticket.psids, self.ticket.ticket_validity);
        spec.start = Some(self.now.saturating_sub(self.ticket.ticket_backdate));
        spec.region = self.ticket.region.clone();
        spec.encryption_key = self.ticket.ticket_encryption_keys;
        spec.assurance_level = self.ticket.ticket_assurance_level;
        spec
    }

    /// A ticket per the default specification.
    pub fn ticket(&self) -> Result<Credentials, IssueError> {
        self.issue_ticket(&self.ticket_spec())
    }

    /// `n` tickets per the default specification.
    pub fn tickets(&self, n: usize) -> Result<Vec<Credentials>, IssueError> {
        (0..n).map(|_| self.ticket()).collect()
    }

    /// A ticket with these permissions, validity window and region.
    pub fn ticket_with(
        &self,
        permissions: &[AppPermission],
        start: TaiTime,
        validity: Duration,
        region: Option<Region>,
    ) -> Result<Credentials, IssueError> {
        let mut spec = self.ticket_spec();
        spec.permissions = permissions.to_vec();
        spec.validity = validity;
        spec.start = Some(start);
        spec.region = region;
        self.issue_ticket(&spec)
    }

    /// A ticket from the AA per `spec` (`start` defaults to an hour before `now`).
    pub fn issue_ticket(&self, spec: &TicketSpec) -> Result<Credentials, IssueError> {
        self.issue_ticket_from(&self.aa, spec)
    }

    /// A ticket from another issuer (e.g. a CA from [`InMemoryPki::issue_ca`]).
    pub fn issue_ticket_from(&self, issuer: &Authority, spec: &TicketSpec) -> Result<Credentials, IssueError> {
        let start = spec
            .start
            .unwrap_or_else(|| self.now.saturating_sub(self.ticket.ticket_backdate));
        issue_ticket(issuer, spec, start, issuer.key.curve())
    }

    /// Another CA under the root, with these issue permissions.
    pub fn issue_ca(&self, name: &str, permissions: IssuePermissions) -> Result<Authority, IssueError> {
        issue_sub_ca(
            &self.root,
            name,
            permissions,
            self.now.saturating_sub(Duration::from_secs(DAY)),
            self.ticket.ca_validity,
            self.curve,
        )
    }

    /// A station signing with `credentials`, trusting this PKI.
    pub fn sender(&self, credentials: Credentials) -> SecurityEntity {
        SecurityEntity::with_credentials(self.store(), credentials, self.chain())
    }

    /// A station signing with a pool of pseudonyms, trusting this PKI.
    pub fn pool_sender(&self, tickets: Vec<Credentials>) -> Option<SecurityEntity> {
        PseudonymPool::new(tickets).map(|pool| SecurityEntity::with_pseudonyms(self.store(), pool, self.chain()))
    }

    /// A receive-only station trusting this PKI.
    pub fn receiver(&self) -> SecurityEntity {
        SecurityEntity::new(self.store())
    }

    /// A 1609.2 CRL from the root listing `revoked`, issued at `now`, current for a day.
    pub fn crl(&self, revoked: &[&Certificate], serial: u32) -> Result<Vec<u8>, CrlError> {
        issue_crl(
            revoked,
            serial,
            self.now,
            self.now.saturating_add(Duration::from_secs(DAY)),
            &self.root.certificate,
            &self.root.key,
        )
    }
}
