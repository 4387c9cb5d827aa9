//! Block error rate of the PSSCH against its SINR, per MCS: link-level curves.
//!
//! Source: 3GPP R1-160284 ("DMRS enhancement of V2V", RAN1 #84, 2016),
//! link-level BLER for a 190-byte transport block at a relative speed of 280 km/h, as
//! tabulated in `get_BLER.m` of the analytical model of Gonzalez-Martín, Sepulcre,
//! Molina-Masegosa and Gozalvez (IEEE TVT 68(2), 2019; github.com/msepulcre/C-V2X), which
//! interpolates linearly in BLER between the points. Two curves are published there:
//! QPSK at code rate about 0.7 (a 190-byte message on 10 data PRBs, MCS 9) and QPSK at
//! rate 0.5 (on 12 data PRBs). No other MCS has a published curve here, so another MCS must
//! name the curve it uses (`[sidelink] bler_curve`).

pub use crate::scenario::sidelink::BlerCurve;

/// (SINR dB, BLER) of each curve; below the first point the BLER is 1, beyond the last
/// 1e-4 (the model's extension).
const QPSK_R07: [(f64, f64); 13] = [
    (0.0, 1.0),
    (2.0, 0.9),
    (4.0, 0.7),
    (6.0, 0.4),
    (8.0, 0.13),
    (10.0, 0.045),
    (12.0, 0.017),
    (14.0, 0.007),
    (16.0, 1e-3),
    (18.0, 1e-3),
    (20.0, 1e-3),
    (20.000_001, 1e-4),
    (1e9, 1e-4),
];
const QPSK_R05: [(f64, f64); 14] = [
    (-2.0, 1.0),
    (0.0, 0.9),
    (2.0, 0.7),
    (4.0, 0.3),
    (6.0, 0.09),
    (8.0, 0.02),
    (10.0, 0.002),
    (12.0, 1e-3),
    (14.0, 1e-3),
    (16.0, 1e-3),
    (18.0, 1e-3),
    (20.0, 1e-3),
    (20.000_001, 1e-4),
    (1e9, 1e-4),
];

impl BlerCurve {
    fn points(self) -> &'static [(f64, f64)] {
        match self {
            BlerCurve::QpskR07 => &QPSK_R07,
            BlerCurve::QpskR05 => &QPSK_R05,
        }
    }

    /// The BLER at `sinr_db` (linear interpolation between the points).
    pub fn bler(self, sinr_db: f64) -> f64 {
        let p = self.points();
        if sinr_db.is_nan() || sinr_db <= p[0].0 {
            return 1.0;
        }
        let k = p.partition_point(|&(x, _)| x < sinr_db);
        let ((x0, y0), (x1, y1)) = (p[k - 1], p[k]);
        y0 + (y1 - y0) * (sinr_db - x0) / (x1 - x0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn curves_pass_through_their_points_and_interpolate() {
        let c = BlerCurve::QpskR07;
        assert_eq!(c.bler(-10.0), 1.0);
        assert_eq!(c.bler(0.0), 1.0);
        assert!((c.bler(6.0) - 0.4).abs() < 1e-12);
        assert!((c.bler(7.0) - 0.265).abs() < 1e-12);
        assert!((c.bler(17.0) - 1e-3).abs() < 1e-12);
        assert_eq!(c.bler(40.0), 1e-4);
        assert!((BlerCurve::QpskR05.bler(4.0) - 0.3).abs() < 1e-12);
        for c in [BlerCurve::QpskR07, BlerCurve::QpskR05] {
            let mut last = 1.0;
            for i in 0..400 {
                let b = c.bler(-5.0 + f64::from(i) * 0.1);
                assert!(b <= last + 1e-15 && b > 0.0);
                last = b;
            }
        }
        assert_eq!(BlerCurve::for_mcs(9), Some(BlerCurve::QpskR07));
        assert_eq!(BlerCurve::for_mcs(7), None);
    }
}
