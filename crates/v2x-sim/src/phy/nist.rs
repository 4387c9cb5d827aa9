//! The NIST OFDM error-rate model (as ns-3's `NistErrorRateModel`): uncoded bit error of
//! the constellation, then the union bound over the convolutional code's distance
//! spectrum; a chunk of n bits survives with probability (1 - p)^n. Also the per-bit table
//! that makes a chunk cost one logarithm.

use super::{CodeRate, Modulation};
use statrs::function::erf::erfc;

fn uncoded_ber(m: Modulation, snr: f64) -> f64 {
    match m {
        Modulation::Bpsk => 0.5 * erfc(snr.sqrt()),
        Modulation::Qpsk => 0.5 * erfc((snr / 2.0).sqrt()),
        Modulation::Qam16 => 0.75 * 0.5 * erfc((snr / 10.0).sqrt()),
        Modulation::Qam64 => 7.0 / 12.0 * 0.5 * erfc((snr / 42.0).sqrt()),
    }
}

/// Coded error probability per bit (union bound over the convolutional code's distance
/// spectrum, as in ns-3's NistErrorRateModel).
fn coded_pe(p: f64, c: CodeRate) -> f64 {
    let d = (4.0 * p * (1.0 - p)).sqrt();
    let pw = |k: i32| d.powi(k);
    let pe = match c {
        CodeRate::Half => {
            0.5 * (36.0 * pw(10)
                + 211.0 * pw(12)
                + 1404.0 * pw(14)
                + 11633.0 * pw(16)
                + 77433.0 * pw(18)
                + 502690.0 * pw(20)
                + 3322763.0 * pw(22)
                + 21292910.0 * pw(24)
                + 134365911.0 * pw(26))
        }
        CodeRate::TwoThirds => {
            1.0 / 4.0
                * (3.0 * pw(6)
                    + 70.0 * pw(7)
                    + 285.0 * pw(8)
                    + 1276.0 * pw(9)
                    + 6160.0 * pw(10)
                    + 27128.0 * pw(11)
                    + 117019.0 * pw(12)
                    + 498860.0 * pw(13)
                    + 2103891.0 * pw(14)
                    + 8784123.0 * pw(15))
        }
        CodeRate::ThreeQuarters => {
            1.0 / 6.0
                * (42.0 * pw(5)
                    + 201.0 * pw(6)
                    + 1492.0 * pw(7)
                    + 10469.0 * pw(8)
                    + 62935.0 * pw(9)
                    + 379644.0 * pw(10)
                    + 2253373.0 * pw(11)
                    + 13073811.0 * pw(12)
                    + 75152755.0 * pw(13)
                    + 428005675.0 * pw(14))
        }
    };
    pe.min(1.0)
}

/// Probability that one coded bit of mode (`m`, `c`) survives a linear SINR `snr`.
pub fn bit_success(m: Modulation, c: CodeRate, snr: f64) -> f64 {
    let ber = uncoded_ber(m, snr);
    if ber <= 0.0 {
        return 1.0;
    }
    (1.0 - coded_pe(ber, c)).max(0.0)
}

/// Probability that `bits` bits sent at `rate_mbps` survive a linear SINR `sinr`.
pub fn chunk_success(rate_mbps: f64, sinr: f64, bits: f64) -> f64 {
    if bits <= 0.0 {
        return 1.0;
    }
    let (m, c) = super::mode(rate_mbps);
    bit_success(m, c, sinr).powf(bits)
}

/// `ln P(bit survives)` tabulated against SINR in dB (-15 to 45 dB, 0.01 dB steps,
/// interpolated), so that a chunk costs one logarithm instead of erfc, powers and a
/// logarithm.
#[derive(Debug, Clone)]
pub struct PerBitTable {
    lo_db: f64,
    step_db: f64,
    ln_ok_per_bit: Vec<f64>,
}

impl PerBitTable {
    /// Tabulates `bit_success(linear SINR)`.
    pub fn new(bit_success: impl Fn(f64) -> f64) -> PerBitTable {
        let (lo_db, step_db, n) = (-15.0, 0.01, 6001);
        let ln_ok_per_bit = (0..n)
            .map(|k| {
                let sinr = 10f64.powf((lo_db + step_db * k as f64) / 10.0);
                bit_success(sinr).max(1e-300).ln()
            })
            .collect();
        PerBitTable {
            lo_db,
            step_db,
            ln_ok_per_bit,
        }
    }

    /// ln of the probability that one bit survives a linear SINR `sinr`.
    pub fn ln_success_per_bit(&self, sinr: f64) -> f64 {
        let t = &self.ln_ok_per_bit;
        let Some(&worst) = t.first() else { return 0.0 };
        if sinr <= 0.0 {
            return worst;
        }
        let pos = (10.0 * sinr.log10() - self.lo_db) / self.step_db;
        if pos <= 0.0 {
            return worst;
        }
        let k = pos as usize;
        match (t.get(k), t.get(k + 1)) {
            (Some(a), Some(b)) => a + (pos - k as f64) * (b - a),
            _ => t.last().copied().unwrap_or(0.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_rate_is_monotone_and_saturates() {
        let bits = 800.0;
        let mut last = 0.0;
        for db in (-5..30).map(f64::from) {
            let p = chunk_success(6.0, 10f64.powf(db / 10.0), bits);
            assert!((0.0..=1.0).contains(&p));
            assert!(p + 1e-12 >= last, "monotone at {db} dB");
            last = p;
        }
        assert!(chunk_success(6.0, 10f64.powf(15.0 / 10.0), bits) > 0.999);
        assert!(chunk_success(6.0, 10f64.powf(-2.0 / 10.0), bits) < 0.01);
        let (m, c) = crate::phy::mode(6.0);
        let table = PerBitTable::new(|s| bit_success(m, c, s));
        for db in [-3.0, 0.0, 2.5, 4.0, 7.3, 12.0] {
            let sinr = 10f64.powf(db / 10.0);
            let exact = chunk_success(6.0, sinr, bits);
            let fast = (table.ln_success_per_bit(sinr) * bits).exp();
            assert!((exact - fast).abs() < 0.01 + 0.01 * exact, "{db} dB: {exact} vs {fast}");
        }
        assert!((erfc(0.0) - 1.0).abs() < 1e-7 && (erfc(1.0) - 0.157_299_207).abs() < 1e-6);
    }
}
