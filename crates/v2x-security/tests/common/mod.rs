//! An in-memory test PKI (root -> AA -> tickets) and helpers.
#![allow(dead_code)]

use std::sync::Arc;
use std::time::Duration;
use v2x_crypto::{Curve, PrivateKey};
use v2x_security::pki_store::Authority;
use v2x_security::*;

pub struct Fx {
    pub root: Authority,
    pub aa: Authority,
    pub now: TaiTime,
}

pub fn now() -> TaiTime {
    // A fixed instant (2026-01-01 + a bit) keeps tests independent of the clock.
    TaiTime::from_time32(22 * 365 * 86400 + 5 * 86400).saturating_add(Duration::from_millis(123))
}

impl Fx {
    pub fn new() -> Fx {
        Fx::with_curve(Curve::NistP256)
    }

    pub fn with_curve(curve: Curve) -> Fx {
        let now = now();
        let start = now.saturating_sub(Duration::from_secs(86400));
        let rk = PrivateKey::generate(curve).unwrap();
        let mut spec = CertificateSpec::new(Some("test root"), start, Duration::from_secs(3 * 365 * 86400));
        spec.issue_permissions = Some(IssuePermissions::All);
        spec.app_permissions = vec![AppPermission { psid: 256, ssp: None }];
        let root = issue_certificate(&spec, rk.public_key(), IssuerKey::SelfSigned(&rk)).unwrap();
        let root = Authority {
            certificate: Arc::new(root),
            key: rk,
        };
        let ak = PrivateKey::generate(curve).unwrap();
        let mut spec = CertificateSpec::new(Some("test AA"), start, Duration::from_secs(2 * 365 * 86400));
        spec.issue_permissions = Some(IssuePermissions::All);
        let aa = issue_certificate(
            &spec,
            ak.public_key(),
            IssuerKey::Ca {
                cert: &root.certificate,
                key: &root.key,
            },
        )
        .unwrap();
        Fx {
            root,
            aa: Authority {
                certificate: Arc::new(aa),
                key: ak,
            },
            now,
        }
    }

    pub fn store(&self) -> TrustStore {
        let mut s = TrustStore::new();
        s.add_trust_anchor(self.root.certificate.clone()).unwrap();
        s.add_ca_certificate(self.aa.certificate.clone());
        s
    }

    pub fn ticket_with(
        &self,
        perms: &[(u64, Option<Vec<u8>>)],
        start: TaiTime,
        validity: Duration,
        region: Option<Region>,
    ) -> Credentials {
        self.ticket_from(&self.aa, perms, start, validity, region)
    }

    pub fn ticket_from(
        &self,
        aa: &Authority,
        perms: &[(u64, Option<Vec<u8>>)],
        start: TaiTime,
        validity: Duration,
        region: Option<Region>,
    ) -> Credentials {
        let curve = aa.key.curve();
        let key = PrivateKey::generate(curve).unwrap();
        let enc_curve = v2x_security::pki_store::encryption_curve(curve);
        let enc = PrivateKey::generate(enc_curve).unwrap();
        let mut spec = CertificateSpec::new(None, start, validity);
        spec.app_permissions = perms
            .iter()
            .map(|(psid, ssp)| AppPermission {
                psid: *psid,
                ssp: ssp.clone(),
            })
            .collect();
        spec.region = region;
        spec.encryption_key = Some(enc.public_key().clone());
        let cert = issue_certificate(
            &spec,
            key.public_key(),
            IssuerKey::Ca {
                cert: &aa.certificate,
                key: &aa.key,
            },
        )
        .unwrap();
        Credentials {
            certificate: Arc::new(cert),
            signing_key: key,
            encryption_key: Some(enc),
        }
    }

    /// A ticket for CAM and DENM with the default SSPs, valid from an hour ago for a week.
    pub fn ticket(&self) -> Credentials {
        self.ticket_with(
            &[(36, Some(vec![1, 0xff, 0xfc])), (37, Some(vec![1, 0xff, 0xff, 0xff]))],
            self.now.saturating_sub(Duration::from_secs(3600)),
            Duration::from_secs(7 * 86400),
            None,
        )
    }

    pub fn sender(&self, creds: Credentials) -> SecurityEntity {
        SecurityEntity::with_credentials(
            self.store(),
            creds,
            vec![self.aa.certificate.clone(), self.root.certificate.clone()],
        )
    }

    pub fn receiver(&self) -> SecurityEntity {
        SecurityEntity::new(self.store())
    }
}

pub fn location(lat: f64, lon: f64) -> Location {
    Location {
        point: GeoPoint::from_degrees(lat, lon),
        elevation: 0,
    }
}
