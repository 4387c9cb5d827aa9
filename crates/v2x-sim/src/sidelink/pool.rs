//! The resource pool: sub-channels of the channel, and how many of them a packet needs at
//! the pool's MCS (LTE: TS 36.213 tables; NR: the PSSCH's REs and TBS of TS 38.214).

use super::{nr_tbs, tbs};
use crate::scenario::sidelink::NrConfig;
use crate::scenario::SidelinkConfig;

/// PRBs of the PSCCH (the SCI) beside the PSSCH of each transmission (adjacent
/// PSCCH/PSSCH, TS 36.213 §14.2.1: 2 PRBs in the lowest sub-channel of the transmission).
pub const SCI_PRBS: u32 = 2;

/// A pool of `subchannels` sub-channels of `size_prb` PRBs each, used at one MCS.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ResourcePool {
    pub subchannels: u16,
    pub size_prb: u32,
    pub mcs: u8,
    /// NR's PSSCH layout (`None`: LTE).
    pub nr: Option<nr_tbs::Layout>,
}

impl ResourcePool {
    pub fn new(cfg: &SidelinkConfig) -> ResourcePool {
        ResourcePool {
            subchannels: cfg.subchannels() as u16,
            size_prb: cfg.subchannel_size_prb,
            mcs: cfg.mcs,
            nr: None,
        }
    }

    /// An NR-V2X pool: the PSCCH and the 2nd-stage SCI inside the sub-channels' PRBs.
    pub fn nr(cfg: &NrConfig) -> ResourcePool {
        ResourcePool {
            subchannels: cfg.subchannels() as u16,
            size_prb: cfg.subchannel_size_prb,
            mcs: cfg.mcs,
            nr: Some(nr_tbs::Layout::new(cfg)),
        }
    }

    /// PSSCH PRBs of a transmission on `len` sub-channels: LTE, all their PRBs but the
    /// SCI's, rounded down to a DFT size; NR, all of them (the SCIs take REs inside).
    pub fn data_prbs(&self, len: u16) -> Option<u16> {
        let prbs = u32::from(len) * self.size_prb;
        if self.nr.is_some() {
            return u16::try_from(prbs).ok().filter(|&p| p > 0);
        }
        tbs::dft_prbs(prbs.checked_sub(SCI_PRBS)?)
    }

    /// The transport block (bits) of a transmission on `len` sub-channels.
    pub fn tbs_bits(&self, len: u16) -> Option<u32> {
        let prbs = self.data_prbs(len)?;
        match &self.nr {
            None => tbs::tbs_bits(self.mcs, prbs),
            Some(layout) => layout.tbs_bits(u32::from(prbs)),
        }
    }

    /// Bytes a transmission on `len` sub-channels carries.
    pub fn capacity_bytes(&self, len: u16) -> u32 {
        self.tbs_bits(len).map_or(0, |b| b / 8)
    }

    /// The fewest sub-channels that carry `bytes`; `None` when even the whole pool cannot.
    pub fn subchannels_for(&self, bytes: u32) -> Option<u16> {
        (1..=self.subchannels).find(|&l| self.capacity_bytes(l) >= bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_190_byte_cam_takes_one_12_prb_subchannel_at_mcs_9() {
        let pool = ResourcePool::new(&SidelinkConfig::default());
        assert_eq!(pool.subchannels, 4);
        assert_eq!(pool.data_prbs(1), Some(10));
        assert_eq!(pool.capacity_bytes(1), 1544 / 8);
        assert_eq!(pool.subchannels_for(190), Some(1));
        // A certificate-carrying 1609.2 CAM (190 + 87 B): 22 PRBs -> 20 (DFT) -> 3112 bits.
        assert_eq!(pool.data_prbs(2), Some(20));
        assert_eq!(pool.subchannels_for(300), Some(2));
        assert_eq!(pool.capacity_bytes(3), 5160 / 8, "34 -> 32 PRBs");
        assert_eq!(pool.capacity_bytes(4), 6968 / 8, "46 -> 45 PRBs");
        assert_eq!(pool.subchannels_for(900), None, "larger than the pool");
    }

    #[test]
    fn nr_sub_channels_carry_the_tbs_of_ts_38_214() {
        // 20 MHz at 30 kHz: 51 PRBs, 5 sub-channels of 10; MCS 12: 1736 bits on one.
        let pool = ResourcePool::nr(&NrConfig::default());
        assert_eq!((pool.subchannels, pool.data_prbs(1)), (5, Some(10)));
        assert_eq!(pool.capacity_bytes(1), 1736 / 8);
        assert_eq!(pool.subchannels_for(193), Some(1));
        assert_eq!(pool.subchannels_for(280), Some(2));
        let cap: Vec<u32> = (1..=5).map(|l| pool.capacity_bytes(l)).collect();
        assert!(cap.windows(2).all(|w| w[1] > w[0]), "{cap:?}");
        assert_eq!(pool.subchannels_for(cap[4] + 1), None);
    }
}
