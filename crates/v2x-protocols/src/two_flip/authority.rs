//! The trusted authority (the "decentralized CA" whose agents are the RSUs): master
//! secret, driver registry (tracing to the driver), revocation by moving to a new epoch,
//! and key updates for the TPDs of unrevoked drivers.

use super::tpd::{h, DriverFactors, Tpd, H_LEN};
use super::wire::PID_LEN;
use crate::authenticator::{EncapError, Timestamp};
use std::collections::HashMap;

/// The trusted authority.
pub struct TrustedAuthority {
    msk: [u8; 20],
    k_trace: [u8; 20],
    epoch: u32,
    /// Start of each epoch (for the receivers' grace period).
    epoch_started: Vec<Timestamp>,
    /// DID -> (vehicle, driver number).
    drivers: HashMap<[u8; H_LEN], (u32, u32)>,
    revoked: Vec<[u8; H_LEN]>,
}

impl std::fmt::Debug for TrustedAuthority {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "TrustedAuthority(epoch {}, {} drivers, keys redacted)",
            self.epoch,
            self.drivers.len()
        )
    }
}

impl TrustedAuthority {
    pub fn new() -> TrustedAuthority {
        let mut msk = [0u8; 20];
        msk.copy_from_slice(&v2x_crypto::random_bytes(20));
        let mut k_trace = [0u8; 20];
        k_trace.copy_from_slice(&v2x_crypto::random_bytes(20));
        TrustedAuthority::from_secrets(msk, k_trace)
    }

    /// The authority holding the given master and tracing secrets (every process of a
    /// live testbed loads the same ones from the deployment's key store).
    pub fn from_secrets(msk: [u8; 20], k_trace: [u8; 20]) -> TrustedAuthority {
        TrustedAuthority {
            msk,
            k_trace,
            epoch: 1,
            epoch_started: vec![Timestamp(0), Timestamp(0)],
            drivers: HashMap::new(),
            revoked: Vec::new(),
        }
    }

    fn system_key(&self, epoch: u32) -> [u8; 20] {
        h(&[&self.msk, &epoch.to_be_bytes()])
    }

    pub fn epoch(&self) -> u32 {
        self.epoch
    }

    /// Registers a vehicle with one driver; returns the provisioned TPD and the driver's
    /// factors.
    pub fn register(&mut self, vehicle: u32) -> (Tpd, DriverFactors) {
        let vid = v2x_crypto::random_bytes(20);
        let factors = DriverFactors {
            biometric: v2x_crypto::random_bytes(32),
            password: v2x_crypto::random_bytes(12),
        };
        let h_bio = h(&[&factors.biometric]);
        let h_pw = h(&[&factors.password]);
        let did = h(&[&vid, &h_bio]);
        self.drivers.insert(did, (vehicle, 0));
        let tpd = Tpd::new(
            vid,
            h(&[&h_bio, &h_pw]),
            self.k_trace,
            self.epoch,
            self.system_key(self.epoch),
        );
        (tpd, factors)
    }

    /// Conditional tracing: opens a PID (with its timestamp) to (vehicle, driver).
    pub fn trace(&self, pid: &[u8], ts: u32) -> Option<(u32, u32)> {
        let epoch = pid.get(..3)?;
        let masked = pid.get(3..PID_LEN)?;
        let pad = h(&[&self.k_trace, epoch, &ts.to_be_bytes()]);
        let mut did = [0u8; H_LEN];
        for (i, d) in did.iter_mut().enumerate() {
            *d = masked.get(i).copied().unwrap_or(0) ^ pad[i];
        }
        self.drivers.get(&did).copied()
    }

    /// Revokes a driver: a new epoch starts at `now` and the driver's TPD will not get its key.
    pub fn revoke_driver(&mut self, vehicle: u32, driver: u32, now: Timestamp) {
        let dids: Vec<_> = self
            .drivers
            .iter()
            .filter(|(_, v)| **v == (vehicle, driver))
            .map(|(d, _)| *d)
            .collect();
        self.revoked.extend(dids);
        self.epoch += 1;
        self.epoch_started.push(now);
    }

    /// Key update over the RSU channel: the current epoch key, unless `did` is revoked.
    pub fn key_update(&self, did: &[u8; H_LEN]) -> Option<(u32, [u8; 20])> {
        if self.revoked.contains(did) {
            None
        } else {
            Some((self.epoch, self.system_key(self.epoch)))
        }
    }

    /// When `epoch` started (for the receivers' grace period).
    pub fn epoch_start(&self, epoch: u32) -> Timestamp {
        self.epoch_started.get(epoch as usize).copied().unwrap_or(Timestamp(0))
    }

    /// Brings `tpd` to the current epoch if its driver is not revoked (the RSUs hand the
    /// new system key only to TPDs of unrevoked drivers).
    pub fn update(&self, tpd: &mut Tpd, driver: &DriverFactors) -> Result<(), EncapError> {
        if self.epoch == tpd.epoch() {
            return Ok(());
        }
        match self.key_update(&tpd.did(driver)) {
            Some((epoch, key)) => {
                tpd.install_key(epoch, key);
                Ok(())
            }
            None => Err(EncapError::NotReady(
                "driver revoked: the TA withholds the new system key".into(),
            )),
        }
    }
}

impl Default for TrustedAuthority {
    fn default() -> Self {
        TrustedAuthority::new()
    }
}
