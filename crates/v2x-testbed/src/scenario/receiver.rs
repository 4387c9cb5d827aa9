//! `[receiver]`: a receiving station's verifier pool and its DoS defences, each a named
//! option, off by default (what each does: [`crate::run::station::defence`]).

use serde::{Deserialize, Serialize};

fn default_verifiers() -> u32 {
    2
}
fn default_queue() -> usize {
    1024
}
fn default_deadline() -> u64 {
    100
}

/// The receiver's verifier pool and DoS defences.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReceiverOptions {
    /// Threads verifying from the receiver's one queue, with one SN-DECAP state (replay
    /// window, certificate cache) between them.
    #[serde(default = "default_verifiers")]
    pub verifier_threads: u32,
    #[serde(default = "default_queue")]
    pub queue_capacity: usize,
    #[serde(default = "default_deadline")]
    pub deadline_ms: u64,
    /// Defence: token bucket per source IP address (every port of one address shares
    /// it), Hz (0 = off).
    #[serde(default)]
    pub rate_limit_per_source_hz: f64,
    /// Defence: token bucket per claimed signer for packets from addresses that have sent
    /// a packet that failed verification, Hz (0 = off).
    #[serde(default)]
    pub rate_limit_per_signer_hz: f64,
    /// Defence: SN-DECAP's read-only steps before a packet is queued (ieee1609.2 only).
    #[serde(default)]
    pub precheck: bool,
    /// Defence: packets of (signer, address) pairs whose last packet verified go first;
    /// addresses whose last verified packet failed go last.
    #[serde(default)]
    pub known_signers_first: bool,
    /// Cap of each known (signer, address) pair's priority share, Hz (0 = no cap).
    #[serde(default)]
    pub known_signer_rate_hz: f64,
    /// Lab setting: sleep this long after every decap that verified a signature (or
    /// whose protocol does not say), emulating a slower processor (0 = off).
    #[serde(default)]
    pub emulated_verify_cost_us: u64,
    /// `[receiver.verifier]`: `strategy = "plain"` (default) or `"precomputed"` (opt-in
    /// per-signer tables, with `build_after`, `max_bytes`, `window`, `max_tracked`).
    #[serde(default)]
    pub verifier: v2x_crypto::VerifyStrategy,
}

impl Default for ReceiverOptions {
    fn default() -> Self {
        ReceiverOptions {
            verifier_threads: default_verifiers(),
            queue_capacity: default_queue(),
            deadline_ms: default_deadline(),
            rate_limit_per_source_hz: 0.0,
            rate_limit_per_signer_hz: 0.0,
            precheck: false,
            known_signers_first: false,
            known_signer_rate_hz: 0.0,
            emulated_verify_cost_us: 0,
            verifier: v2x_crypto::VerifyStrategy::Plain,
        }
    }
}

impl ReceiverOptions {
    /// The defences switched on, by option name.
    pub fn defences(&self) -> Vec<String> {
        let mut d = Vec::new();
        if self.rate_limit_per_source_hz > 0.0 {
            d.push(format!("rate_limit_per_source_hz = {}", self.rate_limit_per_source_hz));
        }
        if self.rate_limit_per_signer_hz > 0.0 {
            d.push(format!("rate_limit_per_signer_hz = {}", self.rate_limit_per_signer_hz));
        }
        if self.precheck {
            d.push("precheck".into());
        }
        if self.known_signers_first {
            d.push("known_signers_first".into());
        }
        d
    }

    /// The same receiver with every defence off.
    pub fn undefended(&self) -> ReceiverOptions {
        ReceiverOptions {
            rate_limit_per_source_hz: 0.0,
            rate_limit_per_signer_hz: 0.0,
            precheck: false,
            known_signers_first: false,
            known_signer_rate_hz: 0.0,
            ..self.clone()
        }
    }

    /// Checks the values; the error names the key.
    pub fn check(&self) -> Result<(), (&'static str, String)> {
        let rates = [
            ("receiver.rate_limit_per_source_hz", self.rate_limit_per_source_hz),
            ("receiver.rate_limit_per_signer_hz", self.rate_limit_per_signer_hz),
            ("receiver.known_signer_rate_hz", self.known_signer_rate_hz),
        ];
        if let Some((key, v)) = rates.iter().find(|(_, v)| !(v.is_finite() && *v >= 0.0)) {
            return Err((key, format!("must be a rate >= 0 Hz (0 = off), got {v}")));
        }
        if !(1..=64).contains(&self.verifier_threads) {
            return Err((
                "receiver.verifier_threads",
                format!("must be in 1..=64, got {}", self.verifier_threads),
            ));
        }
        Ok(())
    }
}
