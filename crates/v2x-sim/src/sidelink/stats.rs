//! What a sidelink run measures beyond the common metrics: losses by cause per distance
//! bin (the four error types of the analytical model), the scheduler's decisions and the
//! channel busy ratio.

use serde::{Deserialize, Serialize};

/// Packets lost at receivers in one distance bin, by cause, in the analytical model's
/// order: a loss is counted under the first cause that applies.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LossBin {
    /// The receiver was sending in the same subframe (half duplex).
    pub half_duplex: u64,
    /// Received below the sensing threshold: not detected.
    pub sensing: u64,
    /// Lost even without interference (the SNR's block error draw).
    pub propagation: u64,
    /// Lost only because of interference (the SINR's draw fails where the SNR's passes).
    pub collision: u64,
}

/// The sidelink's counters of one run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SidelinkStats {
    pub losses: Vec<LossBin>,
    /// Transmissions, and the sub-channels they occupied in all.
    pub transmissions: u64,
    pub subchannels_used: u64,
    /// Semi-persistent selections: the first of a station, after its counter ran out,
    /// because a packet did not fit its reservation.
    pub selections_new: u64,
    pub selections_counter: u64,
    pub selections_size: u64,
    /// Reservations kept when the counter ran out (probResourceKeep).
    pub kept: u64,
    /// One-shot transmissions (`one-shot-oversize`).
    pub one_shots: u64,
    /// 3 dB steps the RSRP threshold rose, summed over the selections.
    pub threshold_steps: u64,
    /// Packets replaced by a newer one before they were sent.
    pub superseded: u64,
    /// Packets larger than the whole pool carries: never sent.
    pub oversize: u64,
    /// Sub-channel-subframes monitored and those whose S-RSSI was above the CBR threshold.
    pub cbr_monitored: u64,
    pub cbr_busy: u64,
}

impl SidelinkStats {
    pub fn merge(&mut self, o: &SidelinkStats) {
        if self.losses.len() < o.losses.len() {
            self.losses.resize(o.losses.len(), LossBin::default());
        }
        for (a, b) in self.losses.iter_mut().zip(&o.losses) {
            a.half_duplex += b.half_duplex;
            a.sensing += b.sensing;
            a.propagation += b.propagation;
            a.collision += b.collision;
        }
        self.transmissions += o.transmissions;
        self.subchannels_used += o.subchannels_used;
        self.selections_new += o.selections_new;
        self.selections_counter += o.selections_counter;
        self.selections_size += o.selections_size;
        self.kept += o.kept;
        self.one_shots += o.one_shots;
        self.threshold_steps += o.threshold_steps;
        self.superseded += o.superseded;
        self.oversize += o.oversize;
        self.cbr_monitored += o.cbr_monitored;
        self.cbr_busy += o.cbr_busy;
    }

    /// Channel busy ratio (TS 36.214 §5.1.30), averaged over stations and subframes.
    pub fn cbr(&self) -> f64 {
        if self.cbr_monitored == 0 {
            f64::NAN
        } else {
            self.cbr_busy as f64 / self.cbr_monitored as f64
        }
    }
}
