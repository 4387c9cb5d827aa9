//! An in-memory IEEE 1609.2 PKI (root CA → authorization authority → tickets on demand)
//! and the clock mapping of a deployment: what the `ieee1609.2` adapter and TESLA's
//! 1609.2-signed commitments share.
//!
//! Time: the security entity works in TAI microseconds since 2004 (`Time64`). A
//! deployment maps the caller's [`Timestamp`] onto TAI by adding the TAI time at which
//! it was created (`time_base = "deployment-start"`, the default: simulations start at
//! 0), or uses it as TAI directly (`time_base = "tai"`: the testbed passes real time).
//! Certificates are valid from one day before the deployment's creation.

use crate::authenticator::Timestamp;
use crate::setup::SetupError;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::time::Duration;
use v2x_crypto::{Curve, PrivateKey};
use v2x_security::{
    issue_certificate, AppPermission, CertRef, CertificateSpec, Credentials, IssuePermissions, IssuerKey,
    SecurityEntity, TaiTime, TrustStore,
};
use v2x_wire::ItsAid;

/// How `Timestamp`s map to TAI.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TimeBase {
    /// TAI = deployment creation time + timestamp.
    #[default]
    DeploymentStart,
    /// The timestamp is already TAI µs since 2004-01-01.
    Tai,
}

/// An in-memory 1609.2 PKI: root CA, authorization authority, tickets on demand.
pub struct Dot2Pki {
    curve: Curve,
    root: CertRef,
    aa: CertRef,
    aa_key: PrivateKey,
    psids: Vec<ItsAid>,
    start: TaiTime,
    validity: Duration,
    base_tai: u64,
    time_base: TimeBase,
}

impl Dot2Pki {
    /// Root and AA valid for ten years from a day before now; tickets for `psids`.
    pub fn new(
        curve: Curve,
        psids: &[ItsAid],
        ticket_validity: Duration,
        time_base: TimeBase,
    ) -> Result<Dot2Pki, SetupError> {
        let now = TaiTime::now();
        let start = now.saturating_sub(Duration::from_secs(24 * 3600));
        let ca_validity = Duration::from_secs(10 * 31_556_952);
        let root_key = PrivateKey::generate(curve)?;
        let mut spec = CertificateSpec::new(Some("v2x-protocols root CA"), start, ca_validity);
        spec.issue_permissions = Some(IssuePermissions::All);
        let root = issue_certificate(&spec, root_key.public_key(), IssuerKey::SelfSigned(&root_key))?;
        let aa_key = PrivateKey::generate(curve)?;
        let mut spec = CertificateSpec::new(Some("v2x-protocols AA"), start, ca_validity);
        spec.issue_permissions = Some(IssuePermissions::Psids(psids.to_vec()));
        let aa = issue_certificate(
            &spec,
            aa_key.public_key(),
            IssuerKey::Ca {
                cert: &root,
                key: &root_key,
            },
        )?;
        Ok(Dot2Pki {
            curve,
            root: Arc::new(root),
            aa: Arc::new(aa),
            aa_key,
            psids: psids.to_vec(),
            start,
            validity: ticket_validity,
            base_tai: now.0,
            time_base,
        })
    }

    /// A trust store with the root as anchor and the AA as chain link.
    pub fn trust_store(&self) -> Result<TrustStore, SetupError> {
        let mut store = TrustStore::new();
        store.add_trust_anchor(self.root.clone())?;
        store.add_ca_certificate(self.aa.clone());
        Ok(store)
    }

    /// A fresh authorization ticket with its keys.
    pub fn ticket(&self) -> Result<Credentials, SetupError> {
        let key = PrivateKey::generate(self.curve)?;
        let mut spec = CertificateSpec::new(None, self.start, self.validity);
        spec.app_permissions = self
            .psids
            .iter()
            .map(|&psid| AppPermission {
                psid,
                ssp: v2x_security::pki_store::default_ssp(psid),
            })
            .collect();
        let cert = issue_certificate(
            &spec,
            key.public_key(),
            IssuerKey::Ca {
                cert: &self.aa,
                key: &self.aa_key,
            },
        )?;
        Ok(Credentials {
            certificate: Arc::new(cert),
            signing_key: key,
            encryption_key: None,
        })
    }

    /// A security entity signing with a fresh ticket.
    pub fn entity(&self) -> Result<(SecurityEntity, Credentials), SetupError> {
        let creds = self.ticket()?;
        let entity = SecurityEntity::with_credentials(
            self.trust_store()?,
            creds.clone(),
            vec![self.aa.clone(), self.root.clone()],
        );
        Ok((entity, creds))
    }

    /// The clock mapping of this PKI's deployment.
    pub fn clock(&self) -> Clock {
        Clock {
            base_tai: self.base_tai,
            time_base: self.time_base,
        }
    }
}

/// Maps [`Timestamp`] to TAI and back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    base_tai: u64,
    time_base: TimeBase,
}

impl Clock {
    pub fn to_tai(&self, t: Timestamp) -> TaiTime {
        match self.time_base {
            TimeBase::DeploymentStart => TaiTime(self.base_tai.saturating_add(t.as_micros())),
            TimeBase::Tai => TaiTime(t.as_micros()),
        }
    }

    pub fn from_tai(&self, t: TaiTime) -> Timestamp {
        match self.time_base {
            TimeBase::DeploymentStart => Timestamp(t.0.saturating_sub(self.base_tai)),
            TimeBase::Tai => Timestamp(t.0),
        }
    }
}
