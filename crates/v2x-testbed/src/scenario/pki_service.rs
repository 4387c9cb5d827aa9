//! `[pki_service]` of a testbed scenario (opt-in): the senders' tickets come from a TS 102 941
//! PKI service the orchestrator starts, whose AA may be slow, down or flooded (what the run
//! does with it: `crate::run::pki_service`).

use serde::{Deserialize, Serialize};

/// How the AA behaves during the stations' start-up.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum AaCondition {
    #[default]
    Normal,
    Slow,
    Down,
    Flood,
}

fn four() -> usize {
    4
}
fn two_s() -> u64 {
    2000
}
fn flood_rate() -> f64 {
    2000.0
}
fn timeout_s() -> f64 {
    5.0
}
fn three() -> u32 {
    3
}

/// `[pki_service]` of a testbed scenario.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PkiServiceConfig {
    /// Tickets each sender asks for.
    #[serde(default = "four")]
    pub tickets: usize,
    #[serde(default)]
    pub aa: AaCondition,
    /// `slow`: the AA's delay per answer, ms.
    #[serde(default = "two_s")]
    pub aa_delay_ms: u64,
    /// `flood`: junk requests per second at the AA.
    #[serde(default = "flood_rate")]
    pub flood_rate_hz: f64,
    /// A station gives a request up after this long, s.
    #[serde(default = "timeout_s")]
    pub request_timeout_s: f64,
    /// Attempts per request before a station gives up (transient failures only: unreachable,
    /// overloaded, timed out).
    #[serde(default = "three")]
    pub attempts: u32,
}
