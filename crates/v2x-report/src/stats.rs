//! Statistics quoted in reports, one definition each for every command: the Student-t
//! confidence interval (so that the bench and the simulator give the same interval for
//! the same numbers) and the percentile (so that the bench's and the testbed's p99 are
//! the same statistic).

/// Two-sided 95% (0.975 quantile) of Student's t with `df` degrees of freedom, from the
/// standard table to 30, then 2.000 (to 60), 1.980 (to 120) and the normal 1.960;
/// infinite for `df = 0`.
pub fn t_975(df: usize) -> f64 {
    const TABLE: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
    ];
    match df {
        0 => f64::INFINITY,
        d if d <= 30 => TABLE[d - 1],
        d if d <= 60 => 2.000,
        d if d <= 120 => 1.980,
        _ => 1.960,
    }
}

pub fn mean(v: &[f64]) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.iter().sum::<f64>() / v.len() as f64
}

/// Sample standard deviation (n - 1); zero for fewer than two values.
pub fn std_dev(v: &[f64]) -> f64 {
    if v.len() < 2 {
        return 0.0;
    }
    let m = mean(v);
    (v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (v.len() - 1) as f64).sqrt()
}

/// Mean of `v` and the half-width of its 95% confidence interval (Student t); the
/// half-width is NaN for fewer than two values.
pub fn mean_ci95(v: &[f64]) -> (f64, f64) {
    let m = mean(v);
    if v.len() < 2 {
        return (m, f64::NAN);
    }
    let n = v.len() as f64;
    let var = v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1.0);
    (m, t_975(v.len() - 1) * (var / n).sqrt())
}

/// The `q` quantile (0 ≤ q ≤ 1) of sorted data: linear interpolation between the order
/// statistics at rank h = q·(n − 1) (Hyndman and Fan's type 7, the default of R and
/// NumPy); NaN for no data. The one percentile definition of every report here.
pub fn quantile_sorted(sorted: &[f64], q: f64) -> f64 {
    match sorted.len() {
        0 => f64::NAN,
        1 => sorted[0],
        n => {
            let h = q.clamp(0.0, 1.0) * (n - 1) as f64;
            let lo = h.floor() as usize;
            let hi = (lo + 1).min(n - 1);
            let frac = h - lo as f64;
            sorted[lo] + frac * (sorted[hi] - sorted[lo])
        }
    }
}

/// A measured value against a target it must reach, judged by its 95 % interval: met only
/// when the whole interval clears the target, missed when the whole interval falls short,
/// else the measurement cannot tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Met,
    Missed,
    Inconclusive,
}

impl Verdict {
    /// `[low, high]` against a target the value must reach or exceed.
    pub fn at_least(low: f64, high: f64, target: f64) -> Verdict {
        if low >= target {
            Verdict::Met
        } else if high < target {
            Verdict::Missed
        } else {
            Verdict::Inconclusive
        }
    }

    /// As the reports write it, with the target: `met (95 % CI >= 1.8)`,
    /// `MISSED (95 % CI < 1.8)`, `not shown (95 % CI includes 1.8)`.
    pub fn text(self, target: f64) -> String {
        match self {
            Verdict::Met => format!("met (95 % CI >= {target})"),
            Verdict::Missed => format!("MISSED (95 % CI < {target})"),
            Verdict::Inconclusive => format!("not shown (95 % CI includes {target})"),
        }
    }
}

/// How reports name the percentile definition of [`quantile_sorted`].
pub const PERCENTILE_DEFINITION: &str =
    "percentiles by linear interpolation between order statistics (type 7, as R and NumPy)";

/// `mean [low–high]` of a mean and the half-width of its 95 % interval, numbers written by
/// `num`; `mean (n = 1)` when there is no interval.
pub fn with_interval(mean: f64, half: f64, num: impl Fn(f64) -> String) -> String {
    if !mean.is_finite() {
        "–".into()
    } else if half.is_finite() {
        format!("{} [{}–{}]", num(mean), num(mean - half), num(mean + half))
    } else {
        format!("{} (one run: no interval)", num(mean))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_interpolate_between_order_statistics() {
        let v: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(quantile_sorted(&v, 0.5), 50.5);
        assert!((quantile_sorted(&v, 0.99) - 99.01).abs() < 1e-9);
        assert_eq!((quantile_sorted(&v, 0.0), quantile_sorted(&v, 1.0)), (1.0, 100.0));
        assert_eq!(quantile_sorted(&[7.0], 0.3), 7.0);
        assert!(quantile_sorted(&[], 0.5).is_nan());
        // NumPy: np.percentile([1, 2, 4, 8], 75) = 5.0
        assert_eq!(quantile_sorted(&[1.0, 2.0, 4.0, 8.0], 0.75), 5.0);
    }

    #[test]
    fn table_values_and_fallbacks() {
        assert_eq!(t_975(1), 12.706);
        assert_eq!(t_975(2), 4.303);
        assert_eq!(t_975(30), 2.042);
        assert_eq!(t_975(31), 2.000);
        assert_eq!(t_975(100), 1.980);
        assert_eq!(t_975(1000), 1.960);
        assert!(t_975(0).is_infinite());
        let (m, h) = mean_ci95(&[10.0, 11.0, 12.0]);
        assert_eq!(m, 11.0);
        assert!((h - 4.303 / 3f64.sqrt()).abs() < 1e-12);
        assert!(mean_ci95(&[1.0]).1.is_nan());
    }

    /// Issue 28: 2.121 [1.237–3.006] against a target of 1.8 is not "met".
    #[test]
    fn a_target_is_met_only_when_the_interval_clears_it() {
        assert_eq!(Verdict::at_least(1.237, 3.006, 1.8), Verdict::Inconclusive);
        assert_eq!(Verdict::at_least(1.9, 2.2, 1.8), Verdict::Met);
        assert_eq!(Verdict::at_least(1.2, 1.7, 1.8), Verdict::Missed);
        assert!(Verdict::Inconclusive.text(1.8).contains("includes 1.8"));
        let f = |x: f64| format!("{x:.3}");
        assert_eq!(with_interval(0.71, 0.02, f), "0.710 [0.690–0.730]");
        assert_eq!(with_interval(0.71, f64::NAN, f), "0.710 (one run: no interval)");
    }
}
