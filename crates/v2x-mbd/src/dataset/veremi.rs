//! VeReMi (van der Heijden et al., SecureComm 2018) and VeReMi Extension (Kamel et al., ICC
//! 2020): one JSON-lines log per receiver — type 2 its own GPS readings, type 3 a received
//! beacon — and one ground-truth log (type 4: the true values and the sender's
//! `attackerType`, 0 for honest). The Extension adds pseudonyms (`senderPseudo`),
//! acceleration and heading vectors. Times are seconds; vectors [x, y, z].

use super::DatasetError;
use crate::geometry::heading_of;
use crate::message::{Kinematics, Message};
use serde::Deserialize;
use std::collections::HashMap;

#[derive(Deserialize)]
struct Line {
    #[serde(rename = "type")]
    kind: u8,
    #[serde(rename = "rcvTime", default)]
    rcv_time: f64,
    #[serde(rename = "sendTime", default)]
    send_time: f64,
    #[serde(default)]
    time: f64,
    #[serde(default)]
    sender: u64,
    #[serde(rename = "senderPseudo", default)]
    sender_pseudo: Option<u64>,
    #[serde(rename = "messageID", default)]
    message_id: u64,
    #[serde(rename = "attackerType", default)]
    attacker_type: u32,
    pos: [f64; 3],
    #[serde(default, alias = "noise")]
    pos_noise: [f64; 3],
    #[serde(default)]
    spd: [f64; 3],
    #[serde(default)]
    spd_noise: [f64; 3],
    #[serde(default)]
    acl: Option<[f64; 3]>,
    #[serde(default)]
    acl_noise: Option<[f64; 3]>,
    #[serde(default)]
    hed: Option<[f64; 3]>,
    #[serde(default)]
    hed_noise: Option<[f64; 3]>,
}

fn parse_lines(text: &str, origin: &str) -> Result<Vec<Line>, DatasetError> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l).map_err(|e| DatasetError::Format {
                path: origin.to_string(),
                line: i + 1,
                message: e.to_string(),
            })
        })
        .collect()
}

fn norm(v: [f64; 3]) -> f64 {
    v[0].hypot(v[1])
}

fn kinematics(l: &Line) -> Kinematics {
    let speed = norm(l.spd);
    // Heading: the Extension's heading vector, else the velocity's direction.
    let hed = l.hed.filter(|h| norm(*h) > 0.0).unwrap_or(l.spd);
    let heading = if norm(hed) > 0.0 {
        heading_of([hed[0], hed[1]])
    } else {
        0.0
    };
    // Acceleration signed along the direction of travel.
    let acl = l.acl.map_or(0.0, |a| {
        let (s, c) = heading.to_radians().sin_cos();
        a[0] * s + a[1] * c
    });
    Kinematics {
        pos: l.pos,
        pos_noise: [norm(l.pos_noise), 0.0, 0.0],
        spd: speed,
        spd_noise: norm(l.spd_noise),
        acl,
        acl_noise: l.acl_noise.map_or(0.0, norm),
        hed: heading,
        hed_noise: l
            .hed_noise
            .map_or(0.0, |h| heading_of([h[0], h[1]]).min(360.0 - heading_of([h[0], h[1]]))),
        drivers_profile: "Normal".into(),
        distance_to_road_edge: None,
    }
}

/// `attackerType` per message id, from a ground-truth log.
pub fn parse_ground_truth(text: &str, origin: &str) -> Result<HashMap<u64, u32>, DatasetError> {
    Ok(parse_lines(text, origin)?
        .into_iter()
        .filter(|l| l.kind == 4)
        .map(|l| (l.message_id, l.attacker_type))
        .collect())
}

/// One receiver's log as messages, labelled from `truth` (a message whose id is missing
/// from it is an error: the label would be a guess). The receiver's state is its latest
/// GPS reading before each reception.
pub fn parse_receiver_log(text: &str, origin: &str, truth: &HashMap<u64, u32>) -> Result<Vec<Message>, DatasetError> {
    let mut own: Option<Kinematics> = None;
    let mut out = Vec::new();
    for (i, l) in parse_lines(text, origin)?.into_iter().enumerate() {
        match l.kind {
            2 => own = Some(kinematics(&l)),
            3 => {
                let label = *truth.get(&l.message_id).ok_or_else(|| DatasetError::Format {
                    path: origin.to_string(),
                    line: i + 1,
                    message: format!("message {} has no ground truth", l.message_id),
                })?;
                out.push(Message {
                    rcv_time_ns: (l.rcv_time * 1e9).round() as i64,
                    send_time_ns: (l.send_time.max(l.time) * 1e9).round() as i64,
                    sender_id: l.sender.to_string(),
                    sender_alias: l.sender_pseudo.unwrap_or(l.sender),
                    message_id: l.message_id,
                    attacker: u8::from(label != 0),
                    receiver: own.clone().unwrap_or_else(|| Kinematics::at([0.0, 0.0], 0.0, 0.0, 0.0)),
                    sender: kinematics(&l),
                });
            }
            _ => {}
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extension_lines_by_hand() {
        let truth = parse_ground_truth(
            r#"{"type":4,"time":10.0,"sender":13,"attackerType":1,"messageID":5,"pos":[1,2,0],"pos_noise":[0,0,0],"spd":[0,0,0],"spd_noise":[0,0,0]}"#,
            "gt",
        )
        .unwrap();
        let log = concat!(
            r#"{"type":2,"rcvTime":9.9,"pos":[100,200,0],"noise":[3,4,0],"spd":[10,0,0],"spd_noise":[0,0,0],"acl":[1,0,0],"hed":[1,0,0]}"#,
            "\n",
            r#"{"type":3,"rcvTime":10.01,"sendTime":10.0,"sender":13,"senderPseudo":10013,"messageID":5,"pos":[110,200,0],"pos_noise":[3,4,0],"spd":[0,-5,0],"spd_noise":[0,0,0],"acl":[0,1,0],"hed":[0,-1,0]}"#
        );
        let m = parse_receiver_log(log, "log", &truth).unwrap();
        assert_eq!(m.len(), 1);
        let m = &m[0];
        assert_eq!((m.sender_alias, m.attacker, m.message_id), (10013, 1, 5));
        assert_eq!(m.sender.spd, 5.0);
        assert_eq!(m.sender.hed, 180.0);
        // Acceleration (0, 1) against a southward heading: braking, −1.
        assert!((m.sender.acl + 1.0).abs() < 1e-12);
        assert_eq!(m.sender.pos_noise[0], 5.0);
        assert_eq!(m.receiver.hed, 90.0);
        assert_eq!(m.rcv_time_ns, 10_010_000_000);
        // A message without ground truth is refused, not guessed.
        assert!(parse_receiver_log(&log.replace("\"messageID\":5", "\"messageID\":6"), "log", &truth).is_err());
    }
}
