//! The single-server queue prediction of a receiver under a flood: one verifier taking a
//! fixed time per packet that reaches the signature check, packets served first in first
//! out and dropped when they have waited longer than the deadline.
//!
//! - Saturated (arrivals λ above the capacity μ = 1 / service time): the server verifies
//!   μ packets per second whatever the offer, so a share 1 − μ/λ of every kind is lost
//!   (benign packets too: FIFO does not tell them apart), and a verified packet has waited
//!   about the deadline.
//! - Below capacity: nothing is lost in this fluid approximation (the tails are the
//!   paper's 0.05-0.2 %), and the mean wait is the M/D/1 one, ρ·s / (2 (1 − ρ)) for a
//!   load ρ = λ/μ.
//!
//! Which packets cost a verification depends on the order of the receiver's checks
//! ([`CheckOrder`]): paper 002 §4.2 says PRESERVE verified certificates before signatures
//! or timestamps; SN-DECAP here checks freshness before anything else and certificate
//! validity after the signature.

use v2x_testbed::station::Attack;

/// Whose order of checks decides what an attack packet costs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckOrder {
    /// PRESERVE's VSS (paper 002 §4.2): A-SIG-01 and A-SIG-06 cost a verification,
    /// A-SIG-03 (format) and A-CER-03 (validity period) are caught cheaply.
    Preserve,
    /// SN-DECAP here (README step table): a stale packet (A-SIG-06) and an unsigned one
    /// (A-SIG-03) are refused before the signature; a false signature (A-SIG-01) and an
    /// expired certificate (A-CER-03, step 10) cost one verification.
    SnDecap,
}

impl CheckOrder {
    pub fn costs_a_verification(self, case: Attack) -> bool {
        match (self, case) {
            (_, Attack::InvalidSignature | Attack::InvalidSignatureDenm | Attack::Flood) => true,
            (CheckOrder::Preserve, Attack::OldTimestamp) => true,
            // Certificate validity (step 10) and permissions (step 13) follow the signature.
            (CheckOrder::SnDecap, Attack::ExpiredCertificate | Attack::OutsidePermissions) => true,
            _ => false,
        }
    }
}

/// One verifier with a fixed service time and a deadline on the wait.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Queue {
    pub service_s: f64,
    pub deadline_s: f64,
}

/// What the queue predicts for an offered load.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Prediction {
    /// ρ = λ / μ.
    pub load: f64,
    /// Share of every kind of packet lost.
    pub loss: f64,
    /// Mean time from arrival to verified (ms).
    pub delay_ms: f64,
}

impl Queue {
    pub fn capacity_per_s(&self) -> f64 {
        1.0 / self.service_s
    }

    /// The prediction for `arrivals_per_s` packets per second that each cost a verification.
    pub fn predict(&self, arrivals_per_s: f64) -> Prediction {
        let rho = arrivals_per_s * self.service_s;
        if rho >= 1.0 {
            Prediction {
                load: rho,
                loss: 1.0 - 1.0 / rho,
                delay_ms: (self.deadline_s + self.service_s) * 1e3,
            }
        } else {
            let wait = rho * self.service_s / (2.0 * (1.0 - rho));
            Prediction {
                load: rho,
                loss: 0.0,
                delay_ms: (wait.min(self.deadline_s) + self.service_s) * 1e3,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The arithmetic: at PRESERVE's 7.9 ms (about 126 verifications/s), 5 senders
    /// at 10 Hz with 2x50, 2x100 and 4x100 Hz of invalid signatures lose 15.6, 49.4 and
    /// 71.9 % (the paper measured 17.37, 49.09 and 72.66 %).
    #[test]
    fn a_saturated_server_loses_one_minus_capacity_over_offer() {
        let q = Queue {
            service_s: 7.9e-3,
            deadline_s: 0.1,
        };
        assert!((q.capacity_per_s() - 126.58).abs() < 0.01);
        for (attack, loss) in [(100.0, 0.156), (200.0, 0.494), (400.0, 0.719)] {
            let p = q.predict(50.0 + attack);
            assert!((p.loss - loss).abs() < 0.001, "{attack}: {p:?}");
            assert!((p.delay_ms - 107.9).abs() < 1e-9);
        }
        let light = q.predict(70.0);
        assert_eq!(light.loss, 0.0);
        // M/D/1 at rho = 0.553: wait 4.9 ms, plus the 7.9 ms of service.
        assert!((light.delay_ms - 12.79).abs() < 0.01, "{light:?}");
    }

    #[test]
    fn the_order_of_checks_decides_what_a_flood_costs() {
        use CheckOrder::*;
        assert!(Preserve.costs_a_verification(Attack::OldTimestamp));
        assert!(!SnDecap.costs_a_verification(Attack::OldTimestamp));
        assert!(SnDecap.costs_a_verification(Attack::ExpiredCertificate));
        assert!(!Preserve.costs_a_verification(Attack::ExpiredCertificate));
        for o in [Preserve, SnDecap] {
            assert!(o.costs_a_verification(Attack::InvalidSignature));
            assert!(!o.costs_a_verification(Attack::Unsigned));
        }
    }
}
