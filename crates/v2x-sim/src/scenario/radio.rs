//! `[radio]`: 802.11p PHY at 10 MHz (power, sensitivity, preamble detection, CCA,
//! reception model, rate) and the channel models it contains.

use super::channel::{FadingConfig, PathLossConfig};
use super::check::{finite, nonneg, pos};
use crate::error::ScenarioError;
use serde::{Deserialize, Serialize};

/// How a locked frame is judged at its end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ReceptionModel {
    /// Success when the SINR stayed at or above `sinr_threshold_db` during the whole frame.
    SinrThreshold,
    /// Success drawn from the NIST OFDM error-rate model (BPSK/QPSK/QAM with convolutional
    /// coding), evaluated chunk by chunk as interference changes.
    NistErrorRate,
}

/// PHY parameters (802.11p, 10 MHz).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RadioConfig {
    pub tx_power_dbm: f64,
    pub frequency_hz: f64,
    pub channel_width_hz: f64,
    pub noise_figure_db: f64,
    /// Signals weaker than this are neither received nor counted as interference.
    pub rx_sensitivity_dbm: f64,
    /// Minimum RSSI to detect a preamble and lock on a frame (ns-3 ThresholdPreambleDetection).
    pub preamble_min_rssi_dbm: f64,
    /// Minimum SNR to detect a preamble.
    pub preamble_snr_threshold_db: f64,
    /// Energy-detection threshold: the medium is busy above it even without a preamble.
    pub cca_ed_threshold_dbm: f64,
    pub reception_model: ReceptionModel,
    /// Used by the `sinr-threshold` reception model.
    pub sinr_threshold_db: f64,
    /// 3, 4.5, 6, 9, 12, 18, 24 or 27.
    pub data_rate_mbps: f64,
    /// Neighbour search radius; 0 derives it from the path loss, the sensitivity and
    /// `cutoff_fading_margin_db`.
    pub cutoff_range_m: f64,
    /// Fading headroom used when deriving the cutoff range.
    pub cutoff_fading_margin_db: f64,
    pub path_loss: PathLossConfig,
    pub fading: FadingConfig,
}

impl Default for RadioConfig {
    fn default() -> Self {
        RadioConfig {
            tx_power_dbm: 20.0,
            frequency_hz: 5.9e9,
            channel_width_hz: 10e6,
            noise_figure_db: 7.0,
            rx_sensitivity_dbm: -101.0,
            preamble_min_rssi_dbm: -82.0,
            preamble_snr_threshold_db: 4.0,
            cca_ed_threshold_dbm: -62.0,
            reception_model: ReceptionModel::NistErrorRate,
            sinr_threshold_db: 5.0,
            data_rate_mbps: 6.0,
            cutoff_range_m: 0.0,
            cutoff_fading_margin_db: 10.0,
            path_loss: PathLossConfig::default(),
            fading: FadingConfig::default(),
        }
    }
}

impl RadioConfig {
    /// Checks value ranges; the error names the field.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        let r = self;
        for (f, v) in [
            ("radio.tx_power_dbm", r.tx_power_dbm),
            ("radio.noise_figure_db", r.noise_figure_db),
            ("radio.rx_sensitivity_dbm", r.rx_sensitivity_dbm),
            ("radio.preamble_min_rssi_dbm", r.preamble_min_rssi_dbm),
            ("radio.preamble_snr_threshold_db", r.preamble_snr_threshold_db),
            ("radio.cca_ed_threshold_dbm", r.cca_ed_threshold_dbm),
            ("radio.sinr_threshold_db", r.sinr_threshold_db),
            ("radio.cutoff_fading_margin_db", r.cutoff_fading_margin_db),
        ] {
            finite(f, v)?;
        }
        pos("radio.frequency_hz", r.frequency_hz)?;
        pos("radio.channel_width_hz", r.channel_width_hz)?;
        nonneg("radio.cutoff_range_m", r.cutoff_range_m)?;
        if crate::phy::bits_per_symbol(r.data_rate_mbps).is_none() {
            return Err(ScenarioError::invalid(
                "radio.data_rate_mbps",
                format!(
                    "{} is not an 802.11p 10 MHz rate (3, 4.5, 6, 9, 12, 18, 24, 27)",
                    r.data_rate_mbps
                ),
            ));
        }
        self.path_loss.validate()?;
        self.fading.validate()
    }
}
