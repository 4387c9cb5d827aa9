//! NR sidelink transport-block sizes: the PSSCH's resource elements (TS 38.214 §8.1.3.2)
//! and the TBS from them (§5.1.3.2), with the MCS index tables 5.1.3.1-1 (up to 64-QAM)
//! and 5.1.3.1-2 (up to 256-QAM).

use crate::scenario::sidelink::{McsTable, NrConfig};

/// (modulation order Q_m, target code rate R x 1024) of TS 38.214 Table 5.1.3.1-1.
const TABLE_1: [(u32, f64); 29] = [
    (2, 120.0),
    (2, 157.0),
    (2, 193.0),
    (2, 251.0),
    (2, 308.0),
    (2, 379.0),
    (2, 449.0),
    (2, 526.0),
    (2, 602.0),
    (2, 679.0),
    (4, 340.0),
    (4, 378.0),
    (4, 434.0),
    (4, 490.0),
    (4, 553.0),
    (4, 616.0),
    (4, 658.0),
    (6, 438.0),
    (6, 466.0),
    (6, 517.0),
    (6, 567.0),
    (6, 616.0),
    (6, 666.0),
    (6, 719.0),
    (6, 772.0),
    (6, 822.0),
    (6, 873.0),
    (6, 910.0),
    (6, 948.0),
];

/// TS 38.214 Table 5.1.3.1-2.
const TABLE_2: [(u32, f64); 28] = [
    (2, 120.0),
    (2, 193.0),
    (2, 308.0),
    (2, 449.0),
    (2, 602.0),
    (4, 378.0),
    (4, 434.0),
    (4, 490.0),
    (4, 553.0),
    (4, 616.0),
    (4, 658.0),
    (6, 466.0),
    (6, 517.0),
    (6, 567.0),
    (6, 616.0),
    (6, 666.0),
    (6, 719.0),
    (6, 772.0),
    (6, 822.0),
    (6, 873.0),
    (8, 682.5),
    (8, 711.0),
    (8, 754.0),
    (8, 797.0),
    (8, 841.0),
    (8, 885.0),
    (8, 916.5),
    (8, 948.0),
];

/// TS 38.214 Table 5.1.3.2-1: TBS for N_info <= 3824.
const SMALL_TBS: [u32; 93] = [
    24, 32, 40, 48, 56, 64, 72, 80, 88, 96, 104, 112, 120, 128, 136, 144, 152, 160, 168, 176, 184, 192, 208, 224, 240,
    256, 272, 288, 304, 320, 336, 352, 368, 384, 408, 432, 456, 480, 504, 528, 552, 576, 608, 640, 672, 704, 736, 768,
    808, 848, 888, 928, 984, 1032, 1064, 1128, 1160, 1192, 1224, 1256, 1288, 1320, 1352, 1416, 1480, 1544, 1608, 1672,
    1736, 1800, 1864, 1928, 2024, 2088, 2152, 2216, 2280, 2408, 2472, 2536, 2600, 2664, 2728, 2792, 2856, 2976, 3104,
    3240, 3368, 3496, 3624, 3752, 3824,
];

/// Payload of SCI format 2-A (TS 38.212 §8.4.1.1: HARQ process 4, NDI 1, RV 2, source 8,
/// destination 16, HARQ feedback 1, cast type 2, CSI request 1) and its CRC (bits).
const SCI2_BITS: u32 = 35;
const SCI2_CRC: u32 = 24;

/// (Q_m, R) of `mcs` in `table`.
pub fn modulation(table: McsTable, mcs: u8) -> Option<(u32, f64)> {
    let row = match table {
        McsTable::Qam64 => TABLE_1.get(usize::from(mcs)),
        McsTable::Qam256 => TABLE_2.get(usize::from(mcs)),
    };
    row.map(|&(q, r)| (q, r / 1024.0))
}

/// The PSSCH's layout in a 14-symbol slot (the pool's configuration).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Layout {
    pub table: McsTable,
    pub mcs: u8,
    pub pscch_symbols: u32,
    pub pscch_prbs: u32,
    pub dmrs_symbols: u32,
    /// A PSFCH in the slots (its 3 symbols taken off: the PSFCH, its AGC and guard).
    pub psfch: bool,
    pub x_overhead: u32,
    pub beta: f64,
    pub alpha: f64,
}

/// Symbols of a sidelink slot (sl-LengthSymbols; the full slot).
pub const SLOT_SYMBOLS: u32 = 14;

impl Layout {
    pub fn new(c: &NrConfig) -> Layout {
        Layout {
            table: c.mcs_table,
            mcs: c.mcs,
            pscch_symbols: c.pscch_symbols,
            pscch_prbs: c.pscch_prbs,
            dmrs_symbols: c.dmrs_symbols,
            psfch: c.psfch_period_slots > 0,
            x_overhead: c.x_overhead,
            beta: c.sci2_beta_offset,
            alpha: c.sci2_alpha,
        }
    }

    /// N'_RE: REs per PRB for the PSSCH before the SCIs: 12 (N_sh - N_PSFCH) - N_oh -
    /// N_DMRS, with N_sh = 14 - 2 (the AGC symbol and the guard), N_PSFCH = 3 with a
    /// PSFCH, and 6 DMRS REs per DMRS symbol (Table 8.1.3.2-1: 12, 18, 24).
    pub fn re_per_prb(&self) -> u32 {
        let sh = SLOT_SYMBOLS - 2 - if self.psfch { 3 } else { 0 };
        12 * sh - self.x_overhead - 6 * self.dmrs_symbols
    }

    /// REs of the 2nd-stage SCI (TS 38.212 §8.4.4): min(ceil((O + L) beta / (Q_m R)),
    /// ceil(alpha M)) with Q_m = 2 (QPSK) and R the PSSCH's code rate, M the REs it may
    /// use; gamma, the REs left free in its last resource block, rounds it up to 12.
    pub fn sci2_res(&self, r: f64, available: u32) -> u32 {
        let need = (f64::from(SCI2_BITS + SCI2_CRC) * self.beta / (2.0 * r)).ceil() as u32;
        let cap = (self.alpha * f64::from(available)).ceil() as u32;
        need.min(cap).div_ceil(12) * 12
    }

    /// N_RE of a transmission on `prbs` PRBs: N'_RE n_PRB less the PSCCH's REs (its
    /// symbols x PRBs x 12) and the 2nd-stage SCI's.
    pub fn n_re(&self, prbs: u32) -> Option<u32> {
        let (_, r) = modulation(self.table, self.mcs)?;
        let sci1 = self.pscch_symbols * self.pscch_prbs * 12;
        let before = (self.re_per_prb() * prbs).checked_sub(sci1)?;
        before.checked_sub(self.sci2_res(r, before)).filter(|&n| n > 0)
    }

    /// TBS (bits) on `prbs` PRBs, one layer.
    pub fn tbs_bits(&self, prbs: u32) -> Option<u32> {
        let (q, r) = modulation(self.table, self.mcs)?;
        let n_info = f64::from(self.n_re(prbs)?) * r * f64::from(q);
        Some(tbs_from_info(n_info, r))
    }
}

/// TS 38.214 §5.1.3.2 steps 2-4: the TBS from N_info and the code rate.
pub fn tbs_from_info(n_info: f64, r: f64) -> u32 {
    if n_info <= 3824.0 {
        let n = (n_info.log2().floor() as i32 - 6).max(3);
        let step = f64::from(1u32 << n);
        let quantised = (step * (n_info / step).floor()).max(24.0);
        return SMALL_TBS
            .iter()
            .copied()
            .find(|&t| f64::from(t) >= quantised)
            .unwrap_or(3824);
    }
    let n = (n_info - 24.0).log2().floor() as i32 - 5;
    let step = f64::from(1u32 << n);
    let quantised = (step * ((n_info - 24.0) / step).round()).max(3840.0);
    let with_crc = quantised + 24.0;
    let code_blocks = if r <= 0.25 {
        (with_crc / 3816.0).ceil()
    } else if quantised > 8424.0 {
        (with_crc / 8424.0).ceil()
    } else {
        1.0
    };
    (8.0 * code_blocks * (with_crc / (8.0 * code_blocks)).ceil() - 24.0) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(mcs: u8) -> Layout {
        Layout::new(&NrConfig {
            mcs,
            ..Default::default()
        })
    }

    /// Worked by hand from TS 38.214 §8.1.3.2 and §5.1.3.2 (the comments are the steps).
    #[test]
    fn tbs_matches_hand_computed_examples() {
        // 10 PRBs, MCS 12 (16-QAM, R = 434/1024), 2-symbol PSCCH on 10 PRBs, 2 DMRS symbols:
        // N'_RE = 12 (14 - 2) - 0 - 12 = 132; 1320 REs - 240 (PSCCH) = 1080;
        // SCI-2: ceil(59 x 1.125 / (2 x 0.4238)) = 79 -> 84; N_RE = 996;
        // N_info = 996 x 0.4238 x 4 = 1688.5; n = 4; N'_info = 16 floor(1688.5 / 16) = 1680;
        // the table's first TBS >= 1680: 1736.
        let l = layout(12);
        assert_eq!(l.re_per_prb(), 132);
        assert_eq!(l.n_re(10), Some(996));
        assert_eq!(l.tbs_bits(10), Some(1736));
        // 50 PRBs, MCS 20 (64-QAM, R = 567/1024): 6600 - 240 = 6360; SCI-2: ceil(66.375 /
        // 1.1074) = 60; N_RE = 6300; N_info = 20930.3; n = floor(log2(20906.3)) - 5 = 9;
        // N'_info = 512 round(20906.3 / 512) = 20992 > 8424: C = ceil(21016 / 8424) = 3;
        // TBS = 24 ceil(21016 / 24) - 24 = 21000.
        let l = layout(20);
        assert_eq!(l.n_re(50), Some(6300));
        assert_eq!(l.tbs_bits(50), Some(21000));
        // 12 PRBs, MCS 11 (R = 378/1024), 3-symbol PSCCH on 12 PRBs, 3 DMRS symbols, PSFCH:
        // N'_RE = 12 (12 - 3) - 0 - 18 = 90; 1080 - 432 = 648; SCI-2: ceil(66.375 / 0.7383)
        // = 90 -> 96; N_RE = 552; N_info = 552 x 0.3691 x 4 = 815.1; n = max(3, 9 - 6) = 3;
        // N'_info = 8 floor(815.1 / 8) = 808; TBS 808.
        let l = Layout::new(&NrConfig {
            mcs: 11,
            subchannel_size_prb: 12,
            pscch_symbols: 3,
            pscch_prbs: 12,
            dmrs_symbols: 3,
            psfch_period_slots: 4,
            ..Default::default()
        });
        assert_eq!(l.re_per_prb(), 90);
        assert_eq!(l.n_re(12), Some(552));
        assert_eq!(l.tbs_bits(12), Some(808));
        // Table 2 (256-QAM), MCS 20: Q_m 8, R = 682.5/1024; 20 PRBs: 2640 - 240 = 2400;
        // SCI-2: ceil(66.375 / 1.3330) = 50 -> 60; N_RE = 2340; N_info = 12477.1 > 3824:
        // n = 13 - 5 = 8; N'_info = 256 round(12453.1 / 256) = 12544 > 8424: C = 2;
        // TBS = 16 ceil(12568 / 16) - 24 = 12552.
        let l = Layout {
            table: McsTable::Qam256,
            mcs: 20,
            ..layout(0)
        };
        assert_eq!(l.n_re(20), Some(2340));
        assert_eq!(l.tbs_bits(20), Some(12552));
        // Below a PRB's worth of REs nothing is carried.
        assert_eq!(layout(12).n_re(2), None);
    }

    #[test]
    fn small_and_large_tbs_rules() {
        // N_info <= 3824: quantised down, then the table's next entry.
        assert_eq!(tbs_from_info(10.0, 0.5), 24);
        assert_eq!(tbs_from_info(3824.0, 0.5), 3824);
        // Just above: the large-block rule, at least 3840.
        assert_eq!(tbs_from_info(3825.0, 0.5), 3840);
        // 9000: n = 8, N'_info = 256 round(8976 / 256) = 8960. At R <= 1/4 code blocks of at
        // most 3816: C = 3, TBS = 24 ceil(8984 / 24) - 24 = 8976; at R = 0.5 (N'_info > 8424):
        // C = 2, TBS = 16 ceil(8984 / 16) - 24 = 8968.
        assert_eq!(tbs_from_info(9000.0, 0.2), 8976);
        assert_eq!(tbs_from_info(9000.0, 0.5), 8968);
        assert!(TABLE_1.len() == 29 && TABLE_2.len() == 28);
        assert_eq!(modulation(McsTable::Qam64, 29), None);
        assert_eq!(modulation(McsTable::Qam256, 20), Some((8, 682.5 / 1024.0)));
    }
}
