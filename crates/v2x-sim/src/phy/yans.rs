//! The YANS error-rate model (ns-3 `YansErrorRateModel`), used only where ns-3's
//! table-based model falls back to it: BPSK 3/4 (4.5 Mb/s at 10 MHz), for which the
//! tables have no entry. Restated from ns-3 3.44 `src/wifi/model/yans-error-rate-model.cc`,
//! including its summation bounds.

use super::{CodeRate, Modulation};
use statrs::function::erf::erfc;

/// Signal spread of a 10 MHz channel (Hz).
const SIGNAL_SPREAD_HZ: f64 = 10e6;

fn binomial(k: u32, p: f64, n: u32) -> f64 {
    let choose = (0..k).fold(1.0, |acc, i| acc * f64::from(n - i) / f64::from(i + 1));
    choose * p.powi(k as i32) * (1.0 - p).powi((n - k) as i32)
}

/// Probability of choosing the wrong path at distance `d` (ns-3 sums up to d - 1).
fn pd(ber: f64, d: u32) -> f64 {
    if d % 2 == 1 {
        (d.div_ceil(2)..d).map(|i| binomial(i, ber, d)).sum()
    } else {
        (d / 2 + 1..d).map(|i| binomial(i, ber, d)).sum::<f64>() + 0.5 * binomial(d / 2, ber, d)
    }
}

/// Probability that one coded bit of mode (`m`, `c`) at `rate_mbps` survives a linear
/// SINR `snr`.
pub fn bit_success(m: Modulation, c: CodeRate, rate_mbps: f64, snr: f64) -> f64 {
    let code = match c {
        CodeRate::Half => 0.5,
        CodeRate::TwoThirds => 2.0 / 3.0,
        CodeRate::ThreeQuarters => 0.75,
    };
    let phy_rate = rate_mbps * 1e6 / code;
    let ebno = snr * SIGNAL_SPREAD_HZ / phy_rate;
    let points = f64::from(m.points());
    let ber = match m {
        Modulation::Bpsk => 0.5 * erfc(ebno.sqrt()),
        _ => {
            let bits = points.log2();
            let z = (1.5 * bits * ebno / (points - 1.0)).sqrt();
            let z1 = (1.0 - 1.0 / points.sqrt()) * erfc(z);
            (1.0 - (1.0 - z1).powi(2)) / bits
        }
    };
    if ber == 0.0 {
        return 1.0;
    }
    // (dFree, adFree, adFree + 1) as ns-3 lists them per mode.
    let (dfree, ad, ad1) = match (m, c) {
        (Modulation::Bpsk, CodeRate::Half) => (10, 11.0, 0.0),
        (Modulation::Bpsk, _) => (5, 8.0, 0.0),
        (Modulation::Qam64, CodeRate::TwoThirds) => (6, 1.0, 16.0),
        (_, CodeRate::Half) => (10, 11.0, 0.0),
        _ => (5, 8.0, 31.0),
    };
    let mut pmu = ad * pd(ber, dfree);
    if m != Modulation::Bpsk {
        pmu += ad1 * pd(ber, dfree + 1);
    }
    1.0 - pmu.min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomial_and_pd_restate_the_definitions() {
        // C(5, 2) p^2 (1-p)^3
        let p: f64 = 0.1;
        assert!((binomial(2, p, 5) - 10.0 * p * p * 0.9f64.powi(3)).abs() < 1e-15);
        // d = 5: i in 3..5 -> C(5,3) p^3 q^2 + C(5,4) p^4 q (ns-3 leaves out i = d).
        let q = 1.0 - p;
        let want = 10.0 * p.powi(3) * q * q + 5.0 * p.powi(4) * q;
        assert!((pd(p, 5) - want).abs() < 1e-15);
        // d = 6: i in 4..6 plus half the middle term.
        let want6 = 15.0 * p.powi(4) * q * q + 6.0 * p.powi(5) * q + 0.5 * 20.0 * p.powi(3) * q.powi(3);
        assert!((pd(p, 6) - want6).abs() < 1e-15);
    }

    #[test]
    fn bpsk_three_quarters_improves_with_sinr() {
        let s = |db: f64| bit_success(Modulation::Bpsk, CodeRate::ThreeQuarters, 4.5, 10f64.powf(db / 10.0));
        assert!(s(0.0) < s(3.0) && s(3.0) < s(6.0));
        assert!(s(12.0) > 1.0 - 1e-9);
    }
}
