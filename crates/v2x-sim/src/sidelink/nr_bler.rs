//! Block error rate of the NR PSSCH against its SINR: an AWGN approximation written here,
//! the normal approximation of finite-blocklength coding with a Gaussian input and the
//! ½ log2 n term (Y. Polyanskiy, H. V. Poor, S. Verdú, "Channel coding rate in the finite
//! blocklength regime", IEEE Trans. Inf. Theory 56(5), 2010), less an implementation loss
//! for a practical LDPC code:
//!
//! ε ≈ Q((n C(γ') − k + ½ log2 n) / √(n V(γ'))),  C = log2(1 + γ'),
//! V = (1 − (1 + γ')⁻²) (log2 e)²,  γ' = γ / 10^(loss / 10),
//!
//! per LDPC code block: n the resource elements carrying its PSSCH data (the
//! transmission's N_RE of TS 38.214 §8.1.3.2 shared equally among the code blocks), k its
//! information bits (its share of the TBS plus the 16- or 24-bit TB CRC, plus the 24-bit
//! code-block CRC when the TB is segmented, TS 38.212 §7.2.1, §5.2.2), γ the SINR per
//! resource element; a transport block is lost when any code block is.
//!
//! Not captured: the modulation (the Gaussian-input capacity stands for QPSK and 16-QAM
//! alike; the default loss covers their gap at MCS 9..=16, `[sidelink.nr] mcs` stops at
//! 16, docs/cv2x.md gives the gaps), fading or Doppler inside the block (the channel's
//! fading, if any, is drawn per link by `[radio.fading]`), HARQ combining.

use super::nr_tbs::{modulation, Layout};
use statrs::function::erf::erfc;

pub use crate::scenario::sidelink::{
    NR_DEFAULT_IMPLEMENTATION_LOSS_DB as DEFAULT_IMPLEMENTATION_LOSS_DB, NR_MAX_MCS as MAX_MCS,
};

/// Largest code block of LDPC base graphs 1 and 2 (K_cb, TS 38.212 §5.2.2).
const K_CB_BG1: u32 = 8448;
const K_CB_BG2: u32 = 3840;
/// CRC bits of a code block when the TB is segmented.
const CB_CRC: u32 = 24;

/// A transport block as its decoder sees it: `code_blocks` blocks of `k` bits on `n` REs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Block {
    pub code_blocks: u32,
    /// Information bits per code block (its CRCs included).
    pub k: f64,
    /// Resource elements per code block.
    pub n: f64,
    /// The implementation loss as a linear factor on the SINR.
    loss: f64,
}

impl Block {
    /// A TB of `tbs_bits` on `n_re` resource elements at code rate `rate`, decoded with
    /// `loss_db` of implementation loss. `None` without bits or REs.
    pub fn new(tbs_bits: u32, n_re: u32, rate: f64, loss_db: f64) -> Option<Block> {
        if tbs_bits == 0 || n_re == 0 {
            return None;
        }
        // TS 38.212 §7.2.1: the TB's CRC; §7.2.2 the base graph; §5.2.2 segmentation.
        let tb_crc = if tbs_bits > 3824 { 24 } else { 16 };
        let b = tbs_bits + tb_crc;
        let bg2 = tbs_bits <= 292 || (tbs_bits <= 3824 && rate <= 0.67) || rate <= 0.25;
        let k_cb = if bg2 { K_CB_BG2 } else { K_CB_BG1 };
        let (code_blocks, bits) = if b <= k_cb {
            (1, b)
        } else {
            let c = b.div_ceil(k_cb - CB_CRC);
            (c, b + c * CB_CRC)
        };
        let c = f64::from(code_blocks);
        Some(Block {
            code_blocks,
            k: f64::from(bits) / c,
            n: f64::from(n_re) / c,
            loss: 10f64.powf(-loss_db / 10.0),
        })
    }

    /// The block of a transmission on `prbs` PRBs of `layout`'s PSSCH.
    pub fn of(layout: &Layout, prbs: u32, loss_db: f64) -> Option<Block> {
        let (_, rate) = modulation(layout.table, layout.mcs)?;
        Block::new(layout.tbs_bits(prbs)?, layout.n_re(prbs)?, rate, loss_db)
    }

    /// The BLER at `sinr_db` (per RE).
    pub fn bler(&self, sinr_db: f64) -> f64 {
        if sinr_db.is_nan() {
            return 1.0;
        }
        let cb = code_block_error(self.n, self.k, 10f64.powf(sinr_db / 10.0) * self.loss);
        if self.code_blocks == 1 {
            cb
        } else {
            1.0 - (1.0 - cb).powi(self.code_blocks as i32)
        }
    }
}

/// The normal approximation of the error probability of a code of `k` bits on `n` uses
/// of a Gaussian-input AWGN channel at SNR `snr` (linear).
pub fn code_block_error(n: f64, k: f64, snr: f64) -> f64 {
    if snr <= 0.0 {
        return 1.0;
    }
    let c = snr.ln_1p() * std::f64::consts::LOG2_E;
    let v = (1.0 - (1.0 + snr).powi(-2)) * std::f64::consts::LOG2_E.powi(2);
    let x = (n * c - k + 0.5 * n.log2()) / (n * v).sqrt();
    // Q(x) = erfc(x / √2) / 2.
    0.5 * erfc(x / std::f64::consts::SQRT_2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::sidelink::NrConfig;

    fn block(k_bits: u32, n_re: u32) -> Block {
        Block::new(k_bits - 16, n_re, 0.5, 0.0).unwrap()
    }

    /// The SINR (dB) at which a block's BLER first falls to `target`, on a 0.001 dB grid.
    fn sinr_at(b: &Block, target: f64) -> f64 {
        (0..40_000)
            .map(|i| -10.0 + f64::from(i) * 0.001)
            .find(|&x| b.bler(x) <= target)
            .unwrap()
    }

    #[test]
    fn falls_monotonically_with_the_sinr() {
        let b = Block::of(&Layout::new(&NrConfig::default()), 10, 1.0).unwrap();
        let mut last = 1.0;
        for i in 0..3000 {
            let e = b.bler(-10.0 + f64::from(i) * 0.01);
            assert!((0.0..=1.0).contains(&e) && e <= last, "{i}: {e} after {last}");
            last = e;
        }
        assert!(b.bler(-10.0) > 0.999_999 && b.bler(20.0) < 1e-12);
        assert_eq!(b.bler(f64::NAN), 1.0);
        assert_eq!(b.bler(f64::NEG_INFINITY), 1.0);
    }

    #[test]
    fn about_one_half_where_the_capacity_carries_the_block() {
        // n C(γ) = k: C = k / n = 1.76 bit, γ = 2^1.76 - 1.
        let b = block(1752, 996);
        let snr = (1752f64 / 996.0).exp2() - 1.0;
        let e = b.bler(10.0 * snr.log10());
        // Only the ½ log2 n term (4.98 bits over √(n V) = 29.9) moves it below ½.
        assert!((0.4..0.5).contains(&e), "{e}");
        // The implementation loss moves the curve right by itself.
        let lossy = Block::new(1736, 996, 0.5, 1.0).unwrap();
        assert!((lossy.bler(10.0 * snr.log10() + 1.0) - e).abs() < 1e-9);
    }

    #[test]
    fn a_hand_computed_point() {
        // k = 1752 bits (TBS 1736 + 16) on n = 996 REs at 6 dB, no loss: γ = 3.98107;
        // C = log2 4.98107 = 2.31646; V = (1 - 1 / 4.98107²) log2²e = 0.95970 x 2.08137
        // = 1.99749; n C = 2307.19; ½ log2 996 = 4.98; x = (2307.19 - 1752 + 4.98) /
        // √(996 x 1.99749) = 560.17 / 44.604 = 12.56: Q(12.56) ≈ 1.7e-36.
        let b = block(1752, 996);
        let e = b.bler(6.0);
        assert!(e > 1e-37 && e < 1e-35, "{e}");
        // At 3 dB: γ = 1.99526; C = 1.58265; V = (1 - 1 / 8.97161) 2.08137 = 1.84938;
        // n C = 1576.32; x = (1576.32 - 1752 + 4.98) / √(1842.0) = -170.70 / 42.918 =
        // -3.977: 1 - Q(3.977) = 0.999965.
        let e = b.bler(3.0);
        assert!((e - 0.999_965).abs() < 2e-6, "{e}");
    }

    #[test]
    fn larger_blocks_fall_more_steeply() {
        // The same code rate (k / n) on 4 times the REs: the 10 %-90 % width narrows
        // about as 1 / √n.
        let (small, large) = (block(600, 400), block(2400, 1600));
        let width = |b: &Block| sinr_at(b, 0.1) - sinr_at(b, 0.9);
        let (ws, wl) = (width(&small), width(&large));
        assert!(wl < 0.6 * ws && wl > 0.4 * ws, "{ws} {wl}");
    }

    #[test]
    fn segmentation_and_crcs_follow_ts_38_212() {
        // Small TB, BG2: one block, 16-bit CRC.
        let b = Block::new(1736, 996, 0.42, 1.0).unwrap();
        assert_eq!((b.code_blocks, b.k, b.n), (1, 1752.0, 996.0));
        // TBS 21000 at R 0.55 (BG1): B = 21024, C = ceil(21024 / 8424) = 3, 3 CB CRCs.
        let b = Block::new(21000, 6300, 0.55, 1.0).unwrap();
        assert_eq!((b.code_blocks, b.k, b.n), (3, 21096.0 / 3.0, 2100.0));
        // TBS 8976 at R 0.2 (BG2): B = 9000, C = ceil(9000 / 3816) = 3.
        let b = Block::new(8976, 20_000, 0.2, 1.0).unwrap();
        assert_eq!(b.code_blocks, 3);
        // A segmented TB is lost when any block is: where one block is lost about half
        // the time (n C = k after the 1 dB loss), the TB is lost 1 - (1 - ε)³.
        let snr = (b.k / b.n).exp2() - 1.0;
        let one = code_block_error(b.n, b.k, snr);
        assert!((0.3..0.5).contains(&one), "{one}");
        let e = b.bler(10.0 * snr.log10() + 1.0);
        assert!((e - (1.0 - (1.0 - one).powi(3))).abs() < 1e-9, "{e} {one}");
        // The shipped example (MCS 9, 12-PRB sub-channels; docs/cv2x.md): one sub-channel
        // carries TBS 1736 on 1284 REs, both 3824 on 2868, each one code block.
        let layout = Layout::new(&NrConfig {
            mcs: 9,
            ..Default::default()
        });
        let b = Block::of(&layout, 12, 1.5).unwrap();
        assert_eq!((b.code_blocks, b.k, b.n), (1, 1752.0, 1284.0));
        let b = Block::of(&layout, 24, 1.5).unwrap();
        assert_eq!((b.code_blocks, b.k, b.n), (1, 3840.0, 2868.0));
        assert_eq!(Block::new(0, 100, 0.5, 1.0), None);
        assert_eq!(Block::new(100, 0, 0.5, 1.0), None);
    }

    #[test]
    fn higher_mcs_needs_more_sinr() {
        let mut last = f64::NEG_INFINITY;
        for mcs in 0..=MAX_MCS {
            let layout = Layout::new(&NrConfig {
                mcs,
                ..Default::default()
            });
            let at = sinr_at(&Block::of(&layout, 10, 1.0).unwrap(), 0.1);
            assert!(at > last, "MCS {mcs}: {at} after {last}");
            last = at;
        }
    }
}
