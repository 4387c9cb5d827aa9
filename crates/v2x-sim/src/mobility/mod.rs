//! Mobility: where each vehicle is at a given time.
//!
//! Traces (SUMO FCD, NGSIM) are interpolated linearly between samples; the synthetic
//! highway and Manhattan grid are stepped at the update interval. Road side units are
//! static nodes appended after the vehicles.

pub mod fcd;
pub mod ngsim;
pub mod synthetic;
pub mod trace;

use crate::error::MobilityError;
use crate::scenario::MobilityConfig;
use rand_chacha::ChaCha8Rng;
pub use trace::Trace;

pub type Position = [f64; 2];

enum Model {
    Static(Vec<Position>),
    Trace(Trace),
    Highway(synthetic::Highway),
    Grid(synthetic::Grid),
}

/// The mobility of one run: `vehicles` moving nodes followed by `rsus` static nodes.
pub struct Mobility {
    model: Model,
    pub vehicles: usize,
    pub rsus: Vec<Position>,
    /// Seconds between position updates (infinite for static scenarios).
    pub update_interval_s: f64,
}

impl Mobility {
    /// Builds the mobility of a scenario; traces are read from disk.
    pub fn build(cfg: &MobilityConfig, rng: &mut ChaCha8Rng) -> Result<Mobility, MobilityError> {
        Ok(match cfg {
            MobilityConfig::Static { positions_m } => Mobility {
                vehicles: positions_m.len(),
                model: Model::Static(positions_m.clone()),
                rsus: Vec::new(),
                update_interval_s: f64::INFINITY,
            },
            MobilityConfig::Highway {
                length_m,
                lanes_per_direction,
                lane_width_m,
                density_veh_per_km_lane,
                speed_mps,
                speed_sd_mps,
                update_interval_s,
            } => {
                let h = synthetic::Highway::new(
                    *length_m,
                    *lanes_per_direction,
                    *lane_width_m,
                    *density_veh_per_km_lane,
                    *speed_mps,
                    *speed_sd_mps,
                    rng,
                );
                Mobility {
                    vehicles: h.len(),
                    model: Model::Highway(h),
                    rsus: Vec::new(),
                    update_interval_s: *update_interval_s,
                }
            }
            MobilityConfig::Grid {
                width_m,
                height_m,
                block_length_m,
                density_veh_per_km2,
                speed_mps,
                speed_sd_mps,
                rsu_every_n_intersections,
                update_interval_s,
            } => {
                let g = synthetic::Grid::new(
                    *width_m,
                    *height_m,
                    *block_length_m,
                    *density_veh_per_km2,
                    *speed_mps,
                    *speed_sd_mps,
                    rng,
                );
                let rsus = g.intersections(*rsu_every_n_intersections);
                Mobility {
                    vehicles: g.len(),
                    model: Model::Grid(g),
                    rsus,
                    update_interval_s: *update_interval_s,
                }
            }
            MobilityConfig::SumoFcd {
                path,
                update_interval_s,
                rsu_positions_m,
            } => {
                let t = fcd::read(path)?;
                Mobility {
                    vehicles: t.len(),
                    model: Model::Trace(t),
                    rsus: rsu_positions_m.clone(),
                    update_interval_s: *update_interval_s,
                }
            }
            MobilityConfig::Ngsim {
                path,
                id_column,
                time_column,
                x_column,
                y_column,
                time_unit_s,
                length_unit_m,
                mirror_opposite_direction,
                mirror_offset_m,
                update_interval_s,
                rsu_positions_m,
            } => {
                let cols = ngsim::Columns {
                    id: id_column,
                    time: time_column,
                    x: x_column,
                    y: y_column,
                };
                let mut t = ngsim::read(path, &cols, *time_unit_s, *length_unit_m)?;
                if *mirror_opposite_direction {
                    t = t.with_mirror(*mirror_offset_m);
                }
                Mobility {
                    vehicles: t.len(),
                    model: Model::Trace(t),
                    rsus: rsu_positions_m.clone(),
                    update_interval_s: *update_interval_s,
                }
            }
        })
    }

    /// When the last vehicle of a trace leaves it (s); None for synthetic mobility.
    pub fn trace_end_s(&self) -> Option<f64> {
        match &self.model {
            Model::Trace(t) => Some(t.end_time()),
            _ => None,
        }
    }

    /// Total nodes: vehicles then road side units.
    pub fn nodes(&self) -> usize {
        self.vehicles + self.rsus.len()
    }

    /// Positions of every node at time `t` (seconds, non-decreasing between calls);
    /// `None` for a vehicle not on the road at that time.
    pub fn positions_at(&mut self, t: f64, rng: &mut ChaCha8Rng, out: &mut Vec<Option<Position>>) {
        out.clear();
        match &mut self.model {
            Model::Static(p) => out.extend(p.iter().map(|p| Some(*p))),
            Model::Trace(tr) => tr.positions_at(t, out),
            Model::Highway(h) => h.positions_at(t, out),
            Model::Grid(g) => g.advance_to(t, rng, out),
        }
        out.extend(self.rsus.iter().map(|p| Some(*p)));
    }
}
