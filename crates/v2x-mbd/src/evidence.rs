//! What a V2X receiver holds besides the messages' content, and plausibility checks do not
//! use: which content it has already heard and from whom (replay state), each pseudonym's
//! own earlier content (a flood repeats it under new times), and when and where new
//! pseudonyms appear (one radio cannot be received as two stations less than a frame's air
//! time apart).

use crate::geometry::distance;
use crate::observation::Observation;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, VecDeque};

/// Parameters of the receiver evidence.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct EvidenceConfig {
    /// How long heard content is remembered, s.
    pub replay_window_s: f64,
    /// Shortest time two distinct radios' frames can be received apart, s: the air time
    /// of a short CAM (≈ 100 bytes at 6 Mb/s over 802.11p's 10 MHz: 40 µs preamble and
    /// SIGNAL plus 8 µs per 48 bits ≈ 0.18 ms).
    pub min_frame_spacing_s: f64,
    /// Distance within which simultaneous new pseudonyms count as co-located, m.
    pub co_location_m: f64,
}

impl Default for EvidenceConfig {
    fn default() -> Self {
        EvidenceConfig {
            replay_window_s: 10.0,
            min_frame_spacing_s: 0.18e-3,
            co_location_m: 30.0,
        }
    }
}

/// The content a replay or a flood copies: position, speed, heading, acceleration, to the
/// resolution a CAM carries them.
fn content_key(o: &Observation) -> [i64; 5] {
    [
        (o.position[0] * 100.0).round() as i64,
        (o.position[1] * 100.0).round() as i64,
        (o.speed_mps * 100.0).round() as i64,
        (o.heading_deg * 10.0).round() as i64,
        (o.acceleration_mps2 * 10.0).round() as i64,
    ]
}

#[derive(Debug, Clone, Copy)]
struct Heard {
    pseudonym: u64,
    generation_time_s: f64,
    reception_time_s: f64,
}

/// What one message's evidence says (1 = nothing against it).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EvidenceFinding {
    /// The content was heard before from another pseudonym.
    pub replayed: bool,
    /// The pseudonym sent this content before under another generation time.
    pub duplicated: bool,
    /// Earlier messages (by their index) co-located with this one's pseudonym.
    pub co_located_with: Vec<usize>,
}

/// The receiver's evidence state.
#[derive(Debug, Default)]
pub struct Evidence {
    config: EvidenceConfig,
    heard: HashMap<[i64; 5], Heard>,
    expiry: VecDeque<(f64, [i64; 5])>,
    /// First messages of new pseudonyms: (reception time, position, index).
    newcomers: VecDeque<(f64, [f64; 2], usize)>,
}

impl Evidence {
    pub fn new(config: EvidenceConfig) -> Evidence {
        Evidence {
            config,
            ..Evidence::default()
        }
    }

    /// Evidence on `o` (message `index`, `new_pseudonym` when its pseudonym was never heard
    /// before), then remembers it.
    pub fn observe(&mut self, o: &Observation, index: usize, new_pseudonym: bool) -> EvidenceFinding {
        let now = o.reception_time_s;
        while let Some(&(t, k)) = self.expiry.front() {
            if t + self.config.replay_window_s >= now {
                break;
            }
            self.expiry.pop_front();
            if self.heard.get(&k).is_some_and(|h| h.reception_time_s == t) {
                self.heard.remove(&k);
            }
        }
        let key = content_key(o);
        let mut finding = EvidenceFinding::default();
        if let Some(h) = self.heard.get(&key) {
            if h.pseudonym != o.pseudonym {
                finding.replayed = true;
            } else if h.generation_time_s != o.generation_time_s {
                finding.duplicated = true;
            }
        }
        if !finding.replayed {
            self.heard.insert(
                key,
                Heard {
                    pseudonym: o.pseudonym,
                    generation_time_s: o.generation_time_s,
                    reception_time_s: now,
                },
            );
            self.expiry.push_back((now, key));
        }
        if new_pseudonym {
            while self.newcomers.front().is_some_and(|&(t, _, _)| t + 1.0 < now) {
                self.newcomers.pop_front();
            }
            for &(t, p, i) in &self.newcomers {
                if (now - t).abs() < self.config.min_frame_spacing_s
                    && distance(p, o.position) <= self.config.co_location_m
                {
                    finding.co_located_with.push(i);
                }
            }
            self.newcomers.push_back((now, o.position, index));
        }
        finding
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::{Kinematics, Message};

    fn obs(alias: u64, t: f64, x: f64) -> Observation {
        Observation::from_message(&Message {
            rcv_time_ns: (t * 1e9) as i64,
            send_time_ns: (t * 1e9) as i64,
            sender_id: "v".into(),
            sender_alias: alias,
            message_id: 0,
            attacker: 0,
            receiver: Kinematics::at([0.0, 0.0], 0.0, 0.0, 0.0),
            sender: Kinematics::at([x, 0.0], 10.0, 90.0, 0.0),
        })
    }

    #[test]
    fn replay_duplicate_and_co_location_by_hand() {
        let mut e = Evidence::new(EvidenceConfig::default());
        assert_eq!(e.observe(&obs(1, 1.0, 10.0), 0, true), EvidenceFinding::default());
        // Same content, other pseudonym, 2 s later: a replay.
        assert!(e.observe(&obs(2, 3.0, 10.0), 1, true).replayed);
        // Same pseudonym, same content, new time: a flood copy.
        assert!(e.observe(&obs(1, 3.2, 10.0), 2, false).duplicated);
        // After the window the content is forgotten.
        assert_eq!(e.observe(&obs(3, 30.0, 10.0), 3, false), EvidenceFinding::default());
        // Two new pseudonyms 50 µs and 5 m apart: one radio.
        e.observe(&obs(10, 40.0, 100.0), 4, true);
        let f = e.observe(&obs(11, 40.000_05, 105.0), 5, true);
        assert_eq!(f.co_located_with, vec![4]);
        // 1 ms apart is two radios.
        let f = e.observe(&obs(12, 40.001_05, 103.0), 6, true);
        assert!(f.co_located_with.is_empty());
    }
}
