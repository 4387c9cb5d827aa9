//! 802.11p OFDM PHY at 10 MHz: frame timing, modes, and the error-rate models that judge
//! a chunk of a frame received at a constant SINR.
//!
//! - [`nist`]: the NIST OFDM model (union bound over the convolutional code's distance
//!   spectrum), as ns-3's `NistErrorRateModel`;
//! - [`table_based`]: ns-3's `TableBasedErrorRateModel` (AWGN packet-error tables for BCC,
//!   ns-3 3.44's default), with the YANS model as its fallback for BPSK 3/4;
//! - [`ChunkErrors`]: one model prepared for a data rate, answering "ln P(a chunk of this
//!   field, this long, at this SINR, is received)" for the SIGNAL field and the data.
//!
//! These are public so that other crates (the testbed's channel emulator) judge frames
//! the way the simulator does.

pub mod nist;
pub mod table_based;
pub mod yans;

use serde::{Deserialize, Serialize};

/// Preamble (32 µs) plus SIGNAL field (8 µs) at 10 MHz.
pub const PREAMBLE_AND_SIGNAL_NS: u64 = 40_000;
/// Preamble (short and long training fields) at 10 MHz; the SIGNAL field follows.
pub const PREAMBLE_NS: u64 = 32_000;
/// OFDM symbol at 10 MHz.
pub const SYMBOL_NS: u64 = 8_000;
/// SERVICE (16) and tail (6) bits added to the PSDU.
pub const SERVICE_AND_TAIL_BITS: u64 = 22;
/// The SIGNAL field is sent at the lowest rate (BPSK 1/2: 3 Mb/s at 10 MHz).
pub const SIGNAL_RATE_MBPS: f64 = 3.0;

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

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Modulation {
    Bpsk,
    Qpsk,
    Qam16,
    Qam64,
}

impl Modulation {
    /// Points of the constellation.
    pub fn points(self) -> u32 {
        match self {
            Modulation::Bpsk => 2,
            Modulation::Qpsk => 4,
            Modulation::Qam16 => 16,
            Modulation::Qam64 => 64,
        }
    }
}

/// Convolutional code rate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CodeRate {
    Half,
    TwoThirds,
    ThreeQuarters,
}

/// Modulation and code rate of an 802.11p 10 MHz rate.
pub fn mode(rate_mbps: f64) -> (Modulation, CodeRate) {
    match bits_per_symbol(rate_mbps) {
        Some(24) => (Modulation::Bpsk, CodeRate::Half),
        Some(36) => (Modulation::Bpsk, CodeRate::ThreeQuarters),
        Some(48) => (Modulation::Qpsk, CodeRate::Half),
        Some(72) => (Modulation::Qpsk, CodeRate::ThreeQuarters),
        Some(96) => (Modulation::Qam16, CodeRate::Half),
        Some(144) => (Modulation::Qam16, CodeRate::ThreeQuarters),
        Some(192) => (Modulation::Qam64, CodeRate::TwoThirds),
        _ => (Modulation::Qam64, CodeRate::ThreeQuarters),
    }
}

/// Which error-rate model judges the chunks of a frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ErrorRateModel {
    /// NIST OFDM model (ns-3 `NistErrorRateModel`).
    Nist,
    /// ns-3 3.44's default `TableBasedErrorRateModel` (YANS fallback for BPSK 3/4).
    TableBased,
}

/// The part of a PPDU a chunk belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// The SIGNAL field (L-SIG), BPSK 1/2.
    Signal,
    /// SERVICE, PSDU, tail and padding at the data rate.
    Data,
}

/// Bits a chunk of `duration_ns` carries at `rate_bps` (truncated, as ns-3 counts them).
pub fn chunk_bits(rate_bps: u64, duration_ns: u64) -> u64 {
    ((u128::from(rate_bps) * u128::from(duration_ns)) / 1_000_000_000) as u64
}

/// One mode's chunk error rates.
#[derive(Debug, Clone)]
enum ModeErrors {
    /// `ln(1 - p_bit)` per bit against SINR (NIST and YANS).
    PerBit { rate_bps: u64, table: nist::PerBitTable },
    /// ns-3's packet-error tables with their size scaling.
    Table {
        rate_bps: u64,
        table: table_based::McsTable,
    },
}

impl ModeErrors {
    fn new(model: ErrorRateModel, rate_mbps: f64) -> ModeErrors {
        let rate_bps = (rate_mbps * 1e6).round() as u64;
        let (m, c) = mode(rate_mbps);
        match (model, table_based::McsTable::for_mode(m, c)) {
            (ErrorRateModel::TableBased, Some(table)) => ModeErrors::Table { rate_bps, table },
            // ns-3 has no table for BPSK 3/4 and falls back to its YANS model.
            (ErrorRateModel::TableBased, None) => ModeErrors::PerBit {
                rate_bps,
                table: nist::PerBitTable::new(|sinr| yans::bit_success(m, c, rate_mbps, sinr)),
            },
            (ErrorRateModel::Nist, _) => ModeErrors::PerBit {
                rate_bps,
                table: nist::PerBitTable::new(|sinr| nist::bit_success(m, c, sinr)),
            },
        }
    }

    fn ln_success(&self, sinr: f64, duration_ns: u64) -> f64 {
        match self {
            ModeErrors::PerBit { rate_bps, table } => {
                let bits = chunk_bits(*rate_bps, duration_ns);
                if bits == 0 {
                    0.0
                } else {
                    table.ln_success_per_bit(sinr) * bits as f64
                }
            }
            ModeErrors::Table { rate_bps, table } => table.ln_success(sinr, chunk_bits(*rate_bps, duration_ns)),
        }
    }
}

/// An error-rate model prepared for one data rate: the SIGNAL field's mode (BPSK 1/2)
/// and the data's.
#[derive(Debug, Clone)]
pub struct ChunkErrors {
    model: ErrorRateModel,
    signal: ModeErrors,
    data: ModeErrors,
}

impl ChunkErrors {
    pub fn new(model: ErrorRateModel, data_rate_mbps: f64) -> ChunkErrors {
        ChunkErrors {
            model,
            signal: ModeErrors::new(model, SIGNAL_RATE_MBPS),
            data: ModeErrors::new(model, data_rate_mbps),
        }
    }

    pub fn model(&self) -> ErrorRateModel {
        self.model
    }

    /// ln of the probability that a chunk of `field` lasting `duration_ns` at linear
    /// SINR `sinr` is received without error (0 for an empty chunk, `-inf` for a sure loss).
    pub fn ln_success(&self, field: Field, sinr: f64, duration_ns: u64) -> f64 {
        if duration_ns == 0 {
            return 0.0;
        }
        match field {
            Field::Signal => self.signal.ln_success(sinr, duration_ns),
            Field::Data => self.data.ln_success(sinr, duration_ns),
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
    fn chunk_bits_truncate_like_ns3() {
        assert_eq!(chunk_bits(6_000_000, 496_000), 2976);
        assert_eq!(chunk_bits(3_000_000, 8_000), 24);
        assert_eq!(chunk_bits(6_000_000, 100), 0);
        assert_eq!(chunk_bits(6_000_000, 1_500), 9);
    }

    #[test]
    fn both_models_are_monotone_in_sinr_and_length() {
        for model in [ErrorRateModel::Nist, ErrorRateModel::TableBased] {
            for rate in [3.0, 4.5, 6.0, 9.0, 12.0, 18.0, 24.0, 27.0] {
                let e = ChunkErrors::new(model, rate);
                let mut last = f64::NEG_INFINITY;
                for tenth_db in -50..350 {
                    let sinr = 10f64.powf(f64::from(tenth_db) / 100.0);
                    let l = e.ln_success(Field::Data, sinr, 400_000);
                    assert!(l <= 0.0 && l + 1e-12 >= last, "{model:?} {rate} at {tenth_db}/10 dB");
                    last = l;
                    assert!(e.ln_success(Field::Data, sinr, 800_000) <= l + 1e-12);
                }
                assert!(last > -1e-6, "{model:?} {rate}: clean at 35 dB");
            }
        }
    }
}
