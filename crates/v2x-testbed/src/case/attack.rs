//! The attack cases an attacker station can mount, as data: each case is a [`Tactic`] —
//! what the attacker's packets carry, what is done to them after securing, whether each is
//! sent again, and which lab options its SN-ENCAP needs. The sender ([`crate::run::station`])
//! plays a tactic; it holds no case-by-case logic of its own.
//!
//! Paper 002 (§2.2.3) names the `A-*` cases; `copied-certificates` is the
//! certificate-copying forger of issue 27 and `classical-downgrade` the classical-only
//! signer a post-quantum policy must refuse (issue 32); neither is a paper case.

use crate::payload::MessageKind;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// The attack cases a station can mount.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Attack {
    /// A-SIG-01: CAMs whose signature (authenticator) does not verify.
    #[serde(rename = "A-SIG-01")]
    InvalidSignature,
    /// A-SIG-02: DENMs whose signature does not verify.
    #[serde(rename = "A-SIG-02")]
    InvalidSignatureDenm,
    /// A-SIG-03: CAMs sent without any security (the bare application payload).
    #[serde(rename = "A-SIG-03")]
    Unsigned,
    /// A-SIG-04: a flood of invalid-signature CAMs at the attacker's (high) rate.
    #[serde(rename = "A-SIG-04")]
    Flood,
    /// A-SIG-05: every validly secured CAM sent again [`REPLAY_DELAY`] later, from
    /// another source address of the attacker and with its signature re-encoded
    /// (s → n − s): the copy is a replay, byte for byte a different datagram.
    #[serde(rename = "A-SIG-05")]
    Replay,
    /// A-SIG-06: validly signed CAMs whose generation time is [`OLD_TIMESTAMP`] in the past.
    #[serde(rename = "A-SIG-06")]
    OldTimestamp,
    /// A-CER-03: validly signed CAMs from a ticket that expired before the run.
    #[serde(rename = "A-CER-03")]
    ExpiredCertificate,
    /// A-CON-01: validly signed DENMs from a ticket that only permits CAMs.
    #[serde(rename = "A-CON-01")]
    OutsidePermissions,
    /// Forged CAMs carrying the benign senders' (public) certificates in turn, with random
    /// signatures: a forger who copies certificates heard on the air (issue 27).
    #[serde(rename = "copied-certificates")]
    CopiedCertificates,
    /// CAMs validly signed with the attacker's IEEE 1609.2 tickets (ECDSA only, from the
    /// run's PKI) sent to receivers whose policy is an experimental post-quantum design: the
    /// classical-only signer a design that requires post-quantum or hybrid signatures must
    /// refuse as `downgrade-refused` (issue 32).
    #[serde(rename = "classical-downgrade")]
    ClassicalDowngrade,
}

/// How old the generation time of an A-SIG-06 packet is: far beyond any freshness window
/// (1609.2 CAM receivers accept seconds, not a minute).
pub const OLD_TIMESTAMP: Duration = Duration::from_secs(60);

/// How long after its original an A-SIG-05 copy is sent.
pub const REPLAY_DELAY: Duration = Duration::from_millis(100);

/// What an attacker's data packets are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Content {
    /// Secured by the attacker's own `Authenticator`.
    Secured,
    /// The bare payload, without any security.
    Bare,
    /// Built by hand: 1609.2 signed data naming a copied certificate, random signature.
    ForgedWithCopiedCertificate,
    /// Secured by a standard IEEE 1609.2 `Authenticator` from the attacker's 1609.2 tickets,
    /// whatever the scenario's protocol.
    SecuredClassically,
}

/// What an attacker does, case by case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tactic {
    pub kind: MessageKind,
    pub content: Content,
    /// The generation time is this far in the past.
    pub backdate: Duration,
    /// After securing, the last byte (the signature's s, or the MAC/tag) is flipped.
    pub corrupt: bool,
    /// Every data packet is sent again this much later, from the attacker's next source
    /// address, its signature re-encoded where the protocol's signature allows it.
    pub replay_after: Option<Duration>,
    /// Its tickets are expired (A-CER-03) or CAM-only (A-CON-01).
    pub tickets: AttackTickets,
    /// SN-ENCAP signs with an invalid (expired) certificate: the named lab option.
    pub insecure_sign_with_invalid_certificate: bool,
    /// SN-ENCAP signs outside the ticket's permissions: the named lab option.
    pub insecure_sign_outside_permissions: bool,
}

/// The tickets an attack needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttackTickets {
    Standard,
    Expired,
    CamOnly,
}

const PLAIN: Tactic = Tactic {
    kind: MessageKind::Cam,
    content: Content::Secured,
    backdate: Duration::ZERO,
    corrupt: false,
    replay_after: None,
    tickets: AttackTickets::Standard,
    insecure_sign_with_invalid_certificate: false,
    insecure_sign_outside_permissions: false,
};

impl Attack {
    /// Every case, in the order of the paper's code numbers, then the forger and the
    /// downgrade.
    pub const ALL: [Attack; 10] = [
        Attack::InvalidSignature,
        Attack::InvalidSignatureDenm,
        Attack::Unsigned,
        Attack::Flood,
        Attack::Replay,
        Attack::OldTimestamp,
        Attack::ExpiredCertificate,
        Attack::OutsidePermissions,
        Attack::CopiedCertificates,
        Attack::ClassicalDowngrade,
    ];

    pub fn code(self) -> &'static str {
        match self {
            Attack::InvalidSignature => "A-SIG-01",
            Attack::InvalidSignatureDenm => "A-SIG-02",
            Attack::Unsigned => "A-SIG-03",
            Attack::Flood => "A-SIG-04",
            Attack::Replay => "A-SIG-05",
            Attack::OldTimestamp => "A-SIG-06",
            Attack::ExpiredCertificate => "A-CER-03",
            Attack::OutsidePermissions => "A-CON-01",
            Attack::CopiedCertificates => "copied-certificates",
            Attack::ClassicalDowngrade => "classical-downgrade",
        }
    }

    /// The case with this code.
    pub fn from_code(code: &str) -> Option<Attack> {
        Attack::ALL.into_iter().find(|a| a.code() == code)
    }

    /// What the case's attacker does.
    pub fn tactic(self) -> Tactic {
        match self {
            Attack::InvalidSignature | Attack::Flood => Tactic { corrupt: true, ..PLAIN },
            Attack::InvalidSignatureDenm => Tactic {
                kind: MessageKind::Denm,
                corrupt: true,
                ..PLAIN
            },
            Attack::Unsigned => Tactic {
                content: Content::Bare,
                ..PLAIN
            },
            Attack::Replay => Tactic {
                replay_after: Some(REPLAY_DELAY),
                ..PLAIN
            },
            Attack::OldTimestamp => Tactic {
                backdate: OLD_TIMESTAMP,
                ..PLAIN
            },
            Attack::ExpiredCertificate => Tactic {
                tickets: AttackTickets::Expired,
                insecure_sign_with_invalid_certificate: true,
                ..PLAIN
            },
            Attack::OutsidePermissions => Tactic {
                kind: MessageKind::Denm,
                tickets: AttackTickets::CamOnly,
                insecure_sign_outside_permissions: true,
                ..PLAIN
            },
            Attack::CopiedCertificates => Tactic {
                content: Content::ForgedWithCopiedCertificate,
                ..PLAIN
            },
            Attack::ClassicalDowngrade => Tactic {
                content: Content::SecuredClassically,
                ..PLAIN
            },
        }
    }

    /// Whether this case needs the 1609.2 protocol (it rests on 1609.2 permissions or
    /// certificates).
    pub fn needs_ieee1609_2(self) -> bool {
        matches!(self, Attack::OutsidePermissions | Attack::CopiedCertificates)
    }

    /// Whether this case needs an experimental post-quantum receiver policy (a classical
    /// signer is a downgrade only where the policy requires a post-quantum signature).
    pub fn needs_experimental_pq(self) -> bool {
        self == Attack::ClassicalDowngrade
    }

    /// Whether the experimental post-quantum PKI can give this case what it needs: it
    /// issues no expired tickets (A-CER-03).
    pub fn runs_with_experimental_pq(self) -> bool {
        !self.needs_ieee1609_2() && self != Attack::ExpiredCertificate
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn cases_use_their_codes_and_unknown_names_list_the_valid_ones() {
        for a in Attack::ALL {
            let parsed: Attack =
                toml::from_str::<HashMap<String, Attack>>(&format!("case = \"{}\"", a.code())).unwrap()["case"];
            assert_eq!(parsed, a);
            assert_eq!(Attack::from_code(a.code()), Some(a));
        }
        let e = toml::from_str::<HashMap<String, Attack>>("case = \"A-SIG-99\"")
            .unwrap_err()
            .to_string();
        assert!(e.contains("A-SIG-01") && e.contains("copied-certificates"), "{e}");
    }

    #[test]
    fn each_case_is_one_change_from_a_plain_signed_cam() {
        assert_eq!(Attack::Replay.tactic().replay_after, Some(REPLAY_DELAY));
        assert!(Attack::Flood.tactic().corrupt && Attack::InvalidSignature.tactic().corrupt);
        assert_eq!(Attack::OutsidePermissions.tactic().kind, MessageKind::Denm);
        assert_eq!(Attack::OldTimestamp.tactic().backdate, OLD_TIMESTAMP);
        let changed = |t: Tactic| {
            [
                t.kind != PLAIN.kind,
                t.content != PLAIN.content,
                t.backdate != PLAIN.backdate,
                t.corrupt,
                t.replay_after.is_some(),
                t.tickets != PLAIN.tickets,
            ]
            .iter()
            .filter(|x| **x)
            .count()
        };
        for a in Attack::ALL {
            let n = changed(a.tactic());
            assert!((1..=2).contains(&n), "{}: {n} changes", a.code());
        }
    }
}
