//! The resource pool: sub-channels of a 10 or 20 MHz channel, and how many of them a
//! packet needs at the pool's MCS.

use super::tbs;
use crate::scenario::SidelinkConfig;

/// PRBs of the PSCCH (the SCI) beside the PSSCH of each transmission (adjacent
/// PSCCH/PSSCH, TS 36.213 §14.2.1: 2 PRBs in the lowest sub-channel of the transmission).
pub const SCI_PRBS: u32 = 2;

/// A pool of `subchannels` sub-channels of `size_prb` PRBs each, used at one MCS.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResourcePool {
    pub subchannels: u16,
    pub size_prb: u32,
    pub mcs: u8,
}

impl ResourcePool {
    pub fn new(cfg: &SidelinkConfig) -> ResourcePool {
        ResourcePool {
            subchannels: cfg.subchannels() as u16,
            size_prb: cfg.subchannel_size_prb,
            mcs: cfg.mcs,
        }
    }

    /// PSSCH PRBs of a transmission on `len` sub-channels: all their PRBs but the SCI's,
    /// rounded down to a DFT size.
    pub fn data_prbs(&self, len: u16) -> Option<u16> {
        tbs::dft_prbs((u32::from(len) * self.size_prb).checked_sub(SCI_PRBS)?)
    }

    /// Bytes a transmission on `len` sub-channels carries.
    pub fn capacity_bytes(&self, len: u16) -> u32 {
        self.data_prbs(len)
            .and_then(|p| tbs::tbs_bits(self.mcs, p))
            .map_or(0, |b| b / 8)
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
}
