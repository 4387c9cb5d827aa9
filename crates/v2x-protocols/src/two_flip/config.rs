//! Parameters of 2FLIP.

use serde::{Deserialize, Serialize};

/// Parameters of 2FLIP.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TwoFlipConfig {
    pub freshness_window_ms: u32,
    pub max_future_ms: u32,
    pub replay_detection: bool,
    pub replay_cache_capacity: usize,
    /// How long receivers still accept the previous epoch after a key update, ms.
    pub epoch_grace_ms: u64,
}

impl Default for TwoFlipConfig {
    fn default() -> Self {
        TwoFlipConfig {
            freshness_window_ms: 500,
            max_future_ms: 100,
            replay_detection: true,
            replay_cache_capacity: 65_536,
            epoch_grace_ms: 0,
        }
    }
}
