//! Service-time spread for costs published as a mean alone.
//!
//! The papers give one number per operation; a real processor does not take exactly that
//! long every time (cache state, interrupts, frequency scaling, data-dependent arithmetic).
//! A simulator that draws every verification at exactly the mean makes receivers that heard
//! the same frames finish together, a synchronisation no real processor has. A [`Spread`]
//! names a distribution family and its coefficient of variation around the published mean
//! (the mean is kept), with the basis of the figure; a profile's `spread` applies to every
//! cost of that profile that has no measured quantiles.

use crate::named_enum;
use serde::{Deserialize, Serialize};

named_enum! {
    /// A service-time distribution family, parameterised by mean and coefficient of variation.
    pub enum SpreadFamily ("distribution family") {
        /// Lognormal (right-skewed, the usual fit to software execution times).
        Lognormal = "lognormal",
        /// Uniform on mean ± sqrt(3) · cv · mean.
        Uniform = "uniform",
    }
}

/// A named distribution around a cost's mean.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spread {
    pub family: SpreadFamily,
    /// Coefficient of variation: standard deviation / mean (0 = deterministic).
    pub cv: f64,
    /// Where the figure comes from (shown with the profile).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub basis: String,
}

impl Spread {
    pub fn new(family: SpreadFamily, cv: f64) -> Spread {
        Spread {
            family,
            cv,
            basis: String::new(),
        }
    }

    /// Checks the coefficient of variation (finite, 0 to 1; uniform at most 1/sqrt(3), so
    /// no draw is negative).
    pub fn check(&self) -> Result<(), String> {
        let max = match self.family {
            SpreadFamily::Lognormal => 1.0,
            SpreadFamily::Uniform => 1.0 / 3f64.sqrt(),
        };
        if self.cv.is_finite() && (0.0..=max).contains(&self.cv) {
            Ok(())
        } else {
            Err(format!(
                "{} spread: cv must be between 0 and {max:.3}, not {}",
                self.family, self.cv
            ))
        }
    }

    /// The value at quantile `u` of this distribution with mean `mean`.
    pub fn quantile(&self, mean: f64, u: f64) -> f64 {
        if self.cv <= 0.0 {
            return mean;
        }
        match self.family {
            SpreadFamily::Lognormal => {
                let s2 = (1.0 + self.cv * self.cv).ln();
                let mu = mean.ln() - s2 / 2.0;
                // Clamped so that a draw of exactly 0 or 1 stays finite (|z| <= 6).
                let z = inverse_normal_cdf(u.clamp(1e-9, 1.0 - 1e-9));
                (mu + s2.sqrt() * z).exp()
            }
            SpreadFamily::Uniform => {
                let half = 3f64.sqrt() * self.cv * mean;
                mean - half + 2.0 * half * u.clamp(0.0, 1.0)
            }
        }
    }
}

/// Standard normal quantile (Acklam's rational approximation, relative error < 1.2e-9).
fn inverse_normal_cdf(p: f64) -> f64 {
    const A: [f64; 6] = [
        -3.969683028665376e1,
        2.209460984245205e2,
        -2.759285104469687e2,
        1.38357751867269e2,
        -3.066479806614716e1,
        2.506628277459239,
    ];
    const B: [f64; 5] = [
        -5.447609879822406e1,
        1.615858368580409e2,
        -1.556989798598866e2,
        6.680131188771972e1,
        -1.328068155288572e1,
    ];
    const C: [f64; 6] = [
        -7.784894002430293e-3,
        -3.223964580411365e-1,
        -2.400758277161838,
        -2.549732539343734,
        4.374664141464968,
        2.938163982698783,
    ];
    const D: [f64; 4] = [
        7.784695709041462e-3,
        3.224671290700398e-1,
        2.445134137142996,
        3.754408661907416,
    ];
    let tail = |q: f64| {
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    };
    const LOW: f64 = 0.02425;
    if p < LOW {
        tail((-2.0 * p.ln()).sqrt())
    } else if p > 1.0 - LOW {
        -tail((-2.0 * (1.0 - p).ln()).sqrt())
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_quantiles_match_tables() {
        // Standard normal table values.
        for (p, z) in [
            (0.5, 0.0),
            (0.975, 1.959964),
            (0.99, 2.326348),
            (0.01, -2.326348),
            (0.001, -3.090232),
        ] {
            assert!(
                (inverse_normal_cdf(p) - z).abs() < 1e-5,
                "{p}: {}",
                inverse_normal_cdf(p)
            );
        }
    }

    /// Drawing by inverse transform over a fine grid of quantiles recovers the mean and cv.
    #[test]
    fn draws_keep_the_mean_and_have_the_named_cv() {
        for family in SpreadFamily::ALL {
            let s = Spread::new(*family, 0.1);
            s.check().unwrap();
            let n = 100_000;
            let xs: Vec<f64> = (0..n)
                .map(|i| s.quantile(3010.0, (i as f64 + 0.5) / n as f64))
                .collect();
            let mean = xs.iter().sum::<f64>() / n as f64;
            let sd = (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n as f64).sqrt();
            assert!((mean / 3010.0 - 1.0).abs() < 1e-3, "{family}: mean {mean}");
            assert!((sd / mean - 0.1).abs() < 2e-3, "{family}: cv {}", sd / mean);
            assert!(xs.iter().all(|x| *x > 0.0));
        }
        assert_eq!(Spread::new(SpreadFamily::Lognormal, 0.0).quantile(5.0, 0.9), 5.0);
        assert!(Spread::new(SpreadFamily::Uniform, 0.9).check().is_err());
        let e = "gama".parse::<SpreadFamily>().unwrap_err().to_string();
        assert!(e.contains("lognormal, uniform"), "{e}");
    }
}
