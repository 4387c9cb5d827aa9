//! Security profiles: what SN-ENCAP puts into a message and what SN-DECAP requires,
//! per message type (ETSI TS 103 097 §7.1: CAM, DENM, generic).
//!
//! Freshness defaults (chosen here, configurable per profile):
//! * CAM: generation time at most 2 s old and at most 200 ms in the future (CAMs are
//!   sent at 1-10 Hz and are useless after ~1 s; the slack covers queueing and clock
//!   offset between stations synchronised by GNSS).
//! * DENM: at most 60 s old, 1 s in the future (DENMs are repeated and relayed).
//! * generic: at most 30 s old, 1 s in the future.
//!
//! SSP semantics: CAM and DENM follow the ETSI SSP tables of [`crate::permissions::ssp`];
//! generic PSIDs have none unless configured.

use crate::permissions::{EtsiService, SspRule};
use std::time::Duration;
use v2x_wire::ItsAid;

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

/// One profile: encap behaviour and decap requirements.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Profile {
    pub kind: ProfileKind,
    pub psid: ItsAid,
    pub signer: SignerPolicy,
    /// Encap puts the generation location in; decap requires it.
    pub generation_location: bool,
    /// Oldest accepted generation time relative to now.
    pub max_age: Duration,
    /// Furthest accepted generation time into the future.
    pub max_future_skew: Duration,
    /// What the signer's SSP for this PSID must allow (decap).
    pub ssp: SspRule,
}

impl Profile {
    pub fn cam() -> Profile {
        Profile {
            kind: ProfileKind::Cam,
            psid: ItsAid::CAM,
            signer: SignerPolicy::DigestWithCertificateEvery(Duration::from_secs(1)),
            generation_location: false,
            max_age: Duration::from_secs(2),
            max_future_skew: Duration::from_millis(200),
            ssp: SspRule::EtsiCam,
        }
    }

    pub fn denm() -> Profile {
        Profile {
            kind: ProfileKind::Denm,
            psid: ItsAid::DENM,
            signer: SignerPolicy::Certificate,
            generation_location: true,
            max_age: Duration::from_secs(60),
            max_future_skew: Duration::from_secs(1),
            ssp: SspRule::EtsiDenm,
        }
    }

    pub fn generic(psid: impl Into<ItsAid>) -> Profile {
        Profile {
            kind: ProfileKind::Generic,
            psid: psid.into(),
            signer: SignerPolicy::Certificate,
            generation_location: false,
            max_age: Duration::from_secs(30),
            max_future_skew: Duration::from_secs(1),
            ssp: SspRule::Any,
        }
    }

    /// INSECURE: the CAM/DENM SSP rule stops reading the payload (see
    /// [`SspRule::InsecureSyntheticPayload`]), for lab traffic whose payloads are not
    /// CAMs/DENMs. Other rules are left as they are.
    pub fn insecure_synthetic_payload(&mut self) {
        self.ssp = match self.ssp {
            SspRule::EtsiCam => SspRule::InsecureSyntheticPayload(EtsiService::Cam),
            SspRule::EtsiDenm => SspRule::InsecureSyntheticPayload(EtsiService::Denm),
            ref other => other.clone(),
        };
    }

    pub fn for_kind(kind: ProfileKind, psid: Option<ItsAid>) -> Profile {
        let mut p = match kind {
            ProfileKind::Cam => Profile::cam(),
            ProfileKind::Denm => Profile::denm(),
            ProfileKind::Generic => Profile::generic(psid.unwrap_or(ItsAid::CAM)),
        };
        if let Some(psid) = psid {
            p.psid = psid;
        }
        p
    }
}
