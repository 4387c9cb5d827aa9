//! The scenario format of `v2x testbed SCENARIO.toml` in one place (examples with every
//! key: `scenarios/testbed/*.toml`): the run's stations and traffic ([`Scenario`],
//! [`AttackerGroup`]), the receivers' defences ([`receiver`]), the medium ([`medium`]), and
//! the two plans that follow a run (`[load_plan]`, `[flood_search]`). The cases a scenario
//! names (attack and functional cases) are [`crate::case`]. Errors are [`ScenarioError`], in
//! `v2x sim`'s form: the file, or the key and what is wrong with its value.

pub mod medium;
pub mod misbehaviour;
pub mod pki_service;
pub mod receiver;

pub use crate::case::{Attack, Case, FunctionalCase, FunctionalGroup, Role};
pub use medium::{MediumConfig, MediumKind};
pub use receiver::ReceiverOptions;
pub use v2x_sim::error::ScenarioError;

use serde::Deserialize;
use std::path::Path;
use v2x_protocols::ProtocolConfig;

/// A testbed scenario (see scenarios/testbed/*.toml).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Sending time, seconds.
    pub duration_s: f64,
    #[serde(default = "one")]
    pub receivers: u32,
    pub senders: u32,
    /// Benign message rate per sender, Hz.
    pub rate_hz: f64,
    pub protocol: ProtocolConfig,
    /// F-PSN-01: benign senders change pseudonym (1609.2 ticket) this often, s (0 = never);
    /// the summary's `pseudonyms` shows the receiver's view.
    #[serde(default)]
    pub pseudonym_change_s: f64,
    #[serde(default)]
    pub receiver: ReceiverOptions,
    #[serde(default)]
    pub attackers: Vec<AttackerGroup>,
    /// `[flood_search]`: after the run, find the highest flood rate that keeps benign loss
    /// within a bound, without and with the receiver's defences.
    #[serde(default)]
    pub flood_search: Option<FloodSearch>,
    /// `[load_plan]`: after the run, one benign run per (senders, rate) cell of the
    /// PRESERVE load plan.
    #[serde(default)]
    pub load_plan: Option<LoadPlan>,
    /// `[medium]`: loopback (default), the channel emulator with the stations' positions, or
    /// one network namespace per station.
    #[serde(default)]
    pub medium: MediumConfig,
    /// `[[functional]]`: paper 002's functional cases, one sender each, judged after the run.
    #[serde(default)]
    pub functional: Vec<FunctionalGroup>,
    /// `[pki_service]`: senders enrol and obtain their tickets from a TS 102 941 PKI service
    /// started for the run, whose AA may be slow, down or flooded ([`pki_service`]).
    #[serde(default)]
    pub pki_service: Option<pki_service::PkiServiceConfig>,
    /// `[misbehaviour]`: after the run, the closed loop of insiders lying in valid CAMs,
    /// receivers detecting and reporting, the MA revoking, the receivers dropping them
    /// ([`misbehaviour`]).
    #[serde(default)]
    pub misbehaviour: Option<misbehaviour::MisbehaviourConfig>,
}

fn one() -> u32 {
    1
}

/// `count` attacker processes of one case.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttackerGroup {
    pub case: Attack,
    #[serde(default = "one")]
    pub count: u32,
    /// Packets per second of each attacker.
    pub rate_hz: f64,
    /// Source addresses of each attacker (loopback only): it sends from them in turn, each
    /// its own IP address (default 1; A-SIG-05 sends its copies from a second one).
    #[serde(default = "one")]
    pub source_addresses: u32,
    /// The attackers start this long after the benign senders, s (default 0): an attack on
    /// a receiver that already hears its neighbours (a forger copying certificates must
    /// first hear them).
    #[serde(default)]
    pub start_s: f64,
}

/// The `[flood_search]` table: bisection over the rate of `attackers` attackers of
/// `case` for the highest flood keeping benign loss within `max_benign_loss`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FloodSearch {
    /// Flood case: `A-SIG-01` or `A-SIG-04` (invalid signatures) or any other attack case.
    #[serde(default = "default_flood_case")]
    pub case: Attack,
    /// Attacker processes, each sending at the probed rate.
    #[serde(default = "default_flood_attackers")]
    pub attackers: u32,
    /// Bisection range of the rate per attacker, Hz.
    pub min_rate_hz: f64,
    pub max_rate_hz: f64,
    /// Bisection steps after probing both ends.
    #[serde(default = "default_flood_steps")]
    pub steps: u32,
    /// Highest benign loss (fraction) that counts as keeping up.
    #[serde(default = "default_flood_loss")]
    pub max_benign_loss: f64,
    /// Sending time of each probe run, s (default: the scenario's `duration_s`).
    #[serde(default)]
    pub duration_s: Option<f64>,
}

fn default_flood_case() -> Attack {
    Attack::Flood
}
fn default_flood_attackers() -> u32 {
    4
}
fn default_flood_steps() -> u32 {
    5
}
fn default_flood_loss() -> f64 {
    0.01
}

/// The `[load_plan]` table: the PRESERVE load plan (paper 002 §2.2.1), one benign run per
/// (senders, rate) cell.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoadPlan {
    /// Load levels: numbers of senders (PRESERVE: low 1, medium 5, high 15).
    #[serde(default = "default_plan_senders")]
    pub senders: Vec<u32>,
    /// Sending rates per sender, Hz (PRESERVE: 1, 10, 20, 100).
    #[serde(default = "default_plan_rates")]
    pub rates_hz: Vec<f64>,
    /// Sending time of each cell, s (default: the scenario's `duration_s`).
    #[serde(default)]
    pub duration_s: Option<f64>,
}

fn default_plan_senders() -> Vec<u32> {
    vec![1, 5, 15]
}
fn default_plan_rates() -> Vec<f64> {
    vec![1.0, 10.0, 20.0, 100.0]
}

/// The most station processes one run starts.
pub const MAX_STATIONS: u32 = 200;
/// The most source addresses of one attacker.
pub const MAX_SOURCE_ADDRESSES: u32 = 1000;

fn invalid(field: impl Into<String>, message: impl Into<String>) -> ScenarioError {
    ScenarioError::invalid(field, message)
}

fn in_range(field: &str, v: f64, lo_excl: f64, hi: f64) -> Result<(), ScenarioError> {
    if v > lo_excl && v <= hi {
        Ok(())
    } else {
        Err(invalid(field, format!("must be in ({lo_excl}, {hi}], got {v}")))
    }
}

impl Scenario {
    pub fn load(path: &Path) -> Result<Scenario, ScenarioError> {
        let text = std::fs::read_to_string(path).map_err(|source| ScenarioError::Io {
            path: path.display().to_string(),
            source,
        })?;
        Scenario::parse(&text, &path.display().to_string())
    }

    /// Parses and checks a scenario text; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<Scenario, ScenarioError> {
        let sc: Scenario = toml::from_str(text).map_err(|e| syntax(file, text, &e))?;
        sc.check()?;
        Ok(sc)
    }

    fn is_ieee1609_2(&self) -> bool {
        matches!(self.protocol, ProtocolConfig::Ieee1609Dot2(_))
    }

    /// Checks every value; the error names the key.
    pub fn check(&self) -> Result<(), ScenarioError> {
        in_range("duration_s", self.duration_s, 0.0, 3600.0)?;
        if self.receivers == 0 {
            return Err(invalid("receivers", "must be at least 1"));
        }
        in_range("rate_hz", self.rate_hz, 0.0, 10_000.0)?;
        if !(self.pseudonym_change_s >= 0.0 && self.pseudonym_change_s.is_finite()) {
            return Err(invalid(
                "pseudonym_change_s",
                format!("must be >= 0, got {}", self.pseudonym_change_s),
            ));
        }
        if self.pseudonym_change_s > 0.0 && !self.is_ieee1609_2() {
            return Err(invalid(
                "pseudonym_change_s",
                "rotates 1609.2 tickets: it needs protocol = \"ieee1609.2\"",
            ));
        }
        self.receiver.check().map_err(|(k, m)| invalid(k, m))?;
        if self.receiver.precheck && !self.is_ieee1609_2() {
            return Err(invalid(
                "receiver.precheck",
                "runs SN-DECAP's 1609.2 steps: it needs protocol = \"ieee1609.2\"",
            ));
        }
        if self.pki_service.is_some() && matches!(self.protocol, ProtocolConfig::ExperimentalPq(_)) {
            return Err(invalid(
                "pki_service",
                "the PKI service issues 1609.2 tickets (TS 102 941); the orchestrator issues the experimental \
                 post-quantum tickets: leave [pki_service] out with protocol = \"experimental-pq\"",
            ));
        }
        self.check_attackers()?;
        self.check_functional()?;
        self.check_plans()?;
        if let Some(m) = &self.misbehaviour {
            if !self.is_ieee1609_2() {
                return Err(invalid(
                    "misbehaviour",
                    "signs CAMs and reports with 1609.2 tickets and revokes through its CRL: it needs protocol = \"ieee1609.2\"",
                ));
            }
            m.check(self.receivers, self.senders)?;
        }
        let processes = self.senders + self.receivers + self.attackers.iter().map(|a| a.count).sum::<u32>();
        if processes > MAX_STATIONS {
            return Err(invalid(
                "attackers",
                format!("at most {MAX_STATIONS} station processes, got {processes}"),
            ));
        }
        self.medium.check(&self.station_names(), self.senders)
    }

    fn check_attackers(&self) -> Result<(), ScenarioError> {
        for a in &self.attackers {
            let code = a.case.code();
            if a.case.needs_ieee1609_2() && !self.is_ieee1609_2() {
                return Err(invalid(
                    "attackers.case",
                    format!("attacker {code} rests on 1609.2 certificates: it needs protocol = \"ieee1609.2\""),
                ));
            }
            let experimental_pq = matches!(self.protocol, ProtocolConfig::ExperimentalPq(_));
            if a.case.needs_experimental_pq() && !experimental_pq {
                return Err(invalid(
                    "attackers.case",
                    format!(
                        "attacker {code} is a downgrade only where receivers require a post-quantum design: it \
                         needs protocol = \"experimental-pq\""
                    ),
                ));
            }
            if experimental_pq && !a.case.runs_with_experimental_pq() {
                return Err(invalid(
                    "attackers.case",
                    format!(
                        "attacker {code} needs tickets the experimental post-quantum PKI does not issue (expired or \
                         1609.2-permission ones); with protocol = \"experimental-pq\" use A-SIG-01 … A-SIG-06 or \
                         classical-downgrade"
                    ),
                ));
            }
            if !(a.rate_hz > 0.0 && a.rate_hz <= 100_000.0) {
                return Err(invalid(
                    "attackers.rate_hz",
                    format!("attacker {code}: must be in (0, 100000], got {}", a.rate_hz),
                ));
            }
            if !(a.start_s >= 0.0 && a.start_s < self.duration_s) {
                return Err(invalid(
                    "attackers.start_s",
                    format!(
                        "attacker {code}: must be in [0, duration_s = {}), got {}",
                        self.duration_s, a.start_s
                    ),
                ));
            }
            if !(1..=MAX_SOURCE_ADDRESSES).contains(&a.source_addresses) {
                return Err(invalid(
                    "attackers.source_addresses",
                    format!(
                        "attacker {code}: must be in 1..={MAX_SOURCE_ADDRESSES}, got {}",
                        a.source_addresses
                    ),
                ));
            }
            if a.source_addresses > 1 && self.medium.kind != MediumKind::Loopback {
                return Err(invalid(
                    "attackers.source_addresses",
                    "several addresses per attacker are loopback addresses: they need medium.kind = \"loopback\"",
                ));
            }
            if a.case == Attack::CopiedCertificates && self.senders == 0 {
                return Err(invalid(
                    "attackers.case",
                    "copied-certificates copies the benign senders' certificates: it needs senders >= 1",
                ));
            }
        }
        Ok(())
    }

    fn check_functional(&self) -> Result<(), ScenarioError> {
        if !self.functional.is_empty() && self.medium.kind != MediumKind::Loopback {
            return Err(invalid(
                "functional",
                "[[functional]] cases run on loopback (paper 002's lab set-up; their stations have no position or \
                 namespace): remove them or use medium.kind = \"loopback\"",
            ));
        }
        for (i, f) in self.functional.iter().enumerate() {
            let code = f.case.code();
            if !self.is_ieee1609_2() {
                return Err(invalid(
                    "functional.case",
                    format!(
                        "functional case {code} is about 1609.2 pseudonyms and chains: it needs protocol = \"ieee1609.2\""
                    ),
                ));
            }
            let rate = f.rate(self.rate_hz);
            if !(rate > 0.0 && rate <= 10_000.0) {
                return Err(invalid(
                    "functional.rate_hz",
                    format!("functional {code}: must be in (0, 10000], got {rate}"),
                ));
            }
            if self.functional[..i].iter().any(|g| g.case == f.case) {
                return Err(invalid(
                    "functional.case",
                    format!("functional case {code} is listed twice"),
                ));
            }
        }
        Ok(())
    }

    fn check_plans(&self) -> Result<(), ScenarioError> {
        if let Some(p) = &self.load_plan {
            p.check()?;
        }
        if let Some(f) = &self.flood_search {
            f.check()?;
            if self.senders == 0 {
                return Err(invalid("flood_search", "measures benign loss: it needs senders >= 1"));
            }
            if self.receiver.defences().is_empty() {
                return Err(invalid(
                    "flood_search",
                    "compares the receiver without and with its defences: switch on at least one of \
                     rate_limit_per_source_hz, rate_limit_per_signer_hz, precheck, known_signers_first in [receiver]",
                ));
            }
        }
        if self.medium.kind == MediumKind::Emulator && (self.load_plan.is_some() || self.flood_search.is_some()) {
            return Err(invalid(
                "medium.kind",
                "[load_plan] and [flood_search] change the number of stations, whose positions medium.kind = \
                 \"emulator\" fixes: run them on loopback",
            ));
        }
        Ok(())
    }

    /// The station processes' names: `rx0..`, `tx0..`, then each attacker group's.
    pub fn station_names(&self) -> Vec<String> {
        let mut names: Vec<String> = (0..self.receivers).map(|i| format!("rx{i}")).collect();
        names.extend((0..self.senders).map(|i| format!("tx{i}")));
        for g in &self.attackers {
            names.extend((0..g.count).map(|i| attacker_name(g.case, i)));
        }
        names
    }
}

/// Station name of attacker `i` of `case`.
pub fn attacker_name(case: Attack, i: u32) -> String {
    format!("{}-{i}", case.code().to_lowercase())
}

/// A TOML error as `v2x sim` reports one: file, line and column, and the message.
fn syntax(file: &str, text: &str, e: &toml::de::Error) -> ScenarioError {
    let (line, column) = e.span().map_or((0, 0), |s| {
        let before = &text[..s.start.min(text.len())];
        let line = before.matches('\n').count() + 1;
        let column = before.rfind('\n').map_or(before.len(), |n| before.len() - n - 1) + 1;
        (line, column)
    });
    ScenarioError::Syntax {
        file: file.to_string(),
        line,
        column,
        message: e.message().to_string(),
    }
}

impl FloodSearch {
    pub fn check(&self) -> Result<(), ScenarioError> {
        if !(self.min_rate_hz > 0.0 && self.min_rate_hz < self.max_rate_hz && self.max_rate_hz <= 100_000.0) {
            return Err(invalid(
                "flood_search.min_rate_hz",
                format!(
                    "needs 0 < min_rate_hz < max_rate_hz <= 100000, got {} and {}",
                    self.min_rate_hz, self.max_rate_hz
                ),
            ));
        }
        if self.attackers == 0 || self.attackers > 50 {
            return Err(invalid(
                "flood_search.attackers",
                format!("must be in 1..=50, got {}", self.attackers),
            ));
        }
        if !(0.0..1.0).contains(&self.max_benign_loss) {
            return Err(invalid(
                "flood_search.max_benign_loss",
                format!("is a fraction in [0, 1), got {}", self.max_benign_loss),
            ));
        }
        if self.steps > 12 {
            return Err(invalid(
                "flood_search.steps",
                format!("must be at most 12, got {}", self.steps),
            ));
        }
        Ok(())
    }
}

impl LoadPlan {
    pub fn check(&self) -> Result<(), ScenarioError> {
        if self.senders.is_empty() || self.rates_hz.is_empty() {
            return Err(invalid(
                "load_plan",
                "needs at least one entry in senders and in rates_hz",
            ));
        }
        if let Some(s) = self.senders.iter().find(|&&s| s == 0 || s > 150) {
            return Err(invalid("load_plan.senders", format!("must be in 1..=150, got {s}")));
        }
        if let Some(r) = self.rates_hz.iter().find(|&&r| !(r > 0.0 && r <= 10_000.0)) {
            return Err(invalid("load_plan.rates_hz", format!("must be in (0, 10000], got {r}")));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: &str = "duration_s = 1.0\nsenders = 1\nrate_hz = 10.0\n[protocol]\nprotocol = \"ieee1609.2\"\n";

    #[test]
    fn errors_name_the_file_position_or_key() {
        // An unknown key in [protocol]: the error points at the table.
        let e = Scenario::parse(&format!("{BASE}foo = 3\n"), "x.toml").unwrap_err();
        assert!(matches!(e, ScenarioError::Syntax { line: 4, .. }), "{e}");
        assert!(
            e.to_string().starts_with("x.toml:4:") && e.to_string().contains("foo"),
            "{e}"
        );
        let e = Scenario::parse(&BASE.replace("duration_s = 1.0", "duration_s = -1.0"), "x").unwrap_err();
        assert!(
            matches!(&e, ScenarioError::Invalid { field, .. } if field == "duration_s"),
            "{e}"
        );
        let e = Scenario::parse(
            &format!("{BASE}[[attackers]]\ncase = \"A-SIG-04\"\nrate_hz = 10.0\nsource_addresses = 0\n"),
            "x",
        )
        .unwrap_err();
        assert!(e.to_string().contains("source_addresses"), "{e}");
        let e = Scenario::parse(&format!("{BASE}[receiver]\nrate_limit_per_signer_hz = -2.0\n"), "x").unwrap_err();
        assert!(e.to_string().contains("rate_limit_per_signer_hz"), "{e}");
    }
}
