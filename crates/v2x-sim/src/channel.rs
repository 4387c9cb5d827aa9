//! Radio channel: path loss, Nakagami-m fading and thermal noise.

use crate::scenario::{FadingConfig, PathLossConfig};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

const SPEED_OF_LIGHT_MPS: f64 = 299_792_458.0;

pub fn dbm_to_mw(dbm: f64) -> f64 {
    10f64.powf(dbm / 10.0)
}

pub fn mw_to_dbm(mw: f64) -> f64 {
    10.0 * mw.log10()
}

/// Boltzmann's constant (J/K).
const BOLTZMANN: f64 = 1.380_649e-23;

/// Thermal noise power over the channel (dBm): kTB at 290 K plus the noise figure
/// (-96.98 dBm at 10 MHz and 7 dB, as ns-3's interference helper computes it).
pub fn noise_dbm(channel_width_hz: f64, noise_figure_db: f64) -> f64 {
    mw_to_dbm(BOLTZMANN * 290.0 * channel_width_hz * 1000.0) + noise_figure_db
}

/// Propagation delay over `d` metres (seconds).
pub fn propagation_delay_s(d: f64) -> f64 {
    d / SPEED_OF_LIGHT_MPS
}

/// Propagation delay over `d` metres in simulated time: rounded to the nearest ns, as every
/// duration ([`crate::time::ns`]).
pub fn propagation_delay_ns(d: f64) -> u64 {
    crate::time::ns(propagation_delay_s(d))
}

/// Deterministic path loss as a function of distance.
#[derive(Debug, Clone)]
pub struct PathLoss {
    cfg: PathLossConfig,
    wavelength_m: f64,
    frequency_hz: f64,
}

impl PathLoss {
    pub fn new(cfg: &PathLossConfig, frequency_hz: f64) -> PathLoss {
        PathLoss {
            cfg: cfg.clone(),
            wavelength_m: SPEED_OF_LIGHT_MPS / frequency_hz,
            frequency_hz,
        }
    }

    fn friis_db(&self, d: f64) -> f64 {
        20.0 * (4.0 * std::f64::consts::PI * d / self.wavelength_m).log10()
    }

    /// Loss in dB at distance `d` metres.
    pub fn loss_db(&self, d: f64) -> f64 {
        let d = d.max(1e-3);
        match self.cfg {
            PathLossConfig::FreeSpace { system_loss_db } => self.friis_db(d) + system_loss_db,
            PathLossConfig::TwoRayGround {
                antenna_height_m: h,
                system_loss_db,
            } => {
                let crossover = 4.0 * std::f64::consts::PI * h * h / self.wavelength_m;
                if d <= crossover {
                    self.friis_db(d) + system_loss_db
                } else {
                    40.0 * d.log10() - 40.0 * h.log10() + system_loss_db
                }
            }
            PathLossConfig::DualSlope {
                reference_loss_db,
                reference_distance_m,
                breakpoint_m,
                exponent1,
                exponent2,
            } => {
                let d = d.max(reference_distance_m);
                if d <= breakpoint_m {
                    reference_loss_db + 10.0 * exponent1 * (d / reference_distance_m).log10()
                } else {
                    reference_loss_db
                        + 10.0 * exponent1 * (breakpoint_m / reference_distance_m).log10()
                        + 10.0 * exponent2 * (d / breakpoint_m).log10()
                }
            }
            PathLossConfig::ThreeLogDistance {
                reference_loss_db,
                distance0_m,
                distance1_m,
                distance2_m,
                exponent0,
                exponent1,
                exponent2,
            } => {
                let d = d.max(distance0_m);
                let l0 = 10.0 * exponent0 * (d.min(distance1_m) / distance0_m).log10();
                let l1 = if d > distance1_m {
                    10.0 * exponent1 * (d.min(distance2_m) / distance1_m).log10()
                } else {
                    0.0
                };
                let l2 = if d > distance2_m {
                    10.0 * exponent2 * (d / distance2_m).log10()
                } else {
                    0.0
                };
                reference_loss_db + l0 + l1 + l2
            }
            PathLossConfig::WinnerB1 { antenna_height_m: h } => {
                let d = d.max(3.0);
                let f_ghz = self.frequency_hz / 1e9;
                let breakpoint = 4.0 * h * h * self.frequency_hz / 3e8;
                let loss = if d < breakpoint {
                    22.7 * d.log10() + 27.0 + 20.0 * f_ghz.log10()
                } else {
                    40.0 * d.log10() + 7.56 - 2.0 * 17.3 * h.log10() + 2.7 * f_ghz.log10()
                };
                let free = 20.0 * d.log10() + 46.4 + 20.0 * (f_ghz / 5.0).log10();
                loss.max(free)
            }
        }
    }

    /// Largest distance at which the mean received power is at least `floor_dbm`
    /// (bisection; loss is non-decreasing in distance for every model).
    pub fn range_m(&self, tx_dbm: f64, floor_dbm: f64) -> f64 {
        let (mut lo, mut hi) = (0.0f64, 1.0f64);
        while tx_dbm - self.loss_db(hi) >= floor_dbm && hi < 1e7 {
            hi *= 2.0;
        }
        for _ in 0..60 {
            let mid = 0.5 * (lo + hi);
            if tx_dbm - self.loss_db(mid) >= floor_dbm {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        lo
    }
}

/// Small-scale fading: a random power gain with mean 1.
#[derive(Debug, Clone)]
pub struct Fading {
    cfg: FadingConfig,
}

impl Fading {
    pub fn new(cfg: &FadingConfig) -> Fading {
        Fading { cfg: cfg.clone() }
    }

    /// Nakagami shape at distance `d`, `None` without fading.
    pub fn m_at(&self, d: f64) -> Option<f64> {
        match self.cfg {
            FadingConfig::None => None,
            FadingConfig::Nakagami {
                distance1_m,
                distance2_m,
                m0,
                m1,
                m2,
            } => Some(if d < distance1_m {
                m0
            } else if d < distance2_m {
                m1
            } else {
                m2
            }),
        }
    }

    /// The Nakagami shapes [`Fading::m_at`] returns (none without fading).
    pub fn shapes(&self) -> Vec<f64> {
        match self.cfg {
            FadingConfig::None => Vec::new(),
            FadingConfig::Nakagami { m0, m1, m2, .. } => vec![m0, m1, m2],
        }
    }

    /// Linear power gain for one packet over distance `d`.
    pub fn gain(&self, d: f64, rng: &mut ChaCha8Rng) -> f64 {
        match self.m_at(d) {
            None => 1.0,
            // Gamma(m, 1/m): unit mean. `m` is validated within [0.5, 100].
            Some(m) => rand_distr::Gamma::new(m, 1.0 / m).map_or(1.0, |g| rng.sample(g)),
        }
    }
}

/// Inverse CDF of the Nakagami power gain Gamma(m, 1/m), tabulated on a log-spaced grid.
#[derive(Debug, Clone)]
pub struct GainQuantiles {
    m: f64,
    /// Gamma(m, 1) values and their CDF, ascending.
    x: Vec<f64>,
    cdf: Vec<f64>,
    /// Gain at u = k / UNIFORM_STEPS.
    uniform: Vec<f64>,
}

const UNIFORM_STEPS: usize = 4096;

impl GainQuantiles {
    pub fn new(m: f64) -> GainQuantiles {
        const K: usize = 3000;
        let (lo, hi) = (1e-10f64.ln(), (100.0 + 10.0 * m).ln());
        let x: Vec<f64> = (0..K)
            .map(|k| (lo + (hi - lo) * k as f64 / (K - 1) as f64).exp())
            .collect();
        let cdf = x.iter().map(|&v| gamma_p(m, v)).collect();
        let mut q = GainQuantiles {
            m,
            x,
            cdf,
            uniform: Vec::new(),
        };
        q.uniform = (0..=UNIFORM_STEPS)
            .map(|k| q.search(k as f64 / UNIFORM_STEPS as f64))
            .collect();
        q
    }

    /// CDF of the gain at `g`.
    pub fn cdf(&self, g: f64) -> f64 {
        gamma_p(self.m, g * self.m)
    }

    /// Gain at quantile `u`: a uniform-in-u table for the body, the fine log-spaced grid
    /// for the upper tail (where received power matters most).
    pub fn quantile(&self, u: f64) -> f64 {
        let pos = u * UNIFORM_STEPS as f64;
        let k = pos as usize;
        if k + 1 < UNIFORM_STEPS {
            if let (Some(a), Some(b)) = (self.uniform.get(k), self.uniform.get(k + 1)) {
                return a + (pos - k as f64) * (b - a);
            }
        }
        self.search(u)
    }

    fn search(&self, u: f64) -> f64 {
        let i = self.cdf.partition_point(|&c| c < u);
        let x = if i == 0 {
            self.x[0]
        } else if i >= self.cdf.len() {
            self.x[self.x.len() - 1]
        } else {
            let (c0, c1) = (self.cdf[i - 1], self.cdf[i]);
            let t = if c1 > c0 { (u - c0) / (c1 - c0) } else { 0.0 };
            self.x[i - 1] + t * (self.x[i] - self.x[i - 1])
        };
        x / self.m
    }
}

/// Received power per link drawn from tables: mean power by distance, the probability that
/// fading leaves the signal below the floor, and fading quantiles. Avoids logarithms,
/// powers and rejection sampling on the per-receiver path.
pub struct LinkBudget {
    step_m: f64,
    mean_mw: Vec<f64>,
    /// Mean of the faded power counting draws below the floor as 0 (what a receiver sums
    /// on average from this distance).
    mean_above_floor_mw: Vec<f64>,
    p_below: Vec<f64>,
    table_of: Vec<u8>,
    tables: Vec<GainQuantiles>,
    floor_mw: f64,
}

const NO_FADING: u8 = u8::MAX;

impl LinkBudget {
    pub fn new(pl: &PathLoss, fading: &Fading, tx_dbm: f64, floor_dbm: f64, cutoff_m: f64) -> LinkBudget {
        let step_m = 0.25;
        let n = (cutoff_m / step_m).ceil() as usize + 2;
        let floor_mw = dbm_to_mw(floor_dbm);
        let mut tables: Vec<GainQuantiles> = Vec::new();
        let (mut mean_mw, mut p_below, mut table_of) =
            (Vec::with_capacity(n), Vec::with_capacity(n), Vec::with_capacity(n));
        let mut mean_above_floor_mw = Vec::with_capacity(n);
        for k in 0..n {
            let d = k as f64 * step_m;
            let mean = dbm_to_mw(tx_dbm - pl.loss_db(d));
            mean_mw.push(mean);
            match fading.m_at(d) {
                None => {
                    table_of.push(NO_FADING);
                    p_below.push(if mean >= floor_mw { 0.0 } else { 1.0 });
                    mean_above_floor_mw.push(if mean >= floor_mw { mean } else { 0.0 });
                }
                Some(m) => {
                    let t = match tables.iter().position(|t| t.m == m) {
                        Some(t) => t,
                        None => {
                            tables.push(GainQuantiles::new(m));
                            tables.len() - 1
                        }
                    };
                    table_of.push(t.min(254) as u8);
                    p_below.push(gamma_p(m, m * floor_mw / mean));
                    // E[G; G >= t] = Q(m + 1, m t) for G ~ Gamma(m, 1/m).
                    mean_above_floor_mw.push(mean * (1.0 - gamma_p(m + 1.0, m * floor_mw / mean)));
                }
            }
        }
        LinkBudget {
            step_m,
            mean_mw,
            mean_above_floor_mw,
            p_below,
            table_of,
            tables,
            floor_mw,
        }
    }

    /// Received power (mW) over `d` metres for one packet whose fading draw is the uniform
    /// `u` in [0, 1), `None` below the floor.
    pub fn sample_mw(&self, d: f64, u: f64) -> Option<f64> {
        let pos = d / self.step_m;
        let k = pos as usize;
        let (Some(&a), Some(&b)) = (self.mean_mw.get(k), self.mean_mw.get(k + 1)) else {
            return None;
        };
        let mean = a + (pos - k as f64) * (b - a);
        let mw = match self.table_of.get(k).copied() {
            Some(NO_FADING) | None => mean,
            Some(t) => {
                if u < self.p_below.get(k).copied().unwrap_or(1.0) {
                    return None;
                }
                mean * self.tables.get(t as usize)?.quantile(u)
            }
        };
        (mw >= self.floor_mw).then_some(mw)
    }
}

impl LinkBudget {
    /// Mean received power over `d` metres, draws below the floor counting 0 (mW).
    pub fn mean_above_floor_mw(&self, d: f64) -> f64 {
        let pos = d / self.step_m;
        let k = pos as usize;
        match (self.mean_above_floor_mw.get(k), self.mean_above_floor_mw.get(k + 1)) {
            (Some(&a), Some(&b)) => a + (pos - k as f64) * (b - a),
            _ => 0.0,
        }
    }

    /// The largest tabulated distance at which the power reaches `threshold_mw` with
    /// probability `p` or more (0 when it never does).
    pub fn reach_m(&self, threshold_mw: f64, p: f64) -> f64 {
        let p_above = |k: usize| {
            let mean = self.mean_mw[k];
            match self.table_of[k] {
                NO_FADING => f64::from(u8::from(mean >= threshold_mw)),
                t => {
                    let m = self.tables[t as usize].m;
                    1.0 - gamma_p(m, m * threshold_mw / mean)
                }
            }
        };
        (0..self.mean_mw.len())
            .rev()
            .find(|&k| p_above(k) >= p)
            .map_or(0.0, |k| (k + 1) as f64 * self.step_m)
    }
}

/// The regularized lower incomplete gamma function P(a, x) (statrs), the CDF of
/// Gamma(a, 1) at x: 0 for x <= 0, 1 at infinity.
pub fn gamma_p(a: f64, x: f64) -> f64 {
    if x <= 0.0 {
        0.0
    } else if x == f64::INFINITY {
        1.0
    } else {
        statrs::function::gamma::gamma_lr(a, x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn three_log_distance_matches_ns3_breakpoints() {
        let pl = PathLoss::new(&PathLossConfig::default(), 5.9e9);
        assert!((pl.loss_db(1.0) - 46.6777).abs() < 1e-9);
        assert!((pl.loss_db(200.0) - (46.6777 + 19.0 * 200f64.log10())).abs() < 1e-9);
        let at500 = 46.6777 + 19.0 * 200f64.log10() + 38.0 * 2.5f64.log10();
        assert!((pl.loss_db(500.0) - at500).abs() < 1e-9);
        assert!((pl.loss_db(1000.0) - (at500 + 38.0 * 2f64.log10())).abs() < 1e-9);
        let r = pl.range_m(20.0, -82.0);
        assert!((20.0 - pl.loss_db(r) + 82.0).abs() < 1e-6);
    }

    /// The values `get_PL_SH.m` of the analytical model (msepulcre/C-V2X, 71d4c25) prints
    /// in GNU Octave 7.3 at 5.91 GHz, 1.5 m antennas.
    #[test]
    fn winner_b1_matches_the_analytical_models_code() {
        let pl = PathLoss::new(&PathLossConfig::WinnerB1 { antenna_height_m: 1.5 }, 5.91e9);
        for (d, octave) in [
            (1.0, 57.394774625298),
            (50.0, 81.831749617625),
            (100.0, 87.852349530905),
            (177.0, 93.460742764038),
            (178.0, 93.567328727409),
            (300.0, 102.635378823839),
            (500.0, 111.509328808494),
            (1000.0, 123.550528635053),
            (1500.0, 130.594178997280),
        ] {
            assert!(
                (pl.loss_db(d) - octave).abs() < 1e-9,
                "{d} m: {} against {octave}",
                pl.loss_db(d)
            );
        }
    }

    #[test]
    fn free_space_and_two_ray() {
        let fs = PathLoss::new(&PathLossConfig::FreeSpace { system_loss_db: 0.0 }, 5.9e9);
        // Friis at 100 m, 5.9 GHz: about 87.9 dB.
        assert!((fs.loss_db(100.0) - 87.87).abs() < 0.05, "{}", fs.loss_db(100.0));
        let tr = PathLoss::new(
            &PathLossConfig::TwoRayGround {
                antenna_height_m: 1.5,
                system_loss_db: 0.0,
            },
            5.9e9,
        );
        assert!((tr.loss_db(2000.0) - (40.0 * 2000f64.log10() - 40.0 * 1.5f64.log10())).abs() < 1e-9);
        // ns-3: 7 dB x 1.3803e-23 J/K x 290 K x 10 MHz = -96.9762 dBm (its Boltzmann
        // constant is 0.001 dB off the CODATA value used here).
        let ns3 = 10.0 * (10f64.powf(0.7) * 1.3803e-23 * 290.0 * 10e6 * 1000.0).log10();
        assert!((noise_dbm(10e6, 7.0) - ns3).abs() < 2e-3, "{}", noise_dbm(10e6, 7.0));
    }

    #[test]
    fn gamma_cdf_closed_forms() {
        // Shape 1 is exponential.
        for x in [0.1, 0.5, 1.0, 3.0] {
            assert!((gamma_p(1.0, x) - (1.0 - (-x).exp())).abs() < 1e-12);
        }
        // Shape 2: 1 - e^-x (1 + x).
        for x in [0.2, 2.0, 7.0] {
            assert!((gamma_p(2.0, x) - (1.0 - (-x).exp() * (1.0 + x))).abs() < 1e-12);
        }
    }

    #[test]
    fn gain_quantiles_invert_the_cdf() {
        for m in [0.75, 1.5, 3.0] {
            let q = GainQuantiles::new(m);
            for g in [0.05, 0.3, 1.0, 2.5, 6.0, 12.0] {
                let u = q.cdf(g);
                let back = q.quantile(u);
                assert!((back - g).abs() / g < 0.01, "m={m} g={g}: {back}");
            }
        }
    }

    /// The link powers drawn with the counter-based draws (one per receiver of a
    /// transmission, as the engine does) follow the Nakagami law: the empirical CDF of the
    /// power over the mean matches the Gamma(m, 1/m) CDF (Kolmogorov-Smirnov at 0.1 %),
    /// and the share below the floor matches `p_below`.
    #[test]
    fn keyed_link_draws_follow_the_gamma_cdf() {
        use crate::keyed_rng::{Draw, RunDice};
        let pl = PathLoss::new(&PathLossConfig::default(), 5.9e9);
        let fading = Fading::new(&FadingConfig::default());
        let link = LinkBudget::new(&pl, &fading, 20.0, -101.0, 2000.0);
        let dice = RunDice::new(3);
        for (d, m) in [(50.0, 1.5), (300.0, 0.75), (700.0, 0.75)] {
            let mean = dbm_to_mw(20.0 - pl.loss_db(d));
            let floor_mw = dbm_to_mw(-101.0);
            let n = 40_000u32;
            let mut gains: Vec<f64> = Vec::new();
            let mut below = 0u32;
            for r in 0..n {
                let u = dice
                    .transmission(u64::from(r / 200))
                    .uniform(crate::node_id::NodeId(r % 200), Draw::Fading);
                match link.sample_mw(d, u) {
                    Some(mw) => gains.push(mw / mean),
                    None => below += 1,
                }
            }
            let p_below = gamma_p(m, m * floor_mw / mean);
            let sigma = (p_below * (1.0 - p_below) / f64::from(n)).sqrt();
            let got_below = f64::from(below) / f64::from(n);
            assert!(
                (got_below - p_below).abs() <= 4.0 * sigma + 1e-4,
                "d={d}: below {got_below} vs {p_below}"
            );
            // KS distance of the whole power distribution (a draw below the floor counts
            // at the floor).
            gains.sort_by(f64::total_cmp);
            let floor_gain = floor_mw / mean;
            let mut ks = 0f64;
            for (i, &g) in gains.iter().enumerate() {
                let emp = (f64::from(below) + i as f64 + 1.0) / f64::from(n);
                ks = ks.max((emp - gamma_p(m, m * g)).abs());
            }
            ks = ks.max((got_below - gamma_p(m, m * floor_gain)).abs());
            // The 0.1 % critical value 1.95 / sqrt(n), plus the tables' interpolation.
            assert!(ks < 1.95 / f64::from(n).sqrt() + 0.002, "d={d} m={m}: KS {ks}");
        }
    }

    #[test]
    fn nakagami_gain_has_unit_mean() {
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let f = Fading::new(&FadingConfig::default());
        let n = 200_000;
        let mean = (0..n).map(|_| f.gain(300.0, &mut rng)).sum::<f64>() / f64::from(n);
        assert!((mean - 1.0).abs() < 0.01, "{mean}");
    }
}
