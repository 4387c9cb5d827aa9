//! `[access]` (which access layer the stations use) and `[sidelink]` (LTE-V2X Mode 4:
//! resource pool, MCS, sensing-based semi-persistent scheduling, reception).

mod nr;

pub use nr::{McsTable, NrConfig, PreEmption, NR_DEFAULT_IMPLEMENTATION_LOSS_DB, NR_MAX_MCS, NR_SUBCHANNEL_SIZES};

use super::check::{finite, nonneg, pos};
use crate::error::ScenarioError;
use serde::{Deserialize, Serialize};

/// Highest PSSCH MCS index supported (16-QAM; Rel-14 sidelink UEs without 64-QAM).
pub const MAX_MCS: u8 = 20;

/// A BLER-SINR curve.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum BlerCurve {
    /// R1-160284, 190 B, QPSK r = 0.7, 280 km/h.
    #[serde(rename = "r1-160284-qpsk-r0.7")]
    QpskR07,
    /// R1-160284, 190 B, QPSK r = 0.5, 280 km/h.
    #[serde(rename = "r1-160284-qpsk-r0.5")]
    QpskR05,
}

impl BlerCurve {
    pub const NAMES: [&'static str; 2] = ["r1-160284-qpsk-r0.7", "r1-160284-qpsk-r0.5"];

    /// The curve published for `mcs`, if any (MCS 9: QPSK r = 0.7 on 10 PRBs; the curves
    /// themselves are in `crate::sidelink::bler`).
    pub fn for_mcs(mcs: u8) -> Option<BlerCurve> {
        (mcs == 9).then_some(BlerCurve::QpskR07)
    }
}

/// The radio access technology of every station.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AccessKind {
    /// IEEE 802.11p / ITS-G5: EDCA on the `[radio]` and `[mac]` tables (the default).
    #[default]
    ItsG5,
    /// 3GPP Rel-14 LTE-V2X sidelink, Mode 4 (sensing-based SPS): the `[sidelink]` table.
    LteV2xMode4,
    /// 3GPP Rel-16 NR-V2X sidelink, Mode 2 (sensing-based selection, re-evaluation): the
    /// `[sidelink]` table's shared keys and `[sidelink.nr]`.
    NrV2xMode2,
}

impl AccessKind {
    pub const NAMES: [&'static str; 3] = ["its-g5", "lte-v2x-mode4", "nr-v2x-mode2"];

    /// Whether the stations use a sidelink (`crate::sidelink`) rather than 802.11p.
    pub fn is_sidelink(self) -> bool {
        matches!(self, AccessKind::LteV2xMode4 | AccessKind::NrV2xMode2)
    }

    /// The name a scenario gives it.
    pub fn name(self) -> &'static str {
        match self {
            AccessKind::ItsG5 => Self::NAMES[0],
            AccessKind::LteV2xMode4 => Self::NAMES[1],
            AccessKind::NrV2xMode2 => Self::NAMES[2],
        }
    }
}

/// `[access]`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AccessConfig {
    pub kind: AccessKind,
}

/// What a station does when a packet's size does not match its reservation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ReservationPolicy {
    /// TS 36.321 §5.14.1.1: a packet that does not fit the reserved sub-channels triggers
    /// a new selection sized for it (its counter drawn anew); a smaller one is sent in the
    /// reserved sub-channels (padded).
    #[default]
    ReselectOnSizeChange,
    /// Every reservation is sized for the largest packet the protocol sends (the message
    /// with its certificate): a size change never triggers a reselection.
    ReserveLargest,
    /// Reservations are sized for the packet that made them; a packet that does not fit is
    /// sent once on a resource selected for it alone (announced without a reservation) and
    /// the reservation is kept (SAE J3161/1 practice).
    OneShotOversize,
}

impl ReservationPolicy {
    pub const NAMES: [&'static str; 3] = ["reselect-on-size-change", "reserve-largest", "one-shot-oversize"];
}

/// `[sidelink]`: LTE-V2X Mode 4. Power, frequency, noise figure, path loss and fading come
/// from `[radio]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SidelinkConfig {
    /// Channel bandwidth: 10 (50 PRBs) or 20 MHz (100 PRBs).
    pub bandwidth_mhz: u32,
    /// PRBs per sub-channel (TS 36.331 sizeSubchannel: 4, 5, 6, 8, 9, 10, 12, 15, 16, 18,
    /// 20, 25, 30, 48, 50, 72, 75, 96, 100); the pool has floor(PRBs / size) sub-channels.
    pub subchannel_size_prb: u32,
    /// PSSCH MCS index, 0..=20 (QPSK, 16-QAM).
    pub mcs: u8,
    /// The BLER-SINR curve; by default the one published for the MCS (MCS 9), otherwise
    /// it must be named.
    pub bler_curve: Option<BlerCurve>,
    /// Extra bytes per packet below the message (PDCP/RLC/MAC headers); 0 counts packet
    /// sizes as the analytical model and the papers do.
    pub l2_overhead_bytes: u32,
    /// Resource reservation interval (ms): 20, 50 or 100..=1000 in steps of 100.
    pub rri_ms: u32,
    /// Selection window [T1, T2] after the packet's arrival (ms); T1 in 1..=4, T2 in
    /// 20..=RRI (TS 36.213 §14.1.1.6).
    pub selection_window_ms: [u32; 2],
    /// Reselection counter drawn uniformly in [lo, hi] (5..=15 at a 100 ms RRI).
    pub reselection_counter: [u32; 2],
    /// Probability of keeping the resource when the counter reaches zero (0..=0.8).
    pub prob_resource_keep: f64,
    /// Initial RSRP exclusion threshold (dBm, the received power of the reserving
    /// transmission over its PRBs, as the analytical model counts it); raised by 3 dB until
    /// at least `min_candidate_share` of the candidates remain.
    pub rsrp_threshold_dbm: f64,
    /// Share of the candidates that must survive the exclusion and that forms the pick set
    /// (0.2 in TS 36.213).
    pub min_candidate_share: f64,
    /// A transmission received below this power (dBm) is not detected: its SCI and data
    /// are lost ("sensing" losses of the analytical model; -90.5 dBm there).
    pub sensing_threshold_dbm: f64,
    /// Log-normal shadowing standard deviation (dB), drawn per transmission and receiver.
    pub shadowing_sd_db: f64,
    /// S-RSSI threshold of the channel busy ratio (dBm per sub-channel, TS 36.214 §5.1.30).
    pub cbr_threshold_dbm: f64,
    pub reservation_policy: ReservationPolicy,
    /// NR-V2X Mode 2's own keys (`[sidelink.nr]`; with `kind = "nr-v2x-mode2"`, defaults
    /// when absent).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nr: Option<NrConfig>,
}

impl Default for SidelinkConfig {
    fn default() -> Self {
        SidelinkConfig {
            bandwidth_mhz: 10,
            subchannel_size_prb: 12,
            mcs: 9,
            bler_curve: None,
            l2_overhead_bytes: 0,
            rri_ms: 100,
            selection_window_ms: [1, 100],
            reselection_counter: [5, 15],
            prob_resource_keep: 0.0,
            rsrp_threshold_dbm: -90.5,
            min_candidate_share: 0.2,
            sensing_threshold_dbm: -90.5,
            shadowing_sd_db: 3.0,
            cbr_threshold_dbm: -94.0,
            reservation_policy: ReservationPolicy::default(),
            nr: None,
        }
    }
}

/// TS 36.331 SL-CommResourcePoolV2X-r14 sizeSubchannel-r14 values.
pub const SUBCHANNEL_SIZES: [u32; 19] = [4, 5, 6, 8, 9, 10, 12, 15, 16, 18, 20, 25, 30, 48, 50, 72, 75, 96, 100];

impl SidelinkConfig {
    /// PRBs of the channel.
    pub fn channel_prbs(&self) -> u32 {
        self.bandwidth_mhz * 5
    }

    /// Sub-channels of the pool.
    pub fn subchannels(&self) -> u32 {
        self.channel_prbs() / self.subchannel_size_prb.max(1)
    }

    /// The BLER curve in use.
    pub fn curve(&self) -> Result<BlerCurve, ScenarioError> {
        self.bler_curve.or_else(|| BlerCurve::for_mcs(self.mcs)).ok_or_else(|| {
            ScenarioError::invalid(
                "sidelink.bler_curve",
                format!(
                    "no published BLER curve for MCS {}: name one of {}",
                    self.mcs,
                    BlerCurve::NAMES.join(", ")
                ),
            )
        })
    }

    /// NR-V2X Mode 2's keys (defaults when `[sidelink.nr]` is absent).
    pub fn nr(&self) -> NrConfig {
        self.nr.clone().unwrap_or_default()
    }

    /// The keys for `kind`: Mode 4 reads every LTE key; Mode 2 the shared ones and
    /// `[sidelink.nr]`, and refuses an LTE-only key set away from its default (it would be
    /// ignored).
    pub fn validate_for(&self, kind: AccessKind) -> Result<(), ScenarioError> {
        if kind != AccessKind::NrV2xMode2 {
            if self.nr.is_some() {
                return Err(ScenarioError::invalid(
                    "sidelink.nr",
                    "[sidelink.nr] is read with access.kind = \"nr-v2x-mode2\" only",
                ));
            }
            return self.validate();
        }
        let lte = SidelinkConfig::default();
        for (field, same) in [
            ("bandwidth_mhz", self.bandwidth_mhz == lte.bandwidth_mhz),
            (
                "subchannel_size_prb",
                self.subchannel_size_prb == lte.subchannel_size_prb,
            ),
            ("mcs", self.mcs == lte.mcs),
            ("bler_curve", self.bler_curve == lte.bler_curve),
            ("rri_ms", self.rri_ms == lte.rri_ms),
            (
                "selection_window_ms",
                self.selection_window_ms == lte.selection_window_ms,
            ),
            (
                "min_candidate_share",
                self.min_candidate_share == lte.min_candidate_share,
            ),
        ] {
            if !same {
                return Err(ScenarioError::invalid(
                    format!("sidelink.{field}"),
                    "an LTE-V2X key: with access.kind = \"nr-v2x-mode2\" set sidelink.nr's keys instead (docs/cv2x.md)",
                ));
            }
        }
        self.nr().validate()?;
        self.validate_shared()
    }

    pub fn validate(&self) -> Result<(), ScenarioError> {
        if ![10, 20].contains(&self.bandwidth_mhz) {
            return Err(ScenarioError::invalid("sidelink.bandwidth_mhz", "10 or 20"));
        }
        if !SUBCHANNEL_SIZES.contains(&self.subchannel_size_prb) || self.subchannels() == 0 {
            return Err(ScenarioError::invalid(
                "sidelink.subchannel_size_prb",
                format!(
                    "one of {:?} PRBs, at most the channel's {}",
                    SUBCHANNEL_SIZES,
                    self.channel_prbs()
                ),
            ));
        }
        if self.mcs > MAX_MCS {
            return Err(ScenarioError::invalid(
                "sidelink.mcs",
                format!("0..={MAX_MCS} (QPSK, 16-QAM)"),
            ));
        }
        self.curve()?;
        let rri_ok =
            matches!(self.rri_ms, 20 | 50) || (100..=1000).contains(&self.rri_ms) && self.rri_ms.is_multiple_of(100);
        if !rri_ok {
            return Err(ScenarioError::invalid(
                "sidelink.rri_ms",
                "20, 50 or 100..=1000 in steps of 100",
            ));
        }
        let [t1, t2] = self.selection_window_ms;
        if !(1..=4).contains(&t1) || t2 < 20.min(self.rri_ms) || t2 > self.rri_ms || t2 < t1 {
            return Err(ScenarioError::invalid(
                "sidelink.selection_window_ms",
                "[T1, T2] with T1 in 1..=4 and T2 in 20..=rri_ms",
            ));
        }
        if !(self.min_candidate_share > 0.0 && self.min_candidate_share <= 1.0) {
            return Err(ScenarioError::invalid("sidelink.min_candidate_share", "in (0, 1]"));
        }
        self.validate_shared()
    }

    /// The keys both sidelinks read.
    fn validate_shared(&self) -> Result<(), ScenarioError> {
        let [lo, hi] = self.reselection_counter;
        if lo == 0 || hi < lo || hi > 1000 {
            return Err(ScenarioError::invalid(
                "sidelink.reselection_counter",
                "[lo, hi] with 1 <= lo <= hi <= 1000",
            ));
        }
        if !(0.0..=0.8).contains(&self.prob_resource_keep) {
            return Err(ScenarioError::invalid("sidelink.prob_resource_keep", "0..=0.8"));
        }
        finite("sidelink.rsrp_threshold_dbm", self.rsrp_threshold_dbm)?;
        finite("sidelink.sensing_threshold_dbm", self.sensing_threshold_dbm)?;
        finite("sidelink.cbr_threshold_dbm", self.cbr_threshold_dbm)?;
        nonneg("sidelink.shadowing_sd_db", self.shadowing_sd_db)?;
        pos("sidelink.bandwidth_mhz", f64::from(self.bandwidth_mhz))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_validate_and_bad_values_name_their_field() {
        let c = SidelinkConfig::default();
        c.validate().unwrap();
        assert_eq!((c.channel_prbs(), c.subchannels()), (50, 4));
        let bad = |f: fn(&mut SidelinkConfig), field: &str| {
            let mut c = SidelinkConfig::default();
            f(&mut c);
            let e = c.validate().unwrap_err().to_string();
            assert!(e.contains(field), "{e}");
        };
        bad(|c| c.bandwidth_mhz = 5, "bandwidth_mhz");
        bad(|c| c.subchannel_size_prb = 7, "subchannel_size_prb");
        bad(|c| c.subchannel_size_prb = 72, "subchannel_size_prb");
        bad(|c| c.mcs = 7, "bler_curve");
        bad(|c| c.mcs = 25, "mcs");
        bad(|c| c.rri_ms = 150, "rri_ms");
        bad(|c| c.selection_window_ms = [0, 100], "selection_window_ms");
        bad(|c| c.prob_resource_keep = 0.9, "prob_resource_keep");
        let mut c = SidelinkConfig {
            mcs: 7,
            bler_curve: Some(BlerCurve::QpskR05),
            ..Default::default()
        };
        c.validate().unwrap();
        c.bandwidth_mhz = 20;
        assert_eq!(c.subchannels(), 8);
    }

    #[test]
    fn unknown_names_list_the_valid_ones() {
        let e = toml::from_str::<AccessConfig>("kind = \"nr\"").unwrap_err().to_string();
        for n in AccessKind::NAMES {
            assert!(e.contains(n), "{e}");
        }
        let e = toml::from_str::<SidelinkConfig>("reservation_policy = \"x\"")
            .unwrap_err()
            .to_string();
        for n in ReservationPolicy::NAMES {
            assert!(e.contains(n), "{e}");
        }
        let e = toml::from_str::<SidelinkConfig>("bler_curve = \"x\"")
            .unwrap_err()
            .to_string();
        for n in BlerCurve::NAMES {
            assert!(e.contains(n), "{e}");
        }
    }
}
