//! Per-message feature vectors for learned detectors: what our detectors decide on, before
//! fusion — every check's score in [`CheckId::ALL`] order (the last three are the
//! receiver-evidence flags, 0 or 1) and the sender's declared confidences. The same detector state the built-in configurations
//! keep (per-sender history, evidence) produces them, in reception order per receiver, so a
//! learned detector sees exactly the inputs ours fuse.

use crate::checks::{CheckId, Family};
use crate::detector::{Detector, DetectorConfig};
use crate::message::Message;
use crate::observation::Observation;

/// The declared confidences appended to the scores.
pub const CONFIDENCE_NAMES: [&str; 4] = [
    "position-confidence-m",
    "speed-confidence-mps",
    "heading-confidence-deg",
    "acceleration-confidence-mps2",
];

/// Features per message: one per check, then the confidences.
pub const WIDTH: usize = CheckId::ALL.len() + CONFIDENCE_NAMES.len();

/// The feature names, in column order: [`CheckId::name`]s, then [`CONFIDENCE_NAMES`].
pub fn names() -> Vec<&'static str> {
    CheckId::ALL.iter().map(|c| c.name()).chain(CONFIDENCE_NAMES).collect()
}

/// One receiver's messages (reception order) as feature rows, scored by the full
/// detector's checks and evidence of `family` (its range check at the radios' reach).
pub fn features(messages: &[Message], family: Family) -> Vec<[f64; WIDTH]> {
    let mut d = Detector::new(DetectorConfig::full(family));
    messages
        .iter()
        .map(|m| {
            let o = Observation::from_message(m);
            let v = d.observe(&o);
            let mut row = [0.0; WIDTH];
            row[..CheckId::ALL.len()].copy_from_slice(&v.scores.0);
            row[CheckId::ALL.len()..].copy_from_slice(&[
                o.position_confidence_m,
                o.speed_confidence_mps,
                o.heading_confidence_deg,
                o.acceleration_confidence_mps2,
            ]);
            row
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Kinematics;

    #[test]
    fn rows_hold_scores_then_confidences() {
        let m = |k: i64, y: f64| {
            let mut s = Kinematics::at([0.0, y], 10.0, 0.0, 0.0);
            s.pos_noise = [3.0, 0.0, 0.0];
            s.spd_noise = 0.1;
            Message {
                rcv_time_ns: k * 1_000_000_000,
                send_time_ns: k * 1_000_000_000,
                sender_id: "v".into(),
                sender_alias: 1,
                message_id: k as u64,
                attacker: 0,
                receiver: Kinematics::at([0.0, 300.0], 0.0, 0.0, 0.0),
                sender: s,
            }
        };
        // The second message jumps 500 m in 1 s: position consistency fails.
        let rows = features(&[m(0, 0.0), m(1, 500.0)], Family::Legacy);
        assert_eq!(names().len(), WIDTH);
        assert_eq!(rows[0][CheckId::PositionConsistency as usize], 1.0);
        assert_eq!(rows[1][CheckId::PositionConsistency as usize], 0.0);
        assert_eq!(&rows[1][CheckId::ALL.len()..], &[3.0, 0.1, 0.0, 0.0]);
        assert_eq!(
            names()[CheckId::AccelerationConsistency as usize],
            "acceleration-consistency"
        );
    }
}
