//! 802.11p OFDM PHY at 10 MHz: frame timing and the NIST error-rate model.

/// Preamble (32 µs) plus SIGNAL field (8 µs) at 10 MHz.
pub const PREAMBLE_AND_SIGNAL_NS: u64 = 40_000;
/// OFDM symbol at 10 MHz.
pub const SYMBOL_NS: u64 = 8_000;
/// SERVICE (16) and tail (6) bits added to the PSDU.
pub const SERVICE_AND_TAIL_BITS: u64 = 22;

/// Data bits per OFDM symbol (N_DBPS) for an 802.11p 10 MHz rate in Mb/s.
pub fn bits_per_symbol(rate_mbps: f64) -> Option<u64> {
    const RATES: [(f64, u64); 8] = [
        (3.0, 24),
        (4.5, 36),
        (6.0, 48),
        (9.0, 72),
        (12.0, 96),
        (18.0, 144),
        (24.0, 192),
        (27.0, 216),
    ];
    RATES
        .iter()
        .find(|(r, _)| (r - rate_mbps).abs() < 1e-9)
        .map(|&(_, n)| n)
}

/// Airtime of a PSDU of `bytes` at `rate_mbps` (ns): preamble + SIGNAL + data symbols.
pub fn airtime_ns(bytes: u32, rate_mbps: f64) -> u64 {
    let ndbps = bits_per_symbol(rate_mbps).unwrap_or(48);
    let symbols = (SERVICE_AND_TAIL_BITS + 8 * u64::from(bytes)).div_ceil(ndbps);
    PREAMBLE_AND_SIGNAL_NS + symbols * SYMBOL_NS
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Modulation {
    Bpsk,
    Qpsk,
    Qam16,
    Qam64,
}

/// Modulation and code rate (as the NIST model's b value: 1 = 1/2, 2 = 2/3, 3 = 3/4).
pub fn modulation(rate_mbps: f64) -> (Modulation, u32) {
    match bits_per_symbol(rate_mbps) {
        Some(24) => (Modulation::Bpsk, 1),
        Some(36) => (Modulation::Bpsk, 3),
        Some(48) => (Modulation::Qpsk, 1),
        Some(72) => (Modulation::Qpsk, 3),
        Some(96) => (Modulation::Qam16, 1),
        Some(144) => (Modulation::Qam16, 3),
        Some(192) => (Modulation::Qam64, 2),
        _ => (Modulation::Qam64, 3),
    }
}

/// Complementary error function (Numerical Recipes erfcc, fractional error < 1.2e-7).
pub fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let r = t
        * (-z * z - 1.265_512_23
            + t * (1.000_023_68
                + t * (0.374_091_96
                    + t * (0.096_784_18
                        + t * (-0.186_288_06
                            + t * (0.278_868_07
                                + t * (-1.135_203_98
                                    + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77)))))))))
            .exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

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
fn coded_pe(p: f64, b: u32) -> f64 {
    let d = (4.0 * p * (1.0 - p)).sqrt();
    let pw = |k: i32| d.powi(k);
    let pe = match b {
        1 => {
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
        2 => {
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
        _ => {
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

/// Probability that `bits` bits sent at `rate_mbps` survive a linear SINR `sinr`.
pub fn chunk_success(rate_mbps: f64, sinr: f64, bits: f64) -> f64 {
    if bits <= 0.0 {
        return 1.0;
    }
    let (m, b) = modulation(rate_mbps);
    let ber = uncoded_ber(m, sinr);
    if ber <= 0.0 {
        return 1.0;
    }
    (1.0 - coded_pe(ber, b)).max(0.0).powf(bits)
}

/// `ln(1 - pe)` per bit tabulated against SINR in dB, so that a chunk costs one
/// logarithm instead of erfc, powers and a logarithm.
#[derive(Debug, Clone)]
pub struct ErrorTable {
    lo_db: f64,
    step_db: f64,
    ln_ok_per_bit: Vec<f64>,
}

impl ErrorTable {
    pub fn new(rate_mbps: f64) -> ErrorTable {
        let (lo_db, step_db, n) = (-15.0, 0.01, 6001);
        let ln_ok_per_bit = (0..n)
            .map(|k| {
                let sinr = 10f64.powf((lo_db + step_db * k as f64) / 10.0);
                chunk_success(rate_mbps, sinr, 1.0).max(1e-300).ln()
            })
            .collect();
        ErrorTable {
            lo_db,
            step_db,
            ln_ok_per_bit,
        }
    }

    /// ln of the probability that `bits` bits survive a linear SINR `sinr`.
    pub fn ln_success(&self, sinr: f64, bits: f64) -> f64 {
        let t = &self.ln_ok_per_bit;
        let Some(&worst) = t.first() else { return 0.0 };
        if sinr <= 0.0 {
            return worst * bits;
        }
        let pos = (10.0 * sinr.log10() - self.lo_db) / self.step_db;
        if pos <= 0.0 {
            return worst * bits;
        }
        let k = pos as usize;
        match (t.get(k), t.get(k + 1)) {
            (Some(a), Some(b)) => (a + (pos - k as f64) * (b - a)) * bits,
            (Some(a), None) => a * bits,
            _ => t.last().copied().unwrap_or(0.0) * bits,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn airtime_follows_the_80211p_formula() {
        // 100-byte PSDU at 6 Mb/s: ceil((16 + 800 + 6) / 48) = 18 symbols -> 40 + 144 µs.
        assert_eq!(airtime_ns(100, 6.0), 184_000);
        // Independent restatement of the formula for many sizes and rates.
        for rate in [3.0, 4.5, 6.0, 9.0, 12.0, 18.0, 24.0, 27.0] {
            let ndbps = (rate * 8.0) as u64; // N_DBPS = rate (Mb/s) x symbol (8 µs)
            for bytes in [1u32, 43, 82, 92, 142, 300, 1500] {
                let bits = 16 + 8 * u64::from(bytes) + 6;
                let n_sym = bits.div_ceil(ndbps);
                assert_eq!(
                    airtime_ns(bytes, rate),
                    32_000 + 8_000 + 8_000 * n_sym,
                    "{bytes} B at {rate}"
                );
            }
        }
        assert!(bits_per_symbol(5.0).is_none());
    }

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
        let table = ErrorTable::new(6.0);
        for db in [-3.0, 0.0, 2.5, 4.0, 7.3, 12.0] {
            let sinr = 10f64.powf(db / 10.0);
            let exact = chunk_success(6.0, sinr, bits);
            let fast = table.ln_success(sinr, bits).exp();
            assert!((exact - fast).abs() < 0.01 + 0.01 * exact, "{db} dB: {exact} vs {fast}");
        }
        assert!((erfc(0.0) - 1.0).abs() < 1e-7 && (erfc(1.0) - 0.157_299_207).abs() < 1e-6);
    }
}
