//! The functional cases of paper 002 (PRESERVE D3.2 Table 2.6, results in Table 2.17)
//! as scenario inputs (judged after the run by [`crate::analyse::functional`]): `[[functional]] case = "F-SIG-05"`. Each case is one sender
//! process (IEEE 1609.2) with the credentials the case is about; after the run each gets
//! a verdict (passed / failed, with the counts and reasons that decide it) beside the
//! paper's "passed".
//!
//! The paper names the cases and reports "passed" but does not give their procedures
//! (they are in the PRESERVE testing handbook, not in D3.2); what each case does here
//! and what counts as passed:
//!
//! | case | sender | passed when |
//! |---|---|---|
//! | F-SIG-01 | CAMs signed with a standard ticket | every receiver accepts them (nothing rejected, >= 99 % accepted) |
//! | F-SIG-03 | CAMs and DENMs alternately at a high rate (default 500 Hz) | as F-SIG-01 for both kinds: no security-layer loss |
//! | F-SIG-04 | CAMs; the current pseudonym permits CAM | as F-SIG-01, and every CAM came under the current (first) pseudonym |
//! | F-SIG-05 | CAMs; the current pseudonym lacks CAM, the next ones have it | SN-ENCAP switches to the next compatible pseudonym: as F-SIG-01, none under the first |
//! | F-SIG-06 | CAMs; no pseudonym has CAM | every CAM refused by SN-ENCAP with its reason (`encap-refused` in events), none sent |
//! | F-SIG-07 | CAMs from tickets of an AA whose issue permissions lack CAM | every receiver rejects every CAM `inconsistent-chain` (the chain does not grant CAM) |
//! | F-CER-02 | CAMs to a receiver of its own that lacks the AA (PCA) certificate | the first CAMs are rejected `issuer-certificate-not-found`; the receiver asks for the AA by P2PCD in its own CAMs, the sender answers, and every CAM after is accepted |
//!
//! F-SIG-07 follows the paper's title ("not compatible with the long-term certificate") as
//! a chain whose CA may not grant the permission: our PKI issues tickets from the AA, not
//! from the long-term (enrolment) certificate, so the authority above the ticket is what
//! the CAM permission must be compatible with.

use serde::{Deserialize, Serialize};

/// A functional case of paper 002.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum FunctionalCase {
    #[serde(rename = "F-SIG-01")]
    CamSignature,
    #[serde(rename = "F-SIG-03")]
    HighRate,
    #[serde(rename = "F-SIG-04")]
    CompatiblePseudonym,
    #[serde(rename = "F-SIG-05")]
    IncompatibleCurrentPseudonym,
    #[serde(rename = "F-SIG-06")]
    NoCompatiblePseudonym,
    #[serde(rename = "F-SIG-07")]
    NotGrantedByIssuer,
    #[serde(rename = "F-CER-02")]
    MissingPca,
}

/// Default rate of F-SIG-03, Hz (the other cases send at the scenario's `rate_hz`).
pub const HIGH_RATE_HZ: f64 = 500.0;

impl FunctionalCase {
    pub const ALL: [FunctionalCase; 7] = [
        FunctionalCase::CamSignature,
        FunctionalCase::HighRate,
        FunctionalCase::CompatiblePseudonym,
        FunctionalCase::IncompatibleCurrentPseudonym,
        FunctionalCase::NoCompatiblePseudonym,
        FunctionalCase::NotGrantedByIssuer,
        FunctionalCase::MissingPca,
    ];

    /// The case with this code.
    pub fn from_code(code: &str) -> Option<FunctionalCase> {
        FunctionalCase::ALL.into_iter().find(|c| c.code() == code)
    }

    pub fn code(self) -> &'static str {
        match self {
            FunctionalCase::CamSignature => "F-SIG-01",
            FunctionalCase::HighRate => "F-SIG-03",
            FunctionalCase::CompatiblePseudonym => "F-SIG-04",
            FunctionalCase::IncompatibleCurrentPseudonym => "F-SIG-05",
            FunctionalCase::NoCompatiblePseudonym => "F-SIG-06",
            FunctionalCase::NotGrantedByIssuer => "F-SIG-07",
            FunctionalCase::MissingPca => "F-CER-02",
        }
    }

    /// The paper's name of the case (Table 2.6).
    pub fn title(self) -> &'static str {
        match self {
            FunctionalCase::CamSignature => "Signature of CAM in cooperative safety applications",
            FunctionalCase::HighRate => "CAM/DENM processing at very high rate",
            FunctionalCase::CompatiblePseudonym => {
                "Signing a CAM with its-aid-ssp compatible with the current pseudonym"
            }
            FunctionalCase::IncompatibleCurrentPseudonym => {
                "Signing a CAM with its-aid-ssp not compatible with the current pseudonym"
            }
            FunctionalCase::NoCompatiblePseudonym => {
                "Signing a CAM with its-aid-ssp not compatible with any of the pseudonyms"
            }
            FunctionalCase::NotGrantedByIssuer => {
                "Signing a CAM with its-aid-ssp not compatible with the long term certificate"
            }
            FunctionalCase::MissingPca => "PCA certificate missing - pseudonym certificate cannot be verified",
        }
    }

    /// What we check (the passed criterion).
    pub fn expected(self) -> &'static str {
        match self {
            FunctionalCase::CamSignature => "every CAM accepted, none rejected",
            FunctionalCase::HighRate => "every CAM and DENM accepted at the high rate, none rejected or dropped",
            FunctionalCase::CompatiblePseudonym => "every CAM accepted, all under the current pseudonym",
            FunctionalCase::IncompatibleCurrentPseudonym => {
                "SN-ENCAP switches to a pseudonym with CAM: every CAM accepted, none under the current one"
            }
            FunctionalCase::NoCompatiblePseudonym => "SN-ENCAP refuses every CAM with its reason; nothing sent",
            FunctionalCase::NotGrantedByIssuer => "every CAM rejected inconsistent-chain",
            FunctionalCase::MissingPca => {
                "rejected issuer-certificate-not-found until the AA is learnt by P2PCD, accepted after"
            }
        }
    }

    /// The paper's result (Table 2.17): every one of these passed.
    pub fn paper_result(self) -> &'static str {
        "passed"
    }

    /// Sign with the full certificate every time, so that every CAM meets the chain check.
    pub fn always_certificate(self) -> bool {
        matches!(self, FunctionalCase::NotGrantedByIssuer | FunctionalCase::MissingPca)
    }

    /// Whether the sender also reads (and verifies) what it receives: F-CER-02's sender
    /// hears the P2PCD requests in its receiver's CAMs.
    pub fn listens(self) -> bool {
        self == FunctionalCase::MissingPca
    }

    /// Whether the case has a receiver of its own, one whose trust store lacks the AA
    /// (F-CER-02). Only the case's sender sends to it.
    pub fn has_own_receiver_without_aa(self) -> bool {
        self == FunctionalCase::MissingPca
    }

    /// Whether the sender alternates CAMs and DENMs.
    pub fn sends_denms(self) -> bool {
        self == FunctionalCase::HighRate
    }

    /// Station name of the case's sender.
    pub fn station_name(self) -> String {
        self.code().to_lowercase()
    }

    /// Station name of the case's own receiver ([`Self::has_own_receiver_without_aa`]).
    pub fn receiver_name(self) -> String {
        format!("rx-{}", self.station_name())
    }
}

/// `[[functional]]` in a scenario: one sender process of `case`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FunctionalGroup {
    pub case: FunctionalCase,
    /// Messages per second; default the scenario's `rate_hz` ([`HIGH_RATE_HZ`] for F-SIG-03).
    #[serde(default)]
    pub rate_hz: Option<f64>,
}

impl FunctionalGroup {
    pub fn rate(&self, scenario_rate_hz: f64) -> f64 {
        self.rate_hz.unwrap_or(if self.case == FunctionalCase::HighRate {
            HIGH_RATE_HZ
        } else {
            scenario_rate_hz
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cases_use_the_paper_codes_and_unknown_names_list_the_valid_ones() {
        for c in FunctionalCase::ALL {
            let g: FunctionalGroup = toml::from_str(&format!("case = \"{}\"", c.code())).unwrap();
            assert_eq!(g.case, c);
            assert_eq!(FunctionalCase::from_code(c.code()), Some(c));
        }
        let e = toml::from_str::<FunctionalGroup>("case = \"F-SIG-02\"")
            .unwrap_err()
            .to_string();
        assert!(e.contains("F-SIG-05") && e.contains("F-CER-02"), "{e}");
    }
}
