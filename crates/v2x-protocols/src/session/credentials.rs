//! What a station holds and trusts: its own keys and certificate, the deployment's CA,
//! the directory of certified stations (paper 003's "periodic exchange of certified
//! keys"), and the checks of a peer's handshake (certificate, time window, signature).

use super::config::SessionConfig;
use super::crypto::{DecryptKey, SessionCa, SessionCert, SigningKey};
use crate::authenticator::{malformed, Timestamp};
use crate::{RejectReason, Rejection};
use std::collections::{BTreeMap, HashSet};
use std::sync::{Arc, Mutex};

/// Certificates of the deployment's stations ("periodic exchange of certified keys").
#[derive(Default)]
pub struct Directory {
    certs: BTreeMap<u32, SessionCert>,
}

impl Directory {
    pub fn get(&self, id: u32) -> Option<&SessionCert> {
        self.certs.get(&id)
    }

    pub fn insert(&mut self, cert: SessionCert) {
        self.certs.insert(cert.id, cert);
    }

    /// Every certificate, by station number.
    pub fn iter(&self) -> impl Iterator<Item = &SessionCert> {
        self.certs.values()
    }
}

/// A station's own keys and certificate.
pub struct Identity {
    pub id: u32,
    pub sign_key: SigningKey,
    pub decrypt_key: DecryptKey,
    pub cert: SessionCert,
}

/// What a station trusts, and the certificates it has verified already.
pub struct Trust {
    ca: Arc<SessionCa>,
    directory: Arc<Mutex<Directory>>,
    verified: HashSet<Vec<u8>>,
    config: SessionConfig,
}

impl Trust {
    pub fn new(ca: Arc<SessionCa>, directory: Arc<Mutex<Directory>>, config: &SessionConfig) -> Trust {
        Trust {
            ca,
            directory,
            verified: HashSet::new(),
            config: config.clone(),
        }
    }

    /// The directory's certificate of station `id`.
    pub fn directory_cert(&self, id: u32) -> Option<SessionCert> {
        self.directory
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(id)
            .cloned()
    }

    /// Certificates of the directory's stations other than `me` and `except`.
    pub fn members(&self, me: u32, except: &HashSet<u32>) -> Vec<SessionCert> {
        let dir = self.directory.lock().unwrap_or_else(|e| e.into_inner());
        dir.iter()
            .filter(|c| c.id != me && !except.contains(&c.id))
            .cloned()
            .collect()
    }

    /// The CA's signature on `cert` (checked once per certificate).
    pub fn check_cert(&mut self, cert: &SessionCert) -> Result<(), Rejection> {
        if self.verified.contains(cert.encoded()) {
            return Ok(());
        }
        cert.verify_with(&self.ca)?;
        self.verified.insert(cert.encoded().to_vec());
        Ok(())
    }

    /// A handshake or group timestamp `t` (µs) within the handshake window of `now`.
    pub fn check_time(&self, t: u64, now: Timestamp) -> Result<(), Rejection> {
        let window = self.config.handshake_window_ms * 1000;
        if t.saturating_add(window) < now.as_micros() {
            return Err(Rejection::new(
                RejectReason::StaleMessage,
                "handshake timestamp outside the window",
            ));
        }
        if t > now.as_micros().saturating_add(window) {
            return Err(Rejection::new(
                RejectReason::FutureMessage,
                "handshake timestamp in the future",
            ));
        }
        Ok(())
    }

    /// Authenticates a handshake step: the sender's certificate (exactly the field, and
    /// issued to `from`), the timestamp window, the certificate's CA signature and the
    /// step's own signature over `signed`.
    pub fn authenticate_handshake(
        &mut self,
        cert_bytes: &[u8],
        from: u32,
        t: u64,
        now: Timestamp,
        signed: &[u8],
        sig: &[u8],
    ) -> Result<SessionCert, Rejection> {
        let (cert, rest) =
            SessionCert::decode(self.config.signature, self.config.encryption, cert_bytes).map_err(malformed)?;
        // Public identifiers: ordinary comparisons are fine.
        if !rest.is_empty() || cert.id != from {
            return Err(Rejection::new(
                RejectReason::InvalidCertificate,
                "certificate does not belong to the sender",
            ));
        }
        self.check_time(t, now)?;
        self.check_cert(&cert)?;
        if !cert.verify.verify(signed, sig) {
            return Err(Rejection::new(
                RejectReason::FalseSignature,
                "handshake signature does not verify",
            ));
        }
        Ok(cert)
    }
}
