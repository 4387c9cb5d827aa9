//! The plan of a run: from a scenario, every station process with its name, number, role,
//! case, tickets, trust, where it sends, and its own addresses — a pure function
//! ([`plan`]), before any process, port or PKI exists. The orchestrator then gives the
//! planned addresses their ports (or a network namespace's address) and starts the
//! processes.
//!
//! Numbers (payload origins) run receivers first (`rx0` is 1), then the functional
//! cases' own receivers, the benign senders `tx0..`, the attackers and the functional
//! senders. Addresses: on loopback each station has an IP address of its own in
//! 127.0.0.0/8 (an attacker with `source_addresses = N` has N), so that a receiver tells
//! stations apart by address as on a radio channel, and its per-address defences see one
//! station per address; with [`Addressing::Shared`] every station uses 127.0.0.1 (ports
//! apart).

use crate::case::attack::AttackTickets;
use crate::run::credentials::{TicketSet, Trust};
use crate::scenario::{attacker_name, Attack, FunctionalCase, Role, Scenario};
use std::net::Ipv4Addr;

/// How stations on loopback get their addresses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Addressing {
    /// Each station its own 127.`block`.x.y (`block` in 1..=254 keeps concurrent runs apart).
    PerStation { block: u8 },
    /// Every station on 127.0.0.1, told apart by port only.
    Shared,
}

/// One station process of the run.
#[derive(Debug, Clone, PartialEq)]
pub struct PlannedStation {
    pub name: String,
    /// Payload origin and protocol station id.
    pub number: u32,
    pub role: Role,
    pub attack: Option<Attack>,
    pub functional: Option<FunctionalCase>,
    /// Messages per second (senders and attackers).
    pub rate_hz: f64,
    /// It starts sending this long after the run's start, s (attackers).
    pub start_s: f64,
    /// F-PSN-01: change pseudonym this often, s (benign senders; 0 = never).
    pub pseudonym_change_s: f64,
    /// The receivers it sends to, by name.
    pub sends_to: Vec<String>,
    /// Its source (senders) or listening (receivers) addresses, one socket each.
    pub addresses: Vec<Ipv4Addr>,
    /// The 1609.2 (and v1.2.1) tickets it is issued.
    pub tickets: TicketSet,
    /// Whose certificates it trusts.
    pub trust: Trust,
    /// A receiver whose verifiers also send CAMs (its P2PCD requests).
    pub beacon: bool,
    /// The stations whose (public) certificates it copies (the forger).
    pub copies_certificates_of: Vec<String>,
}

/// Every station of a run, in start order (receivers first).
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    pub stations: Vec<PlannedStation>,
    /// The channel emulator's own address (used with `medium.kind = "emulator"`).
    pub emulator_address: Ipv4Addr,
}

impl Plan {
    pub fn station(&self, name: &str) -> Option<&PlannedStation> {
        self.stations.iter().find(|s| s.name == name)
    }
}

/// Hands out addresses in plan order.
struct Addresses {
    addressing: Addressing,
    next: u32,
}

impl Addresses {
    fn take(&mut self, n: u32) -> Vec<Ipv4Addr> {
        (0..n)
            .map(|_| match self.addressing {
                Addressing::Shared => Ipv4Addr::LOCALHOST,
                Addressing::PerStation { block } => {
                    self.next += 1;
                    let [_, _, hi, lo] = self.next.to_be_bytes();
                    Ipv4Addr::new(127, block, hi, lo)
                }
            })
            .collect()
    }
}

/// The tickets of an attack case's station.
fn attack_tickets(a: Attack) -> TicketSet {
    match a.tactic().tickets {
        AttackTickets::Standard => TicketSet::Standard,
        AttackTickets::Expired => TicketSet::Expired,
        AttackTickets::CamOnly => TicketSet::CamOnly,
    }
}

/// The tickets of a functional case's sender.
fn functional_tickets(f: FunctionalCase) -> TicketSet {
    match f {
        FunctionalCase::IncompatibleCurrentPseudonym => TicketSet::FirstWithoutCam,
        FunctionalCase::NoCompatiblePseudonym => TicketSet::WithoutCam,
        FunctionalCase::NotGrantedByIssuer => TicketSet::UngrantedByAa,
        _ => TicketSet::Standard,
    }
}

/// Sockets of an attacker: its `source_addresses`, and at least two for a replayer (the
/// copies leave from its second address).
fn attacker_sockets(case: Attack, source_addresses: u32) -> u32 {
    let least = if case.tactic().replay_after.is_some() { 2 } else { 1 };
    source_addresses.max(least)
}

/// The plan of `scenario`'s stations.
pub fn plan(scenario: &Scenario, addressing: Addressing) -> Plan {
    let mut addresses = Addresses { addressing, next: 0 };
    let emulator_address = addresses.take(1)[0];
    let mut stations: Vec<PlannedStation> = Vec::new();
    let station = |name: String, role: Role, rate_hz: f64| PlannedStation {
        name,
        number: 0,
        role,
        attack: None,
        functional: None,
        rate_hz,
        start_s: 0.0,
        pseudonym_change_s: 0.0,
        sends_to: Vec::new(),
        addresses: Vec::new(),
        tickets: TicketSet::Standard,
        trust: Trust::Full,
        beacon: false,
        copies_certificates_of: Vec::new(),
    };
    let receivers: Vec<String> = (0..scenario.receivers).map(|i| format!("rx{i}")).collect();
    let benign: Vec<String> = (0..scenario.senders).map(|i| format!("tx{i}")).collect();
    for name in &receivers {
        stations.push(station(name.clone(), Role::Receiver, 0.0));
    }
    for f in scenario
        .functional
        .iter()
        .filter(|f| f.case.has_own_receiver_without_aa())
    {
        stations.push(PlannedStation {
            trust: Trust::WithoutAa,
            // Its own CAMs carry its P2PCD requests for the certificate it misses.
            beacon: true,
            ..station(f.case.receiver_name(), Role::Receiver, 0.0)
        });
    }
    for name in &benign {
        stations.push(PlannedStation {
            pseudonym_change_s: scenario.pseudonym_change_s,
            sends_to: receivers.clone(),
            ..station(name.clone(), Role::Sender, scenario.rate_hz)
        });
    }
    for g in &scenario.attackers {
        for i in 0..g.count {
            stations.push(PlannedStation {
                attack: Some(g.case),
                start_s: g.start_s,
                sends_to: receivers.clone(),
                tickets: attack_tickets(g.case),
                copies_certificates_of: if g.case == Attack::CopiedCertificates {
                    benign.clone()
                } else {
                    Vec::new()
                },
                ..station(attacker_name(g.case, i), Role::Attacker, g.rate_hz)
            });
        }
    }
    for g in &scenario.functional {
        let sends_to = if g.case.has_own_receiver_without_aa() {
            vec![g.case.receiver_name()]
        } else {
            receivers.clone()
        };
        stations.push(PlannedStation {
            functional: Some(g.case),
            sends_to,
            tickets: functional_tickets(g.case),
            ..station(g.case.station_name(), Role::Sender, g.rate(scenario.rate_hz))
        });
    }
    for (i, s) in stations.iter_mut().enumerate() {
        s.number = i as u32 + 1;
        let sockets = match s.attack {
            Some(case) => {
                let group = scenario.attackers.iter().find(|g| g.case == case);
                attacker_sockets(case, group.map_or(1, |g| g.source_addresses))
            }
            None => 1,
        };
        s.addresses = addresses.take(sockets);
    }
    Plan {
        stations,
        emulator_address,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scenario(extra: &str) -> Scenario {
        Scenario::parse(
            &format!("duration_s = 1.0\nsenders = 2\nrate_hz = 10.0\n[protocol]\nprotocol = \"ieee1609.2\"\n{extra}"),
            "test",
        )
        .unwrap()
    }

    #[test]
    fn stations_are_numbered_receivers_first_and_each_has_its_own_address() {
        let p = plan(
            &scenario("[[attackers]]\ncase = \"A-SIG-04\"\ncount = 2\nrate_hz = 100.0\nsource_addresses = 3\n"),
            Addressing::PerStation { block: 9 },
        );
        let names: Vec<(&str, u32)> = p.stations.iter().map(|s| (s.name.as_str(), s.number)).collect();
        assert_eq!(
            names,
            [("rx0", 1), ("tx0", 2), ("tx1", 3), ("a-sig-04-0", 4), ("a-sig-04-1", 5)]
        );
        let mut all: Vec<Ipv4Addr> = p.stations.iter().flat_map(|s| s.addresses.clone()).collect();
        all.push(p.emulator_address);
        assert_eq!(all.len(), 1 + 2 + 2 * 3 + 1);
        assert!(all
            .iter()
            .all(|a| a.octets()[..2] == [127, 9] && *a != Ipv4Addr::LOCALHOST));
        all.sort();
        all.dedup();
        assert_eq!(all.len(), 10, "no address twice");
        assert_eq!(p.station("tx1").unwrap().sends_to, ["rx0"]);
        let shared = plan(&scenario(""), Addressing::Shared);
        assert!(shared.stations.iter().all(|s| s.addresses == [Ipv4Addr::LOCALHOST]));
    }

    #[test]
    fn attacks_get_their_tickets_sockets_and_copies() {
        let p = plan(
            &scenario(
                "[[attackers]]\ncase = \"A-SIG-05\"\nrate_hz = 10.0\n\
                 [[attackers]]\ncase = \"A-CER-03\"\nrate_hz = 10.0\n\
                 [[attackers]]\ncase = \"A-CON-01\"\nrate_hz = 10.0\n\
                 [[attackers]]\ncase = \"copied-certificates\"\nrate_hz = 10.0\n",
            ),
            Addressing::PerStation { block: 1 },
        );
        let replayer = p.station("a-sig-05-0").unwrap();
        assert_eq!(replayer.addresses.len(), 2, "its copies leave from a second address");
        assert_eq!(p.station("a-cer-03-0").unwrap().tickets, TicketSet::Expired);
        assert_eq!(p.station("a-con-01-0").unwrap().tickets, TicketSet::CamOnly);
        let forger = p.station("copied-certificates-0").unwrap();
        assert_eq!(forger.copies_certificates_of, ["tx0", "tx1"]);
        assert_eq!(forger.tickets, TicketSet::Standard);
    }

    #[test]
    fn functional_cases_get_their_tickets_and_f_cer_02_its_own_receiver() {
        let p = plan(
            &scenario("[[functional]]\ncase = \"F-SIG-05\"\n[[functional]]\ncase = \"F-CER-02\"\n"),
            Addressing::Shared,
        );
        let own = p.station("rx-f-cer-02").unwrap();
        assert_eq!(
            (own.number, own.role, own.trust, own.beacon),
            (2, Role::Receiver, Trust::WithoutAa, true)
        );
        assert_eq!(p.station("tx0").unwrap().number, 3);
        assert_eq!(p.station("f-sig-05").unwrap().tickets, TicketSet::FirstWithoutCam);
        assert_eq!(p.station("f-sig-05").unwrap().sends_to, ["rx0"]);
        assert_eq!(p.station("f-cer-02").unwrap().sends_to, ["rx-f-cer-02"]);
        assert_eq!(p.station("f-cer-02").unwrap().rate_hz, 10.0);
    }
}
