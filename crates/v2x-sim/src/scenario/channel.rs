//! `[radio.path_loss]` and `[radio.fading]`: the channel models and their parameters
//! (distances in metres, losses in dB; defaults are ns-3's).

use super::check::{finite, pos};
use crate::error::ScenarioError;
use serde::{Deserialize, Serialize};

/// Path loss model (distances in metres, losses in dB).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "model", rename_all = "kebab-case", deny_unknown_fields)]
pub enum PathLossConfig {
    FreeSpace {
        #[serde(default)]
        system_loss_db: f64,
    },
    /// Two-ray ground reflection (free space below the crossover distance).
    TwoRayGround {
        #[serde(default = "d_height")]
        antenna_height_m: f64,
        #[serde(default)]
        system_loss_db: f64,
    },
    /// Dual slope: exponent n1 up to the breakpoint, n2 beyond.
    DualSlope {
        #[serde(default = "d_ref_loss")]
        reference_loss_db: f64,
        #[serde(default = "d_one")]
        reference_distance_m: f64,
        #[serde(default = "d_breakpoint")]
        breakpoint_m: f64,
        #[serde(default = "d_exp1")]
        exponent1: f64,
        #[serde(default = "d_exp2")]
        exponent2: f64,
    },
    /// ns-3 ThreeLogDistancePropagationLossModel (defaults are ns-3's).
    ThreeLogDistance {
        #[serde(default = "d_ref_loss")]
        reference_loss_db: f64,
        #[serde(default = "d_one")]
        distance0_m: f64,
        #[serde(default = "d_d1")]
        distance1_m: f64,
        #[serde(default = "d_d2")]
        distance2_m: f64,
        #[serde(default = "d_exp0")]
        exponent0: f64,
        #[serde(default = "d_exp2")]
        exponent1: f64,
        #[serde(default = "d_exp2")]
        exponent2: f64,
    },
    /// WINNER+ B1 line of sight, the highway model of 3GPP TR 36.885 (Table A.1.4-1) and of
    /// the LTE-V2X analytical model (`get_PL_SH.m` of msepulcre/C-V2X): 22.7 log10(d) + 27 +
    /// 20 log10(f/GHz) below the breakpoint 4 h h f / c, 40 log10(d) + 7.56 - 17.3 log10(h)
    /// - 17.3 log10(h) + 2.7 log10(f/GHz) beyond, never below free space (20 log10(d) + 46.4
    /// + 20 log10(f/5 GHz)); distances below 3 m count as 3 m.
    WinnerB1 {
        /// Transmitter and receiver antenna heights (m).
        #[serde(default = "d_height")]
        antenna_height_m: f64,
    },
}

fn d_height() -> f64 {
    1.5
}
fn d_ref_loss() -> f64 {
    46.6777
}
fn d_breakpoint() -> f64 {
    100.0
}
fn d_exp1() -> f64 {
    2.0
}
fn d_exp2() -> f64 {
    3.8
}
fn d_exp0() -> f64 {
    1.9
}
fn d_d1() -> f64 {
    200.0
}
fn d_one() -> f64 {
    1.0
}
fn d_d2() -> f64 {
    500.0
}

impl Default for PathLossConfig {
    fn default() -> Self {
        PathLossConfig::ThreeLogDistance {
            reference_loss_db: d_ref_loss(),
            distance0_m: 1.0,
            distance1_m: d_d1(),
            distance2_m: d_d2(),
            exponent0: d_exp0(),
            exponent1: d_exp2(),
            exponent2: d_exp2(),
        }
    }
}

/// Small-scale fading.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "model", rename_all = "kebab-case", deny_unknown_fields)]
pub enum FadingConfig {
    None,
    /// Nakagami-m power fading with distance-dependent m (ns-3 defaults: 1.5 below 80 m,
    /// 0.75 beyond).
    Nakagami {
        #[serde(default = "d_d80")]
        distance1_m: f64,
        #[serde(default = "d_d2")]
        distance2_m: f64,
        #[serde(default = "d_m0")]
        m0: f64,
        #[serde(default = "d_m1")]
        m1: f64,
        #[serde(default = "d_m1")]
        m2: f64,
    },
}

fn d_d80() -> f64 {
    80.0
}
fn d_m0() -> f64 {
    1.5
}
fn d_m1() -> f64 {
    0.75
}

impl Default for FadingConfig {
    fn default() -> Self {
        FadingConfig::Nakagami {
            distance1_m: d_d80(),
            distance2_m: d_d2(),
            m0: d_m0(),
            m1: d_m1(),
            m2: d_m1(),
        }
    }
}

impl PathLossConfig {
    /// Checks value ranges; the error names the field.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        match self {
            PathLossConfig::FreeSpace { system_loss_db } => finite("radio.path_loss.system_loss_db", *system_loss_db)?,
            PathLossConfig::TwoRayGround {
                antenna_height_m,
                system_loss_db,
            } => {
                pos("radio.path_loss.antenna_height_m", *antenna_height_m)?;
                finite("radio.path_loss.system_loss_db", *system_loss_db)?;
            }
            PathLossConfig::DualSlope {
                reference_loss_db,
                reference_distance_m,
                breakpoint_m,
                exponent1,
                exponent2,
            } => {
                finite("radio.path_loss.reference_loss_db", *reference_loss_db)?;
                pos("radio.path_loss.reference_distance_m", *reference_distance_m)?;
                pos("radio.path_loss.breakpoint_m", *breakpoint_m)?;
                pos("radio.path_loss.exponent1", *exponent1)?;
                pos("radio.path_loss.exponent2", *exponent2)?;
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
                finite("radio.path_loss.reference_loss_db", *reference_loss_db)?;
                pos("radio.path_loss.distance0_m", *distance0_m)?;
                if !(distance0_m < distance1_m && distance1_m < distance2_m) {
                    return Err(ScenarioError::invalid(
                        "radio.path_loss.distance1_m",
                        "need distance0 < distance1 < distance2",
                    ));
                }
                pos("radio.path_loss.exponent0", *exponent0)?;
                pos("radio.path_loss.exponent1", *exponent1)?;
                pos("radio.path_loss.exponent2", *exponent2)?;
            }
            PathLossConfig::WinnerB1 { antenna_height_m } => {
                pos("radio.path_loss.antenna_height_m", *antenna_height_m)?
            }
        }
        Ok(())
    }
}

impl FadingConfig {
    /// Checks value ranges; the error names the field.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        if let FadingConfig::Nakagami {
            distance1_m,
            distance2_m,
            m0,
            m1,
            m2,
        } = self
        {
            pos("radio.fading.distance1_m", *distance1_m)?;
            pos("radio.fading.distance2_m", *distance2_m)?;
            for (f, m) in [
                ("radio.fading.m0", m0),
                ("radio.fading.m1", m1),
                ("radio.fading.m2", m2),
            ] {
                if !(m.is_finite() && *m >= 0.5 && *m <= 100.0) {
                    return Err(ScenarioError::invalid(f, "Nakagami m must be within [0.5, 100]"));
                }
            }
        }
        Ok(())
    }
}
