//! Security profiles: what SN-ENCAP puts into a message and what SN-DECAP requires,
//! per message type (ETSI TS 103 097 §7.1: CAM, DENM, generic).
//!
//! Freshness defaults (chosen here, configurable per profile):
//! * CAM: generation time at most 2 s old and at most 200 ms in the future (CAMs are
//!   sent at 1-10 Hz and are useless after ~1 s; the slack covers queueing and clock
//!   offset between stations synchronised by GNSS).
//! * DENM: at most 60 s old, 1 s in the future (DENMs are repeated and relayed).
//! * generic: at most 30 s old, 1 s in the future.

use std::time::Duration;

pub const PSID_CAM: u64 = 36;
pub const PSID_DENM: u64 = 37;
/// ETSI CAM SSP as in the ETSI test PKI (version 1, all basic container bits).
pub const DEFAULT_CAM_SSP: [u8; 3] = [0x01, 0xff, 0xfc];
/// ETSI DENM SSP as in the ETSI test PKI (version 1, all cause codes).
pub const DEFAULT_DENM_SSP: [u8; 4] = [0x01, 0xff, 0xff, 0xff];

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ProfileKind {
    Cam,
    Denm,
    Generic,
}

impl ProfileKind {
    pub fn from_name(s: &str) -> Option<ProfileKind> {
        match s.to_ascii_lowercase().as_str() {
            "cam" => Some(ProfileKind::Cam),
            "denm" => Some(ProfileKind::Denm),
            "generic" => Some(ProfileKind::Generic),
            _ => None,
        }
    }
}

/// How the signer is identified.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SignerPolicy {
    /// Always the full certificate.
    Certificate,
    /// A digest, but the full certificate at least every `max_interval`, after a new
    /// station is heard and when a peer asks for it (P2PCD).
    DigestWithCertificateEvery(Duration),
}

/// A required SSP: the certificate's SSP, masked, must equal `value` masked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SspRequirement {
    pub value: Vec<u8>,
    pub mask: Vec<u8>,
}

impl SspRequirement {
    /// True if `ssp` satisfies the requirement (a missing SSP satisfies nothing but an
    /// all-zero mask).
    pub fn is_met_by(&self, ssp: Option<&[u8]>) -> bool {
        let ssp = ssp.unwrap_or(&[]);
        self.mask.iter().enumerate().all(|(i, m)| {
            let want = self.value.get(i).copied().unwrap_or(0) & m;
            let have = ssp.get(i).copied().unwrap_or(0) & m;
            want == have
        })
    }
}

/// One profile: encap behaviour and decap requirements.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Profile {
    pub kind: ProfileKind,
    pub psid: u64,
    pub signer: SignerPolicy,
    /// Encap puts the generation location in; decap requires it.
    pub generation_location: bool,
    /// Oldest accepted generation time relative to now.
    pub max_age: Duration,
    /// Furthest accepted generation time into the future.
    pub max_future_skew: Duration,
    /// SSP bits the signer's certificate must hold for this PSID (decap).
    pub required_ssp: Option<SspRequirement>,
}

impl Profile {
    pub fn cam() -> Profile {
        Profile {
            kind: ProfileKind::Cam,
            psid: PSID_CAM,
            signer: SignerPolicy::DigestWithCertificateEvery(Duration::from_secs(1)),
            generation_location: false,
            max_age: Duration::from_secs(2),
            max_future_skew: Duration::from_millis(200),
            required_ssp: None,
        }
    }

    pub fn denm() -> Profile {
        Profile {
            kind: ProfileKind::Denm,
            psid: PSID_DENM,
            signer: SignerPolicy::Certificate,
            generation_location: true,
            max_age: Duration::from_secs(60),
            max_future_skew: Duration::from_secs(1),
            required_ssp: None,
        }
    }

    pub fn generic(psid: u64) -> Profile {
        Profile {
            kind: ProfileKind::Generic,
            psid,
            signer: SignerPolicy::Certificate,
            generation_location: false,
            max_age: Duration::from_secs(30),
            max_future_skew: Duration::from_secs(1),
            required_ssp: None,
        }
    }

    pub fn for_kind(kind: ProfileKind, psid: Option<u64>) -> Profile {
        let mut p = match kind {
            ProfileKind::Cam => Profile::cam(),
            ProfileKind::Denm => Profile::denm(),
            ProfileKind::Generic => Profile::generic(psid.unwrap_or(PSID_CAM)),
        };
        if let Some(psid) = psid {
            p.psid = psid;
        }
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ssp_requirement_masks() {
        let r = SspRequirement {
            value: vec![0x01, 0x80],
            mask: vec![0xff, 0x80],
        };
        assert!(r.is_met_by(Some(&[0x01, 0xff])));
        assert!(!r.is_met_by(Some(&[0x01, 0x7f])));
        assert!(!r.is_met_by(None));
    }
}
