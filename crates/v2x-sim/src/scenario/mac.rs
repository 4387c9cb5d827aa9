//! `[mac]`: 802.11p OCB broadcast MAC (EDCA access categories, timing, queues).

use super::check::pos;
use crate::error::ScenarioError;
use serde::{Deserialize, Serialize};

/// EDCA access category of an application.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AccessCategory {
    /// 802.11p AC_BK: AIFSN 9, CW 15..1023.
    Background,
    /// 802.11p AC_BE: AIFSN 6, CW 15..1023.
    BestEffort,
    /// 802.11p AC_VI: AIFSN 3, CW 7..15.
    Video,
    /// 802.11p AC_VO: AIFSN 2, CW 3..7.
    Voice,
    /// Non-QoS DCF as in ns-3's AdhocWifiMac without QoS: AIFSN 2, CW 15..1023.
    LegacyDcf,
}

impl AccessCategory {
    /// (AIFSN, CWmin).
    pub fn parameters(self) -> (u32, u32) {
        match self {
            AccessCategory::Background => (9, 15),
            AccessCategory::BestEffort => (6, 15),
            AccessCategory::Video => (3, 7),
            AccessCategory::Voice => (2, 3),
            AccessCategory::LegacyDcf => (2, 15),
        }
    }

    pub fn index(self) -> usize {
        match self {
            AccessCategory::Background => 0,
            AccessCategory::BestEffort => 1,
            AccessCategory::Video => 2,
            AccessCategory::Voice => 3,
            AccessCategory::LegacyDcf => 4,
        }
    }
}

/// What a frame that finds the medium idle, with no backoff pending, waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum IdleAccess {
    /// 802.11 10.3.4.2: it goes as soon as the medium has been idle for AIFS (at once if it
    /// already has).
    Immediate,
    /// ns-3 3.44's DCF: it waits a full AIFS counted from its own arrival; should the
    /// medium turn busy meanwhile, it goes AIFS after the busy period, without backoff.
    AfterAifs,
}

/// MAC parameters (802.11p OCB broadcast, 10 MHz).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MacConfig {
    pub slot_us: f64,
    pub sifs_us: f64,
    pub idle_access: IdleAccess,
    /// Frames waiting longer than this in a MAC queue are dropped.
    pub queue_max_delay_ms: f64,
    pub queue_capacity_packets: u32,
    /// Bytes added to every frame below the security layer: MAC header 24 + FCS 4 + LLC/SNAP 8
    /// (use 64 to match ns-3 UDP/IPv4 broadcast: + IPv4 20 + UDP 8).
    pub mac_overhead_bytes: u32,
    /// Use EIFS instead of AIFS after a frame received with errors.
    pub use_eifs: bool,
}

impl Default for MacConfig {
    fn default() -> Self {
        MacConfig {
            slot_us: 13.0,
            sifs_us: 32.0,
            idle_access: IdleAccess::Immediate,
            queue_max_delay_ms: 500.0,
            queue_capacity_packets: 500,
            mac_overhead_bytes: 36,
            use_eifs: true,
        }
    }
}

impl MacConfig {
    /// AIFS of an access category: SIFS plus AIFSN slots (µs).
    pub fn aifs_us(&self, ac: AccessCategory) -> f64 {
        self.sifs_us + f64::from(ac.parameters().0) * self.slot_us
    }

    /// Checks value ranges; the error names the field.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        let m = self;
        pos("mac.slot_us", m.slot_us)?;
        pos("mac.sifs_us", m.sifs_us)?;
        pos("mac.queue_max_delay_ms", m.queue_max_delay_ms)?;
        if m.queue_capacity_packets == 0 {
            return Err(ScenarioError::invalid(
                "mac.queue_capacity_packets",
                "must be at least 1",
            ));
        }
        if m.mac_overhead_bytes > 4000 {
            return Err(ScenarioError::invalid("mac.mac_overhead_bytes", "at most 4000"));
        }
        Ok(())
    }
}
