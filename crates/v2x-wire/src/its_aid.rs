//! ITS Application Identifiers (ITS-AID, ETSI TS 102 965), which IEEE 1609.2 calls PSIDs
//! (IEEE 1609.12): the one place their numbers are written down.

use serde::{Deserialize, Serialize};
use std::fmt;

/// An ITS-AID / PSID.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ItsAid(pub u64);

impl ItsAid {
    /// SAE J2735 Basic Safety Message (PSID 0x20).
    pub const BSM: ItsAid = ItsAid(0x20);
    /// Cooperative Awareness service (CAM), ETSI EN 302 637-2.
    pub const CAM: ItsAid = ItsAid(36);
    /// Decentralized Environmental Notification service (DENM), ETSI EN 302 637-3.
    pub const DENM: ItsAid = ItsAid(37);
    /// Traffic light manoeuvre service (SPATEM), ETSI TS 103 301.
    pub const SPATEM: ItsAid = ItsAid(137);
    /// Road and lane topology service (MAPEM), ETSI TS 103 301.
    pub const MAPEM: ItsAid = ItsAid(138);
    /// Infrastructure to vehicle information service (IVIM), ETSI TS 103 301.
    pub const IVIM: ItsAid = ItsAid(139);
    /// Traffic light control requests service (SREM), ETSI TS 103 301.
    pub const SREM: ItsAid = ItsAid(140);
    /// GeoNetworking management (beacons etc.).
    pub const GN_MGMT: ItsAid = ItsAid(141);
    /// IEEE 1609.2 certificate revocation lists (PSID 0x100, 1609.2 §7.3).
    pub const IEEE_CRL: ItsAid = ItsAid(256);
    /// ETSI TS 102 941 certificate revocation lists.
    pub const ETSI_CRL: ItsAid = ItsAid(622);
    /// ETSI TS 102 941 secured certificate requests (enrolment / authorization).
    pub const CERT_REQUEST: ItsAid = ItsAid(623);
    /// ETSI TS 102 941 certificate trust lists (ECTL / CTL).
    pub const CTL: ItsAid = ItsAid(624);
    /// Traffic light control status service (SSEM), ETSI TS 103 301.
    pub const SSEM: ItsAid = ItsAid(636);
    /// Vulnerable road user awareness service (VAM), ETSI TS 103 300-3.
    pub const VAM: ItsAid = ItsAid(638);
    /// Collective perception service (CPM), ETSI TS 103 324.
    pub const CPM: ItsAid = ItsAid(639);

    /// Every named ITS-AID, for listings and error messages.
    pub const NAMED: [ItsAid; 15] = [
        ItsAid::BSM,
        ItsAid::CAM,
        ItsAid::DENM,
        ItsAid::SPATEM,
        ItsAid::MAPEM,
        ItsAid::IVIM,
        ItsAid::SREM,
        ItsAid::GN_MGMT,
        ItsAid::IEEE_CRL,
        ItsAid::ETSI_CRL,
        ItsAid::CERT_REQUEST,
        ItsAid::CTL,
        ItsAid::SSEM,
        ItsAid::VAM,
        ItsAid::CPM,
    ];

    /// The number.
    pub const fn value(self) -> u64 {
        self.0
    }

    /// A short name for the known identifiers.
    pub fn name(self) -> Option<&'static str> {
        Some(match self {
            ItsAid::BSM => "BSM",
            ItsAid::CAM => "CAM",
            ItsAid::DENM => "DENM",
            ItsAid::SPATEM => "SPATEM",
            ItsAid::MAPEM => "MAPEM",
            ItsAid::IVIM => "IVIM",
            ItsAid::SREM => "SREM",
            ItsAid::GN_MGMT => "GN-MGMT",
            ItsAid::IEEE_CRL => "IEEE-CRL",
            ItsAid::ETSI_CRL => "ETSI-CRL",
            ItsAid::CERT_REQUEST => "CERT-REQUEST",
            ItsAid::CTL => "CTL",
            ItsAid::SSEM => "SSEM",
            ItsAid::VAM => "VAM",
            ItsAid::CPM => "CPM",
            _ => return None,
        })
    }

    /// What the application is, for the known identifiers (as `v2x inspect` shows it).
    pub fn description(self) -> Option<&'static str> {
        Some(match self {
            ItsAid::BSM => "vehicle-to-vehicle safety and awareness (BSM)",
            ItsAid::CAM => "CA basic service (CAM)",
            ItsAid::DENM => "DEN basic service (DENM)",
            ItsAid::SPATEM => "traffic light manoeuvre service (SPATEM)",
            ItsAid::MAPEM => "road and lane topology service (MAPEM)",
            ItsAid::IVIM => "infrastructure to vehicle information service (IVIM)",
            ItsAid::SREM => "traffic light control requests service (SREM)",
            ItsAid::GN_MGMT => "GeoNetworking management communications",
            ItsAid::IEEE_CRL => "certificate revocation list application (1609.2)",
            ItsAid::ETSI_CRL => "certificate revocation list (CRL, TS 102 941)",
            ItsAid::CERT_REQUEST => "secured certificate request service (TS 102 941)",
            ItsAid::CTL => "certificate trust list (CTL, TS 102 941)",
            ItsAid::SSEM => "traffic light control status service (SSEM)",
            ItsAid::VAM => "vulnerable road user service (VAM)",
            ItsAid::CPM => "collective perception service (CPM)",
            _ => return None,
        })
    }

    /// A number, or one of the names of [`NAMED`](Self::NAMED) (case-insensitive).
    pub fn parse(s: &str) -> Option<ItsAid> {
        let s = s.trim();
        if let Some(hex) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
            return u64::from_str_radix(hex, 16).ok().map(ItsAid);
        }
        if let Ok(v) = s.parse() {
            return Some(ItsAid(v));
        }
        ItsAid::NAMED
            .into_iter()
            .find(|a| a.name().is_some_and(|n| n.eq_ignore_ascii_case(s)))
    }
}

impl From<u64> for ItsAid {
    fn from(v: u64) -> ItsAid {
        ItsAid(v)
    }
}

impl From<ItsAid> for u64 {
    fn from(a: ItsAid) -> u64 {
        a.0
    }
}

impl fmt::Display for ItsAid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name() {
            Some(n) => write!(f, "{} ({n})", self.0),
            None => write!(f, "{}", self.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_numbers_round_trip() {
        for a in ItsAid::NAMED {
            assert_eq!(ItsAid::parse(a.name().unwrap()), Some(a));
            assert_eq!(ItsAid::parse(&a.0.to_string()), Some(a));
        }
        assert_eq!(ItsAid::parse("cam"), Some(ItsAid::CAM));
        assert_eq!(ItsAid::parse("0x20"), Some(ItsAid::BSM));
        assert_eq!(ItsAid::parse("nope"), None);
        assert_eq!(ItsAid::CAM.to_string(), "36 (CAM)");
        assert_eq!(ItsAid(99).to_string(), "99");
        for a in ItsAid::NAMED {
            assert!(a.description().is_some(), "{a}");
        }
        assert_eq!(ItsAid(35).description(), None);
    }
}
