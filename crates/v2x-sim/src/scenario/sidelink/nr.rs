//! `[sidelink.nr]`: what NR-V2X Mode 2 (3GPP Rel-16, `[access] kind = "nr-v2x-mode2"`)
//! sets differently from LTE-V2X Mode 4. The keys both share (counter, probResourceKeep,
//! RSRP and sensing thresholds, shadowing, CBR threshold, reservation policy, layer-2
//! overhead) stay in `[sidelink]`; docs/cv2x.md compares the two key by key.

use crate::error::ScenarioError;
use serde::{Deserialize, Serialize};

/// Highest MCS of Table 5.1.3.1-1 the NR BLER model (the sidelink's `nr_bler`) is used for
/// (16-QAM; 64-QAM would need the modulation-constrained capacity).
pub const NR_MAX_MCS: u8 = 16;

/// Default implementation loss (dB) of the NR BLER model against the Gaussian-input normal
/// approximation: 1 dB for the NR LDPC code with belief-propagation decoding at code blocks
/// of 10³ bits, plus 0.5 dB for QPSK's and 16-QAM's capacity below the Gaussian input's at
/// MCS 9..=16 (docs/cv2x.md, "BLER model (NR)").
pub const NR_DEFAULT_IMPLEMENTATION_LOSS_DB: f64 = 1.5;

/// TS 38.214 MCS index table of the PSSCH (`sl-Additional-MCS-Table` absent: Table 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum McsTable {
    /// Table 5.1.3.1-1 (up to 64-QAM, MCS 0..=28).
    #[default]
    Qam64,
    /// Table 5.1.3.1-2 (up to 256-QAM, MCS 0..=27).
    Qam256,
}

impl McsTable {
    pub const NAMES: [&'static str; 2] = ["qam64", "qam256"];
}

/// Pre-emption of reserved resources (TS 38.214 §8.1.4, `sl-PreemptionEnable`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PreEmption {
    /// `sl-PreemptionEnable` not provided (the standard's default): no pre-emption check.
    #[default]
    Disabled,
    /// `sl-PreemptionEnable = enabled`: a signalled reservation is given up when a
    /// higher-priority SCI (prio_TX > prio_RX) excludes it.
    Enabled,
}

impl PreEmption {
    pub const NAMES: [&'static str; 2] = ["disabled", "enabled"];
}

/// `[sidelink.nr]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct NrConfig {
    /// Numerology µ: 0, 1, 2 (15, 30, 60 kHz sub-carrier spacing; slots of 1, 0.5,
    /// 0.25 ms, 14 symbols).
    pub numerology: u8,
    /// Channel bandwidth (MHz), band n47: 10, 20, 30, 40 (PRBs from TS 38.101-1 Table
    /// 5.3.2-1 at the numerology's spacing).
    pub bandwidth_mhz: u32,
    /// PRBs per sub-channel (TS 38.331 sl-SubchannelSize: 10, 12, 15, 20, 25, 50, 75, 100).
    pub subchannel_size_prb: u32,
    pub mcs_table: McsTable,
    /// PSSCH MCS index in `mcs_table`.
    pub mcs: u8,
    /// PSCCH symbols (sl-TimeResourcePSCCH: 2 or 3).
    pub pscch_symbols: u32,
    /// PSCCH PRBs (sl-FreqResourcePSCCH: 10, 12, 15, 20, 25; at most a sub-channel).
    pub pscch_prbs: u32,
    /// PSSCH DMRS symbols (sl-PSSCH-DMRS-TimePatternList: 2, 3, 4).
    pub dmrs_symbols: u32,
    /// PSFCH period in slots (sl-PSFCH-Period: 0 = no PSFCH, 1, 2, 4).
    pub psfch_period_slots: u32,
    /// sl-X-Overhead: REs per PRB taken off (0, 3, 6, 9).
    pub x_overhead: u32,
    /// beta_offset of the 2nd-stage SCI (TS 38.213 Table 9.3-2; 1.125 is its first entry).
    pub sci2_beta_offset: f64,
    /// sl-Scaling alpha of the 2nd-stage SCI (0.5, 0.65, 0.8, 1).
    pub sci2_alpha: f64,
    /// Sensing window T0 (ms, sl-SensingWindow: 100 or 1100).
    pub sensing_window_ms: u32,
    /// T1 of the selection window (slots; 0..=T_proc,1).
    pub t1_slots: u32,
    /// T2 of the selection window (ms; T2min <= T2 <= packet_delay_budget_ms).
    pub t2_ms: u32,
    /// T2min (ms, sl-SelectionWindowList: 1, 5, 10, 20).
    pub t2min_ms: u32,
    /// Packet delay budget (ms): the latest T2.
    pub packet_delay_budget_ms: u32,
    /// sl-ResourceReservePeriodList (ms): 0, 1..=99, 100..=1000 in steps of 100.
    pub reservation_periods_ms: Vec<u32>,
    /// The stations' reservation period (ms): one of `reservation_periods_ms`, not 0.
    pub rri_ms: u32,
    /// X: share of the candidates that must remain after the exclusion (sl-TxPercentageList:
    /// 0.2, 0.35, 0.5).
    pub min_candidate_share: f64,
    /// Re-evaluation of a selected resource T3 = T_proc,1 before its first (not yet
    /// signalled) transmission.
    pub re_evaluation: bool,
    pub pre_emption: PreEmption,
    /// Blind retransmissions per packet (0: none).
    pub blind_retransmissions: u32,
    /// Implementation loss (dB) against the normal approximation of the BLER model
    /// (the sidelink's `nr_bler`; default 1.5: the LDPC code and the modulation).
    pub implementation_loss_db: f64,
}

impl Default for NrConfig {
    fn default() -> Self {
        NrConfig {
            numerology: 1,
            bandwidth_mhz: 20,
            subchannel_size_prb: 10,
            mcs_table: McsTable::Qam64,
            mcs: 12,
            pscch_symbols: 2,
            pscch_prbs: 10,
            dmrs_symbols: 2,
            psfch_period_slots: 0,
            x_overhead: 0,
            sci2_beta_offset: 1.125,
            sci2_alpha: 1.0,
            sensing_window_ms: 1100,
            t1_slots: 1,
            t2_ms: 100,
            t2min_ms: 20,
            packet_delay_budget_ms: 100,
            reservation_periods_ms: vec![100],
            rri_ms: 100,
            min_candidate_share: 0.2,
            re_evaluation: true,
            pre_emption: PreEmption::Disabled,
            blind_retransmissions: 0,
            implementation_loss_db: NR_DEFAULT_IMPLEMENTATION_LOSS_DB,
        }
    }
}

/// TS 38.331 sl-SubchannelSize values (PRBs).
pub const NR_SUBCHANNEL_SIZES: [u32; 8] = [10, 12, 15, 20, 25, 50, 75, 100];

/// TS 38.101-1 Table 5.3.2-1: PRBs of a 10, 20, 30, 40 MHz channel at 15, 30, 60 kHz.
const CHANNEL_PRBS: [(u32, [u32; 3]); 4] = [
    (10, [52, 24, 11]),
    (20, [106, 51, 24]),
    (30, [160, 78, 38]),
    (40, [216, 106, 51]),
];

/// T_proc,0 and T_proc,1 in slots (TS 38.214 Table 8.1.4-1 and -2) per numerology.
const T_PROC0: [u32; 3] = [1, 1, 2];
const T_PROC1: [u32; 3] = [3, 5, 9];

impl NrConfig {
    /// Slots per millisecond (2^µ).
    pub fn slots_per_ms(&self) -> u32 {
        1 << self.numerology
    }

    /// Slot length (ns).
    pub fn slot_ns(&self) -> u64 {
        1_000_000 >> self.numerology
    }

    /// Sub-carrier spacing (Hz).
    pub fn scs_hz(&self) -> f64 {
        15e3 * f64::from(self.slots_per_ms())
    }

    /// PRBs of the channel, if the bandwidth is one of n47's.
    pub fn channel_prbs(&self) -> Option<u32> {
        let mu = usize::from(self.numerology);
        CHANNEL_PRBS
            .iter()
            .find(|(b, _)| *b == self.bandwidth_mhz)
            .and_then(|(_, p)| p.get(mu).copied())
    }

    pub fn subchannels(&self) -> u32 {
        self.channel_prbs().unwrap_or(0) / self.subchannel_size_prb.max(1)
    }

    /// T_proc,0 (slots): the last slots before a selection whose SCIs it cannot use yet.
    pub fn t_proc0(&self) -> u32 {
        T_PROC0[usize::from(self.numerology.min(2))]
    }

    /// T_proc,1 (slots): the latest T1, and T3 of the re-evaluation.
    pub fn t_proc1(&self) -> u32 {
        T_PROC1[usize::from(self.numerology.min(2))]
    }

    /// Milliseconds in slots.
    pub fn slots(&self, ms: u32) -> u32 {
        ms * self.slots_per_ms()
    }

    pub fn validate(&self) -> Result<(), ScenarioError> {
        let bad = |field: &str, msg: String| Err(ScenarioError::invalid(format!("sidelink.nr.{field}"), msg));
        if self.numerology > 2 {
            return bad("numerology", "0, 1 or 2 (15, 30, 60 kHz)".into());
        }
        if self.channel_prbs().is_none() {
            return bad("bandwidth_mhz", "10, 20, 30 or 40 (band n47)".into());
        }
        if !NR_SUBCHANNEL_SIZES.contains(&self.subchannel_size_prb) || self.subchannels() == 0 {
            return bad(
                "subchannel_size_prb",
                format!(
                    "one of {NR_SUBCHANNEL_SIZES:?} PRBs, at most the channel's {}",
                    self.channel_prbs().unwrap_or(0)
                ),
            );
        }
        let max_mcs = match self.mcs_table {
            McsTable::Qam64 => 28,
            McsTable::Qam256 => 27,
        };
        if self.mcs > max_mcs {
            return bad("mcs", format!("0..={max_mcs} in {:?}", self.mcs_table));
        }
        if self.mcs_table != McsTable::Qam64 || self.mcs > NR_MAX_MCS {
            return bad(
                "mcs",
                format!(
                    "the BLER model (Gaussian-input normal approximation, the sidelink's nr_bler) \
                     is used for MCS 0..={} of table qam64 only (QPSK, 16-QAM)",
                    NR_MAX_MCS
                ),
            );
        }
        if !(0.0..=10.0).contains(&self.implementation_loss_db) {
            return bad("implementation_loss_db", "0..=10 dB".into());
        }
        if !(2..=3).contains(&self.pscch_symbols) {
            return bad("pscch_symbols", "2 or 3".into());
        }
        if ![10, 12, 15, 20, 25].contains(&self.pscch_prbs) || self.pscch_prbs > self.subchannel_size_prb {
            return bad("pscch_prbs", "10, 12, 15, 20 or 25, at most subchannel_size_prb".into());
        }
        if !(2..=4).contains(&self.dmrs_symbols) {
            return bad("dmrs_symbols", "2, 3 or 4".into());
        }
        if ![0, 1, 2, 4].contains(&self.psfch_period_slots) {
            return bad("psfch_period_slots", "0 (none), 1, 2 or 4".into());
        }
        if ![0, 3, 6, 9].contains(&self.x_overhead) {
            return bad("x_overhead", "0, 3, 6 or 9".into());
        }
        if !(1.0..=20.0).contains(&self.sci2_beta_offset) {
            return bad("sci2_beta_offset", "1.0..=20.0 (TS 38.213 Table 9.3-2)".into());
        }
        if ![0.5, 0.65, 0.8, 1.0].contains(&self.sci2_alpha) {
            return bad("sci2_alpha", "0.5, 0.65, 0.8 or 1".into());
        }
        if ![100, 1100].contains(&self.sensing_window_ms) {
            return bad("sensing_window_ms", "100 or 1100".into());
        }
        if self.t1_slots > self.t_proc1() {
            return bad(
                "t1_slots",
                format!("0..={} (T_proc,1 at this numerology)", self.t_proc1()),
            );
        }
        if ![1, 5, 10, 20].contains(&self.t2min_ms) {
            return bad("t2min_ms", "1, 5, 10 or 20".into());
        }
        if self.packet_delay_budget_ms == 0 || self.packet_delay_budget_ms > 1000 {
            return bad("packet_delay_budget_ms", "1..=1000".into());
        }
        if self.t2_ms < self.t2min_ms
            || self.t2_ms > self.packet_delay_budget_ms
            || self.slots(self.t2_ms) <= self.t1_slots
        {
            return bad("t2_ms", "t2min_ms <= t2_ms <= packet_delay_budget_ms, beyond T1".into());
        }
        let period_ok = |p: u32| p <= 99 || (p <= 1000 && p.is_multiple_of(100));
        if self.reservation_periods_ms.is_empty()
            || self.reservation_periods_ms.len() > 16
            || !self.reservation_periods_ms.iter().all(|&p| period_ok(p))
        {
            return bad(
                "reservation_periods_ms",
                "1 to 16 values of 0, 1..=99, 100..=1000 in steps of 100".into(),
            );
        }
        if self.rri_ms == 0 || !self.reservation_periods_ms.contains(&self.rri_ms) {
            return bad("rri_ms", "one of reservation_periods_ms, not 0".into());
        }
        if ![0.2, 0.35, 0.5].contains(&self.min_candidate_share) {
            return bad("min_candidate_share", "0.2, 0.35 or 0.5 (sl-TxPercentageList)".into());
        }
        if self.pre_emption == PreEmption::Enabled {
            return bad(
                "pre_emption",
                "\"enabled\" is not simulated: every CAM has the same priority, so prio_TX > prio_RX never holds and nothing is pre-empted; keep \"disabled\"".into(),
            );
        }
        if self.blind_retransmissions > 0 {
            return bad(
                "blind_retransmissions",
                "blind retransmissions are not simulated yet: 0".into(),
            );
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slot_timing_follows_the_numerology() {
        for (mu, slot_ns, spms, scs, prbs20) in [
            (0, 1_000_000, 1, 15e3, 106),
            (1, 500_000, 2, 30e3, 51),
            (2, 250_000, 4, 60e3, 24),
        ] {
            let c = NrConfig {
                numerology: mu,
                ..Default::default()
            };
            assert_eq!(c.slot_ns(), slot_ns);
            assert_eq!(c.slots_per_ms(), spms);
            assert_eq!(c.scs_hz(), scs);
            assert_eq!(c.channel_prbs(), Some(prbs20));
            // 14 symbols of (1 / SCS) with the cyclic prefix fill the slot.
            assert_eq!(c.slots(100), 100 * spms);
            assert_eq!(c.slot_ns() * u64::from(c.slots_per_ms()), 1_000_000);
        }
        let c = NrConfig::default();
        assert_eq!((c.t_proc0(), c.t_proc1()), (1, 5));
        assert_eq!(c.subchannels(), 5);
        c.validate().unwrap();
    }

    #[test]
    fn bad_values_name_their_field() {
        let bad = |f: fn(&mut NrConfig), field: &str| {
            let mut c = NrConfig::default();
            f(&mut c);
            let e = c.validate().unwrap_err().to_string();
            assert!(e.contains(field), "{e}");
        };
        bad(|c| c.numerology = 3, "numerology");
        bad(|c| c.bandwidth_mhz = 15, "bandwidth_mhz");
        bad(|c| c.subchannel_size_prb = 11, "subchannel_size_prb");
        bad(|c| c.subchannel_size_prb = 100, "subchannel_size_prb");
        bad(|c| c.mcs = 29, "mcs");
        bad(|c| c.mcs_table = McsTable::Qam256, "mcs");
        bad(|c| c.mcs = 17, "mcs");
        bad(|c| c.implementation_loss_db = -0.5, "implementation_loss_db");
        bad(|c| c.implementation_loss_db = f64::NAN, "implementation_loss_db");
        bad(|c| c.pscch_symbols = 4, "pscch_symbols");
        bad(|c| c.pscch_prbs = 12, "pscch_prbs");
        bad(|c| c.sensing_window_ms = 1000, "sensing_window_ms");
        bad(|c| c.t1_slots = 6, "t1_slots");
        bad(|c| c.t2_ms = 10, "t2_ms");
        bad(|c| c.t2_ms = 150, "t2_ms");
        bad(|c| c.reservation_periods_ms = vec![150], "reservation_periods_ms");
        bad(|c| c.rri_ms = 200, "rri_ms");
        bad(|c| c.min_candidate_share = 0.3, "min_candidate_share");
        bad(|c| c.pre_emption = PreEmption::Enabled, "pre_emption");
        bad(|c| c.blind_retransmissions = 1, "blind_retransmissions");
        let e = toml::from_str::<NrConfig>("mcs_table = \"x\"").unwrap_err().to_string();
        assert!(McsTable::NAMES.iter().all(|n| e.contains(n)), "{e}");
        let e = toml::from_str::<NrConfig>("pre_emption = \"x\"")
            .unwrap_err()
            .to_string();
        assert!(PreEmption::NAMES.iter().all(|n| e.contains(n)), "{e}");
    }
}
