//! One received CAM as a receiver logs it: the VeReMi NextGen message schema (times in
//! nanoseconds, positions in metres in a local plane, speed m/s, acceleration m/s², heading
//! in degrees clockwise from north), with the sender's and the receiver's state and the
//! ground truth (`attacker`). Attacks, checks, the dataset readers and writers and the
//! scores all work on this one type.

use serde::{Deserialize, Serialize};

/// Sender or receiver state carried by a message (NextGen's `sender` / `receiver` objects).
///
/// `*_noise` are the declared confidences the checks use: `pos_noise[0]` the position
/// confidence radius (m), `spd_noise` (m/s), `acl_noise` (m/s²), `hed_noise` (degrees).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Kinematics {
    #[serde(with = "triple")]
    pub pos: [f64; 3],
    #[serde(with = "triple")]
    pub pos_noise: [f64; 3],
    pub spd: f64,
    pub spd_noise: f64,
    pub acl: f64,
    pub acl_noise: f64,
    pub hed: f64,
    pub hed_noise: f64,
    /// `Normal`, `Cautious` or `Aggressive` in NextGen; free text here.
    #[serde(rename = "driversProfile", default = "unknown_profile")]
    pub drivers_profile: String,
    /// Signed distance of the reported position to the edge of the nearest road (m, positive
    /// on the road); only the sender's is written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distance_to_road_edge: Option<f64>,
}

fn unknown_profile() -> String {
    "Normal".to_string()
}

impl Kinematics {
    /// A state at `pos` with the given motion and confidences, profile `Normal`.
    pub fn at(pos: [f64; 2], spd: f64, hed: f64, acl: f64) -> Kinematics {
        Kinematics {
            pos: [pos[0], pos[1], 0.0],
            pos_noise: [0.0; 3],
            spd,
            spd_noise: 0.0,
            acl,
            acl_noise: 0.0,
            hed,
            hed_noise: 0.0,
            drivers_profile: unknown_profile(),
            distance_to_road_edge: None,
        }
    }

    pub fn xy(&self) -> [f64; 2] {
        [self.pos[0], self.pos[1]]
    }
}

/// One received message (NextGen's JSON object).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Message {
    #[serde(rename = "rcvTime")]
    pub rcv_time_ns: i64,
    #[serde(rename = "sendTime")]
    pub send_time_ns: i64,
    /// The true vehicle (ground truth; a receiver sees only the alias).
    pub sender_id: String,
    /// The pseudonym the message is signed under.
    pub sender_alias: u64,
    #[serde(rename = "messageID")]
    pub message_id: u64,
    /// Ground truth: 1 when this message lies.
    pub attacker: u8,
    pub receiver: Kinematics,
    pub sender: Kinematics,
}

impl Message {
    pub fn send_time_s(&self) -> f64 {
        self.send_time_ns as f64 * 1e-9
    }

    pub fn rcv_time_s(&self) -> f64 {
        self.rcv_time_ns as f64 * 1e-9
    }

    pub fn is_attack(&self) -> bool {
        self.attacker != 0
    }
}

/// NextGen writes positions as `"x,y,z"` strings (its generator and checks read that form)
/// and documents arrays; both read, strings are written.
mod triple {
    use serde::de::{Error, SeqAccess, Visitor};
    use serde::{Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &[f64; 3], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("{},{},{}", v[0], v[1], v[2]))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[f64; 3], D::Error> {
        struct Triple;
        impl<'de> Visitor<'de> for Triple {
            type Value = [f64; 3];
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("\"x,y,z\" or [x, y, z]")
            }
            fn visit_str<E: Error>(self, v: &str) -> Result<[f64; 3], E> {
                let mut out = [0.0; 3];
                let mut parts = v.split(',');
                for o in &mut out {
                    *o = parts
                        .next()
                        .and_then(|p| p.trim().parse().ok())
                        .ok_or_else(|| E::custom(format!("not x,y,z: {v}")))?;
                }
                if parts.next().is_some() {
                    return Err(E::custom(format!("more than three values: {v}")));
                }
                Ok(out)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<[f64; 3], A::Error> {
                let mut out = [0.0; 3];
                for (i, o) in out.iter_mut().enumerate() {
                    *o = a.next_element()?.ok_or_else(|| A::Error::invalid_length(i, &self))?;
                }
                if a.next_element::<f64>()?.is_some() {
                    return Err(A::Error::invalid_length(4, &self));
                }
                Ok(out)
            }
        }
        d.deserialize_any(Triple)
    }
}
