//! `[mobility]`: where the vehicles are (static, highway, Manhattan grid, SUMO FCD, NGSIM).

use super::check::{coordinates, finite, nonneg, pos};
use crate::error::ScenarioError;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// Where the vehicles are.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum MobilityConfig {
    /// Fixed positions (cross-validation, unit tests).
    Static {
        /// `[x_m, y_m]` per node.
        positions_m: Vec<[f64; 2]>,
    },
    /// Highway, both directions, as a ring road: vehicles wrap around at the ends (constant
    /// density) and so do radio distances (the nearest image of each sender).
    Highway {
        #[serde(default = "d_highway_length")]
        length_m: f64,
        #[serde(default = "d_lanes")]
        lanes_per_direction: u32,
        #[serde(default = "d_lane_width")]
        lane_width_m: f64,
        /// Vehicles per km per lane.
        #[serde(default = "d_density_lane")]
        density_veh_per_km_lane: f64,
        #[serde(default = "d_speed")]
        speed_mps: f64,
        /// Standard deviation of the per-vehicle speed (m/s).
        #[serde(default = "d_speed_sd")]
        speed_sd_mps: f64,
        #[serde(default = "d_update")]
        update_interval_s: f64,
    },
    /// Manhattan grid of streets; vehicles turn at random at intersections; road side
    /// units at intersections.
    Grid {
        #[serde(default = "d_grid_size")]
        width_m: f64,
        #[serde(default = "d_grid_size")]
        height_m: f64,
        #[serde(default = "d_block")]
        block_length_m: f64,
        /// Vehicles per square kilometre.
        #[serde(default = "d_density_area")]
        density_veh_per_km2: f64,
        #[serde(default = "d_speed")]
        speed_mps: f64,
        #[serde(default = "d_speed_sd")]
        speed_sd_mps: f64,
        /// Place a road side unit at every n-th intersection in each direction (0 = none).
        #[serde(default = "d_rsu_every")]
        rsu_every_n_intersections: u32,
        #[serde(default = "d_update")]
        update_interval_s: f64,
    },
    /// SUMO floating-car-data output (`sumo --fcd-output`), XML or CSV (by extension).
    SumoFcd {
        /// Path, relative to the scenario file.
        path: PathBuf,
        #[serde(default = "d_update")]
        update_interval_s: f64,
        /// Road side units at fixed positions `[x_m, y_m]`.
        #[serde(default)]
        rsu_positions_m: Vec<[f64; 2]>,
    },
    /// NGSIM-style trajectory table, CSV or Parquet (by extension).
    Ngsim {
        path: PathBuf,
        #[serde(default = "d_col_id")]
        id_column: String,
        #[serde(default = "d_col_frame")]
        time_column: String,
        #[serde(default = "d_col_x")]
        x_column: String,
        #[serde(default = "d_col_y")]
        y_column: String,
        /// Seconds per unit of the time column (0.1 for NGSIM frame numbers).
        #[serde(default = "d_frame_s")]
        time_unit_s: f64,
        /// Metres per unit of the position columns (0.3048 for raw NGSIM feet).
        #[serde(default = "d_one")]
        length_unit_m: f64,
        /// Add the traffic of the opposite direction by reflecting the trace (paper 004).
        #[serde(default)]
        mirror_opposite_direction: bool,
        /// Lateral offset of the reflected carriageway (m).
        #[serde(default = "d_mirror")]
        mirror_offset_m: f64,
        #[serde(default = "d_update")]
        update_interval_s: f64,
        #[serde(default)]
        rsu_positions_m: Vec<[f64; 2]>,
    },
}

fn d_highway_length() -> f64 {
    2000.0
}
fn d_lanes() -> u32 {
    3
}
fn d_lane_width() -> f64 {
    3.5
}
fn d_density_lane() -> f64 {
    25.0
}
fn d_speed() -> f64 {
    25.0
}
fn d_speed_sd() -> f64 {
    2.0
}
fn d_update() -> f64 {
    0.1
}
fn d_grid_size() -> f64 {
    1000.0
}
fn d_block() -> f64 {
    250.0
}
fn d_density_area() -> f64 {
    200.0
}
fn d_rsu_every() -> u32 {
    1
}
fn d_col_id() -> String {
    "vehicle_id".into()
}
fn d_col_frame() -> String {
    "frame_id".into()
}
fn d_col_x() -> String {
    "local_x".into()
}
fn d_col_y() -> String {
    "local_y".into()
}
fn d_frame_s() -> f64 {
    0.1
}
fn d_one() -> f64 {
    1.0
}
fn d_mirror() -> f64 {
    40.0
}

impl Default for MobilityConfig {
    fn default() -> Self {
        MobilityConfig::Highway {
            length_m: d_highway_length(),
            lanes_per_direction: d_lanes(),
            lane_width_m: d_lane_width(),
            density_veh_per_km_lane: d_density_lane(),
            speed_mps: d_speed(),
            speed_sd_mps: d_speed_sd(),
            update_interval_s: d_update(),
        }
    }
}

impl MobilityConfig {
    /// Periods of the map along x and y where it wraps: the grid is a torus and the
    /// highway a ring road, so radio distances wrap as the vehicles do (vehicles near an
    /// edge see as many neighbours as others).
    pub fn periods(&self) -> [Option<f64>; 2] {
        match *self {
            MobilityConfig::Grid { width_m, height_m, .. } => [Some(width_m), Some(height_m)],
            MobilityConfig::Highway { length_m, .. } => [Some(length_m), None],
            _ => [None, None],
        }
    }

    /// Checks value ranges; the error names the field.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        match self {
            MobilityConfig::Static { positions_m } => {
                if positions_m.is_empty() || positions_m.len() > 1_000_000 {
                    return Err(ScenarioError::invalid(
                        "mobility.positions_m",
                        "needs 1 to 1e6 positions",
                    ));
                }
                coordinates("mobility.positions_m", positions_m)?;
            }
            MobilityConfig::Highway {
                length_m,
                lanes_per_direction,
                lane_width_m,
                density_veh_per_km_lane,
                speed_mps,
                speed_sd_mps,
                update_interval_s,
            } => {
                pos("mobility.length_m", *length_m)?;
                pos("mobility.lane_width_m", *lane_width_m)?;
                nonneg("mobility.density_veh_per_km_lane", *density_veh_per_km_lane)?;
                nonneg("mobility.speed_mps", *speed_mps)?;
                nonneg("mobility.speed_sd_mps", *speed_sd_mps)?;
                pos("mobility.update_interval_s", *update_interval_s)?;
                if *lanes_per_direction == 0 || *lanes_per_direction > 64 {
                    return Err(ScenarioError::invalid(
                        "mobility.lanes_per_direction",
                        "must be between 1 and 64",
                    ));
                }
                let n = length_m / 1000.0 * density_veh_per_km_lane * f64::from(*lanes_per_direction) * 2.0;
                if n > 1e6 {
                    return Err(ScenarioError::invalid(
                        "mobility.density_veh_per_km_lane",
                        "more than 1e6 vehicles",
                    ));
                }
            }
            MobilityConfig::Grid {
                width_m,
                height_m,
                block_length_m,
                density_veh_per_km2,
                speed_mps,
                speed_sd_mps,
                update_interval_s,
                ..
            } => {
                pos("mobility.width_m", *width_m)?;
                pos("mobility.height_m", *height_m)?;
                pos("mobility.block_length_m", *block_length_m)?;
                if block_length_m > width_m || block_length_m > height_m {
                    return Err(ScenarioError::invalid(
                        "mobility.block_length_m",
                        "must fit in the area",
                    ));
                }
                if width_m / block_length_m > 10_000.0 || height_m / block_length_m > 10_000.0 {
                    return Err(ScenarioError::invalid("mobility.block_length_m", "too many blocks"));
                }
                nonneg("mobility.density_veh_per_km2", *density_veh_per_km2)?;
                nonneg("mobility.speed_mps", *speed_mps)?;
                nonneg("mobility.speed_sd_mps", *speed_sd_mps)?;
                pos("mobility.update_interval_s", *update_interval_s)?;
                if width_m * height_m / 1e6 * density_veh_per_km2 > 1e6 {
                    return Err(ScenarioError::invalid(
                        "mobility.density_veh_per_km2",
                        "more than 1e6 vehicles",
                    ));
                }
            }
            MobilityConfig::SumoFcd {
                update_interval_s,
                rsu_positions_m,
                ..
            } => {
                pos("mobility.update_interval_s", *update_interval_s)?;
                coordinates("mobility.rsu_positions_m", rsu_positions_m)?;
            }
            MobilityConfig::Ngsim {
                time_unit_s,
                length_unit_m,
                update_interval_s,
                mirror_offset_m,
                rsu_positions_m,
                ..
            } => {
                coordinates("mobility.rsu_positions_m", rsu_positions_m)?;
                pos("mobility.time_unit_s", *time_unit_s)?;
                pos("mobility.length_unit_m", *length_unit_m)?;
                pos("mobility.update_interval_s", *update_interval_s)?;
                finite("mobility.mirror_offset_m", *mirror_offset_m)?;
            }
        }
        Ok(())
    }
}
