//! `[misbehaviour]` (opt-in): after the scenario's own run, the closed loop of issue 33 —
//! insiders with valid tickets send real CAMs with lying content (`v2x-mbd`'s attacks),
//! receivers run `v2x-mbd`'s detector on the CAMs SN-DECAP accepted and report to a
//! misbehaviour authority (MA) in TS 103 759, the MA revokes through the PKI's CRL, and the
//! receivers drop the attacker once the CRL reaches them ([`crate::run::misbehaviour`]).
//! Its stations are the scenario's: `receivers`, `senders` (benign), `rate_hz`.

use serde::Deserialize;
use v2x_mbd::attacks::Attack;
use v2x_sim::error::ScenarioError;

fn invalid(field: &str, message: impl Into<String>) -> ScenarioError {
    ScenarioError::invalid(field, message)
}

/// The `[misbehaviour]` table.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MisbehaviourConfig {
    /// The lie, by `v2x-mbd`'s attack name (`constantPositionOffset`, `randomPositionOffset`,
    /// `feignedBraking`, `suddenStop`, `dataReplay`, ...; an unknown name lists them).
    pub attack: String,
    /// Insider attackers (each a station with valid tickets), default 1.
    #[serde(default = "one")]
    pub attackers: u32,
    /// The attackers tell the truth this long first, s: a receiver has heard them honestly
    /// before the lie starts (a lie from the first CAM on is a different experiment).
    pub start_s: f64,
    /// Sending time of each closed-loop run, s.
    pub duration_s: f64,
    /// Closed-loop runs (each with a fresh PKI): the latency intervals are over runs.
    pub runs: u32,
    /// Distinct reporters (tickets) the MA waits for before it revokes. No default: it
    /// trades speed against one receiver's false report revoking a benign station.
    pub min_reporters: u32,
    /// The receivers' detector: `full` (default: every check, the receiver evidence and
    /// sender-level fusion, as evaluated in docs/misbehaviour-detection.md),
    /// `plausibility` or `catch-reference`.
    #[serde(default = "default_detector")]
    pub detector: String,
    /// Seed of the attackers' draws (offsets, factors), default 1.
    #[serde(default = "one_u64")]
    pub seed: u64,
}

fn one() -> u32 {
    1
}
fn one_u64() -> u64 {
    1
}
fn default_detector() -> String {
    "full".into()
}

/// The detectors a receiver can run.
pub use v2x_mbd::detector::DETECTOR_NAMES as DETECTORS;

impl MisbehaviourConfig {
    /// The attack its name names.
    pub fn attack(&self) -> Result<Attack, ScenarioError> {
        Attack::from_name(&self.attack).map_err(|e| ScenarioError::invalid("misbehaviour.attack", e))
    }

    /// The receivers' detector configuration.
    pub fn detector(&self) -> Result<v2x_mbd::detector::DetectorConfig, ScenarioError> {
        v2x_mbd::detector::DetectorConfig::by_name(&self.detector)
            .map_err(|e| ScenarioError::invalid("misbehaviour.detector", e))
    }

    /// Checks every value against the scenario's `receivers` and `senders`.
    pub fn check(&self, receivers: u32, senders: u32) -> Result<(), ScenarioError> {
        self.attack()?;
        self.detector()?;
        if !(1..=20).contains(&self.attackers) {
            return Err(invalid(
                "misbehaviour.attackers",
                format!("must be in 1..=20, got {}", self.attackers),
            ));
        }
        if !(self.duration_s > 0.0 && self.duration_s <= 600.0) {
            return Err(invalid(
                "misbehaviour.duration_s",
                format!("must be in (0, 600], got {}", self.duration_s),
            ));
        }
        if !(self.start_s > 0.0 && self.start_s < self.duration_s) {
            return Err(invalid(
                "misbehaviour.start_s",
                format!("must be in (0, duration_s = {}), got {}", self.duration_s, self.start_s),
            ));
        }
        if !(1..=100).contains(&self.runs) {
            return Err(invalid(
                "misbehaviour.runs",
                format!("must be in 1..=100, got {}", self.runs),
            ));
        }
        if !(1..=receivers).contains(&self.min_reporters) {
            return Err(invalid(
                "misbehaviour.min_reporters",
                format!("must be in 1..=receivers = {receivers}, got {}", self.min_reporters),
            ));
        }
        if receivers + senders + self.attackers > 60 {
            return Err(invalid(
                "misbehaviour",
                "the closed loop runs every station as a thread of the orchestrator: at most 60 stations",
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(extra: &str) -> Result<MisbehaviourConfig, String> {
        let text = format!("attack = \"constantPositionOffset\"\nstart_s = 1.0\nduration_s = 3.0\nruns = 2\nmin_reporters = 1\n{extra}");
        let c: MisbehaviourConfig = toml::from_str(&text).map_err(|e| e.to_string())?;
        c.check(2, 2).map_err(|e| e.to_string())?;
        Ok(c)
    }

    #[test]
    fn unknown_names_list_the_valid_ones_and_values_are_checked() {
        assert!(config("").is_ok());
        let mut c = config("").unwrap();
        c.attack = "teleport".into();
        let e = c.check(2, 2).unwrap_err().to_string();
        assert!(
            e.contains("misbehaviour.attack") && e.contains("dataReplay") && e.contains("feignedBraking"),
            "{e}"
        );
        c.attack = "suddenStop".into();
        c.detector = "oracle".into();
        let e = c.check(2, 2).unwrap_err().to_string();
        assert!(e.contains("catch-reference"), "{e}");
        c.detector = "full".into();
        c.min_reporters = 3;
        assert!(c.check(2, 2).unwrap_err().to_string().contains("min_reporters"));
        c.min_reporters = 1;
        c.start_s = 3.0;
        assert!(c.check(2, 2).unwrap_err().to_string().contains("start_s"));
        let e = toml::from_str::<MisbehaviourConfig>(
            "attack = \"suddenStop\"\nstart_s = 1.0\nduration_s = 3.0\nruns = 2\n",
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("min_reporters"), "no default: {e}");
    }
}
