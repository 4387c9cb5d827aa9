//! Attacks as pure functions over traces: [`choose`] picks the attackers and draws their
//! parameters, [`inject_logs`] takes the messages every receiver logged and returns them as
//! they would have been had the attackers lied ([`inject`]: both, on one log).
//!
//! A lie is decided once per transmission (every receiver of a message gets the same
//! content), in send-time order, with each attacker's parameters drawn once from the seeded
//! generator. Messages an attack adds (floods, Sybil phantoms) get message ids
//! `original + 2 000 000 + i`, as VeReMi NextGen's generator numbers them. Ground truth:
//! `attacker = 1` on a message that lies, with NextGen's conditional labels where the lie
//! has no effect (a reversed heading on a standing vehicle is not labelled).
//!
//! The kinds, their parameters and their sources are listed in [`Attack`]; names parse
//! with [`Attack::from_name`] (NextGen's camelCase names, F2MD's names, `faultySensor`).

mod kinds;

pub use kinds::{Attack, Drawn, Trigger, ALL_NAMES, F2MD_NAMES, NEXTGEN_NAMES};

use crate::message::{Kinematics, Message};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeMap, HashMap};

/// How attackers are chosen.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct InjectConfig {
    /// Share of the vehicles (ground-truth ids) that attack (NextGen: 0.2).
    pub ratio: f64,
    pub seed: u64,
}

impl Default for InjectConfig {
    fn default() -> Self {
        InjectConfig { ratio: 0.2, seed: 1 }
    }
}

/// What one transmission carries: the sender's part of a message.
#[derive(Debug, Clone, PartialEq)]
pub struct Sent {
    pub send_time_ns: i64,
    pub sender_id: String,
    pub alias: u64,
    pub message_id: u64,
    pub attacker: u8,
    pub sender: Kinematics,
}

impl Sent {
    /// The transmission of a logged message (its sender's part).
    pub fn of(m: &Message) -> Sent {
        Sent {
            send_time_ns: m.send_time_ns,
            sender_id: m.sender_id.clone(),
            alias: m.sender_alias,
            message_id: m.message_id,
            attacker: 0,
            sender: m.sender.clone(),
        }
    }
}

/// Transmissions seen so far (true content), for attacks that copy others.
#[derive(Debug, Default)]
pub struct History {
    sent: Vec<Sent>,
    /// Playground bounds (min x, min y, max x, max y) of the whole trace.
    pub bounds: [f64; 4],
}

impl History {
    /// True transmissions of others within `radius_m` of `at` sent in (`from_ns`, `to_ns`].
    fn near(&self, me: &str, at: [f64; 2], radius_m: f64, from_ns: i64, to_ns: i64) -> Vec<&Sent> {
        let start = self.sent.partition_point(|s| s.send_time_ns <= from_ns);
        self.sent[start..]
            .iter()
            .take_while(|s| s.send_time_ns <= to_ns)
            .filter(|s| s.sender_id != me && (s.sender.pos[0] - at[0]).hypot(s.sender.pos[1] - at[1]) < radius_m)
            .collect()
    }
}

/// Picks `cfg.ratio` of the vehicles (ground-truth ids, as NextGen's generator) as
/// attackers and draws each one's parameters.
pub fn choose<'a>(
    trace: impl IntoIterator<Item = &'a Message>,
    attack: &Attack,
    cfg: &InjectConfig,
) -> BTreeMap<String, Drawn> {
    let mut rng = ChaCha8Rng::seed_from_u64(cfg.seed);
    let mut ids: Vec<&str> = trace.into_iter().map(|m| m.sender_id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    let n = (ids.len() as f64 * cfg.ratio) as usize;
    let chosen: Vec<&str> = ids.choose_multiple(&mut rng, n).copied().collect();
    chosen
        .into_iter()
        .map(|id| (id.to_string(), attack.draw(&mut rng)))
        .collect()
}

/// Applies `attack` to `trace` (one log, any order; returned sorted by reception time).
pub fn inject(trace: &[Message], attack: &Attack, cfg: &InjectConfig) -> Vec<Message> {
    let attackers = choose(trace, attack, cfg);
    let logs = [(String::new(), trace.to_vec())];
    let mut out = inject_logs(&logs, attack, &attackers, cfg.seed);
    out.pop().map(|(_, m)| m).unwrap_or_default()
}

/// Applies `attack`, played by `attackers`, to every receiver's log (name, messages): the
/// receptions of one transmission (same send time and message id) get the same lie. Each
/// log comes back sorted by reception time; `seed` drives the per-transmission draws.
pub fn inject_logs(
    logs: &[(String, Vec<Message>)],
    attack: &Attack,
    attackers: &BTreeMap<String, Drawn>,
    seed: u64,
) -> Vec<(String, Vec<Message>)> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(1);
    let mut by_id: BTreeMap<(i64, u64), Vec<(usize, &Message)>> = BTreeMap::new();
    let mut bounds = [f64::INFINITY, f64::INFINITY, f64::NEG_INFINITY, f64::NEG_INFINITY];
    for (li, (_, trace)) in logs.iter().enumerate() {
        for m in trace {
            by_id.entry((m.send_time_ns, m.message_id)).or_default().push((li, m));
            let p = m.sender.pos;
            bounds = [
                bounds[0].min(p[0]),
                bounds[1].min(p[1]),
                bounds[2].max(p[0]),
                bounds[3].max(p[1]),
            ];
        }
    }
    let mut states: HashMap<&str, kinds::State> = attackers
        .iter()
        .map(|(id, d)| (id.as_str(), kinds::State::new(d)))
        .collect();
    let mut history = History {
        sent: Vec::new(),
        bounds,
    };
    let mut out: Vec<Vec<Message>> = logs.iter().map(|(_, t)| Vec::with_capacity(t.len())).collect();
    for receptions in by_id.values() {
        let original = Sent::of(receptions[0].1);
        let lies = match states.get_mut(original.sender_id.as_str()) {
            Some(state) => attack.transmit(state, &original, &history, &mut rng),
            None => vec![original.clone()],
        };
        history.sent.push(original.clone());
        for &(li, r) in receptions {
            for lie in &lies {
                let shift = lie.send_time_ns - original.send_time_ns;
                out[li].push(Message {
                    rcv_time_ns: r.rcv_time_ns + shift,
                    send_time_ns: lie.send_time_ns,
                    sender_id: lie.sender_id.clone(),
                    sender_alias: lie.alias,
                    message_id: lie.message_id,
                    attacker: lie.attacker,
                    receiver: r.receiver.clone(),
                    sender: lie.sender.clone(),
                });
            }
        }
    }
    logs.iter()
        .zip(out)
        .map(|((name, _), mut msgs)| {
            msgs.sort_by_key(|m| (m.rcv_time_ns, m.message_id));
            (name.clone(), msgs)
        })
        .collect()
}

/// One attacker lying live, transmission by transmission (the testbed's insider): the same
/// lies as [`inject_logs`] makes on a trace, for a station that decides each CAM's content
/// as it sends it. What it hears of others ([`Liar::hear`]) is what the attacks that copy
/// neighbours (data replay, disruptive) draw from.
#[derive(Debug)]
pub struct Liar {
    attack: Attack,
    state: kinds::State,
    history: History,
    rng: ChaCha8Rng,
}

/// How long a liar remembers what it heard (the longest look-back of an attack is 5 s).
const HEARD_NS: i64 = 10_000_000_000;

impl Liar {
    /// An attacker of `attack` with parameters drawn from `seed`; `bounds` (min x, min y,
    /// max x, max y) is where position attacks that pick a place pick it.
    pub fn new(attack: Attack, seed: u64, bounds: [f64; 4]) -> Liar {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let drawn = attack.draw(&mut rng);
        Liar {
            state: kinds::State::new(&drawn),
            attack,
            history: History {
                sent: Vec::new(),
                bounds,
            },
            rng,
        }
    }

    /// Another station's transmission, as heard (in send-time order).
    pub fn hear(&mut self, other: Sent) {
        let keep_from = other.send_time_ns - HEARD_NS;
        let old = self.history.sent.partition_point(|s| s.send_time_ns < keep_from);
        self.history.sent.drain(..old);
        self.history.sent.push(other);
    }

    /// What the attacker sends instead of its true transmission `own` (the first replaces
    /// it; floods and Sybil attacks add more). `attacker = 1` marks the ones that lie.
    pub fn transmit(&mut self, own: &Sent) -> Vec<Sent> {
        self.attack.transmit(&mut self.state, own, &self.history, &mut self.rng)
    }
}

/// Uniform in [lo, hi] with a random sign (NextGen's `random_float_with_intervals`).
pub fn signed_uniform(rng: &mut ChaCha8Rng, lo: f64, hi: f64) -> f64 {
    let v = rng.gen_range(lo..=hi);
    if rng.gen_bool(0.5) {
        v
    } else {
        -v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sent(id: &str, alias: u64, t_s: f64, x: f64) -> Sent {
        Sent {
            send_time_ns: (t_s * 1e9) as i64,
            sender_id: id.into(),
            alias,
            message_id: (t_s * 10.0) as u64,
            attacker: 0,
            sender: Kinematics::at([x, 0.0], 10.0, 90.0, 0.0),
        }
    }

    #[test]
    fn a_live_liar_keeps_its_drawn_offset_and_replays_what_it_heard() {
        let mut liar = Liar::new(Attack::ConstantPositionOffset, 7, [0.0, 0.0, 100.0, 100.0]);
        let a = liar.transmit(&sent("a", 1, 1.0, 10.0));
        let b = liar.transmit(&sent("a", 1, 2.0, 20.0));
        let (dx, dy) = (a[0].sender.pos[0] - 10.0, a[0].sender.pos[1]);
        assert!(
            (20.0..=70.0).contains(&dx.abs()) && (20.0..=70.0).contains(&dy.abs()),
            "{dx} {dy}"
        );
        assert_eq!(
            (b[0].sender.pos[0] - 20.0, b[0].sender.pos[1]),
            (dx, dy),
            "one offset per attacker"
        );
        assert!(a[0].attacker == 1 && b[0].attacker == 1);

        // NextGen's data replay sends the next message of a victim heard within 400 m, 5 s.
        let mut replay = Liar::new(Attack::DataReplayNextGen, 7, [0.0, 0.0, 100.0, 100.0]);
        replay.hear(sent("v", 2, 0.9, 55.0));
        let out = replay.transmit(&sent("a", 1, 1.0, 50.0));
        assert_eq!(out.len(), 1);
        assert_eq!(
            (out[0].sender.pos[0], out[0].attacker, out[0].alias),
            (55.0, 1, 1),
            "{out:?}"
        );
    }
}
