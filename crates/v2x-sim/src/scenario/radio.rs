//! `[radio]`: 802.11p PHY at 10 MHz (power, sensitivity, preamble detection, CCA,
//! reception model, rate) and the channel models it contains.

use super::channel::{FadingConfig, PathLossConfig};
use super::check::{finite, nonneg, pos};
use crate::error::ScenarioError;
use serde::{Deserialize, Serialize};

/// How a locked frame is judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ReceptionModel {
    /// Success when the SINR stayed at or above `sinr_threshold_db` during the whole frame.
    SinrThreshold,
    /// Success drawn from the NIST OFDM error-rate model (BPSK/QPSK/QAM with convolutional
    /// coding), evaluated chunk by chunk as interference changes; the SIGNAL field first.
    NistErrorRate,
    /// Success drawn from ns-3's `TableBasedErrorRateModel` (AWGN packet-error tables, the
    /// default of ns-3 3.44), chunk by chunk; the SIGNAL field first.
    TableBased,
}

impl ReceptionModel {
    /// The chunk error-rate model (the SINR threshold uses none: NIST is prepared).
    pub fn error_rate_model(self) -> crate::phy::ErrorRateModel {
        match self {
            ReceptionModel::TableBased => crate::phy::ErrorRateModel::TableBased,
            _ => crate::phy::ErrorRateModel::Nist,
        }
    }
}

/// When the clear-channel assessment reports the medium busy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CcaModel {
    /// ns-3 3.44: while transmitting, and while the summed energy of every signal on the
    /// air is at or above `cca_sensitivity_dbm` (decodable or not).
    AggregateEnergy,
    /// The standard's CCA-SD and CCA-ED: while a frame whose preamble was detectable is on
    /// the air, or while the summed energy is at or above `cca_ed_threshold_dbm`.
    PreambleAndEnergy,
}

/// How signals that can never be decoded nor trigger the CCA at a receiver are counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WeakInterference {
    /// Every signal above the floor is an event at its receiver.
    PerReceiver,
    /// Signals from beyond the weak radius (where they reach neither the preamble nor the
    /// CCA threshold with probability 1e-6 or more) are summed per map cell of
    /// `weak_interference_cell_m` while on the air; receivers read their cell's sum when
    /// they evaluate SINR and CCA.
    Aggregate,
}

/// A named set of defaults for `[radio]` and `[mac]`; keys given in the file still win.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum RadioPreset {
    /// ns-3 3.44 (`WIFI_STANDARD_80211p`, `YansWifiPhy`, `AdhocWifiMac` defaults): the
    /// table-based error model, receive sensitivity -101 dBm normalised to 10 MHz
    /// (-104.01 dBm), CCA on the summed energy at -82 dBm normalised to 10 MHz
    /// (-85.01 dBm), a 4 µs preamble-detection window, and the DCF waiting a DIFS after a
    /// frame arrives at an idle medium.
    #[serde(rename = "ns-3.44")]
    Ns3_44,
}

impl RadioPreset {
    pub const NAMES: [&'static str; 1] = ["ns-3.44"];

    /// The `[radio]` and `[mac]` keys this preset sets.
    pub fn defaults(self) -> (RadioConfig, super::MacConfig) {
        match self {
            RadioPreset::Ns3_44 => (
                RadioConfig {
                    preset: Some(self),
                    reception_model: ReceptionModel::TableBased,
                    rx_sensitivity_dbm: -101.0 + HALF_WIDTH_DB,
                    cca_model: CcaModel::AggregateEnergy,
                    cca_sensitivity_dbm: -82.0 + HALF_WIDTH_DB,
                    cca_detection_us: 4.0,
                    ..RadioConfig::default()
                },
                super::MacConfig {
                    idle_access: super::mac::IdleAccess::AfterAifs,
                    ..super::MacConfig::default()
                },
            ),
        }
    }
}

/// 10 log10(10 MHz / 20 MHz): ns-3 gives sensitivities for 20 MHz and scales them.
const HALF_WIDTH_DB: f64 = -3.010_299_956_639_812;

/// PHY parameters (802.11p, 10 MHz).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RadioConfig {
    /// Defaults taken from a reference simulator (`ns-3.44`); keys given still win.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preset: Option<RadioPreset>,
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
    /// Preamble-detection window (µs): the receiver locks on the strongest preamble that
    /// arrived within it, judges its SNR at its end, and the CCA reports busy from then
    /// on (ns-3: 4 µs; 802.11 asks for detection within 8 µs at 10 MHz).
    pub cca_detection_us: f64,
    pub cca_model: CcaModel,
    /// `aggregate-energy`: the medium is busy while the summed energy is at or above this
    /// (the channel's width: ns-3's -82 dBm at 20 MHz is -85.01 dBm at 10 MHz).
    pub cca_sensitivity_dbm: f64,
    /// `preamble-and-energy`: energy-detection threshold, busy above it even without a
    /// preamble.
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
    /// `aggregate` (default) or `per-receiver` (see [`WeakInterference`]).
    pub weak_interference: WeakInterference,
    /// Side of the map cells over which `aggregate` sums weak signals (m).
    pub weak_interference_cell_m: f64,
    pub path_loss: PathLossConfig,
    pub fading: FadingConfig,
}

impl Default for RadioConfig {
    fn default() -> Self {
        RadioConfig {
            preset: None,
            tx_power_dbm: 20.0,
            frequency_hz: 5.9e9,
            channel_width_hz: 10e6,
            noise_figure_db: 7.0,
            rx_sensitivity_dbm: -101.0,
            preamble_min_rssi_dbm: -82.0,
            preamble_snr_threshold_db: 4.0,
            cca_detection_us: 4.0,
            cca_model: CcaModel::AggregateEnergy,
            cca_sensitivity_dbm: -82.0 + HALF_WIDTH_DB,
            cca_ed_threshold_dbm: -62.0,
            reception_model: ReceptionModel::NistErrorRate,
            sinr_threshold_db: 5.0,
            data_rate_mbps: 6.0,
            cutoff_range_m: 0.0,
            cutoff_fading_margin_db: 10.0,
            weak_interference: WeakInterference::Aggregate,
            weak_interference_cell_m: 100.0,
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
            ("radio.cca_sensitivity_dbm", r.cca_sensitivity_dbm),
            ("radio.sinr_threshold_db", r.sinr_threshold_db),
            ("radio.cutoff_fading_margin_db", r.cutoff_fading_margin_db),
        ] {
            finite(f, v)?;
        }
        pos("radio.frequency_hz", r.frequency_hz)?;
        pos("radio.channel_width_hz", r.channel_width_hz)?;
        nonneg("radio.cutoff_range_m", r.cutoff_range_m)?;
        nonneg("radio.cca_detection_us", r.cca_detection_us)?;
        pos("radio.weak_interference_cell_m", r.weak_interference_cell_m)?;
        if !(1.0..=10_000.0).contains(&r.weak_interference_cell_m) {
            return Err(ScenarioError::invalid(
                "radio.weak_interference_cell_m",
                "between 1 and 10000 m",
            ));
        }
        if r.cca_detection_us > 32.0 {
            return Err(ScenarioError::invalid(
                "radio.cca_detection_us",
                "at most 32 µs (the preamble)",
            ));
        }
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
