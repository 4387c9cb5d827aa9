//! The traffic cases of a run — what every packet is logged and reported under — shared by
//! the scenario, the running stations and the analysis: station roles, the attack cases
//! as data ([`attack`]), paper 002's functional cases ([`functional`]), and [`Case`].

pub mod attack;
pub mod functional;

pub use attack::Attack;
pub use functional::{FunctionalCase, FunctionalGroup};

use serde::{Deserialize, Serialize};

/// What a station does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Role {
    /// Sends benign messages (or a functional case's).
    Sender,
    /// Receives and verifies; sends nothing (but its beacons).
    Receiver,
    /// Sends the packets of its attack case.
    Attacker,
}

/// The traffic case of a packet: what the analysis reports it under. Written in logs
/// and summaries as its code (`benign`, `A-SIG-01`, `A-SIG-05-source`, `F-SIG-05`, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Case {
    Benign,
    Attack(Attack),
    /// The validly secured originals a replay attacker (A-SIG-05) copies.
    ReplaySource,
    Functional(FunctionalCase),
}

const REPLAY_SOURCE: &str = "A-SIG-05-source";

impl Case {
    pub fn code(self) -> &'static str {
        match self {
            Case::Benign => "benign",
            Case::Attack(a) => a.code(),
            Case::ReplaySource => REPLAY_SOURCE,
            Case::Functional(f) => f.code(),
        }
    }

    pub fn from_code(code: &str) -> Option<Case> {
        match code {
            "benign" => Some(Case::Benign),
            REPLAY_SOURCE => Some(Case::ReplaySource),
            _ => Attack::from_code(code)
                .map(Case::Attack)
                .or_else(|| FunctionalCase::from_code(code).map(Case::Functional)),
        }
    }
}

impl std::fmt::Display for Case {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}

impl Serialize for Case {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.code())
    }
}

impl<'de> Deserialize<'de> for Case {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Case, D::Error> {
        let code = String::deserialize(d)?;
        Case::from_code(&code).ok_or_else(|| serde::de::Error::custom(format!("unknown traffic case `{code}`")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cases_read_back_from_their_codes() {
        for c in [
            Case::Benign,
            Case::ReplaySource,
            Case::Attack(Attack::CopiedCertificates),
            Case::Functional(FunctionalCase::MissingPca),
        ] {
            assert_eq!(Case::from_code(c.code()), Some(c));
        }
        assert_eq!(Case::from_code("A-SIG-05-source"), Some(Case::ReplaySource));
        assert_eq!(Case::from_code("nope"), None);
    }
}
