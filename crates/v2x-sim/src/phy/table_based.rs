//! ns-3's `TableBasedErrorRateModel` (the default error model of ns-3 3.44's YANS and
//! spectrum PHYs) for the 802.11a/p OFDM modes: packet-error rates measured on an AWGN
//! channel for BCC-coded frames of 32 and 1458 bytes, looked up at the SINR rounded to
//! 0.01 dB (linear interpolation between the 0.5 dB table points), scaled to the chunk's
//! size as `1 - (1 - PER)^(size / reference)` (IEEE 802.11-14/0803r1), and zero below
//! 1e-5. A chunk smaller than 400 bytes uses the 32-byte table. BPSK 3/4 has no table:
//! ns-3 falls back to its YANS model ([`super::yans`]).
//!
//! Origin of the tables: ns-3 3.44, `src/wifi/model/reference/error-rate-tables.cc`
//! (`AwgnErrorTableBcc32`, `AwgnErrorTableBcc1458`, MCS 0-6, copied verbatim; ns-3 is
//! GPL-2.0-only, © 2020 University of Washington, authors R. Patidar, S. Deronne, S. Jin),
//! and the lookup rules from `table-based-error-rate-model.cc` of the same release.

use super::{CodeRate, Modulation};

/// `AwgnErrorTableBcc32`, MCS 0-6: (SNR dB, PER) for 32-byte frames.
const BCC_32: [&[(f64, f64)]; 7] = [
    // MCS 0
    &[
        (-3.5, 1.00000),
        (-3.0, 0.99500),
        (-2.5, 0.94080),
        (-2.0, 0.82590),
        (-1.5, 0.58950),
        (-1.0, 0.30830),
        (-0.5, 0.12540),
        (0.0, 0.03440),
        (0.5, 0.00850),
        (1.0, 0.00150),
        (1.5, 0.00024),
        (2.0, 0.00009),
        (2.5, 0.00000),
    ],
    // MCS 1
    &[
        (-0.5, 1.00000),
        (0.0, 0.99210),
        (0.5, 0.96710),
        (1.0, 0.83490),
        (1.5, 0.58740),
        (2.0, 0.31690),
        (2.5, 0.11820),
        (3.0, 0.03640),
        (3.5, 0.00850),
        (4.0, 0.00160),
        (4.5, 0.00026),
        (5.0, 0.00003),
        (5.5, 0.00000),
    ],
    // MCS 2
    &[
        (2.0, 1.00000),
        (2.5, 0.99400),
        (3.0, 0.95880),
        (3.5, 0.85120),
        (4.0, 0.59900),
        (4.5, 0.31250),
        (5.0, 0.11710),
        (5.5, 0.03390),
        (6.0, 0.00780),
        (6.5, 0.00160),
        (7.0, 0.00028),
        (7.5, 0.00008),
        (8.0, 0.00000),
    ],
    // MCS 3
    &[
        (4.0, 1.00000),
        (4.5, 0.99900),
        (5.0, 0.99800),
        (5.5, 0.96900),
        (6.0, 0.88430),
        (6.5, 0.74090),
        (7.0, 0.46510),
        (7.5, 0.25710),
        (8.0, 0.10800),
        (8.5, 0.03810),
        (9.0, 0.01190),
        (9.5, 0.00320),
        (10.0, 0.00076),
        (10.5, 0.00017),
        (11.0, 0.00003),
        (11.5, 0.00000),
    ],
    // MCS 4
    &[
        (8.0, 1.00000),
        (8.5, 0.99900),
        (9.0, 0.94790),
        (9.5, 0.79890),
        (10.0, 0.59230),
        (10.5, 0.33700),
        (11.0, 0.15720),
        (11.5, 0.05420),
        (12.0, 0.01580),
        (12.5, 0.00400),
        (13.0, 0.00110),
        (13.5, 0.00027),
        (14.0, 0.00009),
        (14.5, 0.00000),
    ],
    // MCS 5
    &[
        (11.5, 1.00000),
        (12.0, 0.99800),
        (12.5, 0.96530),
        (13.0, 0.89700),
        (13.5, 0.73010),
        (14.0, 0.52570),
        (14.5, 0.30580),
        (15.0, 0.15750),
        (15.5, 0.06460),
        (16.0, 0.02410),
        (16.5, 0.00790),
        (17.0, 0.00230),
        (17.5, 0.00069),
        (18.0, 0.00018),
        (18.5, 0.00004),
        (19.0, 0.00002),
        (19.5, 0.00000),
    ],
    // MCS 6
    &[
        (13.0, 1.00000),
        (13.5, 0.99010),
        (14.0, 0.96250),
        (14.5, 0.83980),
        (15.0, 0.68660),
        (15.5, 0.46340),
        (16.0, 0.25200),
        (16.5, 0.11450),
        (17.0, 0.04610),
        (17.5, 0.01580),
        (18.0, 0.00490),
        (18.5, 0.00160),
        (19.0, 0.00039),
        (19.5, 0.00011),
        (20.0, 0.00002),
        (20.5, 0.00000),
    ],
];
/// `AwgnErrorTableBcc1458`, MCS 0-6: (SNR dB, PER) for 1458-byte frames.
const BCC_1458: [&[(f64, f64)]; 7] = [
    // MCS 0
    &[
        (-1.0, 1.00000),
        (-0.5, 0.99400),
        (0.0, 0.81850),
        (0.5, 0.29080),
        (1.0, 0.06630),
        (1.5, 0.01120),
        (2.0, 0.00150),
        (2.5, 0.00015),
        (3.0, 0.00001),
        (3.5, 0.00000),
    ],
    // MCS 1
    &[
        (2.0, 1.00000),
        (2.5, 0.99700),
        (3.0, 0.79440),
        (3.5, 0.30080),
        (4.0, 0.07280),
        (4.5, 0.01200),
        (5.0, 0.00150),
        (5.5, 0.00023),
        (6.0, 0.00000),
    ],
    // MCS 2
    &[
        (4.5, 1.00000),
        (5.0, 0.99800),
        (5.5, 0.75780),
        (6.0, 0.30100),
        (6.5, 0.06760),
        (7.0, 0.01220),
        (7.5, 0.00230),
        (8.0, 0.00035),
        (8.5, 0.00004),
        (9.0, 0.00000),
    ],
    // MCS 3
    &[
        (7.5, 1.00000),
        (8.0, 0.99400),
        (8.5, 0.84050),
        (9.0, 0.43410),
        (9.5, 0.14190),
        (10.0, 0.03740),
        (10.5, 0.00860),
        (11.0, 0.00190),
        (11.5, 0.00036),
        (12.0, 0.00005),
        (12.5, 0.00000),
    ],
    // MCS 4
    &[
        (11.0, 1.00000),
        (11.5, 0.92690),
        (12.0, 0.51390),
        (12.5, 0.18260),
        (13.0, 0.04650),
        (13.5, 0.01100),
        (14.0, 0.00260),
        (14.5, 0.00041),
        (15.0, 0.00010),
        (15.5, 0.00000),
    ],
    // MCS 5
    &[
        (14.5, 1.00000),
        (15.0, 0.99900),
        (15.5, 0.94790),
        (16.0, 0.66250),
        (16.5, 0.29780),
        (17.0, 0.10580),
        (17.5, 0.03340),
        (18.0, 0.00910),
        (18.5, 0.00230),
        (19.0, 0.00064),
        (19.5, 0.00017),
        (20.0, 0.00002),
        (20.5, 0.00000),
    ],
    // MCS 6
    &[
        (16.0, 1.00000),
        (16.5, 0.99500),
        (17.0, 0.87960),
        (17.5, 0.51390),
        (18.0, 0.20910),
        (18.5, 0.06390),
        (19.0, 0.01860),
        (19.5, 0.00460),
        (20.0, 0.00130),
        (20.5, 0.00023),
        (21.0, 0.00002),
        (21.5, 0.00000),
    ],
];

/// Chunks of this many bytes or more use the 1458-byte table (ns-3's `SizeThreshold`).
const SIZE_THRESHOLD_BYTES: u64 = 400;
/// PERs below this count as zero (ns-3's `TABLED_BASED_ERROR_MODEL_PRECISION`).
const PER_PRECISION: f64 = 1e-5;

/// One reference table on a 0.01 dB grid: `ln(1 - PER)` from its first to its last point.
#[derive(Debug, Clone)]
struct Grid {
    reference_bytes: f64,
    /// SNR of the first point, in hundredths of a dB.
    first_centi_db: i64,
    ln_ok: Vec<f64>,
}

impl Grid {
    fn new(points: &[(f64, f64)], reference_bytes: f64) -> Grid {
        let centi = |db: f64| (db * 100.0).round() as i64;
        let (first, last) = match (points.first(), points.last()) {
            (Some(f), Some(l)) => (centi(f.0), centi(l.0)),
            _ => (0, -1),
        };
        let ln_ok = (first..=last)
            .map(|k| {
                // ns-3: the last point below and the first point at or above, linearly.
                let at = k as f64 / 100.0;
                let per = match points.iter().position(|p| centi(p.0) >= k) {
                    Some(i) if centi(points[i].0) == k || i == 0 => points[i].1,
                    Some(i) => {
                        let (a, b) = (points[i - 1], points[i]);
                        a.1 + (at - a.0) * (b.1 - a.1) / (b.0 - a.0)
                    }
                    None => 0.0,
                };
                (1.0 - per).ln()
            })
            .collect();
        Grid {
            reference_bytes,
            first_centi_db: first,
            ln_ok,
        }
    }

    /// `ln(1 - PER)` of the reference frame at SNR `centi_db` (hundredths of a dB).
    fn ln_ok(&self, centi_db: i64) -> f64 {
        if centi_db < self.first_centi_db {
            return f64::NEG_INFINITY;
        }
        let k = (centi_db - self.first_centi_db) as usize;
        self.ln_ok.get(k).copied().unwrap_or(0.0)
    }
}

/// The two reference tables of one MCS.
#[derive(Debug, Clone)]
pub struct McsTable {
    small: Grid,
    large: Grid,
}

impl McsTable {
    /// The tables of an OFDM mode; `None` for BPSK 3/4, which ns-3's tables lack.
    pub fn for_mode(m: Modulation, c: CodeRate) -> Option<McsTable> {
        let mcs = match (m, c) {
            (Modulation::Bpsk, CodeRate::Half) => 0,
            (Modulation::Qpsk, CodeRate::Half) => 1,
            (Modulation::Qpsk, CodeRate::ThreeQuarters) => 2,
            (Modulation::Qam16, CodeRate::Half) => 3,
            (Modulation::Qam16, CodeRate::ThreeQuarters) => 4,
            (Modulation::Qam64, CodeRate::TwoThirds) => 5,
            (Modulation::Qam64, CodeRate::ThreeQuarters) => 6,
            _ => return None,
        };
        Some(McsTable {
            small: Grid::new(BCC_32[mcs], 32.0),
            large: Grid::new(BCC_1458[mcs], 1458.0),
        })
    }

    /// `ln P(success)` of a chunk of `bits` bits at linear SINR `sinr`, as ns-3 3.44
    /// computes it (`TableBasedErrorRateModel::DoGetChunkSuccessRate`).
    pub fn ln_success(&self, sinr: f64, bits: u64) -> f64 {
        let size = (bits / 8).max(1);
        let grid = if size < SIZE_THRESHOLD_BYTES {
            &self.small
        } else {
            &self.large
        };
        let centi_db = if sinr > 0.0 {
            (1000.0 * sinr.log10() + 0.5).floor() as i64
        } else {
            i64::MIN
        };
        let ln_ok = grid.ln_ok(centi_db) * (size as f64 / grid.reference_bytes);
        // 1 - e^ln_ok < precision <=> the PER rounds to zero.
        if ln_ok > (-PER_PRECISION).ln_1p() {
            0.0
        } else {
            ln_ok
        }
    }

    /// Packet error rate of a chunk (for tests and reports).
    pub fn per(&self, sinr: f64, bits: u64) -> f64 {
        1.0 - self.ln_success(sinr, bits).exp()
    }
}
