//! Simulated time: nanoseconds in a `u64`, and the one rule that turns seconds into them
//! (rounded to the nearest nanosecond) — for configured durations and for the propagation
//! delay of every signal alike.

/// Seconds to ns, rounded to the nearest, clamped so that adding two durations cannot
/// overflow.
pub fn ns(s: f64) -> u64 {
    round_nonneg(s.clamp(0.0, 4e9) * 1e9)
}

/// `x.round() as u64` inline (0 for negative values and NaN): `f64::round` is a libm call
/// on baseline x86-64, and this runs for every receiver of every transmission (its
/// propagation delay) and every cell of its weak-interference field. Exact: below 2^52
/// `x - trunc(x)` is exact; above, `x` is an integer.
pub fn round_nonneg(x: f64) -> u64 {
    let t = x as u64;
    if x - t as f64 >= 0.5 {
        t + 1
    } else {
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The inline rounding agrees with `f64::round` from tiny values to the integer range,
    /// halves and their neighbours included.
    #[test]
    fn round_nonneg_is_round() {
        let mut u: f64 = 1e-3;
        while u < 1e18 {
            let half = (u * 7.3).floor() + 0.5;
            for v in [
                u,
                u + 0.5,
                half,
                f64::from_bits(half.to_bits() - 1),
                f64::from_bits(u.to_bits() + 1),
            ] {
                assert_eq!(round_nonneg(v), v.round() as u64, "{v}");
            }
            u *= 1.37;
        }
        for v in [
            0.0,
            0.5,
            0.49999999999999994,
            1.5,
            2.5,
            4503599627370495.5,
            9007199254740993.0,
        ] {
            assert_eq!(round_nonneg(v), v.round() as u64, "{v}");
        }
        assert_eq!(round_nonneg(-0.7), 0);
        assert_eq!(round_nonneg(f64::NAN), 0);
        assert_eq!(ns(1.5e-9), 2);
    }
}
