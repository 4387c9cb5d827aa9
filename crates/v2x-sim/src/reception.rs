//! Reception and interference at one station, as ns-3 3.44's wifi PHY does it
//! (`PhyEntity`, `OfdmPhy`, `InterferenceHelper`, `ThresholdPreambleDetectionModel`):
//!
//! - every signal above the floor adds to the summed energy for as long as it is on air;
//! - an idle receiver opens a preamble-detection window when a signal whose RSSI reaches
//!   the preamble threshold arrives; a stronger one arriving within the window takes its
//!   place (the strongest preamble wins when frames start together); at the end of the
//!   window the receiver locks on it if its SNR against everything on air then reaches the
//!   detection threshold;
//! - the SIGNAL field (BPSK 1/2, the 8 µs after the 32 µs preamble) is judged on its own
//!   when it ends: a failure aborts the reception (no EIFS) and frees the receiver;
//! - the data is judged at the frame's end from the SINR of every chunk between changes
//!   of the summed energy (or by the minimum SINR against a threshold);
//! - half duplex: transmitting aborts a reception and no preamble is detected meanwhile;
//! - clear-channel assessment: busy while transmitting and, with ns-3's rule, while the
//!   summed energy is at or above the CCA sensitivity; or, with the standard's rule, while
//!   a frame whose preamble was detectable is on the air or the energy reaches the
//!   energy-detection threshold.
//!
//! Decisions at the end of a detection window or of the SIGNAL field are taken lazily, at
//! the next call for this radio (the energy cannot change in between without a call), so
//! they cost no event.

use crate::channel;
use crate::keyed_rng::{Draw, StationDice};
use crate::phy::{self, ChunkErrors, Field};
use crate::scenario::{CcaModel, RadioConfig, ReceptionModel};

/// Run-wide PHY constants (linear powers in mW).
#[derive(Debug, Clone)]
pub struct PhyParams {
    pub noise_mw: f64,
    /// Minimum RSSI to detect a preamble.
    pub preamble_mw: f64,
    /// Minimum SNR (linear) to detect a preamble.
    pub preamble_snr: f64,
    /// Preamble-detection window: the receiver decides at its end (ns).
    pub detection_ns: u64,
    pub cca: CcaModel,
    /// Busy threshold of the summed energy under [`CcaModel::AggregateEnergy`].
    pub cca_mw: f64,
    /// Energy-detection threshold under [`CcaModel::PreambleAndEnergy`].
    pub ed_mw: f64,
    /// SINR threshold (linear) of the `sinr-threshold` model.
    pub sinr_threshold: f64,
    pub rate_mbps: f64,
    pub model: ReceptionModel,
}

impl PhyParams {
    /// The constants of a `[radio]` table: the simulator's, and the testbed's channel
    /// emulator's (so both judge a frame alike).
    pub fn from_radio(r: &RadioConfig) -> PhyParams {
        PhyParams {
            noise_mw: channel::dbm_to_mw(channel::noise_dbm(r.channel_width_hz, r.noise_figure_db)),
            preamble_mw: channel::dbm_to_mw(r.preamble_min_rssi_dbm),
            preamble_snr: 10f64.powf(r.preamble_snr_threshold_db / 10.0),
            detection_ns: crate::time::ns(r.cca_detection_us * 1e-6),
            cca: r.cca_model,
            cca_mw: channel::dbm_to_mw(r.cca_sensitivity_dbm),
            ed_mw: channel::dbm_to_mw(r.cca_ed_threshold_dbm),
            sinr_threshold: 10f64.powf(r.sinr_threshold_db / 10.0),
            rate_mbps: r.data_rate_mbps,
            model: r.reception_model,
        }
    }
}

/// The frame a receiver is detecting or receiving.
#[derive(Debug, Clone)]
struct Rx {
    /// The transmission's serial number.
    tx: u64,
    signal_mw: f64,
    start: u64,
    /// End of the preamble-detection window.
    detect_at: u64,
    detected: bool,
    /// The SIGNAL field was received.
    signal_ok: bool,
    /// Start of the SINR chunk not yet accounted for.
    last_change: u64,
    min_sinr: f64,
    ln_signal: f64,
    ln_data: f64,
}

/// The radio of one station.
#[derive(Default)]
pub struct Radio {
    /// Transmitting until then (half duplex).
    pub tx_until: u64,
    energy_mw: f64,
    /// Weak interference summed over the station's map cell (`aggregate` mode), as read
    /// at the last call.
    weak_mw: f64,
    signals: u32,
    rx: Option<Rx>,
    /// Under the standard's CCA: busy until the end of the last frame whose preamble was
    /// detectable.
    sd_until: u64,
    /// The CCA state last reported to the MAC, and since when.
    pub busy: bool,
    pub busy_since: u64,
}

impl Radio {
    /// Accounts the SINR of the locked frame from its last change up to `until` (the
    /// summed energy was constant meanwhile), split into preamble, SIGNAL field and data.
    fn close_chunk(&mut self, until: u64, p: &PhyParams, errors: &ChunkErrors) {
        let energy = self.energy_mw + self.weak_mw;
        let Some(rx) = self.rx.as_mut() else { return };
        if until <= rx.last_change {
            return;
        }
        let interference = (energy - rx.signal_mw).max(0.0);
        let sinr = rx.signal_mw / (p.noise_mw + interference);
        rx.min_sinr = rx.min_sinr.min(sinr);
        if p.model != ReceptionModel::SinrThreshold {
            let signal_from = rx.start + phy::PREAMBLE_NS;
            let data_from = rx.start + phy::PREAMBLE_AND_SIGNAL_NS;
            let overlap = |a: u64, b: u64| b.min(until).saturating_sub(a.max(rx.last_change));
            let in_signal = overlap(signal_from, data_from);
            if in_signal > 0 {
                rx.ln_signal += errors.ln_success(Field::Signal, sinr, in_signal);
            }
            let in_data = overlap(data_from, u64::MAX);
            if in_data > 0 {
                rx.ln_data += errors.ln_success(Field::Data, sinr, in_data);
            }
        }
        rx.last_change = until;
    }

    /// Takes the decisions due by `now`: the end of the detection window, then the end of
    /// the SIGNAL field.
    fn settle(&mut self, now: u64, p: &PhyParams, errors: &ChunkErrors, dice: StationDice) {
        let Some(rx) = self.rx.as_ref() else { return };
        let (detect_at, detected, signal_mw) = (rx.detect_at, rx.detected, rx.signal_mw);
        if !detected && detect_at <= now {
            self.close_chunk(detect_at, p, errors);
            let interference = (self.energy_mw + self.weak_mw - signal_mw).max(0.0);
            let ok = signal_mw >= p.preamble_mw && signal_mw / (p.noise_mw + interference) >= p.preamble_snr;
            match self.rx.as_mut() {
                Some(rx) if ok => rx.detected = true,
                _ => {
                    self.rx = None;
                    return;
                }
            }
        }
        let Some(rx) = self.rx.as_ref() else { return };
        let signal_end = rx.start + phy::PREAMBLE_AND_SIGNAL_NS;
        if rx.detected && !rx.signal_ok && signal_end <= now {
            self.close_chunk(signal_end, p, errors);
            let (tx, ln_signal) = self.rx.as_ref().map_or((0, f64::NEG_INFINITY), |r| (r.tx, r.ln_signal));
            let ok = match p.model {
                ReceptionModel::SinrThreshold => true,
                _ => dice.uniform(tx, Draw::SignalField) < ln_signal.exp(),
            };
            match self.rx.as_mut() {
                Some(rx) if ok => rx.signal_ok = true,
                _ => self.rx = None,
            }
        }
    }

    /// The weak interference at this station is `weak_mw` from `now` on (it was the last
    /// value read until then).
    pub fn set_weak(&mut self, weak_mw: f64, now: u64, p: &PhyParams, errors: &ChunkErrors, dice: StationDice) {
        if weak_mw == self.weak_mw {
            return;
        }
        self.settle(now, p, errors, dice);
        self.close_chunk(now, p, errors);
        self.weak_mw = weak_mw;
    }

    /// This station starts transmitting until `until`: a frame being received is lost.
    pub fn start_tx(&mut self, until: u64, now: u64, p: &PhyParams, errors: &ChunkErrors, dice: StationDice) {
        self.settle(now, p, errors, dice);
        self.rx = None;
        self.tx_until = until;
    }

    /// Transmission `tx` (its serial number) arrives with power `mw` and stays on the air
    /// until `end`.
    #[allow(clippy::too_many_arguments)] // the signal (3), the time, and the radio's context (3)
    pub fn signal_start(
        &mut self,
        tx: u64,
        mw: f64,
        end: u64,
        now: u64,
        p: &PhyParams,
        errors: &ChunkErrors,
        dice: StationDice,
    ) {
        self.settle(now, p, errors, dice);
        self.close_chunk(now, p, errors);
        let before = self.energy_mw + self.weak_mw;
        self.energy_mw += mw;
        self.signals += 1;
        if self.tx_until > now || mw < p.preamble_mw {
            return;
        }
        if mw / (p.noise_mw + before) >= p.preamble_snr {
            self.sd_until = self.sd_until.max(end);
        }
        let replace = match &self.rx {
            None => true,
            // A stronger preamble within the detection window takes the receiver.
            Some(rx) => !rx.detected && mw > rx.signal_mw,
        };
        if replace {
            self.rx = Some(Rx {
                tx,
                signal_mw: mw,
                start: now,
                detect_at: now + p.detection_ns,
                detected: false,
                signal_ok: false,
                last_change: now,
                min_sinr: f64::INFINITY,
                ln_signal: 0.0,
                ln_data: 0.0,
            });
        }
    }

    /// Transmission `tx` (power `mw`) ends: `Some(decoded)` when the receiver was
    /// receiving its data, `None` otherwise (not detected, SIGNAL field lost, or another
    /// frame).
    pub fn signal_end(
        &mut self,
        tx: u64,
        mw: f64,
        now: u64,
        p: &PhyParams,
        errors: &ChunkErrors,
        dice: StationDice,
    ) -> Option<bool> {
        self.settle(now, p, errors, dice);
        self.close_chunk(now, p, errors);
        self.energy_mw -= mw;
        self.signals = self.signals.saturating_sub(1);
        if self.signals == 0 {
            self.energy_mw = 0.0;
        }
        if self.rx.as_ref().is_none_or(|r| r.tx != tx) {
            return None;
        }
        let rx = self.rx.take()?;
        if !rx.signal_ok {
            return None;
        }
        Some(match p.model {
            ReceptionModel::SinrThreshold => rx.min_sinr >= p.sinr_threshold,
            _ => dice.uniform(tx, Draw::Data) < rx.ln_data.exp(),
        })
    }

    /// Clear-channel assessment after the last call.
    pub fn cca_busy(&self, now: u64, p: &PhyParams) -> bool {
        self.tx_until > now
            || match p.cca {
                CcaModel::AggregateEnergy => self.energy_mw + self.weak_mw >= p.cca_mw,
                CcaModel::PreambleAndEnergy => self.sd_until > now || self.energy_mw + self.weak_mw >= p.ed_mw,
            }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keyed_rng::RunDice;
    use crate::node_id::NodeId;
    use crate::phy::ErrorRateModel;

    fn params() -> PhyParams {
        PhyParams {
            noise_mw: 1e-10,
            preamble_mw: 1e-8,
            preamble_snr: 2.5,
            detection_ns: 4_000,
            cca: CcaModel::PreambleAndEnergy,
            cca_mw: 3e-9,
            ed_mw: 1e-6,
            sinr_threshold: 3.0,
            rate_mbps: 6.0,
            model: ReceptionModel::SinrThreshold,
        }
    }

    fn errors() -> ChunkErrors {
        ChunkErrors::new(ErrorRateModel::TableBased, 6.0)
    }

    #[test]
    fn locks_on_a_strong_frame_and_loses_it_to_interference() {
        let (p, e) = (params(), errors());
        let dice = RunDice::new(1).station(NodeId(0));
        let mut r = Radio::default();
        r.signal_start(1, 1e-7, 100_000, 0, &p, &e, dice);
        assert!(r.cca_busy(0, &p), "detectable preamble: busy");
        assert_eq!(r.signal_end(1, 1e-7, 100_000, &p, &e, dice), Some(true));
        assert!(!r.cca_busy(100_000, &p));
        // Same frame, with an interferer of half its power during it: SINR 2 < 3.
        r.signal_start(2, 1e-7, 300_000, 200_000, &p, &e, dice);
        r.signal_start(3, 5e-8, 250_000, 210_000, &p, &e, dice);
        assert_eq!(r.signal_end(3, 5e-8, 250_000, &p, &e, dice), None, "not locked on 3");
        assert_eq!(r.signal_end(2, 1e-7, 300_000, &p, &e, dice), Some(false));
    }

    #[test]
    fn half_duplex_and_weak_preambles() {
        let (p, e) = (params(), errors());
        let dice = RunDice::new(2).station(NodeId(0));
        let mut r = Radio::default();
        r.start_tx(50_000, 0, &p, &e, dice);
        r.signal_start(1, 1e-7, 60_000, 10_000, &p, &e, dice);
        assert_eq!(
            r.signal_end(1, 1e-7, 60_000, &p, &e, dice),
            None,
            "transmitting: no lock"
        );
        r.signal_start(2, 5e-9, 150_000, 100_000, &p, &e, dice);
        assert!(!r.cca_busy(100_000, &p), "below preamble detection and ED: idle");
        assert_eq!(r.signal_end(2, 5e-9, 150_000, &p, &e, dice), None);
    }

    /// Two frames start together; the stronger one, though processed second, is the one
    /// received (the old radio locked on whichever came first).
    #[test]
    fn strongest_preamble_within_the_detection_window_wins() {
        let (p, e) = (params(), errors());
        let dice = RunDice::new(3).station(NodeId(0));
        let mut r = Radio::default();
        r.signal_start(1, 2e-8, 300_000, 0, &p, &e, dice);
        r.signal_start(2, 2e-6, 300_000, 0, &p, &e, dice);
        assert_eq!(r.signal_end(1, 2e-8, 300_000, &p, &e, dice), None);
        assert_eq!(r.signal_end(2, 2e-6, 300_000, &p, &e, dice), Some(true));
        // 3 µs apart (within the 4 µs window): still the stronger.
        r.signal_start(3, 2e-8, 700_000, 400_000, &p, &e, dice);
        r.signal_start(4, 2e-6, 703_000, 403_000, &p, &e, dice);
        assert_eq!(r.signal_end(3, 2e-8, 700_000, &p, &e, dice), None);
        assert_eq!(r.signal_end(4, 2e-6, 703_000, &p, &e, dice), Some(true));
        // 5 µs apart: the first was already detected; the second is interference.
        r.signal_start(5, 2e-6, 1_100_000, 800_000, &p, &e, dice);
        r.signal_start(6, 2e-8, 1_105_000, 805_000, &p, &e, dice);
        assert_eq!(r.signal_end(5, 2e-6, 1_100_000, &p, &e, dice), Some(true));
        assert_eq!(r.signal_end(6, 2e-8, 1_105_000, &p, &e, dice), None);
    }

    /// The detection SNR is taken at the end of the window: an interferer arriving 2 µs
    /// into it stops the detection (the old radio judged it on arrival, against nothing).
    #[test]
    fn preamble_snr_is_evaluated_at_the_end_of_the_window() {
        let (p, e) = (params(), errors());
        let dice = RunDice::new(4).station(NodeId(0));
        let mut r = Radio::default();
        r.signal_start(1, 2e-8, 300_000, 0, &p, &e, dice);
        // Weaker than the candidate (no takeover) but SNR 2e-8 / 1.01e-8 < 2.5.
        r.signal_start(2, 1e-8, 300_000, 2_000, &p, &e, dice);
        assert_eq!(r.signal_end(1, 2e-8, 300_000, &p, &e, dice), None);
        assert_eq!(r.signal_end(2, 1e-8, 300_000, &p, &e, dice), None);
    }

    /// Weak interference read from the map field counts like any other energy: in the
    /// SINR of the frame being received (from when it is read) and in the CCA.
    #[test]
    fn weak_interference_enters_sinr_and_cca() {
        let e = errors();
        let dice = RunDice::new(6).station(NodeId(0));
        let p = PhyParams {
            cca: CcaModel::AggregateEnergy,
            ..params()
        };
        let mut r = Radio::default();
        r.set_weak(2e-9, 0, &p, &e, dice);
        assert!(!r.cca_busy(0, &p), "2e-9 alone is below the CCA threshold");
        r.set_weak(4e-9, 10_000, &p, &e, dice);
        assert!(r.cca_busy(10_000, &p), "4e-9 reaches it");
        r.set_weak(0.0, 20_000, &p, &e, dice);
        // A frame at SINR 1e-7 / (1e-10 + 2.5e-8) = 3.98 (above 3) is received; one
        // that weak interference of 4e-8 joins during its data (SINR 2.49) is lost.
        r.signal_start(1, 1e-7, 300_000, 100_000, &p, &e, dice);
        r.set_weak(2.5e-8, 100_000, &p, &e, dice);
        assert_eq!(r.signal_end(1, 1e-7, 300_000, &p, &e, dice), Some(true));
        r.signal_start(2, 1e-7, 600_000, 400_000, &p, &e, dice);
        r.set_weak(4e-8, 500_000, &p, &e, dice);
        assert_eq!(r.signal_end(2, 1e-7, 600_000, &p, &e, dice), Some(false));
    }

    /// ns-3's CCA: busy while the summed energy reaches the CCA sensitivity, even when
    /// no single frame is decodable; the standard's rule stays idle below ED.
    #[test]
    fn aggregate_energy_cca_follows_the_sum_of_undecodable_signals() {
        let e = errors();
        let dice = RunDice::new(5).station(NodeId(0));
        let agg = PhyParams {
            cca: CcaModel::AggregateEnergy,
            ..params()
        };
        let std = params();
        for (p, busy_when_summed) in [(&agg, true), (&std, false)] {
            let mut r = Radio::default();
            // Two signals of 2e-9 mW each (below the preamble RSSI, below 3e-9 alone).
            r.signal_start(1, 2e-9, 200_000, 0, p, &e, dice);
            assert!(!r.cca_busy(0, p));
            r.signal_start(2, 2e-9, 300_000, 50_000, p, &e, dice);
            assert_eq!(r.cca_busy(50_000, p), busy_when_summed);
            r.signal_end(1, 2e-9, 200_000, p, &e, dice);
            assert!(!r.cca_busy(200_000, p));
        }
    }
}
