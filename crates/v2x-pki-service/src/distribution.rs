//! The distribution role (TS 102 941 §6.3): the RCA's CRL and CTL at the distribution centre
//! (`GET /dc/getcrl/{RCA HashedId8}`, `GET /dc/getctl/{RCA HashedId8}`) and the TLM's ECTL
//! (`GET /tlm/getectl`). The lists are signed on first request and again when a minute has
//! passed and the revoked CAs changed, or when a day has passed; each lasts a week.

use crate::config::paths;
use crate::store::{Store, StoreError};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use v2x_crypto::HashedId8;
use v2x_security::ts102941::authorities::{AccessPoints, Authorities};
use v2x_security::TaiTime;

const VALIDITY: Duration = Duration::from_secs(7 * 86_400);
const RESIGN_AFTER: Duration = Duration::from_secs(86_400);
const RECHECK_AFTER: Duration = Duration::from_secs(60);

/// The signed lists of one moment.
#[derive(Debug, Clone)]
pub struct Lists {
    pub crl: Vec<u8>,
    pub ctl: Vec<u8>,
    pub ectl: Vec<u8>,
    revoked: Vec<HashedId8>,
    signed_at: Instant,
    checked_at: Instant,
    sequence: u8,
}

/// What a distribution request gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListKind {
    Crl,
    Ctl,
    Ectl,
}

/// The distribution role.
pub struct Distribution {
    authorities: Authorities,
    access: AccessPoints,
    lists: Mutex<Option<Lists>>,
}

impl Distribution {
    /// Lists for these authorities, naming the access points under `public_url` (the EA's
    /// under `ea_url`, the AA's under `aa_url` when other instances are those).
    pub fn new(authorities: Authorities, public_url: &str, ea_url: Option<&str>, aa_url: Option<&str>) -> Distribution {
        let base = public_url.trim_end_matches('/');
        let ea = ea_url.map(|u| u.trim_end_matches('/')).unwrap_or(base);
        let aa = aa_url.map(|u| u.trim_end_matches('/')).unwrap_or(base);
        Distribution {
            access: AccessPoints {
                ea: format!("{ea}{}", paths::ENROLMENT),
                ea_validation: format!("{ea}{}", paths::VALIDATION),
                aa: format!("{aa}{}", paths::AUTHORIZATION),
                dc: format!("{base}/dc"),
                tlm: format!("{base}/tlm"),
            },
            authorities,
            lists: Mutex::new(None),
        }
    }

    /// The root CA this distribution centre serves.
    pub fn root(&self) -> HashedId8 {
        self.authorities.root.certificate.hashed_id8()
    }

    /// The current list of `kind` (re-signed when due).
    pub async fn get<S: Store>(&self, store: &S, kind: ListKind) -> Result<Vec<u8>, StoreError> {
        let due = {
            let guard = self.lists.lock().expect("lists lock");
            match guard.as_ref() {
                None => true,
                Some(l) => l.checked_at.elapsed() > RECHECK_AFTER || l.signed_at.elapsed() > RESIGN_AFTER,
            }
        };
        if due {
            let revoked = store.revoked_cas().await?;
            let mut guard = self.lists.lock().expect("lists lock");
            let resign = match guard.as_ref() {
                None => true,
                Some(l) => l.revoked != revoked || l.signed_at.elapsed() > RESIGN_AFTER,
            };
            if resign {
                let sequence = guard.as_ref().map(|l| l.sequence.wrapping_add(1)).unwrap_or(0);
                *guard = Some(
                    self.sign(revoked, sequence)
                        .map_err(|e| StoreError::Damaged(e.to_string()))?,
                );
            } else if let Some(l) = guard.as_mut() {
                l.checked_at = Instant::now();
            }
        }
        let guard = self.lists.lock().expect("lists lock");
        let l = guard.as_ref().expect("lists signed above");
        Ok(match kind {
            ListKind::Crl => l.crl.clone(),
            ListKind::Ctl => l.ctl.clone(),
            ListKind::Ectl => l.ectl.clone(),
        })
    }

    fn sign(
        &self,
        revoked: Vec<HashedId8>,
        sequence: u8,
    ) -> Result<Lists, v2x_security::ts102941::authorities::AuthoritiesError> {
        let now = TaiTime::now();
        let next = now.saturating_add(VALIDITY);
        Ok(Lists {
            crl: self.authorities.crl(&revoked, now, next)?,
            ctl: self.authorities.rca_ctl(&self.access, sequence, next)?,
            ectl: self.authorities.ectl(&self.access, sequence, next)?,
            revoked,
            signed_at: Instant::now(),
            checked_at: Instant::now(),
            sequence,
        })
    }
}
