//! Reception and interference at one station: the summed energy of every signal on the
//! air, the frame the receiver is locked on (preamble detection by RSSI and SNR) and its
//! SINR history, judged at the frame's end by a SINR threshold or the NIST error-rate model
//! evaluated chunk by chunk; half duplex; clear-channel assessment.

use crate::phy;
use crate::scenario::ReceptionModel;
use rand::Rng;

/// Run-wide PHY constants (linear powers in mW).
#[derive(Debug, Clone)]
pub struct PhyParams {
    pub noise_mw: f64,
    /// Minimum RSSI to detect a preamble.
    pub preamble_mw: f64,
    /// Minimum SNR (linear) to detect a preamble.
    pub preamble_snr: f64,
    /// Energy-detection threshold of the CCA.
    pub ed_mw: f64,
    /// SINR threshold (linear) of the `sinr-threshold` model.
    pub sinr_threshold: f64,
    pub rate_mbps: f64,
    pub model: ReceptionModel,
}

/// The frame a receiver is locked on.
struct Lock {
    tx: usize,
    signal_mw: f64,
    payload_start: u64,
    last_change: u64,
    min_sinr: f64,
    log_success: f64,
}

/// The radio of one station.
#[derive(Default)]
pub struct Radio {
    /// Transmitting until then (half duplex).
    pub tx_until: u64,
    energy_mw: f64,
    signals: u32,
    lock: Option<Lock>,
    /// The CCA state last reported to the MAC, and since when.
    pub busy: bool,
    pub busy_since: u64,
}

impl Radio {
    /// Closes the current SINR chunk of the locked frame at `now` (interference changes).
    fn close_chunk(&mut self, now: u64, p: &PhyParams, errors: &phy::ErrorTable) {
        let energy = self.energy_mw;
        let Some(lock) = self.lock.as_mut() else { return };
        if now > lock.last_change {
            let interference = (energy - lock.signal_mw).max(0.0);
            let sinr = lock.signal_mw / (p.noise_mw + interference);
            lock.min_sinr = lock.min_sinr.min(sinr);
            if p.model == ReceptionModel::NistErrorRate {
                let from = lock.last_change.max(lock.payload_start);
                if now > from {
                    let bits = (now - from) as f64 * 1e-9 * p.rate_mbps * 1e6;
                    lock.log_success += errors.ln_success(sinr, bits);
                }
            }
            lock.last_change = now;
        }
    }

    /// This station starts transmitting until `until`: a frame being received is lost.
    pub fn start_tx(&mut self, until: u64, now: u64, p: &PhyParams, errors: &phy::ErrorTable) {
        self.close_chunk(now, p, errors);
        self.lock = None;
        self.tx_until = until;
    }

    /// Transmission `tx` arrives with power `mw`: it adds interference, and the receiver
    /// locks on it when idle and its preamble is detectable.
    pub fn signal_start(&mut self, tx: usize, mw: f64, now: u64, p: &PhyParams, errors: &phy::ErrorTable) {
        self.close_chunk(now, p, errors);
        let before = self.energy_mw;
        self.energy_mw += mw;
        self.signals += 1;
        if self.tx_until <= now
            && self.lock.is_none()
            && mw >= p.preamble_mw
            && mw / (p.noise_mw + before) >= p.preamble_snr
        {
            self.lock = Some(Lock {
                tx,
                signal_mw: mw,
                payload_start: now + phy::PREAMBLE_AND_SIGNAL_NS,
                last_change: now,
                min_sinr: f64::INFINITY,
                log_success: 0.0,
            });
        }
    }

    /// Transmission `tx` (power `mw`) ends: `Some(decoded)` when the receiver was locked
    /// on it, `None` otherwise.
    pub fn signal_end(
        &mut self,
        tx: usize,
        mw: f64,
        now: u64,
        p: &PhyParams,
        errors: &phy::ErrorTable,
        rng: &mut impl Rng,
    ) -> Option<bool> {
        self.close_chunk(now, p, errors);
        self.energy_mw -= mw;
        self.signals = self.signals.saturating_sub(1);
        if self.signals == 0 {
            self.energy_mw = 0.0;
        }
        if self.lock.as_ref().is_none_or(|l| l.tx != tx) {
            return None;
        }
        let l = self.lock.take()?;
        Some(match p.model {
            ReceptionModel::SinrThreshold => l.min_sinr >= p.sinr_threshold,
            ReceptionModel::NistErrorRate => {
                let u: f64 = rng.gen();
                u < l.log_success.exp()
            }
        })
    }

    /// Clear-channel assessment: busy while transmitting, locked on a frame, or above the
    /// energy-detection threshold.
    pub fn cca_busy(&self, now: u64, p: &PhyParams) -> bool {
        self.tx_until > now || self.lock.is_some() || self.energy_mw >= p.ed_mw
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn params() -> PhyParams {
        PhyParams {
            noise_mw: 1e-10,
            preamble_mw: 1e-8,
            preamble_snr: 2.5,
            ed_mw: 1e-6,
            sinr_threshold: 3.0,
            rate_mbps: 6.0,
            model: ReceptionModel::SinrThreshold,
        }
    }

    #[test]
    fn locks_on_a_strong_frame_and_loses_it_to_interference() {
        let p = params();
        let e = phy::ErrorTable::new(6.0);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut r = Radio::default();
        r.signal_start(1, 1e-7, 0, &p, &e);
        assert!(r.cca_busy(0, &p), "locked: busy");
        assert_eq!(r.signal_end(1, 1e-7, 100_000, &p, &e, &mut rng), Some(true));
        assert!(!r.cca_busy(100_000, &p));
        // Same frame, with an interferer of half its power during it: SINR 2 < 3.
        r.signal_start(2, 1e-7, 200_000, &p, &e);
        r.signal_start(3, 5e-8, 210_000, &p, &e);
        assert_eq!(
            r.signal_end(3, 5e-8, 250_000, &p, &e, &mut rng),
            None,
            "not locked on 3"
        );
        assert_eq!(r.signal_end(2, 1e-7, 300_000, &p, &e, &mut rng), Some(false));
    }

    #[test]
    fn half_duplex_and_weak_preambles() {
        let p = params();
        let e = phy::ErrorTable::new(6.0);
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let mut r = Radio::default();
        r.start_tx(50_000, 0, &p, &e);
        r.signal_start(1, 1e-7, 10_000, &p, &e);
        assert_eq!(
            r.signal_end(1, 1e-7, 60_000, &p, &e, &mut rng),
            None,
            "transmitting: no lock"
        );
        r.signal_start(2, 5e-9, 100_000, &p, &e);
        assert!(!r.cca_busy(100_000, &p), "below preamble detection and ED: idle");
        assert_eq!(r.signal_end(2, 5e-9, 150_000, &p, &e, &mut rng), None);
    }
}
